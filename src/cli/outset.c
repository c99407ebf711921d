/* outset.c — the output files of one run, opened, abandoned and committed in one place. */
#include "cli/outset.h"

#include <signal.h>
#include <stdarg.h>
#include <string.h>

#include "cli/fail.h"

/* Removes the temporary output files, then dies of the signal as if it were not caught. */
static void on_signal(int sig)
{
    outfile_remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* An interrupted run (Ctrl-C, kill, a closed pipe) leaves no temporary file behind. Signals
 * the caller ignores stay ignored. */
static void catch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
    /* Past a file-size limit (ulimit -f) a write fails with EFBIG, reported as any failed
     * write (exit 3), instead of the signal killing the run with its temporary files. */
    signal(SIGXFSZ, SIG_IGN);
}

void outset_open(outset *s, const char *report, const char *games, const char *plot,
                 const char *html)
{
    memset(s, 0, sizeof *s);
    catch_signals();
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

FILE *outset_file(const outset *s, enum out_kind k)
{
    return s->open[k] ? s->file[k].f : NULL;
}

void outset_abort(outset *s)
{
    for (int k = 0; k < OUT_KINDS; k++)
        if (s->open[k]) {
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
