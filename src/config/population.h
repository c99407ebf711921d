/* population.h — a population of players: a weighted mixture of bot specs whose knobs are
 * fixed or drawn from a distribution, from which each seat of each game draws its player.
 *
 * A population is written as JSON (giochi-sim(1), POPULATIONS; configs/populations/):
 *
 *   {"name": "oca-mixed", "doc": "...",
 *    "members": [
 *      {"type": "banker", "weight": 2, "bot": "greedy",
 *       "knobs": {"max_bid": {"uniform": [30, 80]},
 *                 "gamble": {"normal": {"mean": 20, "sd": 10, "min": 0, "max": 60}},
 *                 "declare": {"choice": [0, 1, 2], "weights": [1, 1, 2]},
 *                 "value_sd": 0}}, ...]}
 *
 * A seat names it in --bots as pop:NAME (a built-in population) or pop:FILE. The draw of
 * seat k in game i is a pure function of the run's master seed, i and k (stream
 * RNG_STREAM_POP(k)), so a run with populations gives the same bytes at any thread count,
 * in shards and under MPI. */
#ifndef GIOCHI_POPULATION_H
#define GIOCHI_POPULATION_H

#include <stdbool.h>
#include <stddef.h>

#include "config/botspec.h"
#include "core/runner.h"

enum { POP_MAX_MEMBERS = 16, POP_MAX_CHOICES = 32, POP_NAME_MAX = 64 };

/* How one knob of a member is set. */
typedef enum pop_dist {
    POP_FIXED,   /* the member's bot spec value (or a number given in "knobs") */
    POP_UNIFORM, /* uniform on [a, b]; a whole knob: each whole number of a..b alike */
    POP_NORMAL,  /* mean a, sd b, clamped to [lo, hi]; a whole knob is rounded to nearest */
    POP_CHOICE,  /* one of value[0..nchoice-1], with weights w */
} pop_dist;

typedef struct pop_knob {
    pop_dist dist;
    double a, b, lo, hi;
    int nchoice;
    double value[POP_MAX_CHOICES];
    double cum[POP_MAX_CHOICES]; /* cumulative weights, cum[nchoice-1] the total */
} pop_knob;

typedef struct pop_member {
    char type[POP_NAME_MAX]; /* the type's name, unique within the population */
    double weight;
    seat_spec spec;             /* the bot and its values: the fixed knobs and the base */
    char canon[BOT_SPEC_MAX];   /* the member's bot spec in canonical form (botspec.h) */
    pop_knob knob[BOT_MAX_PARAMS];
    int nparams;
    bool drawn; /* some knob is drawn: the member's values change from game to game */
} pop_member;

struct population {
    char name[POP_NAME_MAX];
    char source[512]; /* as the seat named it: a built-in name or a file */
    char sha256[65];  /* of its JSON text, in hex: what a shard's identity records */
    const game_type *game;
    int nseats; /* the table its members' defaults were taken at */
    int nmembers;
    pop_member member[POP_MAX_MEMBERS];
    double cum[POP_MAX_MEMBERS]; /* cumulative weights */
};

/* Loads the population `source` (a built-in name, see population_builtin, or a JSON file)
 * for game g at a table of nseats players. Populations are kept for the life of the
 * process: loading the same source for the same game and table again returns the same
 * object. Returns NULL with one line in err ("population 'x.json': member 2 ('gambler'):
 * knob 'max_bid': uniform bounds 90..10 are not in order") on any fault: an unreadable file,
 * bad JSON, an unknown key, no members, a weight not positive, an unknown bot or knob, a
 * value out of the knob's range or not whole for a whole knob, a distribution that cannot be
 * drawn (bounds out of order or outside the range, an sd not positive, no choice, a choice
 * weight not positive), a member that is itself a population. */
const population *population_load(const game_type *g, const char *source, int nseats,
                                   char *err, size_t errlen);

/* Parses population JSON text (what: the name for messages) as population_load does, into
 * *out (not kept). Returns 0 or -1 with a message. */
int population_parse(const game_type *g, const char *text, const char *what, int nseats,
                     population *out, char *err, size_t errlen);

/* The JSON text of the built-in population called name (configs/populations/NAME.json,
 * embedded), or NULL. */
const char *population_builtin(const char *name);

/* Writes the names of the built-in populations for game g ("oca-mixed, ...") into buf; a
 * built-in population belongs to the game its "game" key names. */
void population_builtin_names(const game_type *g, char *buf, size_t n);

/* Stream of the member draw of seat k (rng_derive's `stream`): apart from the chance stream
 * and the seats' own, so that drawing players changes neither the dice nor any bot's draws. */
#define RNG_STREAM_POP(k) (64u + (unsigned)(k))

#endif
