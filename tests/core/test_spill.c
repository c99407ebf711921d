/* test_spill.c — histograms whatever the order of adding and merging, and a worker's bounded
 * window (acc_spill): spilled cells moved into the total give the very histogram a whole one
 * would, and a run's report does not depend on how many workers spilled. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "report/report.h"
#include "core/rng.h"
#include "config/rules.h"
#include "core/runner.h"

/* Two accumulators hold the same observations, figure by figure and cell by cell. */
static bool same_acc(const acc *a, const acc *b)
{
    if (a->n != b->n || a->hits != b->hits || a->sum != b->sum || a->sumsq != b->sumsq ||
        a->wide != b->wide || (a->count == NULL) != (b->count == NULL))
        return false;
    if (a->n > 0 && (a->min != b->min || a->max != b->max))
        return false;
    if (a->count == NULL)
        return true;
    for (int64_t v = a->min; v <= a->max; v++)
        if (a->count[v - a->lo] != b->count[v - b->lo])
            return false;
    return true;
}

/* The slack a histogram takes when it grows used to count as values: 0, 600000, -200000 span
 * 800001 values, within ACC_MAX_SPAN, yet in this order the histogram was dropped, and in
 * another it was kept (so reports depended on the thread count). Now only the extremes decide. */
TEST(acc_histogram_dropped_by_the_extremes_alone)
{
    int64_t order[2][3] = {{0, 600000, -200000}, {0, -200000, 600000}};
    acc a[2];
    memset(a, 0, sizeof a);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 3; i++)
            acc_add(&a[k], order[k][i], 1);
    CHECK(!a[0].wide && a[0].count != NULL);
    CHECK(same_acc(&a[0], &a[1]));
    acc_add(&a[0], 848576, 1); /* spans ACC_MAX_SPAN + 1 values: dropped */
    CHECK(a[0].wide && a[0].count == NULL);
    acc_add(&a[1], 848575, 1); /* spans ACC_MAX_SPAN exactly: kept */
    CHECK(!a[1].wide);
    CHECK_INT(a[1].count[848575 - a[1].lo], 1);
    acc_free(&a[0]);
    acc_free(&a[1]);
}

/* Merging in any order gives the same accumulator, across the widening boundary too. */
TEST(acc_merge_in_any_order)
{
    acc part[3], one = {0}, two = {0};
    memset(part, 0, sizeof part);
    acc_add(&part[0], 0, 2);
    acc_add(&part[0], 5, 1);
    acc_add(&part[1], 700000, 1);
    acc_add(&part[2], -300000, 4);
    acc_merge(&one, &part[0]);
    acc_merge(&one, &part[1]);
    acc_merge(&one, &part[2]);
    acc_merge(&two, &part[2]);
    acc_merge(&two, &part[1]);
    acc_merge(&two, &part[0]);
    CHECK(!one.wide);
    CHECK(same_acc(&one, &two));
    CHECK_INT(one.count[-300000 - one.lo], 4);
    for (int i = 0; i < 3; i++)
        acc_free(&part[i]);
    acc_free(&one);
    acc_free(&two);
}

/* A worker's window stays within ACC_WORKER_SPAN cells however far apart its values are; its
 * spilled cells, moved into the total, then its merge, equal a whole histogram of the values. */
TEST(acc_spill_keeps_the_window_small_and_the_cells_exact)
{
    acc_spill sp = {0};
    acc worker = {.spill = &sp}, whole = {0}, total = {0};
    rng r;
    rng_seed(&r, 12345);
    for (int i = 0; i < 20000; i++) {
        int64_t v = (int64_t)rng_below(&r, 500000) - 100000;
        if (i % 3 == 0)
            v = (int64_t)rng_below(&r, 40); /* a crowded corner the window keeps */
        acc_add(&worker, v, 1 + i % 2);
        acc_add(&whole, v, 1 + i % 2);
        CHECK(worker.len <= ACC_WORKER_SPAN);
    }
    CHECK(sp.n > 0);
    for (size_t i = 0; i < sp.n; i++) { /* the cells, in the total's accumulator */
        CHECK(sp.cell[i].a == &worker);
        acc_add_cell(&total, sp.cell[i].value, sp.cell[i].count);
    }
    acc_merge(&total, &worker);
    CHECK(same_acc(&total, &whole));
    free(sp.cell);
    acc_free(&worker);
    acc_free(&whole);
    acc_free(&total);
}

/* A batch of Oca with large amounts: its money figures spread over hundreds of thousands of
 * points, so every worker spills. The report is the same for 1, 2 and 7 threads. */
TEST(spill_batch_report_same_for_any_thread_count)
{
    const game_type *g = registry_game("oca");
    CHECK(g != NULL);
    const char *sets[] = {"dote=100000", "fondo_extra=1000000", "entry_fee=10000",
                          "declare_prize=10000", "declare_stake=10000"};
    cJSON *ruleset = NULL;
    char err[256];
    void *rules = rules_effective(g, NULL, sets, 5, &ruleset, err, sizeof err);
    CHECK(rules != NULL);
    if (rules == NULL)
        return;
    run_config cfg = {.game = g, .rules = rules, .nseats = 4, .runs = 600, .seed = 77};
    for (int k = 0; k < 4; k++)
        cfg.seat[k].bot = registry_bot(g, g->default_bot);
    char *text[3] = {0};
    int threads[3] = {1, 2, 7};
    for (int t = 0; t < 3; t++) {
        cfg.threads = threads[t];
        run_result res;
        CHECK_INT(run_batch_local(&cfg, &res, err, sizeof err), 0);
        report_input in = {.cfg = &cfg, .res = &res, .ruleset = ruleset};
        for (int k = 0; k < 4; k++)
            in.bot_spec[k] = g->default_bot;
        cJSON *rep = report_build(&in);
        cJSON_DeleteItemFromObject(rep, "run");
        text[t] = cJSON_Print(rep);
        cJSON_Delete(rep);
        run_result_free(&res);
    }
    CHECK(strstr(text[0], "\"histogram\"") != NULL);
    CHECK_STR(text[0], text[1]);
    CHECK_STR(text[0], text[2]);
    for (int t = 0; t < 3; t++)
        free(text[t]);
    cJSON_Delete(ruleset);
    free(rules);
}

/* rec_hist adds a histogram row as rec_values would add it cell by cell: rows inside the
 * histogram, beyond it (the histogram grows), partly outside a worker's window (cells spill),
 * with and without per-game figures, and a row whose last cells are empty past `total`. */
TEST(rec_hist_equals_rec_values_cell_by_cell)
{
    const game_type *g = registry_game("cinesi");
    CHECK(g != NULL);
    int m = 2; /* cinesi's rolls per turn, a seat metric of means */
    CHECK_STR(g->metrics[m].name, "rolls_per_turn");
    uint32_t rows[5][40] = {{0}};
    int64_t lo[5] = {1, 1, 30, -5, 5000};
    for (int k = 0; k < 40; k++) {
        rows[0][k] = (uint32_t)(k < 8 ? 8 - k : 0);
        rows[1][k] = (uint32_t)(k % 3 == 0 ? k + 1 : 0);
        rows[2][k] = (uint32_t)(k == 39 ? 2 : k == 0 ? 1 : 0);
        rows[3][k] = (uint32_t)(k < 12 ? 1 : 0);
        rows[4][k] = (uint32_t)(k % 7 == 1 ? 3 : 0);
    }
    for (int per_game = 0; per_game < 2; per_game++)
        for (int windowed = 0; windowed < 2; windowed++) {
            recorder *a = rec_new(g, 2, per_game), *b = rec_new(g, 2, per_game);
            acc_spill sa = {0}, sb = {0};
            if (windowed) {
                rec_set_spill(a, &sa);
                rec_set_spill(b, &sb);
            }
            rec_game_begin(a);
            rec_game_begin(b);
            for (int r = 0; r < 5; r++) {
                int64_t total = 0;
                for (int k = 0; k < 40; k++)
                    total += rows[r][k];
                rec_hist(a, m, r % 2, lo[r], rows[r], 40, total);
                for (int k = 0; k < 40; k++)
                    if (rows[r][k])
                        rec_values(b, m, r % 2, lo[r] + k, rows[r][k]);
            }
            for (int seat = 0; seat < 2; seat++) {
                const acc *x = rec_get(a, m, seat), *y = rec_get(b, m, seat);
                CHECK(x->n == y->n && x->sum == y->sum && x->sumsq == y->sumsq);
                CHECK(x->min == y->min && x->max == y->max && x->wide == y->wide);
                CHECK(x->lo == y->lo && x->len == y->len && (x->count == NULL) == (y->count == NULL));
                for (int64_t k = 0; x->count && y->count && k < x->len && k < y->len; k++)
                    CHECK(x->count[k] == y->count[k]);
                double va = -1, vb = -2;
                CHECK(rec_game_value(a, m, seat, &va) == rec_game_value(b, m, seat, &vb));
                if (per_game)
                    CHECK(va == vb);
            }
            CHECK(sa.n == sb.n);
            for (size_t i = 0; i < sa.n && i < sb.n; i++)
                CHECK(sa.cell[i].value == sb.cell[i].value && sa.cell[i].count == sb.cell[i].count);
            free(sa.cell);
            free(sb.cell);
            rec_free(a);
            rec_free(b);
        }
}

/* rec_hist's short way, a row inside the histogram and within the extremes seen (every cell
 * added, empty ones too, the figures from running sums): the same accumulator as rec_values
 * cell by cell, for rows at negative, small and large offsets, with empty cells anywhere,
 * many observations in a cell, and a row of one cell. */
TEST(rec_hist_inside_the_histogram_equals_rec_values)
{
    const game_type *g = registry_game("cinesi");
    CHECK(g != NULL);
    int m = 2; /* cinesi's rolls per turn, a seat metric of means */
    static const int64_t lo[] = {-40, 1, 7, 1000};
    static const int len[] = {15, 15, 1, 63};
    for (int v = 0; v < 4; v++) {
        recorder *a = rec_new(g, 2, false), *b = rec_new(g, 2, false);
        /* the extremes and the histogram first, through the general way */
        for (int64_t x = lo[v] - 3; x <= lo[v] + len[v] + 2; x++) {
            rec_values(a, m, 1, x, 1);
            rec_values(b, m, 1, x, 1);
        }
        rng r;
        rng_seed(&r, (uint64_t)v + 11);
        for (int row = 0; row < 50; row++) {
            uint32_t c[63];
            int64_t total = 0;
            for (int k = 0; k < len[v]; k++) {
                c[k] = rng_below(&r, 3) == 0 ? 0 : (uint32_t)rng_below(&r, 100000);
                total += c[k];
            }
            rec_hist(a, m, 1, lo[v], c, len[v], total);
            for (int k = 0; k < len[v]; k++)
                if (c[k])
                    rec_values(b, m, 1, lo[v] + k, c[k]);
        }
        CHECK(same_acc(rec_get(a, m, 1), rec_get(b, m, 1)));
        CHECK(rec_get(a, m, 1)->n > 50);
        rec_free(a);
        rec_free(b);
    }
}
