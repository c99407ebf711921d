/* report_csv.h — the tidy CSV of a report, and the CSV cells the experiments' CSV shares. */
#ifndef GIOCHI_REPORT_CSV_H
#define GIOCHI_REPORT_CSV_H

#include <stdio.h>

#include <cjson/cJSON.h>

/* Writes s as one CSV field, quoted (with quotes doubled) if it holds a comma, quote or
 * newline. */
void report_csv_field(FILE *f, const char *s);

/* One row of the report's CSV: game,metric,seat,bot,value,ci95_low,ci95_high,n,stat. A NAN
 * leaves its number's cell empty, seat 0 the seat's; `stat` says what the value is (share,
 * mean, p05..p95, exact, p_value, diff, diff_unpaired), last so that the columns before it
 * keep their places. */
void report_csv_line(FILE *f, const char *game, const char *metric, int seat, const char *bot,
                     double value, double lo, double hi, double n, const char *stat);

/* Writes report r (a report_build tree) as CSV: the header line, then a row per estimate of
 * every seat, every bot and the game (report_csv_line), with one more per quantile and per
 * exact value. Write errors show in ferror(f). */
void report_csv_write(FILE *f, const cJSON *r);

#endif
