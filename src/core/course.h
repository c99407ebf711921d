/* course.h — the course of one game: how the seats' standings moved, turn by turn, and the
 * quality figures drawn from it (lead changes, comebacks, decisiveness, drama, uncertainty).
 *
 * A game keeps one `course` in its state. course_start at the start of a game, course_note at
 * the end of every step (a turn or a round, as the game's man page says) with each seat's
 * standing (game_type.standing: higher is better), and course_record in finish(), which adds
 * the figures to the game's own metric table (COURSE_METRIC_DEFS, at the index the game
 * passes; core/course_rec.h). So they are ordinary game metrics: every experiment, report format, shard and MPI
 * run carries them, with the same bytes at any thread count.
 *
 * Words used below. The leader after a step is the one seat whose standing is strictly the
 * highest (none when two or more share the top). The seats last after a step are those whose
 * standing is the lowest, unless every seat is level (then none is last). Step 0 is the start,
 * everyone level. The winner is the game's one winner (outcome.winners with one bit set):
 * the figures about the winner are taken over games with one winner only.
 *
 * The steps' leaders and last seats are kept in COURSE_SAMPLES slots: a game of fewer steps
 * keeps every step, a longer one every 2nd, 4th, ... step (the oldest slots thinned in place
 * as the game goes on), and a figure taken at a fraction of the game reads the kept step
 * nearest before it. Everything else is counted at every step. */
#ifndef GIOCHI_COURSE_H
#define GIOCHI_COURSE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "core/hot.h"

enum { COURSE_SAMPLES = 128 };

typedef struct course {
    int32_t steps;      /* steps noted so far */
    int32_t stride;     /* slot i holds step i * stride */
    int32_t nslots;     /* slots filled */
    int32_t countdown;  /* steps until the next kept one */
    int32_t changes;    /* lead changes: the leader became a seat other than the last one */
    int32_t lead_since; /* the step at which `leader` took the lead (when leader >= 0) */
    int8_t leader;      /* the leader after the last step, -1: none */
    int8_t held;        /* the last seat that was leader, -1: none yet */
    int64_t top_sum;                 /* the top standing, summed over the steps */
    int64_t sum[GAME_MAX_SEATS];     /* each seat's standing, summed over the steps (with
                                        cur[s] for the steps after since[s]) */
    /* Kept by course_set only (zero otherwise): the standings now, the step up to which
     * sum[s] counts cur[s], the top and lowest standings and their seats, the seats. */
    int64_t cur[GAME_MAX_SEATS];
    int32_t since[GAME_MAX_SEATS];
    int64_t top, low;
    unsigned topm, lowm;
    int n;
    uint8_t lead[COURSE_SAMPLES];    /* kept steps: bit of the leader (0: none) */
    uint8_t last[COURSE_SAMPLES];    /* kept steps: bits of the seats last (0: all level) */
} course;

/* The course metrics, for a game's metric table, in this order (see course_record). */
enum {
    COURSE_M_LEAD_CHANGES,
    COURSE_M_NO_LEAD_CHANGE,
    COURSE_M_COMEBACK,
    COURSE_M_DECIDED_AT,
    COURSE_M_DRAMA,
    COURSE_M_LEADER_WINS_25,
    COURSE_M_LEADER_WINS_50,
    COURSE_M_LEADER_WINS_75,
    COURSE_NMETRICS
};

/* The entries of the course metrics, to write inside a game's metric table. */
#define COURSE_METRIC_DEFS                                                                   \
    {"lead_changes", METRIC_MEAN, METRIC_GAME,                                               \
     "times a seat took the lead alone after another seat had led alone"},                   \
        {"no_lead_change", METRIC_RATE, METRIC_GAME,                                         \
         "share of games in which the lead never changed hands"},                            \
        {"comeback", METRIC_RATE, METRIC_GAME,                                               \
         "share of games won by a seat that was last at the half-way step"},                 \
        {"decided_at", METRIC_MEAN, METRIC_GAME,                                             \
         "percent of the game played when the winner took the lead for good (100: at the "   \
         "end)"},                                                                            \
        {"drama", METRIC_MEAN, METRIC_GAME,                                                  \
         "the winner's standing below the top, averaged over the game's steps, in "          \
         "hundredths of the standing's unit"},                                               \
        {"leader_wins_25", METRIC_RATE, METRIC_GAME,                                         \
         "share of games, among those with a leader at 25% of the game, won by that leader"}, \
        {"leader_wins_50", METRIC_RATE, METRIC_GAME,                                         \
         "share of games, among those with a leader at half-way, won by that leader"},       \
        {"leader_wins_75", METRIC_RATE, METRIC_GAME,                                         \
         "share of games, among those with a leader at 75% of the game, won by that leader"}

/* The labels of the course metrics, to write inside a game's label table. */
#define COURSE_METRIC_LABELS                                                                 \
    {"lead_changes", "lead changes", NULL}, {"no_lead_change", "games with no lead change", NULL}, \
        {"comeback", "won from last at half-way", NULL},                               \
        {"decided_at", "winner led for good from", "% of game"},                 \
        {"drama", "winner's mean deficit", "hundredths"},                      \
        {"leader_wins_25", "leader at 25% wins", NULL},                                      \
        {"leader_wins_50", "leader at half-way wins", NULL},                                 \
        {"leader_wins_75", "leader at 75% wins", NULL}

/* The names of the course metrics, NULL-terminated: a metric_group's list. */
extern const char *const course_metric_names[COURSE_NMETRICS + 1];
/* The summary's group of them: {COURSE_GROUP}, inside a game's group table. */
#define COURSE_GROUP {"The course of the game", course_metric_names}

/* Starts the course of a new game: no step yet, everyone level. */
void course_start(course *c);

/* Halves the slots of a full course: keeps every other one, the steps of twice the stride.
 * Out of line: a game of n steps calls it about log2(n / COURSE_SAMPLES) times. */
void course_thin(course *c);

/* Notes one step: v[0..n-1] are the seats' standings after it (higher is better, 1 <= n <=
 * GAME_MAX_SEATS). O(n), one pass, no allocation, inline: games call it at every step. */
static GIOCHI_INLINE void course_note(course *restrict c, const int64_t *restrict v, int n)
{
    int64_t top = v[0], low = v[0];
    unsigned topm = 1, lowm = 1;
    c->sum[0] += v[0];
    for (int s = 1; s < n; s++) {
        int64_t x = v[s];
        c->sum[s] += x;
        if (x > top) {
            top = x;
            topm = 1u << s;
        } else if (x == top) {
            topm |= 1u << s;
        }
        if (x < low) {
            low = x;
            lowm = 1u << s;
        } else if (x == low) {
            lowm |= 1u << s;
        }
    }
    c->top_sum += top;
    int32_t t = ++c->steps;
    bool level = top == low;
    int lead = (topm & (topm - 1)) == 0 && !level ? __builtin_ctz(topm) : -1;
    if (lead != c->leader) {
        if (lead >= 0) {
            if (c->held >= 0 && c->held != lead)
                c->changes++;
            c->held = (int8_t)lead;
            c->lead_since = t;
        }
        c->leader = (int8_t)lead;
    }
    if (--c->countdown == 0) { /* a kept step */
        if (GIOCHI_UNLIKELY(c->nslots == COURSE_SAMPLES))
            course_thin(c);
        /* this step is a multiple of the stride, even after thinning: slot nslots's step */
        c->lead[c->nslots] = (uint8_t)(lead >= 0 ? topm : 0);
        c->last[c->nslots] = (uint8_t)(level ? 0 : lowm);
        c->nslots++;
        c->countdown = c->stride;
    }
}

/* ---- one seat at a time -------------------------------------------------------------
 * For a game in which a step moves one seat's standing (or a few), and which calls the
 * standing at every step: course_start_at once, then in each step course_set for each seat
 * whose standing changed and course_step to close it. Each costs O(1), but for a rescan of
 * the seats when the top or the lowest seat was the only one there and moved away from it.
 * A game uses either this or course_note, never both. */

/* Starts the course of a new game of n seats whose standings at the start are v[0..n-1]. */
void course_start_at(course *c, const int64_t *v, int n);

/* The top (lowest when `low`) standing of c's seats, and their bits into *m. */
int64_t course_rescan(const course *c, bool low, unsigned *m);

/* Seat s's standing becomes x in the step being played. */
static GIOCHI_INLINE void course_set(course *c, int s, int64_t x)
{
    if (x == c->cur[s]) /* unmoved: its sum runs on from since[s], top and low stand */
        return;
    unsigned bit = 1u << s;
    c->sum[s] += c->cur[s] * (c->steps - c->since[s]);
    c->since[s] = c->steps;
    c->cur[s] = x;
    if (x > c->top) {
        c->top = x;
        c->topm = bit;
    } else if (x == c->top) {
        c->topm |= bit;
    } else if ((c->topm &= ~bit) == 0) {
        c->top = course_rescan(c, false, &c->topm);
    }
    if (x < c->low) {
        c->low = x;
        c->lowm = bit;
    } else if (x == c->low) {
        c->lowm |= bit;
    } else if ((c->lowm &= ~bit) == 0) {
        c->low = course_rescan(c, true, &c->lowm);
    }
}

/* Closes a step of course_set calls: the step is noted as course_note would note it. */
static GIOCHI_INLINE void course_step(course *c)
{
    c->top_sum += c->top;
    int32_t t = ++c->steps;
    bool level = c->top == c->low;
    unsigned topm = c->topm;
    int lead = (topm & (topm - 1)) == 0 && !level ? __builtin_ctz(topm) : -1;
    if (lead != c->leader) {
        if (lead >= 0) {
            if (c->held >= 0 && c->held != lead)
                c->changes++;
            c->held = (int8_t)lead;
            c->lead_since = t;
        }
        c->leader = (int8_t)lead;
    }
    if (--c->countdown == 0) {
        if (GIOCHI_UNLIKELY(c->nslots == COURSE_SAMPLES))
            course_thin(c);
        c->lead[c->nslots] = (uint8_t)(lead >= 0 ? topm : 0);
        c->last[c->nslots] = (uint8_t)(level ? 0 : c->lowm);
        c->nslots++;
        c->countdown = c->stride;
    }
}

/* Seat s's standing summed over the game's steps so far (either way of noting). */
static inline int64_t course_sum(const course *c, int s)
{
    return c->sum[s] + c->cur[s] * (c->steps - c->since[s]);
}

/* The leader bit (0: none) and the last bits (0: all level) of the kept step nearest at or
 * before step q (0 <= q <= c->steps). */
static inline void course_at(const course *c, int32_t q, uint8_t *lead, uint8_t *last)
{
    int32_t i = q / c->stride;
    if (i >= c->nslots)
        i = c->nslots - 1;
    *lead = c->lead[i];
    *last = c->last[i];
}

#endif
