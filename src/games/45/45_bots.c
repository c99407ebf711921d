/* 45_bots.c — bots and exact analysis of the Gioco del 45 under any of its rulesets: greedy,
 * optimal-score and optimal-shut (the latter two by exact dynamic programming over the
 * 2^tiles tile sets and the choice of dice), the exact one-turn figures and the exact
 * two-player win shares of --exact. */
#include "games/45/45.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/xalloc.h"

typedef unsigned __int128 u128;


static u128 pow36(int e)
{
    u128 x = 1;
    while (e--)
        x *= 36;
    return x;
}

/* Exact values of the optimal policy for goal under r over every set below 1 << tiles, in
 * integers:
 *   G45_MAX_SHUT: v[S] = P(shut S) * 36^tiles   (S needs at most |S| rolls: an integer),
 *   G45_MIN_SCORE: v[S] = E(score | S) * 36^(tiles+1)   (at most |S|+1 rolls: an integer),
 * a roll of one die counting 6 ways in 36 per face. Subsets of S are smaller numbers, so one
 * ascending pass sees every successor first; each successor value is a multiple of 36, so
 * the division below is exact. Fills p if not NULL; ties go to the first listed move, the
 * one with the highest tile, and to two dice. */
static void solve(const g45_rules *r, g45_goal goal, u128 *v, g45_policy *p)
{
    int tiles = r->tiles;
    u128 scale = pow36(tiles);
    int32_t mv[G45_MAX_MOVES];
    for (int set = 0; set < (1 << tiles); set++) {
        /* w[t]: the value after a roll of t, per way in 36 (the best move's successor) */
        u128 w[G45_TOTALS] = {0};
        if (p)
            p->best[set][0] = 0;
        for (int t = 1; t < G45_TOTALS; t++) {
            int n = set ? g45_moves(r, set, t, mv) : 0;
            if (p)
                p->best[set][t] = 0;
            if (n == 0) {
                if (goal == G45_MIN_SCORE)
                    w[t] = (u128)g45_sum(set) * scale;
                continue;
            }
            int best = 0;
            for (int i = 1; i < n; i++) {
                u128 x = v[set & ~mv[i]], y = v[set & ~mv[best]];
                if (goal == G45_MIN_SCORE ? x < y : x > y)
                    best = i;
            }
            if (p)
                p->best[set][t] = (uint16_t)mv[best];
            w[t] = v[set & ~mv[best]] / 36;
        }
        u128 two = 0, one = 0;
        for (int t = 1; t < G45_TOTALS; t++) {
            two += (u128)g45_ways_n(2, t) * w[t];
            one += (u128)g45_ways_n(1, t) * w[t];
        }
        int rule = set ? g45_dice_rule(r, set) : 2;
        bool one_better = goal == G45_MIN_SCORE ? one < two : one > two;
        int dice = rule ? rule : one_better ? 1 : 2;
        if (p)
            p->dice[set] = (uint8_t)dice;
        /* The empty set is shut already: no roll (score 0, shut for sure). */
        v[set] = set ? (dice == 1 ? one : two) : (goal == G45_MAX_SHUT ? scale : 0);
    }
}

void g45_policy_build(g45_policy *p, const g45_rules *r, g45_goal goal)
{
    u128 *v = xmalloc(sizeof(u128) << r->tiles);
    solve(r, goal, v, p);
    free(v);
}

/* v[full set] of solve for goal under r. */
static u128 best_value(const g45_rules *r, g45_goal goal)
{
    u128 *v = xmalloc(sizeof(u128) << r->tiles);
    solve(r, goal, v, NULL);
    u128 out = v[(1 << r->tiles) - 1];
    free(v);
    return out;
}

uint64_t g45_best_shut_numerator(const g45_rules *r)
{
    return (uint64_t)best_value(r, G45_MAX_SHUT);
}

unsigned __int128 g45_best_score_numerator(const g45_rules *r)
{
    return best_value(r, G45_MIN_SCORE);
}

/* greedy's dice where the player may choose: one die once the open tiles sum to 6 or less
 * (one die then reaches every total still useful), two dice before. */
static int greedy_dice(int open)
{
    return g45_sum(open) <= 6 ? 1 : 2;
}

/* The greedy policy as a table: always the move with the highest tile (listed first). */
static void greedy_build(g45_policy *p, const g45_rules *r)
{
    int32_t mv[G45_MAX_MOVES];
    for (int set = 0; set < (1 << r->tiles); set++) {
        for (int t = 0; t < G45_TOTALS; t++)
            p->best[set][t] = (uint16_t)(g45_moves(r, set, t, mv) ? mv[0] : 0);
        int rule = g45_dice_rule(r, set);
        p->dice[set] = (uint8_t)(rule ? rule : greedy_dice(set));
    }
}

/* ---- bots ---------------------------------------------------------------------------- */

/* Index of move m in d, or aborts: a policy table must match what decide() lists. */
static int find_action(const decision *d, int32_t m)
{
    for (int i = 0; i < d->n; i++)
        if (d->action[i] == m)
            return i;
    fprintf(stderr, "45: policy move 0x%x is not among the %d legal moves\n", (unsigned)m,
            d->n);
    abort();
}

static int greedy_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)ctx;
    (void)r;
    int best = 0;
    for (int i = 1; i < d->n; i++)
        if (d->action[i] > d->action[best]) /* the higher mask holds the higher tile */
            best = i;
    /* A choice of dice lists 2 (two dice) then 1 (one die); s->left is the open tiles' sum,
     * so this is greedy_dice without a call (the function stays a leaf). */
    if (d->kind == G45_KIND_DICE)
        return ((const g45_state *)seen)->left <= 6 && d->action[1] == 1;
    return best;
}

static int table_setup(void *ctx, const void *rules, g45_goal goal)
{
    g45_policy_build(ctx, rules, goal);
    return 0;
}

static int score_setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                       const double *param, char *err, size_t errlen)
{
    (void)g, (void)seat, (void)nseats, (void)param, (void)err, (void)errlen;
    return table_setup(ctx, rules, G45_MIN_SCORE);
}

static int shut_setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                      const double *param, char *err, size_t errlen)
{
    (void)g, (void)seat, (void)nseats, (void)param, (void)err, (void)errlen;
    return table_setup(ctx, rules, G45_MAX_SHUT);
}

static int table_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)r;
    const g45_policy *p = ctx;
    const g45_state *s = seen;
    if (d->kind == G45_KIND_DICE)
        return find_action(d, p->dice[s->open]);
    return find_action(d, p->best[s->open][s->dice]);
}

const bot_type g45_bot_greedy = {
    .name = "greedy",
    .doc = "shuts the move holding the highest tile (the single tile when it is open); "
           "one die once the open tiles sum to 6 or less",
    .choose = greedy_choose,
    .no_draws = true,
};

const bot_type g45_bot_optimal_score = {
    .name = "optimal-score",
    .doc = "minimum expected turn score (exact DP over the tile sets; ties: highest tile)",
    .ctx_size = sizeof(g45_policy),
    .setup = score_setup,
    .choose = table_choose,
    .no_draws = true,
};

const bot_type g45_bot_optimal_shut = {
    .name = "optimal-shut",
    .doc = "maximum chance to shut every tile this turn (exact DP; ties: highest tile)",
    .ctx_size = sizeof(g45_policy),
    .setup = shut_setup,
    .choose = table_choose,
    .no_draws = true,
};

/* ---- exact analysis ------------------------------------------------------------------ */

enum { N_ANALYSED = 4 };
static const bot_type *const analysed[N_ANALYSED] = {
    &bot_random, &g45_bot_greedy, &g45_bot_optimal_score, &g45_bot_optimal_shut,
};

/* Distribution of the turn score from every set under r: dist[set * w + k] = P(score k |
 * set), with w = highest score + 1. p: a deterministic policy, or NULL for uniform among
 * the distinct moves (and between one die and two where the player may choose). */
static void turn_dist(const g45_rules *r, const g45_policy *p, double *dist, int w)
{
    int32_t mv[G45_MAX_MOVES];
    for (int set = 0; set < (1 << r->tiles); set++) {
        double *row = dist + (size_t)set * (size_t)w;
        memset(row, 0, sizeof(double) * (size_t)w);
        if (set == 0) {
            row[0] = 1;
            continue;
        }
        int rule = g45_dice_rule(r, set);
        for (int nd = 1; nd <= 2; nd++) {
            /* the chance this roll is made with nd dice */
            double pd = rule ? rule == nd : p ? p->dice[set] == nd : 0.5;
            for (int t = 1; t <= 12 && pd > 0; t++) {
                double pt = pd * g45_ways_n(nd, t) / 36.0;
                if (pt == 0)
                    continue;
                int n = g45_moves(r, set, t, mv);
                if (n == 0) {
                    row[g45_sum(set)] += pt;
                    continue;
                }
                if (p) {
                    mv[0] = p->best[set][t];
                    n = 1;
                }
                for (int i = 0; i < n; i++) {
                    const double *next = dist + (size_t)(set & ~mv[i]) * (size_t)w;
                    for (int k = 0; k < w; k++)
                        row[k] += pt / n * next[k];
                }
            }
        }
    }
}

typedef struct figures {
    double mean, sd, shut;
    double *dist; /* P(turn score k), k = 0..highest (caller frees) */
    cJSON *json;
} figures;

/* Exact one-turn figures of analysed bot b under r. */
static figures analyse(int b, const g45_rules *r)
{
    int tiles = r->tiles;
    int w = tiles * (tiles + 1) / 2 + 1;
    double *dist = xmalloc(sizeof(double) * (size_t)w << tiles);
    g45_policy *p = NULL;
    if (b > 0) {
        p = xmalloc(sizeof *p);
        if (b == 1)
            greedy_build(p, r);
        else
            g45_policy_build(p, r, b == 2 ? G45_MIN_SCORE : G45_MAX_SHUT);
    }
    turn_dist(r, p, dist, w);
    const double *full = dist + (size_t)((1 << tiles) - 1) * (size_t)w;
    figures f = {0, 0, full[0], xmalloc(sizeof(double) * (size_t)w), cJSON_CreateObject()};
    memcpy(f.dist, full, sizeof(double) * (size_t)w);
    double sq = 0;
    for (int k = 0; k < w; k++) {
        f.mean += k * full[k];
        sq += (double)k * k * full[k];
    }
    f.sd = sqrt(fmax(0, sq - f.mean * f.mean));
    cJSON_AddNumberToObject(f.json, "mean", f.mean);
    cJSON_AddNumberToObject(f.json, "sd", f.sd);
    cJSON_AddNumberToObject(f.json, "shut_probability", f.shut);
    cJSON_AddItemToObject(f.json, "distribution", cJSON_CreateDoubleArray(full, w));
    free(p);
    free(dist);
    return f;
}

/* The chance that seat `me` wins a roll-off against the other seat of a two-player table
 * with weights wme, wother: each roll-off round both roll, a 4 and a 5 (2 ways in 36) wins,
 * both at once: the heavier, equal weights a fair draw. */
static double rolloff_chance(int wme, int wother)
{
    double q = 2.0 / 36, heavier = wme > wother ? 1 : wme < wother ? 0 : 0.5;
    return (q * (1 - q) + q * q * heavier) / (1 - (1 - q) * (1 - q));
}

/* Largest limit^2 * (highest turn score + 1)^2 for which the exact two-player win share is
 * computed (the default table needs 45^2 * 46^2, 4.3 million steps). */
#define DUEL_MAX_STEPS 50000000.0

/* The exact share of the wins of the seat whose turn scores follow a, against one whose
 * follow b, at a two-player table under r (w = highest turn score + 1): both play every
 * round, so the seat order does not matter. v[x][y] is the share from totals x and y at the
 * start of a round; a round that shuts the box or eliminates ends the game as the rules do
 * (shared wins count one half, ties go to the roll-off). */
static double duel(const g45_rules *r, const double *a, const double *b, int w, int wa, int wb)
{
    int lim = r->limit;
    double roll = rolloff_chance(wa, wb);
    double *v = xmalloc(sizeof(double) * (size_t)lim * (size_t)lim);
    for (int x = lim - 1; x >= 0; x--)
        for (int y = lim - 1; y >= 0; y--) {
            double p = 0;
            for (int i = 0; i < w; i++) {
                if (a[i] == 0)
                    continue;
                for (int j = 0; j < w; j++) {
                    double q = a[i] * b[j];
                    int na = x + i, nb = y + j;
                    if (q == 0)
                        continue;
                    if (i == 0 && j == 0) /* both shut the box */
                        p += q * (r->shut_ties == G45_SHUT_SHARE              ? 0.5
                                  : r->shut_ties == G45_SHUT_ROLLOFF || x == y ? roll
                                                                               : x < y);
                    else if (i == 0 || j == 0)
                        p += i == 0 ? q : 0;
                    else if (na >= lim && nb >= lim)
                        p += q * (na < nb ? 1 : na == nb ? roll : 0);
                    else if (na >= lim || nb >= lim)
                        p += nb >= lim ? q : 0;
                    else
                        p += q * v[(size_t)na * (size_t)lim + (size_t)nb];
                }
            }
            v[(size_t)x * (size_t)lim + (size_t)y] = p;
        }
    double out = v[0];
    free(v);
    return out;
}

cJSON *g45_exact(const void *rules, const seat_bots *seats)
{
    const g45_rules *r = rules;
    int seat_fig[2] = {-1, -1};
    figures f[N_ANALYSED];
    bool done[N_ANALYSED] = {false};
    cJSON *seat_obj[2] = {NULL, NULL};
    cJSON *root = NULL, *arr = NULL, *ts = NULL;
    for (int k = 0; k < seats->nseats; k++) {
        int b = 0;
        while (b < N_ANALYSED && analysed[b] != seats->bot[k])
            b++;
        if (b == N_ANALYSED)
            continue;
        if (root == NULL) {
            root = cJSON_CreateObject();
            arr = cJSON_AddArrayToObject(root, "seats");
            ts = cJSON_AddObjectToObject(root, "turn_score");
        }
        if (!done[b]) {
            f[b] = analyse(b, rules);
            cJSON_AddItemToObject(ts, analysed[b]->name, f[b].json);
            done[b] = true;
        }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "seat", k + 1); /* seats count from 1 in reports */
        cJSON_AddStringToObject(o, "bot", analysed[b]->name);
        cJSON_AddNumberToObject(o, "shut_rate", f[b].shut);
        cJSON_AddNumberToObject(o, "mean_turn_score", f[b].mean);
        cJSON_AddItemToArray(arr, o);
        if (k < 2) {
            seat_fig[k] = b;
            seat_obj[k] = o;
        }
    }
    /* Two analysed seats: the exact win share of each, when the table is small enough. */
    int w = r->tiles * (r->tiles + 1) / 2 + 1;
    if (seats->nseats == 2 && seat_fig[0] >= 0 && seat_fig[1] >= 0 &&
        (double)r->limit * r->limit * w * w <= DUEL_MAX_STEPS) {
        const double *d0 = f[seat_fig[0]].dist, *d1 = f[seat_fig[1]].dist;
        cJSON_AddNumberToObject(seat_obj[0], "win_share",
                                duel(r, d0, d1, w, r->weights[0], r->weights[1]));
        cJSON_AddNumberToObject(seat_obj[1], "win_share",
                                duel(r, d1, d0, w, r->weights[1], r->weights[0]));
    }
    for (int b = 0; b < N_ANALYSED; b++)
        if (done[b])
            free(f[b].dist);
    return root;
}
