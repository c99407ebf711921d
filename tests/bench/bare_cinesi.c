/* bare_cinesi.c — the Gioco dei Cinesi as a minimal hand-written loop, for `make bench` only.
 *
 * Two to four players under the default ruleset (red, yellow, green, blue in seat order; a
 * die of one face per colour and two white faces; a 7x7 board, 27 steps to the centre; seat
 * 1 takes the die), drawing the die exactly as giochi-sim does: the chance stream of each
 * game, three words a batch, lane i of the words spelling face number i (word 0 the low
 * bit), faces 0..3 the colours, 4 and 5 white, 6 and 7 no roll at all. It counts wins and
 * nothing else: the floor the engine is measured against (`make bench` prints the ratio of
 * giochi-sim's time per game to this loop's, and checks that both count the same wins).
 *
 * usage: bare_cinesi GAMES SEED [PLAYERS]  ->  "wins W1 W2 ... games_per_second R" */
#include "bare_main.h"
#include "core/rng.h"

enum { SEATS = 4, STEPS = 4 * 6 + 3 };

/* Draws batches until one has a roll; own[k] gets the lanes of seat k's colour, pass[k]
 * the lanes that end seat k's turn. Returns the lanes that are rolls. */
static uint64_t batch(rng *r, uint64_t *own, uint64_t *pass)
{
    uint64_t b0, b1, b2, valid;
    do {
        b0 = rng_next(r);
        b1 = rng_next(r);
        b2 = rng_next(r);
        valid = ~(b2 & b1); /* faces 6 and 7 are no rolls */
    } while (valid == 0);
    uint64_t lo = ~b2, white = b2 & ~b1;
    own[0] = lo & ~b1 & ~b0;
    own[1] = lo & ~b1 & b0;
    own[2] = lo & b1 & ~b0;
    own[3] = lo & b1 & b0;
    for (int k = 0; k < SEATS; k++)
        pass[k] = valid & ~(own[k] | white);
    return valid;
}

/* Plays game `index` of a run with master seed `seed`; returns the winner. */
static int play(uint64_t seed, uint64_t index, int np)
{
    rng chance;
    rng_seed_stream(&chance, seed, index, RNG_STREAM_CHANCE);
    uint64_t own[SEATS], pass[SEATS], left = 0;
    int pos[SEATS] = {0}, k = 0;
    for (;;) {
        if (left == 0)
            left = batch(&chance, own, pass);
        uint64_t stop = left & pass[k];
        uint64_t upto = stop ? stop ^ (stop - 1) : ~0ULL; /* lanes up to the pass, or all */
        uint64_t moves = left & upto & own[k];
        if (pos[k] + __builtin_popcountll(moves) >= STEPS)
            return k;
        pos[k] += __builtin_popcountll(moves);
        left &= ~upto;
        if (stop)
            k = k + 1 == np ? 0 : k + 1;
    }
}

int main(int argc, char **argv)
{
    return bare_main(argc, argv, "bare_cinesi", 4, SEATS, play, NULL);
}
