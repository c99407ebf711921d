/* oca.c — Gioco dell'Oca with bank, auctions, declarations, bankruptcy, mutual aid and
 * postcards (doc/rules/oca.txt, articles 1-13; gap choices in the man page): the
 * engine's loop, the setup (articles 1, 2, 5) and the game descriptor.
 *
 * The game runs on a small stack of steps (oca_op): each step is either automatic (a roll, a
 * payment, a square's effect) or a decision of one seat. run() executes steps, and the
 * mover's turn (oca_turn) when none is left, until one needs a decision (kept in st->pend)
 * or the game is over; apply() answers it and runs on. The steps of each concern live in
 * their own file (see oca_engine.h). Every point moves through the ledger (ledger.h), so
 * players + cashier + Fondo Generale are constant. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "games/oca/oca_engine.h"
#include "core/registry.h"
#include "core/hot.h"

const char *const oca_reason_names[] = {
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

/* OP_ENTRY: every seat but the banker pays the entry fee, from the Capo-gioco on (then, with
 * bid_paid "after_fees", the auction's winner pays his bid to each other player). Out of line
 * (once a game), as banker_plays: step then needs no frame of its own for their arrays. */
static GIOCHI_NOINLINE void entry_fees(oca_state *st, trace *tr)
{
    pop(st);
    st->s.first_banker = st->banker;
    int payer[GAME_MAX_SEATS], k = 0;
    for (int i = 0; i < st->n; i++)
        if (after(st, st->capo, i) != st->banker)
            payer[k++] = after(st, st->capo, i);
    if (st->bid_due) /* bid_paid "after_fees": the bid, once the fees are in */
        oca_pay_bid(st, st->banker, st->s.winning_bid);
    oca_pay_from_each(st, payer, k, ACC_BANK, st->r->entry_fee, R_ENTRY, -1, tr);
}

static GIOCHI_NOINLINE void banker_plays(oca_state *st, bool plays, trace *tr)
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
    oca_pay_each(st, b, (1u << st->n) - 1, st->r->banker_refund, R_REFUND, -1, tr);
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
        return oca_bank_settle(st, tr);
    case OP_BID:
        return oca_bid_step(st, tr);
    case OP_AUCTION:
        oca_auction_settle(st, ch, tr);
        return false;
    case OP_ENTRY:
        entry_fees(st, tr);
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
        return oca_trade_step(st);
    case OP_RESPOND:
        return oca_respond_step(st);
    case OP_LAND:
        oca_land_step(st, tr);
        return false;
    case OP_CANCEL_OWN:
    case OP_CANCEL_OPP:
    case OP_JOLLY:
    case OP_COUNTER:
        return oca_card_step(st);
    case OP_EFFECT:
        oca_effect_step(st, tr);
        return false;
    case OP_PAY:
        return oca_pay_step(st, tr);
    case OP_TAKEOVER:
        return oca_takeover_step(st);
    case OP_TAKEOVER_SETTLE:
        oca_takeover_settle(st, tr);
        return false;
    case OP_REACT:
        return oca_react_step(st);
    }
    abort();
}

/* Runs the steps, and the turn's phases when none is left, until a decision is pending
 * (returns true) or the game is over (false). */
static bool run(oca_state *st, rng *ch, trace *tr)
{
    while (!st->over) {
        if (st->nops == 0 ? oca_turn(st, ch, tr) : step(st, ch, tr))
            return true;
    }
    return false;
}

static void start(void *vst, const void *rules, int nseats, rng *ch, trace *tr)
{
    oca_state *st = vst;
    const oca_rules *r = rules;
    /* everything from the Capo-gioco up to the debts (the rules, the seats and the ledger are
     * set below; the debts and the steps are written before they are read) */
    memset(&st->capo, 0, offsetof(oca_state, debt) - offsetof(oca_state, capo));
    st->ndebts = 0;
    st->over = false;
    st->end = 0;
    st->nops = 0;
    memset(&st->s, 0, sizeof st->s);
    course_start(&st->course);
    st->r = r;
    st->n = nseats;
    st->banker = -1;
    st->in_race = nseats;
    st->members = st->racing = st->solvent = (1u << nseats) - 1;
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
        ledger_transfer(&st->led, ACC_FONDO, s, r->dote, oca_reason_names[R_DOTE], -1, tr);
    oca_deal(st, ch, tr);
    push(st, OP_BANKER_PLAYS, -1, 0, 0, 0, 0);
    push(st, OP_ENTRY, -1, 0, 0, 0, 0);
    push(st, OP_BANK_SETTLE, -1, 0, 0, 0, 0);
    for (int k = nseats - 1; k >= 1; k--)
        push(st, OP_VOLUNTEER, (st->capo + k) % nseats, 0, 0, 0, 0);
    int payer[GAME_MAX_SEATS]; /* the Capo-gioco's fee, from his left */
    for (int k = 1; k < nseats; k++)
        payer[k - 1] = (st->capo + k) % nseats;
    oca_pay_from_each(st, payer, nseats - 1, st->capo, r->capo_fee, R_CAPO_FEE, -1, tr);
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

/* game_type.pending: the decision run() left in st->pend, read in place. */
static const decision *pending(const void *vst)
{
    const oca_state *st = vst;
    return st->over ? NULL : &st->pend;
}

/* Answers the pending decision with action a and runs to the next decision (apply's body,
 * inline in both hooks): returns true when one is pending, false once the game is over. */
static GIOCHI_INLINE bool answer(oca_state *st, int32_t a, rng *ch, trace *tr)
{
    if (st->pend.kind == K_TRADE) { /* the mover's window, asked with the stack empty */
        if (a == TR_PASS && oca_turn(st, ch, tr)) /* the usual answer: the turn goes on */
            return true;
        if (a != TR_PASS) { /* a kind of offer: OP_TRADE, the next step, lists those he can make */
            push(st, OP_TRADE, st->pend.seat, 0, 0, 0, 0);
            top(st)->stage = (int8_t)a;
            return oca_trade_step(st);
        }
        return run(st, ch, tr);
    }
    switch (st->pend.kind) { /* the op on top, if any (the turn's declaration has none) */
    case K_VOLUNTEER:
        if (a)
            st->bidders |= (uint8_t)(1u << top(st)->seat);
        pop(st);
        break;
    case K_BID:
        oca_answer_bid(st, a, tr);
        break;
    case K_BANKER_PLAYS:
        banker_plays(st, a != 0, tr);
        break;
    case K_TRADE_OFFER:
        oca_answer_trade(st, a, tr);
        break;
    case K_BUY_CARD:
    case K_SELL_CARD:
    case K_SWAP:
        oca_answer_respond(st, a, tr);
        break;
    case K_DECLARE:
        oca_answer_declare(st, a, tr);
        break;
    case K_CANCEL_OWN:
    case K_CANCEL_OPPONENT:
    case K_JOLLY:
    case K_COUNTER_JOLLY:
        oca_answer_card(st, a, tr);
        break;
    case K_SHORT_SALE:
        oca_answer_short(st, top(st), a);
        break;
    case K_MUTUAL_AID:
        oca_answer_aid(st, top(st), a, ch, tr);
        break;
    case K_REACT_OFFER:
    case K_REACT_ANSWER:
    case K_REACT_COUNTER:
        oca_answer_react(st, a, tr);
        break;
    case K_TAKE_OVER_BANK:
        if (a)
            st->bidders |= (uint8_t)(1u << top(st)->seat);
        pop(st);
        break;
    }
    return run(st, ch, tr);
}

static void apply(void *vst, int32_t a, rng *ch, trace *tr)
{
    answer(vst, a, ch, tr);
}

/* game_type.apply_pending: apply, then what pending gives (st->pend while the game goes on),
 * told by answer's result rather than read back from the state. */
static const decision *apply_pending(void *vst, int32_t a, rng *ch, trace *tr)
{
    oca_state *st = vst;
    return answer(st, a, ch, tr) ? &st->pend : NULL;
}

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
    [K_REACT_OFFER] = "react_offer",
    [K_REACT_ANSWER] = "react_answer",
    [K_REACT_COUNTER] = "react_counter",
    [K_COUNT] = NULL,
};

static const char *const end_names[] = {"finish", "bankruptcies", "turn_cap", NULL};
/* The ends in words for a person (game_type.end_words), in the order of end_names. */
static const char *const end_words[] = {
    "the race was over at the goal",
    "bankruptcies left too few players",
    "the turn cap was reached",
    NULL,
};

static void action_name(const void *vst, const decision *d, int32_t a, char *buf, size_t n)
{
    const oca_state *st = vst;
    const int *cs = st->r->card_square;
    switch (d->kind) {
    case K_BID:
        if (a == OCA_DROP)
            snprintf(buf, n, "drop out");
        else if (d->n > 1 && d->action[0] == OCA_DROP && a == st->high_bid) /* auction_tie die */
            snprintf(buf, n, "offer %d to each too", a);
        else
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
    case K_REACT_OFFER:
        if (a)
            snprintf(buf, n, "offer %d for the postcard", a);
        else
            snprintf(buf, n, "no offer");
        return;
    case K_REACT_ANSWER:
        if (a > 1)
            snprintf(buf, n, "ask %d", a);
        else
            snprintf(buf, n, "%s", a ? "accept" : "refuse");
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
    for (int s = 0; s < st->n; s++)
        if (st->bankrupt[s] == (st->solvent >> s & 1))
            return snprintf(err, errlen, "seat %d: bankrupt %d, solvent mask 0x%x", s + 1,
                            (int)st->bankrupt[s], (unsigned)st->solvent),
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

/* ---- presentation: the summary's headline, groups and labels ------------------------------- */

static const char *const headline[] = {
    "players_bankrupt", "banker_bankrupt", "players_bankrupt_not_banker", "bankruptcy_any",
    "auction",
    "banker_net",       "capo_win",        "capo_net",       NULL,
};

static const metric_group groups[] = {
    {"Bankruptcy",
     (const char *const[]){"bankrupt", "players_bankrupt", "players_bankrupt_not_banker",
                           "bankruptcy_any", "bankruptcies",
                           "bankruptcy_turn", "bankruptcy_square", "mutual_aid_attempts",
                           "mutual_aid_success", NULL}},
    {"The bank",
     (const char *const[]){"bank_volunteers", "volunteered", "no_volunteer", "auction", "auction_bidders",
                           "winning_bid", "auction_winner", "auction_winner_edge", "banker",
                           "banker_plays",
                           "banker_net", "bank_net", "banker_bankrupt", "bank_takeovers",
                           "cashier_from_start", "cashier_after_failure", "cashier_unpaid",
                           "cashier_till", "fondo_end", NULL}},
    {"The Capo-gioco and the players' points",
     (const char *const[]){"capo", "capo_win", "capo_net", "others_net", "net", NULL}},
    {"Declarations", (const char *const[]){"declarations", "declarations_game",
                                           "declaration_hit", "declaration_net", NULL}},
    {"Postcards",
     (const char *const[]){"plays_cancel_own", "plays_cancel_opponent", "plays_jolly",
                           "plays_counter_jolly", "jollies_used", "card_sales", "card_price",
                           "card_swaps", "exchanges_2_for_1", "react_offers", "react_counters",
                           "react_trades", "short_sale_offers", NULL}},
    {"The race", (const char *const[]){"arrival", "turn_cap", NULL}},
    COURSE_GROUP,
    {NULL, NULL},
};

static const metric_label labels[] = {
    {"bankrupt", "seat went bankrupt (share of its games)", NULL},
    {"players_bankrupt", "players who went bankrupt (share of all players)", NULL},
    {"bankruptcy_any", "games with at least one bankruptcy", NULL},
    {"bankruptcies", "bankruptcies per game", NULL},
    {"bankruptcy_turn", "turn of a bankruptcy (0: setup payments)", "turn"},
    {"bankruptcy_square", "cause of a ruin (see ruin by cause)", "cause"},
    {"mutual_aid_attempts", "mutual aid attempts per game", NULL},
    {"mutual_aid_success", "mutual aid attempts that hit", NULL},
    {"bank_volunteers", "players volunteering for the bank", NULL},
    {"no_volunteer", "games where nobody volunteered for the bank", NULL},
    {"auction", "games with a bank auction", NULL},
    {"auction_bidders", "bidders in the bank auction", NULL},
    {"winning_bid", "winning bid, paid to each other player", "points"},
    {"auction_winner", "seat won the bank auction", NULL},
    {"auction_winner_edge", "auction winner's points minus the others' mean", "points"},
    {"banker", "seat was the first banker", NULL},
    {"banker_plays", "first banker joined the race", NULL},
    {"banker_net", "first banker's net (final points minus the dote)", "points"},
    {"players_bankrupt_not_banker", "players but the first banker who went bankrupt", NULL},
    {"volunteered", "seat volunteered for the bank", NULL},
    {"bank_net", "net as first banker (games the seat held the bank)", "points"},
    {"banker_bankrupt", "first banker went bankrupt", NULL},
    {"bank_takeovers", "failed banks taken over, per game", NULL},
    {"cashier_from_start", "bank run by a cashier from the start", NULL},
    {"cashier_after_failure", "failed bank became a cashier", NULL},
    {"cashier_unpaid", "cashier's unpaid debts at the end", "points"},
    {"cashier_till", "cashier's till at the end", "points"},
    {"fondo_end", "Fondo Generale at the end", "points"},
    {"capo", "seat was the Capo-gioco", NULL},
    {"capo_win", "Capo-gioco won (alone or tied)", NULL},
    {"capo_net", "Capo-gioco's net (final points minus the dote)", "points"},
    {"others_net", "other players' net (final points minus the dote)", "points"},
    {"net", "net (final points minus the dote)", "points"},
    {"declarations", "declarations per player and game", NULL},
    {"declarations_game", "declarations per game (all players)", NULL},
    {"declaration_hit", "declarations that hit", NULL},
    {"declaration_net", "net from declarations, per player and game", "points"},
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
    {"react_offers", "reactive offers for a square just landed on, per game", NULL},
    {"react_counters", "reactive offers answered with a higher price, per game", NULL},
    {"react_trades", "reactive offers that ended in a sale, per game", NULL},
    {"short_sale_offers", "postcards offered by players short of points, per game", NULL},
    {"turn_cap", "games stopped by max_turns", NULL},
    {"arrival", "place in the order of arrival", NULL},
    COURSE_METRIC_LABELS,
    {NULL, NULL, NULL},
};

bool oca_square_reconstructed(const cJSON *sq)
{
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(sq, "source");
    const cJSON *note = cJSON_GetObjectItemCaseSensitive(sq, "note");
    const cJSON *amount = cJSON_GetObjectItemCaseSensitive(sq, "amount");
    const cJSON *effect = cJSON_GetObjectItemCaseSensitive(sq, "effect");
    static const char *const paying[] = {"pay_bank", "receive_bank", "collect_all",
                                         "distribute_all"};
    bool pays = false;
    for (int i = 0; i < 4 && cJSON_IsString(effect); i++)
        pays |= strcmp(effect->valuestring, paying[i]) == 0;
    return pays && cJSON_IsNumber(amount) && amount->valuedouble > 0 &&
           ((cJSON_IsString(src) && strcmp(src->valuestring, "reconstruction") == 0) ||
            (cJSON_IsString(note) && strstr(note->valuestring, "reconstruction") != NULL));
}

/* The row of value v of ruin by cause (OCA_RUIN_*): who was ruined, then what he could not
 * pay: a declaration's payment, or a square by its number, name, effect (its verb: receive
 * for receive_bank) and amount from the effective board, marked "(rec.)" when the amount is
 * a reconstruction. */
static void ruin_label(int64_t v, const cJSON *ruleset, char *buf, size_t n)
{
    static const char *const decl[] = {
        [-OCA_RUIN_BANKER_MISS] = "banker: his own declaration missed",
        [-OCA_RUIN_PRIZE] = "banker: a player's declaration prize",
        [-OCA_RUIN_BANKER_HIT] = "player: the banker's declaration",
        [-OCA_RUIN_STAKE] = "player: his declaration's stake",
    };
    if (v < 0 && v >= OCA_RUIN_BANKER_MISS) {
        snprintf(buf, n, "%s", decl[-v]);
        return;
    }
    if (v == OCA_RUIN_OTHER) {
        snprintf(buf, n, "other (fees, bids, aid, failed bank)");
        return;
    }
    const char *who = v > OCA_RUIN_BANK ? "banker" : "player";
    int64_t sqn = v > OCA_RUIN_BANK ? v - OCA_RUIN_BANK : v;
    const cJSON *sq = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(ruleset, "board"),
                                         (int)sqn - 1);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(sq, "name");
    const cJSON *effect = cJSON_GetObjectItemCaseSensitive(sq, "effect");
    const cJSON *amount = cJSON_GetObjectItemCaseSensitive(sq, "amount");
    if (!cJSON_IsString(name) || !cJSON_IsString(effect) || !cJSON_IsNumber(amount)) {
        snprintf(buf, n, "%s: square %lld", who, (long long)sqn);
        return;
    }
    /* the effect's verb alone (receive, pay, collect, distribute), so that a row fits */
    int verb = (int)strcspn(effect->valuestring, "_");
    snprintf(buf, n, "%s: %lld %s: %.*s %.0f%s", who, (long long)sqn, name->valuestring, verb,
             effect->valuestring, amount->valuedouble,
             oca_square_reconstructed(sq) ? " (rec.)" : "");
}

static const metric_dist dists[] = {
    {"bankrupt_players", "bankruptcies", "bankrupt players per game", "bankrupt players",
     "games", NULL, 1, false, false, NULL},
    {"winning_bid", "winning_bid", "winning bid of the bank auction (bins of bid_step)",
     "bid (points)", "auctions", "bid_step", 0, false, false, NULL},
    {"auction_bidders", "auction_bidders", "bidders in the bank auction", "bidders",
     "auctions", NULL, 1, true, false, NULL},
    {"ruin_square", "bankruptcy_square",
     "ruin by cause: who went bankrupt, paying what (rec.: a reconstructed amount)",
     "who: cause", "ruins", NULL, 1, true, true, ruin_label},
    {"declarations_per_player", "declarations", "declarations per player in a game",
     "declarations", "players' games", NULL, 0, false, false, NULL},
    {"declarations_per_game", "declarations_game", "declarations per game (all players)",
     "declarations", "games", NULL, 0, false, false, NULL},
    {"cashier_till", "cashier_till", "cashier's till at the end",
     "points", "games with a cashier", NULL, 0, false, false, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL, 0, false, false, NULL},
};

static const metric_table_row net_by_bid_rows[] = {
    {"auction_net_0", "0..9", 0, 9},       {"auction_net_10", "10..19", 10, 19},
    {"auction_net_20", "20..29", 20, 29},  {"auction_net_30", "30..39", 30, 39},
    {"auction_net_40", "40..49", 40, 49},  {"auction_net_50", "50..59", 50, 59},
    {"auction_net_60", "60..69", 60, 69},  {"auction_net_70", "70..79", 70, 79},
    {"auction_net_80", "80..89", 80, 89},  {"auction_net_90", "90..99", 90, 99},
    {"auction_net_100", "100+", 100, NAN}, {NULL, NULL, 0, 0},
};

static const metric_table tables[] = {
    {"auction_net_by_bid", "Auction winner's net (final points minus the dote) by winning bid",
     "winning bid", "winning_bid", net_by_bid_rows},
    {NULL, NULL, NULL, NULL, NULL},
};

static const char *const type_shares[] = {"auction_winner", "banker", "bankrupt", NULL};

/* The roles that decide the game, whichever seat holds them (giochi-sim-oca(7), ROLES). */
static const metric_role roles[] = {
    {"Capo-gioco", "capo_win", "capo_net", "role_capo_bankrupt"},
    {"first banker (the bank's winner)", "role_banker_win", "banker_net", "banker_bankrupt"},
    {"volunteers who lost the bank", "role_volunteer_win", "role_volunteer_net",
     "role_volunteer_bankrupt"},
    {"the other players", "role_other_win", "role_other_net", "role_other_bankrupt"},
    {NULL, NULL, NULL, NULL},
};

/* What one game can record: max_turns ends every game; a seat declares at most once a
 * turn, and a turn moves at most max_chain + 1 times; at most 16 sale prices are kept. The
 * choices of a turn are not bounded here (trades and their answers, cards bought and sold). */
static void limits(const void *rules, int nseats, game_limits *l)
{
    const oca_rules *r = rules;
    static const char *const per_player[] = {
        "players_bankrupt", "bankruptcy_turn", "mutual_aid_success", "others_net",
        "players_bankrupt_not_banker", "role_volunteer_win", "role_volunteer_net",
        "role_volunteer_bankrupt", "role_other_win", "role_other_net", "role_other_bankrupt",
        NULL};
    static const char *const repeated[] = {"declaration_hit", "card_price", NULL};
    *l = (game_limits){.length = r->max_turns,
                       .per_player = per_player,
                       .repeated = repeated,
                       .repeats = {16 + nseats, (int64_t)r->max_chain + 1}};
}

/* The game's own words, as the reports use them (RULES-NOTES, oca; giochi-sim-oca(7)). */
static const game_term glossary[] = {
    {"Capo-gioco", "the player whose three rolls summed highest, who keeps the Fondo Generale and "
                   "the postcards, receives 5 points from each player and plays first"},
    {"Fondo Generale", "the common fund the Capo-gioco keeps; it pays each player's dote and "
                       "takes a bankrupt's leftover points"},
    {"dote", "the points each player gets from the Fondo Generale at the start (200 by "
             "default), the most a player can lose"},
    {"bank", "the banker's purse, backed by his own dote; players pay it and collect from it "
             "on the squares, and pay it the entry fee"},
    {"auction", "several volunteers for the bank bid; the winner pays his bid to each other "
                "player and becomes the first banker"},
    {"cashier", "the Capo-gioco running a failed bank nobody took over; it never fails, and "
                "pays its debts in order as money comes in"},
    {"declaration", "after a Pulcinella square a player may pay a stake (10) and name his next "
                    "roll; a hit wins a prize (50)"},
    {"mutual aid", "a player about to go bankrupt rolls twice at a number he names, once a "
                   "game; a hit collects 10 from each player"},
    {"postcard", "a card of an illustrated square, played to cancel one's own landing on a "
                 "bad square or an opponent's on a good one"},
    {NULL, NULL},
};

const game_type game_oca = {
    .tables = tables,
    .roles = roles,
    .type_shares = type_shares,
    .rule_docs = oca_rule_docs,
    .name = "oca",
    .title = "Gioco dell'Oca with bank, auctions, declarations and postcards",
    .seed = "doc/rules/oca.txt",
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
    .pending = pending,
    .apply = apply,
    .apply_pending = apply_pending,
    .finish = oca_finish,
    .standing = oca_standing,
    .check = check,
    .view_size = 0,
    .view = NULL,
    .action_name = action_name,
    .kind_names = kind_names,
    .end_names = end_names,
    .metrics = oca_metrics,
    .length_unit = "turns",
    .limits = limits,
    .score_name = "points",
    .score_signed = true,
    .signed_metrics = oca_signed_metrics,
    .low_score_wins = false,
    .exact = oca_exact,
    /* mcts rollout=1 plays its playouts with greedy at every seat (its default knobs; it
     * tells a playout's new game by the deal and the turn, since nobody calls its begin) */
    .policy = &oca_bot_greedy,
    .slow_bots = (const char *const[]){"rollout", NULL},
    .bots = (const bot_type *const[]){&bot_random, &oca_bot_cautious, &oca_bot_greedy,
                                      &oca_bot_greedy_2026, &oca_bot_aggressive, NULL},
    .headline = headline,
    .groups = groups,
    .labels = labels,
    .glossary = glossary,
    .dists = dists,
    .depends = oca_depends,
    .view_json = oca_view_json,
    .view_draw = oca_view_draw,
    .end_words = end_words,
};

