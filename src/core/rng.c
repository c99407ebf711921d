/* rng.c — seeding and stream derivation for the xoshiro256** generator of rng.h. */
#include "rng.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

uint64_t rng_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(rng *r, uint64_t seed)
{
    uint64_t x = seed;
    r->script = NULL;
    r->script_len = r->script_pos = 0;
    for (int i = 0; i < 4; i++)
        r->s[i] = rng_splitmix64(&x);
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
        r->s[0] = 1; /* splitmix64 never yields four zeros, but the state must not be all zero */
}

uint64_t rng_derive(uint64_t master, uint64_t game_index, unsigned stream)
{
    /* Three rounds of splitmix64 mixing, one input folded in per round, so that nearby
     * (master, index, stream) triples give unrelated seeds. */
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
