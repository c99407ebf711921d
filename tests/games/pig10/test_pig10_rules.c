/* test_pig10_rules.c — PIG 10 (seed 003): one scripted test per rule of the seed text, the
 * seed's worked examples step by step, ruleset validation and the trace. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "games/pig10/pig10.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "config/rules.h"
#include "core/runner.h"
#include "pig10_kit.h"

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
        CHECK(pt_conserved(&st));
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
    CHECK(pt_conserved(&st));
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
    CHECK(!pt_offered(&d, PIG10_ACTION(5, PIG10_SUB))); /* empty table: the card is the value */
    PLAY(&st, 0, 5, PIG10_ADD);
    CHECK_INT(st.value, 5);
    PLAY(&st, 1, 1, PIG10_ADD);
    CHECK_INT(st.value, 6);
    game_pig10.decide(&st, &d);
    CHECK(pt_offered(&d, PIG10_ACTION(5, PIG10_ADD))); /* 11 would be allowed, and over */
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
    CHECK(!pt_offered(&d, PIG10_ACTION(5, PIG10_SUB)));
    CHECK(pt_offered(&d, PIG10_ACTION(5, PIG10_ADD)));
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
    CHECK(!pt_offered(&d, PIG10_ACTION(0, PIG10_SET)));
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
    CHECK(!pt_offered(&d, PIG10_ACTION(4, PIG10_SET))); /* 4 is neither 3 nor the value 3 */
    PLAY(&st, 1, 4, PIG10_ADD);
    CHECK_INT(st.value, 7);
    game_pig10.decide(&st, &d);
    CHECK(pt_offered(&d, PIG10_ACTION(4, PIG10_ADD)) && pt_offered(&d, PIG10_ACTION(7, PIG10_SET)));
    PLAY(&st, 2, 4, PIG10_SET); /* same card as Mattia's */
    CHECK_INT(st.value, 4);
    game_pig10.decide(&st, &d);
    CHECK(pt_offered(&d, PIG10_ACTION(4, PIG10_SET))); /* Laura could keep "4" */
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
    CHECK(!pt_offered(&d, PIG10_ACTION(5, PIG10_SET)));
    CHECK(pt_offered(&d, PIG10_ACTION(5, PIG10_ADD)) && pt_offered(&d, PIG10_ACTION(5, PIG10_SUB)));
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
    CHECK_INT(pt_try_load(&r, "{\"jokers\": 2}", err, sizeof err), -1);
    CHECK_STR(err, "ruleset key 'jokers': unknown key");
    CHECK_INT(pt_try_load(&r, "{\"deck\": [1, 2, 3]}", err, sizeof err), -1);
    CHECK(strstr(err, "'deck'") != NULL);
    CHECK_INT(pt_try_load(&r, "{\"deck\": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]}", err, sizeof err),
              -1);
    CHECK_STR(err, "ruleset key 'deck': must hold 2..255 cards in all (has 1)");
    CHECK_INT(pt_try_load(&r, "{\"hand_size\": 0}", err, sizeof err), -1);
    CHECK(strstr(err, "'hand_size'") != NULL);
    CHECK_INT(pt_try_load(&r, "{\"table_at_end\": \"burn\"}", err, sizeof err), -1);
    CHECK(strstr(err, "'table_at_end'") != NULL);
    CHECK_INT(pt_try_load(&r, "{\"siren_below_zero\": true}", err, sizeof err), -1);
    CHECK(strstr(err, "'siren_below_zero'") != NULL);
    CHECK_INT(pt_try_load(&r, "{\"deck\": [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]}", err, sizeof err),
              0);
    CHECK_INT(game_pig10.rules_check(&r, 7, err, sizeof err), 0);
    CHECK_INT(game_pig10.rules_check(&r, 8, err, sizeof err), -1);
    CHECK_STR(err, "ruleset key 'deck': 22 cards cannot deal 3 to each of 8 players");
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
    int n = pt_make_pile(&r, "477 377 277 617 8888", pile);
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
