/* experiment.c — sweeps, paired differences, seat rotation, --until and sensitivity: settings
 * played in step on common random numbers, with exact per-game paired sums. */
#include "report.h"
#include "experiment.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_cdf.h>

#include "botspec.h"
#include "numfmt.h"
#include "rules.h"
#include "runner.h"
#include "stats.h"
#include "xalloc.h"

/* --until plays blocks: the first ends at UNTIL_BLOCK games, each next one adds
 * max(UNTIL_BLOCK, games so far / 10): boundaries depend on nothing but the game count. */
enum { UNTIL_BLOCK = 1000, CHUNK = 256, CHUNKS_PER_THREAD = 8, VALUE_MAX = 256 };

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- paired statistics -------------------------------------------------------------------- */

/* Adds one game's own and cross sums (all but those of the baseline alone), without counting
 * the game. */
static inline void own_cross_add(exp_pair *p, int64_t x, int64_t c, int64_t bx, int64_t bc)
{
    p->x += x;
    p->c += c;
    p->xx += (__int128)x * x;
    p->xc += (__int128)x * c;
    p->cc += (__int128)c * c;
    p->x_bx += (__int128)x * bx;
    p->x_bc += (__int128)x * bc;
    p->c_bx += (__int128)c * bx;
    p->c_bc += (__int128)c * bc;
}

void exp_pair_add(exp_pair *p, int64_t x, int64_t c, int64_t bx, int64_t bc)
{
    p->n++;
    own_cross_add(p, x, c, bx, bc);
    p->bx += bx;
    p->bc += bc;
    p->bxx += (__int128)bx * bx;
    p->bxc += (__int128)bx * bc;
    p->bcc += (__int128)bc * bc;
}

/* Fills in the sums the game loop leaves out (see pair64): ca and cb are the constant
 * counts of the setting's and the baseline's slot (0: not constant); self: the slot is the
 * baseline's own, paired with itself. */
static void pair_complete(exp_pair *p, int64_t ca, int64_t cb, bool self)
{
    __int128 n = p->n;
    if (ca) {
        p->c = ca * n;
        p->xc = ca * p->x;
        p->cc = (__int128)ca * ca * n;
    }
    if (self) {
        p->bx = p->x, p->bc = p->c, p->bxx = p->xx, p->bxc = p->xc, p->bcc = p->cc;
        p->x_bx = p->xx, p->x_bc = p->xc, p->c_bx = p->xc, p->c_bc = p->cc;
        return;
    }
    if (ca && cb) {
        p->bc = cb * n;
        p->bxc = cb * p->bx;
        p->bcc = (__int128)cb * cb * n;
        p->x_bc = cb * p->x;
        p->c_bx = ca * p->bx;
        p->c_bc = (__int128)ca * cb * n;
    }
}

void exp_pair_merge(exp_pair *d, const exp_pair *s)
{
    d->n += s->n;
    d->x += s->x, d->c += s->c, d->xx += s->xx, d->xc += s->xc, d->cc += s->cc;
    d->bx += s->bx, d->bc += s->bc, d->bxx += s->bxx, d->bxc += s->bxc, d->bcc += s->bcc;
    d->x_bx += s->x_bx, d->x_bc += s->x_bc, d->c_bx += s->c_bx, d->c_bc += s->c_bc;
}

/* The linearised ratio estimator: a game's influence on Σx/Σc is u = (x - R c) / mean(c), and
 * var(Σx/Σc) ≈ Σu² / (n (n-1)) (the mean of u is 0 exactly). For a difference of two ratios on
 * the same games, u - v replaces u, hence the cross sums. */
void exp_pair_estimate(const exp_pair *p, exp_estimate *e)
{
    e->value = e->lo = e->hi = e->base = e->diff = e->dlo = e->dhi = e->ulo = e->uhi = NAN;
    long double n = (long double)p->n;
    long double c = (long double)p->c, bc = (long double)p->bc;
    long double ra = 0, rb = 0, uu = 0, vv = 0, uv = 0;
    if (p->c != 0) {
        ra = (long double)p->x / c;
        long double mc = c / n;
        uu = ((long double)p->xx - 2 * ra * (long double)p->xc + ra * ra * (long double)p->cc) /
             (mc * mc);
        if (uu < 0)
            uu = 0; /* rounding of a zero variance */
        e->value = (double)ra;
    }
    if (p->bc != 0) {
        rb = (long double)p->bx / bc;
        long double mb = bc / n;
        vv = ((long double)p->bxx - 2 * rb * (long double)p->bxc + rb * rb * (long double)p->bcc) /
             (mb * mb);
        if (vv < 0)
            vv = 0;
        e->base = (double)rb;
    }
    if (p->n < 2)
        return;
    double t = gsl_cdf_tdist_Pinv(0.975, (double)(p->n - 1));
    long double scale = n * (n - 1);
    if (p->c != 0) {
        double hw = t * (double)sqrtl(uu / scale);
        e->lo = e->value - hw;
        e->hi = e->value + hw;
    }
    if (p->c != 0 && p->bc != 0) {
        long double mc = c / n, mb = bc / n;
        uv = ((long double)p->x_bx - rb * (long double)p->x_bc - ra * (long double)p->c_bx +
              ra * rb * (long double)p->c_bc) /
             (mc * mb);
        long double vd = uu + vv - 2 * uv;
        /* every game alike under both settings: the differences are all 0, exactly (the
         * floating sum above would leave a rounding residue) */
        if (vd < 0 || (p->xx - 2 * p->x_bx + p->bxx == 0 && p->cc - 2 * p->c_bc + p->bcc == 0))
            vd = 0;
        e->diff = (double)(ra - rb);
        double hw = t * (double)sqrtl(vd / scale);
        double uhw = t * (double)sqrtl((uu + vv) / scale);
        e->dlo = e->diff - hw;
        e->dhi = e->diff + hw;
        e->ulo = e->diff - uhw;
        e->uhi = e->diff + uhw;
    }
}

/* ---- settings ----------------------------------------------------------------------------- */

typedef enum axis_kind { AXIS_RULE, AXIS_PLAYERS, AXIS_PARAM } axis_kind;

/* One --sweep: a key and its values. */
typedef struct axis {
    char key[128];
    axis_kind kind;
    int seat;        /* AXIS_PARAM: 0-based seat */
    char param[64];  /* AXIS_PARAM: the bot parameter */
    int nval;
    char (*val)[VALUE_MAX];
} axis;

/* One figure of a setting's paired vector: a name with its seat or bot (1-based; 0: none). */
typedef struct slotdef {
    char name[72];
    int seat, bot;
    int64_t unit;   /* c counts this many per observation (win units for win shares) */
    int64_t cconst; /* c of every game when it never varies (see pair64), else 0 */
} slotdef;

/* How the game loop adds a slot (see classify): its kind, its baseline slot, and the constant
 * counts of both (see slotdef.cconst). */
typedef struct slot_op {
    int kind, b;
    int64_t cconst, bconst;
} slot_op;

typedef struct setting {
    char label[512];    /* "entry_fee=30 players=3" ("default" when nothing is swept) */
    cJSON *values;      /* swept key -> value */
    char raw[EXP_MAX_SWEEPS][VALUE_MAX];
    cJSON *ruleset;
    void *rules;
    int nseats, nrot;
    run_config cfg[GAME_MAX_SEATS];                      /* one per rotation */
    char canon[GAME_MAX_SEATS][BOT_SPEC_MAX];            /* seat k's bot, unrotated */
    int nbots, botid[GAME_MAX_SEATS];                    /* distinct bots, seat -> bot */
    int nslots, ngame_slots, group;                      /* slot layout */
    int nends, ngm, nsm, *gm, *sm; /* the game's ends; its game and seat metrics' indices */
    slotdef *slot;
    int *pair;       /* baseline slot of each slot, or -1 */
    slot_op *op;     /* per slot: how it accumulates (see classify) */
    bool aligned;    /* not the baseline; slot j pairs with the baseline's slot j, paired
                        with a constant count exactly when its own is constant */
    int until_slot;  /* -1 when not stopping at a precision */
    bool active;     /* still counting games */
    uint64_t games;  /* games counted */
    double until_hw;
    run_result res;  /* totals (not rotated) */
    exp_pair *sum;   /* totals per slot, as the game loop adds them (acc completes them) */
    exp_pair *acc;   /* totals per slot */
    exp_pair *bsum;  /* the block being played: its sums per slot, */
    run_result bres; /* and its tallies (not rotated) */
    cJSON *exact;
} setting;

/* Parses a number; true if the whole text is one. */
static bool number(const char *s, double *out)
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
static int parse_axis(const char *text, axis *a, char *err, size_t errlen)
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
        if (!number(buf, &from) || !number(c1 + 1, &to) || !number(c2 + 1, &step))
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
static void with_param(const char *canon, const char *param, const char *value, char *out,
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

enum { SLOT_SELF_CONST, SLOT_SELF, SLOT_CONST, SLOT_FULL };

/* Tells how the game loop adds each slot of setting S (not the baseline B when is_base): unpaired (the baseline itself, or no baseline slot) or paired, with a constant count
 * or not (see pair64). */
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

static int find_slot(const setting *S, const char *name, int seat, int bot)
{
    for (int j = 0; j < S->nslots; j++)
        if (strcmp(S->slot[j].name, name) == 0 && S->slot[j].seat == seat && S->slot[j].bot == bot)
            return j;
    return -1;
}

/* Resolves a figure (NAME or NAME@K) in setting S; -1 with a message if S has none. */
static int resolve_figure(const setting *S, const char *opt, const char *fig, char *err,
                          size_t errlen)
{
    char name[128];
    snprintf(name, sizeof name, "%s", fig);
    int k = 0;
    char *at = strchr(name, '@');
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
        j = find_slot(S, name, 0, 0);
    else if (S->nrot > 1 && strcmp(name, "seat_advantage") == 0)
        j = find_slot(S, name, k, 0);
    else if (S->nrot > 1)
        j = find_slot(S, name, 0, S->botid[k - 1] + 1);
    else
        j = find_slot(S, name, k, 0);
    if (j >= 0)
        return j;
    char names[2048];
    size_t used = 0;
    names[0] = '\0';
    for (int i = 0; i < S->nslots && used < sizeof names; i++) {
        bool first_of_kind = S->slot[i].seat + S->slot[i].bot <= 1;
        if (!first_of_kind)
            continue;
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s%s", used ? ", " : "",
                                 S->slot[i].name, S->slot[i].seat + S->slot[i].bot ? "@K" : "");
    }
    return snprintf(err, errlen, "%s: no figure '%s' (figures: %s)", opt, fig, names), -1;
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
            if (rules_set(tree, extra[i], err, errlen) != 0) {
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
static int make_setting(setting *S, const exp_options *o, const char *const *extra, int nextra,
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
        with_param(S->canon[ax[a].seat], ax[a].param, ax[a].val[pick[a]], text, sizeof text);
        if (botspec_parse(g, text, &seat[ax[a].seat], S->canon[ax[a].seat], BOT_SPEC_MAX, e2,
                          sizeof e2) != 0)
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

static void free_setting(setting *S)
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

/* ---- playing in step ---------------------------------------------------------------------- */

/* The game loop adds into 64-bit partial sums, flushed into the exact 128-bit ones of
 * exp_pair after each chunk of at most CHUNK games (flush_chunk): while every figure is below
 * SMALL in magnitude (so every difference below 2 SMALL), a chunk's sums of products stay far
 * below 2^63. A game with a larger figure goes into exact chunk sums (wset.big) of the same
 * meaning instead.
 *
 * The loop adds only what varies from game to game, once:
 * - the game count is the same for every slot of a setting: counted once (wset.games);
 * - a slot whose count c is the same in every game (a game's length, a win share, a score)
 *   keeps x and xx but not c, xc and cc, which pair_complete derives from the constant;
 * - an unpaired slot (the baseline's own, or one the baseline lacks) keeps its own sums
 *   x, c, xx, xc, cc (the fields of the same names);
 * - a paired slot keeps the sums of its differences from the baseline's figures of the same
 *   game, dx = x - bx and dc = c - bc: in the fields x, c, xx, xc, cc, x_bx, x_bc, c_bx, c_bc
 *   the sums of dx, dc, dx dx, dx dc, dc dc, dx bx, dx bc, dc bx, dc bc. A game alike under
 *   both settings (common random numbers make many) adds nothing. Each chunk, the baseline's
 *   own sums over the same games (the baseline is played whenever another setting is) turn
 *   them back into exp_pair's (hand_baseline, flush_chunk). */
typedef struct pair64 {
    int64_t x, c, xx, xc, cc, x_bx, x_bc, c_bx, c_bc;
} pair64;

enum { SMALL = 1 << 22 };

/* Whether |v| < SMALL for every v whose v + SMALL is or-ed into u: 2 SMALL is a power of 2,
 * so the or of numbers below it is below it exactly when each one is. */
#define SMALL_ALL(u) ((u) < 2u * SMALL)
#define SMALL_BIAS(v) ((uint64_t)(v) + SMALL)

typedef struct wset {    /* one worker's part of one setting */
    run_result res;      /* tallies (not rotated, counting) */
    acc_spill spill;     /* their histogram cells outside the window (moved to the block's) */
    recorder *scratch;   /* per-game figures of plays whose tallies are not kept */
    acc_spill drop;      /* their histogram cells outside the window (dropped) */
    exp_pair *acc;       /* the games counted so far (in this block) */
    pair64 *part;        /* this chunk's partial sums (see pair64) */
    exp_pair *big;       /* this chunk's games with a value too large for part */
    bool any_big;        /* big holds something */
    int64_t games;       /* this chunk's games */
    int end;             /* the baseline: the end slot x holds 1 in, or -1 (see fill) */
    int64_t *x, *c;      /* this game's figure per slot */
    uint64_t *prev_x[2]; /* the totals of res.rec [0] and scratch [1] after the last play */
    int64_t *prev_c[2];  /* into them, per accumulator (see play_figure) */
    void *ctx[GAME_MAX_SEATS][GAME_MAX_SEATS]; /* [rotation][seat] */
} wset;

typedef struct engine engine;

typedef struct worker {
    engine *e;
    pthread_t thread;
    wset *ws; /* per setting */
    void *st, *view; /* the view in an allocation of its own */
} worker;

struct engine {
    const game_type *g;
    setting *set;
    int nset, base;
    worker *w;
    int nworkers;
    /* the block being played */
    uint64_t from, to, chunk, nchunks;
    _Atomic uint64_t next;
    bool *played, *counting;
    pthread_mutex_t lock;     /* for moving spilled cells into the block sums */
    uint64_t lo, hi;          /* --shard: the games of this shard */
    const unsigned char **mp; /* --merge: where each shard's next block starts */
    uint64_t plays_per_game; /* plays of one game index: every rotation of every setting played */
    /* progress on stderr (exp_options.progress), shown by the calling thread (worker 0) */
    int progress;
    bool until, shown;
    int settings_done;       /* settings that stopped at their --until target */
    double t0, last;         /* start, and when the last line was shown */
    _Atomic uint64_t plays;  /* plays done */
    uint64_t plays_cap;      /* plays of the whole experiment (with --until: at most) */
};

/* Shows the experiment's progress on stderr, as a plain run does (runner.h): on a terminal one
 * line rewritten in place once the experiment has lasted a second; in a log a line every 10 s.
 * Called by the calling thread only. */
static void show_progress(engine *e)
{
    if (e->progress == RUN_PROGRESS_NONE)
        return;
    bool tty = e->progress == RUN_PROGRESS_TTY;
    double t = now_seconds() - e->t0;
    if (tty ? t < 1.0 || t - e->last < 0.25 : t - e->last < 10.0)
        return;
    e->last = t;
    uint64_t done = atomic_load(&e->plays);
    double rate = t > 0 ? (double)done / t : 0;
    double left = rate > 0 && e->plays_cap > done ? (double)(e->plays_cap - done) / rate : 0;
    fprintf(stderr, "%s%s: %d/%d settings done, %llu%s%llu games (%.0f%%), %.0f games/s, %s%.0f s left%s",
            tty ? "\r" : "giochi-sim: progress: ", e->g->name, e->settings_done, e->nset,
            (unsigned long long)done, e->until ? " games of at most " : "/",
            (unsigned long long)e->plays_cap,
            e->plays_cap ? 100.0 * (double)done / (double)e->plays_cap : 100.0, rate,
            e->until ? "at most " : "", left, tty ? "   " : "\n");
    fflush(stderr);
    e->shown = e->shown || tty;
}

static void bad_count(const setting *S, int j, int64_t c, uint64_t i) __attribute__((noreturn));
static void bad_count(const setting *S, int j, int64_t c, uint64_t i)
{
    fprintf(stderr, "giochi-sim: internal error: slot %s counted %lld, not %lld (game %llu)\n",
            S->slot[j].name, (long long)c, (long long)S->slot[j].cconst, (unsigned long long)i);
    abort();
}

/* Where the game loop puts one setting's figures: the worker's part of the setting (W, for
 * what is rare), and its arrays, read once a play (the compiler cannot tell that the sums
 * written through them leave the pointers as they were). */
typedef struct sink {
    wset *W;
    pair64 *part;
    int64_t *x, *c;        /* W->x, W->c */
    const int64_t *bx, *bc; /* the baseline's */
} sink;

static inline sink sink_of(wset *W, const wset *B)
{
    return (sink){W, W->part, W->x, W->c, B->x, B->c};
}

/* Adds one game's own sums of slot j (constant: its count is constant and left out, c is 0). */
static inline __attribute__((always_inline)) void add_own(const sink *k, int j, int64_t x,
                                                          int64_t c, bool constant)
{
    if ((x | c) == 0)
        return;
    if (!SMALL_ALL(SMALL_BIAS(x) | SMALL_BIAS(c))) {
        own_cross_add(&k->W->big[j], x, c, 0, 0);
        k->W->any_big = true;
        return;
    }
    pair64 *q = &k->part[j];
    q->x += x, q->xx += x * x;
    if (!constant)
        q->c += c, q->xc += x * c, q->cc += c * c;
}

/* Adds one game of paired slot j as its differences from the baseline's figures (bx, bc) of
 * the same game (see pair64); both counts constant: c and bc are left out, and given as 0. */
static inline __attribute__((always_inline)) void add_diff(const sink *k, int j, int64_t x,
                                                           int64_t c, int64_t bx, int64_t bc,
                                                           bool constant)
{
    if (x == bx && c == bc) /* alike: every difference is 0 */
        return;
    if (!SMALL_ALL(SMALL_BIAS(x) | SMALL_BIAS(c) | SMALL_BIAS(bx) | SMALL_BIAS(bc))) {
        exp_pair *p = &k->W->big[j];
        __int128 dx = (__int128)x - bx, dc = (__int128)c - bc;
        p->x += dx, p->c += dc, p->xx += dx * dx, p->xc += dx * dc, p->cc += dc * dc;
        p->x_bx += dx * bx, p->x_bc += dx * bc, p->c_bx += dc * bx, p->c_bc += dc * bc;
        k->W->any_big = true;
        return;
    }
    pair64 *q = &k->part[j];
    int64_t dx = x - bx;
    q->x += dx, q->xx += dx * dx, q->x_bx += dx * bx;
    if (!constant) {
        int64_t dc = c - bc;
        q->c += dc, q->xc += dx * dc, q->cc += dc * dc;
        q->x_bc += dx * bc, q->c_bx += dc * bx, q->c_bc += dc * bc;
    }
}

/* Adds one game's figure (x, c) of slot j of setting S to W's chunk sums, paired with the
 * baseline's figures of the same game (B->x, B->c; B is W for the baseline itself). */
static inline __attribute__((always_inline)) void pair_slot(const setting *S, wset *W,
                                                            const wset *B, int j, int64_t x,
                                                            int64_t c, uint64_t i)
{
    const slot_op *op = &S->op[j];
    sink k = sink_of(W, B);
    switch (op->kind) {
    case SLOT_SELF_CONST:
        /* a slot said to count the same every game must: a game breaking it is a bug */
        if (c != op->cconst)
            bad_count(S, j, c, i);
        add_own(&k, j, x, 0, true);
        break;
    case SLOT_SELF:
        add_own(&k, j, x, c, false);
        break;
    case SLOT_CONST:
        if (c != op->cconst)
            bad_count(S, j, c, i);
        add_diff(&k, j, x, 0, k.bx[op->b], 0, true);
        break;
    default:
        add_diff(&k, j, x, c, k.bx[op->b], k.bc[op->b], false);
        break;
    }
}

/* Adds game i of setting S, whose slots were summed over its rotations into W->x and W->c, to
 * W's chunk sums (see pair_slot). */
static void pair_game(const setting *S, wset *W, const wset *B, uint64_t i)
{
    W->games++;
    for (int j = 0; j < S->nslots; j++)
        pair_slot(S, W, B, j, W->x[j], W->c[j], i);
}

/* What this play added to accumulator a of rec (successes or the sum of values, and trials or
 * observations), from rec's totals after the last play into it (kept in prev, then updated).
 * Exact: the differences of one game fit in 64 bits, and unsigned arithmetic wraps. */
static inline void play_figure(const recorder *rec, int a, uint64_t *prev_x, int64_t *prev_c,
                               int64_t *x, int64_t *c)
{
    const acc *A = &rec->a[a];
    uint64_t sx = (uint64_t)A->sum + (uint64_t)A->hits; /* a rate has no sum, a mean no hits */
    *x = (int64_t)(sx - prev_x[a]);
    *c = A->n - prev_c[a];
    prev_x[a] = sx;
    prev_c[a] = A->n;
}

enum { FILL_ADD, FILL_BASE, FILL_PAIR, FILL_ALIGNED };

/* Hands slot j's figure (x, c) of one play to W. FILL_ADD adds it into W->x and W->c (a
 * rotation: paired once every rotation is in). FILL_BASE (the baseline) keeps it there for the
 * partners and adds its own sums; FILL_PAIR (a partner) pairs it at once with the baseline's
 * (see pair_slot); FILL_ALIGNED is FILL_PAIR for a partner whose slots are the baseline's,
 * slot for slot (setting.aligned). put_const is for the slots whose count is constant (slotdef.cconst, given
 * as c): it skips a game with x = 0 unless the baseline's count varies (SLOT_FULL). */
static inline __attribute__((always_inline)) void put_const(const setting *S, const sink *k,
                                                            int mode, int j, int64_t x,
                                                            int64_t c)
{
    if (mode == FILL_ADD) {
        k->x[j] += x, k->c[j] += c;
    } else if (mode == FILL_BASE) {
        k->x[j] = x, k->c[j] = c;
        add_own(k, j, x, 0, true);
    } else if (mode == FILL_ALIGNED) {
        add_diff(k, j, x, 0, k->bx[j], 0, true);
    } else {
        const slot_op *op = &S->op[j];
        if (op->kind == SLOT_CONST)
            add_diff(k, j, x, 0, k->bx[op->b], 0, true);
        else if (op->kind == SLOT_SELF_CONST)
            add_own(k, j, x, 0, true);
        else /* a partner whose count is constant where the baseline's is not */
            add_diff(k, j, x, c, k->bx[op->b], k->bc[op->b], false);
    }
}

static inline __attribute__((always_inline)) void put_var(const setting *S, const sink *k,
                                                          int mode, int j, int64_t x,
                                                          int64_t c)
{
    if (mode == FILL_ADD) {
        k->x[j] += x, k->c[j] += c;
    } else if (mode == FILL_BASE) {
        k->x[j] = x, k->c[j] = c;
        add_own(k, j, x, c, false);
    } else if (mode == FILL_ALIGNED) {
        add_diff(k, j, x, c, k->bx[j], k->bc[j], false);
    } else {
        const slot_op *op = &S->op[j];
        if (op->kind == SLOT_FULL)
            add_diff(k, j, x, c, k->bx[op->b], k->bc[op->b], false);
        else
            add_own(k, j, x, c, false);
    }
}

/* Hands every slot's figure of one play (rotation r) of setting S to W (see put_const): the
 * outcome o, and what the play recorded into rec (whose totals after the last play are in
 * prev_x and prev_c). The slots' order is build_slots'. */
static inline __attribute__((always_inline)) void fill(const setting *S, wset *W,
                                                       const wset *B, int mode, int r,
                                                       const outcome *o, const recorder *rec,
                                                       uint64_t *prev_x, int64_t *prev_c)
{
    int j = 0, nwin = 0;
    int64_t x, c;
    sink sk = sink_of(W, B);
    for (uint32_t w = o->winners; w; w &= w - 1)
        nwin++;
    put_const(S, &sk, mode, j++, o->length, 1);
    put_const(S, &sk, mode, j++, nwin > 1, 1);
    put_const(S, &sk, mode, j++, nwin == 0, 1);
    /* one end slot holds 1, the others 0: the baseline keeps its end (W->end, to clear it
     * next game); a partner's end slots other than its own and the baseline's are 0 under
     * both and add nothing. End slots pair with the baseline's end slots of the same index,
     * whose counts are constant too (SLOT_CONST). */
    if (mode == FILL_ADD) {
        for (int e = 0; e < S->nends; e++)
            put_const(S, &sk, mode, j + e, o->end == e, 1);
    } else {
        int end = o->end >= 0 && o->end < S->nends ? o->end : -1;
        if (mode == FILL_BASE) {
            if (W->end >= 0)
                sk.x[j + W->end] = 0;
            W->end = end;
        } else if (B->end >= 0 && B->end != end) {
            put_const(S, &sk, mode, j + B->end, 0, 1);
        }
        if (end >= 0)
            put_const(S, &sk, mode, j + end, 1, 1);
    }
    j += S->nends;
    for (int q = 0; q < S->ngm; q++) {
        play_figure(rec, S->gm[q] * REC_SLOTS + REC_SLOT(-1), prev_x, prev_c, &x, &c);
        put_var(S, &sk, mode, j++, x, c);
    }
    for (int k = 0; k < S->nseats; k++) {
        int grp = S->nrot > 1 ? S->botid[(k + r) % S->nseats] : k;
        j = S->ngame_slots + grp * S->group;
        int64_t units = (o->winners & (1u << k)) ? RUN_WIN_UNIT / nwin : 0;
        put_const(S, &sk, mode, j++, units, RUN_WIN_UNIT);
        put_const(S, &sk, mode, j++, o->score[k], 1);
        put_var(S, &sk, mode, j++, o->rank[k], o->rank[k] > 0);
        for (const int *m = S->sm, *end = m + S->nsm; m < end; m++) {
            play_figure(rec, *m * REC_SLOTS + REC_SLOT(k), prev_x, prev_c, &x, &c);
            put_var(S, &sk, mode, j++, x, c);
        }
        if (S->nrot > 1)
            put_const(S, &sk, mode, S->ngame_slots + S->nbots * S->group + k, units,
                      RUN_WIN_UNIT);
    }
}

/* Adds to the totals of every paired slot of S the baseline's own sums of the chunk (its part
 * and big, over the same games): the sums of the baseline alone, and the part of the setting's
 * own and cross sums that its differences from the baseline leave out (see pair64). */
static void hand_baseline(const setting *S, wset *W, const wset *B)
{
    for (int j = 0; j < S->nslots; j++) {
        const slot_op *op = &S->op[j];
        if (op->kind != SLOT_CONST && op->kind != SLOT_FULL)
            continue;
        exp_pair *p = &W->acc[j];
        const pair64 *bq = &B->part[op->b];
        const exp_pair *bb = &B->big[op->b];
        __int128 bx = (__int128)bq->x + bb->x, bxx = (__int128)bq->xx + bb->xx;
        __int128 bc, bxc, bcc;
        if (op->bconst) { /* the baseline kept no count: it is bconst a game */
            bc = (__int128)op->bconst * W->games;
            bxc = op->bconst * bx;
            bcc = (__int128)op->bconst * op->bconst * W->games;
        } else {
            bc = (__int128)bq->c + bb->c;
            bxc = (__int128)bq->xc + bb->xc;
            bcc = (__int128)bq->cc + bb->cc;
        }
        /* x = bx + dx, c = bc + dc (pair_complete redoes the counts of a SLOT_CONST) */
        p->bx += bx, p->bc += bc, p->bxx += bxx, p->bxc += bxc, p->bcc += bcc;
        p->x += bx, p->c += bc, p->xx += bxx, p->xc += bxc, p->cc += bcc;
        p->x_bx += bxx, p->x_bc += bxc, p->c_bx += bxc, p->c_bc += bcc;
    }
}

/* Adds one slot's chunk sums q (pair64's meaning for its kind: diff for a paired slot, in 128
 * bits) into its totals p. */
static void add_chunk(exp_pair *p, const exp_pair *q, bool diff)
{
    p->x += q->x, p->c += q->c, p->xx += q->xx, p->xc += q->xc, p->cc += q->cc;
    if (!diff)
        return;
    /* x = bx + dx, c = bc + dc: what the differences add to each sum besides hand_baseline's */
    p->xx += 2 * q->x_bx;
    p->xc += q->c_bx + q->x_bc;
    p->cc += 2 * q->c_bc;
    p->x_bx += q->x_bx, p->x_bc += q->x_bc, p->c_bx += q->c_bx, p->c_bc += q->c_bc;
}

/* Moves a chunk's sums of W into its totals (count: the games count there) and clears them. */
static void flush_chunk(const setting *S, wset *W, bool count)
{
    for (int j = 0; count && j < S->nslots; j++) {
        bool diff = S->op[j].kind == SLOT_CONST || S->op[j].kind == SLOT_FULL;
        const pair64 *q = &W->part[j];
        exp_pair wide = {.x = q->x, .c = q->c, .xx = q->xx, .xc = q->xc, .cc = q->cc,
                         .x_bx = q->x_bx, .x_bc = q->x_bc, .c_bx = q->c_bx, .c_bc = q->c_bc};
        W->acc[j].n += W->games;
        add_chunk(&W->acc[j], &wide, diff);
        if (W->any_big)
            add_chunk(&W->acc[j], &W->big[j], diff);
    }
    memset(W->part, 0, (size_t)S->nslots * sizeof *W->part);
    if (W->any_big)
        memset(W->big, 0, (size_t)S->nslots * sizeof *W->big);
    W->any_big = false;
    W->games = 0;
}

/* Plays game i of setting s (each rotation) and adds it to this worker's chunk sums. */
static void play_setting(engine *e, worker *w, int s, uint64_t i)
{
    setting *S = &e->set[s];
    wset *W = &w->ws[s];
    const wset *B = &w->ws[e->base];
    bool tally = e->counting[s] && S->nrot == 1;
    recorder *rec = tally ? W->res.rec : W->scratch;
    uint64_t *prev_x = W->prev_x[!tally];
    int64_t *prev_c = W->prev_c[!tally];
    outcome o;
    if (S->nrot == 1) {
        if (tally) /* choices by kind count as in a plain run */
            run_game_counted(&S->cfg[0], W->ctx[0], i, w->st, w->view, &o, rec, &W->res);
        else
            run_game(&S->cfg[0], W->ctx[0], i, w->st, w->view, &o, rec, NULL);
        if (tally)
            run_tally(&W->res, &S->cfg[0], &o);
        W->games++;
        if (W == B)
            fill(S, W, B, FILL_BASE, 0, &o, rec, prev_x, prev_c);
        else if (S->aligned)
            fill(S, W, B, FILL_ALIGNED, 0, &o, rec, prev_x, prev_c);
        else
            fill(S, W, B, FILL_PAIR, 0, &o, rec, prev_x, prev_c);
        return;
    }
    memset(W->x, 0, (size_t)S->nslots * sizeof *W->x);
    memset(W->c, 0, (size_t)S->nslots * sizeof *W->c);
    for (int r = 0; r < S->nrot; r++) {
        run_game(&S->cfg[r], W->ctx[r], i, w->st, w->view, &o, rec, NULL);
        fill(S, W, B, FILL_ADD, r, &o, rec, prev_x, prev_c);
    }
    pair_game(S, W, B, i);
}

static void play_game(engine *e, worker *w, uint64_t i)
{
    /* the baseline first: the others pair with its figures of the game. It is played whenever
     * another setting is, and keeps its own sums even when it has stopped counting: they are
     * its partners' sums of the baseline alone (hand_baseline). */
    play_setting(e, w, e->base, i);
    for (int s = 0; s < e->nset; s++)
        if (s != e->base && e->played[s])
            play_setting(e, w, s, i);
}

static void *work(void *arg)
{
    worker *w = arg;
    engine *e = w->e;
    for (;;) {
        uint64_t k = atomic_fetch_add(&e->next, 1);
        if (k >= e->nchunks)
            break;
        uint64_t from = e->from + k * e->chunk, to = from + e->chunk;
        if (to > e->to)
            to = e->to;
        for (uint64_t i = from; i < to; i++)
            play_game(e, w, i);
        atomic_fetch_add(&e->plays, (to - from) * e->plays_per_game);
        if (w == &e->w[0])
            show_progress(e);
        const wset *B = &w->ws[e->base];
        for (int s = 0; s < e->nset; s++)
            if (e->counting[s] && s != e->base)
                hand_baseline(&e->set[s], &w->ws[s], B);
        for (int s = 0; s < e->nset; s++) {
            wset *W = &w->ws[s];
            W->drop.n = 0;
            if (e->played[s])
                flush_chunk(&e->set[s], W, e->counting[s]);
            if (e->counting[s] && W->spill.n > 0) {
                pthread_mutex_lock(&e->lock);
                run_result_unspill(&e->set[s].bres, &W->res, &W->spill);
                pthread_mutex_unlock(&e->lock);
            }
        }
    }
    return NULL;
}

/* Plays games [from, to) of every setting that needs them, on the worker threads. */
static void play_block(engine *e, uint64_t from, uint64_t to)
{
    e->from = from;
    e->to = to;
    uint64_t n = to - from;
    e->chunk = n / ((uint64_t)e->nworkers * CHUNKS_PER_THREAD);
    if (e->chunk < 1)
        e->chunk = 1;
    if (e->chunk > CHUNK)
        e->chunk = CHUNK;
    e->nchunks = (n + e->chunk - 1) / e->chunk;
    e->plays_per_game = 0;
    for (int s = 0; s < e->nset; s++)
        e->plays_per_game += e->played[s] ? (uint64_t)e->set[s].nrot : 0;
    atomic_store(&e->next, 0);
    int nt = e->nworkers;
    if ((uint64_t)nt > e->nchunks)
        nt = (int)e->nchunks;
    for (int t = 1; t < nt; t++)
        if (pthread_create(&e->w[t].thread, NULL, work, &e->w[t]) != 0)
            xalloc_fail("cannot start a worker thread: try fewer --threads");
    work(&e->w[0]);
    for (int t = 1; t < nt; t++)
        pthread_join(e->w[t].thread, NULL);
}

/* Completes the sums of setting s into its totals (acc). */
static void total_acc(engine *e, int s)
{
    setting *S = &e->set[s];
    memcpy(S->acc, S->sum, (size_t)S->nslots * sizeof *S->acc);
    const setting *B = &e->set[e->base];
    for (int j = 0; j < S->nslots; j++) {
        int b = S->pair[j];
        int64_t ca = S->slot[j].cconst, cb = b >= 0 ? B->slot[b].cconst : 0;
        if (s == e->base)
            pair_complete(&S->acc[j], ca, 0, true);
        else if (b < 0)
            pair_complete(&S->acc[j], ca, 0, false);
        else if (ca && cb)
            pair_complete(&S->acc[j], ca, cb, false);
        /* else: the game loop and hand_baseline kept every sum */
    }
}

static void free_engine(engine *e)
{
    for (int t = 0; t < e->nworkers; t++) {
        worker *w = &e->w[t];
        for (int s = 0; s < e->nset && w->ws; s++) {
            wset *W = &w->ws[s];
            for (int r = 0; r < e->set[s].nrot; r++)
                run_bots_free(&e->set[s].cfg[r], W->ctx[r]);
            if (W->res.rec)
                run_result_free(&W->res);
            rec_free(W->scratch);
            free(W->spill.cell);
            free(W->drop.cell);
            free(W->acc);
            free(W->part);
            free(W->big);
            free(W->x);
            free(W->c);
            for (int k = 0; k < 2; k++) {
                free(W->prev_x[k]);
                free(W->prev_c[k]);
            }
        }
        free(w->ws);
        free(w->st);
        free(w->view);
    }
    free(e->w);
    free(e->played);
    free(e->counting);
    pthread_mutex_destroy(&e->lock);
}

/* ---- blocks: sums per block, as bytes for other processes ------------------------------------ */

/* Clears the block sums of every setting. */
static void block_clear(engine *e)
{
    for (int s = 0; s < e->nset; s++) {
        setting *S = &e->set[s];
        memset(S->bsum, 0, (size_t)S->nslots * sizeof *S->bsum);
        if (S->nrot == 1) {
            run_result_free(&S->bres);
            run_result_init(&S->bres, &S->cfg[0], false);
        }
    }
}

/* Moves what the workers summed in the block just played into the block sums of each counting
 * setting, and clears the workers' (their memory does not outgrow one block). */
static void collect_block(engine *e)
{
    for (int s = 0; s < e->nset; s++) {
        if (!e->counting[s])
            continue;
        setting *S = &e->set[s];
        for (int t = 0; t < e->nworkers; t++) {
            wset *W = &e->w[t].ws[s];
            for (int j = 0; j < S->nslots; j++)
                exp_pair_merge(&S->bsum[j], &W->acc[j]);
            memset(W->acc, 0, (size_t)S->nslots * sizeof *W->acc);
            if (S->nrot == 1) {
                run_result_merge(&S->bres, &W->res, S->nseats);
                run_result_free(&W->res);
                run_result_init(&W->res, &S->cfg[0], false);
                run_result_spill(&W->res, &W->spill);
                /* the recorder's totals start again from zero (see play_figure) */
                size_t nacc = (size_t)W->res.rec->nmetrics * REC_SLOTS;
                memset(W->prev_x[0], 0, nacc * sizeof *W->prev_x[0]);
                memset(W->prev_c[0], 0, nacc * sizeof *W->prev_c[0]);
            }
        }
    }
}

static void put_pair(pbuf *b, const exp_pair *p)
{
    partial_put_u64(b, (uint64_t)p->n);
    const __int128 *f[] = {&p->x,   &p->c,   &p->xx,   &p->xc,   &p->cc,
                           &p->bx,  &p->bc,  &p->bxx,  &p->bxc,  &p->bcc,
                           &p->x_bx, &p->x_bc, &p->c_bx, &p->c_bc};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        partial_put_i128(b, *f[i]);
}

static void get_pair(preader *r, exp_pair *p)
{
    p->n = (int64_t)partial_get_u64(r);
    __int128 *f[] = {&p->x,   &p->c,   &p->xx,   &p->xc,   &p->cc,
                     &p->bx,  &p->bc,  &p->bxx,  &p->bxc,  &p->bcc,
                     &p->x_bx, &p->x_bc, &p->c_bx, &p->c_bc};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        *f[i] = partial_get_i128(r);
}

/* Appends the block sums of every setting: a flag (1: counted in this block), then the sums of
 * each slot and (not rotated) the tallies. */
static void put_block(const engine *e, pbuf *b)
{
    for (int s = 0; s < e->nset; s++) {
        const setting *S = &e->set[s];
        partial_put_u64(b, e->counting[s]);
        if (!e->counting[s])
            continue;
        for (int j = 0; j < S->nslots; j++)
            put_pair(b, &S->bsum[j]);
        if (S->nrot == 1)
            partial_put_result(b, &S->cfg[0], &S->bres);
    }
}

/* Adds block sums written by put_block into those of every counting setting (a setting the
 * bytes hold but that no longer counts is skipped: a merge of shards, which play on). Returns 0,
 * or -1 with a message. */
static int add_block(engine *e, preader *r, char *err, size_t errlen)
{
    for (int s = 0; s < e->nset && !r->bad; s++) {
        setting *S = &e->set[s];
        uint64_t flag = partial_get_u64(r);
        if (r->bad)
            break;
        if (flag > 1 || (flag == 0 && e->counting[s])) {
            snprintf(err, errlen, "the block sums do not hold the settings this experiment plays");
            return -1;
        }
        if (flag == 0)
            continue;
        for (int j = 0; j < S->nslots; j++) {
            exp_pair p;
            get_pair(r, &p);
            if (e->counting[s])
                exp_pair_merge(&S->bsum[j], &p);
        }
        if (S->nrot == 1 && !r->bad) {
            run_result one;
            if (partial_get_result(&r->p, r->end, &S->cfg[0], &one, err, errlen) != 0)
                return -1;
            if (e->counting[s])
                run_result_merge(&S->bres, &one, S->nseats);
            run_result_free(&one);
        }
    }
    if (r->bad) {
        snprintf(err, errlen, "the block sums are truncated or malformed");
        return -1;
    }
    return 0;
}

/* exp_add_fn for the engine: adds another process's block sums into this one's, and writes
 * the total into *sum. */
static int add_bytes(void *ctx, pbuf *sum, const unsigned char *p, size_t n, char *err,
                     size_t errlen)
{
    engine *e = ctx;
    preader r = {p, p + n, false};
    if (add_block(e, &r, err, errlen) != 0)
        return -1;
    sum->len = 0;
    put_block(e, sum);
    if (sum->oom)
        return snprintf(err, errlen, "out of memory"), -1;
    return 0;
}

/* --merge: the sums of block [from, to) over every shard, read from the shards' payloads. */
static int read_block(engine *e, const exp_options *o, uint64_t from, uint64_t to, char *err,
                      size_t errlen)
{
    for (int i = 0; i < o->nmerged; i++) {
        preader r = {e->mp[i], o->merged[i] + o->merged_len[i], false};
        uint64_t f = partial_get_u64(&r), t = partial_get_u64(&r), has = partial_get_u64(&r);
        if (r.bad || f != from || t != to || has > 1)
            return snprintf(err, errlen, "shard %d of the partial results does not hold the "
                            "block of games %llu-%llu this experiment plays", i,
                            (unsigned long long)from, (unsigned long long)to),
                   -1;
        if (has && add_block(e, &r, err, errlen) != 0)
            return -1;
        e->mp[i] = r.p;
    }
    return 0;
}

/* The sums of block [from, to) into every setting's block sums: played here (the part of
 * this process), combined with the other processes' (MPI), or read from the shards (merge). */
static int block(engine *e, const exp_options *o, uint64_t from, uint64_t to, char *err,
                 size_t errlen)
{
    block_clear(e);
    if (o->merged)
        return read_block(e, o, from, to, err, errlen);
    uint64_t a = from, b = to;
    if (o->shard_out) {
        a = from > e->lo ? from : e->lo;
        b = to < e->hi ? to : e->hi;
        if (b < a)
            b = a;
    } else if (o->combine && o->parts > 1) {
        uint64_t first, count;
        partial_shard_range(to - from, o->part, o->parts, &first, &count);
        a = from + first;
        b = a + count;
    }
    if (a < b) {
        play_block(e, a, b);
        collect_block(e);
    }
    if (o->shard_out) {
        partial_put_u64(o->shard_out, from);
        partial_put_u64(o->shard_out, to);
        partial_put_u64(o->shard_out, a < b);
        if (a < b)
            put_block(e, o->shard_out);
        return 0;
    }
    if (!o->combine || o->parts <= 1)
        return 0;
    pbuf bytes = {0};
    put_block(e, &bytes);
    int rc = bytes.oom ? (snprintf(err, errlen, "out of memory"), -1)
                       : o->combine(&bytes, add_bytes, e, err, errlen);
    if (rc == 0) { /* every process takes the same total */
        block_clear(e);
        preader r = {bytes.p, bytes.p + bytes.len, false};
        rc = add_block(e, &r, err, errlen);
    }
    free(bytes.p);
    return rc;
}

/* Plays every setting: one block of o->runs games, or blocks until each setting's --until
 * target. Returns 0; or 4 with a message (a bot failed to set up, the processes' sums could
 * not be combined); or 2 (partial results that do not fit). */
static int play_all(engine *e, const exp_options *o, double target, char *err, size_t errlen)
{
    const game_type *g = e->g;
    e->progress = o->progress;
    e->until = target > 0;
    e->t0 = now_seconds();
    for (int s = 0; s < e->nset; s++)
        e->plays_cap += o->runs * (uint64_t)e->set[s].nrot;
    if (o->parts > 1 && (o->shard_out || o->combine)) /* this process plays about its share */
        e->plays_cap = (e->plays_cap + (uint64_t)o->parts - 1) / (uint64_t)o->parts;
    e->nworkers = o->merged ? 0 : o->threads < 1 ? 1 : o->threads;
    if (e->progress == RUN_PROGRESS_LOG)
        fprintf(stderr, "giochi-sim: progress: %s: %d setting%s, %s%llu games on %d thread%s\n",
                g->name, e->nset, e->nset == 1 ? "" : "s", e->until ? "at most " : "",
                (unsigned long long)e->plays_cap, e->nworkers, e->nworkers == 1 ? "" : "s");
    e->w = xcalloc((size_t)e->nworkers, sizeof *e->w);
    e->played = xcalloc((size_t)e->nset, sizeof *e->played);
    e->counting = xcalloc((size_t)e->nset, sizeof *e->counting);
    pthread_mutex_init(&e->lock, NULL);
    for (int s = 0; s < e->nset; s++) {
        setting *S = &e->set[s];
        S->sum = xcalloc((size_t)S->nslots, sizeof *S->sum);
        S->bsum = xcalloc((size_t)S->nslots, sizeof *S->bsum);
        if (S->nrot == 1) {
            run_result_init(&S->res, &S->cfg[0], false);
            run_result_init(&S->bres, &S->cfg[0], false);
        }
    }
    for (int t = 0; t < e->nworkers; t++) {
        worker *w = &e->w[t];
        w->e = e;
        w->st = xcalloc(1, g->state_size);
        w->view = xcalloc(1, g->view_size ? g->view_size : 1);
        w->ws = xcalloc((size_t)e->nset, sizeof *w->ws);
        for (int s = 0; s < e->nset; s++) {
            setting *S = &e->set[s];
            wset *W = &w->ws[s];
            run_result_init(&W->res, &S->cfg[0], false);
            run_result_spill(&W->res, &W->spill);
            W->scratch = rec_new(g, S->nseats, false);
            rec_set_spill(W->scratch, &W->drop);
            for (int k = 0; k < 2; k++) {
                size_t nacc = (size_t)W->scratch->nmetrics * REC_SLOTS;
                W->prev_x[k] = xcalloc(nacc, sizeof *W->prev_x[k]);
                W->prev_c[k] = xcalloc(nacc, sizeof *W->prev_c[k]);
            }
            W->acc = xcalloc((size_t)S->nslots, sizeof *W->acc);
            W->part = xcalloc((size_t)S->nslots, sizeof *W->part);
            W->big = xcalloc((size_t)S->nslots, sizeof *W->big);
            W->x = xcalloc((size_t)S->nslots, sizeof *W->x);
            W->end = -1;
            W->c = xcalloc((size_t)S->nslots, sizeof *W->c);
            for (int r = 0; r < S->nrot; r++)
                if (run_bots_setup(&S->cfg[r], W->ctx[r], err, errlen) != 0) {
                    free_engine(e);
                    return 4;
                }
        }
    }
    /* A shard plays its games of every block up to the cap, without stopping: the stopping
     * rule needs every shard's sums, and the merge applies it block by block. */
    bool stopping = target > 0 && o->shard_out == NULL;
    e->lo = 0, e->hi = o->runs;
    if (o->shard_out && o->parts > 1) {
        uint64_t count;
        partial_shard_range(o->runs, o->part, o->parts, &e->lo, &count);
        e->hi = e->lo + count;
    }
    if (o->merged) {
        e->mp = xcalloc((size_t)o->nmerged, sizeof *e->mp);
        for (int i = 0; i < o->nmerged; i++)
            e->mp[i] = o->merged[i];
    }
    uint64_t done = 0;
    int rc = 0;
    for (;;) {
        bool any = false;
        for (int s = 0; s < e->nset; s++) {
            e->counting[s] = e->set[s].active;
            any = any || e->counting[s];
        }
        if (!any || done >= o->runs)
            break;
        for (int s = 0; s < e->nset; s++)
            e->played[s] = e->counting[s] || s == e->base;
        uint64_t next = o->runs;
        if (target > 0) {
            uint64_t step = done / 10 > UNTIL_BLOCK ? done / 10 : UNTIL_BLOCK;
            if (next - done > step)
                next = done + step;
        }
        if ((rc = block(e, o, done, next, err, errlen)) != 0) {
            rc = o->merged ? 2 : 4;
            break;
        }
        for (int s = 0; s < e->nset; s++) {
            setting *S = &e->set[s];
            if (!e->counting[s])
                continue;
            for (int j = 0; j < S->nslots; j++)
                exp_pair_merge(&S->sum[j], &S->bsum[j]);
            if (S->nrot == 1)
                run_result_merge(&S->res, &S->bres, S->nseats);
        }
        done = next;
        for (int s = 0; s < e->nset; s++) {
            setting *S = &e->set[s];
            if (!S->active)
                continue;
            S->games = done;
            if (stopping) {
                total_acc(e, s);
                exp_estimate est;
                exp_pair_estimate(&S->acc[S->until_slot], &est);
                S->until_hw = isnan(est.lo) ? INFINITY : (est.hi - est.lo) / 2;
                if (S->until_hw <= target) {
                    S->active = false;
                    e->settings_done++;
                }
            }
        }
    }
    if (e->shown)
        fputs("\r\033[K", stderr);
    if (e->progress == RUN_PROGRESS_LOG)
        fprintf(stderr, "giochi-sim: progress: %s: %d setting%s, %llu games in %.1f s\n",
                g->name, e->nset, e->nset == 1 ? "" : "s",
                (unsigned long long)atomic_load(&e->plays), now_seconds() - e->t0);
    for (int s = 0; s < e->nset; s++)
        total_acc(e, s);
    free(e->mp);
    free_engine(e);
    return rc;
}

/* ---- reports ------------------------------------------------------------------------------ */

static cJSON *num_or_null(double v)
{
    return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

static cJSON *interval(double lo, double hi)
{
    if (isnan(lo))
        return cJSON_CreateNull();
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_CreateNumber(lo));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(hi));
    return a;
}

/* What a seat advantage subtracts from the seat's win share: 1/N (0 for other figures). */
static double adv_shift(const setting *S, int j)
{
    return strcmp(S->slot[j].name, "seat_advantage") == 0 ? 1.0 / S->nseats : 0;
}

/* The estimates of slot j of S against the baseline setting B, seat advantages shifted by
 * 1/N of their own setting. */
static void slot_est(const setting *S, int j, const setting *B, exp_estimate *e)
{
    exp_pair_estimate(&S->acc[j], e);
    double a = adv_shift(S, j);
    if (a == 0)
        return;
    double b = 1.0 / B->nseats, d = a - b;
    e->value -= a, e->lo -= a, e->hi -= a, e->base -= b;
    e->diff -= d, e->dlo -= d, e->dhi -= d, e->ulo -= d, e->uhi -= d;
}

/* {"value", "ci95", "n"} of slot j of S (n: observations, or games for win shares). */
static cJSON *slot_estimate(const setting *S, int j, double shift)
{
    exp_estimate est;
    exp_pair_estimate(&S->acc[j], &est);
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
        slot_est(S, j, B, &est);
        if (isnan(est.diff))
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "metric", S->slot[j].name);
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
    return arr;
}

/* ---- CSV ---------------------------------------------------------------------------------- */

static void csv_num(FILE *f, double x)
{
    char buf[40];
    fputc(',', f);
    if (!isnan(x))
        fputs(numfmt_double(buf, sizeof buf, x), f);
}

/* prefix,game,metric,seat,bot,value,lo,hi,n,stat (the report's columns; stat says what the
 * value is: share, mean, diff, diff_unpaired) */
static void csv_row(FILE *f, const char *prefix, const char *game, const char *metric, int seat,
                    const char *bot, double v, double lo, double hi, double n, const char *stat)
{
    fputs(prefix, f);
    report_csv_field(f, game);
    fputc(',', f);
    report_csv_field(f, metric);
    if (seat > 0)
        fprintf(f, ",%d,", seat);
    else
        fputs(",,", f);
    report_csv_field(f, bot);
    csv_num(f, v);
    csv_num(f, lo);
    csv_num(f, hi);
    csv_num(f, n);
    fputc(',', f);
    fputs(stat, f);
    fputc('\n', f);
}

/* One estimate's row; stat NULL: "share" for an estimate with hits, else "mean". */
static void csv_estimate(FILE *f, const char *prefix, const char *game, const char *metric,
                         int seat, const char *bot, const cJSON *e, const char *stat)
{
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(e, "ci95");
    bool has = cJSON_GetArraySize(ci) == 2;
    if (stat == NULL)
        stat = cJSON_GetObjectItemCaseSensitive(e, "hits") ? "share" : "mean";
    csv_row(f, prefix, game, metric, seat, bot, report_num(e, "value"),
            has ? cJSON_GetArrayItem(ci, 0)->valuedouble : NAN,
            has ? cJSON_GetArrayItem(ci, 1)->valuedouble : NAN, report_num(e, "n"), stat);
}

/* The CSV rows of a setting's report, each line behind prefix (no header). */
static void csv_report(FILE *f, const char *prefix, const cJSON *r)
{
    const char *game = report_str(r, "game");
    if (cJSON_GetObjectItemCaseSensitive(r, "rotations") == NULL) {
        /* the ordinary report's own CSV, header dropped, each line prefixed */
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (mem == NULL)
            xalloc_fail("cannot buffer the CSV report");
        report_write(mem, r, REPORT_CSV);
        fclose(mem);
        char *line = strchr(text, '\n');
        for (line = line ? line + 1 : text + len; *line;) {
            char *end = strchr(line, '\n');
            fputs(prefix, f);
            fwrite(line, 1, (size_t)(end - line + 1), f);
            line = end + 1;
        }
        free(text);
        return;
    }
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(r, "bots"))
    {
        for (const cJSON *e = b->child; e; e = e->next)
            if (cJSON_IsObject(e) && strcmp(e->string, "metrics") != 0)
                csv_estimate(f, prefix, game, e->string, 0, report_str(b, "bot"), e, NULL);
        const cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(b, "metrics"))
            csv_estimate(f, prefix, game, m->string, 0, report_str(b, "bot"), m, NULL);
    }
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(r, "seat_advantage"))
    {
        int seat = (int)report_num(s, "seat");
        csv_estimate(f, prefix, game, "win_share", seat, "",
                     cJSON_GetObjectItemCaseSensitive(s, "win_share"), NULL);
        csv_estimate(f, prefix, game, "seat_advantage", seat, "",
                     cJSON_GetObjectItemCaseSensitive(s, "advantage"), NULL);
    }
    const cJSON *m;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(r, "metrics"))
        csv_estimate(f, prefix, game, m->string, 0, "", m, NULL);
}

/* Two rows per difference: stat diff (paired interval) and diff_unpaired. */
static void csv_differences(FILE *f, const char *prefix, const char *game, const cJSON *diffs)
{
    const cJSON *d;
    cJSON_ArrayForEach(d, diffs)
    {
        const char *name = report_str(d, "metric");
        const cJSON *ci = cJSON_GetObjectItemCaseSensitive(d, "ci95");
        const cJSON *cu = cJSON_GetObjectItemCaseSensitive(d, "ci95_unpaired");
        int seat = (int)(isnan(report_num(d, "seat")) ? 0 : report_num(d, "seat"));
        bool has = cJSON_GetArraySize(ci) == 2;
        csv_row(f, prefix, game, name, seat, report_str(d, "bot"), report_num(d, "value"),
                has ? cJSON_GetArrayItem(ci, 0)->valuedouble : NAN,
                has ? cJSON_GetArrayItem(ci, 1)->valuedouble : NAN, report_num(d, "n"), "diff");
        has = cJSON_GetArraySize(cu) == 2;
        csv_row(f, prefix, game, name, seat, report_str(d, "bot"), report_num(d, "value"),
                has ? cJSON_GetArrayItem(cu, 0)->valuedouble : NAN,
                has ? cJSON_GetArrayItem(cu, 1)->valuedouble : NAN, report_num(d, "n"),
                "diff_unpaired");
    }
}

/* ---- text --------------------------------------------------------------------------------- */

static bool is_share(const setting *S, int j, const game_type *g)
{
    const char *n = S->slot[j].name;
    if (strcmp(n, "win_share") == 0 || strcmp(n, "seat_advantage") == 0 ||
        strcmp(n, "ties") == 0 || strcmp(n, "no_winner") == 0 || strncmp(n, "ended.", 6) == 0)
        return true;
    for (int m = 0; g->metrics && g->metrics[m].name; m++)
        if (strcmp(g->metrics[m].name, n) == 0)
            return g->metrics[m].kind == METRIC_RATE;
    return false;
}

/* "12.34%" or "3.512": a share in percent, a mean to 4 significant digits. */
static void text_value(char *buf, size_t n, double v, bool share, bool sign)
{
    if (isnan(v))
        snprintf(buf, n, "—");
    else if (share)
        snprintf(buf, n, sign ? "%+.2f" : "%.2f%%", 100 * v);
    else
        snprintf(buf, n, sign ? "%+.4g" : "%.4g", v);
}

/* "17.10% [16.77, 17.43]" */
static void text_interval(char *buf, size_t n, double v, double lo, double hi, bool share,
                          bool sign)
{
    char a[40], b[40], c[40];
    text_value(a, sizeof a, v, share, sign);
    if (isnan(lo)) {
        snprintf(buf, n, "%s", a);
        return;
    }
    text_value(b, sizeof b, lo, share, sign);
    text_value(c, sizeof c, hi, share, sign);
    if (share) { /* the brackets in points, without the % sign */
        snprintf(b, sizeof b, sign ? "%+.2f" : "%.2f", 100 * lo);
        snprintf(c, sizeof c, sign ? "%+.2f" : "%.2f", 100 * hi);
    }
    snprintf(buf, n, "%s [%s, %s]", a, b, c);
}

static void write_header(FILE *f, const exp_options *o, const setting *S0, const char *what)
{
    const game_type *g = o->game;
    fprintf(f, "%s — %s\n", g->name, g->title);
    fprintf(f, "%s; seed %llu\n", what, (unsigned long long)o->seed);
    char e[256];
    cJSON *def = rules_parse(g->default_rules, g->name, e, sizeof e);
    /* the ruleset every setting shares: the default with --config and --set */
    cJSON *base = NULL;
    void *rules = rules_effective_files(g, o->configs, o->nconfigs, o->sets, o->nsets, &base, e,
                                        sizeof e);
    free(rules);
    cJSON *ch = base ? rules_changes(def, base) : NULL;
    if (cJSON_GetArraySize(ch) > 0) {
        fputs("ruleset changes:", f);
        const cJSON *c;
        cJSON_ArrayForEach(c, ch)
            fprintf(f, " %s", c->valuestring);
        fputc('\n', f);
    }
    cJSON_Delete(ch);
    cJSON_Delete(base);
    cJSON_Delete(def);
    fprintf(f, "bots:");
    for (int k = 0; k < S0->nseats; k++)
        fprintf(f, " %s", S0->canon[k]);
    fprintf(f, "%s\n", o->rotate ? " (rotated: each deal played once per rotation)" : "");
}

/* ---- the experiment ----------------------------------------------------------------------- */

bool experiment_wanted(const exp_options *o)
{
    return o->nsweeps > 0 || o->rotate || o->until || o->sensitivity;
}

cJSON *experiment_command_line(int argc, char **argv)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < argc; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(argv[i]));
    return a;
}

/* Looks up the number at dotted path in the ruleset; NULL if it is not one. */
static const cJSON *leaf(const cJSON *root, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *node = root;
    char *save = NULL;
    for (char *p = strtok_r(buf, ".", &save); p && node; p = strtok_r(NULL, ".", &save)) {
        if (cJSON_IsArray(node)) {
            char *end;
            long i = strtol(p, &end, 10);
            node = (*p >= '0' && *p <= '9' && !*end) ? cJSON_GetArrayItem(node, (int)i) : NULL;
        } else {
            node = cJSON_GetObjectItemCaseSensitive(node, p);
        }
    }
    return node;
}

typedef struct sens_key {
    char key[256];
    double def, step;
    int side[2]; /* setting index of down and up, or -1 */
    char skipped[2][512];
    double effect;
} sens_key;

/* An experiment: its options, settings and what the rendering reads once they are played. */
typedef struct experiment {
    const exp_options *o;
    axis ax[EXP_MAX_SWEEPS]; /* the --sweep options */
    int nax;
    setting *set;            /* every setting; set[base] is the baseline */
    int nset, base;
    sens_key *keys;          /* --sensitivity: the keys moved, then sorted by effect */
    int nkeys;
    double target;           /* --until: the half-width, else 0 */
    char until_fig[128];     /* --until: the figure */
} experiment;

static int by_effect(const void *a, const void *b)
{
    const sens_key *x = a, *y = b;
    if (x->effect != y->effect)
        return x->effect < y->effect ? 1 : -1;
    return 0;
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
            text_interval(cell[b], sizeof cell[b], est.value, est.lo, est.hi, is_share(S, j, g),
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
            text_interval(cell[b], sizeof cell[b], est.value, est.lo, est.hi, is_share(S, j, g),
                          false);
            fprintf(out, "  %-*s", cw[b], cell[b]);
        }
        fputc('\n', out);
    }
}

/* The report of one setting: the ordinary report (with the --until line), or the rotation
 * report in text or CSV. */
static void render_single(const experiment *x, const cJSON *root, const cJSON *run, FILE *out)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
    setting *set = x->set;
    double target = x->target;
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(root, "until");
    if (o->format == REPORT_CSV) {
        if (set[0].nrot == 1) {
            report_write(out, root, REPORT_CSV);
        } else {
            fputs("game,metric,seat,bot,value,ci95_low,ci95_high,n,stat\n", out);
            csv_report(out, "", root);
        }
    } else if (set[0].nrot == 1) {
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
            text_interval(buf, sizeof buf, est.value - sh, est.lo - sh, est.hi - sh, true,
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
            text_interval(buf, sizeof buf, est.value, est.lo, est.hi, is_share(S, j, g),
                          false);
            fprintf(out, "  %-28s %s\n", S->slot[j].name, buf);
        }
    }
    if (o->format == REPORT_TEXT && cJSON_IsObject(u))
        fprintf(out, "--until %s: %s after %.0f games (half-width %.4g, target %g)\n",
                o->until, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(u, "stopped"))
                              ? "reached"
                              : "NOT reached (cap)",
                report_num(u, "games"), report_num(u, "halfwidth_reached"), target);
}

/* The CSV of a sweep (leading columns per swept key) or of a sensitivity. */
static void render_csv(const experiment *x, const cJSON *root, FILE *out)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
    setting *set = x->set;
    int nax = x->nax;
    const axis *ax = x->ax;
    if (o->sensitivity) {
        fputs("key,key_value,game,metric,seat,bot,value,ci95_low,ci95_high,n,stat\n", out);
        const cJSON *sens = cJSON_GetObjectItemCaseSensitive(root, "sensitivity");
        const cJSON *def = cJSON_GetObjectItemCaseSensitive(sens, "default");
        csv_estimate(out, ",,", g->name, o->metric, 0, "", def, NULL);
        const cJSON *k;
        cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(sens, "keys"))
        {
            for (int side = 0; side < 2; side++) {
                const cJSON *so = cJSON_GetObjectItemCaseSensitive(k, side ? "up" : "down");
                if (cJSON_GetObjectItemCaseSensitive(so, "skipped"))
                    continue;
                char prefix[400], v[40];
                char *kf = NULL;
                size_t kl = 0;
                FILE *m = open_memstream(&kf, &kl);
                report_csv_field(m, report_str(k, "key"));
                fclose(m);
                snprintf(prefix, sizeof prefix, "%s,%s,", kf,
                         numfmt_double(v, sizeof v, report_num(so, "key_value")));
                free(kf);
                csv_estimate(out, prefix, g->name, o->metric, 0, "",
                             cJSON_GetObjectItemCaseSensitive(so, "estimate"), NULL);
                csv_estimate(out, prefix, g->name, o->metric, 0, "",
                             cJSON_GetObjectItemCaseSensitive(so, "difference"), "diff");
            }
        }
    } else {
        for (int a = 0; a < nax; a++) {
            report_csv_field(out, ax[a].key);
            fputc(',', out);
        }
        fputs("game,metric,seat,bot,value,ci95_low,ci95_high,n,stat\n", out);
        const cJSON *so;
        int si = 0;
        cJSON_ArrayForEach(so, cJSON_GetObjectItemCaseSensitive(root, "settings"))
        {
            char *prefix = NULL;
            size_t plen = 0;
            FILE *m = open_memstream(&prefix, &plen);
            const setting *S = &set[si++];
            for (int a = 0; a < nax; a++) {
                report_csv_field(m, S->raw[a]);
                fputc(',', m);
            }
            fclose(m);
            csv_report(out, prefix, cJSON_GetObjectItemCaseSensitive(so, "report"));
            csv_differences(out, prefix, g->name,
                            cJSON_GetObjectItemCaseSensitive(so, "differences"));
            free(prefix);
        }
    }
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
    int jb = resolve_figure(B, "", o->metric, err, errlen);
    bool share = is_share(B, jb, g);
    char what[256], buf[128];
    exp_estimate be;
    slot_est(B, jb, B, &be);
    text_interval(buf, sizeof buf, be.value, be.lo, be.hi, share, false);
    snprintf(what, sizeof what, "sensitivity of %s, %llu games per setting", o->metric,
             (unsigned long long)B->games);
    write_header(out, o, B, what);
    fprintf(out, "default: %s %s\n", o->metric, buf);
    fprintf(out, "each key moved down and up by 10%% of its default (whole numbers: rounded, "
                 "at least 1), paired with the default on the same games;\n"
                 "sorted by the larger effect%s\n\n",
            share ? " (shares in percentage points)" : "");
    fprintf(out, "%-24s %9s  %9s %-30s %9s %-30s\n", "key", "default", "down",
            "effect [95% CI]", "up", "effect [95% CI]");
    for (int k = 0; k < nkeys; k++) {
        sens_key *K = &keys[k];
        char dv[40];
        fprintf(out, "%-24s %9s ", K->key, numfmt_double(dv, sizeof dv, K->def));
        for (int side = 0; side < 2; side++) {
            char kv[40];
            numfmt_double(kv, sizeof kv, side ? K->def + K->step : K->def - K->step);
            if (K->side[side] < 0) {
                fprintf(out, " %9s %-30s", kv, "(out of range)");
                continue;
            }
            setting *S = &set[K->side[side]];
            exp_estimate est;
            slot_est(S, resolve_figure(S, "", o->metric, err, errlen), B, &est);
            text_interval(buf, sizeof buf, est.diff, est.dlo, est.dhi, share, true);
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
    snprintf(figs, sizeof figs, "%s", o->metric ? o->metric : "win_share@1,length");
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
            int j = resolve_figure(S, "--metric", fig[f], err, errlen);
            if (j < 0) {
                fprintf(out, "  %-26s %-30s", "—", "");
                continue;
            }
            bool share = is_share(S, j, g);
            exp_estimate est;
            slot_est(S, j, &set[base], &est);
            char a[96], d[128] = "(baseline)";
            text_interval(a, sizeof a, est.value, est.lo, est.hi, share, false);
            if (s != base && S->pair[j] >= 0 && !isnan(est.diff)) {
                char di[96];
                text_interval(di, sizeof di, est.diff, est.dlo, est.dhi, share, true);
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

/* Checks the options that do not depend on a setting; reads --until. Returns 0 or 2. */
static int check_options(experiment *x, char *err, size_t errlen)
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

/* The settings of --sensitivity: the base ruleset, then each numeric key moved down and up
 * (a move the game refuses is kept as skipped, with its reason). Returns 0 or 2. */
static int sensitivity_settings(experiment *x, char *err, size_t errlen)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
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
    x->keys = xcalloc((size_t)cap, sizeof *x->keys);
    if (o->sensitivity_keys) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", o->sensitivity_keys);
        char *rest = buf;
        for (char *t = strsep(&rest, ","); t; t = strsep(&rest, ",")) {
            const cJSON *v = leaf(base, t);
            if (!cJSON_IsNumber(v)) {
                snprintf(err, errlen, "--sensitivity: '%s' is not a numeric ruleset key", t);
                cJSON_Delete(base);
                return 2; /* experiment_run frees the keys */
            }
            snprintf(x->keys[x->nkeys].key, sizeof x->keys[0].key, "%s", t);
            x->keys[x->nkeys++].def = v->valuedouble;
        }
    } else {
        for (const cJSON *c = base->child; c; c = c->next)
            if (cJSON_IsNumber(c)) {
                snprintf(x->keys[x->nkeys].key, sizeof x->keys[0].key, "%s", c->string);
                x->keys[x->nkeys++].def = c->valuedouble;
            }
    }
    cJSON_Delete(base);
    if (x->nkeys == 0) {
        snprintf(err, errlen, "--sensitivity: the ruleset of %s has no numeric key", g->name);
        return 2;
    }
    x->set = xcalloc((size_t)(1 + 2 * x->nkeys), sizeof *x->set);
    snprintf(x->set[0].label, sizeof x->set[0].label, "default");
    x->set[0].values = cJSON_CreateObject();
    x->nset = 1; /* freed with the experiment, whole or not */
    if (make_setting(&x->set[0], o, NULL, 0, o->players, NULL, NULL, 0, err, errlen) != 0)
        return 2;
    for (int k = 0; k < x->nkeys; k++) {
        sens_key *K = &x->keys[k];
        double v = K->def;
        bool whole = v == floor(v) && fabs(v) < 1e15;
        K->step = whole ? fmax(1, round(0.1 * fabs(v))) : (v == 0 ? 0.1 : 0.1 * fabs(v));
        for (int side = 0; side < 2; side++) {
            K->side[side] = -1;
            char val[64], assign[384];
            numfmt_double(val, sizeof val, side ? v + K->step : v - K->step); /* as --x->set reads it */
            snprintf(assign, sizeof assign, "%s=%s", K->key, val);
            setting *S = &x->set[x->nset];
            memset(S, 0, sizeof *S);
            snprintf(S->label, sizeof S->label, "%s", assign);
            S->values = cJSON_CreateObject();
            cJSON_AddItemToObject(S->values, K->key, cJSON_CreateNumber(strtod(val, NULL)));
            const char *extra[1] = {assign};
            char e2[512];
            if (make_setting(S, o, extra, 1, o->players, NULL, NULL, 0, e2, sizeof e2) != 0) {
                /* a move outside the key's range is reported, not fatal */
                const char *msg = strstr(e2, ": ") ? strstr(e2, ": ") + 2 : e2;
                snprintf(K->skipped[side], sizeof K->skipped[0], "%s", msg);
                free_setting(S);
                memset(S, 0, sizeof *S);
                continue;
            }
            K->side[side] = x->nset++;
        }
    }
    return 0;
}

/* The settings of the --sweep grid (the first sweep varies slowest), or the one setting of
 * the options when nothing is swept. Returns 0 or 2. */
static int sweep_settings(experiment *x, char *err, size_t errlen)
{
    const exp_options *o = x->o;
    const game_type *g = o->game;
    for (int a = 0; a < o->nsweeps; a++) {
        if (parse_axis(o->sweeps[a], &x->ax[a], err, errlen) != 0) {
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
        if (make_setting(S, o, extra, nextra, players, x->ax, pick, x->nax, err, errlen) != 0)
            return 2;
    }
    return 0;
}

/* Picks the baseline (--baseline, else the first setting), pairs every slot of every setting
 * with the baseline's, resolves --until and --metric, and computes --exact. Returns 0 or 2. */
static int pair_settings(experiment *x, char *err, size_t errlen)
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
                                  (number(x->set[s].raw[a], &u) && number(want[a], &v) && u == v));
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
                find_slot(&x->set[x->base], S->slot[j].name, S->slot[j].seat, S->slot[j].bot);
        classify(S, &x->set[x->base], s == x->base);
        if (o->until && (S->until_slot = resolve_figure(S, "--until", x->until_fig, err,
                                                         errlen)) < 0)
            return 2;
        char figs[1024];
        snprintf(figs, sizeof figs, "%s", o->metric ? o->metric : "");
        char *rest = figs;
        for (char *t = strsep(&rest, ","); o->metric && t; t = strsep(&rest, ","))
            if (resolve_figure(S, "--metric", t, err, errlen) < 0)
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
    int jb = resolve_figure(B, "--metric", o->metric, err, errlen);
    cJSON *sens = cJSON_AddObjectToObject(root, "sensitivity");
    cJSON_AddStringToObject(sens, "metric", o->metric);
    cJSON_AddStringToObject(sens, "step",
                            "10% of the default value; whole-number keys: rounded, at "
                            "least 1; a default of 0 that is not whole: 0.1");
    cJSON_AddItemToObject(sens, "default", slot_estimate(B, jb, adv_shift(B, jb)));
    cJSON_AddNumberToObject(sens, "games", (double)B->games);
    for (int k = 0; k < nkeys; k++) {
        keys[k].effect = -1;
        for (int side = 0; side < 2; side++)
            if (keys[k].side[side] >= 0) {
                setting *S = &set[keys[k].side[side]];
                exp_estimate est;
                slot_est(S, resolve_figure(S, "", o->metric, err, errlen), B,
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
        cJSON_AddNumberToObject(ko, "default", K->def);
        cJSON_AddNumberToObject(ko, "step", K->step);
        cJSON_AddItemToObject(ko, "effect", num_or_null(K->effect < 0 ? NAN : K->effect));
        for (int side = 0; side < 2; side++) {
            cJSON *so = cJSON_AddObjectToObject(ko, side ? "up" : "down");
            cJSON_AddNumberToObject(so, "key_value",
                                    side ? K->def + K->step : K->def - K->step);
            if (K->side[side] < 0) {
                cJSON_AddStringToObject(so, "skipped", K->skipped[side]);
                continue;
            }
            setting *S = &set[K->side[side]];
            int j = resolve_figure(S, "", o->metric, err, errlen);
            exp_estimate est;
            slot_est(S, j, B, &est);
            cJSON_AddItemToObject(so, "estimate", slot_estimate(S, j, adv_shift(S, j)));
            cJSON *d = cJSON_AddObjectToObject(so, "difference");
            cJSON_AddItemToObject(d, "value", num_or_null(est.diff));
            cJSON_AddItemToObject(d, "ci95", interval(est.dlo, est.dhi));
            cJSON_AddItemToObject(d, "ci95_unpaired", interval(est.ulo, est.uhi));
        }
        cJSON_AddItemToArray(arr, ko);
    }
}

int experiment_run(const exp_options *o, FILE *out, char *err, size_t errlen)
{
    experiment X = {.o = o};
    experiment *x = &X;
    const game_type *g = o->game;
    double t0 = now_seconds();
    int rc = check_options(x, err, errlen);
    if (rc == 0)
        rc = o->sensitivity ? sensitivity_settings(x, err, errlen)
                            : sweep_settings(x, err, errlen);
    if (rc == 0)
        rc = pair_settings(x, err, errlen);
    if (rc != 0)
        goto fail;
    setting *set = x->set;
    int nset = x->nset, base = x->base;
    double target = x->target;
    const char *until_fig = x->until_fig;

    engine e = {.g = g, .set = set, .nset = nset, .base = base};
    rc = play_all(&e, o, target, err, errlen);
    if (rc != 0 || out == NULL)
        goto fail; /* out NULL: no report (rc 0) */
    double wall = o->merged ? o->merged_wall : now_seconds() - t0;
    uint64_t played = 0;
    for (int s = 0; s < nset; s++)
        played += set[s].games * (uint64_t)set[s].nrot;

    /* ---- the report ---- */
    cJSON *run = cJSON_CreateObject();
    cJSON_AddNumberToObject(run, "threads", o->threads);
    cJSON_AddNumberToObject(run, "wall_seconds", wall);
    cJSON_AddNumberToObject(run, "games_per_second", wall > 0 ? (double)played / wall : 0);
    cJSON_AddItemToObject(run, "command_line", experiment_command_line(o->argc, o->argv));
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
        cJSON_AddStringToObject(until, "metric", until_fig);
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
        if (o->sensitivity) {
            sensitivity_json(x, root);
        } else {
            cJSON *arr = cJSON_AddArrayToObject(root, "settings");
            for (int s = 0; s < nset; s++) {
                setting *S = &set[s];
                cJSON *so = cJSON_CreateObject();
                cJSON_AddItemToObject(so, "values", cJSON_Duplicate(S->values, 1));
                cJSON_AddStringToObject(so, "label", S->label);
                cJSON_AddBoolToObject(so, "baseline", s == base);
                cJSON_AddNumberToObject(so, "games", (double)S->games);
                if (until)
                    add_until(so, until, S, target);
                cJSON_AddItemToObject(so, "report", setting_report(S, g));
                cJSON_AddItemToObject(so, "differences", differences(S, &set[base]));
                cJSON_AddItemToArray(arr, so);
            }
        }
        cJSON_AddItemToObject(root, "run", run);
        run = NULL;
    }

    if (o->tree)
        *o->tree = cJSON_Duplicate(root, 1);

    /* ---- rendering ---- */
    FILE *real_out = out;
    char *tbuf = NULL;
    size_t tlen = 0;
    if (o->format == REPORT_TEXT) { /* rendered, then written without trailing blanks */
        out = open_memstream(&tbuf, &tlen);
        if (out == NULL)
            xalloc_fail("cannot buffer the text report");
    }
    if (o->format == REPORT_JSON) {
        report_write(out, root, REPORT_JSON);
    } else if (o->nsweeps == 0 && !o->sensitivity) {
        render_single(x, root, run, out);
    } else if (o->format == REPORT_CSV) {
        render_csv(x, root, out);
    } else if (o->sensitivity) {
        render_sensitivity(x, out);
    } else {
        render_sweep(x, out, wall, played);
    }
    if (o->format == REPORT_TEXT) {
        fclose(out);
        out = real_out;
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
    cJSON_Delete(run);
    cJSON_Delete(until);
    cJSON_Delete(root);
    rc = 0;

fail:
    for (int s = 0; s < x->nset; s++)
        free_setting(&x->set[s]);
    free(x->set);
    free(x->keys);
    for (int a = 0; a < x->nax; a++)
        free(x->ax[a].val);
    return rc;
}
