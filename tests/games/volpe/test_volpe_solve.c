/* test_volpe_solve.c — the volpe solver (#30) against a plain minimax written here over the
 * whole game graph of reduced games (repetition a draw), the distances' local consistency,
 * ranks, file checks, resuming, and the perfect bot. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "games/volpe/volpe_kit.h"
#include "config/rules.h"
#include "core/registry.h"
#include "games/volpe/volpe.h"
#include "games/volpe/volpe_db.h"
#include "games/volpe/volpe_solve.h"

/* ---- helpers ------------------------------------------------------------------------- */

static int solve_into(const volpe_rules *r, const char *dir, int max_geese,
                      volpe_solve_result *res)
{
    volpe_solve_opts o = {0};
    o.dir = dir;
    o.max_geese = max_geese;
    o.cache_bytes = 1ull << 30;
    char err[512] = "";
    int rc = volpe_solve(r, &o, res, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "solve: %s\n", err);
    return rc;
}

/* ---- the plain minimax --------------------------------------------------------------- */

/* The game graph from the start, built with the game's own start/decide/apply: every
 * position (geese, fox, side) reached, and per position its successors: another position,
 * or an end (+1 the mover won, -1 lost, 0 a draw). */
enum { END_WIN = -1, END_LOSS = -2, END_DRAW = -3 };

typedef struct graph {
    uint64_t *key;     /* open addressing: key + 1, 0 empty */
    uint32_t *index;
    size_t cap;
    volpe_state *pos;  /* the positions, in order found */
    size_t n, room;
    int32_t *succ;     /* successor lists: node index or END_* */
    size_t *first;     /* succ[first[i] .. first[i + 1]) */
    size_t nsucc, sroom;
} graph;

static uint64_t pos_key(const volpe_state *s)
{
    return s->geese | (uint64_t)s->fox << 33 | (uint64_t)s->side << 39;
}

/* The index of s, added if new. */
static int32_t node_of(graph *gr, const volpe_state *s)
{
    uint64_t k = pos_key(s) + 1;
    size_t h = (size_t)((k * 0x9e3779b97f4a7c15ull) >> 20) & (gr->cap - 1);
    while (gr->key[h] && gr->key[h] != k)
        h = (h + 1) & (gr->cap - 1);
    if (gr->key[h] == 0) {
        if (gr->n == gr->room) {
            gr->room *= 2;
            gr->pos = realloc(gr->pos, gr->room * sizeof *gr->pos);
        }
        gr->key[h] = k;
        gr->index[h] = (uint32_t)gr->n;
        gr->pos[gr->n] = *s;
        gr->pos[gr->n].quiet = 0;
        gr->pos[gr->n].moves = 0;
        gr->n++;
    }
    return (int32_t)gr->index[h];
}

static void add_succ(graph *gr, int32_t x)
{
    if (gr->nsucc == gr->sroom) {
        gr->sroom *= 2;
        gr->succ = realloc(gr->succ, gr->sroom * sizeof *gr->succ);
    }
    gr->succ[gr->nsucc++] = x;
}

/* Every position reachable from the start of r (no repetition, counters out of the way). */
static void graph_build(graph *gr, const volpe_rules *r)
{
    gr->cap = 1u << 22;
    gr->key = calloc(gr->cap, sizeof *gr->key);
    gr->index = calloc(gr->cap, sizeof *gr->index);
    gr->room = 1024;
    gr->pos = malloc(gr->room * sizeof *gr->pos);
    gr->sroom = 4096;
    gr->succ = malloc(gr->sroom * sizeof *gr->succ);
    gr->n = gr->nsucc = 0;
    volpe_state s;
    rng chance;
    rng_seed(&chance, 0);
    game_volpe.start(&s, r, 2, &chance, NULL);
    node_of(gr, &s);
    size_t *first = malloc(sizeof *first * (1u << 22));
    for (size_t i = 0; i < gr->n; i++) {
        first[i] = gr->nsucc;
        volpe_state page = gr->pos[i];
        decision d;
        while (game_volpe.decide(&page, &d)) {
            bool turned = false;
            for (int k = 0; k < d.n; k++) {
                volpe_state t = page;
                game_volpe.apply(&t, d.action[k], &chance, NULL);
                if (d.kind == VOLPE_FOX && d.action[k] == VOLPE_MORE) {
                    page = t;
                    turned = true;
                    continue;
                }
                if (t.over) {
                    bool mover_won = t.winners == 1u << page.side;
                    bool draw = t.winners == 3u;
                    add_succ(gr, draw ? END_DRAW : mover_won ? END_WIN : END_LOSS);
                } else {
                    t.quiet = 0;
                    t.moves = 0;
                    add_succ(gr, node_of(gr, &t));
                }
            }
            if (!turned)
                break;
        }
    }
    first[gr->n] = gr->nsucc;
    gr->first = first;
}

static void graph_free(graph *gr)
{
    free(gr->key);
    free(gr->index);
    free(gr->pos);
    free(gr->succ);
    free(gr->first);
}

/* Minimax over the graph by fixpoint: +1 won for the mover, -1 lost, 0 never settled (play
 * goes on for ever: a draw) or a drawn end. */
static signed char *minimax(const graph *gr)
{
    signed char *v = calloc(gr->n, 1);
    bool changed = true;
    while (changed) {
        changed = false;
        for (size_t i = 0; i < gr->n; i++) {
            if (v[i])
                continue;
            bool win = false, all_lose = true;
            for (size_t e = gr->first[i]; e < gr->first[i + 1]; e++) {
                int32_t x = gr->succ[e];
                int sv = x == END_WIN ? -1 : x == END_LOSS ? 1 : x == END_DRAW ? 0 : v[x];
                /* sv: the value for the side that moves next (the mover's opponent), or
                 * for an end seen from the mover's opponent */
                win |= sv == -1;
                all_lose &= sv == 1;
            }
            if (win || all_lose) {
                v[i] = win ? 1 : -1;
                changed = true;
            }
        }
    }
    return v;
}

/* Solves r into a fresh directory and compares every reachable position with the minimax
 * value; checks the distances: a win of d has a move to a loss of d - 1 (1: an exit to a
 * loss) and none shorter, a loss of d has only moves to wins, the longest d - 1. */
static void compare_with_minimax(const char *overlay, uint64_t *positions, int *draws)
{
    volpe_rules r = volpe_test_rules(overlay);
    char dir[64];
    volpe_test_dir(dir, sizeof dir, "solve");
    volpe_solve_result res;
    CHECK_INT(solve_into(&r, dir, 0, &res), 0);
    CHECK(!res.stopped);
    graph gr;
    graph_build(&gr, &r);
    signed char *mm = minimax(&gr);
    char err[512];
    volpe_db *db = volpe_db_open(dir, volpe_db_key_of(&r), false, err, sizeof err);
    CHECK(db != NULL);
    int bad = 0, bad_dist = 0;
    *draws = 0;
    for (size_t i = 0; i < gr.n && db; i++) {
        const volpe_state *s = &gr.pos[i];
        int v = volpe_db_value(db, s->geese, s->fox, s->side, err, sizeof err);
        int want = mm[i];
        int got = volpe_is_win(v) ? 1 : volpe_is_loss(v) ? -1 : 0;
        *draws += want == 0;
        if (v < 0 || got != want) {
            if (bad++ < 5)
                fprintf(stderr, "position %zu (geese %llx fox %d side %d): solver %d, "
                        "minimax %d\n", i, (unsigned long long)s->geese, s->fox, s->side, v,
                        want);
            continue;
        }
        /* the distances, from the successors' solver values */
        uint32_t code = volpe_profile(s->geese);
        int best = 1000, longest = -1;
        bool only_wins = true;
        for (size_t e = gr.first[i]; e < gr.first[i + 1]; e++) {
            int32_t x = gr.succ[e];
            if (x == END_WIN) { /* the game ends, won: a conversion */
                best = best < 1 ? best : 1;
                only_wins = false;
                continue;
            }
            if (x == END_LOSS) {
                longest = longest > 1 ? longest : 1;
                continue;
            }
            if (x == END_DRAW) {
                only_wins = false;
                continue;
            }
            const volpe_state *t = &gr.pos[x];
            int sv = volpe_db_value(db, t->geese, t->fox, t->side, err, sizeof err);
            bool exit = volpe_profile(t->geese) != code;
            int d = exit ? 1 : volpe_dist(sv) + 1;
            if (volpe_is_loss(sv)) {
                best = d < best ? d : best;
                only_wins = false;
            } else if (volpe_is_win(sv)) {
                longest = d > longest ? d : longest;
            } else {
                only_wins = false;
            }
        }
        bool ok = volpe_is_win(v)    ? best == volpe_dist(v)
                  : volpe_is_loss(v) ? only_wins && (longest < 0 ? 0 : longest) == volpe_dist(v)
                                     : best == 1000 && !only_wins;
        if (!ok && bad_dist++ < 5)
            fprintf(stderr, "position %zu: value %d, best win %d, longest loss %d\n", i, v,
                    best, longest);
    }
    CHECK_INT(bad, 0);
    CHECK_INT(bad_dist, 0);
    *positions = gr.n;
    free(mm);
    graph_free(&gr);
    volpe_db_close(db);
    volpe_test_rmdir(dir);
}

/* ---- tests --------------------------------------------------------------------------- */

TEST(volpe_solve_ranks_are_a_bijection)
{
    const uint32_t codes[] = {volpe_profile(0x7), 3 + 4 * 2 + 16 * 5 + 128 * 1 + 16384 * 2,
                              16 * 7 + 128 * 7, 4 * 3 + 1024 * 4 + 32768 * 3};
    for (size_t c = 0; c < sizeof codes / sizeof *codes; c++) {
        volpe_group g = volpe_group_of(codes[c]);
        bool ok = true;
        for (uint64_t i = 0; i < g.size && ok; i += 1 + i % 7) {
            uint64_t geese;
            int fox, side;
            volpe_unrank(&g, i, &geese, &fox, &side);
            ok = volpe_profile(geese) == g.code && !(geese >> fox & 1) &&
                 volpe_popcount(geese) == g.count && volpe_rank(geese, fox, side) == i;
        }
        CHECK(ok);
    }
    /* the start's group: 3 3 7 2 2 0 0, 2 * 16 * C(7,2)^2 * 1... counted by hand */
    volpe_group start = volpe_group_of(volpe_profile(volpe_test_rules("{}").geese));
    CHECK_INT(start.count, 17);
    CHECK_INT(start.size, 1ull * 1 * 1 * 21 * 21 * 16 * 2);
}

TEST(volpe_solve_equals_minimax_two_geese)
{
    uint64_t n;
    int draws;
    compare_with_minimax("{\"geese\": [\"C1\", \"D1\"], \"fox_wins_at\": 1}", &n, &draws);
    CHECK(n > 10000);
    CHECK(draws > 0); /* the cycles are there: the fox and a sideways goose */
}

TEST(volpe_solve_equals_minimax_three_geese)
{
    uint64_t n;
    int draws;
    compare_with_minimax("{\"geese\": [\"C1\", \"D1\", \"E1\"], \"fox_wins_at\": 1}", &n,
                         &draws);
    CHECK(n > 100000);
    CHECK(draws > 0);
}

TEST(volpe_solve_equals_minimax_two_captures_and_other_options)
{
    uint64_t n;
    int draws;
    /* two captures to make from three geese: exits into the 2-goose groups */
    compare_with_minimax("{\"geese\": [\"A3\", \"D2\", \"G3\"], \"fox_wins_at\": 2, "
                         "\"fox\": \"D6\"}", &n, &draws);
    CHECK(n > 1000);
    compare_with_minimax("{\"geese\": [\"C5\", \"D5\", \"E5\"], \"fox_wins_at\": 1, \"fox\": \"D2\", "
                         "\"geese_blocked\": \"draw\", \"diagonals\": \"none\"}", &n, &draws);
    CHECK(n > 5000);
    CHECK(draws > 0);
}

/* Flips byte `at` of file path. */
static void damage(const char *path, long at)
{
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f == NULL)
        return;
    fseek(f, at, SEEK_SET);
    int c = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(c ^ 1, f);
    fclose(f);
}

TEST(volpe_solve_files_are_checked_and_runs_resume)
{
    volpe_rules r = volpe_test_rules("{\"geese\": [\"C1\", \"D1\", \"E1\"], \"fox_wins_at\": 2}");
    char dir[64], path[128], err[512];
    volpe_test_dir(dir, sizeof dir, "solve");
    volpe_solve_result a, b, c;
    /* the 2-goose groups first, then the rest: the second run checks and keeps them */
    CHECK_INT(solve_into(&r, dir, 2, &a), 0);
    CHECK_INT(a.start_value, -1);
    CHECK_INT(solve_into(&r, dir, 0, &b), 0);
    CHECK_INT(b.checked, a.solved);
    CHECK_INT(b.solved + b.checked, b.groups);
    CHECK(b.start_value >= 0);
    /* a damaged file is not trusted, and a run solves it again to the same values */
    volpe_group g = volpe_group_of(volpe_profile(0x3)); /* C1 D1 */
    snprintf(path, sizeof path, "%s/g2000000.vdb", dir);
    volpe_db *db = volpe_db_open(dir, volpe_db_key_of(&r), false, err, sizeof err);
    CHECK_INT(volpe_db_check(db, &g, true, err, sizeof err), VOLPE_FILE_OK);
    damage(path, 64 + 100);
    CHECK_INT(volpe_db_check(db, &g, true, err, sizeof err), VOLPE_FILE_BAD);
    CHECK(strstr(err, "checksum") != NULL);
    CHECK_INT(volpe_db_check(db, &g, false, err, sizeof err), VOLPE_FILE_OK); /* size only */
    CHECK(volpe_db_get(db, &g, err, sizeof err) == NULL);
    volpe_db_close(db);
    CHECK_INT(solve_into(&r, dir, 0, &c), 0);
    CHECK_INT(c.solved, 1);
    CHECK_INT(c.wins, b.wins);
    CHECK_INT(c.draws, b.draws);
    CHECK_INT(c.start_value, b.start_value);
    /* a truncated file, and the files of other rules */
    if (truncate(path, 100) != 0)
        perror("truncate");
    db = volpe_db_open(dir, volpe_db_key_of(&r), false, err, sizeof err);
    CHECK_INT(volpe_db_check(db, &g, false, err, sizeof err), VOLPE_FILE_BAD);
    volpe_db_close(db);
    volpe_rules other = volpe_test_rules("{\"geese\": [\"C1\", \"D1\", \"E1\"], \"fox_wins_at\": 1}");
    CHECK_INT(solve_into(&other, dir, 0, &c), 2);
    /* a stop asked for before the first group: nothing solved, and said so */
    volatile sig_atomic_t stop = 1;
    volpe_solve_opts o = {0};
    char dir2[64];
    volpe_test_dir(dir2, sizeof dir2, "solve");
    o.dir = dir2;
    o.stop = &stop;
    o.cache_bytes = 1 << 20;
    CHECK_INT(volpe_solve(&r, &o, &c, err, sizeof err), 0);
    CHECK(c.stopped);
    CHECK_INT(c.solved, 0);
    volpe_test_rmdir(dir);
    volpe_test_rmdir(dir2);
}

TEST(volpe_solve_random_games_are_consistent)
{
    volpe_rules r = volpe_test_rules("{\"geese\": [\"C1\", \"D1\", \"E1\"], \"fox_wins_at\": 2}");
    char dir[64], err[512];
    volpe_test_dir(dir, sizeof dir, "solve");
    volpe_solve_result res;
    CHECK_INT(solve_into(&r, dir, 0, &res), 0);
    volpe_db *db = volpe_db_open(dir, volpe_db_key_of(&r), false, err, sizeof err);
    uint64_t checked = 0, bad = 0;
    CHECK_INT(volpe_solve_games(&r, db, 200, 7, &checked, &bad), 0);
    CHECK(checked > 1000);
    CHECK_INT(bad, 0);
    volpe_db_close(db);
    volpe_test_rmdir(dir);
}
