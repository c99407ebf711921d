/* test_oca_invariants.c — Gioco dell'Oca over seeded batches with every bot: points
 * conserved, every game ends, every mechanic exercised, extreme rulesets, known odds. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "games/oca/oca.h"
#include "games/oca/oca_bots.h"
#include "check.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "config/rules.h"
#include "oca_kit.h"

/* ---- invariants over seeded batches, with every bot ------------------------------------------ */

typedef struct batch {
    int64_t games, turn_cap, declarations, hits, aid_tries, aid_hits, busts, cashier_debts;
    int64_t auctions, bid_sum, bid_sq, swaps, sales, react_trades, exchanges, cancel_own;
    int64_t counters, takeovers, short_sales;
} batch;

/* Plays `games` games of the given bots (names) under r, checking after every step that the
 * points are conserved, that a cashier with debts has an empty till, and that every decision
 * is well formed and asks a seat still at the table. */
static void play_batch(const oca_rules *r, int n, const char *const *bots, int games,
                       uint64_t master, batch *b)
{
    const bot_type *bt[GAME_MAX_SEATS];
    char ctx[GAME_MAX_SEATS][BOT_CTX];
    ot_set_up_bots(r, n, bots, -1, bt, ctx);
    static oca_state st; /* large: not on the stack */
    decision d;
    for (int i = 0; i < games; i++) {
        rng ch, br[GAME_MAX_SEATS];
        rng_seed_stream(&ch, master, (uint64_t)i, RNG_STREAM_CHANCE);
        for (int s = 0; s < n; s++)
            rng_seed_stream(&br[s], master, (uint64_t)i, RNG_STREAM_SEAT(s));
        game_oca.start(&st, r, n, &ch, NULL);
        int steps = 0;
        while (game_oca.decide(&st, &d)) {
            bool ok = d.n >= 1 && d.n <= GAME_MAX_ACTIONS && d.seat >= 0 && d.seat < n &&
                      !st.bankrupt[d.seat] && d.kind >= 0 && d.kind < K_COUNT;
            for (int x = 0; ok && x < d.n; x++)
                for (int y = 0; y < x; y++)
                    ok &= d.action[x] != d.action[y];
            int k = bt[d.seat]->choose(ctx[d.seat], &st, &d, &br[d.seat]);
            ok &= k >= 0 && k < d.n;
            if (!ok) {
                check_fail(__FILE__, __LINE__, "game %d: bad decision of kind %d", i, d.kind);
                break;
            }
            game_oca.apply(&st, d.action[k], &ch, NULL);
            if (!ledger_balanced(&st.led) || (st.ndebts > 0 && st.led.balance[ACC_CASHIER])) {
                check_fail(__FILE__, __LINE__, "game %d: points not conserved", i);
                break;
            }
            if (++steps > 100000) {
                check_fail(__FILE__, __LINE__, "game %d does not end", i);
                break;
            }
        }
        for (int c = 0; c < r->ncards; c++) { /* the hands mirror the holders */
            int h = st.holder[c];
            bool ok = (h >= 0) == ((st.held >> c) & 1);
            for (int s = 0; s < n; s++)
                ok &= (h == s) == ((st.hand[s] >> c) & 1);
            if (!ok)
                check_fail(__FILE__, __LINE__, "game %d: card %d out of step", i, c);
        }
        b->games++;
        b->turn_cap += st.end == END_TURN_CAP;
        b->aid_tries += st.s.aid_tries;
        b->aid_hits += st.s.aid_hits;
        b->cashier_debts += st.ndebts > 0;
        if (st.s.auction) {
            b->auctions++;
            b->bid_sum += st.s.winning_bid;
            b->bid_sq += (int64_t)st.s.winning_bid * st.s.winning_bid;
        }
        b->swaps += st.s.swaps;
        b->sales += st.s.trades;
        b->react_trades += st.s.react_trades;
        b->counters += st.s.react_counters;
        b->exchanges += st.s.exchanges;
        b->cancel_own += st.s.cancel_own;
        b->takeovers += st.s.takeovers;
        b->short_sales += st.s.short_sales;
        for (int s = 0; s < n; s++) {
            b->declarations += st.s.declarations[s];
            b->hits += st.s.declare_hits[s];
            b->busts += st.bankrupt[s];
        }
        if (st.turn > r->max_turns)
            check_fail(__FILE__, __LINE__, "game %d: %d turns", i, st.turn);
        if (st.banker < -1 || st.banker >= n)
            check_fail(__FILE__, __LINE__, "game %d: banker %d", i, st.banker);
    }
}

/* "Points are conserved" on every step of every game, and every game ends before the cap. */
TEST(oca_invariant_points_conserved_every_game_ends_all_bots)
{
    oca_rules r;
    ot_load(&r, NULL);
    static const char *const mix4[] = {"random", "cautious", "greedy", "aggressive"};
    static const char *const rand4[] = {"random", "random", "random", "random"};
    static const char *const aggr8[] = {"aggressive", "random", "greedy", "aggressive",
                                        "cautious", "aggressive", "random", "greedy"};
    static const char *const two[] = {"aggressive", "random"};
    batch b = {0};
    play_batch(&r, 4, mix4, 8000, 11, &b);
    play_batch(&r, 4, rand4, 4000, 12, &b);
    play_batch(&r, 8, aggr8, 2000, 13, &b);
    play_batch(&r, 2, two, 2000, 14, &b);
    CHECK_INT(b.games, 16000);
    CHECK_INT(b.turn_cap, 0);
    CHECK(b.busts > 0);         /* the batch does reach the bankruptcy rules */
    CHECK(b.aid_tries > 0);
    /* the cap is counted when it is hit, and the points stay conserved */
    ot_load(&r, "max_turns=20", NULL);
    batch c = {0};
    play_batch(&r, 4, mix4, 500, 15, &c);
    CHECK(c.turn_cap > 0);
}

/* A table of four greedy-2026 (the hand-set greedy that was the default until issue 26; the
 * best-response defaults never take over a bank and all bid the cash cap) exercises the whole
 * economy (issue 10): the open
 * auction's winning bids spread (each seat its own error on the bank's worth), players
 * declare (art. 7: greedy gambles when behind), cards are swapped, sold on the seller's turn
 * and after a landing with a counter-offer (art. 12), exchanged two for one (art. 13), played
 * against one's own square (art. 10), and failed banks are taken over (art. 8); the points
 * stay conserved after every step. */
TEST(oca_greedy_2026_table_exercises_every_mechanic)
{
    oca_rules r;
    ot_load(&r, NULL);
    static const char *const greedy4[] = {"greedy-2026", "greedy-2026", "greedy-2026",
                                          "greedy-2026"};
    batch b = {0};
    play_batch(&r, 4, greedy4, 20000, 21, &b);
    CHECK_INT(b.auctions, 20000);
    double mean = (double)b.bid_sum / b.auctions;
    double var = (double)b.bid_sq / b.auctions - mean * mean;
    CHECK(var > 25); /* an sd above one bid step */
    CHECK(b.declarations > 0);
    CHECK(b.swaps > 0);
    CHECK(b.sales > b.react_trades && b.react_trades > 0);
    CHECK(b.counters > 0);
    CHECK(b.exchanges > 0);
    CHECK(b.cancel_own > 0);
    CHECK(b.takeovers > 0);
    CHECK(b.aid_tries > 0);
    CHECK(b.short_sales > 0);
    CHECK(b.busts > 0);
}

/* Gap: players bankrupt in the setup payments (a tiny dote, a huge Capo-gioco fee) are
 * asked nothing, and an auction left with no solvent bidder falls back on the no_volunteer
 * rule. play_batch fails on any decision offered to a bankrupt seat. */
TEST(oca_gap_bankrupt_in_setup_neither_volunteers_nor_bids)
{
    static const char *const rand4[] = {"random", "random", "random", "random"};
    static const char *const mix8[] = {"greedy", "cautious", "cautious", "greedy",
                                       "aggressive", "cautious", "greedy", "aggressive"};
    oca_rules r;
    batch b = {0};
    ot_load(&r, "dote=1", NULL);
    play_batch(&r, 4, rand4, 300, 21, &b);
    ot_load(&r, "capo_fee=10000", NULL);
    play_batch(&r, 8, mix8, 300, 22, &b);
    ot_load(&r, "dote=12", NULL); /* some survive the fee, some volunteer, few can bid */
    play_batch(&r, 4, rand4, 2000, 23, &b);
    CHECK_INT(b.games, 2600);
    CHECK(b.busts > 0);
}

/* The index of the metric called name. */
static int metric(const char *name)
{
    for (int i = 0; game_oca.metrics[i].name; i++)
        if (strcmp(game_oca.metrics[i].name, name) == 0)
            return i;
    check_fail(__FILE__, __LINE__, "no metric %s", name);
    return 0;
}

/* Found by fuzzing: a bankruptcy in the setup payments was reported at turn 1 of a game that
 * ended after 0 turns. It happens before the first turn: bankruptcy_turn 0. */
TEST(oca_bankruptcy_in_the_setup_is_at_turn_0)
{
    oca_rules r;
    ot_load(&r, "capo_fee=10000", "short_sale_offers=0", "mutual_aid_rolls=0", NULL);
    static tgame g;
    ot_begin(&g, &r, 3, 0); /* seats 1 and 2 cannot pay the fee: only the Capo-gioco is left */
    int seat;
    CHECK_INT(ot_pending(&g, &seat), -1);
    CHECK(g.st.bankrupt[1] && g.st.bankrupt[2]);
    CHECK_INT(g.st.turn, 0);
    recorder *rec = rec_new(&game_oca, 3, false);
    outcome o;
    game_oca.finish(&g.st, &o, rec);
    const acc *t = rec_get(rec, metric("bankruptcy_turn"), -1);
    CHECK_INT(t->n, 2);
    CHECK_INT(t->min, 0);
    CHECK_INT(t->max, 0);
    CHECK_INT(rec_get(rec, metric("bankrupt"), 1)->hits, 1);
    CHECK_INT(rec_get(rec, metric("bankrupt"), 0)->hits, 0);
    CHECK_INT(rec_get(rec, metric("bankruptcies"), -1)->sum == 2, 1);
    rec_free(rec);
}

/* Writes into buf a --set of a 37-square board whose squares 2..36 all have effect fx with
 * amount (move: to square 1), pulc Pulcinella and a card of kind card (squares 1..32). */
static const char *uniform_board(char *buf, size_t n, const char *fx, int amount, int pulc,
                                 const char *card)
{
    snprintf(buf, n, "board=[");
    for (int sq = 1; sq <= 37; sq++) {
        bool mid = sq > 1 && sq < 37;
        snprintf(buf + strlen(buf), n - strlen(buf),
                 "%s{\"name\": \"s\", \"effect\": \"%s\", \"amount\": %d, \"to\": %d, "
                 "\"pulcinella\": %d, \"card\": \"%s\"}", sq > 1 ? ", " : "",
                 mid ? fx : "none", mid ? amount : 0, mid && !strcmp(fx, "move") ? 1 : 0,
                 mid ? pulc : 0, sq <= 32 ? card : "none");
    }
    snprintf(buf + strlen(buf), n - strlen(buf), "]");
    return buf;
}

/* The invariants of play_batch (points conserved on every step, no decision to a bankrupt
 * seat, well-formed decisions, cards in step, a sane banker) on rulesets pushed to their
 * limits, as the fuzzing pass played them: every square the same effect at the largest
 * amount, Pulcinella everywhere, all jollies or no cards, the largest fees and prizes with
 * the smallest dote (the bid paid after entry fees that fail), the cashier's debts, the open
 * auction's matched bids (auction_tie "die"), a turn cap of 1. */
TEST(oca_invariant_extreme_rulesets)
{
    static const char *const mix8[] = {"aggressive", "random", "greedy", "cautious",
                                       "aggressive", "greedy", "random", "aggressive"};
    static const char *const fx[] = {"pay_bank", "receive_bank", "collect_all",
                                     "distribute_all", "again", "wait"};
    static char board[8192];
    oca_rules r;
    batch b = {0};
    for (int i = 0; i < 6; i++) {
        uniform_board(board, sizeof board, fx[i], i == 5 ? 100 : 10000, 4, "jolly");
        ot_load(&r, board, "cards_per_player_many=4", NULL);
        play_batch(&r, 8, mix8, 40, 40 + (uint64_t)i, &b);
        uniform_board(board, sizeof board, fx[i], 1, 0, "none");
        ot_load(&r, board, "cards_per_player=0", "cards_per_player_many=0",
                "bankrupt_pays_partial=true", "no_volunteer=\"capo\"", NULL);
        play_batch(&r, 3, mix8, 40, 50 + (uint64_t)i, &b);
    }
    ot_load(&r, "dote=1", "capo_fee=10000", "entry_fee=10000", "banker_refund=10000",
            "declare_prize=10000", "banker_declare_hit=10000", "banker_declare_miss=10000",
         "mutual_aid_amount=10000", "mutual_aid_rolls=10", "fondo_extra=1000000",
         "bid_paid=\"after_fees\"", NULL);
    play_batch(&r, 8, mix8, 100, 60, &b);
    ot_load(&r, "entry_fee=0", "banker_refund=10000", "banker_may_sit_out=false",
            "arrived_in_round=false", "short_sale_offers=20", "trade_prices=[1, 100000]",
            "auction_tie=\"die\"", "bid_paid=\"after_fees\"", NULL);
    play_batch(&r, 5, mix8, 100, 61, &b);
    ot_load(&r, "max_turns=1", "max_chain=1", "finish=\"any\"", "jolly_offer=\"every_move\"",
            NULL);
    play_batch(&r, 4, mix8, 100, 62, &b);
    CHECK_INT(b.games, 12 * 40 + 300);
    CHECK(b.busts > 0);
}

/* Checks of chance through the engine: a declaration hits 1 time in 6, and mutual aid (two
 * rolls at one number) saves 11 times in 36, within 5 standard errors. */
TEST(oca_known_values_declaration_and_mutual_aid_odds)
{
    oca_rules r;
    ot_load(&r, NULL);
    static const char *const aggr4[] = {"aggressive", "aggressive", "aggressive", "random"};
    batch b = {0};
    play_batch(&r, 4, aggr4, 6000, 21, &b);
    CHECK(b.declarations > 2000);
    double p = 1.0 / 6, n = (double)b.declarations;
    CHECK_NEAR(b.hits / n, p, 5 * sqrt(p * (1 - p) / n));
    CHECK(b.aid_tries > 300);
    double q = 11.0 / 36, m = (double)b.aid_tries;
    CHECK_NEAR(b.aid_hits / m, q, 5 * sqrt(q * (1 - q) / m));
}
