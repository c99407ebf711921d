/* rollout.c — the generic `rollout` bot (flat Monte Carlo): tries every legal action on copies
 * of the state, plays each copy out with uniformly random choices and dice from the bot's own
 * stream, and keeps the action with the best average share of the win. Works on every game
 * whose players see the whole state (game_type.view_size == 0). */
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/xalloc.h"

typedef struct rollout_ctx {
    const game_type *g;
    int playouts;
    void *scratch; /* one state, g->state_size bytes */
} rollout_ctx;

static const bot_param params[] = {
    {"playouts", 32, 1, 100000, true, "random playouts per legal action and decision"},
    {NULL, 0, 0, 0, false, NULL},
};

/* Perfect information, and some decision to take (a game without decision kinds, such as
 * the Cinesi, has nothing to roll out). */
static bool supports(const game_type *g)
{
    return g->view_size == 0 && g->kind_names[0] != NULL;
}

static int setup(void *vctx, const game_type *g, const void *rules, int seat, int nseats,
                 const double *param, char *err, size_t errlen)
{
    (void)rules;
    (void)seat;
    (void)nseats;
    rollout_ctx *c = vctx;
    if (!supports(g)) {
        snprintf(err, errlen, "bot 'rollout' needs a game of perfect information, not %s",
                 g->name);
        return -1;
    }
    c->g = g;
    c->playouts = (int)param[0];
    c->scratch = xmalloc(g->state_size);
    return 0;
}

/* Plays st out at random; returns seat's share of the win (1/k if k seats share it). */
static double playout(const game_type *g, void *st, int seat, rng *r)
{
    /* The hooks, read once (the calls may write any memory, so the compiler would load them
     * again from the descriptor at every step). */
    bool (*decide)(const void *, decision *) = g->decide;
    void (*apply)(void *, int32_t, rng *, trace *) = g->apply;
    decision d;
    while (decide(st, &d))
        apply(st, d.action[d.n == 1 ? 0 : rng_below(r, (uint32_t)d.n)], r, NULL);
    outcome o;
    memset(&o, 0, sizeof o);
    g->finish(st, &o, NULL);
    if (!(o.winners >> seat & 1))
        return 0;
    return 1.0 / __builtin_popcount(o.winners);
}

static int choose(void *vctx, const void *seen, const decision *d, rng *r)
{
    rollout_ctx *c = vctx;
    const game_type *g = c->g;
    int best = 0;
    double best_total = -1;
    for (int a = 0; a < d->n; a++) {
        /* Every action meets the same random sequences (common random numbers), so that the
         * comparison between actions is not drowned in the noise of the dice. */
        rng rr = *r;
        double total = 0;
        for (int p = 0; p < c->playouts; p++) {
            memcpy(c->scratch, seen, g->state_size);
            g->apply(c->scratch, d->action[a], &rr, NULL);
            total += playout(g, c->scratch, d->seat, &rr);
        }
        if (total > best_total) {
            best_total = total;
            best = a;
        }
    }
    rng_next(r); /* move the stream on, so that the next decision sees new sequences */
    return best;
}

static void teardown(void *vctx)
{
    rollout_ctx *c = vctx;
    free(c->scratch);
    c->scratch = NULL;
}

const bot_type bot_rollout = {
    .name = "rollout",
    .doc = "flat Monte Carlo: plays every legal action out at random (playouts each) and keeps "
           "the one that wins most often; any game whose players see everything",
    .params = params,
    .ctx_size = sizeof(rollout_ctx),
    .setup = setup,
    .choose = choose,
    .teardown = teardown,
    .supports = supports,
};
