/* course.c — the course of a game and its quality figures (see course.h). */
#include "core/course.h"

#include <string.h>

const char *const course_metric_names[COURSE_NMETRICS + 1] = {
    "lead_changes",   "no_lead_change", "comeback",       "decided_at", "drama",
    "leader_wins_25", "leader_wins_50", "leader_wins_75", NULL,
};

void course_start(course *c)
{
    /* the slots past the first are written before they are read: no need to clear them */
    c->steps = c->changes = c->lead_since = 0;
    c->stride = 1;
    c->nslots = 1; /* slot 0: the start, no leader, nobody last */
    c->countdown = 1;
    c->leader = -1;
    c->held = -1;
    c->top_sum = 0;
    memset(c->sum, 0, sizeof c->sum);
    memset(c->cur, 0, sizeof c->cur);
    memset(c->since, 0, sizeof c->since);
    c->lead[0] = c->last[0] = 0;
}

void course_start_at(course *c, const int64_t *v, int n)
{
    course_start(c);
    c->n = n;
    for (int s = 0; s < n; s++)
        c->cur[s] = v[s];
    c->top = course_rescan(c, false, &c->topm);
    c->low = course_rescan(c, true, &c->lowm);
}

int64_t course_rescan(const course *c, bool low, unsigned *m)
{
    int64_t best = c->cur[0];
    unsigned bits = 1;
    for (int s = 1; s < c->n; s++) {
        int64_t x = c->cur[s];
        if (low ? x < best : x > best) {
            best = x;
            bits = 1u << s;
        } else if (x == best) {
            bits |= 1u << s;
        }
    }
    *m = bits;
    return best;
}

void course_thin(course *c)
{
    for (int i = 0; i < COURSE_SAMPLES / 2; i++) {
        c->lead[i] = c->lead[2 * i];
        c->last[i] = c->last[2 * i];
    }
    c->nslots = COURSE_SAMPLES / 2;
    c->stride *= 2;
}
