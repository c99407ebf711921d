/* 45_keys.c — one line for each key of the Gioco del 45 ruleset (configs/45.json). */
#include "games/45/45.h"

const rule_doc g45_rule_docs[] = {
    {"tiles", "the highest tile: tiles 1..tiles are open at the start of every turn"},
    {"limit", "a total of limit or more at the end of a round eliminates"},
    {"weights", "each seat's weight, for the roll-off rule \"the heaviest player wins\""},
    {"shut_ties", "several players shut the box in one round: roll-off, share the win, or the "
                  "lowest total wins"},
    {"shut", "what a roll may shut: the tile equal to the total or two summing to it "
             "(one_or_two), or any tiles summing to it"},
    {"one_die", "when a player rolls one die instead of two: never, by choice once 7 and up are "
                "shut, or while the open tiles sum to 6 or less"},
    {NULL, NULL},
};
