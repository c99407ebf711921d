/* main.c — giochi-sim's command line: options into one run, exit codes, output files. */
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "config/botspec.h"
#include "experiment/experiment.h"
#include "cli/outfile.h"
#include "dist/partial.h"
#include "core/perft.h"
#include "report/plot.h"
#include "core/registry.h"
#include "report/report.h"
#include "config/rules.h"
#include "core/runner.h"
#include "core/xalloc.h"

#ifdef GIOCHI_MPI
#include <mpi.h>

#include "dist/mpi_run.h"
#endif

/* Exit codes (documented in giochi-sim(1)). */
enum exit_code {
    EXIT_OK = 0,
    EXIT_USAGE = 2,    /* bad option, unknown name, bad ruleset or config file */
    EXIT_IO = 3,       /* an output file could not be written */
    EXIT_INTERNAL = 4, /* a bot or game failed to set up; --check found a broken invariant */
    EXIT_NOMEM = XALLOC_EXIT, /* out of memory (5): see xalloc.h */
};

enum { MAX_SETS = 256, MAX_CONFIGS = 16, MAX_SEEN = 64, MAX_PARTS = 100000 };
#define MAX_RUNS 1000000000000ULL /* 10^12 games */

const char *argp_program_version = "giochi-sim " GIOCHI_VERSION;
const char *argp_program_bug_address = "the giochi-sim issue tracker";

typedef struct options {
    const char *game, *bots, *output, *games_csv, *format;
    const char *runs, *seed, *players, *threads, *trace, *perft;
    const char *set[MAX_SETS];
    int nsets;
    const char *config[MAX_CONFIGS]; /* merged in order */
    int nconfigs;
    bool quiet, list, exact, print_ruleset, progress, check, merge;
    int seen[MAX_SEEN]; /* keys of the single-valued options given so far */
    int nseen;
    const char *shard;  /* --shard=I/N */
    const char *plot, *html; /* --plot=FILE, --html=FILE */
    bool detail;             /* --detail: the full text listing */
    const char **parts; /* --merge's files */
    int nparts;
    cJSON *parts_identity;      /* --merge: the identity the parts share */
    unsigned char **part_payload; /* --merge: each part's batches, as read */
    size_t *part_len;
    int *part_order;            /* part_order[shard] = 1 + index into parts */
    /* experiments (experiment.h) */
    const char *sweep[EXP_MAX_SWEEPS + 1];
    int nsweeps;
    const char *baseline, *until, *metric, *sensitivity_keys;
    bool rotate, sensitivity;
    /* searches (experiment.h) */
    const char *tune, *maximize, *minimize, *target, *over, *tournament, *sprt, *step;
} options;

#ifdef GIOCHI_MPI
static void die_mpi(int code, const char *msg) __attribute__((noreturn));
#endif

/* One-line error, then exit. Control characters the message quotes from the command line or
 * a ruleset file (a newline in a key or a file name) are written as \xHH, so that the error
 * stays one line. */
static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
#ifdef GIOCHI_MPI
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    die_mpi(code, msg);
#endif
    fputs("giochi-sim: ", stderr);
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            fprintf(stderr, "\\x%02x", *p);
        else
            fputc(*p, stderr);
    }
    fputc('\n', stderr);
    exit(code);
}

#ifdef GIOCHI_MPI
/* Under MPI every rank parses the same options and meets the same errors, so rank 0 alone
 * speaks and every rank leaves with the same code; an output error, which rank 0 alone can
 * meet, or running out of memory, which one rank may meet alone, ends the whole job
 * (MPI_Abort). */
static void die_mpi(int code, const char *msg)
{
    if (mpi_run_rank() == 0)
        fprintf(stderr, "giochi-sim: %s\n", msg);
    if ((code == 3 || code == 5) && mpi_run_size() > 1)
        mpi_run_abort(code);
    mpi_run_stop();
    exit(code);
}
#endif

/* Exits with success once everything written to standard output has reached it; a full disk
 * or a closed pipe is exit 3, as for a report. */
static void exit_flushed(void) __attribute__((noreturn));
static void exit_flushed(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        die(EXIT_IO, "cannot write 'standard output': %s", strerror(errno ? errno : EIO));
    exit(EXIT_OK);
}

enum {
    OPT_SET = 1000,
    OPT_GAMES_CSV,
    OPT_TRACE,
    OPT_EXACT,
    OPT_PRINT_RULESET,
    OPT_USAGE,
    OPT_PERFT,
    OPT_PROGRESS,
    OPT_CHECK,
    OPT_SHARD,
    OPT_MERGE,
    OPT_DETAIL,
    OPT_PLOT,
    OPT_HTML,
};
enum { OPT_SWEEP = 1100, OPT_BASELINE, OPT_ROTATE, OPT_UNTIL, OPT_SENSITIVITY, OPT_METRIC };
enum { OPT_TUNE = 1200, OPT_MAXIMIZE, OPT_MINIMIZE, OPT_TARGET, OPT_OVER, OPT_TOURNAMENT,
       OPT_SPRT, OPT_STEP };

static const struct argp_option option_table[] = {
    {"game", 'g', "NAME", 0, "Game to simulate (--list names them all)", 0},
    {"runs", 'n', "N", 0, "Number of games to play (default 10000, at most 10^12)", 0},
    {"seed", 's', "S", 0, "Master seed, 0..2^64-1 (default: a fresh one, shown in the report)", 0},
    {"players", 'p', "N", 0, "Number of players (default: the game's, or the number of --bots)", 0},
    {"bots", 'b', "LIST", 0,
     "One bot per seat, comma-separated; one name applies to every seat. Parameters follow "
     "the name: NAME:KEY=VALUE:KEY=VALUE (e.g. greedy,mc:samples=200)",
     0},
    {"threads", 't', "N", 0, "Worker threads (default: the number of online cores)", 0},
    {"format", 'f', "FMT", 0, "Report format: text, json, csv or html (default text)", 0},
    {"detail", OPT_DETAIL, 0, 0,
     "Text report: list every figure of every seat instead of the headline summary", 0},
    {"plot", OPT_PLOT, "FILE", 0,
     "Also draw the report's charts into FILE (.svg, .png or .pdf; needs gnuplot)", 0},
    {"html", OPT_HTML, "FILE", 0,
     "Also write the report as one self-contained HTML page to FILE", 0},
    {"output", 'o', "FILE", 0, "Write the report to FILE (default: standard output)", 0},
    {"config", 'c', "FILE", 0,
     "Load a ruleset JSON file over the built-in default ruleset (repeatable: merged in order)",
     0},
    {"set", OPT_SET, "KEY=VALUE", 0,
     "Override one ruleset option (repeatable; dotted keys reach inside: board.13.amount=20)", 0},
    {"games-csv", OPT_GAMES_CSV, "FILE", 0, "Also write one CSV row per game to FILE", 0},
    {"trace", OPT_TRACE, "INDEX", 0,
     "Print the play-by-play of game INDEX of this run instead of a report", 0},
    {"exact", OPT_EXACT, 0, 0, "Add the game's exact analysis beside the simulated figures", 0},
    {"print-ruleset", OPT_PRINT_RULESET, 0, 0, "Print the effective ruleset as JSON and exit", 0},
    {"perft", OPT_PERFT, "D", 0,
     "Count the move paths of each length 1..D from the start (games without chance or "
     "hidden information) instead of playing",
     0},
    {"shard", OPT_SHARD, "I/N", 0,
     "Play only shard I (0..N-1) of N equal parts of the run and write its partial result "
     "to --output, for --merge (needs --seed)",
     0},
    {"merge", OPT_MERGE, 0, 0,
     "Combine the partial results named as arguments (every shard of one run) into the "
     "run's report",
     0},
    {"sweep", OPT_SWEEP, "KEY=LIST", 0,
     "Play every value of KEY on the same games: a ruleset key (dotted as --set), players, or "
     "seatN.PARAM (a bot parameter of seat N); LIST is V1,V2,... or FROM:TO:STEP. Several make "
     "a grid",
     0},
    {"baseline", OPT_BASELINE, "VALUES", 0,
     "The setting the others are compared with: one value per --sweep, comma-separated "
     "(default: the first setting)",
     0},
    {"rotate-seats", OPT_ROTATE, 0, 0,
     "Play each deal once per rotation of the bots around the seats; report per bot and the "
     "seat advantage",
     0},
    {"until", OPT_UNTIL, "FIGURE:HW", 0,
     "Play blocks of games until FIGURE's 95% interval has half-width at most HW (--runs is "
     "the cap), e.g. bankruptcy_any:0.002 or win_share@1:0.005",
     0},
    {"sensitivity", OPT_SENSITIVITY, "KEYS", OPTION_ARG_OPTIONAL,
     "Move every numeric ruleset key (or the KEYS listed) down and up by 10% and rank the "
     "effects on --metric",
     0},
    {"metric", OPT_METRIC, "FIGURES", 0,
     "The figures a sweep's text rows and --sensitivity report (e.g. length,win_share@1)", 0},
    {"tune", OPT_TUNE, "seatN.PARAM=LO:HI,...", 0,
     "Search seat N's bot parameters in these ranges for the values that maximise "
     "--maximize (or minimise --minimize), then re-evaluate the best on fresh seeds",
     0},
    {"maximize", OPT_MAXIMIZE, "FIGURE", 0, "The figure --tune raises (e.g. win_share@1)", 0},
    {"minimize", OPT_MINIMIZE, "FIGURE", 0, "The figure --tune lowers (e.g. length)", 0},
    {"target", OPT_TARGET, "FIGURE=VALUE[:HW]", 0,
     "Goal seek: find where FIGURE equals VALUE as --over's key moves (every crossing, each "
     "with an interval; HW the figure's half-width there)",
     0},
    {"over", OPT_OVER, "KEY=LO:HI", 0,
     "The ruleset key or seatN.PARAM --target moves, and its range", 0},
    {"tournament", OPT_TOURNAMENT, "BOT,BOT,...", 0,
     "Play every table of these bots with seats rotated on paired deals; ratings with "
     "intervals, a cross table, the draw rate",
     0},
    {"sprt", OPT_SPRT, "ELO0,ELO1", 0,
     "With a --tournament of two bots: a sequential probability ratio test of H0 elo=ELO0 "
     "against H1 elo=ELO1 (alpha=beta=0.05, or ELO0,ELO1,ALPHA,BETA)",
     0},
    {"list", 'l', 0, 0, "List games, their bots and their ruleset options (with --game: one game)",
     0},
    {"quiet", 'q', 0, 0, "No progress indicator and no notes on standard error", 0},
    {"progress", OPT_PROGRESS, 0, 0,
     "Show progress on standard error even when it is not a terminal (a line every 10 s)", 0},
    {"check", OPT_CHECK, 0, 0,
     "Check the game's invariants after every step of every game; stop at the first broken one",
     0},
    /* argp's own help options print nothing under ARGP_NO_ERRS, so they are ours. */
    {"help", '?', 0, 0, "Give this help list", -1},
    {"usage", OPT_USAGE, 0, 0, "Give a short usage message", -1},
    {"version", 'V', 0, 0, "Print program version", -1},
    {0},
};

/* Reports an option getopt refused: unknown, or missing its value. */
static void bad_option(const char *text) __attribute__((noreturn));
static void bad_option(const char *text)
{
    for (const struct argp_option *p = option_table; p->name || p->key; p++) {
        bool named = (text[0] == '-' && text[1] == '-' && p->name && strcmp(text + 2, p->name) == 0) ||
                     (text[0] == '-' && text[1] == p->key && text[2] == '\0');
        if (named && p->arg)
            die(EXIT_USAGE, "option '%s' needs a value (%s)", text, p->arg);
    }
    die(EXIT_USAGE, "unknown option '%s' (see --help)", text);
}

/* Options that may be given more than once, applied in order; flags may repeat harmlessly.
 * Any other option given twice is an error rather than a silent "last one wins". */
static const int repeatable[] = {OPT_SET, 'c', OPT_SWEEP};

/* Dies if key names a single-valued option already given. */
static void reject_repeat(options *o, int key)
{
    for (size_t i = 0; i < sizeof repeatable / sizeof repeatable[0]; i++)
        if (key == repeatable[i])
            return;
    for (const struct argp_option *p = option_table; p->name; p++) {
        if (p->key != key)
            continue;
        if (p->arg == NULL)
            return;
        for (int i = 0; i < o->nseen; i++)
            if (o->seen[i] == key)
                die(EXIT_USAGE, "option --%s is given twice (it takes one value)", p->name);
        if (o->nseen < MAX_SEEN)
            o->seen[o->nseen++] = key;
        return;
    }
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
    options *o = state->input;
    reject_repeat(o, key);
    switch (key) {
    case 'g': o->game = arg; break;
    case 'n': o->runs = arg; break;
    case 's': o->seed = arg; break;
    case 'p': o->players = arg; break;
    case 'b': o->bots = arg; break;
    case 't': o->threads = arg; break;
    case 'f': o->format = arg; break;
    case 'o': o->output = arg; break;
    case 'c':
        if (o->nconfigs == MAX_CONFIGS)
            die(EXIT_USAGE, "at most %d --config files", MAX_CONFIGS);
        o->config[o->nconfigs++] = arg;
        break;
    case OPT_SET:
        if (o->nsets == MAX_SETS)
            die(EXIT_USAGE, "at most %d --set options", MAX_SETS);
        o->set[o->nsets++] = arg;
        break;
    case OPT_GAMES_CSV: o->games_csv = arg; break;
    case OPT_TRACE: o->trace = arg; break;
    case OPT_EXACT: o->exact = true; break;
    case OPT_PRINT_RULESET: o->print_ruleset = true; break;
    case OPT_PERFT: o->perft = arg; break;
    case OPT_SHARD: o->shard = arg; break;
    case OPT_MERGE: o->merge = true; break;
    case OPT_DETAIL: o->detail = true; break;
    case OPT_PLOT: o->plot = arg; break;
    case OPT_HTML: o->html = arg; break;
    case OPT_SWEEP:
        if (o->nsweeps == EXP_MAX_SWEEPS)
            die(EXIT_USAGE, "at most %d --sweep options", EXP_MAX_SWEEPS);
        o->sweep[o->nsweeps++] = arg;
        break;
    case OPT_BASELINE: o->baseline = arg; break;
    case OPT_ROTATE: o->rotate = true; break;
    case OPT_UNTIL: o->until = arg; break;
    case OPT_SENSITIVITY:
        o->sensitivity = true;
        o->sensitivity_keys = arg;
        break;
    case OPT_METRIC: o->metric = arg; break;
    case OPT_TUNE: o->tune = arg; break;
    case OPT_MAXIMIZE: o->maximize = arg; break;
    case OPT_MINIMIZE: o->minimize = arg; break;
    case OPT_TARGET: o->target = arg; break;
    case OPT_OVER: o->over = arg; break;
    case OPT_TOURNAMENT: o->tournament = arg; break;
    case OPT_SPRT: o->sprt = arg; break;
    case OPT_STEP: o->step = arg; break;
    case 'l': o->list = true; break;
    case 'q': o->quiet = true; break;
    case OPT_PROGRESS: o->progress = true; break;
    case OPT_CHECK: o->check = true; break;
    case '?':
        argp_help(state->root_argp, stdout, ARGP_HELP_STD_HELP, (char *)"giochi-sim");
        exit_flushed();
    case OPT_USAGE:
        argp_help(state->root_argp, stdout, ARGP_HELP_USAGE, (char *)"giochi-sim");
        exit_flushed();
    case 'V':
        puts(argp_program_version);
        exit_flushed();
    case ARGP_KEY_ARG:
        if (o->nparts == MAX_PARTS)
            die(EXIT_USAGE, "at most %d partial results", MAX_PARTS);
        o->parts[o->nparts++] = arg;
        break;
    case ARGP_KEY_ERROR:
        /* argp stays silent (ARGP_NO_ERRS) so that every error is one line. */
        bad_option(state->next > 0 && state->next <= state->argc ? state->argv[state->next - 1]
                                                                 : "?");
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const char doc[] =
    "giochi-sim -- play many seeded automated games of a traditional table game and report "
    "win shares, distributions and game-specific statistics with 95% intervals."
    "\vExit status: 0 success, 2 bad usage or input, 3 output could not be written, "
    "4 internal error or a broken invariant (--check), 5 out of memory. See giochi-sim(1) "
    "and giochi-sim-GAME(7).";

/* Parses a whole decimal number in [min, max]; dies naming the option otherwise. */
static unsigned long long whole_option(const char *opt, const char *text, unsigned long long min,
                                       unsigned long long max)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end || errno || v < min || v > max)
        die(EXIT_USAGE, "--%s '%s': expected a whole number in %llu..%llu", opt, text, min, max);
    return v;
}

/* ---- signals ------------------------------------------------------------------------------ */

/* Removes the temporary output files, then dies of the signal as if it were not caught. */
static void on_signal(int sig)
{
    outfile_remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* An interrupted run (Ctrl-C, kill, a closed pipe) leaves no temporary file behind. Signals
 * the caller ignores stay ignored. */
static void catch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
    /* Past a file-size limit (ulimit -f) a write fails with EFBIG, reported as any failed
     * write (exit 3), instead of the signal killing the run with its temporary files. */
    signal(SIGXFSZ, SIG_IGN);
}

/* ---- listing ------------------------------------------------------------------------------ */

/* True if game g lists bot `name` among its slow bots. */
/* How a run or an experiment shows progress on stderr (RUN_PROGRESS_*): on a terminal unless
 * --quiet; with --progress, also in a log; never on an MPI rank other than 0. */
static int progress_mode(const options *o, bool root)
{
    if (!root)
        return RUN_PROGRESS_NONE;
    if (o->progress)
        return isatty(STDERR_FILENO) ? RUN_PROGRESS_TTY : RUN_PROGRESS_LOG;
    return !o->quiet && isatty(STDERR_FILENO) ? RUN_PROGRESS_TTY : RUN_PROGRESS_NONE;
}

static bool slow_bot(const game_type *g, const char *name)
{
    for (int i = 0; g->slow_bots && g->slow_bots[i]; i++)
        if (strcmp(g->slow_bots[i], name) == 0)
            return true;
    return false;
}

static void list_game(FILE *f, const game_type *g, bool detail)
{
    fprintf(f, "%s — %s (%d-%d players, default %d; rules: %s)\n", g->name, g->title,
            g->min_seats, g->max_seats, g->default_seats, g->seed);
    if (g->kind_names[0] == NULL) /* e.g. the Cinesi: the dice play the whole game */
        fprintf(f, "  decisions: none (the bots are never asked anything)\n");
    fprintf(f, "  bots:\n");
    const bot_type *all[REGISTRY_MAX_BOTS];
    int nbots = registry_bots(g, all, REGISTRY_MAX_BOTS);
    for (int i = 0; i < nbots; i++) {
        const bot_type *b = all[i];
        fprintf(f, "    %-16s %s%s%s\n", b->name, b->doc,
                strcmp(b->name, g->default_bot) == 0 ? " (default)" : "",
                slow_bot(g, b->name) ? " [slow here: a second or more a game; see --progress]"
                                     : "");
        for (int j = 0; b->params && b->params[j].name; j++) {
            const bot_param *p = &b->params[j];
            fprintf(f, "      :%s=%g  %s (%g..%g%s)\n", p->name, p->def, p->doc, p->min,
                    p->max, p->integer ? ", whole" : "");
        }
    }
    char err[256];
    cJSON *rules = rules_parse(g->default_rules, g->name, err, sizeof err);
    fprintf(f, "  ruleset options (--set KEY=VALUE; defaults shown):\n");
    for (const cJSON *k = rules ? rules->child : NULL; k; k = k->next) {
        char *v = cJSON_PrintUnformatted(k);
        if (v && (strlen(v) <= 60 || detail))
            fprintf(f, "    %s = %s\n", k->string, v);
        else if (cJSON_IsArray(k))
            fprintf(f, "    %s = [%d entries: see --print-ruleset]\n", k->string,
                    cJSON_GetArraySize(k));
        else
            fprintf(f, "    %s = {...: see --print-ruleset}\n", k->string);
        cJSON_free(v);
    }
    cJSON_Delete(rules);
    if (detail) {
        fprintf(f, "  metrics:\n");
        for (int i = 0; g->metrics && g->metrics[i].name; i++)
            fprintf(f, "    %-24s %s, %s: %s\n", g->metrics[i].name,
                    g->metrics[i].scope == METRIC_SEAT ? "per seat" : "per game",
                    g->metrics[i].kind == METRIC_RATE ? "share" : "mean", g->metrics[i].doc);
    }
}

/* --perft: prints the move-path counts of depths 1..D as text ("d COUNT" lines), JSON or CSV,
 * with the nodes per second on stderr unless --quiet, then exits. */
static void run_perft(const game_type *g, const void *rules, const options *o, cJSON *ruleset)
    __attribute__((noreturn));
static void run_perft(const game_type *g, const void *rules, const options *o, cJSON *ruleset)
{
    char err[512];
    if (o->trace || o->games_csv || o->exact || o->bots || o->runs || o->progress || o->check)
        die(EXIT_USAGE, "--perft counts move paths: it cannot be combined with --trace, "
                        "--games-csv, --exact, --bots, --runs, --progress or --check");
    if (o->plot || o->html || o->detail)
        die(EXIT_USAGE, "--perft counts move paths: it cannot be combined with --plot, --html "
                        "or --detail");
    int depth = (int)whole_option("perft", o->perft, 1, PERFT_MAX_DEPTH);
    int nseats = o->players ? (int)whole_option("players", o->players,
                                                (unsigned long long)g->min_seats,
                                                (unsigned long long)g->max_seats)
                            : g->default_seats;
    if (g->rules_check && g->rules_check(rules, nseats, err, sizeof err) != 0)
        die(EXIT_USAGE, "%s", err);
    const char *fmt = o->format ? o->format : "text";
    if (strcmp(fmt, "text") != 0 && strcmp(fmt, "json") != 0 && strcmp(fmt, "csv") != 0)
        die(EXIT_USAGE, "--format '%s': expected text, json or csv", fmt);
    if (o->output && *o->output == '\0')
        die(EXIT_USAGE, "--output: empty file name");
    if (!g->deterministic)
        die(EXIT_USAGE, "--perft: %s has chance or hidden information (move paths are counted "
                        "for deterministic games of perfect information)", g->name);
    catch_signals();
    outfile out;
    if (outfile_open(&out, o->output, err, sizeof err) != 0)
        die(EXIT_IO, "%s", err);
    uint64_t nodes[PERFT_MAX_DEPTH];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (perft_count(g, rules, nseats, depth, nodes, err, sizeof err) != 0) {
        outfile_abort(&out);
        die(EXIT_INTERNAL, "%s", err);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (strcmp(fmt, "json") == 0) {
        cJSON *root = cJSON_CreateObject(), *arr = cJSON_CreateArray();
        cJSON_AddStringToObject(root, "game", g->name);
        cJSON_AddNumberToObject(root, "players", nseats);
        cJSON_AddItemToObject(root, "ruleset", cJSON_Duplicate(ruleset, 1));
        for (int d = 0; d < depth; d++) {
            cJSON *row = cJSON_CreateObject();
            cJSON_AddNumberToObject(row, "depth", d + 1);
            /* counts stay below 2^53 at any depth a machine reaches */
            cJSON_AddNumberToObject(row, "nodes", (double)nodes[d]);
            cJSON_AddItemToArray(arr, row);
        }
        cJSON_AddItemToObject(root, "perft", arr);
        char *text = cJSON_Print(root);
        fprintf(out.f, "%s\n", text);
        cJSON_free(text);
        cJSON_Delete(root);
    } else {
        if (strcmp(fmt, "csv") == 0)
            fprintf(out.f, "depth,nodes\n");
        for (int d = 0; d < depth; d++)
            fprintf(out.f, strcmp(fmt, "csv") == 0 ? "%d,%llu\n" : "%d %llu\n", d + 1,
                    (unsigned long long)nodes[d]);
    }
    if (outfile_close(&out, err, sizeof err) != 0 || outfile_rename(&out, err, sizeof err) != 0)
        die(EXIT_IO, "%s", err);
    if (!o->quiet) {
        uint64_t total = 0;
        for (int d = 0; d < depth; d++)
            total += nodes[d];
        double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        fprintf(stderr, "giochi-sim: perft %d: %llu nodes in %.3f s (%.0f nodes/s)\n", depth,
                (unsigned long long)total, secs, secs > 0 ? (double)total / secs : 0.0);
    }
    cJSON_Delete(ruleset);
    free((void *)rules);
    exit_flushed();
}

/* ---- modes that print instead of playing (--list, --print-ruleset) ----------------------- */

/* Checks --plot and --html before anything is played: names, the plot's format, gnuplot, and
 * that no two outputs name the same file. */
static void check_extra_outputs(const options *o)
{
    const char *name[2] = {"plot", "html"}, *path[2] = {o->plot, o->html};
    for (int i = 0; i < 2; i++) {
        if (path[i] && *path[i] == '\0')
            die(EXIT_USAGE, "--%s: empty file name", name[i]);
        if (path[i] && (outfile_same(path[i], o->output) || outfile_same(path[i], o->games_csv)))
            die(EXIT_USAGE, "--%s names the same file '%s' as another output", name[i], path[i]);
    }
    if (o->html && strcmp(o->html, "-") == 0)
        die(EXIT_USAGE, "--html needs a file name (--format=html writes the page to standard "
                        "output)");
    if (outfile_same(o->plot, o->html))
        die(EXIT_USAGE, "--plot and --html name the same file '%s'", o->plot);
    if (o->plot && plot_format_of(o->plot) < 0)
        die(EXIT_USAGE, "--plot '%s': the file name must end in .svg, .png or .pdf", o->plot);
    if (o->plot && !plot_available())
        die(EXIT_USAGE, "--plot needs gnuplot, which is not on the PATH (Debian: apt-get "
                        "install gnuplot-nox)");
}

/* Abandons the report, the games CSV and the first n extra outputs, whichever are open
 * (NULL: not that one). */
static void abort_outputs(outfile *out, outfile *games, outfile *extra, int n)
{
    if (out)
        outfile_abort(out);
    if (games)
        outfile_abort(games);
    for (int i = 0; i < n; i++)
        if (extra[i].f || extra[i].tmp)
            outfile_abort(&extra[i]);
}

/* Writes --html's page and --plot's charts of report r into extra[1] and extra[0]; on a
 * failure abandons every output and dies. */
static void write_extras(const options *o, const cJSON *r, outfile *out, outfile *games,
                         outfile *extra)
{
    if (o->html)
        report_write(extra[1].f, r, REPORT_HTML);
    if (o->plot) {
        char err[512];
        size_t len = 0;
        char *bytes = plot_render(r, (plot_format)plot_format_of(o->plot), &len, err, sizeof err);
        if (bytes == NULL) {
            abort_outputs(out, games, extra, 2);
            die(EXIT_IO, "--plot '%s': %s", o->plot, err);
        }
        fwrite(bytes, 1, len, extra[0].f);
        free(bytes);
    }
}

/* Rejects combinations of options that a mode would silently ignore. */
static void check_modes(const options *o)
{
    const char *mode = o->list ? "--list" : o->print_ruleset ? "--print-ruleset" : NULL;
    if (mode == NULL)
        return;
    if (o->list && o->print_ruleset)
        die(EXIT_USAGE, "--list and --print-ruleset cannot be combined");
    const struct {
        bool given;
        const char *name;
    } other[] = {{o->perft != NULL, "--perft"},         {o->trace != NULL, "--trace"},
                 {o->games_csv != NULL, "--games-csv"}, {o->exact, "--exact"},
                 {o->progress, "--progress"},           {o->check, "--check"},
                 {o->plot != NULL, "--plot"},           {o->html != NULL, "--html"},
                 {o->detail, "--detail"}};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        if (other[i].given)
            die(EXIT_USAGE, "%s cannot be combined with %s", mode, other[i].name);
    const char *fmt = o->list ? "text" : "json";
    if (o->format && strcmp(o->format, fmt) != 0)
        die(EXIT_USAGE, "%s prints %s: it cannot be combined with --format=%s", mode, fmt,
            o->format);
    if (o->output && *o->output == '\0')
        die(EXIT_USAGE, "--output: empty file name");
}

/* --list without --game: the options that do not need a game are still checked, and those
 * that do are refused (nothing to check them against). */
static void check_without_game(const options *o)
{
    const struct {
        const char *given, *name;
    } need[] = {{o->bots, "--bots"}, {o->players, "--players"}, {o->nsets ? "" : NULL, "--set"},
                {o->nconfigs ? "" : NULL, "--config"}};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (need[i].given)
            die(EXIT_USAGE, "--list: %s needs --game (bots, players and rulesets are a game's)",
                need[i].name);
    if (o->runs)
        whole_option("runs", o->runs, 1, MAX_RUNS);
    uint64_t seed;
    if (o->seed && rng_parse_seed(o->seed, &seed) != 0)
        die(EXIT_USAGE, "--seed '%s': expected a whole number in 0..18446744073709551615",
            o->seed);
    if (o->threads)
        whole_option("threads", o->threads, 1, 1024);
}

/* Writes the listing (of game g, or of every game if g is NULL) or the effective ruleset to
 * --output (standard output by default) atomically, then exits. */
static void print_and_exit(const game_type *g, const options *o, const cJSON *ruleset)
    __attribute__((noreturn));
static void print_and_exit(const game_type *g, const options *o, const cJSON *ruleset)
{
    char err[512];
    catch_signals();
    outfile out;
    if (outfile_open(&out, o->output, err, sizeof err) != 0)
        die(EXIT_IO, "%s", err);
    if (o->print_ruleset) {
        char *text = cJSON_Print(ruleset);
        fprintf(out.f, "%s\n", text);
        cJSON_free(text);
    } else {
        for (int i = 0; registry_games[i]; i++)
            if (g == NULL || g == registry_games[i]) {
                list_game(out.f, registry_games[i], g != NULL);
                if (registry_games[i + 1] && g == NULL)
                    fputc('\n', out.f);
            }
    }
    if (outfile_close(&out, err, sizeof err) != 0 || outfile_rename(&out, err, sizeof err) != 0)
        die(EXIT_IO, "%s", err);
    exit_flushed();
}

/* ---- shards, merges and MPI ranks ---------------------------------------------------------- */

/* --shard: the shard played, and the batches it played, as bytes for the partial file. */
static uint64_t shard_index, shard_count;
static pbuf shard_bytes;

/* The distributor of --shard: plays this shard's part of each batch and keeps its result. */
static int shard_batch(const run_config *cfg, run_result *res, char *err, size_t errlen)
{
    run_config part = *cfg;
    uint64_t first, count;
    partial_shard_range(cfg->runs, shard_index, shard_count, &first, &count);
    part.first = cfg->first + first;
    part.runs = count;
    if (run_batch_local(&part, res, err, errlen) != 0)
        return -1;
    partial_put_batch(&shard_bytes, cfg, res);
    return 0;
}

/* --merge of an experiment: the seconds its shards played, summed (each shard's identity
 * records its own, taken out before the identities are compared). */
static double shards_wall;

/* --merge: each batch of the run, every shard's part merged, handed back in order. */
static run_result *merged;
static uint64_t *merged_first, *merged_runs;
static int nmerged, next_merged;

/* The distributor of --merge: plays nothing; returns the next merged batch, which must be the
 * batch asked for. */
static int merged_batch(const run_config *cfg, run_result *res, char *err, size_t errlen)
{
    if (next_merged >= nmerged || merged_first[next_merged] != cfg->first ||
        merged_runs[next_merged] != cfg->runs) {
        snprintf(err, errlen, "the partial results do not hold the batches this run plays");
        return -1;
    }
    *res = merged[next_merged];
    memset(&merged[next_merged], 0, sizeof merged[next_merged]);
    next_merged++;
    return 0;
}

/* The identity of a run as a shard records it: everything its report depends on. */
static cJSON *run_identity(const run_config *cfg, const cJSON *ruleset, char (*canon)[BOT_SPEC_MAX],
                           bool exact, const char *const *sets, int nsets)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)cfg->seed);
    cJSON *id = cJSON_CreateObject();
    cJSON_AddNumberToObject(id, "format", PARTIAL_FORMAT);
    cJSON_AddStringToObject(id, "version", GIOCHI_VERSION);
    cJSON_AddStringToObject(id, "game", cfg->game->name);
    cJSON_AddNumberToObject(id, "players", cfg->nseats);
    cJSON *bots = cJSON_AddArrayToObject(id, "bots");
    for (int k = 0; k < cfg->nseats; k++)
        cJSON_AddItemToArray(bots, cJSON_CreateString(canon[k]));
    cJSON_AddStringToObject(id, "seed", seed);
    cJSON_AddNumberToObject(id, "runs", (double)cfg->runs);
    cJSON_AddBoolToObject(id, "exact", exact);
    cJSON_AddItemToObject(id, "ruleset", cJSON_Duplicate(ruleset, 1));
    cJSON *s = cJSON_AddArrayToObject(id, "sets"); /* provenance, as the report records it */
    for (int i = 0; i < nsets; i++)
        cJSON_AddItemToArray(s, cJSON_CreateString(sets[i]));
    return id;
}

/* The experiment's part of a shard's identity: its options as given (the settings are made
 * from them again by --merge), or JSON null for a plain run. */
static cJSON *experiment_identity(const options *o, bool experiment)
{
    if (!experiment)
        return cJSON_CreateNull();
    cJSON *x = cJSON_CreateObject();
    cJSON *sw = cJSON_AddArrayToObject(x, "sweeps");
    for (int i = 0; i < o->nsweeps; i++)
        cJSON_AddItemToArray(sw, cJSON_CreateString(o->sweep[i]));
    const char *name[] = {"bots", "players", "baseline", "until", "metric", "sensitivity_keys"};
    const char *value[] = {o->bots, o->players, o->baseline, o->until, o->metric,
                           o->sensitivity_keys};
    for (size_t i = 0; i < sizeof name / sizeof *name; i++)
        cJSON_AddItemToObject(x, name[i], value[i] ? cJSON_CreateString(value[i]) : cJSON_CreateNull());
    cJSON_AddBoolToObject(x, "rotate_seats", o->rotate);
    cJSON_AddBoolToObject(x, "sensitivity", o->sensitivity);
    return x;
}

/* --merge of an experiment's shards: its options, from the identity's "experiment" object. */
static void experiment_from_identity(options *o, const cJSON *x, const char *path)
{
    const cJSON *sw = cJSON_GetObjectItemCaseSensitive(x, "sweeps");
    const cJSON *rot = cJSON_GetObjectItemCaseSensitive(x, "rotate_seats");
    const cJSON *sens = cJSON_GetObjectItemCaseSensitive(x, "sensitivity");
    if (!cJSON_IsArray(sw) || cJSON_GetArraySize(sw) > EXP_MAX_SWEEPS || !cJSON_IsBool(rot) ||
        !cJSON_IsBool(sens))
        die(EXIT_USAGE, "'%s' has a malformed identity (experiment)", path);
    const cJSON *one;
    cJSON_ArrayForEach(one, sw)
    {
        if (!cJSON_IsString(one))
            die(EXIT_USAGE, "'%s' has a malformed identity (sweeps)", path);
        o->sweep[o->nsweeps++] = one->valuestring;
    }
    const char *name[] = {"bots", "players", "baseline", "until", "metric", "sensitivity_keys"};
    const char **field[] = {&o->bots, &o->players, &o->baseline, &o->until, &o->metric,
                            &o->sensitivity_keys};
    for (size_t i = 0; i < sizeof name / sizeof *name; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, name[i]);
        if (!cJSON_IsString(v) && !cJSON_IsNull(v))
            die(EXIT_USAGE, "'%s' has a malformed identity (%s)", path, name[i]);
        *field[i] = cJSON_IsString(v) ? v->valuestring : NULL;
    }
    o->rotate = cJSON_IsTrue(rot);
    o->sensitivity = cJSON_IsTrue(sens);
}

/* --merge: reads every part, checks that they are the N shards of one run, merges their
 * batches, and sets the options of that run into o (and the ruleset into *ruleset). */
static void read_parts(options *o, cJSON **ruleset, uint64_t *nshards)
{
    static const char *const forbidden[] = {"game", "bots", "players", "runs", "seed", "config",
                                            "set", "shard", "trace", "perft", "exact",
                                            "games-csv", "sweep", "rotate-seats", "until",
                                            "sensitivity", "baseline", "metric"};
    const char *given[] = {o->game, o->bots, o->players, o->runs, o->seed,
                           o->nconfigs ? "" : NULL,
                           o->nsets ? "" : NULL, o->shard, o->trace, o->perft,
                           o->exact ? "" : NULL, o->games_csv, o->nsweeps ? "" : NULL,
                           o->rotate ? "" : NULL, o->until, o->sensitivity ? "" : NULL,
                           o->baseline, o->metric};
    for (size_t i = 0; i < sizeof forbidden / sizeof *forbidden; i++)
        if (given[i])
            die(EXIT_USAGE, "--merge takes the run's options from its partial results: "
                            "--%s cannot be given", forbidden[i]);
    if (o->nparts == 0)
        die(EXIT_USAGE, "--merge needs the partial results to merge as arguments");
    char err[512];
    cJSON *first = NULL;
    unsigned char **payload = calloc((size_t)o->nparts, sizeof *payload);
    size_t *len = calloc((size_t)o->nparts, sizeof *len);
    int *order = calloc((size_t)o->nparts, sizeof *order);
    uint64_t *shard_of = calloc((size_t)o->nparts, sizeof *shard_of);
    if (payload == NULL || len == NULL || order == NULL || shard_of == NULL)
        die(EXIT_INTERNAL, "out of memory");
    uint64_t n = 0;
    for (int i = 0; i < o->nparts; i++) {
        cJSON *id;
        if (partial_read_file(o->parts[i], &id, &payload[i], &len[i], err, sizeof err) != 0)
            die(EXIT_USAGE, "%s", err);
        cJSON *wall = cJSON_DetachItemFromObjectCaseSensitive(id, "wall_seconds");
        shards_wall += cJSON_IsNumber(wall) ? wall->valuedouble : 0;
        cJSON_Delete(wall);
        uint64_t index, count;
        if (partial_identity_check(id, o->parts[i], GIOCHI_VERSION, MAX_PARTS, &index, &count,
                                   err, sizeof err) != 0)
            die(EXIT_USAGE, "%s", err);
        if (first == NULL) {
            first = id;
            n = count;
        } else {
            bool same = cJSON_Compare(first, id, true);
            cJSON_Delete(id);
            if (!same)
                die(EXIT_USAGE, "'%s' and '%s' are shards of different runs", o->parts[0],
                    o->parts[i]);
        }
        for (int j = 0; j < i; j++)
            if (shard_of[j] == index)
                die(EXIT_USAGE, "shard %llu/%llu is given twice: '%s' and '%s'",
                    (unsigned long long)index, (unsigned long long)count, o->parts[j],
                    o->parts[i]);
        shard_of[i] = index;
    }
    /* n distinct shards below n among nparts parts: all present exactly when nparts == n */
    for (uint64_t k = 0; k < n; k++) {
        bool found = false;
        for (int i = 0; i < o->nparts && !found; i++)
            if (shard_of[i] == k) {
                found = true;
                order[k] = i + 1;
            }
        if (!found)
            die(EXIT_USAGE, "shard %llu/%llu is missing", (unsigned long long)k,
                (unsigned long long)n);
    }
    /* The run's options, from the identity. */
    const cJSON *game = cJSON_GetObjectItemCaseSensitive(first, "game");
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(first, "players");
    const cJSON *bots = cJSON_GetObjectItemCaseSensitive(first, "bots");
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(first, "seed");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(first, "runs");
    const cJSON *exact = cJSON_GetObjectItemCaseSensitive(first, "exact");
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(first, "ruleset");
    const cJSON *sets = cJSON_GetObjectItemCaseSensitive(first, "sets");
    if (!cJSON_IsString(game) || !cJSON_IsNumber(players) || !cJSON_IsArray(bots) ||
        !cJSON_IsString(seed) || !cJSON_IsNumber(runs) || !cJSON_IsBool(exact) ||
        !cJSON_IsObject(rs) || !cJSON_IsArray(sets) || cJSON_GetArraySize(sets) > MAX_SETS)
        die(EXIT_USAGE, "'%s' has a malformed identity", o->parts[0]);
    const cJSON *one;
    cJSON_ArrayForEach(one, sets)
    {
        if (!cJSON_IsString(one))
            die(EXIT_USAGE, "'%s' has a malformed identity (sets)", o->parts[0]);
        o->set[o->nsets++] = one->valuestring; /* for the report's provenance only */
    }
    static char players_text[16], runs_text[32], bots_text[GAME_MAX_SEATS * (BOT_SPEC_MAX + 1)];
    snprintf(players_text, sizeof players_text, "%d", players->valueint);
    snprintf(runs_text, sizeof runs_text, "%.0f", runs->valuedouble);
    size_t used = 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, bots)
    {
        if (!cJSON_IsString(b) || used + strlen(b->valuestring) + 2 > sizeof bots_text)
            die(EXIT_USAGE, "'%s' has a malformed identity (bots)", o->parts[0]);
        used += (size_t)snprintf(bots_text + used, sizeof bots_text - used, "%s%s",
                                 used ? "," : "", b->valuestring);
    }
    o->game = strdup(game->valuestring);
    o->players = players_text;
    o->bots = bots_text;
    o->seed = strdup(seed->valuestring);
    o->runs = runs_text;
    o->exact = cJSON_IsTrue(exact);
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(first, "experiment");
    if (x == NULL || (!cJSON_IsNull(x) && !cJSON_IsObject(x)))
        die(EXIT_USAGE, "'%s' has a malformed identity (experiment)", o->parts[0]);
    if (cJSON_IsObject(x))
        experiment_from_identity(o, x, o->parts[0]);
    *ruleset = cJSON_Duplicate(rs, 1);
    *nshards = n;
    free(shard_of);
    o->parts_identity = first;
    o->part_payload = payload;
    o->part_len = len;
    o->part_order = order;
}

/* --merge, once the run is set up as cfg: merges the parts' batches in shard order. */
static void merge_parts(const options *o, const run_config *cfg)
{
    char err[512];
    const unsigned char **p = calloc((size_t)o->nparts, sizeof *p);
    if (p == NULL)
        die(EXIT_INTERNAL, "out of memory");
    for (int i = 0; i < o->nparts; i++)
        p[i] = o->part_payload[o->part_order[i] - 1];
    for (;;) {
        const unsigned char *end0 = o->part_payload[o->part_order[0] - 1] +
                                    o->part_len[o->part_order[0] - 1];
        if (p[0] == end0)
            break;
        run_result sum;
        run_result_init(&sum, cfg, false);
        uint64_t first = 0, runs = 0;
        for (int i = 0; i < o->nparts; i++) {
            int f = o->part_order[i] - 1;
            uint64_t pf, pr;
            run_result one;
            if (partial_get_batch(&p[i], o->part_payload[f] + o->part_len[f], cfg, &pf, &pr,
                                  &one, err, sizeof err) != 0)
                die(EXIT_USAGE, "'%s': %s", o->parts[f], err);
            if (i == 0) {
                first = pf;
                runs = pr;
            } else if (pf != first || pr != runs) {
                die(EXIT_USAGE, "'%s' and '%s' hold different batches", o->parts[o->part_order[0] - 1],
                    o->parts[f]);
            }
            run_result_merge(&sum, &one, cfg->nseats);
            run_result_free(&one);
        }
        run_result *m = realloc(merged, sizeof *merged * (size_t)(nmerged + 1));
        uint64_t *mf = realloc(merged_first, sizeof *mf * (size_t)(nmerged + 1));
        if (mf)
            merged_first = mf;
        uint64_t *mr = realloc(merged_runs, sizeof *mr * (size_t)(nmerged + 1));
        if (m == NULL || mf == NULL || mr == NULL)
            die(EXIT_INTERNAL, "out of memory");
        merged = m;
        merged_runs = mr;
        merged[nmerged] = sum;
        merged_first[nmerged] = first;
        merged_runs[nmerged] = runs;
        nmerged++;
    }
    for (int i = 1; i < o->nparts; i++) {
        int f = o->part_order[i] - 1;
        if (p[i] != o->part_payload[f] + o->part_len[f])
            die(EXIT_USAGE, "'%s' holds more batches than '%s'", o->parts[f],
                o->parts[o->part_order[0] - 1]);
    }
    free(p);
    run_set_distributor(merged_batch);
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    argp_err_exit_status = EXIT_USAGE;
#ifdef GIOCHI_MPI
    mpi_run_start(&argc, &argv);
    atexit(mpi_run_stop);
    const bool root = mpi_run_rank() == 0;
#else
    const bool root = true;
#endif
    static options o; /* static: what it points to stays reachable until exit */
    o.parts = calloc((size_t)argc + 1, sizeof *o.parts);
    if (o.parts == NULL)
        die(EXIT_INTERNAL, "out of memory");
    struct argp argp = {option_table, parse_opt, 0, doc, 0, 0, 0};
    argp_parse(&argp, argc, argv, ARGP_NO_ERRS | ARGP_NO_HELP, 0, &o);
    xalloc_json_hooks();
    check_modes(&o);
    if (o.nparts > 0 && !o.merge)
        die(EXIT_USAGE, "unexpected argument '%s' (see --help)", o.parts[0]);
    cJSON *merge_ruleset = NULL;
    uint64_t merge_shards = 0;
    if (o.merge) {
        if (o.list || o.print_ruleset)
            die(EXIT_USAGE, "--merge cannot be combined with --list or --print-ruleset");
        read_parts(&o, &merge_ruleset, &merge_shards);
    }

    char names[1024];
    registry_game_names(names, sizeof names);
    const game_type *g = NULL;
    if (o.game) {
        g = registry_game(o.game);
        if (g == NULL)
            die(EXIT_USAGE, "unknown game '%s' (games: %s)", o.game, names);
    }
    if (o.list && g == NULL) {
        check_without_game(&o);
        print_and_exit(NULL, &o, NULL);
    }
    if (g == NULL)
        die(EXIT_USAGE, "no game given: use --game=NAME (games: %s)", names);

    /* The effective ruleset: the built-in default, then --config, then each --set. */
    char err[512];
    cJSON *ruleset = NULL;
    void *rules;
    if (merge_ruleset) { /* the ruleset the shards played, loaded as it is */
        ruleset = merge_ruleset;
        rules = calloc(1, g->rules_size ? g->rules_size : 1);
        if (rules == NULL)
            die(EXIT_INTERNAL, "out of memory");
        if (g->rules_load(rules, ruleset, err, sizeof err) != 0)
            die(EXIT_USAGE, "%s", err);
    } else {
        rules = rules_effective_files(g, o.config, o.nconfigs, o.set, o.nsets, &ruleset, err,
                                      sizeof err);
    }
    if (rules == NULL)
        die(EXIT_USAGE, "%s", err);

    if (o.perft)
        run_perft(g, rules, &o, ruleset);

    run_config cfg = {0};
    cfg.game = g;
    cfg.rules = rules;
    int nseats = 0;
    if (o.players)
        nseats = (int)whole_option("players", o.players, (unsigned long long)g->min_seats,
                                   (unsigned long long)g->max_seats);
    char canon[GAME_MAX_SEATS][BOT_SPEC_MAX];
    cfg.nseats = botspec_parse_list(g, o.bots ? o.bots : g->default_bot, nseats, cfg.seat, canon,
                                    err, sizeof err);
    if (cfg.nseats < 0)
        die(EXIT_USAGE, "%s", err);
    if (cfg.nseats < g->min_seats || cfg.nseats > g->max_seats)
        die(EXIT_USAGE, "%s is for %d-%d players, not %d", g->name, g->min_seats, g->max_seats,
            cfg.nseats);
    if (g->rules_check && g->rules_check(rules, cfg.nseats, err, sizeof err) != 0)
        die(EXIT_USAGE, "%s", err);
    cfg.runs = o.runs ? whole_option("runs", o.runs, 1, MAX_RUNS) : 10000;
    if (o.seed) {
        if (rng_parse_seed(o.seed, &cfg.seed) != 0)
            die(EXIT_USAGE, "--seed '%s': expected a whole number in 0..18446744073709551615",
                o.seed);
    } else {
        /* Entropy enters only here; the seed is printed in every report. */
        if (o.shard)
            die(EXIT_USAGE, "--shard needs --seed, so that every shard plays the same run");
        if (getrandom(&cfg.seed, sizeof cfg.seed, 0) != sizeof cfg.seed)
            cfg.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
#ifdef GIOCHI_MPI
        /* every rank plays the run rank 0 chose */
        MPI_Bcast(&cfg.seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
#endif
    }
    if (o.shard) {
        char *slash = strchr(o.shard, '/');
        if (slash == NULL || slash == o.shard || slash[1] == '\0')
            die(EXIT_USAGE, "--shard '%s': expected I/N, shard I of N (0 <= I < N)", o.shard);
        *slash = '\0';
        shard_count = whole_option("shard", slash + 1, 1, MAX_PARTS);
        shard_index = whole_option("shard", o.shard, 0, shard_count - 1);
        *slash = '/';
        if (o.output == NULL)
            die(EXIT_USAGE, "--shard writes a partial result: give it a file with --output");
        if (o.trace || o.format || o.plot || o.html || o.detail)
            die(EXIT_USAGE, "--shard writes a partial result: --trace, --format, --detail, "
                            "--plot and --html do not apply (give them to --merge)");
#ifdef GIOCHI_MPI
        die(EXIT_USAGE, "--shard is for separate processes; under MPI the ranks share the run");
#endif
        run_set_distributor(shard_batch);
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cfg.threads = o.threads ? (int)whole_option("threads", o.threads, 1, 1024)
                            : (int)(online > 0 ? online : 1);
    report_format fmt = REPORT_TEXT;
    if (o.format) {
        if (strcmp(o.format, "json") == 0)
            fmt = REPORT_JSON;
        else if (strcmp(o.format, "csv") == 0)
            fmt = REPORT_CSV;
        else if (strcmp(o.format, "html") == 0)
            fmt = REPORT_HTML;
        else if (strcmp(o.format, "text") != 0)
            die(EXIT_USAGE, "--format '%s': expected text, json, csv or html", o.format);
    }
    if (o.detail && fmt != REPORT_TEXT)
        die(EXIT_USAGE, "--detail lists the text report: it cannot be combined with --format=%s",
            o.format);
    if (o.detail)
        fmt = REPORT_TEXT_DETAIL;
    check_extra_outputs(&o);
    cJSON *exact = NULL;
    if (o.exact && g->exact == NULL)
        die(EXIT_USAGE, "--exact: game %s has no exact analysis", g->name);

    exp_options xo = {.game = g, .configs = o.config, .nconfigs = o.nconfigs, .sets = o.set, .nsets = o.nsets,
                      .sweeps = o.sweep, .nsweeps = o.nsweeps, .bots = o.bots, .players = nseats,
                      .baseline = o.baseline, .rotate = o.rotate, .until = o.until,
                      .sensitivity = o.sensitivity, .sensitivity_keys = o.sensitivity_keys,
                      .metric = o.metric, .runs = cfg.runs, .seed = cfg.seed,
                      .threads = cfg.threads, .exact = o.exact, .format = fmt,
                      .argc = argc, .argv = argv, .tune = o.tune,
                      .maximize = o.maximize ? o.maximize : o.minimize,
                      .minimize = o.minimize != NULL, .target = o.target, .over = o.over,
                      .tournament = o.tournament, .sprt = o.sprt, .step = o.step};
    if (o.maximize && o.minimize)
        die(EXIT_USAGE, "--maximize and --minimize contradict each other: give one");
    bool experiment = experiment_wanted(&xo);
    cJSON *xtree = NULL; /* the experiment's report, for --plot, --html and --format=html */
    if (experiment && (o.plot || o.html || fmt == REPORT_HTML))
        xo.tree = &xtree;
    if (experiment && fmt == REPORT_HTML)
        xo.format = REPORT_JSON; /* rendered as HTML from its tree below */
    if (experiment && o.detail)
        die(EXIT_USAGE, "--detail lists one run's figures: it cannot be combined with --sweep, "
                        "--rotate-seats, --until or --sensitivity");
    if (experiment && (o.trace || o.games_csv))
        die(EXIT_USAGE, "--%s plays one game or one configuration: it cannot be combined with "
                        "--sweep, --rotate-seats, --until or --sensitivity",
            o.trace ? "trace" : "games-csv");
#ifdef GIOCHI_MPI
    if (experiment && mpi_run_size() > 1) { /* every block spread over the ranks */
        xo.part = (uint64_t)mpi_run_rank();
        xo.parts = (uint64_t)mpi_run_size();
        xo.combine = mpi_run_combine;
    }
    xo.ranks = mpi_run_size();
#endif
    if (experiment && o.shard) {
        xo.part = shard_index;
        xo.parts = shard_count;
        xo.shard_out = &shard_bytes;
    }
    const char *orphan = o.maximize ? "--maximize goes with --tune"
                         : o.minimize ? "--minimize goes with --tune"
                         : o.over     ? "--over goes with --target"
                         : o.sprt     ? "--sprt goes with --tournament"
                         : o.step     ? "--step goes with --sensitivity"
                                      : NULL;
    if (!experiment && orphan)
        die(EXIT_USAGE, "%s", orphan);
    if (!experiment && (o.baseline || o.metric))
        die(EXIT_USAGE, "--%s needs --sweep or --sensitivity", o.baseline ? "baseline" : "metric");

    uint64_t trace_index = 0;
    if (o.trace) {
        if (o.games_csv)
            die(EXIT_USAGE, "--trace cannot be combined with --games-csv");
        if (o.exact)
            die(EXIT_USAGE, "--trace cannot be combined with --exact");
        if (fmt != REPORT_TEXT)
            die(EXIT_USAGE, "--trace prints text: it cannot be combined with --format=%s",
                o.format ? o.format : "text --detail");
        if (o.plot || o.html)
            die(EXIT_USAGE, "--trace prints one game: it cannot be combined with --plot or --html");
        trace_index = whole_option("trace", o.trace, 0, cfg.runs - 1);
    }

    if (o.output && *o.output == '\0')
        die(EXIT_USAGE, "--output: empty file name");
    if (o.games_csv && *o.games_csv == '\0')
        die(EXIT_USAGE, "--games-csv: empty file name");
    if (outfile_same(o.output, o.games_csv))
        die(EXIT_USAGE, "--output and --games-csv name the same file '%s'", o.games_csv);
    /* --list and --print-ruleset print only once every option has been checked. */
    if (o.list || o.print_ruleset)
        print_and_exit(g, &o, ruleset);
    if (o.quiet && o.progress)
        die(EXIT_USAGE, "--quiet and --progress contradict each other");
    cfg.check = o.check;

    /* A bot that refuses its seat (a game it cannot play, a player count or a parameter
     * combination it does not accept) is bad input: set every seat up once here, before any
     * output is opened. */
    void *probe[GAME_MAX_SEATS] = {0};
    if (run_bots_setup(&cfg, probe, err, sizeof err) != 0)
        die(EXIT_USAGE, "%s", err);
    run_bots_free(&cfg, probe);

    if (o.merge && experiment) { /* the experiment reads the shards' block sums itself */
        const unsigned char **payload = calloc((size_t)o.nparts, sizeof *payload);
        size_t *len = calloc((size_t)o.nparts, sizeof *len);
        if (payload == NULL || len == NULL)
            die(EXIT_INTERNAL, "out of memory");
        for (int i = 0; i < o.nparts; i++) {
            payload[i] = o.part_payload[o.part_order[i] - 1];
            len[i] = o.part_len[o.part_order[i] - 1];
        }
        xo.merged = payload;
        xo.merged_len = len;
        xo.nmerged = o.nparts;
        xo.merged_wall = shards_wall;
        xo.ruleset = ruleset;
    } else if (o.merge) {
        merge_parts(&o, &cfg);
    }
#ifdef GIOCHI_MPI
    if (o.trace && !root) { /* rank 0 alone traces */
        cJSON_Delete(ruleset);
        free(rules);
        return EXIT_OK;
    }
    run_set_distributor(mpi_run_batch);
#endif

    /* Open every output before playing, so that a bad path fails at once. Under MPI rank 0
     * alone writes. */
    catch_signals();
    outfile out = {0}, games = {0}, extra[2] = {{0}}; /* extra: --plot, --html */
    const char *extra_name[2] = {o.plot, o.html};
    if (root && outfile_open(&out, o.output, err, sizeof err) != 0)
        die(EXIT_IO, "%s", err);
    if (root && o.games_csv && outfile_open(&games, o.games_csv, err, sizeof err) != 0) {
        outfile_abort(&out);
        die(EXIT_IO, "%s", err);
    }
    for (int i = 0; i < 2 && root; i++)
        if (extra_name[i] && outfile_open(&extra[i], extra_name[i], err, sizeof err) != 0) {
            abort_outputs(&out, o.games_csv ? &games : NULL, extra, i);
            die(EXIT_IO, "%s", err);
        }

    if (experiment) {
        FILE *sink = fmt == REPORT_HTML && root ? fopen("/dev/null", "w") : NULL;
        FILE *report = root && !o.shard ? (sink ? sink : out.f) : NULL;
        xo.progress = progress_mode(&o, root);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int rc = experiment_run(&xo, report, err, sizeof err);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        free((void *)xo.merged); /* the shards' payloads themselves stay in o */
        free((void *)xo.merged_len);
        if (sink)
            fclose(sink);
        if (rc != 0) {
            if (root)
                abort_outputs(&out, NULL, extra, 2);
            die(rc, "%s", err);
        }
        if (!root) { /* rank 0 writes the report */
            cJSON_Delete(ruleset);
            free(rules);
            return EXIT_OK;
        }
        if (o.shard) {
            cJSON *id = run_identity(&cfg, ruleset, canon, o.exact, o.set, o.nsets);
            cJSON_AddItemToObject(id, "experiment", experiment_identity(&o, true));
            cJSON_AddNumberToObject(id, "wall_seconds", (double)(t1.tv_sec - t0.tv_sec) +
                                                            (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
            cJSON_AddNumberToObject(id, "shard", (double)shard_index);
            cJSON_AddNumberToObject(id, "shards", (double)shard_count);
            errno = 0;
            if (partial_write_file(out.f, id, &shard_bytes) != 0) {
                outfile_abort(&out);
                die(EXIT_IO, "cannot write '%s': %s", o.output, strerror(errno ? errno : EIO));
            }
            cJSON_Delete(id);
            free(shard_bytes.p);
        }
        if (fmt == REPORT_HTML)
            report_write(out.f, xtree, REPORT_HTML);
        write_extras(&o, xtree, &out, NULL, extra);
        cJSON_Delete(xtree);
    } else if (o.trace) {
        outcome oc;
        if (run_trace(&cfg, trace_index, out.f, &oc, err, sizeof err) != 0) {
            outfile_abort(&out);
            die(EXIT_INTERNAL, "%s", err);
        }
    } else {
        if (o.exact) {
            seat_bots sb = {.nseats = cfg.nseats};
            for (int k = 0; k < cfg.nseats; k++) {
                sb.bot[k] = cfg.seat[k].bot;
                sb.param[k] = cfg.seat[k].param;
            }
            exact = g->exact(rules, &sb);
            if (exact == NULL && !o.quiet)
                fprintf(stderr, "giochi-sim: note: no exact analysis for these bots\n");
        }
        cfg.games_csv = root && o.games_csv ? games.f : NULL;
        cfg.progress = progress_mode(&o, root);
        run_result res;
        if (run_batch(&cfg, &res, err, sizeof err) != 0) {
            abort_outputs(NULL, NULL, extra, 2);
            outfile_abort(&out);
            if (o.games_csv && root)
                outfile_abort(&games);
            const char *games_error = "cannot write the games CSV: ";
            if (strncmp(err, games_error, strlen(games_error)) == 0)
                die(EXIT_IO, "cannot write '%s': %s", o.games_csv, err + strlen(games_error));
            die(EXIT_INTERNAL, "%s", err);
        }
        if (!root) { /* rank 0 writes the report */
            run_result_free(&res);
            cJSON_Delete(exact);
            cJSON_Delete(ruleset);
            free(rules);
            return EXIT_OK;
        }
        if (o.shard) {
            cJSON *id = run_identity(&cfg, ruleset, canon, o.exact, o.set, o.nsets);
            cJSON_AddItemToObject(id, "experiment", experiment_identity(&o, false));
            cJSON_AddNumberToObject(id, "shard", (double)shard_index);
            cJSON_AddNumberToObject(id, "shards", (double)shard_count);
            errno = 0;
            if (partial_write_file(out.f, id, &shard_bytes) != 0) {
                outfile_abort(&out);
                if (o.games_csv)
                    outfile_abort(&games);
                die(EXIT_IO, "cannot write '%s': %s", o.output, strerror(errno ? errno : EIO));
            }
            cJSON_Delete(id);
            free(shard_bytes.p);
        } else {
            report_input in = {.cfg = &cfg, .res = &res, .ruleset = ruleset, .exact = exact};
            for (int k = 0; k < cfg.nseats; k++)
                in.bot_spec[k] = canon[k];
            cJSON *report = report_build(&in);
            /* Provenance: every --set (reproducible), and the exact command line in "run"
             * (which also holds what varies from run to run). */
            cJSON *sets = cJSON_CreateArray();
            for (int i = 0; i < o.nsets; i++)
                cJSON_AddItemToArray(sets, cJSON_CreateString(o.set[i]));
            cJSON_AddItemToObject(report, "sets", sets);
            cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
            cJSON_AddItemToObject(run, "command_line", report_command_line(argc, argv));
            if (o.merge)
                cJSON_AddNumberToObject(run, "shards", (double)merge_shards);
#ifdef GIOCHI_MPI
            cJSON_AddNumberToObject(run, "ranks", mpi_run_size());
            cJSON_AddNumberToObject(run, "reduce_seconds", mpi_run_reduce_seconds());
#endif
            report_write(out.f, report, fmt);
            write_extras(&o, report, &out, o.games_csv ? &games : NULL, extra);
            cJSON_Delete(report);
        }
        run_result_free(&res);
        cJSON_Delete(exact);
    }
    /* Every file complete, or none: close (checking every write) before renaming. */
    for (int i = 0; i < 2; i++)
        if (extra_name[i] && extra[i].f && outfile_close(&extra[i], err, sizeof err) != 0) {
            abort_outputs(&out, o.games_csv ? &games : NULL, extra, 2);
            die(EXIT_IO, "%s", err);
        }
    if (outfile_close(&out, err, sizeof err) != 0) {
        abort_outputs(NULL, NULL, extra, 2);
        if (o.games_csv)
            outfile_abort(&games);
        die(EXIT_IO, "%s", err);
    }
    if (o.games_csv) {
        char err2[512];
        if (outfile_close(&games, err, sizeof err) != 0) {
            outfile_abort(&out);
            die(EXIT_IO, "%s", err);
        }
        if (outfile_rename(&games, err2, sizeof err2) != 0) {
            outfile_abort(&out);
            die(EXIT_IO, "%s", err2);
        }
    }
    for (int i = 0; i < 2; i++)
        if (extra[i].tmp && outfile_rename(&extra[i], err, sizeof err) != 0) {
            outfile_abort(&out);
            die(EXIT_IO, "%s", err);
        }
    if (outfile_rename(&out, err, sizeof err) != 0)
        die(EXIT_IO, "%s", err);
    /* Provenance: a chosen seed repeats the run. Said once the report is complete, so that a
     * failed run still says one line only (its error). */
    if (!o.seed && !o.quiet)
        fprintf(stderr, "giochi-sim: seed %llu (repeat with --seed=%llu)\n",
                (unsigned long long)cfg.seed, (unsigned long long)cfg.seed);
    cJSON_Delete(ruleset);
    free(rules);
    return EXIT_OK;
}
