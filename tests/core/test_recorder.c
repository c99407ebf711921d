/* test_recorder.c — the recorder's cheap paths give the very figures of its plain ones: a
 * batch of records (rec_batch) as rec_value and rec_rate, deferred accumulators (acc_defer)
 * as accumulators updated at every observation, histogram rows (acc_hist) as cells one by one. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "core/rng.h"

/* Two accumulators hold the same observations in the same window, figure by figure. */
static bool same_acc(const acc *a, const acc *b)
{
    if (a->n != b->n || a->hits != b->hits || a->sum != b->sum || a->sumsq != b->sumsq ||
        a->wide != b->wide || (a->count == NULL) != (b->count == NULL))
        return false;
    if (a->n > 0 && (a->min != b->min || a->max != b->max))
        return false;
    if (a->count == NULL)
        return true;
    if (a->lo != b->lo || a->len != b->len)
        return false;
    for (int64_t k = 0; k < a->len; k++)
        if (a->count[k] != b->count[k])
            return false;
    return true;
}

/* A value drawn from a range that grows over the run (so that the window moves now and then),
 * sometimes far outside it (so that a worker's window spills). */
static int64_t draw(rng *r, int i)
{
    int64_t spread = 4 + i / 8;
    int64_t v = (int64_t)rng_below(r, (uint64_t)spread) - spread / 3;
    if (rng_below(r, 50) == 0)
        v += (int64_t)rng_below(r, 20000) - 10000;
    return v;
}

/* A deferring accumulator, flushed at arbitrary points, ends equal to one updated at every
 * observation: the same count, sums, extremes, window and cells, and (as a worker's, with a
 * spill log) the same cells spilled in the same order; single values, repeated values and
 * histogram rows inside and across the window alike. */
TEST(deferred_accumulator_equals_one_updated_at_once)
{
    for (int windowed = 0; windowed < 2; windowed++) {
        acc now = {0}, later = {0};
        acc_spill sn = {0}, sl = {0};
        if (windowed) {
            now.spill = &sn;
            later.spill = &sl;
        }
        acc_defer(&later);
        rng r;
        rng_seed(&r, 29u + (uint64_t)windowed);
        for (int i = 0; i < 4000; i++) {
            int64_t v = draw(&r, i);
            switch (rng_below(&r, 4)) {
            case 0: {
                int64_t c = 1 + (int64_t)rng_below(&r, 5);
                acc_add_fast(&now, v, c);
                acc_add_fast(&later, v, c);
                break;
            }
            case 1: {
                uint32_t row[20];
                int n = 1 + (int)rng_below(&r, 20);
                int64_t total = 0;
                for (int k = 0; k < n; k++) {
                    row[k] = rng_below(&r, 3) == 0 ? (uint32_t)rng_below(&r, 9) : 0;
                    total += row[k];
                }
                acc_hist(&now, v, row, n, total);
                acc_hist(&later, v, row, n, total);
                break;
            }
            default:
                acc_add_fast(&now, v, 1);
                acc_add_fast(&later, v, 1);
            }
            if (rng_below(&r, 300) == 0)
                acc_flush(&later);
        }
        CHECK(later.pend != NULL); /* some observations were still deferred */
        acc_flush(&later);
        CHECK(same_acc(&now, &later));
        CHECK(now.n > 4000);
        CHECK_INT((long long)sn.n, (long long)sl.n);
        CHECK(windowed == (sn.n > 0));
        for (size_t i = 0; i < sn.n && i < sl.n; i++)
            CHECK(sn.cell[i].value == sl.cell[i].value && sn.cell[i].count == sl.cell[i].count);
        free(sn.cell);
        free(sl.cell);
        acc_free(&now);
        acc_free(&later);
    }
}

/* A deferring accumulator whose values spread past ACC_MAX_SPAN drops its histogram exactly
 * when one updated at once does, and keeps every other figure. */
TEST(deferred_accumulator_dropped_at_the_same_extremes)
{
    acc now = {0}, later = {0};
    acc_defer(&later);
    for (int64_t v = 0; v < 100; v++) {
        acc_add_fast(&now, v % 10, 1);
        acc_add_fast(&later, v % 10, 1);
    }
    acc_add_fast(&now, ACC_MAX_SPAN + 5, 2);
    acc_add_fast(&later, ACC_MAX_SPAN + 5, 2);
    acc_add_fast(&now, 3, 1); /* after the drop: no cell, figures only */
    acc_add_fast(&later, 3, 1);
    acc_flush(&later);
    CHECK(now.wide && later.wide && later.pend == NULL);
    CHECK(same_acc(&now, &later));
    acc_free(&now);
    acc_free(&later);
}

/* A batch of records (rec_batch_open, then rec_batch_value, rec_batch_rate, rec_batch_hist)
 * leaves a recorder, its per-game figures included, as rec_value, rec_rate and rec_hist do. */
TEST(rec_batch_equals_rec_value_and_rec_rate)
{
    const game_type *g = registry_game("oca");
    CHECK(g != NULL);
    int mean_game = -1, mean_seat = -1, rate_game = -1, rate_seat = -1, nm = 0;
    for (; g->metrics[nm].name; nm++) {
        const metric_def *d = &g->metrics[nm];
        int *slot = d->kind == METRIC_MEAN ? (d->scope == METRIC_GAME ? &mean_game : &mean_seat)
                                           : (d->scope == METRIC_GAME ? &rate_game : &rate_seat);
        if (*slot < 0)
            *slot = nm;
    }
    CHECK(mean_game >= 0 && mean_seat >= 0 && rate_game >= 0 && rate_seat >= 0);
    for (int per_game = 0; per_game < 2; per_game++) {
        recorder *a = rec_new(g, 3, per_game), *b = rec_new(g, 3, per_game);
        rng r;
        rng_seed(&r, 5);
        for (int game = 0; game < 200; game++) {
            rec_game_begin(a);
            rec_game_begin(b);
            rec_batch x = rec_batch_open(a, g->metrics);
            int64_t v = (int64_t)rng_below(&r, 40) - 10;
            rec_batch_value(&x, mean_game, -1, v);
            rec_value(b, mean_game, -1, v);
            uint32_t row[6];
            int64_t total = 0;
            for (int k = 0; k < 6; k++)
                total += row[k] = (uint32_t)rng_below(&r, 3);
            for (int s = 0; s < 3; s++) {
                int64_t h = (int64_t)rng_below(&r, 3), t = h + (int64_t)rng_below(&r, 2);
                rec_batch_rate(&x, rate_seat, s, h, t);
                rec_rate(b, rate_seat, s, h, t);
                rec_batch_value(&x, mean_seat, s, v * s);
                rec_value(b, mean_seat, s, v * s);
                rec_batch_hist(&x, mean_seat, s, v, row, 6, total);
                rec_hist(b, mean_seat, s, v, row, 6, total);
            }
            rec_batch_rate(&x, rate_game, -1, game % 2, 1);
            rec_rate(b, rate_game, -1, game % 2, 1);
            for (int m = 0; m < nm; m++)
                for (int s = -1; s < 3; s++) {
                    double da = -1, db = -1;
                    bool got = rec_game_value(a, m, s, &da);
                    CHECK(got == rec_game_value(b, m, s, &db));
                    CHECK(da == db);
                }
        }
        for (int m = 0; m < nm; m++)
            for (int s = -1; s < 3; s++)
                CHECK(same_acc(rec_get(a, m, s), rec_get(b, m, s)));
        CHECK(rec_get(a, mean_seat, 2)->n > 200);
        rec_free(a);
        rec_free(b);
    }
}
