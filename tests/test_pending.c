/* test_pending.c — game_type.pending, the decision read in place: for every registered game
 * that has the hook, it agrees with decide at every step of random play (the same seat, kind
 * and actions, NULL exactly when the game is over), and only games of perfect information
 * have it (the runner ignores it for the others, whose pointer would lead into the state). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "registry.h"
#include "rules.h"

enum { PENDING_GAMES = 200, PENDING_MAX_STEPS = 200000 };

static void *default_rules(const game_type *g)
{
    char err[256];
    cJSON *json = rules_parse(g->default_rules, g->name, err, sizeof err);
    if (json == NULL)
        return NULL;
    void *rules = calloc(1, g->rules_size ? g->rules_size : 1);
    if (g->rules_load(rules, json, err, sizeof err) != 0) {
        free(rules);
        rules = NULL;
    }
    cJSON_Delete(json);
    return rules;
}

TEST(pending_only_for_perfect_information)
{
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        if (g->pending && g->view_size != 0)
            check_fail(__FILE__, __LINE__, "%s: pending hook with a view", g->name);
    }
}

TEST(pending_agrees_with_decide)
{
    int games_with_hook = 0;
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        if (g->pending == NULL)
            continue;
        games_with_hook++;
        void *rules = default_rules(g);
        CHECK(rules != NULL);
        if (rules == NULL)
            continue;
        void *st = calloc(1, g->state_size);
        decision *d = malloc(sizeof *d);
        int bad = 0;
        for (int nseats = g->min_seats; nseats <= g->max_seats && !bad; nseats++) {
            char err[256];
            if (g->rules_check && g->rules_check(rules, nseats, err, sizeof err) != 0)
                continue;
            for (int game = 0; game < PENDING_GAMES && !bad; game++) {
                rng chance, pick;
                rng_seed_stream(&chance, 77, (uint64_t)(nseats * 1000 + game), 0);
                rng_seed_stream(&pick, 77, (uint64_t)(nseats * 1000 + game), 1);
                g->start(st, rules, nseats, &chance, NULL);
                for (long step = 0; step < PENDING_MAX_STEPS; step++) {
                    bool more = g->decide(st, d);
                    const decision *p = g->pending(st);
                    if (!more || p == NULL) {
                        if (more || p != NULL)
                            bad = 1;
                        break;
                    }
                    if (p->seat != d->seat || p->kind != d->kind || p->n != d->n ||
                        memcmp(p->action, d->action, (size_t)d->n * sizeof d->action[0]) != 0) {
                        bad = 1;
                        break;
                    }
                    g->apply(st, d->action[rng_below(&pick, (uint32_t)d->n)], &chance, NULL);
                }
            }
            if (bad)
                check_fail(__FILE__, __LINE__, "%s, %d seats: pending differs from decide",
                           g->name, nseats);
        }
        free(d);
        free(st);
        free(rules);
    }
    CHECK(games_with_hook >= 1); /* oca has it */
}
