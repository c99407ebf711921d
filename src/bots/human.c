/* human.c — the human seat: a person at the terminal sees the seat's view in words and picks. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bots/program.h"
#include "core/jsonw.h"

typedef struct human_ctx {
    const game_type *g;
    int seat, nseats;
    uint64_t index;
    jsonw w;
    cJSON *before; /* the view at the seat's last decision (what changed since is marked) */
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
    (void)rules;
    (void)param;
    if (!isatty(STDIN_FILENO))
        return snprintf(err, errlen, "bot 'human' needs a person at a terminal: standard input "
                                     "is not a terminal (run giochi-sim from one, without < or |)"),
               -1;
    human_ctx *c = ctx;
    c->g = g;
    c->seat = seat;
    c->nseats = nseats;
    pthread_once(&lock_once, lock_init);
    return 0;
}

/* The view's per-seat arrays (one entry per seat), shown seat by seat. The human seat reads
 * the keys of the games' view_json (src/games/GAME/GAME_json.c): what it does not know it
 * shows as it is. */
static bool per_seat(const char *key)
{
    static const char *const keys[] = {"totals",  "in_game",  "shut_this_round", "stores",
                                       "positions", "points", "waiting",         "playing",
                                       "bankrupt", "arrived", "cards",           "hand_sizes",
                                       "collected", NULL};
    for (int i = 0; keys[i]; i++)
        if (strcmp(keys[i], key) == 0)
            return true;
    return false;
}

/* Members that name a seat (numbered from 0 in the JSON, from 1 at the table; -1: none). */
static bool names_seat(const char *key)
{
    static const char *const keys[] = {"seat",  "turn",  "top_seat",    "mover", "capo",
                                       "banker", "first", "high_bidder", NULL};
    for (int i = 0; key && keys[i]; i++)
        if (strcmp(keys[i], key) == 0)
            return true;
    return false;
}

/* Members that count cards by value (PIG 10): shown as the cards themselves. */
static bool by_value(const char *key)
{
    return strcmp(key, "hand") == 0 || strcmp(key, "table") == 0 || strcmp(key, "played") == 0;
}

/* Writes a scalar or a flat array in words; key (may be NULL) is the member it is of. */
static void words(FILE *f, const cJSON *v, const char *key)
{
    if (cJSON_IsNumber(v) && names_seat(key)) {
        if (v->valueint < 0)
            fputs("none", f);
        else
            fprintf(f, "seat %d", v->valueint + 1);
    } else if (cJSON_IsArray(v) && key && by_value(key)) {
        int value = 0, shown = 0;
        for (const cJSON *e = v->child; e; e = e->next, value++)
            for (int k = 0; cJSON_IsNumber(e) && k < e->valueint; k++)
                fprintf(f, "%s%d", shown++ ? " " : "", value);
        if (shown == 0)
            fputs("none", f);
    } else if (cJSON_IsBool(v))
        fputs(cJSON_IsTrue(v) ? "yes" : "no", f);
    else if (cJSON_IsNumber(v))
        fprintf(f, "%.15g", v->valuedouble);
    else if (cJSON_IsString(v))
        fputs(v->valuestring, f);
    else if (cJSON_IsArray(v)) {
        if (cJSON_GetArraySize(v) == 0)
            fputs("none", f);
        for (const cJSON *e = v->child; e; e = e->next) {
            words(f, e, NULL);
            if (e->next)
                fputc(' ', f);
        }
    } else if (cJSON_IsObject(v)) {
        for (const cJSON *e = v->child; e; e = e->next) {
            if (!names_seat(e->string)) /* "seat 2" says it already */
                fprintf(f, "%s ", e->string);
            words(f, e, e->string);
            if (e->next)
                fputs(", ", f);
        }
    } else {
        fputs("-", f);
    }
}

/* Shows the view (JSON text) in words, one line a member, marking what changed since the
 * seat's last decision. */
static void show(FILE *f, human_ctx *c, const char *json, bool remember)
{
    cJSON *v = cJSON_Parse(json);
    for (const cJSON *m = v ? v->child : NULL; m; m = m->next) {
        if (strcmp(m->string, "seat") == 0 || strcmp(m->string, "deck") == 0)
            continue; /* said in the heading; the ruleset's (the same all game) */
        char label[64];
        snprintf(label, sizeof label, "%s", m->string);
        for (char *p = label; *p; p++)
            if (*p == '_')
                *p = ' ';
        const cJSON *old = c->before ? cJSON_GetObjectItemCaseSensitive(c->before, m->string)
                                     : NULL;
        bool changed = old && !cJSON_Compare(old, m, true);
        fprintf(f, "  %-18s ", label);
        if (cJSON_IsArray(m) && per_seat(m->string) && cJSON_GetArraySize(m) == c->nseats) {
            int k = 0;
            for (const cJSON *e = m->child; e; e = e->next, k++) {
                fprintf(f, "%sseat %d%s: ", k ? ", " : "", k + 1, k == c->seat ? " (you)" : "");
                words(f, e, NULL);
            }
        } else if (cJSON_IsArray(m) && m->child && cJSON_IsObject(m->child)) {
            int n = cJSON_GetArraySize(m), k = 0; /* a history: its last entries */
            if (n > 6)
                fprintf(f, "(%d earlier) ", n - 6);
            for (const cJSON *e = m->child; e; e = e->next, k++)
                if (k >= n - 6) {
                    fputs("| ", f);
                    words(f, e, NULL);
                    fputc(' ', f);
                }
        } else {
            words(f, m, m->string);
        }
        fputs(changed ? "   (changed)\n" : "\n", f);
    }
    if (remember) {
        cJSON_Delete(c->before);
        c->before = v;
    } else {
        cJSON_Delete(v);
    }
}

static void human_begin(void *ctx, const bot_game *game, const void *seen)
{
    human_ctx *c = ctx;
    pthread_mutex_lock(&table_lock);
    c->index = game->index;
    cJSON_Delete(c->before);
    c->before = NULL;
    jw_reset(&c->w);
    c->g->view_json(seen, c->seat, &c->w);
    jw_append(&c->w, "", 1);
    fprintf(stderr, "\n=== %s, game %llu: you play seat %d of %d ===\n", c->g->title,
            (unsigned long long)game->index, c->seat + 1, c->nseats);
    show(stderr, c, c->w.buf, true);
    if (c->g->kind_names[0] == NULL)
        fprintf(stderr, "  (in this game the dice play for everybody: nothing to choose)\n");
}

static void human_end(void *ctx, const bot_game *game, const outcome *o)
{
    human_ctx *c = ctx;
    fprintf(stderr, "=== game %llu over (%s after %d %s):", (unsigned long long)game->index,
            c->g->end_names[o->end], o->length, c->g->length_unit);
    if (o->winners == 0)
        fputs(" nobody won", stderr);
    else if (o->winners >> c->seat & 1)
        fputs(__builtin_popcount(o->winners) > 1 ? " you share the win" : " you won", stderr);
    else
        for (int k = 0; k < o->nseats; k++)
            if (o->winners >> k & 1)
                fprintf(stderr, " seat %d won", k + 1);
    fprintf(stderr, "; %s:", c->g->score_name);
    for (int k = 0; k < o->nseats; k++)
        fprintf(stderr, " %lld%s", (long long)o->score[k], k == c->seat ? " (you)" : "");
    fputs(" ===\n", stderr);
    cJSON_Delete(c->before);
    c->before = NULL;
    pthread_mutex_unlock(&table_lock);
}

static int human_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)r;
    human_ctx *c = ctx;
    const game_type *g = c->g;
    jw_reset(&c->w);
    g->view_json(seen, c->seat, &c->w);
    jw_append(&c->w, "", 1);
    fprintf(stderr, "\n--- game %llu, seat %d (you): %s ---\n", (unsigned long long)c->index,
            c->seat + 1, g->kind_names[d->kind]);
    show(stderr, c, c->w.buf, true);
    for (int i = 0; i < d->n; i++) {
        char name[128];
        if (g->view_action_name)
            g->view_action_name(seen, d, d->action[i], name, sizeof name);
        else
            g->action_name(seen, d, d->action[i], name, sizeof name);
        fprintf(stderr, "  %3d) %s\n", i + 1, name);
    }
    for (;;) {
        fprintf(stderr, "your choice (1-%d, q to quit): ", d->n);
        fflush(stderr);
        char line[128];
        if (fgets(line, sizeof line, stdin) == NULL || line[0] == 'q' || line[0] == 'Q') {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "\ngiochi-sim: the human seat %d quit at game %llu (no report written)\n",
                     c->seat + 1, (unsigned long long)c->index);
            program_exit(msg, HUMAN_QUIT_EXIT);
        }
        char *end;
        long k = strtol(line, &end, 10);
        while (*end == ' ' || *end == '\n' || *end == '\r' || *end == '\t')
            end++;
        if (end != line && *end == '\0' && k >= 1 && k <= d->n)
            return (int)k - 1;
        fprintf(stderr, "  please type a number from 1 to %d, or q\n", d->n);
    }
}

static void human_teardown(void *ctx)
{
    human_ctx *c = ctx;
    cJSON_Delete(c->before);
    jw_free(&c->w);
}

const bot_type bot_human = {
    .name = "human",
    .doc = "you, at the terminal: the seat's view in words, the legal actions numbered",
    .params = NULL,
    .ctx_size = sizeof(human_ctx),
    .setup = human_setup,
    .choose = human_choose,
    .teardown = human_teardown,
    .game_begin = human_begin,
    .game_end = human_end,
    .no_draws = true,
};
