/* oca_bots.c — the Gioco dell'Oca bots (seed 000): cautious, greedy and aggressive are one
 * rule-of-thumb player with different knobs, each settable as bot:key=value; with bank_ev
 * (greedy) it volunteers, bids and takes over the bank by a model of the bank's worth. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "games/oca/oca.h"
#include "games/oca/oca_bots.h"
#include "core/hot.h"
#include "core/xalloc.h"

enum knob {
    KN_VOLUNTEER, KN_MAX_BID, KN_DECLARE, KN_ATTACK, KN_DEFEND, KN_JOLLY_MIN, KN_SIT_OUT,
    KN_TRADE, KN_RESERVE, KN_BUY_MAX, KN_EXCHANGE, KN_TAKEOVER, KN_PER_SQUARE, KN_KEEP,
    KN_BANK_EV, KN_VALUE_SD, KN_GAMBLE, KN_RAISE, KN_COUNT,
};

/* One parameter table per bot: the same keys, each bot's own defaults (in knob order). */
#define OCA_PARAMS(vol, bid, dec, att, def, jmin, sit, trd, res, buy, exc, tko, psq, keep, ev,  \
                   vsd, gam, rse)                                                            \
    {                                                                                        \
        {"volunteer", vol, 0, 1, true, "1: volunteer for the bank (article 3)"},             \
        {"max_bid", bid, 0, 1000, true, "highest auction bid, points to each other player"}, \
        {"declare", dec, 0, 2, true,                                                         \
         "declarations: 0 never, 1 always, 2 when they pay or the bot is behind (gamble)"}, \
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
        {"value_sd", vsd, 0, 2, false,                                                       \
         "sd of the relative error of its estimate of the bank's worth, drawn each game"},   \
        {"gamble", gam, 0, 1000, true,                                                       \
         "declare 2: also declare when this many points behind the richest other player"},  \
        {"raise", rse, 1, 1000, true,                                                        \
         "open auction: bid this many bid steps above the bid to beat, within its cap "     \
         "(1: the smallest raise; 1000: straight to its cap)"},                              \
        {NULL, 0, 0, 0, false, NULL},                                                        \
    }

static const bot_param cautious_params[] =
    OCA_PARAMS(0, 0, 0, 0, 1, 10, 1, 0, 15, 0, 0, 0, 2, 100, 0, 0, 0, 1);
/* greedy's defaults are a best response to themselves at four players, from best-response
 * iteration with --tune (the procedure and the residuals: giochi-sim-oca(7), BEST RESPONSE) */
static const bot_param greedy_params[] =
    OCA_PARAMS(1, 85, 2, 1, 1, 27, 1, 0.7, 17, 8, 1, 0, 0, 60, 0, 0.06, 3, 1);
/* greedy's defaults at two and three players, where the four-player profile is not a best
 * response to itself: the same iteration run from it at that table (at three the cash cap no
 * longer binds the bids) */
static const bot_param greedy2_params[] =
    OCA_PARAMS(1, 85, 2, 1, 1, 20, 1, 0.7, 7, 8, 1, 0, 0, 60, 0, 0.06, 17, 1);
static const bot_param greedy3_params[] =
    OCA_PARAMS(1, 62, 2, 1, 1, 22, 1, 0.7, 17, 8, 1, 0, 0, 60, 0, 0, 3, 1);
/* greedy's defaults by the number of players: NULL where the four-player profile is a best
 * response to itself (the residuals at 2 to 8 players: giochi-sim-oca(7)) */
static const bot_param *const greedy_by_players[GAME_MAX_SEATS + 1] = {
    [2] = greedy2_params,
    [3] = greedy3_params,
};
/* greedy as it shipped until the best-response defaults (2026-12): set by hand, kept so that
 * figures made with it can be reproduced */
static const bot_param greedy_2026_params[] =
    OCA_PARAMS(1, 1000, 2, 1, 1, 20, 0, 0.2, 15, 30, 1, 1, 3, 60, 1, 0.25, 30, 1);
static const bot_param aggressive_params[] =
    OCA_PARAMS(1, 60, 1, 1, 1, 5, 0, 0.5, 30, 60, 1, 1, 3, 20, 0, 0.25, 0, 1);

/* The bank's worth, modelled once per run from the board (see the manual, BANK VALUE). */
typedef struct bank_model {
    float togo[OCA_MAX_SQUARES + 1]; /* net points a racer on square p pays the bank by the goal */
    float cut[GAME_MAX_SEATS + 1];   /* with m racers: share of their flows paid before the end */
} bank_model;

/* card_value, remembered while what it depends on stays the same (a trade looks at the same
 * cards many times, the trade window and the offer are two decisions of one position, and a
 * seat kept waiting sees the same pieces again). The key holds every fact of the state that
 * card_value reads (see value_key), exactly: equal keys give equal values. */
typedef struct vkey {
    uint64_t pos;  /* the pieces, st->pos[0..7] */
    uint64_t rest; /* racing, members, banker + 1, whether the deck lasts; bit 63: filled */
} vkey;

typedef struct vcache {
    vkey key; /* the facts its entries were computed for (rest 0: none yet) */
    uint32_t have[GAME_MAX_SEATS]; /* bit c: v[seat][c] holds card c's value */
    uint32_t fixed; /* cards whose value is the same everywhere (jollies: buy_max), kept in v */
    int16_t v[GAME_MAX_SEATS][OCA_MAX_CARDS];
} vcache;

/* A seat's context: what the user set, tables derived from the rules and those settings at
 * setup (then only read), the memory of the game under way, and the valuation cache. */

/* The parameters, as the user set them (bot:key=value; see OCA_PARAMS), and the two figures
 * the trade draw takes from them. */
typedef struct oca_params {
    int k[KN_COUNT];
    double trade, value_sd; /* the fractional knobs */
    bool trade_drawn;       /* 0 < trade < 1: a trade window is used by a draw */
    uint64_t trade_below;   /* trade_drawn: ceil(trade 2^53), the draw's 53 bits that
                             * rng_uniform scales by 2^-53 fall below it exactly when
                             * rng_uniform's result falls below trade */
} oca_params;

/* Per ruleset and parameters, derived once by setup (card_tables, value_bounds,
 * oca_bank_model), then only read: each card's kind (CARD_*); the square below which a racer
 * can still come to its square (OCA_ANYWHERE: from anywhere) by landing there (reach) or also
 * by a square that sends him there (come); a quarter of the worth of landing on its square if
 * positive, else 0 (deny), and half the worst loss of coming there (cancel), each at most
 * buy_max (a positive or negative card's value but for its floor, the dead value), by
 * [banker][others in the round], held within int16 (exact for card_value, whose results stay
 * within buy_max <= 1000); and a dead card's worth while the deck lasts. */
typedef struct oca_tables {
    bank_model bm;  /* with bank_ev */
    bool bm_made;   /* bm holds the model (bank_ev): a later seat may copy it (peer) */
    uint8_t card_kind[OCA_MAX_CARDS];
    int8_t reach[OCA_MAX_CARDS], come[OCA_MAX_CARDS];
    int16_t deny[OCA_MAX_CARDS][2][GAME_MAX_SEATS];
    int16_t cancel[OCA_MAX_CARDS][2][GAME_MAX_SEATS];
    int dead;
    /* vmax[card][in]: the most card_value can give for card to any seat while `in` players
     * make up the round (see round_size), from the tables above: a bound that spares
     * valuations whose result could not change a decision */
    int16_t vmax[OCA_MAX_CARDS][GAME_MAX_SEATS + 1];
    /* buyable[in]: the cards whose vmax reaches the reserve and the lowest price, the only
     * ones buy_level can find a price for while `in` players make up the round */
    uint32_t buyable[GAME_MAX_SEATS + 1];
    int sell_from; /* the lowest price index at or above the reserve (nprices: none) */
    /* spare[in]: the cards whose vmax is at most buy_max / 4, spare (see spare_cards) with
     * `in` players in the round whatever their value */
    uint32_t spare[GAME_MAX_SEATS + 1];
    bool declare_ev[2]; /* [banker]: whether a declaration's expected gain is positive */
} oca_tables;

/* This game's own memory, reset at the first decision of each game (see choose). */
typedef struct oca_game_memory {
    bool begun;                    /* the runner calls begin (bot_type.begin) every game */
    bool fresh;                    /* begin was called, the game's first choice is to come */
    bool first;                    /* !begun || fresh: choose asks choose_first (one test) */
    uint64_t deck[4];              /* without begin: the game's deck and Capo-gioco */
    int capo;
    int last_turn;
    double worth_factor;           /* 1 + its error on the bank's worth, this game */
    double worth_start;            /* start_worth, this game (bank_worth at the start) */
    int8_t refused[OCA_MAX_CARDS]; /* buy offers refused, per card: the next is higher */
} oca_game_memory;

typedef struct knobs {
    int seat;
    oca_params p;
    oca_game_memory g;
    oca_tables t;
    vcache vc;                  /* card_value by position (see values) */
    const struct knobs *earlier; /* bot_type.peer's seat, read by setup alone */
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

/* One roll from one square, resolved once per board (the models below look at each many
 * times): where it rests, the points paid to the bank on the way, the turns to wait there. */
typedef struct hop {
    double flow;
    int to, wait;
} hop;

/* hops[p][roll - 1]: resolve_roll of every square a racer can stand on and every roll. */
static void roll_table(const oca_rules *r, hop (*hops)[6])
{
    for (int p = 1; p < r->nsquares; p++)
        for (int roll = 1; roll <= 6; roll++) {
            hop *h = &hops[p][roll - 1];
            h->flow = 0;
            h->to = resolve_roll(r, p, roll, &h->flow, &h->wait);
        }
}

/* togo[p]: expected net points a racer standing on square p pays the bank before he reaches
 * the goal, by value iteration over the board (a Markov chain of one die). */
static void model_togo(const oca_rules *r, hop (*hops)[6], float *togo)
{
    double v[OCA_MAX_SQUARES + 1] = {0};
    for (int sweep = 0; sweep < 20000; sweep++) {
        double change = 0;
        for (int p = 1; p < r->nsquares; p++) {
            double sum = 0;
            for (int roll = 1; roll <= 6; roll++)
                sum += hops[p][roll - 1].flow + v[hops[p][roll - 1].to];
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
static void model_reach(const oca_rules *r, hop (*hops)[6], bool *reach)
{
    memset(reach, 0, (size_t)(r->nsquares + 1) * sizeof *reach);
    reach[r->nsquares] = true;
    for (bool grew = true; grew;) {
        grew = false;
        for (int p = 1; p < r->nsquares; p++)
            for (int roll = 1; roll <= 6 && !reach[p]; roll++)
                if (reach[hops[p][roll - 1].to])
                    reach[p] = grew = true;
    }
}

/* cut[m]: the game ends when the second-to-last of m racers arrives, and the last one pays
 * nothing after that. With the racers independent (cards aside), the chain's law of a racer's
 * square after t turns gives D(t), what a racer not yet arrived at turn t still has to pay
 * (togo of his square), and F(t), the chance he has arrived; the last racer then loses
 * m sum_t (F(t)^(m-1) - F(t-1)^(m-1)) D(t) of the m togo[1] the racers would pay in full. */
static int model_cut(const oca_rules *r, hop (*hops)[6], const float *togo, float *cut)
{
    int slots = 2, nsq = r->nsquares + 1;
    for (int p = 1; p < r->nsquares; p++)
        if (r->sq[p].effect == FX_WAIT && r->sq[p].amount + 2 > slots)
            slots = r->sq[p].amount + 2;
    double *mass = xcalloc((size_t)slots * (size_t)nsq, sizeof *mass); /* ring over turns */
    double F = 0, lost[GAME_MAX_SEATS + 1] = {0}, before[GAME_MAX_SEATS + 1] = {0};
    bool reach[OCA_MAX_SQUARES + 1];
    model_reach(r, hops, reach);
    mass[1] = 1; /* turn 0, square 1 */
    int t = 0;
    for (; t < r->max_turns && 1 - F > 1e-12; t++) { /* no game runs longer */
        double *now = mass + (size_t)(t % slots) * (size_t)nsq;
        for (int p = 1; p < r->nsquares; p++) {
            if (now[p] == 0)
                continue;
            for (int roll = 1; roll <= 6; roll++) {
                int wait = hops[p][roll - 1].wait, to = hops[p][roll - 1].to;
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
    hop hops[OCA_MAX_SQUARES + 1][6];
    roll_table(r, hops);
    model_togo(r, hops, togo);
    return model_cut(r, hops, togo, cut);
}

enum { OCA_ANYWHERE = 127 }; /* a threshold above every square (knobs.reach, come) */

/* The square below which a racer can still land on some square up to `top`: one ahead of
 * him, or, with the bounce at the goal, one within the last six squares, which a bounce
 * reaches from anywhere (OCA_ANYWHERE). */
static int8_t reach_below(const oca_rules *r, int top)
{
    return r->finish == FINISH_BOUNCE && top >= r->nsquares - 6 ? OCA_ANYWHERE : (int8_t)top;
}

/* v within the range of int16_t. */
static int16_t sat16(int v)
{
    return (int16_t)(v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : v);
}

/* Fills the card tables of kn (see knobs) from the rules and the knobs per_square and
 * buy_max. */
static void card_tables(knobs *kn, const oca_rules *r)
{
    uint64_t sent_to[OCA_MAX_SQUARES + 1] = {0}; /* bit p: square p's move leads there */
    int per = kn->p.k[KN_PER_SQUARE], buy = kn->p.k[KN_BUY_MAX];
    for (int p = 1; p < r->nsquares; p++)
        if (r->sq[p].effect == FX_MOVE)
            sent_to[r->sq[p].to] |= 1ull << p;
    for (int c = 0; c < r->ncards; c++) {
        int q = r->card_square[c];
        int top = sent_to[q] ? 63 - __builtin_clzll(sent_to[q]) : 0;
        kn->t.card_kind[c] = r->sq[q].card;
        kn->t.reach[c] = reach_below(r, q);
        kn->t.come[c] = reach_below(r, top > q ? top : q);
        for (int b = 0; b < 2; b++)
            for (int o = 0; o < GAME_MAX_SEATS; o++) {
                int v = oca_square_worth(r, q, per, b, o), w = v;
                for (uint64_t m = sent_to[q]; m; m &= m - 1) {
                    int x = oca_square_worth(r, __builtin_ctzll(m), per, b, o);
                    w = x < w ? x : w;
                }
                int quarter = sat16(v) > 0 ? sat16(v) / 4 : 0; /* the benefit it denies */
                kn->t.deny[c][b][o] = (int16_t)(quarter < buy ? quarter : buy);
                int half = -sat16(w) / 2; /* the loss a held card cancels, halved */
                kn->t.cancel[c][b][o] = (int16_t)(half < buy ? half : buy);
            }
    }
}

/* Fills kn->t.vmax (see knobs) from the card tables and the knobs buy_max and dead: the
 * largest value card_value's formula gives over every banker flag, every count of others
 * it can index with `in` players in the round, and the deck lasting or not; and from it and
 * the knob reserve, kn->t.buyable, kn->t.sell_from and kn->t.spare. */
static void value_bounds(knobs *kn, const oca_rules *r)
{
    int buy = kn->p.k[KN_BUY_MAX];
    for (int c = 0; c < r->ncards; c++)
        for (int in = 0; in <= GAME_MAX_SEATS; in++) {
            int top = in < GAME_MAX_SEATS - 1 ? in : GAME_MAX_SEATS - 1, most = kn->t.dead;
            for (int b = 0; b < 2; b++)
                for (int o = 0; o <= top; o++)
                    for (int dead = 0; dead <= kn->t.dead; dead += kn->t.dead ? kn->t.dead : 1) {
                        int v = dead;
                        if (kn->t.card_kind[c] == CARD_JOLLY)
                            v = buy;
                        else if (kn->t.card_kind[c] == CARD_NEGATIVE)
                            v = kn->t.cancel[c][b][o] > dead ? kn->t.cancel[c][b][o] : dead;
                        else if (kn->t.card_kind[c] == CARD_POSITIVE)
                            v = kn->t.deny[c][b][o] > dead ? kn->t.deny[c][b][o] : dead;
                        most = v > most ? v : most;
                    }
            kn->t.vmax[c][in] = sat16(most);
        }
    for (kn->t.sell_from = 0; kn->t.sell_from < r->nprices; kn->t.sell_from++)
        if (r->price[kn->t.sell_from] >= kn->p.k[KN_RESERVE])
            break;
    for (int in = 0; in <= GAME_MAX_SEATS; in++) {
        kn->t.buyable[in] = kn->t.spare[in] = 0;
        for (int c = 0; c < r->ncards; c++) {
            if (kn->t.vmax[c][in] >= kn->p.k[KN_RESERVE] && kn->t.vmax[c][in] >= r->price[0])
                kn->t.buyable[in] |= 1u << c;
            if (kn->t.vmax[c][in] <= kn->p.k[KN_BUY_MAX] / 4)
                kn->t.spare[in] |= 1u << c;
        }
    }
}

/* The knobs of param into kn->p, and the memory of a game forgotten: what setup and retune
 * share. */
static void take_knobs(knobs *kn, const double *param)
{
    for (int i = 0; i < KN_COUNT; i++)
        kn->p.k[i] = (int)param[i];
    kn->p.trade = param[KN_TRADE];
    kn->p.trade_drawn = kn->p.trade > 0 && kn->p.trade < 1;
    kn->p.trade_below = kn->p.trade_drawn ? (uint64_t)ceil(kn->p.trade * 0x1p53) : 0;
    kn->p.value_sd = param[KN_VALUE_SD];
    memset(kn->g.deck, 0, sizeof kn->g.deck);
    kn->g.capo = -1;
    kn->g.last_turn = -1;
    kn->g.begun = kn->g.fresh = false;
    kn->g.first = true;
}

/* The knobs setup derives tables from (card_tables, value_bounds, the valuation cache, the
 * bank model): a change in any of them needs a new setup. */
static const int derived_from[] = {KN_BUY_MAX, KN_PER_SQUARE, KN_RESERVE, KN_EXCHANGE,
                                   KN_BANK_EV};

/* bot_type.retune: new values for the knobs no table depends on (a bid cap, how to declare,
 * when to gamble, ...); the valuation cache stays, since card_value reads only tables and
 * buy_max. */
static int retune(void *ctx, const double *param)
{
    knobs *kn = ctx;
    for (size_t i = 0; i < sizeof derived_from / sizeof derived_from[0]; i++)
        if ((int)param[derived_from[i]] != kn->p.k[derived_from[i]])
            return -1;
    take_knobs(kn, param);
    return 0;
}

static int setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                 const double *param, char *err, size_t errlen)
{
    (void)g, (void)nseats, (void)err, (void)errlen;
    knobs *kn = ctx;
    kn->seat = seat;
    take_knobs(kn, param);
    card_tables(kn, rules);
    memset(&kn->vc, 0, sizeof kn->vc); /* no values yet (rules and knobs may be new) ... */
    for (int c = 0; c < ((const oca_rules *)rules)->ncards; c++) /* ... but a jolly's, the same in every position */
        if (kn->t.card_kind[c] == CARD_JOLLY) {
            kn->vc.fixed |= 1u << c;
            for (int s = 0; s < GAME_MAX_SEATS; s++)
                kn->vc.v[s][c] = (int16_t)kn->p.k[KN_BUY_MAX];
        }
    for (int s = 0; s < GAME_MAX_SEATS; s++)
        kn->vc.have[s] = kn->vc.fixed;
    kn->t.dead = kn->p.k[KN_EXCHANGE] ? kn->p.k[KN_BUY_MAX] / 4 : 0;
    const oca_rules *r = rules;
    kn->t.declare_ev[0] = r->declare_prize > 6 * r->declare_stake;
    kn->t.declare_ev[1] = r->banker_declare_hit > 5 * r->banker_declare_miss;
    value_bounds(kn, rules);
    memset(&kn->t.bm, 0, sizeof kn->t.bm);
    if (kn->p.k[KN_BANK_EV]) { /* the same model for every seat: an earlier one's, if made */
        if (kn->earlier != NULL && kn->earlier->t.bm_made)
            kn->t.bm = kn->earlier->t.bm;
        else
            oca_bank_model(rules, kn->t.bm.togo, kn->t.bm.cut);
        kn->t.bm_made = true;
    }
    kn->earlier = NULL;
    return 0;
}

/* bot_type.peer: the seat before whose bank model setup may copy (same rules). */
static void peer(void *ctx, const void *earlier)
{
    ((knobs *)ctx)->earlier = earlier;
}

/* Whether st belongs to the game kn last saw: the same shuffled deck and Capo-gioco (two
 * games alike in both are as rare as two equal shuffles of the deck). */
static bool same_game(const knobs *kn, const oca_state *st)
{
    uint64_t w[4];
    _Static_assert(sizeof st->deck == sizeof w, "the deck is 32 bytes");
    memcpy(w, st->deck, sizeof w);
    return st->capo == kn->g.capo && ((w[0] ^ kn->g.deck[0]) | (w[1] ^ kn->g.deck[1]) |
                                    (w[2] ^ kn->g.deck[2]) | (w[3] ^ kn->g.deck[3])) == 0;
}

static double start_worth(const oca_state *st, const knobs *kn);

/* At the first decision of a new game (see choose_first), forgets the last game and draws this
 * game's error on the bank's worth from the seat's own stream: a factor 1 + value_sd N(0, 1),
 * at least 0 (the error a player makes judging the bank; it gives each seat its own
 * valuation, so an auction has a real spread of winning bids), and with it reckons the bank's
 * worth at the start (start_worth). A new game is one begin announced; for a caller that
 * never calls begin (a test driving choose alone, a search's playouts), one with another
 * deck, or with turns gone back. */
static GIOCHI_NOINLINE void new_game(knobs *kn, const oca_state *st, rng *r)
{
    if (kn->g.begun) {
        kn->g.fresh = kn->g.first = false;
    } else {
        if (st->turn >= kn->g.last_turn && same_game(kn, st)) {
            kn->g.last_turn = st->turn;
            return;
        }
        memcpy(kn->g.deck, st->deck, sizeof kn->g.deck);
        kn->g.capo = st->capo;
        kn->g.last_turn = st->turn;
    }
    memset(kn->g.refused, 0, sizeof kn->g.refused);
    kn->g.worth_factor = 1;
    if (kn->p.value_sd > 0) { /* Box-Muller */
        double u = rng_uniform(r), v = rng_uniform(r);
        double z = sqrt(-2 * log(1 - u)) * cos(6.283185307179586 * v);
        kn->g.worth_factor = 1 + kn->p.value_sd * z;
        if (kn->g.worth_factor < 0)
            kn->g.worth_factor = 0;
    }
    kn->g.worth_start = start_worth(st, kn);
}

/* bot_type.begin: a new game has been dealt; choose starts it at the seat's first choice
 * (its stream is not at hand here). */
static void begin(void *ctx, const void *seen)
{
    (void)seen;
    knobs *kn = ctx;
    kn->g.begun = kn->g.fresh = kn->g.first = true;
}

/* Whether this seat, made banker, would join the race (article 5). */
static bool would_play(const oca_state *st, const knobs *kn)
{
    return !kn->p.k[KN_SIT_OUT] || !st->r->banker_may_sit_out || st->n < 3;
}

/* bank_worth at the start (see there), the same all game: reckoned once, by new_game. */
static double start_worth(const oca_state *st, const knobs *kn)
{
    const oca_rules *r = st->r;
    const bank_model *bm = &kn->t.bm;
    bool plays = would_play(st, kn);
    int m = plays ? st->n : st->n - 1;
    return kn->g.worth_factor * st->n *
           (r->entry_fee - (plays ? r->banker_refund : 0) + (double)bm->togo[1] * bm->cut[m]);
}

/* What holding the bank from now on is worth to this seat, in points, against being a plain
 * player (see the manual, BANK VALUE). At the start (n players): n (entry fee - refund if he
 * plays) + n togo[1] cut[m]: he collects the fee and the flows of the n - 1 others and no
 * longer pays his own, and pays the refund to the n - 1 instead of receiving one. On a
 * takeover: the flows still to come from the racers, cut as at the start, minus the loss he
 * must cover. */
static double bank_worth(const oca_state *st, const knobs *kn, bool initial)
{
    const bank_model *bm = &kn->t.bm;
    if (initial)
        return kn->g.worth_start; /* start_worth, reckoned when the game began */
    double flows = 0;
    int m = 0;
    for (int j = 0; j < st->n; j++)
        if (st->racing >> j & 1) {
            flows += bm->togo[st->pos[j]];
            m++;
        }
    return kn->g.worth_factor * flows * bm->cut[m] - st->takeover_loss;
}

/* The break-even bid: the winner pays b to each of the k others, a loser receives b from the
 * winner, so winning beats losing while worth - k b > b, i.e. b < worth / (k + 1). */
static double break_even_bid(const oca_state *st, const knobs *kn, bool initial)
{
    int k = __builtin_popcount(st->solvent & ~(1u << kn->seat));
    return bank_worth(st, kn, initial) / (k + 1);
}

/* A dead card's worth now (its part in an exchange while the deck lasts, else 0): the least
 * card_value gives for any card to any seat (buy_max, a jolly's, is at least buy_max / 4). */
static inline int dead_value(const oca_state *st, const knobs *kn)
{
    return st->deck_top < st->r->ncards ? kn->t.dead : 0;
}

/* ---- fast path and reference: cval, card_value through the cache of one position, and
 * card_value itself. Kept equal by the unit test oca_bots_value_cache_agrees_with_recomputation
 * (through oca_bot_check_values), which also checks the bounds vmax and the dead value. --- */

/* What holding `card` is worth to `seat`, by a bot with these knobs, by whether its square can
 * still come into play: a jolly buy_max; a neutral card (or any card that has become dead)
 * its part in a two-for-one exchange while the deck lasts; a negative card half the loss it
 * would cancel, while its holder can still be brought there; a positive card a quarter of the
 * benefit it would deny, while another racer can still land there. */
static GIOCHI_NOINLINE int positive_value(const oca_state *st, const knobs *kn, int seat, int card,
                                          int dead);

static inline int card_value(const oca_state *st, const knobs *kn, int seat, int card)
{
    int buy = kn->p.k[KN_BUY_MAX], kind = kn->t.card_kind[card];
    if (kind == CARD_JOLLY)
        return buy;
    int dead = dead_value(st, kn);
    switch (kind) {
    case CARD_NEGATIVE: { /* while its holder can still be brought to its square */
        if (!(st->racing >> seat & 1) || st->pos[seat] >= kn->t.come[card])
            return dead;
        int v = kn->t.cancel[card][seat == st->banker][oca_round_others(st, seat)];
        return v > dead ? v : dead; /* clamped to [dead, buy]: cancel <= buy, dead <= buy */
    }
    case CARD_POSITIVE: /* while another racer can still land there */
        return positive_value(st, kn, seat, card, dead);
    default:
        return dead;
    }
}

/* card_value of a positive square's card, whose dead value is `dead` (out of line:
 * doc/PERFORMANCE.md). */
static GIOCHI_NOINLINE int positive_value(const oca_state *st, const knobs *kn, int seat, int card,
                                          int dead)
{
    uint32_t round = st->r->arrived_in_round ? st->members : st->racing; /* see in_round */
    int best = dead, reach = kn->t.reach[card], in = __builtin_popcount(round);
    const int16_t(*deny)[GAME_MAX_SEATS] = kn->t.deny[card];
    for (uint32_t m = st->racing & ~(1u << seat); m; m &= m - 1) {
        int j = __builtin_ctz(m);
        if (st->pos[j] < reach) { /* what it denies j, with the others of j's round */
            int v = deny[j == st->banker][in - (int)(round >> j & 1)];
            best = v > best ? v : best;
        }
    }
    return best; /* clamp(the best worth / 4, dead, buy_max) if positive, else dead */
}

/* What card_value reads of the state, exactly: the pieces, the racers, the members of the
 * round, the banker and whether the deck still lasts (the rest comes from the rules and the
 * knobs, fixed for the context). Not the turn, nor who holds which card. */
static vkey value_key(const oca_state *st)
{
    _Static_assert(sizeof st->pos == sizeof(uint64_t), "eight pieces in one word");
    _Static_assert(GAME_MAX_SEATS <= 8, "seat masks within a byte");
    vkey k;
    memcpy(&k.pos, st->pos, sizeof k.pos);
    k.rest = (uint64_t)(st->racing & 0xff) | (uint64_t)(st->members & 0xff) << 8 |
             (uint64_t)(uint8_t)(st->banker + 1) << 16 |
             (uint64_t)(st->deck_top < st->r->ncards) << 24 | 1ull << 63;
    return k;
}

/* Empties kn->vc for the position of key k (out of line: see values). */
static GIOCHI_NOINLINE void values_reset(knobs *kn, vkey k)
{
    kn->vc.key = k;
    for (int s = 0; s < GAME_MAX_SEATS; s++)
        kn->vc.have[s] = kn->vc.fixed;
}

/* The cache of this position: kn->vc, emptied if what the values depend on has changed. */
static inline vcache *values(const oca_state *st, knobs *kn)
{
    vkey k = value_key(st);
    if (((kn->vc.key.pos ^ k.pos) | (kn->vc.key.rest ^ k.rest)) != 0)
        values_reset(kn, k);
    return &kn->vc;
}

/* The players in the round of collections (see in_round): the index of kn->t.vmax. */
static int round_size(const oca_state *st)
{
    return __builtin_popcount(st->r->arrived_in_round ? st->members : st->racing);
}

/* Fills the cache's entry of seat and card (out of line: most look-ups find it filled). */
static GIOCHI_NOINLINE int cval_fill(const oca_state *st, const knobs *kn, vcache *vc, int seat,
                                     int card)
{
    vc->v[seat][card] = (int16_t)card_value(st, kn, seat, card);
    vc->have[seat] |= 1u << card;
    return vc->v[seat][card];
}

/* card_value of seat and card through the cache vc of this position. */
static inline int cval(const oca_state *st, const knobs *kn, vcache *vc, int seat, int card)
{
    if (!(vc->have[seat] >> card & 1))
        return cval_fill(st, kn, vc, seat, card);
    return vc->v[seat][card];
}

int oca_bot_check_values(void *ctx, const oca_state *st, int64_t *hits)
{
    knobs *kn = ctx;
    vcache *vc = values(st, kn);
    int bad = 0, in = round_size(st);
    for (int s = 0; s < st->n; s++)
        for (int c = 0; c < st->r->ncards; c++) {
            *hits += (vc->have[s] & ~vc->fixed) >> c & 1; /* filled here, not fixed */
            int v = card_value(st, kn, s, c); /* within the bounds that spare valuations */
            bad += cval(st, kn, vc, s, c) != v || v > kn->t.vmax[c][in] || v < dead_value(st, kn);
        }
    return bad;
}

/* Value to the mover of the move just made: his landing square plus his progress. */
static inline int move_value(const oca_state *st, const knobs *kn)
{
    int m = st->mover, sq = st->pos[m];
    return oca_square_value(st, m, sq, kn->p.k[KN_PER_SQUARE]) +
           kn->p.k[KN_PER_SQUARE] * (sq - st->from);
}

/* Sealed auction: the highest legal bid within max_bid and, with bank_ev, within the
 * break-even bid. Open auction (action 0 is "drop out", action 1 the standing bid if he may
 * offer it too, auction_tie "die"): `raise` bid steps above the bid to beat, or as near it as
 * his cap allows; the standing bid if no raise is within the cap; else drop out. */
static GIOCHI_NOINLINE int choose_bid(const oca_state *st, const decision *d, const knobs *kn)
{
    double cap = kn->p.k[KN_BANK_EV] ? kn->p.k[KN_MAX_BID] : kn->p.k[KN_MAX_BID] * kn->g.worth_factor;
    if (kn->p.k[KN_BANK_EV]) {
        double b = break_even_bid(st, kn, st->auction_kind == AUCTION_INITIAL);
        cap = b < cap ? b : cap;
    }
    if (d->action[0] == OCA_DROP) {
        int first = d->n > 1 && d->action[1] == st->high_bid ? 2 : 1; /* the smallest raise */
        if (first >= d->n || d->action[first] > cap) /* no raise within the cap */
            return first == 2 && d->action[1] <= cap ? 1 : 0;
        int best = first, last = first + kn->p.k[KN_RAISE] - 1;
        while (best < last && best + 1 < d->n && d->action[best + 1] <= cap)
            best++;
        return best;
    }
    int best = 0;
    for (int i = 0; i < d->n; i++)
        if (d->action[i] <= cap)
            best = i;
    return best;
}

/* Volunteering and taking over: the knob, and with bank_ev a bank worth more than nothing. */
static GIOCHI_NOINLINE int wants_bank(const oca_state *st, const knobs *kn, int knob)
{
    bool initial = knob == KN_VOLUNTEER;
    return kn->p.k[knob] && (!kn->p.k[KN_BANK_EV] || bank_worth(st, kn, initial) > 0);
}

/* Declarations (knob declare 2): when the expected gain is positive, or when the seat is
 * `gamble` points or more behind the richest other player (a player behind gambles). */
static inline bool declare_pays(const oca_state *st, const knobs *kn, int seat)
{
    if (kn->t.declare_ev[seat == st->banker])
        return true;
    if (kn->p.k[KN_GAMBLE] <= 0)
        return false;
    int64_t richest = 0;
    for (uint32_t m = st->solvent & ~(1u << seat); m; m &= m - 1) /* the others not bankrupt */
        if (oca_points(st, __builtin_ctz(m)) > richest)
            richest = oca_points(st, __builtin_ctz(m));
    return richest - oca_points(st, seat) >= kn->p.k[KN_GAMBLE];
}

/* Cards worth little to this seat (neutral or dead): candidates to exchange or sell. Those
 * in `sure` (spare by their bound, see kn->t.spare) are taken without valuing them. */
static uint32_t spare_cards(const oca_state *st, const knobs *kn, vcache *vc, uint32_t sure)
{
    uint32_t hand = st->hand[kn->seat], m = hand & sure;
    for (uint32_t h = hand & ~sure; h; h &= h - 1) {
        int c = __builtin_ctz(h);
        if (cval(st, kn, vc, kn->seat, c) <= kn->p.k[KN_BUY_MAX] / 4)
            m |= 1u << c;
    }
    return m;
}

/* buy_level past the bound (out of line: most cards fail the bound in buy_level). */
static GIOCHI_NOINLINE int buy_level_valued(const oca_state *st, const knobs *kn, vcache *vc, int c,
                                            int p)
{
    const oca_rules *r = st->r;
    int mine = cval(st, kn, vc, kn->seat, c);
    if (mine < r->price[p] || mine < kn->p.k[KN_RESERVE])
        return -1; /* no price it would pay can reach the owner's ask */
    int ask = cval(st, kn, vc, st->holder[c], c);
    ask = ask > kn->p.k[KN_RESERVE] ? ask : kn->p.k[KN_RESERVE];
    while (p < r->nprices && r->price[p] < ask)
        p++;
    if (p >= r->nprices || r->price[p] > mine ||
        oca_points(st, kn->seat) - r->price[p] < kn->p.k[KN_KEEP])
        return -1;
    return p;
}

/* The price index this seat offers next for card c: the lowest at which it expects the owner
 * to sell (what the card is worth to him by this bot's rules, at least its reserve), and one
 * level above its last offer for it (an offer refused is raised the next time); -1 if that
 * exceeds its own value or its purse. `in` is round_size(st). */
static inline int buy_level(const oca_state *st, const knobs *kn, vcache *vc, int c, int in)
{
    int p = kn->g.refused[c];
    if (p >= st->r->nprices)
        return -1;
    int most = kn->t.vmax[c][in]; /* its value to this seat can be no more: spare valuing it */
    if (most < st->r->price[p] || most < kn->p.k[KN_RESERVE])
        return -1;
    return buy_level_valued(st, kn, vc, c, p);
}

/* Whether this seat can offer to buy one of `cards` (held by others): buy_level finds a price
 * for it. `in` is round_size(st). */
static inline bool can_buy(const oca_state *st, const knobs *kn, vcache *vc, int in,
                           uint32_t cards)
{
    for (uint32_t m = cards; m; m &= m - 1)
        if (buy_level(st, kn, vc, __builtin_ctz(m), in) >= 0)
            return true;
    return false;
}

/* A swap both sides gain by, giving away a spare card, each side valued by this bot's own
 * rules: the action index in d (a K_TRADE_OFFER list) of the best one, or -1. */
static int best_swap(const oca_state *st, const decision *d, const knobs *kn, vcache *vc)
{
    int pick = -1, gain = 0, me = kn->seat;
    for (int i = 1; i < d->n; i++) {
        int32_t a = d->action[i];
        if (OCA_TR_TYPE(a) != TR_SWAP)
            continue;
        int mine = OCA_TR_A(a), theirs = OCA_TR_B(a), owner = st->holder[theirs];
        if (cval(st, kn, vc, me, mine) > kn->p.k[KN_BUY_MAX] / 4) /* only spare cards go */
            continue;
        int g1 = cval(st, kn, vc, me, theirs) - cval(st, kn, vc, me, mine);
        int g2 = cval(st, kn, vc, owner, mine) - cval(st, kn, vc, owner, theirs);
        if (g1 > 0 && g2 > 0 && g1 + g2 > gain) {
            pick = i;
            gain = g1 + g2;
        }
    }
    return pick;
}

/* The kind of trade worth proposing (TR_*; TR_PASS if none): exchange two spare cards, else
 * buy a card worth the next price, else a swap both gain by, else sell a spare card. With
 * `bounded`, the cards' bounds spare valuations: two cards spare by their bound are
 * exchanged unvalued, and only the cards kn->t.buyable allows are asked about to buy. */
static inline int trade_kind(const oca_state *st, knobs *kn, bool bounded)
{
    const oca_rules *r = st->r;
    int me = kn->seat, in = round_size(st);
    vcache *vc = values(st, kn);
    bool exchange = kn->p.k[KN_EXCHANGE] && st->deck_top < r->ncards;
    uint32_t sure = bounded ? kn->t.spare[in] : 0;
    if (exchange && __builtin_popcount(st->hand[me] & sure) >= 2)
        return TR_EXCHANGE;
    uint32_t spare = spare_cards(st, kn, vc, sure);
    if (exchange && __builtin_popcount(spare) >= 2)
        return TR_EXCHANGE;
    if (can_buy(st, kn, vc, in, st->held & ~st->hand[me] & (bounded ? kn->t.buyable[in] : ~0u)))
        return TR_BUY;
    int floor = dead_value(st, kn); /* what b is worth to its owner at least */
    if (st->hand[me] && (st->held & ~st->hand[me]))
        for (uint32_t m = spare; m; m &= m - 1) { /* it swaps away a card worth little to it */
            if (kn->t.vmax[__builtin_ctz(m)][in] <= floor)
                continue; /* worth no more to anyone than b to its owner, as bounded */
            for (uint32_t o = st->held & ~st->hand[me]; o; o &= o - 1) {
                int a = __builtin_ctz(m), b = __builtin_ctz(o), w = st->holder[b];
                int va = cval(st, kn, vc, me, a); /* b must be worth more, as bounded */
                if (kn->t.vmax[b][in] > va && cval(st, kn, vc, me, b) > va &&
                    cval(st, kn, vc, w, a) > cval(st, kn, vc, w, b))
                    return TR_SWAP;
            }
        }
    if (spare && r->price[r->nprices - 1] >= kn->p.k[KN_RESERVE])
        return TR_SELL;
    return TR_PASS;
}

/* The index in d (a K_TRADE list) of the kind trade_kind picks, or 0 (pass). */
static GIOCHI_NOINLINE int trade_pick(const oca_state *st, const decision *d, knobs *kn)
{
    int t = trade_kind(st, kn, true);
    for (int i = 0; i < d->n; i++)
        if (d->action[i] == t)
            return i;
    return 0;
}

/* A trade window (the commonest decision): with chance `trade`, the kind worth proposing. The
 * draw is rng_uniform's, compared unscaled (see kn->p.trade_below). */
static inline int choose_trade_kind(const oca_state *st, const decision *d, knobs *kn, rng *r)
{
    if (kn->p.trade_drawn ? rng_next(r) >> 11 >= kn->p.trade_below : kn->p.trade <= 0)
        return 0;
    return trade_pick(st, d, kn);
}

/* ---- fast path and reference: offer_sorted (with offer_index, offer_buy, offer_sell and
 * offer_exchange) gives offer_scan's answer for the lists the engine builds, reading only the
 * offers that can count; offer_scan reads every offer of any list. Kept equal at every
 * K_TRADE_OFFER of seeded games by the unit test
 * oca_bots_short_cuts_agree_with_the_full_computation (through oca_bot_check_short_cuts),
 * which also compares trade_kind and offer_answer with and without their bounds. -------- */

/* The offer a seat proposes on its own turn, read from any list d of offers (the reference
 * offer_sorted must agree with): exchange its two least valued spare cards; buy the card it
 * gains most on at its next price (see buy_level); the best swap; or sell a spare card at its
 * reserve. Returns the index in d, 0 for none; changes nothing but the cache vc. */
static int offer_scan(const oca_state *st, const decision *d, const knobs *kn, vcache *vc)
{
    const int *price = st->r->price;
    int me = kn->seat, pick = 0, best = -1000000, in = round_size(st);
    int swap = -2; /* best_swap, looked for at the first swap listed (-2: not yet) */
    /* The offers come in runs that differ only in the price (one card's, or one pair's):
     * what depends on the cards is found once per run. Scores are compared in list order,
     * a later offer winning only with a higher score. */
    for (int i = 1, end; i < d->n; i = end) {
        int32_t a = d->action[i];
        int t = OCA_TR_TYPE(a), ca = OCA_TR_A(a), cb = OCA_TR_B(a);
        for (end = i + 1; end < d->n && d->action[end] >> 8 == a >> 8; end++)
            ;
        int score = -1000000, at = i;
        if (t == TR_BUY) { /* only the offer at the card's buy level counts */
            int level = buy_level(st, kn, vc, ca, in);
            for (; level >= 0 && at < end; at++)
                if (OCA_TR_P(d->action[at]) == level) {
                    score = cval(st, kn, vc, me, ca) - price[level];
                    break;
                }
        } else if (t == TR_SELL) { /* the lowest price at or above the reserve */
            int v = cval(st, kn, vc, me, ca);
            for (int k = i; k < end; k++) {
                int pk = price[OCA_TR_P(d->action[k])];
                if (pk >= kn->p.k[KN_RESERVE] && v < pk && -pk > score) {
                    score = -pk;
                    at = k;
                }
            }
        } else if (t == TR_EXCHANGE)
            score = -cval(st, kn, vc, me, ca) - cval(st, kn, vc, me, cb);
        else if (t == TR_SWAP && i == (swap != -2 ? swap : (swap = best_swap(st, d, kn, vc))))
            score = 0;
        if (score > best) {
            best = score;
            pick = at;
        }
    }
    return pick;
}

/* The index of offer a among d's offers 1 .. n - 1, which increase, or -1 if not listed. */
static int offer_index(const decision *d, int32_t a)
{
    int lo = 1, hi = d->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (d->action[mid] == a)
            return mid;
        if (d->action[mid] < a)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* offer_scan for a list of offers to buy (see offer_sorted): the one offer that counts for
 * each card buy_level finds a price for (among the few kn->t.buyable allows), looked up. */
static int offer_buy(const oca_state *st, const decision *d, const knobs *kn, vcache *vc)
{
    int me = kn->seat, pick = 0, best = -1000000, in = round_size(st);
    for (uint32_t m = st->held & ~st->hand[me] & kn->t.buyable[in]; m; m &= m - 1) {
        int c = __builtin_ctz(m), p = buy_level(st, kn, vc, c, in), at;
        if (p < 0 || (at = offer_index(d, OCA_TRADE(TR_BUY, c, st->holder[c], p))) < 0)
            continue;
        int score = cval(st, kn, vc, me, c) - st->r->price[p];
        if (score > best) {
            best = score;
            pick = at;
        }
    }
    return pick;
}

/* offer_scan for a list of offers to sell (see offer_sorted): each card's offer would be at
 * the lowest price at or above the reserve that exceeds its value to this seat, and the
 * lowest of those wins, the first card of equals. Only the winner is looked up; a card whose
 * bound is below the reserve's price gets that price unvalued (and none can do better).
 * -1 if the winner is not listed. */
static int offer_sell(const oca_state *st, const decision *d, const knobs *kn, vcache *vc)
{
    const oca_rules *r = st->r;
    int me = kn->seat, in = round_size(st), low = kn->t.sell_from;
    int best = r->nprices, card = -1; /* the lowest price index found, and whose */
    for (uint32_t m = st->hand[me]; m && best > low; m &= m - 1) {
        int c = __builtin_ctz(m), p = low;
        if (low < r->nprices && kn->t.vmax[c][in] >= r->price[low]) {
            int v = cval(st, kn, vc, me, c);
            while (p < r->nprices && r->price[p] <= v)
                p++;
        }
        if (p < best) {
            best = p;
            card = c;
        }
    }
    return card < 0 ? 0 : offer_index(d, OCA_TRADE(TR_SELL, card, 0, best));
}

/* offer_scan for a list of exchanges (see offer_sorted): the pair of its cards of the least
 * sum of values, the first in the list's order of equals, looked up (-1 if not listed). A card
 * whose bound is a dead card's worth is worth just that, unvalued, and the first two cards
 * worth that (no card is worth less) are the pair, the later ones unvalued. */
static int offer_exchange(const oca_state *st, const decision *d, const knobs *kn, vcache *vc)
{
    int me = kn->seat, in = round_size(st), floor = dead_value(st, kn), n = 0, least = -1;
    int card[OCA_MAX_CARDS], v[OCA_MAX_CARDS];
    for (uint32_t m = st->hand[me]; m; m &= m - 1, n++) {
        card[n] = __builtin_ctz(m);
        v[n] = kn->t.vmax[card[n]][in] <= floor ? floor : cval(st, kn, vc, me, card[n]);
        if (v[n] == floor && least >= 0) /* two worth the least any card is: the rest wait */
            return offer_index(d, OCA_TRADE(TR_EXCHANGE, card[least], card[n], 0));
        least = v[n] == floor ? n : least;
    }
    if (n < 2)
        return -1;
    int i = 0, k = -1; /* the first least value; then its partner */
    for (int j = 1; j < n; j++)
        if (v[j] < v[i])
            i = j;
    for (int j = 0; j < n; j++) /* the first least of the others (after i: equal to v[i]) */
        if (j != i && (k < 0 || v[j] < v[k]))
            k = j;
    int a = i < k ? i : k, b = i < k ? k : i;
    return offer_index(d, OCA_TRADE(TR_EXCHANGE, card[a], card[b], 0));
}

/* offer_scan for the lists the engine builds to buy, to sell or to exchange (oca_cards.c):
 * offers of one kind, increasing (by card, then by price or second card). Instead of reading
 * every offer, it finds the one that counts by the cards and looks it up; cards come in the
 * list's order and a later one wins only by a higher score, as in offer_scan. Returns
 * offer_scan's answer, or -1 for other lists (a swap, kinds mixed, the winner not listed). */
static int offer_sorted(const oca_state *st, const decision *d, const knobs *kn, vcache *vc)
{
    int n = d->n, t = n > 1 ? OCA_TR_TYPE(d->action[1]) : TR_PASS;
    if (t == TR_PASS || OCA_TR_TYPE(d->action[n - 1]) != t)
        return -1;
    if (t == TR_BUY)
        return offer_buy(st, d, kn, vc);
    if (t == TR_SELL)
        return offer_sell(st, d, kn, vc);
    return t == TR_EXCHANGE ? offer_exchange(st, d, kn, vc) : -1;
}

/* K_TRADE_OFFER: offer_scan's answer (by offer_sorted where the list allows); a buy offer
 * is remembered, so that the next one for that card is a step higher (up to its value). */
static GIOCHI_NOINLINE int choose_trade(const oca_state *st, const decision *d, knobs *kn)
{
    vcache *vc = values(st, kn);
    int pick = offer_sorted(st, d, kn, vc);
    if (pick < 0)
        pick = offer_scan(st, d, kn, vc);
    if (pick > 0 && OCA_TR_TYPE(d->action[pick]) == TR_BUY) /* next time, a step higher */
        kn->g.refused[OCA_TR_A(d->action[pick])] = (int8_t)(OCA_TR_P(d->action[pick]) + 1);
    return pick;
}

/* Reactive trade: what the card on offer is worth to the mover: the loss it cancels (a
 * negative square's card) or the benefit it keeps (a positive square's card, which will not be
 * played against him, or a jolly bought to counter a card played against him). */
static int react_worth(const oca_state *st, const knobs *kn)
{
    int v = move_value(st, kn);
    int card = st->op[st->nops - 1].a; /* the OP_REACT step: its card */
    int kind = st->r->sq[st->r->card_square[card]].card;
    return kind == CARD_NEGATIVE ? -v : kind == CARD_POSITIVE || kind == CARD_JOLLY ? v : 0;
}

/* ---- fast path and reference: react_offer reads the engine's increasing prices only up to
 * half the card's worth; react_offer_scan reads any list whole. Kept equal at every
 * K_REACT_OFFER of seeded games by the unit test
 * oca_bots_short_cuts_agree_with_the_full_computation (through oca_bot_check_short_cuts). */

/* The mover's first offer, read from any list d of prices (the reference react_offer must
 * agree with): about half what the card is worth to him (w), at least the lowest price, or
 * none; of the prices up to w, the last within w / 2, else the first. */
static int react_offer_scan(const decision *d, int w)
{
    int pick = 0;
    for (int i = 1; i < d->n && d->action[i] <= w; i++)
        if (pick == 0 || d->action[i] <= w / 2)
            pick = i;
    return pick;
}

/* react_offer_scan for the engine's list, whose prices increase: the scan stops at the last
 * within w / 2 (within w too, the lesser of the two for a negative w). */
static GIOCHI_NOINLINE int react_offer(const oca_state *st, const decision *d, const knobs *kn)
{
    int w = react_worth(st, kn), half = w / 2 < w ? w / 2 : w, i = 1;
    while (i < d->n && d->action[i] <= half)
        i++;
    return i > 1 ? i - 1 : d->n > 1 && d->action[1] <= w;
}

/* The owner's answer: accept at or above what the card is worth to him (to keep, or to play
 * against the mover now), else ask that much if the mover can pay it, else refuse. */
static GIOCHI_NOINLINE int react_answer(const oca_state *st, const decision *d, const knobs *kn)
{
    int me = kn->seat, c = st->offer.card;
    int v = card_value(st, kn, me, c);
    if (st->r->sq[st->r->card_square[c]].card == CARD_POSITIVE && kn->p.k[KN_ATTACK]) {
        int use = move_value(st, kn) / 2; /* what playing it now takes from him */
        v = use > v ? use : v;
    }
    if (st->offer.price >= v)
        return 1;
    for (int i = 2; i < d->n; i++)
        if (d->action[i] >= v)
            return i;
    return 0;
}

/* A seat short of points offers its cards: the most valuable first, at the lowest price that
 * covers the shortfall (or the highest price). */
static GIOCHI_NOINLINE int choose_short_sale(const oca_state *st, const decision *d,
                                             const knobs *kn)
{
    const oca_op *o = &st->op[st->nops - 1];
    int64_t need = oca_op_due(o) - oca_points(st, kn->seat);
    int pick = 0, pick_val = -1, pick_price = 0;
    for (int i = 1; i < d->n; i++) {
        int ca = OCA_TR_A(d->action[i]), price = st->r->price[OCA_TR_P(d->action[i])];
        int v = card_value(st, kn, kn->seat, ca);
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

/* The answers that weigh something, one function each (out of line, so that answer only
 * dispatches: doc/PERFORMANCE.md). */

/* K_DECLARE: a number to declare (1..6, drawn), or 0 for none. */
static GIOCHI_NOINLINE int on_declare(const oca_state *st, const knobs *kn, rng *r)
{
    const int *k = kn->p.k;
    if (k[KN_DECLARE] == 1 || (k[KN_DECLARE] == 2 && declare_pays(st, kn, kn->seat)))
        return 1 + (int)rng_below(r, 6);
    return 0;
}

/* K_MUTUAL_AID: a number at random. */
static GIOCHI_NOINLINE int on_mutual_aid(const decision *d, rng *r)
{
    return (int)rng_below(r, (uint32_t)d->n);
}

/* K_CANCEL_OWN: when the setback it cancels is worth more than keeping the card. */
static GIOCHI_NOINLINE int on_cancel_own(const oca_state *st, const knobs *kn)
{
    int loss = -move_value(st, kn);
    int card = st->r->square_card[st->pos[kn->seat]];
    return kn->p.k[KN_DEFEND] && loss > 0 && loss >= card_value(st, kn, kn->seat, card);
}

/* K_CANCEL_OPPONENT, K_JOLLY and K_COUNTER_JOLLY: by the worth of the move to the mover. */
static GIOCHI_NOINLINE int on_card_play(const oca_state *st, const knobs *kn, int kind)
{
    const int *k = kn->p.k;
    bool mine = kn->seat == st->mover;
    if (kind == K_CANCEL_OPPONENT)
        return k[KN_ATTACK] && move_value(st, kn) > 0;
    if (kind == K_JOLLY) {
        if (mine)
            return k[KN_DEFEND] && move_value(st, kn) <= -k[KN_JOLLY_MIN];
        return k[KN_ATTACK] && move_value(st, kn) >= k[KN_JOLLY_MIN];
    }
    if (mine)
        return k[KN_DEFEND] && move_value(st, kn) > 0;
    return k[KN_ATTACK] && move_value(st, kn) <= -k[KN_JOLLY_MIN];
}

/* K_BUY_CARD, K_SELL_CARD and K_SWAP: the offer against the cards' worth to this seat. With
 * `bounded`, a price the card's bound (vmax) decides spares valuing it. */
static inline int offer_answer(const oca_state *st, const knobs *kn, int kind, bool bounded)
{
    const int *k = kn->p.k;
    const oca_offer *f = &st->offer;
    int me = kn->seat, most = bounded ? kn->t.vmax[f->card][round_size(st)] : INT16_MAX;
    if (kind == K_BUY_CARD) /* the purse first: it spares most valuations */
        return oca_points(st, me) - f->price >= k[KN_KEEP] && f->price <= most &&
               f->price <= card_value(st, kn, me, f->card);
    if (kind == K_SELL_CARD) {
        if (f->price >= k[KN_RESERVE] && f->price >= most)
            return 1;
        int v = card_value(st, kn, me, f->card);
        return f->price >= (v > k[KN_RESERVE] ? v : k[KN_RESERVE]);
    }
    return card_value(st, kn, me, f->card) > card_value(st, kn, me, f->card2);
}

/* offer_answer, bounded (out of line: see answer). */
static GIOCHI_NOINLINE int on_offer(const oca_state *st, const knobs *kn, int kind)
{
    return offer_answer(st, kn, kind, true);
}

/* Whether kn->p.trade_below decides every draw as rng_uniform(r) < trade would: the last draw
 * below it scales below trade, and the draw at it does not (the scaling is exact and rises). */
static bool trade_below_exact(const knobs *kn)
{
    return !kn->p.trade_drawn || ((double)(kn->p.trade_below - 1) * 0x1p-53 < kn->p.trade &&
                                (double)kn->p.trade_below * 0x1p-53 >= kn->p.trade);
}

int oca_bot_check_short_cuts(void *ctx, const oca_state *st, const decision *d)
{
    knobs *kn = ctx;
    vcache *vc = values(st, kn);
    if (d->kind == K_VOLUNTEER || (d->kind == K_BID && st->auction_kind == AUCTION_INITIAL))
        return kn->g.worth_start == start_worth(st, kn);
    if (d->kind == K_TRADE)
        return trade_below_exact(kn) && trade_kind(st, kn, true) == trade_kind(st, kn, false);
    if (d->kind == K_BUY_CARD || d->kind == K_SELL_CARD) /* an offer made to it */
        return offer_answer(st, kn, d->kind, true) == offer_answer(st, kn, d->kind, false);
    if (d->kind == K_REACT_OFFER)
        return react_offer(st, d, kn) == react_offer_scan(d, react_worth(st, kn));
    if (d->kind != K_TRADE_OFFER)
        return -1;
    int fast = offer_sorted(st, d, kn, vc);
    return fast < 0 ? -1 : fast == offer_scan(st, d, kn, vc);
}

/* K_REACT_COUNTER: the asked price against the card's worth to the mover. */
static GIOCHI_NOINLINE int on_react_counter(const oca_state *st, const knobs *kn)
{
    return st->offer.price <= react_worth(st, kn);
}

/* choose once the game is under way (new_game has nothing to do): the answer of each kind
 * of decision; a trade window, the commonest and mostly passed by a draw, told first. */
static inline int answer(knobs *kn, const oca_state *st, const decision *d, rng *r)
{
    if (d->kind == K_TRADE) /* the commonest, before the switch */
        return choose_trade_kind(st, d, kn, r);
    switch (d->kind) {
    case K_VOLUNTEER:
        return wants_bank(st, kn, KN_VOLUNTEER);
    case K_BID:
        return choose_bid(st, d, kn);
    case K_BANKER_PLAYS:
        return !kn->p.k[KN_SIT_OUT];
    case K_DECLARE:
        return on_declare(st, kn, r);
    case K_MUTUAL_AID:
        return on_mutual_aid(d, r);
    case K_CANCEL_OWN:
        return on_cancel_own(st, kn);
    case K_CANCEL_OPPONENT:
    case K_JOLLY:
    case K_COUNTER_JOLLY:
        return on_card_play(st, kn, d->kind);
    case K_TRADE_OFFER:
        return choose_trade(st, d, kn);
    case K_BUY_CARD:
    case K_SELL_CARD:
    case K_SWAP:
        return on_offer(st, kn, d->kind);
    case K_SHORT_SALE:
        return choose_short_sale(st, d, kn);
    case K_TAKE_OVER_BANK:
        return wants_bank(st, kn, KN_TAKEOVER);
    case K_REACT_OFFER:
        return kn->p.trade > 0 ? react_offer(st, d, kn) : 0;
    case K_REACT_ANSWER:
        return react_answer(st, d, kn);
    case K_REACT_COUNTER:
        return on_react_counter(st, kn);
    }
    return 0; /* a kind without an opinion: the first action is always legal */
}

/* choose at the first choice of a game, or for a caller without begin (new_game then
 * tells a new game by the deal). */
static GIOCHI_NOINLINE int choose_first(knobs *kn, const oca_state *st, const decision *d, rng *r)
{
    new_game(kn, st, r);
    return answer(kn, st, d, r);
}

/* bot_type.choose: new_game at the first choice of a game (out of line: the usual call is
 * the first test), then the answer. */
static int choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    knobs *kn = ctx;
    if (kn->g.first)
        return choose_first(kn, seen, d, r);
    return answer(kn, seen, d, r);
}

const bot_type oca_bot_cautious = {
    .name = "cautious",
    .doc = "never volunteers, bids or declares; uses postcards only defensively; sits out "
           "of the race if made banker",
    .params = cautious_params,
    .ctx_size = sizeof(knobs),
    .setup = setup,
    .retune = retune,
    .choose = choose,
    .begin = begin,
    .peer = peer,
};

/* bot_type.param_default of greedy: knob i's default at a table of nseats players, from
 * greedy_by_players (a knob set as greedy:key=value keeps its value at every table). */
static double greedy_default(int i, int nseats)
{
    const bot_param *p = nseats >= 0 && nseats <= GAME_MAX_SEATS && greedy_by_players[nseats]
                             ? greedy_by_players[nseats]
                             : greedy_params;
    return p[i].def;
}

const bot_type oca_bot_greedy = {
    .name = "greedy",
    .doc = "expected-value player, knobs from best-response iteration (own defaults at 2 and "
           "3 players): volunteers and bids up "
           "to max_bid with its own error each game (value_sd; bank_ev=1: by the bank's "
           "modelled worth), sits out of the race as banker, declares when the stake pays or "
           "when behind (gamble), plays cards when the points at stake exceed their worth, "
           "values cards by whether their square can still come into play, raises its buy "
           "offers up to that worth, swaps when both gain, exchanges or sells dead cards",
    .params = greedy_params,
    .param_default = greedy_default,
    .ctx_size = sizeof(knobs),
    .setup = setup,
    .retune = retune,
    .choose = choose,
    .begin = begin,
    .peer = peer,
};

const bot_type oca_bot_greedy_2026 = {
    .name = "greedy-2026",
    .doc = "greedy with the hand-set knobs it had until its defaults came from best-response "
           "iteration (declares when 30 points behind, always races as banker, bids the "
           "bank's worth): to reproduce figures made with the old default",
    .params = greedy_2026_params,
    .ctx_size = sizeof(knobs),
    .setup = setup,
    .retune = retune,
    .choose = choose,
    .begin = begin,
    .peer = peer,
};

const bot_type oca_bot_aggressive = {
    .name = "aggressive",
    .doc = "volunteers and bids high, always declares, attacks with postcards and jollies, "
           "buys cards",
    .params = aggressive_params,
    .ctx_size = sizeof(knobs),
    .setup = setup,
    .retune = retune,
    .choose = choose,
    .begin = begin,
    .peer = peer,
};
