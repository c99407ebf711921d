/* test_experiment.c — experiments (experiment.c) on the toy games of tests/toy_kit.h with known
 * answers: the paired statistics, a known difference, seat rotation, --until, sensitivity on
 * "edge" (seat 1's win share is edge/6 + (1 - edge/6)/N exactly, and its `noise` changes
 * nothing), the pair sums of small and large figures on "scaled". */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "experiment/experiment.h"
#include "experiment/experiment_priv.h"
#include "core/rng.h"
#include "experiment_kit.h"
#include "config/rules.h"
#include "toy_kit.h"


static exp_options edge_options(uint64_t runs, int threads)
{
    exp_options o;
    memset(&o, 0, sizeof o);
    o.game = &edge_game;
    o.runs = runs;
    o.seed = 99;
    o.threads = threads;
    o.format = REPORT_JSON;
    return o;
}

/* The difference row of `metric` (seat, or 0) of setting i. */
static const cJSON *diff_row(const cJSON *r, int i, const char *metric, int seat)
{
    const cJSON *s = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "settings"), i);
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItem(s, "differences"))
    {
        const cJSON *st = cJSON_GetObjectItem(d, "seat");
        if (strcmp(cJSON_GetObjectItem(d, "metric")->valuestring, metric) == 0 &&
            (st ? st->valueint : 0) == seat)
            return d;
    }
    return NULL;
}

static double at(const cJSON *arr, int i)
{
    return cJSON_GetArrayItem(arr, i)->valuedouble;
}

TEST(experiment_pair_matches_direct_computation)
{
    /* c = 1 every game: the paired interval is the t interval of the per-game differences */
    static const int64_t xa[] = {3, 5, 2, 8, 6, 1, 4, 7, 5, 5};
    static const int64_t xb[] = {2, 5, 1, 7, 7, 0, 4, 5, 5, 4};
    enum { N = 10 };
    exp_pair p;
    memset(&p, 0, sizeof p);
    double md = 0, ma = 0, mb = 0;
    for (int i = 0; i < N; i++) {
        exp_pair_add(&p, xa[i], 1, xb[i], 1);
        md += (double)(xa[i] - xb[i]) / N;
        ma += (double)xa[i] / N;
        mb += (double)xb[i] / N;
    }
    double sd = 0, sa = 0, sb = 0;
    for (int i = 0; i < N; i++) {
        double d = (double)(xa[i] - xb[i]) - md;
        sd += d * d / (N - 1);
        sa += ((double)xa[i] - ma) * ((double)xa[i] - ma) / (N - 1);
        sb += ((double)xb[i] - mb) * ((double)xb[i] - mb) / (N - 1);
    }
    double t = 2.2621571627409915; /* Student t, 97.5%, 9 degrees of freedom */
    exp_estimate e;
    exp_pair_estimate(&p, &e);
    CHECK_NEAR(e.value, ma, 1e-12);
    CHECK_NEAR(e.base, mb, 1e-12);
    CHECK_NEAR(e.diff, md, 1e-12);
    CHECK_NEAR(e.dhi - e.diff, t * sqrt(sd / N), 1e-9);
    CHECK_NEAR(e.hi - e.value, t * sqrt(sa / N), 1e-9);
    CHECK_NEAR(e.uhi - e.diff, t * sqrt((sa + sb) / N), 1e-9);
    /* a ratio: 3 hits of 4 trials, then 1 of 2, ...: the value is hits over trials */
    memset(&p, 0, sizeof p);
    exp_pair_add(&p, 3, 4, 0, 0);
    exp_pair_add(&p, 1, 2, 0, 0);
    exp_pair_add(&p, 0, 1, 0, 0);
    exp_pair_estimate(&p, &e);
    CHECK_NEAR(e.value, 4.0 / 7.0, 1e-15);
    CHECK(isnan(e.diff)); /* no baseline observation */
}

TEST(experiment_paired_difference_is_right_and_narrower)
{
    /* edge 2 -> 3 with 2 seats: seat 1's share grows by exactly 1/12 */
    exp_options o = edge_options(20000, 2);
    const char *sweeps[] = {"edge=2,3"};
    o.sweeps = sweeps;
    o.nsweeps = 1;
    cJSON *r = et_run_json(&o);
    CHECK(r != NULL);
    if (r == NULL)
        return;
    const cJSON *d = diff_row(r, 1, "win_share", 1);
    CHECK(d != NULL);
    double v = cJSON_GetObjectItem(d, "value")->valuedouble;
    const cJSON *ci = cJSON_GetObjectItem(d, "ci95"), *cu = cJSON_GetObjectItem(d, "ci95_unpaired");
    double se = (at(ci, 1) - at(ci, 0)) / 2 / 1.96;
    CHECK(fabs(v - 1.0 / 12) < 4.5 * se);
    CHECK(at(ci, 0) < 1.0 / 12 && 1.0 / 12 < at(ci, 1));
    /* the same dice decide both settings but for a roll of 3: the paired interval must be far
     * narrower than the unpaired one (variance ratio about 0.08 / 0.49) */
    CHECK(at(ci, 1) - at(ci, 0) < 0.6 * (at(cu, 1) - at(cu, 0)));
    CHECK(cJSON_GetObjectItem(d, "narrowing")->valuedouble > 1.6);
    /* noise is not swept and the roll is the same die: the difference of roll is exactly 0 */
    const cJSON *roll = diff_row(r, 1, "roll", 0);
    CHECK(roll && cJSON_GetObjectItem(roll, "value")->valuedouble == 0);
    CHECK(roll && at(cJSON_GetObjectItem(roll, "ci95"), 1) == 0);
    cJSON_Delete(r);
}

TEST(experiment_rotation_removes_a_planted_seat_bias)
{
    /* edge 3, bots a and b that play alike: seat 1 wins 3/4 of the games */
    exp_options o = edge_options(6000, 2);
    const char *sets[] = {"edge=3"};
    o.sets = sets;
    o.nsets = 1;
    o.bots = "a,b";
    o.until = "points@1:1"; /* any experiment: one block then stop */
    cJSON *plain = et_run_json(&o);
    CHECK(plain != NULL);
    if (plain == NULL)
        return;
    const cJSON *s1 = cJSON_GetArrayItem(cJSON_GetObjectItem(plain, "seats"), 0);
    double share_a = cJSON_GetObjectItem(cJSON_GetObjectItem(s1, "win_share"), "value")->valuedouble;
    CHECK(share_a > 0.7); /* the bias, credited to bot a */
    cJSON_Delete(plain);

    o.rotate = true;
    o.until = NULL;
    cJSON *r = et_run_json(&o);
    CHECK(r != NULL);
    if (r == NULL)
        return;
    CHECK_INT(cJSON_GetObjectItem(r, "rotations")->valueint, 2);
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItem(r, "bots"))
    {
        /* each deal is won once by a and once by b: exactly one half, no spread at all */
        const cJSON *ws = cJSON_GetObjectItem(b, "win_share");
        CHECK(cJSON_GetObjectItem(ws, "value")->valuedouble == 0.5);
        CHECK(at(cJSON_GetObjectItem(ws, "ci95"), 0) == 0.5);
    }
    /* the seat advantage is reported apart: seat 1 gains 1/4 over 1/2 */
    const cJSON *adv = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "seat_advantage"), 0);
    const cJSON *a = cJSON_GetObjectItem(adv, "advantage");
    double v = cJSON_GetObjectItem(a, "value")->valuedouble;
    const cJSON *ci = cJSON_GetObjectItem(a, "ci95");
    double se = (at(ci, 1) - at(ci, 0)) / 2 / 1.96;
    CHECK(se > 0);
    CHECK(fabs(v - 0.25) < 4.5 * se);
    cJSON_Delete(r);
}

TEST(experiment_until_stops_at_the_same_block_for_any_thread_count)
{
    uint64_t games[2];
    for (int t = 0; t < 2; t++) {
        exp_options o = edge_options(1000000, t + 1);
        o.until = "win_share@1:0.01";
        cJSON *r = et_run_json(&o);
        CHECK(r != NULL);
        if (r == NULL)
            return;
        const cJSON *u = cJSON_GetObjectItem(r, "until");
        games[t] = (uint64_t)cJSON_GetObjectItem(u, "games")->valuedouble;
        CHECK(cJSON_IsTrue(cJSON_GetObjectItem(u, "stopped")));
        CHECK(cJSON_GetObjectItem(u, "halfwidth_reached")->valuedouble <= 0.01);
        CHECK_INT((long long)cJSON_GetObjectItem(r, "runs")->valuedouble, (long long)games[t]);
        cJSON_Delete(r);
    }
    CHECK_INT((long long)games[0], (long long)games[1]);
    /* p = 2/3 at 2 seats and edge 2: about 1.96^2 p (1-p) / 0.01^2 = 8536 games, so the first
     * block boundary past that */
    CHECK(games[0] >= 8000 && games[0] <= 11000);
}

TEST(experiment_sensitivity_ranks_the_key_that_matters_first)
{
    exp_options o = edge_options(5000, 2);
    o.sensitivity = true;
    o.metric = "win_share@1";
    cJSON *r = et_run_json(&o);
    CHECK(r != NULL);
    if (r == NULL)
        return;
    const cJSON *keys = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "sensitivity"), "keys");
    CHECK_INT(cJSON_GetArraySize(keys), 2);
    CHECK_STR(cJSON_GetObjectItem(cJSON_GetArrayItem(keys, 0), "key")->valuestring, "edge");
    /* edge 2 moves by 1 (10% rounded, at least 1): seat 1 gains 1/12 at edge 3 */
    const cJSON *up = cJSON_GetObjectItem(cJSON_GetArrayItem(keys, 0), "up");
    CHECK(cJSON_GetObjectItem(up, "key_value")->valuedouble == 3);
    double d = cJSON_GetObjectItem(cJSON_GetObjectItem(up, "difference"), "value")->valuedouble;
    CHECK(fabs(d - 1.0 / 12) < 0.02);
    /* noise changes nothing: its effect is exactly 0 */
    CHECK(cJSON_GetObjectItem(cJSON_GetArrayItem(keys, 1), "effect")->valuedouble == 0);
    cJSON_Delete(r);
}

TEST(experiment_rejects_bad_options)
{
    char err[512];
    FILE *f = fopen("/dev/null", "w");
    exp_options o = edge_options(100, 1);
    const char *bad_key[] = {"nope=1,2"};
    o.sweeps = bad_key;
    o.nsweeps = 1;
    CHECK_INT(experiment_run(&o, f, err, sizeof err), 2);
    CHECK(strstr(err, "ruleset key 'nope'") != NULL);
    const char *bad_range[] = {"edge=3:1:1"};
    o.sweeps = bad_range;
    CHECK_INT(experiment_run(&o, f, err, sizeof err), 2);
    CHECK(strstr(err, "STEP") != NULL);
    const char *ok[] = {"edge=1,2"};
    o.sweeps = ok;
    o.until = "nothing:0.1";
    CHECK_INT(experiment_run(&o, f, err, sizeof err), 2);
    CHECK(strstr(err, "no figure 'nothing'") != NULL);
    o.until = NULL;
    o.baseline = "5";
    CHECK_INT(experiment_run(&o, f, err, sizeof err), 2);
    CHECK(strstr(err, "no setting has these values") != NULL);
    fclose(f);
}

/* ---- the pair sums against a direct computation, small and large figures ------------------
 * On "scaled" (toy_kit.h): with scale above 2^22 the figures leave the game loop's 64-bit fast
 * path (exp_engine.c, pair64) for its exact one. */

/* The JSON difference row of `metric` (seat or 0) of setting i against exp_pair_add over the
 * same games: x and c of the setting (scale sa) and of the baseline (scale sb) from each roll. */
static void check_against_direct(const cJSON *r, int i, const char *metric, int seat, long sa,
                                 long sb, uint64_t runs, uint64_t seed)
{
    exp_pair p;
    memset(&p, 0, sizeof p);
    for (uint64_t g = 0; g < runs; g++) {
        rng chance;
        rng_seed_stream(&chance, seed, g, RNG_STREAM_CHANCE);
        int64_t roll = rng_die(&chance, 6);
        if (strcmp(metric, "big") == 0)
            exp_pair_add(&p, roll * roll * sa, roll, roll * roll * sb, roll);
        else /* the score of seat 2 */
            exp_pair_add(&p, 2 * roll * sa, 1, 2 * roll * sb, 1);
    }
    exp_estimate e;
    exp_pair_estimate(&p, &e);
    const cJSON *d = diff_row(r, i, metric, seat);
    CHECK(d != NULL);
    if (d == NULL)
        return;
    double v = cJSON_GetObjectItem(d, "value")->valuedouble;
    const cJSON *ci = cJSON_GetObjectItem(d, "ci95"), *cu = cJSON_GetObjectItem(d, "ci95_unpaired");
    double tol = 1e-12 * (fabs(e.diff) + fabs(e.dhi - e.dlo) + 1);
    CHECK_NEAR(v, e.diff, tol);
    CHECK_NEAR(at(ci, 0), e.dlo, tol);
    CHECK_NEAR(at(ci, 1), e.dhi, tol);
    CHECK_NEAR(at(cu, 1), e.uhi, 1e-12 * (fabs(e.uhi) + 1));
}

TEST(experiment_pair_sums_equal_a_direct_computation_small_and_large)
{
    /* baseline scale 3; partners small (5), large (2^23 + 1 and 2^31: past the fast path's
     * bound), and equal to the baseline (3 again: every difference 0) */
    long scale[] = {3, 5, 8388609, 2147483648L, 3};
    exp_options o = edge_options(3000, 2);
    o.game = &scaled_game;
    const char *sweeps[] = {"scale=3,5,8388609,2147483648,3"};
    o.sweeps = sweeps;
    o.nsweeps = 1;
    cJSON *r = et_run_json(&o);
    CHECK(r != NULL);
    if (r == NULL)
        return;
    for (int i = 1; i < 5; i++) {
        check_against_direct(r, i, "big", 0, scale[i], scale[0], o.runs, o.seed);
        check_against_direct(r, i, "points", 2, scale[i], scale[0], o.runs, o.seed);
    }
    /* a large baseline too: the baseline's own sums take the exact path */
    const char *sweeps2[] = {"scale=2147483648,7"};
    o.sweeps = sweeps2;
    cJSON *r2 = et_run_json(&o);
    CHECK(r2 != NULL);
    if (r2) {
        check_against_direct(r2, 1, "big", 0, 7, 2147483648L, o.runs, o.seed);
        check_against_direct(r2, 1, "points", 2, 7, 2147483648L, o.runs, o.seed);
    }
    cJSON_Delete(r2);
    cJSON_Delete(r);
}

/* ---- the fairness figures (exp_fair.c) on the planted seat bias ----------------------------
 * At edge e and N seats, seat 1's win share is e/6 + (1 - e/6)/N and every other seat's
 * (1 - e/6)/N, so seat 1 deviates from 1/N by e/6 (1 - 1/N), each other seat by -e/(6N):
 * seat_spread = first_seat = e/6 (1 - 1/N) exactly. */

static double planted_spread(int edge, int n)
{
    return edge / 6.0 * (1 - 1.0 / n);
}

/* The fairness estimate `name` of setting i ({value, ci95, n}). */
static const cJSON *fair_est(const cJSON *r, int i, const char *name)
{
    const cJSON *s = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "settings"), i);
    return cJSON_GetObjectItem(cJSON_GetObjectItem(s, "fairness"), name);
}

/* Whether value lies in the [lo, hi] of a ci95 array. */
static bool in_ci(const cJSON *ci, double value)
{
    return cJSON_GetArraySize(ci) == 2 && at(ci, 0) <= value && value <= at(ci, 1);
}

TEST(experiment_seat_spread_recovers_planted_shares_over_players)
{
    exp_options o = edge_options(20000, 2);
    const char *sweeps[] = {"players=2,3,4"};
    o.sweeps = sweeps;
    o.nsweeps = 1;
    o.metric = "seat_spread,first_seat";
    cJSON *r = et_run_json(&o);
    CHECK(r != NULL);
    if (r == NULL)
        return;
    for (int i = 0; i < 3; i++) {
        int n = i + 2;
        double want = planted_spread(2, n);
        const cJSON *sp = fair_est(r, i, "seat_spread"), *fs = fair_est(r, i, "first_seat");
        CHECK(sp != NULL && fs != NULL);
        if (sp == NULL || fs == NULL)
            continue;
        CHECK(in_ci(cJSON_GetObjectItem(sp, "ci95"), want));
        CHECK(in_ci(cJSON_GetObjectItem(fs, "ci95"), want));
        /* the definition: the largest |win share - 1/N| of the setting's own seats */
        const cJSON *s = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "settings"), i);
        const cJSON *seat;
        double most = 0;
        cJSON_ArrayForEach(seat, cJSON_GetObjectItem(cJSON_GetObjectItem(s, "report"), "seats"))
        {
            double w = cJSON_GetObjectItem(cJSON_GetObjectItem(seat, "win_share"), "value")
                           ->valuedouble;
            most = fmax(most, fabs(w - 1.0 / n));
        }
        CHECK_NEAR(cJSON_GetObjectItem(sp, "value")->valuedouble, most, 1e-12);
        /* the differences from 2 players, paired on the same deals */
        if (i > 0) {
            const cJSON *d = diff_row(r, i, "seat_spread", 0);
            CHECK(d != NULL);
            if (d)
                CHECK(in_ci(cJSON_GetObjectItem(d, "ci95"), want - planted_spread(2, 2)));
            d = diff_row(r, i, "first_seat", 0);
            CHECK(d != NULL);
            if (d)
                CHECK(in_ci(cJSON_GetObjectItem(d, "ci95"), want - planted_spread(2, 2)));
        }
    }
    /* exact sums: the same bytes at one thread */
    o.threads = 1;
    cJSON *r1 = et_run_json(&o);
    CHECK(r1 != NULL);
    if (r1) {
        cJSON_DeleteItemFromObject(r, "run");
        cJSON_DeleteItemFromObject(r1, "run");
        char *a = cJSON_PrintUnformatted(r), *b = cJSON_PrintUnformatted(r1);
        CHECK_STR(a, b);
        free(a);
        free(b);
        cJSON_Delete(r1);
    }
    cJSON_Delete(r);
}

TEST(experiment_seat_spread_intervals_cover_where_the_maximum_is_not_smooth)
{
    /* edge 0 at 4 seats: every seat at 1/N, all tied for the maximum at 0, where the spread's
     * estimate is biased upwards and an interval around it (the delta method) misses 0 more
     * often than 5% (the largest of four deviations); edge 1: the spread 1/8 and the
     * difference 1/8 from edge 0. Over 200 seeds each interval should miss at most 5% of the
     * time (10 misses expected): 19 misses or more have probability below 0.005 at 5%. */
    int miss_value0 = 0, miss_value1 = 0, miss_diff = 0;
    for (int seed = 0; seed < 200; seed++) {
        exp_options o = edge_options(1000, 1);
        o.seed = 1000 + (uint64_t)seed;
        o.players = 4;
        const char *sweeps[] = {"edge=0,1"};
        o.sweeps = sweeps;
        o.nsweeps = 1;
        cJSON *r = et_run_json(&o);
        CHECK(r != NULL);
        if (r == NULL)
            return;
        miss_value0 += !in_ci(cJSON_GetObjectItem(fair_est(r, 0, "seat_spread"), "ci95"), 0);
        miss_value1 += !in_ci(cJSON_GetObjectItem(fair_est(r, 1, "seat_spread"), "ci95"),
                              planted_spread(1, 4));
        const cJSON *d = diff_row(r, 1, "seat_spread", 0);
        miss_diff += d == NULL || !in_ci(cJSON_GetObjectItem(d, "ci95"), planted_spread(1, 4));
        cJSON_Delete(r);
    }
    CHECK(miss_value0 < 19);
    CHECK(miss_value1 < 19);
    CHECK(miss_diff < 19);
}

TEST(experiment_until_stops_on_seat_spread)
{
    uint64_t games[2];
    for (int t = 0; t < 2; t++) {
        exp_options o = edge_options(1000000, t + 1);
        o.players = 3;
        o.until = "seat_spread:0.01";
        cJSON *r = et_run_json(&o);
        CHECK(r != NULL);
        if (r == NULL)
            return;
        const cJSON *u = cJSON_GetObjectItem(r, "until");
        games[t] = (uint64_t)cJSON_GetObjectItem(u, "games")->valuedouble;
        CHECK(cJSON_IsTrue(cJSON_GetObjectItem(u, "stopped")));
        double hw = cJSON_GetObjectItem(u, "halfwidth_reached")->valuedouble;
        CHECK(hw <= 0.01);
        /* the half-width is the reported interval's */
        const cJSON *ci = cJSON_GetObjectItem(
            cJSON_GetObjectItem(cJSON_GetObjectItem(r, "fairness"), "seat_spread"), "ci95");
        CHECK_NEAR((at(ci, 1) - at(ci, 0)) / 2, hw, 1e-12);
        CHECK(in_ci(ci, planted_spread(2, 3)));
        cJSON_Delete(r);
    }
    CHECK_INT((long long)games[0], (long long)games[1]);
    /* seat 1's share p = 5/9 dominates: about (2.39^2) p (1-p) / 0.01^2 games (t at
     * 1 - 0.025/3), 14100; the first block boundary past it, not the cap */
    CHECK(games[0] >= 12000 && games[0] <= 20000);
}

/* The crossings of a seek report: how many, and the first one's interval. */
static int seek_first(const cJSON *r, double *lo, double *hi)
{
    const cJSON *cs = cJSON_GetObjectItem(r, "crossings");
    const cJSON *iv = cJSON_GetObjectItem(cJSON_GetArrayItem(cs, 0), "interval");
    *lo = cJSON_IsNumber(cJSON_GetArrayItem(iv, 0)) ? at(iv, 0) : NAN;
    *hi = cJSON_IsNumber(cJSON_GetArrayItem(iv, 1)) ? at(iv, 1) : NAN;
    return cJSON_GetArraySize(cs);
}

TEST(experiment_target_on_seat_spread_over_a_key_and_over_players)
{
    /* at 3 seats the spread is edge/9: 0.25 between edge 2 (0.222) and 3 (0.333) */
    exp_options o = edge_options(200000, 2);
    o.players = 3;
    o.target = "seat_spread=0.25";
    o.over = "edge=0:6";
    cJSON *r = et_run_json(&o);
    CHECK(r != NULL);
    if (r == NULL)
        return;
    double lo, hi;
    CHECK_INT(seek_first(r, &lo, &hi), 1);
    CHECK(lo <= 2.25 && 2.25 <= hi && hi - lo <= 1);
    cJSON_Delete(r);
    /* at edge 2 the spread is (1 - 1/N)/3: 0.2 between 2 (0.167) and 3 players (0.222) */
    o.players = 0;
    o.over = "players=2:4";
    o.target = "seat_spread=0.2";
    r = et_run_json(&o);
    CHECK(r != NULL);
    if (r == NULL)
        return;
    CHECK_INT(seek_first(r, &lo, &hi), 1);
    CHECK(lo <= 2.5 && 2.5 <= hi && hi - lo <= 1);
    cJSON_Delete(r);
}

/* Coverage of a share's interval (exp_pair_bounded: design-effect Wilson, exact at 0 and 1)
 * near the edges of [0, 1], against the true share, in a clustered design like a rotation's:
 * each deal plays two games whose wins share the deal's luck (the deal's chance q is p or 3p,
 * half each, so that the games of a deal are correlated and p's estimate varies more than a
 * binomial's). REPS repetitions of DEALS deals at p = 0.1% and 99.9%; the share of intervals
 * holding p must be 95% within 3 standard errors of REPS Bernoulli(0.95) draws, and no
 * interval may leave [0, 1]. */
TEST(experiment_share_interval_covers_near_the_edges)
{
    enum { REPS = 1000, DEALS = 4000 };
    const double ps[2] = {0.001, 0.999};
    for (int k = 0; k < 2; k++) {
        rng r;
        rng_seed(&r, 46 + (uint64_t)k);
        int covered = 0, outside = 0;
        for (int rep = 0; rep < REPS; rep++) {
            exp_pair p;
            memset(&p, 0, sizeof p);
            for (int d = 0; d < DEALS; d++) {
                /* q: 0.5p or 1.5p (for p near 1, the same about 1 - p), mean p */
                double miss = 1 - ps[k] < ps[k] ? 1 - ps[k] : ps[k];
                double qm = (rng_uniform(&r) < 0.5 ? 0.5 : 1.5) * miss;
                double q = ps[k] < 0.5 ? qm : 1 - qm;
                int64_t x = (rng_uniform(&r) < q) + (rng_uniform(&r) < q);
                exp_pair_add(&p, x, 2, 0, 0);
            }
            exp_estimate e;
            exp_pair_bounded(&p, STATS_SHARE, 1, &e);
            covered += e.lo <= ps[k] && ps[k] <= e.hi;
            outside += !(e.lo >= 0 && e.hi <= 1);
        }
        double se = sqrt(0.95 * 0.05 / REPS);
        CHECK(fabs((double)covered / REPS - 0.95) <= 3 * se);
        CHECK_INT(outside, 0);
    }
}
