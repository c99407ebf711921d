/* perft.c — move-path counts by depth-first walk over copies of the state. */
#include "core/perft.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* Adds the paths below st (at depth `at`, 0-based) to nodes[at..max-1]. `stack` holds two
 * scratch states per level below this one (a child, and the position after a page turn); d
 * is the decision scratch of this level. A page turn (game_type.page_turn) is no move: the
 * next page's moves count at the same depth. */
static void walk(const game_type *g, const void *st, int at, int max, uint64_t *nodes,
                 unsigned char *stack, decision *d, rng *none)
{
    void *child = stack, *paged = stack + g->state_size;
    const void *here = st;
    while (g->decide(here, d)) {
        int turn = -1; /* the page turn among d's actions, if any */
        if (g->page_turn)
            for (int i = 0; i < d->n && turn < 0; i++)
                if (g->page_turn(here, d, d->action[i]))
                    turn = i;
        nodes[at] += (uint64_t)(d->n - (turn >= 0));
        if (at + 1 < max) /* the last level only counts its moves: no need to play them */
            for (int i = 0; i < d->n; i++) {
                if (i == turn)
                    continue;
                memcpy(child, here, g->state_size);
                g->apply(child, d->action[i], none, NULL);
                walk(g, child, at + 1, max, nodes, stack + 2 * g->state_size, d + 1, none);
            }
        if (turn < 0)
            return;
        if (here != paged)
            memcpy(paged, here, g->state_size);
        g->apply(paged, d->action[turn], none, NULL);
        here = paged;
    }
}

int perft_from(const game_type *g, const void *st, int depth, uint64_t *nodes, char *err,
               size_t errlen)
{
    if (!g->deterministic || g->view_size != 0) {
        snprintf(err, errlen, "%s has chance or hidden information (move paths "
                 "are counted for deterministic games of perfect information)", g->name);
        return -1;
    }
    if (depth < 1 || depth > PERFT_MAX_DEPTH) {
        snprintf(err, errlen, "the depth must be 1..%d", PERFT_MAX_DEPTH);
        return -1;
    }
    unsigned char *stack = xmalloc(2 * g->state_size * (size_t)depth);
    decision *d = xmalloc(sizeof *d * (size_t)depth);
    memset(nodes, 0, sizeof *nodes * (size_t)depth);
    /* A deterministic game never draws: a generator in a fixed state is only a placeholder. */
    rng none;
    rng_seed(&none, 0);
    walk(g, st, 0, depth, nodes, stack, d, &none);
    free(stack);
    free(d);
    return 0;
}

int perft_count(const game_type *g, const void *rules, int nseats, int depth, uint64_t *nodes,
                char *err, size_t errlen)
{
    void *st = xmalloc(g->state_size);
    rng none;
    rng_seed(&none, 0);
    if (g->deterministic)
        g->start(st, rules, nseats, &none, NULL);
    int rc = perft_from(g, st, depth, nodes, err, errlen);
    free(st);
    return rc;
}
