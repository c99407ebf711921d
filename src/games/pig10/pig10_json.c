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

/* Writes the cards counted by value in by_value (cards 0..10) in value order, or "none". */
static void cards(FILE *f, const uint8_t *by_value)
{
    int shown = 0;
    for (int v = 0; v < PIG10_VALUES; v++)
        for (int k = 0; k < by_value[v]; k++)
            fprintf(f, "%s%d", shown++ ? " " : "", v);
    if (shown == 0)
        fputs("none", f);
}

/* The table and the hand for a person at the terminal (game_type.view_draw), from the seat's
 * view alone: the cards on the table and their value, the seat's own hand, the cards each
 * seat has collected and holds, the draw pile. */
void pig10_view_draw(const void *before, const void *seen, int seat, FILE *f)
{
    const pig10_view *v = seen;
    (void)seat; /* v->seat */
    fputc('\n', f);
    if (v->table_n == 0) {
        fputs("  The table is empty: the card you play sets its value.\n", f);
    } else {
        fputs("  On the table: ", f);
        cards(f, v->table);
        char who[16] = "you";
        if (v->top_seat != v->seat)
            snprintf(who, sizeof who, "seat %d", v->top_seat % 100 + 1);
        fprintf(f, "  (value %d; last card %d, by %s)\n", v->value, v->top_card, who);
    }
    fputs("  Your hand:    ", f);
    cards(f, v->hand);
    fputs("\n  Collected:   ", f);
    for (int k = 0; k < v->nseats; k++) {
        if (k == v->seat)
            fprintf(f, "%s you %d", k ? "," : "", v->collected[k]);
        else
            fprintf(f, "%s seat %d %d", k ? "," : "", k + 1, v->collected[k]);
    }
    fputs("\n  In hand:     ", f);
    for (int k = 0, said = 0; k < v->nseats; k++)
        if (k != v->seat)
            fprintf(f, "%s seat %d %d card%s", said++ ? "," : "", k + 1, v->hand_n[k],
                    v->hand_n[k] == 1 ? "" : "s");
    fprintf(f, "; draw pile %d\n", v->pile_left);
    if (before == NULL)
        fputs("Exactly 10 takes every card on the table; over 10, the table goes to the player "
              "who played before you.\nA 5 (siren) may subtract, a 0 (frog) makes 0; most cards "
              "collected wins.\n",
              f);
}
