/* botspec.h — bots as the command line names them: "name:key=value:key=value", comma per seat. */
#ifndef GIOCHI_BOTSPEC_H
#define GIOCHI_BOTSPEC_H

#include <stddef.h>

#include "core/runner.h"

enum { BOT_SPEC_MAX = 1024 }; /* room for a bot with all its parameters written out */

/* Parses one bot of game g, "name" or "name:key=value:...", into spec (parameters not given
 * take their defaults at the game's default table of players). Writes into canon (ncanon
 * bytes) the bot's canonical description: its name and every parameter that differs from its
 * default, in table order, each value written to all its digits, so that two bots describe
 * alike exactly when they play alike (at that table).
 * A value is written as a JSON number (16, 0.25, 1e3; not 0x10, 016 or " 16").
 * Returns 0, or -1 with a one-line message in err (unknown bot or parameter, with the valid
 * names; a value that is not a number or out of range; a parameter given twice or empty). */
int botspec_parse(const game_type *g, const char *text, seat_spec *spec, char *canon,
                  size_t ncanon, char *err, size_t errlen);

/* botspec_parse for a table of nseats players: the parameters not given take their defaults
 * at that table (bot_param_default), and the canonical description leaves out the parameters
 * that equal them (botspec_parse: the game's default table). */
int botspec_parse_at(const game_type *g, const char *text, int nseats, seat_spec *spec,
                     char *canon, size_t ncanon, char *err, size_t errlen);

/* Parses a comma-separated list: one bot per seat, or a single bot for every seat. nseats 0
 * means "as many seats as bots listed, or the game's default for a single bot". Fills
 * seats[0..n-1] and canon[0..n-1]; returns the number of seats n, or -1 with a message. The
 * caller checks n against the game's seat range. */
int botspec_parse_list(const game_type *g, const char *list, int nseats, seat_spec *seats,
                       char (*canon)[BOT_SPEC_MAX], char *err, size_t errlen);

/* How a seat named pop:SOURCE becomes a seat spec (config/population.c registers it): the
 * arguments and result of botspec_parse_at, SOURCE the text after "pop:". */
typedef int botspec_pop_fn(const game_type *g, const char *source, int nseats, seat_spec *spec,
                           char *canon, size_t ncanon, char *err, size_t errlen);
void botspec_set_population(botspec_pop_fn *fn);

#endif
