/* xalloc.c — allocation that never returns NULL; out of memory is exit 5 with no file left. */
#include "core/xalloc.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

/* What xalloc_fail runs before it exits (xalloc_on_fail), or NULL. */
static xalloc_cleanup_fn *_Atomic cleanup;

void xalloc_on_fail(xalloc_cleanup_fn *fn)
{
    atomic_store(&cleanup, fn);
}

void xalloc_fail(const char *what)
{
    /* write(2), not stdio: stdio may itself need memory, and other threads may be writing */
    char msg[256] = "giochi-sim: out of memory (";
    size_t n = strlen(msg), w = strlen(what);
    if (w > sizeof msg - n - 3)
        w = sizeof msg - n - 3;
    memcpy(msg + n, what, w);
    memcpy(msg + n + w, ")\n", 2);
    xalloc_cleanup_fn *fn = atomic_load(&cleanup);
    if (fn)
        fn();
    ssize_t rc = write(STDERR_FILENO, msg, n + w + 2);
    (void)rc;
    _exit(XALLOC_EXIT);
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p == NULL)
        xalloc_fail("cannot allocate memory");
    return p;
}

void *xcalloc_lines(size_t n, size_t size)
{
    if (size && n > (SIZE_MAX - XALLOC_LINE) / size)
        xalloc_fail("cannot allocate memory");
    size_t bytes = (n * size + XALLOC_LINE - 1) / XALLOC_LINE * XALLOC_LINE;
    void *p = aligned_alloc(XALLOC_LINE, bytes ? bytes : XALLOC_LINE);
    if (p == NULL)
        xalloc_fail("cannot allocate memory");
    memset(p, 0, bytes);
    return p;
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        xalloc_fail("cannot allocate memory");
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (q == NULL)
        xalloc_fail("cannot allocate memory");
    return q;
}

void xalloc_json_hooks(void)
{
    cJSON_Hooks hooks = {xmalloc, free};
    cJSON_InitHooks(&hooks);
}
