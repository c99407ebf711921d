/* options.h — giochi-sim's command line read into one struct, and the checks that need no game. */
#ifndef GIOCHI_CLI_OPTIONS_H
#define GIOCHI_CLI_OPTIONS_H

#include <stdbool.h>

#include "experiment/experiment.h"

enum { MAX_SETS = 256, MAX_CONFIGS = 16, MAX_SEEN = 64, MAX_PARTS = 100000 };
#define MAX_RUNS 1000000000000ULL /* 10^12 games */

/* Every option as given (the text of its value; NULL or false: not given). Nothing is owned:
 * the strings are argv's (or, for --merge, the partial results' identity's). */
typedef struct options {
    const char *game, *bots, *output, *games_csv, *format;
    const char *population; /* --population=P: every seat pop:P (folded into bots) */
    const char *runs, *seed, *players, *threads, *trace, *perft, *replay;
    const char *set[MAX_SETS];
    int nsets;
    const char *config[MAX_CONFIGS]; /* merged in order */
    int nconfigs;
    bool quiet, list, exact, print_ruleset, progress, check, merge;
    bool keep_partial; /* --keep-partial: an interrupted run writes the games played so far */
    int seen[MAX_SEEN]; /* keys of the single-valued options given so far */
    int nseen;
    const char *shard;       /* --shard=I/N */
    const char *plot, *html; /* --plot=FILE, --html=FILE */
    bool detail;             /* --detail: the full text listing */
    bool depends;            /* --depends: the batches of the summary's "depends on" */
    const char **parts;      /* --merge's files (the arguments) */
    int nparts;
    /* experiments (experiment.h) */
    const char *sweep[EXP_MAX_SWEEPS + 1];
    int nsweeps;
    const char *baseline, *until, *metric, *sensitivity_keys;
    bool rotate, sensitivity;
    /* searches (experiment.h) */
    const char *tune, *maximize, *minimize, *target, *over, *tournament, *sprt, *step;
    /* discovery */
    const char *completion; /* --completion=SHELL */
    const char *csv_decimal; /* --csv-decimal=, */
    const char *csv_precision; /* --csv-precision=interval|full */
    /* volpe's solver (--solve=DIR, --solve-geese=K) and the perfect bot's --db=DIR */
    const char *solve, *solve_geese, *db;
    /* volpe's proof search (--prove[=WHO], --prove-nodes=N, --prove-mb=MB, --prove-guess=HOW) */
    const char *prove, *prove_nodes, *prove_mb, *prove_guess;
} options;

/* The option table (argp's), ended by an all-zero entry: for the completion script. Entries
 * with no name and no key only title a group of --help; OPTION_END(p) is true at the end. */
struct argp_option;
const struct argp_option *options_table(void);
#define OPTION_END(p) (!(p)->name && !(p)->key && !(p)->doc && !(p)->group)

/* Reads argv into o (zeroed by the caller) and checks what needs no game: unknown or
 * repeated options, values missing, --help/--usage/--version (printed, then exit), arguments
 * without --merge, and modes that cannot be combined (--list, --print-ruleset). Dies with
 * exit 2 on bad usage. */
void options_parse(options *o, int argc, char **argv);

/* Parses a whole number in [min, max]: decimal digits, or with an exponent or a suffix that
 * makes a whole number (1e5, 2.5e3, 100k, 1.5M, 2G); dies naming the option (--opt)
 * otherwise, with its own line for a number that is not whole (1.5, 1e-3). */
unsigned long long whole_option(const char *opt, const char *text, unsigned long long min,
                                unsigned long long max);

/* --list without --game: the options that do not need a game are still checked, and those
 * that do are refused (nothing to check them against). */
void options_check_without_game(const options *o);

/* Checks --plot and --html before anything is played: names, the plot's format, gnuplot, and
 * that no two outputs name the same file. */
void options_check_extra_outputs(const options *o);

#endif
