/* depends.h — --depends: the extra batches behind a report's "depends on" section. */
#ifndef GIOCHI_CLI_DEPENDS_H
#define GIOCHI_CLI_DEPENDS_H

#include <cjson/cJSON.h>

#include "cli/job.h"
#include "cli/outset.h"

/* Adds to the "depends_on" object of report (a plain run's tree, built for job j; nothing
 * when the game gave none) what --depends measures, each batch the job's run (its runs, seed,
 * ruleset and players) with only what is named changed: "profiles", one entry per bot of the
 * game's own (not random, no generic or slow bot) at every seat, then one with those bots
 * around the table in turn ("mixed": true), each {"bots", "mixed", "figures": {NAME:
 * estimate}}; and "sensitivity", for each figure of "figures" the experiment engine's
 * sensitivity (paired games) to every key of "keys" moved down and up by --step (default
 * 50%), its DEPENDS_TOP largest effects kept, each labelled as "keys" labels it, and
 * "keys_moved". A failure ends the process through outset_fail(o, ...). */
void depends_run(const job *j, cJSON *report, outset *o);

#endif
