/* test_keys.c — the ruleset keys as the loaders check them (rules_describe), their one-line
 * descriptions, and the "did you mean" of mistyped names (core/suggest.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "config/rules.h"
#include "core/registry.h"
#include "core/suggest.h"

/* Edit distances worked by hand: kitten -> sitting is k/s, e/i and one inserted g; a swap of
 * two neighbours costs one (optimal string alignment), a deleted letter one. */
TEST(suggest_distance_counts_edits)
{
    CHECK_INT(suggest_distance("kitten", "sitting"), 3);
    CHECK_INT(suggest_distance("entry_fe", "entry_fee"), 1);
    CHECK_INT(suggest_distance("greedy", "gerady"), 2);
    CHECK_INT(suggest_distance("ab", "ba"), 1);
    CHECK_INT(suggest_distance("", "abc"), 3);
    CHECK_INT(suggest_distance("same", "same"), 0);
}

TEST(suggest_nearest_only_when_near)
{
    const char *const names[] = {"entry_fee", "capo_fee", "dote", NULL, "bid_max"};
    CHECK_STR(suggest_nearest("entry_fe", names, 5), "entry_fee");
    CHECK_STR(suggest_nearest("bidmax", names, 5), "bid_max");
    CHECK(suggest_nearest("zzzzzzzz", names, 5) == NULL); /* nothing alike */
    CHECK(suggest_nearest("dote", names, 5) == NULL);     /* a name itself: no hint */
    CHECK(suggest_nearest("xy", names, 5) == NULL);       /* 3 edits from dote: too far */
    char buf[64];
    CHECK_STR(suggest_hint(buf, sizeof buf, "cap_fee", names, 5), " (did you mean capo_fee?)");
    CHECK_STR(suggest_hint(buf, sizeof buf, "qqqqqq", names, 5), "");
}

/* Every key a loader reads has a description, and every description names a key it reads. */
TEST(rules_every_key_is_described)
{
    static rule_keys rk;
    char err[512];
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        CHECK(rules_describe(g, &rk, err, sizeof err) == 0);
        CHECK(rk.n > 0);
        for (int k = 0; k < rk.n; k++) {
            const char *doc = rules_key_doc(g, rk.key[k].path);
            if (doc == NULL || *doc == '\0')
                check_fail(__FILE__, __LINE__, "%s: key %s has no description", g->name,
                           rk.key[k].path);
        }
        for (const rule_doc *d = g->rule_docs; d && d->key; d++)
            if (rules_key_find(&rk, d->key) == NULL)
                check_fail(__FILE__, __LINE__, "%s: description of %s, a key it does not read",
                           g->name, d->key);
    }
}

/* The recorded ranges are the ones the loader enforces: one past either end of every
 * top-level integer key is refused naming that key, and so is a string no enum holds. */
TEST(rules_recorded_ranges_are_enforced)
{
    static rule_keys rk;
    char err[512], set[128];
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        CHECK(rules_describe(g, &rk, err, sizeof err) == 0);
        for (int k = 0; k < rk.n; k++) {
            const rule_key *key = &rk.key[k];
            if (strpbrk(key->path, ".[") || (key->kind != RULE_INT && key->kind != RULE_ENUM))
                continue;
            int ntries = key->kind == RULE_INT ? 2 : 1;
            for (int t = 0; t < ntries; t++) {
                if (key->kind == RULE_INT)
                    snprintf(set, sizeof set, "%s=%.0f", key->path,
                             t == 0 ? key->min - 1 : key->max + 1);
                else
                    snprintf(set, sizeof set, "%s=\"no such choice\"", key->path);
                const char *sets[] = {set};
                cJSON *json = NULL;
                void *rules = rules_effective(g, NULL, sets, 1, &json, err, sizeof err);
                if (rules != NULL || strstr(err, key->path) == NULL)
                    check_fail(__FILE__, __LINE__, "%s --set %s: %s", g->name, set,
                               rules ? "accepted" : err);
                free(rules);
                cJSON_Delete(json);
            }
        }
    }
}

/* An unknown key names the nearest known one, at the top and inside an object. */
TEST(rules_unknown_key_suggests_the_nearest)
{
    char err[512];
    cJSON *json = NULL;
    const char *top[] = {"entry_fe=5"};
    CHECK(rules_effective(registry_game("oca"), NULL, top, 1, &json, err, sizeof err) == NULL);
    CHECK(strstr(err, "unknown key (did you mean entry_fee?)") != NULL);
    const char *inner[] = {"faces.whte=1"};
    CHECK(rules_effective(registry_game("cinesi"), NULL, inner, 1, &json, err, sizeof err) ==
          NULL);
    CHECK(strstr(err, "'faces.whte': unknown key (did you mean white?)") != NULL);
    const char *far[] = {"completely_different=1"};
    CHECK(rules_effective(registry_game("45"), NULL, far, 1, &json, err, sizeof err) == NULL);
    CHECK(strstr(err, "unknown key") != NULL && strstr(err, "did you mean") == NULL);
}
