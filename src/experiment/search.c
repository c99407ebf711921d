/* search.c — the mechanics the search modes share: a few points played in step on common
 * random numbers through the experiment engine and their estimates, derived seeds, a seat's
 * bot, values as text, and a progress line. */
#include "experiment/search.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config/botspec.h"
#include "core/rng.h"
#include "core/xalloc.h"
#include "core/numfmt.h"
#include "report/report_text.h"
#include "report/textcols.h"

uint64_t srch_seed(uint64_t seed, unsigned tag, uint64_t round)
{
    if (tag == 0 && round == 0)
        return seed;
    /* a keyed hash: the rounds' seeds are unrelated to each other and to the run's games */
    return rng_siphash(seed, 0x7365617263680000ull | tag, round, 0);
}

void srch_value(char *buf, size_t n, double v)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, n, "%.0f", v);
    else
        numfmt_double(buf, n, v);
}

bool srch_seat_figure(const char *figure)
{
    return strchr(figure, '@') != NULL;
}

void srch_progress(int mode, const char *fmt, ...)
{
    if (mode == RUN_PROGRESS_NONE)
        return;
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (mode == RUN_PROGRESS_TTY)
        fprintf(stderr, "\r\033[K%s", line);
    else
        fprintf(stderr, "giochi-sim: progress: %s\n", line);
    fflush(stderr);
}

void srch_progress_end(int mode)
{
    if (mode == RUN_PROGRESS_TTY)
        fputs("\r\033[K", stderr);
}

int srch_seat_bot(const exp_options *o, int seat, const bot_type **bot, double *param,
                  char *canon, size_t ncanon, int *nseats, char *err, size_t errlen)
{
    const game_type *g = o->game;
    seat_spec spec[GAME_MAX_SEATS];
    char (*names)[BOT_SPEC_MAX] = xcalloc(GAME_MAX_SEATS, sizeof *names);
    int n = botspec_parse_list(g, o->bots ? o->bots : g->default_bot, o->players, spec, names,
                               err, errlen);
    if (n >= 0 && seat >= n) {
        snprintf(err, errlen, "seat %d: the game has %d players", seat + 1, n);
        n = -1;
    }
    if (n >= 0) {
        *bot = spec[seat].bot;
        memcpy(param, spec[seat].param, sizeof spec[seat].param);
        snprintf(canon, ncanon, "%s", names[seat]);
        *nseats = n;
    }
    free(names);
    return n < 0 ? -1 : 0;
}

/* Sets up setting S of x from point p. Returns 0, or -1 with a message. */
static int point_setting(experiment *x, setting *S, const srch_point *p, char *err,
                         size_t errlen)
{
    exp_options op = *x->o;
    if (p->bots)
        op.bots = p->bots;
    axis *ax = xcalloc(SRCH_MAX_ASSIGN, sizeof *ax);
    const char *extra[SRCH_MAX_ASSIGN];
    char assign[SRCH_MAX_ASSIGN][VALUE_MAX + 130];
    int pick[SRCH_MAX_ASSIGN] = {0}, nextra = 0, nax = 0, players = op.players, rc = 0;
    size_t used = 0;
    S->values = cJSON_CreateObject();
    for (int a = 0; a < p->nassign && rc == 0; a++) {
        axis *A = &ax[nax];
        if (exp_parse_axis(p->assign[a], A, err, errlen) != 0 || A->nval != 1) {
            if (A->nval > 1)
                snprintf(err, errlen, "'%s': one value expected", p->assign[a]);
            rc = -1;
            free(A->val);
            break;
        }
        used += (size_t)snprintf(S->label + used, sizeof S->label - used, "%s%s", a ? " " : "",
                                 p->assign[a]);
        if (used >= sizeof S->label)
            used = sizeof S->label - 1;
        cJSON *jv = cJSON_Parse(A->val[0]);
        cJSON_AddItemToObject(S->values, A->key, jv ? jv : cJSON_CreateString(A->val[0]));
        if (A->kind == AXIS_RULE) {
            snprintf(assign[nextra], sizeof assign[0], "%.127s=%.255s", A->key, A->val[0]);
            extra[nextra] = assign[nextra];
            nextra++;
            free(A->val);
        } else if (A->kind == AXIS_PLAYERS) {
            players = atoi(A->val[0]);
            free(A->val);
        } else {
            nax++;
        }
    }
    if (p->nassign == 0)
        snprintf(S->label, sizeof S->label, "%s", p->bots ? p->bots : "default");
    if (rc == 0)
        rc = exp_make_setting(S, &op, extra, nextra, players, ax, pick, nax, err, errlen);
    for (int a = 0; a < nax; a++)
        free(ax[a].val);
    free(ax);
    return rc;
}

int srch_play(const exp_options *o, const char *opt, const srch_point *pt, int npt, bool rotate,
              const char *const *figs, int nfig, uint64_t seed, uint64_t runs, double until_hw,
              srch_out *out, char *err, size_t errlen)
{
    exp_options op = *o;
    op.runs = runs;
    op.seed = seed;
    op.rotate = rotate;
    op.until = NULL, op.metric = NULL, op.baseline = NULL;
    op.sensitivity = false, op.exact = false;
    op.nsweeps = 0;
    op.progress = RUN_PROGRESS_NONE;
    op.tree = NULL;
    experiment X = {.o = &op};
    X.set = xcalloc((size_t)npt, sizeof *X.set);
    int rc = 0;
    for (int p = 0; p < npt && rc == 0; p++) {
        X.nset++;
        if (point_setting(&X, &X.set[p], &pt[p], err, errlen) != 0)
            rc = 2;
    }
    if (rc == 0)
        rc = exp_pair_settings(&X, err, errlen);
    int *slot = xcalloc((size_t)(npt * nfig), sizeof *slot);
    for (int p = 0; p < npt && rc == 0; p++)
        for (int f = 0; f < nfig && rc == 0; f++)
            if ((slot[p * nfig + f] = exp_resolve_figure(&X.set[p], opt, figs[f], err,
                                                         errlen)) == -1)
                rc = 2;
    for (int p = 0; p < npt && rc == 0; p++)
        X.set[p].until_slot = until_hw > 0 ? slot[p * nfig] : -1;
    if (rc == 0) {
        engine e = {.g = o->game, .set = X.set, .nset = X.nset, .base = 0};
        rc = exp_play_all(&e, &op, until_hw, err, errlen);
    }
    if (rc == 0) {
        out->plays = 0;
        for (int p = 0; p < npt; p++) {
            setting *S = &X.set[p];
            for (int f = 0; f < nfig; f++)
                exp_slot_est(S, slot[p * nfig + f], &X.set[0], &out->est[p * nfig + f]);
            if (out->sum)
                exp_fsums_of(S, slot[p * nfig], &out->sum[p]);
            out->games[p] = S->games;
            out->plays += S->games * (uint64_t)S->nrot;
        }
        /* point 0 plays whenever another point does (it pairs them) */
        uint64_t most = 0;
        for (int p = 1; p < npt; p++)
            most = out->games[p] > most ? out->games[p] : most;
        if (most > X.set[0].games)
            out->plays += (most - X.set[0].games) * (uint64_t)X.set[0].nrot;
        for (int f = 0; f < nfig; f++)
            out->share[f] = exp_is_share(&X.set[0], slot[f], o->game);
    }
    free(slot);
    for (int s = 0; s < X.nset; s++)
        exp_free_setting(&X.set[s]);
    free(X.set);
    return rc;
}

/* A number, or null for NAN. */
static cJSON *num_or_null(double v)
{
    return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

cJSON *srch_json_est(double v, double lo, double hi)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "value", num_or_null(v));
    cJSON *ci = cJSON_AddArrayToObject(o, "ci95");
    cJSON_AddItemToArray(ci, num_or_null(lo));
    cJSON_AddItemToArray(ci, num_or_null(hi));
    return o;
}

cJSON *srch_json_head(const exp_options *o, const char *mode)
{
    cJSON *root = cJSON_CreateObject();
    char seedtext[32];
    snprintf(seedtext, sizeof seedtext, "%llu", (unsigned long long)o->seed);
    cJSON_AddStringToObject(root, "tool", "giochi-sim");
    cJSON_AddStringToObject(root, "version", GIOCHI_VERSION);
    cJSON_AddStringToObject(root, "game", o->game->name);
    cJSON_AddStringToObject(root, "title", o->game->title);
    cJSON_AddStringToObject(root, "mode", mode);
    cJSON_AddStringToObject(root, "seed", seedtext);
    cJSON_AddNumberToObject(root, "runs", (double)o->runs);
    cJSON *sets = cJSON_AddArrayToObject(root, "sets");
    for (int i = 0; i < o->nsets; i++)
        cJSON_AddItemToArray(sets, cJSON_CreateString(o->sets[i]));
    /* the provenance: the ruleset changes, and (but in a tournament, whose entrants rotate
     * over the seats) each seat's bot as the search starts */
    char (*canon)[BOT_SPEC_MAX] = xcalloc(GAME_MAX_SEATS, sizeof *canon);
    int nseats = 0;
    const bot_type *bt;
    double param[BOT_MAX_PARAMS];
    char err[256];
    bool seated = strcmp(mode, "tune") == 0 || strcmp(mode, "seek") == 0;
    for (int k = 0; seated && (k == 0 || k < nseats); k++)
        if (srch_seat_bot(o, k, &bt, param, canon[k], sizeof canon[k], &nseats, err,
                          sizeof err) != 0)
            nseats = 0;
    exp_json_provenance(o, (const char(*)[BOT_SPEC_MAX])canon, nseats, root);
    if (!seated) { /* players and seat_bots say nothing of a tournament */
        cJSON_DeleteItemFromObjectCaseSensitive(root, "players");
        cJSON_DeleteItemFromObjectCaseSensitive(root, "seat_bots");
    }
    free(canon);
    return root;
}

cJSON *srch_json_run(const exp_options *o, double wall, uint64_t plays)
{
    cJSON *run = cJSON_CreateObject();
    cJSON_AddNumberToObject(run, "wall_seconds", wall);
    cJSON_AddNumberToObject(run, "games_per_second", wall > 0 ? (double)plays / wall : 0);
    cJSON_AddNumberToObject(run, "threads", o->threads);
    if (o->ranks > 0)
        cJSON_AddNumberToObject(run, "ranks", o->ranks);
    report_run_stamp(run, o->argc, o->argv);
    return run;
}

void srch_text_head(const exp_options *o, FILE *out, const cJSON *root, const char *what)
{
    fprintf(out, "%s — %s\n", o->game->name, o->game->title);
    textcols_para(out, what, 0, TEXTCOLS_WIDTH);
    report_text_made_by(out, root);
    for (int i = 0; i < o->nsets; i++)
        fprintf(out, "set: %s\n", o->sets[i]);
}

int srch_finish(const exp_options *o, int rc, FILE *out, double t0, const srch_writer *w,
                const void *search)
{
    srch_progress_end(o->progress);
    if (rc != 0 || out == NULL)
        return rc;
    double wall = clock_seconds() - t0;
    cJSON *root = w->json(search, wall);
    if (o->tree)
        *o->tree = cJSON_Duplicate(root, 1);
    if (o->format == REPORT_JSON)
        report_write(out, root, REPORT_JSON);
    else if (o->format == REPORT_CSV)
        w->csv(search, out);
    else
        w->text(search, root, out, wall);
    cJSON_Delete(root);
    return rc;
}

void srch_text_tail(const exp_options *o, FILE *out, double wall, uint64_t plays)
{
    fprintf(out, "\n%llu games in %.3f s (%.0f games/s, %d thread%s)\n",
            (unsigned long long)plays, wall, wall > 0 ? (double)plays / wall : 0, o->threads,
            o->threads == 1 ? "" : "s");
}

int srch_probe(const exp_options *o, const char *assignment, char *err, size_t errlen)
{
    experiment X = {.o = o};
    setting S;
    memset(&S, 0, sizeof S);
    srch_point p = {.assign = {assignment}, .nassign = 1};
    int rc = point_setting(&X, &S, &p, err, errlen);
    exp_free_setting(&S);
    return rc;
}
