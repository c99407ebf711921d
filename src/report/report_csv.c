/* report_csv.c — a report tree as tidy CSV: one row per estimate, quantile and exact value. */
#include "report/report_csv.h"

#include <math.h>
#include <stdbool.h>
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

void report_csv_write(FILE *f, const cJSON *r)
{
    const char *game = report_str(r, "game");
    const char *score = report_str(r, "score");
    fputs("game,metric,seat,bot,value,ci95_low,ci95_high,n,stat\n", f);
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
}
