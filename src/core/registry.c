/* registry.c — lists every game giochi-sim knows. Adding a game is one line here. */
#include "registry.h"

#include <stdio.h>
#include <string.h>

/* One line per game: keep the order of the brief. */
/* registry: games */
extern const game_type game_45;
extern const game_type game_oca;
extern const game_type game_pig10;

const game_type *const registry_games[] = {
    /* registry: entries */
    &game_45,
    &game_oca,
    &game_pig10,
    NULL,
};

const game_type *registry_game(const char *name)
{
    for (int i = 0; registry_games[i]; i++)
        if (strcmp(registry_games[i]->name, name) == 0)
            return registry_games[i];
    return NULL;
}

const bot_type *registry_bot(const game_type *g, const char *name)
{
    for (int i = 0; g->bots[i]; i++)
        if (strcmp(g->bots[i]->name, name) == 0)
            return g->bots[i];
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
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; g->bots[i]; i++)
        join(buf, n, g->bots[i]->name, &used);
}
