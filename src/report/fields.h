/* fields.h — reading the report tree, for every renderer (text, CSV, HTML, plots, experiments). */
#ifndef GIOCHI_FIELDS_H
#define GIOCHI_FIELDS_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Member `key` of o as a number; NAN if absent or not a number (o may be NULL). */
double report_num(const cJSON *o, const char *key);

/* Member `key` of o as a string; "" if absent or not a string (o may be NULL). Not a copy. */
const char *report_str(const cJSON *o, const char *key);

/* The words and unit of figure `fig` (NAME or NAME@K, as --metric takes it) of game `game`:
 * "game length" in the game's length unit, "win share of seat 1", the game's own label of a
 * metric ("players who went bankrupt") with its unit, the name itself when the game gives no
 * label. unit gets "" for a share or a plain count. Writes at most n (un) bytes; returns buf. */
char *report_figure_label(const char *game, const char *fig, char *buf, size_t n, char *unit,
                          size_t un);

#endif
