/* main.c — runs every registered test (or those whose name contains argv[1]) and prints
 * "N passed, N failed". Exit status 0 only if none failed.
 * CHECK_SHARD=K/N runs only the K-th of N shares of the tests (K from 1; tests are dealt in
 * turn, in file-then-name order), so that N processes side by side run each test once.
 * CHECK_TIMES=FILE appends a line "SECONDS unit NAME" per test run (processor time), for the
 * list of the slowest tests (tests/slowest.sh). CHECK_VERBOSE names each test passed. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

typedef struct test_case {
    const char *name, *file;
    test_fn fn;
} test_case;

static test_case *tests;
static int ntests, cap;
static int current_failed;
static const char *current_name;

void check_register(const char *name, const char *file, test_fn fn)
{
    if (ntests == cap) {
        cap = cap ? cap * 2 : 64;
        tests = realloc(tests, (size_t)cap * sizeof *tests);
        if (tests == NULL)
            abort();
    }
    tests[ntests++] = (test_case){name, file, fn};
}

void check_fail(const char *file, int line, const char *fmt, ...)
{
    if (current_failed < 10) {
        fprintf(stderr, "  FAIL %s (%s:%d): ", current_name, file, line);
        va_list ap;
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
    current_failed++;
}

static int by_file_then_name(const void *a, const void *b)
{
    const test_case *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    return c ? c : strcmp(x->name, y->name);
}

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int verbose = getenv("CHECK_VERBOSE") != NULL;
    int shard = 1, shards = 1;
    const char *spec = getenv("CHECK_SHARD");
    if (spec && *spec &&
        (sscanf(spec, "%d/%d", &shard, &shards) != 2 || shards < 1 || shard < 1 || shard > shards)) {
        fprintf(stderr, "unit-tests: CHECK_SHARD must be K/N with 1 <= K <= N, not '%s'\n", spec);
        return 2;
    }
    FILE *times = NULL;
    const char *times_path = getenv("CHECK_TIMES");
    if (times_path && *times_path && (times = fopen(times_path, "a")) == NULL) {
        fprintf(stderr, "unit-tests: cannot append to CHECK_TIMES file '%s'\n", times_path);
        return 2;
    }
    qsort(tests, (size_t)ntests, sizeof *tests, by_file_then_name);
    int passed = 0, failed = 0;
    for (int i = 0; i < ntests; i++) {
        if (i % shards != shard - 1)
            continue;
        if (filter && !strstr(tests[i].name, filter) && !strstr(tests[i].file, filter))
            continue;
        current_name = tests[i].name;
        current_failed = 0;
        clock_t start = clock();
        tests[i].fn();
        if (times)
            fprintf(times, "%.2f unit %s\n", (double)(clock() - start) / CLOCKS_PER_SEC,
                    tests[i].name);
        if (current_failed) {
            failed++;
            fprintf(stderr, "FAIL %s (%s)\n", tests[i].name, tests[i].file);
        } else {
            passed++;
            if (verbose)
                fprintf(stderr, "ok   %s\n", tests[i].name);
        }
    }
    printf("unit: %d passed, %d failed\n", passed, failed);
    if (times)
        fclose(times);
    free(tests);
    return failed ? 1 : 0;
}
