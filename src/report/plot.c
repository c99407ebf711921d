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

static void bars_plot(FILE *f, const bars *b, int id, const char *title, const char *ylabel,
                      bool from_zero)
{
    fprintf(f, "$bars%d << EOD\n", id);
    for (int i = 0; i < b->n; i++) {
        const cJSON *ci = get(b->e[i], "ci95");
        double v = 100 * report_num(b->e[i], "value");
        double lo = cJSON_GetArraySize(ci) == 2 ? 100 * cJSON_GetArrayItem(ci, 0)->valuedouble : v;
        double hi = cJSON_GetArraySize(ci) == 2 ? 100 * cJSON_GetArrayItem(ci, 1)->valuedouble : v;
        datum(f, b->label[i]);
        fprintf(f, " %.17g %.17g %.17g\n", v, lo, hi);
    }
    fputs("EOD\nset title ", f);
    quoted(f, title);
    fputs("\nset ylabel ", f);
    quoted(f, ylabel);
    fprintf(f, "\nunset xlabel\nset xrange [-0.6:%d.6]\nset yrange [%s:*]\nset boxwidth 0.6\n"
               "set xtics rotate by -20\n"
               "plot $bars%d using 0:2:xtic(1) with boxes title 'share', "
               "'' using 0:2:3:4 with yerrorbars pointtype 0 linecolor 'black' title '95%% CI'\n"
               "set xtics norotate\nset xrange [*:*]\n",
            b->n - 1, from_zero ? "0" : "*", id);
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
    fputs("set title ", f);
    quoted(f, title);
    fputs("\nset xlabel ", f);
    quoted(f, xlabel);
    fputs("\nset ylabel '% of observations'\nset yrange [0:*]\n", f);
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
    char title[512];
    snprintf(title, sizeof title, "%s (%.0f %s)", report_str(d, "title"), report_num(d, "n"),
             report_str(d, "counts"));
    fputs("EOD\nset title ", f);
    quoted(f, title);
    fputs("\nset xlabel ", f);
    quoted(f, report_str(d, "value"));
    fputs("\nset ylabel ", f);
    snprintf(title, sizeof title, "%% of %s", report_str(d, "counts"));
    quoted(f, title);
    int n = cJSON_GetArraySize(bins);
    fprintf(f, "\nset xrange [-0.6:%d.6]\nset yrange [0:*]\nset boxwidth 0.8\n"
               "set xtics rotate by %d\n"
               "plot $dist%d using 0:2:xtic(1) with boxes title 'share'\n"
               "set xtics norotate\nset xrange [*:*]\n",
            n > 0 ? n - 1 : 0, cJSON_IsTrue(get(d, "table")) ? -30 : 0, id);
}

/* The terminal, output file and multiplot layout of `panels` panels under `title`. */
static void preamble(FILE *f, plot_format fmt, const char *output, int panels, const char *title)
{
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
    bool has_length = get(get(get(r, "metrics"), "length"), "histogram") != NULL;
    int dists = 0;
    cJSON_ArrayForEach(n, get(r, "distributions"))
        dists += cJSON_GetArraySize(get(n, "bins")) > 0;
    int panels = 1 + has_length + (shares.n > 0) + hists + dists;

    char title[1024];
    report_summary_title(r, true, title, sizeof title);
    preamble(f, fmt, output, panels, title);

    bars wins = {0};
    const cJSON *s;
    cJSON_ArrayForEach(s, get(r, "seats"))
    {
        char label[300];
        snprintf(label, sizeof label, "seat %.0f: %s", report_num(s, "seat"), report_str(s, "bot"));
        bars_add(&wins, label, NULL, get(s, "win_share"));
    }
    bars_plot(f, &wins, 0, "Win share per seat", "win share (%)", true);
    if (has_length) {
        const char *name[1] = {"games"};
        const cJSON *e[1] = {get(get(r, "metrics"), "length")};
        hist_plot(f, 1, name, e, 0, "Game length", report_str(r, "length_unit"));
    }
    if (shares.n > 0)
        bars_plot(f, &shares, 1, "Headline shares", "share (%)", true);
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

/* The estimate of figure `name` in a setting's report: the game's, or the first bot's. */
static const cJSON *figure(const cJSON *rep, const char *name)
{
    const cJSON *e = get(get(rep, "metrics"), name);
    return e ? e : get(get(cJSON_GetArrayItem(get(rep, "bots"), 0), "metrics"), name);
}

/* A sweep: one panel per figure (the game length, then the headline), the figure against the
 * first swept key with its interval band, one line (and band) per value of the other keys. */
static int sweep_script(FILE *f, const cJSON *r, plot_format fmt, const char *output)
{
    const cJSON *settings = get(r, "settings");
    const cJSON *first = cJSON_GetArrayItem(settings, 0);
    const cJSON *xkey = get(first, "values") ? get(first, "values")->child : NULL;
    if (xkey == NULL)
        return 0;
    const cJSON *rep0 = get(first, "report"), *layout = get(rep0, "layout");
    const char *names[64];
    int nn = 0;
    names[nn++] = "length";
    const cJSON *h;
    cJSON_ArrayForEach(h, get(layout, "headline"))
        if (cJSON_IsString(h) && nn < 64 && figure(rep0, h->valuestring))
            names[nn++] = h->valuestring;
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
    preamble(f, fmt, output, nn, title);
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
    for (int m = 0; m < nn; m++) {
        bool share = get(figure(rep0, names[m]), "hits") != NULL;
        for (int k = 0; k < ns; k++) {
            fprintf(f, "$sweep%d_%d << EOD\n", m, k);
            int j = 0;
            cJSON_ArrayForEach(st, settings)
            {
                const cJSON *x = get(get(st, "values"), xkey->string);
                const cJSON *e = figure(get(st, "report"), names[m]), *ci = get(e, "ci95");
                double xv = NAN;
                if (cJSON_IsNumber(x))
                    xv = x->valuedouble;
                for (int c = 0; words && c < ncat; c++)
                    if (cJSON_Compare(cats[c], x, true))
                        xv = c;
                if (j < 1024 && of[j] == k && !isnan(xv) && cJSON_IsNumber(get(e, "value"))) {
                    double v = report_num(e, "value"), scale = share ? 100 : 1;
                    bool has = cJSON_GetArraySize(ci) == 2;
                    fprintf(f, "%.17g %.17g %.17g %.17g\n", xv, scale * v,
                            scale * (has ? cJSON_GetArrayItem(ci, 0)->valuedouble : v),
                            scale * (has ? cJSON_GetArrayItem(ci, 1)->valuedouble : v));
                }
                j++;
            }
            fputs("EOD\n", f);
        }
        const cJSON *lab = get(get(layout, "labels"), names[m]);
        const char *label = m == 0 ? "game length" : *report_str(lab, "label") ? report_str(lab, "label")
                                                                          : names[m];
        fputs("set title ", f);
        quoted(f, label);
        fputs("\nset xlabel ", f);
        quoted(f, xkey->string);
        fputs("\nset ylabel ", f);
        quoted(f, share ? "%" : m == 0 ? report_str(rep0, "length_unit") : report_str(lab, "unit"));
        fputs("\nset yrange [*:*]\nplot ", f);
        for (int k = 0; k < ns; k++) {
            fprintf(f, "%s$sweep%d_%d using 1:3:4 with filledcurves fillstyle transparent solid "
                       "0.2 noborder linecolor %d notitle, $sweep%d_%d using 1:2 with linespoints "
                       "linecolor %d title ",
                    k ? ", " : "", m, k, k + 1, m, k, k + 1);
            quoted(f, *series[k] ? series[k] : "value (95% band)");
        }
        fputc('\n', f);
    }
    fputs("unset multiplot\nset output\n", f);
    return nn;
}

/* A sensitivity: the tornado chart, one row per key (largest effect on top), a bar for the
 * difference when the key moves down and one when it moves up, each with its paired 95%
 * interval. */
static int tornado_script(FILE *f, const cJSON *r, plot_format fmt, const char *output)
{
    const cJSON *sens = get(r, "sensitivity"), *k;
    char title[1024];
    experiment_title(r, "sensitivity", title, sizeof title);
    preamble(f, fmt, output, 1, title);
    fputs("$tornado << EOD\n", f);
    int rows = 0;
    const cJSON *keys = get(sens, "keys");
    for (int i = cJSON_GetArraySize(keys) - 1; i >= 0; i--) { /* the largest effect on top */
        k = cJSON_GetArrayItem(keys, i);
        double d[2][3];
        for (int side = 0; side < 2; side++) {
            const cJSON *dif = get(get(k, side ? "up" : "down"), "difference"), *ci = get(dif, "ci95");
            double v = report_num(dif, "value");
            d[side][0] = isnan(v) ? 0 : v;
            d[side][1] = cJSON_GetArraySize(ci) == 2 ? cJSON_GetArrayItem(ci, 0)->valuedouble : d[side][0];
            d[side][2] = cJSON_GetArraySize(ci) == 2 ? cJSON_GetArrayItem(ci, 1)->valuedouble : d[side][0];
        }
        datum(f, report_str(k, "key"));
        fprintf(f, " %.17g %.17g %.17g %.17g %.17g %.17g\n", d[0][0], d[0][1], d[0][2], d[1][0],
                d[1][1], d[1][2]);
        rows++;
    }
    fputs("EOD\nset title ", f);
    char t[256];
    snprintf(t, sizeof t, "Effect on %s of each key 10%% down and up (paired 95%% CI)",
             report_str(sens, "metric"));
    quoted(f, t);
    fputs("\nset xlabel ", f);
    snprintf(t, sizeof t, "difference in %s from the default ruleset", report_str(sens, "metric"));
    quoted(f, t);
    fprintf(f, "\nunset ylabel\nset yrange [-0.6:%d.6]\nset grid xtics\n"
               "plot $tornado using (0):0:((($2)<0)?($2):0):((($2)>0)?($2):0):($0-0.38):($0):ytic(1) "
               "with boxxyerror title 'key down', "
               "'' using (0):0:((($5)<0)?($5):0):((($5)>0)?($5):0):($0):($0+0.38) with boxxyerror "
               "title 'key up', "
               "'' using 2:($0-0.19):3:4 with xerrorbars pointtype 0 linecolor 'black' notitle, "
               "'' using 5:($0+0.19):6:7 with xerrorbars pointtype 0 linecolor 'black' notitle\n",
            rows > 0 ? rows - 1 : 0);
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
    preamble(f, fmt, output, 2, title);
    bars_plot(f, &bots, 0, "Win share per bot over every seat", "win share (%)", true);
    bars_plot(f, &seats, 1, "Seat advantage (win share minus 1/N)", "percentage points", false);
    fputs("unset multiplot\nset output\n", f);
    return 2;
}

int plot_script(FILE *f, const cJSON *r, plot_format fmt, const char *output)
{
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
