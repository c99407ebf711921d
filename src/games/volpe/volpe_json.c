/* volpe_json.c — the Volpe e oche cross as JSON for bots outside the process (view_json). */
#include "games/volpe/volpe.h"

/* Writes the names of the points of set as an array ("D4"). */
static void points(jsonw *w, uint64_t set)
{
    jw_arr(w);
    for (; set; set &= set - 1) {
        char name[4];
        volpe_point_name(__builtin_ctzll(set), name);
        jw_str(w, name);
    }
    jw_arr_end(w);
}

void volpe_view_json(const void *seen, int seat, jsonw *w)
{
    const volpe_state *st = seen;
    char fox[4];
    volpe_point_name(st->fox, fox);
    jw_obj(w);
    jw_key_int(w, "seat", seat);
    jw_key(w, "side_to_move");
    jw_str(w, st->side == VOLPE_FOX ? "fox" : "geese");
    jw_key(w, "fox");
    jw_str(w, fox);
    jw_key(w, "geese");
    points(w, st->geese);
    jw_key_int(w, "captured", st->captured);
    jw_key_int(w, "fox_wins_at", st->rules->fox_wins_at);
    jw_key_int(w, "moves", st->moves);
    jw_key_int(w, "quiet_moves", st->quiet);
    jw_obj_end(w);
}

/* The cross for a person at the terminal (game_type.view_draw): row 7 at the top, the fox F,
 * the geese o, an empty point '.', the geese taken since the seat's last look marked x
 * where they stood; who plays which side, and how many geese the fox still needs. */
void volpe_view_draw(const void *before, const void *seen, int seat, FILE *f)
{
    const volpe_state *st = seen, *was = before;
    uint64_t gone = was && st->captured > was->captured ? was->geese & ~st->geese : 0;
    fputs("\n      A B C D E F G\n", f);
    for (int y = 6; y >= 0; y--) {
        fprintf(f, "   %d ", y + 1);
        for (int x = 0; x < 7; x++) {
            int p = volpe_point(x, y);
            char c = p < 0                      ? ' '
                     : p == st->fox             ? 'F'
                     : st->geese >> p & 1       ? 'o'
                     : gone >> p & 1            ? 'x'
                                                : '.';
            fprintf(f, " %c", c);
        }
        fprintf(f, "   %d\n", y + 1);
    }
    fputs("      A B C D E F G\n", f);
    fprintf(f, "You play the %s (seat %d). Geese taken: %d of the %d the fox needs",
            seat == VOLPE_FOX ? "fox, F" : "geese, o", seat + 1, st->captured,
            st->rules->fox_wins_at);
    if (gone)
        fprintf(f, " (x: taken since your last move)");
    fputs(".\n", f);
    if (was == NULL)
        fputs("The geese move forward or sideways, never back; the fox moves along the lines "
              "and takes a goose by jumping over it.\n",
              f);
}
