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
    c->lead[0] = c->last[0] = 0;
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
