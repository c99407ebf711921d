/* pig10_keys.c — one line for each key of the PIG 10 ruleset (configs/pig10.json). */
#include "games/pig10/pig10.h"

const rule_doc pig10_rule_docs[] = {
    {"deck", "copies of each card value 0..10 in that order (0 the frog, 5 the siren)"},
    {"hand_size", "cards dealt to each player, and the hand the players draw back to"},
    {"first_player", "who starts every game: seat 1 or a random seat"},
    {"siren_below_zero", "the siren on a table of less than 5: gives 0 (clamp) or may not be "
                         "played (forbid)"},
    {"table_at_end", "cards left on the table at the end: for nobody (discard) or for the "
                     "last player"},
    {"ties", "players with equal most cards: share the win, or more PIG 10s wins"},
    {NULL, NULL},
};
