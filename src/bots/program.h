/* program.h — bots outside the process: programs that speak the line-JSON protocol of
 * giochi-sim-bots(7) on their standard input and output, and the human seat at a terminal.
 *
 * A program is declared once on the command line (--bot-program NAME=COMMAND) and then named
 * in --bots like any bot; its parameters (NAME:key=value, numbers) are passed through in the
 * handshake. A run starts one process per seat and per worker thread, when the seat's first
 * game begins, and keeps it for every game that worker plays; it ends it when the worker's
 * bots are freed. Each runs in a process group of its own, ended whole (SIGTERM, a short
 * grace, SIGKILL) and reaped when its bots are freed, at a fault and on a stop signal. A
 * process that breaks the protocol (exits, closes its input or output, answers what is not a
 * legal action, writes what no request asked for, runs past the time limit) ends the whole
 * run at once with one line on standard error and exit status PROGRAM_EXIT: every bot's group
 * is ended and reaped and no temporary output file is left (outfile.h). */
#ifndef GIOCHI_PROGRAM_H
#define GIOCHI_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

enum {
    PROGRAM_MAX = 8,        /* programs one command line may declare */
    PROGRAM_PROTOCOL = 1,   /* the protocol version the handshake announces */
    PROGRAM_EXIT = 6,       /* exit status of a run stopped by a bot outside the process */
    HUMAN_QUIT_EXIT = 7,    /* exit status of a run the human seat quit ('q') */
};

/* The default per-decision time limit, in seconds. */
#define PROGRAM_DEFAULT_TIMEOUT 10.0

/* Declares a program bot from "NAME=COMMAND" (COMMAND a shell line, run by /bin/sh). NAME is
 * letters, digits, '-' and '_', not "human" and not declared twice (the caller refuses the
 * names of built-in bots). Returns 0, or -1 with a one-line
 * message. Call before any --bots is parsed; not thread-safe. */
int program_declare(const char *spec, char *err, size_t errlen);

/* Sets the per-decision time limit (seconds, > 0) for every program bot. */
void program_set_timeout(double seconds);

/* The declared program bot called name, if game g can seat it (it has view_json); NULL
 * otherwise. (The human seat, bot_human, is looked up by its name by the caller.) */
const bot_type *program_lookup(const game_type *g, const char *name);

/* True if b is a declared program bot, whose parameters are whatever its command line gives
 * (program_param). */
bool program_is(const bot_type *b);

/* The index of program bot b's parameter `key`, added to its table if new (default: not
 * given, NaN). Returns -1 with a message when the table is full. Not thread-safe: for the
 * parsing of --bots, before any run. */
int program_param(const bot_type *b, const char *key, char *err, size_t errlen);

/* Writes the bots outside the process that game g can seat into f, one line each under a
 * heading: `also` first (the human seat, NULL: none), then every declared program ("NAME
 * program: COMMAND"); nothing if g has no view_json. For --list. */
void program_list(FILE *f, const game_type *g, const bot_type *also);

/* Ends every bot's process group (SIGTERM, up to 150 ms, SIGKILL) and reaps every process of
 * them, a bot being started at the moment included; from then on a bot that fails (killed by
 * this) does not end the run with its own message and status, and no bot is started, so that
 * a signal's handler that calls this and then dies of the signal has the last word.
 * Async-signal-safe: for a handler of SIGINT or SIGTERM. */
void program_kill_all(void);

/* Ends the run now: ends and reaps every bot's process group, removes every temporary output file,
 * writes `line` (one line, its newline included) on standard error and exits with `status`
 * without running atexit handlers. The first thread to call it wins; another waits for the
 * exit. */
void program_exit(const char *line, int status) __attribute__((noreturn));

/* The human seat (human.c): a person at the terminal plays the seat. */
extern const bot_type bot_human;

#endif
