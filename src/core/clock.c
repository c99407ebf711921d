/* clock.c — seconds on a monotonic clock (clock.h). */
#include "core/clock.h"

#include <stdlib.h>
#include <time.h>

double clock_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

char *clock_date(char *buf, size_t n)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    char *end = NULL;
    long long e = sde && *sde ? strtoll(sde, &end, 10) : -1;
    time_t t = e >= 0 && end && *end == '\0' ? (time_t)e : time(NULL);
    struct tm tm;
    buf[0] = '\0';
    if (gmtime_r(&t, &tm))
        strftime(buf, n, "%Y-%m-%d %H:%M UTC", &tm);
    return buf;
}
