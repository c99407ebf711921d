/* oca_depends.c — Gioco dell'Oca (seed 000): what the headline figures (the bankruptcy rate,
 * the winning bid) rest on beyond the rule text, read from a report: the bots, the board's
 * reconstructed amounts and how many ruins they made, the caps a bid meets. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "games/oca/oca.h"

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *x = get(o, key);
    return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

static void line(cJSON *list, const char *text)
{
    cJSON_AddItemToArray(list, cJSON_CreateString(text));
}

/* "the bots' play: greedy at every seat", or the seats' bots in order. */
static void bots_line(cJSON *list, const cJSON *r)
{
    char text[1024];
    const cJSON *seats = get(r, "seats"), *s;
    const cJSON *first = get(cJSON_GetArrayItem(seats, 0), "bot");
    bool same = cJSON_IsString(first);
    cJSON_ArrayForEach(s, seats)
        same = same && cJSON_IsString(get(s, "bot")) &&
               strcmp(get(s, "bot")->valuestring, first->valuestring) == 0;
    if (same) {
        snprintf(text, sizeof text, "the bots' play: %s at every seat", first->valuestring);
    } else {
        size_t len = (size_t)snprintf(text, sizeof text, "the bots' play, seat by seat:");
        cJSON_ArrayForEach(s, seats)
            if (len < sizeof text && cJSON_IsString(get(s, "bot")))
                len += (size_t)snprintf(text + len, sizeof text - len, "%s %s",
                                        s == seats->child ? "" : ",", get(s, "bot")->valuestring);
    }
    line(list, text);
    /* a population: its mixture, and where the table of identical players is */
    const cJSON *types = get(r, "types"), *t;
    if (cJSON_GetArraySize(types) == 0)
        return;
    size_t len = (size_t)snprintf(text, sizeof text, "the population's mixture, assumed:");
    cJSON_ArrayForEach(t, types)
        if (len < sizeof text && cJSON_IsNumber(get(t, "weight")))
            len += (size_t)snprintf(text + len, sizeof text - len, "%s %s %.0f%%",
                                    t == types->child ? "" : ",", get(t, "type")->valuestring,
                                    100 * num(t, "weight"));
    line(list, text);
    line(list, "identical greedy players (the equilibrium of the auction): --bots=greedy");
}

/* The mechanics of the seed whose use the report counts, by metric (per game, or a share of
 * the games for banker_plays), and what each is. */
static const struct {
    const char *metric, *what;
} mechanics[] = {
    {"banker_plays", "the banker joining the race (art. 5)"},
    {"declarations_game", "declarations (art. 7)"},
    {"mutual_aid_attempts", "mutual aid (art. 8)"},
    {"bank_takeovers", "a failed bank taken over by a player (art. 8)"},
    {"plays_cancel_own", "a postcard cancelling one's own bad square (art. 10)"},
    {"plays_cancel_opponent", "a postcard played against an opponent's good square (art. 10)"},
    {"plays_jolly", "a jolly played (art. 11)"},
    {"plays_counter_jolly", "a jolly countering a card play (art. 11)"},
    {"card_sales", "postcards sold (art. 12)"},
    {"card_swaps", "postcards swapped (art. 12)"},
    {"exchanges_2_for_1", "two postcards exchanged for one of the deck (art. 13)"},
};

/* The lines naming the mechanics of the seed that (almost) never happened in this run: fewer
 * than once in OCA_RARE games (none if every one happened more often). */
enum { OCA_RARE = 1000 };
static void mechanics_lines(cJSON *list, const cJSON *r)
{
    char text[1024];
    bool first = true;
    for (size_t i = 0; i < sizeof mechanics / sizeof mechanics[0]; i++) {
        double v = num(get(get(r, "metrics"), mechanics[i].metric), "value");
        if (!(v < 1.0 / OCA_RARE))
            continue; /* happened, or not measured */
        if (first)
            line(list, "mechanics of the seed that never happened in this run, or in under 1 "
                       "game in 1000 (see oca(7), BOTS):");
        first = false;
        snprintf(text, sizeof text, "  %s: %.3g %s", mechanics[i].what, v,
                 strcmp(mechanics[i].metric, "banker_plays") == 0 ? "of the games" : "per game");
        line(list, text);
    }
}

/* When greedy, whose defaults are a best response under the default rules, sits at a table
 * whose ruleset differs from them, a line naming the keys changed (the board as one): its
 * play was not re-derived for them (oca(7), BEST RESPONSE). */
static void retune_line(cJSON *list, const cJSON *r)
{
    const cJSON *s;
    bool greedy = false;
    cJSON_ArrayForEach(s, get(r, "seats"))
        greedy = greedy || (cJSON_IsString(get(s, "bot")) &&
                            strncmp(get(s, "bot")->valuestring, "greedy", 6) == 0 &&
                            strncmp(get(s, "bot")->valuestring, "greedy-2026", 11) != 0);
    cJSON *def = cJSON_Parse(config_oca_json);
    const cJSON *rules = get(r, "ruleset"), *k;
    char text[1024];
    int len = snprintf(text, sizeof text, "greedy's defaults were tuned under the default "
                                          "rules, not re-tuned for this run's:");
    bool changed = false;
    cJSON_ArrayForEach(k, def)
    {
        const cJSON *v = get(rules, k->string);
        if (v == NULL || cJSON_Compare(v, k, true) || len < 0 || (size_t)len >= sizeof text)
            continue;
        len += snprintf(text + len, sizeof text - (size_t)len, "%s %s", changed ? "," : "",
                        k->string);
        changed = true;
    }
    cJSON_Delete(def);
    if (greedy && changed)
        line(list, text);
}

/* The lines of the bankruptcy rate: the bots, who was ruined (the banker or another player),
 * the reconstructed amounts and the ruins they made in this run (from the distribution
 * ruin_square, by cause: OCA_RUIN_*), the largest three, and the declarations. */
static void rate_lines(cJSON *list, const cJSON *r, const cJSON *board, int nrec)
{
    char text[1024];
    bots_line(list, r);
    retune_line(list, r);
    const cJSON *ruins = NULL, *d;
    cJSON_ArrayForEach(d, get(r, "distributions"))
        if (cJSON_IsString(get(d, "name")) && strcmp(get(d, "name")->valuestring, "ruin_square") == 0)
            ruins = d;
    double total = num(ruins, "n"), rec = 0, declared = 0, banker = 0;
    const cJSON *top[3] = {NULL, NULL, NULL}, *b;
    cJSON_ArrayForEach(b, get(ruins, "bins"))
    {
        double v = num(b, "from"), c = num(b, "count");
        if (v > OCA_RUIN_BANK || v == OCA_RUIN_PRIZE || v == OCA_RUIN_BANKER_MISS)
            banker += c;
        if (v < 0)
            declared += c;
        int sq = (int)(v > OCA_RUIN_BANK ? v - OCA_RUIN_BANK : v);
        if (sq < 1 || !oca_square_reconstructed(cJSON_GetArrayItem(board, sq - 1)))
            continue;
        rec += c;
        for (int i = 0; i < 3; i++) /* the three that ruined most, first come first on ties */
            if (top[i] == NULL || c > num(top[i], "count")) {
                for (int k = 2; k > i; k--)
                    top[k] = top[k - 1];
                top[i] = b;
                break;
            }
    }
    mechanics_lines(list, r);
    snprintf(text, sizeof text, "%d board amounts that are reconstructions (rec.)", nrec);
    line(list, text);
    if (!(total > 0))
        return;
    snprintf(text, sizeof text,
             "who was ruined: the banker in %.0f of the %.0f ruins (%.1f%%), other players in %.0f",
             banker, total, 100 * banker / total, total - banker);
    line(list, text);
    snprintf(text, sizeof text, "the reconstructed amounts made %.0f of the ruins (%.1f%%), most:",
             rec, 100 * rec / total);
    line(list, text);
    for (int i = 0; i < 3 && top[i]; i++) {
        double v = num(top[i], "from");
        bool bank = v > OCA_RUIN_BANK;
        int sq = (int)(bank ? v - OCA_RUIN_BANK : v);
        const cJSON *name = get(cJSON_GetArrayItem(board, sq - 1), "name");
        snprintf(text, sizeof text, "  %s paying on square %d%s%s (%.0f ruins)",
                 bank ? "the banker" : "a player", sq, cJSON_IsString(name) ? " " : "",
                 cJSON_IsString(name) ? name->valuestring : "", num(top[i], "count"));
        line(list, text);
    }
    snprintf(text, sizeof text, "declarations (the bots' choice) made %.0f ruins (%.1f%%)",
             declared, 100 * declared / total);
    line(list, text);
}

/* The lines of the winning bid: the bots' caps, the rules' caps, and a point mass named. */
static void bid_lines(cJSON *list, const cJSON *r, const cJSON *rules)
{
    char text[1024];
    bots_line(list, r);
    line(list, "each bot's cap (max_bid) and model of the bank's worth");
    double players = num(r, "players"), dote = num(rules, "dote"), fee = num(rules, "capo_fee");
    double step = num(rules, "bid_step"), bid_max = num(rules, "bid_max");
    const cJSON *paid = get(rules, "bid_paid");
    bool after = cJSON_IsString(paid) && strcmp(paid->valuestring, "after_fees") == 0;
    /* what a player other than the Capo-gioco can bid to each other player: his points after
     * the Capo-gioco's fee (and, bid_paid "after_fees", with the entry fees), over the others,
     * in steps of the bid */
    double points = dote - fee + (after ? (players - 1) * num(rules, "entry_fee") : 0);
    double cash = step >= 1 && players > 1 ? floor(floor(points / (players - 1)) / step) * step
                                           : NAN;
    snprintf(text, sizeof text, "the rules' caps: bid_max %.0f, a bidder's points (%.0f here)",
             bid_max, cash);
    line(list, text);
    int len = snprintf(text, sizeof text,
                       "the rule keys that set those points: dote %.0f, capo_fee %.0f, the "
                       "players (%.0f), bid_step %.0f, bid_paid %s",
                       dote, fee, players, step, after ? "after_fees" : "before_fees");
    if (after && len > 0 && (size_t)len < sizeof text)
        snprintf(text + len, sizeof text - (size_t)len, " (with entry_fee %.0f)",
                 num(rules, "entry_fee"));
    line(list, text);
    const cJSON *e = get(get(r, "metrics"), "winning_bid");
    if (cJSON_IsTrue(get(e, "point_mass"))) {
        double v = num(e, "value");
        snprintf(text, sizeof text, "point mass: every auction at %.0f, %s", v,
                 v == cash ? "the players' cash cap"
                 : v == bid_max ? "bid_max"
                                : "a cap, not a market");
        line(list, text);
    }
    line(list, "the reconstructed amounts, through the bots' model of the bank");
}

cJSON *oca_depends(const cJSON *r)
{
    const cJSON *rules = get(r, "ruleset"), *board = get(rules, "board");
    cJSON *o = cJSON_CreateObject();
    cJSON *figures = cJSON_AddArrayToObject(o, "figures");
    cJSON *keys = cJSON_AddArrayToObject(o, "keys");
    int nrec = 0;
    for (int i = 0; i < cJSON_GetArraySize(board); i++)
        if (oca_square_reconstructed(cJSON_GetArrayItem(board, i))) {
            char key[64], label[160];
            const cJSON *name = get(cJSON_GetArrayItem(board, i), "name");
            snprintf(key, sizeof key, "board.%d.amount", i + 1); /* square i + 1 */
            snprintf(label, sizeof label, "%d %s", i + 1,
                     cJSON_IsString(name) ? name->valuestring : "");
            cJSON *k = cJSON_CreateObject();
            cJSON_AddStringToObject(k, "key", key);
            cJSON_AddStringToObject(k, "label", label);
            cJSON_AddItemToArray(keys, k);
            nrec++;
        }
    cJSON *f = cJSON_CreateObject();
    cJSON_AddStringToObject(f, "metric", "players_bankrupt");
    rate_lines(cJSON_AddArrayToObject(f, "rests_on"), r, board, nrec);
    cJSON_AddItemToArray(figures, f);
    f = cJSON_CreateObject();
    cJSON_AddStringToObject(f, "metric", "winning_bid");
    bid_lines(cJSON_AddArrayToObject(f, "rests_on"), r, rules);
    cJSON_AddItemToArray(figures, f);
    return o;
}
