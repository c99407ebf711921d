/* cinesi.c — the Gioco dei Cinesi (Chinesenspiel, seed 004): a race of one figure per player
 * round a square board and up its diagonal, moved only by a colour die (own colour: one
 * square and roll again; white: roll again; any other colour: the die passes on). Nobody
 * decides anything: start() plays the whole game from the chance stream. */
#include "games/cinesi/cinesi.h"

#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/course_rec.h"
#include "core/recorder.h"
#include "config/rules.h"
#include "core/hot.h"

static const char *const opening_names[] = {"seat1", "colour_moves", "colour_names", NULL};

/* ---- ruleset ------------------------------------------------------------------------- */

/* Reads "seat_colours": 2..4 distinct colour names, the colour of seats 1, 2, ... */
static int load_seat_colours(cinesi_rules *r, const cJSON *json, char *err, size_t errlen)
{
    const cJSON *arr = rules_array(json, "", "seat_colours", 2, CINESI_MAX_SEATS, err, errlen);
    if (arr == NULL)
        return -1;
    int n = 0, used = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        int c = 0;
        while (c < CINESI_COLOURS &&
               !(cJSON_IsString(e) && strcmp(e->valuestring, cinesi_colour_names[c]) == 0))
            c++;
        if (c == CINESI_COLOURS)
            return rules_error(err, errlen, "", "seat_colours",
                               "entry %d must be one of red, yellow, green, blue", n + 1);
        if (used & (1 << c))
            return rules_error(err, errlen, "", "seat_colours", "%s is listed twice",
                               cinesi_colour_names[c]);
        used |= 1 << c;
        r->seat_colour[n++] = c;
    }
    r->ncolours_listed = n;
    return 0;
}

/* Reads "faces": how many faces of the die show each colour and white. */
static int load_faces(cinesi_rules *r, const cJSON *json, char *err, size_t errlen)
{
    const cJSON *faces = cJSON_GetObjectItemCaseSensitive(json, "faces");
    if (faces == NULL)
        return rules_error(err, errlen, "", "faces", "missing");
    if (rules_only_keys(faces, "faces", cinesi_colour_names, err, errlen))
        return -1;
    r->nfaces = 0;
    for (int c = 0; c <= CINESI_WHITE; c++) {
        long v;
        if (rules_int(faces, "faces", cinesi_colour_names[c], 0, CINESI_MAX_FACES, &v, err,
                      errlen))
            return -1;
        r->faces[c] = (int)v;
        for (int i = 0; i < v; i++)
            r->face_colour[r->nfaces++] = c;
    }
    if (r->nfaces == 0)
        return rules_error(err, errlen, "", "faces", "the die needs at least one face");
    return 0;
}

int cinesi_rules_load(void *out, const cJSON *json, char *err, size_t errlen)
{
    static const char *const keys[] = {"seat_colours", "faces", "side", "opening", NULL};
    cinesi_rules *r = out;
    long side;
    int opening;
    memset(r, 0, sizeof *r);
    if (rules_only_keys(json, "", keys, err, errlen) ||
        load_seat_colours(r, json, err, errlen) || load_faces(r, json, err, errlen) ||
        rules_int(json, "", "side", 3, CINESI_MAX_SIDE, &side, err, errlen) ||
        rules_enum(json, "", "opening", opening_names, &opening, err, errlen))
        return -1;
    if (side % 2 == 0)
        return rules_error(err, errlen, "", "side",
                           "must be odd (the centre is a square), not %ld", side);
    r->side = (int)side;
    r->steps = 4 * (r->side - 1) + (r->side - 1) / 2;
    r->opening = (cinesi_opening)opening;
    for (int c = 0, end = 0; c <= CINESI_WHITE; c++)
        r->face_end[c] = end += r->faces[c];
    while ((1 << r->face_bits) < r->nfaces)
        r->face_bits++;
    r->plain = r->face_bits == 3;
    for (int c = 0; c < CINESI_COLOURS; c++)
        r->plain = r->plain && r->face_end[c] == c + 1;
    for (int k = 0; k < r->ncolours_listed; k++)
        r->plain = r->plain && r->seat_colour[k] == k;
    return 0;
}

/* Every seat played needs a colour, and a face of it (or its figure could never move). */
int cinesi_rules_check(const void *rules, int nseats, char *err, size_t errlen)
{
    const cinesi_rules *r = rules;
    if (r->ncolours_listed < nseats)
        return rules_error(err, errlen, "", "seat_colours",
                           "has %d entries, one per seat is needed (%d seats)",
                           r->ncolours_listed, nseats);
    for (int k = 0; k < nseats; k++)
        if (r->faces[r->seat_colour[k]] == 0)
            return rules_error(err, errlen, "faces", cinesi_colour_names[r->seat_colour[k]],
                               "must be at least 1: seat %d plays it", k + 1);
    return 0;
}

/* ---- play ----------------------------------------------------------------------------
 *
 * The die is rolled in batches kept as bit planes: lane i of plane c is set when roll i of
 * the batch shows colour c. A batch draws face_bits random words; lane i of them spells a
 * face number, and lanes whose number is not a face (>= nfaces) are no rolls at all
 * (rejection: every kept lane is a fair roll, independent of the others). A whole stretch of
 * one player's rolls up to the first foreign colour is then a few mask operations. With a
 * scripted generator (tests), each batch is one rng_die roll, so scripts are read one roll
 * at a time. */

typedef struct dice {
    uint64_t colour[CINESI_COLOURS + 1]; /* lanes showing each colour, then white */
    uint64_t left;                       /* rolls of the batch not yet used */
} dice;

/* Lanes of the bit-sliced numbers b[0..bits-1] (b[0] the low bit) that are below k. */
static GIOCHI_INLINE uint64_t below(const uint64_t *b, int bits, int k)
{
    if (k >= 1 << bits)
        return ~0ULL;
    uint64_t lt = 0, eq = ~0ULL; /* below k so far; equal to k's bits so far */
    for (int i = bits - 1; i >= 0; i--) {
        uint64_t kb = -(uint64_t)(k >> i & 1); /* k's bit i in every lane */
        lt |= eq & ~b[i] & kb;
        eq &= ~(b[i] ^ kb);
    }
    return lt;
}

/* below() at every colour's end (face_end) for a die of 5 to 8 faces (3 bits), the
 * default's case: the lanes of each face number, one AND of the bits (or their negations)
 * each, then ORed in face order, so that the lanes below face e are ready for every e. */
static GIOCHI_INLINE void die8_below(uint64_t b0, uint64_t b1, uint64_t b2, const cinesi_rules *r,
                                     uint64_t *lt)
{
    uint64_t f0 = ~b1 & ~b0, f1 = ~b1 & b0, f2 = b1 & ~b0; /* faces 0..2 of bits 0 and 1 */
    uint64_t upto[9]; /* upto[e]: the lanes below face e */
    upto[0] = 0;
    upto[1] = f0 & ~b2;
    upto[2] = upto[1] | (f1 & ~b2);
    upto[3] = upto[2] | (f2 & ~b2);
    upto[4] = ~b2;
    upto[5] = upto[4] | (f0 & b2);
    upto[6] = upto[5] | (f1 & b2);
    upto[7] = upto[6] | (f2 & b2);
    upto[8] = ~0ULL;
    lt[0] = upto[r->face_end[0]];
    lt[1] = upto[r->face_end[1]];
    lt[2] = upto[r->face_end[2]];
    lt[3] = upto[r->face_end[3]];
    lt[CINESI_WHITE] = upto[r->face_end[CINESI_WHITE]];
}

/* Sets d's colour planes from lt, the lanes below each colour's end (face_end), and its
 * rolls: the colours' faces follow each other, so colour c's lanes are below its end but
 * not below the end of the colour before. */
static GIOCHI_INLINE void planes(dice *d, const uint64_t *lt)
{
    d->colour[0] = lt[0];
    d->colour[1] = lt[1] & ~lt[0];
    d->colour[2] = lt[2] & ~lt[1];
    d->colour[3] = lt[3] & ~lt[2];
    d->colour[CINESI_WHITE] = lt[CINESI_WHITE] & ~lt[3];
    d->left = lt[CINESI_WHITE]; /* below nfaces */
}

/* roll_batch for the tests' scripted generator: one scripted roll is a batch. */
static GIOCHI_NOINLINE void scripted_batch(dice *d, const cinesi_rules *r, rng *chance)
{
    int colour = r->face_colour[rng_die(chance, r->nfaces) - 1];
    for (int c = 0; c <= CINESI_WHITE; c++)
        d->colour[c] = colour == c;
    d->left = 1;
}

/* roll_batch for dice of other than 5 to 8 faces (other than 3 bits a lane). */
static GIOCHI_NOINLINE void other_batch(dice *d, const cinesi_rules *r, rng *chance)
{
    do {
        uint64_t b[8], lt[CINESI_COLOURS + 1];
        for (int i = 0; i < r->face_bits; i++)
            b[i] = rng_next(chance);
        for (int c = 0; c <= CINESI_WHITE; c++)
            lt[c] = below(b, r->face_bits, r->face_end[c]);
        planes(d, lt);
    } while (d->left == 0);
}

/* Rolls a new batch into d (at least one roll). */
static GIOCHI_INLINE void roll_batch(dice *d, const cinesi_rules *r, rng *chance)
{
    if (chance->script) {
        scripted_batch(d, r, chance);
        return;
    }
    if (r->face_bits != 3) {
        other_batch(d, r, chance);
        return;
    }
    do { /* word i is bit i of the face numbers */
        uint64_t lt[CINESI_COLOURS + 1];
        uint64_t b0 = rng_next(chance);
        uint64_t b1 = rng_next(chance);
        uint64_t b2 = rng_next(chance);
        die8_below(b0, b1, b2, r, lt);
        planes(d, lt);
    } while (d->left == 0);
}

/* The colour of lane `lane` of d. */
static int lane_colour(const dice *d, uint64_t lane)
{
    int c = 0;
    while (!(d->colour[c] & lane))
        c++;
    return c;
}

/* Traces the rolls of `lanes` (in lane order) by seat k, who stood at step `at` before them;
 * `next` is the seat the die passes to. */
static void trace_rolls(const cinesi_state *s, const dice *d, uint64_t lanes, int k, int at,
                        int next, int rolls, trace *tr)
{
    const cinesi_rules *r = s->rules;
    int own = r->seat_colour[k];
    for (; lanes; lanes &= lanes - 1) {
        int c = lane_colour(d, lanes & -lanes);
        const char *name = cinesi_colour_names[c];
        rolls++;
        if (c == own && ++at == r->steps) {
            TRACE(tr, "roll %d: seat %d rolls %s and reaches the centre", rolls, k + 1, name);
        } else if (c == own) {
            TRACE(tr, "roll %d: seat %d rolls %s: moves to step %d of %d, rolls again", rolls,
                  k + 1, name, at, r->steps);
        } else if (c == CINESI_WHITE) {
            TRACE(tr, "roll %d: seat %d rolls white: rolls again", rolls, k + 1);
        } else {
            bool played = false;
            for (int j = 0; j < s->nseats; j++)
                played = played || r->seat_colour[j] == c;
            TRACE(tr, "roll %d: seat %d rolls %s%s: passes the die to seat %d (%s)", rolls,
                  k + 1, name, played ? "" : " (nobody's colour)", next + 1,
                  cinesi_colour_names[r->seat_colour[next]]);
        }
    }
}

/* The opening under the colour readings: rolls until a colour somebody plays shows and
 * returns that seat; whites and colours nobody plays are rolled again. */
static int opening_roll(cinesi_state *s, dice *d, rng *chance, trace *tr)
{
    const cinesi_rules *r = s->rules;
    uint64_t played = 0;
    for (;;) {
        if (d->left == 0)
            roll_batch(d, r, chance);
        played = 0;
        for (int k = 0; k < s->nseats; k++)
            played |= d->colour[r->seat_colour[k]];
        uint64_t hit = played & d->left;
        uint64_t upto = hit ? (hit & -hit) * 2 - 1 : ~0ULL;
        for (uint64_t l = d->left & upto & ~hit; l; l &= l - 1)
            TRACE(tr, "opening roll %d: %s, nobody's: roll again", ++s->rolls,
                  cinesi_colour_names[lane_colour(d, l & -l)]);
        if (!tr)
            s->rolls += __builtin_popcountll(d->left & upto & ~hit);
        d->left &= ~upto;
        if (hit) {
            int c = lane_colour(d, hit & -hit), k = 0;
            while (r->seat_colour[k] != c)
                k++;
            s->rolls++;
            TRACE(tr, "opening roll %d: %s, seat %d starts", s->rolls, cinesi_colour_names[c],
                  k + 1);
            return k;
        }
    }
}

/* Notes a turn of len >= CINESI_SHORT_TURN rolls by seat k (rare: kept out of the loop). */
static GIOCHI_NOINLINE void long_turn(cinesi_state *s, int k, int len)
{
    if (!s->wide) /* the game's first: the cells of long turns come into use */
        for (int j = 0; j < s->nseats; j++)
            memset(&s->hist[j][CINESI_SHORT_TURN], 0,
                   (CINESI_TURN_BINS - CINESI_SHORT_TURN) * sizeof s->hist[j][0]);
    s->wide = true;
    int cell = len;
    if (len >= CINESI_TURN_BINS && s->nlong < CINESI_LONG_TURNS) {
        s->long_turn[s->nlong++] = len << 2 | k;
        return;
    }
    if (len >= CINESI_TURN_BINS) /* more than CINESI_LONG_TURNS turns of 64+: documented cap */
        cell = CINESI_TURN_BINS - 1;
    s->hist[k][cell]++;
    s->top = cell > s->top ? cell : s->top;
}

/* The current batch as each seat sees it when it holds the die. */
typedef struct seat_planes {
    uint64_t own[CINESI_MAX_SEATS];  /* lanes of the seat's colour: its figure moves */
    uint64_t pass[CINESI_MAX_SEATS]; /* lanes of another colour (not white): the die passes */
} seat_planes;

/* Splits the batch of d into sp for the n seats (a constant where it matters); returns its
 * rolls (the lanes that hold a face). */
static GIOCHI_INLINE uint64_t split(const dice *d, seat_planes *sp, const cinesi_rules *r,
                                    const int n)
{
    uint64_t white = d->colour[CINESI_WHITE], rolls = d->left;
    for (int k = 0; k < n; k++) {
        uint64_t own = d->colour[r->seat_colour[k]];
        sp->own[k] = own;
        sp->pass[k] = rolls & ~(own | white);
    }
    return rolls;
}

/* ---- fast path and reference: plain_batch reads a plain die's planes straight off the bits;
 * roll_batch and split above do the same for any die. Kept equal by the unit test
 * cinesi_plain_die_plays_the_games_of_the_general_way (the same games either way). ------ */

/* roll_batch and split for a plain die (cinesi_rules.plain) and n seats: the same batch,
 * its planes read straight off the bits. Face b2 b1 b0 is colour b1 b0 when b2 is clear
 * (faces 0..3), white when b2 is set and b1 b0 is below the white faces' count (faces 4..),
 * no roll otherwise. */
static GIOCHI_INLINE uint64_t plain_batch(dice *d, seat_planes *sp, const cinesi_rules *r,
                                          rng *chance, const int n)
{
    uint64_t b0, b1, b2, white, rolls;
    const int whites = r->faces[CINESI_WHITE]; /* 1..4: the die has 5..8 faces */
    do {
        b0 = rng_next(chance);
        b1 = rng_next(chance);
        b2 = rng_next(chance);
        uint64_t low = whites == 1   ? ~(b1 | b0)
                       : whites == 2 ? ~b1
                       : whites == 3 ? ~(b1 & b0)
                                     : ~0ULL; /* the lanes of b1 b0 below `whites` */
        white = b2 & low;
        rolls = ~b2 | white;
    } while (rolls == 0);
    uint64_t col = ~b2;
    d->colour[0] = col & ~b1 & ~b0;
    d->colour[1] = col & ~b1 & b0;
    d->colour[2] = col & b1 & ~b0;
    d->colour[3] = col & b1 & b0;
    d->colour[CINESI_WHITE] = white;
    d->left = rolls;
    GIOCHI_UNROLL(4)
    for (int k = 0; k < n; k++) {
        sp->own[k] = d->colour[k];
        sp->pass[k] = rolls & ~(d->colour[k] | white);
    }
    return rolls;
}

/* roll_batch and split for the other dice, and for the tests' scripted generator. */
static GIOCHI_NOINLINE uint64_t refill_any(dice *d, seat_planes *sp, const cinesi_rules *r,
                                           rng *chance, int n)
{
    roll_batch(d, r, chance);
    return n == 2 ? split(d, sp, r, 2) : n == 3 ? split(d, sp, r, 3) : split(d, sp, r, 4);
}

/* Rolls a new batch into d and splits it into sp for 2, 3 or 4 seats; returns its rolls.
 * Called once a batch (out of line, the plain die's way inline: doc/PERFORMANCE.md). */
static GIOCHI_NOINLINE uint64_t refill2(dice *d, seat_planes *sp, const cinesi_rules *r,
                                        rng *chance)
{
    if (r->plain && !chance->script)
        return plain_batch(d, sp, r, chance, 2);
    return refill_any(d, sp, r, chance, 2);
}

static GIOCHI_NOINLINE uint64_t refill3(dice *d, seat_planes *sp, const cinesi_rules *r,
                                        rng *chance)
{
    if (r->plain && !chance->script)
        return plain_batch(d, sp, r, chance, 3);
    return refill_any(d, sp, r, chance, 3);
}

static GIOCHI_NOINLINE uint64_t refill4(dice *d, seat_planes *sp, const cinesi_rules *r,
                                        rng *chance)
{
    if (r->plain && !chance->script)
        return plain_batch(d, sp, r, chance, 4);
    return refill_any(d, sp, r, chance, 4);
}

/* Cuts the stretch `range` of a player who reaches the centre with the need-th of his own
 * lanes (`own`) in it: returns the stretch up to that roll and takes it from *left. */
static GIOCHI_INLINE uint64_t cut_at_win(uint64_t range, uint64_t *left, uint64_t own, int need)
{
    uint64_t moves = range & own;
    for (int i = need; i > 1; i--)
        moves &= moves - 1;
    uint64_t upto = moves ^ (moves - 1);
    *left &= ~upto;
    return range & upto;
}

/* The rolls made before the lanes of `left`, for the trace. */
#define ROLLS_BEFORE() (s->rolls + issued - __builtin_popcountll(left))

/* One turn of seat k while seat L leads (L = NOBODY before any figure has moved); k and L
 * are constants, where the loop is unrolled. The turn runs up to the first colour of
 * another, across batches if need be, `len0` rolls already made in it (the opening's naming
 * roll). It moves the figure and records the turn's length; on a win it sets `winner` and
 * `last` and leaves the loop; when the figure goes past the leader's, the play goes on in the
 * copy of the loop where seat k leads. The leader's figure is the one furthest on
 * (pos##L), so nothing else keeps the top; and as only the leader can reach the centre
 * without going past him, a turn asks one question: the leader's, has he won; another's,
 * has he gone past the leader. */
#define TURN(L, k, len0)                                                                     \
    do {                                                                                     \
        uint64_t stop_ = left & sp.pass[k];                                                  \
        if (GIOCHI_LIKELY(stop_ != 0)) {                                                     \
            LAST_STRETCH(L, k, (len0));                                                      \
        } else { /* his rolls run past this batch */                                         \
            unsigned carry_ = (len0); /* rolls of the turn in the batches before */          \
            do {                                                                             \
                uint64_t range_ = left;                                                      \
                int p_ = pos##k + __builtin_popcountll(range_ & sp.own[k]);                  \
                if (p_ >= steps)                                                             \
                    WIN(L, k, carry_);                                                       \
                if (tr)                                                                      \
                    trace_rolls(s, &d, range_, k, pos##k, NEXT(k), ROLLS_BEFORE(), tr);      \
                pos##k = p_;                                                                 \
                carry_ += __builtin_popcountll(range_);                                      \
                left = n == 2   ? refill2(&d, &sp, r, chance)                                \
                       : n == 3 ? refill3(&d, &sp, r, chance)                                \
                                : refill4(&d, &sp, r, chance);                               \
                issued += __builtin_popcountll(left);                                        \
                stop_ = left & sp.pass[k];                                                   \
            } while (stop_ == 0);                                                            \
            LAST_STRETCH(L, k, carry_);                                                      \
        }                                                                                    \
    } while (0)

/* The seat after k. */
#define NEXT(k) ((k) + 1 == n ? 0 : (k) + 1)

/* The stretch of seat k's turn that ends with the pass stop_, `len` rolls made before it
 * in the turn. */
#define LAST_STRETCH(L, k, len)                                                              \
    do {                                                                                     \
        uint64_t upto_ = stop_ ^ (stop_ - 1); /* his rolls up to and with the pass */         \
        uint64_t range_ = left & upto_;                                                      \
        unsigned len_ = (len); /* unsigned: an index without a sign to extend */             \
        int p_ = pos##k + __builtin_popcountll(range_ & sp.own[k]);                          \
        if (GIOCHI_UNLIKELY((L) == (k) ? p_ >= steps : p_ > pos##L)) {                       \
            if (p_ >= steps)                                                                 \
                WIN(L, k, len_);                                                             \
            END_TURN(k);                                                                     \
            changes += (L) != NOBODY; /* a new sole leader */                                \
            goto lead##k##_after##k;                                                         \
        }                                                                                    \
        END_TURN(k);                                                                         \
    } while (0)

/* Notes the end of seat k's turn, his figure on step p, into the game's course: the one
 * standing a turn moves. */
#define NOTE_COURSE(k, p)                                                                    \
    do {                                                                                     \
        course_set(&s->course, (k), (p));                                                    \
        course_step(&s->course);                                                             \
    } while (0)

/* Moves seat k's figure to p_ for the stretch range_ that ends his turn (upto_: his rolls
 * up to and with the pass), and records the turn's length. */
#define END_TURN(k)                                                                          \
    do {                                                                                     \
        if (tr)                                                                              \
            trace_rolls(s, &d, range_, k, pos##k, NEXT(k), ROLLS_BEFORE(), tr);              \
        pos##k = p_;                                                                         \
        NOTE_COURSE(k, p_);                                                                  \
        len_ += __builtin_popcountll(range_);                                                \
        left &= ~upto_;                                                                      \
        if (GIOCHI_LIKELY(len_ < CINESI_SHORT_TURN))                                         \
            s->hist[k][len_]++;                                                              \
        else                                                                                 \
            long_turn(s, k, (int)len_);                                                      \
    } while (0)

/* Seat k's stretch range_ (from p_'s count) reaches the centre, `len` rolls into his turn:
 * cut it at the winning roll, note the lead going to k if it had not, and end the game. */
#define WIN(L, k, len)                                                                       \
    do {                                                                                     \
        int before_ = ROLLS_BEFORE();                                                        \
        changes += (L) != (k) && (L) != NOBODY;                                              \
        range_ = cut_at_win(range_, &left, sp.own[k], steps - pos##k);                       \
        if (tr)                                                                              \
            trace_rolls(s, &d, range_, k, pos##k, k, before_, tr);                           \
        pos##k = steps;                                                                      \
        winner = k;                                                                          \
        last = (len) + (unsigned)__builtin_popcountll(range_);                               \
        goto won;                                                                            \
    } while (0)

/* The loop while seat L leads: one pass is a round of turns, seat 1 first. Each seat's
 * turn has a label before it (for the start) and after it (for a new leader's copy). */
#define ROUNDS(L)                                                                            \
    for (;;) {                                                                               \
    lead##L##_at0 : GIOCHI_UNUSED;                                                           \
        TURN(L, 0, 0);                                                                       \
    lead##L##_after0 : GIOCHI_UNUSED;                                                        \
    lead##L##_at1 : GIOCHI_UNUSED;                                                           \
        TURN(L, 1, 0);                                                                       \
    lead##L##_after1 : GIOCHI_UNUSED;                                                        \
    lead##L##_at2 : GIOCHI_UNUSED;                                                           \
        if (n > 2)                                                                           \
            TURN(L, 2, 0);                                                                   \
    lead##L##_after2 : GIOCHI_UNUSED;                                                        \
    lead##L##_at3 : GIOCHI_UNUSED;                                                           \
        if (n > 3)                                                                           \
            TURN(L, 3, 0);                                                                   \
    lead##L##_after3 : GIOCHI_UNUSED;                                                        \
        rounds++;                                                                            \
    }

/* Plays the whole game for n seats (a constant in each copy: play() dispatches on it).
 *
 * The loop is unrolled by seat, so that each seat's figure, planes and histogram row sit at
 * fixed places, and copied once for each seat that may lead and once for nobody: which seat
 * leads is where the play is, not a value, so that a turn checks its figure against one
 * other only (the leader's, or the centre for the leader himself) and the lead, which moves
 * on unforeseeable turns, costs no guess of the processor's. The opening's starter enters
 * the loop at its own turn; under colour_moves that first turn is played apart, as it
 * carries the naming roll. */
static GIOCHI_INLINE void play_seats(cinesi_state *s, rng *chance, trace *tr, const int n)
{
    enum { NOBODY = -1 };
    const cinesi_rules *r = s->rules;
    const int steps = r->steps;
    dice d = {.left = 0};
    seat_planes sp;
    int pos0 = 0, pos1 = 0, pos2 = 0, pos3 = 0;
    const int posNOBODY = 0; /* the top while nobody leads */
    int c = 0, changes = 0, winner = 0, rounds = 0;
    unsigned last = 0;
    bool moved = false; /* the opening moved the starter (colour_moves) */
    if (r->opening == CINESI_OPEN_SEAT1) {
        TRACE(tr, "seat 1 (%s) takes the die", cinesi_colour_names[r->seat_colour[0]]);
    } else {
        c = opening_roll(s, &d, chance, tr);
        if (r->opening == CINESI_OPEN_COLOUR_MOVES) { /* the roll was his own colour */
            moved = true;
            TRACE(tr, "seat %d moves to step 1 of %d, rolls again", c + 1, steps);
        }
    }
    s->starter = c;
    /* The batch the opening left, seen from each seat. */
    uint64_t left = split(&d, &sp, r, n);
    int issued = __builtin_popcountll(left);
    if (!moved) {
        switch (c) {
        case 0:
            goto leadNOBODY_at0;
        case 1:
            goto leadNOBODY_at1;
        case 2:
            goto leadNOBODY_at2;
        default:
            goto leadNOBODY_at3;
        }
    }
    /* colour_moves: the starter stands on step 1, alone in the lead, one roll into his turn. */
    switch (c) {
    case 0:
        pos0 = 1;
        TURN(0, 0, 1);
        goto lead0_after0;
    case 1:
        pos1 = 1;
        TURN(1, 1, 1);
        goto lead1_after1;
    case 2:
        pos2 = 1;
        if (n > 2)
            TURN(2, 2, 1);
        goto lead2_after2;
    default:
        pos3 = 1;
        if (n > 3)
            TURN(3, 3, 1);
        goto lead3_after3;
    }
    ROUNDS(NOBODY)
    ROUNDS(0)
    ROUNDS(1)
    ROUNDS(2)
    ROUNDS(3)
won:
    NOTE_COURSE(winner, steps);
    if (last < CINESI_SHORT_TURN)
        s->hist[winner][last]++;
    else
        long_turn(s, winner, (int)last);
    const int pos[CINESI_MAX_SEATS] = {pos0, pos1, pos2, pos3};
    for (int k = 0; k < n; k++)
        s->pos[k] = pos[k];
    s->rolls += issued - __builtin_popcountll(left);
    s->turns = rounds * n + winner - c + 1;
    s->lead_changes = changes;
    s->winner = winner;
    TRACE(tr, "seat %d (%s) wins after %d turns and %d rolls", winner + 1,
          cinesi_colour_names[r->seat_colour[winner]], s->turns, s->rolls);
}

#undef ROUNDS
#undef NOTE_COURSE
#undef WIN
#undef END_TURN
#undef LAST_STRETCH
#undef NEXT
#undef TURN
#undef ROLLS_BEFORE
/* Plays the whole game, through the copy of the loop for the game's seat count. */
static GIOCHI_INLINE void play(cinesi_state *s, rng *chance, trace *tr)
{
    switch (s->nseats) {
    case 2:
        play_seats(s, chance, tr, 2);
        break;
    case 3:
        play_seats(s, chance, tr, 3);
        break;
    default:
        play_seats(s, chance, tr, 4);
        break;
    }
}

/* The same play, compiled twice: untraced with the processor's popcnt and BMI instructions
 * where it has them (the stretches are counted and cut with them), and for tracing, the
 * baseline x86-64 or other machines. Both play the same games: the unit test
 * cinesi_traced_and_untraced_games_are_the_same keeps them so; the unrolled play itself is
 * kept to the plain loop it replaced by cinesi_games_are_those_of_the_plain_loop. */
static void play_generic(cinesi_state *s, rng *chance, trace *tr)
{
    play(s, chance, tr);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_FAST_VARIANT 1
GIOCHI_TARGET_POPCNT static void play_fast(cinesi_state *s, rng *chance)
{
    play(s, chance, NULL);
}
#endif
void cinesi_start(void *st, const void *rules, int nseats, rng *chance, trace *tr)
{
    cinesi_state *s = st;
    s->rules = rules;
    s->nseats = nseats;
    s->winner = -1;
    s->rolls = s->turns = s->lead_changes = s->nlong = 0;
    s->wide = false;
    s->top = 0;
    memset(s->pos, 0, sizeof s->pos);
    static const int64_t level[CINESI_MAX_SEATS]; /* every figure in its corner */
    course_start_at(&s->course, level, nseats);
    for (int k = 0; k < nseats; k++) /* not the long turns' cells: see long_turn */
        for (int len = 0; len < CINESI_SHORT_TURN; len++)
            s->hist[k][len] = 0;
#ifdef HAVE_FAST_VARIANT
    if (tr == NULL && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi")) {
        play_fast(s, chance);
        return;
    }
#endif
    play_generic(s, chance, tr);
}

/* Nobody ever decides: the die does everything. */
bool cinesi_decide(const void *st, decision *d)
{
    (void)st;
    (void)d;
    return false;
}

void cinesi_apply(void *st, int32_t action, rng *chance, trace *tr)
{
    (void)st;
    (void)chance;
    (void)tr;
    fprintf(stderr, "cinesi: action %d applied, but the game has no decisions\n", (int)action);
    abort();
}

/* The metrics, in the order of CINESI_M_* (here for finish's records). */
const metric_def cinesi_metrics[] = {
    {"rolls", METRIC_MEAN, METRIC_GAME, "game length in rolls of the die (the opening's too)"},
    {"runner_up_distance", METRIC_MEAN, METRIC_GAME,
     "steps the runner-up still needed when the winner reached the centre"},
    {"rolls_per_turn", METRIC_MEAN, METRIC_SEAT,
     "rolls in one turn of the seat (the winning turn too, up to the win)"},
    COURSE_METRIC_DEFS,
    {NULL, 0, 0, NULL},
};

void cinesi_finish(const void *st, outcome *o, recorder *rec)
{
    const cinesi_state *s = st;
    int runner_up = 0;
    o->nseats = s->nseats;
    o->length = s->turns;
    o->end = 0;
    o->winners = 1u << s->winner;
    for (int k = 0; k < s->nseats; k++) {
        o->score[k] = s->pos[k];
        o->rank[k] = 1;
        for (int j = 0; j < s->nseats; j++)
            o->rank[k] += s->pos[j] > s->pos[k];
        if (k != s->winner && s->pos[k] > runner_up)
            runner_up = s->pos[k];
    }
    if (rec == NULL)
        return;
    rec_batch b = rec_batch_open(rec, cinesi_metrics);
    rec_batch_value(&b, CINESI_M_ROLLS, -1, s->rolls);
    rec_batch_value(&b, CINESI_M_RUNNER_UP, -1, s->rules->steps - runner_up);
    int n = s->nseats, rounds = s->turns / n, extra = s->turns % n;
    int cells = s->top > CINESI_SHORT_TURN - 1 ? s->top : CINESI_SHORT_TURN - 1; /* from 1 */
    for (int k = 0; k < n; k++) {
        /* Seat k's turns in its histogram: all it played but those kept one by one. */
        int after = k - s->starter < 0 ? k - s->starter + n : k - s->starter; /* seats */
        int left = rounds + (after < extra);
        for (int i = 0; i < s->nlong; i++)
            left -= (s->long_turn[i] & 3) == k;
        rec_batch_hist(&b, CINESI_M_ROLLS_PER_TURN, k, 1, &s->hist[k][1], cells, left);
    }
    for (int i = 0; i < s->nlong; i++)
        rec_batch_value(&b, CINESI_M_ROLLS_PER_TURN, s->long_turn[i] & 3, s->long_turn[i] >> 2);
    course_record(&s->course, o->winners, &b, CINESI_M_COURSE);
}

void cinesi_action_name(const void *st, const decision *d, int32_t a, char *buf, size_t n)
{
    (void)st;
    (void)d;
    snprintf(buf, n, "action %d (the game has none)", (int)a);
}

/* game_type.standing: the steps each figure has made towards the centre. */
void cinesi_standing(const void *st, int64_t *out)
{
    const cinesi_state *s = st;
    for (int k = 0; k < s->nseats; k++)
        out[k] = s->pos[k];
}

/* ---- descriptor ---------------------------------------------------------------------- */

const char *const cinesi_kind_names[] = {NULL}; /* nobody decides */

const char *const cinesi_end_names[] = {"centre", NULL};
/* The end in words for a person (game_type.end_words). */
const char *const cinesi_end_words[] = {"a figure reached the centre", NULL};

/* The summary: the length of a race and how close it ends. */
const char *const cinesi_headline[] = {"rolls", "runner_up_distance", NULL};

const metric_group cinesi_groups[] = {
    {"The race", (const char *const[]){"rolls", "rolls_per_turn", "runner_up_distance", NULL}},
    COURSE_GROUP,
    {NULL, NULL},
};

const metric_label cinesi_labels[] = {
    {"rolls", "length of the game in rolls", "rolls"},
    {"runner_up_distance", "steps the runner-up still needed", "steps"},
    {"rolls_per_turn", "rolls in one of the seat's turns", "rolls"},
    COURSE_METRIC_LABELS,
    {NULL, NULL, NULL},
};


/* --check: every figure between its corner and the centre; the winner, once there is one,
 * is the one figure at the centre; counts consistent (a turn has at least one roll). */
int cinesi_check(const void *st, char *err, size_t errlen)
{
    const cinesi_state *s = st;
    int at_centre = -1;
    for (int k = 0; k < s->nseats; k++) {
        if (s->pos[k] < 0 || s->pos[k] > s->rules->steps) {
            snprintf(err, errlen, "seat %d's figure at step %d, outside 0..%d", k + 1, s->pos[k],
                     s->rules->steps);
            return -1;
        }
        if (s->pos[k] == s->rules->steps) {
            if (at_centre >= 0) {
                snprintf(err, errlen, "seats %d and %d both at the centre", at_centre + 1, k + 1);
                return -1;
            }
            at_centre = k;
        }
    }
    if (at_centre != s->winner) {
        snprintf(err, errlen, "winner %d but the figure at the centre is seat %d's",
                 s->winner + 1, at_centre + 1);
        return -1;
    }
    if (s->turns < 0 || s->rolls < s->turns) {
        snprintf(err, errlen, "%d rolls for %d turns", s->rolls, s->turns);
        return -1;
    }
    return 0;
}
/* What one game can record: a race has no longest game (a figure sent home runs again) and
 * nobody chooses; a seat's turns, each one observation of rolls_per_turn, are at most the
 * game's turns, and one more. */
void cinesi_limits(const void *rules, int nseats, game_limits *l)
{
    (void)rules;
    (void)nseats;
    static const char *const per_turn[] = {"rolls_per_turn", NULL};
    *l = (game_limits){.length = 0, .repeated = per_turn, .repeats = {1, 1}};
}

/* The game's own words, as the reports use them (RULES-NOTES, cinesi; giochi-sim-cinesi(7)). */
const game_term cinesi_glossary[] = {
    {"own colour", "the die shows the player's colour; his figure moves one step and he rolls "
                   "again"},
    {"white", "one of the die's two white faces; no move, and roll again"},
    {"another colour", "the die passes to the neighbour"},
    {"centre", "the goal, reached once round the board, then up the player's own diagonal"},
    {"steps", "the squares a figure has moved on its way to the centre"},
    {NULL, NULL},
};
