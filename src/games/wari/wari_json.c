/* wari_json.c — Wari's position as JSON for bots outside the process (game_type.view_json). */
#include "games/wari/wari.h"

/* The whole position (perfect information): both rows, the stores, who moves. Seat s's row
 * is pits[s * pits_per_row ...], in sowing order; a move's code is a pit of the mover's row,
 * 0..pits_per_row-1. */
void wari_view_json(const void *seen, int seat, jsonw *w)
{
    const wari_state *st = seen;
    const wari_rules *r = st->rules;
    int p = r->pits;
    jw_obj(w);
    jw_key_int(w, "seat", seat);
    jw_key_int(w, "turn", st->turn);
    jw_key_int(w, "pits_per_row", p);
    jw_key(w, "pits");
    jw_bytes(w, st->pit, 2 * p);
    jw_key(w, "own_row");
    jw_bytes(w, st->pit + seat * p, p);
    jw_key(w, "opponent_row");
    jw_bytes(w, st->pit + (1 - seat) * p, p);
    jw_key(w, "stores");
    jw_arr(w);
    jw_int(w, st->store[0]);
    jw_int(w, st->store[1]);
    jw_arr_end(w);
    jw_key_int(w, "seeds", r->total);
    jw_key_int(w, "moves", st->moves);
    jw_key_int(w, "first", st->first);
    jw_key_int(w, "last_capture", st->last_capture);
    jw_obj_end(w);
}
