/* test_botspec.c — bot descriptions on the command line and the effective ruleset. */
#include <stdlib.h>
#include <string.h>

#include "config/botspec.h"
#include "check.h"
#include "core/registry.h"
#include "config/rules.h"

TEST(botspec_one_bot_fills_every_seat_with_defaults)
{
    const game_type *g = registry_game("oca");
    seat_spec seats[GAME_MAX_SEATS];
    char canon[GAME_MAX_SEATS][BOT_SPEC_MAX], err[256];
    CHECK_INT(botspec_parse_list(g, "greedy", 0, seats, canon, err, sizeof err), g->default_seats);
    CHECK_STR(canon[0], "greedy");
    CHECK(seats[0].bot == registry_bot(g, "greedy"));
    CHECK(seats[0].param[1] == seats[0].bot->params[1].def);
}

TEST(botspec_parameters_and_canonical_form)
{
    const game_type *g = registry_game("oca");
    seat_spec seats[GAME_MAX_SEATS];
    char canon[GAME_MAX_SEATS][BOT_SPEC_MAX], err[256];
    /* parameters in any order; the description lists them in table order, defaults left out */
    CHECK_INT(botspec_parse_list(g, "greedy:trade=0.125:max_bid=40,random", 0, seats, canon, err,
                                 sizeof err),
              2);
    CHECK_STR(canon[0], "greedy:max_bid=40:trade=0.125");
    CHECK_STR(canon[1], "random");
    /* a parameter set to its default is the same bot as the plain one */
    CHECK_INT(botspec_parse_list(g, "greedy:max_bid=85", 1, seats, canon, err, sizeof err), 1);
    CHECK_STR(canon[0], "greedy");
}

/* greedy's defaults depend on the table (three players have their own, giochi-sim-oca(7)):
 * a seat takes the defaults of its table, a knob the user sets keeps its value at every
 * table, and the description leaves out what equals the table's default. */
TEST(botspec_defaults_by_table)
{
    const game_type *g = registry_game("oca");
    const bot_type *b = registry_bot(g, "greedy");
    seat_spec seats[GAME_MAX_SEATS];
    char canon[GAME_MAX_SEATS][BOT_SPEC_MAX], err[256], text[64];
    double four = b->params[1].def, three = bot_param_default(b, 1, 3); /* max_bid */
    CHECK(strcmp(b->params[1].name, "max_bid") == 0);
    CHECK(three != four);
    CHECK(bot_param_default(b, 1, 4) == four);
    CHECK_INT(botspec_parse_list(g, "greedy", 3, seats, canon, err, sizeof err), 3);
    CHECK(seats[2].param[1] == three);
    CHECK_STR(canon[0], "greedy");
    snprintf(text, sizeof text, "greedy:max_bid=%g", four);
    CHECK_INT(botspec_parse_list(g, text, 3, seats, canon, err, sizeof err), 3);
    CHECK(seats[0].param[1] == four);
    CHECK_STR(canon[0], text);
    CHECK_INT(botspec_parse_list(g, text, 4, seats, canon, err, sizeof err), 4);
    CHECK_STR(canon[0], "greedy");
    snprintf(text, sizeof text, "greedy:max_bid=%g", three);
    CHECK_INT(botspec_parse_list(g, text, 3, seats, canon, err, sizeof err), 3);
    CHECK_STR(canon[0], "greedy");
    /* the profile of before keeps its knobs at every table */
    const bot_type *old = registry_bot(g, "greedy-2026");
    CHECK(old->param_default == NULL);
    CHECK_INT(botspec_parse_list(g, "greedy-2026", 3, seats, canon, err, sizeof err), 3);
    CHECK(seats[0].param[1] == old->params[1].def);
}

/* Each bad description gives its own one-line message. */
static void bad(const char *list, int nseats, const char *want)
{
    const game_type *g = registry_game("oca");
    seat_spec seats[GAME_MAX_SEATS];
    char canon[GAME_MAX_SEATS][BOT_SPEC_MAX], err[256] = "";
    int n = botspec_parse_list(g, list, nseats, seats, canon, err, sizeof err);
    if (n != -1 || strstr(err, want) == NULL || strchr(err, '\n') != NULL)
        check_fail(__FILE__, __LINE__, "'%s': got %d '%s', want '%s'", list, n, err, want);
}

TEST(botspec_errors_name_what_is_valid)
{
    bad("zz", 0, "unknown bot 'zz' for game oca (bots: random, cautious, greedy, greedy-2026, "
        "aggressive, "
                 "rollout, mcts; also human, and programs declared with --bot-program "
                 "NAME=COMMAND)");
    bad("random:x=1", 0, "bot 'random' takes no parameters (got 'x')");
    bad("greedy:nope=1", 0, "bot 'greedy' has no parameter 'nope' (parameters: volunteer,");
    bad("greedy:max_bid=1001", 0, "expected a whole number in 0..1000 (got '1001')");
    bad("greedy:max_bid=2.5", 0, "expected a whole number");
    bad("greedy:trade=abc", 0, "expected a number in 0..1");
    bad("greedy:max_bid", 0, "needs a value");
    bad("greedy:max_bid=1:max_bid=2", 0, "given twice");
    bad("greedy:", 0, "empty parameter");
    bad("random,,random", 0, "empty bot name");
    bad("random,random,random", 2, "lists 3 bots for 2 players");
}

TEST(rules_effective_layers_default_config_and_sets)
{
    const game_type *g = registry_game("45");
    char err[256];
    cJSON *json;
    static const char *const sets[] = {"limit=30", "weights.1=80"};
    void *rules = rules_effective(g, NULL, sets, 2, &json, err, sizeof err);
    CHECK(rules != NULL);
    if (rules) {
        CHECK_INT(cJSON_GetObjectItem(json, "limit")->valueint, 30);
        /* weights.1 is seat 1's weight: elements count from 1 */
        CHECK_INT(cJSON_GetArrayItem(cJSON_GetObjectItem(json, "weights"), 0)->valueint, 80);
        CHECK_INT(cJSON_GetObjectItem(json, "tiles")->valueint, 9);
        free(rules);
        cJSON_Delete(json);
    }
    static const char *const badset[] = {"limit=0"};
    CHECK(rules_effective(g, NULL, badset, 1, &json, err, sizeof err) == NULL);
    CHECK_STR(err, "ruleset key 'limit': expected an integer in 1..10000");
    CHECK(json == NULL);
    CHECK(rules_effective(g, "no/such/file.json", NULL, 0, &json, err, sizeof err) == NULL);
    CHECK(strstr(err, "cannot read 'no/such/file.json'") != NULL);
}

/* Dotted keys number an array's elements as the game does: the oca's squares from 1, as the
 * reports number them (board.29 is the Thieves), pig10's deck by card value from 0; the
 * ruleset changes name them the same way back. */
TEST(rules_set_numbers_elements_as_the_game)
{
    char err[256];
    cJSON *json;
    static const char *const oca_sets[] = {"board.29.amount=99"};
    void *rules = rules_effective(registry_game("oca"), NULL, oca_sets, 1, &json, err, sizeof err);
    CHECK(rules != NULL);
    if (rules) {
        const cJSON *sq = cJSON_GetArrayItem(cJSON_GetObjectItem(json, "board"), 28);
        CHECK_STR(cJSON_GetObjectItem(sq, "name")->valuestring, "Thieves");
        CHECK_INT(cJSON_GetObjectItem(sq, "amount")->valueint, 99);
        cJSON *def = rules_parse(registry_game("oca")->default_rules, "oca", err, sizeof err);
        cJSON *ch = rules_changes(registry_game("oca"), def, json);
        CHECK_STR(cJSON_GetArrayItem(ch, 0)->valuestring, "board.29.amount=99");
        cJSON_Delete(ch);
        cJSON_Delete(def);
        free(rules);
        cJSON_Delete(json);
    }
    CHECK_INT(rules_first_number(registry_game("oca"), "board"), 1);
    CHECK_INT(rules_first_number(registry_game("pig10"), "deck"), 0);
    CHECK_INT(rules_first_number(registry_game("45"), "weights"), 1);
    static const char *const pig_sets[] = {"deck.0=3"};
    rules = rules_effective(registry_game("pig10"), NULL, pig_sets, 1, &json, err, sizeof err);
    CHECK(rules != NULL);
    if (rules) {
        CHECK_INT(cJSON_GetArrayItem(cJSON_GetObjectItem(json, "deck"), 0)->valueint, 3);
        free(rules);
        cJSON_Delete(json);
    }
    static const char *const no_square[] = {"board.0.amount=1"};
    CHECK(rules_effective(registry_game("oca"), NULL, no_square, 1, &json, err, sizeof err) == NULL);
    CHECK_STR(err, "--set 'board.0.amount': no element 0 in that array (its elements are 1 to 37)");
}
