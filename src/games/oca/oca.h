/* oca.h — private interface of the Gioco dell'Oca with bank and postcards (seed 000): the
 * rules, the state and the helpers its bots use. Not part of the game contract. */
#ifndef GIOCHI_OCA_H
#define GIOCHI_OCA_H

#include <stdbool.h>
#include <stdint.h>

#include "core/course.h"
#include "core/game.h"
#include "games/oca/ledger.h"

/* The default ruleset: configs/oca.json, embedded byte for byte at build time
 * (tools/embed.sh). */
extern const char config_oca_json[];

enum {
    OCA_MAX_SQUARES = 64,
    OCA_MAX_CARDS = 32,
    OCA_MAX_PRICES = 8,
    OCA_MAX_OPS = 96,
    OCA_MAX_DEBTS = 32,
    OCA_NO_CARD = -1,
};

/* Square effects (board[i].effect). */
typedef enum oca_effect {
    FX_NONE,
    FX_PAY_BANK,       /* the lander pays `amount` to the bank */
    FX_RECEIVE_BANK,   /* the bank pays `amount` to the lander */
    FX_COLLECT_ALL,    /* every other player in the round pays `amount` to the lander */
    FX_DISTRIBUTE_ALL, /* the lander pays `amount` to every other player in the round */
    FX_MOVE,           /* the lander moves to square `to` (and lands there) */
    FX_AGAIN,          /* the lander moves on again by the same roll */
    FX_WAIT,           /* the lander skips `amount` turns */
} oca_effect;

/* Card polarity (board[i].card). */
typedef enum oca_card_kind {
    CARD_NONE,
    CARD_POSITIVE,
    CARD_NEGATIVE,
    CARD_NEUTRAL,
    CARD_JOLLY,
} oca_card_kind;

typedef struct oca_square {
    uint8_t effect, card, pulcinella, to; /* to: target square of FX_MOVE */
    int32_t amount;
} oca_square;

enum { FINISH_BOUNCE, FINISH_ANY };
enum { AUCTION_INITIAL, AUCTION_TAKEOVER }; /* oca_state.auction_kind */
enum { AUC_OPEN, AUC_SEALED }; /* oca_rules.auction: the form of the auction */
/* oca_rules.auction_tie: in the open auction, the first to offer a sum holds it (a bid must
 * beat the standing one), or a bidder may also offer the standing sum and the die settles
 * equal highest offers */
enum { TIE_FIRST, TIE_DIE };
/* oca_rules.bid_paid: the initial auction's winner pays his bid before the entry fees reach
 * him (they do not count towards what he can bid) or after them (they do) */
enum { BID_BEFORE_FEES, BID_AFTER_FEES };
/* An open auction's "drop out" action (K_BID); every other K_BID action is a bid. */
enum { OCA_DROP = -1 };
enum { NOVOL_CASHIER, NOVOL_CAPO };
/* Why a seat went bankrupt (oca_stats.bankrupt_square, the metric bankruptcy_square): who he
 * was and what he could not pay. A square N (1..nsquares): a player not the bank, paying on
 * square N (his own landing, or another's on a collect_all square); OCA_RUIN_BANK + N: the
 * banker, paying on square N (what the bank owes a racer who landed there, or, racing, his
 * own landing); the declarations' payments by who paid them; 0: anything else (fees, bids,
 * aid, covering a failed bank). */
enum {
    OCA_RUIN_BANKER_MISS = -4, /* the banker: his own declaration missed (art. 7) */
    OCA_RUIN_PRIZE = -3,       /* the banker: a player's declaration came up */
    OCA_RUIN_BANKER_HIT = -2,  /* a player: the banker's declaration came up */
    OCA_RUIN_STAKE = -1,       /* a player: his own declaration's stake */
    OCA_RUIN_OTHER = 0,
    OCA_RUIN_BANK = 100,
};
enum { JOLLY_EFFECT_SQUARES, JOLLY_EVERY_MOVE };

typedef struct oca_rules {
    int dote, fondo_extra, capo_fee, entry_fee, banker_refund;
    bool banker_may_sit_out;
    int declare_stake, declare_prize, banker_declare_hit, banker_declare_miss;
    int mutual_aid_amount, mutual_aid_rolls;
    int cards_per_player, cards_per_player_many, many_players;
    int bid_step, bid_max, auction, auction_tie, bid_paid;
    bool trading, reactive_trades;
    int nprices, price[OCA_MAX_PRICES];
    int short_sale_offers;
    int finish, no_volunteer, jolly_offer;
    bool bankrupt_pays_partial, arrived_in_round;
    int max_turns, max_chain;
    int nsquares; /* squares 1..nsquares; square nsquares is the goal */
    oca_square sq[OCA_MAX_SQUARES + 1]; /* 1-based */
    int ncards;
    int card_square[OCA_MAX_CARDS]; /* card id -> its square */
    int square_card[OCA_MAX_SQUARES + 1]; /* square -> card id, or OCA_NO_CARD */
    uint32_t jolly_mask, neutral_mask;    /* bit c: card c is a jolly / neutral */
} oca_rules;

/* Ledger accounts: seats 0..7, then these. ACC_BANK is not an account: it names "the bank",
 * resolved when a payment is made (the banker's own points, or the cashier's till). */
enum { ACC_CASHIER = GAME_MAX_SEATS, ACC_FONDO, OCA_ACCOUNTS, ACC_BANK = 15 };

/* Card holders besides seats. */
enum { HOLD_DECK = -1, HOLD_SPENT = -2, HOLD_OUT = -3 };

/* Decision kinds (indexes into oca kind_names). */
typedef enum oca_kind {
    K_VOLUNTEER,
    K_BID,
    K_BANKER_PLAYS,
    K_TRADE,
    K_BUY_CARD,
    K_SELL_CARD,
    K_SWAP,
    K_DECLARE,
    K_CANCEL_OWN,
    K_CANCEL_OPPONENT,
    K_JOLLY,
    K_COUNTER_JOLLY,
    K_SHORT_SALE,
    K_MUTUAL_AID,
    K_TAKE_OVER_BANK,
    K_TRADE_OFFER,
    K_REACT_OFFER,   /* reactive trade: the lander's price for the card of his square */
    K_REACT_ANSWER,  /* its owner: refuse (0), accept (1) or ask a higher price */
    K_REACT_COUNTER, /* the lander: take the asked price (1) or not (0) */
    K_COUNT,
} oca_kind;

/* Trade action codes: type << 24 | a << 16 | b << 8 | price index. 0 is "pass". */
enum { TR_PASS, TR_SELL, TR_BUY, TR_SWAP, TR_EXCHANGE };
#define OCA_TRADE(t, a, b, p) (((t) << 24) | ((a) << 16) | ((b) << 8) | (p))
#define OCA_TR_TYPE(x) (((x) >> 24) & 0xff)
#define OCA_TR_A(x) (((x) >> 16) & 0xff)
#define OCA_TR_B(x) (((x) >> 8) & 0xff)
#define OCA_TR_P(x) ((x) & 0xff)

/* One pending step of the game engine (a small stack of these drives play). */
typedef struct oca_op {
    uint8_t type;
    int8_t seat;  /* payer account for payments; acting or asked seat otherwise */
    int8_t a;     /* payee account, target square, auction purpose, ... */
    int8_t stage; /* progress inside the step */
    uint8_t each; /* a payment to several seats (bit s: seat s), `amount` to each; 0: to `a` */
    int16_t reason, detail;
    int32_t amount;
} oca_op;

/* The whole amount a payment step asks of its payer: one loss, whatever the number of
 * creditors (article 8). */
static inline int64_t oca_op_due(const oca_op *o)
{
    return o->each ? (int64_t)o->amount * __builtin_popcount(o->each) : o->amount;
}

/* A card offer under consideration (trade, short sale). */
typedef struct oca_offer {
    int8_t type, from, to, card, card2; /* TR_* ; from: who offered; to: owner asked (-1: table) */
    int32_t price;
} oca_offer;

typedef struct oca_debt {
    int8_t creditor;
    int32_t amount;
} oca_debt;

/* Per-game counters for the metrics. */
typedef struct oca_stats {
    int volunteers, auction, bidders, winning_bid, auction_winner;
    int first_banker, banker_played, cashier_from_start, cashier_later, takeovers;
    uint8_t volunteer_set; /* the seats that volunteered for the bank at the start */
    int declarations[GAME_MAX_SEATS], declare_hits[GAME_MAX_SEATS];
    int declare_net[GAME_MAX_SEATS];
    int aid_tries, aid_hits;
    int bankrupt_turn[GAME_MAX_SEATS]; /* turn of the bankruptcy (0: in the setup payments) */
    int16_t bankrupt_square[GAME_MAX_SEATS]; /* why he was ruined: OCA_RUIN_* */
    int cancel_own, cancel_opponent, jolly, counter_jolly;
    int trades, trade_value, swaps, exchanges, short_sales;
    int react_offers, react_counters, react_trades;
    int nsales;
    int16_t sale_price[16]; /* the prices of the first 16 sales */
} oca_stats;

typedef struct oca_state {
    const oca_rules *r;
    int n;
    ledger led;
    int capo, banker;     /* banker: seat or -1 (then the cashier is the bank) */
    bool cashier;         /* the Capo-gioco runs the bank as a cashier */
    int8_t pos[GAME_MAX_SEATS];
    int8_t waiting[GAME_MAX_SEATS];
    int8_t declare_left[GAME_MAX_SEATS];
    bool playing[GAME_MAX_SEATS];  /* takes part in the race (false: banker sitting out) */
    bool bankrupt[GAME_MAX_SEATS];
    bool arrived[GAME_MAX_SEATS];
    bool aid_used[GAME_MAX_SEATS];
    int8_t arrival[GAME_MAX_SEATS]; /* arrival order, 1-based; 0: not arrived */
    int8_t bust_order[GAME_MAX_SEATS];
    int narrived, nbust, in_race;
    uint32_t members; /* bit s: playing and not bankrupt (in the round of collections) */
    uint32_t racing;  /* bit s: a member who has not reached the goal */
    uint32_t solvent; /* bit s: seat s is not bankrupt (mirrors bankrupt[]) */
    int8_t holder[OCA_MAX_CARDS];  /* seat, HOLD_DECK, HOLD_SPENT, HOLD_OUT */
    uint32_t hand[GAME_MAX_SEATS]; /* bit c: seat holds card c (mirrors holder) */
    uint32_t held;                 /* bit c: some seat holds card c */
    int8_t deck[OCA_MAX_CARDS];    /* shuffled undealt cards; deck_top is the next */
    int deck_top;
    /* the current turn */
    int turn, mover, from, roll, declared, chain, last_turn_seat;
    bool cancelled;
    int8_t phase; /* PH_* (oca_engine.h): where the mover's own turn stands */
    /* auctions and takeovers */
    uint8_t bidders;
    int auction_kind;
    int bid[GAME_MAX_SEATS];        /* each bidder's last bid (0: none yet) */
    int high_bid, high_bidder;      /* open auction: the bid to beat (-1: none yet) and who */
    uint8_t high_set;               /* ... first offered it, and all who offered it (TIE_DIE) */
    bool bid_due;                   /* BID_AFTER_FEES: the winner pays his bid after the fees */
    int takeover_loss;                  /* a failed bank's unpaid loss, in all */
    int takeover_owed[GAME_MAX_SEATS];  /* ... and each creditor's part of it */
    oca_offer offer;
    /* the short sale in progress: 1 + the price index at which each card's offer was refused
     * (0: not refused); a refused card is offered again only for less */
    int8_t short_refused[OCA_MAX_CARDS];
    /* start() zeroes the state from capo up to here (the rules, n and the ledger before capo
     * it sets itself); the fields below it sets one by one (the debts and the steps are
     * written before they are read): a new field goes between capo and here */
    oca_debt debt[OCA_MAX_DEBTS];
    int ndebts;
    bool over;
    int end; /* END_* */
    int nops;
    oca_op op[OCA_MAX_OPS];
    decision pend; /* the pending decision, built when the engine stops */
    oca_stats s;
    course course; /* the points after every turn (see oca_standing) */
} oca_state;

enum { END_FINISH, END_BANKRUPTCIES, END_TURN_CAP };

/* game_type.view_json (oca_json.c): the position as JSON for bots outside the process. */
void oca_view_json(const void *seen, int seat, jsonw *w);
/* game_type.view_draw (oca_json.c): the track, points and bank for a person at the terminal. */
void oca_view_draw(const void *before, const void *seen, int seat, FILE *f);

/* True if board entry sq (a square's JSON object of the ruleset) moves points by an amount
 * that is a reconstruction, not the rule text's (its "source" is "reconstruction", or its
 * note says the amount is one): the amounts a figure of the report rests on beyond the text. */
bool oca_square_reconstructed(const cJSON *sq);

/* game_type.depends (oca_depends.c): what the bankruptcy rate and the winning bid of report r
 * rest on beyond the rule text (the bots, the reconstructed amounts and the ruins they made,
 * the caps a bid meets), and the reconstructed amounts' keys. */
cJSON *oca_depends(const cJSON *r);

/* Points held by seat (its ledger balance). */
static inline int64_t oca_points(const oca_state *st, int seat)
{
    return st->led.balance[seat];
}

/* Loads and validates a ruleset (oca_rules.c); see game_type.rules_load and rules_check. */
int oca_rules_load(void *rules, const cJSON *json, char *err, size_t errlen);
int oca_rules_check(const void *rules, int nseats, char *err, size_t errlen);

/* Rough value in points of the effect of square sq to a player who lands on it (positive:
 * good for him), given whether he is the banker and how many `others` share the round with
 * him; squares that move count `per_square` points per square gained, and the goal ten
 * squares' worth. A function of the rules alone, so that bots can tabulate it. */
static inline int oca_square_worth(const oca_rules *r, int sq, int per_square, bool banker,
                                   int others)
{
    if (sq == r->nsquares) /* arriving: worth a good stretch of the board */
        return per_square * 10;
    const oca_square *q = &r->sq[sq];
    switch (q->effect) {
    case FX_PAY_BANK:
        return banker ? 0 : -q->amount;
    case FX_RECEIVE_BANK:
        return banker ? 0 : q->amount;
    case FX_COLLECT_ALL:
        return q->amount * others;
    case FX_DISTRIBUTE_ALL:
        return -q->amount * others;
    case FX_MOVE:
        return per_square * (q->to - sq);
    case FX_AGAIN:
        return per_square * 3;
    case FX_WAIT:
        return -per_square * 3 * q->amount;
    }
    return 0;
}

/* The players in the round of seat's collections and distributions other than seat himself
 * (see in_round). */
static inline int oca_round_others(const oca_state *st, int seat)
{
    uint32_t round = st->r->arrived_in_round ? st->members : st->racing; /* see in_round */
    return __builtin_popcount(round & ~(1u << seat));
}

/* oca_square_worth of square sq to `seat` landing on it now (inline: the bots ask it many
 * times a decision). */
static inline int oca_square_value(const oca_state *st, int seat, int sq, int per_square)
{
    return oca_square_worth(st->r, sq, per_square, seat == st->banker,
                            oca_round_others(st, seat));
}

/* Sum of what the cashier still owes (article 8: debts paid in order as money comes in). */
int64_t oca_unpaid_debts(const oca_state *st);

/* Moves card to holder h (a seat or HOLD_*), keeping the hands in step with holder[]. Inline:
 * the deal and every trade move cards. */
static inline void oca_give(oca_state *st, int card, int h)
{
    int old = st->holder[card];
    if (old >= 0)
        st->hand[old] &= ~(1u << card);
    if (h >= 0)
        st->hand[h] |= 1u << card;
    st->held = h >= 0 ? st->held | 1u << card : st->held & ~(1u << card);
    st->holder[card] = (int8_t)h;
}

/* Number of cards seat holds. */
int oca_cards_held(const oca_state *st, int seat);

/* The greedy bot's model of the bank (oca_bots.c), from the board alone (no cards): togo[p]
 * (p in 1..nsquares) is what a racer on square p is expected to pay the bank, net, before he
 * reaches the goal; cut[m] (m in 0..GAME_MAX_SEATS) the share of m racers' payments made
 * before the game ends at the second-to-last arrival. Fills the caller's arrays; returns the
 * number of turns of the race it modelled (it stops once every racer has arrived or nobody
 * still racing can arrive, and at max_turns at the latest). */
int oca_bank_model(const oca_rules *r, float *togo, float *cut);

/* game_type.exact (oca_exact.c): a new JSON object of the bank model for the run's seat count,
 * from oca_bank_model: togo_start (togo[1]), cut (by racers, 2..8), and for a banker who races
 * and, when he may, one who sits out: racers, racer_pays (togo[1] cut[racers]), bank_worth,
 * break_even_bid (bank_worth / players) and bid (that, down to a bid step). The seats' bots do
 * not enter it. */
cJSON *oca_exact(const void *rules, const seat_bots *seats);

/* A check of an oca bot's valuation cache (oca_bots.c), for tests: ctx is a context of
 * cautious, greedy or aggressive set up under st's rules. Values every card for every seat of
 * st through the bot's cache and afresh, and returns how many values disagree, exceed the
 * bot's bound on card values (vmax) or fall below the least a card is worth now (a dead
 * card's worth); adds to *hits the values the cache already held. */
int oca_bot_check_values(void *ctx, const oca_state *st, int64_t *hits);

/* The bots of this game (oca_bots.c). */
extern const bot_type oca_bot_cautious, oca_bot_greedy, oca_bot_greedy_2026, oca_bot_aggressive;

/* One line for each ruleset key (oca_keys.c; game_type.rule_docs). */
extern const rule_doc oca_rule_docs[];

#endif
