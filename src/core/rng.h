/* rng.h — xoshiro256** generator, splitmix64 seeding and per-game stream derivation. */
#ifndef GIOCHI_RNG_H
#define GIOCHI_RNG_H

#include <stddef.h>
#include <stdint.h>

/* Generator state. Plain data: copy it to fork a stream, compare it to check a replay. */
typedef struct rng {
    uint64_t s[4];
    /* Tests only: when script is set (and s all zero), rng_die and rng_below return
     * script[pos++] instead of random values (rng_die expects 1..faces, rng_below 0..n-1),
     * so a rule test can play a game with chosen dice through the ordinary game interface.
     * See rng_script. */
    const int *script;
    int script_len, script_pos;
} rng;

/* Streams of one game. Chance (dice, shuffles, deals, draws for ties) always uses
 * RNG_STREAM_CHANCE; the bot of seat k uses RNG_STREAM_SEAT(k), so changing one seat's bot
 * never changes the dice or the deal of any game (common random numbers). */
enum { RNG_STREAM_CHANCE = 0 };
#define RNG_STREAM_SEAT(k) (1u + (unsigned)(k))

/* One step of splitmix64: advances *x and returns the next output. */
uint64_t rng_splitmix64(uint64_t *x);

/* Seeds r from a single 64-bit value through splitmix64 (never an all-zero state). */
void rng_seed(rng *r, uint64_t seed);

/* The seed of stream `stream` of game `game_index` of a run with master seed `master`.
 * A pure function: the same three inputs give the same seed on every machine and thread.
 * The seat streams (stream != RNG_STREAM_CHANCE) are a one-way function of the master seed
 * (SipHash-2-4 keyed by it): a bot holding its own generator cannot work back to the master
 * seed, so it cannot rebuild the chance stream, the shuffle or the deal. */
uint64_t rng_derive(uint64_t master, uint64_t game_index, unsigned stream);

/* SipHash-2-4 (Aumasson and Bernstein) of the 16-byte message m0, m1 (each word read as 8
 * little-endian bytes) under the 128-bit key k0, k1: a keyed pseudo-random function, whose
 * outputs tell nothing usable about the key. rng_derive uses it for the seat streams. */
uint64_t rng_siphash(uint64_t k0, uint64_t k1, uint64_t m0, uint64_t m1);

/* Seeds r for the given stream of the given game: rng_seed(r, rng_derive(...)). */
void rng_seed_stream(rng *r, uint64_t master, uint64_t game_index, unsigned stream);

/* The part of the seat streams' derivation that every seat of one game shares: SipHash's
 * state keyed by the master seed with the game index taken in (see rng_derive). Made once per
 * game, it leaves each seat's stream the rest of the hash only. */
typedef struct rng_seat_key {
    uint64_t v[4];
} rng_seat_key;

/* Prepares k for the seat streams of game `game_index` of a run with master seed `master`. */
void rng_seat_key_init(rng_seat_key *k, uint64_t master, uint64_t game_index);

/* Seeds r for seat stream `stream` (not RNG_STREAM_CHANCE) of k's game: the same as
 * rng_seed_stream(r, master, game_index, stream) with k's master seed and game index. */
void rng_seed_seat(rng *r, const rng_seat_key *k, unsigned stream);

/* Next 64 random bits (xoshiro256**). */
static inline uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* Makes r return the given values, in order, from rng_die and rng_below (tests only). The
 * array must outlive r's use; running past its end or a value out of range aborts with a
 * message, which in a test means the script did not match the rules played. Clears r's state
 * (see rng_below_from): rng_next and rng_uniform then give 0. */
void rng_script(rng *r, const int *values, int n);

/* The next scripted value, checked to lie in [lo, hi]; aborts otherwise. */
int rng_scripted(rng *r, int lo, int hi);

/* rng_below_from's rare branch, out of line: the draw m = (next >> 32) * n fell below n in
 * its low half. From a scripted r, its next value less base (checked to lie in [base,
 * base + n - 1]); otherwise the draw m, or the next not rejected by Lemire's method. */
uint32_t rng_below_rare(rng *r, uint32_t n, int base, uint64_t m);

/* Uniform integer in [0, n), n >= 1, without modulo bias (Lemire's multiply-and-reject); from
 * a scripted r, its next value less base, that value checked to lie in [base, base + n - 1].
 * A scripted generator's state is all zero (rng_script; a zero state stays zero and draws 0),
 * so its draws always take the rejection's rare branch, where the script is read: the usual
 * draw makes no test for it. */
static inline uint32_t rng_below_from(rng *r, uint32_t n, int base)
{
    uint64_t m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
    if ((uint32_t)m < n)
        return rng_below_rare(r, n, base, m);
    return (uint32_t)(m >> 32);
}

/* Uniform integer in [0, n), n >= 1 (rng_below_from; a script gives values 0..n-1). */
static inline uint32_t rng_below(rng *r, uint32_t n)
{
    return rng_below_from(r, n, 0);
}

/* One roll of a fair die with `faces` faces: 1..faces (a script gives the rolls). */
static inline int rng_die(rng *r, int faces)
{
    return 1 + (int)rng_below_from(r, (uint32_t)faces, 1);
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double rng_uniform(rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Shuffles n ints in place (Fisher-Yates), consuming n-1 draws. */
void rng_shuffle_int(rng *r, int *a, int n);

/* Parses a seed written in decimal (0 .. 2^64-1). Returns 0 on success, -1 on bad text. */
int rng_parse_seed(const char *text, uint64_t *out);

#endif
