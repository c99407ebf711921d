/* numfmt.c — doubles written for parsers (shortest round trip) and for people (figures). */
#include "core/numfmt.h"

#include <math.h>
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

char *numfmt_figure(char *buf, size_t n, double v, bool share, bool sign)
{
    if (isnan(v))
        snprintf(buf, n, "—");
    else if (share)
        snprintf(buf, n, sign ? "%+.2f" : "%.2f%%", 100 * v);
    else
        snprintf(buf, n, sign ? "%+.4g" : "%.4g", v);
    return buf;
}

char *numfmt_interval(char *buf, size_t n, double v, double lo, double hi, bool share, bool sign)
{
    char a[40], b[40], c[40];
    numfmt_figure(a, sizeof a, v, share, sign);
    if (isnan(lo)) {
        snprintf(buf, n, "%s", a);
        return buf;
    }
    if (share) { /* the brackets in points, without the % sign */
        snprintf(b, sizeof b, sign ? "%+.2f" : "%.2f", 100 * lo);
        snprintf(c, sizeof c, sign ? "%+.2f" : "%.2f", 100 * hi);
    } else {
        numfmt_figure(b, sizeof b, lo, false, sign);
        numfmt_figure(c, sizeof c, hi, false, sign);
    }
    snprintf(buf, n, "%s [%s, %s]", a, b, c);
    return buf;
}
