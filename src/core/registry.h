/* registry.h — the one list of games, and name lookups for games and bots. */
#ifndef GIOCHI_REGISTRY_H
#define GIOCHI_REGISTRY_H

#include "core/game.h"

enum { REGISTRY_MAX_BOTS = 64 }; /* bots one game can use, its own and generic ones */

/* Every game, in the order --list shows them; NULL-terminated. */
extern const game_type *const registry_games[];

/* The game called name, or NULL. */
const game_type *registry_game(const char *name);

/* Bots that play any game they support (bot_type.supports), beyond each game's own list;
 * NULL-terminated. */
extern const bot_type *const registry_generic_bots[];

/* Writes into out (room for max) every bot game g can use: its own list, then the generic
 * bots that support it. Returns how many. */
int registry_bots(const game_type *g, const bot_type **out, int max);

/* The bot of game g called name (its own or a generic one), or NULL. */
const bot_type *registry_bot(const game_type *g, const char *name);

/* What one game adds to one slot of a metric, as game_limits declares it. */
enum { GAME_COUNT_ONCE, GAME_COUNT_PER_PLAYER, GAME_COUNT_REPEATED };

/* The limits game g declares under rules (loaded by its rules_load; NULL: none) at a table of
 * nseats: g->limits' answer, or no bound at all when g has none or rules is NULL. */
game_limits registry_limits(const game_type *g, const void *rules, int nseats);

/* Which GAME_COUNT_* metric `name` has under l: named in l->repeated, in l->per_player, or
 * neither (at most one observation or trial a game and slot). */
int registry_metric_count(const game_limits *l, const char *name);

/* Whether METRIC_MEAN metric `name` of g may be negative (game_type.signed_metrics); else a
 * mean of it is never below 0. */
bool registry_metric_signed(const game_type *g, const char *name);

/* Writes the names of all games ("45, oca, ...") into buf. */
void registry_game_names(char *buf, size_t n);

/* Writes the names of g's bots into buf. */
void registry_bot_names(const game_type *g, char *buf, size_t n);

/* The generic bots: random (listed by every game's own table), rollout, mcts (open-loop
 * UCT) and alphabeta (for games with game_type.evaluate). */
extern const bot_type bot_random;
extern const bot_type bot_rollout;
extern const bot_type bot_mcts;
extern const bot_type bot_alphabeta;

#endif
