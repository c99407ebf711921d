/* seek.c — --target: goal seek. Where does a figure equal a value as one ruleset key or bot
 * parameter moves? A coarse sweep on common random numbers brackets every crossing, then
 * secant steps inside each bracket play one point at a time, in blocks, until its interval
 * either excludes the target (the bracket shrinks to it) or contains it at the half-width
 * asked for (the crossing is found). The search's stops pick the points whose figures strayed
 * furthest, so every point is then played again on fresh deals, as many as it had, and the
 * figures, intervals and crossings reported are those of the fresh games (a fixed sample the
 * stops never saw); a crossing is counted only where the fresh figures change side
 * significantly, and crossings in a stretch where they do not merge into one, marked flat. */
#include "experiment/search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "core/xalloc.h"
#include "report/report_csv.h"
#include "report/textcols.h"

enum {
    SEEK_GRID = 9,         /* points of the coarse sweep */
    SEEK_GRID_DEALS = 1000, /* deals of each */
    SEEK_BLOCK = 1000,     /* a refined point's first block; each next adds a quarter */
    SEEK_STEPS = 16,       /* refined points per bracket, at most */
    SEEK_MAX_CROSSINGS = 2 * SEEK_GRID, /* a sign change per pair of neighbours, probes too */
    SEEK_MAX_POINTS = 2 * SEEK_GRID + SEEK_MAX_CROSSINGS * SEEK_STEPS,
    TAG_GRID = 0, TAG_POINT = 3, TAG_FRESH = 6,
};

/* One point evaluated: the key's value, the exact sums of the figure and their estimate. */
typedef struct spoint {
    double v;
    exp_fsums sum;
    double value, lo, hi;
    uint64_t games;
    bool refined; /* played alone, after the sweep */
    bool turn;    /* first played as the turn of the sweep (probe_turns) */
} spoint;

/* One crossing: the bracket it was found in, its estimate, its interval and the point that
 * settled it (or -1). */
typedef struct crossing {
    double a, b;      /* the bracket's ends at the end */
    double estimate;  /* where the interpolated figure equals the target */
    double ilo, ihi;  /* the values whose interpolated interval contains the target */
    bool rising;      /* the figure rises through the target */
    bool reached;     /* a point's interval contains the target at the half-width asked */
    bool between;     /* the bracket shrank to two neighbouring values, neither holding it */
    bool dropped;     /* refined points undid the sweep's sign change */
    bool flat;        /* the fresh figures do not change side significantly across it: the
                         curve is too flat there to locate a crossing (one of several merged,
                         or one alone) */
    int point;        /* that point, or the nearest one */
} crossing;

typedef struct seeker {
    const exp_options *o;
    char fig[128], key[128];
    double target, hw, lo, hi;
    bool whole, share, hw_given;
    spoint pt[SEEK_MAX_POINTS];
    int npt;
    crossing cr[SEEK_MAX_CROSSINGS];
    int ncr, probes; /* probes: turns of the sweep played (probe_turns) */
    uint64_t plays, rounds;
} seeker;

/* Parses --target (FIGURE=VALUE[:HW]) and --over (KEY=LO:HI), and finds whether the key is
 * whole. Returns 0, or 2 with a message. */
static int parse_seek(seeker *k, char *err, size_t errlen)
{
    const exp_options *o = k->o;
    const char *eq = strrchr(o->target, '=');
    if (eq == NULL || eq == o->target || (size_t)(eq - o->target) >= sizeof k->fig)
        return snprintf(err, errlen, "--target '%s': expected FIGURE=VALUE[:HW] "
                                     "(e.g. bankruptcy_any=0.10)",
                        o->target),
               2;
    memcpy(k->fig, o->target, (size_t)(eq - o->target));
    char num[64];
    snprintf(num, sizeof num, "%s", eq + 1);
    char *colon = strchr(num, ':');
    if (colon) {
        *colon = '\0';
        if (!exp_number(colon + 1, &k->hw) || !(k->hw > 0))
            return snprintf(err, errlen, "--target '%s': the half-width must be a number above 0",
                            o->target),
                   2;
        k->hw_given = true;
    }
    if (!exp_number(num, &k->target))
        return snprintf(err, errlen, "--target '%s': VALUE must be a number", o->target), 2;
    if (o->over == NULL)
        return snprintf(err, errlen, "--target needs --over=KEY=LO:HI (e.g. entry_fee=0:200)"),
               2;
    eq = strchr(o->over, '=');
    const char *c2 = eq ? strchr(eq, ':') : NULL;
    if (eq == NULL || c2 == NULL || eq == o->over || (size_t)(eq - o->over) >= sizeof k->key)
        return snprintf(err, errlen, "--over '%s': expected KEY=LO:HI", o->over), 2;
    memcpy(k->key, o->over, (size_t)(eq - o->over));
    char a[64], b[64];
    snprintf(a, sizeof a, "%.*s", (int)(c2 - eq - 1), eq + 1);
    snprintf(b, sizeof b, "%s", c2 + 1);
    if (!exp_number(a, &k->lo) || !exp_number(b, &k->hi) || !(k->lo < k->hi))
        return snprintf(err, errlen, "--over '%s': LO:HI must be two numbers, LO below HI",
                        o->over),
               2;
    /* a whole key refuses a fraction; both ends must be accepted */
    char assign[256], e2[512];
    for (int end = 0; end < 2; end++) {
        char v[64];
        srch_value(v, sizeof v, end ? k->hi : k->lo);
        snprintf(assign, sizeof assign, "%s=%s", k->key, v);
        if (srch_probe(o, assign, e2, sizeof e2) != 0)
            return snprintf(err, errlen, "--over '%s': %s", o->over, e2), 2;
    }
    char v[64];
    srch_value(v, sizeof v, floor(k->lo) + 0.5);
    snprintf(assign, sizeof assign, "%s=%s", k->key, v);
    k->whole = strcmp(k->key, "players") == 0 || srch_probe(o, assign, e2, sizeof e2) != 0;
    if (k->whole && (k->lo != floor(k->lo) || k->hi != floor(k->hi)))
        return snprintf(err, errlen, "--over '%s': %s is a whole number", o->over, k->key), 2;
    return 0;
}

/* Point i's estimate from its sums. */
static void estimate(spoint *p)
{
    exp_fsums_value(&p->sum, &p->value, &p->lo, &p->hi);
}

/* The point at value v, or -1. */
static int find_point(const seeker *k, double v)
{
    for (int i = 0; i < k->npt; i++)
        if (k->pt[i].v == v)
            return i;
    return -1;
}

static void point_text(const seeker *k, double v, char *buf, size_t n)
{
    char val[64];
    srch_value(val, sizeof val, v);
    snprintf(buf, n, "%s=%s", k->key, val);
}

/* The coarse sweep: SEEK_GRID values spread over the range (whole ones distinct), played on
 * the same deals. Returns 0 or an error as srch_play. */
static int sweep(seeker *k, char *err, size_t errlen)
{
    double v[SEEK_GRID];
    int n = 0;
    for (int i = 0; i < SEEK_GRID; i++) {
        double x = k->lo + (k->hi - k->lo) * i / (SEEK_GRID - 1);
        if (k->whole)
            x = nearbyint(x);
        if (n == 0 || x != v[n - 1])
            v[n++] = x;
    }
    srch_point pt[SEEK_GRID];
    char text[SEEK_GRID][256];
    for (int i = 0; i < n; i++) {
        memset(&pt[i], 0, sizeof pt[i]);
        point_text(k, v[i], text[i], sizeof text[i]);
        pt[i].assign[0] = text[i];
        pt[i].nassign = 1;
    }
    exp_estimate est[SEEK_GRID];
    exp_fsums *sum = xcalloc(SEEK_GRID, sizeof *sum);
    uint64_t games[SEEK_GRID];
    srch_out so = {.est = est, .sum = sum, .games = games};
    const char *figs[1] = {k->fig};
    uint64_t deals = k->o->runs < SEEK_GRID_DEALS ? k->o->runs : SEEK_GRID_DEALS;
    int rc = srch_play(k->o, "--target", pt, n, k->o->rotate, figs, 1,
                       srch_seed(k->o->seed, TAG_GRID, 0), deals, 0, &so, err, errlen);
    if (rc != 0) {
        free(sum);
        return rc;
    }
    k->plays += so.plays;
    k->rounds++;
    k->share = so.share[0];
    if (!k->hw_given)
        k->hw = k->share ? 0.005 : fabs(k->target) > 0 ? 0.01 * fabs(k->target) : 0.01;
    for (int i = 0; i < n; i++) {
        spoint *p = &k->pt[k->npt++];
        p->v = v[i];
        p->sum = sum[i];
        p->games = games[i];
        estimate(p);
    }
    free(sum);
    srch_progress(k->o->progress, "%s: goal seek, sweep of %d points (%llu games)",
                  k->o->game->name, n, (unsigned long long)k->plays);
    return 0;
}

/* Whether point p's 95% interval contains the target; whether it has the half-width asked;
 * whether it excludes the target with room to spare: outside the 99% interval (a point is
 * played on while it neither excludes the target so nor has the half-width, and looking
 * after every block would exclude a true crossing too often at 95%). */
static bool holds(const seeker *k, const spoint *p)
{
    return p->lo <= k->target && k->target <= p->hi;
}
static bool precise(const seeker *k, const spoint *p)
{
    return (p->hi - p->lo) / 2 <= k->hw;
}
static bool excludes(const seeker *k, const spoint *p)
{
    double ratio = gsl_cdf_ugaussian_Pinv(0.995) / gsl_cdf_ugaussian_Pinv(0.975);
    return p->games >= 2 && !isnan(p->lo) &&
           fabs(p->value - k->target) > ratio * (p->hi - p->lo) / 2;
}
static bool decided(const seeker *k, const spoint *p)
{
    return p->games > 0 && (precise(k, p) || excludes(k, p) || p->games >= k->o->runs);
}

/* Plays the point at value v alone, block after block on fresh seeds, until it is decided
 * (see above; at most --runs deals). Returns 0
 * and *index, or an error as srch_play. */
static int refine(seeker *k, double v, int *index, char *err, size_t errlen)
{
    int i = find_point(k, v);
    if (i < 0) {
        if (k->npt == SEEK_MAX_POINTS)
            return snprintf(err, errlen, "--target: more than %d points", SEEK_MAX_POINTS), 4;
        i = k->npt++;
        memset(&k->pt[i], 0, sizeof k->pt[i]);
        k->pt[i].v = v;
        k->pt[i].refined = true;
    }
    spoint *p = &k->pt[i];
    char text[256];
    point_text(k, v, text, sizeof text);
    srch_point pt = {.assign = {text}, .nassign = 1};
    const char *figs[1] = {k->fig};
    while (!decided(k, p)) {
        uint64_t block = p->games / 4 > SEEK_BLOCK ? p->games / 4 : SEEK_BLOCK;
        if (block > k->o->runs - p->games)
            block = k->o->runs - p->games;
        exp_estimate est;
        exp_fsums sum;
        uint64_t games;
        srch_out so = {.est = &est, .sum = &sum, .games = &games};
        int rc = srch_play(k->o, "--target", &pt, 1, k->o->rotate, figs, 1,
                           srch_seed(k->o->seed, TAG_POINT, k->rounds++), block, 0, &so, err,
                           errlen);
        if (rc != 0)
            return rc;
        k->plays += so.plays;
        if (p->games == 0)
            p->sum = sum;
        else if (!exp_fsums_merge(&p->sum, &sum))
            return snprintf(err, errlen, "--target: the sums of %s do not fit", text), 4;
        p->games += games;
        estimate(p);
        srch_progress(k->o->progress, "%s: goal seek, %s (%llu games)", k->o->game->name, text,
                      (unsigned long long)k->plays);
    }
    *index = i;
    return 0;
}

/* The linear interpolant through two points, for the root finder. */
typedef struct segment {
    double a, fa, b, fb, target;
} segment;

static double segment_gap(double v, void *arg)
{
    const segment *s = arg;
    return s->fa + (s->fb - s->fa) * (v - s->a) / (s->b - s->a) - s->target;
}

/* Where the figure, interpolated linearly from a to b, equals the target (Brent's method on
 * the interpolant; its ends on either side of the target). */
static double interpolated_root(double a, double fa, double b, double fb, double target)
{
    if (fa == target)
        return a;
    if (fb == target)
        return b;
    segment s = {a, fa, b, fb, target};
    gsl_function F = {segment_gap, &s};
    gsl_root_fsolver *r = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (r == NULL)
        xalloc_fail("cannot allocate a root finder");
    double root = (a + b) / 2;
    if (gsl_root_fsolver_set(r, &F, a, b) == GSL_SUCCESS) {
        for (int it = 0; it < 100; it++) {
            if (gsl_root_fsolver_iterate(r) != GSL_SUCCESS)
                break;
            root = gsl_root_fsolver_root(r);
            if (gsl_root_test_interval(gsl_root_fsolver_x_lower(r), gsl_root_fsolver_x_upper(r),
                                       0, 1e-12 * (fabs(a) + fabs(b) + 1)) == GSL_SUCCESS)
                break;
        }
    }
    gsl_root_fsolver_free(r);
    return root;
}

/* The sign of point p's figure against the target: +1 above, -1 below (equal counts as
 * above). */
static int side(const seeker *k, const spoint *p)
{
    return p->value >= k->target ? 1 : -1;
}

/* The adjacent points (by value, among those in [a0, b0]) whose figures lie on either side of
 * the target, nearest the value near (NAN: the first pair). Returns false if none. */
static bool find_pair(const seeker *k, double a0, double b0, double near, int *ia, int *ib)
{
    int idx[SEEK_MAX_POINTS], n = 0;
    for (int i = 0; i < k->npt; i++)
        if (k->pt[i].v >= a0 && k->pt[i].v <= b0)
            idx[n++] = i;
    for (int i = 1; i < n; i++) /* by value (insertion: a few points) */
        for (int j = i; j > 0 && k->pt[idx[j - 1]].v > k->pt[idx[j]].v; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1], idx[j - 1] = t;
        }
    bool found = false;
    double best = INFINITY;
    for (int i = 0; i + 1 < n; i++) {
        const spoint *p = &k->pt[idx[i]], *q = &k->pt[idx[i + 1]];
        if (side(k, p) == side(k, q))
            continue;
        double d = isnan(near) ? 0 : near < p->v ? p->v - near : near > q->v ? near - q->v : 0;
        if (!found || d < best) {
            found = true, best = d;
            *ia = idx[i], *ib = idx[i + 1];
        }
        if (isnan(near))
            break;
    }
    return found;
}

/* Refines the crossing the sweep bracketed between values a0 and b0 into C: the ends of the
 * bracket whose interval still holds the target are played on until it excludes the target
 * or has the half-width asked; an end that holds it then settles the crossing; otherwise a
 * secant step plays the interpolated root, and the bracket shrinks to the sign change
 * nearest it. Returns 0 (C->dropped when refined points undo the sweep's sign change) or an
 * error as srch_play. */
static int bracket(seeker *k, double a0, double b0, crossing *C, char *err, size_t errlen)
{
    C->point = -1;
    double near = NAN;
    int ia = -1, ib = -1;
    for (int s = 0; s < SEEK_STEPS; s++) {
        if (!find_pair(k, a0, b0, near, &ia, &ib)) {
            C->dropped = true;
            return 0;
        }
        bool played = false;
        for (int e = 0; e < 2; e++) {
            int i = e ? ib : ia, j;
            const spoint *P = &k->pt[i];
            if (!decided(k, P)) {
                int rc = refine(k, P->v, &j, err, errlen);
                if (rc != 0)
                    return rc;
                played = true;
            }
        }
        if (played)
            continue; /* the sign change may have moved */
        for (int e = 0; e < 2 && C->point < 0; e++) {
            int i = e ? ib : ia;
            if (holds(k, &k->pt[i])) {
                C->point = i;
                C->reached = precise(k, &k->pt[i]);
            }
        }
        if (C->point >= 0)
            break;
        const spoint *A = &k->pt[ia], *B = &k->pt[ib];
        double v = interpolated_root(A->v, A->value, B->v, B->value, k->target);
        if (k->whole) {
            if (B->v - A->v <= 1) {
                C->between = true; /* two neighbours: no whole value between them */
                break;
            }
            v = fmin(B->v - 1, fmax(A->v + 1, nearbyint(v)));
        } else if (B->v - A->v <= (k->hi - k->lo) * 1e-4) {
            C->between = true;
            break;
        }
        int i;
        int rc = refine(k, v, &i, err, errlen);
        if (rc != 0)
            return rc;
        near = v;
    }
    if (ia < 0 && !find_pair(k, a0, b0, near, &ia, &ib)) {
        C->dropped = true;
        return 0;
    }
    const spoint *A = &k->pt[ia], *B = &k->pt[ib];
    C->rising = side(k, B) > 0;
    C->a = A->v, C->b = B->v;
    if (C->point < 0) /* the nearer end */
        C->point = fabs(A->value - k->target) < fabs(B->value - k->target) ? ia : ib;
    return 0;
}

/* Widens crossing C's interval to its bracket's ends when it lies between two neighbouring
 * values (whole ones, or reals closer than the search resolves) that both exclude it. */
static void between_ends(crossing *C)
{
    if (!C->between)
        return;
    C->ilo = isnan(C->ilo) ? C->a : fmin(C->ilo, C->a);
    C->ihi = isnan(C->ihi) ? C->b : fmax(C->ihi, C->b);
}

static int by_value(const void *a, const void *b)
{
    const spoint *p = a, *q = b;
    return (p->v > q->v) - (p->v < q->v);
}

/* The part of [x0, x1] where the linear interpolation of l (from l0 to l1) is at most the
 * target and that of h at least it; false if none. */
static bool contains_part(double x0, double x1, double l0, double l1, double h0, double h1,
                          double t, double *u0, double *u1)
{
    double a = x0, b = x1;
    /* l(x) <= t and h(x) >= t, each a half-line (or all, or nothing) within [x0, x1] */
    const double ends[2][2] = {{l0, l1}, {h0, h1}};
    for (int q = 0; q < 2; q++) {
        double f0 = ends[q][0] - t, f1 = ends[q][1] - t;
        if (q == 1)
            f0 = -f0, f1 = -f1; /* h >= t  <=>  t - h <= 0 */
        if (f0 > 0 && f1 > 0)
            return false;
        if (f0 <= 0 && f1 <= 0)
            continue;
        double x = x0 + (x1 - x0) * f0 / (f0 - f1);
        if (f0 > 0)
            a = fmax(a, x);
        else
            b = fmin(b, x);
    }
    if (a > b)
        return false;
    *u0 = a, *u1 = b;
    return true;
}

/* Crossing C's estimate (where the point estimates, interpolated linearly, cross the target
 * in the segment of its bracket nearest the point that settled it) and its interval: the
 * connected part, nearest the estimate, of the values whose interval, interpolated linearly
 * between the points evaluated (sorted by value), contains the target. */
static void locate(const seeker *k, const spoint *sorted, int n, crossing *C)
{
    const spoint *P = &k->pt[C->point];
    int at = 0;
    while (sorted[at].v != P->v)
        at++;
    int seg = -1;
    for (int i = 0; i + 1 < n; i++) {
        if (sorted[i].v < C->a || sorted[i + 1].v > C->b)
            continue;
        bool crosses = (sorted[i].value - k->target) * (sorted[i + 1].value - k->target) <= 0;
        int d = i < at ? at - (i + 1) : i - at; /* segments between it and the point */
        int best = seg < 0 ? 0 : seg < at ? at - (seg + 1) : seg - at;
        if (crosses && (seg < 0 || d < best))
            seg = i;
    }
    C->estimate = seg < 0 ? P->v
                          : interpolated_root(sorted[seg].v, sorted[seg].value, sorted[seg + 1].v,
                                              sorted[seg + 1].value, k->target);
    /* the parts of each segment, merged where they touch; the one nearest the estimate */
    C->ilo = C->ihi = NAN;
    double clo = NAN, chi = NAN, best = INFINITY;
    for (int i = 0; i + 1 <= n; i++) {
        double u0 = NAN, u1 = NAN;
        bool part = i + 1 < n && contains_part(sorted[i].v, sorted[i + 1].v, sorted[i].lo,
                                                sorted[i + 1].lo, sorted[i].hi, sorted[i + 1].hi,
                                                k->target, &u0, &u1);
        if (part && !isnan(chi) && u0 <= chi) {
            chi = fmax(chi, u1); /* continues the component */
            continue;
        }
        if (!isnan(chi)) { /* the component so far ends */
            double d = C->estimate < clo ? clo - C->estimate
                       : C->estimate > chi ? C->estimate - chi : 0;
            if (d < best)
                best = d, C->ilo = clo, C->ihi = chi;
        }
        clo = part ? u0 : NAN;
        chi = part ? u1 : NAN;
    }
}

/* The turns of the sweep: an inner sweep point whose figure is below both neighbours' (or above
 * both), all three on one side of the target, may hide two crossings between its neighbours
 * (the curve dips through the target and comes back). The parabola through the three points
 * says where the turn is and how far it goes: when its vertex lies across the target, or
 * nearer it than twice the widest half-width of the three intervals, the vertex's value is
 * played (refine); if it lands across, the two sign changes it makes are bracketed like any
 * other. Returns 0 or an error as srch_play. */
static int probe_turns(seeker *k, int ngrid, char *err, size_t errlen)
{
    double at[SEEK_GRID];
    int n = 0;
    for (int i = 1; i + 1 < ngrid; i++) {
        const spoint *a = &k->pt[i - 1], *p = &k->pt[i], *b = &k->pt[i + 1];
        bool dip = p->value < a->value && p->value < b->value;
        bool peak = p->value > a->value && p->value > b->value;
        if (!(dip || peak) || side(k, a) != side(k, p) || side(k, b) != side(k, p))
            continue;
        /* the vertex of the parabola through the three (Newton's divided differences) */
        double d1 = (p->value - a->value) / (p->v - a->v);
        double d2 = (b->value - p->value) / (b->v - p->v);
        double c = (d2 - d1) / (b->v - a->v);
        if (!(c != 0) || !isfinite(c))
            continue;
        double x = (a->v + p->v) / 2 - d1 / (2 * c);
        double fx = p->value + d1 * (x - p->v) + c * (x - p->v) * (x - a->v);
        double hw = fmax(fmax(a->hi - a->lo, p->hi - p->lo), b->hi - b->lo) / 2;
        bool across = (fx >= k->target ? 1 : -1) != side(k, p);
        if (!across && !(fabs(fx - k->target) <= 2 * hw))
            continue;
        x = fmin(b->v, fmax(a->v, x));
        if (k->whole)
            x = nearbyint(x);
        if (find_point(k, x) < 0)
            at[n++] = x;
    }
    for (int i = 0; i < n; i++) {
        int j;
        int rc = refine(k, at[i], &j, err, errlen);
        if (rc != 0)
            return rc;
        k->pt[j].turn = true;
        k->probes++;
    }
    return 0;
}

/* Plays every point again on fresh deals (seeds of their own, as many deals as the search
 * gave it) and replaces its sums and estimate with theirs: the games the search stopped on
 * select the larger deviations, these are a fixed sample. Returns 0 or an error as srch_play. */
static int reestimate(seeker *k, char *err, size_t errlen)
{
    const char *figs[1] = {k->fig};
    for (int i = 0; i < k->npt; i++) {
        spoint *p = &k->pt[i];
        char text[256];
        point_text(k, p->v, text, sizeof text);
        srch_point pt = {.assign = {text}, .nassign = 1};
        exp_estimate est;
        exp_fsums sum;
        uint64_t games;
        srch_out so = {.est = &est, .sum = &sum, .games = &games};
        int rc = srch_play(k->o, "--target", &pt, 1, k->o->rotate, figs, 1,
                           srch_seed(k->o->seed, TAG_FRESH, (uint64_t)i), p->games, 0, &so, err,
                           errlen);
        if (rc != 0)
            return rc;
        k->plays += so.plays;
        p->sum = sum;
        p->games = games;
        estimate(p);
        srch_progress(k->o->progress, "%s: goal seek, fresh games for %s (%llu games)",
                      k->o->game->name, text, (unsigned long long)k->plays);
    }
    return 0;
}

/* The side of the target point p's fresh interval lies on: +1 above, -1 below, 0 holding it
 * (or no interval). */
static int sure_side(const seeker *k, const spoint *p)
{
    return p->lo > k->target ? 1 : p->hi < k->target ? -1 : 0;
}

/* Keeps the crossings where the fresh figures change side significantly: the points, by
 * value, that exclude the target make a sequence of sides, and each change of side in it is
 * one crossing, between the last point of the one side and the first of the other. The
 * crossings located in one such stretch merge into one (the union of their intervals, flat
 * when more than one); a crossing in no such stretch (the figures on one side or holding the
 * target throughout) merges with its neighbours of the same kind into one, flat. With no
 * crossing at all, a point whose fresh interval holds the target makes one, flat, there (the
 * curve may touch the target where no point crosses it). */
static void significant(seeker *k, const spoint *sorted, int n)
{
    if (k->ncr == 0) { /* no sign change, but a fresh interval that holds the target: the
                          curve may touch it there, too flat to tell */
        int best = -1;
        for (int i = 0; i < n; i++)
            if (!isnan(sorted[i].lo) && sure_side(k, &sorted[i]) == 0 &&
                (best < 0 ||
                 fabs(sorted[i].value - k->target) < fabs(sorted[best].value - k->target)))
                best = i;
        if (best < 0)
            return;
        crossing *C = &k->cr[k->ncr++];
        memset(C, 0, sizeof *C);
        C->a = sorted[best > 0 ? best - 1 : best].v;
        C->b = sorted[best + 1 < n ? best + 1 : best].v;
        C->point = find_point(k, sorted[best].v);
        C->rising = sorted[best + 1 < n ? best + 1 : best].value >=
                    sorted[best > 0 ? best - 1 : best].value;
        locate(k, sorted, n, C);
        C->flat = true;
        return;
    }
    double from[SEEK_MAX_POINTS], to[SEEK_MAX_POINTS];
    int nst = 0, last = -1;
    for (int i = 0; i < n; i++) {
        int s = sure_side(k, &sorted[i]);
        if (s == 0)
            continue;
        if (last >= 0 && sure_side(k, &sorted[last]) != s)
            from[nst] = sorted[last].v, to[nst++] = sorted[i].v;
        last = i;
    }
    crossing out[SEEK_MAX_CROSSINGS];
    int nout = 0, prev_group = -2;
    for (int c = 0; c < k->ncr; c++) { /* by estimate */
        for (int d = c; d > 0 && k->cr[d - 1].estimate > k->cr[d].estimate; d--) {
            crossing t = k->cr[d];
            k->cr[d] = k->cr[d - 1], k->cr[d - 1] = t;
        }
    }
    for (int c = 0; c < k->ncr; c++) {
        const crossing *C = &k->cr[c];
        int group = -1; /* the stretch holding it, or -1 */
        for (int g = 0; g < nst && group < 0; g++)
            if (C->estimate >= from[g] && C->estimate <= to[g])
                group = g;
        if (nout > 0 && group == prev_group) { /* the same stretch, or neither */
            crossing *M = &out[nout - 1];
            M->flat = true;
            M->a = fmin(M->a, C->a), M->b = fmax(M->b, C->b);
            M->ilo = isnan(M->ilo) ? C->ilo : isnan(C->ilo) ? M->ilo : fmin(M->ilo, C->ilo);
            M->ihi = isnan(M->ihi) ? C->ihi : isnan(C->ihi) ? M->ihi : fmax(M->ihi, C->ihi);
            M->reached = false;
            if (!isnan(M->ilo))
                M->estimate = (M->ilo + M->ihi) / 2;
            continue;
        }
        out[nout] = *C;
        out[nout].flat = group < 0;
        nout++;
        prev_group = group;
    }
    memcpy(k->cr, out, (size_t)nout * sizeof *out);
    k->ncr = nout;
}

static int seek(seeker *k, char *err, size_t errlen)
{
    int rc = sweep(k, err, errlen);
    if (rc != 0)
        return rc;
    int ngrid = k->npt;
    /* a sweep point whose interval holds the target may sit on either side: it is played on
     * until decided, so that a curve that only touches the target is not missed */
    for (int i = 0; i < ngrid && rc == 0; i++)
        if (holds(k, &k->pt[i]) && !decided(k, &k->pt[i])) {
            int j;
            rc = refine(k, k->pt[i].v, &j, err, errlen);
        }
    if (rc == 0)
        rc = probe_turns(k, ngrid, err, errlen);
    if (rc != 0)
        return rc;
    /* every sign change between neighbouring points (the sweep's and the turns' probes)
     * brackets a crossing */
    spoint *first = xcalloc((size_t)k->npt, sizeof *first); /* the points before bracketing */
    int nfirst = k->npt;
    memcpy(first, k->pt, (size_t)nfirst * sizeof *first);
    qsort(first, (size_t)nfirst, sizeof *first, by_value);
    for (int i = 0; i + 1 < nfirst && rc == 0; i++)
        if (side(k, &first[i]) != side(k, &first[i + 1]) && k->ncr < SEEK_MAX_CROSSINGS) {
            crossing *C = &k->cr[k->ncr];
            memset(C, 0, sizeof *C);
            rc = bracket(k, first[i].v, first[i + 1].v, C, err, errlen);
            k->ncr += rc == 0 && !C->dropped;
        }
    free(first);
    if (rc == 0)
        rc = reestimate(k, err, errlen);
    if (rc != 0)
        return rc;
    spoint *sorted = xcalloc((size_t)k->npt, sizeof *sorted);
    memcpy(sorted, k->pt, (size_t)k->npt * sizeof *sorted);
    qsort(sorted, (size_t)k->npt, sizeof *sorted, by_value);
    for (int c = 0; c < k->ncr; c++) {
        crossing *C = &k->cr[c];
        locate(k, sorted, k->npt, C);
        between_ends(C);
        C->reached = C->reached && precise(k, &k->pt[C->point]);
    }
    significant(k, sorted, k->npt);
    free(sorted);
    return 0;
}

/* What played point p first: "sweep", "turn" (probe_turns) or "refine". */
static const char *phase(const spoint *p)
{
    return p->turn ? "turn" : p->refined ? "refine" : "sweep";
}

static cJSON *seek_json(const void *search, double wall)
{
    const seeker *k = search;
    const exp_options *o = k->o;
    cJSON *root = srch_json_head(o, "seek");
    cJSON_AddStringToObject(root, "figure", k->fig);
    cJSON_AddBoolToObject(root, "share", k->share);
    cJSON_AddNumberToObject(root, "target", k->target);
    cJSON_AddNumberToObject(root, "halfwidth", k->hw);
    cJSON_AddStringToObject(root, "key", k->key);
    cJSON_AddNumberToObject(root, "lo", k->lo);
    cJSON_AddNumberToObject(root, "hi", k->hi);
    cJSON_AddBoolToObject(root, "whole", k->whole);
    cJSON_AddBoolToObject(root, "rotate_seats", o->rotate);
    cJSON *cs = cJSON_AddArrayToObject(root, "crossings");
    for (int c = 0; c < k->ncr; c++) {
        const crossing *C = &k->cr[c];
        const spoint *P = &k->pt[C->point];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "estimate", C->estimate);
        cJSON *iv = cJSON_AddArrayToObject(x, "interval");
        cJSON_AddItemToArray(iv, isnan(C->ilo) ? cJSON_CreateNull() : cJSON_CreateNumber(C->ilo));
        cJSON_AddItemToArray(iv, isnan(C->ihi) ? cJSON_CreateNull() : cJSON_CreateNumber(C->ihi));
        cJSON_AddStringToObject(x, "direction", C->rising ? "rising" : "falling");
        cJSON_AddBoolToObject(x, "reached", C->reached);
        cJSON_AddBoolToObject(x, "between", C->between);
        cJSON_AddBoolToObject(x, "flat", C->flat);
        cJSON *b = cJSON_AddArrayToObject(x, "bracket");
        cJSON_AddItemToArray(b, cJSON_CreateNumber(C->a));
        cJSON_AddItemToArray(b, cJSON_CreateNumber(C->b));
        cJSON *pj = cJSON_AddObjectToObject(x, "point");
        cJSON_AddNumberToObject(pj, "value", P->v);
        cJSON_AddNumberToObject(pj, "games", (double)P->games);
        cJSON_AddItemToObject(pj, "figure", srch_json_est(P->value, P->lo, P->hi));
        cJSON_AddItemToArray(cs, x);
    }
    cJSON *ps = cJSON_AddArrayToObject(root, "points");
    for (int i = 0; i < k->npt; i++) {
        const spoint *p = &k->pt[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "value", p->v);
        cJSON_AddStringToObject(x, "phase", phase(p));
        cJSON_AddNumberToObject(x, "games", (double)p->games);
        cJSON_AddItemToObject(x, "figure", srch_json_est(p->value, p->lo, p->hi));
        cJSON_AddItemToArray(ps, x);
    }
    cJSON_AddNumberToObject(root, "turns_probed", k->probes);
    cJSON_AddNumberToObject(root, "games", (double)k->plays);
    cJSON_AddItemToObject(root, "run", srch_json_run(o, wall, k->plays));
    return root;
}

static void seek_text(const void *search, const cJSON *root, FILE *out, double wall)
{
    const seeker *k = search;
    const exp_options *o = k->o;
    char a[96], b[96], c[96], line[1024];
    exp_text_value(a, sizeof a, k->target, k->share, false);
    srch_value(b, sizeof b, k->lo);
    srch_value(c, sizeof c, k->hi);
    snprintf(line, sizeof line, "goal seek: %s = %s over %s in %s..%s%s; seed %llu", k->fig, a,
             k->key, b, c, k->whole ? " (whole)" : "", (unsigned long long)o->seed);
    srch_text_head(o, out, root, line);
    if (k->share)
        snprintf(a, sizeof a, "%.2f points", 100 * k->hw);
    else
        snprintf(a, sizeof a, "%.4g", k->hw);
    snprintf(line, sizeof line, "a sweep of the range on the same deals, then points played "
                                "until their 95%% interval excludes the target or has half-width "
                                "%s; every point then played again on as many fresh deals, whose "
                                "figures are the ones below",
             a);
    textcols_para(out, line, 0, TEXTCOLS_WIDTH);
    fputc('\n', out);
    fprintf(out, "%d crossing%s%s\n", k->ncr, k->ncr == 1 ? "" : "s",
            k->ncr == 0 ? " in the range (the sweep's figure stays on one side)" : ":");
    for (int c2 = 0; c2 < k->ncr; c2++) {
        const crossing *C = &k->cr[c2];
        const spoint *P = &k->pt[C->point];
        char est[64], lo[64], hi[64], pv[64], fig[96];
        snprintf(est, sizeof est, k->whole ? "%.1f" : "%.4g", C->estimate);
        srch_value(pv, sizeof pv, P->v);
        exp_text_interval(fig, sizeof fig, P->value, P->lo, P->hi, k->share, false);
        if (isnan(C->ilo)) {
            snprintf(line, sizeof line, "%s = %s (%s): no value's interval contains the target; "
                                        "nearest point %s: %s",
                     k->key, est, C->rising ? "rising" : "falling", pv, fig);
            textcols_hang(out, line, 2, 2, TEXTCOLS_WIDTH);
            continue;
        }
        if (k->whole) {
            snprintf(lo, sizeof lo, "%.0f", ceil(C->ilo - 1e-9));
            snprintf(hi, sizeof hi, "%.0f", floor(C->ihi + 1e-9));
        } else {
            snprintf(lo, sizeof lo, "%.4g", C->ilo);
            snprintf(hi, sizeof hi, "%.4g", C->ihi);
        }
        snprintf(line, sizeof line, "%s = %s [%s, %s] (%s%s);", k->key, est, lo, hi,
                 C->rising ? "rising" : "falling",
                 C->flat ? ", too flat to locate: the figure does not leave the target "
                           "significantly here"
                 : C->between ? ", between two neighbouring values"
                 : C->reached ? "" : ", half-width not reached within --runs");
        char at[192];
        snprintf(at, sizeof at, "at %s: %s", pv, fig);
        /* on one line when it fits, else the point on a line of its own */
        if (2 + textcols_width(line) + 1 + textcols_width(at) <= TEXTCOLS_WIDTH) {
            fprintf(out, "  %s %s\n", line, at);
        } else {
            textcols_hang(out, line, 2, 2, TEXTCOLS_WIDTH);
            textcols_hang(out, at, 4, 2, TEXTCOLS_WIDTH);
        }
    }
    fprintf(out, "\npoints evaluated (%d):\n", k->npt);
    spoint *sorted = xcalloc((size_t)k->npt, sizeof *sorted);
    memcpy(sorted, k->pt, (size_t)k->npt * sizeof *sorted);
    qsort(sorted, (size_t)k->npt, sizeof *sorted, by_value);
    for (int i = 0; i < k->npt; i++) {
        const spoint *p = &sorted[i];
        srch_value(a, sizeof a, p->v);
        exp_text_interval(b, sizeof b, p->value, p->lo, p->hi, k->share, false);
        fprintf(out, "  %-12s %8llu  %-26s%s\n", a, (unsigned long long)p->games, b,
                p->turn ? " (turn)" : p->refined ? "" : " (sweep)");
    }
    free(sorted);
    srch_text_tail(o, out, wall, k->plays);
}

static void seek_csv(const void *search, FILE *out)
{
    const seeker *k = search;
    fprintf(out, "row,value,games,figure,figure_lo,figure_hi,interval_lo,interval_hi\n");
    for (int c = 0; c < k->ncr; c++) {
        const crossing *C = &k->cr[c];
        const spoint *P = &k->pt[C->point];
        fputs("crossing,", out);
        report_csv_num(out, C->estimate, C->ilo, C->ihi);
        fprintf(out, ",%llu,", (unsigned long long)P->games);
        report_csv_estimate(out, P->value, P->lo, P->hi);
        fputc(',', out);
        report_csv_num(out, C->ilo, C->ilo, C->ihi);
        fputc(',', out);
        report_csv_num(out, C->ihi, C->ilo, C->ihi);
        fputc('\n', out);
    }
    for (int i = 0; i < k->npt; i++) {
        const spoint *p = &k->pt[i];
        fprintf(out, "%s,%.17g,%llu,", phase(p), p->v, (unsigned long long)p->games);
        report_csv_estimate(out, p->value, p->lo, p->hi);
        fputs(",,\n", out);
    }
}

static const srch_writer seek_writer = {seek_json, seek_csv, seek_text};

int seek_run(const exp_options *o, FILE *out, char *err, size_t errlen)
{
    double t0 = clock_seconds();
    seeker *k = xcalloc(1, sizeof *k);
    k->o = o;
    int rc = parse_seek(k, err, errlen);
    if (rc == 0)
        rc = seek(k, err, errlen);
    rc = srch_finish(o, rc, out, t0, &seek_writer, k);
    free(k);
    return rc;
}
