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
#include "report/textcols.h"
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
    cJSON *ch = base ? rules_changes(g, def, base) : NULL;
    report_text_changes(f, ch);
    cJSON_Delete(ch);
    cJSON_Delete(base);
    cJSON_Delete(def);
    char line[2048] = "bots:";
    size_t len = strlen(line);
    for (int k = 0; k < S0->nseats && len < sizeof line; k++)
        len += (size_t)snprintf(line + len, sizeof line - len, " %s", S0->canon[k]);
    if (o->rotate && len < sizeof line)
        snprintf(line + len, sizeof line - len, " (rotated: each deal played once per rotation)");
    textcols_para(f, line, 0, TEXTCOLS_WIDTH);
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
            exp_slot_est(S, j, NULL, &est);
            exp_text_interval(cell[b], sizeof cell[b], est.value, est.lo, est.hi, exp_is_share(S, j, g),
                          false);
            if ((int)strlen(cell[b]) > cw[b])
                cw[b] = (int)strlen(cell[b]);
        }
    }
    /* as many bots side by side as fit the width; the rest in further tables below */
    for (int b0 = 0; b0 < S->nbots;) {
        int b1 = b0 + 1, used = 2 + lw + 2 + cw[b0];
        while (b1 < S->nbots && used + 2 + cw[b1] <= TEXTCOLS_WIDTH)
            used += 2 + cw[b1++];
        if (b0 > 0)
            fputc('\n', out);
        fprintf(out, "  %-*s", lw, "");
        for (int b = b0; b < b1; b++)
            fprintf(out, "  %-*s", cw[b], bot[b]);
        fputc('\n', out);
        for (int f = 0; f < nfig; f++) {
            fprintf(out, "  %-*s", lw, S->slot[S->ngame_slots + fig[f]].name);
            for (int b = b0; b < b1; b++) {
                int j = S->ngame_slots + b * S->group + fig[f];
                exp_estimate est;
                exp_slot_est(S, j, NULL, &est);
                exp_text_interval(cell[b], sizeof cell[b], est.value, est.lo, est.hi,
                                  exp_is_share(S, j, g), false);
                fprintf(out, "  %-*s", cw[b], cell[b]);
            }
            fputc('\n', out);
        }
        b0 = b1;
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
            exp_estimate est; /* shifted by 1/N (a seat advantage) */
            exp_slot_est(S, j, NULL, &est);
            char buf[96];
            exp_text_interval(buf, sizeof buf, est.value, est.lo, est.hi, true, true);
            fprintf(out, "  seat %d  %s pp\n", k + 1, buf);
        }
        fprintf(out, "\ngame\n");
        for (int j = 0; j < S->ngame_slots; j++) {
            if (S->acc[j].c == 0)
                continue;
            exp_estimate est;
            exp_slot_est(S, j, NULL, &est);
            char buf[96];
            exp_text_interval(buf, sizeof buf, est.value, est.lo, est.hi, exp_is_share(S, j, g),
                          false);
            fprintf(out, "  %-28s %s\n", S->slot[j].name, buf);
        }
    }
    /* the fairness figures, when --until or --metric names one */
    char err[256];
    int ju = o->until ? exp_resolve_figure(&set[0], "", x->until_fig, err, sizeof err) : -1;
    bool fair = exp_derived(ju) || (o->metric && (strstr(o->metric, "seat_spread") ||
                                                  strstr(o->metric, "first_seat")));
    for (int j = FIG_SEAT_SPREAD; fair && j >= FIG_FIRST_SEAT; j--) {
        exp_estimate est;
        exp_slot_est(&set[0], j, NULL, &est);
        char buf[96];
        exp_text_interval(buf, sizeof buf, est.value, est.lo, est.hi, true, j == FIG_FIRST_SEAT);
        fprintf(out, "%s %s%s\n", exp_derived_name(j), buf, j == FIG_FIRST_SEAT ? " pp" : "");
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
    char how[512];
    snprintf(how, sizeof how,
             "each number moved down and up by %s%s (whole numbers: rounded, at least 1; the "
             "step column), each boolean and enum set to every other value, paired with the "
             "default on the same games; sorted by the larger effect%s",
             o->step ? o->step : "10%", percent ? " of its default" : " units",
             share ? " (shares in percentage points)" : "");
    textcols_para(out, how, 0, TEXTCOLS_WIDTH);
    fputc('\n', out);
    /* a line per value tried: the key, its default and step on the first (down, then up) */
    textcols *t = textcols_new("lrrrl");
    const char *head[5] = {"key", "default", "step", "value", "effect [95% CI]"};
    textcols_row(t, head);
    for (int k = 0; k < nkeys; k++) {
        sens_key *K = &keys[k];
        char dv[40], st[40];
        if (K->kind == SENS_NUMBER)
            numfmt_double(st, sizeof st, K->step);
        else
            snprintf(st, sizeof st, "%s", K->kind == SENS_BOOL ? "toggle" : "value");
        unquote(dv, sizeof dv, K->defval);
        bool first = true;
        for (int side = 0; side < 2; side++) {
            char kv[40];
            unquote(kv, sizeof kv, K->val[side]);
            if (K->val[side][0] == '\0')
                continue;
            if (K->side[side] < 0) {
                snprintf(buf, sizeof buf, "(out of range)");
            } else {
                setting *S = &set[K->side[side]];
                exp_estimate est;
                exp_slot_est(S, exp_resolve_figure(S, "", o->metric, err, errlen), B, &est);
                exp_text_interval(buf, sizeof buf, est.diff, est.dlo, est.dhi, share, true);
            }
            const char *cell[5] = {first ? K->key : "", first ? dv : "", first ? st : "", kv,
                                   buf};
            textcols_row(t, cell);
            first = false;
        }
    }
    textcols_write(out, t, 0, TEXTCOLS_WIDTH);
    textcols_free(t);
}

/* The widest line of text (characters, trailing blanks not counted). */
static size_t widest_line(const char *text)
{
    size_t best = 0;
    while (text && *text) {
        size_t n = strcspn(text, "\n"), keep = n;
        while (keep > 0 && text[keep - 1] == ' ')
            keep--;
        size_t w = 0;
        for (size_t i = 0; i < keep; i++)
            w += ((unsigned char)text[i] & 0xC0) != 0x80;
        best = w > best ? w : best;
        text += n + (text[n] == '\n');
    }
    return best;
}

/* A sweep's table of the figures fig[0..nfig): a header, then a line per setting with each
 * figure and its paired difference from the baseline (xF: F times narrower than unpaired),
 * in columns of fixed widths (26 and 30 characters a figure), or, `compact`, each column as
 * wide as its widest cell. */
static void sweep_rows(const experiment *x, FILE *out, char *const *fig, int nfig, bool compact)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
    setting *set = x->set;
    int nset = x->nset, base = x->base;
    char err[512]; /* figures were resolved before playing: no error here */
    size_t errlen = sizeof err;
    /* Under rotation a deal is played once per rotation: both counts are shown. */
    bool rot = o->rotate && !o->until;
    char align[3 + 2 * 16 + 1] = "lr";
    if (rot)
        strcat(align, "r");
    for (int f = 0; f < nfig; f++)
        strcat(align, "ll");
    textcols *t = textcols_new(align);
    const char *cell[3 + 2 * 16];
    char games[32], played[32], a[16][96], d[16][128];
    int c0 = rot ? 3 : 2; /* the first figure's column */
    cell[0] = "setting";
    cell[1] = rot ? "deals" : "games";
    cell[2] = "games";
    for (int f = 0; f < nfig; f++) {
        cell[c0 + 2 * f] = fig[f];
        cell[c0 + 1 + 2 * f] = "difference";
    }
    textcols_row(t, cell);
    for (int s = 0; s < nset; s++) {
        setting *S = &set[s];
        snprintf(games, sizeof games, "%llu", (unsigned long long)S->games);
        snprintf(played, sizeof played, "%llu",
                 (unsigned long long)(S->games * (uint64_t)S->nrot));
        cell[0] = S->label;
        cell[1] = games;
        cell[2] = played;
        for (int f = 0; f < nfig; f++) {
            cell[c0 + 2 * f] = a[f];
            cell[c0 + 1 + 2 * f] = d[f];
            snprintf(a[f], sizeof a[f], "—");
            d[f][0] = '\0';
            int j = exp_resolve_figure(S, "--metric", fig[f], err, errlen);
            if (j == -1)
                continue;
            bool share = exp_is_share(S, j, g);
            exp_estimate est;
            exp_slot_est(S, j, &set[base], &est);
            exp_text_interval(a[f], sizeof a[f], est.value, est.lo, est.hi, share, false);
            snprintf(d[f], sizeof d[f], "%s", s == base ? "(baseline)" : "—");
            if (s != base && (exp_derived(j) || S->pair[j] >= 0) && !isnan(est.diff)) {
                char di[96];
                exp_text_interval(di, sizeof di, est.diff, est.dlo, est.dhi, share, true);
                double hp = (est.dhi - est.dlo) / 2, hu = (est.uhi - est.ulo) / 2;
                if (hp > 0)
                    snprintf(d[f], sizeof d[f], "%s x%.1f", di, hu / hp);
                else
                    snprintf(d[f], sizeof d[f], "%s", di);
            }
        }
        textcols_row(t, cell);
    }
    if (compact) {
        textcols_write(out, t, 0, TEXTCOLS_WIDTH);
        textcols_free(t);
        return;
    }
    textcols_free(t);
    int lw = 8;
    for (int s = 0; s < nset; s++)
        if ((int)strlen(set[s].label) > lw)
            lw = (int)strlen(set[s].label);
    fprintf(out, "%-*s %9s", lw, "setting", rot ? "deals" : "games");
    if (rot)
        fprintf(out, " %9s", "games");
    for (int f = 0; f < nfig; f++)
        fprintf(out, "  %-26s %-30s", fig[f], "difference");
    fputc('\n', out);
    for (int s = 0; s < nset; s++) {
        setting *S = &set[s];
        fprintf(out, "%-*s %9llu", lw, S->label, (unsigned long long)S->games);
        if (rot)
            fprintf(out, " %9llu", (unsigned long long)(S->games * (uint64_t)S->nrot));
        for (int f = 0; f < nfig; f++) {
            int j = exp_resolve_figure(S, "--metric", fig[f], err, errlen);
            if (j == -1) {
                fprintf(out, "  %-26s %-30s", "—", "");
                continue;
            }
            bool share = exp_is_share(S, j, g);
            exp_estimate est;
            exp_slot_est(S, j, &set[base], &est);
            char v[96], df[128] = "(baseline)";
            exp_text_interval(v, sizeof v, est.value, est.lo, est.hi, share, false);
            if (s != base && (exp_derived(j) || S->pair[j] >= 0) && !isnan(est.diff)) {
                char di[96];
                exp_text_interval(di, sizeof di, est.diff, est.dlo, est.dhi, share, true);
                double hp = (est.dhi - est.dlo) / 2, hu = (est.uhi - est.ulo) / 2;
                if (hp > 0)
                    snprintf(df, sizeof df, "%s x%.1f", di, hu / hp);
                else
                    snprintf(df, sizeof df, "%s", di);
            } else if (s != base) {
                snprintf(df, sizeof df, "—");
            }
            fprintf(out, "  %-26s %-30s", v, df);
        }
        fputc('\n', out);
    }
}

/* Whether the sweep table of fig[0..nfig) in that layout fits the width. */
static bool sweep_fits(const experiment *x, char *const *fig, int nfig, bool compact)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem == NULL)
        xalloc_fail("cannot buffer the sweep table");
    sweep_rows(x, mem, fig, nfig, compact);
    fclose(mem);
    bool fits = widest_line(text) <= TEXTCOLS_WIDTH;
    free(text);
    return fits;
}

/* One row per setting with its --metric figures and their differences from the baseline; when
 * the figures side by side pass the width, one such table per figure, one under the other. */
static void render_sweep(const experiment *x, FILE *out, double wall, uint64_t played)
{
    const exp_options *o = x->o;
    setting *set = x->set;
    int nset = x->nset, base = x->base;
    char what[256];
    snprintf(what, sizeof what, "sweep of %d setting%s, %s%llu games each", nset,
             nset == 1 ? "" : "s", o->until ? "until " : "",
             (unsigned long long)o->runs);
    if (o->until)
        snprintf(what, sizeof what, "sweep of %d settings, each until %s (at most %llu games)",
                 nset, o->until, (unsigned long long)o->runs);
    /* Under rotation a deal is played once per rotation: say both counts. */
    if (o->rotate && !o->until)
        snprintf(what, sizeof what, "sweep of %d setting%s, %llu deals each, one game per deal "
                 "and rotation", nset, nset == 1 ? "" : "s",
                 (unsigned long long)o->runs);
    write_header(out, o, &set[0], what);
    char note[1024];
    snprintf(note, sizeof note,
             "baseline: %s; differences are paired on the same games (95%% CI)",
             set[base].label);
    textcols_para(out, note, 0, TEXTCOLS_WIDTH);
    textcols_para(out,
                  o->rotate ? "xF: F times narrower than unpaired; seat figures are per bot "
                              "(@K: the bot of seat K)"
                            : "xF: F times narrower than unpaired",
                  0, TEXTCOLS_WIDTH);
    fputc('\n', out);
    char figs[1024];
    snprintf(figs, sizeof figs, "%s", o->metric ? o->metric : EXP_SWEEP_FIGURES);
    char *fig[16] = {0};
    int nfig = 0;
    char *rest = figs;
    for (char *t = strsep(&rest, ","); t && nfig < 16; t = strsep(&rest, ","))
        fig[nfig++] = t;
    /* the fixed columns when they fit, else the compact ones, else a table per figure */
    if (sweep_fits(x, fig, nfig, false)) {
        sweep_rows(x, out, fig, nfig, false);
    } else if (nfig == 1 || sweep_fits(x, fig, nfig, true)) {
        sweep_rows(x, out, fig, nfig, true);
    } else {
        for (int f = 0; f < nfig; f++) {
            if (f > 0)
                fputc('\n', out);
            sweep_rows(x, out, fig + f, 1, !sweep_fits(x, fig + f, 1, false));
        }
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
