/* oca.c — Gioco dell'Oca with bank, auctions, declarations, bankruptcy, mutual aid and
 * postcards (seed 000_73186111d786dc42.txt, articles 1-13; gap choices in the man page).
 *
 * The game runs on a small stack of steps (oca_op): each step is either automatic (a roll, a
 * payment, a square's effect) or a decision of one seat. run() executes steps until one needs
 * a decision (kept in st->pend) or the game is over; apply() answers it and runs on. Every
 * point moves through the ledger (ledger.h), so players + cashier + Fondo Generale are
 * constant. */
#include <stdlib.h>
#include <string.h>

#include "configs.h"
#include "oca.h"
#include "registry.h"

enum op_type {
    OP_VOLUNTEER, OP_BANK_SETTLE, OP_BID, OP_AUCTION, OP_ENTRY, OP_BANKER_PLAYS,
    OP_TRADE, OP_RESPOND, OP_DECLARE, OP_ROLL, OP_LAND, OP_CANCEL_OWN,
    OP_CANCEL_OPP, OP_JOLLY, OP_COUNTER, OP_EFFECT, OP_PAY, OP_TAKEOVER, OP_TAKEOVER_SETTLE,
};

/* Reasons of transfers, for the trace. R_SQUARE carries the square in `detail`. */
enum reason {
    R_DOTE, R_CAPO_FEE, R_BID, R_ENTRY, R_REFUND, R_STAKE, R_PRIZE, R_BANKER_HIT,
    R_BANKER_MISS, R_SQUARE, R_AID, R_LEFTOVER, R_PARTIAL, R_COVER, R_SALE, R_DEBT,
};
static const char *const reason_names[] = {
    "dote", "Capo-gioco's fee", "auction bid", "entry fee", "banker's tax refund",
    "declaration stake", "declaration prize", "banker's declaration hit",
    "banker's declaration miss", "square", "mutual aid", "bankrupt's leftover to the Fondo",
    "bankrupt's partial payment", "covering the failed bank's loss", "card sale",
    "cashier repays a debt",
};

static const char *const account_names[OCA_ACCOUNTS] = {
    "seat 1", "seat 2", "seat 3", "seat 4", "seat 5", "seat 6", "seat 7", "seat 8",
    "cashier", "Fondo Generale",
};

enum { STAGE_AID = 64, STAGE_BUST = 65 };

/* ---- small helpers --------------------------------------------------------------------- */

static void push(oca_state *st, int type, int seat, int a, int amount, int reason, int detail)
{
    if (st->nops == OCA_MAX_OPS) {
        fprintf(stderr, "oca: step stack overflow (a bug)\n");
        abort();
    }
    st->op[st->nops++] = (oca_op){(uint8_t)type, (int8_t)seat, (int8_t)a, 0, amount,
                                  (int16_t)reason, (int16_t)detail};
}

static void pay(oca_state *st, int payer, int payee, int amount, int reason, int detail)
{
    push(st, OP_PAY, payer, payee, amount, reason, detail);
}

static oca_op *top(oca_state *st)
{
    return &st->op[st->nops - 1];
}

static void pop(oca_state *st)
{
    st->nops--;
}

/* The account that is "the bank" now: the banker's own points, or the cashier's till. */
static int bank_account(const oca_state *st)
{
    return st->banker >= 0 ? st->banker : ACC_CASHIER;
}

static int resolve(const oca_state *st, int acc)
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
static bool participant(const oca_state *st, int s)
{
    return st->members >> s & 1;
}

/* In the round of article 4's collections and distributions ("tutti i giocatori che
 * partecipano al giro"): a participant, and, unless arrived_in_round, not yet arrived. */
static bool in_round(const oca_state *st, int s)
{
    return participant(st, s) && (st->r->arrived_in_round || !st->arrived[s]);
}

static bool in_race(const oca_state *st, int s)
{
    return st->racing >> s & 1;
}

int oca_cards_held(const oca_state *st, int seat)
{
    return __builtin_popcount(st->hand[seat]);
}

void oca_give(oca_state *st, int card, int h)
{
    int old = st->holder[card];
    if (old >= 0)
        st->hand[old] &= ~(1u << card);
    if (h >= 0)
        st->hand[h] |= 1u << card;
    st->held = h >= 0 ? st->held | 1u << card : st->held & ~(1u << card);
    st->holder[card] = (int8_t)h;
}

/* The lowest-numbered jolly held by seat, or -1. */
static int jolly_of(const oca_state *st, int seat)
{
    uint32_t m = st->hand[seat] & st->r->jolly_mask;
    return m ? __builtin_ctz(m) : -1;
}

/* Cards held by seats other than s. */
static uint32_t others_hands(const oca_state *st, int s)
{
    return st->held & ~st->hand[s];
}

static int move_by(const oca_state *st, int from, int roll)
{
    int goal = st->r->nsquares, to = from + roll;
    if (to > goal)
        to = st->r->finish == FINISH_BOUNCE ? goal - (to - goal) : goal;
    return to < 1 ? 1 : to;
}

static void end_game(oca_state *st, int end, trace *tr)
{
    static const char *const why[] = {"the second-to-last player has reached the goal",
                                      "bankruptcies left at most one player in the race",
                                      "the turn cap was reached"};
    st->over = true;
    st->end = end;
    st->nops = 0;
    TRACE(tr, "game over after %d turns: %s", st->turn, why[end]);
}

/* Starts a decision of `kind` for seat with actions 0..n-1 (the common yes/no shape). */
static bool ask_range(oca_state *st, int seat, int kind, int lo, int hi)
{
    decision *d = &st->pend;
    d->seat = seat;
    d->kind = kind;
    d->n = 0;
    for (int a = lo; a <= hi && d->n < GAME_MAX_ACTIONS; a++)
        d->action[d->n++] = a;
    return true;
}

static bool ask_yes_no(oca_state *st, int seat, int kind)
{
    return ask_range(st, seat, kind, 0, 1);
}

/* ---- the cashier (article 8) ------------------------------------------------------------- */

static void add_debt(oca_state *st, int creditor, int amount, trace *tr)
{
    TRACE(tr, "  cashier owes %d to seat %d", amount, creditor + 1);
    if (st->ndebts == OCA_MAX_DEBTS) { /* never seen in practice: merge into the last debt */
        for (int i = st->ndebts - 1; i >= 0; i--)
            if (st->debt[i].creditor == creditor) {
                st->debt[i].amount += amount;
                return;
            }
        st->debt[st->ndebts - 1].amount += amount; /* keeps the total owed */
        return;
    }
    st->debt[st->ndebts++] = (oca_debt){(int8_t)creditor, amount};
}

/* Pays old debts, in order, with whatever is in the till. */
static void settle_debts(oca_state *st, trace *tr)
{
    while (st->ndebts > 0 && st->led.balance[ACC_CASHIER] > 0) {
        oca_debt *d = &st->debt[0];
        int64_t till = st->led.balance[ACC_CASHIER];
        int amt = d->amount < till ? d->amount : (int)till;
        ledger_transfer(&st->led, ACC_CASHIER, d->creditor, amt, reason_names[R_DEBT], -1, tr);
        d->amount -= amt;
        if (d->amount == 0)
            memmove(st->debt, st->debt + 1, (size_t)--st->ndebts * sizeof *st->debt);
    }
}

static void drop_debts_to(oca_state *st, int seat)
{
    int k = 0;
    for (int i = 0; i < st->ndebts; i++)
        if (st->debt[i].creditor != seat)
            st->debt[k++] = st->debt[i];
    st->ndebts = k;
}

int64_t oca_unpaid_debts(const oca_state *st)
{
    int64_t s = 0;
    for (int i = 0; i < st->ndebts; i++)
        s += st->debt[i].amount;
    return s;
}

/* ---- bankruptcy and the bank's takeover (article 8) -------------------------------------- */

static void go_bankrupt(oca_state *st, oca_op o, trace *tr)
{
    int s = o.seat, payee = resolve(st, o.a), loss = o.amount;
    TRACE(tr, "seat %d cannot cover %d and goes bankrupt", s + 1, o.amount);
    if (st->r->bankrupt_pays_partial && !(payee < st->n && st->bankrupt[payee])) {
        loss -= (int)st->led.balance[s]; /* what is left unpaid */
        ledger_transfer(&st->led, s, payee, st->led.balance[s], reason_names[R_PARTIAL], -1, tr);
        if (payee == ACC_CASHIER) /* money came in: old debts first (article 8) */
            settle_debts(st, tr);
    }
    ledger_transfer(&st->led, s, ACC_FONDO, st->led.balance[s], reason_names[R_LEFTOVER], -1, tr);
    for (int c = 0; c < st->r->ncards; c++)
        if (st->holder[c] == s)
            oca_give(st, c, HOLD_OUT);
    bool racing = in_race(st, s);
    st->bankrupt[s] = true;
    st->members &= ~(1u << s);
    st->racing &= ~(1u << s);
    st->bust_order[s] = (int8_t)++st->nbust;
    st->s.bankrupt_turn[s] = st->turn;
    drop_debts_to(st, s);
    if (racing)
        st->in_race--;
    if (s == st->banker) {
        st->banker = -1;
        st->takeover_loss = loss;
        st->takeover_creditor = payee;
        st->bidders = 0;
        TRACE(tr, "the bank has failed: who covers the loss of %d takes it over", loss);
        push(st, OP_TAKEOVER_SETTLE, -1, 0, 0, 0, 0);
        for (int k = st->n - 1; k >= 1; k--)
            push(st, OP_TAKEOVER, after(st, s, k), 0, 0, 0, 0);
    }
    if (st->turn > 0 && st->in_race <= 1)
        end_game(st, END_BANKRUPTCIES, tr);
}

/* Nobody (solvent) takes over a failed bank: the Capo-gioco runs it as a cashier, owing the
 * loss to its creditor (art. 8). */
static void no_taker(oca_state *st, trace *tr)
{
    int cred = st->takeover_creditor;
    st->cashier = true;
    st->s.cashier_later = 1;
    TRACE(tr, "no taker: the Capo-gioco (seat %d) runs the bank as cashier", st->capo + 1);
    if (cred < st->n && !st->bankrupt[cred])
        add_debt(st, cred, st->takeover_loss, tr);
}

static void takeover_settle(oca_state *st, trace *tr)
{
    pop(st);
    int count = __builtin_popcount(st->bidders), loss = st->takeover_loss;
    int cred = st->takeover_creditor;
    if (count == 0) {
        no_taker(st, tr);
        return;
    }
    st->s.takeovers++;
    if (count == 1) {
        st->banker = __builtin_ctz(st->bidders);
        TRACE(tr, "seat %d takes over the bank", st->banker + 1);
        pay(st, st->banker, cred, loss, R_COVER, -1);
        return;
    }
    st->auction_kind = AUCTION_TAKEOVER;
    push(st, OP_AUCTION, -1, AUCTION_TAKEOVER, 0, 0, 0);
    for (int k = st->n - 1; k >= 0; k--)
        if (st->bidders >> k & 1)
            push(st, OP_BID, k, 0, 0, 0, 0);
}

/* ---- payments and shortfalls ------------------------------------------------------------- */

/* Whether seat can offer a card for sale to somebody able to pay the lowest price. */
static bool can_sell(const oca_state *st, int seat)
{
    if (!st->r->trading || oca_cards_held(st, seat) == 0)
        return false;
    for (int j = 0; j < st->n; j++)
        if (j != seat && !st->bankrupt[j] && st->led.balance[j] >= st->r->price[0])
            return true;
    return false;
}

static bool build_short_sale(oca_state *st, int seat)
{
    decision *d = &st->pend;
    d->seat = seat;
    d->kind = K_SHORT_SALE;
    d->n = 0;
    d->action[d->n++] = 0;
    for (int c = 0; c < st->r->ncards; c++)
        if (st->holder[c] == seat)
            for (int p = 0; p < st->r->nprices && d->n < GAME_MAX_ACTIONS; p++)
                d->action[d->n++] = OCA_TRADE(TR_SELL, c, 0, p);
    return true;
}

/* A seat that cannot pay: sell cards, then mutual aid, then bankruptcy. */
static bool shortfall(oca_state *st, oca_op *o, trace *tr)
{
    int s = o->seat;
    if (o->reason == R_AID) { /* nobody goes bankrupt for the aid he gives */
        TRACE(tr, "  seat %d cannot give the mutual aid of %d", s + 1, o->amount);
        pop(st);
        return false;
    }
    if (o->stage < STAGE_AID && o->stage < st->r->short_sale_offers && can_sell(st, s))
        return build_short_sale(st, s);
    if (o->stage < STAGE_AID)
        o->stage = STAGE_AID;
    if (o->stage == STAGE_AID && !st->aid_used[s] && st->r->mutual_aid_rolls > 0)
        return ask_range(st, s, K_MUTUAL_AID, 1, 6);
    oca_op copy = *o;
    pop(st);
    go_bankrupt(st, copy, tr);
    return false;
}

/* Adds a declaration's payment to the declarer's net (metric declaration_net): he pays the
 * stake and a banker's miss, he receives the prize and a banker's hit. */
static void declaration_net(oca_state *st, int reason, int payer, int payee, int amount)
{
    if (reason == R_STAKE || reason == R_BANKER_MISS)
        st->s.declare_net[payer] -= amount;
    else
        st->s.declare_net[payee] += amount;
}

/* Makes the payment at once if nothing can stop it: it is void (payer and payee the same,
 * either one bankrupt, nothing to pay) or the payer can pay (the cashier and the Fondo always
 * can: the cashier owes what it lacks). Returns false, doing nothing, if the payer is short. */
static bool pay_now(oca_state *st, int from, int to, int amount, int reason, int detail,
                    trace *tr)
{
    int payer = resolve(st, from), payee = resolve(st, to);
    if (payer == payee || amount <= 0 || (payer < st->n && st->bankrupt[payer]) ||
        (payee < st->n && st->bankrupt[payee]))
        return true;
    int64_t have = st->led.balance[payer];
    if (payer < st->n && have < amount)
        return false;
    int amt = have >= amount ? amount : (int)have;
    ledger_transfer(&st->led, payer, payee, amt, reason_names[reason], detail, tr);
    if (amt < amount) /* only the cashier can fall short here: it owes the rest */
        add_debt(st, payee, amount - amt, tr);
    if (reason >= R_STAKE && reason <= R_BANKER_MISS) /* counted as made (or owed) */
        declaration_net(st, reason, payer, payee, amount);
    if (payee == ACC_CASHIER)
        settle_debts(st, tr);
    return true;
}

/* Pays at once, or leaves the payment as the next step (which handles the shortfall). */
static void pay_or_push(oca_state *st, int from, int to, int amount, int reason, int detail,
                        trace *tr)
{
    if (!pay_now(st, from, to, amount, reason, detail, tr))
        pay(st, from, to, amount, reason, detail);
}

static bool pay_step(oca_state *st, trace *tr)
{
    oca_op *o = top(st);
    if (pay_now(st, o->seat, o->a, o->amount, o->reason, o->detail, tr)) {
        pop(st);
        return false;
    }
    o->seat = (int8_t)resolve(st, o->seat); /* the bank is now a definite seat, for the */
    o->a = (int8_t)resolve(st, o->a);       /* steps below */
    return shortfall(st, o, tr);
}

static void answer_short(oca_state *st, oca_op *o, int32_t a)
{
    if (a == 0) {
        o->stage = STAGE_AID;
        return;
    }
    o->stage++;
    st->offer = (oca_offer){TR_SELL, o->seat, -1, (int8_t)OCA_TR_A(a), -1,
                            st->r->price[OCA_TR_P(a)]};
    st->s.short_sales++;
    push(st, OP_RESPOND, -1, 0, 0, 0, 0);
    top(st)->stage = 1;
}

static void answer_aid(oca_state *st, oca_op *o, int32_t number, rng *ch, trace *tr)
{
    int s = o->seat;
    st->aid_used[s] = true;
    st->s.aid_tries++;
    o->stage = STAGE_BUST;
    bool hit = false;
    for (int i = 0; i < st->r->mutual_aid_rolls && !hit; i++) {
        int roll = rng_die(ch, 6);
        hit = roll == number;
        TRACE(tr, "mutual aid: seat %d declared %d and rolls %d", s + 1, number, roll);
    }
    if (!hit)
        return;
    st->s.aid_hits++;
    for (int k = st->n - 1; k >= 1; k--) {
        int j = after(st, s, k);
        if (participant(st, j) || j == st->banker)
            pay(st, j, s, st->r->mutual_aid_amount, R_AID, -1);
    }
}

/* ---- setup (articles 1, 2, 3, 5, 10) ------------------------------------------------------ */

static int choose_capo(oca_state *st, rng *ch, trace *tr)
{
    uint32_t tied = (1u << st->n) - 1;
    for (;;) {
        int best = -1, total[GAME_MAX_SEATS];
        uint32_t top_set = 0;
        for (int s = 0; s < st->n; s++) {
            if (!(tied >> s & 1))
                continue;
            total[s] = rng_die(ch, 6) + rng_die(ch, 6) + rng_die(ch, 6);
            TRACE(tr, "seat %d rolls three times for Capo-gioco: total %d", s + 1, total[s]);
            if (total[s] > best) {
                best = total[s];
                top_set = 0;
            }
            if (total[s] == best)
                top_set |= 1u << s;
        }
        if (__builtin_popcount(top_set) == 1)
            return __builtin_ctz(top_set);
        tied = top_set;
        TRACE(tr, "tie at %d: the tied players roll again", best);
    }
}

static void deal(oca_state *st, rng *ch, trace *tr)
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

/* ---- decisions of setup ---------------------------------------------------------------- */

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

static bool bank_settle(oca_state *st, trace *tr)
{
    pop(st);
    int count = __builtin_popcount(st->bidders);
    st->s.volunteers = count;
    if (count == 1) {
        st->banker = __builtin_ctz(st->bidders);
        TRACE(tr, "seat %d is the banker", st->banker + 1);
    } else if (count == 0) {
        no_volunteer(st, tr);
    } else {
        st->s.auction = 1;
        st->s.bidders = count;
        st->auction_kind = AUCTION_INITIAL;
        push(st, OP_AUCTION, -1, AUCTION_INITIAL, 0, 0, 0);
        for (int k = st->n - 1; k >= 0; k--) {
            int s = after(st, st->capo, k);
            if (st->bidders >> s & 1)
                push(st, OP_BID, s, 0, 0, 0, 0);
        }
    }
    return false;
}

/* Participants an auction winner pays his bid to: every other seat not bankrupt. */
static int others(const oca_state *st, int s)
{
    int k = 0;
    for (int j = 0; j < st->n; j++)
        k += j != s && !st->bankrupt[j];
    return k;
}

static bool build_bid(oca_state *st, int s)
{
    const oca_rules *r = st->r;
    int64_t budget = st->led.balance[s];
    if (st->auction_kind == AUCTION_TAKEOVER) /* he must also cover the loss */
        budget -= st->takeover_loss;
    int k = others(st, s);
    int64_t cap = k > 0 ? budget / k : 0;
    if (cap > r->bid_max)
        cap = r->bid_max;
    if (cap < 0)
        cap = 0;
    decision *d = &st->pend;
    d->seat = s;
    d->kind = K_BID;
    d->n = 0;
    for (int64_t b = 0; b <= cap && d->n < GAME_MAX_ACTIONS; b += r->bid_step)
        d->action[d->n++] = (int32_t)b;
    return true;
}

static void auction_settle(oca_state *st, rng *ch, trace *tr)
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
    } else
        pay(st, w, st->takeover_creditor, st->takeover_loss, R_COVER, -1);
    for (int k = st->n - 1; k >= 1; k--) {
        int j = after(st, w, k);
        if (!st->bankrupt[j])
            pay(st, w, j, best, R_BID, -1);
    }
}

static void entry_fees(oca_state *st)
{
    pop(st);
    for (int k = st->n - 1; k >= 0; k--) {
        int s = after(st, st->capo, k);
        if (s != st->banker)
            pay(st, s, ACC_BANK, st->r->entry_fee, R_ENTRY, -1);
    }
    st->s.first_banker = st->banker;
}

static void banker_plays(oca_state *st, bool plays, trace *tr)
{
    int b = st->banker;
    pop(st);
    st->s.banker_played = plays;
    if (!plays) {
        st->playing[b] = false;
        st->members &= ~(1u << b);
        st->racing &= ~(1u << b);
        st->in_race--;
        TRACE(tr, "the banker (seat %d) sits out of the race", b + 1);
        return;
    }
    TRACE(tr, "the banker (seat %d) joins the race, refunding the entry fee", b + 1);
    for (int k = st->n - 1; k >= 1; k--)
        pay(st, b, after(st, b, k), st->r->banker_refund, R_REFUND, -1);
}

/* ---- the turn (articles 6, 7) ------------------------------------------------------------- */

static bool turn_begins(oca_state *st, int s, trace *tr);

/* Starts the next player's turn; returns true if a decision is pending. */
static bool next_turn(oca_state *st, trace *tr)
{
    if (st->in_race <= 1) {
        end_game(st, st->nbust > 0 ? END_BANKRUPTCIES : END_FINISH, tr);
        return false;
    }
    int s = st->last_turn_seat;
    do
        s = after(st, s, 1);
    while (!in_race(st, s));
    st->last_turn_seat = s;
    return turn_begins(st, s, tr);
}

static bool trade_window(oca_state *st, int s);

/* Seat s's turn begins: a skipped turn, or the trade window, the declaration and the roll.
 * Returns true if a decision is pending. */
static bool turn_begins(oca_state *st, int s, trace *tr)
{
    if (++st->turn > st->r->max_turns) {
        st->turn--;
        end_game(st, END_TURN_CAP, tr);
        return false;
    }
    st->mover = s;
    if (st->waiting[s] > 0) {
        st->waiting[s]--;
        TRACE(tr, "turn %d: seat %d waits on square %d", st->turn, s + 1, st->pos[s]);
        return false;
    }
    TRACE(tr, "turn %d: seat %d on square %d with %lld points", st->turn, s + 1, st->pos[s],
          (long long)st->led.balance[s]);
    st->declared = 0;
    push(st, OP_ROLL, s, 0, 0, 0, 0);
    if (st->declare_left[s] > 0)
        push(st, OP_DECLARE, s, 0, 0, 0, 0);
    if (!st->r->trading || !trade_window(st, s))
        return false;
    push(st, OP_TRADE, s, 0, 0, 0, 0);
    return true;
}

static bool declare_step(oca_state *st)
{
    int s = top(st)->seat;
    if (st->declare_left[s] == 0 || st->bankrupt[s] ||
        (s != st->banker && st->led.balance[s] < st->r->declare_stake)) {
        if (st->declare_left[s] > 0)
            st->declare_left[s]--;
        pop(st);
        return false;
    }
    return ask_range(st, s, K_DECLARE, 0, 6);
}

static void answer_declare(oca_state *st, int32_t a, trace *tr)
{
    int s = top(st)->seat;
    pop(st);
    st->declare_left[s]--;
    if (a == 0)
        return;
    st->declared = a;
    st->s.declarations[s]++;
    TRACE(tr, "seat %d declares he will roll %d", s + 1, a);
    if (s != st->banker)
        pay(st, s, ACC_BANK, st->r->declare_stake, R_STAKE, -1);
}

/* Settles a declaration against the roll (article 7). */
static void settle_declaration(oca_state *st, int s, int roll)
{
    const oca_rules *r = st->r;
    bool hit = roll == st->declared;
    st->s.declare_hits[s] += hit;
    if (s != st->banker) {
        if (hit)
            pay(st, ACC_BANK, s, r->declare_prize, R_PRIZE, -1);
        return;
    }
    for (int k = st->n - 1; k >= 1; k--) {
        int j = after(st, s, k);
        if (!participant(st, j))
            continue;
        if (hit) {
            pay(st, j, s, r->banker_declare_hit, R_BANKER_HIT, -1);
        } else {
            pay(st, s, j, r->banker_declare_miss, R_BANKER_MISS, -1);
        }
    }
}

static void do_land(oca_state *st, int s, int sq, trace *tr);
static void do_effect(oca_state *st, int s, int sq, trace *tr);

static void roll_step(oca_state *st, rng *ch, trace *tr)
{
    int s = top(st)->seat;
    pop(st);
    if (st->bankrupt[s])
        return;
    st->roll = rng_die(ch, 6);
    st->from = st->pos[s];
    st->chain = 0;
    int to = move_by(st, st->from, st->roll);
    TRACE(tr, "seat %d rolls %d: square %d -> %d", s + 1, st->roll, st->from, to);
    if (!st->declared) {
        do_land(st, s, to, tr);
        return;
    }
    push(st, OP_LAND, s, to, 0, 0, 0); /* after the declaration is settled */
    TRACE(tr, "the declaration of %d %s", st->declared,
          st->roll == st->declared ? "hits" : "misses");
    settle_declaration(st, s, st->roll);
    st->declared = 0;
}

static void arrive(oca_state *st, int s, trace *tr)
{
    st->arrived[s] = true;
    st->racing &= ~(1u << s);
    st->arrival[s] = (int8_t)++st->narrived;
    st->in_race--;
    TRACE(tr, "seat %d reaches the goal, arrival %d", s + 1, st->narrived);
    if (st->in_race <= 1)
        end_game(st, END_FINISH, tr);
}

static bool some_jolly(const oca_state *st)
{
    return (st->held & st->r->jolly_mask) != 0;
}

/* Seat s lands on square sq: the card plays it allows are offered, then its effect. */
static void do_land(oca_state *st, int s, int sq, trace *tr)
{
    const oca_rules *r = st->r;
    if (st->bankrupt[s])
        return;
    st->pos[s] = (int8_t)sq;
    st->cancelled = false;
    push(st, OP_EFFECT, s, sq, 0, 0, 0);
    const oca_square *q = &r->sq[sq];
    /* arriving, and the right to declare a Pulcinella square gives, count as effects */
    bool effect = q->effect != FX_NONE || q->pulcinella > 0 || sq == r->nsquares;
    if (some_jolly(st) && (r->jolly_offer == JOLLY_EVERY_MOVE || effect))
        push(st, OP_JOLLY, s, sq, 0, 0, 0);
    int c = r->square_card[sq];
    if (c != OCA_NO_CARD && st->holder[c] >= 0) {
        if (q->card == CARD_POSITIVE && st->holder[c] != s)
            push(st, OP_CANCEL_OPP, st->holder[c], sq, 0, 0, 0);
        if (q->card == CARD_NEGATIVE && st->holder[c] == s)
            push(st, OP_CANCEL_OWN, s, sq, 0, 0, 0);
    }
    if (top(st)->type == OP_EFFECT) { /* no card to offer: the effect at once */
        pop(st);
        do_effect(st, s, sq, tr);
    }
}

static void land_step(oca_state *st, trace *tr)
{
    oca_op o = *top(st);
    pop(st);
    do_land(st, o.seat, o.a, tr);
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
    for (; o->stage < st->n; o->stage++) {
        int j = after(st, o->seat, o->stage);
        if ((jolly || o->stage > 0) && !st->bankrupt[j] && jolly_of(st, j) >= 0)
            return j;
    }
    return -1;
}

static bool card_step(oca_state *st)
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

static void answer_card(oca_state *st, int32_t a, trace *tr)
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
}

/* The payments between the lander s and every other player in the round, clockwise from his
 * left: made at once while they can be, the rest (from the first payer short of points)
 * left as steps in the same order. */
static void collect_or_distribute(oca_state *st, int s, int sq, bool collect, int amount,
                                  trace *tr)
{
    int left[GAME_MAX_SEATS], nleft = 0;
    for (int k = 1; k < st->n; k++) {
        int j = after(st, s, k);
        if (!in_round(st, j))
            continue;
        int from = collect ? j : s, to = collect ? s : j;
        if (nleft > 0 || !pay_now(st, from, to, amount, R_SQUARE, sq, tr))
            left[nleft++] = j;
    }
    while (nleft-- > 0) {
        int j = left[nleft];
        pay(st, collect ? j : s, collect ? s : j, amount, R_SQUARE, sq);
    }
}

static void effect_step(oca_state *st, trace *tr)
{
    oca_op o = *top(st);
    pop(st);
    do_effect(st, o.seat, o.a, tr);
}

/* The effect of square sq on seat s who landed there, unless a card play cancelled it. */
static void do_effect(oca_state *st, int s, int sq, trace *tr)
{
    if (st->bankrupt[s])
        return;
    if (st->cancelled) {
        st->pos[s] = (int8_t)st->from;
        TRACE(tr, "seat %d goes back to square %d", s + 1, st->from);
        return;
    }
    if (sq == st->r->nsquares) {
        arrive(st, s, tr);
        return;
    }
    const oca_square *q = &st->r->sq[sq];
    if (q->pulcinella > st->declare_left[s])
        st->declare_left[s] = (int8_t)q->pulcinella;
    switch (q->effect) {
    case FX_PAY_BANK:
        pay_or_push(st, s, ACC_BANK, q->amount, R_SQUARE, sq, tr);
        break;
    case FX_RECEIVE_BANK:
        pay_or_push(st, ACC_BANK, s, q->amount, R_SQUARE, sq, tr);
        break;
    case FX_COLLECT_ALL:
    case FX_DISTRIBUTE_ALL:
        collect_or_distribute(st, s, sq, q->effect == FX_COLLECT_ALL, q->amount, tr);
        break;
    case FX_MOVE:
    case FX_AGAIN:
        if (++st->chain > st->r->max_chain)
            break;
        int to = q->effect == FX_MOVE ? q->to : move_by(st, sq, st->roll);
        TRACE(tr, "square %d sends seat %d to square %d", sq, s + 1, to);
        do_land(st, s, to, tr);
        break;
    case FX_WAIT:
        st->waiting[s] = (int8_t)q->amount;
        TRACE(tr, "seat %d must wait %d turn(s)", s + 1, q->amount);
        break;
    }
}

/* ---- card trade (articles 12, 13) --------------------------------------------------------- */

static void add(decision *d, int32_t a)
{
    if (d->n < GAME_MAX_ACTIONS)
        d->action[d->n++] = a;
}

/* The kinds of trade (TR_*) seat s could propose now, as a bit mask. */
static unsigned trade_types(const oca_state *st, int s)
{
    const oca_rules *r = st->r;
    int mine = st->hand[s] != 0, theirs = others_hands(st, s) != 0;
    unsigned m = 0;
    for (int j = 0; j < st->n && mine && !m; j++)
        if (j != s && !st->bankrupt[j] && st->led.balance[j] >= r->price[0])
            m |= 1u << TR_SELL;
    if (theirs && st->led.balance[s] >= r->price[0])
        m |= 1u << TR_BUY;
    if (mine && theirs)
        m |= 1u << TR_SWAP;
    if ((st->hand[s] & (st->hand[s] - 1)) && st->deck_top < r->ncards) /* two or more */
        m |= 1u << TR_EXCHANGE;
    return m;
}

/* Lists the offers of one kind (TR_*) seat s can make, after 0 (withdraw). */
static void build_offers(oca_state *st, int s, int type)
{
    const oca_rules *r = st->r;
    decision *d = &st->pend;
    d->seat = s;
    d->kind = K_TRADE_OFFER;
    d->n = 0;
    add(d, 0);
    int mine[OCA_MAX_CARDS], nm = 0;
    for (int c = 0; c < r->ncards; c++)
        if (st->holder[c] == s)
            mine[nm++] = c;
    int64_t richest = 0;
    for (int j = 0; j < st->n; j++)
        if (j != s && !st->bankrupt[j] && st->led.balance[j] > richest)
            richest = st->led.balance[j];
    if (type == TR_EXCHANGE)
        for (int i = 0; i < nm; i++)
            for (int k = i + 1; k < nm; k++)
                add(d, OCA_TRADE(TR_EXCHANGE, mine[i], mine[k], 0));
    if (type == TR_SELL)
        for (int i = 0; i < nm; i++)
            for (int p = 0; p < r->nprices && r->price[p] <= richest; p++)
                add(d, OCA_TRADE(TR_SELL, mine[i], 0, p));
    for (int c = 0; c < r->ncards && (type == TR_BUY || type == TR_SWAP); c++) {
        int o = st->holder[c];
        if (o < 0 || o == s)
            continue;
        for (int p = 0; type == TR_BUY && p < r->nprices && r->price[p] <= st->led.balance[s];
             p++)
            add(d, OCA_TRADE(TR_BUY, c, o, p));
        for (int i = 0; type == TR_SWAP && i < nm; i++)
            add(d, OCA_TRADE(TR_SWAP, mine[i], c, 0));
    }
}

/* Opens seat s's trade window: the decision between passing and the kinds of offer he can
 * make. Returns false, listing nothing, if he can make none. */
static bool trade_window(oca_state *st, int s)
{
    unsigned m = trade_types(st, s);
    if (m == 0)
        return false;
    decision *d = &st->pend;
    d->seat = s;
    d->kind = K_TRADE;
    d->n = 0;
    int k = 0;
    d->action[k++] = TR_PASS;
    for (int t = TR_PASS + 1; t <= TR_EXCHANGE; t++)
        if (m >> t & 1)
            d->action[k++] = t;
    d->n = k;
    return true;
}

/* The trade step, once its kind is chosen (stage): the list of offers of that kind. */
static bool trade_step(oca_state *st)
{
    oca_op *o = top(st);
    if (o->stage == 0) { /* the window itself (listed when the turn began) */
        if (trade_window(st, o->seat))
            return true;
        pop(st);
        return false;
    }
    build_offers(st, o->seat, o->stage);
    return true;
}

static void answer_trade(oca_state *st, int32_t a, trace *tr)
{
    int s = top(st)->seat;
    if (st->pend.kind == K_TRADE && a != TR_PASS) {
        top(st)->stage = (int8_t)a;
        return;
    }
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

static bool respond_step(oca_state *st)
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
    ledger_transfer(&st->led, buyer, seller, price, reason_names[R_SALE],
                    st->r->card_square[card], tr);
    oca_give(st, card, buyer);
    st->s.trades++;
    st->s.trade_value += price;
    for (int p = 0; p < st->r->nprices; p++)
        if (st->r->price[p] == price)
            st->s.trade_price[p]++;
    TRACE(tr, "seat %d sells the postcard of square %d to seat %d for %d", seller + 1,
          st->r->card_square[card], buyer + 1, price);
}

static void answer_respond(oca_state *st, int32_t a, trace *tr)
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

/* ---- the engine -------------------------------------------------------------------------- */

static bool takeover_step(oca_state *st)
{
    int s = top(st)->seat;
    if (st->bankrupt[s] || st->takeover_loss > st->led.balance[s]) {
        pop(st);
        return false;
    }
    return ask_yes_no(st, s, K_TAKE_OVER_BANK);
}

/* Runs the top step; returns true when it waits for a decision (st->pend is filled). */
static bool step(oca_state *st, rng *ch, trace *tr)
{
    oca_op *o = top(st);
    switch (o->type) {
    case OP_VOLUNTEER: /* a seat already bankrupt (in the setup payments) is not asked */
        if (st->bankrupt[o->seat]) {
            pop(st);
            return false;
        }
        return ask_yes_no(st, o->seat, K_VOLUNTEER);
    case OP_BANK_SETTLE:
        return bank_settle(st, tr);
    case OP_BID:
        if (st->bankrupt[o->seat]) { /* went bankrupt since volunteering: no bid */
            st->bidders &= ~(1u << o->seat);
            pop(st);
            return false;
        }
        return build_bid(st, o->seat);
    case OP_AUCTION:
        auction_settle(st, ch, tr);
        return false;
    case OP_ENTRY:
        entry_fees(st);
        return false;
    case OP_BANKER_PLAYS:
        if (st->banker < 0 || st->bankrupt[st->banker]) {
            pop(st);
            return false;
        }
        if (!st->r->banker_may_sit_out || st->in_race < 3) { /* a race needs two */
            banker_plays(st, true, tr);
            return false;
        }
        return ask_yes_no(st, st->banker, K_BANKER_PLAYS);
    case OP_TRADE:
        return trade_step(st);
    case OP_RESPOND:
        return respond_step(st);
    case OP_DECLARE:
        return declare_step(st);
    case OP_ROLL:
        roll_step(st, ch, tr);
        return false;
    case OP_LAND:
        land_step(st, tr);
        return false;
    case OP_CANCEL_OWN:
    case OP_CANCEL_OPP:
    case OP_JOLLY:
    case OP_COUNTER:
        return card_step(st);
    case OP_EFFECT:
        effect_step(st, tr);
        return false;
    case OP_PAY:
        return pay_step(st, tr);
    case OP_TAKEOVER:
        return takeover_step(st);
    case OP_TAKEOVER_SETTLE:
        takeover_settle(st, tr);
        return false;
    }
    abort();
}

static void run(oca_state *st, rng *ch, trace *tr)
{
    while (!st->over) {
        if (st->nops == 0 ? next_turn(st, tr) : step(st, ch, tr))
            return;
    }
}

static void start(void *vst, const void *rules, int nseats, rng *ch, trace *tr)
{
    oca_state *st = vst;
    const oca_rules *r = rules;
    memset(st, 0, offsetof(oca_state, pend));
    memset(&st->s, 0, sizeof st->s);
    st->r = r;
    st->n = nseats;
    st->banker = -1;
    st->in_race = nseats;
    st->members = st->racing = (1u << nseats) - 1;
    ledger_init(&st->led, OCA_ACCOUNTS, account_names);
    for (int s = 0; s < nseats; s++) {
        st->pos[s] = 1;
        st->playing[s] = true;
    }
    st->capo = choose_capo(st, ch, tr);
    st->last_turn_seat = (st->capo + nseats - 1) % nseats;
    TRACE(tr, "seat %d is the Capo-gioco", st->capo + 1);
    ledger_issue(&st->led, ACC_FONDO, (int64_t)nseats * r->dote + r->fondo_extra,
                 "the Fondo Generale", tr);
    for (int s = 0; s < nseats; s++)
        ledger_transfer(&st->led, ACC_FONDO, s, r->dote, reason_names[R_DOTE], -1, tr);
    deal(st, ch, tr);
    push(st, OP_BANKER_PLAYS, -1, 0, 0, 0, 0);
    push(st, OP_ENTRY, -1, 0, 0, 0, 0);
    push(st, OP_BANK_SETTLE, -1, 0, 0, 0, 0);
    for (int k = nseats - 1; k >= 1; k--)
        push(st, OP_VOLUNTEER, (st->capo + k) % nseats, 0, 0, 0, 0);
    for (int k = nseats - 1; k >= 1; k--)
        pay(st, (st->capo + k) % nseats, st->capo, r->capo_fee, R_CAPO_FEE, -1);
    run(st, ch, tr);
}

static bool decide(const void *vst, decision *d)
{
    const oca_state *st = vst;
    if (st->over)
        return false;
    d->seat = st->pend.seat;
    d->kind = st->pend.kind;
    d->n = st->pend.n;
    if (d->n <= 8) /* the usual short list: a fixed-size copy the compiler inlines */
        memcpy(d->action, st->pend.action, 8 * sizeof d->action[0]);
    else
        memcpy(d->action, st->pend.action, (size_t)d->n * sizeof d->action[0]);
    return true;
}

static void apply(void *vst, int32_t a, rng *ch, trace *tr)
{
    oca_state *st = vst;
    oca_op *o = top(st);
    switch (st->pend.kind) {
    case K_VOLUNTEER:
        if (a)
            st->bidders |= (uint8_t)(1u << o->seat);
        pop(st);
        break;
    case K_BID:
        st->bid[o->seat] = a;
        pop(st);
        break;
    case K_BANKER_PLAYS:
        banker_plays(st, a != 0, tr);
        break;
    case K_TRADE:
    case K_TRADE_OFFER:
        answer_trade(st, a, tr);
        break;
    case K_BUY_CARD:
    case K_SELL_CARD:
    case K_SWAP:
        answer_respond(st, a, tr);
        break;
    case K_DECLARE:
        answer_declare(st, a, tr);
        break;
    case K_CANCEL_OWN:
    case K_CANCEL_OPPONENT:
    case K_JOLLY:
    case K_COUNTER_JOLLY:
        answer_card(st, a, tr);
        break;
    case K_SHORT_SALE:
        answer_short(st, o, a);
        break;
    case K_MUTUAL_AID:
        answer_aid(st, o, a, ch, tr);
        break;
    case K_TAKE_OVER_BANK:
        if (a)
            st->bidders |= (uint8_t)(1u << o->seat);
        pop(st);
        break;
    }
    run(st, ch, tr);
}

/* ---- values for bots ---------------------------------------------------------------------- */

int oca_square_value(const oca_state *st, int seat, int sq, int per_square)
{
    if (sq == st->r->nsquares) /* arriving: worth a good stretch of the board */
        return per_square * 10;
    const oca_square *q = &st->r->sq[sq];
    int others = 0;
    for (int j = 0; j < st->n; j++)
        others += j != seat && in_round(st, j);
    bool banker = seat == st->banker;
    switch (q->effect) {
    case FX_PAY_BANK:
        return banker ? 0 : -q->amount;
    case FX_RECEIVE_BANK:
        return banker ? 0 : q->amount;
    case FX_COLLECT_ALL:
        return q->amount * others;
    case FX_DISTRIBUTE_ALL:
        return -q->amount * others;
    case FX_MOVE:
        return per_square * (q->to - sq);
    case FX_AGAIN:
        return per_square * 3;
    case FX_WAIT:
        return -per_square * 3 * q->amount;
    }
    return 0;
}

/* ---- the end (article 9) and the metrics ---------------------------------------------------- */

enum metric {
    M_BANKRUPT, M_PLAYERS_BANKRUPT, M_BANKRUPT_ANY, M_BANKRUPT_COUNT, M_BANKRUPT_TURN, M_AID_TRIES, M_AID_SUCCESS,
    M_VOLUNTEERS, M_NO_VOLUNTEER, M_AUCTION, M_AUCTION_BIDDERS, M_WINNING_BID,
    M_AUCTION_WINNER, M_BANKER, M_BANKER_PLAYS, M_BANKER_NET, M_BANKER_BANKRUPT, M_TAKEOVER,
    M_CASHIER, M_CASHIER_LATER, M_CASHIER_UNPAID, M_CAPO, M_CAPO_WIN, M_CAPO_NET,
    M_OTHERS_NET, M_NET, M_DECLARATIONS, M_DECLARE_HIT, M_DECLARE_NET, M_CANCEL_OWN,
    M_CANCEL_OPP, M_JOLLY, M_COUNTER, M_JOLLIES_USED, M_TRADES, M_TRADE_PRICE, M_SWAPS,
    M_EXCHANGES, M_SHORT_SALES, M_FONDO_END, M_TURN_CAP, M_ARRIVAL,
};

static const metric_def metrics[] = {
    [M_BANKRUPT] = {"bankrupt", METRIC_RATE, METRIC_SEAT, "the seat went bankrupt"},
    [M_PLAYERS_BANKRUPT] = {"players_bankrupt", METRIC_RATE, METRIC_GAME,
                            "share of all players going bankrupt"},
    [M_BANKRUPT_ANY] = {"bankruptcy_any", METRIC_RATE, METRIC_GAME,
                        "games with at least one bankruptcy"},
    [M_BANKRUPT_COUNT] = {"bankruptcies", METRIC_MEAN, METRIC_GAME, "bankruptcies per game"},
    [M_BANKRUPT_TURN] = {"bankruptcy_turn", METRIC_MEAN, METRIC_GAME,
                         "turn at which a bankruptcy happens (one value per bankruptcy; 0: "
                         "in the setup payments)"},
    [M_AID_TRIES] = {"mutual_aid_attempts", METRIC_MEAN, METRIC_GAME,
                     "mutual aid attempts per game"},
    [M_AID_SUCCESS] = {"mutual_aid_success", METRIC_RATE, METRIC_GAME,
                       "mutual aid attempts that hit the declared number"},
    [M_VOLUNTEERS] = {"bank_volunteers", METRIC_MEAN, METRIC_GAME,
                      "players volunteering for the bank"},
    [M_NO_VOLUNTEER] = {"no_volunteer", METRIC_RATE, METRIC_GAME,
                        "games where nobody volunteered for the bank"},
    [M_AUCTION] = {"auction", METRIC_RATE, METRIC_GAME, "games with a bank auction"},
    [M_AUCTION_BIDDERS] = {"auction_bidders", METRIC_MEAN, METRIC_GAME,
                           "bidders in the bank auction (games with one)"},
    [M_WINNING_BID] = {"winning_bid", METRIC_MEAN, METRIC_GAME,
                       "winning bid of the bank auction, paid to each other player"},
    [M_AUCTION_WINNER] = {"auction_winner", METRIC_RATE, METRIC_SEAT,
                          "the seat won the bank auction (games with one)"},
    [M_BANKER] = {"banker", METRIC_RATE, METRIC_SEAT, "the seat was the first banker"},
    [M_BANKER_PLAYS] = {"banker_plays", METRIC_RATE, METRIC_GAME,
                        "the first banker joined the race (games with a banker)"},
    [M_BANKER_NET] = {"banker_net", METRIC_MEAN, METRIC_GAME,
                      "first banker's final points minus the dote (games with a banker)"},
    [M_BANKER_BANKRUPT] = {"banker_bankrupt", METRIC_RATE, METRIC_GAME,
                           "the first banker went bankrupt (games with a banker)"},
    [M_TAKEOVER] = {"bank_takeovers", METRIC_MEAN, METRIC_GAME,
                    "failed banks taken over by a player, per game"},
    [M_CASHIER] = {"cashier_from_start", METRIC_RATE, METRIC_GAME,
                   "the bank was a cashier from the start (no volunteer)"},
    [M_CASHIER_LATER] = {"cashier_after_failure", METRIC_RATE, METRIC_GAME,
                         "a failed bank found no taker and became a cashier"},
    [M_CASHIER_UNPAID] = {"cashier_unpaid", METRIC_MEAN, METRIC_GAME,
                          "cashier's unpaid debts at the end (games with a cashier)"},
    [M_CAPO] = {"capo", METRIC_RATE, METRIC_SEAT, "the seat was the Capo-gioco"},
    [M_CAPO_WIN] = {"capo_win", METRIC_RATE, METRIC_GAME, "the Capo-gioco won (alone or tied)"},
    [M_CAPO_NET] = {"capo_net", METRIC_MEAN, METRIC_GAME,
                    "Capo-gioco's final points minus the dote"},
    [M_OTHERS_NET] = {"others_net", METRIC_MEAN, METRIC_GAME,
                      "final points minus the dote of each player other than the Capo-gioco"},
    [M_NET] = {"net", METRIC_MEAN, METRIC_SEAT, "final points minus the dote"},
    [M_DECLARATIONS] = {"declarations", METRIC_MEAN, METRIC_SEAT, "declarations per game"},
    [M_DECLARE_HIT] = {"declaration_hit", METRIC_RATE, METRIC_SEAT, "declarations that hit"},
    [M_DECLARE_NET] = {"declaration_net", METRIC_MEAN, METRIC_SEAT,
                       "net points from declarations per game (stakes, prizes, banker's)"},
    [M_CANCEL_OWN] = {"plays_cancel_own", METRIC_MEAN, METRIC_GAME,
                      "postcards played to cancel one's own negative square, per game"},
    [M_CANCEL_OPP] = {"plays_cancel_opponent", METRIC_MEAN, METRIC_GAME,
                      "postcards played against an opponent's positive square, per game"},
    [M_JOLLY] = {"plays_jolly", METRIC_MEAN, METRIC_GAME, "jollies played to cancel a move"},
    [M_COUNTER] = {"plays_counter_jolly", METRIC_MEAN, METRIC_GAME,
                   "jollies played to cancel another postcard's play"},
    [M_JOLLIES_USED] = {"jollies_used", METRIC_MEAN, METRIC_GAME,
                      "jollies used per game (moves and counters)"},
    [M_TRADES] = {"card_sales", METRIC_MEAN, METRIC_GAME, "postcards sold per game"},
    [M_TRADE_PRICE] = {"card_price", METRIC_MEAN, METRIC_GAME, "price of each postcard sold"},
    [M_SWAPS] = {"card_swaps", METRIC_MEAN, METRIC_GAME, "postcard swaps per game"},
    [M_EXCHANGES] = {"exchanges_2_for_1", METRIC_MEAN, METRIC_GAME,
                     "two-for-one exchanges with the deck per game"},
    [M_SHORT_SALES] = {"short_sale_offers", METRIC_MEAN, METRIC_GAME,
                       "postcards offered by players short of points"},
    [M_FONDO_END] = {"fondo_end", METRIC_MEAN, METRIC_GAME, "Fondo Generale at the end"},
    [M_TURN_CAP] = {"turn_cap", METRIC_RATE, METRIC_GAME, "games stopped by max_turns"},
    [M_ARRIVAL] = {"arrival", METRIC_MEAN, METRIC_SEAT,
                   "place in the order of arrival at the goal (games where the seat arrived)"},
    {NULL, 0, 0, NULL},
};

/* Ranking of article 9: most points first (winners share rank 1), then arrival order, then
 * players still on the board (furthest first), then the bankrupt (last to fail first). A
 * banker sitting out of the race is not ranked. */
static int64_t rank_key(const oca_state *st, int s, uint32_t winners)
{
    if (winners >> s & 1)
        return 0;
    if (st->arrived[s] && !st->bankrupt[s])
        return 100 + st->arrival[s];
    if (!st->bankrupt[s])
        return 1000 - st->pos[s];
    return 2000 - st->bust_order[s];
}

static void outcome_of(const oca_state *st, outcome *o)
{
    memset(o, 0, sizeof *o);
    o->nseats = st->n;
    o->length = st->turn;
    o->end = st->end;
    int64_t best = -1;
    for (int s = 0; s < st->n; s++) {
        o->score[s] = st->led.balance[s];
        if (!st->playing[s] || st->bankrupt[s])
            continue;
        if (o->score[s] > best) {
            best = o->score[s];
            o->winners = 0;
        }
        if (o->score[s] == best)
            o->winners |= 1u << s;
    }
    for (int s = 0; s < st->n; s++) {
        if (!st->playing[s])
            continue;
        int64_t k = rank_key(st, s, o->winners);
        int r = 1;
        for (int j = 0; j < st->n; j++)
            r += st->playing[j] && rank_key(st, j, o->winners) < k;
        o->rank[s] = r;
    }
}

static void record(const oca_state *st, const outcome *o, recorder *rec)
{
    const oca_stats *x = &st->s;
    int dote = st->r->dote, busts = 0, b = x->first_banker;
    for (int s = 0; s < st->n; s++) {
        bool bust = st->bankrupt[s];
        busts += bust;
        rec_rate(rec, M_BANKRUPT, s, bust, 1);
        if (bust)
            rec_value(rec, M_BANKRUPT_TURN, -1, x->bankrupt_turn[s]);
        rec_rate(rec, M_BANKER, s, s == b, 1);
        rec_rate(rec, M_CAPO, s, s == st->capo, 1);
        rec_value(rec, M_NET, s, o->score[s] - dote);
        rec_value(rec, M_DECLARATIONS, s, x->declarations[s]);
        rec_rate(rec, M_DECLARE_HIT, s, x->declare_hits[s], x->declarations[s]);
        rec_value(rec, M_DECLARE_NET, s, x->declare_net[s]);
        if (x->auction)
            rec_rate(rec, M_AUCTION_WINNER, s, s == x->auction_winner, 1);
        if (s != st->capo)
            rec_value(rec, M_OTHERS_NET, -1, o->score[s] - dote);
        if (st->arrival[s] > 0)
            rec_value(rec, M_ARRIVAL, s, st->arrival[s]);
    }
    rec_rate(rec, M_PLAYERS_BANKRUPT, -1, busts, st->n);
    rec_rate(rec, M_BANKRUPT_ANY, -1, busts > 0, 1);
    rec_value(rec, M_BANKRUPT_COUNT, -1, busts);
    rec_value(rec, M_AID_TRIES, -1, x->aid_tries);
    rec_rate(rec, M_AID_SUCCESS, -1, x->aid_hits, x->aid_tries);
    rec_value(rec, M_VOLUNTEERS, -1, x->volunteers);
    rec_rate(rec, M_NO_VOLUNTEER, -1, x->volunteers == 0, 1);
    rec_rate(rec, M_AUCTION, -1, x->auction, 1);
    if (x->auction) {
        rec_value(rec, M_AUCTION_BIDDERS, -1, x->bidders);
        rec_value(rec, M_WINNING_BID, -1, x->winning_bid);
    }
    if (b >= 0) {
        rec_rate(rec, M_BANKER_PLAYS, -1, x->banker_played, 1);
        rec_value(rec, M_BANKER_NET, -1, o->score[b] - dote);
        rec_rate(rec, M_BANKER_BANKRUPT, -1, st->bankrupt[b], 1);
    }
    rec_value(rec, M_TAKEOVER, -1, x->takeovers);
    rec_rate(rec, M_CASHIER, -1, x->cashier_from_start, 1);
    rec_rate(rec, M_CASHIER_LATER, -1, x->cashier_later, 1);
    if (st->cashier)
        rec_value(rec, M_CASHIER_UNPAID, -1, oca_unpaid_debts(st));
    rec_rate(rec, M_CAPO_WIN, -1, o->winners >> st->capo & 1, 1);
    rec_value(rec, M_CAPO_NET, -1, o->score[st->capo] - dote);
    rec_value(rec, M_CANCEL_OWN, -1, x->cancel_own);
    rec_value(rec, M_CANCEL_OPP, -1, x->cancel_opponent);
    rec_value(rec, M_JOLLY, -1, x->jolly);
    rec_value(rec, M_COUNTER, -1, x->counter_jolly);
    rec_value(rec, M_JOLLIES_USED, -1, x->jolly + x->counter_jolly);
    rec_value(rec, M_TRADES, -1, x->trades);
    for (int p = 0; p < st->r->nprices; p++)
        rec_values(rec, M_TRADE_PRICE, -1, st->r->price[p], x->trade_price[p]);
    rec_value(rec, M_SWAPS, -1, x->swaps);
    rec_value(rec, M_EXCHANGES, -1, x->exchanges);
    rec_value(rec, M_SHORT_SALES, -1, x->short_sales);
    rec_value(rec, M_FONDO_END, -1, st->led.balance[ACC_FONDO]);
    rec_rate(rec, M_TURN_CAP, -1, st->end == END_TURN_CAP, 1);
}

/* --check: points are conserved (the balances of the seats, the cashier's till and the fondo
 * sum to the points issued, none negative), a cashier who owes has an empty till, and every
 * postcard has one holder that the hands mirror. */
static int check(const void *vst, char *err, size_t errlen)
{
    const oca_state *st = vst;
    if (!ledger_balanced(&st->led)) {
        for (int a = 0; a < st->led.naccounts; a++)
            if (st->led.balance[a] < 0)
                return snprintf(err, errlen, "points: account %d holds %lld", a,
                                (long long)st->led.balance[a]),
                       -1;
        return snprintf(err, errlen, "points: balances (cashier included) sum to %lld, %lld issued",
                        (long long)ledger_sum(&st->led), (long long)st->led.total),
               -1;
    }
    if (st->ndebts > 0 && st->led.balance[ACC_CASHIER] != 0)
        return snprintf(err, errlen, "points: the cashier owes %d debts but holds %lld",
                        st->ndebts, (long long)st->led.balance[ACC_CASHIER]),
               -1;
    uint32_t held = 0, hands = 0;
    for (int c = 0; c < st->r->ncards; c++) {
        int h = st->holder[c];
        if (h >= st->n || h < HOLD_OUT)
            return snprintf(err, errlen, "postcards: card %d held by %d", c, h), -1;
        for (int s = 0; s < st->n; s++)
            if (((st->hand[s] >> c) & 1u) != (h == s))
                return snprintf(err, errlen, "postcards: card %d held by %d, in the hand of seat %d: %d",
                                c, h, s + 1, (int)((st->hand[s] >> c) & 1u)),
                       -1;
        if (h >= 0)
            held |= 1u << c;
    }
    for (int s = 0; s < st->n; s++)
        hands |= st->hand[s];
    if (held != st->held || hands != held)
        return snprintf(err, errlen, "postcards: held 0x%x, hands 0x%x, holders 0x%x",
                        (unsigned)st->held, (unsigned)hands, (unsigned)held),
               -1;
    return 0;
}

static void finish(const void *vst, outcome *o, recorder *rec)
{
    const oca_state *st = vst;
    outcome_of(st, o);
    if (rec)
        record(st, o, rec);
}

/* ---- descriptor ------------------------------------------------------------------------------ */

static const char *const kind_names[] = {
    [K_VOLUNTEER] = "volunteer",
    [K_BID] = "bid",
    [K_BANKER_PLAYS] = "banker_plays",
    [K_TRADE] = "trade",
    [K_TRADE_OFFER] = "trade_offer",
    [K_BUY_CARD] = "buy_card",
    [K_SELL_CARD] = "sell_card",
    [K_SWAP] = "swap",
    [K_DECLARE] = "declare",
    [K_CANCEL_OWN] = "cancel_own",
    [K_CANCEL_OPPONENT] = "cancel_opponent",
    [K_JOLLY] = "jolly",
    [K_COUNTER_JOLLY] = "counter_jolly",
    [K_SHORT_SALE] = "short_sale",
    [K_MUTUAL_AID] = "mutual_aid_number",
    [K_TAKE_OVER_BANK] = "take_over_bank",
    [K_COUNT] = NULL,
};

static const char *const end_names[] = {"finish", "bankruptcies", "turn_cap", NULL};

static void action_name(const void *vst, const decision *d, int32_t a, char *buf, size_t n)
{
    const oca_state *st = vst;
    const int *cs = st->r->card_square;
    switch (d->kind) {
    case K_BID:
        snprintf(buf, n, "bid %d to each", a);
        return;
    case K_DECLARE:
        if (a)
            snprintf(buf, n, "declare %d", a);
        else
            snprintf(buf, n, "pass");
        return;
    case K_MUTUAL_AID:
        snprintf(buf, n, "declare %d", a);
        return;
    case K_TRADE: {
        static const char *const what[] = {"pass", "offer a postcard for sale",
                                           "offer to buy a postcard", "offer a swap",
                                           "exchange two postcards with the deck"};
        snprintf(buf, n, "%s", what[a]);
        return;
    }
    case K_TRADE_OFFER:
    case K_SHORT_SALE: {
        int t = OCA_TR_TYPE(a), ca = OCA_TR_A(a), cb = OCA_TR_B(a);
        int p = st->r->price[OCA_TR_P(a)];
        if (a == 0)
            snprintf(buf, n, "%s", d->kind == K_TRADE_OFFER ? "withdraw" : "give up selling");
        else if (t == TR_SELL)
            snprintf(buf, n, "offer postcard %d for %d", cs[ca], p);
        else if (t == TR_BUY)
            snprintf(buf, n, "offer %d to seat %d for postcard %d", p, cb + 1, cs[ca]);
        else if (t == TR_SWAP)
            snprintf(buf, n, "offer postcard %d for postcard %d", cs[ca], cs[cb]);
        else
            snprintf(buf, n, "exchange postcards %d and %d for one from the deck", cs[ca],
                     cs[cb]);
        return;
    }
    default:
        snprintf(buf, n, "%s", a ? "yes" : "no");
    }
}

/* ---- presentation: the summary's headline, groups and labels ------------------------------- */

static const char *const headline[] = {
    "players_bankrupt", "banker_bankrupt", "bankruptcy_any", "auction",
    "banker_net",       "capo_win",        "capo_net",       NULL,
};

static const metric_group groups[] = {
    {"Bankruptcy",
     (const char *const[]){"bankrupt", "players_bankrupt", "bankruptcy_any", "bankruptcies",
                           "bankruptcy_turn", "mutual_aid_attempts", "mutual_aid_success",
                           NULL}},
    {"The bank",
     (const char *const[]){"bank_volunteers", "no_volunteer", "auction", "auction_bidders",
                           "winning_bid", "auction_winner", "banker", "banker_plays",
                           "banker_net", "banker_bankrupt", "bank_takeovers",
                           "cashier_from_start", "cashier_after_failure", "cashier_unpaid",
                           "fondo_end", NULL}},
    {"The Capo-gioco and the players' points",
     (const char *const[]){"capo", "capo_win", "capo_net", "others_net", "net", NULL}},
    {"Declarations", (const char *const[]){"declarations", "declaration_hit", "declaration_net",
                                           NULL}},
    {"Postcards",
     (const char *const[]){"plays_cancel_own", "plays_cancel_opponent", "plays_jolly",
                           "plays_counter_jolly", "jollies_used", "card_sales", "card_price",
                           "card_swaps", "exchanges_2_for_1", "short_sale_offers", NULL}},
    {"The race", (const char *const[]){"arrival", "turn_cap", NULL}},
    {NULL, NULL},
};

static const metric_label labels[] = {
    {"bankrupt", "seat went bankrupt (share of its games)", NULL},
    {"players_bankrupt", "players who went bankrupt (share of all players)", NULL},
    {"bankruptcy_any", "games with at least one bankruptcy", NULL},
    {"bankruptcies", "bankruptcies per game", NULL},
    {"bankruptcy_turn", "turn of a bankruptcy (0: setup payments)", "turn"},
    {"mutual_aid_attempts", "mutual aid attempts per game", NULL},
    {"mutual_aid_success", "mutual aid attempts that hit", NULL},
    {"bank_volunteers", "players volunteering for the bank", NULL},
    {"no_volunteer", "games where nobody volunteered for the bank", NULL},
    {"auction", "games with a bank auction", NULL},
    {"auction_bidders", "bidders in the bank auction", NULL},
    {"winning_bid", "winning bid, paid to each other player", "points"},
    {"auction_winner", "seat won the bank auction", NULL},
    {"banker", "seat was the first banker", NULL},
    {"banker_plays", "first banker joined the race", NULL},
    {"banker_net", "first banker's net (final points minus the dote)", "points"},
    {"banker_bankrupt", "first banker went bankrupt", NULL},
    {"bank_takeovers", "failed banks taken over, per game", NULL},
    {"cashier_from_start", "bank run by a cashier from the start", NULL},
    {"cashier_after_failure", "failed bank became a cashier", NULL},
    {"cashier_unpaid", "cashier's unpaid debts at the end", "points"},
    {"fondo_end", "Fondo Generale at the end", "points"},
    {"capo", "seat was the Capo-gioco", NULL},
    {"capo_win", "Capo-gioco won (alone or tied)", NULL},
    {"capo_net", "Capo-gioco's net (final points minus the dote)", "points"},
    {"others_net", "other players' net (final points minus the dote)", "points"},
    {"net", "net (final points minus the dote)", "points"},
    {"declarations", "declarations per game", NULL},
    {"declaration_hit", "declarations that hit", NULL},
    {"declaration_net", "net from declarations per game", "points"},
    {"plays_cancel_own", "postcards cancelling one's own negative square, per game", NULL},
    {"plays_cancel_opponent", "postcards against an opponent's positive square, per game",
     NULL},
    {"plays_jolly", "jollies cancelling a move, per game", NULL},
    {"plays_counter_jolly", "jollies cancelling a postcard, per game", NULL},
    {"jollies_used", "jollies used per game", NULL},
    {"card_sales", "postcards sold per game", NULL},
    {"card_price", "price of a postcard sold", "points"},
    {"card_swaps", "postcard swaps per game", NULL},
    {"exchanges_2_for_1", "two-for-one exchanges with the deck, per game", NULL},
    {"short_sale_offers", "postcards offered by players short of points, per game", NULL},
    {"turn_cap", "games stopped by max_turns", NULL},
    {"arrival", "place in the order of arrival", NULL},
    {NULL, NULL, NULL},
};

const game_type game_oca = {
    .name = "oca",
    .title = "Gioco dell'Oca with bank, auctions, declarations and postcards",
    .seed = "000_73186111d786dc42.txt",
    .min_seats = 2,
    .max_seats = GAME_MAX_SEATS,
    .default_seats = 4,
    .default_bot = "greedy",
    .default_rules = config_oca_json,
    .rules_size = sizeof(oca_rules),
    .rules_load = oca_rules_load,
    .rules_check = oca_rules_check,
    .state_size = sizeof(oca_state),
    .start = start,
    .decide = decide,
    .apply = apply,
    .finish = finish,
    .check = check,
    .view_size = 0,
    .view = NULL,
    .action_name = action_name,
    .kind_names = kind_names,
    .end_names = end_names,
    .metrics = metrics,
    .length_unit = "turns",
    .score_name = "points",
    .low_score_wins = false,
    .exact = NULL,
    .slow_bots = (const char *const[]){"rollout", NULL},
    .bots = (const bot_type *const[]){&bot_random, &oca_bot_cautious, &oca_bot_greedy,
                                      &oca_bot_aggressive, NULL},
    .headline = headline,
    .groups = groups,
    .labels = labels,
};
