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

/* Summary of a METRIC_MEAN accumulator. */
typedef struct summary {
    int64_t n;
    double mean, sd;  /* sd: sample standard deviation (n-1); 0 when n < 2 */
    double lo, hi;    /* 95% interval of the mean (Student t); equal to the mean when n < 2 */
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
