/* report_csv.c — a report tree as tidy CSV: one row per estimate, quantile, exact value and bin. */
#include "report/report_csv.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "core/stats.h"
#include "report/fields.h"

void report_csv_field(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static csv_precision precision = CSV_PRECISION_INTERVAL;

void report_csv_set_precision(csv_precision p)
{
    precision = p;
}

/* The decimals that keep two significant digits of the half-width of [lo, hi], or -1: no
 * interval to round to (full precision). */
static int interval_decimals(double lo, double hi)
{
    double h = (hi - lo) / 2;
    if (precision == CSV_PRECISION_FULL || !(h > 0) || !isfinite(h))
        return -1;
    int d = 1 - (int)floor(log10(h));
    return d < 0 ? 0 : d > 15 ? -1 : d;
}

/* x in its cell: nothing for NAN; with d >= 0 d decimals ("-0.000" written "0.000"), with
 * sig > 0 that many significant digits, else in full. */
static void csv_num(FILE *f, double x, int d, int sig)
{
    char buf[64];
    if (isnan(x))
        return;
    if (d >= 0 && fabs(x) < 1e15)
        snprintf(buf, sizeof buf, "%.*f", d, x);
    else if (sig > 0 && precision != CSV_PRECISION_FULL)
        snprintf(buf, sizeof buf, "%.*g", sig, x);
    else
        numfmt_double(buf, sizeof buf, x);
    const char *s = buf;
    if (*s == '-' && strspn(s + 1, "0.") == strlen(s + 1))
        s++;
    fputs(s, f);
}

void report_csv_num(FILE *f, double x, double lo, double hi)
{
    csv_num(f, x, interval_decimals(lo, hi), 0);
}

void report_csv_estimate(FILE *f, double x, double lo, double hi)
{
    report_csv_num(f, x, lo, hi);
    fputc(',', f);
    report_csv_num(f, lo, lo, hi);
    fputc(',', f);
    report_csv_num(f, hi, lo, hi);
}

void report_csv_line(FILE *f, const char *game, const char *metric, int seat, const char *bot,
                     double value, double lo, double hi, double n, const char *stat,
                     const csv_bin *bin)
{
    report_csv_field(f, game);
    fputc(',', f);
    report_csv_field(f, metric);
    if (seat > 0)
        fprintf(f, ",%d,", seat);
    else
        fputs(",,", f);
    report_csv_field(f, bot);
    int d = interval_decimals(lo, hi);
    int sig = strcmp(stat, "p_value") == 0 ? 3 : 0;
    const double cell[3] = {value, lo, hi};
    for (int i = 0; i < 3; i++) {
        fputc(',', f);
        csv_num(f, cell[i], d, sig);
    }
    fputc(',', f);
    csv_num(f, n, -1, 0);
    fputc(',', f);
    fputs(stat, f);
    fputc(',', f);
    if (bin) {
        csv_num(f, bin->from, -1, 0);
        fputc(',', f);
        csv_num(f, bin->to, -1, 0);
        fputc(',', f);
        report_csv_field(f, bin->label ? bin->label : "");
    } else {
        fputs(",,", f);
    }
    fputc('\n', f);
}

/* One row per estimate, then one per quantile and one per exact value of it. */
static void csv_estimate(FILE *f, const char *game, const char *metric, int seat,
                         const char *bot, const cJSON *e)
{
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(e, "ci95");
    bool has_ci = cJSON_GetArraySize(ci) == 2;
    double n = report_num(e, "n");
    const char *stat = cJSON_GetObjectItemCaseSensitive(e, "hits") ? "share" : "mean";
    report_csv_line(f, game, metric, seat, bot, report_num(e, "value"),
             has_ci ? cJSON_GetArrayItem(ci, 0)->valuedouble : NAN,
             has_ci ? cJSON_GetArrayItem(ci, 1)->valuedouble : NAN, n, stat, NULL);
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(e, "quantiles");
    for (const cJSON *p = q ? q->child : NULL; p; p = p->next)
        report_csv_line(f, game, metric, seat, bot, p->valuedouble, NAN, NAN, n, p->string, NULL);
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(e, "exact");
    if (cJSON_IsNumber(x))
        report_csv_line(f, game, metric, seat, bot, x->valuedouble, NAN, NAN, NAN, "exact", NULL);
}

static void report_csv_write_rows(FILE *f, const cJSON *r);

/* The rows of the types of player (a run with populations), their bot in the bot column and
 * the type in the last: every figure, "share.METRIC" for a type's part of the successes. */
static void csv_types(FILE *f, const char *game, const char *score, const cJSON *types)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, types)
    {
        const char *bot = report_str(t, "bot");
        FILE *row = f;
        char *text = NULL;
        size_t len = 0;
        /* each row as report_csv_line writes it, then ",TYPE" in place of its newline */
        if ((row = open_memstream(&text, &len)) == NULL)
            return;
        csv_estimate(row, game, "seat_share", 0, bot, cJSON_GetObjectItemCaseSensitive(t, "seat_share"));
        csv_estimate(row, game, "win_share", 0, bot, cJSON_GetObjectItemCaseSensitive(t, "win_share"));
        csv_estimate(row, game, score, 0, bot, cJSON_GetObjectItemCaseSensitive(t, score));
        csv_estimate(row, game, "rank", 0, bot, cJSON_GetObjectItemCaseSensitive(t, "rank"));
        const cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(t, "metrics"))
            csv_estimate(row, game, m->string, 0, bot, m);
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(t, "shares"))
        {
            char name[160];
            snprintf(name, sizeof name, "share.%s", m->string);
            csv_estimate(row, game, name, 0, bot, m);
        }
        fclose(row);
        for (char *line = text, *nl; line && *line; line = nl + 1) {
            if ((nl = strchr(line, '\n')) == NULL)
                break;
            fwrite(line, 1, (size_t)(nl - line), f);
            fputc(',', f);
            report_csv_field(f, report_str(t, "type"));
            fputc('\n', f);
        }
        free(text);
    }
}

void report_csv_write(FILE *f, const cJSON *r)
{
    const char *game = report_str(r, "game");
    const char *score = report_str(r, "score");
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(r, "types");
    /* a run with populations has one more column, the type of player, empty but on its rows */
    bool typed = cJSON_GetArraySize(types) > 0;
    if (typed) {
        FILE *body = f;
        char *text = NULL;
        size_t len = 0;
        if ((f = open_memstream(&text, &len)) == NULL)
            return;
        report_csv_write_rows(f, r);
        fclose(f);
        fputs(REPORT_CSV_COLUMNS ",type\n", body);
        for (char *line = text, *nl; line && *line; line = nl + 1) {
            if ((nl = strchr(line, '\n')) == NULL)
                break;
            fwrite(line, 1, (size_t)(nl - line), body);
            fputs(",\n", body);
        }
        free(text);
        csv_types(body, game, score, types);
        return;
    }
    fputs(REPORT_CSV_COLUMNS "\n", f);
    report_csv_write_rows(f, r);
}

static void report_csv_write_rows(FILE *f, const cJSON *r)
{
    const char *game = report_str(r, "game");
    const char *score = report_str(r, "score");
    /* A run interrupted before its end (--keep-partial): its first row says so, the games
     * played as value and the games asked as n. */
    const cJSON *cut = cJSON_GetObjectItemCaseSensitive(r, "interrupted");
    if (cut)
        report_csv_line(f, game, "interrupted", 0, "", report_num(r, "runs"), NAN, NAN,
                        report_num(cut, "runs_asked"), "count", NULL);
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(r, "seats"))
    {
        int seat = (int)report_num(s, "seat");
        const char *bot = report_str(s, "bot");
        csv_estimate(f, game, "win_share", seat, bot,
                     cJSON_GetObjectItemCaseSensitive(s, "win_share"));
        csv_estimate(f, game, score, seat, bot, cJSON_GetObjectItemCaseSensitive(s, score));
        csv_estimate(f, game, "rank", seat, bot, cJSON_GetObjectItemCaseSensitive(s, "rank"));
        const cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(s, "metrics"))
            csv_estimate(f, game, m->string, seat, bot, m);
    }
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(r, "bots"))
    {
        csv_estimate(f, game, "win_share", 0, report_str(b, "bot"),
                     cJSON_GetObjectItemCaseSensitive(b, "win_share"));
        const cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(b, "metrics"))
            csv_estimate(f, game, m->string, 0, report_str(b, "bot"), m);
    }
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(r, "metrics"))
    {
        if (strcmp(m->string, "ended") == 0) {
            const cJSON *e;
            char name[160];
            cJSON_ArrayForEach(e, m)
            {
                snprintf(name, sizeof name, "ended.%s", e->string);
                csv_estimate(f, game, name, 0, "", e);
            }
        } else if (strcmp(m->string, "seat_fairness") == 0) {
            if (cJSON_IsObject(m))
                report_csv_line(f, game, "seat_fairness", 0, "", report_num(m, "p_value"), NAN, NAN, NAN,
                                "p_value", NULL);
        } else {
            csv_estimate(f, game, m->string, 0, "", m);
        }
    }
    /* Distributions: two rows per bin, its count (stat count) and its share of the
     * observations (stat share, with its interval), the observations as n and the bin in its
     * own columns. */
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(r, "distributions"))
    {
        char name[160];
        snprintf(name, sizeof name, "distribution.%s", report_str(d, "name"));
        double n = report_num(d, "n");
        const cJSON *bin;
        cJSON_ArrayForEach(bin, cJSON_GetObjectItemCaseSensitive(d, "bins"))
        {
            csv_bin cell = {report_num(bin, "from"), report_num(bin, "to"), report_str(bin, "label")};
            double count = report_num(bin, "count"), lo, hi;
            report_csv_line(f, game, name, 0, "", count, NAN, NAN, n, "count", &cell);
            stats_share_interval(count, n, &lo, &hi);
            report_csv_line(f, game, name, 0, "", report_num(bin, "share"), lo, hi, n, "share", &cell);
        }
    }
    /* Tables of figures: a row per table row, "table.NAME" the metric, its estimate's kind
     * the stat and the row's bin in the bin columns. */
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(r, "tables"))
    {
        char name[160];
        snprintf(name, sizeof name, "table.%s", report_str(d, "name"));
        const cJSON *row;
        cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(d, "rows"))
        {
            const cJSON *e = cJSON_GetObjectItemCaseSensitive(row, "estimate");
            const cJSON *ci = cJSON_GetObjectItemCaseSensitive(e, "ci95");
            bool has_ci = cJSON_GetArraySize(ci) == 2;
            csv_bin cell = {report_num(row, "from"), report_num(row, "to"), report_str(row, "label")};
            report_csv_line(f, game, name, 0, "", report_num(e, "value"),
                            has_ci ? cJSON_GetArrayItem(ci, 0)->valuedouble : NAN,
                            has_ci ? cJSON_GetArrayItem(ci, 1)->valuedouble : NAN,
                            report_num(e, "n"),
                            cJSON_GetObjectItemCaseSensitive(e, "hits") ? "share" : "mean", &cell);
        }
    }
}
