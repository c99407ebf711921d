/* replay.c — plays a game record, one action a line, and prints its trace and outcome. */
#include "core/replay.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "core/runner.h"
#include "core/xalloc.h"

enum { REPLAY_LINE = 1024 }; /* longest record line */

/* The seats' "bot" in the trace: the record chooses. */
static const bot_type replay_bot = {.name = "replay", .doc = "the actions of a game record"};

/* A record being read: where, for the messages. */
typedef struct reader {
    const char *path;
    long line;
    char *err;
    size_t errlen;
} reader;

/* Writes "PATH:LINE: message" into err; returns -1. */
static int fail(const reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(const reader *rd, const char *fmt, ...)
{
    int n = snprintf(rd->err, rd->errlen, "%s:%ld: ", rd->path, rd->line);
    if (n < 0 || (size_t)n >= rd->errlen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->err + n, rd->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* Cuts the spaces at both ends of s in place; returns the first character kept. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* The action a line names: a trace's decision line is cut to its action name (its seat
 * into *seat, 0 otherwise); a number into *number (0 otherwise); returns the name. */
static const char *parse_action(char *text, int *seat, long *number)
{
    *seat = 0;
    *number = 0;
    if (text[0] == '>') { /* "> seat 1 (greedy) sow: pit 6 (4 seeds)   [options: ...]" */
        char *opts = strstr(text, "   [");
        if (opts)
            *opts = '\0';
        int s = 0, used = 0;
        if (sscanf(text, "> seat %d (%*[^)]) %n", &s, &used) == 1 && used > 0) {
            char *name = strstr(text + used, ": ");
            if (name) {
                *seat = s;
                return trim(name + 2);
            }
        }
        return trim(text);
    }
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end != text && *end == '\0' && errno == 0 && v > 0)
        *number = v;
    return text;
}

/* Lists d's options into buf as "a | b | c" (the first 12, then "..."). */
static void list_options(const game_type *g, const void *st, const decision *d, char *buf,
                         size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < d->n && used + 1 < n; i++) {
        char name[128];
        if (i == 12) {
            snprintf(buf + used, n - used, " | ... (%d in all)", d->n);
            return;
        }
        g->action_name(st, d, d->action[i], name, sizeof name);
        int w = snprintf(buf + used, n - used, "%s%s", i ? " | " : "", name);
        if (w < 0)
            return;
        used += (size_t)w;
    }
}

/* The index in d of the action the line names (name, number or trace line), or -1: the
 * action of that name, else the only one whose name is it followed by a detail in brackets
 * ("pit 6" for "pit 6 (4 seeds)"). */
static int find_action(const game_type *g, const void *st, const decision *d, const char *name,
                       long number)
{
    if (number > 0)
        return number <= d->n ? (int)number - 1 : -1;
    size_t len = strlen(name);
    int detailed = -1, ndetailed = 0;
    for (int i = 0; i < d->n; i++) {
        char buf[128];
        g->action_name(st, d, d->action[i], buf, sizeof buf);
        if (strcmp(buf, name) == 0)
            return i;
        if (strncmp(buf, name, len) == 0 && strncmp(buf + len, " (", 2) == 0) {
            detailed = i;
            ndetailed++;
        }
    }
    return ndetailed == 1 ? detailed : -1;
}

/* The page turn among d's actions (game_type.page_turn), or -1. */
static int page_turn_of(const game_type *g, const void *st, const decision *d)
{
    for (int i = 0; g->page_turn && i < d->n; i++)
        if (g->page_turn(st, d, d->action[i]))
            return i;
    return -1;
}

/* Plays action k of d on st with its trace line. */
static void play(const run_config *cfg, void *st, const decision *d, int k, rng *chance,
                 FILE *out)
{
    run_trace_decision(cfg, st, d, k, out);
    cfg->game->apply(st, d->action[k], chance, out);
}

/* Plays the action the record's line names, the forced decisions and page turns before it
 * included (see replay.h). */
static int play_line(const run_config *cfg, void *st, char *text, rng *chance, FILE *out,
                     const reader *rd)
{
    const game_type *g = cfg->game;
    int seat;
    long number;
    const char *name = parse_action(text, &seat, &number);
    decision d;
    for (;;) {
        if (!g->decide(st, &d)) {
            outcome o = {.nseats = cfg->nseats};
            g->finish(st, &o, NULL);
            return fail(rd, "the game is over (%s after %d %s), the record goes on with '%s'",
                        g->end_names[o.end], o.length, g->length_unit, name);
        }
        int k = find_action(g, st, &d, name, number);
        if (k >= 0 && seat != 0 && seat != d.seat + 1)
            return fail(rd, "the line is seat %d's, seat %d is to move", seat, d.seat + 1);
        if (k >= 0) {
            play(cfg, st, &d, k, chance, out);
            return 0;
        }
        int turn = page_turn_of(g, st, &d);
        if (d.n == 1 || turn >= 0) { /* forced, or perhaps on a later page: play on */
            play(cfg, st, &d, turn >= 0 ? turn : 0, chance, out);
            continue;
        }
        char opts[1024];
        list_options(g, st, &d, opts, sizeof opts);
        if (number > 0)
            return fail(rd, "seat %d has %d options here, not %ld (options: %s)", d.seat + 1,
                        d.n, number, opts);
        return fail(rd, "'%s' is not an action of seat %d here (options: %s)", name,
                    d.seat + 1, opts);
    }
}

/* Reads "seed N" into *seed (0 .. 2^64-1). */
static int parse_seed(const char *text, uint64_t *seed, const reader *rd)
{
    const char *v = text + 4;
    while (isspace((unsigned char)*v))
        v++;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (*v == '\0' || *v == '-' || *end != '\0' || errno != 0)
        return fail(rd, "bad seed '%s' (seed N, N in 0..2^64-1, as --trace prints the chance "
                    "seed)", v);
    *seed = (uint64_t)x;
    return 0;
}

int replay_file(const game_type *g, const void *rules, int nseats, const char *path,
                FILE *out, char *err, size_t errlen)
{
    reader rd = {.path = path, .line = 0, .err = err, .errlen = errlen};
    if (g->rules_check && g->rules_check(rules, nseats, err, errlen) != 0)
        return -1;
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (in == NULL) {
        snprintf(err, errlen, "cannot open '%s': %s (a game record: one action a "
                 "line)", path, strerror(errno));
        return -1;
    }
    run_config cfg = {.game = g, .rules = rules, .nseats = nseats, .runs = 1, .threads = 1};
    for (int k = 0; k < nseats; k++)
        cfg.seat[k].bot = &replay_bot;
    void *st = xcalloc(1, g->state_size);
    /* the trace is kept until the record has played through: a bad line writes no trace */
    char *text_out = NULL;
    size_t text_len = 0;
    FILE *final = out;
    out = open_memstream(&text_out, &text_len);
    if (out == NULL) {
        fprintf(stderr, "giochi-sim: out of memory\n");
        exit(5);
    }
    rng chance;
    uint64_t seed = 0;
    bool started = false;
    int rc = 0, actions = 0;
    char buf[REPLAY_LINE + 2];
    while (rc == 0 && fgets(buf, sizeof buf, in) != NULL) {
        rd.line++;
        if (strchr(buf, '\n') == NULL && !feof(in)) {
            rc = fail(&rd, "line longer than %d characters", REPLAY_LINE);
            break;
        }
        char *text = trim(buf);
        if (*text == '\0' || *text == '#')
            continue;
        if (strncmp(text, "seed", 4) == 0 && (text[4] == '\0' || isspace((unsigned char)text[4]))) {
            if (started)
                rc = fail(&rd, "the seed comes before the first action");
            else
                rc = parse_seed(text, &seed, &rd);
            continue;
        }
        if (!started) {
            fprintf(out, "replay of %s (chance seed %" PRIu64 "): %s, %d players\n", path,
                    seed, g->title, nseats);
            rng_seed(&chance, seed);
            g->start(st, rules, nseats, &chance, out);
            started = true;
        }
        rc = play_line(&cfg, st, text, &chance, out, &rd);
        actions += rc == 0;
    }
    if (rc == 0 && ferror(in)) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        rc = -1;
    }
    if (in != stdin)
        fclose(in);
    if (rc == 0) {
        if (!started) {
            fprintf(out, "replay of %s (chance seed %" PRIu64 "): %s, %d players\n", path,
                    seed, g->title, nseats);
            rng_seed(&chance, seed);
            g->start(st, rules, nseats, &chance, out);
        }
        decision d;
        if (g->decide(st, &d)) {
            fprintf(out, "not over: the record stops after %d actions; seat %d to move\n",
                    actions, d.seat + 1);
        } else {
            outcome o = {.nseats = nseats};
            g->finish(st, &o, NULL);
            run_trace_outcome(&cfg, &o, out);
        }
    }
    fclose(out);
    if (rc == 0 && (fwrite(text_out, 1, text_len, final) != text_len || fflush(final) != 0)) {
        snprintf(err, errlen, "cannot write the trace: %s", strerror(errno));
        rc = -1;
    }
    free(text_out);
    free(st);
    return rc;
}
