/* oca_cards.c — Gioco dell'Oca (seed 000), articles 10-13: the postcards (the deal, plays
 * against a square, jollies and counter-jollies, trades, two-for-one exchanges, short sales). */
#include <stdlib.h>
#include <string.h>

#include "games/oca/oca_engine.h"

static int react_jolly(const oca_state *st, int s, int j);

int oca_cards_held(const oca_state *st, int seat)
{
    return __builtin_popcount(st->hand[seat]);
}

void oca_deal(oca_state *st, rng *ch, trace *tr)
{
    const oca_rules *r = st->r;
    int ids[OCA_MAX_CARDS];
    for (int c = 0; c < r->ncards; c++) {
        ids[c] = c;
        st->holder[c] = HOLD_DECK;
    }
    rng_shuffle_int(ch, ids, r->ncards);
    for (int c = 0; c < r->ncards; c++)
        st->deck[c] = (int8_t)ids[c];
    int k = st->n > r->many_players ? r->cards_per_player_many : r->cards_per_player;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < st->n; j++) {
            int s = after(st, st->capo, j), c = st->deck[st->deck_top++];
            oca_give(st, c, s);
            TRACE(tr, "seat %d receives the postcard of square %d", s + 1, r->card_square[c]);
        }
}

static void spend(oca_state *st, int card, int seat, const char *what, trace *tr)
{
    oca_give(st, card, HOLD_SPENT);
    TRACE(tr, "seat %d plays the postcard of square %d: %s", seat + 1, st->r->card_square[card],
          what);
}

/* The asked seat of a card step, or -1 if nobody is to be asked any more. */
static int card_asked(oca_state *st, oca_op *o)
{
    if (o->type == OP_CANCEL_OWN || o->type == OP_CANCEL_OPP) {
        int c = st->r->square_card[o->a];
        return !st->cancelled && st->holder[c] == o->seat && !st->bankrupt[o->seat] ? o->seat
                                                                                      : -1;
    }
    /* OP_JOLLY asks from the mover on (stage 0..n-1); OP_COUNTER from after the player */
    bool jolly = o->type == OP_JOLLY;
    if (jolly ? st->cancelled : !st->cancelled)
        return -1;
    uint32_t holders = 0; /* the solvent seats holding a jolly, as places after o->seat */
    for (uint32_t m = st->held & st->r->jolly_mask; m; m &= m - 1)
        holders |= 1u << st->holder[__builtin_ctz(m)];
    holders &= st->solvent;
    int n = st->n, s = o->seat, first = jolly || o->stage > 0 ? o->stage : 1;
    uint32_t places = (holders >> s | holders << (n - s)) & ((1u << n) - 1) & ~((1u << first) - 1);
    if (places == 0) {
        o->stage = (int8_t)n;
        return -1;
    }
    o->stage = (int8_t)__builtin_ctz(places);
    return after(st, s, o->stage);
}

bool oca_card_step(oca_state *st)
{
    oca_op *o = top(st);
    int j = card_asked(st, o);
    if (j < 0) {
        pop(st);
        return false;
    }
    static const int kind[] = {[OP_CANCEL_OWN] = K_CANCEL_OWN,
                               [OP_CANCEL_OPP] = K_CANCEL_OPPONENT,
                               [OP_JOLLY] = K_JOLLY,
                               [OP_COUNTER] = K_COUNTER_JOLLY};
    return ask_yes_no(st, j, kind[o->type]);
}

void oca_answer_card(oca_state *st, int32_t a, trace *tr)
{
    oca_op *o = top(st);
    int j = st->pend.seat, type = o->type;
    if (a == 0) {
        if (type == OP_JOLLY || type == OP_COUNTER)
            o->stage++;
        else
            pop(st);
        return;
    }
    pop(st);
    if (type == OP_JOLLY || type == OP_COUNTER) {
        spend(st, jolly_of(st, j), j, type == OP_JOLLY ? "jolly, the move is cancelled"
                                                       : "jolly, the card play is cancelled",
              tr);
        st->cancelled = type == OP_JOLLY;
        if (type == OP_JOLLY)
            st->s.jolly++;
        else
            st->s.counter_jolly++;
        return;
    }
    spend(st, st->r->square_card[o->a], j, "the square is cancelled", tr);
    st->cancelled = true;
    if (type == OP_CANCEL_OWN)
        st->s.cancel_own++;
    else
        st->s.cancel_opponent++;
    push(st, OP_COUNTER, j, 0, 0, 0, 0);
    if (type == OP_CANCEL_OPP) { /* the mover may first buy a jolly to counter the play */
        int c = react_jolly(st, st->mover, j);
        if (c >= 0)
            push(st, OP_REACT, st->mover, c, 0, 0, 0);
    }
}

/* The number of leading prices (they increase) that are at most `most`. */
static int prices_upto(const oca_rules *r, int64_t most)
{
    int np = 0;
    while (np < r->nprices && r->price[np] <= most)
        np++;
    return np;
}

/* Lists the offers of one kind (TR_*) seat s can make, after 0 (withdraw), as room allows.
 * The list is built in a local count (the actions would alias d->n). */
static void build_offers(oca_state *st, int s, int type)
{
    const oca_rules *r = st->r;
    decision *d = &st->pend;
    int32_t *act = d->action;
    int n = 0;
    d->seat = s;
    d->kind = K_TRADE_OFFER;
    act[n++] = 0;
    int mine[OCA_MAX_CARDS], nm = 0;
    if (type != TR_BUY)
        for (uint32_t h = st->hand[s]; h; h &= h - 1) /* in increasing order */
            mine[nm++] = __builtin_ctz(h);
    if (type == TR_EXCHANGE) {
        for (int i = 0; i < nm; i++)
            for (int k = i + 1; k < nm && n < GAME_MAX_ACTIONS; k++)
                act[n++] = OCA_TRADE(TR_EXCHANGE, mine[i], mine[k], 0);
    } else if (type == TR_SELL) { /* the prices the richest other player can pay */
        int64_t richest = 0;
        for (uint32_t o = st->solvent & ~(1u << s); o; o &= o - 1)
            if (st->led.balance[__builtin_ctz(o)] > richest)
                richest = st->led.balance[__builtin_ctz(o)];
        int np = prices_upto(r, richest);
        for (int i = 0; i < nm; i++) {
            int k = np < GAME_MAX_ACTIONS - n ? np : GAME_MAX_ACTIONS - n;
            fill_steps(act + n, OCA_TRADE(TR_SELL, mine[i], 0, 0), 1, k);
            n += k;
        }
    } else if (type == TR_BUY) { /* the prices he can pay, for each card another seat holds */
        int np = prices_upto(r, st->led.balance[s]);
        for (uint32_t theirs = others_hands(st, s); theirs; theirs &= theirs - 1) {
            int c = __builtin_ctz(theirs);
            int32_t base = OCA_TRADE(TR_BUY, c, st->holder[c], 0);
            int k = np < GAME_MAX_ACTIONS - n ? np : GAME_MAX_ACTIONS - n;
            fill_steps(act + n, base, 1, k);
            n += k;
        }
    } else { /* TR_SWAP: each of his cards for each card another seat holds */
        for (uint32_t theirs = others_hands(st, s); theirs; theirs &= theirs - 1) {
            int c = __builtin_ctz(theirs);
            int k = nm < GAME_MAX_ACTIONS - n ? nm : GAME_MAX_ACTIONS - n;
            for (int i = 0; i < k; i++)
                act[n + i] = OCA_TRADE(TR_SWAP, mine[i], c, 0);
            n += k;
        }
    }
    d->n = n;
}

const int32_t oca_window_actions[16][8] = {
    {TR_PASS},
    {TR_PASS, TR_SELL},
    {TR_PASS, TR_BUY},
    {TR_PASS, TR_SELL, TR_BUY},
    {TR_PASS, TR_SWAP},
    {TR_PASS, TR_SELL, TR_SWAP},
    {TR_PASS, TR_BUY, TR_SWAP},
    {TR_PASS, TR_SELL, TR_BUY, TR_SWAP},
    {TR_PASS, TR_EXCHANGE},
    {TR_PASS, TR_SELL, TR_EXCHANGE},
    {TR_PASS, TR_BUY, TR_EXCHANGE},
    {TR_PASS, TR_SELL, TR_BUY, TR_EXCHANGE},
    {TR_PASS, TR_SWAP, TR_EXCHANGE},
    {TR_PASS, TR_SELL, TR_SWAP, TR_EXCHANGE},
    {TR_PASS, TR_BUY, TR_SWAP, TR_EXCHANGE},
    {TR_PASS, TR_SELL, TR_BUY, TR_SWAP, TR_EXCHANGE},
};

/* The trade step, once its kind is chosen (stage): the list of offers of that kind. */
bool oca_trade_step(oca_state *st)
{
    oca_op *o = top(st);
    build_offers(st, o->seat, o->stage);
    return true;
}

void oca_answer_trade(oca_state *st, int32_t a, trace *tr)
{
    int s = top(st)->seat;
    pop(st);
    int t = OCA_TR_TYPE(a), ca = OCA_TR_A(a), cb = OCA_TR_B(a);
    if (t == TR_PASS)
        return;
    if (t == TR_EXCHANGE) {
        oca_give(st, ca, HOLD_OUT);
        oca_give(st, cb, HOLD_OUT);
        int c = st->deck[st->deck_top++];
        oca_give(st, c, s);
        st->s.exchanges++;
        TRACE(tr, "seat %d gives the postcards of squares %d and %d to the Capo-gioco for the "
              "postcard of square %d", s + 1, st->r->card_square[ca], st->r->card_square[cb],
              st->r->card_square[c]);
        return;
    }
    int price = st->r->price[OCA_TR_P(a)];
    if (t == TR_SELL)
        st->offer = (oca_offer){TR_SELL, (int8_t)s, -1, (int8_t)ca, -1, price};
    else if (t == TR_BUY)
        st->offer = (oca_offer){TR_BUY, (int8_t)s, (int8_t)cb, (int8_t)ca, -1, price};
    else
        st->offer = (oca_offer){TR_SWAP, (int8_t)s, st->holder[cb], (int8_t)ca, (int8_t)cb, 0};
    push(st, OP_RESPOND, -1, 0, 0, 0, 0);
    top(st)->stage = 1;
}

/* Who is asked about st->offer now, or -1. */
static int respond_asked(oca_state *st, oca_op *o)
{
    const oca_offer *f = &st->offer;
    if (f->type != TR_SELL) {
        int owner = f->type == TR_BUY ? f->card : f->card2;
        bool ok = o->stage == 1 && st->holder[owner] == f->to && !st->bankrupt[f->to] &&
                  (f->type == TR_SWAP || st->led.balance[f->from] >= f->price);
        return ok ? f->to : -1;
    }
    for (; o->stage < st->n; o->stage++) {
        int j = after(st, f->from, o->stage);
        if (!st->bankrupt[j] && st->led.balance[j] >= f->price)
            return j;
    }
    return -1;
}

bool oca_respond_step(oca_state *st)
{
    oca_op *o = top(st);
    int j = respond_asked(st, o);
    if (j < 0) {
        pop(st);
        return false;
    }
    static const int kind[] = {[TR_SELL] = K_BUY_CARD, [TR_BUY] = K_SELL_CARD,
                               [TR_SWAP] = K_SWAP};
    return ask_yes_no(st, j, kind[st->offer.type]);
}

/* Executes an accepted sale of card from seller to buyer at price. */
static void sell(oca_state *st, int card, int seller, int buyer, int price, trace *tr)
{
    ledger_transfer(&st->led, buyer, seller, price, oca_reason_names[R_SALE],
                    st->r->card_square[card], tr);
    oca_give(st, card, buyer);
    st->s.trades++;
    st->s.trade_value += price;
    if (st->s.nsales < (int)(sizeof st->s.sale_price / sizeof st->s.sale_price[0]))
        st->s.sale_price[st->s.nsales++] = (int16_t)price;
    TRACE(tr, "seat %d sells the postcard of square %d to seat %d for %d", seller + 1,
          st->r->card_square[card], buyer + 1, price);
}

void oca_answer_respond(oca_state *st, int32_t a, trace *tr)
{
    oca_op *o = top(st);
    int j = st->pend.seat;
    const oca_offer f = st->offer;
    if (a == 0) {
        if (f.type == TR_SELL)
            o->stage++;
        else
            o->stage = (int8_t)st->n;
        return;
    }
    pop(st);
    if (f.type == TR_SELL)
        sell(st, f.card, f.from, j, f.price, tr);
    else if (f.type == TR_BUY)
        sell(st, f.card, j, f.from, f.price, tr);
    else {
        oca_give(st, f.card, j);
        oca_give(st, f.card2, f.from);
        st->s.swaps++;
        TRACE(tr, "seats %d and %d swap the postcards of squares %d and %d", f.from + 1, j + 1,
              st->r->card_square[f.card], st->r->card_square[f.card2]);
    }
}

/* Whether seat can offer a card for sale to somebody able to pay the lowest price. */
bool oca_can_sell(const oca_state *st, int seat)
{
    if (!st->r->trading || oca_cards_held(st, seat) == 0)
        return false;
    for (int j = 0; j < st->n; j++)
        if (j != seat && !st->bankrupt[j] && st->led.balance[j] >= st->r->price[0])
            return true;
    return false;
}

bool oca_build_short_sale(oca_state *st, int seat)
{
    decision *d = &st->pend;
    d->n = 0;
    d->action[d->n++] = 0;
    for (int c = 0; c < st->r->ncards; c++) {
        if (st->holder[c] != seat)
            continue;
        /* an offer refused in this shortfall comes back only at a lower price: the same
         * offer again would be the same question to the same buyers */
        int below = st->short_refused[c] ? st->short_refused[c] - 1 : st->r->nprices;
        for (int p = 0; p < below && d->n < GAME_MAX_ACTIONS; p++)
            d->action[d->n++] = OCA_TRADE(TR_SELL, c, 0, p);
    }
    if (d->n == 1)
        return false;
    d->seat = seat;
    d->kind = K_SHORT_SALE;
    return true;
}

void oca_answer_short(oca_state *st, oca_op *o, int32_t a)
{
    if (a == 0) {
        o->stage = STAGE_AID;
        return;
    }
    o->stage++;
    st->short_refused[OCA_TR_A(a)] = (int8_t)(OCA_TR_P(a) + 1); /* if refused: only for less */
    st->offer = (oca_offer){TR_SELL, o->seat, -1, (int8_t)OCA_TR_A(a), -1,
                            st->r->price[OCA_TR_P(a)]};
    st->s.short_sales++;
    push(st, OP_RESPOND, -1, 0, 0, 0, 0);
    top(st)->stage = 1;
}

/* ---- reactive trades ------------------------------------------------------------------- */

enum { REACT_STEPS = 40 }; /* prices: 1..40 times the lowest trade price */

/* A reactive trade after a card play: a jolly the mover s (who holds none) may offer to buy,
 * from the first other holder clockwise but the seat j who played against him, to counter
 * the play; -1 if none. */
static int react_jolly(const oca_state *st, int s, int j)
{
    const oca_rules *r = st->r;
    if (!r->trading || !r->reactive_trades || st->bankrupt[s] || jolly_of(st, s) >= 0 ||
        st->led.balance[s] < r->price[0])
        return -1;
    for (int k = 1; k < st->n; k++) {
        int h = after(st, s, k);
        if (h != j && !st->bankrupt[h] && jolly_of(st, h) >= 0)
            return jolly_of(st, h);
    }
    return -1;
}

bool oca_react_possible(const oca_state *st, int s, int sq)
{
    const oca_rules *r = st->r;
    int c = r->square_card[sq];
    if (!r->trading || !r->reactive_trades || c == OCA_NO_CARD)
        return false;
    int h = st->holder[c], kind = r->sq[sq].card;
    return h >= 0 && h != s && !st->bankrupt[h] &&
           (kind == CARD_POSITIVE || kind == CARD_NEGATIVE) && st->led.balance[s] >= r->price[0];
}

/* Lists the prices from lo up, in steps of the lowest trade price, that seat buyer can pay,
 * after the fixed actions already in d. */
static void list_prices(const oca_state *st, decision *d, int64_t lo, int buyer)
{
    int step = st->r->price[0];
    int64_t hi = st->led.balance[buyer];
    if (hi > (int64_t)step * REACT_STEPS)
        hi = (int64_t)step * REACT_STEPS;
    if (lo > hi)
        return;
    int64_t count = (hi - lo) / step + 1; /* lo, lo + step, ... up to hi, as room allows */
    if (count > GAME_MAX_ACTIONS - d->n)
        count = GAME_MAX_ACTIONS - d->n;
    fill_steps(d->action + d->n, (int32_t)lo, step, (int)count);
    d->n += (int)count;
}

bool oca_react_step(oca_state *st)
{
    oca_op *o = top(st);
    decision *d = &st->pend;
    const oca_offer *f = &st->offer;
    int step = st->r->price[0];
    d->n = 0;
    switch (o->stage) {
    case 0: /* the lander's offer: nothing (0) or a price */
        d->seat = o->seat;
        d->kind = K_REACT_OFFER;
        d->action[d->n++] = 0;
        list_prices(st, d, step, o->seat);
        return true;
    case 1: /* the owner: refuse (0), accept (1), or ask more (a price above the offer) */
        d->seat = f->to;
        d->kind = K_REACT_ANSWER;
        d->action[d->n++] = 0;
        d->action[d->n++] = 1;
        list_prices(st, d, f->price + step, f->from);
        return true;
    default: /* the lander takes the asked price or not */
        return ask_yes_no(st, o->seat, K_REACT_COUNTER);
    }
}

void oca_answer_react(oca_state *st, int32_t a, trace *tr)
{
    oca_op *o = top(st);
    oca_offer *f = &st->offer;
    int s = o->seat, c = o->a;
    if (o->stage == 0 && a > 0) {
        *f = (oca_offer){TR_BUY, (int8_t)s, st->holder[c], (int8_t)c, -1, a};
        st->s.react_offers++;
        TRACE(tr, "seat %d offers %d to seat %d for the postcard of square %d", s + 1, a,
              f->to + 1, st->r->card_square[c]);
        o->stage = 1;
        return;
    }
    if (o->stage == 1 && a > 1) {
        f->price = a;
        st->s.react_counters++;
        TRACE(tr, "seat %d asks %d for it", f->to + 1, a);
        o->stage = 2;
        return;
    }
    pop(st);
    if (a == 0) {
        if (o->stage > 0)
            TRACE(tr, "no sale");
        return;
    }
    st->s.react_trades++;
    sell(st, f->card, f->to, f->from, f->price, tr);
}
