/* replay.h — plays a recorded game (--replay=FILE) and prints its trace and outcome.
 *
 * A game record is text, one item a line:
 *   - blank lines and lines whose first character other than a space is '#' are comments;
 *   - "seed N" (before the first action): the chance seed, as --trace prints it in its first
 *     line ("chance seed N"); the chance draws of start and of every move come from it
 *     (default 0);
 *   - every other line is one action of the player to move, by its name as --trace shows it
 *     ("pit 3 (5 seeds)", "shut 2 8"; the detail in brackets may be left out when no other
 *     action has the same name before it: "pit 3"), by its number among the options as
 *     --trace lists them
 *     (1 = the first), or as a whole decision line of a trace ("  > seat 1 (greedy) sow: pit
 *     6 (4 seeds)   [options: ...]", whose seat must be the one to move).
 * A decision with a single action may be left out of the record (it is played when the line
 * does not name it), and so may a page turn (game_type.page_turn) when the line names a move
 * of a later page. */
#ifndef GIOCHI_REPLAY_H
#define GIOCHI_REPLAY_H

#include <stddef.h>
#include <stdio.h>

#include "core/game.h"

/* Plays the record in file `path` ("-": standard input) as a game of g under rules for
 * nseats players and writes its trace to out: a header line, the game's own trace, a line
 * per decision (as --trace writes them, the seats' bot named "replay") and the outcome
 * ("end: KIND after N UNIT; winner: ...", one line per seat), or, when the record stops
 * before the game ends, a line saying so. Returns 0, or -1 with one line in err naming the
 * file and line ("FILE:12: 'pit 9' is not an action of seat 1 here (options: ...)"): a file
 * that cannot be read, a bad seed, an unknown or illegal action, actions after the end. */
int replay_file(const game_type *g, const void *rules, int nseats, const char *path,
                FILE *out, char *err, size_t errlen);

#endif
