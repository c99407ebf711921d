/* csv_decimal.h — CSV for spreadsheets of comma-decimal locales (--csv-decimal=,): a stream
 * that rewrites the tool's CSV as it is written, numbers with a decimal comma and fields
 * separated by semicolons (the convention of those spreadsheets: LibreOffice and Excel in
 * an Italian, German or French locale read it as numbers). */
#ifndef GIOCHI_CSV_DECIMAL_H
#define GIOCHI_CSV_DECIMAL_H

#include <stdio.h>

/* A new write-only stream over out: CSV written into it (RFC 4180: ',' between fields, '"'
 * quoting, '.' decimals) reaches out with ';' between fields and, in every unquoted field
 * that is a number (-1.25, 3e-05), a ',' for the '.'. Quoted fields pass as they are; an
 * unquoted field holding a ';' gets quoted. fclose flushes it into out and does not close
 * out; fclose's result reports a failed write into out. NULL if it cannot be made (out of
 * memory). */
FILE *csv_decimal_open(FILE *out);

#endif
