/* registry.h — the one list of games, and name lookups for games and bots. */
#ifndef GIOCHI_REGISTRY_H
#define GIOCHI_REGISTRY_H

#include "game.h"

/* Every game, in the order --list shows them; NULL-terminated. */
extern const game_type *const registry_games[];

/* The game called name, or NULL. */
const game_type *registry_game(const char *name);

/* The bot of game g called name, or NULL. */
const bot_type *registry_bot(const game_type *g, const char *name);

/* Writes the names of all games ("45, oca, ...") into buf. */
void registry_game_names(char *buf, size_t n);

/* Writes the names of g's bots into buf. */
void registry_bot_names(const game_type *g, char *buf, size_t n);

/* Generic bots, usable by every game (listed by each game's bots table). */
extern const bot_type bot_random;

#endif
