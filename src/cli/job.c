/* job.c — setting up one invocation: the game, the ruleset, and every option checked against
 * them before any output is opened. */
#include "cli/job.h"

#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "cli/fail.h"
#include "bots/program.h"
#include "cli/outfile.h"
#include "config/population.h"
#include "config/rules.h"
#include "core/registry.h"
#include "core/rng.h"
#include "core/suggest.h"
#include "dist/dist.h"
#include "report/report_csv.h"

void job_game(job *j)
{
    const options *o = j->o;
    char names[1024];
    registry_game_names(names, sizeof names);
    j->g = NULL;
    if (o->game) {
        j->g = registry_game(o->game);
        const char *all[64];
        size_t n = 0;
        for (; registry_games[n] && n < 64; n++)
            all[n] = registry_games[n]->name;
        const char *near = suggest_nearest(o->game, all, n);
        if (j->g == NULL && near)
            die(EXIT_USAGE, "unknown game '%s' (did you mean %s?)", o->game, near);
        if (j->g == NULL)
            die(EXIT_USAGE, "unknown game '%s' (games: %s)", o->game, names);
    }
    if (o->list && j->g == NULL) {
        options_check_without_game(o);
        mode_print(NULL, o, NULL);
    }
    if (j->g == NULL)
        die(EXIT_USAGE, "no game given: use --game=NAME (games: %s)", names);
}

void job_rules(job *j)
{
    const game_type *g = j->g;
    const options *o = j->o;
    char err[512];
    if (j->merge.ruleset) { /* the ruleset the shards played, loaded as it is */
        j->ruleset = j->merge.ruleset;
        j->rules = xcalloc(1, g->rules_size ? g->rules_size : 1);
        if (g->rules_load(j->rules, j->ruleset, err, sizeof err) != 0)
            die(EXIT_USAGE, "%s", err);
        rules_remember(j->rules, j->ruleset);
    } else {
        j->rules = rules_effective_files(g, o->config, o->nconfigs, o->set, o->nsets,
                                         &j->ruleset, err, sizeof err);
    }
    if (j->rules == NULL)
        die(EXIT_USAGE, "%s", err);
}

/* The report format of --format and --detail. */
static report_format report_format_of(const options *o)
{
    report_format fmt = REPORT_TEXT;
    if (o->format) {
        if (strcmp(o->format, "json") == 0)
            fmt = REPORT_JSON;
        else if (strcmp(o->format, "csv") == 0)
            fmt = REPORT_CSV;
        else if (strcmp(o->format, "html") == 0)
            fmt = REPORT_HTML;
        else if (strcmp(o->format, "text") != 0)
            die(EXIT_USAGE, "--format '%s': expected text, json, csv or html", o->format);
    }
    if (o->detail && fmt != REPORT_TEXT)
        die(EXIT_USAGE, "--detail lists the text report: it cannot be combined with --format=%s",
            o->format);
    return o->detail ? REPORT_TEXT_DETAIL : fmt;
}

/* The seats: --players and --bots, checked against the game and its ruleset. */
static void check_seats(job *j, int *nseats)
{
    const options *o = j->o;
    const game_type *g = j->g;
    run_config *cfg = &j->cfg;
    char err[512];
    *nseats = 0;
    if (o->players)
        *nseats = (int)whole_option("players", o->players, (unsigned long long)g->min_seats,
                                    (unsigned long long)g->max_seats);
    cfg->nseats = botspec_parse_list(g, o->bots ? o->bots : g->default_bot, *nseats, cfg->seat,
                                     j->canon, err, sizeof err);
    if (cfg->nseats < 0)
        die(EXIT_USAGE, "%s", err);
    if (cfg->nseats < g->min_seats || cfg->nseats > g->max_seats) {
        if (g->min_seats == g->max_seats)
            die(EXIT_USAGE, "%s is for exactly %d players, not %d", g->name, g->min_seats,
                cfg->nseats);
        die(EXIT_USAGE, "%s is for %d-%d players, not %d", g->name, g->min_seats, g->max_seats,
            cfg->nseats);
    }
    if (g->rules_check && g->rules_check(j->rules, cfg->nseats, err, sizeof err) != 0)
        die(EXIT_USAGE, "%s", err);
}

/* The experiment's options (experiment.h), and what cannot be combined with one. */
static void check_experiment(job *j, int nseats)
{
    const options *o = j->o;
    exp_options *xo = &j->xo;
    *xo = (exp_options){.game = j->g, .configs = o->config, .nconfigs = o->nconfigs,
                        .sets = o->set, .nsets = o->nsets, .sweeps = o->sweep,
                        .nsweeps = o->nsweeps, .bots = o->bots, .players = nseats,
                        .baseline = o->baseline, .rotate = o->rotate, .until = o->until,
                        .sensitivity = o->sensitivity, .sensitivity_keys = o->sensitivity_keys,
                        .metric = o->metric, .runs = j->cfg.runs, .seed = j->cfg.seed,
                        .threads = j->cfg.threads, .exact = o->exact, .format = j->fmt,
                        .argc = j->argc, .argv = j->argv, .tune = o->tune,
                        .maximize = o->maximize ? o->maximize : o->minimize,
                        .minimize = o->minimize != NULL, .target = o->target, .over = o->over,
                        .tournament = o->tournament, .sprt = o->sprt, .step = o->step};
    if (o->maximize && o->minimize)
        die(EXIT_USAGE, "--maximize and --minimize contradict each other: give one");
    die_about(o->merge ? o->parts[0] : NULL); /* the experiment's options, the identity's */
    j->experiment = experiment_wanted(xo);
    die_about(NULL);
    if (j->experiment && (o->plot || o->html || j->fmt == REPORT_HTML))
        xo->tree = &j->xtree;
    if (j->experiment && j->fmt == REPORT_HTML)
        xo->format = REPORT_JSON; /* rendered as HTML from its tree */
    if (j->experiment && o->detail)
        die(EXIT_USAGE, "--detail lists one run's figures: it cannot be combined with --sweep, "
                        "--rotate-seats, --until or --sensitivity");
    if (j->experiment && o->trace)
        die(EXIT_USAGE, "--trace plays one game of one configuration: it cannot be combined "
                        "with --sweep, --rotate-seats, --until or --sensitivity");
    if (j->experiment && o->games_csv && (o->tune || o->target || o->tournament))
        die(EXIT_USAGE, "--games-csv goes with a run, --sweep, --rotate-seats, --until or "
                        "--sensitivity, not with a search (--tune, --target, --tournament)");
    if (j->experiment && o->games_csv && (dist_ranks() > 1 || o->shard))
        die(EXIT_USAGE, "--games-csv with an experiment is written by one process: not with "
                        "--shard or over MPI ranks");
    if (j->experiment && dist_ranks() > 1) { /* every block spread over the ranks */
        xo->part = (uint64_t)dist_rank();
        xo->parts = (uint64_t)dist_ranks();
        xo->combine = dist_combine;
    }
    xo->ranks = dist_ranks();
    if (j->experiment && o->shard)
        shard_experiment(xo);
    const char *orphan = o->maximize ? "--maximize goes with --tune"
                         : o->minimize ? "--minimize goes with --tune"
                         : o->over     ? "--over goes with --target"
                         : o->sprt     ? "--sprt goes with --tournament"
                         : o->step && !o->depends ? "--step goes with --sensitivity or --depends"
                                       : NULL;
    if (!j->experiment && orphan)
        die(EXIT_USAGE, "%s", orphan);
    if (o->depends && (j->experiment || o->shard || o->merge || o->trace || dist_ranks() > 1))
        die(EXIT_USAGE, "--depends plays a plain run's extra batches: it cannot be combined with "
                        "--%s", j->experiment ? "sweep, --rotate-seats, --until, --sensitivity or a search"
                                : o->shard ? "shard" : o->merge ? "merge" : o->trace ? "trace" : "MPI");
    if (o->depends && j->g->depends == NULL)
        die(EXIT_USAGE, "--depends: game %s names no figures that depend on reconstructions",
            j->g->name);
    if (!j->experiment && (o->baseline || o->metric))
        die(EXIT_USAGE, "--%s needs --sweep or --sensitivity", o->baseline ? "baseline" : "metric");
}

void job_check(job *j)
{
    const options *o = j->o;
    run_config *cfg = &j->cfg;
    cfg->game = j->g;
    cfg->rules = j->rules;
    int nseats;
    /* with --merge, the seats, runs and seed are what the parts' identity says */
    die_about(o->merge ? o->parts[0] : NULL);
    check_seats(j, &nseats);
    cfg->runs = o->runs ? whole_option("runs", o->runs, 1, MAX_RUNS) : 10000;
    if (o->seed) {
        if (rng_parse_seed(o->seed, &cfg->seed) != 0)
            die(EXIT_USAGE, "--seed '%s': expected a whole number in 0..18446744073709551615",
                o->seed);
        die_about(NULL);
    } else {
        /* Entropy enters only here; the seed is printed in every report. */
        if (o->shard)
            die(EXIT_USAGE, "--shard needs --seed, so that every shard plays the same run");
        if (getrandom(&cfg->seed, sizeof cfg->seed, 0) != sizeof cfg->seed)
            cfg->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
        cfg->seed = dist_seed(cfg->seed); /* every rank plays the run rank 0 chose */
    }
    if (o->shard)
        shard_start(j);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cfg->threads = o->threads ? (int)whole_option("threads", o->threads, 1, 1024)
                              : (int)(online > 0 ? online : 1);
    j->fmt = report_format_of(o);
    options_check_extra_outputs(o);
    if (o->exact && j->g->exact == NULL)
        die(EXIT_USAGE, "--exact: game %s has no exact analysis", j->g->name);
    check_experiment(j, nseats);
    if (o->keep_partial &&
        (j->experiment || o->trace || o->shard || o->merge || o->depends || dist_ranks() > 1))
        die(EXIT_USAGE, "--keep-partial keeps the report of a plain run: not with an experiment "
                        "or a search, --trace, --shard, --merge, --depends or MPI ranks");
    if (o->trace) {
        if (o->games_csv)
            die(EXIT_USAGE, "--trace cannot be combined with --games-csv");
        if (o->exact)
            die(EXIT_USAGE, "--trace cannot be combined with --exact");
        if (j->fmt != REPORT_TEXT)
            die(EXIT_USAGE, "--trace prints text: it cannot be combined with --format=%s",
                o->format ? o->format : "text --detail");
        if (o->plot || o->html)
            die(EXIT_USAGE, "--trace prints one game: it cannot be combined with --plot or --html");
        j->trace_index = whole_option("trace", o->trace, 0, cfg->runs - 1);
    }
    if (o->output && *o->output == '\0')
        die(EXIT_USAGE, "--output: empty file name");
    if (o->games_csv && *o->games_csv == '\0')
        die(EXIT_USAGE, "--games-csv: empty file name");
    if (o->csv_decimal && strcmp(o->csv_decimal, ",") != 0 && strcmp(o->csv_decimal, ".") != 0)
        die(EXIT_USAGE, "--csv-decimal '%s': expected ',' or '.'", o->csv_decimal);
    if (o->csv_decimal && j->fmt != REPORT_CSV && !o->games_csv)
        die(EXIT_USAGE, "--csv-decimal needs a CSV to write: --format=csv or --games-csv");
    j->csv_comma = o->csv_decimal && strcmp(o->csv_decimal, ",") == 0;
    if (o->csv_precision && strcmp(o->csv_precision, "interval") != 0 &&
        strcmp(o->csv_precision, "full") != 0)
        die(EXIT_USAGE, "--csv-precision '%s': expected 'interval' or 'full'", o->csv_precision);
    if (o->csv_precision && j->fmt != REPORT_CSV)
        die(EXIT_USAGE, "--csv-precision needs a CSV report to write: --format=csv");
    report_csv_set_precision(o->csv_precision && strcmp(o->csv_precision, "full") == 0
                                 ? CSV_PRECISION_FULL
                                 : CSV_PRECISION_INTERVAL);
    if (outfile_same(o->output, o->games_csv))
        die(EXIT_USAGE, "--output and --games-csv name the same file '%s'", o->games_csv);
}

void job_prepare(job *j)
{
    const options *o = j->o;
    char err[512];
    if (o->quiet && o->progress)
        die(EXIT_USAGE, "--quiet and --progress contradict each other");
    j->cfg.check = o->check;
    /* A bot that refuses its seat (a game it cannot play, a player count or a parameter
     * combination it does not accept) is bad input: set every seat up once here, before any
     * output is opened. */
    void *probe[GAME_MAX_SEATS] = {0};
    die_about(o->merge ? o->parts[0] : NULL); /* with --merge, the identity's bots */
    if (run_bots_setup(&j->cfg, probe, err, sizeof err) != 0)
        die(EXIT_USAGE, "%s", err);
    die_about(NULL);
    run_bots_free(&j->cfg, probe);
    if (o->merge)
        merge_prepare(j);
}

bool job_seats_any(const job *j, bool (*is)(const bot_type *b))
{
    for (int k = 0; k < j->cfg.nseats; k++) {
        const seat_spec *sp = &j->cfg.seat[k];
        if (is(sp->bot))
            return true;
        for (int m = 0; sp->pop != NULL && m < sp->pop->nmembers; m++)
            if (is(sp->pop->member[m].spec.bot))
                return true;
    }
    return false;
}

static bool is_human(const bot_type *b)
{
    return b == &bot_human;
}

bool job_human(const job *j)
{
    return job_seats_any(j, is_human);
}

int job_progress(const job *j)
{
    if (dist_rank() != 0 || job_human(j)) /* no line over the person's prompt */
        return RUN_PROGRESS_NONE;
    if (j->o->progress)
        return isatty(STDERR_FILENO) ? RUN_PROGRESS_TTY : RUN_PROGRESS_LOG;
    return !j->o->quiet && isatty(STDERR_FILENO) ? RUN_PROGRESS_TTY : RUN_PROGRESS_NONE;
}

void job_outputs(const job *j, outset *s)
{
    const options *o = j->o;
    *s = (outset){0};
    if (dist_rank() != 0)
        return;
    outset_open(s, o->output, o->games_csv, o->plot, o->html);
    if (j->csv_comma)
        outset_csv_decimal(s, j->fmt == REPORT_CSV && !o->shard);
}
