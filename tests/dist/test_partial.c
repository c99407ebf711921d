/* test_partial.c — run results written as bytes and read back, shard ranges, and shards of a
 * run merged into the report of the whole run (every game, a few seat counts). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dist/partial.h"
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
