/* experiment_kit.h — what the experiment tests share: running an experiment or a search into
 * memory and reading its JSON report. */
#ifndef GIOCHI_EXPERIMENT_KIT_H
#define GIOCHI_EXPERIMENT_KIT_H

#include <cjson/cJSON.h>

#include "experiment/experiment.h"

/* Runs the experiment (or search) o; returns its JSON report (the caller frees it), or NULL
 * with the error on stderr if it failed. */
cJSON *et_run_json(const exp_options *o);

#endif
