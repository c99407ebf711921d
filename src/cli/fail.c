/* fail.c — the one-line error and the checked exit of giochi-sim. */
#include "cli/fail.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"

static const char *about; /* die_about */

void die_about(const char *file)
{
    about = file;
}

void die(int code, const char *fmt, ...)
{
    char msg[1024];
    int at = 0;
    if (about && code == EXIT_USAGE)
        at = snprintf(msg, sizeof msg, "'%.400s': ", about);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + at, sizeof msg - (size_t)at, fmt, ap);
    va_end(ap);
    dist_fail(code, msg);
}

void exit_flushed(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        die(EXIT_IO, "cannot write 'standard output': %s", strerror(errno ? errno : EIO));
    exit(EXIT_OK);
}
