/* outfile.h — output files that appear complete or not at all (temporary file + rename). */
#ifndef GIOCHI_OUTFILE_H
#define GIOCHI_OUTFILE_H

#include <stdio.h>

typedef struct outfile {
    FILE *f;          /* write here */
    char *path;       /* final name, or NULL for standard output */
    char *tmp;        /* temporary file beside it */
} outfile;

/* Opens path for writing through a temporary file in the same directory; NULL or "-" means
 * standard output. Returns 0, or -1 with a one-line message (nothing is created). */
int outfile_open(outfile *o, const char *path, char *err, size_t errlen);

/* Flushes and closes the stream, checking every error. Returns 0, or -1 with a message
 * (the temporary file is then removed). The file is not yet visible under its name. */
int outfile_close(outfile *o, char *err, size_t errlen);

/* Gives a closed file its final name. Returns 0, or -1 with a message. Frees o's names. */
int outfile_rename(outfile *o, char *err, size_t errlen);

/* Abandons the file: closes the stream if open and removes the temporary file. */
void outfile_abort(outfile *o);

#endif
