/* test_volpe_prove.c — the volpe proof search (#30): its answers on reduced games equal the
 * retrograde solver's value of the start (with and without the solved database as leaves),
 * and the certificate checker refuses certificates that were tampered with.
 *
 * Under the sanitizers (make sanitize sets GIOCHI_SANITIZE), where each node costs several
 * times more, the three comparisons whose searches run to millions of nodes take a smaller
 * start of the same kind (a geese win, a draw, database leaves after a capture): the same
 * code (proof, disproof, repetitions, table, certificate check) on less work. The plain
 * pass (make check) keeps the larger starts. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "games/volpe/volpe_kit.h"
#include "config/rules.h"
#include "core/registry.h"
#include "games/volpe/volpe.h"
#include "games/volpe/volpe_cert.h"
#include "games/volpe/volpe_db.h"
#include "games/volpe/volpe_prove.h"
#include "games/volpe/volpe_solve.h"

/* CHECK with a message of its own. */
#define CHECK_MSG(cond, ...)                                                                 \
    do {                                                                                     \
        if (!(cond))                                                                         \
            check_fail(__FILE__, __LINE__, __VA_ARGS__);                                     \
    } while (0)

/* The start's value byte by the retrograde solver, solved into dir (groups of at most
 * max_geese geese; 0 all), or -1. */
static int solved_start(const volpe_rules *r, const char *dir, int max_geese)
{
    volpe_solve_opts o = {0};
    o.dir = dir;
    o.max_geese = max_geese;
    o.cache_bytes = 1ull << 30;
    volpe_solve_result res;
    char err[512] = "";
    if (volpe_solve(r, &o, &res, err, sizeof err) != 0) {
        fprintf(stderr, "solve: %s\n", err);
        return -1;
    }
    return res.start_value;
}

static volpe_answer prove(const volpe_rules *r, volpe_db *db, int attacker, volpe_guess guess,
                          volpe_prove_result *res)
{
    volpe_prove_opts o = {0};
    o.attacker = attacker;
    o.guess = guess;
    o.table_bytes = 16u << 20;
    o.db = db;
    o.db_bytes = 1u << 30;
    volpe_prove(r, r->geese, r->fox, VOLPE_FOX, &o, res);
    return res->answer;
}

/* Proves both questions from the start of overlay's rules and compares with the solver's
 * value (the fox to move: a win is the fox's, a loss the geese's); with_db: the groups
 * below the start's solved first and used as leaves. The number of database leaves into
 * *db_leaves. */
static void compare_with_solver(const char *overlay, bool with_db, uint64_t *db_leaves)
{
    volpe_rules r = volpe_test_rules(overlay);
    char dir[64];
    volpe_test_dir(dir, sizeof dir, "prove");
    int v = solved_start(&r, dir, 0);
    CHECK(v >= 0);
    volpe_db *db = NULL;
    if (with_db) { /* a fresh directory with all but the start's goose count */
        volpe_test_rmdir(dir);
        volpe_test_dir(dir, sizeof dir, "prove");
        CHECK(solved_start(&r, dir, volpe_popcount(r.geese) - 1) == -1);
        char err[512];
        db = volpe_db_open(dir, volpe_db_key_of(&r), false, err, sizeof err);
        CHECK(db != NULL);
    }
    *db_leaves = 0;
    /* each first guess at a node's numbers: only the order of the work may differ */
    for (volpe_guess guess = VOLPE_GUESS_MOVES; guess <= VOLPE_GUESS_ROOM; guess++) {
        volpe_prove_result g, f;
        volpe_answer ag = prove(&r, db, VOLPE_GEESE, guess, &g);
        volpe_answer af = prove(&r, db, VOLPE_FOX, guess, &f);
        *db_leaves += g.db_leaves + f.db_leaves;
        if (volpe_is_win(v)) {
            CHECK_MSG(af == VOLPE_PROVED && ag == VOLPE_DISPROVED,
                      "%s, guess %d: fox %d geese %d (%s%s)", overlay, guess, af, ag,
                      f.check_error, g.check_error);
        } else if (volpe_is_loss(v)) {
            CHECK_MSG(ag == VOLPE_PROVED && af == VOLPE_DISPROVED,
                      "%s, guess %d: fox %d geese %d", overlay, guess, af, ag);
        } else {
            CHECK_MSG(ag == VOLPE_DISPROVED && af == VOLPE_DISPROVED,
                      "%s, guess %d: fox %d geese %d (%s%s)", overlay, guess, af, ag,
                      f.check_error, g.check_error);
        }
        /* a proof's longest line is at least the solver's distance (both count plies) */
        if (volpe_is_win(v) && af == VOLPE_PROVED)
            CHECK(f.check.depth >= volpe_dist(v));
        if (volpe_is_loss(v) && ag == VOLPE_PROVED)
            CHECK(g.check.depth >= volpe_dist(v));
        volpe_cert_free(&g.cert);
        volpe_cert_free(&f.cert);
    }
    if (db)
        volpe_db_close(db);
    volpe_test_rmdir(dir);
}

TEST(volpe_prove_equals_solver_fox_wins)
{
    uint64_t leaves;
    compare_with_solver("{\"geese\": [\"C1\", \"D1\"], \"fox_wins_at\": 1}", false, &leaves);
    compare_with_solver("{\"geese\": [\"C1\", \"D1\", \"E1\", \"D2\"], \"fox_wins_at\": 1}", false,
                        &leaves);
    compare_with_solver("{\"geese\": [\"C1\", \"D1\"], \"fox_wins_at\": 1, "
                        "\"geese_blocked\": \"draw\"}", false, &leaves);
    /* the fox below every goose: the geese's question is answered at the root */
    compare_with_solver("{\"geese\": [\"C5\", \"D5\", \"E5\"], \"fox_wins_at\": 1, \"fox\": \"D2\", "
                        "\"geese_blocked\": \"draw\", \"diagonals\": \"none\"}", false, &leaves);
}

TEST(volpe_prove_equals_solver_geese_win)
{
    uint64_t leaves;
    /* under the sanitizers: six geese fence the fox in the top arm, a 2,000-node proof */
    if (getenv("GIOCHI_SANITIZE")) {
        compare_with_solver("{\"geese\": [\"C5\", \"D5\", \"E5\", \"C4\", \"D4\", \"E4\"], "
                            "\"fox\": \"D7\", \"diagonals\": \"none\", \"fox_wins_at\": 1}",
                            false, &leaves);
        return;
    }
    /* the fox on D7 without diagonals, eight geese in rows 3 and 4: the geese win (no
     * capture allowed), so a proof of theirs and a disproof of the fox's, under each guess */
    compare_with_solver("{\"geese\": [\"C4\", \"D4\", \"E4\", \"C3\", \"D3\", \"E3\", \"B4\", "
                        "\"F4\"], \"fox\": \"D7\", \"diagonals\": \"none\", \"fox_wins_at\": 1}",
                        false, &leaves);
}

/* The game without captures (fox_wins_at 1: the first capture wins) bounds the game with
 * more to take, from the same start: a geese win there never lets the fox take a goose, so it
 * is a geese win at every threshold; a draw there (the geese avoid every capture for ever, or
 * hold it off for ever by repetition) leaves the fox no win at any threshold. The proof
 * runs from the 17-goose start ask that smaller game for this reason (volpe(7), Proof
 * search). Checked with the solver on a won and two drawn starts, the fox without diagonals
 * in the first. */
TEST(volpe_no_capture_game_bounds_the_others)
{
    static const char *const starts[] = {
        "\"geese\": [\"C5\", \"D5\", \"E5\", \"C4\", \"D4\", \"E4\"], \"fox\": \"D7\", "
        "\"diagonals\": \"none\"",
        "\"geese\": [\"C5\", \"D5\", \"E5\", \"D4\"], \"fox\": \"D7\", \"diagonals\": \"none\"",
        "\"geese\": [\"C1\", \"D1\", \"E1\"]",
    };
    int geese_won = 0, fox_held = 0;
    for (size_t i = 0; i < sizeof starts / sizeof *starts; i++) {
        int v1 = -1;
        for (int k = 1; k <= 2; k++) {
            char overlay[256], dir[64];
            snprintf(overlay, sizeof overlay, "{%s, \"fox_wins_at\": %d}", starts[i], k);
            volpe_rules r = volpe_test_rules(overlay);
            volpe_test_dir(dir, sizeof dir, "bound");
            int v = solved_start(&r, dir, 0);
            volpe_test_rmdir(dir);
            CHECK(v >= 0);
            if (k == 1) {
                v1 = v;
                geese_won += volpe_is_loss(v);
                fox_held += !volpe_is_win(v) && !volpe_is_loss(v);
                continue;
            }
            if (volpe_is_loss(v1))
                CHECK_MSG(volpe_is_loss(v), "%s: the geese win without a capture, not so", overlay);
            if (!volpe_is_win(v1))
                CHECK_MSG(!volpe_is_win(v), "%s: the fox wins, not without a capture", overlay);
        }
    }
    CHECK(geese_won == 1 && fox_held == 2); /* each kind of bound was exercised */
}

/* The room guess is a different order of work, not the same search: on the three geese of
 * C1 D1 E1 (a draw) the geese's question takes another number of nodes under each. */
TEST(volpe_prove_guess_changes_the_search)
{
    volpe_rules r = volpe_test_rules("{\"geese\": [\"C1\", \"D1\", \"E1\"], \"fox_wins_at\": 1}");
    volpe_prove_result a, b;
    CHECK(prove(&r, NULL, VOLPE_GEESE, VOLPE_GUESS_MOVES, &a) == VOLPE_DISPROVED);
    CHECK(prove(&r, NULL, VOLPE_GEESE, VOLPE_GUESS_ROOM, &b) == VOLPE_DISPROVED);
    CHECK_MSG(a.nodes != b.nodes, "both guesses took %llu nodes", (unsigned long long)a.nodes);
    volpe_cert_free(&a.cert);
    volpe_cert_free(&b.cert);
}

TEST(volpe_prove_equals_solver_draws)
{
    uint64_t leaves;
    if (getenv("GIOCHI_SANITIZE")) { /* two geese on the sides: a million nodes, not nine */
        compare_with_solver("{\"geese\": [\"A3\", \"G3\"], \"fox_wins_at\": 1}", false, &leaves);
        return;
    }
    /* two captures from three geese: drawn, both questions disproved */
    compare_with_solver("{\"geese\": [\"A3\", \"D2\", \"G3\"], \"fox_wins_at\": 2, "
                        "\"fox\": \"D6\"}", false, &leaves);
    compare_with_solver("{\"geese\": [\"C1\", \"D1\", \"E1\"], \"fox_wins_at\": 1}", false,
                        &leaves);
}

TEST(volpe_prove_uses_the_database_as_leaves)
{
    uint64_t leaves;
    if (getenv("GIOCHI_SANITIZE")) { /* two geese on the sides, two captures to make */
        compare_with_solver("{\"geese\": [\"A3\", \"G3\"], \"fox_wins_at\": 2}", true, &leaves);
        CHECK(leaves > 0);
        return;
    }
    /* two captures to make: the groups after one are solved first and read as leaves */
    compare_with_solver("{\"geese\": [\"D4\", \"C3\", \"E3\"], \"fox_wins_at\": 2}", true,
                        &leaves);
    CHECK(leaves > 0);
    compare_with_solver("{\"geese\": [\"A3\", \"D2\", \"G3\"], \"fox_wins_at\": 2, "
                        "\"fox\": \"D6\"}", true, &leaves);
    CHECK(leaves > 0);
}

/* The first key of c (in slot order) whose move is or is not VOLPE_CERT_ALL. */
static bool some_key(const volpe_cert *c, bool all, uint64_t *key)
{
    for (size_t i = 0; i < c->cap; i++)
        if (c->keys[i] != VOLPE_CERT_EMPTY && (c->moves[i] == VOLPE_CERT_ALL) == all) {
            *key = c->keys[i];
            return true;
        }
    return false;
}

/* A copy of c without key, or with key's move set to move. */
static void copy_cert(const volpe_cert *c, volpe_cert *out, uint64_t key, bool drop,
                      int32_t move)
{
    volpe_cert_init(out);
    for (size_t i = 0; i < c->cap; i++) {
        if (c->keys[i] == VOLPE_CERT_EMPTY)
            continue;
        if (c->keys[i] == key && drop)
            continue;
        volpe_cert_put(out, c->keys[i], c->keys[i] == key ? move : c->moves[i]);
    }
}

TEST(volpe_prove_certificates_are_checked)
{
    volpe_rules r = volpe_test_rules("{\"geese\": [\"C1\", \"D1\", \"E1\", \"D2\"], \"fox_wins_at\": 1}");
    volpe_prove_result f, g;
    CHECK(prove(&r, NULL, VOLPE_FOX, VOLPE_GUESS_MOVES, &f) == VOLPE_PROVED);
    CHECK(prove(&r, NULL, VOLPE_GEESE, VOLPE_GUESS_MOVES, &g) == VOLPE_DISPROVED);
    volpe_cert_report rep;
    char err[512];
    CHECK(volpe_cert_check(&r, NULL, VOLPE_FOX, true, r.geese, r.fox, VOLPE_FOX, &f.cert, &rep,
                           err, sizeof err));
    CHECK(rep.nodes > 0 && rep.nodes <= f.cert.n && rep.depth > 0);
    /* the proof is no disproof, nor a proof of the other side's win */
    CHECK(!volpe_cert_check(&r, NULL, VOLPE_FOX, false, r.geese, r.fox, VOLPE_FOX, &f.cert,
                            &rep, err, sizeof err));
    CHECK(!volpe_cert_check(&r, NULL, VOLPE_GEESE, true, r.geese, r.fox, VOLPE_FOX, &f.cert,
                            &rep, err, sizeof err));
    /* a position of it dropped: some position reached is not covered */
    uint64_t key = 0;
    CHECK(some_key(&f.cert, true, &key));
    volpe_cert bad;
    copy_cert(&f.cert, &bad, key, true, 0);
    CHECK(!volpe_cert_check(&r, NULL, VOLPE_FOX, true, r.geese, r.fox, VOLPE_FOX, &bad, &rep,
                            err, sizeof err));
    volpe_cert_free(&bad);
    /* the root's winning move replaced by every other move in turn: none that the checker
     * accepts unless it wins too, and one not a move at all is refused */
    uint64_t root = volpe_pos_key(r.geese, r.fox, VOLPE_FOX);
    copy_cert(&f.cert, &bad, root, false, 63); /* a step to no point */
    CHECK(!volpe_cert_check(&r, NULL, VOLPE_FOX, true, r.geese, r.fox, VOLPE_FOX, &bad, &rep,
                            err, sizeof err));
    CHECK(strstr(err, "not a move") != NULL);
    volpe_cert_free(&bad);
    /* where one side picks, "every move" is refused; and the reverse */
    copy_cert(&f.cert, &bad, root, false, VOLPE_CERT_ALL);
    CHECK(!volpe_cert_check(&r, NULL, VOLPE_FOX, true, r.geese, r.fox, VOLPE_FOX, &bad, &rep,
                            err, sizeof err));
    volpe_cert_free(&bad);
    CHECK(volpe_cert_check(&r, NULL, VOLPE_GEESE, false, r.geese, r.fox, VOLPE_FOX, &g.cert,
                           &rep, err, sizeof err));
    CHECK(some_key(&g.cert, false, &key));
    copy_cert(&g.cert, &bad, key, false, VOLPE_CERT_ALL);
    CHECK(!volpe_cert_check(&r, NULL, VOLPE_GEESE, false, r.geese, r.fox, VOLPE_FOX, &bad, &rep,
                            err, sizeof err));
    volpe_cert_free(&bad);
    volpe_cert_free(&f.cert);
    volpe_cert_free(&g.cert);
}

TEST(volpe_prove_refuses_a_proof_with_a_cycle)
{
    /* One goose on row 7, which can only step sideways, and the fox walking D1-C1 and back:
     * a "proof" of the fox's win made of positions that lead round to the start covers
     * every goose move and picks a fox move everywhere, but never wins; only the cycle
     * gives it away. */
    volpe_rules r = volpe_test_rules("{\"geese\": [\"D7\"], \"fox\": \"D1\", \"fox_wins_at\": 1}");
    int c1 = volpe_parse_point("C1"), d1 = volpe_parse_point("D1");
    uint64_t c7 = 1ull << volpe_parse_point("C7"), d7 = 1ull << volpe_parse_point("D7"),
             e7 = 1ull << volpe_parse_point("E7");
    volpe_cert c;
    volpe_cert_init(&c);
    volpe_cert_put(&c, volpe_pos_key(d7, d1, VOLPE_FOX), c1);
    volpe_cert_put(&c, volpe_pos_key(d7, c1, VOLPE_GEESE), VOLPE_CERT_ALL);
    volpe_cert_put(&c, volpe_pos_key(c7, c1, VOLPE_FOX), d1);
    volpe_cert_put(&c, volpe_pos_key(e7, c1, VOLPE_FOX), d1);
    volpe_cert_put(&c, volpe_pos_key(c7, d1, VOLPE_GEESE), VOLPE_CERT_ALL);
    volpe_cert_put(&c, volpe_pos_key(e7, d1, VOLPE_GEESE), VOLPE_CERT_ALL);
    volpe_cert_report rep;
    char err[512];
    CHECK(!volpe_cert_check(&r, NULL, VOLPE_FOX, true, d7, d1, VOLPE_FOX, &c, &rep, err,
                            sizeof err));
    CHECK_MSG(strstr(err, "cycle") != NULL, "%s", err);
    CHECK(rep.nodes == 6); /* the closure passed: every position was covered */
    /* the same set is a sound disproof of the geese's win: the fox walks for ever (where
     * the geese move every move is covered, where the fox moves one) */
    CHECK(volpe_cert_check(&r, NULL, VOLPE_GEESE, false, d7, d1, VOLPE_FOX, &c, &rep, err,
                           sizeof err));
    volpe_cert_free(&c);
}
