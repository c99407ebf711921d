/* 45.c — the Gioco del 45 (Shut the Box with tiles 1..9 and two dice, elimination at 45),
 * following seed 001: rounds of one turn each, totals checked at the end of every round,
 * lowest total and the 4-and-5 roll-off among players eliminated together, shut box wins;
 * with Shut the Box's variants as ruleset options (any tiles per roll, one die near the end). */
#include "games/45/45.h"

#include <stdlib.h>
#include <string.h>

#include "core/course_rec.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "config/rules.h"

/* ---- moves --------------------------------------------------------------------------- */

int g45_ways(int total)
{
    if (total < 2 || total > 12)
        return 0;
    return total <= 7 ? total - 1 : 13 - total;
}

int g45_ways_n(int ndice, int total)
{
    if (ndice == 1)
        return total >= 1 && total <= 6 ? 6 : 0;
    return g45_ways(total);
}

/* Candidate moves per dice total under shut=one_or_two, highest tile first: the tile itself,
 * then the pairs (total-1, 1), (total-2, 2), ... padded to G45_PAIR_MOVES with NO, a tile
 * that is never open. Tiles above the ruleset's highest are never open either, so filtering
 * by the open set is all a roll needs; the fixed-length, branch-free filter keeps the hot
 * loop predictable. (Total 1 comes only from one die.) */
#define T(k) (1 << ((k)-1))
#define NO (1 << 15)
static const int32_t candidates[G45_TOTALS][G45_PAIR_MOVES] = {
    [0] = {NO, NO, NO, NO, NO, NO},
    [1] = {T(1), NO, NO, NO, NO, NO},
    [2] = {T(2), NO, NO, NO, NO, NO},
    [3] = {T(3), T(2) | T(1), NO, NO, NO, NO},
    [4] = {T(4), T(3) | T(1), NO, NO, NO, NO},
    [5] = {T(5), T(4) | T(1), T(3) | T(2), NO, NO, NO},
    [6] = {T(6), T(5) | T(1), T(4) | T(2), NO, NO, NO},
    [7] = {T(7), T(6) | T(1), T(5) | T(2), T(4) | T(3), NO, NO},
    [8] = {T(8), T(7) | T(1), T(6) | T(2), T(5) | T(3), NO, NO},
    [9] = {T(9), T(8) | T(1), T(7) | T(2), T(6) | T(3), T(5) | T(4), NO},
    [10] = {T(10), T(9) | T(1), T(8) | T(2), T(7) | T(3), T(6) | T(4), NO},
    [11] = {T(11), T(10) | T(1), T(9) | T(2), T(8) | T(3), T(7) | T(4), T(6) | T(5)},
    [12] = {T(12), T(11) | T(1), T(10) | T(2), T(9) | T(3), T(8) | T(4), T(7) | T(5)},
};
#undef T
#undef NO

/* The moves of a roll under shut=one_or_two (the hot path: fixed length, no branch). */
static inline int pair_moves(int open, int total, int32_t *out)
{
    const int32_t *c = candidates[total];
    int n = 0;
    for (int i = 0; i < G45_PAIR_MOVES; i++) {
        out[n] = c[i];
        n += (c[i] & ~open) == 0;
    }
    return n;
}

/* The moves of a roll under shut=any, from the ruleset's list of candidates. */
static int any_moves(const g45_rules *r, int open, int total, int32_t *out)
{
    const int32_t *c = r->cand[total];
    int n = 0;
    for (int i = 0; i < r->ncand[total]; i++) {
        out[n] = c[i];
        n += (c[i] & ~open) == 0;
    }
    return n;
}

int g45_moves(const g45_rules *r, int open, int total, int32_t *out)
{
    return r->shut == G45_SHUT_ONE_OR_TWO ? pair_moves(open, total, out)
                                          : any_moves(r, open, total, out);
}

int g45_dice_rule(const g45_rules *r, int open)
{
    switch (r->one_die) {
    case G45_ONE_DIE_SUM_6:
        return g45_sum(open) <= 6 ? 1 : 2;
    case G45_ONE_DIE_HIGH_SHUT:
        return open >> 6 ? 2 : 0; /* tile k is bit k-1: bits 6 and up are the tiles 7.. */
    default:
        return 2;
    }
}

int g45_sum(int set)
{
    int s = 0;
    for (int k = 1; set; k++, set >>= 1)
        if (set & 1)
            s += k;
    return s;
}

/* ---- rules --------------------------------------------------------------------------- */

static const char *const shut_tie_names[] = {"rolloff", "share", "lowest_total", NULL};
static const char *const shut_names[] = {"one_or_two", "any", NULL};
static const char *const one_die_names[] = {"never", "high_tiles_shut", "sum_6_or_less", NULL};

/* Fills r->cand: for each total, the tile sets within 1..tiles that sum to it and that
 * r->shut allows (at most two tiles, or any number), in decreasing bitmask order (the
 * highest tile first, as candidates above). */
static void fill_candidates(g45_rules *r)
{
    for (int t = 0; t < G45_TOTALS; t++) {
        r->ncand[t] = 0;
        for (int set = (1 << r->tiles) - 1; set > 0 && t > 0; set--)
            if (g45_sum(set) == t &&
                (r->shut == G45_SHUT_ANY || __builtin_popcount((unsigned)set) <= 2))
                r->cand[t][r->ncand[t]++] = set;
        for (int i = r->ncand[t]; i < G45_MAX_MOVES; i++)
            r->cand[t][i] = 0;
    }
}

int g45_rules_load(void *out, const cJSON *json, char *err, size_t errlen)
{
    static const char *const keys[] = {"tiles", "limit",  "weights", "shut_ties",
                                       "shut",  "one_die", NULL};
    g45_rules *r = out;
    long tiles, limit, w[GAME_MAX_SEATS];
    int nw, tie, shut, one_die;
    memset(r, 0, sizeof *r);
    if (rules_only_keys(json, "", keys, err, errlen) ||
        rules_int(json, "", "tiles", 2, G45_MAX_TILES, &tiles, err, errlen) ||
        rules_int(json, "", "limit", 1, G45_MAX_LIMIT, &limit, err, errlen) ||
        rules_int_array(json, "", "weights", 1, GAME_MAX_SEATS, 1, 1000000, w, &nw, err,
                        errlen) ||
        rules_enum(json, "", "shut_ties", shut_tie_names, &tie, err, errlen) ||
        rules_enum(json, "", "shut", shut_names, &shut, err, errlen) ||
        rules_enum(json, "", "one_die", one_die_names, &one_die, err, errlen))
        return -1;
    r->tiles = (int)tiles;
    r->limit = (int)limit;
    r->nweights = nw;
    for (int i = 0; i < nw; i++)
        r->weights[i] = (int)w[i];
    r->shut_ties = (g45_shut_ties)tie;
    r->shut = (g45_shut_rule)shut;
    r->one_die = (g45_one_die)one_die;
    fill_candidates(r);
    return 0;
}

int g45_rules_check(const void *rules, int nseats, char *err, size_t errlen)
{
    const g45_rules *r = rules;
    if (r->nweights < nseats)
        return rules_error(err, errlen, "", "weights",
                           "has %d entries, one per seat is needed (%d seats)", r->nweights,
                           nseats);
    return 0;
}

/* ---- play ---------------------------------------------------------------------------- */

/* Writes the tiles of set as "1 4 9" (or "-" when empty) into buf. */
static void set_text(int set, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 1; set && used + 4 < n; k++, set >>= 1)
        if (set & 1)
            used += (size_t)snprintf(buf + used, n - used, "%s%d", used ? " " : "", k);
    if (used == 0)
        snprintf(buf, n, "-");
}

/* Number of seats in the seat mask x. */
static int popcount(uint32_t x)
{
    return __builtin_popcount(x);
}

/* Seat of the lowest set bit of mask that is >= from, or -1. */
static int next_seat(uint32_t mask, int from)
{
    uint32_t m = mask & ~((1u << from) - 1u);
    return m ? __builtin_ctz(m) : -1;
}

/* Starts seat's turn with every tile open (the turn's rolls follow in run). */
static void begin_turn(g45_state *s, int seat, trace *tr)
{
    s->seat = seat;
    s->open = s->full;
    s->left = s->full_sum;
    s->turns[seat]++;
    TRACE(tr, "round %d: seat %d's turn (total %d), all tiles open", s->round, seat + 1,
          s->total[seat]);
}

/* The roll-off among the seats of tied: every tied player rolls two dice per roll-off round
 * until somebody rolls a 4 and a 5; several at once: the heaviest; equal weights: a fair
 * draw. Returns the winner and stores 0, 1 or 2 (single 4-5, heaviest, draw) in *how. */
static int rolloff(g45_state *s, uint32_t tied, rng *chance, trace *tr, int *how)
{
    uint32_t hit = 0;
    while (hit == 0) {
        s->rolloff_rounds++;
        for (int k = next_seat(tied, 0); k >= 0; k = next_seat(tied, k + 1)) {
            int a = rng_die(chance, 6), b = rng_die(chance, 6);
            TRACE(tr, "roll-off %d: seat %d rolls %d+%d%s", s->rolloff_rounds, k + 1, a, b,
                  a + b == 9 && (a == 4 || a == 5) ? " (4 and 5)" : "");
            if (a + b == 9 && (a == 4 || a == 5))
                hit |= 1u << k;
        }
    }
    *how = 0;
    if (popcount(hit) == 1)
        return __builtin_ctz(hit);
    int heavy = 0;
    uint32_t best = 0;
    for (int k = next_seat(hit, 0); k >= 0; k = next_seat(hit, k + 1)) {
        int w = s->rules->weights[k];
        if (w > heavy) {
            heavy = w;
            best = 0;
        }
        if (w == heavy)
            best |= 1u << k;
    }
    *how = 1;
    if (popcount(best) == 1) {
        TRACE(tr, "several rolled 4 and 5: seat %d is the heaviest (%d)", __builtin_ctz(best) + 1,
              heavy);
        return __builtin_ctz(best);
    }
    *how = 2;
    int pick = (int)rng_below(chance, (uint32_t)popcount(best));
    int k = next_seat(best, 0);
    while (pick--)
        k = next_seat(best, k + 1);
    TRACE(tr, "several rolled 4 and 5 with equal heaviest weight %d: seat %d wins the draw",
          heavy, k + 1);
    return k;
}

/* The seats of set whose total is the lowest among them. */
static uint32_t lowest_total(const g45_state *s, uint32_t set)
{
    int low = -1;
    uint32_t out = 0;
    for (int k = next_seat(set, 0); k >= 0; k = next_seat(set, k + 1)) {
        if (low < 0 || s->total[k] < low) {
            low = s->total[k];
            out = 0;
        }
        if (s->total[k] == low)
            out |= 1u << k;
    }
    return out;
}

/* Picks one winner among the seats of cands (roll-off if several) and ends the game with
 * end kind `single` or, after a roll-off, `after_rolloff` + how it was decided. */
static void win_among(g45_state *s, uint32_t cands, int single, int after_rolloff, rng *chance,
                      trace *tr)
{
    s->over = true;
    if (popcount(cands) == 1) {
        s->winners = cands;
        s->end = single;
        return;
    }
    TRACE(tr, "tie between %d players: roll-off until someone rolls a 4 and a 5",
          popcount(cands));
    int how;
    s->winners = 1u << rolloff(s, cands, chance, tr, &how);
    s->end = after_rolloff + how;
}

/* The end of the round with shutters in s->shut: "chi riesce a cancellare tutti i numeri in
 * un turno di gioco è dichiarato vincitore". */
static void shut_box_end(g45_state *s, rng *chance, trace *tr)
{
    uint32_t c = s->shut;
    s->over = true;
    if (popcount(c) == 1 || s->rules->shut_ties == G45_SHUT_SHARE) {
        s->winners = c;
        s->end = popcount(c) == 1 ? G45_END_SHUT_BOX : G45_END_SHUT_SHARED;
        return;
    }
    if (s->rules->shut_ties == G45_SHUT_LOWEST_TOTAL) {
        c = lowest_total(s, c);
        if (popcount(c) == 1) {
            s->winners = c;
            s->end = G45_END_SHUT_LOWEST_TOTAL;
            return;
        }
    }
    win_among(s, c, G45_END_SHUT_BOX, G45_END_SHUT_ROLLOFF, chance, tr);
}

/* Traces the end of the game: its rounds, how it ended and who won (seats from 1). */
static void trace_end(const g45_state *s, trace *tr)
{
    char who[64] = "nobody";
    size_t used = 0;
    for (int k = next_seat(s->winners, 0); k >= 0 && used + 8 < sizeof who;
         k = next_seat(s->winners, k + 1))
        used += (size_t)snprintf(who + used, sizeof who - used, "%s%d", used ? ", " : "seat ",
                                 k + 1);
    TRACE(tr, "game over after %d round%s (%s): %s wins", s->round, s->round == 1 ? "" : "s",
          g45_end_names[s->end], who);
}

/* game_type.standing: each seat's running total, negated (the lower total is ahead). */
void g45_standing(const void *st, int64_t *out)
{
    const g45_state *s = st;
    for (int k = 0; k < s->nseats; k++)
        out[k] = -(int64_t)s->total[k];
}

/* Checks totals at the end of a full round; ends the game or starts the next round. */
static void end_round(g45_state *s, rng *chance, trace *tr)
{
    int64_t v[GAME_MAX_SEATS] = {0};
    g45_standing(s, v);
    course_note(&s->course, v, s->nseats);
    uint32_t before = s->in_game, out = 0;
    for (int k = next_seat(before, 0); k >= 0; k = next_seat(before, k + 1))
        if (s->total[k] >= s->rules->limit) {
            out |= 1u << k;
            s->elim_round[k] = s->round;
            TRACE(tr, "end of round %d: seat %d is eliminated with %d >= %d", s->round, k + 1,
                  s->total[k], s->rules->limit);
        }
    s->in_game = before & ~out;
    if (s->shut) {
        shut_box_end(s, chance, tr);
    } else if (s->nseats == 1) {
        if (s->in_game == 0) {
            s->over = true;
            s->end = G45_END_NO_WINNER;
        }
    } else if (popcount(s->in_game) == 1) {
        s->over = true;
        s->winners = s->in_game;
        s->end = G45_END_LAST_STANDING;
    } else if (s->in_game == 0) {
        TRACE(tr, "everyone still in was eliminated: the lowest total wins");
        win_among(s, lowest_total(s, before), G45_END_LOWEST_TOTAL, G45_END_ROLLOFF, chance,
                  tr);
    }
    if (s->over) {
        if (tr)
            trace_end(s, tr);
        return;
    }
    s->shut = 0;
    s->round++;
    begin_turn(s, next_seat(s->in_game, 0), tr);
}

/* Scores the finished turn, then starts the next turn (or ends the round). */
static void end_turn(g45_state *s, rng *chance, trace *tr)
{
    int k = s->seat, score = s->left;
    s->total[k] += score;
    s->hist[k][score]++;
    s->used[k][score >> 6] |= 1ull << (score & 63);
    if (s->open == 0) {
        s->shuts[k]++;
        s->shut |= 1u << k;
        TRACE(tr, "seat %d shut the box! total %d", k + 1, s->total[k]);
    } else if (tr) {
        char buf[48];
        set_text(s->open, buf, sizeof buf);
        TRACE(tr, "seat %d ends the turn with %s open: scores %d, total %d", k + 1, buf, score,
              s->total[k]);
    }
    int next = next_seat(s->in_game, k + 1);
    if (next >= 0)
        begin_turn(s, next, tr);
    else
        end_round(s, chance, tr);
}

/* The dice of the next roll: 2, 1, or 0 when the player is to choose (one_die). A choice
 * already made (s->ndice) is used up here. */
static inline int next_dice(g45_state *s)
{
    const g45_rules *r = s->rules;
    if (r->one_die == G45_ONE_DIE_NEVER)
        return 2;
    if (r->one_die == G45_ONE_DIE_SUM_6)
        return s->left <= 6 ? 1 : 2;
    if (s->open >> 6) /* a tile from 7 up is open */
        return 2;
    int n = s->ndice;
    s->ndice = 0;
    return n;
}

/* Plays the roll of the dice total `total` (made of a, and b if nd is 2): ends the turn if no
 * move is legal, shuts a forced move, or leaves the choice pending; returns true for a
 * pending choice. */
static inline bool roll(g45_state *s, int nd, int a, int b, int n, rng *chance, trace *tr)
{
    int32_t *mv = s->moves;
    int total = a + b;
    if (nd == 2)
        TRACE(tr, "seat %d rolls %d+%d = %d: %d move%s", s->seat + 1, a, b, total, n,
              n == 1 ? "" : "s");
    else
        TRACE(tr, "seat %d rolls one die: %d: %d move%s", s->seat + 1, a, n, n == 1 ? "" : "s");
    if (n == 0) {
        end_turn(s, chance, tr);
    } else if (n == 1) {
        if (tr) {
            char buf[48];
            set_text(mv[0], buf, sizeof buf);
            TRACE(tr, "seat %d shuts %s (forced)", s->seat + 1, buf);
        }
        s->open &= ~mv[0];
        s->left -= total;
    } else {
        s->dice = total;
        s->nmoves = n;
        return true;
    }
    return false;
}

/* Rolls and plays forced moves until a roll (or the choice of dice) offers a choice or the
 * game ends. The seed's rules (s->plain) take a path of their own: two dice, pairs. */
static void run(g45_state *s, rng *chance, trace *tr)
{
    int32_t *mv = s->moves;
    while (!s->over) {
        if (s->open == 0) { /* box shut: nothing is left to roll for */
            end_turn(s, chance, tr);
            continue;
        }
        if (s->plain) {
            int a = rng_die(chance, 6), b = rng_die(chance, 6);
            if (roll(s, 2, a, b, pair_moves(s->open, a + b, mv), chance, tr))
                return;
            continue;
        }
        int nd = next_dice(s);
        if (nd == 0) { /* one die or two: the player's choice, two listed first */
            s->kind = G45_KIND_DICE;
            s->nmoves = 2;
            mv[0] = 2;
            mv[1] = 1;
            return;
        }
        int a = rng_die(chance, 6), b = nd == 2 ? rng_die(chance, 6) : 0;
        int n = s->rules->shut == G45_SHUT_ONE_OR_TWO ? pair_moves(s->open, a + b, mv)
                                                      : any_moves(s->rules, s->open, a + b, mv);
        s->kind = G45_KIND_SHUT;
        if (roll(s, nd, a, b, n, chance, tr))
            return;
    }
}

void g45_start(void *st, const void *rules, int nseats, rng *chance, trace *tr)
{
    g45_state *s = st;
    const g45_rules *r = rules;
    /* Only the fields below and the first nseats histogram rows are used: no full memset. */
    s->rules = r;
    s->nseats = nseats;
    s->full = (1 << r->tiles) - 1;
    s->full_sum = r->tiles * (r->tiles + 1) / 2;
    s->round = 1;
    s->over = false;
    s->in_game = (1u << nseats) - 1u;
    s->shut = 0;
    s->winners = 0;
    s->end = 0;
    s->rolloff_rounds = 0;
    s->kind = G45_KIND_SHUT;
    s->ndice = 0;
    s->plain = r->shut == G45_SHUT_ONE_OR_TWO && r->one_die == G45_ONE_DIE_NEVER;
    for (int k = 0; k < nseats; k++) {
        s->total[k] = s->elim_round[k] = s->turns[k] = s->shuts[k] = 0;
        memset(s->hist[k], 0, sizeof(int) * (size_t)(s->full_sum + 1));
        s->used[k][0] = s->used[k][1] = 0;
    }
    course_start(&s->course);
    begin_turn(s, 0, tr);
    run(s, chance, tr);
}

bool g45_decide(const void *st, decision *d)
{
    const g45_state *s = st;
    if (s->over)
        return false;
    d->seat = s->seat;
    d->n = s->nmoves;
    d->kind = s->kind;
    memcpy(d->action, s->moves, sizeof s->moves); /* fixed length: no loop, no branch */
    return true;
}

/* Whether action a is one of the moves the pending decision of s allows. */
/* Whether action a is one of the moves listed for the pending shut decision of s: one open
 * tile, or two, adding up to the dice (cheaper to check than to list the moves again), or
 * under shut=any any open tiles adding up to them. */
static inline bool legal_shut(const g45_state *s, int32_t action)
{
    uint32_t a = (uint32_t)action;
    if (a == 0 || (a & ~(uint32_t)s->open) != 0)
        return false;
    if (!s->plain && s->rules->shut == G45_SHUT_ANY)
        return g45_sum((int)a) == s->dice;
    uint32_t rest = a & (a - 1);
    int sum = __builtin_ctz(a) + 1 + (rest ? __builtin_ctz(rest) + 1 : 0);
    return (rest & (rest - 1)) == 0 && sum == s->dice;
}

/* An illegal action: a broken invariant of the runner or of a bot (exit 4's abort). */
static _Noreturn void illegal(const g45_state *s, int32_t action)
{
    fprintf(stderr, "45: action 0x%x is not a legal move (roll %d, open 0x%x)\n",
            (unsigned)action, s->dice, (unsigned)s->open);
    abort();
}

/* A choice of dice is used by the next roll, whose trace line says one die or two. */
void g45_apply(void *st, int32_t action, rng *chance, trace *tr)
{
    g45_state *s = st;
    if (!s->plain && s->kind == G45_KIND_DICE) {
        if (s->over || (action != 1 && action != 2))
            illegal(s, action);
        s->ndice = action;
    } else {
        if (s->over || !legal_shut(s, action))
            illegal(s, action);
        s->open &= ~action;
        s->left -= s->dice;
    }
    run(s, chance, tr);
}

/* Ranks: winners 1; the others by elimination round (never eliminated counts as latest),
 * then by lower total; equal keys share a rank. */
static bool better(const g45_state *s, int a, int b)
{
    int ra = s->elim_round[a] ? s->elim_round[a] : s->round + 1;
    int rb = s->elim_round[b] ? s->elim_round[b] : s->round + 1;
    return ra != rb ? ra > rb : s->total[a] < s->total[b];
}

/* --check: the open tiles are tiles of the box and sum to what is left to shut, the seats in
 * the game and the winners are seats of the table, and no total is negative. */
int g45_check(const void *vst, char *err, size_t errlen)
{
    const g45_state *s = vst;
    uint32_t seats = (1u << s->nseats) - 1u;
    if (s->open & ~s->full)
        return snprintf(err, errlen, "open tiles 0x%x outside the box 0x%x", (unsigned)s->open,
                        (unsigned)s->full),
               -1;
    int sum = 0;
    for (int t = 1; t <= s->rules->tiles; t++)
        if (s->open & (1 << (t - 1)))
            sum += t;
    if (sum != s->left)
        return snprintf(err, errlen, "open tiles sum to %d, %d left", sum, s->left), -1;
    if ((s->in_game | s->winners) & ~seats)
        return snprintf(err, errlen, "seats 0x%x in game, winners 0x%x, of %d seats",
                        (unsigned)s->in_game, (unsigned)s->winners, s->nseats),
               -1;
    for (int k = 0; k < s->nseats; k++)
        if (s->total[k] < 0)
            return snprintf(err, errlen, "seat %d has a total of %d", k + 1, s->total[k]), -1;
    if (!s->over && !(s->in_game & (1u << s->seat)))
        return snprintf(err, errlen, "seat %d plays but is out of the game", s->seat + 1), -1;
    return 0;
}

void g45_finish(const void *st, outcome *o, recorder *rec)
{
    const g45_state *s = st;
    int nwin = popcount(s->winners);
    o->nseats = s->nseats;
    o->length = s->round;
    o->end = s->end;
    o->winners = s->winners;
    for (int k = 0; k < s->nseats; k++) {
        o->score[k] = s->total[k];
        if (s->winners & (1u << k)) {
            o->rank[k] = 1;
        } else {
            o->rank[k] = 1 + nwin;
            for (int j = 0; j < s->nseats; j++)
                if (!(s->winners & (1u << j)) && better(s, j, k))
                    o->rank[k]++;
        }
    }
    if (rec == NULL)
        return;
    rec_batch b = rec_batch_open(rec, NULL); /* the table comes below */
    for (int k = 0; k < s->nseats; k++) {
        rec_batch_rate(&b, G45_M_SHUT_RATE, k, s->shuts[k], s->turns[k]);
        for (int w = 0; w < 2; w++) /* the scores seen, in increasing order */
            for (uint64_t m = s->used[k][w]; m; m &= m - 1) {
                int v = w * 64 + __builtin_ctzll(m);
                rec_batch_values(&b, G45_M_MEAN_TURN_SCORE, k, v, s->hist[k][v]);
            }
        rec_batch_rate(&b, G45_M_ELIMINATED, k, s->elim_round[k] != 0, 1);
    }
    if (s->rolloff_rounds)
        rec_batch_value(&b, G45_M_ROLLOFF_ROUNDS, -1, s->rolloff_rounds);
    course_record(&s->course, s->winners, &b, G45_M_COURSE);
}

void g45_action_name(const void *st, const decision *d, int32_t a, char *buf, size_t n)
{
    (void)st;
    if (d->kind == G45_KIND_DICE) {
        snprintf(buf, n, "roll %s", a == 1 ? "one die" : "two dice");
        return;
    }
    char tiles[48];
    set_text(a, tiles, sizeof tiles);
    snprintf(buf, n, "shut %s", tiles);
}

/* ---- descriptor ---------------------------------------------------------------------- */

const char *const g45_kind_names[] = {"shut", "dice", NULL};

const char *const g45_end_names[] = {
    "last_standing", "lowest_total",  "rolloff",           "heaviest",
    "weight_draw",   "shut_box",      "shut_shared",       "shut_lowest_total",
    "shut_rolloff",  "shut_heaviest", "shut_weight_draw",  "no_winner",
    NULL,
};

/* The ends in words for a person (game_type.end_words), in the order of end_names. */
const char *const g45_end_words[] = {
    "every other player reached the limit",
    "everyone left reached the limit in the same round, and the lowest total won",
    "everyone left reached the limit with the same total, and a roll-off decided",
    "everyone left reached the limit with the same total, and the heaviest player won",
    "everyone left reached the limit with the same total, and the tie stood",
    "a player shut the box",
    "several players shut the box in the same round",
    "several players shut the box, and the lowest total won",
    "several players shut the box with the same total, and a roll-off decided",
    "several players shut the box with the same total, and the heaviest player won",
    "several players shut the box with the same total, and the tie stood",
    "nobody was left to win",
    NULL,
};

const metric_def g45_metrics[] = {
    {"shut_rate", METRIC_RATE, METRIC_SEAT, "turns that shut every tile / turns played"},
    {"mean_turn_score", METRIC_MEAN, METRIC_SEAT, "turn score (sum of the open tiles)"},
    {"eliminated", METRIC_RATE, METRIC_SEAT, "games in which the seat reached the limit"},
    {"rolloff_rounds", METRIC_MEAN, METRIC_GAME,
     "roll-off rounds until a 4 and a 5 (games that needed a roll-off)"},
    COURSE_METRIC_DEFS,
    {NULL, 0, 0, NULL},
};

/* The summary's headline, groups and labels. */
const char *const g45_headline[] = {"shut_rate", "mean_turn_score", "eliminated", NULL};

const metric_group g45_groups[] = {
    {"Turns and the limit", (const char *const[]){"shut_rate", "mean_turn_score", "eliminated",
                                                  "rolloff_rounds", NULL}},
    COURSE_GROUP,
    {NULL, NULL},
};

const metric_label g45_labels[] = {
    {"shut_rate", "turns that shut the box", NULL},
    {"mean_turn_score", "score of a turn (open tiles)", "points"},
    {"eliminated", "games in which the seat reached the limit", NULL},
    {"rolloff_rounds", "roll-off rounds (games with a roll-off)", "rounds"},
    COURSE_METRIC_LABELS,
    {NULL, NULL, NULL},
};
/* What one game can record: a round without a shut box adds at least 1 to the total of
 * every seat still in (its open tiles), so after `limit` rounds nobody is left; a seat has one
 * turn a round, a turn at most `tiles` rolls (each but the last shuts a tile), and a roll at
 * most two choices (one die or two, then the tiles); the roll-off asks nobody. */
void g45_limits(const void *rules, int nseats, game_limits *l)
{
    (void)nseats;
    static const char *const per_turn[] = {"shut_rate", "mean_turn_score", NULL};
    const g45_rules *r = rules;
    *l = (game_limits){.length = r->limit,
                       .choices = {0, 2 * (int64_t)r->tiles},
                       .repeated = per_turn,
                       .repeats = {0, 1}}; /* turns of a seat */
}

/* The game's own words, as the reports use them (RULES-NOTES, 45; giochi-sim-45(7)). */
const game_term g45_glossary[] = {
    {"shut the box", "close all nine tiles in one turn; the player wins outright once the "
                     "round is over"},
    {"total", "the sum of a player's turn scores (the tiles left open); at the end of a round "
              "a total of the limit or more eliminates"},
    {"limit", "the total that eliminates a player (45 by default)"},
    {"roll-off", "the tie-break, in which the tied players roll until one rolls a 4 and a 5 "
                 "together"},
    {"heaviest", "several players roll the 4 and 5 in the same roll-off round; the heaviest "
                 "of them wins (ruleset key weights)"},
    {"weight draw", "the heaviest of them weigh the same; a fair draw among them decides"},
    {NULL, NULL},
};
