/* bare45.c — the Gioco del 45 as a minimal hand-written loop, for `make bench` only.
 *
 * Two or more `random` players under the default ruleset (tiles 1..9, limit 45, equal weights,
 * several shutters roll off), drawing dice and choices exactly as giochi-sim does (same
 * xoshiro256** streams per game and seat, same order of draws), counting wins and nothing
 * else. It is the floor the engine is measured against: `make bench` prints the ratio of
 * giochi-sim's time per game to this loop's, and checks that both count the same wins.
 *
 * usage: bare45 GAMES SEED [PLAYERS]  ->  "wins W1 W2 ... games_per_second R" */
#include "bare_main.h"
#include "core/rng.h"

enum { TILES = 9, LIMIT = 45, MAXP = 8 };

/* The moves for a dice total, highest tile first: a tile or a pair of tiles (as in 45.c's
 * table, written out again here from the rules: "un numero o due numeri la cui somma"). */
static int moves(int open, int total, int *out)
{
    int n = 0;
    if (total <= TILES && (open >> (total - 1) & 1))
        out[n++] = 1 << (total - 1);
    for (int lo = 1; lo < total - lo; lo++) {
        int hi = total - lo;
        if (hi <= TILES && (open >> (hi - 1) & 1) && (open >> (lo - 1) & 1))
            out[n++] = 1 << (hi - 1) | 1 << (lo - 1);
    }
    return n;
}

/* A roll-off among the seats of `tied`: first to roll 4 and 5; several: a fair draw (all
 * weights are equal). */
static int rolloff(uint32_t tied, rng *chance)
{
    uint32_t hit = 0;
    while (!hit)
        for (uint32_t m = tied; m; m &= m - 1) {
            int k = __builtin_ctz(m);
            int a = rng_die(chance, 6), b = rng_die(chance, 6);
            if (a + b == 9 && (a == 4 || a == 5))
                hit |= 1u << k;
        }
    if (__builtin_popcount(hit) == 1)
        return __builtin_ctz(hit);
    int pick = (int)rng_below(chance, (uint32_t)__builtin_popcount(hit));
    while (pick--)
        hit &= hit - 1;
    return __builtin_ctz(hit);
}

static int play(uint64_t seed, uint64_t index, int np)
{
    rng chance, bot[MAXP];
    unsigned seeded = 0;
    rng_seed_stream(&chance, seed, index, RNG_STREAM_CHANCE);
    int total[MAXP] = {0};
    uint32_t in = (1u << np) - 1;
    for (;;) {
        uint32_t shut = 0;
        for (uint32_t m = in; m; m &= m - 1) {
            int k = __builtin_ctz(m), open = (1 << TILES) - 1, left = TILES * (TILES + 1) / 2;
            while (open) {
                int t = rng_die(&chance, 6) + rng_die(&chance, 6), mv[6];
                int n = moves(open, t, mv), pick = 0;
                if (n == 0)
                    break;
                if (n > 1) {
                    if (!(seeded >> k & 1)) {
                        rng_seed_stream(&bot[k], seed, index, RNG_STREAM_SEAT(k));
                        seeded |= 1u << k;
                    }
                    pick = (int)rng_below(&bot[k], (uint32_t)n);
                }
                open &= ~mv[pick];
                left -= t;
            }
            total[k] += left;
            if (!open)
                shut |= 1u << k;
        }
        uint32_t before = in;
        for (uint32_t m = before; m; m &= m - 1)
            if (total[__builtin_ctz(m)] >= LIMIT)
                in &= ~(1u << __builtin_ctz(m));
        if (shut)
            return __builtin_popcount(shut) == 1 ? __builtin_ctz(shut) : rolloff(shut, &chance);
        if (__builtin_popcount(in) == 1)
            return __builtin_ctz(in);
        if (in == 0) {
            int low = 1 << 30;
            uint32_t c = 0;
            for (uint32_t m = before; m; m &= m - 1) {
                int k = __builtin_ctz(m);
                if (total[k] < low) {
                    low = total[k];
                    c = 0;
                }
                if (total[k] == low)
                    c |= 1u << k;
            }
            return __builtin_popcount(c) == 1 ? __builtin_ctz(c) : rolloff(c, &chance);
        }
    }
}

int main(int argc, char **argv)
{
    return bare_main(argc, argv, "bare45", 2, MAXP, play, NULL);
}
