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
} outset;

/* Catches the signals that would end the run (so that no temporary file is left behind),
 * then opens the report (NULL or "-": standard output) and each other output named (NULL:
 * none), in the order of enum out_kind, so that a bad path fails before anything is played.
 * On a failure abandons those already open and dies with exit 3 and the file's message.
 * s need not be initialised. */
void outset_open(outset *s, const char *report, const char *games, const char *plot,
                 const char *html);

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
