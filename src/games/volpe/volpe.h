/* volpe.h — private interface of La volpe e le oche (Fox and Geese, 17 geese, seed 004):
 * board tables, rules, the bitboard state, move generation and the measures the game, its
 * bots and its tests share. */
#ifndef GIOCHI_VOLPE_H
#define GIOCHI_VOLPE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/course.h"
#include "core/game.h"

/* The default ruleset: configs/volpe.json, embedded byte for byte at build time
 * (tools/embed.sh). */
extern const char config_volpe_json[];

enum {
    VOLPE_POINTS = 33,    /* the cross: a 7x7 grid without its four 2x2 corners */
    VOLPE_DIRS = 8,       /* N NE E SE S SW W NW (N = towards row 7) */
    VOLPE_MAX_GEESE = 24, /* a fox move's code keeps 6 bits of point + 1 bit per goose */
    VOLPE_PAGE = GAME_MAX_ACTIONS - 1, /* fox moves per page when they are too many */
    VOLPE_MORE = 1 << 30, /* the fox's action that turns to the next page of its moves */
    VOLPE_MAX_QUIET = 128, /* longest no_progress_moves: the repetition history's length */
};

/* Seats: the fox is seat 1 (index 0) and moves first; the geese are seat 2. */
enum { VOLPE_FOX = 0, VOLPE_GEESE = 1 };

/* Which diagonal steps are lines of the board (ruleset key diagonals). */
typedef enum volpe_diagonals {
    VOLPE_DIAG_ALL,       /* every diagonal step between two points of the cross */
    VOLPE_DIAG_ALQUERQUE, /* only through points whose column + row is even */
    VOLPE_DIAG_NONE,
} volpe_diagonals;

/* What happens when the geese must move and cannot (ruleset key geese_blocked). */
typedef enum volpe_blocked {
    VOLPE_BLOCKED_LOSE, /* the geese lose, as the fox does when it cannot move */
    VOLPE_BLOCKED_DRAW,
    VOLPE_BLOCKED_PASS, /* the turn goes back to the fox */
} volpe_blocked;

/* End kinds, in the order of game_volpe.end_names. */
enum {
    VOLPE_END_FOX_CAPTURED, /* the fox took fox_wins_at geese */
    VOLPE_END_FOX_TRAPPED,  /* the fox could not move on its turn */
    VOLPE_END_GEESE_BLOCKED,
    VOLPE_END_REPETITION,
    VOLPE_END_NO_PROGRESS,
    VOLPE_END_MOVE_CAP,
};

/* Metric indices, in the order of game_volpe.metrics; the trap heat map follows, one
 * METRIC_RATE per point from VOLPE_M_TRAPPED (point 0) to VOLPE_M_TRAPPED + 32, then one
 * METRIC_RATE per end kind from VOLPE_M_ENDS (VOLPE_END_FOX_CAPTURED) on, in their order. */
enum {
    VOLPE_M_CAPTURED,
    VOLPE_M_FOX_MOVES,
    VOLPE_M_CAPTURE_MOVES,
    VOLPE_M_MULTI_JUMPS,
    VOLPE_M_LONGEST_CHAIN,
    VOLPE_M_TRAPPED,
    VOLPE_M_ENDS = VOLPE_M_TRAPPED + VOLPE_POINTS,
    VOLPE_ENDS = VOLPE_END_MOVE_CAP + 1, /* end kinds */
    VOLPE_M_COURSE = VOLPE_M_ENDS + VOLPE_ENDS, /* the course metrics (core/course.h) */
};

/* The board's lines under a ruleset: step[p][dir] is the point one step from p in dir, or
 * -1 where no line goes; a jump from p in dir passes over step[p][dir] and lands on
 * step[step[p][dir]][dir] (both steps must be lines). */
typedef struct volpe_board {
    int8_t step[VOLPE_POINTS][VOLPE_DIRS];
    uint64_t steps[VOLPE_POINTS]; /* bitboard of step[p][*] */
    int njumps[VOLPE_POINTS];
    int8_t over[VOLPE_POINTS][VOLPE_DIRS], land[VOLPE_POINTS][VOLPE_DIRS];
    uint64_t goose_to[VOLPE_POINTS];      /* bitboard of where a goose on p may step */
    int8_t goose_step[VOLPE_POINTS][3];   /* those points: N, W, E (-1: off the cross) */
    uint64_t below[VOLPE_POINTS];         /* the points of p's column in lower rows */
    /* Geese steps as shifts of the point index: within a row, west is -1 and east +1;
     * forward is +3, +5 or +7 depending on the rows (fwd_from: the points of each). */
    uint64_t west_from, east_from, fwd_from[3];
} volpe_board;

typedef struct volpe_rules {
    volpe_diagonals diagonals;
    int fox;                /* start point of the fox */
    uint64_t geese;         /* start points of the geese */
    int fox_wins_at;        /* geese the fox must take */
    volpe_blocked geese_blocked;
    int repetition;         /* a position's n-th occurrence draws; 0: off */
    int no_progress_moves;  /* moves in a row without a capture or a goose advance: draw */
    int max_moves;          /* the move cap: a draw */
    int32_t eval_base;      /* the evaluation's raw worth of the start (see volpe.c) */
    volpe_board board;
} volpe_rules;

/* The position and the game's tallies. The position itself is three words: geese, fox and
 * the side to move; hist keeps the positions since the last irreversible move (a capture
 * or a goose's step forward), which alone can repeat. */
typedef struct volpe_state {
    const volpe_rules *rules;
    uint64_t geese;
    int fox;
    int side; /* VOLPE_FOX or VOLPE_GEESE: who moves */
    int page; /* the page of the fox's moves on offer (see VOLPE_MORE) */
    bool over;
    int end;
    uint32_t winners;
    int moves;         /* moves made (both sides) */
    int captured;      /* geese taken */
    int fox_moves, capture_moves, multi_jumps, longest_chain;
    int trapped_at;    /* point where the fox was trapped, or -1 */
    int quiet;         /* moves since the last irreversible move: hist[0..quiet] are valid */
    uint64_t hist[VOLPE_MAX_QUIET + 1];
    course course; /* the material after every move (see game_volpe.standing) */
} volpe_state;

/* Bits set in x. The compiler's builtin calls a library routine unless the target has a
 * popcount instruction, which the portable build does not assume; this is as fast inline. */
static inline int volpe_popcount(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

/* Fills b with the lines of the cross under diagonal option diag. */
void volpe_board_build(volpe_board *b, volpe_diagonals diag);

/* The point at column x (0 = A) and row y (0 = row 1), or -1 off the cross. */
int volpe_point(int x, int y);
/* Column (0..6) and row (0..6) of point p. */
int volpe_x(int p);
int volpe_y(int p);
/* Parses a point name ("D5"); returns its index or -1. */
int volpe_parse_point(const char *name);
/* Writes the name of point p ("D5") into buf (room for 3 bytes). */
void volpe_point_name(int p, char *buf);

/* The position key: geese | fox << 33 | side << 39 | page << 40. Equal keys, equal
 * positions. */
uint64_t volpe_key(const volpe_state *s);

/* The fox's moves from fox with the given geese, in a fixed order: its steps, then one
 * action per distinct (destination, geese captured) of its jump chains, met depth first.
 * Returns their number; writes moves first..first+max-1 of that order into out (if not
 * NULL) and the most geese one move takes into *most (if not NULL). A code is
 * dest | rank mask << 6, the rank mask having bit i set when the i-th goose in point order
 * is captured. */
int volpe_fox_moves(const volpe_board *b, uint64_t geese, int fox, int first, int max,
                    int32_t *out, int *most);
/* Writes the geese's moves (to | from << 6: steps forward by goose in point order, then
 * steps west, then east) into out (room for 3 * VOLPE_MAX_GEESE); returns their number. */
int volpe_geese_moves(const volpe_board *b, uint64_t geese, int fox, int32_t *out);
/* Whether the fox has a move / the number of its steps plus single jumps (cheap counts). */
bool volpe_fox_can_move(const volpe_board *b, uint64_t geese, int fox);
int volpe_fox_mobility(const volpe_board *b, uint64_t geese, int fox);
/* Most geese the fox can take in one move (0: no capture). */
int volpe_max_capture(const volpe_board *b, uint64_t geese, int fox);
/* Geese removed by fox action a with the given geese (a bitboard; 0 for a step). */
uint64_t volpe_captured_set(uint64_t geese, int32_t a);
/* The points the fox can reach by steps over empty points (its own point included). */
uint64_t volpe_fox_region(const volpe_board *b, uint64_t geese, int fox);

/* game_volpe.evaluate: the heuristic worth of a position for seat (see volpe.c). */
int32_t volpe_evaluate(const void *st, int seat);

/* The game (volpe.c) and its own bot (volpe_bots.c). */
/* game_type.view_json (volpe_json.c): the position as JSON for bots outside the process. */
void volpe_view_json(const void *seen, int seat, jsonw *w);
/* game_type.view_draw (volpe_json.c): the cross drawn for a person at the terminal. */
void volpe_view_draw(const void *before, const void *seen, int seat, FILE *f);
extern const game_type game_volpe;
extern const bot_type volpe_bot_greedy;
/* The perfect bot (volpe_perfect.c): plays from the database of --db=DIR (volpe_db.h). */
extern const bot_type volpe_bot_perfect;

/* One line for each ruleset key (volpe_keys.c; game_type.rule_docs). */
extern const rule_doc volpe_rule_docs[];

/* ---- the descriptor's parts (volpe.c), which volpe_game.c puts together ----------------------
 * Each does what its member of game_type says (core/game.h). */
void volpe_action_name(const void *st, const decision *d, int32_t a, char *buf, size_t n);
void volpe_apply(void *st, int32_t a, rng *chance, trace *tr);
int volpe_check(const void *vst, char *err, size_t errlen);
bool volpe_decide(const void *st, decision *d);
extern const char *const volpe_end_names[];
/* The ends in words for a person (game_type.end_words), in the order of the end names. */
extern const char *const volpe_end_words[];
/* game_type.glossary: the game's own words, as the reports use them. */
extern const game_term volpe_glossary[];
/* game_type.standing: each seat's standing now (see the game's page, METRICS). */
void volpe_standing(const void *state, int64_t *out);
/* game_type.limits: what one game can record. */
void volpe_limits(const void *rules, int nseats, game_limits *l);
void volpe_finish(const void *st, outcome *o, recorder *rec);
extern const metric_group volpe_groups[];
uint64_t volpe_hash(const void *st);
extern const char *const volpe_headline[];
extern const char *const volpe_kind_names[];
extern const metric_label volpe_labels[];
extern const metric_def volpe_metrics[];
void volpe_order(const void *st, const decision *d, int32_t *score);
bool volpe_page_turn(const void *st, const decision *d, int32_t a);
int volpe_rules_load(void *out, const cJSON *json, char *err, size_t errlen);
void volpe_start(void *st, const void *rules, int nseats, rng *chance, trace *tr);

#endif
