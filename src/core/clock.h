/* clock.h — seconds on a monotonic clock, for progress lines and a run's wall time. */
#ifndef GIOCHI_CLOCK_H
#define GIOCHI_CLOCK_H

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC): only differences mean anything.
 * Never part of a result but the report's "run" timing. */
double clock_seconds(void);

#endif
