/* wari.h — private interface of Wari / Oware (seed 004, Abapa reading): rules, state, the
 * sowing arithmetic and the helpers its bots and tests share. Not part of the core contract. */
#ifndef GIOCHI_WARI_H
#define GIOCHI_WARI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/course.h"
#include "core/game.h"

/* The default ruleset: configs/wari.json, embedded byte for byte at build time
 * (tools/embed.sh). */
extern const char config_wari_json[];

enum {
    WARI_MAX_PITS = 8,   /* most pits per row */
    WARI_MAX_SEEDS = 12, /* most seeds per pit at the start */
    WARI_MAX_BOARD = 2 * WARI_MAX_PITS,
    /* The repetition rule keeps every position since the last capture as the moves that led
     * to it from there (see wari_state): at most WARI_STRETCH of them, which the ruleset
     * guarantees (with repetition on, move_cap or no_capture_limit is at most WARI_STRETCH). */
    WARI_STRETCH = 1024,
    /* Bits of the filter of those positions (a power of two): a position whose bit is clear
     * is new; a set bit is checked exactly by replaying the moves. */
    WARI_FILTER_LOG2 = 11,
    WARI_FILTER_WORDS = (1 << WARI_FILTER_LOG2) / 64,
    /* Largest n of the binomial table behind the exact position keys (total seeds + 2 rows). */
    WARI_BINOM_N = 2 * WARI_MAX_PITS * WARI_MAX_SEEDS + WARI_MAX_BOARD,
};

/* What a move that would capture every seed of the opponent does. */
enum wari_slam {
    WARI_SLAM_ALLOWED_NO_CAPTURE, /* Abapa: the move is legal and captures nothing */
    WARI_SLAM_FORBIDDEN,          /* illegal unless every legal move is one (then no capture) */
    WARI_SLAM_CAPTURES_ALL,       /* the move captures everything; the opponent is left empty */
};
enum wari_first { WARI_FIRST_SEAT1, WARI_FIRST_RANDOM };

/* How a game ends (indexes of the game's end_names). */
enum wari_end {
    WARI_END_MAJORITY,   /* a player captured more than half of the seeds */
    WARI_END_BLOCKED,    /* the player to move has no seeds, or cannot feed an empty opponent */
    WARI_END_REPETITION, /* a position came back since the last capture */
    WARI_END_NO_CAPTURE, /* no_capture_limit moves without a capture */
    WARI_END_MOVE_CAP,   /* move_cap moves played */
};

typedef struct wari_rules {
    int pits;             /* per row */
    int seeds;            /* per pit at the start */
    int total;            /* 2 * pits * seeds */
    int grand_slam;       /* enum wari_slam */
    int first_player;     /* enum wari_first */
    bool must_feed;       /* a player must give an empty opponent seeds when he can */
    bool repetition;      /* a repeated position since the last capture ends the game */
    int no_capture_limit; /* moves without a capture that end the game; 0: no limit */
    int move_cap;         /* moves that end the game */
    /* Optional ruleset key "start": the position a game starts from instead of full pits
     * (then first_player is not drawn: start_turn moves first). */
    bool has_start;
    uint8_t start_pit[WARI_MAX_BOARD];
    int start_store[2];
    int start_turn;
    /* binom[n][k] = C(n, k) for the exact position keys (wari_key); entries the ruleset
     * never uses may wrap. */
    uint64_t binom[WARI_BINOM_N + 1][WARI_MAX_BOARD];
    /* rowmask[s][w]: the bytes of seat s's row in word w of the board read as two 64-bit
     * words (row sums by one multiplication: no pit or sum exceeds 255 seeds). */
    uint64_t rowmask[2][2];
    /* Sowing as two 64-bit additions: sown[from][r] has a 1 in the byte of each of the r pits
     * after `from` (r < 2*pits - 1), others[from] a 1 in every pit but `from`. */
    uint64_t sown[WARI_MAX_BOARD][WARI_MAX_BOARD][2];
    uint64_t others[WARI_MAX_BOARD][2];
} wari_rules;

/* Per-seat counters kept for the metrics. */
typedef struct wari_counts {
    int32_t captures;      /* moves that captured */
    int32_t slams;         /* grand slams played (whatever the rule made of them) */
    int32_t slams_refused; /* decisions where a grand slam was possible and not played */
} wari_counts;

/* A position. Plain data (memcpy'd by search at every node), so kept small: the board, the
 * stores, the counters and the moves since the last capture (the repetition rule's memory).
 * Pits 0..pits-1 are seat 0's row, pits..2*pits-1 seat 1's; sowing goes up the indices
 * (counter-clockwise), round from the last pit to pit 0. */
typedef struct wari_state {
    const wari_rules *rules;
    uint8_t pit[WARI_MAX_BOARD];
    int16_t store[2];   /* seeds captured */
    uint8_t turn;       /* seat to move */
    uint8_t first;      /* seat that moved first */
    uint8_t over;       /* the game has ended */
    uint8_t end;        /* enum wari_end, once over */
    uint8_t starving;   /* must_feed and the opponent of the player to move has no seed */
    uint8_t pad[3];
    int32_t moves;      /* moves played */
    int32_t last_capture; /* move count right after the last capture (0: none yet) */
    wari_counts count[2];
    /* The repetition rule's memory (repetition on only): the board `anchor` right after the
     * last capture (or as wari_set_position set it), the pits played since (rec, own-row pit
     * numbers, two to a byte, low nibble first: nrec moves), and one bit per position since
     * the anchor in `seen` (its hash, see wari.c). The side to move at the anchor is turn when
     * nrec is even, the other seat otherwise; stores do not change between captures. */
    uint16_t nrec;
    uint8_t anchor[WARI_MAX_BOARD];
    uint64_t seen[WARI_FILTER_WORDS];
    course course; /* the stores after every move (see wari_standing) */
    uint8_t rec[WARI_STRETCH / 2];
} wari_state;

/* What one move does, as wari_sow computes it without touching a state. */
typedef struct wari_move {
    uint8_t pit[WARI_MAX_BOARD]; /* the board after the move, captures removed */
    int captured;                /* seeds captured by the move */
    bool slam;                   /* the move would capture every seed of the opponent */
} wari_move;

/* Sows the seeds of pit `a` (0..pits-1, counted from the mover's first pit) of seat `seat` on
 * board pit[] under rules r and fills *m: the new board and the capture, the grand-slam rule
 * applied (m->slam tells whether it was one). Does not check that the move is legal. */
void wari_sow(const wari_rules *r, const uint8_t *pit, int seat, int a, wari_move *m);

/* The legal moves (own-row pit numbers 0..pits-1, increasing) of `seat` on board pit[] under
 * rules r: non-empty own pits, only those that feed an empty opponent when one does
 * (must_feed), grand slams left out when the rule forbids them and another move exists.
 * Writes them into out (room for WARI_MAX_PITS) and returns how many (0: no move). */
int wari_legal(const wari_rules *r, const uint8_t *pit, int seat, int32_t *out);

/* Exact key of the board pit[] under rules r among boards with the same number of seeds: two
 * boards with equal totals have equal keys if and only if they are equal (combinatorial
 * number system over the 2*pits-1 "bars" between pits). */
uint64_t wari_key(const wari_rules *r, const uint8_t *pit);

/* Seeds on seat's row of board pit[]. */
int wari_row_seeds(const wari_rules *r, const uint8_t *pit, int seat);

/* Test and search hook: sets st to the position with board pit[] (2*pits entries), stores
 * store[2] and seat `turn` to move, as if `moves` moves had been played, none of them a
 * capture after move `last_capture`; the repetition memory starts at this position. Checks
 * the end conditions of the player to move like a move would. Does not take ownership of
 * rules. */
void wari_set_position(wari_state *st, const wari_rules *rules, const uint8_t *pit,
                       const int *store, int turn, int moves, int last_capture);

/* The game itself (wari.c) and its bot (wari_bots.c). */
/* game_type.view_json (wari_json.c): the position as JSON for bots outside the process. */
void wari_view_json(const void *seen, int seat, jsonw *w);
/* game_type.view_draw and action_number (wari_json.c): the rows drawn, a pit's number. */
void wari_view_draw(const void *before, const void *seen, int seat, FILE *f);
int wari_action_number(const void *seen, const decision *d, int32_t a);
extern const game_type game_wari;
extern const bot_type bot_wari_greedy;

/* Greedy's choice (an index into d) on st with the tie-break drawn from r: the largest
 * immediate capture, then the smallest best capture the opponent has in reply. */
int wari_greedy_pick(const wari_state *st, const decision *d, rng *r);

/* One line for each ruleset key (wari_keys.c; game_type.rule_docs). */
extern const rule_doc wari_rule_docs[];

/* ---- the descriptor's parts (wari.c), which wari_game.c puts together ----------------------
 * Each does what its member of game_type says (core/game.h). */
void wari_action_name(const void *state, const decision *d, int32_t a, char *buf, size_t n);
void wari_apply(void *state, int32_t action, rng *chance, trace *tr);
int wari_check(const void *vst, char *err, size_t errlen);
bool wari_decide(const void *state, decision *d);
extern const char *const wari_end_names[];
/* The ends in words for a person (game_type.end_words), in the order of the end names. */
extern const char *const wari_end_words[];
/* game_type.glossary: the game's own words, as the reports use them. */
extern const game_term wari_glossary[];
/* game_type.standing: each seat's standing now (see the game's page, METRICS). */
void wari_standing(const void *state, int64_t *out);
/* game_type.limits: what one game can record. */
void wari_limits(const void *rules, int nseats, game_limits *l);
int32_t wari_evaluate(const void *state, int seat);
void wari_finish(const void *state, outcome *o, recorder *rec);
extern const metric_group wari_groups[];
uint64_t wari_hash(const void *state);
extern const char *const wari_headline[];
extern const char *const wari_kind_names[];
extern const metric_label wari_labels[];
int wari_load_rules(void *rules, const cJSON *json, char *err, size_t errlen);
extern const metric_def wari_metrics[];
void wari_order(const void *state, const decision *d, int32_t *score);
void wari_start(void *state, const void *rules, int nseats, rng *chance, trace *tr);

#endif
