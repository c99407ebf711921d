/* game.h — the contract every ruleset and every bot implements (the game/bot split).
 *
 * A game is a descriptor (game_type) of function pointers over an opaque state of a fixed
 * size, in the spirit of gsl_rng_type. The runner drives every game the same way:
 *
 *     g->start(st, rules, nseats, chance, tr);
 *     for each seat k with bot->begin: bot->begin(ctx[k], what k sees now);
 *     while (g->decide(st, &d)) {                 // somebody must choose
 *         const void *seen = st;                  // perfect information ...
 *         if (g->view) { g->view(st, d.seat, buf); seen = buf; }   // ... or what d.seat sees
 *         int k = bot->choose(ctx[d.seat], seen, &d, &botrng[d.seat]);
 *         g->apply(st, d.action[k], chance, tr);
 *     }
 *     g->finish(st, &outcome, rec);
 *
 * Chance is not a separate node: start() and apply() roll dice, shuffle and deal from the
 * `chance` generator and run every automatic step until the next decision or the end. Every
 * choice a player makes at the table, whatever its kind (a move, a bid, a declaration, a card
 * play, a trade), is one decision among listed legal actions, tagged with a game-specific kind.
 */
#ifndef GIOCHI_GAME_H
#define GIOCHI_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/jsonw.h"
#include "core/rng.h"

enum {
    GAME_MAX_SEATS = 8,     /* no game seats more players */
    GAME_MAX_ACTIONS = 256, /* no decision offers more legal actions */
};

/* A decision point: seat `seat` must pick one of action[0..n-1]. Actions are game-defined
 * 32-bit codes; game_type.action_name renders one for traces. */
typedef struct decision {
    int seat;
    int kind; /* index into game_type.kind_names */
    int n;    /* >= 1 */
    int32_t action[GAME_MAX_ACTIONS];
} decision;

/* How one game ended. Filled by game_type.finish; the runner derives wins, ties and ranks. */
typedef struct outcome {
    int nseats;
    int length;                    /* in game_type.length_unit (rounds, turns, plays, moves) */
    int end;                       /* index into game_type.end_names */
    uint32_t winners;              /* bit s set: seat s shares the win; 0: nobody won */
    int64_t score[GAME_MAX_SEATS]; /* the game's final score per seat (see score_name) */
    int rank[GAME_MAX_SEATS];      /* 1 = first; tied seats share a rank; 0 = unranked */
} outcome;

/* ---- metrics ------------------------------------------------------------------------- */

typedef enum metric_kind {
    METRIC_RATE, /* successes out of trials: reported as a share with a Wilson interval */
    METRIC_MEAN, /* integer observations: mean with a t interval, sd, quantiles, histogram */
} metric_kind;

typedef enum metric_scope {
    METRIC_GAME, /* one figure for the whole table */
    METRIC_SEAT, /* one figure per seat */
} metric_scope;

/* A metric a game reports. Tables of these end with an entry whose name is NULL. */
typedef struct metric_def {
    const char *name; /* snake_case, unique within the game; used as JSON key and CSV value */
    metric_kind kind;
    metric_scope scope;
    const char *doc; /* one line for --list and the manual */
} metric_def;

/* An upper bound on a count of one game that grows with the game: at most
 * once + per_unit * length, where length is the game's outcome.length. Both 0: no bound
 * declared (the count is not checked). */
typedef struct game_bound {
    int64_t once, per_unit;
} game_bound;

/* What one game can record, under some rules at a table of some size (game_type.limits):
 * the checks of sense of a result read from outside (a --shard part, another MPI rank's
 * message: dist/partial.c, experiment/exp_sense.c) tie every count of the result to its
 * games with these. Each must hold for every game the rules allow, whatever its bots do:
 * a bound too tight refuses a genuine part. */
typedef struct game_limits {
    int64_t length;     /* the most outcome.length of one game; 0: no bound declared */
    game_bound choices; /* real choices (among two actions or more) of one seat, all its
                           decision kinds together */
    /* What one game adds to one slot of a metric (the game's, or one seat's): observations
     * of a mean, trials of a rate. At most one, but for the metrics named in these
     * NULL-terminated lists (NULL: none): per_player, at most one for each player at the
     * table (a game metric recorded for each player of a role, a rate over the players);
     * repeated, at most `repeats` (per turn, per declaration). */
    const char *const *per_player;
    const char *const *repeated;
    game_bound repeats;
} game_limits;

/* How a report presents a metric: a short human label and a unit. A game lists these in
 * game_type.labels (NULL-name-terminated); a metric without an entry is shown by its name. */
typedef struct metric_label {
    const char *name;  /* a metric of the game's table */
    const char *label; /* e.g. "players who went bankrupt"; never truncated in the summary */
    const char *unit;  /* unit of a mean ("points", "turns") or NULL (shares, plain counts) */
} metric_label;

/* A titled group of metrics in the text summary, HTML page and plots. */
typedef struct metric_group {
    const char *title;          /* e.g. "The bank"; NULL ends a table of groups */
    const char *const *metrics; /* names from the game's metric table, NULL-terminated */
} metric_group;

/* A distribution of a METRIC_MEAN metric that the summary shows whole, as a table of counts
 * and a chart of bars (report.c builds it from the metric's exact histogram): a designer's
 * view of a figure whose mean hides its shape (how many games had 0, 1, 2 bankruptcies) or
 * means nothing (the mean of square numbers). Every count is an integer sum of the run's
 * observations, so it is the same at any thread count and across shards. */
typedef struct metric_dist {
    const char *name;   /* key of the report's distribution, snake_case; NULL ends a table */
    const char *metric; /* a METRIC_MEAN metric of the table; a seat metric pooled over seats */
    const char *title;  /* "bankrupt players per game": what a row's value is */
    const char *value;  /* the column head of the values ("bankrupt players", "square") */
    const char *counts; /* what a count counts ("games", "players' games", "ruins") */
    /* Bins: of the width held by the ruleset's integer key width_key (e.g. "bid_step"),
     * aligned on its multiples; or of `width` (0: a round width giving at most 20 bins). */
    const char *width_key;
    int width;
    /* true: a table of counts by category, one row per value that occurs (no empty bins). */
    bool table;
    /* true: the summary shows this in place of the metric's row (its mean is no figure). */
    bool replaces_row;
    /* Optional: the row label of value v under the effective ruleset (e.g. a square's name);
     * writes at most n bytes into buf. NULL: the value (or "from..to" of a bin). */
    void (*label)(int64_t v, const cJSON *ruleset, char *buf, size_t n);
} metric_dist;

/* A table of figures, one metric of the game per row, shown together in the summary (and
 * charted in the HTML page): e.g. the auction winner's net by winning bid. The metrics of a
 * table are in no group of their own; rows with no observation are left out. */
typedef struct metric_table_row {
    const char *metric; /* NULL ends the rows */
    const char *label;  /* the row's label ("10..19") */
    double from, to;    /* the values the row covers (10, 19); NAN: open on that side */
} metric_table_row;
typedef struct metric_table {
    const char *name;     /* key in the report's "tables", snake_case; NULL ends a list */
    const char *title;    /* "auction winner's net by winning bid" */
    const char *row_head; /* head of the label column ("winning bid") */
    const char *after;    /* the summary shows it after the group holding this metric */
    const metric_table_row *rows;
} metric_table;

/* A role a player can hold in a game (the oca's Capo-gioco, its banker), and the game's
 * metrics of the players who hold it: its win share, mean net and bankruptcy (each a metric
 * of the game's table, or NULL). The summary shows them as one table beside "Who wins", the
 * JSON report under "roles"; they are game metrics, so every experiment takes them. */
/* A word of the game's own that its reports use (the oca's "dote"), and what it means, in one
 * line. The summary's last section ("Terms of the game") glosses each. */
typedef struct game_term {
    const char *term;    /* NULL ends a list */
    const char *meaning; /* "the 200 points each player starts with: the most one can lose" */
} game_term;

typedef struct metric_role {
    const char *role; /* NULL ends a list */
    const char *win, *net, *bankrupt;
} metric_role;

/* Collects a game's observations; implemented in recorder.c. `seat` is -1 for METRIC_GAME
 * metrics and 0..nseats-1 for METRIC_SEAT ones; `metric` indexes the game's metric table. */
typedef struct recorder recorder;

/* Adds one observation `value` of METRIC_MEAN metric `metric`. */
void rec_value(recorder *rec, int metric, int seat, int64_t value);
/* Adds `count` observations all equal to `value` (count >= 0) of a METRIC_MEAN metric. */
void rec_values(recorder *rec, int metric, int seat, int64_t value, int64_t count);
/* Adds a histogram row of a METRIC_MEAN metric: count[k] observations equal to lo + k, for
 * k in [0, n); total is the row's sum of counts, which lets the scan stop at the row's last
 * non-empty cell. The same as rec_values for every k, in one call. A row inside the values
 * seen so far is added whole, with no branch per cell: pass the cells the game may have
 * used (a short row), not its whole table. */
void rec_hist(recorder *rec, int metric, int seat, int64_t lo, const uint32_t *count, int n,
              int64_t total);
/* Adds `hits` successes out of `trials` trials (0 <= hits <= trials) of a METRIC_RATE metric. */
void rec_rate(recorder *rec, int metric, int seat, int64_t hits, int64_t trials);

/* ---- tracing ------------------------------------------------------------------------- */

/* A play-by-play sink for --trace; NULL when not tracing, so games test it before formatting.
 * TRACE(tr, "...") prints one line (the newline is added). */
typedef FILE trace;
#define TRACE(tr, ...)                                                                       \
    do {                                                                                     \
        if (tr) {                                                                            \
            fprintf((tr), __VA_ARGS__);                                                      \
            fputc('\n', (tr));                                                           \
        }                                                                                    \
    } while (0)

/* ---- games --------------------------------------------------------------------------- */

typedef struct bot_type bot_type;
struct seat_spec; /* core/runner.h */

/* The seats of a run, as the runner passes them to game_type.exact. */
typedef struct seat_bots {
    int nseats;
    const bot_type *bot[GAME_MAX_SEATS];
    const double *param[GAME_MAX_SEATS]; /* the bot's parameter values, in its table's order */
} seat_bots;

typedef struct game_type {
    const char *name;  /* the --game name */
    const char *title; /* e.g. "Gioco del 45 (Shut the Box)" */
    const char *seed;  /* the rule text it follows, in the source tree: "doc/rules/45.txt" */
    int min_seats, max_seats, default_seats;
    const char *default_bot; /* bot name used when --bots is absent */

    /* Ruleset. default_rules is the built-in JSON text, byte-identical to configs/<name>.json.
     * rules_load validates a complete ruleset object (the default merged with --config and
     * --set) into the game's own struct of rules_size bytes; on a bad value it returns -1 and
     * writes one line naming the key (e.g. "ruleset key 'limit': must be 1..1000") into err.
     * rules_load may keep pointers into nothing it was given: the struct must be self-contained.
     * rules_check (optional) checks the rules against the seat count, same error convention. */
    const char *default_rules;
    size_t rules_size;
    int (*rules_load)(void *rules, const cJSON *json, char *err, size_t errlen);
    int (*rules_check)(const void *rules, int nseats, char *err, size_t errlen);

    /* State. A state is plain data of state_size bytes: memcpy copies it (search bots clone
     * states that way), and it may keep a pointer to the rules, which outlive it. */
    size_t state_size;
    /* Sets up a new game for nseats players under rules and runs it to its first decision. */
    void (*start)(void *st, const void *rules, int nseats, rng *chance, trace *tr);
    /* Fills d with the pending decision and returns true; returns false once the game is over. */
    bool (*decide)(const void *st, decision *d);
    /* Optional, for a game that keeps its pending decision in the state: returns a pointer
     * to it (what decide would copy into d), or NULL once the game is over. The pointer is
     * valid until the next apply() or start() on st. The runner's batch loop then reads the
     * decision in place instead of copying it; it uses the hook only for games of perfect
     * information (view_size 0), since the pointer leads into the state. NULL: decide. */
    const decision *(*pending)(const void *st);
    /* Applies one of the actions last listed by decide, then runs to the next decision. */
    void (*apply)(void *st, int32_t action, rng *chance, trace *tr);
    /* Optional, for a game with the pending hook: apply() and then pending() in one call
     * (the same effect on st and chance, and the same decision, in place, or NULL once the
     * game is over). The runner's batch loop, when it reads decisions through pending and
     * neither traces nor checks, then makes one indirect call into the game per decision
     * instead of two. NULL: apply, then pending. */
    const decision *(*apply_pending)(void *st, int32_t action, rng *chance, trace *tr);
    /* Fills the outcome of a finished game and records its metrics. */
    void (*finish)(const void *st, outcome *o, recorder *rec);
    /* Optional: each seat's standing in st, a game begun or over, into out[0..nseats-1]:
     * higher is better, in the game's own unit (points, seeds captured, steps made), as the
     * game's man page defines it. The game notes it (or, a seat at a time, what changed of
     * it) into its course (core/course.h) at the end of every turn, round or move, from which
     * its quality figures come. Reads st only. NULL: the game keeps no course. */
    void (*standing)(const void *st, int64_t *out);
    /* Optional invariant check (--check): returns 0 if the state holds every invariant the
     * game keeps between steps (points, cards or seeds conserved, counts within bounds,
     * mirrors in agreement), or -1 with one line naming what is broken ("points: balances sum
     * to 790, 800 issued"). The runner calls it after start() and after every apply(), with
     * the user's own ruleset, so it must hold for any ruleset rules_load accepts. It reads
     * the state only (no chance, no side effect) and may cost about as much as a step.
     * NULL: the game has none yet (--check then verifies only the outcome). */
    int (*check)(const void *st, char *err, size_t errlen);

    /* Hidden information. view_size 0: perfect information, bots get the state itself.
     * Otherwise view() writes into view_size bytes exactly what `seat` may know, and bots get
     * only that. A view carries what a player at the table sees: its own hidden cards, the
     * public counts, and the public history of plays (who played what, and how), so that a
     * bot can draw inferences from the other players' choices. The runner writes views into
     * an allocation of their own, never at a fixed offset from the state, and seeds each
     * bot's random stream by a one-way function of the master seed (rng_derive), so that a
     * bot can reach the hidden parts of the state neither through memory nor through its
     * generator. */
    size_t view_size;
    void (*view)(const void *st, int seat, void *out);

    /* Renders action a of decision d for traces and --list ("shut 3+6", "bid 40"). */
    void (*action_name)(const void *st, const decision *d, int32_t a, char *buf, size_t n);

    const char *const *kind_names; /* decision kinds, NULL-terminated */
    const char *const *end_names;  /* how a game can end, NULL-terminated */
    const metric_def *metrics;     /* NULL-name-terminated */
    const char *length_unit;       /* "rounds", "turns", "plays", "moves" */
    /* Optional: fills l with what one game under rules (loaded by rules_load) with nseats
     * players can record (see game_limits). NULL: nothing declared; a result is then
     * checked only against its count of games. */
    void (*limits)(const void *rules, int nseats, game_limits *l);
    const char *score_name;        /* what outcome.score counts: "total", "points", "cards" */
    bool low_score_wins;           /* ordering of outcome.score for the summary */
    bool score_signed;             /* outcome.score may be negative; else no interval of its
                                      mean goes below 0 */
    const char *const *signed_metrics; /* the METRIC_MEAN metrics whose observations may be
                                      negative (a net of points), NULL-terminated, or NULL for
                                      none; every other mean is of counts or sizes, never below
                                      0, and no interval of it goes below 0 (stats_interval,
                                      STATS_NONNEG) */

    /* Optional exact analysis (--exact): returns a new JSON object describing exact values
     * for the given seats (the caller frees it), or NULL if the game has none for them. */
    cJSON *(*exact)(const void *rules, const seat_bots *seats);

    const bot_type *const *bots; /* the bots of this game, NULL-terminated (generic ones too) */
    /* Names of the bots (from bots) that take about a second or more per game under the
     * default ruleset on one core, NULL-terminated; --list marks them, so that long batch
     * runs are started with --progress. NULL: none. */
    const char *const *slow_bots;

    /* ---- search (optional) -------------------------------------------------------------
     * Hooks for the generic search bots (src/bots/: alphabeta, mcts) and for move-path
     * counts (--perft). A game leaves them zero unless they apply. */

    /* true: after start() returns, apply() never draws from `chance` and nothing is hidden
     * (view_size == 0), so the actions alone decide the future of a position. Such a game
     * lists every decision, forced ones (n == 1) included, so that move paths count as
     * moves at the table; --perft accepts only such games. */
    bool deterministic;
    /* Two-player zero-sum games: a heuristic worth, for `seat`, of a position that is not
     * over, in the game's own units (e.g. seeds x 100); the other seat's worth is its
     * negation. Must stay within +-GAME_EVAL_MAX. Search bots call it at their horizon;
     * finished positions are scored by finish() (win, draw, loss), never by evaluate. */
    int32_t (*evaluate)(const void *st, int seat);
    /* A 64-bit key of the position (pieces and the side to move, nothing else): equal
     * positions give equal keys. Transposition tables use it. NULL: search runs without. */
    uint64_t (*hash)(const void *st);
    /* Move-ordering hint for d (listed by decide on st): score[i] for d->action[i], higher
     * first (captures before quiet moves). NULL: actions keep their listed order. */
    void (*order)(const void *st, const decision *d, int32_t *score);
    /* Optional, for a game whose decisions may end in an action that is no move at the
     * table but turns to the next page of the same player's moves (a list longer than
     * GAME_MAX_ACTIONS): true if action a of d (listed by decide on st) is such a page turn.
     * --perft then counts the moves of every page at the same depth, expanding page turns in
     * place, so that its counts are moves at the table; a decision holds at most one page
     * turn. NULL: every action is a move. */
    bool (*page_turn)(const void *st, const decision *d, int32_t a);
    /* A fast game-specific bot that generic search may use as its playout policy (mcts
     * rollout=1), set up like a seat's bot with its default parameters, one context for
     * each seat (it then chooses for that seat in playouts). NULL: none. */
    const bot_type *policy;

    /* ---- presentation (optional) -------------------------------------------------------
     * How the summary (text, HTML, plots) presents the metrics. All three may stay NULL:
     * the summary then shows no headline, one group of every metric in table order, and the
     * metrics' own names. A metric listed in no group is shown under "Other figures". */
    const char *const *headline; /* metric names shown first, NULL-terminated */
    const metric_group *groups;  /* NULL-title-terminated */
    const metric_label *labels;  /* NULL-name-terminated */
    const metric_dist *dists;    /* distributions shown whole, NULL-name-terminated (or NULL) */
    const metric_table *tables;  /* tables of figures, NULL-name-terminated (or NULL) */
    const metric_role *roles;    /* the players' roles, NULL-role-terminated (or NULL) */
    const game_term *glossary;   /* the game's own words, NULL-term-terminated (or NULL) */
    /* Seat metrics (rates) whose successes the report divides among the types of player of a
     * run with populations ("share of the auctions won, by type"), NULL-terminated (or NULL). */
    const char *const *type_shares;
    /* Optional: what the headline figures rest on beyond the rule text, read from the report
     * tree r being built (its ruleset, seats, metrics and distributions): a new object
     * {"figures": [{"metric": NAME, "rests_on": [TEXT, ...]}], "keys": [{"key": KEY, "label":
     * TEXT}, ...]}, the keys dotted ruleset paths whose values are reconstructions (what
     * --depends moves), each with a label for the summary ("36 Ferry"). The
     * report keeps it as "depends_on"; the caller frees it. NULL: the game says nothing. */
    cJSON *(*depends)(const cJSON *r);

    /* ---- seen from outside ------------------------------------------------------------
     * For bots that live outside the process (src/bots/program.c, a program speaking the
     * line-JSON protocol of giochi-sim-bots(7)) and for a person at the terminal
     * (src/bots/human.c). Every game of the registry has view_json, and view_action_name
     * exactly when it has a view (tests/bots/test_program.c holds every game to this). A
     * descriptor made for tests only may leave both NULL: program bots and the human seat
     * then refuse to sit at it. */

    /* Writes into w one JSON object (jw_obj ... jw_obj_end): everything the bot of `seat`
     * may read in `seen`, and nothing more. `seen` is exactly what the runner hands that
     * seat's bot (the state under perfect information, the seat's view otherwise), so a
     * game with a view writes nothing the view does not hold: never another seat's hidden
     * cards, the order of a deck or the chance generator. Keys are snake_case, seats are
     * numbered from 0, per-seat figures are arrays indexed by seat; counts and positions
     * are integers. Reads `seen` only. */
    void (*view_json)(const void *seen, int seat, jsonw *w);
    /* For a game with a view (and only then): renders action a of decision d as action_name
     * does (the same text), reading the seat's view `seen` instead of the state. NULL: the
     * game has no view, and action_name is called on the state. */
    void (*view_action_name)(const void *seen, const decision *d, int32_t a, char *buf,
                             size_t n);

    /* ---- at the terminal (optional) ----------------------------------------------------
     * How the human seat (src/bots/human.c) shows the game to a person. All three may stay
     * NULL: the seat then lists view_json's members in words, numbers the choices 1..n and
     * says no more of an end than who won. */

    /* Draws for a person what `seat` sees in `seen` (what its bot is handed, as for
     * view_json): the board, the hand, the scores, in plain lines of text ending in '\n',
     * and nothing the seat may not know. `before` (NULL at the seat's first look) is a copy
     * of what the seat saw at its previous decision: the drawing may mark what changed since
     * (a figure moved, points paid). Reads both only; writes to f. */
    void (*view_draw)(const void *before, const void *seen, int seat, FILE *f);
    /* The number a person types for action a of decision d (listed for the seat of `seen`),
     * when the game has its own (a pit's number): distinct within d and >= 1; 0: none, and
     * the seat numbers the choices 1..n. Every action of d has a number, or none has. */
    int (*action_number)(const void *seen, const decision *d, int32_t a);
    /* How each end of end_names reads after "the game ended: " ("the fox was trapped"), in
     * the same order, NULL-terminated. */
    const char *const *end_words;

    /* ---- the ruleset's keys explained --------------------------------------------------
     * One line for each key of the ruleset, as rules_describe (config/rules.h) names it
     * ("dote", "faces.red", "board[].effect"), for --list, its JSON and the manual's key
     * tables; its type and range come from rules_load's own checks. NULL-key-terminated. */
    const struct rule_doc *rule_docs;
} game_type;

/* A ruleset key's one-line description (game_type.rule_docs). */
typedef struct rule_doc {
    const char *key, *doc;
} rule_doc;

/* The largest |evaluate| a game may return; search scores wins beyond it. */
#define GAME_EVAL_MAX 1000000

/* ---- bots ---------------------------------------------------------------------------- */

/* Which game of a run a bot plays (bot_type.game_begin, game_end): the run's master seed and
 * the game's index. The seat's stream for the game is RNG_STREAM_SEAT(seat) of the two
 * (rng_derive); a bot must never pass the master seed on to anything it does not trust,
 * since the chance stream derives from it too. */
typedef struct bot_game {
    uint64_t seed;  /* the master seed */
    uint64_t index; /* the game's index in the run */
} bot_game;

/* A numeric bot parameter, set on the command line as name:key=value. */
typedef struct bot_param {
    const char *name;
    double def, min, max;
    bool integer; /* value must be a whole number */
    const char *doc;
} bot_param;

/* A bot is a descriptor too. A run creates one context of ctx_size bytes per seat and per
 * worker thread (zeroed), calls setup once on it, choose for each decision of that seat,
 * and teardown (optional) at the end. */
struct bot_type {
    const char *name;
    const char *doc;
    const bot_param *params; /* NULL-name-terminated, or NULL for none */
    /* Optional: the default of parameter i (an index into params) at a table of nseats
     * players, for a bot whose defaults depend on how many play (use bot_param_default).
     * NULL: params[i].def at every table. */
    double (*param_default)(int i, int nseats);
    size_t ctx_size;
    /* Prepares ctx for `seat` of a run under rules. param holds one value per entry of params.
     * Returns 0, or -1 with a one-line message in err. Optional. */
    int (*setup)(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                 const double *param, char *err, size_t errlen);
    /* Returns the index (0..d->n-1) of the chosen action. `seen` is the state (perfect
     * information) or the seat's view; r is the seat's own random stream for this game. */
    int (*choose)(void *ctx, const void *seen, const decision *d, rng *r);
    void (*teardown)(void *ctx);
    /* Generic bots only (registry_generic_bots): whether the bot can play game g. */
    bool (*supports)(const game_type *g);
    /* Optional start-of-game hook: the runner calls it for every seat whose bot has it once
     * start() has dealt, before the first decision of each game, with what that seat sees
     * then (its view, or the state under perfect information). A bot resets its per-game
     * memory here (beliefs about hidden cards, a search tree kept between decisions). */
    void (*begin)(void *ctx, const void *seen);
    /* true: choose never draws from r. The runner then does not derive the seat's stream
     * (a SipHash per seat and game) and hands the bot a stream that aborts on its first
     * rng_below or rng_die. Results are the same either way. */
    bool no_draws;
    /* Optional: derived tables shared between the seats of one run, instead of a static
     * cache. The runner calls it just before setup on ctx, with the context of the nearest
     * earlier seat (of the same run and worker) whose bot has this same hook, already set up
     * under the same rules. setup may then copy what that seat derived from the rules rather
     * than work it out again. `earlier` is valid only until setup returns: ctx keeps no
     * pointer to it. */
    void (*peer)(void *ctx, const void *earlier);

    /* ---- games seen from outside (optional) --------------------------------------------
     * For bots that must be told which game of the run they play and how it ended (a
     * program outside the process, a person at the terminal). */

    /* Called for every seat whose bot has it once start() has dealt, before the first
     * decision (after begin, if the bot has both), with the game's place in the run and
     * what the seat sees then. */
    void (*game_begin)(void *ctx, const bot_game *game, const void *seen);
    /* Called for every seat whose bot has it once the game is over and its outcome made. */
    void (*game_end)(void *ctx, const bot_game *game, const outcome *o);
    /* Optional: called for every seat whose bot has it, other than `seat`, each time `seat`
     * makes a choice (a forced one included), before it is applied, with what the observing
     * seat sees then: `seat` chose `action`, of decision kind `kind`. Nothing else of that
     * seat's decision is passed (its list of legal actions may reveal its hidden cards).
     * A bot that has it makes the runner follow every step of the game (its slower loop). */
    void (*observe)(void *ctx, const void *seen, int seat, int kind, int32_t action);

    /* ---- a seat played by a population (bots/population.h) ------------------------------ */

    /* Optional: gives a set-up context new parameter values for the same seat, rules and
     * table, without a new setup, when nothing setup derived depends on the values that
     * change; returns 0, or -1 (ctx unchanged) when only a new setup will do. A population
     * whose knobs are drawn each game calls it before setting a member up again. The
     * context must then play exactly as one set up with param. */
    int (*retune)(void *ctx, const double *param);
    /* Optional: called before setup with the seat's whole spec (its population). */
    void (*bind)(void *ctx, const struct seat_spec *spec);
    /* Optional: the member of the seat's population (its index, a type of player) that
     * plays the current game, once the game has begun. */
    int (*member)(const void *ctx);
};

/* The default of bot b's parameter i at a table of nseats players: b->param_default's, or
 * params[i].def. What a seat plays when the parameter is not set (see botspec_parse). */
static inline double bot_param_default(const bot_type *b, int i, int nseats)
{
    return b->param_default ? b->param_default(i, nseats) : b->params[i].def;
}

#endif
