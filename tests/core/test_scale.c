/* test_scale.c — figures at the scale of 10^12 games and beyond: no counter or sum wraps. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "core/recorder.h"
#include "core/stats.h"

/* 2*10^14 observations, half 10^6 and half 10^6 + 2 (accumulated as a merge of two parts
 * would add them): n * sumsq passes 2^127, so the variance takes the long double way. */
TEST(stats_summary_past_the_exact_range)
{
    acc part[2], a = {0};
    memset(part, 0, sizeof part);
    acc_add(&part[0], 1000000, 100000000000000LL);
    acc_add(&part[1], 1000002, 100000000000000LL);
    acc_merge(&a, &part[0]);
    acc_merge(&a, &part[1]);
    CHECK(a.n == 200000000000000LL);
    CHECK_INT(a.count[1000002 - a.lo], 100000000000000LL);
    summary s;
    stats_summary(&a, &s);
    CHECK_NEAR(s.mean, 1000001.0, 1e-9);
    CHECK_NEAR(s.sd, 1.0, 1e-6);
    CHECK(s.lo < s.mean && s.hi > s.mean);
    acc_free(&part[0]);
    acc_free(&part[1]);
    acc_free(&a);
}

/* Below 2^127 the numerator stays exact: 10^12 games of a length near 100. */
TEST(stats_summary_exact_at_10_12_games)
{
    acc a = {0};
    acc_add(&a, 99, 500000000000LL);
    acc_add(&a, 101, 500000000000LL);
    summary s;
    stats_summary(&a, &s);
    CHECK_NEAR(s.mean, 100.0, 1e-12);
    CHECK_NEAR(s.sd, sqrt(1e12 / (1e12 - 1)), 1e-12);
    acc_free(&a);
}
