/* dist_mpi.c — dist.h over MPI ranks (giochi-sim-mpi), on top of mpi_run.c. */
#include "dist/dist.h"

#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dist/mpi_run.h"

/* The launcher's standard output as a descriptor of this process, or -1. Best the very open
 * file it holds (pidfd_getfd, Linux 5.6: what is written advances the offset the shell that
 * started mpirun shares); else, unless it is a regular file (whose offset must be shared),
 * the same pipe, terminal or device opened again through /proc. */
static int launcher_stdout(pid_t launcher)
{
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_getfd)
    int pidfd = (int)syscall(SYS_pidfd_open, launcher, 0);
    if (pidfd >= 0) {
        int fd = (int)syscall(SYS_pidfd_getfd, pidfd, STDOUT_FILENO, 0);
        close(pidfd);
        if (fd >= 0)
            return fd;
    }
#endif
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/fd/1", (long)launcher);
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return -1;
    return open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
}

/* Under mpirun a rank's standard output is a channel that mpirun reads and copies to its own,
 * and mpirun does not report a copy that fails: on a full disk the report would be cut short
 * with exit 0. So rank 0, when its parent is the mpirun (or mpiexec, orterun, prterun) of
 * this machine, writes straight into that process's standard output (launcher_stdout) and
 * meets every failed write, as one process does. Elsewhere (rank 0 started by a remote
 * daemon or another launcher, no /proc, a regular file the system does not let us share)
 * the output stays on the forwarded channel. */
static void stdout_of_launcher(void)
{
    pid_t parent = getppid();
    char path[64], name[64] = "";
    snprintf(path, sizeof path, "/proc/%ld/comm", (long)parent);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    bool named = fgets(name, sizeof name, f) != NULL;
    fclose(f);
    name[strcspn(name, "\n")] = '\0';
    static const char *const launchers[] = {"mpirun", "mpiexec", "orterun", "prterun"};
    bool launcher = false;
    for (size_t i = 0; named && i < sizeof launchers / sizeof *launchers; i++)
        launcher = launcher || strcmp(name, launchers[i]) == 0;
    int fd = launcher ? launcher_stdout(parent) : -1;
    if (fd < 0)
        return;
    fflush(stdout);
    dup2(fd, STDOUT_FILENO);
    close(fd);
}

void dist_start(int *argc, char ***argv)
{
    mpi_run_start(argc, argv);
    atexit(mpi_run_stop);
    if (mpi_run_rank() == 0)
        stdout_of_launcher();
}

int dist_rank(void)
{
    return mpi_run_rank();
}

int dist_ranks(void)
{
    return mpi_run_size();
}

/* Set by dist_apart: the ranks no longer work together. */
static bool apart;

void dist_apart(void)
{
    apart = true;
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
    if ((code == 3 || code == 5) && mpi_run_size() > 1 && !apart)
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
