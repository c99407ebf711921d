/* 45_game.c — the descriptor of the Gioco del 45 (game_45): the game as core sees it, put
 * together on top of the folder from its rules (45.c), bots, ruleset keys and JSON view, so
 * that no file of the folder calls back up into another. */
#include "games/45/45.h"

#include "core/registry.h"

static const bot_type *const g45_bots[] = {
    &bot_random, &g45_bot_greedy, &g45_bot_optimal_score, &g45_bot_optimal_shut, NULL,
};

const game_type game_45 = {
    .rule_docs = g45_rule_docs,
    .name = "45",
    .title = "Gioco del 45 (Shut the Box)",
    .seed = "doc/rules/45.txt",
    .min_seats = 1,
    .max_seats = GAME_MAX_SEATS,
    .default_seats = 2,
    .default_bot = "optimal-score",
    .default_rules = config_45_json,
    .rules_size = sizeof(g45_rules),
    .rules_load = g45_rules_load,
    .rules_check = g45_rules_check,
    .state_size = sizeof(g45_state),
    .start = g45_start,
    .decide = g45_decide,
    .apply = g45_apply,
    .finish = g45_finish,
    .check = g45_check,
    .view_size = 0,
    .view = NULL,
    .action_name = g45_action_name,
    .kind_names = g45_kind_names,
    .end_names = g45_end_names,
    .metrics = g45_metrics,
    .length_unit = "rounds",
    .score_name = "total",
    .low_score_wins = true,
    .exact = g45_exact,
    .bots = g45_bots,
    .headline = g45_headline,
    .groups = g45_groups,
    .labels = g45_labels,
    .standing = g45_standing,
    .glossary = g45_glossary,
    .view_json = g45_view_json,
    .view_draw = g45_view_draw,
    .end_words = g45_end_words,
    .limits = g45_limits,
};
