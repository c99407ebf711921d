/* exp_settings.c — the settings an experiment plays, from its options: the --sweep grid, the
 * rotations of --rotate-seats, the moves of --sensitivity; each setting's slots (the figures it
 * pairs with the baseline) and how the game loop adds them. */
#include "experiment/experiment_priv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/botspec.h"
#include "core/numfmt.h"
#include "core/suggest.h"
#include "config/rules.h"
#include "core/xalloc.h"

bool exp_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*s == '\0' || *end || errno || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* Parses --sweep text into a. Returns 0 or -1 with a message. */
int exp_parse_axis(const char *text, axis *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    const char *eq = strchr(text, '=');
    if (eq == NULL || eq == text || eq[1] == '\0')
        return snprintf(err, errlen, "--sweep '%s': expected KEY=V1,V2,... or KEY=FROM:TO:STEP",
                        text),
               -1;
    if ((size_t)(eq - text) >= sizeof a->key)
        return snprintf(err, errlen, "--sweep '%.40s...': key too long", text), -1;
    memcpy(a->key, text, (size_t)(eq - text));
    a->kind = AXIS_RULE;
    int seat, used = 0;
    if (strcmp(a->key, "players") == 0) {
        a->kind = AXIS_PLAYERS;
    } else if (sscanf(a->key, "seat%d.%n", &seat, &used) == 1 && used > 0 &&
               a->key[used] != '\0') {
        if (seat < 1 || seat > GAME_MAX_SEATS)
            return snprintf(err, errlen, "--sweep '%s': seat must be 1..%d", a->key,
                            GAME_MAX_SEATS),
                   -1;
        a->kind = AXIS_PARAM;
        a->seat = seat - 1;
        snprintf(a->param, sizeof a->param, "%s", a->key + used);
    }
    const char *list = eq + 1;
    char buf[4096];
    if (strlen(list) >= sizeof buf)
        return snprintf(err, errlen, "--sweep '%s': list too long", a->key), -1;
    strcpy(buf, list);
    /* FROM:TO:STEP when all three are numbers */
    char *c1 = strchr(buf, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    double from, to, step;
    if (c1 && c2 && !strchr(c2 + 1, ':') && !strchr(buf, ',')) {
        *c1 = *c2 = '\0';
        if (!exp_number(buf, &from) || !exp_number(c1 + 1, &to) || !exp_number(c2 + 1, &step))
            return snprintf(err, errlen, "--sweep '%s': FROM:TO:STEP must be three numbers",
                            a->key),
                   -1;
        if (step == 0 || (to - from) / step < 0)
            return snprintf(err, errlen,
                            "--sweep '%s': STEP must be non-zero and lead from FROM to TO",
                            a->key),
                   -1;
        double count = floor((to - from) / step + 1e-9) + 1;
        if (count > EXP_MAX_SETTINGS)
            return snprintf(err, errlen, "--sweep '%s': more than %d values", a->key,
                            EXP_MAX_SETTINGS),
                   -1;
        a->nval = (int)count;
        a->val = xcalloc((size_t)a->nval, sizeof *a->val);
        for (int i = 0; i < a->nval; i++) {
            double v = from + step * i;
            char num[40];
            if (fabs(v - nearbyint(v)) < 1e-9 * (fabs(step) + 1)) {
                snprintf(num, sizeof num, "%.0f", nearbyint(v));
            } else {
                /* the shortest text within rounding of the grid: 0.1 * 3 is 0.3 */
                for (int prec = 1; prec <= 17; prec++) {
                    snprintf(num, sizeof num, "%.*g", prec, v);
                    if (fabs(strtod(num, NULL) - v) <= 1e-9 * fabs(step))
                        break;
                }
            }
            snprintf(a->val[i], VALUE_MAX, "%s", num);
        }
        return 0;
    }
    int n = 1;
    for (const char *p = buf; *p; p++)
        n += *p == ',';
    if (n > EXP_MAX_SETTINGS)
        return snprintf(err, errlen, "--sweep '%s': more than %d values", a->key,
                        EXP_MAX_SETTINGS),
               -1;
    a->val = xcalloc((size_t)n, sizeof *a->val);
    char *rest = buf;
    for (char *t = strsep(&rest, ","); t; t = strsep(&rest, ",")) {
        if (*t == '\0')
            return snprintf(err, errlen, "--sweep '%s': empty value in the list", a->key), -1;
        if (strlen(t) >= VALUE_MAX)
            return snprintf(err, errlen, "--sweep '%s': value too long", a->key), -1;
        strcpy(a->val[a->nval++], t);
    }
    return 0;
}

/* Replaces (or adds) parameter `param` of a canonical bot description with value. */
void exp_with_param(const char *canon, const char *param, const char *value, char *out,
                       size_t n)
{
    char buf[BOT_SPEC_MAX];
    snprintf(buf, sizeof buf, "%s", canon);
    char *rest = buf;
    size_t used = (size_t)snprintf(out, n, "%s", strsep(&rest, ":"));
    size_t plen = strlen(param);
    for (char *kv = strsep(&rest, ":"); kv && used < n; kv = strsep(&rest, ":"))
        if (!(strncmp(kv, param, plen) == 0 && kv[plen] == '='))
            used += (size_t)snprintf(out + used, n - used, ":%s", kv);
    if (used < n)
        snprintf(out + used, n - used, ":%s=%s", param, value);
}

/* Lays out the slots of setting S (see experiment.h: figures). */
static void build_slots(setting *S, const game_type *g)
{
    int nends = 0, ngm = 0, nsm = 0;
    while (g->end_names[nends])
        nends++;
    for (int m = 0; g->metrics && g->metrics[m].name; m++)
        *(g->metrics[m].scope == METRIC_GAME ? &ngm : &nsm) += 1;
    S->nends = nends, S->ngm = ngm, S->nsm = nsm;
    S->gm = xcalloc((size_t)ngm, sizeof *S->gm);
    S->sm = xcalloc((size_t)nsm, sizeof *S->sm);
    ngm = nsm = 0;
    for (int m = 0; g->metrics && g->metrics[m].name; m++) {
        if (g->metrics[m].scope == METRIC_GAME)
            S->gm[ngm++] = m;
        else
            S->sm[nsm++] = m;
    }
    S->ngame_slots = 3 + nends + ngm;
    S->group = 3 + nsm;
    int ngroups = S->nrot > 1 ? S->nbots : S->nseats;
    S->nslots = S->ngame_slots + ngroups * S->group + (S->nrot > 1 ? S->nseats : 0);
    /* the types of player of a run with populations, a group of slots each (not rotated:
     * a rotation's figures are by bot) */
    run_result types = {0};
    S->ntypes = 0;
    S->type_slots = S->nslots;
    if (S->nrot == 1 && S->group <= EXP_TYPE_GROUP_MAX) {
        run_result_init(&types, &S->cfg[0], false);
        S->ntypes = types.ntypes;
    }
    S->nslots += S->ntypes * S->group;
    S->slot = xcalloc((size_t)S->nslots, sizeof *S->slot);
    int i = 0;
    const char *fixed[3] = {"length", "ties", "no_winner"};
    for (int k = 0; k < 3; k++)
        snprintf(S->slot[i++].name, sizeof S->slot[0].name, "%s", fixed[k]);
    for (int e = 0; e < nends; e++)
        snprintf(S->slot[i++].name, sizeof S->slot[0].name, "ended.%s", g->end_names[e]);
    for (int m = 0; g->metrics && g->metrics[m].name; m++)
        if (g->metrics[m].scope == METRIC_GAME)
            snprintf(S->slot[i++].name, sizeof S->slot[0].name, "%s", g->metrics[m].name);
    for (int k = 0; k < ngroups; k++) {
        const char *names[3] = {"win_share", g->score_name, "rank"};
        for (int j = 0; j < 3; j++) {
            snprintf(S->slot[i].name, sizeof S->slot[0].name, "%s", names[j]);
            S->slot[i].unit = j == 0 ? RUN_WIN_UNIT : 1;
            (S->nrot > 1 ? &S->slot[i].bot : &S->slot[i].seat)[0] = k + 1;
            i++;
        }
        for (int m = 0; g->metrics && g->metrics[m].name; m++)
            if (g->metrics[m].scope == METRIC_SEAT) {
                snprintf(S->slot[i].name, sizeof S->slot[0].name, "%s", g->metrics[m].name);
                (S->nrot > 1 ? &S->slot[i].bot : &S->slot[i].seat)[0] = k + 1;
                i++;
            }
    }
    if (S->nrot > 1)
        for (int k = 0; k < S->nseats; k++) {
            snprintf(S->slot[i].name, sizeof S->slot[0].name, "seat_advantage");
            S->slot[i].unit = RUN_WIN_UNIT;
            S->slot[i++].seat = k + 1;
        }
    for (int t = 0; t < S->ntypes; t++) { /* as a seat's group; counts vary game to game */
        const char *names[3] = {"win_share", g->score_name, "rank"};
        for (int j = 0; j < S->group; j++) {
            const char *nm = j < 3 ? names[j] : g->metrics[S->sm[j - 3]].name;
            snprintf(S->slot[i].name, sizeof S->slot[0].name, "%s", nm);
            snprintf(S->slot[i].type, sizeof S->slot[0].type, "%s", types.type_name[t]);
            S->slot[i].unit = j == 0 ? RUN_WIN_UNIT : 1;
            i++;
        }
    }
    if (types.rec)
        run_result_free(&types);
    for (int j = 0; j < S->nslots; j++)
        if (S->slot[j].unit == 0)
            S->slot[j].unit = 1;
    /* constant counts: one per play for the fixed game figures, and for a group's win share
     * and score one per play of each seat in the group */
    for (int j = 0; j < 3 + nends; j++)
        S->slot[j].cconst = S->nrot;
    for (int k = 0; k < ngroups; k++) {
        int seats = 1;
        if (S->nrot > 1) {
            seats = 0;
            for (int q = 0; q < S->nseats; q++)
                seats += S->botid[q] == k;
        }
        int j = S->ngame_slots + k * S->group;
        S->slot[j].cconst = (int64_t)RUN_WIN_UNIT * S->nrot * seats;
        S->slot[j + 1].cconst = (int64_t)S->nrot * seats;
    }
    if (S->nrot > 1)
        for (int k = 0; k < S->nseats; k++)
            S->slot[S->ngame_slots + S->nbots * S->group + k].cconst =
                (int64_t)RUN_WIN_UNIT * S->nrot;
}

/* Tells how the game loop adds each slot of setting S (not the baseline B when is_base):
 * unpaired (the baseline itself, or no baseline slot) or paired, with a constant count or not
 * (see pair64 in exp_engine.c). */
static void classify(setting *S, const setting *B, bool is_base)
{
    S->op = xcalloc((size_t)S->nslots, sizeof *S->op);
    for (int j = 0; j < S->nslots; j++) {
        int b = S->pair[j], m;
        bool k = S->slot[j].cconst != 0;
        if (is_base || b < 0)
            m = k ? SLOT_SELF_CONST : SLOT_SELF;
        else
            m = k && B->slot[b].cconst ? SLOT_CONST : SLOT_FULL;
        S->op[j] = (slot_op){m, b, S->slot[j].cconst, b >= 0 ? B->slot[b].cconst : 0};
    }
    S->aligned = !is_base && S->nslots == B->nslots;
    for (int j = 0; j < S->nslots && S->aligned; j++)
        S->aligned = S->pair[j] == j &&
                     S->op[j].kind == (S->slot[j].cconst ? SLOT_CONST : SLOT_FULL);
}

/* The slot of S with this name, seat and bot (0: none), or -1. */
static int find_slot(const setting *S, const char *name, int seat, int bot, const char *type)
{
    for (int j = 0; j < S->nslots; j++)
        if (strcmp(S->slot[j].name, name) == 0 && S->slot[j].seat == seat &&
            S->slot[j].bot == bot && strcmp(S->slot[j].type, type) == 0)
            return j;
    return -1;
}

int exp_resolve_figure(const setting *S, const char *opt, const char *fig, char *err,
                       size_t errlen)
{
    char name[128];
    snprintf(name, sizeof name, "%s", fig);
    int derived = exp_derived_find(name);
    if (derived != -1)
        return derived; /* seat_spread, first_seat: every setting has them */
    int k = 0;
    char *at = strchr(name, '@');
    if (at && at[1] != '\0' && (at[1] < '0' || at[1] > '9')) { /* NAME@TYPE */
        *at = '\0';
        int j = find_slot(S, name, 0, 0, at + 1);
        if (j >= 0)
            return j;
        char types[1024] = "";
        size_t used = 0;
        for (int i = S->type_slots; i < S->nslots && used < sizeof types; i += S->group)
            used += (size_t)snprintf(types + used, sizeof types - used, "%s%s", used ? ", " : "",
                                     S->slot[i].type);
        if (S->ntypes == 0)
            return snprintf(err, errlen, "%s '%s': no type of player '%s' (the seats draw from no "
                            "population%s)", opt, fig, at + 1,
                            S->nrot > 1 ? "; a rotation's figures are by bot" : ""),
                   -1;
        return snprintf(err, errlen, "%s '%s': no such figure of type '%s' (types: %s)", opt,
                        fig, at + 1, types),
               -1;
    }
    if (at) {
        char *end;
        long v = strtol(at + 1, &end, 10);
        if (at[1] < '0' || at[1] > '9' || *end || v < 1 || v > S->nseats)
            return snprintf(err, errlen, "%s '%s': seat must be 1..%d", opt, fig, S->nseats), -1;
        *at = '\0';
        k = (int)v;
    }
    int j = -1;
    if (k == 0)
        j = find_slot(S, name, 0, 0, "");
    else if (S->nrot > 1 && strcmp(name, "seat_advantage") == 0)
        j = find_slot(S, name, k, 0, "");
    else if (S->nrot > 1)
        j = find_slot(S, name, 0, S->botid[k - 1] + 1, "");
    else
        j = find_slot(S, name, k, 0, "");
    if (j >= 0)
        return j;
    const char **all = xcalloc((size_t)S->nslots + 1, sizeof *all);
    for (int i = 0; i < S->nslots; i++)
        all[i] = S->slot[i].name;
    const char *near = suggest_nearest(name, all, (size_t)S->nslots);
    char hint[160] = "";
    if (near)
        snprintf(hint, sizeof hint, "%s%s", near, at ? strchr(fig, '@') : "");
    free(all);
    if (near)
        return snprintf(err, errlen, "%s: no figure '%s' (did you mean %s?)", opt, fig, hint), -1;
    char names[2048];
    size_t used = 0;
    names[0] = '\0';
    for (int i = 0; i < S->nslots && used < sizeof names; i++) {
        bool first_of_kind = S->slot[i].seat + S->slot[i].bot <= 1 && !S->slot[i].type[0];
        if (!first_of_kind)
            continue;
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s%s", used ? ", " : "",
                                 S->slot[i].name, S->slot[i].seat + S->slot[i].bot ? "@K" : "");
    }
    return snprintf(err, errlen, "%s: no figure '%s' (figures: %s, seat_spread, first_seat)",
                    opt, fig, names),
           -1;
}

/* The effective ruleset of the options with nextra more --set assignments after theirs: as
 * rules_effective_files, or from o->ruleset when the configs and sets were applied already. */
static void *effective_rules(const exp_options *o, const char *const *extra, int nextra,
                             cJSON **json, char *err, size_t errlen)
{
    const game_type *g = o->game;
    if (o->ruleset) {
        cJSON *tree = cJSON_Duplicate(o->ruleset, 1);
        for (int i = 0; i < nextra; i++)
            if (rules_set(g, tree, extra[i], err, errlen) != 0) {
                cJSON_Delete(tree);
                return NULL;
            }
        void *rules = xcalloc(1, g->rules_size ? g->rules_size : 1);
        if (g->rules_load(rules, tree, err, errlen) != 0) {
            free(rules);
            cJSON_Delete(tree);
            return NULL;
        }
        *json = tree;
        rules_remember(rules, tree);
        return rules;
    }
    const char **sets = xcalloc((size_t)(o->nsets + nextra), sizeof *sets);
    for (int i = 0; i < o->nsets; i++)
        sets[i] = o->sets[i];
    for (int i = 0; i < nextra; i++)
        sets[o->nsets + i] = extra[i];
    void *rules = rules_effective_files(g, o->configs, o->nconfigs, sets, o->nsets + nextra, json,
                                        err, errlen);
    free(sets);
    return rules;
}

/* Builds the setting with the given extra --set assignments, players and seat parameters.
 * Returns 0, or -1 with a message. */
int exp_make_setting(setting *S, const exp_options *o, const char *const *extra, int nextra,
                        int players, const axis *ax, const int *pick, int nax, char *err,
                        size_t errlen)
{
    const game_type *g = o->game;
    char e2[512];
    S->rules = effective_rules(o, extra, nextra, &S->ruleset, e2, sizeof e2);
    if (S->rules == NULL)
        return snprintf(err, errlen, "setting %s: %s", S->label, e2), -1;
    seat_spec seat[GAME_MAX_SEATS];
    int n = botspec_parse_list(g, o->bots ? o->bots : g->default_bot, players, seat, S->canon,
                               e2, sizeof e2);
    if (n < 0)
        return snprintf(err, errlen, "setting %s: %s", S->label, e2), -1;
    if (n < g->min_seats || n > g->max_seats)
        return snprintf(err, errlen, "setting %s: %s is for %d-%d players, not %d", S->label,
                        g->name, g->min_seats, g->max_seats, n),
               -1;
    for (int a = 0; a < nax; a++) {
        if (ax[a].kind != AXIS_PARAM)
            continue;
        if (ax[a].seat >= n)
            return snprintf(err, errlen, "--sweep '%s': the game has %d players", ax[a].key, n),
                   -1;
        char text[BOT_SPEC_MAX];
        exp_with_param(S->canon[ax[a].seat], ax[a].param, ax[a].val[pick[a]], text, sizeof text);
        if (botspec_parse_at(g, text, n, &seat[ax[a].seat], S->canon[ax[a].seat],
                             BOT_SPEC_MAX, e2, sizeof e2) != 0)
            return snprintf(err, errlen, "--sweep '%s': %s", ax[a].key, e2), -1;
    }
    if (g->rules_check && g->rules_check(S->rules, n, e2, sizeof e2) != 0)
        return snprintf(err, errlen, "setting %s: %s", S->label, e2), -1;
    S->nseats = n;
    S->nrot = o->rotate ? n : 1;
    for (int k = 0; k < n; k++) {
        int b = 0;
        while (b < k && strcmp(S->canon[b], S->canon[k]) != 0)
            b++;
        S->botid[k] = b == k ? S->nbots++ : S->botid[b];
    }
    for (int r = 0; r < S->nrot; r++) {
        run_config *c = &S->cfg[r];
        c->game = g;
        c->rules = S->rules;
        c->nseats = n;
        for (int k = 0; k < n; k++)
            c->seat[k] = seat[(k + r) % n];
        c->runs = o->runs;
        c->seed = o->seed;
        c->threads = o->threads;
    }
    build_slots(S, g);
    S->until_slot = -1;
    S->active = true;
    return 0;
}

void exp_free_setting(setting *S)
{
    cJSON_Delete(S->values);
    cJSON_Delete(S->ruleset);
    cJSON_Delete(S->exact);
    free(S->rules);
    free(S->slot);
    free(S->gm);
    free(S->sm);
    free(S->pair);
    free(S->op);
    free(S->acc);
    free(S->sum);
    free(S->bsum);
    if (S->res.rec)
        run_result_free(&S->res);
    if (S->bres.rec)
        run_result_free(&S->bres);
}

/* Looks up the value at dotted path in game g's ruleset; NULL if there is none. Elements are
 * numbered as --set numbers them (rules_first_number). */
static const cJSON *leaf(const game_type *g, const cJSON *root, const char *path)
{
    char buf[256], key[RULES_KEY_LEN] = "";
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *node = root;
    char *save = NULL;
    for (char *p = strtok_r(buf, ".", &save); p && node; p = strtok_r(NULL, ".", &save)) {
        size_t kn = strlen(key);
        if (cJSON_IsArray(node)) {
            char *end;
            long i = strtol(p, &end, 10) - rules_first_number(g, key);
            node = (*p >= '0' && *p <= '9' && !*end && i >= 0) ? cJSON_GetArrayItem(node, (int)i)
                                                               : NULL;
            snprintf(key + kn, sizeof key - kn, "[]");
        } else {
            node = cJSON_GetObjectItemCaseSensitive(node, p);
            snprintf(key + kn, sizeof key - kn, "%s%s", kn ? "." : "", p);
        }
    }
    return node;
}

int exp_check_options(experiment *x, char *err, size_t errlen)
{
    const exp_options *o = x->o;
    if (o->nsweeps > EXP_MAX_SWEEPS) {
        snprintf(err, errlen, "at most %d --sweep options", EXP_MAX_SWEEPS);
        return 2;
    }
    if (o->sensitivity && o->nsweeps > 0) {
        snprintf(err, errlen, "--sensitivity cannot be combined with --sweep");
        return 2;
    }
    if (o->sensitivity && o->metric == NULL) {
        snprintf(err, errlen, "--sensitivity needs --metric=FIGURE (e.g. length, win_share@1)");
        return 2;
    }
    if (o->sensitivity && o->metric && strchr(o->metric, ',')) {
        snprintf(err, errlen, "--sensitivity takes one --metric, not a list");
        return 2;
    }
    if (o->baseline && o->nsweeps == 0) {
        snprintf(err, errlen, "--baseline names values of the --sweep options: give a --sweep");
        return 2;
    }
    if (o->until) {
        const char *colon = strrchr(o->until, ':');
        char *end;
        if (colon == NULL || colon == o->until || (size_t)(colon - o->until) >= sizeof x->until_fig)
            return snprintf(err, errlen, "--until '%s': expected FIGURE:HALFWIDTH", o->until), 2;
        errno = 0;
        x->target = strtod(colon + 1, &end);
        if (colon[1] == '\0' || *end || errno || !(x->target > 0) || !isfinite(x->target))
            return snprintf(err, errlen,
                            "--until '%s': the half-width must be a number above 0", o->until),
                   2;
        memcpy(x->until_fig, o->until, (size_t)(colon - o->until));
    }

    return 0;
}

/* The values other than its own that an enum key of ruleset `base` takes: the game's
 * message for a value it cannot hold lists them ("expected one of "a", "b""). Returns how many
 * (at most max), 0 if the key is no enum. */
static int enum_choices(const exp_options *o, const char *key, const char *own,
                        char (*out)[SENS_VALUE_MAX], int max)
{
    char assign[400], e2[512];
    snprintf(assign, sizeof assign, "%s=\"?\"", key); /* a value no enum of ours has */
    const char *extra[1] = {assign};
    cJSON *tree = NULL;
    void *rules = effective_rules(o, extra, 1, &tree, e2, sizeof e2);
    free(rules);
    cJSON_Delete(tree);
    if (rules)
        return 0; /* any string goes: not an enum */
    const char *p = strstr(e2, "expected one of ");
    int n = 0;
    for (p = p ? p + 16 : NULL; p && *p == '"' && n < max;) {
        const char *q = strchr(p + 1, '"');
        if (q == NULL || q - p - 1 >= SENS_VALUE_MAX - 2)
            break;
        if ((size_t)(q - p - 1) != strlen(own) || strncmp(p + 1, own, (size_t)(q - p - 1)) != 0)
            snprintf(out[n++], SENS_VALUE_MAX, "%.*s", (int)(q - p - 1), p + 1);
        p = q + 1;
        if (strncmp(p, ", ", 2) == 0)
            p += 2;
    }
    return n;
}

/* Reads --step: "P%" (a share of each key's default) or "U" (units). Returns 0, or 2. */
static int parse_step(const exp_options *o, double *amount, bool *percent, char *err,
                      size_t errlen)
{
    *amount = 10, *percent = true;
    if (o->step == NULL)
        return 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", o->step);
    size_t n = strlen(buf);
    *percent = n > 0 && buf[n - 1] == '%';
    if (*percent)
        buf[n - 1] = '\0';
    if (!exp_number(buf, amount) || !(*amount > 0))
        return snprintf(err, errlen,
                        "--step '%s': expected a percentage above 0 (10%%) or units (1)",
                        o->step),
               2;
    return 0;
}

/* Adds to x the key at path of ruleset base (or says why it cannot be moved): a number moved
 * down and up by the step, a boolean set to the other value, an enum set to each other value
 * (one row each). Returns 0, or 2 with a message when strict (a key the user named). */
static int add_key(experiment *x, const cJSON *base, const char *path, bool strict,
                   double amount, bool percent, char *err, size_t errlen)
{
    const cJSON *v = leaf(x->o->game, base, path);
    sens_key K;
    memset(&K, 0, sizeof K);
    snprintf(K.key, sizeof K.key, "%s", path);
    K.side[0] = K.side[1] = -1;
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        bool whole = d == floor(d) && fabs(d) < 1e15;
        K.kind = SENS_NUMBER;
        K.def = d;
        if (percent)
            K.step = whole ? fmax(1, round(amount / 100 * fabs(d)))
                           : (d == 0 ? amount / 100 : amount / 100 * fabs(d));
        else
            K.step = whole ? fmax(1, round(amount)) : amount;
        numfmt_double(K.defval, sizeof K.defval, d);
        numfmt_double(K.val[0], sizeof K.val[0], d - K.step);
        numfmt_double(K.val[1], sizeof K.val[1], d + K.step);
        x->keys[x->nkeys++] = K;
        return 0;
    }
    if (cJSON_IsBool(v)) {
        K.kind = SENS_BOOL;
        snprintf(K.defval, sizeof K.defval, "%s", cJSON_IsTrue(v) ? "true" : "false");
        snprintf(K.val[1], sizeof K.val[1], "%s", cJSON_IsTrue(v) ? "false" : "true");
        x->keys[x->nkeys++] = K;
        return 0;
    }
    if (cJSON_IsString(v) && strlen(v->valuestring) < SENS_VALUE_MAX - 2) {
        char alt[SENS_MAX_CHOICES][SENS_VALUE_MAX];
        int n = enum_choices(x->o, path, v->valuestring, alt, SENS_MAX_CHOICES);
        if (n == 0 && strict)
            return snprintf(err, errlen, "--sensitivity: '%s' takes any text: no values to try",
                            path),
                   2;
        K.kind = SENS_ENUM;
        snprintf(K.defval, sizeof K.defval, "\"%s\"", v->valuestring);
        for (int i = 0; i < n; i++) {
            if (x->nkeys == x->capkeys)
                break;
            sens_key *E = &x->keys[x->nkeys++];
            *E = K;
            snprintf(E->val[1], sizeof E->val[1], "\"%.*s\"", SENS_VALUE_MAX - 3, alt[i]);
        }
        return 0;
    }
    if (strict)
        return snprintf(err, errlen,
                        "--sensitivity: '%s' is not a number, a boolean or an enum of the "
                        "ruleset (name an element by its dotted path, e.g. weights.0)",
                        path),
               2;
    return 0;
}

int exp_sensitivity_settings(experiment *x, char *err, size_t errlen)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
    double amount;
    bool percent;
    if (parse_step(o, &amount, &percent, err, errlen) != 0)
        return 2;
    cJSON *base = NULL;
    void *rules = effective_rules(o, NULL, 0, &base, err, errlen);
    if (rules == NULL)
        return 2;
    free(rules);
    int cap = 0;
    if (o->sensitivity_keys) {
        cap = 1;
        for (const char *p = o->sensitivity_keys; *p; p++)
            cap += *p == ',';
    } else {
        cap = cJSON_GetArraySize(base);
    }
    x->capkeys = cap * SENS_MAX_CHOICES;
    x->keys = xcalloc((size_t)x->capkeys, sizeof *x->keys);
    int rc = 0;
    if (o->sensitivity_keys) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", o->sensitivity_keys);
        char *rest = buf;
        for (char *t = strsep(&rest, ","); t && rc == 0; t = strsep(&rest, ","))
            rc = add_key(x, base, t, true, amount, percent, err, errlen);
    } else {
        for (const cJSON *c = base->child; c && rc == 0; c = c->next)
            rc = add_key(x, base, c->string, false, amount, percent, err, errlen);
    }
    cJSON_Delete(base);
    if (rc != 0)
        return 2; /* experiment_run frees the keys */
    if (x->nkeys == 0) {
        snprintf(err, errlen, "--sensitivity: the ruleset of %s has no key to move", g->name);
        return 2;
    }
    x->set = xcalloc((size_t)(1 + 2 * x->nkeys), sizeof *x->set);
    snprintf(x->set[0].label, sizeof x->set[0].label, "default");
    x->set[0].values = cJSON_CreateObject();
    x->nset = 1; /* freed with the experiment, whole or not */
    if (exp_make_setting(&x->set[0], o, NULL, 0, o->players, NULL, NULL, 0, err, errlen) != 0)
        return 2;
    for (int k = 0; k < x->nkeys; k++) {
        sens_key *K = &x->keys[k];
        for (int side = 0; side < 2; side++) {
            if (K->val[side][0] == '\0')
                continue; /* a boolean or an enum moves one way */
            char assign[400];
            snprintf(assign, sizeof assign, "%s=%s", K->key, K->val[side]);
            setting *S = &x->set[x->nset];
            memset(S, 0, sizeof *S);
            snprintf(S->label, sizeof S->label, "%s", assign);
            S->values = cJSON_CreateObject();
            cJSON *jv = cJSON_Parse(K->val[side]);
            cJSON_AddItemToObject(S->values, K->key, jv ? jv : cJSON_CreateString(K->val[side]));
            const char *extra[1] = {assign};
            char e2[512];
            if (exp_make_setting(S, o, extra, 1, o->players, NULL, NULL, 0, e2, sizeof e2) != 0) {
                /* a move outside the key's range is reported, not fatal */
                const char *msg = strstr(e2, ": ") ? strstr(e2, ": ") + 2 : e2;
                snprintf(K->skipped[side], sizeof K->skipped[0], "%s", msg);
                exp_free_setting(S);
                memset(S, 0, sizeof *S);
                continue;
            }
            K->side[side] = x->nset++;
        }
    }
    return 0;
}

int exp_sweep_settings(experiment *x, char *err, size_t errlen)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
    for (int a = 0; a < o->nsweeps; a++) {
        if (exp_parse_axis(o->sweeps[a], &x->ax[a], err, errlen) != 0) {
            x->nax = a + 1;
            return 2;
        }
        x->nax = a + 1;
        for (int b = 0; b < a; b++)
            if (strcmp(x->ax[a].key, x->ax[b].key) == 0) {
                snprintf(err, errlen, "--sweep '%s' is given twice", x->ax[a].key);
                return 2;
            }
    }
    long total = 1;
    for (int a = 0; a < x->nax; a++) {
        total *= x->ax[a].nval;
        if (total > EXP_MAX_SETTINGS) {
            snprintf(err, errlen, "the sweeps make more than %d settings", EXP_MAX_SETTINGS);
            return 2;
        }
    }
    x->set = xcalloc((size_t)total, sizeof *x->set);
    for (long i = 0; i < total; i++) {
        int pick[EXP_MAX_SWEEPS];
        long rest = i;
        for (int a = x->nax - 1; a >= 0; a--) {
            pick[a] = (int)(rest % x->ax[a].nval);
            rest /= x->ax[a].nval;
        }
        setting *S = &x->set[x->nset];
        S->values = cJSON_CreateObject();
        const char *extra[EXP_MAX_SWEEPS];
        char assign[EXP_MAX_SWEEPS][VALUE_MAX + 130];
        int nextra = 0, players = o->players;
        size_t used = 0;
        for (int a = 0; a < x->nax; a++) {
            const char *v = x->ax[a].val[pick[a]];
            snprintf(S->raw[a], VALUE_MAX, "%s", v);
            used += (size_t)snprintf(S->label + used, sizeof S->label - used, "%s%s=%s",
                                     a ? " " : "", x->ax[a].key, v);
            if (used >= sizeof S->label)
                used = sizeof S->label - 1;
            cJSON *jv = cJSON_Parse(v);
            cJSON_AddItemToObject(S->values, x->ax[a].key, jv ? jv : cJSON_CreateString(v));
            if (x->ax[a].kind == AXIS_RULE) {
                snprintf(assign[nextra], sizeof assign[0], "%.127s=%.255s", x->ax[a].key, v);
                extra[nextra] = assign[nextra];
                nextra++;
            } else if (x->ax[a].kind == AXIS_PLAYERS) {
                char *end;
                long p = strtol(v, &end, 10);
                if (*v < '0' || *v > '9' || *end || p < g->min_seats || p > g->max_seats) {
                    snprintf(err, errlen, "--sweep 'players': '%s' is not %d..%d", v,
                             g->min_seats, g->max_seats);
                    x->nset++;
                    return 2;
                }
                players = (int)p;
            }
        }
        if (x->nax == 0)
            snprintf(S->label, sizeof S->label, "default");
        x->nset++;
        if (exp_make_setting(S, o, extra, nextra, players, x->ax, pick, x->nax, err, errlen) != 0)
            return 2;
    }
    return 0;
}

int exp_pair_settings(experiment *x, char *err, size_t errlen)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
    x->base = 0;
    if (o->baseline) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", o->baseline);
        char *want[EXP_MAX_SWEEPS];
        int nwant = 0;
        char *rest = buf;
        for (char *t = strsep(&rest, ","); t && nwant < EXP_MAX_SWEEPS; t = strsep(&rest, ","))
            want[nwant++] = t;
        if (nwant != x->nax) {
            snprintf(err, errlen, "--baseline '%s': give one value per --sweep (%d)",
                     o->baseline, x->nax);
            return 2;
        }
        x->base = -1;
        for (int s = 0; s < x->nset && x->base < 0; s++) {
            bool match = true;
            for (int a = 0; a < x->nax; a++) {
                double u, v;
                match = match && (strcmp(x->set[s].raw[a], want[a]) == 0 ||
                                  (exp_number(x->set[s].raw[a], &u) && exp_number(want[a], &v) && u == v));
            }
            if (match)
                x->base = s;
        }
        if (x->base < 0) {
            snprintf(err, errlen, "--baseline '%s': no setting has these values", o->baseline);
            return 2;
        }
    }
    for (int s = 0; s < x->nset; s++) {
        setting *S = &x->set[s];
        S->pair = xcalloc((size_t)S->nslots, sizeof *S->pair);
        for (int j = 0; j < S->nslots; j++)
            S->pair[j] =
                find_slot(&x->set[x->base], S->slot[j].name, S->slot[j].seat, S->slot[j].bot,
                          S->slot[j].type);
        classify(S, &x->set[x->base], s == x->base);
        if (o->until && (S->until_slot = exp_resolve_figure(S, "--until", x->until_fig, err,
                                                         errlen)) == -1)
            return 2;
        char figs[1024];
        snprintf(figs, sizeof figs, "%s", o->metric ? o->metric : "");
        char *rest = figs;
        for (char *t = strsep(&rest, ","); o->metric && t; t = strsep(&rest, ","))
            if (exp_resolve_figure(S, "--metric", t, err, errlen) == -1)
                return 2;
        S->acc = xcalloc((size_t)S->nslots, sizeof *S->acc);
        if (o->exact && g->exact && S->nrot == 1) {
            seat_bots sb = {.nseats = S->nseats};
            for (int k = 0; k < S->nseats; k++) {
                sb.bot[k] = S->cfg[0].seat[k].bot;
                sb.param[k] = S->cfg[0].seat[k].param;
            }
            S->exact = g->exact(S->rules, &sb);
        }
    }
    if (o->exact && g->exact == NULL) {
        snprintf(err, errlen, "--exact: game %s has no exact analysis", g->name);
        return 2;
    }

    return 0;
}
