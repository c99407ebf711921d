/* test_partial.c — run results written as bytes and read back, shard ranges, and shards of a
 * run merged into the report of the whole run (every game, a few seat counts). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "dist/partial.h"
#include "experiment/experiment.h"
#include "core/registry.h"
#include "report/report.h"
#include "config/rules.h"

/* The report of res as JSON text without its "run" object (caller frees). */
static char *report_text(const run_config *cfg, const run_result *res, const cJSON *ruleset)
{
    report_input in = {.cfg = cfg, .res = res, .ruleset = ruleset};
    for (int k = 0; k < cfg->nseats; k++)
        in.bot_spec[k] = cfg->seat[k].bot->name;
    cJSON *r = report_build(&in);
    cJSON_DeleteItemFromObject(r, "run");
    char *text = cJSON_Print(r);
    cJSON_Delete(r);
    return text;
}

/* A run of game g with its default bot at every seat; rules and ruleset owned by the caller. */
static bool setup(const game_type *g, int nseats, uint64_t runs, run_config *cfg, void **rules,
                  cJSON **ruleset)
{
    char err[256];
    memset(cfg, 0, sizeof *cfg);
    *rules = rules_effective(g, NULL, NULL, 0, ruleset, err, sizeof err);
    if (*rules == NULL)
        return false;
    cfg->game = g;
    cfg->rules = *rules;
    cfg->nseats = nseats;
    for (int k = 0; k < nseats; k++) {
        cfg->seat[k].bot = registry_bot(g, g->default_bot);
        for (int j = 0; cfg->seat[k].bot->params && cfg->seat[k].bot->params[j].name; j++)
            cfg->seat[k].param[j] = cfg->seat[k].bot->params[j].def;
    }
    cfg->runs = runs;
    cfg->seed = 77;
    cfg->threads = 2;
    return true;
}

TEST(partial_round_trip_keeps_every_figure)
{
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        run_config cfg;
        void *rules;
        cJSON *ruleset;
        CHECK(setup(g, g->default_seats, 700, &cfg, &rules, &ruleset));
        run_result res, back;
        char err[256];
        CHECK_INT(run_batch(&cfg, &res, err, sizeof err), 0);
        pbuf b = {0};
        partial_put_result(&b, &cfg, &res);
        CHECK(!b.oom);
        const unsigned char *p = b.p;
        CHECK_INT(partial_get_result(&p, b.p + b.len, &cfg, &back, err, sizeof err), 0);
        CHECK(p == b.p + b.len);
        char *x = report_text(&cfg, &res, ruleset), *y = report_text(&cfg, &back, ruleset);
        if (strcmp(x, y) != 0)
            check_fail(__FILE__, __LINE__, "%s: report changed through bytes", g->name);
        /* every truncation is refused, never read past its end */
        for (size_t cut = 0; cut < b.len; cut += 1 + b.len / 97) {
            run_result t;
            p = b.p;
            CHECK_INT(partial_get_result(&p, b.p + cut, &cfg, &t, err, sizeof err), -1);
        }
        free(x);
        free(y);
        free(b.p);
        run_result_free(&res);
        run_result_free(&back);
        cJSON_Delete(ruleset);
        free(rules);
    }
}

TEST(partial_shard_ranges_cover_every_game_once)
{
    static const uint64_t runs[] = {0, 1, 5, 1000, 1000000007ULL, 1000000000000ULL};
    static const uint64_t shards[] = {1, 2, 3, 7, 64, 1000};
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++)
        for (size_t j = 0; j < sizeof shards / sizeof *shards; j++) {
            uint64_t next = 0, lo = UINT64_MAX, hi = 0;
            for (uint64_t s = 0; s < shards[j]; s++) {
                uint64_t first, count;
                partial_shard_range(runs[i], s, shards[j], &first, &count);
                CHECK(first == next);
                next = first + count;
                lo = count < lo ? count : lo;
                hi = count > hi ? count : hi;
            }
            CHECK(next == runs[i]);
            CHECK(hi - lo <= 1);
        }
}

/* Shards played apart and merged give the report of the whole run, for every game. */
TEST(partial_shards_merge_to_the_whole_run)
{
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        static const uint64_t nshards[] = {1, 3, 8, 1200};
        run_config cfg;
        void *rules;
        cJSON *ruleset;
        CHECK(setup(g, g->max_seats < 3 ? g->max_seats : 3, 1000, &cfg, &rules, &ruleset));
        run_result whole;
        char err[256];
        CHECK_INT(run_batch(&cfg, &whole, err, sizeof err), 0);
        char *want = report_text(&cfg, &whole, ruleset);
        for (size_t n = 0; n < sizeof nshards / sizeof *nshards; n++) {
            run_result merged;
            run_result_init(&merged, &cfg, false);
            for (uint64_t s = 0; s < nshards[n]; s++) {
                run_config part = cfg;
                partial_shard_range(cfg.runs, s, nshards[n], &part.first, &part.runs);
                run_result r, back;
                CHECK_INT(run_batch(&part, &r, err, sizeof err), 0);
                pbuf b = {0};
                partial_put_result(&b, &part, &r);
                const unsigned char *p = b.p;
                CHECK_INT(partial_get_result(&p, b.p + b.len, &part, &back, err, sizeof err), 0);
                run_result_merge(&merged, &back, cfg.nseats);
                run_result_free(&r);
                run_result_free(&back);
                free(b.p);
            }
            char *got = report_text(&cfg, &merged, ruleset);
            if (strcmp(want, got) != 0)
                check_fail(__FILE__, __LINE__, "%s: %llu shards merged differ from one run",
                           g->name, (unsigned long long)nshards[n]);
            free(got);
            run_result_free(&merged);
        }
        free(want);
        run_result_free(&whole);
        cJSON_Delete(ruleset);
        free(rules);
    }
}

/* Every game alone (a result of one game) is within the limits its game declares: random
 * bots at the fewest and the most seats, each game read back as a part of its own. */
TEST(partial_every_game_alone_is_within_its_limits)
{
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        for (int nseats = g->min_seats; nseats <= g->max_seats;
             nseats += g->max_seats > g->min_seats ? g->max_seats - g->min_seats : 1) {
            run_config cfg;
            void *rules;
            cJSON *ruleset;
            CHECK(setup(g, nseats, 1, &cfg, &rules, &ruleset));
            for (int k = 0; k < nseats; k++)
                cfg.seat[k].bot = &bot_random;
            cfg.threads = 1;
            char err[256];
            for (uint64_t game = 0; game < 300; game++) {
                cfg.first = game;
                run_result r, back;
                CHECK_INT(run_batch(&cfg, &r, err, sizeof err), 0);
                pbuf b = {0};
                partial_put_result(&b, &cfg, &r);
                const unsigned char *p = b.p;
                if (partial_get_result(&p, b.p + b.len, &cfg, &back, err, sizeof err) != 0)
                    check_fail(__FILE__, __LINE__, "%s, %d players, game %llu: %s", g->name,
                               nseats, (unsigned long long)game, err);
                else
                    run_result_free(&back);
                run_result_free(&r);
                free(b.p);
            }
            cJSON_Delete(ruleset);
            free(rules);
        }
    }
}

TEST(partial_file_refuses_damage)
{
    const game_type *g = registry_game("45");
    run_config cfg;
    void *rules;
    cJSON *ruleset;
    CHECK(setup(g, 2, 300, &cfg, &rules, &ruleset));
    run_result res;
    char err[256];
    CHECK_INT(run_batch(&cfg, &res, err, sizeof err), 0);
    pbuf b = {0};
    partial_put_result(&b, &cfg, &res);
    cJSON *id = cJSON_CreateObject();
    cJSON_AddStringToObject(id, "game", "45");
    char path[] = "/tmp/giochi-partial-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    CHECK_INT(partial_write_file(f, id, &b), 0);
    fclose(f);
    cJSON *rid;
    unsigned char *payload;
    size_t len;
    CHECK_INT(partial_read_file(path, &rid, &payload, &len, err, sizeof err), 0);
    CHECK(len == b.len && memcmp(payload, b.p, len) == 0);
    CHECK_STR(cJSON_GetObjectItem(rid, "game")->valuestring, "45");
    cJSON_Delete(rid);
    free(payload);
    /* a flipped byte, a cut file and a foreign file are each refused with their reason */
    char *text;
    size_t n;
    f = fopen(path, "rb");
    text = malloc(1 << 20);
    n = fread(text, 1, 1 << 20, f);
    fclose(f);
    text[n / 2] ^= 1;
    f = fopen(path, "wb");
    fwrite(text, 1, n, f);
    fclose(f);
    CHECK_INT(partial_read_file(path, &rid, &payload, &len, err, sizeof err), -1);
    CHECK(strstr(err, "checksum") != NULL);
    text[n / 2] ^= 1;
    f = fopen(path, "wb");
    fwrite(text, 1, n - 5, f);
    fclose(f);
    CHECK_INT(partial_read_file(path, &rid, &payload, &len, err, sizeof err), -1);
    CHECK(strstr(err, "truncated") != NULL);
    f = fopen(path, "wb");
    fputs("{\"game\": \"45\"}\n", f);
    fclose(f);
    CHECK_INT(partial_read_file(path, &rid, &payload, &len, err, sizeof err), -1);
    CHECK(strstr(err, "not a giochi-sim partial result") != NULL);
    remove(path);
    free(text);
    free(b.p);
    cJSON_Delete(id);
    run_result_free(&res);
    cJSON_Delete(ruleset);
    free(rules);
}

TEST(partial_identity_names_the_version_and_shard)
{
    char err[256];
    uint64_t index, count;
    char text[128];
    snprintf(text, sizeof text, "{\"format\": %d, \"version\": \"0.0.9\", \"shard\": 0, "
             "\"shards\": 2}", PARTIAL_FORMAT);
    cJSON *id = cJSON_Parse(text);
    CHECK_INT(partial_identity_check(id, "a.part", "0.1.0", 100, &index, &count, err, sizeof err),
              -1);
    CHECK(strstr(err, "'a.part' was written by giochi-sim 0.0.9; this is 0.1.0") != NULL);
    cJSON_ReplaceItemInObject(id, "version", cJSON_CreateString("0.1.0"));
    CHECK_INT(partial_identity_check(id, "a.part", "0.1.0", 100, &index, &count, err, sizeof err),
              0);
    CHECK(index == 0 && count == 2);
    CHECK(cJSON_GetObjectItem(id, "shard") == NULL);
    cJSON_AddNumberToObject(id, "shard", 2); /* not below the count */
    CHECK_INT(partial_identity_check(id, "a.part", "0.1.0", 100, &index, &count, err, sizeof err),
              -1);
    CHECK(strstr(err, "malformed identity (shard)") != NULL);
    cJSON_Delete(id);
}

/* Format 2 added experiments' block sums: a file of format 1 (which could only hold a plain
 * run) is refused with a line that names both formats, whatever its version string. */
TEST(partial_identity_refuses_another_format)
{
    char err[256];
    uint64_t index, count;
    CHECK_INT(PARTIAL_FORMAT, 2);
    cJSON *id = cJSON_Parse("{\"format\": 1, \"version\": \"0.1.0\", \"shard\": 0, "
                            "\"shards\": 2}");
    CHECK_INT(partial_identity_check(id, "old.part", "0.1.0", 100, &index, &count, err, sizeof err),
              -1);
    CHECK_STR(err, "'old.part' is a partial result of format 1; this giochi-sim reads format 2: "
                   "play that shard again with this version");
    cJSON_Delete(id);
}

/* The integer writers and readers the experiments' block sums use: little-endian, 128-bit
 * values of either sign kept whole, and a read past the end flagged. */
TEST(partial_integers_round_trip)
{
    pbuf b = {0};
    __int128 big = -((__int128)3 << 100);
    partial_put_u64(&b, 0x0102030405060708ULL);
    partial_put_i128(&b, big);
    partial_put_i128(&b, -1);
    CHECK_INT((long long)b.len, 40);
    CHECK_INT(b.p[0], 8);
    preader r = {b.p, b.p + b.len, false};
    CHECK(partial_get_u64(&r) == 0x0102030405060708ULL);
    CHECK(partial_get_i128(&r) == big);
    CHECK(partial_get_i128(&r) == -1);
    CHECK(!r.bad);
    CHECK(partial_get_u64(&r) == 0);
    CHECK(r.bad);
    free(b.p);
}

/* ---- issue 27: parts from strangers ------------------------------------------------------
 * Each forged part below is written by the real writer (partial_write_file: a valid checksum)
 * from a real run's payload with fields changed, and read back as --merge reads it. */

/* A real one-batch part of game `name` with nseats players and runs games: its result (kept
 * in *res for mutations) and its payload, as --shard writes them. */
static void real_part(const char *name, int nseats, uint64_t runs, run_config *cfg,
                      void **rules, cJSON **ruleset, run_result *res)
{
    char err[256];
    CHECK(setup(registry_game(name), nseats, runs, cfg, rules, ruleset));
    cfg->threads = 1;
    CHECK_INT(run_batch(cfg, res, err, sizeof err), 0);
}

/* The identity --shard writes, as far as the reader looks at it. */
static cJSON *part_identity(const run_config *cfg)
{
    cJSON *id = cJSON_CreateObject();
    cJSON_AddStringToObject(id, "game", cfg->game->name);
    cJSON_AddNumberToObject(id, "players", cfg->nseats);
    cJSON_AddNullToObject(id, "experiment");
    return id;
}

/* Writes payload as a part file (checksum and all), reads it back and its batch, and merges
 * it into an empty result twice (as two shards would be): returns 0 with the merged result's
 * games in *games, or -1 with the message in err. */
static int read_forged(const run_config *cfg, const pbuf *payload, char *err, size_t errlen,
                       uint64_t *games)
{
    char path[] = "/tmp/giochi-forged-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    cJSON *id = part_identity(cfg);
    CHECK_INT(partial_write_file(f, id, payload), 0);
    fclose(f);
    cJSON_Delete(id);
    cJSON *rid;
    unsigned char *bytes;
    size_t len;
    int rc = partial_read_file(path, &rid, &bytes, &len, err, errlen);
    remove(path);
    if (rc != 0)
        return -1;
    cJSON_Delete(rid);
    const unsigned char *p = bytes;
    uint64_t first, runs;
    run_result one, sum;
    run_result_init(&sum, cfg, false);
    rc = partial_get_batch(&p, bytes + len, cfg, &first, &runs, &one, err, errlen);
    if (rc == 0) {
        rc = partial_merge(&sum, &one, cfg->nseats, err, errlen);
        if (rc == 0)
            rc = partial_merge(&sum, &one, cfg->nseats, err, errlen);
        run_result_free(&one);
    }
    *games = sum.games;
    if (rc == 0) { /* what was accepted makes sense: shares within [0, 1] */
        for (int k = 0; k < cfg->nseats; k++)
            CHECK(sum.win_units[k] >= 0 &&
                  (uint64_t)sum.win_units[k] <= sum.games * RUN_WIN_UNIT);
        CHECK(sum.length.n == (int64_t)sum.games);
    }
    run_result_free(&sum);
    free(bytes);
    return rc;
}

/* The byte offset in a batch's payload of accumulator `which` (0 the game length, then each
 * seat's score and rank, then the metrics' accumulators slot by slot), walking put_acc's
 * layout. */
static size_t acc_offset(const pbuf *b, const run_config *cfg, const run_result *res, int which)
{
    preader r = {b->p, b->p + b->len, false};
    for (int i = 0; i < 2 + 8 + res->nends + 1 + 2 * cfg->nseats * res->nkinds; i++)
        partial_get_u64(&r);
    for (int i = 0;; i++) {
        if (i == which)
            return (size_t)(r.p - b->p);
        uint64_t tag = partial_get_u64(&r);
        if (tag >= 1)
            partial_get_u64(&r), partial_get_u64(&r);
        if (tag >= 2)
            for (int k = 0; k < 6; k++)
                partial_get_u64(&r);
        if (tag == 2) {
            uint64_t cells = partial_get_u64(&r);
            for (uint64_t k = 0; k < 2 * cells; k++)
                partial_get_u64(&r);
        }
        if (i >= 1 && i <= 2 * cfg->nseats && i % 2 == 0) /* after a rank: the seat's wins */
            for (int k = 0; k < 3; k++)
                partial_get_u64(&r);
        CHECK(!r.bad);
    }
}

static void set_u64(pbuf *b, size_t at, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b->p[at + i] = (unsigned char)(v >> (8 * i));
}

/* Issue 27, 1: a 45 part whose rank histogram of seat 1 has its extremes moved to
 * INT64_MAX-5..INT64_MAX (the old reader took it, then read past the histogram and looped for
 * ever): refused, naming the field; and the same within the value range but off its cells. */
TEST(partial_refuses_a_histogram_beyond_the_values)
{
    run_config cfg;
    void *rules;
    cJSON *ruleset;
    run_result res;
    real_part("45", 2, 300, &cfg, &rules, &ruleset, &res);
    pbuf b = {0};
    partial_put_batch(&b, &cfg, &res);
    size_t at = acc_offset(&b, &cfg, &res, 2); /* rank of seat 1 */
    char err[300];
    uint64_t games;
    CHECK_INT(read_forged(&cfg, &b, err, sizeof err, &games), 0); /* the genuine part */
    CHECK(games == 600);
    preader r = {b.p + at, b.p + b.len, false};
    CHECK(partial_get_u64(&r) == 2); /* a histogram: tag, n, hits, sum, sumsq, min, max */
    size_t min_at = at + 8 * 3 + 32, max_at = min_at + 8;
    pbuf m = {.p = malloc(b.len), .len = b.len, .cap = b.len}; /* a copy to mutate */
    memcpy(m.p, b.p, b.len);
    set_u64(&m, min_at, (uint64_t)INT64_MAX - 5);
    set_u64(&m, max_at, (uint64_t)INT64_MAX);
    CHECK_INT(read_forged(&cfg, &m, err, sizeof err, &games), -1);
    CHECK_STR(err, "partial result does not make sense: rank of seat 1: extremes "
                   "9223372036854775802..9223372036854775807 (values lie within +-2^62, the "
                   "least first)");
    memcpy(m.p, b.p, b.len);
    set_u64(&m, max_at, 7); /* ranks 1..7: in range, but the cells say 1..2 */
    CHECK_INT(read_forged(&cfg, &m, err, sizeof err, &games), -1);
    CHECK(strstr(err, "rank of seat 1: histogram cell 1 (offset 1") != NULL);
    free(m.p);
    free(b.p);
    run_result_free(&res);
    cJSON_Delete(ruleset);
    free(rules);
}

/* Issue 27, 3: forged figures with a valid checksum, each refused by the check it breaks
 * (the old reader printed a win share of -183003413429658208.00%). */
/* The accumulator of metric `name` of res at seat (-1: the game's). */
static acc *metric_acc(run_result *res, const char *name, int seat)
{
    const recorder *rec = res->rec;
    for (int m = 0; m < rec->nmetrics; m++)
        if (strcmp(rec->metrics[m].name, name) == 0)
            return &rec->a[m * REC_SLOTS + REC_SLOT(seat)];
    check_fail(__FILE__, __LINE__, "no metric %s", name);
    abort();
}

TEST(partial_refuses_figures_that_cannot_have_been_played)
{
    run_config cfg;
    void *rules;
    cJSON *ruleset;
    run_result res;
    real_part("45", 3, 500, &cfg, &rules, &ruleset, &res);
    char err[300];
    uint64_t games;
    struct {
        int64_t *field, value;
        const char *says;
    } forged[] = {
        {&res.win_units[0], (int64_t)1 << 61, "wins of seat 1: "},
        {&res.wins_alone[1], 501, "wins of seat 2: "},
        {&res.tied_games, 600, "games: 600 tied games"},
        {&res.no_winner, INT64_MAX, "games: "},
        {&res.end_count[0], 1000, "ends of 500 games"},
        {&res.end_count[0], res.end_count[0] - 1, "ends of 500 games"}, /* one end lost */
        {&res.length.n, 499, "game length: histogram counts"},
        /* counts beyond what 500 games under the game's limits can record */
        {&res.choices[0], (int64_t)1 << 40, "choices of seat 1: more choices than 500 games"},
        {&metric_acc(&res, "shut_rate", 0)->n, (int64_t)1 << 62,
         "metric shut_rate, seat 1: 4611686018427387904 trials of 500 games"},
        {&metric_acc(&res, "eliminated", 2)->n, 501, "metric eliminated, seat 3: 501 trials"},
    };
    for (size_t i = 0; i < sizeof forged / sizeof *forged; i++) {
        int64_t keep = *forged[i].field;
        *forged[i].field = forged[i].value;
        pbuf b = {0};
        partial_put_batch(&b, &cfg, &res);
        *forged[i].field = keep;
        CHECK_INT(read_forged(&cfg, &b, err, sizeof err, &games), -1);
        if (strstr(err, forged[i].says) == NULL)
            check_fail(__FILE__, __LINE__, "forgery %zu: '%s' does not say '%s'", i, err,
                       forged[i].says);
        free(b.p);
    }
    /* a consistent forgery of the wins still adds up only to the games won */
    res.win_units[0] += RUN_WIN_UNIT;
    res.wins_alone[0]++;
    pbuf b = {0};
    partial_put_batch(&b, &cfg, &res);
    CHECK_INT(read_forged(&cfg, &b, err, sizeof err, &games), -1);
    CHECK(strstr(err, "wins: the seats' wins do not add up") != NULL);
    free(b.p);
    run_result_free(&res);
    cJSON_Delete(ruleset);
    free(rules);
}

/* Issue 27, 3: every 8-byte word of a 45 part set to each of a few extreme values, the file's
 * checksum made valid: each is refused or merges (twice) into figures that make sense, and
 * never overflows (the sanitizer build runs this: UBSan aborts on a signed overflow). */
TEST(partial_survives_every_word_mutation)
{
    run_config cfg;
    void *rules;
    cJSON *ruleset;
    run_result res;
    real_part("45", 2, 200, &cfg, &rules, &ruleset, &res);
    pbuf b = {0};
    partial_put_batch(&b, &cfg, &res);
    static const uint64_t values[] = {0, 1, 2, (uint64_t)INT64_MAX, (uint64_t)INT64_MAX - 5,
                                      UINT64_MAX, (uint64_t)1 << 62, (uint64_t)1 << 63};
    pbuf m = {.p = malloc(b.len), .len = b.len, .cap = b.len};
    char err[300];
    uint64_t games;
    int refused = 0, tried = 0;
    for (size_t at = 0; at + 8 <= b.len; at += 8)
        for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
            memcpy(m.p, b.p, b.len);
            set_u64(&m, at, values[v]);
            if (memcmp(m.p, b.p, b.len) == 0)
                continue;
            tried++;
            refused += read_forged(&cfg, &m, err, sizeof err, &games) != 0;
        }
    CHECK(tried > 1000);
    CHECK(refused > tried / 2); /* most words are checked against another (a count of games) */
    free(m.p);
    free(b.p);
    run_result_free(&res);
    cJSON_Delete(ruleset);
    free(rules);
}

/* Appends n bytes to out. */
static void put_bytes(pbuf *out, const unsigned char *p, size_t n)
{
    if (out->len + n > out->cap) {
        out->cap = 2 * (out->len + n);
        out->p = realloc(out->p, out->cap);
        CHECK(out->p != NULL);
    }
    memcpy(out->p + out->len, p, n);
    out->len += n;
}

/* Payload b (of res) with its first `most` metric accumulators that hold a histogram of two
 * observations or more replaced by a histogram of n - 1 observations of `lo` and one of `hi`
 * (n: the accumulator's own), sums and all as put_acc writes them, into out (zeroed); the
 * other bytes kept. Returns how many were replaced. */
static int respliced(const pbuf *b, const run_config *cfg, const run_result *res, int most,
                     int64_t lo, int64_t hi, pbuf *out)
{
    int first = 1 + 2 * cfg->nseats, done = 0;
    size_t from = 0;
    for (int i = 0; i < res->rec->nmetrics * REC_SLOTS && done < most; i++) {
        const acc *a = &res->rec->a[i];
        if (a->count == NULL || a->n < 2)
            continue;
        size_t at = acc_offset(b, cfg, res, first + i);
        put_bytes(out, b->p + from, at - from);
        partial_put_u64(out, 2);
        partial_put_u64(out, (uint64_t)a->n);
        partial_put_u64(out, 0);
        __int128 n1 = a->n - 1;
        partial_put_i128(out, n1 * lo + hi);
        partial_put_i128(out, n1 * lo * lo + (__int128)hi * hi);
        partial_put_u64(out, (uint64_t)lo);
        partial_put_u64(out, (uint64_t)hi);
        partial_put_u64(out, lo == hi ? 1 : 2);
        partial_put_u64(out, 0);
        partial_put_u64(out, lo == hi ? (uint64_t)a->n : (uint64_t)(a->n - 1));
        if (lo != hi) {
            partial_put_u64(out, (uint64_t)(hi - lo));
            partial_put_u64(out, 1);
        }
        from = acc_offset(b, cfg, res, first + i + 1);
        done++;
    }
    put_bytes(out, b->p + from, b->len - from);
    return done;
}

/* Reads payload as a part file of cfg's run into *one (0), or -1 with the message. */
static int read_one(const run_config *cfg, const pbuf *payload, run_result *one, char *err,
                    size_t errlen)
{
    char path[] = "/tmp/giochi-forged-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    cJSON *id = part_identity(cfg);
    CHECK_INT(partial_write_file(f, id, payload), 0);
    fclose(f);
    cJSON_Delete(id);
    cJSON *rid;
    unsigned char *bytes;
    size_t len;
    int rc = partial_read_file(path, &rid, &bytes, &len, err, errlen);
    remove(path);
    if (rc != 0)
        return -1;
    cJSON_Delete(rid);
    const unsigned char *p = bytes;
    uint64_t first, runs;
    rc = partial_get_batch(&p, bytes + len, cfg, &first, &runs, one, err, errlen);
    free(bytes);
    return rc;
}

/* Issue 27, 3: an oca part of a few KB whose histograms each hold two values 2^20 - 1 apart
 * (the old reader gave every one 8 MB: 463 MB for a 26 KB part): up to PARTIAL_MAX_CELLS
 * values in all it is read; one more such histogram, and it is refused. Parts each narrow but
 * far apart from each other are refused at the merge, before it allocates. */
TEST(partial_refuses_histograms_beyond_the_memory_budget)
{
    run_config cfg;
    void *rules;
    cJSON *ruleset;
    run_result res;
    real_part("oca", 2, 100, &cfg, &rules, &ruleset, &res);
    pbuf b = {0};
    partial_put_batch(&b, &cfg, &res);
    int fit = PARTIAL_MAX_CELLS / ACC_MAX_SPAN - 1; /* and the narrow rest: a few thousand */
    char err[300];
    uint64_t games;
    for (int extra = 0; extra <= 1; extra++) {
        pbuf m = {0};
        CHECK_INT(respliced(&b, &cfg, &res, fit + extra, 0, ACC_MAX_SPAN - 1, &m), fit + extra);
        CHECK(m.len < 64 * 1024);
        int rc = read_forged(&cfg, &m, err, sizeof err, &games);
        if (extra == 0)
            CHECK_INT(rc, 0);
        else
            CHECK(rc == -1 &&
                  strstr(err, "histograms over more than 8388608 values in all (64 MiB)") != NULL);
        free(m.p);
    }
    /* far apart: each part's histograms a single value, 0 in one and 2^20 - 1 in the other */
    pbuf lo = {0}, hi = {0};
    CHECK_INT(respliced(&b, &cfg, &res, fit + 1, 0, 0, &lo), fit + 1);
    CHECK_INT(respliced(&b, &cfg, &res, fit + 1, ACC_MAX_SPAN - 1, ACC_MAX_SPAN - 1, &hi), fit + 1);
    run_result a, z, sum;
    CHECK_INT(read_one(&cfg, &lo, &a, err, sizeof err), 0);
    CHECK_INT(read_one(&cfg, &hi, &z, err, sizeof err), 0);
    run_result_init(&sum, &cfg, false);
    CHECK_INT(partial_merge(&sum, &a, cfg.nseats, err, sizeof err), 0);
    CHECK_INT(partial_merge(&sum, &z, cfg.nseats, err, sizeof err), -1);
    CHECK(strstr(err, "the merged histograms would span more than 8388608 values (64 MiB)") != NULL);
    run_result_free(&sum);
    run_result_free(&a);
    run_result_free(&z);
    free(lo.p);
    free(hi.p);
    free(b.p);
    run_result_free(&res);
    cJSON_Delete(ruleset);
    free(rules);
}

/* Issue 27, 2: a part file is read in bounded steps: zeros are refused at the first line;
 * an identity line without end, and a payload length beyond what the identity allows, are
 * refused before the rest is read (from a stream that would supply it without end).
 * Issue 41, 3: only a regular file is opened: a device, a directory or a FIFO that nobody
 * writes is refused at once (the FIFO's open would block). */
TEST(partial_reads_in_bounded_steps)
{
    char err[300];
    cJSON *id;
    unsigned char *payload;
    size_t len;
    CHECK_INT(partial_read_file("/dev/zero", &id, &payload, &len, err, sizeof err), -1);
    CHECK_STR(err, "'/dev/zero' is a character device, not a partial result: --merge reads the "
                   "regular files --shard writes");
    CHECK_INT(partial_read_file("/", &id, &payload, &len, err, sizeof err), -1);
    CHECK_STR(err, "'/' is a directory, not a partial result: --merge reads the regular files "
                   "--shard writes");
    char dir[] = "/tmp/giochi-partial-XXXXXX", fifo[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CHECK_INT(mkfifo(fifo, 0600), 0);
    CHECK_INT(partial_read_file(fifo, &id, &payload, &len, err, sizeof err), -1);
    CHECK(strstr(err, "' is a FIFO, not a partial result") != NULL);
    unlink(fifo);
    rmdir(dir);
    /* magic, then 2 MB of identity without a newline */
    size_t big = 2 << 20;
    char *text = calloc(1, big);
    FILE *f = fmemopen(text, big, "rb"); /* zeros */
    CHECK_INT(partial_read_stream(f, "zeros.part", &id, &payload, &len, err, sizeof err), -1);
    CHECK_STR(err, "'zeros.part' is not a giochi-sim partial result (written by --shard)");
    CHECK(ftell(f) < 4096);
    fclose(f);
    strcpy(text, "giochi-sim partial result\n{\"game\": \"");
    memset(text + strlen(text), 'x', big - strlen(text));
    f = fmemopen(text, big, "rb");
    CHECK_INT(partial_read_stream(f, "long.part", &id, &payload, &len, err, sizeof err), -1);
    CHECK_STR(err, "'long.part' has an identity line longer than 1048576 bytes");
    CHECK(ftell(f) < (long)big); /* stopped at the limit */
    fclose(f);
    /* a plain 45 run declaring 2^40 bytes of payload */
    int n = snprintf(text, big, "giochi-sim partial result\n{\"game\": \"45\", \"players\": 2, "
                     "\"experiment\": null}\n");
    for (int i = 0; i < 8; i++)
        text[n + i] = (char)((uint64_t)1 << 40 >> (8 * i));
    memset(text + n + 8, 0, big - (size_t)n - 8);
    f = fmemopen(text, big, "rb");
    CHECK_INT(partial_read_stream(f, "huge.part", &id, &payload, &len, err, sizeof err), -1);
    CHECK(strstr(err, "'huge.part' declares 1099511627776 bytes of results, more than its "
                      "identity allows") != NULL);
    CHECK(ftell(f) == n + 8); /* not a byte of the payload read */
    fclose(f);
    free(text);
}

/* Writes n bytes of `fill` as a key file at path and points GIOCHI_PART_KEY at it. */
static void use_key(const char *path, int fill, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    for (size_t i = 0; i < n; i++)
        fputc(fill + (int)i % 7, f);
    fclose(f);
    setenv("GIOCHI_PART_KEY", path, 1);
}

/* Writes payload as a part file at path under the key in force. */
static void write_part(const char *path, const run_config *cfg, const pbuf *payload)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    cJSON *id = part_identity(cfg);
    CHECK_INT(partial_write_file(f, id, payload), 0);
    fclose(f);
    cJSON_Delete(id);
}

/* Issue 27 (authenticity): with GIOCHI_PART_KEY set, a part carries an HMAC; a part written
 * with another key, without one, or altered with its checksum recomputed is refused; without
 * the variable a signed part reads as any other, its identity without the "mac". */
TEST(partial_key_signs_and_checks_parts)
{
    run_config cfg;
    void *rules;
    cJSON *ruleset;
    run_result res;
    real_part("45", 2, 100, &cfg, &rules, &ruleset, &res);
    pbuf b = {0};
    partial_put_batch(&b, &cfg, &res);
    char key[] = "/tmp/giochi-key-XXXXXX", other[] = "/tmp/giochi-key-XXXXXX";
    char part[] = "/tmp/giochi-signed-XXXXXX";
    close(mkstemp(key));
    close(mkstemp(other));
    close(mkstemp(part));
    char err[300];
    cJSON *id;
    unsigned char *payload;
    size_t len;
    use_key(key, 'k', 32);
    write_part(part, &cfg, &b);
    CHECK_INT(partial_read_file(part, &id, &payload, &len, err, sizeof err), 0);
    CHECK(len == b.len && memcmp(payload, b.p, len) == 0);
    CHECK(cJSON_GetObjectItem(id, "mac") == NULL);
    cJSON_Delete(id);
    free(payload);
    use_key(other, 'o', 32); /* another key */
    CHECK_INT(partial_read_file(part, &id, &payload, &len, err, sizeof err), -1);
    CHECK(strstr(err, "fails its MAC check") != NULL);
    /* altered: a byte of the payload changed and the checksum made valid again */
    use_key(key, 'k', 32);
    FILE *f = fopen(part, "rb");
    unsigned char *text = malloc(1 << 16);
    size_t n = fread(text, 1, 1 << 16, f);
    fclose(f);
    text[n - 8 - 32 - 100] ^= 1;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n - 8 - 32; i++)
        h = (h ^ text[i]) * 0x100000001b3ULL;
    for (int i = 0; i < 8; i++)
        text[n - 8 - 32 + i] = (unsigned char)(h >> (8 * i));
    f = fopen(part, "wb");
    fwrite(text, 1, n, f);
    fclose(f);
    CHECK_INT(partial_read_file(part, &id, &payload, &len, err, sizeof err), -1);
    CHECK(strstr(err, "fails its MAC check") != NULL);
    /* unsigned, read with a key: refused; signed, read without: accepted */
    unsetenv("GIOCHI_PART_KEY");
    write_part(part, &cfg, &b);
    use_key(key, 'k', 32);
    CHECK_INT(partial_read_file(part, &id, &payload, &len, err, sizeof err), -1);
    CHECK(strstr(err, "carries no MAC, and GIOCHI_PART_KEY asks for one") != NULL);
    write_part(part, &cfg, &b);
    unsetenv("GIOCHI_PART_KEY");
    CHECK_INT(partial_read_file(part, &id, &payload, &len, err, sizeof err), 0);
    CHECK(cJSON_GetObjectItem(id, "mac") == NULL);
    cJSON_Delete(id);
    free(payload);
    /* a key file too short is named */
    use_key(key, 'k', 8);
    CHECK_INT(partial_read_file(part, &id, &payload, &len, err, sizeof err), -1);
    CHECK(strstr(err, "GIOCHI_PART_KEY: the key file") != NULL && strstr(err, "holds 8 bytes") != NULL);
    unsetenv("GIOCHI_PART_KEY");
    remove(key);
    remove(other);
    remove(part);
    free(text);
    free(b.p);
    run_result_free(&res);
    cJSON_Delete(ruleset);
    free(rules);
}

/* An experiment's block sums read from a part are added checked: sums near the end of 128
 * bits do not overflow (UBSan in the sanitizer build) but report that they do not fit. */
TEST(partial_block_sums_add_checked)
{
    exp_pair d = {.n = 3, .x = ((__int128)1 << 126), .cc = 5}, s = d;
    CHECK(!exp_pair_merge(&d, &s));
    exp_pair e = {.n = 3, .x = 7, .cc = 5}, t = e;
    CHECK(exp_pair_merge(&e, &t));
    CHECK(e.n == 6 && e.x == 14 && e.cc == 10);
    exp_pair f = {.n = INT64_MAX}, u = {.n = 1};
    CHECK(!exp_pair_merge(&f, &u));
}
