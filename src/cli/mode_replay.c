/* mode_replay.c — --replay=FILE: one recorded game played again, its trace and outcome. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/fail.h"
#include "cli/job.h"
#include "core/replay.h"

void mode_replay(job *j)
{
    const game_type *g = j->g;
    const options *o = j->o;
    char err[512];
    if (o->trace || o->runs || o->bots || o->format || o->games_csv || o->exact || o->check)
        die(EXIT_USAGE, "--replay plays one recorded game: it cannot be combined with "
                        "--trace, --runs, --bots, --format, --games-csv, --exact or --check");
    int n = o->players ? (int)whole_option("players", o->players,
                                           (unsigned long long)g->min_seats,
                                           (unsigned long long)g->max_seats)
                       : g->default_seats;
    if (replay_file(g, j->rules, n, o->replay, stdout, err, sizeof err) != 0)
        die(EXIT_USAGE, "--replay: %s", err);
    exit(EXIT_OK);
}
