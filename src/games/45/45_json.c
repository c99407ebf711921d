/* 45_json.c — the Gioco del 45's table as JSON for bots outside the process (view_json). */
#include "games/45/45.h"

/* An array of one flag per seat 0..n-1: seat k's is bit k of mask. */
static void seat_flags(jsonw *w, uint32_t mask, int n)
{
    jw_arr(w);
    for (int k = 0; k < n; k++)
        jw_bool(w, mask >> k & 1);
    jw_arr_end(w);
}

void g45_view_json(const void *seen, int seat, jsonw *w)
{
    const g45_state *st = seen;
    jw_obj(w);
    jw_key_int(w, "seat", seat);
    jw_key_int(w, "turn", st->seat);
    jw_key_int(w, "round", st->round);
    jw_key_int(w, "tiles", st->rules->tiles);
    jw_key_int(w, "limit", st->rules->limit);
    jw_key(w, "open");
    jw_arr(w);
    for (int k = 1; k <= st->rules->tiles; k++)
        if (st->open >> (k - 1) & 1)
            jw_int(w, k);
    jw_arr_end(w);
    jw_key_int(w, "open_sum", st->left);
    jw_key_int(w, "dice", st->dice);
    jw_key(w, "totals");
    jw_ints(w, st->total, st->nseats);
    jw_key(w, "in_game");
    seat_flags(w, st->in_game, st->nseats);
    jw_key(w, "shut_this_round");
    seat_flags(w, st->shut, st->nseats);
    jw_obj_end(w);
}
