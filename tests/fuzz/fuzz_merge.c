/* fuzz_merge.c — libFuzzer target over what --merge reads: a partial-result file from anyone.
 * Built and run by `make fuzz` beside fuzz_rules.c, from the corpus of real parts in
 * tests/fuzz/corpus-merge/ (every game, a few seat counts, and experiments' parts).
 *
 * Input: a whole part file. Its last 8 bytes are replaced by the checksum of the rest, so that
 * a mutation is read as a forged part with a valid checksum would be: past the checksum, into
 * the checks of sense. The
 * file is read as --merge reads it (partial_read_stream, partial_identity_check); a plain run's
 * batches are read for the game and seat count its identity names (partial_get_batch), each
 * merged twice into a total (partial_merge: as two shards), and the total's report built
 * (report_build: every figure the report derives, histograms and quantiles included) and
 * written as text. An experiment's part (its blocks need the experiment engine) is read as far
 * as its identity.
 * A finding is a crash, a sanitizer report (UBSan aborts on signed overflow), a hang or an
 * excess of memory (libFuzzer's -timeout and -rss_limit_mb), or one of these failing (abort
 * with a message):
 *   - every refusal has a message;
 *   - an accepted total makes sense: win shares within [0, 1], a length observed once a game,
 *     tied games and games without a winner at most the games. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "dist/partial.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_merge: %s: %s\n", what, detail);
    abort();
}

static void said(const char *err)
{
    if (err[0] == '\0')
        fail("a refusal without a message", "");
}

/* FNV-1a, 64 bits, as the part file's checksum (partial.c). */
static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* The total of a plain run's batches makes sense. */
static void check_total(const run_config *cfg, const run_result *t)
{
    if (t->length.n != (int64_t)t->games || (uint64_t)t->tied_games > t->games ||
        (uint64_t)t->no_winner > t->games)
        fail("an accepted total", "games, length or ties that do not agree");
    for (int k = 0; k < cfg->nseats; k++)
        if (t->win_units[k] < 0 ||
            (unsigned __int128)(uint64_t)t->win_units[k] > (unsigned __int128)t->games * RUN_WIN_UNIT)
            fail("an accepted total", "a win share outside [0, 1]");
}

/* Reads every batch of a plain run of game g with nseats players from the payload. */
static void merge_batches(const game_type *g, int nseats, const unsigned char *p, size_t len)
{
    run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.game = g;
    cfg.nseats = nseats;
    const unsigned char *at = p, *end = p + len;
    char err[512];
    for (int batch = 0; at < end && batch < 4; batch++) {
        uint64_t first, runs;
        run_result one, total;
        err[0] = '\0';
        if (partial_get_batch(&at, end, &cfg, &first, &runs, &one, err, sizeof err) != 0) {
            said(err);
            return;
        }
        run_result_init(&total, &cfg, false);
        int rc = partial_merge(&total, &one, nseats, err, sizeof err);
        if (rc == 0)
            rc = partial_merge(&total, &one, nseats, err, sizeof err);
        run_result_free(&one);
        if (rc != 0) {
            said(err);
            run_result_free(&total);
            return;
        }
        check_total(&cfg, &total);
        cfg.runs = runs;
        cfg.first = first;
        report_input in = {.cfg = &cfg, .res = &total};
        for (int k = 0; k < nseats; k++)
            in.bot_spec[k] = "random";
        cJSON *r = report_build(&in);
        FILE *sink = fopen("/dev/null", "w");
        if (r != NULL && sink != NULL)
            report_write(sink, r, REPORT_TEXT);
        if (sink != NULL)
            fclose(sink);
        cJSON_Delete(r);
        run_result_free(&total);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *file = malloc(size ? size : 1);
    if (file == NULL)
        return 0;
    memcpy(file, data, size);
    if (size > 8) { /* a forger recomputes the checksum */
        uint64_t h = fnv1a(file, size - 8);
        for (int i = 0; i < 8; i++)
            file[size - 8 + i] = (unsigned char)(h >> (8 * i));
    }
    FILE *f = fmemopen(file, size ? size : 1, "rb");
    if (f == NULL) {
        free(file);
        return 0;
    }
    cJSON *id = NULL;
    unsigned char *payload = NULL;
    size_t len = 0;
    char err[512] = "";
    int rc = size ? partial_read_stream(f, "fuzz.part", &id, &payload, &len, err, sizeof err) : -1;
    fclose(f);
    free(file);
    if (rc != 0) {
        if (size)
            said(err);
        return 0;
    }
    uint64_t index, count;
    err[0] = '\0';
    if (partial_identity_check(id, "fuzz.part", GIOCHI_VERSION, 1 << 20, &index, &count, err,
                               sizeof err) != 0) {
        said(err);
    } else {
        const cJSON *game = cJSON_GetObjectItemCaseSensitive(id, "game");
        const cJSON *players = cJSON_GetObjectItemCaseSensitive(id, "players");
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(id, "experiment");
        const game_type *g = cJSON_IsString(game) ? registry_game(game->valuestring) : NULL;
        if (g != NULL && cJSON_IsNull(x) && cJSON_IsNumber(players) &&
            players->valuedouble >= g->min_seats && players->valuedouble <= g->max_seats)
            merge_batches(g, (int)players->valuedouble, payload, len);
    }
    cJSON_Delete(id);
    free(payload);
    return 0;
}
