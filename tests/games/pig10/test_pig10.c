/* test_pig10.c — PIG 10 (seed 003): one scripted test per rule of the seed text, the seed's
 * worked examples step by step, invariants over large seeded batches, hidden information,
 * and the bots against each other at fixed seeds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "config/configs.h"
#include "games/pig10/pig10.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "config/rules.h"
#include "core/runner.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/* Loads the default ruleset with the JSON object `overlay` (or NULL) merged over it. Returns
 * rules_load's result and leaves its message in err. */
static int try_load(pig10_rules *r, const char *overlay, char *err, size_t errlen)
{
    cJSON *root = rules_parse(config_pig10_json, "pig10.json", err, errlen);
    if (root == NULL)
        return -1;
    if (overlay) {
        cJSON *o = rules_parse(overlay, "overlay", err, errlen);
        if (o == NULL) {
            cJSON_Delete(root);
            return -1;
        }
        rules_merge(root, o);
        cJSON_Delete(o);
    }
    int rc = game_pig10.rules_load(r, root, err, errlen);
    cJSON_Delete(root);
    return rc;
}

#define LOAD(r, overlay) load_at(__LINE__, (r), (overlay))
static void load_at(int line, pig10_rules *r, const char *overlay)
{
    char err[256];
    if (try_load(r, overlay, err, sizeof err) != 0)
        check_fail(__FILE__, line, "ruleset did not load: %s", err);
}

/* Card value of a script character: '0'..'9', 'T' for 10; -1 for anything else (spacing). */
static int card_of(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    return ch == 'T' ? 10 : -1;
}

/* Builds a whole pile from the ruleset's deck: first the cards written in `front` (the hands,
 * seat after seat, then the draws in order), then the rest of the deck in increasing value.
 * Returns the number of cards, or -1 if `front` asks for more copies than the deck has. */
static int make_pile(const pig10_rules *r, const char *front, uint8_t *pile)
{
    int left[PIG10_VALUES], n = 0;
    memcpy(left, r->deck, sizeof left);
    for (const char *p = front; *p; p++) {
        int c = card_of(*p);
        if (c < 0)
            continue;
        if (left[c]-- == 0)
            return -1;
        pile[n++] = (uint8_t)c;
    }
    for (int c = 0; c < PIG10_VALUES; c++)
        while (left[c]-- > 0)
            pile[n++] = (uint8_t)c;
    return n;
}

/* Starts a scripted game: `front` as in make_pile, seat `first` to play. */
#define DEAL(st, r, nseats, first, front) deal_at(__LINE__, (st), (r), (nseats), (first), (front))
static void deal_at(int line, pig10_state *st, const pig10_rules *r, int nseats, int first,
                    const char *front)
{
    uint8_t pile[PIG10_MAX_CARDS];
    int n = make_pile(r, front, pile);
    if (n < 0) {
        check_fail(__FILE__, line, "script \"%s\" does not fit the deck", front);
        n = r->total;
        memset(pile, 1, sizeof pile);
    }
    pig10_start_from_pile(st, r, nseats, first, pile, n, NULL);
}

static bool offered(const decision *d, int32_t a)
{
    for (int i = 0; i < d->n; i++)
        if (d->action[i] == a)
            return true;
    return false;
}

/* Checks that `seat` is to play and may play `card` in `mode`, then plays it. */
#define PLAY(st, seat, card, mode) play_at(__LINE__, (st), (seat), (card), (mode))
static void play_at(int line, pig10_state *st, int seat, int card, int mode)
{
    decision d;
    rng unused;
    rng_seed(&unused, 0);
    if (!game_pig10.decide(st, &d)) {
        check_fail(__FILE__, line, "game over before seat %d plays %d", seat, card);
        return;
    }
    if (d.seat != seat)
        check_fail(__FILE__, line, "seat %d to play, expected %d", d.seat, seat);
    if (!offered(&d, PIG10_ACTION(card, mode))) {
        check_fail(__FILE__, line, "card %d mode %d not offered", card, mode);
        return;
    }
    game_pig10.apply(st, PIG10_ACTION(card, mode), &unused, NULL);
}

/* Cards of every value are conserved: hands + draw pile + table + collected = deck (the
 * game's own --check invariant, game_pig10.check). */
static bool conserved(const pig10_state *st)
{
    char err[256];
    return game_pig10.check(st, err, sizeof err) == 0;
}

/* The legal list of d is well formed for st: codes strictly increasing (so distinct), each
 * card in the mover's hand, every card of the hand playable, modes only where they apply. */
static bool legal_ok(const pig10_state *st, const decision *d)
{
    int playable[PIG10_VALUES] = {0};
    for (int i = 0; i < d->n; i++) {
        int card = PIG10_CARD(d->action[i]), mode = PIG10_MODE(d->action[i]);
        if ((i > 0 && d->action[i] <= d->action[i - 1]) || card < 0 || card >= PIG10_VALUES ||
            st->hand[d->seat][card] == 0 || mode > PIG10_SET)
            return false;
        if (mode == PIG10_SUB && (card != PIG10_SIREN || st->table_n == 0))
            return false;
        if (mode == PIG10_SET && (st->table_n == 0 || (card != st->top_card && card != st->value)))
            return false;
        playable[card] |= mode == PIG10_ADD;
    }
    for (int c = 0; c < PIG10_VALUES; c++)
        if (st->hand[d->seat][c] > 0 && !playable[c])
            return false;
    return d->seat == st->turn && st->hand_n[d->seat] > 0;
}

/* ---- bots on a table ------------------------------------------------------------------------ */

/* Sets up bot bt for seat `seat` in ctx with its default parameters, except that the first
 * parameter (mc's samples, ismcts' iterations) is `first` when the bot has parameters. */
static void setup_bot(const bot_type *bt, void *ctx, const pig10_rules *rules, int seat,
                      int nseats, double first)
{
    double param[BOT_MAX_PARAMS] = {0};
    char err[128];
    for (int i = 0; bt->params && bt->params[i].name && i < BOT_MAX_PARAMS; i++)
        param[i] = i == 0 ? first : bt->params[i].def;
    if (bt->setup && bt->setup(ctx, &game_pig10, rules, seat, nseats, param, err, sizeof err))
        check_fail(__FILE__, __LINE__, "bot %s: %s", bt->name, err);
}

enum { CTX_BYTES = 256 }; /* room for any pig10 bot's context */

typedef struct seats {
    const bot_type *bot[GAME_MAX_SEATS];
    _Alignas(16) unsigned char ctx[GAME_MAX_SEATS][CTX_BYTES];
    rng r[GAME_MAX_SEATS];
} seats;

/* Seats `nseats` bots named in names (the last name repeats), default parameters except
 * samples for mc. */
static void sit_bots(seats *t, const pig10_rules *rules, int nseats, const char *const *names,
                      int nnames, double mc_samples)
{
    memset(t, 0, sizeof *t);
    for (int s = 0; s < nseats; s++) {
        t->bot[s] = registry_bot(&game_pig10, names[s < nnames ? s : nnames - 1]);
        CHECK(t->bot[s] != NULL && t->bot[s]->ctx_size <= sizeof t->ctx[s]);
        setup_bot(t->bot[s], t->ctx[s], rules, s, nseats, mc_samples);
    }
}

/* Tears down the bots sat by sit_bots. */
static void stand_bots(seats *t, int nseats)
{
    for (int s = 0; s < nseats; s++)
        if (t->bot[s] && t->bot[s]->teardown)
            t->bot[s]->teardown(t->ctx[s]);
}

/* Plays one game `index` to the end with the bots of t; checks conservation and the legal
 * lists after every play when `check` is set. Fills o and, if rec, records the metrics. */
static void play_game(pig10_state *st, const pig10_rules *rules, int nseats, seats *t,
                      uint64_t seed, uint64_t index, bool check, outcome *o, recorder *rec)
{
    rng chance;
    rng_seed_stream(&chance, seed, index, RNG_STREAM_CHANCE);
    for (int s = 0; s < nseats; s++)
        rng_seed_stream(&t->r[s], seed, index, RNG_STREAM_SEAT(s));
    game_pig10.start(st, rules, nseats, &chance, NULL);
    decision d;
    pig10_view v;
    int plays = 0;
    for (int s = 0; s < nseats; s++)
        if (t->bot[s]->begin) {
            game_pig10.view(st, s, &v);
            t->bot[s]->begin(t->ctx[s], &v);
        }
    while (game_pig10.decide(st, &d)) {
        if (check && (d.n < 1 || d.n > 3 * PIG10_VALUES || !legal_ok(st, &d) || !conserved(st)))
            check_fail(__FILE__, __LINE__, "game %llu: bad state at play %d",
                       (unsigned long long)index, plays);
        game_pig10.view(st, d.seat, &v);
        int k = t->bot[d.seat]->choose(t->ctx[d.seat], &v, &d, &t->r[d.seat]);
        if (k < 0 || k >= d.n) {
            check_fail(__FILE__, __LINE__, "bot %s chose %d of %d", t->bot[d.seat]->name, k, d.n);
            return;
        }
        game_pig10.apply(st, d.action[k], &chance, NULL);
        if (++plays > st->total)
            break;
    }
    if (check && (!conserved(st) || plays != st->total))
        check_fail(__FILE__, __LINE__, "game %llu: %d plays of %d cards, conserved %d",
                   (unsigned long long)index, plays, st->total, conserved(st));
    game_pig10.finish(st, o, rec);
}

/* ---- the rules of the seed, one by one -------------------------------------------------------- */

/* "Mescolate bene le carte e distribuitene tre ad ogni giocatore. Il resto delle carte va
 * messo in un mazzo coperto al centro del tavolo." And the published deck: 0 x7; 1-4, 6-9
 * x8; 5 x5; 10 x4 = 80 cards. */
TEST(pig10_deal_three_each_rest_is_the_pile)
{
    pig10_rules r;
    LOAD(&r, NULL);
    static const int deck[PIG10_VALUES] = {7, 8, 8, 8, 8, 5, 8, 8, 8, 8, 4};
    for (int c = 0; c < PIG10_VALUES; c++)
        CHECK_INT(r.deck[c], deck[c]);
    CHECK_INT(r.total, 80);
    for (int n = 2; n <= 8; n++) {
        pig10_state st;
        rng chance;
        rng_seed(&chance, (uint64_t)n);
        game_pig10.start(&st, &r, n, &chance, NULL);
        for (int s = 0; s < n; s++)
            CHECK_INT(st.hand_n[s], 3);
        CHECK_INT(st.pile_n - st.pile_pos, 80 - 3 * n);
        CHECK_INT(st.table_n, 0);
        CHECK(conserved(&st));
    }
}

/* The shuffle comes from the chance stream only: the same stream deals the same game, a
 * different one (almost surely) another. */
TEST(pig10_deal_comes_from_the_chance_stream)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state a, b, c;
    rng x, y, z;
    rng_seed(&x, 7);
    rng_seed(&y, 7);
    rng_seed(&z, 8);
    game_pig10.start(&a, &r, 4, &x, NULL);
    game_pig10.start(&b, &r, 4, &y, NULL);
    game_pig10.start(&c, &r, 4, &z, NULL);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK(memcmp(a.pile, c.pile, sizeof a.pile) != 0);
}

/* "Si gioca a turni in senso orario." Seat s is followed by seat s+1, the last by seat 0,
 * starting from the first player. */
TEST(pig10_turns_go_clockwise)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 3, 1, "123 123 123 4444");
    PLAY(&st, 1, 1, PIG10_ADD);
    PLAY(&st, 2, 1, PIG10_ADD);
    PLAY(&st, 0, 1, PIG10_ADD);
    PLAY(&st, 1, 2, PIG10_ADD);
    CHECK_INT(st.turn, 2);
}

/* "Comincia il giocatore che riesce a contare più rapidamente fino al 10." The seed names no
 * rule a simulation can follow: first_player "seat1" (default) lets seat 1 (index 0) start
 * every game,
 * "random" draws the first player from the chance stream. */
TEST(pig10_first_player_option)
{
    pig10_rules r;
    LOAD(&r, NULL);
    CHECK_INT(r.first_player, PIG10_FIRST_SEAT1);
    pig10_state st;
    rng chance;
    rng_seed(&chance, 3);
    game_pig10.start(&st, &r, 5, &chance, NULL);
    CHECK_INT(st.turn, 0);
    LOAD(&r, "{\"first_player\": \"random\"}");
    int seen = 0;
    for (int i = 0; i < 200; i++) {
        rng_seed(&chance, (uint64_t)i);
        game_pig10.start(&st, &r, 5, &chance, NULL);
        CHECK(st.turn >= 0 && st.turn < 5);
        seen |= 1 << st.turn;
    }
    CHECK_INT(seen, 31); /* each seat starts some game: P(miss) < 5 * 0.8^200 */
}

/* "Il giocatore che gioca la prima carta quando il tavolo è ancora tutto vuoto annuncia come
 * valore del mazzo giocato il numero sulla sua carta. I giocatori che seguono semplicemente vi
 * addizionano il numero della loro carta." */
TEST(pig10_first_card_sets_value_later_cards_add)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 2, 0, "712 233 4444");
    decision d;
    game_pig10.decide(&st, &d);
    CHECK_INT(d.n, 3); /* one plain play per distinct card on an empty table */
    PLAY(&st, 0, 7, PIG10_ADD);
    CHECK_INT(st.value, 7);
    PLAY(&st, 1, 2, PIG10_ADD);
    CHECK_INT(st.value, 9);
    CHECK_INT(st.table_n, 2);
}

/* "Non appena un partecipante gioca un carta, ne riprende una dal mazzo coperto, in modo da
 * averne sempre 3 in mano." The card drawn is the top of the pile. */
TEST(pig10_draw_back_to_three)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 2, 0, "123 124 96");
    PLAY(&st, 0, 3, PIG10_ADD);
    CHECK_INT(st.hand_n[0], 3);
    CHECK_INT(st.hand[0][9], 1);
    CHECK_INT(st.hand[0][3], 0);
    PLAY(&st, 1, 4, PIG10_ADD);
    CHECK_INT(st.hand_n[1], 3);
    CHECK_INT(st.hand[1][6], 1);
    CHECK_INT(st.pile_n - st.pile_pos, 80 - 8);
}

/* The seed's first worked example: "Mattia comincia la partita. Gioca un 4 e annuncia "4".
 * In seguito Giulia gioca un 3, lo addiziona al 4 di Mattia e annuncia "7". Gianna gioca un 2
 * e dice "9". A questo punto Claudio gioca un 6 e annuncia "15". Dato che questo numero supera
 * il DIECI, le carte giocate saranno vinte da Gianna, che è seduta alla destra di Claudio."
 * Seats: Mattia 0, Giulia 1, Gianna 2, Claudio 3. */
TEST(pig10_example_over_ten_goes_to_the_right)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 4, 0, "477 377 277 617 8888");
    PLAY(&st, 0, 4, PIG10_ADD);
    CHECK_INT(st.value, 4);
    PLAY(&st, 1, 3, PIG10_ADD);
    CHECK_INT(st.value, 7);
    PLAY(&st, 2, 2, PIG10_ADD);
    CHECK_INT(st.value, 9);
    PLAY(&st, 3, 6, PIG10_ADD); /* "15" */
    CHECK_INT(st.table_n, 0);
    CHECK_INT(st.collected[2], 4);
    CHECK_INT(st.collected[3], 0);
    CHECK_INT(st.count[3].given, 1);
    CHECK_INT(st.count[2].received, 1);
    CHECK_INT(st.turn, 0);
    CHECK(conserved(&st));
}

/* Same example, the other branch: "Se Claudio avesse giocato un 1, il valore del mazzo
 * giocato sarebbe stato di DIECI e Claudio avrebbe vinto tutte le carte." And "Colui che porta
 * il valore del mazzo giocato a DIECI dice "PIG 10" e vince tutte le carte giocate." */
TEST(pig10_example_exactly_ten_takes_the_table)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 4, 0, "477 377 277 617 8888");
    PLAY(&st, 0, 4, PIG10_ADD);
    PLAY(&st, 1, 3, PIG10_ADD);
    PLAY(&st, 2, 2, PIG10_ADD);
    PLAY(&st, 3, 1, PIG10_ADD);
    CHECK_INT(st.collected[3], 4);
    CHECK_INT(st.count[3].hits, 1);
    CHECK_INT(st.table_n, 0);
    /* the next card is again the first on an empty table */
    PLAY(&st, 0, 7, PIG10_ADD);
    CHECK_INT(st.value, 7);
    CHECK_INT(st.table_n, 1);
}

/* A 10 on the empty table (or on a frog's 0) makes exactly 10 too. */
TEST(pig10_ten_on_empty_table_is_pig10)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 2, 0, "T11 022 11");
    PLAY(&st, 0, 10, PIG10_ADD);
    CHECK_INT(st.collected[0], 1);
    PLAY(&st, 1, 0, PIG10_ADD);
    CHECK_INT(st.value, 0);
    PLAY(&st, 0, 1, PIG10_ADD);
    CHECK_INT(st.value, 1);
}

/* "Le carte andranno tutte al giocatore seduto alla sua destra": clockwise play, so the right
 * neighbour of seat 0 is the last seat. */
TEST(pig10_over_ten_wraps_to_last_seat)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 3, 1, "991 911 911");
    PLAY(&st, 1, 9, PIG10_ADD);
    PLAY(&st, 2, 1, PIG10_ADD); /* 10: seat 2 takes 2 */
    PLAY(&st, 0, 9, PIG10_ADD);
    PLAY(&st, 1, 1, PIG10_ADD); /* 10 again: seat 1 takes 2 */
    PLAY(&st, 2, 9, PIG10_ADD);
    PLAY(&st, 0, 9, PIG10_ADD); /* 18: to seat 0's right neighbour, seat 2 */
    CHECK_INT(st.collected[2], 4);
    CHECK_INT(st.collected[1], 2);
    CHECK_INT(st.collected[0], 0);
}

/* "La sirena (CINQUE): Chi gioca un CINQUE può decidere se sommarlo o se sottrarlo al valore
 * del mazzo giocato." Worked example: "Mattia gioca un 5 e annuncia "5". Giulia, giocando un 1,
 * porta il valore del mazzo a "6". Gianna gioca un 5 e annuncia "1"." */
TEST(pig10_example_siren_added_or_subtracted)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 3, 0, "511 122 533 777");
    decision d;
    game_pig10.decide(&st, &d);
    CHECK(!offered(&d, PIG10_ACTION(5, PIG10_SUB))); /* empty table: the card is the value */
    PLAY(&st, 0, 5, PIG10_ADD);
    CHECK_INT(st.value, 5);
    PLAY(&st, 1, 1, PIG10_ADD);
    CHECK_INT(st.value, 6);
    game_pig10.decide(&st, &d);
    CHECK(offered(&d, PIG10_ACTION(5, PIG10_ADD))); /* 11 would be allowed, and over */
    PLAY(&st, 2, 5, PIG10_SUB);
    CHECK_INT(st.value, 1);
    CHECK_INT(st.table_n, 3);
    CHECK_INT(st.count[2].subtractions, 1);
}

/* "Tuttavia, il valore del mazzo non può mai risultare negativo." siren_below_zero "clamp"
 * (default): 3 - 5 gives 0; "forbid": the siren cannot be subtracted from less than 5. */
TEST(pig10_siren_never_below_zero)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 2, 0, "311 522 77");
    PLAY(&st, 0, 3, PIG10_ADD);
    PLAY(&st, 1, 5, PIG10_SUB);
    CHECK_INT(st.value, 0);
    CHECK_INT(st.table_n, 2);
    LOAD(&r, "{\"siren_below_zero\": \"forbid\"}");
    DEAL(&st, &r, 2, 0, "311 522 77");
    PLAY(&st, 0, 3, PIG10_ADD);
    decision d;
    game_pig10.decide(&st, &d);
    CHECK(!offered(&d, PIG10_ACTION(5, PIG10_SUB)));
    CHECK(offered(&d, PIG10_ACTION(5, PIG10_ADD)));
}

/* "La rana (ZERO): Chi gioca una rana (ZERO) dice "ZERO", perché la rana azzera sempre il
 * valore del mazzo giocato." Example: "Mattia gioca una rana e annuncia "ZERO"." The cards stay
 * on the table; a frog is never a same-card set or an addition. */
TEST(pig10_example_frog_sets_zero)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 2, 1, "011 822 77");
    PLAY(&st, 1, 8, PIG10_ADD);
    decision d;
    game_pig10.decide(&st, &d);
    CHECK(!offered(&d, PIG10_ACTION(0, PIG10_SET)));
    PLAY(&st, 0, 0, PIG10_ADD); /* Mattia: "ZERO" */
    CHECK_INT(st.value, 0);
    CHECK_INT(st.table_n, 2);
    CHECK_INT(st.count[0].frogs, 1);
    PLAY(&st, 1, 2, PIG10_ADD);
    CHECK_INT(st.value, 2);
}

/* "Stessa carta, stesso numero: Chi gioca la stessa carta del suo predecessore o una carta
 * che corrisponde al valore attuale del mazzo ha la scelta tra due possibilità. Egli può
 * aggiungere la carta giocata al valore del mazzo (come d'abitudine) oppure può trasformare il
 * valore del mazzo nel valore della sua carta giocata." Worked example, seats Claudio 0,
 * Mattia 1, Giulia 2, Laura 3: "Claudio gioca un 3 e annuncia "3". Mattia, giocando un 4, porta
 * il valore del mazzo a "7". A questo punto anche Giulia gioca un 4, trasformando il valore
 * del mazzo nel valore della sua carta: "4". [...] In seguito pure Laura gioca un 4. Se volesse,
 * potrebbe tenere il valore del mazzo a "4". Tuttavia, decide di sommare il suo 4 al valore del
 * mazzo, portandolo ad "8". A questo punto Claudio gioca un 8 e decide di tenere il valore del
 * mazzo ad "8"." */
TEST(pig10_example_same_card_same_number)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 4, 0, "381 471 471 471 2222");
    decision d;
    PLAY(&st, 0, 3, PIG10_ADD);
    CHECK_INT(st.value, 3);
    game_pig10.decide(&st, &d);
    CHECK(!offered(&d, PIG10_ACTION(4, PIG10_SET))); /* 4 is neither 3 nor the value 3 */
    PLAY(&st, 1, 4, PIG10_ADD);
    CHECK_INT(st.value, 7);
    game_pig10.decide(&st, &d);
    CHECK(offered(&d, PIG10_ACTION(4, PIG10_ADD)) && offered(&d, PIG10_ACTION(7, PIG10_SET)));
    PLAY(&st, 2, 4, PIG10_SET); /* same card as Mattia's */
    CHECK_INT(st.value, 4);
    game_pig10.decide(&st, &d);
    CHECK(offered(&d, PIG10_ACTION(4, PIG10_SET))); /* Laura could keep "4" */
    PLAY(&st, 3, 4, PIG10_ADD);
    CHECK_INT(st.value, 8);
    PLAY(&st, 0, 8, PIG10_SET); /* same number as the value: keeps "8" */
    CHECK_INT(st.value, 8);
    CHECK_INT(st.table_n, 5);
    CHECK_INT(st.count[2].sets, 1);
    CHECK_INT(st.count[0].sets, 1);
    CHECK_INT(st.count[3].sets, 0);
}

/* Each distinct card-and-choice is listed once: two 4s in hand are one option, and a set
 * that gives the same value as the addition (a value of 0) is not listed apart. */
TEST(pig10_options_are_distinct)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 2, 0, "455 355 77");
    decision d;
    game_pig10.decide(&st, &d);
    CHECK_INT(d.n, 2); /* play 4, play 5: the two 5s are one option */
    PLAY(&st, 0, 5, PIG10_ADD);
    game_pig10.decide(&st, &d);
    CHECK_INT(d.n, 4); /* 3; 5 added, subtracted, or set (same card) */
    PLAY(&st, 1, 5, PIG10_SUB);
    CHECK_INT(st.value, 0);
    game_pig10.decide(&st, &d); /* value 0, top card 5: set 5 equals add 5 */
    CHECK(!offered(&d, PIG10_ACTION(5, PIG10_SET)));
    CHECK(offered(&d, PIG10_ACTION(5, PIG10_ADD)) && offered(&d, PIG10_ACTION(5, PIG10_SUB)));
}

/* "Una volta usato tutto il mazzo coperto, il gioco continua finché vengono giocate tutte le
 * carte che rimangono in mano ai giocatori. Vince chi ha accumulato il maggior numero di
 * carte." A 9-card deck, 3 players of 2 cards: the last three cards are played out without
 * drawing; the empty-handed are skipped; the most cards wins, ties share. */
#define SMALL_DECK "{\"deck\": [0, 3, 0, 0, 0, 0, 0, 0, 3, 3, 0], \"hand_size\": 2"

/* The small game of the next tests: a 9-card deck, 3 players of 2 cards. Seat index 1 and 2
 * end with 3 cards each (index 2 by a PIG 10), index 0 with 2; one card is left on the table. */
static void small_game(pig10_state *st, const pig10_rules *r)
{
    DEAL(st, r, 3, 0, "19 81 98 189");
    PLAY(st, 0, 1, PIG10_ADD); /* 1; draws 1 */
    PLAY(st, 1, 8, PIG10_ADD); /* 9; draws 8 */
    PLAY(st, 2, 9, PIG10_ADD); /* 18: to index 1 (3 cards); draws 9, pile empty */
    CHECK_INT(st->collected[1], 3);
    CHECK_INT(st->pile_n - st->pile_pos, 0);
    PLAY(st, 0, 1, PIG10_ADD); /* 1 */
    PLAY(st, 1, 1, PIG10_SET); /* same card: 1 */
    PLAY(st, 2, 9, PIG10_ADD); /* 10: index 2 takes 3 */
    CHECK_INT(st->collected[2], 3);
    PLAY(st, 0, 9, PIG10_ADD); /* 9 */
    PLAY(st, 1, 8, PIG10_ADD); /* 17: to index 0 (2 cards) */
    CHECK_INT(st->collected[0], 2);
    CHECK_INT(st->hand_n[0] + st->hand_n[1], 0);
    CHECK_INT(st->turn, 2); /* only index 2 still holds a card */
    PLAY(st, 2, 8, PIG10_ADD);
    decision d;
    CHECK(!game_pig10.decide(st, &d));
}

/* "Una volta usato tutto il mazzo coperto, il gioco continua finché vengono giocate tutte le
 * carte che rimangono in mano ai giocatori. Vince chi ha accumulato il maggior numero di
 * carte." The last cards are played out without drawing, the empty-handed are skipped, the
 * most cards wins and a tie shares the win (ruleset ties "share", the default). */
TEST(pig10_hands_played_out_most_cards_wins)
{
    pig10_rules r;
    LOAD(&r, SMALL_DECK "}");
    pig10_state st;
    small_game(&st, &r);
    outcome o;
    recorder *rec = rec_new(&game_pig10, 3, false);
    game_pig10.finish(&st, &o, rec);
    CHECK_INT(o.length, 9);
    CHECK_INT(o.score[0], 2);
    CHECK_INT(o.score[1], 3);
    CHECK_INT(o.score[2], 3);
    CHECK_INT(o.winners, 6); /* indices 1 and 2 tie: they share the win */
    CHECK_INT(o.rank[1], 1);
    CHECK_INT(o.rank[2], 1);
    CHECK_INT(o.rank[0], 3);
    /* the 8 left on the table is discarded by default */
    CHECK(rec_get(rec, 6, -1)->sum == 1);
    CHECK(rec_get(rec, 0, 2)->sum == 1); /* one PIG 10 by index 2 */
    CHECK(rec_get(rec, 1, 2)->sum == 1 && rec_get(rec, 1, 1)->sum == 1); /* tables given */
    CHECK(rec_get(rec, 2, 1)->sum == 1 && rec_get(rec, 2, 0)->sum == 1); /* received */
    CHECK(rec_get(rec, 5, 1)->sum == 1); /* one set play */
    rec_free(rec);
}

/* "Vince il giocatore che raggiunge più spesso il DIECI e che entro la fine del gioco ha
 * raccolto il maggior numero di carte." With ties "most_hits", equal cards are decided by
 * the PIG 10s made: index 2 (one PIG 10) beats index 1 (none). */
TEST(pig10_ties_most_hits_option)
{
    pig10_rules r;
    LOAD(&r, SMALL_DECK ", \"ties\": \"most_hits\"}");
    pig10_state st;
    small_game(&st, &r);
    outcome o;
    game_pig10.finish(&st, &o, NULL);
    CHECK_INT(o.winners, 4);
    CHECK_INT(o.rank[2], 1);
    CHECK_INT(o.rank[1], 2);
    CHECK_INT(o.rank[0], 3);
    CHECK_INT(o.score[1], 3); /* the score is still the cards */
}

/* Cards left on the table at the end (not in the seed): table_at_end "discard" (default)
 * leaves them to nobody, "last_player" gives them to whoever played the last card. */
TEST(pig10_table_at_end_option)
{
    pig10_rules r;
    LOAD(&r, "{\"deck\": [0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0], \"hand_size\": 2,"
             " \"table_at_end\": \"last_player\"}");
    pig10_state st;
    DEAL(&st, &r, 2, 0, "11 22");
    PLAY(&st, 0, 1, PIG10_ADD);
    PLAY(&st, 1, 2, PIG10_ADD);
    PLAY(&st, 0, 1, PIG10_ADD);
    PLAY(&st, 1, 2, PIG10_ADD);
    CHECK(st.over);
    CHECK_INT(st.left_on_table, 4);
    CHECK_INT(st.collected[1], 4);
    CHECK_INT(st.collected[0], 0);
}

/* ---- ruleset validation ------------------------------------------------------------------- */

TEST(pig10_ruleset_errors_name_the_key)
{
    pig10_rules r;
    char err[256];
    CHECK_INT(try_load(&r, "{\"jokers\": 2}", err, sizeof err), -1);
    CHECK_STR(err, "ruleset key 'jokers': unknown key");
    CHECK_INT(try_load(&r, "{\"deck\": [1, 2, 3]}", err, sizeof err), -1);
    CHECK(strstr(err, "'deck'") != NULL);
    CHECK_INT(try_load(&r, "{\"deck\": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]}", err, sizeof err),
              -1);
    CHECK_STR(err, "ruleset key 'deck': must hold 2..255 cards in all (has 1)");
    CHECK_INT(try_load(&r, "{\"hand_size\": 0}", err, sizeof err), -1);
    CHECK(strstr(err, "'hand_size'") != NULL);
    CHECK_INT(try_load(&r, "{\"table_at_end\": \"burn\"}", err, sizeof err), -1);
    CHECK(strstr(err, "'table_at_end'") != NULL);
    CHECK_INT(try_load(&r, "{\"siren_below_zero\": true}", err, sizeof err), -1);
    CHECK(strstr(err, "'siren_below_zero'") != NULL);
    CHECK_INT(try_load(&r, "{\"deck\": [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]}", err, sizeof err),
              0);
    CHECK_INT(game_pig10.rules_check(&r, 7, err, sizeof err), 0);
    CHECK_INT(game_pig10.rules_check(&r, 8, err, sizeof err), -1);
    CHECK_STR(err, "ruleset key 'deck': 22 cards cannot deal 3 to each of 8 players");
}

/* ---- invariants over large batches ---------------------------------------------------------- */

/* Every game of a large seeded batch of random players, 2 to 8 seats: the legal lists are
 * non-empty and well formed (distinct, playable, complete), every card is conserved after every play (hands + draw pile + table + collected
 * = 80, value by value), the game lasts exactly one play per card, the right neighbour of the
 * player to move always played the card before (so "seduto alla sua destra" and "the one who
 * played just before" never differ), and a copied state replays identically. */
TEST(pig10_invariants_random_batch)
{
    static const char *const names[] = {"random"};
    pig10_rules r;
    LOAD(&r, NULL);
    for (int n = 2; n <= 8; n++) {
        seats t;
        sit_bots(&t, &r, n, names, 1, 1);
        for (uint64_t g = 0; g < 5000; g++) {
            pig10_state st;
            outcome o;
            play_game(&st, &r, n, &t, 11, g, true, &o, NULL);
            int64_t sum = 0;
            for (int s = 0; s < n; s++)
                sum += o.score[s];
            CHECK(sum + st.left_on_table == 80);
            CHECK(o.winners != 0);
        }
        stand_bots(&t, n);
    }
}

/* Plays game `index` with random bots, checking before every play that the previous card on
 * a non-empty table came from the right neighbour of the player to move, and that a copy of
 * the state taken half-way replays to the same end. */
static void neighbour_and_replay(const pig10_rules *r, int n, uint64_t index)
{
    rng chance, bots, chance2, bots2;
    rng_seed_stream(&chance, 5, index, RNG_STREAM_CHANCE);
    rng_seed_stream(&bots, 5, index, RNG_STREAM_SEAT(0));
    pig10_state st, copy;
    game_pig10.start(&st, r, n, &chance, NULL);
    decision d;
    int plays = 0;
    bool copied = false;
    while (game_pig10.decide(&st, &d)) {
        if (st.table_n > 0 && st.top_seat != (d.seat + n - 1) % n)
            check_fail(__FILE__, __LINE__, "game %llu: seat %d follows seat %d",
                       (unsigned long long)index, d.seat, st.top_seat);
        if (plays++ == 40) {
            memcpy(&copy, &st, sizeof st);
            chance2 = chance;
            bots2 = bots;
            copied = true;
        }
        game_pig10.apply(&st, d.action[rng_below(&bots, (uint32_t)d.n)], &chance, NULL);
    }
    if (!copied)
        return;
    while (game_pig10.decide(&copy, &d))
        game_pig10.apply(&copy, d.action[rng_below(&bots2, (uint32_t)d.n)], &chance2, NULL);
    CHECK(memcmp(&copy, &st, sizeof st) == 0);
}

TEST(pig10_right_neighbour_played_before_and_copies_replay)
{
    pig10_rules r;
    LOAD(&r, NULL);
    for (int n = 2; n <= 8; n++)
        for (uint64_t g = 0; g < 300; g++)
            neighbour_and_replay(&r, n, g);
}

/* "Per 2-8 giocatori": the smallest and the largest table both play to the end with every
 * bot, cards conserved, under other rulesets too (a smaller hand and deck, the options). */
TEST(pig10_two_and_eight_players_every_bot)
{
    static const char *const names[] = {"greedy", "count", "mc", "ismcts", "random"};
    static const char *const overlays[] = {
        NULL,
        "{\"hand_size\": 5, \"first_player\": \"random\", \"table_at_end\": \"last_player\","
        " \"siren_below_zero\": \"forbid\"}",
        "{\"deck\": [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3], \"hand_size\": 2}",
    };
    for (int k = 0; k < 3; k++) {
        pig10_rules r;
        LOAD(&r, overlays[k]);
        for (int n = 2; n <= 8; n += 6) {
            seats t;
            sit_bots(&t, &r, n, names, 5, 2);
            for (uint64_t g = 0; g < 20; g++) {
                pig10_state st;
                outcome o;
                play_game(&st, &r, n, &t, 99, g, true, &o, NULL);
                int64_t sum = st.table_n;
                for (int s = 0; s < n; s++)
                    sum += o.score[s];
                CHECK_INT(sum, r.total); /* the table is empty unless its cards are discarded */
                CHECK_INT(o.length, r.total);
            }
            stand_bots(&t, n);
        }
    }
}

/* The metrics agree with each other over a batch: every table given is a table received,
 * and the cards collected plus those left on the table are the whole deck. */
TEST(pig10_metrics_are_consistent)
{
    static const char *const names[] = {"count", "greedy", "random"};
    pig10_rules r;
    LOAD(&r, NULL);
    seats t;
    sit_bots(&t, &r, 5, names, 3, 1);
    recorder *rec = rec_new(&game_pig10, 5, false);
    int64_t cards = 0;
    for (uint64_t g = 0; g < 500; g++) {
        pig10_state st;
        outcome o;
        play_game(&st, &r, 5, &t, 3, g, false, &o, rec);
        for (int s = 0; s < 5; s++)
            cards += o.score[s];
    }
    __int128 given = 0, received = 0;
    for (int s = 0; s < 5; s++) {
        given += rec_get(rec, 1, s)->sum;
        received += rec_get(rec, 2, s)->sum;
        CHECK_INT(rec_get(rec, 0, s)->n, 500);
    }
    CHECK(given == received && given > 0);
    CHECK(cards + (int64_t)rec_get(rec, 6, -1)->sum == 500 * 80);
    rec_free(rec);
    stand_bots(&t, 5);
}

/* ---- hidden information ---------------------------------------------------------------------- */

/* Builds from st a second state that differs only in what seat `seat` cannot see: the other
 * hands and the draw pile are dealt again from the same unseen cards. */
static void reshuffle_hidden(const pig10_state *st, int seat, uint64_t salt, pig10_state *out)
{
    pig10_view v;
    rng r;
    rng_seed(&r, salt);
    game_pig10.view(st, seat, &v);
    CHECK_INT(pig10_determinize(out, st->rules, &v, &r), 0);
    /* what the view does not carry is copied as it is: it is not hidden, only untracked */
    out->plays = st->plays;
    memcpy(out->count, st->count, sizeof out->count);
}

/* The state a deliberately leaking bot reads: it stands for any route from a bot to the
 * state behind its view (memory beside the view, a generator that replays the shuffle). */
static const pig10_state *leak_target;

/* A cheat: picks its play from the top card of the draw pile and the next player's hand. */
static int leaky_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)ctx;
    (void)seen;
    (void)r;
    const pig10_state *st = leak_target;
    int next = (d->seat + 1) % st->nseats, key = 0;
    if (st->pile_pos < st->pile_n)
        key += st->pile[st->pile_pos];
    for (int c = 0; c < PIG10_VALUES; c++)
        key += c * st->hand[next][c];
    return key % d->n;
}

static const bot_type bot_leaky = {
    .name = "leaky",
    .doc = "test only: reads the draw pile and the next hand",
    .choose = leaky_choose,
};

/* Whether a and b differ in what `seat` cannot see: another hand or the rest of the pile. */
static bool hidden_differ(const pig10_state *a, const pig10_state *b, int seat)
{
    for (int s = 0; s < a->nseats; s++)
        if (s != seat && memcmp(a->hand[s], b->hand[s], sizeof a->hand[s]) != 0)
            return true;
    int left = a->pile_n - a->pile_pos;
    return left != b->pile_n - b->pile_pos ||
           memcmp(a->pile + a->pile_pos, b->pile + b->pile_pos, (size_t)left) != 0;
}

/* Plays `games` games of n seats with bot bt (parameter 0 set to `first`) at every seat, as
 * the runner does: the state and the view in allocations of their own, the seat's stream
 * from the master seed, the begin hook after the deal. At every decision the bot chooses
 * twice with the same stream and context: on the real state, and with the state's hidden
 * parts (the other hands, the pile order) scrambled in place. Returns the decisions where the
 * two choices differ; *compared counts the decisions compared on states that differed. */
static int scrambled_choices_differ(const bot_type *bt, int n, int games, double first,
                                    int *compared)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state *st = malloc(sizeof *st), *real = malloc(sizeof *real);
    pig10_view *view = malloc(sizeof *view);
    _Alignas(16) unsigned char ctx[GAME_MAX_SEATS][CTX_BYTES], saved[CTX_BYTES];
    int differ = 0;
    leak_target = st;
    CHECK(bt->ctx_size <= CTX_BYTES);
    for (int s = 0; s < n; s++) {
        memset(ctx[s], 0, CTX_BYTES);
        setup_bot(bt, ctx[s], &r, s, n, first);
    }
    for (uint64_t g = 0; g < (uint64_t)games; g++) {
        rng chance, seat[GAME_MAX_SEATS];
        rng_seed_stream(&chance, 77, g, RNG_STREAM_CHANCE);
        for (int s = 0; s < n; s++)
            rng_seed_stream(&seat[s], 77, g, RNG_STREAM_SEAT(s));
        game_pig10.start(st, &r, n, &chance, NULL);
        for (int s = 0; s < n; s++)
            if (bt->begin) {
                game_pig10.view(st, s, view);
                bt->begin(ctx[s], view);
            }
        decision d;
        int plays = 0;
        while (game_pig10.decide(st, &d)) {
            int k = 0;
            if (d.n > 1) {
                rng again = seat[d.seat];
                memcpy(saved, ctx[d.seat], CTX_BYTES);
                game_pig10.view(st, d.seat, view);
                k = bt->choose(ctx[d.seat], view, &d, &seat[d.seat]);
                if (plays % 3 == 0) {
                    memcpy(real, st, sizeof *st);
                    reshuffle_hidden(real, d.seat, g * 1000 + (uint64_t)plays, st);
                    *compared += hidden_differ(real, st, d.seat);
                    memcpy(ctx[d.seat], saved, CTX_BYTES);
                    game_pig10.view(st, d.seat, view);
                    differ += bt->choose(ctx[d.seat], view, &d, &again) != k;
                    memcpy(st, real, sizeof *st);
                }
            }
            game_pig10.apply(st, d.action[k], &chance, NULL);
            plays++;
        }
    }
    for (int s = 0; s < n; s++)
        if (bt->teardown)
            bt->teardown(ctx[s]);
    free(st);
    free(real);
    free(view);
    return differ;
}

/* At many decisions: a state whose other hands and pile order differ gives the seat to move
 * byte-identical views (padding included), and the same legal plays. */
TEST(pig10_scrambled_hidden_parts_give_the_same_view)
{
    pig10_rules r;
    LOAD(&r, NULL);
    int differing = 0;
    for (int n = 2; n <= 8; n += 3) {
        for (uint64_t g = 0; g < 12; g++) {
            rng chance, pick;
            rng_seed_stream(&chance, 77, g, RNG_STREAM_CHANCE);
            rng_seed_stream(&pick, 77, g, RNG_STREAM_SEAT(0));
            pig10_state st, other;
            game_pig10.start(&st, &r, n, &chance, NULL);
            decision d, d2;
            int plays = 0;
            while (game_pig10.decide(&st, &d)) {
                if (plays++ % 7 == 0) {
                    reshuffle_hidden(&st, d.seat, g * 1000 + (uint64_t)plays, &other);
                    differing += memcmp(&st, &other, sizeof st) != 0;
                    game_pig10.decide(&other, &d2);
                    CHECK(d2.n == d.n &&
                          memcmp(d.action, d2.action, sizeof(int32_t) * (size_t)d.n) == 0);
                    pig10_view a, b;
                    memset(&a, 0xAA, sizeof a); /* padding must not leak either */
                    memset(&b, 0x55, sizeof b);
                    game_pig10.view(&st, d.seat, &a);
                    game_pig10.view(&other, d.seat, &b);
                    CHECK(memcmp(&a, &b, sizeof a) == 0);
                }
                game_pig10.apply(&st, d.action[rng_below(&pick, (uint32_t)d.n)], &chance, NULL);
            }
        }
    }
    CHECK(differing > 100); /* the test did compare states that differ */
}

/* Every bot the registry offers for pig10, generic ones included, makes the same choices
 * with the hidden parts of the state scrambled: none reads what its seat cannot see. The
 * search bots run at a small effort (first parameter 4: mc's samples, ismcts' iterations). */
TEST(pig10_no_bot_reads_hidden_information)
{
    const bot_type *all[REGISTRY_MAX_BOTS];
    int nb = registry_bots(&game_pig10, all, REGISTRY_MAX_BOTS);
    CHECK(nb >= 5);
    for (int i = 0; i < nb; i++)
        for (int n = 2; n <= 5; n += 3) {
            int compared = 0;
            int differ = scrambled_choices_differ(all[i], n, 4, 4, &compared);
            if (differ != 0)
                check_fail(__FILE__, __LINE__, "bot %s, %d players: %d choices changed",
                           all[i]->name, n, differ);
            CHECK(compared > 20);
        }
}

/* The test above catches a bot that reads the hidden state: the cheat parts ways with itself
 * at many of the decisions compared. */
TEST(pig10_the_scramble_test_catches_a_leaking_bot)
{
    int compared = 0;
    int differ = scrambled_choices_differ(&bot_leaky, 4, 4, 0, &compared);
    CHECK(compared > 20);
    CHECK(differ > compared / 4);
}

/* The view holds the seat's own hand and none of the others': two seats' views of one state
 * differ exactly in the hand and seat fields. */
TEST(pig10_view_shows_only_own_hand)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 3, 0, "123 456 789");
    pig10_view a, b;
    game_pig10.view(&st, 0, &a);
    game_pig10.view(&st, 1, &b);
    CHECK_INT(a.hand[1] + a.hand[2] + a.hand[3], 3);
    CHECK_INT(a.hand[4] + a.hand[5] + a.hand[6] + a.hand[7] + a.hand[8] + a.hand[9], 0);
    CHECK_INT(b.hand[4] + b.hand[5] + b.hand[6], 3);
    CHECK_INT(a.pile_left, 71);
    CHECK_INT(a.hand_n[1], 3);
    memcpy(b.hand, a.hand, sizeof a.hand);
    b.seat = a.seat;
    CHECK(memcmp(&a, &b, sizeof a) == 0);
}

/* ---- the trace ------------------------------------------------------------------------------- */

TEST(pig10_trace_tells_the_story)
{
    pig10_rules r;
    LOAD(&r, NULL);
    char *buf = NULL;
    size_t len = 0;
    FILE *tr = open_memstream(&buf, &len);
    uint8_t pile[PIG10_MAX_CARDS];
    int n = make_pile(&r, "477 377 277 617 8888", pile);
    pig10_state st;
    pig10_start_from_pile(&st, &r, 4, 0, pile, n, tr);
    rng unused;
    rng_seed(&unused, 0);
    static const int cards[] = {4, 3, 2, 6};
    for (int i = 0; i < 4; i++)
        game_pig10.apply(&st, PIG10_ACTION(cards[i], PIG10_ADD), &unused, tr);
    fclose(tr);
    /* seats are numbered from 1 in traces, as in every report */
    CHECK(strstr(buf, "seat 1 is dealt 4 7 7") != NULL);
    CHECK(strstr(buf, "seat 3 announces \"9\"") != NULL);
    CHECK(strstr(buf, "seat 4: \"15\" is over 10, seat 3 receives 4 cards") != NULL);
    free(buf);
}

/* ---- strength at fixed seeds ------------------------------------------------------------------ */

/* Win share of bot a against bot b over `games` two-player games, a taking seat 0 in even
 * games and seat 1 in odd ones (so the seat's own effect cancels); ties count half. */
static double head_to_head(const char *a, const char *b, int games, double samples)
{
    pig10_rules r;
    LOAD(&r, NULL);
    const char *const ab[] = {a, b}, *const ba[] = {b, a};
    seats t[2];
    sit_bots(&t[0], &r, 2, ab, 2, samples);
    sit_bots(&t[1], &r, 2, ba, 2, samples);
    double won = 0;
    for (int g = 0; g < games; g++) {
        pig10_state st;
        outcome o;
        int side = g % 2;
        play_game(&st, &r, 2, &t[side], 2024, (uint64_t)g, false, &o, NULL);
        uint32_t mine = 1u << side;
        if (o.winners & mine)
            won += o.winners == mine ? 1.0 : 0.5;
    }
    stand_bots(&t[0], 2);
    stand_bots(&t[1], 2);
    return won / games;
}

/* Five standard errors of a share near 1/2 over n games. */
static double five_se(int n)
{
    return 5 * sqrt(0.25 / n);
}

/* The smart beat the careless: count over greedy, greedy over random, each well beyond five
 * standard errors of an even match (a broken bot would fall to about 1/2 or below). */
TEST(pig10_count_beats_greedy_beats_random)
{
    CHECK(head_to_head("count", "greedy", 2000, 1) > 0.5 + five_se(2000));
    CHECK(head_to_head("greedy", "random", 2000, 1) > 0.5 + five_se(2000));
}

/* The strongest bot beats the card counter, at a fifth of its default effort (200
 * simulations per decision) to keep the test short: in two-player games well beyond five
 * standard errors of an even match (it wins about 70% at this effort). The
 * four-player ladder (man giochi-sim-pig10(7), STRENGTH) shows the same order at the
 * default effort. */
TEST(pig10_ismcts_beats_count)
{
    CHECK(head_to_head("ismcts", "count", 400, 200) > 0.5 + five_se(400));
}

/* The search bot, at a small effort, beats the random one. */
TEST(pig10_mc_beats_random)
{
    CHECK(head_to_head("mc", "random", 100, 4) > 0.5 + five_se(100));
}

/* ---- what a player at the table sees ------------------------------------------------------- */

/* The view carries the public history of plays, not only counts: the seed's first example
 * ("Mattia ... gioca un 4 e annuncia "4" ... Claudio gioca un 6 e annuncia "15"") as four
 * plays with their seats, cards and announced values; then a set, a siren subtracted and a
 * frog, each recorded with its mode. */
TEST(pig10_view_carries_the_history_of_plays)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 4, 0, "477 377 277 617 8888");
    static const int cards[] = {4, 3, 2, 6}, values[] = {4, 7, 9, 15};
    for (int i = 0; i < 4; i++)
        PLAY(&st, i, cards[i], PIG10_ADD);
    pig10_view v;
    game_pig10.view(&st, 1, &v);
    CHECK_INT(v.nplays, 4);
    for (int i = 0; i < 4; i++) {
        CHECK_INT(v.history[i].seat, i);
        CHECK_INT(v.history[i].card, cards[i]);
        CHECK_INT(v.history[i].mode, PIG10_ADD);
        CHECK_INT(v.history[i].value, values[i]);
    }
    CHECK_INT(v.history[4].seat + v.history[4].card + v.history[4].value, 0); /* unused */

    DEAL(&st, &r, 2, 0, "540 451");
    PLAY(&st, 0, 4, PIG10_ADD);
    PLAY(&st, 1, 4, PIG10_SET);
    PLAY(&st, 0, 5, PIG10_SUB);
    PLAY(&st, 1, 5, PIG10_ADD);
    PLAY(&st, 0, 0, PIG10_ADD);
    game_pig10.view(&st, 1, &v);
    CHECK_INT(v.nplays, 5);
    static const int modes[] = {PIG10_ADD, PIG10_SET, PIG10_SUB, PIG10_ADD, PIG10_RESET};
    static const int after[] = {4, 4, 0, 5, 0};
    for (int i = 0; i < 5; i++) {
        CHECK_INT(v.history[i].seat, i % 2);
        CHECK_INT(v.history[i].mode, modes[i]);
        CHECK_INT(v.history[i].value, after[i]);
    }
}

/* The ruleset's reach table (what one card can do on a table, which count and ismcts look
 * up) agrees with the rules: "Chi gioca un CINQUE può decidere se sommarlo o se sottrarlo",
 * "il valore del mazzo non può mai risultare negativo", "può trasformare il valore del mazzo
 * nel valore della sua carta giocata". */
TEST(pig10_reach_table_follows_the_rules)
{
    pig10_rules r;
    LOAD(&r, NULL);
    CHECK_INT(pig10_reach(&r, 9, 1, 2, 5), PIG10_REACH_SAFE);                    /* 9-5 */
    CHECK_INT(pig10_reach(&r, 5, 3, 2, 5), PIG10_REACH_SAFE | PIG10_REACH_HIT);  /* 5+5 */
    CHECK_INT(pig10_reach(&r, 3, 3, 2, 5), PIG10_REACH_SAFE);                    /* 3-5: 0 */
    CHECK_INT(pig10_reach(&r, 2, 2, 2, 9), 0);                                   /* 11 */
    CHECK_INT(pig10_reach(&r, 8, 8, 2, 8), PIG10_REACH_SAFE);                    /* set 8 */
    CHECK_INT(pig10_reach(&r, 7, 4, 2, 3), PIG10_REACH_SAFE | PIG10_REACH_HIT);  /* 7+3 */
    CHECK_INT(pig10_reach(&r, 9, 9, 2, 0), PIG10_REACH_SAFE);                    /* frog */
    CHECK_INT(pig10_reach(&r, 0, 0, 0, 10), PIG10_REACH_SAFE | PIG10_REACH_HIT); /* empty */
    CHECK_INT(pig10_reach(&r, 0, 0, 0, 9), PIG10_REACH_SAFE);
    /* "forbid" never changes what a card can reach: below 5 the siren can still be added
     * without going over, and from 5 up it may be subtracted under both readings */
    pig10_rules f;
    LOAD(&f, "{\"siren_below_zero\": \"forbid\"}");
    CHECK_INT(pig10_reach(&f, 3, 1, 2, 5), PIG10_REACH_SAFE);
    CHECK(memcmp(f.reach, r.reach, sizeof r.reach) == 0);
}

/* The reach table's byte masks sum card counts as the table says, one value at a time: a
 * count summed over the values that hit (stay safe) on every table, for counts that vary by
 * value and table, up to 242 cards in all (a deck holds at most 255). */
TEST(pig10_reach_byte_masks_sum_counts_like_the_table)
{
    pig10_rules r;
    LOAD(&r, NULL);
    CHECK_INT(pig10_sum_bytes(0xffULL << 56), 255);
    for (int w = 0; w < PIG10_VALUES; w++)
        for (int c = 0; c < PIG10_VALUES; c++) {
            uint8_t count[PIG10_VALUES];
            int hits = 0, safe = 0;
            for (int x = 0; x < PIG10_VALUES; x++) {
                count[x] = (uint8_t)((w * 7 + c * 3 + x * 5 + 1) % 23);
                hits += r.reach[w][c][x] & PIG10_REACH_HIT ? count[x] : 0;
                safe += r.reach[w][c][x] & PIG10_REACH_SAFE ? count[x] : 0;
            }
            uint64_t b[2];
            pig10_count_bytes(count, b);
            const uint64_t *hm = r.hit_bytes[w][c], *sm = r.safe_bytes[w][c];
            CHECK_INT(pig10_sum_bytes(b[0] & hm[0]) + pig10_sum_bytes(b[1] & hm[1]), hits);
            CHECK_INT(pig10_sum_bytes(b[0] & sm[0]) + pig10_sum_bytes(b[1] & sm[1]), safe);
        }
}

/* Count's choice worked out the plain way, card by card from the reach table and with a
 * division per draw: what count did before its per-decision sums and tables. The bot's
 * shortcuts must give the very same index (the same doubles compared in the same order). */
static double ref_none_of(int u, int m, int h)
{
    double p = 1.0;
    for (int i = 0; i < h; i++) {
        if (u - i <= 0)
            return p;
        p *= (double)(u - m - i) / (double)(u - i);
        if (p <= 0.0)
            return 0.0;
    }
    return p;
}

static int ref_count_pick(const pig10_rules *r, const pig10_view *v, const decision *d)
{
    static const int keep_of[PIG10_VALUES] = {[0] = 3, [5] = 3, [10] = 1};
    int best = 0;
    double best_score = 0;
    for (int i = 0; i < d->n; i++) {
        int card = PIG10_CARD(d->action[i]), n = v->table_n + 1;
        int to = pig10_result(v->value, v->table_n, card, PIG10_MODE(d->action[i]));
        double keep = 0.01 * keep_of[card], sc;
        if (to == PIG10_TARGET) {
            sc = n - keep;
        } else if (to > PIG10_TARGET) {
            sc = -n - keep;
        } else {
            int hand_n[GAME_MAX_SEATS];
            memcpy(hand_n, v->hand_n, sizeof hand_n);
            hand_n[v->seat] = 1;
            int next = pig10_next_seat(hand_n, v->nseats, v->seat), u = 0, hits = 0, unsafe = 0;
            double reply = 0.0;
            if (next != v->seat) {
                for (int x = 0; x < PIG10_VALUES; x++) {
                    int cnt = v->deck[x] - v->played[x] - v->hand[x];
                    int can = pig10_reach(r, to, card, n, x);
                    u += cnt;
                    hits += can & PIG10_REACH_HIT ? cnt : 0;
                    unsafe += can & PIG10_REACH_SAFE ? 0 : cnt;
                }
                int h = v->hand_n[next];
                double p_hit = 1.0 - ref_none_of(u, hits, h);
                double p_over = ref_none_of(u, u - unsafe, h);
                int gets = (next + v->nseats - 1) % v->nseats;
                reply = -p_hit * (n + 1) + (gets == v->seat ? p_over * (n + 1) : 0.0);
            }
            sc = reply - keep;
        }
        if (i == 0 || sc > best_score) {
            best = i;
            best_score = sc;
        }
    }
    return best;
}

/* Count and greedy choose the same play from a seat's view (pig10_count_pick,
 * pig10_greedy_pick) as from the state (pig10_playout_pick, for playouts), and count the same
 * with its table of chances (pig10_none_new), without it, and as the plain way
 * (ref_count_pick), at every decision of random games of 2..8 players under both siren floors
 * and with hands of 1 and 8. */
TEST(pig10_count_pick_same_from_view_state_and_plain_way)
{
    static const char *const overlays[] = {NULL, "{\"siren_below_zero\": \"forbid\"}",
                                           "{\"hand_size\": 8}", "{\"hand_size\": 1}"};
    int decisions = 0, differ = 0;
    for (int o = 0; o < 4; o++) {
        pig10_rules r;
        LOAD(&r, overlays[o]);
        pig10_none *none = pig10_none_new(&r);
        for (int n = 2; n <= 8; n++) {
            for (uint64_t g = 0; g < 40; g++) {
                rng chance, pick;
                rng_seed_stream(&chance, 41, g, RNG_STREAM_CHANCE);
                rng_seed_stream(&pick, 41, g, RNG_STREAM_SEAT(0));
                pig10_state st;
                game_pig10.start(&st, &r, n, &chance, NULL);
                decision d;
                while (game_pig10.decide(&st, &d)) {
                    pig10_view v;
                    game_pig10.view(&st, d.seat, &v);
                    int c = pig10_count_pick(&r, none, &v, &d), gr = pig10_greedy_pick(&v, &d);
                    CHECK_INT(c, ref_count_pick(&r, &v, &d));
                    CHECK_INT(pig10_count_pick(&r, NULL, &v, &d), c);
                    CHECK_INT(pig10_playout_pick(&st, none, true, &d), c);
                    CHECK_INT(pig10_playout_pick(&st, NULL, true, &d), c);
                    CHECK_INT(pig10_playout_pick(&st, none, false, &d), gr);
                    decisions++;
                    differ += c != gr;
                    game_pig10.apply(&st, d.action[rng_below(&pick, (uint32_t)d.n)], &chance,
                                     NULL);
                }
            }
        }
        pig10_none_free(none);
    }
    CHECK(decisions > 10000);
    CHECK(differ > 1000); /* count and greedy disagree: the positions tell them apart */
}

/* ---- the start-of-game hook ------------------------------------------------------------------ */

/* A test bot that counts the runner's begin calls and checks what each one shows. */
typedef struct hook_ctx {
    int seat, begins, bad;
    const void *view_seen; /* where the last view was */
} hook_ctx;

static int hook_setup(void *ctx, const game_type *g, const void *rules, int seat, int nseats,
                      const double *param, char *err, size_t errlen)
{
    (void)g;
    (void)rules;
    (void)nseats;
    (void)param;
    (void)err;
    (void)errlen;
    ((hook_ctx *)ctx)->seat = seat;
    return 0;
}

static void hook_begin(void *ctx, const void *seen)
{
    hook_ctx *h = ctx;
    const pig10_view *v = seen;
    h->begins++;
    int cards = 0;
    for (int c = 0; c < PIG10_VALUES; c++)
        cards += v->hand[c];
    h->bad += v->seat != h->seat || v->nplays != 0 || cards != 3 || v->hand_n[h->seat] != 3;
}

static int hook_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)r;
    hook_ctx *h = ctx;
    h->view_seen = seen;
    h->bad += ((const pig10_view *)seen)->seat != d->seat;
    return 0;
}

static const bot_type bot_hook = {
    .name = "hook",
    .doc = "test only: counts begin calls",
    .ctx_size = sizeof(hook_ctx),
    .setup = hook_setup,
    .choose = hook_choose,
    .begin = hook_begin,
};

/* The runner calls every seat's begin hook once per game, after the deal and before the
 * first play, with that seat's own view; and the view a bot gets lies outside the state. */
TEST(pig10_runner_calls_begin_for_every_seat)
{
    pig10_rules r;
    LOAD(&r, NULL);
    run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.game = &game_pig10;
    cfg.rules = &r;
    cfg.nseats = 4;
    cfg.runs = 5;
    cfg.seed = 9;
    cfg.threads = 1;
    for (int s = 0; s < 4; s++)
        cfg.seat[s].bot = &bot_hook;
    void *ctx[GAME_MAX_SEATS] = {0};
    char err[128];
    CHECK_INT(run_bots_setup(&cfg, ctx, err, sizeof err), 0);
    pig10_state *st = malloc(sizeof *st);
    pig10_view *view = malloc(sizeof *view);
    outcome o;
    for (uint64_t g = 0; g < 5; g++)
        run_game(&cfg, ctx, g, st, view, &o, NULL, NULL);
    for (int s = 0; s < 4; s++) {
        const hook_ctx *h = ctx[s];
        CHECK_INT(h->begins, 5);
        CHECK_INT(h->bad, 0);
        CHECK(h->view_seen == view);
    }
    free(st);
    free(view);
    run_bots_free(&cfg, ctx);
}

/* ---- ismcts ------------------------------------------------------------------------------- */

/* What the end of a finished st is worth to `me`, as ismcts's endgame search counts it: a
 * win far above any margin, then the cards over the best other seat. */
static double end_worth(const pig10_state *st, int me)
{
    outcome o;
    game_pig10.finish(st, &o, NULL);
    int best_other = 0;
    for (int s = 0; s < st->nseats; s++)
        if (s != me && st->collected[s] > best_other)
            best_other = st->collected[s];
    double share = o.winners & (1u << me) ? 1.0 / __builtin_popcount(o.winners) : 0.0;
    return 1000.0 * share + st->collected[me] - best_other;
}

/* Plain minimax over a game whose hands are all known: `me` maximizes end_worth, the other
 * seat minimizes it. */
static double minimax(const pig10_state *st, int me)
{
    decision d;
    if (!game_pig10.decide(st, &d))
        return end_worth(st, me);
    double best = d.seat == me ? -1e9 : 1e9;
    for (int i = 0; i < d.n; i++) {
        pig10_state next = *st;
        game_pig10.apply(&next, d.action[i], NULL, NULL);
        double w = minimax(&next, me);
        best = d.seat == me ? (w > best ? w : best) : (w < best ? w : best);
    }
    return best;
}

/* Once the draw pile is gone in a two-player game, the unseen cards are the other hand:
 * ismcts plays the endgame exactly (its every choice keeps the minimax value), which greedy
 * play does not always do. */
TEST(pig10_ismcts_plays_two_player_endgames_exactly)
{
    pig10_rules r;
    LOAD(&r, NULL);
    const bot_type *ism = registry_bot(&game_pig10, "ismcts");
    _Alignas(16) unsigned char ctx[CTX_BYTES] = {0};
    setup_bot(ism, ctx, &r, 0, 2, 8);
    int checked = 0, greedy_wrong = 0;
    for (uint64_t g = 0; g < 60; g++) {
        rng chance, pick;
        rng_seed_stream(&chance, 31, g, RNG_STREAM_CHANCE);
        rng_seed_stream(&pick, 31, g, RNG_STREAM_SEAT(0));
        pig10_state st;
        game_pig10.start(&st, &r, 2, &chance, NULL);
        decision d;
        while (game_pig10.decide(&st, &d)) {
            int k = (int)rng_below(&pick, (uint32_t)d.n);
            if (st.pile_pos == st.pile_n && d.seat == 0 && d.n > 1) {
                pig10_view v;
                game_pig10.view(&st, 0, &v);
                double value[GAME_MAX_ACTIONS], best = -1e9;
                for (int i = 0; i < d.n; i++) {
                    pig10_state next = st;
                    game_pig10.apply(&next, d.action[i], NULL, NULL);
                    value[i] = minimax(&next, 0);
                    best = value[i] > best ? value[i] : best;
                }
                k = ism->choose(ctx, &v, &d, &pick);
                CHECK(value[k] == best);
                greedy_wrong += value[pig10_greedy_pick(&v, &d)] != best;
                checked++;
            }
            game_pig10.apply(&st, d.action[k], &chance, NULL);
        }
    }
    ism->teardown(ctx);
    CHECK(checked > 60);
    CHECK(greedy_wrong > 0); /* the positions tested are not all trivial */
}

/* The held-values mask the options walk follows the hand through deal, play and draw, and
 * --check (game_pig10.check) catches a mask that disagrees with the hand. */
TEST(pig10_held_mask_follows_the_hand)
{
    pig10_rules r;
    LOAD(&r, NULL);
    pig10_state st;
    DEAL(&st, &r, 2, 0, "113 124 96");
    CHECK_INT(st.held[0], 1 << 1 | 1 << 3);
    CHECK_INT(st.held[1], 1 << 1 | 1 << 2 | 1 << 4);
    PLAY(&st, 0, 1, PIG10_ADD); /* one 1 left, draws a 9 */
    CHECK_INT(st.held[0], 1 << 1 | 1 << 3 | 1 << 9);
    PLAY(&st, 1, 4, PIG10_ADD); /* the 4 gone, draws a 6 */
    CHECK_INT(st.held[1], 1 << 1 | 1 << 2 | 1 << 6);
    CHECK(conserved(&st));
    st.held[1] |= 1 << 7; /* a 7 it does not hold */
    char err[256] = "";
    CHECK_INT(game_pig10.check(&st, err, sizeof err), -1);
    CHECK(strstr(err, "seat 2's held values") != NULL);
}
