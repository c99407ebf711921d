/* mode_solve.c — --solve=DIR: La volpe e le oche solved by retrograde analysis into DIR
 * (games/volpe/volpe_solve.h), its summary printed; a signal stops it between groups. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/fail.h"
#include "cli/job.h"
#include "cli/outfile.h"
#include "games/volpe/volpe_db.h"
#include "games/volpe/volpe_solve.h"

/* The groups kept in memory for lookups while solving (2 GiB). */
#define SOLVE_CACHE_BYTES (2048ull << 20)

/* Random games along which a whole solved game is checked. */
enum { SOLVE_GAMES = 200 };


/* Who wins, and how long, said in words for the side to move (seat `side`). */
static void say_value(FILE *f, int v, int side)
{
    const char *mover = side == VOLPE_FOX ? "fox" : "geese";
    if (volpe_is_win(v))
        fprintf(f, "the %s (to move) win%s, converting within %d plies\n", mover,
                side == VOLPE_FOX ? "s" : "", volpe_dist(v));
    else if (volpe_is_loss(v))
        fprintf(f, "the %s (to move) lose%s, holding out %d plies before conversion\n",
                mover, side == VOLPE_FOX ? "s" : "", volpe_dist(v));
    else
        fprintf(f, "a draw (play goes on for ever)\n");
}

/* --solve=DIR: solves volpe's groups below its start into DIR (made if missing), with at
 * most --solve-geese geese, and prints what was solved and the start's value; a signal
 * (HUP, INT, TERM) stops it before the next group, with exit 128 + the signal. Exits. */
void mode_solve(job *j)
{
    const options *o = j->o;
    if (strcmp(j->g->name, "volpe") != 0)
        die(EXIT_USAGE, "--solve: only volpe is solved (not %s)", j->g->name);
    if (o->bots || o->runs || o->trace || o->games_csv || o->exact || o->perft || o->replay ||
        o->plot || o->html || o->detail || o->shard || o->merge || o->check || o->format)
        die(EXIT_USAGE, "--solve solves the game: it cannot be combined with --bots, --runs, "
                        "--trace, --games-csv, --exact, --perft, --replay, --plot, --html, "
                        "--detail, --shard, --merge, --check or --format");
    if (*o->solve == '\0')
        die(EXIT_USAGE, "--solve: empty directory name");
    const volpe_rules *r = j->rules;
    volpe_solve_opts opts = {0};
    opts.dir = o->solve;
    opts.max_geese = o->solve_geese ? (int)whole_option("solve-geese", o->solve_geese, 1,
                                                        VOLPE_MAX_GEESE)
                                    : 0;
    opts.progress = !o->quiet && (o->progress || isatty(STDERR_FILENO));
    opts.cache_bytes = SOLVE_CACHE_BYTES;
    volatile sig_atomic_t *stop = outfile_flag_signals();
    opts.stop = stop;
    volpe_solve_result res;
    char err[1024];
    int rc = volpe_solve(r, &opts, &res, err, sizeof err);
    if (rc != 0)
        die(rc, "--solve: %s", err);
    if (res.stopped) {
        fprintf(stderr, "giochi-sim: solve: stopped by a signal after %d of %d groups (run "
                "the same command again to continue)\n", res.solved + res.checked,
                res.groups);
        exit(128 + (*stop ? *stop : SIGTERM));
    }
    FILE *f = stdout;
    if (o->output && (f = fopen(o->output, "w")) == NULL)
        die(EXIT_IO, "cannot write '%s'", o->output);
    volpe_db_key key = volpe_db_key_of(r);
    fprintf(f, "volpe solved in %s: groups with %d..%d geese below the start's "
            "(the fox wins with %d left)\n", o->solve, key.threshold + 1,
            opts.max_geese ? opts.max_geese : volpe_popcount(r->geese), key.threshold);
    fprintf(f, "groups: %d (%d solved now, %d found solved and checked)\n", res.groups,
            res.solved, res.checked);
    fprintf(f, "positions: %llu (side to move: %llu wins, %llu losses, %llu draws)\n",
            (unsigned long long)res.positions, (unsigned long long)res.wins,
            (unsigned long long)res.losses, (unsigned long long)res.draws);
    fprintf(f, "longest: a win converts within %d plies, a loss holds out %d\n",
            res.longest_win, res.longest_loss);
    fprintf(f, "memory: largest group %llu positions; at most %.1f MB of values held "
            "(working arrays: 2 bytes a position of the group solved, plus its lists)\n",
            (unsigned long long)res.largest_group, (double)res.peak_bytes / 1e6);
    fprintf(f, "checked: %llu random positions (16 a group) against their successors, %llu "
            "inconsistent\n", (unsigned long long)res.sampled,
            (unsigned long long)res.inconsistent);
    if (res.start_value >= 0) { /* the whole game is solved: along random games too */
        char why[512];
        volpe_db *db = volpe_db_open(o->solve, key, false, why, sizeof why);
        uint64_t seen = 0, bad = 0;
        if (db == NULL || volpe_solve_games(r, db, SOLVE_GAMES, 1, &seen, &bad) != 0)
            die(EXIT_INTERNAL, "--solve: random games left the solved groups");
        volpe_db_close(db);
        fprintf(f, "checked: %llu positions along %d random games, %llu inconsistent\n",
                (unsigned long long)seen, SOLVE_GAMES, (unsigned long long)bad);
        res.inconsistent += bad;
    }
    fprintf(f, "time: %.1f s\n", res.seconds);
    fprintf(f, "start: ");
    if (res.start_value >= 0)
        say_value(f, res.start_value, VOLPE_FOX);
    else
        fprintf(f, "not solved (its group has more than --solve-geese geese)\n");
    if (f != stdout && fclose(f) != 0)
        die(EXIT_IO, "cannot write '%s'", o->output);
    if (res.inconsistent)
        die(EXIT_INTERNAL, "--solve: %llu positions disagree with their successors",
            (unsigned long long)res.inconsistent);
    exit_flushed();
}
