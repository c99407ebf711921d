/* toy_kit.c — the toy games the unit tests share (toy_kit.h): small games with answers known
 * in closed form or planted, never in the registry. Each is described above its code. */
#include "toy_kit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/rules.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "core/rng.h"

/* ==== for the search bots and perft (tests/bots/test_search.c) ============================= */

static const char *const one_kind[] = {"move", NULL};
static const char *const one_end[] = {"over", NULL};
static const metric_def no_metrics[] = {{NULL, METRIC_MEAN, METRIC_GAME, NULL}};

static void name_action(const void *st, const decision *d, int32_t a, char *buf, size_t n)
{
    (void)st;
    (void)d;
    snprintf(buf, n, "%d", (int)a);
}

/* A 64-bit mix of a small position code (splitmix64's finalizer). */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

/* ---- tic-tac-toe --------------------------------------------------------------------- */


static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

/* 1 or 2 if that mark has three in a row, else 0. */
int ttt_line(const ttt *t)
{
    for (int l = 0; l < 8; l++) {
        int a = t->cell[lines[l][0]];
        if (a && a == t->cell[lines[l][1]] && a == t->cell[lines[l][2]])
            return a;
    }
    return 0;
}

static void ttt_start(void *st, const void *rules, int nseats, rng *chance, trace *tr)
{
    (void)rules;
    (void)nseats;
    (void)chance;
    (void)tr;
    memset(st, 0, sizeof(ttt));
}

static bool ttt_decide(const void *st, decision *d)
{
    const ttt *t = st;
    if (t->moves == 9 || ttt_line(t))
        return false;
    d->seat = t->turn;
    d->kind = 0;
    d->n = 0;
    for (int i = 0; i < 9; i++)
        if (t->cell[i] == 0)
            d->action[d->n++] = i;
    return true;
}

static void ttt_apply(void *st, int32_t a, rng *chance, trace *tr)
{
    (void)chance;
    (void)tr;
    ttt *t = st;
    t->cell[a] = (int8_t)(t->turn + 1);
    t->turn = (int8_t)(1 - t->turn);
    t->moves++;
}

static void ttt_finish(const void *st, outcome *o, recorder *rec)
{
    (void)rec;
    const ttt *t = st;
    int w = ttt_line(t);
    o->length = t->moves;
    o->winners = w ? 1u << (w - 1) : 0;
    o->score[0] = w == 1;
    o->score[1] = w == 2;
}

/* Lines still open to `seat` minus lines still open to the other seat. */
static int32_t ttt_evaluate(const void *st, int seat)
{
    const ttt *t = st;
    int v = 0;
    for (int l = 0; l < 8; l++) {
        bool mine = false, theirs = false;
        for (int k = 0; k < 3; k++) {
            int c = t->cell[lines[l][k]];
            mine |= c == seat + 1;
            theirs |= c == 2 - seat;
        }
        v += (mine && !theirs) - (theirs && !mine);
    }
    return v;
}

static uint64_t ttt_hash(const void *st)
{
    const ttt *t = st;
    uint64_t code = (uint64_t)t->turn;
    for (int i = 0; i < 9; i++)
        code = code * 3 + (uint64_t)t->cell[i];
    return mix(code);
}

/* The centre first, then the corners. */
static void ttt_order(const void *st, const decision *d, int32_t *score)
{
    (void)st;
    for (int i = 0; i < d->n; i++)
        score[i] = d->action[i] == 4 ? 2 : d->action[i] % 2 == 0;
}

const game_type ttt_game = {
    .name = "ttt",
    .title = "tic-tac-toe (tests only)",
    .seed = "none",
    .min_seats = 2,
    .max_seats = 2,
    .default_seats = 2,
    .default_bot = "random",
    .state_size = sizeof(ttt),
    .start = ttt_start,
    .decide = ttt_decide,
    .apply = ttt_apply,
    .finish = ttt_finish,
    .action_name = name_action,
    .kind_names = one_kind,
    .end_names = one_end,
    .metrics = no_metrics,
    .length_unit = "moves",
    .score_name = "wins",
    .bots = (const bot_type *const[]){&bot_random, NULL},
    .deterministic = true,
    .evaluate = ttt_evaluate,
    .hash = ttt_hash,
    .order = ttt_order,
};

/* ---- Nim, and Nim with extra moves --------------------------------------------------- */

/* Three piles; a move takes 1 or more stones from one pile (action pile * 16 + stones);
 * whoever takes the last stone wins. With `again`, a player who takes exactly 3 stones (and
 * does not end the game) moves again. The position is the piles and the seat to move;
 * `last` is the seat that moved last, who wins once every pile is empty. */

static void nim_start(void *st, const void *rules, int nseats, rng *chance, trace *tr)
{
    (void)rules;
    (void)nseats;
    (void)chance;
    (void)tr;
    nim *n = st;
    memset(n, 0, sizeof *n);
    n->pile[0] = 3;
    n->pile[1] = 4;
    n->pile[2] = 5;
}

static bool nim_decide(const void *st, decision *d)
{
    const nim *n = st;
    d->seat = n->turn;
    d->kind = 0;
    d->n = 0;
    for (int p = 0; p < 3; p++)
        for (int k = 1; k <= n->pile[p]; k++)
            d->action[d->n++] = p * 16 + k;
    return d->n > 0;
}

static void nim_apply(void *st, int32_t a, rng *chance, trace *tr)
{
    (void)chance;
    (void)tr;
    nim *n = st;
    n->pile[a / 16] = (int8_t)(n->pile[a / 16] - a % 16);
    n->last = n->turn;
    bool over = n->pile[0] + n->pile[1] + n->pile[2] == 0;
    if (!(n->again && a % 16 == 3 && !over))
        n->turn = (int8_t)(1 - n->turn);
}

static void nim_finish(const void *st, outcome *o, recorder *rec)
{
    (void)rec;
    const nim *n = st;
    o->winners = 1u << n->last;
}

static int32_t nim_evaluate(const void *st, int seat)
{
    (void)st;
    (void)seat;
    return 0; /* no knowledge: only the search's proven results matter */
}

static uint64_t nim_hash(const void *st)
{
    const nim *n = st;
    return mix((uint64_t)(n->pile[0] | n->pile[1] << 4 | n->pile[2] << 8 | n->turn << 12));
}

#define NIM_FIELDS                                                                           \
    .title = "Nim (tests only)", .seed = "none", .min_seats = 2, .max_seats = 2,             \
    .default_seats = 2, .default_bot = "random", .state_size = sizeof(nim),                  \
    .start = nim_start, .decide = nim_decide, .apply = nim_apply, .finish = nim_finish,      \
    .action_name = name_action, .kind_names = one_kind, .end_names = one_end,                \
    .metrics = no_metrics, .length_unit = "moves", .score_name = "wins",                     \
    .bots = (const bot_type *const[]){&bot_random, NULL}, .deterministic = true,             \
    .evaluate = nim_evaluate

const game_type nim_game = {.name = "nim", NIM_FIELDS, .hash = nim_hash};
const game_type nim_nohash_game = {.name = "nim-nohash", NIM_FIELDS};

/* ---- a dice race --------------------------------------------------------------------- */

/* Two racers from 0 to RACE_GOAL. On his turn a racer either walks 2 steps or rolls a die
 * with faces 1..4 and moves that far (more on average, but it may fall short). The first to
 * reach the goal wins. */



static void race_start(void *st, const void *rules, int nseats, rng *chance, trace *tr)
{
    (void)rules;
    (void)nseats;
    (void)chance;
    (void)tr;
    race *r = st;
    memset(r, 0, sizeof *r);
    r->winner = -1;
}

static bool race_decide(const void *st, decision *d)
{
    const race *r = st;
    if (r->winner >= 0)
        return false;
    d->seat = r->turn;
    d->kind = 0;
    d->n = 2;
    d->action[0] = 0; /* walk 2 */
    d->action[1] = 1; /* roll 1..4 */
    return true;
}

static void race_apply(void *st, int32_t a, rng *chance, trace *tr)
{
    (void)tr;
    race *r = st;
    r->pos[r->turn] = (int8_t)(r->pos[r->turn] + (a == 0 ? 2 : rng_die(chance, 4)));
    if (r->pos[r->turn] >= RACE_GOAL)
        r->winner = r->turn;
    r->turn = (int8_t)(1 - r->turn);
}

static void race_finish(const void *st, outcome *o, recorder *rec)
{
    (void)rec;
    const race *r = st;
    o->winners = 1u << r->winner;
}

const game_type race_game = {
    .name = "race",
    .title = "dice race (tests only)",
    .seed = "none",
    .min_seats = 2,
    .max_seats = 2,
    .default_seats = 2,
    .default_bot = "random",
    .state_size = sizeof(race),
    .start = race_start,
    .decide = race_decide,
    .apply = race_apply,
    .finish = race_finish,
    .action_name = name_action,
    .kind_names = one_kind,
    .end_names = one_end,
    .metrics = no_metrics,
    .length_unit = "turns",
    .score_name = "wins",
    .bots = (const bot_type *const[]){&bot_random, NULL},
};

/* ==== "toy" (pig-race), for the runner, recorder, statistics and report (tests/core) ========
 * Seats take turns; the seat to move rolls a die, then decides to bank (add the roll to its
 * score) or pass (add nothing); first to reach 10 wins; a tie is impossible except by the
 * 30-turn cap, after which every seat with the top score shares. */


static const metric_def toy_metrics[] = {
    {"banks", METRIC_MEAN, METRIC_SEAT, "times the seat banked"},
    {"first_roll", METRIC_MEAN, METRIC_GAME, "the first die of the game"},
    {"banked_six", METRIC_RATE, METRIC_SEAT, "whether the seat ever banked at all"},
    {NULL, 0, 0, NULL},
};
static const char *const toy_kinds[] = {"bank", NULL};
static const char *const toy_ends[] = {"reached", "cap", NULL};

static int toy_load(void *rules, const cJSON *json, char *err, size_t errlen)
{
    (void)rules;
    static const char *const keys[] = {NULL};
    return rules_only_keys(json, "", keys, err, errlen);
}

static void toy_start(void *p, const void *rules, int nseats, rng *chance, trace *tr)
{
    (void)rules;
    toy *t = p;
    memset(t, 0, sizeof *t);
    t->nseats = nseats;
    t->roll = rng_die(chance, 6);
    t->first_roll = t->roll;
    TRACE(tr, "seat 1 rolls %d", t->roll);
}

static bool toy_over(const toy *t)
{
    if (t->turn >= 30)
        return true;
    for (int k = 0; k < t->nseats; k++)
        if (t->score[k] >= 10)
            return true;
    return false;
}

static bool toy_decide(const void *p, decision *d)
{
    const toy *t = p;
    if (toy_over(t))
        return false;
    d->seat = t->mover;
    d->kind = 0;
    d->n = 2;
    d->action[0] = 0;
    d->action[1] = 1;
    return true;
}

static void toy_apply(void *p, int32_t a, rng *chance, trace *tr)
{
    toy *t = p;
    if (a == 1) {
        t->score[t->mover] += t->roll;
        t->banks[t->mover]++;
    }
    t->turn++;
    t->mover = (t->mover + 1) % t->nseats;
    if (!toy_over(t)) {
        t->roll = rng_die(chance, 6);
        TRACE(tr, "seat %d rolls %d", t->mover + 1, t->roll);
    }
}

static void toy_finish(const void *p, outcome *o, recorder *rec)
{
    const toy *t = p;
    int best = 0;
    for (int k = 0; k < t->nseats; k++)
        best = t->score[k] > best ? t->score[k] : best;
    o->length = t->turn;
    o->end = t->turn >= 30 && best < 10;
    for (int k = 0; k < t->nseats; k++) {
        o->score[k] = t->score[k];
        o->rank[k] = t->score[k] == best ? 1 : 2;
        if (t->score[k] == best)
            o->winners |= 1u << k;
        if (rec) {
            rec_value(rec, TOY_BANKS, k, t->banks[k]);
            rec_rate(rec, TOY_BANKED, k, t->banks[k] > 0, 1);
        }
    }
    if (rec)
        rec_value(rec, TOY_FIRST_ROLL, -1, t->first_roll);
}

static void toy_name(const void *st, const decision *d, int32_t a, char *buf, size_t n)
{
    (void)st;
    (void)d;
    snprintf(buf, n, "%s", a ? "bank" : "pass");
}

/* A bot that always banks: deterministic, draws nothing from its stream. */
int always_bank(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)ctx;
    (void)seen;
    (void)d;
    (void)r;
    return 1;
}
const bot_type bot_bank = {.name = "bank", .doc = "always banks", .choose = always_bank};

static const bot_type *const toy_bots[] = {&bot_random, &bot_bank, NULL};

const game_type toy_game = {
    .name = "toy",
    .title = "toy race",
    .seed = "none",
    .min_seats = 1,
    .max_seats = 8,
    .default_seats = 2,
    .default_bot = "random",
    .default_rules = "{}",
    .rules_size = 1,
    .rules_load = toy_load,
    .state_size = sizeof(toy),
    .start = toy_start,
    .decide = toy_decide,
    .apply = toy_apply,
    .finish = toy_finish,
    .action_name = toy_name,
    .kind_names = toy_kinds,
    .end_names = toy_ends,
    .metrics = toy_metrics,
    .length_unit = "turns",
    .score_name = "points",
    .bots = toy_bots,
};

/* ==== "edge", for the experiments (tests/experiment/test_experiment.c) ======================
 * No decision at all. Chance rolls a die and draws a seat uniformly; seat 1 wins if the die
 * shows at most `edge`, otherwise the drawn seat wins. So seat 1's win share is
 * edge/6 + (1 - edge/6)/N exactly, and `noise` changes nothing. */

typedef struct edge_rules {
    long edge, noise;
} edge_rules;

typedef struct edge_state {
    const edge_rules *r;
    int nseats, roll, drawn;
} edge_state;

static const metric_def edge_metrics[] = {
    {"roll", METRIC_MEAN, METRIC_GAME, "the die"},
    {"won", METRIC_RATE, METRIC_SEAT, "the seat won"},
    {NULL, 0, 0, NULL},
};
static const char *const edge_kinds[] = {"none", NULL};
static const char *const edge_ends[] = {"edge", "draw", NULL};

static int edge_load(void *p, const cJSON *json, char *err, size_t errlen)
{
    edge_rules *r = p;
    static const char *const keys[] = {"edge", "noise", NULL};
    if (rules_only_keys(json, "", keys, err, errlen) != 0 ||
        rules_int(json, "", "edge", 0, 6, &r->edge, err, errlen) != 0 ||
        rules_int(json, "", "noise", 0, 100, &r->noise, err, errlen) != 0)
        return -1;
    return 0;
}

static void edge_start(void *p, const void *rules, int nseats, rng *chance, trace *tr)
{
    (void)tr;
    edge_state *s = p;
    s->r = rules;
    s->nseats = nseats;
    s->roll = rng_die(chance, 6);
    s->drawn = (int)rng_below(chance, (uint32_t)nseats);
}

static bool edge_decide(const void *p, decision *d)
{
    (void)p;
    (void)d;
    return false;
}

static void edge_apply(void *p, int32_t a, rng *chance, trace *tr)
{
    (void)p, (void)a, (void)chance, (void)tr;
}

static void edge_finish(const void *p, outcome *o, recorder *rec)
{
    const edge_state *s = p;
    int w = s->roll <= s->r->edge ? 0 : s->drawn;
    o->length = 1;
    o->end = s->roll <= s->r->edge ? 0 : 1;
    o->winners = 1u << w;
    for (int k = 0; k < s->nseats; k++) {
        o->score[k] = k == w;
        o->rank[k] = k == w ? 1 : 2;
        if (rec)
            rec_rate(rec, 1, k, k == w, 1);
    }
    if (rec)
        rec_value(rec, 0, -1, s->roll);
}

static void edge_name(const void *st, const decision *d, int32_t a, char *buf, size_t n)
{
    (void)st, (void)d;
    snprintf(buf, n, "%d", (int)a);
}

static int first(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)ctx, (void)seen, (void)d, (void)r;
    return 0;
}
static const bot_type bot_a = {.name = "a", .doc = "plays the first action", .choose = first};
static const bot_type bot_b = {.name = "b", .doc = "plays the first action", .choose = first};
static const bot_type *const edge_bots[] = {&bot_a, &bot_b, NULL};

const game_type edge_game = {
    .name = "edge",
    .title = "planted seat bias",
    .seed = "none",
    .min_seats = 2,
    .max_seats = 4,
    .default_seats = 2,
    .default_bot = "a",
    .default_rules = "{\"edge\": 2, \"noise\": 5}",
    .rules_size = sizeof(edge_rules),
    .rules_load = edge_load,
    .state_size = sizeof(edge_state),
    .start = edge_start,
    .decide = edge_decide,
    .apply = edge_apply,
    .finish = edge_finish,
    .action_name = edge_name,
    .kind_names = edge_kinds,
    .end_names = edge_ends,
    .metrics = edge_metrics,
    .length_unit = "plays",
    .score_name = "points",
    .bots = edge_bots,
};

/* ---- "scaled" -----------------------------------------------------------------------------
 * One play, chance rolls a die; one play, chance rolls a die; the game metric `big` records the value
 * roll * scale, roll times (so its count varies from game to game). With scale above 2^22 the
 * figures leave the game loop's 64-bit fast path (exp_engine.c, pair64) for its exact one. */
typedef struct scaled_rules {
    long scale;
} scaled_rules;

typedef struct scaled_state {
    long scale;
    int nseats, roll;
} scaled_state;

static const metric_def scaled_metrics[] = {
    {"big", METRIC_MEAN, METRIC_GAME, "roll * scale, roll times"},
    {NULL, 0, 0, NULL},
};

static int scaled_load(void *p, const cJSON *json, char *err, size_t errlen)
{
    scaled_rules *r = p;
    static const char *const keys[] = {"scale", NULL};
    return rules_only_keys(json, "", keys, err, errlen) != 0 ||
                   rules_int(json, "", "scale", 1, 1L << 40, &r->scale, err, errlen) != 0
               ? -1
               : 0;
}

static void scaled_start(void *p, const void *rules, int nseats, rng *chance, trace *tr)
{
    (void)tr;
    scaled_state *s = p;
    s->scale = ((const scaled_rules *)rules)->scale;
    s->nseats = nseats;
    s->roll = rng_die(chance, 6);
}

static void scaled_finish(const void *p, outcome *o, recorder *rec)
{
    const scaled_state *s = p;
    o->length = s->roll;
    o->end = 0;
    o->winners = 1u << (s->roll > 3);
    for (int k = 0; k < s->nseats; k++) {
        o->score[k] = (int64_t)(k + 1) * s->roll * s->scale;
        o->rank[k] = (o->winners >> k & 1) ? 1 : 2;
    }
    if (rec)
        rec_values(rec, 0, -1, s->roll * s->scale, s->roll);
}

const game_type scaled_game = {
    .name = "scaled",
    .title = "scaled figures",
    .seed = "none",
    .min_seats = 2,
    .max_seats = 2,
    .default_seats = 2,
    .default_bot = "a",
    .default_rules = "{\"scale\": 1}",
    .rules_size = sizeof(scaled_rules),
    .rules_load = scaled_load,
    .state_size = sizeof(scaled_state),
    .start = scaled_start,
    .decide = edge_decide,
    .apply = edge_apply,
    .finish = scaled_finish,
    .action_name = edge_name,
    .kind_names = edge_kinds,
    .end_names = edge_ends,
    .metrics = scaled_metrics,
    .length_unit = "plays",
    .score_name = "points",
    .bots = edge_bots,
};

/* ==== "plant", for the searches (tests/experiment/test_search.c) ============================
 * Each seat decides twice: q in 0..10, then z in 0..100 (hundredths); its bot "dial" plays
 * its parameters q and z. Chance draws a uniform v_k per seat and the seat with the largest
 * s_k v_k wins, s_k = (1 - 0.08 |q_k - 7|)(1 - 2 (z_k - 0.3)^2): the best q is 7 and the best
 * z 0.3, whatever the others play. The game figure "hit" is the share of games in which a
 * uniform draw u falls below p, a planted curve of the ruleset: p = x/100 (shape "line"),
 * p = 0.9 - 0.016 |x - 50| ("hump", 0.5 at x = 25 and x = 75), p = r ("real"),
 * p = 0.3 + 0.002 (x - 55)^2 ("dip": 0.32 at 51.84 and 58.16, both between the sweep's points
 * 50 and 62); then mode b adds 0.1, mode c takes 0.1 away, flag true adds 0.2 (p kept in
 * 0..1). */

typedef struct plant_rules {
    long x;
    double r;
    int shape, mode;
    bool flag;
} plant_rules;

typedef struct plant_state {
    const plant_rules *r;
    int nseats, step;
    int q[GAME_MAX_SEATS], z[GAME_MAX_SEATS];
    double u, v[GAME_MAX_SEATS];
} plant_state;

static const metric_def plant_metrics[] = {
    {"hit", METRIC_RATE, METRIC_GAME, "u fell below the planted p"},
    {NULL, 0, 0, NULL},
};
static const char *const plant_kinds[] = {"q", "z", NULL};
static const char *const plant_ends[] = {"over", NULL};
static const char *const plant_shapes[] = {"line", "hump", "real", "dip", NULL};
static const char *const plant_modes[] = {"a", "b", "c", NULL};

static int plant_load(void *p, const cJSON *json, char *err, size_t errlen)
{
    plant_rules *r = p;
    static const char *const keys[] = {"x", "r", "shape", "mode", "flag", NULL};
    if (rules_only_keys(json, "", keys, err, errlen) != 0 ||
        rules_int(json, "", "x", 0, 100, &r->x, err, errlen) != 0 ||
        rules_double(json, "", "r", 0, 1, &r->r, err, errlen) != 0 ||
        rules_enum(json, "", "shape", plant_shapes, &r->shape, err, errlen) != 0 ||
        rules_enum(json, "", "mode", plant_modes, &r->mode, err, errlen) != 0 ||
        rules_bool(json, "", "flag", &r->flag, err, errlen) != 0)
        return -1;
    return 0;
}

static double uniform(rng *r)
{
    return (rng_below(r, 1u << 30) + 0.5) / (double)(1u << 30);
}

static void plant_start(void *p, const void *rules, int nseats, rng *chance, trace *tr)
{
    (void)tr;
    plant_state *s = p;
    memset(s, 0, sizeof *s);
    s->r = rules;
    s->nseats = nseats;
    s->u = uniform(chance);
    for (int k = 0; k < nseats; k++)
        s->v[k] = uniform(chance);
}

static bool plant_decide(const void *p, decision *d)
{
    const plant_state *s = p;
    if (s->step >= 2 * s->nseats)
        return false;
    d->seat = s->step / 2;
    d->kind = s->step % 2;
    d->n = d->kind == 0 ? 11 : 101;
    for (int a = 0; a < d->n; a++)
        d->action[a] = a;
    return true;
}

static void plant_apply(void *p, int32_t a, rng *chance, trace *tr)
{
    (void)chance, (void)tr;
    plant_state *s = p;
    (s->step % 2 == 0 ? s->q : s->z)[s->step / 2] = a;
    s->step++;
}

/* The planted p of the ruleset. */
static double plant_p(const plant_rules *r)
{
    double p = r->shape == 0   ? r->x / 100.0
               : r->shape == 1 ? 0.9 - 0.016 * fabs(r->x - 50.0)
               : r->shape == 2 ? r->r
                               : 0.3 + 0.002 * (r->x - 55.0) * (r->x - 55.0);
    p += r->mode == 1 ? 0.1 : r->mode == 2 ? -0.1 : 0;
    p += r->flag ? 0.2 : 0;
    return fmin(1, fmax(0, p));
}

static void plant_finish(const void *p, outcome *o, recorder *rec)
{
    const plant_state *s = p;
    int w = 0;
    double best = -1;
    for (int k = 0; k < s->nseats; k++) {
        double z = s->z[k] / 100.0;
        double sk = (1 - 0.08 * abs(s->q[k] - 7)) * (1 - 2 * (z - 0.3) * (z - 0.3));
        if (sk * s->v[k] > best)
            best = sk * s->v[k], w = k;
    }
    o->length = 1;
    o->end = 0;
    o->winners = 1u << w;
    for (int k = 0; k < s->nseats; k++) {
        o->score[k] = k == w;
        o->rank[k] = k == w ? 1 : 2;
    }
    if (rec)
        rec_rate(rec, 0, -1, s->u < plant_p(s->r), 1);
}

static void plant_name(const void *st, const decision *d, int32_t a, char *buf, size_t n)
{
    (void)st, (void)d;
    snprintf(buf, n, "%d", (int)a);
}

typedef struct dial_ctx {
    int q, z;
} dial_ctx;

static int dial_setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                      const double *param, char *err, size_t errlen)
{
    (void)g, (void)rules, (void)seat, (void)nseats, (void)err, (void)errlen;
    dial_ctx *c = ctx;
    c->q = (int)param[0];
    c->z = (int)lround(param[1] * 100);
    return 0;
}

static int dial_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)seen, (void)r;
    const dial_ctx *c = ctx;
    return d->kind == 0 ? c->q : c->z;
}

static const bot_param dial_params[] = {
    {"q", 0, 0, 10, true, "the q played"},
    {"z", 0.5, 0, 1, false, "the z played"},
    {NULL, 0, 0, 0, false, NULL},
};
static const bot_type bot_dial = {.name = "dial",
                                  .doc = "plays its parameters",
                                  .params = dial_params,
                                  .ctx_size = sizeof(dial_ctx),
                                  .setup = dial_setup,
                                  .choose = dial_choose,
                                  .no_draws = true};
/* "wobble": q uniform on 0..10, drawn by its own stream and shifted by its parameter tag
 * (mod 11), z = 0.3: two wobbles are equally strong, and since their draws differ on the same
 * stream, a deal played in both seat orders is not a mirror image (the two wins of identical
 * bots would be). */
typedef struct wobble_ctx {
    int tag;
} wobble_ctx;

static int wobble_setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                        const double *param, char *err, size_t errlen)
{
    (void)g, (void)rules, (void)seat, (void)nseats, (void)err, (void)errlen;
    ((wobble_ctx *)ctx)->tag = (int)param[0];
    return 0;
}

static int wobble_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)seen;
    const wobble_ctx *c = ctx;
    return d->kind == 0 ? (int)((rng_below(r, 11) + (uint32_t)c->tag) % 11) : 30;
}
static const bot_param wobble_params[] = {
    {"tag", 0, 0, 100, true, "a name"},
    {NULL, 0, 0, 0, false, NULL},
};
static const bot_type bot_wobble = {.name = "wobble",
                                    .doc = "plays a random q",
                                    .params = wobble_params,
                                    .ctx_size = sizeof(wobble_ctx),
                                    .setup = wobble_setup,
                                    .choose = wobble_choose};
static const bot_type *const plant_bots[] = {&bot_dial, &bot_wobble, NULL};

const game_type plant_game = {
    .name = "plant",
    .title = "planted answers (test only)",
    .seed = "none",
    .min_seats = 2,
    .max_seats = 4,
    .default_seats = 2,
    .default_bot = "dial",
    .default_rules =
        "{\"x\": 50, \"r\": 0.5, \"shape\": \"line\", \"mode\": \"a\", \"flag\": false}",
    .rules_size = sizeof(plant_rules),
    .rules_load = plant_load,
    .state_size = sizeof(plant_state),
    .start = plant_start,
    .decide = plant_decide,
    .apply = plant_apply,
    .finish = plant_finish,
    .action_name = plant_name,
    .kind_names = plant_kinds,
    .end_names = plant_ends,
    .metrics = plant_metrics,
    .length_unit = "plays",
    .score_name = "points",
    .bots = plant_bots,
};
