/* population.h — the bot of a seat that draws its player from a population each game. */
#ifndef GIOCHI_BOTS_POPULATION_H
#define GIOCHI_BOTS_POPULATION_H

#include <stdbool.h>

#include "core/game.h"

/* The seat of a population (seat_spec.pop, see config/population.h): botspec_parse gives
 * it to a seat named pop:NAME or pop:FILE. Its member hook tells which member (type) plays
 * the current game. */
extern const bot_type bot_population;

struct population;
/* Draws a member of population p (its index into p->member) and that member's knob values
 * (into param, one per entry of the member's bot's params) from r: the member by its weight,
 * then each drawn knob in the order of the bot's params. */
int population_draw(const struct population *p, rng *r, double *param);

/* Tests only: with on, every new draw of a member's knobs sets the member up afresh (the plain
 * way), never through its bot's retune; a run must give the same figures either way. Not
 * thread-safe: set it before a run. */
void bot_population_plain(bool on);

#endif
