/* toy_kit.h — the toy games every folder's unit tests share: small games defined for the tests
 * only (never in the registry), whose answers are known in closed form or planted, so that the
 * shared machinery (runner, search bots, perft, experiments, searches) is tested apart from any
 * real ruleset. Each is described beside its code in toy_kit.c. */
#ifndef GIOCHI_TESTS_TOY_KIT_H
#define GIOCHI_TESTS_TOY_KIT_H

#include "core/game.h"

/* For the search bots and perft: tic-tac-toe; Nim on piles 3, 4, 5 (with a hash, and without
 * one); a dice race to RACE_GOAL, walking 2 or rolling 1..4. */
extern const game_type ttt_game, nim_game, nim_nohash_game, race_game;
enum { RACE_GOAL = 12 };

/* Their states, for tests that set up positions by hand. */
typedef struct ttt {
    int8_t cell[9]; /* 0 empty, 1 seat 0 (X), 2 seat 1 (O) */
    int8_t turn;    /* the seat to move */
    int8_t moves;
} ttt;

/* 1 or 2 if that mark has three in a row on t, else 0. */
int ttt_line(const ttt *t);

/* The piles, the seat to move, the seat that moved last (who wins once every pile is empty),
 * and whether taking exactly 3 stones earns another move. */
typedef struct nim {
    int8_t pile[3];
    int8_t turn, last;
    bool again;
} nim;

typedef struct race {
    int8_t pos[2];
    int8_t turn, winner;
} race;

/* "toy" (pig-race), for the runner: roll, then bank or pass; first to 10 wins, 30-turn cap.
 * Its bots: random and "bank" (always banks). */
extern const game_type toy_game;
extern const bot_type bot_bank;
/* The choice of "bank": always action 1 (bank); draws nothing. */
int always_bank(void *ctx, const void *seen, const decision *d, rng *r);
/* Its state, and the indices of its metrics (banks, first_roll, banked_six). */
typedef struct toy {
    int nseats, turn, mover, roll;
    int score[GAME_MAX_SEATS];
    int banks[GAME_MAX_SEATS];
    int first_roll;
} toy;
enum { TOY_BANKS, TOY_FIRST_ROLL, TOY_BANKED };

/* "edge", for the experiments: seat 1's win share is edge/6 + (1 - edge/6)/N exactly; bots
 * "a" and "b" play the first action. "scaled": the figure `big` is roll * scale, roll times. */
extern const game_type edge_game, scaled_game;

/* "plant", for the searches: the best q is 7 and the best z 0.3; the figure "hit" follows a
 * planted curve of the ruleset. Its bots: "dial" (plays its parameters q and z) and "wobble". */
extern const game_type plant_game;

#endif
