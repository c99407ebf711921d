/* oca_bots.c — the Gioco dell'Oca bots (seed 000): cautious, greedy and aggressive are one
 * rule-of-thumb player with different knobs, each settable as bot:key=value; with bank_ev
 * (greedy) it volunteers, bids and takes over the bank by a model of the bank's worth. */
#include <stdlib.h>
#include <string.h>

#include "oca.h"

enum knob {
    KN_VOLUNTEER, KN_MAX_BID, KN_DECLARE, KN_ATTACK, KN_DEFEND, KN_JOLLY_MIN, KN_SIT_OUT,
    KN_TRADE, KN_RESERVE, KN_BUY_MAX, KN_EXCHANGE, KN_TAKEOVER, KN_PER_SQUARE, KN_KEEP,
    KN_BANK_EV, KN_COUNT,
};

/* One parameter table per bot: the same keys, each bot's own defaults (in knob order). */
#define OCA_PARAMS(vol, bid, dec, att, def, jmin, sit, trd, res, buy, exc, tko, psq, keep, ev) \
    {                                                                                        \
        {"volunteer", vol, 0, 1, true, "1: volunteer for the bank (article 3)"},             \
        {"max_bid", bid, 0, 1000, true, "highest auction bid, points to each other player"}, \
        {"declare", dec, 0, 2, true,                                                         \
         "declarations: 0 never, 1 always, 2 when their expected value is positive"},        \
        {"attack", att, 0, 1, true,                                                          \
         "1: play postcards and jollies against opponents' good squares"},                   \
        {"defend", def, 0, 1, true,                                                          \
         "1: cancel own bad squares, counter cards played against oneself"},                 \
        {"jolly_min", jmin, 0, 1000, true, "points at stake for a jolly to be played"},      \
        {"sit_out", sit, 0, 1, true, "1: as banker, stay out of the race (article 5)"},      \
        {"trade", trd, 0, 1, false,                                                          \
         "chance of considering a card offer on each own turn (article 12)"},                \
        {"reserve", res, 0, 1000, true, "lowest price at which a postcard is sold"},         \
        {"buy_max", buy, 0, 1000, true, "highest price paid for a jolly (half for others)"}, \
        {"exchange", exc, 0, 1, true, "1: trade two neutral postcards for one from the deck"}, \
        {"takeover", tko, 0, 1, true, "1: offer to take over a failed bank (article 8)"},    \
        {"per_square", psq, 0, 50, true, "points one square of progress is worth"},          \
        {"keep", keep, 0, 1000, true, "points kept in hand when buying"},                    \
        {"bank_ev", ev, 0, 1, true,                                                          \
         "1: volunteer, bid and take over by the bank's expected worth (capped by max_bid)"}, \
        {NULL, 0, 0, 0, false, NULL},                                                        \
    }

static const bot_param cautious_params[] =
    OCA_PARAMS(0, 0, 0, 0, 1, 10, 1, 0, 15, 0, 0, 0, 2, 100, 0);
static const bot_param greedy_params[] =
    OCA_PARAMS(1, 1000, 2, 1, 1, 20, 0, 0.2, 15, 30, 1, 1, 3, 60, 1);
static const bot_param aggressive_params[] =
    OCA_PARAMS(1, 60, 1, 1, 1, 5, 0, 0.5, 30, 60, 1, 1, 3, 20, 0);

/* The bank's worth, modelled once per run from the board (see the manual, BANK VALUE). */
typedef struct bank_model {
    float togo[OCA_MAX_SQUARES + 1]; /* net points a racer on square p pays the bank by the goal */
    float cut[GAME_MAX_SEATS + 1];   /* with m racers: share of their flows paid before the end */
} bank_model;

typedef struct knobs {
    int seat;
    int k[KN_COUNT];
    double trade; /* the one fractional knob */
    bank_model bm;
} knobs;

/* Where a roll from square `from` finally rests, as the engine resolves it without cards:
 * the square's move and again effects chained at most max_chain times. Adds the points paid to
 * the bank on the way to *flow (received from it: negative) and sets *wait to the turns to
 * skip there. */
static int resolve_roll(const oca_rules *r, int from, int roll, double *flow, int *wait)
{
    int goal = r->nsquares, at = from;
    *wait = 0;
    for (int chain = 0;; chain++) {
        int to = at + roll;
        if (to > goal)
            to = r->finish == FINISH_BOUNCE ? goal - (to - goal) : goal;
        to = to < 1 ? 1 : to;
        for (;;) { /* the squares' effects from `to` on */
            const oca_square *q = &r->sq[to];
            if (to == goal)
                return to;
            *flow += q->effect == FX_PAY_BANK ? q->amount
                     : q->effect == FX_RECEIVE_BANK ? -q->amount : 0;
            if (q->effect == FX_WAIT)
                *wait = q->amount;
            if ((q->effect != FX_MOVE && q->effect != FX_AGAIN) || ++chain > r->max_chain)
                return to;
            if (q->effect == FX_AGAIN)
                break;
            to = q->to;
        }
        at = to;
        chain--; /* the outer loop counts this again */
    }
}

/* togo[p]: expected net points a racer standing on square p pays the bank before he reaches
 * the goal, by value iteration over the board (a Markov chain of one die). */
static void model_togo(const oca_rules *r, float *togo)
{
    double v[OCA_MAX_SQUARES + 1] = {0};
    for (int sweep = 0; sweep < 20000; sweep++) {
        double change = 0;
        for (int p = 1; p < r->nsquares; p++) {
            double sum = 0;
            for (int roll = 1; roll <= 6; roll++) {
                double flow = 0;
                int wait, to = resolve_roll(r, p, roll, &flow, &wait);
                sum += flow + v[to];
            }
            double d = sum / 6 - v[p];
            change = d > change ? d : -d > change ? -d : change;
            v[p] += d;
        }
        if (change < 1e-9)
            break;
    }
    for (int p = 0; p <= r->nsquares; p++)
        togo[p] = (float)v[p];
}

/* reach[p]: whether a racer on square p can still reach the goal (some rolls lead there). */
static void model_reach(const oca_rules *r, bool *reach)
{
    memset(reach, 0, (size_t)(r->nsquares + 1) * sizeof *reach);
    reach[r->nsquares] = true;
    for (bool grew = true; grew;) {
        grew = false;
        for (int p = 1; p < r->nsquares; p++)
            for (int roll = 1; roll <= 6 && !reach[p]; roll++) {
                double flow = 0;
                int wait;
                if (reach[resolve_roll(r, p, roll, &flow, &wait)])
                    reach[p] = grew = true;
            }
    }
}

/* cut[m]: the game ends when the second-to-last of m racers arrives, and the last one pays
 * nothing after that. With the racers independent (cards aside), the chain's law of a racer's
 * square after t turns gives D(t), what a racer not yet arrived at turn t still has to pay
 * (togo of his square), and F(t), the chance he has arrived; the last racer then loses
 * m sum_t (F(t)^(m-1) - F(t-1)^(m-1)) D(t) of the m togo[1] the racers would pay in full. */
static int model_cut(const oca_rules *r, const float *togo, float *cut)
{
    int slots = 2, nsq = r->nsquares + 1;
    for (int p = 1; p < r->nsquares; p++)
        if (r->sq[p].effect == FX_WAIT && r->sq[p].amount + 2 > slots)
            slots = r->sq[p].amount + 2;
    double *mass = calloc((size_t)slots * (size_t)nsq, sizeof *mass); /* ring over turns */
    double F = 0, lost[GAME_MAX_SEATS + 1] = {0}, before[GAME_MAX_SEATS + 1] = {0};
    bool reach[OCA_MAX_SQUARES + 1];
    if (mass == NULL)
        abort();
    model_reach(r, reach);
    mass[1] = 1; /* turn 0, square 1 */
    int t = 0;
    for (; t < r->max_turns && 1 - F > 1e-12; t++) { /* no game runs longer */
        double *now = mass + (size_t)(t % slots) * (size_t)nsq;
        for (int p = 1; p < r->nsquares; p++) {
            if (now[p] == 0)
                continue;
            for (int roll = 1; roll <= 6; roll++) {
                double flow = 0;
                int wait, to = resolve_roll(r, p, roll, &flow, &wait);
                if (to == r->nsquares)
                    F += now[p] / 6;
                else
                    mass[(size_t)((t + 1 + wait) % slots) * (size_t)nsq + (size_t)to] += now[p] / 6;
            }
            now[p] = 0;
        }
        double D = 0, live = 0; /* after t + 1 turns: waiting racers sit in later slots */
        for (size_t i = 0; i < (size_t)slots * (size_t)nsq; i++) {
            D += mass[i] * togo[i % (size_t)nsq];
            live += reach[i % (size_t)nsq] ? mass[i] : 0;
        }
        double pw = 1; /* F^(m-1) */
        for (int m = 2; m <= GAME_MAX_SEATS; m++) {
            pw *= F;
            lost[m] += m * (pw - before[m]) * D;
            before[m] = pw;
        }
        if (live < 1e-12) { /* the rest can never arrive: F is final (boards with traps) */
            t++;
            break;
        }
    }
    free(mass);
    for (int m = 0; m <= GAME_MAX_SEATS; m++)
        cut[m] = m < 2 || togo[1] == 0 ? 1 : (float)(1 - lost[m] / (m * (double)togo[1]));
    return t;
}

int oca_bank_model(const oca_rules *r, float *togo, float *cut)
{
    model_togo(r, togo);
    return model_cut(r, togo, cut);
}

static int setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                 const double *param, char *err, size_t errlen)
{
    (void)g, (void)nseats, (void)err, (void)errlen;
    knobs *kn = ctx;
    kn->seat = seat;
    for (int i = 0; i < KN_COUNT; i++)
        kn->k[i] = (int)param[i];
    kn->trade = param[KN_TRADE];
    memset(&kn->bm, 0, sizeof kn->bm);
    if (kn->k[KN_BANK_EV])
        oca_bank_model(rules, kn->bm.togo, kn->bm.cut);
    return 0;
}

/* Whether this seat, made banker, would join the race (article 5). */
static bool would_play(const oca_state *st, const knobs *kn)
{
    return !kn->k[KN_SIT_OUT] || !st->r->banker_may_sit_out || st->n < 3;
}

/* What holding the bank from now on is worth to this seat, in points, against being a plain
 * player (see the manual, BANK VALUE). At the start (n players): n (entry fee - refund if he
 * plays) + n togo[1] cut[m]: he collects the fee and the flows of the n - 1 others and no
 * longer pays his own, and pays the refund to the n - 1 instead of receiving one. On a
 * takeover: the flows still to come from the racers, cut as at the start, minus the loss he
 * must cover. */
static double bank_worth(const oca_state *st, const knobs *kn, bool initial)
{
    const oca_rules *r = st->r;
    const bank_model *bm = &kn->bm;
    if (initial) {
        bool plays = would_play(st, kn);
        int m = plays ? st->n : st->n - 1;
        return st->n * (r->entry_fee - (plays ? r->banker_refund : 0) +
                        (double)bm->togo[1] * bm->cut[m]);
    }
    double flows = 0;
    int m = 0;
    for (int j = 0; j < st->n; j++)
        if (st->racing >> j & 1) {
            flows += bm->togo[st->pos[j]];
            m++;
        }
    return flows * bm->cut[m] - st->takeover_loss;
}

/* The break-even bid: the winner pays b to each of the k others, a loser receives b from the
 * winner, so winning beats losing while worth - k b > b, i.e. b < worth / (k + 1). */
static double break_even_bid(const oca_state *st, const knobs *kn, bool initial)
{
    int k = 0;
    for (int j = 0; j < st->n; j++)
        k += j != kn->seat && !st->bankrupt[j];
    return bank_worth(st, kn, initial) / (k + 1);
}

/* How much a seat with these knobs values a postcard. */
static int card_value(const oca_state *st, const knobs *kn, int card)
{
    switch (st->r->sq[st->r->card_square[card]].card) {
    case CARD_JOLLY:
        return kn->k[KN_BUY_MAX];
    case CARD_NEUTRAL:
        return kn->k[KN_EXCHANGE] ? kn->k[KN_BUY_MAX] / 4 : 0;
    default:
        return kn->k[KN_BUY_MAX] / 2;
    }
}

/* Value to the mover of the move just made: his landing square plus his progress. */
static int move_value(const oca_state *st, const knobs *kn)
{
    int m = st->mover, sq = st->pos[m];
    return oca_square_value(st, m, sq, kn->k[KN_PER_SQUARE]) +
           kn->k[KN_PER_SQUARE] * (sq - st->from);
}

/* Sealed auction: the highest legal bid within max_bid and, with bank_ev, within the
 * break-even bid. Open auction (action 0 is "drop out"): the smallest raise while it stays
 * within that cap, else drop out. */
static int choose_bid(const oca_state *st, const decision *d, const knobs *kn)
{
    double cap = kn->k[KN_MAX_BID];
    if (kn->k[KN_BANK_EV]) {
        double b = break_even_bid(st, kn, st->auction_kind == AUCTION_INITIAL);
        cap = b < cap ? b : cap;
    }
    if (d->action[0] == OCA_DROP)
        return d->n > 1 && d->action[1] <= cap ? 1 : 0;
    int best = 0;
    for (int i = 0; i < d->n; i++)
        if (d->action[i] <= cap)
            best = i;
    return best;
}

/* Volunteering and taking over: the knob, and with bank_ev a bank worth more than nothing. */
static bool wants_bank(const oca_state *st, const knobs *kn, int knob)
{
    bool initial = knob == KN_VOLUNTEER;
    return kn->k[knob] && (!kn->k[KN_BANK_EV] || bank_worth(st, kn, initial) > 0);
}

static bool declare_pays(const oca_state *st, int seat)
{
    const oca_rules *r = st->r;
    if (seat != st->banker)
        return r->declare_prize > 6 * r->declare_stake;
    return r->banker_declare_hit > 5 * r->banker_declare_miss;
}

/* The kind of trade worth proposing (TR_*; TR_PASS if none): exchange two neutral cards,
 * else buy a card worth its lowest price, else sell a card worth less than the top price. */
static int trade_kind(const oca_state *st, const knobs *kn)
{
    const oca_rules *r = st->r;
    uint32_t mine = st->hand[kn->seat], jollies = 0;
    for (int j = 0; j < st->n; j++)
        if (j != kn->seat)
            jollies |= st->hand[j] & r->jolly_mask;
    if (__builtin_popcount(mine & r->neutral_mask) >= 2 && kn->k[KN_EXCHANGE] &&
        st->deck_top < r->ncards)
        return TR_EXCHANGE;
    int64_t pts = oca_points(st, kn->seat);
    if (jollies && kn->k[KN_BUY_MAX] >= r->price[0] && pts - r->price[0] >= kn->k[KN_KEEP])
        return TR_BUY;
    if (r->price[r->nprices - 1] >= kn->k[KN_RESERVE])
        for (uint32_t m = mine; m; m &= m - 1)
            if (card_value(st, kn, __builtin_ctz(m)) < kn->k[KN_RESERVE])
                return TR_SELL;
    return TR_PASS;
}

static int choose_trade_kind(const oca_state *st, const decision *d, const knobs *kn, rng *r)
{
    if (kn->trade <= 0 || (kn->trade < 1 && rng_uniform(r) >= kn->trade))
        return 0;
    int t = trade_kind(st, kn);
    for (int i = 0; i < d->n; i++)
        if (d->action[i] == t)
            return i;
    return 0;
}

/* The offer a seat proposes on its own turn: exchange, buy a jolly, or sell a neutral card. */
static int choose_trade(const oca_state *st, const decision *d, const knobs *kn)
{
    int64_t pts = oca_points(st, kn->seat);
    int pick = 0, pick_rank = 0;
    for (int i = 1; i < d->n; i++) {
        int32_t a = d->action[i];
        int t = OCA_TR_TYPE(a), ca = OCA_TR_A(a), price = st->r->price[OCA_TR_P(a)];
        int rank = 0;
        if (t == TR_EXCHANGE && kn->k[KN_EXCHANGE] &&
            st->r->sq[st->r->card_square[ca]].card == CARD_NEUTRAL &&
            st->r->sq[st->r->card_square[OCA_TR_B(a)]].card == CARD_NEUTRAL)
            rank = 3;
        else if (t == TR_BUY && st->r->sq[st->r->card_square[ca]].card == CARD_JOLLY &&
                 price <= card_value(st, kn, ca) && pts - price >= kn->k[KN_KEEP])
            rank = 2;
        else if (t == TR_SELL && price >= kn->k[KN_RESERVE] && card_value(st, kn, ca) < price)
            rank = 1;
        if (rank > pick_rank) {
            pick = i;
            pick_rank = rank;
        }
    }
    return pick;
}

/* A seat short of points offers its cards: the most valuable first, at the lowest price that
 * covers the shortfall (or the highest price). */
static int choose_short_sale(const oca_state *st, const decision *d, const knobs *kn)
{
    const oca_op *o = &st->op[st->nops - 1];
    int64_t need = oca_op_due(o) - oca_points(st, kn->seat);
    int pick = 0, pick_val = -1, pick_price = 0;
    for (int i = 1; i < d->n; i++) {
        int ca = OCA_TR_A(d->action[i]), price = st->r->price[OCA_TR_P(d->action[i])];
        int v = card_value(st, kn, ca);
        bool better = v > pick_val ||
                      (v == pick_val && pick_price < need && price > pick_price);
        if (better) {
            pick = i;
            pick_val = v;
            pick_price = price;
        }
    }
    return pick;
}

static int yes(bool b)
{
    return b ? 1 : 0;
}

static int choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    const knobs *kn = ctx;
    const oca_state *st = seen;
    const int *k = kn->k;
    const oca_offer *f = &st->offer;
    int me = kn->seat;
    switch (d->kind) {
    case K_VOLUNTEER:
        return yes(wants_bank(st, kn, KN_VOLUNTEER));
    case K_BID:
        return choose_bid(st, d, kn);
    case K_BANKER_PLAYS:
        return yes(!k[KN_SIT_OUT]);
    case K_DECLARE:
        if (k[KN_DECLARE] == 1 || (k[KN_DECLARE] == 2 && declare_pays(st, me)))
            return 1 + (int)rng_below(r, 6);
        return 0;
    case K_MUTUAL_AID:
        return (int)rng_below(r, (uint32_t)d->n);
    case K_CANCEL_OWN:
        return yes(k[KN_DEFEND] && oca_square_value(st, me, st->pos[me], k[KN_PER_SQUARE]) < 0);
    case K_CANCEL_OPPONENT:
        return yes(k[KN_ATTACK] && move_value(st, kn) > 0);
    case K_JOLLY:
        if (me == st->mover)
            return yes(k[KN_DEFEND] && move_value(st, kn) <= -k[KN_JOLLY_MIN]);
        return yes(k[KN_ATTACK] && move_value(st, kn) >= k[KN_JOLLY_MIN]);
    case K_COUNTER_JOLLY:
        if (me == st->mover)
            return yes(k[KN_DEFEND] && move_value(st, kn) > 0);
        return yes(k[KN_ATTACK] && move_value(st, kn) <= -k[KN_JOLLY_MIN]);
    case K_TRADE:
        return choose_trade_kind(st, d, kn, r);
    case K_TRADE_OFFER:
        return choose_trade(st, d, kn);
    case K_BUY_CARD:
        return yes(f->price <= card_value(st, kn, f->card) &&
                   oca_points(st, me) - f->price >= k[KN_KEEP]);
    case K_SELL_CARD: {
        int v = card_value(st, kn, f->card);
        return yes(f->price >= (v > k[KN_RESERVE] ? v : k[KN_RESERVE]));
    }
    case K_SWAP:
        return yes(card_value(st, kn, f->card) > card_value(st, kn, f->card2));
    case K_SHORT_SALE:
        return choose_short_sale(st, d, kn);
    case K_TAKE_OVER_BANK:
        return yes(wants_bank(st, kn, KN_TAKEOVER));
    }
    return 0; /* a kind without an opinion: the first action is always legal */
}

const bot_type oca_bot_cautious = {
    .name = "cautious",
    .doc = "never volunteers, bids or declares; uses postcards only defensively; sits out "
           "of the race if made banker",
    .params = cautious_params,
    .ctx_size = sizeof(knobs),
    .setup = setup,
    .choose = choose,
};

const bot_type oca_bot_greedy = {
    .name = "greedy",
    .doc = "expected-value player: volunteers, bids and takes over by the bank's modelled "
           "worth (capped by max_bid), declares only when the stake pays, plays cards when the "
           "points at stake exceed its thresholds, trades cards",
    .params = greedy_params,
    .ctx_size = sizeof(knobs),
    .setup = setup,
    .choose = choose,
};

const bot_type oca_bot_aggressive = {
    .name = "aggressive",
    .doc = "volunteers and bids high, always declares, attacks with postcards and jollies, "
           "buys cards",
    .params = aggressive_params,
    .ctx_size = sizeof(knobs),
    .setup = setup,
    .choose = choose,
};
