/* test_program.c — what bots outside the process are sent: the JSON writer, every game's
 * view_json (valid JSON at every decision of real games), and PIG 10's hidden information
 * (another seat's cards and the pile order never reach a seat's JSON). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "bots/program.h"
#include "check.h"
#include "config/rules.h"
#include "core/jsonw.h"
#include "core/registry.h"
#include "games/pig10/pig10.h"

TEST(jsonw_writes_nested_values_with_commas_and_escapes)
{
    jsonw w = {0};
    jw_obj(&w);
    jw_key(&w, "a");
    jw_int(&w, -12);
    jw_key(&w, "b");
    jw_arr(&w);
    jw_uint(&w, 18446744073709551615ull);
    jw_bool(&w, true);
    jw_null(&w);
    jw_obj(&w);
    jw_obj_end(&w);
    jw_arr_end(&w);
    jw_key(&w, "s");
    jw_str(&w, "q\"b\\\n\x01");
    jw_key(&w, "d");
    jw_double(&w, 0.1);
    jw_key_int(&w, "k", -3);
    jw_obj_end(&w);
    jw_append(&w, "", 1);
    CHECK(strcmp(w.buf, "{\"a\":-12,\"b\":[18446744073709551615,true,null,{}],"
                        "\"s\":\"q\\\"b\\\\\\u000a\\u0001\",\"d\":0.10000000000000001,"
                        "\"k\":-3}") == 0);
    cJSON *j = cJSON_Parse(w.buf);
    CHECK(j != NULL);
    CHECK(strcmp(cJSON_GetObjectItem(j, "s")->valuestring, "q\"b\\\n\x01") == 0);
    CHECK(cJSON_GetObjectItem(j, "d")->valuedouble == 0.1);
    cJSON_Delete(j);
    jw_reset(&w);
    jw_int(&w, 0);
    jw_append(&w, "", 1);
    CHECK(strcmp(w.buf, "0") == 0);
    jw_free(&w);
}

/* The JSON text of view_json for `seen` as seat's, in a new string. */
static char *json_of(const game_type *g, const void *seen, int seat)
{
    jsonw w = {0};
    g->view_json(seen, seat, &w);
    jw_append(&w, "", 1);
    return w.buf;
}

TEST(every_game_renders_its_view_as_json_at_every_decision)
{
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        CHECK(g->view_json != NULL);
        CHECK((g->view_action_name != NULL) == (g->view != NULL));
        char err[256];
        cJSON *json;
        void *rules = rules_effective(g, NULL, NULL, 0, &json, err, sizeof err);
        void *st = calloc(1, g->state_size), *view = calloc(1, g->view_size + 1);
        rng chance, pick;
        rng_seed(&pick, 7);
        int checked = 0;
        for (uint64_t game = 0; game < 5; game++) {
            rng_seed_stream(&chance, 99, game, RNG_STREAM_CHANCE);
            g->start(st, rules, g->default_seats, &chance, NULL);
            decision d;
            for (int step = 0; step < 400 && g->decide(st, &d); step++) {
                const void *seen = st;
                if (g->view) {
                    g->view(st, d.seat, view);
                    seen = view;
                }
                char *text = json_of(g, seen, d.seat);
                cJSON *v = cJSON_Parse(text);
                if (v == NULL || !cJSON_IsObject(v))
                    check_fail(__FILE__, __LINE__, "%s: not a JSON object: %.200s", g->name,
                               text);
                const cJSON *seat = cJSON_GetObjectItem(v, "seat");
                CHECK(cJSON_IsNumber(seat) && seat->valueint == d.seat);
                cJSON_Delete(v);
                free(text);
                checked++;
                g->apply(st, d.action[rng_below(&pick, (uint32_t)d.n)], &chance, NULL);
            }
            const void *seen = st; /* a finished game (the Cinesi: only this) */
            if (g->view) {
                g->view(st, 0, view);
                seen = view;
            }
            char *text = json_of(g, seen, 0);
            cJSON *v = cJSON_Parse(text);
            CHECK(v != NULL);
            cJSON_Delete(v);
            free(text);
        }
        CHECK(checked > 0 || g->kind_names[0] == NULL);
        free(st);
        free(view);
        free(rules);
        cJSON_Delete(json);
    }
}

/* Moves one card of seat `other`'s hand into the pile and one of the pile into that hand (a
 * different value if there is one), then reverses the pile: the state another seat sees is
 * the same. Returns false if no such exchange exists. */
static bool swap_hidden(pig10_state *st, int other)
{
    for (int c = 0; c < PIG10_VALUES; c++) {
        if (st->hand[other][c] == 0)
            continue;
        for (int i = st->pile_pos; i < st->pile_n; i++)
            if (st->pile[i] != c) {
                int d = st->pile[i];
                st->hand[other][c]--;
                st->hand[other][d]++;
                st->held[other] = 0;
                for (int x = 0; x < PIG10_VALUES; x++)
                    st->held[other] |= (uint16_t)((st->hand[other][x] > 0) << x);
                st->pile[i] = (uint8_t)c;
                for (int a = st->pile_pos, b = st->pile_n - 1; a < b; a++, b--) {
                    uint8_t t = st->pile[a];
                    st->pile[a] = st->pile[b];
                    st->pile[b] = t;
                }
                return true;
            }
    }
    return false;
}

TEST(pig10_json_never_shows_another_seats_cards_or_the_pile_order)
{
    const game_type *g = &game_pig10;
    char err[256];
    cJSON *json;
    void *rules = rules_effective(g, NULL, NULL, 0, &json, err, sizeof err);
    pig10_state st, twin;
    pig10_view v;
    rng chance, pick;
    rng_seed(&pick, 3);
    int compared = 0, own_changes = 0;
    for (uint64_t game = 0; game < 40; game++) {
        rng_seed_stream(&chance, 5, game, RNG_STREAM_CHANCE);
        g->start(&st, rules, 4, &chance, NULL);
        decision d;
        for (int step = 0; g->decide(&st, &d); step++) {
            int seat = d.seat, other = (seat + 1 + step % 3) % 4;
            g->view(&st, seat, &v);
            char *mine = json_of(g, &v, seat);
            /* the hidden part changed: another hand and the pile order */
            twin = st;
            if (st.pile_n > st.pile_pos && swap_hidden(&twin, other)) {
                g->view(&twin, seat, &v);
                char *seen = json_of(g, &v, seat);
                CHECK(strcmp(mine, seen) == 0);
                free(seen);
                compared++;
                /* ... while the same change in the seat's own hand shows */
                twin = st;
                if (swap_hidden(&twin, seat)) {
                    g->view(&twin, seat, &v);
                    seen = json_of(g, &v, seat);
                    own_changes += strcmp(mine, seen) != 0;
                    free(seen);
                }
            }
            /* the hand sent is the seat's own, card for card */
            cJSON *j = cJSON_Parse(mine);
            const cJSON *hand = cJSON_GetObjectItem(j, "hand");
            CHECK(cJSON_GetArraySize(hand) == PIG10_VALUES);
            for (int c = 0; c < PIG10_VALUES; c++)
                CHECK_INT(cJSON_GetArrayItem(hand, c)->valueint, st.hand[seat][c]);
            /* and nothing else holds per-card counts of a hand or the pile */
            for (const cJSON *m = j->child; m; m = m->next)
                CHECK(strcmp(m->string, "pile") != 0 && strcmp(m->string, "hands") != 0);
            cJSON_Delete(j);
            free(mine);
            g->apply(&st, d.action[rng_below(&pick, (uint32_t)d.n)], &chance, NULL);
        }
    }
    CHECK(compared > 100);
    CHECK(own_changes > 50);
    free(rules);
    cJSON_Delete(json);
}

TEST(program_names_are_checked_and_programs_found_by_name)
{
    char err[256];
    CHECK(program_declare("no-command=", err, sizeof err) != 0);
    CHECK(program_declare("bad name=true", err, sizeof err) != 0);
    CHECK(program_declare("human=true", err, sizeof err) != 0);
    CHECK(program_declare("unit_bot=true", err, sizeof err) == 0);
    CHECK(program_declare("unit_bot=false", err, sizeof err) != 0);
    CHECK(strstr(err, "twice") != NULL);
    const bot_type *b = program_lookup(registry_game("wari"), "unit_bot");
    CHECK(b != NULL && program_is(b) && strcmp(b->name, "unit_bot") == 0);
    CHECK(program_lookup(registry_game("wari"), "human") == NULL); /* botspec seats it */
    CHECK(!program_is(&bot_human));
    CHECK(program_lookup(registry_game("wari"), "nobody") == NULL);
    int k = program_param(b, "depth", err, sizeof err);
    CHECK(k == 0 && program_param(b, "depth", err, sizeof err) == 0);
    CHECK(program_param(b, "width", err, sizeof err) == 1);
}
