/* report_csv.c — a report tree as tidy CSV: one row per estimate, quantile and exact value. */
#include "report/report_csv.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
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

static void csv_num(FILE *f, double x)
{
    char buf[40];
    if (!isnan(x))
        fputs(numfmt_double(buf, sizeof buf, x), f);
}

void report_csv_line(FILE *f, const char *game, const char *metric, int seat, const char *bot,
                     double value, double lo, double hi, double n, const char *stat)
{
    report_csv_field(f, game);
    fputc(',', f);
    report_csv_field(f, metric);
    if (seat > 0)
        fprintf(f, ",%d,", seat);
    else
        fputs(",,", f);
    report_csv_field(f, bot);
    const double cell[4] = {value, lo, hi, n};
    for (int i = 0; i < 4; i++) {
        fputc(',', f);
        csv_num(f, cell[i]);
    }
    fputc(',', f);
    fputs(stat, f);
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
             has_ci ? cJSON_GetArrayItem(ci, 1)->valuedouble : NAN, n, stat);
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(e, "quantiles");
    for (const cJSON *p = q ? q->child : NULL; p; p = p->next)
        report_csv_line(f, game, metric, seat, bot, p->valuedouble, NAN, NAN, n, p->string);
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(e, "exact");
    if (cJSON_IsNumber(x))
        report_csv_line(f, game, metric, seat, bot, x->valuedouble, NAN, NAN, NAN, "exact");
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
        fputs("game,metric,seat,bot,value,ci95_low,ci95_high,n,stat,type\n", body);
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
    fputs("game,metric,seat,bot,value,ci95_low,ci95_high,n,stat\n", f);
    report_csv_write_rows(f, r);
}

static void report_csv_write_rows(FILE *f, const cJSON *r)
{
    const char *game = report_str(r, "game");
    const char *score = report_str(r, "score");
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
                         "p_value");
        } else {
            csv_estimate(f, game, m->string, 0, "", m);
        }
    }
    /* Distributions: one row per bin, its count as the value, the observations as n and the
     * bin as the stat ("count:35" for one value, "count:35..39" for a wider bin). */
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(r, "distributions"))
    {
        char name[160], stat[96];
        snprintf(name, sizeof name, "distribution.%s", report_str(d, "name"));
        const cJSON *bin;
        cJSON_ArrayForEach(bin, cJSON_GetObjectItemCaseSensitive(d, "bins"))
        {
            double from = report_num(bin, "from"), to = report_num(bin, "to");
            if (from == to)
                snprintf(stat, sizeof stat, "count:%.0f", from);
            else
                snprintf(stat, sizeof stat, "count:%.0f..%.0f", from, to);
            report_csv_line(f, game, name, 0, "", report_num(bin, "count"), NAN, NAN,
                            report_num(d, "n"), stat);
        }
    }
    /* Tables of figures: a row per table row, "table.NAME" the metric and its label the stat
     * ("mean:10..19") */
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(r, "tables"))
    {
        char name[160], stat[96];
        snprintf(name, sizeof name, "table.%s", report_str(d, "name"));
        const cJSON *row;
        cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(d, "rows"))
        {
            const cJSON *e = cJSON_GetObjectItemCaseSensitive(row, "estimate");
            const cJSON *ci = cJSON_GetObjectItemCaseSensitive(e, "ci95");
            bool has_ci = cJSON_GetArraySize(ci) == 2;
            snprintf(stat, sizeof stat, "%s:%s",
                     cJSON_GetObjectItemCaseSensitive(e, "hits") ? "share" : "mean",
                     report_str(row, "label"));
            report_csv_line(f, game, name, 0, "", report_num(e, "value"),
                            has_ci ? cJSON_GetArrayItem(ci, 0)->valuedouble : NAN,
                            has_ci ? cJSON_GetArrayItem(ci, 1)->valuedouble : NAN,
                            report_num(e, "n"), stat);
        }
    }
}
