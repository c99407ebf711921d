/* fail.h — giochi-sim's exit codes and its one-line error message. */
#ifndef GIOCHI_CLI_FAIL_H
#define GIOCHI_CLI_FAIL_H

#include "core/xalloc.h"

/* Exit codes (documented in giochi-sim(1) EXIT STATUS and in --help). */
enum exit_code {
    EXIT_OK = 0,
    EXIT_USAGE = 2,    /* bad option, unknown name, bad ruleset, config or partial file */
    EXIT_IO = 3,       /* an output file could not be written */
    EXIT_INTERNAL = 4, /* a bot or game failed to set up; --check found a broken invariant */
    EXIT_NOMEM = XALLOC_EXIT, /* out of memory (5): see xalloc.h */
};

/* Writes "giochi-sim: MESSAGE" as one line on standard error and ends the process with code
 * (through dist_fail, dist/dist.h: under MPI rank 0 alone speaks). Control characters the
 * message quotes from the command line or a ruleset file are escaped, so that the error stays
 * one line. Temporary output files must have been abandoned (outset_abort) before. */
void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* From now on, until die_about(NULL), die with EXIT_USAGE names file first ("'FILE': ..."):
 * for --merge, while the run is set up from what a partial result's identity says. */
void die_about(const char *file);

/* Exits with success once everything written to standard output has reached it; a full disk
 * or a closed pipe is exit 3, as for a report. */
void exit_flushed(void) __attribute__((noreturn));

#endif
