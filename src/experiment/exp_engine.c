/* exp_engine.c — plays the settings of an experiment in step on the worker pool: each chunk
 * of game indices under the baseline first, then under each other setting (each rotation);
 * adds each game's figures to exact per-slot paired sums (exp_play.c drives it block by
 * block). A worker's memory does not grow with the number of settings (see worker). */
#include "experiment/experiment_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "core/hot.h"

/* A worker claims at most CHUNK games at once (see pair64), and at least MIN_CHUNK: each
 * setting but the baseline starts and ends a part of its own in every chunk (mate_begin,
 * mate_end), a cost of about two games of the oca. */
enum { MIN_CHUNK = 32, CHUNK = 256, CHUNKS_PER_THREAD = 8 };

/* The game loop adds into 64-bit partial sums, flushed into the exact 128-bit ones of
 * exp_pair after each chunk of at most CHUNK games (flush_chunk): while every figure is below
 * SMALL in magnitude (so every difference below 2 SMALL), a chunk's sums of products stay far
 * below 2^63. A game with a larger figure goes into exact chunk sums (wset.big) of the same
 * meaning instead.
 *
 * The loop adds only what varies from game to game, once:
 * - the game count is the same for every slot of a setting: counted once (wset.games);
 * - a slot whose count c is the same in every game (a game's length, a win share, a score)
 *   keeps x and xx but not c, xc and cc, which exp_pair_complete derives from the constant;
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

typedef struct wset {    /* one worker's part of the setting it plays */
    run_result res;      /* the baseline's tallies (not rotated, counting) */
    run_result *tally;   /* where the tallies go: &res, the setting's block tallies (the mate
                            part), or NULL: none kept */
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
    int nseats;          /* the seats scratch was made for */
} wset;

/* A setting's bots in one worker: [rotation][seat]. */
typedef void *bot_ctx[GAME_MAX_SEATS][GAME_MAX_SEATS];

/* One worker. Its memory but for the bots does not grow with the number of settings: it plays
 * a chunk under the baseline first, keeping the baseline's figures of every game of the chunk
 * (bx, bc, bend), then under each other setting in turn in one reused part (mate), whose sums
 * go into the setting's block sums when the chunk is done. */
struct worker {
    engine *e;
    wset base;          /* the baseline's part, for the whole block */
    wset mate;          /* the part of the other setting being played */
    bot_ctx *ctx;       /* per setting */
    int64_t *bx, *bc;   /* the baseline's figure per slot of each game of the chunk */
    int *bend;          /* and its end slot (wset.end) */
    void *st, *view;    /* the view in an allocation of its own */
};
typedef struct worker worker;

/* Ends the run: slot j of S, said to count the same every game, counted c in game i (a bug). */
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
static GIOCHI_INLINE void add_own(const sink *k, int j, int64_t x, int64_t c, bool constant)
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
static GIOCHI_INLINE void add_diff(const sink *k, int j, int64_t x, int64_t c, int64_t bx,
                                   int64_t bc, bool constant)
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
static GIOCHI_INLINE void pair_slot(const setting *S, wset *W, const wset *B, int j, int64_t x,
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
 * slot for slot (setting.aligned). constant: the slot's count is constant (slotdef.cconst,
 * given as c), and a game with x = 0 adds nothing unless the baseline's count varies
 * (SLOT_FULL). Always called with a literal mode and constant, so each call folds to its
 * one case. */
static GIOCHI_INLINE void put(const setting *S, const sink *k, int mode, int j, int64_t x,
                              int64_t c, bool constant)
{
    if (mode == FILL_ADD) {
        k->x[j] += x, k->c[j] += c;
    } else if (mode == FILL_BASE) {
        k->x[j] = x, k->c[j] = c;
        add_own(k, j, x, constant ? 0 : c, constant);
    } else if (mode == FILL_ALIGNED) {
        if (constant)
            add_diff(k, j, x, 0, k->bx[j], 0, true);
        else
            add_diff(k, j, x, c, k->bx[j], k->bc[j], false);
    } else {
        const slot_op *op = &S->op[j];
        if (constant && op->kind == SLOT_CONST)
            add_diff(k, j, x, 0, k->bx[op->b], 0, true);
        else if (op->kind == SLOT_FULL) /* a constant count too, where the baseline's varies */
            add_diff(k, j, x, c, k->bx[op->b], k->bc[op->b], false);
        else
            add_own(k, j, x, constant ? 0 : c, constant);
    }
}

/* Hands every slot's figure of one play (rotation r) of setting S to W (see put): the
 * outcome o, and what the play recorded into rec (whose totals after the last play are in
 * prev_x and prev_c). The slots' order is build_slots'. */
static GIOCHI_INLINE void fill(const setting *S, wset *W, const wset *B, int mode, int r,
                               const outcome *o, const recorder *rec, uint64_t *prev_x,
                               int64_t *prev_c)
{
    int j = 0, nwin = 0;
    int64_t x, c;
    sink sk = sink_of(W, B);
    for (uint32_t w = o->winners; w; w &= w - 1)
        nwin++;
    put(S, &sk, mode, j++, o->length, 1, true);
    put(S, &sk, mode, j++, nwin > 1, 1, true);
    put(S, &sk, mode, j++, nwin == 0, 1, true);
    /* one end slot holds 1, the others 0: the baseline keeps its end (W->end, to clear it
     * next game); a partner's end slots other than its own and the baseline's are 0 under
     * both and add nothing. End slots pair with the baseline's end slots of the same index,
     * whose counts are constant too (SLOT_CONST). */
    if (mode == FILL_ADD) {
        for (int e = 0; e < S->nends; e++)
            put(S, &sk, mode, j + e, o->end == e, 1, true);
    } else {
        int end = o->end >= 0 && o->end < S->nends ? o->end : -1;
        if (mode == FILL_BASE) {
            if (W->end >= 0)
                sk.x[j + W->end] = 0;
            W->end = end;
        } else if (B->end >= 0 && B->end != end) {
            put(S, &sk, mode, j + B->end, 0, 1, true);
        }
        if (end >= 0)
            put(S, &sk, mode, j + end, 1, 1, true);
    }
    j += S->nends;
    for (int q = 0; q < S->ngm; q++) {
        play_figure(rec, S->gm[q] * REC_SLOTS + REC_SLOT(-1), prev_x, prev_c, &x, &c);
        put(S, &sk, mode, j++, x, c, false);
    }
    /* a run with populations: each seat's figures also go to its type's group, summed over
     * the seats of that type in the game (their count varies from game to game) */
    int ntypes = rec->ntypes > 0 ? S->ntypes : 0;
    int64_t tx[RUN_MAX_TYPES * EXP_TYPE_GROUP_MAX], tc[RUN_MAX_TYPES * EXP_TYPE_GROUP_MAX];
    if (GIOCHI_UNLIKELY(ntypes > 0)) {
        memset(tx, 0, (size_t)(ntypes * S->group) * sizeof *tx);
        memset(tc, 0, (size_t)(ntypes * S->group) * sizeof *tc);
    }
    for (int k = 0; k < S->nseats; k++) {
        int grp = S->nrot > 1 ? S->botid[(k + r) % S->nseats] : k;
        j = S->ngame_slots + grp * S->group;
        int64_t units = (o->winners & (1u << k)) ? RUN_WIN_UNIT / nwin : 0;
        put(S, &sk, mode, j++, units, RUN_WIN_UNIT, true);
        put(S, &sk, mode, j++, o->score[k], 1, true);
        put(S, &sk, mode, j++, o->rank[k], o->rank[k] > 0, false);
        int64_t *px = NULL, *pc = NULL;
        if (GIOCHI_UNLIKELY(ntypes > 0)) {
            int t = rec->seat_type[k];
            px = tx + t * S->group, pc = tc + t * S->group;
            px[0] += units, pc[0] += RUN_WIN_UNIT;
            px[1] += o->score[k], pc[1] += 1;
            px[2] += o->rank[k], pc[2] += o->rank[k] > 0;
            px += 3, pc += 3;
        }
        for (const int *m = S->sm, *end = m + S->nsm; m < end; m++) {
            play_figure(rec, *m * REC_SLOTS + REC_SLOT(k), prev_x, prev_c, &x, &c);
            put(S, &sk, mode, j++, x, c, false);
            if (px)
                *px++ += x, *pc++ += c;
        }
        if (S->nrot > 1)
            put(S, &sk, mode, S->ngame_slots + S->nbots * S->group + k, units,
                      RUN_WIN_UNIT, true);
    }
    for (int q = 0; q < ntypes * S->group; q++)
        put(S, &sk, mode, S->type_slots + q, tx[q], tc[q], false);
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
        /* x = bx + dx, c = bc + dc (exp_pair_complete redoes the counts of a SLOT_CONST) */
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

/* Plays game i of setting s (each rotation) and adds it to W's chunk sums, paired with the
 * baseline's figures of the game in B (B is W for the baseline itself). */
static void play_setting(engine *e, worker *w, int s, wset *W, const wset *B, uint64_t i)
{
    setting *S = &e->set[s];
    void *(*ctx)[GAME_MAX_SEATS] = w->ctx[s];
    bool tally = W->tally != NULL;
    recorder *rec = tally ? W->tally->rec : W->scratch;
    uint64_t *prev_x = W->prev_x[!tally];
    int64_t *prev_c = W->prev_c[!tally];
    outcome o;
    if (S->nrot == 1) {
        if (tally) /* choices by kind count as in a plain run */
            run_game_counted(&S->cfg[0], ctx[0], i, w->st, w->view, &o, rec, W->tally);
        else
            run_game(&S->cfg[0], ctx[0], i, w->st, w->view, &o, rec, NULL);
        if (tally)
            run_tally(W->tally, &S->cfg[0], &o);
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
        run_game(&S->cfg[r], ctx[r], i, w->st, w->view, &o, rec, NULL);
        fill(S, W, B, FILL_ADD, r, &o, rec, prev_x, prev_c);
    }
    pair_game(S, W, B, i);
}

/* Gets the mate part of w ready for setting S, whose lock it takes: its sums go straight into
 * S's block sums (bsum, and bres when it keeps tallies), exact integer sums that are the same
 * in any order; the scratch recorder is remade if S has other seats. */
static void mate_begin(worker *w, setting *S, bool tally)
{
    wset *W = &w->mate;
    size_t nacc = (size_t)W->scratch->nmetrics * REC_SLOTS;
    pthread_mutex_lock(&S->lock);
    W->acc = S->bsum;
    W->tally = tally ? &S->bres : NULL;
    if (tally) { /* the recorder's totals so far (see play_figure) */
        const acc *A = S->bres.rec->a;
        for (size_t a = 0; a < nacc; a++) {
            W->prev_x[0][a] = (uint64_t)A[a].sum + (uint64_t)A[a].hits;
            W->prev_c[0][a] = A[a].n;
        }
    }
    if (W->nseats != S->nseats) {
        rec_free(W->scratch);
        W->scratch = rec_new(w->e->g, S->nseats, false);
        rec_set_spill(W->scratch, &W->drop);
        W->nseats = S->nseats;
        memset(W->prev_x[1], 0, nacc * sizeof *W->prev_x[1]);
        memset(W->prev_c[1], 0, nacc * sizeof *W->prev_c[1]);
    }
    if (S->nrot == 1) /* this setting's seats (a sweep of players moves them) */
        run_map_types(W->scratch, &S->cfg[0]);
    else
        W->scratch->ntypes = 0; /* a rotation's figures are by bot */
    W->end = -1;
}

/* Ends the mate part's chunk of setting s: its chunk sums into the block sums, and S's lock
 * released. */
static void mate_end(engine *e, worker *w, int s)
{
    setting *S = &e->set[s];
    wset *W = &w->mate;
    W->drop.n = 0;
    flush_chunk(S, W, e->counting[s]);
    W->acc = NULL;
    W->tally = NULL;
    pthread_mutex_unlock(&S->lock);
}

/* Plays the games [from, to) of a chunk under every setting the block plays. The baseline
 * first, game by game, keeping its figures of each game, with which the others pair. It is
 * played whenever another setting is, and keeps its own sums even when it has stopped
 * counting: they are its partners' sums of the baseline alone (hand_baseline). Then each
 * other setting over the whole chunk, in the mate part. */
static void play_chunk(engine *e, worker *w, uint64_t from, uint64_t to)
{
    wset *B = &w->base;
    const setting *SB = &e->set[e->base];
    size_t nb = (size_t)SB->nslots;
    B->tally = e->counting[e->base] && SB->nrot == 1 ? &B->res : NULL;
    for (uint64_t i = from; i < to; i++) {
        play_setting(e, w, e->base, B, B, i);
        memcpy(w->bx + (i - from) * nb, B->x, nb * sizeof *B->x);
        memcpy(w->bc + (i - from) * nb, B->c, nb * sizeof *B->c);
        w->bend[i - from] = B->end;
    }
    /* each worker starts at a setting of its own, so that two rarely wait for one lock */
    int first = (int)((int64_t)(w - e->w) * e->nset / (e->nworkers > 0 ? e->nworkers : 1));
    for (int n = 0; n < e->nset; n++) {
        int s = (first + n) % e->nset;
        if (s == e->base || !e->played[s])
            continue;
        setting *S = &e->set[s];
        mate_begin(w, S, e->counting[s] && S->nrot == 1);
        wset game = *B; /* the baseline as it was after game i */
        for (uint64_t i = from; i < to; i++) {
            game.x = w->bx + (i - from) * nb;
            game.c = w->bc + (i - from) * nb;
            game.end = w->bend[i - from];
            play_setting(e, w, s, &w->mate, &game, i);
        }
        if (e->counting[s])
            hand_baseline(S, &w->mate, B);
        mate_end(e, w, s);
    }
}

/* A worker thread: takes chunks of the block until none is left; after each one, the other
 * settings' sums are in their block sums (mate_end), and the baseline's move into its totals
 * in the worker (and its spilled histogram cells into the block's). */
static void work(void *arg, int t)
{
    worker *w = (worker *)arg + t;
    engine *e = w->e;
    uint64_t k, from, to;
    while (pool_take(&e->pool, &k, &from, &to)) {
        play_chunk(e, w, from, to);
        atomic_fetch_add(&e->prog.plays, (to - from) * e->plays_per_game);
        if (w == &e->w[0])
            exp_progress_show(&e->prog);
        int b = e->base;
        wset *B = &w->base;
        B->drop.n = 0;
        flush_chunk(&e->set[b], B, e->counting[b]);
        if (e->counting[b] && B->spill.n > 0) {
            pthread_mutex_lock(&e->lock);
            run_result_unspill(&e->set[b].bres, &B->res, &B->spill);
            pthread_mutex_unlock(&e->lock);
        }
    }
}

/* Plays games [from, to) of every setting that needs them, on the worker threads (worker 0 on
 * the calling thread, which shows the progress). */
static void play_games(engine *e, uint64_t from, uint64_t to)
{
    pool_init(&e->pool, from, to, e->nworkers, MIN_CHUNK, CHUNK, CHUNKS_PER_THREAD);
    e->plays_per_game = 0;
    for (int s = 0; s < e->nset; s++)
        e->plays_per_game += e->played[s] ? (uint64_t)e->set[s].nrot : 0;
    pool_start(&e->pool, 1, work, e->w);
    work(e->w, 0);
    pool_join(&e->pool);
}

void exp_engine_complete(const engine *e, int s, int j, exp_pair *p)
{
    const setting *S = &e->set[s], *B = &e->set[e->base];
    int b = S->pair[j];
    int64_t ca = S->slot[j].cconst, cb = b >= 0 ? B->slot[b].cconst : 0;
    if (s == e->base)
        exp_pair_complete(p, ca, 0, true);
    else if (b < 0)
        exp_pair_complete(p, ca, 0, false);
    else if (ca && cb)
        exp_pair_complete(p, ca, cb, false);
    /* else: the game loop and hand_baseline kept every sum */
}

bool exp_engine_completes(const engine *e, int s, int j, const exp_pair *p)
{
    const setting *S = &e->set[s], *B = &e->set[e->base];
    int b = S->pair[j];
    int64_t ca = S->slot[j].cconst, cb = b >= 0 ? B->slot[b].cconst : 0;
    __int128 t;
    /* the counts' own products (c n, c c n) are below 2^31 2^31 2^63; these are the sums' */
    if (ca && __builtin_mul_overflow((__int128)ca, p->x, &t))
        return false;
    if (s != e->base && b >= 0 && ca && cb &&
        (__builtin_mul_overflow((__int128)cb, p->bx, &t) ||
         __builtin_mul_overflow((__int128)cb, p->x, &t) ||
         __builtin_mul_overflow((__int128)ca, p->bx, &t)))
        return false;
    return true;
}

void exp_engine_total(engine *e, int s)
{
    setting *S = &e->set[s];
    memcpy(S->acc, S->sum, (size_t)S->nslots * sizeof *S->acc);
    for (int j = 0; j < S->nslots; j++)
        exp_engine_complete(e, s, j, &S->acc[j]);
}

/* Frees what part W owns. */
static void wset_free(wset *W)
{
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

void exp_engine_free(engine *e)
{
    for (int t = 0; t < e->nworkers; t++) {
        worker *w = &e->w[t];
        for (int s = 0; s < e->nset && w->ctx; s++)
            for (int r = 0; r < e->set[s].nrot; r++)
                run_bots_free(&e->set[s].cfg[r], w->ctx[s][r]);
        free(w->ctx);
        wset_free(&w->base);
        wset_free(&w->mate);
        free(w->bx);
        free(w->bc);
        free(w->bend);
        free(w->st);
        free(w->view);
    }
    free(e->w);
    free(e->played);
    free(e->counting);
    pthread_mutex_destroy(&e->lock);
    for (int s = 0; s < e->nset; s++)
        pthread_mutex_destroy(&e->set[s].lock);
}

/* Moves what the workers summed of the baseline in the block just played into its block sums
 * when it counts, and clears the workers' (their memory does not outgrow one block); the other
 * settings' went there at the end of every chunk (mate_end). */
static void collect_block(engine *e)
{
    int s = e->base;
    if (e->counting[s]) {
        setting *S = &e->set[s];
        for (int t = 0; t < e->nworkers; t++) {
            wset *W = &e->w[t].base;
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

void exp_play_block(engine *e, uint64_t from, uint64_t to)
{
    play_games(e, from, to);
    collect_block(e);
}

/* Allocates part W for settings of at most nslots slots, with a scratch recorder for S's
 * seats; and, when keep_res (the baseline's part, kept for the whole block), its own sums and
 * S's tallies. */
static void wset_alloc(wset *W, const game_type *g, const setting *S, int nslots, bool keep_res)
{
    if (keep_res) {
        run_result_init(&W->res, &S->cfg[0], false);
        run_result_spill(&W->res, &W->spill);
    }
    W->scratch = rec_new(g, S->nseats, false);
    rec_set_spill(W->scratch, &W->drop);
    if (S->nrot == 1) /* a rotation's figures are by bot: no types */
        run_map_types(W->scratch, &S->cfg[0]);
    W->nseats = S->nseats;
    for (int k = 0; k < 2; k++) {
        size_t nacc = (size_t)W->scratch->nmetrics * REC_SLOTS;
        W->prev_x[k] = xcalloc(nacc, sizeof *W->prev_x[k]);
        W->prev_c[k] = xcalloc(nacc, sizeof *W->prev_c[k]);
    }
    W->acc = keep_res ? xcalloc((size_t)nslots, sizeof *W->acc) : NULL;
    W->part = xcalloc((size_t)nslots, sizeof *W->part);
    W->big = xcalloc((size_t)nslots, sizeof *W->big);
    W->x = xcalloc((size_t)nslots, sizeof *W->x);
    W->c = xcalloc((size_t)nslots, sizeof *W->c);
    W->end = -1;
}

int exp_engine_setup(engine *e, char *err, size_t errlen)
{
    const game_type *g = e->g;
    e->w = xcalloc((size_t)e->nworkers, sizeof *e->w);
    e->played = xcalloc((size_t)e->nset, sizeof *e->played);
    e->counting = xcalloc((size_t)e->nset, sizeof *e->counting);
    pthread_mutex_init(&e->lock, NULL);
    for (int s = 0; s < e->nset; s++) {
        setting *S = &e->set[s];
        pthread_mutex_init(&S->lock, NULL);
        S->sum = xcalloc((size_t)S->nslots, sizeof *S->sum);
        S->bsum = xcalloc((size_t)S->nslots, sizeof *S->bsum);
        if (S->nrot == 1) {
            run_result_init(&S->res, &S->cfg[0], false);
            run_result_init(&S->bres, &S->cfg[0], false);
        }
    }
    int maxslots = 1;
    for (int s = 0; s < e->nset; s++)
        if (e->set[s].nslots > maxslots)
            maxslots = e->set[s].nslots;
    const setting *SB = &e->set[e->base];
    for (int t = 0; t < e->nworkers; t++) {
        worker *w = &e->w[t];
        w->e = e;
        w->st = xcalloc(1, g->state_size);
        w->view = xcalloc(1, g->view_size ? g->view_size : 1);
        wset_alloc(&w->base, g, SB, SB->nslots, true);
        wset_alloc(&w->mate, g, SB, maxslots, false);
        w->bx = xcalloc((size_t)CHUNK * (size_t)SB->nslots, sizeof *w->bx);
        w->bc = xcalloc((size_t)CHUNK * (size_t)SB->nslots, sizeof *w->bc);
        w->bend = xcalloc(CHUNK, sizeof *w->bend);
        w->ctx = xcalloc((size_t)e->nset, sizeof *w->ctx);
        for (int s = 0; s < e->nset; s++) {
            setting *S = &e->set[s];
            for (int r = 0; r < S->nrot; r++)
                if (run_bots_setup(&S->cfg[r], w->ctx[s][r], err, errlen) != 0) {
                    exp_engine_free(e);
                    return 4;
                }
        }
    }
    return 0;
}
