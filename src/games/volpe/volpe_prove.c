/* volpe_prove.c — df-pn for La volpe e le oche: the most-proving node found depth first
 * under thresholds, a bucketed transposition table of fixed size, the path checked for
 * repetitions, then the certificate of the answer built from the table and checked. */
#include "games/volpe/volpe_prove.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/xalloc.h"
#include "games/volpe/volpe_db.h"

#define INF 0x7fffffffu /* a proof or disproof number of a solved node */
#define BIG (INF - 1)   /* the largest number of a node not solved */

enum {
    BUCKET = 4,             /* table entries a key may sit in */
    TICK = 1 << 14,         /* expansions between looks at the clock, the stop and the db */
    RANK_MAX = 0x7fff,
    STACK_BYTES = 1 << 30,  /* the search thread's stack (deep paths recurse) */
};

/* A table entry: the position's key (40 bits), log2 of the work spent under it (8 bits) and
 * the rank of a proof (16 bits: the longest path to its won leaves) in word; 0: empty. */
typedef struct entry {
    uint64_t word;
    uint32_t pn, dn;
} entry;

#define KEY_BITS 40
#define KEY_MASK ((1ull << KEY_BITS) - 1)

/* The children of a node being searched at one depth. */
typedef struct frame {
    int cap, n;
    uint64_t *geese;
    int8_t *fox;
    uint8_t *irrev;   /* the move was a capture or a goose's step forward */
    uint32_t *pn, *dn;
    uint16_t *rank;
    int *dep;         /* a disproof's shallowest path index it relies on (NODEP: none) */
    int32_t *moves;
} frame;

#define NODEP 0x7fffffff

typedef struct prover {
    const volpe_rules *r;
    const volpe_board *b;
    const volpe_prove_opts *opts;
    volpe_prove_result *res;
    int attacker, threshold;
    entry *tt;
    uint64_t buckets; /* a power of two */
    int8_t *avail;    /* per group code: 0 not looked at, 1 solved in db, -1 not */
    uint64_t nodes;
    bool abort;
    /* the search path: keys, and where the run of reversible moves to each began */
    uint64_t *path;
    int *rev;
    frame **frames;
    int cap;
    int32_t *scratch; /* moves of a position */
    int scratch_room;
    double t0, last;
    const char *question;
} prover;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

/* ---- the table -------------------------------------------------------------------------- */

/* A disproof that relies on a position above it on the path is kept with that position's
 * key: pn holds its low 32 bits, the rank field PATHDEP and its high 8 bits. */
enum { PATHDEP = 0x8000 };

/* The entry of key: its numbers and rank, and (*dep_key, else 0) the position a disproof
 * relies on. */
static bool tt_get(const prover *p, uint64_t key, uint32_t *pn, uint32_t *dn, int *rank,
                   uint64_t *dep_key)
{
    const entry *e = &p->tt[(mix(key) & (p->buckets - 1)) * BUCKET];
    for (int i = 0; i < BUCKET; i++)
        if (e[i].word && (e[i].word & KEY_MASK) == key) {
            *pn = e[i].pn;
            *dn = e[i].dn;
            *rank = (int)(e[i].word >> 48);
            *dep_key = 0;
            if (*dn == 0 && (*rank & PATHDEP)) {
                *dep_key = (uint64_t)(*rank & 0xff) << 32 | *pn;
                *pn = INF;
                *rank = 0;
            }
            return true;
        }
    return false;
}

/* The entry of key if it is solved whatever the path. */
static bool tt_solved(const prover *p, uint64_t key, uint32_t *pn, uint32_t *dn, int *rank)
{
    uint64_t dep;
    return tt_get(p, key, pn, dn, rank, &dep) && dep == 0 && (*pn == 0 || *dn == 0);
}

static int log2_of(uint64_t x)
{
    int l = 0;
    while (x > 1) {
        x >>= 1;
        l++;
    }
    return l;
}

/* Keeps (pn, dn) of key: in its own slot, else in an empty one, else over the entry worth
 * least (unsolved before solved, then the least work). */
static void tt_put(prover *p, uint64_t key, uint32_t pn, uint32_t dn, uint64_t work, int rank)
{
    entry *e = &p->tt[(mix(key) & (p->buckets - 1)) * BUCKET];
    int victim = -1, worth = 1 << 30;
    for (int i = 0; i < BUCKET; i++) {
        if (e[i].word && (e[i].word & KEY_MASK) == key) {
            victim = i;
            break;
        }
        int w = e[i].word == 0 ? -1
                               : (int)(e[i].word >> KEY_BITS & 0xff) +
                                     ((e[i].pn == 0 || e[i].dn == 0) ? 256 : 0);
        if (w < worth) {
            worth = w;
            victim = i;
        }
    }
    if (e[victim].word == 0)
        p->res->table_used++;
    uint64_t l = (uint64_t)log2_of(work);
    e[victim].word = key | l << KEY_BITS | (uint64_t)(rank & 0xffff) << 48;
    e[victim].pn = pn;
    e[victim].dn = dn;
}

/* ---- leaves ----------------------------------------------------------------------------- */

typedef enum { OPEN, WON, NOT_WON } standing;

/* What (geese, fox, side) is for the attacker without a search; its mobility (fox steps
 * and single jumps, or geese moves) into *mob when OPEN. */
static standing standing_of(prover *p, uint64_t geese, int fox, int side, int *mob)
{
    standing fox_wins = p->attacker == VOLPE_FOX ? WON : NOT_WON;
    standing geese_win = p->attacker == VOLPE_GEESE ? WON : NOT_WON;
    if (volpe_popcount(geese) <= p->threshold)
        return fox_wins;
    if (side == VOLPE_FOX) {
        *mob = volpe_fox_mobility(p->b, geese, fox);
        if (*mob == 0)
            return geese_win;
    } else {
        int32_t mv[3 * VOLPE_MAX_GEESE];
        *mob = volpe_geese_moves(p->b, geese, fox, mv);
        if (*mob == 0)
            return p->r->geese_blocked == VOLPE_BLOCKED_LOSE ? fox_wins : NOT_WON;
    }
    if (p->opts->db) {
        uint32_t code = volpe_profile(geese);
        if (p->avail[code] == 0) {
            volpe_group g = volpe_group_of(code);
            char why[512];
            p->avail[code] = volpe_db_check(p->opts->db, &g, false, why, sizeof why) ==
                                     VOLPE_FILE_OK ? 1 : -1;
        }
        if (p->avail[code] > 0) {
            char why[512];
            int v = volpe_db_value(p->opts->db, geese, fox, side, why, sizeof why);
            if (v >= 0) {
                p->res->db_leaves++;
                bool mover = side == p->attacker;
                if (volpe_is_win(v))
                    return mover ? WON : NOT_WON;
                if (volpe_is_loss(v))
                    return mover ? NOT_WON : WON;
                return NOT_WON;
            }
            p->avail[code] = -1;
        }
    }
    /* Geese never step back: with the fox in a row below every goose, no goose can ever
     * come down to it, and it keeps a step along its row for ever. */
    if (p->attacker == VOLPE_GEESE && volpe_y(fox) < volpe_y(__builtin_ctzll(geese))) {
        p->res->below_leaves++;
        return NOT_WON;
    }
    return OPEN;
}

/* ---- moves ------------------------------------------------------------------------------ */

/* The moves of (geese, fox, side) into p->scratch; their number. */
static int moves_of(prover *p, uint64_t geese, int fox, int side)
{
    if (side == VOLPE_GEESE) {
        if (p->scratch_room < 3 * VOLPE_MAX_GEESE) {
            p->scratch_room = 3 * VOLPE_MAX_GEESE;
            p->scratch = xrealloc(p->scratch, (size_t)p->scratch_room * sizeof *p->scratch);
        }
        return volpe_geese_moves(p->b, geese, fox, p->scratch);
    }
    int n = volpe_fox_moves(p->b, geese, fox, 0, p->scratch_room, p->scratch, NULL);
    if (n > p->scratch_room) {
        p->scratch_room = 2 * n;
        p->scratch = xrealloc(p->scratch, (size_t)p->scratch_room * sizeof *p->scratch);
        n = volpe_fox_moves(p->b, geese, fox, 0, p->scratch_room, p->scratch, NULL);
    }
    return n;
}

/* The position after move a; whether the move was irreversible into *irrev. */
static void after(uint64_t geese, int fox, int side, int32_t a, uint64_t *g2, int *f2,
                  bool *irrev)
{
    if (side == VOLPE_FOX) {
        *g2 = geese & ~volpe_captured_set(geese, a);
        *f2 = a & 63;
        *irrev = (a >> 6) != 0;
    } else {
        int to = a & 63, from = a >> 6 & 63;
        *g2 = geese ^ 1ull << from ^ 1ull << to;
        *f2 = fox;
        *irrev = to != from + 1 && to != from - 1;
    }
}

static frame *frame_at(prover *p, int d)
{
    if (d >= p->cap) {
        int cap = 2 * d + 64;
        p->frames = xrealloc(p->frames, (size_t)cap * sizeof *p->frames);
        p->path = xrealloc(p->path, (size_t)cap * sizeof *p->path);
        p->rev = xrealloc(p->rev, (size_t)cap * sizeof *p->rev);
        for (int i = p->cap; i < cap; i++)
            p->frames[i] = xcalloc(1, sizeof(frame));
        p->cap = cap;
    }
    return p->frames[d];
}

static void frame_room(frame *f, int n)
{
    if (n <= f->cap)
        return;
    f->cap = n;
    f->geese = xrealloc(f->geese, (size_t)n * sizeof *f->geese);
    f->fox = xrealloc(f->fox, (size_t)n * sizeof *f->fox);
    f->irrev = xrealloc(f->irrev, (size_t)n * sizeof *f->irrev);
    f->pn = xrealloc(f->pn, (size_t)n * sizeof *f->pn);
    f->dn = xrealloc(f->dn, (size_t)n * sizeof *f->dn);
    f->rank = xrealloc(f->rank, (size_t)n * sizeof *f->rank);
    f->dep = xrealloc(f->dep, (size_t)n * sizeof *f->dep);
    f->moves = xrealloc(f->moves, (size_t)n * sizeof *f->moves);
}

/* ---- progress --------------------------------------------------------------------------- */

static void show(prover *p, bool final, int depth)
{
    if (!p->opts->progress)
        return;
    double t = now();
    if (!final && t - p->last < 1.0)
        return;
    p->last = t;
    double el = t - p->t0 > 1e-9 ? t - p->t0 : 1e-9;
    fprintf(stderr, "\rgiochi-sim: prove: %s %llu nodes, %.0f k/s, root pn %u dn %u, depth "
            "%d (max %d), table %.1f%%, %.0f s   %s", p->question,
            (unsigned long long)p->nodes, (double)p->nodes / el / 1e3, p->res->root_pn,
            p->res->root_dn, depth, p->res->max_depth,
            100.0 * (double)p->res->table_used / (double)p->res->table_entries, el,
            final ? "\n" : "");
    fflush(stderr);
}

static void tick(prover *p, int depth)
{
    show(p, false, depth);
    if ((p->opts->stop && *p->opts->stop) ||
        (p->opts->max_nodes && p->nodes >= p->opts->max_nodes))
        p->abort = true;
    if (p->opts->db) {
        uint64_t held = volpe_db_loaded(p->opts->db);
        p->res->peak_db_bytes = held > p->res->peak_db_bytes ? held : p->res->peak_db_bytes;
        if (held > p->opts->db_bytes)
            volpe_db_trim(p->opts->db, p->opts->db_bytes);
    }
}

/* ---- df-pn ------------------------------------------------------------------------------ */

static uint32_t clamp(uint64_t x)
{
    return x >= BIG ? BIG : (uint32_t)x;
}

/* VOLPE_GUESS_ROOM's number for a position with the fox to move, the work its side (the
 * fox) is guessed to make the other refute: the points the fox reaches by steps, twice more
 * those of them behind a goose (a fox there is hard to corner), and four times the geese it
 * can take at once. For the geese's question it is the proof number of the fox's node, for
 * the fox's the disproof number. Any positive guess leaves the search complete: only the
 * order of the work changes. */
static uint32_t room_guess(const prover *p, uint64_t geese, int fox)
{
    uint64_t region = volpe_fox_region(p->b, geese, fox), behind = 0;
    for (uint64_t m = geese; m; m &= m - 1)
        behind |= p->b->below[__builtin_ctzll(m)];
    int room = volpe_popcount(region) - 1; /* the fox's own point is not room */
    int threat = volpe_max_capture(p->b, geese, fox);
    int g = room + 2 * volpe_popcount(region & behind) + 4 * threat;
    return g > 0 ? (uint32_t)g : 1;
}

/* Fills frame d with the children of (geese, fox, side), the node at path[d]. */
static void expand(prover *p, int d, uint64_t geese, int fox, int side)
{
    int n = moves_of(p, geese, fox, side);
    frame *f = frame_at(p, d);
    frame_room(f, n);
    memcpy(f->moves, p->scratch, (size_t)n * sizeof *f->moves);
    f->n = n;
    bool child_or = 1 - side == p->attacker;
    for (int i = 0; i < n; i++) {
        uint64_t g2;
        int f2, mob = 1, rank = 0;
        bool irrev;
        after(geese, fox, side, f->moves[i], &g2, &f2, &irrev);
        f->geese[i] = g2;
        f->fox[i] = (int8_t)f2;
        f->irrev[i] = irrev;
        f->rank[i] = 0;
        f->dep[i] = NODEP;
        standing s = standing_of(p, g2, f2, 1 - side, &mob);
        if (s == WON) {
            f->pn[i] = 0;
            f->dn[i] = INF;
            continue;
        }
        if (s == NOT_WON) {
            f->pn[i] = INF;
            f->dn[i] = 0;
            continue;
        }
        uint64_t key = volpe_pos_key(g2, f2, 1 - side);
        int rep = -1;
        if (!irrev)
            for (int j = p->rev[d]; j <= d && rep < 0; j++)
                if (p->path[j] == key)
                    rep = j;
        if (rep >= 0) { /* not a win along this path: a disproof that relies on path[rep] */
            p->res->repetitions++;
            f->pn[i] = INF;
            f->dn[i] = 0;
            f->dep[i] = rep;
            continue;
        }
        uint32_t pn, dn;
        uint64_t dep_key;
        if (tt_get(p, key, &pn, &dn, &rank, &dep_key)) {
            int at = -1;
            for (int j = p->rev[d]; j <= d && dep_key && at < 0; j++)
                if (p->path[j] == dep_key)
                    at = j;
            if (dep_key == 0 || at >= 0) { /* a disproof relying on the path holds here */
                f->pn[i] = pn;
                f->dn[i] = dn;
                f->rank[i] = (uint16_t)rank;
                f->dep[i] = dep_key ? at : NODEP;
                continue;
            }
        }
        uint32_t guess = (uint32_t)mob;
        if (p->opts->guess == VOLPE_GUESS_ROOM && side == VOLPE_GEESE)
            guess = room_guess(p, g2, f2);
        f->pn[i] = child_or ? 1 : guess;
        f->dn[i] = child_or ? guess : 1;
    }
}

/* The node's numbers from its children; the best child (the least pn at an OR node, the
 * least dn at an AND node) into *best and the runner-up's number into *second. */
static void numbers(const frame *f, bool or, uint32_t *pn, uint32_t *dn, int *best,
                    uint32_t *second)
{
    uint64_t sum = 0;
    bool inf = false;
    uint32_t lo = INF, lo2 = INF;
    int b = 0;
    for (int i = 0; i < f->n; i++) {
        uint32_t mine = or ? f->pn[i] : f->dn[i], theirs = or ? f->dn[i] : f->pn[i];
        if (theirs == INF)
            inf = true;
        sum += theirs;
        if (mine < lo) {
            lo2 = lo;
            lo = mine;
            b = i;
        } else if (mine < lo2) {
            lo2 = mine;
        }
    }
    uint32_t total = inf ? INF : clamp(sum);
    if (lo == 0)
        total = INF; /* solved: the other number is infinite */
    *best = b;
    *second = lo2;
    if (or) {
        *pn = lo;
        *dn = total;
    } else {
        *pn = total;
        *dn = lo;
    }
}

/* A proof's rank from its children: 1 + the least rank of a won child (OR), 1 + the
 * greatest (AND). */
static int proof_rank(const frame *f, bool or)
{
    int r = or ? RANK_MAX : 0;
    for (int i = 0; i < f->n; i++) {
        if (f->pn[i] != 0)
            continue;
        r = or ? (f->rank[i] < r ? f->rank[i] : r) : (f->rank[i] > r ? f->rank[i] : r);
    }
    return r + 1 > RANK_MAX ? RANK_MAX : r + 1;
}

/* The shallowest path index a disproof of the node relies on: the least of its children's
 * (OR: every child is disproved) or the greatest of its disproved children's (AND: the
 * defender picks the one that relies least on the path). */
static int disproof_dep(const frame *f, bool or)
{
    int dep = or ? NODEP : -1;
    for (int i = 0; i < f->n; i++) {
        if (f->dn[i] != 0)
            continue;
        dep = or ? (f->dep[i] < dep ? f->dep[i] : dep) : (f->dep[i] > dep ? f->dep[i] : dep);
    }
    return dep;
}

/* Searches the node at path[d], (geese, fox, side), until its proof number reaches thpn or
 * its disproof number thdn (or it is solved, or the search is aborted); stores it and
 * returns its numbers, rank and, for a disproof, the path index it relies on (NODEP: none).
 * A disproof relying on no position above the node (a repetition of the node itself or of
 * one below it closes a set the defender never has to leave) holds whatever the path and
 * is stored; one that relies on an ancestor is not stored, and its parent carries it. */
static void mid(prover *p, int d, uint64_t geese, int fox, int side, uint32_t thpn,
                uint32_t thdn, uint32_t *opn, uint32_t *odn, int *orank, int *odep)
{
    uint64_t start = p->nodes++;
    if (d > p->res->max_depth)
        p->res->max_depth = d;
    p->res->last_depth = d;
    if (p->nodes % TICK == 0)
        tick(p, d);
    expand(p, d, geese, fox, side);
    frame *f = p->frames[d];
    bool or = side == p->attacker;
    uint32_t pn, dn, second;
    int best;
    for (;;) {
        numbers(f, or, &pn, &dn, &best, &second);
        if (d == 0) {
            p->res->root_pn = pn;
            p->res->root_dn = dn;
        }
        if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || p->abort)
            break;
        /* The child's thresholds, with the runner-up's number widened by a quarter (the
         * 1 + epsilon trick: fewer returns to switch between two close children). */
        uint64_t wide = (uint64_t)second + second / 4 + 1;
        uint32_t cpn, cdn;
        if (or) {
            cpn = clamp(wide < thpn ? wide : thpn);
            cdn = thdn == INF ? INF : clamp((uint64_t)thdn - dn + f->dn[best]);
        } else {
            cdn = clamp(wide < thdn ? wide : thdn);
            cpn = thpn == INF ? INF : clamp((uint64_t)thpn - pn + f->pn[best]);
        }
        if (thpn == INF && or && wide >= BIG)
            cpn = INF;
        if (thdn == INF && !or && wide >= BIG)
            cdn = INF;
        uint64_t key = volpe_pos_key(f->geese[best], f->fox[best], 1 - side);
        frame_at(p, d + 1);
        f = p->frames[d];
        p->path[d + 1] = key;
        p->rev[d + 1] = f->irrev[best] ? d + 1 : p->rev[d];
        uint32_t rpn, rdn;
        int rrank, rdep;
        mid(p, d + 1, f->geese[best], f->fox[best], 1 - side, cpn, cdn, &rpn, &rdn, &rrank,
            &rdep);
        f->pn[best] = rpn;
        f->dn[best] = rdn;
        f->rank[best] = (uint16_t)rrank;
        f->dep[best] = rdep;
    }
    int rank = pn == 0 ? proof_rank(f, or) : 0;
    int dep = dn == 0 ? disproof_dep(f, or) : NODEP;
    if (dep >= d) {
        dep = NODEP;
        tt_put(p, volpe_pos_key(geese, fox, side), pn, dn, p->nodes - start, rank);
    } else { /* kept for the paths through path[dep] */
        uint64_t k = p->path[dep];
        tt_put(p, volpe_pos_key(geese, fox, side), (uint32_t)k, 0, p->nodes - start,
               PATHDEP | (int)(k >> 32 & 0xff));
    }
    *opn = pn;
    *odn = dn;
    *orank = rank;
    *odep = dep;
}

/* Searches (geese, fox, side) from a fresh path until it is solved or the search aborts. */
static void search(prover *p, uint64_t geese, int fox, int side, uint32_t *pn, uint32_t *dn,
                   int *rank)
{
    frame_at(p, 1);
    p->path[0] = volpe_pos_key(geese, fox, side);
    p->rev[0] = 0;
    int dep;
    mid(p, 0, geese, fox, side, INF, INF, pn, dn, rank, &dep);
}

/* ---- the certificate -------------------------------------------------------------------- */

/* The numbers known of a child: a leaf, the table, or a new search. */
static standing child_state(prover *p, uint64_t geese, int fox, int side, int *rank)
{
    int mob;
    *rank = 0;
    standing s = standing_of(p, geese, fox, side, &mob);
    if (s != OPEN)
        return s;
    uint32_t pn, dn;
    if (!tt_solved(p, volpe_pos_key(geese, fox, side), &pn, &dn, rank))
        search(p, geese, fox, side, &pn, &dn, rank);
    return pn == 0 ? WON : dn == 0 ? NOT_WON : OPEN;
}

/* Adds to c a proof that the attacker wins from (geese, fox, side), an open position: the
 * won child of least rank where the attacker moves, every child where the defender does. */
static bool cert_proof(prover *p, uint64_t geese, int fox, int side, volpe_cert *c)
{
    uint64_t key = volpe_pos_key(geese, fox, side);
    if (volpe_cert_get(c, key, NULL))
        return true;
    int n = moves_of(p, geese, fox, side);
    int32_t *mv = xmalloc((size_t)(n ? n : 1) * sizeof *mv);
    memcpy(mv, p->scratch, (size_t)n * sizeof *mv);
    bool or = side == p->attacker, ok = true;
    int pick = -1, pick_rank = RANK_MAX + 1;
    for (int i = 0; i < n && ok; i++) {
        uint64_t g2;
        int f2, rank = 0, mob;
        bool irrev;
        after(geese, fox, side, mv[i], &g2, &f2, &irrev);
        standing s;
        if (or) { /* the table first: a search only if no won child is known */
            s = standing_of(p, g2, f2, 1 - side, &mob);
            uint32_t pn, dn;
            if (s == OPEN && tt_solved(p, volpe_pos_key(g2, f2, 1 - side), &pn, &dn, &rank) &&
                pn == 0)
                s = WON;
            if (s == WON && rank < pick_rank) {
                pick = i;
                pick_rank = rank;
            }
        } else if (child_state(p, g2, f2, 1 - side, &rank) != WON) {
            ok = false;
        }
    }
    for (int i = 0; i < n && or && pick < 0 && !p->abort; i++) {
        uint64_t g2;
        int f2, rank;
        bool irrev;
        after(geese, fox, side, mv[i], &g2, &f2, &irrev);
        if (child_state(p, g2, f2, 1 - side, &rank) == WON)
            pick = i;
    }
    if (or && pick < 0)
        ok = false;
    volpe_cert_put(c, key, or ? mv[ok ? pick : 0] : VOLPE_CERT_ALL);
    for (int i = 0; i < n && ok && !p->abort; i++) {
        if (or && i != pick)
            continue;
        uint64_t g2;
        int f2, mob;
        bool irrev;
        after(geese, fox, side, mv[i], &g2, &f2, &irrev);
        if (standing_of(p, g2, f2, 1 - side, &mob) == OPEN)
            ok = cert_proof(p, g2, f2, 1 - side, c);
    }
    free(mv);
    return ok && !p->abort;
}

/* Adds to c a disproof from (geese, fox, side), an open position: every child where the
 * attacker moves, one child not won where the defender does (a leaf, a position already in
 * c, a disproved one). */
static bool cert_disproof(prover *p, uint64_t geese, int fox, int side, volpe_cert *c)
{
    uint64_t key = volpe_pos_key(geese, fox, side);
    if (volpe_cert_get(c, key, NULL))
        return true;
    int n = moves_of(p, geese, fox, side);
    int32_t *mv = xmalloc((size_t)(n ? n : 1) * sizeof *mv);
    memcpy(mv, p->scratch, (size_t)n * sizeof *mv);
    bool or = side == p->attacker, ok = true;
    int pick = -1, pick_kind = 3;
    for (int i = 0; i < n && ok; i++) {
        uint64_t g2;
        int f2, mob, rank;
        bool irrev;
        after(geese, fox, side, mv[i], &g2, &f2, &irrev);
        standing s = standing_of(p, g2, f2, 1 - side, &mob);
        if (or) {
            if (s == WON)
                ok = false;
            continue;
        }
        /* the defender's pick: a leaf, else a position in c, else one disproved */
        int kind = s == NOT_WON ? 0
                   : s == OPEN && volpe_cert_get(c, volpe_pos_key(g2, f2, 1 - side), NULL)
                       ? 1
                       : 3;
        if (kind == 3 && s == OPEN) {
            uint32_t pn, dn;
            if (tt_solved(p, volpe_pos_key(g2, f2, 1 - side), &pn, &dn, &rank) && dn == 0)
                kind = 2;
        }
        if (kind < pick_kind) {
            pick = i;
            pick_kind = kind;
        }
    }
    for (int i = 0; i < n && ok && !or && pick < 0 && !p->abort; i++) {
        uint64_t g2;
        int f2, rank;
        bool irrev;
        after(geese, fox, side, mv[i], &g2, &f2, &irrev);
        if (child_state(p, g2, f2, 1 - side, &rank) == NOT_WON)
            pick = i;
    }
    if (!or && pick < 0)
        ok = false;
    volpe_cert_put(c, key, or ? VOLPE_CERT_ALL : mv[ok ? pick : 0]);
    for (int i = 0; i < n && ok && !p->abort; i++) {
        if (!or && i != pick)
            continue;
        uint64_t g2;
        int f2, rank, mob;
        bool irrev;
        after(geese, fox, side, mv[i], &g2, &f2, &irrev);
        standing s = standing_of(p, g2, f2, 1 - side, &mob);
        if (s != OPEN || volpe_cert_get(c, volpe_pos_key(g2, f2, 1 - side), NULL)) {
            ok = s != WON;
            continue;
        }
        if (child_state(p, g2, f2, 1 - side, &rank) != NOT_WON)
            ok = false;
        else
            ok = cert_disproof(p, g2, f2, 1 - side, c);
    }
    free(mv);
    return ok && !p->abort;
}

/* ---- the run ---------------------------------------------------------------------------- */

typedef struct prove_job {
    const volpe_rules *r;
    uint64_t geese;
    int fox, side;
    const volpe_prove_opts *opts;
    volpe_prove_result *res;
} prove_job;

static void *run(void *arg)
{
    prove_job *j = arg;
    volpe_prove_result *res = j->res;
    const volpe_prove_opts *opts = j->opts;
    prover p = {0};
    p.r = j->r;
    p.b = &j->r->board;
    p.opts = opts;
    p.res = res;
    p.attacker = opts->attacker;
    p.threshold = volpe_db_key_of(j->r).threshold;
    p.buckets = 1;
    while (p.buckets * 2 * BUCKET * sizeof(entry) <= opts->table_bytes)
        p.buckets *= 2;
    res->table_entries = p.buckets * BUCKET;
    p.tt = xcalloc(p.buckets * BUCKET, sizeof(entry));
    p.avail = xcalloc(VOLPE_PROFILES, 1);
    p.t0 = p.last = now();
    p.question = opts->attacker == VOLPE_GEESE ? "geese win?" : "fox win?";
    volpe_cert_init(&res->cert);
    int mob;
    standing s = standing_of(&p, j->geese, j->fox, j->side, &mob);
    bool proved = s == WON, disproved = s == NOT_WON;
    res->root_pn = s == WON ? 0 : s == NOT_WON ? INF : 1;
    res->root_dn = s == NOT_WON ? 0 : s == WON ? INF : 1;
    if (s == OPEN) {
        uint32_t pn, dn;
        int rank;
        search(&p, j->geese, j->fox, j->side, &pn, &dn, &rank);
        res->root_pn = pn;
        res->root_dn = dn;
        proved = pn == 0;
        disproved = dn == 0;
        res->searched_disproof = disproved;
        bool built = false;
        int depth = res->last_depth;
        p.abort = false; /* the certificate may search a little more, within the budget */
        if (proved)
            built = cert_proof(&p, j->geese, j->fox, j->side, &res->cert);
        else if (disproved)
            built = cert_disproof(&p, j->geese, j->fox, j->side, &res->cert);
        res->root_pn = pn;
        res->root_dn = dn;
        res->last_depth = depth;
        if ((proved || disproved) && !built) {
            snprintf(res->check_error, sizeof res->check_error, "certificate: %s",
                     p.abort ? "out of nodes while building it"
                             : "a position of it is no longer solved in the table");
            proved = disproved = false;
        }
    }
    if (proved || disproved) {
        bool ok = volpe_cert_check(j->r, opts->db, opts->attacker, proved, j->geese, j->fox,
                                   j->side, &res->cert, &res->check, res->check_error,
                                   sizeof res->check_error);
        if (!ok) {
            res->check_failed = true;
            proved = disproved = false;
        }
    }
    res->answer = proved ? VOLPE_PROVED : disproved ? VOLPE_DISPROVED : VOLPE_UNKNOWN;
    res->nodes = p.nodes;
    res->seconds = now() - p.t0;
    show(&p, true, res->last_depth);
    for (int i = 0; i < p.cap; i++) {
        frame *f = p.frames[i];
        free(f->geese);
        free(f->fox);
        free(f->irrev);
        free(f->pn);
        free(f->dn);
        free(f->rank);
        free(f->dep);
        free(f->moves);
        free(f);
    }
    free(p.frames);
    free(p.path);
    free(p.rev);
    free(p.scratch);
    free(p.tt);
    free(p.avail);
    return NULL;
}

void volpe_prove(const volpe_rules *r, uint64_t geese, int fox, int side,
                 const volpe_prove_opts *opts, volpe_prove_result *res)
{
    memset(res, 0, sizeof *res);
    prove_job j = {r, geese, fox, side, opts, res};
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, STACK_BYTES);
    if (pthread_create(&t, &attr, run, &j) != 0)
        xalloc_fail("the proof search's stack");
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
}
