/* pig10_game.c — the descriptor of PIG 10 (game_pig10): the game as core sees it, put together
 * on top of the folder from its rules (pig10.c), bots, ruleset keys and JSON view, so that no
 * file of the folder calls back up into another. */
#include "games/pig10/pig10.h"

#include "core/registry.h"

static const bot_type *const pig10_bots[] = {
    &bot_random, &bot_pig10_greedy, &bot_pig10_count, &bot_pig10_mc, &bot_pig10_ismcts, NULL,
};

/* PIG 10 for giochi-sim: 2-8 seats, hidden hands (bots see pig10_view), one decision kind. */
const game_type game_pig10 = {
    .rule_docs = pig10_rule_docs,
    .name = "pig10",
    .title = "PIG 10",
    .seed = "doc/rules/pig10.txt",
    .min_seats = 2,
    .max_seats = 8,
    .default_seats = 4,
    .default_bot = "greedy",
    .default_rules = config_pig10_json,
    .rules_size = sizeof(pig10_rules),
    .rules_load = pig10_load_rules,
    .rules_check = pig10_check_rules,
    .state_size = sizeof(pig10_state),
    .start = pig10_start,
    .decide = pig10_decide,
    .apply = pig10_apply,
    .finish = pig10_finish,
    .check = pig10_check,
    .view_size = sizeof(pig10_view),
    .view = pig10_view_of,
    .action_name = pig10_action_name,
    .kind_names = pig10_kind_names,
    .end_names = pig10_end_names,
    .metrics = pig10_metrics,
    .length_unit = "plays",
    .score_name = "cards",
    .low_score_wins = false,
    .exact = NULL,
    .bots = pig10_bots,
    .headline = pig10_headline,
    .groups = pig10_groups,
    .labels = pig10_labels,
    .standing = pig10_standing,
    .glossary = pig10_glossary,
    .view_json = pig10_view_json,
    .view_draw = pig10_view_draw,
    .end_words = pig10_end_words,
    .limits = pig10_limits,
    .view_action_name = pig10_view_action_name,
};
