/* partial.c — run results as portable bytes, and the self-checking partial-result file. */
#include "dist/partial.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/rules.h"
#include "core/registry.h"
#include "dist/sha256.h"

static const char magic[] = "giochi-sim partial result\n";

/* ---- writing ---------------------------------------------------------------------------- */

static void put(pbuf *b, const void *data, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (p == NULL) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void put_u64(pbuf *b, uint64_t v)
{
    unsigned char x[8];
    for (int i = 0; i < 8; i++)
        x[i] = (unsigned char)(v >> (8 * i));
    put(b, x, 8);
}

static void put_i128(pbuf *b, __int128 v)
{
    put_u64(b, (uint64_t)v);
    put_u64(b, (uint64_t)((unsigned __int128)v >> 64));
}

void partial_put_u64(pbuf *b, uint64_t v)
{
    put_u64(b, v);
}

void partial_put_i128(pbuf *b, __int128 v)
{
    put_i128(b, v);
}

/* An accumulator: a tag (0 empty, 1 rate, 2 mean with histogram, 3 mean without), then its
 * fields; a histogram as its non-zero cells (offset from min, count). */
static void put_acc(pbuf *b, const acc *a)
{
    if (a->n == 0 && a->hits == 0) {
        put_u64(b, 0);
        return;
    }
    if (a->count == NULL && !a->wide) {
        put_u64(b, 1);
        put_u64(b, (uint64_t)a->n);
        put_u64(b, (uint64_t)a->hits);
        return;
    }
    put_u64(b, a->wide ? 3 : 2);
    put_u64(b, (uint64_t)a->n);
    put_u64(b, (uint64_t)a->hits);
    put_i128(b, a->sum);
    put_i128(b, a->sumsq);
    put_u64(b, (uint64_t)a->min);
    put_u64(b, (uint64_t)a->max);
    if (a->wide)
        return;
    uint64_t cells = 0;
    for (int64_t v = a->min; v <= a->max; v++)
        cells += a->count[v - a->lo] != 0;
    put_u64(b, cells);
    for (int64_t v = a->min; v <= a->max; v++)
        if (a->count[v - a->lo] != 0) {
            put_u64(b, (uint64_t)(v - a->min));
            put_u64(b, (uint64_t)a->count[v - a->lo]);
        }
}

void partial_put_result(pbuf *b, const run_config *cfg, const run_result *res)
{
    const recorder *rec = res->rec;
    put_u64(b, PARTIAL_FORMAT);
    put_u64(b, (uint64_t)cfg->nseats);
    put_u64(b, (uint64_t)rec->nmetrics);
    put_u64(b, (uint64_t)res->nends);
    put_u64(b, res->games);
    put_u64(b, (uint64_t)res->tied_games);
    put_u64(b, (uint64_t)res->no_winner);
    double wall = res->wall_seconds;
    uint64_t wbits;
    memcpy(&wbits, &wall, sizeof wbits);
    put_u64(b, wbits);
    for (int e = 0; e < res->nends; e++)
        put_u64(b, (uint64_t)res->end_count[e]);
    put_u64(b, (uint64_t)res->nkinds);
    for (int i = 0; i < 2 * cfg->nseats * res->nkinds; i++)
        put_u64(b, (uint64_t)res->choices[i]);
    put_acc(b, &res->length);
    for (int k = 0; k < cfg->nseats; k++) {
        put_acc(b, &res->score[k]);
        put_acc(b, &res->rank[k]);
        put_u64(b, (uint64_t)res->win_units[k]);
        put_u64(b, (uint64_t)res->wins_alone[k]);
        put_u64(b, (uint64_t)res->wins_shared[k]);
    }
    for (int m = 0; m < rec->nmetrics; m++)
        for (int slot = 0; slot < REC_SLOTS; slot++)
            put_acc(b, &rec->a[m * REC_SLOTS + slot]);
    /* a run with populations: its figures by type of player (none otherwise: the bytes of a
     * run without are those of a giochi-sim that had no types) */
    if (rec->ntypes > 0) {
        put_u64(b, (uint64_t)rec->ntypes);
        for (int i = 0; i < (rec->nmetrics + REC_TYPE_BUILTINS) * rec->ntypes; i++)
            put_acc(b, &rec->ta[i]);
    }
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef preader reader;

static uint64_t get_u64(reader *r)
{
    if (r->bad || r->end - r->p < 8) {
        r->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)r->p[i] << (8 * i);
    r->p += 8;
    return v;
}

static __int128 get_i128(reader *r)
{
    uint64_t lo = get_u64(r), hi = get_u64(r);
    return (__int128)(((unsigned __int128)hi << 64) | lo);
}

uint64_t partial_get_u64(preader *r)
{
    return get_u64(r);
}

__int128 partial_get_i128(preader *r)
{
    return get_i128(r);
}

/* ---- sense: what a result read from outside must satisfy -------------------------------
 * A result is input from anywhere (a colleague's shard, a job array's part), so the reader
 * checks not only that the bytes parse but that they could have been played: every figure
 * against the game's count of games, every histogram against its own count, sums and
 * extremes, the values within PARTIAL_VALUE_LIMIT, and the histograms' memory within
 * PARTIAL_MAX_CELLS. The first figure that fails is named in the message. */

/* Where a check failed: the accumulator's name and what is wrong with it. */
typedef struct sense {
    reader r;
    const run_config *cfg;
    const recorder *rec;
    uint64_t cells;  /* histogram cells allocated so far (the budget is PARTIAL_MAX_CELLS) */
    char field[96];  /* the field being read, for the message */
    char what[160];  /* what is wrong with it; empty while all is well */
} sense;

/* Records the first failure (later ones are consequences). Returns false. */
static bool __attribute__((format(printf, 2, 3))) refuse(sense *c, const char *fmt, ...)
{
    if (c->what[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->what, sizeof c->what, fmt, ap);
        va_end(ap);
    }
    c->r.bad = true;
    return false;
}

/* A count: a u64 that must fit an int64 (every count of a result is one). */
static int64_t get_count(sense *c, const char *field)
{
    uint64_t v = get_u64(&c->r);
    if (v > INT64_MAX && !c->r.bad) {
        if (field != c->field)
            snprintf(c->field, sizeof c->field, "%s", field);
        refuse(c, "%llu is not a count", (unsigned long long)v);
        return 0;
    }
    return (int64_t)v;
}

enum { ACC_WANT_RATE, ACC_WANT_MEAN };

/* Reads an accumulator into a (zeroed), written by put_acc for an accumulator of kind want,
 * and checks it: a rate's hits at most its trials; a mean's extremes in order and within
 * PARTIAL_VALUE_LIMIT, a histogram exactly as wide as its extremes, with cells in order that
 * each hold an observation and whose counts, sum and sum of squares are the accumulator's own;
 * a dropped histogram (wide) only when the extremes are too far apart for one, with its sums
 * within what its extremes allow. */
static bool get_acc(sense *c, acc *a, int want)
{
    reader *r = &c->r;
    uint64_t tag = get_u64(r);
    if (r->bad || tag == 0)
        return !r->bad;
    if (tag > 3 || (want == ACC_WANT_RATE) != (tag == 1))
        return refuse(c, "an accumulator of kind %llu where a %s belongs",
                      (unsigned long long)tag, want == ACC_WANT_RATE ? "rate" : "mean");
    a->n = get_count(c, c->field);
    a->hits = get_count(c, c->field);
    if (r->bad)
        return false;
    if (tag == 1) {
        if (a->n == 0 || a->hits > a->n)
            return refuse(c, "%lld hits out of %lld trials", (long long)a->hits, (long long)a->n);
        return true;
    }
    a->sum = get_i128(r);
    a->sumsq = get_i128(r);
    a->min = (int64_t)get_u64(r);
    a->max = (int64_t)get_u64(r);
    if (r->bad)
        return false;
    if (a->n == 0 || a->hits != 0)
        return refuse(c, "a mean of %lld observations with %lld hits", (long long)a->n,
                      (long long)a->hits);
    if (a->min > a->max || a->min < -PARTIAL_VALUE_LIMIT || a->max > PARTIAL_VALUE_LIMIT)
        return refuse(c, "extremes %lld..%lld (values lie within +-2^62, the least first)",
                      (long long)a->min, (long long)a->max);
    uint64_t span = (uint64_t)(a->max - a->min) + 1;
    if (tag == 3) { /* wide: the extremes alone made the histogram go */
        a->wide = true;
        __int128 n = a->n;
        if (span <= ACC_MAX_SPAN)
            return refuse(c, "a dropped histogram of extremes %lld..%lld, which one can hold",
                          (long long)a->min, (long long)a->max);
        if (a->sum < n * a->min || a->sum > n * a->max || a->sumsq < 0)
            return refuse(c, "sums that %lld observations in %lld..%lld cannot have",
                          (long long)a->n, (long long)a->min, (long long)a->max);
        __int128 nq, ss;
        if (!__builtin_mul_overflow(n, a->sumsq, &nq) &&
            !__builtin_mul_overflow(a->sum, a->sum, &ss) && nq < ss)
            return refuse(c, "a sum of squares below its sum's square over the count");
        return true;
    }
    uint64_t cells = get_u64(r);
    if (r->bad)
        return false;
    if (span > ACC_MAX_SPAN)
        return refuse(c, "a histogram over %llu values (at most %d are kept)",
                      (unsigned long long)span, ACC_MAX_SPAN);
    if (cells == 0 || cells > span || cells > (uint64_t)(r->end - r->p) / 16)
        return refuse(c, "%llu histogram cells over %llu values", (unsigned long long)cells,
                      (unsigned long long)span);
    if (span > PARTIAL_MAX_CELLS - c->cells)
        return refuse(c, "histograms over more than %d values in all (%d MiB)",
                      PARTIAL_MAX_CELLS, PARTIAL_MAX_CELLS / (1 << 17));
    c->cells += span;
    a->lo = a->min;
    a->len = (int64_t)span;
    a->count = calloc((size_t)span, sizeof *a->count);
    if (a->count == NULL)
        return refuse(c, "out of memory");
    __int128 n = 0, sum = 0, sumsq = 0;
    uint64_t next = 0; /* the least offset the next cell may have */
    bool fits = true;
    for (uint64_t i = 0; i < cells; i++) {
        uint64_t off = get_u64(r), k = get_u64(r);
        if (r->bad)
            return false;
        if (off < next || off >= span || k == 0 || k > INT64_MAX || (i == 0 && off != 0) ||
            (i == cells - 1 && off != span - 1))
            return refuse(c, "histogram cell %llu (offset %llu, count %llu) out of order, "
                          "empty or beyond the extremes", (unsigned long long)i,
                          (unsigned long long)off, (unsigned long long)k);
        next = off + 1;
        a->count[off] = (int64_t)k;
        __int128 v = a->min + (int64_t)off, vk, vvk;
        /* |v| <= 2^62 and k < 2^63: v k fits; v^2 k may not, and then no result could hold it */
        fits = fits && !__builtin_add_overflow(n, (__int128)k, &n) &&
               !__builtin_mul_overflow(v, (__int128)k, &vk) &&
               !__builtin_add_overflow(sum, vk, &sum) &&
               !__builtin_mul_overflow(v * v, (__int128)k, &vvk) &&
               !__builtin_add_overflow(sumsq, vvk, &sumsq);
    }
    if (!fits || n != a->n || sum != a->sum || sumsq != a->sumsq)
        return refuse(c, "histogram counts, sum or sum of squares that are not the "
                      "accumulator's (%lld observations)", (long long)a->n);
    return true;
}

/* The name of accumulator i of rec's table: "metric NAME" at the game or "metric NAME, seat K". */
static void metric_field(sense *c, int m, int slot)
{
    if (slot == 0)
        snprintf(c->field, sizeof c->field, "metric %s", c->rec->metrics[m].name);
    else
        snprintf(c->field, sizeof c->field, "metric %s, seat %d", c->rec->metrics[m].name,
                 slot);
}

/* The checks of a whole result that tie its figures to its count of games. */
static bool result_sense(sense *c, const run_result *res, int nseats)
{
    int64_t games = (int64_t)res->games;
    unsigned __int128 ends = 0, alone = 0, units = 0, shared = 0;
    snprintf(c->field, sizeof c->field, "games");
    /* each at most INT64_MAX: their sum in 128 bits */
    if ((unsigned __int128)(uint64_t)res->tied_games + (uint64_t)res->no_winner > (uint64_t)games)
        return refuse(c, "%lld tied games and %lld without a winner out of %lld",
                      (long long)res->tied_games, (long long)res->no_winner, (long long)games);
    if (!(res->wall_seconds >= 0 && res->wall_seconds < 1e300)) {
        snprintf(c->field, sizeof c->field, "wall_seconds");
        return refuse(c, "%g is not a time", res->wall_seconds);
    }
    for (int i = 0; i < nseats * res->nkinds; i++)
        if (res->choices[2 * i + 1] > res->choices[2 * i]) {
            snprintf(c->field, sizeof c->field, "choices of seat %d", i / res->nkinds + 1);
            return refuse(c, "%lld other choices out of %lld", (long long)res->choices[2 * i + 1],
                          (long long)res->choices[2 * i]);
        }
    snprintf(c->field, sizeof c->field, "game length");
    if (res->length.n != games)
        return refuse(c, "%lld observations of %lld games", (long long)res->length.n,
                      (long long)games);
    for (int e = 0; e < res->nends; e++)
        ends += (uint64_t)res->end_count[e];
    snprintf(c->field, sizeof c->field, "end counts");
    if (ends != (uint64_t)games) /* every game ends one way */
        return refuse(c, "%llu ends of %lld games", (unsigned long long)ends, (long long)games);
    for (int k = 0; k < nseats; k++) {
        snprintf(c->field, sizeof c->field, "score of seat %d", k + 1);
        if (res->score[k].n != games)
            return refuse(c, "%lld observations of %lld games", (long long)res->score[k].n,
                          (long long)games);
        snprintf(c->field, sizeof c->field, "rank of seat %d", k + 1);
        if (res->rank[k].n > games ||
            (res->rank[k].n > 0 && (res->rank[k].min < 1 || res->rank[k].max > nseats)))
            return refuse(c, "%lld ranks in %lld..%lld of %lld games of %d players",
                          (long long)res->rank[k].n, (long long)res->rank[k].min,
                          (long long)res->rank[k].max, (long long)games, nseats);
        snprintf(c->field, sizeof c->field, "wins of seat %d", k + 1);
        /* a win alone is RUN_WIN_UNIT units, a shared one RUN_WIN_UNIT / nseats to / 2 */
        unsigned __int128 a = (uint64_t)res->wins_alone[k], s = (uint64_t)res->wins_shared[k],
                          u = (uint64_t)res->win_units[k];
        if (a + s > (uint64_t)games || u < a * RUN_WIN_UNIT + s * (RUN_WIN_UNIT / (unsigned)nseats) ||
            u > a * RUN_WIN_UNIT + s * (RUN_WIN_UNIT / 2))
            return refuse(c, "%lld alone, %lld shared, %lld/%d wins of %lld games",
                          (long long)res->wins_alone[k], (long long)res->wins_shared[k],
                          (long long)res->win_units[k], RUN_WIN_UNIT, (long long)games);
        alone += a;
        shared += s;
        units += u;
    }
    snprintf(c->field, sizeof c->field, "wins");
    unsigned __int128 won = (uint64_t)(games - res->no_winner),
                      tied = (uint64_t)res->tied_games;
    if (alone + tied != won || units != won * RUN_WIN_UNIT || shared < 2 * tied ||
        shared > (uint64_t)nseats * tied)
        return refuse(c, "the seats' wins do not add up to the %llu games won",
                      (unsigned long long)won);
    return true;
}

/* The most a count of `games` games of total length `length` can reach under bound b
 * (once + per_unit * length for each game); UINT128 max when b declares no bound or the
 * bound does not fit 128 bits (then no count exceeds it). */
static unsigned __int128 bound_total(game_bound b, uint64_t games, unsigned __int128 length)
{
    const unsigned __int128 none = ~(unsigned __int128)0;
    if (b.once <= 0 && b.per_unit <= 0)
        return none;
    unsigned __int128 a, p, t;
    if (__builtin_mul_overflow((unsigned __int128)(b.once > 0 ? b.once : 0), games, &a) ||
        __builtin_mul_overflow((unsigned __int128)(b.per_unit > 0 ? b.per_unit : 0), length,
                               &p) ||
        __builtin_add_overflow(a, p, &t))
        return none;
    return t;
}

/* The checks that tie a result's counts to what its games can record (game_limits, and each
 * metric's count per game): the lengths within the game's longest, each seat's choices, and
 * each metric slot's observations or trials at most what its games can add. */
static bool limits_sense(sense *c, const run_result *res, int nseats)
{
    const game_type *g = c->cfg->game;
    game_limits lim = registry_limits(g, c->cfg->rules, nseats);
    snprintf(c->field, sizeof c->field, "game length");
    if (res->length.n > 0 &&
        (res->length.min < 0 || (lim.length > 0 && res->length.max > lim.length)))
        return refuse(c, "lengths %lld..%lld (a game of these rules lasts 0..%lld %s)",
                      (long long)res->length.min, (long long)res->length.max,
                      (long long)lim.length, g->length_unit);
    /* the lengths' sum: not negative (their least is not) */
    unsigned __int128 length = res->length.n > 0 ? (unsigned __int128)res->length.sum : 0;
    for (int k = 0; k < nseats; k++) {
        unsigned __int128 made = 0;
        for (int i = 0; i < res->nkinds; i++)
            made += (uint64_t)res->choices[2 * (k * res->nkinds + i)];
        unsigned __int128 most = bound_total(lim.choices, res->games, length);
        if (made > most) {
            snprintf(c->field, sizeof c->field, "choices of seat %d", k + 1);
            return refuse(c, "more choices than %llu games of %llu %s in all allow",
                          (unsigned long long)res->games, (unsigned long long)length,
                          g->length_unit);
        }
    }
    const recorder *rec = res->rec;
    for (int m = 0; m < rec->nmetrics; m++) {
        const metric_def *md = &rec->metrics[m];
        int count = registry_metric_count(&lim, md->name);
        unsigned __int128 most =
            count == GAME_COUNT_REPEATED ? bound_total(lim.repeats, res->games, length)
            : count == GAME_COUNT_PER_PLAYER ? (unsigned __int128)res->games * (unsigned)nseats
                                             : (unsigned __int128)res->games;
        for (int slot = 0; slot < REC_SLOTS; slot++)
            if ((uint64_t)rec->a[m * REC_SLOTS + slot].n > most) {
                metric_field(c, m, slot);
                return refuse(c, "%lld %s of %llu games (a game adds at most %s)",
                              (long long)rec->a[m * REC_SLOTS + slot].n,
                              md->kind == METRIC_RATE ? "trials" : "observations",
                              (unsigned long long)res->games,
                              count == GAME_COUNT_REPEATED     ? "what the game's limits allow"
                              : count == GAME_COUNT_PER_PLAYER ? "one for each player"
                                                               : "one");
            }
    }
    return true;
}

/* The checks of a result's figures by type against its figures by seat: the types' seats
 * and wins add up to the seats', each metric's observations and successes over the types
 * to those over the seats. */
static bool types_sense(sense *c, const run_result *res, int nseats)
{
    const recorder *rec = res->rec;
    unsigned __int128 seats = 0, units = 0, seat_units = 0, scores = 0, ranks = 0, seat_ranks = 0;
    const acc *base = rec->ta + (size_t)rec->nmetrics * (size_t)rec->ntypes;
    for (int t = 0; t < rec->ntypes; t++) {
        const acc *w = &base[REC_TYPE_WIN * rec->ntypes + t];
        snprintf(c->field, sizeof c->field, "wins, type %s", rec->type_name[t]);
        if (w->n % RUN_WIN_UNIT != 0)
            return refuse(c, "%lld/%d games", (long long)w->n, RUN_WIN_UNIT);
        seats += (uint64_t)w->n / RUN_WIN_UNIT;
        units += (uint64_t)w->hits;
        scores += (uint64_t)base[REC_TYPE_SCORE * rec->ntypes + t].n;
        ranks += (uint64_t)base[REC_TYPE_RANK * rec->ntypes + t].n;
    }
    for (int k = 0; k < nseats; k++) {
        seat_units += (uint64_t)res->win_units[k];
        seat_ranks += (uint64_t)res->rank[k].n;
    }
    snprintf(c->field, sizeof c->field, "types of player");
    unsigned __int128 all = (unsigned __int128)res->games * (unsigned)nseats;
    if (seats != all || scores != all || ranks != seat_ranks || units != seat_units)
        return refuse(c, "their seats, scores, ranks or wins do not add up to the seats'");
    for (int m = 0; m < rec->nmetrics; m++) {
        if (rec->metrics[m].scope != METRIC_SEAT)
            continue;
        unsigned __int128 tn = 0, th = 0, sn = 0, sh = 0;
        for (int t = 0; t < rec->ntypes; t++) {
            tn += (uint64_t)rec->ta[m * rec->ntypes + t].n;
            th += (uint64_t)rec->ta[m * rec->ntypes + t].hits;
        }
        for (int k = 0; k < nseats; k++) {
            sn += (uint64_t)rec->a[m * REC_SLOTS + REC_SLOT(k)].n;
            sh += (uint64_t)rec->a[m * REC_SLOTS + REC_SLOT(k)].hits;
        }
        snprintf(c->field, sizeof c->field, "metric %s by type", rec->metrics[m].name);
        if (tn != sn || th != sh)
            return refuse(c, "its observations over the types are not those over the seats");
    }
    return true;
}

int partial_get_result(const unsigned char **p, const unsigned char *end, const run_config *cfg,
                       run_result *res, char *err, size_t errlen)
{
    run_result_init(res, cfg, false);
    sense c = {.r = {*p, end, false}, .cfg = cfg, .rec = res->rec};
    reader *r = &c.r;
    uint64_t format = get_u64(r), nseats = get_u64(r), nmetrics = get_u64(r), nends = get_u64(r);
    if (!r->bad && format != PARTIAL_FORMAT) {
        snprintf(err, errlen, "partial result of format %llu, this giochi-sim reads format %d",
                 (unsigned long long)format, PARTIAL_FORMAT);
        run_result_free(res);
        return -1;
    }
    if (!r->bad && (nseats != (uint64_t)cfg->nseats || nmetrics != (uint64_t)res->rec->nmetrics ||
                    nends != (uint64_t)res->nends)) {
        snprintf(err, errlen, "partial result does not fit the game %s with %d players",
                 cfg->game->name, cfg->nseats);
        run_result_free(res);
        return -1;
    }
    res->games = (uint64_t)get_count(&c, "games");
    res->tied_games = get_count(&c, "tied games");
    res->no_winner = get_count(&c, "games without a winner");
    uint64_t wbits = get_u64(r);
    memcpy(&res->wall_seconds, &wbits, sizeof wbits);
    for (int e = 0; e < res->nends; e++)
        res->end_count[e] = get_count(&c, "end counts");
    if (get_u64(r) != (uint64_t)res->nkinds && !r->bad) {
        snprintf(err, errlen, "partial result does not fit the game %s (decision kinds)",
                 cfg->game->name);
        run_result_free(res);
        return -1;
    }
    for (int i = 0; i < 2 * cfg->nseats * res->nkinds; i++)
        res->choices[i] = get_count(&c, "choices");
    snprintf(c.field, sizeof c.field, "game length");
    get_acc(&c, &res->length, ACC_WANT_MEAN);
    for (int k = 0; k < cfg->nseats && !r->bad; k++) {
        snprintf(c.field, sizeof c.field, "score of seat %d", k + 1);
        get_acc(&c, &res->score[k], ACC_WANT_MEAN);
        snprintf(c.field, sizeof c.field, "rank of seat %d", k + 1);
        get_acc(&c, &res->rank[k], ACC_WANT_MEAN);
        res->win_units[k] = get_count(&c, "wins");
        res->wins_alone[k] = get_count(&c, "wins");
        res->wins_shared[k] = get_count(&c, "wins");
    }
    const metric_def *md = res->rec->metrics;
    for (int m = 0; m < res->rec->nmetrics && !r->bad; m++)
        for (int slot = 0; slot < REC_SLOTS && !r->bad; slot++) {
            metric_field(&c, m, slot);
            acc *a = &res->rec->a[m * REC_SLOTS + slot];
            get_acc(&c, a, md[m].kind == METRIC_RATE ? ACC_WANT_RATE : ACC_WANT_MEAN);
            bool used = md[m].scope == METRIC_GAME ? slot == 0 : slot >= 1 && slot <= cfg->nseats;
            if (!r->bad && !used && (a->n != 0 || a->hits != 0))
                refuse(&c, "figures where the game records none");
        }
    if (!r->bad && res->rec->ntypes > 0) {
        recorder *rec = res->rec;
        snprintf(c.field, sizeof c.field, "types of player");
        if (get_u64(r) != (uint64_t)rec->ntypes && !r->bad)
            refuse(&c, "not the run's %d types", rec->ntypes);
        for (int m = 0; m < rec->nmetrics + REC_TYPE_BUILTINS && !r->bad; m++)
            for (int t = 0; t < rec->ntypes && !r->bad; t++) {
                bool builtin = m >= rec->nmetrics;
                snprintf(c.field, sizeof c.field, "%s %s, type %s", builtin ? "figure" : "metric",
                         builtin ? (m - rec->nmetrics == REC_TYPE_SCORE  ? "score"
                                    : m - rec->nmetrics == REC_TYPE_RANK ? "rank"
                                                                         : "wins")
                                 : md[m].name,
                         rec->type_name[t]);
                bool rate = builtin ? m - rec->nmetrics == REC_TYPE_WIN : md[m].kind == METRIC_RATE;
                acc *a = &rec->ta[m * rec->ntypes + t];
                get_acc(&c, a, rate ? ACC_WANT_RATE : ACC_WANT_MEAN);
                if (!r->bad && !builtin && md[m].scope == METRIC_GAME && (a->n != 0 || a->hits != 0))
                    refuse(&c, "figures where the game records none");
            }
        if (!r->bad)
            types_sense(&c, res, cfg->nseats);
    }
    if (!r->bad)
        result_sense(&c, res, cfg->nseats);
    if (!r->bad)
        limits_sense(&c, res, cfg->nseats);
    if (r->bad) {
        if (c.what[0])
            snprintf(err, errlen, "partial result does not make sense: %s: %s", c.field, c.what);
        else
            snprintf(err, errlen, "partial result is truncated or malformed");
        run_result_free(res);
        return -1;
    }
    *p = r->p;
    return 0;
}

/* The histogram cells a's total with b would span: 0 for a rate or a dropped histogram. */
static uint64_t union_cells(const acc *a, const acc *b)
{
    bool ha = a->count != NULL && a->n > 0, hb = b->count != NULL && b->n > 0;
    if (a->wide || b->wide || (!ha && !hb))
        return 0;
    int64_t lo = ha ? a->min : b->min, hi = ha ? a->max : b->max;
    if (hb) {
        lo = b->min < lo ? b->min : lo;
        hi = b->max > hi ? b->max : hi;
    }
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    return span > ACC_MAX_SPAN ? 0 : span;
}

int partial_merge(run_result *dst, const run_result *src, int nseats, char *err, size_t errlen)
{
    uint64_t cells = union_cells(&dst->length, &src->length);
    for (int k = 0; k < nseats; k++)
        cells += union_cells(&dst->score[k], &src->score[k]) +
                 union_cells(&dst->rank[k], &src->rank[k]);
    for (int i = 0; i < dst->rec->nmetrics * REC_SLOTS; i++)
        cells += union_cells(&dst->rec->a[i], &src->rec->a[i]);
    if (dst->rec->ntypes == src->rec->ntypes)
        for (int i = 0; i < (dst->rec->nmetrics + REC_TYPE_BUILTINS) * dst->rec->ntypes; i++)
            cells += union_cells(&dst->rec->ta[i], &src->rec->ta[i]);
    if (cells > PARTIAL_MAX_CELLS) {
        snprintf(err, errlen, "the merged histograms would span more than %d values (%d MiB)",
                 PARTIAL_MAX_CELLS, PARTIAL_MAX_CELLS / (1 << 17));
        return -1;
    }
    if (!run_result_merge(dst, src, nseats)) {
        snprintf(err, errlen, "a count or sum of the merged results does not fit in its integer");
        return -1;
    }
    return 0;
}

void partial_put_batch(pbuf *b, const run_config *cfg, const run_result *res)
{
    put_u64(b, cfg->first);
    put_u64(b, cfg->runs);
    partial_put_result(b, cfg, res);
}

int partial_get_batch(const unsigned char **p, const unsigned char *end, const run_config *cfg,
                      uint64_t *first, uint64_t *runs, run_result *res, char *err,
                      size_t errlen)
{
    reader r = {*p, end, false};
    *first = get_u64(&r);
    *runs = get_u64(&r);
    if (r.bad) {
        snprintf(err, errlen, "partial result is truncated or malformed");
        return -1;
    }
    if (*runs > UINT64_MAX - *first) {
        snprintf(err, errlen, "partial result does not make sense: batch: games %llu+%llu",
                 (unsigned long long)*first, (unsigned long long)*runs);
        return -1;
    }
    if (partial_get_result(&r.p, end, cfg, res, err, errlen) != 0)
        return -1;
    if (res->games > *runs) {
        snprintf(err, errlen, "partial result does not make sense: games: %llu played of a "
                 "batch of %llu", (unsigned long long)res->games, (unsigned long long)*runs);
        run_result_free(res);
        return -1;
    }
    *p = r.p;
    return 0;
}

/* ---- files -------------------------------------------------------------------------------- */

/* FNV-1a, 64 bits: enough to catch a truncated, cut or altered file. */
static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

#define FNV_BASIS 0xcbf29ce484222325ULL

/* ---- authenticity ------------------------------------------------------------------------ */

int partial_key(unsigned char key[PARTIAL_KEY_MAX], size_t *klen, char *err, size_t errlen)
{
    const char *path = getenv("GIOCHI_PART_KEY");
    if (path == NULL || path[0] == '\0')
        return 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, errlen, "GIOCHI_PART_KEY: cannot read the key file '%s': %s", path,
                 strerror(errno));
        return -1;
    }
    unsigned char extra;
    size_t n = fread(key, 1, PARTIAL_KEY_MAX, f);
    bool more = n == PARTIAL_KEY_MAX && fread(&extra, 1, 1, f) == 1, failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        snprintf(err, errlen, "GIOCHI_PART_KEY: cannot read the key file '%s'", path);
        return -1;
    }
    if (n < PARTIAL_KEY_MIN || more) {
        snprintf(err, errlen, "GIOCHI_PART_KEY: the key file '%s' holds %s%zu bytes (%d to %d: "
                 "e.g. head -c 32 /dev/urandom)", path, more ? "more than " : "", n,
                 PARTIAL_KEY_MIN, PARTIAL_KEY_MAX);
        return -1;
    }
    *klen = n;
    return 1;
}

/* The name of the MAC in a part's identity. */
static const char mac_name[] = "hmac-sha256";

int partial_write_file(FILE *f, const cJSON *identity, const pbuf *payload)
{
    unsigned char key[PARTIAL_KEY_MAX];
    size_t klen = 0;
    char kerr[300];
    int keyed = partial_key(key, &klen, kerr, sizeof kerr);
    if (keyed < 0)
        return errno = EINVAL, -1;
    cJSON *signed_id = NULL;
    if (keyed) { /* the identity says that a MAC follows the checksum */
        signed_id = cJSON_Duplicate(identity, 1);
        if (signed_id == NULL || cJSON_AddStringToObject(signed_id, "mac", mac_name) == NULL) {
            cJSON_Delete(signed_id);
            return errno = ENOMEM, -1;
        }
        identity = signed_id;
    }
    char *id = cJSON_PrintUnformatted(identity);
    cJSON_Delete(signed_id);
    if (id == NULL || payload->oom)
        return cJSON_free(id), errno = ENOMEM, -1;
    pbuf all = {0};
    put(&all, magic, strlen(magic));
    put(&all, id, strlen(id));
    put(&all, "\n", 1);
    cJSON_free(id);
    put_u64(&all, (uint64_t)payload->len);
    put(&all, payload->p, payload->len);
    put_u64(&all, fnv1a(FNV_BASIS, all.p, all.len));
    if (keyed && !all.oom) {
        unsigned char mac[SHA256_BYTES];
        hmac_sha256(key, klen, all.p, all.len, mac);
        put(&all, mac, sizeof mac);
    }
    memset(key, 0, sizeof key);
    int rc = 0;
    if (all.oom)
        rc = (errno = ENOMEM, -1);
    else if (fwrite(all.p, 1, all.len, f) != all.len)
        rc = -1;
    free(all.p);
    return rc;
}

/* Reads exactly n bytes of f into p; false at the end of the file or on an error. */
static bool read_exactly(FILE *f, void *p, size_t n)
{
    return fread(p, 1, n, f) == n;
}

/* The most payload bytes a file of identity id may declare: for a plain run of a known game
 * (the identity's "experiment" is null), one batch whose histograms span at most
 * PARTIAL_MAX_CELLS values; for anything else (an experiment's blocks), PARTIAL_MAX_PAYLOAD. */
static uint64_t payload_cap(const cJSON *id)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(id, "experiment");
    const cJSON *game = cJSON_GetObjectItemCaseSensitive(id, "game");
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(id, "players");
    const game_type *g = cJSON_IsString(game) ? registry_game(game->valuestring) : NULL;
    if (!cJSON_IsNull(x) || g == NULL || !cJSON_IsNumber(players) || players->valuedouble < 1 ||
        players->valuedouble > GAME_MAX_SEATS)
        return PARTIAL_MAX_PAYLOAD;
    uint64_t nseats = (uint64_t)players->valuedouble, nends = 0, nkinds = 0, nmetrics = 0;
    while (g->end_names[nends])
        nends++;
    while (g->kind_names && g->kind_names[nkinds])
        nkinds++;
    while (g->metrics && g->metrics[nmetrics].name)
        nmetrics++;
    /* an accumulator: tag, n, hits, sum, sumsq, min, max, cell count; a cell 16 bytes */
    uint64_t acc_bytes = 8 * 3 + 16 * 2 + 8 * 3;
    uint64_t fixed = 8 * (2 + 8 + nends + 1 + 2 * nseats * nkinds + 3 * nseats);
    /* with populations, up to RUN_MAX_TYPES types of player, each with every figure */
    uint64_t accs = 1 + 2 * nseats + nmetrics * REC_SLOTS +
                    1 + (nmetrics + REC_TYPE_BUILTINS) * RUN_MAX_TYPES;
    return fixed + accs * acc_bytes + 16 * (uint64_t)PARTIAL_MAX_CELLS;
}

int partial_read_file(const char *path, cJSON **identity, unsigned char **payload, size_t *len,
                      char *err, size_t errlen)
{
    *identity = NULL;
    *payload = NULL;
    /* Only a regular file: a FIFO nobody writes would block the open or the read for ever,
     * a device or a directory is no part. Checked before the open (which blocks on a FIFO
     * and has effects on some devices), and again on what was opened, without blocking
     * (O_NONBLOCK, cleared once it is known to be a regular file). */
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    int fd = S_ISREG(st.st_mode) ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
    if (fd >= 0 && fstat(fd, &st) != 0) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        const char *kind = S_ISFIFO(st.st_mode)   ? "a FIFO"
                           : S_ISCHR(st.st_mode)  ? "a character device"
                           : S_ISBLK(st.st_mode)  ? "a block device"
                           : S_ISDIR(st.st_mode)  ? "a directory"
                           : S_ISSOCK(st.st_mode) ? "a socket"
                                                  : "not a file";
        snprintf(err, errlen, "'%s' is %s, not a partial result: --merge reads the regular files "
                              "--shard writes", path, kind);
        if (fd >= 0)
            close(fd);
        return -1;
    }
    FILE *f = NULL;
    if (fd < 0 || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
        (f = fdopen(fd, "rb")) == NULL) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int rc = partial_read_stream(f, path, identity, payload, len, err, errlen);
    fclose(f);
    return rc;
}

int partial_read_stream(FILE *f, const char *path, cJSON **identity, unsigned char **payload,
                        size_t *len, char *err, size_t errlen)
{
    *identity = NULL;
    *payload = NULL;
    /* Bounded at every step: the magic line, an identity line of at most
     * PARTIAL_MAX_IDENTITY bytes, the payload's length (refused beyond the identity's cap
     * before a byte of it is read), the payload, the checksum, then nothing. */
    size_t ml = strlen(magic);
    pbuf b = {0};
    unsigned char chunk[65536];
    int rc = -1;
    cJSON *id = NULL;
    if (!read_exactly(f, chunk, ml) || memcmp(chunk, magic, ml) != 0) {
        if (ferror(f))
            snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        else
            snprintf(err, errlen, "'%s' is not a giochi-sim partial result (written by --shard)",
                     path);
        goto out;
    }
    put(&b, chunk, ml);
    int ch;
    while ((ch = getc(f)) != EOF && ch != '\n' && b.len - ml < PARTIAL_MAX_IDENTITY)
        put(&b, &(unsigned char){(unsigned char)ch}, 1);
    if (ch != '\n') {
        if (ferror(f))
            snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        else if (ch == EOF)
            snprintf(err, errlen, "'%s' is truncated", path);
        else
            snprintf(err, errlen, "'%s' has an identity line longer than %d bytes", path,
                     PARTIAL_MAX_IDENTITY);
        goto out;
    }
    put(&b, "", 1); /* the identity's text ends here; the newline replaces it below */
    size_t head = b.len;
    char perr[256];
    id = rules_parse((const char *)b.p + ml, path, perr, sizeof perr);
    if (b.oom || id == NULL || !cJSON_IsObject(id)) {
        snprintf(err, errlen, b.oom ? "cannot read '%s': out of memory"
                                    : "'%s' has a malformed identity", path);
        goto out;
    }
    b.p[head - 1] = '\n';
    if (!read_exactly(f, chunk, 8)) {
        snprintf(err, errlen, "'%s' is truncated", path);
        goto out;
    }
    put(&b, chunk, 8);
    reader r = {chunk, chunk + 8, false};
    uint64_t plen = get_u64(&r), cap = payload_cap(id);
    if (plen > cap) {
        snprintf(err, errlen, "'%s' declares %llu bytes of results, more than its identity "
                 "allows (%llu)", path, (unsigned long long)plen, (unsigned long long)cap);
        goto out;
    }
    const cJSON *mac = cJSON_GetObjectItemCaseSensitive(id, "mac");
    if (mac != NULL && !(cJSON_IsString(mac) && strcmp(mac->valuestring, mac_name) == 0)) {
        snprintf(err, errlen, "'%s' has a malformed identity (mac)", path);
        goto out;
    }
    size_t maclen = mac ? SHA256_BYTES : 0; /* the MAC follows the checksum */
    for (uint64_t left = plen + 8 + maclen; left > 0 && !b.oom;) {
        size_t want = left < sizeof chunk ? (size_t)left : sizeof chunk;
        if (!read_exactly(f, chunk, want)) {
            if (ferror(f))
                snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
            else
                snprintf(err, errlen, "'%s' is truncated", path);
            goto out;
        }
        put(&b, chunk, want);
        left -= want;
    }
    if (b.oom) {
        snprintf(err, errlen, "cannot read '%s': out of memory", path);
        goto out;
    }
    if (getc(f) != EOF) {
        snprintf(err, errlen, "'%s' is truncated or has bytes after its end", path);
        goto out;
    }
    size_t signed_len = b.len - maclen; /* magic to checksum */
    reader t = {b.p + signed_len - 8, b.p + signed_len, false};
    if (get_u64(&t) != fnv1a(FNV_BASIS, b.p, signed_len - 8)) {
        snprintf(err, errlen, "'%s' is corrupted (checksum mismatch)", path);
        goto out;
    }
    unsigned char key[PARTIAL_KEY_MAX];
    size_t klen = 0;
    int keyed = partial_key(key, &klen, err, errlen);
    if (keyed < 0)
        goto out;
    if (keyed && mac == NULL) {
        snprintf(err, errlen, "'%s' carries no MAC, and GIOCHI_PART_KEY asks for one (write "
                 "the part with the key set)", path);
        goto out;
    }
    if (keyed) {
        unsigned char want[SHA256_BYTES], diff = 0;
        hmac_sha256(key, klen, b.p, signed_len, want);
        for (int i = 0; i < SHA256_BYTES; i++) /* in constant time */
            diff |= (unsigned char)(want[i] ^ b.p[signed_len + i]);
        memset(key, 0, sizeof key);
        if (diff != 0) {
            snprintf(err, errlen, "'%s' fails its MAC check: written with another key, or "
                     "altered since (GIOCHI_PART_KEY)", path);
            goto out;
        }
    }
    cJSON_DeleteItemFromObjectCaseSensitive(id, "mac"); /* keyed or not, the same run */
    *payload = malloc(plen ? (size_t)plen : 1);
    if (*payload == NULL) {
        snprintf(err, errlen, "cannot read '%s': out of memory", path);
        goto out;
    }
    memcpy(*payload, b.p + head + 8, (size_t)plen);
    *len = (size_t)plen;
    *identity = id;
    id = NULL;
    rc = 0;
out:
    cJSON_Delete(id);
    free(b.p);
    return rc;
}

int partial_identity_check(cJSON *id, const char *path, const char *version,
                           uint64_t max_shards, uint64_t *index, uint64_t *count, char *err,
                           size_t errlen)
{
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(id, "version");
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(id, "format");
    if (cJSON_IsNumber(fmt) && fmt->valuedouble != PARTIAL_FORMAT) {
        snprintf(err, errlen, "'%s' is a partial result of format %g; this giochi-sim reads "
                 "format %d: play that shard again with this version", path, fmt->valuedouble,
                 PARTIAL_FORMAT);
        return -1;
    }
    if (!cJSON_IsString(ver) || strcmp(ver->valuestring, version) != 0 || !cJSON_IsNumber(fmt)) {
        snprintf(err, errlen, "'%s' was written by giochi-sim %s; this is %s: play that shard "
                 "again with this version", path,
                 cJSON_IsString(ver) ? ver->valuestring : "of another format", version);
        return -1;
    }
    const cJSON *si = cJSON_GetObjectItemCaseSensitive(id, "shard");
    const cJSON *sn = cJSON_GetObjectItemCaseSensitive(id, "shards");
    if (!cJSON_IsNumber(si) || !cJSON_IsNumber(sn) || sn->valuedouble < 1 ||
        si->valuedouble < 0 || si->valuedouble >= sn->valuedouble ||
        sn->valuedouble > (double)max_shards || si->valuedouble != (double)(uint64_t)si->valuedouble) {
        snprintf(err, errlen, "'%s' has a malformed identity (shard)", path);
        return -1;
    }
    *index = (uint64_t)si->valuedouble;
    *count = (uint64_t)sn->valuedouble;
    cJSON_DeleteItemFromObjectCaseSensitive(id, "shard");
    return 0;
}

void partial_shard_range(uint64_t runs, uint64_t index, uint64_t shards, uint64_t *first,
                         uint64_t *count)
{
    unsigned __int128 a = (unsigned __int128)runs * index / shards;
    unsigned __int128 b = (unsigned __int128)runs * (index + 1) / shards;
    *first = (uint64_t)a;
    *count = (uint64_t)(b - a);
}
