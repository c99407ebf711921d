/* test_population.c — populations of players (config/population.h, bots/population.c): what a
 * population file may say, the draws it makes, the exact order statistic of the oca's sealed
 * auction among players whose caps are drawn, and a one-member population playing exactly as
 * its bot at every seat. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "bots/population.h"
#include "check.h"
#include "config/botspec.h"
#include "config/population.h"
#include "config/rules.h"
#include "core/registry.h"
#include "core/runner.h"

extern const game_type game_oca, game_pig10;

/* Parses text for g at 4 players; returns its result, the message in err. */
static int parse(const game_type *g, const char *text, population *p, char *err, size_t n)
{
    return population_parse(g, text, "t", 4, p, err, n);
}

/* The population must be refused with a message holding `part`. */
static void refused(const char *text, const char *part)
{
    static population p; /* large: not on the stack */
    char err[512] = "";
    if (parse(&game_oca, text, &p, err, sizeof err) != -1)
        check_fail(__FILE__, __LINE__, "accepted: %s", text);
    else if (strstr(err, part) == NULL || strchr(err, '\n') != NULL)
        check_fail(__FILE__, __LINE__, "message '%s' lacks '%s'", err, part);
}

TEST(population_refuses_what_cannot_be_drawn)
{
    refused("[]", "must be an object");
    refused("{\"members\": []}", "1..16 members");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\"}], \"colour\": 1}",
            "unknown key 'colour'");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"gredy\"}]}", "did you mean greedy");
    refused("{\"members\": [{\"type\": \"a\", \"weight\": 0, \"bot\": \"greedy\"}]}",
            "weight must be a positive number");
    refused("{\"members\": [{\"type\": \"a\", \"weight\": -1, \"bot\": \"greedy\"}]}",
            "weight must be a positive number");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\"}, {\"type\": \"a\", \"bot\": "
            "\"cautious\"}]}",
            "both of type 'a'");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"pop:oca-mixed\"}]}",
            "cannot be a population");
    refused("{\"game\": \"wari\", \"members\": [{\"type\": \"a\", \"bot\": \"greedy\"}]}",
            "for game 'wari'");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bd\": 3}}]}",
            "did you mean max_bid");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bid\": "
            "2000}}]}",
            "2000 is not a whole number in 0..1000");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bid\": "
            "2.5}}]}",
            "not a whole number");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bid\": "
            "{\"uniform\": [90, 10]}}}]}",
            "uniform bounds 90..10 are not in order");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bid\": "
            "{\"uniform\": [0, 5000]}}}]}",
            "5000 is not");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bid\": "
            "{\"normal\": {\"mean\": 40, \"sd\": 0}}}}]}",
            "sd 0 must be positive");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bid\": "
            "{\"normal\": {\"mean\": 40, \"sd\": 5, \"min\": 50, \"max\": 10}}}}]}",
            "clamp 50..10 is not in order");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"trade\": "
            "{\"normal\": {\"mean\": 0.5, \"sd\": 1, \"min\": 0.2, \"max\": 0.1}}}}]}",
            "not in order");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bid\": "
            "{\"choice\": []}}}]}",
            "choice takes an array");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bid\": "
            "{\"choice\": [1, 2], \"weights\": [1, 0]}}}]}",
            "weight 2 must be a positive number");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bid\": "
            "{\"choice\": [1, 2], \"weights\": [1]}}}]}",
            "one weight per choice");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bid\": "
            "{\"uniform\": [1, 2], \"choice\": [1]}}}]}",
            "give one distribution");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bid\": "
            "\"high\"}}]}",
            "expected a number or one of");
    refused("{\"members\": [{\"type\": \"a,b\", \"bot\": \"greedy\"}]}", "may not hold a comma");
    refused("{\"members\": [{\"type\": \"a\", \"bot\": \"greedy\"}", "t");
}

TEST(population_draws_follow_their_distributions)
{
    static population p;
    char err[512];
    CHECK_INT(parse(&game_oca,
                    "{\"members\": ["
                    "{\"type\": \"u\", \"weight\": 3, \"bot\": \"greedy\", \"knobs\": "
                    "{\"max_bid\": {\"uniform\": [10, 13]}, \"trade\": {\"uniform\": [0.2, 0.4]}}},"
                    "{\"type\": \"n\", \"weight\": 1, \"bot\": \"greedy\", \"knobs\": "
                    "{\"gamble\": {\"normal\": {\"mean\": 20, \"sd\": 10, \"min\": 15, \"max\": "
                    "1000}}, \"declare\": {\"choice\": [0, 2], \"weights\": [1, 3]}}}]}",
                    &p, err, sizeof err),
              0);
    enum { N = 40000 };
    int member[2] = {0}, bid[4] = {0}, declare2 = 0, clamped = 0;
    double trade_sum = 0, gamble_sum = 0;
    int gamble_n = 0;
    rng r;
    rng_seed(&r, 99);
    int kb = 1, kt = 7, kd = 2, kg = 16; /* max_bid, trade, declare, gamble */
    CHECK_STR(p.member[0].spec.bot->params[kb].name, "max_bid");
    CHECK_STR(p.member[0].spec.bot->params[kt].name, "trade");
    CHECK_STR(p.member[0].spec.bot->params[kd].name, "declare");
    CHECK_STR(p.member[0].spec.bot->params[kg].name, "gamble");
    for (int i = 0; i < N; i++) {
        double v[BOT_MAX_PARAMS];
        int m = population_draw(&p, &r, v);
        member[m]++;
        if (m == 0) {
            CHECK(v[kb] >= 10 && v[kb] <= 13 && v[kb] == floor(v[kb]));
            CHECK(v[kt] >= 0.2 && v[kt] < 0.4);
            bid[(int)v[kb] - 10]++;
            trade_sum += v[kt];
            CHECK(v[kd] == p.member[0].spec.param[kd]); /* not drawn: the bot's own */
        } else {
            CHECK(v[kg] >= 15 && v[kg] == floor(v[kg]));
            clamped += v[kg] == 15;
            gamble_sum += v[kg];
            gamble_n++;
            CHECK(v[kd] == 0 || v[kd] == 2);
            declare2 += v[kd] == 2;
        }
    }
    /* each count within 4.5 standard errors of its expectation */
    double sd = sqrt(N * 0.75 * 0.25);
    CHECK_NEAR(member[0], 0.75 * N, 4.5 * sd);
    for (int b = 0; b < 4; b++)
        CHECK_NEAR(bid[b], member[0] / 4.0, 4.5 * sqrt(member[0] * 0.25 * 0.75));
    CHECK_NEAR(trade_sum / member[0], 0.3, 4.5 * 0.2 / sqrt(12.0 * member[0]));
    CHECK_NEAR(declare2, 0.75 * member[1], 4.5 * sqrt(member[1] * 0.75 * 0.25));
    /* normal(20, 10) rounded, then clamped below at 15: P(rounded <= 15) = Phi((15.5-20)/10) */
    double pc = gsl_cdf_ugaussian_P(-0.45);
    CHECK_NEAR(clamped, pc * member[1], 4.5 * sqrt(member[1] * pc * (1 - pc)));
    CHECK(gamble_sum / gamble_n > 20); /* the clamp lifts the mean */
}

/* A run of cfg's game under rules with every seat from p. */
static void pop_config(run_config *c, const game_type *g, const void *rules, int n,
                       const population *p, uint64_t runs, int threads)
{
    memset(c, 0, sizeof *c);
    c->game = g;
    c->rules = rules;
    c->nseats = n;
    c->runs = runs;
    c->seed = 2026;
    c->threads = threads;
    for (int k = 0; k < n; k++) {
        c->seat[k].bot = &bot_population;
        c->seat[k].pop = p;
    }
}

/* Probability that a seat's sealed bid is b (a multiple of 5): caps uniform on lo..hi, the
 * highest bid at most the cap (bids 0, 5, 10, ...). */
static double bid_prob(int lo, int hi, int b)
{
    int from = b < lo ? lo : b, to = b + 4 < hi ? b + 4 : hi;
    return to >= from ? (double)(to - from + 1) / (hi - lo + 1) : 0;
}

/* Article 3: with several volunteers the bank goes to the highest offer to each other player
 * (the tie to a roll of the die). At four players the three who are not the Capo-gioco are
 * asked (articles 1 and 3). With caps drawn from a known distribution, a sealed auction among
 * those three, each bidding the highest legal bid within his cap, has winning bid the max of
 * three independent bids: P(W <= b) = G(b)^3, G the bid distribution of one seat (a mixture
 * of the population's two types). The winner's type, ties broken uniformly, follows
 * too. Both are checked against the batch run (chi-square over the bid's cells, a z test on
 * the type) at a fixed seed. */
TEST(oca_art3_sealed_auction_winning_bid_is_the_exact_order_statistic)
{
    static population p;
    char err[512];
    /* volunteer and bid by the cap alone: no model of the bank, no error on it */
    CHECK_INT(parse(&game_oca,
                    "{\"members\": ["
                    "{\"type\": \"wide\", \"weight\": 3, \"bot\": "
                    "\"greedy:bank_ev=0:value_sd=0:volunteer=1\", \"knobs\": {\"max_bid\": "
                    "{\"uniform\": [0, 60]}}},"
                    "{\"type\": \"keen\", \"weight\": 1, \"bot\": "
                    "\"greedy:bank_ev=0:value_sd=0:volunteer=1\", \"knobs\": {\"max_bid\": "
                    "{\"uniform\": [30, 60]}}}]}",
                    &p, err, sizeof err),
              0);
    const char *sets[] = {"auction=\"sealed\""};
    cJSON *json = NULL;
    void *rules = rules_effective(&game_oca, NULL, sets, 1, &json, err, sizeof err);
    CHECK(rules != NULL);
    if (rules == NULL)
        return;
    run_config c;
    enum { RUNS = 20000 };
    pop_config(&c, &game_oca, rules, 4, &p, RUNS, 2);
    run_result res;
    CHECK_INT(run_batch(&c, &res, err, sizeof err), 0);
    int mw = -1, ma = -1, mb = -1;
    for (int m = 0; game_oca.metrics[m].name; m++) {
        if (strcmp(game_oca.metrics[m].name, "auction_bidders") == 0)
            mb = m;
        if (strcmp(game_oca.metrics[m].name, "winning_bid") == 0)
            mw = m;
        if (strcmp(game_oca.metrics[m].name, "auction_winner") == 0)
            ma = m;
    }
    const acc *w = rec_get(res.rec, mw, -1);
    CHECK_INT(w->n, RUNS); /* every game has its auction of three */
    CHECK(rec_get(res.rec, mb, -1)->min == 3 && rec_get(res.rec, mb, -1)->max == 3);
    /* the exact distribution of the winning bid, by cells of 5 */
    double q[13], G = 0, prev = 0;
    for (int j = 0; j < 13; j++) {
        G += 0.75 * bid_prob(0, 60, 5 * j) + 0.25 * bid_prob(30, 60, 5 * j);
        q[j] = pow(G, 3) - prev;
        prev = pow(G, 3);
    }
    CHECK_NEAR(prev, 1, 1e-12);
    /* chi-square over cells merged from the low end until each expects 20 */
    double chi2 = 0, e = 0, o = 0;
    int df = -1;
    for (int j = 0; j < 13; j++) {
        e += RUNS * q[j];
        int64_t v = 5 * j;
        o += (w->count && v >= w->lo && v < w->lo + w->len) ? (double)w->count[v - w->lo] : 0;
        if (e >= 20 || j == 12) {
            chi2 += (o - e) * (o - e) / e;
            df++;
            e = o = 0;
        }
    }
    double pval = gsl_cdf_chisq_Q(chi2, df);
    if (!(pval > 1e-4))
        check_fail(__FILE__, __LINE__, "winning bid: chi2 %.2f df %d p %.2g", chi2, df, pval);
    /* the keen type's part of the auctions won: 3 P(a given bidder is keen and wins), the tie
     * to a uniform winner among the tied */
    double pk = 0;
    for (int j = 0; j <= 12; j++) {
        double b1 = 0.25 * bid_prob(30, 60, 5 * j); /* seat 1 keen and bids 5j */
        double eq = 0.75 * bid_prob(0, 60, 5 * j) + 0.25 * bid_prob(30, 60, 5 * j), lt = 0;
        for (int i = 0; i < j; i++)
            lt += 0.75 * bid_prob(0, 60, 5 * i) + 0.25 * bid_prob(30, 60, 5 * i);
        double share = 0; /* E[1 / (1 + others tied)] with no other above */
        for (int k = 0; k <= 2; k++) {
            double comb = k == 1 ? 2 : 1;
            share += comb * pow(eq, k) * pow(lt, 2 - k) / (k + 1);
        }
        pk += 3 * b1 * share;
    }
    CHECK_INT(res.ntypes, 2);
    CHECK_STR(res.type_name[1], "keen");
    double hits = (double)rec_type_get(res.rec, ma, 1)->hits;
    double all = hits + (double)rec_type_get(res.rec, ma, 0)->hits;
    CHECK_NEAR(all, RUNS, 0);
    CHECK_NEAR(hits / all, pk, 4.5 * sqrt(pk * (1 - pk) / all));
    run_result_free(&res);
    free(rules);
    cJSON_Delete(json);
}

/* The figures a run with every seat drawn from p and one with every seat spec'd alike must
 * share: every seat's and every metric's accumulator. */
static void same_results(const run_result *a, const run_result *b, int nseats)
{
    CHECK_INT(a->games, b->games);
    CHECK(a->length.sum == b->length.sum && a->length.sumsq == b->length.sumsq);
    for (int k = 0; k < nseats; k++) {
        CHECK_INT(a->win_units[k], b->win_units[k]);
        CHECK(a->score[k].sum == b->score[k].sum && a->score[k].sumsq == b->score[k].sumsq);
        CHECK(a->rank[k].sum == b->rank[k].sum);
    }
    for (int i = 0; i < 2 * nseats * a->nkinds; i++)
        CHECK_INT(a->choices[i], b->choices[i]);
    int bad = 0;
    for (int i = 0; i < a->rec->nmetrics * REC_SLOTS; i++) {
        const acc *x = &a->rec->a[i], *y = &b->rec->a[i];
        bad += x->n != y->n || x->hits != y->hits || x->sum != y->sum || x->sumsq != y->sumsq ||
               (x->n > 0 && (x->min != y->min || x->max != y->max));
    }
    CHECK_INT(bad, 0);
}

/* A one-member population whose knobs are fixed plays exactly as its bot at every seat (the
 * member's stream is the seat's own; the draw uses a stream of its own), in a game with a
 * bank (oca) and one with hidden cards (pig10); its one type's figures are the seats'
 * pooled. */
TEST(population_of_one_fixed_member_plays_as_its_bot)
{
    const struct {
        const game_type *g;
        const char *bot, *pop;
    } cases[] = {
        {&game_oca, "greedy", "{\"members\": [{\"type\": \"g\", \"bot\": \"greedy\"}]}"},
        {&game_pig10, "count", "{\"members\": [{\"type\": \"c\", \"bot\": \"count\"}]}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        static population p;
        char err[512], canon[BOT_SPEC_MAX];
        const game_type *g = cases[i].g;
        CHECK_INT(parse(g, cases[i].pop, &p, err, sizeof err), 0);
        cJSON *json = NULL;
        void *rules = rules_effective(g, NULL, NULL, 0, &json, err, sizeof err);
        run_config a, b;
        pop_config(&a, g, rules, 4, &p, 3000, 2);
        b = a;
        for (int k = 0; k < 4; k++)
            CHECK_INT(botspec_parse_at(g, cases[i].bot, 4, &b.seat[k], canon, sizeof canon, err,
                                       sizeof err),
                      0);
        b.threads = 1;
        run_result ra, rb;
        CHECK_INT(run_batch(&a, &ra, err, sizeof err), 0);
        CHECK_INT(run_batch(&b, &rb, err, sizeof err), 0);
        same_results(&ra, &rb, 4);
        CHECK_INT(ra.ntypes, 1);
        CHECK_INT(rb.ntypes, 0);
        int64_t units = 0;
        for (int k = 0; k < 4; k++)
            units += rb.win_units[k];
        const acc *w = rec_type_get(ra.rec, ra.rec->nmetrics + REC_TYPE_WIN, 0);
        CHECK_INT(w->hits, units);
        CHECK_INT(w->n, 4 * 3000 * RUN_WIN_UNIT);
        run_result_free(&ra);
        run_result_free(&rb);
        free(rules);
        cJSON_Delete(json);
    }
}

/* Which member sits where is the same at any thread count: every figure by type too. */
TEST(population_figures_by_type_do_not_depend_on_threads)
{
    char err[512];
    const population *p = population_load(&game_oca, "oca-mixed", 4, err, sizeof err);
    CHECK(p != NULL);
    if (p == NULL)
        return;
    CHECK(population_load(&game_oca, "oca-mixed", 4, err, sizeof err) == p); /* kept */
    cJSON *json = NULL;
    void *rules = rules_effective(&game_oca, NULL, NULL, 0, &json, err, sizeof err);
    run_config a, b;
    pop_config(&a, &game_oca, rules, 4, p, 2000, 1);
    pop_config(&b, &game_oca, rules, 4, p, 2000, 3);
    run_result ra, rb;
    CHECK_INT(run_batch(&a, &ra, err, sizeof err), 0);
    CHECK_INT(run_batch(&b, &rb, err, sizeof err), 0);
    same_results(&ra, &rb, 4);
    CHECK_INT(ra.ntypes, p->nmembers);
    int bad = 0;
    for (int i = 0; i < (ra.rec->nmetrics + REC_TYPE_BUILTINS) * ra.ntypes; i++) {
        const acc *x = &ra.rec->ta[i], *y = &rb.rec->ta[i];
        bad += x->n != y->n || x->hits != y->hits || x->sum != y->sum || x->sumsq != y->sumsq;
    }
    CHECK_INT(bad, 0);
    /* every type sat somewhere, in about its weight's share of the seats */
    for (int t = 0; t < ra.ntypes; t++) {
        double share = p->member[t].weight / p->cum[p->nmembers - 1];
        double n = (double)rec_type_get(ra.rec, ra.rec->nmetrics + REC_TYPE_WIN, t)->n /
                   RUN_WIN_UNIT;
        CHECK_NEAR(n / 8000, share, 4.5 * sqrt(share * (1 - share) / 8000));
    }
    run_result_free(&ra);
    run_result_free(&rb);
    free(rules);
    cJSON_Delete(json);
}

/* A member whose drawn knobs leave setup's tables alone takes them through its bot's retune
 * (bot_type.retune); it plays exactly as one set up afresh for every draw (the plain way). */
TEST(population_retune_plays_as_a_fresh_setup)
{
    static population p;
    char err[512];
    /* max_bid, gamble and declare retune; buy_max needs a new setup: both ways are taken */
    CHECK_INT(parse(&game_oca,
                    "{\"members\": ["
                    "{\"type\": \"a\", \"bot\": \"greedy\", \"knobs\": {\"max_bid\": "
                    "{\"uniform\": [20, 70]}, \"gamble\": {\"normal\": {\"mean\": 20, \"sd\": "
                    "15}}, \"declare\": {\"choice\": [0, 1, 2]}}},"
                    "{\"type\": \"b\", \"bot\": \"aggressive\", \"knobs\": {\"buy_max\": "
                    "{\"uniform\": [10, 80]}, \"max_bid\": {\"uniform\": [40, 100]}}}]}",
                    &p, err, sizeof err),
              0);
    cJSON *json = NULL;
    void *rules = rules_effective(&game_oca, NULL, NULL, 0, &json, err, sizeof err);
    run_config c;
    pop_config(&c, &game_oca, rules, 4, &p, 2000, 2);
    run_result fast, slow;
    CHECK_INT(run_batch(&c, &fast, err, sizeof err), 0);
    bot_population_plain(true);
    CHECK_INT(run_batch(&c, &slow, err, sizeof err), 0);
    bot_population_plain(false);
    same_results(&fast, &slow, 4);
    int bad = 0;
    for (int i = 0; i < (fast.rec->nmetrics + REC_TYPE_BUILTINS) * fast.ntypes; i++) {
        const acc *x = &fast.rec->ta[i], *y = &slow.rec->ta[i];
        bad += x->n != y->n || x->hits != y->hits || x->sum != y->sum || x->sumsq != y->sumsq;
    }
    CHECK_INT(bad, 0);
    run_result_free(&fast);
    run_result_free(&slow);
    free(rules);
    cJSON_Delete(json);
}
