/* volpe_solve.h — retrograde analysis of La volpe e le oche, group by group, into a
 * database directory (volpe_db.h) that a stopped run continues.
 *
 * The value solved: a position's game-theoretic value with both sides playing perfectly,
 * where play that can go on for ever is a draw (repetition), geese that cannot move follow
 * geese_blocked (lose or draw; pass is not solved), and the fox wins on taking fox_wins_at
 * geese. The no_progress_moves and max_moves counters are not part of a position and lie
 * outside the solved value (a game they cut short may end otherwise). A win or loss comes
 * with its distance to conversion: the plies, with best play (the winner hurrying, the loser
 * holding out), until the position's group is left by an irreversible move (a capture or a
 * goose's step forward) into a position of the same value for the mover, or the game ends.
 * Playing always to a smaller distance wins: every group is left in turn, and groups never
 * come back. */
#ifndef GIOCHI_VOLPE_SOLVE_H
#define GIOCHI_VOLPE_SOLVE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "games/volpe/volpe.h"

typedef struct volpe_solve_opts {
    const char *dir;       /* the database directory (made if missing) */
    int max_geese;         /* solve only groups with at most this many geese; 0: all */
    bool progress;         /* a progress line on standard error (rewritten in place) */
    uint64_t cache_bytes;  /* solved groups kept in memory for lookups, at most */
    volatile sig_atomic_t *stop; /* set (by a signal handler): stop before the next group */
} volpe_solve_opts;

typedef struct volpe_solve_result {
    int groups;          /* groups of the target (those below the start's, within max_geese) */
    int solved, checked; /* solved by this run / found solved (and checked in full) */
    uint64_t positions;  /* in the groups done */
    uint64_t wins, losses, draws; /* for the side to move, over the groups done */
    int longest_win, longest_loss; /* the largest distances met */
    uint64_t largest_group;        /* positions of the largest group of the target */
    bool stopped;        /* opts.stop was set before every group was done */
    int start_value;     /* the start position's value byte, or -1 if its group is not done */
    double seconds;      /* wall time of this run */
    uint64_t peak_bytes; /* the most memory the working arrays and the cache held together */
    uint64_t sampled, inconsistent; /* random positions of each group done checked against
                                     * their successors (volpe_solve_games), 16 a group */
} volpe_solve_result;

/* Solves the groups below the start position of r (with at most opts->max_geese geese) that
 * are not yet in opts->dir, smallest goose count first and, within a count, most advanced
 * first, so that every move leaves a group for one already solved. Files found are checked
 * in full before they count (a damaged one is solved again). Returns 0 (done, or stopped:
 * res->stopped), or an exit code with one line in err: 2 for rules it cannot solve or a
 * directory of other rules, 3 for a file it cannot write, 4 for a broken invariant. */
int volpe_solve(const volpe_rules *r, const volpe_solve_opts *opts, volpe_solve_result *res,
                char *err, size_t errlen);

/* Plays `games` games of uniformly random moves from the start of r (the game's own rules,
 * repetition and counters included; random stream from seed) and checks at every position
 * met that its value in db agrees with its successors' values: a win of distance d has a
 * move to a loss of the other side of d - 1 (an exit or a won end when d = 1) and none
 * shorter, a loss of d only moves to wins, the longest d - 1 (0: no move), a draw no move to
 * a loss and one to a draw. Adds the positions checked to *checked and those that disagree
 * to *bad; -1 if db lacks a position (its group not solved), else 0. */
struct volpe_db;
int volpe_solve_games(const volpe_rules *r, struct volpe_db *db, int games, uint64_t seed,
                      uint64_t *checked, uint64_t *bad);

#endif
