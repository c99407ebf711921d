/* report_text.h — the headline summary of a report: tables of labelled cells built from the
 * report tree, and their rendering as aligned terminal text. */
#ifndef GIOCHI_REPORT_TEXT_H
#define GIOCHI_REPORT_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

/* Builds the summary of report r (a report_build tree) as an array of sections, each
 * {"title": text, "align": "wrlln", "columns": [headers] (optional), "rows": [[cells]]} (align:
 * a letter per column as textcols_new takes them, 'r' right, 'w' a wrappable label, 'n' a note,
 * else left) where
 * every cell is a string: labels in words with units, shares as percentages, "—" where there
 * was no observation. The headline comes first (who wins, the game's headline metrics), its
 * sections marked "lead": true, then how games end, then one section per metric group of r's
 * "layout". A distribution's section also has "bars": per row, its count against the largest
 * (0..1), the length of the bar its last cell draws in '#'. The caller frees it. */
cJSON *report_summary_build(const cJSON *r);

/* A report's one-line title: "Gioco dell'Oca — 1000 games, 4 players, seed 1, ruleset:
 * entry_fee=80" (or "..., default ruleset"); without the game's title when with_title is
 * false. Writes at most n bytes into buf and returns buf. */
char *report_summary_title(const cJSON *r, bool with_title, char *buf, size_t n);

/* The text report's provenance line "ruleset changes: K=V ..." from an array of strings
 * (report_header's ruleset_changes); nothing when it is empty or NULL. */
void report_text_changes(FILE *f, const cJSON *changes);

/* The text header's provenance line "giochi-sim 0.1.0, 2026-12-02 05:40 UTC" (the run's
 * date when r has one, else clock_date's), for the text reports of runs and experiments. */
void report_text_made_by(FILE *f, const cJSON *r);

/* Writes the summary of report r as aligned text for 80 columns (labels wrap, never cut; see
 * textcols.h), then the run's time. */
void report_text_summary(FILE *f, const cJSON *r);

#endif
