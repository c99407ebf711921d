/* exp_blocks.c — an experiment's block sums as bytes: each counting setting's paired sums per
 * slot and its tallies, written for other processes (MPI messages, --shard files), added up in
 * process order, and read back by --merge; exp_block gets a block's sums whichever way the run
 * is split. */
#include "experiment/experiment_priv.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* Clears the block sums of every setting. */
static void block_clear(engine *e)
{
    for (int s = 0; s < e->nset; s++) {
        setting *S = &e->set[s];
        memset(S->bsum, 0, (size_t)S->nslots * sizeof *S->bsum);
        if (S->nrot == 1) {
            run_result_free(&S->bres);
            run_result_init(&S->bres, &S->cfg[0], false);
        }
    }
}

/* Appends (put_pair) or reads (get_pair) every sum of p. */
static void put_pair(pbuf *b, const exp_pair *p)
{
    partial_put_u64(b, (uint64_t)p->n);
    const __int128 *f[] = {&p->x,   &p->c,   &p->xx,   &p->xc,   &p->cc,
                           &p->bx,  &p->bc,  &p->bxx,  &p->bxc,  &p->bcc,
                           &p->x_bx, &p->x_bc, &p->c_bx, &p->c_bc};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        partial_put_i128(b, *f[i]);
}

static void get_pair(preader *r, exp_pair *p)
{
    p->n = (int64_t)partial_get_u64(r);
    __int128 *f[] = {&p->x,   &p->c,   &p->xx,   &p->xc,   &p->cc,
                     &p->bx,  &p->bc,  &p->bxx,  &p->bxc,  &p->bcc,
                     &p->x_bx, &p->x_bc, &p->c_bx, &p->c_bc};
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        *f[i] = partial_get_i128(r);
}

/* Appends the block sums of every setting: a flag (1: counted in this block), then the sums of
 * each slot and (not rotated) the tallies. */
static void put_block(const engine *e, pbuf *b)
{
    for (int s = 0; s < e->nset; s++) {
        const setting *S = &e->set[s];
        partial_put_u64(b, e->counting[s]);
        if (!e->counting[s])
            continue;
        for (int j = 0; j < S->nslots; j++)
            put_pair(b, &S->bsum[j]);
        if (S->nrot == 1)
            partial_put_result(b, &S->cfg[0], &S->bres);
    }
}

/* Adds block sums written by put_block into those of every counting setting (a setting the
 * bytes hold but that no longer counts is skipped: a merge of shards, which play on), once
 * exp_block_sense has found that they could have been played: `games` games a setting (or
 * UINT64_MAX: any, the same for every setting) of a block of `cap`. Returns 0, or -1 with a
 * message ("partial result does not make sense: WHERE setting LABEL, FIGURE: what", where
 * names the block). */
static int add_block(engine *e, preader *r, uint64_t games, uint64_t cap, const char *where,
                     char *err, size_t errlen)
{
    static const char nonsense[] = "partial result does not make sense: ";
    exp_pair **sums = xcalloc((size_t)e->nset, sizeof *sums);
    run_result *res = xcalloc((size_t)e->nset, sizeof *res);
    const run_result **tally = xcalloc((size_t)e->nset, sizeof *tally);
    int rc = 0;
    for (int s = 0; s < e->nset && !r->bad && rc == 0; s++) {
        setting *S = &e->set[s];
        uint64_t flag = partial_get_u64(r);
        if (r->bad)
            break;
        if (flag > 1 || (flag == 0 && e->counting[s])) {
            snprintf(err, errlen, "the block sums do not hold the settings this experiment plays");
            rc = -1;
            break;
        }
        if (flag == 0)
            continue;
        sums[s] = xcalloc((size_t)S->nslots, sizeof *sums[s]);
        for (int j = 0; j < S->nslots; j++)
            get_pair(r, &sums[s][j]);
        if (S->nrot == 1 && !r->bad) {
            char why[400];
            if (partial_get_result(&r->p, r->end, &S->cfg[0], &res[s], why, sizeof why) != 0) {
                size_t k = strlen(nonsense);
                if (strncmp(why, nonsense, k) == 0)
                    snprintf(err, errlen, "%s%ssetting %s, tallies: %s", nonsense, where,
                             S->label, why + k);
                else
                    snprintf(err, errlen, "%s (%ssetting %s)", why, where, S->label);
                rc = -1;
                break;
            }
            tally[s] = &res[s];
        }
    }
    if (rc == 0 && r->bad) {
        snprintf(err, errlen, "the block sums are truncated or malformed");
        rc = -1;
    }
    if (rc == 0) {
        char why[400];
        if (exp_block_sense(e, sums, tally, games, cap, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s%s%s", nonsense, where, why);
            rc = -1;
        }
    }
    for (int s = 0; s < e->nset && rc == 0; s++) {
        setting *S = &e->set[s];
        if (sums[s] == NULL || !e->counting[s])
            continue;
        for (int j = 0; j < S->nslots && rc == 0; j++)
            if (!exp_pair_merge(&S->bsum[j], &sums[s][j])) {
                snprintf(err, errlen, "the block sums do not fit in their integers");
                rc = -1;
            }
        if (rc == 0 && tally[s])
            rc = partial_merge(&S->bres, &res[s], S->nseats, err, errlen);
    }
    for (int s = 0; s < e->nset; s++) {
        free(sums[s]);
        if (tally[s])
            run_result_free(&res[s]);
    }
    free(sums);
    free(res);
    free(tally);
    return rc;
}

/* exp_add_fn for the engine: adds another process's block sums into this one's, and writes
 * the total into *sum. */
static int add_bytes(void *ctx, pbuf *sum, const unsigned char *p, size_t n, char *err,
                     size_t errlen)
{
    engine *e = ctx;
    preader r = {p, p + n, false};
    if (add_block(e, &r, UINT64_MAX, e->block_to - e->block_from, "", err, errlen) != 0)
        return -1;
    sum->len = 0;
    put_block(e, sum);
    if (sum->oom)
        return snprintf(err, errlen, "out of memory"), -1;
    return 0;
}

/* --merge: the sums of block [from, to) over every shard, read from the shards' payloads;
 * each shard's part of the block is its range of the run's games (partial_shard_range) within
 * the block, and its sums must count exactly those games. */
static int read_block(engine *e, const exp_options *o, uint64_t from, uint64_t to, char *err,
                      size_t errlen)
{
    for (int i = 0; i < o->nmerged; i++) {
        char name[300], why[400];
        if (o->merged_names)
            snprintf(name, sizeof name, "'%s'", o->merged_names[i]);
        else
            snprintf(name, sizeof name, "shard %d", i);
        uint64_t lo, count;
        partial_shard_range(o->runs, (uint64_t)i, (uint64_t)o->nmerged, &lo, &count);
        uint64_t a = from > lo ? from : lo, b = to < lo + count ? to : lo + count;
        uint64_t games = b > a ? b - a : 0;
        preader r = {e->mp[i], o->merged[i] + o->merged_len[i], false};
        uint64_t f = partial_get_u64(&r), t = partial_get_u64(&r), has = partial_get_u64(&r);
        if (r.bad || f != from || t != to || has != (games > 0))
            return snprintf(err, errlen, "%s does not hold the block of games %llu-%llu this "
                            "experiment plays (its part: %llu games)", name,
                            (unsigned long long)from, (unsigned long long)to,
                            (unsigned long long)games),
                   -1;
        char where[64];
        snprintf(where, sizeof where, "games %llu-%llu, ", (unsigned long long)from,
                 (unsigned long long)to);
        if (has && add_block(e, &r, games, to - from, where, why, sizeof why) != 0)
            return snprintf(err, errlen, "%s: %s", name, why), -1;
        e->mp[i] = r.p;
    }
    return 0;
}

int exp_block(engine *e, const exp_options *o, uint64_t from, uint64_t to, char *err,
              size_t errlen)
{
    block_clear(e);
    e->block_from = from, e->block_to = to;
    if (o->merged)
        return read_block(e, o, from, to, err, errlen);
    uint64_t a = from, b = to;
    if (o->shard_out) {
        a = from > e->lo ? from : e->lo;
        b = to < e->hi ? to : e->hi;
        if (b < a)
            b = a;
    } else if (o->combine && o->parts > 1) {
        uint64_t first, count;
        partial_shard_range(to - from, o->part, o->parts, &first, &count);
        a = from + first;
        b = a + count;
    }
    if (a < b)
        exp_play_block(e, a, b);
    if (o->shard_out) {
        partial_put_u64(o->shard_out, from);
        partial_put_u64(o->shard_out, to);
        partial_put_u64(o->shard_out, a < b);
        if (a < b)
            put_block(e, o->shard_out);
        return 0;
    }
    if (!o->combine || o->parts <= 1)
        return 0;
    pbuf bytes = {0};
    put_block(e, &bytes);
    int rc = bytes.oom ? (snprintf(err, errlen, "out of memory"), -1)
                       : o->combine(&bytes, add_bytes, e, err, errlen);
    if (rc == 0) { /* every process takes the same total */
        block_clear(e);
        preader r = {bytes.p, bytes.p + bytes.len, false};
        rc = add_block(e, &r, to - from, to - from, "", err, errlen);
    }
    free(bytes.p);
    return rc;
}
