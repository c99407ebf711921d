/* pig10_json.c — what one PIG 10 seat sees, as JSON for bots outside the process: written
 * from the seat's pig10_view alone, so another seat's cards and the pile order cannot leak. */
#include <stdio.h>

#include "games/pig10/pig10.h"

static const char *const mode_names[] = {"add", "subtract", "set", "frog"};

/* The view as JSON (game_type.view_json): `seen` is the seat's pig10_view. */
void pig10_view_json(const void *seen, int seat, jsonw *w)
{
    const pig10_view *v = seen;
    (void)seat; /* v->seat */
    jw_obj(w);
    jw_key_int(w, "seat", v->seat);
    jw_key_int(w, "turn", v->turn);
    jw_key(w, "hand"); /* own hand only: cards held by value 0..10 */
    jw_bytes(w, v->hand, PIG10_VALUES);
    jw_key_int(w, "value", v->table_n ? v->value : 0);
    jw_key_int(w, "table_cards", v->table_n);
    jw_key_int(w, "top_card", v->table_n ? v->top_card : -1);
    jw_key_int(w, "top_seat", v->table_n ? v->top_seat : -1);
    jw_key(w, "table"); /* the table's cards by value */
    jw_bytes(w, v->table, PIG10_VALUES);
    jw_key(w, "played"); /* every card played so far, by value */
    jw_bytes(w, v->played, PIG10_VALUES);
    jw_key(w, "deck"); /* the ruleset's deck, by value */
    jw_bytes(w, v->deck, PIG10_VALUES);
    jw_key_int(w, "pile_left", v->pile_left);
    jw_key(w, "hand_sizes");
    jw_ints(w, v->hand_n, v->nseats);
    jw_key(w, "collected");
    jw_ints(w, v->collected, v->nseats);
    jw_key(w, "siren_below_zero");
    jw_str(w, v->siren_below_zero == PIG10_FLOOR_FORBID ? "forbid" : "clamp");
    jw_key(w, "history"); /* every play so far: who, which card, how, the value announced */
    jw_arr(w);
    for (int i = 0; i < v->nplays; i++) {
        const pig10_play *p = &v->history[i];
        jw_obj(w);
        jw_key_int(w, "seat", p->seat);
        jw_key_int(w, "card", p->card);
        jw_key(w, "mode");
        jw_str(w, mode_names[p->mode]);
        jw_key_int(w, "value", p->value);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

/* The name action_name gives a, from the seat's view (game_type.view_action_name). */
void pig10_view_action_name(const void *seen, const decision *d, int32_t a, char *buf, size_t n)
{
    (void)d;
    const pig10_view *v = seen;
    pig10_play_name(v->value, v->table_n, a, buf, n);
}
