/* population.c — reading populations of players (JSON), checking them, drawing from them. */
#include "config/population.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <gsl/gsl_cdf.h>

#include "bots/population.h"
#include "config/botspec.h"
#include "config/rules.h"
#include "core/suggest.h"
#include "dist/sha256.h"
#include "core/xalloc.h"

/* The built-in populations: configs/populations/NAME.json, embedded (tools/embed.sh). */
typedef struct builtin_pop {
    const char *name, *json;
} builtin_pop;
extern const builtin_pop population_builtins[]; /* NULL-name-terminated (build/gen) */

const char *population_builtin(const char *name)
{
    for (int i = 0; population_builtins[i].name; i++)
        if (strcmp(population_builtins[i].name, name) == 0)
            return population_builtins[i].json;
    return NULL;
}

/* The "game" key of a built-in population's text, or "". */
static void builtin_game(const char *json, char *out, size_t n)
{
    out[0] = '\0';
    cJSON *t = cJSON_Parse(json);
    const cJSON *gm = cJSON_GetObjectItemCaseSensitive(t, "game");
    if (cJSON_IsString(gm))
        snprintf(out, n, "%s", gm->valuestring);
    cJSON_Delete(t);
}

void population_builtin_names(const game_type *g, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; population_builtins[i].name && used < n; i++) {
        char game[64];
        builtin_game(population_builtins[i].json, game, sizeof game);
        if (strcmp(game, g->name) != 0)
            continue;
        int k = snprintf(buf + used, n - used, "%s%s", used ? ", " : "",
                         population_builtins[i].name);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

/* ---- parsing ---------------------------------------------------------------------------- */

/* "population 'WHAT': " + the formatted message into err; returns -1. */
static int fail(char *err, size_t errlen, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, const char *what, const char *fmt, ...)
{
    int k = snprintf(err, errlen, "population '%s': ", what);
    if (k >= 0 && (size_t)k < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Fails unless obj is an object whose keys are all in keys (NULL-terminated); where: the
 * object's place for the message. */
static int only_keys(const cJSON *obj, const char *const *keys, const char *what,
                     const char *where, char *err, size_t errlen)
{
    if (!cJSON_IsObject(obj))
        return fail(err, errlen, what, "%s must be an object", where);
    for (const cJSON *c = obj->child; c; c = c->next) {
        bool known = false;
        size_t nkeys = 0;
        for (; keys[nkeys]; nkeys++)
            known = known || strcmp(keys[nkeys], c->string) == 0;
        if (known)
            continue;
        const char *near = suggest_nearest(c->string, keys, nkeys);
        if (near)
            return fail(err, errlen, what, "%s: unknown key '%s' (did you mean %s?)", where,
                        c->string, near);
        return fail(err, errlen, what, "%s: unknown key '%s'", where, c->string);
    }
    return 0;
}

/* A finite number, or false. */
static bool number(const cJSON *v, double *out)
{
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return false;
    *out = v->valuedouble;
    return true;
}

/* Checks that v is a value knob p may take. */
static int knob_value(const bot_param *p, double v, const char *what, const char *where,
                      char *err, size_t errlen)
{
    if (!(v >= p->min && v <= p->max) || (p->integer && v != floor(v)))
        return fail(err, errlen, what, "%s: %g is not %s in %g..%g", where, v,
                    p->integer ? "a whole number" : "a number", p->min, p->max);
    return 0;
}

/* Reads knob p's setting v (a number or a distribution object) into k. */
static int parse_knob(const bot_param *p, const cJSON *v, pop_knob *k, const char *what,
                      const char *where, char *err, size_t errlen)
{
    double x;
    memset(k, 0, sizeof *k);
    if (number(v, &x)) {
        k->dist = POP_FIXED;
        k->a = x;
        return knob_value(p, x, what, where, err, errlen);
    }
    static const char *const forms[] = {"uniform", "normal", "choice", "weights", NULL};
    if (!cJSON_IsObject(v) || v->child == NULL)
        return fail(err, errlen, what,
                    "%s: expected a number or one of {\"uniform\": [a, b]}, {\"normal\": "
                    "{\"mean\", \"sd\", \"min\", \"max\"}}, {\"choice\": [...], \"weights\": "
                    "[...]}",
                    where);
    if (only_keys(v, forms, what, where, err, errlen) != 0)
        return -1;
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(v, "uniform");
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(v, "normal");
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(v, "choice");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(v, "weights");
    if ((u != NULL) + (nm != NULL) + (ch != NULL) != 1 || (w != NULL && ch == NULL))
        return fail(err, errlen, what,
                    "%s: give one distribution (uniform, normal or choice; weights go with "
                    "choice)",
                    where);
    if (u) {
        if (!cJSON_IsArray(u) || cJSON_GetArraySize(u) != 2 ||
            !number(cJSON_GetArrayItem(u, 0), &k->a) || !number(cJSON_GetArrayItem(u, 1), &k->b))
            return fail(err, errlen, what, "%s: uniform takes two numbers [a, b]", where);
        if (k->a > k->b)
            return fail(err, errlen, what, "%s: uniform bounds %g..%g are not in order", where,
                        k->a, k->b);
        if (knob_value(p, k->a, what, where, err, errlen) != 0 ||
            knob_value(p, k->b, what, where, err, errlen) != 0)
            return -1;
        k->dist = POP_UNIFORM;
        return 0;
    }
    if (nm) {
        static const char *const keys[] = {"mean", "sd", "min", "max", NULL};
        if (only_keys(nm, keys, what, where, err, errlen) != 0)
            return -1;
        const cJSON *mean = cJSON_GetObjectItemCaseSensitive(nm, "mean");
        const cJSON *sd = cJSON_GetObjectItemCaseSensitive(nm, "sd");
        const cJSON *lo = cJSON_GetObjectItemCaseSensitive(nm, "min");
        const cJSON *hi = cJSON_GetObjectItemCaseSensitive(nm, "max");
        if (!number(mean, &k->a) || !number(sd, &k->b))
            return fail(err, errlen, what, "%s: normal needs a numeric mean and sd", where);
        if (!(k->b > 0))
            return fail(err, errlen, what, "%s: normal sd %g must be positive", where, k->b);
        k->lo = p->min;
        k->hi = p->max;
        if ((lo && !number(lo, &k->lo)) || (hi && !number(hi, &k->hi)))
            return fail(err, errlen, what, "%s: normal min and max must be numbers", where);
        if (k->lo > k->hi)
            return fail(err, errlen, what, "%s: normal clamp %g..%g is not in order", where,
                        k->lo, k->hi);
        if (knob_value(p, k->lo, what, where, err, errlen) != 0 ||
            knob_value(p, k->hi, what, where, err, errlen) != 0)
            return -1;
        if (p->integer && ceil(k->lo) > floor(k->hi))
            return fail(err, errlen, what, "%s: no whole number in %g..%g", where, k->lo,
                        k->hi);
        k->dist = POP_NORMAL;
        return 0;
    }
    int n = cJSON_IsArray(ch) ? cJSON_GetArraySize(ch) : 0;
    if (n < 1 || n > POP_MAX_CHOICES)
        return fail(err, errlen, what, "%s: choice takes an array of 1..%d values", where,
                    POP_MAX_CHOICES);
    if (w && (!cJSON_IsArray(w) || cJSON_GetArraySize(w) != n))
        return fail(err, errlen, what, "%s: weights must list one weight per choice (%d)",
                    where, n);
    double total = 0;
    for (int i = 0; i < n; i++) {
        if (!number(cJSON_GetArrayItem(ch, i), &k->value[i]))
            return fail(err, errlen, what, "%s: choice %d is not a number", where, i + 1);
        if (knob_value(p, k->value[i], what, where, err, errlen) != 0)
            return -1;
        double wt = 1;
        if (w && (!number(cJSON_GetArrayItem(w, i), &wt) || !(wt > 0)))
            return fail(err, errlen, what, "%s: weight %d must be a positive number", where,
                        i + 1);
        total += wt;
        k->cum[i] = total;
    }
    if (!isfinite(total))
        return fail(err, errlen, what, "%s: the weights' sum is not finite", where);
    k->nchoice = n;
    k->dist = POP_CHOICE;
    return 0;
}

/* Reads member i (JSON object m) into mb. */
static int parse_member(const game_type *g, const cJSON *m, int i, int nseats, pop_member *mb,
                        const char *what, char *err, size_t errlen)
{
    char where[160];
    snprintf(where, sizeof where, "member %d", i + 1);
    static const char *const keys[] = {"type", "weight", "bot", "knobs", "doc", NULL};
    if (only_keys(m, keys, what, where, err, errlen) != 0)
        return -1;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(m, "type");
    const cJSON *bot = cJSON_GetObjectItemCaseSensitive(m, "bot");
    const cJSON *weight = cJSON_GetObjectItemCaseSensitive(m, "weight");
    const cJSON *knobs = cJSON_GetObjectItemCaseSensitive(m, "knobs");
    if (!cJSON_IsString(type) || type->valuestring[0] == '\0' ||
        strlen(type->valuestring) >= POP_NAME_MAX)
        return fail(err, errlen, what, "%s: \"type\" must be a name of 1..%d characters", where,
                    POP_NAME_MAX - 1);
    for (const char *c = type->valuestring; *c; c++)
        if (*c == ',' || *c == '"' || (unsigned char)*c < 32)
            return fail(err, errlen, what, "%s: type '%s' may not hold a comma, a quote or a "
                        "control character", where, type->valuestring);
    snprintf(mb->type, sizeof mb->type, "%s", type->valuestring);
    snprintf(where, sizeof where, "member %d ('%s')", i + 1, mb->type);
    mb->weight = 1;
    if (weight && (!number(weight, &mb->weight) || !(mb->weight > 0)))
        return fail(err, errlen, what, "%s: weight must be a positive number", where);
    if (!cJSON_IsString(bot))
        return fail(err, errlen, what, "%s: \"bot\" must be a bot spec (\"greedy:max_bid=40\")",
                    where);
    if (strncmp(bot->valuestring, "pop:", 4) == 0 || strcmp(bot->valuestring, "pop") == 0)
        return fail(err, errlen, what, "%s: a member cannot be a population", where);
    char e2[512];
    if (botspec_parse_at(g, bot->valuestring, nseats, &mb->spec, mb->canon, sizeof mb->canon,
                         e2, sizeof e2) != 0)
        return fail(err, errlen, what, "%s: %s", where, e2);
    const bot_type *b = mb->spec.bot;
    while (b->params && b->params[mb->nparams].name)
        mb->nparams++;
    for (int j = 0; j < mb->nparams; j++)
        mb->knob[j] = (pop_knob){.dist = POP_FIXED, .a = mb->spec.param[j]};
    if (knobs == NULL)
        return 0;
    if (!cJSON_IsObject(knobs))
        return fail(err, errlen, what, "%s: \"knobs\" must be an object", where);
    for (const cJSON *k = knobs->child; k; k = k->next) {
        int j = 0;
        while (j < mb->nparams && strcmp(b->params[j].name, k->string) != 0)
            j++;
        if (j == mb->nparams) {
            const char *all[BOT_MAX_PARAMS];
            for (int q = 0; q < mb->nparams; q++)
                all[q] = b->params[q].name;
            const char *near = suggest_nearest(k->string, all, (size_t)mb->nparams);
            if (near)
                return fail(err, errlen, what, "%s: bot '%s' has no knob '%s' (did you mean %s?)",
                            where, b->name, k->string, near);
            return fail(err, errlen, what, "%s: bot '%s' has no knob '%s'", where, b->name,
                        k->string);
        }
        char kw[256];
        snprintf(kw, sizeof kw, "%s: knob '%s'", where, k->string);
        if (parse_knob(&b->params[j], k, &mb->knob[j], what, kw, err, errlen) != 0)
            return -1;
        if (mb->knob[j].dist == POP_FIXED)
            mb->spec.param[j] = mb->knob[j].a;
        else
            mb->drawn = true;
    }
    return 0;
}

int population_parse(const game_type *g, const char *text, const char *what, int nseats,
                     population *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char e2[512];
    cJSON *root = rules_parse(text, what, e2, sizeof e2);
    if (root == NULL)
        return fail(err, errlen, what, "%s", e2);
    static const char *const keys[] = {"name", "game", "doc", "members", NULL};
    int rc = -1;
    if (only_keys(root, keys, what, "the population", err, errlen) != 0)
        goto done;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    const cJSON *game = cJSON_GetObjectItemCaseSensitive(root, "game");
    const cJSON *members = cJSON_GetObjectItemCaseSensitive(root, "members");
    if (name && (!cJSON_IsString(name) || name->valuestring[0] == '\0' ||
                 strlen(name->valuestring) >= POP_NAME_MAX)) {
        fail(err, errlen, what, "\"name\" must be a name of 1..%d characters", POP_NAME_MAX - 1);
        goto done;
    }
    if (game && (!cJSON_IsString(game) || strcmp(game->valuestring, g->name) != 0)) {
        fail(err, errlen, what, "it is a population for game '%s', not %s",
             cJSON_IsString(game) ? game->valuestring : "?", g->name);
        goto done;
    }
    int n = cJSON_IsArray(members) ? cJSON_GetArraySize(members) : -1;
    if (n < 1 || n > POP_MAX_MEMBERS) {
        fail(err, errlen, what, "\"members\" must be an array of 1..%d members", POP_MAX_MEMBERS);
        goto done;
    }
    if (name) {
        snprintf(out->name, sizeof out->name, "%s", name->valuestring);
    } else { /* the file's name without its folder and .json */
        const char *base = strrchr(what, '/') ? strrchr(what, '/') + 1 : what;
        size_t len = strlen(base);
        if (len > 5 && strcmp(base + len - 5, ".json") == 0)
            len -= 5;
        snprintf(out->name, sizeof out->name, "%.*s", (int)len, base);
    }
    for (const char *c = out->name; *c; c++)
        if (*c == ',' || *c == '"' || *c == '/' || (unsigned char)*c < 32) {
            fail(err, errlen, what, "its name '%s' may not hold a comma, a quote, a slash or a "
                 "control character (give \"name\")", out->name);
            goto done;
        }
    out->game = g;
    out->nseats = nseats;
    double total = 0;
    for (int i = 0; i < n; i++) {
        pop_member *mb = &out->member[i];
        if (parse_member(g, cJSON_GetArrayItem(members, i), i, nseats, mb, what, err, errlen))
            goto done;
        for (int j = 0; j < i; j++)
            if (strcmp(out->member[j].type, mb->type) == 0) {
                fail(err, errlen, what, "members %d and %d are both of type '%s'", j + 1, i + 1,
                     mb->type);
                goto done;
            }
        total += mb->weight;
        out->cum[i] = total;
    }
    if (!isfinite(total)) {
        fail(err, errlen, what, "the members' weights add up to more than a number holds");
        goto done;
    }
    out->nmembers = n;
    rc = 0;
done:
    cJSON_Delete(root);
    return rc;
}

/* ---- loading, once per source ------------------------------------------------------------ */

typedef struct loaded {
    population *p;
    struct loaded *next;
} loaded;
static loaded *kept;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

const population *population_load(const game_type *g, const char *source, int nseats,
                                   char *err, size_t errlen)
{
    pthread_mutex_lock(&kept_lock);
    for (loaded *l = kept; l; l = l->next)
        if (l->p->game == g && l->p->nseats == nseats && strcmp(l->p->source, source) == 0) {
            pthread_mutex_unlock(&kept_lock);
            return l->p;
        }
    pthread_mutex_unlock(&kept_lock);
    if (*source == '\0')
        return fail(err, errlen, "", "pop: needs a population name or file (pop:NAME, pop:FILE)"),
               NULL;
    if (strlen(source) >= sizeof ((population *)0)->source)
        return fail(err, errlen, "...", "the name is too long"), NULL;
    const char *text = population_builtin(source);
    char *file = NULL;
    if (text == NULL && strchr(source, '/') == NULL && strstr(source, ".json") == NULL) {
        char names[512];
        population_builtin_names(g, names, sizeof names);
        return fail(err, errlen, source,
                    "no such built-in population for %s (built in: %s; or give a file)",
                    g->name, names[0] ? names : "none"),
               NULL;
    }
    if (text == NULL) {
        char e2[512];
        if ((file = rules_read_file(source, e2, sizeof e2)) == NULL)
            return fail(err, errlen, source, "%s", e2), NULL;
        text = file;
    }
    population *p = xmalloc(sizeof *p);
    int rc = population_parse(g, text, source, nseats, p, err, errlen);
    if (rc != 0) {
        free(file);
        free(p);
        return NULL;
    }
    snprintf(p->source, sizeof p->source, "%s", source);
    sha256 h;
    unsigned char d[SHA256_BYTES];
    sha256_init(&h);
    sha256_add(&h, text, strlen(text));
    sha256_end(&h, d);
    for (int i = 0; i < SHA256_BYTES; i++)
        snprintf(p->sha256 + 2 * i, 3, "%02x", d[i]);
    free(file);
    loaded *l = xmalloc(sizeof *l);
    pthread_mutex_lock(&kept_lock);
    l->p = p;
    l->next = kept;
    kept = l;
    pthread_mutex_unlock(&kept_lock);
    return p;
}

/* ---- a seat of --bots: pop:SOURCE --------------------------------------------------------- */

/* botspec's population hook (botspec_set_population): seat spec of pop:SOURCE. */
static int population_seat(const game_type *g, const char *source, int nseats, seat_spec *spec,
                           char *canon, size_t ncanon, char *err, size_t errlen)
{
    const population *p = population_load(g, source, nseats, err, errlen);
    if (p == NULL)
        return -1;
    memset(spec->param, 0, sizeof spec->param);
    spec->bot = &bot_population;
    spec->pop = p;
    if ((size_t)snprintf(canon, ncanon, "pop:%s", p->source) >= ncanon)
        return snprintf(err, errlen, "--bots: population name too long"), -1;
    return 0;
}

/* botspec knows populations through this hook, so that it does not depend on this file (which
 * depends on it): registered when the program starts. */
__attribute__((constructor)) static void register_population_seat(void)
{
    botspec_set_population(population_seat);
}
