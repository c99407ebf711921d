/* test_course.c — the course of a game and its quality figures (core/course.h): each
 * definition on a hand-made course of known value, the thinning of long courses, and every
 * figure against its exact value over all the games of a small coin race, enumerated whole. */
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "core/course.h"
#include "core/course_rec.h"
#include "core/recorder.h"
#include "core/rng.h"
#include "games/cinesi/cinesi.h"

static const metric_def course_table[] = {COURSE_METRIC_DEFS, {NULL, 0, 0, NULL}};
static const game_type course_game = {.name = "course-test", .metrics = course_table};

/* Plays the course v[step][seat] (nsteps steps of n seats) into c. */
static void play_course(course *c, const int64_t (*v)[GAME_MAX_SEATS], int nsteps, int n)
{
    course_start(c);
    for (int t = 0; t < nsteps; t++)
        course_note(c, v[t], n);
}

/* Records c, won by `winners`, into a new recorder of the course table (the caller frees). */
static recorder *record_one(const course *c, uint32_t winners)
{
    recorder *rec = rec_new(&course_game, 2, false);
    rec_batch b = rec_batch_open(rec, course_table);
    course_record(c, winners, &b, 0);
    return rec;
}

/* Eight steps of two seats: A leads, level, B leads, A leads, level, then B for good.
 * Lead changes: B over A (step 3), A over B (4), B over A (6): 3. At half-way (step 4) A
 * leads and B is last; B, the winner, takes the lead for good at step 6 of 8 (75%); its
 * deficits to the top are 1 (step 1) and 1 (step 4), 2/8 of a point on average (25
 * hundredths). At 25% (step 2) nobody leads; at 50% A (a miss), at 75% B (a hit). */
TEST(course_hand_made_two_seats)
{
    static const int64_t v[8][GAME_MAX_SEATS] = {{1, 0}, {1, 1}, {1, 2}, {3, 2},
                                                  {3, 3}, {2, 4}, {2, 5}, {2, 6}};
    course c;
    play_course(&c, v, 8, 2);
    CHECK_INT(c.changes, 3);
    CHECK_INT(c.leader, 1);
    CHECK_INT(c.lead_since, 6);
    recorder *rec = record_one(&c, 2u);
    CHECK_INT(rec_get(rec, COURSE_M_LEAD_CHANGES, -1)->sum, 3);
    CHECK_INT(rec_get(rec, COURSE_M_NO_LEAD_CHANGE, -1)->hits, 0);
    CHECK_INT(rec_get(rec, COURSE_M_NO_LEAD_CHANGE, -1)->n, 1);
    CHECK_INT(rec_get(rec, COURSE_M_COMEBACK, -1)->hits, 1);
    CHECK_INT(rec_get(rec, COURSE_M_DECIDED_AT, -1)->sum, 75);
    CHECK_INT(rec_get(rec, COURSE_M_DRAMA, -1)->sum, 25);
    CHECK_INT(rec_get(rec, COURSE_M_LEADER_WINS_25, -1)->n, 0);
    CHECK_INT(rec_get(rec, COURSE_M_LEADER_WINS_50, -1)->n, 1);
    CHECK_INT(rec_get(rec, COURSE_M_LEADER_WINS_50, -1)->hits, 0);
    CHECK_INT(rec_get(rec, COURSE_M_LEADER_WINS_75, -1)->hits, 1);
    rec_free(rec);
    /* The same course won by A: not last at half-way, never leads at the end (decided at
     * 100%), deficits 0,0,1,0,0,2,3,4 (10/8: 125 hundredths), the leader at 50% wins. */
    rec = record_one(&c, 1u);
    CHECK_INT(rec_get(rec, COURSE_M_COMEBACK, -1)->hits, 0);
    CHECK_INT(rec_get(rec, COURSE_M_DECIDED_AT, -1)->sum, 100);
    CHECK_INT(rec_get(rec, COURSE_M_DRAMA, -1)->sum, 125);
    CHECK_INT(rec_get(rec, COURSE_M_LEADER_WINS_50, -1)->hits, 1);
    CHECK_INT(rec_get(rec, COURSE_M_LEADER_WINS_75, -1)->hits, 0);
    rec_free(rec);
    /* A draw (two winners): the lead changes only, nothing about a winner. */
    rec = record_one(&c, 3u);
    CHECK_INT(rec_get(rec, COURSE_M_LEAD_CHANGES, -1)->n, 1);
    CHECK_INT(rec_get(rec, COURSE_M_COMEBACK, -1)->n, 0);
    CHECK_INT(rec_get(rec, COURSE_M_DECIDED_AT, -1)->n, 0);
    rec_free(rec);
}

/* Three seats: a lead taken back by the seat that held it last is no change; a tie for
 * last is last; a seat leading from the first step to the end decided the game at 1/n. */
TEST(course_hand_made_three_seats)
{
    static const int64_t v[4][GAME_MAX_SEATS] = {{5, 0, 0}, {5, 5, 0}, {6, 5, 0}, {7, 5, 5}};
    course c;
    play_course(&c, v, 4, 3);
    CHECK_INT(c.changes, 0); /* A, level, A again */
    CHECK_INT(c.lead_since, 3);
    uint8_t lead, last;
    course_at(&c, 1, &lead, &last);
    CHECK_INT(lead, 1);
    CHECK_INT(last, 6); /* B and C tied for last */
    course_at(&c, 2, &lead, &last);
    CHECK_INT(lead, 0);
    CHECK_INT(last, 4);
    course_at(&c, 0, &lead, &last); /* the start: everyone level */
    CHECK_INT(lead, 0);
    CHECK_INT(last, 0);
    static const int64_t w[3][GAME_MAX_SEATS] = {{1, 0, 0}, {2, 1, 0}, {3, 1, 1}};
    play_course(&c, w, 3, 3);
    recorder *rec = record_one(&c, 1u);
    CHECK_INT(rec_get(rec, COURSE_M_DECIDED_AT, -1)->sum, 33); /* 1 of 3 steps */
    CHECK_INT(rec_get(rec, COURSE_M_NO_LEAD_CHANGE, -1)->hits, 1);
    rec_free(rec);
}

/* A course longer than its slots keeps every stride-th step, stride a power of two, and
 * reads a step at the kept step at or before it; below COURSE_SAMPLES steps it keeps all. */
TEST(course_long_games_are_thinned)
{
    enum { N = 1000 };
    course c;
    course_start(&c);
    for (int t = 1; t <= N; t++) {
        int64_t v[2] = {(t / 7) % 2, 1 - (t / 7) % 2}; /* the lead alternates every 7 steps */
        course_note(&c, v, 2);
        if (t == COURSE_SAMPLES - 1)
            CHECK_INT(c.stride, 1);
    }
    CHECK_INT(c.steps, N);
    CHECK(c.stride == 8 || c.stride == 16);
    CHECK(c.nslots <= COURSE_SAMPLES);
    CHECK_INT(c.nslots, N / c.stride + 1);
    for (int q = 1; q <= N; q += 37) {
        int kept = q / c.stride * c.stride;
        uint8_t lead, last;
        course_at(&c, q, &lead, &last);
        int want = kept == 0 ? 0 : 1u << (1 - (kept / 7) % 2);
        CHECK_INT(lead, want);
    }
}

/* ---- every figure against its exact value: a coin race, all its games -----------------
 * Two players, STEPS steps; at each a fair coin gives one of them a point. Every one of the
 * 2^STEPS games is equally likely, so a figure's exact value is its plain average over all
 * games, worked out here from the definitions on the whole course (no course kept) and
 * compared with what course_record recorded over the same games. */
enum { STEPS = 9 };

typedef struct toy_exact {
    int64_t changes, none, games;
    int64_t comeback, won;
    int64_t decided_pct, drama_pct;
    int64_t led[3], leader_won[3];
} toy_exact;

/* The definitions of course.h, straight from the whole course p[0..STEPS][2]. */
static void toy_figures(const int p[STEPS + 1][2], toy_exact *e)
{
    int lead[STEPS + 1], last[STEPS + 1];
    for (int t = 0; t <= STEPS; t++) {
        lead[t] = p[t][0] > p[t][1] ? 0 : p[t][1] > p[t][0] ? 1 : -1;
        last[t] = lead[t] < 0 ? -1 : 1 - lead[t];
    }
    int changes = 0, held = -1;
    for (int t = 1; t <= STEPS; t++)
        if (lead[t] >= 0) {
            changes += held >= 0 && held != lead[t];
            held = lead[t];
        }
    e->changes += changes;
    e->none += changes == 0;
    e->games++;
    int w = p[STEPS][0] > p[STEPS][1] ? 0 : 1; /* STEPS odd: nobody ties at the end */
    e->won++;
    e->comeback += last[STEPS / 2] == w;
    int since = STEPS; /* the first step of the winner's last unbroken lead */
    while (since > 1 && lead[since - 1] == w)
        since--;
    if (lead[STEPS] != w)
        since = STEPS;
    e->decided_pct += (200 * since + STEPS) / (2 * STEPS);
    int deficit = 0;
    for (int t = 1; t <= STEPS; t++)
        deficit += p[t][1 - w] > p[t][w] ? p[t][1 - w] - p[t][w] : 0;
    e->drama_pct += (200 * deficit + STEPS) / (2 * STEPS);
    static const int at[3] = {25, 50, 75};
    for (int k = 0; k < 3; k++) {
        int q = STEPS * at[k] / 100;
        if (lead[q] >= 0) {
            e->led[k]++;
            e->leader_won[k] += lead[q] == w;
        }
    }
}

TEST(course_figures_match_the_exact_coin_race)
{
    toy_exact e;
    memset(&e, 0, sizeof e);
    recorder *rec = rec_new(&course_game, 2, false);
    for (unsigned g = 0; g < 1u << STEPS; g++) {
        int p[STEPS + 1][2] = {{0, 0}};
        course c;
        course_start(&c);
        for (int t = 1; t <= STEPS; t++) {
            int who = g >> (t - 1) & 1;
            p[t][0] = p[t - 1][0] + (who == 0);
            p[t][1] = p[t - 1][1] + (who == 1);
            int64_t v[2] = {p[t][0], p[t][1]};
            course_note(&c, v, 2);
        }
        toy_figures(p, &e);
        rec_batch b = rec_batch_open(rec, course_table);
        course_record(&c, p[STEPS][0] > p[STEPS][1] ? 1u : 2u, &b, 0);
    }
    CHECK_INT(e.games, 1 << STEPS);
    CHECK_INT(rec_get(rec, COURSE_M_LEAD_CHANGES, -1)->n, e.games);
    CHECK_INT(rec_get(rec, COURSE_M_LEAD_CHANGES, -1)->sum, e.changes);
    CHECK_INT(rec_get(rec, COURSE_M_NO_LEAD_CHANGE, -1)->hits, e.none);
    CHECK_INT(rec_get(rec, COURSE_M_COMEBACK, -1)->n, e.won);
    CHECK_INT(rec_get(rec, COURSE_M_COMEBACK, -1)->hits, e.comeback);
    CHECK_INT(rec_get(rec, COURSE_M_DECIDED_AT, -1)->sum, e.decided_pct);
    CHECK_INT(rec_get(rec, COURSE_M_DRAMA, -1)->sum, e.drama_pct);
    for (int k = 0; k < 3; k++) {
        CHECK_INT(rec_get(rec, COURSE_M_LEADER_WINS_25 + k, -1)->n, e.led[k]);
        CHECK_INT(rec_get(rec, COURSE_M_LEADER_WINS_25 + k, -1)->hits, e.leader_won[k]);
    }
    /* The figures are not degenerate here: some games change lead and some do not, and
     * the leader at half-way (step 4, when not level) wins more often than not. */
    CHECK(e.none > 0 && e.none < e.games);
    CHECK(2 * e.leader_won[1] > e.led[1]);
    rec_free(rec);
}

/* A real game's course: the Cinesi's own count of lead changes (kept by its race loop, which
 * knows the leader by where it is in the code) is the course's, and its steps are the turns,
 * in 4000 games of 2, 3 and 4 players under the default rules. */
TEST(course_of_the_cinesi_matches_its_own_counts)
{
    cJSON *json = cJSON_Parse(game_cinesi.default_rules);
    cinesi_rules r;
    char err[256];
    CHECK(game_cinesi.rules_load(&r, json, err, sizeof err) == 0);
    cJSON_Delete(json);
    for (int n = 2; n <= 4; n++)
        for (uint64_t g = 0; g < 4000; g++) {
            rng chance;
            rng_seed_stream(&chance, 7, g, RNG_STREAM_CHANCE);
            cinesi_state s;
            game_cinesi.start(&s, &r, n, &chance, NULL);
            CHECK_INT(s.course.changes, s.lead_changes);
            CHECK_INT(s.course.steps, s.turns);
            CHECK_INT(s.course.leader, s.winner); /* at the centre, alone ahead */
            int64_t v[GAME_MAX_SEATS];
            game_cinesi.standing(&s, v);
            CHECK_INT(v[s.winner], r.steps);
        }
}

/* Noting a seat at a time (course_set, course_step) keeps the same course as noting every
 * standing (course_note): random walks of 2 to 8 seats whose standings rise and fall, one or
 * two seats a step, long enough to be thinned. */
TEST(course_set_keeps_the_course_of_course_note)
{
    rng r;
    rng_seed(&r, 40);
    for (int n = 2; n <= GAME_MAX_SEATS; n++)
        for (int game = 0; game < 20; game++) {
            int64_t v[GAME_MAX_SEATS] = {0};
            for (int s = 0; s < n; s++)
                v[s] = (int64_t)rng_below(&r, 3);
            course a, b;
            course_start(&a);
            course_start_at(&b, v, n);
            int steps = 1 + (int)rng_below(&r, 400);
            for (int t = 0; t < steps; t++) {
                for (int k = 0; k < 1 + (int)rng_below(&r, 2); k++) {
                    int s = (int)rng_below(&r, (uint32_t)n);
                    v[s] += (int64_t)rng_below(&r, 5) - 2;
                    course_set(&b, s, v[s]);
                }
                course_note(&a, v, n);
                course_step(&b);
            }
            CHECK_INT(a.steps, b.steps);
            CHECK_INT(a.changes, b.changes);
            CHECK_INT(a.leader, b.leader);
            CHECK_INT(a.lead_since, b.lead_since);
            CHECK_INT(a.top_sum, b.top_sum);
            CHECK_INT(a.nslots, b.nslots);
            CHECK(memcmp(a.lead, b.lead, (size_t)a.nslots) == 0);
            CHECK(memcmp(a.last, b.last, (size_t)a.nslots) == 0);
            for (int s = 0; s < n; s++)
                CHECK_INT(course_sum(&a, s), course_sum(&b, s));
        }
}
