/* test_search.c — the generic search bots (alphabeta, mcts) and move-path counts (perft) on
 * the toy games of tests/toy_kit.h: tic-tac-toe, Nim, a Nim where emptying a pile earns
 * another move, and a dice race. Their answers are known in closed form or computed here by
 * an independent exhaustive solver. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bots/alphabeta.h"
#include "check.h"
#include "core/perft.h"
#include "core/registry.h"
#include "config/rules.h"
#include "core/runner.h"
#include "toy_kit.h"


/* The exact chance that the racer to move at (me, other) wins with best play by both, and
 * the value of each of his two actions (an independent solver: every move goes forward, so
 * positions are solved from the goal back). */
static double race_value[RACE_GOAL][RACE_GOAL][2];

static void race_solve(void)
{
    for (int sum = 2 * (RACE_GOAL - 1); sum >= 0; sum--)
        for (int me = 0; me < RACE_GOAL; me++) {
            int other = sum - me;
            if (other < 0 || other >= RACE_GOAL)
                continue;
            double v[2] = {0, 0};
            for (int a = 0; a < 2; a++)
                for (int f = 1; f <= 4; f++) {
                    if (a == 0 && f > 1)
                        break;
                    int to = me + (a == 0 ? 2 : f);
                    double w = a == 0 ? 1.0 : 0.25;
                    double best_other = to >= RACE_GOAL ? 0
                                                        : fmax(race_value[other][to][0],
                                                               race_value[other][to][1]);
                    v[a] += w * (1 - best_other);
                }
            race_value[me][other][0] = v[0];
            race_value[me][other][1] = v[1];
        }
}

/* ---- helpers ------------------------------------------------------------------------- */

/* A bot's default parameters with `key` (if not NULL) set to value; key2 likewise. */
static void params_of(const bot_type *b, double *out, const char *key, double value,
                      const char *key2, double value2)
{
    for (int p = 0; b->params && b->params[p].name; p++) {
        out[p] = b->params[p].def;
        if (key && strcmp(b->params[p].name, key) == 0)
            out[p] = value;
        if (key2 && strcmp(b->params[p].name, key2) == 0)
            out[p] = value2;
    }
}

/* A set-up bot context for seat `seat` of g (2 seats), or NULL with the error in err. */
static void *bot_new(const bot_type *b, const game_type *g, int seat, int nseats,
                     const double *param, char *err, size_t errlen)
{
    void *ctx = calloc(1, b->ctx_size ? b->ctx_size : 1);
    if (b->setup && b->setup(ctx, g, NULL, seat, nseats, param, err, errlen) != 0) {
        free(ctx);
        return NULL;
    }
    return ctx;
}

static void bot_free(const bot_type *b, void *ctx)
{
    if (ctx && b->teardown)
        b->teardown(ctx);
    free(ctx);
}

typedef struct tally {
    int win[2], draw;
} tally;

/* Plays games [0, runs) of g between bot a (seat 0) and bot b (seat 1) through the runner's
 * own game loop, counting wins and draws. */
static tally play(const game_type *g, const bot_type *a, const double *pa, const bot_type *b,
                  const double *pb, int runs, uint64_t seed)
{
    run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.game = g;
    cfg.nseats = 2;
    cfg.seat[0].bot = a;
    cfg.seat[1].bot = b;
    memcpy(cfg.seat[0].param, pa, sizeof cfg.seat[0].param);
    memcpy(cfg.seat[1].param, pb, sizeof cfg.seat[1].param);
    cfg.runs = (uint64_t)runs;
    cfg.seed = seed;
    cfg.threads = 1;
    tally t = {{0, 0}, 0};
    void *ctx[GAME_MAX_SEATS] = {0};
    char err[256];
    if (run_bots_setup(&cfg, ctx, err, sizeof err) != 0) {
        check_fail(__FILE__, __LINE__, "%s", err);
        return t;
    }
    void *st = malloc(g->state_size), *view = malloc(1); /* perfect information: no view */
    for (int i = 0; i < runs; i++) {
        outcome o;
        run_game(&cfg, ctx, (uint64_t)i, st, view, &o, NULL, NULL);
        if (o.winners == 1 || o.winners == 2)
            t.win[o.winners - 1]++;
        else
            t.draw++;
    }
    free(st);
    free(view);
    run_bots_free(&cfg, ctx);
    return t;
}

static double P_RANDOM[BOT_MAX_PARAMS];

/* ---- perft --------------------------------------------------------------------------- */

TEST(perft_counts_tic_tac_toe)
{
    /* Known move-path counts of tic-tac-toe from the empty board (games end on a line). */
    static const uint64_t known[9] = {9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};
    uint64_t nodes[10];
    char err[256];
    CHECK_INT(perft_count(&ttt_game, NULL, 2, 9, nodes, err, sizeof err), 0);
    for (int d = 0; d < 9; d++)
        CHECK_INT(nodes[d], known[d]);
    /* Depth 10: every game is over by then. */
    CHECK_INT(perft_count(&ttt_game, NULL, 2, 10, nodes, err, sizeof err), 0);
    CHECK_INT(nodes[9], 0);
}

TEST(perft_from_sums_to_perft_count)
{
    /* The paths of length d from the start are the paths of length d-1 from each child. */
    uint64_t total[6], part[5], sum[5] = {0};
    char err[256];
    CHECK_INT(perft_count(&nim_game, NULL, 2, 6, total, err, sizeof err), 0);
    nim st, child;
    rng none;
    rng_seed(&none, 0);
    nim_game.start(&st, NULL, 2, &none, NULL);
    decision d;
    CHECK(nim_game.decide(&st, &d));
    CHECK_INT(total[0], d.n);
    CHECK_INT(d.n, 3 + 4 + 5);
    for (int i = 0; i < d.n; i++) {
        child = st;
        nim_game.apply(&child, d.action[i], &none, NULL);
        CHECK_INT(perft_from(&nim_game, &child, 5, part, err, sizeof err), 0);
        for (int k = 0; k < 5; k++)
            sum[k] += part[k];
    }
    for (int k = 0; k < 5; k++)
        CHECK_INT(sum[k], total[k + 1]);
}

TEST(perft_refuses_chance_and_hidden_information)
{
    uint64_t nodes[2];
    char err[256] = "";
    CHECK_INT(perft_count(&race_game, NULL, 2, 2, nodes, err, sizeof err), -1);
    CHECK(strstr(err, "race") != NULL);
    CHECK_INT(perft_count(registry_game("pig10"), NULL, 2, 2, nodes, err, sizeof err), -1);
    CHECK_INT(perft_count(&ttt_game, NULL, 2, PERFT_MAX_DEPTH + 1, nodes, err, sizeof err), -1);
}

/* ---- alphabeta ----------------------------------------------------------------------- */

TEST(alphabeta_never_loses_tic_tac_toe_to_random)
{
    double ab[BOT_MAX_PARAMS] = {0};
    params_of(&bot_alphabeta, ab, "depth", 9, NULL, 0);
    tally first = play(&ttt_game, &bot_alphabeta, ab, &bot_random, P_RANDOM, 400, 7);
    tally second = play(&ttt_game, &bot_random, P_RANDOM, &bot_alphabeta, ab, 400, 8);
    CHECK_INT(first.win[1], 0);
    CHECK_INT(second.win[0], 0);
    /* And it wins most games: random play leaves a win to a perfect player very often. */
    CHECK(first.win[0] > 300);
    CHECK(second.win[1] > 150);
}

TEST(alphabeta_self_play_draws_tic_tac_toe)
{
    double ab[BOT_MAX_PARAMS] = {0};
    params_of(&bot_alphabeta, ab, "depth", 9, NULL, 0);
    tally t = play(&ttt_game, &bot_alphabeta, ab, &bot_alphabeta, ab, 100, 3);
    CHECK_INT(t.draw, 100);
    /* Without a transposition table, the full-depth search draws as well. */
    params_of(&bot_alphabeta, ab, "depth", 9, "tt", 0);
    t = play(&ttt_game, &bot_alphabeta, ab, &bot_alphabeta, ab, 30, 4);
    CHECK_INT(t.draw, 30);
}

/* Checks, for every Nim position with piles up to `max` and a nonzero nim-sum (the player
 * to move wins), that alphabeta's move leaves a zero nim-sum (the known winning moves), and
 * that it reports a proven win; for a zero nim-sum, a proven loss. */
static void nim_check(const game_type *g, int max, int tt)
{
    double ab[BOT_MAX_PARAMS] = {0};
    params_of(&bot_alphabeta, ab, "depth", 3 * max + 1, "tt", tt);
    char err[256];
    void *ctx = bot_new(&bot_alphabeta, g, 0, 2, ab, err, sizeof err);
    CHECK(ctx != NULL);
    if (ctx == NULL)
        return;
    int positions = 0;
    for (int a = 0; a <= max; a++)
        for (int b = 0; b <= max; b++)
            for (int c = 0; c <= max; c++) {
                nim st = {{(int8_t)a, (int8_t)b, (int8_t)c}, (int8_t)((a + b + c) % 2), 0,
                          false};
                decision d;
                if (!nim_game.decide(&st, &d) || d.n < 2)
                    continue;
                rng r;
                rng_seed(&r, (uint64_t)(a * 100 + b * 10 + c));
                int k = bot_alphabeta.choose(ctx, &st, &d, &r);
                CHECK(k >= 0 && k < d.n);
                alphabeta_stats s;
                alphabeta_last(ctx, &s);
                nim after = st;
                nim_game.apply(&after, d.action[k], NULL, NULL);
                int before_sum = a ^ b ^ c;
                int after_sum = after.pile[0] ^ after.pile[1] ^ after.pile[2];
                if (before_sum != 0) {
                    if (after_sum != 0)
                        check_fail(__FILE__, __LINE__, "%s (%d,%d,%d): took %d from pile %d",
                                   g->name, a, b, c, d.action[k] % 16, d.action[k] / 16);
                    CHECK(s.value > GAME_EVAL_MAX);
                } else {
                    CHECK(s.value < -GAME_EVAL_MAX);
                }
                positions++;
            }
    CHECK(positions > (max + 1) * (max + 1) * (max + 1) / 2);
    bot_free(&bot_alphabeta, ctx);
}

TEST(alphabeta_finds_the_winning_nim_moves)
{
    nim_check(&nim_game, 5, 16);
    nim_check(&nim_game, 3, 0);         /* no table */
    nim_check(&nim_nohash_game, 3, 16); /* the game offers no hash */
}

/* Exhaustive value of extra-move Nim (taking 3 stones earns another move) for the seat to
 * move: 1 win, 0 loss (memoized by piles; the answer does not depend on which seat moves). */
static int again_memo[8][8][8];

static int again_wins(int a, int b, int c)
{
    if (a + b + c == 0)
        return 0; /* the previous mover took the last stone */
    int *m = &again_memo[a][b][c];
    if (*m)
        return *m - 1;
    int p[3] = {a, b, c}, win = 0;
    for (int i = 0; i < 3 && !win; i++)
        for (int k = 1; k <= p[i] && !win; k++) {
            int q[3] = {p[0], p[1], p[2]};
            q[i] -= k;
            bool over = q[0] + q[1] + q[2] == 0;
            bool again = k == 3 && !over;
            int child = again_wins(q[0], q[1], q[2]);
            win = over ? 1 : again ? child : !child;
        }
    *m = win + 1;
    return win;
}

TEST(alphabeta_handles_a_seat_that_moves_twice)
{
    /* Taking 3 stones earns another move: the seat to move comes from decide(), not from
     * alternation. Alphabeta's value and move must agree with an exhaustive solver. */
    double ab[BOT_MAX_PARAMS] = {0};
    params_of(&bot_alphabeta, ab, "depth", 20, NULL, 0);
    char err[256];
    void *ctx = bot_new(&bot_alphabeta, &nim_game, 1, 2, ab, err, sizeof err);
    CHECK(ctx != NULL);
    int wins = 0, losses = 0;
    for (int a = 0; a <= 5 && ctx; a++)
        for (int b = 0; b <= 5; b++)
            for (int c = 0; c <= 5; c++) {
                nim st = {{(int8_t)a, (int8_t)b, (int8_t)c}, (int8_t)((a + c) % 2), 0, true};
                decision d;
                if (!nim_game.decide(&st, &d) || d.n < 2)
                    continue;
                rng r;
                rng_seed(&r, (uint64_t)(a * 36 + b * 6 + c));
                int k = bot_alphabeta.choose(ctx, &st, &d, &r);
                alphabeta_stats s;
                alphabeta_last(ctx, &s);
                if (again_wins(a, b, c)) {
                    wins++;
                    CHECK(s.value > GAME_EVAL_MAX);
                    nim after = st;
                    nim_game.apply(&after, d.action[k], NULL, NULL);
                    int left = after.pile[0] + after.pile[1] + after.pile[2];
                    int child = again_wins(after.pile[0], after.pile[1], after.pile[2]);
                    bool ok = left == 0 || (after.turn == st.turn ? child : !child);
                    if (!ok)
                        check_fail(__FILE__, __LINE__, "(%d,%d,%d): a losing move", a, b, c);
                } else {
                    losses++;
                    CHECK(s.value < -GAME_EVAL_MAX);
                }
            }
    CHECK(wins > 0 && losses > 0);
    bot_free(&bot_alphabeta, ctx);
}

TEST(alphabeta_respects_its_node_budget)
{
    double ab[BOT_MAX_PARAMS] = {0};
    char err[256];
    ttt st;
    memset(&st, 0, sizeof st);
    decision d;
    ttt_game.decide(&st, &d);
    for (int budget = 10; budget <= 2000; budget *= 3) {
        params_of(&bot_alphabeta, ab, "depth", 9, "nodes", budget);
        void *ctx = bot_new(&bot_alphabeta, &ttt_game, 0, 2, ab, err, sizeof err);
        rng r;
        rng_seed(&r, 1);
        int k = bot_alphabeta.choose(ctx, &st, &d, &r);
        CHECK(k >= 0 && k < 9);
        alphabeta_stats s;
        alphabeta_last(ctx, &s);
        CHECK(s.nodes <= (uint64_t)budget);
        CHECK(s.depth >= 1 && s.depth < 9);
        bot_free(&bot_alphabeta, ctx);
    }
    /* Without a budget the whole depth completes, and it takes more nodes than any above. */
    params_of(&bot_alphabeta, ab, "depth", 9, NULL, 0);
    void *ctx = bot_new(&bot_alphabeta, &ttt_game, 0, 2, ab, err, sizeof err);
    rng r;
    rng_seed(&r, 1);
    bot_alphabeta.choose(ctx, &st, &d, &r);
    alphabeta_stats s;
    alphabeta_last(ctx, &s);
    CHECK_INT(s.depth, 9);
    CHECK_INT(s.value, 0); /* tic-tac-toe is a draw */
    CHECK(s.nodes > 2000);
    bot_free(&bot_alphabeta, ctx);
}

/* Plays every decision of a few random tic-tac-toe games twice: with a context that searched
 * many other positions before and with a fresh one. Choices, node counts and what the seat's
 * stream consumed must be equal: a choice depends on the position and the stream only. */
static void check_history_free(const bot_type *b, const double *param)
{
    char err[256];
    void *used = bot_new(b, &ttt_game, 0, 2, param, err, sizeof err);
    rng pick;
    rng_seed(&pick, 42);
    for (int game = 0; game < 20; game++) {
        ttt st;
        memset(&st, 0, sizeof st);
        decision d;
        while (ttt_game.decide(&st, &d)) {
            void *fresh = bot_new(b, &ttt_game, st.turn, 2, param, err, sizeof err);
            rng r1, r2;
            rng_seed(&r1, (uint64_t)(game * 10 + st.moves));
            r2 = r1;
            int k1 = b->choose(used, &st, &d, &r1);
            int k2 = b->choose(fresh, &st, &d, &r2);
            CHECK_INT(k1, k2);
            CHECK(memcmp(r1.s, r2.s, sizeof r1.s) == 0);
            if (b == &bot_alphabeta) {
                alphabeta_stats s1, s2;
                alphabeta_last(used, &s1);
                alphabeta_last(fresh, &s2);
                CHECK_INT(s1.nodes, s2.nodes);
                CHECK_INT(s1.value, s2.value);
            }
            bot_free(b, fresh);
            ttt_game.apply(&st, d.action[rng_below(&pick, (uint32_t)d.n)], NULL, NULL);
        }
    }
    bot_free(b, used);
}

TEST(search_choices_do_not_depend_on_earlier_searches)
{
    double ab[BOT_MAX_PARAMS] = {0}, mc[BOT_MAX_PARAMS] = {0};
    params_of(&bot_alphabeta, ab, "depth", 5, NULL, 0);
    check_history_free(&bot_alphabeta, ab);
    params_of(&bot_mcts, mc, "playouts", 200, NULL, 0);
    check_history_free(&bot_mcts, mc);
}

TEST(alphabeta_breaks_ties_with_the_seats_stream)
{
    /* From the empty board every move draws: depth 9 sees nine equal moves, and different
     * streams must pick different ones (a fixed rule would always pick the same). */
    double ab[BOT_MAX_PARAMS] = {0};
    params_of(&bot_alphabeta, ab, "depth", 9, NULL, 0);
    char err[256];
    void *ctx = bot_new(&bot_alphabeta, &ttt_game, 0, 2, ab, err, sizeof err);
    ttt st;
    memset(&st, 0, sizeof st);
    decision d;
    ttt_game.decide(&st, &d);
    int seen = 0;
    for (int s = 0; s < 200; s++) {
        rng r;
        rng_seed(&r, (uint64_t)s);
        seen |= 1 << bot_alphabeta.choose(ctx, &st, &d, &r);
    }
    CHECK_INT(__builtin_popcount(seen), 9);
    /* With a winning move on the board, it is the only choice whatever the stream. */
    ttt w = {{1, 1, 0, 2, 2, 0, 0, 0, 0}, 0, 4};
    ttt_game.decide(&w, &d);
    for (int s = 0; s < 10; s++) {
        rng r;
        rng_seed(&r, (uint64_t)s);
        CHECK_INT(d.action[bot_alphabeta.choose(ctx, &w, &d, &r)], 2);
    }
    bot_free(&bot_alphabeta, ctx);
}

TEST(search_bots_refuse_games_they_cannot_play)
{
    double ab[BOT_MAX_PARAMS] = {0}, mc[BOT_MAX_PARAMS] = {0};
    params_of(&bot_alphabeta, ab, NULL, 0, NULL, 0);
    params_of(&bot_mcts, mc, NULL, 0, NULL, 0);
    char err[256] = "";
    const game_type *pig = registry_game("pig10"), *g45 = registry_game("45");
    CHECK(bot_new(&bot_alphabeta, pig, 0, 2, ab, err, sizeof err) == NULL);
    CHECK(strstr(err, "pig10") != NULL);
    CHECK(bot_new(&bot_alphabeta, g45, 0, 2, ab, err, sizeof err) == NULL);
    CHECK(strstr(err, "45") != NULL);
    CHECK(bot_new(&bot_alphabeta, &race_game, 0, 2, ab, err, sizeof err) == NULL);
    CHECK(bot_new(&bot_alphabeta, &ttt_game, 0, 3, ab, err, sizeof err) == NULL);
    CHECK(strstr(err, "two-player") != NULL);
    CHECK(bot_new(&bot_mcts, pig, 0, 2, mc, err, sizeof err) == NULL);
    CHECK(strstr(err, "pig10") != NULL);
    params_of(&bot_mcts, mc, "rollout", 1, NULL, 0);
    CHECK(bot_new(&bot_mcts, &ttt_game, 0, 2, mc, err, sizeof err) == NULL);
    CHECK(strstr(err, "rollout") != NULL);
    params_of(&bot_mcts, mc, NULL, 0, NULL, 0);
    void *ctx = bot_new(&bot_mcts, g45, 0, 3, mc, err, sizeof err);
    CHECK(ctx != NULL);
    bot_free(&bot_mcts, ctx);
    /* The registry offers each to the games it supports only. */
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        CHECK((registry_bot(g, "alphabeta") != NULL) ==
              (g->deterministic && g->view_size == 0 && g->evaluate != NULL));
        CHECK((registry_bot(g, "mcts") != NULL) == (g->view_size == 0 && g->kind_names[0] != NULL));
    }
}

/* ---- mcts ---------------------------------------------------------------------------- */

TEST(mcts_beats_random_at_tic_tac_toe)
{
    double mc[BOT_MAX_PARAMS] = {0};
    params_of(&bot_mcts, mc, "playouts", 400, NULL, 0);
    tally first = play(&ttt_game, &bot_mcts, mc, &bot_random, P_RANDOM, 200, 11);
    tally second = play(&ttt_game, &bot_random, P_RANDOM, &bot_mcts, mc, 200, 12);
    /* Random against random: the first player wins 58.5%, the second 28.8% (exact counts
     * of the 255168 games weighted by their chance). Its average seat wins 43.7%; over 400
     * games that share has sd 0.025: ask for 5 sd above it. */
    double share = (first.win[0] + second.win[1]) / 400.0;
    CHECK(share > 0.437 + 5 * 0.025);
    /* And it loses rarely: it sees every immediate threat within a few hundred playouts. */
    CHECK(first.win[1] + second.win[0] < 20);
}

TEST(mcts_prefers_a_draw_to_a_loss)
{
    /* X on 0 5 6 7, O on 1 3 4, O to move: O8 blocks X's row 6-7-8 and draws, O2 loses. A
     * game nobody wins must be worth more than a loss, or both moves look alike. */
    ttt st = {{1, 2, 0, 2, 2, 1, 1, 1, 0}, 1, 7};
    decision d = {0};
    CHECK(ttt_game.decide(&st, &d));
    CHECK_INT(d.n, 2);
    double mc[BOT_MAX_PARAMS] = {0};
    params_of(&bot_mcts, mc, "playouts", 100, NULL, 0);
    char err[256];
    void *ctx = bot_new(&bot_mcts, &ttt_game, 1, 2, mc, err, sizeof err);
    for (int s = 0; s < 20 && ctx; s++) {
        rng r;
        rng_seed(&r, (uint64_t)s);
        CHECK_INT(d.action[bot_mcts.choose(ctx, &st, &d, &r)], 8);
    }
    bot_free(&bot_mcts, ctx);
}

TEST(mcts_plays_the_dice_race_by_its_odds)
{
    /* Open loop: the tree is keyed by the choices, and every iteration re-rolls the die. At
     * every position where one action is better by 0.08 or more in exact winning chance, the
     * choice of most of 9 independent decisions must be the better action. */
    race_solve();
    double mc[BOT_MAX_PARAMS] = {0};
    params_of(&bot_mcts, mc, "playouts", 2000, NULL, 0);
    char err[256];
    void *ctx = bot_new(&bot_mcts, &race_game, 0, 2, mc, err, sizeof err);
    int positions = 0;
    for (int me = 0; me < RACE_GOAL && ctx; me++)
        for (int other = 0; other < RACE_GOAL; other++) {
            double *v = race_value[me][other];
            if (fabs(v[0] - v[1]) < 0.08)
                continue;
            int better = v[1] > v[0], right = 0;
            race st = {{(int8_t)me, (int8_t)other}, 0, -1};
            decision d;
            race_game.decide(&st, &d);
            for (int s = 0; s < 9; s++) {
                rng r;
                rng_seed(&r, (uint64_t)(1000 * me + 10 * other + s));
                right += bot_mcts.choose(ctx, &st, &d, &r) == better;
            }
            if (right < 5)
                check_fail(__FILE__, __LINE__, "(%d, %d): %d of 9 right (walk %.3f roll %.3f)",
                           me, other, right, v[0], v[1]);
            positions++;
        }
    CHECK(positions >= 10);
    bot_free(&bot_mcts, ctx);
}

TEST(mcts_beats_random_in_the_dice_race)
{
    double mc[BOT_MAX_PARAMS] = {0};
    params_of(&bot_mcts, mc, "playouts", 300, NULL, 0);
    tally first = play(&race_game, &bot_mcts, mc, &bot_random, P_RANDOM, 300, 5);
    tally second = play(&race_game, &bot_random, P_RANDOM, &bot_mcts, mc, 300, 6);
    /* Exact optimal-vs-random chances are not needed: the seat-average of random against
     * random is 0.5; 600 games give sd 0.0204. */
    double share = (first.win[0] + second.win[1]) / 600.0;
    CHECK(share > 0.5 + 5 * 0.0204);
}

TEST(mcts_plays_more_than_two_seats)
{
    /* The 45 with three players: a seat that plays as well as random wins a third. */
    const game_type *g = registry_game("45");
    char err[256];
    cJSON *json;
    void *rules = rules_effective(g, NULL, NULL, 0, &json, err, sizeof err);
    run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.game = g;
    cfg.rules = rules;
    cfg.nseats = 3;
    cfg.seat[0].bot = &bot_mcts;
    params_of(&bot_mcts, cfg.seat[0].param, "playouts", 100, NULL, 0);
    cfg.seat[1].bot = cfg.seat[2].bot = &bot_random;
    cfg.runs = 300;
    cfg.seed = 77;
    cfg.threads = 2;
    run_result res;
    CHECK_INT(run_batch(&cfg, &res, err, sizeof err), 0);
    double share = (double)res.win_units[0] / RUN_WIN_UNIT / (double)res.games;
    /* sd of a 1/3 share over 300 games: 0.0272. */
    CHECK(share > 1.0 / 3 + 5 * 0.0272);
    run_result_free(&res);
    free(rules);
    cJSON_Delete(json);
}

/* A policy bot for the rollout=1 test: counts its calls and plays the first legal action. */
static long policy_calls, policy_setups;

static int policy_setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                        const double *param, char *err, size_t errlen)
{
    (void)ctx, (void)g, (void)rules, (void)seat, (void)nseats, (void)param, (void)err,
        (void)errlen;
    policy_setups++;
    return 0;
}

static int policy_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)ctx, (void)seen, (void)d, (void)r;
    policy_calls++;
    return 0;
}

static const bot_type first_policy = {.name = "first", .doc = "first legal action",
                                      .setup = policy_setup, .choose = policy_choose};

TEST(mcts_rolls_out_with_the_games_policy_when_asked)
{
    game_type g = ttt_game;
    g.policy = &first_policy;
    double mc[BOT_MAX_PARAMS] = {0};
    char err[256];
    ttt st;
    memset(&st, 0, sizeof st);
    decision d;
    ttt_game.decide(&st, &d);
    for (int pol = 0; pol <= 1; pol++) {
        policy_calls = policy_setups = 0;
        params_of(&bot_mcts, mc, "playouts", 50, "rollout", pol);
        void *ctx = bot_new(&bot_mcts, &g, 0, 2, mc, err, sizeof err);
        CHECK(ctx != NULL);
        rng r;
        rng_seed(&r, 9);
        int k = bot_mcts.choose(ctx, &st, &d, &r);
        CHECK(k >= 0 && k < 9);
        CHECK_INT(policy_setups, pol ? 2 : 0); /* one context per seat */
        CHECK(pol ? policy_calls > 50 : policy_calls == 0);
        bot_free(&bot_mcts, ctx);
    }
}

TEST(search_bots_replay_identically)
{
    double ab[BOT_MAX_PARAMS] = {0}, mc[BOT_MAX_PARAMS] = {0};
    params_of(&bot_alphabeta, ab, "depth", 4, NULL, 0);
    params_of(&bot_mcts, mc, "playouts", 100, NULL, 0);
    tally a = play(&ttt_game, &bot_alphabeta, ab, &bot_mcts, mc, 60, 99);
    tally b = play(&ttt_game, &bot_alphabeta, ab, &bot_mcts, mc, 60, 99);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    tally c = play(&race_game, &bot_mcts, mc, &bot_mcts, mc, 60, 99);
    tally e = play(&race_game, &bot_mcts, mc, &bot_mcts, mc, 60, 99);
    CHECK(memcmp(&c, &e, sizeof c) == 0);
}

/* Nodes alphabeta searches for the first move of tic-tac-toe at depth 9. */
static uint64_t first_move_nodes(const game_type *g, int tt)
{
    double ab[BOT_MAX_PARAMS] = {0};
    params_of(&bot_alphabeta, ab, "depth", 9, "tt", tt);
    char err[256];
    void *ctx = bot_new(&bot_alphabeta, g, 0, 2, ab, err, sizeof err);
    ttt st;
    memset(&st, 0, sizeof st);
    decision d;
    ttt_game.decide(&st, &d);
    rng r;
    rng_seed(&r, 1);
    bot_alphabeta.choose(ctx, &st, &d, &r);
    alphabeta_stats s;
    alphabeta_last(ctx, &s);
    bot_free(&bot_alphabeta, ctx);
    CHECK_INT(s.value, 0);
    return s.nodes;
}

TEST(alphabeta_table_and_hints_cut_the_search)
{
    /* The whole tic-tac-toe tree has 549945 positions below the root; the table (which
     * merges transpositions) and the game's hints (centre, then corners) must each save
     * work, whatever else is on. Regression check of the ordering machinery. */
    game_type plain = ttt_game;
    plain.order = NULL;
    uint64_t both = first_move_nodes(&ttt_game, 18), no_tt = first_move_nodes(&ttt_game, 0);
    uint64_t no_hints = first_move_nodes(&plain, 18), neither = first_move_nodes(&plain, 0);
    CHECK(both < no_tt && both < no_hints);
    CHECK(no_tt < neither && no_hints < neither);
    CHECK(neither < 549945 / 4);
}

TEST(alphabeta_wins_at_once_when_it_can)
{
    /* Every legal tic-tac-toe position where the player to move can complete a line: the
     * search must complete one now, although slower wins often exist too (a win found at a
     * smaller ply scores higher), whatever its stream. */
    double ab[BOT_MAX_PARAMS] = {0};
    params_of(&bot_alphabeta, ab, "depth", 9, NULL, 0);
    char err[256];
    void *ctx = bot_new(&bot_alphabeta, &ttt_game, 0, 2, ab, err, sizeof err);
    int positions = 0;
    for (int code = 0; code < 19683 && ctx; code++) {
        ttt st;
        memset(&st, 0, sizeof st);
        int count[3] = {0, 0, 0};
        for (int i = 0, c = code; i < 9; i++, c /= 3) {
            st.cell[i] = (int8_t)(c % 3);
            count[c % 3]++;
        }
        if (count[1] != count[2] && count[1] != count[2] + 1)
            continue;
        st.turn = (int8_t)(count[1] > count[2]);
        st.moves = (int8_t)(count[1] + count[2]);
        decision d;
        if (!ttt_game.decide(&st, &d) || d.n < 2)
            continue;
        bool can_win = false;
        for (int i = 0; i < d.n; i++) {
            ttt after = st;
            ttt_game.apply(&after, d.action[i], NULL, NULL);
            can_win |= ttt_line(&after) != 0;
        }
        if (!can_win)
            continue;
        rng r;
        rng_seed(&r, (uint64_t)code);
        ttt after = st;
        ttt_game.apply(&after, d.action[bot_alphabeta.choose(ctx, &st, &d, &r)], NULL, NULL);
        if (ttt_line(&after) == 0)
            check_fail(__FILE__, __LINE__, "position %d: a slower win was played", code);
        positions++;
    }
    CHECK(positions > 1000);
    bot_free(&bot_alphabeta, ctx);
}
