/* rng.c — seeding and stream derivation for the xoshiro256** generator of rng.h. */
#include "core/rng.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/hot.h"

uint64_t rng_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* rng_seed's body, inline where a seat's stream is seeded. */
static GIOCHI_INLINE void seed_state(rng *r, uint64_t seed)
{
    uint64_t x = seed;
    r->script = NULL;
    r->script_len = r->script_pos = 0;
    for (int i = 0; i < 4; i++)
        r->s[i] = rng_splitmix64(&x);
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
        r->s[0] = 1; /* splitmix64 never yields four zeros, but the state must not be all zero */
}

void rng_seed(rng *r, uint64_t seed)
{
    seed_state(r, seed);
}

/* One SipRound of SipHash on v[0..3]; always inlined (eight per seat stream of every game). */
static GIOCHI_INLINE void sipround(uint64_t *v)
{
#define ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
    v[0] += v[1];
    v[1] = ROTL(v[1], 13) ^ v[0];
    v[0] = ROTL(v[0], 32);
    v[2] += v[3];
    v[3] = ROTL(v[3], 16) ^ v[2];
    v[0] += v[3];
    v[3] = ROTL(v[3], 21) ^ v[0];
    v[2] += v[1];
    v[1] = ROTL(v[1], 17) ^ v[2];
    v[2] = ROTL(v[2], 32);
#undef ROTL
}

/* SipHash-2-4's state under the key k0, k1, before any message block. */
static GIOCHI_INLINE void sip_init(uint64_t *v, uint64_t k0, uint64_t k1)
{
    v[0] = k0 ^ 0x736f6d6570736575ULL;
    v[1] = k1 ^ 0x646f72616e646f6dULL;
    v[2] = k0 ^ 0x6c7967656e657261ULL;
    v[3] = k1 ^ 0x7465646279746573ULL;
}

/* Takes the message block m into SipHash's state v (two rounds: SipHash-2-4). */
static GIOCHI_INLINE void sip_block(uint64_t *v, uint64_t m)
{
    v[3] ^= m;
    sipround(v);
    sipround(v);
    v[0] ^= m;
}

/* The hash of a 16-byte message whose first block the state `from` has taken in, given the
 * second block m1: that block, the length block and the four final rounds. */
static GIOCHI_INLINE uint64_t sip_last(const uint64_t *from, uint64_t m1)
{
    uint64_t v[4] = {from[0], from[1], from[2], from[3]};
    sip_block(v, m1);
    sip_block(v, (uint64_t)16 << 56); /* the last block: the length only */
    v[2] ^= 0xff;
    for (int i = 0; i < 4; i++)
        sipround(v);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* SipHash-2-4 of a 16-byte message (contract in rng.h). */
uint64_t rng_siphash(uint64_t k0, uint64_t k1, uint64_t m0, uint64_t m1)
{
    uint64_t v[4];
    sip_init(v, k0, k1);
    sip_block(v, m0);
    return sip_last(v, m1);
}

void rng_seat_key_init(rng_seat_key *k, uint64_t master, uint64_t game_index)
{
    /* the key: the master seed and its splitmix64 successor */
    uint64_t x = master;
    uint64_t k1 = rng_splitmix64(&x);
    sip_init(k->v, master, k1);
    sip_block(k->v, game_index);
}

void rng_seed_seat(rng *r, const rng_seat_key *k, unsigned stream)
{
    seed_state(r, sip_last(k->v, stream));
}

uint64_t rng_derive(uint64_t master, uint64_t game_index, unsigned stream)
{
    if (stream != RNG_STREAM_CHANCE) {
        /* A bot's stream: a one-way function of the master seed (SipHash keyed by it), so
         * that a bot which inverts its own generator back to its seed learns nothing of the
         * master seed, hence nothing of the chance stream that shuffled the deal. */
        rng_seat_key k;
        rng_seat_key_init(&k, master, game_index);
        return sip_last(k.v, stream);
    }
    /* The chance stream: three rounds of splitmix64 mixing, one input folded in per round,
     * so that nearby (master, index) pairs give unrelated seeds. */
    uint64_t x = master;
    uint64_t h = rng_splitmix64(&x);
    x = h ^ (game_index * 0xd1342543de82ef95ULL);
    h = rng_splitmix64(&x);
    x = h ^ ((uint64_t)stream * 0x9fb21c651e98df25ULL + 0x632be59bd9b4e019ULL);
    return rng_splitmix64(&x);
}

void rng_seed_stream(rng *r, uint64_t master, uint64_t game_index, unsigned stream)
{
    rng_seed(r, rng_derive(master, game_index, stream));
}

void rng_shuffle_int(rng *r, int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)i + 1);
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

uint32_t rng_below_rare(rng *r, uint32_t n, int base, uint64_t m)
{
    if (r->script != NULL)
        return (uint32_t)(rng_scripted(r, base, base + (int)n - 1) - base);
    uint32_t threshold = (uint32_t)(-n) % n;
    while ((uint32_t)m < threshold)
        m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
    return (uint32_t)(m >> 32);
}

int rng_parse_seed(const char *text, uint64_t *out)
{
    if (text == NULL || !isdigit((unsigned char)text[0]))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = (uint64_t)v;
    return 0;
}

void rng_script(rng *r, const int *values, int n)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = 0; /* every draw then reaches the script (see rng_below_from) */
    r->script = values;
    r->script_len = n;
    r->script_pos = 0;
}

int rng_scripted(rng *r, int lo, int hi)
{
    if (r->script_pos >= r->script_len) {
        fprintf(stderr, "rng script exhausted after %d values\n", r->script_len);
        abort();
    }
    int v = r->script[r->script_pos++];
    if (v < lo || v > hi) {
        fprintf(stderr, "rng script value %d (#%d) outside %d..%d\n", v, r->script_pos, lo, hi);
        abort();
    }
    return v;
}
