/* bare_main.h — the command line every bare reference loop shares (tests/bench/bare*.c):
 * "NAME GAMES SEED [PLAYERS]" -> "wins W1 W2 ... games_per_second R", the line tests/bench.sh
 * reads. A loop's play(seed, game, players) returns the winning seat, or -1 for no winner. */
#ifndef GIOCHI_BARE_MAIN_H
#define GIOCHI_BARE_MAIN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Plays GAMES games from argv with play() and prints the line; players must lie in
 * [2, max_players] (ok_players, if not NULL, may refuse more). Returns the exit status.
 * Inline, so that the loop calls play directly. */
static inline int bare_main(int argc, char **argv, const char *name, int default_players,
                            int max_players, int (*play)(uint64_t, uint64_t, int),
                            int (*ok_players)(int))
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s GAMES SEED [PLAYERS]\n", name);
        return 2;
    }
    uint64_t games = strtoull(argv[1], NULL, 10), seed = strtoull(argv[2], NULL, 10);
    int np = argc > 3 ? atoi(argv[3]) : default_players;
    if (np < 2 || np > max_players || np > 8 || (ok_players && !ok_players(np)))
        return 2;
    long long wins[8] = {0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint64_t i = 0; i < games; i++) {
        int w = play(seed, i, np);
        if (w >= 0)
            wins[w]++;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("wins");
    for (int k = 0; k < np; k++)
        printf(" %lld", wins[k]);
    printf(" games_per_second %.0f\n", (double)games / s);
    return 0;
}

#endif
