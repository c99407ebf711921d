/* outset.h — every output file of one run (report, games CSV, plot, HTML page) opened,
 * abandoned and committed together: all of them complete, or none. */
#ifndef GIOCHI_CLI_OUTSET_H
#define GIOCHI_CLI_OUTSET_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/outfile.h"

enum out_kind { OUT_REPORT, OUT_GAMES, OUT_PLOT, OUT_HTML, OUT_KINDS };

typedef struct outset {
    outfile file[OUT_KINDS];
    bool open[OUT_KINDS]; /* opened and neither abandoned nor committed yet */
    FILE *filter[OUT_KINDS]; /* a comma-decimal CSV stream over file[k] (outset_csv_decimal) */
} outset;

/* Catches the signals that would end the run (outfile_catch_signals: no temporary file is
 * left behind, exit 128 + the signal),
 * then opens the report (NULL or "-": standard output) and each other output named (NULL:
 * none), in the order of enum out_kind, so that a bad path fails before anything is played.
 * On a failure abandons those already open and dies with exit 3 and the file's message.
 * s need not be initialised. */
void outset_open(outset *s, const char *report, const char *games, const char *plot,
                 const char *html);

/* --csv-decimal=,: every CSV of s (the games CSV, and the report if report_csv) is written
 * through a comma-decimal stream (report/csv_decimal.h); outset_file then returns that
 * stream. Call right after outset_open. Dies with exit 5 if the stream cannot be made. */
void outset_csv_decimal(outset *s, bool report_csv);

/* The stream of one output, or NULL if it is not open (not asked for, or s never opened: an
 * MPI rank other than 0). */
FILE *outset_file(const outset *s, enum out_kind k);

/* Abandons every open output: the temporary files are removed, nothing gets its name. */
void outset_abort(outset *s);

/* Abandons every open output, then dies with code and the one-line message. */
void outset_fail(outset *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

/* Closes every open output, checking every write, and only when all are complete gives each
 * its name (the games CSV and the charts before the report). On a failure abandons what is
 * not yet named and dies with exit 3. Does nothing for an outset never opened. */
void outset_commit(outset *s);

#endif
