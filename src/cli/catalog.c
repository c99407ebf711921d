/* catalog.c — the games, bots, parameters, ruleset keys and metrics as one JSON tree. */
#include "cli/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/fail.h"
#include "config/rules.h"
#include "config/population.h"
#include "core/registry.h"

/* True if game g lists bot `name` among its slow bots. */
static bool slow_bot(const game_type *g, const char *name)
{
    for (int i = 0; g->slow_bots && g->slow_bots[i]; i++)
        if (strcmp(g->slow_bots[i], name) == 0)
            return true;
    return false;
}

static cJSON *bot_entry(const game_type *g, const bot_type *b)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", b->name);
    cJSON_AddStringToObject(e, "doc", b->doc);
    cJSON_AddBoolToObject(e, "default", strcmp(b->name, g->default_bot) == 0);
    cJSON_AddBoolToObject(e, "slow", slow_bot(g, b->name));
    cJSON *params = cJSON_AddArrayToObject(e, "params");
    for (int j = 0; b->params && b->params[j].name; j++) {
        const bot_param *p = &b->params[j];
        cJSON *q = cJSON_CreateObject();
        cJSON_AddStringToObject(q, "name", p->name);
        cJSON_AddStringToObject(q, "type", p->integer ? "integer" : "number");
        cJSON_AddNumberToObject(q, "min", p->min);
        cJSON_AddNumberToObject(q, "max", p->max);
        cJSON_AddNumberToObject(q, "default", p->def);
        cJSON *by = NULL; /* where the default differs at another table (bot_param_default) */
        for (int n = g->min_seats; b->param_default && n <= g->max_seats; n++) {
            double d = bot_param_default(b, j, n);
            char key[16];
            snprintf(key, sizeof key, "%d", n);
            if (d != p->def)
                cJSON_AddNumberToObject(by ? by : (by = cJSON_AddObjectToObject(q, "default_by_players")),
                                        key, d);
        }
        cJSON_AddStringToObject(q, "doc", p->doc);
        cJSON_AddItemToArray(params, q);
    }
    return e;
}

/* The default ruleset's value at path ("faces.red"); NULL for a key inside an array of
 * objects ("board[].effect": it differs from element to element) or one absent. *first gets
 * the value in the first element instead (for the key's JSON type). */
static const cJSON *default_at(const cJSON *root, const char *path, const cJSON **first)
{
    char buf[RULES_KEY_LEN];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *v = root;
    bool inside = false;
    char *save = NULL;
    for (char *part = strtok_r(buf, ".", &save); part && v; part = strtok_r(NULL, ".", &save)) {
        size_t n = strlen(part);
        bool each = n > 2 && strcmp(part + n - 2, "[]") == 0;
        if (each)
            part[n - 2] = '\0';
        v = cJSON_GetObjectItemCaseSensitive(v, part);
        if (each && v) {
            v = cJSON_GetArrayItem(v, 0);
            inside = true;
        }
    }
    *first = v;
    return inside ? NULL : v;
}

/* The JSON type name of a key the loader reads with its own code (RULE_OTHER). */
static const char *json_type(const cJSON *v)
{
    return v == NULL               ? "object"
           : cJSON_IsString(v)     ? "string"
           : cJSON_IsArray(v)      ? "array"
           : cJSON_IsObject(v)     ? "object"
           : cJSON_IsBool(v)       ? "boolean"
           : cJSON_IsNumber(v)     ? "number"
                                   : "null";
}

static cJSON *key_entry(const game_type *g, const rule_key *k, const cJSON *def)
{
    static const char *const kind_name[] = {
        [RULE_OTHER] = NULL,      [RULE_INT] = "integer",         [RULE_NUMBER] = "number",
        [RULE_BOOL] = "boolean",  [RULE_ENUM] = "enum",           [RULE_INT_ARRAY] = "integers",
        [RULE_ARRAY] = "array",
    };
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "key", k->path);
    const cJSON *first = NULL;
    const cJSON *value = default_at(def, k->path, &first);
    cJSON_AddStringToObject(e, "type", kind_name[k->kind] ? kind_name[k->kind] : json_type(first));
    if (k->kind == RULE_INT || k->kind == RULE_NUMBER || k->kind == RULE_INT_ARRAY) {
        cJSON_AddNumberToObject(e, "min", k->min);
        cJSON_AddNumberToObject(e, "max", k->max);
    }
    if (k->kind == RULE_INT_ARRAY || k->kind == RULE_ARRAY) {
        cJSON_AddNumberToObject(e, "min_length", k->min_len);
        cJSON_AddNumberToObject(e, "max_length", k->max_len);
    }
    if (k->kind == RULE_ENUM) {
        cJSON *c = cJSON_AddArrayToObject(e, "choices");
        for (int i = 0; k->choices[i]; i++)
            cJSON_AddItemToArray(c, cJSON_CreateString(k->choices[i]));
    }
    if (value)
        cJSON_AddItemToObject(e, "default", cJSON_Duplicate(value, 1));
    cJSON_AddBoolToObject(e, "optional", first == NULL);
    const char *doc = rules_key_doc(g, k->path);
    cJSON_AddStringToObject(e, "doc", doc ? doc : "");
    return e;
}

/* The keys in the order of the default ruleset's top level, each followed by the keys inside
 * it; then the optional keys (allowed, absent from the default). */
static void add_keys(const game_type *g, cJSON *keys)
{
    rule_keys *rk = xcalloc(1, sizeof *rk);
    char err[512];
    cJSON *def = rules_parse(g->default_rules, g->name, err, sizeof err);
    if (def == NULL || rules_describe(g, rk, err, sizeof err) != 0)
        die(EXIT_INTERNAL, "%s: its built-in ruleset does not load: %s", g->name, err);
    bool *done = xcalloc((size_t)rk->n + 1, sizeof *done);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < rk->n; i++) {
            const rule_key *top = &rk->key[i];
            if (done[i] || strpbrk(top->path, ".[") != NULL)
                continue;
            bool present = cJSON_GetObjectItemCaseSensitive(def, top->path) != NULL;
            if (pass == 0 && !present)
                continue;
            done[i] = true;
            cJSON_AddItemToArray(keys, key_entry(g, top, def));
            size_t n = strlen(top->path);
            for (int j = 0; j < rk->n; j++) {
                const char *p = rk->key[j].path;
                if (!done[j] && strncmp(p, top->path, n) == 0 &&
                    (p[n] == '.' || strncmp(p + n, "[].", 3) == 0)) {
                    done[j] = true;
                    cJSON_AddItemToArray(keys, key_entry(g, &rk->key[j], def));
                }
            }
        }
    free(done);
    free(rk);
    cJSON_Delete(def);
}

/* {"name": A B, "seat": seat}: a figure of the game, or of each seat. */
static cJSON *figure(const char *a, const char *b, bool seat)
{
    char name[128];
    snprintf(name, sizeof name, "%s%s", a, b);
    cJSON *f = cJSON_CreateObject();
    cJSON_AddStringToObject(f, "name", name);
    cJSON_AddBoolToObject(f, "seat", seat);
    return f;
}

cJSON *catalog_game(const game_type *g)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", g->name);
    cJSON_AddStringToObject(e, "title", g->title);
    cJSON_AddStringToObject(e, "rules", g->seed);
    cJSON *players = cJSON_AddObjectToObject(e, "players");
    cJSON_AddNumberToObject(players, "min", g->min_seats);
    cJSON_AddNumberToObject(players, "max", g->max_seats);
    cJSON_AddNumberToObject(players, "default", g->default_seats);
    cJSON_AddStringToObject(e, "default_bot", g->default_bot);
    cJSON_AddBoolToObject(e, "decisions", g->kind_names[0] != NULL);
    cJSON *bots = cJSON_AddArrayToObject(e, "bots");
    const bot_type *all[REGISTRY_MAX_BOTS];
    int nbots = registry_bots(g, all, REGISTRY_MAX_BOTS);
    for (int i = 0; i < nbots; i++)
        cJSON_AddItemToArray(bots, bot_entry(g, all[i]));
    /* the built-in populations (pop:NAME, --population=NAME) */
    cJSON *pops = cJSON_AddArrayToObject(e, "populations");
    char names[1024];
    population_builtin_names(g, names, sizeof names);
    for (char *rest = names, *t; (t = strsep(&rest, ",")) != NULL;) {
        while (*t == ' ')
            t++;
        if (*t == '\0')
            continue;
        char err[512];
        const population *p = population_load(g, t, g->default_seats, err, sizeof err);
        cJSON *q = cJSON_CreateObject();
        cJSON_AddStringToObject(q, "name", t);
        cJSON *types = cJSON_AddArrayToObject(q, "types");
        for (int m = 0; p && m < p->nmembers; m++) {
            cJSON *ty = cJSON_CreateObject();
            cJSON_AddStringToObject(ty, "type", p->member[m].type);
            cJSON_AddStringToObject(ty, "bot", p->member[m].canon);
            cJSON_AddNumberToObject(ty, "weight", p->member[m].weight / p->cum[p->nmembers - 1]);
            cJSON_AddBoolToObject(ty, "knobs_drawn", p->member[m].drawn);
            cJSON_AddItemToArray(types, ty);
        }
        cJSON_AddItemToArray(pops, q);
    }
    /* a person at the terminal and programs (--bot-program) sit only where a view is */
    cJSON_AddBoolToObject(e, "outside_bots", g->view_json != NULL);
    add_keys(g, cJSON_AddArrayToObject(e, "keys"));
    cJSON *metrics = cJSON_AddArrayToObject(e, "metrics");
    for (int i = 0; g->metrics && g->metrics[i].name; i++) {
        const metric_def *m = &g->metrics[i];
        cJSON *q = cJSON_CreateObject();
        cJSON_AddStringToObject(q, "name", m->name);
        cJSON_AddStringToObject(q, "kind", m->kind == METRIC_RATE ? "share" : "mean");
        cJSON_AddStringToObject(q, "scope", m->scope == METRIC_SEAT ? "seat" : "game");
        cJSON_AddStringToObject(q, "doc", m->doc);
        cJSON_AddItemToArray(metrics, q);
    }
    /* the figures experiments name (--metric, --until, --maximize, --target): the game's
     * own, then each seat's (written NAME@K for seat K) */
    cJSON *figures = cJSON_AddArrayToObject(e, "figures");
    const char *fixed[] = {"length", "ties", "no_winner"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        cJSON_AddItemToArray(figures, figure(fixed[i], "", false));
    for (int i = 0; g->end_names[i]; i++)
        cJSON_AddItemToArray(figures, figure("ended.", g->end_names[i], false));
    for (int i = 0; g->metrics && g->metrics[i].name; i++)
        if (g->metrics[i].scope == METRIC_GAME)
            cJSON_AddItemToArray(figures, figure(g->metrics[i].name, "", false));
    const char *per_seat[] = {"win_share", g->score_name, "rank"};
    for (size_t i = 0; i < sizeof per_seat / sizeof per_seat[0]; i++)
        cJSON_AddItemToArray(figures, figure(per_seat[i], "", true));
    for (int i = 0; g->metrics && g->metrics[i].name; i++)
        if (g->metrics[i].scope == METRIC_SEAT)
            cJSON_AddItemToArray(figures, figure(g->metrics[i].name, "", true));
    return e;
}

cJSON *catalog_all(const game_type *only)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "tool", "giochi-sim");
    cJSON_AddStringToObject(root, "version", GIOCHI_VERSION);
    cJSON *games = cJSON_AddArrayToObject(root, "games");
    for (int i = 0; registry_games[i]; i++)
        if (only == NULL || only == registry_games[i])
            cJSON_AddItemToArray(games, catalog_game(registry_games[i]));
    return root;
}
