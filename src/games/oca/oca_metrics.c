/* oca_metrics.c — Gioco dell'Oca (seed 000): the outcome of a game (article 9's ranking) and
 * the metrics it records. */
#include <stdlib.h>
#include <string.h>

#include "games/oca/oca_engine.h"
#include "core/course_rec.h"
#include "core/recorder.h"
#include "core/hot.h"

enum metric {
    M_BANKRUPT, M_PLAYERS_BANKRUPT, M_BANKRUPT_ANY, M_BANKRUPT_COUNT, M_BANKRUPT_TURN, M_BANKRUPT_SQUARE, M_AID_TRIES, M_AID_SUCCESS,
    M_VOLUNTEERS, M_NO_VOLUNTEER, M_AUCTION, M_AUCTION_BIDDERS, M_WINNING_BID,
    M_AUCTION_WINNER, M_WINNER_EDGE, M_BANKER, M_BANKER_PLAYS, M_BANKER_NET, M_BANKER_BANKRUPT, M_TAKEOVER,
    M_CASHIER, M_CASHIER_LATER, M_CASHIER_UNPAID, M_CASHIER_TILL, M_CAPO, M_CAPO_WIN, M_CAPO_NET,
    M_OTHERS_NET, M_NET, M_DECLARATIONS, M_DECLARATIONS_GAME, M_DECLARE_HIT, M_DECLARE_NET, M_CANCEL_OWN,
    M_CANCEL_OPP, M_JOLLY, M_COUNTER, M_JOLLIES_USED, M_TRADES, M_TRADE_PRICE, M_SWAPS,
    M_EXCHANGES, M_REACT_OFFERS, M_REACT_COUNTERS, M_REACT_TRADES, M_SHORT_SALES, M_FONDO_END, M_TURN_CAP, M_ARRIVAL,
    M_VOLUNTEERED, M_NOT_BANKER_BANKRUPT, M_CAPO_BANKRUPT, M_BANKER_WIN, M_LOSER_WIN,
    M_LOSER_NET, M_LOSER_BANKRUPT, M_OTHER_WIN, M_OTHER_NET, M_OTHER_BANKRUPT,
    M_BANK_NET, M_NET_BID, /* M_NET_BID + b: the bid bin b of OCA_BID_BINS */
    M_COURSE = M_NET_BID + OCA_BID_BINS, /* the course metrics (core/course.h) */
};

/* the nets of points, and the ruin square's code (-1: a declaration's payment) */
const char *const oca_signed_metrics[] = {
    "auction_winner_edge", "banker_net", "capo_net", "others_net", "net", "declaration_net",
    "role_volunteer_net", "role_other_net", "bank_net", "bankruptcy_square", "auction_net_0",
    "auction_net_10", "auction_net_20", "auction_net_30", "auction_net_40", "auction_net_50",
    "auction_net_60", "auction_net_70", "auction_net_80", "auction_net_90", "auction_net_100",
    NULL};

const metric_def oca_metrics[] = {
    [M_BANKRUPT] = {"bankrupt", METRIC_RATE, METRIC_SEAT, "the seat went bankrupt"},
    [M_PLAYERS_BANKRUPT] = {"players_bankrupt", METRIC_RATE, METRIC_GAME,
                            "share of all players going bankrupt"},
    [M_BANKRUPT_ANY] = {"bankruptcy_any", METRIC_RATE, METRIC_GAME,
                        "games with at least one bankruptcy"},
    [M_BANKRUPT_COUNT] = {"bankruptcies", METRIC_MEAN, METRIC_GAME, "bankruptcies per game"},
    [M_BANKRUPT_TURN] = {"bankruptcy_turn", METRIC_MEAN, METRIC_GAME,
                         "turn at which a bankruptcy happens (one value per bankruptcy; 0: "
                         "in the setup payments)"},
    [M_BANKRUPT_SQUARE] = {"bankruptcy_square", METRIC_MEAN, METRIC_SEAT,
                           "why the seat went bankrupt (games where it did): a square N, "
                           "paying on it as a player; 100 + N, paying on it as the banker; -1 "
                           "a declaration's stake, -2 the banker's declaration, -3 a prize the "
                           "banker paid, -4 the banker's own declaration missed; 0 any other "
                           "cause; the distribution ruin_square counts the ruins by cause"},
    [M_AID_TRIES] = {"mutual_aid_attempts", METRIC_MEAN, METRIC_GAME,
                     "mutual aid attempts per game"},
    [M_AID_SUCCESS] = {"mutual_aid_success", METRIC_RATE, METRIC_GAME,
                       "mutual aid attempts that hit the declared number"},
    [M_VOLUNTEERS] = {"bank_volunteers", METRIC_MEAN, METRIC_GAME,
                      "players volunteering for the bank"},
    [M_NO_VOLUNTEER] = {"no_volunteer", METRIC_RATE, METRIC_GAME,
                        "games where nobody volunteered for the bank"},
    [M_AUCTION] = {"auction", METRIC_RATE, METRIC_GAME, "games with a bank auction"},
    [M_AUCTION_BIDDERS] = {"auction_bidders", METRIC_MEAN, METRIC_GAME,
                           "bidders in the bank auction (games with one)"},
    [M_WINNING_BID] = {"winning_bid", METRIC_MEAN, METRIC_GAME,
                       "winning bid of the bank auction, paid to each other player"},
    [M_AUCTION_WINNER] = {"auction_winner", METRIC_RATE, METRIC_SEAT,
                          "the seat won the bank auction (games with one)"},
    [M_WINNER_EDGE] = {"auction_winner_edge", METRIC_MEAN, METRIC_GAME,
                        "auction winner's final points minus the mean of the other players' "
                        "(games with an auction; below 0: the winner's curse)"},
    [M_BANKER] = {"banker", METRIC_RATE, METRIC_SEAT, "the seat was the first banker"},
    [M_BANKER_PLAYS] = {"banker_plays", METRIC_RATE, METRIC_GAME,
                        "the first banker joined the race (games with a banker)"},
    [M_BANKER_NET] = {"banker_net", METRIC_MEAN, METRIC_GAME,
                      "first banker's final points minus the dote (games with a banker)"},
    [M_BANKER_BANKRUPT] = {"banker_bankrupt", METRIC_RATE, METRIC_GAME,
                           "the first banker went bankrupt (games with a banker)"},
    [M_TAKEOVER] = {"bank_takeovers", METRIC_MEAN, METRIC_GAME,
                    "failed banks taken over by a player, per game"},
    [M_CASHIER] = {"cashier_from_start", METRIC_RATE, METRIC_GAME,
                   "the bank was a cashier from the start (no volunteer)"},
    [M_CASHIER_LATER] = {"cashier_after_failure", METRIC_RATE, METRIC_GAME,
                         "a failed bank found no taker and became a cashier"},
    [M_CASHIER_UNPAID] = {"cashier_unpaid", METRIC_MEAN, METRIC_GAME,
                          "cashier's unpaid debts at the end (games with a cashier)"},
    [M_CASHIER_TILL] = {"cashier_till", METRIC_MEAN, METRIC_GAME,
                        "points in the cashier's till at the end (games with a cashier)"},
    [M_CAPO] = {"capo", METRIC_RATE, METRIC_SEAT, "the seat was the Capo-gioco"},
    [M_CAPO_WIN] = {"capo_win", METRIC_RATE, METRIC_GAME, "the Capo-gioco won (alone or tied)"},
    [M_CAPO_NET] = {"capo_net", METRIC_MEAN, METRIC_GAME,
                    "Capo-gioco's final points minus the dote"},
    [M_OTHERS_NET] = {"others_net", METRIC_MEAN, METRIC_GAME,
                      "final points minus the dote of each player other than the Capo-gioco"},
    [M_NET] = {"net", METRIC_MEAN, METRIC_SEAT, "final points minus the dote"},
    [M_DECLARATIONS] = {"declarations", METRIC_MEAN, METRIC_SEAT, "declarations the seat made, per game"},
    [M_DECLARATIONS_GAME] = {"declarations_game", METRIC_MEAN, METRIC_GAME,
                             "declarations made in the game, by all players"},
    [M_DECLARE_HIT] = {"declaration_hit", METRIC_RATE, METRIC_SEAT, "declarations that hit"},
    [M_DECLARE_NET] = {"declaration_net", METRIC_MEAN, METRIC_SEAT,
                       "net points from the seat's declarations per game (stakes, prizes, banker's)"},
    [M_CANCEL_OWN] = {"plays_cancel_own", METRIC_MEAN, METRIC_GAME,
                      "postcards played to cancel one's own negative square, per game"},
    [M_CANCEL_OPP] = {"plays_cancel_opponent", METRIC_MEAN, METRIC_GAME,
                      "postcards played against an opponent's positive square, per game"},
    [M_JOLLY] = {"plays_jolly", METRIC_MEAN, METRIC_GAME, "jollies played to cancel a move"},
    [M_COUNTER] = {"plays_counter_jolly", METRIC_MEAN, METRIC_GAME,
                   "jollies played to cancel another postcard's play"},
    [M_JOLLIES_USED] = {"jollies_used", METRIC_MEAN, METRIC_GAME,
                      "jollies used per game (moves and counters)"},
    [M_TRADES] = {"card_sales", METRIC_MEAN, METRIC_GAME, "postcards sold per game"},
    [M_TRADE_PRICE] = {"card_price", METRIC_MEAN, METRIC_GAME, "price of each postcard sold (the first 16 of a game)"},
    [M_SWAPS] = {"card_swaps", METRIC_MEAN, METRIC_GAME, "postcard swaps per game"},
    [M_EXCHANGES] = {"exchanges_2_for_1", METRIC_MEAN, METRIC_GAME,
                     "two-for-one exchanges with the deck per game"},
    [M_REACT_OFFERS] = {"react_offers", METRIC_MEAN, METRIC_GAME,
                         "reactive offers for the postcard of a square just landed on, per game"},
    [M_REACT_COUNTERS] = {"react_counters", METRIC_MEAN, METRIC_GAME,
                           "reactive offers answered with a higher price, per game"},
    [M_REACT_TRADES] = {"react_trades", METRIC_MEAN, METRIC_GAME,
                         "reactive offers that ended in a sale, per game (also in card_sales)"},
    [M_SHORT_SALES] = {"short_sale_offers", METRIC_MEAN, METRIC_GAME,
                       "postcards offered by players short of points"},
    [M_FONDO_END] = {"fondo_end", METRIC_MEAN, METRIC_GAME, "Fondo Generale at the end"},
    [M_TURN_CAP] = {"turn_cap", METRIC_RATE, METRIC_GAME, "games stopped by max_turns"},
    [M_ARRIVAL] = {"arrival", METRIC_MEAN, METRIC_SEAT,
                   "place in the order of arrival at the goal (games where the seat arrived)"},
    [M_VOLUNTEERED] = {"volunteered", METRIC_RATE, METRIC_SEAT,
                       "the seat volunteered for the bank at the start (article 3)"},
    [M_NOT_BANKER_BANKRUPT] = {"players_bankrupt_not_banker", METRIC_RATE, METRIC_GAME,
                               "share of the players other than the first banker going bankrupt"},
    /* the roles of a game (giochi-sim-oca(7), ROLES): the Capo-gioco, the first banker, the
     * volunteers who did not get the bank, and the other players */
    [M_CAPO_BANKRUPT] = {"role_capo_bankrupt", METRIC_RATE, METRIC_GAME,
                         "the Capo-gioco went bankrupt"},
    [M_BANKER_WIN] = {"role_banker_win", METRIC_RATE, METRIC_GAME,
                      "the first banker won, alone or tied (games with a banker)"},
    [M_LOSER_WIN] = {"role_volunteer_win", METRIC_RATE, METRIC_GAME,
                     "a volunteer who did not get the bank won, alone or tied (one trial each)"},
    [M_LOSER_NET] = {"role_volunteer_net", METRIC_MEAN, METRIC_GAME,
                     "final points minus the dote of each volunteer who did not get the bank"},
    [M_LOSER_BANKRUPT] = {"role_volunteer_bankrupt", METRIC_RATE, METRIC_GAME,
                          "a volunteer who did not get the bank went bankrupt (one trial each)"},
    [M_OTHER_WIN] = {"role_other_win", METRIC_RATE, METRIC_GAME,
                     "a player who was neither Capo-gioco, banker nor volunteer won, alone or "
                     "tied (one trial each)"},
    [M_OTHER_NET] = {"role_other_net", METRIC_MEAN, METRIC_GAME,
                     "final points minus the dote of each player who was neither Capo-gioco, "
                     "banker nor volunteer"},
    [M_OTHER_BANKRUPT] = {"role_other_bankrupt", METRIC_RATE, METRIC_GAME,
                          "a player who was neither Capo-gioco, banker nor volunteer went "
                          "bankrupt (one trial each)"},
    [M_BANK_NET] = {"bank_net", METRIC_MEAN, METRIC_SEAT,
                    "final points minus the dote, games where the seat was the first banker"},
#define NET_BID(b, name, range)                                                                \
    [M_NET_BID + (b)] = {name, METRIC_MEAN, METRIC_GAME,                                      \
                         "auction winner's final points minus the dote, auctions won with a " \
                         "bid of " range}
    NET_BID(0, "auction_net_0", "0..9"),
    NET_BID(1, "auction_net_10", "10..19"),
    NET_BID(2, "auction_net_20", "20..29"),
    NET_BID(3, "auction_net_30", "30..39"),
    NET_BID(4, "auction_net_40", "40..49"),
    NET_BID(5, "auction_net_50", "50..59"),
    NET_BID(6, "auction_net_60", "60..69"),
    NET_BID(7, "auction_net_70", "70..79"),
    NET_BID(8, "auction_net_80", "80..89"),
    NET_BID(9, "auction_net_90", "90..99"),
    NET_BID(10, "auction_net_100", "100 or more"),
#undef NET_BID
    COURSE_METRIC_DEFS,
    {NULL, 0, 0, NULL},
};
_Static_assert(M_COURSE + COURSE_NMETRICS == sizeof oca_metrics / sizeof oca_metrics[0] - 1,
               "a metric per bin of the winning bid, then the course's");

void oca_standing(const void *vst, int64_t *out)
{
    const oca_state *st = vst;
    for (int s = 0; s < st->n; s++)
        out[s] = st->bankrupt[s] ? -1 : st->led.balance[s];
}

/* Ranking of article 9: most points first (winners share rank 1), then arrival order, then
 * players still on the board (furthest first), then a banker who sat out of the race, then the
 * bankrupt (last to fail first). "Sarà dichiarato vincitore il giocatore che risulterà in
 * possesso del maggior numero di punti": every player of the game is ranked, the banker who
 * sat out too, and can win. */
static int64_t rank_key(const oca_state *st, int s, uint32_t winners)
{
    if (winners >> s & 1)
        return 0;
    if (st->arrived[s] && !st->bankrupt[s])
        return 100 + st->arrival[s];
    if (!st->bankrupt[s])
        return st->playing[s] ? 1000 - st->pos[s] : 1500;
    return 2000 - st->bust_order[s];
}

static void outcome_of(const oca_state *st, outcome *o)
{
    memset(o, 0, sizeof *o);
    o->nseats = st->n;
    o->length = st->turn;
    o->end = st->end;
    int64_t best = -1;
    for (int s = 0; s < st->n; s++) {
        o->score[s] = st->led.balance[s];
        if (st->bankrupt[s])
            continue;
        if (o->score[s] > best) {
            best = o->score[s];
            o->winners = 0;
        }
        if (o->score[s] == best)
            o->winners |= 1u << s;
    }
    int64_t key[GAME_MAX_SEATS];
    for (int s = 0; s < st->n; s++)
        key[s] = rank_key(st, s, o->winners);
    for (int s = 0; s < st->n; s++) {
        int r = 1;
        for (int j = 0; j < st->n; j++)
            r += key[j] < key[s];
        o->rank[s] = r;
    }
}

/* Records the game's figures into the batch b (see rec_batch in recorder.h). Inline in both
 * cases of record. */
static GIOCHI_INLINE void record_into(const oca_state *st, const outcome *o, rec_batch b)
{
    const oca_stats *x = &st->s;
    int dote = st->r->dote, busts = 0, declared = 0, banker = x->first_banker;
    for (int s = 0; s < st->n; s++) {
        bool bust = st->bankrupt[s];
        busts += bust;
        rec_batch_rate(&b, M_BANKRUPT, s, bust, 1);
        if (bust) {
            rec_batch_value(&b, M_BANKRUPT_TURN, -1, x->bankrupt_turn[s]);
            rec_batch_value(&b, M_BANKRUPT_SQUARE, s, x->bankrupt_square[s]);
        }
        declared += x->declarations[s];
        rec_batch_rate(&b, M_BANKER, s, s == banker, 1);
        rec_batch_rate(&b, M_CAPO, s, s == st->capo, 1);
        rec_batch_value(&b, M_NET, s, o->score[s] - dote);
        rec_batch_value(&b, M_DECLARATIONS, s, x->declarations[s]);
        rec_batch_rate(&b, M_DECLARE_HIT, s, x->declare_hits[s], x->declarations[s]);
        rec_batch_value(&b, M_DECLARE_NET, s, x->declare_net[s]);
        if (x->auction)
            rec_batch_rate(&b, M_AUCTION_WINNER, s, s == x->auction_winner, 1);
        if (s != st->capo)
            rec_batch_value(&b, M_OTHERS_NET, -1, o->score[s] - dote);
        if (st->arrival[s] > 0)
            rec_batch_value(&b, M_ARRIVAL, s, st->arrival[s]);
        if (s == banker)
            rec_batch_value(&b, M_BANK_NET, s, o->score[s] - dote);
        /* the seat's role: Capo-gioco, first banker, losing volunteer, or another player */
        bool won = o->winners >> s & 1, volunteered = x->volunteer_set >> s & 1;
        rec_batch_rate(&b, M_VOLUNTEERED, s, volunteered, 1);
        if (s != banker)
            rec_batch_rate(&b, M_NOT_BANKER_BANKRUPT, -1, bust, 1);
        if (s == st->capo)
            rec_batch_rate(&b, M_CAPO_BANKRUPT, -1, bust, 1);
        if (s == banker)
            rec_batch_rate(&b, M_BANKER_WIN, -1, won, 1);
        else if (volunteered) {
            rec_batch_rate(&b, M_LOSER_WIN, -1, won, 1);
            rec_batch_value(&b, M_LOSER_NET, -1, o->score[s] - dote);
            rec_batch_rate(&b, M_LOSER_BANKRUPT, -1, bust, 1);
        } else if (s != st->capo) {
            rec_batch_rate(&b, M_OTHER_WIN, -1, won, 1);
            rec_batch_value(&b, M_OTHER_NET, -1, o->score[s] - dote);
            rec_batch_rate(&b, M_OTHER_BANKRUPT, -1, bust, 1);
        }
    }
    rec_batch_value(&b, M_DECLARATIONS_GAME, -1, declared);
    rec_batch_rate(&b, M_PLAYERS_BANKRUPT, -1, busts, st->n);
    rec_batch_rate(&b, M_BANKRUPT_ANY, -1, busts > 0, 1);
    rec_batch_value(&b, M_BANKRUPT_COUNT, -1, busts);
    rec_batch_value(&b, M_AID_TRIES, -1, x->aid_tries);
    rec_batch_rate(&b, M_AID_SUCCESS, -1, x->aid_hits, x->aid_tries);
    rec_batch_value(&b, M_VOLUNTEERS, -1, x->volunteers);
    rec_batch_rate(&b, M_NO_VOLUNTEER, -1, x->volunteers == 0, 1);
    rec_batch_rate(&b, M_AUCTION, -1, x->auction, 1);
    if (x->auction) {
        rec_batch_value(&b, M_AUCTION_BIDDERS, -1, x->bidders);
        rec_batch_value(&b, M_WINNING_BID, -1, x->winning_bid);
        int64_t others = 0;
        for (int s = 0; s < st->n; s++)
            others += s != x->auction_winner ? o->score[s] : 0;
        double edge = (double)o->score[x->auction_winner] - (double)others / (st->n - 1);
        rec_batch_value(&b, M_WINNER_EDGE, -1, (int64_t)(edge < 0 ? edge - 0.5 : edge + 0.5));
        int bin = x->winning_bid / 10 < OCA_BID_BINS - 1 ? x->winning_bid / 10 : OCA_BID_BINS - 1;
        rec_batch_value(&b, M_NET_BID + bin, -1, o->score[x->auction_winner] - dote);
    }
    if (banker >= 0) {
        rec_batch_rate(&b, M_BANKER_PLAYS, -1, x->banker_played, 1);
        rec_batch_value(&b, M_BANKER_NET, -1, o->score[banker] - dote);
        rec_batch_rate(&b, M_BANKER_BANKRUPT, -1, st->bankrupt[banker], 1);
    }
    rec_batch_value(&b, M_TAKEOVER, -1, x->takeovers);
    rec_batch_rate(&b, M_CASHIER, -1, x->cashier_from_start, 1);
    rec_batch_rate(&b, M_CASHIER_LATER, -1, x->cashier_later, 1);
    if (st->cashier) {
        rec_batch_value(&b, M_CASHIER_UNPAID, -1, oca_unpaid_debts(st));
        rec_batch_value(&b, M_CASHIER_TILL, -1, st->led.balance[ACC_CASHIER]);
    }
    rec_batch_rate(&b, M_CAPO_WIN, -1, o->winners >> st->capo & 1, 1);
    rec_batch_value(&b, M_CAPO_NET, -1, o->score[st->capo] - dote);
    rec_batch_value(&b, M_CANCEL_OWN, -1, x->cancel_own);
    rec_batch_value(&b, M_CANCEL_OPP, -1, x->cancel_opponent);
    rec_batch_value(&b, M_JOLLY, -1, x->jolly);
    rec_batch_value(&b, M_COUNTER, -1, x->counter_jolly);
    rec_batch_value(&b, M_JOLLIES_USED, -1, x->jolly + x->counter_jolly);
    rec_batch_value(&b, M_TRADES, -1, x->trades);
    for (int i = 0; i < x->nsales; i++)
        rec_batch_value(&b, M_TRADE_PRICE, -1, x->sale_price[i]);
    rec_batch_value(&b, M_REACT_OFFERS, -1, x->react_offers);
    rec_batch_value(&b, M_REACT_COUNTERS, -1, x->react_counters);
    rec_batch_value(&b, M_REACT_TRADES, -1, x->react_trades);
    rec_batch_value(&b, M_SWAPS, -1, x->swaps);
    rec_batch_value(&b, M_EXCHANGES, -1, x->exchanges);
    rec_batch_value(&b, M_SHORT_SALES, -1, x->short_sales);
    rec_batch_value(&b, M_FONDO_END, -1, st->led.balance[ACC_FONDO]);
    rec_batch_rate(&b, M_TURN_CAP, -1, st->end == END_TURN_CAP, 1);
    course_record(&st->course, o->winners, &b, M_COURSE);
}

/* Records the game's figures, in one batch. Without the per-game figures (a batch's usual
 * case) the batch says so in a constant, which spares every record its test of them. */
static void record(const oca_state *st, const outcome *o, recorder *rec)
{
    rec_batch b = rec_batch_open(rec, oca_metrics);
    if (b.gsum != NULL) {
        record_into(st, o, b);
    } else {
        b.gsum = b.gcnt = NULL;
        record_into(st, o, b);
    }
}

void oca_finish(const void *vst, outcome *o, recorder *rec)
{
    const oca_state *st = vst;
    outcome_of(st, o);
    if (rec)
        record(st, o, rec);
}
