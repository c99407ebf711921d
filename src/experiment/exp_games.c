/* exp_games.c — an experiment's games CSV (--games-csv): each setting's counted games played
 * again through the runner, one rotation at a time, their rows behind the setting's columns. */
#include "experiment/experiment_priv.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "report/report_csv.h"

enum { CSV_BLOCK = 65536 }; /* games per pass of the runner: bounds the buffered rows */

/* Writes text (the runner's CSV of one block) to out, each row behind prefix. A block that
 * starts the run begins with the runner's header line: written behind head if head is not
 * NULL (the file's first block), else dropped. Returns -1 if a write failed. */
static int copy_rows(FILE *out, const char *head, const char *prefix, const char *text,
                     size_t len, bool has_header)
{
    const char *p = text, *end = text + len;
    for (bool first = true; p < end; first = false) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p + 1) : (size_t)(end - p);
        const char *before = first && has_header ? head : prefix;
        if (before && (fputs(before, out) < 0 || fwrite(p, 1, n, out) != n))
            return -1;
        p += n;
    }
    return 0;
}

int exp_games_csv(const experiment *x, FILE *out, char *err, size_t errlen)
{
    const exp_options *o = x->o;
    bool rotated = x->set[0].nrot > 1;
    /* the header of the setting columns */
    char *head = NULL;
    size_t hlen = 0;
    FILE *m = open_memstream(&head, &hlen);
    if (m == NULL)
        xalloc_fail("cannot buffer the games CSV");
    if (o->sensitivity)
        fputs("setting,", m);
    for (int a = 0; a < x->nax && !o->sensitivity; a++) {
        report_csv_field(m, x->ax[a].key);
        fputc(',', m);
    }
    if (rotated)
        fputs("rotation,", m);
    fclose(m);
    int rc = 0;
    bool header = true;
    for (int s = 0; s < x->nset && rc == 0; s++) {
        const setting *S = &x->set[s];
        for (int r = 0; r < S->nrot && rc == 0; r++) {
            char *prefix = NULL;
            size_t plen = 0;
            if ((m = open_memstream(&prefix, &plen)) == NULL)
                xalloc_fail("cannot buffer the games CSV");
            if (o->sensitivity) {
                report_csv_field(m, S->label);
                fputc(',', m);
            }
            for (int a = 0; a < x->nax && !o->sensitivity; a++) {
                report_csv_field(m, S->raw[a]);
                fputc(',', m);
            }
            if (rotated)
                fprintf(m, "%d,", r);
            fclose(m);
            for (uint64_t from = 0; from < S->games && rc == 0; from += CSV_BLOCK) {
                run_config cfg = S->cfg[r];
                cfg.first = from;
                cfg.runs = S->games - from < CSV_BLOCK ? S->games - from : CSV_BLOCK;
                cfg.progress = RUN_PROGRESS_NONE;
                char *text = NULL;
                size_t len = 0;
                if ((cfg.games_csv = open_memstream(&text, &len)) == NULL)
                    xalloc_fail("cannot buffer the games CSV");
                run_result res;
                rc = run_batch_local(&cfg, &res, err, errlen);
                if (fclose(cfg.games_csv) != 0)
                    xalloc_fail("cannot buffer the games CSV");
                if (rc != 0) {
                    rc = 4; /* --check found a broken invariant: err says where */
                } else {
                    run_result_free(&res);
                    if (copy_rows(out, header ? head : NULL, prefix, text, len, from == 0) != 0) {
                        snprintf(err, errlen, "cannot write the games CSV");
                        rc = 3;
                    }
                    header = false;
                }
                free(text);
            }
            free(prefix);
        }
    }
    free(head);
    return rc;
}
