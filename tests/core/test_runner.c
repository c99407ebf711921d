/* test_runner.c — the runner, recorder, statistics and report on the toy game "toy" of
 * tests/toy_kit.h (pig-race: roll, then bank or pass; first to 10 wins), so that the shared
 * machinery is tested apart from any real ruleset. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/registry.h"
#include "report/report.h"
#include "core/runner.h"
#include "config/rules.h"
#include "core/stats.h"
#include "toy_kit.h"


static run_config toy_config(int nseats, uint64_t runs, int threads)
{
    run_config c;
    memset(&c, 0, sizeof c);
    c.game = &toy_game;
    c.nseats = nseats;
    for (int k = 0; k < nseats; k++)
        c.seat[k].bot = &bot_random;
    c.runs = runs;
    c.seed = 12345;
    c.threads = threads;
    return c;
}

/* Renders a whole report (without the run object) as JSON text; caller frees. */
/* A run of g under rules on one thread: `runs` games from `seed`, bot at every one of the
 * game's default seats with its parameters' defaults. */
static run_config one_bot_config(const game_type *g, void *rules, const bot_type *bot,
                                 uint64_t runs, uint64_t seed)
{
    run_config c;
    memset(&c, 0, sizeof c);
    c.game = g;
    c.rules = rules;
    c.nseats = g->default_seats;
    for (int k = 0; k < c.nseats; k++) {
        c.seat[k].bot = bot;
        for (int p = 0; bot->params && bot->params[p].name; p++)
            c.seat[k].param[p] = bot->params[p].def;
    }
    c.runs = runs;
    c.seed = seed;
    c.threads = 1;
    return c;
}

static char *report_text(const run_config *c, const run_result *r)
{
    static const char *spec[GAME_MAX_SEATS] = {"random", "random", "random", "random",
                                               "random", "random", "random", "random"};
    cJSON *rules = cJSON_CreateObject();
    report_input in = {.cfg = c, .res = r, .ruleset = rules};
    memcpy(in.bot_spec, spec, sizeof spec);
    cJSON *rep = report_build(&in);
    cJSON_DeleteItemFromObject(rep, "run");
    char *s = cJSON_Print(rep);
    cJSON_Delete(rep);
    cJSON_Delete(rules);
    return s;
}

TEST(runner_results_do_not_depend_on_thread_count)
{
    char err[256];
    run_result a, b;
    run_config c1 = toy_config(3, 5000, 1), c3 = toy_config(3, 5000, 3);
    CHECK_INT(run_batch(&c1, &a, err, sizeof err), 0);
    CHECK_INT(run_batch(&c3, &b, err, sizeof err), 0);
    c3.threads = 1; /* the report names the thread count only in the removed run object */
    char *ta = report_text(&c1, &a), *tb = report_text(&c1, &b);
    CHECK_STR(ta, tb);
    CHECK_INT(a.games, 5000);
    free(ta);
    free(tb);
    run_result_free(&a);
    run_result_free(&b);
}

/* Reads a whole stream written by the runner. */
static char *slurp(FILE *f)
{
    fflush(f);
    long n = ftell(f);
    rewind(f);
    char *s = calloc(1, (size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n)
        s[0] = '\0';
    return s;
}

TEST(runner_games_csv_is_in_game_order_for_any_thread_count)
{
    char err[256];
    char *text[2];
    for (int i = 0; i < 2; i++) {
        run_config c = toy_config(2, 3000, i ? 4 : 1);
        c.games_csv = tmpfile();
        run_result r;
        CHECK_INT(run_batch(&c, &r, err, sizeof err), 0);
        text[i] = slurp(c.games_csv);
        fclose(c.games_csv);
        run_result_free(&r);
    }
    CHECK_STR(text[0], text[1]);
    /* header + one row per game, rows numbered 0.. in order */
    int lines = 0;
    long expect = 0;
    bool ordered = true;
    for (char *p = text[0]; *p; p++)
        if (*p == '\n') {
            lines++;
            if (p[1] && lines > 1)
                ordered = ordered && strtol(p + 1, NULL, 10) == expect + 1 && ++expect;
            else if (p[1])
                ordered = ordered && strtol(p + 1, NULL, 10) == 0;
        }
    CHECK_INT(lines, 3001);
    CHECK(ordered);
    static const char header[] = "game_index,seed,winner,length,end,score_1,score_2,rank_1,"
                                 "rank_2,banks_1,banks_2,first_roll,banked_six_1,banked_six_2,"
                                 "seed_hi,seed_lo\n";
    CHECK(strncmp(text[0], header, sizeof header - 1) == 0);
    free(text[0]);
    free(text[1]);
}

TEST(runner_trace_replays_the_batch_game)
{
    char err[256];
    run_config c = toy_config(2, 50, 2);
    c.games_csv = tmpfile();
    run_result r;
    CHECK_INT(run_batch(&c, &r, err, sizeof err), 0);
    char *csv = slurp(c.games_csv);
    fclose(c.games_csv);
    FILE *t = tmpfile();
    outcome o;
    CHECK_INT(run_trace(&c, 37, t, &o, err, sizeof err), 0);
    char *tr = slurp(t);
    fclose(t);
    char *row = strstr(tr, "\ncsv: 37,");
    CHECK(row != NULL);
    if (row) {
        row += 6;
        *strchr(row, '\n') = '\0';
        char *inbatch = strstr(csv, "\n37,");
        CHECK(inbatch != NULL);
        if (inbatch)
            CHECK(strncmp(inbatch + 1, row, strlen(row)) == 0 && inbatch[1 + strlen(row)] == '\n');
    }
    CHECK(strstr(tr, "> seat 1 (random) bank:") != NULL);
    free(csv);
    free(tr);
    run_result_free(&r);
}

TEST(runner_bot_streams_leave_chance_unchanged)
{
    /* The first roll comes from chance only: changing seat 2's bot must not move it. */
    char err[256];
    run_config c = toy_config(2, 2000, 2);
    run_result a, b;
    CHECK_INT(run_batch(&c, &a, err, sizeof err), 0);
    c.seat[1].bot = &bot_bank;
    CHECK_INT(run_batch(&c, &b, err, sizeof err), 0);
    const acc *fa = rec_get(a.rec, TOY_FIRST_ROLL, -1), *fb = rec_get(b.rec, TOY_FIRST_ROLL, -1);
    CHECK(fa->n == 2000 && fa->sum == fb->sum && fa->sumsq == fb->sumsq);
    /* ... while the always-banking seat 2 must bank in every game */
    CHECK_INT(rec_get(b.rec, TOY_BANKED, 1)->hits, 2000);
    run_result_free(&a);
    run_result_free(&b);
}

TEST(runner_win_units_add_up_to_one_win_per_decided_game)
{
    /* every game's units add up to one whole win or none */
    run_config c2 = toy_config(4, 4000, 2);
    run_result r2;
    char err[256];
    CHECK_INT(run_batch(&c2, &r2, err, sizeof err), 0);
    int64_t units = 0;
    for (int k = 0; k < 4; k++)
        units += r2.win_units[k];
    CHECK_INT(units, (int64_t)(4000 - r2.no_winner) * RUN_WIN_UNIT);
    run_result_free(&r2);
}

TEST(stats_wilson_matches_closed_form)
{
    double lo, hi;
    stats_wilson(50, 100, &lo, &hi);
    /* Wilson 95% for 50/100: 0.5 -+ 0.0961... -> [0.40383, 0.59617] */
    CHECK_NEAR(lo, 0.403832, 1e-5);
    CHECK_NEAR(hi, 0.596168, 1e-5);
    stats_wilson(0, 10, &lo, &hi);
    CHECK(lo == 0 && hi > 0.27 && hi < 0.28);
}

TEST(stats_summary_quantiles_and_t_interval)
{
    acc a = {0};
    for (int v = 1; v <= 100; v++)
        acc_add(&a, v, 1);
    summary s;
    stats_summary(&a, &s);
    CHECK_NEAR(s.mean, 50.5, 1e-12);
    CHECK_NEAR(s.sd, 29.011491975882016, 1e-9);
    CHECK_NEAR(s.q[2], 50, 0);
    CHECK_NEAR(s.q[0], 5, 0);
    CHECK_NEAR(s.q[4], 95, 0);
    /* t(0.975, 99) = 1.9842169515 */
    CHECK_NEAR(s.hi - s.mean, 1.9842169515 * s.sd / 10, 1e-8);
    acc_free(&a);
}

TEST(stats_chisq_p_value)
{
    double obs[2] = {60, 40}, chi2;
    double p = stats_chisq_equal(obs, 2, &chi2);
    CHECK_NEAR(chi2, 4.0, 1e-12);
    CHECK_NEAR(p, 0.04550026389635842, 1e-12);
}

/* Counts the contexts set up, one per seat per worker thread that was started. */
static _Atomic int counted_setups;
static int count_setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                       const double *param, char *err, size_t errlen)
{
    (void)ctx, (void)g, (void)rules, (void)seat, (void)nseats, (void)param, (void)err,
        (void)errlen;
    counted_setups++;
    return 0;
}
static const bot_type bot_counted = {
    .name = "counted", .doc = "always banks; counts its setups", .setup = count_setup,
    .choose = always_bank};

TEST(runner_shares_a_short_run_among_all_threads)
{
    /* 40 games, 4 threads: the games are split so that every thread gets some (a run of a
     * few slow games must not be played by one thread while the others idle). */
    char err[256];
    run_config c = toy_config(2, 40, 4);
    c.seat[0].bot = c.seat[1].bot = &bot_counted;
    counted_setups = 0;
    run_result r;
    CHECK_INT(run_batch(&c, &r, err, sizeof err), 0);
    CHECK_INT(counted_setups, 2 * 4);
    CHECK_INT(r.games, 40);
    run_result_free(&r);
}

/* --check: a game whose invariant breaks is reported by its index, step and chance seed, the
 * lowest broken game whatever the thread count; without --check nothing is verified. */
static int toy_check(const void *p, char *err, size_t errlen)
{
    const toy *t = p;
    if (t->first_roll == 6 && t->turn == 2)
        return snprintf(err, errlen, "turn 2 after a first six"), -1;
    return 0;
}

TEST(runner_check_reports_the_first_broken_game)
{
    game_type broken = toy_game;
    broken.check = toy_check;
    char err[512], want[512] = "";
    /* the first game whose first roll is a six */
    uint64_t first = 0;
    for (;; first++) {
        rng r;
        rng_seed_stream(&r, 12345, first, RNG_STREAM_CHANCE);
        if (rng_die(&r, 6) == 6)
            break;
    }
    snprintf(want, sizeof want, RUN_BROKEN_INVARIANT "game %llu (chance seed %llu), step 2: turn 2 after a "
             "first six", (unsigned long long)first,
             (unsigned long long)rng_derive(12345, first, RNG_STREAM_CHANCE));
    for (int threads = 1; threads <= 4; threads += 3) {
        run_config c = toy_config(2, 2000, threads);
        c.game = &broken;
        run_result r;
        CHECK_INT(run_batch(&c, &r, err, sizeof err), 0); /* not asked to check */
        run_result_free(&r);
        c.check = true;
        c.games_csv = tmpfile();
        CHECK_INT(run_batch(&c, &r, err, sizeof err), -1);
        CHECK_STR(err, want);
        fclose(c.games_csv);
        FILE *out = tmpfile();
        outcome o;
        CHECK_INT(run_trace(&c, first, out, &o, err, sizeof err), -1);
        CHECK_STR(err, want);
        fclose(out);
    }
}

/* --check: every game that has invariants keeps them under its default ruleset */
TEST(runner_check_passes_on_every_registered_game)
{
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        char err[512];
        cJSON *json;
        void *rules = rules_effective(g, NULL, NULL, 0, &json, err, sizeof err);
        CHECK(rules != NULL);
        if (rules == NULL)
            continue;
        run_config c;
        memset(&c, 0, sizeof c);
        c.game = g;
        c.rules = rules;
        c.nseats = g->default_seats;
        for (int k = 0; k < c.nseats; k++)
            c.seat[k].bot = &bot_random;
        c.runs = 300;
        c.seed = 3;
        c.threads = 2;
        c.check = true;
        run_result r;
        CHECK_INT(run_batch(&c, &r, err, sizeof err), 0);
        if (r.games)
            run_result_free(&r);
        cJSON_Delete(json);
        free(rules);
    }
}

/* The runner counts each seat's real choices by decision kind (run_result.choices): in the
 * toy game every turn is one "bank" decision of two actions, banking is the second action,
 * so the counts equal the turns played and the banks recorded; the report pools them per bot
 * under "choices", and they do not depend on the thread count. */
TEST(runner_counts_choices_by_seat_and_kind)
{
    char err[256];
    run_result a, b;
    run_config c1 = toy_config(3, 3000, 1), c2 = toy_config(3, 3000, 2);
    CHECK_INT(run_batch(&c1, &a, err, sizeof err), 0);
    CHECK_INT(run_batch(&c2, &b, err, sizeof err), 0);
    CHECK_INT(a.nkinds, 1);
    int64_t decisions = 0;
    for (int k = 0; k < 3; k++) {
        decisions += a.choices[2 * k];
        CHECK((int64_t)rec_get(a.rec, TOY_BANKS, k)->sum == a.choices[2 * k + 1]);
        CHECK(a.choices[2 * k] == b.choices[2 * k] && a.choices[2 * k + 1] == b.choices[2 * k + 1]);
    }
    CHECK((int64_t)a.length.sum == decisions);
    cJSON *rules = cJSON_CreateObject();
    report_input in = {.cfg = &c1, .res = &a, .ruleset = rules};
    for (int k = 0; k < 3; k++)
        in.bot_spec[k] = "random";
    cJSON *rep = report_build(&in);
    const cJSON *bank = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "bots"), 0), "choices"),
        "bank");
    CHECK(bank != NULL);
    if (bank)
        CHECK_NEAR(cJSON_GetObjectItem(bank, "decisions")->valuedouble, (double)decisions, 0);
    cJSON_Delete(rep);
    cJSON_Delete(rules);
    run_result_free(&a);
    run_result_free(&b);
}

/* A bot marked no_draws gets a stream that aborts on its first draw (rng_scripted), so every
 * such bot of every game, at every seat of a short batch, proves that it draws nothing: the
 * runner then skips deriving its stream, and the results must be those of a seeded stream,
 * which the golden reports and the thread-identity tests check. */
TEST(runner_no_draws_bots_play_without_a_stream)
{
    int tried = 0;
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        for (int b = 0; g->bots[b]; b++) {
            const bot_type *bot = g->bots[b];
            if (!bot->no_draws)
                continue;
            char err[512];
            cJSON *json;
            void *rules = rules_effective(g, NULL, NULL, 0, &json, err, sizeof err);
            CHECK(rules != NULL);
            if (rules == NULL)
                continue;
            run_config c = one_bot_config(g, rules, bot, 200, 11);
            run_result r;
            CHECK_INT(run_batch(&c, &r, err, sizeof err), 0);
            CHECK_INT((int)r.games, 200);
            run_result_free(&r);
            cJSON_Delete(json);
            free(rules);
            tried++;
        }
    }
    CHECK(tried >= 5); /* 45: greedy, optimal-score, optimal-shut; pig10: greedy, count */
}

/* A game with the apply_pending hook is played by the batch's own loop (one call into the
 * game per decision) unless the steps are followed; with --check they are (decide or pending,
 * then apply, then the invariants). Both loops must play the same games: same choices counted
 * per seat and kind, same lengths, scores and wins, under each game's default bot. */
TEST(runner_batch_loop_agrees_with_the_followed_loop)
{
    int tried = 0;
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        if (g->apply_pending == NULL)
            continue;
        char err[512];
        cJSON *json;
        void *rules = rules_effective(g, NULL, NULL, 0, &json, err, sizeof err);
        CHECK(rules != NULL);
        if (rules == NULL)
            continue;
        const bot_type *bot = registry_bot(g, g->default_bot);
        run_config c = one_bot_config(g, rules, bot, 300, 5);
        run_result fast, followed;
        CHECK_INT(run_batch(&c, &fast, err, sizeof err), 0);
        c.check = true;
        CHECK_INT(run_batch(&c, &followed, err, sizeof err), 0);
        CHECK_INT((int)fast.games, 300);
        CHECK_INT((int)followed.games, 300);
        CHECK_INT(fast.nkinds, followed.nkinds);
        for (int k = 0; k < 2 * c.nseats * fast.nkinds; k++)
            CHECK_INT(fast.choices[k], followed.choices[k]);
        CHECK(fast.length.sum == followed.length.sum);
        for (int k = 0; k < c.nseats; k++) {
            CHECK(fast.score[k].sum == followed.score[k].sum);
            CHECK_INT(fast.win_units[k], followed.win_units[k]);
        }
        run_result_free(&fast);
        run_result_free(&followed);
        cJSON_Delete(json);
        free(rules);
        tried++;
    }
    CHECK(tried >= 1); /* oca has the hook */
}

/* A share at 0 or at n gets the exact (Clopper-Pearson) bound, 1 - 0.025^(1/n) above 0 and
 * 0.025^(1/n) below n (closed forms of Beta(1, n) and Beta(n, 1)); inside, Wilson's; no
 * trial, [0, 1]. Issue 41: no printed share has a collapsed or approximate edge. */
TEST(stats_share_interval_is_exact_at_its_edges)
{
    const double ns[] = {1, 7, 300, 100000};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        double n = ns[i], lo, hi;
        stats_share_interval(0, n, &lo, &hi);
        CHECK_NEAR(lo, 0, 0);
        CHECK_NEAR(hi, 1 - pow(0.025, 1 / n), 1e-12);
        stats_share_interval(n, n, &lo, &hi);
        CHECK_NEAR(lo, pow(0.025, 1 / n), 1e-12);
        CHECK_NEAR(hi, 1, 0);
    }
    double lo, hi, wlo, whi;
    stats_share_interval(37, 300, &lo, &hi);
    stats_wilson(37, 300, &wlo, &whi);
    CHECK(lo == wlo && hi == whi);
    stats_share_interval(0, 0, &lo, &hi);
    CHECK(lo == 0 && hi == 1);
}

/* stats_interval keeps every interval inside its support: a share's is Wilson's at the
 * effective sample size p(1-p)/var (so with the binomial variance and many degrees of
 * freedom, Wilson's own), inside [0, 1] even on one degree of freedom, exact at 0 and 1; a
 * mean of counts is the t interval raised to 0; any other, the t interval. */
TEST(stats_interval_stays_inside_its_support)
{
    double lo, hi, wlo, whi;
    double p = 37.0 / 300;
    stats_interval(p, p * (1 - p) / 300, 1e9, 0.025, STATS_SHARE, 300, &lo, &hi);
    stats_wilson(37, 300, &wlo, &whi);
    CHECK_NEAR(lo, wlo, 1e-7);
    CHECK_NEAR(hi, whi, 1e-7);
    /* a share near an edge with a large variance, few degrees of freedom */
    const double ps[] = {0.001, 0.25, 0.999};
    for (int i = 0; i < 3; i++) {
        stats_interval(ps[i], 0.5, 1, 0.025, STATS_SHARE, 2, &lo, &hi);
        CHECK(lo >= 0 && lo <= ps[i] && hi <= 1 && hi >= ps[i]);
        stats_interval(ps[i], 1e-12, 1000, 0.025, STATS_SHARE, 2000, &lo, &hi);
        CHECK(lo >= 0 && lo <= ps[i] && hi <= 1 && hi >= ps[i]);
    }
    /* the edges: Clopper-Pearson over the trials, at the tail asked */
    stats_interval(0, 0, 10, 0.025, STATS_SHARE, 50, &lo, &hi);
    CHECK(lo == 0);
    CHECK_NEAR(hi, 1 - pow(0.025, 1.0 / 50), 1e-12);
    stats_interval(1, 0, 10, 0.005, STATS_SHARE, 50, &lo, &hi);
    CHECK_NEAR(lo, pow(0.005, 1.0 / 50), 1e-12);
    CHECK(hi == 1);
    /* a share with no spread strictly inside is a point */
    stats_interval(0.5, 0, 10, 0.025, STATS_SHARE, 50, &lo, &hi);
    CHECK(lo == 0.5 && hi == 0.5);
    /* a mean of counts: 1 of 20 games, sd 0.2236 */
    double var = (1.0 / 19) * (1 - 1.0 / 20) / 20, t = 2.0930240544; /* t(0.975, 19) */
    stats_interval(0.05, var, 19, 0.025, STATS_NONNEG, 20, &lo, &hi);
    CHECK(lo == 0);
    CHECK_NEAR(hi, 0.05 + t * sqrt(var), 1e-8);
    stats_interval(0.05, var, 19, 0.025, STATS_REAL, 20, &lo, &hi);
    CHECK_NEAR(lo, 0.05 - t * sqrt(var), 1e-8);
    stats_interval(NAN, var, 19, 0.025, STATS_REAL, 20, &lo, &hi);
    CHECK(isnan(lo) && isnan(hi));
    stats_interval(0.5, var, 0, 0.025, STATS_REAL, 20, &lo, &hi);
    CHECK(isnan(lo) && isnan(hi));
}
