/* oca_auction.c — Gioco dell'Oca (seed 000), articles 3 and 8: who holds the bank (volunteers,
 * the auction among several, the failed bank's takeover, the cashier when nobody will). */
#include <stdlib.h>
#include <string.h>

#include "games/oca/oca_engine.h"

/* Nobody (solvent) volunteered for the bank: the no_volunteer gap rule decides. */
static void no_volunteer(oca_state *st, trace *tr)
{
    if (st->r->no_volunteer == NOVOL_CAPO) {
        st->banker = st->capo;
        TRACE(tr, "no volunteer: the Capo-gioco (seat %d) is the banker", st->capo + 1);
    } else {
        st->cashier = true;
        st->s.cashier_from_start = 1;
        TRACE(tr, "no volunteer: the Capo-gioco (seat %d) keeps the bank as cashier",
              st->capo + 1);
    }
}

/* Nobody (solvent) takes over a failed bank: the Capo-gioco runs it as a cashier, owing
 * each creditor his unpaid part of the loss (art. 8). */
static void no_taker(oca_state *st, trace *tr)
{
    st->cashier = true;
    st->s.cashier_later = 1;
    TRACE(tr, "no taker: the Capo-gioco (seat %d) runs the bank as cashier", st->capo + 1);
    for (int k = 1; k <= st->n; k++) {
        int c = after(st, st->capo, k % st->n);
        if (st->takeover_owed[c] > 0 && !st->bankrupt[c])
            oca_add_debt(st, c, st->takeover_owed[c], tr);
    }
}

/* The new banker w covers every unpaid part of the failed bank's loss. */
static void cover_loss(oca_state *st, int w)
{
    for (int c = st->n - 1; c >= 0; c--)
        if (st->takeover_owed[c] > 0)
            pay(st, w, c, st->takeover_owed[c], R_COVER, -1);
}

/* Opens an auction (kind AUCTION_*) among st->bidders, asked clockwise from `first`: sealed,
 * one OP_BID step per bidder; open, one OP_BID step that goes round the table until one
 * bidder is left (oca_bid_step). OP_AUCTION, below, settles it. */
static void start_auction(oca_state *st, int kind, int first)
{
    st->auction_kind = kind;
    memset(st->bid, 0, sizeof st->bid);
    st->high_bid = st->high_bidder = -1;
    st->high_set = 0;
    push(st, OP_AUCTION, -1, kind, 0, 0, 0);
    if (st->r->auction == AUC_OPEN) {
        push(st, OP_BID, first, 0, 0, 0, 0);
        return;
    }
    for (int k = st->n - 1; k >= 0; k--) {
        int s = after(st, first, k);
        if (st->bidders >> s & 1)
            push(st, OP_BID, s, 0, 0, 0, 0);
    }
}

bool oca_bank_settle(oca_state *st, trace *tr)
{
    pop(st);
    int count = __builtin_popcount(st->bidders);
    st->s.volunteers = count;
    st->s.volunteer_set = st->bidders;
    if (count == 1) {
        st->banker = __builtin_ctz(st->bidders);
        TRACE(tr, "seat %d is the banker", st->banker + 1);
    } else if (count == 0) {
        no_volunteer(st, tr);
    } else {
        st->s.auction = 1;
        st->s.bidders = count;
        start_auction(st, AUCTION_INITIAL, after(st, st->capo, 1));
    }
    return false;
}

/* Participants an auction winner pays his bid to: every other seat not bankrupt. */
static int others(const oca_state *st, int s)
{
    return __builtin_popcount(st->solvent & ~(1u << s));
}

/* The highest bid seat s can make: bid_max, and what he can pay every other player (after
 * covering the loss, in a takeover; counting the entry fees the others will pay him, in the
 * initial auction with bid_paid "after_fees"). */
static int64_t bid_cap(const oca_state *st, int s)
{
    int64_t budget = st->led.balance[s];
    int k = others(st, s);
    if (st->auction_kind == AUCTION_TAKEOVER) /* he must also cover the loss */
        budget -= st->takeover_loss;
    else if (st->r->bid_paid == BID_AFTER_FEES)
        budget += (int64_t)k * st->r->entry_fee;
    int64_t cap = k > 0 ? budget / k : 0;
    if (cap > st->r->bid_max)
        cap = st->r->bid_max;
    return cap < 0 ? 0 : cap;
}

/* Lists seat s's bids from lo up to cap (his bid_cap), after "drop out" if `drop` and the
 * standing bid `match` if it is not negative. */
static bool list_bids(oca_state *st, int s, int64_t lo, int64_t cap, bool drop, int64_t match)
{
    decision *d = &st->pend;
    d->seat = s;
    d->kind = K_BID;
    int n = 0, step = st->r->bid_step; /* a local count: the actions would alias d->n */
    if (drop)
        d->action[n++] = OCA_DROP;
    if (match >= 0)
        d->action[n++] = (int32_t)match;
    if (lo <= cap) { /* lo, lo + step, ... up to cap, as room allows */
        int64_t count = (cap - lo) / step + 1;
        if (count > GAME_MAX_ACTIONS - n)
            count = GAME_MAX_ACTIONS - n;
        fill_steps(d->action + n, (int32_t)lo, step, (int)count);
        n += (int)count;
    }
    d->n = n;
    return true;
}

/* The open auction's round (article 3, gap auction_tie): clockwise from the op's seat, the
 * next bidder still in who does not hold the standing bid raises it by one bid_step at least
 * (the opening bid may be 0), or drops out; under TIE_DIE he may also offer the standing
 * sum itself and hold it with the others who offered it. One who can do neither drops out.
 * Ends (pops) when one bidder is left, or when every one still in holds the standing bid. */
static bool open_round(oca_state *st, trace *tr)
{
    oca_op *o = top(st);
    for (;;) {
        st->bidders &= (uint8_t)st->solvent;
        st->high_set &= st->bidders;
        if (__builtin_popcount(st->bidders) <= 1 || !(st->bidders & ~st->high_set)) {
            pop(st);
            return false;
        }
        int j = o->seat;
        while (!(st->bidders >> j & 1) || st->high_set >> j & 1)
            j = after(st, j, 1);
        o->seat = (int8_t)j;
        int64_t lo = st->high_bid < 0 ? 0 : st->high_bid + st->r->bid_step;
        int64_t cap = bid_cap(st, j);
        int64_t match = st->r->auction_tie == TIE_DIE && st->high_bid >= 0 &&
                                st->high_bid <= cap ? st->high_bid : -1;
        if (lo <= cap || match >= 0)
            return list_bids(st, j, lo, cap, true, match);
        st->bidders &= (uint8_t)~(1u << j);
        TRACE(tr, "seat %d cannot raise to %lld and drops out", j + 1, (long long)lo);
    }
}

bool oca_bid_step(oca_state *st, trace *tr)
{
    oca_op *o = top(st);
    if (st->r->auction == AUC_OPEN)
        return open_round(st, tr);
    if (st->bankrupt[o->seat]) { /* went bankrupt since volunteering: no bid */
        st->bidders &= (uint8_t)~(1u << o->seat);
        pop(st);
        return false;
    }
    return list_bids(st, o->seat, 0, bid_cap(st, o->seat), false, -1);
}

void oca_answer_bid(oca_state *st, int32_t a, trace *tr)
{
    oca_op *o = top(st);
    int s = o->seat;
    if (st->r->auction == AUC_SEALED) {
        st->bid[s] = a;
        pop(st);
        return;
    }
    if (a == OCA_DROP) {
        st->bidders &= (uint8_t)~(1u << s);
        TRACE(tr, "seat %d drops out of the auction", s + 1);
    } else if (a == st->high_bid) { /* TIE_DIE: he offers the standing sum too */
        st->bid[s] = a;
        st->high_set |= (uint8_t)(1u << s);
        TRACE(tr, "seat %d also offers %d to each", s + 1, a);
    } else {
        st->bid[s] = st->high_bid = a;
        st->high_bidder = s;
        st->high_set = (uint8_t)(1u << s);
        TRACE(tr, "seat %d bids %d to each", s + 1, a);
    }
    o->seat = (int8_t)after(st, s, 1);
}

void oca_auction_settle(oca_state *st, rng *ch, trace *tr)
{
    oca_op o = *top(st);
    pop(st);
    int best = -1;
    uint32_t set = 0;
    for (int s = 0; s < st->n; s++)
        if (st->bidders >> s & 1 && !st->bankrupt[s]) {
            if (st->bid[s] > best) {
                best = st->bid[s];
                set = 0;
            }
            if (st->bid[s] == best)
                set |= 1u << s;
        }
    while (__builtin_popcount(set) > 1) { /* equal bids: the tied roll the die */
        int hi = 0;
        uint32_t next = 0;
        for (int s = 0; s < st->n; s++)
            if (set >> s & 1) {
                int roll = rng_die(ch, 6);
                TRACE(tr, "seat %d rolls %d to break the tie of bids", s + 1, roll);
                if (roll > hi) {
                    hi = roll;
                    next = 0;
                }
                if (roll == hi)
                    next |= 1u << s;
            }
        set = next;
    }
    if (set == 0) { /* every bidder went bankrupt before the auction was settled */
        if (o.a == AUCTION_INITIAL)
            no_volunteer(st, tr);
        else
            no_taker(st, tr);
        return;
    }
    int w = __builtin_ctz(set);
    st->banker = w;
    TRACE(tr, "seat %d wins the bank with %d to each other player", w + 1, best);
    if (o.a == AUCTION_INITIAL) {
        st->s.winning_bid = best;
        st->s.auction_winner = w;
        if (st->r->bid_paid == BID_AFTER_FEES) { /* OP_ENTRY pays it (oca_pay_bid) */
            st->bid_due = true;
            return;
        }
    } else
        cover_loss(st, w);
    oca_pay_bid(st, w, best);
}

void oca_pay_bid(oca_state *st, int w, int best)
{
    st->bid_due = false;
    for (int k = st->n - 1; k >= 1; k--) {
        int j = after(st, w, k);
        if (!st->bankrupt[j])
            pay(st, w, j, best, R_BID, -1);
    }
}

bool oca_takeover_step(oca_state *st)
{
    int s = top(st)->seat;
    if (st->bankrupt[s] || st->takeover_loss > st->led.balance[s]) {
        pop(st);
        return false;
    }
    return ask_yes_no(st, s, K_TAKE_OVER_BANK);
}

void oca_takeover_settle(oca_state *st, trace *tr)
{
    pop(st);
    int count = __builtin_popcount(st->bidders);
    if (count == 0) {
        no_taker(st, tr);
        return;
    }
    st->s.takeovers++;
    if (count == 1) {
        st->banker = __builtin_ctz(st->bidders);
        TRACE(tr, "seat %d takes over the bank", st->banker + 1);
        cover_loss(st, st->banker);
        return;
    }
    start_auction(st, AUCTION_TAKEOVER, 0);
}
