/* test_oca_boards.c — Gioco dell'Oca board files: bad ones rejected naming the key, trade
 * prices that must increase; and the manual documents every key, kind, metric and knob. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "games/oca/oca.h"
#include "games/oca/oca_bots.h"
#include "check.h"
#include "core/recorder.h"
#include "core/registry.h"
#include "config/rules.h"
#include "oca_kit.h"

/* ---- bad board files ------------------------------------------------------------------------ */

/* Loads the default ruleset with one override and returns the loader's error ("" if none). */
static const char *load_error(const char *set, int nseats)
{
    static char err[256];
    cJSON *j = cJSON_Parse(game_oca.default_rules);
    char key[64];
    const char *eq = strchr(set, '=');
    snprintf(key, sizeof key, "%.*s", (int)(eq - set), set);
    cJSON *obj = j;
    char *leaf = key;
    int sq;
    if (sscanf(key, "board.%d.", &sq) == 1) {
        obj = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "board"), sq - 1);
        leaf = strchr(key + 6, '.') + 1;
    }
    cJSON *v = cJSON_Parse(eq + 1);
    if (!cJSON_ReplaceItemInObjectCaseSensitive(obj, leaf, v))
        cJSON_AddItemToObject(obj, leaf, v);
    static oca_rules r;
    err[0] = '\0';
    if (game_oca.rules_load(&r, j, err, sizeof err) == 0)
        game_oca.rules_check(&r, nseats, err, sizeof err);
    cJSON_Delete(j);
    return err;
}

TEST(oca_bad_board_files_are_rejected_naming_the_key)
{
    CHECK_STR(load_error("dote=200", 4), "");
    CHECK_STR(load_error("bogus=1", 4), "ruleset key 'bogus': unknown key");
    CHECK_STR(load_error("board.13.amount=-5", 4),
              "ruleset key 'board.13.amount': expected an integer in 0..10000");
    CHECK(strstr(load_error("board.4.effect=\"fly\"", 4), "'board.4.effect'") != NULL);
    CHECK(strstr(load_error("board.6.to=99", 4), "'board.6.to'") != NULL);
    CHECK(strstr(load_error("board.6.to=6", 4), "'board.6.to'") != NULL);
    CHECK(strstr(load_error("board.37.effect=\"pay_bank\"", 4), "'board.37.effect'") != NULL);
    CHECK(strstr(load_error("board.10.card=\"gold\"", 4), "'board.10.card'") != NULL);
    CHECK(strstr(load_error("board.10.colour=1", 4), "'board.10.colour': unknown") != NULL);
    CHECK(strstr(load_error("board.10.source=\"folklore\"", 4), "'board.10.source'") != NULL);
    CHECK(strstr(load_error("board.10.note=3", 4), "'board.10.note'") != NULL);
    CHECK(strstr(load_error("board=[]", 4), "'board'") != NULL);
    CHECK(strstr(load_error("trade_prices=[5, 0]", 4), "'trade_prices.2'") != NULL);
    CHECK(strstr(load_error("finish=\"never\"", 4), "'finish'") != NULL);
    CHECK(strstr(load_error("dote=\"lots\"", 4), "'dote'") != NULL);
    CHECK(strstr(load_error("cards_per_player=5", 5), "'cards_per_player'") != NULL);
    CHECK(strstr(load_error("cards_per_player_many=4", 6), "'cards_per_player_many'") != NULL);
}

/* Found by fuzzing: the trade rules take trade_prices[0] as the lowest price (whether a sale
 * or a purchase can be offered at all, which prices a buyer can pay), and a price given twice
 * counted each sale at that price twice in card_price. Prices must strictly increase. */
TEST(oca_trade_prices_must_increase)
{
    CHECK_STR(load_error("trade_prices=[30, 5]", 4),
              "ruleset key 'trade_prices.2': prices must increase (5 after 30)");
    CHECK_STR(load_error("trade_prices=[5, 15, 15]", 4),
              "ruleset key 'trade_prices.3': prices must increase (15 after 15)");
    CHECK_STR(load_error("trade_prices=[60]", 4), "");
    CHECK_STR(load_error("trade_prices=[1, 2, 100000]", 4), "");
}

/* ---- the manual ------------------------------------------------------------------------------- */

/* The man page names every ruleset key, decision kind, end kind, metric, bot and bot knob. */
TEST(oca_manual_documents_every_key_kind_metric_and_knob)
{
    char err[256];
    char *man = rules_read_file("man/giochi-sim-oca.7", err, sizeof err);
    CHECK(man != NULL);
    if (man == NULL)
        return;
    cJSON *j = cJSON_Parse(game_oca.default_rules);
    for (const cJSON *m = j->child; m; m = m->next)
        if (!strstr(man, m->string))
            check_fail(__FILE__, __LINE__, "ruleset key %s undocumented", m->string);
    cJSON_Delete(j);
    for (int i = 0; game_oca.kind_names[i]; i++)
        if (!strstr(man, game_oca.kind_names[i]))
            check_fail(__FILE__, __LINE__, "kind %s undocumented", game_oca.kind_names[i]);
    for (int i = 0; game_oca.end_names[i]; i++)
        if (!strstr(man, game_oca.end_names[i]))
            check_fail(__FILE__, __LINE__, "end %s undocumented", game_oca.end_names[i]);
    for (int i = 0; game_oca.metrics[i].name; i++)
        if (!strstr(man, game_oca.metrics[i].name))
            check_fail(__FILE__, __LINE__, "metric %s undocumented", game_oca.metrics[i].name);
    for (int b = 0; game_oca.bots[b]; b++) {
        const bot_type *bt = game_oca.bots[b];
        if (!strstr(man, bt->name))
            check_fail(__FILE__, __LINE__, "bot %s undocumented", bt->name);
        for (int k = 0; bt->params && bt->params[k].name; k++)
            if (!strstr(man, bt->params[k].name))
                check_fail(__FILE__, __LINE__, "knob %s undocumented", bt->params[k].name);
    }
    free(man);
}
