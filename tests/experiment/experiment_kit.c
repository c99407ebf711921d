/* experiment_kit.c — what the experiment tests share (experiment_kit.h). */
#include "experiment_kit.h"

#include <stdio.h>
#include <stdlib.h>

cJSON *et_run_json(const exp_options *o)
{
    char *text = NULL, err[512] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int rc = experiment_run(o, f, err, sizeof err);
    fclose(f);
    cJSON *j = rc == 0 ? cJSON_Parse(text) : NULL;
    if (rc != 0)
        fprintf(stderr, "experiment failed: %s\n", err);
    free(text);
    return j;
}
