/* report_html.c — renders a report as one self-contained HTML5 page: how it was made, its
 * tables (a run's summary, a sweep's settings, a sensitivity's keys, a search's result), the
 * charts as inline SVG and the JSON report itself, reading only the report tree. */
#include "report/report_html.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "report/fields.h"
#include "report/plot.h"
#include "report/report.h"
#include "report/report_text.h"

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

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

/* A table's heading (when title is not NULL) and the note under it (the HTML of note, when
 * not NULL), then the table inside a box that scrolls sideways when the table is wider than
 * the page (the page itself never does). */
static void table_note(FILE *f, const char *title, const char *note)
{
    if (title) {
        fputs("<h2>", f);
        esc(f, title);
        fputs("</h2>\n", f);
    }
    if (note)
        fprintf(f, "<p class=\"note\">%s</p>\n", note);
    fputs("<div class=\"scroll\"><table>\n", f);
}

static void table_open(FILE *f, const char *title)
{
    table_note(f, title, NULL);
}

static void table_close(FILE *f)
{
    fputs("</tbody>\n</table></div>\n", f);
}

/* A cell with an estimate {value, ci95} as the text report writes it: the value, and the
 * interval in a span of its own so that the cell breaks between them and never inside. */
static void est_cell_note(FILE *f, const cJSON *e, bool share, bool sign, const char *note)
{
    double v = report_num(e, "value");
    const cJSON *ci = get(e, "ci95");
    char a[64], b[128];
    fputs("<td class=\"r\">", f);
    if (isnan(v)) {
        fputs("&#8212;</td>", f);
        return;
    }
    numfmt_figure(a, sizeof a, v, share, sign);
    fprintf(f, "<span class=\"v\">%s</span>", a);
    if (cJSON_GetArraySize(ci) == 2 && cJSON_IsNumber(cJSON_GetArrayItem(ci, 0))) {
        double lo = cJSON_GetArrayItem(ci, 0)->valuedouble, hi = cJSON_GetArrayItem(ci, 1)->valuedouble;
        numfmt_interval(b, sizeof b, v, lo, hi, share, sign);
        const char *br = strchr(b, '[');
        if (br)
            fprintf(f, " <span class=\"ci\">%s</span>", br);
    }
    if (note)
        fprintf(f, " <span class=\"ci\">%s</span>", note);
    fputs("</td>", f);
}

static void est_cell(FILE *f, const cJSON *e, bool share, bool sign)
{
    est_cell_note(f, e, share, sign, NULL);
}

static void text_cell(FILE *f, const char *cls, const char *s)
{
    fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    esc(f, s);
    fputs("</td>", f);
}

/* ---- a run's summary --------------------------------------------------------------------- */

/* An outline section (a list whose rows' leading blanks, two a level, nest them: "What the
 * headline figures depend on") as nested lists. */
static void outline_list(FILE *f, const cJSON *sec)
{
    int depth = 0; /* lists open; the item of each but the innermost is open too */
    const cJSON *row;
    cJSON_ArrayForEach(row, get(sec, "rows"))
    {
        const cJSON *c = cJSON_GetArrayItem(row, 0);
        const char *s = cJSON_IsString(c) ? c->valuestring : "";
        size_t lead = strspn(s, " ");
        int level = (int)(lead / 2) + 1;
        if (level > depth) {
            for (; depth < level; depth++)
                fputs(depth ? "\n<ul>" : "<ul class=\"outline\">", f);
        } else {
            fputs("</li>", f);
            for (; depth > level; depth--)
                fputs("\n</ul></li>", f);
        }
        fputs("\n<li>", f);
        esc(f, s + lead);
    }
    if (depth == 0)
        return;
    fputs("</li>", f);
    for (; depth > 1; depth--)
        fputs("\n</ul></li>", f);
    fputs("\n</ul>\n", f);
}

/* A summary section's rows as a table (its column heads when it has some); a distribution's
 * last column as bars whose width is the section's "bars". */
static void summary_rows(FILE *f, const cJSON *sec)
{
    const char *a = report_str(sec, "align");
    table_open(f, NULL);
    const cJSON *cols = get(sec, "columns"), *c, *row;
    const cJSON *bars = get(sec, "bars");
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
    int k = 0;
    cJSON_ArrayForEach(row, get(sec, "rows"))
    {
        fputs("<tr>", f);
        int i = 0, last = cJSON_GetArraySize(row) - 1;
        const cJSON *bar = cJSON_GetArrayItem(bars, k++);
        cJSON_ArrayForEach(c, row)
        {
            if (i == last && cJSON_IsNumber(bar) && bar->valuedouble > 0)
                fprintf(f, "<td class=\"bar\"><span style=\"width: %.1f%%\"></span></td>",
                        100 * bar->valuedouble); /* a distribution's bar, drawn to scale */
            else if (i == last && cJSON_IsNumber(bar))
                fputs("<td class=\"bar\"></td>", f);
            else
                text_cell(f, i < (int)strlen(a) && a[i] == 'r' ? "r" : NULL, c->valuestring);
            i++;
        }
        fputs("</tr>\n", f);
    }
    table_close(f);
}

/* A summary section: its heading (a lead section's) or the summary line of the collapsed
 * block that holds it (every other), then its table or outline. */
static void summary_table(FILE *f, const cJSON *sec)
{
    bool lead = cJSON_IsTrue(get(sec, "lead"));
    fputs(lead ? "<h2>" : "<details>\n<summary>", f);
    esc(f, report_str(sec, "title"));
    fputs(lead ? "</h2>\n" : "</summary>\n", f);
    if (cJSON_IsTrue(get(sec, "outline")))
        outline_list(f, sec);
    else
        summary_rows(f, sec);
    if (!lead)
        fputs("</details>\n", f);
}

/* ---- a sweep ------------------------------------------------------------------------------ */

/* A sweep: one row per setting with its games and, per figure of --metric, the setting's own
 * value and its paired difference from the baseline (shares in percent, their differences in
 * points), as the text report shows them. */
static void sweep_table(FILE *f, const cJSON *r, const cJSON *settings)
{
    const char *game = report_str(r, "game");
    const cJSON *figs = get(r, "metric"), *fig, *set;
    bool any_share = false;
    cJSON_ArrayForEach(set, settings)
    {
        const cJSON *x;
        cJSON_ArrayForEach(x, get(set, "figures"))
            any_share = any_share || cJSON_IsTrue(get(x, "share"));
    }
    char note[512];
    snprintf(note, sizeof note, "Each setting's own value, and its difference from the baseline "
             "paired on the same games (95%% intervals%s; &#215;F: the pairing made the interval F "
             "times narrower than two separate runs would).",
             any_share ? "; shares in percent, their differences in percentage points" : "");
    table_note(f, "Settings", note);
    fputs("<thead><tr><th rowspan=\"2\">setting</th><th rowspan=\"2\">games</th>", f);
    cJSON_ArrayForEach(fig, figs)
    {
        char label[256], unit[64];
        report_figure_label(game, fig->valuestring, label, sizeof label, unit, sizeof unit);
        fputs("<th colspan=\"2\" class=\"fig\">", f);
        esc(f, label);
        if (*unit) {
            fputs(" (", f);
            esc(f, unit);
            fputs(")", f);
        }
        fputs("</th>", f);
    }
    fputs("</tr>\n<tr>", f);
    cJSON_ArrayForEach(fig, figs)
        fputs("<th class=\"r\">value [95% CI]</th><th class=\"r\">difference [95% CI]</th>", f);
    fputs("</tr></thead>\n<tbody>\n", f);
    cJSON_ArrayForEach(set, settings)
    {
        bool is_base = cJSON_IsTrue(get(set, "baseline"));
        fprintf(f, "<tr%s><td>", is_base ? " class=\"base\"" : "");
        esc(f, report_str(set, "label"));
        fprintf(f, "</td><td class=\"r\">%.0f</td>", report_num(set, "games"));
        const cJSON *x;
        cJSON_ArrayForEach(x, get(set, "figures"))
        {
            bool share = cJSON_IsTrue(get(x, "share"));
            est_cell(f, get(x, "estimate"), share, false);
            const cJSON *d = get(x, "difference");
            if (is_base) {
                fputs("<td class=\"r\">(baseline)</td>", f);
            } else if (!cJSON_IsObject(d)) {
                fputs("<td class=\"r\">&#8212;</td>", f);
            } else {
                double nar = report_num(d, "narrowing");
                char times[32];
                snprintf(times, sizeof times, "&#215;%.1f", nar);
                est_cell_note(f, d, share, true, isnan(nar) ? NULL : times);
            }
        }
        fputs("</tr>\n", f);
    }
    table_close(f);
}

/* ---- a sensitivity ----------------------------------------------------------------------- */

/* A ruleset value as a table shows it: a number, a word (an enum) or a boolean. */
static void value_cell(FILE *f, const cJSON *v)
{
    char buf[64];
    if (cJSON_IsNumber(v)) {
        fprintf(f, "<td class=\"r\">%s</td>", numfmt_double(buf, sizeof buf, v->valuedouble));
    } else if (cJSON_IsString(v)) {
        text_cell(f, "r", v->valuestring);
    } else if (cJSON_IsBool(v)) {
        fprintf(f, "<td class=\"r\">%s</td>", cJSON_IsTrue(v) ? "true" : "false");
    } else {
        fputs("<td></td>", f);
    }
}

/* A sensitivity run: one row per key (largest effect first), its default and step, and the
 * effect of moving it down and up, paired with the default. */
static void sensitivity_table(FILE *f, const cJSON *r, const cJSON *sens)
{
    char label[256], unit[64], title[512], buf[128];
    report_figure_label(report_str(r, "game"), report_str(sens, "metric"), label, sizeof label,
                        unit, sizeof unit);
    bool share = cJSON_IsTrue(get(sens, "share"));
    const cJSON *d0 = get(sens, "default");
    snprintf(title, sizeof title, "Sensitivity of %s", label);
    fputs("<h2>", f);
    esc(f, title);
    fputs("</h2>\n<p class=\"note\">", f);
    numfmt_interval(buf, sizeof buf, report_num(d0, "value"),
                    cJSON_GetArraySize(get(d0, "ci95")) == 2
                        ? cJSON_GetArrayItem(get(d0, "ci95"), 0)->valuedouble
                        : NAN,
                    cJSON_GetArraySize(get(d0, "ci95")) == 2
                        ? cJSON_GetArrayItem(get(d0, "ci95"), 1)->valuedouble
                        : NAN,
                    share, false);
    fputs("With the default ruleset: ", f);
    esc(f, buf);
    if (*unit && !share) {
        fputs(" ", f);
        esc(f, unit);
    }
    fputs(". Each key moved down and up (", f);
    esc(f, report_str(sens, "step"));
    fputs("), the effect paired with the default on the same games (95% intervals", f);
    fputs(share ? ", in percentage points" : "", f);
    if (*unit && !share) {
        fputs(", in ", f);
        esc(f, unit);
    }
    fputs("); largest effect first.</p>\n", f);
    table_open(f, NULL);
    fputs("<thead><tr><th>key</th><th class=\"r\">default</th><th class=\"r\">step</th>"
          "<th class=\"r\">down</th><th class=\"r\">effect [95% CI]</th><th class=\"r\">up</th>"
          "<th class=\"r\">effect [95% CI]</th></tr></thead>\n<tbody>\n", f);
    const cJSON *k;
    cJSON_ArrayForEach(k, get(get(r, "sensitivity"), "keys"))
    {
        fputs("<tr>", f);
        text_cell(f, NULL, report_str(k, "key"));
        value_cell(f, get(k, "default"));
        if (cJSON_IsNumber(get(k, "step")))
            value_cell(f, get(k, "step"));
        else
            text_cell(f, "r", strcmp(report_str(k, "kind"), "boolean") == 0 ? "toggle" : "value");
        static const char *const side[2] = {"down", "up"};
        for (int i = 0; i < 2; i++) {
            const cJSON *m = get(k, side[i]);
            if (!cJSON_IsObject(m)) { /* a boolean or an enum moves one way */
                fputs("<td></td><td></td>", f);
                continue;
            }
            value_cell(f, get(m, "key_value"));
            const cJSON *diff = get(m, "difference");
            if (diff)
                est_cell(f, diff, share, true);
            else
                text_cell(f, "r", "(out of range)");
        }
        fputs("</tr>\n", f);
    }
    table_close(f);
}

/* ---- searches ------------------------------------------------------------------------------ */

static int by_value(const void *a, const void *b)
{
    double x = report_num(*(const cJSON *const *)a, "value");
    double y = report_num(*(const cJSON *const *)b, "value");
    return x < y ? -1 : x > y;
}

/* A goal seek: each crossing with its interval, then every point evaluated in key order. */
static void seek_page(FILE *f, const cJSON *r)
{
    char label[256], unit[64], buf[128], t[64];
    report_figure_label(report_str(r, "game"), report_str(r, "figure"), label, sizeof label,
                        unit, sizeof unit);
    bool share = cJSON_IsTrue(get(r, "share"));
    const char *key = report_str(r, "key");
    const cJSON *cs = get(r, "crossings"), *c;
    fprintf(f, "<h2>Where %s", "");
    esc(f, label);
    fprintf(f, " crosses %s</h2>\n<p>", numfmt_figure(t, sizeof t, report_num(r, "target"), share, false));
    esc(f, key);
    fprintf(f, " searched in %g..%g%s: a sweep of the range on the same deals, then points "
               "played until their 95%% interval excludes the target or has half-width %s%s. "
               "The crossing's interval holds the values whose interval contains the target.</p>\n",
            report_num(r, "lo"), report_num(r, "hi"),
            cJSON_IsTrue(get(r, "whole")) ? " (whole numbers)" : "",
            numfmt_double(buf, sizeof buf, (share ? 100 : 1) * report_num(r, "halfwidth")),
            share ? " points" : "");
    if (cJSON_GetArraySize(cs) == 0) {
        fputs("<p><strong>No crossing in the range.</strong></p>\n", f);
    } else {
        table_open(f, NULL);
        fputs("<thead><tr><th>crossing</th><th class=\"r\">", f);
        esc(f, key);
        fputs(" [95% CI]</th><th>direction</th><th class=\"r\">nearest point</th>"
              "<th class=\"r\">games</th><th class=\"r\">", f);
        esc(f, label);
        fputs(" there [95% CI]</th></tr></thead>\n<tbody>\n", f);
        int i = 1;
        cJSON_ArrayForEach(c, cs)
        {
            const cJSON *iv = get(c, "interval");
            const cJSON *lo = cJSON_GetArrayItem(iv, 0), *hi = cJSON_GetArrayItem(iv, 1);
            fprintf(f, "<tr><td>%d</td><td class=\"r\"><span class=\"v\">%.4g</span>", i++,
                    report_num(c, "estimate"));
            if (cJSON_IsNumber(lo) && cJSON_IsNumber(hi))
                fprintf(f, " <span class=\"ci\">[%.4g, %.4g]</span>", lo->valuedouble,
                        hi->valuedouble);
            fputs("</td>", f);
            snprintf(buf, sizeof buf, "%s%s", report_str(c, "direction"),
                     cJSON_IsTrue(get(c, "reached")) ? "" : " (half-width not reached within --runs)");
            text_cell(f, NULL, buf);
            const cJSON *p = get(c, "point");
            fprintf(f, "<td class=\"r\">%g</td><td class=\"r\">%.0f</td>", report_num(p, "value"),
                    report_num(p, "games"));
            est_cell(f, get(p, "figure"), share, false);
            fputs("</tr>\n", f);
        }
        table_close(f);
    }
    const cJSON *pts = get(r, "points");
    int n = cJSON_GetArraySize(pts), i = 0;
    const cJSON **sorted = calloc((size_t)n + 1, sizeof *sorted);
    if (sorted == NULL)
        return;
    cJSON_ArrayForEach(c, pts)
        sorted[i++] = c;
    qsort(sorted, (size_t)n, sizeof *sorted, by_value);
    snprintf(buf, sizeof buf, "Points evaluated (%d)", n);
    table_open(f, buf);
    fputs("<thead><tr><th class=\"r\">", f);
    esc(f, key);
    fputs("</th><th>phase</th><th class=\"r\">games</th><th class=\"r\">", f);
    esc(f, label);
    fputs(" [95% CI]</th></tr></thead>\n<tbody>\n", f);
    for (i = 0; i < n; i++) {
        fprintf(f, "<tr><td class=\"r\">%g</td>", report_num(sorted[i], "value"));
        text_cell(f, NULL, report_str(sorted[i], "phase"));
        fprintf(f, "<td class=\"r\">%.0f</td>", report_num(sorted[i], "games"));
        est_cell(f, get(sorted[i], "figure"), share, false);
        fputs("</tr>\n", f);
    }
    table_close(f);
    free(sorted);
}

/* A tuning: the best parameters against the start, their improvement re-evaluated on fresh
 * deals, then every step of the search. */
static void tune_page(FILE *f, const cJSON *r)
{
    char label[256], unit[64], buf[512];
    report_figure_label(report_str(r, "game"), report_str(r, "figure"), label, sizeof label,
                        unit, sizeof unit);
    bool share = cJSON_IsTrue(get(r, "share"));
    const cJSON *ev = get(r, "evaluation"), *p;
    snprintf(buf, sizeof buf, "Seat %.0f's bot tuned to %s %s", report_num(r, "seat"),
             report_str(r, "goal"), label);
    table_open(f, buf);
    fputs("<thead><tr><th>bot</th><th class=\"r\">", f);
    esc(f, label);
    fprintf(f, " [95%% CI], %.0f fresh deals</th></tr></thead>\n<tbody>\n", report_num(ev, "deals"));
    fputs("<tr><td>start: ", f);
    esc(f, report_str(r, "start_bot"));
    fputs("</td>", f);
    est_cell(f, get(ev, "start"), share, false);
    fputs("</tr>\n<tr class=\"best\"><td>best: ", f);
    esc(f, report_str(r, "best_bot"));
    fputs("</td>", f);
    est_cell(f, get(ev, "best"), share, false);
    fprintf(f, "</tr>\n<tr><td>improvement (paired%s)</td>", share ? ", percentage points" : "");
    est_cell(f, get(ev, "improvement"), share, true);
    fputs("</tr>\n", f);
    table_close(f);
    table_open(f, "Parameters");
    fputs("<thead><tr><th>parameter</th><th class=\"r\">range</th><th class=\"r\">start</th>"
          "<th class=\"r\">best</th></tr></thead>\n<tbody>\n", f);
    cJSON_ArrayForEach(p, get(r, "parameters"))
    {
        fputs("<tr>", f);
        text_cell(f, NULL, report_str(p, "key"));
        fprintf(f, "<td class=\"r\">%g..%g%s</td><td class=\"r\">%g</td><td class=\"r\">%g</td></tr>\n",
                report_num(p, "lo"), report_num(p, "hi"),
                cJSON_IsTrue(get(p, "whole")) ? " (whole)" : "", report_num(p, "start"),
                report_num(p, "best"));
    }
    table_close(f);
    table_note(f, "Steps of the search", "Each step tries values of one parameter against the "
               "current one on the same deals; the difference is paired with the step's first row.");
    fputs("<thead><tr><th class=\"r\">pass</th><th>parameter</th><th class=\"r\">deals</th>"
          "<th class=\"r\">value</th><th class=\"r\">", f);
    esc(f, label);
    fputs(" [95% CI]</th><th class=\"r\">difference [95% CI]</th></tr></thead>\n<tbody>\n", f);
    const cJSON *s, *t;
    cJSON_ArrayForEach(s, get(r, "steps"))
        cJSON_ArrayForEach(t, get(s, "trials"))
        {
            fprintf(f, "<tr><td class=\"r\">%.0f</td>", report_num(s, "pass"));
            text_cell(f, NULL, report_str(s, "parameter"));
            fprintf(f, "<td class=\"r\">%.0f</td><td class=\"r\">%g</td>", report_num(s, "deals"),
                    report_num(t, "value"));
            est_cell(f, get(t, "figure"), share, false);
            if (get(t, "difference"))
                est_cell(f, get(t, "difference"), share, true);
            else
                fputs("<td class=\"r\">(current)</td>", f);
            fputs("</tr>\n", f);
        }
    table_close(f);
}

/* The score of bot a against bot b in a tournament's two-seat tables (an estimate: value and
 * ci95), its table's games in *games; NULL if they met at none. */
static const cJSON *pair_score(const cJSON *r, const char *a, const char *b, double *games)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, get(r, "tables"))
    {
        const cJSON *bots = get(t, "bots");
        if (cJSON_GetArraySize(bots) != 2)
            return NULL;
        for (int i = 0; i < 2; i++)
            if (strcmp(cJSON_GetArrayItem(bots, i)->valuestring, a) == 0 &&
                strcmp(cJSON_GetArrayItem(bots, 1 - i)->valuestring, b) == 0) {
                *games = report_num(t, "games");
                return cJSON_GetArrayItem(get(t, "win_share"), i);
            }
    }
    return NULL;
}

static int by_elo(const void *a, const void *b)
{
    double x = report_num(get(*(const cJSON *const *)a, "elo"), "value");
    double y = report_num(get(*(const cJSON *const *)b, "elo"), "value");
    return x > y ? -1 : x < y;
}

/* A tournament: the ratings, the cross table of scores (two seats) or the tables, the draws;
 * or a sequential test's verdict. */
static void tournament_page(FILE *f, const cJSON *r)
{
    char buf[256];
    const cJSON *sp = get(r, "sprt");
    if (sp) {
        const cJSON *bots = get(r, "bots");
        snprintf(buf, sizeof buf, "Sequential test: %s against %s",
                 cJSON_GetArrayItem(bots, 0)->valuestring, cJSON_GetArrayItem(bots, 1)->valuestring);
        table_open(f, buf);
        fputs("<tbody>\n", f);
        fprintf(f, "<tr><td>hypotheses</td><td class=\"r\">H0: Elo %g, H1: Elo %g (alpha %g, "
                   "beta %g)</td></tr>\n",
                report_num(sp, "elo0"), report_num(sp, "elo1"), report_num(sp, "alpha"),
                report_num(sp, "beta"));
        fputs("<tr><td>accepted</td><td class=\"r\"><strong>", f);
        esc(f, *report_str(sp, "accepted") ? report_str(sp, "accepted") : "neither (cap reached)");
        fprintf(f, "</strong> after %.0f deals, %.0f games</td></tr>\n", report_num(sp, "deals"),
                report_num(sp, "games"));
        const cJSON *b = get(sp, "bounds");
        fprintf(f, "<tr><td>log-likelihood ratio</td><td class=\"r\">%.3f (bounds %.3f, %.3f)</td></tr>\n",
                report_num(sp, "llr"), cJSON_GetArrayItem(b, 0) ? cJSON_GetArrayItem(b, 0)->valuedouble : NAN,
                cJSON_GetArrayItem(b, 1) ? cJSON_GetArrayItem(b, 1)->valuedouble : NAN);
        fputs("<tr><td>score of the first (ties halved)</td>", f);
        est_cell(f, get(sp, "score"), true, false);
        fputs("</tr>\n<tr><td>Elo difference</td>", f);
        const cJSON *elo = get(sp, "elo"), *ci = get(elo, "ci95");
        fprintf(f, "<td class=\"r\"><span class=\"v\">%+.1f</span>", report_num(elo, "value"));
        if (cJSON_GetArraySize(ci) == 2)
            fprintf(f, " <span class=\"ci\">[%+.1f, %+.1f]</span>",
                    cJSON_GetArrayItem(ci, 0)->valuedouble, cJSON_GetArrayItem(ci, 1)->valuedouble);
        fprintf(f, "</td></tr>\n<tr><td>draws</td><td class=\"r\">%.2f%%</td></tr>\n",
                100 * report_num(sp, "draws"));
        table_close(f);
        return;
    }
    const cJSON *ratings = get(r, "ratings"), *x;
    int n = cJSON_GetArraySize(ratings), i = 0;
    const cJSON **by = calloc((size_t)n + 1, sizeof *by);
    if (by == NULL)
        return;
    cJSON_ArrayForEach(x, ratings)
        by[i++] = x;
    qsort(by, (size_t)n, sizeof *by, by_elo);
    table_note(f, "Ratings", "Bradley&#8211;Terry ratings on the Elo scale (mean 0), 95% intervals.");
    fputs("<thead><tr><th>bot</th><th class=\"r\">Elo [95% CI]</th></tr></thead>\n<tbody>\n", f);
    for (i = 0; i < n; i++) {
        const cJSON *e = get(by[i], "elo"), *ci = get(e, "ci95");
        fputs("<tr>", f);
        text_cell(f, NULL, report_str(by[i], "bot"));
        fprintf(f, "<td class=\"r\"><span class=\"v\">%+.1f</span>", report_num(e, "value"));
        if (cJSON_GetArraySize(ci) == 2)
            fprintf(f, " <span class=\"ci\">[%+.1f, %+.1f]</span>",
                    cJSON_GetArrayItem(ci, 0)->valuedouble, cJSON_GetArrayItem(ci, 1)->valuedouble);
        fputs("</td></tr>\n", f);
    }
    table_close(f);
    if (report_num(r, "seats") == 2) {
        table_note(f, "Cross table", "Score of the row against the column (win share, ties "
                                     "halved), its 95% interval and the games they played.");
        fputs("<thead><tr><th></th>", f);
        for (i = 0; i < n; i++) {
            fputs("<th class=\"r\">", f);
            esc(f, report_str(by[i], "bot"));
            fputs("</th>", f);
        }
        fputs("</tr></thead>\n<tbody>\n", f);
        for (i = 0; i < n; i++) {
            fputs("<tr>", f);
            text_cell(f, NULL, report_str(by[i], "bot"));
            for (int j = 0; j < n; j++) {
                double games = 0;
                const cJSON *e = i == j ? NULL
                                        : pair_score(r, report_str(by[i], "bot"),
                                                     report_str(by[j], "bot"), &games);
                char note[48];
                snprintf(note, sizeof note, "n&#160;=&#160;%.0f", games);
                if (e)
                    est_cell_note(f, e, true, false, note);
                else
                    text_cell(f, "r", "—");
            }
            fputs("</tr>\n", f);
        }
        table_close(f);
    } else {
        table_open(f, "Tables");
        fputs("<thead><tr><th>table</th><th>bots and win shares [95% CI]</th><th class=\"r\">games</th>"
              "<th class=\"r\">draws</th></tr></thead>\n<tbody>\n", f);
        int k = 1;
        cJSON_ArrayForEach(x, get(r, "tables"))
        {
            fprintf(f, "<tr><td>%d</td><td>", k++);
            const cJSON *b = get(x, "bots")->child, *w = get(x, "win_share")->child;
            for (; b && w; b = b->next, w = w->next) {
                char e[128];
                const cJSON *ci = get(w, "ci95");
                numfmt_interval(e, sizeof e, report_num(w, "value"),
                                cJSON_GetArraySize(ci) == 2 ? cJSON_GetArrayItem(ci, 0)->valuedouble : NAN,
                                cJSON_GetArraySize(ci) == 2 ? cJSON_GetArrayItem(ci, 1)->valuedouble : NAN,
                                true, false);
                fputs("<span class=\"v\">", f);
                esc(f, b->valuestring);
                fputs(" ", f);
                esc(f, e);
                fputs("</span> ", f);
            }
            fprintf(f, "</td><td class=\"r\">%.0f</td><td class=\"r\">%.2f%%</td></tr>\n",
                    report_num(x, "games"), 100 * report_num(x, "draws"));
        }
        table_close(f);
    }
    free(by);
    fprintf(f, "<p>Draws (no single winner): %.2f%% of the %.0f games.</p>\n",
            100 * report_num(r, "draws"), report_num(r, "games"));
}

/* ---- provenance ---------------------------------------------------------------------------- */

/* Writes argv as one shell command line, each word quoted when it needs to be. */
static void command_line(FILE *f, const cJSON *argv)
{
    const cJSON *a;
    bool first = true;
    cJSON_ArrayForEach(a, argv)
    {
        const char *s = cJSON_IsString(a) ? a->valuestring : "";
        if (!first)
            fputc(' ', f);
        if (first) { /* the program as its name, wherever it was run from */
            const char *slash = strrchr(s, '/');
            s = slash ? slash + 1 : s;
        }
        first = false;
        bool plain = *s != '\0';
        for (const char *p = s; *p && plain; p++)
            plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/@%+",
                           *p) != NULL;
        if (plain) {
            esc(f, s);
            continue;
        }
        fputc('\'', f);
        for (const char *p = s; *p; p++) {
            char c[2] = {*p, 0};
            if (*p == '\'')
                fputs("'\\''", f);
            else
                esc(f, c);
        }
        fputc('\'', f);
    }
}

/* The games a report played in all: "3000 deals × 4 rotations = 12000 games". */
static void games_played(FILE *f, const cJSON *r)
{
    const cJSON *settings = get(r, "settings"), *s;
    if (*report_str(r, "mode")) {
        fprintf(f, "%.0f games in all (--runs %.0f: %s)", report_num(r, "games"), report_num(r, "runs"),
                strcmp(report_str(r, "mode"), "seek") == 0 ? "the most games of one point"
                : strcmp(report_str(r, "mode"), "tune") == 0 ? "the deals of the final re-evaluation"
                                                             : "deals per table, or the cap of the test");
    } else if (cJSON_IsArray(settings)) {
        double total = 0, deals = 0;
        int n = 0;
        cJSON_ArrayForEach(s, settings)
        {
            double rot = report_num(get(s, "report"), "rotations");
            deals += report_num(s, "games");
            total += report_num(s, "games") * (isnan(rot) ? 1 : rot);
            n++;
        }
        fprintf(f, "%d settings, %.0f %s in all", n, deals,
                cJSON_IsTrue(get(r, "rotate_seats")) ? "deals" : "games");
        if (total != deals)
            fprintf(f, ", %.0f games under rotation", total);
    } else if (get(r, "sensitivity")) {
        const cJSON *k;
        int n = 1;
        cJSON_ArrayForEach(k, get(get(r, "sensitivity"), "keys"))
            n += cJSON_IsObject(get(get(k, "down"), "difference")) +
                 cJSON_IsObject(get(get(k, "up"), "difference"));
        double g = report_num(get(r, "sensitivity"), "games");
        fprintf(f, "%.0f games per setting, %d settings (the default and each move): %.0f games",
                g, n, g * n);
    } else if (get(r, "rotations")) {
        fprintf(f, "%.0f deals &#215; %.0f rotations = %.0f games", report_num(r, "runs"),
                report_num(r, "rotations"), report_num(r, "plays"));
    } else {
        fprintf(f, "%.0f games", report_num(r, "runs"));
    }
}

/* The players and bots: each seat's bot (a run, an experiment's baseline, a search's start),
 * or a tournament's entrants. */
static void players_and_bots(FILE *f, const cJSON *r)
{
    const cJSON *seats = get(r, "seats"), *x;
    const cJSON *settings = get(r, "settings");
    if (cJSON_IsArray(settings) && !get(r, "seat_bots"))
        seats = get(get(cJSON_GetArrayItem(settings, 0), "report"), "seats");
    if (cJSON_IsArray(seats) && cJSON_GetArraySize(seats) > 0) {
        fprintf(f, "%d players: ", cJSON_GetArraySize(seats));
        int k = 0;
        cJSON_ArrayForEach(x, seats)
        {
            fprintf(f, "%sseat %.0f <code>", k++ ? ", " : "", report_num(x, "seat"));
            esc(f, report_str(x, "bot"));
            fputs("</code>", f);
        }
        return;
    }
    const cJSON *sb = get(r, "seat_bots");
    if (cJSON_IsArray(sb) && cJSON_GetArraySize(sb) > 0) {
        fprintf(f, "%d players: ", cJSON_GetArraySize(sb));
        int k = 0;
        cJSON_ArrayForEach(x, sb)
        {
            fprintf(f, "%sseat %d <code>", k ? ", " : "", k + 1);
            esc(f, x->valuestring);
            fputs("</code>", f);
            k++;
        }
        if (cJSON_IsArray(settings) || get(r, "sensitivity"))
            fputs(" (the baseline's)", f);
        if (cJSON_IsTrue(get(r, "rotate_seats")))
            fputs("; seats rotated: each deal played once per rotation of the bots", f);
        return;
    }
    const cJSON *bots = get(r, "bots");
    if (cJSON_IsArray(bots)) {
        if (get(r, "rotations"))
            fprintf(f, "%.0f players, rotated over the seats: ", report_num(r, "players"));
        else
            fprintf(f, "%.0f seats per table, entrants: ", report_num(r, "seats"));
        int k = 0;
        cJSON_ArrayForEach(x, bots)
        {
            fputs(k++ ? ", <code>" : "<code>", f);
            esc(f, cJSON_IsString(x) ? x->valuestring : report_str(x, "bot"));
            fputs("</code>", f);
        }
    }
}

/* How the report was made: tool, version and date, the exact command line, game, seed,
 * players and bots, ruleset changes and what was swept, the games played. What varies from
 * run to run (the date, the command line) sits on lines marked data-run. */
static void provenance(FILE *f, const cJSON *r)
{
    const cJSON *run = get(r, "run"), *x;
    fputs("<section class=\"prov\">\n<h2>How this was made</h2>\n<dl>\n<dt>made by</dt><dd>", f);
    esc(f, report_str(r, "tool"));
    fputs(" ", f);
    esc(f, report_str(r, "version"));
    if (*report_str(run, "date")) {
        fputs(",\n<span data-run>", f);
        esc(f, report_str(run, "date"));
        fputs("</span>\n", f);
    }
    fputs("</dd>\n", f);
    if (cJSON_IsArray(get(run, "command_line"))) {
        fputs("<dt>command</dt><dd><code class=\"cmd\" data-run>", f);
        command_line(f, get(run, "command_line"));
        fputs("</code></dd>\n", f);
    }
    fputs("<dt>game</dt><dd>", f);
    esc(f, report_str(r, "title"));
    fputs(" (<code>", f);
    esc(f, report_str(r, "game"));
    fputs("</code>)</dd>\n<dt>seed</dt><dd>", f);
    esc(f, report_str(r, "seed"));
    fputs("</dd>\n<dt>players and bots</dt><dd>", f);
    players_and_bots(f, r);
    fputs("</dd>\n<dt>ruleset</dt><dd>", f);
    const cJSON *ch = get(r, "ruleset_changes");
    if (cJSON_GetArraySize(ch) == 0) {
        fputs("the default ruleset", f);
    } else {
        fputs("changed from the default: ", f);
        int k = 0;
        cJSON_ArrayForEach(x, ch)
        {
            fputs(k++ ? ", <code>" : "<code>", f);
            esc(f, x->valuestring);
            fputs("</code>", f);
        }
    }
    if (cJSON_GetArraySize(get(r, "sweeps")) > 0) {
        fputs("; swept:", f);
        cJSON_ArrayForEach(x, get(r, "sweeps"))
        {
            fputs(" <code>", f);
            esc(f, x->valuestring);
            fputs("</code>", f);
        }
    }
    fputs("</dd>\n<dt>games played</dt><dd>", f);
    games_played(f, r);
    fputs("</dd>\n</dl>\n<p class=\"note\">The page holds its JSON report (the script elements "
          "<code>giochi-report</code> and, for what varies from run to run, "
          "<code>giochi-run</code>); the command above plays the same games again.</p>\n"
          "</section>\n", f);
}

/* Writes the JSON text of o inside a script element: "</" is written "<\/" (the same JSON)
 * so that no string can close the element. */
static void json_block(FILE *f, const char *id, const cJSON *o, bool formatted, bool run)
{
    char *t = formatted ? cJSON_Print(o) : cJSON_PrintUnformatted(o);
    fprintf(f, "<script type=\"application/json\" id=\"%s\"%s>", id, run ? " data-run" : "");
    for (const char *p = t; p && *p; p++) {
        if (p[0] == '<' && p[1] == '/')
            fputs("<\\", f);
        else
            fputc(*p, f);
    }
    fputs("</script>\n", f);
    cJSON_free(t);
}

/* The page's title: the report's title line, or for a search what it looked for. */
static void page_title(const cJSON *r, char *buf, size_t n)
{
    const char *mode = report_str(r, "mode");
    char label[256], unit[64], t[64];
    if (*mode)
        report_figure_label(report_str(r, "game"), report_str(r, "figure"), label, sizeof label,
                            unit, sizeof unit);
    if (strcmp(mode, "seek") == 0)
        snprintf(buf, n, "%s — goal seek: %s = %s over %s", report_str(r, "title"), label,
                 numfmt_figure(t, sizeof t, report_num(r, "target"), cJSON_IsTrue(get(r, "share")),
                               false),
                 report_str(r, "key"));
    else if (strcmp(mode, "tune") == 0)
        snprintf(buf, n, "%s — tuning seat %.0f to %s %s", report_str(r, "title"),
                 report_num(r, "seat"), report_str(r, "goal"), label);
    else if (strcmp(mode, "tournament") == 0)
        snprintf(buf, n, "%s — tournament of %d bots", report_str(r, "title"),
                 cJSON_GetArraySize(get(r, "bots")));
    else if (strcmp(mode, "sprt") == 0)
        snprintf(buf, n, "%s — sequential test of two bots", report_str(r, "title"));
    else if (get(r, "sensitivity"))
        snprintf(buf, n, "%s — sensitivity of %s, %.0f games per setting, seed %s",
                 report_str(r, "title"), report_str(get(r, "sensitivity"), "metric"),
                 report_num(get(r, "sensitivity"), "games"), report_str(r, "seed"));
    else if (cJSON_IsArray(get(r, "settings"))) {
        int len = snprintf(buf, n, "%s — sweep", report_str(r, "title"));
        const cJSON *x;
        cJSON_ArrayForEach(x, get(r, "sweeps"))
            if (len >= 0 && (size_t)len < n)
                len += snprintf(buf + len, n - (size_t)len, " %s", x->valuestring);
        if (len >= 0 && (size_t)len < n)
            snprintf(buf + len, n - (size_t)len, ", %.0f %s per setting, seed %s",
                     report_num(r, "runs"), cJSON_IsTrue(get(r, "rotate_seats")) ? "deals" : "games",
                     report_str(r, "seed"));
    } else
        report_summary_title(r, true, buf, n);
}

/* The report's charts (plot_render's SVG, inline), or a line saying why there are none. */
static void charts(FILE *f, const cJSON *r)
{
    fputs("<h2>Charts</h2>\n<div class=\"charts\">\n", f);
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
    fputs("</div>\n", f);
}

void report_html_write(FILE *f, const cJSON *r)
{
    char title[1024];
    page_title(r, title, sizeof title);
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
    esc(f, title);
    fputs("</title>\n<style>\n"
          "body { font-family: sans-serif; margin: 1.5em auto; max-width: 74em; padding: 0 1em;"
          " color: #222; line-height: 1.35; }\n"
          "h1 { font-size: 1.5em; overflow-wrap: anywhere; }\n"
          "h2 { font-size: 1.2em; margin-top: 1.5em; }\n"
          ".scroll { max-width: 100%; overflow-x: auto; margin-bottom: 1em; }\n"
          "table { border-collapse: collapse; }\n"

          "th, td { padding: 0.2em 0.7em; text-align: left; border-bottom: 1px solid #ddd;"
          " vertical-align: top; }\n"
          "th { background: #f4f4f4; font-weight: 600; }\n"
          "th.fig { text-align: center; border-left: 1px solid #ccc; }\n"
          ".r { text-align: right; font-variant-numeric: tabular-nums; }\n"
          "span.v, span.ci { white-space: nowrap; }\n"
          "span.ci { color: #555; }\n"
          "tr.base td, tr.best td { background: #fafae8; }\n"
          ".prov { background: #f6f6f6; border: 1px solid #e2e2e2; padding: 0.3em 1em 0.6em;"
          " font-size: 0.92em; }\n"
          ".prov h2 { margin-top: 0.5em; }\n"
          ".prov dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 1em;"
          " margin: 0; }\n"
          ".prov dt { font-weight: 600; }\n"
          ".prov dd { margin: 0; overflow-wrap: anywhere; }\n"
          ".note { color: #555; max-width: 60em; }\n"
          "p.cut { background: #fdecea; border: 1px solid #e6a09a; padding: 0.4em 1em; }\n"
          "ul.outline, ul.outline ul { margin: 0.2em 0; padding-left: 1.5em; }\n"
          "code { font-family: monospace; }\n"
          "code.cmd { white-space: pre-wrap; overflow-wrap: anywhere; }\n"
          ".charts svg { max-width: 100%; height: auto; }\n"
          "details { margin: 0.5em 0; }\n"
          "summary { font-size: 1.1em; font-weight: 600; cursor: pointer; padding: 0.2em 0; }\n"
          "td.bar { width: 14em; }\n"
          "td.bar span { display: block; height: 0.9em; min-width: 2px; background: #4a78b0; }\n"
          "</style>\n</head>\n<body>\n<h1>", f);
    esc(f, title);
    fputs("</h1>\n", f);
    const cJSON *cut = get(r, "interrupted"); /* --keep-partial */
    if (cut)
        fprintf(f, "<p class=\"cut\"><strong>Interrupted:</strong> the report of the first %.0f "
                   "of the %.0f games asked.</p>\n",
                report_num(r, "runs"), report_num(cut, "runs_asked"));
    provenance(f, r);
    const char *mode = report_str(r, "mode");
    const cJSON *settings = get(r, "settings");
    const cJSON *sens = get(r, "sensitivity");
    bool plain = false;
    if (strcmp(mode, "seek") == 0) {
        seek_page(f, r);
    } else if (strcmp(mode, "tune") == 0) {
        tune_page(f, r);
    } else if (strcmp(mode, "tournament") == 0 || strcmp(mode, "sprt") == 0) {
        tournament_page(f, r);
    } else if (sens) {
        sensitivity_table(f, r, sens);
    } else if (cJSON_IsArray(settings) && cJSON_GetArraySize(settings) > 0) {
        sweep_table(f, r, settings);
    } else {
        plain = true;
    }
    /* a plain run: who wins and the headline, then its charts, then every other section in a
     * block of its own, closed */
    cJSON *sum = plain ? report_summary_build(r) : NULL;
    const cJSON *sec;
    cJSON_ArrayForEach(sec, sum)
        if (cJSON_IsTrue(get(sec, "lead")))
            summary_table(f, sec);
    charts(f, r);
    if (sum)
        fputs("<h2>Tables</h2>\n", f);
    cJSON_ArrayForEach(sec, sum)
        if (!cJSON_IsTrue(get(sec, "lead")))
            summary_table(f, sec);
    cJSON_Delete(sum);
    cJSON *copy = cJSON_Duplicate(r, 1);
    cJSON *run = cJSON_DetachItemFromObjectCaseSensitive(copy, "run");
    json_block(f, "giochi-report", copy, true, false);
    if (run)
        json_block(f, "giochi-run", run, false, true);
    cJSON_Delete(run);
    cJSON_Delete(copy);
    fputs("</body>\n</html>\n", f);
}
