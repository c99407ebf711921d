/* exp_csv.c — the CSV of an experiment, from its report tree: one leading column per swept key
 * (or the key and value moved by --sensitivity) before the run report's columns, and two rows
 * per paired difference. */
#include "experiment/experiment_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "report/fields.h"
#include "report/report.h"
#include "report/report_csv.h"
#include "core/xalloc.h"

/* A stream into memory (open_memstream); running out of memory ends the run (xalloc.h). */
static FILE *membuf(char **text, size_t *len)
{
    FILE *m = open_memstream(text, len);
    if (m == NULL)
        xalloc_fail("cannot buffer the CSV report");
    return m;
}

/* One row of the report's columns behind prefix (the swept values), its interval from ci
 * (an array [lo, hi], or null: empty cells). */
/* The type of player of the rows being written (a sweep of a run with populations has a
 * last column for it), or NULL: no such column. */
static const char *row_type;

static void csv_row(FILE *f, const char *prefix, const char *game, const char *metric, int seat,
                    const char *bot, double v, const cJSON *ci, double n, const char *stat)
{
    bool has = cJSON_GetArraySize(ci) == 2;
    fputs(prefix, f);
    if (row_type == NULL) {
        report_csv_line(f, game, metric, seat, bot, v,
                        has ? cJSON_GetArrayItem(ci, 0)->valuedouble : NAN,
                        has ? cJSON_GetArrayItem(ci, 1)->valuedouble : NAN, n, stat, NULL);
        return;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *m = membuf(&text, &len);
    report_csv_line(m, game, metric, seat, bot, v,
                    has ? cJSON_GetArrayItem(ci, 0)->valuedouble : NAN,
                    has ? cJSON_GetArrayItem(ci, 1)->valuedouble : NAN, n, stat, NULL);
    fclose(m);
    fwrite(text, 1, len ? len - 1 : 0, f); /* without its newline */
    fputc(',', f);
    report_csv_field(f, row_type);
    fputc('\n', f);
    free(text);
}

/* One estimate's row; stat NULL: "share" for an estimate with hits, else "mean". */
static void csv_estimate(FILE *f, const char *prefix, const char *game, const char *metric,
                         int seat, const char *bot, const cJSON *e, const char *stat)
{
    if (stat == NULL)
        stat = cJSON_GetObjectItemCaseSensitive(e, "hits") ? "share" : "mean";
    csv_row(f, prefix, game, metric, seat, bot, report_num(e, "value"),
            cJSON_GetObjectItemCaseSensitive(e, "ci95"), report_num(e, "n"), stat);
}

/* The CSV rows of a setting's report, each line behind prefix (no header). */
static void csv_report(FILE *f, const char *prefix, const cJSON *r)
{
    const char *game = report_str(r, "game");
    if (cJSON_GetObjectItemCaseSensitive(r, "rotations") == NULL) {
        /* the ordinary report's own CSV, header dropped, each line prefixed */
        char *text = NULL;
        size_t len = 0;
        FILE *mem = membuf(&text, &len);
        report_write(mem, r, REPORT_CSV);
        fclose(mem);
        char *line = strchr(text, '\n');
        for (line = line ? line + 1 : text + len; *line;) {
            char *end = strchr(line, '\n');
            fputs(prefix, f);
            fwrite(line, 1, (size_t)(end - line + 1), f);
            line = end + 1;
        }
        free(text);
        return;
    }
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(r, "bots"))
    {
        for (const cJSON *e = b->child; e; e = e->next)
            if (cJSON_IsObject(e) && strcmp(e->string, "metrics") != 0)
                csv_estimate(f, prefix, game, e->string, 0, report_str(b, "bot"), e, NULL);
        const cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(b, "metrics"))
            csv_estimate(f, prefix, game, m->string, 0, report_str(b, "bot"), m, NULL);
    }
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(r, "seat_advantage"))
    {
        int seat = (int)report_num(s, "seat");
        csv_estimate(f, prefix, game, "win_share", seat, "",
                     cJSON_GetObjectItemCaseSensitive(s, "win_share"), NULL);
        csv_estimate(f, prefix, game, "seat_advantage", seat, "",
                     cJSON_GetObjectItemCaseSensitive(s, "advantage"), NULL);
    }
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(r, "metrics"))
        csv_estimate(f, prefix, game, m->string, 0, "", m, NULL);
}

/* A row per fairness figure (the "fairness" object f), stat "fairness". */
static void csv_fairness(FILE *f, const char *prefix, const char *game, const cJSON *fair)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, fair)
        csv_estimate(f, prefix, game, e->string, 0, "", e, "fairness");
}

/* Two rows per difference: stat diff (paired interval) and diff_unpaired. */
static void csv_differences(FILE *f, const char *prefix, const char *game, const cJSON *diffs)
{
    const cJSON *d;
    cJSON_ArrayForEach(d, diffs)
    {
        const char *name = report_str(d, "metric"), *bot = report_str(d, "bot");
        int seat = (int)(isnan(report_num(d, "seat")) ? 0 : report_num(d, "seat"));
        double v = report_num(d, "value"), n = report_num(d, "n");
        const char *typed = row_type;
        if (typed)
            row_type = report_str(d, "type");
        csv_row(f, prefix, game, name, seat, bot, v,
                cJSON_GetObjectItemCaseSensitive(d, "ci95"), n, "diff");
        csv_row(f, prefix, game, name, seat, bot, v,
                cJSON_GetObjectItemCaseSensitive(d, "ci95_unpaired"), n, "diff_unpaired");
        row_type = typed;
    }
}

void exp_render_csv(const experiment *x, const cJSON *root, FILE *out)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
    setting *set = x->set;
    int nax = x->nax;
    const axis *ax = x->ax;
    if (o->nsweeps == 0 && !o->sensitivity) { /* one setting: its own report */
        if (set[0].nrot == 1) {
            report_write(out, root, REPORT_CSV);
        } else {
            fputs(REPORT_CSV_COLUMNS "\n", out);
            csv_report(out, "", root);
        }
        csv_fairness(out, "", g->name, cJSON_GetObjectItemCaseSensitive(root, "fairness"));
    } else if (o->sensitivity) {
        fputs("key,key_value," REPORT_CSV_COLUMNS "\n", out);
        const cJSON *sens = cJSON_GetObjectItemCaseSensitive(root, "sensitivity");
        const cJSON *def = cJSON_GetObjectItemCaseSensitive(sens, "default");
        csv_estimate(out, ",,", g->name, o->metric, 0, "", def, NULL);
        const cJSON *k;
        cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(sens, "keys"))
        {
            for (int side = 0; side < 2; side++) {
                const cJSON *so = cJSON_GetObjectItemCaseSensitive(k, side ? "up" : "down");
                if (!cJSON_IsObject(so) || cJSON_GetObjectItemCaseSensitive(so, "skipped"))
                    continue;
                char prefix[400], v[64];
                const cJSON *kv = cJSON_GetObjectItemCaseSensitive(so, "key_value");
                if (cJSON_IsNumber(kv))
                    numfmt_double(v, sizeof v, kv->valuedouble);
                else if (cJSON_IsString(kv))
                    snprintf(v, sizeof v, "%s", kv->valuestring);
                else
                    snprintf(v, sizeof v, "%s", cJSON_IsTrue(kv) ? "true" : "false");
                char *kf = NULL, *vf = NULL;
                size_t kl = 0, vl = 0;
                FILE *m = membuf(&kf, &kl);
                report_csv_field(m, report_str(k, "key"));
                fclose(m);
                m = membuf(&vf, &vl);
                report_csv_field(m, v);
                fclose(m);
                snprintf(prefix, sizeof prefix, "%s,%s,", kf, vf);
                free(kf);
                free(vf);
                csv_estimate(out, prefix, g->name, o->metric, 0, "",
                             cJSON_GetObjectItemCaseSensitive(so, "estimate"), NULL);
                csv_estimate(out, prefix, g->name, o->metric, 0, "",
                             cJSON_GetObjectItemCaseSensitive(so, "difference"), "diff");
            }
        }
    } else {
        for (int a = 0; a < nax; a++) {
            report_csv_field(out, ax[a].key);
            fputc(',', out);
        }
        /* with populations every setting's report has a type column: so has every row */
        const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "settings"), 0);
        bool typed = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
                         cJSON_GetObjectItemCaseSensitive(first, "report"), "types")) > 0;
        fputs(typed ? REPORT_CSV_COLUMNS ",type\n" : REPORT_CSV_COLUMNS "\n", out);
        row_type = typed ? "" : NULL;
        const cJSON *so;
        int si = 0;
        cJSON_ArrayForEach(so, cJSON_GetObjectItemCaseSensitive(root, "settings"))
        {
            char *prefix = NULL;
            size_t plen = 0;
            FILE *m = membuf(&prefix, &plen);
            const setting *S = &set[si++];
            for (int a = 0; a < nax; a++) {
                report_csv_field(m, S->raw[a]);
                fputc(',', m);
            }
            fclose(m);
            csv_report(out, prefix, cJSON_GetObjectItemCaseSensitive(so, "report"));
            csv_fairness(out, prefix, g->name, cJSON_GetObjectItemCaseSensitive(so, "fairness"));
            csv_differences(out, prefix, g->name,
                            cJSON_GetObjectItemCaseSensitive(so, "differences"));
            free(prefix);
        }
        row_type = NULL;
    }
}
