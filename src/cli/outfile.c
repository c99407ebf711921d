/* outfile.c — atomic output files: write to a temporary beside the target, then rename; the
 * temporaries removed by any signal that would end the run. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "cli/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bots/program.h"
#include "core/xalloc.h"

/* Temporary files not yet renamed or removed, for outfile_remove_pending. The one piece of
 * process-wide state here: a signal handler can reach nothing else. Only the main thread
 * opens and closes output files. */
enum { MAX_PENDING = 8 };
static char *volatile pending[MAX_PENDING];

static void pending_add(char *tmp)
{
    xalloc_on_fail(outfile_remove_pending); /* running out of memory removes them too */
    for (int i = 0; i < MAX_PENDING; i++)
        if (pending[i] == NULL) {
            pending[i] = tmp;
            return;
        }
}

static void pending_drop(const char *tmp)
{
    for (int i = 0; i < MAX_PENDING; i++)
        if (tmp != NULL && pending[i] == tmp)
            pending[i] = NULL;
}

void outfile_remove_pending(void)
{
    for (int i = 0; i < MAX_PENDING; i++)
        if (pending[i] != NULL)
            unlink(pending[i]);
}

/* The signals whose default action ends the process (SIGKILL and SIGSTOP aside, which cannot
 * be caught; SIGABRT, SIGSEGV and their kin are a crash, not a request to stop). */
static const int stop_signals[] = {SIGHUP,  SIGINT,  SIGQUIT,   SIGTERM, SIGPIPE, SIGALRM,
                                   SIGUSR1, SIGUSR2, SIGXCPU,   SIGXFSZ, SIGVTALRM, SIGPROF};

/* Blocks every signal of stop_signals, the mask before into *old. */
static void block_stop_signals(sigset_t *old)
{
    sigset_t stop;
    sigemptyset(&stop);
    for (size_t i = 0; i < sizeof stop_signals / sizeof *stop_signals; i++)
        sigaddset(&stop, stop_signals[i]);
    sigprocmask(SIG_BLOCK, &stop, old);
}

/* Removes the temporary output files, kills the bots outside the process (bots/program.h)
 * and exits with 128 + the signal's number. Only async-signal-safe calls (unlink, getpid,
 * kill, waitpid, _exit). A SIGXFSZ that this process's own write
 * raised (past a file-size limit, ulimit -f: the kernel sends it as from the process itself)
 * returns instead: the write then fails with EFBIG, reported as any failed write (exit 3). */
static void on_stop_signal(int sig, siginfo_t *info, void *context)
{
    (void)context;
    if (sig == SIGXFSZ && info != NULL && info->si_code == SI_USER && info->si_pid == getpid())
        return;
    outfile_remove_pending();
    program_kill_all();
    _exit(128 + sig);
}

void outfile_catch_signals(void)
{
    for (size_t i = 0; i < sizeof stop_signals / sizeof *stop_signals; i++) {
        struct sigaction old;
        if (sigaction(stop_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue; /* ignored by the caller (nohup): stays ignored */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_stop_signal;
        sa.sa_flags = SA_SIGINFO;
        sigfillset(&sa.sa_mask); /* one handler at a time */
        sigaction(stop_signals[i], &sa, NULL);
    }
}

static volatile sig_atomic_t soft_flag;
static bool soft_tty; /* standard error is a terminal (set before the handler is) */

/* The first SIGINT of a run that can stop early: recorded, and said on standard error; the
 * second ends the run as on_stop_signal does. */
static void on_soft_interrupt(int sig, siginfo_t *info, void *context)
{
    if (soft_flag) {
        on_stop_signal(sig, info, context);
        return;
    }
    soft_flag = sig;
    static const char msg[] = "\r\033[Kgiochi-sim: interrupted: finishing the games under way "
                              "(Ctrl-C again stops at once)\n";
    size_t skip = soft_tty ? 0 : 4; /* the progress line's erasure, on a terminal only */
    ssize_t w = write(STDERR_FILENO, msg + skip, sizeof msg - 1 - skip);
    (void)w;
}

volatile sig_atomic_t *outfile_soft_interrupt(void)
{
    soft_tty = isatty(STDERR_FILENO);
    struct sigaction old;
    if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        return &soft_flag; /* ignored by the caller: stays ignored, the flag stays 0 */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_soft_interrupt;
    sa.sa_flags = SA_SIGINFO;
    sigfillset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    return &soft_flag;
}

static volatile sig_atomic_t stop_flag;

static void on_flag_signal(int sig)
{
    stop_flag = sig;
}

volatile sig_atomic_t *outfile_flag_signals(void)
{
    const int sigs[] = {SIGHUP, SIGINT, SIGTERM};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction sa, old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_flag_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
    return &stop_flag;
}

enum { MAX_LINKS = 40 }; /* as the kernel's own limit on links followed in one lookup */

/* A copy of s; running out of memory ends the run (xalloc.h). */
static char *copy(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

/* Follows symbolic links from path as far as they go, also to a file that does not exist yet
 * (a dangling link names the file to create). Returns a new string (caller frees): path
 * itself when it is not a link. NULL with errno set on a link loop (ELOOP) or an unreadable
 * link. */
static char *follow_links(const char *path)
{
    char *p = copy(path);
    for (int i = 0;; i++) {
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
            return p; /* not a link, or nothing there yet: the file to write */
        if (i == MAX_LINKS) {
            free(p);
            errno = ELOOP;
            return NULL;
        }
        size_t cap = (size_t)st.st_size + 2;
        char *to = xmalloc(cap);
        ssize_t n = readlink(p, to, cap);
        if (n < 0 || (size_t)n >= cap) {
            int saved = n < 0 ? errno : ENAMETOOLONG;
            free(to);
            free(p);
            errno = saved;
            return NULL;
        }
        to[n] = '\0';
        char *next = to;
        if (to[0] != '/') { /* relative to the directory holding the link */
            char *d = copy(p);
            const char *dir = dirname(d);
            size_t len = strlen(dir) + (size_t)n + 2;
            next = xmalloc(len);
            snprintf(next, len, "%s/%s", dir, to);
            free(d);
            free(to);
        }
        free(p);
        p = next;
    }
}

/* The file a path names once symbolic links are followed: realpath of that file if it
 * exists, else realpath of its directory joined with its last component. A new string
 * (caller frees), or NULL if the directory does not exist either. */
static char *canonical(const char *path)
{
    char *file = follow_links(path);
    if (file == NULL)
        return NULL;
    char *full = realpath(file, NULL);
    if (full != NULL) {
        free(file);
        return full;
    }
    char *d = copy(file), *b = copy(file);
    char *dir = realpath(dirname(d), NULL);
    char *out = NULL;
    if (dir != NULL) {
        const char *base = basename(b);
        size_t n = strlen(dir) + strlen(base) + 2;
        out = xmalloc(n);
        snprintf(out, n, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, base);
    }
    free(dir);
    free(d);
    free(b);
    free(file);
    return out;
}

bool outfile_same(const char *a, const char *b)
{
    if (a == NULL || b == NULL || strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return false;
    char *x = canonical(a), *y = canonical(b);
    struct stat st;
    bool same = x && y && strcmp(x, y) == 0 && (stat(x, &st) != 0 || S_ISREG(st.st_mode));
    free(x);
    free(y);
    return same;
}

/* Fails with "cannot write 'path': reason", abandoning whatever o holds. */
static int fail(outfile *o, const char *path, const char *reason, char *err, size_t errlen)
{
    snprintf(err, errlen, "cannot write '%s': %s", path, reason);
    outfile_abort(o);
    return -1;
}

/* Fails like fail(), naming the file a symbolic link leads to when it is not path itself. */
static int fail_via(outfile *o, const char *path, const char *target, int code, char *err,
                    size_t errlen)
{
    if (target == NULL || strcmp(target, path) == 0)
        return fail(o, path, strerror(code), err, errlen);
    snprintf(err, errlen, "cannot write '%s' (a symbolic link to '%s'): %s", path, target,
             strerror(code));
    outfile_abort(o);
    return -1;
}

/* Where the system has them (Linux: O_TMPFILE, and /proc to link it), the file is written
 * without a name in the target's directory, and named only when complete (name_unnamed):
 * then not even SIGKILL or a crash leaves a temporary file. Returns the descriptor (o->unnamed
 * set), or -1 if the system or the file system cannot. */
static int open_unnamed(outfile *o)
{
#ifdef O_TMPFILE
    if (access("/proc/self/fd", X_OK) != 0)
        return -1;
    char *d = copy(o->target);
    int fd = open(dirname(d), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    free(d);
    o->unnamed = fd >= 0;
    return fd;
#else
    (void)o;
    return -1;
#endif
}

/* A temporary file beside the target, named at once (mkstemp) and in the pending list from
 * the moment it exists. Returns the descriptor, or -1 with errno set. */
static int open_named(outfile *o)
{
    size_t n = strlen(o->target) + 16;
    o->tmp = xmalloc(n);
    snprintf(o->tmp, n, "%s.tmp-XXXXXX", o->target);
    /* The file and its entry in the pending list come into being together: a signal that
     * arrived between the two would leave a temporary file that no handler knows of. */
    sigset_t old;
    block_stop_signals(&old);
    int fd = mkstemp(o->tmp);
    int saved = errno;
    if (fd >= 0)
        pending_add(o->tmp);
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return fd;
}

/* Gives the complete unnamed file of o a temporary name beside its target (o->tmp, in the
 * pending list), for outfile_rename. Returns 0, or -1 with errno set. */
static int name_unnamed(outfile *o)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fileno(o->f));
    size_t n = strlen(o->target) + 16;
    o->tmp = xmalloc(n);
    static const char digits[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (int attempt = 0; attempt < 100; attempt++) {
        uint64_t r = 0;
        if (getrandom(&r, sizeof r, GRND_NONBLOCK) != sizeof r)
            r = (uint64_t)time(NULL) * 6364136223846793005u + (uint64_t)getpid() + (uint64_t)attempt;
        char suffix[7];
        for (int i = 0; i < 6; i++, r /= 62)
            suffix[i] = digits[r % 62];
        suffix[6] = '\0';
        snprintf(o->tmp, n, "%s.tmp-%s", o->target, suffix);
        sigset_t old;
        block_stop_signals(&old);
        int rc = linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW);
        int saved = errno;
        if (rc == 0)
            pending_add(o->tmp);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (rc == 0)
            return 0;
        if (saved != EEXIST) {
            free(o->tmp);
            o->tmp = NULL;
            errno = saved;
            return -1;
        }
    }
    free(o->tmp);
    o->tmp = NULL;
    errno = EEXIST;
    return -1;
}

int outfile_open(outfile *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    if (path == NULL || strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    if (*path == '\0')
        return fail(o, path, "empty file name", err, errlen);
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return fail(o, path, strerror(EISDIR), err, errlen);
    o->path = copy(path);
    if (exists && !S_ISREG(st.st_mode)) {
        /* A device, a pipe or a terminal: renaming over it would replace it. */
        o->f = fopen(path, "w");
        return o->f ? 0 : fail(o, path, strerror(errno), err, errlen);
    }
    /* Through a symbolic link (even a dangling one), the file the link names is written and
     * the link kept: the temporary goes beside that file. A link loop is an error. */
    o->target = follow_links(path);
    if (o->target == NULL)
        return fail(o, path, strerror(errno), err, errlen);
    int fd = open_unnamed(o);
    if (fd < 0) {
        fd = open_named(o);
        if (fd < 0) {
            int saved = errno;
            free(o->tmp);
            o->tmp = NULL;
            return fail_via(o, path, o->target, saved, err, errlen);
        }
    }
    if (exists) {
        /* A file replaced keeps its owner (where the system allows it) and its mode; the
         * owner first, since changing it may clear set-id bits. */
        if (fchown(fd, st.st_uid, st.st_gid) != 0 && fchown(fd, (uid_t)-1, st.st_gid) != 0) {
            /* not ours to give away: the file becomes ours, as any rewrite would */
        }
        fchmod(fd, st.st_mode & 07777);
    } else {
        /* mkstemp makes the file private (and O_TMPFILE's mode is its own): give a new file
         * the mode a plain creat() would. */
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    o->f = fdopen(fd, "w");
    if (o->f == NULL) {
        int saved = errno;
        close(fd);
        return fail(o, path, strerror(saved), err, errlen);
    }
    return 0;
}

int outfile_close(outfile *o, char *err, size_t errlen)
{
    const char *name = o->path ? o->path : "standard output";
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int saved = errno;
    if (!bad && o->unnamed && name_unnamed(o) != 0) {
        bad = 1;
        saved = errno;
    }
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

/* Frees o's names. */
static void forget(outfile *o)
{
    pending_drop(o->tmp);
    free(o->path);
    free(o->target);
    free(o->tmp);
    o->path = o->target = o->tmp = NULL;
}

int outfile_rename(outfile *o, char *err, size_t errlen)
{
    int rc = 0;
    if (o->tmp && rename(o->tmp, o->target) != 0) {
        snprintf(err, errlen, "cannot write '%s': %s", o->path, strerror(errno));
        unlink(o->tmp);
        rc = -1;
    }
    forget(o);
    return rc;
}

void outfile_abort(outfile *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp)
        unlink(o->tmp);
    forget(o);
}
