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

/* Appends res (a result of a run of cfg's game and seat count) to b. */
void partial_put_result(pbuf *b, const run_config *cfg, const run_result *res);

/* Reads one result written by partial_put_result for cfg's game and seat count from
 * [*p, end) into res (initialised here; free with run_result_free) and advances *p.
 * Returns 0, or -1 with a one-line message if the bytes are truncated or do not fit. */
int partial_get_result(const unsigned char **p, const unsigned char *end, const run_config *cfg,
                       run_result *res, char *err, size_t errlen);

/* Appends one batch of a run: the range of games it covered (cfg->first, cfg->runs), then its
 * result. A run is one batch, or several (settings of a sweep, blocks of a stopping rule). */
void partial_put_batch(pbuf *b, const run_config *cfg, const run_result *res);

/* Reads one batch written by partial_put_batch: its range into *first and *runs and its
 * result into res (free with run_result_free). Returns 0, or -1 with a message. */
int partial_get_batch(const unsigned char **p, const unsigned char *end, const run_config *cfg,
                      uint64_t *first, uint64_t *runs, run_result *res, char *err,
                      size_t errlen);

/* Writes a partial-result file to f: a first line naming the format, the identity (a JSON
 * object, one line), the payload bytes, and an 8-byte checksum of everything before it.
 * Returns 0, or -1 if a write failed (the caller reports errno). */
int partial_write_file(FILE *f, const cJSON *identity, const pbuf *payload);

/* Reads a partial-result file. Returns 0 with the identity (caller frees with cJSON_Delete)
 * and a copy of the payload (caller frees *payload), or -1 with a one-line message naming
 * path: unreadable, not a partial file, another format version, truncated or corrupted
 * (checksum). */
int partial_read_file(const char *path, cJSON **identity, unsigned char **payload,
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
