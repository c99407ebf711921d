/* mode_perft.c — --perft: the move paths of each length from the start, counted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "cli/fail.h"
#include "cli/job.h"
#include "core/perft.h"
#include "dist/dist.h"

/* --perft: prints the move-path counts of depths 1..D as text ("d COUNT" lines), JSON or CSV,
 * with the nodes per second on stderr unless --quiet, then exits. */
void mode_perft(job *j)
{
    const game_type *g = j->g;
    const void *rules = j->rules;
    const options *o = j->o;
    cJSON *ruleset = j->ruleset;
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
    dist_apart();
    if (dist_rank() != 0) /* under MPI rank 0 alone counts and prints */
        exit(EXIT_OK);
    outset s;
    outset_open(&s, o->output, NULL, NULL, NULL);
    FILE *f = outset_file(&s, OUT_REPORT);
    uint64_t nodes[PERFT_MAX_DEPTH];
    double t0 = clock_seconds();
    if (perft_count(g, rules, nseats, depth, nodes, err, sizeof err) != 0) {
        outset_fail(&s, EXIT_INTERNAL, "--perft: %s", err);
    }
    double t1 = clock_seconds();
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
        fprintf(f, "%s\n", text);
        cJSON_free(text);
        cJSON_Delete(root);
    } else {
        if (strcmp(fmt, "csv") == 0)
            fprintf(f, "depth,nodes\n");
        for (int d = 0; d < depth; d++)
            fprintf(f, strcmp(fmt, "csv") == 0 ? "%d,%llu\n" : "%d %llu\n", d + 1,
                    (unsigned long long)nodes[d]);
    }
    outset_commit(&s);
    if (!o->quiet) {
        uint64_t total = 0;
        for (int d = 0; d < depth; d++)
            total += nodes[d];
        double secs = t1 - t0;
        fprintf(stderr, "giochi-sim: perft %d: %llu nodes in %.3f s (%.0f nodes/s)\n", depth,
                (unsigned long long)total, secs, secs > 0 ? (double)total / secs : 0.0);
    }
    cJSON_Delete(ruleset);
    free(j->rules);
    exit_flushed();
}
