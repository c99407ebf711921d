/* fields.c — reading the report tree: a member as a number or a string, a figure's label
 * (fields.h). */
#include "report/fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/registry.h"

double report_num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const char *report_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

char *report_figure_label(const char *game, const char *fig, char *buf, size_t n, char *unit,
                          size_t un)
{
    static const char *const builtin[][2] = {
        {"length", "game length"},        {"win_share", "win share"},
        {"seat_advantage", "seat advantage (win share minus 1/N)"},
        {"ties", "tied games"},           {"no_winner", "games nobody won"},
        {"rank", "rank"},                 {"seat_spread", "seat spread"},
        {"first_seat", "first-seat advantage"},
    };
    const game_type *g = registry_game(game);
    char name[128];
    size_t len = strcspn(fig, "@");
    snprintf(name, sizeof name, "%.*s", (int)len, fig);
    const char *seat = fig[len] == '@' ? fig + len + 1 : NULL;
    const char *label = NULL;
    unit[0] = '\0';
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0] && !label; i++)
        if (strcmp(builtin[i][0], name) == 0)
            label = builtin[i][1];
    if (label && strcmp(name, "length") == 0 && g)
        snprintf(unit, un, "%s", g->length_unit);
    for (int i = 0; !label && g && g->labels && g->labels[i].name; i++)
        if (strcmp(g->labels[i].name, name) == 0) {
            label = g->labels[i].label;
            if (g->labels[i].unit)
                snprintf(unit, un, "%s", g->labels[i].unit);
        }
    if (label == NULL && strncmp(name, "ended.", 6) == 0) {
        snprintf(buf, n, "ended: %s", name + 6);
        for (char *p = buf; *p; p++)
            *p = *p == '_' ? ' ' : *p;
    } else {
        snprintf(buf, n, "%s", label ? label : name);
    }
    if (seat) {
        size_t b = strlen(buf);
        snprintf(buf + b, n > b ? n - b : 0, ", seat %s", seat);
    }
    return buf;
}
