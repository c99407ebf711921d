/* pig10_ismcts.c — the PIG 10 search bot (seed 003): single-observer information-set Monte
 * Carlo tree search over deals of the unseen cards drawn to agree with what the seat saw
 * (the other players' last plays included), the other seats modelled by the playout policy
 * or searched too, card-margin rewards over a short horizon, and an exact search of
 * two-player endgames once the draw pile is gone. Reads only pig10_view. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/pig10/pig10.h"

/* One node of the tree: the action that leads to it from its parent, played by `mover`. */
typedef struct node {
    int32_t action;
    int parent, child, sibling; /* indices into the pool; -1: none */
    int mover;
    int visits; /* times the node was chosen */
    int avail;  /* times it was legal when its parent was visited (ISMCTS availability) */
    double reward; /* the mover's rewards summed over the visits */
} node;

typedef struct ism_ctx {
    const pig10_rules *rules;
    int iterations, deals, horizon;
    double explore, infer, win;
    bool count_playout, exact, model; /* model: the other seats play the policy in the tree */
    node *pool;          /* iterations + 1 nodes */
    pig10_state *deal;   /* `deals` states (at most one per simulation) */
    pig10_none *none;    /* count's chances, with count_playout */
} ism_ctx;

enum { P_ITER, P_C, P_DEALS, P_HORIZON, P_PLAYOUT, P_INFER, P_WIN, P_EXACT, P_OPPONENTS };

static const bot_param ism_params[] = {
    [P_ITER] = {"iterations", 1000, 1, 1000000, true,
                "simulations per decision, each one path down the tree and a playout"},
    [P_C] = {"c", 0.7, 0, 100, false, "exploration constant of the UCB rule"},
    [P_DEALS] = {"deals", 100, 1, 10000, true,
                 "deals of the unseen cards sampled per decision; the simulations take them "
                 "in turn"},
    [P_HORIZON] = {"horizon", 8, 0, 1000, true,
                   "plays simulated beyond the decision before it is scored by the cards "
                   "won and lost; 0: play to the end"},
    [P_PLAYOUT] = {"playout", 1, 0, 1, true, "policy beyond the tree: 1 count, 0 greedy"},
    [P_INFER] = {"infer", 0.9, 0, 1, false,
                 "trust in the other players' last plays: a deal in which a player who went "
                 "over 10 held a safe card is kept with probability 1-infer, one in which a "
                 "player who missed a PIG 10 could have made it with probability 1-infer/2"},
    [P_WIN] = {"win", 1, 0, 100, false,
               "reward for winning, beside the card margin, when a simulation reaches the end"},
    [P_EXACT] = {"exact", 1, 0, 1, true,
                 "1: search two-player endgames exactly once the draw pile is gone"},
    [P_OPPONENTS] = {"opponents", 1, 0, 1, true,
                     "the other seats' plays in the tree: 1 chosen by the playout policy from "
                     "what they hold in the deal, 0 searched by UCB for their own reward"},
    {NULL, 0, 0, 0, false, NULL},
};

static int ism_setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                     const double *param, char *err, size_t errlen)
{
    (void)seat;
    (void)nseats;
    ism_ctx *c = ctx;
    if (strcmp(g->name, "pig10") != 0) {
        snprintf(err, errlen, "bot 'ismcts' plays only pig10");
        return -1;
    }
    c->rules = rules;
    c->iterations = (int)param[P_ITER];
    c->explore = param[P_C];
    c->deals = (int)param[P_DEALS];
    if (c->deals > c->iterations)
        c->deals = c->iterations; /* a deal no simulation takes is not drawn */
    c->horizon = (int)param[P_HORIZON];
    c->count_playout = param[P_PLAYOUT] != 0;
    c->infer = param[P_INFER];
    c->win = param[P_WIN];
    c->exact = param[P_EXACT] != 0;
    c->model = param[P_OPPONENTS] != 0;
    c->pool = malloc(sizeof *c->pool * (size_t)(c->iterations + 1));
    c->deal = malloc(sizeof *c->deal * (size_t)c->deals);
    if (c->pool == NULL || c->deal == NULL) {
        free(c->pool);
        free(c->deal);
        c->pool = NULL;
        c->deal = NULL;
        snprintf(err, errlen, "bot 'ismcts': out of memory for %d iterations and %d deals",
                 c->iterations, c->deals);
        return -1;
    }
    c->none = c->count_playout ? pig10_none_new(rules) : NULL;
    return 0;
}

static void ism_teardown(void *ctx)
{
    ism_ctx *c = ctx;
    free(c->pool);
    free(c->deal);
    pig10_none_free(c->none);
    c->none = NULL;
    c->pool = NULL;
    c->deal = NULL;
}

/* ---- deals that agree with the other players' last plays --------------------------------- */

/* What the last play of one other seat tells: the table it was played on, whether the player
 * went over (so held no safe card) or at least missed a PIG 10 (so, playing well, held no
 * card that makes 10), and whether he drew a card after it (one card now unconstrained). */
typedef struct clue {
    bool known, over, missed, drew;
    int value, top, table_n;
} clue;

/* Reads the history of v into one clue per seat: each seat's last play and the table before
 * it, replayed from the announced values. */
static void read_clues(const ism_ctx *c, const pig10_view *v, clue *cl)
{
    memset(cl, 0, sizeof(clue) * GAME_MAX_SEATS);
    int in_game = v->pile_left;
    for (int s = 0; s < v->nseats; s++)
        in_game += v->hand_n[s];
    for (int x = 0; x < PIG10_VALUES; x++)
        in_game += v->played[x];
    int draws = in_game - v->nseats * c->rules->hand_size; /* the pile as dealt */
    int value = 0, top = 0, n = 0;
    for (int t = 0; t < v->nplays; t++) {
        const pig10_play *p = &v->history[t];
        clue *k = &cl[p->seat];
        k->known = true;
        k->over = p->value > PIG10_TARGET;
        k->missed = p->value != PIG10_TARGET;
        k->drew = t < draws;
        k->value = value;
        k->top = top;
        k->table_n = n;
        if (p->value >= PIG10_TARGET) {
            n = 0;
        } else {
            n++;
            value = p->value;
        }
        top = p->card;
    }
}

/* How far a dealt hand agrees with a seat's clue: 1 when it fits, less when it contradicts
 * the player's last play (he went over holding a safe card, or missed a PIG 10 he held). */
static double fit(const ism_ctx *c, const clue *k, const uint8_t *hand)
{
    if (!k->known || c->infer == 0)
        return 1.0;
    int safe = 0, hit = 0;
    for (int x = 0; x < PIG10_VALUES; x++) {
        if (hand[x] == 0)
            continue;
        int can = pig10_reach(c->rules, k->value, k->top, k->table_n, x);
        safe += can & PIG10_REACH_SAFE ? hand[x] : 0;
        hit += can & PIG10_REACH_HIT ? hand[x] : 0;
    }
    int free_cards = k->drew ? 1 : 0; /* the card drawn after the play is unconstrained */
    if (k->over && safe > free_cards)
        return 1.0 - c->infer;
    if (k->missed && hit > free_cards)
        return 1.0 - c->infer / 2;
    return 1.0;
}

/* Fills *st with a deal of the unseen cards for v, drawn uniformly and kept with the
 * probability that it fits the clues (up to a bounded number of tries; then the best fit
 * seen). Returns 0, or -1 if v cannot be dealt. */
static int sample_deal(const ism_ctx *c, const pig10_view *v, const clue *cl, rng *r,
                       pig10_state *st)
{
    enum { TRIES = 40 };
    pig10_state best;
    double best_w = -1;
    for (int k = 0; k < TRIES; k++) {
        if (pig10_determinize(st, c->rules, v, r) != 0)
            return -1;
        double w = 1.0;
        for (int s = 0; s < v->nseats; s++)
            if (s != v->seat)
                w *= fit(c, &cl[s], st->hand[s]);
        if (w >= 1.0 || rng_uniform(r) < w)
            return 0;
        if (w > best_w) {
            best_w = w;
            memcpy(&best, st, sizeof best);
        }
    }
    memcpy(st, &best, sizeof best);
    return 0;
}

/* ---- exact two-player endgames ------------------------------------------------------------- */

/* What the end of st is worth to `me`: a win (shared wins in part) far above any margin, then
 * the margin of cards over the best other seat. */
static double final_worth(const pig10_state *st, int me)
{
    outcome o;
    pig10_finish(st, &o, NULL);
    int wins = __builtin_popcount(o.winners), best_other = 0;
    for (int s = 0; s < st->nseats; s++)
        if (s != me && st->collected[s] > best_other)
            best_other = st->collected[s];
    double share = o.winners & (1u << me) ? 1.0 / wins : 0.0;
    return 1000.0 * share + st->collected[me] - best_other;
}

/* Minimax over the rest of a game whose hands are all known: `me` maximizes final_worth, the
 * one other seat still holding cards minimizes it (exact for two players, who share nothing;
 * cautious when seats already out still count in the standings). Alpha-beta pruned. Fills
 * *pick with the index of the best action when st is at `me`'s decision. */
static double solve(const pig10_state *st, int me, double alpha, double beta, int *pick)
{
    decision d;
    if (!pig10_decide(st, &d))
        return final_worth(st, me);
    bool mine = d.seat == me;
    double best = mine ? -INFINITY : INFINITY;
    for (int i = 0; i < d.n; i++) {
        pig10_state next;
        memcpy(&next, st, sizeof next);
        pig10_apply(&next, d.action[i], NULL, NULL);
        double w = solve(&next, me, alpha, beta, NULL);
        if (mine ? w > best : w < best) {
            best = w;
            if (pick)
                *pick = i;
        }
        if (mine)
            alpha = w > alpha ? w : alpha;
        else
            beta = w < beta ? w : beta;
        if (alpha >= beta)
            break;
    }
    return best;
}

/* Whether v is a two-player endgame: no draw pile, and at most one other seat still holding
 * cards, so that the unseen cards are exactly that seat's hand (or none). */
static bool endgame(const pig10_view *v)
{
    if (v->pile_left != 0)
        return false;
    int others = 0;
    for (int s = 0; s < v->nseats; s++)
        others += s != v->seat && v->hand_n[s] > 0;
    return others <= 1;
}

/* ---- the search ----------------------------------------------------------------------------- */

/* The child of node p reached by action a, or -1. */
static int child_of(const node *pool, int p, int32_t a)
{
    for (int k = pool[p].child; k >= 0; k = pool[k].sibling)
        if (pool[k].action == a)
            return k;
    return -1;
}

/* Adds a child of p for action a played by mover; returns its index. */
static int add_child(node *pool, int *used, int p, int32_t a, int mover)
{
    int k = (*used)++;
    pool[k] = (node){.action = a, .parent = p, .child = -1, .sibling = pool[p].child,
                     .mover = mover};
    pool[p].child = k;
    return k;
}

/* The playout policy's choice for the seat to move in st. */
static int playout_pick(const ism_ctx *c, const pig10_state *st, const decision *d)
{
    return pig10_playout_pick(st, c->none, c->count_playout, d);
}

/* Each seat's reward for a simulation that went from `from` to st: cards won since, minus the
 * mean of the others' (scaled by a table's worth, 10 cards), plus `win` times the seat's
 * share of the win if the game ended. */
static void rewards(const ism_ctx *c, const pig10_state *from, const pig10_state *st,
                    double *out)
{
    int n = st->nseats, gain[GAME_MAX_SEATS], sum = 0;
    for (int s = 0; s < n; s++) {
        gain[s] = st->collected[s] - from->collected[s];
        sum += gain[s];
    }
    outcome o;
    int wins = 0;
    if (st->over && c->win > 0) {
        pig10_finish(st, &o, NULL);
        wins = __builtin_popcount(o.winners);
    }
    for (int s = 0; s < n; s++) {
        double others = (double)(sum - gain[s]) / (n - 1);
        out[s] = (gain[s] - others) / 10.0;
        if (wins > 0 && (o.winners & (1u << s)))
            out[s] += c->win / wins;
    }
}

/* One simulation on a copy of deal `base` for the seat `me` to move: down the tree by UCB
 * over the actions legal in this deal (or, with `opponents` 1, the policy's play for the
 * other seats), adding a node for one untried action drawn at random, then the playout
 * policy up to the horizon; every node on the path is credited with its mover's reward. */
static void simulate(const ism_ctx *c, const pig10_state *base, int me, int *used, rng *r)
{
    node *pool = c->pool;
    pig10_state st;
    memcpy(&st, base, sizeof st);
    decision d;
    int at = 0, depth = 0, cap = c->iterations + 1;
    bool in_tree = true;
    while ((c->horizon == 0 || depth < c->horizon) && pig10_decide(&st, &d)) {
        int k = 0;
        if (in_tree && c->model && d.seat != me) {
            /* another seat plays the policy; the tree only follows its play */
            k = d.n == 1 ? 0 : playout_pick(c, &st, &d);
            int ch = child_of(pool, at, d.action[k]);
            if (ch < 0 && *used < cap) {
                ch = add_child(pool, used, at, d.action[k], d.seat);
                in_tree = false;
            }
            if (ch < 0) {
                in_tree = false;
            } else {
                at = ch;
                pool[at].avail++;
            }
        } else if (in_tree) {
            int untried[GAME_MAX_ACTIONS], nu = 0, best = -1;
            double best_ucb = -INFINITY;
            for (int i = 0; i < d.n; i++) {
                int ch = child_of(pool, at, d.action[i]);
                if (ch < 0) {
                    untried[nu++] = i;
                    continue;
                }
                pool[ch].avail++;
                double ucb = pool[ch].reward / pool[ch].visits +
                             c->explore * sqrt(log((double)pool[ch].avail) / pool[ch].visits);
                if (ucb > best_ucb) {
                    best_ucb = ucb;
                    best = ch;
                }
            }
            if (nu > 0 && *used < cap) {
                k = untried[nu == 1 ? 0 : rng_below(r, (uint32_t)nu)];
                at = add_child(pool, used, at, d.action[k], d.seat);
                pool[at].avail++;
                in_tree = false;
            } else if (best >= 0) {
                at = best;
                for (k = 0; d.action[k] != pool[at].action; k++)
                    ;
            } else {
                in_tree = false;
                k = playout_pick(c, &st, &d);
            }
        } else {
            k = d.n == 1 ? 0 : playout_pick(c, &st, &d);
        }
        pig10_apply(&st, d.action[k], NULL, NULL);
        depth++;
    }
    double rw[GAME_MAX_SEATS];
    rewards(c, base, &st, rw);
    for (int p = at; p > 0; p = pool[p].parent) {
        pool[p].visits++;
        pool[p].reward += rw[pool[p].mover];
    }
    pool[0].visits++;
}

static int ism_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    const ism_ctx *c = ctx;
    const pig10_view *v = seen;
    if (d->n == 1)
        return 0;
    if (c->exact && endgame(v)) {
        pig10_state st;
        if (pig10_determinize(&st, c->rules, v, r) == 0) {
            int pick = 0;
            solve(&st, v->seat, -INFINITY, INFINITY, &pick);
            return pick;
        }
    }
    clue cl[GAME_MAX_SEATS];
    read_clues(c, v, cl);
    int ndeals = c->deals;
    for (int k = 0; k < ndeals; k++)
        if (sample_deal(c, v, cl, r, &c->deal[k]) != 0)
            return 0; /* a game not dealt from the ruleset's deck: nothing to sample */
    int used = 1;
    c->pool[0] = (node){.action = -1, .parent = -1, .child = -1, .sibling = -1, .mover = -1};
    for (int i = 0; i < c->iterations; i++)
        simulate(c, &c->deal[i % ndeals], v->seat, &used, r);
    /* the most visited play; among equals the better mean, then the first listed */
    int best = 0, best_visits = -1;
    double best_mean = -INFINITY;
    for (int i = 0; i < d->n; i++) {
        int ch = child_of(c->pool, 0, d->action[i]);
        int visits = ch < 0 ? 0 : c->pool[ch].visits;
        double mean = visits ? c->pool[ch].reward / visits : -INFINITY;
        if (visits > best_visits || (visits == best_visits && mean > best_mean)) {
            best = i;
            best_visits = visits;
            best_mean = mean;
        }
    }
    return best;
}

const bot_type bot_pig10_ismcts = {
    .name = "ismcts",
    .doc = "information-set Monte Carlo tree search: deals the unseen cards consistently "
           "with what the seat saw (a player who went over 10 held no safe card), searches "
           "its own plays with UCB over a tree shared by the deals (the other seats play the "
           "count policy, or with opponents=0 are searched too), scores the card margin won "
           "over a short horizon, and searches two-player endgames exactly once the draw pile "
           "is gone",
    .params = ism_params,
    .ctx_size = sizeof(ism_ctx),
    .setup = ism_setup,
    .choose = ism_choose,
    .teardown = ism_teardown,
};
