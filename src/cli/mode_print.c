/* mode_print.c — the modes that print instead of playing: --list and --print-ruleset. */
#include <stdio.h>
#include <string.h>

#include "cli/fail.h"
#include "cli/job.h"
#include "config/rules.h"
#include "core/registry.h"

/* True if game g lists bot `name` among its slow bots. */
static bool slow_bot(const game_type *g, const char *name)
{
    for (int i = 0; g->slow_bots && g->slow_bots[i]; i++)
        if (strcmp(g->slow_bots[i], name) == 0)
            return true;
    return false;
}

static void list_game(FILE *f, const game_type *g, bool detail)
{
    fprintf(f, "%s — %s (%d-%d players, default %d; rules: %s)\n", g->name, g->title,
            g->min_seats, g->max_seats, g->default_seats, g->seed);
    if (g->kind_names[0] == NULL) /* e.g. the Cinesi: the dice play the whole game */
        fprintf(f, "  decisions: none (the bots are never asked anything)\n");
    fprintf(f, "  bots:\n");
    const bot_type *all[REGISTRY_MAX_BOTS];
    int nbots = registry_bots(g, all, REGISTRY_MAX_BOTS);
    for (int i = 0; i < nbots; i++) {
        const bot_type *b = all[i];
        fprintf(f, "    %-16s %s%s%s\n", b->name, b->doc,
                strcmp(b->name, g->default_bot) == 0 ? " (default)" : "",
                slow_bot(g, b->name) ? " [slow here: a second or more a game; see --progress]"
                                     : "");
        for (int j = 0; b->params && b->params[j].name; j++) {
            const bot_param *p = &b->params[j];
            fprintf(f, "      :%s=%g  %s (%g..%g%s)\n", p->name, p->def, p->doc, p->min,
                    p->max, p->integer ? ", whole" : "");
        }
    }
    char err[256];
    cJSON *rules = rules_parse(g->default_rules, g->name, err, sizeof err);
    fprintf(f, "  ruleset options (--set KEY=VALUE; defaults shown):\n");
    for (const cJSON *k = rules ? rules->child : NULL; k; k = k->next) {
        char *v = cJSON_PrintUnformatted(k);
        if (v && (strlen(v) <= 60 || detail))
            fprintf(f, "    %s = %s\n", k->string, v);
        else if (cJSON_IsArray(k))
            fprintf(f, "    %s = [%d entries: see --print-ruleset]\n", k->string,
                    cJSON_GetArraySize(k));
        else
            fprintf(f, "    %s = {...: see --print-ruleset}\n", k->string);
        cJSON_free(v);
    }
    cJSON_Delete(rules);
    if (detail) {
        fprintf(f, "  metrics:\n");
        for (int i = 0; g->metrics && g->metrics[i].name; i++)
            fprintf(f, "    %-24s %s, %s: %s\n", g->metrics[i].name,
                    g->metrics[i].scope == METRIC_SEAT ? "per seat" : "per game",
                    g->metrics[i].kind == METRIC_RATE ? "share" : "mean", g->metrics[i].doc);
    }
}

void mode_print(const game_type *g, const options *o, const cJSON *ruleset)
{
    outset s;
    outset_open(&s, o->output, NULL, NULL, NULL);
    FILE *f = outset_file(&s, OUT_REPORT);
    if (o->print_ruleset) {
        char *text = cJSON_Print(ruleset);
        fprintf(f, "%s\n", text);
        cJSON_free(text);
    } else {
        for (int i = 0; registry_games[i]; i++)
            if (g == NULL || g == registry_games[i]) {
                list_game(f, registry_games[i], g != NULL);
                if (registry_games[i + 1] && g == NULL)
                    fputc('\n', f);
            }
    }
    outset_commit(&s);
    exit_flushed();
}
