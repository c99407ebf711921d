/* oca_keys.c — one line for each key of the Gioco dell'Oca ruleset (configs/oca.json; the
 * articles of seed 000 they follow, or the gap they settle). */
#include "games/oca/oca.h"

const rule_doc oca_rule_docs[] = {
    {"dote", "points the Fondo Generale pays each player at the start (art. 2)"},
    {"fondo_extra", "points the Fondo Generale holds beyond the dotes (art. 2)"},
    {"capo_fee", "points each player pays the Capo-gioco (art. 1)"},
    {"entry_fee", "points each player but the banker pays the bank to enter square 1 (art. 5)"},
    {"banker_refund", "points the banker pays each other player to join the race (art. 5)"},
    {"banker_may_sit_out", "the banker may stay out of the race (false: he always plays)"},
    {"declare_stake", "a player's stake to the bank for a declaration on Pulcinella (art. 7)"},
    {"declare_prize", "what the bank pays a declaration that comes up (art. 7)"},
    {"banker_declare_hit", "what each other player pays a banker whose declaration comes up"},
    {"banker_declare_miss", "what a banker whose declaration misses pays each other player"},
    {"mutual_aid_amount", "what each other player gives a player short of points whose "
                          "mutual-aid number comes up (art. 8)"},
    {"mutual_aid_rolls", "rolls of the die a mutual aid gets (art. 8)"},
    {"cards_per_player", "postcards dealt to each player (art. 10)"},
    {"cards_per_player_many", "postcards dealt to each player with more than many_players"},
    {"many_players", "above this many players, cards_per_player_many are dealt"},
    {"bid_step", "bank auction bids are in steps of this many points (art. 3)"},
    {"bid_max", "the highest bank auction bid, points to each other player (art. 3)"},
    {"auction", "the bank auction: open and rising, or one sealed first-price offer each"},
    {"auction_tie", "open auction: the first to offer a sum holds it (first), or a bidder may "
                    "match it and the die settles equal highest offers (die)"},
    {"bid_paid", "the bank's first winner pays his bid before the entry fees reach him "
                 "(before_fees), or after them, so that they count towards his bid"},
    {"trading", "players trade postcards at the start of their turns (art. 12)"},
    {"reactive_trades", "right after a landing the lander may offer for the card that "
                        "cancels or punishes it (art. 12)"},
    {"trade_prices", "the prices of postcard sales, increasing (art. 8 and 12)"},
    {"short_sale_offers", "card offers a player short of points may make per shortfall"},
    {"finish", "the goal needs the exact roll, the excess walks back (bounce), or any roll "
               "that reaches it (art. 6)"},
    {"no_volunteer", "nobody volunteers as banker: the Capo-gioco is cashier, or must be "
                     "banker (capo)"},
    {"bankrupt_pays_partial", "a bankrupt first pays his creditor what he holds (art. 8)"},
    {"arrived_in_round", "players who reached the goal still pay and collect in the round"},
    {"jolly_offer", "jollies are offered after moves onto effect squares, or after every move"},
    {"max_turns", "a game still running after this many turns stops (end turn_cap)"},
    {"max_chain", "effects that move a piece chain at most this many times in one turn"},
    {"board", "the squares, start to goal: see the board[].* keys and oca(7) THE BOARD"},
    {"board[].name", "the square's name"},
    {"board[].effect", "what landing on it does (amount points or turns, to a square)"},
    {"board[].amount", "points paid or received, or turns waited"},
    {"board[].to", "the target square of a move effect"},
    {"board[].pulcinella", "Pulcinella figures on it (each gives a declaration)"},
    {"board[].card", "the kind of the square's postcard, or none"},
    {"board[].source", "optional: where the square comes from, the rule text or a "
                       "reconstruction"},
    {"board[].note", "optional: a note for readers (where the square's effect comes from)"},
    {NULL, NULL},
};
