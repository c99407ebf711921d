/* suggest.c — edit distance (optimal string alignment) and the nearest-name hint. */
#include "core/suggest.h"

#include <stdio.h>
#include <string.h>

enum { MAX_LEN = 63 };

int suggest_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > MAX_LEN)
        n = MAX_LEN;
    if (m > MAX_LEN)
        m = MAX_LEN;
    /* d[i][j]: distance of a's first i bytes and b's first j bytes */
    int d[MAX_LEN + 1][MAX_LEN + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            int best = sub < del ? sub : del;
            best = best < ins ? best : ins;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1; /* two neighbours swapped */
            d[i][j] = best;
        }
    return d[n][m];
}

const char *suggest_nearest(const char *word, const char *const *names, size_t n)
{
    size_t len = strlen(word);
    int limit = len <= 2 ? 0 : len <= 4 ? 1 : len <= 8 ? 2 : 3;
    const char *best = NULL;
    int best_d = limit + 1;
    for (size_t i = 0; i < n; i++) {
        if (names[i] == NULL)
            continue;
        int d = suggest_distance(word, names[i]);
        if (d == 0)
            return NULL;
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

char *suggest_hint(char *buf, size_t len, const char *word, const char *const *names, size_t n)
{
    const char *near = suggest_nearest(word, names, n);
    if (len > 0)
        buf[0] = '\0';
    if (near)
        snprintf(buf, len, " (did you mean %s?)", near);
    return buf;
}
