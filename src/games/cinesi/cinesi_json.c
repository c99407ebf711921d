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
