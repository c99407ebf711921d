/* oca_rules.c — loads and checks the Gioco dell'Oca ruleset (seed 000): every amount of the
 * economy and the board of squares, from configs/oca.json or a user's file. */
#include <stdio.h>
#include <string.h>

#include "games/oca/oca.h"
#include "config/rules.h"

static const char *const top_keys[] = {
    "dote", "fondo_extra", "capo_fee", "entry_fee", "banker_refund", "banker_may_sit_out",
    "declare_stake", "declare_prize", "banker_declare_hit", "banker_declare_miss",
    "mutual_aid_amount", "mutual_aid_rolls", "cards_per_player", "cards_per_player_many",
    "many_players", "bid_step", "bid_max", "auction", "auction_tie", "bid_paid", "trading", "reactive_trades", "trade_prices", "short_sale_offers",
    "finish", "no_volunteer", "bankrupt_pays_partial", "arrived_in_round", "jolly_offer",
    "max_turns", "max_chain",
    "board", NULL};
static const char *const square_keys[] = {"name", "effect", "amount", "to", "pulcinella", "card",
                                          "source", "note", NULL};
static const char *const source_names[] = {"text", "reconstruction", NULL};
static const char *const effect_names[] = {"none", "pay_bank", "receive_bank", "collect_all",
                                           "distribute_all", "move", "again", "wait", NULL};
static const char *const card_names[] = {"none", "positive", "negative", "neutral", "jolly",
                                         NULL};
static const char *const finish_names[] = {"bounce", "any", NULL};
static const char *const novol_names[] = {"cashier", "capo", NULL};
static const char *const jolly_names[] = {"effect_squares", "every_move", NULL};
static const char *const auction_names[] = {"open", "sealed", NULL};
static const char *const tie_names[] = {"first", "die", NULL};
static const char *const bid_paid_names[] = {"before_fees", "after_fees", NULL};

/* Reads an integer key into an int field. */
static int get(const cJSON *o, const char *path, const char *key, long lo, long hi, int *out,
               char *err, size_t errlen)
{
    long v;
    if (rules_int(o, path, key, lo, hi, &v, err, errlen))
        return -1;
    *out = (int)v;
    return 0;
}

/* Reads the amounts and options (everything but the board). */
static int load_economy(oca_rules *r, const cJSON *j, char *err, size_t e)
{
    if (get(j, "", "dote", 1, 100000, &r->dote, err, e) ||
        get(j, "", "fondo_extra", 0, 1000000, &r->fondo_extra, err, e) ||
        get(j, "", "capo_fee", 0, 10000, &r->capo_fee, err, e) ||
        get(j, "", "entry_fee", 0, 10000, &r->entry_fee, err, e) ||
        get(j, "", "banker_refund", 0, 10000, &r->banker_refund, err, e) ||
        rules_bool(j, "", "banker_may_sit_out", &r->banker_may_sit_out, err, e) ||
        get(j, "", "declare_stake", 0, 10000, &r->declare_stake, err, e) ||
        get(j, "", "declare_prize", 0, 10000, &r->declare_prize, err, e) ||
        get(j, "", "banker_declare_hit", 0, 10000, &r->banker_declare_hit, err, e) ||
        get(j, "", "banker_declare_miss", 0, 10000, &r->banker_declare_miss, err, e) ||
        get(j, "", "mutual_aid_amount", 0, 10000, &r->mutual_aid_amount, err, e) ||
        get(j, "", "mutual_aid_rolls", 0, 10, &r->mutual_aid_rolls, err, e) ||
        get(j, "", "cards_per_player", 0, OCA_MAX_CARDS, &r->cards_per_player, err, e) ||
        get(j, "", "cards_per_player_many", 0, OCA_MAX_CARDS, &r->cards_per_player_many, err,
            e) ||
        get(j, "", "many_players", 1, GAME_MAX_SEATS, &r->many_players, err, e) ||
        get(j, "", "bid_step", 1, 1000, &r->bid_step, err, e) ||
        get(j, "", "bid_max", 0, 100000, &r->bid_max, err, e) ||
        rules_enum(j, "", "auction", auction_names, &r->auction, err, e) ||
        rules_enum(j, "", "auction_tie", tie_names, &r->auction_tie, err, e) ||
        rules_enum(j, "", "bid_paid", bid_paid_names, &r->bid_paid, err, e) ||
        rules_bool(j, "", "trading", &r->trading, err, e) ||
        rules_bool(j, "", "reactive_trades", &r->reactive_trades, err, e) ||
        get(j, "", "short_sale_offers", 0, 20, &r->short_sale_offers, err, e) ||
        rules_enum(j, "", "finish", finish_names, &r->finish, err, e) ||
        rules_enum(j, "", "no_volunteer", novol_names, &r->no_volunteer, err, e) ||
        rules_bool(j, "", "bankrupt_pays_partial", &r->bankrupt_pays_partial, err, e) ||
        rules_bool(j, "", "arrived_in_round", &r->arrived_in_round, err, e) ||
        rules_enum(j, "", "jolly_offer", jolly_names, &r->jolly_offer, err, e) ||
        get(j, "", "max_turns", 1, 1000000, &r->max_turns, err, e) ||
        get(j, "", "max_chain", 1, 64, &r->max_chain, err, e))
        return -1;
    if (r->bid_max / r->bid_step > GAME_MAX_ACTIONS - 2) /* bids 0..max and "drop out" */
        return rules_error(err, e, "", "bid_max", "at most %d bid steps (bid_step %d)",
                           GAME_MAX_ACTIONS - 2, r->bid_step);
    long p[OCA_MAX_PRICES];
    if (rules_int_array(j, "", "trade_prices", 1, OCA_MAX_PRICES, 1, 100000, p, &r->nprices,
                        err, e))
        return -1;
    for (int i = 0; i < r->nprices; i++) {
        char key[32];
        snprintf(key, sizeof key, "trade_prices.%d", i + 1); /* counted from 1, as --set */
        if (i > 0 && p[i] <= p[i - 1]) /* the trade rules take price[0] as the lowest */
            return rules_error(err, e, "", key, "prices must increase (%ld after %ld)", p[i],
                               p[i - 1]);
        r->price[i] = (int)p[i];
    }
    return 0;
}

/* Reads board[i] (square i + 1). */
static int load_square(oca_rules *r, const cJSON *o, int i, int nsq, char *err, size_t e)
{
    char path[32];
    snprintf(path, sizeof path, "board.%d", i + 1); /* square i + 1, as --set names it */
    if (rules_only_keys(o, path, square_keys, err, e))
        return -1;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
    if (!cJSON_IsString(name))
        return rules_error(err, e, path, "name", "expected a string");
    /* provenance, for readers only (optional): where the square's effect comes from */
    const cJSON *note = cJSON_GetObjectItemCaseSensitive(o, "note");
    if (note && !cJSON_IsString(note))
        return rules_error(err, e, path, "note", "expected a string");
    int source;
    if (cJSON_GetObjectItemCaseSensitive(o, "source") &&
        rules_enum(o, path, "source", source_names, &source, err, e))
        return -1;
    int fx, card, amount, to, pulc;
    if (rules_enum(o, path, "effect", effect_names, &fx, err, e) ||
        get(o, path, "amount", 0, 10000, &amount, err, e) ||
        get(o, path, "to", 0, nsq, &to, err, e) ||
        get(o, path, "pulcinella", 0, 4, &pulc, err, e) ||
        rules_enum(o, path, "card", card_names, &card, err, e))
        return -1;
    if (fx == FX_MOVE && (to < 1 || to == i + 1))
        return rules_error(err, e, path, "to", "a move needs a target square 1..%d other than %d",
                           nsq, i + 1);
    if ((i == 0 || i == nsq - 1) && fx != FX_NONE)
        return rules_error(err, e, path, "effect", "the start and the goal take no effect");
    if (i == nsq - 1 && (card != CARD_NONE || pulc))
        return rules_error(err, e, path, "card", "the goal square has no card nor Pulcinella");
    if (fx == FX_WAIT && amount > 100)
        return rules_error(err, e, path, "amount", "a wait is 0..100 turns");
    oca_square *s = &r->sq[i + 1];
    *s = (oca_square){(uint8_t)fx, (uint8_t)card, (uint8_t)pulc, (uint8_t)to, amount};
    r->square_card[i + 1] = OCA_NO_CARD;
    if (card != CARD_NONE) {
        if (r->ncards == OCA_MAX_CARDS)
            return rules_error(err, e, path, "card", "more than %d cards", OCA_MAX_CARDS);
        r->square_card[i + 1] = r->ncards;
        if (card == CARD_JOLLY)
            r->jolly_mask |= 1u << r->ncards;
        if (card == CARD_NEUTRAL)
            r->neutral_mask |= 1u << r->ncards;
        r->card_square[r->ncards++] = i + 1;
    }
    return 0;
}

/* Loads the whole ruleset; see game_type.rules_load. */
int oca_rules_load(void *rules, const cJSON *json, char *err, size_t errlen)
{
    oca_rules *r = rules;
    memset(r, 0, sizeof *r);
    if (rules_only_keys(json, "", top_keys, err, errlen) || load_economy(r, json, err, errlen))
        return -1;
    const cJSON *b = rules_array(json, "", "board", 8, OCA_MAX_SQUARES, err, errlen);
    if (b == NULL)
        return -1;
    r->nsquares = cJSON_GetArraySize(b);
    int i = 0;
    for (const cJSON *o = b->child; o; o = o->next, i++)
        if (load_square(r, o, i, r->nsquares, err, errlen))
            return -1;
    return 0;
}

/* Checks the deal fits the deck for nseats; see game_type.rules_check. */
int oca_rules_check(const void *rules, int nseats, char *err, size_t errlen)
{
    const oca_rules *r = rules;
    int k = nseats > r->many_players ? r->cards_per_player_many : r->cards_per_player;
    const char *key = nseats > r->many_players ? "cards_per_player_many" : "cards_per_player";
    if (k * nseats > r->ncards)
        return rules_error(err, errlen, "", key, "%d players x %d cards exceed the %d cards",
                           nseats, k, r->ncards);
    return 0;
}
