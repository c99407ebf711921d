/* dist_plain.c — dist.h for one process (the plain giochi-sim): nothing is distributed. */
#include "dist/dist.h"

#include <stdio.h>
#include <stdlib.h>

void dist_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
}

int dist_rank(void)
{
    return 0;
}

int dist_ranks(void)
{
    return 0;
}

void dist_fail(int code, const char *msg)
{
    fputs("giochi-sim: ", stderr);
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            fprintf(stderr, "\\x%02x", *p);
        else
            fputc(*p, stderr);
    }
    fputc('\n', stderr);
    exit(code);
}

uint64_t dist_seed(uint64_t seed)
{
    return seed;
}

run_batch_fn *dist_distributor(void)
{
    return NULL;
}

int dist_combine(pbuf *bytes, dist_add_fn *add, void *ctx, char *err, size_t errlen)
{
    (void)bytes;
    (void)add;
    (void)ctx;
    (void)err;
    (void)errlen;
    return 0;
}

void dist_report_run(cJSON *run)
{
    (void)run;
}
