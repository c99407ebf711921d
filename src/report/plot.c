/* plot.c — draws a report's charts with gnuplot: writes a script with the data inline, runs
 * gnuplot on it through a pipe into a temporary file, and reads the file back. */
#include "report/report.h"
#include "report/plot.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/fields.h"
#include "report/report_text.h"
#include "core/numfmt.h"
#include "core/xalloc.h"

enum { MAX_SERIES = 16 }; /* series in one histogram panel (one per bot) */

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

int plot_format_of(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    static const char *const ext[3] = {"svg", "png", "pdf"};
    for (int i = 0; dot && i < 3; i++)
        if (strcasecmp(dot + 1, ext[i]) == 0)
            return i;
    return -1;
}

bool plot_available(void)
{
    const char *path = getenv("PATH");
    if (path == NULL)
        return false;
    char dir[4096];
    while (*path) {
        size_t n = strcspn(path, ":");
        if (n > 0 && n < sizeof dir - 16) {
            memcpy(dir, path, n);
            strcpy(dir + n, "/gnuplot");
            if (access(dir, X_OK) == 0)
                return true;
        }
        path += n + (path[n] == ':');
    }
    return false;
}

/* Writes s as a gnuplot single-quoted string (a quote is doubled). */
static void quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

/* Writes a panel's titles: a "set title" line, then a "set xlabel" and a "set ylabel" line,
 * each string single-quoted (quoted); a NULL label is left out. No newline after the last:
 * the caller goes on with its own "\n...". */
static void titles(FILE *f, const char *title, const char *xlabel, const char *ylabel)
{
    fputs("set title ", f);
    quoted(f, title);
    if (xlabel) {
        fputs("\nset xlabel ", f);
        quoted(f, xlabel);
    }
    if (ylabel) {
        fputs("\nset ylabel ", f);
        quoted(f, ylabel);
    }
}

/* Writes s as a double-quoted field of an inline data block (quotes become apostrophes). */
static void datum(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        fputc(*s == '"' || *s == '\n' ? '\'' : *s, f);
    fputc('"', f);
}

/* Writes s as datum does, broken into lines of about `width` characters at its spaces (a tic
 * label under a bar: long labels never run into the next bar or the next panel). */
static void datum_wrapped(FILE *f, const char *s, size_t width)
{
    fputc('"', f);
    size_t line = 0;
    for (const char *p = s; *p; p++) {
        if (*p == ' ' && line > 0) {
            size_t next = strcspn(p + 1, " ");
            if (line + 1 + next > width) {
                fputs("\\n", f);
                line = 0;
                continue;
            }
        }
        fputc(*p == '"' || *p == '\n' ? '\'' : *p, f);
        line++;
    }
    fputc('"', f);
}

/* A panel of bars with their 95% intervals, in percent: rows of (label, share estimate). */
typedef struct bars {
    int n;
    const char *label[64];
    char text[64][256];
    const cJSON *e[64];
} bars;

static void bars_add(bars *b, const char *label, const char *bot, const cJSON *e)
{
    if (b->n >= 64 || !cJSON_IsNumber(get(e, "value")))
        return;
    if (bot)
        snprintf(b->text[b->n], sizeof b->text[b->n], "%s (%s)", label, bot);
    else
        snprintf(b->text[b->n], sizeof b->text[b->n], "%s", label);
    b->label[b->n] = b->text[b->n];
    b->e[b->n++] = e;
}

/* A panel of the bars of b with their intervals, each figure times scale (100: shares in
 * percent); from_zero: the y axis starts at 0. */
static void bars_plot_range(FILE *f, const bars *b, int id, const char *title, const char *ylabel,
                            const char *yrange, double scale)
{
    fprintf(f, "$bars%d << EOD\n", id);
    for (int i = 0; i < b->n; i++) {
        const cJSON *ci = get(b->e[i], "ci95");
        double v = scale * report_num(b->e[i], "value");
        bool has = cJSON_GetArraySize(ci) == 2 && cJSON_IsNumber(cJSON_GetArrayItem(ci, 0));
        double lo = has ? scale * cJSON_GetArrayItem(ci, 0)->valuedouble : v;
        double hi = has ? scale * cJSON_GetArrayItem(ci, 1)->valuedouble : v;
        datum_wrapped(f, b->label[i], b->n > 4 ? 16 : 28);
        fprintf(f, " %.17g %.17g %.17g\n", v, lo, hi);
    }
    fputs("EOD\n", f);
    titles(f, title, NULL, ylabel);
    fprintf(f, "\nunset xlabel\nset xrange [-0.6:%d.6]\nset yrange %s\nset boxwidth 0.6\n"
               "plot $bars%d using 0:2:xtic(1) with boxes title 'estimate', "
               "'' using 0:2:3:4 with yerrorbars pointtype 0 linecolor 'black' title '95%% CI'\n"
               "set xrange [*:*]\n",
            b->n - 1, yrange, id);
}

/* bars_plot_range with the y axis from 0 (from_zero) or fitted to the bars. */
static void bars_plot_scaled(FILE *f, const bars *b, int id, const char *title, const char *ylabel,
                             bool from_zero, double scale)
{
    bars_plot_range(f, b, id, title, ylabel, from_zero ? "[0:*]" : "[*:*]", scale);
}

/* bars_plot_scaled in percent. */
static void bars_plot(FILE *f, const bars *b, int id, const char *title, const char *ylabel,
                      bool from_zero)
{
    bars_plot_scaled(f, b, id, title, ylabel, from_zero, 100);
}

/* A histogram panel: one series per (name, estimate with a "histogram"), as shares of the
 * observations. */
static void hist_plot(FILE *f, int n, const char *const *name, const cJSON *const *e, int id,
                      const char *title, const char *xlabel)
{
    for (int s = 0; s < n; s++) {
        const cJSON *h = get(e[s], "histogram");
        double w = report_num(h, "width"), total = report_num(e[s], "n");
        fprintf(f, "$hist%d_%d << EOD\n", id, s);
        const cJSON *from = get(h, "from"), *count = get(h, "count");
        for (int i = 0; i < cJSON_GetArraySize(from); i++)
            fprintf(f, "%.17g %.17g\n",
                    cJSON_GetArrayItem(from, i)->valuedouble + (w > 1 ? (w - 1) / 2 : 0),
                    100 * cJSON_GetArrayItem(count, i)->valuedouble / total);
        fputs("EOD\n", f);
    }
    titles(f, title, xlabel, "% of observations");
    fputs("\nset yrange [0:*]\n", f);
    double w = report_num(get(e[0], "histogram"), "width");
    fprintf(f, "set boxwidth %.17g\nplot ", w * 0.9);
    for (int s = 0; s < n; s++) {
        fprintf(f, "%s$hist%d_%d using 1:2 with boxes title ", s ? ", " : "", id, s);
        quoted(f, name[s]);
    }
    fputc('\n', f);
}

/* A distribution's panel (report.c's "distributions"): one bar per bin or category, its share
 * of the observations in percent, the head of each bin's label under its bar. */
static void dist_plot(FILE *f, const cJSON *d, int id)
{
    const cJSON *bins = get(d, "bins"), *b;
    fprintf(f, "$dist%d << EOD\n", id);
    cJSON_ArrayForEach(b, bins)
    {
        /* under a bar, a label's head: up to a colon or a parenthesis ("28 Inheritance") */
        char tic[128];
        const char *label = report_str(b, "label");
        size_t len = strcspn(label, ":(");
        snprintf(tic, sizeof tic, "%.*s", (int)len, label);
        while (len > 0 && tic[len - 1] == ' ')
            tic[--len] = '\0';
        datum(f, len > 0 ? tic : label);
        fprintf(f, " %.17g %.17g\n", 100 * report_num(b, "share"), report_num(b, "count"));
    }
    char title[512], ylabel[512];
    snprintf(title, sizeof title, "%s (%.0f %s)", report_str(d, "title"), report_num(d, "n"),
             report_str(d, "counts"));
    snprintf(ylabel, sizeof ylabel, "%% of %s", report_str(d, "counts"));
    fputs("EOD\n", f);
    titles(f, title, report_str(d, "value"), ylabel);
    int n = cJSON_GetArraySize(bins);
    fprintf(f, "\nset xrange [-0.6:%d.6]\nset yrange [0:*]\nset boxwidth 0.8\n"
               "set xtics rotate by %d\n"
               "plot $dist%d using 0:2:xtic(1) with boxes title 'share'\n"
               "set xtics norotate\nset xrange [*:*]\n",
            n > 0 ? n - 1 : 0, cJSON_IsTrue(get(d, "table")) ? -30 : 0, id);
}

/* Writes s as a gnuplot double-quoted string, each newline as \n. */
static void dquoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '\n')
            fputs("\\n", f);
        else if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

/* Appends text to buf (at *len, room n), breaking the line before it when the current line
 * would pass `width` characters; sep goes between two pieces on one line. */
static void wrap_add(char *buf, size_t n, size_t *len, const char *sep, const char *text,
                     size_t width)
{
    const char *nl = *len ? strrchr(buf, '\n') : NULL;
    size_t line = nl ? *len - (size_t)(nl + 1 - buf) : *len;
    bool first = *len == 0 || buf[*len - 1] == '\n';
    if (!first && line + strlen(sep) + strlen(text) > width) {
        if (*len + 1 < n)
            buf[(*len)++] = '\n';
        buf[*len] = '\0';
        first = true;
    }
    int k = snprintf(buf + *len, n > *len ? n - *len : 0, "%s%s", first ? "" : sep, text);
    if (k > 0)
        *len = *len + (size_t)k < n ? *len + (size_t)k : n - 1;
}

/* The title broken into lines of at most `width` characters at its commas and dashes. */
static void wrap_title(const char *title, char *buf, size_t n, size_t width)
{
    size_t len = 0;
    buf[0] = '\0';
    char piece[1024];
    const char *p = title, *sep = "";
    while (*p) {
        const char *comma = strstr(p, ", "), *dash = strstr(p, " — ");
        const char *cut = comma && (!dash || comma < dash) ? comma : dash;
        size_t k = cut ? (size_t)(cut - p) : strlen(p);
        snprintf(piece, sizeof piece, "%.*s", (int)k, p);
        wrap_add(buf, n, &len, sep, piece, width);
        if (!cut)
            break;
        sep = cut == comma ? ", " : " — ";
        p = cut + strlen(sep);
    }
}

/* The chart's provenance, as lines of at most about w characters under its title: the tool,
 * version and date; the seed, the games and the ruleset; the bots; the command line. Returns
 * the number of lines. */
static int caption(const cJSON *r, char *buf, size_t n, size_t w)
{
    const cJSON *run = get(r, "run"), *x;
    size_t len = 0;
    char piece[2048];
    buf[0] = '\0';
    snprintf(piece, sizeof piece, "%s %s%s%s", report_str(r, "tool"), report_str(r, "version"),
             *report_str(run, "date") ? ", " : "", report_str(run, "date"));
    wrap_add(buf, n, &len, "", piece, w);
    snprintf(piece, sizeof piece, "seed %s", report_str(r, "seed"));
    wrap_add(buf, n, &len, " · ", piece, w);
    const cJSON *settings = get(r, "settings"), *seats = get(r, "seats");
    if (cJSON_IsArray(settings)) {
        double g = 0;
        cJSON_ArrayForEach(x, settings)
        {
            double rot = report_num(get(x, "report"), "rotations");
            g += report_num(x, "games") * (isnan(rot) ? 1 : rot);
        }
        snprintf(piece, sizeof piece, "%d settings, %.0f games", cJSON_GetArraySize(settings), g);
    } else if (*report_str(r, "mode") || get(r, "sensitivity")) {
        double g = report_num(r, "games");
        if (isnan(g))
            g = report_num(get(r, "sensitivity"), "games");
        snprintf(piece, sizeof piece, "%.0f games%s", g, get(r, "sensitivity") ? " per setting" : "");
    } else if (get(r, "rotations")) {
        snprintf(piece, sizeof piece, "%.0f deals x %.0f rotations = %.0f games",
                 report_num(r, "runs"), report_num(r, "rotations"), report_num(r, "plays"));
    } else {
        snprintf(piece, sizeof piece, "%.0f games", report_num(r, "runs"));
    }
    wrap_add(buf, n, &len, " · ", piece, w);
    const cJSON *ch = get(r, "ruleset_changes");
    if (cJSON_GetArraySize(ch) == 0) {
        wrap_add(buf, n, &len, " · ", "default ruleset", w);
    } else {
        bool first = true;
        cJSON_ArrayForEach(x, ch)
        {
            const char *eq = strchr(x->valuestring, '=');
            if (eq && strlen(eq + 1) > 40) /* a whole board is no caption */
                snprintf(piece, sizeof piece, "%s%.*s changed", first ? "ruleset: " : "",
                         (int)(eq - x->valuestring), x->valuestring);
            else
                snprintf(piece, sizeof piece, "%s%s", first ? "ruleset: " : "", x->valuestring);
            wrap_add(buf, n, &len, first ? " · " : ", ", piece, w);
            first = false;
        }
    }
    /* the bots: a run's seats, or the seats an experiment or a search starts from */
    const cJSON *sb = get(r, "seat_bots");
    if (cJSON_IsArray(settings) && !sb)
        seats = get(get(cJSON_GetArrayItem(settings, 0), "report"), "seats");
    bool first = true;
    int k = 1;
    if (cJSON_IsArray(seats) && !sb)
        cJSON_ArrayForEach(x, seats)
        {
            snprintf(piece, sizeof piece, "%sseat %.0f %s", first ? "bots: " : "",
                     report_num(x, "seat"), report_str(x, "bot"));
            wrap_add(buf, n, &len, first ? "\n" : ", ", piece, w);
            first = false;
        }
    cJSON_ArrayForEach(x, sb)
    {
        snprintf(piece, sizeof piece, "%sseat %d %s", first ? "bots: " : "", k++, x->valuestring);
        wrap_add(buf, n, &len, first ? "\n" : ", ", piece, w);
        first = false;
    }
    if (!sb && !cJSON_IsArray(seats))
        cJSON_ArrayForEach(x, get(r, "bots"))
        {
            snprintf(piece, sizeof piece, "%s%s", first ? "bots: " : "",
                     cJSON_IsString(x) ? x->valuestring : report_str(x, "bot"));
            wrap_add(buf, n, &len, first ? "\n" : ", ", piece, w);
            first = false;
        }
    first = true;
    cJSON_ArrayForEach(x, get(run, "command_line"))
    {
        const char *a = cJSON_IsString(x) ? x->valuestring : "";
        if (first && strrchr(a, '/'))
            a = strrchr(a, '/') + 1;
        snprintf(piece, sizeof piece, "%s%s", first ? "command: " : "", a);
        wrap_add(buf, n, &len, first ? "\n" : " ", piece, w);
        first = false;
    }
    int lines = *buf ? 1 : 0;
    for (const char *p = buf; *p; p++)
        lines += *p == '\n';
    return lines;
}

/* The terminal, output file and multiplot layout of rows x cols panels under `title` with
 * report r's provenance (caption) beneath it; lmargin and bmargin: the left and bottom
 * margins in characters (room for the tic labels of a horizontal chart, a legend below it),
 * 0 for the usual 10 and 5; panel: the height in pixels of a panel's plot area (0: 250). */
static void preamble_grid(FILE *f, plot_format fmt, const char *output, int rows, int cols,
                          const char *title, const cJSON *r, int lmargin, int bmargin, int panel)
{
    char head[4096], cap[4096], all[8192];
    wrap_title(title, head, sizeof head, cols > 1 ? 140 : 100);
    int tl = 1;
    for (const char *p = head; *p; p++)
        tl += *p == '\n';
    int cl = caption(r, cap, sizeof cap, cols > 1 ? 170 : 125);
    snprintf(all, sizeof all, "%s%s%s", head, cl ? "\n" : "", cap);
    /* panel areas of 250 px, 9 lines between two rows for the tics, the x label and the next
     * title; the heading's lines on top */
    int width = cols > 1 ? 1200 : 900, top = tl + cl + 4, gap = 9;
    bmargin = bmargin > 0 ? bmargin : 5;
    panel = panel > 0 ? panel : 250;
    int height = 16 * (top + bmargin) + rows * panel + (rows - 1) * 16 * gap;
    if (fmt == PLOT_SVG)
        fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'Sans,11' "
                   "background '#ffffff'\n", width, height);
    else if (fmt == PLOT_PNG)
        fprintf(f, "set terminal pngcairo size %d,%d noenhanced font 'Sans,10'\n", width, height);
    else
        fprintf(f, "set terminal pdfcairo size %.2fin,%.2fin noenhanced font 'Sans,10'\n",
                width / 100.0, height / 100.0);
    fputs("set output ", f);
    quoted(f, output);
    fputs("\nset encoding utf8\nset style fill transparent solid 0.5 border -1\n"
          "set grid ytics\nset key top right\n"
          "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n", f);
    fprintf(f, "set multiplot layout %d,%d title ", rows, cols);
    dquoted(f, all);
    fprintf(f, " font ',10' margins char %d, char 3, char %d, char %d spacing char %d, char %d\n",
            lmargin > 0 ? lmargin : 10, bmargin, top, cols > 1 ? 14 : 0, gap);
}

/* The terminal and layout of `panels` panels one above the other (preamble_grid). */
static void preamble(FILE *f, plot_format fmt, const char *output, int panels, const char *title,
                     const cJSON *r)
{
    preamble_grid(f, fmt, output, panels, 1, title, r, 0, 0, 0);
}

/* The estimates of metric `name` to draw: the game's, or one per bot for a seat metric. */
static int estimates_of(const cJSON *r, const char *name, const char **bot, const cJSON **e)
{
    const cJSON *g = get(get(r, "metrics"), name);
    if (g) {
        bot[0] = NULL;
        e[0] = g;
        return 1;
    }
    int n = 0;
    const cJSON *b, *bots = get(r, "bots");
    cJSON_ArrayForEach(b, bots)
    {
        const cJSON *x = get(get(b, "metrics"), name);
        if (x && n < MAX_SERIES) {
            bot[n] = cJSON_GetArraySize(bots) > 1 ? report_str(b, "bot") : NULL;
            e[n++] = x;
        }
    }
    return n;
}

static int run_script(FILE *f, const cJSON *r, plot_format fmt, const char *output)
{
    const cJSON *layout = get(r, "layout"), *labels = get(layout, "labels");
    const cJSON *head = get(layout, "headline"), *n;
    /* Count the panels first: the page height follows. */
    bars shares = {0};
    int hists = 0;
    cJSON_ArrayForEach(n, head)
    {
        const char *bot[MAX_SERIES];
        const cJSON *e[MAX_SERIES];
        int k = estimates_of(r, n->valuestring, bot, e);
        const char *label = report_str(get(labels, n->valuestring), "label");
        bool hist = false;
        for (int i = 0; i < k; i++) {
            if (get(e[i], "hits"))
                bars_add(&shares, *label ? label : n->valuestring, bot[i], e[i]);
            hist = hist || get(e[i], "histogram");
        }
        hists += hist;
    }
    /* shares near 100% (the Oca's auction) would crush shares of a few percent on one
     * scale: those above 20% get a panel of their own */
    bars small = {0}, large = {0};
    for (int i = 0; i < shares.n; i++) {
        bars *to = report_num(shares.e[i], "value") > 0.2 ? &large : &small;
        bars_add(to, shares.label[i], NULL, shares.e[i]);
    }
    bool has_length = get(get(get(r, "metrics"), "length"), "histogram") != NULL;
    int dists = 0;
    cJSON_ArrayForEach(n, get(r, "distributions"))
        dists += cJSON_GetArraySize(get(n, "bins")) > 0;
    int tables = 0;
    cJSON_ArrayForEach(n, get(r, "tables"))
    {
        const cJSON *row;
        bool any = false;
        cJSON_ArrayForEach(row, get(n, "rows"))
            any = any || report_num(get(row, "estimate"), "n") > 0;
        tables += any;
    }
    const cJSON *types = get(r, "types");
    int ntypes = cJSON_GetArraySize(types);
    int type_panels = ntypes > 0 ? 1 + cJSON_GetArraySize(get(types->child, "shares")) : 0;
    bars roles = {0}; /* the game's roles: who holds each wins (alone or tied) */
    cJSON_ArrayForEach(n, get(r, "roles"))
        bars_add(&roles, report_str(n, "role"), NULL, get(n, "win_share"));
    int panels = 1 + has_length + (small.n > 0) + (large.n > 0) + hists + dists + tables +
                 type_panels + (roles.n > 0);

    char title[1024];
    report_summary_title(r, true, title, sizeof title);
    preamble(f, fmt, output, panels, title, r);

    bars wins = {0};
    const cJSON *s;
    cJSON_ArrayForEach(s, get(r, "seats"))
    {
        char label[300];
        snprintf(label, sizeof label, "seat %.0f: %s", report_num(s, "seat"), report_str(s, "bot"));
        bars_add(&wins, label, NULL, get(s, "win_share"));
    }
    bars_plot(f, &wins, 0, "Win share per seat", "win share (%)", true);
    if (roles.n > 0)
        bars_plot(f, &roles, 9, "Win share by role (alone or tied)", "win share (%)", true);
    if (has_length) {
        const char *name[1] = {"games"};
        const cJSON *e[1] = {get(get(r, "metrics"), "length")};
        hist_plot(f, 1, name, e, 0, "Game length", report_str(r, "length_unit"));
    }
    if (small.n > 0)
        bars_plot(f, &small, 1, large.n ? "Headline shares (those up to 20%)" : "Headline shares",
                  "share (%)", true);
    if (large.n > 0)
        bars_plot(f, &large, 2, small.n ? "Headline shares (those above 20%)" : "Headline shares",
                  "share (%)", true);
    int id = 1;
    cJSON_ArrayForEach(n, head)
    {
        const char *bot[MAX_SERIES], *name[MAX_SERIES];
        const cJSON *e[MAX_SERIES], *he[MAX_SERIES];
        int k = estimates_of(r, n->valuestring, bot, e), m = 0;
        for (int i = 0; i < k; i++)
            if (get(e[i], "histogram")) {
                name[m] = bot[i] ? bot[i] : "games";
                he[m++] = e[i];
            }
        if (m == 0)
            continue;
        const cJSON *lab = get(labels, n->valuestring);
        const char *label = *report_str(lab, "label") ? report_str(lab, "label") : n->valuestring;
        char xlabel[300];
        snprintf(xlabel, sizeof xlabel, "%s%s%s%s", label, cJSON_IsString(get(lab, "unit")) ? " (" : "",
                 report_str(lab, "unit"), cJSON_IsString(get(lab, "unit")) ? ")" : "");
        hist_plot(f, m, name, he, id++, label, xlabel);
    }
    id = 0;
    cJSON_ArrayForEach(n, get(r, "distributions"))
        if (cJSON_GetArraySize(get(n, "bins")) > 0)
            dist_plot(f, n, id++);
    /* figures by type of player: win share, and each share of successes the game divides */
    id = 10;
    if (ntypes > 0) {
        bars tw = {0};
        const cJSON *t;
        cJSON_ArrayForEach(t, types)
            bars_add(&tw, report_str(t, "type"), NULL, get(t, "win_share"));
        bars_plot(f, &tw, id++, "Win share by type of player", "win share (%)", true);
        const cJSON *m;
        cJSON_ArrayForEach(m, get(types->child, "shares"))
        {
            bars b = {0};
            cJSON_ArrayForEach(t, types)
                bars_add(&b, report_str(t, "type"), NULL, get(get(t, "shares"), m->string));
            const char *label = report_str(get(labels, m->string), "label");
            char ptitle[400];
            snprintf(ptitle, sizeof ptitle, "Share of all by type: %s", *label ? label : m->string);
            bars_plot(f, &b, id++, ptitle, "share (%)", true);
        }
    }
    /* tables of figures: a bar per row with observations, in the figure's own unit */
    cJSON_ArrayForEach(n, get(r, "tables"))
    {
        bars b = {0};
        const cJSON *row;
        cJSON_ArrayForEach(row, get(n, "rows"))
            if (report_num(get(row, "estimate"), "n") > 0)
                bars_add(&b, report_str(row, "label"), NULL, get(row, "estimate"));
        if (b.n == 0)
            continue;
        char ylabel[200];
        snprintf(ylabel, sizeof ylabel, "mean (by %s)", report_str(n, "row_head"));
        bars_plot_scaled(f, &b, id++, report_str(n, "title"), ylabel, false, 1);
    }
    fputs("unset multiplot\nset output\n", f);
    return panels;
}

/* ---- experiments (the JSON of --sweep, --sensitivity and --rotate-seats) ------------------- */

/* "PIG 10 — sweep limit=30:50:10, 200 games per setting, seed 1, --set a=1". */
static void experiment_title(const cJSON *r, const char *what, char *buf, size_t n)
{
    int len = snprintf(buf, n, "%s — %s", report_str(r, "title"), what);
    const cJSON *x;
    cJSON_ArrayForEach(x, get(r, "sweeps"))
        if (cJSON_IsString(x) && len >= 0 && (size_t)len < n)
            len += snprintf(buf + len, n - (size_t)len, " %s", x->valuestring);
    if (len >= 0 && (size_t)len < n)
        len += snprintf(buf + len, n - (size_t)len, ", %.0f games%s, seed %s", report_num(r, "runs"),
                        get(r, "rotations") ? " (deals)" : " per setting", report_str(r, "seed"));
    cJSON_ArrayForEach(x, get(r, "sets"))
        if (cJSON_IsString(x) && len >= 0 && (size_t)len < n)
            len += snprintf(buf + len, n - (size_t)len, ", %s", x->valuestring);
}

/* The lo and hi of an estimate's interval times scale, or v when it has none. */
static void ci_of(const cJSON *e, double scale, double v, double *lo, double *hi)
{
    const cJSON *ci = get(e, "ci95");
    bool has = cJSON_GetArraySize(ci) == 2 && cJSON_IsNumber(cJSON_GetArrayItem(ci, 0));
    *lo = has ? scale * cJSON_GetArrayItem(ci, 0)->valuedouble : v;
    *hi = has ? scale * cJSON_GetArrayItem(ci, 1)->valuedouble : v;
}

/* A sweep: one row of two panels per figure of --metric (the report's "metric"): on the left
 * each setting's own value against the first swept key with its interval band, one line per
 * value of the other keys; on the right its paired difference from the baseline with its
 * interval, zero marked. Shares in percent, their differences in points. */
static int sweep_script(FILE *f, const cJSON *r, plot_format fmt, const char *output)
{
    const cJSON *settings = get(r, "settings");
    const cJSON *first = cJSON_GetArrayItem(settings, 0);
    const cJSON *xkey = get(first, "values") ? get(first, "values")->child : NULL;
    const cJSON *figs = get(r, "metric");
    int nn = cJSON_GetArraySize(figs);
    if (xkey == NULL || nn == 0)
        return 0;
    /* The series: distinct values of the keys after the first, in order of appearance. */
    char series[MAX_SERIES][256];
    int ns = 0, of[1024];
    int i = 0;
    const cJSON *st;
    cJSON_ArrayForEach(st, settings)
    {
        char label[256] = "";
        size_t len = 0;
        for (const cJSON *v = get(st, "values")->child->next; v && len < sizeof label; v = v->next) {
            char *t = cJSON_PrintUnformatted(v);
            len += (size_t)snprintf(label + len, sizeof label - len, "%s%s=%s", len ? ", " : "",
                                    v->string, t);
            cJSON_free(t);
        }
        int k = 0;
        while (k < ns && strcmp(series[k], label) != 0)
            k++;
        if (k == ns && ns < MAX_SERIES)
            snprintf(series[ns++], sizeof series[0], "%s", label);
        if (i < 1024)
            of[i++] = k < ns ? k : -1;
    }
    /* A first key of words (an enum such as grand_slam) is drawn at 0, 1, 2 ... with the words
     * as tic labels, in the order the settings first show them. */
    const cJSON *cats[1024];
    int ncat = 0;
    bool words = !cJSON_IsNumber(get(get(first, "values"), xkey->string));
    cJSON_ArrayForEach(st, settings)
    {
        const cJSON *x = get(get(st, "values"), xkey->string);
        int c = 0;
        while (c < ncat && !cJSON_Compare(cats[c], x, true))
            c++;
        if (c == ncat && ncat < 1024)
            cats[ncat++] = x;
    }
    char title[1024];
    experiment_title(r, "sweep", title, sizeof title);
    preamble_grid(f, fmt, output, nn, 2, title, r, 0, 0, 0);
    fputs("unset xtics\nset xtics\n", f);
    if (words) {
        fputs("set xtics (", f);
        for (int c = 0; c < ncat; c++) {
            char *t = cJSON_IsString(cats[c]) ? NULL : cJSON_PrintUnformatted(cats[c]);
            fputs(c ? ", " : "", f);
            quoted(f, t ? t : cats[c]->valuestring);
            fprintf(f, " %d", c);
            cJSON_free(t);
        }
        fprintf(f, ")\nset xrange [-0.5:%g]\n", ncat - 0.5);
    }
    const char *game = report_str(r, "game");
    for (int m = 0; m < nn; m++) {
        bool share = false;
        cJSON_ArrayForEach(st, settings)
            share = share || cJSON_IsTrue(get(cJSON_GetArrayItem(get(st, "figures"), m), "share"));
        double scale = share ? 100 : 1;
        for (int k = 0; k < ns; k++) {
            fprintf(f, "$sweep%d_%d << EOD\n", m, k);
            int j = 0;
            cJSON_ArrayForEach(st, settings)
            {
                const cJSON *x = get(get(st, "values"), xkey->string);
                const cJSON *fig = cJSON_GetArrayItem(get(st, "figures"), m);
                const cJSON *e = get(fig, "estimate"), *d = get(fig, "difference");
                double xv = NAN;
                if (cJSON_IsNumber(x))
                    xv = x->valuedouble;
                for (int c = 0; words && c < ncat; c++)
                    if (cJSON_Compare(cats[c], x, true))
                        xv = c;
                if (j < 1024 && of[j] == k && !isnan(xv) && cJSON_IsNumber(get(e, "value"))) {
                    double v = scale * report_num(e, "value"), lo, hi;
                    ci_of(e, scale, v, &lo, &hi);
                    /* the difference: 0 [0, 0] for the baseline, NaN where there is none */
                    double dv = cJSON_IsTrue(get(st, "baseline")) ? 0 : NAN, dlo = dv, dhi = dv;
                    if (cJSON_IsObject(d)) {
                        dv = scale * report_num(d, "value");
                        ci_of(d, scale, dv, &dlo, &dhi);
                    }
                    fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", xv, v, lo, hi, dv,
                            dlo, dhi);
                }
                j++;
            }
            fputs("EOD\n", f);
        }
        char label[256], unit[64], yl[320];
        report_figure_label(game, cJSON_GetArrayItem(figs, m)->valuestring, label, sizeof label,
                            unit, sizeof unit);
        /* one series: no legend (the titles say what is drawn); several: a legend of the
         * values of the other keys */
        char vt[320];
        snprintf(vt, sizeof vt, "%s%s", label, ns == 1 ? " (95% band)" : "");
        snprintf(yl, sizeof yl, "%s", share ? "%" : unit);
        titles(f, vt, xkey->string, yl);
        fputs(ns == 1 ? "\nunset key" : "\nset key top left", f);
        fputs("\nset yrange [*:*]\nplot ", f);
        for (int k = 0; k < ns; k++) {
            fprintf(f, "%s$sweep%d_%d using 1:3:4 with filledcurves fillstyle transparent solid "
                       "0.2 noborder linecolor %d notitle, $sweep%d_%d using 1:2 with linespoints "
                       "linecolor %d title ",
                    k ? ", " : "", m, k, k + 1, m, k, k + 1);
            quoted(f, *series[k] ? series[k] : "value (95% band)");
        }
        fputc('\n', f);
        snprintf(yl, sizeof yl, "%s", share ? "difference (percentage points)" : *unit ? unit : "difference");
        char dt[320];
        snprintf(dt, sizeof dt, "%s\n(paired difference from the baseline%s)", label,
                 ns == 1 ? ", 95% CI; dashed: zero" : "");
        fputs("set title ", f);
        dquoted(f, dt);
        fputs("\nset ylabel ", f);
        quoted(f, yl);
        fputs("\nplot 0 with lines linecolor 'black' dashtype 2 title 'no difference'", f);
        for (int k = 0; k < ns; k++) {
            fprintf(f, ", $sweep%d_%d using ($1+%g):5:6:7 with yerrorlines linecolor %d title ", m,
                    k, ns > 1 ? (k - (ns - 1) / 2.0) * 0.02 * (words ? 1 : 0) : 0, k + 1);
            char t[300];
            snprintf(t, sizeof t, "%.255s%s", series[k], *series[k] ? ", 95% CI" : "difference (95% CI)");
            quoted(f, t);
        }
        fputc('\n', f);
    }
    fputs("set key top right\nunset multiplot\nset output\n", f);
    return 2 * nn;
}

/* A sensitivity: the tornado chart, one row per key (largest effect on top), a bar for the
 * difference when the key moves down and one when it moves up, each with its paired 95%
 * interval, in the figure's unit (points for a share); the legend under the chart. */
static int tornado_script(FILE *f, const cJSON *r, plot_format fmt, const char *output)
{
    const cJSON *sens = get(r, "sensitivity"), *k;
    bool share = cJSON_IsTrue(get(sens, "share"));
    double scale = share ? 100 : 1;
    char title[1024], label[256], unit[64];
    report_figure_label(report_str(r, "game"), report_str(sens, "metric"), label, sizeof label,
                        unit, sizeof unit);
    experiment_title(r, "sensitivity", title, sizeof title);
    const cJSON *keys = get(sens, "keys");
    int width = 6;
    cJSON_ArrayForEach(k, keys)
        if ((int)strlen(report_str(k, "key")) + 2 > width)
            width = (int)strlen(report_str(k, "key")) + 2;
    preamble_grid(f, fmt, output, 1, 1, title, r, width < 40 ? width : 40, 8,
                  40 + 22 * cJSON_GetArraySize(keys));
    fputs("$tornado << EOD\n", f);
    int rows = 0;
    for (int i = cJSON_GetArraySize(keys) - 1; i >= 0; i--) { /* the largest effect on top */
        k = cJSON_GetArrayItem(keys, i);
        double d[2][3];
        for (int side = 0; side < 2; side++) {
            const cJSON *dif = get(get(k, side ? "up" : "down"), "difference");
            double v = scale * report_num(dif, "value");
            d[side][0] = isnan(v) ? 0 : v;
            ci_of(dif, scale, d[side][0], &d[side][1], &d[side][2]);
        }
        datum(f, report_str(k, "key"));
        fprintf(f, " %.17g %.17g %.17g %.17g %.17g %.17g\n", d[0][0], d[0][1], d[0][2], d[1][0],
                d[1][1], d[1][2]);
        rows++;
    }
    char t[512], xl[512];
    snprintf(t, sizeof t, "Effect on %s of each key moved down and up (paired 95%% CI)", label);
    snprintf(xl, sizeof xl, "difference from the default ruleset (%s)",
             share ? "percentage points" : *unit ? unit : report_str(sens, "metric"));
    fputs("EOD\n", f);
    titles(f, t, xl, NULL);
    fprintf(f, "\nunset ylabel\nset yrange [-0.6:%d.6]\nset grid xtics\n"
               "set key below horizontal\n"
               "set arrow 1 from 0, graph 0 to 0, graph 1 nohead linecolor 'black'\n"
               "plot $tornado using (0):0:((($2)<0)?($2):0):((($2)>0)?($2):0):($0-0.38):($0):ytic(1) "
               "with boxxyerror title 'key down', "
               "'' using (0):0:((($5)<0)?($5):0):((($5)>0)?($5):0):($0):($0+0.38) with boxxyerror "
               "title 'key up', "
               "'' using 2:($0-0.19):3:4 with xerrorbars pointtype 0 linecolor 'black' notitle, "
               "'' using 5:($0+0.19):6:7 with xerrorbars pointtype 0 linecolor 'black' notitle\n"
               "unset arrow 1\nset key top right\n",
            rows > 0 ? rows - 1 : 0);
    fputs("unset multiplot\nset output\n", f);
    return 1;
}

/* ---- searches (the JSON of --target, --tune and --tournament) ------------------------------- */

/* A goal seek: every point evaluated with its interval against the key, the target as a
 * line, each crossing's interval shaded and its estimate marked. */
static int seek_script(FILE *f, const cJSON *r, plot_format fmt, const char *output)
{
    bool share = cJSON_IsTrue(get(r, "share"));
    double scale = share ? 100 : 1;
    char label[256], unit[64], title[1024], t[512], tv[64];
    report_figure_label(report_str(r, "game"), report_str(r, "figure"), label, sizeof label,
                        unit, sizeof unit);
    numfmt_figure(tv, sizeof tv, report_num(r, "target"), share, false);
    snprintf(title, sizeof title, "%s — goal seek: %s = %s over %s", report_str(r, "title"), label,
             tv, report_str(r, "key"));
    preamble(f, fmt, output, 1, title, r);
    fputs("$seek << EOD\n", f);
    const cJSON *p, *c;
    cJSON_ArrayForEach(p, get(r, "points"))
    {
        const cJSON *e = get(p, "figure");
        double v = scale * report_num(e, "value"), lo, hi;
        ci_of(e, scale, v, &lo, &hi);
        fprintf(f, "%.17g %.17g %.17g %.17g %d\n", report_num(p, "value"), v, lo, hi,
                strcmp(report_str(p, "phase"), "refine") == 0);
    }
    fputs("EOD\n", f);
    int i = 1;
    cJSON_ArrayForEach(c, get(r, "crossings"))
    {
        const cJSON *iv = get(c, "interval");
        const cJSON *lo = cJSON_GetArrayItem(iv, 0), *hi = cJSON_GetArrayItem(iv, 1);
        if (cJSON_IsNumber(lo) && cJSON_IsNumber(hi) && i < 50)
            fprintf(f, "set object %d rect from %.17g, graph 0 to %.17g, graph 1 behind "
                       "fillcolor rgb '#f0c080' fillstyle solid 0.35 noborder\n",
                    i++, lo->valuedouble, hi->valuedouble);
        fprintf(f, "set arrow %d from %.17g, graph 0 to %.17g, graph 1 nohead linecolor rgb "
                   "'#c06000' dashtype 2\n",
                i, report_num(c, "estimate"), report_num(c, "estimate"));
        i++;
    }
    snprintf(t, sizeof t, "%s against %s; crossings shaded (their 95%% interval)", label,
             report_str(r, "key"));
    titles(f, t, report_str(r, "key"), share ? "%" : unit);
    snprintf(t, sizeof t, "target %s", tv);
    double lo = report_num(r, "lo"), hi = report_num(r, "hi"), pad = (hi - lo) * 0.04;
    fprintf(f, "\nset xrange [%.17g:%.17g]\nset key top left\n"
               "plot %.17g with lines linecolor 'black' dashtype 2 title ",
            lo - pad, hi + pad, scale * report_num(r, "target"));
    quoted(f, t);
    fputs(", $seek using 1:($5==0?$2:1/0):3:4 with yerrorbars pointtype 7 linecolor 1 "
          "title 'sweep (95% CI)', $seek using 1:($5==1?$2:1/0):3:4 with yerrorbars pointtype 5 "
          "linecolor 2 title 'refined (95% CI)'\n",
          f);
    fputs("unset object\nunset arrow\nset xrange [*:*]\nunset multiplot\nset output\n", f);
    return 1;
}

/* A tuning: the starting and the best bot on fresh deals, with their intervals. */
static int tune_script(FILE *f, const cJSON *r, plot_format fmt, const char *output)
{
    bool share = cJSON_IsTrue(get(r, "share"));
    char label[256], unit[64], title[1024], t[512];
    report_figure_label(report_str(r, "game"), report_str(r, "figure"), label, sizeof label,
                        unit, sizeof unit);
    snprintf(title, sizeof title, "%s — tuning seat %.0f to %s %s", report_str(r, "title"),
             report_num(r, "seat"), report_str(r, "goal"), label);
    preamble(f, fmt, output, 1, title, r);
    const cJSON *ev = get(r, "evaluation");
    bars b = {0};
    char s0[300], s1[300];
    snprintf(s0, sizeof s0, "start: %s", report_str(r, "start_bot"));
    snprintf(s1, sizeof s1, "best: %s", report_str(r, "best_bot"));
    bars_add(&b, s0, NULL, get(ev, "start"));
    bars_add(&b, s1, NULL, get(ev, "best"));
    char imp[128];
    const cJSON *ie = get(ev, "improvement");
    double iv = report_num(ie, "value"), ilo, ihi;
    ci_of(ie, 1, iv, &ilo, &ihi);
    numfmt_interval(imp, sizeof imp, iv, ilo, ihi, share, true);
    snprintf(t, sizeof t, "%s, start and best bot on %.0f fresh deals: improvement %s%s", label,
             report_num(ev, "deals"), imp, share ? " points" : "");
    bars_plot_scaled(f, &b, 0, t, share ? "%" : unit, share, share ? 100 : 1);
    fputs("unset multiplot\nset output\n", f);
    return 1;
}

/* A tournament: each bot's rating with its interval (highest first); a sequential test: the
 * Elo difference with its interval beside the two hypotheses. */
static int tournament_script(FILE *f, const cJSON *r, plot_format fmt, const char *output)
{
    char title[1024];
    const cJSON *sp = get(r, "sprt"), *x;
    snprintf(title, sizeof title, "%s — %s", report_str(r, "title"),
             sp ? "sequential test of two bots" : "tournament");
    preamble(f, fmt, output, 1, title, r);
    bars b = {0};
    if (sp) {
        char l[600];
        snprintf(l, sizeof l, "%s - %s", cJSON_GetArrayItem(get(r, "bots"), 0)->valuestring,
                 cJSON_GetArrayItem(get(r, "bots"), 1)->valuestring);
        bars_add(&b, l, NULL, get(sp, "elo"));
        fprintf(f, "set arrow 1 from graph 0, first %.17g to graph 1, first %.17g nohead "
                   "dashtype 2 linecolor 'black'\nset arrow 2 from graph 0, first %.17g to graph 1, "
                   "first %.17g nohead dashtype 3 linecolor 'black'\n",
                report_num(sp, "elo0"), report_num(sp, "elo0"), report_num(sp, "elo1"),
                report_num(sp, "elo1"));
        char t[256];
        snprintf(t, sizeof t, "Elo difference (H0: %g, dashed; H1: %g, dotted): %s accepted",
                 report_num(sp, "elo0"), report_num(sp, "elo1"),
                 *report_str(sp, "accepted") ? report_str(sp, "accepted") : "neither");
        /* the axis holds both hypotheses and the interval */
        double v = report_num(get(sp, "elo"), "value"), lo, hi;
        ci_of(get(sp, "elo"), 1, v, &lo, &hi);
        double e0 = report_num(sp, "elo0"), e1 = report_num(sp, "elo1");
        double y0 = fmin(fmin(lo, e0), fmin(e1, 0)), y1 = fmax(fmax(hi, e0), fmax(e1, 0));
        char yr[128];
        snprintf(yr, sizeof yr, "[%.17g:%.17g]", y0 - 0.08 * (y1 - y0), y1 + 0.08 * (y1 - y0));
        bars_plot_range(f, &b, 0, t, "Elo", yr, 1);
        fputs("unset arrow\n", f);
    } else {
        const cJSON *sorted[64];
        int n = 0;
        cJSON_ArrayForEach(x, get(r, "ratings"))
        {
            int i = n < 64 ? n++ : 63;
            while (i > 0 && report_num(get(sorted[i - 1], "elo"), "value") <
                                report_num(get(x, "elo"), "value")) {
                sorted[i] = sorted[i - 1];
                i--;
            }
            sorted[i] = x;
        }
        for (int i = 0; i < n; i++)
            bars_add(&b, report_str(sorted[i], "bot"), NULL, get(sorted[i], "elo"));
        bars_plot_scaled(f, &b, 0, "Rating of each bot (Bradley-Terry, Elo scale, mean 0; 95% CI)",
                         "Elo", false, 1);
    }
    fputs("unset multiplot\nset output\n", f);
    return 1;
}

/* Seat rotation: each bot's win share over every seat, and each seat's advantage (win share
 * minus 1/N), with their intervals. */
static int rotation_script(FILE *f, const cJSON *r, plot_format fmt, const char *output)
{
    bars bots = {0}, seats = {0};
    const cJSON *b;
    cJSON_ArrayForEach(b, get(r, "bots"))
        bars_add(&bots, report_str(b, "bot"), NULL, get(b, "win_share"));
    cJSON_ArrayForEach(b, get(r, "seat_advantage"))
    {
        char label[32];
        snprintf(label, sizeof label, "seat %.0f", report_num(b, "seat"));
        bars_add(&seats, label, NULL, get(b, "advantage"));
    }
    char title[1024];
    experiment_title(r, "seat rotation", title, sizeof title);
    preamble(f, fmt, output, 2, title, r);
    bars_plot(f, &bots, 0, "Win share per bot over every seat", "win share (%)", true);
    bars_plot(f, &seats, 1, "Seat advantage (win share minus 1/N)", "percentage points", false);
    fputs("unset multiplot\nset output\n", f);
    return 2;
}

int plot_script(FILE *f, const cJSON *r, plot_format fmt, const char *output)
{
    const char *mode = report_str(r, "mode");
    if (strcmp(mode, "seek") == 0)
        return seek_script(f, r, fmt, output);
    if (strcmp(mode, "tune") == 0)
        return tune_script(f, r, fmt, output);
    if (strcmp(mode, "tournament") == 0 || strcmp(mode, "sprt") == 0)
        return tournament_script(f, r, fmt, output);
    if (get(r, "settings"))
        return sweep_script(f, r, fmt, output);
    if (get(r, "sensitivity"))
        return tornado_script(f, r, fmt, output);
    if (get(r, "rotations"))
        return rotation_script(f, r, fmt, output);
    return run_script(f, r, fmt, output);
}

char *plot_render(const cJSON *r, plot_format fmt, size_t *len, char *err, size_t errlen)
{
    if (!plot_available()) {
        snprintf(err, errlen, "plots need gnuplot, which is not on the PATH (Debian: "
                              "apt-get install gnuplot-nox)");
        return NULL;
    }
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/giochi-plot-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a temporary file for gnuplot: %s", strerror(errno));
        return NULL;
    }
    close(fd);
    FILE *p = popen("gnuplot 2>/dev/null", "w");
    if (p == NULL) {
        unlink(path);
        snprintf(err, errlen, "cannot run gnuplot: %s", strerror(errno));
        return NULL;
    }
    plot_script(p, r, fmt, path);
    int status = pclose(p);
    char *bytes = NULL;
    FILE *in = NULL;
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(err, errlen, "gnuplot failed (exit status %d) drawing the plot",
                 status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    } else if ((in = fopen(path, "rb")) == NULL) {
        snprintf(err, errlen, "cannot read gnuplot's output: %s", strerror(errno));
    } else {
        size_t cap = 1 << 16, n = 0, got;
        bytes = xmalloc(cap + 1);
        while ((got = fread(bytes + n, 1, cap - n, in)) > 0) {
            n += got;
            if (n == cap) {
                cap *= 2;
                bytes = xrealloc(bytes, cap + 1);
            }
        }
        if (ferror(in) || n == 0) {
            free(bytes);
            bytes = NULL;
            snprintf(err, errlen, "gnuplot wrote no plot");
        } else {
            bytes[n] = '\0';
            *len = n;
        }
        fclose(in);
    }
    unlink(path);
    return bytes;
}
