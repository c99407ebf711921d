/* test_sha256.c — SHA-256 against FIPS 180-4's examples and HMAC-SHA-256 against RFC 4231's
 * test cases (the published digests; also what `openssl dgst -sha256` gives). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dist/sha256.h"

/* The digest as 64 lowercase hex digits. */
static void hex(const unsigned char d[SHA256_BYTES], char out[2 * SHA256_BYTES + 1])
{
    for (int i = 0; i < SHA256_BYTES; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void digest_of(const void *p, size_t n, char out[2 * SHA256_BYTES + 1])
{
    sha256 s;
    unsigned char d[SHA256_BYTES];
    sha256_init(&s);
    sha256_add(&s, p, n);
    sha256_end(&s, d);
    hex(d, out);
}

TEST(sha256_fips_180_examples)
{
    char h[65];
    digest_of("abc", 3, h);
    CHECK_STR(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    digest_of("", 0, h);
    CHECK_STR(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* 448 bits */
    digest_of(two, strlen(two), h);
    CHECK_STR(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* a million 'a', added in uneven pieces: the buffering across blocks */
    sha256 s;
    unsigned char d[SHA256_BYTES];
    char a[1000];
    memset(a, 'a', sizeof a);
    sha256_init(&s);
    for (size_t done = 0, step = 1; done < 1000000; step = step % 997 + 1) {
        size_t n = 1000000 - done < step ? 1000000 - done : step;
        sha256_add(&s, a, n);
        done += n;
    }
    sha256_end(&s, d);
    hex(d, h);
    CHECK_STR(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(hmac_sha256_rfc_4231_cases)
{
    unsigned char key[131], d[SHA256_BYTES];
    char h[65];
    memset(key, 0x0b, 20); /* case 1 */
    hmac_sha256(key, 20, "Hi There", 8, d);
    hex(d, h);
    CHECK_STR(h, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    const char *q = "what do ya want for nothing?"; /* case 2 */
    hmac_sha256("Jefe", 4, q, strlen(q), d);
    hex(d, h);
    CHECK_STR(h, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    memset(key, 0xaa, sizeof key); /* case 6: a key longer than a block is hashed first */
    const char *t = "Test Using Larger Than Block-Size Key - Hash Key First";
    hmac_sha256(key, sizeof key, t, strlen(t), d);
    hex(d, h);
    CHECK_STR(h, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}
