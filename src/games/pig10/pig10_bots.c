/* pig10_bots.c — the PIG 10 bots (seed 003): greedy, count (card counting against the next
 * player) and mc (determinized Monte Carlo). All of them read only the seat's pig10_view. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/pig10/pig10.h"
#include "core/registry.h"
#include "core/xalloc.h"

/* How much a card is worth keeping for later: the frog and the siren can always be played
 * without going over, a 10 takes any table the frog has just reset or an empty one. */
static const int keep_values[PIG10_VALUES] = {[PIG10_FROG] = 3, [PIG10_SIREN] = 3,
                                              [PIG10_TARGET] = 1};

static int keep_value(int card)
{
    return keep_values[card];
}

/* ---- greedy ------------------------------------------------------------------------------ */

/* Greedy's score of action a on a table of value `value` holding table_n cards (higher is
 * better): take the table if possible, otherwise stay at or under 10, otherwise (and among
 * equals) play the card least worth keeping, leaving the lowest value. */
static inline int greedy_score(int value, int table_n, int32_t a)
{
    int card = PIG10_CARD(a), keep = keep_value(card);
    int to = pig10_result(value, table_n, card, PIG10_MODE(a));
    int band = to == PIG10_TARGET ? 1000000 : to > PIG10_TARGET ? -1000000 : -100 * keep - to;
    return to < PIG10_TARGET ? band : band - keep;
}

/* Greedy's choice in d on a table of value `value` holding table_n cards: the index of the
 * first action of the best score. */
static int greedy_pick(int value, int table_n, const decision *d)
{
    int best = 0, best_score = greedy_score(value, table_n, d->action[0]);
    for (int i = 1; i < d->n; i++) {
        int sc = greedy_score(value, table_n, d->action[i]);
        if (sc > best_score) {
            best = i;
            best_score = sc;
        }
    }
    return best;
}

/* The index of greedy's choice in d (contract in pig10.h). */
int pig10_greedy_pick(const pig10_view *v, const decision *d)
{
    return greedy_pick(v->value, v->table_n, d);
}

static int greedy_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)ctx;
    (void)r;
    return pig10_greedy_pick(seen, d);
}

const bot_type bot_pig10_greedy = {
    .name = "greedy",
    .doc = "takes the table when it can reach exactly 10, otherwise avoids going over 10, "
           "otherwise plays the card least worth keeping (frogs and sirens are kept)",
    .params = NULL,
    .ctx_size = 0,
    .setup = NULL,
    .choose = greedy_choose,
    .no_draws = true,
    .teardown = NULL,
};

/* ---- count ------------------------------------------------------------------------------- */

/* Probability that h cards drawn without replacement from u cards include none of the m
 * marked ones (m <= u). */
static double none_of(int u, int m, int h)
{
    double p = 1.0;
    for (int i = 0; i < h; i++) {
        if (u - i <= 0)
            return p;
        p *= (double)(u - m - i) / (double)(u - i);
        if (p <= 0.0)
            return 0.0;
    }
    return p;
}

/* ---- fast path and reference: the table of none_of and none_of itself. They give the same
 * doubles (the same loop), kept equal by the unit test
 * pig10_count_pick_same_from_view_state_and_plain_way (count with a table, without one, and
 * the test's own plain way). The table saves count a few divisions per option. ---------- */

/* none_of(u, m, h) for every hand of h = 1..hmax cards and 0 <= m <= u <= umax, worked out
 * once per bot context from its ruleset (pig10_none_new), then only read: cell[h - 1] holds
 * row u from u (u + 1) / 2 on. */
struct pig10_none {
    int umax, hmax;
    size_t cells; /* per hand size: (umax + 1) (umax + 2) / 2 */
    double cell[];
};

pig10_none *pig10_none_new(const pig10_rules *rules)
{
    int umax = rules->total, hmax = rules->hand_size;
    size_t cells = (size_t)(umax + 1) * (size_t)(umax + 2) / 2;
    pig10_none *t = xmalloc(sizeof *t + (size_t)hmax * cells * sizeof t->cell[0]);
    t->umax = umax;
    t->hmax = hmax;
    t->cells = cells;
    for (int h = 1; h <= hmax; h++)
        for (int u = 0; u <= umax; u++)
            for (int m = 0; m <= u; m++)
                t->cell[(size_t)(h - 1) * cells + (size_t)(u * (u + 1) / 2 + m)] =
                    none_of(u, m, h);
    return t;
}

void pig10_none_free(pig10_none *t)
{
    free(t);
}

/* The probabilities none_of(u, m, h) for m = 0..u: the row of t if it holds it, else (no
 * table, or a count off the ruleset's) worked out into buf, which has room for u + 1. */
static const double *none_row(const pig10_none *t, int u, int h, double *buf)
{
    if (t != NULL && u <= t->umax && h <= t->hmax)
        return t->cell + (size_t)(h - 1) * t->cells + (size_t)(u * (u + 1) / 2);
    for (int m = 0; m <= u; m++)
        buf[m] = none_of(u, m, h);
    return buf;
}

/* What count's scores share at one decision, worked out once: the table, the cards the seat
 * has not seen, and the next player's hand. */
typedef struct count_env {
    const pig10_rules *rules;
    int value, table_n; /* the table */
    uint64_t unseen[2]; /* unseen cards of each value, one byte each (pig10_count_bytes) */
    int u;              /* their number */
    int h;              /* cards in the next player's hand; 0: no other seat holds cards */
    const double *none; /* none[m]: none_of(u, m, h), when h > 0 */
    double row[PIG10_MAX_CARDS + 1]; /* none's cells when no table holds them */
    bool mine;          /* whether the table comes to the seat if the next player goes over */
} count_env;

/* Fills e, with the chances of `table` (NULL: worked out as needed), for `seat` of nseats
 * holding hand[] (counts by value), hand_n[] cards in each hand, with played[] cards of
 * each value played, on a table of `value` holding table_n cards, under rules. The counts of a game dealt from rules' deck are never negative, so the bytes
 * subtract without borrowing. */
static void count_env_init(count_env *e, const pig10_rules *rules, const pig10_none *table,
                           int seat, int nseats, const uint8_t *hand, const int *hand_n,
                           const uint8_t *played, int value, int table_n)
{
    uint64_t deck_b[2], played_b[2], hand_b[2];
    pig10_count_bytes(rules->deck_bytes, deck_b);
    pig10_count_bytes(played, played_b);
    pig10_count_bytes(hand, hand_b);
    e->rules = rules;
    e->value = value;
    e->table_n = table_n;
    e->unseen[0] = deck_b[0] - played_b[0] - hand_b[0];
    e->unseen[1] = deck_b[1] - played_b[1] - hand_b[1];
    e->u = pig10_sum_bytes(e->unseen[0]) + pig10_sum_bytes(e->unseen[1]);
    /* the next seat clockwise with cards, this one only as the last resort */
    int next = seat;
    for (int k = 1; k < nseats; k++) {
        int s = seat + k < nseats ? seat + k : seat + k - nseats;
        if (hand_n[s] > 0) {
            next = s;
            break;
        }
    }
    e->h = next == seat ? 0 : hand_n[next];
    if (e->u > PIG10_MAX_CARDS || e->h > PIG10_MAX_HAND)
        e->h = 0; /* not a game of rules: no estimate, rather than a read out of bounds */
    e->none = e->h > 0 ? none_row(table, e->u, e->h, e->row) : NULL;
    e->mine = (next > 0 ? next - 1 : nseats - 1) == seat; /* who gets an over-10 table */
}

/* Expected cards won by the seat from the next player's reply when it leaves value w, top
 * card c and n cards on the table: minus the chance the next player holds a card that makes
 * 10 times what he takes, plus the chance all his cards go over when the table then comes to
 * this seat. The next hand is modelled as a uniform draw from the cards this seat has not
 * seen: the unseen counts summed over the cards that hit, or stay safe, on that table. */
static double reply_value(const count_env *e, int c, int w, int n)
{
    if (e->h == 0)
        return 0.0;
    const uint64_t *hit = e->rules->hit_bytes[w][c], *safe = e->rules->safe_bytes[w][c];
    int hits = pig10_sum_bytes(e->unseen[0] & hit[0]) + pig10_sum_bytes(e->unseen[1] & hit[1]);
    double p_hit = 1.0 - e->none[hits];
    if (!e->mine)
        return -p_hit * (n + 1) + 0.0;
    int safes = pig10_sum_bytes(e->unseen[0] & safe[0]) + pig10_sum_bytes(e->unseen[1] & safe[1]);
    double p_over = e->none[safes];
    return -p_hit * (n + 1) + p_over * (n + 1);
}

/* Count's score of action a: cards taken now (or minus cards given away), plus the expected
 * result of the next player's reply, minus a little for spending a card worth keeping. */
static double count_score(const count_env *e, int32_t a)
{
    int card = PIG10_CARD(a), n = e->table_n + 1;
    int to = pig10_result(e->value, e->table_n, card, PIG10_MODE(a));
    double keep = 0.01 * keep_value(card);
    if (to == PIG10_TARGET)
        return n - keep;
    if (to > PIG10_TARGET)
        return -n - keep;
    return reply_value(e, card, to, n) - keep;
}

/* Count's choice in d for the seat of e: the index of the first action of the best score. */
static int count_pick(const count_env *e, const decision *d)
{
    int best = 0;
    double best_score = count_score(e, d->action[0]);
    for (int i = 1; i < d->n; i++) {
        double sc = count_score(e, d->action[i]);
        if (sc > best_score) {
            best = i;
            best_score = sc;
        }
    }
    return best;
}

/* The index of count's choice in d (contract in pig10.h). */
int pig10_count_pick(const pig10_rules *rules, const pig10_none *table, const pig10_view *v,
                     const decision *d)
{
    if (d->n == 1)
        return 0;
    count_env e;
    count_env_init(&e, rules, table, v->seat, v->nseats, v->hand, v->hand_n, v->played,
                   v->value, v->table_n);
    return count_pick(&e, d);
}

/* The playout policy's choice in d for the seat to move in st (contract in pig10.h): what
 * pig10_count_pick or pig10_greedy_pick would choose on that seat's view, read from st. */
int pig10_playout_pick(const pig10_state *st, const pig10_none *table, bool count,
                       const decision *d)
{
    if (d->n == 1)
        return 0;
    if (!count)
        return greedy_pick(st->value, st->table_n, d);
    count_env e;
    int seat = d->seat;
    count_env_init(&e, st->rules, table, seat, st->nseats, st->hand[seat], st->hand_n,
                   st->played, st->value, st->table_n);
    return count_pick(&e, d);
}

/* count keeps the ruleset, whose reach table it reads, and its own table of chances. */
typedef struct count_ctx {
    const pig10_rules *rules;
    pig10_none *none;
} count_ctx;

static int count_setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                       const double *param, char *err, size_t errlen)
{
    (void)seat;
    (void)nseats;
    (void)param;
    if (strcmp(g->name, "pig10") != 0) {
        snprintf(err, errlen, "bot 'count' plays only pig10");
        return -1;
    }
    ((count_ctx *)ctx)->rules = rules;
    ((count_ctx *)ctx)->none = pig10_none_new(rules);
    return 0;
}

static int count_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)r;
    const count_ctx *c = ctx;
    return pig10_count_pick(c->rules, c->none, seen, d);
}

static void count_teardown(void *ctx)
{
    pig10_none_free(((count_ctx *)ctx)->none);
}

const bot_type bot_pig10_count = {
    .name = "count",
    .doc = "counts the cards not yet seen to estimate whether the next player can make 10 "
           "(or must go over) after each possible play, and plays for the best expected "
           "cards: the table taken now, or given away, or the next player's likely reply",
    .params = NULL,
    .ctx_size = sizeof(count_ctx),
    .setup = count_setup,
    .choose = count_choose,
    .no_draws = true,
    .teardown = count_teardown,
};

/* ---- mc ---------------------------------------------------------------------------------- */

typedef struct mc_ctx {
    const pig10_rules *rules;
    int samples;
    bool count;       /* playout policy: count (true) or greedy */
    pig10_none *none; /* count's chances, with count */
} mc_ctx;

static const bot_param mc_params[] = {
    {"samples", 16, 1, 100000, true,
     "deals of the unseen cards tried per decision; every legal play is played out on each"},
    {"playout", 1, 0, 1, true,
     "policy of every seat in the playouts, and the default play: 1 count, 0 greedy (faster)"},
    {NULL, 0, 0, 0, false, NULL},
};

static int mc_setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                    const double *param, char *err, size_t errlen)
{
    (void)seat;
    (void)nseats;
    mc_ctx *c = ctx;
    if (strcmp(g->name, "pig10") != 0) {
        snprintf(err, errlen, "bot 'mc' plays only pig10");
        return -1;
    }
    c->rules = rules;
    c->samples = (int)param[0];
    c->count = param[1] != 0;
    c->none = c->count ? pig10_none_new(rules) : NULL;
    return 0;
}

static void mc_teardown(void *ctx)
{
    pig10_none_free(((mc_ctx *)ctx)->none);
}

/* The playout policy's choice in d for view v. */
static int policy(const mc_ctx *c, const pig10_view *v, const decision *d)
{
    return c->count ? pig10_count_pick(c->rules, c->none, v, d) : pig10_greedy_pick(v, d);
}

/* Plays st out with the playout policy at every seat and returns what it was worth to `seat`:
 * its share of the win, plus a twentieth for each card of margin over the best other seat. */
static double playout(const mc_ctx *c, pig10_state *st, int seat, rng *r)
{
    decision d;
    while (pig10_decide(st, &d))
        pig10_apply(st, d.action[pig10_playout_pick(st, c->none, c->count, &d)], r, NULL);
    int best_other = 0, tied = 1, mine = st->collected[seat];
    for (int s = 0; s < st->nseats; s++) {
        if (s == seat)
            continue;
        best_other = st->collected[s] > best_other ? st->collected[s] : best_other;
        tied += st->collected[s] == mine;
    }
    double share = mine > best_other ? 1.0 : mine == best_other ? 1.0 / tied : 0.0;
    return share + 0.05 * (mine - best_other);
}

/* Plays every action of d out on `samples` deals and returns, per action, the mean and the
 * squared standard error of its value minus the value of action def on the same deal (common
 * deals make the comparison far sharper). Returns -1 if the view cannot be dealt. */
static int evaluate(const mc_ctx *c, const pig10_view *v, const decision *d, int def, rng *r,
                    double *mean, double *se2)
{
    double val[GAME_MAX_ACTIONS], sumsq[GAME_MAX_ACTIONS] = {0}, n = c->samples;
    pig10_state base, st;
    memset(mean, 0, sizeof(double) * (size_t)d->n);
    for (int k = 0; k < c->samples; k++) {
        if (pig10_determinize(&base, c->rules, v, r) != 0)
            return -1;
        for (int i = 0; i < d->n; i++) {
            memcpy(&st, &base, sizeof st);
            pig10_apply(&st, d->action[i], r, NULL);
            val[i] = playout(c, &st, v->seat, r);
        }
        for (int i = 0; i < d->n; i++) {
            mean[i] += val[i] - val[def];
            sumsq[i] += (val[i] - val[def]) * (val[i] - val[def]);
        }
    }
    for (int i = 0; i < d->n; i++) {
        mean[i] /= n;
        se2[i] = n > 1 ? (sumsq[i] - n * mean[i] * mean[i]) / (n - 1) / n : 0.0;
    }
    return 0;
}

/* Picks the play with the best mean, but leaves the playout policy's own choice only for a
 * play that beats it by more than one standard error: with few samples, noise alone would
 * otherwise choose. */
static int mc_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    const mc_ctx *c = ctx;
    const pig10_view *v = seen;
    if (d->n == 1)
        return 0;
    int def = policy(c, v, d), best = def;
    double mean[GAME_MAX_ACTIONS], se2[GAME_MAX_ACTIONS];
    if (evaluate(c, v, d, def, r, mean, se2) != 0)
        return def; /* a game not dealt from the ruleset's deck: nothing to sample */
    for (int i = 0; i < d->n; i++)
        if (mean[i] > mean[best] && mean[i] * mean[i] > se2[i])
            best = i;
    return best;
}

const bot_type bot_pig10_mc = {
    .name = "mc",
    .doc = "determinized Monte Carlo: deals the unseen cards at random consistently with "
           "what the seat has seen, plays every legal play out to the end with the playout "
           "policy at all seats, and picks the play with the best average win share (with "
           "a little weight on the card margin), keeping the policy's own play unless "
           "another beats it by more than one standard error",
    .params = mc_params,
    .ctx_size = sizeof(mc_ctx),
    .setup = mc_setup,
    .choose = mc_choose,
    .teardown = mc_teardown,
};
