/* volpe_perfect.c — the perfect bot of La volpe e le oche: plays from the database that
 * --solve made (--db=DIR), the move that wins soonest to conversion, else one that keeps a
 * draw, else the one that holds out longest; refuses its seat if a group it needs is absent. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "games/volpe/volpe.h"
#include "games/volpe/volpe_db.h"
#include "games/volpe/volpe_solve.h"

typedef struct perfect_ctx {
    volpe_db *db;
    int32_t *moves; /* every fox move of a position, across its pages */
    int nmoves;
} perfect_ctx;

/* The rules whose groups were found complete (checked once a run, not once a seat). */
static pthread_mutex_t checked_lock = PTHREAD_MUTEX_INITIALIZER;
static volpe_db_key checked_key;
static bool checked;

static const bot_param params[] = {
    {"solve", 0, 0, 1, true,
     "1: solve the groups the --db directory lacks first (as --solve=DIR would), instead of "
     "refusing the seat"},
    {NULL, 0, 0, 0, false, NULL},
};

/* Whether every group below the start of r is in db (size and header); else -1 and err,
 * unless `solve`: then the missing groups are solved into dir first. */
static int check_groups(volpe_db *db, const volpe_rules *r, bool solve, char *err,
                        size_t errlen)
{
    volpe_db_key key = volpe_db_key_of(r);
    pthread_mutex_lock(&checked_lock);
    bool done = checked && memcmp(&checked_key, &key, sizeof key) == 0;
    pthread_mutex_unlock(&checked_lock);
    if (done)
        return 0;
    volpe_group start = volpe_group_of(volpe_profile(r->geese));
    for (uint32_t c = 0; c < VOLPE_PROFILES; c++) {
        volpe_group g = volpe_group_of(c);
        if (g.count <= key.threshold || !volpe_group_below(&g, &start))
            continue;
        char why[512];
        if (volpe_db_check(db, &g, false, why, sizeof why) == VOLPE_FILE_OK)
            continue;
        if (!solve) {
            snprintf(err, errlen, "bot perfect: %s (solve these rules with --solve=DIR, or "
                     "give perfect:solve=1)", why);
            return -1;
        }
        volpe_solve_opts o = {0};
        volpe_solve_result res;
        o.dir = volpe_db_dir(db);
        o.cache_bytes = 1ull << 31;
        int rc = volpe_solve(r, &o, &res, why, sizeof why);
        if (rc != 0 || res.inconsistent) {
            snprintf(err, errlen, "bot perfect: solving into %s failed: %s", o.dir,
                     rc ? why : "inconsistent values");
            return -1;
        }
        break;
    }
    pthread_mutex_lock(&checked_lock);
    checked_key = key;
    checked = true;
    pthread_mutex_unlock(&checked_lock);
    return 0;
}

static int perfect_setup(void *vctx, const game_type *g, const void *rules, int seat,
                         int nseats, const double *param, char *err, size_t errlen)
{
    (void)g, (void)seat, (void)nseats, (void)param;
    perfect_ctx *c = vctx;
    const volpe_rules *r = rules;
    if (r->geese_blocked == VOLPE_BLOCKED_PASS) {
        snprintf(err, errlen, "bot perfect: geese_blocked=pass is not solved (lose or draw)");
        return -1;
    }
    char why[512];
    c->db = volpe_db_shared(volpe_db_key_of(r), param[0] != 0, why, sizeof why);
    if (c->db == NULL) {
        snprintf(err, errlen, "bot perfect: %s", why);
        return -1;
    }
    if (check_groups(c->db, r, param[0] != 0, err, errlen) != 0)
        return -1;
    c->nmoves = 256;
    c->moves = xmalloc((size_t)c->nmoves * sizeof *c->moves);
    return 0;
}

static void perfect_teardown(void *vctx)
{
    perfect_ctx *c = vctx;
    free(c->moves);
}

/* The mover's worth of the position after a move, from the successor's value v for the
 * other side: wins first, the sooner the better; then draws; then losses, the later the
 * better. `exit`: the move leaves its group (a capture, a goose forward), a conversion. */
static int worth(int v, bool exit)
{
    if (volpe_is_loss(v))
        return 2000 - (exit ? 1 : volpe_dist(v) + 1);
    if (v == VOLPE_DRAW)
        return 1000;
    return exit ? 1 : volpe_dist(v) + 1;
}

/* The value byte of (geese, fox, side); a position the checked database lacks is a broken
 * file found only now: the run ends with exit 4. */
static int value(perfect_ctx *c, uint64_t geese, int fox, int side)
{
    char err[512];
    int v = volpe_db_value(c->db, geese, fox, side, err, sizeof err);
    if (v < 0) {
        fprintf(stderr, "giochi-sim: bot perfect: %s\n", err);
        exit(4);
    }
    return v;
}

static int fox_worth(perfect_ctx *c, const volpe_state *s, int32_t a)
{
    uint64_t taken = volpe_captured_set(s->geese, a);
    return worth(value(c, s->geese & ~taken, a & 63, VOLPE_GEESE), taken != 0);
}

static int perfect_choose(void *vctx, const void *seen, const decision *d, rng *r)
{
    perfect_ctx *c = vctx;
    const volpe_state *s = seen;
    const volpe_board *b = &s->rules->board;
    int best = -1, bestw = -1, ties = 0, more = -1;
    for (int i = 0; i < d->n; i++) {
        int32_t a = d->action[i];
        int w;
        if (d->kind == VOLPE_FOX && a == VOLPE_MORE) {
            more = i;
            continue;
        }
        if (d->kind == VOLPE_FOX) {
            w = fox_worth(c, s, a);
        } else {
            int from = a >> 6 & 63, to = a & 63;
            w = worth(value(c, s->geese ^ 1ull << from ^ 1ull << to, s->fox, VOLPE_FOX),
                      volpe_y(to) > volpe_y(from));
        }
        if (w > bestw) {
            best = i;
            bestw = w;
            ties = 1;
        } else if (w == bestw && rng_below(r, (uint32_t)++ties) == 0) {
            best = i;
        }
    }
    if (more >= 0) { /* a better move on a later page: turn to it */
        int total = volpe_fox_moves(b, s->geese, s->fox, 0, 0, NULL, NULL);
        if (total > c->nmoves) {
            c->nmoves = total;
            c->moves = xrealloc(c->moves, (size_t)total * sizeof *c->moves);
        }
        volpe_fox_moves(b, s->geese, s->fox, 0, total, c->moves, NULL);
        for (int k = (s->page + 1) * VOLPE_PAGE; k < total; k++)
            if (fox_worth(c, s, c->moves[k]) > bestw)
                return more;
    }
    return best;
}

const bot_type volpe_bot_perfect = {
    .name = "perfect",
    .doc = "plays from the solved database of --db=DIR (made by --solve=DIR): the move that "
           "wins soonest to conversion, else a draw, else the longest loss; refuses its seat "
           "if the database lacks a group of the start",
    .params = params,
    .ctx_size = sizeof(perfect_ctx),
    .setup = perfect_setup,
    .choose = perfect_choose,
    .teardown = perfect_teardown,
};
