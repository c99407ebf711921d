/* outfile.h — output files that appear complete or not at all (temporary file + rename), and
 * the signal handlers that remove the temporaries of a run that is stopped. */
#ifndef GIOCHI_OUTFILE_H
#define GIOCHI_OUTFILE_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct outfile {
    FILE *f;          /* write here */
    char *path;       /* the name given, for messages; NULL for standard output */
    char *target;     /* the file renamed into place (a symbolic link's target) */
    char *tmp;        /* temporary file beside it; NULL when written in place or unnamed */
    bool unnamed;     /* written without a name (O_TMPFILE), named when closed */
} outfile;

/* Opens path for writing through a temporary file in the same directory as the file it names;
 * NULL or "-" means standard output. Where the system allows (Linux's O_TMPFILE on the file
 * system of that directory), the temporary file has no name until outfile_close: a run
 * stopped in any way, even by SIGKILL, leaves nothing; elsewhere it is NAME.tmp-XXXXXX from
 * the start. Symbolic links are followed, a dangling one too: the
 * file the last link names is written (created if need be) and every link is kept. A path
 * naming something other than a regular file (/dev/null, a pipe, a terminal) is written in
 * place, since renaming over it would replace it. A regular file that is replaced keeps its
 * mode and, where the system allows, its owner and group. Returns 0, or -1 with a one-line
 * message (nothing is created): an empty name, a directory, a link loop, a directory that
 * does not exist or cannot be written. */
int outfile_open(outfile *o, const char *path, char *err, size_t errlen);

/* Flushes and closes the stream, checking every error; an unnamed temporary file gets its
 * temporary name here. Returns 0, or -1 with a message (the temporary file is then removed).
 * The file is not yet visible under its name. */
int outfile_close(outfile *o, char *err, size_t errlen);

/* Gives a closed file its final name. Returns 0, or -1 with a message. Frees o's names. */
int outfile_rename(outfile *o, char *err, size_t errlen);

/* Abandons the file: closes the stream if open and removes the temporary file. */
void outfile_abort(outfile *o);

/* True if paths a and b would write the same regular file (after following symbolic links
 * and resolving directories), so that one output would silently replace the other. */
bool outfile_same(const char *a, const char *b);

/* Removes every temporary file still open. Async-signal-safe: for a signal handler, so that
 * an interrupted run leaves no temporary file behind. */
void outfile_remove_pending(void);

/* Makes every signal whose default action ends the process (HUP, INT, QUIT, TERM, PIPE,
 * ALRM, USR1, USR2, XCPU, XFSZ, VTALRM, PROF) remove the temporary files and exit with status
 * 128 + the signal's number. Signals the caller ignores stay ignored; SIGXFSZ raised by a
 * write past a file-size limit makes that write fail (EFBIG) instead. */
void outfile_catch_signals(void);

/* For a run that can stop early and report the games it played (a plain run, --keep-partial):
 * makes the first SIGINT record its number in the returned flag (0 until then) and say on
 * standard error that the games under way are being finished, instead of ending the process;
 * a second SIGINT ends it as outfile_catch_signals does (temporary files removed, exit 130).
 * outfile_catch_signals puts the immediate ending back. An ignored SIGINT stays ignored. The
 * flag is the process's one: it is never reset. */
volatile sig_atomic_t *outfile_soft_interrupt(void);

/* For runs that stop cleanly at their next checkpoint rather than at once (the volpe solver
 * and proof search): makes SIGHUP, SIGINT and SIGTERM record their number in the returned
 * flag (0 until one arrives) instead of ending the process. Signals the caller ignores
 * (nohup) stay ignored. The flag is the process's one; calling this again installs the same
 * handlers and returns the same flag. */
volatile sig_atomic_t *outfile_flag_signals(void);

#endif
