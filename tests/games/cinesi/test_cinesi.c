/* test_cinesi.c — the Gioco dei Cinesi (seed 004): one scripted test per rule, ruleset
 * loading, the exact analysis against an independent brute-force computation over the joint
 * state of every figure, simulation against the exact values at fixed seeds, and reports
 * that do not depend on the thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "games/cinesi/cinesi.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "report/report.h"
#include "config/rules.h"
#include "core/runner.h"

/* ---- helpers ------------------------------------------------------------------------- */

/* Loads the default ruleset with the --set style assignments of sets (NULL-terminated) for
 * nseats players; returns what rules_load and rules_check say, the message in err. */
static int load(cinesi_rules *r, const char *const *sets, int nseats, char *err, size_t errlen)
{
    cJSON *j = rules_parse(config_cinesi_json, "cinesi.json", err, errlen);
    int rc = j ? 0 : -1;
    for (int i = 0; rc == 0 && sets && sets[i]; i++)
        rc = rules_set(&game_cinesi, j, sets[i], err, errlen);
    if (rc == 0)
        rc = game_cinesi.rules_load(r, j, err, errlen);
    if (rc == 0)
        rc = game_cinesi.rules_check(r, nseats, err, errlen);
    cJSON_Delete(j);
    return rc;
}

static cinesi_rules rules_with(const char *const *sets, int nseats)
{
    cinesi_rules r;
    char err[256];
    if (load(&r, sets, nseats, err, sizeof err) != 0) {
        fprintf(stderr, "test ruleset rejected: %s\n", err);
        abort();
    }
    return r;
}

/* Checks that loading fails with a message containing `want`. */
static void rejects(const char *const *sets, int nseats, const char *want)
{
    cinesi_rules r;
    char err[256] = "";
    CHECK_INT(load(&r, sets, nseats, err, sizeof err), -1);
    if (strstr(err, want) == NULL)
        check_fail(__FILE__, __LINE__, "message \"%s\" lacks \"%s\"", err, want);
}

/* Plays a whole game on scripted faces (1..nfaces; default die: 1 red, 2 yellow, 3 green,
 * 4 blue, 5 and 6 white), checks that the script is used up exactly, and fills o. */
static void play_script(cinesi_state *s, const cinesi_rules *r, int nseats, const int *script,
                        int len, outcome *o)
{
    rng ch;
    rng_seed(&ch, 1);
    rng_script(&ch, script, len);
    decision d;
    game_cinesi.start(s, r, nseats, &ch, NULL);
    CHECK(!game_cinesi.decide(s, &d));
    memset(o, 0, sizeof *o);
    game_cinesi.finish(s, o, NULL);
    CHECK_INT(ch.script_pos, len);
}

enum { R = 1, Y = 2, G = 3, B = 4, W = 5 }; /* faces of the default die */

/* ---- ruleset ------------------------------------------------------------------------- */

TEST(cinesi_default_ruleset)
{
    cinesi_rules r = rules_with(NULL, 4);
    CHECK_INT(r.side, 7);
    CHECK_INT(r.steps, 27); /* 24 squares round the edge, 3 up the diagonal */
    CHECK_INT(r.nfaces, 6);
    CHECK_INT(r.faces[CINESI_WHITE], 2);
    CHECK_INT(r.opening, CINESI_OPEN_SEAT1);
    for (int k = 0; k < 4; k++)
        CHECK_INT(r.seat_colour[k], k); /* red, yellow, green, blue in seat order */
    CHECK_INT(rules_with((const char *[]){"side=3", NULL}, 2).steps, 9);
    CHECK_INT(rules_with((const char *[]){"side=51", NULL}, 2).steps, 225);
}

TEST(cinesi_bad_rulesets_name_their_key)
{
    rejects((const char *[]){"side=8", NULL}, 2, "'side': must be odd");
    rejects((const char *[]){"side=1", NULL}, 2, "'side': expected an integer in 3..51");
    rejects((const char *[]){"faces.white=13", NULL}, 2, "'faces.white'");
    rejects((const char *[]){"faces.pink=1", NULL}, 2, "'faces.pink': unknown key");
    rejects((const char *[]){"seat_colours=[\"red\",\"red\"]", NULL}, 2, "red is listed twice");
    rejects((const char *[]){"seat_colours=[\"red\",\"pink\"]", NULL}, 2,
            "'seat_colours': entry 2");
    rejects((const char *[]){"seat_colours=[\"red\",\"blue\"]", NULL}, 3,
            "'seat_colours': has 2 entries");
    rejects((const char *[]){"faces.yellow=0", NULL}, 2, "'faces.yellow': must be at least 1");
    rejects((const char *[]){"opening=\"dice\"", NULL}, 2, "'opening'");
    rejects((const char *[]){"tiles=3", NULL}, 2, "'tiles': unknown key");
    /* A colour nobody plays may have no face; white may have none. */
    cinesi_rules r =
        rules_with((const char *[]){"faces.blue=0", "faces.white=0", NULL}, 3);
    CHECK_INT(r.nfaces, 3);
}

/* ---- rules, on scripted dice --------------------------------------------------------- */

/* "Se esce il colore della vostra figura la spostate in senso antiorario e gettate di nuovo
 * il dado" and "Il gioco ha termine quando un giocatore riesce a far giungere la sua
 * figurina al centro della scacchiera e vince": nine reds in a row take red round a 3x3
 * board (8 squares) and up its diagonal (1) in seat 1's first turn, which ends the game. */
TEST(cinesi_rule_own_colour_moves_and_rolls_again_and_the_centre_wins)
{
    cinesi_rules r = rules_with((const char *[]){"side=3", NULL}, 2);
    cinesi_state s;
    outcome o;
    static const int script[] = {R, R, R, R, R, R, R, R, R};
    play_script(&s, &r, 2, script, 9, &o);
    CHECK_INT(s.pos[0], 9);
    CHECK_INT(s.pos[1], 0);
    CHECK_INT(o.winners, 1);
    CHECK_INT(o.length, 1);
    CHECK_INT(s.rolls, 9);
    CHECK_INT(o.rank[0], 1);
    CHECK_INT(o.rank[1], 2);
}

/* "Se esce il bianco non potete spostare il vostro pezzo ma potete lanciare di nuovo il
 * dado." */
TEST(cinesi_rule_white_rolls_again_without_moving)
{
    cinesi_rules r = rules_with((const char *[]){"side=3", NULL}, 2);
    cinesi_state s;
    outcome o;
    static const int script[] = {W, R, 6, W, R, R, R, R, R, R, R, R};
    play_script(&s, &r, 2, script, 12, &o);
    CHECK_INT(o.winners, 1);
    CHECK_INT(o.length, 1); /* whites never pass the die */
    CHECK_INT(s.rolls, 12);
    CHECK_INT(s.hist[0][12], 1); /* one turn of 12 rolls */
}

/* "Se esce un colore che non è il vostro, dovete passare la mano al vostro vicino di
 * destra": the next seat, and after the last seat the first. A colour nobody plays is not
 * yours either: it passes the die too. */
TEST(cinesi_rule_another_colour_passes_the_die_to_the_next_seat)
{
    cinesi_rules r = rules_with((const char *[]){"side=3", NULL}, 3);
    cinesi_state s;
    outcome o;
    /* seat 1 moves, then yellow passes; seat 2 rolls red (seat 1's colour): passes;
     * seat 3 rolls blue (nobody's): passes back to seat 1, who wins. */
    static const int script[] = {R, Y, R, B, R, R, R, R, R, R, R, R};
    play_script(&s, &r, 3, script, 12, &o);
    CHECK_INT(o.winners, 1);
    CHECK_INT(o.length, 4);
    CHECK_INT(s.pos[0], 9);
    CHECK_INT(s.pos[1], 0);
    CHECK_INT(s.pos[2], 0);
    CHECK_INT(s.hist[0][2], 1); /* seat 1: a turn of 2 rolls, then the winning 8 */
    CHECK_INT(s.hist[0][8], 1);
    CHECK_INT(s.hist[1][1], 1);
    CHECK_INT(s.hist[2][1], 1);
}

/* Each player moves only his own figure: "ogni giocatore ha a disposizione una figurina"
 * and the die names whose figure moves; figures on the same square do not interact. */
TEST(cinesi_rule_figures_do_not_interact)
{
    cinesi_rules r = rules_with((const char *[]){"side=3", NULL}, 2);
    cinesi_state s;
    outcome o;
    /* Both figures reach step 3 (the same count of squares from their corners), then
     * yellow runs home: red stays where it was. */
    static const int script[] = {R, R, R, Y, Y, Y, Y, R, Y, Y, Y, Y, Y, Y, Y};
    play_script(&s, &r, 2, script, 15, &o);
    CHECK_INT(o.winners, 2);
    CHECK_INT(s.pos[0], 3);
    CHECK_INT(s.pos[1], 9);
    CHECK_INT(o.score[0], 3);
    CHECK_INT(o.score[1], 9);
    CHECK_INT(s.lead_changes, 1); /* red led alone, then yellow went ahead */
}

/* "Si getta il dado finché esce un lato colorato", reading "colour_moves": roll until a
 * played colour shows; that player moves one square for it and rolls on. Whites and
 * colours nobody plays are rolled again. */
TEST(cinesi_rule_opening_colour_moves)
{
    cinesi_rules r =
        rules_with((const char *[]){"side=3", "opening=\"colour_moves\"", NULL}, 2);
    cinesi_state s;
    outcome o;
    static const int script[] = {W, B, G, Y, Y, Y, Y, Y, Y, Y, Y, Y};
    play_script(&s, &r, 2, script, 12, &o);
    CHECK_INT(s.starter, 1);
    CHECK_INT(o.winners, 2);
    CHECK_INT(o.length, 1);
    CHECK_INT(s.rolls, 12);
    CHECK_INT(s.hist[1][9], 1); /* the naming roll opens his first turn */
}

/* Reading "colour_names": the colour only names the starter, who then rolls afresh. */
TEST(cinesi_rule_opening_colour_names)
{
    cinesi_rules r =
        rules_with((const char *[]){"side=3", "opening=\"colour_names\"", NULL}, 2);
    cinesi_state s;
    outcome o;
    static const int script[] = {6, Y, Y, Y, Y, Y, Y, Y, Y, Y, Y};
    play_script(&s, &r, 2, script, 11, &o);
    CHECK_INT(s.starter, 1);
    CHECK_INT(o.winners, 2);
    CHECK_INT(s.pos[1], 9);
    CHECK_INT(s.rolls, 11);
    CHECK_INT(s.hist[1][9], 1); /* the opening rolls belong to no turn */
}

/* The default opening: seat 1 takes the die and the very first roll is an ordinary one
 * (a foreign colour passes at once). */
TEST(cinesi_rule_opening_seat1)
{
    cinesi_rules r = rules_with((const char *[]){"side=3", NULL}, 2);
    cinesi_state s;
    outcome o;
    static const int script[] = {G, Y, Y, Y, Y, Y, Y, Y, Y, Y};
    play_script(&s, &r, 2, script, 10, &o);
    CHECK_INT(s.starter, 0);
    CHECK_INT(o.winners, 2);
    CHECK_INT(o.length, 2);
}

/* The seats' colours and the faces are options: with seat 1 playing blue and a die of two
 * blue faces, faces 1..5 are red, yellow, green, blue, blue and 6 is white. */
TEST(cinesi_options_colours_and_faces)
{
    cinesi_rules r = rules_with(
        (const char *[]){"side=3", "seat_colours=[\"blue\",\"green\"]", "faces.blue=2",
                         "faces.white=1", NULL},
        2);
    CHECK_INT(r.nfaces, 6);
    cinesi_state s;
    outcome o;
    static const int script[] = {4, 5, 6, 4, 5, 4, 5, 4, 5, 4};
    play_script(&s, &r, 2, script, 10, &o);
    CHECK_INT(o.winners, 1);
    CHECK_INT(s.rolls, 10);
}

/* The metrics of one scripted game, through a recorder. */
TEST(cinesi_metrics_of_a_scripted_game)
{
    cinesi_rules r = rules_with((const char *[]){"side=3", NULL}, 3);
    cinesi_state s;
    outcome o;
    /* seat 1: R R Y (2 steps); seat 2: Y Y Y R (3); seat 3: G x9 wins. */
    static const int script[] = {R, R, Y, Y, Y, Y, R, G, G, G, G, G, G, G, G, G};
    rng ch;
    rng_seed(&ch, 1);
    rng_script(&ch, script, 16);
    game_cinesi.start(&s, &r, 3, &ch, NULL);
    recorder *rec = rec_new(&game_cinesi, 3, false);
    memset(&o, 0, sizeof o);
    game_cinesi.finish(&s, &o, rec);
    CHECK_INT(o.winners, 4);
    CHECK_INT(o.length, 3);
    CHECK_INT(rec_get(rec, CINESI_M_ROLLS, -1)->sum, 16);
    CHECK_INT(rec_get(rec, CINESI_M_LEAD_CHANGES, -1)->sum, 2); /* 1 -> 2 -> 3 */
    CHECK_INT(rec_get(rec, CINESI_M_RUNNER_UP, -1)->sum, 6);    /* 9 - 3 */
    CHECK_INT(rec_get(rec, CINESI_M_ROLLS_PER_TURN, 0)->sum, 3);
    CHECK_INT(rec_get(rec, CINESI_M_ROLLS_PER_TURN, 1)->sum, 4);
    CHECK_INT(rec_get(rec, CINESI_M_ROLLS_PER_TURN, 2)->sum, 9);
    CHECK_INT(o.rank[2], 1);
    CHECK_INT(o.rank[1], 2);
    CHECK_INT(o.rank[0], 3);
    rec_free(rec);
}

/* Turns of 12 rolls and more leave the loop's short count (CINESI_SHORT_TURN) and those of
 * 64 and more are kept one by one; a game of short turns after them, in the same state and
 * recorder, records only its own. Whites prolong a turn: "se esce il bianco ... potete
 * lanciare di nuovo il dado". */
TEST(cinesi_long_turns_reach_the_recorder)
{
    cinesi_rules r = rules_with((const char *[]){"side=3", NULL}, 2);
    cinesi_state s;
    outcome o;
    int script[128], n = 0;
    for (int i = 0; i < 15; i++) /* seat 1: 15 whites, then yellow: a turn of 16 rolls */
        script[n++] = W;
    script[n++] = Y;
    for (int i = 0; i < 69; i++) /* seat 2: 69 whites, then red: a turn of 70 */
        script[n++] = W;
    script[n++] = R;
    for (int i = 0; i < 9; i++) /* seat 1: 9 reds, the centre: a turn of 9 */
        script[n++] = R;
    static const int second[] = {Y, G, R, R, R, R, R, R, R, R, R}; /* turns of 1, 1, 9 */
    recorder *rec = rec_new(&game_cinesi, 2, false);
    for (int game = 0; game < 2; game++) {
        rng ch;
        rng_seed(&ch, 1);
        if (game == 0)
            rng_script(&ch, script, n);
        else
            rng_script(&ch, second, 11);
        game_cinesi.start(&s, &r, 2, &ch, NULL);
        memset(&o, 0, sizeof o);
        game_cinesi.finish(&s, &o, rec);
        CHECK_INT(o.winners, 1);
        CHECK_INT(s.wide, game == 0);
        CHECK_INT(s.top, game == 0 ? 16 : 0);
    }
    const acc *a = rec_get(rec, CINESI_M_ROLLS_PER_TURN, 0);
    const acc *b = rec_get(rec, CINESI_M_ROLLS_PER_TURN, 1);
    CHECK_INT(a->n, 4); /* 16, 9, then 1, 9 */
    CHECK_INT(a->sum, 35);
    CHECK_INT(a->sumsq, 256 + 81 + 1 + 81);
    CHECK_INT(a->min, 1);
    CHECK_INT(a->max, 16);
    CHECK_INT(b->n, 2); /* 70, then 1 */
    CHECK_INT(b->sum, 71);
    CHECK_INT(b->max, 70);
    rec_free(rec);
}

/* The trace tells every roll and the end. */
TEST(cinesi_trace_tells_every_roll)
{
    cinesi_rules r = rules_with((const char *[]){"side=3", NULL}, 2);
    cinesi_state s;
    static const int script[] = {W, B, R, R, R, R, R, R, R, R, R, R};
    rng ch;
    rng_seed(&ch, 1);
    rng_script(&ch, script, 12);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    game_cinesi.start(&s, &r, 2, &ch, f);
    fclose(f);
    CHECK(strstr(buf, "roll 1: seat 1 rolls white: rolls again") != NULL);
    CHECK(strstr(buf, "roll 2: seat 1 rolls blue (nobody's colour): passes the die to seat 2") !=
          NULL);
    CHECK(strstr(buf, "roll 3: seat 2 rolls red: passes the die to seat 1 (red)") != NULL);
    CHECK(strstr(buf, "roll 12: seat 1 rolls red and reaches the centre") != NULL);
    CHECK(strstr(buf, "seat 1 (red) wins after 3 turns and 12 rolls") != NULL);
    free(buf);
}

/* A traced game (played by the plain build of the loop) is the very game an untraced run
 * plays (with the popcnt build where the processor has it): same rolls, same state. */
TEST(cinesi_traced_and_untraced_games_are_the_same)
{
    static const char *const variants[][3] = {
        {"side=7", NULL, NULL},
        {"opening=\"colour_moves\"", "faces.white=0", NULL},
        {"opening=\"colour_names\"", "faces.red=5", NULL},
    };
    for (int v = 0; v < 3; v++) {
        cinesi_rules r = rules_with(variants[v], 4);
        for (int g = 0; g < 200; g++) {
            cinesi_state a, b;
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            rng c1, c2;
            rng_seed_stream(&c1, 11, (uint64_t)g, 0);
            c2 = c1;
            game_cinesi.start(&a, &r, 4, &c1, NULL);
            FILE *sink = fopen("/dev/null", "w");
            game_cinesi.start(&b, &r, 4, &c2, sink);
            fclose(sink);
            CHECK(memcmp(&a, &b, sizeof a) == 0);
            CHECK(memcmp(&c1, &c2, sizeof c1) == 0);
        }
    }
}

/* ---- the batched die ----------------------------------------------------------------- */

/* The batches are fair: on a die of 10 faces (4 bits a lane, 6 lanes in 16 rejected),
 * white shows on 4 rolls in 10. */
TEST(cinesi_batched_die_is_fair)
{
    cinesi_rules r = rules_with(
        (const char *[]){"faces.yellow=2", "faces.green=3", "faces.blue=0", "faces.white=4",
                         NULL},
        2);
    CHECK_INT(r.nfaces, 10);
    cinesi_state s;
    long long rolls = 0, steps = 0, turns = 0, games = 4000;
    for (int g = 0; g < games; g++) {
        rng ch;
        rng_seed_stream(&ch, 5, (uint64_t)g, 0);
        game_cinesi.start(&s, &r, 2, &ch, NULL);
        rolls += s.rolls;
        steps += s.pos[0] + s.pos[1];
        turns += s.turns;
    }
    /* Every roll is own colour (a step), white, or a pass (a turn ends): in seat 1's turns
     * P(step) = 1/10, P(pass) = 5/10; seat 2: 2/10 and 4/10; whites 4/10 for both. */
    double white_share = 1.0 - (double)(steps + turns - games) / (double)rolls;
    CHECK_NEAR(white_share, 0.4, 5 * sqrt(0.24 / (double)rolls));
}

/* ---- the same games, however the loop plays them ------------------------------------ */

/* A signature of the games played under rules r by nseats: every figure the state keeps of
 * each game, and the generator's next word after it (so the rolls drawn too), hashed
 * (FNV-1a) over games 0..games-1 of master seed 9. */
static uint64_t play_signature(const cinesi_rules *r, int nseats, int games)
{
    uint64_t h = 1469598103934665603ULL;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ULL)
    for (int g = 0; g < games; g++) {
        rng ch;
        cinesi_state s;
        memset(&s, 0, sizeof s);
        rng_seed_stream(&ch, 9, (uint64_t)g, RNG_STREAM_CHANCE);
        game_cinesi.start(&s, r, nseats, &ch, NULL);
        MIX(rng_next(&ch));
        MIX((uint32_t)s.winner);
        MIX((uint32_t)s.starter);
        MIX((uint32_t)s.rolls);
        MIX((uint32_t)s.turns);
        MIX((uint32_t)s.lead_changes);
        MIX((uint32_t)s.nlong);
        for (int k = 0; k < nseats; k++) {
            MIX((uint32_t)s.pos[k]);
            for (int len = 0; len < CINESI_TURN_BINS; len++)
                MIX(s.hist[k][len]);
        }
        for (int i = 0; i < s.nlong; i++)
            MIX((uint32_t)s.long_turn[i]);
    }
#undef MIX
    return h;
}

/* The games are those of the plain loop giochi-sim played before the loop was unrolled by
 * seat and leader (commit 09c344e computed these signatures): the same rolls drawn, the same
 * figures, turns, lead changes and histograms, for 2 to 4 seats, every opening, dice of 1 to
 * 6 bits a lane, turns of 64 rolls and more, and the colours in another order. */
TEST(cinesi_games_are_those_of_the_plain_loop)
{
    static const struct {
        const char *sets[6];
        int nseats, games;
        uint64_t want;
    } variants[] = {
        {{NULL}, 4, 3000, 0xd83bbd8fefca332bULL},
        {{NULL}, 3, 2000, 0xa990efa81cdde1baULL},
        {{NULL}, 2, 2000, 0x8f2e065b39c00c54ULL},
        {{"opening=\"colour_moves\"", NULL}, 4, 2000, 0xb7a911b9de2fbf1aULL},
        {{"opening=\"colour_names\"", NULL}, 3, 2000, 0x9a32273574091be4ULL},
        {{"faces.white=0", NULL}, 4, 2000, 0xc945603e9a598212ULL},
        {{"faces.red=12", "faces.yellow=12", "faces.green=12", "faces.blue=12",
          "faces.white=12", NULL},
         4, 500, 0x002116ac4582d24bULL},
        {{"side=3", NULL}, 2, 2000, 0x2b877923ac4bbb9dULL},
        {{"side=51", "faces.red=3", NULL}, 4, 300, 0x044560c04ffb89e6ULL},
        {{"side=51", "faces.green=0", "faces.blue=0", "faces.white=12", NULL},
         2, 300, 0x2ca3466b72fc19f5ULL},
        {{"seat_colours=[\"blue\",\"green\",\"yellow\",\"red\"]", "faces.green=2", NULL},
         4, 2000, 0xa9cc40a3caa897c0ULL},
        {{"faces.red=1", "faces.yellow=1", "faces.green=0", "faces.blue=0", "faces.white=0",
          NULL},
         2, 2000, 0xc2f583e4d8bf98a6ULL},
    };
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        cinesi_rules r = rules_with(variants[v].sets, variants[v].nseats);
        uint64_t got = play_signature(&r, variants[v].nseats, variants[v].games);
        if (got != variants[v].want)
            check_fail(__FILE__, __LINE__, "variant %zu: signature %016llx, want %016llx", v,
                       (unsigned long long)got, (unsigned long long)variants[v].want);
    }
}

/* The plain die's batches (cinesi_rules.plain: one face per colour in colour order, 1 to 4
 * white faces, seat k playing colour k) read the planes straight off the bits: the same games
 * as the general way of any die, for every count of white faces and of seats; and a die or
 * seating off that pattern is not plain. */
TEST(cinesi_plain_die_plays_the_games_of_the_general_way)
{
    for (int whites = 1; whites <= 4; whites++)
        for (int n = 2; n <= 4; n++) {
            char set[32];
            snprintf(set, sizeof set, "faces.white=%d", whites);
            cinesi_rules r = rules_with((const char *[]){set, NULL}, n), any = r;
            CHECK(r.plain);
            any.plain = false;
            CHECK(play_signature(&r, n, 300) == play_signature(&any, n, 300));
        }
    CHECK(!rules_with((const char *[]){"faces.white=0", NULL}, 4).plain);
    CHECK(!rules_with((const char *[]){"faces.red=2", NULL}, 4).plain);
    CHECK(!rules_with((const char *[]){"seat_colours=[\"yellow\",\"red\"]", NULL}, 2).plain);
}

/* ---- exact analysis against brute force ---------------------------------------------- */

/* Brute force over the joint state (seat holding the die, every figure's position), one
 * non-white roll at a time: V(c, p) = r_c M(c, p) + (1 - r_c) (P + V(c+1, p)) for each
 * figure of interest, solved round the cycle of seats for every p, positions from the end
 * back. It knows nothing of turn counts or negative binomials. */
typedef struct brute {
    long double win[CINESI_MAX_SEATS];
    long double nonwhite, passes, runner_up;
} brute;

enum { BF_FIELDS = CINESI_MAX_SEATS + 3 };

static void brute_start(const cinesi_rules *r, int n, int starter, long double *out)
{
    int need[CINESI_MAX_SEATS], stride[CINESI_MAX_SEATS], S = 1;
    long double rr[CINESI_MAX_SEATS];
    int white = r->faces[CINESI_WHITE];
    for (int k = 0; k < n; k++) {
        need[k] = r->steps - (k == starter && r->opening == CINESI_OPEN_COLOUR_MOVES);
        stride[k] = S;
        S *= need[k];
        int own = r->faces[r->seat_colour[k]];
        rr[k] = (long double)own / (r->nfaces - white);
    }
    long double(*V)[CINESI_MAX_SEATS][BF_FIELDS] = calloc((size_t)(unsigned)S, sizeof *V);
    for (int idx = S - 1; idx >= 0; idx--) {
        int p[CINESI_MAX_SEATS];
        for (int k = 0; k < n; k++)
            p[k] = idx / stride[k] % need[k];
        long double A[CINESI_MAX_SEATS][BF_FIELDS];
        for (int c = 0; c < n; c++) {
            long double M[BF_FIELDS] = {0};
            if (p[c] + 1 == need[c]) {
                M[c] = 1;
                int d = 1 << 30;
                for (int j = 0; j < n; j++)
                    if (j != c && need[j] - p[j] < d)
                        d = need[j] - p[j];
                M[CINESI_MAX_SEATS + 2] = d;
            } else {
                memcpy(M, V[idx + stride[c]][c], sizeof M);
            }
            M[CINESI_MAX_SEATS] += 1; /* this roll */
            for (int f = 0; f < BF_FIELDS; f++)
                A[c][f] = rr[c] * M[f];
            A[c][CINESI_MAX_SEATS] += 1 - rr[c];     /* the passing roll */
            A[c][CINESI_MAX_SEATS + 1] += 1 - rr[c]; /* a pass */
        }
        for (int f = 0; f < BF_FIELDS; f++) {
            long double num = 0, prod = 1;
            for (int c = 0; c < n; c++) {
                num += prod * A[c][f];
                prod *= 1 - rr[c];
            }
            long double v0 = num / (1 - prod), v = v0;
            for (int c = n - 1; c >= 1; c--) {
                v = A[c][f] + (1 - rr[c]) * v;
                V[idx][c][f] = v;
            }
            V[idx][0][f] = v0;
        }
    }
    memcpy(out, V[0][starter], sizeof(long double) * BF_FIELDS);
    free(V);
}

static brute brute_force(const cinesi_rules *r, int n)
{
    brute b;
    memset(&b, 0, sizeof b);
    int played = 0;
    for (int k = 0; k < n; k++)
        played += r->faces[r->seat_colour[k]];
    for (int s = 0; s < n; s++) {
        long double ws = r->opening == CINESI_OPEN_SEAT1
                             ? (s == 0)
                             : (long double)r->faces[r->seat_colour[s]] / played;
        if (ws == 0)
            continue;
        long double v[BF_FIELDS];
        brute_start(r, n, s, v);
        for (int k = 0; k < n; k++)
            b.win[k] += ws * v[k];
        b.nonwhite += ws * v[CINESI_MAX_SEATS];
        b.passes += ws * v[CINESI_MAX_SEATS + 1];
        b.runner_up += ws * v[CINESI_MAX_SEATS + 2];
    }
    return b;
}

/* The law of the length in rolls by a forward pass over the joint state, roll by roll
 * (whites and the opening included); pmf[x] for x < len. Caller frees. */
static long double *brute_rolls(const cinesi_rules *r, int n, int len)
{
    int stride[CINESI_MAX_SEATS], S = 1;
    for (int k = 0; k < n; k++) {
        stride[k] = S;
        S *= r->steps;
    }
    /* Positions are absolute here (the colour_moves starter really stands on step 1). */
    size_t cells = (size_t)(unsigned)S * (unsigned)n; /* S > 0: the boards here are small */
    long double *m = calloc(cells, sizeof *m), *nm = calloc(cells, sizeof *m);
    long double *pmf = calloc((size_t)len, sizeof *pmf), opening = 0;
    long double F = r->nfaces, w = r->faces[CINESI_WHITE] / F;
    long double q = 0;
    for (int k = 0; k < n; k++)
        q += r->faces[r->seat_colour[k]] / F;
    if (r->opening == CINESI_OPEN_SEAT1)
        m[0] = 1;
    else
        opening = 1;
    for (int x = 1; x < len; x++) {
        memset(nm, 0, sizeof *nm * (size_t)S * n);
        if (opening > 0) {
            for (int k = 0; k < n; k++) {
                long double pk = opening * r->faces[r->seat_colour[k]] / F;
                int idx = r->opening == CINESI_OPEN_COLOUR_MOVES ? stride[k] : 0;
                nm[idx * n + k] += pk;
            }
            opening *= 1 - q;
        }
        for (int idx = 0; idx < S; idx++)
            for (int c = 0; c < n; c++) {
                long double v = m[idx * n + c];
                if (v == 0)
                    continue;
                long double a = r->faces[r->seat_colour[c]] / F, b = 1 - a - w;
                int pc = idx / stride[c] % r->steps;
                if (pc + 1 == r->steps)
                    pmf[x] += v * a;
                else
                    nm[(idx + stride[c]) * n + c] += v * a;
                nm[idx * n + c] += v * w;
                nm[idx * n + (c + 1) % n] += v * b;
            }
        long double *t = m;
        m = nm;
        nm = t;
    }
    free(m);
    free(nm);
    return pmf;
}

/* The law of the length in turns by a forward pass over the joint state, turn by turn. */
static long double *brute_turns(const cinesi_rules *r, int n, int len)
{
    int stride[CINESI_MAX_SEATS], S = 1;
    for (int k = 0; k < n; k++) {
        stride[k] = S;
        S *= r->steps;
    }
    size_t cells = (size_t)(unsigned)S * (unsigned)n; /* S > 0: the boards here are small */
    long double *m = calloc(cells, sizeof *m), *nm = calloc(cells, sizeof *m);
    long double *pmf = calloc((size_t)len, sizeof *pmf);
    int played = 0, white = r->faces[CINESI_WHITE];
    for (int k = 0; k < n; k++)
        played += r->faces[r->seat_colour[k]];
    for (int k = 0; k < n; k++) {
        if (r->opening == CINESI_OPEN_SEAT1 && k > 0)
            break;
        long double ws = r->opening == CINESI_OPEN_SEAT1
                             ? 1
                             : (long double)r->faces[r->seat_colour[k]] / played;
        int idx = r->opening == CINESI_OPEN_COLOUR_MOVES ? stride[k] : 0;
        m[idx * n + k] += ws;
    }
    for (int g = 1; g < len; g++) {
        memset(nm, 0, sizeof *nm * (size_t)S * n);
        for (int idx = 0; idx < S; idx++)
            for (int c = 0; c < n; c++) {
                long double v = m[idx * n + c];
                if (v == 0)
                    continue;
                int own = r->faces[r->seat_colour[c]];
                long double rr = (long double)own / (r->nfaces - white);
                int pc = idx / stride[c] % r->steps;
                long double pm = v; /* mass that made m moves so far in this turn */
                for (int mv = 0; pc + mv < r->steps; mv++) {
                    if (pc + mv == r->steps - 1) {
                        pmf[g] += pm * rr;
                        nm[(idx + mv * stride[c]) * n + (c + 1) % n] += pm * (1 - rr);
                        break;
                    }
                    nm[(idx + mv * stride[c]) * n + (c + 1) % n] += pm * (1 - rr);
                    pm *= rr;
                }
            }
        long double *t = m;
        m = nm;
        nm = t;
    }
    free(m);
    free(nm);
    return pmf;
}

/* Compares the exact analysis with the brute force for one ruleset and seat count. */
static void check_against_brute(const char *const *sets, int n, bool laws)
{
    cinesi_rules r = rules_with(sets, n);
    cinesi_exact x;
    CHECK_INT(cinesi_exact_compute(&r, n, 1e9, &x), 0);
    brute b = brute_force(&r, n);
    long double total = 0, w = (long double)r.faces[CINESI_WHITE] / r.nfaces, q = 0;
    for (int k = 0; k < n; k++) {
        CHECK_NEAR((double)x.win[k], (double)b.win[k], 1e-17);
        total += x.win[k];
        q += (long double)r.faces[r.seat_colour[k]] / r.nfaces;
    }
    CHECK_NEAR((double)total, 1.0, 1e-15);
    CHECK_NEAR((double)x.turns_mean, (double)(b.passes + 1), 1e-13);
    long double rolls = b.nonwhite / (1 - w) + (r.opening == CINESI_OPEN_SEAT1 ? 0 : 1 / q);
    CHECK_NEAR((double)x.rolls_mean, (double)rolls, 1e-13);
    CHECK_NEAR((double)x.runner_up_mean, (double)b.runner_up, 1e-15);
    if (laws) {
        long double *bt = brute_turns(&r, n, x.turns_len);
        long double worst = 0;
        for (int g = 0; g < x.turns_len; g++)
            worst = fmaxl(worst, fabsl(bt[g] - x.turns_pmf[g]));
        CHECK(worst < 1e-16L);
        free(bt);
        CHECK(x.rolls_pmf != NULL);
        if (x.rolls_pmf) {
            long double *br = brute_rolls(&r, n, x.rolls_len), sum = 0, mean = 0;
            worst = 0;
            for (int v = 0; v < x.rolls_len; v++) {
                worst = fmaxl(worst, fabsl(br[v] - x.rolls_pmf[v]));
                sum += x.rolls_pmf[v];
                mean += v * x.rolls_pmf[v];
            }
            CHECK(worst < 1e-16L);
            CHECK_NEAR((double)sum, 1.0, 1e-15);
            CHECK_NEAR((double)mean, (double)x.rolls_mean, 1e-9);
            free(br);
        }
    }
    cinesi_exact_free(&x);
}

TEST(cinesi_exact_equals_brute_force_win_shares_and_means)
{
    check_against_brute((const char *[]){"side=3", NULL}, 2, true);
    check_against_brute((const char *[]){"side=3", NULL}, 3, true);
    check_against_brute((const char *[]){"side=3", NULL}, 4, false);
    check_against_brute((const char *[]){"side=5", NULL}, 2, true);
    check_against_brute((const char *[]){"side=5", NULL}, 3, false);
    check_against_brute((const char *[]){"side=3", "opening=\"colour_moves\"", NULL}, 3, true);
    check_against_brute((const char *[]){"side=3", "opening=\"colour_names\"", NULL}, 3, true);
    /* Unequal faces, no white, a colour nobody plays with no face, seat colours moved. */
    check_against_brute((const char *[]){"side=3", "faces.red=3", "faces.yellow=2",
                                         "faces.white=0", "faces.blue=0",
                                         "seat_colours=[\"green\",\"red\",\"yellow\"]", NULL},
                        3, true);
    check_against_brute((const char *[]){"side=5", "faces.green=4", "faces.white=5",
                                         "opening=\"colour_moves\"", NULL},
                        3, false);
    /* The smallest die two players can have: red, green and two whites. */
    check_against_brute((const char *[]){"side=3", "faces.blue=0", "faces.yellow=0",
                                         "seat_colours=[\"red\",\"green\"]", NULL},
                        2, true);
}

/* The default game's exact figures (these numbers are in the manual page). */
TEST(cinesi_exact_default_values)
{
    cinesi_rules r = rules_with(NULL, 4);
    cinesi_exact x;
    CHECK_INT(cinesi_exact_compute(&r, 4, 1e9, &x), 0);
    long double sum = 0;
    for (int k = 0; k < 4; k++)
        sum += x.win[k];
    CHECK_NEAR((double)sum, 1.0, 1e-15);
    CHECK(x.win[0] > x.win[1] && x.win[1] > x.win[2] && x.win[2] > x.win[3]);
    CHECK(x.tail < 1e-20L);
    CHECK(x.rolls_pmf != NULL);
    /* Every turn of a seat has 2 rolls on average, minus the truncated winning turns. */
    for (int k = 0; k < 4; k++)
        CHECK(x.rolls_per_turn[k] < 2 && x.rolls_per_turn[k] > 1.98L);
    cinesi_exact_free(&x);
}

/* ---- simulation against exact -------------------------------------------------------- */

static run_config config(const cinesi_rules *r, int n, uint64_t runs, int threads)
{
    run_config c;
    memset(&c, 0, sizeof c);
    c.game = &game_cinesi;
    c.rules = r;
    c.nseats = n;
    for (int k = 0; k < n; k++)
        c.seat[k].bot = &bot_random;
    c.runs = runs;
    c.seed = 20261130;
    c.threads = threads;
    return c;
}

static double acc_mean(const acc *a)
{
    return (double)a->sum / (double)a->n;
}

static double acc_sd(const acc *a)
{
    double m = acc_mean(a);
    return sqrt((double)a->sumsq / (double)a->n - m * m);
}

/* Simulated figures within 5 standard errors of the exact ones, at fixed seeds. */
static void check_simulation(const char *const *sets, int n, uint64_t runs)
{
    cinesi_rules r = rules_with(sets, n);
    cinesi_exact x;
    CHECK_INT(cinesi_exact_compute(&r, n, 0, &x), 0);
    run_config c = config(&r, n, runs, 2);
    run_result res;
    char err[256];
    CHECK_INT(run_batch(&c, &res, err, sizeof err), 0);
    double N = (double)res.games;
    for (int k = 0; k < n; k++) {
        double p = (double)x.win[k], got = (double)res.win_units[k] / RUN_WIN_UNIT / N;
        CHECK_NEAR(got, p, 5 * sqrt(p * (1 - p) / N));
        const acc *t = rec_get(res.rec, CINESI_M_ROLLS_PER_TURN, k);
        CHECK_NEAR(acc_mean(t), (double)x.rolls_per_turn[k], 5 * acc_sd(t) / sqrt((double)t->n));
    }
    CHECK_NEAR(acc_mean(&res.length), (double)x.turns_mean, 5 * (double)x.turns_sd / sqrt(N));
    const acc *rolls = rec_get(res.rec, CINESI_M_ROLLS, -1);
    CHECK_NEAR(acc_mean(rolls), (double)x.rolls_mean, 5 * (double)x.rolls_sd / sqrt(N));
    const acc *ru = rec_get(res.rec, CINESI_M_RUNNER_UP, -1);
    CHECK_NEAR(acc_mean(ru), (double)x.runner_up_mean, 5 * acc_sd(ru) / sqrt(N));
    run_result_free(&res);
    cinesi_exact_free(&x);
}

TEST(cinesi_simulation_agrees_with_exact)
{
    check_simulation(NULL, 4, 40000);
    check_simulation((const char *[]){"side=5", NULL}, 2, 40000);
    check_simulation((const char *[]){"side=5", "opening=\"colour_moves\"", "faces.red=3",
                                      "faces.white=1", NULL},
                     3, 40000);
    check_simulation((const char *[]){"side=3", "opening=\"colour_names\"", "faces.yellow=4",
                                      "faces.blue=0", NULL},
                     3, 40000);
}

/* ---- reports ------------------------------------------------------------------------- */

/* The whole JSON report (its run object removed), exact values included. Caller frees. */
static char *report_json(const run_config *c, const run_result *res, const cJSON *exact)
{
    static const char *spec[GAME_MAX_SEATS] = {"random", "random", "random", "random"};
    cJSON *rules = cJSON_CreateObject();
    report_input in = {.cfg = c, .res = res, .ruleset = rules, .exact = exact};
    memcpy(in.bot_spec, spec, sizeof spec);
    cJSON *rep = report_build(&in);
    cJSON_DeleteItemFromObject(rep, "run");
    char *s = cJSON_Print(rep);
    cJSON_Delete(rep);
    cJSON_Delete(rules);
    return s;
}

TEST(cinesi_report_is_the_same_for_any_thread_count)
{
    cinesi_rules r = rules_with(NULL, 3);
    seat_bots sb = {.nseats = 3, .bot = {&bot_random, &bot_random, &bot_random}};
    cJSON *exact = cinesi_exact_json(&r, &sb);
    CHECK(exact != NULL);
    char err[256], *text[2];
    for (int i = 0; i < 2; i++) {
        run_config c = config(&r, 3, 5000, i ? 3 : 1);
        run_result res;
        CHECK_INT(run_batch(&c, &res, err, sizeof err), 0);
        c.threads = 1;
        text[i] = report_json(&c, &res, exact);
        run_result_free(&res);
    }
    CHECK_STR(text[0], text[1]);
    /* The exact win share sits beside the simulated one, the exact mean length too. */
    CHECK(strstr(text[0], "\"exact\"") != NULL);
    cJSON *rep = cJSON_Parse(text[0]);
    const cJSON *seat1 = cJSON_GetArrayItem(cJSON_GetObjectItem(rep, "seats"), 0);
    const cJSON *ws = cJSON_GetObjectItem(seat1, "win_share");
    CHECK(cJSON_IsNumber(cJSON_GetObjectItem(ws, "exact")));
    const cJSON *len = cJSON_GetObjectItem(cJSON_GetObjectItem(rep, "metrics"), "length");
    CHECK(cJSON_IsNumber(cJSON_GetObjectItem(len, "exact")));
    cJSON_Delete(rep);
    free(text[0]);
    free(text[1]);
    cJSON_Delete(exact);
}

/* Nobody decides: only the generic random bot is listed (rollout would have nothing to
 * roll out). */
TEST(cinesi_lists_only_the_random_bot)
{
    const bot_type *all[REGISTRY_MAX_BOTS];
    CHECK_INT(registry_bots(&game_cinesi, all, REGISTRY_MAX_BOTS), 1);
    CHECK(all[0] == &bot_random);
    CHECK(registry_bot(&game_cinesi, "rollout") == NULL);
    CHECK(registry_game("cinesi") == &game_cinesi);
}

/* --check: a finished game holds the invariants; a figure off the board, two figures at the
 * centre or a winner who is not at the centre is each named. */
TEST(cinesi_check_names_a_broken_invariant)
{
    cinesi_rules r = rules_with(NULL, 3);
    cinesi_state s;
    rng ch;
    rng_seed(&ch, 12);
    game_cinesi.start(&s, &r, 3, &ch, NULL);
    char err[256];
    CHECK_INT(game_cinesi.check(&s, err, sizeof err), 0);
    cinesi_state bad = s;
    bad.pos[(s.winner + 1) % 3] = r.steps + 1;
    CHECK_INT(game_cinesi.check(&bad, err, sizeof err), -1);
    CHECK(strstr(err, "outside 0..") != NULL);
    bad = s;
    bad.pos[(s.winner + 1) % 3] = r.steps;
    CHECK_INT(game_cinesi.check(&bad, err, sizeof err), -1);
    CHECK(strstr(err, "both at the centre") != NULL);
    bad = s;
    bad.winner = (s.winner + 1) % 3;
    CHECK_INT(game_cinesi.check(&bad, err, sizeof err), -1);
    CHECK(strstr(err, "but the figure at the centre") != NULL);
}
