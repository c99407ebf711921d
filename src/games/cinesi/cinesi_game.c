/* cinesi_game.c — the descriptor of the Gioco dei Cinesi (game_cinesi): the game as core sees
 * it, put together on top of the folder from its rules (cinesi.c), bots, ruleset keys and JSON
 * view, so that no file of the folder calls back up into another. */
#include "games/cinesi/cinesi.h"

#include "core/registry.h"

static const bot_type *const cinesi_bots[] = {&bot_random, NULL};

const game_type game_cinesi = {
    .rule_docs = cinesi_rule_docs,
    .name = "cinesi",
    .title = "Gioco dei Cinesi (Chinesenspiel)",
    .seed = "doc/rules/wari-cinesi-volpe.txt",
    .min_seats = 2,
    .max_seats = CINESI_MAX_SEATS,
    .default_seats = 4,
    .default_bot = "random",
    .default_rules = config_cinesi_json,
    .rules_size = sizeof(cinesi_rules),
    .rules_load = cinesi_rules_load,
    .rules_check = cinesi_rules_check,
    .state_size = sizeof(cinesi_state),
    .start = cinesi_start,
    .decide = cinesi_decide,
    .apply = cinesi_apply,
    .finish = cinesi_finish,
    .check = cinesi_check,
    .view_size = 0,
    .view = NULL,
    .action_name = cinesi_action_name,
    .kind_names = cinesi_kind_names,
    .end_names = cinesi_end_names,
    .metrics = cinesi_metrics,
    .length_unit = "turns",
    .score_name = "steps",
    .low_score_wins = false,
    .exact = cinesi_exact_json,
    .bots = cinesi_bots,
    .headline = cinesi_headline,
    .groups = cinesi_groups,
    .labels = cinesi_labels,
    .standing = cinesi_standing,
    .glossary = cinesi_glossary,
    .view_json = cinesi_view_json,
    .view_draw = cinesi_view_draw,
    .end_words = cinesi_end_words,
    .limits = cinesi_limits,
};
