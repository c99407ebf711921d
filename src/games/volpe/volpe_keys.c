/* volpe_keys.c — one line for each key of the Volpe e oche ruleset (configs/volpe.json). */
#include "games/volpe/volpe.h"

const rule_doc volpe_rule_docs[] = {
    {"diagonals", "which diagonal steps are lines: all, those of the alquerque board, or none"},
    {"fox", "the fox's start point (e.g. D5)"},
    {"geese", "the geese's start points, distinct and not the fox's"},
    {"fox_wins_at", "geese the fox must take to win"},
    {"geese_blocked", "geese that must move and cannot: they lose, draw, or pass the turn"},
    {"repetition", "the occurrence of a position that draws (0: no repetition rule)"},
    {"no_progress_moves", "moves in a row without a capture or a goose advance that draw"},
    {"max_moves", "the move cap (moves of both sides): a draw"},
    {NULL, NULL},
};
