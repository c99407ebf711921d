/* test_games.c — invariants every registered game must keep (in the spirit of OpenSpiel's
 * basic tests): its default ruleset is configs/<game>.json and loads; its tables are sound;
 * random play at every seat count lists valid, distinct actions, always ends, gives a
 * well-formed outcome, and a copied state replays identically; a game that keeps its
 * decision in place (the pending hook) gives what decide gives. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "config/rules.h"

enum { GAMES_PER_SEAT_COUNT = 300, MAX_STEPS = 200000 };
enum { PENDING_GAMES = 200, PENDING_MAX_STEPS = 200000 };

/* Loads g's default ruleset into a new rules struct (caller frees), or NULL. */
static void *load_default(const game_type *g)
{
    char err[256];
    cJSON *json = rules_parse(g->default_rules, g->name, err, sizeof err);
    if (json == NULL)
        return NULL;
    void *rules = calloc(1, g->rules_size ? g->rules_size : 1);
    if (g->rules_load(rules, json, err, sizeof err) != 0) {
        check_fail(__FILE__, __LINE__, "%s default ruleset: %s", g->name, err);
        free(rules);
        rules = NULL;
    }
    cJSON_Delete(json);
    return rules;
}

TEST(games_default_ruleset_is_configs_file)
{
    CHECK(registry_games[0] != NULL);
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        char path[256], err[256];
        snprintf(path, sizeof path, "configs/%s.json", g->name);
        char *text = rules_read_file(path, err, sizeof err);
        CHECK(text != NULL);
        if (text == NULL)
            continue;
        if (strcmp(text, g->default_rules) != 0)
            check_fail(__FILE__, __LINE__, "%s: built-in ruleset differs from %s (rebuild?)",
                       g->name, path);
        free(text);
        free(load_default(g));
    }
}

static bool in_table(const char *const *names, int i)
{
    for (int k = 0; names[k]; k++)
        if (k == i)
            return true;
    return false;
}

TEST(games_tables_are_sound)
{
    static const char *const builtin[] = {"length", "ties", "no_winner", "ended",
                                          "seat_fairness", NULL};
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        CHECK(g->min_seats >= 1 && g->max_seats <= GAME_MAX_SEATS);
        CHECK(g->default_seats >= g->min_seats && g->default_seats <= g->max_seats);
        CHECK(registry_bot(g, g->default_bot) != NULL);
        CHECK(registry_bot(g, "random") == &bot_random);
        CHECK(g->end_names[0] != NULL && g->kind_names != NULL); /* no kinds: nobody decides */
        CHECK(g->length_unit && g->score_name && g->title && g->seed);
        for (int m = 0; g->metrics && g->metrics[m].name; m++) {
            for (int b = 0; builtin[b]; b++)
                if (strcmp(builtin[b], g->metrics[m].name) == 0)
                    check_fail(__FILE__, __LINE__, "%s metric %s hides a built-in one",
                               g->name, builtin[b]);
            for (int n = 0; n < m; n++)
                if (strcmp(g->metrics[n].name, g->metrics[m].name) == 0)
                    check_fail(__FILE__, __LINE__, "%s metric %s twice", g->name,
                               g->metrics[m].name);
        }
        for (int b = 0; g->bots[b]; b++)
            for (int p = 0; g->bots[b]->params && g->bots[b]->params[p].name; p++) {
                const bot_param *q = &g->bots[b]->params[p];
                CHECK(q->min <= q->def && q->def <= q->max);
            }
    }
}

/* Plays one game with random choices from `pick`, checking every decision. Returns the
 * number of decisions, or -1 if the game did not end within MAX_STEPS. */
static int play(const game_type *g, void *st, rng *chance, rng *pick, outcome *o, recorder *rec)
{
    decision d;
    int steps = 0;
    while (g->decide(st, &d)) {
        if (++steps > MAX_STEPS)
            return -1;
        if (d.n < 1 || d.n > GAME_MAX_ACTIONS || d.seat < 0 || d.seat >= GAME_MAX_SEATS ||
            !in_table(g->kind_names, d.kind)) {
            check_fail(__FILE__, __LINE__, "%s: bad decision (seat %d, kind %d, n %d)",
                       g->name, d.seat, d.kind, d.n);
            return -1;
        }
        for (int a = 0; a < d.n; a++)
            for (int b = 0; b < a; b++)
                if (d.action[a] == d.action[b]) {
                    check_fail(__FILE__, __LINE__, "%s: action %d listed twice", g->name,
                               (int)d.action[a]);
                    return -1;
                }
        char name[128];
        int k = (int)rng_below(pick, (uint32_t)d.n);
        g->action_name(st, &d, d.action[k], name, sizeof name);
        g->apply(st, d.action[k], chance, NULL);
        /* the game's own invariants (--check), when it has them, after every step */
        char why[256];
        if (g->check && g->check(st, why, sizeof why) != 0) {
            check_fail(__FILE__, __LINE__, "%s: step %d: %s", g->name, steps, why);
            return -1;
        }
    }
    memset(o, 0, sizeof *o);
    if (rec)
        rec_game_begin(rec);
    g->finish(st, o, rec);
    return steps;
}

TEST(games_random_play_is_sound_at_every_seat_count)
{
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        void *rules = load_default(g);
        if (rules == NULL)
            continue;
        void *st = malloc(g->state_size), *copy = malloc(g->state_size);
        for (int n = g->min_seats; n <= g->max_seats; n++) {
            if (g->rules_check && g->rules_check(rules, n, (char[128]){0}, 128) != 0)
                continue;
            recorder *rec = rec_new(g, n, false);
            for (int game = 0; game < GAMES_PER_SEAT_COUNT; game++) {
                rng chance, pick;
                rng_seed_stream(&chance, 99, (uint64_t)game, 0);
                rng_seed_stream(&pick, 99, (uint64_t)game, 1);
                g->start(st, rules, n, &chance, NULL);
                /* Copy the state and both generators now; the copy must replay the game. */
                memcpy(copy, st, g->state_size);
                rng chance2 = chance, pick2 = pick;
                outcome o, o2;
                int steps = play(g, st, &chance, &pick, &o, rec);
                if (steps < 0) {
                    check_fail(__FILE__, __LINE__, "%s: game %d with %d seats never ended",
                               g->name, game, n);
                    break;
                }
                CHECK_INT(play(g, copy, &chance2, &pick2, &o2, NULL), steps);
                CHECK(memcmp(&o, &o2, sizeof o) == 0);
                CHECK(o.winners < (1u << n));
                CHECK(in_table(g->end_names, o.end));
                CHECK(o.length >= 0);
                for (int k = 0; k < n; k++)
                    CHECK(o.rank[k] >= 0 && o.rank[k] <= n);
                for (int k = 0; k < n; k++)
                    if (o.winners & (1u << k))
                        CHECK(o.rank[k] == 1);
                for (int k = 0; k < n && !g->score_signed; k++)
                    CHECK(o.score[k] >= 0); /* no interval of its mean goes below 0 */
            }
            /* a mean metric the game does not list as signed is never negative: the
             * reports keep its interval at or above 0 (stats_interval, STATS_NONNEG) */
            for (int m = 0; g->metrics && g->metrics[m].name; m++) {
                if (g->metrics[m].kind != METRIC_MEAN ||
                    registry_metric_signed(g, g->metrics[m].name))
                    continue;
                int seats = g->metrics[m].scope == METRIC_SEAT ? n : 1;
                for (int k = 0; k < seats; k++) {
                    const acc *a = rec_get(rec, m, g->metrics[m].scope == METRIC_SEAT ? k : -1);
                    if (a->n > 0 && a->min < 0)
                        check_fail(__FILE__, __LINE__, "%s: metric %s is negative (%lld) but "
                                   "not in signed_metrics", g->name, g->metrics[m].name,
                                   (long long)a->min);
                }
            }
            rec_free(rec);
        }
        free(st);
        free(copy);
        free(rules);
    }
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
        void *rules = load_default(g);
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

/* apply_pending gives, at every step, what apply then pending give: two copies of a game
 * played side by side with the same choices, one through each, list the same decisions, draw
 * the same chance and end with the same outcome. */
TEST(apply_pending_agrees_with_apply_then_pending)
{
    int games_with_hook = 0;
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        if (g->apply_pending == NULL)
            continue;
        games_with_hook++;
        CHECK(g->pending != NULL);
        void *rules = load_default(g);
        CHECK(rules != NULL);
        if (rules == NULL || g->pending == NULL) {
            free(rules);
            continue;
        }
        void *st = calloc(1, g->state_size), *twin = calloc(1, g->state_size);
        int bad = 0;
        for (int nseats = g->min_seats; nseats <= g->max_seats && !bad; nseats++) {
            char err[256];
            if (g->rules_check && g->rules_check(rules, nseats, err, sizeof err) != 0)
                continue;
            for (int game = 0; game < PENDING_GAMES && !bad; game++) {
                rng chance, pick;
                rng_seed_stream(&chance, 78, (uint64_t)(nseats * 1000 + game), 0);
                rng_seed_stream(&pick, 78, (uint64_t)(nseats * 1000 + game), 1);
                g->start(st, rules, nseats, &chance, NULL);
                memcpy(twin, st, g->state_size);
                rng chance2 = chance;
                const decision *p = g->pending(st), *q = g->pending(twin);
                for (long step = 0; step < PENDING_MAX_STEPS && p != NULL && !bad; step++) {
                    int32_t a = p->action[rng_below(&pick, (uint32_t)p->n)];
                    g->apply(st, a, &chance, NULL);
                    p = g->pending(st);
                    q = g->apply_pending(twin, a, &chance2, NULL);
                    if ((p == NULL) != (q == NULL) ||
                        memcmp(&chance, &chance2, sizeof chance) != 0)
                        bad = 1;
                    else if (p != NULL &&
                             (q != g->pending(twin) || p->seat != q->seat ||
                              p->kind != q->kind || p->n != q->n ||
                              memcmp(p->action, q->action, (size_t)p->n * sizeof p->action[0])))
                        bad = 1;
                }
                if (p != NULL || q != NULL) {
                    bad = 1;
                    break;
                }
                outcome o, o2;
                memset(&o, 0, sizeof o);
                memset(&o2, 0, sizeof o2);
                g->finish(st, &o, NULL);
                g->finish(twin, &o2, NULL);
                if (memcmp(&o, &o2, sizeof o) != 0)
                    bad = 1;
            }
            if (bad)
                check_fail(__FILE__, __LINE__, "%s, %d seats: apply_pending differs from apply",
                           g->name, nseats);
        }
        free(st);
        free(twin);
        free(rules);
    }
    CHECK(games_with_hook >= 1); /* oca has it */
}
