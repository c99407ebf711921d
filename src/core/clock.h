/* clock.h — seconds on a monotonic clock, for progress lines and a run's wall time, and the
 * date a report records. */
#ifndef GIOCHI_CLOCK_H
#define GIOCHI_CLOCK_H

#include <stddef.h>

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC): only differences mean anything.
 * Never part of a result but the report's "run" timing. */
double clock_seconds(void);

/* The date a report records, "YYYY-MM-DD HH:MM UTC", into buf (n bytes): the time of
 * SOURCE_DATE_EPOCH when that variable holds a count of seconds (the reproducible-builds
 * convention, which the test suite sets), else the current time. Returns buf. */
char *clock_date(char *buf, size_t n);

#endif
