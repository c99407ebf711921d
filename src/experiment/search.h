/* search.h — what the search modes (tune.c, seek.c, tournament.c) share and nothing else uses:
 * one evaluation of a few points on common random numbers through the experiment engine, the
 * seeds of successive evaluations, the parameters of a seat's bot, and a progress line. */
#ifndef GIOCHI_SEARCH_H
#define GIOCHI_SEARCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/clock.h"
#include "experiment/experiment_priv.h"

enum { SRCH_MAX_ASSIGN = 32, SRCH_MAX_FIGS = 2 * GAME_MAX_SEATS + 2 };

/* One point an evaluation plays: assignments KEY=VALUE with --sweep's keys (a ruleset key,
 * players, seatN.PARAM), and the bots (NULL: the options'). */
typedef struct srch_point {
    const char *assign[SRCH_MAX_ASSIGN];
    int nassign;
    const char *bots;
} srch_point;

/* What an evaluation found, per point and figure: est[p * nfig + f] (exp_estimate: the value
 * with its interval, and the paired difference from point 0 on the same games), whether the
 * figure is a share, games[p] the deals point p counted (sum: see below); plays: games played
 * in all (each rotation of each deal of each point, point 0's too). */
typedef struct srch_out {
    exp_estimate *est;
    exp_fsums *sum;   /* non-NULL: receives each point's exact sums of figure 0, from which
                         exp_fsums_value estimates it again with more games added */
    bool share[SRCH_MAX_FIGS];
    uint64_t *games;
    uint64_t plays;
} srch_out;

/* Plays, for option opt (named in messages), the npt points (point 0 the baseline the others are paired with) on games [0, runs)
 * of master seed `seed`, seats rotated when rotate, and estimates the nfig figures (named as
 * --metric takes them, seat_spread and first_seat too). With until_hw > 0
 * each point plays blocks until the interval of figure 0 has at most that half-width (runs
 * is the cap). o gives the game, ruleset, bots, players, threads and the MPI combiner; its
 * own experiment options are not read. out->est and out->games are the caller's arrays.
 * Returns 0, or 2 / 4 with a one-line message as experiment_run. */
int srch_play(const exp_options *o, const char *opt, const srch_point *pt, int npt, bool rotate,
              const char *const *figs, int nfig, uint64_t seed, uint64_t runs, double until_hw,
              srch_out *out, char *err, size_t errlen);

/* Whether a point with this one assignment (KEY=VALUE) can be set up: 0, or -1 with the
 * message (a value out of range, a whole key given a fraction, an unknown key). */
int srch_probe(const exp_options *o, const char *assignment, char *err, size_t errlen);

/* The master seed of evaluation number `round` of a search of kind `tag` from the run's seed
 * (round 0 of tag 0 is the seed itself: a search's first sweep is the one --sweep plays). */
uint64_t srch_seed(uint64_t seed, unsigned tag, uint64_t round);

/* The seat's bot of o (0-based seat) for the players o gives: its type, parameter values and
 * canonical description. Returns 0, or -1 with a message. */
int srch_seat_bot(const exp_options *o, int seat, const bot_type **bot, double *param,
                  char *canon, size_t ncanon, int *nseats, char *err, size_t errlen);

/* Writes v as a value of a --set or bot parameter: whole numbers without a fraction, others
 * with the fewest digits that read back the same. */
void srch_value(char *buf, size_t n, double v);

/* A search's progress (RUN_PROGRESS_* in mode): on a terminal one line rewritten in place, in
 * a log one line per call; srch_progress_end clears the terminal's line. */
void srch_progress(int mode, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void srch_progress_end(int mode);

/* The figure of a report row: whether figure names a seat (NAME@K). */
bool srch_seat_figure(const char *figure);

/* {"value": v, "ci95": [lo, hi]}, null for NAN. */
cJSON *srch_json_est(double v, double lo, double hi);

/* The opening members of a search's report: tool, version, game, title, mode, seed, runs and
 * the --set assignments. */
cJSON *srch_json_head(const exp_options *o, const char *mode);

/* The report's "run" object: what varies from run to run (time, threads, the command line). */
cJSON *srch_json_run(const exp_options *o, double wall, uint64_t plays);

/* The text report's opening lines, as a run's and an experiment's: the game and its title,
 * `what` the search is (wrapped to 80 columns), the version and date line (the date of
 * root's "run", report_text_made_by), and one "set: KEY=VALUE" line per --set. */
void srch_text_head(const exp_options *o, FILE *out, const cJSON *root, const char *what);

/* The text report's last line: games played, time, rate and threads. */
void srch_text_tail(const exp_options *o, FILE *out, double wall, uint64_t plays);

/* How a search mode writes its report from its own state (passed back as `search`): the JSON
 * tree (wall: seconds since it started), and its CSV and text forms, the text given that tree
 * (for its header's date). */
typedef struct srch_writer {
    cJSON *(*json)(const void *search, double wall);
    void (*csv)(const void *search, FILE *out);
    void (*text)(const void *search, const cJSON *root, FILE *out, double wall);
} srch_writer;

/* The end every search mode shares: clears the progress line, then, when rc is 0 and out is
 * not NULL, builds the report tree (w->json), hands a copy to o->tree when asked, and writes
 * it to out in o->format (JSON, CSV, else text; the caller renders HTML from the tree). t0
 * is the clock_seconds() of the start. Returns rc. Does not take ownership of search. */
int srch_finish(const exp_options *o, int rc, FILE *out, double t0, const srch_writer *w,
                const void *search);

/* Runs the search o asks for (--tune, --target or --tournament) after checking the options it
 * cannot be combined with; returns as experiment_run (search_run.c). */
int search_run(const exp_options *o, FILE *out, char *err, size_t errlen);

/* Search modes (search_run hands them the options): each writes its report to out (NULL:
 * none, another MPI rank) in o->format, and returns as experiment_run. */
int tune_run(const exp_options *o, FILE *out, char *err, size_t errlen);
int seek_run(const exp_options *o, FILE *out, char *err, size_t errlen);
int tournament_run(const exp_options *o, FILE *out, char *err, size_t errlen);

#endif
