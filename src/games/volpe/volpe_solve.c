/* volpe_solve.c — the retrograde solver of La volpe e le oche: one group at a time, its exits
 * read from groups solved before, its inner moves (fox steps, geese sideways) resolved by
 * levels of distance from the positions decided at once; what no level reaches is a draw. */
#include "games/volpe/volpe_solve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/xalloc.h"
#include "games/volpe/volpe_db.h"

enum {
    RESOLVED = 0x80,  /* flags: the value is final */
    NO_LOSS = 0x40,   /* flags: some exit draws, so the position cannot be lost */
    COUNT = 0x3f,     /* flags: inner moves whose value is not known yet */
    CHECK_EVERY = 1 << 16, /* positions between looks at the stop flag and the clock */
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A growable list of ranks. */
typedef struct list {
    uint32_t *at;
    size_t n, cap;
} list;

static void list_push(list *l, uint32_t x)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->at = xrealloc(l->at, l->cap * sizeof *l->at);
    }
    l->at[l->n++] = x;
}

/* What one run keeps while it solves. */
typedef struct solver {
    const volpe_rules *r;
    const volpe_board *b;
    volpe_db *db;
    int threshold;
    const uint8_t **near;  /* VOLPE_PROFILES: the groups looked up while solving one */
    uint32_t *touched;     /* the codes set in near */
    int ntouched;
    int32_t *moves;        /* room for the most fox moves of a position */
    int nmoves;
    const volpe_solve_opts *opts;
    volpe_solve_result *res;
    /* progress */
    double t0, last;
    uint64_t done_now, left; /* positions solved by this run / still to solve */
    int group_index, ngroups;
    const volpe_group *group;
    char *err;
    size_t errlen;
    int fail;
} solver;

/* The value byte of (geese, fox, side) outside the group being solved; -1 if unavailable. */
static int exit_value(solver *s, uint64_t geese, int fox, int side)
{
    if (volpe_popcount(geese) <= s->threshold)
        return VOLPE_LOSS; /* the fox has taken its geese: the geese to move have lost */
    uint32_t code = volpe_profile(geese);
    if (s->near[code] == NULL) {
        volpe_group g = volpe_group_of(code);
        s->near[code] = volpe_db_get(s->db, &g, s->err, s->errlen);
        if (s->near[code] == NULL)
            return -1;
        s->touched[s->ntouched++] = code;
    }
    return s->near[code][volpe_rank(geese, fox, side)];
}

static void show(solver *s, bool final)
{
    if (!s->opts->progress)
        return;
    double t = now();
    if (!final && t - s->last < 1.0)
        return;
    s->last = t;
    double rate = s->done_now / (t - s->t0 > 1e-9 ? t - s->t0 : 1e-9);
    char eta[32] = "?";
    if (s->done_now > 0) {
        double left = (double)s->left / rate;
        if (left < 120)
            snprintf(eta, sizeof eta, "%.0f s", left);
        else if (left < 7200)
            snprintf(eta, sizeof eta, "%.0f min", left / 60);
        else
            snprintf(eta, sizeof eta, "%.1f h", left / 3600);
    }
    char name[16] = "";
    if (s->group)
        volpe_group_name(s->group, name);
    fprintf(stderr, "\rgiochi-sim: solve: group %d/%d %s (%d geese), %.2f M positions/s, "
            "about %s left   %s", s->group_index, s->ngroups, name,
            s->group ? s->group->count : 0, rate / 1e6, eta, final ? "\n" : "");
    fflush(stderr);
}

/* Whether a stop was asked for; keeps the progress line fresh. */
static bool tick(solver *s)
{
    show(s, false);
    return s->opts->stop && *s->opts->stop;
}

/* The inner predecessors of position (geese, fox, side), the positions of its group with a
 * move to it (a fox step, a goose's step sideways): writes their ranks into out (room for
 * 2 * VOLPE_MAX_GEESE + VOLPE_DIRS) and returns their number. */
static int preds(const volpe_board *b, uint64_t geese, int fox, int side, uint32_t *out)
{
    int n = 0;
    if (side == VOLPE_GEESE) { /* the fox stepped here from an empty neighbour */
        for (uint64_t m = b->steps[fox] & ~geese; m; m &= m - 1)
            out[n++] = (uint32_t)volpe_rank(geese, __builtin_ctzll(m), VOLPE_FOX);
        return n;
    }
    /* a goose stepped sideways here: from its west (going east) or its east (going west) */
    uint64_t empty = ((1ull << VOLPE_POINTS) - 1) & ~geese & ~(1ull << fox);
    for (uint64_t m = geese; m; m &= m - 1) {
        int g = __builtin_ctzll(m);
        for (int k = 1; k <= 2; k++) {
            int from = b->goose_step[g][k];
            if (from >= 0 && (empty >> from & 1) && b->goose_step[from][3 - k] == g)
                out[n++] = (uint32_t)volpe_rank(geese ^ 1ull << g ^ 1ull << from, fox,
                                                VOLPE_GEESE);
        }
    }
    return n;
}

/* The first look at position i = (geese, fox, side) of the group being solved: a position
 * without a move is lost (distance 0, into cur); one with an exit to a loss of the other side
 * is won at 1, one whose every move is an exit, none drawing, lost at 1 (into next); else its
 * flags count its inner moves and say whether an exit draws. 0, or -1 with s->fail set. */
static int first_look(solver *s, uint64_t i, uint64_t geese, int fox, int side, uint8_t *vals,
                      uint8_t *flags, list *cur, list *next)
{
    const volpe_board *b = s->b;
    int inner = 0, moves = 0;
    bool win = false, noloss = false;
    if (side == VOLPE_GEESE) {
        int32_t mv[3 * VOLPE_MAX_GEESE];
        int n = volpe_geese_moves(b, geese, fox, mv);
        moves = n;
        for (int k = 0; k < n && !win; k++) {
            int to = mv[k] & 63, from = mv[k] >> 6 & 63;
            if (to == from + 1 || to == from - 1) { /* sideways: forward adds 3, 5 or 7 */
                inner++;
                continue;
            }
            int v = exit_value(s, geese ^ 1ull << from ^ 1ull << to, fox, VOLPE_FOX);
            if (v < 0) {
                s->fail = 4;
                return -1;
            }
            win = volpe_is_loss(v);
            noloss |= v == VOLPE_DRAW;
        }
        if (n == 0 && s->r->geese_blocked == VOLPE_BLOCKED_DRAW) {
            flags[i] = RESOLVED; /* a draw */
            return 0;
        }
    } else {
        inner = volpe_popcount(b->steps[fox] & ~geese);
        moves = inner;
        if (volpe_fox_mobility(b, geese, fox) > inner) { /* some capture */
            int n = volpe_fox_moves(b, geese, fox, 0, s->nmoves, s->moves, NULL);
            if (n > s->nmoves) {
                s->nmoves = 2 * n;
                s->moves = xrealloc(s->moves, (size_t)s->nmoves * sizeof *s->moves);
                n = volpe_fox_moves(b, geese, fox, 0, s->nmoves, s->moves, NULL);
            }
            moves = n;
            for (int k = inner; k < n && !win; k++) {
                int32_t a = s->moves[k];
                int v = exit_value(s, geese & ~volpe_captured_set(geese, a), a & 63,
                                   VOLPE_GEESE);
                if (v < 0) {
                    s->fail = 4;
                    return -1;
                }
                win = volpe_is_loss(v);
                noloss |= v == VOLPE_DRAW;
            }
        }
    }
    if (moves == 0) { /* the side to move cannot: it loses (geese_blocked=lose) */
        vals[i] = VOLPE_LOSS;
        flags[i] = RESOLVED;
        list_push(cur, (uint32_t)i);
    } else if (win) {
        vals[i] = 1;
        flags[i] = RESOLVED;
        list_push(next, (uint32_t)i);
    } else if (inner == 0) {
        flags[i] = RESOLVED;
        if (!noloss) {
            vals[i] = VOLPE_LOSS + 1;
            list_push(next, (uint32_t)i);
        }
    } else {
        flags[i] = (uint8_t)(inner | (noloss ? NO_LOSS : 0));
    }
    return 0;
}

/* Solves group g into vals (g->size bytes); 1 if stopped, -1 on failure (s->fail set). */
static int solve_group(solver *s, const volpe_group *g, uint8_t *vals)
{
    const volpe_board *b = s->b;
    uint64_t size = g->size;
    uint8_t *flags = xcalloc(size, 1);
    list cur = {0}, next = {0};
    uint32_t pred[2 * VOLPE_MAX_GEESE + VOLPE_DIRS];
    int rc = 0;
    memset(vals, 0, size);
    /* The first pass: exits, terminal positions, inner moves counted. The two sides of a
     * placement of geese and fox have neighbouring ranks: one unrank serves both. */
    for (uint64_t i = 0; i < size && rc == 0; i += 2) {
        if (i % CHECK_EVERY == 0 && tick(s)) {
            rc = 1;
            break;
        }
        uint64_t geese;
        int fox, side;
        volpe_unrank(g, i, &geese, &fox, &side);
        for (side = 0; side < 2 && rc == 0; side++)
            rc = first_look(s, i + (uint64_t)side, geese, fox, side, vals, flags, &cur, &next);
    }
    /* The levels: positions decided at distance d decide their predecessors at d + 1. */
    for (int d = 0; rc == 0 && (cur.n > 0 || next.n > 0); d++) {
        if (d + 1 > VOLPE_DIST_MAX && cur.n > 0) {
            snprintf(s->err, s->errlen, "solve: a distance beyond %d plies (group too deep "
                     "for the one-byte values)", VOLPE_DIST_MAX);
            s->fail = 4;
            rc = -1;
            break;
        }
        for (size_t j = 0; j < cur.n; j++) {
            if (j % CHECK_EVERY == CHECK_EVERY - 1 && tick(s)) {
                rc = 1;
                break;
            }
            uint64_t geese;
            int fox, side;
            volpe_unrank(g, cur.at[j], &geese, &fox, &side);
            bool lost = volpe_is_loss(vals[cur.at[j]]);
            int n = preds(b, geese, fox, side, pred);
            for (int k = 0; k < n; k++) {
                uint32_t q = pred[k];
                if (flags[q] & RESOLVED)
                    continue;
                if (lost) {
                    vals[q] = (uint8_t)(d + 1);
                    flags[q] = RESOLVED;
                    list_push(&next, q);
                } else if (--flags[q] == NO_LOSS) {
                    flags[q] = RESOLVED; /* every inner move loses, an exit draws */
                } else if (flags[q] == 0) {
                    vals[q] = (uint8_t)(VOLPE_LOSS + d + 1);
                    flags[q] = RESOLVED;
                    list_push(&next, q);
                }
            }
        }
        list t = cur;
        cur = next;
        next = t;
        next.n = 0;
    }
    /* What was never decided stays 0: a draw. */
    free(flags);
    free(cur.at);
    free(next.at);
    return rc;
}

static int consistent(const volpe_rules *r, volpe_db *db, uint64_t geese, int fox, int side,
                      int32_t **moves, int *room);

/* Checks SAMPLES random positions of group g, solved, against their successors' values. */
enum { SAMPLES = 16 };

static int sample_group(solver *s, const volpe_group *g)
{
    rng pick;
    rng_seed(&pick, g->code);
    for (int k = 0; k < SAMPLES; k++) {
        uint64_t i = ((uint64_t)rng_next(&pick)) % g->size, geese;
        int fox, side;
        volpe_unrank(g, i, &geese, &fox, &side);
        int ok = consistent(s->r, s->db, geese, fox, side, &s->moves, &s->nmoves);
        if (ok < 0)
            return -1;
        s->res->sampled++;
        s->res->inconsistent += ok == 0;
    }
    return 0;
}

/* Orders groups: fewer geese first, then further advanced, then by code. */
static int group_order(const void *pa, const void *pb)
{
    const volpe_group *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count < b->count ? -1 : 1;
    if (a->advance != b->advance)
        return a->advance > b->advance ? -1 : 1;
    return (a->code > b->code) - (a->code < b->code);
}

static void tally(volpe_solve_result *res, const volpe_group *g, const uint8_t *v)
{
    for (uint64_t i = 0; i < g->size; i++) {
        int x = v[i], d = volpe_dist(x);
        if (volpe_is_win(x)) {
            res->wins++;
            res->longest_win = d > res->longest_win ? d : res->longest_win;
        } else if (volpe_is_loss(x)) {
            res->losses++;
            res->longest_loss = d > res->longest_loss ? d : res->longest_loss;
        } else {
            res->draws++;
        }
    }
    res->positions += g->size;
}

int volpe_solve(const volpe_rules *r, const volpe_solve_opts *opts, volpe_solve_result *res,
                char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    res->start_value = -1;
    if (r->geese_blocked == VOLPE_BLOCKED_PASS) {
        snprintf(err, errlen, "geese_blocked=pass is not solved (lose or draw)");
        return 2;
    }
    volpe_db_key key = volpe_db_key_of(r);
    volpe_db *db = volpe_db_open(opts->dir, key, true, err, errlen);
    if (db == NULL)
        return 3;
    volpe_group start = volpe_group_of(volpe_profile(r->geese));
    volpe_group *all = xmalloc(VOLPE_PROFILES * sizeof *all);
    int n = 0;
    uint64_t total = 0;
    for (uint32_t c = 0; c < VOLPE_PROFILES; c++) {
        volpe_group g = volpe_group_of(c);
        if (g.count > key.threshold && (opts->max_geese == 0 || g.count <= opts->max_geese) &&
            volpe_group_below(&g, &start)) {
            all[n++] = g;
            total += g.size;
            res->largest_group = g.size > res->largest_group ? g.size : res->largest_group;
        }
    }
    qsort(all, (size_t)n, sizeof *all, group_order);
    res->groups = n;
    if (opts->progress)
        fprintf(stderr, "giochi-sim: solve: %d groups of %d..%d geese, %llu positions, the "
                "largest group %llu (%.1f GB of values at one byte a position)\n", n,
                n ? all[0].count : 0, n ? all[n - 1].count : 0, (unsigned long long)total,
                (unsigned long long)res->largest_group, (double)total / 1e9);
    solver s = {0};
    s.r = r;
    s.b = &r->board;
    s.db = db;
    s.threshold = key.threshold;
    s.near = xcalloc(VOLPE_PROFILES, sizeof *s.near);
    s.touched = xmalloc(VOLPE_PROFILES * sizeof *s.touched);
    s.nmoves = 1024;
    s.moves = xmalloc((size_t)s.nmoves * sizeof *s.moves);
    s.opts = opts;
    s.res = res;
    s.t0 = s.last = now();
    s.left = total;
    s.ngroups = n;
    s.err = err;
    s.errlen = errlen;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        const volpe_group *g = &all[i];
        s.group = g;
        s.group_index = i + 1;
        char why[512];
        volpe_file_state st = volpe_db_check(db, g, true, why, sizeof why);
        if (st == VOLPE_FILE_OTHER) {
            snprintf(err, errlen, "%s", why);
            rc = 2;
            break;
        }
        const uint8_t *have = st == VOLPE_FILE_OK ? volpe_db_get(db, g, why, sizeof why) : NULL;
        if (have) {
            res->checked++;
            tally(res, g, have);
            s.left -= g->size;
        } else {
            if (st == VOLPE_FILE_BAD)
                fprintf(stderr, "%sgiochi-sim: solve: %s; solving it again\n",
                        opts->progress ? "\n" : "", why);
            if (g->size >= (1ull << 32)) {
                snprintf(err, errlen, "a group of %llu positions (ranks are 32-bit)",
                         (unsigned long long)g->size);
                rc = 4;
                break;
            }
            uint8_t *vals = xmalloc(g->size);
            uint64_t work = g->size * 2 + volpe_db_loaded(db);
            res->peak_bytes = work > res->peak_bytes ? work : res->peak_bytes;
            int got = solve_group(&s, g, vals);
            if (got == 1) {
                free(vals);
                res->stopped = true;
                break;
            }
            if (got < 0) {
                free(vals);
                rc = s.fail;
                break;
            }
            if (volpe_db_put(db, g, vals, err, errlen) != 0) {
                free(vals);
                rc = 3;
                break;
            }
            tally(res, g, vals);
            free(vals);
            res->solved++;
            s.done_now += g->size;
            s.left -= g->size;
        }
        if (sample_group(&s, g) != 0) {
            snprintf(err, errlen, "a successor of group %d is not solved", i + 1);
            rc = 4;
            break;
        }
        for (int k = 0; k < s.ntouched; k++)
            s.near[s.touched[k]] = NULL;
        s.ntouched = 0;
        uint64_t held = volpe_db_loaded(db);
        res->peak_bytes = held > res->peak_bytes ? held : res->peak_bytes;
        volpe_db_trim(db, opts->cache_bytes);
        if (opts->stop && *opts->stop && i + 1 < n) {
            res->stopped = true;
            break;
        }
    }
    show(&s, true);
    if (rc == 0 && start.count > key.threshold &&
        (opts->max_geese == 0 || start.count <= opts->max_geese) && !res->stopped) {
        char why[512];
        res->start_value = volpe_db_value(db, r->geese, r->fox, VOLPE_FOX, why, sizeof why);
    }
    res->seconds = now() - s.t0;
    free(s.near);
    free(s.touched);
    free(s.moves);
    free(all);
    volpe_db_close(db);
    return rc;
}

/* ---- consistency along random games --------------------------------------------------- */

/* Whether the value of (geese, fox, side) agrees with its successors' (see
 * volpe_solve_games): 1 yes, 0 no, -1 a value missing. */
static int consistent(const volpe_rules *r, volpe_db *db, uint64_t geese, int fox, int side,
                      int32_t **moves, int *room)
{
    const volpe_board *b = &r->board;
    char err[512];
    int v = volpe_db_value(db, geese, fox, side, err, sizeof err);
    if (v < 0)
        return -1;
    uint32_t code = volpe_profile(geese);
    int n, best = 1000, longest = 0;
    bool only_wins = true, draw = false;
    if (side == VOLPE_FOX) {
        n = volpe_fox_moves(b, geese, fox, 0, 0, NULL, NULL);
        if (n > *room) {
            *room = n;
            *moves = xrealloc(*moves, (size_t)n * sizeof **moves);
        }
        volpe_fox_moves(b, geese, fox, 0, n, *moves, NULL);
    } else {
        if (*room < 3 * VOLPE_MAX_GEESE) {
            *room = 3 * VOLPE_MAX_GEESE;
            *moves = xrealloc(*moves, (size_t)*room * sizeof **moves);
        }
        n = volpe_geese_moves(b, geese, fox, *moves);
    }
    if (n == 0 && side == VOLPE_GEESE && r->geese_blocked == VOLPE_BLOCKED_DRAW)
        return v == VOLPE_DRAW;
    for (int k = 0; k < n; k++) {
        int32_t a = (*moves)[k];
        uint64_t g2;
        int f2;
        if (side == VOLPE_FOX) {
            g2 = geese & ~volpe_captured_set(geese, a);
            f2 = a & 63;
        } else {
            g2 = geese ^ 1ull << (a >> 6 & 63) ^ 1ull << (a & 63);
            f2 = fox;
        }
        int sv = volpe_db_value(db, g2, f2, 1 - side, err, sizeof err);
        if (sv < 0)
            return -1;
        bool exit = volpe_popcount(g2) <= volpe_db_key_of(r).threshold ||
                    volpe_profile(g2) != code;
        int d = exit ? 1 : volpe_dist(sv) + 1;
        if (volpe_is_loss(sv)) {
            best = d < best ? d : best;
            only_wins = false;
        } else if (volpe_is_win(sv)) {
            longest = d > longest ? d : longest;
        } else {
            only_wins = false;
            draw = true;
        }
    }
    if (volpe_is_win(v))
        return best == volpe_dist(v);
    if (volpe_is_loss(v))
        return only_wins && longest == volpe_dist(v);
    return best == 1000 && draw;
}

int volpe_solve_games(const volpe_rules *r, volpe_db *db, int games, uint64_t seed,
                      uint64_t *checked, uint64_t *bad)
{
    int32_t *moves = NULL;
    int room = 0, rc = 0;
    rng chance, pick;
    rng_seed(&chance, seed);
    rng_seed(&pick, seed ^ 0x5eed);
    volpe_state *s = xmalloc(sizeof *s);
    decision *d = xmalloc(sizeof *d);
    for (int i = 0; i < games && rc == 0; i++) {
        volpe_start(s, r, 2, &chance, NULL);
        while (volpe_decide(s, d)) {
            if (s->page == 0) {
                int ok = consistent(r, db, s->geese, s->fox, s->side, &moves, &room);
                if (ok < 0) {
                    rc = -1;
                    break;
                }
                (*checked)++;
                *bad += ok == 0;
            }
            volpe_apply(s, d->action[rng_below(&pick, (uint32_t)d->n)], &chance, NULL);
        }
    }
    free(moves);
    free(s);
    free(d);
    return rc;
}
