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

/* The lines of the bankruptcy rate: the bots, the reconstructed amounts and the ruins they made
 * in this run (from the distribution ruin_square), the largest three, and the declarations. */
static void rate_lines(cJSON *list, const cJSON *r, const cJSON *board, int nrec)
{
    char text[1024];
    bots_line(list, r);
    const cJSON *ruins = NULL, *d;
    cJSON_ArrayForEach(d, get(r, "distributions"))
        if (cJSON_IsString(get(d, "name")) && strcmp(get(d, "name")->valuestring, "ruin_square") == 0)
            ruins = d;
    double total = num(ruins, "n"), rec = 0, declared = 0;
    const cJSON *top[3] = {NULL, NULL, NULL}, *b;
    cJSON_ArrayForEach(b, get(ruins, "bins"))
    {
        double v = num(b, "from"), c = num(b, "count");
        if (v == -1)
            declared = c;
        if (v < 1 || !oca_square_reconstructed(cJSON_GetArrayItem(board, (int)v - 1)))
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
    snprintf(text, sizeof text, "%d board amounts that are reconstructions (rec.)", nrec);
    line(list, text);
    if (!(total > 0))
        return;
    snprintf(text, sizeof text, "they made %.0f of the %.0f ruins (%.1f%%), most:", rec, total,
             100 * rec / total);
    line(list, text);
    for (int i = 0; i < 3 && top[i]; i++) {
        snprintf(text, sizeof text, "  square %.0f (%.0f ruins)",
                 num(top[i], "from"), num(top[i], "count"));
        const cJSON *name = get(cJSON_GetArrayItem(board, (int)num(top[i], "from") - 1), "name");
        if (cJSON_IsString(name))
            snprintf(text, sizeof text, "  square %.0f %s (%.0f ruins)", num(top[i], "from"),
                     name->valuestring, num(top[i], "count"));
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
    /* what a player other than the Capo-gioco can bid to each other player: his points after
     * the Capo-gioco's fee, over the others, in steps of the bid */
    double cash = step >= 1 && players > 1 ? floor(floor((dote - fee) / (players - 1)) / step) * step
                                           : NAN;
    snprintf(text, sizeof text, "the rules' caps: bid_max %.0f, a bidder's points (%.0f here)",
             bid_max, cash);
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
