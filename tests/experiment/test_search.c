/* test_search.c — the searches (tune.c, seek.c, tournament.c, sensitivity over every key) on
 * the toy game with planted answers "plant" of tests/toy_kit.h.
 *
 * Each seat decides twice: q in 0..10, then z in 0..100 (hundredths); its bot "dial" plays
 * its parameters q and z. Chance draws a uniform v_k per seat and the seat with the largest
 * s_k v_k wins, s_k = (1 - 0.08 |q_k - 7|)(1 - 2 (z_k - 0.3)^2): the best q is 7 and the best
 * z 0.3, whatever the others play. The game figure "hit" is the share of games in which a
 * uniform draw u falls below p, a planted curve of the ruleset: p = x/100 (shape "line"),
 * p = 0.9 - 0.016 |x - 50| ("hump", 0.5 at x = 25 and x = 75), p = r ("real"),
 * p = 0.3 + 0.002 (x - 55)^2 ("dip": 0.32 at 51.84 and 58.16, both between the sweep's points
 * 50 and 62); then
 * mode b adds 0.1, mode c takes 0.1 away, flag true adds 0.2 (p kept in 0..1). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "config/rules.h"
#include "experiment/experiment.h"
#include "experiment_kit.h"
#include "toy_kit.h"


static exp_options plant_options(uint64_t runs, int threads)
{
    exp_options o;
    memset(&o, 0, sizeof o);
    o.game = &plant_game;
    o.runs = runs;
    o.seed = 7;
    o.threads = threads;
    o.format = REPORT_JSON;
    return o;
}

/* The report without its "run" object, as text (caller frees). */
static char *without_run(cJSON *j)
{
    cJSON_DeleteItemFromObject(j, "run");
    return cJSON_Print(j);
}

/* The number at key of object j (NAN if absent). */
static double num(const cJSON *j, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(j, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static double at_num(const cJSON *arr, int i)
{
    return cJSON_GetArrayItem(arr, i)->valuedouble;
}

TEST(tune_finds_the_planted_best_parameters)
{
    exp_options o = plant_options(4000, 2);
    o.tune = "seat1.q=0:10,seat1.z=0:1";
    o.maximize = "win_share@1";
    cJSON *j = et_run_json(&o);
    CHECK(j != NULL);
    if (j == NULL)
        return;
    const cJSON *ps = cJSON_GetObjectItem(j, "parameters");
    double q = num(cJSON_GetArrayItem(ps, 0), "best"), z = num(cJSON_GetArrayItem(ps, 1), "best");
    CHECK_NEAR(q, 7, 0);
    /* the win share moves by less than a third of a point within 0.1 of z = 0.3 (about the
     * search's last intervals), and by over a point beyond 0.15 */
    CHECK_NEAR(z, 0.3, 0.15);
    const cJSON *ev = cJSON_GetObjectItem(j, "evaluation");
    const cJSON *gain = cJSON_GetObjectItem(ev, "improvement");
    const cJSON *ci = cJSON_GetObjectItem(gain, "ci95");
    CHECK(cJSON_GetArrayItem(ci, 0)->valuedouble > 0); /* better than q=0, z=0.5, shown */
    CHECK_STR(cJSON_GetObjectItem(j, "mode")->valuestring, "tune");
    /* the same bytes on one thread */
    o.threads = 1;
    cJSON *j1 = et_run_json(&o);
    CHECK(j1 != NULL);
    if (j1) {
        char *a = without_run(j), *b = without_run(j1);
        CHECK_STR(a, b);
        free(a);
        free(b);
        cJSON_Delete(j1);
    }
    cJSON_Delete(j);
}

TEST(tune_minimize_finds_the_worst_q)
{
    exp_options o = plant_options(2000, 1);
    o.tune = "seat2.q=0:10";
    o.maximize = "win_share@2";
    o.minimize = true;
    cJSON *j = et_run_json(&o);
    CHECK(j != NULL);
    if (j == NULL)
        return;
    /* the weakest strength is at q = 0 (7 away from the best), the start: it stays */
    CHECK_NEAR(num(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "parameters"), 0), "best"), 0, 0);
    cJSON_Delete(j);
}

/* Runs o, which must be refused as bad input: exit code 2 and an error that contains want.
 * A failure names the options by the printf-style rest (e.g. "--tune=%s", ...). */
static void __attribute__((format(printf, 3, 4)))
check_refused(const exp_options *o, const char *want, const char *fmt, ...)
{
    char err[512] = "", what[256];
    int rc = experiment_run(o, NULL, err, sizeof err);
    CHECK_INT(rc, 2);
    if (strstr(err, want) == NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        check_fail(__FILE__, __LINE__, "%s: '%s' lacks '%s'", what, err, want);
    }
}

TEST(tune_rejects_bad_options)
{
    static const struct {
        const char *tune, *fig, *want;
    } bad[] = {
        {"seat1.q=0:10", NULL, "needs --maximize"},
        {"seat1.nope=0:1", "win_share@1", "no parameter 'nope'"},
        {"seat1.q=0:11", "win_share@1", "is in 0..10"},
        {"seat1.q=0.5:3", "win_share@1", "whole number"},
        {"seat1.q=3:3", "win_share@1", "LO below HI"},
        {"seat1.q=0:3,seat2.z=0:1", "win_share@1", "one seat"},
        {"seat3.q=0:3", "win_share@1", "has 2 players"},
        {"q=0:3", "win_share@1", "expected seatN.PARAM=LO:HI"},
        {"seat1.q=0:3", "nothing@1", "--maximize: no figure 'nothing@1'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        exp_options o = plant_options(100, 1);
        o.tune = bad[i].tune;
        o.maximize = bad[i].fig;
        check_refused(&o, bad[i].want, "--tune=%s", bad[i].tune);
    }
}

/* The crossings of a seek report: estimate and interval of each, into est, lo, hi (at most
 * max); returns how many. */
static int crossings(const cJSON *j, double *est, double *lo, double *hi, int max)
{
    const cJSON *c;
    int n = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "crossings"))
    {
        if (n < max) {
            const cJSON *iv = cJSON_GetObjectItem(c, "interval");
            est[n] = num(c, "estimate");
            lo[n] = cJSON_IsNumber(cJSON_GetArrayItem(iv, 0)) ? at_num(iv, 0) : NAN;
            hi[n] = cJSON_IsNumber(cJSON_GetArrayItem(iv, 1)) ? at_num(iv, 1) : NAN;
        }
        n++;
    }
    return n;
}

TEST(seek_recovers_a_planted_linear_crossing)
{
    /* p = x/100: the hit share is 0.3 at x = 30 exactly */
    exp_options o = plant_options(200000, 2);
    o.target = "hit=0.3";
    o.over = "x=0:100";
    cJSON *j = et_run_json(&o);
    CHECK(j != NULL);
    if (j == NULL)
        return;
    double est[4], lo[4], hi[4];
    CHECK_INT(crossings(j, est, lo, hi, 4), 1);
    CHECK(lo[0] <= 30 && 30 <= hi[0]);
    /* half a point of a share whose slope is 1 point per unit of x: about a unit either side
     * (and the whole key's points are whole) */
    CHECK(hi[0] - lo[0] <= 3);
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(j, "whole")));
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(j, "points"))
    {
        double v = num(p, "value");
        CHECK(v == floor(v));
    }
    o.threads = 1;
    cJSON *j1 = et_run_json(&o);
    CHECK(j1 != NULL);
    if (j1) {
        char *a = without_run(j), *b = without_run(j1);
        CHECK_STR(a, b);
        free(a);
        free(b);
        cJSON_Delete(j1);
    }
    cJSON_Delete(j);
}

TEST(seek_reports_both_crossings_of_a_planted_hump)
{
    /* p = 0.9 - 0.016 |x - 50|: 0.5 at x = 25 (rising) and x = 75 (falling) */
    exp_options o = plant_options(200000, 2);
    static const char *sets[] = {"shape=\"hump\""};
    o.sets = sets;
    o.nsets = 1;
    o.target = "hit=0.5";
    o.over = "x=0:100";
    cJSON *j = et_run_json(&o);
    CHECK(j != NULL);
    if (j == NULL)
        return;
    double est[4], lo[4], hi[4];
    CHECK_INT(crossings(j, est, lo, hi, 4), 2);
    CHECK(lo[0] <= 25 && 25 <= hi[0]);
    CHECK(lo[1] <= 75 && 75 <= hi[1]);
    CHECK_STR(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "crossings"), 0),
                                  "direction")->valuestring,
              "rising");
    cJSON_Delete(j);
}

TEST(seek_finds_two_crossings_between_neighbouring_sweep_points)
{
    /* the dip goes below 0.32 only within 51.84..58.16, between the sweep's 50 (0.35) and 62
     * (0.398): no sign change in the sweep, but 50 is its turn, and the parabola through 37,
     * 50 and 62 puts the vertex near 55, across the target */
    exp_options o = plant_options(200000, 2);
    static const char *sets[] = {"shape=\"dip\""};
    o.sets = sets;
    o.nsets = 1;
    o.target = "hit=0.32";
    o.over = "x=0:100";
    cJSON *j = et_run_json(&o);
    CHECK(j != NULL);
    if (j == NULL)
        return;
    double est[4], lo[4], hi[4];
    CHECK_INT(crossings(j, est, lo, hi, 4), 2);
    CHECK(lo[0] <= 51.84 && 51.84 <= hi[0]);
    CHECK(lo[1] <= 58.16 && 58.16 <= hi[1]);
    CHECK(num(j, "turns_probed") >= 1);
    cJSON_Delete(j);
    /* a target the dip stays above (0.2): the turn is probed, nothing is found */
    o.target = "hit=0.2";
    j = et_run_json(&o);
    CHECK(j != NULL);
    if (j) {
        CHECK_INT(crossings(j, est, lo, hi, 4), 0);
        cJSON_Delete(j);
    }
}

/* Coverage of the seek's crossings, against the planted curves' exact crossings, over
 * REPS seeds each: a steep one (the line, 0.3 at x = 30) and a flat stretch (the dip's
 * bottom, within the half-width of the target 0.301 from 53.3 to 56.7, crossing it at
 * 54.29 and 55.71, closer than the half-width can tell apart). The steep crossing's interval
 * must hold 30 in 95% of the runs within 3 standard errors of REPS Bernoulli(0.95) draws;
 * the flat stretch must be reported as one crossing, marked flat, whose interval holds both
 * exact crossings, as often. */
TEST(seek_covers_the_exact_crossing_on_steep_and_flat_curves)
{
    enum { REPS = 20 };
    int need = (int)ceil(REPS * 0.95 - 3 * sqrt(REPS * 0.95 * 0.05)); /* 17 of 20 */
    int steep = 0, flat = 0;
    for (uint64_t seed = 1; seed <= REPS; seed++) {
        exp_options o = plant_options(20000, 1);
        o.seed = seed;
        o.target = "hit=0.3";
        o.over = "x=0:100";
        cJSON *j = et_run_json(&o);
        CHECK(j != NULL);
        if (j == NULL)
            return;
        double est[4], lo[4], hi[4];
        steep += crossings(j, est, lo, hi, 4) == 1 && lo[0] <= 30 && 30 <= hi[0];
        cJSON_Delete(j);
        static const char *sets[] = {"shape=\"dip\""};
        o.sets = sets;
        o.nsets = 1;
        o.target = "hit=0.301";
        o.over = "x=40:70";
        j = et_run_json(&o);
        CHECK(j != NULL);
        if (j == NULL)
            return;
        const double a = 55 - sqrt(0.0005), b = 55 + sqrt(0.0005);
        flat += crossings(j, est, lo, hi, 4) == 1 && lo[0] <= a && b <= hi[0] &&
                cJSON_IsTrue(cJSON_GetObjectItem(
                    cJSON_GetArrayItem(cJSON_GetObjectItem(j, "crossings"), 0), "flat"));
        cJSON_Delete(j);
    }
    CHECK(steep >= need);
    CHECK(flat >= need);
}

TEST(seek_on_a_real_key_and_a_target_outside_the_curve)
{
    exp_options o = plant_options(200000, 1);
    static const char *sets[] = {"shape=\"real\""};
    o.sets = sets;
    o.nsets = 1;
    o.target = "hit=0.42:0.01";
    o.over = "r=0:1";
    cJSON *j = et_run_json(&o);
    CHECK(j != NULL);
    if (j == NULL)
        return;
    double est[4], lo[4], hi[4];
    CHECK_INT(crossings(j, est, lo, hi, 4), 1);
    CHECK(lo[0] <= 0.42 && 0.42 <= hi[0]);
    CHECK(hi[0] - lo[0] <= 0.05); /* +-0.01 of a share of slope 1, and the sweep's rounding */
    CHECK(!cJSON_IsTrue(cJSON_GetObjectItem(j, "whole")));
    cJSON_Delete(j);
    /* the curve stays below 1.5: no crossing, and nothing refined */
    o.target = "hit=1.5";
    j = et_run_json(&o);
    CHECK(j != NULL);
    if (j) {
        CHECK_INT(crossings(j, est, lo, hi, 4), 0);
        CHECK_INT(cJSON_GetArraySize(cJSON_GetObjectItem(j, "points")), 9);
        cJSON_Delete(j);
    }
}

TEST(seek_rejects_bad_options)
{
    static const struct {
        const char *target, *over, *want;
    } bad[] = {
        {"hit=0.3", NULL, "needs --over"},
        {"hit", "x=0:100", "expected FIGURE=VALUE"},
        {"hit=abc", "x=0:100", "VALUE must be a number"},
        {"hit=0.3:0", "x=0:100", "half-width must be a number above 0"},
        {"hit=0.3", "x=0", "expected KEY=LO:HI"},
        {"hit=0.3", "x=5:1", "LO below HI"},
        {"hit=0.3", "x=0:1000", "--over 'x=0:1000'"},
        {"hit=0.3", "x=0.5:10", "expected an integer"},
        {"nothing=0.3", "x=0:100", "--target: no figure 'nothing'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        exp_options o = plant_options(100, 1);
        o.target = bad[i].target;
        o.over = bad[i].over;
        check_refused(&o, bad[i].want, "--target=%s --over=%s", bad[i].target,
                      bad[i].over ? bad[i].over : "(none)");
    }
}

/* The rating of bot `name` in a tournament report. */
static double rating(const cJSON *j, const char *name)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "ratings"))
    {
        if (strcmp(cJSON_GetObjectItem(r, "bot")->valuestring, name) == 0)
            return num(cJSON_GetObjectItem(r, "elo"), "value");
    }
    return NAN;
}

TEST(tournament_orders_a_planted_ladder)
{
    /* strength 1 - 0.08 |q - 7|: q = 1 < q = 4 < q = 7, whatever the others play */
    for (int seats = 2; seats <= 3; seats++) {
        exp_options o = plant_options(3000, 2);
        o.players = seats;
        o.tournament = seats == 2 ? "dial:q=4,dial:q=1,dial:q=7" : "dial:q=4,dial:q=1,dial:q=7,dial:q=2";
        cJSON *j = et_run_json(&o);
        CHECK(j != NULL);
        if (j == NULL)
            continue;
        double r1 = rating(j, "dial:q=1"), r4 = rating(j, "dial:q=4"), r7 = rating(j, "dial:q=7");
        CHECK(r1 < r4 && r4 < r7);
        if (seats == 3)
            CHECK(rating(j, "dial:q=2") < r4);
        /* the tables: every pair (3), or every 3 of the 4 bots (4) */
        CHECK_INT(cJSON_GetArraySize(cJSON_GetObjectItem(j, "tables")), seats == 2 ? 3 : 4);
        /* ratings are centred: their mean is 0 */
        double sum = 0;
        const cJSON *r;
        cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "ratings"))
            sum += num(cJSON_GetObjectItem(r, "elo"), "value");
        CHECK_NEAR(sum, 0, 1e-6);
        cJSON_Delete(j);
    }
}

TEST(sprt_between_equal_bots_accepts_h0_at_about_the_nominal_rate)
{
    /* two wobbles are equally strong: elo = 0 = ELO0, so H1 should be accepted in about
     * alpha = 5% of the runs (a little less: the looks overshoot the bounds). Over 100 seeds
     * the count is about binomial(100, 0.05): 13 or more has probability 0.0015. H1 at +5
     * Elo keeps each look's step small against the bounds, as the test's rates assume. */
    int h0 = 0, h1 = 0, covered = 0;
    for (uint64_t seed = 1; seed <= 100; seed++) {
        exp_options o = plant_options(100000, 1);
        o.seed = seed;
        o.tournament = "wobble:tag=1,wobble:tag=2";
        o.sprt = "0,5";
        cJSON *j = et_run_json(&o);
        CHECK(j != NULL);
        if (j == NULL)
            return;
        const cJSON *sp = cJSON_GetObjectItem(j, "sprt");
        const char *verdict = cJSON_GetObjectItem(sp, "accepted")->valuestring;
        h0 += strcmp(verdict, "H0") == 0;
        h1 += strcmp(verdict, "H1") == 0;
        /* the score after the stop, on fresh deals: its interval holds the exact 0.5 */
        const cJSON *ci = cJSON_GetObjectItem(cJSON_GetObjectItem(sp, "score"), "ci95");
        covered += at_num(ci, 0) <= 0.5 && 0.5 <= at_num(ci, 1);
        cJSON_Delete(j);
    }
    CHECK(h1 <= 12);
    /* coverage about binomial(100, 0.95): 3 standard errors (2.18 each) below 95 is 88.5 */
    CHECK(covered >= 89);
    CHECK_INT(h0 + h1, 100); /* every run decided within 100000 deals */
    /* a bot 0.08 stronger in every game is far above +20 Elo: H1 */
    exp_options o = plant_options(100000, 2);
    o.tournament = "dial:q=7,dial:q=6";
    o.sprt = "0,20";
    cJSON *j = et_run_json(&o);
    CHECK(j != NULL);
    if (j) {
        CHECK_STR(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "sprt"), "accepted")->valuestring,
                  "H1");
        cJSON_Delete(j);
    }
}

TEST(tournament_rejects_bad_options)
{
    static const struct {
        const char *list, *sprt, *want;
    } bad[] = {
        {"dial", NULL, "two bots or more"},
        {"dial,dial:q=0", NULL, "listed twice"},
        {"dial,nobot", NULL, "nobot"},
        {"dial,dial:q=1,dial:q=2", "0,20", "--sprt compares two bots"},
        {"dial,dial:q=1", "20,0", "ELO0 must be below ELO1"},
        {"dial,dial:q=1", "0,20,0.7,0.05", "ALPHA and BETA"},
        {"dial,dial:q=1", "x", "expected ELO0,ELO1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        exp_options o = plant_options(100, 1);
        o.tournament = bad[i].list;
        o.sprt = bad[i].sprt;
        check_refused(&o, bad[i].want, "--tournament=%s", bad[i].list);
    }
}

/* The "up" (or "down") difference of key `key` (with up value `value`, or NULL: any) in a
 * sensitivity report, NAN if absent; *step its step (NAN when not a number). */
static double sens_effect(const cJSON *j, const char *key, const char *value, const char *side,
                          double *step)
{
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(cJSON_GetObjectItem(j, "sensitivity"), "keys"))
    {
        if (strcmp(cJSON_GetObjectItem(k, "key")->valuestring, key) != 0)
            continue;
        const cJSON *s = cJSON_GetObjectItem(k, side);
        const cJSON *kv = cJSON_GetObjectItem(s, "key_value");
        if (value && !(cJSON_IsString(kv) && strcmp(kv->valuestring, value) == 0))
            continue;
        *step = num(k, "step");
        return num(cJSON_GetObjectItem(s, "difference"), "value");
    }
    return NAN;
}

TEST(sensitivity_moves_enums_booleans_and_numbers_by_the_step)
{
    /* planted: mode b adds 0.1 to p, c takes 0.1 away, flag adds 0.2, and x (line) moves p
     * by 0.01 a unit. On common random numbers each difference is exact up to the games
     * whose u falls between the two p: 5000 games, tolerance 3 standard errors of a share
     * of 0.1 (3 x 0.0042), far below the planted effects. */
    exp_options o = plant_options(5000, 2);
    o.sensitivity = true;
    o.sensitivity_keys = "mode,flag,x";
    o.metric = "hit";
    cJSON *j = et_run_json(&o);
    CHECK(j != NULL);
    if (j == NULL)
        return;
    double step, tol = 0.013;
    CHECK_NEAR(sens_effect(j, "mode", "b", "up", &step), 0.1, tol);
    CHECK(isnan(step));
    CHECK_NEAR(sens_effect(j, "mode", "c", "up", &step), -0.1, tol);
    CHECK_NEAR(sens_effect(j, "flag", NULL, "up", &step), 0.2, tol);
    CHECK_NEAR(sens_effect(j, "x", NULL, "up", &step), 0.05, tol); /* 10% of 50 */
    CHECK_NEAR(step, 5, 0);
    CHECK_NEAR(sens_effect(j, "x", NULL, "down", &step), -0.05, tol);
    cJSON_Delete(j);
    /* --step=1: whole units */
    o.step = "1";
    o.sensitivity_keys = "x";
    j = et_run_json(&o);
    CHECK(j != NULL);
    if (j) {
        CHECK_NEAR(sens_effect(j, "x", NULL, "up", &step), 0.01, tol);
        CHECK_NEAR(step, 1, 0);
        cJSON_Delete(j);
    }
    /* every key by default: the enums shape (three other values) and mode (two), flag, x, r */
    o.step = "20%";
    o.sensitivity_keys = NULL;
    j = et_run_json(&o);
    CHECK(j != NULL);
    if (j) {
        CHECK_INT(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "sensitivity"),
                                                         "keys")),
                  3 + 2 + 1 + 1 + 1);
        CHECK_NEAR(sens_effect(j, "x", NULL, "up", &step), 0.1, tol);
        CHECK_NEAR(step, 10, 0);
        cJSON_Delete(j);
    }
    o.step = "0%";
    char err[256];
    CHECK_INT(experiment_run(&o, NULL, err, sizeof err), 2);
    CHECK(strstr(err, "--step '0%'") != NULL);
}
