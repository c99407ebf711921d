/* exp_report.c — the report tree of a played experiment: each setting's report (the run
 * report, or the per-bot report of a rotation), its paired differences from the baseline,
 * --until's outcome, and the sensitivity table. */
#include "experiment/experiment_priv.h"
#include "core/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/rules.h"

/* A number, or null for NAN (undefined). */
static cJSON *num_or_null(double v)
{
    return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

/* [lo, hi], or null when undefined. */
static cJSON *interval(double lo, double hi)
{
    if (isnan(lo))
        return cJSON_CreateNull();
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_CreateNumber(lo));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(hi));
    return a;
}

/* What a seat advantage subtracts from the seat's win share: 1/N (0 for other figures and
 * the derived ones, which shift themselves). */
static double adv_shift(const setting *S, int j)
{
    return exp_derived(j) ? 0 : strcmp(S->slot[j].name, "seat_advantage") == 0 ? 1.0 / S->nseats : 0;
}

/* The estimates of (non-derived) slot j of S inside its support (exp_pair_bounded; a rank's
 * interval inside [1, N]), unshifted. */
static void slot_bounded(const setting *S, int j, exp_estimate *e)
{
    exp_pair_bounded(&S->acc[j], exp_slot_support(S, j), S->slot[j].unit, e);
    if (strcmp(S->slot[j].name, "rank") == 0 && !isnan(e->lo)) /* tied seats share a rank */
        e->lo = fmax(e->lo, 1), e->hi = fmin(e->hi, S->nseats);
}

void exp_slot_est(const setting *S, int j, const setting *B, exp_estimate *e)
{
    if (exp_derived(j)) {
        exp_fair_est(S, j, B, e);
        return;
    }
    slot_bounded(S, j, e);
    if (B == NULL)
        e->base = e->diff = e->dlo = e->dhi = e->ulo = e->uhi = NAN;
    double a = adv_shift(S, j);
    if (a == 0)
        return;
    double b = B ? 1.0 / B->nseats : 0, d = a - b;
    e->value -= a, e->lo -= a, e->hi -= a, e->base -= b;
    e->diff -= d, e->dlo -= d, e->dhi -= d, e->ulo -= d, e->uhi -= d;
}

/* {"value", "ci95", "n"} of slot j of S (n: observations, or games for win shares and the
 * derived figures, whose shift is their own). */
static cJSON *slot_estimate(const setting *S, int j, double shift)
{
    exp_estimate est;
    if (exp_derived(j)) {
        exp_fair_est(S, j, NULL, &est);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "value", num_or_null(est.value));
        cJSON_AddItemToObject(o, "ci95", interval(est.lo, est.hi));
        cJSON_AddNumberToObject(o, "n", (double)S->games);
        return o;
    }
    slot_bounded(S, j, &est);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "value", num_or_null(est.value - shift));
    cJSON_AddItemToObject(o, "ci95", interval(est.lo - shift, est.hi - shift));
    cJSON_AddNumberToObject(o, "n", (double)(S->acc[j].c / S->slot[j].unit));
    return o;
}

/* The report of a setting under --rotate-seats, from its per-deal sums. */
static cJSON *rotation_report(const setting *S, const game_type *g)
{
    cJSON *r = report_header(g, (double)S->games, S->cfg[0].seed, S->nseats, S->ruleset);
    cJSON_AddNumberToObject(r, "rotations", S->nrot);
    cJSON_AddNumberToObject(r, "plays", (double)S->games * S->nrot);
    cJSON *bots = cJSON_AddArrayToObject(r, "bots");
    for (int b = 0; b < S->nbots; b++) {
        cJSON *o = cJSON_CreateObject();
        int k0 = 0;
        while (S->botid[k0] != b)
            k0++;
        cJSON_AddStringToObject(o, "bot", S->canon[k0]);
        cJSON *seats = cJSON_AddArrayToObject(o, "seats");
        for (int k = 0; k < S->nseats; k++)
            if (S->botid[k] == b)
                cJSON_AddItemToArray(seats, cJSON_CreateNumber(k + 1));
        cJSON *metrics = NULL;
        for (int j = S->ngame_slots + b * S->group, i = 0; i < S->group; i++, j++) {
            if (i == 3)
                metrics = cJSON_AddObjectToObject(o, "metrics");
            cJSON_AddItemToObject(i < 3 ? o : metrics, S->slot[j].name, slot_estimate(S, j, 0));
        }
        if (metrics == NULL)
            cJSON_AddObjectToObject(o, "metrics");
        cJSON_AddItemToArray(bots, o);
    }
    cJSON *adv = cJSON_AddArrayToObject(r, "seat_advantage");
    for (int k = 0; k < S->nseats; k++) {
        int j = S->ngame_slots + S->nbots * S->group + k;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "seat", k + 1);
        cJSON_AddItemToObject(o, "win_share", slot_estimate(S, j, 0));
        cJSON_AddItemToObject(o, "advantage", slot_estimate(S, j, 1.0 / S->nseats));
        cJSON_AddItemToArray(adv, o);
    }
    cJSON *m = cJSON_AddObjectToObject(r, "metrics");
    for (int j = 0; j < S->ngame_slots; j++)
        cJSON_AddItemToObject(m, S->slot[j].name, slot_estimate(S, j, 0));
    return r;
}

/* The report of one setting alone (without its "run" object). */
static cJSON *setting_report(const setting *S, const game_type *g)
{
    if (S->nrot > 1)
        return rotation_report(S, g);
    report_input in = {.cfg = &S->cfg[0], .res = &S->res, .ruleset = S->ruleset,
                       .exact = S->exact};
    for (int k = 0; k < S->nseats; k++)
        in.bot_spec[k] = S->canon[k];
    cJSON *r = report_build(&in);
    cJSON_DeleteItemFromObjectCaseSensitive(r, "run");
    return r;
}

/* The differences of every paired figure of S from the baseline, as rows. */
static cJSON *differences(const setting *S, const setting *B)
{
    cJSON *arr = cJSON_CreateArray();
    for (int j = 0; j < S->nslots; j++) {
        if (S->pair[j] < 0)
            continue;
        exp_estimate est;
        exp_slot_est(S, j, B, &est);
        if (isnan(est.diff))
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "metric", S->slot[j].name);
        if (S->slot[j].type[0])
            cJSON_AddStringToObject(o, "type", S->slot[j].type);
        if (S->slot[j].seat)
            cJSON_AddNumberToObject(o, "seat", S->slot[j].seat);
        if (S->slot[j].bot) {
            int k0 = 0;
            while (S->botid[k0] != S->slot[j].bot - 1)
                k0++;
            cJSON_AddStringToObject(o, "bot", S->canon[k0]);
        } else if (S->slot[j].seat && S->nrot == 1) {
            cJSON_AddStringToObject(o, "bot", S->canon[S->slot[j].seat - 1]);
        }
        cJSON_AddNumberToObject(o, "value", est.diff);
        cJSON_AddItemToObject(o, "ci95", interval(est.dlo, est.dhi));
        cJSON_AddItemToObject(o, "ci95_unpaired", interval(est.ulo, est.uhi));
        double hp = (est.dhi - est.dlo) / 2, hu = (est.uhi - est.ulo) / 2;
        cJSON_AddItemToObject(o, "narrowing", num_or_null(hp > 0 ? hu / hp : NAN));
        cJSON_AddNumberToObject(o, "n", (double)S->acc[j].n);
        cJSON_AddItemToArray(arr, o);
    }
    for (int j = FIG_SEAT_SPREAD; j >= FIG_FIRST_SEAT; j--) {
        exp_estimate est;
        exp_slot_est(S, j, B, &est);
        if (isnan(est.diff))
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "metric", exp_derived_name(j));
        cJSON_AddNumberToObject(o, "value", est.diff);
        cJSON_AddItemToObject(o, "ci95", interval(est.dlo, est.dhi));
        cJSON_AddItemToObject(o, "ci95_unpaired", interval(est.ulo, est.uhi));
        double hp = (est.dhi - est.dlo) / 2, hu = (est.uhi - est.ulo) / 2;
        cJSON_AddItemToObject(o, "narrowing", num_or_null(hp > 0 ? hu / hp : NAN));
        cJSON_AddNumberToObject(o, "n", (double)S->acc[exp_seat_slot(S, 1)].n);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* The "fairness" object of setting S: seat_spread and first_seat, each {value, ci95, n}. */
static cJSON *fairness(const setting *S)
{
    cJSON *f = cJSON_CreateObject();
    for (int j = FIG_SEAT_SPREAD; j >= FIG_FIRST_SEAT; j--)
        cJSON_AddItemToObject(f, exp_derived_name(j), slot_estimate(S, j, 0));
    return f;
}

/* The figures --metric names for a sweep (the text report's columns), per setting: each
 * one's estimate and its paired difference from the baseline (null for the baseline itself
 * or a figure this setting lacks), and whether it is a share. */
static cJSON *figures(const experiment *x, const setting *S, bool is_base)
{
    char figs[1024], err[512];
    snprintf(figs, sizeof figs, "%s", x->o->metric ? x->o->metric : EXP_SWEEP_FIGURES);
    cJSON *arr = cJSON_CreateArray();
    char *rest = figs;
    for (char *t = strsep(&rest, ","); t; t = strsep(&rest, ",")) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "figure", t);
        cJSON_AddItemToArray(arr, o);
        int j = exp_resolve_figure(S, "--metric", t, err, sizeof err);
        if (j == -1) { /* a figure one setting lacks (win_share@5 with 3 players) */
            cJSON_AddNullToObject(o, "estimate");
            cJSON_AddNullToObject(o, "difference");
            continue;
        }
        exp_estimate est;
        exp_slot_est(S, j, &x->set[x->base], &est);
        cJSON_AddBoolToObject(o, "share", exp_is_share(S, j, x->o->game));
        cJSON *e = cJSON_AddObjectToObject(o, "estimate");
        cJSON_AddItemToObject(e, "value", num_or_null(est.value));
        cJSON_AddItemToObject(e, "ci95", interval(est.lo, est.hi));
        if (is_base || (!exp_derived(j) && S->pair[j] < 0) || isnan(est.diff)) {
            cJSON_AddNullToObject(o, "difference");
            continue;
        }
        cJSON *d = cJSON_AddObjectToObject(o, "difference");
        cJSON_AddNumberToObject(d, "value", est.diff);
        cJSON_AddItemToObject(d, "ci95", interval(est.dlo, est.dhi));
        double hp = (est.dhi - est.dlo) / 2, hu = (est.uhi - est.ulo) / 2;
        cJSON_AddItemToObject(d, "narrowing", num_or_null(hp > 0 ? hu / hp : NAN));
    }
    return arr;
}

void exp_json_provenance(const exp_options *o, const char (*canon)[BOT_SPEC_MAX], int nseats,
                         cJSON *root)
{
    const game_type *g = o->game;
    char e[256];
    cJSON *def = rules_parse(g->default_rules, g->name, e, sizeof e);
    cJSON *eff = o->ruleset ? cJSON_Duplicate(o->ruleset, 1) : NULL;
    if (eff == NULL)
        free(rules_effective_files(g, o->configs, o->nconfigs, o->sets, o->nsets, &eff, e,
                                   sizeof e));
    cJSON *ch = def && eff ? rules_changes(g, def, eff) : NULL;
    cJSON_AddItemToObject(root, "ruleset_changes", ch ? ch : cJSON_CreateArray());
    cJSON_Delete(eff);
    cJSON_Delete(def);
    cJSON_AddNumberToObject(root, "players", nseats);
    cJSON *b = cJSON_AddArrayToObject(root, "seat_bots");
    for (int k = 0; k < nseats; k++)
        cJSON_AddItemToArray(b, cJSON_CreateString(canon[k]));
}

/* Adds to obj the --until outcome of setting S: a copy of `until` (the option) with the games
 * played, the half-width reached (null when the figure has no interval) and whether it
 * stopped by reaching the target. */
static void add_until(cJSON *obj, const cJSON *until, const setting *S, double target)
{
    cJSON *u = cJSON_Duplicate(until, 1);
    cJSON_AddNumberToObject(u, "games", (double)S->games);
    cJSON_AddItemToObject(u, "halfwidth_reached", num_or_null(isinf(S->until_hw) ? NAN : S->until_hw));
    cJSON_AddBoolToObject(u, "stopped", S->until_hw <= target);
    cJSON_AddItemToObject(obj, "until", u);
}

/* Largest effect first. */
static int by_effect(const void *a, const void *b)
{
    const sens_key *x = a, *y = b;
    if (x->effect != y->effect)
        return x->effect < y->effect ? 1 : -1;
    return 0;
}

/* The "sensitivity" object of the report; sorts the keys by effect, largest first. */
static void sensitivity_json(experiment *x, cJSON *root)
{
    const exp_options *o = x->o;
    setting *set = x->set;
    sens_key *keys = x->keys;
    int nkeys = x->nkeys;
    char err[512]; /* figures were resolved before playing: no error here */
    size_t errlen = sizeof err;
    setting *B = &set[0];
    int jb = exp_resolve_figure(B, "--metric", o->metric, err, errlen);
    cJSON *sens = cJSON_AddObjectToObject(root, "sensitivity");
    cJSON_AddStringToObject(sens, "metric", o->metric);
    cJSON_AddBoolToObject(sens, "share", exp_is_share(B, jb, o->game));
    char rule[256];
    bool percent = o->step == NULL || o->step[strlen(o->step) - 1] == '%';
    snprintf(rule, sizeof rule,
             percent ? "%s of the default value; whole-number keys: rounded, at least 1; a "
                       "default of 0 that is not whole: %s of 1; booleans and enums: every "
                       "other value"
                     : "%s units; whole-number keys: rounded, at least 1; booleans and enums: "
                       "every other value",
             o->step ? o->step : "10%", o->step ? o->step : "10%");
    cJSON_AddStringToObject(sens, "step", rule);
    cJSON_AddItemToObject(sens, "default", slot_estimate(B, jb, adv_shift(B, jb)));
    cJSON_AddNumberToObject(sens, "games", (double)B->games);
    for (int k = 0; k < nkeys; k++) {
        keys[k].effect = -1;
        for (int side = 0; side < 2; side++)
            if (keys[k].side[side] >= 0) {
                setting *S = &set[keys[k].side[side]];
                exp_estimate est;
                exp_slot_est(S, exp_resolve_figure(S, "", o->metric, err, errlen), B,
                         &est);
                if (!isnan(est.diff) && fabs(est.diff) > keys[k].effect)
                    keys[k].effect = fabs(est.diff);
            }
    }
    qsort(keys, (size_t)nkeys, sizeof *keys, by_effect);
    cJSON *arr = cJSON_AddArrayToObject(sens, "keys");
    for (int k = 0; k < nkeys; k++) {
        sens_key *K = &keys[k];
        cJSON *ko = cJSON_CreateObject();
        cJSON_AddStringToObject(ko, "key", K->key);
        static const char *const kinds[] = {"number", "boolean", "enum"};
        cJSON_AddStringToObject(ko, "kind", kinds[K->kind]);
        cJSON *dv = cJSON_Parse(K->defval);
        cJSON_AddItemToObject(ko, "default", dv ? dv : cJSON_CreateNull());
        cJSON_AddItemToObject(ko, "step", K->kind == SENS_NUMBER ? cJSON_CreateNumber(K->step)
                                                                 : cJSON_CreateNull());
        cJSON_AddItemToObject(ko, "effect", num_or_null(K->effect < 0 ? NAN : K->effect));
        for (int side = 0; side < 2; side++) {
            if (K->val[side][0] == '\0') {
                cJSON_AddNullToObject(ko, side ? "up" : "down"); /* one move only */
                continue;
            }
            cJSON *so = cJSON_AddObjectToObject(ko, side ? "up" : "down");
            cJSON *kv = cJSON_Parse(K->val[side]);
            cJSON_AddItemToObject(so, "key_value", kv ? kv : cJSON_CreateNull());
            if (K->side[side] < 0) {
                cJSON_AddStringToObject(so, "skipped", K->skipped[side]);
                continue;
            }
            setting *S = &set[K->side[side]];
            int j = exp_resolve_figure(S, "", o->metric, err, errlen);
            exp_estimate est;
            exp_slot_est(S, j, B, &est);
            cJSON_AddItemToObject(so, "estimate", slot_estimate(S, j, adv_shift(S, j)));
            cJSON *d = cJSON_AddObjectToObject(so, "difference");
            cJSON_AddItemToObject(d, "value", num_or_null(est.diff));
            cJSON_AddItemToObject(d, "ci95", interval(est.dlo, est.dhi));
            cJSON_AddItemToObject(d, "ci95_unpaired", interval(est.ulo, est.uhi));
        }
        cJSON_AddItemToArray(arr, ko);
    }
}

cJSON *exp_report_build(experiment *x, double wall, uint64_t played, cJSON **runp)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
    setting *set = x->set;
    int nset = x->nset, base = x->base;
    double target = x->target;
    cJSON *run = cJSON_CreateObject();
    cJSON_AddNumberToObject(run, "threads", o->threads);
    cJSON_AddNumberToObject(run, "wall_seconds", wall);
    cJSON_AddNumberToObject(run, "games_per_second", wall > 0 ? (double)played / wall : 0);
    report_run_stamp(run, o->argc, o->argv);
    if (o->ranks > 0)
        cJSON_AddNumberToObject(run, "ranks", o->ranks);
    if (o->merged)
        cJSON_AddNumberToObject(run, "shards", o->nmerged);
    cJSON *sets = cJSON_CreateArray();
    for (int i = 0; i < o->nsets; i++)
        cJSON_AddItemToArray(sets, cJSON_CreateString(o->sets[i]));
    cJSON *until = NULL;
    if (o->until) {
        until = cJSON_CreateObject();
        cJSON_AddStringToObject(until, "metric", x->until_fig);
        cJSON_AddNumberToObject(until, "halfwidth", target);
        cJSON_AddNumberToObject(until, "block", UNTIL_BLOCK);
        cJSON_AddNumberToObject(until, "cap", (double)o->runs);
    }

    char seedtext[32];
    snprintf(seedtext, sizeof seedtext, "%llu", (unsigned long long)o->seed);
    cJSON *root = NULL;
    if (o->nsweeps == 0 && !o->sensitivity) {
        setting *S = &set[0];
        root = setting_report(S, g);
        cJSON_AddItemToObject(root, "fairness", fairness(S));
        cJSON_AddItemToObject(root, "sets", sets);
        if (until)
            add_until(root, until, S, target);
        if (o->format == REPORT_JSON) {
            cJSON_AddItemToObject(root, "run", run);
            run = NULL;
        }
    } else {
        root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "tool", "giochi-sim");
        cJSON_AddStringToObject(root, "version", GIOCHI_VERSION);
        cJSON_AddStringToObject(root, "game", g->name);
        cJSON_AddStringToObject(root, "title", g->title);
        cJSON_AddStringToObject(root, "seed", seedtext);
        cJSON_AddNumberToObject(root, "runs", (double)o->runs);
        cJSON_AddItemToObject(root, "sets", sets);
        cJSON *sw = cJSON_AddArrayToObject(root, "sweeps");
        for (int a = 0; a < o->nsweeps; a++)
            cJSON_AddItemToArray(sw, cJSON_CreateString(o->sweeps[a]));
        cJSON_AddBoolToObject(root, "rotate_seats", o->rotate);
        cJSON_AddItemToObject(root, "until", until ? cJSON_Duplicate(until, 1) : cJSON_CreateNull());
        cJSON_AddItemToObject(root, "baseline", cJSON_Duplicate(set[base].values, 1));
        exp_json_provenance(o, (const char(*)[BOT_SPEC_MAX])set[base].canon, set[base].nseats,
                            root);
        if (o->sensitivity) {
            sensitivity_json(x, root);
        } else {
            cJSON *mf = cJSON_AddArrayToObject(root, "metric");
            char figs[1024];
            snprintf(figs, sizeof figs, "%s", o->metric ? o->metric : EXP_SWEEP_FIGURES);
            char *rest = figs;
            for (char *t = strsep(&rest, ","); t; t = strsep(&rest, ","))
                cJSON_AddItemToArray(mf, cJSON_CreateString(t));
            cJSON *arr = cJSON_AddArrayToObject(root, "settings");
            for (int s = 0; s < nset; s++) {
                setting *S = &set[s];
                cJSON *so = cJSON_CreateObject();
                cJSON_AddItemToObject(so, "values", cJSON_Duplicate(S->values, 1));
                cJSON_AddStringToObject(so, "label", S->label);
                cJSON_AddBoolToObject(so, "baseline", s == base);
                cJSON_AddNumberToObject(so, "games", (double)S->games);
                if (o->rotate) { /* "games" counts deals: each played once per rotation */
                    cJSON_AddNumberToObject(so, "rotations", S->nrot);
                    cJSON_AddNumberToObject(so, "plays", (double)S->games * S->nrot);
                }
                if (until)
                    add_until(so, until, S, target);
                cJSON_AddItemToObject(so, "report", setting_report(S, g));
                cJSON_AddItemToObject(so, "fairness", fairness(S));
                cJSON_AddItemToObject(so, "differences", differences(S, &set[base]));
                cJSON_AddItemToObject(so, "figures", figures(x, S, s == base));
                cJSON_AddItemToArray(arr, so);
            }
        }
        cJSON_AddItemToObject(root, "run", run);
        run = NULL;
    }
    cJSON_Delete(until);
    *runp = run;
    return root;
}
