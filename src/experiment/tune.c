/* tune.c — --tune: a coordinate search over one seat's bot parameters for the values that
 * maximise (or minimise) a figure against the other seats, each step a sweep of one parameter
 * on common random numbers paired with the current best, then the best re-evaluated against
 * the starting parameters on fresh seeds. */
#include "experiment/search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/botspec.h"
#include "core/xalloc.h"
#include "report/report_csv.h"
#include "report/textcols.h"

enum {
    TUNE_MAX_KNOBS = SRCH_MAX_ASSIGN,
    TUNE_GRID = 7,       /* values a step tries across its parameter's window */
    TUNE_MAX_PASSES = 6, /* passes over every parameter */
    TUNE_MIN_DEALS = 200,
    TAG_STEP = 1, TAG_FINAL = 2,
};

/* One tuned parameter: its range, kind, start, current best and the window a step tries. */
typedef struct knob {
    char key[96];   /* seatN.PARAM */
    char name[64];  /* PARAM */
    double lo, hi, start, cur, wlo, whi;
    bool whole;
} knob;

/* One candidate value a step tried, with the figure and its paired difference from the
 * current best on the same deals. */
typedef struct trial {
    double value;
    exp_estimate est;
} trial;

/* One step: a parameter swept around the current best. */
typedef struct step {
    int pass, knob;
    uint64_t deals;
    double from, to;   /* the parameter's value before and after the step */
    int ntrial;
    trial tr[TUNE_GRID + 1];
} step;

typedef struct tuner {
    const exp_options *o;
    const char *fig;
    double sign; /* +1 maximise, -1 minimise */
    bool rotate;
    int seat, nknob;
    int nseats; /* the table's players: the seat's bot's defaults are those at this table */
    knob k[TUNE_MAX_KNOBS];
    char canon[BOT_SPEC_MAX]; /* the seat's starting bot */
    step *steps;
    int nsteps, cap;
    uint64_t plays, evaluations;
    exp_estimate start_est, best_est, gain; /* the fresh re-evaluation */
    uint64_t final_deals;
    bool share;
    char best_bot[BOT_SPEC_MAX];
} tuner;

/* Parses --tune (seatN.PARAM=LO:HI,...) against the seat's bot. Returns 0, or 2 with a
 * message. */
static int parse_tune(tuner *t, char *err, size_t errlen)
{
    const exp_options *o = t->o;
    char buf[4096];
    if (strlen(o->tune) >= sizeof buf)
        return snprintf(err, errlen, "--tune: too long"), 2;
    strcpy(buf, o->tune);
    char *rest = buf;
    const bot_type *bot = NULL;
    double param[BOT_MAX_PARAMS];
    for (char *item = strsep(&rest, ","); item; item = strsep(&rest, ",")) {
        int seat, used = 0;
        char *eq = strchr(item, '='), *colon = eq ? strchr(eq, ':') : NULL;
        if (sscanf(item, "seat%d.%n", &seat, &used) != 1 || used == 0 || !eq || !colon ||
            eq - item - used < 1)
            return snprintf(err, errlen,
                            "--tune '%s': expected seatN.PARAM=LO:HI (e.g. seat1.max_bid=0:200)",
                            item),
                   2;
        if (t->nknob == TUNE_MAX_KNOBS)
            return snprintf(err, errlen, "--tune: at most %d parameters", TUNE_MAX_KNOBS), 2;
        if (t->nknob > 0 && seat - 1 != t->seat)
            return snprintf(err, errlen,
                            "--tune '%s': every parameter must be of one seat (seat%d)", item,
                            t->seat + 1),
                   2;
        knob *K = &t->k[t->nknob];
        *eq = *colon = '\0';
        snprintf(K->key, sizeof K->key, "%s", item);
        snprintf(K->name, sizeof K->name, "%s", item + used);
        if (!exp_number(eq + 1, &K->lo) || !exp_number(colon + 1, &K->hi) || !(K->lo < K->hi))
            return snprintf(err, errlen, "--tune '%s': LO:HI must be two numbers, LO below HI",
                            K->key),
                   2;
        if (t->nknob == 0) {
            t->seat = seat - 1;
            if (seat < 1 || seat > GAME_MAX_SEATS ||
                srch_seat_bot(o, t->seat, &bot, param, t->canon, sizeof t->canon, &t->nseats,
                              err, errlen) != 0) {
                if (seat < 1 || seat > GAME_MAX_SEATS)
                    snprintf(err, errlen, "--tune '%s': seat must be 1..%d", K->key,
                             GAME_MAX_SEATS);
                return 2;
            }
        }
        int idx = -1;
        for (int i = 0; bot->params && bot->params[i].name; i++)
            if (strcmp(bot->params[i].name, K->name) == 0)
                idx = i;
        if (idx < 0)
            return snprintf(err, errlen, "--tune '%s': bot %s has no parameter '%s' (see --list)",
                            K->key, bot->name, K->name),
                   2;
        const bot_param *P = &bot->params[idx];
        if (K->lo < P->min || K->hi > P->max)
            return snprintf(err, errlen, "--tune '%s': %s's %s is in %g..%g", K->key, bot->name,
                            K->name, P->min, P->max),
                   2;
        K->whole = P->integer;
        if (K->whole && (K->lo != floor(K->lo) || K->hi != floor(K->hi)))
            return snprintf(err, errlen, "--tune '%s': %s is a whole number", K->key, K->name),
                   2;
        for (int j = 0; j < t->nknob; j++)
            if (strcmp(t->k[j].name, K->name) == 0)
                return snprintf(err, errlen, "--tune: %s is given twice", K->key), 2;
        K->start = param[idx];
        K->cur = fmin(K->hi, fmax(K->lo, K->start));
        K->wlo = K->lo, K->whi = K->hi;
        t->nknob++;
    }
    return 0;
}

/* The values a step tries for knob K: up to TUNE_GRID across its window (whole numbers
 * distinct), sorted, the current value left out (it is the baseline). Returns how many. */
static int grid(const knob *K, double *v)
{
    int n = 0;
    double w = K->whi - K->wlo;
    for (int i = 0; i < TUNE_GRID; i++) {
        double x = K->wlo + w * i / (TUNE_GRID - 1);
        if (K->whole) {
            x = nearbyint(x);
        } else { /* a grid of short decimals: a hundredth of the window, each value the
                  * double nearest its decimal (83 / 100, not 83 x 0.01 = 0.8300000000000001) */
            double q = pow(10, floor(log10(w / 100)));
            double r = q < 1 ? nearbyint(x / q) / nearbyint(1 / q) : nearbyint(x / q) * q;
            x = fmin(K->hi, fmax(K->lo, r));
        }
        if (x == K->cur || (n > 0 && v[n - 1] == x))
            continue;
        v[n++] = x;
    }
    return n;
}

/* Writes the --sweep assignment of knob K at value v into buf. */
static void assign(const knob *K, double v, char *buf, size_t n)
{
    char val[64];
    srch_value(val, sizeof val, v);
    snprintf(buf, n, "%s=%s", K->key, val);
}

/* One point with every knob at its value in vals. */
static void make_point(const tuner *t, const double *vals, srch_point *p, char (*text)[128])
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < t->nknob; i++) {
        assign(&t->k[i], vals[i], text[i], sizeof text[0]);
        p->assign[p->nassign++] = text[i];
    }
}

/* A step: knob i swept across its window at `deals` deals, paired with the current values;
 * moves to the best value when its paired difference is positive (in the goal's sense) with
 * its whole 95% interval. Returns 0 and sets *moved, and *undecided when a value looked
 * better without the interval to show it; or an error as srch_play. */
static int tune_step(tuner *t, int pass, int i, uint64_t deals, bool *moved, bool *undecided,
                     char *err, size_t errlen)
{
    knob *K = &t->k[i];
    double cand[TUNE_GRID];
    int nc = grid(K, cand);
    *moved = *undecided = false;
    if (nc == 0)
        return 0;
    srch_point *pt = xcalloc((size_t)nc + 1, sizeof *pt);
    char(*text)[TUNE_MAX_KNOBS][128] = xcalloc((size_t)nc + 1, sizeof *text);
    double vals[TUNE_MAX_KNOBS];
    for (int j = 0; j < t->nknob; j++)
        vals[j] = t->k[j].cur;
    make_point(t, vals, &pt[0], text[0]);
    for (int c = 0; c < nc; c++) {
        vals[i] = cand[c];
        make_point(t, vals, &pt[c + 1], text[c + 1]);
    }
    exp_estimate *est = xcalloc((size_t)nc + 1, sizeof *est);
    uint64_t *games = xcalloc((size_t)nc + 1, sizeof *games);
    srch_out so = {.est = est, .games = games};
    const char *figs[1] = {t->fig};
    int rc = srch_play(t->o, t->sign > 0 ? "--maximize" : "--minimize", pt, nc + 1, t->rotate, figs, 1, srch_seed(t->o->seed, TAG_STEP,
                       (uint64_t)t->nsteps), deals, 0, &so, err, errlen);
    if (rc == 0) {
        t->plays += so.plays;
        t->evaluations += (uint64_t)nc + 1;
        t->share = so.share[0];
        if (t->nsteps == t->cap) {
            t->cap = t->cap ? 2 * t->cap : 16;
            t->steps = xrealloc(t->steps, (size_t)t->cap * sizeof *t->steps);
        }
        step *S = &t->steps[t->nsteps++];
        memset(S, 0, sizeof *S);
        S->pass = pass, S->knob = i, S->deals = deals, S->from = K->cur;
        int best = 0;
        for (int c = 0; c <= nc; c++) {
            S->tr[S->ntrial++] = (trial){c == 0 ? K->cur : cand[c - 1], est[c]};
            if (c > 0 && t->sign * est[c].diff > t->sign * (best ? est[best].diff : 0))
                best = c;
        }
        *moved = best > 0 && t->sign * (t->sign > 0 ? est[best].dlo : est[best].dhi) > 0;
        *undecided = best > 0 && !*moved;
        if (*moved)
            K->cur = cand[best - 1];
        S->to = K->cur;
        srch_progress(t->o->progress, "%s: tune pass %d, %s=%g (%llu games)",
                      t->o->game->name, pass + 1, K->key, K->cur,
                      (unsigned long long)t->plays);
    }
    free(pt);
    free(text);
    free(est);
    free(games);
    return rc;
}

/* Halves knob K's window around its current value (whole numbers keep at least the value on
 * either side; reals stop at 1/64 of the range). */
static void narrow(knob *K)
{
    double w = (K->whi - K->wlo) / 2;
    if (K->whole)
        w = fmax(2, nearbyint(w));
    w = fmax(w, (K->hi - K->lo) / 64);
    if (w >= K->hi - K->lo) {
        K->wlo = K->lo, K->whi = K->hi;
        return;
    }
    K->wlo = K->cur - w / 2, K->whi = K->cur + w / 2;
    if (K->whole)
        K->wlo = floor(K->wlo), K->whi = K->wlo + w;
    if (K->wlo < K->lo)
        K->whi += K->lo - K->wlo, K->wlo = K->lo;
    if (K->whi > K->hi)
        K->wlo -= K->whi - K->hi, K->whi = K->hi;
}

/* The best bot's canonical description. Returns 0, or 2 with a message. */
static int best_bot(tuner *t, char *err, size_t errlen)
{
    char cur[BOT_SPEC_MAX], next[BOT_SPEC_MAX], val[64];
    snprintf(cur, sizeof cur, "%s", t->canon);
    for (int i = 0; i < t->nknob; i++) {
        srch_value(val, sizeof val, t->k[i].cur);
        exp_with_param(cur, t->k[i].name, val, next, sizeof next);
        snprintf(cur, sizeof cur, "%s", next);
    }
    seat_spec spec;
    return botspec_parse_at(t->o->game, cur, t->nseats, &spec, t->best_bot, sizeof t->best_bot,
                            err, errlen) ?
               2 : 0;
}

/* The search, then the fresh re-evaluation of the best against the start. */
static int search(tuner *t, char *err, size_t errlen)
{
    uint64_t cap = t->o->runs, deals = cap / 8;
    if (deals < TUNE_MIN_DEALS)
        deals = cap < TUNE_MIN_DEALS ? cap : TUNE_MIN_DEALS;
    for (int pass = 0; pass < TUNE_MAX_PASSES; pass++) {
        bool any = false, open = false;
        for (int i = 0; i < t->nknob; i++) {
            bool moved, undecided;
            int rc = tune_step(t, pass, i, deals, &moved, &undecided, err, errlen);
            if (rc != 0)
                return rc;
            any = any || moved;
            open = open || undecided;
        }
        /* a pass that moves nothing ends the search, unless a value looked better without
         * the games to show it: then the next pass has twice the deals */
        if (!any && (!open || deals >= cap))
            break;
        if (!any)
            deals = 2 * deals > cap ? cap : 2 * deals;
        for (int i = 0; i < t->nknob; i++)
            narrow(&t->k[i]);
    }
    int rc = best_bot(t, err, errlen);
    if (rc != 0)
        return rc;
    srch_point pt[2];
    char text[2][TUNE_MAX_KNOBS][128];
    double vals[2][TUNE_MAX_KNOBS];
    for (int i = 0; i < t->nknob; i++)
        vals[0][i] = t->k[i].start, vals[1][i] = t->k[i].cur;
    make_point(t, vals[0], &pt[0], text[0]);
    make_point(t, vals[1], &pt[1], text[1]);
    exp_estimate est[2];
    uint64_t games[2];
    srch_out so = {.est = est, .games = games};
    const char *figs[1] = {t->fig};
    rc = srch_play(t->o, t->sign > 0 ? "--maximize" : "--minimize", pt, 2, t->rotate, figs, 1, srch_seed(t->o->seed, TAG_FINAL, 0), cap, 0,
                   &so, err, errlen);
    if (rc != 0)
        return rc;
    t->plays += so.plays;
    t->share = so.share[0];
    t->final_deals = games[1];
    t->start_est = est[0];
    t->best_est = est[1];
    t->gain = est[1];
    return 0;
}

static cJSON *tune_json(const void *search, double wall)
{
    const tuner *t = search;
    const exp_options *o = t->o;
    cJSON *root = srch_json_head(o, "tune");
    cJSON_AddStringToObject(root, "figure", t->fig);
    cJSON_AddBoolToObject(root, "share", t->share);
    cJSON_AddStringToObject(root, "goal", t->sign > 0 ? "maximize" : "minimize");
    cJSON_AddNumberToObject(root, "seat", t->seat + 1);
    cJSON_AddStringToObject(root, "start_bot", t->canon);
    cJSON_AddBoolToObject(root, "rotate_seats", t->rotate);
    cJSON *ps = cJSON_AddArrayToObject(root, "parameters");
    for (int i = 0; i < t->nknob; i++) {
        const knob *K = &t->k[i];
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "key", K->key);
        cJSON_AddNumberToObject(p, "lo", K->lo);
        cJSON_AddNumberToObject(p, "hi", K->hi);
        cJSON_AddBoolToObject(p, "whole", K->whole);
        cJSON_AddNumberToObject(p, "start", K->start);
        cJSON_AddNumberToObject(p, "best", K->cur);
        cJSON_AddItemToArray(ps, p);
    }
    cJSON *steps = cJSON_AddArrayToObject(root, "steps");
    for (int s = 0; s < t->nsteps; s++) {
        const step *S = &t->steps[s];
        cJSON *so = cJSON_CreateObject();
        cJSON_AddNumberToObject(so, "pass", S->pass + 1);
        cJSON_AddStringToObject(so, "parameter", t->k[S->knob].key);
        cJSON_AddNumberToObject(so, "deals", (double)S->deals);
        cJSON_AddNumberToObject(so, "from", S->from);
        cJSON_AddNumberToObject(so, "to", S->to);
        cJSON *tr = cJSON_AddArrayToObject(so, "trials");
        for (int c = 0; c < S->ntrial; c++) {
            const exp_estimate *e = &S->tr[c].est;
            cJSON *x = cJSON_CreateObject();
            cJSON_AddNumberToObject(x, "value", S->tr[c].value);
            cJSON_AddItemToObject(x, "figure", srch_json_est(e->value, e->lo, e->hi));
            if (c > 0)
                cJSON_AddItemToObject(x, "difference", srch_json_est(e->diff, e->dlo, e->dhi));
            cJSON_AddItemToArray(tr, x);
        }
        cJSON_AddItemToArray(steps, so);
    }
    cJSON_AddStringToObject(root, "best_bot", t->best_bot);
    cJSON *ev = cJSON_AddObjectToObject(root, "evaluation");
    cJSON_AddNumberToObject(ev, "deals", (double)t->final_deals);
    cJSON_AddItemToObject(ev, "start",
                          srch_json_est(t->start_est.value, t->start_est.lo, t->start_est.hi));
    cJSON_AddItemToObject(ev, "best",
                          srch_json_est(t->best_est.value, t->best_est.lo, t->best_est.hi));
    cJSON_AddItemToObject(ev, "improvement",
                          srch_json_est(t->gain.diff, t->gain.dlo, t->gain.dhi));
    cJSON_AddNumberToObject(root, "evaluations", (double)t->evaluations);
    cJSON_AddNumberToObject(root, "games", (double)t->plays);
    cJSON_AddItemToObject(root, "run", srch_json_run(o, wall, t->plays));
    return root;
}

static void tune_text(const void *search, const cJSON *root, FILE *out, double wall)
{
    const tuner *t = search;
    const exp_options *o = t->o;
    char a[96], b[96], line[BOT_SPEC_MAX + 512];
    snprintf(line, sizeof line, "tuning seat %d (%s) to %s %s; seed %llu%s", t->seat + 1,
             t->canon, t->sign > 0 ? "maximize" : "minimize", t->fig,
             (unsigned long long)o->seed, t->rotate ? "; seats rotated" : "");
    srch_text_head(o, out, root, line);
    snprintf(line, sizeof line, "coordinate search: %d steps, %llu points evaluated; each step "
                                "pairs the values tried with the current best on the same deals "
                                "(95%% CI)",
             t->nsteps, (unsigned long long)t->evaluations);
    textcols_para(out, line, 0, TEXTCOLS_WIDTH);
    fputc('\n', out);
    for (int s = 0; s < t->nsteps; s++) {
        const step *S = &t->steps[s];
        const knob *K = &t->k[S->knob];
        srch_value(a, sizeof a, S->from);
        srch_value(b, sizeof b, S->to);
        fprintf(out, "pass %d  %s  %llu deals  %s -> %s%s\n", S->pass + 1, K->key,
                (unsigned long long)S->deals, a, b, S->from == S->to ? " (kept)" : "");
        for (int c = 0; c < S->ntrial; c++) {
            const exp_estimate *e = &S->tr[c].est;
            char v[64], f[96], d[96];
            srch_value(v, sizeof v, S->tr[c].value);
            exp_text_interval(f, sizeof f, e->value, e->lo, e->hi, t->share, false);
            if (c == 0)
                snprintf(d, sizeof d, "(current)");
            else
                exp_text_interval(d, sizeof d, e->diff, e->dlo, e->dhi, t->share, true);
            fprintf(out, "    %-10s %-26s %s\n", v, f, d);
        }
    }
    fprintf(out, "\nbest: %s\n", t->best_bot);
    for (int i = 0; i < t->nknob; i++) {
        srch_value(a, sizeof a, t->k[i].start);
        srch_value(b, sizeof b, t->k[i].cur);
        fprintf(out, "  %-24s %s -> %s\n", t->k[i].key, a, b);
    }
    fprintf(out, "\nre-evaluated on fresh seeds, %llu deals%s:\n",
            (unsigned long long)t->final_deals, t->rotate ? " x every rotation" : "");
    exp_text_interval(a, sizeof a, t->start_est.value, t->start_est.lo, t->start_est.hi,
                      t->share, false);
    fprintf(out, "  start        %s\n", a);
    exp_text_interval(a, sizeof a, t->best_est.value, t->best_est.lo, t->best_est.hi, t->share,
                      false);
    fprintf(out, "  best         %s\n", a);
    exp_text_interval(a, sizeof a, t->gain.diff, t->gain.dlo, t->gain.dhi, t->share, true);
    fprintf(out, "  improvement  %s%s\n", a, t->share ? " pp" : "");
    srch_text_tail(o, out, wall, t->plays);
}

static void tune_csv(const void *search, FILE *out)
{
    const tuner *t = search;
    fprintf(out, "pass,parameter,deals,value,current,figure,figure_lo,figure_hi,difference,"
                 "difference_lo,difference_hi\n");
    char v[64];
    for (int s = 0; s < t->nsteps; s++) {
        const step *S = &t->steps[s];
        for (int c = 0; c < S->ntrial; c++) {
            const exp_estimate *e = &S->tr[c].est;
            srch_value(v, sizeof v, S->tr[c].value);
            fprintf(out, "%d,%s,%llu,%s,%d,", S->pass + 1, t->k[S->knob].key,
                    (unsigned long long)S->deals, v, c == 0);
            report_csv_estimate(out, e->value, e->lo, e->hi);
            fputc(',', out);
            if (c == 0)
                fputs(",,", out);
            else
                report_csv_estimate(out, e->diff, e->dlo, e->dhi);
            fputc('\n', out);
        }
    }
    const exp_estimate *g = &t->gain;
    fprintf(out, "final,%s,%llu,best,0,", t->best_bot, (unsigned long long)t->final_deals);
    report_csv_estimate(out, g->value, g->lo, g->hi);
    fputc(',', out);
    report_csv_estimate(out, g->diff, g->dlo, g->dhi);
    fputc('\n', out);
}

static const srch_writer tune_writer = {tune_json, tune_csv, tune_text};

int tune_run(const exp_options *o, FILE *out, char *err, size_t errlen)
{
    double t0 = clock_seconds();
    tuner *t = xcalloc(1, sizeof *t);
    t->o = o;
    t->fig = o->maximize;
    t->sign = o->minimize ? -1 : 1;
    int rc = 0;
    if (t->fig == NULL) {
        snprintf(err, errlen, "--tune needs --maximize=FIGURE or --minimize=FIGURE "
                              "(e.g. win_share@1)");
        rc = 2;
    }
    if (rc == 0)
        rc = parse_tune(t, err, errlen);
    t->rotate = o->rotate || srch_seat_figure(t->fig ? t->fig : "");
    if (rc == 0)
        rc = search(t, err, errlen);
    rc = srch_finish(o, rc, out, t0, &tune_writer, t);
    free(t->steps);
    free(t);
    return rc;
}
