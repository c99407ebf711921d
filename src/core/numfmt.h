/* numfmt.h — writing doubles for people and parsers alike. */
#ifndef GIOCHI_NUMFMT_H
#define GIOCHI_NUMFMT_H

#include <stddef.h>

/* Writes x with the fewest significant digits (15 to 17) that read back as the same double,
 * in the C locale's notation ("0.25", "45.05847", "1e-07"). Returns buf. */
char *numfmt_double(char *buf, size_t n, double x);

#endif
