/* report_html.c — renders a report as one self-contained HTML5 page (summary tables and
 * inline SVG charts), reading only the report tree. */
#include "report_html.h"

#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "report_text.h"

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
    if (cJSON_GetObjectItemCaseSensitive(r, "settings") ||
        cJSON_GetObjectItemCaseSensitive(r, "sensitivity")) {
        fputs("<p>A sweep or sensitivity experiment: its tables are in the text and CSV reports; "
              "here its charts.</p>\n", f);
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
