/* recorder.c — integer accumulators for metrics: counts, exact sums and sparse histograms. */
#include "core/recorder.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "core/hot.h"


/* Grows a's histogram so that it covers [lo, hi] (within the extremes a->min, a->max, already
 * updated), with slack on the side that grew so that a drifting range costs few copies; drops
 * the histogram once the extremes span more than ACC_MAX_SPAN. A worker's window (a->spill)
 * never takes slack beyond ACC_WORKER_SPAN cells. */
static void cover(acc *a, int64_t lo, int64_t hi)
{
    if (a->wide)
        return;
    acc_flush(a); /* the extremes below count the deferred cells; they move with count */
    if ((uint64_t)a->max - (uint64_t)a->min >= (uint64_t)ACC_MAX_SPAN) {
        free(a->count);
        a->count = NULL;
        free(a->pend);
        a->pend = NULL;
        a->wide = true;
        return;
    }
    int64_t clo = a->count ? a->lo : lo, chi = a->count ? a->lo + a->len - 1 : hi;
    if (a->count && lo >= clo && hi <= chi)
        return;
    int64_t nlo = lo < clo ? lo : clo, nhi = hi > chi ? hi : chi;
    if (nhi - nlo + 1 > ACC_MAX_SPAN) { /* slack taken earlier: back to the values seen */
        nlo = a->min;
        nhi = a->max;
    }
    int64_t limit = a->spill ? ACC_WORKER_SPAN : ACC_MAX_SPAN;
    int64_t slack = (nhi - nlo + 1) / 2 + 8;
    if (nhi - nlo + 1 + slack <= limit) {
        if (a->count && lo < clo)
            nlo -= slack;
        else
            nhi += slack;
    }
    int64_t *c = xcalloc_lines((size_t)(nhi - nlo + 1), sizeof *c);
    if (a->count) /* the old cells outside [nlo, nhi] (after a move back) are all zero */
        for (int64_t v = a->lo > nlo ? a->lo : nlo; v < a->lo + a->len && v <= nhi; v++)
            c[v - nlo] = a->count[v - a->lo];
    free(a->count);
    a->count = c;
    a->lo = nlo;
    a->len = nhi - nlo + 1;
    if (a->defer) {
        free(a->pend);
        a->pend = xcalloc_lines((size_t)a->len, sizeof *a->pend);
    }
}

void acc_defer(acc *a)
{
    a->defer = true;
    if (a->count != NULL && a->pend == NULL)
        a->pend = xcalloc_lines((size_t)a->len, sizeof *a->pend);
}

void acc_flush(acc *a)
{
    if (a->pend == NULL)
        return;
    /* a histogram exists, so a holds an observation: min and max are set */
    for (int64_t k = 0; k < a->len; k++) {
        int64_t c = a->pend[k];
        if (c == 0)
            continue;
        a->pend[k] = 0;
        int64_t v = a->lo + k;
        a->count[k] += c;
        a->min = v < a->min ? v : a->min;
        a->max = v > a->max ? v : a->max;
        a->n += c;
        a->sum += (__int128)v * c;
        a->sumsq += (__int128)v * v * c;
    }
}

/* A worker's value outside its window: logs the cell if taking it in would make the window
 * wider than ACC_WORKER_SPAN. Returns whether it did. */
static bool spill(acc *a, int64_t value, int64_t count)
{
    int64_t lo = value < a->lo ? value : a->lo;
    int64_t hi = value > a->lo + a->len - 1 ? value : a->lo + a->len - 1;
    if (hi - lo < ACC_WORKER_SPAN)
        return false;
    acc_spill *s = a->spill;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->cell = xrealloc(s->cell, s->cap * sizeof *s->cell);
    }
    s->cell[s->n++] = (acc_cell){a, value, count};
    return true;
}

/* acc_add's cell of a value outside the histogram (kept out of its fast path). */
static GIOCHI_NOINLINE void add_outside(acc *a, int64_t value, int64_t count)
{
    if (a->spill && a->count && spill(a, value, count))
        return;
    cover(a, value, value);
    if (a->count != NULL)
        a->count[value - a->lo] += count;
}

void acc_add(acc *a, int64_t value, int64_t count)
{
    if (count <= 0)
        return;
    if (a->n == 0 || value < a->min)
        a->min = value;
    if (a->n == 0 || value > a->max)
        a->max = value;
    a->n += count;
    a->sum += (__int128)value * count;
    a->sumsq += (__int128)value * value * count;
    if (a->count == NULL || value < a->lo || value >= a->lo + a->len) {
        add_outside(a, value, count);
        return;
    }
    a->count[value - a->lo] += count;
}

void acc_add_cell(acc *a, int64_t value, int64_t count)
{
    bool seen = a->n > 0 || a->count != NULL || a->wide;
    if (!seen || value < a->min)
        a->min = value;
    if (!seen || value > a->max)
        a->max = value;
    cover(a, value, value);
    if (a->count != NULL)
        a->count[value - a->lo] += count;
}

/* dst += src, or false if the sum does not fit (dst then holds it wrapped: no undefined
 * behaviour, and the caller discards dst). */
static bool add64(int64_t *dst, int64_t src)
{
    return !__builtin_add_overflow(*dst, src, dst);
}

static bool add128(__int128 *dst, __int128 src)
{
    return !__builtin_add_overflow(*dst, src, dst);
}

bool acc_merge(acc *dst, const acc *src)
{
    if (src->n == 0)
        return true;
    if (src->count == NULL && !src->wide) { /* a rate */
        bool ok = add64(&dst->n, src->n);
        return add64(&dst->hits, src->hits) && ok;
    }
    bool seen = dst->n > 0 || dst->count != NULL || dst->wide;
    if (!seen || src->min < dst->min)
        dst->min = src->min;
    if (!seen || src->max > dst->max)
        dst->max = src->max;
    bool ok = add64(&dst->n, src->n);
    ok = add64(&dst->hits, src->hits) && ok;
    ok = add128(&dst->sum, src->sum) && ok;
    ok = add128(&dst->sumsq, src->sumsq) && ok;
    if (src->wide) {
        free(dst->count);
        dst->count = NULL;
        dst->wide = true;
        return ok;
    }
    /* src's cells lie within its window and its extremes (a worker's window may hold slack
     * beyond them; its spilled cells reached dst before); counted by offset, so that a window
     * ending at INT64_MAX ends the loop too */
    int64_t lo = src->lo > src->min ? src->lo : src->min;
    int64_t hi = src->max - src->lo < src->len - 1 ? src->max : src->lo + (src->len - 1);
    cover(dst, lo, hi);
    if (dst->count != NULL) {
        int64_t *d = dst->count + (lo - dst->lo);
        const int64_t *c = src->count + (lo - src->lo);
        for (uint64_t k = 0, n = (uint64_t)hi - (uint64_t)lo; k <= n; k++)
            ok = add64(&d[k], c[k]) && ok;
    }
    return ok;
}

void acc_free(acc *a)
{
    free(a->count);
    a->count = NULL;
    free(a->pend);
    a->pend = NULL;
}

recorder *rec_new(const game_type *g, int nseats, bool per_game)
{
    /* whole cache lines each: every worker thread writes its own recorder at every game */
    recorder *rec = xcalloc_lines(1, sizeof *rec);
    rec->metrics = g->metrics;
    while (g->metrics && g->metrics[rec->nmetrics].name)
        rec->nmetrics++;
    rec->nseats = nseats;
    size_t n = (size_t)rec->nmetrics * REC_SLOTS;
    rec->a = xcalloc_lines(n, sizeof *rec->a);
    rec->per_game = per_game;
    if (per_game) {
        rec->gsum = xcalloc_lines(n, sizeof *rec->gsum);
        rec->gcnt = xcalloc_lines(n, sizeof *rec->gcnt);
    }
    return rec;
}

void rec_set_types(recorder *rec, int ntypes, const char *const *names, const int8_t *base,
                   const bool *pop)
{
    rec->ntypes = ntypes;
    rec->type_name = names;
    rec->ta = xcalloc((size_t)(rec->nmetrics + REC_TYPE_BUILTINS) * (size_t)ntypes,
                      sizeof *rec->ta);
    memcpy(rec->type_base, base, sizeof rec->type_base);
    memcpy(rec->type_pop, pop, sizeof rec->type_pop);
    memcpy(rec->seat_type, base, sizeof rec->seat_type);
}

const acc *rec_type_get(const recorder *rec, int m, int t)
{
    return &rec->ta[m * rec->ntypes + t];
}

void rec_free(recorder *rec)
{
    if (rec == NULL)
        return;
    for (int i = 0; rec->ta && i < (rec->nmetrics + REC_TYPE_BUILTINS) * rec->ntypes; i++)
        acc_free(&rec->ta[i]);
    free(rec->ta);
    for (int i = 0; i < rec->nmetrics * REC_SLOTS; i++)
        acc_free(&rec->a[i]);
    free(rec->a);
    free(rec->gsum);
    free(rec->gcnt);
    free(rec);
}

void rec_set_spill(recorder *rec, acc_spill *s)
{
    for (int i = 0; i < rec->nmetrics * REC_SLOTS; i++)
        rec->a[i].spill = s;
}

void rec_defer(recorder *rec)
{
    for (int i = 0; i < rec->nmetrics * REC_SLOTS; i++)
        acc_defer(&rec->a[i]);
}

void rec_flush(recorder *rec)
{
    for (int i = 0; i < rec->nmetrics * REC_SLOTS; i++)
        acc_flush(&rec->a[i]);
}

bool rec_merge(recorder *dst, const recorder *src)
{
    bool ok = true;
    for (int i = 0; i < dst->nmetrics * REC_SLOTS; i++)
        ok = acc_merge(&dst->a[i], &src->a[i]) && ok;
    if (dst->ntypes == src->ntypes && dst->ta && src->ta) /* the same run's: the same types */
        for (int i = 0; i < (dst->nmetrics + REC_TYPE_BUILTINS) * dst->ntypes; i++)
            ok = acc_merge(&dst->ta[i], &src->ta[i]) && ok;
    return ok;
}

const acc *rec_get(const recorder *rec, int m, int seat)
{
    return &rec->a[m * REC_SLOTS + REC_SLOT(seat)];
}

_Noreturn void rec_bad_record(int m, int seat)
{
    fprintf(stderr, "giochi-sim: internal error: bad record of metric %d seat %d\n", m, seat);
    abort();
}

void rec_values(recorder *rec, int m, int seat, int64_t value, int64_t count)
{
    rec_batch b = rec_batch_open(rec, NULL); /* one record: a batch of one */
    rec_batch_values(&b, m, seat, value, count);
}

/* rec_hist's common case: the row lies inside a's histogram and within the extremes already
 * seen, as a short row of a game's own tally does once a run is under way. Every cell is added
 * (empty ones too: no branch per cell, so no guess of the processor's), and the row's figures
 * come from running sums taken from the last cell down to cell 1, additions only: t = the
 * observations at offset k or above, u = the sum of t from k up, w = the sum of u from k up;
 * at k = 1, u is the sum of the offsets k of the observations and 2 w - u the sum of their
 * squares (offset k is counted k (k + 1) / 2 times in w). Fewer than 2^22 observations of at
 * most n <= 2^10 cells keep every sum below 2^52. */
static void hist_inside(acc *a, int64_t lo, const uint32_t *count, int n)
{
    int64_t *cell = a->count + (lo - a->lo);
    uint64_t t = 0, u = 0, w = 0;
    GIOCHI_UNROLL(2)
    for (int k = n - 1; k > 0; k--) {
        uint32_t c = count[k];
        cell[k] += c;
        t += c;
        u += t;
        w += u;
    }
    cell[0] += count[0];
    t += count[0];
    uint64_t s2 = 2 * w - u;
    a->n += (int64_t)t;
    if (t < (1 << 22)) { /* the row's sums fit in 64 bits: |lo| <= 2^20, u < 2^32, s2 < 2^42, and
                          * lo^2 t + 2 lo u + s2 (a sum of squares, >= 0) stays below 2^63 */
        int64_t l = lo, tt = (int64_t)t, uu = (int64_t)u;
        a->sum += (__int128)(l * tt + uu);
        a->sumsq += (__int128)(l * l * tt + 2 * l * uu + (int64_t)s2);
        return;
    }
    __int128 l = lo;
    a->sum += l * (__int128)t + (__int128)u;
    a->sumsq += l * l * (__int128)t + 2 * l * (__int128)u + (__int128)s2;
}

void rec_hist(recorder *rec, int m, int seat, int64_t lo, const uint32_t *count, int n,
              int64_t total)
{
    rec_batch b = rec_batch_open(rec, NULL);
    int i = rec_batch_slot(&b, m, seat, METRIC_MEAN);
    if (rec->per_game) { /* the general way, cell by cell */
        for (int k = 0; k < n && total > 0; k++)
            if (count[k]) {
                rec_values(rec, m, seat, lo + k, count[k]);
                total -= count[k];
            }
        return;
    }
    acc_hist(&rec->a[i], lo, count, n, total);
    acc *t = rec_batch_type(&b, m, seat);
    if (t)
        acc_hist(t, lo, count, n, total);
}

void acc_hist(acc *a, int64_t lo, const uint32_t *count, int n, int64_t total)
{
    if (acc_hist_deferred(a, lo, count, n)) /* deferred: the cells alone */
        return;
    if (a->count == NULL || total >= (1 << 22) || lo < -(1 << 20) ||
        lo > (1 << 20) - n) { /* the general way, cell by cell */
        for (int k = 0; k < n && total > 0; k++)
            if (count[k]) {
                acc_add(a, lo + k, count[k]);
                total -= count[k];
            }
        return;
    }
    if (n <= (1 << 10) && lo >= a->lo && lo + n <= a->lo + a->len && lo >= a->min &&
        lo + n - 1 <= a->max) { /* the extremes cannot move, nor the histogram */
        hist_inside(a, lo, count, n);
        return;
    }
    /* The cells the histogram covers are added here, their figures summed locally in 64 bits
     * (|value| <= 2^20 and fewer than 2^22 observations: every sum stays below 2^63); a cell
     * outside it takes acc_add. */
    int64_t seen = 0, sum = 0, sumsq = 0, vmin = INT64_MAX, vmax = INT64_MIN;
    uint64_t at = (uint64_t)lo - (uint64_t)a->lo, len = (uint64_t)a->len;
    for (int k = 0; k < n && total > 0; k++, at++) {
        int64_t c = count[k];
        if (c == 0)
            continue;
        total -= c;
        int64_t v = lo + k;
        if (at >= len) {
            acc_add(a, v, c);
            at = (uint64_t)v - (uint64_t)a->lo; /* acc_add may have moved the histogram */
            len = (uint64_t)a->len;
            if (a->count == NULL) /* dropped: the rest the general way */
                len = 0;
            continue;
        }
        a->count[at] += c;
        vmin = v < vmin ? v : vmin;
        vmax = v;
        seen += c;
        sum += v * c;
        sumsq += v * v * c;
    }
    if (seen == 0)
        return;
    a->min = vmin < a->min ? vmin : a->min; /* the histogram exists: a holds observations */
    a->max = vmax > a->max ? vmax : a->max;
    a->n += seen;
    a->sum += sum;
    a->sumsq += sumsq;
}

void rec_value(recorder *rec, int m, int seat, int64_t value)
{
    rec_batch b = rec_batch_open(rec, NULL);
    rec_batch_value(&b, m, seat, value);
}

void rec_rate(recorder *rec, int m, int seat, int64_t hits, int64_t trials)
{
    rec_batch b = rec_batch_open(rec, NULL);
    rec_batch_rate(&b, m, seat, hits, trials);
}

void rec_game_begin(recorder *rec)
{
    if (!rec->per_game)
        return;
    size_t n = (size_t)rec->nmetrics * REC_SLOTS;
    memset(rec->gsum, 0, n * sizeof *rec->gsum);
    memset(rec->gcnt, 0, n * sizeof *rec->gcnt);
}

bool rec_game_value(const recorder *rec, int m, int seat, double *out)
{
    int i = m * REC_SLOTS + REC_SLOT(seat);
    if (!rec->per_game || rec->gcnt[i] == 0)
        return false;
    if (rec->metrics[m].kind == METRIC_RATE)
        *out = (double)rec->gsum[i];
    else
        *out = (double)rec->gsum[i] / (double)rec->gcnt[i];
    return true;
}
