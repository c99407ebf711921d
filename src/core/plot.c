/* plot.c — draws a report's charts with gnuplot: writes a script with the data inline, runs
 * gnuplot on it through a pipe into a temporary file, and reads the file back. */
#include "plot.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_text.h"
#include "xalloc.h"

enum { MAX_SERIES = 16 }; /* series in one histogram panel (one per bot) */

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static double jnum(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
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

/* Writes s as a double-quoted field of an inline data block (quotes become apostrophes). */
static void datum(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        fputc(*s == '"' || *s == '\n' ? '\'' : *s, f);
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

static void bars_plot(FILE *f, const bars *b, int id, const char *title, const char *ylabel)
{
    fprintf(f, "$bars%d << EOD\n", id);
    for (int i = 0; i < b->n; i++) {
        const cJSON *ci = get(b->e[i], "ci95");
        double v = 100 * jnum(b->e[i], "value");
        double lo = cJSON_GetArraySize(ci) == 2 ? 100 * cJSON_GetArrayItem(ci, 0)->valuedouble : v;
        double hi = cJSON_GetArraySize(ci) == 2 ? 100 * cJSON_GetArrayItem(ci, 1)->valuedouble : v;
        datum(f, b->label[i]);
        fprintf(f, " %.17g %.17g %.17g\n", v, lo, hi);
    }
    fputs("EOD\nset title ", f);
    quoted(f, title);
    fputs("\nset ylabel ", f);
    quoted(f, ylabel);
    fprintf(f, "\nunset xlabel\nset xrange [-0.6:%d.6]\nset yrange [0:*]\nset boxwidth 0.6\n"
               "set xtics rotate by -20\n"
               "plot $bars%d using 0:2:xtic(1) with boxes title 'share', "
               "'' using 0:2:3:4 with yerrorbars pointtype 0 linecolor 'black' title '95%% CI'\n"
               "set xtics norotate\nset xrange [*:*]\n",
            b->n - 1, id);
}

/* A histogram panel: one series per (name, estimate with a "histogram"), as shares of the
 * observations. */
static void hist_plot(FILE *f, int n, const char *const *name, const cJSON *const *e, int id,
                      const char *title, const char *xlabel)
{
    for (int s = 0; s < n; s++) {
        const cJSON *h = get(e[s], "histogram");
        double w = jnum(h, "width"), total = jnum(e[s], "n");
        fprintf(f, "$hist%d_%d << EOD\n", id, s);
        const cJSON *from = get(h, "from"), *count = get(h, "count");
        for (int i = 0; i < cJSON_GetArraySize(from); i++)
            fprintf(f, "%.17g %.17g\n",
                    cJSON_GetArrayItem(from, i)->valuedouble + (w > 1 ? (w - 1) / 2 : 0),
                    100 * cJSON_GetArrayItem(count, i)->valuedouble / total);
        fputs("EOD\n", f);
    }
    fputs("set title ", f);
    quoted(f, title);
    fputs("\nset xlabel ", f);
    quoted(f, xlabel);
    fputs("\nset ylabel '% of observations'\nset yrange [0:*]\n", f);
    double w = jnum(get(e[0], "histogram"), "width");
    fprintf(f, "set boxwidth %.17g\nplot ", w * 0.9);
    for (int s = 0; s < n; s++) {
        fprintf(f, "%s$hist%d_%d using 1:2 with boxes title ", s ? ", " : "", id, s);
        quoted(f, name[s]);
    }
    fputc('\n', f);
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
            bot[n] = cJSON_GetArraySize(bots) > 1 ? jstr(b, "bot") : NULL;
            e[n++] = x;
        }
    }
    return n;
}

int plot_script(FILE *f, const cJSON *r, plot_format fmt, const char *output)
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
        const char *label = jstr(get(labels, n->valuestring), "label");
        bool hist = false;
        for (int i = 0; i < k; i++) {
            if (get(e[i], "hits"))
                bars_add(&shares, *label ? label : n->valuestring, bot[i], e[i]);
            hist = hist || get(e[i], "histogram");
        }
        hists += hist;
    }
    bool has_length = get(get(get(r, "metrics"), "length"), "histogram") != NULL;
    int panels = 1 + has_length + (shares.n > 0) + hists;

    char title[1024];
    report_summary_title(r, true, title, sizeof title);
    if (fmt == PLOT_SVG)
        fprintf(f, "set terminal svg size 900,%d dynamic noenhanced font 'Sans,11' "
                   "background '#ffffff'\n", 40 + 330 * panels);
    else if (fmt == PLOT_PNG)
        fprintf(f, "set terminal pngcairo size 900,%d noenhanced font 'Sans,10'\n",
                40 + 330 * panels);
    else
        fprintf(f, "set terminal pdfcairo size 9in,%.2fin noenhanced font 'Sans,10'\n",
                0.4 + 3.3 * panels);
    fputs("set output ", f);
    quoted(f, output);
    fputs("\nset encoding utf8\nset style fill transparent solid 0.5 border -1\n"
          "set grid ytics\nset key top right\nset bmargin 5\n", f);
    fprintf(f, "set multiplot layout %d,1 title ", panels);
    quoted(f, title);
    fputc('\n', f);

    bars wins = {0};
    const cJSON *s;
    cJSON_ArrayForEach(s, get(r, "seats"))
    {
        char label[300];
        snprintf(label, sizeof label, "seat %.0f: %s", jnum(s, "seat"), jstr(s, "bot"));
        bars_add(&wins, label, NULL, get(s, "win_share"));
    }
    bars_plot(f, &wins, 0, "Win share per seat", "win share (%)");
    if (has_length) {
        const char *name[1] = {"games"};
        const cJSON *e[1] = {get(get(r, "metrics"), "length")};
        hist_plot(f, 1, name, e, 0, "Game length", jstr(r, "length_unit"));
    }
    if (shares.n > 0)
        bars_plot(f, &shares, 1, "Headline shares", "share (%)");
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
        const char *label = *jstr(lab, "label") ? jstr(lab, "label") : n->valuestring;
        char xlabel[300];
        snprintf(xlabel, sizeof xlabel, "%s%s%s%s", label, cJSON_IsString(get(lab, "unit")) ? " (" : "",
                 jstr(lab, "unit"), cJSON_IsString(get(lab, "unit")) ? ")" : "");
        hist_plot(f, m, name, he, id++, label, xlabel);
    }
    fputs("unset multiplot\nset output\n", f);
    return panels;
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
