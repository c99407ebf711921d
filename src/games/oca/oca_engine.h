/* oca_engine.h — private contract between the files of the Gioco dell'Oca engine (seed 000).
 *
 * The engine runs on a small stack of steps (oca_op, st->op): each step is either automatic
 * (a roll, a payment, a square's effect) or a decision of one seat. oca.c owns the stack's
 * loop (step(), run()) and the game_type descriptor; every other file adds steps and answers
 * decisions of its own concern, and never reaches into another's state except through the
 * functions below:
 *
 *   oca_board.c    the turn, the die, movement, declarations (arts. 4, 6, 7, 9: the race)
 *   oca_bank.c     payments, the cashier's debts, shortfalls, mutual aid, bankruptcy (art. 8)
 *   oca_auction.c  who holds the bank: volunteers, the auction, the failed bank (arts. 3, 8)
 *   oca_cards.c    postcards: the deal, card plays, jollies, trades, short sales (arts. 10-13)
 *   oca_metrics.c  the outcome (art. 9's ranking) and the metrics
 *
 * A "step" function (..._step, ..._settle) is called with its op on top of the stack; it
 * either pops it and returns false (nothing to decide) or fills st->pend and returns true.
 * An "answer" function applies the pending decision's action to the op on top. The mover's
 * own turn (its start, trade window, declaration and roll) is no step: it runs in phases
 * (st->phase, oca_turn) whenever the stack is empty, below every step it causes. Every point
 * moves through the ledger, so players + cashier + Fondo Generale stay constant. The few
 * helpers on the hot path of every turn (a payment made at once, the trade window) are
 * inline here. */
#ifndef GIOCHI_OCA_ENGINE_H
#define GIOCHI_OCA_ENGINE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/oca/oca.h"
#include "core/hot.h"

/* Step types (oca_op.type). */
enum op_type {
    OP_VOLUNTEER, OP_BANK_SETTLE, OP_BID, OP_AUCTION, OP_ENTRY, OP_BANKER_PLAYS,
    OP_TRADE, OP_RESPOND, OP_LAND, OP_CANCEL_OWN,
    OP_CANCEL_OPP, OP_JOLLY, OP_COUNTER, OP_EFFECT, OP_PAY, OP_TAKEOVER, OP_TAKEOVER_SETTLE,
    OP_REACT,
};

/* The phases of the mover's own turn (st->phase). The turn's ordinary course is no step on
 * the stack: oca_turn runs it whenever the stack is empty, so that every step pushed during
 * the turn (the trade window's offers, a declaration's stake) runs before the phase after it,
 * as if the phases were the stack's bottom steps. */
enum { PH_NEXT, PH_DECLARE, PH_ROLL };

/* Reasons of transfers, for the trace (oca_reason_names). R_SQUARE carries the square in
 * `detail`. */
enum reason {
    R_DOTE, R_CAPO_FEE, R_BID, R_ENTRY, R_REFUND, R_STAKE, R_PRIZE, R_BANKER_HIT,
    R_BANKER_MISS, R_SQUARE, R_AID, R_LEFTOVER, R_PARTIAL, R_COVER, R_SALE, R_DEBT,
};
extern const char *const oca_reason_names[];

/* Stages of an OP_PAY step that the payer cannot cover (see oca_bank.c). */
enum { STAGE_AID = 64, STAGE_BUST = 65 };

/* ---- small shared helpers ------------------------------------------------------------- */

/* Pushes a step on the stack (run next). */
static inline void push(oca_state *st, int type, int seat, int a, int amount, int reason, int detail)
{
    if (st->nops == OCA_MAX_OPS) {
        fprintf(stderr, "oca: step stack overflow (a bug)\n");
        abort();
    }
    st->op[st->nops++] = (oca_op){.type = (uint8_t)type, .seat = (int8_t)seat, .a = (int8_t)a,
                                  .amount = amount, .reason = (int16_t)reason,
                                  .detail = (int16_t)detail};
}

static inline void pay(oca_state *st, int payer, int payee, int amount, int reason, int detail)
{
    push(st, OP_PAY, payer, payee, amount, reason, detail);
}

static inline oca_op *top(oca_state *st)
{
    return &st->op[st->nops - 1];
}

static inline void pop(oca_state *st)
{
    st->nops--;
}

/* The account that is "the bank" now: the banker's own points, or the cashier's till. */
static inline int bank_account(const oca_state *st)
{
    return st->banker >= 0 ? st->banker : ACC_CASHIER;
}

static inline int resolve(const oca_state *st, int acc)
{
    return acc == ACC_BANK ? bank_account(st) : acc;
}

/* The seat k places clockwise after s (0 <= k < n), without a division. */
static inline int after(const oca_state *st, int s, int k)
{
    int j = s + k;
    return j >= st->n ? j - st->n : j;
}

/* A player of the game: not bankrupt and racing or arrived (a banker sitting out is not one);
 * gives mutual aid, pays a banker's declaration, and is the pool of in_round. */
static inline bool participant(const oca_state *st, int s)
{
    return st->members >> s & 1;
}

/* In the round of article 4's collections and distributions ("tutti i giocatori che
 * partecipano al giro"): a participant, and, unless arrived_in_round, not yet arrived. */
static inline bool in_round(const oca_state *st, int s)
{
    return participant(st, s) && (st->r->arrived_in_round || !st->arrived[s]);
}

/* The seats in the round (in_round) as a mask: the members, or those still racing. */
static inline uint32_t round_mask(const oca_state *st)
{
    return st->r->arrived_in_round ? st->members : st->racing;
}

/* Lists the seats of mask m clockwise from seat s's left (s, if in m, last; an account s >= n:
 * in increasing order) into seat[]; returns their number. */
static inline int clockwise(const oca_state *st, int s, uint32_t m, int *seat)
{
    uint32_t above = s < st->n ? m & ~((2u << s) - 1) : m;
    int k = 0;
    for (uint32_t w = above; w; w &= w - 1)
        seat[k++] = __builtin_ctz(w);
    for (uint32_t w = m & ~above; w; w &= w - 1)
        seat[k++] = __builtin_ctz(w);
    return k;
}

static inline bool in_race(const oca_state *st, int s)
{
    return st->racing >> s & 1;
}

/* The lowest-numbered jolly held by seat, or -1. */
static inline int jolly_of(const oca_state *st, int seat)
{
    uint32_t m = st->hand[seat] & st->r->jolly_mask;
    return m ? __builtin_ctz(m) : -1;
}

/* Cards held by seats other than s. */
static inline uint32_t others_hands(const oca_state *st, int s)
{
    return st->held & ~st->hand[s];
}

/* Writes the arithmetic list first, first + step, ..., count (>= 0) terms, into a[0..count-1]:
 * the lists of prices, bids and price indexes. Four terms at a time (the lists run long). */
static inline void fill_steps(int32_t *a, int32_t first, int32_t step, int count)
{
    typedef int32_t four __attribute__((vector_size(16)));
    four v = {first, first + step, first + 2 * step, first + 3 * step};
    int i = 0;
    for (; i + 4 <= count; i += 4, v += 4 * step)
        memcpy(a + i, &v, sizeof v);
    for (; i < count; i++)
        a[i] = first + i * step;
}

/* Starts a decision of `kind` for seat with actions 0..n-1 (the common yes/no shape). */
static inline bool ask_range(oca_state *st, int seat, int kind, int lo, int hi)
{
    decision *d = &st->pend;
    int n = hi < lo ? 0 : hi - lo + 1 < GAME_MAX_ACTIONS ? hi - lo + 1 : GAME_MAX_ACTIONS;
    d->seat = seat;
    d->kind = kind;
    fill_steps(d->action, lo, 1, n);
    d->n = n;
    return true;
}

static inline bool ask_yes_no(oca_state *st, int seat, int kind)
{
    return ask_range(st, seat, kind, 0, 1);
}

static inline void add(decision *d, int32_t a)
{
    if (d->n < GAME_MAX_ACTIONS)
        d->action[d->n++] = a;
}

static inline bool some_jolly(const oca_state *st)
{
    return (st->held & st->r->jolly_mask) != 0;
}

/* ---- oca_board.c: the race ------------------------------------------------------------ */

/* Ends the game now for reason `end` (END_*), clearing the step stack. */
void oca_end_game(oca_state *st, int end, trace *tr);
/* game_type.standing: each seat's points (its balance), a bankrupt seat's -1. */
void oca_standing(const void *vst, int64_t *out);
/* Notes the standings at the end of turn st->turn into the course, once a turn. */
void oca_note_turn(oca_state *st);
/* Runs the turn's phases while the step stack is empty: the next racer's turn (or the end),
 * his trade window, his declaration (art. 7), his roll and landing (PH_ROLL: the roll, a
 * declaration settled, the landing or an OP_LAND step). Returns true when a decision is
 * pending, false when steps were pushed or the game is over. */
bool oca_turn(oca_state *st, rng *ch, trace *tr);
/* Answers the mover's declaration (PH_DECLARE's decision). */
void oca_answer_declare(oca_state *st, int32_t a, trace *tr);
/* OP_LAND, OP_EFFECT: lands a seat on op.a (offering card plays), applies the square. */
void oca_land_step(oca_state *st, trace *tr);
void oca_effect_step(oca_state *st, trace *tr);

/* ---- oca_bank.c: payments and bankruptcy ---------------------------------------------- */

/* The cashier owes `amount` to creditor, paid in order as money comes in (art. 8). */
void oca_add_debt(oca_state *st, int creditor, int amount, trace *tr);
/* The rest of a payment oca_pay_now has made (paid: what moved, of amount): the cashier's
 * debt for what it lacked, a declaration's net, old debts paid from the till (art. 8). */
void oca_pay_after(oca_state *st, int payer, int payee, int amount, int paid, int reason,
                   trace *tr);

/* Makes a payment at once if nothing can stop it: it is void (payer and payee the same,
 * either one bankrupt, nothing to pay) or the payer can pay (the cashier and the Fondo always
 * can: the cashier owes what it lacks). Returns false, doing nothing, if the payer is short.
 * from/to are accounts or ACC_BANK. Inline: most of the game's points move here. */
static inline bool oca_pay_now(oca_state *st, int from, int to, int amount, int reason,
                               int detail, trace *tr)
{
    int payer = resolve(st, from), payee = resolve(st, to);
    if (payer == payee || amount <= 0 || (payer < st->n && st->bankrupt[payer]) ||
        (payee < st->n && st->bankrupt[payee]))
        return true;
    int64_t have = st->led.balance[payer];
    if (payer < st->n && have < amount)
        return false;
    int paid = have >= amount ? amount : (int)have;
    ledger_transfer(&st->led, payer, payee, paid, oca_reason_names[reason], detail, tr);
    if (paid < amount || (reason >= R_STAKE && reason <= R_BANKER_MISS) ||
        (payee == ACC_CASHIER && st->ndebts > 0))
        oca_pay_after(st, payer, payee, amount, paid, reason, tr);
    return true;
}
/* Pays at once, or pushes the payment as an OP_PAY step that handles the shortfall. */
static GIOCHI_INLINE void oca_pay_or_push(oca_state *st, int from, int to, int amount, int reason,
                                          int detail, trace *tr)
{
    if (!oca_pay_now(st, from, to, amount, reason, detail, tr))
        pay(st, from, to, amount, reason, detail);
}
/* Each seat of payer[0..k-1] pays `amount` to `to` (an account or ACC_BANK), in that order:
 * at once while they can (oca_pay_now), the rest, from the first payer short of points, as
 * OP_PAY steps that run next in the same order (each one's shortfall before the next pays).
 * A fast path of pushing every payment as a step: the unit test
 * oca_engine_pay_from_each_agrees_with_pushed_steps keeps the two equal. */
void oca_pay_from_each(oca_state *st, const int *payer, int k, int to, int amount, int reason,
                       int detail, trace *tr);
/* Payer (an account or ACC_BANK) pays `amount` to each seat of mask `each` (bankrupt ones
 * and himself left out), clockwise from his left: at once if he can pay them all, else as one
 * OP_PAY step for the whole sum, so that a shortfall is one loss (article 8). A fast path of
 * one oca_pay_now per payee: the unit test oca_engine_pay_each_agrees_with_one_payment_per_payee
 * keeps the two equal. */
void oca_pay_each(oca_state *st, int from, unsigned each, int amount, int reason, int detail,
                  trace *tr);
/* OP_PAY: the payment, or the shortfall's sequence: short sales, mutual aid, bankruptcy. */
bool oca_pay_step(oca_state *st, trace *tr);
/* Answers the mutual-aid number (art. 8) of the OP_PAY step o. */
void oca_answer_aid(oca_state *st, oca_op *o, int32_t number, rng *ch, trace *tr);

/* ---- oca_auction.c: who holds the bank ------------------------------------------------ */

/* OP_BANK_SETTLE: the volunteers are known: one banker, an auction, or the no_volunteer rule. */
bool oca_bank_settle(oca_state *st, trace *tr);
/* OP_BID: lists the next bid of the auction (rules.auction: sealed, one bid per bidder in
 * turn; open, rounds of rising bids until one bidder is left); oca_answer_bid applies it. */
bool oca_bid_step(oca_state *st, trace *tr);
void oca_answer_bid(oca_state *st, int32_t a, trace *tr);
/* OP_AUCTION: settles the auction (initial or takeover, op.a): the highest bid wins, equal
 * highest bids roll the die; the winner pays it to each other player now, or, in the initial
 * auction with bid_paid "after_fees", once the entry fees are in (st->bid_due: OP_ENTRY calls
 * oca_pay_bid). */
void oca_auction_settle(oca_state *st, rng *ch, trace *tr);
/* Seat w, the auction's winner, pays `bid` to each other player not bankrupt (as OP_PAY
 * steps, clockwise from his left). */
void oca_pay_bid(oca_state *st, int w, int bid);
/* OP_TAKEOVER: asks a seat whether he covers the failed bank's loss. */
bool oca_takeover_step(oca_state *st);
/* OP_TAKEOVER_SETTLE: one taker, an auction among several, or the cashier. */
void oca_takeover_settle(oca_state *st, trace *tr);

/* ---- oca_cards.c: postcards ----------------------------------------------------------- */

/* Shuffles the deck and deals the postcards from the Capo-gioco's left (art. 10). */
void oca_deal(oca_state *st, rng *ch, trace *tr);
/* OP_CANCEL_OWN, OP_CANCEL_OPP, OP_JOLLY, OP_COUNTER: asks the next seat who may play. */
bool oca_card_step(oca_state *st);
void oca_answer_card(oca_state *st, int32_t a, trace *tr);
/* The kinds of trade (TR_*) seat s could propose now, as a bit mask. */
static inline unsigned oca_trade_types(const oca_state *st, int s)
{
    const oca_rules *r = st->r;
    uint32_t mine = st->hand[s], theirs = others_hands(st, s);
    int64_t lowest = r->price[0];
    unsigned m = 0;
    if (mine) /* a solvent other seat who can pay the lowest price */
        for (uint32_t o = st->solvent & ~(1u << s); o; o &= o - 1)
            if (st->led.balance[__builtin_ctz(o)] >= lowest) {
                m = 1u << TR_SELL;
                break;
            }
    if (theirs && st->led.balance[s] >= lowest)
        m |= 1u << TR_BUY;
    if (mine && theirs)
        m |= 1u << TR_SWAP;
    if ((mine & (mine - 1)) && st->deck_top < r->ncards) /* two or more */
        m |= 1u << TR_EXCHANGE;
    return m;
}

/* The actions of the own-turn trade window for each set of kinds of offer, indexed by
 * oca_trade_types >> 1 (TR_PASS is never in the set): TR_PASS, then the kinds in increasing
 * order, then zeros up to 8 entries (oca_cards.c). */
extern const int32_t oca_window_actions[16][8];

/* Opens seat s's own-turn trade window (K_TRADE): the decision between passing and the kinds
 * of offer he can make. Returns false, listing nothing, if he can make none. Inline: it opens
 * every turn; its list is a copy of a row of oca_window_actions. */
static inline bool oca_trade_window(oca_state *st, int s)
{
    unsigned m = oca_trade_types(st, s);
    if (m == 0)
        return false;
    decision *d = &st->pend;
    d->seat = s;
    d->kind = K_TRADE;
    memcpy(d->action, oca_window_actions[m >> 1], sizeof oca_window_actions[0]);
    d->n = 1 + __builtin_popcount(m);
    return true;
}

/* OP_TRADE (seat: the mover, stage: the kind of offer he chose in his window) lists his
 * offers of that kind (K_TRADE_OFFER); OP_RESPOND asks for the answers to an offer made
 * (art. 12, 13). */
bool oca_trade_step(oca_state *st);
void oca_answer_trade(oca_state *st, int32_t a, trace *tr);
bool oca_respond_step(oca_state *st);
void oca_answer_respond(oca_state *st, int32_t a, trace *tr);
/* Reactive trade (article 12, "in qualsiasi momento"; rules.reactive_trades): whether seat s,
 * just landed on square sq, may offer to buy its postcard from another owner (to cancel a bad
 * square with it, or to keep a good one from being cancelled). OP_REACT (seat: the buyer, a:
 * the card) runs the haggle: the buyer offers, the owner accepts, refuses or asks more, the
 * buyer takes it or not. oca_answer_card also pushes one after a card play against the mover:
 * a jolly he may buy to counter it. */
bool oca_react_possible(const oca_state *st, int s, int sq);
bool oca_react_step(oca_state *st);
void oca_answer_react(oca_state *st, int32_t a, trace *tr);

/* A seat short of points: whether he can offer a card; the list of his offers (a card
 * refused in this shortfall only below its refused price), false if none is left; his answer. */
bool oca_can_sell(const oca_state *st, int seat);
bool oca_build_short_sale(oca_state *st, int seat);
void oca_answer_short(oca_state *st, oca_op *o, int32_t a);

/* ---- oca_metrics.c -------------------------------------------------------------------- */

extern const metric_def oca_metrics[];
/* The metrics above that may be negative (nets of points, a code): game_type.signed_metrics. */
extern const char *const oca_signed_metrics[];
/* Bins of the winning bid by which the auction winner's net is recorded (auction_net_0,
 * auction_net_10, ..., auction_net_100: bids of 0..9, 10..19, ..., 100 or more). */
enum { OCA_BID_BINS = 11 };
/* game_type.finish: the outcome (art. 9) and, with rec, the metrics. */
void oca_finish(const void *st, outcome *o, recorder *rec);

#endif
