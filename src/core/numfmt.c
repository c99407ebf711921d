/* numfmt.c — shortest round-trip formatting of doubles for CSV output. */
#include "core/numfmt.h"

#include <stdio.h>
#include <stdlib.h>

char *numfmt_double(char *buf, size_t n, double x)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    return buf;
}
