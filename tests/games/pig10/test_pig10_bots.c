/* test_pig10_bots.c — the PIG 10 bots against each other at fixed seeds, and ismcts's
 * exact two-player endgames. */
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

/* ---- strength at fixed seeds ------------------------------------------------------------------ */

/* Win share of bot a against bot b over `games` two-player games, a taking seat 0 in even
 * games and seat 1 in odd ones (so the seat's own effect cancels); ties count half. */
static double head_to_head(const char *a, const char *b, int games, double samples)
{
    pig10_rules r;
    LOAD(&r, NULL);
    const char *const ab[] = {a, b}, *const ba[] = {b, a};
    seats t[2];
    pt_sit_bots(&t[0], &r, 2, ab, 2, samples);
    pt_sit_bots(&t[1], &r, 2, ba, 2, samples);
    double won = 0;
    for (int g = 0; g < games; g++) {
        pig10_state st;
        outcome o;
        int side = g % 2;
        pt_play_game(&st, &r, 2, &t[side], 2024, (uint64_t)g, false, &o, NULL);
        uint32_t mine = 1u << side;
        if (o.winners & mine)
            won += o.winners == mine ? 1.0 : 0.5;
    }
    pt_stand_bots(&t[0], 2);
    pt_stand_bots(&t[1], 2);
    return won / games;
}

/* Five standard errors of a share near 1/2 over n games. */
static double five_se(int n)
{
    return 5 * sqrt(0.25 / n);
}

/* The smart beat the careless: count over greedy, greedy over random, each well beyond five
 * standard errors of an even match (a broken bot would fall to about 1/2 or below). */
TEST(pig10_count_beats_greedy_beats_random)
{
    CHECK(head_to_head("count", "greedy", 2000, 1) > 0.5 + five_se(2000));
    CHECK(head_to_head("greedy", "random", 2000, 1) > 0.5 + five_se(2000));
}

/* The strongest bot beats the card counter, at a fifth of its default effort (200
 * simulations per decision) to keep the test short: in two-player games well beyond five
 * standard errors of an even match (it wins about 70% at this effort). The
 * four-player ladder (man giochi-sim-pig10(7), STRENGTH) shows the same order at the
 * default effort. */
TEST(pig10_ismcts_beats_count)
{
    CHECK(head_to_head("ismcts", "count", 400, 200) > 0.5 + five_se(400));
}

/* The search bot, at a small effort, beats the random one. */
TEST(pig10_mc_beats_random)
{
    CHECK(head_to_head("mc", "random", 100, 4) > 0.5 + five_se(100));
}


/* ---- ismcts ------------------------------------------------------------------------------- */

/* What the end of a finished st is worth to `me`, as ismcts's endgame search counts it: a
 * win far above any margin, then the cards over the best other seat. */
static double end_worth(const pig10_state *st, int me)
{
    outcome o;
    game_pig10.finish(st, &o, NULL);
    int best_other = 0;
    for (int s = 0; s < st->nseats; s++)
        if (s != me && st->collected[s] > best_other)
            best_other = st->collected[s];
    double share = o.winners & (1u << me) ? 1.0 / __builtin_popcount(o.winners) : 0.0;
    return 1000.0 * share + st->collected[me] - best_other;
}

/* Plain minimax over a game whose hands are all known: `me` maximizes end_worth, the other
 * seat minimizes it. */
static double minimax(const pig10_state *st, int me)
{
    decision d;
    if (!game_pig10.decide(st, &d))
        return end_worth(st, me);
    double best = d.seat == me ? -1e9 : 1e9;
    for (int i = 0; i < d.n; i++) {
        pig10_state next = *st;
        game_pig10.apply(&next, d.action[i], NULL, NULL);
        double w = minimax(&next, me);
        best = d.seat == me ? (w > best ? w : best) : (w < best ? w : best);
    }
    return best;
}

/* Once the draw pile is gone in a two-player game, the unseen cards are the other hand:
 * ismcts plays the endgame exactly (its every choice keeps the minimax value), which greedy
 * play does not always do. */
TEST(pig10_ismcts_plays_two_player_endgames_exactly)
{
    pig10_rules r;
    LOAD(&r, NULL);
    const bot_type *ism = registry_bot(&game_pig10, "ismcts");
    _Alignas(16) unsigned char ctx[CTX_BYTES] = {0};
    pt_setup_bot(ism, ctx, &r, 0, 2, 8);
    int checked = 0, greedy_wrong = 0;
    for (uint64_t g = 0; g < 60; g++) {
        rng chance, pick;
        rng_seed_stream(&chance, 31, g, RNG_STREAM_CHANCE);
        rng_seed_stream(&pick, 31, g, RNG_STREAM_SEAT(0));
        pig10_state st;
        game_pig10.start(&st, &r, 2, &chance, NULL);
        decision d;
        while (game_pig10.decide(&st, &d)) {
            int k = (int)rng_below(&pick, (uint32_t)d.n);
            if (st.pile_pos == st.pile_n && d.seat == 0 && d.n > 1) {
                pig10_view v;
                game_pig10.view(&st, 0, &v);
                double value[GAME_MAX_ACTIONS], best = -1e9;
                for (int i = 0; i < d.n; i++) {
                    pig10_state next = st;
                    game_pig10.apply(&next, d.action[i], NULL, NULL);
                    value[i] = minimax(&next, 0);
                    best = value[i] > best ? value[i] : best;
                }
                k = ism->choose(ctx, &v, &d, &pick);
                CHECK(value[k] == best);
                greedy_wrong += value[pig10_greedy_pick(&v, &d)] != best;
                checked++;
            }
            game_pig10.apply(&st, d.action[k], &chance, NULL);
        }
    }
    ism->teardown(ctx);
    CHECK(checked > 60);
    CHECK(greedy_wrong > 0); /* the positions tested are not all trivial */
}
