/* cinesi_json.c — the Cinesi race as JSON for bots outside the process (view_json). The
 * dice play the whole game, so a bot only ever sees it at the start and the end. */
#include "games/cinesi/cinesi.h"

void cinesi_view_json(const void *seen, int seat, jsonw *w)
{
    const cinesi_state *st = seen;
    jw_obj(w);
    jw_key(w, "seat");
    jw_int(w, seat);
    jw_key(w, "steps_to_centre");
    jw_int(w, st->rules->steps);
    jw_key(w, "positions");
    jw_ints(w, st->pos, st->nseats);
    jw_key(w, "rolls");
    jw_int(w, st->rolls);
    jw_key(w, "turns");
    jw_int(w, st->turns);
    jw_obj_end(w);
}
