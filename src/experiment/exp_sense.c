/* exp_sense.c — whether an experiment's block sums read from outside (a --shard file, another
 * MPI rank's message) could have been played: every slot's game count that of the block, its
 * sums within what its figure's games allow, its tallies' totals its own, and the baseline's
 * sums in a pairing the baseline's own. */
#include "experiment/experiment_priv.h"

#include "core/registry.h"

#include <stdarg.h>
#include <string.h>

/* What one game can add to a slot: its observations x and their count c with c >= 0 and
 * lo c <= x <= hi c (a share: 0..1; a rank: 1..N; a value: within +-PARTIAL_VALUE_LIMIT). */
typedef struct span {
    int64_t lo, hi;
} span;

#define WIDE PARTIAL_VALUE_LIMIT

/* The span of slot j of setting S (the slots' order is build_slots', exp_settings.c); lim
 * the limits of S's game under S's rules. */
static span slot_span(const setting *S, const game_type *g, const game_limits *lim, int j)
{
    const span share = {0, 1}, value = {-WIDE, WIDE};
    if (j == 0) /* a game's length: within the game's longest, if it declares one */
        return (span){0, lim->length > 0 && lim->length < WIDE ? lim->length : WIDE};
    if (j < 3 + S->nends)
        return share; /* ties, no winner, an end */
    if (j < S->ngame_slots)
        return g->metrics[S->gm[j - 3 - S->nends]].kind == METRIC_RATE ? share : value;
    int ngroups = S->nrot > 1 ? S->nbots : S->nseats;
    int i = j - S->ngame_slots;
    if (j >= S->type_slots) /* a type's group, as a seat's */
        i = (j - S->type_slots) % S->group;
    else if (i >= ngroups * S->group)
        return share; /* a seat's advantage: its win units */
    switch (i % S->group) {
    case 0:
        return share; /* win units of RUN_WIN_UNIT a play */
    case 1:
        return value; /* the score */
    case 2:
        return (span){1, S->nseats}; /* a rank, counted when ranked */
    default:
        return g->metrics[S->sm[i % S->group - 3]].kind == METRIC_RATE ? share : value;
    }
}

/* The metric of slot j of S, or -1 for a slot of no game metric (length, ends, wins, score,
 * rank, a seat's advantage); *many set when a game may add to it for several seats (a
 * type's slot, or a bot's over the seats it holds in a rotation). */
static int slot_metric(const setting *S, int j, bool *many)
{
    *many = false;
    if (j < 3 + S->nends)
        return -1;
    if (j < S->ngame_slots)
        return S->gm[j - 3 - S->nends];
    int ngroups = S->nrot > 1 ? S->nbots : S->nseats, i = j - S->ngame_slots;
    if (j >= S->type_slots)
        i = (j - S->type_slots) % S->group;
    else if (i >= ngroups * S->group)
        return -1;
    *many = j >= S->type_slots || S->nrot > 1;
    return i % S->group >= 3 ? S->sm[i % S->group - 3] : -1;
}

/* k a <= b exactly, for a >= 0: a product beyond 128 bits lies beyond b on its own side. */
static bool k_le(int64_t k, __int128 a, __int128 b)
{
    __int128 ka;
    if (__builtin_mul_overflow((__int128)k, a, &ka))
        return k < 0;
    return ka <= b;
}

/* b <= k a exactly, for a >= 0. */
static bool le_k(__int128 b, int64_t k, __int128 a)
{
    __int128 ka;
    if (__builtin_mul_overflow((__int128)k, a, &ka))
        return k > 0;
    return b <= ka;
}

/* The 256-bit product of a and b, as hi 2^128 + lo. */
static void mul256(unsigned __int128 a, unsigned __int128 b, unsigned __int128 *hi,
                   unsigned __int128 *lo)
{
    const unsigned __int128 m = UINT64_MAX;
    unsigned __int128 a0 = a & m, a1 = a >> 64, b0 = b & m, b1 = b >> 64;
    unsigned __int128 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    unsigned __int128 mid = (p00 >> 64) + (p01 & m) + (p10 & m);
    *lo = (p00 & m) | (mid << 64);
    *hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
}

/* s^2 <= p q exactly, for p, q >= 0 (Cauchy-Schwarz over the games). */
static bool sq_le(__int128 s, __int128 p, __int128 q)
{
    unsigned __int128 a = s < 0 ? -(unsigned __int128)s : (unsigned __int128)s;
    unsigned __int128 sh, sl, ph, pl;
    mul256(a, a, &sh, &sl);
    mul256((unsigned __int128)p, (unsigned __int128)q, &ph, &pl);
    return sh < ph || (sh == ph && sl <= pl);
}

/* Where a check failed: the first failure's text. */
typedef struct why {
    char *what;
    size_t n;
} why;

static bool __attribute__((format(printf, 2, 3))) no(why *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->what, w->n, fmt, ap);
    va_end(ap);
    return false;
}

/* One side's own sums (x, c, xx, xc, cc) over n games of a figure of span r: counts and
 * squares not negative, x and xc within the span times c and cc, and Cauchy-Schwarz between
 * them; for a bounded span, sum over the games of (x - lo c)(hi c - x) >= 0 too. */
static bool side_sense(why *w, const char *side, int64_t n, __int128 x, __int128 c, __int128 xx,
                       __int128 xc, __int128 cc, span r)
{
    if (c < 0 || cc < 0 || xx < 0)
        return no(w, "%sa negative count or sum of squares", side);
    if (!k_le(r.lo, c, x) || !le_k(x, r.hi, c))
        return no(w, "%sobservations that %s games cannot sum to", side, "its");
    if (!k_le(r.lo, cc, xc) || !le_k(xc, r.hi, cc))
        return no(w, "%sa sum of products that its counts do not allow", side);
    if (!sq_le(x, n, xx) || !sq_le(c, n, cc) || !sq_le(xc, xx, cc))
        return no(w, "%ssums of squares below what its sums need", side);
    __int128 t, u, v;
    if (r.lo > -WIDE && r.hi < WIDE &&
        !__builtin_mul_overflow((__int128)(r.lo + r.hi), xc, &t) &&
        !__builtin_mul_overflow((__int128)r.lo * r.hi, cc, &u) &&
        !__builtin_sub_overflow(t, xx, &v) && !__builtin_sub_overflow(v, u, &v) && v < 0)
        return no(w, "%sa sum of squares beyond what its observations allow", side);
    return true;
}

/* The cross sums of a paired slot p (own span r, the baseline's br): the counts' product not
 * negative, each mixed product within the spans, Cauchy-Schwarz with both sides' squares, and
 * for bounded spans the four products of the games' distances to their bounds >= 0. */
static bool cross_sense(why *w, const exp_pair *p, span r, span br)
{
    if (p->c_bc < 0 || !k_le(r.lo, p->c_bc, p->x_bc) || !le_k(p->x_bc, r.hi, p->c_bc) ||
        !k_le(br.lo, p->c_bc, p->c_bx) || !le_k(p->c_bx, br.hi, p->c_bc))
        return no(w, "cross sums with the baseline that the counts do not allow");
    if (!sq_le(p->x_bx, p->xx, p->bxx) || !sq_le(p->c_bc, p->cc, p->bcc) ||
        !sq_le(p->x_bc, p->xx, p->bcc) || !sq_le(p->c_bx, p->cc, p->bxx))
        return no(w, "cross sums with the baseline beyond what the sums of squares allow");
    if (r.lo <= -WIDE || r.hi >= WIDE || br.lo <= -WIDE || br.hi >= WIDE)
        return true;
    /* (x - a c)(bx - a' bc) summed: x_bx - a' x_bc - a c_bx + a a' c_bc, for each bound */
    const int64_t a[2] = {r.lo, r.hi}, b[2] = {br.lo, br.hi};
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++) {
            __int128 t1, t2, t3, v;
            if (__builtin_mul_overflow((__int128)b[k], p->x_bc, &t1) ||
                __builtin_mul_overflow((__int128)a[i], p->c_bx, &t2) ||
                __builtin_mul_overflow((__int128)a[i] * b[k], p->c_bc, &t3) ||
                __builtin_sub_overflow(p->x_bx, t1, &v) || __builtin_sub_overflow(v, t2, &v) ||
                __builtin_add_overflow(v, t3, &v))
                continue;
            /* the sign the product of the distances has: + for lo·lo and hi·hi */
            if ((i == k && v < 0) || (i != k && v > 0))
                return no(w, "cross sums with the baseline that no games give");
        }
    return true;
}

/* The totals the tallies of a setting that is not rotated hold for slot j, compared with the
 * completed sums p: x (and where a game adds one observation, xx; where c varies, c). */
static bool tally_sense(why *w, const setting *S, int j, const exp_pair *p, const run_result *res)
{
    __int128 x, xx = -1, c = -1;
    const recorder *rec = res->rec;
    int i = j - S->ngame_slots;
    if (j == 0)
        x = res->length.sum, xx = res->length.sumsq;
    else if (j == 1)
        x = xx = res->tied_games;
    else if (j == 2)
        x = xx = res->no_winner;
    else if (j < 3 + S->nends)
        x = xx = res->end_count[j - 3];
    else if (j >= S->type_slots) { /* a type's: its figures by type (no per-game squares) */
        int t = (j - S->type_slots) / S->group, q = (j - S->type_slots) % S->group;
        int m = q >= 3 ? S->sm[q - 3] : rec->nmetrics + (q == 0 ? REC_TYPE_WIN
                                                         : q == 1 ? REC_TYPE_SCORE
                                                                  : REC_TYPE_RANK);
        if (rec->ntypes != S->ntypes || rec->ta == NULL)
            return no(w, "figures by type that the setting's tallies lack");
        const acc *a = rec_type_get(rec, m, t);
        x = a->sum + a->hits;
        c = a->n;
    } else if (j < S->ngame_slots || i % S->group >= 3) {
        int m = j < S->ngame_slots ? S->gm[j - 3 - S->nends] : S->sm[i % S->group - 3];
        const acc *a = &rec->a[m * REC_SLOTS + REC_SLOT(j < S->ngame_slots ? -1 : i / S->group)];
        x = a->sum + a->hits; /* a rate has no sum, a mean no hits */
        c = a->n;
    } else {
        int k = i / S->group;
        if (i % S->group == 0)
            x = res->win_units[k];
        else if (i % S->group == 1)
            x = res->score[k].sum, xx = res->score[k].sumsq;
        else
            x = res->rank[k].sum, xx = res->rank[k].sumsq, c = res->rank[k].n;
    }
    if (p->x != x || (xx >= 0 && p->xx != xx) || (c >= 0 && p->c != c))
        return no(w, "sums that are not those of the setting's own tallies");
    return true;
}

/* The observations or trials c (summed over the block's n games, cc their squares) of slot j
 * of S, a metric slot, within what n games of total length `length` can add (game_limits):
 * at most one, or one per player, a game and slot, or for a repeated metric once + per_unit
 * * length a game; times the seats a slot may gather and the rotations a game is played in. */
static bool count_sense(why *w, const setting *S, const game_type *g, const game_limits *lim,
                        int j, const exp_pair *p, __int128 length)
{
    bool many;
    int m = slot_metric(S, j, &many);
    if (m < 0)
        return true;
    int count = registry_metric_count(lim, g->metrics[m].name);
    /* a game of a rotation is played once in each rotation of the seats */
    int64_t each = (many ? S->nseats : 1) * (S->nrot > 1 ? S->nrot : 1);
    if (count == GAME_COUNT_REPEATED) {
        game_bound b = lim->repeats;
        __int128 t, u, v;
        if ((b.once > 0 || b.per_unit > 0) && length >= 0 &&
            !__builtin_mul_overflow((__int128)b.once * each, (__int128)p->n, &t) &&
            !__builtin_mul_overflow((__int128)b.per_unit * each, length, &u) &&
            !__builtin_add_overflow(t, u, &v) && p->c > v)
            return no(w, "more observations than %lld games can add", (long long)p->n);
        return true;
    }
    int64_t most = count == GAME_COUNT_PER_PLAYER ? each * S->nseats : each;
    /* each game's count within 0..most: their sum at most most n, their squares most c */
    if (!le_k(p->c, most, p->n))
        return no(w, "more observations than %lld games can add", (long long)p->n);
    if (!le_k(p->cc, most, p->c))
        return no(w, "squares of counts that %lld games cannot have", (long long)p->n);
    return true;
}

void exp_slot_name(const setting *S, int j, char *buf, size_t n)
{
    const slotdef *d = &S->slot[j];
    if (d->type[0])
        snprintf(buf, n, "%s@%s", d->name, d->type);
    else if (d->seat || d->bot)
        snprintf(buf, n, "%s@%d", d->name, d->seat ? d->seat : d->bot);
    else
        snprintf(buf, n, "%s", d->name);
}

int exp_block_sense(const engine *e, exp_pair *const *sums, const run_result *const *res,
                    uint64_t games, uint64_t cap, char *err, size_t errlen)
{
    char what[200] = "";
    why w = {what, sizeof what};
    int bad_s = -1, bad_j = -1;
    for (int s = 0; s < e->nset && bad_s < 0; s++) {
        const setting *S = &e->set[s], *B = &e->set[e->base];
        if (sums[s] == NULL)
            continue;
        game_limits lim = registry_limits(e->g, S->rules, S->nseats),
                    blim = registry_limits(e->g, B->rules, B->nseats);
        __int128 length = -1; /* the block's games' total length (slot 0's sum), once read */
        if (games == UINT64_MAX) /* any count of games, the same for every setting */
            games = (uint64_t)sums[s][0].n;
        for (int j = 0; j < S->nslots && bad_s < 0; j++) {
            exp_pair p = sums[s][j];
            bool ok = true;
            if ((uint64_t)p.n != games || games > cap)
                ok = no(&w, "%lld games where the block holds %llu", (long long)p.n,
                        (unsigned long long)(games > cap ? cap : games));
            else if (!exp_engine_completes(e, s, j, &p))
                ok = no(&w, "sums too large for their counts (beyond 128 bits)");
            if (!ok) {
                bad_s = s, bad_j = j;
                break;
            }
            exp_engine_complete(e, s, j, &p);
            int b = S->pair[j];
            span r = slot_span(S, e->g, &lim, j);
            ok = ok && side_sense(&w, "", p.n, p.x, p.c, p.xx, p.xc, p.cc, r);
            if (ok && j == 0)
                length = p.x;
            ok = ok && count_sense(&w, S, e->g, &lim, j, &p, length);
            if (ok && s != e->base && b < 0 &&
                (p.bx | p.bc | p.bxx | p.bxc | p.bcc | p.x_bx | p.x_bc | p.c_bx | p.c_bc) != 0)
                ok = no(&w, "sums of a baseline that has no such figure");
            if (ok && s != e->base && b >= 0) {
                span br = slot_span(B, e->g, &blim, b);
                ok = side_sense(&w, "the baseline's side: ", p.n, p.bx, p.bc, p.bxx, p.bxc,
                                p.bcc, br) &&
                     cross_sense(&w, &p, r, br);
                if (ok && sums[e->base] != NULL) { /* the baseline's own sums of the games */
                    exp_pair q = sums[e->base][b];
                    bool fits = exp_engine_completes(e, e->base, b, &q);
                    if (fits)
                        exp_engine_complete(e, e->base, b, &q);
                    if (!fits || p.bx != q.x || p.bc != q.c || p.bxx != q.xx || p.bxc != q.xc ||
                        p.bcc != q.cc)
                        ok = no(&w, "baseline sums that are not the baseline's own");
                }
            }
            if (ok && res && res[s] && res[s]->games != games)
                ok = no(&w, "tallies of %llu games where the block holds %llu",
                        (unsigned long long)res[s]->games, (unsigned long long)games);
            if (ok && res && res[s])
                ok = tally_sense(&w, S, j, &p, res[s]);
            if (!ok)
                bad_s = s, bad_j = j;
        }
    }
    if (bad_s < 0)
        return 0;
    char fig[96];
    exp_slot_name(&e->set[bad_s], bad_j, fig, sizeof fig);
    snprintf(err, errlen, "setting %s, %s: %s", e->set[bad_s].label, fig, what);
    return -1;
}
