/* population.h — the bot of a seat that draws its player from a population each game. */
#ifndef GIOCHI_BOTS_POPULATION_H
#define GIOCHI_BOTS_POPULATION_H

#include "core/game.h"

/* The seat of a population (seat_spec.pop, see config/population.h): botspec_parse gives
 * it to a seat named pop:NAME or pop:FILE. Its member hook tells which member (type) plays
 * the current game. */
extern const bot_type bot_population;

#endif
