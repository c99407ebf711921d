/* test_oca_cards.c — Gioco dell'Oca (seed 000), articles 10 to 13: postcards and jollies,
 * trade and the two-for-one exchange, one scripted test per article and gap choice. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "games/oca/oca.h"
#include "games/oca/oca_bots.h"
#include "check.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "config/rules.h"
#include "oca_kit.h"

/* ---- articles 10 and 11: postcards and jollies ----------------------------------------------- */

/* "Ogni concorrente riceverà dal mazzo ... 3 delle cartoline suddette (2, se i giocatori
 * saranno più di 5), mettendole in vista." Face up: bots see the whole state. */
TEST(oca_art10_three_postcards_each_two_above_five_players_face_up)
{
    oca_rules r;
    ot_load(&r, NULL);
    CHECK_INT(r.ncards, 21);
    tgame g;
    ot_begin(&g, &r, 5, 0);
    for (int s = 0; s < 5; s++)
        CHECK_INT(oca_cards_held(&g.st, s), 3);
    CHECK_INT(g.st.deck_top, 15);
    ot_begin(&g, &r, 6, 0);
    for (int s = 0; s < 6; s++)
        CHECK_INT(oca_cards_held(&g.st, s), 2);
    CHECK_INT(game_oca.view_size, 0);
}

/* "un concorrente può annullare gli effetti negativi di una casella se possiede la cartolina
 * corrispondente: giocandola, torna alla casella dalla quale era partito" */
TEST(oca_art10_own_card_cancels_a_negative_square)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    ot_set_card(&g, 2, 0);
    turn(&g, 0, 0, 1);
    act(&g, K_CANCEL_OWN, 0, 1, 0);
    CHECK_INT(g.st.pos[0], 1);
    CHECK_INT(ot_pts(&g, 0), 155);
    CHECK_INT(g.st.holder[r.square_card[2]], HOLD_SPENT);
}

/* The Clown of square 1: a player sent back to the start (the Dragon, 31) cancels it. */
TEST(oca_art10_clown_card_cancels_being_sent_to_the_start)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    ot_set_card(&g, 1, 0);
    turn(&g, 0, 30, 1); /* the Dragon sends him to 1, where his Clown card applies */
    act(&g, K_CANCEL_OWN, 0, 1, 0);
    CHECK_INT(g.st.pos[0], 30);
}

/* "il solo beneficio di chi possiede una cartolina positiva è costituito dal fatto di poterla
 * usare contro un avversario capitato nella casella corrispondente" */
TEST(oca_art10_positive_card_cancels_an_opponents_benefit)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    ot_set_card(&g, 13, 1);
    turn(&g, 0, 12, 1);
    act(&g, K_REACT_OFFER, 0, 0, 0); /* no offer for the card (article 12) */
    act(&g, K_CANCEL_OPPONENT, 1, 1, 0);
    CHECK_INT(g.st.pos[0], 12);
    CHECK_INT(ot_pts(&g, 0), 155);
    ot_set_card(&g, 28, 1);
    turn(&g, 1, 0, 3);
    turn(&g, 0, 27, 1); /* declining lets the benefit stand */
    act(&g, K_REACT_OFFER, 0, 0, 0);
    act(&g, K_CANCEL_OPPONENT, 1, 0, 0);
    CHECK_INT(ot_pts(&g, 0), 185);
}

/* "con ciascuna di esse può annullare qualsiasi giocata propria, o di un avversario, con
 * ritorno alla casella di partenza." */
TEST(oca_art11_jolly_cancels_any_move_own_or_opponents)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    ot_set_card(&g, 23, 1);
    turn(&g, 0, 4, 1); /* square 5 would collect 10 */
    act(&g, K_JOLLY, 1, 1, 0);
    CHECK_INT(g.st.pos[0], 4);
    CHECK_INT(ot_pts(&g, 1), 145);
    CHECK_INT(g.st.s.jolly, 1);
    ot_set_card(&g, 35, 1);
    turn(&g, 1, 30, 1); /* his own move onto the Dragon */
    act(&g, K_JOLLY, 1, 1, 0);
    CHECK_INT(g.st.pos[1], 30);
}

/* "Il Jolly può inoltre annullare qualsiasi giocata delle altre cartoline." */
TEST(oca_art11_counter_jolly_cancels_a_card_play)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    ot_set_card(&g, 2, 0);
    ot_set_card(&g, 18, 1);
    turn(&g, 0, 0, 1);
    act(&g, K_CANCEL_OWN, 0, 1, 0);
    act(&g, K_COUNTER_JOLLY, 1, 1, 0);
    CHECK_INT(g.st.pos[0], 2);
    CHECK_INT(ot_pts(&g, 0), 145);
    CHECK_INT(g.st.holder[r.square_card[2]], HOLD_SPENT);
    CHECK_INT(g.st.holder[r.square_card[18]], HOLD_SPENT);
}

/* Gap: jollies are offered on moves onto squares with an effect ("effect_squares"), or on
 * every move ("every_move"). */
TEST(oca_gap_jolly_offer_on_plain_squares_is_an_option)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    ot_set_card(&g, 23, 1);
    turn(&g, 0, 0, 3); /* square 4: plain */
    int seat;
    CHECK_INT(ot_pending(&g, &seat), K_TRADE);
    ot_load(&r, "jolly_offer=\"every_move\"", NULL);
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    ot_set_card(&g, 23, 1);
    turn(&g, 0, 0, 3);
    CHECK_INT(ot_pending(&g, &seat), K_JOLLY);
    CHECK_INT(seat, 1);
}

/* A Pulcinella square gives the right to declare ("Capitando in una delle caselle dove appare
 * Pulcinella, il giocatore può, al turno successivo ... azzardare un pronostico"): with
 * "effect_squares" a jolly ("può annullare qualsiasi giocata ... di un avversario") is offered
 * there too, and cancelling the move takes the right away. */
TEST(oca_art11_jolly_offered_on_a_pulcinella_square)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    ot_set_card(&g, 23, 1);
    turn(&g, 0, 24, 3); /* square 27: Pulcinella, no effect of its own */
    act(&g, K_JOLLY, 1, 1, 0);
    CHECK_INT(g.st.pos[0], 24);
    CHECK_INT(g.st.declare_left[0], 0);
}

/* ---- articles 12 and 13: trade and the 2-for-1 exchange --------------------------------------- */

/* "Tutte le cartoline possono essere acquistate, vendute, o scambiate fra i giocatori" */
TEST(oca_art12_cards_are_sold_bought_and_swapped)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r); /* 155, 145 */
    ot_hooks(&g);
    int c11 = r.square_card[11], c17 = r.square_card[17];
    act(&g, K_TRADE, 0, TR_SELL, 0);
    act(&g, K_TRADE_OFFER, 0, OCA_TRADE(TR_SELL, c11, 0, 1), 0);
    ot_set_card(&g, 9, 0); /* before the next decision is listed */
    act(&g, K_BUY_CARD, 1, 1, 1, 3);
    CHECK_INT(g.st.holder[c11], 1);
    CHECK_INT(ot_pts(&g, 0), 170);
    CHECK_INT(ot_pts(&g, 1), 130);
    int c9 = r.square_card[9];
    act(&g, K_TRADE, 1, TR_SWAP, 0);
    act(&g, K_TRADE_OFFER, 1, OCA_TRADE(TR_SWAP, c17, c9, 0), 0);
    act(&g, K_SWAP, 0, 1, 1, 3);
    CHECK_INT(g.st.holder[c17], 0);
    CHECK_INT(g.st.holder[c9], 1);
    act(&g, K_TRADE, 0, TR_BUY, 0);
    act(&g, K_TRADE_OFFER, 0, OCA_TRADE(TR_BUY, c11, 1, 2), 0);
    act(&g, K_SELL_CARD, 1, 0, 1, 3); /* refused: nothing changes hands */
    CHECK_INT(g.st.holder[c11], 1);
    CHECK_INT(ot_pts(&g, 0), 170 + 10); /* square 7 paid him 10: no sale */
    CHECK_INT(g.st.s.trades, 1);
    CHECK_INT(g.st.s.swaps, 1);
}

/* Art. 12: "Tutte le cartoline possono essere acquistate, vendute, o scambiate fra i
 * giocatori, nessuno escluso, in qualsiasi momento": right after a landing (gap
 * reactive_trades, default on) the lander may offer a price for the postcard of his square;
 * the owner accepts, refuses or asks more; the lander takes the asked price or not. Bought,
 * the card of a bad square cancels it at once; a good square's card bought is no longer
 * played against him. */
TEST(oca_art12_reactive_trade_offered_and_countered_after_a_landing)
{
    oca_rules r;
    ot_load(&r, NULL);
    CHECK(r.reactive_trades);
    tgame g;
    ot_begin_cashier2(&g, &r); /* 155, 145 */
    ot_hooks(&g);
    ot_set_card(&g, 2, 1);         /* the tax collector's card, held by seat 1 */
    ot_set_card(&g, 5, 0);         /* the harvest's card, held by seat 0 */
    turn(&g, 0, 1, 1);          /* seat 0 lands on square 2 (pays 10) */
    act(&g, K_REACT_OFFER, 0, 5, 0);
    decision d;
    game_oca.decide(&g.st, &d);
    CHECK_INT(d.action[2], 10); /* asks start one step above the offer */
    act(&g, K_REACT_ANSWER, 1, 15, 0);
    act(&g, K_REACT_COUNTER, 0, 1, 0);
    CHECK_INT(g.st.holder[r.square_card[2]], 0);
    act(&g, K_CANCEL_OWN, 0, 1, 0); /* his card now: the square is cancelled */
    CHECK_INT(g.st.pos[0], 1);
    CHECK_INT(ot_pts(&g, 0), 155 - 15);
    CHECK_INT(ot_pts(&g, 1), 145 + 15);
    CHECK_INT(g.st.s.react_trades, 1);
    turn(&g, 1, 4, 1);          /* seat 1 lands on square 5, whose card seat 0 holds */
    act(&g, K_REACT_OFFER, 1, 10, 0);
    act(&g, K_REACT_ANSWER, 0, 0, 0); /* refused: the card stays, and is played */
    act(&g, K_CANCEL_OPPONENT, 0, 1, 0);
    CHECK_INT(g.st.pos[1], 4);
    CHECK_INT(ot_pts(&g, 1), 160);
    CHECK_INT(g.st.s.react_offers, 2);
    CHECK_INT(g.st.s.react_counters, 1);
    ot_load(&r, "reactive_trades=false", NULL); /* the option off: straight to the card plays */
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    ot_set_card(&g, 5, 0);
    turn(&g, 0, 0, 3);
    turn(&g, 1, 4, 1);
    act(&g, K_CANCEL_OPPONENT, 0, 0, 0);
}

/* Art. 12 "in qualsiasi momento", after a card play: when an opponent plays a positive card
 * against the mover, the mover (holding no jolly) may buy a jolly from another player and
 * counter the play with it at once (art. 11: "Il Jolly può inoltre annullare qualsiasi
 * giocata delle altre cartoline"). */
TEST(oca_art12_reactive_trade_after_a_card_play_buys_a_counter_jolly)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier3(&g, &r); /* 160, 145, 145; seats hold 11, 17, 1 */
    ot_set_card(&g, 13, 1);
    ot_set_card(&g, 23, 2); /* a jolly, held by seat 2 */
    turn(&g, 0, 12, 1);  /* seat 0 lands on 13: the bank pays 20 */
    act(&g, K_REACT_OFFER, 0, 0, 0);      /* no offer for square 13's card */
    act(&g, K_CANCEL_OPPONENT, 1, 1, 0);  /* seat 1 plays it against him */
    act(&g, K_REACT_OFFER, 0, 10, 0);     /* seat 0 offers 10 for seat 2's jolly */
    act(&g, K_REACT_ANSWER, 2, 1, 0);     /* accepted */
    CHECK_INT(g.st.holder[r.square_card[23]], 0);
    act(&g, K_COUNTER_JOLLY, 0, 1, 0);    /* and played: the card play is cancelled */
    CHECK_INT(g.st.pos[0], 13);
    CHECK_INT(ot_pts(&g, 0), 160 - 10 + 20);
    CHECK_INT(ot_pts(&g, 2), 145 + 10);
    CHECK_INT(g.st.s.react_trades, 1);
    CHECK_INT(g.st.s.counter_jolly, 1);
}

/* "Un giocatore può chiedere al Capo-gioco una cartolina da pescare fra quelle non ancora
 * utilizzate, ad esaurimento delle stesse, scambiandola con 2 cartoline in suo possesso." */
TEST(oca_art13_two_cards_for_one_from_the_deck_until_it_runs_out)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    ot_set_card(&g, 6, 0); /* a card dealt before, not one still in the deck */
    int c6 = r.square_card[6], c11 = r.square_card[11];
    int next = g.st.deck[g.st.deck_top];
    act(&g, K_TRADE, 0, TR_EXCHANGE, 0);
    act(&g, K_TRADE_OFFER, 0, OCA_TRADE(TR_EXCHANGE, c6, c11, 0), 1, 3);
    CHECK_INT(g.st.holder[next], 0);
    CHECK_INT(g.st.holder[c6], HOLD_OUT);
    CHECK_INT(g.st.holder[c11], HOLD_OUT);
    CHECK_INT(oca_cards_held(&g.st, 0), 1);
    CHECK_INT(g.st.s.exchanges, 1);
    /* with the deck used up, no exchange is offered */
    ot_set_card(&g, 6, 1);
    g.st.deck_top = r.ncards;
    decision d;
    CHECK(game_oca.decide(&g.st, &d));
    CHECK_INT(d.kind, K_TRADE);
    for (int i = 0; i < d.n; i++)
        CHECK(d.action[i] != TR_EXCHANGE);
}


/* A move onto the goal is a move too: a jolly sends the arriving player back. */
TEST(oca_art11_jolly_cancels_an_arrival)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier3(&g, &r);
    ot_set_card(&g, 23, 1);
    turn(&g, 0, 36, 1);
    act(&g, K_JOLLY, 1, 1, 0);
    CHECK_INT(g.st.pos[0], 36);
    CHECK(!g.st.arrived[0]);
    CHECK_INT(g.st.in_race, 3);
}
