/* fail.c — the one-line error and the checked exit of giochi-sim. */
#include "cli/fail.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"

void die(int code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dist_fail(code, msg);
}

void exit_flushed(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        die(EXIT_IO, "cannot write 'standard output': %s", strerror(errno ? errno : EIO));
    exit(EXIT_OK);
}
