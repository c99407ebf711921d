/* test_core.c — the shared machinery: random streams, rulesets, accumulators. */
#include <string.h>

#include "check.h"
#include "core/recorder.h"
#include "core/rng.h"
#include "config/rules.h"

TEST(rng_streams_are_pure_and_distinct)
{
    CHECK(rng_derive(1, 2, 0) == rng_derive(1, 2, 0));
    CHECK(rng_derive(1, 2, 0) != rng_derive(1, 2, 1));
    CHECK(rng_derive(1, 2, 0) != rng_derive(1, 3, 0));
    CHECK(rng_derive(1, 2, 0) != rng_derive(2, 2, 0));
}

/* The reference test vector of SipHash-2-4 for a 16-byte message: key and message the bytes
 * 00..0f, output bytes db 9b c2 57 7f cc 2a 3f (read little-endian). */
TEST(rng_siphash_matches_the_reference_vector)
{
    CHECK(rng_siphash(0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL, 0x0706050403020100ULL,
                      0x0f0e0d0c0b0a0908ULL) == 0x3f2acc7f57c29bdbULL);
}

/* A seat's stream is keyed by the master seed: the chance stream of a game is unchanged by
 * the derivation of the seat streams, and two masters give unrelated seat seeds. */
TEST(rng_seat_streams_are_keyed_by_the_master)
{
    CHECK(rng_derive(7, 3, RNG_STREAM_SEAT(0)) != rng_derive(8, 3, RNG_STREAM_SEAT(0)));
    CHECK(rng_derive(7, 3, RNG_STREAM_SEAT(0)) != rng_derive(7, 3, RNG_STREAM_SEAT(1)));
    CHECK(rng_derive(7, 3, RNG_STREAM_SEAT(0)) != rng_derive(7, 4, RNG_STREAM_SEAT(0)));
    uint64_t k = 7;
    uint64_t k1 = rng_splitmix64(&k);
    CHECK(rng_derive(7, 3, RNG_STREAM_SEAT(2)) == rng_siphash(7, k1, 3, RNG_STREAM_SEAT(2)));
}

/* The seat streams seeded from a game's shared key (the runner's way) are the streams of
 * rng_seed_stream, and both are the whole SipHash of the master, index and stream. */
TEST(rng_seat_key_gives_the_seat_streams)
{
    const uint64_t masters[] = {0, 1, 7, 0x8000000000000000ULL, ~0ULL};
    const uint64_t games[] = {0, 1, 3, 123456789, ~0ULL};
    for (int m = 0; m < 5; m++)
        for (int g = 0; g < 5; g++) {
            rng_seat_key key;
            rng_seat_key_init(&key, masters[m], games[g]);
            for (int s = 0; s < GAME_MAX_SEATS; s++) {
                rng a, b, c;
                rng_seed_seat(&a, &key, RNG_STREAM_SEAT(s));
                rng_seed_stream(&b, masters[m], games[g], RNG_STREAM_SEAT(s));
                uint64_t x = masters[m];
                uint64_t k1 = rng_splitmix64(&x);
                rng_seed(&c, rng_siphash(masters[m], k1, games[g], RNG_STREAM_SEAT(s)));
                CHECK(memcmp(a.s, b.s, sizeof a.s) == 0 && a.script == NULL);
                CHECK(memcmp(a.s, c.s, sizeof a.s) == 0);
            }
        }
}

/* rng_below reads a script only on the rejection's rare branch: with a seeded state it draws
 * as Lemire's method written out in full does, and with a script it gives the script's values
 * (rng_die's checked against 1..faces, rng_below's against 0..n-1). */
TEST(rng_below_draws_as_lemire_and_reads_scripts)
{
    rng r, ref;
    rng_seed(&r, 99);
    ref = r;
    const uint32_t ns[] = {1, 2, 3, 6, 7, 36, 1000, 0x80000001u, 0xffffffffu};
    for (int i = 0; i < 4000; i++) {
        uint32_t n = ns[i % 9];
        uint64_t m = (uint64_t)(uint32_t)(rng_next(&ref) >> 32) * n;
        while ((uint32_t)m < (uint32_t)(-n) % n)
            m = (uint64_t)(uint32_t)(rng_next(&ref) >> 32) * n;
        CHECK(rng_below(&r, n) == (uint32_t)(m >> 32));
    }
    CHECK(memcmp(r.s, ref.s, sizeof r.s) == 0);
    const int script[] = {6, 1, 0, 4, 3};
    rng_script(&r, script, 5);
    CHECK_INT(rng_die(&r, 6), 6);
    CHECK_INT(rng_die(&r, 6), 1);
    CHECK_INT((int)rng_below(&r, 2), 0);
    CHECK_INT((int)rng_below(&r, 5), 4);
    CHECK_INT(rng_die(&r, 3), 3);
    CHECK_INT(r.script_pos, 5);
    CHECK(rng_next(&r) == 0);
}

/* ---- the attack the seat streams resist ---- */

/* The inverse of x -> x * m modulo 2^64 for odd m (Newton's iteration). */
static uint64_t mul_inverse(uint64_t m)
{
    uint64_t inv = m;
    for (int i = 0; i < 6; i++)
        inv *= 2 - m * inv;
    return inv;
}

/* The inverse of x -> x ^ (x >> k). */
static uint64_t unshift(uint64_t z, int k)
{
    uint64_t x = z;
    for (int i = 0; i < 64 / k + 1; i++)
        x = z ^ (x >> k);
    return x;
}

/* The value of splitmix64's state after the step that returned z (its output is a bijection). */
static uint64_t splitmix_state(uint64_t z)
{
    z = unshift(z, 31) * mul_inverse(0x94d049bb133111ebULL);
    z = unshift(z, 27) * mul_inverse(0xbf58476d1ce4e5b9ULL);
    return unshift(z, 30);
}

/* What a cheating bot of stream `stream` would do with its generator: work back to its seed,
 * then, if the streams of a game were all splitmix mixes of one hidden value (as they were
 * before the seat streams were keyed), rebuild the seed of the chance stream. */
static uint64_t guess_chance_seed(const rng *mine, unsigned stream)
{
    uint64_t seed = splitmix_state(mine->s[0]) - 0x9e3779b97f4a7c15ULL;
    uint64_t h = (splitmix_state(seed) - 0x9e3779b97f4a7c15ULL) ^
                 ((uint64_t)stream * 0x9fb21c651e98df25ULL + 0x632be59bd9b4e019ULL);
    uint64_t x = h ^ 0x632be59bd9b4e019ULL;
    return rng_splitmix64(&x);
}

/* The seat streams' seeds before they were keyed: the chance stream's mix, other stream. */
static uint64_t unkeyed_derive(uint64_t master, uint64_t game_index, unsigned stream)
{
    uint64_t x = master;
    uint64_t h = rng_splitmix64(&x);
    x = h ^ (game_index * 0xd1342543de82ef95ULL);
    h = rng_splitmix64(&x);
    x = h ^ ((uint64_t)stream * 0x9fb21c651e98df25ULL + 0x632be59bd9b4e019ULL);
    return rng_splitmix64(&x);
}

/* "No bot can rebuild the shuffle from its own generator": the attack above recovers the
 * chance seed from an unkeyed seat stream every time (so it is a real attack), and never from
 * the keyed streams the runner uses. */
TEST(rng_seat_stream_does_not_reveal_the_chance_stream)
{
    int broken = 0, resisted = 0;
    for (uint64_t master = 1; master <= 20; master++)
        for (uint64_t g = 0; g < 10; g++)
            for (unsigned k = 0; k < 4; k++) {
                rng r;
                uint64_t chance = rng_derive(master, g, RNG_STREAM_CHANCE);
                CHECK(chance == unkeyed_derive(master, g, RNG_STREAM_CHANCE));
                rng_seed(&r, unkeyed_derive(master, g, RNG_STREAM_SEAT(k)));
                broken += guess_chance_seed(&r, RNG_STREAM_SEAT(k)) == chance;
                rng_seed_stream(&r, master, g, RNG_STREAM_SEAT(k));
                resisted += guess_chance_seed(&r, RNG_STREAM_SEAT(k)) != chance;
            }
    CHECK_INT(broken, 800);
    CHECK_INT(resisted, 800);
}

TEST(rng_die_is_uniform_within_binomial_tolerance)
{
    rng r;
    rng_seed(&r, 42);
    enum { N = 600000 };
    long count[7] = {0};
    for (int i = 0; i < N; i++)
        count[rng_die(&r, 6)]++;
    /* each face ~ Binomial(N, 1/6): sd = sqrt(N/6*5/6) ~ 289; allow 5 sd */
    for (int f = 1; f <= 6; f++)
        CHECK_NEAR(count[f], N / 6.0, 5 * 289.0);
}

TEST(rng_script_replaces_dice)
{
    rng r;
    rng_seed(&r, 1);
    static const int script[] = {4, 5, 0};
    rng_script(&r, script, 3);
    CHECK_INT(rng_die(&r, 6), 4);
    CHECK_INT(rng_die(&r, 6), 5);
    CHECK_INT(rng_below(&r, 3), 0);
}

TEST(rules_set_and_merge)
{
    char err[256];
    cJSON *root = rules_parse("{\"a\": 1, \"b\": {\"c\": [1, 2, 3]}}", "x", err, sizeof err);
    CHECK(root != NULL);
    CHECK_INT(rules_set(NULL, root, "b.c.2=7", err, sizeof err), 0); /* elements from 1 */
    CHECK_INT(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "b"), "c"), 1)
                  ->valueint,
              7);
    CHECK_INT(rules_set(NULL, root, "b.c.9=7", err, sizeof err), -1);
    CHECK_INT(rules_set(NULL, root, "b.c.0=7", err, sizeof err), -1);
    CHECK_STR(err, "--set 'b.c.0': no element 0 in that array (its elements are 1 to 3)");
    CHECK_INT(rules_set(NULL, root, "zz.q=1", err, sizeof err), -1);
    CHECK(strstr(err, "zz") != NULL);
    cJSON *over = rules_parse("{\"a\": 5}", "y", err, sizeof err);
    rules_merge(root, over);
    long a = 0;
    CHECK_INT(rules_int(root, "", "a", 0, 10, &a, err, sizeof err), 0);
    CHECK_INT(a, 5);
    CHECK_INT(rules_int(root, "", "a", 0, 4, &a, err, sizeof err), -1);
    CHECK_STR(err, "ruleset key 'a': expected an integer in 0..4");
    static const char *const keys[] = {"a", NULL};
    CHECK_INT(rules_only_keys(root, "", keys, err, sizeof err), -1);
    CHECK_STR(err, "ruleset key 'b': unknown key");
    cJSON_Delete(over);
    cJSON_Delete(root);
    CHECK(rules_parse("{\"a\": }", "f.json", err, sizeof err) == NULL);
    CHECK_STR(err, "f.json: malformed JSON at line 1, column 7");
}

TEST(acc_merge_is_exact_in_any_order)
{
    acc a = {0}, b = {0}, c = {0}, d = {0};
    for (int i = 0; i < 1000; i++)
        acc_add(i % 2 ? &a : &b, i * 37 % 101 - 50, 1 + i % 3);
    acc_merge(&c, &a);
    acc_merge(&c, &b);
    acc_merge(&d, &b);
    acc_merge(&d, &a);
    CHECK(c.n == d.n && c.sum == d.sum && c.sumsq == d.sumsq && c.min == d.min);
    CHECK(c.lo + c.len >= c.max && d.count != NULL);
    int64_t tot = 0;
    for (int64_t i = 0; i < c.len; i++)
        tot += c.count[i];
    CHECK_INT(tot, c.n);
    acc_free(&a);
    acc_free(&b);
    acc_free(&c);
    acc_free(&d);
}

TEST(rules_parse_rejects_a_key_given_twice)
{
    char err[256];
    cJSON *root = rules_parse("{\"a\": 1, \"a\": 2}", "f.json", err, sizeof err);
    CHECK(root == NULL);
    CHECK_STR(err, "f.json: key 'a' is given twice in one object");
    root = rules_parse("{\"b\": [{\"x\": 1, \"y\": 2, \"x\": 3}]}", "f.json", err, sizeof err);
    CHECK(root == NULL);
    CHECK_STR(err, "f.json: key 'x' is given twice in one object");
    /* the same key in two different objects is fine */
    root = rules_parse("{\"a\": {\"x\": 1}, \"b\": {\"x\": 1}}", "f.json", err, sizeof err);
    CHECK(root != NULL);
    CHECK_INT(rules_set(NULL, root, "a={\"q\": 1, \"q\": 2}", err, sizeof err), -1);
    CHECK_STR(err, "--set 'a': key 'q' is given twice in one object");
    cJSON_Delete(root);
}

TEST(rules_set_rejects_empty_key_parts)
{
    char err[256];
    cJSON *root = rules_parse("{\"a\": 1, \"b\": {\"c\": 2}}", "x", err, sizeof err);
    CHECK(root != NULL);
    static const char *const bad[] = {"a.=3", ".a=3", "b..c=3", ".=3", "b.c.=3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT(rules_set(NULL, root, bad[i], err, sizeof err), -1);
        CHECK(strstr(err, "empty key between dots") != NULL);
    }
    CHECK_INT(rules_set(NULL, root, "b.c=3", err, sizeof err), 0);
    cJSON_Delete(root);
}
