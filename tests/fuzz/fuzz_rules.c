/* fuzz_rules.c — libFuzzer target over what a user types or writes: ruleset files, --set
 * assignments and --bots lists, each loaded as giochi-sim loads it; a ruleset that loads is
 * then played for one game under --check. Built and run by `make fuzz`.
 *
 * Input: byte 0 picks the mode (mod 3), byte 1 the game (mod the registered games), byte 2 a
 * seat count (mod 9, 0 = the game's default), the rest is the text:
 *   mode 0: a ruleset file, merged over the default ruleset as --config does;
 *   mode 1: --set assignments, one per line, applied to the default ruleset in order;
 *   mode 2: a --bots list.
 * A finding is a crash, a sanitizer report, a hang (libFuzzer's -timeout), or one of the
 * properties below failing (abort with a message):
 *   - every error has a message (main's die() then writes it on one line, escaping any
 *     control character quoted from the input);
 *   - text jsoncheck accepts, cJSON parses (the strict checker never lets through what the
 *     parser then refuses);
 *   - a loaded ruleset plays one game to its end keeping the game's invariants (--check). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/botspec.h"
#include "config/jsoncheck.h"
#include "core/registry.h"
#include "config/rules.h"
#include "core/runner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_rules: %s: %s\n", what, detail);
    abort();
}

/* An error must say something. */
static void said(const char *err)
{
    if (err[0] == '\0')
        fail("an error without a message", "");
}

static int ngames(void)
{
    int n = 0;
    while (registry_games[n])
        n++;
    return n;
}

/* Loads json (the effective ruleset) into g's rules; if they load and suit some seat count,
 * plays game 0 of seed 1 with random bots under --check. Does not take ownership of json. */
static void load_and_play(const game_type *g, const cJSON *json, int seats)
{
    char err[512] = "";
    void *rules = calloc(1, g->rules_size ? g->rules_size : 1);
    if (rules == NULL)
        return;
    if (g->rules_load(rules, json, err, sizeof err) != 0) {
        said(err);
        free(rules);
        return;
    }
    int n = seats ? seats : g->default_seats;
    if (n < g->min_seats || n > g->max_seats)
        n = g->default_seats;
    if (g->rules_check && g->rules_check(rules, n, err, sizeof err) != 0) {
        said(err);
        free(rules);
        return;
    }
    run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.game = g;
    cfg.rules = rules;
    cfg.nseats = n;
    for (int k = 0; k < n; k++)
        cfg.seat[k].bot = registry_bot(g, "random");
    cfg.runs = 1;
    cfg.seed = 1;
    cfg.threads = 1;
    cfg.check = true;
    void *ctx[GAME_MAX_SEATS] = {0};
    if (run_bots_setup(&cfg, ctx, err, sizeof err) != 0)
        fail("random bots cannot set up", err);
    void *st = calloc(1, g->state_size), *view = calloc(1, g->view_size ? g->view_size : 1);
    outcome o;
    if (st != NULL && view != NULL &&
        run_game_checked(&cfg, ctx, 0, st, view, &o, NULL, NULL, err, sizeof err) != 0)
        fail(g->name, err);
    free(st);
    free(view);
    run_bots_free(&cfg, ctx);
    free(rules);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    int mode = data[0] % 3;
    const game_type *g = registry_games[data[1] % ngames()];
    int seats = data[2] % 9;
    char *text = malloc(size - 3 + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data + 3, size - 3);
    text[size - 3] = '\0';
    char err[512] = "";

    if (mode == 0 || mode == 1) {
        cJSON *ruleset = rules_parse(g->default_rules, "built-in", err, sizeof err);
        if (ruleset == NULL)
            fail("default ruleset", err);
        bool usable = true;
        if (mode == 0) {
            jsoncheck_result r = jsoncheck_text(text, "fuzz", err, sizeof err);
            cJSON *direct = r == JSONCHECK_OK ? cJSON_Parse(text) : NULL;
            if (r == JSONCHECK_OK && direct == NULL)
                fail("jsoncheck accepted what cJSON refuses", text);
            cJSON_Delete(direct);
            cJSON *file = rules_parse(text, "fuzz", err, sizeof err);
            if (file == NULL)
                said(err);
            usable = file != NULL && cJSON_IsObject(file);
            if (usable)
                rules_merge(ruleset, file);
            cJSON_Delete(file);
        } else {
            char *save = NULL;
            int nsets = 0;
            for (char *line = strtok_r(text, "\n", &save); line && usable && nsets < 8;
                 line = strtok_r(NULL, "\n", &save), nsets++)
                if (rules_set(g, ruleset, line, err, sizeof err) != 0) {
                    said(err);
                    usable = false;
                }
        }
        if (usable)
            load_and_play(g, ruleset, seats);
        cJSON_Delete(ruleset);
    } else {
        seat_spec spec[GAME_MAX_SEATS];
        static char canon[GAME_MAX_SEATS][BOT_SPEC_MAX];
        if (botspec_parse_list(g, text, seats, spec, canon, err, sizeof err) < 0)
            said(err);
    }
    free(text);
    return 0;
}
