/* exp_fair.c — the fairness figures, which are no slot of their own: seat_spread (the largest
 * |win share - 1/N| over the seats) and first_seat (seat 1's win share - 1/N), their values and
 * paired differences with intervals, computed from every seat's exact win-share sums.
 *
 * A maximum is not smooth where two seats tie for it or where a share crosses 1/N, so the
 * delta method, which linearises, is wrong there. Instead the intervals are projections of
 * simultaneous ones: if every seat's deviation d_k = share_k - 1/N lies in its interval at
 * level 1 - 0.05/N (Bonferroni: all N at once with probability 95% or more), then max |d_k|
 * lies between the largest lower bound of |d_k| and the largest upper bound (each seat's
 * interval that of its share, the design-effect Wilson one of stats_interval, inside [0, 1],
 * so the spread's stays inside [0, 1 - 1/N]). For the
 * difference between a setting S and the baseline B, max_k |a_k| - max_j |b_j| equals
 * max over the signed a of min over the signed b of (a - b): each a_k - b_j and a_k + b_j in
 * its interval at level 1 - 0.05/(2 N_S N_B) bounds it the same way. Where the seat is the
 * same (seat k of S and of B, on the same games), the interval uses the paired covariance;
 * for two different seats the covariance is not kept, and |cov| <= sd sd' (Cauchy-Schwarz)
 * bounds the variance instead: wider, never too narrow. */
#include "experiment/experiment_priv.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

static const char *const derived_names[] = {"seat_spread", "first_seat"};

const char *exp_derived_name(int j)
{
    return derived_names[FIG_SEAT_SPREAD - j];
}

int exp_derived_find(const char *name)
{
    for (int i = 0; i < 2; i++)
        if (strcmp(name, derived_names[i]) == 0)
            return FIG_SEAT_SPREAD - i;
    return -1;
}

int exp_seat_slot(const setting *S, int k)
{
    if (S->nrot > 1)
        return S->ngame_slots + S->nbots * S->group + (k - 1);
    return S->ngame_slots + (k - 1) * S->group; /* a group's first slot: its win share */
}

/* One seat's deviation from 1/N: its estimate d, the variance of d, the games, the share's
 * shift (1/N) and its trials (seat-games: an edge's exact bound counts them). */
typedef struct dev {
    double d, var;
    long double n;
    double even, trials;
} dev;

/* Seat deviation of side a (or b) of pair p (its moments m), the seat's share less `even`. */
static dev side_dev(const exp_pair *p, const exp_moments *m, bool b, double even)
{
    dev r = {NAN, NAN, m->n, even, 0};
    if (!(b ? m->has_b : m->has_a))
        return r;
    r.d = (double)(b ? m->rb : m->ra) - even;
    r.trials = (double)((b ? p->bc : p->c) / RUN_WIN_UNIT);
    if (m->n >= 2)
        r.var = (double)((b ? m->vv : m->uu) / (m->n * (m->n - 1)));
    return r;
}

/* The lower and upper bounds of |d| when d lies in [lo, hi]. */
static void abs_bounds(double lo, double hi, double *alo, double *ahi)
{
    *alo = lo <= 0 && 0 <= hi ? 0 : fmin(fabs(lo), fabs(hi));
    *ahi = fmax(fabs(lo), fabs(hi));
}

/* The spread of n deviations with its projected interval (NAN when undefined). */
static void spread_of(const dev *d, int n, double *v, double *lo, double *hi)
{
    *v = *lo = *hi = NAN;
    double best = -1, blo = -1, bhi = -1;
    long double games = INFINITY;
    for (int k = 0; k < n; k++) {
        if (isnan(d[k].d))
            return;
        best = fmax(best, fabs(d[k].d));
        games = d[k].n < games ? d[k].n : games;
    }
    *v = best;
    if (!(games >= 2))
        return;
    for (int k = 0; k < n; k++) {
        if (isnan(d[k].var))
            return;
        /* the seat's share in its simultaneous interval, inside [0, 1] */
        double slo, shi, a, b;
        stats_interval(d[k].d + d[k].even, d[k].var, (double)(games - 1), 0.025 / n,
                       STATS_SHARE, d[k].trials, &slo, &shi);
        abs_bounds(slo - d[k].even, shi - d[k].even, &a, &b);
        blo = fmax(blo, a);
        bhi = fmax(bhi, b);
    }
    *lo = blo, *hi = bhi;
}

/* Every seat's own deviation in S. */
static void own_devs(const setting *S, dev *d)
{
    for (int k = 0; k < S->nseats; k++) {
        exp_moments m;
        exp_pair_moments(&S->acc[exp_seat_slot(S, k + 1)], &m);
        d[k] = side_dev(&S->acc[exp_seat_slot(S, k + 1)], &m, false, 1.0 / S->nseats);
    }
}

/* seat_spread of S against B. */
static void spread_est(const setting *S, const setting *B, exp_estimate *e)
{
    int na = S->nseats;
    dev a[GAME_MAX_SEATS];
    own_devs(S, a);
    spread_of(a, na, &e->value, &e->lo, &e->hi);
    if (B == NULL)
        return;
    /* B's seats: on S's games where S pairs a slot with them, else B's own */
    int nb = B->nseats;
    dev b[GAME_MAX_SEATS];
    double cov[GAME_MAX_SEATS]; /* cov(a_k, b_k) of the paired seats, NAN for none */
    for (int j = 0; j < nb; j++) {
        int jb = exp_seat_slot(B, j + 1);
        cov[j] = NAN;
        exp_moments m;
        if (j < na && S->pair[exp_seat_slot(S, j + 1)] == jb) {
            exp_pair_moments(&S->acc[exp_seat_slot(S, j + 1)], &m);
            b[j] = side_dev(&S->acc[exp_seat_slot(S, j + 1)], &m, true, 1.0 / nb);
            if (m.n >= 2 && m.has_a && m.has_b) /* every game alike: the seat's
                                                  difference is exactly 0 */
                cov[j] = m.alike ? sqrt(a[j].var * b[j].var)
                                 : (double)(m.uv / (m.n * (m.n - 1)));
        } else {
            exp_pair_moments(&B->acc[jb], &m);
            b[j] = side_dev(&B->acc[jb], &m, false, 1.0 / nb);
        }
    }
    double vb, lob, hib;
    spread_of(b, nb, &vb, &lob, &hib);
    (void)lob, (void)hib;
    if (isnan(e->value) || isnan(vb))
        return;
    e->base = vb;
    e->diff = e->value - vb;
    long double games = INFINITY;
    for (int k = 0; k < na; k++)
        games = a[k].n < games ? a[k].n : games;
    for (int j = 0; j < nb; j++)
        games = b[j].n < games ? b[j].n : games;
    if (!(games >= 2))
        return;
    if (S == B) /* the baseline against itself: every difference is 0 */
        e->dlo = e->dhi = 0;
    int m = 2 * na * nb;
    double t = gsl_cdf_tdist_Pinv(1 - 0.025 / m, (double)(games - 1));
    /* for each signed a (+-a_k) the least upper / lower bound over the signed b (+-b_j) of
     * a - b; the largest over a bounds the difference. pass 0: paired, 1: independent */
    for (int pass = 0; pass < 2; pass++) {
        double dlo = -INFINITY, dhi = -INFINITY;
        for (int k = 0; k < na; k++)
            for (int sa = -1; sa <= 1; sa += 2) {
                double mlo = INFINITY, mhi = INFINITY;
                for (int j = 0; j < nb; j++)
                    for (int sb = -1; sb <= 1; sb += 2) {
                        /* sa a_k - sb b_j: variance var_a + var_b - 2 sa sb cov */
                        double c;
                        if (pass == 1)
                            c = 0;
                        else if (j == k && !isnan(cov[j]))
                            c = sa * sb * cov[j];
                        else /* the worst covariance of two different seats */
                            c = -sqrt(a[k].var * b[j].var);
                        double v = a[k].var + b[j].var - 2 * c;
                        double h = t * sqrt(v > 0 ? v : 0);
                        double x = sa * a[k].d - sb * b[j].d;
                        mlo = fmin(mlo, x - h);
                        mhi = fmin(mhi, x + h);
                    }
                dlo = fmax(dlo, mlo);
                dhi = fmax(dhi, mhi);
            }
        if (isnan(dlo) || isnan(dhi))
            return;
        if (pass == 1)
            e->ulo = dlo, e->uhi = dhi;
        else if (S != B)
            e->dlo = dlo, e->dhi = dhi;
    }
}

void exp_fair_est(const setting *S, int j, const setting *B, exp_estimate *e)
{
    e->value = e->lo = e->hi = e->base = e->diff = e->dlo = e->dhi = e->ulo = e->uhi = NAN;
    if (j == FIG_SEAT_SPREAD) {
        spread_est(S, B, e);
        return;
    }
    /* first_seat: seat 1's slot (a share), shifted by 1/N of each side */
    exp_pair_bounded(&S->acc[exp_seat_slot(S, 1)], STATS_SHARE, RUN_WIN_UNIT, e);
    double a = 1.0 / S->nseats, b = B ? 1.0 / B->nseats : 0, d = a - b;
    e->value -= a, e->lo -= a, e->hi -= a;
    if (B == NULL) {
        e->base = e->diff = e->dlo = e->dhi = e->ulo = e->uhi = NAN;
        return;
    }
    e->base -= b;
    e->diff -= d, e->dlo -= d, e->dhi -= d, e->ulo -= d, e->uhi -= d;
}

void exp_fsums_of(const setting *S, int j, exp_fsums *f)
{
    memset(f, 0, sizeof *f);
    f->fig = j;
    f->nseats = S->nseats;
    f->support = STATS_SHARE;
    f->unit = RUN_WIN_UNIT;
    if (j == FIG_SEAT_SPREAD) {
        for (int k = 0; k < S->nseats; k++)
            f->p[k] = S->acc[exp_seat_slot(S, k + 1)];
        f->shift = 1.0 / S->nseats;
        return;
    }
    if (j == FIG_FIRST_SEAT) {
        f->p[0] = S->acc[exp_seat_slot(S, 1)];
        f->shift = 1.0 / S->nseats;
        return;
    }
    f->p[0] = S->acc[j];
    f->support = exp_slot_support(S, j);
    f->unit = S->slot[j].unit;
    f->shift = strcmp(S->slot[j].name, "seat_advantage") == 0 ? 1.0 / S->nseats : 0;
}

bool exp_fsums_merge(exp_fsums *dst, const exp_fsums *src)
{
    bool ok = dst->fig == src->fig && dst->nseats == src->nseats;
    int n = dst->fig == FIG_SEAT_SPREAD ? dst->nseats : 1;
    for (int k = 0; k < n && ok; k++)
        ok = exp_pair_merge(&dst->p[k], &src->p[k]);
    return ok;
}

void exp_fsums_value(const exp_fsums *f, double *value, double *lo, double *hi)
{
    if (f->fig == FIG_SEAT_SPREAD) {
        dev d[GAME_MAX_SEATS];
        for (int k = 0; k < f->nseats; k++) {
            exp_moments m;
            exp_pair_moments(&f->p[k], &m);
            d[k] = side_dev(&f->p[k], &m, false, f->shift);
        }
        spread_of(d, f->nseats, value, lo, hi);
        return;
    }
    exp_estimate e;
    exp_pair_bounded(&f->p[0], f->support, f->unit, &e);
    *value = e.value - f->shift;
    *lo = e.lo - f->shift;
    *hi = e.hi - f->shift;
}
