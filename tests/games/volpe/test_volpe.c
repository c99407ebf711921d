/* test_volpe.c — La volpe e le oche (seed 004): a scripted test per rule, each diagonal
 * option, move-path counts against an independent reference written here on a plain 7x7
 * grid, the pages of a position with thousands of fox moves, the search hooks, thread-
 * identical reports and the bots' strength ordering at a fixed seed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "games/volpe/volpe.h"
#include "config/botspec.h"
#include "core/perft.h"
#include "core/registry.h"
#include "report/report.h"
#include "config/rules.h"
#include "core/runner.h"

/* ---- helpers ------------------------------------------------------------------------- */

/* Loads the default ruleset changed by the JSON object text `overlay` (NULL: none) into r;
 * returns what rules_load says, its message in err. */
static int load(volpe_rules *r, const char *overlay, char *err, size_t errlen)
{
    cJSON *j = rules_parse(config_volpe_json, "volpe.json", err, errlen);
    if (j == NULL)
        return -1;
    if (overlay) {
        cJSON *o = cJSON_Parse(overlay);
        if (o == NULL) {
            fprintf(stderr, "bad test overlay: %s\n", overlay);
            abort();
        }
        rules_merge(j, o);
        cJSON_Delete(o);
    }
    int rc = game_volpe.rules_load(r, j, err, errlen);
    cJSON_Delete(j);
    return rc;
}

static volpe_rules rules_with(const char *overlay)
{
    volpe_rules r;
    char err[256];
    if (load(&r, overlay, err, sizeof err) != 0) {
        fprintf(stderr, "test ruleset rejected: %s\n", err);
        abort();
    }
    return r;
}

static rng no_chance(void)
{
    rng r;
    rng_seed(&r, 0);
    return r;
}

static void begin(volpe_state *s, const volpe_rules *r)
{
    rng c = no_chance();
    game_volpe.start(s, r, 2, &c, NULL);
}

static int P(const char *name)
{
    int p = volpe_parse_point(name);
    if (p < 0)
        abort();
    return p;
}

/* Index of the listed action named `name` ("fox D5-D6", "goose C3-C4"), or -1. */
static int find(const volpe_state *s, const decision *d, const char *name)
{
    for (int i = 0; i < d->n; i++) {
        char buf[160];
        game_volpe.action_name(s, d, d->action[i], buf, sizeof buf);
        if (strcmp(buf, name) == 0)
            return i;
    }
    return -1;
}

/* Plays the named action (it must be listed); returns its index. */
static int play(volpe_state *s, const char *name)
{
    decision d;
    if (!game_volpe.decide(s, &d)) {
        check_fail(__FILE__, __LINE__, "game over before %s", name);
        return -1;
    }
    int i = find(s, &d, name);
    if (i < 0) {
        check_fail(__FILE__, __LINE__, "%s is not a legal action", name);
        return -1;
    }
    rng c = no_chance();
    game_volpe.apply(s, d.action[i], &c, NULL);
    return i;
}

static bool listed(const volpe_state *s, const char *name)
{
    decision d;
    return game_volpe.decide(s, &d) && find(s, &d, name) >= 0;
}

static int count_moves(const volpe_state *s)
{
    decision d;
    return game_volpe.decide(s, &d) ? d.n : 0;
}

/* ---- the board and the start ---------------------------------------------------------- */

/* "Disporre le biglie su di una scacchiera a forma di croce in modo che le oche siano
 * intorno alla volpe": 33 points, 17 geese as in the sketch, the fox on D5. */
TEST(volpe_start_position_is_the_sketch)
{
    volpe_rules r = rules_with(NULL);
    int n = 0;
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 7; x++)
            n += volpe_point(x, y) >= 0;
    CHECK_INT(n, VOLPE_POINTS);
    CHECK_INT(volpe_point(0, 0), -1); /* A1: a cut corner */
    CHECK_INT(volpe_point(6, 6), -1);
    for (int p = 0; p < VOLPE_POINTS; p++) {
        char name[3];
        volpe_point_name(p, name);
        CHECK_INT(volpe_parse_point(name), p);
    }
    static const char *const geese[] = {"C1", "D1", "E1", "C2", "D2", "E2", "A3", "B3", "C3",
                                        "D3", "E3", "F3", "G3", "A4", "G4", "A5", "G5"};
    uint64_t want = 0;
    for (int i = 0; i < 17; i++)
        want |= 1ull << P(geese[i]);
    CHECK(r.geese == want);
    CHECK_INT(r.fox, P("D5"));
    CHECK_INT(r.fox_wins_at, 12);
}

/* "La prima mossa tocca a chi ha la volpe": seat 1 (the fox) decides first. */
TEST(volpe_fox_moves_first)
{
    volpe_rules r = rules_with(NULL);
    volpe_state s;
    begin(&s, &r);
    decision d;
    CHECK(game_volpe.decide(&s, &d));
    CHECK_INT(d.seat, VOLPE_FOX);
    CHECK_INT(d.kind, VOLPE_FOX);
    play(&s, "fox D5-D6");
    CHECK(game_volpe.decide(&s, &d));
    CHECK_INT(d.seat, VOLPE_GEESE);
}

/* "La volpe può muoversi in qualsiasi direzione, avanti, indietro, in diagonale, o sui
 * lati": from D5 the fox steps to all eight neighbours under diagonals=all. */
TEST(volpe_fox_steps_any_direction_all)
{
    volpe_rules r = rules_with(NULL);
    volpe_state s;
    begin(&s, &r);
    static const char *const to[] = {"C4", "D4", "E4", "C5", "E5", "C6", "D6", "E6"};
    CHECK_INT(count_moves(&s), 8);
    for (int i = 0; i < 8; i++) {
        char name[32];
        snprintf(name, sizeof name, "fox D5-%s", to[i]);
        CHECK(listed(&s, name));
    }
    /* "all": a diagonal between any two points of the cross, C2-B3 included. */
    volpe_rules r2 = rules_with("{\"fox\": \"C2\", \"geese\": [\"G5\"], \"fox_wins_at\": 1}");
    begin(&s, &r2);
    CHECK(listed(&s, "fox C2-B3"));
    CHECK(listed(&s, "fox C2-D1"));
}

/* diagonals=alquerque: diagonal lines only through points with column + row even (D4 the
 * centre); diagonals=none: no diagonal at all. */
TEST(volpe_fox_steps_alquerque_and_none)
{
    volpe_state s;
    volpe_rules a = rules_with("{\"diagonals\": \"alquerque\"}");
    begin(&s, &a);
    CHECK_INT(count_moves(&s), 4); /* D5: 4 + 5 odd, no diagonal */
    CHECK(!listed(&s, "fox D5-C6"));
    volpe_rules a4 = rules_with("{\"diagonals\": \"alquerque\", \"fox\": \"D4\", "
                                "\"geese\": [\"G5\"], \"fox_wins_at\": 1}");
    begin(&s, &a4);
    CHECK_INT(count_moves(&s), 8);
    volpe_rules c2 = rules_with("{\"diagonals\": \"alquerque\", \"fox\": \"C2\", "
                                "\"geese\": [\"G5\"], \"fox_wins_at\": 1}");
    begin(&s, &c2);
    CHECK(!listed(&s, "fox C2-B3")); /* C2: 3 + 2 odd */
    CHECK(!listed(&s, "fox C2-D1"));
    volpe_rules n = rules_with("{\"diagonals\": \"none\", \"fox\": \"D4\", "
                               "\"geese\": [\"G5\"], \"fox_wins_at\": 1}");
    begin(&s, &n);
    CHECK_INT(count_moves(&s), 4);
    CHECK(listed(&s, "fox D4-D5") && listed(&s, "fox D4-C4") && !listed(&s, "fox D4-C5"));
}

/* "uccide un'oca quando passa sopra di esse per andare a sistemarsi in un buco vuoto.
 * L'oca una volta morta viene tolta dal gioco": a jump over an adjacent goose to the empty
 * point beyond removes it; no jump onto a goose or off the cross; diagonal jumps follow the
 * diagonal option. */
TEST(volpe_single_jump_takes_the_goose)
{
    volpe_rules r = rules_with("{\"fox\": \"D4\", \"geese\": [\"D5\", \"E5\", \"C4\", \"B4\","
                               " \"G5\"], \"fox_wins_at\": 5}");
    volpe_state s;
    begin(&s, &r);
    CHECK(listed(&s, "fox D4xD6 takes D5"));
    CHECK(!listed(&s, "fox D4xA4 takes C4")); /* B4 is a goose: no empty point beyond */
    CHECK(!listed(&s, "fox D4xB4 takes C4")); /* B4 is a goose: no empty point beyond */
    CHECK(!listed(&s, "fox D4xF6 takes E5")); /* F6 is off the cross */
    play(&s, "fox D4xD6 takes D5");
    CHECK(!(s.geese >> P("D5") & 1));
    CHECK_INT(s.fox, P("D6"));
    CHECK_INT(s.captured, 1);
    CHECK_INT(__builtin_popcountll(s.geese), 4);
    /* diagonal jumps: E5 from D4 lands on F6, off the board; from D6 over E5 to F4. */
    volpe_rules d = rules_with("{\"fox\": \"D6\", \"geese\": [\"E5\", \"A3\"], "
                               "\"fox_wins_at\": 2}");
    begin(&s, &d);
    CHECK(listed(&s, "fox D6xF4 takes E5"));
    volpe_rules dn = rules_with("{\"diagonals\": \"none\", \"fox\": \"D6\", "
                                "\"geese\": [\"E5\", \"A3\"], \"fox_wins_at\": 2}");
    begin(&s, &dn);
    CHECK(!listed(&s, "fox D6xF4 takes E5"));
    volpe_rules da = rules_with("{\"diagonals\": \"alquerque\", \"fox\": \"C5\", "
                                "\"geese\": [\"D4\", \"A3\"], \"fox_wins_at\": 2}");
    begin(&s, &da); /* C5: 3 + 5 even, a line C5-D4-E3 */
    CHECK(listed(&s, "fox C5xE3 takes D4"));
}

/* "I salti consecutivi sono ammessi, ma non obbligatori": a chain may go on or stop at
 * every landing, and each stop is its own move; nor is capturing compulsory. */
TEST(volpe_multi_jumps_optional_chains)
{
    volpe_rules r = rules_with("{\"diagonals\": \"none\", \"fox\": \"C7\", \"geese\": "
                               "[\"C6\", \"C4\", \"D3\", \"A3\"], \"fox_wins_at\": 4}");
    volpe_state s;
    begin(&s, &r);
    /* C7: a step to D7; jumps C6 -> C5, then C4 -> C3, then D3 -> E3 (names: point order). */
    CHECK_INT(count_moves(&s), 4);
    CHECK(listed(&s, "fox C7-D7")); /* capturing is never compulsory */
    CHECK(listed(&s, "fox C7xC5 takes C6"));
    CHECK(listed(&s, "fox C7xC3 takes C4 C6"));
    CHECK(listed(&s, "fox C7xE3 takes D3 C4 C6"));
    play(&s, "fox C7xE3 takes D3 C4 C6");
    CHECK_INT(s.captured, 3);
    CHECK_INT(s.fox, P("E3"));
    CHECK_INT(s.fox_moves, 1);
    CHECK_INT(s.capture_moves, 1);
    CHECK_INT(s.multi_jumps, 1);
    CHECK_INT(s.longest_chain, 3);
    CHECK(s.geese == 1ull << P("A3"));
}

/* A fox move is one action per distinct (destination, geese taken): the loop round four
 * geese back to the start, run either way, is one move; two routes to one landing that
 * take different geese are two. */
TEST(volpe_chain_pairs_are_distinct)
{
    volpe_rules r = rules_with("{\"diagonals\": \"none\", \"fox\": \"D3\", \"geese\": "
                               "[\"D4\", \"E5\", \"F4\", \"E3\", \"A3\"], \"fox_wins_at\": 5}");
    volpe_state s;
    begin(&s, &r);
    CHECK(listed(&s, "fox D3xD3 takes E3 D4 F4 E5"));
    decision d;
    game_volpe.decide(&s, &d);
    int loops = 0;
    for (int i = 0; i < d.n; i++) {
        for (int j = 0; j < i; j++)
            CHECK(d.action[i] != d.action[j]);
        loops += (d.action[i] & 63) == P("D3");
    }
    CHECK_INT(loops, 1);
    CHECK(listed(&s, "fox D3xF5 takes D4 E5"));
    CHECK(listed(&s, "fox D3xF5 takes E3 F4"));
}

/* "Le oche hanno la possibilità di spostarsi in avanti e sui sue lati, mai all'indietro ne
 * in diagonale, e soltanto di un posto per volta": a goose on D4 may go to D5, C4 or E4. */
TEST(volpe_geese_forward_or_sideways_only)
{
    volpe_rules r = rules_with("{\"fox\": \"D7\", \"geese\": [\"D4\"], \"fox_wins_at\": 1}");
    volpe_state s;
    begin(&s, &r);
    play(&s, "fox D7-C7");
    decision d;
    CHECK(game_volpe.decide(&s, &d));
    CHECK_INT(d.kind, VOLPE_GEESE);
    CHECK_INT(d.n, 3);
    CHECK(listed(&s, "goose D4-D5") && listed(&s, "goose D4-C4") && listed(&s, "goose D4-E4"));
    CHECK(!listed(&s, "goose D4-D3") && !listed(&s, "goose D4-C5") &&
          !listed(&s, "goose D4-C3") && !listed(&s, "goose D4-D6"));
    /* Off the cross sideways: a goose on C1 may go to C2 or D1, never B1. */
    volpe_rules r2 = rules_with("{\"fox\": \"D7\", \"geese\": [\"C1\"], \"fox_wins_at\": 1}");
    begin(&s, &r2);
    play(&s, "fox D7-E7");
    CHECK_INT(count_moves(&s), 2);
    CHECK(listed(&s, "goose C1-C2") && listed(&s, "goose C1-D1"));
}

/* "Dato che le oche non possono saltare la volpe": a goose facing the fox has no jump. */
TEST(volpe_geese_never_jump)
{
    volpe_rules r = rules_with("{\"fox\": \"D6\", \"geese\": [\"D4\", \"C5\", \"E5\"], "
                               "\"fox_wins_at\": 3}");
    volpe_state s;
    begin(&s, &r);
    play(&s, "fox D6-D5");
    CHECK(!listed(&s, "goose D4-D6"));
    CHECK(!listed(&s, "goose C5-E5"));
    CHECK(!listed(&s, "goose D4-D5")); /* nor step onto it */
    CHECK(listed(&s, "goose D4-C4"));
}

static outcome finished(const volpe_state *s)
{
    outcome o;
    memset(&o, 0, sizeof o);
    decision d;
    CHECK(!game_volpe.decide(s, &d));
    game_volpe.finish(s, &o, NULL);
    return o;
}

/* "La volpe vince la partita se uccide almeno 12 oche" (fox_wins_at): the fox's win. */
TEST(volpe_fox_wins_at_enough_geese)
{
    volpe_rules r = rules_with("{\"fox\": \"D4\", \"geese\": [\"D5\", \"A3\", \"G3\"], "
                               "\"fox_wins_at\": 1}");
    volpe_state s;
    begin(&s, &r);
    play(&s, "fox D4xD6 takes D5");
    outcome o = finished(&s);
    CHECK_INT(o.end, VOLPE_END_FOX_CAPTURED);
    CHECK_INT(o.winners, 1u << VOLPE_FOX);
    CHECK_INT(o.rank[VOLPE_FOX], 1);
    CHECK_INT(o.rank[VOLPE_GEESE], 2);
    CHECK_INT(o.score[VOLPE_FOX], 1);
    CHECK_INT(o.score[VOLPE_GEESE], 2);
    CHECK_INT(o.length, 1);
    /* At 2, one goose is not enough: the geese move next. */
    volpe_rules r2 = rules_with("{\"fox\": \"D4\", \"geese\": [\"D5\", \"A3\", \"G3\"], "
                                "\"fox_wins_at\": 2}");
    begin(&s, &r2);
    play(&s, "fox D4xD6 takes D5");
    CHECK(!s.over && s.side == VOLPE_GEESE);
}

/* "devono tentare di accerchiarla, perché non possa più muoversi": the geese win when the
 * fox cannot move on its turn, and the heat map counts where. */
TEST(volpe_fox_trapped_geese_win)
{
    volpe_rules r = rules_with("{\"diagonals\": \"none\", \"fox\": \"D6\", \"geese\": "
                               "[\"C7\", \"E7\", \"C6\", \"D5\", \"A3\"], \"fox_wins_at\": 5}");
    volpe_state s;
    begin(&s, &r);
    play(&s, "fox D6-D7");
    play(&s, "goose C6-D6"); /* D7: C7 and E7 have nothing beyond, D6 has D5 behind it */
    outcome o = finished(&s);
    CHECK_INT(o.end, VOLPE_END_FOX_TRAPPED);
    CHECK_INT(o.winners, 1u << VOLPE_GEESE);
    CHECK_INT(s.trapped_at, P("D7"));
    CHECK_INT(o.length, 2);
    recorder *rec = rec_new(&game_volpe, 2, true);
    rec_game_begin(rec);
    game_volpe.finish(&s, &o, rec);
    rec_free(rec);
    /* With the diagonals of "all", D7 still has C6 and E6: not trapped. */
    volpe_rules a = rules_with("{\"fox\": \"D6\", \"geese\": "
                               "[\"C7\", \"E7\", \"C6\", \"D5\", \"A3\"], \"fox_wins_at\": 5}");
    begin(&s, &a);
    play(&s, "fox D6-D7");
    play(&s, "goose C6-D6");
    CHECK(!s.over && listed(&s, "fox D7-C6") && listed(&s, "fox D7-E6"));
}

/* geese_blocked: geese that must move and cannot lose (default), draw or pass. */
TEST(volpe_geese_blocked_options)
{
    const char *pos = "\"diagonals\": \"none\", \"fox\": \"D4\", \"geese\": [\"C7\", \"D7\", "
                      "\"E7\"], \"fox_wins_at\": 3";
    char json[256];
    volpe_state s;
    snprintf(json, sizeof json, "{%s}", pos);
    volpe_rules lose = rules_with(json);
    begin(&s, &lose);
    play(&s, "fox D4-D3");
    outcome o = finished(&s);
    CHECK_INT(o.end, VOLPE_END_GEESE_BLOCKED);
    CHECK_INT(o.winners, 1u << VOLPE_FOX);
    snprintf(json, sizeof json, "{%s, \"geese_blocked\": \"draw\"}", pos);
    volpe_rules draw = rules_with(json);
    begin(&s, &draw);
    play(&s, "fox D4-D3");
    o = finished(&s);
    CHECK_INT(o.end, VOLPE_END_GEESE_BLOCKED);
    CHECK_INT(o.winners, 3u);
    CHECK_INT(o.rank[0], 1);
    CHECK_INT(o.rank[1], 1);
    snprintf(json, sizeof json, "{%s, \"geese_blocked\": \"pass\"}", pos);
    volpe_rules pass = rules_with(json);
    begin(&s, &pass);
    play(&s, "fox D4-D3");
    decision d;
    CHECK(game_volpe.decide(&s, &d));
    CHECK_INT(d.seat, VOLPE_FOX);
    play(&s, "fox D3-D2");
    CHECK_INT(s.moves, 2);
}

/* The end kinds are figures of their own (the summary's headline), one per game: the fox's
 * wins by captures and by blocked geese, which the win shares do not tell apart. */
TEST(volpe_end_kinds_are_figures)
{
    static const struct { const char *rules, *move; int end; } ends[] = {
        {"{\"fox\": \"D4\", \"geese\": [\"D5\", \"A3\", \"G3\"], \"fox_wins_at\": 1}",
         "fox D4xD6 takes D5", VOLPE_END_FOX_CAPTURED},
        {"{\"diagonals\": \"none\", \"fox\": \"D4\", \"geese\": [\"C7\", \"D7\", \"E7\"], "
         "\"fox_wins_at\": 3}",
         "fox D4-D3", VOLPE_END_GEESE_BLOCKED},
        {"{\"max_moves\": 1}", "fox D5-D6", VOLPE_END_MOVE_CAP},
    };
    for (size_t c = 0; c < sizeof ends / sizeof ends[0]; c++) {
        volpe_rules r = rules_with(ends[c].rules);
        volpe_state s;
        begin(&s, &r);
        play(&s, ends[c].move);
        outcome o = finished(&s);
        CHECK_INT(o.end, ends[c].end);
        recorder *rec = rec_new(&game_volpe, 2, true);
        rec_game_begin(rec);
        game_volpe.finish(&s, &o, rec);
        for (int k = 0; k < VOLPE_ENDS; k++) {
            const acc *a = rec_get(rec, VOLPE_M_ENDS + k, -1);
            CHECK_INT(a->n, 1);
            CHECK_INT(a->hits, k == ends[c].end);
        }
        CHECK_STR(game_volpe.metrics[VOLPE_M_ENDS + ends[c].end].name + 4,
                  game_volpe.end_names[ends[c].end]);
        rec_free(rec);
    }
}

/* repetition: the n-th occurrence of a position (pieces and side to move) draws; 0 off. */
TEST(volpe_repetition_draws)
{
    static const char *const line[] = {"fox D4-D5", "goose A3-B3", "fox D5-D4",
                                       "goose B3-A3"};
    volpe_state s;
    volpe_rules r3 = rules_with("{\"fox\": \"D4\", \"geese\": [\"A3\"], \"fox_wins_at\": 1}");
    begin(&s, &r3);
    for (int i = 0; i < 7; i++)
        play(&s, line[i % 4]);
    CHECK(!s.over);
    play(&s, line[3]);
    outcome o = finished(&s); /* the start position for the third time */
    CHECK_INT(o.end, VOLPE_END_REPETITION);
    CHECK_INT(o.winners, 3u);
    CHECK_INT(o.length, 8);
    volpe_rules r2 = rules_with("{\"fox\": \"D4\", \"geese\": [\"A3\"], \"fox_wins_at\": 1, "
                                "\"repetition\": 2}");
    begin(&s, &r2);
    for (int i = 0; i < 4; i++)
        play(&s, line[i]);
    CHECK(s.over && s.end == VOLPE_END_REPETITION);
    volpe_rules off = rules_with("{\"fox\": \"D4\", \"geese\": [\"A3\"], \"fox_wins_at\": 1, "
                                 "\"repetition\": 0}");
    begin(&s, &off);
    for (int i = 0; i < 12; i++)
        play(&s, line[i % 4]);
    CHECK(!s.over);
}

/* no_progress_moves: that many moves in a row without a capture or a goose's step forward
 * draw; an advance starts the count again. */
TEST(volpe_no_progress_draws)
{
    volpe_state s;
    volpe_rules r = rules_with("{\"fox\": \"D4\", \"geese\": [\"A3\"], \"fox_wins_at\": 1, "
                               "\"no_progress_moves\": 3}");
    begin(&s, &r);
    play(&s, "fox D4-D5");
    play(&s, "goose A3-A4"); /* forward: irreversible */
    play(&s, "fox D5-D6");
    play(&s, "goose A4-B4");
    CHECK(!s.over);
    play(&s, "fox D6-D7");
    outcome o = finished(&s);
    CHECK_INT(o.end, VOLPE_END_NO_PROGRESS);
    CHECK_INT(o.winners, 3u);
    CHECK_INT(o.length, 5);
}

/* max_moves: the move cap ends the game as a draw. */
TEST(volpe_move_cap_draws)
{
    volpe_state s;
    volpe_rules r = rules_with("{\"max_moves\": 3}");
    begin(&s, &r);
    play(&s, "fox D5-D6");
    play(&s, "goose D3-D4");
    play(&s, "fox D6-D5");
    outcome o = finished(&s);
    CHECK_INT(o.end, VOLPE_END_MOVE_CAP);
    CHECK_INT(o.winners, 3u);
}

/* Bad rulesets name their key. */
TEST(volpe_ruleset_errors_name_the_key)
{
    static const struct {
        const char *overlay, *want;
    } bad[] = {
        {"{\"diagonals\": \"some\"}", "'diagonals'"},
        {"{\"fox\": \"A1\"}", "'fox'"},
        {"{\"geese\": [\"D5\"]}", "'geese.1'"},
        {"{\"geese\": [\"C1\", \"C1\"]}", "'geese.2'"},
        {"{\"geese\": [\"Z9\"]}", "'geese.1'"},
        {"{\"geese\": []}", "'geese'"},
        {"{\"fox_wins_at\": 18}", "'fox_wins_at'"},
        {"{\"fox_wins_at\": 0}", "'fox_wins_at'"},
        {"{\"geese_blocked\": \"cry\"}", "'geese_blocked'"},
        {"{\"repetition\": 1}", "'repetition'"},
        {"{\"no_progress_moves\": 129}", "'no_progress_moves'"},
        {"{\"max_moves\": 0}", "'max_moves'"},
        {"{\"board\": 1}", "'board'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        volpe_rules r;
        char err[256] = "";
        CHECK_INT(load(&r, bad[i].overlay, err, sizeof err), -1);
        if (strstr(err, bad[i].want) == NULL)
            check_fail(__FILE__, __LINE__, "%s: '%s' does not name %s", bad[i].overlay, err,
                       bad[i].want);
    }
}

/* ---- the reference: a plain 7x7 grid ---------------------------------------------------
 * Written apart from volpe.c, in another style: characters on a grid, coordinates, copies
 * of the grid per jump, a linear list of (landing, taken cells) pairs. It knows the ends
 * that can happen within a few moves (12 geese, a trapped fox, blocked geese that lose);
 * repetition needs 8 moves at the default of 3, so it plays no part up to depth 7. */

typedef struct ref_pos {
    char cell[7][7]; /* ' ' off the cross, '.' empty, 'G' a goose (the fox is kept apart) */
    int fx, fy, fox_turn, taken, over;
} ref_pos;

typedef struct ref_move {
    int x, y, sx, sy;   /* destination; for geese also the source */
    uint64_t gone;      /* cells (y * 7 + x) of the geese taken */
} ref_move;

enum { REF_MAX = 20000 };

static int ref_diag; /* 0 all, 1 alquerque, 2 none: as volpe_diagonals */
static int ref_wins_at = 12; /* geese the fox must take (fox_wins_at) */

static int ref_on(int x, int y)
{
    if (x < 0 || y < 0 || x > 6 || y > 6)
        return 0;
    return (x >= 2 && x <= 4) || (y >= 2 && y <= 4);
}

/* Is there a line from (x, y) one step along (dx, dy)? */
static int ref_line(int x, int y, int dx, int dy)
{
    if (!ref_on(x, y) || !ref_on(x + dx, y + dy))
        return 0;
    if (dx == 0 || dy == 0)
        return 1;
    if (ref_diag == 0)
        return 1;
    if (ref_diag == 1)
        return (x + y) % 2 == 0;
    return 0;
}

static void ref_from_state(ref_pos *p, const volpe_state *s)
{
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 7; x++) {
            int q = volpe_point(x, y);
            p->cell[y][x] = q < 0 ? ' ' : (s->geese >> q & 1) ? 'G' : '.';
        }
    p->fx = volpe_x(s->fox);
    p->fy = volpe_y(s->fox);
    p->fox_turn = s->side == VOLPE_FOX;
    p->taken = s->captured;
    p->over = s->over;
}

static int ref_add(ref_move *m, int n, int x, int y, uint64_t gone)
{
    for (int i = 0; i < n; i++)
        if (m[i].x == x && m[i].y == y && m[i].gone == gone)
            return n;
    m[n].x = x;
    m[n].y = y;
    m[n].gone = gone;
    return n + 1;
}

static int ref_jumps(char cell[7][7], int x, int y, uint64_t gone, ref_move *m, int n)
{
    for (int dx = -1; dx <= 1; dx++)
        for (int dy = -1; dy <= 1; dy++) {
            if (dx == 0 && dy == 0)
                continue;
            int mx = x + dx, my = y + dy, lx = x + 2 * dx, ly = y + 2 * dy;
            if (!ref_line(x, y, dx, dy) || !ref_line(mx, my, dx, dy))
                continue;
            if (cell[my][mx] != 'G' || cell[ly][lx] != '.')
                continue;
            uint64_t g = gone | 1ull << (my * 7 + mx);
            int before = n;
            n = ref_add(m, n, lx, ly, g);
            if (n == before)
                continue; /* met already: so is all that follows it */
            char next[7][7];
            memcpy(next, cell, sizeof next);
            next[my][mx] = '.';
            n = ref_jumps(next, lx, ly, g, m, n);
        }
    return n;
}

static int ref_moves(const ref_pos *p, ref_move *m)
{
    int n = 0;
    if (p->fox_turn) {
        for (int dx = -1; dx <= 1; dx++)
            for (int dy = -1; dy <= 1; dy++)
                if ((dx || dy) && ref_line(p->fx, p->fy, dx, dy) &&
                    p->cell[p->fy + dy][p->fx + dx] == '.')
                    n = ref_add(m, n, p->fx + dx, p->fy + dy, 0);
        char cell[7][7];
        memcpy(cell, p->cell, sizeof cell);
        return ref_jumps(cell, p->fx, p->fy, 0, m, n);
    }
    static const int gx[3] = {0, -1, 1}, gy[3] = {1, 0, 0};
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 7; x++)
            for (int k = 0; p->cell[y][x] == 'G' && k < 3; k++) {
                int tx = x + gx[k], ty = y + gy[k];
                if (ref_on(tx, ty) && p->cell[ty][tx] == '.' && !(tx == p->fx && ty == p->fy)) {
                    m[n].x = tx;
                    m[n].y = ty;
                    m[n].sx = x;
                    m[n].sy = y;
                    m[n].gone = 0;
                    n++;
                }
            }
    return n;
}

static void ref_play(ref_pos *p, const ref_move *m)
{
    if (p->fox_turn) {
        for (int c = 0; c < 49; c++)
            if (m->gone >> c & 1) {
                p->cell[c / 7][c % 7] = '.';
                p->taken++;
            }
        p->fx = m->x;
        p->fy = m->y;
    } else {
        p->cell[m->sy][m->sx] = '.';
        p->cell[m->y][m->x] = 'G';
    }
    p->fox_turn = !p->fox_turn;
    ref_move scratch[REF_MAX];
    if (p->taken >= ref_wins_at || ref_moves(p, scratch) == 0)
        p->over = 1; /* 12 geese, a trapped fox, or blocked geese (who lose) */
}

static void ref_perft(const ref_pos *p, int depth, int at, uint64_t *nodes)
{
    if (p->over)
        return;
    ref_move *m = malloc(sizeof *m * REF_MAX);
    int n = ref_moves(p, m);
    nodes[at] += (uint64_t)n;
    for (int i = 0; i < n && at + 1 < depth; i++) {
        ref_pos next = *p;
        ref_play(&next, &m[i]);
        ref_perft(&next, depth, at + 1, nodes);
    }
    free(m);
}

/* Move-path counts from the start, for each diagonal option, to depth 7: the game's own
 * generator (through --perft's perft_count) against the reference, and the known 8, 69, 420
 * of the default rules. Under the sanitizers (make sanitize sets GIOCHI_SANITIZE) to depth 6:
 * the same paths at a sixth of the nodes, where depth 7 costs five minutes of CPU, not one
 * second. */
TEST(volpe_perft_matches_reference_to_depth_7)
{
    const int depth = getenv("GIOCHI_SANITIZE") ? 6 : 7;
    static const char *const opt[] = {"{\"diagonals\": \"all\"}",
                                      "{\"diagonals\": \"alquerque\"}",
                                      "{\"diagonals\": \"none\"}"};
    static const uint64_t want[3][7] = {
        {8, 69, 420, 4755, 26893, 335181, 1913007},
        {4, 35, 234, 2647, 11035, 137647, 668749},
        {4, 35, 132, 1487, 4565, 56905, 188243},
    };
    for (int o = 0; o < 3; o++) {
        volpe_rules r = rules_with(opt[o]);
        uint64_t got[7], ref[7] = {0};
        char err[128];
        CHECK_INT(perft_count(&game_volpe, &r, 2, depth, got, err, sizeof err), 0);
        volpe_state s;
        begin(&s, &r);
        ref_pos p;
        ref_from_state(&p, &s);
        ref_diag = o;
        ref_perft(&p, depth, 0, ref);
        for (int d = 0; d < depth; d++) {
            CHECK_INT(got[d], ref[d]);
            CHECK_INT(got[d], want[o][d]);
        }
    }
}

/* From positions deep in random games (captures and chains on the board), depth 3 against
 * the reference, for each diagonal option. The reference keeps no history, so these games
 * play without the repetition rule (a position seen twice before would end there). */
TEST(volpe_perft_matches_reference_midgame)
{
    static const char *const opt[] = {
        "{\"diagonals\": \"all\", \"repetition\": 0, \"no_progress_moves\": 128}",
        "{\"diagonals\": \"alquerque\", \"repetition\": 0, \"no_progress_moves\": 128}",
        "{\"diagonals\": \"none\", \"repetition\": 0, \"no_progress_moves\": 128}"};
    for (int o = 0; o < 3; o++) {
        volpe_rules r = rules_with(opt[o]);
        ref_diag = o;
        for (int game = 0; game < 40; game++) {
            rng pick;
            rng_seed_stream(&pick, 8, (uint64_t)game, 1);
            volpe_state s;
            begin(&s, &r);
            int plies = 10 + (int)rng_below(&pick, 60);
            decision d;
            for (int i = 0; i < plies && game_volpe.decide(&s, &d); i++) {
                rng c = no_chance();
                game_volpe.apply(&s, d.action[rng_below(&pick, (uint32_t)d.n)], &c, NULL);
            }
            if (s.over)
                continue;
            uint64_t got[3], ref[3] = {0};
            char err[128];
            CHECK_INT(perft_from(&game_volpe, &s, 3, got, err, sizeof err), 0);
            ref_pos p;
            ref_from_state(&p, &s);
            ref_perft(&p, 3, 0, ref);
            for (int k = 0; k < 3; k++)
                CHECK_INT(got[k], ref[k]);
        }
    }
}

/* A position with thousands of distinct chains (found by a local search over positions of
 * 17 geese): the fox's moves come in pages of 255 and a "more" action, together exactly
 * the reference's moves, and a move from a later page plays as any other. */
TEST(volpe_many_chains_come_in_pages)
{
    uint64_t geese = 0x18a7eabaull;
    char json[512];
    size_t used = (size_t)snprintf(json, sizeof json, "{\"fox\": \"C3\", \"geese\": [");
    for (uint64_t m = geese; m; m &= m - 1) {
        char name[3];
        volpe_point_name(__builtin_ctzll(m), name);
        used += (size_t)snprintf(json + used, sizeof json - used, "%s\"%s\"",
                                 m == geese ? "" : ", ", name);
    }
    snprintf(json + used, sizeof json - used, "], \"fox_wins_at\": %d}",
             __builtin_popcountll(geese));
    volpe_rules r = rules_with(json);
    CHECK_INT(r.fox, 8);
    volpe_state s;
    begin(&s, &r);
    int total = volpe_fox_moves(&r.board, s.geese, s.fox, 0, 0, NULL, NULL);
    CHECK(total > 4 * GAME_MAX_ACTIONS);
    ref_pos p;
    ref_from_state(&p, &s);
    ref_diag = 0;
    ref_move *m = malloc(sizeof *m * REF_MAX);
    CHECK_INT(ref_moves(&p, m), total);
    free(m);
    int32_t *all = malloc(sizeof *all * (size_t)total);
    int seen = 0, pages = 0;
    decision d;
    volpe_state t = s;
    while (game_volpe.decide(&t, &d) && t.side == VOLPE_FOX) {
        pages++;
        CHECK(d.n <= GAME_MAX_ACTIONS);
        bool more = d.action[d.n - 1] == VOLPE_MORE;
        for (int i = 0; i < d.n - more; i++)
            all[seen++] = d.action[i];
        if (!more)
            break;
        rng c = no_chance();
        game_volpe.apply(&t, VOLPE_MORE, &c, NULL);
        CHECK_INT(t.moves, 0);
    }
    CHECK_INT(seen, total);
    CHECK_INT(pages, (total - 2) / VOLPE_PAGE + 1);
    int32_t *sorted = malloc(sizeof *sorted * (size_t)total);
    int n = volpe_fox_moves(&r.board, s.geese, s.fox, 0, total, sorted, NULL);
    CHECK_INT(n, total);
    for (int i = 0; i < total && i < seen; i++)
        CHECK_INT(all[i], sorted[i]);
    /* --perft counts moves at the table: every page's moves at depth 1, the page turns not
     * (the reference's count above), and at depth 2 the geese's replies to each of them. */
    uint64_t nodes[2], ref[2] = {0};
    char err[128];
    CHECK_INT(perft_from(&game_volpe, &s, 2, nodes, err, sizeof err), 0);
    ref_wins_at = __builtin_popcountll(geese);
    ref_perft(&p, 2, 0, ref);
    ref_wins_at = 12;
    CHECK_INT(nodes[0], (uint64_t)total);
    CHECK_INT(nodes[0], ref[0]);
    CHECK_INT(nodes[1], ref[1]);
    /* A move of the third page. */
    t = s;
    rng c = no_chance();
    game_volpe.apply(&t, VOLPE_MORE, &c, NULL);
    game_volpe.apply(&t, VOLPE_MORE, &c, NULL);
    game_volpe.decide(&t, &d);
    game_volpe.apply(&t, d.action[7], &c, NULL);
    CHECK_INT(t.page, 0);
    CHECK_INT(t.moves, 1);
    CHECK(t.side == VOLPE_GEESE || t.over);
    CHECK_INT(t.captured, __builtin_popcount((uint32_t)all[2 * VOLPE_PAGE + 7] >> 6));
    free(all);
    free(sorted);
}

/* ---- search hooks and bots -------------------------------------------------------------- */

/* evaluate is zero-sum and bounded, hash follows the position alone, order puts captures
 * first; over positions of random games. */
TEST(volpe_search_hooks)
{
    volpe_rules r = rules_with(NULL);
    CHECK(game_volpe.deterministic);
    for (int game = 0; game < 50; game++) {
        rng pick;
        rng_seed_stream(&pick, 5, (uint64_t)game, 1);
        volpe_state s, prev;
        begin(&s, &r);
        decision d;
        while (game_volpe.decide(&s, &d)) {
            int32_t e = game_volpe.evaluate(&s, VOLPE_FOX);
            CHECK_INT(e, -game_volpe.evaluate(&s, VOLPE_GEESE));
            CHECK(e > -GAME_EVAL_MAX && e < GAME_EVAL_MAX);
            int32_t score[GAME_MAX_ACTIONS];
            game_volpe.order(&s, &d, score);
            for (int i = 0; i < d.n; i++)
                if (d.kind == VOLPE_FOX && d.action[i] != VOLPE_MORE)
                    CHECK_INT(score[i], __builtin_popcount((uint32_t)d.action[i] >> 6));
            volpe_state copy = s;
            copy.moves += 7; /* tallies are not the position */
            copy.fox_moves += 3;
            CHECK(game_volpe.hash(&copy) == game_volpe.hash(&s));
            prev = s;
            rng c = no_chance();
            game_volpe.apply(&s, d.action[rng_below(&pick, (uint32_t)d.n)], &c, NULL);
            CHECK(game_volpe.hash(&prev) != game_volpe.hash(&s));
        }
    }
}

/* The greedy fox takes the most geese; the greedy geese never offer a capture when a safe
 * move exists. */
TEST(volpe_greedy_choices)
{
    volpe_rules r = rules_with("{\"diagonals\": \"none\", \"fox\": \"C7\", \"geese\": "
                               "[\"C6\", \"C4\", \"D3\", \"A3\"], \"fox_wins_at\": 4}");
    volpe_state s;
    begin(&s, &r);
    decision d;
    game_volpe.decide(&s, &d);
    rng br;
    rng_seed(&br, 3);
    int k = volpe_bot_greedy.choose(NULL, &s, &d, &br);
    CHECK_INT(__builtin_popcount((uint32_t)d.action[k] >> 6), 3);
    /* Geese D4 and C5 against a fox on D6 (no diagonals): D4-D5 offers the goose (D4 is
     * empty behind it), the other five moves are safe; the greedy geese pick a safe one. */
    volpe_rules g = rules_with("{\"diagonals\": \"none\", \"fox\": \"D7\", \"geese\": "
                               "[\"D4\", \"C5\"], \"fox_wins_at\": 2}");
    for (int seed = 0; seed < 30; seed++) {
        begin(&s, &g);
        play(&s, "fox D7-D6");
        game_volpe.decide(&s, &d);
        CHECK_INT(d.n, 6);
        CHECK(find(&s, &d, "goose D4-D5") >= 0);
        rng_seed(&br, (uint64_t)seed);
        k = volpe_bot_greedy.choose(NULL, &s, &d, &br);
        volpe_state t = s;
        rng c = no_chance();
        game_volpe.apply(&t, d.action[k], &c, NULL);
        CHECK_INT(volpe_max_capture(&g.board, t.geese, t.fox), 0);
    }
}

/* Fox results of a batch: fox wins, draws, games. */
typedef struct tally {
    int64_t fox, geese, draws, games;
} tally;

static tally batch(const char *fox, const char *geese, uint64_t runs, int threads,
                   char **text)
{
    volpe_rules r = rules_with(NULL);
    run_config c;
    memset(&c, 0, sizeof c);
    c.game = &game_volpe;
    c.rules = &r;
    c.nseats = 2;
    char canon[BOT_SPEC_MAX], err[256];
    if (botspec_parse(&game_volpe, fox, &c.seat[0], canon, sizeof canon, err, sizeof err) ||
        botspec_parse(&game_volpe, geese, &c.seat[1], canon, sizeof canon, err, sizeof err)) {
        check_fail(__FILE__, __LINE__, "bot: %s", err);
        return (tally){0, 0, 0, 0};
    }
    c.runs = runs;
    c.seed = 2024;
    c.threads = threads;
    run_result res;
    tally t = {0, 0, 0, 0};
    if (run_batch(&c, &res, err, sizeof err) != 0) {
        check_fail(__FILE__, __LINE__, "run_batch: %s", err);
        return t;
    }
    t.games = (int64_t)res.games;
    t.draws = res.tied_games;
    t.fox = res.wins_alone[VOLPE_FOX];
    t.geese = res.wins_alone[VOLPE_GEESE];
    if (text) {
        const char *spec[GAME_MAX_SEATS] = {fox, geese};
        cJSON *rules = cJSON_CreateObject();
        report_input in = {.cfg = &c, .res = &res, .ruleset = rules};
        memcpy(in.bot_spec, spec, sizeof spec);
        cJSON *rep = report_build(&in);
        cJSON_DeleteItemFromObject(rep, "run");
        *text = cJSON_Print(rep);
        cJSON_Delete(rep);
        cJSON_Delete(rules);
    }
    run_result_free(&res);
    return t;
}

/* Same seed, same report, on one thread or three. */
TEST(volpe_reports_do_not_depend_on_threads)
{
    char *a = NULL, *b = NULL;
    batch("greedy", "random", 600, 1, &a);
    batch("greedy", "random", 600, 3, &b);
    CHECK(a && b);
    if (a && b)
        CHECK_STR(a, b);
    free(a);
    free(b);
}

/* Strength, each side against a fixed opponent, fixed seeds: the greedy geese hold the random
 * fox far better than random geese do; the alphabeta geese (depth 4) trap the greedy fox far
 * more often than the greedy geese do; the alphabeta fox (depth 4) beats the greedy geese far
 * more often than the greedy fox does. Each gap is beyond five standard errors of the
 * difference of two shares (at most sqrt(2 * 0.25 / n)). */
TEST(volpe_strength_ordering)
{
    enum { N = 600, M = 40 };
    tally rr = batch("random", "random", N, 2, NULL);
    tally rg = batch("random", "greedy", N, 2, NULL);
    double five = 5 * sqrt(2 * 0.25 / N), five_m = 5 * sqrt(2 * 0.25 / M);
    CHECK((double)rr.fox / N > (double)rg.fox / N + five);
    tally gg = batch("greedy", "greedy", M, 2, NULL);
    tally ga = batch("greedy", "alphabeta:depth=4", M, 2, NULL);
    tally ag = batch("alphabeta:depth=4", "greedy", M, 2, NULL);
    CHECK((double)ga.geese / M > (double)gg.geese / M + five_m);
    CHECK((double)ag.fox / M > (double)gg.fox / M + five_m);
}

/* The generic search bots play either side, mcts with the greedy bot as its playout policy
 * too; every game ends. */
TEST(volpe_search_bots_play_both_sides)
{
    static const char *const pair[][2] = {
        {"mcts:playouts=40", "alphabeta:depth=2"},
        {"alphabeta:depth=2:nodes=500", "mcts:playouts=40:rollout=1"},
    };
    for (int i = 0; i < 2; i++) {
        tally t = batch(pair[i][0], pair[i][1], 4, 1, NULL);
        CHECK_INT(t.games, 4);
        CHECK_INT(t.fox + t.geese + t.draws, 4);
    }
}

/* --check: geese conserved, the fox on the cross and never on a goose. */
TEST(volpe_check_names_a_broken_invariant)
{
    volpe_rules r = rules_with(NULL);
    volpe_state s;
    begin(&s, &r);
    char err[256];
    CHECK_INT(game_volpe.check(&s, err, sizeof err), 0);
    volpe_state bad = s;
    bad.captured = 1; /* a goose taken that is still on the board */
    CHECK_INT(game_volpe.check(&bad, err, sizeof err), -1);
    CHECK(strstr(err, "geese: 17 on the board and 1 taken, 17 at the start") != NULL);
    bad = s;
    bad.fox = __builtin_ctzll(s.geese);
    CHECK_INT(game_volpe.check(&bad, err, sizeof err), -1);
    CHECK(strstr(err, "a goose's") != NULL);
}
