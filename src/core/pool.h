/* pool.h — the one worker pool: hands out a range of games in chunks to worker threads.
 *
 * The runner (runner.c) and the experiment engine (experiment/exp_engine.c) both play their
 * games through it. A worker claims the next chunk with pool_take until none is left; which
 * worker plays which chunk varies from run to run, so a caller keeps per-worker partial results
 * that add up exactly (integers), or files them by chunk index and reduces them in game order:
 * the bytes out never depend on the thread count. */
#ifndef GIOCHI_POOL_H
#define GIOCHI_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The games [first, end) cut into nchunks chunks of `chunk` games (the last one shorter), and
 * the nworkers threads that take them. Filled by pool_init; the rest is the pool's own. */
typedef struct pool {
    uint64_t first, end;
    uint64_t chunk, nchunks;
    int nworkers;              /* at most nchunks, at least 1 */
    _Atomic uint64_t next;     /* the next chunk to hand out */
    _Atomic int stop;          /* pool_stop was called: no chunk is handed out any more */
    struct pool_thread *thread; /* the threads pool_start started (pool_join frees them) */
    int from_worker;
} pool;

/* Sets up p to hand out the games [first, end) to at most nthreads workers (nthreads < 1
 * counts as 1), in chunks of at most max_chunk games and few enough that every worker gets
 * about per_thread claims: chunk = (end - first) / (nthreads per_thread), clamped to
 * [min_chunk, max_chunk] (min_chunk at least 1, at most max_chunk). p->nworkers is nthreads
 * cut to the number of chunks (but at least 1, so a run of no games still has one worker,
 * which sets up its bots and finds no chunk). */
void pool_init(pool *p, uint64_t first, uint64_t end, int nthreads, uint64_t min_chunk,
               uint64_t max_chunk, uint64_t per_thread);

/* Claims the next chunk: true with its index in *c and its games [*from, *to); false when
 * every chunk has been handed out or the pool was stopped. Any thread may call it. The chunks
 * handed out are always the first ones, in order, with no gap (also across a pool_stop): a
 * run stopped early whose callers finish every chunk they took has played a prefix of its
 * games. */
bool pool_take(pool *p, uint64_t *c, uint64_t *from, uint64_t *to);

/* Stops handing out chunks (a chunk already taken is the caller's to finish or abandon). Any
 * thread may call it. */
void pool_stop(pool *p);

/* Whether pool_stop was called. */
bool pool_stopped(pool *p);

/* The function a worker thread runs: worker t (0-based) of the pool, with the caller's arg. */
typedef void pool_worker_fn(void *arg, int t);

/* Starts one thread per worker from_worker .. p->nworkers - 1, each running fn(arg, t); the
 * workers below from_worker are the caller's to run (the experiment engine plays worker 0 on
 * the calling thread). A thread that cannot be started ends the process (xalloc_fail). */
void pool_start(pool *p, int from_worker, pool_worker_fn *fn, void *arg);

/* Waits for every thread pool_start started, and frees what it allocated. */
void pool_join(pool *p);

#endif
