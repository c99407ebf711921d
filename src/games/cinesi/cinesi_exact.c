/* cinesi_exact.c — the exact analysis of the Gioco dei Cinesi: win share per seat and the
 * distribution of the game length in turns and in rolls, for any ruleset.
 *
 * The figures never meet, so each player's progress depends only on his own rolls, and
 * whites never change who holds the die. Leave the whites out: in each of his turns a player
 * makes a run of moves that is geometric, P(m moves) = r^m (1-r) with r = own/(own + pass)
 * faces, ended by a foreign colour. After t whole turns his progress S_t is a sum of t such
 * runs (negative binomial), and he reaches the centre during his turn t+1 with probability
 * sum_s P(S_t = s) r^(need-s). Turns go round the table in seat order, so the game ends at
 * global turn g when the seat of turn g finishes in it and every other seat is still short,
 * each after as many whole turns as it has had by then: the seats are independent given the
 * turn count, and one pass over g with one progress vector per seat gives the exact law of
 * the winner and of g. The rolls follow: the non-white rolls are the moves plus the passes,
 * and every non-white roll is preceded by a geometric number of whites (the same die for
 * everyone), so rolls = opening + K + NegBin(K, 1-w) with K the non-white rolls. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "games/cinesi/cinesi.h"

/* One seat's progress after its whole turns so far. */
typedef struct seat_law {
    int need;           /* steps it still needed when the first turn began */
    long double r;      /* P(a non-white roll in its turn is its own colour) */
    long double *q;     /* q[s] = P(progress s after `done` whole turns), s < need */
    long double *h;     /* scratch of need entries */
    long double *rpow;  /* rpow[m] = r^m, m <= need */
    long double surv;   /* sum of q: P(not yet at the centre) */
    long double m1, m2; /* sum of s q[s] and s^2 q[s] */
    int done;           /* whole turns played */
} seat_law;

/* Everything accumulated over the starters, each weighted by its probability. */
typedef struct totals {
    long double win[CINESI_MAX_SEATS], seat_turns[CINESI_MAX_SEATS];
    long double seat_k[CINESI_MAX_SEATS]; /* E[non-white rolls of the seat] */
    long double turns1, turns2;           /* E[g], E[g^2] */
    long double rolls1, rolls2;           /* E[X], E[X^2] of the rolls X */
    long double runner_up, tail;
    long double *turns_pmf, *k_pmf; /* per g; per K (non-white rolls), for one starter */
    int turns_cap, k_cap, turns_len, k_len;
} totals;

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (p == NULL) {
        fputs("giochi-sim: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* Makes *a (of *cap entries) hold index i, zero-filling what it adds. */
static void grow(long double **a, int *cap, int i)
{
    if (i < *cap)
        return;
    int ncap = *cap ? *cap : 256;
    while (ncap <= i)
        ncap *= 2;
    long double *b = realloc(*a, (size_t)ncap * sizeof *b);
    if (b == NULL) {
        fputs("giochi-sim: out of memory\n", stderr);
        abort();
    }
    memset(b + *cap, 0, (size_t)(ncap - *cap) * sizeof *b);
    *a = b;
    *cap = ncap;
}

static void law_moments(seat_law *L)
{
    L->surv = L->m1 = L->m2 = 0;
    for (int s = 0; s < L->need; s++) {
        L->surv += L->q[s];
        L->m1 += s * L->q[s];
        L->m2 += (long double)s * s * L->q[s];
    }
}

static void law_init(seat_law *L, int need, long double r)
{
    L->need = need;
    L->r = r;
    L->q = xcalloc((size_t)need, sizeof *L->q);
    L->h = xcalloc((size_t)need, sizeof *L->h);
    L->rpow = xcalloc((size_t)need + 1, sizeof *L->rpow);
    L->rpow[0] = 1;
    for (int m = 1; m <= need; m++)
        L->rpow[m] = L->rpow[m - 1] * r;
    L->q[0] = 1;
    L->done = 0;
    law_moments(L);
}

static void law_free(seat_law *L)
{
    free(L->q);
    free(L->h);
    free(L->rpow);
}

/* P(the seat reaches the centre during its next turn), with nothing subtracted. */
static long double law_finish(const seat_law *L)
{
    long double f = 0;
    for (int s = 0; s < L->need; s++)
        f += L->q[s] * L->rpow[L->need - s];
    return f;
}

/* Plays one whole turn that does not reach the centre: q <- q * geometric, truncated. */
static void law_turn(seat_law *L)
{
    long double acc = 0;
    for (int s = 0; s < L->need; s++) {
        acc = L->q[s] + L->r * acc;
        L->h[s] = (1 - L->r) * acc;
    }
    memcpy(L->q, L->h, (size_t)L->need * sizeof *L->q);
    L->done++;
    law_moments(L);
}

/* Adds into out (zeroed, len_out entries) the convolution of the q vectors of every seat but
 * `skip`: the weight of each total progress of the others. Returns the length used. */
static int conv_others(seat_law *law, int n, int skip, long double *out, long double *tmp)
{
    int len = 1;
    out[0] = 1;
    for (int j = 0; j < n; j++) {
        if (j == skip)
            continue;
        int nlen = len + law[j].need - 1;
        for (int i = 0; i < nlen; i++)
            tmp[i] = 0;
        for (int a = 0; a < len; a++) {
            if (out[a] == 0)
                continue;
            for (int b = 0; b < law[j].need; b++)
                tmp[a + b] += out[a] * law[j].q[b];
        }
        memcpy(out, tmp, (size_t)nlen * sizeof *out);
        len = nlen;
    }
    return len;
}

/* E[steps the runner-up still needs] times P(this end), given that seat k ends the game
 * now with probability fin and the others are where law says; cum is scratch of need+1. */
static long double runner_up(seat_law *law, int n, int k, long double fin, long double *cum)
{
    /* P(every other seat is at least d short) = prod_j P(S_j <= need_j - d), summed over d:
     * each factor is a prefix sum of q_j, so the product is built as d grows. */
    int maxd = 0;
    for (int j = 0; j < n; j++)
        if (j != k && law[j].need > maxd)
            maxd = law[j].need;
    for (int d = 1; d <= maxd; d++)
        cum[d] = 1;
    for (int j = 0; j < n; j++) {
        if (j == k)
            continue;
        long double c = 0;
        int need = law[j].need;
        /* cum[d] *= sum_{s <= need - d} q[s], for d = need down to 1 */
        for (int d = need; d >= 1; d--) {
            c += law[j].q[need - d];
            cum[d] *= c;
        }
        for (int d = need + 1; d <= maxd; d++)
            cum[d] = 0;
    }
    long double sum = 0;
    for (int d = 1; d <= maxd; d++)
        sum += cum[d];
    return fin * sum;
}

/* The analysis for one starting seat, weighted by ws, into t. With `rolls_only`, only the
 * distribution of the non-white rolls is accumulated (the second pass). Returns the number
 * of global turns it needed. */
static int run_starter(const cinesi_rules *rules, int n, int starter, long double ws,
                       bool rolls_only, totals *t)
{
    int F = rules->nfaces, white = rules->faces[CINESI_WHITE];
    seat_law law[CINESI_MAX_SEATS];
    int maxk = 1;
    for (int k = 0; k < n; k++) {
        int own = rules->faces[rules->seat_colour[k]];
        int pass = F - own - white;
        int need = rules->steps;
        if (k == starter && rules->opening == CINESI_OPEN_COLOUR_MOVES)
            need--;
        law_init(&law[k], need, (long double)own / (own + pass));
        maxk += need;
    }
    long double *conv = NULL, *tmp = NULL, *cum = xcalloc((size_t)maxk, sizeof *cum);
    if (rolls_only) {
        conv = xcalloc((size_t)maxk, sizeof *conv);
        tmp = xcalloc((size_t)maxk, sizeof *tmp);
    }
    long double alive = 1, k1 = 0, k2 = 0; /* P(no winner yet); E[K], E[K^2] of this start */
    int g = 0;
    while (alive >= CINESI_EXACT_TAIL) {
        g++;
        int k = (starter + g - 1) % n;
        seat_law *L = &law[k];
        long double others = 1, fin = law_finish(L);
        for (int j = 0; j < n; j++)
            if (j != k)
                others *= law[j].surv;
        long double pg = fin * others; /* P(seat k wins at global turn g) */
        long double a = L->need + L->done; /* the winner's moves and passes */
        for (int j = 0; j < n; j++)
            if (j != k)
                a += law[j].done;
        if (rolls_only && fin > 0 && others > 0) {
            int len = conv_others(law, n, k, conv, tmp);
            grow(&t->k_pmf, &t->k_cap, (int)a + len);
            for (int y = 0; y < len; y++)
                t->k_pmf[(int)a + y] += ws * fin * conv[y];
            if ((int)a + len > t->k_len)
                t->k_len = (int)a + len;
        } else if (!rolls_only) {
            t->seat_turns[k] += ws * alive;
            if (pg > 0) {
                long double ey = 0, vy = 0;
                for (int j = 0; j < n; j++) {
                    if (j == k)
                        continue;
                    long double m = law[j].m1 / law[j].surv;
                    ey += m;
                    vy += law[j].m2 / law[j].surv - m * m;
                    t->seat_k[j] += ws * pg * (m + law[j].done);
                }
                t->seat_k[k] += ws * pg * (L->need + L->done);
                t->win[k] += ws * pg;
                k1 += pg * (a + ey);
                k2 += pg * ((a + ey) * (a + ey) + vy);
                t->turns1 += ws * pg * g;
                t->turns2 += ws * pg * (long double)g * g;
                t->runner_up += ws * runner_up(law, n, k, fin, cum);
                grow(&t->turns_pmf, &t->turns_cap, g);
                t->turns_pmf[g] += ws * pg;
                if (g + 1 > t->turns_len)
                    t->turns_len = g + 1;
            }
        }
        law_turn(L);
        alive = 1;
        for (int j = 0; j < n; j++)
            alive *= law[j].surv;
    }
    if (!rolls_only) {
        /* rolls = opening + K + whites; whites | K ~ NegBin(K, 1-w); opening ~ geometric. */
        long double w = (long double)white / F;
        long double ex = k1 / (1 - w), vx = (k2 - k1 * k1) / ((1 - w) * (1 - w)) +
                                          k1 * w / ((1 - w) * (1 - w));
        if (rules->opening != CINESI_OPEN_SEAT1) {
            long double q = 0;
            for (int j = 0; j < n; j++)
                q += (long double)rules->faces[rules->seat_colour[j]] / F;
            ex += 1 / q;
            vx += (1 - q) / (q * q);
        }
        t->rolls1 += ws * ex;
        t->rolls2 += ws * (vx + ex * ex);
        t->tail += ws * alive;
    }
    for (int k = 0; k < n; k++)
        law_free(&law[k]);
    free(conv);
    free(tmp);
    free(cum);
    return g;
}

/* P(seat k starts): 1 for seat 1 under "seat1", else its colour's share of played faces. */
static long double start_weight(const cinesi_rules *rules, int n, int k)
{
    if (rules->opening == CINESI_OPEN_SEAT1)
        return k == 0;
    int played = 0;
    for (int j = 0; j < n; j++)
        played += rules->faces[rules->seat_colour[j]];
    return (long double)rules->faces[rules->seat_colour[k]] / played;
}

/* Turns the law of K (non-white rolls) into the law of the rolls: whites interleaved, then
 * the opening's rolls. Returns a new pmf (caller frees) of *len entries. */
static long double *rolls_law(const cinesi_rules *rules, int n, const long double *kp, int klen,
                              int *len)
{
    long double w = (long double)rules->faces[CINESI_WHITE] / rules->nfaces;
    long double *x = NULL;
    int cap = 0, xlen = 0;
    for (int k = 0; k < klen; k++) {
        if (kp[k] == 0)
            continue;
        /* P(the K-th non-white roll is roll x) = C(x-1, K-1) w^(x-K) (1-w)^K, x >= K. */
        long double term = powl(1 - w, k);
        for (int v = k;; v++) {
            grow(&x, &cap, v);
            x[v] += kp[k] * term;
            if (v + 1 > xlen)
                xlen = v + 1;
            if (w == 0 || k == 0)
                break;
            long double ratio = w * v / (v - k + 1);
            /* Past the mode the terms fall at least geometrically: stop once negligible. */
            if (ratio < 1 && term < 1e-26L * (1 - ratio))
                break;
            term *= ratio;
        }
    }
    if (rules->opening != CINESI_OPEN_SEAT1) {
        long double q = 0;
        for (int j = 0; j < n; j++)
            q += (long double)rules->faces[rules->seat_colour[j]] / rules->nfaces;
        /* Add a geometric number (>= 1) of opening rolls: y(v) = q x(v-1) + (1-q) y(v-1). */
        int extra = q >= 1 ? 1 : 1 + (int)ceill(logl(1e-24L) / logl(1 - q));
        grow(&x, &cap, xlen + extra);
        long double prev_y = 0, prev_x = 0;
        for (int v = 0; v < xlen + extra; v++) {
            long double y = q * prev_x + (1 - q) * prev_y;
            prev_x = x[v];
            x[v] = y;
            prev_y = y;
        }
        xlen += extra;
    }
    *len = xlen;
    return x;
}

int cinesi_exact_compute(const cinesi_rules *rules, int nseats, double budget, cinesi_exact *x)
{
    memset(x, 0, sizeof *x);
    x->nseats = nseats;
    for (int k = 0; k < nseats; k++)
        if (rules->faces[rules->seat_colour[k]] == 0)
            return -1;
    totals t;
    memset(&t, 0, sizeof t);
    long double ws[CINESI_MAX_SEATS];
    int turns_max = 0;
    for (int s = 0; s < nseats; s++) {
        ws[s] = start_weight(rules, nseats, s);
        if (ws[s] > 0) {
            int g = run_starter(rules, nseats, s, ws[s], false, &t);
            turns_max = g > turns_max ? g : turns_max;
        }
    }
    /* The law of the rolls costs a convolution of the other seats per global turn. */
    double n = nseats, need = rules->steps;
    double cost = (double)turns_max * nseats * (n - 1) * n * need * need;
    if (budget > 0 && cost <= budget) {
        for (int s = 0; s < nseats; s++)
            if (ws[s] > 0)
                run_starter(rules, nseats, s, ws[s], true, &t);
        x->rolls_pmf = rolls_law(rules, nseats, t.k_pmf, t.k_len, &x->rolls_len);
    }
    free(t.k_pmf);
    long double w = (long double)rules->faces[CINESI_WHITE] / rules->nfaces;
    for (int k = 0; k < nseats; k++) {
        x->win[k] = t.win[k];
        x->seat_turns[k] = t.seat_turns[k];
        long double rolls = t.seat_k[k] / (1 - w);
        if (rules->opening == CINESI_OPEN_COLOUR_MOVES)
            rolls += ws[k]; /* the opening roll that named him moved him: his first turn's */
        x->rolls_per_turn[k] = rolls / t.seat_turns[k];
    }
    x->turns_mean = t.turns1;
    x->turns_sd = sqrtl(fmaxl(t.turns2 - t.turns1 * t.turns1, 0));
    x->rolls_mean = t.rolls1;
    x->rolls_sd = sqrtl(fmaxl(t.rolls2 - t.rolls1 * t.rolls1, 0));
    x->runner_up_mean = t.runner_up;
    x->turns_pmf = t.turns_pmf;
    x->turns_len = t.turns_len;
    x->tail = t.tail;
    return 0;
}

void cinesi_exact_free(cinesi_exact *x)
{
    free(x->turns_pmf);
    free(x->rolls_pmf);
    x->turns_pmf = x->rolls_pmf = NULL;
}

int cinesi_exact_quantile(const long double *pmf, int len, double p)
{
    long double cum = 0;
    for (int v = 0; v < len; v++) {
        cum += pmf[v];
        if (pmf[v] > 0 && cum >= p)
            return v;
    }
    return len - 1;
}

/* ---- JSON ---------------------------------------------------------------------------- */

/* {"mean", "sd", "quantiles", "pmf": {"from", "p", "below", "above"}} of a length law; the
 * pmf is cut where less than 1e-15 is left on either side. */
static cJSON *law_json(long double mean, long double sd, const long double *pmf, int len)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "mean", (double)mean);
    cJSON_AddNumberToObject(o, "sd", (double)sd);
    if (pmf == NULL) {
        cJSON_AddNullToObject(o, "quantiles");
        cJSON_AddNullToObject(o, "pmf");
        return o;
    }
    static const char *const names[5] = {"p05", "p25", "p50", "p75", "p95"};
    static const double levels[5] = {0.05, 0.25, 0.50, 0.75, 0.95};
    cJSON *q = cJSON_AddObjectToObject(o, "quantiles");
    for (int i = 0; i < 5; i++)
        cJSON_AddNumberToObject(q, names[i], cinesi_exact_quantile(pmf, len, levels[i]));
    long double below = 0, above = 0;
    int lo = 0, hi = len;
    while (lo < len && below + pmf[lo] < 1e-15L)
        below += pmf[lo++];
    while (hi > lo && above + pmf[hi - 1] < 1e-15L)
        above += pmf[--hi];
    cJSON *p = cJSON_AddObjectToObject(o, "pmf");
    cJSON_AddNumberToObject(p, "from", lo);
    cJSON *arr = cJSON_AddArrayToObject(p, "p");
    for (int v = lo; v < hi; v++)
        cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)pmf[v]));
    cJSON_AddNumberToObject(p, "below", (double)below);
    cJSON_AddNumberToObject(p, "above", (double)above);
    return o;
}

cJSON *cinesi_exact_json(const void *rules, const seat_bots *seats)
{
    const cinesi_rules *r = rules;
    cinesi_exact x;
    if (cinesi_exact_compute(r, seats->nseats, 1e8, &x) != 0)
        return NULL;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "method",
                            "per-seat negative-binomial progress combined in turn order, "
                            "long double");
    cJSON_AddNumberToObject(root, "steps", r->steps);
    cJSON *arr = cJSON_AddArrayToObject(root, "seats");
    for (int k = 0; k < seats->nseats; k++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "seat", k + 1); /* seats count from 1 in reports */
        cJSON_AddStringToObject(o, "colour", cinesi_colour_names[r->seat_colour[k]]);
        cJSON_AddNumberToObject(o, "win_share", (double)x.win[k]);
        cJSON_AddNumberToObject(o, "turns", (double)x.seat_turns[k]);
        cJSON_AddNumberToObject(o, "rolls_per_turn", (double)x.rolls_per_turn[k]);
        cJSON_AddItemToArray(arr, o);
    }
    cJSON *m = cJSON_AddObjectToObject(root, "metrics");
    cJSON_AddNumberToObject(m, "length", (double)x.turns_mean);
    cJSON_AddNumberToObject(m, "rolls", (double)x.rolls_mean);
    cJSON_AddNumberToObject(m, "runner_up_distance", (double)x.runner_up_mean);
    cJSON_AddItemToObject(root, "turns",
                          law_json(x.turns_mean, x.turns_sd, x.turns_pmf, x.turns_len));
    cJSON_AddItemToObject(root, "rolls",
                          law_json(x.rolls_mean, x.rolls_sd, x.rolls_pmf, x.rolls_len));
    cJSON_AddNumberToObject(root, "tail", (double)x.tail);
    cinesi_exact_free(&x);
    return root;
}
