/* test_oca_rules.c — Gioco dell'Oca with bank and postcards (seed 000), articles 1 to 9: one
 * scripted test per article and per gap choice (the Capo-gioco, the dote, the bank and its
 * auction, payments, the turn, declarations, bankruptcy, the end). */
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

/* ---- article 1: the Capo-gioco ----------------------------------------------------------- */

/* "Tutti i partecipanti tirano il dado per tre volte consecutive sommando i numeri
 * realizzati. Chi avrà totalizzato il punteggio più alto coprirà la carica di Capo-gioco ...
 * percepirà un rimborso spese di 5 punti da ciascun giocatore." Ties re-roll (gap). */
TEST(oca_art1_capo_gioco_by_three_rolls_ties_reroll_fee_of_5)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    int v[64] = {1, 2, 3, 6, 6, 1, 6, 6, 1, /* re-roll of the tied */ 1, 1, 1, 2, 2, 2}, k = 15;
    for (int i = r.ncards - 1; i > 0; i--)
        v[k++] = i;
    rng_seed(&g.ch, 1);
    ot_dice(&g, k, v);
    game_oca.start(&g.st, &r, 3, &g.ch, NULL);
    CHECK_INT(g.ch.script_pos, k);
    CHECK_INT(g.st.capo, 2);
    CHECK_INT(ot_pts(&g, 2), 200 + 2 * 5);
    CHECK_INT(ot_pts(&g, 0), 195);
    CHECK_INT(ot_pts(&g, 1), 195);
}

/* ---- article 2: the dote ----------------------------------------------------------------- */

/* "Il Capo-gioco distribuisce a ciascun partecipante, prelevandoli dal Fondo Generale, 200
 * punti ... a titolo di dote." */
TEST(oca_art2_dote_of_200_from_the_fondo_generale)
{
    oca_rules r;
    ot_load(&r, "fondo_extra=100", NULL);
    tgame g;
    ot_begin(&g, &r, 4, 1);
    CHECK_INT(g.st.led.total, 4 * 200 + 100);
    CHECK_INT(ot_pts(&g, ACC_FONDO), 100);
    CHECK_INT(ot_pts(&g, 0) + ot_pts(&g, 1) + ot_pts(&g, 2) + ot_pts(&g, 3), 800);
    CHECK(ledger_balanced(&g.st.led));
}

/* ---- article 3: the bank and its auction --------------------------------------------------- */

/* "Un altro giocatore potrà offrirsi di fare da banchiere ... Qualora ci fossero più
 * pretendenti, la carica di banchiere sarà messa all'asta: vincerà chi avrà offerto più punti
 * a ciascuno degli altri partecipanti." */
TEST(oca_art3_auction_winner_pays_his_bid_to_each_other_player)
{
    oca_rules r;
    ot_load(&r, "auction=\"sealed\"", NULL);
    tgame g;
    ot_begin(&g, &r, 3, 0);
    int seat;
    CHECK_INT(ot_pending(&g, &seat), K_VOLUNTEER);
    CHECK_INT(seat, 1); /* "un altro giocatore": the Capo-gioco is not asked */
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 1, 0);
    act(&g, K_BID, 1, 10, 0);
    act(&g, K_BID, 2, 15, 0);
    CHECK_INT(g.st.banker, 2);
    act(&g, K_BANKER_PLAYS, 2, 0, 0);
    CHECK_INT(ot_pts(&g, 0), 210 + 15 - 50);
    CHECK_INT(ot_pts(&g, 1), 195 + 15 - 50);
    CHECK_INT(ot_pts(&g, 2), 195 - 30 + 100);
    CHECK(!g.st.playing[2]);
    CHECK_INT(g.st.s.winning_bid, 15);
}

/* Equal best bids: the tied bidders roll the die (gap: the text has no tie rule). */
TEST(oca_gap_equal_bids_roll_off)
{
    oca_rules r;
    ot_load(&r, "auction=\"sealed\"", NULL);
    tgame g;
    ot_begin(&g, &r, 3, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 1, 0);
    act(&g, K_BID, 1, 10, 0);
    act(&g, K_BID, 2, 10, 2, 2, 5);
    CHECK_INT(g.st.banker, 2);
}

/* "la carica di banchiere sarà messa all'asta: vincerà chi avrà offerto più punti a ciascuno
 * degli altri partecipanti" — an auction at a table is open and rising (gap "auction": "open",
 * the default): clockwise from the Capo-gioco's left, each volunteer still in raises by 5 at
 * least or drops out, seeing the bids so far; the last one left pays his bid to each. */
TEST(oca_art3_open_auction_rises_until_one_bidder_is_left)
{
    oca_rules r;
    ot_load(&r, NULL);
    CHECK_INT(r.auction, AUC_OPEN);
    tgame g;
    ot_begin(&g, &r, 4, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 1, 0);
    act(&g, K_VOLUNTEER, 3, 1, 0);
    decision d;
    game_oca.decide(&g.st, &d);
    CHECK_INT(d.action[0], OCA_DROP);
    CHECK_INT(d.action[1], 0); /* the opening bid may be 0 */
    CHECK_INT(d.action[d.n - 1], 65); /* 195 points, three others to pay */
    act(&g, K_BID, 1, 0, 0);
    game_oca.decide(&g.st, &d);
    CHECK_INT(d.action[1], 5); /* a raise of one step at least */
    act(&g, K_BID, 2, 10, 0);
    act(&g, K_BID, 3, OCA_DROP, 0);
    CHECK_INT(g.st.high_bid, 10); /* the bids so far are public */
    CHECK_INT(g.st.high_bidder, 2);
    game_oca.decide(&g.st, &d);
    CHECK_INT(d.seat, 1);
    CHECK_INT(d.action[1], 15);
    act(&g, K_BID, 1, 15, 0);
    act(&g, K_BID, 2, OCA_DROP, 0); /* seat 1 is the last one left */
    CHECK_INT(g.st.banker, 1);
    CHECK_INT(g.st.s.winning_bid, 15);
    act(&g, K_BANKER_PLAYS, 1, 0, 0);
    CHECK_INT(ot_pts(&g, 1), 195 - 45 + 150);
    CHECK_INT(ot_pts(&g, 0), 215 + 15 - 50);
    CHECK_INT(ot_pts(&g, 2), 195 + 15 - 50);
    CHECK_INT(ot_pts(&g, 3), 195 + 15 - 50);
}

/* Open auction: everybody else drops out before a bid: the one left wins for 0. */
TEST(oca_art3_open_auction_last_one_left_wins_for_nothing)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin(&g, &r, 3, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 1, 0);
    act(&g, K_BID, 1, OCA_DROP, 0);
    CHECK_INT(g.st.banker, 2);
    CHECK_INT(g.st.s.winning_bid, 0);
    /* auction_winner_edge: the winner's points minus the others' mean, rounded (the winner's
     * curse when negative) */
    act(&g, K_BANKER_PLAYS, 2, 0, 0); /* 210 - 50, 195 - 50, 195 + 100 */
    outcome o;
    recorder *rec = rec_new(&game_oca, 3, true);
    rec_game_begin(rec);
    game_oca.finish(&g.st, &o, rec);
    for (int m = 0; game_oca.metrics[m].name; m++)
        if (strcmp(game_oca.metrics[m].name, "auction_winner_edge") == 0) {
            const acc *e = rec_get(rec, m, -1);
            CHECK(e->n == 1 && e->min == 143); /* 295 - (160 + 145) / 2 = 142.5, rounded */
        }
    rec_free(rec);
}

/* The open auction has no tie under the default (gap "auction_tie": "first"): "vincerà chi
 * avrà offerto più punti" — a bid must beat the standing one by a bid_step, so the first to
 * offer a sum holds it, and a volunteer who cannot raise it (his cap is the same sum) drops
 * out: any raise of one step or more, to the cap at once included, is a bid. */
TEST(oca_art3_open_auction_first_to_offer_the_highest_sum_holds_it)
{
    oca_rules r;
    ot_load(&r, NULL);
    CHECK_INT(r.auction_tie, TIE_FIRST);
    tgame g;
    ot_begin(&g, &r, 4, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 1, 0);
    act(&g, K_VOLUNTEER, 3, 1, 0);
    act(&g, K_BID, 1, 65, 0); /* straight to the cap, 195 / 3 */
    /* seats 2 and 3 have the same cap, 65: neither can raise, both drop out unasked */
    int seat;
    CHECK_INT(ot_pending(&g, &seat), K_BANKER_PLAYS);
    CHECK_INT(seat, 1);
    CHECK_INT(g.st.s.winning_bid, 65);
}

/* Gap "auction_tie": "die": a volunteer may also offer the standing sum, and when every one
 * still in has offered it (nobody raises), the die settles who takes the bank, as equal offers
 * of the sealed auction and the Capo-gioco's tie of article 1; a raise reopens the bidding to
 * those who had matched. */
TEST(oca_gap_open_auction_tie_die_equal_offers_roll_off)
{
    oca_rules r;
    ot_load(&r, "auction_tie=\"die\"", NULL);
    tgame g;
    ot_begin(&g, &r, 4, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 1, 0);
    act(&g, K_VOLUNTEER, 3, 1, 0);
    act(&g, K_BID, 1, 10, 0);
    decision d;
    game_oca.decide(&g.st, &d);
    CHECK_INT(d.action[1], 10); /* the standing sum, then the raises */
    CHECK_INT(d.action[2], 15);
    act(&g, K_BID, 2, 10, 0);
    act(&g, K_BID, 3, 20, 0); /* a raise: seats 1 and 2 must answer again */
    game_oca.decide(&g.st, &d);
    CHECK_INT(d.seat, 1);
    act(&g, K_BID, 1, 65, 0);
    game_oca.decide(&g.st, &d); /* at his cap: offer it too, or drop out */
    CHECK_INT(d.seat, 2);
    CHECK_INT(d.n, 2);
    CHECK_INT(d.action[1], 65);
    act(&g, K_BID, 2, 65, 0);
    act(&g, K_BID, 3, 65, 3, 3, 6, 5); /* seats 1, 2, 3 roll 3, 6, 5 */
    CHECK_INT(g.st.banker, 2);
    CHECK_INT(g.st.s.winning_bid, 65);
}

/* Gap "bid_paid": the text does not say whether the bank's winner pays his bid before the
 * entry fees reach him (default "before_fees": he bids from his own points, 195 / 3 = 65 at
 * four players) or after them ("after_fees": the three fees count, (195 + 150) / 3 = 115,
 * then bid_max 100 binds); then the fees come in first and the bid is paid from them. */
TEST(oca_gap_bid_paid_before_or_after_the_entry_fees)
{
    oca_rules r;
    ot_load(&r, "bid_paid=\"after_fees\"", NULL);
    tgame g;
    ot_begin(&g, &r, 4, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 1, 0);
    act(&g, K_VOLUNTEER, 3, 0, 0);
    decision d;
    game_oca.decide(&g.st, &d);
    CHECK_INT(d.action[d.n - 1], 100);
    act(&g, K_BID, 1, 100, 0); /* bid_max: seat 2 cannot raise and drops out */
    CHECK_INT(g.st.banker, 1);
    act(&g, K_BANKER_PLAYS, 1, 0, 0);
    CHECK_INT(ot_pts(&g, 1), 195 + 150 - 300);
    CHECK_INT(ot_pts(&g, 2), 195 - 50 + 100);
    CHECK_INT(ot_pts(&g, 0), 215 - 50 + 100);
}

/* Nobody volunteers: the Capo-gioco keeps the bank as a plain cashier (gap, no_volunteer). */
TEST(oca_gap_no_volunteer_cashier_or_capo)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r);
    CHECK_INT(g.st.banker, -1);
    CHECK(g.st.cashier);
    CHECK_INT(ot_pts(&g, ACC_CASHIER), 100);
    ot_load(&r, "no_volunteer=\"capo\"", NULL);
    ot_begin(&g, &r, 2, 0);
    act(&g, K_VOLUNTEER, 1, 0, 0);
    CHECK_INT(g.st.banker, 0); /* two players: he plays without being asked */
    CHECK_INT(ot_pts(&g, 0), 205 + 50 - 10);
}

/* ---- articles 4 and 5: payments, collections, the entry fee and the banker ----------------- */

/* "Ogni giocatore dovrà versare al banchiere-esattore 50 punti ... Anche il banchiere potrà
 * partecipare al giro purchè versi a ciascun concorrente 10 punti" */
TEST(oca_art5_entry_fee_and_banker_refund)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_banker3(&g, &r);
    CHECK_INT(ot_pts(&g, 0), 210 - 50 + 10);
    CHECK_INT(ot_pts(&g, 1), 195 + 100 - 20);
    CHECK_INT(ot_pts(&g, 2), 195 - 50 + 10);
    CHECK(g.st.playing[1]);
}

/* "PAGAMENTI e INCASSI ... riguardano i singoli giocatori nei confronti della Banca (caselle 2
 * e 13). RISCOSSIONI e DISTRIBUZIONI ... coinvolgono ... tutti i giocatori (caselle 5 e 20)";
 * "il banchiere ... non dovrà poi incassare o pagare punti a se stesso, parteciperà alle
 * riscossioni e distribuzioni". */
TEST(oca_art4_art5_bank_payments_collections_banker_never_pays_himself)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_banker3(&g, &r); /* 170, 275, 155 */
    ot_hooks(&g);
    turn(&g, 0, 1, 1); /* square 2: pays 10 to the bank */
    CHECK_INT(ot_pts(&g, 0), 160);
    CHECK_INT(ot_pts(&g, 1), 285);
    turn(&g, 1, 1, 1); /* the banker on square 2 pays himself: nothing */
    CHECK_INT(ot_pts(&g, 1), 285);
    turn(&g, 2, 4, 1); /* square 5: collects 10 from each, the banker included */
    CHECK_INT(ot_pts(&g, 2), 175);
    CHECK_INT(ot_pts(&g, 0), 150);
    CHECK_INT(ot_pts(&g, 1), 275);
    turn(&g, 0, 12, 1); /* square 13: receives 20 from the bank */
    CHECK_INT(ot_pts(&g, 0), 170);
    CHECK_INT(ot_pts(&g, 1), 255);
    turn(&g, 1, 19, 1); /* square 20: the banker distributes 10 to each as a player */
    CHECK_INT(ot_pts(&g, 1), 235);
    CHECK_INT(ot_pts(&g, 0), 180);
    CHECK_INT(ot_pts(&g, 2), 185);
}

/* ---- article 6: the die and the turn order --------------------------------------------------- */

/* "I giocatori tireranno il dado, a turno e in senso orario, a iniziare dal Capo-gioco" */
TEST(oca_art6_turns_clockwise_from_the_capo_gioco_with_one_die)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin(&g, &r, 3, 1);
    act(&g, K_VOLUNTEER, 2, 0, 0);
    act(&g, K_VOLUNTEER, 0, 0, 0);
    ot_hooks(&g);
    turn(&g, 1, 0, 3);
    CHECK_INT(g.st.pos[1], 4);
    turn(&g, 2, 0, 2);
    turn(&g, 0, 0, 3);
    turn(&g, 1, 0, 4);
    CHECK_INT(g.st.pos[1], 8);
    CHECK_INT(g.st.turn, 5); /* the fifth turn (seat 2's) has begun */
}

/* ---- article 7: declarations ------------------------------------------------------------------ */

/* "Capitando in una delle caselle dove appare Pulcinella, il giocatore può, al turno
 * successivo, pagando 10 punti, azzardare un pronostico ...: se ci azzecca vince 50 punti." */
TEST(oca_art7_declaration_after_pulcinella_stake_10_prize_50)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r); /* 155, 145, cashier 100 */
    ot_hooks(&g);
    turn(&g, 0, 26, 1); /* square 27: Pulcinella */
    CHECK_INT(g.st.declare_left[0], 1);
    turn(&g, 1, 1, 3);
    act(&g, K_TRADE, 0, 0, 0);
    act(&g, K_DECLARE, 0, 3, 1, 3); /* declares 3, rolls 3: 27 -> 30 */
    CHECK_INT(ot_pts(&g, 0), 155 - 10 + 50 - 30); /* square 30 then takes 30 */
    CHECK_INT(ot_pts(&g, ACC_CASHIER), 100 + 10 - 50 + 30);
    CHECK_INT(g.st.pos[0], 30);
    turn(&g, 1, 0, 3);
    turn(&g, 0, 0, 3); /* no declaration on the turn after: the trade pass rolls at once */
    CHECK_INT(g.st.pos[0], 33);
}

/* Art. 11: "le due coppie di Pulcinella" are two jolly postcards: square 18's shows the second
 * pair, so it gives two declarations as square 35 does (art. 7). Art. 10 names positive,
 * negative and neutral postcards among the 21, art. 13 the "cartoline ininfluenti": the default
 * deck splits the 18 that are not jollies evenly, and every square is marked text or
 * reconstruction. */
TEST(oca_art10_art11_default_board_pulcinella_pairs_and_the_deck)
{
    oca_rules r;
    ot_load(&r, NULL);
    CHECK_INT(r.sq[18].pulcinella, 2);
    CHECK_INT(r.sq[35].pulcinella, 2);
    CHECK_INT(r.sq[18].card, CARD_JOLLY);
    CHECK_INT(r.ncards, 21);
    int kinds[5] = {0};
    for (int c = 0; c < r.ncards; c++)
        kinds[r.sq[r.card_square[c]].card]++;
    CHECK_INT(kinds[CARD_JOLLY], 3);
    CHECK_INT(kinds[CARD_POSITIVE], 6);
    CHECK_INT(kinds[CARD_NEGATIVE], 6);
    CHECK_INT(kinds[CARD_NEUTRAL], 6);
    for (int sq = 1; sq <= r.nsquares; sq++) /* a neutral card's square has no effect */
        if (r.square_card[sq] != OCA_NO_CARD && r.sq[sq].card == CARD_NEUTRAL)
            CHECK_INT(r.sq[sq].effect, FX_NONE);
    cJSON *j = cJSON_Parse(game_oca.default_rules);
    int text = 0, n = 0;
    for (const cJSON *s = cJSON_GetObjectItem(j, "board")->child; s; s = s->next, n++) {
        const char *src = cJSON_GetStringValue(cJSON_GetObjectItem(s, "source"));
        CHECK(src != NULL);
        text += src && strcmp(src, "text") == 0;
    }
    CHECK_INT(n, 37);
    CHECK_INT(text, 10); /* 1, 2, 3, 5, 13, 14, 20, 23, 35, 37 */
    cJSON_Delete(j);
    tgame g;
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    turn(&g, 0, 17, 1); /* square 18 */
    CHECK_INT(g.st.declare_left[0], 2);
}

/* A missed declaration loses the stake; passing costs nothing. */
TEST(oca_art7_declaration_miss_and_pass)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier2(&g, &r);
    ot_hooks(&g);
    turn(&g, 0, 26, 1); /* square 27: Pulcinella */
    turn(&g, 1, 26, 1);
    act(&g, K_TRADE, 0, 0, 0);
    act(&g, K_DECLARE, 0, 6, 1, 2); /* miss: 27 -> 29, pays 25 there */
    CHECK_INT(ot_pts(&g, 0), 155 - 10 - 25);
    act(&g, K_TRADE, 1, 0, 0);
    act(&g, K_DECLARE, 1, 0, 1, 6); /* pass: 27 -> 33 */
    CHECK_INT(ot_pts(&g, 1), 145);
}

/* "Dalla casella n° 35, dove ci sono 2 Pulcinella, è possibile tentare la dichiarazione per 2
 * volte consecutive." */
TEST(oca_art7_square_35_two_consecutive_declarations)
{
    oca_rules r;
    ot_load(&r, "board.36.effect=\"none\"", NULL);
    tgame g;
    ot_begin(&g, &r, 3, 0);
    act(&g, K_VOLUNTEER, 1, 0, 0);
    act(&g, K_VOLUNTEER, 2, 0, 0);
    ot_hooks(&g);
    turn(&g, 0, 33, 2); /* square 35 */
    CHECK_INT(g.st.declare_left[0], 2);
    turn(&g, 1, 0, 3);
    turn(&g, 2, 0, 3);
    act(&g, K_TRADE, 0, 0, 0);
    act(&g, K_DECLARE, 0, 3, 1, 1); /* first: miss, 35 -> 36 */
    turn(&g, 1, 0, 4);
    turn(&g, 2, 0, 4);
    act(&g, K_TRADE, 0, 0, 0);
    act(&g, K_DECLARE, 0, 5, 1, 5); /* second: hit, 36 + 5 bounces to 33 */
    CHECK_INT(ot_pts(&g, 0), 160 - 10 - 10 + 50);
    CHECK_INT(g.st.pos[0], 33);
    CHECK_INT(g.st.declare_left[0], 0);
}

/* "Anche il banchiere può tentare le dichiarazioni suddette riscuotendo 20 punti da ciascun
 * giocatore se ci azzecca e pagando agli stessi 5 punti in caso contrario." */
TEST(oca_art7_banker_declaration_20_from_each_or_5_to_each)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_banker3(&g, &r); /* 170, 275, 155 */
    ot_hooks(&g);
    turn(&g, 0, 0, 3);  /* 1 -> 4 */
    turn(&g, 1, 26, 1); /* the banker on square 27 */
    turn(&g, 2, 0, 3);  /* 1 -> 4 */
    turn(&g, 0, 0, 4);  /* 4 -> 8 */
    act(&g, K_TRADE, 1, 0, 0);
    act(&g, K_DECLARE, 1, 1, 1, 1); /* hit: 27 -> 28, where the bank would pay himself */
    CHECK_INT(ot_pts(&g, 1), 275 + 40);
    CHECK_INT(ot_pts(&g, 0), 150);
    CHECK_INT(ot_pts(&g, 2), 135);
    turn(&g, 2, 0, 4);  /* 4 -> 8 */
    turn(&g, 0, 0, 3);  /* 8 -> 11 */
    turn(&g, 1, 26, 1); /* square 27 again */
    turn(&g, 2, 0, 3);  /* 8 -> 11 */
    turn(&g, 0, 0, 6);  /* 11 -> 17 */
    act(&g, K_TRADE, 1, 0, 0);
    act(&g, K_DECLARE, 1, 4, 1, 6); /* miss: 27 -> 33 */
    CHECK_INT(ot_pts(&g, 1), 315 - 10);
    CHECK_INT(ot_pts(&g, 0), 155);
    CHECK_INT(ot_pts(&g, 2), 140);
}

/* The banker's hit collects 20 "da ciascun giocatore": a player who cannot pay goes bankrupt
 * instead (article 8), and the declaration's net (metric declaration_net) counts only what was
 * paid. */
TEST(oca_art7_banker_hit_from_a_player_who_fails_is_not_collected)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_banker3(&g, &r); /* 170, 275, 155 */
    ot_hooks(&g);
    turn(&g, 0, 0, 3);
    turn(&g, 1, 17, 1); /* the banker on square 18 */
    turn(&g, 2, 0, 3);
    turn(&g, 0, 0, 4);
    ot_drain(&g, 2, 5);
    g.st.aid_used[2] = true;
    act(&g, K_TRADE, 1, 0, 0);
    act(&g, K_DECLARE, 1, 3, 1, 3); /* hit: seat 2 owes 20 with 5 */
    act(&g, K_SHORT_SALE, 2, 0, 0);
    CHECK(g.st.bankrupt[2]);
    CHECK_INT(ot_pts(&g, 1), 275 + 20);
    CHECK_INT(g.st.s.declare_net[1], 20);
    CHECK_INT(g.st.s.declarations[1], 1);
    CHECK_INT(g.st.s.declare_hits[1], 1);
}

/* "Anche il banchiere può tentare le dichiarazioni suddette ... pagando agli stessi 5 punti in
 * caso contrario": the text is silent on a declarer who cannot pay his loss. A player who
 * cannot pay the stake is not offered a declaration; the same rule for the banker: with less
 * than 5 for every other participant, he is not asked (gap; giochi-sim-oca(7)). */
TEST(oca_gap_banker_who_cannot_pay_a_miss_is_not_offered_a_declaration)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_banker3(&g, &r); /* 170, 275, 155 */
    ot_hooks(&g);
    turn(&g, 0, 0, 3);
    turn(&g, 1, 26, 1); /* the banker on square 27: a Pulcinella */
    turn(&g, 2, 0, 3);
    turn(&g, 0, 0, 4);
    ot_drain(&g, 1, 9);           /* a miss would cost 2 x 5 = 10 */
    act(&g, K_TRADE, 1, 0, 1, 6); /* no declaration asked: the roll follows at once */
    int seat, kind = ot_pending(&g, &seat);
    CHECK(!(kind == K_DECLARE && seat == 1));
    CHECK_INT(g.st.pos[1], 33);
    CHECK_INT(g.st.declare_left[1], 0);
    /* with 10 he can pay the miss to both: he is asked */
    tgame h;
    ot_begin_banker3(&h, &r);
    ot_hooks(&h);
    turn(&h, 0, 0, 3);
    turn(&h, 1, 26, 1);
    turn(&h, 2, 0, 3);
    turn(&h, 0, 0, 4);
    ot_drain(&h, 1, 10);
    act(&h, K_TRADE, 1, 0, 0);
    act(&h, K_DECLARE, 1, 4, 1, 6); /* miss: pays 5 to each, 27 -> 33 */
    CHECK_INT(ot_pts(&h, 1), 0);
    CHECK(!h.st.bankrupt[1]);
}

/* ---- article 8: bankruptcy, mutual aid, the failed bank --------------------------------------- */

/* "prima di essere dichiarato fallito esso ha ancora due possibilità di salvarsi ricorrendo al
 * mutuo soccorso che comporta la riscossione di 10 punti da ciascun partecipante se riesce,
 * tirando il dado, a fare uscire un numero dichiarato"; art. 12: "Un giocatore in difficoltà
 * ... può venderle per pagare i debiti." */
TEST(oca_art8_short_player_sells_then_mutual_aid_saves_him)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier3(&g, &r);
    int c17 = r.square_card[17];
    turn(&g, 0, 0, 3);
    ot_drain(&g, 1, 5);
    turn(&g, 1, 9, 1); /* square 10: pay 15 with 5 */
    act(&g, K_SHORT_SALE, 1, OCA_TRADE(TR_SELL, c17, 0, 0), 0);
    act(&g, K_BUY_CARD, 2, 0, 0);
    act(&g, K_BUY_CARD, 0, 0, 0);
    /* refused at the lowest price, the card cannot be offered for less: no offer is left,
     * so the mutual aid is next (giochi-sim-oca(7): a refused offer returns only cheaper) */
    act(&g, K_MUTUAL_AID, 1, 3, 2, 1, 3);    /* two rolls at 3: the second hits */
    CHECK(g.st.aid_used[1]);
    CHECK_INT(ot_pts(&g, 1), 5 + 20 - 15);
    CHECK_INT(ot_pts(&g, 0), 150);
    CHECK_INT(ot_pts(&g, 2), 135);
    CHECK(!g.st.bankrupt[1]);
    /* "Ciascun giocatore può ricorrere al mutuo soccorso una sola volta." */
    turn(&g, 2, 0, 3);
    turn(&g, 0, 0, 4);
    int64_t fondo = ot_pts(&g, ACC_FONDO);
    turn(&g, 1, 29, 1); /* square 30: pay 30 with 10 */
    act(&g, K_SHORT_SALE, 1, OCA_TRADE(TR_SELL, c17, 0, 0), 0);
    act(&g, K_BUY_CARD, 2, 1, 0); /* sold for 5: still short, no card left, no aid: bankrupt */
    CHECK(g.st.bankrupt[1]);
    CHECK_INT(g.st.holder[c17], 2);
    /* "Eventuali punti residui, non utilizzati da chi è fallito, vanno alla Fondo generale." */
    CHECK_INT(ot_pts(&g, 1), 0);
    CHECK_INT(ot_pts(&g, ACC_FONDO), fondo + 15);
    CHECK_INT(g.st.in_race, 2);
}

/* Art. 12 lets a player short of points sell his cards; the text does not say how often he
 * may ask. An offer refused in one shortfall is offered again only for less (gap): the same
 * card at the same price would be the same question to the same buyers. */
TEST(oca_gap_refused_short_sale_returns_only_cheaper)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier3(&g, &r);
    int c17 = r.square_card[17];
    turn(&g, 0, 0, 3);
    ot_drain(&g, 1, 5);
    turn(&g, 1, 9, 1); /* square 10: pay 15 with 5 */
    act(&g, K_SHORT_SALE, 1, OCA_TRADE(TR_SELL, c17, 0, 2), 0);
    act(&g, K_BUY_CARD, 2, 0, 0);
    act(&g, K_BUY_CARD, 0, 0, 0);
    decision d;
    CHECK(game_oca.decide(&g.st, &d));
    CHECK_INT(d.kind, K_SHORT_SALE);
    int offers = 0;
    for (int i = 1; i < d.n; i++) {
        CHECK_INT(OCA_TR_A(d.action[i]), c17);
        CHECK(OCA_TR_P(d.action[i]) < 2);
        offers++;
    }
    CHECK_INT(offers, 2);
}

/* "Un giocatore è fallito ed esce dal gioco nel caso si trovasse a non poter coprire
 * interamente una perdita." */
TEST(oca_art8_mutual_aid_miss_means_bankruptcy)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier3(&g, &r);
    ot_set_card(&g, 17, HOLD_OUT);
    turn(&g, 0, 0, 3);
    ot_drain(&g, 1, 5);
    int64_t fondo = ot_pts(&g, ACC_FONDO);
    turn(&g, 1, 9, 1);
    act(&g, K_MUTUAL_AID, 1, 3, 2, 1, 2);
    CHECK(g.st.bankrupt[1]);
    CHECK_INT(ot_pts(&g, ACC_FONDO), fondo + 5);
    CHECK_INT(ot_pts(&g, ACC_CASHIER), 150); /* the bank is not paid (gap: no partial payment) */
    int seat;
    CHECK_INT(ot_pending(&g, &seat), K_TRADE);
    CHECK_INT(seat, 2); /* the bankrupt is out of the turn order */
}

/* Gap: bankrupt_pays_partial hands what the bankrupt has to his creditor first. */
TEST(oca_gap_bankrupt_pays_partial)
{
    oca_rules r;
    ot_load(&r, "bankrupt_pays_partial=true", NULL);
    tgame g;
    ot_begin_cashier3(&g, &r);
    ot_set_card(&g, 17, HOLD_OUT);
    turn(&g, 0, 0, 3);
    ot_drain(&g, 1, 5);
    g.st.aid_used[1] = true;
    int64_t fondo = ot_pts(&g, ACC_FONDO);
    turn(&g, 1, 9, 1);
    CHECK(g.st.bankrupt[1]);
    CHECK_INT(ot_pts(&g, ACC_FONDO), fondo);
    CHECK_INT(ot_pts(&g, ACC_CASHIER), 155);
}

/* "Se a fallire ... è il banchiere, la Banca verrà ceduta a chi si impegnerà a coprire la
 * perdita causa del fallimento." */
TEST(oca_art8_failed_bank_taken_over_by_who_covers_the_loss)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_fail_the_bank(&g, &r);
    act(&g, K_TAKE_OVER_BANK, 2, 1, 0);
    act(&g, K_TAKE_OVER_BANK, 0, 0, 0);
    CHECK_INT(g.st.banker, 2);
    CHECK_INT(ot_pts(&g, 0), 190);
    CHECK_INT(ot_pts(&g, 2), 135);
    CHECK_INT(g.st.s.takeovers, 1);
}

/* Who was ruined, and why: the bankruptcy's cause names the seat's role and what he could not
 * pay. A banker who cannot pay what the bank owes a racer on a receive_bank square (13,
 * Treasure) is ruined as the banker on that square, not as the racer who landed there; a
 * player who cannot pay a distribution (20) is ruined as a player on it (below). */
TEST(oca_art8_ruin_cause_names_who_was_ruined_and_why)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_fail_the_bank(&g, &r); /* seat 0 lands on 13, the banker (seat 1) cannot pay */
    CHECK_INT(g.st.s.bankrupt_square[1], OCA_RUIN_BANK + 13);
    CHECK_INT(g.st.s.bankrupt_square[0], 0); /* not ruined */
    char label[160];
    const metric_dist *d = NULL;
    for (int i = 0; game_oca.dists[i].name; i++)
        if (strcmp(game_oca.dists[i].name, "ruin_square") == 0)
            d = &game_oca.dists[i];
    CHECK(d != NULL && d->label != NULL);
    if (d == NULL || d->label == NULL)
        return;
    cJSON *rules = cJSON_Parse(game_oca.default_rules);
    d->label(OCA_RUIN_BANK + 13, rules, label, sizeof label);
    CHECK_STR(label, "banker: 13 Treasure: receive 20 (rec.)");
    d->label(20, rules, label, sizeof label);
    CHECK(strncmp(label, "player: 20 ", 11) == 0);
    d->label(OCA_RUIN_PRIZE, rules, label, sizeof label);
    CHECK_STR(label, "banker: a player's declaration prize");
    d->label(OCA_RUIN_STAKE, rules, label, sizeof label);
    CHECK_STR(label, "player: his declaration's stake");
    cJSON_Delete(rules);
}

/* "Un giocatore è fallito ... nel caso si trovasse a non poter coprire interamente una
 * perdita": a distribution he cannot pay in full is one loss, whatever the number of
 * creditors: nobody is paid a part of it first, and mutual aid and bankruptcy apply to the
 * whole sum; a failed banker's taker "si impegnerà a coprire la perdita": every unpaid part. */
TEST(oca_art8_a_payment_to_every_player_is_one_loss)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier3(&g, &r); /* 160, 145, 145 */
    ot_set_card(&g, 17, HOLD_OUT);
    turn(&g, 0, 0, 3);
    ot_drain(&g, 1, 15);
    turn(&g, 1, 19, 1); /* square 20: 10 to each of two = 20 > 15 */
    CHECK_INT(g.st.op[g.st.nops - 1].each, 1u << 0 | 1u << 2);
    CHECK_INT(oca_op_due(&g.st.op[g.st.nops - 1]), 20);
    act(&g, K_MUTUAL_AID, 1, 3, 2, 1, 2);
    CHECK(g.st.bankrupt[1]);
    CHECK_INT(ot_pts(&g, 0), 160); /* nobody got a part */
    CHECK_INT(ot_pts(&g, 2), 145);
    CHECK_INT(g.st.s.bankrupt_square[1], 20);
    outcome o;
    recorder *rec = rec_new(&game_oca, 3, true);
    rec_game_begin(rec);
    game_oca.finish(&g.st, &o, rec);
    const acc *bs = NULL, *other = NULL;
    for (int m = 0; game_oca.metrics[m].name; m++)
        if (strcmp(game_oca.metrics[m].name, "bankruptcy_square") == 0) {
            bs = rec_get(rec, m, 1);
            other = rec_get(rec, m, 0);
        }
    CHECK(bs != NULL && bs->n == 1 && bs->min == 20); /* seat 2's bankruptcy, on square 20 */
    CHECK(other != NULL && other->n == 0);            /* nothing for a seat that stayed */
    rec_free(rec);

    ot_begin_banker3(&g, &r); /* 170, 275, 155; seat 1 the banker */
    ot_hooks(&g);
    turn(&g, 0, 0, 3);
    ot_drain(&g, 1, 15);
    turn(&g, 1, 19, 1);
    act(&g, K_SHORT_SALE, 1, 0, 0);
    act(&g, K_MUTUAL_AID, 1, 6, 2, 1, 1);
    CHECK(g.st.bankrupt[1]);
    CHECK_INT(g.st.s.bankrupt_square[1], OCA_RUIN_BANK + 20); /* the banker, racing, on 20 */
    CHECK_INT(g.st.takeover_loss, 20);
    act(&g, K_TAKE_OVER_BANK, 2, 1, 0);
    act(&g, K_TAKE_OVER_BANK, 0, 0, 0);
    CHECK_INT(g.st.banker, 2);
    CHECK_INT(ot_pts(&g, 0), 170 + 10); /* his part, covered by the taker */
    CHECK_INT(ot_pts(&g, 2), 155 - 10); /* pays seat 0; his own part he forgoes */
}

/* "Nel caso di più pretendenti a rilevare la Banca, vale la regola dell'art. 3)." */
TEST(oca_art8_several_takers_auction_the_failed_bank)
{
    oca_rules r;
    ot_load(&r, "auction=\"sealed\"", NULL);
    tgame g;
    ot_fail_the_bank(&g, &r);
    act(&g, K_TAKE_OVER_BANK, 2, 1, 0);
    act(&g, K_TAKE_OVER_BANK, 0, 1, 0);
    act(&g, K_BID, 0, 5, 0);
    act(&g, K_BID, 2, 10, 0);
    CHECK_INT(g.st.banker, 2);
    CHECK_INT(ot_pts(&g, 0), 170 + 20 + 10);
    CHECK_INT(ot_pts(&g, 2), 155 - 30);
}

/* "In assenza di offerte la Banca viene gestita dal Capo-gioco che farà da semplice cassiere
 * ... senza più rischi di fallimenti, avendo facoltà di pagare debiti vecchi e nuovi,
 * nell'ordine, man mano che si verificheranno riscossioni." */
TEST(oca_art8_no_taker_capo_cashier_pays_debts_in_order)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_fail_the_bank(&g, &r);
    act(&g, K_TAKE_OVER_BANK, 2, 0, 0);
    act(&g, K_TAKE_OVER_BANK, 0, 0, 0);
    CHECK(g.st.cashier);
    CHECK_INT(oca_unpaid_debts(&g.st), 20);
    turn(&g, 2, 0, 1); /* seat 2 pays 10 on square 2: the cashier passes it to seat 0 */
    CHECK_INT(oca_unpaid_debts(&g.st), 10);
    CHECK_INT(ot_pts(&g, 0), 180);
    CHECK_INT(ot_pts(&g, ACC_CASHIER), 0);
    turn(&g, 0, 12, 1); /* a new debt of 20 queues behind the old one */
    CHECK_INT(oca_unpaid_debts(&g.st), 30);
    CHECK_INT(g.st.ndebts, 2);
    turn(&g, 2, 9, 1); /* 15 comes in: the old debt first (10), then 5 of the new */
    CHECK_INT(oca_unpaid_debts(&g.st), 15);
    CHECK_INT(ot_pts(&g, 0), 195);
}

/* Gap bankrupt_pays_partial with a failed bank: the bankrupt banker's points go to his
 * creditor, so the taker covers only what is left unpaid ("chi si impegnerà a coprire la
 * perdita causa del fallimento"); and a partial payment into the cashier's till pays the old
 * debts at once ("pagare debiti vecchi e nuovi, nell'ordine, man mano che si verificheranno
 * riscossioni"). */
TEST(oca_art8_partial_payments_shrink_the_loss_and_pay_the_cashiers_debts)
{
    oca_rules r;
    ot_load(&r, "bankrupt_pays_partial=true", NULL);
    tgame g;
    ot_fail_the_bank(&g, &r); /* seat 1 had 5 of the 20 he owed seat 0 */
    CHECK_INT(ot_pts(&g, 0), 175);
    CHECK_INT(g.st.takeover_loss, 15);
    act(&g, K_TAKE_OVER_BANK, 2, 0, 0);
    act(&g, K_TAKE_OVER_BANK, 0, 0, 0);
    CHECK(g.st.cashier);
    CHECK_INT(oca_unpaid_debts(&g.st), 15);
    ot_drain(&g, 2, 5);
    turn(&g, 2, 0, 1); /* square 2: owes the bank 10, holds 5 */
    act(&g, K_SHORT_SALE, 2, 0, 0);
    act(&g, K_MUTUAL_AID, 2, 6, 2, 1, 1);
    CHECK(g.st.bankrupt[2]);
    CHECK_INT(oca_unpaid_debts(&g.st), 10);
    CHECK_INT(ot_pts(&g, ACC_CASHIER), 0);
    CHECK_INT(ot_pts(&g, 0), 180);
}

/* Gap arrived_in_round: "RISCOSSIONI e DISTRIBUZIONI ... coinvolgono ... tutti i giocatori che
 * partecipano al giro": a player who has reached the goal has left the "giro" (false, the
 * default) or stays in the round (true). */
TEST(oca_gap_arrived_players_in_the_round_is_an_option)
{
    for (int in = 0; in < 2; in++) {
        oca_rules r;
        if (!in) {
            ot_load(&r, NULL);
            CHECK(!r.arrived_in_round);
        }
        ot_load(&r, in ? "arrived_in_round=true" : "arrived_in_round=false", NULL);
        tgame g;
        ot_begin_cashier3(&g, &r); /* 160, 145, 145 */
        turn(&g, 0, 36, 1);     /* arrives */
        CHECK(g.st.arrived[0]);
        turn(&g, 1, 4, 1); /* square 5: collects 10 from each in the round */
        CHECK_INT(ot_pts(&g, 0), in ? 150 : 160);
        CHECK_INT(ot_pts(&g, 2), 135);
        CHECK_INT(ot_pts(&g, 1), in ? 165 : 155);
    }
}

/* ---- article 9: the end --------------------------------------------------------------------- */

/* "Il gioco termina quando il penultimo concorrente rimasto in gara è approdato alla casella
 * 37. Sarà dichiarato vincitore il giocatore che risulterà in possesso del maggior numero di
 * punti." The others are ranked by arrival. */
TEST(oca_art9_end_when_the_second_to_last_arrives_most_points_wins)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier3(&g, &r); /* 160, 145, 145 */
    ot_drain(&g, 0, 130);
    turn(&g, 0, 36, 1);
    CHECK_INT(g.st.arrival[0], 1);
    int seat;
    CHECK_INT(ot_pending(&g, &seat), K_TRADE);
    turn(&g, 1, 36, 1);
    CHECK_INT(ot_pending(&g, &seat), -1);
    outcome o;
    game_oca.finish(&g.st, &o, NULL);
    CHECK_INT(o.end, END_FINISH);
    CHECK_INT(o.winners, (1u << 1) | (1u << 2));
    CHECK_INT(o.rank[1], 1);
    CHECK_INT(o.rank[2], 1);
    CHECK_INT(o.rank[0], 3);
    CHECK_INT(o.score[0], 130);
}

/* Arrival order ranks those who do not win: a winner who has not arrived is first anyway. */
TEST(oca_art9_arrival_order_ranks_the_rest)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin_cashier3(&g, &r); /* 160, 145, 145 */
    ot_drain(&g, 1, 100);
    turn(&g, 0, 0, 3);
    turn(&g, 1, 36, 1);
    turn(&g, 2, 36, 1);
    outcome o;
    game_oca.finish(&g.st, &o, NULL);
    CHECK_INT(o.winners, 1u << 0);
    CHECK_INT(o.rank[0], 1);
    CHECK_INT(o.rank[1], 2);
    CHECK_INT(o.rank[2], 3);
    CHECK_INT(o.length, 3);
}

/* Art. 9: "Sarà dichiarato vincitore il giocatore che risulterà in possesso del maggior numero
 * di punti": a banker who sat out of the race is ranked, and wins with the most points. */
TEST(oca_art9_banker_sitting_out_is_ranked_and_can_win)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin(&g, &r, 3, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 0, 0);
    act(&g, K_BANKER_PLAYS, 1, 0, 0); /* 160, 295, 145 */
    ot_hooks(&g);
    turn(&g, 0, 36, 1); /* the second-to-last of two racers arrives */
    int seat;
    CHECK_INT(ot_pending(&g, &seat), -1);
    outcome o;
    game_oca.finish(&g.st, &o, NULL);
    CHECK_INT(o.winners, 1u << 1);
    CHECK_INT(o.rank[1], 1);
    CHECK_INT(o.rank[0], 2);
    CHECK_INT(o.rank[2], 3);
}

/* Gap: the goal needs the exact roll, the excess walks back ("finish": "bounce"); "any" lets
 * any roll that reaches it arrive. */
TEST(oca_gap_exact_roll_to_the_goal_bounces)
{
    oca_rules r;
    ot_load(&r, "board.36.effect=\"none\"", NULL);
    tgame g;
    ot_begin_cashier3(&g, &r);
    turn(&g, 0, 32, 6);
    CHECK_INT(g.st.pos[0], 36);
    ot_load(&r, "finish=\"any\"", NULL);
    ot_begin_cashier3(&g, &r);
    turn(&g, 0, 32, 6);
    CHECK_INT(g.st.pos[0], 37);
    CHECK(g.st.arrived[0]);
}

/* Gap: every game ends; max_turns stops a game (end kind turn_cap). */
TEST(oca_gap_turn_cap_ends_the_game)
{
    oca_rules r;
    ot_load(&r, "max_turns=3", NULL);
    tgame g;
    ot_begin_cashier3(&g, &r);
    turn(&g, 0, 0, 3);
    turn(&g, 1, 0, 3);
    turn(&g, 2, 0, 3);
    int seat;
    CHECK_INT(ot_pending(&g, &seat), -1);
    CHECK_INT(g.st.end, END_TURN_CAP);
    CHECK_INT(g.st.turn, 3);
}


/* Gap: whether the banker may stay out of the race ("potrà partecipare") is an option. */
TEST(oca_gap_banker_must_play_when_sitting_out_is_off)
{
    oca_rules r;
    ot_load(&r, "banker_may_sit_out=false", NULL);
    tgame g;
    ot_begin(&g, &r, 3, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 0, 0);
    int seat;
    CHECK_INT(ot_pending(&g, &seat), K_TRADE); /* no banker_plays decision */
    CHECK(g.st.playing[1]);
    CHECK_INT(ot_pts(&g, 1), 195 + 100 - 20);
}

/* Gap: with two players the banker cannot sit out, or one player would race alone. */
TEST(oca_gap_banker_plays_when_two_players)
{
    oca_rules r;
    ot_load(&r, NULL);
    tgame g;
    ot_begin(&g, &r, 2, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    int seat;
    CHECK_INT(ot_pending(&g, &seat), K_TRADE);
    CHECK(g.st.playing[1]);
    CHECK_INT(g.st.in_race, 2);
}
