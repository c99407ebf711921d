/* runner.c — plays seeded games on worker threads; exact integer reduction of their results. */
#include "core/runner.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/numfmt.h"
#include "core/clock.h"
#include "core/pool.h"
#include "core/registry.h"
#include "core/xalloc.h"
#include "core/hot.h"
#include "config/population.h"

/* Games a worker claims at once: at most CHUNK, and few enough that every thread gets about
 * CHUNKS_PER_THREAD claims, so that a short run of slow games is shared by all threads. With a
 * games CSV, a worker does not run more than CSV_WINDOW chunks per thread ahead of the first
 * chunk not yet written, so that the rows waiting in memory stay few. */
enum { CHUNK = 1024, CHUNKS_PER_THREAD = 8, CSV_WINDOW = 4 };
/* Chunks of at least DEFER_CHUNK games let a worker defer its figures (see result_defer). */
enum { DEFER_CHUNK = 64 };

int run_bots_setup(const run_config *cfg, void **ctx, char *err, size_t errlen)
{
    for (int k = 0; k < cfg->nseats; k++) {
        const bot_type *b = cfg->seat[k].bot;
        ctx[k] = xcalloc_lines(1, b->ctx_size); /* see result_init */
        for (int j = k - 1; b->peer && j >= 0; j--) /* bot_type.peer */
            if (cfg->seat[j].bot->peer == b->peer) {
                b->peer(ctx[k], ctx[j]);
                break;
            }
        if (b->bind)
            b->bind(ctx[k], &cfg->seat[k]);
        if (b->setup && b->setup(ctx[k], cfg->game, cfg->rules, k, cfg->nseats,
                                 cfg->seat[k].param, err, errlen) != 0) {
            for (int j = 0; j <= k; j++) {
                if (j < k && cfg->seat[j].bot->teardown)
                    cfg->seat[j].bot->teardown(ctx[j]);
                free(ctx[j]);
                ctx[j] = NULL;
            }
            return -1;
        }
    }
    return 0;
}

void run_bots_free(const run_config *cfg, void **ctx)
{
    for (int k = 0; k < cfg->nseats; k++) {
        if (ctx[k] == NULL)
            continue;
        if (cfg->seat[k].bot->teardown)
            cfg->seat[k].bot->teardown(ctx[k]);
        free(ctx[k]);
        ctx[k] = NULL;
    }
}

/* Traces one decision: who chooses, the options when few, and the choice. */
void run_trace_decision(const run_config *cfg, const void *st, const decision *d, int k,
                        trace *tr)
{
    const game_type *g = cfg->game;
    char name[128];
    g->action_name(st, d, d->action[k], name, sizeof name);
    fprintf(tr, "  > seat %d (%s) %s: %s", d->seat + 1, cfg->seat[d->seat].bot->name,
            g->kind_names[d->kind], name);
    if (d->n > 1 && d->n <= 12) {
        fputs("   [options:", tr);
        for (int i = 0; i < d->n; i++) {
            g->action_name(st, d, d->action[i], name, sizeof name);
            fprintf(tr, "%s %s", i ? " |" : "", name);
        }
        fputc(']', tr);
    } else if (d->n > 12) {
        fprintf(tr, "   [%d options]", d->n);
    }
    fputc('\n', tr);
}

/* --check on a finished game: the outcome names an end the game has, and winners and ranks
 * within the seats. */
static int outcome_check(const run_config *cfg, const outcome *o, char *err, size_t errlen)
{
    const game_type *g = cfg->game;
    int nends = 0;
    while (g->end_names[nends])
        nends++;
    if (o->end < 0 || o->end >= nends)
        return snprintf(err, errlen, "outcome: end %d of %d kinds", o->end, nends), -1;
    if (o->nseats < 32 && (o->winners >> o->nseats) != 0)
        return snprintf(err, errlen, "outcome: winners 0x%x beyond %d seats", o->winners,
                        o->nseats),
               -1;
    if (o->length < 0)
        return snprintf(err, errlen, "outcome: length %d", o->length), -1;
    for (int k = 0; k < o->nseats; k++)
        if (o->rank[k] < 0 || o->rank[k] > o->nseats)
            return snprintf(err, errlen, "outcome: seat %d ranked %d of %d", k + 1, o->rank[k],
                            o->nseats),
                   -1;
    return 0;
}

/* The script of the stream handed to a bot that draws nothing (bot_type.no_draws). */
static const int no_script[1];

typedef int choose_fn(void *ctx, const void *seen, const decision *d, rng *r);

/* The seats' bots during one game: each seat's choose, stream and row of choices, one load
 * each per decision instead of a walk through cfg and the bot's descriptor. The seats'
 * streams are seeded when the game's first decision is asked of a bot (a game may ask none):
 * until then every seat's choose is first_choice, which seeds them all (their seeds share a
 * part, rng_seat_key), puts the bots' own choose in place and asks the bot. */
typedef struct table {
    const run_config *cfg;
    uint64_t index;
    unsigned counted; /* kinds counted into the rows (0: none) */
    choose_fn *chooser[GAME_MAX_SEATS];
    int64_t *row[GAME_MAX_SEATS]; /* the seat's row of run_result.choices, or NULL */
    rng botrng[GAME_MAX_SEATS];
} table;

/* Every seat's choose until a bot first chooses in the game (see table). Its stream r, an
 * entry of the table's botrng, leads back to the table. */
static int first_choice(void *ctx, const void *seen, const decision *d, rng *r)
{
    int s = d->seat;
    table *t = (table *)(void *)((char *)(r - s) - offsetof(table, botrng));
    const run_config *cfg = t->cfg;
    rng_seat_key key;
    bool keyed = false; /* key is made (at the first seat whose bot draws) */
    for (int k = 0; k < cfg->nseats; k++) {
        const bot_type *b = cfg->seat[k].bot;
        if (b->no_draws) { /* an empty script: a draw aborts (rng_scripted) */
            t->botrng[k] = (rng){.script = no_script};
        } else {
            if (!keyed)
                rng_seat_key_init(&key, cfg->seed, t->index);
            keyed = true;
            rng_seed_seat(&t->botrng[k], &key, RNG_STREAM_SEAT(k));
        }
        t->chooser[k] = b->choose;
    }
    return t->chooser[s](ctx, seen, d, r);
}

/* Prepares t for game `index` of cfg, counting into choices (may be NULL) by nkinds kinds. */
static void table_init(table *t, const run_config *cfg, uint64_t index, int64_t *choices,
                       int nkinds)
{
    t->cfg = cfg;
    t->index = index;
    t->counted = choices ? (unsigned)nkinds : 0;
    for (int s = 0; s < cfg->nseats; s++) {
        t->chooser[s] = first_choice;
        t->row[s] = choices ? choices + 2 * (size_t)s * (size_t)nkinds : NULL;
    }
}

static GIOCHI_COLD __attribute__((noreturn)) void bad_choice(const table *t, int s, int k, int n)
{
    fprintf(stderr, "giochi-sim: internal error: bot %s chose %d of %d (game %llu)\n",
            t->cfg->seat[s].bot->name, k, n, (unsigned long long)t->index);
    abort();
}

/* The index of the action d->seat's bot chooses among d's (d->n > 1), seeing `seen`; counts
 * the choice into its row. Inline: both loops of play_game make it at every decision. */
static GIOCHI_INLINE int ask(table *t, void *const *ctx, const void *seen, const decision *d)
{
    int s = d->seat;
    bool counted = (unsigned)d->kind < t->counted;
    if (counted) /* the decision before the choice: two counts apart, two plain additions */
        t->row[s][2 * (size_t)d->kind]++;
    int k = t->chooser[s](ctx[s], seen, d, &t->botrng[s]);
    if (GIOCHI_UNLIKELY((unsigned)k >= (unsigned)d->n))
        bad_choice(t, s, k, d->n);
    if (counted)
        t->row[s][2 * (size_t)d->kind + 1] += k != 0;
    return k;
}

/* Tells every other seat whose bot observes that d's seat chose action k of d, each with
 * what it sees (its view, made in view, or the state st). */
static GIOCHI_COLD void tell(const run_config *cfg, void *const *ctx, const void *st, void *view,
                             const decision *d, int k)
{
    const game_type *g = cfg->game;
    for (int s = 0; s < cfg->nseats; s++) {
        const bot_type *b = cfg->seat[s].bot;
        if (s == d->seat || b->observe == NULL)
            continue;
        if (g->view)
            g->view(st, s, view);
        b->observe(ctx[s], g->view ? view : st, d->seat, d->kind, d->action[k]);
    }
}

/* run_game_checked, also counting each real choice (two actions or more) into choices (may
 * be NULL; see run_result.choices). */
static int play_game(const run_config *cfg, void *const *ctx, uint64_t index, void *st,
                     void *view, outcome *o, recorder *rec, trace *tr, int64_t *choices,
                     int nkinds, char *err, size_t errlen)
{
    const game_type *g = cfg->game;
    rng chance;
    rng_seed_stream(&chance, cfg->seed, index, RNG_STREAM_CHANCE);
    bool check = cfg->check && err != NULL;
    char what[256];
    long step = 0;

    g->start(st, cfg->rules, cfg->nseats, &chance, tr);
    if (check && g->check && g->check(st, what, sizeof what) != 0)
        goto broken;
    bool told = false;     /* some seat's bot has game_end (a bot outside the process) */
    bool observed = false; /* some seat's bot is told every choice (observe) */
    for (int k = 0; k < cfg->nseats; k++) { /* the start-of-game hooks, after the deal */
        const bot_type *b = cfg->seat[k].bot;
        observed |= b->observe != NULL;
        if (b->begin == NULL && b->game_begin == NULL)
            continue;
        if (g->view)
            g->view(st, k, view);
        if (b->begin)
            b->begin(ctx[k], g->view ? view : st);
        if (b->game_begin)
            b->game_begin(ctx[k], &(bot_game){cfg->seed, index}, g->view ? view : st);
        told |= b->game_end != NULL;
    }
    table t;
    table_init(&t, cfg, index, choices, nkinds);
    /* The hooks, read once: the calls below may write any memory, so the compiler would load
     * them again from the descriptor at every decision. */
    void (*see)(const void *, int, void *) = g->view;
    /* tracing, checking or observed: the steps are followed */
    bool watched = tr != NULL || check || observed;
    /* the decision read in place (game_type.pending), or copied into d */
    const decision *(*pending)(const void *) = see ? NULL : g->pending;
    const decision *(*answer)(void *, int32_t, rng *, trace *) = g->apply_pending;
    if (pending && answer && !watched) {
        /* The batch's usual loop: perfect information, nothing followed, one call into the
         * game and one into a bot per decision (a forced move asks no bot). */
        for (const decision *dp = pending(st); dp != NULL;)
            dp = answer(st, dp->action[dp->n > 1 ? ask(&t, ctx, st, dp) : 0], &chance, NULL);
    } else {
        bool (*decide)(const void *, decision *) = g->decide;
        void (*apply)(void *, int32_t, rng *, trace *) = g->apply;
        int (*invariants)(const void *, char *, size_t) = check ? g->check : NULL;
        const void *seen = see ? view : st;
        decision d;
        for (;;) {
            const decision *dp = &d;
            if (pending) {
                if ((dp = pending(st)) == NULL)
                    break;
            } else if (!decide(st, &d)) {
                break;
            }
            int k = 0;
            if (dp->n > 1) { /* a forced move asks no bot, so its seat's view is not made */
                if (see)
                    see(st, dp->seat, view);
                k = ask(&t, ctx, seen, dp);
            }
            if (GIOCHI_LIKELY(!watched)) { /* one test for the usual case */
                apply(st, dp->action[k], &chance, NULL);
                continue;
            }
            if (observed)
                tell(cfg, ctx, st, view, dp, k);
            if (tr != NULL)
                run_trace_decision(cfg, st, dp, k, tr);
            apply(st, dp->action[k], &chance, tr);
            step++; /* for the message of a broken check only */
            if (invariants && invariants(st, what, sizeof what) != 0)
                goto broken;
        }
    }
    memset(o, 0, sizeof *o);
    o->nseats = cfg->nseats;
    if (rec && rec->per_game)
        rec_game_begin(rec);
    if (rec && GIOCHI_UNLIKELY(rec->ntypes > 0)) /* the types that sat at the seats */
        for (int k = 0; k < cfg->nseats; k++)
            rec->seat_type[k] = (int8_t)(rec->type_base[k] +
                                         (rec->type_pop[k] && cfg->seat[k].bot->member
                                              ? cfg->seat[k].bot->member(ctx[k])
                                              : 0));
    g->finish(st, o, rec);
    if (check && outcome_check(cfg, o, what, sizeof what) != 0)
        goto broken;
    for (int k = 0; told && k < cfg->nseats; k++)
        if (cfg->seat[k].bot->game_end)
            cfg->seat[k].bot->game_end(ctx[k], &(bot_game){cfg->seed, index}, o);
    return 0;
broken:
    snprintf(err, errlen, "game %llu (chance seed %llu), step %ld: %s",
             (unsigned long long)index,
             (unsigned long long)rng_derive(cfg->seed, index, RNG_STREAM_CHANCE), step, what);
    return -1;
}

int run_game_checked(const run_config *cfg, void *const *ctx, uint64_t index, void *st,
                     void *view, outcome *o, recorder *rec, trace *tr, char *err, size_t errlen)
{
    return play_game(cfg, ctx, index, st, view, o, rec, tr, NULL, 0, err, errlen);
}

void run_game(const run_config *cfg, void *const *ctx, uint64_t index, void *st, void *view,
              outcome *o, recorder *rec, trace *tr)
{
    play_game(cfg, ctx, index, st, view, o, rec, tr, NULL, 0, NULL, 0);
}

void run_game_counted(const run_config *cfg, void *const *ctx, uint64_t index, void *st,
                      void *view, outcome *o, recorder *rec, run_result *res)
{
    play_game(cfg, ctx, index, st, view, o, rec, NULL, res->choices, res->nkinds, NULL, 0);
}

/* ---- batch ------------------------------------------------------------------------------ */

/* A finished chunk's rows of the games CSV, waiting for the chunks before it. */
typedef struct chunk_rows {
    uint64_t index;
    char *text;
    size_t len;
    struct chunk_rows *next;
} chunk_rows;

typedef struct shared {
    const run_config *cfg;
    pool pool;            /* hands out the chunks; stopped when the run stops */
    _Atomic uint64_t done_games;
    /* games CSV: finished chunks' rows, written in chunk order */
    pthread_mutex_t lock;
    pthread_cond_t wake;  /* a worker ended (for the waiting main thread) */
    pthread_cond_t moved; /* rows were written, or the run stops (for workers ahead) */
    chunk_rows *waiting;  /* sorted by index, all above `flushed` */
    uint64_t flushed;     /* chunks written so far */
    uint64_t window;      /* chunks a worker may run ahead of `flushed` */
    int write_failed;     /* errno of the first failed write, or EIO */
    int workers_left;     /* the pool is stopped when a bot fails to set up, or --check
                             finds a broken invariant */
    bool aborted;         /* stopped by a failure: chunks taken are abandoned (under lock) */
    bool setup_failed;
    char err[512];
    bool check_failed;
    uint64_t check_index; /* the lowest game found broken */
    char check_err[512];
    run_result *total;    /* the batch's result: workers' spilled cells (under lock), then parts */
} shared;

typedef struct worker {
    _Alignas(XALLOC_LINE) shared *sh; /* workers side by side share no cache line */
    run_result part;
    acc_spill spill; /* part's histogram cells outside its window (see acc_spill) */
} worker;

/* A copy of s that lives until freed. */
static char *copy_name(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

/* Whether some seat of cfg draws from a population. */
static bool has_population(const run_config *cfg)
{
    for (int k = 0; k < cfg->nseats; k++)
        if (cfg->seat[k].pop)
            return true;
    return false;
}

/* The types of player of cfg's seats (see run_result.ntypes): seat k is of type base[k]
 * (plus the member its bot tells, when pop[k]). Returns how many types; with name, also
 * writes each type's name there, each a copy of its own (0 and nothing written when no seat
 * draws from a population). */
static int type_table(const run_config *cfg, char **name, int8_t *base, bool *pop)
{
    const population *pops[GAME_MAX_SEATS];
    int npops = 0;
    for (int k = 0; k < cfg->nseats; k++) {
        const population *p = cfg->seat[k].pop;
        bool seen = false;
        for (int j = 0; j < npops; j++)
            seen = seen || pops[j] == p;
        if (p && !seen)
            pops[npops++] = p;
    }
    memset(base, 0, GAME_MAX_SEATS * sizeof *base);
    memset(pop, 0, GAME_MAX_SEATS * sizeof *pop);
    if (npops == 0)
        return 0;
    int n = 0, first[GAME_MAX_SEATS];
    char buf[2 * POP_NAME_MAX + 2];
    for (int j = 0; j < npops; j++) {
        first[j] = n;
        for (int m = 0; m < pops[j]->nmembers && n < RUN_MAX_TYPES; m++, n++)
            if (name) {
                snprintf(buf, sizeof buf, "%s%s%s", npops > 1 ? pops[j]->name : "",
                         npops > 1 ? "/" : "", pops[j]->member[m].type);
                name[n] = copy_name(buf);
            }
    }
    for (int k = 0; k < cfg->nseats; k++) {
        const seat_spec *sp = &cfg->seat[k];
        if (sp->pop) {
            for (int j = 0; j < npops; j++)
                if (pops[j] == sp->pop)
                    base[k] = (int8_t)first[j];
            pop[k] = true;
            continue;
        }
        int same = -1;
        bool named_alike = false;
        for (int j = 0; j < k; j++)
            if (cfg->seat[j].pop == NULL && cfg->seat[j].bot == sp->bot) {
                if (memcmp(cfg->seat[j].param, sp->param, sizeof sp->param) == 0) {
                    same = j;
                    break;
                }
                named_alike = true;
            }
        if (same >= 0) {
            base[k] = base[same];
            continue;
        }
        if (n == RUN_MAX_TYPES) { /* more kinds than a run tells apart: the last takes them */
            base[k] = (int8_t)(n - 1);
            continue;
        }
        if (name) {
            if (named_alike)
                snprintf(buf, sizeof buf, "%s (seat %d)", sp->bot->name, k + 1);
            else
                snprintf(buf, sizeof buf, "%s", sp->bot->name);
            name[n] = copy_name(buf);
        }
        base[k] = (int8_t)n++;
    }
    return n;
}

/* The types of player of cfg's seats, named, into res and its recorder. */
static void result_types(run_result *res, const run_config *cfg)
{
    char *name[RUN_MAX_TYPES];
    int8_t base[GAME_MAX_SEATS];
    bool pop[GAME_MAX_SEATS];
    int n = type_table(cfg, name, base, pop);
    if (n == 0)
        return;
    res->ntypes = n;
    res->type_name = xcalloc((size_t)n, sizeof *res->type_name);
    memcpy(res->type_name, name, (size_t)n * sizeof *name);
    rec_set_types(res->rec, n, (const char *const *)res->type_name, base, pop);
}

void run_map_types(recorder *rec, const run_config *cfg)
{
    bool pop[GAME_MAX_SEATS];
    rec->ntypes = type_table(cfg, NULL, rec->type_base, pop);
    memcpy(rec->type_pop, pop, sizeof rec->type_pop);
    memcpy(rec->seat_type, rec->type_base, sizeof rec->seat_type);
}

static void result_init(run_result *res, const run_config *cfg, bool per_game)
{
    memset(res, 0, sizeof *res);
    res->rec = rec_new(cfg->game, cfg->nseats, per_game);
    result_types(res, cfg);
    while (cfg->game->end_names[res->nends])
        res->nends++;
    /* Whole cache lines for what a worker writes at every game or decision (its result, its
     * recorder, its bots, its state): the main thread allocates every worker's result, side
     * by side, and two threads writing one line would pass it back and forth at every game. */
    res->end_count = xcalloc_lines((size_t)res->nends, sizeof *res->end_count);
    while (cfg->game->kind_names && cfg->game->kind_names[res->nkinds])
        res->nkinds++;
    res->choices = xcalloc_lines((size_t)(2 * cfg->nseats * res->nkinds), sizeof *res->choices);
}

/* Winners masks a batch worker counts games by (see run_result.by_winners): every mask of
 * GAME_MAX_SEATS seats. */
enum { RUN_WINNER_SETS = 1 << GAME_MAX_SEATS };

/* Adds `games` games won by the seats of `winners` to res's wins. */
static void wins(run_result *res, int nseats, uint32_t winners, int64_t games)
{
    int nwin = __builtin_popcount(winners);
    if (nwin == 0)
        res->no_winner += games;
    else if (nwin > 1)
        res->tied_games += games;
    /* Which seat won is the least foreseeable thing in a game: the wins are added without a
     * branch on it (and without a division when one seat wins). */
    int64_t unit = nwin == 1 ? RUN_WIN_UNIT : nwin > 1 ? RUN_WIN_UNIT / nwin : 0;
    int64_t alone = nwin == 1, tie = nwin > 1;
    for (int k = 0; k < nseats; k++) {
        int64_t won = winners >> k & 1;
        res->win_units[k] += won * unit * games;
        res->wins_shared[k] += (won & tie) * games;
        res->wins_alone[k] += (won & alone) * games;
    }
}

/* The built-in figures of the game's types (rec->seat_type, set by play_game). */
static GIOCHI_NOINLINE void tally_types(recorder *rec, int nseats, const outcome *o)
{
    int nwin = __builtin_popcount(o->winners);
    int64_t unit = nwin ? RUN_WIN_UNIT / nwin : 0;
    for (int k = 0; k < nseats; k++) {
        int t = rec->seat_type[k];
        acc *base = rec->ta + (size_t)rec->nmetrics * (size_t)rec->ntypes;
        acc_add(&base[REC_TYPE_SCORE * rec->ntypes + t], o->score[k], 1);
        if (o->rank[k] > 0)
            acc_add(&base[REC_TYPE_RANK * rec->ntypes + t], o->rank[k], 1);
        acc *w = &base[REC_TYPE_WIN * rec->ntypes + t];
        w->n += RUN_WIN_UNIT;
        w->hits += (o->winners >> k & 1) * unit;
    }
}

/* Folds one game's outcome into the built-in figures. */
static void tally(run_result *res, const run_config *cfg, const outcome *o)
{
    res->games++;
    acc_add_fast(&res->length, o->length, 1);
    if (o->end >= 0 && o->end < res->nends)
        res->end_count[o->end]++;
    if (res->by_winners != NULL && o->winners < RUN_WINNER_SETS)
        res->by_winners[o->winners]++; /* a worker's: the wins at result_flush */
    else
        wins(res, cfg->nseats, o->winners, 1);
    for (int k = 0; k < cfg->nseats; k++) {
        acc_add_fast(&res->score[k], o->score[k], 1);
        if (o->rank[k] > 0) /* 0: unranked (e.g. a banker who does not race) */
            acc_add_fast(&res->rank[k], o->rank[k], 1);
    }
    if (GIOCHI_UNLIKELY(res->ntypes > 0))
        tally_types(res->rec, cfg->nseats, o);
}

/* A worker's result defers its figures (see acc_defer): nothing reads them before
 * result_flush, which the worker calls at the end of every chunk. */
static void result_defer(run_result *res, int nseats)
{
    res->by_winners = xcalloc_lines(RUN_WINNER_SETS, sizeof *res->by_winners);
    rec_defer(res->rec);
    acc_defer(&res->length);
    for (int k = 0; k < nseats; k++) {
        acc_defer(&res->score[k]);
        acc_defer(&res->rank[k]);
    }
}

static void result_flush(run_result *res, int nseats)
{
    for (uint32_t w = 0; res->by_winners && w < RUN_WINNER_SETS; w++)
        if (res->by_winners[w] != 0) {
            wins(res, nseats, w, res->by_winners[w]);
            res->by_winners[w] = 0;
        }
    rec_flush(res->rec);
    acc_flush(&res->length);
    for (int k = 0; k < nseats; k++) {
        acc_flush(&res->score[k]);
        acc_flush(&res->rank[k]);
    }
}

/* *dst += src, or false if the sum does not fit (wrapped then: no undefined behaviour). */
static bool add_count(int64_t *dst, int64_t src)
{
    return !__builtin_add_overflow(*dst, src, dst);
}

/* Adds src into dst, every addition checked; false if some total does not fit. */
static bool result_merge(run_result *dst, const run_result *src, int nseats)
{
    bool ok = rec_merge(dst->rec, src->rec);
    ok = acc_merge(&dst->length, &src->length) && ok;
    for (int k = 0; k < nseats; k++) {
        ok = acc_merge(&dst->score[k], &src->score[k]) && ok;
        ok = acc_merge(&dst->rank[k], &src->rank[k]) && ok;
        ok = add_count(&dst->win_units[k], src->win_units[k]) && ok;
        ok = add_count(&dst->wins_alone[k], src->wins_alone[k]) && ok;
        ok = add_count(&dst->wins_shared[k], src->wins_shared[k]) && ok;
    }
    ok = add_count(&dst->tied_games, src->tied_games) && ok;
    ok = add_count(&dst->no_winner, src->no_winner) && ok;
    for (int e = 0; e < dst->nends; e++)
        ok = add_count(&dst->end_count[e], src->end_count[e]) && ok;
    for (int i = 0; i < 2 * nseats * dst->nkinds; i++)
        ok = add_count(&dst->choices[i], src->choices[i]) && ok;
    ok = !__builtin_add_overflow(dst->games, src->games, &dst->games) && ok;
    return ok;
}

void run_result_free(run_result *res)
{
    rec_free(res->rec);
    for (int t = 0; t < res->ntypes; t++)
        free(res->type_name[t]);
    free(res->type_name);
    acc_free(&res->length);
    for (int k = 0; k < GAME_MAX_SEATS; k++) {
        acc_free(&res->score[k]);
        acc_free(&res->rank[k]);
    }
    free(res->end_count);
    free(res->choices);
    free(res->by_winners);
    memset(res, 0, sizeof *res);
}

/* The name of the type of player seat k held in the game just played into rec, a recorder
 * of run_result_init's (which names the run's types). */
static const char *seat_type_name(const recorder *rec, int k)
{
    return rec->type_name[rec->seat_type[k]];
}

/* The header of the games CSV. */
static void csv_header(FILE *f, const run_config *cfg)
{
    const game_type *g = cfg->game;
    fputs("game_index,seed,winner,length,end", f);
    for (int k = 0; k < cfg->nseats; k++)
        fprintf(f, ",score_%d", k + 1);
    for (int k = 0; k < cfg->nseats; k++)
        fprintf(f, ",rank_%d", k + 1);
    for (int m = 0; g->metrics && g->metrics[m].name; m++) {
        if (g->metrics[m].scope == METRIC_GAME)
            fprintf(f, ",%s", g->metrics[m].name);
        else
            for (int k = 0; k < cfg->nseats; k++)
                fprintf(f, ",%s_%d", g->metrics[m].name, k + 1);
    }
    fputs(",seed_hi,seed_lo", f); /* the seed's 32-bit halves: exact in any spreadsheet */
    if (has_population(cfg)) /* who sat where: the type of player each seat drew */
        for (int k = 0; k < cfg->nseats; k++)
            fprintf(f, ",type_%d", k + 1);
    fputc('\n', f);
}

/* One row of the games CSV for game `index`. */
static void csv_row(FILE *f, const run_config *cfg, uint64_t index, const outcome *o,
                    const recorder *rec)
{
    const game_type *g = cfg->game;
    fprintf(f, "%llu,%llu,", (unsigned long long)index,
            (unsigned long long)rng_derive(cfg->seed, index, RNG_STREAM_CHANCE));
    bool first = true;
    for (int k = 0; k < cfg->nseats; k++)
        if (o->winners & (1u << k)) {
            fprintf(f, "%s%d", first ? "" : "+", k + 1);
            first = false;
        }
    fprintf(f, ",%d,%s", o->length, g->end_names[o->end]);
    for (int k = 0; k < cfg->nseats; k++)
        fprintf(f, ",%lld", (long long)o->score[k]);
    for (int k = 0; k < cfg->nseats; k++)
        fprintf(f, ",%d", o->rank[k]);
    for (int m = 0; g->metrics && g->metrics[m].name; m++) {
        int from = g->metrics[m].scope == METRIC_GAME ? -1 : 0;
        int to = g->metrics[m].scope == METRIC_GAME ? -1 : cfg->nseats - 1;
        for (int k = from; k <= to; k++) {
            double v;
            char buf[40];
            if (rec_game_value(rec, m, k, &v))
                fprintf(f, ",%s", numfmt_double(buf, sizeof buf, v));
            else
                fputc(',', f);
        }
    }
    uint64_t seed = rng_derive(cfg->seed, index, RNG_STREAM_CHANCE);
    fprintf(f, ",%lu,%lu", (unsigned long)(seed >> 32), (unsigned long)(seed & 0xffffffffu));
    for (int k = 0; rec->ntypes > 0 && k < cfg->nseats; k++) /* type names hold no comma */
        fprintf(f, ",%s", seat_type_name(rec, k));
    fputc('\n', f);
}

/* Files the rows of chunk c, then writes every waiting chunk that is next in order. Called
 * with sh->lock held; takes ownership of text. */
static void file_rows(shared *sh, uint64_t c, char *text, size_t len)
{
    chunk_rows *r = xmalloc(sizeof *r);
    *r = (chunk_rows){c, text, len, NULL};
    chunk_rows **at = &sh->waiting;
    while (*at != NULL && (*at)->index < c)
        at = &(*at)->next;
    r->next = *at;
    *at = r;
    FILE *out = sh->cfg->games_csv;
    bool moved = false;
    while (sh->waiting != NULL && sh->waiting->index == sh->flushed) {
        r = sh->waiting;
        if (!sh->write_failed && fwrite(r->text, 1, r->len, out) != r->len)
            sh->write_failed = errno ? errno : EIO;
        sh->waiting = r->next;
        free(r->text);
        free(r);
        sh->flushed++;
        moved = true;
    }
    if (moved)
        pthread_cond_broadcast(&sh->moved);
}

/* Stops the run on a failure: no worker claims another chunk, and none waits for rows to be
 * written. (An interruption only stops the pool: the chunks under way are finished.) */
static void stop_locked(shared *sh)
{
    sh->aborted = true;
    pool_stop(&sh->pool);
    pthread_cond_broadcast(&sh->moved);
}

/* Worker t of the pool: sets up its bots, then plays the chunks it takes. */
static void work(void *arg, int t)
{
    worker *w = (worker *)arg + t;
    shared *sh = w->sh;
    const run_config *cfg = sh->cfg;
    const game_type *g = cfg->game;
    void *ctx[GAME_MAX_SEATS] = {0};
    char err[512];
    if (run_bots_setup(cfg, ctx, err, sizeof err) != 0) {
        pthread_mutex_lock(&sh->lock);
        if (!sh->setup_failed)
            snprintf(sh->err, sizeof sh->err, "%s", err);
        sh->setup_failed = true;
        stop_locked(sh);
        sh->workers_left--;
        pthread_cond_broadcast(&sh->wake);
        pthread_mutex_unlock(&sh->lock);
        return;
    }
    /* the view in an allocation of its own: a bot finds no state beside it */
    void *st = xcalloc_lines(1, g->state_size);
    void *view = xcalloc_lines(1, g->view_size ? g->view_size : 1);
    outcome o;
    if (sh->pool.chunk >= DEFER_CHUNK) /* a flush walks every histogram: not after every game */
        result_defer(&w->part, cfg->nseats);
    uint64_t c, from, to;
    while (pool_take(&sh->pool, &c, &from, &to)) {
        if (cfg->games_csv) {
            /* The worker of chunk `flushed` never waits here, so the window always moves. */
            pthread_mutex_lock(&sh->lock);
            while (c >= sh->flushed + sh->window && !sh->aborted)
                pthread_cond_wait(&sh->moved, &sh->lock);
            bool aborted = sh->aborted;
            pthread_mutex_unlock(&sh->lock);
            if (aborted)
                break;
        }
        char *text = NULL;
        size_t len = 0;
        FILE *mem = NULL;
        if (cfg->games_csv && (mem = open_memstream(&text, &len)) == NULL)
            xalloc_fail("cannot buffer the games CSV");
        bool broken = false;
        for (uint64_t i = from; i < to && !broken; i++) {
            if (play_game(cfg, ctx, i, st, view, &o, w->part.rec, NULL, w->part.choices,
                          w->part.nkinds, err, sizeof err) != 0) {
                pthread_mutex_lock(&sh->lock);
                if (!sh->check_failed || i < sh->check_index) {
                    sh->check_index = i;
                    snprintf(sh->check_err, sizeof sh->check_err, "%s", err);
                }
                sh->check_failed = true;
                stop_locked(sh);
                pthread_mutex_unlock(&sh->lock);
                broken = true;
                break;
            }
            tally(&w->part, cfg, &o);
            if (mem)
                csv_row(mem, cfg, i, &o, w->part.rec);
        }
        result_flush(&w->part, cfg->nseats); /* before anything reads the part */
        if (w->spill.n > 0) {
            pthread_mutex_lock(&sh->lock);
            run_result_unspill(sh->total, &w->part, &w->spill);
            pthread_mutex_unlock(&sh->lock);
        }
        /* once per chunk: a shared counter written at every game would bounce its cache line
         * between the workers */
        atomic_fetch_add(&sh->done_games, to - from);
        if (mem) {
            bool full = ferror(mem);
            if (fclose(mem) != 0 || full)
                xalloc_fail("cannot buffer the games CSV");
            if (broken) {
                free(text);
                break;
            }
            pthread_mutex_lock(&sh->lock);
            file_rows(sh, c, text, len);
            pthread_mutex_unlock(&sh->lock);
        }
        if (broken)
            break;
    }
    free(st);
    free(view);
    run_bots_free(cfg, ctx);
    pthread_mutex_lock(&sh->lock);
    sh->workers_left--;
    pthread_cond_broadcast(&sh->wake);
    pthread_mutex_unlock(&sh->lock);
}

/* Prints one progress line on stderr: rewritten in place on a terminal, whole lines for a log. */
static void show_progress(const run_config *cfg, uint64_t done, double elapsed)
{
    double rate = elapsed > 0 ? (double)done / elapsed : 0;
    double left = rate > 0 ? (double)(cfg->runs - done) / rate : 0;
    bool tty = cfg->progress == RUN_PROGRESS_TTY;
    fprintf(stderr, "%s%s: %llu/%llu games (%.0f%%), %.0f games/s, %.0f s left%s",
            tty ? "\r" : "giochi-sim: progress: ", cfg->game->name, (unsigned long long)done,
            (unsigned long long)cfg->runs, 100.0 * (double)done / (double)cfg->runs, rate, left,
            tty ? "   " : "\n");
    fflush(stderr);
}

static run_batch_fn *distributor;

void run_set_distributor(run_batch_fn *fn)
{
    distributor = fn;
}

int run_batch(const run_config *cfg, run_result *res, char *err, size_t errlen)
{
    if (distributor)
        return distributor(cfg, res, err, errlen);
    return run_batch_local(cfg, res, err, errlen);
}

int run_batch_local(const run_config *cfg, run_result *res, char *err, size_t errlen)
{
    double t0 = clock_seconds();
    shared sh;
    memset(&sh, 0, sizeof sh);
    sh.cfg = cfg;
    pool_init(&sh.pool, cfg->first, cfg->first + cfg->runs, cfg->threads, 1, CHUNK,
              CHUNKS_PER_THREAD);
    int nthreads = sh.pool.nworkers;
    sh.window = (uint64_t)nthreads * CSV_WINDOW;
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.wake, NULL);
    pthread_cond_init(&sh.moved, NULL);
    if (cfg->games_csv && cfg->first == 0)
        csv_header(cfg->games_csv, cfg);
    worker *w = xcalloc_lines((size_t)nthreads, sizeof *w);
    sh.workers_left = nthreads;
    result_init(res, cfg, false);
    sh.total = res;
    if (cfg->progress == RUN_PROGRESS_LOG)
        fprintf(stderr, "giochi-sim: progress: %s: %llu games on %d threads\n", cfg->game->name,
                (unsigned long long)cfg->runs, nthreads);
    for (int t = 0; t < nthreads; t++) {
        w[t].sh = &sh;
        result_init(&w[t].part, cfg, cfg->games_csv != NULL);
        run_result_spill(&w[t].part, &w[t].spill);
    }
    pool_start(&sh.pool, 0, work, w);

    /* Wait for the workers, showing progress once the run has lasted a second (on a
     * terminal), or every 10 s (in a log). */
    pthread_mutex_lock(&sh.lock);
    bool shown = false;
    double last_line = 0;
    while (sh.workers_left > 0) {
        if (cfg->interrupt && *cfg->interrupt && !pool_stopped(&sh.pool))
            pool_stop(&sh.pool); /* the chunks under way finish: a prefix of the games */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 250 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&sh.wake, &sh.lock, &until);
        double elapsed = clock_seconds() - t0;
        if (cfg->progress == RUN_PROGRESS_TTY && elapsed > 1.0 && sh.workers_left > 0) {
            show_progress(cfg, atomic_load(&sh.done_games), elapsed);
            shown = true;
        } else if (cfg->progress == RUN_PROGRESS_LOG && elapsed - last_line >= 10.0 &&
                   sh.workers_left > 0) {
            show_progress(cfg, atomic_load(&sh.done_games), elapsed);
            last_line = elapsed;
        }
    }
    pthread_mutex_unlock(&sh.lock);
    if (shown)
        fputs("\r\033[K", stderr);

    pool_join(&sh.pool);
    for (int t = 0; t < nthreads; t++) {
        run_result_unspill(res, &w[t].part, &w[t].spill); /* cells of a chunk cut short */
        result_merge(res, &w[t].part, cfg->nseats);
        run_result_free(&w[t].part);
        free(w[t].spill.cell);
    }
    free(w);
    while (sh.waiting != NULL) { /* rows behind a chunk that was never finished */
        chunk_rows *r = sh.waiting;
        sh.waiting = r->next;
        free(r->text);
        free(r);
    }
    pthread_mutex_destroy(&sh.lock);
    pthread_cond_destroy(&sh.wake);
    pthread_cond_destroy(&sh.moved);
    res->wall_seconds = clock_seconds() - t0;
    if (cfg->progress == RUN_PROGRESS_LOG)
        fprintf(stderr, "giochi-sim: progress: %s: %llu/%llu games in %.1f s\n",
                cfg->game->name, (unsigned long long)res->games, (unsigned long long)cfg->runs,
                res->wall_seconds);

    if (sh.setup_failed) {
        snprintf(err, errlen, "%s", sh.err);
        run_result_free(res);
        return -1;
    }
    if (sh.check_failed) {
        snprintf(err, errlen, RUN_BROKEN_INVARIANT "%s", sh.check_err);
        run_result_free(res);
        return -1;
    }
    if (sh.write_failed) {
        snprintf(err, errlen, "cannot write the games CSV: %s", strerror(sh.write_failed));
        run_result_free(res);
        return -1;
    }
    return 0;
}

void run_trace_outcome(const run_config *cfg, const outcome *o, FILE *out)
{
    const game_type *g = cfg->game;
    fprintf(out, "end: %s after %d %s; winner:", g->end_names[o->end], o->length,
            g->length_unit);
    if (o->winners == 0)
        fputs(" nobody", out);
    for (int k = 0; k < cfg->nseats; k++)
        if (o->winners & (1u << k))
            fprintf(out, " seat %d", k + 1);
    fputc('\n', out);
    for (int k = 0; k < cfg->nseats; k++)
        fprintf(out, "  seat %d: %s %lld, rank %d\n", k + 1, g->score_name,
                (long long)o->score[k], o->rank[k]);
}

int run_trace(const run_config *cfg, uint64_t index, FILE *out, outcome *o, char *err,
              size_t errlen)
{
    void *ctx[GAME_MAX_SEATS] = {0};
    if (run_bots_setup(cfg, ctx, err, errlen) != 0)
        return -1;
    void *st = xcalloc(1, cfg->game->state_size);
    void *view = xcalloc(1, cfg->game->view_size ? cfg->game->view_size : 1);
    run_result res; /* the game's own figures, and the types of player named as a batch names them */
    result_init(&res, cfg, true);
    recorder *rec = res.rec;
    fprintf(out, "game %llu of seed %llu (chance seed %llu): %s, %d players\n",
            (unsigned long long)index, (unsigned long long)cfg->seed,
            (unsigned long long)rng_derive(cfg->seed, index, RNG_STREAM_CHANCE),
            cfg->game->title, cfg->nseats);
    for (int k = 0; k < cfg->nseats; k++)
        fprintf(out, "  seat %d: %s\n", k + 1, cfg->seat[k].bot->name);
    char what[512];
    if (run_game_checked(cfg, ctx, index, st, view, o, rec, out, what, sizeof what) != 0) {
        snprintf(err, errlen, RUN_BROKEN_INVARIANT "%s", what);
        run_result_free(&res);
        free(st);
        free(view);
        run_bots_free(cfg, ctx);
        return -1;
    }
    run_trace_outcome(cfg, o, out);
    for (int k = 0; rec->ntypes > 0 && k < cfg->nseats; k++)
        if (cfg->seat[k].pop)
            fprintf(out, "  seat %d drew from %s: %s\n", k + 1, cfg->seat[k].pop->name,
                    seat_type_name(rec, k));
    /* The same row --games-csv writes for this game, to compare with the batch. */
    fputs("csv: ", out);
    csv_header(out, cfg);
    fputs("csv: ", out);
    csv_row(out, cfg, index, o, rec);
    run_result_free(&res);
    free(st);
    free(view);
    run_bots_free(cfg, ctx);
    return 0;
}

/* ---- pieces of a batch, for drivers that play several configurations in step --------------
 * (experiment.c plays each game index under several settings; these are the batch's own
 * steps, so that its per-setting results equal what run_batch gives.) */

void run_result_init(run_result *res, const run_config *cfg, bool per_game)
{
    result_init(res, cfg, per_game);
}

void run_tally(run_result *res, const run_config *cfg, const outcome *o)
{
    tally(res, cfg, o);
}

void run_result_spill(run_result *res, acc_spill *s)
{
    rec_set_spill(res->rec, s);
    res->length.spill = s;
    for (int k = 0; k < GAME_MAX_SEATS; k++)
        res->score[k].spill = res->rank[k].spill = s;
}

/* dst's accumulator at the place of src's a. */
static acc *twin(run_result *dst, const run_result *src, const acc *a)
{
    uintptr_t p = (uintptr_t)a, r = (uintptr_t)src->rec->a;
    size_t n = (size_t)src->rec->nmetrics * REC_SLOTS;
    if (p >= r && p < r + n * sizeof *a)
        return &dst->rec->a[(p - r) / sizeof *a];
    if (a == &src->length)
        return &dst->length;
    uintptr_t sc = (uintptr_t)src->score;
    if (p >= sc && p < sc + sizeof src->score)
        return &dst->score[(p - sc) / sizeof *a];
    return &dst->rank[(p - (uintptr_t)src->rank) / sizeof *a];
}

void run_result_unspill(run_result *dst, const run_result *src, acc_spill *s)
{
    for (size_t i = 0; i < s->n; i++)
        acc_add_cell(twin(dst, src, s->cell[i].a), s->cell[i].value, s->cell[i].count);
    s->n = 0;
}

bool run_result_merge(run_result *dst, const run_result *src, int nseats)
{
    dst->wall_seconds += src->wall_seconds;
    return result_merge(dst, src, nseats);
}
