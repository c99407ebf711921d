/* numfmt.h — writing doubles for people and parsers alike. */
#ifndef GIOCHI_NUMFMT_H
#define GIOCHI_NUMFMT_H

#include <stdbool.h>
#include <stddef.h>

/* Writes x with the fewest significant digits (15 to 17) that read back as the same double,
 * in the C locale's notation ("0.25", "45.05847", "1e-07"). Returns buf. */
char *numfmt_double(char *buf, size_t n, double x);

/* A figure as the reports show it to people (text, HTML, chart labels): a share in percent
 * with two decimals ("12.34%"), a mean to four significant digits ("3.512"); with sign (a
 * difference) a share in percentage points without the % ("+1.23") and a mean signed
 * ("+0.174"); "—" for NAN. Returns buf. */
char *numfmt_figure(char *buf, size_t n, double v, bool share, bool sign);

/* v with its 95% interval as numfmt_figure writes them, the brackets of a share in points:
 * "17.10% [16.77, 17.43]", "-0.25 [-0.42, -0.07]", "23.41 [23.10, 23.72]"; v alone when lo
 * is NAN. Returns buf. */
char *numfmt_interval(char *buf, size_t n, double v, double lo, double hi, bool share, bool sign);

#endif
