/* test_oca_bots.c — the Gioco dell'Oca bots: the greedy bot's bank model and choices by
 * the articles, and the bots' caches and short cuts against the full computation. */
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
#include "core/runner.h"
#include "config/rules.h"
#include "oca_kit.h"

/* ---- the greedy bot's bank model ---------------------------------------------------------- */

/* A board of 8 squares, the goal reached by any roll that gets there ("finish": "any"), where
 * squares 2..7 each take `amount` for the bank. */
static void paying_board(oca_rules *r, int amount)
{
    char board[1024] = "board=[{\"name\": \"s\", \"effect\": \"none\", \"amount\": 0, \"to\": 0, "
                       "\"pulcinella\": 0, \"card\": \"none\"}";
    for (int i = 2; i <= 7; i++)
        snprintf(board + strlen(board), sizeof board - strlen(board),
                 ", {\"name\": \"p\", \"effect\": \"pay_bank\", \"amount\": %d, \"to\": 0, "
                 "\"pulcinella\": 0, \"card\": \"none\"}", amount);
    snprintf(board + strlen(board), sizeof board - strlen(board),
             ", {\"name\": \"g\", \"effect\": \"none\", \"amount\": 0, \"to\": 0, "
             "\"pulcinella\": 0, \"card\": \"none\"}]");
    ot_load(r, board, "finish=\"any\"", NULL);
}

/* Known value: on the paying board a racer pays 6 on every landing but the last; the number of
 * rolls to total at least 7 with one die has mean (7/6)^6, so togo[1] = 6 ((7/6)^6 - 1). The
 * cut of m = 3 racers (the last one stops paying when the second-to-last arrives) is checked
 * against a direct simulation of three racers, within 5 standard errors. */
TEST(oca_greedy_bank_model_known_values)
{
    oca_rules r;
    paying_board(&r, 6);
    float togo[OCA_MAX_SQUARES + 1], cut[GAME_MAX_SEATS + 1];
    oca_bank_model(&r, togo, cut);
    CHECK_NEAR(togo[1], 6 * (pow(7.0 / 6, 6) - 1), 1e-4);
    CHECK_NEAR(togo[7], 0, 1e-6);
    rng g;
    rng_seed(&g, 5);
    enum { TRIALS = 200000 };
    double sum = 0, sum2 = 0;
    for (int i = 0; i < TRIALS; i++) {
        int paid[3] = {0}, len[3];
        for (int k = 0; k < 3; k++) {
            int at = 1, t = 0;
            while (at < 8) {
                at += rng_die(&g, 6);
                t++;
                paid[k] += at < 8 ? 6 : 0;
            }
            len[k] = t;
        }
        int last = len[0] >= len[1] && len[0] >= len[2] ? 0 : len[1] >= len[2] ? 1 : 2;
        int end = 0; /* the second-to-last arrival: the largest length of the other two */
        for (int k = 0; k < 3; k++)
            if (k != last && len[k] > end)
                end = len[k];
        /* the last one's landings after the end, but for his arrival, pay nothing */
        int lost = len[last] > end ? len[last] - end - 1 : 0;
        double total = paid[0] + paid[1] + paid[2] - 6.0 * lost;
        sum += total;
        sum2 += total * total;
    }
    double mean = sum / TRIALS, se = sqrt((sum2 / TRIALS - mean * mean) / TRIALS);
    CHECK_NEAR(3 * togo[1] * cut[3], mean, 5 * se);
}

/* Found by fuzzing: on a board whose goal cannot be reached (every square sends the piece back
 * to the start, one makes it wait 100 turns) with max_turns 1000000, the model of the race's
 * end followed the racers for all the million turns, about 12 s per greedy seat before the
 * first game. It stops once no racer can arrive any more, and nobody's payments are cut. */
TEST(oca_greedy_bank_model_stops_when_nobody_can_arrive)
{
    static char board[8192];
    snprintf(board, sizeof board, "board=[");
    for (int sq = 1; sq <= OCA_MAX_SQUARES; sq++) {
        bool back = sq > 1 && sq < OCA_MAX_SQUARES && sq != 7;
        snprintf(board + strlen(board), sizeof board - strlen(board),
                 "%s{\"name\": \"s\", \"effect\": \"%s\", \"amount\": %d, \"to\": %d, "
                 "\"pulcinella\": 0, \"card\": \"none\"}", sq > 1 ? ", " : "",
                 back ? "move" : sq == 7 ? "wait" : "none", sq == 7 ? 100 : 0, back ? 1 : 0);
    }
    snprintf(board + strlen(board), sizeof board - strlen(board), "]");
    oca_rules r;
    ot_load(&r, board, "max_turns=1000000", "cards_per_player=0", "cards_per_player_many=0", NULL);
    float togo[OCA_MAX_SQUARES + 1], cut[GAME_MAX_SEATS + 1];
    /* Nobody can pass the waiting square 7 (every roll beyond it leads back to square 1), so
     * the model must stop once every racer is stuck there, long before max_turns (it used to
     * model all 1,000,000 turns). */
    int turns = oca_bank_model(&r, togo, cut);
    CHECK(turns > 0 && turns < 10000);
    for (int m = 2; m <= GAME_MAX_SEATS; m++)
        CHECK_NEAR(cut[m], 1, 1e-9);
}

/* Greedy's bids with bank_ev follow the bank's worth (gap choice of the bot, documented under
 * BANK VALUE; greedy-2026, whose bank_ev is 1):
 * with n players the break-even bid is entry_fee - banker_refund + togo[1] cut[n] (the winner
 * pays it to each of the n - 1 others, a loser receives it), rounded down to a bid step and
 * capped by max_bid; a bank worth nothing gets no volunteer. */
TEST(oca_greedy_bids_the_banks_expected_worth)
{
    oca_rules r;
    ot_load(&r, "auction=\"sealed\"", NULL);
    float togo[OCA_MAX_SQUARES + 1], cut[GAME_MAX_SEATS + 1];
    oca_bank_model(&r, togo, cut);
    const bot_type *gb = registry_bot(&game_oca, "greedy-2026");
    double param[32];
    int np = 0, kmax = -1;
    for (; gb->params[np].name; np++) {
        param[np] = gb->params[np].def;
        if (strcmp(gb->params[np].name, "max_bid") == 0)
            kmax = np;
        if (strcmp(gb->params[np].name, "value_sd") == 0)
            param[np] = 0; /* the model's worth itself, without this game's error */
    }
    char ctx[4096] = {0}, err[64]; /* zeroed, as the runner hands it (bot_type) */
    CHECK(gb->ctx_size <= sizeof ctx && kmax >= 0);
    double worth = 50 - 10 + (double)togo[1] * cut[3];
    int expect = (int)(worth / 5) * 5;
    CHECK(expect > 20 && expect < 65); /* a real bid, below the budget cap of 195 / 2 */
    for (int cap = 0; cap < 2; cap++) {
        param[kmax] = cap ? 20 : gb->params[kmax].def;
        tgame g;
        ot_begin(&g, &r, 3, 0);
        decision d;
        rng br;
        rng_seed(&br, 3);
        for (int s = 1; s <= 2; s++) {
            CHECK_INT(gb->setup(ctx, &game_oca, &r, s, 3, param, err, sizeof err), 0);
            CHECK(game_oca.decide(&g.st, &d) && d.kind == K_VOLUNTEER && d.seat == s);
            CHECK_INT(d.action[gb->choose(ctx, &g.st, &d, &br)], 1);
            game_oca.apply(&g.st, 1, &g.ch, NULL);
        }
        CHECK_INT(gb->setup(ctx, &game_oca, &r, 1, 3, param, err, sizeof err), 0);
        CHECK(game_oca.decide(&g.st, &d) && d.kind == K_BID && d.seat == 1);
        CHECK_INT(d.action[gb->choose(ctx, &g.st, &d, &br)], cap ? 20 : expect);
    }
    ot_load(&r, "entry_fee=0", "banker_refund=60", NULL); /* worth 3 (togo cut - 60) < 0 */
    param[kmax] = gb->params[kmax].def;
    tgame g;
    ot_begin(&g, &r, 3, 0);
    CHECK_INT(gb->setup(ctx, &game_oca, &r, 1, 3, param, err, sizeof err), 0);
    decision d;
    rng br;
    rng_seed(&br, 3);
    CHECK(game_oca.decide(&g.st, &d) && d.kind == K_VOLUNTEER);
    CHECK_INT(d.action[gb->choose(ctx, &g.st, &d, &br)], 0);
}

/* Sets up bot `name` with its default parameters (plus one override "key", value) for
 * `seat` of an n-seat game in ctx, and returns its choice's action for the pending decision,
 * checking the decision's kind and seat. */
static int32_t bot_choice(tgame *g, const char *name, const char *key, double value, int kind,
                          int seat, uint64_t seed)
{
    const bot_type *bt = registry_bot(&game_oca, name);
    static char ctx[4096];
    double param[32];
    char err[64];
    for (int i = 0; bt->params[i].name; i++)
        param[i] = key && strcmp(bt->params[i].name, key) == 0 ? value : bt->params[i].def;
    CHECK_INT(bt->setup(ctx, &game_oca, g->st.r, seat, g->st.n, param, err, sizeof err), 0);
    decision d;
    if (!game_oca.decide(&g->st, &d) || d.kind != kind || d.seat != seat) {
        check_fail(__FILE__, __LINE__, "expected kind %d of seat %d", kind, seat);
        return -99;
    }
    rng br;
    rng_seed(&br, seed);
    return d.action[bt->choose(ctx, &g->st, &d, &br)];
}

/* Art. 3, the open auction: any raise of one bid step or more is a bid, and greedy's knob
 * `raise` chooses it: 1, the smallest raise (its default); 3, three steps above the bid to
 * beat; 1000, straight to its cap (65 = 195 / 3 here, below max_bid). Under auction_tie "die",
 * at its cap it offers the standing sum rather than drop out. */
TEST(oca_greedy_art3_raise_knob_chooses_the_raise)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin(&g, &r, 4, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 1, 0);
    act(&g, K_VOLUNTEER, 3, 1, 0);
    act(&g, K_BID, 1, 10, 0);
    CHECK_INT(bot_choice(&g, "greedy", NULL, 0, K_BID, 2, 1), 15);
    CHECK_INT(bot_choice(&g, "greedy", "raise", 3, K_BID, 2, 1), 25);
    CHECK_INT(bot_choice(&g, "greedy", "raise", 1000, K_BID, 2, 1), 65);
    CHECK_INT(bot_choice(&g, "greedy", "max_bid", 12, K_BID, 2, 1), OCA_DROP);
    ot_load(&r, "auction_tie=\"die\"", NULL);
    ot_begin(&g, &r, 4, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 1, 0);
    act(&g, K_VOLUNTEER, 3, 1, 0);
    act(&g, K_BID, 1, 65, 0);
    CHECK_INT(bot_choice(&g, "greedy", NULL, 0, K_BID, 2, 1), 65);
    CHECK_INT(bot_choice(&g, "greedy", "max_bid", 60, K_BID, 2, 1), OCA_DROP);
}

/* Art. 7 ("il giocatore può ... azzardare un pronostico"): greedy declares when the stake pays
 * (never at 10 for 50) or when it is `gamble` (30) points or more behind the richest other
 * player. */
TEST(oca_greedy_art7_declares_when_behind)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r); /* 155, 145 */
    ot_hooks(&g);
    turn(&g, 0, 26, 1); /* square 27 */
    turn(&g, 1, 1, 3);
    act(&g, K_TRADE, 0, 0, 0);
    CHECK_INT(bot_choice(&g, "greedy", NULL, 0, K_DECLARE, 0, 1), 0); /* ahead: no */
    ot_drain(&g, 0, 110); /* 35 behind */
    CHECK(bot_choice(&g, "greedy", NULL, 0, K_DECLARE, 0, 1) > 0);
    CHECK_INT(bot_choice(&g, "greedy", "gamble", 0, K_DECLARE, 0, 1), 0);
}

/* Art. 10/13, the Clown's postcard of square 1: greedy plays it when the Dragon sends it back
 * to the start from far enough that the setback outweighs keeping the card (greedy-2026: one
 * square of progress worth 3; today's greedy counts progress as nothing, per_square=0). */
TEST(oca_greedy_art10_plays_the_clown_card_against_the_dragon)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g); /* seat 0 holds 11, seat 1 holds 17 */
    ot_set_card(&g, 1, 0);
    turn(&g, 0, 28, 3); /* 28 -> 31, the Dragon: back to 1 */
    CHECK_INT(g.st.pos[0], 1);
    CHECK_INT(bot_choice(&g, "greedy-2026", NULL, 0, K_CANCEL_OWN, 0, 1), 1);
    act(&g, K_CANCEL_OWN, 0, 1, 0);
    CHECK_INT(g.st.pos[0], 28);
}

/* Art. 12, reactive trade: greedy as the lander offers at most what the card is worth to it
 * (greedy-2026: the tax square costs it 10 for one square of progress worth 3: 7), about half
 * of it; as the owner it accepts or asks more, never refusing a buyer who can pay; as the
 * lander it declines an asked price above its valuation. */
TEST(oca_greedy_art12_haggles_by_the_cards_worth)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    ot_set_card(&g, 2, 1); /* square 2's card (pay 10), held by seat 1 */
    turn(&g, 0, 1, 1);
    CHECK_INT(bot_choice(&g, "greedy-2026", NULL, 0, K_REACT_OFFER, 0, 1), 5);
    act(&g, K_REACT_OFFER, 0, 5, 0);
    int32_t ask = bot_choice(&g, "greedy-2026", NULL, 0, K_REACT_ANSWER, 1, 1);
    CHECK(ask == 1 || ask >= 10);
    act(&g, K_REACT_ANSWER, 1, 10, 0);
    CHECK_INT(bot_choice(&g, "greedy-2026", NULL, 0, K_REACT_COUNTER, 0, 1), 0);
    act(&g, K_REACT_COUNTER, 0, 0, 0);
    CHECK_INT(g.st.holder[r.square_card[2]], 1);
    CHECK_INT(ot_pts(&g, 0), 155 - 10); /* no sale: the square is paid */
}

/* Art. 12 and 13 as greedy-2026 plays them (trade=1: it considers a trade every turn): a buy offer
 * starts where it expects the owner to sell (the card's worth to him, at least the reserve of
 * 15: the Dragon's card is dead for an owner past square 31) and, refused, is raised one price
 * level the next time, up to the card's worth to the buyer (the Dragon's setback, capped at
 * buy_max 30); cards whose squares can no longer come into play are dead, and two of them go
 * to the deck for a new one. */
TEST(oca_greedy_art12_art13_raises_offers_and_exchanges_dead_cards)
{
    oca_rules r;
    ot_load(&r, "finish=\"any\"", NULL);
    tgame g;
    ot_begin_cashier2(&g, &r); /* 155, 145 */
    ot_hooks(&g);             /* seat 0 holds 11, seat 1 holds 17 */
    ot_set_card(&g, 31, 1);   /* the Dragon's card, held by seat 1 ... */
    ot_set_card(&g, 17, HOLD_OUT); /* ... and nothing else */
    g.st.pos[1] = 33;
    const bot_type *gb = registry_bot(&game_oca, "greedy-2026");
    static char ctx[4096];
    double param[32];
    char err[64];
    for (int i = 0; gb->params[i].name; i++)
        param[i] = strcmp(gb->params[i].name, "trade") == 0 ? 1 : gb->params[i].def;
    CHECK_INT(gb->setup(ctx, &game_oca, &r, 0, 2, param, err, sizeof err), 0);
    rng br;
    rng_seed(&br, 5);
    int c31 = r.square_card[31];
    for (int round = 0; round < 3; round++) {
        decision d;
        CHECK(game_oca.decide(&g.st, &d) && d.kind == K_TRADE && d.seat == 0);
        int32_t kind = d.action[gb->choose(ctx, &g.st, &d, &br)];
        CHECK(round < 2 ? kind == TR_BUY : kind != TR_BUY); /* never 60 */
        if (round == 2)
            break;
        act(&g, K_TRADE, 0, TR_BUY, 0);
        CHECK(game_oca.decide(&g.st, &d) && d.kind == K_TRADE_OFFER);
        int32_t a = d.action[gb->choose(ctx, &g.st, &d, &br)];
        CHECK_INT(a, OCA_TRADE(TR_BUY, c31, 1, 1 + round)); /* 15, then 30 */
        act(&g, K_TRADE_OFFER, 0, a, 0);
        act(&g, K_SELL_CARD, 1, 0, 1, 3 + round); /* refused; seat 0 to 4, then 8 */
        if (round == 0)
            turn(&g, 1, 0, 1); /* seat 1 to the well: it waits two turns */
    }
    /* dead cards: square 2's (negative) and 5's (positive) behind every racer */
    ot_set_card(&g, 31, HOLD_OUT);
    ot_set_card(&g, 2, 0);
    ot_set_card(&g, 5, 0);
    g.st.pos[0] = 30;
    g.st.pos[1] = 30;
    act(&g, K_TRADE, 0, 0, 1, 3); /* to square 33; seat 1 waits */
    decision d;
    CHECK(game_oca.decide(&g.st, &d) && d.kind == K_TRADE && d.seat == 0);
    CHECK_INT(d.action[gb->choose(ctx, &g.st, &d, &br)], TR_EXCHANGE);
}

/* Greedy with bank_ev and takeover (greedy-2026) takes over a failed bank ("chi si impegnerà a
 * coprire la perdita") only when the payments still to come from the racers, as the model sees
 * them, exceed the loss to cover. */
TEST(oca_greedy_takes_over_a_failed_bank_by_its_worth)
{
    oca_rules r;
    ot_load(&r, NULL);
    float togo[OCA_MAX_SQUARES + 1], cut[GAME_MAX_SEATS + 1];
    oca_bank_model(&r, togo, cut);
    const bot_type *gb = registry_bot(&game_oca, "greedy-2026");
    double param[32];
    for (int i = 0; gb->params[i].name; i++)
        param[i] = gb->params[i].def;
    char ctx[4096] = {0}, err[64]; /* zeroed, as the runner hands it (bot_type) */
    for (int cheap = 0; cheap < 2; cheap++) {
        tgame g;
        ot_fail_the_bank(&g, &r); /* seat 0 (on 13) is owed 20; seats 0 and 2 (on 1) race */
        if (cheap)
            g.st.takeover_loss = 5; /* as if the failed banker had paid all but 5 */
        double worth = ((double)togo[13] + togo[1]) * cut[2] - g.st.takeover_loss;
        CHECK(cheap ? worth > 0 : worth < 0);
        CHECK_INT(gb->setup(ctx, &game_oca, &r, 2, 3, param, err, sizeof err), 0);
        decision d;
        rng br;
        rng_seed(&br, 3);
        CHECK(game_oca.decide(&g.st, &d) && d.kind == K_TAKE_OVER_BANK && d.seat == 2);
        CHECK_INT(d.action[gb->choose(ctx, &g.st, &d, &br)], worth > 0);
    }
}

/* ---- the bots' short cuts and caches ------------------------------------------------------ */

/* Plays `games` games of the bots `names` under r from freshly set-up contexts, the runner's
 * way (a seat chooses only among two or more actions), calling each bot's begin after every
 * deal if with_begin; returns a digest of every choice and of the final points. */
static uint64_t play_digest(const oca_rules *r, int n, const char *const *names, int games,
                            bool with_begin)
{
    const bot_type *bt[GAME_MAX_SEATS];
    static char ctx[GAME_MAX_SEATS][BOT_CTX];
    static oca_state st;
    ot_set_up_bots(r, n, names, -1, bt, ctx);
    uint64_t h = 1469598103934665603ull;
    decision d;
    for (int i = 0; i < games; i++) {
        rng ch, br[GAME_MAX_SEATS];
        rng_seed_stream(&ch, 5, (uint64_t)i, RNG_STREAM_CHANCE);
        for (int s = 0; s < n; s++)
            rng_seed_stream(&br[s], 5, (uint64_t)i, RNG_STREAM_SEAT(s));
        game_oca.start(&st, r, n, &ch, NULL);
        for (int s = 0; s < n && with_begin; s++)
            if (bt[s]->begin)
                bt[s]->begin(ctx[s], &st);
        while (game_oca.decide(&st, &d)) {
            int k = d.n > 1 ? bt[d.seat]->choose(ctx[d.seat], &st, &d, &br[d.seat]) : 0;
            h = (h ^ (uint64_t)(k + 1)) * 1099511628211ull;
            game_oca.apply(&st, d.action[k], &ch, NULL);
        }
        for (int s = 0; s < n; s++)
            h = (h ^ (uint64_t)oca_points(&st, s)) * 1099511628211ull;
    }
    return h;
}

/* The bots' valuation cache (keyed by the facts a card's value depends on, not by the turn)
 * gives, at every decision of seeded games of every oca bot, the values a recomputation
 * gives, within the bounds that spare valuations (at most vmax, at least a dead card's
 * worth); and it is used (values found filled). */
TEST(oca_bots_value_cache_agrees_with_recomputation)
{
    static const char *const mix[] = {"greedy", "aggressive", "cautious", "greedy",
                                      "aggressive", "greedy"};
    for (int variant = 0; variant < 2; variant++) {
        oca_rules r;
        ot_load(&r, variant ? "arrived_in_round=true" : NULL, NULL);
        int n = variant ? 6 : 4;
        const bot_type *bt[GAME_MAX_SEATS];
        static char ctx[GAME_MAX_SEATS][BOT_CTX];
        ot_set_up_bots(&r, n, mix, -1, bt, ctx);
        static oca_state st;
        int64_t hits = 0, bad = 0, looks = 0;
        for (int i = 0; i < 40; i++) {
            rng ch, br[GAME_MAX_SEATS];
            rng_seed_stream(&ch, 99, (uint64_t)i, RNG_STREAM_CHANCE);
            for (int s = 0; s < n; s++)
                rng_seed_stream(&br[s], 99, (uint64_t)i, RNG_STREAM_SEAT(s));
            game_oca.start(&st, &r, n, &ch, NULL);
            decision d;
            while (game_oca.decide(&st, &d)) {
                int k = bt[d.seat]->choose(ctx[d.seat], &st, &d, &br[d.seat]);
                for (int s = 0; s < n; s++, looks++)
                    bad += oca_bot_check_values(ctx[s], &st, &hits);
                game_oca.apply(&st, d.action[k], &ch, NULL);
            }
        }
        CHECK_INT(bad, 0);
        CHECK(looks > 1000 && hits > 0);
    }
}

/* The bots' short cuts (oca_bots.h) give, at every trade window, every list of offers, every
 * offer answered, every reactive offer and every choice about the bank at the start of seeded
 * games of every oca bot, under several rulesets and trading often, the answers of the full
 * computation; and they are taken (each kind compared, not just skipped). */
TEST(oca_bots_short_cuts_agree_with_the_full_computation)
{
    static const char *const mix[] = {"greedy", "aggressive", "cautious", "greedy",
                                      "aggressive", "greedy"};
    static const char *const sets[] = {NULL, "arrived_in_round=true",
                                       "trade_prices=[1, 2, 4, 8, 16, 32, 64, 128]"};
    int64_t bad = 0, windows = 0, offers = 0, answers = 0, bank = 0, reacts = 0;
    for (int variant = 0; variant < 3; variant++) {
        oca_rules r;
        ot_load(&r, sets[variant], NULL);
        int n = variant == 1 ? 6 : 4;
        const bot_type *bt[GAME_MAX_SEATS];
        static char ctx[GAME_MAX_SEATS][BOT_CTX];
        ot_set_up_bots(&r, n, mix, variant != 1 ? 0.8 : -1, bt, ctx); /* 0.8: trade often */
        static oca_state st;
        for (int i = 0; i < 60; i++) {
            rng ch, br[GAME_MAX_SEATS];
            rng_seed_stream(&ch, 77, (uint64_t)i, RNG_STREAM_CHANCE);
            for (int s = 0; s < n; s++)
                rng_seed_stream(&br[s], 77, (uint64_t)i, RNG_STREAM_SEAT(s));
            game_oca.start(&st, &r, n, &ch, NULL);
            decision d;
            while (game_oca.decide(&st, &d)) {
                /* an offer is checked before the bot remembers it, the rest once its game
                 * has begun (at its first choice) */
                bool before = d.kind == K_TRADE_OFFER;
                int same = before ? oca_bot_check_short_cuts(ctx[d.seat], &st, &d) : -1;
                int k = bt[d.seat]->choose(ctx[d.seat], &st, &d, &br[d.seat]);
                if (!before)
                    same = oca_bot_check_short_cuts(ctx[d.seat], &st, &d);
                bad += same == 0;
                windows += same >= 0 && d.kind == K_TRADE;
                offers += same >= 0 && d.kind == K_TRADE_OFFER;
                answers += same >= 0 && (d.kind == K_BUY_CARD || d.kind == K_SELL_CARD);
                bank += same >= 0 && (d.kind == K_VOLUNTEER || d.kind == K_BID);
                reacts += same >= 0 && d.kind == K_REACT_OFFER;
                game_oca.apply(&st, d.action[k], &ch, NULL);
            }
        }
    }
    CHECK_INT(bad, 0);
    CHECK(windows > 1000 && offers > 1000 && answers > 1000 && bank > 100 && reacts > 100);
}

/* The runner announces every game to the bots by begin (game.h), which starts the game's own
 * memory and valuation error at the seat's first choice; a caller without begin (a test, a
 * search's playouts) gets the same games by the bots' own detection of a new deal. */
TEST(oca_bots_begin_and_their_own_new_game_detection_agree)
{
    oca_rules r;
    ot_load(&r, NULL);
    static const char *const mix[] = {"greedy", "aggressive", "cautious", "greedy"};
    CHECK(registry_bot(&game_oca, "greedy")->begin != NULL);
    CHECK(play_digest(&r, 4, mix, 300, true) == play_digest(&r, 4, mix, 300, false));
}

/* The runner sets up the seats of a run through bot_type.peer, a later greedy seat copying the
 * bank model an earlier one made: every context it makes is byte for byte the context the
 * same bot, set up alone on zeroed memory, gets; for greedy seats side by side, apart, and
 * among bots that make no model (cautious) or make one by the knob bank_ev (aggressive). */
TEST(oca_bots_set_up_by_the_runner_are_those_set_up_alone)
{
    static const char *const seatings[][4] = {
        {"greedy", "greedy", "greedy", "greedy"},
        {"greedy", "cautious", "aggressive", "greedy"},
        {"cautious", "aggressive", "greedy", "aggressive"},
    };
    oca_rules r;
    ot_load(&r, "board.20.amount=9", NULL); /* a board of its own: no model carried over */
    for (int v = 0; v < 3; v++) {
        run_config cfg = {.game = &game_oca, .rules = &r, .nseats = 4, .runs = 1, .threads = 1};
        for (int s = 0; s < 4; s++) {
            cfg.seat[s].bot = registry_bot(&game_oca, seatings[v][s]);
            CHECK(cfg.seat[s].bot != NULL && cfg.seat[s].bot->peer != NULL);
            for (int k = 0; cfg.seat[s].bot->params[k].name; k++)
                cfg.seat[s].param[k] = cfg.seat[s].bot->params[k].def;
            if (s == 3 && v == 2) /* aggressive with a model: copies greedy's */
                cfg.seat[s].param[14] = 1;
        }
        CHECK(strcmp(cfg.seat[0].bot->params[14].name, "bank_ev") == 0);
        void *ctx[GAME_MAX_SEATS] = {0};
        char err[128];
        CHECK_INT(run_bots_setup(&cfg, ctx, err, sizeof err), 0);
        for (int s = 0; s < 4; s++) {
            static char alone[BOT_CTX];
            memset(alone, 0, sizeof alone);
            const bot_type *b = cfg.seat[s].bot;
            CHECK(b->ctx_size <= sizeof alone);
            CHECK_INT(b->setup(alone, &game_oca, &r, s, 4, cfg.seat[s].param, err, sizeof err), 0);
            if (memcmp(alone, ctx[s], b->ctx_size) != 0)
                check_fail(__FILE__, __LINE__, "seating %d, seat %d: contexts differ", v, s);
        }
        run_bots_free(&cfg, ctx);
    }
}
