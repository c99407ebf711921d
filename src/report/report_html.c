/* report_html.c — renders a report as one self-contained HTML5 page (summary tables and
 * inline SVG charts), reading only the report tree. */
#include "report/report_html.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot.h"
#include "report/report.h"
#include "report/fields.h"
#include "report/report_text.h"

/* Writes s with the characters HTML gives a meaning to escaped. */
static void esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static void table(FILE *f, const cJSON *sec)
{
    const cJSON *align = cJSON_GetObjectItemCaseSensitive(sec, "align");
    const char *a = cJSON_IsString(align) ? align->valuestring : "";
    fputs("<h2>", f);
    esc(f, cJSON_GetObjectItemCaseSensitive(sec, "title")->valuestring);
    fputs("</h2>\n<table>\n", f);
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(sec, "columns"), *c, *row;
    if (cols) {
        fputs("<thead><tr>", f);
        cJSON_ArrayForEach(c, cols)
        {
            fputs("<th>", f);
            esc(f, c->valuestring);
            fputs("</th>", f);
        }
        fputs("</tr></thead>\n", f);
    }
    fputs("<tbody>\n", f);
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(sec, "rows"))
    {
        fputs("<tr>", f);
        int i = 0;
        cJSON_ArrayForEach(c, row)
        {
            bool right = i < (int)strlen(a) && a[i] == 'r';
            fputs(right ? "<td class=\"r\">" : "<td>", f);
            esc(f, c->valuestring);
            fputs("</td>", f);
            i++;
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
}

/* One cell "value [lo, hi]" of an estimate object {value, ci95}, or a dash. */
static void estimate_cell(FILE *f, const cJSON *e)
{
    double v = report_num(e, "value");
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(e, "ci95");
    fputs("<td class=\"r\">", f);
    if (isnan(v))
        fputs("&#8212;", f);
    else if (cJSON_GetArraySize(ci) == 2)
        fprintf(f, "%+.4g [%+.4g, %+.4g]", v, cJSON_GetArrayItem(ci, 0)->valuedouble,
                cJSON_GetArrayItem(ci, 1)->valuedouble);
    else
        fprintf(f, "%+.4g", v);
    fputs("</td>", f);
}

/* True if difference metric `name` ("length", "shut_rate@1", ...) is the game length or one of
 * the headline figures of the layout. */
static bool headline_metric(const cJSON *layout, const char *name)
{
    if (strcmp(name, "length") == 0)
        return true;
    size_t n = strcspn(name, "@");
    const cJSON *h;
    cJSON_ArrayForEach(h, cJSON_GetObjectItemCaseSensitive(layout, "headline"))
        if (cJSON_IsString(h) && strlen(h->valuestring) == n && strncmp(h->valuestring, name, n) == 0)
            return true;
    return false;
}

/* A sweep: one row per setting with its games and, for the game length and each headline
 * figure, the paired difference from the baseline with its 95% interval. */
static void sweep_table(FILE *f, const cJSON *settings)
{
    const cJSON *first = cJSON_GetArrayItem(settings, 0), *set, *d;
    const cJSON *layout = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(first, "report"), "layout");
    const cJSON *ref = NULL; /* a setting with differences, for the column names */
    cJSON_ArrayForEach(set, settings)
        if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(set, "differences")) > 0)
            ref = set;
    fputs("<h2>Settings (differences paired with the baseline, 95% CI)</h2>\n<table>\n"
          "<thead><tr><th>setting</th><th>games</th>", f);
    if (ref)
        cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(ref, "differences"))
            if (headline_metric(layout, report_str(d, "metric"))) {
                fputs("<th>", f);
                esc(f, report_str(d, "metric"));
                if (!isnan(report_num(d, "seat")))
                    fprintf(f, " (seat %.0f)", report_num(d, "seat"));
                fputs("</th>", f);
            }
    fputs("</tr></thead>\n<tbody>\n", f);
    cJSON_ArrayForEach(set, settings)
    {
        fputs("<tr><td>", f);
        esc(f, report_str(set, "label"));
        fprintf(f, "</td><td class=\"r\">%.0f</td>", report_num(set, "games"));
        const cJSON *diffs = cJSON_GetObjectItemCaseSensitive(set, "differences");
        if (ref && (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(set, "baseline")) ||
                    cJSON_GetArraySize(diffs) == 0)) {
            cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(ref, "differences"))
                if (headline_metric(layout, report_str(d, "metric")))
                    fputs("<td>(baseline)</td>", f);
        } else {
            cJSON_ArrayForEach(d, diffs)
                if (headline_metric(layout, report_str(d, "metric")))
                    estimate_cell(f, d);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
}

/* A sensitivity run: one row per key, its default, and the effect of moving it down and up. */
/* A table cell holding a ruleset value: a number, a word (an enum) or a boolean. */
static void value_cell(FILE *f, const cJSON *v)
{
    if (cJSON_IsNumber(v)) {
        fprintf(f, "<td class=\"r\">%.6g</td>", v->valuedouble);
    } else if (cJSON_IsString(v)) {
        fputs("<td class=\"r\">", f);
        esc(f, v->valuestring);
        fputs("</td>", f);
    } else if (cJSON_IsBool(v)) {
        fprintf(f, "<td class=\"r\">%s</td>", cJSON_IsTrue(v) ? "true" : "false");
    } else {
        fputs("<td></td>", f);
    }
}

static void sensitivity_table(FILE *f, const cJSON *sens)
{
    fputs("<h2>Sensitivity of ", f);
    esc(f, report_str(sens, "metric"));
    fputs(" (effects paired with the default, 95% CI)</h2>\n<table>\n<thead><tr><th>key</th>"
          "<th>default</th><th>down</th><th>effect</th><th>up</th><th>effect</th></tr>"
          "</thead>\n<tbody>\n", f);
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(sens, "keys"))
    {
        fputs("<tr><td>", f);
        esc(f, report_str(k, "key"));
        fputs("</td>", f);
        value_cell(f, cJSON_GetObjectItemCaseSensitive(k, "default"));
        static const char *const side[2] = {"down", "up"};
        for (int i = 0; i < 2; i++) {
            const cJSON *m = cJSON_GetObjectItemCaseSensitive(k, side[i]);
            if (!cJSON_IsObject(m)) { /* a boolean or an enum moves one way */
                fputs("<td></td><td></td>", f);
                continue;
            }
            value_cell(f, cJSON_GetObjectItemCaseSensitive(m, "key_value"));
            const cJSON *diff = cJSON_GetObjectItemCaseSensitive(m, "difference");
            if (diff)
                estimate_cell(f, diff);
            else
                fputs("<td>out of range</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
}

void report_html_write(FILE *f, const cJSON *r)
{
    char title[1024];
    report_summary_title(r, true, title, sizeof title);
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    esc(f, title);
    fputs("</title>\n<style>\n"
          "body { font-family: sans-serif; margin: 2em auto; max-width: 60em; color: #222; }\n"
          "table { border-collapse: collapse; margin-bottom: 1em; }\n"
          "th, td { padding: 0.15em 0.8em; text-align: left; border-bottom: 1px solid #ddd; }\n"
          "td.r { text-align: right; font-variant-numeric: tabular-nums; }\n"
          "svg { max-width: 100%; height: auto; }\n"
          "</style>\n</head>\n<body>\n<h1>", f);
    esc(f, title);
    fputs("</h1>\n", f);
    const cJSON *settings = cJSON_GetObjectItemCaseSensitive(r, "settings");
    const cJSON *sens = cJSON_GetObjectItemCaseSensitive(r, "sensitivity");
    if (sens) {
        sensitivity_table(f, sens);
    } else if (cJSON_IsArray(settings) && cJSON_GetArraySize(settings) > 0) {
        sweep_table(f, settings);
    } else {
        cJSON *sum = report_summary_build(r);
        const cJSON *sec;
        cJSON_ArrayForEach(sec, sum)
            table(f, sec);
        cJSON_Delete(sum);
    }
    fputs("<h2>Charts</h2>\n", f);
    char err[512];
    size_t len;
    char *svg = plot_render(r, PLOT_SVG, &len, err, sizeof err);
    const char *start = svg ? strstr(svg, "<svg") : NULL;
    if (start) {
        fputs(start, f);
    } else {
        fputs("<p>No charts: ", f);
        esc(f, svg ? "gnuplot wrote no SVG" : err);
        fputs(".</p>\n", f);
    }
    free(svg);
    fputs("</body>\n</html>\n", f);
}
