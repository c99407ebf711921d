/* xalloc.h — allocation that never returns NULL: running out of memory ends the run at once
 * with exit status 5, one line on stderr, and (through xalloc_on_fail) no temporary output
 * file left behind. */
#ifndef GIOCHI_XALLOC_H
#define GIOCHI_XALLOC_H

#include <stddef.h>

enum { XALLOC_EXIT = 5 }; /* the exit status of a run that ran out of memory */

/* Zeroed memory for n objects of size bytes (n may be 0); never NULL. Freed with free(). */
void *xcalloc(size_t n, size_t size);

/* The block that xcalloc_lines keeps to itself: two 64-byte cache lines, the pair that
 * adjacent-line prefetching moves together. */
enum { XALLOC_LINE = 128 };

/* As xcalloc, but the memory starts on an XALLOC_LINE boundary and fills whole XALLOC_LINE
 * blocks, so no other allocation shares a cache line with it: for what one worker thread
 * writes at every game while another writes its own (no false sharing). Freed with free(). */
void *xcalloc_lines(size_t n, size_t size);

/* Memory for n bytes, not zeroed; never NULL. Freed with free(). */
void *xmalloc(size_t n);

/* Resizes p (from malloc, or NULL) to n bytes, keeping its contents; never NULL. */
void *xrealloc(void *p, size_t n);

/* Ends the process for want of memory or of what the system lends with it (a thread's stack):
 * writes "giochi-sim: out of memory (what)" on stderr, runs the cleanup xalloc_on_fail
 * registered (the command line's: every pending temporary output file removed, cli/outfile.h)
 * and exits with XALLOC_EXIT without running atexit handlers. Safe to call from any thread. */
void xalloc_fail(const char *what) __attribute__((noreturn));

/* What xalloc_fail runs before it exits: async-signal-safe, allocating nothing. */
typedef void xalloc_cleanup_fn(void);

/* Registers fn as that cleanup (replacing any earlier one; NULL: none). The layer above core
 * that owns files registers it (cli/outfile.c, when it first creates a temporary file), so
 * that core does not call up into it. Any thread may call it. */
void xalloc_on_fail(xalloc_cleanup_fn *fn);

/* Makes cJSON allocate through xmalloc, so that building a report never meets a NULL. Call
 * once, before any cJSON use. */
void xalloc_json_hooks(void);

#endif
