/* test_pool.c — the worker pool: every game of the range handed out once, in chunks of the
 * promised size, on as many threads as asked and no more than there are chunks. */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "core/pool.h"

enum { GAMES = 5000, FIRST = 777 };

/* What the workers of one pool saw: each game's claims, each worker's chunks. */
typedef struct seen {
    pool *p;
    _Atomic int claims[GAMES];
    _Atomic int chunks[8];
    _Atomic int bad; /* a chunk whose games do not follow from its index */
} seen;

static void take_all(void *arg, int t)
{
    seen *s = arg;
    uint64_t c, from, to;
    while (pool_take(s->p, &c, &from, &to)) {
        if (from != FIRST + c * s->p->chunk || to > s->p->end || to <= from)
            atomic_fetch_add(&s->bad, 1);
        for (uint64_t i = from; i < to; i++)
            atomic_fetch_add(&s->claims[i - FIRST], 1);
        atomic_fetch_add(&s->chunks[t], 1);
    }
}

TEST(pool_hands_out_every_game_once_on_any_thread_count)
{
    static seen s;
    for (int threads = 1; threads <= 8; threads *= 2) {
        for (int caller = 0; caller <= 1; caller++) {
            pool p;
            memset(&s, 0, sizeof s);
            s.p = &p;
            pool_init(&p, FIRST, FIRST + GAMES, threads, 1, 64, 8);
            /* chunk = 5000 / (threads 8) clamped to at most 64 */
            uint64_t want = GAMES / ((uint64_t)threads * 8) > 64 ? 64 : GAMES / (threads * 8);
            CHECK_INT(p.chunk, want);
            CHECK_INT(p.nchunks, (GAMES + want - 1) / want);
            CHECK_INT(p.nworkers, threads);
            pool_start(&p, caller, take_all, &s);
            if (caller)
                take_all(&s, 0);
            pool_join(&p);
            CHECK_INT(s.bad, 0);
            int wrong = 0, total = 0;
            for (int i = 0; i < GAMES; i++)
                wrong += s.claims[i] != 1;
            for (int t = 0; t < 8; t++)
                total += s.chunks[t];
            CHECK_INT(wrong, 0);
            CHECK_INT(total, p.nchunks);
        }
    }
}

TEST(pool_has_no_more_workers_than_chunks_and_stops)
{
    pool p;
    pool_init(&p, 10, 13, 8, 1, 1024, 8); /* 3 games: 3 chunks of 1 */
    CHECK_INT(p.chunk, 1);
    CHECK_INT(p.nworkers, 3);
    pool_init(&p, 5, 5, 4, 1, 1024, 8); /* no game: still one worker, no chunk */
    CHECK_INT(p.nchunks, 0);
    CHECK_INT(p.nworkers, 1);
    uint64_t c, from, to;
    CHECK(!pool_take(&p, &c, &from, &to));
    pool_init(&p, 0, 100, 0, 1, 10, 8); /* threads < 1 counts as 1 */
    CHECK_INT(p.nworkers, 1);
    CHECK_INT(p.chunk, 10);
    CHECK(pool_take(&p, &c, &from, &to));
    CHECK_INT(c, 0);
    CHECK_INT(to, 10);
    CHECK(!pool_stopped(&p));
    pool_stop(&p);
    CHECK(pool_stopped(&p));
    CHECK(!pool_take(&p, &c, &from, &to));
    pool_init(&p, 0, 100, 8, 30, 256, 8); /* 100 / 64 is 1, raised to 30: 4 chunks */
    CHECK_INT(p.chunk, 30);
    CHECK_INT(p.nchunks, 4);
    CHECK_INT(p.nworkers, 4);
}

/* A worker that stops the pool once it is handed chunk 100, racing the others: the chunks
 * handed out are still the first ones, with no gap (an interrupted run has played a prefix of
 * its games). */
static void take_and_stop(void *arg, int t)
{
    seen *s = arg;
    uint64_t c, from, to;
    while (pool_take(s->p, &c, &from, &to)) {
        for (uint64_t i = from; i < to; i++)
            atomic_fetch_add(&s->claims[i - FIRST], 1);
        atomic_fetch_add(&s->chunks[t], 1);
        if (c >= 100)
            pool_stop(s->p);
    }
}

TEST(pool_stopped_has_handed_out_a_prefix)
{
    static seen s;
    for (int round = 0; round < 20; round++) {
        pool p;
        memset(&s, 0, sizeof s);
        s.p = &p;
        pool_init(&p, FIRST, FIRST + GAMES, 8, 1, 1, 8); /* chunks of one game */
        pool_start(&p, 0, take_and_stop, &s);
        pool_join(&p);
        int played = 0, gaps = 0, twice = 0;
        for (int i = 0; i < GAMES; i++) {
            played += s.claims[i] > 0;
            twice += s.claims[i] > 1;
            gaps += i > 0 && s.claims[i] > 0 && s.claims[i - 1] == 0;
        }
        CHECK(played < GAMES); /* it did stop */
        CHECK_INT(gaps, 0);
        CHECK_INT(twice, 0);
    }
}
