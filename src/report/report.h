/* report.h — one result model (a cJSON tree) and its three renderings: JSON, CSV, text. */
#ifndef GIOCHI_REPORT_H
#define GIOCHI_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/runner.h"

/* REPORT_TEXT is the headline summary (report_text.c), REPORT_TEXT_DETAIL the full listing of
 * every figure, REPORT_HTML one self-contained page (report_html.c). */
typedef enum report_format {
    REPORT_TEXT,
    REPORT_JSON,
    REPORT_CSV,
    REPORT_TEXT_DETAIL,
    REPORT_HTML,
} report_format;

/* What a report is made of. Nothing here is owned by the report. */
typedef struct report_input {
    const run_config *cfg;
    const run_result *res;
    const cJSON *ruleset;                    /* the effective ruleset */
    const char *bot_spec[GAME_MAX_SEATS];    /* each seat's bot as given ("mc:samples=50") */
    const cJSON *exact;                      /* game->exact's answer, or NULL */
} report_input;

/* A new report tree with the keys every report opens with, in their order: tool, version,
 * game, title, runs, seed (as a string), players, length_unit, score, low_score_wins, ruleset
 * (a copy) and ruleset_changes (against g's built-in ruleset). The caller adds the rest and
 * frees the tree. */
cJSON *report_header(const struct game_type *g, double runs, uint64_t seed, int players,
                     const cJSON *ruleset);

/* The command line as a JSON array of strings (argv exactly), for a report's "run" object;
 * the caller frees it. */
cJSON *report_command_line(int argc, char **argv);

/* Adds to a report's "run" object what says when and how the run was made: "command_line"
 * (report_command_line) and "date" (clock_date: SOURCE_DATE_EPOCH's time when set). Like everything in "run", the date is no part of
 * the result: the rest of the report is the same bytes whenever it is made. */
void report_run_stamp(cJSON *run, int argc, char **argv);

/* Builds the report tree (documented key by key in giochi-sim(1)). Every estimate is an
 * object {"value": x, "ci95": [lo, hi], "n": count, ...}. Everything but the "run" object is
 * a pure function of the run's seed and options. The caller frees the tree (cJSON_Delete). */
cJSON *report_build(const report_input *in);

/* Writes the report in the given format. Returns 0, or -1 if a write failed. */
int report_write(FILE *f, const cJSON *report, report_format fmt);

#endif
