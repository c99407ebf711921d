/* test_bots.c — the generic bots on real games: rollout plays every perfect-information game
 * and beats random play; it is not offered where players cannot see the whole state, nor
 * where nobody decides. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/registry.h"
#include "config/rules.h"
#include "core/runner.h"

TEST(rollout_is_offered_only_to_perfect_information_games)
{
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        const bot_type *b = registry_bot(g, "rollout");
        /* ... and that have decisions to roll out (the Cinesi has none). */
        CHECK((b == &bot_rollout) == (g->view_size == 0 && g->kind_names[0] != NULL));
    }
}

/* Win share of seat 1 playing `bot1` against `other` in every other seat. */
static double share_vs(const char *game, const char *bot1, const char *other, int nseats,
                       uint64_t runs, double playouts)
{
    const game_type *g = registry_game(game);
    char err[256];
    cJSON *json;
    void *rules = rules_effective(g, NULL, NULL, 0, &json, err, sizeof err);
    run_config c;
    memset(&c, 0, sizeof c);
    c.game = g;
    c.rules = rules;
    c.nseats = nseats;
    for (int k = 0; k < nseats; k++) {
        c.seat[k].bot = registry_bot(g, k == 0 ? bot1 : other);
        for (int p = 0; c.seat[k].bot->params && c.seat[k].bot->params[p].name; p++)
            c.seat[k].param[p] = c.seat[k].bot->params[p].def;
    }
    c.seat[0].param[0] = playouts;
    c.runs = runs;
    c.seed = 2026;
    c.threads = 2;
    run_result r;
    double share = -1;
    if (run_batch(&c, &r, err, sizeof err) == 0) {
        share = (double)r.win_units[0] / RUN_WIN_UNIT / (double)r.games;
        run_result_free(&r);
    } else {
        check_fail(__FILE__, __LINE__, "%s", err);
    }
    free(rules);
    cJSON_Delete(json);
    return share;
}

TEST(rollout_beats_random_at_the_45)
{
    /* 1000 games: a fair seat would win 0.5 with sd 0.016; ask for 5 sd above it. */
    double s = share_vs("45", "rollout", "random", 2, 1000, 8);
    CHECK(s > 0.5 + 5 * 0.0158);
}

TEST(rollout_beats_random_at_the_oca)
{
    /* 4 seats, 200 games: a fair seat wins 0.25 with sd 0.031; ask for 5 sd above it. */
    double s = share_vs("oca", "rollout", "random", 4, 200, 4);
    CHECK(s > 0.25 + 5 * 0.0306);
}
