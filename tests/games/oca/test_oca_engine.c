/* test_oca_engine.c — Gioco dell'Oca: the engine's private helpers (oca_engine.h) and the facts
 * it keeps as masks, checked against the per-seat flags they stand for through seeded games. */
#include <string.h>

#include "games/oca/oca_engine.h"
#include "check.h"
#include "config/rules.h"

extern const game_type game_oca;

static void load_default(oca_rules *r, const char *set_key, const char *set_json)
{
    char err[256];
    cJSON *j = rules_parse(game_oca.default_rules, "oca", err, sizeof err);
    if (set_key)
        cJSON_ReplaceItemInObjectCaseSensitive(j, set_key, cJSON_Parse(set_json));
    if (game_oca.rules_load(r, j, err, sizeof err) != 0)
        check_fail(__FILE__, __LINE__, "ruleset: %s", err);
    cJSON_Delete(j);
}

/* The payments to several seats go clockwise from the payer's left (article 4's "giro"); the
 * cashier and the Fondo, who sit at no place, pay in seat order. */
TEST(oca_engine_clockwise_lists_seats_from_the_left)
{
    oca_state st;
    memset(&st, 0, sizeof st);
    st.n = 5;
    int seat[GAME_MAX_SEATS];
    CHECK_INT(clockwise(&st, 2, 0x1b, seat), 4); /* seats 0, 1, 3, 4 */
    CHECK_INT(seat[0], 3);
    CHECK_INT(seat[1], 4);
    CHECK_INT(seat[2], 0);
    CHECK_INT(seat[3], 1);
    CHECK_INT(clockwise(&st, 4, 0x1f, seat), 5); /* the last seat: its left is seat 0 */
    CHECK_INT(seat[0], 0);
    CHECK_INT(seat[4], 4);
    CHECK_INT(clockwise(&st, ACC_CASHIER, 0x15, seat), 3);
    CHECK_INT(seat[0], 0);
    CHECK_INT(seat[1], 2);
    CHECK_INT(seat[2], 4);
    CHECK_INT(clockwise(&st, 1, 0, seat), 0);
}

/* A visit at a decision of a seeded game (see walk_games): st and d as decide left them, ch the
 * chance stream the next apply draws from, pick the test's own stream (the walk draws the choice
 * from it after the visit). Returns the disagreements found there (0: none). */
typedef int visit_fn(oca_state *st, const decision *d, const rng *ch, rng *pick, void *ctx);

/* Plays `games` seeded games under r with random choices (game g: 2 + g % 5 seats, the chance
 * stream seeded chance_seed + g, the choices drawn from a stream seeded pick_seed + g), calling
 * visit at every decision; returns the sum of what visit returned, plus one for each game that
 * did not end. */
static int walk_games(const oca_rules *r, int games, uint64_t chance_seed, uint64_t pick_seed,
                      visit_fn *visit, void *ctx)
{
    int bad = 0;
    for (int game = 0; game < games; game++) {
        oca_state st;
        rng ch, pick;
        rng_seed(&ch, chance_seed + (uint64_t)game);
        rng_seed(&pick, pick_seed + (uint64_t)game);
        game_oca.start(&st, r, 2 + game % 5, &ch, NULL);
        decision d;
        for (int steps = 0; game_oca.decide(&st, &d) && steps < 100000; steps++) {
            bad += visit(&st, &d, &ch, &pick, ctx);
            game_oca.apply(&st, d.action[rng_below(&pick, (uint32_t)d.n)], &ch, NULL);
        }
        bad += !st.over;
    }
    return bad;
}

/* At every decision of seeded games with random choices, for both values of
 * arrived_in_round: the round's mask is in_round seat by seat, the racers' count is in_race,
 * and a turn's own trade window is asked with the step stack empty (apply relies on it). */
static int masks_visit(oca_state *st, const decision *d, const rng *ch, rng *pick, void *ctx)
{
    (void)ch, (void)pick, (void)ctx;
    int bad = 0;
    for (int s = 0; s < st->n; s++)
        bad += (int)(round_mask(st) >> s & 1) != (int)in_round(st, s);
    bad += __builtin_popcount(st->racing) != st->in_race;
    if (d->kind == K_TRADE)
        bad += st->nops != 0;
    return bad;
}

TEST(oca_engine_masks_mirror_the_seat_flags)
{
    static const char *const air[] = {"false", "true"};
    for (int v = 0; v < 2; v++) {
        oca_rules r;
        load_default(&r, "arrived_in_round", air[v]);
        CHECK_INT(walk_games(&r, 300, 1000, 5000, masks_visit, NULL), 0);
    }
}

/* fill_steps, four terms at a time, writes the arithmetic list term by term, and nothing
 * after its count; ask_range lists lo..hi with it. */
TEST(oca_engine_fill_steps_writes_the_list)
{
    static const int32_t firsts[] = {0, 5, -1, 100000};
    static const int32_t steps[] = {1, 5, 10, 1000};
    int bad = 0;
    for (int f = 0; f < 4; f++)
        for (int s = 0; s < 4; s++)
            for (int count = 0; count <= 2 * GAME_MAX_SEATS + 3; count++) {
                int32_t a[64];
                for (int i = 0; i < 64; i++)
                    a[i] = -7;
                fill_steps(a, firsts[f], steps[s], count);
                for (int i = 0; i < count; i++)
                    bad += a[i] != firsts[f] + i * steps[s];
                for (int i = count; i < 64; i++)
                    bad += a[i] != -7;
            }
    CHECK_INT(bad, 0);
    static oca_state st; /* ask_range lists lo..hi through it */
    for (int lo = -1; lo <= 2; lo++)
        for (int hi = lo - 1; hi <= lo + 9; hi++) {
            CHECK(ask_range(&st, 3, K_DECLARE, lo, hi));
            bad += st.pend.seat != 3 || st.pend.kind != K_DECLARE || st.pend.n != hi - lo + 1;
            for (int i = 0; i < st.pend.n; i++)
                bad += st.pend.action[i] != lo + i;
        }
    CHECK_INT(bad, 0);
}

/* At a trade window, whether d lists TR_PASS and then the kinds oca_trade_types finds;
 * counts the windows into *ctx (an int). */
static int window_visit(oca_state *st, const decision *d, const rng *ch, rng *pick, void *ctx)
{
    (void)ch, (void)pick;
    if (d->kind != K_TRADE)
        return 0;
    unsigned m = oca_trade_types(st, d->seat);
    int bad = 0, k = 0;
    bad += d->action[k++] != TR_PASS;
    for (int t = TR_SELL; t <= TR_EXCHANGE; t++)
        if (m >> t & 1)
            bad += k >= d->n || d->action[k++] != t;
    bad += k != d->n;
    ++*(int *)ctx;
    return bad;
}

/* The trade window's table: row m>>1 lists TR_PASS, then each kind of offer of the set m in
 * increasing order, then zeros; and in seeded games every window asked lists exactly that row
 * for the kinds oca_trade_types finds (the list a scan of the kinds would write). */
TEST(oca_engine_trade_window_lists_pass_then_the_kinds)
{
    int bad = 0;
    for (unsigned row = 0; row < 16; row++) {
        int32_t want[8] = {TR_PASS};
        int n = 1;
        for (int t = TR_SELL; t <= TR_EXCHANGE; t++)
            if ((row << 1) >> t & 1)
                want[n++] = t;
        bad += memcmp(want, oca_window_actions[row], sizeof want) != 0;
    }
    CHECK_INT(bad, 0);
    oca_rules r;
    load_default(&r, NULL, NULL);
    int windows = 0;
    CHECK_INT(walk_games(&r, 200, 3000, 7000, window_visit, &windows), 0);
    CHECK(windows > 1000);
}

typedef struct counts {
    int cases, special; /* the cases compared, and those of a kind the test needs some of */
} counts;

/* oca_pay_from_each, which pays at once while the payers can, leaves the state that pushing
 * every payment as an OP_PAY step and running the steps would: same balances, statistics and
 * debts, and the same steps left (from the first payer short of points on). Checked from the
 * positions of seeded games at their trade windows (the step stack empty), with payers, payee
 * and amounts drawn so that some payers fall short (ctx: counts, special: a payer fell short). */
static int from_each_visit(oca_state *st, const decision *d, const rng *ch, rng *pick, void *ctx)
{
    (void)ch;
    if (d->kind != K_TRADE || st->nops != 0)
        return 0;
    static oca_state pushed, direct;
    pushed = *st;
    direct = *st;
    int n = st->n, payer[GAME_MAX_SEATS], k = 0, bad = 0;
    for (int s = 0; s < n; s++)
        if (rng_below(pick, 3) != 0)
            payer[k++] = s;
    int to = rng_below(pick, 4) == 0 ? ACC_BANK : (int)rng_below(pick, (uint32_t)n);
    int amount = 1 + (int)rng_below(pick, 400);
    for (int i = k - 1; i >= 0; i--)
        pay(&pushed, payer[i], to, amount, R_SQUARE, 7);
    oca_pay_from_each(&direct, payer, k, to, amount, R_SQUARE, 7, NULL);
    while (pushed.nops > direct.nops && !bad)
        bad += oca_pay_step(&pushed, NULL); /* a decision: it fell short */
    bad += pushed.nops != direct.nops;
    for (int i = 0; i < direct.nops && i < pushed.nops; i++) {
        const oca_op *a = &pushed.op[i], *b = &direct.op[i];
        bad += a->type != b->type || a->seat != b->seat || a->a != b->a ||
               a->stage != b->stage || a->each != b->each || a->reason != b->reason ||
               a->detail != b->detail || a->amount != b->amount;
    }
    bad += memcmp(pushed.led.balance, direct.led.balance, sizeof direct.led.balance) ||
           memcmp(&pushed.s, &direct.s, sizeof direct.s) || pushed.ndebts != direct.ndebts;
    counts *c = ctx;
    c->special += direct.nops > 0;
    c->cases++;
    return bad;
}

TEST(oca_engine_pay_from_each_agrees_with_pushed_steps)
{
    oca_rules r;
    load_default(&r, NULL, NULL);
    counts c = {0, 0};
    CHECK_INT(walk_games(&r, 100, 11000, 13000, from_each_visit, &c), 0);
    CHECK(c.cases > 1000);
    CHECK(c.special > 10);
}

/* oca_pay_each as the general rule states it, one oca_pay_now per payee (the reference for
 * its shortcut, the plain transfers of a seat who covers every payee). */
static void pay_each_reference(oca_state *st, int from, unsigned each, int amount, int reason,
                               int detail)
{
    int payer = resolve(st, from);
    unsigned to = each & st->solvent & ~(1u << payer);
    if (payer < st->n && (st->bankrupt[payer] || to == 0))
        return;
    if (payer < st->n && st->led.balance[payer] < (int64_t)amount * __builtin_popcount(to)) {
        push(st, OP_PAY, payer, 0, amount, reason, detail); /* the step's payees: the */
        top(st)->each = (uint8_t)to;                        /* solvent others */
        return;
    }
    int seat[GAME_MAX_SEATS], k = clockwise(st, payer, to, seat);
    for (int i = 0; i < k; i++)
        oca_pay_now(st, payer, seat[i], amount, reason, detail, NULL);
}

/* At a trade window with the step stack empty: oca_pay_each against pay_each_reference, for
 * payer, payees, amount and reason drawn from pick (ctx: counts). */
static int each_visit(oca_state *st, const decision *d, const rng *ch, rng *pick, void *ctx)
{
    /* a banker's miss is paid by a seat (its net is counted per seat) */
    static const int reasons[] = {R_SQUARE, R_REFUND, R_AID, R_BANKER_MISS};
    (void)ch;
    if (d->kind != K_TRADE || st->nops != 0)
        return 0;
    static oca_state fast, slow;
    fast = *st;
    slow = *st;
    int n = st->n;
    int from = rng_below(pick, 5) == 0 ? ACC_BANK : (int)rng_below(pick, (uint32_t)n);
    unsigned each = rng_below(pick, 1u << n);
    int amount = (int)rng_below(pick, 300);
    int reason = reasons[rng_below(pick, from == ACC_BANK ? 3 : 4)];
    oca_pay_each(&fast, from, each, amount, reason, 9, NULL);
    pay_each_reference(&slow, from, each, amount, reason, 9);
    int bad = fast.nops != slow.nops || fast.ndebts != slow.ndebts ||
              memcmp(fast.led.balance, slow.led.balance, sizeof slow.led.balance) ||
              memcmp(&fast.s, &slow.s, sizeof slow.s);
    if (fast.nops == 1 && slow.nops == 1)
        bad += fast.op[0].seat != slow.op[0].seat || fast.op[0].each != slow.op[0].each ||
               fast.op[0].amount != slow.op[0].amount;
    ((counts *)ctx)->cases++;
    return bad;
}

/* oca_pay_each leaves what one oca_pay_now per payee leaves, from the positions of seeded games
 * at their trade windows, for payers, payees, amounts and reasons drawn at random. */
TEST(oca_engine_pay_each_agrees_with_one_payment_per_payee)
{
    oca_rules r;
    load_default(&r, NULL, NULL);
    counts c = {0, 0};
    CHECK_INT(walk_games(&r, 100, 17000, 19000, each_visit, &c), 0);
    CHECK(c.cases > 1000);
}

/* A player's declaration changes the money of his turn, not its landing: from the positions
 * of seeded games at a declaration of a player who is not the banker, declaring (the stake
 * paid at once, the landing made at once after the settlement) and passing, with the same
 * dice, put every seat on the same square and leave the same next decision (kind and seat)
 * and the same steps pending, when he and the banker are rich enough that no payment of the
 * turn falls short. */
static int declare_visit(oca_state *st, const decision *d, const rng *ch, rng *pick, void *ctx)
{
    (void)pick;
    if (d->kind != K_DECLARE || d->seat == st->banker || st->led.balance[d->seat] < 300 ||
        (st->banker >= 0 && st->led.balance[st->banker] < 300))
        return 0;
    static oca_state pass, declare;
    pass = *st;
    declare = *st;
    rng ch_pass = *ch, ch_declare = *ch;
    game_oca.apply(&pass, 0, &ch_pass, NULL);
    game_oca.apply(&declare, d->action[d->n - 1], &ch_declare, NULL);
    int bad = memcmp(pass.pos, declare.pos, sizeof pass.pos) != 0 || pass.over != declare.over ||
              pass.nops != declare.nops || memcmp(&ch_pass, &ch_declare, sizeof ch_pass) != 0;
    if (!pass.over && !declare.over)
        bad += pass.pend.kind != declare.pend.kind || pass.pend.seat != declare.pend.seat;
    ((counts *)ctx)->cases++;
    return bad;
}

TEST(oca_engine_declaring_lands_as_passing)
{
    oca_rules r;
    load_default(&r, NULL, NULL);
    counts c = {0, 0};
    CHECK_INT(walk_games(&r, 300, 23000, 29000, declare_visit, &c), 0);
    CHECK(c.cases > 100);
}

/* The seat a jolly step asks next as the rule states it: from place o->stage on (from place
 * 1 for OP_COUNTER), the first solvent seat after o->seat holding a jolly; -1 for none. */
static int jolly_asked_reference(const oca_state *st, const oca_op *o, int *stage)
{
    for (*stage = o->stage; *stage < st->n; (*stage)++) {
        int j = after(st, o->seat, *stage);
        if ((o->type == OP_JOLLY || *stage > 0) && !st->bankrupt[j] && jolly_of(st, j) >= 0)
            return j;
    }
    return -1;
}

/* oca_card_step finds the next jolly holder through masks; from the jolly and counter-jolly
 * decisions of seeded games, with the step's place set to each value, it asks the seat (and
 * keeps the place) the rule's scan finds, or pops the step when there is none. */
static int jolly_visit(oca_state *st, const decision *d, const rng *ch, rng *pick, void *ctx)
{
    (void)ch, (void)pick;
    if (d->kind != K_JOLLY && d->kind != K_COUNTER_JOLLY)
        return 0;
    int bad = 0;
    for (int place = 0; place <= st->n; place++) {
        static oca_state copy;
        copy = *st;
        top(&copy)->stage = (int8_t)place;
        int stage, want = jolly_asked_reference(&copy, top(&copy), &stage);
        int nops = copy.nops;
        bool asked = oca_card_step(&copy);
        if (want < 0)
            bad += asked || copy.nops != nops - 1;
        else
            bad += !asked || copy.pend.seat != want || top(&copy)->stage != stage ||
                   copy.nops != nops;
        ((counts *)ctx)->cases++;
    }
    return bad;
}

TEST(oca_engine_jolly_step_asks_the_next_holder)
{
    oca_rules r;
    load_default(&r, NULL, NULL);
    counts c = {0, 0};
    CHECK_INT(walk_games(&r, 300, 31000, 37000, jolly_visit, &c), 0);
    CHECK(c.cases > 1000);
}

/* oca_turn runs one copy of its loop with a trace and another for tr == NULL: seeded games
 * played both ways, the same answers given, keep the same state after every answer. */
TEST(oca_engine_turn_agrees_with_and_without_a_trace)
{
    oca_rules r;
    load_default(&r, NULL, NULL);
    FILE *sink = fopen("/dev/null", "w");
    CHECK(sink != NULL);
    int bad = 0, answers = 0;
    for (int game = 0; game < 200; game++) {
        int n = 2 + game % 5;
        static oca_state plain, traced;
        rng ch_plain, ch_traced, pick;
        rng_seed(&ch_plain, 31000 + (uint64_t)game);
        rng_seed(&pick, 37000 + (uint64_t)game);
        ch_traced = ch_plain;
        game_oca.start(&plain, &r, n, &ch_plain, NULL);
        game_oca.start(&traced, &r, n, &ch_traced, sink);
        decision d, dt;
        for (int steps = 0; steps < 100000; steps++) {
            bool more = game_oca.decide(&plain, &d), more_traced = game_oca.decide(&traced, &dt);
            bad += more != more_traced;
            if (!more || !more_traced)
                break;
            bad += d.seat != dt.seat || d.kind != dt.kind || d.n != dt.n ||
                   memcmp(d.action, dt.action, sizeof d.action[0] * (size_t)d.n) != 0;
            int32_t a = d.action[rng_below(&pick, (uint32_t)d.n)];
            game_oca.apply(&plain, a, &ch_plain, NULL);
            game_oca.apply(&traced, a, &ch_traced, sink);
            bad += memcmp(plain.pos, traced.pos, sizeof plain.pos) != 0 ||
                   memcmp(plain.led.balance, traced.led.balance, sizeof plain.led.balance) != 0 ||
                   plain.turn != traced.turn || plain.mover != traced.mover ||
                   plain.phase != traced.phase || plain.over != traced.over ||
                   plain.nops != traced.nops || plain.roll != traced.roll ||
                   memcmp(&ch_plain, &ch_traced, sizeof ch_plain) != 0;
            answers++;
        }
        bad += plain.over != traced.over || plain.end != traced.end;
    }
    fclose(sink);
    CHECK_INT(bad, 0);
    CHECK(answers > 10000);
}

/* Article 8's loss is what the payer owes the others: a payment "to every player" that he
 * cannot cover is pushed as one step whose payees are the solvent others, never himself, so
 * the loss traced and the amount a short seller must raise are the real ones (oca_op_due:
 * 3 x 5 = 15 for a banker's missed declaration at four players, not 20). */
TEST(oca_engine_art8_a_short_payment_to_each_owes_only_the_others)
{
    oca_rules r;
    load_default(&r, NULL, NULL);
    oca_state *st = &(oca_state){0};
    rng ch;
    rng_seed(&ch, 7);
    game_oca.start(st, &r, 4, &ch, NULL);
    ledger_transfer(&st->led, 2, ACC_FONDO, st->led.balance[2] - 7, "test", -1, NULL);
    int before = st->nops;
    oca_pay_each(st, 2, st->members, 5, R_BANKER_MISS, -1, NULL);
    CHECK_INT(st->nops, before + 1);
    const oca_op *o = &st->op[st->nops - 1];
    CHECK_INT(o->each >> 2 & 1, 0);
    CHECK_INT((int)oca_op_due(o), 15);
    /* a bankrupt seat is no payee either */
    oca_state *h = &(oca_state){0};
    rng_seed(&ch, 7);
    game_oca.start(h, &r, 4, &ch, NULL);
    h->bankrupt[3] = true;
    h->solvent &= ~(1u << 3);
    ledger_transfer(&h->led, 2, ACC_FONDO, h->led.balance[2] - 7, "test", -1, NULL);
    oca_pay_each(h, 2, h->members | 1u << 3, 5, R_SQUARE, 10, NULL);
    CHECK_INT((int)oca_op_due(&h->op[h->nops - 1]), 10);
}
