/* outset.c — the output files of one run, opened, abandoned and committed in one place. */
#include "cli/outset.h"

#include <stdarg.h>
#include <string.h>

#include "bots/program.h"
#include "cli/fail.h"
#include "report/csv_decimal.h"

void outset_open(outset *s, const char *report, const char *games, const char *plot,
                 const char *html)
{
    memset(s, 0, sizeof *s);
    outfile_catch_signals();
    const char *name[OUT_KINDS] = {report, games, plot, html};
    char err[512];
    for (int k = 0; k < OUT_KINDS; k++) {
        if (name[k] == NULL && k != OUT_REPORT)
            continue;
        if (outfile_open(&s->file[k], name[k], err, sizeof err) != 0)
            outset_fail(s, EXIT_IO, "%s", err);
        s->open[k] = true;
    }
}

void outset_csv_decimal(outset *s, bool report_csv)
{
    for (int k = 0; k < OUT_KINDS; k++)
        if (s->open[k] && (k == OUT_GAMES || (k == OUT_REPORT && report_csv)) &&
            (s->filter[k] = csv_decimal_open(s->file[k].f)) == NULL)
            outset_fail(s, EXIT_NOMEM, "out of memory (the comma-decimal CSV stream)");
}

FILE *outset_file(const outset *s, enum out_kind k)
{
    return !s->open[k] ? NULL : s->filter[k] ? s->filter[k] : s->file[k].f;
}

/* Closes output k's comma-decimal stream, if any, into its file. */
static void close_filter(outset *s, int k)
{
    if (s->filter[k])
        fclose(s->filter[k]);
    s->filter[k] = NULL;
}

void outset_abort(outset *s)
{
    for (int k = 0; k < OUT_KINDS; k++)
        if (s->open[k]) {
            close_filter(s, k);
            outfile_abort(&s->file[k]);
            s->open[k] = false;
        }
}

void outset_fail(outset *s, int code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    outset_abort(s);
    die(code, "%s", msg);
}

void outset_commit(outset *s)
{
    /* Every file complete, or none: close (checking every write) before renaming. */
    static const enum out_kind close_order[] = {OUT_PLOT, OUT_HTML, OUT_REPORT, OUT_GAMES};
    static const enum out_kind name_order[] = {OUT_GAMES, OUT_PLOT, OUT_HTML, OUT_REPORT};
    char err[512];
    for (size_t i = 0; i < sizeof close_order / sizeof *close_order; i++) {
        enum out_kind k = close_order[i];
        if (s->open[k])
            close_filter(s, (int)k); /* a failed write shows in the file's own error state */
        if (s->open[k] && outfile_close(&s->file[k], err, sizeof err) != 0) {
            s->open[k] = false; /* outfile_close removed its temporary file */
            outset_fail(s, EXIT_IO, "%s", err);
        }
    }
    for (size_t i = 0; i < sizeof name_order / sizeof *name_order; i++) {
        enum out_kind k = name_order[i];
        if (!s->open[k])
            continue;
        s->open[k] = false;
        if (outfile_rename(&s->file[k], err, sizeof err) != 0)
            outset_fail(s, EXIT_IO, "%s", err);
    }
}
