/* volpe.c — La volpe e le oche (Fox and Geese with 17 geese on the 33-point cross), following
 * seed 004: the fox moves first, steps any way and takes geese by jumping them, several jumps
 * allowed and none compulsory; geese step forward or sideways; 12 geese taken win for the
 * fox, a fox that cannot move loses. Positions are bitboards of the 33 points. */
#include "games/volpe/volpe.h"

#include <stdlib.h>
#include <string.h>

#include "core/course_rec.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "config/rules.h"

/* ---- the board ----------------------------------------------------------------------- */

/* First point of each row (row 1 first): rows 1, 2, 6 and 7 hold columns C..E only. */
static const int row_start[7] = {0, 3, 6, 13, 20, 27, 30};

static bool arm_row(int y)
{
    return y < 2 || y > 4;
}

int volpe_point(int x, int y)
{
    if (x < 0 || x > 6 || y < 0 || y > 6)
        return -1;
    if (arm_row(y))
        return x >= 2 && x <= 4 ? row_start[y] + x - 2 : -1;
    return row_start[y] + x;
}

int volpe_y(int p)
{
    int y = 6;
    while (row_start[y] > p)
        y--;
    return y;
}

int volpe_x(int p)
{
    int y = volpe_y(p);
    return p - row_start[y] + (arm_row(y) ? 2 : 0);
}

int volpe_parse_point(const char *name)
{
    if (name == NULL || name[0] < 'A' || name[0] > 'G' || name[1] < '1' || name[1] > '7' ||
        name[2] != '\0')
        return -1;
    return volpe_point(name[0] - 'A', name[1] - '1');
}

void volpe_point_name(int p, char *buf)
{
    buf[0] = (char)('A' + volpe_x(p));
    buf[1] = (char)('1' + volpe_y(p));
    buf[2] = '\0';
}

/* Directions N NE E SE S SW W NW; north is towards row 7, the way the geese go. */
static const int dir_x[VOLPE_DIRS] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int dir_y[VOLPE_DIRS] = {1, 1, 0, -1, -1, -1, 0, 1};
enum { DIR_N = 0, DIR_E = 2, DIR_W = 6 };
/* A goose's step forward adds 3 (rows 1-2, 6-7), 5 (rows 2-3, 5-6) or 7 (rows 3-5). */
static const int fwd_shift[3] = {3, 5, 7};
#define ALL_POINTS ((1ull << VOLPE_POINTS) - 1)

void volpe_board_build(volpe_board *b, volpe_diagonals diag)
{
    memset(b, 0, sizeof *b);
    for (int p = 0; p < VOLPE_POINTS; p++) {
        int x = volpe_x(p), y = volpe_y(p);
        for (int d = 0; d < VOLPE_DIRS; d++) {
            bool diagonal = d % 2 == 1;
            /* Alquerque lines: a diagonal step keeps x + y's parity, so a line through a
             * point with x + y even (as D4, the centre) stays on such points. */
            bool line = !diagonal || diag == VOLPE_DIAG_ALL ||
                        (diag == VOLPE_DIAG_ALQUERQUE && (x + y) % 2 == 0);
            int q = line ? volpe_point(x + dir_x[d], y + dir_y[d]) : -1;
            b->step[p][d] = (int8_t)q;
            if (q >= 0)
                b->steps[p] |= 1ull << q;
        }
    }
    for (int p = 0; p < VOLPE_POINTS; p++) { /* every step is known: the jumps */
        int x = volpe_x(p), y = volpe_y(p);
        for (int d = 0; d < VOLPE_DIRS; d++)
            if (b->step[p][d] >= 0 && b->step[b->step[p][d]][d] >= 0) {
                b->over[p][b->njumps[p]] = b->step[p][d];
                b->land[p][b->njumps[p]] = b->step[b->step[p][d]][d];
                b->njumps[p]++;
            }
        int to[3] = {b->step[p][DIR_N], volpe_point(x - 1, y), volpe_point(x + 1, y)};
        for (int k = 0; k < 3; k++) {
            b->goose_step[p][k] = (int8_t)to[k];
            b->goose_to[p] |= to[k] >= 0 ? 1ull << to[k] : 0;
        }
        b->west_from |= to[1] >= 0 ? 1ull << p : 0;
        b->east_from |= to[2] >= 0 ? 1ull << p : 0;
        for (int k = 0; k < 3; k++)
            b->fwd_from[k] |= to[0] == p + fwd_shift[k] ? 1ull << p : 0;
        for (int yy = 0; yy < y; yy++)
            if (volpe_point(x, yy) >= 0)
                b->below[p] |= 1ull << volpe_point(x, yy);
    }
}

/* ---- moves --------------------------------------------------------------------------- */

uint64_t volpe_key(const volpe_state *s)
{
    return s->geese | (uint64_t)s->fox << 33 | (uint64_t)s->side << 39 |
           (uint64_t)s->page << 40;
}

/* Index of goose g among the geese in point order. */
static int goose_rank(uint64_t geese, int g)
{
    return volpe_popcount(geese & ((1ull << g) - 1));
}

/* The distinct fox moves met so far: a short list scanned in place (most positions offer a
 * handful of chains), then an open-addressing set of action codes + 1 on the heap (a
 * position can offer thousands: 8732 were found with 17 geese). */
enum { SHORT_LIST = 64 };

typedef struct chain_walk {
    const volpe_board *b;
    uint64_t geese;     /* the geese before the move (the rank mask counts them) */
    uint32_t list[SHORT_LIST];
    uint32_t *slot;     /* NULL while the list is enough */
    size_t cap, n;      /* n: moves met, steps included */
    int nlist;
    int first, max;     /* the window of moves to write */
    int32_t *out;
    int most;           /* most geese taken by one move */
} chain_walk;

static void oom(void)
{
    fprintf(stderr, "giochi-sim: out of memory (volpe fox moves)\n");
    abort();
}

static void slot_put(uint32_t *slot, size_t cap, uint32_t key)
{
    size_t h = (key * 0x9e3779b9u) & (cap - 1);
    while (slot[h])
        h = (h + 1) & (cap - 1);
    slot[h] = key;
}

/* Grows (or creates) the set to twice its room, keeping what it holds. */
static void set_grow(chain_walk *w)
{
    size_t cap = w->slot ? w->cap * 2 : 4 * SHORT_LIST;
    uint32_t *slot = calloc(cap, sizeof *slot);
    if (slot == NULL)
        oom();
    if (w->slot) {
        for (size_t i = 0; i < w->cap; i++)
            if (w->slot[i])
                slot_put(slot, cap, w->slot[i]);
        free(w->slot);
    } else {
        for (int i = 0; i < w->nlist; i++)
            slot_put(slot, cap, w->list[i]);
    }
    w->slot = slot;
    w->cap = cap;
}

/* Adds code a to the moves met; false if it was met already. */
static bool set_add(chain_walk *w, uint32_t a)
{
    uint32_t key = a + 1;
    if (w->slot == NULL) {
        for (int i = 0; i < w->nlist; i++)
            if (w->list[i] == key)
                return false;
        if (w->nlist < SHORT_LIST) {
            w->list[w->nlist++] = key;
            w->n++;
            return true;
        }
        set_grow(w);
    }
    if (2 * (size_t)(w->nlist + 1) > w->cap)
        set_grow(w);
    size_t h = (key * 0x9e3779b9u) & (w->cap - 1);
    while (w->slot[h]) {
        if (w->slot[h] == key)
            return false;
        h = (h + 1) & (w->cap - 1);
    }
    w->slot[h] = key;
    w->nlist++;
    w->n++;
    return true;
}

/* Depth-first walk of the jump chains from pos with the geese `left`, having taken the rank
 * mask `taken`: each (landing point, geese taken) not met yet is a move, and the walk goes
 * on from it. A pair met already is not walked again: what follows depends on the pair. */
static void chains(chain_walk *w, uint64_t left, int pos, uint32_t taken, int count)
{
    const volpe_board *b = w->b;
    for (int j = 0; j < b->njumps[pos]; j++) {
        int o = b->over[pos][j], l = b->land[pos][j];
        if (!(left >> o & 1) || (left >> l & 1))
            continue;
        uint32_t t = taken | 1u << goose_rank(w->geese, o);
        uint32_t a = (uint32_t)l | t << 6;
        if (!set_add(w, a))
            continue;
        if (w->out && (int)w->n - 1 >= w->first && (int)w->n - 1 < w->first + w->max)
            w->out[w->n - 1 - (size_t)w->first] = (int32_t)a;
        w->most = count + 1 > w->most ? count + 1 : w->most;
        chains(w, left & ~(1ull << o), l, t, count + 1);
    }
}

int volpe_fox_moves(const volpe_board *b, uint64_t geese, int fox, int first, int max,
                    int32_t *out, int *most)
{
    chain_walk w;
    w.b = b;
    w.geese = geese;
    w.slot = NULL;
    w.cap = 0;
    w.n = 0;
    w.nlist = 0;
    w.first = first;
    w.max = max;
    w.out = out;
    w.most = 0;
    /* The steps first: codes with an empty mask, never met by the chains. */
    for (uint64_t m = b->steps[fox] & ~geese; m; m &= m - 1) {
        int i = (int)w.n++;
        if (out && i >= first && i < first + max)
            out[i - first] = __builtin_ctzll(m);
    }
    chains(&w, geese, fox, 0, 0);
    free(w.slot);
    if (most)
        *most = w.most;
    return (int)w.n;
}

int volpe_geese_moves(const volpe_board *b, uint64_t geese, int fox, int32_t *out)
{
    int n = 0;
    uint64_t empty = ALL_POINTS & ~geese & ~(1ull << fox);
    for (int k = 0; k < 3; k++)
        for (uint64_t m = geese & b->fwd_from[k] & (empty >> fwd_shift[k]); m; m &= m - 1) {
            int g = __builtin_ctzll(m);
            out[n++] = (g + fwd_shift[k]) | g << 6;
        }
    for (uint64_t m = geese & b->west_from & (empty << 1); m; m &= m - 1) {
        int g = __builtin_ctzll(m);
        out[n++] = (g - 1) | g << 6;
    }
    for (uint64_t m = geese & b->east_from & (empty >> 1); m; m &= m - 1) {
        int g = __builtin_ctzll(m);
        out[n++] = (g + 1) | g << 6;
    }
    return n;
}

/* Whether some goose can step. */
static bool geese_can_move(const volpe_board *b, uint64_t geese, int fox)
{
    uint64_t empty = ALL_POINTS & ~geese & ~(1ull << fox);
    return ((geese & b->fwd_from[0] & (empty >> 3)) | (geese & b->fwd_from[1] & (empty >> 5)) |
            (geese & b->fwd_from[2] & (empty >> 7)) | (geese & b->west_from & (empty << 1)) |
            (geese & b->east_from & (empty >> 1))) != 0;
}

int volpe_fox_mobility(const volpe_board *b, uint64_t geese, int fox)
{
    int n = volpe_popcount(b->steps[fox] & ~geese);
    for (int j = 0; j < b->njumps[fox]; j++)
        n += (geese >> b->over[fox][j] & 1) && !(geese >> b->land[fox][j] & 1);
    return n;
}

bool volpe_fox_can_move(const volpe_board *b, uint64_t geese, int fox)
{
    return volpe_fox_mobility(b, geese, fox) > 0;
}

int volpe_max_capture(const volpe_board *b, uint64_t geese, int fox)
{
    int most;
    volpe_fox_moves(b, geese, fox, 0, 0, NULL, &most);
    return most;
}

uint64_t volpe_captured_set(uint64_t geese, int32_t a)
{
    uint32_t rm = (uint32_t)a >> 6;
    uint64_t set = 0;
    for (uint64_t m = geese; m && rm; m &= m - 1, rm >>= 1)
        if (rm & 1)
            set |= m & -m;
    return set;
}

uint64_t volpe_fox_region(const volpe_board *b, uint64_t geese, int fox)
{
    uint64_t region = 1ull << fox, frontier = region;
    while (frontier) {
        uint64_t next = 0;
        for (uint64_t m = frontier; m; m &= m - 1)
            next |= b->steps[__builtin_ctzll(m)];
        frontier = next & ~geese & ~region;
        region |= frontier;
    }
    return region;
}

/* ---- rules --------------------------------------------------------------------------- */

static int32_t raw_worth(const volpe_board *b, uint64_t geese, int fox, int side, int captured);

static const char *const diagonal_names[] = {"all", "alquerque", "none", NULL};
static const char *const blocked_names[] = {"lose", "draw", "pass", NULL};

/* Reads the point named by string member key of obj ("D5") into *p. */
static int read_point(const cJSON *v, const char *key, int *p, char *err, size_t errlen)
{
    *p = cJSON_IsString(v) ? volpe_parse_point(v->valuestring) : -1;
    if (*p < 0)
        return rules_error(err, errlen, "", key,
                           "expected a point of the cross, A3..G5 or C1..E7 (e.g. \"D5\")");
    return 0;
}

int volpe_rules_load(void *out, const cJSON *json, char *err, size_t errlen)
{
    static const char *const keys[] = {"diagonals",     "fox",         "geese",
                                       "fox_wins_at",   "geese_blocked", "repetition",
                                       "no_progress_moves", "max_moves", NULL};
    volpe_rules *r = out;
    int diag, blocked, n;
    long wins, rep, quiet, cap;
    memset(r, 0, sizeof *r);
    if (rules_only_keys(json, "", keys, err, errlen) ||
        rules_enum(json, "", "diagonals", diagonal_names, &diag, err, errlen) ||
        read_point(cJSON_GetObjectItemCaseSensitive(json, "fox"), "fox", &r->fox, err,
                   errlen))
        return -1;
    const cJSON *geese = rules_array(json, "", "geese", 1, VOLPE_MAX_GEESE, err, errlen);
    if (geese == NULL)
        return -1;
    n = 0;
    for (const cJSON *v = geese->child; v; v = v->next, n++) {
        char key[32];
        int p;
        snprintf(key, sizeof key, "geese.%d", n + 1); /* counted from 1, as --set */
        if (read_point(v, key, &p, err, errlen))
            return -1;
        if (p == r->fox || (r->geese >> p & 1))
            return rules_error(err, errlen, "", key, "%s is taken already (by the %s)",
                               v->valuestring, p == r->fox ? "fox" : "goose listed before");
        r->geese |= 1ull << p;
    }
    if (rules_int(json, "", "fox_wins_at", 1, n, &wins, err, errlen) ||
        rules_enum(json, "", "geese_blocked", blocked_names, &blocked, err, errlen) ||
        rules_int(json, "", "repetition", 0, 10, &rep, err, errlen) ||
        rules_int(json, "", "no_progress_moves", 1, VOLPE_MAX_QUIET, &quiet, err, errlen) ||
        rules_int(json, "", "max_moves", 1, 1000000, &cap, err, errlen))
        return -1;
    if (rep == 1)
        return rules_error(err, errlen, "", "repetition",
                           "expected 0 (off) or 2..10 (the occurrence that draws)");
    r->diagonals = (volpe_diagonals)diag;
    r->fox_wins_at = (int)wins;
    r->geese_blocked = (volpe_blocked)blocked;
    r->repetition = (int)rep;
    r->no_progress_moves = (int)quiet;
    r->max_moves = (int)cap;
    volpe_board_build(&r->board, r->diagonals);
    r->eval_base = raw_worth(&r->board, r->geese, r->fox, VOLPE_FOX, 0);
    return 0;
}

/* ---- play ---------------------------------------------------------------------------- */

static void end_game(volpe_state *s, int end, uint32_t winners)
{
    s->over = true;
    s->end = end;
    s->winners = winners;
}

/* Writes the names of the points of set, in point order and space-separated, into buf. */
static void set_text(uint64_t set, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (; set && used + 4 < n; set &= set - 1) {
        char name[3];
        volpe_point_name(__builtin_ctzll(set), name);
        used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? " " : "", name);
    }
}

/* After a move (or at the start): ends the game if the fox has taken enough geese, or the
 * side to move cannot (after the geese's pass, if the rules let them pass), or the position
 * repeats, or nothing has progressed for too long, or the move cap is reached; otherwise
 * records the position. `irreversible`: the move captured or advanced a goose. */
static void settle(volpe_state *s, bool irreversible, trace *tr)
{
    const volpe_rules *r = s->rules;
    const volpe_board *b = &r->board;
    const uint32_t fox = 1u << VOLPE_FOX, geese = 1u << VOLPE_GEESE;
    if (s->captured >= r->fox_wins_at) {
        TRACE(tr, "the fox has taken %d geese: the fox wins", s->captured);
        end_game(s, VOLPE_END_FOX_CAPTURED, fox);
        return;
    }
    if (s->side == VOLPE_GEESE && !geese_can_move(b, s->geese, s->fox)) {
        if (r->geese_blocked != VOLPE_BLOCKED_PASS) {
            bool lose = r->geese_blocked == VOLPE_BLOCKED_LOSE;
            TRACE(tr, "the geese cannot move: %s", lose ? "the fox wins" : "a draw");
            end_game(s, VOLPE_END_GEESE_BLOCKED, lose ? fox : fox | geese);
            return;
        }
        TRACE(tr, "the geese cannot move: they pass");
        s->side = VOLPE_FOX;
    }
    if (s->side == VOLPE_FOX && !volpe_fox_can_move(b, s->geese, s->fox)) {
        char at[3];
        volpe_point_name(s->fox, at);
        TRACE(tr, "the fox cannot move from %s: the geese win", at);
        s->trapped_at = s->fox;
        end_game(s, VOLPE_END_FOX_TRAPPED, geese);
        return;
    }
    uint64_t k = volpe_key(s);
    s->quiet = irreversible ? 0 : s->quiet + 1;
    s->hist[s->quiet] = k;
    int seen = 1;
    for (int i = 0; i < s->quiet; i++)
        seen += s->hist[i] == k;
    if (r->repetition && seen >= r->repetition) {
        TRACE(tr, "the position occurs for the %d%s time: a draw", seen,
              seen == 2 ? "nd" : seen == 3 ? "rd" : "th");
        end_game(s, VOLPE_END_REPETITION, fox | geese);
    } else if (s->quiet >= r->no_progress_moves) {
        TRACE(tr, "%d moves without a capture or a goose advance: a draw", s->quiet);
        end_game(s, VOLPE_END_NO_PROGRESS, fox | geese);
    } else if (s->moves >= r->max_moves) {
        TRACE(tr, "the move cap of %d is reached: a draw", r->max_moves);
        end_game(s, VOLPE_END_MOVE_CAP, fox | geese);
    }
}

void volpe_start(void *st, const void *rules, int nseats, rng *chance, trace *tr)
{
    (void)nseats, (void)chance;
    volpe_state *s = st;
    const volpe_rules *r = rules;
    s->rules = r;
    s->geese = r->geese;
    s->fox = r->fox;
    s->side = VOLPE_FOX;
    s->over = false;
    s->end = 0;
    s->winners = 0;
    s->moves = s->captured = 0;
    s->fox_moves = s->capture_moves = s->multi_jumps = s->longest_chain = 0;
    s->trapped_at = -1;
    s->page = 0;
    s->quiet = 0;
    course_start(&s->course);
    if (tr) {
        char at[3], buf[128];
        volpe_point_name(s->fox, at);
        set_text(s->geese, buf, sizeof buf);
        TRACE(tr, "fox on %s, %d geese on %s; the fox moves first", at,
              volpe_popcount(s->geese), buf);
    }
    settle(s, true, tr);
}

bool volpe_decide(const void *st, decision *d)
{
    const volpe_state *s = st;
    if (s->over)
        return false;
    const volpe_board *b = &s->rules->board;
    d->seat = s->side;
    d->kind = s->side;
    if (s->side == VOLPE_GEESE) {
        d->n = volpe_geese_moves(b, s->geese, s->fox, d->action);
        return true;
    }
    /* More moves than a decision holds: pages of VOLPE_PAGE moves, each but the last
     * ending with VOLPE_MORE, which turns to the next page. */
    int first = s->page * VOLPE_PAGE;
    int total = volpe_fox_moves(b, s->geese, s->fox, first, GAME_MAX_ACTIONS, d->action, NULL);
    d->n = total - first;
    if (d->n > GAME_MAX_ACTIONS) {
        d->n = VOLPE_PAGE + 1;
        d->action[VOLPE_PAGE] = VOLPE_MORE;
    }
    return true;
}

/* Aborts on an action no decision of st could list (a caller's bug). */
static void illegal(const volpe_state *s, int32_t a)
{
    fprintf(stderr, "volpe: action 0x%x is not legal (side %d, fox %d, geese 0x%llx)\n",
            (unsigned)a, s->side, s->fox, (unsigned long long)s->geese);
    abort();
}

/* game_type.standing: the material against the fox's goal. The fox stands at twice the
 * geese it has taken less the geese it must take (fox_wins_at), the geese at the negation:
 * the geese are ahead until the fox has taken half its goal, the fox beyond. */
void volpe_standing(const void *st, int64_t *out)
{
    const volpe_state *s = st;
    out[VOLPE_FOX] = 2 * (int64_t)s->captured - s->rules->fox_wins_at;
    out[VOLPE_GEESE] = -out[VOLPE_FOX];
}

void volpe_apply(void *st, int32_t a, rng *chance, trace *tr)
{
    (void)chance;
    volpe_state *s = st;
    const volpe_board *b = &s->rules->board;
    if (a == VOLPE_MORE && !s->over && s->side == VOLPE_FOX) {
        int total = volpe_fox_moves(b, s->geese, s->fox, 0, 0, NULL, NULL);
        if (total - s->page * VOLPE_PAGE <= GAME_MAX_ACTIONS)
            illegal(s, a);
        s->page++;
        TRACE(tr, "fox: more moves (page %d of its %d moves)", s->page + 1, total);
        return;
    }
    int to = a & 63;
    if (s->over || a < 0 || to >= VOLPE_POINTS || (s->geese >> to & 1))
        illegal(s, a);
    char from_name[3] = "", to_name[3] = "";
    if (tr)
        volpe_point_name(to, to_name);
    if (s->side == VOLPE_FOX) {
        uint32_t rm = (uint32_t)a >> 6;
        int n = volpe_popcount(rm);
        if ((rm >> volpe_popcount(s->geese)) != 0 ||
            (n == 0 && !(b->steps[s->fox] >> to & 1)))
            illegal(s, a);
        uint64_t taken = volpe_captured_set(s->geese, a);
        if (tr) {
            char buf[128];
            volpe_point_name(s->fox, from_name);
            set_text(taken, buf, sizeof buf);
            TRACE(tr, "fox %s%c%s%s%s", from_name, n ? 'x' : '-', to_name, n ? " takes " : "",
                  buf);
        }
        s->geese &= ~taken;
        s->fox = to;
        s->page = 0;
        s->captured += n;
        s->fox_moves++;
        s->capture_moves += n > 0;
        s->multi_jumps += n > 1;
        s->longest_chain = n > s->longest_chain ? n : s->longest_chain;
        s->side = VOLPE_GEESE;
        s->moves++;
        settle(s, n > 0, tr);
    } else {
        int from = (a >> 6) & 63;
        if ((a >> 12) != 0 || from >= VOLPE_POINTS || !(s->geese >> from & 1) ||
            !(b->goose_to[from] >> to & 1) || to == s->fox)
            illegal(s, a);
        if (tr)
            volpe_point_name(from, from_name);
        TRACE(tr, "goose %s-%s", from_name, to_name);
        s->geese ^= 1ull << from | 1ull << to;
        s->side = VOLPE_FOX;
        s->moves++;
        settle(s, volpe_y(to) > volpe_y(from), tr);
    }
    int64_t v[2];
    volpe_standing(s, v);
    course_note(&s->course, v, 2);
}

void volpe_finish(const void *st, outcome *o, recorder *rec)
{
    const volpe_state *s = st;
    o->nseats = 2;
    o->length = s->moves;
    o->end = s->end;
    o->winners = s->winners;
    o->score[VOLPE_FOX] = s->captured;
    o->score[VOLPE_GEESE] = volpe_popcount(s->geese);
    for (int k = 0; k < 2; k++)
        o->rank[k] = (s->winners >> k & 1) ? 1 : 2;
    if (rec == NULL)
        return;
    rec_batch b = rec_batch_open(rec, NULL); /* the table comes below */
    rec_batch_value(&b, VOLPE_M_CAPTURED, -1, s->captured);
    rec_batch_value(&b, VOLPE_M_FOX_MOVES, -1, s->fox_moves);
    rec_batch_value(&b, VOLPE_M_CAPTURE_MOVES, -1, s->capture_moves);
    rec_batch_value(&b, VOLPE_M_MULTI_JUMPS, -1, s->multi_jumps);
    rec_batch_value(&b, VOLPE_M_LONGEST_CHAIN, -1, s->longest_chain);
    if (s->trapped_at >= 0)
        for (int p = 0; p < VOLPE_POINTS; p++)
            rec_batch_rate(&b, VOLPE_M_TRAPPED + p, -1, p == s->trapped_at, 1);
    for (int k = 0; k < VOLPE_ENDS; k++)
        rec_batch_rate(&b, VOLPE_M_ENDS + k, -1, s->end == k, 1);
    course_record(&s->course, s->winners, &b, VOLPE_M_COURSE);
}

/* The fox's "more moves" turns the page of its list: no move at the table (for --perft). */
bool volpe_page_turn(const void *st, const decision *d, int32_t a)
{
    (void)st;
    return d->kind == VOLPE_FOX && a == VOLPE_MORE;
}

void volpe_action_name(const void *st, const decision *d, int32_t a, char *buf, size_t n)
{
    const volpe_state *s = st;
    char from[3], to[3], taken[128];
    if (d->kind == VOLPE_FOX && a == VOLPE_MORE) {
        snprintf(buf, n, "fox: more moves");
        return;
    }
    volpe_point_name(a & 63, to);
    if (d->kind == VOLPE_GEESE) {
        volpe_point_name((a >> 6) & 63, from);
        snprintf(buf, n, "goose %s-%s", from, to);
        return;
    }
    volpe_point_name(s->fox, from);
    uint64_t set = volpe_captured_set(s->geese, a);
    set_text(set, taken, sizeof taken);
    snprintf(buf, n, "fox %s%c%s%s%s", from, set ? 'x' : '-', to, set ? " takes " : "",
             taken);
}

/* ---- search hooks -------------------------------------------------------------------- */

/* Weights of the evaluation, in hundredths of a goose. */
enum {
    W_GOOSE = 100,    /* a goose taken */
    W_THREAT = 30,    /* per goose the fox could take next (more when the fox is to move) */
    W_MOBILITY = 4,   /* per fox move */
    W_REGION = 2,     /* per point the fox can walk to */
    W_GAP = 6,        /* per point of that region behind a goose of its column */
    W_ADVANCE = 2,    /* per row a goose has advanced */
};

/* The rows of the geese of set, added up (row 1 counts 0). */
static int rows(uint64_t set)
{
    int sum = 0;
    for (; set; set &= set - 1)
        sum += volpe_y(__builtin_ctzll(set));
    return sum;
}

/* The fox's raw worth of the position geese, fox, side with `captured` geese taken. */
static int32_t raw_worth(const volpe_board *b, uint64_t geese, int fox, int side, int captured)
{
    uint64_t region = volpe_fox_region(b, geese, fox), behind = 0;
    for (uint64_t m = geese; m; m &= m - 1)
        behind |= b->below[__builtin_ctzll(m)];
    int threat = volpe_max_capture(b, geese, fox);
    return W_GOOSE * captured + W_THREAT * threat * (side == VOLPE_FOX ? 3 : 1) +
           W_MOBILITY * volpe_fox_mobility(b, geese, fox) + W_REGION * volpe_popcount(region) +
           W_GAP * volpe_popcount(region & behind) - W_ADVANCE * rows(geese);
}

/* The fox's worth, in W_* units: geese taken, the geese it threatens, its mobility, the room
 * it has, the room it has behind the goose line (geese never step back, so a fox there
 * cannot be cornered), less the rows the geese have advanced; measured from the start
 * position's worth, so that a draw (0 to search) is worth what the start is. The geese's
 * worth is its negation. */
int32_t volpe_evaluate(const void *st, int seat)
{
    const volpe_state *s = st;
    const volpe_rules *r = s->rules;
    int32_t v = raw_worth(&r->board, s->geese, s->fox, s->side, s->captured) - r->eval_base;
    return seat == VOLPE_FOX ? v : -v;
}

/* A bijective mix (splitmix64's finaliser) of the exact position key: distinct positions
 * never share a hash, which a table of random Zobrist keys could not promise. */
uint64_t volpe_hash(const void *st)
{
    uint64_t z = volpe_key(st);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Captures first, the longest chains before; goose advances before sideways steps. */
void volpe_order(const void *st, const decision *d, int32_t *score)
{
    (void)st;
    for (int i = 0; i < d->n; i++) {
        int32_t a = d->action[i];
        score[i] = a == VOLPE_MORE       ? 0
                   : d->kind == VOLPE_FOX ? volpe_popcount((uint32_t)a >> 6)
                                        : volpe_y(a & 63) > volpe_y((a >> 6) & 63);
    }
}

/* ---- descriptor ---------------------------------------------------------------------- */

const char *const volpe_kind_names[] = {"fox", "geese", NULL};

/* The ends in words for a person (game_type.end_words), in the order of end_names. */
const char *const volpe_end_words[] = {
    "the fox took the geese it needed",
    "the geese trapped the fox",
    "the geese could not move",
    "the same position came back",
    "too many moves went by without a goose taken or a goose moving forward",
    "the move cap was reached",
    NULL,
};

const char *const volpe_end_names[] = {
    "fox_captured", "fox_trapped", "geese_blocked", "repetition", "no_progress", "move_cap",
    NULL,
};

#define TRAP(p)                                                                              \
    {"trapped_" p, METRIC_RATE, METRIC_GAME,                                                 \
     "games where the fox was trapped on " p " / games where it was trapped"}

const metric_def volpe_metrics[] = {
    {"geese_captured", METRIC_MEAN, METRIC_GAME, "geese the fox took"},
    {"fox_moves", METRIC_MEAN, METRIC_GAME, "moves the fox made"},
    {"capture_moves", METRIC_MEAN, METRIC_GAME, "fox moves that took at least one goose"},
    {"multi_jumps", METRIC_MEAN, METRIC_GAME, "fox moves that took two geese or more"},
    {"longest_chain", METRIC_MEAN, METRIC_GAME, "most geese taken in one fox move"},
    TRAP("C1"), TRAP("D1"), TRAP("E1"), TRAP("C2"), TRAP("D2"), TRAP("E2"),
    TRAP("A3"), TRAP("B3"), TRAP("C3"), TRAP("D3"), TRAP("E3"), TRAP("F3"), TRAP("G3"),
    TRAP("A4"), TRAP("B4"), TRAP("C4"), TRAP("D4"), TRAP("E4"), TRAP("F4"), TRAP("G4"),
    TRAP("A5"), TRAP("B5"), TRAP("C5"), TRAP("D5"), TRAP("E5"), TRAP("F5"), TRAP("G5"),
    TRAP("C6"), TRAP("D6"), TRAP("E6"), TRAP("C7"), TRAP("D7"), TRAP("E7"),
    /* how the games end, as game figures (VOLPE_M_ENDS on): the fox's wins by captures and
     * by blocked geese look alike in the win shares */
    {"end_fox_captured", METRIC_RATE, METRIC_GAME,
     "games the fox won by taking fox_wins_at geese"},
    {"end_fox_trapped", METRIC_RATE, METRIC_GAME, "games the geese won by trapping the fox"},
    {"end_geese_blocked", METRIC_RATE, METRIC_GAME,
     "games ended because the geese could not move (a fox win under geese_blocked=lose, a "
     "draw under draw)"},
    {"end_repetition", METRIC_RATE, METRIC_GAME, "games drawn by a repeated position"},
    {"end_no_progress", METRIC_RATE, METRIC_GAME,
     "games drawn after no_progress_moves moves without a capture or a goose advance"},
    {"end_move_cap", METRIC_RATE, METRIC_GAME, "games drawn at the move cap"},
    COURSE_METRIC_DEFS,
    {NULL, 0, 0, NULL},
};
#undef TRAP

/* The summary: how the games end (who won, and by which rule), the geese the fox takes, its
 * captures, and where it was trapped (the heat map of the JSON report, one share per point). */
const char *const volpe_headline[] = {
    "end_fox_captured", "end_geese_blocked", "end_fox_trapped", "end_repetition",
    "end_no_progress",  "end_move_cap",      "geese_captured",  NULL};

static const char *const trap_points[] = {
    "trapped_C1", "trapped_D1", "trapped_E1", "trapped_C2", "trapped_D2", "trapped_E2",
    "trapped_A3", "trapped_B3", "trapped_C3", "trapped_D3", "trapped_E3", "trapped_F3",
    "trapped_G3", "trapped_A4", "trapped_B4", "trapped_C4", "trapped_D4", "trapped_E4",
    "trapped_F4", "trapped_G4", "trapped_A5", "trapped_B5", "trapped_C5", "trapped_D5",
    "trapped_E5", "trapped_F5", "trapped_G5", "trapped_C6", "trapped_D6", "trapped_E6",
    "trapped_C7", "trapped_D7", "trapped_E7", NULL};

const metric_group volpe_groups[] = {
    {"The fox's captures", (const char *const[]){"geese_captured", "capture_moves",
                                                 "multi_jumps", "longest_chain", "fox_moves",
                                                 NULL}},
    {"Where the fox was trapped (games it was trapped)", trap_points},
    COURSE_GROUP,
    {NULL, NULL},
};

const metric_label volpe_labels[] = {
    {"geese_captured", "geese the fox took", "geese"},
    {"fox_moves", "moves the fox made", "moves"},
    {"capture_moves", "fox moves that took a goose", "moves"},
    {"multi_jumps", "fox moves that took two geese or more", "moves"},
    {"longest_chain", "most geese taken in one move", "geese"},
#define TRAPPED(p) {"trapped_" p, "trapped on " p, NULL}
    TRAPPED("C1"), TRAPPED("D1"), TRAPPED("E1"), TRAPPED("C2"), TRAPPED("D2"), TRAPPED("E2"),
    TRAPPED("A3"), TRAPPED("B3"), TRAPPED("C3"), TRAPPED("D3"), TRAPPED("E3"), TRAPPED("F3"),
    TRAPPED("G3"), TRAPPED("A4"), TRAPPED("B4"), TRAPPED("C4"), TRAPPED("D4"), TRAPPED("E4"),
    TRAPPED("F4"), TRAPPED("G4"), TRAPPED("A5"), TRAPPED("B5"), TRAPPED("C5"), TRAPPED("D5"),
    TRAPPED("E5"), TRAPPED("F5"), TRAPPED("G5"), TRAPPED("C6"), TRAPPED("D6"), TRAPPED("E6"),
    TRAPPED("C7"), TRAPPED("D7"), TRAPPED("E7"),
#undef TRAPPED
    {"end_fox_captured", "ended: the fox took its geese (fox wins)", NULL},
    {"end_fox_trapped", "ended: the fox was trapped (geese win)", NULL},
    {"end_geese_blocked", "ended: the geese could not move (fox wins by default)", NULL},
    {"end_repetition", "ended: a repeated position (draw)", NULL},
    {"end_no_progress", "ended: no progress (draw)", NULL},
    {"end_move_cap", "ended: the move cap (draw)", NULL},
    COURSE_METRIC_LABELS,
    {NULL, NULL, NULL},
};


/* --check: geese are conserved (those on the board and those taken make the start's), every
 * goose and the fox stand on points of the cross, the fox never on a goose, and the side to
 * move is one of the two. */
int volpe_check(const void *vst, char *err, size_t errlen)
{
    const volpe_state *s = vst;
    const volpe_rules *r = s->rules;
    int start = volpe_popcount(r->geese), now = volpe_popcount(s->geese);
    if (now + s->captured != start)
        return snprintf(err, errlen, "geese: %d on the board and %d taken, %d at the start", now,
                        s->captured, start),
               -1;
    if (s->geese >> VOLPE_POINTS)
        return snprintf(err, errlen, "geese: off the cross (0x%llx)",
                        (unsigned long long)s->geese),
               -1;
    if (s->fox < 0 || s->fox >= VOLPE_POINTS || (s->geese >> s->fox & 1))
        return snprintf(err, errlen, "fox: on point %d%s", s->fox,
                        s->fox >= 0 && s->fox < VOLPE_POINTS ? ", a goose's" : ""),
               -1;
    if (s->side != VOLPE_FOX && s->side != VOLPE_GEESE)
        return snprintf(err, errlen, "side to move %d", s->side), -1;
    return 0;
}

/* What one game can record: the move cap ends every game. The fox's choices are not bounded
 * here: a move among more than a decision holds is chosen over pages, each a decision. */
void volpe_limits(const void *rules, int nseats, game_limits *l)
{
    (void)nseats;
    const volpe_rules *r = rules;
    *l = (game_limits){.length = r->max_moves};
}

/* The game's own words, as the reports use them (RULES-NOTES, volpe; giochi-sim-volpe(7)). */
const game_term volpe_glossary[] = {
    {"fox", "the single piece, moving first, one point along a line in any direction"},
    {"geese", "the 17 pieces, moving one point forward or sideways, never back; they cannot "
              "jump"},
    {"take", "the fox jumps a goose to the empty point beyond it and removes it; several jumps "
             "may follow in one move"},
    {"trapped", "the fox has no move, and the geese win"},
    {"point", "a place of the 33-point cross, named by column A..G and row 1..7"},
    {NULL, NULL},
};
