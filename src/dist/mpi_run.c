/* mpi_run.c — the runner's batch split over MPI ranks, results combined exactly. */
#include "dist/mpi_run.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "core/clock.h"
#include "core/xalloc.h"
#include "dist/partial.h"

static int rank, size = 1;
static bool started, stopped;
static double reduce_seconds;

enum { TAG_LEN = 1, TAG_DATA = 2, MSG_MAX = 1 << 30 };

void mpi_run_start(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    started = true;
}

void mpi_run_stop(void)
{
    if (started && !stopped) {
        stopped = true;
        MPI_Finalize();
    }
}

void mpi_run_abort(int code)
{
    fflush(NULL);
    MPI_Abort(MPI_COMM_WORLD, code);
    exit(code); /* not reached */
}

int mpi_run_rank(void)
{
    return rank;
}

int mpi_run_size(void)
{
    return size;
}

double mpi_run_reduce_seconds(void)
{
    return reduce_seconds;
}

/* Sends n bytes to rank `to` as a length and pieces of at most MSG_MAX bytes. */
static void send_bytes(const void *p, size_t n, int to)
{
    uint64_t len = n;
    MPI_Send(&len, 1, MPI_UINT64_T, to, TAG_LEN, MPI_COMM_WORLD);
    for (size_t off = 0; off < n; off += MSG_MAX) {
        size_t k = n - off < MSG_MAX ? n - off : MSG_MAX;
        MPI_Send((const char *)p + off, (int)k, MPI_BYTE, to, TAG_DATA, MPI_COMM_WORLD);
    }
}

/* Receives what send_bytes sent from rank `from`; returns a new buffer (caller frees) or
 * NULL if memory ran out (the bytes are still drained). */
static unsigned char *recv_bytes(int from, size_t *n)
{
    uint64_t len;
    MPI_Recv(&len, 1, MPI_UINT64_T, from, TAG_LEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    unsigned char *p = malloc(len ? len : 1);
    static unsigned char sink[1 << 16];
    for (uint64_t off = 0; off < len; off += MSG_MAX) {
        size_t k = len - off < MSG_MAX ? (size_t)(len - off) : MSG_MAX;
        if (p) {
            MPI_Recv(p + off, (int)k, MPI_BYTE, from, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else { /* out of memory: drain into a small buffer, piece by piece */
            MPI_Status st;
            MPI_Probe(from, TAG_DATA, MPI_COMM_WORLD, &st);
            int cnt;
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            unsigned char *tmp = malloc((size_t)cnt);
            MPI_Recv(tmp ? tmp : sink, tmp ? cnt : 0, MPI_BYTE, from, TAG_DATA, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            free(tmp);
        }
    }
    *n = len;
    return p;
}

/* Ends every rank for want of memory, once every rank knows of it (from any_failed): rank 0
 * removes the temporary output files and says msg; exit status XALLOC_EXIT (5), as
 * xalloc_fail in one process. */
static void end_nomem(const char *msg) __attribute__((noreturn));
static void end_nomem(const char *msg)
{
    if (rank == 0) {
        xalloc_cleanup(); /* the temporary output files, when the command line has some */
        fprintf(stderr, "giochi-sim: %s\n", msg);
    }
    mpi_run_stop();
    exit(XALLOC_EXIT);
}

/* Collective: true on every rank if `failed` is true on any; err then holds, on every rank,
 * the message of the lowest failing rank. If that rank failed for want of memory (oom), every
 * rank ends there (end_nomem). */
static bool any_failed(bool failed, bool oom, char *err, size_t errlen)
{
    int mine = failed ? rank : INT_MAX, low;
    MPI_Allreduce(&mine, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (low == INT_MAX)
        return false;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", failed ? err : "");
    int low_oom = failed && oom;
    MPI_Bcast(msg, sizeof msg, MPI_CHAR, low, MPI_COMM_WORLD);
    MPI_Bcast(&low_oom, 1, MPI_INT, low, MPI_COMM_WORLD);
    if (low != 0)
        snprintf(err, errlen, "rank %d: %s", low, msg);
    else
        snprintf(err, errlen, "%s", msg);
    if (low_oom)
        end_nomem(err);
    return true;
}

/* Collective: rank 0's b, copied into every other rank's b (which must be empty). If memory
 * runs out on one rank, every rank ends (end_nomem). */
static void bcast_bytes(pbuf *b)
{
    uint64_t len = b->len;
    MPI_Bcast(&len, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (rank != 0) {
        b->p = malloc(len ? len : 1);
        b->len = b->cap = b->p ? len : 0;
    }
    int oom = rank != 0 && b->p == NULL, any_oom;
    MPI_Allreduce(&oom, &any_oom, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_oom)
        end_nomem("out of memory while sharing the results");
    for (uint64_t off = 0; off < len; off += MSG_MAX) {
        int k = (int)(len - off < MSG_MAX ? len - off : MSG_MAX);
        MPI_Bcast(b->p + off, k, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
}

int mpi_run_combine(pbuf *bytes, mpi_add_fn *add, void *ctx, char *err, size_t errlen)
{
    double r0 = clock_seconds();
    bool failed = false, oom = false;
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            size_t n;
            unsigned char *p = recv_bytes(r, &n);
            if (p == NULL && !failed) {
                snprintf(err, errlen, "out of memory");
                oom = true;
            }
            if (p == NULL || (!failed && add(ctx, bytes, p, n, err, errlen) != 0))
                failed = true;
            free(p);
        }
    } else {
        send_bytes(bytes->p, bytes->len, 0);
        free(bytes->p);
        *bytes = (pbuf){0};
    }
    if (any_failed(failed, oom, err, errlen))
        return -1;
    bcast_bytes(bytes);
    reduce_seconds = clock_seconds() - r0;
    return 0;
}

int mpi_run_batch(const run_config *cfg, run_result *res, char *err, size_t errlen)
{
    double t0 = clock_seconds();
    run_config part = *cfg;
    uint64_t first, count;
    partial_shard_range(cfg->runs, (uint64_t)rank, (uint64_t)size, &first, &count);
    part.first = cfg->first + first;
    part.runs = count;

    /* Each rank writes its rows to memory; rank 0 writes them out in rank (= game) order. */
    FILE *real_csv = rank == 0 ? cfg->games_csv : NULL;
    bool want_csv = false;
    {
        int w = rank == 0 && cfg->games_csv != NULL;
        MPI_Bcast(&w, 1, MPI_INT, 0, MPI_COMM_WORLD);
        want_csv = w;
    }
    char *csv_text = NULL;
    size_t csv_len = 0;
    part.games_csv = NULL;
    /* A rank without games (more ranks than games) writes no rows and no header: the rank
     * that plays game 0 has it. */
    if (want_csv && count > 0) {
        part.games_csv = open_memstream(&csv_text, &csv_len);
        if (part.games_csv == NULL)
            snprintf(err, errlen, "out of memory for the games CSV");
    }
    run_result mine;
    bool failed = want_csv && count > 0 && part.games_csv == NULL, oom = failed;
    if (!failed)
        failed = run_batch_local(&part, &mine, err, errlen) != 0;
    if (part.games_csv && fclose(part.games_csv) != 0 && !failed) {
        snprintf(err, errlen, "out of memory for the games CSV");
        run_result_free(&mine);
        failed = oom = true;
    }
    pbuf b = {0};
    if (!failed) {
        partial_put_result(&b, &part, &mine);
        run_result_free(&mine);
        if (b.oom) {
            snprintf(err, errlen, "out of memory");
            failed = oom = true;
        }
    }
    if (any_failed(failed, oom, err, errlen)) {
        free(b.p);
        free(csv_text);
        return -1;
    }

    double r0 = clock_seconds();
    failed = oom = false;
    if (rank == 0) {
        run_result_init(res, cfg, false);
        for (int r = 0; r < size; r++) {
            size_t n = b.len;
            unsigned char *bytes = r == 0 ? b.p : recv_bytes(r, &n);
            const unsigned char *p = bytes;
            run_result one;
            if (bytes == NULL ||
                (!failed && partial_get_result(&p, bytes + n, cfg, &one, err, errlen) != 0)) {
                if (bytes == NULL && !failed) {
                    snprintf(err, errlen, "out of memory");
                    oom = true;
                }
                failed = true;
            } else if (!failed) {
                run_result_merge(res, &one, cfg->nseats);
                run_result_free(&one);
            }
            if (r != 0)
                free(bytes);
        }
        free(b.p);
        b = (pbuf){0};
        if (!failed) {
            res->wall_seconds = 0;
            partial_put_result(&b, cfg, res);
            if (b.oom) {
                snprintf(err, errlen, "out of memory");
                failed = oom = true;
            }
        }
    } else {
        send_bytes(b.p, b.len, 0);
        free(b.p);
        b = (pbuf){0};
    }
    /* Every rank leaves with the same result, so that every rank takes the same decisions
     * after it (a sweep's next setting, a stopping rule). */
    int bad = failed;
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (bad) {
        if (rank == 0)
            run_result_free(res);
        else
            snprintf(err, errlen, "rank 0 could not combine the results");
        any_failed(rank == 0, oom, err, errlen);
        free(b.p);
        free(csv_text);
        return -1;
    }
    bcast_bytes(&b);
    if (rank != 0) {
        const unsigned char *p = b.p;
        failed = partial_get_result(&p, b.p + b.len, cfg, res, err, errlen) != 0;
    }
    free(b.p);
    if (any_failed(failed, false, err, errlen)) {
        run_result_free(res);
        free(csv_text);
        return -1;
    }

    /* The games CSV, in rank order. */
    int write_errno = 0, csv_oom = 0;
    if (want_csv) {
        if (rank == 0) {
            for (int r = 0; r < size; r++) {
                size_t n = csv_len;
                unsigned char *text = r != 0 ? recv_bytes(r, &n)
                                      : csv_text ? (unsigned char *)csv_text
                                                 : (unsigned char *)"";
                if (text == NULL)
                    csv_oom = 1;
                else if (!write_errno && fwrite(text, 1, n, real_csv) != n)
                    write_errno = errno ? errno : EIO;
                if (r != 0)
                    free(text);
            }
        } else {
            send_bytes(csv_text, csv_len, 0);
        }
    }
    free(csv_text);
    MPI_Bcast(&write_errno, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&csv_oom, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (csv_oom)
        end_nomem("out of memory for the games CSV");
    reduce_seconds = clock_seconds() - r0;
    res->wall_seconds = clock_seconds() - t0;
    MPI_Bcast(&res->wall_seconds, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (write_errno) {
        snprintf(err, errlen, "cannot write the games CSV: %s", strerror(write_errno));
        run_result_free(res);
        return -1;
    }
    return 0;
}
