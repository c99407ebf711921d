/* alphabeta.h — what the generic `alphabeta` bot tells about its last search (benchmarks,
 * tests). The bot itself is bot_alphabeta, declared in registry.h. */
#ifndef GIOCHI_ALPHABETA_H
#define GIOCHI_ALPHABETA_H

#include <stdint.h>

/* Figures of the last decision searched by an alphabeta context. */
typedef struct alphabeta_stats {
    uint64_t nodes; /* positions reached by applying an action (the root not counted) */
    int depth;      /* the deepest iteration that completed (0: the decision was forced) */
    int32_t value;  /* its value for the seat to move, in evaluate()'s units; wins and
                     * losses lie beyond +-GAME_EVAL_MAX */
} alphabeta_stats;

/* Copies the figures of the last choose() of ctx, a context set up by bot_alphabeta. */
void alphabeta_last(const void *ctx, alphabeta_stats *out);

#endif
