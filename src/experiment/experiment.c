/* experiment.c — sweeps, paired differences, seat rotation, --until and sensitivity: the
 * public entry points, which read the options into settings, play them in step on common random
 * numbers and render the report (experiment_priv.h names the parts). */
#include "experiment/experiment_priv.h"
#include "experiment/search.h"

#include <stdlib.h>

#include "core/clock.h"
#include "report/report.h"

bool experiment_wanted(const exp_options *o)
{
    return o->nsweeps > 0 || o->rotate || o->until || o->sensitivity || o->tune || o->target ||
           o->tournament;
}

int experiment_run(const exp_options *o, FILE *out, char *err, size_t errlen)
{
    if (o->tune || o->target || o->tournament)
        return search_run(o, out, err, errlen);
    experiment X = {.o = o};
    experiment *x = &X;
    double t0 = clock_seconds();
    int rc = exp_check_options(x, err, errlen);
    if (rc == 0)
        rc = o->sensitivity ? exp_sensitivity_settings(x, err, errlen)
                            : exp_sweep_settings(x, err, errlen);
    if (rc == 0)
        rc = exp_pair_settings(x, err, errlen);
    for (int s = 1; rc == 0 && o->games_csv && s < x->nset; s++)
        if (x->set[s].nseats != x->set[0].nseats) { /* the rows would have other columns */
            snprintf(err, errlen, "--games-csv: the settings seat %d and %d players, whose rows "
                     "have different columns (sweep players in separate runs)",
                     x->set[0].nseats, x->set[s].nseats);
            rc = 2;
        }
    if (rc != 0)
        goto fail;

    engine e = {.g = o->game, .set = x->set, .nset = x->nset, .base = x->base};
    rc = exp_play_all(&e, o, x->target, err, errlen);
    if (rc == 0 && o->games_csv)
        rc = exp_games_csv(x, o->games_csv, err, errlen);
    if (rc != 0 || out == NULL)
        goto fail; /* out NULL: no report (rc 0) */
    double wall = o->merged ? o->merged_wall : clock_seconds() - t0;
    uint64_t played = 0;
    for (int s = 0; s < x->nset; s++)
        played += x->set[s].games * (uint64_t)x->set[s].nrot;

    cJSON *run = NULL;
    cJSON *root = exp_report_build(x, wall, played, &run);
    if (o->tree) { /* the tree of --plot and --html carries the run's provenance too */
        *o->tree = cJSON_Duplicate(root, 1);
        if (run)
            cJSON_AddItemToObject(*o->tree, "run", cJSON_Duplicate(run, 1));
    }
    if (o->format == REPORT_JSON)
        report_write(out, root, REPORT_JSON);
    else if (o->format == REPORT_CSV)
        exp_render_csv(x, root, out);
    else
        exp_render_text(x, root, run, wall, played, out);
    cJSON_Delete(run);
    cJSON_Delete(root);
    rc = 0;

fail:
    for (int s = 0; s < x->nset; s++)
        exp_free_setting(&x->set[s]);
    free(x->set);
    free(x->keys);
    for (int a = 0; a < x->nax; a++)
        free(x->ax[a].val);
    return rc;
}
