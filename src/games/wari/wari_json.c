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

/* The two rows facing each other for a person at the terminal (game_type.view_draw): the
 * seat's own row at the bottom, numbered 1.. from its left as its moves are, the other's
 * row above it, numbered from its own left (so its pit 1 faces the seat's last pit); the
 * seeds captured beside each row, with what was captured since the seat's last look. */
void wari_view_draw(const void *before, const void *seen, int seat, FILE *f)
{
    const wari_state *st = seen, *was = before;
    int p = st->rules->pits, other = 1 - seat;
    char label[32];
    fprintf(f, "\n  %12s", "");
    for (int i = p; i >= 1; i--)
        fprintf(f, "  %2d ", i);
    snprintf(label, sizeof label, "seat %d", other + 1);
    fprintf(f, "\n  %-12s", label);
    for (int i = p - 1; i >= 0; i--)
        fprintf(f, " [%2d]", st->pit[other * p + i]);
    fprintf(f, "   captured %d", st->store[other]);
    if (was && st->store[other] > was->store[other])
        fprintf(f, " (+%d)", st->store[other] - was->store[other]);
    snprintf(label, sizeof label, "you (seat %d)", seat + 1);
    fprintf(f, "\n  %-12s", label);
    for (int i = 0; i < p; i++)
        fprintf(f, " [%2d]", st->pit[seat * p + i]);
    fprintf(f, "   captured %d", st->store[seat]);
    if (was && st->store[seat] > was->store[seat])
        fprintf(f, " (+%d)", st->store[seat] - was->store[seat]);
    fprintf(f, "\n  %12s", "");
    for (int i = 1; i <= p; i++)
        fprintf(f, "  %2d ", i);
    fputc('\n', f);
    if (was == NULL)
        fprintf(f, "Seeds are sown to the right along your row, then right to left along seat "
                   "%d's.\nMore than %d captured seeds win.\n",
                other + 1, st->rules->total / 2);
}

/* A move's number for a person: its pit, 1.. from the mover's left (game_type.action_number). */
int wari_action_number(const void *seen, const decision *d, int32_t a)
{
    (void)seen;
    (void)d;
    return (int)a + 1;
}
