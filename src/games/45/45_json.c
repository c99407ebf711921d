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

/* The box and the totals for a person at the terminal (game_type.view_draw): the tiles 1..9,
 * open ones by number and shut ones blank; the roll to use, or the dice to choose; every
 * seat's total (with what it gained since the seat's last look) against the limit. */
void g45_view_draw(const void *before, const void *seen, int seat, FILE *f)
{
    const g45_state *st = seen, *was = before;
    fprintf(f, "\n  Round %d, your turn. The box:", st->round);
    for (int k = 1; k <= st->rules->tiles; k++) {
        if (st->open >> (k - 1) & 1)
            fprintf(f, " [%d]", k);
        else
            fputs(k >= 10 ? " [  ]" : " [ ]", f);
    }
    fprintf(f, "   (open tiles add up to %d)\n", st->left);
    if (st->kind == G45_KIND_SHUT)
        fprintf(f, "  You rolled %d: shut tiles that add up to %d.\n", st->dice, st->dice);
    else
        fputs("  Roll one die or two?\n", f);
    fputs("  Totals:", f);
    for (int k = 0; k < st->nseats; k++) {
        if (k == seat)
            fprintf(f, "%s you %d", k ? "," : "", st->total[k]);
        else
            fprintf(f, "%s seat %d %d", k ? "," : "", k + 1, st->total[k]);
        if (was && st->total[k] > was->total[k])
            fprintf(f, " (+%d)", st->total[k] - was->total[k]);
        if (!(st->in_game >> k & 1))
            fputs(" (out)", f);
        else if (st->shut >> k & 1)
            fputs(" (shut the box)", f);
    }
    fprintf(f, "; %d or more puts a player out\n", st->rules->limit);
    if (was == NULL)
        fputs("When no open tiles add up to the roll, your turn ends and the open tiles add to "
              "your total.\nShutting every tile wins; otherwise the last player left in wins.\n",
              f);
}
