/* exp_play.c — plays an experiment block by block: one block of --runs games, or the growing
 * blocks of --until; gets each block's sums from exp_block (played here, combined over
 * processes, or read from the shards), adds them to every counting setting's totals, and stops
 * each setting at its --until target. */
#include "experiment/experiment_priv.h"

#include <math.h>
#include <stdlib.h>

#include "core/xalloc.h"

int exp_play_all(engine *e, const exp_options *o, double target, char *err, size_t errlen)
{
    exp_progress *p = &e->prog;
    p->mode = o->progress;
    p->game = e->g->name;
    p->nset = e->nset;
    p->until = target > 0;
    for (int s = 0; s < e->nset; s++)
        p->plays_cap += o->runs * (uint64_t)e->set[s].nrot;
    if (o->parts > 1 && (o->shard_out || o->combine)) /* this process plays about its share */
        p->plays_cap = (p->plays_cap + (uint64_t)o->parts - 1) / (uint64_t)o->parts;
    e->nworkers = o->merged ? 0 : o->threads < 1 ? 1 : o->threads;
    exp_progress_start(p, e->nworkers);
    int rc = exp_engine_setup(e, err, errlen);
    if (rc != 0)
        return rc;
    /* A shard plays its games of every block up to the cap, without stopping: the stopping
     * rule needs every shard's sums, and the merge applies it block by block. */
    bool stopping = target > 0 && o->shard_out == NULL;
    e->lo = 0, e->hi = o->runs;
    if (o->shard_out && o->parts > 1) {
        uint64_t count;
        partial_shard_range(o->runs, o->part, o->parts, &e->lo, &count);
        e->hi = e->lo + count;
    }
    if (o->merged) {
        e->mp = xcalloc((size_t)o->nmerged, sizeof *e->mp);
        for (int i = 0; i < o->nmerged; i++)
            e->mp[i] = o->merged[i];
    }
    uint64_t done = 0;
    for (;;) {
        bool any = false;
        for (int s = 0; s < e->nset; s++) {
            e->counting[s] = e->set[s].active;
            any = any || e->counting[s];
        }
        if (!any || done >= o->runs)
            break;
        for (int s = 0; s < e->nset; s++)
            e->played[s] = e->counting[s] || s == e->base;
        uint64_t next = o->runs;
        if (target > 0) {
            uint64_t step = done / 10 > UNTIL_BLOCK ? done / 10 : UNTIL_BLOCK;
            if (next - done > step)
                next = done + step;
        }
        if ((rc = exp_block(e, o, done, next, err, errlen)) != 0) {
            rc = o->merged ? 2 : 4;
            break;
        }
        /* the totals of blocks read from outside (--merge, other ranks) may not fit: checked */
        for (int s = 0; s < e->nset && rc == 0; s++) {
            setting *S = &e->set[s];
            if (!e->counting[s])
                continue;
            int bad = -1;
            for (int j = 0; j < S->nslots; j++)
                if ((!exp_pair_merge(&S->sum[j], &S->bsum[j]) ||
                     !exp_engine_completes(e, s, j, &S->sum[j])) && bad < 0)
                    bad = j;
            char fig[96] = "tallies", why[300] = "", who[300] = "partial results";
            if (bad >= 0) {
                exp_slot_name(S, bad, fig, sizeof fig);
                snprintf(why, sizeof why, "the sums of its blocks up to game %llu do not fit "
                         "in their integers", (unsigned long long)next);
            } else if (S->nrot == 1) {
                partial_merge(&S->res, &S->bres, S->nseats, why, sizeof why);
            }
            if (why[0] == '\0')
                continue;
            if (o->merged_names)
                snprintf(who, sizeof who, "'%s'%s", o->merged_names[0],
                         o->nmerged > 1 ? " and the other parts" : "");
            snprintf(err, errlen, "%s: setting %s, %s: %s", who, S->label, fig, why);
            rc = o->merged ? 2 : 4;
        }
        if (rc != 0)
            break;
        done = next;
        for (int s = 0; s < e->nset; s++) {
            setting *S = &e->set[s];
            if (!S->active)
                continue;
            S->games = done;
            if (stopping) {
                exp_engine_total(e, s);
                exp_estimate est;
                exp_slot_est(S, S->until_slot, NULL, &est);
                S->until_hw = isnan(est.lo) ? INFINITY : (est.hi - est.lo) / 2;
                if (S->until_hw <= target) {
                    S->active = false;
                    p->settings_done++;
                }
            }
        }
    }
    exp_progress_end(p);
    for (int s = 0; s < e->nset; s++)
        exp_engine_total(e, s);
    free(e->mp);
    exp_engine_free(e);
    return rc;
}
