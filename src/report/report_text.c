/* report_text.c — the headline summary: who wins, the game's headline figures and its titled
 * groups of metrics, with human labels and units, built from the report tree alone. */
#include "report/report_text.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "report/fields.h"
#include "report/report.h"
#include "report/textcols.h"

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* Decimals that show about four significant digits of x without an exponent. */
static int decimals(double x)
{
    double a = fabs(x);
    return a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : 3;
}

/* One row of cells. */
static void row(cJSON *rows, int ncells, const char *const *cell)
{
    cJSON *r = cJSON_CreateArray();
    for (int i = 0; i < ncells; i++)
        cJSON_AddItemToArray(r, cJSON_CreateString(cell[i] ? cell[i] : ""));
    cJSON_AddItemToArray(rows, r);
}

static cJSON *rows_of(cJSON *sec)
{
    return cJSON_GetObjectItemCaseSensitive(sec, "rows");
}

static cJSON *section(cJSON *out, const char *title, const char *align)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "title", title);
    cJSON_AddStringToObject(s, "align", align);
    cJSON_AddArrayToObject(s, "rows");
    cJSON_AddItemToArray(out, s);
    return s;
}

static void columns(cJSON *sec, int n, const char *const *names)
{
    cJSON *c = cJSON_AddArrayToObject(sec, "columns");
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(c, cJSON_CreateString(names[i]));
}

/* The value and interval cells of estimate e: "12.34%" and "[12.01, 12.67]" for a share,
 * "23.41" and "[23.10, 23.72]" for a mean, "—" and "" with no observation. A mean that is a
 * point mass (every observation alike, e's "point_mass") gets no interval but that flag. */
static void estimate_cells(const cJSON *e, char *val, size_t vn, char *ci, size_t cn)
{
    const cJSON *v = get(e, "value"), *c = get(e, "ci95");
    ci[0] = '\0';
    if (!cJSON_IsNumber(v)) {
        snprintf(val, vn, "—");
        return;
    }
    bool share = get(e, "hits") != NULL;
    bool has_ci = cJSON_GetArraySize(c) == 2;
    double lo = has_ci ? cJSON_GetArrayItem(c, 0)->valuedouble : NAN;
    double hi = has_ci ? cJSON_GetArrayItem(c, 1)->valuedouble : NAN;
    if (share) {
        int d = has_ci && 100 * hi < 0.1 ? 4 : 2;
        snprintf(val, vn, "%.*f%%", d, 100 * v->valuedouble);
        if (has_ci)
            snprintf(ci, cn, "[%.*f, %.*f]", d, 100 * lo, d, 100 * hi);
    } else {
        int d = decimals(v->valuedouble);
        snprintf(val, vn, "%.*f", d, v->valuedouble);
        if (cJSON_IsTrue(get(e, "point_mass")))
            snprintf(ci, cn, "point mass (sd 0)");
        else if (has_ci)
            snprintf(ci, cn, "[%.*f, %.*f]", d, lo, d, hi);
        else
            snprintf(ci, cn, "(one observation)");
    }
}

/* A metric row: label, value, unit, interval, note ("n = 812" when n is not `expect`, the
 * exact value when the game computed one: e's own, else `exact` unless NAN). */
static void metric_row_exact(cJSON *rows, const char *label, const char *unit, const cJSON *e,
                             double expect, double exact)
{
    char val[64], ci[96], note[96] = "";
    estimate_cells(e, val, sizeof val, ci, sizeof ci);
    double n = report_num(e, "n");
    int len = 0;
    if (!isnan(n) && n != expect)
        len = snprintf(note, sizeof note, "n = %.0f", n);
    if (cJSON_IsTrue(get(e, "small_sample"))) /* too few for the t interval to be close */
        len += snprintf(note + len, sizeof note - (size_t)len, "%ssmall sample: t approx.",
                        len ? "; " : "");
    double x = report_num(e, "exact");
    if (isnan(x))
        x = exact;
    if (!isnan(x)) {
        if (get(e, "hits"))
            snprintf(note + len, sizeof note - (size_t)len, "%sexact %.4f%%", len ? "; " : "",
                     100 * x);
        else
            snprintf(note + len, sizeof note - (size_t)len, "%sexact %.5g", len ? "; " : "", x);
    }
    const char *cell[5] = {label, val, cJSON_IsNumber(get(e, "value")) ? unit : "", ci, note};
    row(rows, 5, cell);
}

static void metric_row(cJSON *rows, const char *label, const char *unit, const cJSON *e,
                       double expect)
{
    metric_row_exact(rows, label, unit, e, expect, NAN);
}

/* The exact value of seat metric `name` for bot `bot`, when every seat that plays it has
 * one and they agree (a pooled row then estimates that value); NAN otherwise. */
static double bot_exact(const cJSON *r, const char *bot, const char *name)
{
    double x = NAN;
    const cJSON *s;
    cJSON_ArrayForEach(s, get(r, "seats"))
    {
        if (strcmp(report_str(s, "bot"), bot) != 0)
            continue;
        double y = report_num(get(get(s, "metrics"), name), "exact");
        if (isnan(y) || (!isnan(x) && y != x))
            return NAN;
        x = y;
    }
    return x;
}

/* The rows of metric `name`: one for a game metric; for a seat metric, one per bot (pooled
 * over its seats), labelled with the bot when the seats play more than one. */
static void metric_rows(cJSON *rows, const cJSON *r, const char *name)
{
    const cJSON *lab = get(get(get(r, "layout"), "labels"), name);
    const char *label = lab ? report_str(lab, "label") : name;
    const char *unit = lab && cJSON_IsString(get(lab, "unit")) ? report_str(lab, "unit") : "";
    double runs = report_num(r, "runs");
    const cJSON *e = get(get(r, "metrics"), name);
    if (e) {
        metric_row(rows, label, unit, e, runs);
        return;
    }
    const cJSON *bots = get(r, "bots"), *b;
    bool several = cJSON_GetArraySize(bots) > 1;
    cJSON_ArrayForEach(b, bots)
    {
        e = get(get(b, "metrics"), name);
        if (e == NULL)
            continue;
        char text[512];
        if (several)
            snprintf(text, sizeof text, "%s (%s)", label, report_str(b, "bot"));
        metric_row_exact(rows, several ? text : label, unit, e,
                         runs * cJSON_GetArraySize(get(b, "seats")),
                         bot_exact(r, report_str(b, "bot"), name));
    }
}

static bool listed(const cJSON *names, const char *name)
{
    const cJSON *n;
    cJSON_ArrayForEach(n, names)
        if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0)
            return true;
    return false;
}

/* Each seat's bot, win share, exact win share (a column only when the game computed one)
 * and mean score (none in a seat rotation's report, which is by bot). */
static void who_wins(cJSON *out, const cJSON *r)
{
    if (cJSON_GetArraySize(get(r, "seats")) == 0)
        return;
    const char *score = report_str(r, "score");
    char head[64];
    snprintf(head, sizeof head, "mean %s", score);
    bool exact = false;
    const cJSON *s;
    cJSON_ArrayForEach(s, get(r, "seats"))
        exact |= !isnan(report_num(get(s, "win_share"), "exact"));
    cJSON *sec = section(out, "Who wins", exact ? "rlrlrl" : "rlrll");
    const char *cols[6] = {"seat", "bot", "win share", "95% CI", exact ? "exact" : head, head};
    columns(sec, exact ? 6 : 5, cols);
    cJSON_ArrayForEach(s, get(r, "seats"))
    {
        char seat[16], val[64], ci[96], sc[64] = "—", ex[64] = "—";
        snprintf(seat, sizeof seat, "%.0f", report_num(s, "seat"));
        estimate_cells(get(s, "win_share"), val, sizeof val, ci, sizeof ci);
        double m = report_num(get(s, score), "value");
        if (!isnan(m))
            snprintf(sc, sizeof sc, "%.*f", decimals(m), m);
        double x = report_num(get(s, "win_share"), "exact");
        if (!isnan(x))
            snprintf(ex, sizeof ex, "%.4f%%", 100 * x);
        const char *cell[6] = {seat, report_str(s, "bot"), val, ci, exact ? ex : sc, sc};
        row(rows_of(sec), exact ? 6 : 5, cell);
    }
}

/* Each bot's seats and win share, when the seats play more than one bot. */
static void by_bot(cJSON *out, const cJSON *r)
{
    const cJSON *bots = get(r, "bots");
    if (cJSON_GetArraySize(bots) < 2)
        return;
    cJSON *sec = section(out, "By bot", "wlrl");
    const char *bcols[4] = {"bot", "seats", "win share", "95% CI"};
    columns(sec, 4, bcols);
    const cJSON *b;
    cJSON_ArrayForEach(b, bots)
    {
        char seats[64] = "", val[64], ci[96];
        size_t len = 0;
        const cJSON *k;
        cJSON_ArrayForEach(k, get(b, "seats"))
            if (len < sizeof seats)
                len += (size_t)snprintf(seats + len, sizeof seats - len, "%s%d", len ? "," : "",
                                        k->valueint);
        estimate_cells(get(b, "win_share"), val, sizeof val, ci, sizeof ci);
        const char *cell[4] = {report_str(b, "bot"), seats, val, ci};
        row(rows_of(sec), 4, cell);
    }
}

/* The game's roles (report "roles"): who holds each wins, nets and goes bankrupt. */
static void by_role(cJSON *out, const cJSON *r)
{
    const cJSON *roles = get(r, "roles"), *ro;
    if (cJSON_GetArraySize(roles) == 0)
        return;
    cJSON *sec = section(out, "Who wins, by role", "wrlrr");
    const char *cols[5] = {"role", "win share", "95% CI", "mean net", "bankrupt"};
    columns(sec, 5, cols);
    cJSON_ArrayForEach(ro, roles)
    {
        char val[64], ci[96], net[64], nci[96], bust[64], bci[96];
        estimate_cells(get(ro, "win_share"), val, sizeof val, ci, sizeof ci);
        estimate_cells(get(ro, "net"), net, sizeof net, nci, sizeof nci);
        estimate_cells(get(ro, "bankrupt"), bust, sizeof bust, bci, sizeof bci);
        const char *cell[5] = {report_str(ro, "role"), val, ci, net, bust};
        row(rows_of(sec), 5, cell);
    }
}

/* The types of player of a run with populations: each type's share of the seats, win share
 * and mean score; then every seat metric by type, a column per type. */
static void by_type(cJSON *out, const cJSON *r)
{
    const cJSON *types = get(r, "types"), *t;
    int nt = cJSON_GetArraySize(types);
    if (nt == 0)
        return;
    const char *score = report_str(r, "score");
    char head[64], title[256] = "Types of player";
    snprintf(head, sizeof head, "mean %s", score);
    cJSON_ArrayForEach(t, types)
        if (cJSON_IsString(get(t, "population"))) {
            snprintf(title, sizeof title,
                     "Types of player (population %s: every figure depends on its mixture)",
                     report_str(t, "population"));
            break;
        }
    /* who the types are (their bots are long: a table of their own), then their figures */
    cJSON *who = section(out, title, "llw");
    const char *wcols[3] = {"type", "drawn", "bot"};
    columns(who, 3, wcols);
    cJSON_ArrayForEach(t, types)
    {
        char weight[32] = "seat", bot[200];
        if (cJSON_IsNumber(get(t, "weight")))
            snprintf(weight, sizeof weight, "%.4g%%", 100 * report_num(t, "weight"));
        snprintf(bot, sizeof bot, "%s%s", report_str(t, "bot"),
                 cJSON_IsTrue(get(t, "knobs_drawn")) ? " (knobs drawn each game)" : "");
        const char *cell[3] = {report_str(t, "type"), weight, bot};
        row(rows_of(who), 3, cell);
    }
    cJSON *sec = section(out, "Who wins, by type of player", "wrrll");
    const char *cols[5] = {"type", "seats", "win share", "95% CI", head};
    columns(sec, 5, cols);
    cJSON_ArrayForEach(t, types)
    {
        char seats[64], ci_s[96], val[64], ci[96], sc[64], sci[96];
        estimate_cells(get(t, "seat_share"), seats, sizeof seats, ci_s, sizeof ci_s);
        estimate_cells(get(t, "win_share"), val, sizeof val, ci, sizeof ci);
        estimate_cells(get(t, score), sc, sizeof sc, sci, sizeof sci);
        const char *cell[5] = {report_str(t, "type"), seats, val, ci, sc};
        row(rows_of(sec), 5, cell);
    }
    /* every seat metric, then each share the game divides, a row per type under its figure:
     * 80 columns at any number of types */
    cJSON *fig = section(out, "Figures by type of player", "wrlln");
    const char *fcols[5] = {"figure, by type", "value", "", "95% CI", ""};
    columns(fig, 5, fcols);
    const cJSON *first = types->child, *m;
    for (int part = 0; part < 2; part++)
        cJSON_ArrayForEach(m, get(first, part ? "shares" : "metrics"))
        {
            const cJSON *lab = get(get(get(r, "layout"), "labels"), m->string);
            const char *unit = lab && cJSON_IsString(get(lab, "unit")) ? report_str(lab, "unit") : "";
            bool any = false;
            cJSON_ArrayForEach(t, types)
                any = any || cJSON_IsNumber(get(get(get(t, part ? "shares" : "metrics"),
                                                    m->string), "value"));
            if (!any)
                continue;
            char label[300];
            snprintf(label, sizeof label, "%s%s", part ? "share of all: " : "",
                     lab ? report_str(lab, "label") : m->string);
            const char *heading[5] = {label, "", "", "", ""};
            row(rows_of(fig), 5, heading);
            cJSON_ArrayForEach(t, types)
            {
                char name[200];
                snprintf(name, sizeof name, "  %s", report_str(t, "type"));
                const cJSON *e = get(get(t, part ? "shares" : "metrics"), m->string);
                metric_row(rows_of(fig), name, unit, e, NAN);
            }
        }
}

/* A table of figures (report "tables"): a row per bin that has observations. */
static void table_section(cJSON *out, const cJSON *t, double runs)
{
    cJSON *sec = section(out, report_str(t, "title"), "wrlln");
    const char *cols[5] = {report_str(t, "row_head"), "value", "", "95% CI", ""};
    columns(sec, 5, cols);
    const cJSON *row;
    cJSON_ArrayForEach(row, get(t, "rows"))
    {
        const cJSON *e = get(row, "estimate");
        if (!(report_num(e, "n") > 0))
            continue;
        metric_row(rows_of(sec), report_str(row, "label"), "", e, runs);
    }
}

static void how_games_end(cJSON *out, const cJSON *r)
{
    const cJSON *m = get(r, "metrics");
    double runs = report_num(r, "runs");
    cJSON *sec = section(out, "How games end", "wrlln");
    cJSON *rows = rows_of(sec);
    const cJSON *e;
    cJSON_ArrayForEach(e, get(m, "ended"))
    {
        if (!(report_num(e, "hits") > 0))
            continue;
        char label[160];
        snprintf(label, sizeof label, "ended: %s", e->string);
        for (char *p = label; *p; p++)
            if (*p == '_')
                *p = ' ';
        metric_row(rows, label, "", e, runs);
    }
    if (report_num(get(m, "ties"), "hits") > 0)
        metric_row(rows, "tied games", "", get(m, "ties"), runs);
    if (report_num(get(m, "no_winner"), "hits") > 0)
        metric_row(rows, "games nobody won", "", get(m, "no_winner"), runs);
    const cJSON *f = get(m, "seat_fairness");
    if (cJSON_IsObject(f)) {
        char val[64], ci[96];
        snprintf(val, sizeof val, "p = %.4f", report_num(f, "p_value"));
        snprintf(ci, sizeof ci, "chi2 %.3f, df %.0f", report_num(f, "chi2"), report_num(f, "df"));
        const char *cell[5] = {"seats equally likely to win", val, "", ci, ""};
        row(rows, 5, cell);
    }
}

/* The distribution of r that replaces metric `name`'s row, or that shows it (any = true). */
static const cJSON *dist_of(const cJSON *r, const char *name, bool any)
{
    const cJSON *d;
    cJSON_ArrayForEach(d, get(r, "distributions"))
        if (strcmp(report_str(d, "metric"), name) == 0 &&
            (any || cJSON_IsTrue(get(d, "replaces_row"))))
            return d;
    return NULL;
}

enum { DIST_BAR = 20 }; /* the longest bar of a distribution's rows, in characters */

/* A distribution (report.c's "distributions") as a section: one row per bin or category with
 * its count, its share and a bar as long as the count against the largest. */
static void dist_section(cJSON *out, const cJSON *d)
{
    char title[512];
    double n = report_num(d, "n");
    snprintf(title, sizeof title, "Distribution: %s, %.0f %s", report_str(d, "title"), n,
             report_str(d, "counts"));
    cJSON *sec = section(out, title, "lrrl");
    const char *cols[4] = {report_str(d, "value"), "count", "share", ""};
    columns(sec, 4, cols);
    double top = 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, get(d, "bins"))
        top = report_num(b, "count") > top ? report_num(b, "count") : top;
    cJSON *bars = cJSON_AddArrayToObject(sec, "bars"); /* per row: its count against the top */
    cJSON_ArrayForEach(b, get(d, "bins"))
    {
        char count[32], share[32], bar[DIST_BAR + 1];
        double c = report_num(b, "count");
        snprintf(count, sizeof count, "%.0f", c);
        snprintf(share, sizeof share, "%.2f%%", 100 * report_num(b, "share"));
        int len = top > 0 ? (int)lround(DIST_BAR * c / top) : 0;
        if (len == 0 && c > 0)
            len = 1; /* a bin that holds anything shows */
        memset(bar, '#', (size_t)len);
        bar[len] = '\0';
        const char *cell[4] = {report_str(b, "label"), count, share, bar};
        row(rows_of(sec), 4, cell);
        /* the bar's exact length, for a page that draws it */
        cJSON_AddItemToArray(bars, cJSON_CreateNumber(top > 0 ? c / top : 0));
    }
    if (cJSON_IsTrue(get(d, "dropped"))) {
        const char *cell[4] = {"(values too far apart: no histogram kept)", "", "", ""};
        row(rows_of(sec), 4, cell);
    } else if (n == 0) {
        const char *cell[4] = {"(no observations)", "", "", ""};
        row(rows_of(sec), 4, cell);
    }
}

/* The label of metric `name` in r's layout (its name when it has none). */
static const char *label_of(const cJSON *r, const char *name)
{
    const cJSON *lab = get(get(get(r, "layout"), "labels"), name);
    return lab ? report_str(lab, "label") : name;
}

/* "What the headline figures depend on" (the game's "depends_on"): for each figure a row of
 * its label and value (a point mass said so), then one indented row per line of what it
 * rests on; one column, so that the lines stay short. */
static void depends_section(cJSON *out, const cJSON *r)
{
    const cJSON *dep = get(r, "depends_on"), *f;
    if (cJSON_GetArraySize(get(dep, "figures")) == 0)
        return;
    cJSON *sec = section(out, "What the headline figures depend on", "l");
    cJSON_AddBoolToObject(sec, "outline", true); /* its rows' leading blanks nest them */
    cJSON_ArrayForEach(f, get(dep, "figures"))
    {
        const char *name = report_str(f, "metric");
        const cJSON *e = get(get(r, "metrics"), name);
        char val[64] = "—", ci[96] = "", text[1024];
        if (e)
            estimate_cells(e, val, sizeof val, ci, sizeof ci);
        snprintf(text, sizeof text, "%s: %s%s", label_of(r, name), val,
                 cJSON_IsTrue(get(e, "point_mass")) ? " (point mass)" : "");
        const char *cell[1] = {text};
        row(rows_of(sec), 1, cell);
        const cJSON *t;
        cJSON_ArrayForEach(t, get(f, "rests_on"))
        {
            snprintf(text, sizeof text, "  %s", cJSON_IsString(t) ? t->valuestring : "");
            row(rows_of(sec), 1, cell);
        }
    }
}

/* A difference estimate {"value", "ci95"} as "+0.42 [+0.21, +0.63]", in percentage points
 * for a share (scale 100). */
static void diff_cell(const cJSON *e, double scale, char *buf, size_t n)
{
    const cJSON *ci = get(e, "ci95");
    double v = report_num(e, "value");
    if (isnan(v))
        snprintf(buf, n, "—");
    else if (cJSON_GetArraySize(ci) == 2)
        snprintf(buf, n, "%+.2f [%+.2f, %+.2f]", scale * v,
                 scale * cJSON_GetArrayItem(ci, 0)->valuedouble,
                 scale * cJSON_GetArrayItem(ci, 1)->valuedouble);
    else
        snprintf(buf, n, "%+.2f", scale * v);
}

/* The cells of a column of estimates es (n of them, NULL for none): each value right-aligned
 * to the widest of them, two blanks, its interval, so that a column of value and interval
 * keeps its values aligned in one cell. cells[i] has room for 192 bytes. */
static void estimate_column(const cJSON *const *es, int n, char (*cells)[192])
{
    char val[GAME_MAX_SEATS * 4][32], ci[GAME_MAX_SEATS * 4][96];
    size_t vw = 0;
    for (int i = 0; i < n; i++) {
        estimate_cells(es[i], val[i], sizeof val[i], ci[i], sizeof ci[i]);
        vw = textcols_width(val[i]) > vw ? textcols_width(val[i]) : vw;
    }
    for (int i = 0; i < n; i++) {
        /* blanks, the value, two blanks, the interval: 31 + 31 + 2 + 95 bytes at most */
        size_t pad = (vw - textcols_width(val[i])) & 31, lv = strlen(val[i]), lc = strlen(ci[i]);
        char *c = cells[i];
        memset(c, ' ', pad);
        memcpy(c + pad, val[i], lv);
        memcpy(c + pad + lv, "  ", lc ? 2 : 0);
        memcpy(c + pad + lv + (lc ? 2 : 0), ci[i], lc + 1);
    }
}

/* What --depends measured (the "profiles" and "sensitivity" of "depends_on"): the figures
 * under each bot profile and mixed, each figure's value and interval in one cell (so that the
 * table fits 80 columns beside the bots, which wrap); and for each figure the keys that move
 * it most, a row for the move down and one for the move up, as a sensitivity's table. */
static void depends_batches(cJSON *out, const cJSON *r)
{
    const cJSON *dep = get(r, "depends_on"), *figs = get(dep, "figures"), *p, *f;
    int np = cJSON_GetArraySize(get(dep, "profiles"));
    if (np > 0 && np <= GAME_MAX_SEATS * 4 && cJSON_GetArraySize(figs) == 2) {
        const char *a = report_str(cJSON_GetArrayItem(figs, 0), "metric");
        const char *b = report_str(cJSON_GetArrayItem(figs, 1), "metric");
        cJSON *sec = section(out, "The headline figures by bot profile (--depends)", "wll");
        char ha[128], hb[128];
        snprintf(ha, sizeof ha, "%.100s [95%% CI]", a);
        snprintf(hb, sizeof hb, "%.100s [95%% CI]", b);
        const char *cols[3] = {"bots", ha, hb};
        columns(sec, 3, cols);
        const cJSON *ea[GAME_MAX_SEATS * 4], *eb[GAME_MAX_SEATS * 4];
        char ca[GAME_MAX_SEATS * 4][192], cb[GAME_MAX_SEATS * 4][192];
        int i = 0;
        cJSON_ArrayForEach(p, get(dep, "profiles"))
        {
            ea[i] = get(get(p, "figures"), a);
            eb[i++] = get(get(p, "figures"), b);
        }
        estimate_column(ea, np, ca);
        estimate_column(eb, np, cb);
        i = 0;
        cJSON_ArrayForEach(p, get(dep, "profiles"))
        {
            /* the seats' bots a blank after each comma, where a long list wraps */
            char who[1024];
            size_t len = (size_t)snprintf(who, sizeof who, "%s",
                                          cJSON_IsTrue(get(p, "mixed")) ? "mixed: " : "");
            for (const char *c = report_str(p, "bots"); *c && len + 3 < sizeof who; c++) {
                who[len++] = *c;
                if (*c == ',')
                    who[len++] = ' ';
            }
            who[len] = '\0';
            const char *cell[3] = {who, ca[i], cb[i]};
            row(rows_of(sec), 3, cell);
            i++;
        }
    }
    cJSON_ArrayForEach(f, get(dep, "sensitivity"))
    {
        const char *name = report_str(f, "metric");
        bool share = get(get(get(r, "metrics"), name), "hits") != NULL;
        char title[512];
        snprintf(title, sizeof title, "What moves %s most, of %.0f reconstructed values (%s)",
                 name, report_num(f, "keys_moved"), share ? "percentage points" : "difference");
        cJSON *sec = section(out, title, "wlrrl");
        const char *cols[5] = {"square", "key", "default", "value", "effect [95% CI]"};
        columns(sec, 5, cols);
        const cJSON *k;
        cJSON_ArrayForEach(k, get(f, "keys"))
        {
            char dflt[32] = "";
            if (cJSON_IsNumber(get(k, "default")))
                snprintf(dflt, sizeof dflt, "%g", get(k, "default")->valuedouble);
            bool first = true;
            for (int side = 0; side < 2; side++) {
                const cJSON *mv = get(k, side == 0 ? "down" : "up");
                if (!cJSON_IsNumber(get(mv, "key_value")))
                    continue;
                char v[32], e[96];
                snprintf(v, sizeof v, "%g", get(mv, "key_value")->valuedouble);
                diff_cell(get(mv, "difference"), share ? 100 : 1, e, sizeof e);
                const char *cell[5] = {first ? report_str(k, "label") : "",
                                       first ? report_str(k, "key") : "", first ? dflt : "", v, e};
                row(rows_of(sec), 5, cell);
                first = false;
            }
        }
    }
}

/* "Terms of the game": a line per word of the game's own (layout's glossary), "term: what
 * it means", wrapping under its own indent. */
static void glossary_section(cJSON *out, const cJSON *r)
{
    const cJSON *terms = get(get(r, "layout"), "glossary"), *t;
    if (cJSON_GetArraySize(terms) == 0)
        return;
    cJSON *sec = section(out, "Terms of the game", "l");
    cJSON_AddBoolToObject(sec, "outline", true);
    cJSON_ArrayForEach(t, terms)
    {
        char text[512];
        snprintf(text, sizeof text, "%s: %s", report_str(t, "term"), report_str(t, "meaning"));
        const char *cell[1] = {text};
        row(rows_of(sec), 1, cell);
    }
}

/* The row under the mean game length: the median game's length and the range of the middle
 * 90% of games (5th to 95th percentile), when the length has quantiles and varies. */
static void length_spread(cJSON *rows, const char *unit, const cJSON *length)
{
    const cJSON *q = get(length, "quantiles");
    double p05 = report_num(q, "p05"), p50 = report_num(q, "p50"), p95 = report_num(q, "p95");
    if (isnan(p05) || isnan(p50) || isnan(p95) || cJSON_IsTrue(get(length, "point_mass")))
        return; /* no quantiles, or every game alike: the mean says it all */
    char val[32], range[64];
    snprintf(val, sizeof val, "%g", p50);
    if (p05 == p95)
        snprintf(range, sizeof range, "5–95%%: %g", p05);
    else
        snprintf(range, sizeof range, "5–95%%: %g to %g", p05, p95);
    const char *cell[5] = {"median game length", val, unit, range, ""};
    row(rows, 5, cell);
}

cJSON *report_summary_build(const cJSON *r)
{
    cJSON *out = cJSON_CreateArray();
    who_wins(out, r);
    by_role(out, r);
    by_bot(out, r);
    by_type(out, r);
    const cJSON *layout = get(r, "layout");
    const cJSON *head = get(layout, "headline");
    cJSON *sec = section(out, "Headline", "wrlln");
    const cJSON *length = get(get(r, "metrics"), "length");
    metric_row(rows_of(sec), "game length", report_str(r, "length_unit"), length,
               report_num(r, "runs"));
    length_spread(rows_of(sec), report_str(r, "length_unit"), length);
    const cJSON *n;
    cJSON_ArrayForEach(n, head)
        if (cJSON_IsString(n))
            metric_rows(rows_of(sec), r, n->valuestring);
    /* the sections so far (who wins, the headline) lead: a page shows them first, open */
    cJSON *lead;
    cJSON_ArrayForEach(lead, out)
        cJSON_AddBoolToObject(lead, "lead", true);
    how_games_end(out, r);
    const cJSON *g;
    cJSON_ArrayForEach(g, get(layout, "groups"))
    {
        sec = section(out, report_str(g, "title"), "wrlln");
        cJSON_ArrayForEach(n, get(g, "metrics"))
            if (cJSON_IsString(n) && !listed(head, n->valuestring) &&
                !dist_of(r, n->valuestring, false))
                metric_rows(rows_of(sec), r, n->valuestring);
        /* The group's distributions follow it, in the game's order of distributions. */
        const cJSON *d;
        cJSON_ArrayForEach(d, get(r, "distributions"))
            if (listed(get(g, "metrics"), report_str(d, "metric")))
                dist_section(out, d);
        cJSON_ArrayForEach(d, get(r, "tables"))
            if (listed(get(g, "metrics"), report_str(d, "after")))
                table_section(out, d, report_num(r, "runs"));
    }
    depends_section(out, r);
    depends_batches(out, r);
    glossary_section(out, r);
    /* Sections left empty (every metric already in the headline) are dropped. */
    for (cJSON *s = out->child; s;) {
        cJSON *next = s->next;
        if (cJSON_GetArraySize(get(s, "rows")) == 0)
            cJSON_Delete(cJSON_DetachItemViaPointer(out, s));
        s = next;
    }
    return out;
}

char *report_summary_title(const cJSON *r, bool with_title, char *buf, size_t n)
{
    double runs = report_num(r, "runs"), players = report_num(r, "players");
    char who[32] = ""; /* an experiment's report may vary the players: then it has none */
    if (!isnan(players))
        snprintf(who, sizeof who, ", %.0f player%s", players, players == 1 ? "" : "s");
    char cut[96] = ""; /* a run interrupted before its end (--keep-partial) */
    const cJSON *x = get(r, "interrupted");
    if (x)
        snprintf(cut, sizeof cut, " (INTERRUPTED: the first %.0f of %.0f games asked)", runs,
                 report_num(x, "runs_asked"));
    int len = snprintf(buf, n, "%s%s%.0f game%s%s%s, seed %s", with_title ? report_str(r, "title") : "",
                       with_title ? " — " : "", runs, runs == 1 ? "" : "s", cut, who,
                       report_str(r, "seed"));
    cJSON_ArrayForEach(x, get(r, "sweeps"))
        if (cJSON_IsString(x) && len >= 0 && (size_t)len < n)
            len += snprintf(buf + len, n - (size_t)len, ", sweep %s", x->valuestring);
    const cJSON *changes = get(r, "ruleset_changes"), *c;
    if (cJSON_GetArraySize(changes) == 0 && len >= 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, ", default ruleset");
    bool first = true;
    cJSON_ArrayForEach(c, changes)
    {
        if (len < 0 || (size_t)len >= n || !cJSON_IsString(c))
            break;
        /* "key=value", the value cut to 40 characters (a whole board is no title) */
        const char *eq = strchr(c->valuestring, '=');
        int keylen = eq ? (int)(eq - c->valuestring) : (int)strlen(c->valuestring);
        bool shown = eq && strlen(eq + 1) <= 40;
        len += snprintf(buf + len, n - (size_t)len, "%s%.*s%s", first ? ", ruleset: " : ", ",
                        shown ? (int)strlen(c->valuestring) : keylen, c->valuestring,
                        shown ? "" : " changed");
        first = false;
    }
    return buf;
}

void report_text_summary(FILE *f, const cJSON *r)
{
    char title[1024];
    fprintf(f, "%s — %s\n", report_str(r, "game"), report_str(r, "title"));
    textcols_para(f, report_summary_title(r, false, title, sizeof title), 0, TEXTCOLS_WIDTH);
    report_text_made_by(f, r);
    cJSON *sum = report_summary_build(r);
    const cJSON *sec;
    cJSON_ArrayForEach(sec, sum)
    {
        const cJSON *cols = get(sec, "columns"), *rw;
        textcols *t = textcols_new(report_str(sec, "align"));
        int nc = (int)strlen(report_str(sec, "align"));
        const char *cell[16];
        if (cols) {
            for (int i = 0; i < nc && i < 16; i++)
                cell[i] = i < cJSON_GetArraySize(cols)
                              ? cJSON_GetArrayItem(cols, i)->valuestring : "";
            textcols_row(t, cell);
        }
        cJSON_ArrayForEach(rw, get(sec, "rows"))
        {
            for (int i = 0; i < nc && i < 16; i++)
                cell[i] = i < cJSON_GetArraySize(rw) ? cJSON_GetArrayItem(rw, i)->valuestring : "";
            textcols_row(t, cell);
        }
        fputc('\n', f);
        textcols_para(f, report_str(sec, "title"), 0, TEXTCOLS_WIDTH);
        if (cJSON_IsTrue(get(sec, "outline"))) /* its lines wrap under their own indent */
            cJSON_ArrayForEach(rw, get(sec, "rows"))
            {
                const cJSON *c = cJSON_GetArrayItem(rw, 0);
                const char *s = cJSON_IsString(c) ? c->valuestring : "";
                size_t lead = strspn(s, " ");
                textcols_hang(f, s + lead, 2 + lead, 2, TEXTCOLS_WIDTH);
            }
        else
            textcols_write(f, t, 2, TEXTCOLS_WIDTH);
        textcols_free(t);
    }
    cJSON_Delete(sum);
    const cJSON *run = get(r, "run");
    fprintf(f, "\n%.0f game%s in %.3f s (%.0f games/s, %.0f thread%s)\n", report_num(r, "runs"),
            report_num(r, "runs") == 1 ? "" : "s", report_num(run, "wall_seconds"),
            report_num(run, "games_per_second"), report_num(run, "threads"),
            report_num(run, "threads") == 1 ? "" : "s");
}

void report_text_changes(FILE *f, const cJSON *changes)
{
    if (cJSON_GetArraySize(changes) == 0)
        return;
    char *line = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&line, &len);
    if (m == NULL)
        return;
    fputs("ruleset changes:", m);
    const cJSON *c;
    cJSON_ArrayForEach(c, changes)
        fprintf(m, " %s", c->valuestring);
    fclose(m);
    textcols_para(f, line, 0, TEXTCOLS_WIDTH);
    free(line);
}

void report_text_made_by(FILE *f, const cJSON *r)
{
    char date[64];
    const char *d = report_str(get(r, "run"), "date");
    fprintf(f, "giochi-sim %s, %s\n", GIOCHI_VERSION, *d ? d : clock_date(date, sizeof date));
}
