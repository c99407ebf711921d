/* experiment_priv.h — what the parts of the experiment engine share, and nothing else may use:
 * the settings an experiment plays (their slots, how each slot is paired), the experiment being
 * run, the engine that plays it in step, and the functions that cross the files:
 *
 *   experiment.c    experiment_run: options -> settings -> play -> report tree -> rendering
 *   exp_pair.c      the exact paired sums of a slot and their estimates (experiment.h); a
 *                   slot's kind (share, mean never below 0, any real)
 *   exp_fair.c      seat_spread and first_seat: figures of every seat's win-share slot
 *   exp_settings.c  the settings of a sweep, a rotation or a sensitivity, and their slots
 *   exp_engine.c    plays every setting in step on common random numbers, one block at a time
 *   exp_play.c      the blocks of a run (--until's growing blocks and stopping rule)
 *   exp_blocks.c    a block's sums as bytes: the shards' files, MPI's messages, --merge
 *   exp_sense.c     whether block sums read from outside could have been played
 *   exp_progress.c  the progress indicator on stderr
 *   exp_report.c    the report tree (JSON) of a played experiment
 *   exp_csv.c       its CSV rendering
 *   exp_text.c      its text rendering
 *   search*.c, tune.c, seek.c, tournament.c: the searches (search.h), which play their
 *                   points through the engine
 *
 * The files hand each other these structures, never copies: an experiment owns its settings;
 * the engine borrows them while it plays. */
#ifndef GIOCHI_EXPERIMENT_PRIV_H
#define GIOCHI_EXPERIMENT_PRIV_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "config/botspec.h"
#include "experiment/experiment.h"
#include "core/pool.h"
#include "core/runner.h"
#include "core/stats.h"

/* --until plays blocks: the first ends at UNTIL_BLOCK games, each next one adds
 * max(UNTIL_BLOCK, games so far / 10): boundaries depend on nothing but the game count.
 * VALUE_MAX bounds the text of one swept value. */
enum { UNTIL_BLOCK = 1000, VALUE_MAX = 256 };

/* ---- paired sums (exp_pair.c) ---------------------------------------------------------------- */

/* Adds one game's own and cross sums (all but those of the baseline alone), without counting
 * the game. Inline: the game loop (exp_engine.c) adds large figures with it. */
static inline void own_cross_add(exp_pair *p, int64_t x, int64_t c, int64_t bx, int64_t bc)
{
    p->x += x;
    p->c += c;
    p->xx += (__int128)x * x;
    p->xc += (__int128)x * c;
    p->cc += (__int128)c * c;
    p->x_bx += (__int128)x * bx;
    p->x_bc += (__int128)x * bc;
    p->c_bx += (__int128)c * bx;
    p->c_bc += (__int128)c * bc;
}

/* Fills in the sums of p that the game loop leaves out (see pair64 in exp_engine.c): ca and cb
 * are the constant counts of the setting's and the baseline's slot (0: not constant); self: the
 * slot is the baseline's own, paired with itself. Touches only the fields it derives. */
void exp_pair_complete(exp_pair *p, int64_t ca, int64_t cb, bool self);

/* The moments of a pair's two ratios (see exp_pair_estimate): n games, the ratios ra = Σx/Σc
 * and rb = Σbx/Σbc (has_a, has_b: their counts are not 0), the sums of squares of their
 * games' influences uu and vv and of their products uv (0 below two games); alike: every game
 * has the same figure under both. var(ra) ≈ uu / (n (n-1)), var(ra - rb) ≈ (uu + vv - 2 uv)
 * / (n (n-1)). */
typedef struct exp_moments {
    long double n, ra, rb, uu, vv, uv;
    bool has_a, has_b, alike;
} exp_moments;

/* Computes the moments of p. */
void exp_pair_moments(const exp_pair *p, exp_moments *m);

/* The estimates of p (exp_pair_estimate) with the value's 95% interval inside support s: made
 * by stats_interval from the ratio's linearised variance on n-1 degrees of freedom (a share:
 * the design-effect Wilson interval, exact at 0 and 1 over Σc / unit trials; a mean of counts:
 * never below 0); a share's difference from the baseline kept inside [-1, 1]. Every printed
 * interval of an experiment's figure comes from here or from exp_fair.c's projections of it. */
void exp_pair_bounded(const exp_pair *p, stats_support s, int64_t unit, exp_estimate *e);

/* ---- settings (exp_settings.c) --------------------------------------------------------------- */

typedef enum axis_kind { AXIS_RULE, AXIS_PLAYERS, AXIS_PARAM } axis_kind;

/* One --sweep: a key and its values. */
typedef struct axis {
    char key[128];
    axis_kind kind;
    int seat;        /* AXIS_PARAM: 0-based seat */
    char param[64];  /* AXIS_PARAM: the bot parameter */
    int nval;
    char (*val)[VALUE_MAX];
} axis;

/* One figure of a setting's paired vector: a name with its seat or bot (1-based; 0: none). */
enum { EXP_TYPE_NAME = 136, EXP_TYPE_GROUP_MAX = 32 };
typedef struct slotdef {
    char name[72];
    int seat, bot;
    char type[EXP_TYPE_NAME]; /* a type of player's figure (a run with populations): its
                                 name, written NAME@TYPE; "" for none */
    int64_t unit;   /* c counts this many per observation (win units for win shares) */
    int64_t cconst; /* c of every game when it never varies (see pair64, exp_engine.c), or 0 */
} slotdef;

/* The kinds of slot the game loop adds: unpaired (the baseline's own, or a slot the baseline
 * lacks) or paired, with a constant count or not (see pair64 in exp_engine.c). */
enum { SLOT_SELF_CONST, SLOT_SELF, SLOT_CONST, SLOT_FULL };

/* How the game loop adds a slot (set by exp_pair_settings): its kind, its baseline slot, and
 * the constant counts of both (see slotdef.cconst). */
typedef struct slot_op {
    int kind, b;
    int64_t cconst, bconst;
} slot_op;

/* One setting of an experiment: its ruleset, players and bots (one run_config per rotation),
 * the layout of its slots and their pairing with the baseline's, and its sums once played. */
typedef struct setting {
    char label[512];    /* "entry_fee=30 players=3" ("default" when nothing is swept) */
    cJSON *values;      /* swept key -> value */
    char raw[EXP_MAX_SWEEPS][VALUE_MAX];
    cJSON *ruleset;
    void *rules;
    int nseats, nrot;
    run_config cfg[GAME_MAX_SEATS];                      /* one per rotation */
    char canon[GAME_MAX_SEATS][BOT_SPEC_MAX];            /* seat k's bot, unrotated */
    int nbots, botid[GAME_MAX_SEATS];                    /* distinct bots, seat -> bot */
    int nslots, ngame_slots, group;                      /* slot layout */
    int ntypes, type_slots; /* types of player (not rotated) and the first of their groups of
                               slots, one group per type after every other slot */
    int nends, ngm, nsm, *gm, *sm; /* the game's ends; its game and seat metrics' indices */
    slotdef *slot;
    int *pair;       /* baseline slot of each slot, or -1 */
    slot_op *op;     /* per slot: how it accumulates (see slot_op) */
    bool aligned;    /* not the baseline; slot j pairs with the baseline's slot j, paired
                        with a constant count exactly when its own is constant */
    int until_slot;  /* -1 when not stopping at a precision */
    bool active;     /* still counting games */
    uint64_t games;  /* games counted */
    double until_hw;
    run_result res;  /* totals (not rotated) */
    exp_pair *sum;   /* totals per slot, as the game loop adds them (acc completes them) */
    exp_pair *acc;   /* totals per slot */
    exp_pair *bsum;  /* the block being played: its sums per slot, */
    run_result bres; /* and its tallies (not rotated) */
    pthread_mutex_t lock; /* held by the worker adding a chunk's games into bsum and bres */
    cJSON *exact;
} setting;

/* ---- a slot's kind (exp_pair.c) ---------------------------------------------------------- */

/* Whether slot j of S is a share (shown in percent): a win share, a seat advantage, the
 * ties, no-winner and end figures (derived figures too), or a game metric that is a rate. */
bool exp_is_share(const setting *S, int j, const game_type *g);

/* The support of slot j's ratio (before a seat advantage's shift): a share; a mean never below
 * 0 (length, rank, a score the game does not sign, a mean metric not in signed_metrics); or
 * any real. */
stats_support exp_slot_support(const setting *S, int j);

/* One key moved by --sensitivity: its default, its step and the settings of both moves. A
 * number moves down and up by the step; a boolean to its other value, an enum to one other
 * value (a key per value), both as the "up" move. */
enum { SENS_NUMBER, SENS_BOOL, SENS_ENUM };
enum { SENS_VALUE_MAX = 64, SENS_MAX_CHOICES = 16 };
typedef struct sens_key {
    char key[256];
    int kind;                        /* SENS_* */
    double def, step;                /* a number's default and step */
    char defval[SENS_VALUE_MAX];     /* the default as --set writes it (JSON) */
    char val[2][SENS_VALUE_MAX];     /* the value of each move ("" : no such move) */
    int side[2]; /* setting index of down and up, or -1 */
    char skipped[2][512];
    double effect;
} sens_key;

/* An experiment: its options, settings and what the rendering reads once they are played. */
typedef struct experiment {
    const exp_options *o;
    axis ax[EXP_MAX_SWEEPS]; /* the --sweep options */
    int nax;
    setting *set;            /* every setting; set[base] is the baseline */
    int nset, base;
    sens_key *keys;          /* --sensitivity: the keys moved, then sorted by effect */
    int nkeys, capkeys;
    double target;           /* --until: the half-width, else 0 */
    char until_fig[128];     /* --until: the figure */
} experiment;

/* Parses a number; true if the whole text is one (and finite). */
bool exp_number(const char *s, double *out);

/* Checks the options that do not depend on a setting, and reads --until into x->target and
 * x->until_fig. Returns 0, or 2 with a one-line message. */
int exp_check_options(experiment *x, char *err, size_t errlen);

/* Builds x->set from the options: the --sweep grid (the first sweep varies slowest; the one
 * setting of the options when nothing is swept), or for --sensitivity the default ruleset
 * then each key moved (sens_key; by --step, default 10%; a move the game refuses is kept in
 * x->keys as skipped, with its reason). Returns 0, or 2 with a message; x->nset counts the settings
 * made so far either way, for exp_free_setting. */
int exp_sweep_settings(experiment *x, char *err, size_t errlen);
int exp_sensitivity_settings(experiment *x, char *err, size_t errlen);

/* Parses one --sweep text (KEY=V1,V2,... or KEY=FROM:TO:STEP) into a (a->val is the
 * caller's to free). Returns 0 or -1 with a message. */
int exp_parse_axis(const char *text, axis *a, char *err, size_t errlen);

/* Writes into out (n bytes) the canonical bot description canon with parameter param set to
 * value (replaced, or added after the others). */
void exp_with_param(const char *canon, const char *param, const char *value, char *out,
                    size_t n);

/* Builds setting S (its label set by the caller) from o with nextra more --set assignments
 * after o's, `players` seats (0: as o->bots gives), and for every AXIS_PARAM axis of ax its
 * value pick[a] in its seat's bot. Returns 0, or -1 with a message. */
int exp_make_setting(setting *S, const exp_options *o, const char *const *extra, int nextra,
                     int players, const axis *ax, const int *pick, int nax, char *err,
                     size_t errlen);

/* Picks the baseline (--baseline, else the first setting), pairs every slot of every setting
 * with the baseline's, resolves --until and --metric, and computes --exact. Returns 0, or 2
 * with a message. */
int exp_pair_settings(experiment *x, char *err, size_t errlen);

/* The slot of figure fig (NAME or NAME@K, see experiment.h) in setting S, a derived figure
 * (FIG_*, below -1: seat_spread, first_seat), or -1 with a message naming the option opt and
 * every figure S has. */
int exp_resolve_figure(const setting *S, const char *opt, const char *fig, char *err,
                       size_t errlen);

/* ---- figures that are no slot (exp_fair.c) ------------------------------------------------ */

/* seat_spread, the largest |win share - 1/N| over the N seats, and first_seat, seat 1's win
 * share - 1/N: computed from every seat's win-share slot (win_share@K; under --rotate-seats
 * seat_advantage@K, the seat itself). exp_resolve_figure returns them as these indices (below
 * -1, its error), which exp_slot_est, exp_is_share and exp_fsums_of take as slots. */
enum { FIG_SEAT_SPREAD = -2, FIG_FIRST_SEAT = -3 };

static inline bool exp_derived(int j)
{
    return j <= FIG_SEAT_SPREAD;
}

/* The name of derived figure j. */
const char *exp_derived_name(int j);

/* The derived figure named name (FIG_*), or -1. */
int exp_derived_find(const char *name);

/* The slot of S holding seat k's (1-based) win share: win_share@k, or seat_advantage@k under
 * rotation. */
int exp_seat_slot(const setting *S, int k);

/* The estimates of derived figure j of S against the baseline B (giochi-sim(1), EXPERIMENTS,
 * "Fairness"): seat_spread's value interval is the projection of the seats' simultaneous
 * (Bonferroni) intervals, its difference interval that of the simultaneous intervals of every
 * seat of S against every seat of B, paired on the same games where the seat is the same.
 * B NULL: the value only. */
void exp_fair_est(const setting *S, int j, const setting *B, exp_estimate *e);

/* A figure's exact sums, enough to estimate its value (with its interval) again once more
 * games are added: the searches play a point in rounds. */
typedef struct exp_fsums {
    int fig;      /* a slot index, or FIG_* */
    int nseats;
    double shift; /* what the value subtracts: 1/N for a seat advantage and first_seat */
    stats_support support; /* of the slot's ratio before the shift (exp_slot_support) */
    int64_t unit;          /* the slot's unit (slotdef.unit) */
    exp_pair p[GAME_MAX_SEATS]; /* a slot and first_seat: p[0]; seat_spread: seat k+1's in p[k] */
} exp_fsums;

/* The sums of figure j of S (its own games; the pairing with a baseline left out). */
void exp_fsums_of(const setting *S, int j, exp_fsums *f);

/* Adds src's sums into dst (the same figure, the same seats); false if one does not fit. */
bool exp_fsums_merge(exp_fsums *dst, const exp_fsums *src);

/* The figure's value and 95% interval from f (NAN when undefined). */
void exp_fsums_value(const exp_fsums *f, double *value, double *lo, double *hi);

/* Frees what setting S owns (not S itself). */
void exp_free_setting(setting *S);

/* ---- playing (exp_engine.c, exp_blocks.c, exp_play.c, exp_progress.c) ----------------------- */

/* The progress indicator of an experiment (exp_progress.c). Zero-initialise; `plays` is
 * added to by every worker, the rest is the calling thread's. */
typedef struct exp_progress {
    int mode;                /* RUN_PROGRESS_* (runner.h) */
    const char *game;
    int nset;
    bool until, shown;       /* --until: counts are at most; a line is on the terminal */
    int settings_done;       /* settings that stopped at their --until target */
    double t0, last;         /* start, and when the last line was shown */
    _Atomic uint64_t plays;  /* plays done */
    uint64_t plays_cap;      /* plays of the whole experiment (with --until: at most) */
} exp_progress;

/* Starts the clock of p (mode, game, nset, until and plays_cap set) and, in a log, writes the
 * opening line naming the number of worker threads. */
void exp_progress_start(exp_progress *p, int nworkers);

/* Shows p on stderr, as a plain run does (runner.h): on a terminal one line rewritten in place
 * once the experiment has lasted a second; in a log a line every 10 s. Calling thread only. */
void exp_progress_show(exp_progress *p);

/* Clears the terminal's line, or in a log writes the closing line. */
void exp_progress_end(exp_progress *p);

struct worker; /* one worker thread's state (exp_engine.c) */

/* The engine playing an experiment's settings in step. experiment_run fills g, set, nset and
 * base; exp_play_all the rest. */
typedef struct engine {
    const game_type *g;
    setting *set;
    int nset, base;
    struct worker *w;
    int nworkers;
    /* the block being played */
    pool pool;                /* hands out its games in chunks */
    bool *played, *counting;
    pthread_mutex_t lock;     /* for moving spilled cells into the block sums */
    uint64_t lo, hi;          /* --shard: the games of this shard */
    uint64_t block_from, block_to; /* the block being played (exp_block) */
    const unsigned char **mp; /* --merge: where each shard's next block starts */
    uint64_t plays_per_game; /* plays of one game index: every rotation of every setting played */
    exp_progress prog;       /* shown by the calling thread (worker 0) */
} engine;

/* Allocates e's workers (e->nworkers of them; experiment_run filled g, set, nset and base)
 * with their part of every setting, the settings' totals and block sums, and sets up every
 * worker's bots. Returns 0; or 4 with a message (a bot failed to set up), everything freed. */
int exp_engine_setup(engine *e, char *err, size_t errlen);

/* Completes the sums of setting s into its totals (acc). */
void exp_engine_total(engine *e, int s);

/* Completes p, sums of slot j of setting s as the game loop leaves them (a block's or a
 * total's), with what the loop leaves out (exp_pair_complete): the counts of a constant
 * count, and the baseline's own pairing with itself. */
void exp_engine_complete(const engine *e, int s, int j, exp_pair *p);

/* Whether exp_engine_complete can complete p without a product beyond 128 bits (sums read
 * from outside can be anything; the sums of games that were played always can). */
bool exp_engine_completes(const engine *e, int s, int j, const exp_pair *p);

/* Frees the workers and what exp_engine_setup allocated (not the settings' totals). */
void exp_engine_free(engine *e);

/* Plays games [from, to) of every setting e->played marks, on the worker threads, and moves
 * what they summed into the block sums (bsum, bres) of every setting e->counting marks. */
void exp_play_block(engine *e, uint64_t from, uint64_t to);

/* The sums of block [from, to) into every setting's block sums (cleared first): played here
 * (this process's part), then combined with the other processes' (MPI, o->combine) or
 * appended to o->shard_out; or read from the shards' payloads (--merge). Returns 0, or -1 with
 * a message. */
int exp_block(engine *e, const exp_options *o, uint64_t from, uint64_t to, char *err,
              size_t errlen);

/* Whether the block sums read from outside could have been played (exp_sense.c): for every
 * setting s whose sums[s] is not NULL (its slots' sums as the bytes hold them) and, when not
 * rotated, tallies[s] (NULL: none), every slot counts `games` games (UINT64_MAX: any number,
 * the same for every setting), at most cap; its own sums, the baseline's and their cross sums
 * lie within what games of its figure can give (counts and squares not negative, shares
 * within 0..1, ranks within 1..N, Cauchy-Schwarz between sums); the baseline's sums in a
 * pairing are the baseline setting's own when the bytes hold them; a setting's own sums agree
 * with its tallies. Returns 0, or -1 with "setting LABEL, FIGURE: what is wrong". */
int exp_block_sense(const engine *e, exp_pair *const *sums, const run_result *const *tallies,
                    uint64_t games, uint64_t cap, char *err, size_t errlen);

/* Slot j of S as --metric names it (NAME, NAME@K), for messages (exp_sense.c). */
void exp_slot_name(const setting *S, int j, char *buf, size_t n);

/* Plays every setting of e (exp_play.c): one block of o->runs games, or blocks until each
 * setting's --until target (target > 0), each block's sums obtained by exp_block; leaves every
 * setting's totals in acc, res and games. Returns 0; or 4 with a message (a bot failed to set up, the
 * processes' sums could not be combined); or 2 (partial results that do not fit). */
int exp_play_all(engine *e, const exp_options *o, double target, char *err, size_t errlen);

/* ---- the report (exp_report.c, exp_csv.c, exp_text.c) ---------------------------------------- */

/* The estimates of slot j of S (or derived figure j, exp_fair.c) against the baseline setting
 * B (NULL: the value only, the differences NAN), seat advantages shifted by 1/N of their own
 * setting. */
void exp_slot_est(const setting *S, int j, const setting *B, exp_estimate *e);

/* The report tree of the played experiment x (documented in giochi-sim(1)); sorts x->keys by
 * effect (--sensitivity). wall and played are the run's seconds and plays. Returns the tree;
 * *run is the "run" object when the tree does not hold it (one setting rendered as text or
 * CSV), else NULL. The caller frees both. */
cJSON *exp_report_build(experiment *x, double wall, uint64_t played, cJSON **run);

/* The figures a sweep shows without --metric (its text columns, its JSON "figures"). */
#define EXP_SWEEP_FIGURES "win_share@1,length"

/* Adds a report's provenance that the options alone give: "ruleset_changes" (the default
 * ruleset against the one --config and --set make, or o->ruleset), "players" and
 * "seat_bots" (the nseats canonical bots canon, unrotated). */
void exp_json_provenance(const exp_options *o, const char (*canon)[BOT_SPEC_MAX], int nseats,
                         cJSON *root);

/* "12.34%" or "3.512" (sign: "+1.23", a difference in points, or "+3.512"); "—" for NAN. */
void exp_text_value(char *buf, size_t n, double v, bool share, bool sign);

/* "17.10% [16.77, 17.43]": v with its interval [lo, hi], written as exp_text_value. */
void exp_text_interval(char *buf, size_t n, double v, double lo, double hi, bool share,
                       bool sign);

/* Writes the CSV of the played experiment x from its report tree root. */
void exp_render_csv(const experiment *x, const cJSON *root, FILE *out);

/* --games-csv (exp_games.c): writes to out one row per game every setting counted, for
 * every rotation, in setting, rotation and game order, each behind one column per swept key
 * (sensitivity: the setting's label) and, under rotation, the rotation; the columns after
 * are those of a plain run's games CSV. The games are played again, through the runner, on
 * the experiment's seeds: the rows are the games the figures count. Returns 0, or an exit
 * code with a message: 3 a write failed, 4 --check found a broken invariant. */
int exp_games_csv(const experiment *x, FILE *out, char *err, size_t errlen);

/* Writes the text report of the played experiment x (root its tree, run its "run" object
 * when root lacks it, wall and played as for exp_report_build), without trailing blanks. */
void exp_render_text(const experiment *x, const cJSON *root, const cJSON *run, double wall,
                     uint64_t played, FILE *out);

#endif
