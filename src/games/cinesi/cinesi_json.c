/* cinesi_json.c — the Cinesi race as JSON for bots outside the process (view_json). The
 * dice play the whole game, so a bot only ever sees it at the start and the end. */
#include "games/cinesi/cinesi.h"

void cinesi_view_json(const void *seen, int seat, jsonw *w)
{
    const cinesi_state *st = seen;
    jw_obj(w);
    jw_key_int(w, "seat", seat);
    jw_key_int(w, "steps_to_centre", st->rules->steps);
    jw_key(w, "positions");
    jw_ints(w, st->pos, st->nseats);
    jw_key_int(w, "rolls", st->rolls);
    jw_key_int(w, "turns", st->turns);
    jw_obj_end(w);
}

/* The race for a person at the terminal (game_type.view_draw): each figure's steps out of
 * the steps to the centre, as a bar. */
void cinesi_view_draw(const void *before, const void *seen, int seat, FILE *f)
{
    (void)before;
    const cinesi_state *st = seen;
    int steps = st->rules->steps;
    fputc('\n', f);
    for (int k = 0; k < st->nseats; k++) {
        char who[24];
        snprintf(who, sizeof who, k == seat ? "you (seat %d)" : "seat %d", k + 1);
        fprintf(f, "  %-13s |", who);
        for (int q = 1; q <= steps; q++)
            fputc(q <= st->pos[k] ? '#' : '.', f);
        fprintf(f, "| %d of %d steps%s\n", st->pos[k], steps,
                st->pos[k] >= steps ? ": at the centre" : "");
    }
}
