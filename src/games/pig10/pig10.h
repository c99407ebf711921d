/* pig10.h — private interface of PIG 10 (seed 003, Zoch 2010): rules, state, view, action
 * codes and the helpers its bots and tests share. Not part of the core contract. */
#ifndef GIOCHI_PIG10_H
#define GIOCHI_PIG10_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/course.h"
#include "core/game.h"

/* The default ruleset: configs/pig10.json, embedded byte for byte at build time
 * (tools/embed.sh). */
extern const char config_pig10_json[];

enum {
    PIG10_VALUES = 11,     /* card values 0..10 */
    PIG10_TARGET = 10,     /* "PIG 10" */
    PIG10_FROG = 0,        /* la rana: sets the value to 0 */
    PIG10_SIREN = 5,       /* la sirena: added or subtracted */
    PIG10_MAX_CARDS = 255, /* most cards a ruleset's deck may hold */
    PIG10_MAX_COPIES = 40, /* most copies of one value */
    PIG10_MAX_HAND = 8,    /* largest hand_size */
};

/* How a card is played. Codes are card * 4 + mode. */
enum pig10_mode {
    PIG10_ADD = 0, /* the ordinary play: sets the value on an empty table, adds otherwise;
                      a frog always sets 0 */
    PIG10_SUB = 1, /* siren subtracted */
    PIG10_SET = 2, /* same card / same number: the value becomes the card */
    PIG10_RESET = 3, /* history only: a frog played (its action code is PIG10_ADD) */
};
#define PIG10_ACTION(card, mode) ((int32_t)((card) * 4 + (mode)))
#define PIG10_CARD(a) ((int)((uint32_t)(a) >> 2)) /* codes are never negative */
#define PIG10_MODE(a) ((int)((uint32_t)(a) & 3))

enum pig10_first { PIG10_FIRST_SEAT1, PIG10_FIRST_RANDOM };
enum pig10_floor { PIG10_FLOOR_CLAMP, PIG10_FLOOR_FORBID };
enum pig10_left { PIG10_LEFT_DISCARD, PIG10_LEFT_LAST_PLAYER };
enum pig10_ties { PIG10_TIES_SHARE, PIG10_TIES_MOST_HITS };

/* What one card can do on a table (pig10_rules.reach): bits of pig10_reach. */
enum pig10_reach {
    PIG10_REACH_HIT = 1,  /* some legal play of the card makes exactly 10 */
    PIG10_REACH_SAFE = 2, /* some legal play of the card stays at or under 10 */
};

typedef struct pig10_rules {
    int deck[PIG10_VALUES]; /* copies of each value */
    uint8_t deck_bytes[PIG10_VALUES]; /* the same, as the view holds it */
    int total;              /* cards in the deck */
    int hand_size;
    int first_player;       /* enum pig10_first */
    int siren_below_zero;   /* enum pig10_floor */
    int table_at_end;       /* enum pig10_left */
    int ties;               /* enum pig10_ties */
    /* reach[w][c][x]: enum pig10_reach bits for card x played on a non-empty table of value
     * w (0..10) whose top card is c, under this ruleset's siren rule. Derived by rules_load
     * from pig10_options and pig10_result, so that bots look it up instead of listing. */
    uint8_t reach[PIG10_VALUES][PIG10_VALUES][PIG10_VALUES];
    /* The same bits as byte masks over the values, for summing card counts held one per byte
     * (pig10_count_bytes) in a few word operations: byte x of hit_bytes[w][c] (loaded as
     * pig10_count_bytes loads counts) is 0xff when reach[w][c][x] has PIG10_REACH_HIT, of
     * safe_bytes[w][c] when it has PIG10_REACH_SAFE. */
    uint64_t hit_bytes[PIG10_VALUES][PIG10_VALUES][2];
    uint64_t safe_bytes[PIG10_VALUES][PIG10_VALUES][2];
} pig10_rules;

/* One play as every player at the table saw it, in two bytes: the view copies the history at
 * every decision (and clears the rest of its 255 places), so its size is time. */
typedef struct pig10_play {
    uint16_t seat : 3;  /* who played (0..7) */
    uint16_t card : 4;  /* the card's value (0..10) */
    uint16_t mode : 2;  /* PIG10_ADD, PIG10_SUB, PIG10_SET, or PIG10_RESET for a frog */
    uint16_t value : 5; /* the value announced (0..20): 10 took the table, above 10 handed it on */
} pig10_play;
_Static_assert(sizeof(pig10_play) == 2, "pig10_play: two bytes");
_Static_assert(GAME_MAX_SEATS <= 8 && PIG10_VALUES <= 16 && 2 * PIG10_TARGET < 32,
               "pig10_play: the fields hold every seat, card and value");

/* Per-seat counters kept for the metrics. */
typedef struct pig10_counts {
    int hits, given, received, subtractions, frogs, sets;
} pig10_counts;

typedef struct pig10_state {
    const pig10_rules *rules;
    int nseats;
    int turn;     /* seat to play */
    int plays;    /* cards played so far */
    int total;    /* cards in this game (conservation) */
    int value;    /* value of the table; meaningful when table_n > 0 */
    int top_card; /* last card played on the table */
    int top_seat; /* who played it */
    int table_n;  /* cards on the table */
    int left_on_table; /* cards on the table when the game ended, before table_at_end */
    int pile_n, pile_pos; /* the draw pile is pile[pile_pos .. pile_n) */
    bool over;
    uint8_t pile[PIG10_MAX_CARDS];
    uint8_t hand[GAME_MAX_SEATS][PIG10_VALUES];
    uint16_t held[GAME_MAX_SEATS]; /* bit c: hand[s][c] > 0 (the options walk these bits) */
    int hand_n[GAME_MAX_SEATS];
    uint8_t table[PIG10_VALUES];  /* cards on the table, by value */
    uint8_t played[PIG10_VALUES]; /* every card played so far, by value */
    int collected[GAME_MAX_SEATS];
    pig10_counts count[GAME_MAX_SEATS];
    pig10_play history[PIG10_MAX_CARDS]; /* history[0 .. plays) */
    course course; /* the cards collected after every play (see game_pig10.standing) */
} pig10_state;

/* What one seat may know: its hand, the table, every card played, the collected piles, the
 * size of the draw pile and of the other hands, and the public history of plays (who played
 * which card how, and the value announced). Never another hand or the pile order. */
typedef struct pig10_view {
    int seat, nseats, turn;
    int value, top_card, top_seat, table_n;
    int pile_left;
    int hand_n[GAME_MAX_SEATS];
    int collected[GAME_MAX_SEATS];
    uint8_t hand[PIG10_VALUES]; /* own hand only */
    uint8_t table[PIG10_VALUES];
    uint8_t played[PIG10_VALUES];
    uint8_t deck[PIG10_VALUES]; /* the ruleset's deck (public) */
    int siren_below_zero;       /* a public rule the bots reason with */
    int nplays;                 /* plays so far; history[0 .. nplays) */
    pig10_play history[PIG10_MAX_CARDS];
} pig10_view;

/* Search hook: fills v as game_pig10.view does but with an empty history (nplays 0): for
 * playout policies that read counts only, where copying the history would only cost time. */
void pig10_view_counts(const pig10_state *st, int seat, pig10_view *v);

/* Whether `card` played on a table of value `value`, top card `top_card` and `table_n` cards
 * can make exactly 10 (PIG10_REACH_HIT) or stay at or under 10 (PIG10_REACH_SAFE) under
 * rules: the bits of rules->reach, or on an empty table (table_n 0) the card alone. */
int pig10_reach(const pig10_rules *rules, int value, int top_card, int table_n, int card);

/* The value after playing `card` in `mode` on a table of value `value` (empty: table_n == 0),
 * with the siren floor at 0: the frog makes 0, the first card or a set makes the card,
 * anything else adds. Does not check that the play is legal. Inline: every bot's hot path. */
static inline int pig10_result(int value, int table_n, int card, int mode)
{
    if (card == PIG10_FROG)
        return 0;
    if (table_n == 0 || mode == PIG10_SET)
        return card;
    if (mode == PIG10_SUB)
        /* "Tuttavia, il valore del mazzo non può mai risultare negativo": a floor under the
         * value (siren_below_zero=clamp, the default: the choice just granted stays whole);
         * under "forbid" pig10_options does not list a subtraction from less than 5. */
        return value > card ? value - card : 0;
    return value + card;
}

/* Eleven card counts, one per value (each 0..255), as two words of bytes: out[0] holds
 * values 0..7, out[1] values 8..10 and zeros. With pig10_sum_bytes and the masks of
 * pig10_rules, sums counts over a set of values. */
static inline void pig10_count_bytes(const uint8_t *count, uint64_t *out)
{
    uint64_t tail; /* values 3..10, of which 8..10 are kept: two loads, no byte stores */
    memcpy(&out[0], count, 8);
    memcpy(&tail, count + PIG10_VALUES - 8, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    out[1] = tail >> 40;
#else
    out[1] = tail & 0xffffff;
#endif
}

/* The sum of the bytes of x; exact while it is at most 255 (a deck holds at most 255 cards). */
static inline int pig10_sum_bytes(uint64_t x)
{
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The legal action codes for a player holding hand[] (counts by value) on the given table,
 * each distinct card-and-mode once, in increasing code order. Writes them into out (room for
 * PIG10_VALUES * 3) and returns how many. */
int pig10_options(const uint8_t *hand, int value, int top_card, int table_n,
                  int siren_below_zero, int32_t *out);

/* The seat that plays after `seat`: the next one clockwise still holding cards, or -1. */
int pig10_next_seat(const int *hand_n, int nseats, int seat);

/* Test and search hook: starts a game whose draw pile, before the deal, is pile[0..n) (top
 * first), with seat `first` to play. Seat s is dealt pile[s*h .. s*h+h) for hand size h; the
 * rest is the draw pile in order. n must be at least nseats * h and at most PIG10_MAX_CARDS.
 * Runs to the first decision like game_type.start. Does not take ownership of rules. */
void pig10_start_from_pile(pig10_state *st, const pig10_rules *rules, int nseats, int first,
                           const uint8_t *pile, int n, trace *tr);

/* Search hook: fills st with a full state consistent with view v under rules: the cards v's
 * seat has not seen (the deck minus its hand minus every card played) are shuffled with r and
 * dealt to the other hands, by their sizes, and to the draw pile; the history is v's.
 * Returns 0, or -1 if the counts do not add up (a game not dealt from rules' deck). Does not
 * take ownership. */
int pig10_determinize(pig10_state *st, const pig10_rules *rules, const pig10_view *v, rng *r);

/* Greedy's choice in d for view v: takes the table when it can, otherwise stays at or under
 * 10, otherwise (and among equals) plays the card least worth keeping. Returns its index. */
int pig10_greedy_pick(const pig10_view *v, const decision *d);

/* The chances count weighs (that h cards of u unseen include none of m), worked out for
 * every count a game of one ruleset can meet: made by pig10_none_new (never NULL; the caller
 * owns it and frees it with pig10_none_free, which accepts NULL), then only read, so one
 * table serves any number of picks (of one thread, or of many at once). */
typedef struct pig10_none pig10_none;
pig10_none *pig10_none_new(const pig10_rules *rules);
void pig10_none_free(pig10_none *table);

/* Count's choice in d for view v under rules (the ruleset v was made under): the best
 * expected cards from the table now and the next player's likely reply. Returns its index.
 * Reads counts only, never v's history. table: pig10_none_new(rules), or NULL to work the
 * chances out at each call (the same choice, slower). */
int pig10_count_pick(const pig10_rules *rules, const pig10_none *table, const pig10_view *v,
                     const decision *d);

/* Search hook: the choice in d (d made for st's seat to move) of count (count true) or
 * greedy on that seat's view, read from st without making the view: the same index as
 * pig10_count_pick or pig10_greedy_pick. table as for pig10_count_pick (unread for greedy).
 * For playouts. */
int pig10_playout_pick(const pig10_state *st, const pig10_none *table, bool count,
                       const decision *d);

/* The name of play a (an action code) on a table of value `value` holding table_n cards, as
 * traces show it: "play 4: 3+4 = 7". */
void pig10_play_name(int value, int table_n, int32_t a, char *buf, size_t n);

/* game_type.view_json and view_action_name (pig10_json.c): from the seat's view only. */
void pig10_view_json(const void *seen, int seat, jsonw *w);
/* game_type.view_draw (pig10_json.c): the table and the hand for a person at the terminal. */
void pig10_view_draw(const void *before, const void *seen, int seat, FILE *f);
void pig10_view_action_name(const void *seen, const decision *d, int32_t a, char *buf,
                            size_t n);

/* The game itself (pig10.c) and its bots (pig10_bots.c, pig10_ismcts.c). */
extern const game_type game_pig10;
extern const bot_type bot_pig10_greedy;
extern const bot_type bot_pig10_count;
extern const bot_type bot_pig10_mc;
extern const bot_type bot_pig10_ismcts;

/* One line for each ruleset key (pig10_keys.c; game_type.rule_docs). */
extern const rule_doc pig10_rule_docs[];

/* ---- the descriptor's parts (pig10.c), which pig10_game.c puts together ----------------------
 * Each does what its member of game_type says (core/game.h). */
void pig10_action_name(const void *state, const decision *d, int32_t a, char *buf, size_t n);
void pig10_apply(void *state, int32_t action, rng *chance, trace *tr);
int pig10_check(const void *state, char *err, size_t errlen);
int pig10_check_rules(const void *rules, int nseats, char *err, size_t errlen);
bool pig10_decide(const void *state, decision *d);
extern const char *const pig10_end_names[];
/* The ends in words for a person (game_type.end_words), in the order of the end names. */
extern const char *const pig10_end_words[];
/* game_type.glossary: the game's own words, as the reports use them. */
extern const game_term pig10_glossary[];
/* game_type.standing: each seat's standing now (see the game's page, METRICS). */
void pig10_standing(const void *state, int64_t *out);
/* game_type.limits: what one game can record. */
void pig10_limits(const void *rules, int nseats, game_limits *l);
void pig10_finish(const void *state, outcome *o, recorder *rec);
extern const metric_group pig10_groups[];
extern const char *const pig10_headline[];
extern const char *const pig10_kind_names[];
extern const metric_label pig10_labels[];
int pig10_load_rules(void *rules, const cJSON *json, char *err, size_t errlen);
extern const metric_def pig10_metrics[];
void pig10_start(void *state, const void *rules, int nseats, rng *chance, trace *tr);
void pig10_view_of(const void *state, int seat, void *out);

#endif
