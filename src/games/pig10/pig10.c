/* pig10.c — PIG 10 (seed 003, Zoch 2010, 2-8 players): cards add up to exactly 10 to take
 * the table; over 10 hands it to the right neighbour; siren 5 +/-, frog 0 resets, same card
 * or same number may set the value; the hands are played out once the pile is gone. */
#include "games/pig10/pig10.h"

#include <stddef.h>
#include <string.h>

#include "core/course_rec.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "config/rules.h"

static const char *const first_names[] = {"seat1", "random", NULL};
static const char *const floor_names[] = {"clamp", "forbid", NULL};
static const char *const left_names[] = {"discard", "last_player", NULL};
static const char *const ties_names[] = {"share", "most_hits", NULL};

/* ---- ruleset ------------------------------------------------------------------------- */

/* Reads "deck": copies of each value 0..10, 2..PIG10_MAX_CARDS in all; its elements are
 * numbered by their value (deck.0 the frogs, deck.10 the tens). */
static int load_deck(pig10_rules *r, const cJSON *json, char *err, size_t errlen)
{
    long deck[PIG10_VALUES];
    int len = 0;
    if (rules_int_array_from(json, "", "deck", 0, PIG10_VALUES, PIG10_VALUES, 0,
                             PIG10_MAX_COPIES, deck, &len, err, errlen))
        return -1;
    r->total = 0;
    for (int v = 0; v < PIG10_VALUES; v++) {
        r->deck[v] = (int)deck[v];
        r->deck_bytes[v] = (uint8_t)deck[v];
        r->total += r->deck[v];
    }
    if (r->total < 2 || r->total > PIG10_MAX_CARDS)
        return rules_error(err, errlen, "", "deck", "must hold 2..%d cards in all (has %d)",
                           PIG10_MAX_CARDS, r->total);
    return 0;
}

/* Fills r->reach from the legal plays of each single card (pig10_options), so that the
 * table and the game cannot disagree; then its byte masks from it. */
static void fill_reach(pig10_rules *r)
{
    for (int w = 0; w < PIG10_VALUES; w++)
        for (int c = 0; c < PIG10_VALUES; c++)
            for (int x = 0; x < PIG10_VALUES; x++) {
                uint8_t one[PIG10_VALUES] = {0};
                int32_t opt[PIG10_VALUES * 3];
                one[x] = 1;
                int k = pig10_options(one, w, c, 1, r->siren_below_zero, opt), bits = 0;
                for (int i = 0; i < k; i++) {
                    int to = pig10_result(w, 1, x, PIG10_MODE(opt[i]));
                    bits |= to == PIG10_TARGET ? PIG10_REACH_HIT : 0;
                    bits |= to <= PIG10_TARGET ? PIG10_REACH_SAFE : 0;
                }
                r->reach[w][c][x] = (uint8_t)bits;
            }
    for (int w = 0; w < PIG10_VALUES; w++)
        for (int c = 0; c < PIG10_VALUES; c++) {
            uint8_t hit[PIG10_VALUES], safe[PIG10_VALUES];
            for (int x = 0; x < PIG10_VALUES; x++) {
                hit[x] = r->reach[w][c][x] & PIG10_REACH_HIT ? 0xff : 0;
                safe[x] = r->reach[w][c][x] & PIG10_REACH_SAFE ? 0xff : 0;
            }
            pig10_count_bytes(hit, r->hit_bytes[w][c]);
            pig10_count_bytes(safe, r->safe_bytes[w][c]);
        }
}

/* Reads and checks every key of the ruleset (all are required: the default provides them). */
int pig10_load_rules(void *rules, const cJSON *json, char *err, size_t errlen)
{
    static const char *const keys[] = {"deck",         "hand_size",        "first_player",
                                       "siren_below_zero", "table_at_end", "ties",
                                       NULL};
    pig10_rules *r = rules;
    memset(r, 0, sizeof *r);
    long hand = 0;
    if (rules_only_keys(json, "", keys, err, errlen) || load_deck(r, json, err, errlen) ||
        rules_int(json, "", "hand_size", 1, PIG10_MAX_HAND, &hand, err, errlen) ||
        rules_enum(json, "", "first_player", first_names, &r->first_player, err, errlen) ||
        rules_enum(json, "", "siren_below_zero", floor_names, &r->siren_below_zero, err,
                   errlen) ||
        rules_enum(json, "", "table_at_end", left_names, &r->table_at_end, err, errlen) ||
        rules_enum(json, "", "ties", ties_names, &r->ties, err, errlen))
        return -1;
    r->hand_size = (int)hand;
    fill_reach(r);
    return 0;
}

/* The deck must deal a full hand to every player. */
int pig10_check_rules(const void *rules, int nseats, char *err, size_t errlen)
{
    const pig10_rules *r = rules;
    if (r->total < nseats * r->hand_size)
        return rules_error(err, errlen, "", "deck",
                           "%d cards cannot deal %d to each of %d players", r->total,
                           r->hand_size, nseats);
    return 0;
}

/* ---- helpers shared with the bots ------------------------------------------------------ */

/* The set of values a hand holds: bit c set when hand[c] > 0. Branch-free over the 11 counts
 * (whether a count is zero is what the deal makes unpredictable): each byte's "not zero" lands
 * in its top bit, and one multiplication gathers the top bits of eight bytes. */
static unsigned held_mask(const uint8_t *hand)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL, top = 0x8080808080808080ULL;
    uint64_t x[2] = {0, 0};
    memcpy(&x[0], hand, 8);
    memcpy(&x[1], hand + 8, PIG10_VALUES - 8);
    unsigned m = 0;
    for (int i = 0; i < 2; i++) {
        uint64_t t = (((x[i] & low7) + low7) | x[i]) & top; /* byte not zero: its top bit */
        m |= (unsigned)(((t >> 7) * 0x0102040810204080ULL) >> 56) << (8 * i);
    }
    return m;
}

/* The distinct legal plays of a hand holding the values of mask `held`, as pig10_options. */
static int options(unsigned held, int value, int top_card, int table_n, int siren_below_zero,
                   int32_t *out)
{
    unsigned sub = 0, set = 0; /* the values that may also be subtracted, or set */
    if (table_n > 0) {
        if (siren_below_zero == PIG10_FLOOR_CLAMP || value >= PIG10_SIREN)
            sub = 1u << PIG10_SIREN;
        if (value != 0)
            set = ((1u << top_card) | (value < PIG10_VALUES ? 1u << value : 0)) &
                  ~(1u << PIG10_FROG);
    }
    int n = 0;
    for (unsigned m = held; m; m &= m - 1) {
        int c = __builtin_ctz(m);
        out[n++] = PIG10_ACTION(c, PIG10_ADD);
        if ((sub | set) >> c & 1) {
            if (sub >> c & 1)
                out[n++] = PIG10_ACTION(c, PIG10_SUB);
            if (set >> c & 1)
                out[n++] = PIG10_ACTION(c, PIG10_SET);
        }
    }
    return n;
}

/* The distinct legal plays of a hand (contract in pig10.h): every card once as an ordinary
 * play, the siren also subtracted, a same card or same number also set (not a frog, not on
 * a value of 0, where setting is the ordinary play). Walks the held values as a bit mask. */
int pig10_options(const uint8_t *hand, int value, int top_card, int table_n,
                  int siren_below_zero, int32_t *out)
{
    return options(held_mask(hand), value, top_card, table_n, siren_below_zero, out);
}

/* The next seat clockwise from `seat` with cards, possibly seat itself; -1 if none (pig10.h). */
int pig10_next_seat(const int *hand_n, int nseats, int seat)
{
    for (int s = seat + 1; s < nseats; s++)
        if (hand_n[s] > 0)
            return s;
    for (int s = 0; s <= seat; s++)
        if (hand_n[s] > 0)
            return s;
    return -1;
}

/* What card can do on a table (contract in pig10.h): looked up on a non-empty table; on an
 * empty one the card sets the value, so it hits only as a 10 and is always safe. */
int pig10_reach(const pig10_rules *rules, int value, int top_card, int table_n, int card)
{
    if (table_n == 0)
        return PIG10_REACH_SAFE | (card == PIG10_TARGET ? PIG10_REACH_HIT : 0);
    return rules->reach[value][top_card][card];
}

/* ---- dealing and drawing --------------------------------------------------------------- */

/* Traces every hand as dealt. */
static void trace_hands(const pig10_state *st, trace *tr)
{
    if (!tr)
        return;
    for (int s = 0; s < st->nseats; s++) {
        fprintf(tr, "seat %d is dealt", s + 1);
        for (int c = 0; c < PIG10_VALUES; c++)
            for (int k = 0; k < st->hand[s][c]; k++)
                fprintf(tr, " %d", c);
        fputc('\n', tr);
    }
}

/* Deals from a pile in the given order (contract in pig10.h); start() uses it after the
 * shuffle, tests with a scripted pile. */
void pig10_start_from_pile(pig10_state *st, const pig10_rules *rules, int nseats, int first,
                           const uint8_t *pile, int n, trace *tr)
{
    memset(st, 0, sizeof *st);
    static const int64_t none[GAME_MAX_SEATS]; /* nobody has collected a card */
    course_start_at(&st->course, none, nseats);
    st->rules = rules;
    st->nseats = nseats;
    st->total = n;
    st->pile_n = n;
    memcpy(st->pile, pile, (size_t)n);
    for (int s = 0; s < nseats; s++) {
        for (int k = 0; k < rules->hand_size; k++) {
            st->hand[s][st->pile[st->pile_pos++]]++;
            st->hand_n[s]++;
        }
        st->held[s] = (uint16_t)held_mask(st->hand[s]);
    }
    st->turn = first;
    trace_hands(st, tr);
    TRACE(tr, "draw pile: %d cards; seat %d plays first", st->pile_n - st->pile_pos, first + 1);
}

/* Shuffles the ruleset's deck from the chance stream, picks the first player and deals. */
void pig10_start(void *state, const void *rules, int nseats, rng *chance, trace *tr)
{
    const pig10_rules *r = rules;
    int deck[PIG10_MAX_CARDS];
    uint8_t pile[PIG10_MAX_CARDS];
    int n = 0;
    for (int v = 0; v < PIG10_VALUES; v++)
        for (int k = 0; k < r->deck[v]; k++)
            deck[n++] = v;
    rng_shuffle_int(chance, deck, n);
    for (int i = 0; i < n; i++)
        pile[i] = (uint8_t)deck[i];
    int first = 0;
    if (r->first_player == PIG10_FIRST_RANDOM)
        first = (int)rng_below(chance, (uint32_t)nseats);
    pig10_start_from_pile(state, r, nseats, first, pile, n, tr);
}

/* ---- playing a card -------------------------------------------------------------------- */

/* "card" or "cards" for the traces. */
static const char *cards(int n)
{
    return n == 1 ? "card" : "cards";
}

/* Moves every card on the table to seat s's collected pile. */
static int sweep(pig10_state *st, int s)
{
    int n = st->table_n;
    st->collected[s] += n;
    course_set(&st->course, s, st->collected[s]);
    memset(st->table, 0, sizeof st->table);
    st->table_n = 0;
    return n;
}

/* The seat that receives the table when `seat` goes over 10: "il giocatore seduto alla sua
 * destra", the previous seat in clockwise order, "il furbetto che era di turno prima di te". Everybody draws back to a full hand while the
 * pile lasts, so the hands then run out in turn order and the right neighbour is always the
 * player of the card before (tests/test_pig10.c checks it in every game of a batch). */
static int over_receiver(const pig10_state *st, int seat)
{
    return seat > 0 ? seat - 1 : st->nseats - 1;
}

/* Settles the table after `seat` played and the value became `value`. */
static void settle(pig10_state *st, int seat, int value, trace *tr)
{
    if (value == PIG10_TARGET) {
        int n = sweep(st, seat);
        st->count[seat].hits++;
        TRACE(tr, "seat %d: \"PIG 10\", takes %d %s (now %d)", seat + 1, n, cards(n),
              st->collected[seat]);
    } else if (value > PIG10_TARGET) {
        int to = over_receiver(st, seat);
        int n = sweep(st, to);
        st->count[seat].given++;
        st->count[to].received++;
        TRACE(tr, "seat %d: \"%d\" is over 10, seat %d receives %d %s (now %d)", seat + 1,
              value, to + 1, n, cards(n), st->collected[to]);
    } else {
        st->value = value;
        TRACE(tr, "seat %d announces \"%d\" (%d %s on the table)", seat + 1, value, st->table_n,
              cards(st->table_n));
    }
}

/* "ne riprende una dal mazzo coperto": seat draws the top card while the pile lasts. */
static void draw(pig10_state *st, int seat, trace *tr)
{
    if (st->pile_pos >= st->pile_n)
        return;
    int c = st->pile[st->pile_pos++];
    st->hand[seat][c]++;
    st->held[seat] |= (uint16_t)(1u << c);
    st->hand_n[seat]++;
    TRACE(tr, "seat %d draws a %d (%d left in the pile)", seat + 1, c, st->pile_n - st->pile_pos);
}

/* Ends the game: the cards still on the table follow table_at_end. */
static void end_game(pig10_state *st, int last, trace *tr)
{
    st->over = true;
    st->left_on_table = st->table_n;
    if (st->table_n > 0 && st->rules->table_at_end == PIG10_LEFT_LAST_PLAYER) {
        int n = sweep(st, last);
        TRACE(tr, "game over: seat %d, who played last, takes the %d %s left", last + 1, n,
              cards(n));
    } else {
        TRACE(tr, "game over: %d %s left on the table, out of play", st->table_n,
              cards(st->table_n));
    }
}

/* game_type.standing: the cards each seat has collected. */
void pig10_standing(const void *state, int64_t *out)
{
    const pig10_state *st = state;
    for (int s = 0; s < st->nseats; s++)
        out[s] = st->collected[s];
}

/* Plays action for the seat to move: card and mode, the table settled, the draw, the turn
 * passed clockwise to the next seat with cards (or the end). */
void pig10_apply(void *state, int32_t action, rng *chance, trace *tr)
{
    (void)chance; /* the pile was shuffled at the start: draws take it in order */
    pig10_state *st = state;
    int seat = st->turn, card = PIG10_CARD(action), mode = PIG10_MODE(action);
    int value = pig10_result(st->value, st->table_n, card, mode);
    st->count[seat].frogs += card == PIG10_FROG;
    st->count[seat].subtractions += mode == PIG10_SUB;
    st->count[seat].sets += mode == PIG10_SET;
    st->history[st->plays] = (pig10_play){
        .seat = (uint8_t)seat,
        .card = (uint8_t)card,
        .mode = (uint8_t)(card == PIG10_FROG ? PIG10_RESET : mode),
        .value = (uint8_t)value,
    };
    if (--st->hand[seat][card] == 0)
        st->held[seat] &= (uint16_t)~(1u << card);
    st->hand_n[seat]--;
    st->table[card]++;
    st->table_n++;
    st->played[card]++;
    st->plays++;
    settle(st, seat, value, tr);
    st->top_card = card;
    st->top_seat = seat;
    draw(st, seat, tr);
    st->turn = pig10_next_seat(st->hand_n, st->nseats, seat);
    if (st->turn < 0)
        end_game(st, seat, tr);
    course_step(&st->course); /* the sweeps of the play set their seats' standings */
}

/* The pending play of the seat to move: its distinct card-and-mode options. */
bool pig10_decide(const void *state, decision *d)
{
    const pig10_state *st = state;
    if (st->over)
        return false;
    d->seat = st->turn;
    d->kind = 0;
    d->n = options(st->held[st->turn], st->value, st->top_card, st->table_n,
                   st->rules->siren_below_zero, d->action);
    return true;
}

/* ---- the end --------------------------------------------------------------------------- */

enum {
    M_HITS,
    M_GIVEN,
    M_RECEIVED,
    M_SUBTRACTIONS,
    M_FROGS,
    M_SETS,
    M_LEFT,
    M_COURSE,
};

const metric_def pig10_metrics[] = {
    [M_HITS] = {"pig10_hits", METRIC_MEAN, METRIC_SEAT,
                "times per game the seat brought the table to exactly 10 and took it"},
    [M_GIVEN] = {"tables_given", METRIC_MEAN, METRIC_SEAT,
                 "times per game the seat went over 10, handing the table to another"},
    [M_RECEIVED] = {"tables_received", METRIC_MEAN, METRIC_SEAT,
                    "times per game the seat received a table because another went over 10"},
    [M_SUBTRACTIONS] = {"siren_subtractions", METRIC_MEAN, METRIC_SEAT,
                        "sirens (5) the seat subtracted, per game"},
    [M_FROGS] = {"frogs", METRIC_MEAN, METRIC_SEAT, "frogs (0) the seat played, per game"},
    [M_SETS] = {"set_plays", METRIC_MEAN, METRIC_SEAT,
                "same-card or same-number plays that set the value to the card, per game"},
    [M_LEFT] = {"cards_left_on_table", METRIC_MEAN, METRIC_GAME,
                "cards on the table when the last hand was played out"},
    COURSE_METRIC_DEFS,
    {NULL, 0, 0, NULL},
};

/* Records the game's metrics (one observation per seat, and some for the game), the game
 * won by the seats of `winners`. */
static void record(const pig10_state *st, uint32_t winners, recorder *rec)
{
    rec_batch b = rec_batch_open(rec, pig10_metrics);
    for (int s = 0; s < st->nseats; s++) {
        const pig10_counts *c = &st->count[s];
        rec_batch_value(&b, M_HITS, s, c->hits);
        rec_batch_value(&b, M_GIVEN, s, c->given);
        rec_batch_value(&b, M_RECEIVED, s, c->received);
        rec_batch_value(&b, M_SUBTRACTIONS, s, c->subtractions);
        rec_batch_value(&b, M_FROGS, s, c->frogs);
        rec_batch_value(&b, M_SETS, s, c->sets);
    }
    rec_batch_value(&b, M_LEFT, -1, st->left_on_table);
    course_record(&st->course, winners, &b, M_COURSE);
}

/* What ranks seat s at the end: "vince chi ha accumulato il maggior numero di carte", and
 * with ties "most_hits" the PIG 10s ("chi raggiunge più spesso il DIECI") among equal cards. */
static int64_t standing(const pig10_state *st, int s)
{
    int64_t k = (int64_t)st->collected[s] * (PIG10_MAX_CARDS + 1);
    return st->rules->ties == PIG10_TIES_MOST_HITS ? k + st->count[s].hits : k;
}

/* Score = cards collected; winners and ranks by standing(). */
/* --check: cards of every value are conserved (hands + draw pile + cards played = the deck;
 * hands + pile + table + collected piles = the cards of the game: 80 with the default deck),
 * and the counts kept beside the cards agree with them. */
int pig10_check(const void *state, char *err, size_t errlen)
{
    const pig10_state *st = state;
    const pig10_rules *r = st->rules;
    if (st->total != r->total)
        return snprintf(err, errlen, "cards: %d in the game, %d in the deck", st->total,
                        r->total),
               -1;
    int n = st->pile_n - st->pile_pos + st->table_n, per_value[PIG10_VALUES] = {0};
    int table_n = 0, played = 0;
    for (int s = 0; s < st->nseats; s++) {
        int h = 0;
        for (int c = 0; c < PIG10_VALUES; c++) {
            h += st->hand[s][c];
            per_value[c] += st->hand[s][c];
        }
        if (st->held[s] != held_mask(st->hand[s]))
            return snprintf(err, errlen, "cards: seat %d's held values 0x%x, its hand 0x%x",
                            s + 1, st->held[s], held_mask(st->hand[s])),
                   -1;
        if (h != st->hand_n[s] || h > r->hand_size)
            return snprintf(err, errlen, "cards: seat %d holds %d, counted %d (hand size %d)",
                            s + 1, h, st->hand_n[s], r->hand_size),
                   -1;
        n += st->hand_n[s] + st->collected[s];
    }
    for (int i = st->pile_pos; i < st->pile_n; i++)
        per_value[st->pile[i]]++;
    for (int c = 0; c < PIG10_VALUES; c++) {
        table_n += st->table[c];
        played += st->played[c];
        if (per_value[c] + st->played[c] != r->deck[c])
            return snprintf(err, errlen, "cards: %d of value %d held or unplayed, %d played, %d "
                            "in the deck", per_value[c], c, st->played[c], r->deck[c]),
                   -1;
    }
    if (n != st->total || table_n != st->table_n || played != st->plays)
        return snprintf(err, errlen, "cards: %d accounted of %d, table %d of %d, played %d of %d",
                        n, st->total, table_n, st->table_n, played, st->plays),
               -1;
    return 0;
}

void pig10_finish(const void *state, outcome *o, recorder *rec)
{
    const pig10_state *st = state;
    memset(o, 0, sizeof *o);
    o->nseats = st->nseats;
    o->length = st->plays;
    o->end = 0;
    int64_t key[GAME_MAX_SEATS], best = 0;
    for (int s = 0; s < st->nseats; s++) {
        key[s] = standing(st, s);
        best = key[s] > best ? key[s] : best;
    }
    for (int s = 0; s < st->nseats; s++) {
        o->score[s] = st->collected[s];
        o->rank[s] = 1;
        for (int t = 0; t < st->nseats; t++)
            o->rank[s] += key[t] > key[s];
        if (key[s] == best)
            o->winners |= 1u << s;
    }
    if (rec)
        record(st, o->winners, rec);
}

/* ---- hidden information and names ----------------------------------------------------- */

/* The view holds no padding before its history, so that writing every field leaves no byte
 * of an earlier view behind without clearing the whole view first. */
_Static_assert(offsetof(pig10_view, history) ==
                   sizeof(int) * (10 + 2 * GAME_MAX_SEATS) + 4 * PIG10_VALUES,
               "pig10_view: padding before the history");

/* What `seat` may know but the history (pig10.h): every field written, the hand counts and
 * collected piles of seats beyond nseats included (zero in a state: start and determinize
 * clear it). */
void pig10_view_counts(const pig10_state *st, int seat, pig10_view *v)
{
    v->seat = seat;
    v->nseats = st->nseats;
    v->turn = st->turn;
    v->value = st->value;
    v->top_card = st->top_card;
    v->top_seat = st->top_seat;
    v->table_n = st->table_n;
    v->pile_left = st->pile_n - st->pile_pos;
    memcpy(v->hand_n, st->hand_n, sizeof v->hand_n);
    memcpy(v->collected, st->collected, sizeof v->collected);
    memcpy(v->hand, st->hand[seat], sizeof v->hand);
    memcpy(v->table, st->table, sizeof v->table);
    memcpy(v->played, st->played, sizeof v->played);
    memcpy(v->deck, st->rules->deck_bytes, sizeof v->deck);
    v->siren_below_zero = st->rules->siren_below_zero;
    v->nplays = 0;
}

/* What `seat` may know (pig10_view): the counts, then the public history of plays; the unused
 * rest of the history is zeroed too, so that nothing of an earlier game or seat remains. */
void pig10_view_of(const void *state, int seat, void *out)
{
    const pig10_state *st = state;
    pig10_view *v = out;
    pig10_view_counts(st, seat, v);
    v->nplays = st->plays;
    memcpy(v->history, st->history, sizeof(pig10_play) * (size_t)st->plays);
    /* to the end of the view: its trailing padding too */
    memset(v->history + st->plays, 0,
           sizeof *v - offsetof(pig10_view, history) - sizeof(pig10_play) * (size_t)st->plays);
}

/* The unseen cards of view v, one entry per card, into out; returns their number or -1. */
static int unseen(const pig10_rules *rules, const pig10_view *v, int *out)
{
    int n = 0;
    for (int c = 0; c < PIG10_VALUES; c++) {
        int u = rules->deck[c] - v->played[c] - v->hand[c];
        if (u < 0)
            return -1;
        for (int k = 0; k < u; k++)
            out[n++] = c;
    }
    return n;
}

/* Deals the cards the viewer has not seen at random (contract in pig10.h). */
int pig10_determinize(pig10_state *st, const pig10_rules *rules, const pig10_view *v, rng *r)
{
    int cards[PIG10_MAX_CARDS];
    int n = unseen(rules, v, cards), need = v->pile_left;
    for (int s = 0; s < v->nseats; s++)
        need += s == v->seat ? 0 : v->hand_n[s];
    if (n != need)
        return -1;
    rng_shuffle_int(r, cards, n);
    memset(st, 0, sizeof *st);
    st->rules = rules;
    st->nseats = v->nseats;
    st->turn = v->turn;
    st->total = rules->total;
    st->value = v->value;
    st->top_card = v->top_card;
    st->top_seat = v->top_seat;
    st->table_n = v->table_n;
    memcpy(st->table, v->table, sizeof st->table);
    memcpy(st->played, v->played, sizeof st->played);
    memcpy(st->hand[v->seat], v->hand, sizeof v->hand);
    int k = 0;
    for (int s = 0; s < v->nseats; s++) {
        st->hand_n[s] = v->hand_n[s];
        st->collected[s] = v->collected[s];
        for (int j = 0; s != v->seat && j < v->hand_n[s]; j++)
            st->hand[s][cards[k++]]++;
        st->held[s] = (uint16_t)held_mask(st->hand[s]);
    }
    int64_t standing[GAME_MAX_SEATS] = {0}; /* the course starts here, at the view's piles */
    for (int s = 0; s < v->nseats; s++)
        standing[s] = st->collected[s];
    course_start_at(&st->course, standing, v->nseats);
    st->plays = v->nplays;
    memcpy(st->history, v->history, sizeof(pig10_play) * (size_t)v->nplays);
    if (v->nplays == 0) /* a counts-only view (pig10_view_counts): plays from the counts */
        for (int c = 0; c < PIG10_VALUES; c++)
            st->plays += v->played[c];
    st->pile_n = v->pile_left;
    for (int i = 0; i < st->pile_n; i++)
        st->pile[i] = (uint8_t)cards[k++];
    return 0;
}

/* "play 4: 3+4 = 7", with the value the play makes (contract in pig10.h). */
void pig10_play_name(int value, int table_n, int32_t a, char *buf, size_t n)
{
    int card = PIG10_CARD(a), mode = PIG10_MODE(a);
    int to = pig10_result(value, table_n, card, mode);
    if (card == PIG10_FROG)
        snprintf(buf, n, "play 0 (frog): 0");
    else if (table_n == 0)
        snprintf(buf, n, "play %d on the empty table: %d", card, to);
    else if (mode == PIG10_SUB)
        snprintf(buf, n, "play 5 (siren) subtracted: %d-5 = %d", value, to);
    else if (mode == PIG10_SET)
        snprintf(buf, n, "play %d and set the value: %d", card, to);
    else
        snprintf(buf, n, "play %d: %d+%d = %d", card, value, card, to);
}

void pig10_action_name(const void *state, const decision *d, int32_t a, char *buf, size_t n)
{
    (void)d;
    const pig10_state *st = state;
    pig10_play_name(st->value, st->table_n, a, buf, n);
}

const char *const pig10_kind_names[] = {"play", NULL};
const char *const pig10_end_names[] = {"hands_played_out", NULL};
/* The end in words for a person (game_type.end_words). */
const char *const pig10_end_words[] = {"the pile was used up and every hand played out", NULL};


/* ---- presentation: the summary's headline, groups and labels ----------------------------- */

const char *const pig10_headline[] = {"pig10_hits", "tables_given", NULL};

const metric_group pig10_groups[] = {
    {"Tables", (const char *const[]){"pig10_hits", "tables_given", "tables_received",
                                     "cards_left_on_table", NULL}},
    {"Special cards", (const char *const[]){"siren_subtractions", "frogs", "set_plays", NULL}},
    COURSE_GROUP,
    {NULL, NULL},
};

const metric_label pig10_labels[] = {
    {"pig10_hits", "tables taken at exactly 10, per player and game", NULL},
    {"tables_given", "tables handed over by going past 10, per player and game", NULL},
    {"tables_received", "tables received when another went past 10, per player and game", NULL},
    {"cards_left_on_table", "cards left on the table at the end", "cards"},
    {"siren_subtractions", "sirens (5) subtracted, per player and game", NULL},
    {"frogs", "frogs (0) played, per player and game", NULL},
    {"set_plays", "same-card or same-number plays, per player and game", NULL},
    COURSE_METRIC_LABELS,
    {NULL, NULL, NULL},
};
/* What one game can record: every play lays one card of the deck, and each is one decision
 * of the seat that plays. */
void pig10_limits(const void *rules, int nseats, game_limits *l)
{
    (void)nseats;
    const pig10_rules *r = rules;
    *l = (game_limits){.length = r->total, .choices = {0, 1}};
}

/* The game's own words, as the reports use them (RULES-NOTES, pig10; giochi-sim-pig10(7)). */
const game_term pig10_glossary[] = {
    {"table", "the cards played since the table was last cleared; their running value is the "
              "count"},
    {"taken at 10", "the player who makes the count exactly 10 takes every card on the table"},
    {"handed over", "the player who makes the count pass 10 gives the table's cards to the "
                    "player who played just before him"},
    {"siren", "a 5, which may be added to or subtracted from the count (never below 0)"},
    {"frog", "a 0, which sets the count to 0"},
    {"same-card play", "playing the value of the previous card or of the count; the player "
                       "adds it or sets the count to it"},
    {"hands played out", "the end of the game, when the draw pile is gone and every "
                         "hand is played"},
    {NULL, NULL},
};
