/* wari_keys.c — one line for each key of the Wari ruleset (configs/wari.json). */
#include "games/wari/wari.h"

const rule_doc wari_rule_docs[] = {
    {"pits", "pits in each row"},
    {"seeds", "seeds in each pit at the start"},
    {"grand_slam", "a move that would capture the whole opposite row: legal without capture, "
                   "forbidden, or captures all"},
    {"must_feed", "a player must give an empty opponent seeds when he can"},
    {"repetition", "a repeated position since the last capture ends the game"},
    {"no_capture_limit", "moves without a capture that end the game (0: no limit)"},
    {"move_cap", "moves that end the game"},
    {"first_player", "who moves first: seat 1 or a random seat"},
    {"start", "optional start position: {\"pits\": [both rows in sowing order], \"stores\": "
              "[S1, S2], \"turn\": 1 or 2}"},
    {NULL, NULL},
};
