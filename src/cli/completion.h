/* completion.h — shell completion scripts (--completion=bash|zsh), generated from the option
 * table and the catalog (cli/catalog.h), so that they offer exactly what the tool accepts. */
#ifndef GIOCHI_CLI_COMPLETION_H
#define GIOCHI_CLI_COMPLETION_H

#include <stdio.h>

/* Writes the completion script for shell ("bash" or "zsh") to f: the long options (with '='
 * for those that take a value), --game's games, each game's bots, bot parameters, ruleset
 * keys (--set, --sweep, --over, --sensitivity) and metrics (--metric, --until, --maximize,
 * --minimize, --target), and file names for the options that take files. Returns 0, or -1
 * for a shell it does not know. */
int completion_write(FILE *f, const char *shell);

#endif
