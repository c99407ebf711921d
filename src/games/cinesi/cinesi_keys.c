/* cinesi_keys.c — one line for each key of the Cinesi ruleset (configs/cinesi.json), and the
 * colours' names the rules, the exact figures and the traces share. */
#include "games/cinesi/cinesi.h"

const rule_doc cinesi_rule_docs[] = {
    {"seat_colours", "the colour of seat 1, 2, ...: red, yellow, green or blue, distinct"},
    {"faces", "how many faces of the die show each colour and white"},
    {"faces.red", "faces of the die showing red"},
    {"faces.yellow", "faces of the die showing yellow"},
    {"faces.green", "faces of the die showing green"},
    {"faces.blue", "faces of the die showing blue"},
    {"faces.white", "white faces (a white roll passes the die on)"},
    {"side", "the board is side x side squares (odd)"},
    {"opening", "who starts: seat 1, or the first colour rolled (which also moves, or only "
                "names the starter)"},
    {NULL, NULL},
};

const char *const cinesi_colour_names[CINESI_COLOURS + 2] = {"red",  "yellow", "green",
                                                             "blue", "white",  NULL};
