/* plot.h — the charts of a report (win shares, game length, headline metrics), drawn by
 * gnuplot as SVG, PNG or PDF from the report tree. */
#ifndef GIOCHI_PLOT_H
#define GIOCHI_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

typedef enum plot_format { PLOT_SVG, PLOT_PNG, PLOT_PDF } plot_format;

/* The format a file name asks for by its extension (.svg, .png, .pdf, any case), or -1. */
int plot_format_of(const char *path);

/* True if a `gnuplot` program is on the PATH. */
bool plot_available(void);

/* Writes to f the gnuplot script that draws report r in fmt into the file `output`: one
 * panel for the win share of each seat with its interval, one for the game-length histogram,
 * one for the headline shares with their intervals and one histogram per headline mean (one
 * series per bot for a seat metric), under a title naming the game, the ruleset changes and
 * the number of games. Returns the number of panels. */
int plot_script(FILE *f, const cJSON *r, plot_format fmt, const char *output);

/* Draws report r with gnuplot and returns the file's bytes (malloc'd, the caller frees;
 * *len their count), or NULL with a one-line message in err (gnuplot missing or failing). */
char *plot_render(const cJSON *r, plot_format fmt, size_t *len, char *err, size_t errlen);

#endif
