/* outfile.c — atomic output files: write to a temporary beside the target, then rename. */
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int outfile_open(outfile *o, const char *path, char *err, size_t errlen)
{
    o->f = NULL;
    o->path = o->tmp = NULL;
    if (path == NULL || strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    size_t n = strlen(path);
    o->path = strdup(path);
    o->tmp = malloc(n + 16);
    if (o->path == NULL || o->tmp == NULL) {
        snprintf(err, errlen, "cannot write '%s': out of memory", path);
        outfile_abort(o);
        return -1;
    }
    snprintf(o->tmp, n + 16, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        outfile_abort(o);
        return -1;
    }
    /* mkstemp makes the file private; give it the mode a plain creat() would. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->f = fdopen(fd, "w");
    if (o->f == NULL) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        close(fd);
        outfile_abort(o);
        return -1;
    }
    return 0;
}

int outfile_close(outfile *o, char *err, size_t errlen)
{
    const char *name = o->path ? o->path : "standard output";
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int saved = errno;
    if (o->f != stdout && fclose(o->f) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    o->f = NULL;
    if (bad) {
        snprintf(err, errlen, "cannot write '%s': %s", name, strerror(saved ? saved : EIO));
        outfile_abort(o);
        return -1;
    }
    return 0;
}

int outfile_rename(outfile *o, char *err, size_t errlen)
{
    int rc = 0;
    if (o->path && rename(o->tmp, o->path) != 0) {
        snprintf(err, errlen, "cannot write '%s': %s", o->path, strerror(errno));
        unlink(o->tmp);
        rc = -1;
    }
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    return rc;
}

void outfile_abort(outfile *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp)
        unlink(o->tmp);
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
}
