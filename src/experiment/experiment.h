/* experiment.h — balance experiments in one run: sweeps over rules, players and bot parameters,
 * paired differences against a baseline, seat rotation, stopping at a precision, sensitivity.
 *
 * Common random numbers: every setting of an experiment plays the same game indices with the
 * same derived seeds (runner.h), game by game in step, so that two settings differ only by what
 * was swept, and the difference of a figure is estimated from per-game paired differences.
 *
 * A "figure" is one number of a report, named as --until and --metric take it: a game-level
 * figure by its name (length, ties, no_winner, ended.NAME, or a game metric), a seat figure as
 * NAME@K (win_share@1, the score name, rank, or a seat metric; under --rotate-seats @K names
 * the bot --bots puts in seat K, and seat_advantage@K the seat itself). Each game contributes
 * to a figure an integer pair (x, c): x the sum of its observations (hits of a share, values
 * of a mean, win units of a win share) and c their count (trials); the figure is Σx/Σc. Its
 * interval, and that of a difference, come from the per-game pairs by the delta method (a
 * ratio estimator with games as clusters) and Student's t: exact integer sums, so the result
 * is the same for any thread count. Two fairness figures, seat_spread (the largest |win share
 * - 1/N| over the seats) and first_seat (seat 1's win share - 1/N), exist at any number of
 * players and are computed from every seat's pairs (exp_fair.c). */
#ifndef GIOCHI_EXPERIMENT_H
#define GIOCHI_EXPERIMENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "dist/partial.h"
#include "report/report.h"

enum { EXP_MAX_SWEEPS = 16, EXP_MAX_SETTINGS = 1000 };

/* Splitting an experiment over processes. Its games are played in blocks (one block of --runs
 * games, or the blocks of --until); the block sums of every setting (its paired sums and its
 * tallies, exact integers) are written as bytes, and the sums of a block over processes are the
 * sums one process would have got. */

/* Adds the block sums in [p, p + n) (another process's) to those in *sum (replaced by the total).
 * Returns 0, or -1 with a one-line message if the bytes do not fit. */
typedef int exp_add_fn(void *ctx, pbuf *sum, const unsigned char *p, size_t n, char *err,
                       size_t errlen);

/* Collective (every process calls it at the same block): *bytes holds this process's block sums
 * on entry, and on return, on every process, the total over all processes, added with add in
 * process order. Returns 0 on every process, or -1 on every process with a message. */
typedef int exp_combine_fn(pbuf *bytes, exp_add_fn *add, void *ctx, char *err, size_t errlen);

/* What main.c read from the command line. Nothing is owned. */
typedef struct exp_options {
    const game_type *game;
    const char *const *configs;    /* --config files, merged in order */
    int nconfigs;
    const char *const *sets;       /* every --set, in order */
    int nsets;
    const char *const *sweeps;     /* every --sweep KEY=LIST, in order (the first varies slowest) */
    int nsweeps;
    const char *bots;              /* --bots, or NULL for the game's default bot */
    int players;                   /* --players, or 0 */
    const char *baseline;          /* --baseline=V1,V2 (one value per --sweep), or NULL: first */
    bool rotate;                   /* --rotate-seats */
    const char *until;             /* --until=FIGURE:HALFWIDTH, or NULL */
    bool sensitivity;              /* --sensitivity */
    const char *sensitivity_keys;  /* --sensitivity=KEY,KEY (dotted paths), or NULL: every
                                      top-level numeric key */
    const char *metric;            /* --metric=FIGURE[,FIGURE...], or NULL */
    /* Searches (giochi-sim(1), EXPERIMENTS; at most one of tune, target, tournament): */
    const char *tune;              /* --tune=seatN.PARAM=LO:HI[,...] */
    const char *maximize;          /* --maximize=FIGURE / --minimize=FIGURE (minimize true) */
    bool minimize;
    const char *target;            /* --target=FIGURE=VALUE[:HW] */
    const char *over;              /* --over=KEY=LO:HI */
    const char *tournament;        /* --tournament[=BOT,BOT,...] ("" : the --bots list) */
    const char *sprt;              /* --sprt=ELO0,ELO1[,ALPHA,BETA] (with --tournament) */
    const char *step;              /* --step=PERCENT or --step=UNITS (--sensitivity) */
    uint64_t runs;                 /* games per setting (with --until: the cap) */
    uint64_t seed;
    int threads;
    bool exact;                    /* --exact: each setting's exact analysis, when the game has one */
    int progress;                  /* progress on stderr: RUN_PROGRESS_* (runner.h) */
    report_format format;
    int argc;                      /* the command line, recorded in the report */
    char **argv;
    FILE *games_csv;               /* non-NULL: --games-csv, every counted game's row (after
                                      the play: exp_games.c) */
    cJSON **tree;                  /* non-NULL: receives a copy of the report tree, for --plot
                                      and --html (the caller frees it) */
    /* Distributed runs (at most one of combine, shard_out and merged): */
    const cJSON *ruleset;          /* non-NULL: the ruleset configs and sets made (--merge, from
                                      the shards); configs are not read, sets not applied again */
    uint64_t part, parts;          /* this process plays part `part` (0-based) of `parts`
                                      (0 or 1: the whole) of every block (combine) or of the
                                      cap (shard_out) */
    exp_combine_fn *combine;       /* MPI: adds up the processes' block sums at every block */
    pbuf *shard_out;               /* --shard: every setting plays its part of [0, runs) in the
                                      blocks of a run that never stops early, and the block sums
                                      are appended here; no report is written */
    const unsigned char *const *merged; /* --merge: the payloads of the shards, in shard order; */
    const size_t *merged_len;      /* nothing is played: the block sums are read from them, and */
    int nmerged;                   /* --until stops at the block a single process stops at */
    const char *const *merged_names; /* --merge: the shards' file names, in shard order (for
                                      the messages; NULL: "shard I") */
    double merged_wall;            /* --merge: the shards' playing time, reported as the run's */
    int ranks;                     /* > 0: recorded in the report's "run" (MPI) */
} exp_options;

/* Whether the options ask for an experiment rather than a plain run. */
bool experiment_wanted(const exp_options *o);

/* Runs the experiment the options describe and writes its report to out in o->format
 * (documented in giochi-sim(1), EXPERIMENTS). Returns 0; or 2 with a one-line message in err
 * (bad option, key, value or figure, or partial results that do not fit); or 4 (a bot failed to
 * set up, or the block sums could not be combined). Nothing is written to out unless it returns
 * 0; out NULL (an MPI rank other than 0, or o->shard_out) writes no report. */
int experiment_run(const exp_options *o, FILE *out, char *err, size_t errlen);

/* ---- paired statistics (public for the tests) --------------------------------------------- */

/* Exact sums over games of a setting's pair (x, c) and the baseline's pair (bx, bc) for the
 * same game index: first and second moments, cross products included. */
typedef struct exp_pair {
    int64_t n; /* games */
    __int128 x, c, xx, xc, cc;      /* the setting */
    __int128 bx, bc, bxx, bxc, bcc; /* the baseline, on the same games */
    __int128 x_bx, x_bc, c_bx, c_bc;
} exp_pair;

/* Adds one game. */
void exp_pair_add(exp_pair *p, int64_t x, int64_t c, int64_t bx, int64_t bc);
/* Adds every sum of src into dst, each addition checked: false if one does not fit (sums
 * read from a forged part can be anything), dst then holding wrapped sums to discard. */
bool exp_pair_merge(exp_pair *dst, const exp_pair *src);

/* A figure and its difference from the baseline. Fields are NAN when undefined (no
 * observation; fewer than two games for an interval). */
typedef struct exp_estimate {
    double value, lo, hi;       /* the setting's Σx/Σc with its 95% interval */
    double base;                /* the baseline's Σbx/Σbc on the same games */
    double diff, dlo, dhi;      /* value - base, 95% interval from the paired differences */
    double ulo, uhi;            /* the interval the two settings' own intervals would give
                                   (independent samples), for comparison */
} exp_estimate;

/* Computes the estimates of p. */
void exp_pair_estimate(const exp_pair *p, exp_estimate *e);

#endif
