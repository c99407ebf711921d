/* perft.h — move-path counts ("perft") for games without chance or hidden information.
 *
 * The number of legal action sequences of each length from the start position is the board
 * game programmer's check that move generation is right: two independent implementations
 * must agree to the last node. A game whose position ended before depth d contributes
 * nothing at depth d. Paths are of moves at the table: an action that only turns to the next
 * page of a long list of moves (game_type.page_turn) is expanded, not counted. */
#ifndef GIOCHI_PERFT_H
#define GIOCHI_PERFT_H

#include <stdint.h>

#include "core/game.h"

enum { PERFT_MAX_DEPTH = 64 };

/* Counts the move paths of g under rules for nseats players: nodes[d-1] = paths of length
 * d, for d = 1..depth (1 <= depth <= PERFT_MAX_DEPTH). g must be deterministic (see
 * game_type.deterministic). Returns 0, or -1 with a one-line message in err (not a
 * deterministic game, out of memory). */
int perft_count(const game_type *g, const void *rules, int nseats, int depth, uint64_t *nodes,
                char *err, size_t errlen);

/* As perft_count, from the given position st (a state of g) instead of the start. */
int perft_from(const game_type *g, const void *st, int depth, uint64_t *nodes, char *err,
               size_t errlen);

#endif
