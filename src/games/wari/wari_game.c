/* wari_game.c — the descriptor of Wari (game_wari): the game as core sees it, put together on
 * top of the folder from its rules (wari.c), bots, ruleset keys and JSON view, so that no file
 * of the folder calls back up into another. */
#include "games/wari/wari.h"

#include "core/registry.h"

static const bot_type *const wari_bots[] = {&bot_random, &bot_wari_greedy, NULL};

/* Wari for giochi-sim: 2 seats, perfect information, deterministic after the start. */
const game_type game_wari = {
    .rule_docs = wari_rule_docs,
    .name = "wari",
    .title = "Wari (Oware)",
    .seed = "doc/rules/wari-cinesi-volpe.txt",
    .min_seats = 2,
    .max_seats = 2,
    .default_seats = 2,
    .default_bot = "greedy",
    .default_rules = config_wari_json,
    .rules_size = sizeof(wari_rules),
    .rules_load = wari_load_rules,
    .rules_check = NULL,
    .state_size = sizeof(wari_state),
    .start = wari_start,
    .decide = wari_decide,
    .apply = wari_apply,
    .finish = wari_finish,
    .check = wari_check,
    .view_size = 0,
    .view = NULL,
    .action_name = wari_action_name,
    .kind_names = wari_kind_names,
    .end_names = wari_end_names,
    .metrics = wari_metrics,
    .length_unit = "moves",
    .score_name = "seeds",
    .low_score_wins = false,
    .exact = NULL,
    .bots = wari_bots,
    .deterministic = true,
    .evaluate = wari_evaluate,
    .hash = wari_hash,
    .order = wari_order,
    .policy = &bot_wari_greedy,
    .headline = wari_headline,
    .groups = wari_groups,
    .labels = wari_labels,
    .standing = wari_standing,
    .glossary = wari_glossary,
    .view_json = wari_view_json,
    .view_draw = wari_view_draw,
    .end_words = wari_end_words,
    .limits = wari_limits,
    .action_number = wari_action_number,
};
