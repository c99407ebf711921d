/* runner.h — plays a batch of seeded games on worker threads and reduces their results.
 *
 * Game i of a run with master seed S draws chance from stream RNG_STREAM_CHANCE of
 * (S, i) and the bot of seat k from stream RNG_STREAM_SEAT(k) of (S, i). Everything a game
 * contributes is integer and merged exactly, so a run's results do not depend on the thread
 * count or on which thread played which game. */
#ifndef GIOCHI_RUNNER_H
#define GIOCHI_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "game.h"
#include "recorder.h"

enum { BOT_MAX_PARAMS = 32 };

/* One seat's bot and its parameter values (in the order of bot->params). */
typedef struct seat_spec {
    const bot_type *bot;
    double param[BOT_MAX_PARAMS];
} seat_spec;

typedef struct run_config {
    const game_type *game;
    const void *rules; /* loaded by game->rules_load; not owned */
    int nseats;
    seat_spec seat[GAME_MAX_SEATS];
    uint64_t runs;  /* games [0, runs) */
    uint64_t seed;  /* master seed */
    int threads;    /* worker threads, >= 1 */
    FILE *games_csv; /* if not NULL: one row per game, in game order (header included) */
    bool progress;  /* report progress on stderr (the caller decides it is a terminal) */
} run_config;

/* Everything a batch produced: the game's own metrics plus the figures every game has. */
typedef struct run_result {
    recorder *rec;                       /* the game's metric table */
    acc length;                          /* game length, in game->length_unit */
    acc score[GAME_MAX_SEATS];           /* final outcome.score per seat */
    acc rank[GAME_MAX_SEATS];            /* final rank per seat (histogram: arrival order) */
    int64_t win_units[GAME_MAX_SEATS];   /* wins, a win shared by k seats counting 1/k; in
                                            units of 1/RUN_WIN_UNIT */
    int64_t wins_alone[GAME_MAX_SEATS];  /* games won alone */
    int64_t wins_shared[GAME_MAX_SEATS]; /* games whose win this seat shared with others */
    int64_t tied_games;                  /* games whose win was shared */
    int64_t no_winner;                   /* games nobody won */
    int64_t *end_count;                  /* per entry of game->end_names */
    int nends;
    uint64_t games;                      /* games played (== runs unless interrupted) */
    double wall_seconds;                 /* not part of reproducible output */
} run_result;

/* 840 = lcm(1..8): a win shared by any number of seats up to 8 is a whole number of units. */
#define RUN_WIN_UNIT 840

/* Plays game `index` of the run described by cfg, start to finish, on the calling thread:
 * ctx[k] are prepared bot contexts for each seat (see run_bots_setup); st is scratch of
 * game->state_size bytes and view scratch of game->view_size bytes in an allocation of its
 * own (bots get it, and must find no state beside it); rec (may be NULL) receives the game's
 * metrics; tr (may be NULL) receives the play-by-play, each decision included. Calls every
 * seat's begin hook after the deal. Fills o. */
void run_game(const run_config *cfg, void *const *ctx, uint64_t index, void *st, void *view,
              outcome *o, recorder *rec, trace *tr);

/* Creates and sets up one context per seat. Returns 0, or -1 with a one-line message
 * (everything already created is freed). The contexts are freed by run_bots_free. */
int run_bots_setup(const run_config *cfg, void **ctx, char *err, size_t errlen);
void run_bots_free(const run_config *cfg, void **ctx);

/* Plays the whole batch. Returns 0 and fills res (free it with run_result_free), or -1 with a
 * message (a bot failed to set up, a write to games_csv failed). */
int run_batch(const run_config *cfg, run_result *res, char *err, size_t errlen);
void run_result_free(run_result *res);

/* Plays game `index` alone with its trace written to out, exactly as the batch plays it. */
int run_trace(const run_config *cfg, uint64_t index, FILE *out, outcome *o, char *err,
              size_t errlen);

#endif
