/* exp_progress.c — an experiment's progress on stderr: settings done, games over every setting
 * and rotation, games/s and time left, as the plain run's indicator (runner.h). */
#include "experiment/experiment_priv.h"

#include "core/clock.h"

void exp_progress_start(exp_progress *p, int nworkers)
{
    p->t0 = clock_seconds();
    if (p->mode == RUN_PROGRESS_LOG)
        fprintf(stderr, "giochi-sim: progress: %s: %d setting%s, %s%llu games on %d thread%s\n",
                p->game, p->nset, p->nset == 1 ? "" : "s", p->until ? "at most " : "",
                (unsigned long long)p->plays_cap, nworkers, nworkers == 1 ? "" : "s");
}

void exp_progress_show(exp_progress *p)
{
    if (p->mode == RUN_PROGRESS_NONE)
        return;
    bool tty = p->mode == RUN_PROGRESS_TTY;
    double t = clock_seconds() - p->t0;
    if (tty ? t < 1.0 || t - p->last < 0.25 : t - p->last < 10.0)
        return;
    p->last = t;
    uint64_t done = atomic_load(&p->plays);
    double rate = t > 0 ? (double)done / t : 0;
    double left = rate > 0 && p->plays_cap > done ? (double)(p->plays_cap - done) / rate : 0;
    fprintf(stderr, "%s%s: %d/%d settings done, %llu%s%llu games (%.0f%%), %.0f games/s, %s%.0f s left%s",
            tty ? "\r" : "giochi-sim: progress: ", p->game, p->settings_done, p->nset,
            (unsigned long long)done, p->until ? " games of at most " : "/",
            (unsigned long long)p->plays_cap,
            p->plays_cap ? 100.0 * (double)done / (double)p->plays_cap : 100.0, rate,
            p->until ? "at most " : "", left, tty ? "   " : "\n");
    fflush(stderr);
    p->shown = p->shown || tty;
}

void exp_progress_end(exp_progress *p)
{
    if (p->shown)
        fputs("\r\033[K", stderr);
    if (p->mode == RUN_PROGRESS_LOG)
        fprintf(stderr, "giochi-sim: progress: %s: %d setting%s, %llu games in %.1f s\n",
                p->game, p->nset, p->nset == 1 ? "" : "s",
                (unsigned long long)atomic_load(&p->plays), clock_seconds() - p->t0);
}
