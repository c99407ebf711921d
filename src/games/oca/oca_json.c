/* oca_json.c — the Gioco dell'oca's table as JSON for bots outside the process (view_json):
 * squares, points, cards held, the turn and any auction under way. The order of the undealt
 * cards is not part of it: nobody at the table sees the deck. */
#include "games/oca/oca.h"
#include "games/oca/oca_engine.h"

/* An array of one flag per seat. */
static void flags(jsonw *w, const bool *v, int n)
{
    jw_arr(w);
    for (int k = 0; k < n; k++)
        jw_bool(w, v[k]);
    jw_arr_end(w);
}

static void small(jsonw *w, const int8_t *v, int n)
{
    jw_arr(w);
    for (int k = 0; k < n; k++)
        jw_int(w, v[k]);
    jw_arr_end(w);
}

void oca_view_json(const void *seen, int seat, jsonw *w)
{
    const oca_state *st = seen;
    const oca_rules *r = st->r;
    int n = st->n;
    jw_obj(w);
    jw_key_int(w, "seat", seat);
    jw_key_int(w, "squares", r->nsquares);
    jw_key_int(w, "capo", st->capo);
    jw_key_int(w, "banker", st->banker);
    jw_key(w, "positions");
    small(w, st->pos, n);
    jw_key(w, "points");
    jw_arr(w);
    for (int k = 0; k < n; k++)
        jw_int(w, oca_points(st, k));
    jw_arr_end(w);
    jw_key(w, "waiting");
    small(w, st->waiting, n);
    jw_key(w, "playing");
    flags(w, st->playing, n);
    jw_key(w, "bankrupt");
    flags(w, st->bankrupt, n);
    jw_key(w, "arrived");
    flags(w, st->arrived, n);
    jw_key(w, "cards"); /* per seat: the squares of the cards it holds */
    jw_arr(w);
    for (int k = 0; k < n; k++) {
        jw_arr(w);
        for (uint32_t m = st->hand[k]; m; m &= m - 1)
            jw_int(w, r->card_square[__builtin_ctz(m)]);
        jw_arr_end(w);
    }
    jw_arr_end(w);
    jw_key_int(w, "cards_undealt", r->ncards - st->deck_top);
    jw_key_int(w, "turn", st->turn);
    jw_key_int(w, "mover", st->mover);
    jw_key_int(w, "roll", st->roll);
    jw_key_int(w, "high_bid", st->high_bid);
    jw_key_int(w, "high_bidder", st->high_bidder);
    jw_obj_end(w);
}
