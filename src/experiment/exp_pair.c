/* exp_pair.c — the exact paired sums of one figure of a setting and of the baseline on the same
 * games, and their estimates: a ratio, a difference and their 95% intervals (experiment.h);
 * and what kind of figure a slot is (a share, a mean never below 0, any real). */
#include "experiment/experiment_priv.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "core/registry.h"

void exp_pair_add(exp_pair *p, int64_t x, int64_t c, int64_t bx, int64_t bc)
{
    p->n++;
    own_cross_add(p, x, c, bx, bc);
    p->bx += bx;
    p->bc += bc;
    p->bxx += (__int128)bx * bx;
    p->bxc += (__int128)bx * bc;
    p->bcc += (__int128)bc * bc;
}

void exp_pair_complete(exp_pair *p, int64_t ca, int64_t cb, bool self)
{
    __int128 n = p->n;
    if (ca) {
        p->c = ca * n;
        p->xc = ca * p->x;
        p->cc = (__int128)ca * ca * n;
    }
    if (self) {
        p->bx = p->x, p->bc = p->c, p->bxx = p->xx, p->bxc = p->xc, p->bcc = p->cc;
        p->x_bx = p->xx, p->x_bc = p->xc, p->c_bx = p->xc, p->c_bc = p->cc;
        return;
    }
    if (ca && cb) {
        p->bc = cb * n;
        p->bxc = cb * p->bx;
        p->bcc = (__int128)cb * cb * n;
        p->x_bc = cb * p->x;
        p->c_bx = ca * p->bx;
        p->c_bc = (__int128)ca * cb * n;
    }
}

bool exp_pair_merge(exp_pair *d, const exp_pair *s)
{
    bool ok = !__builtin_add_overflow(d->n, s->n, &d->n);
    __int128 *dst[] = {&d->x,  &d->c,  &d->xx,  &d->xc,  &d->cc,   &d->bx,   &d->bc,
                       &d->bxx, &d->bxc, &d->bcc, &d->x_bx, &d->x_bc, &d->c_bx, &d->c_bc};
    const __int128 *src[] = {&s->x,  &s->c,  &s->xx,  &s->xc,  &s->cc,   &s->bx,   &s->bc,
                             &s->bxx, &s->bxc, &s->bcc, &s->x_bx, &s->x_bc, &s->c_bx, &s->c_bc};
    for (size_t i = 0; i < sizeof dst / sizeof *dst; i++)
        ok = !__builtin_add_overflow(*dst[i], *src[i], dst[i]) && ok;
    return ok;
}

/* The ratio *r = Σx/Σc of one side's sums over n games (c = Σc, not 0), and the sum of
 * squares of its games' influences u = (x - R c) / mean(c) from the second moments. */
static long double influence_sq(__int128 x, long double c, __int128 xx, __int128 xc, __int128 cc,
                                long double n, long double *r)
{
    long double ratio = (long double)x / c, m = c / n;
    long double uu =
        ((long double)xx - 2 * ratio * (long double)xc + ratio * ratio * (long double)cc) / (m * m);
    *r = ratio;
    return uu < 0 ? 0 : uu; /* rounding of a zero variance */
}

void exp_pair_moments(const exp_pair *p, exp_moments *m)
{
    m->n = (long double)p->n;
    m->ra = m->rb = m->uu = m->vv = m->uv = 0;
    m->has_a = p->c != 0;
    m->has_b = p->bc != 0;
    long double n = m->n, c = (long double)p->c, bc = (long double)p->bc;
    if (m->has_a)
        m->uu = influence_sq(p->x, c, p->xx, p->xc, p->cc, n, &m->ra);
    if (m->has_b)
        m->vv = influence_sq(p->bx, bc, p->bxx, p->bxc, p->bcc, n, &m->rb);
    m->alike = p->xx - 2 * p->x_bx + p->bxx == 0 && p->cc - 2 * p->c_bc + p->bcc == 0;
    if (m->has_a && m->has_b && p->n >= 2) {
        long double mc = c / n, mb = bc / n, ra = m->ra, rb = m->rb;
        m->uv = ((long double)p->x_bx - rb * (long double)p->x_bc - ra * (long double)p->c_bx +
                 ra * rb * (long double)p->c_bc) /
                (mc * mb);
    }
}

/* The linearised ratio estimator: a game's influence on Σx/Σc is u = (x - R c) / mean(c), and
 * var(Σx/Σc) ≈ Σu² / (n (n-1)) (the mean of u is 0 exactly). For a difference of two ratios on
 * the same games, u - v replaces u, hence the cross sums. */
void exp_pair_estimate(const exp_pair *p, exp_estimate *e)
{
    e->value = e->lo = e->hi = e->base = e->diff = e->dlo = e->dhi = e->ulo = e->uhi = NAN;
    exp_moments m;
    exp_pair_moments(p, &m);
    long double n = m.n, ra = m.ra, rb = m.rb, uu = m.uu, vv = m.vv, uv = m.uv;
    if (m.has_a)
        e->value = (double)ra;
    if (m.has_b)
        e->base = (double)rb;
    if (p->n < 2)
        return;
    double t = gsl_cdf_tdist_Pinv(0.975, (double)(p->n - 1));
    long double scale = n * (n - 1);
    if (m.has_a) {
        double hw = t * (double)sqrtl(uu / scale);
        e->lo = e->value - hw;
        e->hi = e->value + hw;
    }
    if (m.has_a && m.has_b) {
        long double vd = uu + vv - 2 * uv;
        /* every game alike under both settings: the differences are all 0, exactly (the
         * floating sum above would leave a rounding residue) */
        if (vd < 0 || m.alike)
            vd = 0;
        e->diff = (double)(ra - rb);
        double hw = t * (double)sqrtl(vd / scale);
        double uhw = t * (double)sqrtl((uu + vv) / scale);
        e->dlo = e->diff - hw;
        e->dhi = e->diff + hw;
        e->ulo = e->diff - uhw;
        e->uhi = e->diff + uhw;
    }
}

void exp_pair_bounded(const exp_pair *p, stats_support s, int64_t unit, exp_estimate *e)
{
    exp_pair_estimate(p, e);
    if (isnan(e->value) || p->n < 2)
        return;
    exp_moments m;
    exp_pair_moments(p, &m);
    double trials = unit > 0 ? (double)(p->c / unit) : (double)p->c;
    stats_interval(e->value, (double)(m.uu / (m.n * (m.n - 1))), (double)(p->n - 1), 0.025, s,
                   trials, &e->lo, &e->hi);
    if (s == STATS_SHARE && !isnan(e->diff)) {
        e->dlo = fmax(e->dlo, -1), e->dhi = fmin(e->dhi, 1);
        e->ulo = fmax(e->ulo, -1), e->uhi = fmin(e->uhi, 1);
    }
}

/* Whether slot j of S is a share (shown in percent): a win share, a seat advantage, the ties,
 * no-winner and end figures, or a game metric that is a rate. */
bool exp_is_share(const setting *S, int j, const game_type *g)
{
    if (exp_derived(j))
        return true; /* differences of shares */
    const char *n = S->slot[j].name;
    if (strcmp(n, "win_share") == 0 || strcmp(n, "seat_advantage") == 0 ||
        strcmp(n, "ties") == 0 || strcmp(n, "no_winner") == 0 || strncmp(n, "ended.", 6) == 0)
        return true;
    for (int m = 0; g->metrics && g->metrics[m].name; m++)
        if (strcmp(g->metrics[m].name, n) == 0)
            return g->metrics[m].kind == METRIC_RATE;
    return false;
}

stats_support exp_slot_support(const setting *S, int j)
{
    const game_type *g = S->cfg[0].game;
    if (exp_derived(j) || exp_is_share(S, j, g))
        return STATS_SHARE;
    const char *n = S->slot[j].name;
    if (strcmp(n, "length") == 0 || strcmp(n, "rank") == 0)
        return STATS_NONNEG;
    if (strcmp(n, g->score_name) == 0)
        return g->score_signed ? STATS_REAL : STATS_NONNEG;
    return registry_metric_signed(g, n) ? STATS_REAL : STATS_NONNEG;
}
