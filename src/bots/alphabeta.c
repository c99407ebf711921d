/* alphabeta.c — the generic `alphabeta` bot: negamax alpha-beta search with iterative
 * deepening, a transposition table (game_type.hash) and move ordering (table move, the game's
 * order hints, history), for deterministic two-player games of perfect information that
 * offer an evaluation (game_type.evaluate). */
#include "bots/alphabeta.h"

#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/xalloc.h"

enum {
    MAX_PLY = 128,   /* positions on the search stack: depth plus forced-move extensions */
    MAX_DEPTH = 64,  /* the largest `depth` parameter */
    HIST_BITS = 10,  /* history table: 2^HIST_BITS counters per seat */
    GEN_BITS = 14,   /* table generations before the table is wiped (see choose) */
    NO_MOVE = 0xff,  /* a table entry without a best move */
};

/* Scores. A win at ply p (p actions below the root) is WIN - p, so that faster wins and
 * slower losses are preferred; anything beyond WIN - MAX_PLY is a proven result. */
#define WIN (2 * GAME_EVAL_MAX)
#define INF (WIN + 1000)
#define PROVEN (WIN - MAX_PLY)

enum { BOUND_EXACT = 1, BOUND_LOWER = 2, BOUND_UPPER = 3 };

/* One transposition-table entry (16 bytes). genflag = generation << 2 | bound. The best
 * move is an index into the position's decision: decide() lists a position's actions in
 * one fixed order, so an index names the same action whenever the key matches. */
typedef struct tt_entry {
    uint64_t key;
    int32_t value; /* as seen from the node: proven results count plies from it */
    uint16_t genflag;
    uint8_t move;
    uint8_t depth;
} tt_entry;

typedef struct ab_ctx {
    const game_type *g;
    int depth;        /* iterations 1..depth */
    uint64_t budget;  /* nodes per decision; 0 = none */
    tt_entry *tt;     /* NULL when the game has no hash or tt = 0 */
    uint64_t tt_mask;
    unsigned gen;     /* the current decision's generation, 1 .. 2^GEN_BITS - 1 */
    size_t stride;    /* bytes per stacked state */
    unsigned char *stack;      /* MAX_PLY states: the position at each ply */
    decision *dec;             /* MAX_PLY decisions */
    int64_t *keys;             /* MAX_PLY x GAME_MAX_ACTIONS ordering keys */
    int32_t *hints;            /* GAME_MAX_ACTIONS scratch for game_type.order */
    int32_t hist[2][1 << HIST_BITS];
    int iter;         /* the iteration running */
    bool stop;        /* the budget ran out: unwind and forget the iteration */
    rng none;         /* placeholder: a deterministic game never draws from it */
    alphabeta_stats last;
} ab_ctx;

static const bot_param params[] = {
    {"depth", 8, 1, MAX_DEPTH, true,
     "iterations of deepening: the search looks this many choices ahead (forced moves, with "
     "a single legal action, are not counted)"},
    {"nodes", 0, 0, 1e12, true,
     "node budget per decision (0: none); when it runs out, the best move of the last "
     "completed iteration is played (the first iteration always completes)"},
    {"tt", 18, 0, 24, true,
     "transposition table of 2^tt entries of 16 bytes (0: no table)"},
    {NULL, 0, 0, 0, false, NULL},
};

static bool supports(const game_type *g)
{
    return g->deterministic && g->view_size == 0 && g->evaluate != NULL;
}

static void teardown(void *vctx);

static int setup(void *vctx, const game_type *g, const void *rules, int seat, int nseats,
                 const double *param, char *err, size_t errlen)
{
    (void)rules;
    (void)seat;
    ab_ctx *c = vctx;
    if (g->view_size != 0 || !g->deterministic) {
        snprintf(err, errlen, "bot 'alphabeta' needs a game without chance or hidden "
                 "information, not %s", g->name);
        return -1;
    }
    if (g->evaluate == NULL) {
        snprintf(err, errlen, "bot 'alphabeta': %s offers no evaluation to search with",
                 g->name);
        return -1;
    }
    if (nseats != 2) {
        snprintf(err, errlen, "bot 'alphabeta' plays two-player games only (%d players)",
                 nseats);
        return -1;
    }
    memset(c, 0, sizeof *c);
    c->g = g;
    c->depth = (int)param[0];
    c->budget = (uint64_t)param[1];
    int bits = (int)param[2];
    c->stride = (g->state_size + 15) / 16 * 16;
    c->stack = malloc(c->stride * MAX_PLY);
    c->dec = malloc(sizeof *c->dec * MAX_PLY);
    c->keys = malloc(sizeof *c->keys * MAX_PLY * GAME_MAX_ACTIONS);
    c->hints = malloc(sizeof *c->hints * GAME_MAX_ACTIONS);
    if (g->hash && bits > 0) {
        c->tt = calloc((size_t)1 << bits, sizeof *c->tt);
        c->tt_mask = ((uint64_t)1 << bits) - 1;
    }
    if (!c->stack || !c->dec || !c->keys || !c->hints || (g->hash && bits > 0 && !c->tt)) {
        /* out of memory is exit 5 (xalloc.h), not a bot that failed to set up */
        char what[64];
        snprintf(what, sizeof what, "bot 'alphabeta' tt=%d: try a smaller tt", bits);
        xalloc_fail(what);
    }
    rng_seed(&c->none, 0);
    return 0;
}

static void teardown(void *vctx)
{
    ab_ctx *c = vctx;
    free(c->stack);
    free(c->dec);
    free(c->keys);
    free(c->hints);
    free(c->tt);
    memset(c, 0, sizeof *c);
}

void alphabeta_last(const void *ctx, alphabeta_stats *out)
{
    *out = ((const ab_ctx *)ctx)->last;
}

/* ---- scoring ------------------------------------------------------------------------- */

/* The value for seat `me` of the finished position st, reached `ply` actions below the
 * root: a win alone is a win, a shared win or no winner is a draw. */
static int32_t terminal(const ab_ctx *c, const void *st, int me, int ply)
{
    outcome o;
    memset(&o, 0, sizeof o);
    o.nseats = 2;
    c->g->finish(st, &o, NULL);
    uint32_t both = o.winners & 3u, mine = 1u << me;
    if (both == mine)
        return WIN - ply;
    if (both == (3u ^ mine))
        return -(WIN - ply);
    return 0;
}

static int32_t evaluate(const ab_ctx *c, const void *st, int seat)
{
    int32_t v = c->g->evaluate(st, seat);
    return v > GAME_EVAL_MAX ? GAME_EVAL_MAX : v < -GAME_EVAL_MAX ? -GAME_EVAL_MAX : v;
}

/* Proven results are stored relative to the node and read back relative to the root. */
static int32_t to_tt(int32_t v, int ply)
{
    return v > PROVEN ? v + ply : v < -PROVEN ? v - ply : v;
}

static int32_t from_tt(int32_t v, int ply)
{
    return v > PROVEN ? v - ply : v < -PROVEN ? v + ply : v;
}

static unsigned hist_slot(int32_t action)
{
    return ((uint32_t)action * 0x9e3779b1u) >> (32 - HIST_BITS);
}

/* ---- search -------------------------------------------------------------------------- */

static int32_t search(ab_ctx *c, int ply, int depth, int32_t alpha, int32_t beta,
                      uint64_t key);

/* The value for seat `me` of the position at `ply` (just reached), searched `depth` choices
 * deep within (alpha, beta) as seen by `me`. The seat to move comes from decide(): when it
 * is the other seat, its value and window are negated (no strict alternation assumed). */
static int32_t node(ab_ctx *c, int ply, int depth, int32_t alpha, int32_t beta, int me)
{
    const void *st = c->stack + (size_t)ply * c->stride;
    decision *d = &c->dec[ply];
    uint64_t key = 0;
    if (c->tt && depth > 0) {
        /* The table entry is fetched from memory while decide() lists the moves. */
        key = c->g->hash(st);
        __builtin_prefetch(&c->tt[key & c->tt_mask]);
    }
    if (!c->g->decide(st, d))
        return terminal(c, st, me, ply);
    if (d->seat == me)
        return search(c, ply, depth, alpha, beta, key);
    return -search(c, ply, depth, -beta, -alpha, key);
}

/* Picks the next action to try at a node: the highest key among keys[from..n-1], moved to
 * position `from` together with its index (selection sort, done lazily because a cut-off
 * usually comes after the first few moves). Ties keep the listed order. */
static int next_move(int64_t *keys, uint8_t *idx, int from, int n)
{
    int best = from;
    for (int i = from + 1; i < n; i++)
        if (keys[i] > keys[best])
            best = i;
    int64_t k = keys[best];
    uint8_t m = idx[best];
    memmove(keys + from + 1, keys + from, sizeof *keys * (size_t)(best - from));
    memmove(idx + from + 1, idx + from, sizeof *idx * (size_t)(best - from));
    keys[from] = k;
    idx[from] = m;
    return m;
}

/* Fills keys[i] (and idx[i] = i) for the actions of d: the table move first, then by the
 * game's hint, then by the history counter of the action. */
static void order_keys(ab_ctx *c, const void *st, const decision *d, int ttmove, int64_t *keys,
                       uint8_t *idx)
{
    const int32_t *hist = c->hist[d->seat & 1];
    if (c->g->order)
        c->g->order(st, d, c->hints);
    for (int i = 0; i < d->n; i++) {
        int64_t hint = c->g->order ? c->hints[i] : 0;
        keys[i] = hint * ((int64_t)1 << 32) + hist[hist_slot(d->action[i])];
        idx[i] = (uint8_t)i;
    }
    if (ttmove >= 0)
        keys[ttmove] = INT64_MAX;
}

/* Negamax: the value for the seat to move at `ply` (its decision already in dec[ply]) of
 * the position there, fail-soft within (alpha, beta). key: the position's hash when there is
 * a table and depth > 0. */
static int32_t search(ab_ctx *c, int ply, int depth, int32_t alpha, int32_t beta,
                      uint64_t key)
{
    const game_type *g = c->g;
    unsigned char *st = c->stack + (size_t)ply * c->stride;
    const decision *d = &c->dec[ply];
    if (depth <= 0 || ply + 1 >= MAX_PLY)
        return evaluate(c, st, d->seat);

    int ttmove = -1;
    tt_entry *e = NULL;
    if (c->tt) {
        e = &c->tt[key & c->tt_mask];
        if (e->key == key && e->genflag >> 2 == c->gen) {
            if (e->move < d->n)
                ttmove = e->move;
            if (e->depth >= depth) {
                int32_t v = from_tt(e->value, ply);
                int bound = e->genflag & 3;
                if (bound == BOUND_EXACT || (bound == BOUND_LOWER && v >= beta) ||
                    (bound == BOUND_UPPER && v <= alpha))
                    return v;
            }
        }
    }

    int64_t *keys = c->keys + (size_t)ply * GAME_MAX_ACTIONS;
    uint8_t idx[GAME_MAX_ACTIONS];
    /* The table's move is tried before the others are ordered: when it cuts off, as it
     * mostly does, the game's hints are never asked for. */
    bool ordered = ttmove < 0;
    if (ordered)
        order_keys(c, st, d, ttmove, keys, idx);
    /* A forced move costs no depth: the choice that follows it is searched as deep. */
    int child_depth = d->n > 1 ? depth - 1 : depth;
    int32_t alpha0 = alpha, best = -INF;
    int bestmove = -1;
    unsigned char *child = st + c->stride;
    for (int k = 0; k < d->n; k++) {
        if (c->budget && c->iter > 1 && c->last.nodes >= c->budget) {
            c->stop = true;
            return 0;
        }
        int i = ttmove;
        if (k > 0 || ttmove < 0) {
            if (!ordered) {
                order_keys(c, st, d, ttmove, keys, idx);
                next_move(keys, idx, 0, d->n); /* the table's move, already searched */
                ordered = true;
            }
            i = next_move(keys, idx, k, d->n);
        }
        memcpy(child, st, g->state_size);
        g->apply(child, d->action[i], &c->none, NULL);
        c->last.nodes++;
        int32_t v;
        if (k == 0) {
            v = node(c, ply + 1, child_depth, alpha, beta, d->seat);
        } else {
            /* Principal variation search: a later move is first only tested against the
             * best so far (a null window, cheap), and searched fully if it beats it. */
            v = node(c, ply + 1, child_depth, alpha, alpha + 1, d->seat);
            if (v > alpha && v < beta && !c->stop)
                v = node(c, ply + 1, child_depth, alpha, beta, d->seat);
        }
        if (c->stop)
            return 0;
        if (v > best) {
            best = v;
            bestmove = i;
            if (v > alpha) {
                alpha = v;
                if (v >= beta) {
                    int32_t *h = &c->hist[d->seat & 1][hist_slot(d->action[i])];
                    *h += depth * depth;
                    if (*h > (1 << 30))
                        *h = 1 << 30;
                    break;
                }
            }
        }
    }

    if (e && (e->genflag >> 2 != c->gen || depth >= e->depth || e->key == key)) {
        e->key = key;
        e->value = to_tt(best, ply);
        e->depth = (uint8_t)depth;
        e->move = best <= alpha0 ? NO_MOVE : (uint8_t)bestmove;
        int bound = best <= alpha0 ? BOUND_UPPER : best >= beta ? BOUND_LOWER : BOUND_EXACT;
        e->genflag = (uint16_t)(c->gen << 2 | (unsigned)bound);
    }
    return best;
}

/* ---- the decision -------------------------------------------------------------------- */

static int choose(void *vctx, const void *seen, const decision *d, rng *r)
{
    ab_ctx *c = vctx;
    const game_type *g = c->g;
    memset(&c->last, 0, sizeof c->last);
    if (d->n == 1)
        return 0;

    /* Every decision is searched afresh: the table's entries of earlier decisions are
     * ignored (their generation differs) and the history is cleared, so a choice depends on
     * the position and the seat's stream alone, never on what the context searched before
     * (the thread count must not change a run). The table is wiped when generations wrap. */
    if (++c->gen >= 1u << GEN_BITS) {
        c->gen = 1;
        if (c->tt)
            memset(c->tt, 0, sizeof *c->tt * (c->tt_mask + 1));
    }
    memset(c->hist, 0, sizeof c->hist);
    c->stop = false;
    memcpy(c->stack, seen, g->state_size);
    c->dec[0] = *d;

    /* Root moves in search order: first by the game's hints, then by the last iteration's
     * values (stable, so that earlier order breaks ties). */
    uint8_t order[GAME_MAX_ACTIONS], ties[GAME_MAX_ACTIONS], done[GAME_MAX_ACTIONS];
    int32_t score[GAME_MAX_ACTIONS];
    int64_t *keys = c->keys;
    order_keys(c, seen, d, -1, keys, order);
    for (int k = 0; k < d->n; k++)
        next_move(keys, order, k, d->n);
    int ndone = 0;
    int32_t done_value = 0;
    unsigned char *child = c->stack + c->stride;

    for (c->iter = 1; c->iter <= c->depth; c->iter++) {
        int nties = 0;
        int32_t bestv = -INF;
        for (int k = 0; k < d->n; k++) {
            if (c->budget && c->iter > 1 && c->last.nodes >= c->budget) {
                c->stop = true;
                break;
            }
            int i = order[k];
            memcpy(child, seen, g->state_size);
            g->apply(child, d->action[i], &c->none, NULL);
            c->last.nodes++;
            /* Below the best value so far by one, so that a move as good as the best comes
             * back with its exact value: equal best moves are then known, and the seat's
             * stream picks among them. */
            int32_t lo = nties ? bestv - 1 : -INF;
            int32_t v = node(c, 1, c->iter - 1, lo, INF, d->seat);
            if (c->stop)
                break;
            score[i] = v;
            if (v > bestv) {
                bestv = v;
                nties = 0;
            }
            if (v == bestv)
                ties[nties++] = (uint8_t)i;
        }
        if (c->stop)
            break;
        memcpy(done, ties, (size_t)nties);
        ndone = nties;
        done_value = bestv;
        c->last.depth = c->iter;
        if (bestv > PROVEN || bestv < -PROVEN)
            break; /* a proven result: deeper iterations find the same */
        /* Stable insertion sort of the root moves by this iteration's values. */
        for (int k = 1; k < d->n; k++) {
            uint8_t m = order[k];
            int j = k;
            for (; j > 0 && score[order[j - 1]] < score[m]; j--)
                order[j] = order[j - 1];
            order[j] = m;
        }
    }
    c->last.value = done_value;
    /* done[] lists the equal best moves in search order, which depends on the position
     * alone; put them in listed order so that the draw below is easy to reason about. */
    for (int k = 1; k < ndone; k++) {
        uint8_t m = done[k];
        int j = k;
        for (; j > 0 && done[j - 1] > m; j--)
            done[j] = done[j - 1];
        done[j] = m;
    }
    return ndone > 1 ? done[rng_below(r, (uint32_t)ndone)] : done[0];
}

const bot_type bot_alphabeta = {
    .name = "alphabeta",
    .doc = "negamax alpha-beta search with iterative deepening, a transposition table and "
           "move ordering, to the game's evaluation; two-player games without chance or "
           "hidden information that offer one",
    .params = params,
    .ctx_size = sizeof(ab_ctx),
    .setup = setup,
    .choose = choose,
    .teardown = teardown,
    .supports = supports,
};
