/* tournament.c — --tournament (not built yet). */
#include "experiment/search.h"

int tournament_run(const exp_options *o, FILE *out, char *err, size_t errlen)
{
    (void)o, (void)out;
    return snprintf(err, errlen, "--tournament is not built yet"), 2;
}
