/* cinesi.c — the Gioco dei Cinesi (Chinesenspiel, seed 004): a race of one figure per player
 * round a square board and up its diagonal, moved only by a colour die (own colour: one
 * square and roll again; white: roll again; any other colour: the die passes on). Nobody
 * decides anything: start() plays the whole game from the chance stream. */
#include "cinesi.h"

#include <stdlib.h>
#include <string.h>

#include "configs.h"
#include "registry.h"
#include "rules.h"

const char *const cinesi_colour_names[CINESI_COLOURS + 2] = {"red",  "yellow", "green",
                                                             "blue", "white",  NULL};

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

static int rules_load(void *out, const cJSON *json, char *err, size_t errlen)
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
    return 0;
}

/* Every seat played needs a colour, and a face of it (or its figure could never move). */
static int rules_check(const void *rules, int nseats, char *err, size_t errlen)
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
static inline __attribute__((always_inline)) uint64_t below(const uint64_t *b, int bits, int k)
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

/* Rolls a new batch into d (at least one roll). */
static inline __attribute__((always_inline)) void roll_batch(dice *d, const cinesi_rules *r,
                                                             rng *chance)
{
    if (chance->script) { /* tests: one scripted roll per batch */
        int colour = r->face_colour[rng_die(chance, r->nfaces) - 1];
        for (int c = 0; c <= CINESI_WHITE; c++)
            d->colour[c] = colour == c;
        d->left = 1;
        return;
    }
    do {
        uint64_t b[8];
        for (int i = 0; i < r->face_bits; i++)
            b[i] = rng_next(chance);
        uint64_t prev = 0;
        for (int c = 0; c <= CINESI_WHITE; c++) {
            uint64_t lt = below(b, r->face_bits, r->face_end[c]);
            d->colour[c] = lt & ~prev;
            prev = lt;
        }
        d->left = prev; /* below nfaces */
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

/* Notes a turn of len >= CINESI_TURN_BINS rolls by seat k (rare: kept out of the loop). */
static __attribute__((noinline)) void long_turn(cinesi_state *s, int k, int len)
{
    if (s->nlong < CINESI_LONG_TURNS)
        s->long_turn[s->nlong++] = len << 2 | k;
    else /* more than CINESI_LONG_TURNS turns of 64+ rolls in one game: documented cap */
        s->hist[k][CINESI_TURN_BINS - 1]++;
}

/* Plays the whole game. One step of the loop is one stretch of the rolls of the player who
 * holds the die: up to and including the first foreign colour (which ends his turn and
 * passes the die to the next seat), or to the end of the batch. His own colour moves him one
 * square and he rolls again; white: he rolls again. */
static inline __attribute__((always_inline)) void play(cinesi_state *s, rng *chance,
                                                       trace *tr)
{
    const cinesi_rules *r = s->rules;
    const int steps = r->steps, n = s->nseats;
    dice d = {.left = 0};
    int c = 0, len = 0, top = 0, leader = -1;
    if (r->opening == CINESI_OPEN_SEAT1) {
        TRACE(tr, "seat 1 (%s) takes the die", cinesi_colour_names[r->seat_colour[0]]);
    } else {
        c = opening_roll(s, &d, chance, tr);
        if (r->opening == CINESI_OPEN_COLOUR_MOVES) { /* the roll was his own colour */
            s->pos[c] = top = 1;
            leader = c;
            len = 1;
            TRACE(tr, "seat %d moves to step 1 of %d, rolls again", c + 1, steps);
        }
    }
    s->starter = c;
    /* The counters live in locals in the loop (the state is written back at the end), and
     * each batch is copied into one plane per seat (its own colour) and the whites. */
    int pos[CINESI_MAX_SEATS] = {s->pos[0], s->pos[1], s->pos[2], s->pos[3]};
    int rolls = s->rolls, turns = 1, changes = 0, maxlen = 0;
    uint32_t *hist = &s->hist[0][0];
    uint64_t left = d.left, white = d.colour[CINESI_WHITE], plane[CINESI_MAX_SEATS];
    int next[CINESI_MAX_SEATS];
    for (int k = 0; k < n; k++)
        next[k] = k + 1 == n ? 0 : k + 1;
    for (int k = 0; k < n; k++)
        plane[k] = d.colour[r->seat_colour[k]];
    for (;;) {
        if (left == 0) {
            roll_batch(&d, r, chance);
            left = d.left;
            white = d.colour[CINESI_WHITE];
            for (int k = 0; k < n; k++)
                plane[k] = d.colour[r->seat_colour[k]];
        }
        uint64_t own = plane[c] & left;
        uint64_t pass = left & ~(own | white);
        uint64_t upto = pass ^ (pass - 1); /* lanes up to the first pass; all if none */
        int at = pos[c], p = at + __builtin_popcountll(own & upto);
        if (__builtin_expect(p > top, 0)) { /* a new sole leader, or one further ahead */
            if (leader != c) {
                changes += leader >= 0;
                leader = c;
            }
            top = p;
            if (p >= steps) { /* he reaches the centre in this stretch: cut it there */
                uint64_t moves = own & upto;
                for (int i = steps - at; i > 1; i--)
                    moves &= moves - 1;
                upto = moves ^ (moves - 1);
                int used = __builtin_popcountll(left & upto);
                if (tr)
                    trace_rolls(s, &d, left & upto, c, at, c, rolls, tr);
                rolls += used;
                len += used;
                pos[c] = steps;
                break;
            }
        }
        int used = __builtin_popcountll(left & upto);
        if (tr)
            trace_rolls(s, &d, left & upto, c, at, next[c], rolls, tr);
        rolls += used;
        len += used;
        left &= ~upto;
        pos[c] = p;
        if (pass) {
            if (len < CINESI_TURN_BINS)
                hist[c * CINESI_TURN_BINS + len]++;
            else
                long_turn(s, c, len);
            maxlen |= len; /* an upper bound of the longest turn, below 2 x longest */
            len = 0;
            c = next[c];
            turns++;
        }
    }
    if (len < CINESI_TURN_BINS)
        hist[c * CINESI_TURN_BINS + len]++;
    else
        long_turn(s, c, len);
    maxlen |= len;
    s->maxlen = maxlen < CINESI_TURN_BINS ? maxlen : CINESI_TURN_BINS - 1;
    memcpy(s->pos, pos, sizeof pos);
    s->rolls = rolls;
    s->turns = turns;
    s->lead_changes = changes;
    s->winner = c;
    TRACE(tr, "seat %d (%s) wins after %d turns and %d rolls", c + 1,
          cinesi_colour_names[r->seat_colour[c]], s->turns, s->rolls);
}

/* The same play, compiled twice: untraced with the processor's popcnt and BMI instructions
 * where it has them (the stretches are counted and cut with them), and for tracing, the
 * baseline x86-64 or other machines. Both play the same games. */
static void play_generic(cinesi_state *s, rng *chance, trace *tr)
{
    play(s, chance, tr);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_FAST_VARIANT 1
__attribute__((target("popcnt,bmi"))) static void play_fast(cinesi_state *s, rng *chance)
{
    play(s, chance, NULL);
}
#endif

static void start(void *st, const void *rules, int nseats, rng *chance, trace *tr)
{
    cinesi_state *s = st;
    s->rules = rules;
    s->nseats = nseats;
    s->winner = -1;
    s->rolls = s->turns = s->lead_changes = s->nlong = s->maxlen = 0;
    memset(s->pos, 0, sizeof s->pos);
    for (int k = 0; k < nseats; k++)
        memset(s->hist[k], 0, sizeof s->hist[k]);
#ifdef HAVE_FAST_VARIANT
    if (tr == NULL && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi")) {
        play_fast(s, chance);
        return;
    }
#endif
    play_generic(s, chance, tr);
}

/* Nobody ever decides: the die does everything. */
static bool decide(const void *st, decision *d)
{
    (void)st;
    (void)d;
    return false;
}

static void apply(void *st, int32_t action, rng *chance, trace *tr)
{
    (void)st;
    (void)chance;
    (void)tr;
    fprintf(stderr, "cinesi: action %d applied, but the game has no decisions\n", (int)action);
    abort();
}

static void finish(const void *st, outcome *o, recorder *rec)
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
    rec_value(rec, CINESI_M_ROLLS, -1, s->rolls);
    rec_value(rec, CINESI_M_LEAD_CHANGES, -1, s->lead_changes);
    rec_value(rec, CINESI_M_RUNNER_UP, -1, s->rules->steps - runner_up);
    for (int k = 0; k < s->nseats; k++)
        for (int len = 1; len <= s->maxlen; len++)
            if (s->hist[k][len])
                rec_values(rec, CINESI_M_ROLLS_PER_TURN, k, len, s->hist[k][len]);
    for (int i = 0; i < s->nlong; i++)
        rec_value(rec, CINESI_M_ROLLS_PER_TURN, s->long_turn[i] & 3, s->long_turn[i] >> 2);
}

static void action_name(const void *st, const decision *d, int32_t a, char *buf, size_t n)
{
    (void)st;
    (void)d;
    snprintf(buf, n, "action %d (the game has none)", (int)a);
}

/* ---- descriptor ---------------------------------------------------------------------- */

static const char *const kind_names[] = {NULL}; /* nobody decides */

static const char *const end_names[] = {"centre", NULL};

static const metric_def metrics[] = {
    {"rolls", METRIC_MEAN, METRIC_GAME, "game length in rolls of the die (the opening's too)"},
    {"lead_changes", METRIC_MEAN, METRIC_GAME,
     "times a figure went alone into the lead after another had led alone"},
    {"runner_up_distance", METRIC_MEAN, METRIC_GAME,
     "steps the runner-up still needed when the winner reached the centre"},
    {"rolls_per_turn", METRIC_MEAN, METRIC_SEAT,
     "rolls in one turn of the seat (the winning turn too, up to the win)"},
    {NULL, 0, 0, NULL},
};

/* The summary: the length of a race and how close it ends. */
static const char *const headline[] = {"rolls", "runner_up_distance", NULL};

static const metric_group groups[] = {
    {"The race", (const char *const[]){"rolls", "rolls_per_turn", "lead_changes",
                                       "runner_up_distance", NULL}},
    {NULL, NULL},
};

static const metric_label labels[] = {
    {"rolls", "length of the game in rolls", "rolls"},
    {"lead_changes", "times the lead changed hands", "changes"},
    {"runner_up_distance", "steps the runner-up still needed", "steps"},
    {"rolls_per_turn", "rolls in one of the seat's turns", "rolls"},
    {NULL, NULL, NULL},
};

static const bot_type *const bots[] = {&bot_random, NULL};

/* --check: every figure between its corner and the centre; the winner, once there is one,
 * is the one figure at the centre; counts consistent (a turn has at least one roll). */
static int check(const void *st, char *err, size_t errlen)
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

const game_type game_cinesi = {
    .name = "cinesi",
    .title = "Gioco dei Cinesi (Chinesenspiel)",
    .seed = "004_46aece1981b71774.txt",
    .min_seats = 2,
    .max_seats = CINESI_MAX_SEATS,
    .default_seats = 4,
    .default_bot = "random",
    .default_rules = config_cinesi_json,
    .rules_size = sizeof(cinesi_rules),
    .rules_load = rules_load,
    .rules_check = rules_check,
    .state_size = sizeof(cinesi_state),
    .start = start,
    .decide = decide,
    .apply = apply,
    .finish = finish,
    .check = check,
    .view_size = 0,
    .view = NULL,
    .action_name = action_name,
    .kind_names = kind_names,
    .end_names = end_names,
    .metrics = metrics,
    .length_unit = "turns",
    .score_name = "steps",
    .low_score_wins = false,
    .exact = cinesi_exact_json,
    .bots = bots,
    .headline = headline,
    .groups = groups,
    .labels = labels,
};
