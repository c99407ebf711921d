/* exp_text.c — the text report of an experiment: a row per setting of a sweep, the tornado
 * table of a sensitivity, the per-bot table of a rotation, or one setting's run report. */
#include "experiment/experiment_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/numfmt.h"
#include "report/fields.h"
#include "report/report.h"
#include "report/report_text.h"
#include "config/rules.h"
#include "core/xalloc.h"

/* "12.34%" or "3.512" (numfmt_figure). */
void exp_text_value(char *buf, size_t n, double v, bool share, bool sign)
{
    numfmt_figure(buf, n, v, share, sign);
}

/* "17.10% [16.77, 17.43]" (numfmt_interval). */
void exp_text_interval(char *buf, size_t n, double v, double lo, double hi, bool share,
                          bool sign)
{
    numfmt_interval(buf, n, v, lo, hi, share, sign);
}

/* The text header: the game, `what` the experiment is with the seed, the ruleset changes every
 * setting shares, and the bots of S0. */
static void write_header(FILE *f, const exp_options *o, const setting *S0, const char *what)
{
    const game_type *g = o->game;
    fprintf(f, "%s — %s\n", g->name, g->title);
    fprintf(f, "%s; seed %llu\n", what, (unsigned long long)o->seed);
    report_text_made_by(f, NULL);
    char e[256];
    cJSON *def = rules_parse(g->default_rules, g->name, e, sizeof e);
    /* the ruleset every setting shares: the default with --config and --set */
    cJSON *base = NULL;
    void *rules = rules_effective_files(g, o->configs, o->nconfigs, o->sets, o->nsets, &base, e,
                                        sizeof e);
    free(rules);
    cJSON *ch = base ? rules_changes(def, base) : NULL;
    report_text_changes(f, ch);
    cJSON_Delete(ch);
    cJSON_Delete(base);
    cJSON_Delete(def);
    fprintf(f, "bots:");
    for (int k = 0; k < S0->nseats; k++)
        fprintf(f, " %s", S0->canon[k]);
    fprintf(f, "%s\n", o->rotate ? " (rotated: each deal played once per rotation)" : "");
}

/* The per-bot figures of a rotation as a table, a row per figure and a column per bot: the
 * win share, the score and the rank, then the seat figures `metric` names (--metric, NAME or
 * NAME@K), or else the seat metrics of the game's headline. */
static void render_bots(FILE *out, const setting *S, const game_type *g, const char *metric)
{
    int fig[GAME_MAX_ACTIONS], nfig = 0; /* offsets in a bot's group of slots */
    for (int i = 0; i < 3; i++)
        fig[nfig++] = i;
    char names[1024];
    const char *list[64];
    int nlist = 0;
    if (metric) {
        snprintf(names, sizeof names, "%s", metric);
        char *rest = names;
        for (char *t = strsep(&rest, ","); t && nlist < 64; t = strsep(&rest, ",")) {
            char *at = strchr(t, '@');
            if (at)
                *at = '\0';
            list[nlist++] = t;
        }
    } else {
        for (int h = 0; g->headline && g->headline[h] && nlist < 64; h++)
            list[nlist++] = g->headline[h];
    }
    for (int l = 0; l < nlist; l++)
        for (int i = 0; i < S->group && nfig < GAME_MAX_ACTIONS; i++) {
            bool dup = false;
            for (int f = 0; f < nfig; f++)
                dup = dup || fig[f] == i;
            if (!dup && strcmp(S->slot[S->ngame_slots + i].name, list[l]) == 0)
                fig[nfig++] = i;
        }
    char cell[GAME_MAX_SEATS][96];
    int lw = 9, cw[GAME_MAX_SEATS];
    const char *bot[GAME_MAX_SEATS];
    for (int f = 0; f < nfig; f++)
        if ((int)strlen(S->slot[S->ngame_slots + fig[f]].name) > lw)
            lw = (int)strlen(S->slot[S->ngame_slots + fig[f]].name);
    for (int b = 0; b < S->nbots; b++) {
        int k0 = 0;
        while (S->botid[k0] != b)
            k0++;
        bot[b] = S->canon[k0];
        cw[b] = (int)strlen(bot[b]);
        for (int f = 0; f < nfig; f++) { /* the widest cell of the column */
            int j = S->ngame_slots + b * S->group + fig[f];
            exp_estimate est;
            exp_pair_estimate(&S->acc[j], &est);
            exp_text_interval(cell[b], sizeof cell[b], est.value, est.lo, est.hi, exp_is_share(S, j, g),
                          false);
            if ((int)strlen(cell[b]) > cw[b])
                cw[b] = (int)strlen(cell[b]);
        }
    }
    fprintf(out, "  %-*s", lw, "");
    for (int b = 0; b < S->nbots; b++)
        fprintf(out, "  %-*s", cw[b], bot[b]);
    fputc('\n', out);
    for (int f = 0; f < nfig; f++) {
        fprintf(out, "  %-*s", lw, S->slot[S->ngame_slots + fig[f]].name);
        for (int b = 0; b < S->nbots; b++) {
            int j = S->ngame_slots + b * S->group + fig[f];
            exp_estimate est;
            exp_pair_estimate(&S->acc[j], &est);
            exp_text_interval(cell[b], sizeof cell[b], est.value, est.lo, est.hi, exp_is_share(S, j, g),
                          false);
            fprintf(out, "  %-*s", cw[b], cell[b]);
        }
        fputc('\n', out);
    }
}

/* The report of one setting: the ordinary report (with the --until line), or the rotation
 * report. */
static void render_single(const experiment *x, const cJSON *root, const cJSON *run, FILE *out)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
    setting *set = x->set;
    double target = x->target;
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(root, "until");
    if (set[0].nrot == 1) {
        cJSON *r2 = cJSON_Duplicate(root, 1);
        cJSON_AddItemToObject(r2, "run", cJSON_Duplicate(run, 1));
        report_write(out, r2, REPORT_TEXT);
        cJSON_Delete(r2);
    } else {
        setting *S = &set[0];
        write_header(out, o, S, "seat rotation");
        fprintf(out, "%llu deals x %d rotations = %llu games\n\n",
                (unsigned long long)S->games, S->nrot,
                (unsigned long long)(S->games * (uint64_t)S->nrot));
        fprintf(out, "by bot (every bot in every seat, same dice; 95%% CI)\n");
        render_bots(out, S, g, o->metric);
        fprintf(out, "\nseat advantage (win share minus 1/%d, averaged over the bots)\n",
                S->nseats);
        for (int k = 0; k < S->nseats; k++) {
            int j = S->ngame_slots + S->nbots * S->group + k;
            exp_estimate est;
            exp_pair_estimate(&S->acc[j], &est);
            double sh = 1.0 / S->nseats;
            char buf[96];
            exp_text_interval(buf, sizeof buf, est.value - sh, est.lo - sh, est.hi - sh, true,
                          true);
            fprintf(out, "  seat %d  %s pp\n", k + 1, buf);
        }
        fprintf(out, "\ngame\n");
        for (int j = 0; j < S->ngame_slots; j++) {
            if (S->acc[j].c == 0)
                continue;
            exp_estimate est;
            exp_pair_estimate(&S->acc[j], &est);
            char buf[96];
            exp_text_interval(buf, sizeof buf, est.value, est.lo, est.hi, exp_is_share(S, j, g),
                          false);
            fprintf(out, "  %-28s %s\n", S->slot[j].name, buf);
        }
    }
    if (cJSON_IsObject(u))
        fprintf(out, "--until %s: %s after %.0f games (half-width %.4g, target %g)\n",
                o->until, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(u, "stopped"))
                              ? "reached"
                              : "NOT reached (cap)",
                report_num(u, "games"), report_num(u, "halfwidth_reached"), target);
}

/* The value text v as a table shows it: a JSON string without its quotes. Returns buf. */
static char *unquote(char *buf, size_t n, const char *v)
{
    size_t len = strlen(v);
    if (len >= 2 && v[0] == '"' && v[len - 1] == '"')
        snprintf(buf, n, "%.*s", (int)(len - 2), v + 1);
    else
        snprintf(buf, n, "%s", v);
    return buf;
}

/* The tornado table of a sensitivity, largest effect first. */
static void render_sensitivity(const experiment *x, FILE *out)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
    setting *set = x->set;
    int nkeys = x->nkeys;
    sens_key *keys = x->keys;
    char err[512]; /* figures were resolved before playing: no error here */
    size_t errlen = sizeof err;
    setting *B = &set[0];
    int jb = exp_resolve_figure(B, "", o->metric, err, errlen);
    bool share = exp_is_share(B, jb, g);
    char what[256], buf[128];
    exp_estimate be;
    exp_slot_est(B, jb, B, &be);
    exp_text_interval(buf, sizeof buf, be.value, be.lo, be.hi, share, false);
    snprintf(what, sizeof what, "sensitivity of %s, %llu games per setting", o->metric,
             (unsigned long long)B->games);
    write_header(out, o, B, what);
    fprintf(out, "default: %s %s\n", o->metric, buf);
    bool percent = o->step == NULL || o->step[strlen(o->step) - 1] == '%';
    fprintf(out, "each number moved down and up by %s%s (whole numbers: rounded, at least 1; "
                 "the step column), each boolean and enum set to every other value, paired "
                 "with the default on the same games;\n"
                 "sorted by the larger effect%s\n\n",
            o->step ? o->step : "10%", percent ? " of its default" : " units",
            share ? " (shares in percentage points)" : "");
    fprintf(out, "%-24s %9s %7s  %9s %-30s %9s %-30s\n", "key", "default", "step", "down",
            "effect [95% CI]", "up", "effect [95% CI]");
    for (int k = 0; k < nkeys; k++) {
        sens_key *K = &keys[k];
        char dv[40], st[40];
        if (K->kind == SENS_NUMBER)
            numfmt_double(st, sizeof st, K->step);
        else
            snprintf(st, sizeof st, "%s", K->kind == SENS_BOOL ? "toggle" : "value");
        fprintf(out, "%-24s %9s %7s ", K->key, unquote(dv, sizeof dv, K->defval), st);
        for (int side = 0; side < 2; side++) {
            char kv[40];
            unquote(kv, sizeof kv, K->val[side]);
            if (K->val[side][0] == '\0') {
                fprintf(out, " %9s %-30s", "", "");
                continue;
            }
            if (K->side[side] < 0) {
                fprintf(out, " %9s %-30s", kv, "(out of range)");
                continue;
            }
            setting *S = &set[K->side[side]];
            exp_estimate est;
            exp_slot_est(S, exp_resolve_figure(S, "", o->metric, err, errlen), B, &est);
            exp_text_interval(buf, sizeof buf, est.diff, est.dlo, est.dhi, share, true);
            fprintf(out, " %9s %-30s", kv, buf);
        }
        fputc('\n', out);
    }
}

/* One row per setting with its --metric figures and their differences from the baseline. */
static void render_sweep(const experiment *x, FILE *out, double wall, uint64_t played)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
    setting *set = x->set;
    int nset = x->nset, base = x->base;
    char err[512]; /* figures were resolved before playing: no error here */
    size_t errlen = sizeof err;
    /* a sweep: one row per setting with its headline figures */
    char what[256];
    snprintf(what, sizeof what, "sweep of %d setting%s, %s%llu games each", nset,
             nset == 1 ? "" : "s", o->until ? "until " : "",
             (unsigned long long)o->runs);
    if (o->until)
        snprintf(what, sizeof what, "sweep of %d settings, each until %s (at most %llu games)",
                 nset, o->until, (unsigned long long)o->runs);
    write_header(out, o, &set[0], what);
    fprintf(out, "baseline: %s; differences are paired on the same games (95%% CI), "
                 "xF = F times narrower than unpaired%s\n\n",
            set[base].label, o->rotate ? "; seat figures are per bot (@K: the bot of seat K)"
                                       : "");
    char figs[1024];
    snprintf(figs, sizeof figs, "%s", o->metric ? o->metric : EXP_SWEEP_FIGURES);
    char *fig[16];
    int nfig = 0;
    char *rest = figs;
    for (char *t = strsep(&rest, ","); t && nfig < 16; t = strsep(&rest, ","))
        fig[nfig++] = t;
    int lw = 8;
    for (int s = 0; s < nset; s++)
        if ((int)strlen(set[s].label) > lw)
            lw = (int)strlen(set[s].label);
    fprintf(out, "%-*s %9s", lw, "setting", "games");
    for (int f = 0; f < nfig; f++)
        fprintf(out, "  %-26s %-30s", fig[f], "difference");
    fputc('\n', out);
    for (int s = 0; s < nset; s++) {
        setting *S = &set[s];
        fprintf(out, "%-*s %9llu", lw, S->label, (unsigned long long)S->games);
        for (int f = 0; f < nfig; f++) {
            int j = exp_resolve_figure(S, "--metric", fig[f], err, errlen);
            if (j < 0) {
                fprintf(out, "  %-26s %-30s", "—", "");
                continue;
            }
            bool share = exp_is_share(S, j, g);
            exp_estimate est;
            exp_slot_est(S, j, &set[base], &est);
            char a[96], d[128] = "(baseline)";
            exp_text_interval(a, sizeof a, est.value, est.lo, est.hi, share, false);
            if (s != base && S->pair[j] >= 0 && !isnan(est.diff)) {
                char di[96];
                exp_text_interval(di, sizeof di, est.diff, est.dlo, est.dhi, share, true);
                double hp = (est.dhi - est.dlo) / 2, hu = (est.uhi - est.ulo) / 2;
                if (hp > 0)
                    snprintf(d, sizeof d, "%s x%.1f", di, hu / hp);
                else
                    snprintf(d, sizeof d, "%s", di);
            } else if (s != base) {
                snprintf(d, sizeof d, "—");
            }
            fprintf(out, "  %-26s %-30s", a, d);
        }
        fputc('\n', out);
    }
    fprintf(out, "\n%llu games in %.3f s (%.0f games/s, %d thread%s)\n",
            (unsigned long long)played, wall, wall > 0 ? (double)played / wall : 0,
            o->threads, o->threads == 1 ? "" : "s");
}

void exp_render_text(const experiment *x, const cJSON *root, const cJSON *run, double wall,
                     uint64_t played, FILE *out)
{
    const exp_options *o = x->o;
    char *tbuf = NULL; /* rendered, then written without trailing blanks */
    size_t tlen = 0;
    FILE *mem = open_memstream(&tbuf, &tlen);
    if (mem == NULL)
        xalloc_fail("cannot buffer the text report");
    if (o->nsweeps == 0 && !o->sensitivity)
        render_single(x, root, run, mem);
    else if (o->sensitivity)
        render_sensitivity(x, mem);
    else
        render_sweep(x, mem, wall, played);
    fclose(mem);
    for (char *line = tbuf; line && *line;) {
        char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        size_t keep = n;
        while (keep > 0 && line[keep - 1] == ' ')
            keep--;
        fwrite(line, 1, keep, out);
        if (end)
            fputc('\n', out);
        line += n + (end != NULL);
    }
    free(tbuf);
}
