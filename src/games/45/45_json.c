/* 45_json.c — the Gioco del 45's table as JSON for bots outside the process (view_json). */
#include "games/45/45.h"

void g45_view_json(const void *seen, int seat, jsonw *w)
{
    const g45_state *st = seen;
    jw_obj(w);
    jw_key(w, "seat");
    jw_int(w, seat);
    jw_key(w, "turn");
    jw_int(w, st->seat);
    jw_key(w, "round");
    jw_int(w, st->round);
    jw_key(w, "tiles");
    jw_int(w, st->rules->tiles);
    jw_key(w, "limit");
    jw_int(w, st->rules->limit);
    jw_key(w, "open");
    jw_arr(w);
    for (int k = 1; k <= st->rules->tiles; k++)
        if (st->open >> (k - 1) & 1)
            jw_int(w, k);
    jw_arr_end(w);
    jw_key(w, "open_sum");
    jw_int(w, st->left);
    jw_key(w, "dice");
    jw_int(w, st->dice);
    jw_key(w, "totals");
    jw_ints(w, st->total, st->nseats);
    jw_key(w, "in_game");
    jw_arr(w);
    for (int k = 0; k < st->nseats; k++)
        jw_bool(w, st->in_game >> k & 1);
    jw_arr_end(w);
    jw_key(w, "shut_this_round");
    jw_arr(w);
    for (int k = 0; k < st->nseats; k++)
        jw_bool(w, st->shut >> k & 1);
    jw_arr_end(w);
    jw_obj_end(w);
}
