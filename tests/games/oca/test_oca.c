/* test_oca.c — Gioco dell'Oca with bank and postcards (seed 000): one scripted test per
 * article of the seed and per gap choice, the conservation of points on a large seeded
 * batch with every bot, the end of every game, and bad board files. */
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

extern const game_type game_oca;

/* ---- helpers ------------------------------------------------------------------------------ */

/* Loads the default ruleset with "key=json" overrides: top-level keys, or board.N.key for
 * square N (counted from 1, unlike --set, which takes the array index). */
static void load(oca_rules *r, ...)
{
    char err[256];
    cJSON *j = rules_parse(game_oca.default_rules, "oca", err, sizeof err);
    va_list ap;
    va_start(ap, r);
    for (const char *set; (set = va_arg(ap, const char *)) != NULL;) {
        char key[64];
        const char *eq = strchr(set, '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - set), set);
        cJSON *obj = j, *v = cJSON_Parse(eq + 1);
        char *leaf = key;
        int sq;
        if (sscanf(key, "board.%d.", &sq) == 1) {
            obj = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "board"), sq - 1);
            leaf = strchr(key + 6, '.') + 1;
        }
        cJSON_ReplaceItemInObjectCaseSensitive(obj, leaf, v);
    }
    va_end(ap);
    int rc = game_oca.rules_load(r, j, err, sizeof err);
    if (rc != 0)
        check_fail(__FILE__, __LINE__, "ruleset: %s", err);
    cJSON_Delete(j);
}

typedef struct tgame {
    oca_state st;
    rng ch;
    int dice[64];
} tgame;

/* Scripts the next dice (and rng_below values). */
static void dice(tgame *g, int n, const int *v)
{
    memcpy(g->dice, v, (size_t)n * sizeof *v);
    rng_script(&g->ch, g->dice, n);
}

/* Starts a game of n seats in which `capo` rolls 6,6,6 and every other seat 1,1,1, and the
 * deck stays in board order (card c is the c-th postcard square): seat capo+k gets cards
 * k, k+n, k+2n... */
static void begin(tgame *g, const oca_rules *r, int n, int capo)
{
    int v[64], k = 0;
    for (int s = 0; s < n; s++)
        for (int i = 0; i < 3; i++)
            v[k++] = s == capo ? 6 : 1;
    for (int i = r->ncards - 1; i > 0; i--)
        v[k++] = i;
    rng_seed(&g->ch, 7);
    dice(g, k, v);
    game_oca.start(&g->st, r, n, &g->ch, NULL);
}

/* Checks that seat must now decide `kind`, then applies action with the given dice next. */
static void act_(int line, tgame *g, int kind, int seat, int32_t action, int n, ...)
{
    decision d;
    if (!game_oca.decide(&g->st, &d)) {
        check_fail(__FILE__, line, "game over, expected kind %d of seat %d", kind, seat);
        return;
    }
    if (d.kind != kind || d.seat != seat) {
        check_fail(__FILE__, line, "expected kind %d of seat %d, got kind %d of seat %d", kind,
                   seat, d.kind, d.seat);
        return;
    }
    bool legal = false;
    for (int i = 0; i < d.n; i++)
        legal |= d.action[i] == action;
    if (!legal) {
        check_fail(__FILE__, line, "action %d is not legal", action);
        return;
    }
    int v[32];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        v[i] = va_arg(ap, int);
    va_end(ap);
    dice(g, n, v);
    game_oca.apply(&g->st, action, &g->ch, NULL);
    if (g->ch.script_pos != n)
        check_fail(__FILE__, line, "%d of %d scripted dice used", g->ch.script_pos, n);
    if (!ledger_balanced(&g->st.led))
        check_fail(__FILE__, line, "ledger out of balance");
}
#define act(g, kind, seat, action, ...) act_(__LINE__, g, kind, seat, action, __VA_ARGS__)

/* The pending decision's kind and seat (or -1, -1 when the game is over). */
static int pending(tgame *g, int *seat)
{
    decision d;
    if (!game_oca.decide(&g->st, &d)) {
        *seat = -1;
        return -1;
    }
    *seat = d.seat;
    return d.kind;
}

static int64_t pts(const tgame *g, int account)
{
    return g->st.led.balance[account];
}

/* Gives the postcard of square sq to holder h (a seat or HOLD_*). The pending decision was
 * listed before: a change takes effect from the next one. */
static void set_card(tgame *g, int sq, int h)
{
    oca_give(&g->st, g->st.r->square_card[sq], h);
}

/* Takes every dealt postcard out of play, so that no card decision interferes (the deck
 * keeps its cards). */
static void no_cards(tgame *g)
{
    for (int c = 0; c < g->st.r->ncards; c++)
        if (g->st.holder[c] >= 0)
            set_card(g, g->st.r->card_square[c], HOLD_OUT);
}

/* Two players, seat 0 Capo-gioco, nobody volunteers: the bank is the cashier; both have
 * paid the fee and the entry: seat 0 155, seat 1 145, cashier 100. */
static void begin_cashier2(tgame *g, const oca_rules *r)
{
    begin(g, r, 2, 0);
    act(g, K_VOLUNTEER, 1, 0, 0);
}

/* Three players, seat 0 Capo-gioco, seat 1 the only volunteer, who joins the race. */
static void begin_banker3(tgame *g, const oca_rules *r)
{
    begin(g, r, 3, 0);
    act(g, K_VOLUNTEER, 1, 1, 0);
    act(g, K_VOLUNTEER, 2, 0, 0);
    act(g, K_BANKER_PLAYS, 1, 1, 0);
}

/* Leaves one harmless postcard per seat (squares 11, 17 and 1) so that every turn opens with
 * the mover's trade window, where a test can place pieces and script the roll. */
static void hooks(tgame *g)
{
    static const int sq[] = {11, 17, 1};
    no_cards(g);
    for (int s = 0; s < g->st.n && s < 3; s++)
        set_card(g, sq[s], s);
}

/* Seat s's turn: put it on square `at` (0: leave it), pass the trade window, roll `roll`. */
static void turn_(int line, tgame *g, int s, int at, int roll)
{
    if (at)
        g->st.pos[s] = (int8_t)at;
    act_(line, g, K_TRADE, s, 0, 1, roll);
}
#define turn(g, s, at, roll) turn_(__LINE__, g, s, at, roll)

/* Moves points to the Fondo Generale (through the ledger), to set up a poor player. */
static void drain(tgame *g, int s, int64_t keep)
{
    ledger_transfer(&g->st.led, s, ACC_FONDO, g->st.led.balance[s] - keep, "test", -1, NULL);
}

/* ---- article 1: the Capo-gioco ----------------------------------------------------------- */

/* "Tutti i partecipanti tirano il dado per tre volte consecutive sommando i numeri
 * realizzati. Chi avrà totalizzato il punteggio più alto coprirà la carica di Capo-gioco ...
 * percepirà un rimborso spese di 5 punti da ciascun giocatore." Ties re-roll (gap). */
TEST(oca_art1_capo_gioco_by_three_rolls_ties_reroll_fee_of_5)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    int v[64] = {1, 2, 3, 6, 6, 1, 6, 6, 1, /* re-roll of the tied */ 1, 1, 1, 2, 2, 2}, k = 15;
    for (int i = r.ncards - 1; i > 0; i--)
        v[k++] = i;
    rng_seed(&g.ch, 1);
    dice(&g, k, v);
    game_oca.start(&g.st, &r, 3, &g.ch, NULL);
    CHECK_INT(g.ch.script_pos, k);
    CHECK_INT(g.st.capo, 2);
    CHECK_INT(pts(&g, 2), 200 + 2 * 5);
    CHECK_INT(pts(&g, 0), 195);
    CHECK_INT(pts(&g, 1), 195);
}

/* ---- article 2: the dote ----------------------------------------------------------------- */

/* "Il Capo-gioco distribuisce a ciascun partecipante, prelevandoli dal Fondo Generale, 200
 * punti ... a titolo di dote." */
TEST(oca_art2_dote_of_200_from_the_fondo_generale)
{
    oca_rules r;
    load(&r, "fondo_extra=100", NULL);
    tgame g;
    begin(&g, &r, 4, 1);
    CHECK_INT(g.st.led.total, 4 * 200 + 100);
    CHECK_INT(pts(&g, ACC_FONDO), 100);
    CHECK_INT(pts(&g, 0) + pts(&g, 1) + pts(&g, 2) + pts(&g, 3), 800);
    CHECK(ledger_balanced(&g.st.led));
}

/* ---- article 3: the bank and its auction --------------------------------------------------- */

/* "Un altro giocatore potrà offrirsi di fare da banchiere ... Qualora ci fossero più
 * pretendenti, la carica di banchiere sarà messa all'asta: vincerà chi avrà offerto più punti
 * a ciascuno degli altri partecipanti." */
TEST(oca_art3_auction_winner_pays_his_bid_to_each_other_player)
{
    oca_rules r;
    load(&r, "auction=\"sealed\"", NULL);
    tgame g;
    begin(&g, &r, 3, 0);
    int seat;
    CHECK_INT(pending(&g, &seat), K_VOLUNTEER);
    CHECK_INT(seat, 1); /* "un altro giocatore": the Capo-gioco is not asked */
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 1, 0);
    act(&g, K_BID, 1, 10, 0);
    act(&g, K_BID, 2, 15, 0);
    CHECK_INT(g.st.banker, 2);
    act(&g, K_BANKER_PLAYS, 2, 0, 0);
    CHECK_INT(pts(&g, 0), 210 + 15 - 50);
    CHECK_INT(pts(&g, 1), 195 + 15 - 50);
    CHECK_INT(pts(&g, 2), 195 - 30 + 100);
    CHECK(!g.st.playing[2]);
    CHECK_INT(g.st.s.winning_bid, 15);
}

/* Equal best bids: the tied bidders roll the die (gap: the text has no tie rule). */
TEST(oca_gap_equal_bids_roll_off)
{
    oca_rules r;
    load(&r, "auction=\"sealed\"", NULL);
    tgame g;
    begin(&g, &r, 3, 0);
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
    load(&r, NULL);
    CHECK_INT(r.auction, AUC_OPEN);
    tgame g;
    begin(&g, &r, 4, 0);
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
    CHECK_INT(pts(&g, 1), 195 - 45 + 150);
    CHECK_INT(pts(&g, 0), 215 + 15 - 50);
    CHECK_INT(pts(&g, 2), 195 + 15 - 50);
    CHECK_INT(pts(&g, 3), 195 + 15 - 50);
}

/* Open auction: everybody else drops out before a bid: the one left wins for 0. */
TEST(oca_art3_open_auction_last_one_left_wins_for_nothing)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin(&g, &r, 3, 0);
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

/* Nobody volunteers: the Capo-gioco keeps the bank as a plain cashier (gap, no_volunteer). */
TEST(oca_gap_no_volunteer_cashier_or_capo)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r);
    CHECK_INT(g.st.banker, -1);
    CHECK(g.st.cashier);
    CHECK_INT(pts(&g, ACC_CASHIER), 100);
    load(&r, "no_volunteer=\"capo\"", NULL);
    begin(&g, &r, 2, 0);
    act(&g, K_VOLUNTEER, 1, 0, 0);
    CHECK_INT(g.st.banker, 0); /* two players: he plays without being asked */
    CHECK_INT(pts(&g, 0), 205 + 50 - 10);
}

/* ---- articles 4 and 5: payments, collections, the entry fee and the banker ----------------- */

/* "Ogni giocatore dovrà versare al banchiere-esattore 50 punti ... Anche il banchiere potrà
 * partecipare al giro purchè versi a ciascun concorrente 10 punti" */
TEST(oca_art5_entry_fee_and_banker_refund)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_banker3(&g, &r);
    CHECK_INT(pts(&g, 0), 210 - 50 + 10);
    CHECK_INT(pts(&g, 1), 195 + 100 - 20);
    CHECK_INT(pts(&g, 2), 195 - 50 + 10);
    CHECK(g.st.playing[1]);
}

/* "PAGAMENTI e INCASSI ... riguardano i singoli giocatori nei confronti della Banca (caselle 2
 * e 13). RISCOSSIONI e DISTRIBUZIONI ... coinvolgono ... tutti i giocatori (caselle 5 e 20)";
 * "il banchiere ... non dovrà poi incassare o pagare punti a se stesso, parteciperà alle
 * riscossioni e distribuzioni". */
TEST(oca_art4_art5_bank_payments_collections_banker_never_pays_himself)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_banker3(&g, &r); /* 170, 275, 155 */
    hooks(&g);
    turn(&g, 0, 1, 1); /* square 2: pays 10 to the bank */
    CHECK_INT(pts(&g, 0), 160);
    CHECK_INT(pts(&g, 1), 285);
    turn(&g, 1, 1, 1); /* the banker on square 2 pays himself: nothing */
    CHECK_INT(pts(&g, 1), 285);
    turn(&g, 2, 4, 1); /* square 5: collects 10 from each, the banker included */
    CHECK_INT(pts(&g, 2), 175);
    CHECK_INT(pts(&g, 0), 150);
    CHECK_INT(pts(&g, 1), 275);
    turn(&g, 0, 12, 1); /* square 13: receives 20 from the bank */
    CHECK_INT(pts(&g, 0), 170);
    CHECK_INT(pts(&g, 1), 255);
    turn(&g, 1, 19, 1); /* square 20: the banker distributes 10 to each as a player */
    CHECK_INT(pts(&g, 1), 235);
    CHECK_INT(pts(&g, 0), 180);
    CHECK_INT(pts(&g, 2), 185);
}

/* ---- article 6: the die and the turn order --------------------------------------------------- */

/* "I giocatori tireranno il dado, a turno e in senso orario, a iniziare dal Capo-gioco" */
TEST(oca_art6_turns_clockwise_from_the_capo_gioco_with_one_die)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin(&g, &r, 3, 1);
    act(&g, K_VOLUNTEER, 2, 0, 0);
    act(&g, K_VOLUNTEER, 0, 0, 0);
    hooks(&g);
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
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r); /* 155, 145, cashier 100 */
    hooks(&g);
    turn(&g, 0, 26, 1); /* square 27: Pulcinella */
    CHECK_INT(g.st.declare_left[0], 1);
    turn(&g, 1, 1, 3);
    act(&g, K_TRADE, 0, 0, 0);
    act(&g, K_DECLARE, 0, 3, 1, 3); /* declares 3, rolls 3: 27 -> 30 */
    CHECK_INT(pts(&g, 0), 155 - 10 + 50 - 30); /* square 30 then takes 30 */
    CHECK_INT(pts(&g, ACC_CASHIER), 100 + 10 - 50 + 30);
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
    load(&r, NULL);
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
    begin_cashier2(&g, &r);
    hooks(&g);
    turn(&g, 0, 17, 1); /* square 18 */
    CHECK_INT(g.st.declare_left[0], 2);
}

/* A missed declaration loses the stake; passing costs nothing. */
TEST(oca_art7_declaration_miss_and_pass)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r);
    hooks(&g);
    turn(&g, 0, 26, 1); /* square 27: Pulcinella */
    turn(&g, 1, 26, 1);
    act(&g, K_TRADE, 0, 0, 0);
    act(&g, K_DECLARE, 0, 6, 1, 2); /* miss: 27 -> 29, pays 25 there */
    CHECK_INT(pts(&g, 0), 155 - 10 - 25);
    act(&g, K_TRADE, 1, 0, 0);
    act(&g, K_DECLARE, 1, 0, 1, 6); /* pass: 27 -> 33 */
    CHECK_INT(pts(&g, 1), 145);
}

/* "Dalla casella n° 35, dove ci sono 2 Pulcinella, è possibile tentare la dichiarazione per 2
 * volte consecutive." */
TEST(oca_art7_square_35_two_consecutive_declarations)
{
    oca_rules r;
    load(&r, "board.36.effect=\"none\"", NULL);
    tgame g;
    begin(&g, &r, 3, 0);
    act(&g, K_VOLUNTEER, 1, 0, 0);
    act(&g, K_VOLUNTEER, 2, 0, 0);
    hooks(&g);
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
    CHECK_INT(pts(&g, 0), 160 - 10 - 10 + 50);
    CHECK_INT(g.st.pos[0], 33);
    CHECK_INT(g.st.declare_left[0], 0);
}

/* "Anche il banchiere può tentare le dichiarazioni suddette riscuotendo 20 punti da ciascun
 * giocatore se ci azzecca e pagando agli stessi 5 punti in caso contrario." */
TEST(oca_art7_banker_declaration_20_from_each_or_5_to_each)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_banker3(&g, &r); /* 170, 275, 155 */
    hooks(&g);
    turn(&g, 0, 0, 3);  /* 1 -> 4 */
    turn(&g, 1, 26, 1); /* the banker on square 27 */
    turn(&g, 2, 0, 3);  /* 1 -> 4 */
    turn(&g, 0, 0, 4);  /* 4 -> 8 */
    act(&g, K_TRADE, 1, 0, 0);
    act(&g, K_DECLARE, 1, 1, 1, 1); /* hit: 27 -> 28, where the bank would pay himself */
    CHECK_INT(pts(&g, 1), 275 + 40);
    CHECK_INT(pts(&g, 0), 150);
    CHECK_INT(pts(&g, 2), 135);
    turn(&g, 2, 0, 4);  /* 4 -> 8 */
    turn(&g, 0, 0, 3);  /* 8 -> 11 */
    turn(&g, 1, 26, 1); /* square 27 again */
    turn(&g, 2, 0, 3);  /* 8 -> 11 */
    turn(&g, 0, 0, 6);  /* 11 -> 17 */
    act(&g, K_TRADE, 1, 0, 0);
    act(&g, K_DECLARE, 1, 4, 1, 6); /* miss: 27 -> 33 */
    CHECK_INT(pts(&g, 1), 315 - 10);
    CHECK_INT(pts(&g, 0), 155);
    CHECK_INT(pts(&g, 2), 140);
}

/* The banker's hit collects 20 "da ciascun giocatore": a player who cannot pay goes bankrupt
 * instead (article 8), and the declaration's net (metric declaration_net) counts only what was
 * paid. */
TEST(oca_art7_banker_hit_from_a_player_who_fails_is_not_collected)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_banker3(&g, &r); /* 170, 275, 155 */
    hooks(&g);
    turn(&g, 0, 0, 3);
    turn(&g, 1, 17, 1); /* the banker on square 18 */
    turn(&g, 2, 0, 3);
    turn(&g, 0, 0, 4);
    drain(&g, 2, 5);
    g.st.aid_used[2] = true;
    act(&g, K_TRADE, 1, 0, 0);
    act(&g, K_DECLARE, 1, 3, 1, 3); /* hit: seat 2 owes 20 with 5 */
    act(&g, K_SHORT_SALE, 2, 0, 0);
    CHECK(g.st.bankrupt[2]);
    CHECK_INT(pts(&g, 1), 275 + 20);
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
    load(&r, NULL);
    tgame g;
    begin_banker3(&g, &r); /* 170, 275, 155 */
    hooks(&g);
    turn(&g, 0, 0, 3);
    turn(&g, 1, 26, 1); /* the banker on square 27: a Pulcinella */
    turn(&g, 2, 0, 3);
    turn(&g, 0, 0, 4);
    drain(&g, 1, 9);           /* a miss would cost 2 x 5 = 10 */
    act(&g, K_TRADE, 1, 0, 1, 6); /* no declaration asked: the roll follows at once */
    int seat, kind = pending(&g, &seat);
    CHECK(!(kind == K_DECLARE && seat == 1));
    CHECK_INT(g.st.pos[1], 33);
    CHECK_INT(g.st.declare_left[1], 0);
    /* with 10 he can pay the miss to both: he is asked */
    tgame h;
    begin_banker3(&h, &r);
    hooks(&h);
    turn(&h, 0, 0, 3);
    turn(&h, 1, 26, 1);
    turn(&h, 2, 0, 3);
    turn(&h, 0, 0, 4);
    drain(&h, 1, 10);
    act(&h, K_TRADE, 1, 0, 0);
    act(&h, K_DECLARE, 1, 4, 1, 6); /* miss: pays 5 to each, 27 -> 33 */
    CHECK_INT(pts(&h, 1), 0);
    CHECK(!h.st.bankrupt[1]);
}

/* ---- article 8: bankruptcy, mutual aid, the failed bank --------------------------------------- */

/* Three players, seat 0 Capo-gioco, nobody volunteers: 160, 145, 145, cashier 150. */
static void begin_cashier3(tgame *g, const oca_rules *r)
{
    begin(g, r, 3, 0);
    act(g, K_VOLUNTEER, 1, 0, 0);
    act(g, K_VOLUNTEER, 2, 0, 0);
    hooks(g);
}

/* "prima di essere dichiarato fallito esso ha ancora due possibilità di salvarsi ricorrendo al
 * mutuo soccorso che comporta la riscossione di 10 punti da ciascun partecipante se riesce,
 * tirando il dado, a fare uscire un numero dichiarato"; art. 12: "Un giocatore in difficoltà
 * ... può venderle per pagare i debiti." */
TEST(oca_art8_short_player_sells_then_mutual_aid_saves_him)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier3(&g, &r);
    int c17 = r.square_card[17];
    turn(&g, 0, 0, 3);
    drain(&g, 1, 5);
    turn(&g, 1, 9, 1); /* square 10: pay 15 with 5 */
    act(&g, K_SHORT_SALE, 1, OCA_TRADE(TR_SELL, c17, 0, 0), 0);
    act(&g, K_BUY_CARD, 2, 0, 0);
    act(&g, K_BUY_CARD, 0, 0, 0);
    /* refused at the lowest price, the card cannot be offered for less: no offer is left,
     * so the mutual aid is next (giochi-sim-oca(7): a refused offer returns only cheaper) */
    act(&g, K_MUTUAL_AID, 1, 3, 2, 1, 3);    /* two rolls at 3: the second hits */
    CHECK(g.st.aid_used[1]);
    CHECK_INT(pts(&g, 1), 5 + 20 - 15);
    CHECK_INT(pts(&g, 0), 150);
    CHECK_INT(pts(&g, 2), 135);
    CHECK(!g.st.bankrupt[1]);
    /* "Ciascun giocatore può ricorrere al mutuo soccorso una sola volta." */
    turn(&g, 2, 0, 3);
    turn(&g, 0, 0, 4);
    int64_t fondo = pts(&g, ACC_FONDO);
    turn(&g, 1, 29, 1); /* square 30: pay 30 with 10 */
    act(&g, K_SHORT_SALE, 1, OCA_TRADE(TR_SELL, c17, 0, 0), 0);
    act(&g, K_BUY_CARD, 2, 1, 0); /* sold for 5: still short, no card left, no aid: bankrupt */
    CHECK(g.st.bankrupt[1]);
    CHECK_INT(g.st.holder[c17], 2);
    /* "Eventuali punti residui, non utilizzati da chi è fallito, vanno alla Fondo generale." */
    CHECK_INT(pts(&g, 1), 0);
    CHECK_INT(pts(&g, ACC_FONDO), fondo + 15);
    CHECK_INT(g.st.in_race, 2);
}

/* Art. 12 lets a player short of points sell his cards; the text does not say how often he
 * may ask. An offer refused in one shortfall is offered again only for less (gap): the same
 * card at the same price would be the same question to the same buyers. */
TEST(oca_gap_refused_short_sale_returns_only_cheaper)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier3(&g, &r);
    int c17 = r.square_card[17];
    turn(&g, 0, 0, 3);
    drain(&g, 1, 5);
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
    load(&r, NULL);
    tgame g;
    begin_cashier3(&g, &r);
    set_card(&g, 17, HOLD_OUT);
    turn(&g, 0, 0, 3);
    drain(&g, 1, 5);
    int64_t fondo = pts(&g, ACC_FONDO);
    turn(&g, 1, 9, 1);
    act(&g, K_MUTUAL_AID, 1, 3, 2, 1, 2);
    CHECK(g.st.bankrupt[1]);
    CHECK_INT(pts(&g, ACC_FONDO), fondo + 5);
    CHECK_INT(pts(&g, ACC_CASHIER), 150); /* the bank is not paid (gap: no partial payment) */
    int seat;
    CHECK_INT(pending(&g, &seat), K_TRADE);
    CHECK_INT(seat, 2); /* the bankrupt is out of the turn order */
}

/* Gap: bankrupt_pays_partial hands what the bankrupt has to his creditor first. */
TEST(oca_gap_bankrupt_pays_partial)
{
    oca_rules r;
    load(&r, "bankrupt_pays_partial=true", NULL);
    tgame g;
    begin_cashier3(&g, &r);
    set_card(&g, 17, HOLD_OUT);
    turn(&g, 0, 0, 3);
    drain(&g, 1, 5);
    g.st.aid_used[1] = true;
    int64_t fondo = pts(&g, ACC_FONDO);
    turn(&g, 1, 9, 1);
    CHECK(g.st.bankrupt[1]);
    CHECK_INT(pts(&g, ACC_FONDO), fondo);
    CHECK_INT(pts(&g, ACC_CASHIER), 155);
}

/* Banker seat 1 with 5 points must pay 20 to seat 0 (square 13) and fails. */
static void fail_the_bank(tgame *g, const oca_rules *r)
{
    begin_banker3(g, r); /* 170, 275, 155 */
    hooks(g);
    drain(g, 1, 5);
    turn(g, 0, 12, 1);
    act(g, K_SHORT_SALE, 1, 0, 0);
    act(g, K_MUTUAL_AID, 1, 6, 2, 1, 1);
    CHECK(g->st.bankrupt[1]);
    CHECK_INT(g->st.banker, -1);
}

/* "Se a fallire ... è il banchiere, la Banca verrà ceduta a chi si impegnerà a coprire la
 * perdita causa del fallimento." */
TEST(oca_art8_failed_bank_taken_over_by_who_covers_the_loss)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    fail_the_bank(&g, &r);
    act(&g, K_TAKE_OVER_BANK, 2, 1, 0);
    act(&g, K_TAKE_OVER_BANK, 0, 0, 0);
    CHECK_INT(g.st.banker, 2);
    CHECK_INT(pts(&g, 0), 190);
    CHECK_INT(pts(&g, 2), 135);
    CHECK_INT(g.st.s.takeovers, 1);
}

/* "Un giocatore è fallito ... nel caso si trovasse a non poter coprire interamente una
 * perdita": a distribution he cannot pay in full is one loss, whatever the number of
 * creditors: nobody is paid a part of it first, and mutual aid and bankruptcy apply to the
 * whole sum; a failed banker's taker "si impegnerà a coprire la perdita": every unpaid part. */
TEST(oca_art8_a_payment_to_every_player_is_one_loss)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier3(&g, &r); /* 160, 145, 145 */
    set_card(&g, 17, HOLD_OUT);
    turn(&g, 0, 0, 3);
    drain(&g, 1, 15);
    turn(&g, 1, 19, 1); /* square 20: 10 to each of two = 20 > 15 */
    CHECK_INT(g.st.op[g.st.nops - 1].each, 1u << 0 | 1u << 2);
    CHECK_INT(oca_op_due(&g.st.op[g.st.nops - 1]), 20);
    act(&g, K_MUTUAL_AID, 1, 3, 2, 1, 2);
    CHECK(g.st.bankrupt[1]);
    CHECK_INT(pts(&g, 0), 160); /* nobody got a part */
    CHECK_INT(pts(&g, 2), 145);
    CHECK_INT(g.st.s.bankrupt_square[1], 20);
    outcome o;
    recorder *rec = rec_new(&game_oca, 3, true);
    rec_game_begin(rec);
    game_oca.finish(&g.st, &o, rec);
    const acc *bs = NULL;
    for (int m = 0; game_oca.metrics[m].name; m++)
        if (strcmp(game_oca.metrics[m].name, "bankruptcy_square") == 0)
            bs = rec_get(rec, m, -1);
    CHECK(bs != NULL && bs->n == 1 && bs->min == 20); /* one bankruptcy, on square 20 */
    rec_free(rec);

    begin_banker3(&g, &r); /* 170, 275, 155; seat 1 the banker */
    hooks(&g);
    turn(&g, 0, 0, 3);
    drain(&g, 1, 15);
    turn(&g, 1, 19, 1);
    act(&g, K_SHORT_SALE, 1, 0, 0);
    act(&g, K_MUTUAL_AID, 1, 6, 2, 1, 1);
    CHECK(g.st.bankrupt[1]);
    CHECK_INT(g.st.takeover_loss, 20);
    act(&g, K_TAKE_OVER_BANK, 2, 1, 0);
    act(&g, K_TAKE_OVER_BANK, 0, 0, 0);
    CHECK_INT(g.st.banker, 2);
    CHECK_INT(pts(&g, 0), 170 + 10); /* his part, covered by the taker */
    CHECK_INT(pts(&g, 2), 155 - 10); /* pays seat 0; his own part he forgoes */
}

/* "Nel caso di più pretendenti a rilevare la Banca, vale la regola dell'art. 3)." */
TEST(oca_art8_several_takers_auction_the_failed_bank)
{
    oca_rules r;
    load(&r, "auction=\"sealed\"", NULL);
    tgame g;
    fail_the_bank(&g, &r);
    act(&g, K_TAKE_OVER_BANK, 2, 1, 0);
    act(&g, K_TAKE_OVER_BANK, 0, 1, 0);
    act(&g, K_BID, 0, 5, 0);
    act(&g, K_BID, 2, 10, 0);
    CHECK_INT(g.st.banker, 2);
    CHECK_INT(pts(&g, 0), 170 + 20 + 10);
    CHECK_INT(pts(&g, 2), 155 - 30);
}

/* "In assenza di offerte la Banca viene gestita dal Capo-gioco che farà da semplice cassiere
 * ... senza più rischi di fallimenti, avendo facoltà di pagare debiti vecchi e nuovi,
 * nell'ordine, man mano che si verificheranno riscossioni." */
TEST(oca_art8_no_taker_capo_cashier_pays_debts_in_order)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    fail_the_bank(&g, &r);
    act(&g, K_TAKE_OVER_BANK, 2, 0, 0);
    act(&g, K_TAKE_OVER_BANK, 0, 0, 0);
    CHECK(g.st.cashier);
    CHECK_INT(oca_unpaid_debts(&g.st), 20);
    turn(&g, 2, 0, 1); /* seat 2 pays 10 on square 2: the cashier passes it to seat 0 */
    CHECK_INT(oca_unpaid_debts(&g.st), 10);
    CHECK_INT(pts(&g, 0), 180);
    CHECK_INT(pts(&g, ACC_CASHIER), 0);
    turn(&g, 0, 12, 1); /* a new debt of 20 queues behind the old one */
    CHECK_INT(oca_unpaid_debts(&g.st), 30);
    CHECK_INT(g.st.ndebts, 2);
    turn(&g, 2, 9, 1); /* 15 comes in: the old debt first (10), then 5 of the new */
    CHECK_INT(oca_unpaid_debts(&g.st), 15);
    CHECK_INT(pts(&g, 0), 195);
}

/* Gap bankrupt_pays_partial with a failed bank: the bankrupt banker's points go to his
 * creditor, so the taker covers only what is left unpaid ("chi si impegnerà a coprire la
 * perdita causa del fallimento"); and a partial payment into the cashier's till pays the old
 * debts at once ("pagare debiti vecchi e nuovi, nell'ordine, man mano che si verificheranno
 * riscossioni"). */
TEST(oca_art8_partial_payments_shrink_the_loss_and_pay_the_cashiers_debts)
{
    oca_rules r;
    load(&r, "bankrupt_pays_partial=true", NULL);
    tgame g;
    fail_the_bank(&g, &r); /* seat 1 had 5 of the 20 he owed seat 0 */
    CHECK_INT(pts(&g, 0), 175);
    CHECK_INT(g.st.takeover_loss, 15);
    act(&g, K_TAKE_OVER_BANK, 2, 0, 0);
    act(&g, K_TAKE_OVER_BANK, 0, 0, 0);
    CHECK(g.st.cashier);
    CHECK_INT(oca_unpaid_debts(&g.st), 15);
    drain(&g, 2, 5);
    turn(&g, 2, 0, 1); /* square 2: owes the bank 10, holds 5 */
    act(&g, K_SHORT_SALE, 2, 0, 0);
    act(&g, K_MUTUAL_AID, 2, 6, 2, 1, 1);
    CHECK(g.st.bankrupt[2]);
    CHECK_INT(oca_unpaid_debts(&g.st), 10);
    CHECK_INT(pts(&g, ACC_CASHIER), 0);
    CHECK_INT(pts(&g, 0), 180);
}

/* Gap arrived_in_round: "RISCOSSIONI e DISTRIBUZIONI ... coinvolgono ... tutti i giocatori che
 * partecipano al giro": a player who has reached the goal has left the "giro" (false, the
 * default) or stays in the round (true). */
TEST(oca_gap_arrived_players_in_the_round_is_an_option)
{
    for (int in = 0; in < 2; in++) {
        oca_rules r;
        if (!in) {
            load(&r, NULL);
            CHECK(!r.arrived_in_round);
        }
        load(&r, in ? "arrived_in_round=true" : "arrived_in_round=false", NULL);
        tgame g;
        begin_cashier3(&g, &r); /* 160, 145, 145 */
        turn(&g, 0, 36, 1);     /* arrives */
        CHECK(g.st.arrived[0]);
        turn(&g, 1, 4, 1); /* square 5: collects 10 from each in the round */
        CHECK_INT(pts(&g, 0), in ? 150 : 160);
        CHECK_INT(pts(&g, 2), 135);
        CHECK_INT(pts(&g, 1), in ? 165 : 155);
    }
}

/* ---- article 9: the end --------------------------------------------------------------------- */

/* "Il gioco termina quando il penultimo concorrente rimasto in gara è approdato alla casella
 * 37. Sarà dichiarato vincitore il giocatore che risulterà in possesso del maggior numero di
 * punti." The others are ranked by arrival. */
TEST(oca_art9_end_when_the_second_to_last_arrives_most_points_wins)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier3(&g, &r); /* 160, 145, 145 */
    drain(&g, 0, 130);
    turn(&g, 0, 36, 1);
    CHECK_INT(g.st.arrival[0], 1);
    int seat;
    CHECK_INT(pending(&g, &seat), K_TRADE);
    turn(&g, 1, 36, 1);
    CHECK_INT(pending(&g, &seat), -1);
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
    load(&r, NULL);
    tgame g;
    begin_cashier3(&g, &r); /* 160, 145, 145 */
    drain(&g, 1, 100);
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
    load(&r, NULL);
    tgame g;
    begin(&g, &r, 3, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 0, 0);
    act(&g, K_BANKER_PLAYS, 1, 0, 0); /* 160, 295, 145 */
    hooks(&g);
    turn(&g, 0, 36, 1); /* the second-to-last of two racers arrives */
    int seat;
    CHECK_INT(pending(&g, &seat), -1);
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
    load(&r, "board.36.effect=\"none\"", NULL);
    tgame g;
    begin_cashier3(&g, &r);
    turn(&g, 0, 32, 6);
    CHECK_INT(g.st.pos[0], 36);
    load(&r, "finish=\"any\"", NULL);
    begin_cashier3(&g, &r);
    turn(&g, 0, 32, 6);
    CHECK_INT(g.st.pos[0], 37);
    CHECK(g.st.arrived[0]);
}

/* Gap: every game ends; max_turns stops a game (end kind turn_cap). */
TEST(oca_gap_turn_cap_ends_the_game)
{
    oca_rules r;
    load(&r, "max_turns=3", NULL);
    tgame g;
    begin_cashier3(&g, &r);
    turn(&g, 0, 0, 3);
    turn(&g, 1, 0, 3);
    turn(&g, 2, 0, 3);
    int seat;
    CHECK_INT(pending(&g, &seat), -1);
    CHECK_INT(g.st.end, END_TURN_CAP);
    CHECK_INT(g.st.turn, 3);
}

/* ---- articles 10 and 11: postcards and jollies ----------------------------------------------- */

/* "Ogni concorrente riceverà dal mazzo ... 3 delle cartoline suddette (2, se i giocatori
 * saranno più di 5), mettendole in vista." Face up: bots see the whole state. */
TEST(oca_art10_three_postcards_each_two_above_five_players_face_up)
{
    oca_rules r;
    load(&r, NULL);
    CHECK_INT(r.ncards, 21);
    tgame g;
    begin(&g, &r, 5, 0);
    for (int s = 0; s < 5; s++)
        CHECK_INT(oca_cards_held(&g.st, s), 3);
    CHECK_INT(g.st.deck_top, 15);
    begin(&g, &r, 6, 0);
    for (int s = 0; s < 6; s++)
        CHECK_INT(oca_cards_held(&g.st, s), 2);
    CHECK_INT(game_oca.view_size, 0);
}

/* "un concorrente può annullare gli effetti negativi di una casella se possiede la cartolina
 * corrispondente: giocandola, torna alla casella dalla quale era partito" */
TEST(oca_art10_own_card_cancels_a_negative_square)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r);
    hooks(&g);
    set_card(&g, 2, 0);
    turn(&g, 0, 0, 1);
    act(&g, K_CANCEL_OWN, 0, 1, 0);
    CHECK_INT(g.st.pos[0], 1);
    CHECK_INT(pts(&g, 0), 155);
    CHECK_INT(g.st.holder[r.square_card[2]], HOLD_SPENT);
}

/* The Clown of square 1: a player sent back to the start (the Dragon, 31) cancels it. */
TEST(oca_art10_clown_card_cancels_being_sent_to_the_start)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r);
    hooks(&g);
    set_card(&g, 1, 0);
    turn(&g, 0, 30, 1); /* the Dragon sends him to 1, where his Clown card applies */
    act(&g, K_CANCEL_OWN, 0, 1, 0);
    CHECK_INT(g.st.pos[0], 30);
}

/* "il solo beneficio di chi possiede una cartolina positiva è costituito dal fatto di poterla
 * usare contro un avversario capitato nella casella corrispondente" */
TEST(oca_art10_positive_card_cancels_an_opponents_benefit)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r);
    hooks(&g);
    set_card(&g, 13, 1);
    turn(&g, 0, 12, 1);
    act(&g, K_REACT_OFFER, 0, 0, 0); /* no offer for the card (article 12) */
    act(&g, K_CANCEL_OPPONENT, 1, 1, 0);
    CHECK_INT(g.st.pos[0], 12);
    CHECK_INT(pts(&g, 0), 155);
    set_card(&g, 28, 1);
    turn(&g, 1, 0, 3);
    turn(&g, 0, 27, 1); /* declining lets the benefit stand */
    act(&g, K_REACT_OFFER, 0, 0, 0);
    act(&g, K_CANCEL_OPPONENT, 1, 0, 0);
    CHECK_INT(pts(&g, 0), 185);
}

/* "con ciascuna di esse può annullare qualsiasi giocata propria, o di un avversario, con
 * ritorno alla casella di partenza." */
TEST(oca_art11_jolly_cancels_any_move_own_or_opponents)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r);
    hooks(&g);
    set_card(&g, 23, 1);
    turn(&g, 0, 4, 1); /* square 5 would collect 10 */
    act(&g, K_JOLLY, 1, 1, 0);
    CHECK_INT(g.st.pos[0], 4);
    CHECK_INT(pts(&g, 1), 145);
    CHECK_INT(g.st.s.jolly, 1);
    set_card(&g, 35, 1);
    turn(&g, 1, 30, 1); /* his own move onto the Dragon */
    act(&g, K_JOLLY, 1, 1, 0);
    CHECK_INT(g.st.pos[1], 30);
}

/* "Il Jolly può inoltre annullare qualsiasi giocata delle altre cartoline." */
TEST(oca_art11_counter_jolly_cancels_a_card_play)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r);
    hooks(&g);
    set_card(&g, 2, 0);
    set_card(&g, 18, 1);
    turn(&g, 0, 0, 1);
    act(&g, K_CANCEL_OWN, 0, 1, 0);
    act(&g, K_COUNTER_JOLLY, 1, 1, 0);
    CHECK_INT(g.st.pos[0], 2);
    CHECK_INT(pts(&g, 0), 145);
    CHECK_INT(g.st.holder[r.square_card[2]], HOLD_SPENT);
    CHECK_INT(g.st.holder[r.square_card[18]], HOLD_SPENT);
}

/* Gap: jollies are offered on moves onto squares with an effect ("effect_squares"), or on
 * every move ("every_move"). */
TEST(oca_gap_jolly_offer_on_plain_squares_is_an_option)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r);
    hooks(&g);
    set_card(&g, 23, 1);
    turn(&g, 0, 0, 3); /* square 4: plain */
    int seat;
    CHECK_INT(pending(&g, &seat), K_TRADE);
    load(&r, "jolly_offer=\"every_move\"", NULL);
    begin_cashier2(&g, &r);
    hooks(&g);
    set_card(&g, 23, 1);
    turn(&g, 0, 0, 3);
    CHECK_INT(pending(&g, &seat), K_JOLLY);
    CHECK_INT(seat, 1);
}

/* A Pulcinella square gives the right to declare ("Capitando in una delle caselle dove appare
 * Pulcinella, il giocatore può, al turno successivo ... azzardare un pronostico"): with
 * "effect_squares" a jolly ("può annullare qualsiasi giocata ... di un avversario") is offered
 * there too, and cancelling the move takes the right away. */
TEST(oca_art11_jolly_offered_on_a_pulcinella_square)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r);
    hooks(&g);
    set_card(&g, 23, 1);
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
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r); /* 155, 145 */
    hooks(&g);
    int c11 = r.square_card[11], c17 = r.square_card[17];
    act(&g, K_TRADE, 0, TR_SELL, 0);
    act(&g, K_TRADE_OFFER, 0, OCA_TRADE(TR_SELL, c11, 0, 1), 0);
    set_card(&g, 9, 0); /* before the next decision is listed */
    act(&g, K_BUY_CARD, 1, 1, 1, 3);
    CHECK_INT(g.st.holder[c11], 1);
    CHECK_INT(pts(&g, 0), 170);
    CHECK_INT(pts(&g, 1), 130);
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
    CHECK_INT(pts(&g, 0), 170 + 10); /* square 7 paid him 10: no sale */
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
    load(&r, NULL);
    CHECK(r.reactive_trades);
    tgame g;
    begin_cashier2(&g, &r); /* 155, 145 */
    hooks(&g);
    set_card(&g, 2, 1);         /* the tax collector's card, held by seat 1 */
    set_card(&g, 5, 0);         /* the harvest's card, held by seat 0 */
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
    CHECK_INT(pts(&g, 0), 155 - 15);
    CHECK_INT(pts(&g, 1), 145 + 15);
    CHECK_INT(g.st.s.react_trades, 1);
    turn(&g, 1, 4, 1);          /* seat 1 lands on square 5, whose card seat 0 holds */
    act(&g, K_REACT_OFFER, 1, 10, 0);
    act(&g, K_REACT_ANSWER, 0, 0, 0); /* refused: the card stays, and is played */
    act(&g, K_CANCEL_OPPONENT, 0, 1, 0);
    CHECK_INT(g.st.pos[1], 4);
    CHECK_INT(pts(&g, 1), 160);
    CHECK_INT(g.st.s.react_offers, 2);
    CHECK_INT(g.st.s.react_counters, 1);
    load(&r, "reactive_trades=false", NULL); /* the option off: straight to the card plays */
    begin_cashier2(&g, &r);
    hooks(&g);
    set_card(&g, 5, 0);
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
    load(&r, NULL);
    tgame g;
    begin_cashier3(&g, &r); /* 160, 145, 145; seats hold 11, 17, 1 */
    set_card(&g, 13, 1);
    set_card(&g, 23, 2); /* a jolly, held by seat 2 */
    turn(&g, 0, 12, 1);  /* seat 0 lands on 13: the bank pays 20 */
    act(&g, K_REACT_OFFER, 0, 0, 0);      /* no offer for square 13's card */
    act(&g, K_CANCEL_OPPONENT, 1, 1, 0);  /* seat 1 plays it against him */
    act(&g, K_REACT_OFFER, 0, 10, 0);     /* seat 0 offers 10 for seat 2's jolly */
    act(&g, K_REACT_ANSWER, 2, 1, 0);     /* accepted */
    CHECK_INT(g.st.holder[r.square_card[23]], 0);
    act(&g, K_COUNTER_JOLLY, 0, 1, 0);    /* and played: the card play is cancelled */
    CHECK_INT(g.st.pos[0], 13);
    CHECK_INT(pts(&g, 0), 160 - 10 + 20);
    CHECK_INT(pts(&g, 2), 145 + 10);
    CHECK_INT(g.st.s.react_trades, 1);
    CHECK_INT(g.st.s.counter_jolly, 1);
}

/* "Un giocatore può chiedere al Capo-gioco una cartolina da pescare fra quelle non ancora
 * utilizzate, ad esaurimento delle stesse, scambiandola con 2 cartoline in suo possesso." */
TEST(oca_art13_two_cards_for_one_from_the_deck_until_it_runs_out)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r);
    hooks(&g);
    set_card(&g, 6, 0); /* a card dealt before, not one still in the deck */
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
    set_card(&g, 6, 1);
    g.st.deck_top = r.ncards;
    decision d;
    CHECK(game_oca.decide(&g.st, &d));
    CHECK_INT(d.kind, K_TRADE);
    for (int i = 0; i < d.n; i++)
        CHECK(d.action[i] != TR_EXCHANGE);
}

/* ---- invariants over seeded batches, with every bot ------------------------------------------ */

typedef struct batch {
    int64_t games, turn_cap, declarations, hits, aid_tries, aid_hits, busts, cashier_debts;
    int64_t auctions, bid_sum, bid_sq, swaps, sales, react_trades, exchanges, cancel_own;
    int64_t counters, takeovers, short_sales;
} batch;

enum { BOT_CTX = 4096 }; /* room for any oca bot's context (checked against ctx_size) */

/* Sets up bot names[s] at seat s of n under r in ctx[s] (cleared first), bt[s] its type, its
 * parameters at their defaults but "trade" at `trade` when trade >= 0. */
static void set_up_bots(const oca_rules *r, int n, const char *const *names, double trade,
                        const bot_type **bt, char (*ctx)[BOT_CTX])
{
    char err[128];
    for (int s = 0; s < n; s++) {
        bt[s] = registry_bot(&game_oca, names[s]);
        CHECK(bt[s] != NULL && bt[s]->ctx_size <= BOT_CTX);
        if (bt[s] == NULL)
            continue;
        double param[32];
        for (int k = 0; bt[s]->params && bt[s]->params[k].name; k++)
            param[k] = trade >= 0 && strcmp(bt[s]->params[k].name, "trade") == 0
                           ? trade
                           : bt[s]->params[k].def;
        memset(ctx[s], 0, BOT_CTX);
        if (bt[s]->setup)
            CHECK_INT(bt[s]->setup(ctx[s], &game_oca, r, s, n, param, err, sizeof err), 0);
    }
}

/* Plays `games` games of the given bots (names) under r, checking after every step that the
 * points are conserved, that a cashier with debts has an empty till, and that every decision
 * is well formed and asks a seat still at the table. */
static void play_batch(const oca_rules *r, int n, const char *const *bots, int games,
                       uint64_t master, batch *b)
{
    const bot_type *bt[GAME_MAX_SEATS];
    char ctx[GAME_MAX_SEATS][BOT_CTX];
    set_up_bots(r, n, bots, -1, bt, ctx);
    static oca_state st; /* large: not on the stack */
    decision d;
    for (int i = 0; i < games; i++) {
        rng ch, br[GAME_MAX_SEATS];
        rng_seed_stream(&ch, master, (uint64_t)i, RNG_STREAM_CHANCE);
        for (int s = 0; s < n; s++)
            rng_seed_stream(&br[s], master, (uint64_t)i, RNG_STREAM_SEAT(s));
        game_oca.start(&st, r, n, &ch, NULL);
        int steps = 0;
        while (game_oca.decide(&st, &d)) {
            bool ok = d.n >= 1 && d.n <= GAME_MAX_ACTIONS && d.seat >= 0 && d.seat < n &&
                      !st.bankrupt[d.seat] && d.kind >= 0 && d.kind < K_COUNT;
            for (int x = 0; ok && x < d.n; x++)
                for (int y = 0; y < x; y++)
                    ok &= d.action[x] != d.action[y];
            int k = bt[d.seat]->choose(ctx[d.seat], &st, &d, &br[d.seat]);
            ok &= k >= 0 && k < d.n;
            if (!ok) {
                check_fail(__FILE__, __LINE__, "game %d: bad decision of kind %d", i, d.kind);
                break;
            }
            game_oca.apply(&st, d.action[k], &ch, NULL);
            if (!ledger_balanced(&st.led) || (st.ndebts > 0 && st.led.balance[ACC_CASHIER])) {
                check_fail(__FILE__, __LINE__, "game %d: points not conserved", i);
                break;
            }
            if (++steps > 100000) {
                check_fail(__FILE__, __LINE__, "game %d does not end", i);
                break;
            }
        }
        for (int c = 0; c < r->ncards; c++) { /* the hands mirror the holders */
            int h = st.holder[c];
            bool ok = (h >= 0) == ((st.held >> c) & 1);
            for (int s = 0; s < n; s++)
                ok &= (h == s) == ((st.hand[s] >> c) & 1);
            if (!ok)
                check_fail(__FILE__, __LINE__, "game %d: card %d out of step", i, c);
        }
        b->games++;
        b->turn_cap += st.end == END_TURN_CAP;
        b->aid_tries += st.s.aid_tries;
        b->aid_hits += st.s.aid_hits;
        b->cashier_debts += st.ndebts > 0;
        if (st.s.auction) {
            b->auctions++;
            b->bid_sum += st.s.winning_bid;
            b->bid_sq += (int64_t)st.s.winning_bid * st.s.winning_bid;
        }
        b->swaps += st.s.swaps;
        b->sales += st.s.trades;
        b->react_trades += st.s.react_trades;
        b->counters += st.s.react_counters;
        b->exchanges += st.s.exchanges;
        b->cancel_own += st.s.cancel_own;
        b->takeovers += st.s.takeovers;
        b->short_sales += st.s.short_sales;
        for (int s = 0; s < n; s++) {
            b->declarations += st.s.declarations[s];
            b->hits += st.s.declare_hits[s];
            b->busts += st.bankrupt[s];
        }
        if (st.turn > r->max_turns)
            check_fail(__FILE__, __LINE__, "game %d: %d turns", i, st.turn);
        if (st.banker < -1 || st.banker >= n)
            check_fail(__FILE__, __LINE__, "game %d: banker %d", i, st.banker);
    }
}

/* "Points are conserved" on every step of every game, and every game ends before the cap. */
TEST(oca_invariant_points_conserved_every_game_ends_all_bots)
{
    oca_rules r;
    load(&r, NULL);
    static const char *const mix4[] = {"random", "cautious", "greedy", "aggressive"};
    static const char *const rand4[] = {"random", "random", "random", "random"};
    static const char *const aggr8[] = {"aggressive", "random", "greedy", "aggressive",
                                        "cautious", "aggressive", "random", "greedy"};
    static const char *const two[] = {"aggressive", "random"};
    batch b = {0};
    play_batch(&r, 4, mix4, 8000, 11, &b);
    play_batch(&r, 4, rand4, 4000, 12, &b);
    play_batch(&r, 8, aggr8, 2000, 13, &b);
    play_batch(&r, 2, two, 2000, 14, &b);
    CHECK_INT(b.games, 16000);
    CHECK_INT(b.turn_cap, 0);
    CHECK(b.busts > 0);         /* the batch does reach the bankruptcy rules */
    CHECK(b.aid_tries > 0);
    /* the cap is counted when it is hit, and the points stay conserved */
    load(&r, "max_turns=20", NULL);
    batch c = {0};
    play_batch(&r, 4, mix4, 500, 15, &c);
    CHECK(c.turn_cap > 0);
}

/* The default table (four greedy players) exercises the whole economy (issue 10): the open
 * auction's winning bids spread (each seat its own error on the bank's worth), players
 * declare (art. 7: greedy gambles when behind), cards are swapped, sold on the seller's turn
 * and after a landing with a counter-offer (art. 12), exchanged two for one (art. 13), played
 * against one's own square (art. 10), and failed banks are taken over (art. 8); the points
 * stay conserved after every step. */
TEST(oca_default_table_exercises_every_mechanic)
{
    oca_rules r;
    load(&r, NULL);
    static const char *const greedy4[] = {"greedy", "greedy", "greedy", "greedy"};
    batch b = {0};
    play_batch(&r, 4, greedy4, 20000, 21, &b);
    CHECK_INT(b.auctions, 20000);
    double mean = (double)b.bid_sum / b.auctions;
    double var = (double)b.bid_sq / b.auctions - mean * mean;
    CHECK(var > 25); /* an sd above one bid step */
    CHECK(b.declarations > 0);
    CHECK(b.swaps > 0);
    CHECK(b.sales > b.react_trades && b.react_trades > 0);
    CHECK(b.counters > 0);
    CHECK(b.exchanges > 0);
    CHECK(b.cancel_own > 0);
    CHECK(b.takeovers > 0);
    CHECK(b.aid_tries > 0);
    CHECK(b.short_sales > 0);
    CHECK(b.busts > 0);
}

/* Gap: players bankrupt in the setup payments (a tiny dote, a huge Capo-gioco fee) are
 * asked nothing, and an auction left with no solvent bidder falls back on the no_volunteer
 * rule. play_batch fails on any decision offered to a bankrupt seat. */
TEST(oca_gap_bankrupt_in_setup_neither_volunteers_nor_bids)
{
    static const char *const rand4[] = {"random", "random", "random", "random"};
    static const char *const mix8[] = {"greedy", "cautious", "cautious", "greedy",
                                       "aggressive", "cautious", "greedy", "aggressive"};
    oca_rules r;
    batch b = {0};
    load(&r, "dote=1", NULL);
    play_batch(&r, 4, rand4, 300, 21, &b);
    load(&r, "capo_fee=10000", NULL);
    play_batch(&r, 8, mix8, 300, 22, &b);
    load(&r, "dote=12", NULL); /* some survive the fee, some volunteer, few can bid */
    play_batch(&r, 4, rand4, 2000, 23, &b);
    CHECK_INT(b.games, 2600);
    CHECK(b.busts > 0);
}

/* The index of the metric called name. */
static int metric(const char *name)
{
    for (int i = 0; game_oca.metrics[i].name; i++)
        if (strcmp(game_oca.metrics[i].name, name) == 0)
            return i;
    check_fail(__FILE__, __LINE__, "no metric %s", name);
    return 0;
}

/* Found by fuzzing: a bankruptcy in the setup payments was reported at turn 1 of a game that
 * ended after 0 turns. It happens before the first turn: bankruptcy_turn 0. */
TEST(oca_bankruptcy_in_the_setup_is_at_turn_0)
{
    oca_rules r;
    load(&r, "capo_fee=10000", "short_sale_offers=0", "mutual_aid_rolls=0", NULL);
    static tgame g;
    begin(&g, &r, 3, 0); /* seats 1 and 2 cannot pay the fee: only the Capo-gioco is left */
    int seat;
    CHECK_INT(pending(&g, &seat), -1);
    CHECK(g.st.bankrupt[1] && g.st.bankrupt[2]);
    CHECK_INT(g.st.turn, 0);
    recorder *rec = rec_new(&game_oca, 3, false);
    outcome o;
    game_oca.finish(&g.st, &o, rec);
    const acc *t = rec_get(rec, metric("bankruptcy_turn"), -1);
    CHECK_INT(t->n, 2);
    CHECK_INT(t->min, 0);
    CHECK_INT(t->max, 0);
    CHECK_INT(rec_get(rec, metric("bankrupt"), 1)->hits, 1);
    CHECK_INT(rec_get(rec, metric("bankrupt"), 0)->hits, 0);
    CHECK_INT(rec_get(rec, metric("bankruptcies"), -1)->sum == 2, 1);
    rec_free(rec);
}

/* Writes into buf a --set of a 37-square board whose squares 2..36 all have effect fx with
 * amount (move: to square 1), pulc Pulcinella and a card of kind card (squares 1..32). */
static const char *uniform_board(char *buf, size_t n, const char *fx, int amount, int pulc,
                                 const char *card)
{
    snprintf(buf, n, "board=[");
    for (int sq = 1; sq <= 37; sq++) {
        bool mid = sq > 1 && sq < 37;
        snprintf(buf + strlen(buf), n - strlen(buf),
                 "%s{\"name\": \"s\", \"effect\": \"%s\", \"amount\": %d, \"to\": %d, "
                 "\"pulcinella\": %d, \"card\": \"%s\"}", sq > 1 ? ", " : "",
                 mid ? fx : "none", mid ? amount : 0, mid && !strcmp(fx, "move") ? 1 : 0,
                 mid ? pulc : 0, sq <= 32 ? card : "none");
    }
    snprintf(buf + strlen(buf), n - strlen(buf), "]");
    return buf;
}

/* The invariants of play_batch (points conserved on every step, no decision to a bankrupt
 * seat, well-formed decisions, cards in step, a sane banker) on rulesets pushed to their
 * limits, as the fuzzing pass played them: every square the same effect at the largest
 * amount, Pulcinella everywhere, all jollies or no cards, the largest fees and prizes with
 * the smallest dote, the cashier's debts, a turn cap of 1. */
TEST(oca_invariant_extreme_rulesets)
{
    static const char *const mix8[] = {"aggressive", "random", "greedy", "cautious",
                                       "aggressive", "greedy", "random", "aggressive"};
    static const char *const fx[] = {"pay_bank", "receive_bank", "collect_all",
                                     "distribute_all", "again", "wait"};
    static char board[8192];
    oca_rules r;
    batch b = {0};
    for (int i = 0; i < 6; i++) {
        uniform_board(board, sizeof board, fx[i], i == 5 ? 100 : 10000, 4, "jolly");
        load(&r, board, "cards_per_player_many=4", NULL);
        play_batch(&r, 8, mix8, 40, 40 + (uint64_t)i, &b);
        uniform_board(board, sizeof board, fx[i], 1, 0, "none");
        load(&r, board, "cards_per_player=0", "cards_per_player_many=0",
             "bankrupt_pays_partial=true", "no_volunteer=\"capo\"", NULL);
        play_batch(&r, 3, mix8, 40, 50 + (uint64_t)i, &b);
    }
    load(&r, "dote=1", "capo_fee=10000", "entry_fee=10000", "banker_refund=10000",
         "declare_prize=10000", "banker_declare_hit=10000", "banker_declare_miss=10000",
         "mutual_aid_amount=10000", "mutual_aid_rolls=10", "fondo_extra=1000000", NULL);
    play_batch(&r, 8, mix8, 100, 60, &b);
    load(&r, "entry_fee=0", "banker_refund=10000", "banker_may_sit_out=false",
         "arrived_in_round=false", "short_sale_offers=20", "trade_prices=[1, 100000]", NULL);
    play_batch(&r, 5, mix8, 100, 61, &b);
    load(&r, "max_turns=1", "max_chain=1", "finish=\"any\"", "jolly_offer=\"every_move\"",
         NULL);
    play_batch(&r, 4, mix8, 100, 62, &b);
    CHECK_INT(b.games, 12 * 40 + 300);
    CHECK(b.busts > 0);
}

/* Checks of chance through the engine: a declaration hits 1 time in 6, and mutual aid (two
 * rolls at one number) saves 11 times in 36, within 5 standard errors. */
TEST(oca_known_values_declaration_and_mutual_aid_odds)
{
    oca_rules r;
    load(&r, NULL);
    static const char *const aggr4[] = {"aggressive", "aggressive", "aggressive", "random"};
    batch b = {0};
    play_batch(&r, 4, aggr4, 6000, 21, &b);
    CHECK(b.declarations > 2000);
    double p = 1.0 / 6, n = (double)b.declarations;
    CHECK_NEAR(b.hits / n, p, 5 * sqrt(p * (1 - p) / n));
    CHECK(b.aid_tries > 300);
    double q = 11.0 / 36, m = (double)b.aid_tries;
    CHECK_NEAR(b.aid_hits / m, q, 5 * sqrt(q * (1 - q) / m));
}

/* ---- the greedy bot's bank model ---------------------------------------------------------- */

/* A board of 8 squares, the goal reached by any roll that gets there ("finish": "any"), where
 * squares 2..7 each take `amount` for the bank. */
static void paying_board(oca_rules *r, int amount)
{
    char board[1024] = "board=[{\"name\": \"s\", \"effect\": \"none\", \"amount\": 0, \"to\": 0, "
                       "\"pulcinella\": 0, \"card\": \"none\"}";
    for (int i = 2; i <= 7; i++)
        snprintf(board + strlen(board), sizeof board - strlen(board),
                 ", {\"name\": \"p\", \"effect\": \"pay_bank\", \"amount\": %d, \"to\": 0, "
                 "\"pulcinella\": 0, \"card\": \"none\"}", amount);
    snprintf(board + strlen(board), sizeof board - strlen(board),
             ", {\"name\": \"g\", \"effect\": \"none\", \"amount\": 0, \"to\": 0, "
             "\"pulcinella\": 0, \"card\": \"none\"}]");
    load(r, board, "finish=\"any\"", NULL);
}

/* Known value: on the paying board a racer pays 6 on every landing but the last; the number of
 * rolls to total at least 7 with one die has mean (7/6)^6, so togo[1] = 6 ((7/6)^6 - 1). The
 * cut of m = 3 racers (the last one stops paying when the second-to-last arrives) is checked
 * against a direct simulation of three racers, within 5 standard errors. */
TEST(oca_greedy_bank_model_known_values)
{
    oca_rules r;
    paying_board(&r, 6);
    float togo[OCA_MAX_SQUARES + 1], cut[GAME_MAX_SEATS + 1];
    oca_bank_model(&r, togo, cut);
    CHECK_NEAR(togo[1], 6 * (pow(7.0 / 6, 6) - 1), 1e-4);
    CHECK_NEAR(togo[7], 0, 1e-6);
    rng g;
    rng_seed(&g, 5);
    enum { TRIALS = 200000 };
    double sum = 0, sum2 = 0;
    for (int i = 0; i < TRIALS; i++) {
        int paid[3] = {0}, len[3];
        for (int k = 0; k < 3; k++) {
            int at = 1, t = 0;
            while (at < 8) {
                at += rng_die(&g, 6);
                t++;
                paid[k] += at < 8 ? 6 : 0;
            }
            len[k] = t;
        }
        int last = len[0] >= len[1] && len[0] >= len[2] ? 0 : len[1] >= len[2] ? 1 : 2;
        int end = 0; /* the second-to-last arrival: the largest length of the other two */
        for (int k = 0; k < 3; k++)
            if (k != last && len[k] > end)
                end = len[k];
        /* the last one's landings after the end, but for his arrival, pay nothing */
        int lost = len[last] > end ? len[last] - end - 1 : 0;
        double total = paid[0] + paid[1] + paid[2] - 6.0 * lost;
        sum += total;
        sum2 += total * total;
    }
    double mean = sum / TRIALS, se = sqrt((sum2 / TRIALS - mean * mean) / TRIALS);
    CHECK_NEAR(3 * togo[1] * cut[3], mean, 5 * se);
}

/* Found by fuzzing: on a board whose goal cannot be reached (every square sends the piece back
 * to the start, one makes it wait 100 turns) with max_turns 1000000, the model of the race's
 * end followed the racers for all the million turns, about 12 s per greedy seat before the
 * first game. It stops once no racer can arrive any more, and nobody's payments are cut. */
TEST(oca_greedy_bank_model_stops_when_nobody_can_arrive)
{
    static char board[8192];
    snprintf(board, sizeof board, "board=[");
    for (int sq = 1; sq <= OCA_MAX_SQUARES; sq++) {
        bool back = sq > 1 && sq < OCA_MAX_SQUARES && sq != 7;
        snprintf(board + strlen(board), sizeof board - strlen(board),
                 "%s{\"name\": \"s\", \"effect\": \"%s\", \"amount\": %d, \"to\": %d, "
                 "\"pulcinella\": 0, \"card\": \"none\"}", sq > 1 ? ", " : "",
                 back ? "move" : sq == 7 ? "wait" : "none", sq == 7 ? 100 : 0, back ? 1 : 0);
    }
    snprintf(board + strlen(board), sizeof board - strlen(board), "]");
    oca_rules r;
    load(&r, board, "max_turns=1000000", "cards_per_player=0", "cards_per_player_many=0", NULL);
    float togo[OCA_MAX_SQUARES + 1], cut[GAME_MAX_SEATS + 1];
    /* Nobody can pass the waiting square 7 (every roll beyond it leads back to square 1), so
     * the model must stop once every racer is stuck there, long before max_turns (it used to
     * model all 1,000,000 turns). */
    int turns = oca_bank_model(&r, togo, cut);
    CHECK(turns > 0 && turns < 10000);
    for (int m = 2; m <= GAME_MAX_SEATS; m++)
        CHECK_NEAR(cut[m], 1, 1e-9);
}

/* Greedy's bids follow the bank's worth (gap choice of the bot, documented under BANK VALUE):
 * with n players the break-even bid is entry_fee - banker_refund + togo[1] cut[n] (the winner
 * pays it to each of the n - 1 others, a loser receives it), rounded down to a bid step and
 * capped by max_bid; a bank worth nothing gets no volunteer. */
TEST(oca_greedy_bids_the_banks_expected_worth)
{
    oca_rules r;
    load(&r, "auction=\"sealed\"", NULL);
    float togo[OCA_MAX_SQUARES + 1], cut[GAME_MAX_SEATS + 1];
    oca_bank_model(&r, togo, cut);
    const bot_type *gb = registry_bot(&game_oca, "greedy");
    double param[32];
    int np = 0, kmax = -1;
    for (; gb->params[np].name; np++) {
        param[np] = gb->params[np].def;
        if (strcmp(gb->params[np].name, "max_bid") == 0)
            kmax = np;
        if (strcmp(gb->params[np].name, "value_sd") == 0)
            param[np] = 0; /* the model's worth itself, without this game's error */
    }
    char ctx[4096], err[64];
    CHECK(gb->ctx_size <= sizeof ctx && kmax >= 0);
    double worth = 50 - 10 + (double)togo[1] * cut[3];
    int expect = (int)(worth / 5) * 5;
    CHECK(expect > 20 && expect < 65); /* a real bid, below the budget cap of 195 / 2 */
    for (int cap = 0; cap < 2; cap++) {
        param[kmax] = cap ? 20 : gb->params[kmax].def;
        tgame g;
        begin(&g, &r, 3, 0);
        decision d;
        rng br;
        rng_seed(&br, 3);
        for (int s = 1; s <= 2; s++) {
            CHECK_INT(gb->setup(ctx, &game_oca, &r, s, 3, param, err, sizeof err), 0);
            CHECK(game_oca.decide(&g.st, &d) && d.kind == K_VOLUNTEER && d.seat == s);
            CHECK_INT(d.action[gb->choose(ctx, &g.st, &d, &br)], 1);
            game_oca.apply(&g.st, 1, &g.ch, NULL);
        }
        CHECK_INT(gb->setup(ctx, &game_oca, &r, 1, 3, param, err, sizeof err), 0);
        CHECK(game_oca.decide(&g.st, &d) && d.kind == K_BID && d.seat == 1);
        CHECK_INT(d.action[gb->choose(ctx, &g.st, &d, &br)], cap ? 20 : expect);
    }
    load(&r, "entry_fee=0", "banker_refund=60", NULL); /* worth 3 (togo cut - 60) < 0 */
    param[kmax] = gb->params[kmax].def;
    tgame g;
    begin(&g, &r, 3, 0);
    CHECK_INT(gb->setup(ctx, &game_oca, &r, 1, 3, param, err, sizeof err), 0);
    decision d;
    rng br;
    rng_seed(&br, 3);
    CHECK(game_oca.decide(&g.st, &d) && d.kind == K_VOLUNTEER);
    CHECK_INT(d.action[gb->choose(ctx, &g.st, &d, &br)], 0);
}

/* Sets up bot `name` with its default parameters (plus one override "key", value) for
 * `seat` of an n-seat game in ctx, and returns its choice's action for the pending decision,
 * checking the decision's kind and seat. */
static int32_t bot_choice(tgame *g, const char *name, const char *key, double value, int kind,
                          int seat, uint64_t seed)
{
    const bot_type *bt = registry_bot(&game_oca, name);
    static char ctx[4096];
    double param[32];
    char err[64];
    for (int i = 0; bt->params[i].name; i++)
        param[i] = key && strcmp(bt->params[i].name, key) == 0 ? value : bt->params[i].def;
    CHECK_INT(bt->setup(ctx, &game_oca, g->st.r, seat, g->st.n, param, err, sizeof err), 0);
    decision d;
    if (!game_oca.decide(&g->st, &d) || d.kind != kind || d.seat != seat) {
        check_fail(__FILE__, __LINE__, "expected kind %d of seat %d", kind, seat);
        return -99;
    }
    rng br;
    rng_seed(&br, seed);
    return d.action[bt->choose(ctx, &g->st, &d, &br)];
}

/* Art. 7 ("il giocatore può ... azzardare un pronostico"): greedy declares when the stake pays
 * (never at 10 for 50) or when it is `gamble` (30) points or more behind the richest other
 * player. */
TEST(oca_greedy_art7_declares_when_behind)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r); /* 155, 145 */
    hooks(&g);
    turn(&g, 0, 26, 1); /* square 27 */
    turn(&g, 1, 1, 3);
    act(&g, K_TRADE, 0, 0, 0);
    CHECK_INT(bot_choice(&g, "greedy", NULL, 0, K_DECLARE, 0, 1), 0); /* ahead: no */
    drain(&g, 0, 110); /* 35 behind */
    CHECK(bot_choice(&g, "greedy", NULL, 0, K_DECLARE, 0, 1) > 0);
    CHECK_INT(bot_choice(&g, "greedy", "gamble", 0, K_DECLARE, 0, 1), 0);
}

/* Art. 10/13, the Clown's postcard of square 1: greedy plays it when the Dragon sends it back
 * to the start from far enough that the setback outweighs keeping the card. */
TEST(oca_greedy_art10_plays_the_clown_card_against_the_dragon)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r);
    hooks(&g); /* seat 0 holds 11, seat 1 holds 17 */
    set_card(&g, 1, 0);
    turn(&g, 0, 28, 3); /* 28 -> 31, the Dragon: back to 1 */
    CHECK_INT(g.st.pos[0], 1);
    CHECK_INT(bot_choice(&g, "greedy", NULL, 0, K_CANCEL_OWN, 0, 1), 1);
    act(&g, K_CANCEL_OWN, 0, 1, 0);
    CHECK_INT(g.st.pos[0], 28);
}

/* Art. 12, reactive trade: greedy as the lander offers at most what the card is worth to it
 * (the tax square costs it 10 for one square of progress worth 3: 7), about half of it; as the
 * owner it accepts or asks more, never refusing a buyer who can pay; as the lander it declines
 * an asked price above its valuation. */
TEST(oca_greedy_art12_haggles_by_the_cards_worth)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier2(&g, &r);
    hooks(&g);
    set_card(&g, 2, 1); /* square 2's card (pay 10), held by seat 1 */
    turn(&g, 0, 1, 1);
    CHECK_INT(bot_choice(&g, "greedy", NULL, 0, K_REACT_OFFER, 0, 1), 5);
    act(&g, K_REACT_OFFER, 0, 5, 0);
    int32_t ask = bot_choice(&g, "greedy", NULL, 0, K_REACT_ANSWER, 1, 1);
    CHECK(ask == 1 || ask >= 10);
    act(&g, K_REACT_ANSWER, 1, 10, 0);
    CHECK_INT(bot_choice(&g, "greedy", NULL, 0, K_REACT_COUNTER, 0, 1), 0);
    act(&g, K_REACT_COUNTER, 0, 0, 0);
    CHECK_INT(g.st.holder[r.square_card[2]], 1);
    CHECK_INT(pts(&g, 0), 155 - 10); /* no sale: the square is paid */
}

/* Art. 12 and 13 as greedy plays them (trade=1: it considers a trade every turn): a buy offer
 * starts where it expects the owner to sell (the card's worth to him, at least the reserve of
 * 15: the Dragon's card is dead for an owner past square 31) and, refused, is raised one price
 * level the next time, up to the card's worth to the buyer (the Dragon's setback, capped at
 * buy_max 30); cards whose squares can no longer come into play are dead, and two of them go
 * to the deck for a new one. */
TEST(oca_greedy_art12_art13_raises_offers_and_exchanges_dead_cards)
{
    oca_rules r;
    load(&r, "finish=\"any\"", NULL);
    tgame g;
    begin_cashier2(&g, &r); /* 155, 145 */
    hooks(&g);             /* seat 0 holds 11, seat 1 holds 17 */
    set_card(&g, 31, 1);   /* the Dragon's card, held by seat 1 ... */
    set_card(&g, 17, HOLD_OUT); /* ... and nothing else */
    g.st.pos[1] = 33;
    const bot_type *gb = registry_bot(&game_oca, "greedy");
    static char ctx[4096];
    double param[32];
    char err[64];
    for (int i = 0; gb->params[i].name; i++)
        param[i] = strcmp(gb->params[i].name, "trade") == 0 ? 1 : gb->params[i].def;
    CHECK_INT(gb->setup(ctx, &game_oca, &r, 0, 2, param, err, sizeof err), 0);
    rng br;
    rng_seed(&br, 5);
    int c31 = r.square_card[31];
    for (int round = 0; round < 3; round++) {
        decision d;
        CHECK(game_oca.decide(&g.st, &d) && d.kind == K_TRADE && d.seat == 0);
        int32_t kind = d.action[gb->choose(ctx, &g.st, &d, &br)];
        CHECK(round < 2 ? kind == TR_BUY : kind != TR_BUY); /* never 60 */
        if (round == 2)
            break;
        act(&g, K_TRADE, 0, TR_BUY, 0);
        CHECK(game_oca.decide(&g.st, &d) && d.kind == K_TRADE_OFFER);
        int32_t a = d.action[gb->choose(ctx, &g.st, &d, &br)];
        CHECK_INT(a, OCA_TRADE(TR_BUY, c31, 1, 1 + round)); /* 15, then 30 */
        act(&g, K_TRADE_OFFER, 0, a, 0);
        act(&g, K_SELL_CARD, 1, 0, 1, 3 + round); /* refused; seat 0 to 4, then 8 */
        if (round == 0)
            turn(&g, 1, 0, 1); /* seat 1 to the well: it waits two turns */
    }
    /* dead cards: square 2's (negative) and 5's (positive) behind every racer */
    set_card(&g, 31, HOLD_OUT);
    set_card(&g, 2, 0);
    set_card(&g, 5, 0);
    g.st.pos[0] = 30;
    g.st.pos[1] = 30;
    act(&g, K_TRADE, 0, 0, 1, 3); /* to square 33; seat 1 waits */
    decision d;
    CHECK(game_oca.decide(&g.st, &d) && d.kind == K_TRADE && d.seat == 0);
    CHECK_INT(d.action[gb->choose(ctx, &g.st, &d, &br)], TR_EXCHANGE);
}

/* Greedy takes over a failed bank ("chi si impegnerà a coprire la perdita") only when the
 * payments still to come from the racers, as the model sees them, exceed the loss to cover. */
TEST(oca_greedy_takes_over_a_failed_bank_by_its_worth)
{
    oca_rules r;
    load(&r, NULL);
    float togo[OCA_MAX_SQUARES + 1], cut[GAME_MAX_SEATS + 1];
    oca_bank_model(&r, togo, cut);
    const bot_type *gb = registry_bot(&game_oca, "greedy");
    double param[32];
    for (int i = 0; gb->params[i].name; i++)
        param[i] = gb->params[i].def;
    char ctx[4096], err[64];
    for (int cheap = 0; cheap < 2; cheap++) {
        tgame g;
        fail_the_bank(&g, &r); /* seat 0 (on 13) is owed 20; seats 0 and 2 (on 1) race */
        if (cheap)
            g.st.takeover_loss = 5; /* as if the failed banker had paid all but 5 */
        double worth = ((double)togo[13] + togo[1]) * cut[2] - g.st.takeover_loss;
        CHECK(cheap ? worth > 0 : worth < 0);
        CHECK_INT(gb->setup(ctx, &game_oca, &r, 2, 3, param, err, sizeof err), 0);
        decision d;
        rng br;
        rng_seed(&br, 3);
        CHECK(game_oca.decide(&g.st, &d) && d.kind == K_TAKE_OVER_BANK && d.seat == 2);
        CHECK_INT(d.action[gb->choose(ctx, &g.st, &d, &br)], worth > 0);
    }
}

/* ---- bad board files ------------------------------------------------------------------------ */

/* Loads the default ruleset with one override and returns the loader's error ("" if none). */
static const char *load_error(const char *set, int nseats)
{
    static char err[256];
    cJSON *j = cJSON_Parse(game_oca.default_rules);
    char key[64];
    const char *eq = strchr(set, '=');
    snprintf(key, sizeof key, "%.*s", (int)(eq - set), set);
    cJSON *obj = j;
    char *leaf = key;
    int sq;
    if (sscanf(key, "board.%d.", &sq) == 1) {
        obj = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "board"), sq - 1);
        leaf = strchr(key + 6, '.') + 1;
    }
    cJSON *v = cJSON_Parse(eq + 1);
    if (!cJSON_ReplaceItemInObjectCaseSensitive(obj, leaf, v))
        cJSON_AddItemToObject(obj, leaf, v);
    static oca_rules r;
    err[0] = '\0';
    if (game_oca.rules_load(&r, j, err, sizeof err) == 0)
        game_oca.rules_check(&r, nseats, err, sizeof err);
    cJSON_Delete(j);
    return err;
}

/* Plays `games` games of the bots `names` under r from freshly set-up contexts, the runner's
 * way (a seat chooses only among two or more actions), calling each bot's begin after every
 * deal if with_begin; returns a digest of every choice and of the final points. */
static uint64_t play_digest(const oca_rules *r, int n, const char *const *names, int games,
                            bool with_begin)
{
    const bot_type *bt[GAME_MAX_SEATS];
    static char ctx[GAME_MAX_SEATS][BOT_CTX];
    static oca_state st;
    set_up_bots(r, n, names, -1, bt, ctx);
    uint64_t h = 1469598103934665603ull;
    decision d;
    for (int i = 0; i < games; i++) {
        rng ch, br[GAME_MAX_SEATS];
        rng_seed_stream(&ch, 5, (uint64_t)i, RNG_STREAM_CHANCE);
        for (int s = 0; s < n; s++)
            rng_seed_stream(&br[s], 5, (uint64_t)i, RNG_STREAM_SEAT(s));
        game_oca.start(&st, r, n, &ch, NULL);
        for (int s = 0; s < n && with_begin; s++)
            if (bt[s]->begin)
                bt[s]->begin(ctx[s], &st);
        while (game_oca.decide(&st, &d)) {
            int k = d.n > 1 ? bt[d.seat]->choose(ctx[d.seat], &st, &d, &br[d.seat]) : 0;
            h = (h ^ (uint64_t)(k + 1)) * 1099511628211ull;
            game_oca.apply(&st, d.action[k], &ch, NULL);
        }
        for (int s = 0; s < n; s++)
            h = (h ^ (uint64_t)oca_points(&st, s)) * 1099511628211ull;
    }
    return h;
}

/* The bots' valuation cache (keyed by the facts a card's value depends on, not by the turn)
 * gives, at every decision of seeded games of every oca bot, the values a recomputation
 * gives, within the bounds that spare valuations (at most vmax, at least a dead card's
 * worth); and it is used (values found filled). */
TEST(oca_bots_value_cache_agrees_with_recomputation)
{
    static const char *const mix[] = {"greedy", "aggressive", "cautious", "greedy",
                                      "aggressive", "greedy"};
    for (int variant = 0; variant < 2; variant++) {
        oca_rules r;
        load(&r, variant ? "arrived_in_round=true" : NULL, NULL);
        int n = variant ? 6 : 4;
        const bot_type *bt[GAME_MAX_SEATS];
        static char ctx[GAME_MAX_SEATS][BOT_CTX];
        set_up_bots(&r, n, mix, -1, bt, ctx);
        static oca_state st;
        int64_t hits = 0, bad = 0, looks = 0;
        for (int i = 0; i < 40; i++) {
            rng ch, br[GAME_MAX_SEATS];
            rng_seed_stream(&ch, 99, (uint64_t)i, RNG_STREAM_CHANCE);
            for (int s = 0; s < n; s++)
                rng_seed_stream(&br[s], 99, (uint64_t)i, RNG_STREAM_SEAT(s));
            game_oca.start(&st, &r, n, &ch, NULL);
            decision d;
            while (game_oca.decide(&st, &d)) {
                int k = bt[d.seat]->choose(ctx[d.seat], &st, &d, &br[d.seat]);
                for (int s = 0; s < n; s++, looks++)
                    bad += oca_bot_check_values(ctx[s], &st, &hits);
                game_oca.apply(&st, d.action[k], &ch, NULL);
            }
        }
        CHECK_INT(bad, 0);
        CHECK(looks > 1000 && hits > 0);
    }
}

/* The bots' short cuts (oca_bots.h) give, at every trade window, every list of offers, every
 * offer answered, every reactive offer and every choice about the bank at the start of seeded
 * games of every oca bot, under several rulesets and trading often, the answers of the full
 * computation; and they are taken (each kind compared, not just skipped). */
TEST(oca_bots_short_cuts_agree_with_the_full_computation)
{
    static const char *const mix[] = {"greedy", "aggressive", "cautious", "greedy",
                                      "aggressive", "greedy"};
    static const char *const sets[] = {NULL, "arrived_in_round=true",
                                       "trade_prices=[1, 2, 4, 8, 16, 32, 64, 128]"};
    int64_t bad = 0, windows = 0, offers = 0, answers = 0, bank = 0, reacts = 0;
    for (int variant = 0; variant < 3; variant++) {
        oca_rules r;
        load(&r, sets[variant], NULL);
        int n = variant == 1 ? 6 : 4;
        const bot_type *bt[GAME_MAX_SEATS];
        static char ctx[GAME_MAX_SEATS][BOT_CTX];
        set_up_bots(&r, n, mix, variant != 1 ? 0.8 : -1, bt, ctx); /* 0.8: trade often */
        static oca_state st;
        for (int i = 0; i < 60; i++) {
            rng ch, br[GAME_MAX_SEATS];
            rng_seed_stream(&ch, 77, (uint64_t)i, RNG_STREAM_CHANCE);
            for (int s = 0; s < n; s++)
                rng_seed_stream(&br[s], 77, (uint64_t)i, RNG_STREAM_SEAT(s));
            game_oca.start(&st, &r, n, &ch, NULL);
            decision d;
            while (game_oca.decide(&st, &d)) {
                /* an offer is checked before the bot remembers it, the rest once its game
                 * has begun (at its first choice) */
                bool before = d.kind == K_TRADE_OFFER;
                int same = before ? oca_bot_check_short_cuts(ctx[d.seat], &st, &d) : -1;
                int k = bt[d.seat]->choose(ctx[d.seat], &st, &d, &br[d.seat]);
                if (!before)
                    same = oca_bot_check_short_cuts(ctx[d.seat], &st, &d);
                bad += same == 0;
                windows += same >= 0 && d.kind == K_TRADE;
                offers += same >= 0 && d.kind == K_TRADE_OFFER;
                answers += same >= 0 && (d.kind == K_BUY_CARD || d.kind == K_SELL_CARD);
                bank += same >= 0 && (d.kind == K_VOLUNTEER || d.kind == K_BID);
                reacts += same >= 0 && d.kind == K_REACT_OFFER;
                game_oca.apply(&st, d.action[k], &ch, NULL);
            }
        }
    }
    CHECK_INT(bad, 0);
    CHECK(windows > 1000 && offers > 1000 && answers > 1000 && bank > 100 && reacts > 100);
}

/* The runner announces every game to the bots by begin (game.h), which starts the game's own
 * memory and valuation error at the seat's first choice; a caller without begin (a test, a
 * search's playouts) gets the same games by the bots' own detection of a new deal. */
TEST(oca_bots_begin_and_their_own_new_game_detection_agree)
{
    oca_rules r;
    load(&r, NULL);
    static const char *const mix[] = {"greedy", "aggressive", "cautious", "greedy"};
    CHECK(registry_bot(&game_oca, "greedy")->begin != NULL);
    CHECK(play_digest(&r, 4, mix, 300, true) == play_digest(&r, 4, mix, 300, false));
}

TEST(oca_bad_board_files_are_rejected_naming_the_key)
{
    CHECK_STR(load_error("dote=200", 4), "");
    CHECK_STR(load_error("bogus=1", 4), "ruleset key 'bogus': unknown key");
    CHECK_STR(load_error("board.13.amount=-5", 4),
              "ruleset key 'board[12].amount': expected an integer in 0..10000");
    CHECK(strstr(load_error("board.4.effect=\"fly\"", 4), "'board[3].effect'") != NULL);
    CHECK(strstr(load_error("board.6.to=99", 4), "'board[5].to'") != NULL);
    CHECK(strstr(load_error("board.6.to=6", 4), "'board[5].to'") != NULL);
    CHECK(strstr(load_error("board.37.effect=\"pay_bank\"", 4), "'board[36].effect'") != NULL);
    CHECK(strstr(load_error("board.10.card=\"gold\"", 4), "'board[9].card'") != NULL);
    CHECK(strstr(load_error("board.10.colour=1", 4), "'board[9].colour': unknown") != NULL);
    CHECK(strstr(load_error("board.10.source=\"folklore\"", 4), "'board[9].source'") != NULL);
    CHECK(strstr(load_error("board.10.note=3", 4), "'board[9].note'") != NULL);
    CHECK(strstr(load_error("board=[]", 4), "'board'") != NULL);
    CHECK(strstr(load_error("trade_prices=[5, 0]", 4), "'trade_prices[1]'") != NULL);
    CHECK(strstr(load_error("finish=\"never\"", 4), "'finish'") != NULL);
    CHECK(strstr(load_error("dote=\"lots\"", 4), "'dote'") != NULL);
    CHECK(strstr(load_error("cards_per_player=5", 5), "'cards_per_player'") != NULL);
    CHECK(strstr(load_error("cards_per_player_many=4", 6), "'cards_per_player_many'") != NULL);
}

/* Found by fuzzing: the trade rules take trade_prices[0] as the lowest price (whether a sale
 * or a purchase can be offered at all, which prices a buyer can pay), and a price given twice
 * counted each sale at that price twice in card_price. Prices must strictly increase. */
TEST(oca_trade_prices_must_increase)
{
    CHECK_STR(load_error("trade_prices=[30, 5]", 4),
              "ruleset key 'trade_prices[1]': prices must increase (5 after 30)");
    CHECK_STR(load_error("trade_prices=[5, 15, 15]", 4),
              "ruleset key 'trade_prices[2]': prices must increase (15 after 15)");
    CHECK_STR(load_error("trade_prices=[60]", 4), "");
    CHECK_STR(load_error("trade_prices=[1, 2, 100000]", 4), "");
}

/* ---- the manual ------------------------------------------------------------------------------- */

/* The man page names every ruleset key, decision kind, end kind, metric, bot and bot knob. */
TEST(oca_manual_documents_every_key_kind_metric_and_knob)
{
    char err[256];
    char *man = rules_read_file("man/giochi-sim-oca.7", err, sizeof err);
    CHECK(man != NULL);
    if (man == NULL)
        return;
    cJSON *j = cJSON_Parse(game_oca.default_rules);
    for (const cJSON *m = j->child; m; m = m->next)
        if (!strstr(man, m->string))
            check_fail(__FILE__, __LINE__, "ruleset key %s undocumented", m->string);
    cJSON_Delete(j);
    for (int i = 0; game_oca.kind_names[i]; i++)
        if (!strstr(man, game_oca.kind_names[i]))
            check_fail(__FILE__, __LINE__, "kind %s undocumented", game_oca.kind_names[i]);
    for (int i = 0; game_oca.end_names[i]; i++)
        if (!strstr(man, game_oca.end_names[i]))
            check_fail(__FILE__, __LINE__, "end %s undocumented", game_oca.end_names[i]);
    for (int i = 0; game_oca.metrics[i].name; i++)
        if (!strstr(man, game_oca.metrics[i].name))
            check_fail(__FILE__, __LINE__, "metric %s undocumented", game_oca.metrics[i].name);
    for (int b = 0; game_oca.bots[b]; b++) {
        const bot_type *bt = game_oca.bots[b];
        if (!strstr(man, bt->name))
            check_fail(__FILE__, __LINE__, "bot %s undocumented", bt->name);
        for (int k = 0; bt->params && bt->params[k].name; k++)
            if (!strstr(man, bt->params[k].name))
                check_fail(__FILE__, __LINE__, "knob %s undocumented", bt->params[k].name);
    }
    free(man);
}

/* A move onto the goal is a move too: a jolly sends the arriving player back. */
TEST(oca_art11_jolly_cancels_an_arrival)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin_cashier3(&g, &r);
    set_card(&g, 23, 1);
    turn(&g, 0, 36, 1);
    act(&g, K_JOLLY, 1, 1, 0);
    CHECK_INT(g.st.pos[0], 36);
    CHECK(!g.st.arrived[0]);
    CHECK_INT(g.st.in_race, 3);
}

/* Gap: whether the banker may stay out of the race ("potrà partecipare") is an option. */
TEST(oca_gap_banker_must_play_when_sitting_out_is_off)
{
    oca_rules r;
    load(&r, "banker_may_sit_out=false", NULL);
    tgame g;
    begin(&g, &r, 3, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    act(&g, K_VOLUNTEER, 2, 0, 0);
    int seat;
    CHECK_INT(pending(&g, &seat), K_TRADE); /* no banker_plays decision */
    CHECK(g.st.playing[1]);
    CHECK_INT(pts(&g, 1), 195 + 100 - 20);
}

/* Gap: with two players the banker cannot sit out, or one player would race alone. */
TEST(oca_gap_banker_plays_when_two_players)
{
    oca_rules r;
    load(&r, NULL);
    tgame g;
    begin(&g, &r, 2, 0);
    act(&g, K_VOLUNTEER, 1, 1, 0);
    int seat;
    CHECK_INT(pending(&g, &seat), K_TRADE);
    CHECK(g.st.playing[1]);
    CHECK_INT(g.st.in_race, 2);
}
