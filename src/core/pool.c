/* pool.c — the one worker pool: chunks of a range of games handed out to threads (pool.h). */
#include "core/pool.h"

#include <stdlib.h>

#include "core/xalloc.h"

/* One started thread: its handle, and what it runs. */
struct pool_thread {
    pthread_t handle;
    pool_worker_fn *fn;
    void *arg;
    int t;
};

void pool_init(pool *p, uint64_t first, uint64_t end, int nthreads, uint64_t min_chunk,
               uint64_t max_chunk, uint64_t per_thread)
{
    int n = nthreads < 1 ? 1 : nthreads;
    uint64_t games = end - first;
    *p = (pool){.first = first, .end = end};
    p->chunk = games / ((uint64_t)n * per_thread);
    if (p->chunk < min_chunk)
        p->chunk = min_chunk;
    if (p->chunk < 1)
        p->chunk = 1;
    if (p->chunk > max_chunk)
        p->chunk = max_chunk;
    p->nchunks = (games + p->chunk - 1) / p->chunk;
    if ((uint64_t)n > p->nchunks)
        n = p->nchunks ? (int)p->nchunks : 1;
    p->nworkers = n;
    atomic_init(&p->next, 0);
    atomic_init(&p->stop, 0);
}

bool pool_take(pool *p, uint64_t *c, uint64_t *from, uint64_t *to)
{
    /* a chunk is counted out only when it is handed out: the chunks handed out are always
     * 0 .. next - 1, with no gap, even when pool_stop comes between two claims */
    uint64_t k = atomic_load(&p->next);
    do {
        if (k >= p->nchunks || atomic_load(&p->stop))
            return false;
    } while (!atomic_compare_exchange_weak(&p->next, &k, k + 1));
    *c = k;
    *from = p->first + k * p->chunk;
    *to = *from + p->chunk;
    if (*to > p->end)
        *to = p->end;
    return true;
}

void pool_stop(pool *p)
{
    atomic_store(&p->stop, 1);
}

bool pool_stopped(pool *p)
{
    return atomic_load(&p->stop) != 0;
}

static void *thread_main(void *arg)
{
    struct pool_thread *th = arg;
    th->fn(th->arg, th->t);
    return NULL;
}

void pool_start(pool *p, int from_worker, pool_worker_fn *fn, void *arg)
{
    p->from_worker = from_worker < p->nworkers ? from_worker : p->nworkers;
    int n = p->nworkers - p->from_worker;
    p->thread = xcalloc((size_t)n, sizeof *p->thread);
    for (int i = 0; i < n; i++) {
        struct pool_thread *th = &p->thread[i];
        *th = (struct pool_thread){.fn = fn, .arg = arg, .t = p->from_worker + i};
        if (pthread_create(&th->handle, NULL, thread_main, th) != 0)
            xalloc_fail("cannot start a worker thread: try fewer threads");
    }
}

void pool_join(pool *p)
{
    for (int i = 0; i < p->nworkers - p->from_worker; i++)
        pthread_join(p->thread[i].handle, NULL);
    free(p->thread);
    p->thread = NULL;
}
