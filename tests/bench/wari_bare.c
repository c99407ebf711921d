/* wari_bare.c — a bare, standalone Wari random-playout loop: the yardstick `make bench` sets
 * beside random playouts through the full runner. Fixed board (6 pits a side, 4 seeds), the
 * default rules of configs/wari.json (capture of 2s and 3s backwards, origin skipped on laps,
 * must feed, grand slam allowed without capture, majority, blocked game, repetition since the
 * last capture over the same 48-move window, move cap 1000), uniform random moves from
 * xoshiro256**, no statistics beyond a move count and a checksum of the results.
 *
 *     wari_bare [GAMES [SEED]]    prints "GAMES games, MOVES moves, S s, R moves/s" */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PITS = 6, BOARD = 12, TOTAL = 48, WINDOW = 48, CAP = 1000 };

static uint64_t s[4];

static uint64_t next(void)
{
    uint64_t x = s[1] * 5, r = ((x << 7) | (x >> 57)) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return r;
}

static uint32_t below(uint32_t n)
{
    return (uint32_t)(((next() >> 32) * n) >> 32); /* bias < 2^-29: fine for a yardstick */
}

/* One random game; returns its moves and adds seat 0's final seeds minus seat 1's to *sum. */
static int play(long *sum)
{
    uint8_t b[BOARD];
    int store[2] = {0, 0}, turn = 0, moves = 0, last_capture = 0;
    uint64_t hist[WINDOW];
    memset(b, 4, sizeof b);
    for (;;) {
        int mine = turn * PITS, theirs = PITS - mine, opp = 0, own = 0, opt[PITS], n = 0;
        for (int i = 0; i < PITS; i++) {
            own += b[mine + i];
            opp += b[theirs + i];
        }
        for (int i = 0; i < PITS; i++)
            if (b[mine + i] && (opp || b[mine + i] >= PITS - i))
                opt[n++] = i;
        if (n == 0)
            break; /* blocked: no seed, or no way to feed */
        int from = mine + opt[n == 1 ? 0 : below((uint32_t)n)], k = b[from], at = from;
        b[from] = 0;
        while (k > 0) {
            at = at == BOARD - 1 ? 0 : at + 1;
            if (at != from) {
                b[at]++;
                k--;
            }
        }
        moves++;
        int got = 0, i = at;
        if (at >= theirs && at < theirs + PITS)
            while (i >= theirs && (b[i] == 2 || b[i] == 3))
                got += b[i--];
        int left = 0;
        for (int j = theirs; j < theirs + PITS; j++)
            left += b[j];
        if (got && got < left) { /* a grand slam captures nothing */
            for (int j = i + 1; j <= at; j++)
                b[j] = 0;
            store[turn] += got;
            last_capture = moves;
            if (2 * store[turn] > TOTAL)
                break;
        }
        turn = 1 - turn;
        if (got == 0 || got == left) { /* repetition since the last capture */
            uint64_t key = 0;
            for (int j = 0; j < BOARD; j++)
                key = key * 49 + b[j]; /* exact: 49^12 < 2^68, wraps in a way that is fine */
            int seen = 0;
            for (int q = moves - 2; q >= last_capture && q > moves - WINDOW; q -= 2)
                seen |= hist[q % WINDOW] == key;
            hist[moves % WINDOW] = key;
            if (seen)
                break;
        } else {
            uint64_t key = 0;
            for (int j = 0; j < BOARD; j++)
                key = key * 49 + b[j];
            hist[moves % WINDOW] = key;
        }
        if (moves >= CAP)
            break;
    }
    int fin[2] = {store[0], store[1]};
    for (int i = 0; i < BOARD; i++)
        fin[i / PITS] += b[i];
    *sum += fin[0] - fin[1];
    return moves;
}

int main(int argc, char **argv)
{
    long games = argc > 1 ? atol(argv[1]) : 1000000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    for (int i = 0; i < 4; i++) { /* splitmix64 */
        uint64_t z = (seed += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        s[i] = z ^ (z >> 31);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    long moves = 0, sum = 0;
    for (long g = 0; g < games; g++)
        moves += play(&sum);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("%ld games, %ld moves, %.3f s, %.0f moves/s (checksum %ld)\n", games, moves, secs,
           (double)moves / secs, sum);
    return 0;
}
