/* pig10_kit.h — what the PIG 10 unit tests share: rulesets with overlays, scripted
 * deals and plays, the game's invariants, and bots seated at a table. */
#ifndef GIOCHI_PIG10_KIT_H
#define GIOCHI_PIG10_KIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/pig10/pig10.h"
#include "core/game.h"
#include "core/recorder.h"

/* Loads the default ruleset with the JSON object `overlay` (or NULL) merged over it. Returns
 * rules_load's result and leaves its message in err. */
int pt_try_load(pig10_rules *r, const char *overlay, char *err, size_t errlen);

/* pt_try_load, failing the test (at the caller's line) if the ruleset does not load. */
void pt_load_at(int line, pig10_rules *r, const char *overlay);
#define LOAD(r, overlay) pt_load_at(__LINE__, (r), (overlay))

/* Card value of a script character: '0'..'9', 'T' for 10; -1 for anything else (spacing). */
int pt_card_of(char ch);

/* Builds a whole pile from the ruleset's deck: first the cards written in `front` (the hands,
 * seat after seat, then the draws in order), then the rest of the deck in increasing value.
 * Returns the number of cards, or -1 if `front` asks for more copies than the deck has. */
int pt_make_pile(const pig10_rules *r, const char *front, uint8_t *pile);

/* Starts a scripted game: `front` as in pt_make_pile, seat `first` to play (a script that
 * does not fit the deck fails the test at the caller's line). */
void pt_deal_at(int line, pig10_state *st, const pig10_rules *r, int nseats, int first,
                const char *front);
#define DEAL(st, r, nseats, first, front)                                                    \
    pt_deal_at(__LINE__, (st), (r), (nseats), (first), (front))

/* Whether d lists action a. */
bool pt_offered(const decision *d, int32_t a);

/* Checks that `seat` is to play and may play `card` in `mode`, then plays it. */
void pt_play_at(int line, pig10_state *st, int seat, int card, int mode);
#define PLAY(st, seat, card, mode) pt_play_at(__LINE__, (st), (seat), (card), (mode))

/* Cards of every value are conserved: hands + draw pile + table + collected = deck (the
 * game's own --check invariant, game_pig10.check). */
bool pt_conserved(const pig10_state *st);

/* The legal list of d is well formed for st: codes strictly increasing (so distinct), each
 * card in the mover's hand, every card of the hand playable, modes only where they apply. */
bool pt_legal_ok(const pig10_state *st, const decision *d);

/* Sets up bot bt for seat `seat` in ctx with its default parameters, except that the first
 * parameter (mc's samples, ismcts' iterations) is `first` when the bot has parameters. */
void pt_setup_bot(const bot_type *bt, void *ctx, const pig10_rules *rules, int seat, int nseats,
                  double first);

enum { CTX_BYTES = 256 }; /* room for any pig10 bot's context */

/* Bots seated at a table: their types, contexts and streams. */
typedef struct seats {
    const bot_type *bot[GAME_MAX_SEATS];
    _Alignas(16) unsigned char ctx[GAME_MAX_SEATS][CTX_BYTES];
    rng r[GAME_MAX_SEATS];
} seats;

/* Seats `nseats` bots named in names (the last name repeats), default parameters except
 * samples for mc. */
void pt_sit_bots(seats *t, const pig10_rules *rules, int nseats, const char *const *names,
                 int nnames, double mc_samples);

/* Tears down the bots sat by pt_sit_bots. */
void pt_stand_bots(seats *t, int nseats);

/* Plays one game `index` to the end with the bots of t; checks conservation and the legal
 * lists after every play when `check` is set. Fills o and, if rec, records the metrics. */
void pt_play_game(pig10_state *st, const pig10_rules *rules, int nseats, seats *t, uint64_t seed,
                  uint64_t index, bool check, outcome *o, recorder *rec);

#endif
