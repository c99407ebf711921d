/* 45.h — private interface of the Gioco del 45 (Shut the Box, seed 001): rules, state, moves
 * and the exact turn analysis shared by the game, its bots and its tests. */
#ifndef GIOCHI_G45_H
#define GIOCHI_G45_H

#include <stdbool.h>
#include <stdint.h>

#include "core/course.h"
#include "core/game.h"

/* The default ruleset: configs/45.json, embedded byte for byte at build time
 * (tools/embed.sh). */
extern const char config_45_json[];

enum {
    G45_MAX_TILES = 12,                                   /* ruleset key tiles: 2..12 */
    G45_SETS = 1 << G45_MAX_TILES,                        /* tile sets, as bitmasks */
    G45_MAX_SUM = G45_MAX_TILES * (G45_MAX_TILES + 1) / 2, /* highest turn score: 78 */
    G45_TOTALS = 13,                                      /* dice totals 0..12 (1..12 used) */
    G45_PAIR_MOVES = 6,  /* most distinct moves for a total when a move is one or two tiles */
    G45_MAX_MOVES = 15,  /* ... and when it is any number of tiles (12 = 15 distinct sums) */
    G45_MAX_LIMIT = 10000,
};

/* What happens when several players shut the box in the same round (ruleset shut_ties). */
typedef enum g45_shut_ties {
    G45_SHUT_ROLLOFF,      /* the shutters are tied: the roll-off decides */
    G45_SHUT_SHARE,        /* the shutters share the win */
    G45_SHUT_LOWEST_TOTAL, /* the shutter with the lowest total wins; ties: roll-off */
} g45_shut_ties;

/* Which tiles a roll may shut (ruleset shut). */
typedef enum g45_shut_rule {
    G45_SHUT_ONE_OR_TWO, /* seed 001: the tile equal to the total, or two tiles summing to it */
    G45_SHUT_ANY,        /* Shut the Box's usual rule: any open tiles summing to the total */
} g45_shut_rule;

/* When a player rolls one die instead of two (ruleset one_die). */
typedef enum g45_one_die {
    G45_ONE_DIE_NEVER,      /* seed 001: always two dice */
    G45_ONE_DIE_HIGH_SHUT,  /* may choose one die once every tile from 7 up is shut */
    G45_ONE_DIE_SUM_6,      /* must roll one die while the open tiles sum to 6 or less */
} g45_one_die;

typedef struct g45_rules {
    int tiles;                   /* tiles 1..tiles */
    g45_shut_rule shut;
    g45_one_die one_die;
    /* The candidate moves of each total (1..12) under `shut`, highest tile first (in
     * decreasing bitmask order), then 0s; ncand[t] of them. Filled by rules_load. */
    int32_t cand[G45_TOTALS][G45_MAX_MOVES];
    int ncand[G45_TOTALS];
    int limit;                   /* a total >= limit at the end of a round eliminates */
    int weights[GAME_MAX_SEATS]; /* per seat, for the "heaviest player" roll-off rule */
    int nweights;                /* how many weights the ruleset gave (>= seats played) */
    g45_shut_ties shut_ties;
} g45_rules;

/* End kinds, in the order of game_45.end_names. A roll-off ends in one of three ways, kept
 * in the same order after G45_END_ROLLOFF and G45_END_SHUT_ROLLOFF. */
enum {
    G45_END_LAST_STANDING,
    G45_END_LOWEST_TOTAL,
    G45_END_ROLLOFF,
    G45_END_HEAVIEST,
    G45_END_WEIGHT_DRAW,
    G45_END_SHUT_BOX,
    G45_END_SHUT_SHARED,
    G45_END_SHUT_LOWEST_TOTAL,
    G45_END_SHUT_ROLLOFF,
    G45_END_SHUT_HEAVIEST,
    G45_END_SHUT_WEIGHT_DRAW,
    G45_END_NO_WINNER,
};

/* Decision kinds, in the order of game_45.kind_names. */
enum { G45_KIND_SHUT, G45_KIND_DICE };

/* Metric indices, in the order of game_45.metrics. */
enum {
    G45_M_SHUT_RATE,
    G45_M_MEAN_TURN_SCORE,
    G45_M_ELIMINATED,
    G45_M_ROLLOFF_ROUNDS,
    G45_M_COURSE, /* the course metrics (core/course.h) from here */
};

typedef struct g45_state {
    const g45_rules *rules;
    int nseats;
    int full;       /* bitmask of every tile: tile k is bit k-1 */
    int full_sum;   /* sum of every tile: the highest turn score */
    int round;      /* the round being played (1-based); rounds played once over */
    int seat;       /* the seat whose turn it is */
    int open;       /* open tiles of the current turn */
    int left;       /* sum of the open tiles (each move shuts tiles summing to the dice) */
    int dice;       /* total of the roll awaiting a decision */
    bool plain;     /* shut=one_or_two and one_die=never: the seed's play, the hot path */
    int kind;       /* the pending decision: G45_KIND_SHUT, or G45_KIND_DICE (one or two) */
    int ndice;      /* dice chosen for the next roll (one_die=high_shut), 0: not chosen */
    int nmoves;     /* its legal moves, listed once by run() for decide() */
    int32_t moves[G45_MAX_MOVES];
    bool over;
    uint32_t in_game;  /* seats not eliminated */
    uint32_t shut;     /* seats that shut the box in the current round */
    uint32_t winners;
    int end;
    int rolloff_rounds; /* 0 if no roll-off was needed */
    int total[GAME_MAX_SEATS];
    int elim_round[GAME_MAX_SEATS]; /* round of elimination, 0 if never eliminated */
    int turns[GAME_MAX_SEATS];
    int shuts[GAME_MAX_SEATS];
    int hist[GAME_MAX_SEATS][G45_MAX_SUM + 1]; /* turns per turn score; rows 0..nseats-1 */
    uint64_t used[GAME_MAX_SEATS][2]; /* bit v: hist[k][v] > 0 (finish visits only those) */
    course course; /* the totals after every round (see game_45.standing) */
} g45_state;

/* Number of ways (out of 36) two dice make `total`: 0 outside 2..12. */
int g45_ways(int total);

/* Writes into out (room for G45_MAX_MOVES, all of it may be written) the distinct legal
 * moves (tile bitmasks) for a roll of `total` (0..12) with the tiles of `open` still open,
 * the move with the highest tile first; returns their number (0..G45_MAX_MOVES). A move is
 * what r->shut allows: one tile equal to total or two tiles summing to it, or any tiles
 * summing to it. */
int g45_moves(const g45_rules *r, int open, int total, int32_t *out);

/* The dice a player with the tiles of `open` open rolls under r: 2 (two dice), 1 (one die)
 * or 0 (the player chooses: one_die=high_shut once every tile from 7 up is shut). */
int g45_dice_rule(const g45_rules *r, int open);

/* Ways (out of 36) to roll `total` with ndice dice (1 or 2): a die counts 6 ways per face. */
int g45_ways_n(int ndice, int total);

/* Sum of the tile numbers in set. */
int g45_sum(int set);

/* A deterministic turn policy: best[set][total] is the move to play (0: none legal), and
 * dice[set] the dice to roll (1 or 2) where the player may choose. */
typedef struct g45_policy {
    uint16_t best[G45_SETS][G45_TOTALS];
    uint8_t dice[G45_SETS];
} g45_policy;

/* The objective of an exact policy. */
typedef enum g45_goal { G45_MIN_SCORE, G45_MAX_SHUT } g45_goal;

/* Fills p with the optimal policy for `goal` under r (its tiles, shut and one_die rules) by
 * exact dynamic programming over the tile sets; equally good moves are broken towards the
 * move with the highest tile, equally good dice towards two dice. Uses only p and locals. */
void g45_policy_build(g45_policy *p, const g45_rules *r, g45_goal goal);

/* The best chance of shutting every tile in one turn under r, exactly: returns the numerator
 * over 36^tiles (tiles <= 12, so it fits). */
uint64_t g45_best_shut_numerator(const g45_rules *r);

/* The lowest expected turn score under r, exactly: the numerator over 36^(tiles+1), which
 * needs up to 74 bits. */
unsigned __int128 g45_best_score_numerator(const g45_rules *r);

/* The game (45.c). */
/* game_type.view_json (45_json.c): the position as JSON for bots outside the process. */
void g45_view_json(const void *seen, int seat, jsonw *w);
/* game_type.view_draw (45_json.c): the box and the totals for a person at the terminal. */
void g45_view_draw(const void *before, const void *seen, int seat, FILE *f);
extern const game_type game_45;

/* The game's own bots (45_bots.c). */
extern const bot_type g45_bot_greedy, g45_bot_optimal_score, g45_bot_optimal_shut;

/* game_45.exact: a new JSON object with the exact one-turn figures of every seat whose bot is
 * random, greedy, optimal-score or optimal-shut (caller frees), or NULL if there is none. */
cJSON *g45_exact(const void *rules, const seat_bots *seats);

/* One line for each ruleset key (45_keys.c; game_type.rule_docs). */
extern const rule_doc g45_rule_docs[];

/* ---- the descriptor's parts (45.c), which 45_game.c puts together ----------------------
 * Each does what its member of game_type says (core/game.h). */
void g45_action_name(const void *st, const decision *d, int32_t a, char *buf, size_t n);
void g45_apply(void *st, int32_t action, rng *chance, trace *tr);
int g45_check(const void *vst, char *err, size_t errlen);
bool g45_decide(const void *st, decision *d);
extern const char *const g45_end_names[];
/* The ends in words for a person (game_type.end_words), in the order of the end names. */
extern const char *const g45_end_words[];
/* game_type.glossary: the game's own words, as the reports use them. */
extern const game_term g45_glossary[];
/* game_type.standing: each seat's standing now (see the game's page, METRICS). */
void g45_standing(const void *state, int64_t *out);
/* game_type.limits: what one game can record. */
void g45_limits(const void *rules, int nseats, game_limits *l);
void g45_finish(const void *st, outcome *o, recorder *rec);
extern const metric_group g45_groups[];
extern const char *const g45_headline[];
extern const char *const g45_kind_names[];
extern const metric_label g45_labels[];
extern const metric_def g45_metrics[];
int g45_rules_check(const void *rules, int nseats, char *err, size_t errlen);
int g45_rules_load(void *out, const cJSON *json, char *err, size_t errlen);
void g45_start(void *st, const void *rules, int nseats, rng *chance, trace *tr);

#endif
