/* mode_run.c — a plain run (its report, games CSV, charts and page, or a shard's partial
 * result) and --trace (the play-by-play of one of its games). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bots/program.h"
#include "cli/depends.h"
#include "cli/fail.h"
#include "cli/job.h"
#include "dist/dist.h"
#include "report/fields.h"
#include "report/plot.h"

void write_extras(const options *o, const cJSON *r, outset *s)
{
    if (o->html)
        report_write(outset_file(s, OUT_HTML), r, REPORT_HTML);
    if (o->plot) {
        char err[512];
        size_t len = 0;
        char *bytes = plot_render(r, (plot_format)plot_format_of(o->plot), &len, err, sizeof err);
        if (bytes == NULL)
            outset_fail(s, EXIT_IO, "--plot '%s': %s", o->plot, err);
        fwrite(bytes, 1, len, outset_file(s, OUT_PLOT));
        free(bytes);
    }
}

/* The game's exact analysis for the seats' bots (--exact), or NULL. */
static cJSON *exact_analysis(const job *j)
{
    const run_config *cfg = &j->cfg;
    seat_bots sb = {.nseats = cfg->nseats};
    for (int k = 0; k < cfg->nseats; k++) {
        sb.bot[k] = cfg->seat[k].bot;
        sb.param[k] = cfg->seat[k].param;
    }
    cJSON *exact = j->g->exact(j->rules, &sb);
    if (exact == NULL && !j->o->quiet && dist_rank() == 0)
        fprintf(stderr, "giochi-sim: note: no exact analysis for these bots\n");
    return exact;
}

/* The run's report tree, with its provenance: every --set (reproducible), and the exact
 * command line in "run" (which also holds what varies from run to run). */
static cJSON *run_report(const job *j, const run_result *res, cJSON *exact)
{
    const options *o = j->o;
    report_input in = {.cfg = &j->cfg, .res = res, .ruleset = j->ruleset, .exact = exact};
    for (int k = 0; k < j->cfg.nseats; k++)
        in.bot_spec[k] = j->canon[k];
    cJSON *report = report_build(&in);
    cJSON *sets = cJSON_CreateArray();
    for (int i = 0; i < o->nsets; i++)
        cJSON_AddItemToArray(sets, cJSON_CreateString(o->set[i]));
    cJSON_AddItemToObject(report, "sets", sets);
    cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
    report_run_stamp(run, j->argc, j->argv);
    if (o->merge)
        cJSON_AddNumberToObject(run, "shards", (double)j->merge.nshards);
    dist_report_run(run);
    return report;
}

/* true if the run's report would be a text on the terminal of a person playing a seat: a
 * tally in words then takes its place (tally). */
static bool at_the_table(const job *j)
{
    const options *o = j->o;
    return job_human(j) && !o->shard && j->fmt == REPORT_TEXT &&
           (o->output == NULL || strcmp(o->output, "-") == 0) && isatty(STDOUT_FILENO);
}

/* Who won the games a person played, in words: nothing after one game (its end said it). */
static void tally(FILE *f, const job *j, const run_result *res)
{
    if (res->games < 2)
        return;
    fprintf(f, "\n%llu games played:", (unsigned long long)res->games);
    for (int k = 0; k < j->cfg.nseats; k++) {
        bool you = j->cfg.seat[k].bot == &bot_human;
        fprintf(f, "%s seat %d%s won %lld", k ? "," : "", k + 1, you ? " (you)" : "",
                (long long)(res->wins_alone[k] + res->wins_shared[k]));
        if (res->wins_shared[k] > 0)
            fprintf(f, " (%lld shared)", (long long)res->wins_shared[k]);
    }
    if (res->no_winner > 0)
        fprintf(f, "; nobody won %lld", (long long)res->no_winner);
    fputs(".\n", f);
}

/* Ends a run that failed with the runner's message err: a broken invariant is named by the
 * option that asked for the checks (--check), any other failure as it is. */
static void run_failed(outset *s, const char *err) __attribute__((noreturn));
static void run_failed(outset *s, const char *err)
{
    size_t n = strlen(RUN_BROKEN_INVARIANT);
    if (strncmp(err, RUN_BROKEN_INVARIANT, n) == 0)
        outset_fail(s, EXIT_INTERNAL, "--check: %s", err + n);
    outset_fail(s, EXIT_INTERNAL, "%s", err);
}

/* true if b reads the terminal or is a program of its own, which the terminal's Ctrl-C
 * reaches too. */
static bool outside(const bot_type *b)
{
    return b == &bot_human || program_is(b);
}

/* Whether a first Ctrl-C may let this run finish the games under way and stop (a plain run
 * of one process): not when a seat (or a member of its population) is
 * outside. */
static bool can_stop_early(const job *j)
{
    const options *o = j->o;
    return !o->shard && !o->merge && dist_ranks() <= 1 && !job_seats_any(j, outside);
}

/* Marks report as the report of the first games of a run interrupted before its end: the
 * games asked for and the signal, under "interrupted" (every rendering shows it). */
static void mark_interrupted(cJSON *report, uint64_t asked, int sig)
{
    cJSON *x = cJSON_AddObjectToObject(report, "interrupted");
    cJSON_AddNumberToObject(x, "runs_asked", (double)asked);
    cJSON_AddNumberToObject(x, "games", report_num(report, "runs"));
    cJSON_AddStringToObject(x, "signal", sig == SIGINT ? "SIGINT" : "signal");
}

void mode_run(job *j)
{
    const options *o = j->o;
    const bool root = dist_rank() == 0; /* under MPI rank 0 alone writes */
    outset s;
    job_outputs(j, &s);
    cJSON *exact = o->exact ? exact_analysis(j) : NULL;
    j->cfg.games_csv = outset_file(&s, OUT_GAMES);
    j->cfg.progress = job_progress(j);
    run_result res;
    char err[512];
    /* The first Ctrl-C finishes the games under way: the run has played a prefix of its
     * games, reported with --keep-partial; after the batch Ctrl-C ends the run at once. */
    if (can_stop_early(j))
        j->cfg.interrupt = outfile_soft_interrupt();
    int played = run_batch(&j->cfg, &res, err, sizeof err);
    int sig = j->cfg.interrupt ? *j->cfg.interrupt : 0;
    if (j->cfg.interrupt)
        outfile_catch_signals();
    j->cfg.interrupt = NULL;
    if (played == 0 && sig && res.games < j->cfg.runs) {
        if (res.games == 0)
            outset_fail(&s, 128 + sig, "interrupted before a game was over: nothing written");
        if (!o->keep_partial)
            outset_fail(&s, 128 + sig, "interrupted after %llu of %llu games (nothing written; "
                        "--keep-partial writes the report of the games played)",
                        (unsigned long long)res.games, (unsigned long long)j->cfg.runs);
        fprintf(stderr, "giochi-sim: interrupted after %llu of %llu games: the report is of "
                "those games (--runs=%llu --seed=%llu plays them again)\n",
                (unsigned long long)res.games, (unsigned long long)j->cfg.runs,
                (unsigned long long)res.games, (unsigned long long)j->cfg.seed);
    } else {
        sig = 0;
    }
    if (played != 0) {
        const char *games_error = "cannot write the games CSV: ";
        if (strncmp(err, games_error, strlen(games_error)) == 0)
            outset_fail(&s, EXIT_IO, "cannot write '%s': %s", o->games_csv,
                        err + strlen(games_error));
        run_failed(&s, err);
    }
    if (root && o->shard) {
        shard_write(j, &s, NULL);
    } else if (root) {
        cJSON *report = run_report(j, &res, exact);
        if (sig)
            mark_interrupted(report, j->cfg.runs, sig);
        if (o->depends)
            depends_run(j, report, &s);
        if (at_the_table(j))
            tally(outset_file(&s, OUT_REPORT), j, &res);
        else
            report_write(outset_file(&s, OUT_REPORT), report, j->fmt);
        write_extras(o, report, &s);
        cJSON_Delete(report);
    }
    run_result_free(&res);
    cJSON_Delete(exact);
    outset_commit(&s);
}

void mode_trace(job *j)
{
    outset s;
    outset_open(&s, j->o->output, NULL, NULL, NULL);
    outcome oc;
    char err[512];
    if (run_trace(&j->cfg, j->trace_index, outset_file(&s, OUT_REPORT), &oc, err, sizeof err) != 0)
        run_failed(&s, err);
    outset_commit(&s);
}
