/* mode_experiment.c — an experiment (sweep, seat rotation, --until, sensitivity): its report,
 * charts and page, or a shard's partial result. */
#include <stdio.h>
#include <stdlib.h>

#include "core/clock.h"
#include "cli/fail.h"
#include "cli/job.h"
#include "dist/dist.h"

void mode_experiment(job *j)
{
    const options *o = j->o;
    const bool root = dist_rank() == 0; /* under MPI rank 0 alone writes */
    outset s;
    job_outputs(j, &s);
    j->xo.games_csv = outset_file(&s, OUT_GAMES);
    /* --format=html: the text the experiment would print is dropped, the page is rendered
     * from its tree */
    FILE *sink = j->fmt == REPORT_HTML && root ? fopen("/dev/null", "w") : NULL;
    FILE *report = root && !o->shard ? (sink ? sink : outset_file(&s, OUT_REPORT)) : NULL;
    j->xo.progress = job_progress(j);
    double t0 = clock_seconds();
    char err[512];
    int rc = experiment_run(&j->xo, report, err, sizeof err);
    double t1 = clock_seconds();
    free((void *)j->xo.merged); /* the shards' payloads themselves stay in j->merge */
    free((void *)j->xo.merged_len);
    free((void *)j->xo.merged_names);
    if (sink)
        fclose(sink);
    if (rc != 0)
        outset_fail(&s, rc, "%s", err);
    if (!root)
        return;
    if (o->shard) {
        double wall = t1 - t0;
        shard_write(j, &s, &wall);
    }
    if (j->fmt == REPORT_HTML)
        report_write(outset_file(&s, OUT_REPORT), j->xtree, REPORT_HTML);
    write_extras(o, j->xtree, &s);
    cJSON_Delete(j->xtree);
    outset_commit(&s);
}
