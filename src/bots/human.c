/* human.c — the human seat: a person at the terminal sees the board the game draws, is told
 * the other seats' choices as they are made, and picks by a choice's number or name. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bots/program.h"
#include "core/jsonw.h"
#include "core/xalloc.h"

typedef struct human_ctx {
    const game_type *g;
    const void *rules;
    int seat, nseats;
    bot_game game;
    jsonw w;
    size_t seen_size;    /* bytes of what the seat is handed (its view, or the state) */
    unsigned char *last; /* a copy of it at the seat's last decision (for view_draw) */
    bool have_last;
    cJSON *before; /* without view_draw: the view_json at the last decision */
} human_ctx;

/* Games of several worker threads are shown one whole game at a time: the lock is taken at a
 * game's start and given back at its end (recursive: two human seats of one table). */
static pthread_mutex_t table_lock;
static pthread_once_t lock_once = PTHREAD_ONCE_INIT;

static void lock_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&table_lock, &a);
    pthread_mutexattr_destroy(&a);
}

static int human_setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                       const double *param, char *err, size_t errlen)
{
    (void)param;
    if (!isatty(STDIN_FILENO))
        return snprintf(err, errlen, "bot 'human' needs a person at a terminal: standard input "
                                     "is not a terminal (run giochi-sim from one, without < or |)"),
               -1;
    human_ctx *c = ctx;
    c->g = g;
    c->rules = rules;
    c->seat = seat;
    c->nseats = nseats;
    c->seen_size = g->view_size ? g->view_size : g->state_size;
    c->last = xmalloc(c->seen_size);
    pthread_once(&lock_once, lock_init);
    return 0;
}

/* ---- a game without view_draw: view_json's members in words ---------------------------- */

/* Writes a scalar or a flat array in words. */
static void words(FILE *f, const cJSON *v)
{
    if (cJSON_IsBool(v))
        fputs(cJSON_IsTrue(v) ? "yes" : "no", f);
    else if (cJSON_IsNumber(v))
        fprintf(f, "%.15g", v->valuedouble);
    else if (cJSON_IsString(v))
        fputs(v->valuestring, f);
    else if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
        if (v->child == NULL)
            fputs("none", f);
        for (const cJSON *e = v->child; e; e = e->next) {
            if (e->string)
                fprintf(f, "%s ", e->string);
            words(f, e);
            if (e->next)
                fputs(cJSON_IsObject(v) ? ", " : " ", f);
        }
    } else {
        fputs("-", f);
    }
}

/* Lists the view's members, one a line, marking what changed since the last decision. */
static void list_view(FILE *f, human_ctx *c, const void *seen)
{
    jw_reset(&c->w);
    c->g->view_json(seen, c->seat, &c->w);
    jw_append(&c->w, "", 1);
    cJSON *v = cJSON_Parse(c->w.buf);
    for (const cJSON *m = v ? v->child : NULL; m; m = m->next) {
        if (strcmp(m->string, "seat") == 0)
            continue; /* said in the heading */
        char label[64];
        snprintf(label, sizeof label, "%s", m->string);
        for (char *p = label; *p; p++)
            if (*p == '_')
                *p = ' ';
        const cJSON *old = c->before ? cJSON_GetObjectItemCaseSensitive(c->before, m->string)
                                     : NULL;
        fprintf(f, "  %-18s ", label);
        words(f, m);
        fputs(old && !cJSON_Compare(old, m, true) ? "   (changed)\n" : "\n", f);
    }
    cJSON_Delete(c->before);
    c->before = v;
}

/* Shows what the seat sees now: the game's drawing (marking what changed since the seat's
 * last look), or its view's members; then remembers it. */
static void show(human_ctx *c, const void *seen)
{
    if (c->g->view_draw) {
        c->g->view_draw(c->have_last ? c->last : NULL, seen, c->seat, stderr);
        memcpy(c->last, seen, c->seen_size);
        c->have_last = true;
    } else {
        list_view(stderr, c, seen);
    }
}

/* ---- reading the person's answer ------------------------------------------------------- */

/* Reads one line of the terminal into line (without its end), after the prompt; quits the
 * run (exit HUMAN_QUIT_EXIT, no report) at q or at the end of input. */
static void ask(const human_ctx *c, const char *prompt, char *line, size_t n)
{
    fprintf(stderr, "%s", prompt);
    fflush(stderr);
    if (fgets(line, (int)n, stdin) == NULL)
        line[0] = 'q', line[1] = '\0';
    size_t len = strlen(line);
    while (len && isspace((unsigned char)line[len - 1]))
        line[--len] = '\0';
    char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    memmove(line, p, strlen(p) + 1);
    if ((line[0] == 'q' || line[0] == 'Q') && line[1] == '\0') {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "\ngiochi-sim: the human seat %d quit in game %llu (no report written)\n",
                 c->seat + 1, (unsigned long long)c->game.index + 1);
        program_exit(msg, HUMAN_QUIT_EXIT);
    }
}

/* true if the typed text t names `name`: the whole of it, or words of it ("pit 4" and "4 seeds"
 * name "pit 4 (4 seeds)", "d4" names "fox D5-D4", neither "pit 41"), letters of either case. */
static bool names(const char *t, const char *name)
{
    size_t n = strlen(t);
    if (n == 0)
        return false;
    for (const char *at = name; *at; at++) {
        if (at > name && isalnum((unsigned char)at[-1]) && isalnum((unsigned char)t[0]))
            continue; /* inside a word */
        if (strncasecmp(t, at, n) != 0)
            continue;
        if (at[n] == '\0' || !isalnum((unsigned char)at[n]) || !isalnum((unsigned char)t[n - 1]))
            return true;
    }
    return false;
}

/* The name of action a of d, as the seat's bot would be told it. */
static void action_text(const human_ctx *c, const void *seen, const decision *d, int32_t a,
                        char *buf, size_t n)
{
    if (c->g->view_action_name)
        c->g->view_action_name(seen, d, a, buf, n);
    else
        c->g->action_name(seen, d, a, buf, n);
}

/* Appends the numbers of the choices (key[0..n-1]) to buf as "1, 4, 5 or 6". */
static void list_keys(char *buf, size_t len, const int *key, int n)
{
    size_t at = strlen(buf);
    for (int i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%d", i == 0 ? "" : i == n - 1 ? " or " : ", ",
                               key[i]);
}

static int human_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)r;
    human_ctx *c = ctx;
    const game_type *g = c->g;
    static char name[GAME_MAX_ACTIONS][128]; /* under the table lock */
    int key[GAME_MAX_ACTIONS];
    bool own = g->action_number && g->action_number(seen, d, d->action[0]) > 0;
    fprintf(stderr, "\n--- your turn (seat %d) ---\n", c->seat + 1);
    show(c, seen);
    for (int i = 0; i < d->n; i++) {
        action_text(c, seen, d, d->action[i], name[i], sizeof name[i]);
        key[i] = own ? g->action_number(seen, d, d->action[i]) : i + 1;
        fprintf(stderr, "  %3d) %s\n", key[i], name[i]);
    }
    for (;;) {
        char line[128], why[400];
        ask(c, "your choice (its number or name, q to quit): ", line, sizeof line);
        char *end;
        long k = strtol(line, &end, 10);
        if (line[0] != '\0' && *end == '\0') { /* a number */
            for (int i = 0; i < d->n; i++)
                if (key[i] == k)
                    return i;
            snprintf(why, sizeof why, "%ld is not a choice now: type ", k);
            list_keys(why, sizeof why, key, d->n);
        } else if (line[0] == '\0') {
            snprintf(why, sizeof why, "type a choice's number (");
            list_keys(why, sizeof why, key, d->n);
            strncat(why, ") or its name, or q", sizeof why - strlen(why) - 1);
        } else {
            int found = -1, fits = 0;
            for (int i = 0; i < d->n; i++)
                if (strcasecmp(line, name[i]) == 0) { /* a whole name wins outright */
                    found = i;
                    fits = 1;
                    break;
                } else if (names(line, name[i])) {
                    found = fits++ == 0 ? i : found;
                }
            if (fits == 1)
                return found;
            if (fits > 1)
                snprintf(why, sizeof why, "'%s' fits %d choices: type the number of one", line,
                         fits);
            else
                snprintf(why, sizeof why, "'%s' is not a choice now: type one of the numbers "
                                          "or names above",
                         line);
        }
        fprintf(stderr, "  %s\n", why);
    }
}

/* Another seat chose: says so before the person's next decision. */
static void human_observe(void *ctx, const void *seen, int seat, int kind, int32_t action)
{
    human_ctx *c = ctx;
    decision d = {.seat = seat, .kind = kind, .n = 1, .action = {action}};
    char name[128];
    action_text(c, seen, &d, action, name, sizeof name);
    fprintf(stderr, "  seat %d chose: %s\n", seat + 1, name);
}

/* ---- a game nobody decides: its play-by-play, a turn at a time ------------------------- */

/* Plays the game again from the run's own chance stream into a play-by-play (the same game:
 * nobody decides, so the dice alone make it) and shows it, stopping before each of the
 * seat's turns until the person presses Enter ("a": the rest at once). */
static void replay(human_ctx *c)
{
    const game_type *g = c->g;
    void *st = xmalloc(g->state_size);
    rng chance;
    rng_seed_stream(&chance, c->game.seed, c->game.index, RNG_STREAM_CHANCE);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m == NULL) {
        free(st);
        return;
    }
    g->start(st, c->rules, c->nseats, &chance, m);
    fclose(m);
    free(st);
    char mine[48], starts[48];
    snprintf(mine, sizeof mine, "to seat %d ", c->seat + 1);
    snprintf(starts, sizeof starts, "seat %d ", c->seat + 1);
    bool rest = false, first = true;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (!rest && first && strncmp(line, starts, strlen(starts)) == 0) {
            char answer[16]; /* the seat opens the race */
            ask(c, "your turn: press Enter to roll (a: the rest at once, q to quit): ", answer,
                sizeof answer);
            rest = answer[0] == 'a' || answer[0] == 'A';
        }
        first = false;
        fprintf(stderr, "  %s\n", line);
        if (!rest && strstr(line, mine)) {
            char answer[16];
            ask(c, "your turn: press Enter to roll (a: the rest at once, q to quit): ", answer,
                sizeof answer);
            rest = answer[0] == 'a' || answer[0] == 'A';
        }
    }
    free(text);
}

/* ---- the game's start and end ---------------------------------------------------------- */

static void human_begin(void *ctx, const bot_game *game, const void *seen)
{
    human_ctx *c = ctx;
    pthread_mutex_lock(&table_lock);
    c->game = *game;
    c->have_last = false;
    cJSON_Delete(c->before);
    c->before = NULL;
    fprintf(stderr, "\n=== %s, game %llu: you play seat %d of %d ===\n", c->g->title,
            (unsigned long long)game->index + 1, c->seat + 1, c->nseats);
    if (c->g->kind_names[0] == NULL) { /* the dice play for everybody */
        fputs("Nobody decides anything in this game: the dice play for everybody. Press Enter "
              "at each of your turns to roll.\n",
              stderr);
        replay(c);
        show(c, seen);
    }
}

static void human_end(void *ctx, const bot_game *game, const outcome *o)
{
    human_ctx *c = ctx;
    const game_type *g = c->g;
    int won = __builtin_popcount(o->winners);
    fprintf(stderr, "\n=== game %llu over: ", (unsigned long long)game->index + 1);
    if (won == 0)
        fputs("nobody won", stderr);
    else if (o->winners >> c->seat & 1)
        fputs(won > 1 ? "you share the win" : "you won", stderr);
    else
        for (int k = 0, said = 0; k < o->nseats; k++)
            if (o->winners >> k & 1)
                fprintf(stderr, "%sseat %d", said++ ? " and " : "", k + 1);
    if (won > 0 && !(o->winners >> c->seat & 1))
        fputs(won > 1 ? " share the win" : " won", stderr);
    fputs(" ===\n", stderr);
    if (g->end_words)
        fprintf(stderr, "The game ended: %s, after %d %s.\n", g->end_words[o->end], o->length,
                g->length_unit);
    else
        fprintf(stderr, "The game ended after %d %s.\n", o->length, g->length_unit);
    fprintf(stderr, "Final %s:", g->score_name);
    for (int k = 0; k < o->nseats; k++) {
        fprintf(stderr, "%s ", k ? "," : "");
        if (k == c->seat)
            fputs("you", stderr);
        else
            fprintf(stderr, "seat %d", k + 1);
        fprintf(stderr, " %lld", (long long)o->score[k]);
    }
    fprintf(stderr, "%s.\n", g->low_score_wins ? " (the lowest wins)" : "");
    cJSON_Delete(c->before);
    c->before = NULL;
    pthread_mutex_unlock(&table_lock);
}

static void human_teardown(void *ctx)
{
    human_ctx *c = ctx;
    cJSON_Delete(c->before);
    jw_free(&c->w);
    free(c->last);
}

const bot_type bot_human = {
    .name = "human",
    .doc = "you, at the terminal: the board drawn, the others' choices told, yours by number or "
           "name",
    .params = NULL,
    .ctx_size = sizeof(human_ctx),
    .setup = human_setup,
    .choose = human_choose,
    .teardown = human_teardown,
    .game_begin = human_begin,
    .game_end = human_end,
    .observe = human_observe,
    .no_draws = true,
};
