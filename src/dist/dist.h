/* dist.h — what differs when giochi-sim runs as MPI ranks, behind one small interface: the
 * plain binary links dist_plain.c (one process), giochi-sim-mpi links dist_mpi.c (MPI ranks,
 * over mpi_run.c). The command line (src/cli) calls only these, never MPI itself. */
#ifndef GIOCHI_DIST_H
#define GIOCHI_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "core/runner.h"
#include "dist/partial.h"

/* Starts the distribution (MPI_Init, and MPI_Finalize at exit); nothing for one process. */
void dist_start(int *argc, char ***argv);

/* This process's rank (0 for one process: the one that writes every output), and the number
 * of ranks: 0 for the plain binary (not distributed), 1 or more under MPI. */
int dist_rank(void);
int dist_ranks(void);

/* Ends the process after a failure with exit status code, msg (one line, the text after
 * "giochi-sim: ") on standard error. One process escapes control characters as \xHH; under
 * MPI rank 0 alone speaks, and an output error or running out of memory (3, 5), which one
 * rank may meet alone, ends every rank (MPI_Abort). */
void dist_fail(int code, const char *msg) __attribute__((noreturn));

/* The seed every rank plays: rank 0's (a broadcast); seed itself for one process. */
uint64_t dist_seed(uint64_t seed);

/* The distributor that spreads each batch over the ranks (runner.h), or NULL for one
 * process (the batch is played here). */
run_batch_fn *dist_distributor(void);

/* An experiment's block sums added up over the ranks (exp_combine_fn, experiment.h): on
 * return *bytes holds on every rank the total, rank 0 having added the other ranks' bytes to
 * its own with add, in rank order. One process: nothing to add. Returns 0, or -1 with a
 * message (on every rank). */
typedef int dist_add_fn(void *ctx, pbuf *sum, const unsigned char *p, size_t n, char *err,
                        size_t errlen);
int dist_combine(pbuf *bytes, dist_add_fn *add, void *ctx, char *err, size_t errlen);

/* Adds to a report's "run" object what the distribution records (ranks, seconds of the
 * reduction); nothing for one process. */
void dist_report_run(cJSON *run);

#endif
