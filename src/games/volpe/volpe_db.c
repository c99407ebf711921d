/* volpe_db.c — groups, ranks and group files of the solved positions of La volpe e le oche:
 * one file a group, a 64-byte header, one value byte a position, the SHA-256 of both. */
#include "games/volpe/volpe_db.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "dist/sha256.h"

/* ---- groups and ranks ---------------------------------------------------------------- */

static const int row_start[VOLPE_ROWS] = {0, 3, 6, 13, 20, 27, 30};
static const int row_width[VOLPE_ROWS] = {3, 3, 7, 7, 7, 3, 3};

/* Binomials up to 33, colex ranks of the masks of 7 bits and their inverse. */
static uint64_t binom[34][34];
static uint8_t mask_rank[128];
static uint8_t rank_mask[8][35];
static uint8_t mask_count[128]; /* bits set in a row's mask */
static const int radix[VOLPE_ROWS] = {1, 4, 16, 128, 1024, 8192, 32768}; /* profile code */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_build(void)
{
    for (int n = 0; n < 34; n++) {
        binom[n][0] = 1;
        for (int k = 1; k <= n; k++)
            binom[n][k] = binom[n - 1][k - 1] + (k <= n - 1 ? binom[n - 1][k] : 0);
    }
    /* Colex rank: the sum of C(position, i + 1) over the i-th set bit. Masks below 2^w of
     * n bits rank 0..C(w, n)-1, so one table serves rows of 3 and of 7 points. */
    for (int m = 0; m < 128; m++) {
        int r = 0, i = 0;
        for (int p = 0; p < 7; p++)
            if (m >> p & 1)
                r += (int)binom[p][++i];
        mask_rank[m] = (uint8_t)r;
        mask_count[m] = (uint8_t)i;
        rank_mask[i][r] = (uint8_t)m;
    }
}

static void tables(void)
{
    pthread_once(&tables_once, tables_build);
}

volpe_group volpe_group_of(uint32_t code)
{
    tables();
    volpe_group g;
    g.code = code;
    g.count = g.advance = 0;
    uint64_t combos = 1;
    for (int y = 0; y < VOLPE_ROWS; y++) {
        g.n[y] = (int)(code % (uint32_t)(row_width[y] + 1));
        code /= (uint32_t)(row_width[y] + 1);
        g.count += g.n[y];
        g.advance += y * g.n[y];
        combos *= binom[row_width[y]][g.n[y]];
    }
    g.size = combos * (uint64_t)(VOLPE_POINTS - g.count) * 2;
    return g;
}

static uint64_t row_bits(uint64_t geese, int y)
{
    return geese >> row_start[y] & ((1u << row_width[y]) - 1);
}

uint32_t volpe_profile(uint64_t geese)
{
    tables();
    uint32_t code = 0;
    for (int y = 0; y < VOLPE_ROWS; y++)
        code += (uint32_t)radix[y] * mask_count[row_bits(geese, y)];
    return code;
}

void volpe_group_name(const volpe_group *g, char *buf)
{
    buf[0] = 'g';
    for (int y = 0; y < VOLPE_ROWS; y++)
        buf[1 + y] = (char)('0' + g->n[y]);
    buf[1 + VOLPE_ROWS] = '\0';
}

bool volpe_group_below(const volpe_group *a, const volpe_group *b)
{
    int sa = 0, sb = 0;
    for (int y = 0; y < VOLPE_ROWS; y++) {
        sa += a->n[y];
        sb += b->n[y];
        if (sa > sb)
            return false;
    }
    return true;
}

uint64_t volpe_rank(uint64_t geese, int fox, int side)
{
    tables();
    uint64_t r = 0, mult = 1;
    int k = 0;
    for (int y = 0; y < VOLPE_ROWS; y++) {
        uint64_t m = row_bits(geese, y);
        r += mult * mask_rank[m];
        mult *= binom[row_width[y]][mask_count[m]];
        k += mask_count[m];
    }
    uint64_t empty = ((1ull << VOLPE_POINTS) - 1) & ~geese;
    uint64_t f = (uint64_t)volpe_popcount(empty & ((1ull << fox) - 1));
    return (r * (uint64_t)(VOLPE_POINTS - k) + f) * 2 + (uint64_t)side;
}

void volpe_unrank(const volpe_group *g, uint64_t rank, uint64_t *geese, int *fox, int *side)
{
    tables();
    *side = (int)(rank & 1);
    rank >>= 1;
    uint64_t f = rank % (uint64_t)(VOLPE_POINTS - g->count);
    uint64_t r = rank / (uint64_t)(VOLPE_POINTS - g->count), set = 0;
    for (int y = 0; y < VOLPE_ROWS; y++) {
        uint64_t c = binom[row_width[y]][g->n[y]];
        set |= (uint64_t)rank_mask[g->n[y]][r % c] << row_start[y];
        r /= c;
    }
    uint64_t empty = ((1ull << VOLPE_POINTS) - 1) & ~set;
    for (; f; f--)
        empty &= empty - 1;
    *geese = set;
    *fox = __builtin_ctzll(empty);
}

volpe_db_key volpe_db_key_of(const volpe_rules *r)
{
    volpe_db_key k = {(int)r->diagonals, (int)r->geese_blocked,
                      volpe_popcount(r->geese) - r->fox_wins_at};
    return k;
}

/* ---- files --------------------------------------------------------------------------- */

enum { HEADER = 64 };
static const char magic[8] = {'G', 'S', 'V', 'O', 'L', 'P', 'E', '1'};

typedef struct slot {
    uint8_t *values; /* NULL: not loaded */
    uint64_t used;   /* the use clock when last asked for */
} slot;

struct volpe_db {
    char *dir;
    volpe_db_key key;
    slot *slots; /* VOLPE_PROFILES of them */
    uint64_t clock, loaded;
    pthread_mutex_t lock;
};

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* The header of group g's file under key: magic, key, code, size. */
static void header_make(const volpe_db *db, const volpe_group *g, unsigned char *h)
{
    memset(h, 0, HEADER);
    memcpy(h, magic, sizeof magic);
    put32(h + 8, (uint32_t)db->key.diagonals);
    put32(h + 12, (uint32_t)db->key.blocked);
    put32(h + 16, (uint32_t)db->key.threshold);
    put32(h + 20, g->code);
    put64(h + 24, g->size);
}

static char *file_path(const volpe_db *db, const volpe_group *g, const char *suffix)
{
    char name[16];
    volpe_group_name(g, name);
    size_t n = strlen(db->dir) + strlen(name) + strlen(suffix) + 8;
    char *path = xmalloc(n);
    snprintf(path, n, "%s/%s.vdb%s", db->dir, name, suffix);
    return path;
}

volpe_db *volpe_db_open(const char *dir, volpe_db_key key, bool create, char *err,
                        size_t errlen)
{
    struct stat st;
    if (create && stat(dir, &st) != 0 && mkdir(dir, 0777) != 0) {
        snprintf(err, errlen, "cannot make the database directory '%s' (%s)", dir,
                 strerror(errno));
        return NULL;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "no database directory '%s' (solve one with --solve=%s)", dir,
                 dir);
        return NULL;
    }
    volpe_db *db = xcalloc(1, sizeof *db);
    db->dir = xmalloc(strlen(dir) + 1);
    strcpy(db->dir, dir);
    db->key = key;
    db->slots = xcalloc(VOLPE_PROFILES, sizeof *db->slots);
    pthread_mutex_init(&db->lock, NULL);
    return db;
}

void volpe_db_close(volpe_db *db)
{
    if (db == NULL)
        return;
    for (uint32_t c = 0; c < VOLPE_PROFILES; c++)
        free(db->slots[c].values);
    free(db->slots);
    free(db->dir);
    pthread_mutex_destroy(&db->lock);
    free(db);
}

const char *volpe_db_dir(const volpe_db *db)
{
    return db->dir;
}

/* Reads and checks group g's file; with `keep`, returns its values (else NULL on success
 * too). *state says how it stands. */
static uint8_t *file_read(volpe_db *db, const volpe_group *g, bool full, bool keep,
                          volpe_file_state *state, char *err, size_t errlen)
{
    char *path = file_path(db, g, "");
    char name[16];
    volpe_group_name(g, name);
    uint8_t *values = NULL;
    FILE *f = fopen(path, "rb");
    struct stat st;
    unsigned char h[HEADER], want[HEADER];
    *state = VOLPE_FILE_BAD;
    if (f == NULL) {
        *state = VOLPE_FILE_MISSING;
        snprintf(err, errlen, "group %s is not solved in %s (no %s.vdb)", name, db->dir, name);
        goto done;
    }
    header_make(db, g, want);
    if (fstat(fileno(f), &st) != 0 || (uint64_t)st.st_size != HEADER + g->size + SHA256_BYTES ||
        fread(h, 1, HEADER, f) != HEADER) {
        snprintf(err, errlen, "%s: not %llu bytes long (a broken or foreign file)", path,
                 (unsigned long long)(HEADER + g->size + SHA256_BYTES));
        goto done;
    }
    if (memcmp(h, want, 20) != 0 && memcmp(h, want, 8) == 0 && memcmp(h + 20, want + 20, 12) == 0) {
        *state = VOLPE_FILE_OTHER;
        snprintf(err, errlen, "%s: solved under other rules (diagonals, geese_blocked or the "
                 "geese left when the fox wins differ)", path);
        goto done;
    }
    if (memcmp(h, want, HEADER) != 0) {
        snprintf(err, errlen, "%s: not the header of group %s", path, name);
        goto done;
    }
    if (!full) {
        *state = VOLPE_FILE_OK;
        goto done;
    }
    values = xmalloc(g->size ? g->size : 1);
    unsigned char sum[SHA256_BYTES], got[SHA256_BYTES];
    if (fread(values, 1, g->size, f) != g->size || fread(sum, 1, SHA256_BYTES, f) != SHA256_BYTES) {
        snprintf(err, errlen, "%s: cannot be read (%s)", path, strerror(errno));
        goto done;
    }
    sha256 s;
    sha256_init(&s);
    sha256_add(&s, h, HEADER);
    sha256_add(&s, values, g->size);
    sha256_end(&s, got);
    if (memcmp(sum, got, SHA256_BYTES) != 0) {
        snprintf(err, errlen, "%s: checksum mismatch (a damaged file: --solve solves it again)",
                 path);
        goto done;
    }
    *state = VOLPE_FILE_OK;
done:
    if (f)
        fclose(f);
    free(path);
    if (*state != VOLPE_FILE_OK || !keep) {
        free(values);
        values = NULL;
    }
    return values;
}

volpe_file_state volpe_db_check(volpe_db *db, const volpe_group *g, bool full, char *err,
                                size_t errlen)
{
    volpe_file_state state;
    file_read(db, g, full, false, &state, err, errlen);
    return state;
}

const uint8_t *volpe_db_get(volpe_db *db, const volpe_group *g, char *err, size_t errlen)
{
    pthread_mutex_lock(&db->lock);
    slot *s = &db->slots[g->code];
    if (s->values == NULL) {
        volpe_file_state state;
        s->values = file_read(db, g, true, true, &state, err, errlen);
        if (s->values)
            db->loaded += g->size;
    }
    s->used = ++db->clock;
    const uint8_t *v = s->values;
    pthread_mutex_unlock(&db->lock);
    return v;
}

int volpe_db_put(volpe_db *db, const volpe_group *g, uint8_t *values, char *err,
                 size_t errlen)
{
    char suffix[32];
    snprintf(suffix, sizeof suffix, ".tmp%ld", (long)getpid()); /* runs may share dir */
    char *tmp = file_path(db, g, suffix), *path = file_path(db, g, "");
    unsigned char h[HEADER], sum[SHA256_BYTES];
    header_make(db, g, h);
    sha256 s;
    sha256_init(&s);
    sha256_add(&s, h, HEADER);
    sha256_add(&s, values, g->size);
    sha256_end(&s, sum);
    FILE *f = fopen(tmp, "wb");
    int rc = -1;
    if (f == NULL) {
        snprintf(err, errlen, "cannot write '%s' (%s)", tmp, strerror(errno));
    } else {
        bool ok = fwrite(h, 1, HEADER, f) == HEADER &&
                  fwrite(values, 1, g->size, f) == g->size &&
                  fwrite(sum, 1, SHA256_BYTES, f) == SHA256_BYTES;
        ok = fflush(f) == 0 && ok;
        ok = fclose(f) == 0 && ok;
        if (!ok || rename(tmp, path) != 0) {
            snprintf(err, errlen, "cannot write '%s' (%s)", path, strerror(errno));
            unlink(tmp);
        } else {
            rc = 0;
        }
    }
    if (rc == 0) {
        pthread_mutex_lock(&db->lock);
        slot *sl = &db->slots[g->code];
        if (sl->values == NULL) {
            sl->values = xmalloc(g->size ? g->size : 1);
            memcpy(sl->values, values, g->size);
            db->loaded += g->size;
        }
        sl->used = ++db->clock;
        pthread_mutex_unlock(&db->lock);
    }
    free(tmp);
    free(path);
    return rc;
}

void volpe_db_trim(volpe_db *db, uint64_t max_bytes)
{
    pthread_mutex_lock(&db->lock);
    while (db->loaded > max_bytes) {
        uint32_t oldest = VOLPE_PROFILES;
        for (uint32_t c = 0; c < VOLPE_PROFILES; c++)
            if (db->slots[c].values &&
                (oldest == VOLPE_PROFILES || db->slots[c].used < db->slots[oldest].used))
                oldest = c;
        if (oldest == VOLPE_PROFILES)
            break;
        free(db->slots[oldest].values);
        db->slots[oldest].values = NULL;
        db->loaded -= volpe_group_of(oldest).size;
    }
    pthread_mutex_unlock(&db->lock);
}

uint64_t volpe_db_loaded(const volpe_db *db)
{
    return db->loaded;
}

int volpe_db_value(volpe_db *db, uint64_t geese, int fox, int side, char *err,
                   size_t errlen)
{
    if (volpe_popcount(geese) <= db->key.threshold)
        return VOLPE_LOSS;
    volpe_group g = volpe_group_of(volpe_profile(geese));
    const uint8_t *v = volpe_db_get(db, &g, err, errlen);
    return v ? v[volpe_rank(geese, fox, side)] : -1;
}

/* ---- the perfect bot's database ------------------------------------------------------- */

static const char *shared_dir;
static volpe_db *shared;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

void volpe_db_set_dir(const char *dir)
{
    shared_dir = dir;
}

volpe_db *volpe_db_shared(volpe_db_key key, bool create, char *err, size_t errlen)
{
    pthread_mutex_lock(&shared_lock);
    volpe_db *db = NULL;
    if (shared_dir == NULL) {
        snprintf(err, errlen, "no database named (--db=DIR, made by --solve=DIR)");
    } else if (shared && memcmp(&shared->key, &key, sizeof key) != 0) {
        snprintf(err, errlen, "the perfect bot plays one ruleset's database per run");
    } else {
        if (shared == NULL)
            shared = volpe_db_open(shared_dir, key, create, err, errlen);
        db = shared;
    }
    pthread_mutex_unlock(&shared_lock);
    return db;
}
