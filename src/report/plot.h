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

/* Writes to f the gnuplot script that draws report r in fmt into the file `output`. For a run:
 * one panel for the win share of each seat with its interval, one for the game-length
 * histogram, one for the headline shares with their intervals, one histogram per headline
 * mean (one series per bot for a seat metric) and one chart of bars per distribution of the
 * game (report.c's "distributions"). For an experiment's JSON (the experiments
 * branch: "settings" of a sweep, "sensitivity", "rotations"): per figure (length, then the
 * headline) the value against the first swept key with its interval band, one line per value
 * of the other keys; the tornado chart; per-bot win shares and seat advantages. Titles name
 * the game, the ruleset changes (or sweeps and sets) and the number of games. Returns the
 * number of panels (0: nothing to draw). */
int plot_script(FILE *f, const cJSON *r, plot_format fmt, const char *output);

/* Draws report r with gnuplot and returns the file's bytes (malloc'd, the caller frees;
 * *len their count), or NULL with a one-line message in err (gnuplot missing or failing). */
char *plot_render(const cJSON *r, plot_format fmt, size_t *len, char *err, size_t errlen);

#endif
