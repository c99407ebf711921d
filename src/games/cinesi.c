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
    for (int k = 0; k < r->ncolours_listed; k++)
        for (int f = 0; f < r->nfaces; f++) {
            int c = r->face_colour[f];
            r->meaning[k][f] = c == CINESI_WHITE          ? CINESI_ROLL_AGAIN
                               : c == r->seat_colour[k] ? CINESI_MOVE
                                                        : CINESI_PASS;
        }
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

/* ---- play ---------------------------------------------------------------------------- */

/* Notes a finished turn of `len` rolls by seat k. */
static void end_turn(cinesi_state *s, int k, int len)
{
    if (len < CINESI_TURN_BINS)
        s->hist[k][len]++;
    else if (s->nlong < CINESI_LONG_TURNS)
        s->long_turn[s->nlong++] = len << 2 | k;
    else /* more than CINESI_LONG_TURNS turns of 64+ rolls in one game: documented cap */
        s->hist[k][CINESI_TURN_BINS - 1]++;
}

static void trace_roll(const cinesi_state *s, int k, int colour, int meaning, int next,
                       trace *tr)
{
    const cinesi_rules *r = s->rules;
    const char *name = cinesi_colour_names[colour];
    if (meaning == CINESI_MOVE) {
        TRACE(tr, "roll %d: seat %d rolls %s: moves to step %d of %d, rolls again", s->rolls,
              k + 1, name, s->pos[k], r->steps);
        return;
    }
    if (meaning == CINESI_ROLL_AGAIN) {
        TRACE(tr, "roll %d: seat %d rolls %s: rolls again", s->rolls, k + 1, name);
        return;
    }
    bool played = false;
    for (int j = 0; j < s->nseats; j++)
        played = played || r->seat_colour[j] == colour;
    TRACE(tr, "roll %d: seat %d rolls %s%s: passes the die to seat %d (%s)", s->rolls, k + 1,
          name, played ? "" : " (nobody's colour)", next + 1,
          cinesi_colour_names[r->seat_colour[next]]);
}

/* The opening under the colour readings: rolls until a colour somebody plays shows and
 * returns that seat; whites and colours nobody plays are rolled again. */
static int opening_roll(cinesi_state *s, rng *chance, trace *tr)
{
    const cinesi_rules *r = s->rules;
    for (;;) {
        int colour = r->face_colour[rng_die(chance, r->nfaces) - 1];
        s->rolls++;
        for (int k = 0; k < s->nseats; k++)
            if (r->seat_colour[k] == colour) {
                TRACE(tr, "opening roll %d: %s, seat %d starts", s->rolls,
                      cinesi_colour_names[colour], k + 1);
                return k;
            }
        TRACE(tr, "opening roll %d: %s, nobody's: roll again", s->rolls,
              cinesi_colour_names[colour]);
    }
}

/* Plays the whole game. The loop is the rules of one roll: own colour moves one square and
 * keeps the die, white keeps it, any other colour ends the turn and passes the die on. */
static void play(cinesi_state *s, rng *chance, trace *tr)
{
    const cinesi_rules *r = s->rules;
    const int steps = r->steps, faces = r->nfaces, n = s->nseats;
    int c = 0, len = 0, top = 0, leader = -1;
    if (r->opening == CINESI_OPEN_SEAT1) {
        TRACE(tr, "seat 1 (%s) takes the die", cinesi_colour_names[r->seat_colour[0]]);
    } else {
        c = opening_roll(s, chance, tr);
        if (r->opening == CINESI_OPEN_COLOUR_MOVES) { /* the roll was his own colour */
            s->pos[c] = top = 1;
            leader = c;
            len = 1;
            TRACE(tr, "seat %d moves to step 1 of %d, rolls again", c + 1, steps);
        }
    }
    s->starter = c;
    s->turns = 1;
    int *pos = s->pos;
    for (;;) {
        int f = rng_die(chance, faces) - 1;
        int m = r->meaning[c][f];
        s->rolls++;
        len++;
        int p = pos[c] + (m & CINESI_MOVE);
        pos[c] = p;
        if (p > top) { /* a new sole leader, or the same one further ahead */
            top = p;
            if (leader != c) {
                s->lead_changes += leader >= 0;
                leader = c;
            }
            if (p == steps)
                break;
        }
        int next = c + 1 == n ? 0 : c + 1;
        if (tr)
            trace_roll(s, c, r->face_colour[f], m, next, tr);
        if (m & CINESI_PASS) {
            end_turn(s, c, len);
            len = 0;
            c = next;
            s->turns++;
        }
    }
    end_turn(s, c, len);
    s->winner = c;
    TRACE(tr, "roll %d: seat %d rolls %s and reaches the centre: seat %d wins after %d turns",
          s->rolls, c + 1, cinesi_colour_names[r->seat_colour[c]], c + 1, s->turns);
}

static void start(void *st, const void *rules, int nseats, rng *chance, trace *tr)
{
    cinesi_state *s = st;
    s->rules = rules;
    s->nseats = nseats;
    s->winner = -1;
    s->rolls = s->turns = s->lead_changes = s->nlong = 0;
    for (int k = 0; k < nseats; k++) {
        s->pos[k] = 0;
        memset(s->hist[k], 0, sizeof s->hist[k]);
    }
    play(s, chance, tr);
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
        for (int len = 1; len < CINESI_TURN_BINS; len++)
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

static const bot_type *const bots[] = {&bot_random, NULL};

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
};
