/* population.c — the seat of a population (config/population.h): each game it draws its
 * player, a member and that member's knob values, from the run's seed, the game's index and
 * the seat (stream RNG_STREAM_POP), and passes every hook on to that member's bot.
 *
 * One context per member is set up with the seat (so a bad member fails at setup, with the
 * runner's one-line message); a member whose knobs are drawn is set up again whenever its
 * values change, a fresh context introduced to the old one through the bot's peer hook, so
 * that tables derived from the rules alone are copied rather than made again. */
#include "bots/population.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "config/population.h"
#include "core/xalloc.h"

/* ---- drawing a seat's player --------------------------------------------------------------- */

/* Index of the entry of cum[0..n-1] (cumulative weights) that u in [0, 1) falls in. */
static int pick(const double *cum, int n, double u)
{
    double x = u * cum[n - 1];
    int i = 0;
    while (i < n - 1 && x >= cum[i])
        i++;
    return i;
}

/* A uniform number in (0, 1): never 0 or 1, so the normal's inverse CDF stays finite. */
static double open_uniform(rng *r)
{
    return ((double)(rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

static double draw_knob(const pop_knob *k, const bot_param *p, rng *r)
{
    switch (k->dist) {
    case POP_FIXED:
        return k->a;
    case POP_UNIFORM:
        if (p->integer) {
            double lo = ceil(k->a), span = floor(k->b) - lo + 1;
            return lo + (double)rng_below(r, (uint32_t)span);
        }
        return k->a + (k->b - k->a) * rng_uniform(r);
    case POP_NORMAL: {
        double v = k->a + k->b * gsl_cdf_ugaussian_Pinv(open_uniform(r));
        if (p->integer)
            v = floor(v + 0.5);
        double lo = p->integer ? ceil(k->lo) : k->lo, hi = p->integer ? floor(k->hi) : k->hi;
        return v < lo ? lo : v > hi ? hi : v;
    }
    case POP_CHOICE:
        return k->value[pick(k->cum, k->nchoice, rng_uniform(r))];
    }
    return k->a;
}

int population_draw(const population *p, rng *r, double *param)
{
    int m = p->nmembers > 1 ? pick(p->cum, p->nmembers, rng_uniform(r)) : 0;
    const pop_member *mb = &p->member[m];
    memcpy(param, mb->spec.param, sizeof mb->spec.param);
    for (int j = 0; mb->drawn && j < mb->nparams; j++)
        param[j] = draw_knob(&mb->knob[j], &mb->spec.bot->params[j], r);
    return m;
}

typedef struct pop_ctx {
    const population *pop;
    const game_type *g;
    const void *rules;
    int seat, nseats;
    int cur; /* the member playing the current game (0 before any game began) */
    void *ctx[POP_MAX_MEMBERS];
    double param[POP_MAX_MEMBERS][BOT_MAX_PARAMS]; /* the values ctx[m] was set up with */
} pop_ctx;

static bool plain; /* bot_population_plain */

void bot_population_plain(bool on)
{
    plain = on;
}

static void bind(void *vctx, const seat_spec *spec)
{
    ((pop_ctx *)vctx)->pop = spec->pop;
}

/* Sets up member m's context afresh with values param; the old context (if any) is its
 * peer, then torn down. Returns 0 or -1 with err. */
static int member_setup(pop_ctx *c, int m, const double *param, char *err, size_t errlen)
{
    const bot_type *b = c->pop->member[m].spec.bot;
    void *old = c->ctx[m];
    void *fresh = xcalloc_lines(1, b->ctx_size ? b->ctx_size : 1);
    if (b->peer) {
        const void *earlier = old;
        for (int j = m - 1; earlier == NULL && j >= 0; j--) /* bot_type.peer: same hook */
            if (c->ctx[j] && c->pop->member[j].spec.bot->peer == b->peer)
                earlier = c->ctx[j];
        if (earlier)
            b->peer(fresh, earlier);
    }
    if (b->bind)
        b->bind(fresh, &c->pop->member[m].spec);
    if (b->setup && b->setup(fresh, c->g, c->rules, c->seat, c->nseats, param, err, errlen)) {
        free(fresh);
        return -1;
    }
    if (old) {
        if (b->teardown)
            b->teardown(old);
        free(old);
    }
    c->ctx[m] = fresh;
    memcpy(c->param[m], param, sizeof c->param[m]);
    return 0;
}

static void teardown(void *vctx)
{
    pop_ctx *c = vctx;
    for (int m = 0; c->pop && m < c->pop->nmembers; m++) {
        if (c->ctx[m] == NULL)
            continue;
        if (c->pop->member[m].spec.bot->teardown)
            c->pop->member[m].spec.bot->teardown(c->ctx[m]);
        free(c->ctx[m]);
        c->ctx[m] = NULL;
    }
}

static int setup(void *vctx, const game_type *g, const void *rules, int seat, int nseats,
                 const double *param, char *err, size_t errlen)
{
    (void)param;
    pop_ctx *c = vctx;
    if (c->pop == NULL)
        return snprintf(err, errlen, "bot 'pop': no population bound to seat %d", seat + 1), -1;
    c->g = g;
    c->rules = rules;
    c->seat = seat;
    c->nseats = nseats;
    c->cur = 0;
    for (int m = 0; m < c->pop->nmembers; m++) {
        char e2[400];
        if (member_setup(c, m, c->pop->member[m].spec.param, e2, sizeof e2) != 0) {
            snprintf(err, errlen, "population '%s', type '%s': %s", c->pop->name,
                     c->pop->member[m].type, e2);
            teardown(c);
            return -1;
        }
    }
    return 0;
}

static void game_begin(void *vctx, const bot_game *game, const void *seen)
{
    pop_ctx *c = vctx;
    rng r;
    rng_seed_stream(&r, game->seed, game->index, RNG_STREAM_POP(c->seat));
    double param[BOT_MAX_PARAMS];
    int m = population_draw(c->pop, &r, param);
    c->cur = m;
    const pop_member *mb = &c->pop->member[m];
    if (mb->drawn && memcmp(param, c->param[m], sizeof param) != 0) {
        char err[400];
        const bot_type *mbot = mb->spec.bot;
        if (!plain && mbot->retune && mbot->retune(c->ctx[m], param) == 0) {
            memcpy(c->param[m], param, sizeof param);
        } else if (member_setup(c, m, param, err, sizeof err) != 0) {
            /* setup passed with the member's base values; another draw failing is a bot's
             * fault that no partial result could survive */
            fprintf(stderr, "giochi-sim: population '%s', type '%s', game %llu: %s\n",
                    c->pop->name, mb->type, (unsigned long long)game->index, err);
            exit(4);
        }
    }
    const bot_type *b = mb->spec.bot;
    if (b->begin)
        b->begin(c->ctx[m], seen);
    if (b->game_begin)
        b->game_begin(c->ctx[m], game, seen);
}

static int choose(void *vctx, const void *seen, const decision *d, rng *r)
{
    pop_ctx *c = vctx;
    return c->pop->member[c->cur].spec.bot->choose(c->ctx[c->cur], seen, d, r);
}

static void game_end(void *vctx, const bot_game *game, const outcome *o)
{
    pop_ctx *c = vctx;
    const bot_type *b = c->pop->member[c->cur].spec.bot;
    if (b->game_end)
        b->game_end(c->ctx[c->cur], game, o);
}

static int member(const void *vctx)
{
    return ((const pop_ctx *)vctx)->cur;
}

const bot_type bot_population = {
    .name = "pop",
    .doc = "a player drawn each game from a population (pop:NAME or pop:FILE; giochi-sim(1), "
           "POPULATIONS)",
    .ctx_size = sizeof(pop_ctx),
    .bind = bind,
    .setup = setup,
    .choose = choose,
    .teardown = teardown,
    .game_begin = game_begin,
    .game_end = game_end,
    .member = member,
};
