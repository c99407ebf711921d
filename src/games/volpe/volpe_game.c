/* volpe_game.c — the descriptor of La volpe e le oche (game_volpe): the game as core sees it,
 * put together on top of the folder from its rules (volpe.c), bots, ruleset keys and JSON view,
 * so that no file of the folder calls back up into another. */
#include "games/volpe/volpe.h"

#include "core/registry.h"

static const bot_type *const volpe_bots[] = {&bot_random, &volpe_bot_greedy, &volpe_bot_perfect,
                                             NULL};

const game_type game_volpe = {
    .rule_docs = volpe_rule_docs,
    .name = "volpe",
    .title = "La volpe e le oche (Fox and Geese)",
    .seed = "004_46aece1981b71774.txt",
    .min_seats = 2,
    .max_seats = 2,
    .default_seats = 2,
    .default_bot = "random",
    .default_rules = config_volpe_json,
    .rules_size = sizeof(volpe_rules),
    .rules_load = volpe_rules_load,
    .state_size = sizeof(volpe_state),
    .start = volpe_start,
    .decide = volpe_decide,
    .apply = volpe_apply,
    .finish = volpe_finish,
    .check = volpe_check,
    .action_name = volpe_action_name,
    .kind_names = volpe_kind_names,
    .end_names = volpe_end_names,
    .metrics = volpe_metrics,
    .length_unit = "moves",
    .score_name = "geese",
    .low_score_wins = false,
    .bots = volpe_bots,
    .deterministic = true,
    .evaluate = volpe_evaluate,
    .hash = volpe_hash,
    .order = volpe_order,
    .page_turn = volpe_page_turn,
    .policy = &volpe_bot_greedy,
    .headline = volpe_headline,
    .groups = volpe_groups,
    .labels = volpe_labels,
    .view_json = volpe_view_json,
};
