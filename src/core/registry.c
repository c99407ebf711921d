/* registry.c — lists every game giochi-sim knows. Adding a game is one line here. */
#include "core/registry.h"

#include <stdio.h>
#include <string.h>

/* One line per game: keep the order of the brief. */
/* registry: games */
extern const game_type game_45;
extern const game_type game_oca;
extern const game_type game_pig10;
extern const game_type game_wari;
extern const game_type game_cinesi;
extern const game_type game_volpe;

const game_type *const registry_games[] = {
    /* registry: entries */
    &game_45,
    &game_oca,
    &game_pig10,
    &game_wari,
    &game_cinesi,
    &game_volpe,
    NULL,
};

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

bool registry_metric_signed(const game_type *g, const char *name)
{
    for (const char *const *s = g->signed_metrics; s && *s; s++)
        if (strcmp(*s, name) == 0)
            return true;
    return false;
}
