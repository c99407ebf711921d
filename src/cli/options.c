/* options.c — the option table (argp), its parser into struct options, and the checks of
 * options that need no game. */
#include "cli/options.h"

#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/program.h"
#include "games/volpe/volpe_db.h"
#include "cli/fail.h"
#include "cli/outfile.h"
#include "core/registry.h"
#include "core/rng.h"
#include "core/suggest.h"
#include "dist/dist.h"
#include "report/plot.h"

const char *argp_program_version = "giochi-sim " GIOCHI_VERSION;
/* argp prints "Report bugs to %s." (README.md, Reporting bugs, says where and what to send) */
const char *argp_program_bug_address =
    "the project's issue tracker (see README.md, Reporting bugs)";

enum {
    OPT_SET = 1000,
    OPT_GAMES_CSV,
    OPT_TRACE,
    OPT_EXACT,
    OPT_PRINT_RULESET,
    OPT_USAGE,
    OPT_PERFT,
    OPT_REPLAY,
    OPT_PROGRESS,
    OPT_CHECK,
    OPT_SHARD,
    OPT_MERGE,
    OPT_DETAIL,
    OPT_PLOT,
    OPT_HTML,
    OPT_DEPENDS,
    OPT_POPULATION,
};
enum { OPT_SWEEP = 1100, OPT_BASELINE, OPT_ROTATE, OPT_UNTIL, OPT_SENSITIVITY, OPT_METRIC };
enum { OPT_BOT_PROGRAM = 1200, OPT_BOT_TIMEOUT }; /* bots outside the process (program.h) */
enum { OPT_COMPLETION = 1400, OPT_CSV_DECIMAL, OPT_CSV_PRECISION }; /* discovery and spreadsheets */
enum { OPT_KEEP_PARTIAL = 1450 }; /* an interrupted run */
enum { OPT_TUNE = 1300, OPT_MAXIMIZE, OPT_MINIMIZE, OPT_TARGET, OPT_OVER, OPT_TOURNAMENT,
       OPT_SPRT, OPT_STEP };
enum { OPT_SOLVE = 1500, OPT_SOLVE_GEESE, OPT_DB }; /* volpe's solver and its database */
/* volpe's proof search */
enum { OPT_PROVE = 1550, OPT_PROVE_NODES, OPT_PROVE_MB, OPT_PROVE_GUESS };

/* The groups of --help, in the order it prints them (each option's last field names its
 * group; argp sorts the options of a group by name). An option added with group 0 joins the
 * group of the entry before it. giochi-sim(1) OPTIONS has one subsection per group. */
enum {
    GRP_RUN = 1,    /* what to play and how */
    GRP_RULES,      /* the ruleset */
    GRP_BOTS,       /* who plays */
    GRP_OUTPUT,     /* the report and the other files */
    GRP_EXPERIMENT, /* settings compared on the same games, and the searches */
    GRP_ONE_GAME,   /* one game played out, not a report */
    GRP_DIST,       /* a run split into parts */
    GRP_VOLPE,      /* volpe's solver and proof search */
    GRP_INFO,       /* what the tool knows, and help */
};

/* An entry of option_table that only titles a group of --help (no name, no key). */
#define GROUP_HEADER(text, group) {0, 0, 0, 0, text, group}

static const struct argp_option option_table[] = {
    GROUP_HEADER("Running games:", GRP_RUN),
    GROUP_HEADER("Rulesets (keys and ranges: --list --game=NAME):", GRP_RULES),
    GROUP_HEADER("Bots (each game's: --list --game=NAME):", GRP_BOTS),
    GROUP_HEADER("Reports and output files:", GRP_OUTPUT),
    GROUP_HEADER("Experiments and searches (settings played on the same games):",
                 GRP_EXPERIMENT),
    GROUP_HEADER("One game at a time:", GRP_ONE_GAME),
    GROUP_HEADER("Splitting a run (mpirun -n K giochi-sim-mpi also takes every option):",
                 GRP_DIST),
    GROUP_HEADER("Solving La volpe e le oche:", GRP_VOLPE),
    GROUP_HEADER("Listing and help:", GRP_INFO),
    {"game", 'g', "NAME", 0, "Game to simulate (--list names them all)", GRP_RUN},
    {"runs", 'n', "N", 0, "Number of games to play (default 10000, at most 10^12)", GRP_RUN},
    {"seed", 's', "S", 0, "Master seed, 0..2^64-1 (default: a fresh one, shown in the report)",
     GRP_RUN},
    {"players", 'p', "N", 0, "Number of players (default: the game's, or the number of --bots)",
     GRP_RUN},
    {"bots", 'b', "LIST", 0,
     "One bot per seat, comma-separated; one name applies to every seat. Parameters follow "
     "the name: NAME:KEY=VALUE:KEY=VALUE (e.g. --game=pig10 --bots=greedy,mc:samples=8)",
     GRP_BOTS},
    {"population", OPT_POPULATION, "P", 0,
     "Draw every seat's player, each game, from population P: a built-in name (--list shows "
     "them, e.g. oca-mixed) or a JSON file; the same as --bots=pop:P (in --bots, pop:P seats "
     "one player so)",
     GRP_BOTS},
    {"threads", 't', "N", 0, "Worker threads (default: the number of online cores)", GRP_RUN},
    {"format", 'f', "FMT", 0, "Report format: text, json, csv or html (default text)", GRP_OUTPUT},
    {"detail", OPT_DETAIL, 0, 0,
     "Text report: list every figure of every seat instead of the headline summary", GRP_OUTPUT},
    {"depends", OPT_DEPENDS, 0, 0,
     "Also play what the headline figures depend on: each of the game's bot profiles, mixed, "
     "and a sensitivity to the reconstructed rule values (--step, default 50%)", GRP_EXPERIMENT},
    {"plot", OPT_PLOT, "FILE", 0,
     "Also draw the report's charts into FILE (.svg, .png or .pdf; needs gnuplot)", GRP_OUTPUT},
    {"html", OPT_HTML, "FILE", 0,
     "Also write the report as one self-contained HTML page to FILE", GRP_OUTPUT},
    {"output", 'o', "FILE", 0, "Write the report to FILE (default: standard output)", GRP_OUTPUT},
    {"config", 'c', "FILE", 0,
     "Load a ruleset JSON file over the built-in default ruleset (repeatable: merged in "
     "order; '-' reads standard input)",
     GRP_RULES},
    {"set", OPT_SET, "KEY=VALUE", 0,
     "Override one ruleset option (repeatable; dotted keys reach inside: board.13.amount=20)",
     GRP_RULES},
    {"games-csv", OPT_GAMES_CSV, "FILE", 0,
     "Also write one CSV row per game to FILE (an experiment: per setting and game, one column "
     "per swept key)",
     GRP_OUTPUT},
    {"csv-decimal", OPT_CSV_DECIMAL, "SEP", 0,
     "The decimal separator of every CSV written (--format=csv, --games-csv): '.' (default) "
     "or ',' for spreadsheets in comma-decimal locales, which then also get ';' between fields",
     GRP_OUTPUT},
    {"csv-precision", OPT_CSV_PRECISION, "HOW", 0,
     "The digits of the CSV report's figures: 'interval' (default: rounded to two significant "
     "digits of their interval's half-width) or 'full' (every double in full)",
     GRP_OUTPUT},
    {"trace", OPT_TRACE, "INDEX", 0,
     "Print the play-by-play of game INDEX of this run instead of a report", GRP_ONE_GAME},
    {"exact", OPT_EXACT, 0, 0, "Add the game's exact analysis beside the simulated figures",
     GRP_OUTPUT},
    {"print-ruleset", OPT_PRINT_RULESET, 0, 0, "Print the effective ruleset as JSON and exit",
     GRP_RULES},
    {"replay", OPT_REPLAY, "FILE", 0,
     "Play the game record FILE (one action a line, by its --trace name or number; 'seed N' "
     "for the chance draws; '#' comments) and print its trace and outcome",
     GRP_ONE_GAME},
    {"perft", OPT_PERFT, "D", 0,
     "Count the move paths of each length 1..D from the start (games without chance or "
     "hidden information) instead of playing",
     GRP_ONE_GAME},
    {"shard", OPT_SHARD, "I/N", 0,
     "Play only shard I (0..N-1) of N equal parts of the run and write its partial result "
     "to --output, for --merge (needs --seed)",
     GRP_DIST},
    {"merge", OPT_MERGE, 0, 0,
     "Combine the partial results named as arguments (every shard of one run) into the "
     "run's report",
     GRP_DIST},
    {"sweep", OPT_SWEEP, "KEY=LIST", 0,
     "Play every value of KEY on the same games: a ruleset key (dotted as --set), players, or "
     "seatN.PARAM (a bot parameter of seat N); LIST is V1,V2,... or FROM:TO:STEP. Several make "
     "a grid",
     GRP_EXPERIMENT},
    {"baseline", OPT_BASELINE, "VALUES", 0,
     "The setting the others are compared with: one value per --sweep, comma-separated "
     "(default: the first setting)",
     GRP_EXPERIMENT},
    {"rotate-seats", OPT_ROTATE, 0, 0,
     "Play each deal once per rotation of the bots around the seats; report per bot and the "
     "seat advantage",
     GRP_EXPERIMENT},
    {"until", OPT_UNTIL, "FIGURE:HW", 0,
     "Play blocks of games until FIGURE's 95% interval has half-width at most HW (--runs is "
     "the cap), e.g. bankruptcy_any:0.002 or win_share@1:0.005",
     GRP_EXPERIMENT},
    {"sensitivity", OPT_SENSITIVITY, "KEYS", OPTION_ARG_OPTIONAL,
     "Move every ruleset key (or the KEYS listed) and rank the effects on --metric: numbers "
     "down and up by --step, booleans and enums to each other value",
     GRP_EXPERIMENT},
    {"step", OPT_STEP, "STEP", 0,
     "--sensitivity's move for numbers: PERCENT of each key (default 10%), or UNITS (e.g. 1)",
     GRP_EXPERIMENT},
    {"metric", OPT_METRIC, "FIGURES", 0,
     "The figures a sweep's text rows and --sensitivity report (e.g. length,win_share@1; "
     "seat_spread,first_seat: fairness at any number of players)",
     GRP_EXPERIMENT},
    {"bot-program", OPT_BOT_PROGRAM, "NAME=COMMAND", 0,
     "Declare a bot outside the process: COMMAND (run by /bin/sh) speaks the line-JSON protocol "
     "of giochi-sim-bots(7); then --bots=NAME, NAME:key=value (numbers, passed to it). "
     "--bots=human seats you at the terminal",
     GRP_BOTS},
    {"bot-timeout", OPT_BOT_TIMEOUT, "SECONDS", 0,
     "Time limit of a program bot for each answer (default 10; more than 0, at most 86400, "
     "counted in whole milliseconds, rounded up)",
     GRP_BOTS},
    {"tune", OPT_TUNE, "seatN.PARAM=LO:HI,...", 0,
     "Search seat N's bot parameters in these ranges for the values that maximise "
     "--maximize (or minimise --minimize), then re-evaluate the best on fresh seeds",
     GRP_EXPERIMENT},
    {"maximize", OPT_MAXIMIZE, "FIGURE", 0, "The figure --tune raises (e.g. win_share@1)",
     GRP_EXPERIMENT},
    {"minimize", OPT_MINIMIZE, "FIGURE", 0, "The figure --tune lowers (e.g. length)",
     GRP_EXPERIMENT},
    {"target", OPT_TARGET, "FIGURE=VALUE[:HW]", 0,
     "Goal seek: find where FIGURE equals VALUE as --over's key moves (every crossing, each "
     "with an interval; HW the figure's half-width there)",
     GRP_EXPERIMENT},
    {"over", OPT_OVER, "KEY=LO:HI", 0,
     "The ruleset key or seatN.PARAM --target moves, and its range", GRP_EXPERIMENT},
    {"tournament", OPT_TOURNAMENT, "BOT,BOT,...", 0,
     "Play every table of these bots with seats rotated on paired deals; ratings with "
     "intervals, a cross table, the draw rate",
     GRP_EXPERIMENT},
    {"sprt", OPT_SPRT, "ELO0,ELO1", 0,
     "With a --tournament of two bots: a sequential probability ratio test of H0 elo=ELO0 "
     "against H1 elo=ELO1 (alpha=beta=0.05, or ELO0,ELO1,ALPHA,BETA)",
     GRP_EXPERIMENT},
    {"solve", OPT_SOLVE, "DIR", 0,
     "volpe: solve the game by retrograde analysis into the database directory DIR (made if "
     "missing; a stopped run continues where it stopped) and print the start's value",
     GRP_VOLPE},
    {"solve-geese", OPT_SOLVE_GEESE, "K", 0,
     "With --solve: only the positions with at most K geese", GRP_VOLPE},
    {"db", OPT_DB, "DIR", 0,
     "volpe: the database directory (made by --solve) the perfect bot plays from, and "
     "--prove's exact leaves",
     GRP_VOLPE},
    {"prove", OPT_PROVE, "WHO", OPTION_ARG_OPTIONAL,
     "volpe: prove the start's value by proof-number search (WHO: geese, fox or both, the "
     "default), each answer's certificate checked; exact leaves from --db=DIR",
     GRP_VOLPE},
    {"prove-nodes", OPT_PROVE_NODES, "N", 0,
     "With --prove: give a question up after N expanded positions", GRP_VOLPE},
    {"prove-mb", OPT_PROVE_MB, "MB", 0,
     "With --prove: the transposition table's memory in MB (default 1024)", GRP_VOLPE},
    {"prove-guess", OPT_PROVE_GUESS, "HOW", 0,
     "With --prove: a new node's first numbers from its moves (the default) or from the "
     "fox's room",
     GRP_VOLPE},
    {"list", 'l', 0, 0,
     "List games, their bots with their parameters, ruleset keys (type, range, default, "
     "description) and, with --game, one game's metrics; --format=json for programs",
     GRP_INFO},
    {"completion", OPT_COMPLETION, "SHELL", 0,
     "Print the completion script for SHELL (bash or zsh) and exit: options, games, bots, bot "
     "parameters, ruleset keys and metrics (make install installs it)",
     GRP_INFO},
    {"quiet", 'q', 0, 0, "No progress indicator and no notes on standard error", GRP_RUN},
    {"keep-partial", OPT_KEEP_PARTIAL, 0, 0,
     "On Ctrl-C (once) finish the games under way and write the report of the games played so "
     "far, marked as interrupted (exit 0); a second Ctrl-C stops at once",
     GRP_RUN},
    {"progress", OPT_PROGRESS, 0, 0,
     "Show progress on standard error even when it is not a terminal (a line every 10 s)", GRP_RUN},
    {"check", OPT_CHECK, 0, 0,
     "Check the game's invariants after every step of every game; stop at the first broken one",
     GRP_RUN},
    /* argp's own help options print nothing under ARGP_NO_ERRS, so they are ours (argp puts
     * group -1 last: after "Listing and help:", as argp prints its own). */
    {"help", '?', 0, 0, "Give this help list", -1},
    {"usage", OPT_USAGE, 0, 0, "Give a short usage message", -1},
    {"version", 'V', 0, 0, "Print program version", -1},
    {0},
};

/* Reports an option getopt refused: unknown, or missing its value. */
static void bad_option(const char *text) __attribute__((noreturn));
static void bad_option(const char *text)
{
    for (const struct argp_option *p = option_table; !OPTION_END(p); p++) {
        bool named = (text[0] == '-' && text[1] == '-' && p->name && strcmp(text + 2, p->name) == 0) ||
                     (text[0] == '-' && p->key && text[1] == p->key && text[2] == '\0');
        if (named && p->arg)
            die(EXIT_USAGE, "option '%s' needs a value (%s)", text, p->arg);
    }
    if (text[0] == '-' && text[1] == '-') { /* a mistyped long option: the nearest one */
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)strcspn(text + 2, "="), text + 2);
        const char *names[sizeof option_table / sizeof option_table[0]];
        size_t n = 0;
        for (const struct argp_option *p = option_table; !OPTION_END(p); p++)
            if (p->name)
                names[n++] = p->name;
        const char *near = suggest_nearest(word, names, n);
        if (near)
            die(EXIT_USAGE, "unknown option '%s' (did you mean --%s?)", text, near);
    }
    die(EXIT_USAGE, "unknown option '%s' (see --help)", text);
}

/* Options that may be given more than once, applied in order; flags may repeat harmlessly.
 * Any other option given twice is an error rather than a silent "last one wins". */
static const int repeatable[] = {OPT_SET, 'c', OPT_SWEEP, OPT_BOT_PROGRAM};

/* --bot-program NAME=COMMAND (declared at once, before --bots is read) or --bot-timeout. */
static void bot_program_option(bool declare, const char *arg)
{
    char err[512];
    if (declare) {
        /* a built-in bot of any game would take the name's place in --bots */
        const char *eq = strchr(arg, '=');
        size_t n = eq ? (size_t)(eq - arg) : 0;
        for (int i = 0; eq && registry_games[i]; i++) {
            const bot_type *all[REGISTRY_MAX_BOTS];
            int nb = registry_bots(registry_games[i], all, REGISTRY_MAX_BOTS);
            for (int k = 0; k < nb; k++)
                if (strlen(all[k]->name) == n && strncmp(all[k]->name, arg, n) == 0)
                    die(EXIT_USAGE,
                        "--bot-program '%.*s': the name of a built-in bot (of %s); choose "
                        "another",
                        (int)n, arg, registry_games[i]->name);
        }
        if (program_declare(arg, err, sizeof err) != 0)
            die(EXIT_USAGE, "%s", err);
        return;
    }
    char *end;
    errno = 0;
    double s = strtod(arg, &end);
    if (end == arg || *end != '\0' || errno || !(s > 0 && s <= 86400))
        die(EXIT_USAGE, "--bot-timeout '%s': expected seconds, more than 0 and at most 86400",
            arg);
    program_set_timeout(s);
}

/* Dies if key names a single-valued option already given. */
static void reject_repeat(options *o, int key)
{
    for (size_t i = 0; i < sizeof repeatable / sizeof repeatable[0]; i++)
        if (key == repeatable[i])
            return;
    for (const struct argp_option *p = option_table; !OPTION_END(p); p++) {
        if (p->name == NULL || p->key != key)
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
    case OPT_REPLAY: o->replay = arg; break;
    case OPT_SHARD: o->shard = arg; break;
    case OPT_MERGE: o->merge = true; break;
    case OPT_DETAIL: o->detail = true; break;
    case OPT_DEPENDS: o->depends = true; break;
    case OPT_POPULATION: o->population = arg; break;
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
    case OPT_BOT_PROGRAM:
    case OPT_BOT_TIMEOUT:
        bot_program_option(key == OPT_BOT_PROGRAM, arg);
        break;
    case OPT_TUNE: o->tune = arg; break;
    case OPT_SOLVE: o->solve = arg; break;
    case OPT_SOLVE_GEESE: o->solve_geese = arg; break;
    case OPT_PROVE: o->prove = arg ? arg : "both"; break;
    case OPT_PROVE_NODES: o->prove_nodes = arg; break;
    case OPT_PROVE_MB: o->prove_mb = arg; break;
    case OPT_PROVE_GUESS: o->prove_guess = arg; break;
    case OPT_DB:
        o->db = arg;
        volpe_db_set_dir(arg);
        break;
    case OPT_MAXIMIZE: o->maximize = arg; break;
    case OPT_MINIMIZE: o->minimize = arg; break;
    case OPT_TARGET: o->target = arg; break;
    case OPT_OVER: o->over = arg; break;
    case OPT_TOURNAMENT: o->tournament = arg; break;
    case OPT_SPRT: o->sprt = arg; break;
    case OPT_STEP: o->step = arg; break;
    case 'l': o->list = true; break;
    case OPT_COMPLETION: o->completion = arg; break;
    case OPT_CSV_DECIMAL: o->csv_decimal = arg; break;
    case OPT_CSV_PRECISION: o->csv_precision = arg; break;
    case 'q': o->quiet = true; break;
    case OPT_PROGRESS: o->progress = true; break;
    case OPT_KEEP_PARTIAL: o->keep_partial = true; break;
    case OPT_CHECK: o->check = true; break;
    /* Under MPI, rank 0 alone prints what is not a report. */
    case '?':
    case OPT_USAGE:
    case 'V':
        dist_apart();
        if (dist_rank() == 0 && key == 'V')
            puts(argp_program_version);
        else if (dist_rank() == 0)
            argp_help(state->root_argp, stdout, key == '?' ? ARGP_HELP_STD_HELP : ARGP_HELP_USAGE,
                      (char *)"giochi-sim");
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
    "\vExamples (each runs as written; --list names every game, bot and key):\n"
    "  giochi-sim --game=oca --runs=1e4 --seed=1\n"
    "  giochi-sim --game=pig10 --bots=greedy,mc:samples=8 --runs=100 --seed=1\n"
    "  giochi-sim --game=oca --set entry_fee=60 --bots=greedy:max_bid=20 --runs=2k\n"
    "  giochi-sim --game=45 --sweep limit=40,45,50 --metric=length --runs=5k\n"
    "  giochi-sim --game=pig10 --rotate-seats --bots=greedy,count,random --runs=2k\n"
    "  giochi-sim --list --game=oca --format=json | jq '.games[0].keys[].key'\n"
    "\n"
    "Exit status: 0 success, 2 bad usage or input, 3 output could not be written, "
    "4 internal error or a broken invariant (--check), 5 out of memory, 6 a bot outside the "
    "process failed (--bot-program), 7 the human seat quit, 128+N stopped by signal N "
    "(130: Ctrl-C). See giochi-sim(1), EXIT STATUS, and giochi-sim-GAME(7).";

/* Reads a count: decimal digits, optionally with a fraction and an exponent (1e5, 2.5e3) or
 * a suffix k, M or G (thousand, million, billion: 100k, 1.5M), that together make a whole
 * number. Returns 0 with *out, 1 if it is a number but not whole (1.5, 1e-3), 2 if it is too
 * large for 64 bits, -1 if it is no number at all. */
static int parse_count(const char *text, unsigned long long *out)
{
    char digits[64];
    int nd = 0, nfrac = 0;
    const char *p = text;
    bool point = false;
    for (; (*p >= '0' && *p <= '9') || (*p == '.' && !point); p++) {
        if (*p == '.') {
            point = true;
            continue;
        }
        if (nd == 0 && *p == '0' && !point)
            continue; /* a leading zero adds nothing */
        if (nd == (int)sizeof digits - 1)
            return 2;
        digits[nd++] = *p;
        nfrac += point;
    }
    if (p == text || (p == text + 1 && point) || p[-1] == '.')
        return -1;
    long exp = 0;
    if (*p == 'e' || *p == 'E') {
        char *end;
        p++;
        if (!((*p >= '0' && *p <= '9') || ((*p == '-' || *p == '+') && p[1] >= '0' && p[1] <= '9')))
            return -1;
        errno = 0;
        exp = strtol(p, &end, 10);
        if (errno || exp > 40 || exp < -40)
            return exp > 0 ? 2 : 1;
        p = end;
    } else if (*p == 'k' || *p == 'M' || *p == 'G') {
        exp = *p == 'k' ? 3 : *p == 'M' ? 6 : 9;
        p++;
    }
    if (*p != '\0')
        return -1;
    long shift = exp - nfrac;
    for (; shift < 0; shift++) { /* digits below the units must be zeros */
        if (nd > 0 && digits[nd - 1] != '0')
            return 1;
        if (nd > 0)
            nd--;
    }
    unsigned long long v = 0;
    for (int i = 0; i < nd + shift; i++) {
        unsigned d = i < nd ? (unsigned)(digits[i] - '0') : 0;
        if (v > (~0ULL - d) / 10)
            return 2;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

unsigned long long whole_option(const char *opt, const char *text, unsigned long long min,
                                       unsigned long long max)
{
    unsigned long long v = 0;
    int rc = parse_count(text, &v);
    if (rc == 1)
        die(EXIT_USAGE, "--%s '%s': not a whole number (expected a whole number in %llu..%llu)",
            opt, text, min, max);
    if (rc != 0 || v < min || v > max) {
        if (min == max)
            die(EXIT_USAGE, "--%s '%s': expected exactly %llu", opt, text, min);
        die(EXIT_USAGE, "--%s '%s': expected a whole number in %llu..%llu (digits, or 1e5, 100k)",
            opt, text, min, max);
    }
    return v;
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
    const char *fmt = o->list ? "text or json" : "json";
    if (o->format && strcmp(o->format, "json") != 0 &&
        !(o->list && strcmp(o->format, "text") == 0))
        die(EXIT_USAGE, "%s prints %s: it cannot be combined with --format=%s", mode, fmt,
            o->format);
    if (o->output && *o->output == '\0')
        die(EXIT_USAGE, "--output: empty file name");
}

void options_check_without_game(const options *o)
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

void options_check_extra_outputs(const options *o)
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


const struct argp_option *options_table(void)
{
    return option_table;
}

void options_parse(options *o, int argc, char **argv)
{
    o->parts = xcalloc((size_t)argc + 1, sizeof *o->parts);
    struct argp argp = {option_table, parse_opt, 0, doc, 0, 0, 0};
    argp_parse(&argp, argc, argv, ARGP_NO_ERRS | ARGP_NO_HELP, 0, o);
    check_modes(o);
    if (o->nparts > 0 && !o->merge)
        die(EXIT_USAGE, "unexpected argument '%s' (see --help)", o->parts[0]);
    int from_stdin = 0; /* standard input can be read once */
    for (int i = 0; i < o->nconfigs; i++)
        from_stdin += strcmp(o->config[i], "-") == 0;
    if (from_stdin > 1)
        die(EXIT_USAGE, "--config=- is given twice (standard input holds one ruleset)");
    if (from_stdin && o->replay && strcmp(o->replay, "-") == 0)
        die(EXIT_USAGE, "--config=- and --replay=- both read standard input: give one a file");
    if (o->population) {
        if (o->bots)
            die(EXIT_USAGE, "--population and --bots: give one (in --bots, pop:%s seats a "
                            "player drawn from the population)", o->population);
        if (*o->population == '\0')
            die(EXIT_USAGE, "--population: empty name");
        size_t n = strlen(o->population) + 5;
        char *b = xmalloc(n);
        snprintf(b, n, "pop:%s", o->population);
        o->bots = b;
    }
    if (o->merge && (o->list || o->print_ruleset))
        die(EXIT_USAGE, "--merge cannot be combined with --list or --print-ruleset");
}
