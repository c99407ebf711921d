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

#include "botspec.h"
#include "outfile.h"
#include "perft.h"
#include "registry.h"
#include "report.h"
#include "rules.h"
#include "runner.h"

/* Exit codes (documented in giochi-sim(1)). */
enum exit_code {
    EXIT_OK = 0,
    EXIT_USAGE = 2,    /* bad option, unknown name, bad ruleset or config file */
    EXIT_IO = 3,       /* an output file could not be written */
    EXIT_INTERNAL = 4, /* a bot or game failed to set up */
};

enum { MAX_SETS = 256 };
#define MAX_RUNS 1000000000000ULL /* 10^12 games */

const char *argp_program_version = "giochi-sim " GIOCHI_VERSION;
const char *argp_program_bug_address = "the giochi-sim issue tracker";

typedef struct options {
    const char *game, *bots, *config, *output, *games_csv, *format;
    const char *runs, *seed, *players, *threads, *trace, *perft;
    const char *set[MAX_SETS];
    int nsets;
    bool quiet, list, exact, print_ruleset;
} options;

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

/* Exits with success once everything written to standard output has reached it; a full disk
 * or a closed pipe is exit 3, as for a report. */
static void exit_flushed(void) __attribute__((noreturn));
static void exit_flushed(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        die(EXIT_IO, "cannot write 'standard output': %s", strerror(errno ? errno : EIO));
    exit(EXIT_OK);
}

enum { OPT_SET = 1000, OPT_GAMES_CSV, OPT_TRACE, OPT_EXACT, OPT_PRINT_RULESET, OPT_USAGE, OPT_PERFT };

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
    {"format", 'f', "FMT", 0, "Report format: text, json or csv (default text)", 0},
    {"output", 'o', "FILE", 0, "Write the report to FILE (default: standard output)", 0},
    {"config", 'c', "FILE", 0, "Load a ruleset JSON file over the built-in default ruleset", 0},
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
    {"list", 'l', 0, 0, "List games, their bots and their ruleset options (with --game: one game)",
     0},
    {"quiet", 'q', 0, 0, "No progress indicator and no notes on standard error", 0},
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

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
    options *o = state->input;
    switch (key) {
    case 'g': o->game = arg; break;
    case 'n': o->runs = arg; break;
    case 's': o->seed = arg; break;
    case 'p': o->players = arg; break;
    case 'b': o->bots = arg; break;
    case 't': o->threads = arg; break;
    case 'f': o->format = arg; break;
    case 'o': o->output = arg; break;
    case 'c': o->config = arg; break;
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
    case 'l': o->list = true; break;
    case 'q': o->quiet = true; break;
    case '?':
        argp_help(state->root_argp, stdout, ARGP_HELP_STD_HELP, (char *)"giochi-sim");
        exit_flushed();
    case OPT_USAGE:
        argp_help(state->root_argp, stdout, ARGP_HELP_USAGE, (char *)"giochi-sim");
        exit_flushed();
    case 'V':
        puts(argp_program_version);
        exit_flushed();
    case ARGP_KEY_ARG: die(EXIT_USAGE, "unexpected argument '%s' (see --help)", arg);
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
    "4 internal error. See giochi-sim(1) and giochi-sim-GAME(7).";

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
}

/* ---- listing ------------------------------------------------------------------------------ */

static void list_game(const game_type *g, bool detail)
{
    printf("%s — %s (%d-%d players, default %d; rules: %s)\n", g->name, g->title, g->min_seats,
           g->max_seats, g->default_seats, g->seed);
    printf("  bots:\n");
    const bot_type *all[REGISTRY_MAX_BOTS];
    int nbots = registry_bots(g, all, REGISTRY_MAX_BOTS);
    for (int i = 0; i < nbots; i++) {
        const bot_type *b = all[i];
        printf("    %-16s %s%s\n", b->name, b->doc,
               strcmp(b->name, g->default_bot) == 0 ? " (default)" : "");
        for (int j = 0; b->params && b->params[j].name; j++) {
            const bot_param *p = &b->params[j];
            printf("      :%s=%g  %s (%g..%g%s)\n", p->name, p->def, p->doc, p->min, p->max,
                   p->integer ? ", whole" : "");
        }
    }
    char err[256];
    cJSON *rules = rules_parse(g->default_rules, g->name, err, sizeof err);
    printf("  ruleset options (--set KEY=VALUE; defaults shown):\n");
    for (const cJSON *k = rules ? rules->child : NULL; k; k = k->next) {
        char *v = cJSON_PrintUnformatted(k);
        if (v && (strlen(v) <= 60 || detail))
            printf("    %s = %s\n", k->string, v);
        else if (cJSON_IsArray(k))
            printf("    %s = [%d entries: see --print-ruleset]\n", k->string,
                   cJSON_GetArraySize(k));
        else
            printf("    %s = {...: see --print-ruleset}\n", k->string);
        cJSON_free(v);
    }
    cJSON_Delete(rules);
    if (detail) {
        printf("  metrics:\n");
        for (int i = 0; g->metrics && g->metrics[i].name; i++)
            printf("    %-24s %s, %s: %s\n", g->metrics[i].name,
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
    if (o->trace || o->games_csv || o->exact || o->bots || o->runs)
        die(EXIT_USAGE, "--perft counts move paths: it cannot be combined with --trace, "
                        "--games-csv, --exact, --bots or --runs");
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

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    argp_err_exit_status = EXIT_USAGE;
    options o = {0};
    struct argp argp = {option_table, parse_opt, 0, doc, 0, 0, 0};
    argp_parse(&argp, argc, argv, ARGP_NO_ERRS | ARGP_NO_HELP, 0, &o);

    char names[1024];
    registry_game_names(names, sizeof names);
    const game_type *g = NULL;
    if (o.game) {
        g = registry_game(o.game);
        if (g == NULL)
            die(EXIT_USAGE, "unknown game '%s' (games: %s)", o.game, names);
    }
    if (o.list) {
        for (int i = 0; registry_games[i]; i++)
            if (g == NULL || g == registry_games[i]) {
                list_game(registry_games[i], g != NULL);
                if (registry_games[i + 1] && g == NULL)
                    putchar('\n');
            }
        exit_flushed();
    }
    if (g == NULL)
        die(EXIT_USAGE, "no game given: use --game=NAME (games: %s)", names);

    /* The effective ruleset: the built-in default, then --config, then each --set. */
    char err[512];
    cJSON *ruleset = NULL;
    void *rules = rules_effective(g, o.config, o.set, o.nsets, &ruleset, err, sizeof err);
    if (rules == NULL)
        die(EXIT_USAGE, "%s", err);
    if (o.print_ruleset) {
        char *text = cJSON_Print(ruleset);
        puts(text);
        cJSON_free(text);
        cJSON_Delete(ruleset);
        free(rules);
        exit_flushed();
    }

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
        if (getrandom(&cfg.seed, sizeof cfg.seed, 0) != sizeof cfg.seed)
            cfg.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
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
        else if (strcmp(o.format, "text") != 0)
            die(EXIT_USAGE, "--format '%s': expected text, json or csv", o.format);
    }
    cJSON *exact = NULL;
    if (o.exact && g->exact == NULL)
        die(EXIT_USAGE, "--exact: game %s has no exact analysis", g->name);

    uint64_t trace_index = 0;
    if (o.trace) {
        if (o.games_csv)
            die(EXIT_USAGE, "--trace cannot be combined with --games-csv");
        if (o.exact)
            die(EXIT_USAGE, "--trace cannot be combined with --exact");
        if (fmt != REPORT_TEXT)
            die(EXIT_USAGE, "--trace prints text: it cannot be combined with --format=%s",
                o.format);
        trace_index = whole_option("trace", o.trace, 0, cfg.runs - 1);
    }

    if (o.output && *o.output == '\0')
        die(EXIT_USAGE, "--output: empty file name");
    if (o.games_csv && *o.games_csv == '\0')
        die(EXIT_USAGE, "--games-csv: empty file name");
    if (outfile_same(o.output, o.games_csv))
        die(EXIT_USAGE, "--output and --games-csv name the same file '%s'", o.games_csv);

    /* A bot that refuses its seat (a game it cannot play, a player count or a parameter
     * combination it does not accept) is bad input: set every seat up once here, before any
     * output is opened. */
    void *probe[GAME_MAX_SEATS] = {0};
    if (run_bots_setup(&cfg, probe, err, sizeof err) != 0)
        die(EXIT_USAGE, "%s", err);
    run_bots_free(&cfg, probe);

    /* Open every output before playing, so that a bad path fails at once. */
    catch_signals();
    outfile out, games;
    if (outfile_open(&out, o.output, err, sizeof err) != 0)
        die(EXIT_IO, "%s", err);
    if (o.games_csv && outfile_open(&games, o.games_csv, err, sizeof err) != 0) {
        outfile_abort(&out);
        die(EXIT_IO, "%s", err);
    }

    if (o.trace) {
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
        cfg.games_csv = o.games_csv ? games.f : NULL;
        cfg.progress = !o.quiet && isatty(STDERR_FILENO);
        run_result res;
        if (run_batch(&cfg, &res, err, sizeof err) != 0) {
            outfile_abort(&out);
            if (o.games_csv)
                outfile_abort(&games);
            const char *games_error = "cannot write the games CSV: ";
            if (strncmp(err, games_error, strlen(games_error)) == 0)
                die(EXIT_IO, "cannot write '%s': %s", o.games_csv, err + strlen(games_error));
            die(EXIT_INTERNAL, "%s", err);
        }
        report_input in = {.cfg = &cfg, .res = &res, .ruleset = ruleset, .exact = exact};
        for (int k = 0; k < cfg.nseats; k++)
            in.bot_spec[k] = canon[k];
        cJSON *report = report_build(&in);
        report_write(out.f, report, fmt);
        cJSON_Delete(report);
        run_result_free(&res);
        cJSON_Delete(exact);
    }
    /* Both files complete, or neither: close (checking every write) before renaming. */
    if (outfile_close(&out, err, sizeof err) != 0) {
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
    if (outfile_rename(&out, err, sizeof err) != 0)
        die(EXIT_IO, "%s", err);
    cJSON_Delete(ruleset);
    free(rules);
    return EXIT_OK;
}
