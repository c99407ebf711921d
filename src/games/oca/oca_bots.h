/* oca_bots.h — checks of the oca bots' short cuts against their full computation, for tests
 * (the bots themselves are reached through the registry, see oca.h). */
#ifndef GIOCHI_OCA_BOTS_H
#define GIOCHI_OCA_BOTS_H

#include "core/game.h"
#include "games/oca/oca.h"

/* A check of a bot's short cuts in st (d as the engine lists it there): ctx is a context of
 * cautious, greedy or aggressive set up under st's rules, that has already chosen in st's game
 * (it reckons the game's bank worth at its first choice). At a K_TRADE_OFFER, whether the
 * offer the bot finds from the cards alone and looks up (the engine's lists increase) is the
 * one it finds by reading every offer; at a K_TRADE, whether the kind of trade it picks with
 * its bounds sparing valuations is the one it picks valuing the cards, and whether its draw
 * of the window, compared unscaled, decides as the scaled draw would; at a K_BUY_CARD or a
 * K_SELL_CARD, whether its answer where the card's bound decides is its answer by the card's
 * value; at a K_REACT_OFFER, whether the price it offers, read up to half the card's worth
 * (the engine's prices increase), is the one it finds by reading every price up to the
 * card's worth; at a K_VOLUNTEER or a K_BID for the bank at the start, whether the bank's
 * worth it reckoned when the game began is the one reckoned now. Returns 1 if they agree, 0
 * if not, -1 where there is nothing to compare (another kind of decision, or a list the bot
 * reads in full). Changes nothing the bot remembers but its valuation cache. */
int oca_bot_check_short_cuts(void *ctx, const oca_state *st, const decision *d);

#endif
