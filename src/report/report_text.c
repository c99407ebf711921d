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
 * "23.41" and "[23.10, 23.72]" for a mean, "—" and "" with no observation. */
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
        if (has_ci)
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
    cJSON *sec = section(out, "By bot", "llrl");
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

static void how_games_end(cJSON *out, const cJSON *r)
{
    const cJSON *m = get(r, "metrics");
    double runs = report_num(r, "runs");
    cJSON *sec = section(out, "How games end", "lrlll");
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

cJSON *report_summary_build(const cJSON *r)
{
    cJSON *out = cJSON_CreateArray();
    who_wins(out, r);
    by_bot(out, r);
    const cJSON *layout = get(r, "layout");
    const cJSON *head = get(layout, "headline");
    cJSON *sec = section(out, "Headline", "lrlll");
    metric_row(rows_of(sec), "game length", report_str(r, "length_unit"),
               get(get(r, "metrics"), "length"), report_num(r, "runs"));
    const cJSON *n;
    cJSON_ArrayForEach(n, head)
        if (cJSON_IsString(n))
            metric_rows(rows_of(sec), r, n->valuestring);
    how_games_end(out, r);
    const cJSON *g;
    cJSON_ArrayForEach(g, get(layout, "groups"))
    {
        sec = section(out, report_str(g, "title"), "lrlll");
        cJSON_ArrayForEach(n, get(g, "metrics"))
            if (cJSON_IsString(n) && !listed(head, n->valuestring))
                metric_rows(rows_of(sec), r, n->valuestring);
    }
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
    int len = snprintf(buf, n, "%s%s%.0f game%s%s, seed %s", with_title ? report_str(r, "title") : "",
                       with_title ? " — " : "", runs, runs == 1 ? "" : "s", who,
                       report_str(r, "seed"));
    const cJSON *x;
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

/* Display width of UTF-8 text: one column per character. */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void pad(FILE *f, size_t n)
{
    while (n-- > 0)
        fputc(' ', f);
}

/* Writes one row of cells under the column widths w, without trailing blanks. */
static void text_row(FILE *f, const cJSON *cells, const char *align, const size_t *w)
{
    int ncells = cJSON_GetArraySize(cells), last = -1;
    for (int i = 0; i < ncells; i++)
        if (*cJSON_GetArrayItem(cells, i)->valuestring)
            last = i;
    fputs("  ", f);
    for (int i = 0; i <= last; i++) {
        const char *s = cJSON_GetArrayItem(cells, i)->valuestring;
        size_t gap = w[i] - width(s);
        bool right = align[i] == 'r';
        if (w[i] == 0) /* a column empty in every row takes no room */
            continue;
        if (i > 0)
            fputs("  ", f);
        if (right)
            pad(f, gap);
        fputs(s, f);
        if (!right && i < last)
            pad(f, gap);
    }
    fputc('\n', f);
}

void report_text_summary(FILE *f, const cJSON *r)
{
    char title[1024];
    fprintf(f, "%s — %s\n%s\n", report_str(r, "game"), report_str(r, "title"),
            report_summary_title(r, false, title, sizeof title));
    report_text_made_by(f, r);
    cJSON *sum = report_summary_build(r);
    const cJSON *sec;
    cJSON_ArrayForEach(sec, sum)
    {
        enum { MAXC = 8 };
        size_t w[MAXC] = {0};
        const cJSON *cols = get(sec, "columns"), *rw;
        const char *align = report_str(sec, "align");
        int nc = (int)strlen(align) < MAXC ? (int)strlen(align) : MAXC;
        for (int i = 0; i < nc && cols; i++)
            w[i] = width(cJSON_GetArrayItem(cols, i)->valuestring);
        cJSON_ArrayForEach(rw, get(sec, "rows"))
            for (int i = 0; i < nc; i++) {
                size_t x = width(cJSON_GetArrayItem(rw, i)->valuestring);
                w[i] = x > w[i] ? x : w[i];
            }
        fprintf(f, "\n%s\n", report_str(sec, "title"));
        if (cols)
            text_row(f, cols, align, w);
        cJSON_ArrayForEach(rw, get(sec, "rows"))
            text_row(f, rw, align, w);
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
    fputs("ruleset changes:", f);
    const cJSON *c;
    cJSON_ArrayForEach(c, changes)
        fprintf(f, " %s", c->valuestring);
    fputc('\n', f);
}

void report_text_made_by(FILE *f, const cJSON *r)
{
    char date[64];
    const char *d = report_str(get(r, "run"), "date");
    fprintf(f, "giochi-sim %s, %s\n", GIOCHI_VERSION, *d ? d : clock_date(date, sizeof date));
}
