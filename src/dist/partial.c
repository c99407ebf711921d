/* partial.c — run results as portable bytes, and the self-checking partial-result file. */
#include "dist/partial.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config/rules.h"

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

/* Reads an accumulator into a (zeroed). */
static void get_acc(reader *r, acc *a)
{
    uint64_t tag = get_u64(r);
    if (tag == 0 || r->bad)
        return;
    if (tag > 3) {
        r->bad = true;
        return;
    }
    a->n = (int64_t)get_u64(r);
    a->hits = (int64_t)get_u64(r);
    if (tag == 1)
        return;
    a->sum = get_i128(r);
    a->sumsq = get_i128(r);
    a->min = (int64_t)get_u64(r);
    a->max = (int64_t)get_u64(r);
    if (tag == 3) {
        a->wide = true;
        return;
    }
    uint64_t span = (uint64_t)a->max - (uint64_t)a->min + 1, cells = get_u64(r);
    if (r->bad || a->max < a->min || span > ACC_MAX_SPAN || cells > span ||
        cells > (uint64_t)(r->end - r->p) / 16) {
        r->bad = true;
        return;
    }
    a->lo = a->min;
    a->len = (int64_t)span;
    a->count = calloc((size_t)span, sizeof *a->count);
    if (a->count == NULL) {
        r->bad = true;
        return;
    }
    for (uint64_t i = 0; i < cells; i++) {
        uint64_t off = get_u64(r), c = get_u64(r);
        if (off >= span) {
            r->bad = true;
            return;
        }
        a->count[off] = (int64_t)c;
    }
}

int partial_get_result(const unsigned char **p, const unsigned char *end, const run_config *cfg,
                       run_result *res, char *err, size_t errlen)
{
    reader r = {*p, end, false};
    run_result_init(res, cfg, false);
    uint64_t format = get_u64(&r), nseats = get_u64(&r), nmetrics = get_u64(&r),
             nends = get_u64(&r);
    if (!r.bad && format != PARTIAL_FORMAT) {
        snprintf(err, errlen, "partial result of format %llu, this giochi-sim reads format %d",
                 (unsigned long long)format, PARTIAL_FORMAT);
        run_result_free(res);
        return -1;
    }
    if (!r.bad && (nseats != (uint64_t)cfg->nseats || nmetrics != (uint64_t)res->rec->nmetrics ||
                   nends != (uint64_t)res->nends)) {
        snprintf(err, errlen, "partial result does not fit the game %s with %d players",
                 cfg->game->name, cfg->nseats);
        run_result_free(res);
        return -1;
    }
    res->games = get_u64(&r);
    res->tied_games = (int64_t)get_u64(&r);
    res->no_winner = (int64_t)get_u64(&r);
    uint64_t wbits = get_u64(&r);
    memcpy(&res->wall_seconds, &wbits, sizeof wbits);
    for (int e = 0; e < res->nends; e++)
        res->end_count[e] = (int64_t)get_u64(&r);
    if (get_u64(&r) != (uint64_t)res->nkinds && !r.bad) {
        snprintf(err, errlen, "partial result does not fit the game %s (decision kinds)",
                 cfg->game->name);
        run_result_free(res);
        return -1;
    }
    for (int i = 0; i < 2 * cfg->nseats * res->nkinds; i++)
        res->choices[i] = (int64_t)get_u64(&r);
    get_acc(&r, &res->length);
    for (int k = 0; k < cfg->nseats; k++) {
        get_acc(&r, &res->score[k]);
        get_acc(&r, &res->rank[k]);
        res->win_units[k] = (int64_t)get_u64(&r);
        res->wins_alone[k] = (int64_t)get_u64(&r);
        res->wins_shared[k] = (int64_t)get_u64(&r);
    }
    for (int m = 0; m < res->rec->nmetrics; m++)
        for (int slot = 0; slot < REC_SLOTS; slot++)
            get_acc(&r, &res->rec->a[m * REC_SLOTS + slot]);
    if (r.bad) {
        snprintf(err, errlen, "partial result is truncated or malformed");
        run_result_free(res);
        return -1;
    }
    *p = r.p;
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
    if (partial_get_result(&r.p, end, cfg, res, err, errlen) != 0)
        return -1;
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

int partial_write_file(FILE *f, const cJSON *identity, const pbuf *payload)
{
    char *id = cJSON_PrintUnformatted(identity);
    if (id == NULL || payload->oom)
        return errno = ENOMEM, -1;
    pbuf all = {0};
    put(&all, magic, strlen(magic));
    put(&all, id, strlen(id));
    put(&all, "\n", 1);
    cJSON_free(id);
    put_u64(&all, (uint64_t)payload->len);
    put(&all, payload->p, payload->len);
    put_u64(&all, fnv1a(FNV_BASIS, all.p, all.len));
    int rc = 0;
    if (all.oom)
        rc = (errno = ENOMEM, -1);
    else if (fwrite(all.p, 1, all.len, f) != all.len)
        rc = -1;
    free(all.p);
    return rc;
}

int partial_read_file(const char *path, cJSON **identity, unsigned char **payload, size_t *len,
                      char *err, size_t errlen)
{
    *identity = NULL;
    *payload = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    pbuf b = {0};
    unsigned char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        put(&b, chunk, n);
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed || b.oom) {
        snprintf(err, errlen, "cannot read '%s': %s", path, b.oom ? "out of memory" : "read error");
        free(b.p);
        return -1;
    }
    size_t ml = strlen(magic);
    if (b.len < ml || memcmp(b.p, magic, ml) != 0) {
        snprintf(err, errlen, "'%s' is not a giochi-sim partial result (written by --shard)", path);
        free(b.p);
        return -1;
    }
    unsigned char *nl = b.len > ml ? memchr(b.p + ml, '\n', b.len - ml) : NULL;
    size_t head = nl ? (size_t)(nl - b.p) + 1 : 0;
    if (nl == NULL || b.len < head + 16) {
        snprintf(err, errlen, "'%s' is truncated", path);
        free(b.p);
        return -1;
    }
    reader r = {b.p + head, b.p + b.len, false};
    uint64_t plen = get_u64(&r);
    if (plen != b.len - head - 16) {
        snprintf(err, errlen, "'%s' is truncated or has bytes after its end", path);
        free(b.p);
        return -1;
    }
    reader t = {b.p + b.len - 8, b.p + b.len, false};
    if (get_u64(&t) != fnv1a(FNV_BASIS, b.p, b.len - 8)) {
        snprintf(err, errlen, "'%s' is corrupted (checksum mismatch)", path);
        free(b.p);
        return -1;
    }
    *nl = '\0';
    char perr[256];
    cJSON *id = rules_parse((const char *)b.p + ml, path, perr, sizeof perr);
    if (id == NULL || !cJSON_IsObject(id)) {
        snprintf(err, errlen, "'%s' has a malformed identity", path);
        cJSON_Delete(id);
        free(b.p);
        return -1;
    }
    *payload = malloc(plen ? plen : 1);
    if (*payload == NULL) {
        snprintf(err, errlen, "cannot read '%s': out of memory", path);
        cJSON_Delete(id);
        free(b.p);
        return -1;
    }
    memcpy(*payload, r.p, plen);
    *len = plen;
    *identity = id;
    free(b.p);
    return 0;
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
