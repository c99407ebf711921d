/* oca_board.c — Gioco dell'Oca (seed 000), articles 4, 6, 7 and 9: the race (turns, the die,
 * movement on the board, the squares' effects, declarations, arrival and the end). */
#include <stdlib.h>
#include <string.h>

#include "games/oca/oca_engine.h"
#include "core/hot.h"

static GIOCHI_INLINE void do_land(oca_state *st, int s, int sq, trace *tr);
static GIOCHI_INLINE void do_effect(oca_state *st, int s, int sq, trace *tr);
static void land_again(oca_state *st, int s, int sq, trace *tr);
static GIOCHI_INLINE bool turn_begins(oca_state *st, int s, trace *tr);
static GIOCHI_INLINE void roll_step(oca_state *st, rng *ch, trace *tr);

static int move_by(const oca_state *st, int from, int roll)
{
    int goal = st->r->nsquares, to = from + roll;
    if (to > goal)
        to = st->r->finish == FINISH_BOUNCE ? goal - (to - goal) : goal;
    return to < 1 ? 1 : to;
}

void oca_note_turn(oca_state *st)
{
    if (st->course.steps >= st->turn)
        return;
    int64_t v[GAME_MAX_SEATS] = {0};
    oca_standing(st, v);
    course_note(&st->course, v, st->n);
}

void oca_end_game(oca_state *st, int end, trace *tr)
{
    oca_note_turn(st);
    static const char *const why[] = {"the second-to-last player has reached the goal",
                                      "bankruptcies left at most one player in the race",
                                      "the turn cap was reached"};
    st->over = true;
    st->end = end;
    st->nops = 0;
    TRACE(tr, "game over after %d turns: %s", st->turn, why[end]);
}

/* Starts the next player's turn; returns true if a decision is pending. */
static GIOCHI_INLINE bool next_turn(oca_state *st, trace *tr)
{
    if (st->in_race <= 1) {
        oca_end_game(st, st->nbust > 0 ? END_BANKRUPTCIES : END_FINISH, tr);
        return false;
    }
    int last = st->last_turn_seat; /* the next racer clockwise: above him, or the lowest */
    uint32_t above = st->racing & ~((2u << last) - 1);
    int s = __builtin_ctz(above ? above : st->racing);
    st->last_turn_seat = s;
    return turn_begins(st, s, tr);
}

/* Seat s's turn begins: a skipped turn, or his trade window (K_TRADE, asked with the stack
 * empty), then the declaration and the roll (st->phase). Returns true if a decision is
 * pending. */
static GIOCHI_INLINE bool turn_begins(oca_state *st, int s, trace *tr)
{
    oca_note_turn(st); /* the turn before ends */
    if (++st->turn > st->r->max_turns) {
        st->turn--;
        oca_end_game(st, END_TURN_CAP, tr);
        return false;
    }
    st->mover = s;
    if (st->waiting[s] > 0) {
        st->waiting[s]--;
        TRACE(tr, "turn %d: seat %d waits on square %d", st->turn, s + 1, st->pos[s]);
        return false;
    }
    TRACE(tr, "turn %d: seat %d on square %d with %lld points", st->turn, s + 1, st->pos[s],
          (long long)st->led.balance[s]);
    st->declared = 0;
    st->phase = st->declare_left[s] > 0 ? PH_DECLARE : PH_ROLL;
    return st->r->trading && oca_trade_window(st, s);
}

/* What a declaration can cost seat s at most: a player's stake, or a banker's miss paid to
 * every other participant (art. 7). */
static inline int64_t declare_cost(const oca_state *st, int s)
{
    if (s != st->banker)
        return st->r->declare_stake;
    unsigned others = st->members & st->solvent & ~(1u << s);
    return (int64_t)st->r->banker_declare_miss * __builtin_popcount(others);
}

/* PH_DECLARE: asks the mover for a declaration (art. 7) if he may make one. The text does
 * not say what a declarer who cannot pay his loss does; a player who cannot pay the stake is
 * not offered one, and neither is a banker who cannot pay a miss to every other participant
 * in full (the same rule for both: nobody declares into a loss he cannot cover). */
static GIOCHI_INLINE bool declare_step(oca_state *st)
{
    int s = st->mover;
    st->phase = PH_ROLL;
    if (st->declare_left[s] == 0 || st->bankrupt[s] || st->led.balance[s] < declare_cost(st, s)) {
        if (st->declare_left[s] > 0)
            st->declare_left[s]--;
        return false;
    }
    return ask_range(st, s, K_DECLARE, 0, 6);
}

void oca_answer_declare(oca_state *st, int32_t a, trace *tr)
{
    int s = st->pend.seat;
    st->declare_left[s]--;
    if (a == 0)
        return;
    st->declared = a;
    st->s.declarations[s]++;
    TRACE(tr, "seat %d declares he will roll %d", s + 1, a);
    if (s != st->banker) /* at once: no step is pending in the turn's phases */
        oca_pay_or_push(st, s, ACC_BANK, st->r->declare_stake, R_STAKE, -1, tr);
}

/* Settles a declaration against the roll (article 7). */
static void settle_declaration(oca_state *st, int s, int roll, trace *tr)
{
    const oca_rules *r = st->r;
    bool hit = roll == st->declared;
    st->s.declare_hits[s] += hit;
    if (s != st->banker) {
        if (hit) /* at once: the payment is the step above the landing */
            oca_pay_or_push(st, ACC_BANK, s, r->declare_prize, R_PRIZE, -1, tr);
        return;
    }
    if (!hit) { /* one payment to them all: one loss if he falls short (art. 8) */
        oca_pay_each(st, s, st->members, r->banker_declare_miss, R_BANKER_MISS, -1, tr);
        return;
    }
    int payer[GAME_MAX_SEATS], k = 0; /* the participants, clockwise from his left */
    for (int i = 1; i < st->n; i++)
        if (participant(st, after(st, s, i)))
            payer[k++] = after(st, s, i);
    oca_pay_from_each(st, payer, k, s, r->banker_declare_hit, R_BANKER_HIT, -1, tr);
}

/* PH_ROLL: rolls the mover's die, settles a declaration, lands him (or pushes OP_LAND). */
static GIOCHI_INLINE void roll_step(oca_state *st, rng *ch, trace *tr)
{
    int s = st->mover;
    if (st->bankrupt[s])
        return;
    st->roll = rng_die(ch, 6);
    st->from = st->pos[s];
    st->chain = 0;
    int to = move_by(st, st->from, st->roll);
    TRACE(tr, "seat %d rolls %d: square %d -> %d", s + 1, st->roll, st->from, to);
    if (!st->declared) {
        do_land(st, s, to, tr);
        return;
    }
    int base = st->nops;
    push(st, OP_LAND, s, to, 0, 0, 0); /* after the declaration is settled */
    TRACE(tr, "the declaration of %d %s", st->declared,
          st->roll == st->declared ? "hits" : "misses");
    settle_declaration(st, s, st->roll, tr);
    st->declared = 0;
    if (st->nops == base + 1) { /* settled at once: the landing is the next step, made now */
        pop(st);
        do_land(st, s, to, tr);
    }
}

static void arrive(oca_state *st, int s, trace *tr)
{
    st->arrived[s] = true;
    st->racing &= ~(1u << s);
    st->arrival[s] = (int8_t)++st->narrived;
    st->in_race--;
    TRACE(tr, "seat %d reaches the goal, arrival %d", s + 1, st->narrived);
    if (st->in_race <= 1)
        oca_end_game(st, END_FINISH, tr);
}

/* Seat s lands on square sq: the card plays it allows are offered, then its effect. */
static inline void do_land(oca_state *st, int s, int sq, trace *tr)
{
    const oca_rules *r = st->r;
    if (st->bankrupt[s])
        return;
    st->pos[s] = (int8_t)sq;
    st->cancelled = false;
    const oca_square *q = &r->sq[sq];
    /* arriving, and the right to declare a Pulcinella square gives, count as effects */
    bool effect = q->effect != FX_NONE || q->pulcinella > 0 || sq == r->nsquares;
    bool jolly = some_jolly(st) && (r->jolly_offer == JOLLY_EVERY_MOVE || effect);
    int c = r->square_card[sq];
    bool card = c != OCA_NO_CARD && st->holder[c] >= 0;
    if (!jolly && !card) { /* no card to offer: the effect at once */
        do_effect(st, s, sq, tr);
        return;
    }
    int base = st->nops;
    push(st, OP_EFFECT, s, sq, 0, 0, 0); /* after the card plays offered above it */
    if (jolly)
        push(st, OP_JOLLY, s, sq, 0, 0, 0);
    if (card) {
        /* a reactive trade comes first: a card the lander buys is his to play at once */
        bool react = oca_react_possible(st, s, sq);
        if (q->card == CARD_POSITIVE && st->holder[c] != s)
            push(st, OP_CANCEL_OPP, st->holder[c], sq, 0, 0, 0);
        if (q->card == CARD_NEGATIVE && (st->holder[c] == s || react))
            push(st, OP_CANCEL_OWN, s, sq, 0, 0, 0);
        if (react)
            push(st, OP_REACT, s, c, 0, 0, 0);
    }
    if (st->nops == base + 1) { /* nothing offered after all: the effect at once */
        pop(st);
        do_effect(st, s, sq, tr);
    }
}

void oca_land_step(oca_state *st, trace *tr)
{
    oca_op o = *top(st);
    pop(st);
    do_land(st, o.seat, o.a, tr);
}

/* The payments between the lander s and every other player in the round, clockwise from his
 * left. A distribution is one payment of the lander to them all (one loss if he falls short,
 * article 8); a collection is one payment from each, made at once while they can be, the rest
 * (from the first payer short of points) left as steps in the same order. */
static void collect_or_distribute(oca_state *st, int s, int sq, bool collect, int amount,
                                  trace *tr)
{
    uint32_t others = round_mask(st) & ~(1u << s);
    if (!collect) {
        oca_pay_each(st, s, others, amount, R_SQUARE, sq, tr);
        return;
    }
    int seat[GAME_MAX_SEATS], k = clockwise(st, s, others, seat);
    oca_pay_from_each(st, seat, k, s, amount, R_SQUARE, sq, tr);
}

void oca_effect_step(oca_state *st, trace *tr)
{
    oca_op o = *top(st);
    pop(st);
    do_effect(st, o.seat, o.a, tr);
}

/* The effect of square sq on seat s who landed there, unless a card play cancelled it. */
static inline void do_effect(oca_state *st, int s, int sq, trace *tr)
{
    if (st->bankrupt[s])
        return;
    if (st->cancelled) {
        st->pos[s] = (int8_t)st->from;
        TRACE(tr, "seat %d goes back to square %d", s + 1, st->from);
        return;
    }
    if (sq == st->r->nsquares) {
        arrive(st, s, tr);
        return;
    }
    const oca_square *q = &st->r->sq[sq];
    if (q->pulcinella > st->declare_left[s])
        st->declare_left[s] = (int8_t)q->pulcinella;
    switch (q->effect) {
    case FX_PAY_BANK:
        oca_pay_or_push(st, s, ACC_BANK, q->amount, R_SQUARE, sq, tr);
        break;
    case FX_RECEIVE_BANK:
        oca_pay_or_push(st, ACC_BANK, s, q->amount, R_SQUARE, sq, tr);
        break;
    case FX_COLLECT_ALL:
    case FX_DISTRIBUTE_ALL:
        collect_or_distribute(st, s, sq, q->effect == FX_COLLECT_ALL, q->amount, tr);
        break;
    case FX_MOVE:
    case FX_AGAIN:
        if (++st->chain > st->r->max_chain)
            break;
        int to = q->effect == FX_MOVE ? q->to : move_by(st, sq, st->roll);
        TRACE(tr, "square %d sends seat %d to square %d", sq, s + 1, to);
        land_again(st, s, to, tr);
        break;
    case FX_WAIT:
        st->waiting[s] = (int8_t)q->amount;
        TRACE(tr, "seat %d must wait %d turn(s)", s + 1, q->amount);
        break;
    }
}

/* oca_turn's loop, inlined twice: with a trace, and for tr == NULL (the usual run), where no
 * TRACE is left to test and no call to the trace's printer makes the state to be read again. */
static GIOCHI_INLINE bool turn_loop(oca_state *st, rng *ch, trace *tr)
{
    /* whether the mover's turn has begun (its declaration or roll is next); after a roll, the
     * phase is PH_NEXT without a test */
    bool begun = st->phase != PH_NEXT;
    for (;; begun = false) {
        if (!begun) {
            if (next_turn(st, tr))
                return true; /* the trade window */
            if (st->phase == PH_NEXT) { /* a skipped turn, or the end */
                if (st->over)
                    return false;
                continue;
            }
        }
        if (st->phase == PH_DECLARE && declare_step(st))
            return true;
        st->phase = PH_NEXT;
        roll_step(st, ch, tr);
        if (st->over || st->nops > 0)
            return false;
    }
}

/* The traced copy of the turn loop (out of line: doc/PERFORMANCE.md). */
static GIOCHI_NOINLINE bool traced_turn(oca_state *st, rng *ch, trace *tr)
{
    return turn_loop(st, ch, tr);
}

bool oca_turn(oca_state *st, rng *ch, trace *tr)
{
    return tr ? traced_turn(st, ch, tr) : turn_loop(st, ch, NULL);
}

/* do_land, out of line: the landing a square's move causes (breaks the inlining's recursion). */
static void land_again(oca_state *st, int s, int sq, trace *tr)
{
    do_land(st, s, sq, tr);
}
