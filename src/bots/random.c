/* random.c — the generic `random` bot: uniform among the legal actions of any decision. */
#include "core/registry.h"

static int choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)ctx;
    (void)seen;
    return (int)rng_below(r, (uint32_t)d->n);
}

const bot_type bot_random = {
    .name = "random",
    .doc = "picks uniformly at random among the legal actions of every decision",
    .params = NULL,
    .ctx_size = 0,
    .setup = NULL,
    .choose = choose,
    .teardown = NULL,
};
