/* job.h — one invocation of giochi-sim once its options are checked: the game, the ruleset,
 * the run's configuration and report format; the functions that set it up and the modes
 * that carry it out (one function per mode). */
#ifndef GIOCHI_CLI_JOB_H
#define GIOCHI_CLI_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "cli/options.h"
#include "cli/outset.h"
#include "config/botspec.h"
#include "core/game.h"
#include "core/runner.h"
#include "experiment/experiment.h"
#include "report/report.h"

/* --merge: the partial results read (shard.c). */
typedef struct merge_input {
    cJSON *identity;          /* the identity the parts share (without wall_seconds) */
    cJSON *ruleset;           /* the ruleset they played (owned by the job once loaded) */
    unsigned char **payload;  /* each part's batches, as read */
    size_t *len;
    int *order;               /* order[shard] = index into options.parts */
    uint64_t nshards;
    double wall;              /* the seconds the shards played, summed (experiments) */
} merge_input;

typedef struct job {
    options *o;
    int argc;
    char **argv;
    const game_type *g;
    void *rules;     /* the game's loaded ruleset */
    cJSON *ruleset;  /* the effective ruleset as JSON */
    run_config cfg;
    char canon[GAME_MAX_SEATS][BOT_SPEC_MAX]; /* each seat's bot, canonical text */
    report_format fmt;
    uint64_t trace_index;
    bool experiment; /* --sweep, --rotate-seats, --until or --sensitivity */
    exp_options xo;
    cJSON *xtree;    /* the experiment's report tree, when --plot, --html or html want it */
    merge_input merge;
    bool csv_comma;  /* --csv-decimal=, */
} job;

/* ---- set-up (job.c), in this order; each dies with the documented exit code ------------- */

/* The game named by --game (or by the merged parts). --list without --game lists every game
 * and exits here. */
void job_game(job *j);

/* The effective ruleset: the built-in default, then --config, then each --set (or, for
 * --merge, the ruleset the shards played). */
void job_rules(job *j);

/* Every option that needs the game, checked and turned into j->cfg, j->fmt, j->xo... */
void job_check(job *j);

/* The last checks before anything is opened: --quiet against --progress, every seat's bot
 * set up once (a bot that refuses its seat is bad input), and --merge's parts handed to the
 * run or the experiment. */
void job_prepare(job *j);

/* true if some seat's bot, or some member of a seat's population, satisfies is. */
bool job_seats_any(const job *j, bool (*is)(const bot_type *b));

/* true if a person plays one of the run's seats (the human seat), at it or as a member of
 * its population. */
bool job_human(const job *j);

/* How a run or an experiment shows progress on stderr (RUN_PROGRESS_*): on a terminal unless
 * --quiet; with --progress, also in a log; never on an MPI rank other than 0, nor while a
 * person plays a seat. */
int job_progress(const job *j);

/* Opens the outputs of a run or an experiment into s (cli/outset.h): on MPI rank 0 the
 * report (--output), --games-csv, --plot and --html, every CSV among them through comma
 * decimals under --csv-decimal=, (the report only when it is a CSV report, not a shard's
 * part); on any other rank none (s is left empty). Dies as outset_open does. */
void job_outputs(const job *j, outset *s);

/* ---- modes: each writes its outputs, complete or not at all ------------------------------ */

/* --list (g NULL: every game) or --print-ruleset, to --output; exits. */
void mode_print(const game_type *g, const options *o, const cJSON *ruleset)
    __attribute__((noreturn));

/* --completion=SHELL: the completion script (cli/completion.h), to --output; refuses any
 * other option; exits. */
void mode_completion(const options *o, int argc, char **argv) __attribute__((noreturn));

/* --perft: the move-path counts of depths 1..D; exits. */
void mode_perft(job *j) __attribute__((noreturn));

/* --solve=DIR (volpe): the retrograde solver into DIR, its summary on --output; exits. */
void mode_solve(job *j) __attribute__((noreturn));
/* --prove[=WHO] (volpe): the start's value by proof search, certificates checked; exits. */
void mode_prove(job *j) __attribute__((noreturn));

/* --replay=FILE: plays one recorded game (core/replay.h) and prints its trace and outcome;
 * exits. */
void mode_replay(job *j) __attribute__((noreturn));

/* A plain run: plays cfg.runs games and writes the report (or, with --shard, the partial
 * result), the games CSV and the extra outputs. */
void mode_run(job *j);

/* --trace: the play-by-play of one game. */
void mode_trace(job *j);

/* An experiment (sweep, rotation, --until, sensitivity). */
void mode_experiment(job *j);

/* Writes --html's page and --plot's charts of report r into s; dies on a failure. */
void write_extras(const options *o, const cJSON *r, outset *s);

/* ---- shards and merges (shard.c) --------------------------------------------------------- */

/* --shard=I/N: parses it, checks it against the other options and sends every batch to the
 * shard distributor, which plays this shard's part and keeps its bytes. */
void shard_start(job *j);

/* --shard of an experiment: every setting plays this shard's part of the run, its block sums
 * kept for the partial result. */
void shard_experiment(exp_options *xo);

/* Writes the shard's partial result (identity, then the batches played) to s's report;
 * wall: the seconds played, recorded for an experiment (NULL: a plain run). Dies with exit 3
 * on a failed write. */
void shard_write(const job *j, outset *s, const double *wall);

/* --merge: reads every part, checks that they are the N shards of one run, and sets the
 * options of that run into o (and its ruleset into m). */
void merge_read(options *o, merge_input *m);

/* --merge, once the run is set up: hands the shards' payloads to the experiment, or merges a
 * plain run's batches and sends run_batch to them. */
void merge_prepare(job *j);

#endif
