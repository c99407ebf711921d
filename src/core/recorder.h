/* recorder.h — exact, order-independent accumulation of per-game observations.
 *
 * Every observation is an integer, so every sum is exact and merging accumulators in any
 * order gives the same result: this is what makes reports byte-identical for any thread
 * count. Floating point happens only afterwards, in stats.c and report.c. */
#ifndef GIOCHI_RECORDER_H
#define GIOCHI_RECORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"

/* One metric at one slot (the game, or one seat). */
typedef struct acc {
    int64_t n;        /* RATE: trials; MEAN: observations */
    int64_t hits;     /* RATE: successes */
    __int128 sum;     /* MEAN: sum of values */
    __int128 sumsq;   /* MEAN: sum of squared values */
    int64_t lo;       /* MEAN histogram: count[i] observations equal to lo + i */
    int64_t len;
    int64_t *count;   /* NULL when empty, or when the span outgrew ACC_MAX_SPAN (see wide) */
    bool wide;        /* histogram dropped: values spread over more than ACC_MAX_SPAN */
    int64_t min, max; /* MEAN: extremes seen (valid when n > 0) */
} acc;

enum { ACC_MAX_SPAN = 1 << 20 };

/* Slot index of a seat (0..7) or of the game (-1). */
#define REC_SLOT(seat) ((seat) + 1)
enum { REC_SLOTS = GAME_MAX_SEATS + 1 };

struct recorder {
    const metric_def *metrics; /* the game's table */
    int nmetrics;
    int nseats;
    acc *a; /* nmetrics * REC_SLOTS accumulators */
    /* Per-game scratch for --games-csv: sum and count of this game's observations per
     * accumulator (hits and trials for rates); only kept when `per_game` is set. */
    bool per_game;
    int64_t *gsum, *gcnt;
};

/* Creates a recorder for the metric table of g and nseats seats. per_game: also keep each
 * game's own figures (rec_game_begin/rec_game_value). Never returns NULL (aborts on OOM). */
recorder *rec_new(const game_type *g, int nseats, bool per_game);
/* Frees rec and everything it owns. */
void rec_free(recorder *rec);
/* Adds every accumulator of src into dst (same game and seat count). */
void rec_merge(recorder *dst, const recorder *src);
/* The accumulator of metric m at seat (-1: game level). */
const acc *rec_get(const recorder *rec, int m, int seat);

/* Clears the per-game scratch before a game (no-op unless per_game). */
void rec_game_begin(recorder *rec);
/* This game's figure for metric m at seat: the hit count of a rate, the single value or the
 * mean of a mean metric; returns false if the game recorded nothing there. */
bool rec_game_value(const recorder *rec, int m, int seat, double *out);

/* Low-level accumulator operations, shared with the runner's built-in figures. */
void acc_add(acc *a, int64_t value, int64_t count);
void acc_merge(acc *dst, const acc *src);
void acc_free(acc *a);

#endif
