/* oca_bank.c — Gioco dell'Oca (seed 000), article 8: payments, the cashier's debts paid in
 * order, a payer's shortfall (short sales, mutual aid) and bankruptcy. */
#include <stdlib.h>
#include <string.h>

#include "games/oca/oca_engine.h"

void oca_add_debt(oca_state *st, int creditor, int amount, trace *tr)
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
        ledger_transfer(&st->led, ACC_CASHIER, d->creditor, amt, oca_reason_names[R_DEBT], -1, tr);
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

/* The creditors of payment step o and what each is owed (bankrupt ones are owed nothing);
 * returns their number. */
static int creditors(const oca_state *st, const oca_op *o, int *acc, int *due)
{
    int k = 0;
    if (!o->each) {
        int payee = resolve(st, o->a);
        if (!(payee < st->n && st->bankrupt[payee])) {
            acc[k] = payee;
            due[k++] = o->amount;
        }
        return k;
    }
    for (int i = 1; i < st->n; i++) {
        int j = after(st, o->seat, i);
        if (o->each >> j & 1 && !st->bankrupt[j]) {
            acc[k] = j;
            due[k++] = o->amount;
        }
    }
    return k;
}

/* Why seat o->seat, who cannot cover payment o, is ruined (OCA_RUIN_*): the square or the
 * declaration, and whether he is the banker. */
static int ruin_cause(const oca_state *st, const oca_op *o)
{
    bool bank = o->seat == st->banker;
    switch (o->reason) {
    case R_SQUARE:
        return (bank ? OCA_RUIN_BANK : 0) + o->detail;
    case R_STAKE:
        return OCA_RUIN_STAKE;
    case R_PRIZE:
        return OCA_RUIN_PRIZE;
    case R_BANKER_HIT:
        return OCA_RUIN_BANKER_HIT;
    case R_BANKER_MISS:
        return OCA_RUIN_BANKER_MISS;
    default:
        return OCA_RUIN_OTHER;
    }
}

/* Seat o.seat cannot cover payment o: he is out (article 8). The whole unpaid amount, to
 * every creditor of the payment, is one loss: a failed banker's is what his taker covers. */
static void go_bankrupt(oca_state *st, oca_op o, trace *tr)
{
    int s = o.seat, acc[GAME_MAX_SEATS + 2], due[GAME_MAX_SEATS + 2];
    int k = creditors(st, &o, acc, due), loss = 0;
    for (int i = 0; i < k; i++)
        loss += due[i];
    TRACE(tr, "seat %d cannot cover %lld and goes bankrupt", s + 1, (long long)oca_op_due(&o));
    for (int i = 0; i < k && st->r->bankrupt_pays_partial; i++) { /* in order, while he can */
        int amt = st->led.balance[s] < due[i] ? (int)st->led.balance[s] : due[i];
        if (amt <= 0)
            break;
        ledger_transfer(&st->led, s, acc[i], amt, oca_reason_names[R_PARTIAL], -1, tr);
        due[i] -= amt;
        loss -= amt;
        if (acc[i] == ACC_CASHIER) /* money came in: old debts first (article 8) */
            settle_debts(st, tr);
    }
    ledger_transfer(&st->led, s, ACC_FONDO, st->led.balance[s], oca_reason_names[R_LEFTOVER], -1, tr);
    for (int c = 0; c < st->r->ncards; c++)
        if (st->holder[c] == s)
            oca_give(st, c, HOLD_OUT);
    bool racing = in_race(st, s);
    st->bankrupt[s] = true;
    st->solvent &= ~(1u << s);
    st->members &= ~(1u << s);
    st->racing &= ~(1u << s);
    st->bust_order[s] = (int8_t)++st->nbust;
    st->s.bankrupt_turn[s] = st->turn;
    st->s.bankrupt_square[s] = (int16_t)ruin_cause(st, &o);
    drop_debts_to(st, s);
    if (racing)
        st->in_race--;
    if (s == st->banker) {
        st->banker = -1;
        st->takeover_loss = loss;
        memset(st->takeover_owed, 0, sizeof st->takeover_owed);
        for (int i = 0; i < k; i++)
            if (acc[i] < st->n)
                st->takeover_owed[acc[i]] += due[i];
        st->bidders = 0;
        TRACE(tr, "the bank has failed: who covers the loss of %d takes it over", loss);
        push(st, OP_TAKEOVER_SETTLE, -1, 0, 0, 0, 0);
        for (int i = st->n - 1; i >= 1; i--)
            push(st, OP_TAKEOVER, after(st, s, i), 0, 0, 0, 0);
    }
    if (st->turn > 0 && st->in_race <= 1)
        oca_end_game(st, END_BANKRUPTCIES, tr);
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
    if (o->stage < STAGE_AID && o->stage < st->r->short_sale_offers && oca_can_sell(st, s)) {
        if (o->stage == 0) /* a new shortfall: no offer of it refused yet */
            memset(st->short_refused, 0, sizeof st->short_refused);
        if (oca_build_short_sale(st, s))
            return true;
    }
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

void oca_pay_after(oca_state *st, int payer, int payee, int amount, int paid, int reason,
                   trace *tr)
{
    if (paid < amount) /* only the cashier can fall short here: it owes the rest */
        oca_add_debt(st, payee, amount - paid, tr);
    if (reason >= R_STAKE && reason <= R_BANKER_MISS) /* counted as made (or owed) */
        declaration_net(st, reason, payer, payee, amount);
    if (payee == ACC_CASHIER)
        settle_debts(st, tr);
}

/* Pays each seat of `each` (bankrupt ones and the payer left out) `amount`, clockwise from
 * the payer's left, if the payer can cover them all (the cashier always can); false, doing
 * nothing, if he cannot. */
static bool pay_each_now(oca_state *st, int payer, unsigned each, int amount, int reason,
                         int detail, trace *tr)
{
    each &= st->solvent & ~(1u << payer);
    if (payer < st->n && (st->bankrupt[payer] || each == 0))
        return true;
    if (payer < st->n && st->led.balance[payer] < (int64_t)amount * __builtin_popcount(each))
        return false;
    int seat[GAME_MAX_SEATS], k = clockwise(st, payer, each, seat);
    if (payer < st->n && amount > 0 && !(reason >= R_STAKE && reason <= R_BANKER_MISS)) {
        /* a seat who covers them all, no declaration: what oca_pay_now would make of each
         * payment is the plain transfer */
        for (int i = 0; i < k; i++)
            ledger_transfer(&st->led, payer, seat[i], amount, oca_reason_names[reason], detail,
                            tr);
        return true;
    }
    for (int i = 0; i < k; i++)
        oca_pay_now(st, payer, seat[i], amount, reason, detail, tr);
    return true;
}

void oca_pay_from_each(oca_state *st, const int *payer, int k, int to, int amount, int reason,
                       int detail, trace *tr)
{
    int paid = 0;
    while (paid < k && oca_pay_now(st, payer[paid], to, amount, reason, detail, tr))
        paid++;
    for (int i = k - 1; i >= paid; i--) /* from the first payer short of points: steps */
        pay(st, payer[i], to, amount, reason, detail);
}

void oca_pay_each(oca_state *st, int from, unsigned each, int amount, int reason, int detail,
                  trace *tr)
{
    int payer = resolve(st, from);
    if (pay_each_now(st, payer, each, amount, reason, detail, tr))
        return;
    /* the step's payees are the solvent others: a payer is never his own creditor, so that
     * oca_op_due (the loss a shortfall traces, and what a short seller must raise) is what
     * he really owes */
    each &= st->solvent & ~(1u << payer);
    push(st, OP_PAY, payer, 0, amount, reason, detail);
    top(st)->each = (uint8_t)each;
}

bool oca_pay_step(oca_state *st, trace *tr)
{
    oca_op *o = top(st);
    bool done = o->each ? pay_each_now(st, resolve(st, o->seat), o->each, o->amount, o->reason,
                                       o->detail, tr)
                        : oca_pay_now(st, o->seat, o->a, o->amount, o->reason, o->detail, tr);
    if (done) {
        pop(st);
        return false;
    }
    o->seat = (int8_t)resolve(st, o->seat); /* the bank is now a definite seat, for the */
    if (!o->each)                           /* steps below */
        o->a = (int8_t)resolve(st, o->a);
    return shortfall(st, o, tr);
}

void oca_answer_aid(oca_state *st, oca_op *o, int32_t number, rng *ch, trace *tr)
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
