/* outfile.h — output files that appear complete or not at all (temporary file + rename). */
#ifndef GIOCHI_OUTFILE_H
#define GIOCHI_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct outfile {
    FILE *f;          /* write here */
    char *path;       /* the name given, for messages; NULL for standard output */
    char *target;     /* the file renamed into place (a symbolic link's target) */
    char *tmp;        /* temporary file beside it; NULL when written in place */
} outfile;

/* Opens path for writing through a temporary file in the same directory as the file it names;
 * NULL or "-" means standard output. Symbolic links are followed, a dangling one too: the
 * file the last link names is written (created if need be) and every link is kept. A path
 * naming something other than a regular file (/dev/null, a pipe, a terminal) is written in
 * place, since renaming over it would replace it. A regular file that is replaced keeps its
 * mode and, where the system allows, its owner and group. Returns 0, or -1 with a one-line
 * message (nothing is created): an empty name, a directory, a link loop, a directory that
 * does not exist or cannot be written. */
int outfile_open(outfile *o, const char *path, char *err, size_t errlen);

/* Flushes and closes the stream, checking every error. Returns 0, or -1 with a message
 * (the temporary file is then removed). The file is not yet visible under its name. */
int outfile_close(outfile *o, char *err, size_t errlen);

/* Gives a closed file its final name. Returns 0, or -1 with a message. Frees o's names. */
int outfile_rename(outfile *o, char *err, size_t errlen);

/* Abandons the file: closes the stream if open and removes the temporary file. */
void outfile_abort(outfile *o);

/* True if paths a and b would write the same regular file (after following symbolic links
 * and resolving directories), so that one output would silently replace the other. */
bool outfile_same(const char *a, const char *b);

/* Removes every temporary file still open. Async-signal-safe: for a handler of SIGINT or
 * SIGTERM, so that an interrupted run leaves no temporary file behind. */
void outfile_remove_pending(void);

#endif
