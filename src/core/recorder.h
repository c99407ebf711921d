/* recorder.h — exact, order-independent accumulation of per-game observations.
 *
 * Every observation is an integer, so every sum is exact and merging accumulators in any
 * order gives the same result: this is what makes reports byte-identical for any thread
 * count. Floating point happens only afterwards, in stats.c and report.c. */
#ifndef GIOCHI_RECORDER_H
#define GIOCHI_RECORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "core/hot.h"

struct acc_spill;

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
    struct acc_spill *spill; /* a worker's accumulator: see acc_spill (NULL: none) */
    /* A deferring accumulator (see acc_defer): observations inside the histogram only add to
     * pend[value - lo] (same window as count), the rest of their figures come at acc_flush. */
    int64_t *pend; /* NULL: none pending, every figure up to date */
    bool defer;
} acc;

/* A histogram is dropped (wide) when the values span more than ACC_MAX_SPAN: a decision that
 * depends on the extremes alone, so on no order of adding or merging. A worker's histogram
 * (one with a spill) keeps a window of at most ACC_WORKER_SPAN cells. */
enum { ACC_MAX_SPAN = 1 << 20, ACC_WORKER_SPAN = 1 << 12 };

/* Where a worker's accumulators send the histogram cells that fall outside their window, so
 * that a worker's memory does not grow with the spread of the values: the owner moves them into
 * the run's total now and then (run_result_unspill) and empties the log. The accumulator's
 * count, sums and extremes still take every value: only the cell goes here. */
typedef struct acc_cell {
    acc *a; /* the worker's accumulator the cell belongs to */
    int64_t value, count;
} acc_cell;
typedef struct acc_spill {
    acc_cell *cell;
    size_t n, cap;
} acc_spill;

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
    /* Figures by type of player (rec_set_types), for a run with populations: the seat
     * metrics pooled by the type that sat at each seat, and the built-in figures of every
     * type (REC_TYPE_*), at ta[m * ntypes + t] (m past the table: a built-in one). seat_type
     * holds the current game's type of each seat, set before finish. ntypes 0: none. */
    int ntypes;
    acc *ta;
    const char *const *type_name; /* not owned: the run's (run_result.type_name) */
    int8_t type_base[GAME_MAX_SEATS]; /* the seat's type, or its population's first */
    bool type_pop[GAME_MAX_SEATS];    /* the seat's bot tells its member (bot_type.member) */
    int8_t seat_type[GAME_MAX_SEATS];
};

/* The built-in figures of a type, after the game's metrics in recorder.ta: final score
 * (a mean), rank (a mean, ranked seats), and wins (a rate in units of 1/RUN_WIN_UNIT: n
 * RUN_WIN_UNIT a game the type played, hits its wins, a win shared by k seats counting 1/k). */
enum { REC_TYPE_SCORE, REC_TYPE_RANK, REC_TYPE_WIN, REC_TYPE_BUILTINS };

/* Creates a recorder for the metric table of g and nseats seats. per_game: also keep each
 * game's own figures (rec_game_begin/rec_game_value). Never returns NULL (aborts on OOM). */
recorder *rec_new(const game_type *g, int nseats, bool per_game);
/* Keeps figures by type in rec: ntypes types (at most RUN_MAX_TYPES) named by names, seat
 * k of type base[k] (+ the member its bot tells, when pop[k]). */
void rec_set_types(recorder *rec, int ntypes, const char *const *names, const int8_t *base,
                   const bool *pop);
/* The accumulator of type t for metric m (nmetrics + REC_TYPE_*: a built-in figure). */
const acc *rec_type_get(const recorder *rec, int m, int t);
/* Frees rec and everything it owns. */
void rec_free(recorder *rec);
/* Adds every accumulator of src into dst (same game and seat count). Returns false if a count
 * or sum of the total does not fit its integer (see acc_merge): dst is then to be discarded. */
bool rec_merge(recorder *dst, const recorder *src);
/* The accumulator of metric m at seat (-1: game level). */
const acc *rec_get(const recorder *rec, int m, int seat);

/* Clears the per-game scratch before a game (no-op unless per_game). */
void rec_game_begin(recorder *rec);
/* This game's figure for metric m at seat: the hit count of a rate, the single value or the
 * mean of a mean metric; returns false if the game recorded nothing there. */
bool rec_game_value(const recorder *rec, int m, int seat, double *out);

/* Sets every accumulator of rec to spill into s (NULL: to keep whole histograms). */
void rec_set_spill(recorder *rec, acc_spill *s);

/* Deferred figures, for a batch worker's accumulators that nothing reads until the worker
 * has finished a run of games: rec_defer (or acc_defer on one accumulator) makes every later
 * observation that falls inside the histogram add to its cell alone, and rec_flush (acc_flush)
 * folds those cells into the count, sums, extremes and histogram, exactly as if each had been
 * added at once: integer sums are the same in any order, and the histogram's window moves at
 * the same observations (a move flushes first, so it sees the same extremes). Every reader of
 * a deferring accumulator's figures (acc_merge, partial results, reports, the experiment
 * engine's per-game differences) must come after a flush; only the batch runner's workers
 * defer, and flush at the end of every chunk of games. */
void rec_defer(recorder *rec);
void rec_flush(recorder *rec);
void acc_defer(acc *a);
void acc_flush(acc *a);

/* Low-level accumulator operations, shared with the runner's built-in figures. */
void acc_add(acc *a, int64_t value, int64_t count);
/* Adds count to the histogram cell of value alone (and to the extremes): for cells a worker
 * spilled, whose count and sums reach a by acc_merge. */
void acc_add_cell(acc *a, int64_t value, int64_t count);
/* Adds a histogram row to a: count[k] observations equal to lo + k for k in [0, n), total
 * being the row's sum of counts (see rec_hist, which is this plus the per-game scratch). */
void acc_hist(acc *a, int64_t lo, const uint32_t *count, int n, int64_t total);

/* acc_hist's common way for a deferring accumulator, inline: when the row lies inside a's
 * window, adds its cells to a's deferred ones and returns true; otherwise returns false and
 * changes nothing. */
static inline bool acc_hist_deferred(acc *a, int64_t lo, const uint32_t *count, int n)
{
    uint64_t off = (uint64_t)lo - (uint64_t)a->lo;
    if (a->pend == NULL || n <= 0 || off >= (uint64_t)a->len ||
        (uint64_t)n > (uint64_t)a->len - off)
        return false;
    int64_t *p = a->pend + off;
    GIOCHI_UNROLL(4)
    for (int k = 0; k < n; k++)
        p[k] += count[k];
    return true;
}
/* Adds src into dst, every addition checked: returns false if a count or sum of the total
 * does not fit (possible only with figures read from outside, see partial.h), leaving dst
 * with wrapped figures that the caller must discard, never with undefined behaviour. */
bool acc_merge(acc *dst, const acc *src);
void acc_free(acc *a);

/* acc_add(a, value, count) for count >= 1, with the common case inline: a histogram already
 * covering value (it exists only once the accumulator holds an observation, so min and max
 * are set). Every figure is updated at once, as acc_add does, unless a defers (acc_defer). */
static inline void acc_add_fast(acc *a, int64_t value, int64_t count)
{
    uint64_t at = (uint64_t)value - (uint64_t)a->lo; /* wraps far past len when below lo */
    if (a->pend != NULL && GIOCHI_LIKELY(at < (uint64_t)a->len)) {
        a->pend[at] += count; /* deferred: the rest at acc_flush */
        return;
    }
    if (GIOCHI_LIKELY(a->count != NULL && at < (uint64_t)a->len)) {
        a->min = value < a->min ? value : a->min;
        a->max = value > a->max ? value : a->max;
        a->n += count;
        a->sum += (__int128)value * count;
        a->sumsq += (__int128)value * value * count;
        a->count[at] += count;
    } else {
        acc_add(a, value, count);
    }
}

/* ---- a game's own figures, inline -------------------------------------------------------
 * rec_value and rec_rate cost a call and a check of the metric against the recorder's table
 * each, and a game's finish records dozens per game. A rec_batch does the same inline: opened
 * on the game's own metric table (checked once against the recorder's), it keeps what every
 * record needs in the caller's registers, and with a constant table and metric index the
 * compiler folds the kind and scope checks away. Every check that cannot be folded is still
 * made, so a wrong record aborts as rec_value's does. A batch lives within one finish call:
 * open it after the recorder's last other use and drop it before the next. */
typedef struct rec_batch {
    recorder *rec;
    acc *a;                    /* rec->a */
    acc *ta;                   /* rec->ta, NULL unless the run keeps figures by type */
    const int8_t *stype;       /* rec->seat_type */
    unsigned ntypes;
    int64_t *gsum, *gcnt;      /* rec's per-game scratch, NULL unless rec->per_game */
    const metric_def *table;   /* the game's table, rec's */
    unsigned nmetrics, nseats; /* rec's */
} rec_batch;

/* Aborts with an internal error: metric m at seat was recorded against the wrong kind, scope,
 * seat or table (m -1: the table). */
_Noreturn void rec_bad_record(int m, int seat);

/* Opens a batch of records into rec, whose metric table must be `table` (aborts otherwise).
 * NULL stands for rec's own table, for a finish that cannot see its game's table: the kind and
 * scope checks are then made from memory, still inline. */
static inline rec_batch rec_batch_open(recorder *rec, const metric_def *table)
{
    if (table == NULL)
        table = rec->metrics;
    if (GIOCHI_UNLIKELY(rec->metrics != table))
        rec_bad_record(-1, -1);
    bool g = rec->per_game;
    return (rec_batch){rec,   rec->a, rec->ta, rec->seat_type, (unsigned)rec->ntypes,
                       g ? rec->gsum : NULL, g ? rec->gcnt : NULL, table,
                       (unsigned)rec->nmetrics, (unsigned)rec->nseats};
}

/* The accumulator of metric m for the type at seat (a seat metric), or NULL: no types. */
static inline acc *rec_batch_type(const rec_batch *b, int m, int seat)
{
    if (GIOCHI_LIKELY(b->ta == NULL) || seat < 0)
        return NULL;
    return &b->ta[(unsigned)m * b->ntypes + (unsigned)b->stype[seat]];
}

/* Index of metric m at seat in the recorder's accumulators, checked as rec_value checks it. */
static inline int rec_batch_slot(const rec_batch *b, int m, int seat, metric_kind kind)
{
    if (GIOCHI_UNLIKELY((unsigned)m >= b->nmetrics) ||
        GIOCHI_UNLIKELY(b->table[m].kind != kind) ||
        GIOCHI_UNLIKELY(b->table[m].scope == METRIC_GAME ? seat != -1
                                                          : (unsigned)seat >= b->nseats))
        rec_bad_record(m, seat);
    return m * REC_SLOTS + REC_SLOT(seat);
}

/* rec_value(rec, m, seat, value) within a batch. Always inline, as rec_batch_rate: a call
 * costs more than the record, and a finish of many records would otherwise get some as calls. */
static GIOCHI_INLINE void rec_batch_value(rec_batch *b, int m, int seat, int64_t value)
{
    int i = rec_batch_slot(b, m, seat, METRIC_MEAN);
    acc_add_fast(&b->a[i], value, 1);
    acc *t = rec_batch_type(b, m, seat);
    if (t)
        acc_add(t, value, 1);
    if (b->gsum != NULL) {
        b->gsum[i] += value;
        b->gcnt[i]++;
    }
}

/* rec_values(rec, m, seat, value, count) within a batch (count >= 0). */
static inline void rec_batch_values(rec_batch *b, int m, int seat, int64_t value, int64_t count)
{
    int i = rec_batch_slot(b, m, seat, METRIC_MEAN);
    if (count <= 0)
        return;
    acc_add_fast(&b->a[i], value, count);
    acc *t = rec_batch_type(b, m, seat);
    if (t)
        acc_add(t, value, count);
    if (b->gsum != NULL) {
        b->gsum[i] += value * count;
        b->gcnt[i] += count;
    }
}

/* rec_rate(rec, m, seat, hits, trials) within a batch. */
static GIOCHI_INLINE void rec_batch_rate(rec_batch *b, int m, int seat, int64_t hits,
                                         int64_t trials)
{
    int i = rec_batch_slot(b, m, seat, METRIC_RATE);
    if (GIOCHI_UNLIKELY(hits < 0 || hits > trials))
        rec_bad_record(m, seat);
    b->a[i].n += trials;
    b->a[i].hits += hits;
    acc *t = rec_batch_type(b, m, seat);
    if (t) {
        t->n += trials;
        t->hits += hits;
    }
    if (b->gsum != NULL) {
        b->gsum[i] += hits;
        b->gcnt[i] += trials;
    }
}

/* rec_hist(rec, m, seat, lo, count, n, total) within a batch. */
static inline void rec_batch_hist(rec_batch *b, int m, int seat, int64_t lo,
                                  const uint32_t *count, int n, int64_t total)
{
    int i = rec_batch_slot(b, m, seat, METRIC_MEAN);
    if (b->gsum != NULL) { /* rec_hist records cell by cell, types too */
        rec_hist(b->rec, m, seat, lo, count, n, total);
        return;
    }
    if (!acc_hist_deferred(&b->a[i], lo, count, n))
        acc_hist(&b->a[i], lo, count, n, total);
    acc *t = rec_batch_type(b, m, seat);
    if (t)
        acc_hist(t, lo, count, n, total);
}

#endif
