/* catalog.h — everything a user can name, as one JSON tree: the games, their bots with their
 * parameters, ruleset keys (type, range, default, description) and metrics. --list renders
 * it as text or prints it as JSON; --completion=bash|zsh builds its word lists from it. */
#ifndef GIOCHI_CLI_CATALOG_H
#define GIOCHI_CLI_CATALOG_H

#include <cjson/cJSON.h>

#include "core/game.h"

/* One game's entry: {"name", "title", "rules", "players": {min, max, default},
 * "default_bot", "bots": [{name, doc, default, slow, params: [{name, type, min, max,
 * default, doc}]}], "outside_bots", "keys": [{key, type, ...range, default, optional, doc}],
 * "metrics": [{name, kind, scope, doc}], "figures": [{name, seat}]} (the names experiments
 * take: --metric, --until...; a seat's figure is written NAME@K). A new tree; the caller frees it (cJSON_Delete). */
cJSON *catalog_game(const game_type *g);

/* {"tool": "giochi-sim", "version", "games": [...]}: every game (only == NULL) or one.
 * A new tree; the caller frees it. */
cJSON *catalog_all(const game_type *only);

#endif
