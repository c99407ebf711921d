/* sha256.h — SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104), for the authenticity of
 * partial files (partial.h): small, dependency-free, checked against the published vectors. */
#ifndef GIOCHI_SHA256_H
#define GIOCHI_SHA256_H

#include <stddef.h>
#include <stdint.h>

enum { SHA256_BYTES = 32, SHA256_BLOCK = 64 };

/* A hash under way: sha256_init, then sha256_add any number of times, then sha256_end. */
typedef struct sha256 {
    uint32_t h[8];
    uint64_t bytes;                /* added so far */
    unsigned char buf[SHA256_BLOCK];
    size_t used;                   /* bytes of buf waiting for a whole block */
} sha256;

void sha256_init(sha256 *s);
void sha256_add(sha256 *s, const void *data, size_t n);
/* Writes the digest of everything added into out and leaves s to be initialised again. */
void sha256_end(sha256 *s, unsigned char out[SHA256_BYTES]);

/* HMAC-SHA-256 of the n bytes at data under the key of klen bytes (any length) into out. */
void hmac_sha256(const void *key, size_t klen, const void *data, size_t n,
                 unsigned char out[SHA256_BYTES]);

#endif
