/* volpe_cert.c — the certificate of a volpe proof search: a hash set of positions with a
 * move each, and the checker that replays it with the game's move rules alone. */
#include "games/volpe/volpe_cert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "games/volpe/volpe_db.h"

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    return x;
}

void volpe_cert_init(volpe_cert *c)
{
    c->cap = 1024;
    c->n = 0;
    c->keys = xmalloc(c->cap * sizeof *c->keys);
    c->moves = xmalloc(c->cap * sizeof *c->moves);
    memset(c->keys, 0xff, c->cap * sizeof *c->keys);
}

void volpe_cert_free(volpe_cert *c)
{
    free(c->keys);
    free(c->moves);
    memset(c, 0, sizeof *c);
}

static size_t slot_of(const volpe_cert *c, uint64_t key)
{
    size_t i = (size_t)mix(key) & (c->cap - 1);
    while (c->keys[i] != VOLPE_CERT_EMPTY && c->keys[i] != key)
        i = (i + 1) & (c->cap - 1);
    return i;
}

void volpe_cert_put(volpe_cert *c, uint64_t key, int32_t move)
{
    if (2 * (c->n + 1) > c->cap) { /* at most half full */
        volpe_cert old = *c;
        c->cap *= 2;
        c->n = 0;
        c->keys = xmalloc(c->cap * sizeof *c->keys);
        c->moves = xmalloc(c->cap * sizeof *c->moves);
        memset(c->keys, 0xff, c->cap * sizeof *c->keys);
        for (size_t i = 0; i < old.cap; i++)
            if (old.keys[i] != VOLPE_CERT_EMPTY)
                volpe_cert_put(c, old.keys[i], old.moves[i]);
        free(old.keys);
        free(old.moves);
    }
    size_t i = slot_of(c, key);
    if (c->keys[i] == VOLPE_CERT_EMPTY) {
        c->keys[i] = key;
        c->n++;
    }
    c->moves[i] = move;
}

bool volpe_cert_get(const volpe_cert *c, uint64_t key, int32_t *move)
{
    size_t i = slot_of(c, key);
    if (c->keys[i] == VOLPE_CERT_EMPTY)
        return false;
    if (move)
        *move = c->moves[i];
    return true;
}

/* ---- the checker ---------------------------------------------------------------------- */

typedef struct checker {
    const volpe_rules *r;
    volpe_db *db;
    int threshold, attacker;
    bool proof;
    int8_t *avail; /* per group code: 0 not looked at, 1 solved in db, -1 not */
    int32_t *moves;
    int room;
    volpe_cert_report *rep;
    char *err;
    size_t errlen;
} checker;

enum { KIND_END = 1, KIND_DB, KIND_BELOW };

/* What is known of (geese, fox, side) for the attacker without looking at its moves; the
 * kind of leaf into *kind. */
static volpe_leaf leaf(checker *k, uint64_t geese, int fox, int side, int *kind)
{
    const volpe_board *b = &k->r->board;
    int fox_wins = k->attacker == VOLPE_FOX ? VOLPE_LEAF_WIN : VOLPE_LEAF_NOT_WIN;
    int geese_win = k->attacker == VOLPE_GEESE ? VOLPE_LEAF_WIN : VOLPE_LEAF_NOT_WIN;
    *kind = KIND_END;
    if (volpe_popcount(geese) <= k->threshold)
        return (volpe_leaf)fox_wins;
    if (side == VOLPE_FOX && !volpe_fox_can_move(b, geese, fox))
        return (volpe_leaf)geese_win;
    if (side == VOLPE_GEESE) {
        int32_t mv[3 * VOLPE_MAX_GEESE];
        if (volpe_geese_moves(b, geese, fox, mv) == 0)
            return k->r->geese_blocked == VOLPE_BLOCKED_LOSE ? (volpe_leaf)fox_wins
                                                               : VOLPE_LEAF_NOT_WIN;
    }
    if (k->db) {
        uint32_t code = volpe_profile(geese);
        if (k->avail[code] == 0) {
            volpe_group g = volpe_group_of(code);
            char why[512];
            k->avail[code] = volpe_db_check(k->db, &g, false, why, sizeof why) ==
                                     VOLPE_FILE_OK ? 1 : -1;
        }
        if (k->avail[code] > 0) {
            char why[512];
            int v = volpe_db_value(k->db, geese, fox, side, why, sizeof why);
            if (v >= 0) {
                *kind = KIND_DB;
                int mover = side == k->attacker;
                if (volpe_is_win(v))
                    return mover ? VOLPE_LEAF_WIN : VOLPE_LEAF_NOT_WIN;
                if (volpe_is_loss(v))
                    return mover ? VOLPE_LEAF_NOT_WIN : VOLPE_LEAF_WIN;
                return VOLPE_LEAF_NOT_WIN;
            }
            k->avail[code] = -1;
        }
    }
    if (k->attacker == VOLPE_GEESE && volpe_y(fox) < volpe_y(__builtin_ctzll(geese))) {
        *kind = KIND_BELOW; /* points are numbered row by row: the lowest bit, lowest row */
        return VOLPE_LEAF_NOT_WIN;
    }
    *kind = 0;
    return VOLPE_LEAF_NONE;
}

/* The moves of (geese, fox, side) into k->moves; their number. */
static int moves_of(checker *k, uint64_t geese, int fox, int side)
{
    const volpe_board *b = &k->r->board;
    if (side == VOLPE_GEESE) {
        if (k->room < 3 * VOLPE_MAX_GEESE) {
            k->room = 3 * VOLPE_MAX_GEESE;
            k->moves = xrealloc(k->moves, (size_t)k->room * sizeof *k->moves);
        }
        return volpe_geese_moves(b, geese, fox, k->moves);
    }
    int n = volpe_fox_moves(b, geese, fox, 0, 0, NULL, NULL);
    if (n > k->room) {
        k->room = n;
        k->moves = xrealloc(k->moves, (size_t)n * sizeof *k->moves);
    }
    return volpe_fox_moves(b, geese, fox, 0, n, k->moves, NULL);
}

static void after(uint64_t geese, int fox, int side, int32_t a, uint64_t *g2, int *f2)
{
    if (side == VOLPE_FOX) {
        *g2 = geese & ~volpe_captured_set(geese, a);
        *f2 = a & 63;
    } else {
        *g2 = geese ^ 1ull << (a >> 6 & 63) ^ 1ull << (a & 63);
        *f2 = fox;
    }
}

static void unkey(uint64_t key, uint64_t *geese, int *fox, int *side)
{
    *geese = key & ((1ull << VOLPE_POINTS) - 1);
    *fox = (int)(key >> 33 & 63);
    *side = (int)(key >> 39 & 1);
}

static bool fail(checker *k, uint64_t key, const char *what)
{
    uint64_t geese;
    int fox, side;
    unkey(key, &geese, &fox, &side);
    char f[4];
    volpe_point_name(fox, f);
    snprintf(k->err, k->errlen, "certificate: %s (geese %#llx, fox %s, %s to move)", what,
             (unsigned long long)geese, f, side == VOLPE_FOX ? "fox" : "geese");
    k->rep->ok = false;
    return false;
}

/* A successor's standing: 1 covered (a leaf of the right kind or in c), 0 not. */
static int covered(checker *k, const volpe_cert *c, uint64_t geese, int fox, int side,
                   bool count)
{
    int kind;
    volpe_leaf l = leaf(k, geese, fox, side, &kind);
    volpe_leaf want = k->proof ? VOLPE_LEAF_WIN : VOLPE_LEAF_NOT_WIN;
    if (l != VOLPE_LEAF_NONE) {
        if (l != want)
            return 0;
        if (count) {
            k->rep->leaves_end += kind == KIND_END;
            k->rep->leaves_db += kind == KIND_DB;
            k->rep->leaves_below += kind == KIND_BELOW;
        }
        return 1;
    }
    return volpe_cert_get(c, volpe_pos_key(geese, fox, side), NULL) ? 1 : 0;
}

/* The closure: every position of c reached from the root has its chosen move among its
 * moves, leading to a covered position, or every move covered, as the question asks. */
static bool closure(checker *k, const volpe_cert *c, uint64_t root, volpe_cert *seen)
{
    uint64_t *work = xmalloc(1024 * sizeof *work);
    size_t n = 0, cap = 1024;
    work[n++] = root;
    volpe_cert_put(seen, root, 0);
    bool ok = true;
    while (n > 0 && ok) {
        uint64_t key = work[--n], geese;
        int fox, side;
        unkey(key, &geese, &fox, &side);
        int32_t chosen;
        if (!volpe_cert_get(c, key, &chosen)) {
            ok = fail(k, key, "a position reached is not covered");
            break;
        }
        k->rep->nodes++;
        bool picks = (side == k->attacker) == k->proof; /* one move, not all */
        if (picks == (chosen == VOLPE_CERT_ALL)) {
            ok = fail(k, key, picks ? "no move chosen where one side picks"
                                    : "a move chosen where every move must be covered");
            break;
        }
        int m = moves_of(k, geese, fox, side);
        bool found = false;
        for (int i = 0; i < m && ok; i++) {
            int32_t a = k->moves[i];
            if (picks && a != chosen)
                continue;
            found = true;
            uint64_t g2;
            int f2;
            after(geese, fox, side, a, &g2, &f2);
            if (!covered(k, c, g2, f2, 1 - side, true)) {
                ok = fail(k, key, picks ? "the chosen move leads outside the certificate"
                                        : "a move leads outside the certificate");
                break;
            }
            uint64_t k2 = volpe_pos_key(g2, f2, 1 - side);
            int kind;
            if (leaf(k, g2, f2, 1 - side, &kind) == VOLPE_LEAF_NONE &&
                !volpe_cert_get(seen, k2, NULL)) {
                volpe_cert_put(seen, k2, 0);
                if (n == cap) {
                    cap *= 2;
                    work = xrealloc(work, cap * sizeof *work);
                }
                work[n++] = k2;
            }
        }
        if (ok && picks && !found)
            ok = fail(k, key, "the chosen move is not a move of the position");
    }
    free(work);
    return ok;
}

/* A proof has no cycle: a depth-first walk of its positions (the chosen move where the
 * attacker moves, every move where the defender does) never meets a position on its own
 * path. The longest path into *depth. */
static bool acyclic(checker *k, const volpe_cert *c, uint64_t root, int *depth)
{
    typedef struct frame {
        uint64_t key;
        int next, best;
    } frame;
    size_t cap = 256, n = 0;
    frame *st = xmalloc(cap * sizeof *st);
    volpe_cert state; /* move field: -2 on the path, else the longest path below */
    volpe_cert_init(&state);
    st[n++] = (frame){root, 0, 0};
    volpe_cert_put(&state, root, -2);
    bool ok = true;
    while (n > 0 && ok) {
        frame *f = &st[n - 1];
        uint64_t geese;
        int fox, side;
        unkey(f->key, &geese, &fox, &side);
        int32_t chosen = VOLPE_CERT_ALL;
        volpe_cert_get(c, f->key, &chosen);
        int m = moves_of(k, geese, fox, side);
        bool pushed = false;
        while (f->next < m) {
            int32_t a = k->moves[f->next++];
            if (chosen != VOLPE_CERT_ALL && a != chosen)
                continue;
            uint64_t g2;
            int f2, kind;
            after(geese, fox, side, a, &g2, &f2);
            if (leaf(k, g2, f2, 1 - side, &kind) != VOLPE_LEAF_NONE) {
                f->best = f->best > 1 ? f->best : 1;
                continue;
            }
            uint64_t k2 = volpe_pos_key(g2, f2, 1 - side);
            int32_t s;
            if (volpe_cert_get(&state, k2, &s)) {
                if (s == -2) {
                    ok = fail(k, k2, "a cycle in a proof");
                    break;
                }
                f->best = f->best > s + 1 ? f->best : s + 1;
                continue;
            }
            if (n == cap) {
                cap *= 2;
                st = xrealloc(st, cap * sizeof *st);
                f = &st[n - 1];
            }
            volpe_cert_put(&state, k2, -2);
            st[n++] = (frame){k2, 0, 0};
            pushed = true;
            break;
        }
        if (!ok || pushed)
            continue;
        volpe_cert_put(&state, f->key, f->best);
        int best = f->best;
        n--;
        if (n > 0)
            st[n - 1].best = st[n - 1].best > best + 1 ? st[n - 1].best : best + 1;
        else
            *depth = best;
    }
    free(st);
    volpe_cert_free(&state);
    return ok;
}

bool volpe_cert_check(const volpe_rules *r, volpe_db *db, int attacker, bool proof,
                      uint64_t geese, int fox, int side, const volpe_cert *c,
                      volpe_cert_report *rep, char *err, size_t errlen)
{
    memset(rep, 0, sizeof *rep);
    rep->ok = true;
    checker k = {0};
    k.r = r;
    k.db = db;
    k.threshold = volpe_db_key_of(r).threshold;
    k.attacker = attacker;
    k.proof = proof;
    k.avail = xcalloc(VOLPE_PROFILES, 1);
    k.rep = rep;
    k.err = err;
    k.errlen = errlen;
    int kind;
    volpe_leaf l = leaf(&k, geese, fox, side, &kind);
    bool ok;
    if (l != VOLPE_LEAF_NONE) {
        ok = l == (proof ? VOLPE_LEAF_WIN : VOLPE_LEAF_NOT_WIN);
        if (!ok)
            fail(&k, volpe_pos_key(geese, fox, side), "the root's own value says otherwise");
    } else {
        volpe_cert seen;
        volpe_cert_init(&seen);
        uint64_t root = volpe_pos_key(geese, fox, side);
        ok = closure(&k, c, root, &seen);
        volpe_cert_free(&seen);
        if (ok && proof)
            ok = acyclic(&k, c, root, &rep->depth);
    }
    rep->ok = ok;
    free(k.avail);
    free(k.moves);
    return ok;
}
