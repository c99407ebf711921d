/* program.c — program bots: a process per seat and worker speaking line-JSON (giochi-sim-bots(7)). */
#define _GNU_SOURCE
#include "bots/program.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "core/jsonw.h"
#include "core/ruletext.h"
#include "core/runner.h"
#include "core/xalloc.h"

extern char **environ;

/* ---- declared programs ---------------------------------------------------------------------- */

typedef struct program {
    char name[64];
    char *command;
    bot_param param[BOT_MAX_PARAMS + 1]; /* NULL-name-terminated; grows as --bots names keys */
    char param_name[BOT_MAX_PARAMS][64];
    int nparams;
} program;

static program programs[PROGRAM_MAX];
static bot_type program_bots[PROGRAM_MAX];
static int nprograms;
static double timeout_ms = PROGRAM_DEFAULT_TIMEOUT * 1000.0;

/* ---- every process group started, for the signal handler ------------------------------- */

/* Each bot runs in a process group of its own, led by the shell that runs its COMMAND (the
 * group's id is the shell's pid). A group is ended as a whole: SIGTERM to every process in it,
 * a grace of GRACE_MS, then SIGKILL, and every process of it reaped. giochi-sim is the
 * "child subreaper" of its bots (prctl), so that the processes a bot forks and leaves behind
 * become giochi-sim's children when their parent dies, and are reaped by it too: when the
 * run ends, no process of a bot is left, not even a zombie. */

enum { MAX_PROCS = GAME_MAX_SEATS * 1024, /* a seat for each of 1024 worker threads */
       GRACE_MS = 150 };
/* The groups' ids; a slot is cleared only once no process of its group is left. */
static _Atomic pid_t procs[MAX_PROCS];
static pthread_mutex_t procs_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t exit_hook = PTHREAD_ONCE_INIT;
/* Threads between starting a bot's process and filing it in procs: program_kill_all waits
 * for them, so that no bot started at the moment the run stops escapes it. */
static atomic_int spawning;

/* Set once the run is being stopped (a failure, a signal, the exit): a bot's failure found
 * after it (the bot killed by the stop) waits for the end instead of exiting with 6, and no
 * new bot is started. */
static atomic_bool stopping;

/* Files pid in a free slot; returns the slot. */
static int proc_add(pid_t pid)
{
    pthread_mutex_lock(&procs_lock);
    int i = 0;
    while (i < MAX_PROCS && atomic_load(&procs[i]) != 0)
        i++;
    if (i < MAX_PROCS)
        atomic_store(&procs[i], pid);
    pthread_mutex_unlock(&procs_lock);
    return i < MAX_PROCS ? i : -1;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Sleeps about a millisecond (async-signal-safe). */
static void nap(void)
{
    struct timespec t = {0, 1000000};
    nanosleep(&t, NULL);
}

/* Reaps the processes of group pgid that have ended (flags WNOHANG), or waits for all of them
 * (flags 0). True once none of them is left among giochi-sim's children. Async-signal-safe. */
static bool reap_group(pid_t pgid, int flags)
{
    for (;;) {
        pid_t got = waitpid(-pgid, NULL, flags);
        if (got > 0)
            continue;
        if (got == 0)
            return false;
        if (errno != EINTR)
            return true; /* ECHILD */
    }
}

/* Ends the groups of slots [from, to) of procs: SIGTERM, up to GRACE_MS for them to leave,
 * then SIGKILL; each reaped whole and its slot cleared. Async-signal-safe. Two callers at
 * once (a thread's teardown and a signal's handler) only reap what the other would. */
static void end_groups(int from, int to)
{
    for (int i = from; i < to; i++) {
        pid_t pid = atomic_load(&procs[i]);
        if (pid > 0)
            kill(-pid, SIGTERM);
    }
    double deadline = now_ms() + GRACE_MS;
    for (;;) {
        bool left = false;
        for (int i = from; i < to; i++) {
            pid_t pid = atomic_load(&procs[i]);
            if (pid > 0 && !reap_group(pid, WNOHANG))
                left = true;
        }
        if (!left || now_ms() >= deadline)
            break;
        nap();
    }
    for (int i = from; i < to; i++) {
        pid_t pid = atomic_load(&procs[i]);
        if (pid > 0) {
            kill(-pid, SIGKILL); /* what is left of it, a process not our child included */
            reap_group(pid, 0);
            atomic_compare_exchange_strong(&procs[i], &pid, 0);
        }
    }
}

void program_kill_all(void)
{
    atomic_store(&stopping, true);
    while (atomic_load(&spawning) > 0) /* a bot being started: it is filed at once */
        nap();
    end_groups(0, MAX_PROCS);
}

static void kill_at_exit(void)
{
    /* the bots' orphans become ours, to be killed and reaped with their group */
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    atexit(program_kill_all);
}

/* ---- declarations and parameters ------------------------------------------------------------ */

/* The per-seat context. */
typedef struct program_ctx {
    const program *prog;
    const game_type *g;
    const void *rules;
    int seat, nseats;
    double param[BOT_MAX_PARAMS];
    pid_t pid;    /* the shell running the command: the leader of the bot's process group */
    int pidfd;    /* the shell's, readable once it has ended (-1: none) */
    int slot;     /* in procs */
    int to_bot;   /* our end of the bot's standard input (a socket: writes never raise SIGPIPE) */
    int from_bot; /* the read end of its standard output (a pipe) */
    bool started; /* the process is running and has answered the handshake */
    bot_game game; /* the game being played */
    jsonw w;
    char last[240]; /* the start of the last message sent, for the error line */
    char after[120]; /* the last exchange, for a line no request asked for */
    int asked;       /* decisions asked in the current game */
    char buf[4096]; /* what the bot wrote and we have not read yet */
    size_t have;
} program_ctx;

static int program_setup(const program *p, void *ctx, const game_type *g, const void *rules,
                         int seat, int nseats, const double *param, char *err, size_t errlen);

/* One setup per slot: a bot_type's setup is not told which descriptor it belongs to. */
#define SETUP(i)                                                                             \
    static int setup_##i(void *ctx, const game_type *g, const void *rules, int seat,         \
                         int nseats, const double *param, char *err, size_t errlen)          \
    {                                                                                        \
        return program_setup(&programs[i], ctx, g, rules, seat, nseats, param, err, errlen); \
    }
SETUP(0)
SETUP(1)
SETUP(2)
SETUP(3)
SETUP(4)
SETUP(5)
SETUP(6)
SETUP(7)
_Static_assert(PROGRAM_MAX == 8, "one SETUP per program slot");
typedef int setup_fn(void *, const game_type *, const void *, int, int, const double *, char *,
                     size_t);
static setup_fn *const setups[PROGRAM_MAX] = {setup_0, setup_1, setup_2, setup_3,
                                              setup_4, setup_5, setup_6, setup_7};

static int program_choose(void *ctx, const void *seen, const decision *d, rng *r);
static void program_teardown(void *ctx);
static void program_begin(void *ctx, const bot_game *game, const void *seen);
static void program_end(void *ctx, const bot_game *game, const outcome *o);

int program_declare(const char *spec, char *err, size_t errlen)
{
    const char *eq = strchr(spec, '=');
    if (eq == NULL || eq == spec || eq[1] == '\0')
        return snprintf(err, errlen, "--bot-program '%s': expected NAME=COMMAND", spec), -1;
    size_t n = (size_t)(eq - spec);
    if (n >= sizeof programs[0].name)
        return snprintf(err, errlen, "--bot-program: name too long (at most 63 characters)"), -1;
    for (size_t i = 0; i < n; i++) {
        char c = spec[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_'))
            return snprintf(err, errlen,
                            "--bot-program '%.*s': a name is letters, digits, '-' and '_'",
                            (int)n, spec),
                   -1;
    }
    if (n == 5 && strncmp(spec, "human", 5) == 0)
        return snprintf(err, errlen, "--bot-program: 'human' is the human seat's name"), -1;
    for (int i = 0; i < nprograms; i++)
        if (strlen(programs[i].name) == n && strncmp(programs[i].name, spec, n) == 0)
            return snprintf(err, errlen, "--bot-program '%.*s' is declared twice", (int)n, spec),
                   -1;
    if (nprograms == PROGRAM_MAX)
        return snprintf(err, errlen, "--bot-program: at most %d programs", PROGRAM_MAX), -1;
    program *p = &programs[nprograms];
    memcpy(p->name, spec, n);
    p->name[n] = '\0';
    p->command = xmalloc(strlen(eq + 1) + 1);
    strcpy(p->command, eq + 1);
    program_bots[nprograms] = (bot_type){
        .name = p->name,
        .doc = p->command,
        .params = p->param,
        .ctx_size = sizeof(program_ctx),
        .setup = setups[nprograms],
        .choose = program_choose,
        .teardown = program_teardown,
        .game_begin = program_begin,
        .game_end = program_end,
        .no_draws = true, /* the program gets its seeds in the messages */
    };
    nprograms++;
    return 0;
}

void program_set_timeout(double seconds)
{
    timeout_ms = seconds * 1000.0;
}

const bot_type *program_lookup(const game_type *g, const char *name)
{
    if (g->view_json == NULL)
        return NULL;
    for (int i = 0; i < nprograms; i++)
        if (strcmp(programs[i].name, name) == 0)
            return &program_bots[i];
    return NULL;
}

bool program_is(const bot_type *b)
{
    return b >= program_bots && b < program_bots + nprograms;
}

int program_param(const bot_type *b, const char *key, char *err, size_t errlen)
{
    program *p = &programs[b - program_bots];
    for (int i = 0; i < p->nparams; i++)
        if (strcmp(p->param_name[i], key) == 0)
            return i;
    if (p->nparams == BOT_MAX_PARAMS || strlen(key) >= sizeof p->param_name[0])
        return snprintf(err, errlen, "bot '%s': too many or too long parameters", p->name), -1;
    int i = p->nparams++;
    strcpy(p->param_name[i], key);
    p->param[i] = (bot_param){.name = p->param_name[i], .def = NAN, .min = -1e300,
                              .max = 1e300, .doc = "passed to the program"};
    return i;
}

void program_list(FILE *f, const game_type *g, const bot_type *also)
{
    if (g->view_json == NULL)
        return;
    fprintf(f, "  bots outside the process:\n");
    if (also)
        fprintf(f, "    %-16s %s\n", also->name, also->doc);
    for (int i = 0; i < nprograms; i++)
        fprintf(f, "    %-16s program: %s\n", programs[i].name, programs[i].command);
}

/* ---- failing ------------------------------------------------------------------------------- */

/* Ends the run: one line naming the bot, the game and what it last received, every bot
 * process killed and reaped, no temporary output file, exit PROGRAM_EXIT. */
static void __attribute__((noreturn, format(printf, 2, 3))) fail(program_ctx *c,
                                                                 const char *fmt, ...)
{
    char what[512], line[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (c->started || c->game.index || c->game.seed)
        snprintf(line, sizeof line,
                 "giochi-sim: bot '%s' (seat %d) %s at game %llu of --seed=%llu "
                 "(last sent: %s) (its standard error is shown above; see giochi-sim-bots(7))\n",
                 c->prog->name, c->seat + 1, what, (unsigned long long)c->game.index,
                 (unsigned long long)c->game.seed, c->last[0] ? c->last : "nothing");
    else
        snprintf(line, sizeof line, "giochi-sim: bot '%s' (seat %d) %s\n", c->prog->name,
                 c->seat + 1, what);
    for (char *p = line; p[1]; p++) /* one line */
        if ((unsigned char)*p < 0x20)
            *p = ' ';
    program_exit(line, PROGRAM_EXIT);
}

void program_exit(const char *line, int status)
{
    /* the first to stop the run speaks; another thread stopping it too (its bot killed by
     * the first, or by a signal's handler) waits for the end */
    if (atomic_exchange(&stopping, true))
        for (;;)
            pause();
    program_kill_all();
    xalloc_cleanup(); /* the temporary output files, as out of memory removes them */
    ssize_t rc = write(STDERR_FILENO, line, strlen(line));
    (void)rc;
    _exit(status);
}

/* Waits up to ms milliseconds for the bot's shell to end; true if it has. */
static bool leader_ended(program_ctx *c, int ms)
{
    siginfo_t si;
    if (c->pidfd >= 0) {
        struct pollfd p = {c->pidfd, POLLIN, 0};
        while (poll(&p, 1, ms) < 0 && errno == EINTR)
            ;
    }
    memset(&si, 0, sizeof si);
    /* WNOWAIT: the shell stays a zombie, so that its group's id is not reused until the
     * whole group is reaped */
    return waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == c->pid;
}

/* How the bot ended, if it has ("exited with status 3"), waiting up to a second for it once
 * its input or output is closed; otherwise "closed its <what>" (it runs on). */
static void ended(program_ctx *c, const char *what, char *buf, size_t n)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (!leader_ended(c, 1000) ||
        waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid != c->pid) {
        snprintf(buf, n, "closed its %s", what);
        return;
    }
    int st = si.si_status;
    if (si.si_code == CLD_EXITED && st > 128 && st < 128 + 65)
        /* the shell's status for its command killed by a signal */
        snprintf(buf, n, "exited with status %d (128 + %d: killed by signal %d, %s)", st,
                 st - 128, st - 128, strsignal(st - 128));
    else if (si.si_code == CLD_EXITED)
        snprintf(buf, n, "exited with status %d", st);
    else if (si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)
        snprintf(buf, n, "was killed by signal %d (%s)", st, strsignal(st));
    else
        snprintf(buf, n, "stopped");
}

/* ---- talking ------------------------------------------------------------------------------- */

/* Starts a protocol message in c->w: empties the buffer and opens the message's object with
 * its "type" member (hello, start, end, decide, bye); returns the writer. The caller adds the
 * other members, closes the object and sends it. */
static jsonw *begin_message(program_ctx *c, const char *type)
{
    jsonw *w = &c->w;
    jw_reset(w);
    jw_obj(w);
    jw_key(w, "type");
    jw_str(w, type);
    return w;
}

/* Reads what the bot has written, without waiting; fails if it closed its output, unless
 * eof_ok. Returns whether anything came. */
static bool read_pending(program_ctx *c, bool eof_ok)
{
    struct pollfd p = {c->from_bot, POLLIN, 0};
    if (c->have == sizeof c->buf - 1 || poll(&p, 1, 0) <= 0)
        return false;
    ssize_t k = read(c->from_bot, c->buf + c->have, sizeof c->buf - 1 - c->have);
    if (k == 0 && !eof_ok) {
        char how[160];
        ended(c, "output", how, sizeof how);
        fail(c, "%s", how);
    }
    if (k <= 0)
        return false;
    c->have += (size_t)k;
    return true;
}

/* Fails if the bot has written anything no request asked for (a line after its last answer,
 * or before the request that would ask for it), with what it wrote and c->after; and if it
 * closed its output, unless eof_ok (at the end of the run). */
static void refuse_unasked(program_ctx *c, bool eof_ok)
{
    if (c->have == 0 && !read_pending(c, eof_ok))
        return;
    read_pending(c, true); /* the rest of the line, if it is there */
    c->buf[c->have] = '\0';
    char *nl = strchr(c->buf, '\n');
    if (nl)
        *nl = '\0';
    fail(c, "wrote '%.80s', which no request asked for, after %s", c->buf, c->after);
}

/* Sends the message in c->w (a newline is added), waiting at most the time limit for the
 * bot to make room by reading. A line the bot wrote since its last answer fails first. */
static void send_message(program_ctx *c)
{
    refuse_unasked(c, false);
    jw_append(&c->w, "\n", 1);
    size_t keep = c->w.len - 1 < sizeof c->last - 1 ? c->w.len - 1 : sizeof c->last - 1;
    memcpy(c->last, c->w.buf, keep);
    c->last[keep] = '\0';
    if (keep == sizeof c->last - 1)
        memcpy(c->last + keep - 3, "...", 3);
    double deadline = now_ms() + timeout_ms;
    for (size_t off = 0; off < c->w.len;) {
        ssize_t k = send(c->to_bot, c->w.buf + off, c->w.len - off, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            double left = deadline - now_ms();
            struct pollfd p[2] = {{c->to_bot, POLLOUT, 0}, {c->pidfd, POLLIN, 0}};
            int r = left > 0 ? poll(p, c->pidfd >= 0 ? 2 : 1, (int)ceil(left)) : 0;
            if (r < 0 && errno == EINTR)
                continue;
            if (r == 0)
                fail(c, "read none of its input within the time limit of %g s (--bot-timeout)",
                     timeout_ms / 1000.0);
            if (r > 0 && (p[0].revents & POLLOUT) == 0 && leader_ended(c, 0)) {
                char how[160];
                ended(c, "input", how, sizeof how);
                fail(c, "%s before reading its message", how);
            }
            continue;
        }
        if (k <= 0) {
            char how[160];
            ended(c, "input", how, sizeof how);
            fail(c, "%s before reading its message", how);
        }
        off += (size_t)k;
    }
}

/* Reads one line from the bot into the start of c->buf (its newline replaced by a NUL),
 * waiting at most the time limit; *consumed is set to the bytes the line took, which the
 * caller drops from the buffer (drop_line) once it has read the line. A bot whose shell
 * ends (the bot exited, though a process it left may hold its output) fails at once. */
static void read_line(program_ctx *c, size_t *consumed)
{
    double deadline = now_ms() + timeout_ms;
    size_t scanned = 0;
    for (;;) {
        char *nl = memchr(c->buf + scanned, '\n', c->have - scanned);
        if (nl) {
            *nl = '\0';
            *consumed = (size_t)(nl - c->buf) + 1;
            return;
        }
        scanned = c->have;
        if (c->have == sizeof c->buf - 1)
            fail(c, "answered a line longer than %zu bytes", sizeof c->buf - 1);
        double left = deadline - now_ms();
        /* its output; its input, which hangs up when the bot closes it; and its shell */
        struct pollfd p[3] = {{c->from_bot, POLLIN, 0}, {c->to_bot, POLLRDHUP, 0},
                              {c->pidfd, POLLIN, 0}};
        int r = left > 0 ? poll(p, c->pidfd >= 0 ? 3 : 2, (int)ceil(left)) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            fail(c, "gave no answer within the time limit of %g s (--bot-timeout)",
                 timeout_ms / 1000.0);
        if (r > 0 && p[0].revents == 0) {
            char how[160];
            if (p[2].revents == 0) { /* its input closed: no further message can reach it */
                ended(c, "input", how, sizeof how);
                fail(c, "%s before answering", how);
            }
            ended(c, "output", how, sizeof how); /* the shell has ended, its output open */
            fail(c, "%s", how);
        }
        ssize_t k = read(c->from_bot, c->buf + c->have, sizeof c->buf - 1 - c->have);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            char how[160];
            ended(c, "output", how, sizeof how);
            fail(c, "%s", how);
        }
        c->have += (size_t)k;
    }
}

/* Drops the first `consumed` bytes of what the bot wrote (a line read by read_line). */
static void drop_line(program_ctx *c, size_t consumed)
{
    memmove(c->buf, c->buf + consumed, c->have - consumed);
    c->have -= consumed;
}

/* Writes the members "seed" (a JSON number, as protocol 1 always had it) and "seed_str" (the
 * same in decimal digits, a string: exact in readers whose numbers are doubles). */
static void put_seed(jsonw *w, uint64_t seed)
{
    char digits[24];
    snprintf(digits, sizeof digits, "%llu", (unsigned long long)seed);
    jw_key(w, "seed");
    jw_uint(w, seed);
    jw_key(w, "seed_str");
    jw_str(w, digits);
}

/* The shell line that runs COMMAND (giochi-sim-bots(7)): the command runs as a background
 * job of the shell with the bot's input and output (fds 3 and 4 here), which the shell itself
 * then closes; it waits for the command and exits with its status. So the command's own
 * closing of its input or output is seen, and the shell leads the bot's process group. */
static char *shell_line(const char *command)
{
    static const char head[] = "exec 3<&0 4>&1 </dev/null >/dev/null\n{ ";
    static const char tail[] = "\n} <&3 >&4 3<&- 4<&- &\nexec 3<&- 4<&-\nwait $!\n";
    char *line = xmalloc(sizeof head + strlen(command) + sizeof tail);
    sprintf(line, "%s%s%s", head, command, tail);
    return line;
}

/* Starts the process in a process group of its own and makes the handshake. */
static void start(program_ctx *c)
{
    pthread_once(&exit_hook, kill_at_exit);
    int sv[2], out[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        fail(c, "could not be started: %s", strerror(errno));
    if (pipe2(out, O_CLOEXEC) != 0)
        fail(c, "could not be started: %s", strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t all, none, mask;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&at, &all);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETPGROUP);
    char sh[] = "sh", dash_c[] = "-c";
    char *line = shell_line(c->prog->command);
    char *argv[] = {sh, dash_c, line, NULL};
    /* from the spawn to the filing no signal's handler runs on this thread (it would wait
     * for this very thread), and a stop begun meanwhile waits for the filing */
    pthread_sigmask(SIG_BLOCK, &all, &mask);
    atomic_fetch_add(&spawning, 1);
    if (atomic_load(&stopping)) { /* the run is being ended by another thread */
        atomic_fetch_sub(&spawning, 1);
        for (;;)
            pause();
    }
    int rc = posix_spawn(&c->pid, "/bin/sh", &fa, &at, argv, environ);
    if (rc == 0)
        c->slot = proc_add(c->pid);
    atomic_fetch_sub(&spawning, 1);
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    free(line);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(sv[1]);
    close(out[1]);
    if (rc != 0)
        fail(c, "could not be started: %s", strerror(rc));
    c->pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
    c->to_bot = sv[0];
    c->from_bot = out[0];
    c->started = true;

    /* the handshake */
    snprintf(c->after, sizeof c->after, "its start, before the handshake");
    jsonw *w = begin_message(c, "hello");
    jw_key_int(w, "protocol", PROGRAM_PROTOCOL);
    jw_key(w, "bot");
    jw_str(w, c->prog->name);
    jw_key(w, "game");
    jw_str(w, c->g->name);
    jw_key(w, "ruleset");
    char *ruleset = ruletext_recall(c->rules);
    if (ruleset)
        jw_raw(w, ruleset);
    else
        jw_null(w);
    free(ruleset);
    jw_key_int(w, "seat", c->seat);
    jw_key_int(w, "seats", c->nseats);
    jw_key(w, "params");
    jw_obj(w);
    for (int i = 0; i < c->prog->nparams; i++)
        if (!isnan(c->param[i])) {
            jw_key(w, c->prog->param_name[i]);
            jw_double(w, c->param[i]);
        }
    jw_obj_end(w);
    /* the seat's seed for the whole run, as one-way as its game streams */
    put_seed(w, rng_derive(c->game.seed, UINT64_MAX, RNG_STREAM_SEAT(c->seat)));
    jw_key(w, "kinds");
    jw_arr(w);
    for (int k = 0; c->g->kind_names[k]; k++)
        jw_str(w, c->g->kind_names[k]);
    jw_arr_end(w);
    jw_key(w, "time_limit");
    jw_double(w, timeout_ms / 1000.0);
    jw_obj_end(w);
    send_message(c);
    size_t consumed = 0;
    read_line(c, &consumed);
    cJSON *ans = cJSON_Parse(c->buf);
    const cJSON *type = ans ? cJSON_GetObjectItemCaseSensitive(ans, "type") : NULL;
    bool ok = cJSON_IsString(type) && strcmp(type->valuestring, "ready") == 0;
    cJSON_Delete(ans);
    if (!ok)
        fail(c, "answered the handshake with '%.80s' (expected {\"type\":\"ready\"})", c->buf);
    drop_line(c, consumed);
    snprintf(c->after, sizeof c->after, "its answer to the handshake");
    refuse_unasked(c, false);
}

static int program_setup(const program *p, void *ctx, const game_type *g, const void *rules,
                         int seat, int nseats, const double *param, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    program_ctx *c = ctx;
    c->prog = p;
    c->g = g;
    c->rules = rules;
    c->seat = seat;
    c->nseats = nseats;
    c->slot = -1;
    c->to_bot = c->from_bot = c->pidfd = -1;
    for (int i = 0; i < BOT_MAX_PARAMS; i++)
        c->param[i] = i < p->nparams ? param[i] : NAN;
    return 0; /* the process starts with the seat's first game (a probe starts none) */
}

static void program_begin(void *ctx, const bot_game *game, const void *seen)
{
    program_ctx *c = ctx;
    c->game = *game;
    if (!c->started)
        start(c);
    jsonw *w = begin_message(c, "start");
    jw_key(w, "game");
    jw_uint(w, game->index);
    /* the seed of the seat's stream for this game, as built-in bots get */
    put_seed(w, rng_derive(game->seed, game->index, RNG_STREAM_SEAT(c->seat)));
    jw_key(w, "view");
    c->g->view_json(seen, c->seat, w);
    jw_obj_end(w);
    send_message(c);
    c->asked = 0;
    snprintf(c->after, sizeof c->after, "the start message of the game");
}

static void program_end(void *ctx, const bot_game *game, const outcome *o)
{
    program_ctx *c = ctx;
    const game_type *g = c->g;
    jsonw *w = begin_message(c, "end");
    jw_key(w, "game");
    jw_uint(w, game->index);
    jw_key(w, "end");
    jw_str(w, g->end_names[o->end]);
    jw_key_int(w, "length", o->length);
    jw_key(w, "winners");
    jw_arr(w);
    for (int k = 0; k < o->nseats; k++)
        if (o->winners >> k & 1)
            jw_int(w, k);
    jw_arr_end(w);
    jw_key(w, "scores");
    jw_arr(w);
    for (int k = 0; k < o->nseats; k++)
        jw_int(w, o->score[k]);
    jw_arr_end(w);
    jw_key(w, "ranks");
    jw_ints(w, o->rank, o->nseats);
    jw_obj_end(w);
    send_message(c);
    snprintf(c->after, sizeof c->after, "the end message of the game");
}

/* Action a's name, as traces show it. */
static void name_of(const program_ctx *c, const void *seen, const decision *d, int32_t a,
                    char *buf, size_t n)
{
    if (c->g->view_action_name)
        c->g->view_action_name(seen, d, a, buf, n);
    else
        c->g->action_name(seen, d, a, buf, n);
}

/* Reads a JSON string at s (just past its opening quote) into out; returns the position
 * after its closing quote, or NULL if it is not a plain string. */
static const char *read_string(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && *s != '"'; s++) {
        char ch = *s;
        if (ch == '\\') {
            s++;
            if (*s == '"' || *s == '\\' || *s == '/')
                ch = *s;
            else
                return NULL;
        }
        if (k + 1 >= n)
            return NULL;
        out[k++] = ch;
    }
    if (*s != '"')
        return NULL;
    out[k] = '\0';
    return s + 1;
}

static int program_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)r;
    program_ctx *c = ctx;
    const game_type *g = c->g;
    jsonw *w = begin_message(c, "decide");
    jw_key(w, "kind");
    jw_str(w, g->kind_names[d->kind]);
    jw_key(w, "actions");
    jw_arr(w);
    char name[128];
    for (int i = 0; i < d->n; i++) {
        name_of(c, seen, d, d->action[i], name, sizeof name);
        jw_obj(w);
        jw_key_int(w, "code", d->action[i]);
        jw_key(w, "name");
        jw_str(w, name);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_key(w, "view");
    g->view_json(seen, c->seat, w);
    jw_obj_end(w);
    send_message(c);

    size_t consumed = 0;
    read_line(c, &consumed);
    const char *s = c->buf;
    while (*s == ' ' || *s == '\t' || *s == '\r')
        s++;
    int k = -1;
    const char *end = NULL;
    if (*s >= '0' && *s <= '9') {
        long v = 0;
        for (end = s; *end >= '0' && *end <= '9' && v < 100000; end++)
            v = v * 10 + (*end - '0');
        if (v >= d->n) {
            char shown[100];
            snprintf(shown, sizeof shown, "%.80s", c->buf);
            fail(c, "answered the action index %s, not one of 0..%d", shown, d->n - 1);
        }
        k = (int)v;
    } else if (*s == '"') {
        char want[128];
        end = read_string(s + 1, want, sizeof want);
        for (int i = 0; end && i < d->n && k < 0; i++) {
            name_of(c, seen, d, d->action[i], name, sizeof name);
            if (strcmp(name, want) == 0)
                k = i;
        }
        if (end && k < 0) {
            char shown[100];
            snprintf(shown, sizeof shown, "%.80s", c->buf);
            fail(c, "answered %s, which names none of the %d legal actions", shown, d->n);
        }
    }
    while (end && (*end == ' ' || *end == '\t' || *end == '\r'))
        end++;
    if (k < 0 || end == NULL || *end != '\0') {
        char shown[100];
        snprintf(shown, sizeof shown, "%.80s", c->buf);
        fail(c, "answered '%s' (expected an action index 0..%d or an action's name)", shown,
             d->n - 1);
    }
    drop_line(c, consumed);
    c->asked++;
    snprintf(c->after, sizeof c->after, "its answer to decision %d (%s) of the game", c->asked,
             g->kind_names[d->kind]);
    refuse_unasked(c, false); /* what came with the answer is no answer to a later decision */
    return k;
}

static void program_teardown(void *ctx)
{
    program_ctx *c = ctx;
    if (c->started) {
        if (!atomic_load(&stopping))
            refuse_unasked(c, true);
        jw_obj_end(begin_message(c, "bye"));
        jw_append(&c->w, "\n", 1);
        ssize_t k = send(c->to_bot, c->w.buf, c->w.len, MSG_NOSIGNAL | MSG_DONTWAIT);
        (void)k;
        close(c->to_bot);
        /* a second for the bot to leave on its own, then its whole group is ended */
        leader_ended(c, 1000);
        if (c->slot >= 0) {
            end_groups(c->slot, c->slot + 1);
        } else { /* not filed (the table was full) */
            kill(-c->pid, SIGKILL);
            reap_group(c->pid, 0);
        }
        close(c->from_bot);
        if (c->pidfd >= 0)
            close(c->pidfd);
    }
    jw_free(&c->w);
}
