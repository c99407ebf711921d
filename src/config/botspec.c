/* botspec.c — parsing bot descriptions with parameters, and their canonical form. */
#include "config/botspec.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/jsoncheck.h"
#include "bots/program.h"
#include "core/numfmt.h"
#include "core/registry.h"
#include "core/suggest.h"

static botspec_pop_fn *pop_seat; /* botspec_set_population */

void botspec_set_population(botspec_pop_fn *fn)
{
    pop_seat = fn;
}

/* Writes the names of bot b's parameters, comma-separated, into buf. */
static void param_names(const bot_type *b, int np, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int j = 0; j < np && used < n; j++) {
        int k = snprintf(buf + used, n - used, "%s%s", j ? ", " : "", b->params[j].name);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

/* Parses "key=value" for bot b into spec->param; given[] marks what was set already. */
static int parse_param(const bot_type *b, int np, char *kv, seat_spec *spec, bool *given,
                       char *err, size_t errlen)
{
    if (*kv == '\0')
        return snprintf(err, errlen, "bot '%s': empty parameter (a ':' too many)", b->name), -1;
    char *eq = strchr(kv, '=');
    if (eq == NULL)
        return snprintf(err, errlen, "bot '%s': parameter '%s' needs a value (KEY=VALUE)",
                        b->name, kv),
               -1;
    *eq = '\0';
    if (program_is(b)) /* its table grows as seats name parameters */
        for (np = 0; b->params[np].name;)
            np++;
    int i = 0;
    while (i < np && strcmp(b->params[i].name, kv) != 0)
        i++;
    if (i == np && program_is(b)) { /* a program's parameters are what its users give */
        if ((i = program_param(b, kv, err, errlen)) < 0)
            return -1;
        np = i + 1;
    }
    if (i == np) {
        if (np == 0)
            return snprintf(err, errlen, "bot '%s' takes no parameters (got '%s')", b->name, kv),
                   -1;
        const char *all[BOT_MAX_PARAMS + 1];
        for (int j = 0; j < np && j <= BOT_MAX_PARAMS; j++)
            all[j] = b->params[j].name;
        const char *near = suggest_nearest(kv, all, (size_t)(np <= BOT_MAX_PARAMS ? np : BOT_MAX_PARAMS + 1));
        if (near)
            return snprintf(err, errlen, "bot '%s' has no parameter '%s' (did you mean %s?)",
                            b->name, kv, near),
                   -1;
        char names[512];
        param_names(b, np, names, sizeof names);
        return snprintf(err, errlen, "bot '%s' has no parameter '%s' (parameters: %s)", b->name,
                        kv, names),
               -1;
    }
    if (given[i])
        return snprintf(err, errlen, "bot '%s': parameter '%s' is given twice", b->name, kv), -1;
    given[i] = true;
    const bot_param *p = &b->params[i];
    /* exactly a JSON number: no hexadecimal, no leading space or zero, no "inf" */
    size_t len = jsoncheck_number(eq + 1);
    char *end;
    errno = 0;
    double v = len ? strtod(eq + 1, &end) : NAN;
    if (len == 0 || eq[1 + len] != '\0' || errno || !(v >= p->min && v <= p->max) ||
        (p->integer && v != floor(v)))
        return snprintf(err, errlen, "bot '%s' parameter '%s': expected %s in %g..%g (got '%s')",
                        b->name, kv, p->integer ? "a whole number" : "a number", p->min, p->max,
                        eq + 1),
               -1;
    spec->param[i] = v;
    return 0;
}

int botspec_parse(const game_type *g, const char *text, seat_spec *spec, char *canon,
                  size_t ncanon, char *err, size_t errlen)
{
    return botspec_parse_at(g, text, g->default_seats, spec, canon, ncanon, err, errlen);
}

int botspec_parse_at(const game_type *g, const char *text, int nseats, seat_spec *spec,
                     char *canon, size_t ncanon, char *err, size_t errlen)
{
    char buf[512];
    if (strlen(text) >= sizeof buf)
        return snprintf(err, errlen, "--bots: bot '%.40s...' is too long", text), -1;
    strcpy(buf, text);
    char *rest = buf;
    char *name = strsep(&rest, ":");
    if (*name == '\0')
        return snprintf(err, errlen, "--bots: empty bot name"), -1;
    spec->pop = NULL;
    if (strcmp(name, "pop") == 0) { /* pop:SOURCE, the rest whole (a file may hold ':') */
        if (pop_seat == NULL)
            return snprintf(err, errlen, "--bots: pop: populations are not built into this "
                                         "program"),
                   -1;
        return pop_seat(g, rest ? rest : "", nseats, spec, canon, ncanon, err, errlen);
    }
    const bot_type *b = registry_bot(g, name);
    if (b == NULL && strcmp(name, "human") == 0 && g->view_json)
        b = &bot_human;
    if (b == NULL)
        b = program_lookup(g, name);
    if (b == NULL) {
        char names[1024];
        registry_bot_names(g, names, sizeof names);
        for (int i = 0; registry_generic_bots[i]; i++)
            if (strcmp(registry_generic_bots[i]->name, name) == 0)
                return snprintf(err, errlen, "bot '%s' does not play %s (bots: %s)", name,
                                g->name, names),
                       -1;
        const bot_type *known[REGISTRY_MAX_BOTS + 1];
        int nknown = registry_bots(g, known, REGISTRY_MAX_BOTS);
        const char *kname[REGISTRY_MAX_BOTS + 1];
        for (int i = 0; i < nknown; i++)
            kname[i] = known[i]->name;
        kname[nknown] = g->view_json ? "human" : NULL;
        const char *near = suggest_nearest(name, kname, (size_t)nknown + 1);
        if (near)
            return snprintf(err, errlen, "unknown bot '%s' for game %s (did you mean %s?)", name,
                            g->name, near),
                   -1;
        return snprintf(err, errlen,
                        "unknown bot '%s' for game %s (bots: %s; also human, and programs "
                        "declared with --bot-program NAME=COMMAND)",
                        name, g->name, names),
               -1;
    }
    spec->bot = b;
    int np = 0;
    while (b->params && b->params[np].name)
        np++;
    if (np > BOT_MAX_PARAMS)
        return snprintf(err, errlen, "bot '%s' has more than %d parameters", b->name,
                        BOT_MAX_PARAMS),
               -1;
    const int np0 = np; /* def: the defaults at this table (a program may add parameters) */
    double def[BOT_MAX_PARAMS];
    for (int i = 0; i < np; i++)
        spec->param[i] = def[i] = bot_param_default(b, i, nseats);
    if (program_is(b)) /* every parameter a later seat may add: not given (NaN) */
        for (int i = 0; i < BOT_MAX_PARAMS; i++)
            spec->param[i] = NAN;
    bool given[BOT_MAX_PARAMS] = {false};
    for (char *kv = strsep(&rest, ":"); kv; kv = strsep(&rest, ":"))
        if (parse_param(b, np, kv, spec, given, err, errlen) != 0)
            return -1;
    while (b->params && b->params[np].name)
        np++;
    size_t used = (size_t)snprintf(canon, ncanon, "%s", b->name);
    for (int i = 0; i < np && used < ncanon; i++)
        if (spec->param[i] != (i < np0 ? def[i] : b->params[i].def) && !isnan(spec->param[i])) {
            char num[40];
            used += (size_t)snprintf(canon + used, ncanon - used, ":%s=%s", b->params[i].name,
                                     numfmt_double(num, sizeof num, spec->param[i]));
        }
    if (used >= ncanon)
        return snprintf(err, errlen, "bot '%s' has too long a description", b->name), -1;
    return 0;
}

int botspec_parse_list(const game_type *g, const char *list, int nseats, seat_spec *seats,
                       char (*canon)[BOT_SPEC_MAX], char *err, size_t errlen)
{
    char buf[4096];
    if (strlen(list) >= sizeof buf)
        return snprintf(err, errlen, "--bots: list too long"), -1;
    strcpy(buf, list);
    char *items[GAME_MAX_SEATS];
    int n = 0;
    char *rest = buf;
    for (char *t = strsep(&rest, ","); t; t = strsep(&rest, ",")) {
        if (n == GAME_MAX_SEATS)
            return snprintf(err, errlen, "--bots: more than %d bots", GAME_MAX_SEATS), -1;
        if (*t == '\0')
            return snprintf(err, errlen, "--bots '%s': empty bot name", list), -1;
        items[n++] = t;
    }
    if (nseats == 0)
        nseats = n > 1 ? n : g->default_seats;
    if (n > 1 && n != nseats)
        return snprintf(err, errlen,
                        "--bots lists %d bots for %d players (give one per seat, or one for all)",
                        n, nseats),
               -1;
    if (nseats > GAME_MAX_SEATS)
        return snprintf(err, errlen, "at most %d players", GAME_MAX_SEATS), -1;
    for (int k = 0; k < nseats; k++)
        if (botspec_parse_at(g, items[n > 1 ? k : 0], nseats, &seats[k], canon[k],
                             BOT_SPEC_MAX, err, errlen) != 0)
            return -1;
    return nseats;
}
