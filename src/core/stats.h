/* stats.h — the statistics of a report, computed with GSL from exact accumulators. */
#ifndef GIOCHI_STATS_H
#define GIOCHI_STATS_H

#include <stdint.h>

#include "core/recorder.h"

/* Wilson score 95% interval for a share of hits out of n (hits may be fractional, as with
 * shared wins). n == 0 gives [0, 1]. */
void stats_wilson(double hits, double n, double *lo, double *hi);

/* The exact (Clopper-Pearson) 95% bound of a share seen in none or in every one of n
 * trials: a share at 0 keeps lo and gets hi = the 97.5% quantile of Beta(1, n); a share at 1
 * keeps hi and gets lo = the 2.5% quantile of Beta(n, 1); any other share, or n < 1, leaves
 * both. The interval every printed share gets at its edges (report, experiments,
 * tournaments), where a normal interval collapses and Wilson's is an approximation. */
void stats_edge_exact(double share, double n, double *lo, double *hi);

/* The 95% interval of a share of hits out of n: Wilson's inside, stats_edge_exact's at 0 and
 * at n. n == 0 gives [0, 1]. */
void stats_share_interval(double hits, double n, double *lo, double *hi);

/* The support of an estimated figure: any real number, a mean of counts (never below 0) or
 * a share (inside [0, 1]). */
typedef enum stats_support { STATS_REAL, STATS_NONNEG, STATS_SHARE } stats_support;

/* Below this many observations a mean's t interval is marked as approximate (a small-sample
 * note): the mean of a skewed count is far from normal there. */
enum { STATS_SMALL_N = 30 };

/* The two-sided interval, tail in each side (0.025 for 95%), of a figure estimated as value
 * with variance var on df degrees of freedom, inside its support s:
 *   STATS_REAL    value -+ t sqrt(var), t Student's (1 - tail) quantile on df;
 *   STATS_NONNEG  the same with the lower bound raised to 0 (a mean of counts is never
 *                 negative, so the raise costs no coverage);
 *   STATS_SHARE   Wilson's score interval at the effective sample size value(1-value)/var
 *                 (the design-effect Wilson interval: a paired, rotated or clustered share's
 *                 own variance), with t for z; it never leaves [0, 1]. A share of exactly 0
 *                 or 1 gets the exact (Clopper-Pearson) bound over `trials` trials at that
 *                 edge, as stats_edge_exact; a share with var 0 strictly inside is a point.
 * Writes NAN to both when value or var is NAN or df < 1. */
void stats_interval(double value, double var, double df, double tail, stats_support s,
                    double trials, double *lo, double *hi);

/* Summary of a METRIC_MEAN accumulator. */
typedef struct summary {
    int64_t n;
    double mean, sd;  /* sd: sample standard deviation (n-1); 0 when n < 2 */
    double lo, hi;    /* 95% interval of the mean (Student t, stats_interval with STATS_REAL);
                         equal to the mean when n < 2 */
    double min, max;
    bool has_quantiles;
    double q[5];      /* 5th, 25th, 50th, 75th, 95th percentiles (values taken by the data) */
} summary;

extern const double stats_quantile_levels[5];

/* Summarises a; quantiles need the histogram (absent when values spread too wide). */
void stats_summary(const acc *a, summary *s);

/* The p-quantile (0 < p <= 1) of a's histogram: the smallest observed value v with at least
 * p*n observations <= v. Requires a->count. */
double stats_quantile(const acc *a, double p);

/* Pearson chi-square test that k observed counts come from equal shares. Writes the
 * statistic and k-1 degrees of freedom; returns the p-value (1 when total is 0). */
double stats_chisq_equal(const double *observed, int k, double *chi2);

#endif
