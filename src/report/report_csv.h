/* report_csv.h — the tidy CSV of a report, and the CSV cells the experiments' CSV shares. */
#ifndef GIOCHI_REPORT_CSV_H
#define GIOCHI_REPORT_CSV_H

#include <stdio.h>

#include <cjson/cJSON.h>

/* Writes s as one CSV field, quoted (with quotes doubled) if it holds a comma, quote or
 * newline. */
void report_csv_field(FILE *f, const char *s);

/* The columns of every row of a report's CSV, in order, without a newline (an experiment puts
 * its swept keys before them, a run with populations adds ",type" after them). */
#define REPORT_CSV_COLUMNS "game,metric,seat,bot,value,ci95_low,ci95_high,n,stat,bin_from,bin_to,bin_label"

/* How the CSV writes its numbers: rounded to what their interval supports (the default), or
 * every double in full (the fewest digits that read back as the same double). */
typedef enum csv_precision { CSV_PRECISION_INTERVAL, CSV_PRECISION_FULL } csv_precision;

/* Sets how every CSV report of the process writes its numbers (--csv-precision); the
 * default is CSV_PRECISION_INTERVAL. Call before writing. */
void report_csv_set_precision(csv_precision p);

/* The bin of a distribution's or a table's row: its values from..to (NAN: open or none) and
 * its label. */
typedef struct csv_bin {
    double from, to;
    const char *label;
} csv_bin;

/* One row of the report's CSV (REPORT_CSV_COLUMNS). A NAN leaves its number's cell empty,
 * seat 0 the seat's, bin NULL the three bin cells; `stat` says what the value is (share,
 * mean, p05..p95, exact, p_value, diff, diff_unpaired, count). With an interval (lo and hi
 * not NAN, hi > lo) value, lo and hi are rounded to two significant digits of the interval's
 * half-width (--csv-precision=interval, the default); a p_value to three significant digits;
 * anything else (counts, quantiles, exact values) is written in full. */
void report_csv_line(FILE *f, const char *game, const char *metric, int seat, const char *bot,
                     double value, double lo, double hi, double n, const char *stat,
                     const csv_bin *bin);

/* Writes x as one CSV cell, without a separator, rounded as report_csv_line rounds a figure
 * whose interval is [lo, hi]: to two significant digits of its half-width, or in full under
 * --csv-precision=full or with no interval (lo or hi NAN, hi <= lo). For the searches' CSVs,
 * whose columns are their own. */
void report_csv_num(FILE *f, double x, double lo, double hi);

/* Writes x, lo and hi as three CSV cells "x,lo,hi" (no separator before or after), each
 * rounded by report_csv_num to what the interval [lo, hi] supports. */
void report_csv_estimate(FILE *f, double x, double lo, double hi);

/* Writes report r (a report_build tree) as CSV: the header line, then a row per estimate of
 * every seat, every bot and the game (report_csv_line), with one more per quantile and per
 * exact value; two per bin of each distribution (stat count and share, the bin in its own
 * columns) and one per row of each table of figures. Write errors show in ferror(f). */
void report_csv_write(FILE *f, const cJSON *r);

#endif
