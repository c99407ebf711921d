/* runner.h — plays a batch of seeded games on worker threads and reduces their results.
 *
 * Game i of a run with master seed S draws chance from stream RNG_STREAM_CHANCE of
 * (S, i) and the bot of seat k from stream RNG_STREAM_SEAT(k) of (S, i). Everything a game
 * contributes is integer and merged exactly, so a run's results do not depend on the thread
 * count or on which thread played which game. */
#ifndef GIOCHI_RUNNER_H
#define GIOCHI_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/game.h"
#include "core/recorder.h"

enum { BOT_MAX_PARAMS = 32 };

typedef struct population population; /* config/population.h */

/* One seat's bot and its parameter values (in the order of bot->params). A seat that draws
 * its player from a population each game has bot &bot_population and pop set (see
 * population.h); its param then holds nothing. */
typedef struct seat_spec {
    const bot_type *bot;
    double param[BOT_MAX_PARAMS];
    const population *pop;
} seat_spec;

typedef struct run_config {
    const game_type *game;
    const void *rules; /* loaded by game->rules_load; not owned */
    int nseats;
    seat_spec seat[GAME_MAX_SEATS];
    uint64_t runs;  /* games [first, first + runs) */
    uint64_t first; /* index of the first game: 0, except for a shard or an MPI rank's share;
                       the games CSV has its header only when first is 0 */
    uint64_t seed;  /* master seed */
    int threads;    /* worker threads, >= 1 */
    FILE *games_csv; /* if not NULL: one row per game, in game order (header included) */
    int progress;   /* progress on stderr: RUN_PROGRESS_* (the caller decides which) */
    bool check;     /* verify game->check after every step and each outcome (--check) */
    /* If not NULL: once it holds a non-zero value, run_batch_local hands out no more games;
     * the games under way are finished, so res->games counts the games [first, first +
     * res->games), whose figures (and games CSV rows) are those of a run of that many games
     * (checked every quarter of a second; --keep-partial). */
    volatile sig_atomic_t *interrupt;
} run_config;

/* How run_batch shows progress on stderr. */
enum {
    RUN_PROGRESS_NONE = 0,
    RUN_PROGRESS_TTY = 1, /* one line rewritten in place, once the run has lasted a second */
    RUN_PROGRESS_LOG = 2, /* whole lines for a log: at the start, every 10 s, at the end */
};

/* Everything a batch produced: the game's own metrics plus the figures every game has. */
typedef struct run_result {
    recorder *rec;                       /* the game's metric table */
    acc length;                          /* game length, in game->length_unit */
    acc score[GAME_MAX_SEATS];           /* final outcome.score per seat */
    acc rank[GAME_MAX_SEATS];            /* final rank per seat (histogram: arrival order) */
    int64_t win_units[GAME_MAX_SEATS];   /* wins, a win shared by k seats counting 1/k; in
                                            units of 1/RUN_WIN_UNIT */
    int64_t wins_alone[GAME_MAX_SEATS];  /* games won alone */
    int64_t wins_shared[GAME_MAX_SEATS]; /* games whose win this seat shared with others */
    int64_t tied_games;                  /* games whose win was shared */
    int64_t no_winner;                   /* games nobody won */
    int64_t *end_count;                  /* per entry of game->end_names */
    int nends;
    int64_t *choices; /* per seat and decision kind (game->kind_names), at [2 (seat nkinds +
                         kind)]: the decisions its bot chose among two actions or more, and
                         those where it chose another action than the first listed */
    int nkinds;
    uint64_t games;                      /* games played (== runs unless interrupted) */
    int64_t *by_winners; /* a batch worker's: games per winners mask, not yet in the wins
                            above (NULL: none; every figure up to date) */
    double wall_seconds;                 /* not part of reproducible output */
    /* Types of player, in a run where some seat draws from a population (else ntypes 0):
     * every member of each population (named "TYPE", or "POPULATION/TYPE" when the run has
     * several populations), then each other distinct bot (its name, "NAME (seat K)" when the
     * same bot plays with other knobs elsewhere). Their figures are in rec (rec_type_get). */
    int ntypes;
    char **type_name;
} run_result;

/* Types of player a run can tell apart (run_result.ntypes). */
enum { RUN_MAX_TYPES = 127 };

/* 840 = lcm(1..8): a win shared by any number of seats up to 8 is a whole number of units. */
#define RUN_WIN_UNIT 840

/* Plays game `index` of the run described by cfg, start to finish, on the calling thread:
 * ctx[k] are prepared bot contexts for each seat (see run_bots_setup); st is scratch of
 * game->state_size bytes and view scratch of game->view_size bytes in an allocation of its
 * own (bots get it, and must find no state beside it); rec (may be NULL) receives the game's
 * metrics; tr (may be NULL) receives the play-by-play, each decision included. Calls every
 * seat's begin hook after the deal. Fills o. Checks nothing (see run_game_checked). */
void run_game(const run_config *cfg, void *const *ctx, uint64_t index, void *st, void *view,
              outcome *o, recorder *rec, trace *tr);

/* As run_game; with cfg->check, also verifies game->check (if the game has one) after start
 * and after every step, and that the outcome is well formed (end kind, winners and ranks
 * within the seats). Returns 0, or -1 with "game I (chance seed S), step N: what is broken"
 * in err, the game left where it broke (finish not called, o not filled). */
int run_game_checked(const run_config *cfg, void *const *ctx, uint64_t index, void *st,
                     void *view, outcome *o, recorder *rec, trace *tr, char *err, size_t errlen);

/* As run_game (no trace), also counting each seat's real choices by decision kind into
 * res->choices (see run_result.choices), as a batch does: for drivers that play games one by
 * one into their own results (experiment.c). */
void run_game_counted(const run_config *cfg, void *const *ctx, uint64_t index, void *st,
                      void *view, outcome *o, recorder *rec, run_result *res);

/* Creates and sets up one context per seat. Returns 0, or -1 with a one-line message
 * (everything already created is freed). The contexts are freed by run_bots_free. */
int run_bots_setup(const run_config *cfg, void **ctx, char *err, size_t errlen);
void run_bots_free(const run_config *cfg, void **ctx);

/* How run_batch's and run_trace's message starts when cfg->check found a broken invariant; what
 * follows is run_game_checked's message. The command line replaces it with its option's name. */
#define RUN_BROKEN_INVARIANT "broken invariant: "

/* Plays the whole batch. Returns 0 and fills res (free it with run_result_free), or -1 with a
 * message (a bot failed to set up, a write to games_csv failed, cfg->check found a broken
 * invariant: then RUN_BROKEN_INVARIANT and the message of run_game_checked for the lowest game
 * index found).
 * Memory does not grow with cfg->runs: the games CSV holds at most a few chunks per thread
 * that wait for an earlier one. Running out of memory or threads ends the process (xalloc.h).
 * When a distributor is set (run_set_distributor), the batch goes to it instead. */
int run_batch(const run_config *cfg, run_result *res, char *err, size_t errlen);

/* Plays the whole batch in this process, whatever the distributor. */
int run_batch_local(const run_config *cfg, run_result *res, char *err, size_t errlen);

/* A replacement for run_batch with its contract: plays the batch elsewhere or in part (MPI
 * ranks, one shard of a job array) or hands back results played before (a merge of shards).
 * Every batch of a run, however the run is organised (one run, a sweep's settings, blocks of
 * a stopping rule), goes through run_batch, so a distributor serves them all. */
typedef int run_batch_fn(const run_config *cfg, run_result *res, char *err, size_t errlen);

/* Sends every later run_batch call to fn (NULL: back to run_batch_local). */
void run_set_distributor(run_batch_fn *fn);
void run_result_free(run_result *res);

/* The steps of run_batch, for drivers that play several configurations game by game (see
 * experiment.c): run_result_init prepares an empty result for cfg (per_game: its recorder keeps
 * each game's own figures, see rec_game_value); run_tally folds one played game's outcome into
 * the built-in figures (run_game has already recorded its metrics); run_result_merge adds src
 * into dst (exact integers: any order gives the same result; wall_seconds adds up too) and
 * returns false if some count or sum of the total does not fit its integer (every addition is
 * checked: results read from outside, see partial.h, can be anything), dst then to be
 * discarded. Free with run_result_free. */
void run_result_init(run_result *res, const run_config *cfg, bool per_game);
void run_tally(run_result *res, const run_config *cfg, const outcome *o);
bool run_result_merge(run_result *dst, const run_result *src, int nseats);

/* Gives rec (made by rec_new for cfg's game and seats, without figures by type) the seats'
 * types of cfg, so that a game played into it tells each seat's type (recorder.seat_type)
 * without keeping any figure by type: for per-game recorders of drivers that pair games
 * (experiment.c). */
void run_map_types(recorder *rec, const run_config *cfg);

/* A worker's result whose histograms keep a bounded window (see acc_spill in recorder.h):
 * run_result_spill sets every accumulator of res to spill into s; run_result_unspill adds the
 * cells s holds (spilled by src's accumulators) into dst's histograms and empties s. Merging
 * src into dst afterwards (run_result_merge) completes dst exactly: the same result as if src
 * had kept whole histograms, in any order. */
void run_result_spill(run_result *res, acc_spill *s);
void run_result_unspill(run_result *dst, const run_result *src, acc_spill *s);

/* The trace's line for decision d on st, whose action k the seat's bot chose:
 * "  > seat 1 (greedy) sow: pit 6 (4 seeds)   [options: ...]" (the options when 2..12). */
void run_trace_decision(const run_config *cfg, const void *st, const decision *d, int k,
                        FILE *tr);
/* The trace's closing lines for outcome o: "end: KIND after N UNIT; winner: seat S", then one
 * line per seat with its score and rank. */
void run_trace_outcome(const run_config *cfg, const outcome *o, FILE *out);

/* Plays game `index` alone with its trace written to out, exactly as the batch plays it;
 * with cfg->check, checked as run_game_checked (returns -1 with RUN_BROKEN_INVARIANT and its
 * message). */
int run_trace(const run_config *cfg, uint64_t index, FILE *out, outcome *o, char *err,
              size_t errlen);

#endif
