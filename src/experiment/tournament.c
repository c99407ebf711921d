/* tournament.c — --tournament: every table of a list of bots, seats rotated on paired deals;
 * Bradley–Terry ratings (Plackett–Luce for tables of more seats) with intervals, a cross
 * table and the draw rate; and --sprt, a sequential probability ratio test between two bots
 * in the manner of fishtest. */
#include "experiment/search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_vector.h>

#include "config/botspec.h"
#include "core/stats.h"
#include "core/xalloc.h"
#include "report/report_csv.h"
#include "report/textcols.h"

enum {
    TOUR_MAX_BOTS = 16,
    TOUR_MAX_TABLES = 200,
    TAG_TABLE = 4, TAG_SPRT = 5, TAG_SPRT_FRESH = 7,
    SPRT_BLOCK = 50, /* deals of the SPRT's first look; each next adds a sixteenth more */
};

/* One table: the bots at it (indices into the list) and what they won. */
typedef struct table {
    int nb, bot[GAME_MAX_SEATS];
    double wins[GAME_MAX_SEATS]; /* win units / RUN_WIN_UNIT: games won, ties shared */
    double share[GAME_MAX_SEATS], lo[GAME_MAX_SEATS], hi[GAME_MAX_SEATS];
    double games;                /* games played (deals x rotations) */
    double draws;                /* share of games without a single winner */
    double deff;                 /* design effect: clustered over binomial variance */
} table;

typedef struct tourney {
    const exp_options *o;
    int nbots, nseats;
    char bot[TOUR_MAX_BOTS][BOT_SPEC_MAX];
    table *t;
    int nt;
    double theta[TOUR_MAX_BOTS], se[TOUR_MAX_BOTS]; /* log-strengths, centred, and their SE */
    double draws;                                    /* over every table */
    uint64_t plays;
    /* --sprt */
    double elo0, elo1, alpha, beta, llr, la, lb;
    int verdict; /* 0 none (cap), 1 H1, -1 H0 */
    uint64_t sdeals; /* deals the test played */
    uint64_t fdeals; /* fresh deals the score is estimated on after the stop */
    double tscore;   /* the first bot's score over the test's own deals (biased by the stop) */
} tourney;

/* Reads the --tournament list into t->bot (canonical, distinct). Returns 0, or 2. */
static int parse_list(tourney *t, char *err, size_t errlen)
{
    const exp_options *o = t->o;
    const game_type *g = o->game;
    char buf[4096];
    if (strlen(o->tournament) >= sizeof buf)
        return snprintf(err, errlen, "--tournament: too long"), 2;
    strcpy(buf, o->tournament);
    t->nseats = o->players ? o->players : g->default_seats;
    if (t->nseats < 2)
        t->nseats = 2;
    if (t->nseats < g->min_seats || t->nseats > g->max_seats)
        return snprintf(err, errlen, "--tournament: %s is for %d-%d players, not %d", g->name,
                        g->min_seats, g->max_seats, t->nseats),
               2;
    char *rest = buf;
    for (char *b = strsep(&rest, ","); b; b = strsep(&rest, ",")) {
        if (t->nbots == TOUR_MAX_BOTS)
            return snprintf(err, errlen, "--tournament: at most %d bots", TOUR_MAX_BOTS), 2;
        seat_spec spec;
        char e2[512];
        if (botspec_parse_at(g, b, t->nseats, &spec, t->bot[t->nbots], BOT_SPEC_MAX, e2,
                             sizeof e2) != 0)
            return snprintf(err, errlen, "--tournament: %s", e2), 2;
        for (int i = 0; i < t->nbots; i++)
            if (strcmp(t->bot[i], t->bot[t->nbots]) == 0)
                return snprintf(err, errlen, "--tournament: %s is listed twice", t->bot[i]), 2;
        t->nbots++;
    }
    if (t->nbots < 2)
        return snprintf(err, errlen, "--tournament needs two bots or more (BOT,BOT,...)"), 2;
    if (t->nbots < t->nseats)
        return snprintf(err, errlen,
                        "--tournament: %d seats need %d bots or more (every table seats "
                        "distinct bots)",
                        t->nseats, t->nseats),
               2;
    if (o->sprt && t->nbots != 2)
        return snprintf(err, errlen, "--sprt compares two bots: give --tournament=BOT,BOT"), 2;
    return 0;
}

/* Sorts table T's bots by their canonical descriptions: a table seats its bots in that order
 * whatever order the list gives them, so its rotations (and its games) are the same. */
static void seat_by_name(const tourney *t, table *T)
{
    for (int i = 1; i < T->nb; i++)
        for (int j = i; j > 0 && strcmp(t->bot[T->bot[j - 1]], t->bot[T->bot[j]]) > 0; j--) {
            int x = T->bot[j];
            T->bot[j] = T->bot[j - 1];
            T->bot[j - 1] = x;
        }
}

/* The seed of table T under the run's seed: from its bots' canonical descriptions in seating
 * order (FNV-1a, each ended by a newline), so a table plays the same deals wherever the list
 * puts its bots and whatever other bots the list holds. */
static uint64_t table_seed(const tourney *t, const table *T)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int k = 0; k < T->nb; k++)
        for (const char *c = t->bot[T->bot[k]];; c++) {
            h = (h ^ (unsigned char)(*c ? *c : '\n')) * 0x100000001b3ull;
            if (*c == '\0')
                break;
        }
    return srch_seed(t->o->seed, TAG_TABLE, h);
}

/* Every table: each combination of nseats bots of the list (its bots seated by name, but for
 * --sprt's one table, whose first bot is the one tested). */
static int make_tables(tourney *t, char *err, size_t errlen)
{
    int pick[GAME_MAX_SEATS];
    for (int i = 0; i < t->nseats; i++)
        pick[i] = i;
    t->t = xcalloc(TOUR_MAX_TABLES, sizeof *t->t);
    for (;;) {
        if (t->nt == TOUR_MAX_TABLES)
            return snprintf(err, errlen, "--tournament: more than %d tables", TOUR_MAX_TABLES),
                   2;
        table *T = &t->t[t->nt++];
        T->nb = t->nseats;
        memcpy(T->bot, pick, sizeof pick);
        if (!t->o->sprt)
            seat_by_name(t, T);
        int i = t->nseats - 1;
        while (i >= 0 && pick[i] == t->nbots - t->nseats + i)
            i--;
        if (i < 0)
            break;
        pick[i]++;
        for (int j = i + 1; j < t->nseats; j++)
            pick[j] = pick[j - 1] + 1;
    }
    return 0;
}

/* A share of exactly 0 or 1 gives the normal interval no spread to show ([1, 1] after n deals
 * all won): such a share gets the exact (Clopper-Pearson) 95% bound of a proportion seen in
 * every one of n trials, or in none (stats_edge_exact), each deal taken as one trial (its
 * games, one a seat order, are not independent), so that a bot that won every game is not
 * claimed to win always. */
static void boundary_interval(double share, double deals, double *lo, double *hi)
{
    stats_edge_exact(share, deals, lo, hi);
}

/* Plays table T on `deals` deals of seed seed, seats rotated, into its fields. */
static int play_table(tourney *t, table *T, uint64_t seed, uint64_t deals, char *err,
                      size_t errlen)
{
    char bots[GAME_MAX_SEATS * BOT_SPEC_MAX];
    size_t used = 0;
    for (int k = 0; k < T->nb; k++)
        used += (size_t)snprintf(bots + used, sizeof bots - used, "%s%s", k ? "," : "",
                                 t->bot[T->bot[k]]);
    srch_point p = {.bots = bots};
    char names[GAME_MAX_SEATS][32];
    const char *figs[GAME_MAX_SEATS + 2];
    for (int k = 0; k < T->nb; k++) {
        snprintf(names[k], sizeof names[k], "win_share@%d", k + 1);
        figs[k] = names[k];
    }
    figs[T->nb] = "ties";
    figs[T->nb + 1] = "no_winner";
    exp_estimate est[GAME_MAX_SEATS + 2];
    exp_fsums sum;
    uint64_t games;
    srch_out so = {.est = est, .sum = &sum, .games = &games};
    exp_options o2 = *t->o;
    o2.players = T->nb;
    int rc = srch_play(&o2, "--tournament", &p, 1, true, figs, T->nb + 2, seed, deals, 0, &so,
                       err, errlen);
    if (rc != 0)
        return rc;
    t->plays += so.plays;
    T->games = (double)games * T->nb;
    for (int k = 0; k < T->nb; k++) {
        T->share[k] = est[k].value, T->lo[k] = est[k].lo, T->hi[k] = est[k].hi;
        boundary_interval(T->share[k], (double)games, &T->lo[k], &T->hi[k]);
        T->wins[k] = est[k].value * T->games;
    }
    /* a game without one winner: tied (the win shared) or won by nobody */
    T->draws = est[T->nb].value + est[T->nb + 1].value;
    /* the design effect of the first bot's share: its clustered variance over the variance
     * of as many independent games */
    double p0 = T->share[0];
    exp_moments m;
    exp_pair_moments(&sum.p[0], &m);
    double v = m.n >= 2 ? (double)(m.uu / (m.n * (m.n - 1))) : 0;
    double vb = p0 * (1 - p0) / T->games;
    T->deff = vb > 0 && v > 0 ? v / vb : 1;
    if (!(T->deff > 0) || !isfinite(T->deff))
        T->deff = 1;
    return 0;
}

/* ---- ratings ------------------------------------------------------------------------------ */

/* The full log-strength vector from the free one (the first bot's is 0). */
static void full_theta(const tourney *t, const gsl_vector *v, double *theta)
{
    theta[0] = 0;
    for (int i = 1; i < t->nbots; i++)
        theta[i] = gsl_vector_get(v, (size_t)i - 1);
}

/* Table T's winning probabilities pi under theta (a softmax over its bots). */
static void table_pi(const table *T, const double *theta, double *pi)
{
    double m = -INFINITY, z = 0;
    for (int k = 0; k < T->nb; k++)
        m = fmax(m, theta[T->bot[k]]);
    for (int k = 0; k < T->nb; k++)
        z += (pi[k] = exp(theta[T->bot[k]] - m));
    for (int k = 0; k < T->nb; k++)
        pi[k] /= z;
}

/* Table T's weighted wins of its k-th bot: its wins plus half a win, over the design effect. */
static double table_w(const table *T, int k)
{
    return (T->wins[k] + 0.5) / T->deff;
}

/* Table T's winning probabilities under theta into pi; returns the weighted wins of all its
 * bots (table_w summed). */
static double table_fit(const table *T, const double *theta, double *pi)
{
    table_pi(T, theta, pi);
    double W = 0;
    for (int k = 0; k < T->nb; k++)
        W += table_w(T, k);
    return W;
}

/* Minus the log likelihood (Plackett–Luce for the winner of each game; Bradley–Terry with two
 * seats), and its gradient. */
static double nll(const gsl_vector *v, void *arg)
{
    const tourney *t = arg;
    double theta[TOUR_MAX_BOTS], pi[GAME_MAX_SEATS], f = 0;
    full_theta(t, v, theta);
    for (int s = 0; s < t->nt; s++) {
        const table *T = &t->t[s];
        table_pi(T, theta, pi);
        for (int k = 0; k < T->nb; k++)
            f -= table_w(T, k) * log(pi[k]);
    }
    return f;
}

static void nll_grad(const gsl_vector *v, void *arg, gsl_vector *g)
{
    const tourney *t = arg;
    double theta[TOUR_MAX_BOTS], pi[GAME_MAX_SEATS], grad[TOUR_MAX_BOTS] = {0};
    full_theta(t, v, theta);
    for (int s = 0; s < t->nt; s++) {
        const table *T = &t->t[s];
        double W = table_fit(T, theta, pi);
        for (int k = 0; k < T->nb; k++)
            grad[T->bot[k]] -= table_w(T, k) - W * pi[k];
    }
    for (int i = 1; i < t->nbots; i++)
        gsl_vector_set(g, (size_t)i - 1, grad[i]);
}

static void nll_fdf(const gsl_vector *v, void *arg, double *f, gsl_vector *g)
{
    *f = nll(v, arg);
    nll_grad(v, arg, g);
}

/* Fits the log-strengths (GSL's BFGS minimiser), centres them on their mean, and takes their
 * standard errors from the inverse of the observed information. Returns 0, or 4. */
static int rate(tourney *t, char *err, size_t errlen)
{
    size_t n = (size_t)t->nbots - 1;
    gsl_multimin_function_fdf F = {nll, nll_grad, nll_fdf, n, t};
    gsl_vector *x = gsl_vector_calloc(n);
    gsl_multimin_fdfminimizer *m =
        gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, n);
    if (x == NULL || m == NULL)
        xalloc_fail("cannot allocate the rating minimiser");
    gsl_multimin_fdfminimizer_set(m, &F, x, 0.1, 0.1);
    int status = GSL_CONTINUE;
    for (int it = 0; it < 1000 && status == GSL_CONTINUE; it++) {
        if (gsl_multimin_fdfminimizer_iterate(m) != GSL_SUCCESS)
            break;
        status = gsl_multimin_test_gradient(m->gradient, 1e-9);
    }
    double theta[TOUR_MAX_BOTS];
    full_theta(t, m->x, theta);
    gsl_multimin_fdfminimizer_free(m);
    gsl_vector_free(x);
    /* the observed information of the free log-strengths */
    gsl_matrix *I = gsl_matrix_calloc(n, n);
    double pi[GAME_MAX_SEATS];
    for (int s = 0; s < t->nt; s++) {
        const table *T = &t->t[s];
        double W = table_fit(T, theta, pi);
        for (int a = 0; a < T->nb; a++)
            for (int b = 0; b < T->nb; b++) {
                int i = T->bot[a], j = T->bot[b];
                if (i == 0 || j == 0)
                    continue;
                double h = W * ((a == b ? pi[a] : 0) - pi[a] * pi[b]);
                *gsl_matrix_ptr(I, (size_t)i - 1, (size_t)j - 1) += h;
            }
    }
    gsl_permutation *perm = gsl_permutation_alloc(n);
    gsl_matrix *C = gsl_matrix_alloc(n, n);
    int sign;
    int bad = gsl_linalg_LU_decomp(I, perm, &sign) != GSL_SUCCESS ||
              gsl_linalg_LU_invert(I, perm, C) != GSL_SUCCESS;
    gsl_permutation_free(perm);
    gsl_matrix_free(I);
    if (bad) {
        gsl_matrix_free(C);
        return snprintf(err, errlen, "--tournament: the ratings' information is singular"), 4;
    }
    /* centred: theta_i - mean(theta); its variance from the covariance of the free ones (the
     * first bot's log-strength is 0 exactly) */
    double mean = 0;
    for (int i = 0; i < t->nbots; i++)
        mean += theta[i] / t->nbots;
    double B = t->nbots;
    for (int i = 0; i < t->nbots; i++) {
        t->theta[i] = theta[i] - mean;
        double v = 0;
        for (int j = 1; j < t->nbots; j++)
            for (int k = 1; k < t->nbots; k++) {
                double aj = (j == i) - 1 / B, ak = (k == i) - 1 / B;
                v += aj * ak * gsl_matrix_get(C, (size_t)j - 1, (size_t)k - 1);
            }
        t->se[i] = sqrt(fmax(v, 0));
    }
    gsl_matrix_free(C);
    return 0;
}

/* Elo from a log-strength: 400 log10(e^theta). */
static double elo(double theta)
{
    return 400 / log(10) * theta;
}

/* Bot b's rating: its Elo e and the 95% interval [lo, hi]. */
static void rating(const tourney *t, int b, double *e, double *lo, double *hi)
{
    double h = 1.959963984540054 * elo(t->se[b]);
    *e = elo(t->theta[b]);
    *lo = *e - h, *hi = *e + h;
}

/* The Elo difference that gives an expected score s. */
static double score_elo(double s)
{
    return -400 * log10(1 / s - 1);
}

/* ---- the sequential test ------------------------------------------------------------------ */

/* Expected score of a bot Elo e stronger than its opponent. */
static double elo_score(double e)
{
    return 1 / (1 + pow(10, -e / 400));
}

/* Reads --sprt (ELO0,ELO1[,ALPHA,BETA]). Returns 0, or 2. */
static int parse_sprt(tourney *t, char *err, size_t errlen)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", t->o->sprt);
    double v[4] = {0, 0, 0.05, 0.05};
    int n = 0;
    char *rest = buf;
    for (char *s = strsep(&rest, ","); s; s = strsep(&rest, ",")) {
        if (n == 4 || !exp_number(s, &v[n]))
            return snprintf(err, errlen, "--sprt '%s': expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA",
                            t->o->sprt),
                   2;
        n++;
    }
    if (n != 2 && n != 4)
        return snprintf(err, errlen, "--sprt '%s': expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA",
                        t->o->sprt),
               2;
    if (!(v[0] < v[1]))
        return snprintf(err, errlen, "--sprt '%s': ELO0 must be below ELO1", t->o->sprt), 2;
    if (!(v[2] > 0 && v[2] < 0.5 && v[3] > 0 && v[3] < 0.5))
        return snprintf(err, errlen, "--sprt '%s': ALPHA and BETA must lie in (0, 0.5)",
                        t->o->sprt),
               2;
    t->elo0 = v[0], t->elo1 = v[1], t->alpha = v[2], t->beta = v[3];
    t->la = log(t->beta / (1 - t->alpha));
    t->lb = log((1 - t->beta) / t->alpha);
    return 0;
}

/* The log-likelihood ratio of H1 against H0 from the first bot's per-deal scores (each deal
 * played in both seat orders: a game pair, as fishtest's pentanomial test): with the pairs'
 * mean score m and variance var over n pairs, LLR = n (s1 - s0)(2m - s0 - s1) / (2 var)
 * (the normal approximation of the generalised SPRT). */
static double llr(const tourney *t, const exp_pair *p, double *mean, double *var)
{
    double n = (double)p->n;
    double C = (double)p->c / n; /* units a deal */
    double m = (double)p->x / (double)p->c;
    double v = (double)p->xx / (n * C * C) - m * m;
    *mean = m, *var = v;
    double s0 = elo_score(t->elo0), s1 = elo_score(t->elo1);
    if (!(v > 0))
        return m > (s0 + s1) / 2 ? INFINITY : m < (s0 + s1) / 2 ? -INFINITY : 0;
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v);
}

/* Plays the test's two bots on `deals` deals from seed, both seat orders: est (seat 1's win
 * share, ties, games without a winner), their sums and the games played; counts the plays.
 * Returns 0, or an error as srch_play. */
static int sprt_play(tourney *t, uint64_t seed, uint64_t deals, exp_estimate est[3],
                     exp_fsums *sum, uint64_t *games, char *err, size_t errlen)
{
    char bots[2 * BOT_SPEC_MAX + 2];
    snprintf(bots, sizeof bots, "%s,%s", t->bot[0], t->bot[1]);
    srch_point p = {.bots = bots};
    const char *figs[3] = {"win_share@1", "ties", "no_winner"};
    srch_out so = {.est = est, .sum = sum, .games = games};
    exp_options o2 = *t->o;
    o2.players = 2;
    int rc = srch_play(&o2, "--sprt", &p, 1, true, figs, 3, seed, deals, 0, &so, err, errlen);
    if (rc == 0)
        t->plays += so.plays;
    return rc;
}

/* The score after the test: the test stops when its deals stray far enough from one
 * hypothesis, so their score is biased away from the other and their fixed-sample interval
 * covers too seldom. The two bots play as many fresh deals again (seeds the test never saw, a
 * number it fixed before they were played), both seat orders, and the score, its interval
 * (exp_pair_bounded: Wilson at the deals' effective size, exact at 0 and 1 over the deals)
 * and the draws reported are theirs. Returns 0, or an error as srch_play. */
static int sprt_fresh(tourney *t, char *err, size_t errlen)
{
    table *T = &t->t[0];
    exp_estimate est[3];
    exp_fsums sum;
    uint64_t games;
    int rc = sprt_play(t, srch_seed(t->o->seed, TAG_SPRT_FRESH, 0), t->sdeals, est, &sum, &games,
                       err, errlen);
    if (rc != 0)
        return rc;
    t->fdeals = games;
    T->share[0] = est[0].value, T->lo[0] = est[0].lo, T->hi[0] = est[0].hi;
    boundary_interval(T->share[0], (double)games, &T->lo[0], &T->hi[0]);
    T->draws = est[1].value + est[2].value;
    return 0;
}

/* Plays the two bots in blocks (SPRT_BLOCK deals, then a sixteenth of those so far) on fresh seeds, both seat orders, until the
 * LLR leaves (la, lb) or the deals reach --runs. */
static int sprt(tourney *t, char *err, size_t errlen)
{
    table *T = &t->t[0];
    exp_pair total;
    memset(&total, 0, sizeof total);
    double sum_g = 0;
    for (uint64_t round = 0; t->sdeals < t->o->runs; round++) {
        uint64_t block = t->sdeals / 16 > SPRT_BLOCK ? t->sdeals / 16 : SPRT_BLOCK;
        if (block > t->o->runs - t->sdeals)
            block = t->o->runs - t->sdeals;
        exp_estimate est[3];
        exp_fsums sum;
        uint64_t games;
        int rc = sprt_play(t, srch_seed(t->o->seed, TAG_SPRT, round), block, est, &sum, &games,
                           err, errlen);
        if (rc != 0)
            return rc;
        t->sdeals += games;
        exp_pair_merge(&total, &sum.p[0]);
        sum_g += 2.0 * (double)games;
        double m, v;
        t->llr = llr(t, &total, &m, &v);
        srch_progress(t->o->progress, "%s: sprt, %llu games, LLR %.2f in (%.2f, %.2f)",
                      t->o->game->name, (unsigned long long)t->plays, t->llr, t->la, t->lb);
        if (t->llr >= t->lb || t->llr <= t->la) {
            t->verdict = t->llr >= t->lb ? 1 : -1;
            break;
        }
    }
    T->games = sum_g;
    t->tscore = total.c > 0 ? (double)total.x / (double)total.c : NAN;
    return sprt_fresh(t, err, errlen);
}

/* ---- the report --------------------------------------------------------------------------- */

/* Bot b's score against bot c at their two-seat table, its interval in *lo, *hi and the
 * table's games in *games (NAN if they met at none). */
static double pair_score(const tourney *t, int b, int c, double *lo, double *hi, double *games)
{
    for (int s = 0; s < t->nt; s++) {
        const table *T = &t->t[s];
        if (T->nb != 2)
            continue;
        for (int k = 0; k < 2; k++)
            if (T->bot[k] == b && T->bot[1 - k] == c) {
                *lo = T->lo[k], *hi = T->hi[k], *games = T->games;
                return T->share[k];
            }
    }
    *lo = *hi = *games = NAN;
    return NAN;
}

static cJSON *tour_json(const void *search, double wall)
{
    const tourney *t = search;
    const exp_options *o = t->o;
    cJSON *root = srch_json_head(o, t->o->sprt ? "sprt" : "tournament");
    cJSON_AddNumberToObject(root, "seats", t->nseats);
    cJSON *bl = cJSON_AddArrayToObject(root, "bots");
    for (int b = 0; b < t->nbots; b++)
        cJSON_AddItemToArray(bl, cJSON_CreateString(t->bot[b]));
    if (o->sprt) {
        const table *T = &t->t[0];
        cJSON *s = cJSON_AddObjectToObject(root, "sprt");
        cJSON_AddNumberToObject(s, "elo0", t->elo0);
        cJSON_AddNumberToObject(s, "elo1", t->elo1);
        cJSON_AddNumberToObject(s, "alpha", t->alpha);
        cJSON_AddNumberToObject(s, "beta", t->beta);
        cJSON_AddStringToObject(s, "accepted", t->verdict > 0 ? "H1" : t->verdict < 0 ? "H0" : "none");
        cJSON_AddNumberToObject(s, "llr", t->llr);
        cJSON *bd = cJSON_AddArrayToObject(s, "bounds");
        cJSON_AddItemToArray(bd, cJSON_CreateNumber(t->la));
        cJSON_AddItemToArray(bd, cJSON_CreateNumber(t->lb));
        cJSON_AddNumberToObject(s, "deals", (double)t->sdeals);
        cJSON_AddNumberToObject(s, "games", T->games);
        cJSON_AddItemToObject(s, "test_score", cJSON_CreateNumber(t->tscore));
        cJSON_AddNumberToObject(s, "fresh_deals", (double)t->fdeals);
        cJSON_AddItemToObject(s, "score", srch_json_est(T->share[0], T->lo[0], T->hi[0]));
        cJSON_AddItemToObject(s, "elo", srch_json_est(score_elo(T->share[0]), score_elo(T->lo[0]),
                                                      score_elo(T->hi[0])));
        cJSON_AddNumberToObject(s, "draws", T->draws);
    } else {
        cJSON *rs = cJSON_AddArrayToObject(root, "ratings");
        for (int b = 0; b < t->nbots; b++) {
            cJSON *r = cJSON_CreateObject();
            double e, lo, hi;
            rating(t, b, &e, &lo, &hi);
            cJSON_AddStringToObject(r, "bot", t->bot[b]);
            cJSON_AddItemToObject(r, "elo", srch_json_est(e, lo, hi));
            cJSON_AddItemToArray(rs, r);
        }
        cJSON *ts = cJSON_AddArrayToObject(root, "tables");
        for (int s = 0; s < t->nt; s++) {
            const table *T = &t->t[s];
            cJSON *x = cJSON_CreateObject();
            cJSON *tb = cJSON_AddArrayToObject(x, "bots");
            cJSON *sh = cJSON_AddArrayToObject(x, "win_share");
            for (int k = 0; k < T->nb; k++) {
                cJSON_AddItemToArray(tb, cJSON_CreateString(t->bot[T->bot[k]]));
                cJSON_AddItemToArray(sh, srch_json_est(T->share[k], T->lo[k], T->hi[k]));
            }
            cJSON_AddNumberToObject(x, "games", T->games);
            cJSON_AddNumberToObject(x, "draws", T->draws);
            cJSON_AddItemToArray(ts, x);
        }
        cJSON_AddNumberToObject(root, "draws", t->draws);
    }
    cJSON_AddNumberToObject(root, "games", (double)t->plays);
    cJSON_AddItemToObject(root, "run", srch_json_run(o, wall, t->plays));
    return root;
}

/* The sequential test's text report. */
static void sprt_text(const tourney *t, const cJSON *root, FILE *out, double wall)
{
    const exp_options *o = t->o;
    const table *T = &t->t[0];
    char line[2 * BOT_SPEC_MAX + 256], a[96];
    snprintf(line, sizeof line, "sprt: %s against %s; seed %llu", t->bot[0], t->bot[1],
             (unsigned long long)o->seed);
    srch_text_head(o, out, root, line);
    snprintf(line, sizeof line, "H0 elo=%g against H1 elo=%g (alpha=%g, beta=%g); each deal "
                                "played in both seat orders; a look after %d deals, then after "
                                "every sixteenth more",
             t->elo0, t->elo1, t->alpha, t->beta, SPRT_BLOCK);
    textcols_para(out, line, 0, TEXTCOLS_WIDTH);
    fputc('\n', out);
    if (t->verdict)
        snprintf(line, sizeof line, "%s accepted after %.0f games (%llu deals): LLR %.3f, bounds "
                                    "[%.3f, %.3f]",
                 t->verdict > 0 ? "H1" : "H0", T->games, (unsigned long long)t->sdeals, t->llr,
                 t->la, t->lb);
    else
        snprintf(line, sizeof line, "no decision within --runs: %.0f games (%llu deals), LLR "
                                    "%.3f, bounds [%.3f, %.3f]",
                 T->games, (unsigned long long)t->sdeals, t->llr, t->la, t->lb);
    textcols_hang(out, line, 0, 2, TEXTCOLS_WIDTH);
    exp_text_interval(a, sizeof a, T->share[0], T->lo[0], T->hi[0], true, false);
    snprintf(line, sizeof line, "score of %s on %llu fresh deals after the stop: %s; elo %+.1f "
                                "[%+.1f, %+.1f]; draws %.2f%%",
             t->bot[0], (unsigned long long)t->fdeals, a, score_elo(T->share[0]),
             score_elo(T->lo[0]), score_elo(T->hi[0]), 100 * T->draws);
    textcols_hang(out, line, 0, 2, TEXTCOLS_WIDTH);
    srch_text_tail(o, out, wall, t->plays);
}

/* The cross table of a two-seat tournament: row r's score against column c (cell[r * n + c],
 * the bots in rating order, numbered 1..n as the ratings are). The rows are labelled by number
 * and name, the columns by number; when the columns do not fit 80 columns beside the names
 * they go in blocks of as many as fit, one under the other (and a name too long to leave room
 * for two columns leaves the rows their numbers only). */
static void cross_table(FILE *out, int n, const char *const *name, const char *const *cell)
{
    size_t numw = 0, namew = 0, cw = 0;
    char num[TOUR_MAX_BOTS][8];
    for (int r = 0; r < n; r++) {
        snprintf(num[r], sizeof num[r], "%d", r + 1);
        numw = textcols_width(num[r]) > numw ? textcols_width(num[r]) : numw;
        namew = textcols_width(name[r]) > namew ? textcols_width(name[r]) : namew;
        for (int c = 0; c < n; c++)
            cw = textcols_width(cell[r * n + c]) > cw ? textcols_width(cell[r * n + c]) : cw;
    }
    size_t left = 2 + numw + 2 + namew, room = TEXTCOLS_WIDTH > left ? TEXTCOLS_WIDTH - left : 0;
    int fit = (int)(room / (cw + 2));
    bool names = fit >= (n < 2 ? n : 2);
    if (!names)
        fit = (int)((TEXTCOLS_WIDTH - 2 - numw) / (cw + 2));
    if (fit < 1)
        fit = 1;
    int blocks = (n + fit - 1) / fit, per = (n + blocks - 1) / blocks; /* even blocks */
    char align[TOUR_MAX_BOTS + 3] = "rl";
    for (int c0 = 0; c0 < n; c0 += per) {
        int c1 = c0 + per < n ? c0 + per : n;
        memset(align + 2, 'r', (size_t)(c1 - c0));
        align[2 + c1 - c0] = '\0';
        textcols *tc = textcols_new(align);
        const char *row[TOUR_MAX_BOTS + 2] = {"", ""};
        for (int c = c0; c < c1; c++)
            row[2 + c - c0] = num[c];
        textcols_row(tc, row);
        for (int r = 0; r < n; r++) {
            row[0] = num[r], row[1] = names ? name[r] : "";
            for (int c = c0; c < c1; c++)
                row[2 + c - c0] = cell[r * n + c];
            textcols_row(tc, row);
        }
        if (c0 > 0)
            fputc('\n', out);
        textcols_write(out, tc, 2, TEXTCOLS_WIDTH);
        textcols_free(tc);
    }
}

static void tour_text(const void *search, const cJSON *root, FILE *out, double wall)
{
    const tourney *t = search;
    const exp_options *o = t->o;
    if (o->sprt) {
        sprt_text(t, root, out, wall);
        return;
    }
    char line[512];
    snprintf(line, sizeof line, "tournament of %d bots, %d seats, %d table%s, seats rotated on "
                                "paired deals; seed %llu",
             t->nbots, t->nseats, t->nt, t->nt == 1 ? "" : "s", (unsigned long long)o->seed);
    srch_text_head(o, out, root, line);
    /* ratings, strongest first, numbered: the numbers name the bots in the tables below */
    int order[TOUR_MAX_BOTS], rank[TOUR_MAX_BOTS];
    for (int b = 0; b < t->nbots; b++)
        order[b] = b;
    for (int i = 1; i < t->nbots; i++)
        for (int j = i; j > 0 && t->theta[order[j]] > t->theta[order[j - 1]]; j--) {
            int x = order[j];
            order[j] = order[j - 1], order[j - 1] = x;
        }
    for (int i = 0; i < t->nbots; i++)
        rank[order[i]] = i;
    char num[TOUR_MAX_BOTS][8], ev[TOUR_MAX_BOTS][32], ci[TOUR_MAX_BOTS][64];
    const char *name[TOUR_MAX_BOTS];
    fprintf(out, "\nrating (Elo, mean 0; 95%% CI)\n");
    textcols *tc = textcols_new("rwrl");
    for (int i = 0; i < t->nbots; i++) {
        int b = order[i];
        double e, lo, hi;
        rating(t, b, &e, &lo, &hi);
        snprintf(num[i], sizeof num[i], "%d", i + 1);
        snprintf(ev[i], sizeof ev[i], "%+.1f", e);
        snprintf(ci[i], sizeof ci[i], "[%+.1f, %+.1f]", lo, hi);
        name[i] = t->bot[b];
        const char *row[4] = {num[i], name[i], ev[i], ci[i]};
        textcols_row(tc, row);
    }
    textcols_write(out, tc, 2, TEXTCOLS_WIDTH);
    textcols_free(tc);
    if (t->nseats == 2) {
        fprintf(out, "\nscore of the row against the column (win share, ties halved)\n");
        int n = t->nbots;
        char (*text)[16] = xcalloc((size_t)(n * n), sizeof *text);
        const char **cell = xcalloc((size_t)(n * n), sizeof *cell);
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                double lo, hi, games, v = pair_score(t, order[r], order[c], &lo, &hi, &games);
                if (isnan(v))
                    snprintf(text[r * n + c], sizeof text[0], "—");
                else
                    snprintf(text[r * n + c], sizeof text[0], "%.2f%%", 100 * v);
                cell[r * n + c] = text[r * n + c];
            }
        cross_table(out, n, name, cell);
        free(cell);
        free(text);
        /* each pairing once, the stronger first: its score with interval and its games */
        fprintf(out, "\neach pairing: the score of the first, 95%% CI, games\n");
        tc = textcols_new("lwrln");
        for (int r = 0; r < n; r++)
            for (int c = r + 1; c < n; c++) {
                double lo, hi, games, v = pair_score(t, order[r], order[c], &lo, &hi, &games);
                if (isnan(v))
                    continue;
                char who[2 * BOT_SPEC_MAX + 16], nums[24], a[96], g[32];
                snprintf(nums, sizeof nums, "%d-%d", r + 1, c + 1);
                snprintf(who, sizeof who, "%s against %s", name[r], name[c]);
                exp_text_interval(a, sizeof a, v, lo, hi, true, false);
                char *br = strchr(a, '[');
                if (br)
                    br[-1] = '\0';
                snprintf(g, sizeof g, "%.0f games", games);
                const char *row[5] = {nums, who, a, br ? br : "", g};
                textcols_row(tc, row);
            }
        textcols_write(out, tc, 2, TEXTCOLS_WIDTH);
        textcols_free(tc);
    } else {
        /* a row per bot of each table, the table's number on its first, strongest first */
        fprintf(out, "\ntables (win share of each bot at it, 95%% CI)\n");
        tc = textcols_new("lrlrl");
        for (int s = 0; s < t->nt; s++) {
            const table *T = &t->t[s];
            int seat[GAME_MAX_SEATS];
            for (int k = 0; k < T->nb; k++)
                seat[k] = k;
            for (int i = 1; i < T->nb; i++)
                for (int j = i; j > 0 && rank[T->bot[seat[j]]] < rank[T->bot[seat[j - 1]]]; j--) {
                    int x = seat[j];
                    seat[j] = seat[j - 1], seat[j - 1] = x;
                }
            char tn[32], a[96];
            snprintf(tn, sizeof tn, "table %d", s + 1);
            for (int i = 0; i < T->nb; i++) {
                int k = seat[i], r = rank[T->bot[k]];
                exp_text_interval(a, sizeof a, T->share[k], T->lo[k], T->hi[k], true, false);
                char *br = strchr(a, '[');
                if (br)
                    br[-1] = '\0';
                const char *row[5] = {i == 0 ? tn : "", num[r], name[r], a, br ? br : ""};
                textcols_row(tc, row);
            }
        }
        textcols_write(out, tc, 2, TEXTCOLS_WIDTH);
        textcols_free(tc);
    }
    fprintf(out, "\ndraws (no single winner): %.2f%% of the games\n", 100 * t->draws);
    srch_text_tail(o, out, wall, t->plays);
}

static void tour_csv(const void *search, FILE *out)
{
    const tourney *t = search;
    if (t->o->sprt) {
        const table *T = &t->t[0];
        fprintf(out, "accepted,llr,bound_h0,bound_h1,deals,games,score,score_lo,score_hi,draws\n");
        fprintf(out, "%s,%.17g,%.17g,%.17g,%llu,%.0f,",
                t->verdict > 0 ? "H1" : t->verdict < 0 ? "H0" : "none", t->llr, t->la, t->lb,
                (unsigned long long)t->sdeals, T->games);
        report_csv_estimate(out, T->share[0], T->lo[0], T->hi[0]);
        fprintf(out, ",%.17g\n", T->draws);
        return;
    }
    fprintf(out, "row,bot,elo,elo_lo,elo_hi,table,win_share,win_share_lo,win_share_hi,games,draws\n");
    for (int b = 0; b < t->nbots; b++) {
        double e, lo, hi;
        rating(t, b, &e, &lo, &hi);
        fprintf(out, "rating,%s,", t->bot[b]);
        report_csv_estimate(out, e, lo, hi);
        fputs(",,,,,,\n", out);
    }
    for (int s = 0; s < t->nt; s++) {
        const table *T = &t->t[s];
        for (int k = 0; k < T->nb; k++) {
            fprintf(out, "table,%s,,,,%d,", t->bot[T->bot[k]], s + 1);
            report_csv_estimate(out, T->share[k], T->lo[k], T->hi[k]);
            fprintf(out, ",%.0f,%.17g\n", T->games, T->draws);
        }
    }
}

static const srch_writer tour_writer = {tour_json, tour_csv, tour_text};

int tournament_run(const exp_options *o, FILE *out, char *err, size_t errlen)
{
    double t0 = clock_seconds();
    tourney *t = xcalloc(1, sizeof *t);
    t->o = o;
    int rc = *o->tournament ? parse_list(t, err, errlen)
                            : (snprintf(err, errlen, "--tournament needs a list of bots "
                                                     "(--tournament=BOT,BOT,...)"),
                               2);
    if (rc == 0 && o->metric)
        rc = (snprintf(err, errlen, "--tournament rates by wins: --metric does not apply"), 2);
    if (rc == 0 && o->sprt)
        rc = parse_sprt(t, err, errlen);
    if (rc == 0)
        rc = make_tables(t, err, errlen);
    if (rc == 0 && o->sprt) {
        rc = sprt(t, err, errlen);
    } else if (rc == 0) {
        double dg = 0, gg = 0;
        for (int s = 0; s < t->nt && rc == 0; s++) {
            rc = play_table(t, &t->t[s], table_seed(t, &t->t[s]), o->runs, err, errlen);
            dg += t->t[s].draws * t->t[s].games;
            gg += t->t[s].games;
            srch_progress(o->progress, "%s: tournament, table %d of %d (%llu games)",
                          o->game->name, s + 1, t->nt, (unsigned long long)t->plays);
        }
        t->draws = gg > 0 ? dg / gg : NAN;
        if (rc == 0)
            rc = rate(t, err, errlen);
    }
    rc = srch_finish(o, rc, out, t0, &tour_writer, t);
    free(t->t);
    free(t);
    return rc;
}
