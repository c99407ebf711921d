/* registry.c — lists every game giochi-sim knows and the generic bots. Adding a game is one
 * line here. */
#include "core/registry.h"

#include <stdio.h>
#include <string.h>

/* Every game, one line each, in the order of the brief: adding a game is one line here (its
 * descriptor game_NAME is defined in src/games/NAME/). */
#define REGISTRY_GAMES(GAME) \
    GAME(45)                 \
    GAME(oca)                \
    GAME(pig10)              \
    GAME(wari)               \
    GAME(cinesi)             \
    GAME(volpe)

#define DECLARE(name) extern const game_type game_##name;
REGISTRY_GAMES(DECLARE)
#undef DECLARE

#define ENTRY(name) &game_##name,
const game_type *const registry_games[] = {REGISTRY_GAMES(ENTRY) NULL};
#undef ENTRY

const game_type *registry_game(const char *name)
{
    for (int i = 0; registry_games[i]; i++)
        if (strcmp(registry_games[i]->name, name) == 0)
            return registry_games[i];
    return NULL;
}

const bot_type *const registry_generic_bots[] = {
    &bot_rollout,
    &bot_mcts,
    &bot_alphabeta,
    NULL,
};

int registry_bots(const game_type *g, const bot_type **out, int max)
{
    int n = 0;
    for (int i = 0; g->bots[i] && n < max; i++)
        out[n++] = g->bots[i];
    for (int i = 0; registry_generic_bots[i] && n < max; i++)
        if (registry_generic_bots[i]->supports == NULL || registry_generic_bots[i]->supports(g))
            out[n++] = registry_generic_bots[i];
    return n;
}

const bot_type *registry_bot(const game_type *g, const char *name)
{
    const bot_type *all[REGISTRY_MAX_BOTS];
    int n = registry_bots(g, all, REGISTRY_MAX_BOTS);
    for (int i = 0; i < n; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

/* Joins names with ", " into buf, truncating safely. */
static void join(char *buf, size_t n, const char *name, size_t *used)
{
    int k = snprintf(buf + *used, n - *used, "%s%s", *used ? ", " : "", name);
    if (k > 0 && *used + (size_t)k < n)
        *used += (size_t)k;
}

void registry_game_names(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; registry_games[i]; i++)
        join(buf, n, registry_games[i]->name, &used);
}

void registry_bot_names(const game_type *g, char *buf, size_t n)
{
    const bot_type *all[REGISTRY_MAX_BOTS];
    int count = registry_bots(g, all, REGISTRY_MAX_BOTS);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < count; i++)
        join(buf, n, all[i]->name, &used);
}

game_limits registry_limits(const game_type *g, const void *rules, int nseats)
{
    game_limits l = {0};
    if (g->limits != NULL && rules != NULL)
        g->limits(rules, nseats, &l);
    return l;
}

/* True if name is in the NULL-terminated list (NULL: an empty one). */
static bool named(const char *const *list, const char *name)
{
    for (int i = 0; list && list[i]; i++)
        if (strcmp(list[i], name) == 0)
            return true;
    return false;
}

int registry_metric_count(const game_limits *l, const char *name)
{
    if (named(l->repeated, name))
        return GAME_COUNT_REPEATED;
    return named(l->per_player, name) ? GAME_COUNT_PER_PLAYER : GAME_COUNT_ONCE;
}

bool registry_metric_signed(const game_type *g, const char *name)
{
    for (const char *const *s = g->signed_metrics; s && *s; s++)
        if (strcmp(*s, name) == 0)
            return true;
    return false;
}
