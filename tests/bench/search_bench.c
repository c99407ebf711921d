/* search_bench.c — speed of the generic search bots, for `make bench` (a benchmark, never a
 * test: it asserts nothing). For every registered game that alphabeta supports (or the one
 * named), it collects positions from random play at a fixed seed and reports alphabeta's
 * nodes per second at a fixed depth and mcts's iterations per second, in CPU time of this
 * one thread.
 *
 *     search-bench [GAME [DEPTH [POSITIONS]]]    (defaults: every game, 8, 200) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bots/alphabeta.h"
#include "core/registry.h"
#include "config/rules.h"

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Fills `st` (room for n states of g) with n positions of random games: every 5th decision
 * with a choice. */
static void positions(const game_type *g, const void *rules, unsigned char *st, int n)
{
    rng chance, pick;
    rng_seed(&chance, 1);
    rng_seed(&pick, 2);
    unsigned char *cur = malloc(g->state_size);
    int got = 0;
    while (got < n) {
        g->start(cur, rules, 2, &chance, NULL);
        decision d;
        for (int k = 0; got < n && g->decide(cur, &d); k++) {
            if (d.n > 1 && k % 5 == 4)
                memcpy(st + (size_t)got++ * g->state_size, cur, g->state_size);
            g->apply(cur, d.action[rng_below(&pick, (uint32_t)d.n)], &chance, NULL);
        }
    }
    free(cur);
}

/* Times bot b (parameters p) over the positions; returns CPU seconds. */
static double time_bot(const game_type *g, const void *rules, const bot_type *b, const double *p,
                       const unsigned char *st, int n, uint64_t *nodes)
{
    char err[256];
    void *ctx = calloc(1, b->ctx_size);
    if (b->setup(ctx, g, rules, 0, 2, p, err, sizeof err) != 0) {
        fprintf(stderr, "search-bench: %s\n", err);
        exit(1);
    }
    rng r;
    rng_seed(&r, 3);
    *nodes = 0;
    double t0 = cpu_seconds();
    for (int i = 0; i < n; i++) {
        const void *pos = st + (size_t)i * g->state_size;
        decision d;
        g->decide(pos, &d);
        b->choose(ctx, pos, &d, &r);
        if (b == &bot_alphabeta) {
            alphabeta_stats s;
            alphabeta_last(ctx, &s);
            *nodes += s.nodes;
        }
    }
    double t = cpu_seconds() - t0;
    b->teardown(ctx);
    free(ctx);
    return t;
}

static void bench(const game_type *g, int depth, int n)
{
    char err[256];
    cJSON *json;
    void *rules = rules_effective(g, NULL, NULL, 0, &json, err, sizeof err);
    if (rules == NULL) {
        fprintf(stderr, "search-bench: %s\n", err);
        exit(1);
    }
    unsigned char *st = malloc(g->state_size * (size_t)n);
    positions(g, rules, st, n);
    double ab[3] = {depth, 0, 18}, mc[3] = {1000, 1, 0};
    uint64_t nodes, none;
    double t = time_bot(g, rules, &bot_alphabeta, ab, st, n, &nodes);
    printf("%-8s alphabeta:depth=%-3d %6d positions %12llu nodes %8.3f s %12.0f nodes/s\n",
           g->name, depth, n, (unsigned long long)nodes, t, (double)nodes / t);
    int nm = n / 10 > 0 ? n / 10 : 1;
    t = time_bot(g, rules, &bot_mcts, mc, st, nm, &none);
    printf("%-8s mcts:playouts=1000   %6d positions %12d iters %8.3f s %12.0f iters/s\n",
           g->name, nm, nm * 1000, t, nm * 1000 / t);
    free(st);
    free(rules);
    cJSON_Delete(json);
}

int main(int argc, char **argv)
{
    int depth = argc > 2 ? atoi(argv[2]) : 8, n = argc > 3 ? atoi(argv[3]) : 200;
    if (depth < 1 || depth > 64 || n < 1) {
        fprintf(stderr, "usage: search-bench [GAME [DEPTH [POSITIONS]]]\n");
        return 2;
    }
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        if (argc > 1 && strcmp(argv[1], g->name) != 0)
            continue;
        if (!bot_alphabeta.supports(g)) {
            if (argc > 1)
                fprintf(stderr, "search-bench: alphabeta does not play %s\n", g->name);
            continue;
        }
        bench(g, depth, n);
    }
    return 0;
}
