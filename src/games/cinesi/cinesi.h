/* cinesi.h — private interface of the Gioco dei Cinesi (Chinesenspiel, seed 004): rules,
 * state and the exact analysis shared by the game, its report and its tests. */
#ifndef GIOCHI_CINESI_H
#define GIOCHI_CINESI_H

#include <stdbool.h>
#include <stdint.h>

#include "core/course.h"
#include "core/game.h"

/* The default ruleset: configs/cinesi.json, embedded byte for byte at build time
 * (tools/embed.sh). */
extern const char config_cinesi_json[];

enum {
    CINESI_COLOURS = 4, /* red, yellow, green, blue; index 4 is white */
    CINESI_WHITE = CINESI_COLOURS,
    CINESI_MAX_SEATS = CINESI_COLOURS,
    CINESI_MAX_FACES = 12, /* ruleset: faces of one colour (or of white), 0..12 */
    CINESI_MAX_DIE = (CINESI_COLOURS + 1) * CINESI_MAX_FACES,
    CINESI_MAX_SIDE = 51,    /* ruleset key side: odd, 3..51 */
    CINESI_TURN_BINS = 64,   /* per-game histogram of rolls per turn: 1..63 */
    CINESI_SHORT_TURN = 12,  /* turns of fewer rolls are counted in the loop itself; a longer
                                one sets cinesi_state.wide and top (1 in 2048 turns under the
                                default rules: the recorder reads 1..11 in 9 games of 10) */
    CINESI_LONG_TURNS = 128, /* turns of 64 rolls or more, kept one by one */
};

/* How the game opens (ruleset key opening). */
typedef enum cinesi_opening {
    CINESI_OPEN_SEAT1,        /* seat 1 takes the die; the normal rules from the first roll */
    CINESI_OPEN_COLOUR_MOVES, /* roll until a played colour shows: its player moves one
                                 square and rolls on (the roll was his own colour) */
    CINESI_OPEN_COLOUR_NAMES, /* roll until a played colour shows: its player starts afresh */
} cinesi_opening;

/* Colour names, in colour order, then "white"; NULL-terminated. */
extern const char *const cinesi_colour_names[CINESI_COLOURS + 2];

typedef struct cinesi_rules {
    int seat_colour[CINESI_MAX_SEATS]; /* colour of each seat */
    int ncolours_listed;               /* entries of seat_colours (>= seats played) */
    int faces[CINESI_COLOURS + 1];     /* faces of each colour, then of white */
    int nfaces;                        /* the die has nfaces faces */
    int face_colour[CINESI_MAX_DIE];   /* colour (or CINESI_WHITE) of each face */
    int face_end[CINESI_COLOURS + 1];  /* faces of colour c are face_end[c-1]..face_end[c]-1 */
    int face_bits;                     /* bits of a face number: 2^face_bits >= nfaces */
    bool plain; /* faces 0..3 red, yellow, green, blue, one each, white 4.., 3 bits a face,
                   and seat k plays colour k (the default's die and seats): see plain_batch */
    int side;  /* the board has side x side squares */
    int steps; /* 4 (side-1) round the edge + (side-1)/2 up the diagonal */
    cinesi_opening opening;
} cinesi_rules;

/* Metric indices, in the order of game_cinesi.metrics. */
enum {
    CINESI_M_ROLLS,
    CINESI_M_RUNNER_UP,
    CINESI_M_ROLLS_PER_TURN,
    CINESI_M_COURSE, /* the course metrics (core/course.h) from here */
    CINESI_M_LEAD_CHANGES = CINESI_M_COURSE + COURSE_M_LEAD_CHANGES,
};

typedef struct cinesi_state {
    const cinesi_rules *rules;
    int nseats;
    int pos[CINESI_MAX_SEATS]; /* steps made by each figure (rules->steps: at the centre) */
    int winner;
    int starter;      /* the seat that played the first turn */
    int rolls;        /* every roll of the die, the opening's included */
    int turns;        /* turns begun; a turn ends with a foreign colour or with the win */
    int lead_changes; /* times the sole leader became a different seat */
    int nlong;        /* entries of long_turn */
    bool wide;        /* some turn had CINESI_SHORT_TURN rolls or more */
    int top;          /* the histogram's highest cell such a turn used (0: none) */
    int long_turn[CINESI_LONG_TURNS];                  /* rolls << 2 | seat, turns >= 64 rolls */
    /* Turns per seat by rolls (< 64). Cells from CINESI_SHORT_TURN up are cleared by the
     * first turn that long in a game (when it sets wide), and hold nothing before. */
    uint32_t hist[CINESI_MAX_SEATS][CINESI_TURN_BINS];
    course course; /* the steps made after every round (see game_cinesi.standing) */
} cinesi_state;

/* The game (cinesi.c). */
/* game_type.view_json (cinesi_json.c): the position as JSON for bots outside the process. */
void cinesi_view_json(const void *seen, int seat, jsonw *w);
/* game_type.view_draw (cinesi_json.c): the race drawn for a person at the terminal. */
void cinesi_view_draw(const void *before, const void *seen, int seat, FILE *f);
extern const game_type game_cinesi;

/* ---- exact analysis (cinesi_exact.c) -------------------------------------------------- */

/* The distributions stop once less than this much probability is left beyond them. */
#define CINESI_EXACT_TAIL 1e-21L

typedef struct cinesi_exact {
    int nseats;
    long double win[CINESI_MAX_SEATS];            /* P(seat k reaches the centre first) */
    long double seat_turns[CINESI_MAX_SEATS];     /* E[turns seat k plays] */
    long double rolls_per_turn[CINESI_MAX_SEATS]; /* E[rolls in k's turns] / E[k's turns] */
    long double turns_mean, turns_sd;             /* game length in turns */
    long double rolls_mean, rolls_sd;             /* game length in rolls */
    long double runner_up_mean; /* E[steps the runner-up still needs at the end] */
    long double *turns_pmf;     /* turns_pmf[g] = P(the game lasts g turns), g < turns_len */
    int turns_len;
    long double *rolls_pmf; /* likewise in rolls; NULL when too costly to compute */
    int rolls_len;
    long double tail; /* probability beyond turns_len (and beyond rolls_len) */
} cinesi_exact;

/* Computes the exact figures of the game under rules for nseats players into x (the caller
 * frees with cinesi_exact_free). The length in rolls gets its whole distribution only when
 * that costs fewer than `budget` multiply-adds (0: never); its mean and sd are always exact.
 * Returns 0, or -1 if some seat played has no face of its colour (rules_check forbids it). */
int cinesi_exact_compute(const cinesi_rules *rules, int nseats, double budget, cinesi_exact *x);

/* Frees what cinesi_exact_compute allocated in x (the struct itself is the caller's). */
void cinesi_exact_free(cinesi_exact *x);

/* The smallest v with P(value <= v) >= p under the pmf of len entries (index = value); the
 * same definition as the simulated quantiles. len - 1 if the pmf never reaches p. */
int cinesi_exact_quantile(const long double *pmf, int len, double p);

/* game_cinesi.exact: a new JSON object (caller frees) with the exact win share and rolls per
 * turn of every seat and the exact mean length in turns and rolls, runner-up distance (put
 * beside the simulated figures by the report), and the exact length distributions. Nobody
 * decides in this game, so the bots do not matter. NULL if the rules allow no analysis. */
cJSON *cinesi_exact_json(const void *rules, const seat_bots *seats);

/* One line for each ruleset key (cinesi_keys.c; game_type.rule_docs). */
extern const rule_doc cinesi_rule_docs[];

/* ---- the descriptor's parts (cinesi.c), which cinesi_game.c puts together ----------------------
 * Each does what its member of game_type says (core/game.h). */
void cinesi_action_name(const void *st, const decision *d, int32_t a, char *buf, size_t n);
void cinesi_apply(void *st, int32_t action, rng *chance, trace *tr);
int cinesi_check(const void *st, char *err, size_t errlen);
bool cinesi_decide(const void *st, decision *d);
extern const char *const cinesi_end_names[];
/* The ends in words for a person (game_type.end_words), in the order of the end names. */
extern const char *const cinesi_end_words[];
/* game_type.glossary: the game's own words, as the reports use them. */
extern const game_term cinesi_glossary[];
/* game_type.standing: each seat's standing now (see the game's page, METRICS). */
void cinesi_standing(const void *state, int64_t *out);
/* game_type.limits: what one game can record. */
void cinesi_limits(const void *rules, int nseats, game_limits *l);
void cinesi_finish(const void *st, outcome *o, recorder *rec);
extern const metric_group cinesi_groups[];
extern const char *const cinesi_headline[];
extern const char *const cinesi_kind_names[];
extern const metric_label cinesi_labels[];
extern const metric_def cinesi_metrics[];
int cinesi_rules_check(const void *rules, int nseats, char *err, size_t errlen);
int cinesi_rules_load(void *out, const cJSON *json, char *err, size_t errlen);
void cinesi_start(void *st, const void *rules, int nseats, rng *chance, trace *tr);

#endif
