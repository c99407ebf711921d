/* fuzz_merge.c — libFuzzer target over what --merge reads: a partial-result file from anyone.
 * Built and run by `make fuzz` beside fuzz_rules.c, from the corpus of real parts in
 * tests/fuzz/corpus-merge/ (every game, a few seat counts, and experiments' parts), and the
 * forged parts that once found undefined behaviour (*-ties-overflow.part: tied games and games
 * without a winner both 2^63 - 1, a plain run's and an experiment setting's tallies).
 *
 * Input: a whole part file. Its last 8 bytes are replaced by the checksum of the rest, so that
 * a mutation is read as a forged part with a valid checksum would be: past the checksum, into
 * the checks of sense. The
 * file is read as --merge reads it (partial_read_stream, partial_identity_check); a plain run's
 * batches are read for the game and seat count its identity names (partial_get_batch), each
 * merged twice into a total (partial_merge: as two shards), and the total's report built
 * (report_build: every figure the report derives, histograms and quantiles included) and
 * written as text. An experiment's part is merged as --merge merges it, alone (as shard 0 of
 * 1, whatever its identity says: the corpus holds whole-run parts), by the experiment engine
 * (experiment_run with its options from the identity, as cli/shard.c reads them; parts whose
 * bots run programs or ask a human are skipped), and its report written as text.
 * A finding is a crash, a sanitizer report (UBSan aborts on signed overflow), a hang or an
 * excess of memory (libFuzzer's -timeout and -rss_limit_mb), or one of these failing (abort
 * with a message):
 *   - every refusal has a message;
 *   - an accepted total makes sense: win shares within [0, 1], a length observed once a game,
 *     tied games and games without a winner at most the games;
 *   - an experiment's merge is accepted or refused as bad input (exit 2), never 4. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "dist/partial.h"
#include "experiment/experiment.h"
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

/* A string member of x, or NULL when it is null (false: neither). */
static bool text_or_null(const cJSON *x, const char *name, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, name);
    *out = cJSON_IsString(v) ? v->valuestring : NULL;
    return cJSON_IsString(v) || cJSON_IsNull(v);
}

/* Whether text names a bot that runs a program or asks a human (not to be run here). */
static bool foreign(const char *text)
{
    return text && (strstr(text, "program") || strstr(text, "human"));
}

/* Merges an experiment's part of game g (its identity id, its payload) as --merge would, as
 * the one shard of its run. */
static void merge_experiment(const game_type *g, const cJSON *id, const cJSON *x,
                             const unsigned char *payload, size_t len)
{
    const cJSON *sw = cJSON_GetObjectItemCaseSensitive(x, "sweeps");
    const cJSON *rot = cJSON_GetObjectItemCaseSensitive(x, "rotate_seats");
    const cJSON *sens = cJSON_GetObjectItemCaseSensitive(x, "sensitivity");
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(id, "seed");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(id, "runs");
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(id, "ruleset");
    if (!cJSON_IsArray(sw) || cJSON_GetArraySize(sw) > EXP_MAX_SWEEPS || !cJSON_IsBool(rot) ||
        !cJSON_IsBool(sens) || !cJSON_IsString(seed) || !cJSON_IsNumber(runs) ||
        runs->valuedouble < 1 || runs->valuedouble > 1e12 || !cJSON_IsObject(rs))
        return;
    const char *sweeps[EXP_MAX_SWEEPS], *players = NULL;
    int nsweeps = 0;
    const cJSON *one;
    cJSON_ArrayForEach(one, sw)
    {
        if (!cJSON_IsString(one) || foreign(one->valuestring))
            return;
        sweeps[nsweeps++] = one->valuestring;
    }
    exp_options o = {.game = g, .sweeps = sweeps, .nsweeps = nsweeps,
                     .rotate = cJSON_IsTrue(rot), .sensitivity = cJSON_IsTrue(sens),
                     .runs = (uint64_t)runs->valuedouble,
                     .seed = strtoull(seed->valuestring, NULL, 10), .threads = 1,
                     .format = REPORT_TEXT, .ruleset = rs, .part = 0, .parts = 1,
                     .nmerged = 1};
    if (!text_or_null(x, "bots", &o.bots) || !text_or_null(x, "players", &players) ||
        !text_or_null(x, "baseline", &o.baseline) || !text_or_null(x, "until", &o.until) ||
        !text_or_null(x, "metric", &o.metric) ||
        !text_or_null(x, "sensitivity_keys", &o.sensitivity_keys) || foreign(o.bots))
        return;
    if (players) {
        long n = strtol(players, NULL, 10);
        if (n < g->min_seats || n > g->max_seats)
            return;
        o.players = (int)n;
    }
    const unsigned char *parts[1] = {payload};
    size_t lens[1] = {len};
    const char *names[1] = {"fuzz.part"};
    o.merged = parts;
    o.merged_len = lens;
    o.merged_names = names;
    FILE *sink = fopen("/dev/null", "w");
    if (sink == NULL)
        return;
    char err[512] = "";
    int rc = experiment_run(&o, sink, err, sizeof err);
    fclose(sink);
    if (rc != 0)
        said(err);
    if (rc != 0 && rc != 2)
        fail("an experiment's merge", err);
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
        else if (g != NULL && cJSON_IsObject(x))
            merge_experiment(g, id, x, payload, len);
    }
    cJSON_Delete(id);
    free(payload);
    return 0;
}
