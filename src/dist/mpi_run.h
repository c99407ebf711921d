/* mpi_run.h — giochi-sim over MPI ranks: every rank plays a contiguous share of the game
 * indices (with its own threads), and the exact results are combined so that every rank
 * holds the result one process would have computed. Only giochi-sim-mpi links this. */
#ifndef GIOCHI_MPI_RUN_H
#define GIOCHI_MPI_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "dist/partial.h"
#include "core/runner.h"

/* Starts MPI (MPI_Init) and remembers this process's rank and the rank count. */
void mpi_run_start(int *argc, char ***argv);

/* Ends MPI (MPI_Finalize) if it was started and not yet ended. Safe to call twice. */
void mpi_run_stop(void);

/* Ends every rank's process at once with exit status code (MPI_Abort): for a failure only
 * some ranks saw. */
void mpi_run_abort(int code) __attribute__((noreturn));

/* This process's rank (0: the one that writes), and the number of ranks. */
int mpi_run_rank(void);
int mpi_run_size(void);

/* Collective: every rank calls it with the same cfg. Plays this rank's share of cfg's games
 * (cfg->threads threads), then combines every rank's result into res on every rank, in rank
 * order. If cfg->games_csv is set on rank 0, rank 0 writes the games CSV of the whole run
 * there, in game order (other ranks' cfg->games_csv is ignored). res->wall_seconds is rank
 * 0's elapsed time for the whole call. Returns 0 on every rank, or -1 on every rank with the
 * message of the lowest failing rank in err (a bot failed to set up, a write failed). Running
 * out of memory while combining ends every rank with exit status 5 (XALLOC_EXIT), rank 0
 * saying so, as xalloc_fail does in one process. */
int mpi_run_batch(const run_config *cfg, run_result *res, char *err, size_t errlen);

/* Collective, for experiments (exp_combine_fn, experiment.h): *bytes holds this rank's block
 * sums; on return it holds on every rank the total, rank 0 having added every other rank's
 * bytes to its own with add, in rank order. Returns 0 on every rank, or -1 on every rank with
 * the message of the lowest failing rank; running out of memory ends every rank (exit 5). */
typedef int mpi_add_fn(void *ctx, pbuf *sum, const unsigned char *p, size_t n, char *err,
                       size_t errlen);
int mpi_run_combine(pbuf *bytes, mpi_add_fn *add, void *ctx, char *err, size_t errlen);

/* Seconds rank 0 spent in the last combination step (the reduction), for benchmarks. */
double mpi_run_reduce_seconds(void);

#endif
