/* test_wari.c — Wari / Oware (seed 004): one scripted test per rule of the seed text (each
 * citing its sentence), each gap option, the position keys, move-path counts to depth 8
 * against the published values and against an independent reference implementation written
 * here in a different style, the greedy bot, and the strength of the bots at fixed seeds. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "games/wari/wari.h"
#include "core/perft.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "config/rules.h"
#include "core/runner.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/* Loads the default ruleset with the JSON object `overlay` (or NULL) merged over it into a
 * new rules struct (caller frees); rules_load's message in err on failure (then NULL). */
static wari_rules *try_load(const char *overlay, char *err, size_t errlen)
{
    cJSON *root = rules_parse(config_wari_json, "wari.json", err, errlen);
    if (root == NULL)
        return NULL;
    if (overlay) {
        cJSON *o = rules_parse(overlay, "overlay", err, errlen);
        if (o == NULL) {
            cJSON_Delete(root);
            return NULL;
        }
        rules_merge(root, o);
        cJSON_Delete(o);
    }
    wari_rules *r = malloc(sizeof *r);
    if (game_wari.rules_load(r, root, err, errlen) != 0) {
        free(r);
        r = NULL;
    }
    cJSON_Delete(root);
    return r;
}

#define LOAD(overlay) load_at(__LINE__, (overlay))
static wari_rules *load_at(int line, const char *overlay)
{
    char err[256];
    wari_rules *r = try_load(overlay, err, sizeof err);
    if (r == NULL) {
        check_fail(__FILE__, line, "ruleset did not load: %s", err);
        abort(); /* every later step would dereference it */
    }
    return r;
}

/* Sets st to board b (pits 1..6 of seat 1, then pits 1..6 of seat 2, as in the sowing order),
 * stores s1 and s2, seat `turn` (0 or 1) to move. */
static void setpos(wari_state *st, const wari_rules *r, const int *b, int s1, int s2, int turn)
{
    uint8_t pit[WARI_MAX_BOARD] = {0};
    for (int i = 0; i < 2 * r->pits; i++)
        pit[i] = (uint8_t)b[i];
    int store[2] = {s1, s2};
    wari_set_position(st, r, pit, store, turn, 0, 0);
}

/* Whether pit a (0-based, own row) is among the legal moves of st. */
static bool is_legal(const wari_state *st, int a)
{
    decision d;
    if (!game_wari.decide(st, &d))
        return false;
    for (int i = 0; i < d.n; i++)
        if (d.action[i] == a)
            return true;
    return false;
}

/* Plays pit a (1-based as in the traces) of the player to move; fails the test if illegal. */
#define PLAY(st, a) play_at(__LINE__, (st), (a))
static void play_at(int line, wari_state *st, int a)
{
    if (!is_legal(st, a - 1)) {
        check_fail(__FILE__, line, "pit %d is not a legal move here", a);
        return;
    }
    rng none;
    rng_seed(&none, 0);
    game_wari.apply(st, a - 1, &none, NULL);
}

/* Checks board, stores and turn of st against the expected values. */
#define BOARD(st, b, s1, s2) board_at(__LINE__, (st), (b), (s1), (s2))
static void board_at(int line, const wari_state *st, const int *b, int s1, int s2)
{
    for (int i = 0; i < 2 * st->rules->pits; i++)
        if (st->pit[i] != b[i])
            check_fail(__FILE__, line, "pit index %d holds %d, expected %d", i, st->pit[i],
                       b[i]);
    if (st->store[0] != s1 || st->store[1] != s2)
        check_fail(__FILE__, line, "stores %d %d, expected %d %d", st->store[0], st->store[1],
                   s1, s2);
}

/* The outcome of a finished st. */
static outcome result(const wari_state *st)
{
    outcome o;
    game_wari.finish(st, &o, NULL);
    return o;
}

/* ---- the ruleset -------------------------------------------------------------------------- */

TEST(wari_default_ruleset)
{
    wari_rules *r = LOAD(NULL);
    CHECK_INT(r->pits, 6);
    CHECK_INT(r->seeds, 4);
    CHECK_INT(r->total, 48);
    CHECK_INT(r->grand_slam, WARI_SLAM_ALLOWED_NO_CAPTURE);
    CHECK(r->must_feed && r->repetition);
    CHECK_INT(r->no_capture_limit, 0);
    CHECK_INT(r->move_cap, 1000);
    CHECK_INT(r->first_player, WARI_FIRST_SEAT1);
    free(r);
}

TEST(wari_bad_rulesets_name_their_key)
{
    char err[256];
    static const struct {
        const char *overlay, *msg;
    } bad[] = {
        {"{\"pits\": 9}", "ruleset key 'pits': expected an integer in 2..8"},
        {"{\"seeds\": 0}", "ruleset key 'seeds': expected an integer in 1..12"},
        {"{\"pits\": 8, \"seeds\": 7}", "ruleset key 'seeds': 7 seeds in each of 16 pits"},
        {"{\"grand_slam\": \"sometimes\"}", "ruleset key 'grand_slam'"},
        {"{\"must_feed\": 1}", "ruleset key 'must_feed'"},
        {"{\"move_cap\": 0}", "ruleset key 'move_cap'"},
        {"{\"no_capture_limit\": -1}", "ruleset key 'no_capture_limit'"},
        {"{\"first_player\": \"seat2\"}", "ruleset key 'first_player'"},
        {"{\"laps\": true}", "'laps'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wari_rules *r = try_load(bad[i].overlay, err, sizeof err);
        CHECK(r == NULL);
        free(r);
        if (strstr(err, bad[i].msg) == NULL)
            check_fail(__FILE__, __LINE__, "%s: message '%s' lacks '%s'", bad[i].overlay, err,
                       bad[i].msg);
    }
    /* the largest boards whose position keys fit */
    wari_rules *r = LOAD("{\"pits\": 8, \"seeds\": 6}");
    free(r);
    r = LOAD("{\"pits\": 6, \"seeds\": 12}");
    free(r);
}

/* ---- sowing ------------------------------------------------------------------------------- */

/* "Ognuno di questi dodici scomparti deve contenere all'inizio, 4 oggetti"; "il primo
 * giocatore leva tutti i pezzi contenuti in uno dei sei buchi della sua parte". */
TEST(wari_start_position)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    rng chance;
    rng_seed(&chance, 1);
    game_wari.start(&st, r, 2, &chance, NULL);
    for (int i = 0; i < 12; i++)
        CHECK_INT(st.pit[i], 4);
    decision d;
    CHECK(game_wari.decide(&st, &d));
    CHECK_INT(d.seat, 0);
    CHECK_INT(d.n, 6);
    for (int i = 0; i < 6; i++)
        CHECK_INT(d.action[i], i);
    free(r);
}

/* "Ad uno ad uno, li mette nelle cavità seguenti, in senso antiorario"; "queste possono
 * risultare tutte o in parte nelle caselle del suo avversario". */
TEST(wari_sowing_counter_clockwise_into_the_opponent_row_and_round)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    setpos(&st, r, (int[]){4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}, 0, 0, 0);
    PLAY(&st, 1); /* pit 1 of seat 1: four seeds into pits 2..5 */
    BOARD(&st, ((int[]){0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4}), 0, 0);
    CHECK_INT(st.turn, 1);
    PLAY(&st, 5); /* pit 5 of seat 2: one seed on his row, then round to seat 1's pits 1..3 */
    BOARD(&st, ((int[]){1, 6, 6, 5, 5, 4, 4, 4, 4, 4, 0, 5}), 0, 0);
    PLAY(&st, 6); /* seat 1's pit 6: 4 seeds all into seat 2's row */
    BOARD(&st, ((int[]){1, 6, 6, 5, 5, 0, 5, 5, 5, 5, 0, 5}), 0, 0);
    free(r);
}

/* "Se ci si accorge di un buco vuoto, questo viene saltato e resta inoccupato fino al giro
 * successivo", read as the Abapa rule: a sowing of 12 or more seeds skips the pit it came
 * from, which stays empty. */
TEST(wari_laps_skip_the_origin_pit)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    /* 12 seeds from seat 1's pit 3: one to each of the 11 other pits, the 12th to pit 4 */
    setpos(&st, r, (int[]){5, 5, 12, 0, 5, 5, 5, 5, 5, 5, 5, 5}, 0, 0, 0);
    PLAY(&st, 3);
    BOARD(&st, ((int[]){6, 6, 0, 2, 6, 6, 6, 6, 6, 6, 6, 6}), 0, 0);
    /* 11 seeds: exactly once round, the last in the pit before the origin (no skip needed) */
    setpos(&st, r, (int[]){5, 5, 11, 0, 5, 5, 5, 5, 5, 5, 5, 5}, 0, 0, 0);
    PLAY(&st, 3);
    BOARD(&st, ((int[]){6, 6, 0, 1, 6, 6, 6, 6, 6, 6, 6, 6}), 0, 0);
    /* 22 seeds: two laps of the 11 others, the last in pit 2 (before the origin) */
    setpos(&st, r, (int[]){5, 5, 22, 0, 5, 5, 5, 5, 5, 5, 5, 5}, 0, 0, 0);
    PLAY(&st, 3);
    BOARD(&st, ((int[]){7, 7, 0, 2, 7, 7, 7, 7, 7, 7, 7, 7}), 0, 0);
    /* 25 seeds from seat 2's pit 6: two laps and 3 more, round into seat 1's pits 1..3, and
     * the last makes seat 1's pit 3 hold 3 after two laps over an empty pit: captured */
    setpos(&st, r, (int[]){5, 5, 0, 5, 5, 5, 5, 5, 5, 5, 5, 25}, 0, 0, 1);
    PLAY(&st, 6);
    BOARD(&st, ((int[]){8, 8, 0, 7, 7, 7, 7, 7, 7, 7, 7, 0}), 0, 3);
    free(r);
}

/* ---- captures ----------------------------------------------------------------------------- */

/* "Quando l'ultimo pezzo cade in una cavità avversaria in cui si trovino al momento due o tre
 * palline, colui che mangia prende questi pezzi": a pit made 2 or made 3 is captured, a pit
 * made 1 or 4 is not. */
TEST(wari_capture_of_two_and_of_three)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    setpos(&st, r, (int[]){0, 0, 0, 0, 0, 2, 1, 4, 4, 4, 4, 4}, 0, 0, 0);
    PLAY(&st, 6); /* 2 seeds: pit 1 of seat 2 gets 2, pit 2 gets 5: last makes 5, no capture */
    BOARD(&st, ((int[]){0, 0, 0, 0, 0, 0, 2, 5, 4, 4, 4, 4}), 0, 0);
    setpos(&st, r, (int[]){0, 0, 0, 0, 0, 1, 1, 4, 4, 4, 4, 4}, 0, 0, 0);
    PLAY(&st, 6); /* last seed makes 2: captured */
    BOARD(&st, ((int[]){0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4}), 2, 0);
    CHECK_INT(st.count[0].captures, 1);
    setpos(&st, r, (int[]){0, 0, 0, 0, 0, 1, 2, 4, 4, 4, 4, 4}, 0, 0, 0);
    PLAY(&st, 6); /* makes 3: captured */
    BOARD(&st, ((int[]){0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4}), 3, 0);
    setpos(&st, r, (int[]){0, 0, 0, 0, 0, 1, 3, 4, 4, 4, 4, 4}, 0, 0, 0);
    PLAY(&st, 6); /* makes 4: nothing */
    BOARD(&st, ((int[]){0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4}), 0, 0);
    setpos(&st, r, (int[]){0, 0, 0, 0, 0, 1, 0, 4, 4, 4, 4, 4}, 0, 0, 0);
    PLAY(&st, 6); /* makes 1: nothing */
    BOARD(&st, ((int[]){0, 0, 0, 0, 0, 0, 1, 4, 4, 4, 4, 4}), 0, 0);
    /* seat 2 captures in seat 1's row the same way */
    setpos(&st, r, (int[]){2, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 1}, 0, 0, 1);
    PLAY(&st, 6);
    BOARD(&st, ((int[]){0, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0}), 0, 3);
    free(r);
}

/* "Può continuare a prendere i pezzi ... dei buchi seguenti se 1) i buchi sono dalla parte
 * del suo avversario 2) ogni buco contiene ... due o tre", read as the Abapa chain: the pits
 * before the last one, while they hold 2 or 3, stopping at the first that does not. */
TEST(wari_capture_chain_stops_at_the_first_other_pit)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    /* seat 1's pit 6 holds 4: it sows seat 2's pits 1..4 */
    setpos(&st, r, (int[]){1, 0, 0, 0, 0, 4, 2, 1, 3, 2, 4, 4}, 0, 0, 0);
    PLAY(&st, 6); /* pits of seat 2 become 3, 2, 4, 3: last (3) captured, then the 4 stops */
    BOARD(&st, ((int[]){1, 0, 0, 0, 0, 0, 3, 2, 4, 0, 4, 4}), 3, 0);
    setpos(&st, r, (int[]){1, 0, 0, 0, 0, 4, 2, 1, 2, 2, 4, 4}, 0, 0, 0);
    PLAY(&st, 6); /* now 3, 2, 3, 3: the whole chain of four */
    BOARD(&st, ((int[]){1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4}), 11, 0);
    /* a pit made 1 stops it too */
    setpos(&st, r, (int[]){1, 0, 0, 0, 0, 3, 2, 0, 2, 4, 4, 4}, 0, 0, 0);
    PLAY(&st, 6); /* 3, 1, 3: the last 3 only */
    BOARD(&st, ((int[]){1, 0, 0, 0, 0, 0, 3, 1, 0, 4, 4, 4}), 3, 0);
    free(r);
}

/* "I buchi sono dalla parte del suo avversario": the chain stops at the end of the opponent's
 * row, even when the mover's own pits before it hold 2 or 3. */
TEST(wari_capture_chain_stops_at_the_own_row)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    /* seat 1's pit 4 holds 4: pits 5, 6 (own) become 2, 3; seat 2's pits 1, 2 become 2, 3 */
    setpos(&st, r, (int[]){1, 0, 0, 4, 1, 2, 1, 2, 4, 4, 4, 4}, 0, 0, 0);
    PLAY(&st, 4);
    BOARD(&st, ((int[]){1, 0, 0, 0, 2, 3, 0, 0, 4, 4, 4, 4}), 5, 0);
    free(r);
}

/* "Non si può mangiare se non con l'ultima pallina distribuita": pits made 2 or 3 on the way
 * are not captured when the last seed makes something else, or falls on the own row. */
TEST(wari_only_the_last_seed_captures)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    setpos(&st, r, (int[]){1, 0, 0, 0, 0, 3, 1, 2, 5, 4, 4, 4}, 0, 0, 0);
    PLAY(&st, 6); /* 2, 3 on the way, the last makes 6 */
    BOARD(&st, ((int[]){1, 0, 0, 0, 0, 0, 2, 3, 6, 4, 4, 4}), 0, 0);
    /* seat 2's last seed makes his own pit 2 hold 2: not captured */
    setpos(&st, r, (int[]){4, 4, 4, 4, 4, 4, 1, 1, 0, 0, 0, 0}, 0, 0, 1);
    PLAY(&st, 1);
    BOARD(&st, ((int[]){4, 4, 4, 4, 4, 4, 0, 2, 0, 0, 0, 0}), 0, 0);
    free(r);
}

/* ---- must feed ---------------------------------------------------------------------------- */

/* "Un giocatore non può vuotare i buchi del suo avversario se questo può ancora metterci dei
 * pezzi": when the opponent has no seed, only moves that give him some are legal. */
TEST(wari_must_feed_an_empty_opponent)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    setpos(&st, r, (int[]){3, 1, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0}, 5, 5, 0);
    CHECK(!st.over);
    CHECK(!is_legal(&st, 0)); /* 3 seeds from pit 1 stay in the own row */
    CHECK(!is_legal(&st, 1));
    CHECK(is_legal(&st, 4)); /* 2 seeds from pit 5 reach seat 2's pit 1 */
    CHECK(is_legal(&st, 5));
    decision d;
    game_wari.decide(&st, &d);
    CHECK_INT(d.n, 2);
    /* must_feed off: every non-empty pit */
    wari_rules *off = LOAD("{\"must_feed\": false}");
    setpos(&st, off, (int[]){3, 1, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0}, 5, 5, 0);
    game_wari.decide(&st, &d);
    CHECK_INT(d.n, 4);
    free(off);
    free(r);
}

/* "Quando la partita è bloccata, il giocatore che ha ancora pezzi nei suoi buchi li toglie e li
 * aggiunge a quelli mangiati": no move can feed the empty opponent, so the game ends and each
 * takes the seeds of his own row. */
TEST(wari_blocked_when_nobody_can_feed)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    setpos(&st, r, (int[]){3, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}, 20, 23, 0);
    CHECK(st.over);
    CHECK_INT(st.end, WARI_END_BLOCKED);
    decision d;
    CHECK(!game_wari.decide(&st, &d));
    outcome o = result(&st);
    CHECK_INT(o.score[0], 25);
    CHECK_INT(o.score[1], 23);
    CHECK_INT(o.winners, 1);
    CHECK_INT(o.rank[0], 1);
    CHECK_INT(o.rank[1], 2);
    CHECK_INT(o.end, WARI_END_BLOCKED);
    /* "Il gioco ha termine quando tutti i buchi dalla parte di un giocatore sono vuoti e tocca
     * a lui giocare" (the player to move has no seed) */
    setpos(&st, r, (int[]){0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}, 23, 23, 0);
    CHECK(st.over);
    CHECK_INT(st.end, WARI_END_BLOCKED);
    o = result(&st);
    CHECK_INT(o.score[1], 25);
    free(r);
}

/* ---- grand slam --------------------------------------------------------------------------- */

/* The position of every grand-slam test: seat 1's pit 6 (3 seeds) makes seat 2's only seeds,
 * pits 1..3, into 2, 2, 3, a grand slam; pit 1 (1 seed) is a quiet move. */
static const int slam_board[12] = {1, 0, 0, 0, 0, 3, 1, 1, 2, 0, 0, 0};

/* "Non può passare la mano se ha la possibilità di catturare tutti i pezzi dell'avversario,
 * perché questo blocca il gioco": read by grand_slam; the default (Abapa) allows the move
 * and captures nothing. */
TEST(wari_grand_slam_allowed_without_capture)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    setpos(&st, r, slam_board, 10, 10, 0);
    CHECK(is_legal(&st, 5) && is_legal(&st, 0));
    PLAY(&st, 6);
    BOARD(&st, ((int[]){1, 0, 0, 0, 0, 0, 2, 2, 3, 0, 0, 0}), 10, 10);
    CHECK_INT(st.count[0].slams, 1);
    CHECK_INT(st.count[0].captures, 0);
    CHECK(!st.over);
    /* declining it counts as refused */
    setpos(&st, r, slam_board, 10, 10, 0);
    PLAY(&st, 1);
    CHECK_INT(st.count[0].slams, 0);
    CHECK_INT(st.count[0].slams_refused, 1);
    free(r);
}

TEST(wari_grand_slam_forbidden_unless_the_only_move)
{
    wari_rules *r = LOAD("{\"grand_slam\": \"forbidden\"}");
    wari_state st;
    setpos(&st, r, slam_board, 10, 10, 0);
    CHECK(!is_legal(&st, 5));
    CHECK(is_legal(&st, 0));
    PLAY(&st, 1);
    CHECK_INT(st.count[0].slams_refused, 1);
    /* the only move: played, capturing nothing */
    int only[12] = {0, 0, 0, 0, 0, 3, 1, 1, 2, 0, 0, 0};
    setpos(&st, r, only, 10, 10, 0);
    CHECK(is_legal(&st, 5));
    PLAY(&st, 6);
    BOARD(&st, ((int[]){0, 0, 0, 0, 0, 0, 2, 2, 3, 0, 0, 0}), 10, 10);
    CHECK_INT(st.count[0].slams, 1);
    free(r);
}

TEST(wari_grand_slam_captures_all)
{
    wari_rules *r = LOAD("{\"grand_slam\": \"captures_all\"}");
    wari_state st;
    setpos(&st, r, slam_board, 10, 10, 0);
    PLAY(&st, 6);
    BOARD(&st, ((int[]){1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), 17, 10);
    /* seat 2 must now play with no seed: the game ends, seat 1 takes his own row */
    CHECK(st.over);
    CHECK_INT(st.end, WARI_END_BLOCKED);
    outcome o = result(&st);
    CHECK_INT(o.score[0], 18);
    CHECK_INT(o.score[1], 10);
    free(r);
}

/* Must feed under captures_all: the opponent's row is judged after the move. 17 seeds from
 * pit 6 go round the board, make every pit of the empty opponent 2 and take them all back:
 * the move reaches his row but leaves it as empty as before, so it does not feed him. */
TEST(wari_captures_all_feeding_is_judged_after_the_move)
{
    wari_rules *all = LOAD("{\"grand_slam\": \"captures_all\"}");
    wari_rules *abapa = LOAD(NULL);
    const int lone[12] = {1, 0, 0, 0, 0, 17, 0, 0, 0, 0, 0, 0};
    const int two[12] = {0, 0, 0, 0, 2, 17, 0, 0, 0, 0, 0, 0};
    wari_state st;
    setpos(&st, all, lone, 15, 15, 0); /* the 17 seeds were the only way to reach him */
    CHECK(st.over);
    CHECK_INT(st.end, WARI_END_BLOCKED);
    setpos(&st, abapa, lone, 15, 15, 0); /* where a grand slam captures nothing, it feeds */
    CHECK(!st.over);
    CHECK(is_legal(&st, 5));
    setpos(&st, all, two, 15, 14, 0);
    CHECK(!st.over);
    CHECK(is_legal(&st, 4));
    CHECK(!is_legal(&st, 5));
    setpos(&st, abapa, two, 15, 14, 0);
    CHECK(is_legal(&st, 4) && is_legal(&st, 5));
    free(all);
    free(abapa);
}

/* ---- the end ------------------------------------------------------------------------------ */

/* "Vince colui che, alla fine, avrà il maggior numero di palline": more than half of the
 * seeds captured cannot be caught up, so the game ends at once. */
TEST(wari_majority_ends_the_game)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    setpos(&st, r, (int[]){0, 0, 0, 0, 0, 1, 1, 4, 4, 4, 0, 0}, 23, 8, 0);
    PLAY(&st, 6);
    CHECK(st.over);
    CHECK_INT(st.end, WARI_END_MAJORITY);
    outcome o = result(&st);
    CHECK_INT(o.score[0], 25);
    CHECK_INT(o.score[1], 20); /* 8 + his own row: every seed is somebody's */
    CHECK_INT(o.winners, 1);
    /* exactly half is no majority */
    setpos(&st, r, (int[]){0, 0, 0, 0, 1, 1, 1, 4, 4, 4, 0, 0}, 22, 8, 0);
    PLAY(&st, 6);
    CHECK(!st.over);
    CHECK_INT(st.store[0], 24);
    free(r);
}

/* Equal seeds at the end is a draw, shared by both seats. */
TEST(wari_equal_seeds_draw)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    setpos(&st, r, (int[]){2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 22, 24, 0);
    CHECK(st.over);
    outcome o = result(&st);
    CHECK_INT(o.score[0], 24);
    CHECK_INT(o.score[1], 24);
    CHECK_INT(o.winners, 3);
    CHECK_INT(o.rank[0], 1);
    CHECK_INT(o.rank[1], 1);
    free(r);
}

/* "Se restano in gioco soltanto pochissimi pezzi, i giocatori possono prendere quelli che hanno
 * messo alla loro destra e terminare la partita", modelled by a repeated position: two lone
 * seeds chase each other round the board and the position comes back after 12 moves. */
TEST(wari_repetition_ends_the_game)
{
    static const int cycle[12] = {6, 6, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5};
    static const int lone[12] = {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1};
    wari_rules *r = LOAD(NULL);
    wari_state st;
    setpos(&st, r, lone, 22, 24, 0);
    for (int i = 0; i < 12; i++) {
        CHECK(!st.over);
        PLAY(&st, cycle[i]);
    }
    BOARD(&st, lone, 22, 24);
    CHECK(st.over);
    CHECK_INT(st.end, WARI_END_REPETITION);
    outcome o = result(&st);
    CHECK_INT(o.score[0], 23);
    CHECK_INT(o.score[1], 25);
    /* without the rule the chase goes on */
    wari_rules *off = LOAD("{\"repetition\": false}");
    setpos(&st, off, lone, 22, 24, 0);
    for (int i = 0; i < 24; i++)
        PLAY(&st, cycle[i % 12]);
    CHECK(!st.over);
    free(off);
    free(r);
}

/* Stretches without capture from random games (seed-independent data: each was found by
 * replaying random games against a plain list of every board since the last capture) whose
 * first repeated position is the stretch's own start, 48, 50 and 100 moves later: further
 * back than any window of the last moves would look. */
static const struct {
    int board[12], s1, s2, turn, n;
    int moves[100]; /* pits 1..6 of the player to move */
} far_stretch[] = {
    {{0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 1}, 24, 20, 0, 48,
     {6, 1, 3, 2, 4, 3, 5, 4, 6, 6, 2, 5, 3, 1, 1, 2, 2, 6, 1, 3, 2, 4, 4, 5,
      5, 6, 6, 1, 3, 2, 1, 3, 5, 4, 6, 5, 2, 1, 3, 2, 4, 6, 5, 3, 1, 4, 2, 5}},
    {{0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 1, 0}, 20, 24, 1, 50,
     {5, 3, 6, 6, 1, 1, 2, 4, 3, 2, 4, 6, 5, 5, 1, 6, 1, 3, 6, 4, 2, 1, 4, 5, 3,
      6, 1, 2, 2, 3, 3, 4, 5, 5, 6, 1, 4, 2, 5, 6, 6, 2, 1, 1, 2, 3, 3, 5, 4, 2}},
    {{0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 2}, 20, 24, 1, 100,
     {1, 3, 6, 1, 2, 4, 3, 5, 4, 6, 5, 2, 1, 3, 2, 4, 6, 5, 3, 6, 1, 1, 4, 2, 2,
      3, 3, 4, 4, 5, 5, 6, 6, 2, 1, 3, 2, 1, 3, 4, 4, 2, 5, 5, 6, 6, 1, 3, 2, 5,
      3, 6, 1, 1, 2, 2, 3, 3, 4, 4, 6, 6, 1, 1, 2, 2, 3, 3, 5, 4, 6, 1, 4, 2, 5,
      3, 6, 5, 1, 1, 2, 4, 3, 5, 4, 2, 5, 6, 1, 3, 2, 4, 3, 5, 6, 6, 4, 1, 5, 2}},
};

/* The repetition rule looks back over the whole stretch since the last capture: the position
 * that comes back 48, 50 or 100 moves later ends the game on that move, not before (the test
 * keeps its own list of the boards to say which move repeats first), and as a position in
 * the middle of a search would: from a copy made halfway (memcpy, as search bots clone). */
TEST(wari_repetition_at_any_distance_since_the_last_capture)
{
    wari_rules *r = LOAD(NULL);
    for (size_t c = 0; c < sizeof far_stretch / sizeof far_stretch[0]; c++) {
        int n = far_stretch[c].n;
        wari_state st, copy;
        setpos(&st, r, far_stretch[c].board, far_stretch[c].s1, far_stretch[c].s2,
               far_stretch[c].turn);
        uint8_t seen[101][WARI_MAX_BOARD];
        memcpy(seen[0], st.pit, sizeof seen[0]);
        for (int i = 0; i < n; i++) {
            CHECK(!st.over);
            if (i == n / 2) { /* go on in a copy: the memory is part of the state */
                memcpy(&copy, &st, sizeof copy);
                memset(&st, 0xa5, sizeof st);
                memcpy(&st, &copy, sizeof st);
            }
            PLAY(&st, far_stretch[c].moves[i]);
            int first = -1; /* the plain list: an earlier board with the same side to move */
            for (int j = (i + 1) % 2; j <= i; j += 2)
                if (memcmp(seen[j], st.pit, sizeof seen[j]) == 0 && first < 0)
                    first = j;
            memcpy(seen[i + 1], st.pit, sizeof seen[i + 1]);
            CHECK_INT(st.over, first >= 0);
            if (first >= 0)
                CHECK_INT(i + 1, n); /* the stretch's first repeat is its last move ... */
        }
        CHECK_INT(memcmp(seen[0], seen[n], sizeof seen[0]), 0); /* ... back to its start */
        CHECK(st.over);
        CHECK_INT(st.end, WARI_END_REPETITION);
        CHECK_INT(st.moves, n);
        CHECK_INT(game_wari.check(&st, (char[64]){0}, 64), 0);
    }
    free(r);
}

/* A capture starts the memory again (nothing from before it can come back: the stores have
 * changed), and --check replays the memory to the board. */
TEST(wari_repetition_memory_starts_again_at_a_capture)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    setpos(&st, r, (int[]){0, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1}, 20, 23, 0);
    PLAY(&st, 4); /* pit 4 (1 seed) into pit 5: no capture */
    PLAY(&st, 6); /* seat 2's pit 6 (1 seed) into seat 1's pit 1 */
    CHECK_INT(st.nrec, 2);
    char err[128];
    CHECK_INT(game_wari.check(&st, err, sizeof err), 0);
    st.rec[0] ^= 3; /* a broken memory is what --check reports */
    CHECK(game_wari.check(&st, err, sizeof err) != 0);
    CHECK(strstr(err, "repetition memory") != NULL);
    st.rec[0] ^= 3;
    PLAY(&st, 6); /* pit 6 (1 seed) makes seat 2's pit 1 two: a capture (not a grand slam) */
    CHECK_INT(st.store[0], 22);
    CHECK_INT(st.nrec, 0);
    CHECK_INT(game_wari.check(&st, err, sizeof err), 0);
    free(r);
}

/* Ruleset key start: every game starts from the position given as data, its player to move
 * first, the memory of the repetition rule starting there; every seed must be somewhere. */
TEST(wari_start_position_as_data)
{
    wari_rules *r = LOAD("{\"start\": {\"pits\": [0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 1], "
                         "\"stores\": [20, 24], \"turn\": 2}, \"first_player\": \"random\"}");
    wari_state st;
    rng chance;
    rng_seed(&chance, 1);
    game_wari.start(&st, r, 2, &chance, NULL);
    BOARD(&st, ((int[]){0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 1}), 20, 24);
    CHECK_INT(st.turn, 1);
    CHECK_INT(st.first, 1);
    CHECK_INT(st.moves, 0);
    CHECK_INT(st.nrec, 0);
    CHECK(!st.over);
    free(r);
    char err[256];
    r = try_load("{\"start\": {\"pits\": [0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 1], "
                 "\"stores\": [20, 20], \"turn\": 1}}", err, sizeof err);
    CHECK(r == NULL);
    CHECK(strstr(err, "'start.pits'") != NULL);
    r = try_load("{\"start\": {\"pits\": [1, 2], \"stores\": [20, 20], \"turn\": 1}}", err,
                 sizeof err);
    CHECK(r == NULL);
    CHECK(strstr(err, "'start.pits'") != NULL);
    r = try_load("{\"start\": {\"pits\": [0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 1], "
                 "\"stores\": [20, 24], \"turn\": 1, \"side\": 1}}", err, sizeof err);
    CHECK(r == NULL);
    CHECK(strstr(err, "side") != NULL);
}

/* With the rule on, every position of a stretch without capture is kept: the ruleset must
 * bound the stretch (move_cap, or a no-capture limit) by the memory's WARI_STRETCH moves. */
TEST(wari_repetition_needs_a_bounded_stretch)
{
    char err[256];
    wari_rules *r = try_load("{\"move_cap\": 5000}", err, sizeof err);
    CHECK(r == NULL);
    CHECK(strstr(err, "'move_cap'") != NULL);
    free(r);
    r = LOAD("{\"move_cap\": 5000, \"no_capture_limit\": 500}");
    free(r);
    r = LOAD("{\"move_cap\": 5000, \"repetition\": false}");
    free(r);
}

/* The no-capture limit and the move cap end the game the same way (each takes his row). */
TEST(wari_no_capture_limit_and_move_cap)
{
    wari_rules *r = LOAD("{\"no_capture_limit\": 3}");
    wari_state st;
    rng chance;
    rng_seed(&chance, 1);
    game_wari.start(&st, r, 2, &chance, NULL);
    PLAY(&st, 1);
    PLAY(&st, 1);
    CHECK(!st.over);
    PLAY(&st, 2);
    CHECK(st.over);
    CHECK_INT(st.end, WARI_END_NO_CAPTURE);
    outcome o = result(&st);
    CHECK_INT(o.score[0] + o.score[1], 48);
    CHECK_INT(o.length, 3);
    /* a capture restarts the count: after it, three more quiet moves are allowed */
    setpos(&st, r, (int[]){0, 0, 0, 0, 4, 1, 1, 4, 4, 4, 4, 4}, 0, 0, 0);
    PLAY(&st, 6); /* captures 2 */
    PLAY(&st, 2);
    PLAY(&st, 5);
    CHECK(!st.over);
    PLAY(&st, 3);
    CHECK(st.over);
    free(r);
    r = LOAD("{\"move_cap\": 5}");
    game_wari.start(&st, r, 2, &chance, NULL);
    for (int i = 0; i < 4; i++)
        PLAY(&st, 1 + i);
    CHECK(!st.over);
    PLAY(&st, 6);
    CHECK(st.over);
    CHECK_INT(st.end, WARI_END_MOVE_CAP);
    CHECK_INT(result(&st).length, 5);
    free(r);
}

/* first_player: seat 1 by default ("il primo giocatore"); random draws it from the chance
 * stream (the only draw of a game). */
TEST(wari_first_player)
{
    wari_rules *r = LOAD("{\"first_player\": \"random\"}");
    wari_state st;
    rng chance;
    static const int two[] = {1};
    rng_script(&chance, two, 1);
    game_wari.start(&st, r, 2, &chance, NULL);
    CHECK_INT(st.turn, 1);
    CHECK_INT(st.first, 1);
    decision d;
    game_wari.decide(&st, &d);
    CHECK_INT(d.seat, 1);
    free(r);
}

/* ---- position keys ------------------------------------------------------------------------ */

/* Collects the boards reachable in `depth` moves from st into out (room for max). */
static int collect(const wari_state *st, int depth, wari_state *out, int n, int max)
{
    if (n < max)
        out[n++] = *st;
    decision d;
    if (depth == 0 || !game_wari.decide(st, &d))
        return n;
    rng none;
    rng_seed(&none, 0);
    for (int i = 0; i < d.n; i++) {
        wari_state child = *st;
        game_wari.apply(&child, d.action[i], &none, NULL);
        n = collect(&child, depth - 1, out, n, max);
    }
    return n;
}

/* Keys are exact: among every position of the first 5 moves (and their stores), equal keys
 * mean equal boards, and the game's hash separates the player to move and the stores. */
TEST(wari_keys_are_exact)
{
    enum { MAX = 7000 };
    wari_rules *r = LOAD(NULL);
    wari_state start, *all = malloc(sizeof *all * MAX);
    rng chance;
    rng_seed(&chance, 1);
    game_wari.start(&start, r, 2, &chance, NULL);
    int n = collect(&start, 5, all, 0, MAX);
    CHECK(n > 6000);
    uint64_t *key = malloc(sizeof *key * MAX), *hash = malloc(sizeof *hash * MAX);
    for (int i = 0; i < n; i++) {
        key[i] = wari_key(r, all[i].pit);
        hash[i] = game_wari.hash(&all[i]);
    }
    int clashes = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            /* every position here holds its 48 seeds: on the board and in the stores */
            bool same_board = memcmp(all[i].pit, all[j].pit, 12) == 0;
            bool same_total =
                all[i].store[0] + all[i].store[1] == all[j].store[0] + all[j].store[1];
            if (same_total && same_board != (key[i] == key[j]))
                clashes++;
            bool same_pos = same_board && all[i].turn == all[j].turn &&
                            all[i].store[0] == all[j].store[0];
            if (same_pos != (hash[i] == hash[j]))
                clashes++;
        }
    free(key);
    free(hash);
    CHECK_INT(clashes, 0);
    free(all);
    free(r);
}

/* ---- the reference implementation --------------------------------------------------------
 * Written apart from wari.c, in another style, to check its move paths: each row is an array
 * of its owner's pits, a move picks up the seeds and walks them one by one round the board,
 * legality is tried by playing, and the repetition rule compares whole boards along the path.
 * It follows the same rules text (the gap choices of configs/wari.json and their options). */

typedef struct ref_pos {
    int row[2][WARI_MAX_PITS]; /* row[p][i]: pit i of player p, in sowing order */
    int bank[2];
    int mover;
} ref_pos;

typedef struct ref_game {
    int pits, total, slam; /* slam: 0 allowed without capture, 1 forbidden, 2 captures all */
    bool feed, repetition;
    int no_capture_limit, move_cap;
    int quiet0; /* moves without capture before the position the count starts from */
    ref_pos path[PERFT_MAX_DEPTH + 64]; /* positions since the last capture, for repetition */
} ref_game;

/* Plays pit i of pos->mover into *next; returns the seeds the last seed's chain would take
 * (before the grand-slam rule) and sets *all when they are every seed of the opponent. */
static int ref_move(const ref_game *g, const ref_pos *pos, int i, ref_pos *next, bool *all)
{
    *next = *pos;
    int me = pos->mover, side = me, at = i;
    int hand = next->row[me][i];
    next->row[me][i] = 0;
    while (hand > 0) {
        at++;
        if (at == g->pits) {
            at = 0;
            side = 1 - side;
        }
        if (side == me && at == i)
            continue; /* the pit the seeds came from */
        next->row[side][at]++;
        hand--;
    }
    int taken = 0;
    if (side != me)
        for (int j = at; j >= 0 && (next->row[side][j] == 2 || next->row[side][j] == 3); j--)
            taken += next->row[side][j];
    int left = 0;
    for (int j = 0; j < g->pits; j++)
        left += next->row[1 - me][j];
    *all = taken > 0 && taken == left;
    if (taken > 0 && (!*all || g->slam == 2)) {
        for (int j = at; j >= 0 && (next->row[side][j] == 2 || next->row[side][j] == 3); j--)
            next->row[side][j] = 0;
        next->bank[me] += taken;
    } else {
        taken = 0;
    }
    next->mover = 1 - me;
    return taken;
}

static int ref_seeds(const ref_game *g, const ref_pos *pos, int p)
{
    int n = 0;
    for (int j = 0; j < g->pits; j++)
        n += pos->row[p][j];
    return n;
}

/* The legal pits of pos, by trying each. */
static int ref_legal(const ref_game *g, const ref_pos *pos, int *out)
{
    int n = 0, slams = 0, me = pos->mover;
    int plain[WARI_MAX_PITS], np = 0;
    for (int i = 0; i < g->pits; i++) {
        if (pos->row[me][i] == 0)
            continue;
        ref_pos next;
        bool all;
        ref_move(g, pos, i, &next, &all);
        if (g->feed && ref_seeds(g, pos, 1 - me) == 0 && ref_seeds(g, &next, 1 - me) == 0)
            continue;
        out[n++] = i;
        if (all)
            slams++;
        else
            plain[np++] = i;
    }
    if (g->slam == 1 && slams > 0 && np > 0) {
        memcpy(out, plain, sizeof(int) * (size_t)np);
        n = np;
    }
    return n;
}

/* Counts the paths below pos (reached after `moves` moves, the last capture after move
 * `since`; path[since..moves] holds the positions since) into nodes[at..]. */
static void ref_walk(ref_game *g, int moves, int since, int at, int depth, uint64_t *nodes)
{
    const ref_pos *pos = &g->path[moves];
    if (2 * pos->bank[0] > g->total || 2 * pos->bank[1] > g->total)
        return;
    int legal[WARI_MAX_PITS];
    int n = ref_legal(g, pos, legal);
    if (n == 0)
        return;
    if (g->repetition)
        for (int q = moves - 2; q >= since; q -= 2)
            if (memcmp(g->path[q].row, pos->row, sizeof pos->row) == 0)
                return;
    int quiet = moves - since + (since == 0 ? g->quiet0 : 0);
    if (g->no_capture_limit && quiet >= g->no_capture_limit)
        return;
    if (moves >= g->move_cap)
        return;
    nodes[at] += (uint64_t)n;
    if (at + 1 == depth)
        return;
    for (int k = 0; k < n; k++) {
        bool all;
        int got = ref_move(g, pos, legal[k], &g->path[moves + 1], &all);
        ref_walk(g, moves + 1, got ? moves + 1 : since, at + 1, depth, nodes);
    }
}

/* Reference move-path counts from st (a wari position) under r, depths 1..depth. */
static void ref_perft(const wari_rules *r, const wari_state *st, int depth, uint64_t *nodes)
{
    ref_game *g = calloc(1, sizeof *g);
    g->pits = r->pits;
    g->total = r->total;
    g->slam = r->grand_slam == WARI_SLAM_FORBIDDEN      ? 1
              : r->grand_slam == WARI_SLAM_CAPTURES_ALL ? 2
                                                        : 0;
    g->feed = r->must_feed;
    g->repetition = r->repetition;
    g->no_capture_limit = r->no_capture_limit;
    g->move_cap = r->move_cap;
    int moves = st->moves;
    ref_pos *pos = &g->path[0];
    for (int p = 0; p < 2; p++) {
        for (int j = 0; j < r->pits; j++)
            pos->row[p][j] = st->pit[p * r->pits + j];
        pos->bank[p] = st->store[p];
    }
    pos->mover = st->turn;
    memset(nodes, 0, sizeof *nodes * (size_t)depth);
    /* the reference keeps its own move count from 0: shift the cap by the moves already made */
    g->move_cap -= moves;
    g->quiet0 = moves - st->last_capture;
    ref_walk(g, 0, 0, 0, depth, nodes);
    free(g);
}

/* ---- move paths --------------------------------------------------------------------------- */

/* The published counts from the start (Abapa, must feed): 6, 36, 190, 1014; to depth 8 the
 * engine (through the generic perft) and the reference agree. */
TEST(wari_perft_to_depth_8)
{
    static const uint64_t published[4] = {6, 36, 190, 1014};
    wari_rules *r = LOAD(NULL);
    uint64_t nodes[8], ref[8];
    char err[256];
    CHECK_INT(perft_count(&game_wari, r, 2, 8, nodes, err, sizeof err), 0);
    for (int d = 0; d < 4; d++)
        CHECK_INT(nodes[d], published[d]);
    wari_state st;
    rng chance;
    rng_seed(&chance, 1);
    game_wari.start(&st, r, 2, &chance, NULL);
    ref_perft(r, &st, 8, ref);
    for (int d = 0; d < 8; d++)
        CHECK_INT(nodes[d], ref[d]);
    CHECK_INT(nodes[7], 711414);
    free(r);
}

/* Engine and reference agree from positions met in random games under every grand-slam rule,
 * without must feed, on other boards, and with short limits (laps, slams, blocked games,
 * repetitions and the limits all occur at these depths). */
TEST(wari_perft_matches_the_reference_from_random_positions)
{
    static const char *const rulesets[] = {
        NULL,
        "{\"grand_slam\": \"forbidden\"}",
        "{\"grand_slam\": \"captures_all\"}",
        "{\"must_feed\": false}",
        "{\"pits\": 3, \"seeds\": 3, \"no_capture_limit\": 7}",
        "{\"pits\": 4, \"seeds\": 6, \"move_cap\": 40}",
        "{\"pits\": 2, \"seeds\": 2}",
    };
    int compared = 0;
    for (size_t k = 0; k < sizeof rulesets / sizeof rulesets[0]; k++) {
        wari_rules *r = LOAD(rulesets[k]);
        for (int game = 0; game < 25; game++) {
            wari_state st;
            rng chance, pick;
            rng_seed(&chance, 1);
            rng_seed(&pick, (uint64_t)(100 * k + game));
            game_wari.start(&st, r, 2, &chance, NULL);
            decision d;
            int stop = (int)rng_below(&pick, 60);
            for (int m = 0; m < stop && game_wari.decide(&st, &d); m++)
                game_wari.apply(&st, d.action[rng_below(&pick, (uint32_t)d.n)], &chance, NULL);
            if (st.over)
                continue;
            /* the reference starts its repetition memory here: so does the engine */
            wari_state here;
            wari_set_position(&here, r, st.pit, (int[]){st.store[0], st.store[1]}, st.turn,
                              st.moves, st.last_capture);
            uint64_t a[5], b[5];
            char err[256];
            CHECK_INT(perft_from(&game_wari, &here, 5, a, err, sizeof err), 0);
            ref_perft(r, &here, 5, b);
            for (int dd = 0; dd < 5; dd++)
                if (a[dd] != b[dd])
                    check_fail(__FILE__, __LINE__, "ruleset %zu game %d depth %d: %llu != %llu",
                               k, game, dd + 1, (unsigned long long)a[dd],
                               (unsigned long long)b[dd]);
            compared++;
        }
        free(r);
    }
    CHECK(compared > 100);
}

/* Every position whose player to move faces an empty row, on boards of 3, 4 and 6 pits, under
 * each grand-slam rule: the engine's legal moves (and whether the game is blocked) are the
 * reference's, which tries each move and looks at the opponent's row after it. Among them
 * are moves that reach the row and take it all back (counted, so that the test covers them). */
TEST(wari_feeding_an_empty_row_matches_the_reference)
{
    static const char *const slam[] = {"allowed_no_capture", "forbidden", "captures_all"};
    static const struct { int pits, seeds, top; } boards[] = {{3, 12, 13}, {4, 9, 10}, {6, 8, 0}};
    int compared = 0, taken_back = 0;
    for (int k = 0; k < 3; k++)
        for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
            char overlay[128];
            snprintf(overlay, sizeof overlay,
                     "{\"grand_slam\": \"%s\", \"pits\": %d, \"seeds\": %d}", slam[k],
                     boards[b].pits, boards[b].seeds);
            wari_rules *r = LOAD(overlay);
            int p = r->pits;
            ref_game *g = calloc(1, sizeof *g);
            g->pits = p;
            g->total = r->total;
            g->slam = k;
            g->feed = true;
            rng pick;
            rng_seed(&pick, 5);
            /* small boards: every own row with pits of 0..top-1 seeds; 6 pits: 20000 rows
             * drawn with one pit or two of 11 seeds or more (sowings round the board) */
            long rows = 1;
            for (int i = 0; i < p && boards[b].top; i++)
                rows *= boards[b].top;
            if (!boards[b].top)
                rows = 20000;
            for (long x = 0; x < rows; x++) {
                uint8_t pit[WARI_MAX_BOARD] = {0};
                int sum = 0;
                for (int i = 0, v = (int)x; i < p; i++) {
                    if (boards[b].top) {
                        pit[i] = (uint8_t)(v % boards[b].top);
                        v /= boards[b].top;
                    } else {
                        pit[i] = (uint8_t)(rng_below(&pick, 4) == 0 ? 11 + rng_below(&pick, 8)
                                                                   : rng_below(&pick, 4));
                    }
                    sum += pit[i];
                }
                if (sum == 0 || sum > r->total)
                    continue;
                int rest = r->total - sum, store[2] = {rest / 2, rest - rest / 2};
                wari_state st;
                wari_set_position(&st, r, pit, store, 0, 0, 0);
                decision d;
                int n = game_wari.decide(&st, &d) ? d.n : 0;
                ref_pos pos = {.mover = 0};
                for (int i = 0; i < p; i++)
                    pos.row[0][i] = pit[i];
                int want[WARI_MAX_PITS], m = ref_legal(g, &pos, want);
                bool same = n == m;
                for (int i = 0; same && i < n; i++)
                    same = d.action[i] == want[i];
                if (!same)
                    check_fail(__FILE__, __LINE__, "%s, %d pits, row %ld: %d moves, %d wanted",
                               slam[k], p, x, n, m);
                for (int i = 0; k == 2 && i < p; i++) { /* reaches, feeds not */
                    if (pit[i] < p - i)
                        continue;
                    ref_pos next;
                    bool all_taken;
                    ref_move(g, &pos, i, &next, &all_taken);
                    taken_back += ref_seeds(g, &next, 1) == 0;
                }
                compared++;
            }
            free(g);
            free(r);
        }
    CHECK(compared > 50000);
    CHECK(taken_back > 100);
}

/* ---- greedy ------------------------------------------------------------------------------- */

/* Greedy takes the largest capture; among equal captures, the move that leaves the opponent
 * the smallest best capture. */
TEST(wari_greedy_captures_most_then_denies_the_reply)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    rng bot;
    rng_seed(&bot, 1);
    decision d;
    /* pit 6 (1 seed) captures 2; pit 5 (3 seeds) captures 3 + 2 */
    setpos(&st, r, (int[]){4, 0, 0, 0, 3, 1, 1, 2, 5, 5, 5, 5}, 0, 0, 0);
    game_wari.decide(&st, &d);
    CHECK_INT(d.action[wari_greedy_pick(&st, &d, &bot)], 4);
    /* no move captures here, and the replies differ: seat 2's pit 5 (4 seeds) ends on seat
     * 1's pit 3 and his pit 6 (6 seeds) on seat 1's pit 6; greedy's move must leave a best
     * reply no larger than any other move leaves */
    setpos(&st, r, (int[]){4, 1, 1, 4, 4, 4, 4, 4, 4, 4, 4, 6}, 0, 0, 0);
    game_wari.decide(&st, &d);
    int pick = d.action[wari_greedy_pick(&st, &d, &bot)];
    wari_move m;
    wari_sow(r, st.pit, 0, pick, &m);
    int worst = 0;
    int32_t reply[WARI_MAX_PITS];
    int n = wari_legal(r, m.pit, 1, reply);
    for (int i = 0; i < n; i++) {
        wari_move m2;
        wari_sow(r, m.pit, 1, reply[i], &m2);
        worst = m2.captured > worst ? m2.captured : worst;
    }
    /* no other move leaves a smaller best reply */
    for (int i = 0; i < d.n; i++) {
        wari_move alt;
        wari_sow(r, st.pit, 0, d.action[i], &alt);
        int best = 0;
        n = wari_legal(r, alt.pit, 1, reply);
        for (int j = 0; j < n; j++) {
            wari_move m2;
            wari_sow(r, alt.pit, 1, reply[j], &m2);
            best = m2.captured > best ? m2.captured : best;
        }
        CHECK(alt.captured == 0);
        CHECK(best >= worst);
    }
    free(r);
}

/* ---- batches ------------------------------------------------------------------------------ */

/* Gives seat k of cfg the bot called name with its default parameters. */
static void seat_bot(run_config *cfg, int k, const char *name)
{
    const bot_type *b = registry_bot(&game_wari, name);
    cfg->seat[k].bot = b;
    for (int i = 0; b->params && b->params[i].name; i++)
        cfg->seat[k].param[i] = b->params[i].def;
}

/* Plays `runs` games of bots a (seat 1) and b (seat 2), default parameters, under the default
 * rules; returns seat 1's win units over both seats' (a draw is half each) as a share. */
static double share_of(const char *a, const char *b, uint64_t runs, uint64_t seed,
                       int64_t *draws)
{
    wari_rules *r = LOAD(NULL);
    run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.game = &game_wari;
    cfg.rules = r;
    cfg.nseats = 2;
    seat_bot(&cfg, 0, a);
    seat_bot(&cfg, 1, b);
    cfg.runs = runs;
    cfg.seed = seed;
    cfg.threads = 2;
    run_result res;
    char err[256];
    double share = -1;
    if (run_batch(&cfg, &res, err, sizeof err) != 0)
        check_fail(__FILE__, __LINE__, "%s", err);
    else {
        share = (double)res.win_units[0] / (double)(res.win_units[0] + res.win_units[1]);
        *draws = res.tied_games;
        /* every seed is accounted for in every game */
        CHECK_INT(res.score[0].sum + res.score[1].sum, (__int128)48 * (int64_t)runs);
        run_result_free(&res);
    }
    free(r);
    return share;
}

/* Greedy beats random from either seat: at 2000 games a side a share's standard error is at
 * most 0.011; the share asserted is 5 of them above an even match (observed: 0.998). */
TEST(wari_greedy_beats_random_from_either_seat)
{
    int64_t draws;
    double s1 = share_of("greedy", "random", 2000, 7, &draws);
    double s2 = 1.0 - share_of("random", "greedy", 2000, 7, &draws);
    if (!(s1 > 0.5 + 5 * 0.0112 && s2 > 0.5 + 5 * 0.0112))
        check_fail(__FILE__, __LINE__, "greedy's shares against random: %.3f as seat 1, "
                   "%.3f as seat 2", s1, s2);
}

/* The ladder's headline: alphabeta at its default depth 8 beats greedy from either seat. The
 * search is deterministic and greedy breaks ties at random, so the games differ; at 40 games a
 * seating a score share's standard error is at most 0.079: the share asserted, 0.5 + 0.35, is
 * 4.4 of them above an even match (observed here: 1.000; man/giochi-sim-wari.7 has the
 * ladder with intervals). */
TEST(wari_alphabeta_beats_greedy_from_either_seat)
{
    int64_t draws;
    double s1 = share_of("alphabeta", "greedy", 40, 11, &draws);
    double s2 = 1.0 - share_of("greedy", "alphabeta", 40, 11, &draws);
    if (!(s1 > 0.85 && s2 > 0.85))
        check_fail(__FILE__, __LINE__, "alphabeta's shares against greedy: %.3f as seat 1, "
                   "%.3f as seat 2", s1, s2);
}

/* Grand slams are found by arithmetic on the rows (wari.c's slam_mask), not by playing every
 * move: under grand_slam=forbidden the legal moves of many random positions, on two boards,
 * are exactly the non-empty pits whose sowing (wari_sow) is not a grand slam, or all of them
 * when every one is. */
TEST(wari_forbidden_slams_match_the_sowing)
{
    static const char *const rulesets[] = {
        "{\"grand_slam\": \"forbidden\", \"must_feed\": false}",
        "{\"grand_slam\": \"forbidden\", \"must_feed\": false, \"pits\": 3, \"seeds\": 2}",
    };
    int slams = 0;
    for (int k = 0; k < 2; k++) {
        wari_rules *r = LOAD(rulesets[k]);
        rng pick;
        rng_seed(&pick, 5);
        for (int game = 0; game < 2000; game++) {
            wari_state st;
            game_wari.start(&st, r, 2, &pick, NULL);
            decision d;
            while (game_wari.decide(&st, &d)) {
                int32_t expect[WARI_MAX_PITS], any[WARI_MAX_PITS];
                int ne = 0, na = 0;
                for (int a = 0; a < r->pits; a++) {
                    if (st.pit[st.turn * r->pits + a] == 0)
                        continue;
                    wari_move m;
                    wari_sow(r, st.pit, st.turn, a, &m);
                    any[na++] = a;
                    if (!m.slam)
                        expect[ne++] = a;
                }
                slams += ne < na;
                const int32_t *want = ne ? expect : any;
                int n = ne ? ne : na;
                CHECK_INT(d.n, n);
                for (int i = 0; i < n && i < d.n; i++)
                    CHECK_INT(d.action[i], want[i]);
                game_wari.apply(&st, d.action[rng_below(&pick, (uint32_t)d.n)], &pick, NULL);
            }
        }
        free(r);
    }
    CHECK(slams > 100); /* the test met grand slams, not only quiet positions */
}

/* --check: seeds conserved; a seed that vanishes, or one that appears in a store, is named. */
TEST(wari_check_names_a_broken_invariant)
{
    wari_rules *r = LOAD(NULL);
    wari_state st;
    rng chance;
    rng_seed(&chance, 1);
    game_wari.start(&st, r, 2, &chance, NULL);
    char err[256];
    CHECK_INT(game_wari.check(&st, err, sizeof err), 0);
    decision d;
    CHECK(game_wari.decide(&st, &d));
    game_wari.apply(&st, d.action[0], &chance, NULL);
    CHECK_INT(game_wari.check(&st, err, sizeof err), 0);
    wari_state bad = st;
    bad.pit[3]--;
    CHECK_INT(game_wari.check(&bad, err, sizeof err), -1);
    CHECK(strstr(err, "seeds: pits and stores hold 47, 48 were sown") != NULL);
    bad = st;
    bad.store[1]++;
    CHECK_INT(game_wari.check(&bad, err, sizeof err), -1);
    free(r);
}
