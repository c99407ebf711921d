/* suggest.h — "did you mean": the nearest of a list of names to a mistyped one, by edit
 * distance, for the one-line errors of unknown games, bots, parameters, keys and figures. */
#ifndef GIOCHI_SUGGEST_H
#define GIOCHI_SUGGEST_H

#include <stddef.h>

/* The edit distance of a and b (optimal string alignment: insertions, deletions,
 * substitutions and swaps of two adjacent characters each cost 1), counted in bytes. Names
 * longer than 63 bytes are compared on their first 63. */
int suggest_distance(const char *a, const char *b);

/* The name of names[0..n-1] (NULL entries skipped) nearest to word, if it is near enough to
 * be a plausible typing slip: at distance at most 1 for words of 3 or 4 bytes, 2 up to 8,
 * 3 beyond (none for words of 1 or 2 bytes); the earliest of equally near names. NULL if
 * none is, or if word is itself one of the names. The result points into names. */
const char *suggest_nearest(const char *word, const char *const *names, size_t n);

/* Writes " (did you mean NAME?)" into buf (room for len bytes) if suggest_nearest finds a
 * NAME, or "" otherwise; returns buf, so that it can feed a format string directly. */
char *suggest_hint(char *buf, size_t len, const char *word, const char *const *names, size_t n);

#endif
