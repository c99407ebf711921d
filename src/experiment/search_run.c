/* search_run.c — which search the options ask for (--tune, --target, --tournament), after
 * the checks every search shares; a file of its own so that the modes, which use search.c,
 * are not used by it. */
#include "experiment/search.h"

int search_run(const exp_options *o, FILE *out, char *err, size_t errlen)
{
    int modes = (o->tune != NULL) + (o->target != NULL) + (o->tournament != NULL);
    const char *name = o->tune ? "--tune" : o->target ? "--target" : "--tournament";
    if (modes > 1)
        return snprintf(err, errlen, "--tune, --target and --tournament are separate searches: "
                                     "give one"),
               2;
    if (o->shard_out || o->merged)
        return snprintf(err, errlen, "%s decides each step from the last one: it cannot be "
                                     "split into --shard files (use MPI or --threads)",
                        name),
               2;
    if (o->nsweeps > 0 || o->sensitivity || o->until || o->baseline || o->exact)
        return snprintf(err, errlen, "%s cannot be combined with --sweep, --sensitivity, "
                                     "--until, --baseline or --exact",
                        name),
               2;
    if (o->maximize && !o->tune)
        return snprintf(err, errlen, "--%s goes with --tune", o->minimize ? "minimize" : "maximize"),
               2;
    if (o->over && !o->target)
        return snprintf(err, errlen, "--over goes with --target"), 2;
    if (o->sprt && !o->tournament)
        return snprintf(err, errlen, "--sprt goes with --tournament"), 2;
    if (o->tournament && o->bots)
        return snprintf(err, errlen, "--tournament seats the bots it lists: --bots does not "
                                     "apply (list every bot in --tournament=BOT,BOT,...)"),
               2;
    if (o->metric && !o->tournament)
        return snprintf(err, errlen, "%s names its own figure: --metric does not apply", name),
               2;
    if (o->tune)
        return tune_run(o, out, err, errlen);
    if (o->target)
        return seek_run(o, out, err, errlen);
    return tournament_run(o, out, err, errlen);
}
