/* report.c — builds the report tree from a run's accumulators, writes it as JSON or as the
 * full text listing, and hands the other formats to their renderers (report_csv.c,
 * report_text.c, report_html.c). The tree is the one model: every renderer only reads it. */
#include "report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/population.h"
#include "config/rules.h"
#include "core/clock.h"
#include "core/registry.h"
#include "core/stats.h"
#include "core/xalloc.h"
#include "report/fields.h"
#include "report/report_csv.h"
#include "report/report_html.h"
#include "report/report_text.h"

enum { HIST_MAX_BINS = 40 };

/* ---- building ---------------------------------------------------------------------------- */

static cJSON *pair(double a, double b)
{
    cJSON *arr = cJSON_CreateArray();
    cJSON_AddItemToArray(arr, cJSON_CreateNumber(a));
    cJSON_AddItemToArray(arr, cJSON_CreateNumber(b));
    return arr;
}

/* {"value": share, "ci95": Wilson interval (exact at 0 and n: stats_share_interval), "n":
 * trials, "hits": hits}. With no trial there is no share: value and ci95 are null, as for a
 * mean with no observation. */
static cJSON *rate_estimate(double hits, double trials)
{
    cJSON *o = cJSON_CreateObject();
    double lo, hi;
    stats_share_interval(hits, trials, &lo, &hi);
    cJSON_AddItemToObject(o, "value",
                          trials > 0 ? cJSON_CreateNumber(hits / trials) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "ci95", trials > 0 ? pair(lo, hi) : cJSON_CreateNull());
    cJSON_AddNumberToObject(o, "n", trials);
    cJSON_AddNumberToObject(o, "hits", hits);
    return o;
}

/* Bins a histogram into at most HIST_MAX_BINS bins of equal integer width. */
static cJSON *histogram(const acc *a)
{
    int64_t span = a->max - a->min + 1;
    int64_t width = (span + HIST_MAX_BINS - 1) / HIST_MAX_BINS;
    if (width < 1)
        width = 1;
    cJSON *h = cJSON_CreateObject();
    cJSON_AddNumberToObject(h, "width", (double)width);
    cJSON *from = cJSON_AddArrayToObject(h, "from");
    cJSON *count = cJSON_AddArrayToObject(h, "count");
    for (int64_t start = a->min; start <= a->max; start += width) {
        int64_t c = 0;
        for (int64_t v = start; v < start + width && v <= a->max; v++)
            c += a->count[v - a->lo];
        cJSON_AddItemToArray(from, cJSON_CreateNumber((double)start));
        cJSON_AddItemToArray(count, cJSON_CreateNumber((double)c));
    }
    return h;
}

/* {"value": mean, "ci95": t interval, "n", "sd", "min", "max", "quantiles", "histogram"}. With
 * no observation the value is null; with fewer than two there is no interval (null). Two or
 * more observations all alike add "point_mass": true (a figure some cap or rule pins down: the
 * renderers show it without an interval). The interval keeps to the support sup (a mean of
 * counts: never below 0; stats_interval); fewer than STATS_SMALL_N observations add
 * "small_sample": true (the t interval is approximate there). */
static cJSON *mean_estimate(const acc *a, stats_support sup)
{
    summary s;
    stats_summary(a, &s);
    if (s.n >= 2)
        stats_interval(s.mean, s.sd * s.sd / (double)s.n, (double)s.n - 1, 0.025, sup,
                       (double)s.n, &s.lo, &s.hi);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "value", s.n > 0 ? cJSON_CreateNumber(s.mean) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "ci95", s.n >= 2 ? pair(s.lo, s.hi) : cJSON_CreateNull());
    cJSON_AddNumberToObject(o, "n", (double)s.n);
    cJSON_AddItemToObject(o, "sd", s.n >= 2 ? cJSON_CreateNumber(s.sd) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "min", s.n > 0 ? cJSON_CreateNumber(s.min) : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "max", s.n > 0 ? cJSON_CreateNumber(s.max) : cJSON_CreateNull());
    if (s.n >= 2 && s.min == s.max) /* every observation alike: its interval is no estimate */
        cJSON_AddTrueToObject(o, "point_mass");
    else if (s.n >= 2 && s.n < STATS_SMALL_N)
        cJSON_AddTrueToObject(o, "small_sample");
    if (s.has_quantiles && s.n > 0) {
        cJSON *q = cJSON_AddObjectToObject(o, "quantiles");
        static const char *const names[5] = {"p05", "p25", "p50", "p75", "p95"};
        for (int i = 0; i < 5; i++)
            cJSON_AddNumberToObject(q, names[i], s.q[i]);
        cJSON_AddItemToObject(o, "histogram", histogram(a));
    }
    return o;
}

/* mean_estimate of ranks, its interval kept inside [1, nseats] (tied seats share a rank). */
static cJSON *rank_estimate(const acc *a, int nseats)
{
    cJSON *o = mean_estimate(a, STATS_NONNEG);
    cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "ci95");
    if (cJSON_GetArraySize(c) == 2) {
        cJSON *lo = cJSON_GetArrayItem(c, 0), *hi = cJSON_GetArrayItem(c, 1);
        cJSON_SetNumberValue(lo, fmax(lo->valuedouble, 1));
        cJSON_SetNumberValue(hi, fmin(hi->valuedouble, nseats));
    }
    return o;
}

/* The support of the mean of g's scores. */
static stats_support score_support(const game_type *g)
{
    return g->score_signed ? STATS_REAL : STATS_NONNEG;
}

static cJSON *metric_estimate(const game_type *g, const metric_def *m, const acc *a)
{
    if (m->kind == METRIC_RATE)
        return rate_estimate((double)a->hits, (double)a->n);
    return mean_estimate(a, registry_metric_signed(g, m->name) ? STATS_REAL : STATS_NONNEG);
}

/* Adds "exact" to each estimate of `estimates` named in `values` (an object of numbers). */
static void attach_values(cJSON *estimates, const cJSON *values)
{
    for (cJSON *m = estimates ? estimates->child : NULL; m; m = m->next) {
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(values, m->string);
        if (cJSON_IsNumber(x) && cJSON_IsObject(m))
            cJSON_AddNumberToObject(m, "exact", x->valuedouble);
    }
}

/* Puts the exact values the game computed for seat k beside the simulated metrics, and its
 * exact win share (key "win_share" of the seat's entry) beside the simulated one. */
static void attach_exact(cJSON *seat_obj, cJSON *metrics, const cJSON *exact, int k)
{
    const cJSON *seats = cJSON_GetObjectItemCaseSensitive(exact, "seats");
    const cJSON *e;
    cJSON_ArrayForEach(e, seats)
    {
        const cJSON *seat = cJSON_GetObjectItemCaseSensitive(e, "seat");
        if (!cJSON_IsNumber(seat) || seat->valueint != k + 1)
            continue;
        attach_values(metrics, e);
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(e, "win_share");
        if (cJSON_IsNumber(w))
            cJSON_AddNumberToObject(cJSON_GetObjectItemCaseSensitive(seat_obj, "win_share"),
                                    "exact", w->valuedouble);
    }
}

static bool same_bot(const report_input *in, int a, int b)
{
    return strcmp(in->bot_spec[a], in->bot_spec[b]) == 0;
}

static cJSON *build_seats(const report_input *in)
{
    const run_config *cfg = in->cfg;
    const run_result *res = in->res;
    const game_type *g = cfg->game;
    double games = (double)res->games;
    cJSON *seats = cJSON_CreateArray();
    for (int k = 0; k < cfg->nseats; k++) {
        cJSON *s = cJSON_CreateObject();
        cJSON_AddNumberToObject(s, "seat", k + 1);
        cJSON_AddStringToObject(s, "bot", in->bot_spec[k]);
        double wins = (double)res->win_units[k] / RUN_WIN_UNIT;
        cJSON_AddNumberToObject(s, "wins", wins);
        cJSON_AddNumberToObject(s, "wins_alone", (double)res->wins_alone[k]);
        cJSON_AddNumberToObject(s, "wins_shared", (double)res->wins_shared[k]);
        cJSON_AddItemToObject(s, "win_share", rate_estimate(wins, games));
        cJSON_AddItemToObject(s, g->score_name,
                              mean_estimate(&res->score[k], score_support(g)));
        cJSON_AddItemToObject(s, "rank", rank_estimate(&res->rank[k], cfg->nseats));
        cJSON *metrics = cJSON_AddObjectToObject(s, "metrics");
        for (int m = 0; g->metrics && g->metrics[m].name; m++)
            if (g->metrics[m].scope == METRIC_SEAT)
                cJSON_AddItemToObject(metrics, g->metrics[m].name,
                                      metric_estimate(g, &g->metrics[m], rec_get(res->rec, m, k)));
        if (in->exact)
            attach_exact(s, metrics, in->exact, k);
        cJSON_AddItemToArray(seats, s);
    }
    return seats;
}

/* The seat metrics of the bot of seat k, pooled over every seat that plays it. */
static cJSON *bot_metrics(const report_input *in, int k)
{
    const game_type *g = in->cfg->game;
    cJSON *metrics = cJSON_CreateObject();
    for (int m = 0; g->metrics && g->metrics[m].name; m++) {
        if (g->metrics[m].scope != METRIC_SEAT)
            continue;
        acc pooled = {0};
        for (int j = k; j < in->cfg->nseats; j++)
            if (same_bot(in, j, k))
                acc_merge(&pooled, rec_get(in->res->rec, m, j));
        cJSON_AddItemToObject(metrics, g->metrics[m].name,
                              metric_estimate(g, &g->metrics[m], &pooled));
        acc_free(&pooled);
    }
    return metrics;
}

/* The choices of the bot of seat k by decision kind, pooled over every seat that plays it:
 * {"kind": {"decisions": n, "not_first": m}} (see run_result.choices). */
static cJSON *bot_choices(const report_input *in, int k)
{
    const run_result *res = in->res;
    cJSON *o = cJSON_CreateObject();
    for (int kind = 0; kind < res->nkinds; kind++) {
        double n = 0, m = 0;
        for (int j = k; j < in->cfg->nseats; j++)
            if (same_bot(in, j, k)) {
                n += (double)res->choices[2 * (j * res->nkinds + kind)];
                m += (double)res->choices[2 * (j * res->nkinds + kind) + 1];
            }
        cJSON *c = cJSON_AddObjectToObject(o, in->cfg->game->kind_names[kind]);
        cJSON_AddNumberToObject(c, "decisions", n);
        cJSON_AddNumberToObject(c, "not_first", m);
    }
    return o;
}

/* Win share per distinct bot: the share of (game, seat) pairs that bot won; its seat metrics
 * and its choices pooled over its seats. */
static cJSON *build_bots(const report_input *in)
{
    const run_config *cfg = in->cfg;
    cJSON *bots = cJSON_CreateArray();
    for (int k = 0; k < cfg->nseats; k++) {
        bool seen = false;
        for (int j = 0; j < k; j++)
            seen = seen || same_bot(in, j, k);
        if (seen)
            continue;
        cJSON *b = cJSON_CreateObject();
        cJSON_AddStringToObject(b, "bot", in->bot_spec[k]);
        cJSON *list = cJSON_AddArrayToObject(b, "seats");
        double wins = 0, trials = 0;
        for (int j = k; j < cfg->nseats; j++)
            if (same_bot(in, j, k)) {
                cJSON_AddItemToArray(list, cJSON_CreateNumber(j + 1));
                wins += (double)in->res->win_units[j] / RUN_WIN_UNIT;
                trials += (double)in->res->games;
            }
        cJSON_AddNumberToObject(b, "wins", wins);
        cJSON_AddItemToObject(b, "win_share", rate_estimate(wins, trials));
        cJSON_AddItemToObject(b, "metrics", bot_metrics(in, k));
        cJSON_AddItemToObject(b, "choices", bot_choices(in, k));
        cJSON_AddItemToArray(bots, b);
    }
    return bots;
}

static int metric_index(const game_type *g, const char *name);

/* Where type t of the run comes from: the population member (pop, m) or the seat k whose
 * bot it is (pop NULL). */
static void type_origin(const report_input *in, int t, const population **pop, int *m, int *k)
{
    const recorder *rec = in->res->rec;
    *pop = NULL;
    *m = *k = -1;
    for (int s = 0; s < in->cfg->nseats; s++) {
        const population *p = in->cfg->seat[s].pop;
        int base = rec->type_base[s];
        if (p && t >= base && t < base + p->nmembers) {
            *pop = p;
            *m = t - base;
            *k = s;
            return;
        }
        if (!p && base == t && *k < 0)
            *k = s;
    }
}

/* Figures by type of player (see run_result.ntypes): for each, where it comes from, its
 * share of the seats, win share, score, rank and every seat metric pooled over the seats it
 * sat at, game by game. */
static cJSON *build_types(const report_input *in)
{
    const run_result *res = in->res;
    const recorder *rec = res->rec;
    const game_type *g = in->cfg->game;
    cJSON *types = cJSON_CreateArray();
    double seat_games = (double)res->games * in->cfg->nseats;
    for (int t = 0; t < res->ntypes; t++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "type", res->type_name[t]);
        const population *pop;
        int m, k;
        type_origin(in, t, &pop, &m, &k);
        if (pop) {
            cJSON_AddStringToObject(o, "population", pop->name);
            cJSON_AddStringToObject(o, "bot", pop->member[m].canon);
            cJSON_AddNumberToObject(o, "weight", pop->member[m].weight / pop->cum[pop->nmembers - 1]);
            cJSON_AddBoolToObject(o, "knobs_drawn", pop->member[m].drawn);
        } else {
            cJSON_AddNullToObject(o, "population");
            cJSON_AddStringToObject(o, "bot", k >= 0 ? in->bot_spec[k] : "");
            cJSON_AddNullToObject(o, "weight");
            cJSON_AddBoolToObject(o, "knobs_drawn", false);
        }
        const acc *win = rec_type_get(rec, rec->nmetrics + REC_TYPE_WIN, t);
        double played = (double)(win->n / RUN_WIN_UNIT);
        cJSON_AddNumberToObject(o, "seat_games", played);
        cJSON_AddItemToObject(o, "seat_share", rate_estimate(played, seat_games));
        double wins = (double)win->hits / RUN_WIN_UNIT;
        cJSON_AddNumberToObject(o, "wins", wins);
        cJSON_AddItemToObject(o, "win_share", rate_estimate(wins, played));
        cJSON_AddItemToObject(o, g->score_name,
                              mean_estimate(rec_type_get(rec, rec->nmetrics + REC_TYPE_SCORE, t),
                                            score_support(g)));
        cJSON_AddItemToObject(o, "rank",
                              rank_estimate(rec_type_get(rec, rec->nmetrics + REC_TYPE_RANK, t),
                                            in->cfg->nseats));
        cJSON *metrics = cJSON_AddObjectToObject(o, "metrics");
        for (int i = 0; g->metrics && g->metrics[i].name; i++)
            if (g->metrics[i].scope == METRIC_SEAT)
                cJSON_AddItemToObject(metrics, g->metrics[i].name,
                                      metric_estimate(g, &g->metrics[i], rec_type_get(rec, i, t)));
        /* the type's part of every success of the game's chosen rates, over all types */
        cJSON *shares = cJSON_AddObjectToObject(o, "shares");
        for (int j = 0; g->type_shares && g->type_shares[j]; j++) {
            int i = metric_index(g, g->type_shares[j]);
            if (i < 0 || g->metrics[i].kind != METRIC_RATE || g->metrics[i].scope != METRIC_SEAT)
                continue;
            double all = 0;
            for (int u = 0; u < res->ntypes; u++)
                all += (double)rec_type_get(rec, i, u)->hits;
            cJSON_AddItemToObject(shares, g->metrics[i].name,
                                  rate_estimate((double)rec_type_get(rec, i, t)->hits, all));
        }
        cJSON_AddItemToArray(types, o);
    }
    return types;
}

static cJSON *build_game_metrics(const report_input *in)
{
    const run_config *cfg = in->cfg;
    const run_result *res = in->res;
    const game_type *g = cfg->game;
    double games = (double)res->games;
    cJSON *m = cJSON_CreateObject();
    cJSON_AddItemToObject(m, "length", mean_estimate(&res->length, STATS_NONNEG));
    cJSON_AddItemToObject(m, "ties", rate_estimate((double)res->tied_games, games));
    cJSON_AddItemToObject(m, "no_winner", rate_estimate((double)res->no_winner, games));
    cJSON *ended = cJSON_AddObjectToObject(m, "ended");
    for (int e = 0; e < res->nends; e++)
        cJSON_AddItemToObject(ended, g->end_names[e],
                              rate_estimate((double)res->end_count[e], games));

    /* Seat fairness: only meaningful when every seat plays the same bot. */
    bool same = cfg->nseats >= 2;
    for (int k = 1; k < cfg->nseats; k++)
        same = same && same_bot(in, 0, k);
    if (same) {
        double obs[GAME_MAX_SEATS], chi2;
        for (int k = 0; k < cfg->nseats; k++)
            obs[k] = (double)res->win_units[k] / RUN_WIN_UNIT;
        double p = stats_chisq_equal(obs, cfg->nseats, &chi2);
        cJSON *f = cJSON_AddObjectToObject(m, "seat_fairness");
        cJSON_AddNumberToObject(f, "chi2", chi2);
        cJSON_AddNumberToObject(f, "df", cfg->nseats - 1);
        cJSON_AddNumberToObject(f, "p_value", p);
    } else {
        cJSON_AddNullToObject(m, "seat_fairness");
    }
    for (int i = 0; g->metrics && g->metrics[i].name; i++)
        if (g->metrics[i].scope == METRIC_GAME)
            cJSON_AddItemToObject(m, g->metrics[i].name,
                                  metric_estimate(g, &g->metrics[i], rec_get(res->rec, i, -1)));
    /* Exact game-level values (key "metrics" of the exact object) beside the simulated. */
    if (in->exact)
        attach_values(m, cJSON_GetObjectItemCaseSensitive(in->exact, "metrics"));
    return m;
}

/* Index of metric `name` in g's table, or -1. */
static int metric_index(const game_type *g, const char *name)
{
    for (int m = 0; g->metrics && g->metrics[m].name; m++)
        if (strcmp(g->metrics[m].name, name) == 0)
            return m;
    return -1;
}

/* The bin width of distribution d: its ruleset key's integer value (1 when absent or not a
 * positive integer), its fixed width, or a round width (1, 2, 5, 10, 20, 50, ...) that keeps
 * the values from lo to hi within DIST_AUTO_BINS bins. */
enum { DIST_AUTO_BINS = 20 };
static int64_t dist_width(const metric_dist *d, const cJSON *ruleset, int64_t lo, int64_t hi)
{
    if (d->table)
        return 1;
    if (d->width_key) {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(ruleset, d->width_key);
        double v = cJSON_IsNumber(k) ? k->valuedouble : 1;
        return v >= 1 && v <= 1e9 && v == floor(v) ? (int64_t)v : 1;
    }
    if (d->width > 0)
        return d->width;
    static const int mant[3] = {1, 2, 5};
    int64_t w = 1, decade = 1;
    for (int i = 0; (hi - lo) / w + 2 > DIST_AUTO_BINS && decade < INT64_MAX / 100; i++) {
        if (i % 3 == 2)
            decade *= 10;
        w = decade * mant[(i + 1) % 3];
    }
    return w;
}

/* Floor of v / w for w >= 1, negative v included. */
static int64_t floor_div(int64_t v, int64_t w)
{
    return v >= 0 ? v / w : -((-v + w - 1) / w);
}

/* One distribution of the game (see metric_dist): {"name", "metric", "title", "value",
 * "counts", "width", "n", "bins": [{"from", "to", "label", "count", "share"}], "dropped"},
 * from the metric's exact histogram (a seat metric's pooled over every seat). A histogram the
 * recorder dropped (values too far apart) leaves no bins and "dropped" true. */
static cJSON *build_dist(const report_input *in, const metric_dist *d)
{
    const game_type *g = in->cfg->game;
    int m = metric_index(g, d->metric);
    if (m < 0 || g->metrics[m].kind != METRIC_MEAN)
        return NULL;
    acc pooled = {0};
    if (g->metrics[m].scope == METRIC_GAME)
        acc_merge(&pooled, rec_get(in->res->rec, m, -1));
    else
        for (int k = 0; k < in->cfg->nseats; k++)
            acc_merge(&pooled, rec_get(in->res->rec, m, k));
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", d->name);
    cJSON_AddStringToObject(o, "metric", d->metric);
    cJSON_AddStringToObject(o, "title", d->title);
    cJSON_AddStringToObject(o, "value", d->value);
    cJSON_AddStringToObject(o, "counts", d->counts);
    cJSON_AddBoolToObject(o, "table", d->table);
    cJSON_AddBoolToObject(o, "replaces_row", d->replaces_row);
    cJSON_AddNumberToObject(o, "n", (double)pooled.n);
    cJSON *bins = cJSON_CreateArray();
    bool have = pooled.n > 0 && pooled.count != NULL;
    int64_t w = have ? dist_width(d, in->ruleset, pooled.min, pooled.max) : 1;
    cJSON_AddNumberToObject(o, "width", (double)w);
    for (int64_t from = have ? floor_div(pooled.min, w) * w : 1; have && from <= pooled.max;
         from += w) {
        int64_t c = 0;
        for (int64_t v = from > pooled.min ? from : pooled.min; v < from + w && v <= pooled.max; v++)
            c += pooled.count[v - pooled.lo];
        if (d->table && c == 0)
            continue;
        char label[160];
        if (d->label && w == 1)
            d->label(from, in->ruleset, label, sizeof label);
        else if (w == 1)
            snprintf(label, sizeof label, "%lld", (long long)from);
        else
            snprintf(label, sizeof label, "%lld..%lld", (long long)from, (long long)(from + w - 1));
        cJSON *b = cJSON_CreateObject();
        cJSON_AddNumberToObject(b, "from", (double)from);
        cJSON_AddNumberToObject(b, "to", (double)(from + w - 1));
        cJSON_AddStringToObject(b, "label", label);
        cJSON_AddNumberToObject(b, "count", (double)c);
        cJSON_AddNumberToObject(b, "share", (double)c / (double)pooled.n);
        cJSON_AddItemToArray(bins, b);
    }
    cJSON_AddItemToObject(o, "bins", bins);
    cJSON_AddBoolToObject(o, "dropped", pooled.n > 0 && pooled.count == NULL);
    acc_free(&pooled);
    return o;
}

static cJSON *build_dists(const report_input *in)
{
    const game_type *g = in->cfg->game;
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; g->dists && g->dists[i].name; i++) {
        cJSON *o = build_dist(in, &g->dists[i]);
        if (o)
            cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* The game's presentation (game_type.headline, groups, labels) with its fallbacks, so that
 * the summary renderers read it from the tree: {"headline": [names], "groups": [{"title",
 * "metrics": [names]}], "labels": {name: {"label", "unit"}}}. Every metric of the table has a
 * label and sits in exactly one group. */
/* The game's roles (game_type.roles): each role's win share, net and bankruptcy, the game
 * metrics' estimates. */
static cJSON *build_roles(const report_input *in)
{
    const game_type *g = in->cfg->game;
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; g->roles[i].role; i++) {
        const metric_role *ro = &g->roles[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "role", ro->role);
        const char *key[3] = {"win_share", "net", "bankrupt"};
        const char *metric[3] = {ro->win, ro->net, ro->bankrupt};
        for (int j = 0; j < 3; j++) {
            int m = metric[j] ? metric_index(g, metric[j]) : -1;
            if (m < 0) {
                cJSON_AddNullToObject(o, key[j]);
                continue;
            }
            cJSON *e = metric_estimate(g, &g->metrics[m], rec_get(in->res->rec, m, -1));
            cJSON_AddStringToObject(e, "metric", metric[j]);
            cJSON_AddItemToObject(o, key[j], e);
        }
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

/* The game's tables of figures (game_type.tables): each row's label, metric and estimate. */
static cJSON *build_tables(const report_input *in)
{
    const game_type *g = in->cfg->game;
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; g->tables[i].name; i++) {
        const metric_table *t = &g->tables[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", t->name);
        cJSON_AddStringToObject(o, "title", t->title);
        cJSON_AddStringToObject(o, "row_head", t->row_head);
        cJSON_AddStringToObject(o, "after", t->after);
        cJSON *rows = cJSON_AddArrayToObject(o, "rows");
        for (int j = 0; t->rows[j].metric; j++) {
            int m = metric_index(g, t->rows[j].metric);
            if (m < 0)
                continue;
            cJSON *row = cJSON_CreateObject();
            cJSON_AddStringToObject(row, "label", t->rows[j].label);
            cJSON_AddStringToObject(row, "metric", t->rows[j].metric);
            cJSON_AddItemToObject(row, "from", isnan(t->rows[j].from) ? cJSON_CreateNull() : cJSON_CreateNumber(t->rows[j].from));
            cJSON_AddItemToObject(row, "to", isnan(t->rows[j].to) ? cJSON_CreateNull() : cJSON_CreateNumber(t->rows[j].to));
            cJSON_AddItemToObject(row, "estimate",
                                  metric_estimate(g, &g->metrics[m], rec_get(in->res->rec, m, -1)));
            cJSON_AddItemToArray(rows, row);
        }
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

static cJSON *build_layout(const game_type *g)
{
    cJSON *l = cJSON_CreateObject();
    cJSON *head = cJSON_AddArrayToObject(l, "headline");
    for (int i = 0; g->headline && g->headline[i]; i++)
        cJSON_AddItemToArray(head, cJSON_CreateString(g->headline[i]));
    cJSON *groups = cJSON_AddArrayToObject(l, "groups");
    cJSON *labels = cJSON_AddObjectToObject(l, "labels");
    cJSON *other = cJSON_CreateArray();
    for (int m = 0; g->metrics && g->metrics[m].name; m++) {
        const char *name = g->metrics[m].name;
        const metric_label *lab = NULL;
        for (int i = 0; g->labels && g->labels[i].name && !lab; i++)
            if (strcmp(g->labels[i].name, name) == 0)
                lab = &g->labels[i];
        cJSON *o = cJSON_AddObjectToObject(labels, name);
        cJSON_AddStringToObject(o, "label", lab && lab->label ? lab->label : name);
        cJSON_AddItemToObject(o, "unit", lab && lab->unit ? cJSON_CreateString(lab->unit)
                                                          : cJSON_CreateNull());
        bool grouped = false;
        for (int i = 0; g->roles && g->roles[i].role && !grouped; i++) /* the roles' table */
            grouped = strncmp(name, "role_", 5) == 0 &&
                      ((g->roles[i].win && strcmp(g->roles[i].win, name) == 0) ||
                       (g->roles[i].net && strcmp(g->roles[i].net, name) == 0) ||
                       (g->roles[i].bankrupt && strcmp(g->roles[i].bankrupt, name) == 0));
        for (int i = 0; g->tables && g->tables[i].name && !grouped; i++)
            for (int j = 0; g->tables[i].rows[j].metric && !grouped; j++)
                grouped = strcmp(g->tables[i].rows[j].metric, name) == 0;
        for (int i = 0; g->groups && g->groups[i].title && !grouped; i++)
            for (int j = 0; g->groups[i].metrics[j] && !grouped; j++)
                grouped = strcmp(g->groups[i].metrics[j], name) == 0;
        if (!grouped)
            cJSON_AddItemToArray(other, cJSON_CreateString(name));
    }
    for (int i = 0; g->groups && g->groups[i].title; i++) {
        cJSON *grp = cJSON_CreateObject();
        cJSON_AddStringToObject(grp, "title", g->groups[i].title);
        cJSON *list = cJSON_AddArrayToObject(grp, "metrics");
        for (int j = 0; g->groups[i].metrics[j]; j++)
            cJSON_AddItemToArray(list, cJSON_CreateString(g->groups[i].metrics[j]));
        cJSON_AddItemToArray(groups, grp);
    }
    if (cJSON_GetArraySize(other) > 0) {
        cJSON *grp = cJSON_CreateObject();
        cJSON_AddStringToObject(grp, "title", g->groups ? "Other figures" : "Figures");
        cJSON_AddItemToObject(grp, "metrics", other);
        cJSON_AddItemToArray(groups, grp);
    } else {
        cJSON_Delete(other);
    }
    cJSON *terms = cJSON_AddArrayToObject(l, "glossary");
    for (int i = 0; g->glossary && g->glossary[i].term; i++) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "term", g->glossary[i].term);
        cJSON_AddStringToObject(t, "meaning", g->glossary[i].meaning);
        cJSON_AddItemToArray(terms, t);
    }
    return l;
}

cJSON *report_header(const game_type *g, double runs, uint64_t seed, int players,
                     const cJSON *ruleset)
{
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)seed);
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "tool", "giochi-sim");
    cJSON_AddStringToObject(r, "version", GIOCHI_VERSION);
    cJSON_AddStringToObject(r, "game", g->name);
    cJSON_AddStringToObject(r, "title", g->title);
    cJSON_AddNumberToObject(r, "runs", runs);
    cJSON_AddStringToObject(r, "seed", text);
    cJSON_AddNumberToObject(r, "players", players);
    cJSON_AddStringToObject(r, "length_unit", g->length_unit);
    cJSON_AddStringToObject(r, "score", g->score_name);
    cJSON_AddBoolToObject(r, "low_score_wins", g->low_score_wins);
    cJSON_AddItemToObject(r, "ruleset", cJSON_Duplicate(ruleset, 1));
    /* Provenance: what differs from the built-in ruleset, as --set would write it. */
    char err[256];
    cJSON *def = rules_parse(g->default_rules, g->name, err, sizeof err);
    cJSON_AddItemToObject(r, "ruleset_changes", rules_changes(g, def, ruleset));
    cJSON_Delete(def);
    return r;
}

cJSON *report_command_line(int argc, char **argv)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < argc; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(argv[i]));
    return a;
}

void report_run_stamp(cJSON *run, int argc, char **argv)
{
    char date[64];
    cJSON_AddItemToObject(run, "command_line", report_command_line(argc, argv));
    cJSON_AddStringToObject(run, "date", clock_date(date, sizeof date));
}

cJSON *report_build(const report_input *in)
{
    const run_config *cfg = in->cfg;
    const game_type *g = cfg->game;
    cJSON *r = report_header(g, (double)in->res->games, cfg->seed, cfg->nseats, in->ruleset);
    cJSON_AddItemToObject(r, "layout", build_layout(g));
    cJSON_AddItemToObject(r, "seats", build_seats(in));
    cJSON_AddItemToObject(r, "bots", build_bots(in));
    if (in->res->ntypes > 0)
        cJSON_AddItemToObject(r, "types", build_types(in));
    cJSON_AddItemToObject(r, "metrics", build_game_metrics(in));
    if (g->dists)
        cJSON_AddItemToObject(r, "distributions", build_dists(in));
    if (g->tables)
        cJSON_AddItemToObject(r, "tables", build_tables(in));
    if (g->roles)
        cJSON_AddItemToObject(r, "roles", build_roles(in));
    cJSON *dep = g->depends ? g->depends(r) : NULL;
    if (dep)
        cJSON_AddItemToObject(r, "depends_on", dep);
    if (in->exact)
        cJSON_AddItemToObject(r, "exact", cJSON_Duplicate(in->exact, 1));
    cJSON *run = cJSON_AddObjectToObject(r, "run");
    cJSON_AddNumberToObject(run, "threads", cfg->threads);
    cJSON_AddNumberToObject(run, "wall_seconds", in->res->wall_seconds);
    cJSON_AddNumberToObject(run, "games_per_second",
                            in->res->wall_seconds > 0
                                ? (double)in->res->games / in->res->wall_seconds
                                : 0);
    return r;
}

/* ---- text -------------------------------------------------------------------------------- */

/* "12.34% [12.01, 12.67]" for shares, "3.512 [3.50, 3.52]" for means. */
static void text_estimate(FILE *f, const cJSON *e, bool share)
{
    if (report_num(e, "n") == 0) {
        fputs("        — (no observations)", f);
        return;
    }
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(e, "ci95");
    double v = report_num(e, "value");
    if (cJSON_GetArraySize(ci) != 2) {
        fprintf(f, "%9.4g (1 observation: no interval)", v);
    } else {
        double lo = cJSON_GetArrayItem(ci, 0)->valuedouble;
        double hi = cJSON_GetArrayItem(ci, 1)->valuedouble;
        if (share)
            fprintf(f, "%7.3f%% [%.3f, %.3f]", 100 * v, 100 * lo, 100 * hi);
        else
            fprintf(f, "%9.4g [%.4g, %.4g]", v, lo, hi);
    }
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(e, "exact");
    if (cJSON_IsNumber(x)) {
        if (share)
            fprintf(f, "  exact %.4f%%", 100 * x->valuedouble);
        else
            fprintf(f, "  exact %.5g", x->valuedouble);
    }
}

static bool is_share(const cJSON *e)
{
    return cJSON_GetObjectItemCaseSensitive(e, "hits") != NULL;
}

static void text_quantiles(FILE *f, const cJSON *e)
{
    if (report_num(e, "n") == 0)
        return;
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(e, "quantiles");
    if (q && report_num(e, "n") >= 2)
        fprintf(f, "  sd %.3g, median %g, 5-95%% %g..%g", report_num(e, "sd"), report_num(q, "p50"),
                report_num(q, "p05"), report_num(q, "p95"));
}

static void write_text(FILE *f, const cJSON *r)
{
    const char *score = report_str(r, "score");
    fprintf(f, "%s — %s\n", report_str(r, "game"), report_str(r, "title"));
    fprintf(f, "%.0f game%s, %.0f player%s, seed %s\n", report_num(r, "runs"),
            report_num(r, "runs") == 1 ? "" : "s", report_num(r, "players"), report_num(r, "players") == 1 ? "" : "s",
            report_str(r, "seed"));
    const cJSON *cut = cJSON_GetObjectItemCaseSensitive(r, "interrupted");
    if (cut)
        fprintf(f, "INTERRUPTED: the first %.0f of %.0f games asked\n", report_num(r, "runs"),
                report_num(cut, "runs_asked"));
    /* Provenance: the ruleset is the built-in one but for these keys. */
    report_text_changes(f, cJSON_GetObjectItemCaseSensitive(r, "ruleset_changes"));
    fputc('\n', f);
    fprintf(f, "seat  %-24s %-30s %s\n", "bot", "win share [95% CI]", score);
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(r, "seats"))
    {
        fprintf(f, "%4.0f  %-24s ", report_num(s, "seat"), report_str(s, "bot"));
        text_estimate(f, cJSON_GetObjectItemCaseSensitive(s, "win_share"), true);
        fputs("   ", f);
        fprintf(f, "%.4g", report_num(cJSON_GetObjectItemCaseSensitive(s, score), "value"));
        fputc('\n', f);
    }
    const cJSON *bots = cJSON_GetObjectItemCaseSensitive(r, "bots");
    if (cJSON_GetArraySize(bots) > 1) {
        fputs("\nby bot\n", f);
        const cJSON *b;
        cJSON_ArrayForEach(b, bots)
        {
            fprintf(f, "      %-24s ", report_str(b, "bot"));
            text_estimate(f, cJSON_GetObjectItemCaseSensitive(b, "win_share"), true);
            fputc('\n', f);
        }
    }

    const cJSON *m = cJSON_GetObjectItemCaseSensitive(r, "metrics");
    fputs("\ngame\n", f);
    for (const cJSON *e = m->child; e; e = e->next) {
        if (strcmp(e->string, "ended") == 0) {
            fputs("  ended:", f);
            for (const cJSON *k = e->child; k; k = k->next)
                if (report_num(k, "hits") > 0)
                    fprintf(f, " %s %.2f%%", k->string, 100 * report_num(k, "value"));
            fputc('\n', f);
        } else if (strcmp(e->string, "seat_fairness") == 0) {
            if (cJSON_IsObject(e))
                fprintf(f, "  seat fairness: chi2 %.3f, df %.0f, p-value %.4f\n",
                        report_num(e, "chi2"), report_num(e, "df"), report_num(e, "p_value"));
        } else {
            fprintf(f, "  %-28s ", strcmp(e->string, "length") == 0 ? report_str(r, "length_unit")
                                                                     : e->string);
            text_estimate(f, e, is_share(e));
            text_quantiles(f, e);
            fputc('\n', f);
        }
    }

    /* Seat metrics: one block per metric, one line per seat. */
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "seats"), 0);
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(first, "metrics");
    int w = 8; /* the label column: "seat N" or the widest bot, never cut */
    const cJSON *bw;
    cJSON_ArrayForEach(bw, bots)
        if (cJSON_GetArraySize(bots) > 1 && (int)strlen(report_str(bw, "bot")) > w)
            w = (int)strlen(report_str(bw, "bot"));
    for (const cJSON *n = names ? names->child : NULL; n; n = n->next) {
        fprintf(f, "\n%s\n", n->string);
        cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(r, "seats"))
        {
            const cJSON *e =
                cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(s, "metrics"),
                                                 n->string);
            char label[16];
            snprintf(label, sizeof label, "seat %.0f", report_num(s, "seat"));
            fprintf(f, "  %-*s ", w, label);
            text_estimate(f, e, is_share(e));
            text_quantiles(f, e);
            fputc('\n', f);
        }
        if (cJSON_GetArraySize(bots) > 1) {
            const cJSON *b;
            cJSON_ArrayForEach(b, bots)
            {
                const cJSON *e = cJSON_GetObjectItemCaseSensitive(
                    cJSON_GetObjectItemCaseSensitive(b, "metrics"), n->string);
                fprintf(f, "  %-*s ", w, report_str(b, "bot"));
                text_estimate(f, e, is_share(e));
                fputc('\n', f);
            }
        }
    }
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(r, "run");
    fprintf(f, "\n%.0f game%s in %.3f s (%.0f games/s, %.0f thread%s)\n", report_num(r, "runs"),
            report_num(r, "runs") == 1 ? "" : "s", report_num(run, "wall_seconds"),
            report_num(run, "games_per_second"), report_num(run, "threads"), report_num(run, "threads") == 1 ? "" : "s");
}

int report_write(FILE *f, const cJSON *report, report_format fmt)
{
    if (fmt == REPORT_JSON) {
        char *text = cJSON_Print(report);
        if (text == NULL)
            return -1;
        fputs(text, f);
        fputc('\n', f);
        cJSON_free(text);
    } else if (fmt == REPORT_CSV) {
        report_csv_write(f, report);
    } else if (fmt == REPORT_TEXT_DETAIL) {
        write_text(f, report);
    } else if (fmt == REPORT_HTML) {
        report_html_write(f, report);
    } else {
        report_text_summary(f, report);
    }
    return ferror(f) ? -1 : 0;
}
