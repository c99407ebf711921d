/* depends.c — --depends: the extra batches behind a report's "depends_on" section: the
 * headline figures the game names under each of its own bot profiles (every seat one
 * profile, then the profiles mixed around the table), and a sensitivity of each figure to the
 * ruleset keys the game names as reconstructions (the experiment engine's, paired games). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/depends.h"
#include "cli/fail.h"
#include "core/registry.h"

enum { DEPENDS_TOP = 5 }; /* keys shown per figure, the largest effects */

/* The default move of a reconstructed amount: half of it, down and up. */
static const char DEPENDS_STEP[] = "50%";

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* True for a bot of g's own (not random, not a generic search bot) that is not slow. */
static bool profile_bot(const game_type *g, const bot_type *b)
{
    for (int i = 0; registry_generic_bots[i]; i++)
        if (registry_generic_bots[i] == b)
            return false;
    if (strcmp(b->name, "random") == 0)
        return false;
    for (int i = 0; g->slow_bots && g->slow_bots[i]; i++)
        if (strcmp(g->slow_bots[i], b->name) == 0)
            return false;
    return true;
}

/* Plays the job's run (failing through o) with the seats' bots `list` (botspec text) and adds to `profiles` an
 * entry {"bots": list, "mixed", "figures": {NAME: estimate}} of the figures in `figures`. */
static void play_profile(const job *j, outset *o, const char *list, bool mixed,
                         const cJSON *figures, cJSON *profiles)
{
    run_config cfg = j->cfg;
    cfg.games_csv = NULL;
    cfg.progress = RUN_PROGRESS_NONE;
    char canon[GAME_MAX_SEATS][BOT_SPEC_MAX], err[512];
    if (botspec_parse_list(j->g, list, cfg.nseats, cfg.seat, canon, err, sizeof err) !=
        cfg.nseats)
        outset_fail(o, EXIT_INTERNAL, "--depends: bots '%s': %s", list, err);
    run_result res;
    if (run_batch(&cfg, &res, err, sizeof err) != 0)
        outset_fail(o, EXIT_INTERNAL, "--depends: bots '%s': %s", list, err);
    report_input in = {.cfg = &cfg, .res = &res, .ruleset = j->ruleset};
    for (int k = 0; k < cfg.nseats; k++)
        in.bot_spec[k] = canon[k];
    cJSON *r = report_build(&in);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "bots", list);
    cJSON_AddBoolToObject(p, "mixed", mixed);
    cJSON *fig = cJSON_AddObjectToObject(p, "figures");
    const cJSON *f;
    cJSON_ArrayForEach(f, figures)
    {
        const char *name = get(f, "metric")->valuestring;
        const cJSON *e = get(get(r, "metrics"), name);
        if (e)
            cJSON_AddItemToObject(fig, name, cJSON_Duplicate(e, 1));
    }
    cJSON_AddItemToArray(profiles, p);
    cJSON_Delete(r);
    run_result_free(&res);
}

/* The sensitivity of figure `metric` to `keys` (comma-separated) as the experiment engine
 * reports it, or dies. The caller frees it. */
static cJSON *sensitivity(const job *j, outset *o, const char *metric, const char *keys)
{
    exp_options xo = j->xo;
    xo.sensitivity = true;
    xo.sensitivity_keys = keys;
    xo.metric = metric;
    xo.step = j->o->step ? j->o->step : DEPENDS_STEP;
    xo.exact = false;
    xo.format = REPORT_JSON;
    xo.progress = RUN_PROGRESS_NONE;
    cJSON *tree = NULL;
    xo.tree = &tree;
    FILE *sink = fopen("/dev/null", "w");
    if (sink == NULL)
        outset_fail(o, EXIT_IO, "--depends: cannot open /dev/null");
    char err[512];
    int rc = experiment_run(&xo, sink, err, sizeof err);
    fclose(sink);
    if (rc != 0)
        outset_fail(o, rc, "--depends: %s", err);
    cJSON *s = cJSON_DetachItemFromObjectCaseSensitive(tree, "sensitivity");
    cJSON_Delete(tree);
    if (s == NULL)
        outset_fail(o, EXIT_INTERNAL, "--depends: the sensitivity of %s made no report", metric);
    return s;
}

void depends_run(const job *j, cJSON *report, outset *o)
{
    cJSON *dep = cJSON_GetObjectItemCaseSensitive(report, "depends_on");
    if (dep == NULL)
        return;
    const cJSON *figures = get(dep, "figures");
    const game_type *g = j->g;
    /* every seat one profile, then the profiles around the table in their order */
    cJSON *profiles = cJSON_AddArrayToObject(dep, "profiles");
    const char *names[REGISTRY_MAX_BOTS];
    int n = 0;
    for (int i = 0; g->bots && g->bots[i] && n < REGISTRY_MAX_BOTS; i++)
        if (profile_bot(g, g->bots[i])) {
            names[n++] = g->bots[i]->name;
            play_profile(j, o, g->bots[i]->name, false, figures, profiles);
        }
    if (n > 1) {
        char list[GAME_MAX_SEATS * 64] = "";
        size_t len = 0;
        for (int k = 0; k < j->cfg.nseats && len < sizeof list; k++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", k ? "," : "",
                                    names[k % n]);
        play_profile(j, o, list, true, figures, profiles);
    }
    /* the reconstructed keys, each figure's largest effects first */
    const cJSON *keys = get(dep, "keys"), *k;
    size_t cap = 1, len = 0;
    cJSON_ArrayForEach(k, keys)
        cap += strlen(get(k, "key")->valuestring) + 1;
    if (cJSON_GetArraySize(keys) == 0)
        return;
    char *list = calloc(cap, 1);
    if (list == NULL)
        outset_fail(o, EXIT_NOMEM, "out of memory");
    cJSON_ArrayForEach(k, keys)
        len += (size_t)snprintf(list + len, cap - len, "%s%s", len ? "," : "",
                                get(k, "key")->valuestring);
    cJSON *sens = cJSON_AddArrayToObject(dep, "sensitivity");
    const cJSON *f;
    cJSON_ArrayForEach(f, figures)
    {
        cJSON *s = sensitivity(j, o, get(f, "metric")->valuestring, list);
        cJSON *ranked = cJSON_GetObjectItemCaseSensitive(s, "keys");
        while (cJSON_GetArraySize(ranked) > DEPENDS_TOP) /* the engine ranks them already */
            cJSON_DeleteItemFromArray(ranked, DEPENDS_TOP);
        cJSON *e;
        cJSON_ArrayForEach(e, ranked)
            cJSON_ArrayForEach(k, keys)
                if (strcmp(get(k, "key")->valuestring, get(e, "key")->valuestring) == 0)
                    cJSON_AddStringToObject(e, "label", get(k, "label")->valuestring);
        cJSON_AddNumberToObject(s, "keys_moved", cJSON_GetArraySize(keys));
        cJSON_AddItemToArray(sens, s);
    }
    free(list);
}
