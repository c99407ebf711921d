/* recorder.c — integer accumulators for metrics: counts, exact sums and sparse histograms. */
#include "recorder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"


/* Grows a's histogram so that it covers [lo, hi], with slack on the side that grew so that
 * a drifting range costs few copies; drops the histogram once the span gets too wide. */
static void cover(acc *a, int64_t lo, int64_t hi)
{
    if (a->wide)
        return;
    int64_t clo = a->count ? a->lo : lo, chi = a->count ? a->lo + a->len - 1 : hi;
    if (a->count && lo >= clo && hi <= chi)
        return;
    int64_t nlo = lo < clo ? lo : clo, nhi = hi > chi ? hi : chi;
    if (nhi - nlo + 1 > ACC_MAX_SPAN) {
        free(a->count);
        a->count = NULL;
        a->wide = true;
        return;
    }
    int64_t slack = (nhi - nlo + 1) / 2 + 8;
    if (nhi - nlo + 1 + slack <= ACC_MAX_SPAN) {
        if (a->count && lo < clo)
            nlo -= slack;
        else
            nhi += slack;
    }
    int64_t *c = xcalloc((size_t)(nhi - nlo + 1), sizeof *c);
    if (a->count)
        memcpy(c + (a->lo - nlo), a->count, (size_t)a->len * sizeof *c);
    free(a->count);
    a->count = c;
    a->lo = nlo;
    a->len = nhi - nlo + 1;
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
    if (a->count == NULL || value < a->lo || value >= a->lo + a->len)
        cover(a, value, value);
    if (a->count != NULL)
        a->count[value - a->lo] += count;
}

void acc_merge(acc *dst, const acc *src)
{
    if (src->n == 0)
        return;
    if (src->count == NULL && !src->wide) { /* a rate */
        dst->n += src->n;
        dst->hits += src->hits;
        return;
    }
    if (dst->n == 0 || src->min < dst->min)
        dst->min = src->min;
    if (dst->n == 0 || src->max > dst->max)
        dst->max = src->max;
    dst->n += src->n;
    dst->hits += src->hits;
    dst->sum += src->sum;
    dst->sumsq += src->sumsq;
    if (src->wide) {
        free(dst->count);
        dst->count = NULL;
        dst->wide = true;
        return;
    }
    cover(dst, src->lo, src->lo + src->len - 1);
    if (dst->count != NULL)
        for (int64_t i = 0; i < src->len; i++)
            dst->count[src->lo + i - dst->lo] += src->count[i];
}

void acc_free(acc *a)
{
    free(a->count);
    a->count = NULL;
}

recorder *rec_new(const game_type *g, int nseats, bool per_game)
{
    recorder *rec = xcalloc(1, sizeof *rec);
    rec->metrics = g->metrics;
    while (g->metrics && g->metrics[rec->nmetrics].name)
        rec->nmetrics++;
    rec->nseats = nseats;
    size_t n = (size_t)rec->nmetrics * REC_SLOTS;
    rec->a = xcalloc(n, sizeof *rec->a);
    rec->per_game = per_game;
    if (per_game) {
        rec->gsum = xcalloc(n, sizeof *rec->gsum);
        rec->gcnt = xcalloc(n, sizeof *rec->gcnt);
    }
    return rec;
}

void rec_free(recorder *rec)
{
    if (rec == NULL)
        return;
    for (int i = 0; i < rec->nmetrics * REC_SLOTS; i++)
        acc_free(&rec->a[i]);
    free(rec->a);
    free(rec->gsum);
    free(rec->gcnt);
    free(rec);
}

void rec_merge(recorder *dst, const recorder *src)
{
    for (int i = 0; i < dst->nmetrics * REC_SLOTS; i++)
        acc_merge(&dst->a[i], &src->a[i]);
}

const acc *rec_get(const recorder *rec, int m, int seat)
{
    return &rec->a[m * REC_SLOTS + REC_SLOT(seat)];
}

/* Index of (metric, seat), checked: a game recording outside its table is a bug. */
static int slot(const recorder *rec, int m, int seat, metric_kind kind)
{
    if (m < 0 || m >= rec->nmetrics || rec->metrics[m].kind != kind ||
        (rec->metrics[m].scope == METRIC_GAME ? seat != -1 : (seat < 0 || seat >= rec->nseats))) {
        fprintf(stderr, "giochi-sim: internal error: bad record of metric %d seat %d\n", m, seat);
        abort();
    }
    return m * REC_SLOTS + REC_SLOT(seat);
}

void rec_values(recorder *rec, int m, int seat, int64_t value, int64_t count)
{
    int i = slot(rec, m, seat, METRIC_MEAN);
    acc_add(&rec->a[i], value, count);
    if (rec->per_game && count > 0) {
        rec->gsum[i] += value * count;
        rec->gcnt[i] += count;
    }
}

void rec_value(recorder *rec, int m, int seat, int64_t value)
{
    rec_values(rec, m, seat, value, 1);
}

void rec_rate(recorder *rec, int m, int seat, int64_t hits, int64_t trials)
{
    int i = slot(rec, m, seat, METRIC_RATE);
    if (hits < 0 || hits > trials) {
        fprintf(stderr, "giochi-sim: internal error: rate %lld/%lld for metric %s\n",
                (long long)hits, (long long)trials, rec->metrics[m].name);
        abort();
    }
    rec->a[i].n += trials;
    rec->a[i].hits += hits;
    if (rec->per_game) {
        rec->gsum[i] += hits;
        rec->gcnt[i] += trials;
    }
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
