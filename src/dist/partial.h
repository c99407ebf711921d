/* partial.h — a run's exact accumulators as bytes, so that runs split over processes add up
 * to the very report one process would write.
 *
 * Every figure a run accumulates is an integer (counts, 128-bit sums, histograms), so the
 * parts of a run played anywhere merge exactly, in any order. This module writes a
 * run_result as portable bytes (little-endian, independent of the machine), reads it back,
 * and wraps it in a self-checking file: the shard files of `--shard=I/N` that `--merge`
 * reads, and the messages MPI ranks exchange. */
#ifndef GIOCHI_PARTIAL_H
#define GIOCHI_PARTIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/runner.h"

/* A growing byte buffer. Zero-initialise; free `p` when done. `oom` is set (and nothing more
 * is written) if memory ran out. */
typedef struct pbuf {
    unsigned char *p;
    size_t len, cap;
    bool oom;
} pbuf;

/* The format of the bytes below; a reader refuses any other. 2: a shard's file may hold an
 * experiment's block sums (experiment.h) instead of a run's batches. */
enum { PARTIAL_FORMAT = 2 };

/* Appends an unsigned 64-bit or a signed 128-bit integer, little-endian. */
void partial_put_u64(pbuf *b, uint64_t v);
void partial_put_i128(pbuf *b, __int128 v);

/* Reads what partial_put_u64 and partial_put_i128 wrote from [p, end), advancing p. Reading
 * past end returns 0 and sets bad (every later read then fails too). */
typedef struct preader {
    const unsigned char *p, *end;
    bool bad;
} preader;
uint64_t partial_get_u64(preader *r);
__int128 partial_get_i128(preader *r);

/* What a result read from outside may hold (see partial_get_result): values within
 * +-PARTIAL_VALUE_LIMIT (no metric of any game comes near: the figures of a report are sums
 * and bins of them), histograms spanning at most PARTIAL_MAX_CELLS values in all (64 MiB of
 * counts; the largest real run measured spans far fewer, see the test), a payload of at most
 * PARTIAL_MAX_PAYLOAD bytes and an identity line of at most PARTIAL_MAX_IDENTITY. */
#define PARTIAL_VALUE_LIMIT ((int64_t)1 << 62)
enum {
    PARTIAL_MAX_CELLS = 1 << 23,
    PARTIAL_MAX_IDENTITY = 1 << 20,
};
#define PARTIAL_MAX_PAYLOAD ((uint64_t)1 << 30)

/* Appends res (a result of a run of cfg's game and seat count) to b. */
void partial_put_result(pbuf *b, const run_config *cfg, const run_result *res);

/* Reads one result written by partial_put_result for cfg's game and seat count from [*p, end) into
 * res (initialised here; free with run_result_free) and advances *p. The bytes are input from
 * anywhere, so beyond their structure the reader checks that they could have been played: every
 * count an int64; tied games and games without a winner, each seat's wins (alone plus shared) at
 * most the games; the end counts adding up to the games; what the game's limits (game_limits,
 * under cfg->rules when given) allow: the lengths within its longest game, each seat's choices,
 * each metric slot's trials or observations at most one, one per player or its repeats a game, all
 * in 128-bit or checked arithmetic; the seats' wins adding up to the games won, in whole and
 * shared units; game length and scores observed once a game, ranks at most once and within the
 * seats; each decision kind's other choices at most its choices; a rate's hits at most its trials;
 * each mean's extremes within +-PARTIAL_VALUE_LIMIT, its histogram as wide as its extremes with
 * every cell in order and holding observations, their counts, sum and sum of squares those of the
 * accumulator (or no histogram only when the extremes are too far apart for one, and then sums
 * that such values allow); no figure where the game records none; histograms of PARTIAL_MAX_CELLS
 * values at most. Returns 0, or -1 with a one-line message: "truncated or malformed", or "does not
 * make sense: FIELD: what is wrong" naming the first figure that fails. */
int partial_get_result(const unsigned char **p, const unsigned char *end, const run_config *cfg,
                       run_result *res, char *err, size_t errlen);

/* Appends one batch of a run: the range of games it covered (cfg->first, cfg->runs), then its
 * result. A run is one batch, or several (settings of a sweep, blocks of a stopping rule). */
void partial_put_batch(pbuf *b, const run_config *cfg, const run_result *res);

/* Reads one batch written by partial_put_batch: its range into *first and *runs and its
 * result into res (free with run_result_free), checked as partial_get_result does and with
 * at most *runs games. Returns 0, or -1 with a message. */
int partial_get_batch(const unsigned char **p, const unsigned char *end, const run_config *cfg,
                      uint64_t *first, uint64_t *runs, run_result *res, char *err,
                      size_t errlen);

/* run_result_merge for results read from outside: merges src into dst unless the merged
 * histograms would span more than PARTIAL_MAX_CELLS values, or some count or sum of the total
 * would not fit its integer. Returns 0, or -1 with a message (dst is then to be discarded). */
int partial_merge(run_result *dst, const run_result *src, int nseats, char *err, size_t errlen);

/* Authenticity. The checksum catches damage, not forgery; when the environment variable
 * GIOCHI_PART_KEY names a key file (PARTIAL_KEY_MIN to PARTIAL_KEY_MAX bytes, e.g. from
 * `head -c 32 /dev/urandom`), partial_write_file adds "mac": "hmac-sha256" to the identity
 * and an HMAC-SHA-256 of the file under the key after the checksum, and partial_read_file
 * refuses a part without one or whose MAC is not the key's. Without the variable, a MAC is
 * read past unchecked. partial_key loads the key: returns 1 with it in key and *klen, 0 if the
 * variable is unset or empty, or -1 with a one-line message (unreadable, too short or long). */
enum { PARTIAL_KEY_MIN = 16, PARTIAL_KEY_MAX = 4096 };
int partial_key(unsigned char key[PARTIAL_KEY_MAX], size_t *klen, char *err, size_t errlen);

/* Writes a partial-result file to f: a first line naming the format, the identity (a JSON
 * object, one line), the payload bytes, and an 8-byte checksum of everything before it (then,
 * with GIOCHI_PART_KEY set, the MAC: see above). Returns 0, or -1 if a write failed (the
 * caller reports errno; EINVAL: the key file could not be loaded, see partial_key). */
int partial_write_file(FILE *f, const cJSON *identity, const pbuf *payload);

/* Reads a partial-result file, in bounded steps: the first line (refused at once if it is not
 * the format's), the identity (at most PARTIAL_MAX_IDENTITY bytes), the payload's length
 * (refused before the payload is read if beyond what the identity allows: for a plain run of
 * a known game, one result of histograms within PARTIAL_MAX_CELLS; otherwise
 * PARTIAL_MAX_PAYLOAD), the payload, the checksum, and the end of the file. Returns 0 with
 * the identity (caller frees with cJSON_Delete) and a copy of the payload (caller frees
 * *payload), or -1 with a one-line message naming path: unreadable, not a partial file,
 * another format version, too long, truncated or corrupted (checksum), or with
 * GIOCHI_PART_KEY set, without a MAC or with another key's. The identity returned has no
 * "mac" (signed and unsigned parts of one run compare equal). */
int partial_read_file(const char *path, cJSON **identity, unsigned char **payload,
                      size_t *len, char *err, size_t errlen);
/* partial_read_file from an open stream f (not closed here), its messages naming path. */
int partial_read_stream(FILE *f, const char *path, cJSON **identity, unsigned char **payload,
                        size_t *len, char *err, size_t errlen);

/* Checks the identity of a partial file read from path: written by this version of
 * giochi-sim (`version`, here GIOCHI_VERSION) in PARTIAL_FORMAT, with a shard index below a
 * shard count of at most max_shards. Fills *index and *count and removes "shard" from id, so
 * that the identities of the shards of one run compare equal. Returns 0, or -1 with a
 * one-line message naming path. */
int partial_identity_check(cJSON *id, const char *path, const char *version,
                           uint64_t max_shards, uint64_t *index, uint64_t *count, char *err,
                           size_t errlen);

/* The games [*first, *first + *count) of shard `index` (0-based) of `shards` over `runs`
 * games: contiguous, in order, covering every game once, sizes differing by at most one. */
void partial_shard_range(uint64_t runs, uint64_t index, uint64_t shards, uint64_t *first,
                         uint64_t *count);

#endif
