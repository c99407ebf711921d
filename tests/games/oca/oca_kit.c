/* oca_kit.c — the oca unit tests' shared helpers (contracts in oca_kit.h). */
#include "oca_kit.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/registry.h"
#include "config/rules.h"

/* Loads the default ruleset with "key=json" overrides: top-level keys, or board.N.key for
 * square N (counted from 1, as --set counts them). */
void ot_load(oca_rules *r, ...)
{
    char err[256];
    cJSON *j = rules_parse(game_oca.default_rules, "oca", err, sizeof err);
    va_list ap;
    va_start(ap, r);
    for (const char *set; (set = va_arg(ap, const char *)) != NULL;) {
        char key[64];
        const char *eq = strchr(set, '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - set), set);
        cJSON *obj = j, *v = cJSON_Parse(eq + 1);
        char *leaf = key;
        int sq;
        if (sscanf(key, "board.%d.", &sq) == 1) {
            obj = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "board"), sq - 1);
            leaf = strchr(key + 6, '.') + 1;
        }
        cJSON_ReplaceItemInObjectCaseSensitive(obj, leaf, v);
    }
    va_end(ap);
    int rc = game_oca.rules_load(r, j, err, sizeof err);
    if (rc != 0)
        check_fail(__FILE__, __LINE__, "ruleset: %s", err);
    cJSON_Delete(j);
}

/* Scripts the next dice (and rng_below values). */
void ot_dice(tgame *g, int n, const int *v)
{
    memcpy(g->dice, v, (size_t)n * sizeof *v);
    rng_script(&g->ch, g->dice, n);
}

/* Starts a game of n seats in which `capo` rolls 6,6,6 and every other seat 1,1,1, and the
 * deck stays in board order (card c is the c-th postcard square): seat capo+k gets cards
 * k, k+n, k+2n... */
void ot_begin(tgame *g, const oca_rules *r, int n, int capo)
{
    int v[64], k = 0;
    for (int s = 0; s < n; s++)
        for (int i = 0; i < 3; i++)
            v[k++] = s == capo ? 6 : 1;
    for (int i = r->ncards - 1; i > 0; i--)
        v[k++] = i;
    rng_seed(&g->ch, 7);
    ot_dice(g, k, v);
    game_oca.start(&g->st, r, n, &g->ch, NULL);
}

/* Checks that seat must now decide `kind`, then applies action with the given dice next. */
void ot_act_(int line, tgame *g, int kind, int seat, int32_t action, int n, ...)
{
    decision d;
    if (!game_oca.decide(&g->st, &d)) {
        check_fail(__FILE__, line, "game over, expected kind %d of seat %d", kind, seat);
        return;
    }
    if (d.kind != kind || d.seat != seat) {
        check_fail(__FILE__, line, "expected kind %d of seat %d, got kind %d of seat %d", kind,
                   seat, d.kind, d.seat);
        return;
    }
    bool legal = false;
    for (int i = 0; i < d.n; i++)
        legal |= d.action[i] == action;
    if (!legal) {
        check_fail(__FILE__, line, "action %d is not legal", action);
        return;
    }
    int v[32];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        v[i] = va_arg(ap, int);
    va_end(ap);
    ot_dice(g, n, v);
    game_oca.apply(&g->st, action, &g->ch, NULL);
    if (g->ch.script_pos != n)
        check_fail(__FILE__, line, "%d of %d scripted dice used", g->ch.script_pos, n);
    if (!ledger_balanced(&g->st.led))
        check_fail(__FILE__, line, "ledger out of balance");
}

/* The pending decision's kind and seat (or -1, -1 when the game is over). */
int ot_pending(tgame *g, int *seat)
{
    decision d;
    if (!game_oca.decide(&g->st, &d)) {
        *seat = -1;
        return -1;
    }
    *seat = d.seat;
    return d.kind;
}

int64_t ot_pts(const tgame *g, int account)
{
    return g->st.led.balance[account];
}

/* Gives the postcard of square sq to holder h (a seat or HOLD_*). The pending decision was
 * listed before: a change takes effect from the next one. */
void ot_set_card(tgame *g, int sq, int h)
{
    oca_give(&g->st, g->st.r->square_card[sq], h);
}

/* Takes every dealt postcard out of play, so that no card decision interferes (the deck
 * keeps its cards). */
void ot_no_cards(tgame *g)
{
    for (int c = 0; c < g->st.r->ncards; c++)
        if (g->st.holder[c] >= 0)
            ot_set_card(g, g->st.r->card_square[c], HOLD_OUT);
}

/* Two players, seat 0 Capo-gioco, nobody volunteers: the bank is the cashier; both have
 * paid the fee and the entry: seat 0 155, seat 1 145, cashier 100. */
void ot_begin_cashier2(tgame *g, const oca_rules *r)
{
    ot_begin(g, r, 2, 0);
    act(g, K_VOLUNTEER, 1, 0, 0);
}

/* Three players, seat 0 Capo-gioco, seat 1 the only volunteer, who joins the race. */
void ot_begin_banker3(tgame *g, const oca_rules *r)
{
    ot_begin(g, r, 3, 0);
    act(g, K_VOLUNTEER, 1, 1, 0);
    act(g, K_VOLUNTEER, 2, 0, 0);
    act(g, K_BANKER_PLAYS, 1, 1, 0);
}

/* Three players, seat 0 Capo-gioco, nobody volunteers: 160, 145, 145, cashier 150. */
void ot_begin_cashier3(tgame *g, const oca_rules *r)
{
    ot_begin(g, r, 3, 0);
    act(g, K_VOLUNTEER, 1, 0, 0);
    act(g, K_VOLUNTEER, 2, 0, 0);
    ot_hooks(g);
}

/* Banker seat 1 with 5 points must pay 20 to seat 0 (square 13) and fails. */
void ot_fail_the_bank(tgame *g, const oca_rules *r)
{
    ot_begin_banker3(g, r); /* 170, 275, 155 */
    ot_hooks(g);
    ot_drain(g, 1, 5);
    turn(g, 0, 12, 1);
    act(g, K_SHORT_SALE, 1, 0, 0);
    act(g, K_MUTUAL_AID, 1, 6, 2, 1, 1);
    CHECK(g->st.bankrupt[1]);
    CHECK_INT(g->st.banker, -1);
}

/* Leaves one harmless postcard per seat (squares 11, 17 and 1) so that every turn opens with
 * the mover's trade window, where a test can place pieces and script the roll. */
void ot_hooks(tgame *g)
{
    static const int sq[] = {11, 17, 1};
    ot_no_cards(g);
    for (int s = 0; s < g->st.n && s < 3; s++)
        ot_set_card(g, sq[s], s);
}

/* Seat s's turn: put it on square `at` (0: leave it), pass the trade window, roll `roll`. */
void ot_turn_(int line, tgame *g, int s, int at, int roll)
{
    if (at)
        g->st.pos[s] = (int8_t)at;
    ot_act_(line, g, K_TRADE, s, 0, 1, roll);
}

/* Moves points to the Fondo Generale (through the ledger), to set up a poor player. */
void ot_drain(tgame *g, int s, int64_t keep)
{
    ledger_transfer(&g->st.led, s, ACC_FONDO, g->st.led.balance[s] - keep, "test", -1, NULL);
}

/* Sets up bot names[s] at seat s of n under r in ctx[s] (cleared first), bt[s] its type, its
 * parameters at their defaults but "trade" at `trade` when trade >= 0. */
void ot_set_up_bots(const oca_rules *r, int n, const char *const *names, double trade,
                    const bot_type **bt, char (*ctx)[BOT_CTX])
{
    char err[128];
    for (int s = 0; s < n; s++) {
        bt[s] = registry_bot(&game_oca, names[s]);
        CHECK(bt[s] != NULL && bt[s]->ctx_size <= BOT_CTX);
        if (bt[s] == NULL)
            continue;
        double param[32];
        for (int k = 0; bt[s]->params && bt[s]->params[k].name; k++)
            param[k] = trade >= 0 && strcmp(bt[s]->params[k].name, "trade") == 0
                           ? trade
                           : bt[s]->params[k].def;
        memset(ctx[s], 0, BOT_CTX);
        if (bt[s]->setup)
            CHECK_INT(bt[s]->setup(ctx[s], &game_oca, r, s, n, param, err, sizeof err), 0);
    }
}
