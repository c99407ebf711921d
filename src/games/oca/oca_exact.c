/* oca_exact.c — --exact for the oca: the bank model the bots price the bank by (BANK VALUE of
 * giochi-sim-oca(7)), worked out from the ruleset and the board, for the run's seat count. */
#include <math.h>

#include "games/oca/oca.h"

/* The bank's worth to a banker who races (plays) or sits out, at n players: n (entry fee -
 * refund if he plays + togo[1] cut[m]) with m the racers; and what follows from it. */
static cJSON *banker_json(const oca_rules *r, const float *togo, const float *cut, int n,
                          bool plays)
{
    int m = plays ? n : n - 1;
    double pays = (double)togo[1] * cut[m];
    double worth = n * (r->entry_fee - (plays ? r->banker_refund : 0) + pays);
    double even = worth / n;
    double bid = even > 0 ? floor(even / r->bid_step) * r->bid_step : 0;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "racers", m);
    cJSON_AddNumberToObject(o, "racer_pays", pays);
    cJSON_AddNumberToObject(o, "bank_worth", worth);
    cJSON_AddNumberToObject(o, "break_even_bid", even);
    cJSON_AddNumberToObject(o, "bid", bid);
    return o;
}

cJSON *oca_exact(const void *rules, const seat_bots *seats)
{
    const oca_rules *r = rules;
    float togo[OCA_MAX_SQUARES + 1], cut[GAME_MAX_SEATS + 1];
    int turns = oca_bank_model(r, togo, cut);
    int n = seats->nseats;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "method",
                            "the bots' bank model: a Markov chain of one die over the board, "
                            "solved by value iteration (togo) and followed turn by turn (cut)");
    cJSON_AddNumberToObject(root, "players", n);
    cJSON_AddNumberToObject(root, "togo_start", togo[1]);
    cJSON_AddNumberToObject(root, "turns_followed", turns);
    cJSON *c = cJSON_AddObjectToObject(root, "cut");
    for (int m = 2; m <= GAME_MAX_SEATS; m++) {
        char key[4];
        key[0] = (char)('0' + m), key[1] = '\0';
        cJSON_AddNumberToObject(c, key, cut[m]);
    }
    cJSON_AddItemToObject(root, "banker_races", banker_json(r, togo, cut, n, true));
    if (n >= 3 && r->banker_may_sit_out) /* article 5, and the gap of a race of one */
        cJSON_AddItemToObject(root, "banker_sits_out", banker_json(r, togo, cut, n, false));
    return root;
}
