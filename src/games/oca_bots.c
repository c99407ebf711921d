/* oca_bots.c — the Gioco dell'Oca bots (seed 000): cautious, greedy and aggressive are one
 * rule-of-thumb player with different knobs, each settable as bot:key=value. */
#include <string.h>

#include "oca.h"

enum knob {
    KN_VOLUNTEER, KN_MAX_BID, KN_DECLARE, KN_ATTACK, KN_DEFEND, KN_JOLLY_MIN, KN_SIT_OUT,
    KN_TRADE, KN_RESERVE, KN_BUY_MAX, KN_EXCHANGE, KN_TAKEOVER, KN_PER_SQUARE, KN_KEEP,
    KN_COUNT,
};

/* One parameter table per bot: the same keys, each bot's own defaults (in knob order). */
#define OCA_PARAMS(vol, bid, dec, att, def, jmin, sit, trd, res, buy, exc, tko, psq, keep)    \
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
        {"keep", keep, 0, 1000, true, "points kept in hand when buying"},         \
        {NULL, 0, 0, 0, false, NULL},                                                        \
    }

static const bot_param cautious_params[] =
    OCA_PARAMS(0, 0, 0, 0, 1, 10, 1, 0, 15, 0, 0, 0, 2, 100);
static const bot_param greedy_params[] =
    OCA_PARAMS(1, 20, 2, 1, 1, 20, 0, 0.2, 15, 30, 1, 1, 3, 60);
static const bot_param aggressive_params[] =
    OCA_PARAMS(1, 60, 1, 1, 1, 5, 0, 0.5, 30, 60, 1, 1, 3, 20);

typedef struct knobs {
    int seat;
    int k[KN_COUNT];
    double trade; /* the one fractional knob */
} knobs;

static int setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                 const double *param, char *err, size_t errlen)
{
    (void)g, (void)rules, (void)nseats, (void)err, (void)errlen;
    knobs *kn = ctx;
    kn->seat = seat;
    for (int i = 0; i < KN_COUNT; i++)
        kn->k[i] = (int)param[i];
    kn->trade = param[KN_TRADE];
    return 0;
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

static int choose_bid(const decision *d, const knobs *kn)
{
    int best = 0;
    for (int i = 0; i < d->n; i++)
        if (d->action[i] <= kn->k[KN_MAX_BID])
            best = i;
    return best;
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
    int64_t need = o->amount - oca_points(st, kn->seat);
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
        return yes(k[KN_VOLUNTEER]);
    case K_BID:
        return choose_bid(d, kn);
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
        return yes(k[KN_TAKEOVER]);
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
    .doc = "expected-value player: declares only when the stake pays, bids up to max_bid, "
           "plays cards when the points at stake exceed its thresholds, trades cards",
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
