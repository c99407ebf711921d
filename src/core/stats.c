/* stats.c — intervals, quantiles and tests with GSL's distribution functions. */
#include "core/stats.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

const double stats_quantile_levels[5] = {0.05, 0.25, 0.50, 0.75, 0.95};

void stats_wilson(double hits, double n, double *lo, double *hi)
{
    if (n <= 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double z = gsl_cdf_ugaussian_Qinv(0.025); /* 1.959964 */
    double p = hits / n, z2n = z * z / n;
    double centre = (p + z2n / 2) / (1 + z2n);
    double half = z * sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n);
    *lo = centre - half < 0 ? 0 : centre - half;
    *hi = centre + half > 1 ? 1 : centre + half;
    if (hits <= 0)
        *lo = 0;
    if (hits >= n)
        *hi = 1;
}

void stats_edge_exact(double share, double n, double *lo, double *hi)
{
    if (!(n >= 1))
        return;
    if (share >= 1)
        *lo = gsl_cdf_beta_Pinv(0.025, n, 1);
    else if (share <= 0)
        *hi = gsl_cdf_beta_Qinv(0.025, 1, n);
}

void stats_share_interval(double hits, double n, double *lo, double *hi)
{
    stats_wilson(hits, n, lo, hi);
    if (n > 0 && (hits <= 0 || hits >= n))
        stats_edge_exact(hits / n, n, lo, hi);
}

void stats_interval(double value, double var, double df, double tail, stats_support s,
                    double trials, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (isnan(value) || isnan(var) || !(df >= 1))
        return;
    if (var < 0)
        var = 0; /* rounding of a zero variance */
    double t = gsl_cdf_tdist_Qinv(tail, df);
    if (s == STATS_SHARE && (value <= 0 || value >= 1)) {
        *lo = *hi = value <= 0 ? 0 : 1;
        if (trials >= 1 && value <= 0)
            *hi = gsl_cdf_beta_Qinv(tail, 1, trials);
        else if (trials >= 1)
            *lo = gsl_cdf_beta_Pinv(tail, trials, 1);
        return;
    }
    if (s == STATS_SHARE && var > 0) {
        /* Wilson with z = t and n = value(1-value)/var: k = z^2/n, half-width
         * z sqrt(p(1-p)/n + z^2/(4n^2)) / (1 + k) = sqrt(z^2 var + k^2/4) / (1 + k) */
        double k = t * t * var / (value * (1 - value));
        double centre = (value + k / 2) / (1 + k);
        double half = sqrt(t * t * var + k * k / 4) / (1 + k);
        *lo = fmax(0, centre - half);
        *hi = fmin(1, centre + half);
        return;
    }
    double h = t * sqrt(var);
    *lo = value - h;
    *hi = value + h;
    if (s == STATS_NONNEG && *lo < 0)
        *lo = 0;
}

double stats_quantile(const acc *a, double p)
{
    double need = p * (double)a->n;
    int64_t seen = 0;
    for (int64_t i = 0; i < a->len; i++) {
        seen += a->count[i];
        if (a->count[i] > 0 && (double)seen >= need)
            return (double)(a->lo + i);
    }
    return (double)a->max;
}

void stats_summary(const acc *a, summary *s)
{
    s->n = a->n;
    s->mean = s->sd = s->lo = s->hi = s->min = s->max = 0;
    s->has_quantiles = false;
    if (a->n == 0)
        return;
    double n = (double)a->n;
    s->mean = (double)a->sum / n;
    s->min = (double)a->min;
    s->max = (double)a->max;
    s->lo = s->hi = s->mean;
    if (a->n >= 2) {
        /* Exact integer numerator: n*sumsq - sum^2 >= 0, so no cancellation; past 2^127
         * (n |values| beyond about 10^19) in long double, from the mean. */
        __int128 nsq, sq, num;
        double var;
        if (!__builtin_mul_overflow((__int128)a->n, a->sumsq, &nsq) &&
            !__builtin_mul_overflow(a->sum, a->sum, &sq) &&
            !__builtin_sub_overflow(nsq, sq, &num)) {
            var = (double)num / (n * (n - 1));
        } else {
            long double m = (long double)a->sum / (long double)a->n;
            var = (double)(((long double)a->sumsq - m * (long double)a->sum) / (n - 1));
        }
        s->sd = sqrt(var > 0 ? var : 0);
        double t = gsl_cdf_tdist_Pinv(0.975, n - 1);
        s->lo = s->mean - t * s->sd / sqrt(n);
        s->hi = s->mean + t * s->sd / sqrt(n);
    }
    if (a->count != NULL) {
        s->has_quantiles = true;
        for (int i = 0; i < 5; i++)
            s->q[i] = stats_quantile(a, stats_quantile_levels[i]);
    }
}

double stats_chisq_equal(const double *observed, int k, double *chi2)
{
    double total = 0;
    for (int i = 0; i < k; i++)
        total += observed[i];
    *chi2 = 0;
    if (total <= 0 || k < 2)
        return 1;
    double expect = total / k;
    for (int i = 0; i < k; i++)
        *chi2 += (observed[i] - expect) * (observed[i] - expect) / expect;
    return gsl_cdf_chisq_Q(*chi2, k - 1);
}
