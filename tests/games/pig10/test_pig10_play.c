/* test_pig10_play.c — PIG 10 over seeded batches: invariants, hidden information (no bot
 * reads what its seat cannot see), what a player at the table sees, the start-of-game hook. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "games/pig10/pig10.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "config/rules.h"
#include "core/runner.h"
#include "pig10_kit.h"

/* ---- invariants over large batches ---------------------------------------------------------- */

/* Every game of a large seeded batch of random players, 2 to 8 seats: the legal lists are
 * non-empty and well formed (distinct, playable, complete), every card is conserved after every play (hands + draw pile + table + collected
 * = 80, value by value), the game lasts exactly one play per card, the right neighbour of the
 * player to move always played the card before (so "seduto alla sua destra" and "the one who
 * played just before" never differ), and a copied state replays identically. */
TEST(pig10_invariants_random_batch)
{
    static const char *const names[] = {"random"};
    pig10_rules r;
    LOAD(&r, NULL);
    for (int n = 2; n <= 8; n++) {
        seats t;
        pt_sit_bots(&t, &r, n, names, 1, 1);
        for (uint64_t g = 0; g < 5000; g++) {
            pig10_state st;
            outcome o;
            pt_play_game(&st, &r, n, &t, 11, g, true, &o, NULL);
            int64_t sum = 0;
            for (int s = 0; s < n; s++)
                sum += o.score[s];
            CHECK(sum + st.left_on_table == 80);
            CHECK(o.winners != 0);
        }
        pt_stand_bots(&t, n);
    }
}

/* Plays game `index` with random bots, checking before every play that the previous card on
 * a non-empty table came from the right neighbour of the player to move, and that a copy of
 * the state taken half-way replays to the same end. */
static void neighbour_and_replay(const pig10_rules *r, int n, uint64_t index)
{
    rng chance, bots, chance2, bots2;
    rng_seed_stream(&chance, 5, index, RNG_STREAM_CHANCE);
    rng_seed_stream(&bots, 5, index, RNG_STREAM_SEAT(0));
    pig10_state st, copy;
    game_pig10.start(&st, r, n, &chance, NULL);
    decision d;
    int plays = 0;
    bool copied = false;
    while (game_pig10.decide(&st, &d)) {
        if (st.table_n > 0 && st.top_seat != (d.seat + n - 1) % n)
            check_fail(__FILE__, __LINE__, "game %llu: seat %d follows seat %d",
                       (unsigned long long)index, d.seat, st.top_seat);
        if (plays++ == 40) {
            memcpy(&copy, &st, sizeof st);
            chance2 = chance;
            bots2 = bots;
            copied = true;
        }
        game_pig10.apply(&st, d.action[rng_below(&bots, (uint32_t)d.n)], &chance, NULL);
    }
    if (!copied)
        return;
    while (game_pig10.decide(&copy, &d))
        game_pig10.apply(&copy, d.action[rng_below(&bots2, (uint32_t)d.n)], &chance2, NULL);
    CHECK(memcmp(&copy, &st, sizeof st) == 0);
}

TEST(pig10_right_neighbour_played_before_and_copies_replay)
{
    pig10_rules r;
    LOAD(&r, NULL);
    for (int n = 2; n <= 8; n++)
        for (uint64_t g = 0; g < 300; g++)
            neighbour_and_replay(&r, n, g);
}

/* "Per 2-8 giocatori": the smallest and the largest table both play to the end with every
 * bot, cards conserved, under other rulesets too (a smaller hand and deck, the options). */
TEST(pig10_two_and_eight_players_every_bot)
{
    static const char *const names[] = {"greedy", "count", "mc", "ismcts", "random"};
    static const char *const overlays[] = {
        NULL,
        "{\"hand_size\": 5, \"first_player\": \"random\", \"table_at_end\": \"last_player\","
        " \"siren_below_zero\": \"forbid\"}",
        "{\"deck\": [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3], \"hand_size\": 2}",
    };
    for (int k = 0; k < 3; k++) {
        pig10_rules r;
        LOAD(&r, overlays[k]);
        for (int n = 2; n <= 8; n += 6) {
            seats t;
            pt_sit_bots(&t, &r, n, names, 5, 2);
            for (uint64_t g = 0; g < 20; g++) {
                pig10_state st;
                outcome o;
                pt_play_game(&st, &r, n, &t, 99, g, true, &o, NULL);
                int64_t sum = st.table_n;
                for (int s = 0; s < n; s++)
                    sum += o.score[s];
                CHECK_INT(sum, r.total); /* the table is empty unless its cards are discarded */
                CHECK_INT(o.length, r.total);
            }
            pt_stand_bots(&t, n);
        }
    }
}

/* The metrics agree with each other over a batch: every table given is a table received,
 * and the cards collected plus those left on the table are the whole deck. */
TEST(pig10_metrics_are_consistent)
{
    static const char *const names[] = {"count", "greedy", "random"};
    pig10_rules r;
    LOAD(&r, NULL);
    seats t;
    pt_sit_bots(&t, &r, 5, names, 3, 1);
    recorder *rec = rec_new(&game_pig10, 5, false);
    int64_t cards = 0;
    for (uint64_t g = 0; g < 500; g++) {
        pig10_state st;
        outcome o;
        pt_play_game(&st, &r, 5, &t, 3, g, false, &o, rec);
        for (int s = 0; s < 5; s++)
            cards += o.score[s];
    }
    __int128 given = 0, received = 0;
    for (int s = 0; s < 5; s++) {
        given += rec_get(rec, 1, s)->sum;
        received += rec_get(rec, 2, s)->sum;
        CHECK_INT(rec_get(rec, 0, s)->n, 500);
    }
    CHECK(given == received && given > 0);
    CHECK(cards + (int64_t)rec_get(rec, 6, -1)->sum == 500 * 80);
    rec_free(rec);
    pt_stand_bots(&t, 5);
}

/* ---- hidden information ---------------------------------------------------------------------- */

/* Builds from st a second state that differs only in what seat `seat` cannot see: the other
 * hands and the draw pile are dealt again from the same unseen cards. */
static void reshuffle_hidden(const pig10_state *st, int seat, uint64_t salt, pig10_state *out)
{
    pig10_view v;
    rng r;
    rng_seed(&r, salt);
    game_pig10.view(st, seat, &v);
    CHECK_INT(pig10_determinize(out, st->rules, &v, &r), 0);
    /* what the view does not carry is copied as it is: it is not hidden, only untracked */
    out->plays = st->plays;
    memcpy(out->count, st->count, sizeof out->count);
}

/* The state a deliberately leaking bot reads: it stands for any route from a bot to the
 * state behind its view (memory beside the view, a generator that replays the shuffle). */
static const pig10_state *leak_target;

/* A cheat: picks its play from the top card of the draw pile and the next player's hand. */
static int leaky_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)ctx;
    (void)seen;
    (void)r;
    const pig10_state *st = leak_target;
    int next = (d->seat + 1) % st->nseats, key = 0;
    if (st->pile_pos < st->pile_n)
        key += st->pile[st->pile_pos];
    for (int c = 0; c < PIG10_VALUES; c++)
        key += c * st->hand[next][c];
    return key % d->n;
}

static const bot_type bot_leaky = {
    .name = "leaky",
    .doc = "test only: reads the draw pile and the next hand",
    .choose = leaky_choose,
};

/* Whether a and b differ in what `seat` cannot see: another hand or the rest of the pile. */
static bool hidden_differ(const pig10_state *a, const pig10_state *b, int seat)
{
    for (int s = 0; s < a->nseats; s++)
        if (s != seat && memcmp(a->hand[s], b->hand[s], sizeof a->hand[s]) != 0)
            return true;
    int left = a->pile_n - a->pile_pos;
    return left != b->pile_n - b->pile_pos ||
           memcmp(a->pile + a->pile_pos, b->pile + b->pile_pos, (size_t)left) != 0;
}

/* Plays `games` games of n seats with bot bt (parameter 0 set to `first`) at every seat, as
 * the runner does: the state and the view in allocations of their own, the seat's stream
 * from the master seed, the begin hook after the deal. At every decision the bot chooses
 * twice with the same stream and context: on the real state, and with the state's hidden
 * parts (the other hands, the pile order) scrambled in place. Returns the decisions where the
 * two choices differ; *compared counts the decisions compared on states that differed. */
static int scrambled_choices_differ(const bot_type *bt, int n, int games, double first,
                                    int *compared)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state *st = malloc(sizeof *st), *real = malloc(sizeof *real);
    pig10_view *view = malloc(sizeof *view);
    _Alignas(16) unsigned char ctx[GAME_MAX_SEATS][CTX_BYTES], saved[CTX_BYTES];
    int differ = 0;
    leak_target = st;
    CHECK(bt->ctx_size <= CTX_BYTES);
    for (int s = 0; s < n; s++) {
        memset(ctx[s], 0, CTX_BYTES);
        pt_setup_bot(bt, ctx[s], &r, s, n, first);
    }
    for (uint64_t g = 0; g < (uint64_t)games; g++) {
        rng chance, seat[GAME_MAX_SEATS];
        rng_seed_stream(&chance, 77, g, RNG_STREAM_CHANCE);
        for (int s = 0; s < n; s++)
            rng_seed_stream(&seat[s], 77, g, RNG_STREAM_SEAT(s));
        game_pig10.start(st, &r, n, &chance, NULL);
        for (int s = 0; s < n; s++)
            if (bt->begin) {
                game_pig10.view(st, s, view);
                bt->begin(ctx[s], view);
            }
        decision d;
        int plays = 0;
        while (game_pig10.decide(st, &d)) {
            int k = 0;
            if (d.n > 1) {
                rng again = seat[d.seat];
                memcpy(saved, ctx[d.seat], CTX_BYTES);
                game_pig10.view(st, d.seat, view);
                k = bt->choose(ctx[d.seat], view, &d, &seat[d.seat]);
                if (plays % 3 == 0) {
                    memcpy(real, st, sizeof *st);
                    reshuffle_hidden(real, d.seat, g * 1000 + (uint64_t)plays, st);
                    *compared += hidden_differ(real, st, d.seat);
                    memcpy(ctx[d.seat], saved, CTX_BYTES);
                    game_pig10.view(st, d.seat, view);
                    differ += bt->choose(ctx[d.seat], view, &d, &again) != k;
                    memcpy(st, real, sizeof *st);
                }
            }
            game_pig10.apply(st, d.action[k], &chance, NULL);
            plays++;
        }
    }
    for (int s = 0; s < n; s++)
        if (bt->teardown)
            bt->teardown(ctx[s]);
    free(st);
    free(real);
    free(view);
    return differ;
}

/* At many decisions: a state whose other hands and pile order differ gives the seat to move
 * byte-identical views (padding included), and the same legal plays. */
TEST(pig10_scrambled_hidden_parts_give_the_same_view)
{
    pig10_rules r;
    LOAD(&r, NULL);
    int differing = 0;
    for (int n = 2; n <= 8; n += 3) {
        for (uint64_t g = 0; g < 12; g++) {
            rng chance, pick;
            rng_seed_stream(&chance, 77, g, RNG_STREAM_CHANCE);
            rng_seed_stream(&pick, 77, g, RNG_STREAM_SEAT(0));
            pig10_state st, other;
            game_pig10.start(&st, &r, n, &chance, NULL);
            decision d, d2;
            int plays = 0;
            while (game_pig10.decide(&st, &d)) {
                if (plays++ % 7 == 0) {
                    reshuffle_hidden(&st, d.seat, g * 1000 + (uint64_t)plays, &other);
                    differing += memcmp(&st, &other, sizeof st) != 0;
                    game_pig10.decide(&other, &d2);
                    CHECK(d2.n == d.n &&
                          memcmp(d.action, d2.action, sizeof(int32_t) * (size_t)d.n) == 0);
                    pig10_view a, b;
                    memset(&a, 0xAA, sizeof a); /* padding must not leak either */
                    memset(&b, 0x55, sizeof b);
                    game_pig10.view(&st, d.seat, &a);
                    game_pig10.view(&other, d.seat, &b);
                    CHECK(memcmp(&a, &b, sizeof a) == 0);
                }
                game_pig10.apply(&st, d.action[rng_below(&pick, (uint32_t)d.n)], &chance, NULL);
            }
        }
    }
    CHECK(differing > 100); /* the test did compare states that differ */
}

/* Every bot the registry offers for pig10, generic ones included, makes the same choices
 * with the hidden parts of the state scrambled: none reads what its seat cannot see. The
 * search bots run at a small effort (first parameter 4: mc's samples, ismcts' iterations). */
TEST(pig10_no_bot_reads_hidden_information)
{
    const bot_type *all[REGISTRY_MAX_BOTS];
    int nb = registry_bots(&game_pig10, all, REGISTRY_MAX_BOTS);
    CHECK(nb >= 5);
    for (int i = 0; i < nb; i++)
        for (int n = 2; n <= 5; n += 3) {
            int compared = 0;
            int differ = scrambled_choices_differ(all[i], n, 4, 4, &compared);
            if (differ != 0)
                check_fail(__FILE__, __LINE__, "bot %s, %d players: %d choices changed",
                           all[i]->name, n, differ);
            CHECK(compared > 20);
        }
}

/* The test above catches a bot that reads the hidden state: the cheat parts ways with itself
 * at many of the decisions compared. */
TEST(pig10_the_scramble_test_catches_a_leaking_bot)
{
    int compared = 0;
    int differ = scrambled_choices_differ(&bot_leaky, 4, 4, 0, &compared);
    CHECK(compared > 20);
    CHECK(differ > compared / 4);
}

/* The view holds the seat's own hand and none of the others': two seats' views of one state
 * differ exactly in the hand and seat fields. */
TEST(pig10_view_shows_only_own_hand)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 3, 0, "123 456 789");
    pig10_view a, b;
    game_pig10.view(&st, 0, &a);
    game_pig10.view(&st, 1, &b);
    CHECK_INT(a.hand[1] + a.hand[2] + a.hand[3], 3);
    CHECK_INT(a.hand[4] + a.hand[5] + a.hand[6] + a.hand[7] + a.hand[8] + a.hand[9], 0);
    CHECK_INT(b.hand[4] + b.hand[5] + b.hand[6], 3);
    CHECK_INT(a.pile_left, 71);
    CHECK_INT(a.hand_n[1], 3);
    memcpy(b.hand, a.hand, sizeof a.hand);
    b.seat = a.seat;
    CHECK(memcmp(&a, &b, sizeof a) == 0);
}


/* ---- what a player at the table sees ------------------------------------------------------- */

/* The view carries the public history of plays, not only counts: the seed's first example
 * ("Mattia ... gioca un 4 e annuncia "4" ... Claudio gioca un 6 e annuncia "15"") as four
 * plays with their seats, cards and announced values; then a set, a siren subtracted and a
 * frog, each recorded with its mode. */
TEST(pig10_view_carries_the_history_of_plays)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 4, 0, "477 377 277 617 8888");
    static const int cards[] = {4, 3, 2, 6}, values[] = {4, 7, 9, 15};
    for (int i = 0; i < 4; i++)
        PLAY(&st, i, cards[i], PIG10_ADD);
    pig10_view v;
    game_pig10.view(&st, 1, &v);
    CHECK_INT(v.nplays, 4);
    for (int i = 0; i < 4; i++) {
        CHECK_INT(v.history[i].seat, i);
        CHECK_INT(v.history[i].card, cards[i]);
        CHECK_INT(v.history[i].mode, PIG10_ADD);
        CHECK_INT(v.history[i].value, values[i]);
    }
    CHECK_INT(v.history[4].seat + v.history[4].card + v.history[4].value, 0); /* unused */

    DEAL(&st, &r, 2, 0, "540 451");
    PLAY(&st, 0, 4, PIG10_ADD);
    PLAY(&st, 1, 4, PIG10_SET);
    PLAY(&st, 0, 5, PIG10_SUB);
    PLAY(&st, 1, 5, PIG10_ADD);
    PLAY(&st, 0, 0, PIG10_ADD);
    game_pig10.view(&st, 1, &v);
    CHECK_INT(v.nplays, 5);
    static const int modes[] = {PIG10_ADD, PIG10_SET, PIG10_SUB, PIG10_ADD, PIG10_RESET};
    static const int after[] = {4, 4, 0, 5, 0};
    for (int i = 0; i < 5; i++) {
        CHECK_INT(v.history[i].seat, i % 2);
        CHECK_INT(v.history[i].mode, modes[i]);
        CHECK_INT(v.history[i].value, after[i]);
    }
}

/* The ruleset's reach table (what one card can do on a table, which count and ismcts look
 * up) agrees with the rules: "Chi gioca un CINQUE può decidere se sommarlo o se sottrarlo",
 * "il valore del mazzo non può mai risultare negativo", "può trasformare il valore del mazzo
 * nel valore della sua carta giocata". */
TEST(pig10_reach_table_follows_the_rules)
{
    pig10_rules r;
    LOAD(&r, NULL);
    CHECK_INT(pig10_reach(&r, 9, 1, 2, 5), PIG10_REACH_SAFE);                    /* 9-5 */
    CHECK_INT(pig10_reach(&r, 5, 3, 2, 5), PIG10_REACH_SAFE | PIG10_REACH_HIT);  /* 5+5 */
    CHECK_INT(pig10_reach(&r, 3, 3, 2, 5), PIG10_REACH_SAFE);                    /* 3-5: 0 */
    CHECK_INT(pig10_reach(&r, 2, 2, 2, 9), 0);                                   /* 11 */
    CHECK_INT(pig10_reach(&r, 8, 8, 2, 8), PIG10_REACH_SAFE);                    /* set 8 */
    CHECK_INT(pig10_reach(&r, 7, 4, 2, 3), PIG10_REACH_SAFE | PIG10_REACH_HIT);  /* 7+3 */
    CHECK_INT(pig10_reach(&r, 9, 9, 2, 0), PIG10_REACH_SAFE);                    /* frog */
    CHECK_INT(pig10_reach(&r, 0, 0, 0, 10), PIG10_REACH_SAFE | PIG10_REACH_HIT); /* empty */
    CHECK_INT(pig10_reach(&r, 0, 0, 0, 9), PIG10_REACH_SAFE);
    /* "forbid" never changes what a card can reach: below 5 the siren can still be added
     * without going over, and from 5 up it may be subtracted under both readings */
    pig10_rules f;
    LOAD(&f, "{\"siren_below_zero\": \"forbid\"}");
    CHECK_INT(pig10_reach(&f, 3, 1, 2, 5), PIG10_REACH_SAFE);
    CHECK(memcmp(f.reach, r.reach, sizeof r.reach) == 0);
}

/* The reach table's byte masks sum card counts as the table says, one value at a time: a
 * count summed over the values that hit (stay safe) on every table, for counts that vary by
 * value and table, up to 242 cards in all (a deck holds at most 255). */
TEST(pig10_reach_byte_masks_sum_counts_like_the_table)
{
    pig10_rules r;
    LOAD(&r, NULL);
    CHECK_INT(pig10_sum_bytes(0xffULL << 56), 255);
    for (int w = 0; w < PIG10_VALUES; w++)
        for (int c = 0; c < PIG10_VALUES; c++) {
            uint8_t count[PIG10_VALUES];
            int hits = 0, safe = 0;
            for (int x = 0; x < PIG10_VALUES; x++) {
                count[x] = (uint8_t)((w * 7 + c * 3 + x * 5 + 1) % 23);
                hits += r.reach[w][c][x] & PIG10_REACH_HIT ? count[x] : 0;
                safe += r.reach[w][c][x] & PIG10_REACH_SAFE ? count[x] : 0;
            }
            uint64_t b[2];
            pig10_count_bytes(count, b);
            const uint64_t *hm = r.hit_bytes[w][c], *sm = r.safe_bytes[w][c];
            CHECK_INT(pig10_sum_bytes(b[0] & hm[0]) + pig10_sum_bytes(b[1] & hm[1]), hits);
            CHECK_INT(pig10_sum_bytes(b[0] & sm[0]) + pig10_sum_bytes(b[1] & sm[1]), safe);
        }
}

/* Count's choice worked out the plain way, card by card from the reach table and with a
 * division per draw: what count did before its per-decision sums and tables. The bot's
 * shortcuts must give the very same index (the same doubles compared in the same order). */
static double ref_none_of(int u, int m, int h)
{
    double p = 1.0;
    for (int i = 0; i < h; i++) {
        if (u - i <= 0)
            return p;
        p *= (double)(u - m - i) / (double)(u - i);
        if (p <= 0.0)
            return 0.0;
    }
    return p;
}

static int ref_count_pick(const pig10_rules *r, const pig10_view *v, const decision *d)
{
    static const int keep_of[PIG10_VALUES] = {[0] = 3, [5] = 3, [10] = 1};
    int best = 0;
    double best_score = 0;
    for (int i = 0; i < d->n; i++) {
        int card = PIG10_CARD(d->action[i]), n = v->table_n + 1;
        int to = pig10_result(v->value, v->table_n, card, PIG10_MODE(d->action[i]));
        double keep = 0.01 * keep_of[card], sc;
        if (to == PIG10_TARGET) {
            sc = n - keep;
        } else if (to > PIG10_TARGET) {
            sc = -n - keep;
        } else {
            int hand_n[GAME_MAX_SEATS];
            memcpy(hand_n, v->hand_n, sizeof hand_n);
            hand_n[v->seat] = 1;
            int next = pig10_next_seat(hand_n, v->nseats, v->seat), u = 0, hits = 0, unsafe = 0;
            double reply = 0.0;
            if (next != v->seat) {
                for (int x = 0; x < PIG10_VALUES; x++) {
                    int cnt = v->deck[x] - v->played[x] - v->hand[x];
                    int can = pig10_reach(r, to, card, n, x);
                    u += cnt;
                    hits += can & PIG10_REACH_HIT ? cnt : 0;
                    unsafe += can & PIG10_REACH_SAFE ? 0 : cnt;
                }
                int h = v->hand_n[next];
                double p_hit = 1.0 - ref_none_of(u, hits, h);
                double p_over = ref_none_of(u, u - unsafe, h);
                int gets = (next + v->nseats - 1) % v->nseats;
                reply = -p_hit * (n + 1) + (gets == v->seat ? p_over * (n + 1) : 0.0);
            }
            sc = reply - keep;
        }
        if (i == 0 || sc > best_score) {
            best = i;
            best_score = sc;
        }
    }
    return best;
}

/* Count and greedy choose the same play from a seat's view (pig10_count_pick,
 * pig10_greedy_pick) as from the state (pig10_playout_pick, for playouts), and count the same
 * with its table of chances (pig10_none_new), without it, and as the plain way
 * (ref_count_pick), at every decision of random games of 2..8 players under both siren floors
 * and with hands of 1 and 8. */
TEST(pig10_count_pick_same_from_view_state_and_plain_way)
{
    static const char *const overlays[] = {NULL, "{\"siren_below_zero\": \"forbid\"}",
                                           "{\"hand_size\": 8}", "{\"hand_size\": 1}"};
    int decisions = 0, differ = 0;
    for (int o = 0; o < 4; o++) {
        pig10_rules r;
        LOAD(&r, overlays[o]);
        pig10_none *none = pig10_none_new(&r);
        for (int n = 2; n <= 8; n++) {
            for (uint64_t g = 0; g < 40; g++) {
                rng chance, pick;
                rng_seed_stream(&chance, 41, g, RNG_STREAM_CHANCE);
                rng_seed_stream(&pick, 41, g, RNG_STREAM_SEAT(0));
                pig10_state st;
                game_pig10.start(&st, &r, n, &chance, NULL);
                decision d;
                while (game_pig10.decide(&st, &d)) {
                    pig10_view v;
                    game_pig10.view(&st, d.seat, &v);
                    int c = pig10_count_pick(&r, none, &v, &d), gr = pig10_greedy_pick(&v, &d);
                    CHECK_INT(c, ref_count_pick(&r, &v, &d));
                    CHECK_INT(pig10_count_pick(&r, NULL, &v, &d), c);
                    CHECK_INT(pig10_playout_pick(&st, none, true, &d), c);
                    CHECK_INT(pig10_playout_pick(&st, NULL, true, &d), c);
                    CHECK_INT(pig10_playout_pick(&st, none, false, &d), gr);
                    decisions++;
                    differ += c != gr;
                    game_pig10.apply(&st, d.action[rng_below(&pick, (uint32_t)d.n)], &chance,
                                     NULL);
                }
            }
        }
        pig10_none_free(none);
    }
    CHECK(decisions > 10000);
    CHECK(differ > 1000); /* count and greedy disagree: the positions tell them apart */
}


/* ---- the start-of-game hook ------------------------------------------------------------------ */

/* A test bot that counts the runner's begin calls and checks what each one shows. */
typedef struct hook_ctx {
    int seat, begins, bad;
    const void *view_seen; /* where the last view was */
} hook_ctx;

static int hook_setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                      const double *param, char *err, size_t errlen)
{
    (void)g;
    (void)rules;
    (void)nseats;
    (void)param;
    (void)err;
    (void)errlen;
    ((hook_ctx *)ctx)->seat = seat;
    return 0;
}

static void hook_begin(void *ctx, const void *seen)
{
    hook_ctx *h = ctx;
    const pig10_view *v = seen;
    h->begins++;
    int cards = 0;
    for (int c = 0; c < PIG10_VALUES; c++)
        cards += v->hand[c];
    h->bad += v->seat != h->seat || v->nplays != 0 || cards != 3 || v->hand_n[h->seat] != 3;
}

static int hook_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)r;
    hook_ctx *h = ctx;
    h->view_seen = seen;
    h->bad += ((const pig10_view *)seen)->seat != d->seat;
    return 0;
}

static const bot_type bot_hook = {
    .name = "hook",
    .doc = "test only: counts begin calls",
    .ctx_size = sizeof(hook_ctx),
    .setup = hook_setup,
    .choose = hook_choose,
    .begin = hook_begin,
};

/* The runner calls every seat's begin hook once per game, after the deal and before the
 * first play, with that seat's own view; and the view a bot gets lies outside the state. */
TEST(pig10_runner_calls_begin_for_every_seat)
{
    pig10_rules r;
    LOAD(&r, NULL);
    run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.game = &game_pig10;
    cfg.rules = &r;
    cfg.nseats = 4;
    cfg.runs = 5;
    cfg.seed = 9;
    cfg.threads = 1;
    for (int s = 0; s < 4; s++)
        cfg.seat[s].bot = &bot_hook;
    void *ctx[GAME_MAX_SEATS] = {0};
    char err[128];
    CHECK_INT(run_bots_setup(&cfg, ctx, err, sizeof err), 0);
    pig10_state *st = malloc(sizeof *st);
    pig10_view *view = malloc(sizeof *view);
    outcome o;
    for (uint64_t g = 0; g < 5; g++)
        run_game(&cfg, ctx, g, st, view, &o, NULL, NULL);
    for (int s = 0; s < 4; s++) {
        const hook_ctx *h = ctx[s];
        CHECK_INT(h->begins, 5);
        CHECK_INT(h->bad, 0);
        CHECK(h->view_seen == view);
    }
    free(st);
    free(view);
    run_bots_free(&cfg, ctx);
}



/* The held-values mask the options walk follows the hand through deal, play and draw, and
 * --check (game_pig10.check) catches a mask that disagrees with the hand. */
TEST(pig10_held_mask_follows_the_hand)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 2, 0, "113 124 96");
    CHECK_INT(st.held[0], 1 << 1 | 1 << 3);
    CHECK_INT(st.held[1], 1 << 1 | 1 << 2 | 1 << 4);
    PLAY(&st, 0, 1, PIG10_ADD); /* one 1 left, draws a 9 */
    CHECK_INT(st.held[0], 1 << 1 | 1 << 3 | 1 << 9);
    PLAY(&st, 1, 4, PIG10_ADD); /* the 4 gone, draws a 6 */
    CHECK_INT(st.held[1], 1 << 1 | 1 << 2 | 1 << 6);
    CHECK(pt_conserved(&st));
    st.held[1] |= 1 << 7; /* a 7 it does not hold */
    char err[256] = "";
    CHECK_INT(game_pig10.check(&st, err, sizeof err), -1);
    CHECK(strstr(err, "seat 2's held values") != NULL);
}
