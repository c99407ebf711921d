/* volpe_json.c — the Volpe e oche cross as JSON for bots outside the process (view_json). */
#include "games/volpe/volpe.h"

/* Writes the names of the points of set as an array ("D4"). */
static void points(jsonw *w, uint64_t set)
{
    jw_arr(w);
    for (; set; set &= set - 1) {
        char name[4];
        volpe_point_name(__builtin_ctzll(set), name);
        jw_str(w, name);
    }
    jw_arr_end(w);
}

void volpe_view_json(const void *seen, int seat, jsonw *w)
{
    const volpe_state *st = seen;
    char fox[4];
    volpe_point_name(st->fox, fox);
    jw_obj(w);
    jw_key_int(w, "seat", seat);
    jw_key(w, "side_to_move");
    jw_str(w, st->side == VOLPE_FOX ? "fox" : "geese");
    jw_key(w, "fox");
    jw_str(w, fox);
    jw_key(w, "geese");
    points(w, st->geese);
    jw_key_int(w, "captured", st->captured);
    jw_key_int(w, "fox_wins_at", st->rules->fox_wins_at);
    jw_key_int(w, "moves", st->moves);
    jw_key_int(w, "quiet_moves", st->quiet);
    jw_obj_end(w);
}
