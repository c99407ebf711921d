/* dist_mpi.c — dist.h over MPI ranks (giochi-sim-mpi), on top of mpi_run.c. */
#include "dist/dist.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "dist/mpi_run.h"

void dist_start(int *argc, char ***argv)
{
    mpi_run_start(argc, argv);
    atexit(mpi_run_stop);
}

int dist_rank(void)
{
    return mpi_run_rank();
}

int dist_ranks(void)
{
    return mpi_run_size();
}

/* Every rank parses the same options and meets the same errors, so rank 0 alone speaks and
 * every rank leaves with the same code. */
void dist_fail(int code, const char *msg)
{
    if (mpi_run_rank() == 0) {
        char line[1024];
        snprintf(line, sizeof line, "%s", msg);
        for (char *p = line; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
        /* one write (stderr is unbuffered), so that mpirun forwards the whole line even when
         * an abort follows */
        fprintf(stderr, "giochi-sim: %s\n", line);
    }
    if ((code == 3 || code == 5) && mpi_run_size() > 1)
        mpi_run_abort(code);
    mpi_run_stop();
    exit(code);
}

uint64_t dist_seed(uint64_t seed)
{
    MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    return seed;
}

run_batch_fn *dist_distributor(void)
{
    return mpi_run_batch;
}

int dist_combine(pbuf *bytes, dist_add_fn *add, void *ctx, char *err, size_t errlen)
{
    return mpi_run_combine(bytes, add, ctx, err, errlen);
}

void dist_report_run(cJSON *run)
{
    cJSON_AddNumberToObject(run, "ranks", mpi_run_size());
    cJSON_AddNumberToObject(run, "reduce_seconds", mpi_run_reduce_seconds());
}
