/* mode_prove.c — --prove: the value of volpe's start by proof-number search
 * (games/volpe/volpe_prove.h), each answer's certificate checked, the database of --db=DIR
 * as exact leaves; prints the questions' answers and the start's value. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/fail.h"
#include "cli/job.h"
#include "cli/outfile.h"
#include "games/volpe/volpe_db.h"
#include "games/volpe/volpe_prove.h"

/* The database groups kept in memory for leaves (1 GiB). */
#define PROVE_DB_BYTES (1024ull << 20)


/* A proof or disproof number in words: "inf" for a solved node's infinite one. */
static void number(char *buf, uint32_t x)
{
    if (x >= 0x7fffffffu)
        snprintf(buf, 16, "inf");
    else
        snprintf(buf, 16, "%u", x);
}

/* The groups of dir a search from r's start may meet that are solved there (checked by
 * size and header; the values are checked in full when first read). Dies if one was solved
 * under other rules, or if none is solved there and the directory holds groups of other
 * rules only (a database of another game would serve nothing, silently). */
static int groups_in(volpe_db *db, const volpe_rules *r, const char *dir)
{
    volpe_db_key key = volpe_db_key_of(r);
    volpe_group start = volpe_group_of(volpe_profile(r->geese));
    int n = 0;
    for (uint32_t c = 0; c < VOLPE_PROFILES; c++) {
        volpe_group g = volpe_group_of(c);
        if (g.count <= key.threshold || !volpe_group_below(&g, &start))
            continue;
        char why[512];
        volpe_file_state st = volpe_db_check(db, &g, false, why, sizeof why);
        if (st == VOLPE_FILE_OTHER)
            die(EXIT_USAGE, "--prove: %s: %s", dir, why);
        n += st == VOLPE_FILE_OK;
    }
    for (uint32_t c = 0; n == 0 && c < VOLPE_PROFILES; c++) {
        volpe_group g = volpe_group_of(c);
        char why[512];
        if (volpe_db_check(db, &g, false, why, sizeof why) == VOLPE_FILE_OTHER)
            die(EXIT_USAGE, "--prove: %s holds no group of this game: %s", dir, why);
    }
    return n;
}

/* Asks whether `attacker` wins; prints the answer's lines; returns the answer. */
static volpe_answer ask(FILE *f, const volpe_rules *r, volpe_prove_opts *opts, int attacker)
{
    opts->attacker = attacker;
    volpe_prove_result res;
    volpe_prove(r, r->geese, r->fox, VOLPE_FOX, opts, &res);
    const char *q = attacker == VOLPE_GEESE ? "geese win?" : "fox win?";
    const char *a = res.answer == VOLPE_PROVED      ? "proved"
                    : res.answer == VOLPE_DISPROVED ? "disproved"
                                                    : "unknown";
    char pn[16], dn[16];
    number(pn, res.root_pn);
    number(dn, res.root_dn);
    fprintf(f, "%s %s: %llu nodes, root pn %s dn %s, deepest path %d plies, last %d\n", q, a,
            (unsigned long long)res.nodes, pn, dn, res.max_depth, res.last_depth);
    fprintf(f, "  table %llu of %llu entries used; %llu repetitions met, %llu database "
            "leaves, %llu with the fox below the geese\n",
            (unsigned long long)res.table_used, (unsigned long long)res.table_entries,
            (unsigned long long)res.repetitions, (unsigned long long)res.db_leaves,
            (unsigned long long)res.below_leaves);
    if (res.answer != VOLPE_UNKNOWN) {
        fprintf(f, "  certificate: %llu positions, checked: every %s move replayed, every "
                "reply covered, leaves: %llu ends, %llu database, %llu fox below",
                (unsigned long long)res.check.nodes,
                res.answer == VOLPE_PROVED ? "winning" : "defending",
                (unsigned long long)res.check.leaves_end,
                (unsigned long long)res.check.leaves_db,
                (unsigned long long)res.check.leaves_below);
        if (res.answer == VOLPE_PROVED)
            fprintf(f, "; no cycle, longest line %d plies", res.check.depth);
        fprintf(f, "\n");
    } else if (res.check_error[0]) {
        fprintf(f, "  not claimed: %s\n", res.check_error);
    }
    if (opts->db && opts->progress)
        fprintf(stderr, "giochi-sim: prove: %s %.1f s, database values held at most %.0f MB\n",
                q, res.seconds, (double)res.peak_db_bytes / 1e6);
    else if (opts->progress)
        fprintf(stderr, "giochi-sim: prove: %s %.1f s\n", q, res.seconds);
    volpe_cert_free(&res.cert);
    if (res.check_failed && res.root_pn == 0)
        die(EXIT_INTERNAL, "--prove: the search proved %s but the proof did not check (%s)", q,
            res.check_error);
    return res.answer;
}

/* --prove[=WHO]: whether the geese win from volpe's start (WHO geese), the fox (fox), or
 * both questions (both, the default: the fox's asked unless the geese's was proved), the
 * start's value when they settle it. A signal stops the search (the answer unknown). */
void mode_prove(job *j)
{
    const options *o = j->o;
    if (strcmp(j->g->name, "volpe") != 0)
        die(EXIT_USAGE, "--prove: only volpe is proved (not %s)", j->g->name);
    if (o->bots || o->runs || o->trace || o->games_csv || o->exact || o->perft || o->replay ||
        o->plot || o->html || o->detail || o->shard || o->merge || o->check || o->format ||
        o->solve)
        die(EXIT_USAGE, "--prove searches the start: it cannot be combined with --bots, "
                        "--runs, --trace, --games-csv, --exact, --perft, --replay, --plot, "
                        "--html, --detail, --shard, --merge, --check, --format or --solve");
    const char *who = o->prove;
    if (strcmp(who, "both") != 0 && strcmp(who, "geese") != 0 && strcmp(who, "fox") != 0)
        die(EXIT_USAGE, "--prove: '%s' is not geese, fox or both", who);
    const volpe_rules *r = j->rules;
    if (r->geese_blocked == VOLPE_BLOCKED_PASS)
        die(EXIT_USAGE, "--prove: geese_blocked=pass is not proved (lose or draw)");
    volpe_prove_opts opts = {0};
    opts.max_nodes = o->prove_nodes ? whole_option("prove-nodes", o->prove_nodes, 1,
                                                   1ull << 50)
                                    : 0;
    uint64_t mb = o->prove_mb ? whole_option("prove-mb", o->prove_mb, 1, 1 << 20) : 1024;
    opts.table_bytes = mb << 20;
    opts.db_bytes = PROVE_DB_BYTES;
    const char *guess = o->prove_guess ? o->prove_guess : "moves";
    if (strcmp(guess, "moves") == 0)
        opts.guess = VOLPE_GUESS_MOVES;
    else if (strcmp(guess, "room") == 0)
        opts.guess = VOLPE_GUESS_ROOM;
    else
        die(EXIT_USAGE, "--prove-guess: '%s' is not moves or room", guess);
    opts.progress = !o->quiet && (o->progress || isatty(STDERR_FILENO));
    volatile sig_atomic_t *stop = outfile_flag_signals();
    opts.stop = stop;
    volpe_db_key key = volpe_db_key_of(r);
    if (o->db) {
        char err[1024];
        opts.db = volpe_db_open(o->db, key, false, err, sizeof err);
        if (opts.db == NULL)
            die(EXIT_USAGE, "--prove: %s", err);
    }
    int ngroups = opts.db ? groups_in(opts.db, r, o->db) : 0;
    FILE *f = stdout;
    if (o->output && (f = fopen(o->output, "w")) == NULL)
        die(EXIT_IO, "cannot write '%s'", o->output);
    char fox[4];
    volpe_point_name(r->fox, fox);
    fprintf(f, "volpe proof search (df-pn) from the start: the fox on %s to move, %d geese, "
            "the fox wins with %d left\n", fox, volpe_popcount(r->geese), key.threshold);
    if (o->db)
        fprintf(f, "leaves: the game's ends, the %d groups solved in %s; table %llu MB",
                ngroups, o->db, (unsigned long long)mb);
    else
        fprintf(f, "leaves: the game's ends (no --db); table %llu MB", (unsigned long long)mb);
    if (opts.max_nodes)
        fprintf(f, ", at most %llu nodes a question", (unsigned long long)opts.max_nodes);
    fprintf(f, "\n");
    volpe_answer geese = VOLPE_UNKNOWN, foxa = VOLPE_UNKNOWN;
    bool ask_geese = strcmp(who, "fox") != 0, ask_fox = strcmp(who, "geese") != 0;
    if (ask_geese)
        geese = ask(f, r, &opts, VOLPE_GEESE);
    if (ask_fox && geese != VOLPE_PROVED && !*stop)
        foxa = ask(f, r, &opts, VOLPE_FOX);
    fprintf(f, "start: ");
    if (geese == VOLPE_PROVED)
        fprintf(f, "the geese win (the fox to move loses)\n");
    else if (foxa == VOLPE_PROVED)
        fprintf(f, "the fox (to move) wins\n");
    else if (geese == VOLPE_DISPROVED && foxa == VOLPE_DISPROVED)
        fprintf(f, "a draw (neither side can force a win)\n");
    else if (geese == VOLPE_DISPROVED)
        fprintf(f, "the geese do not win (the fox's win %s)\n",
                ask_fox ? "not settled" : "not asked");
    else if (foxa == VOLPE_DISPROVED)
        fprintf(f, "the fox does not win (the geese's win %s)\n",
                ask_geese ? "not settled" : "not asked");
    else
        fprintf(f, "not settled\n");
    if (f != stdout && fclose(f) != 0)
        die(EXIT_IO, "cannot write '%s'", o->output);
    if (opts.db)
        volpe_db_close(opts.db);
    if (*stop) {
        fprintf(stderr, "giochi-sim: prove: stopped by a signal\n");
        exit(128 + *stop);
    }
    exit_flushed();
}
