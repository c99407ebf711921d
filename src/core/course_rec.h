/* course_rec.h — a game's course figures recorded, inline in its finish (see course.h). Apart
 * from course.h so that only a game's finish sees the recorder's internals. */
#ifndef GIOCHI_COURSE_REC_H
#define GIOCHI_COURSE_REC_H

#include "core/course.h"
#include "core/recorder.h"

/* round(100 a / n) for 0 <= a, 0 < n, halves up. */
static inline int64_t course_percent(int64_t a, int64_t n)
{
    return (200 * a + n) / (2 * n);
}

/* Records the course figures of a finished game into b, the course metrics standing at index
 * `base` of the game's table onwards (in COURSE_M_* order); `winners` is outcome.winners.
 * Inline, as the batch's records are: with the game's own table and a constant base, the
 * compiler folds their checks away. */
static inline void course_record(const course *c, uint32_t winners, rec_batch *b, int base)
{
    rec_batch_value(b, base + COURSE_M_LEAD_CHANGES, -1, c->changes);
    rec_batch_rate(b, base + COURSE_M_NO_LEAD_CHANGE, -1, c->changes == 0, 1);
    int32_t n = c->steps;
    if (n == 0 || winners == 0 || (winners & (winners - 1)) != 0)
        return; /* no step, or no single winner */
    int w = __builtin_ctz(winners);
    uint8_t lead, last;
    course_at(c, n / 2, &lead, &last);
    rec_batch_rate(b, base + COURSE_M_COMEBACK, -1, (last >> w) & 1, 1);
    int32_t since = c->leader == w ? c->lead_since : n;
    rec_batch_value(b, base + COURSE_M_DECIDED_AT, -1, course_percent(since, n));
    int64_t behind = c->top_sum - course_sum(c, w);
    rec_batch_value(b, base + COURSE_M_DRAMA, -1, course_percent(behind, n));
    course_at(c, (int32_t)((int64_t)n * 25 / 100), &lead, &last);
    if (lead != 0)
        rec_batch_rate(b, base + COURSE_M_LEADER_WINS_25, -1, lead == winners, 1);
    course_at(c, (int32_t)((int64_t)n * 50 / 100), &lead, &last);
    if (lead != 0)
        rec_batch_rate(b, base + COURSE_M_LEADER_WINS_50, -1, lead == winners, 1);
    course_at(c, (int32_t)((int64_t)n * 75 / 100), &lead, &last);
    if (lead != 0)
        rec_batch_rate(b, base + COURSE_M_LEADER_WINS_75, -1, lead == winners, 1);
}

#endif
