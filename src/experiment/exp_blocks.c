/* exp_blocks.c — an experiment's block sums as bytes: each counting setting's paired sums per
 * slot and its tallies, written for other processes (MPI messages, --shard files), added up in
 * process order, and read back by --merge; exp_block gets a block's sums whichever way the run
 * is split. */
#include "experiment/experiment_priv.h"

#include <stdlib.h>
#include <string.h>

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
 * bytes hold but that no longer counts is skipped: a merge of shards, which play on). Returns 0,
 * or -1 with a message. */
static int add_block(engine *e, preader *r, char *err, size_t errlen)
{
    for (int s = 0; s < e->nset && !r->bad; s++) {
        setting *S = &e->set[s];
        uint64_t flag = partial_get_u64(r);
        if (r->bad)
            break;
        if (flag > 1 || (flag == 0 && e->counting[s])) {
            snprintf(err, errlen, "the block sums do not hold the settings this experiment plays");
            return -1;
        }
        if (flag == 0)
            continue;
        for (int j = 0; j < S->nslots; j++) {
            exp_pair p;
            get_pair(r, &p);
            if (e->counting[s] && !exp_pair_merge(&S->bsum[j], &p)) {
                snprintf(err, errlen, "the block sums do not fit in their integers");
                return -1;
            }
        }
        if (S->nrot == 1 && !r->bad) {
            run_result one;
            if (partial_get_result(&r->p, r->end, &S->cfg[0], &one, err, errlen) != 0)
                return -1;
            int rc = e->counting[s] ? partial_merge(&S->bres, &one, S->nseats, err, errlen) : 0;
            run_result_free(&one);
            if (rc != 0)
                return -1;
        }
    }
    if (r->bad) {
        snprintf(err, errlen, "the block sums are truncated or malformed");
        return -1;
    }
    return 0;
}

/* exp_add_fn for the engine: adds another process's block sums into this one's, and writes
 * the total into *sum. */
static int add_bytes(void *ctx, pbuf *sum, const unsigned char *p, size_t n, char *err,
                     size_t errlen)
{
    engine *e = ctx;
    preader r = {p, p + n, false};
    if (add_block(e, &r, err, errlen) != 0)
        return -1;
    sum->len = 0;
    put_block(e, sum);
    if (sum->oom)
        return snprintf(err, errlen, "out of memory"), -1;
    return 0;
}

/* --merge: the sums of block [from, to) over every shard, read from the shards' payloads. */
static int read_block(engine *e, const exp_options *o, uint64_t from, uint64_t to, char *err,
                      size_t errlen)
{
    for (int i = 0; i < o->nmerged; i++) {
        preader r = {e->mp[i], o->merged[i] + o->merged_len[i], false};
        uint64_t f = partial_get_u64(&r), t = partial_get_u64(&r), has = partial_get_u64(&r);
        if (r.bad || f != from || t != to || has > 1)
            return snprintf(err, errlen, "shard %d of the partial results does not hold the "
                            "block of games %llu-%llu this experiment plays", i,
                            (unsigned long long)from, (unsigned long long)to),
                   -1;
        if (has && add_block(e, &r, err, errlen) != 0)
            return -1;
        e->mp[i] = r.p;
    }
    return 0;
}

int exp_block(engine *e, const exp_options *o, uint64_t from, uint64_t to, char *err,
              size_t errlen)
{
    block_clear(e);
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
        rc = add_block(e, &r, err, errlen);
    }
    free(bytes.p);
    return rc;
}
