/* oca_kit.h — what the oca's unit tests share: a scripted game (tgame) and its moves,
 * the default ruleset with overrides, and bots set up at their defaults. */
#ifndef GIOCHI_OCA_KIT_H
#define GIOCHI_OCA_KIT_H

#include <stdint.h>

#include "games/oca/oca.h"
#include "core/game.h"

extern const game_type game_oca;

/* A game driven by a test: its state and its chance stream, whose dice the test scripts. */
typedef struct tgame {
    oca_state st;
    rng ch;
    int dice[64];
} tgame;

/* Loads the default ruleset into r with "key=json" overrides (NULL-terminated): top-level
 * keys, or board.N.key for square N (counted from 1, unlike --set, which takes the array
 * index). A ruleset that does not load fails the test. */
void ot_load(oca_rules *r, ...);

/* Scripts the next n dice (and rng_below values) of g's chance stream. */
void ot_dice(tgame *g, int n, const int *v);

/* Starts a game of n seats in which `capo` rolls 6,6,6 and every other seat 1,1,1, and the
 * deck stays in board order (card c is the c-th postcard square): seat capo+k gets cards
 * k, k+n, k+2n... */
void ot_begin(tgame *g, const oca_rules *r, int n, int capo);

/* Checks that seat must now decide `kind`, then applies action with the n dice that follow
 * next (each used, or the test fails; so does a ledger out of balance). act() passes the
 * caller's line. */
void ot_act_(int line, tgame *g, int kind, int seat, int32_t action, int n, ...);
#define act(g, kind, seat, action, ...) ot_act_(__LINE__, g, kind, seat, action, __VA_ARGS__)

/* The pending decision's kind, its seat in *seat (or -1, -1 when the game is over). */
int ot_pending(tgame *g, int *seat);

/* The balance of an account (a seat or ACC_*). */
int64_t ot_pts(const tgame *g, int account);

/* Gives the postcard of square sq to holder h (a seat or HOLD_*). The pending decision was
 * listed before: a change takes effect from the next one. */
void ot_set_card(tgame *g, int sq, int h);

/* Takes every dealt postcard out of play, so that no card decision interferes (the deck
 * keeps its cards). */
void ot_no_cards(tgame *g);

/* Two players, seat 0 Capo-gioco, nobody volunteers: the bank is the cashier; both have
 * paid the fee and the entry: seat 0 155, seat 1 145, cashier 100. */
void ot_begin_cashier2(tgame *g, const oca_rules *r);

/* Three players, seat 0 Capo-gioco, seat 1 the only volunteer, who joins the race. */
void ot_begin_banker3(tgame *g, const oca_rules *r);

/* Three players, seat 0 Capo-gioco, nobody volunteers: 160, 145, 145, cashier 150. */
void ot_begin_cashier3(tgame *g, const oca_rules *r);

/* Banker seat 1 with 5 points must pay 20 to seat 0 (square 13) and fails (article 8). */
void ot_fail_the_bank(tgame *g, const oca_rules *r);

/* Leaves one harmless postcard per seat (squares 11, 17 and 1) so that every turn opens with
 * the mover's trade window, where a test can place pieces and script the roll. */
void ot_hooks(tgame *g);

/* Seat s's turn: put it on square `at` (0: leave it), pass the trade window, roll `roll`.
 * turn() passes the caller's line. */
void ot_turn_(int line, tgame *g, int s, int at, int roll);
#define turn(g, s, at, roll) ot_turn_(__LINE__, g, s, at, roll)

/* Moves points to the Fondo Generale (through the ledger), to set up a poor player. */
void ot_drain(tgame *g, int s, int64_t keep);

enum { BOT_CTX = 4096 }; /* room for any oca bot's context (checked against ctx_size) */

/* Sets up bot names[s] at seat s of n under r in ctx[s] (cleared first), bt[s] its type, its
 * parameters at their defaults but "trade" at `trade` when trade >= 0. */
void ot_set_up_bots(const oca_rules *r, int n, const char *const *names, double trade,
                    const bot_type **bt, char (*ctx)[BOT_CTX]);

#endif
