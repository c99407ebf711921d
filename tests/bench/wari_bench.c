/* wari_bench.c — Wari speed through the library, for `make bench` (never a test): random
 * playouts through the full runner (two `random` bots, statistics on, one thread), move-path
 * counts to depth 10, and the nodes per second of the generic alphabeta bot at depth 8.
 * Times are the process's CPU time, so that other work on a shared machine does not count.
 *
 *     wari_bench [GAMES]     prints one line per figure */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bots/alphabeta.h"
#include "games/wari/wari.h"
#include "core/perft.h"
#include "core/registry.h"
#include "config/rules.h"
#include "core/runner.h"

/* CPU seconds used by the process so far. */
static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Plays `games` games of alphabeta (its default parameters) against itself, timing only the
 * searches; prints nodes, decisions and nodes per second. */
static int bench_alphabeta(const wari_rules *r, int games)
{
    const bot_type *b = &bot_alphabeta;
    double param[BOT_MAX_PARAMS];
    int np = 0;
    for (; b->params[np].name; np++)
        param[np] = b->params[np].def;
    void *ctx[2];
    char err[256];
    for (int s = 0; s < 2; s++) {
        ctx[s] = calloc(1, b->ctx_size);
        if (b->setup(ctx[s], &game_wari, r, s, 2, param, err, sizeof err) != 0) {
            fprintf(stderr, "wari_bench: %s\n", err);
            return -1;
        }
    }
    uint64_t nodes = 0, decisions = 0;
    double secs = 0;
    for (int g = 0; g < games; g++) {
        wari_state st;
        rng chance, mover[2];
        rng_seed(&chance, (uint64_t)g);
        rng_seed(&mover[0], 2 * (uint64_t)g + 1);
        rng_seed(&mover[1], 2 * (uint64_t)g + 2);
        game_wari.start(&st, r, 2, &chance, NULL);
        decision d;
        for (int m = 0; game_wari.decide(&st, &d); m++) {
            int k = 0;
            if (m < 2) { /* a random opening move each, so that the games differ */
                k = (int)rng_below(&mover[d.seat], (uint32_t)d.n);
            } else if (d.n > 1) {
                double t0 = cpu();
                k = b->choose(ctx[d.seat], &st, &d, &mover[d.seat]);
                secs += cpu() - t0;
                alphabeta_stats as;
                alphabeta_last(ctx[d.seat], &as);
                nodes += as.nodes;
                decisions++;
            }
            game_wari.apply(&st, d.action[k], &chance, NULL);
        }
    }
    printf("alphabeta depth %g: %llu nodes in %llu decisions, %.3f s: %.0f nodes/s, %.3f ms "
           "per decision\n", param[0], (unsigned long long)nodes,
           (unsigned long long)decisions, secs, (double)nodes / secs,
           1000 * secs / (double)decisions);
    for (int s = 0; s < 2; s++) {
        if (b->teardown)
            b->teardown(ctx[s]);
        free(ctx[s]);
    }
    return 0;
}

int main(int argc, char **argv)
{
    long games = argc > 1 ? atol(argv[1]) : 300000;
    char err[512];
    cJSON *json = NULL;
    wari_rules *r = rules_effective(&game_wari, NULL, NULL, 0, &json, err, sizeof err);
    if (r == NULL) {
        fprintf(stderr, "wari_bench: %s\n", err);
        return 1;
    }
    cJSON_Delete(json);

    run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.game = &game_wari;
    cfg.rules = r;
    cfg.nseats = 2;
    cfg.seat[0].bot = cfg.seat[1].bot = &bot_random;
    cfg.runs = (uint64_t)games;
    cfg.seed = 1;
    cfg.threads = 1;
    run_result res;
    double t0 = cpu();
    if (run_batch(&cfg, &res, err, sizeof err) != 0) {
        fprintf(stderr, "wari_bench: %s\n", err);
        return 1;
    }
    double secs = cpu() - t0;
    double moves = (double)res.length.sum;
    printf("runner, random vs random: %ld games, %.0f moves, %.3f s: %.0f moves/s\n", games,
           moves, secs, moves / secs);
    run_result_free(&res);

    uint64_t nodes[10], total = 0;
    t0 = cpu();
    if (perft_count(&game_wari, r, 2, 10, nodes, err, sizeof err) != 0) {
        fprintf(stderr, "wari_bench: %s\n", err);
        return 1;
    }
    secs = cpu() - t0;
    for (int d = 0; d < 10; d++)
        total += nodes[d];
    printf("perft 10: %llu nodes (depth 10: %llu), %.3f s: %.0f nodes/s\n",
           (unsigned long long)total, (unsigned long long)nodes[9], secs, (double)total / secs);

    int rc = bench_alphabeta(r, 20);
    free(r);
    return rc ? 1 : 0;
}
