/* bare_pig10.c — PIG 10 with greedy players as a minimal hand-written loop, for `make bench`.
 *
 * The default ruleset (80 cards: frogs x7, 1-4 and 6-9 x8, sirens x5, tens x4; hands of 3;
 * seat 1 first; a subtracted siren floors at 0; cards left on the table are discarded; ties
 * share), every seat played by `greedy`, the deck shuffled exactly as giochi-sim shuffles it
 * (the same xoshiro256** chance stream per game, the same Fisher-Yates draws), counting the
 * games each seat won alone and nothing else. Greedy draws nothing, so no seat stream is
 * seeded. `make bench` prints the ratio of giochi-sim's time per game to this loop's and
 * checks that both count the same wins.
 *
 * usage: bare_pig10 GAMES SEED [PLAYERS]  ->  "wins W1 W2 ... games_per_second R" */
#include "bare_main.h"
#include "core/rng.h"

enum { VALUES = 11, TARGET = 10, FROG = 0, SIREN = 5, HAND = 3, MAXP = 8, CARDS = 80 };

static const int copies[VALUES] = {7, 8, 8, 8, 8, 5, 8, 8, 8, 8, 4};

/* How much greedy keeps a card: frogs and sirens always play safe, a 10 takes a fresh table. */
static int keep(int card)
{
    return card == FROG || card == SIREN ? 3 : card == TARGET ? 1 : 0;
}

/* Greedy's score of a play making value `to` with `card`: exactly 10 first, then staying at or
 * under 10 with the card least worth keeping and the lowest value, going over last. */
static int score(int to, int card)
{
    if (to == TARGET)
        return 1000000 - keep(card);
    if (to > TARGET)
        return -1000000 - keep(card);
    return -100 * keep(card) - to;
}

/* Plays game `index` and returns the seat that won alone, or -1 (a shared win). */
static int play(uint64_t seed, uint64_t index, int np)
{
    rng chance;
    rng_seed_stream(&chance, seed, index, RNG_STREAM_CHANCE);
    uint8_t pile[CARDS];
    int n = 0;
    for (int v = 0; v < VALUES; v++)
        for (int k = 0; k < copies[v]; k++)
            pile[n++] = (uint8_t)v;
    for (int i = n - 1; i > 0; i--) { /* as rng_shuffle_int */
        int j = (int)rng_below(&chance, (uint32_t)i + 1);
        uint8_t t = pile[i];
        pile[i] = pile[j];
        pile[j] = t;
    }
    uint8_t hand[MAXP][VALUES] = {{0}};
    int held[MAXP], got[MAXP] = {0}, pos = 0;
    for (int s = 0; s < np; s++) {
        for (int k = 0; k < HAND; k++)
            hand[s][pile[pos++]]++;
        held[s] = HAND;
    }
    int seat = 0, value = 0, top = 0, on_table = 0;
    for (;;) {
        /* greedy: the first best play in giochi-sim's order (card, then add, sub, set) */
        int best = -1, best_score = 0, best_to = 0;
        for (int c = 0; c < VALUES; c++) {
            if (!hand[seat][c])
                continue;
            int to = c == FROG ? 0 : on_table ? value + c : c;
            int sc = score(to, c);
            if (best < 0 || sc > best_score)
                best = c, best_score = sc, best_to = to;
            if (c == SIREN && on_table) { /* subtracted, never below 0 */
                to = value > SIREN ? value - SIREN : 0;
                if ((sc = score(to, c)) > best_score)
                    best = c, best_score = sc, best_to = to;
            }
            if (on_table && c != FROG && value != 0 && (c == top || c == value) &&
                (sc = score(c, c)) > best_score) /* same card or same number: set */
                best = c, best_score = sc, best_to = c;
        }
        hand[seat][best]--;
        held[seat]--;
        on_table++;
        if (best_to == TARGET) {
            got[seat] += on_table;
            on_table = 0;
        } else if (best_to > TARGET) {
            got[(seat + np - 1) % np] += on_table;
            on_table = 0;
        } else {
            value = best_to;
        }
        top = best;
        if (pos < CARDS) {
            hand[seat][pile[pos++]]++;
            held[seat]++;
        }
        int next = -1;
        for (int k = 1; k <= np; k++)
            if (held[(seat + k) % np]) {
                next = (seat + k) % np;
                break;
            }
        if (next < 0)
            break;
        seat = next;
    }
    int win = -1, most = -1, shared = 0;
    for (int s = 0; s < np; s++) {
        if (got[s] > most)
            most = got[s], win = s, shared = 0;
        else if (got[s] == most)
            shared = 1;
    }
    return shared ? -1 : win;
}

/* Whether every player gets a whole hand from the deck. */
static int fits(int np)
{
    return np * HAND <= CARDS;
}

int main(int argc, char **argv)
{
    return bare_main(argc, argv, "bare_pig10", 4, MAXP, play, fits);
}
