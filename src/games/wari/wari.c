/* wari.c — Wari / Oware (seed 004, the Abapa reading): 2 rows of 6 pits of 4 seeds; sow one
 * own pit counter-clockwise, skipping the origin on laps; the last seed captures an opponent
 * pit made 2 or 3 and the consecutive ones before it; must feed; grand slam by option; the
 * game ends on a majority, a blocked side, a repetition, a no-capture limit or a move cap. */
#include "games/wari/wari.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/course_rec.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "config/rules.h"
#include "core/hot.h"

static const char *const slam_names[] = {"allowed_no_capture", "forbidden", "captures_all",
                                         NULL};
static const char *const first_names[] = {"seat1", "random", NULL};

/* ---- ruleset ------------------------------------------------------------------------- */

/* Fills r->binom by Pascal's rule, saturating at UINT64_MAX instead of wrapping, so that
 * the ruleset check below can tell a key range that does not fit. */
static void fill_binom(wari_rules *r)
{
    for (int n = 0; n <= WARI_BINOM_N; n++) {
        r->binom[n][0] = 1;
        for (int k = 1; k < WARI_MAX_BOARD; k++) {
            uint64_t a = n ? r->binom[n - 1][k - 1] : 0, b = n ? r->binom[n - 1][k] : 0;
            r->binom[n][k] = a + b < a ? UINT64_MAX : a + b;
        }
    }
}

/* Fills the byte masks of the row sums and of the sowing (see wari_rules). */
static void fill_masks(wari_rules *r)
{
    int n = 2 * r->pits;
    for (int i = 0; i < n; i++)
        r->rowmask[i / r->pits][i / 8] |= (uint64_t)0xff << (8 * (i % 8));
    for (int from = 0; from < n; from++) {
        for (int i = 0; i < n; i++)
            if (i != from)
                r->others[from][i / 8] |= (uint64_t)1 << (8 * (i % 8));
        for (int k = 1; k < n - 1; k++) {
            int to = (from + k) % n;
            memcpy(r->sown[from][k], r->sown[from][k - 1], sizeof r->sown[from][k]);
            r->sown[from][k][to / 8] |= (uint64_t)1 << (8 * (to % 8));
        }
    }
}

/* Reads the optional key "start" of json into r (r->pits and r->total read already): the
 * pits of both rows in sowing order, the two stores and the seat to move (1 or 2); every seed
 * must be somewhere. Absent: the usual start. */
static int load_start(wari_rules *r, const cJSON *json, char *err, size_t errlen)
{
    static const char *const keys[] = {"pits", "stores", "turn", NULL};
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(json, "start");
    if (st == NULL)
        return 0;
    long pit[WARI_MAX_BOARD], store[2], turn;
    int n = 2 * r->pits, len;
    if (rules_only_keys(st, "start", keys, err, errlen) ||
        rules_int_array(st, "start", "pits", n, n, 0, r->total, pit, &len, err, errlen) ||
        rules_int_array(st, "start", "stores", 2, 2, 0, r->total, store, &len, err, errlen) ||
        rules_int(st, "start", "turn", 1, 2, &turn, err, errlen))
        return -1;
    long sum = store[0] + store[1];
    for (int i = 0; i < n; i++)
        sum += pit[i];
    if (sum != r->total)
        return rules_error(err, errlen, "start", "pits",
                           "pits and stores hold %ld seeds, the ruleset's board %d", sum,
                           r->total);
    r->has_start = true;
    for (int i = 0; i < n; i++)
        r->start_pit[i] = (uint8_t)pit[i];
    r->start_store[0] = (int)store[0];
    r->start_store[1] = (int)store[1];
    r->start_turn = (int)turn - 1;
    return 0;
}

/* Reads and checks every key of the ruleset (all are required: the default provides them,
 * but for the optional "start"). */
int wari_load_rules(void *rules, const cJSON *json, char *err, size_t errlen)
{
    static const char *const keys[] = {"pits",       "seeds",      "grand_slam",
                                       "must_feed",  "repetition", "no_capture_limit",
                                       "move_cap",   "first_player", "start",
                                       NULL};
    wari_rules *r = rules;
    memset(r, 0, sizeof *r);
    long pits = 0, seeds = 0, limit = 0, cap = 0;
    if (rules_only_keys(json, "", keys, err, errlen) ||
        rules_int(json, "", "pits", 2, WARI_MAX_PITS, &pits, err, errlen) ||
        rules_int(json, "", "seeds", 1, WARI_MAX_SEEDS, &seeds, err, errlen) ||
        rules_enum(json, "", "grand_slam", slam_names, &r->grand_slam, err, errlen) ||
        rules_bool(json, "", "must_feed", &r->must_feed, err, errlen) ||
        rules_bool(json, "", "repetition", &r->repetition, err, errlen) ||
        rules_int(json, "", "no_capture_limit", 0, 1000000, &limit, err, errlen) ||
        rules_int(json, "", "move_cap", 1, 1000000, &cap, err, errlen) ||
        rules_enum(json, "", "first_player", first_names, &r->first_player, err, errlen))
        return -1;
    r->pits = (int)pits;
    r->seeds = (int)seeds;
    r->total = 2 * r->pits * r->seeds;
    r->no_capture_limit = (int)limit;
    r->move_cap = (int)cap;
    if (load_start(r, json, err, errlen))
        return -1;
    /* The repetition rule keeps every position of a stretch without capture: the stretch
     * must fit its memory. */
    if (r->repetition && r->move_cap > WARI_STRETCH &&
        (r->no_capture_limit == 0 || r->no_capture_limit > WARI_STRETCH))
        return rules_error(err, errlen, "", "move_cap",
                           "must be 1..%d while repetition is on and no_capture_limit is 0 or "
                           "above %d (every position since the last capture is kept)",
                           WARI_STRETCH, WARI_STRETCH);
    fill_masks(r);
    fill_binom(r);
    /* Position keys count the boards of `total` seeds in 2*pits pits: they must fit. */
    int n = 2 * r->pits;
    if (r->binom[r->total + n - 1][n - 1] >= (uint64_t)1 << 63)
        return rules_error(err, errlen, "", "seeds",
                           "%d seeds in each of %d pits are too many for exact position keys "
                           "(at most 11 with 7 pits a row, 6 with 8)",
                           r->seeds, n);
    return 0;
}

/* ---- the board --------------------------------------------------------------------------- */

/* Seeds on seat's row: the row's bytes summed by one multiplication per word. */
static inline int row_seeds(const wari_rules *r, const uint8_t *pit, int seat)
{
    uint64_t w0, w1;
    memcpy(&w0, pit, 8);
    memcpy(&w1, pit + 8, 8);
    const uint64_t ones = 0x0101010101010101u;
    return (int)(((w0 & r->rowmask[seat][0]) * ones) >> 56) +
           (int)(((w1 & r->rowmask[seat][1]) * ones) >> 56);
}

int wari_row_seeds(const wari_rules *r, const uint8_t *pit, int seat)
{
    return row_seeds(r, pit, seat);
}

/* Sows the seeds of board pit `from` (0..2*pits-1) on pit[] in place, without capturing,
 * and returns the pit the last seed fell into. "Ad uno ad uno, li mette nelle cavità
 * seguenti, in senso antiorario"; the pit sown from is skipped when a sowing goes round the
 * board. Also what the repetition rule replays: a move that captures nothing is this alone. */
static GIOCHI_INLINE int spread(const wari_rules *r, uint8_t *pit, int from)
{
    int n = 2 * r->pits, k = pit[from], laps = 0, rest = k;
    pit[from] = 0;
    if (k >= n - 1) { /* laps: each other pit gets k / (n-1), the first k % (n-1) one more */
        laps = k / (n - 1);
        rest = k % (n - 1);
    }
    /* Each pit gets its seeds by one byte-wise addition: no pit exceeds 255 seeds, so no
     * byte carries into the next. */
    uint64_t w0, w1;
    memcpy(&w0, pit, 8);
    memcpy(&w1, pit + 8, 8);
    w0 += r->sown[from][rest][0] + (uint64_t)laps * r->others[from][0];
    w1 += r->sown[from][rest][1] + (uint64_t)laps * r->others[from][1];
    memcpy(pit, &w0, 8);
    memcpy(pit + 8, &w1, 8);
    int last = from + rest; /* the last seed; rest 0: the pit just before the origin */
    if (rest == 0)
        last = from - 1;
    if (last >= n)
        last -= n;
    else if (last < 0)
        last += n;
    return last;
}

/* Sows pit a of seat on pit[] in place, captures by the rules, and returns the seeds captured
 * (see wari_sow); *slam tells whether the move would capture every opponent seed. "Non si può
 * mangiare se non con l'ultima pallina distribuita". */
static GIOCHI_INLINE int sow(const wari_rules *r, uint8_t *pit, int seat, int a, bool *slam)
{
    int p = r->pits, last = spread(r, pit, seat * p + a);
    *slam = false;
    /* "Quando l'ultimo pezzo cade in una cavità avversaria in cui si trovino al momento due o
     * tre palline, colui che mangia prende questi pezzi", then the pits before it while they
     * are the opponent's and hold two or three. */
    int lo = (1 - seat) * p;
    if (last < lo || last >= lo + p || (pit[last] != 2 && pit[last] != 3))
        return 0;
    int i = last, got = 0;
    while (i >= lo && (pit[i] == 2 || pit[i] == 3))
        got += pit[i--];
    if (got == row_seeds(r, pit, 1 - seat)) {
        *slam = true;
        if (r->grand_slam != WARI_SLAM_CAPTURES_ALL)
            return 0; /* allowed without capture, or forbidden and forced: captures nothing */
    }
    for (int j = i + 1; j <= last; j++)
        pit[j] = 0;
    return got;
}

/* Sowing and capture on a copy of the board (contract in wari.h). */
void wari_sow(const wari_rules *r, const uint8_t *pit, int seat, int a, wari_move *m)
{
    memcpy(m->pit, pit, WARI_MAX_BOARD);
    m->captured = sow(r, m->pit, seat, a, &m->slam);
}

/* Whether no move of seat on pit[] can capture every opponent seed: the opponent has a pit of
 * 4 or more (sowing only adds, and a captured pit holds 2 or 3), or he has no seed and no
 * sowing goes round the board (one pass leaves him pits of 1 seed at most). A cheap test
 * before looking for grand slams. */
static bool slam_impossible(const wari_rules *r, const uint8_t *pit, int seat)
{
    int p = r->pits;
    uint64_t opp; /* the opponent's row as bytes (the board has room for 8 past any row) */
    memcpy(&opp, pit + (1 - seat) * p, 8);
    opp &= p == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * p)) - 1;
    if (opp & 0xfcfcfcfcfcfcfcfcu) /* some pit holds 4 or more */
        return true;
    if (opp != 0)
        return false;
    const uint8_t *own = pit + seat * p;
    for (int a = 0; a < p; a++)
        if (own[a] >= 2 * p - 1)
            return false;
    return true;
}

/* The moves of seat on pit[] that would capture every opponent seed, as a mask (bit a: own pit
 * a). A sowing that does not go round the board (fewer than 2*pits-1 seeds) and ends on the
 * opponent's pit t has added one seed to each of his pits 0..t and none after: it takes them
 * all exactly when pits 0..t held 1 or 2 and the pits after t none. Longer sowings are
 * played out. */
static unsigned slam_mask(const wari_rules *r, const uint8_t *pit, int seat)
{
    int p = r->pits, n = 2 * p;
    const uint8_t *opp = pit + (1 - seat) * p, *own = pit + seat * p;
    unsigned other = 1u << p, seeded = 0; /* bit i: opponent pit i holds 0 or 3+, or any */
    for (int i = 0; i < p; i++) {         /* without branches: the rows are random */
        other |= (unsigned)(opp[i] - 1u > 1u) << i;
        seeded |= (unsigned)(opp[i] != 0) << i;
    }
    /* with no opponent seed, first_other is 0 and only sowings round the board can qualify */
    int first_other = __builtin_ctz(other), last_seeded = seeded ? 31 - __builtin_clz(seeded) : -1;
    unsigned mask = 0;
    for (int a = 0; a < p; a++) {
        int k = own[a], t = a + k - p;
        if (GIOCHI_UNLIKELY(k >= n - 1)) {
            wari_move m;
            wari_sow(r, pit, seat, a, &m);
            mask |= (unsigned)m.slam << a;
        } else {
            mask |= (unsigned)(k > 0 && t >= 0 && t >= last_seeded && t < first_other) << a;
        }
    }
    return mask;
}

/* The legal moves of seat on pit[]; `starving`: must_feed applies (the opponent has no
 * seed). Must feed: "un giocatore non può vuotare i buchi del suo avversario se questo può
 * ancora metterci dei pezzi" read, as in Abapa, as: when the opponent has no seed, only the
 * moves that give him some are legal. */
static GIOCHI_INLINE int legal(const wari_rules *r, const uint8_t *pit, int seat, bool starving,
                               int32_t *out)
{
    int p = r->pits, n = 0;
    const uint8_t *row = pit + seat * p;
    if (starving) {
        for (int a = 0; a < p; a++)
            if (row[a] >= p - a) /* reaches the opponent's row */
                out[n++] = a;
        /* Under captures_all a sowing round the board may reach the row and then take every
         * seed of it back: the row is judged after the move, so such a move does not feed. */
        if (r->grand_slam == WARI_SLAM_CAPTURES_ALL && !slam_impossible(r, pit, seat)) {
            unsigned slams = slam_mask(r, pit, seat);
            int kept = 0;
            for (int i = 0; i < n; i++)
                if (!(slams >> out[i] & 1))
                    out[kept++] = out[i];
            n = kept;
        }
    } else {
        for (int a = 0; a < p; a++) { /* without branches: which pits are empty is random */
            out[n] = a;
            n += row[a] != 0;
        }
    }
    unsigned slams;
    if (n > 1 && r->grand_slam == WARI_SLAM_FORBIDDEN && !slam_impossible(r, pit, seat) &&
        (slams = slam_mask(r, pit, seat)) != 0) {
        int kept = 0;
        int32_t keep[WARI_MAX_PITS];
        for (int i = 0; i < n; i++)
            if (!(slams >> out[i] & 1))
                keep[kept++] = out[i];
        if (kept > 0) { /* forbidden unless every move is one */
            memcpy(out, keep, sizeof *out * (size_t)kept);
            n = kept;
        }
    }
    return n;
}

/* The legal moves (contract in wari.h). */
int wari_legal(const wari_rules *r, const uint8_t *pit, int seat, int32_t *out)
{
    return legal(r, pit, seat, r->must_feed && row_seeds(r, pit, 1 - seat) == 0, out);
}

/* Exact key (see wari_key in wari.h): the partial sums s_j = pit[0] + ... + pit[j] give the
 * strictly increasing bar positions b_j = s_j + j (j = 0 .. 2*pits-2), ranked as a
 * combination: key = sum of C(b_j, j+1). The partial sums come from one multiplication per
 * word (no sum exceeds 255), so the table lookups do not wait on each other. */
static inline uint64_t key_of(const wari_rules *r, const uint8_t *pit)
{
    const uint64_t ones = 0x0101010101010101u;
    uint64_t w0, w1;
    memcpy(&w0, pit, 8);
    memcpy(&w1, pit + 8, 8);
    uint64_t s0 = w0 * ones, s1 = w1 * ones + (s0 >> 56) * ones;
    int bars = 2 * r->pits - 1, low = bars < 8 ? bars : 8;
    uint64_t key = 0;
    for (int j = 0; j < low; j++)
        key += r->binom[((s0 >> (8 * j)) & 0xff) + (uint64_t)j][j + 1];
    for (int j = 8; j < bars; j++)
        key += r->binom[((s1 >> (8 * (j - 8))) & 0xff) + (uint64_t)j][j + 1];
    return key;
}

uint64_t wari_key(const wari_rules *r, const uint8_t *pit)
{
    return key_of(r, pit);
}

/* ---- the end ------------------------------------------------------------------------------- */

/* The filter bit of the board pit[] with seat `turn` to move: a multiplicative hash of the
 * board's two words and the turn (exactness comes from the replay, not from the hash). */
static inline unsigned filter_bit(const uint8_t *pit, int turn)
{
    uint64_t w0, w1;
    memcpy(&w0, pit, 8);
    memcpy(&w1, pit + 8, 8);
    uint64_t x = (w0 ^ (uint64_t)turn) * 0x9e3779b97f4a7c15u + w1 * 0xc2b2ae3d27d4eb4fu;
    x ^= x >> 29;
    return (unsigned)((x * 0xbf58476d1ce4e5b9u) >> (64 - WARI_FILTER_LOG2));
}

/* Own-row pit of the j-th move since the anchor. */
static inline int rec_at(const wari_state *st, int j)
{
    return (st->rec[j >> 1] >> (4 * (j & 1))) & 0xf;
}

/* Whether the current position (board, side to move) occurred since the anchor: replays the
 * moves from the anchor and compares every position with the same side to move. */
static bool occurred(const wari_state *st)
{
    const wari_rules *r = st->rules;
    uint8_t b[WARI_MAX_BOARD];
    memcpy(b, st->anchor, sizeof b);
    int n = st->nrec, seat = st->turn ^ (n & 1);
    for (int j = 0; j < n; j++) {
        if (((n - j) & 1) == 0 && memcmp(b, st->pit, sizeof b) == 0)
            return true;
        spread(r, b, seat * r->pits + rec_at(st, j));
        seat ^= 1;
    }
    return false;
}

/* Makes the current position the anchor of the repetition memory: the first of a stretch
 * without capture. */
static void anchor_here(wari_state *st)
{
    memcpy(st->anchor, st->pit, sizeof st->anchor);
    st->nrec = 0;
    memset(st->seen, 0, sizeof st->seen);
    unsigned bit = filter_bit(st->pit, st->turn);
    st->seen[bit >> 6] |= (uint64_t)1 << (bit & 63);
}

/* Records the move just played (own-row pit `played` of the seat that moved; -1: a capture,
 * the start or a set position, where the memory starts again) and returns whether the new
 * position, with the same player to move, occurred before since the last capture, at any
 * distance: a clear filter bit says no at once, a set one is checked by replay. */
static bool repeated(wari_state *st, int played)
{
    if (played < 0) {
        anchor_here(st);
        return false;
    }
    int j = st->nrec++;
    if (GIOCHI_UNLIKELY(j >= WARI_STRETCH)) { /* the ruleset bounds the stretch */
        fprintf(stderr, "giochi-sim: wari: %d moves without capture exceed the repetition "
                "memory (a broken invariant)\n", j + 1);
        exit(4);
    }
    uint8_t *cell = &st->rec[j >> 1];
    *cell = (uint8_t)((j & 1) ? (*cell & 0x0f) | played << 4 : played);
    unsigned bit = filter_bit(st->pit, st->turn);
    uint64_t *w = &st->seen[bit >> 6], m = (uint64_t)1 << (bit & 63);
    if (!(*w & m)) {
        *w |= m;
        return false;
    }
    return occurred(st);
}

/* Whether the player to move has a legal move, and sets st->starving: seeds on his row, and
 * when must_feed and the opponent is empty, a move that leaves him seeds (a forbidden slam
 * is played when it is the only move; under captures_all one that takes them all back does
 * not feed). */
static bool can_move(wari_state *st)
{
    const wari_rules *r = st->rules;
    st->starving = r->must_feed && row_seeds(r, st->pit, 1 - st->turn) == 0;
    if (row_seeds(r, st->pit, st->turn) == 0)
        return false;
    if (!st->starving)
        return true;
    int32_t out[WARI_MAX_PITS];
    return legal(r, st->pit, st->turn, true, out) > 0;
}

const char *const wari_end_names[] = {"majority",         "blocked",  "repetition",
                                      "no_capture_limit", "move_cap", NULL};

/* Ends the game the way `end` says. Each player's own row is his at the end ("il giocatore
 * che ha ancora pezzi nei suoi buchi li toglie e li aggiunge a quelli mangiati"): finish()
 * adds it to his store, the board is left as it was for the trace. */
static void end_game(wari_state *st, int end, trace *tr)
{
    st->over = 1;
    st->end = (uint8_t)end;
    if (tr) {
        const wari_rules *r = st->rules;
        int f0 = st->store[0] + row_seeds(r, st->pit, 0);
        int f1 = st->store[1] + row_seeds(r, st->pit, 1);
        TRACE(tr, "game over after %d moves (%s): seat 1 %d seeds, seat 2 %d seeds%s",
              st->moves, wari_end_names[end], f0, f1, f0 == f1 ? " (draw)" : "");
    }
}

/* Checks, with the player to move already set, whether the game is over: a majority first
 * ("vince colui che avrà il maggior numero di palline": more than half cannot be caught),
 * then a player who cannot move (the blocked game), then the repetition, the no-capture
 * limit and the move cap (the players "possono prendere quelli che hanno messo alla loro
 * destra e terminare la partita"). */
static void settle(wari_state *st, int played, trace *tr)
{
    const wari_rules *r = st->rules;
    if (2 * st->store[0] > r->total || 2 * st->store[1] > r->total)
        end_game(st, WARI_END_MAJORITY, tr);
    else if (!can_move(st))
        end_game(st, WARI_END_BLOCKED, tr);
    else if (r->repetition && repeated(st, played))
        end_game(st, WARI_END_REPETITION, tr);
    else if (r->no_capture_limit > 0 && st->moves - st->last_capture >= r->no_capture_limit)
        end_game(st, WARI_END_NO_CAPTURE, tr);
    else if (st->moves >= r->move_cap)
        end_game(st, WARI_END_MOVE_CAP, tr);
}

/* ---- playing ------------------------------------------------------------------------------- */

/* Traces the board as the players see it: seat 2's row right to left above seat 1's. */
static void trace_board(const wari_state *st, trace *tr)
{
    if (!tr)
        return;
    int p = st->rules->pits;
    fprintf(tr, "   seat 2 [%2d] ", st->store[1]);
    for (int i = 2 * p - 1; i >= p; i--)
        fprintf(tr, " %2d", st->pit[i]);
    fprintf(tr, "\n   seat 1 [%2d] ", st->store[0]);
    for (int i = 0; i < p; i++)
        fprintf(tr, " %2d", st->pit[i]);
    fputc('\n', tr);
}

void wari_set_position(wari_state *st, const wari_rules *rules, const uint8_t *pit,
                       const int *store, int turn, int moves, int last_capture)
{
    /* the moves since the anchor are read only below nrec: no need to zero them */
    memset(st, 0, offsetof(wari_state, rec));
    st->rules = rules;
    memcpy(st->pit, pit, (size_t)(2 * rules->pits));
    st->store[0] = (int16_t)store[0];
    st->store[1] = (int16_t)store[1];
    st->turn = (uint8_t)turn;
    st->moves = moves;
    st->last_capture = last_capture;
    course_start(&st->course);
    settle(st, -1, NULL);
}

/* game_type.standing: each seat's seeds captured (its store). */
void wari_standing(const void *state, int64_t *out)
{
    const wari_state *st = state;
    out[0] = st->store[0];
    out[1] = st->store[1];
}

/* Fills every pit, picks who moves first ("il primo giocatore": seat 1, or drawn from the
 * chance stream with first_player random) and records the start for the repetition rule. */
void wari_start(void *state, const void *rules, int nseats, rng *chance, trace *tr)
{
    (void)nseats;
    const wari_rules *r = rules;
    wari_state *st = state;
    if (r->has_start) { /* a position given as data (ruleset key start) */
        wari_set_position(st, r, r->start_pit, r->start_store, r->start_turn, 0, 0);
        st->first = (uint8_t)r->start_turn;
        TRACE(tr, "from the ruleset's start position; seat %d moves first", r->start_turn + 1);
        trace_board(st, tr);
        if (st->over)
            end_game(st, st->end, tr); /* once more, to trace the end */
        return;
    }
    uint8_t pit[WARI_MAX_BOARD] = {0};
    memset(pit, r->seeds, (size_t)(2 * r->pits));
    int store[2] = {0, 0};
    int first = r->first_player == WARI_FIRST_RANDOM ? (int)rng_below(chance, 2) : 0;
    wari_set_position(st, r, pit, store, first, 0, 0);
    st->first = (uint8_t)first;
    TRACE(tr, "%d pits of %d seeds a side; seat %d moves first", r->pits, r->seeds, first + 1);
    trace_board(st, tr);
}

/* Whether seat, on board pit[] before a move other than a grand slam, had a move that would
 * have captured every opponent seed. */
static bool slam_refused(const wari_rules *r, const uint8_t *pit, int seat)
{
    return !slam_impossible(r, pit, seat) && slam_mask(r, pit, seat) != 0;
}

/* Plays pit `action` of the player to move, then checks the end. A grand slam the rules did
 * not make (or one available and not played) is counted for the metrics. */
void wari_apply(void *state, int32_t action, rng *chance, trace *tr)
{
    (void)chance;
    wari_state *st = state;
    const wari_rules *r = st->rules;
    int seat = st->turn;
    bool slam;
    uint8_t before[WARI_MAX_BOARD];
    memcpy(before, st->pit, sizeof before);
    int got = sow(r, st->pit, seat, action, &slam);
    st->count[seat].slams += slam;
    if (!slam)
        st->count[seat].slams_refused += slam_refused(r, before, seat);
    st->moves++;
    if (got) {
        st->store[seat] = (int16_t)(st->store[seat] + got);
        st->count[seat].captures++;
        st->last_capture = st->moves;
    }
    int64_t v[2];
    wari_standing(st, v);
    course_note(&st->course, v, 2);
    if (tr) {
        if (got)
            fprintf(tr, "seat %d captures %d%s\n", seat + 1, got,
                    slam ? " (grand slam: every seed of the opponent)" : "");
        else if (slam)
            fprintf(tr, "seat %d: grand slam, captures nothing\n", seat + 1);
        trace_board(st, tr);
    }
    st->turn = (uint8_t)(1 - seat);
    settle(st, got ? -1 : action, tr);
}

/* The pending move of the player to move: his legal pits. */
bool wari_decide(const void *state, decision *d)
{
    const wari_state *st = state;
    if (st->over)
        return false;
    d->seat = st->turn;
    d->kind = 0;
    d->n = legal(st->rules, st->pit, st->turn, st->starving, d->action);
    return true;
}

/* ---- the result ---------------------------------------------------------------------------- */

enum {
    M_CAPTURED,
    M_FINAL,
    M_CAPTURES,
    M_SLAMS,
    M_REFUSED,
    M_MOVED_FIRST,
    M_FIRST_WON,
    M_LEFT,
    M_COURSE,
};

const metric_def wari_metrics[] = {
    [M_CAPTURED] = {"seeds_captured", METRIC_MEAN, METRIC_SEAT,
                    "seeds the seat captured during the game (its store before the end)"},
    [M_FINAL] = {"final_seeds", METRIC_MEAN, METRIC_SEAT,
                 "seeds the seat ends with: its captures plus its own row at the end"},
    [M_CAPTURES] = {"captures", METRIC_MEAN, METRIC_SEAT, "moves of the seat that captured"},
    [M_SLAMS] = {"grand_slams", METRIC_MEAN, METRIC_SEAT,
                 "grand slams the seat played (moves that would capture every opponent "
                 "seed), whatever the grand_slam rule made of them"},
    [M_REFUSED] = {"grand_slams_refused", METRIC_MEAN, METRIC_SEAT,
                   "moves where the seat could have played a grand slam and played another "
                   "move (by choice, or because the rule forbids it)"},
    [M_MOVED_FIRST] = {"moved_first", METRIC_RATE, METRIC_SEAT,
                       "games in which the seat made the first move"},
    [M_FIRST_WON] = {"first_mover_won", METRIC_RATE, METRIC_GAME,
                     "games won (not drawn) by the player who moved first"},
    [M_LEFT] = {"seeds_left_at_end", METRIC_MEAN, METRIC_GAME,
                "seeds still on the board when the game ended, taken by their rows' owners"},
    COURSE_METRIC_DEFS,
    {NULL, 0, 0, NULL},
};

/* The summary: who captures, how the game ends, the grand slams. */
const char *const wari_headline[] = {"seeds_captured", "final_seeds", "first_mover_won",
                                     NULL};

const metric_group wari_groups[] = {
    {"Captures", (const char *const[]){"seeds_captured", "captures", "final_seeds",
                                       "seeds_left_at_end", NULL}},
    {"Grand slams", (const char *const[]){"grand_slams", "grand_slams_refused", NULL}},
    {"Moving first", (const char *const[]){"moved_first", "first_mover_won", NULL}},
    COURSE_GROUP,
    {NULL, NULL},
};

const metric_label wari_labels[] = {
    {"seeds_captured", "seeds captured during the game", "seeds"},
    {"final_seeds", "seeds at the end (captures and own row)", "seeds"},
    {"captures", "moves that captured", "moves"},
    {"grand_slams", "grand slams played", "moves"},
    {"grand_slams_refused", "grand slams passed over", "moves"},
    {"moved_first", "games the seat moved first", NULL},
    {"first_mover_won", "games won by the first mover", NULL},
    {"seeds_left_at_end", "seeds on the board at the end", "seeds"},
    COURSE_METRIC_LABELS,
    {NULL, NULL, NULL},
};

/* Score = final seeds (store plus own row); more wins, equal is a draw shared by both. */
void wari_finish(const void *state, outcome *o, recorder *rec)
{
    const wari_state *st = state;
    const wari_rules *r = st->rules;
    memset(o, 0, sizeof *o);
    o->nseats = 2;
    o->length = st->moves;
    o->end = st->end;
    int fin[2];
    for (int s = 0; s < 2; s++)
        fin[s] = st->store[s] + row_seeds(r, st->pit, s);
    for (int s = 0; s < 2; s++) {
        o->score[s] = fin[s];
        o->rank[s] = 1 + (fin[1 - s] > fin[s]);
        if (fin[s] >= fin[1 - s])
            o->winners |= 1u << s;
    }
    if (!rec)
        return;
    rec_batch b = rec_batch_open(rec, wari_metrics);
    for (int s = 0; s < 2; s++) {
        rec_batch_value(&b, M_CAPTURED, s, st->store[s]);
        rec_batch_value(&b, M_FINAL, s, fin[s]);
        rec_batch_value(&b, M_CAPTURES, s, st->count[s].captures);
        rec_batch_value(&b, M_SLAMS, s, st->count[s].slams);
        rec_batch_value(&b, M_REFUSED, s, st->count[s].slams_refused);
        rec_batch_rate(&b, M_MOVED_FIRST, s, st->first == s, 1);
    }
    rec_batch_rate(&b, M_FIRST_WON, -1, fin[st->first] > fin[1 - st->first], 1);
    rec_batch_value(&b, M_LEFT, -1, r->total - st->store[0] - st->store[1]);
    course_record(&st->course, o->winners, &b, M_COURSE);
}

/* ---- search hooks -------------------------------------------------------------------------- */

/* Worth of st for seat, in hundredths of a seed: the difference of the stores, plus a tenth
 * of a seed for each seed more on the own row than on the opponent's (every end but a
 * majority gives each player his own row). */
int32_t wari_evaluate(const void *state, int seat)
{
    const wari_state *st = state;
    const wari_rules *r = st->rules;
    int stores = st->store[seat] - st->store[1 - seat];
    int rows = row_seeds(r, st->pit, seat) - row_seeds(r, st->pit, 1 - seat);
    return 100 * stores + 10 * rows;
}

/* The splitmix64 finalizer: spreads the bits of x over the whole word. */
static uint64_t mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

/* Key of the pieces (board, stores) and the player to move: the exact board key (exact among
 * boards of one total, which the stores fix) mixed with the stores and the turn. */
uint64_t wari_hash(const void *state)
{
    const wari_state *st = state;
    uint64_t rest = (uint64_t)(uint16_t)st->store[0] | (uint64_t)(uint16_t)st->store[1] << 16 |
                    (uint64_t)st->turn << 32;
    return mix(key_of(st->rules, st->pit)) ^ mix(rest + 0x9e3779b97f4a7c15u);
}

/* Captures first, the largest first; among quiet moves, the pits that keep seeds out of the
 * opponent's reach (fewer seeds sown) first. */
void wari_order(const void *state, const decision *d, int32_t *score)
{
    const wari_state *st = state;
    for (int i = 0; i < d->n; i++) {
        wari_move m;
        wari_sow(st->rules, st->pit, st->turn, d->action[i], &m);
        score[i] = 64 * m.captured - st->pit[st->turn * st->rules->pits + d->action[i]] / 4;
    }
}

/* ---- names --------------------------------------------------------------------------------- */

/* "pit 3 (5 seeds)": pits numbered 1..pits from the mover's first in sowing order. */
void wari_action_name(const void *state, const decision *d, int32_t a, char *buf, size_t n)
{
    const wari_state *st = state;
    int k = st->pit[d->seat * st->rules->pits + a];
    snprintf(buf, n, "pit %d (%d seed%s)", (int)a + 1, k, k == 1 ? "" : "s");
}

const char *const wari_kind_names[] = {"sow", NULL};

/* The ends in words for a person (game_type.end_words), in the order of end_names. */
const char *const wari_end_words[] = {
    "one player captured more than half the seeds",
    "the player to move had no move left (an empty row, or no move feeding the other's)",
    "the same position came back",
    "too many moves were played without a capture",
    "the move cap was reached",
    NULL,
};
/* --check: seeds are conserved (the pits and both stores hold every seed of the start), no
 * store is negative, the counters stay within the game (moves at most the cap), and the
 * repetition memory replayed from its anchor leads to the board, whose filter bit is set (a
 * replay of up to WARI_STRETCH sowings: --check is for tests, not speed). */
int wari_check(const void *vst, char *err, size_t errlen)
{
    const wari_state *s = vst;
    const wari_rules *r = s->rules;
    int sum = s->store[0] + s->store[1];
    for (int i = 0; i < 2 * r->pits; i++)
        sum += s->pit[i];
    if (sum != r->total)
        return snprintf(err, errlen, "seeds: pits and stores hold %d, %d were sown", sum,
                        r->total),
               -1;
    if (s->store[0] < 0 || s->store[1] < 0)
        return snprintf(err, errlen, "seeds: stores %d and %d", s->store[0], s->store[1]), -1;
    if (s->turn > 1 || s->moves < 0 || s->moves > r->move_cap)
        return snprintf(err, errlen, "turn %d after %d moves (cap %d)", s->turn, s->moves,
                        r->move_cap),
               -1;
    if (r->repetition && !s->over) {
        /* the memory: the stretch since the anchor, replayed, leads to the board */
        if (s->nrec > s->moves - s->last_capture || s->nrec > WARI_STRETCH)
            return snprintf(err, errlen, "repetition memory: %d moves since the anchor, %d "
                            "since the last capture", s->nrec, s->moves - s->last_capture),
                   -1;
        uint8_t b[WARI_MAX_BOARD];
        memcpy(b, s->anchor, sizeof b);
        for (int j = 0, seat = s->turn ^ (s->nrec & 1); j < s->nrec; j++, seat ^= 1)
            spread(r, b, seat * r->pits + rec_at(s, j));
        unsigned bit = filter_bit(s->pit, s->turn);
        if (memcmp(b, s->pit, sizeof b) != 0 || !(s->seen[bit >> 6] >> (bit & 63) & 1))
            return snprintf(err, errlen, "repetition memory: the %d moves since the anchor "
                            "do not lead to the board", s->nrec),
                   -1;
    }
    return 0;
}

/* What one game can record: the move cap ends every game, and each move is one decision
 * of the seat that sows. */
void wari_limits(const void *rules, int nseats, game_limits *l)
{
    (void)nseats;
    const wari_rules *r = rules;
    *l = (game_limits){.length = r->move_cap, .choices = {0, 1}};
}

/* The game's own words, as the reports use them (RULES-NOTES, wari; giochi-sim-wari(7)). */
const game_term wari_glossary[] = {
    {"pit", "one of the twelve holes, six in each player's row"},
    {"sow", "take every seed of one of one's own pits and drop one in each following pit, "
            "counter-clockwise"},
    {"capture", "the last seed sown makes an opponent's pit hold 2 or 3; the player takes it, "
                "and the pits before it that hold 2 or 3"},
    {"feed", "a player must give seeds to an opponent with none, when a move can"},
    {"grand slam", "a move that would capture all the opponent's seeds, by default played "
                   "but capturing nothing"},
    {"blocked", "the player to move has no seeds; each player takes the seeds on his side"},
    {NULL, NULL},
};
