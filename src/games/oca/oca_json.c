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

/* What each kind of decision asks of a person, in the order of the K_* kinds. */
static const char *const asks[K_COUNT] = {
    [K_VOLUNTEER] = "Will you volunteer to be the banker?",
    [K_BID] = "The auction for the bank: your bid, or drop out.",
    [K_BANKER_PLAYS] = "You are the banker: will you also join the race?",
    [K_TRADE] = "Before your roll: trade a postcard, or pass.",
    [K_TRADE_OFFER] = "Your offer (or withdraw it).",
    [K_BUY_CARD] = "A player offers you a postcard: buy it?",
    [K_SELL_CARD] = "A player wants to buy one of your postcards: sell it?",
    [K_SWAP] = "A player offers a swap of postcards: accept?",
    [K_DECLARE] = "Declare a number before you roll, or pass.",
    [K_CANCEL_OWN] = "Play your postcard to cancel what your square does to you?",
    [K_CANCEL_OPPONENT] = "Play your postcard to cancel another player's gain?",
    [K_JOLLY] = "Play your jolly postcard?",
    [K_COUNTER_JOLLY] = "Play your postcard against the jolly?",
    [K_SHORT_SALE] = "You are short of points: sell a postcard, or give up selling.",
    [K_MUTUAL_AID] = "Mutual aid: name a number 1..6.",
    [K_TAKE_OVER_BANK] = "The bank has failed: take it over?",
    [K_REACT_OFFER] = "Make an offer for the postcard of the square you landed on?",
    [K_REACT_ANSWER] = "A player wants the postcard of his square: refuse, accept or ask more.",
    [K_REACT_COUNTER] = "The owner asks a higher price: take it?",
};

/* The track for a person at the terminal (game_type.view_draw): a ruler of the squares with
 * each seat's number where its figure stands; each seat's square, points (with what changed
 * since the seat's last look), postcards and state; the bank and the Fondo; then what the
 * pending decision asks and, in an auction, the bid to beat. */
void oca_view_draw(const void *before, const void *seen, int seat, FILE *f)
{
    const oca_state *st = seen, *was = before;
    const oca_rules *r = st->r;
    int n = st->n, squares = r->nsquares;
    char line[OCA_MAX_SQUARES + 2];
    fputs("\n  square ", f);
    for (int q = 1; q <= squares; q++)
        fputc(q % 10 == 0 ? (char)('0' + q / 10 % 10) : q == 1 ? '1' : ' ', f);
    fputs("\n  track  ", f);
    for (int q = 1; q <= squares; q++)
        line[q - 1] = q % 10 == 0 ? '|' : '-';
    line[squares] = '\0';
    for (int k = 0; k < n; k++)
        if (st->pos[k] >= 1 && st->pos[k] <= squares) {
            char *c = &line[st->pos[k] - 1];
            *c = *c == '-' || *c == '|' ? (char)('1' + k) : '+';
        }
    fprintf(f, "%s   (the figures by seat number; + several)\n", line);
    for (int k = 0; k < n; k++) {
        char who[24];
        snprintf(who, sizeof who, k == seat ? "you (seat %d)" : "seat %d", k + 1);
        fprintf(f, "  %-13s square %2d", who, st->pos[k]);
        if (was && was->pos[k] != st->pos[k])
            fprintf(f, " (from %d)", was->pos[k]);
        int64_t pts = oca_points(st, k);
        fprintf(f, ", %lld points", (long long)pts);
        if (was && oca_points(was, k) != pts)
            fprintf(f, " (%+lld)", (long long)(pts - oca_points(was, k)));
        if (st->hand[k]) {
            fputs(", postcards of squares", f);
            for (uint32_t m = st->hand[k]; m; m &= m - 1)
                fprintf(f, " %d", r->card_square[__builtin_ctz(m)]);
        }
        if (k == st->capo)
            fputs(", Capo-gioco", f);
        if (k == st->banker)
            fputs(", banker", f);
        if (st->bankrupt[k])
            fputs(", bankrupt", f);
        else if (st->arrived[k])
            fputs(", arrived", f);
        else if (!st->playing[k])
            fputs(", not racing", f);
        else if (st->waiting[k] > 0)
            fprintf(f, ", waits %d turn%s", st->waiting[k], st->waiting[k] == 1 ? "" : "s");
        fputc('\n', f);
    }
    if (st->banker >= 0)
        fprintf(f, "  The bank: seat %d pays and collects from its own points.", st->banker + 1);
    else
        fprintf(f, "  The bank: the Capo-gioco's till, %lld points.",
                (long long)st->led.balance[ACC_CASHIER]);
    fprintf(f, " Fondo Generale (the pool): %lld points.\n",
            (long long)st->led.balance[ACC_FONDO]);
    if (!st->over && st->pend.seat == seat && st->pend.kind >= 0 && st->pend.kind < K_COUNT &&
        asks[st->pend.kind]) {
        fprintf(f, "  %s", asks[st->pend.kind]);
        if (st->pend.kind == K_BID && st->high_bidder >= 0)
            fprintf(f, " The bid to beat: %d, by seat %d.", st->high_bid, st->high_bidder + 1);
        fputc('\n', f);
    }
}
