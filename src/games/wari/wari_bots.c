/* wari_bots.c — the Wari bot of its own (seed 004): greedy, one move deep and the reply. */
#include "games/wari/wari.h"
#include "core/registry.h"

/* The largest capture the player to move (`seat`) has on board pit[] among his legal moves;
 * 0 when he has none. */
static int best_capture(const wari_rules *r, const uint8_t *pit, int seat)
{
    int32_t moves[WARI_MAX_PITS];
    int n = wari_legal(r, pit, seat, moves), best = 0;
    for (int i = 0; i < n; i++) {
        wari_move m;
        wari_sow(r, pit, seat, moves[i], &m);
        best = m.captured > best ? m.captured : best;
    }
    return best;
}

/* Greedy's choice (contract in wari.h). A move that wins by majority needs no look at the
 * reply; otherwise the reply is the opponent's best capture on the board the move leaves. */
int wari_greedy_pick(const wari_state *st, const decision *d, rng *r)
{
    const wari_rules *rules = st->rules;
    int seat = d->seat, best[WARI_MAX_PITS], nbest = 0, best_cap = -1, best_reply = 0;
    for (int i = 0; i < d->n; i++) {
        wari_move m;
        wari_sow(rules, st->pit, seat, d->action[i], &m);
        int reply = 0;
        if (2 * (st->store[seat] + m.captured) <= rules->total)
            reply = best_capture(rules, m.pit, 1 - seat);
        if (m.captured > best_cap || (m.captured == best_cap && reply < best_reply)) {
            best_cap = m.captured;
            best_reply = reply;
            nbest = 0;
        }
        if (m.captured == best_cap && reply == best_reply)
            best[nbest++] = i;
    }
    return nbest == 1 ? best[0] : best[rng_below(r, (uint32_t)nbest)];
}

static int greedy_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)ctx;
    return wari_greedy_pick(seen, d, r);
}

const bot_type bot_wari_greedy = {
    .name = "greedy",
    .doc = "plays the largest immediate capture; among equal captures, the move that leaves "
           "the opponent the smallest best capture in reply; remaining ties at random",
    .params = NULL,
    .ctx_size = 0,
    .setup = NULL,
    .choose = greedy_choose,
    .teardown = NULL,
};
