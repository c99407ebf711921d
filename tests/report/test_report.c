/* test_report.c — the summary's layout (declared and fallback), the charts gnuplot draws (SVG
 * parsed: tags balanced, series counted) and the HTML page (parsed the same way). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "config/botspec.h"
#include "report/plot.h"
#include "core/course.h"
#include "core/registry.h"
#include "report/report.h"
#include "report/report_html.h"
#include "report/report_text.h"
#include "config/rules.h"

/* The report of a run of `runs` games of g (bots: one name per seat); NULL on failure. */
static cJSON *run_report(const game_type *g, int nseats, const char *const *bots, uint64_t runs)
{
    char err[256];
    cJSON *ruleset = NULL;
    void *rules = rules_effective(g, NULL, NULL, 0, &ruleset, err, sizeof err);
    if (rules == NULL)
        return NULL;
    run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.game = g;
    cfg.rules = rules;
    cfg.nseats = nseats;
    report_input in = {.cfg = &cfg, .ruleset = ruleset};
    for (int k = 0; k < nseats; k++) {
        char canon[BOT_SPEC_MAX];
        if (strncmp(bots[k], "pop:", 4) == 0) { /* a population: its seat spec */
            if (botspec_parse_at(g, bots[k], nseats, &cfg.seat[k], canon, sizeof canon, err,
                                 sizeof err) != 0)
                return NULL;
            in.bot_spec[k] = bots[k];
            continue;
        }
        cfg.seat[k].bot = registry_bot(g, bots[k]);
        for (int j = 0; cfg.seat[k].bot->params && cfg.seat[k].bot->params[j].name; j++)
            cfg.seat[k].param[j] = cfg.seat[k].bot->params[j].def;
        in.bot_spec[k] = bots[k];
    }
    cfg.runs = runs;
    cfg.seed = 5;
    cfg.threads = 1;
    run_result res;
    cJSON *r = NULL;
    if (run_batch(&cfg, &res, err, sizeof err) == 0) {
        in.res = &res;
        r = report_build(&in);
        run_result_free(&res);
    }
    cJSON_Delete(ruleset);
    free(rules);
    return r;
}

/* A small well-formedness check of XML (and of HTML when html is true: void elements need no
 * end tag, names compare case-blind): every start tag has its end tag, properly nested,
 * comments, declarations and CDATA skipped. Returns the number of elements, or -1. */
static int tags_balanced(const char *s, bool html)
{
    static const char *const voids[] = {"meta", "br", "hr", "img", "link", "input", NULL};
    char stack[256][32];
    int depth = 0, elements = 0;
    for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
        if (strncmp(p, "<!--", 4) == 0) {
            p = strstr(p, "-->");
        } else if (strncmp(p, "<![CDATA[", 9) == 0) {
            p = strstr(p, "]]>");
        } else if (p[1] == '?' || p[1] == '!') {
            p = strchr(p, '>');
        } else {
            const char *end = strchr(p, '>');
            if (end == NULL)
                return -1;
            bool closing = p[1] == '/';
            const char *name = p + 1 + closing;
            size_t n = strcspn(name, " \t\r\n/>");
            if (n == 0 || n >= 32)
                return -1;
            char tag[32];
            memcpy(tag, name, n);
            tag[n] = '\0';
            bool is_void = false;
            for (int i = 0; html && voids[i]; i++)
                is_void = is_void || strcasecmp(tag, voids[i]) == 0;
            if (closing) {
                if (depth == 0 || strcmp(stack[depth - 1], tag) != 0)
                    return -1;
                depth--;
            } else if (end[-1] != '/' && !is_void) {
                if (depth == 256)
                    return -1;
                strcpy(stack[depth++], tag);
                elements++;
            } else {
                elements++;
            }
            p = end;
        }
        if (p == NULL)
            return -1;
    }
    return depth == 0 ? elements : -1;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

TEST(report_layout_names_exist_in_every_game)
{
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        const char *names[256];
        int n = 0, seen[256] = {0};
        for (int h = 0; g->headline && g->headline[h]; h++)
            names[n++] = g->headline[h];
        for (int k = 0; g->groups && g->groups[k].title; k++)
            for (int j = 0; g->groups[k].metrics[j] && n < 256; j++)
                names[n++] = g->groups[k].metrics[j];
        for (int l = 0; g->labels && g->labels[l].name && n < 256; l++) {
            names[n++] = g->labels[l].name;
            CHECK(g->labels[l].label != NULL);
        }
        for (int j = 0; j < n; j++) {
            bool found = false;
            for (int m = 0; g->metrics && g->metrics[m].name; m++)
                found = found || strcmp(g->metrics[m].name, names[j]) == 0;
            if (!found)
                fprintf(stderr, "  %s: '%s' is not a metric\n", g->name, names[j]);
            CHECK(found);
        }
        /* a metric sits in at most one declared group */
        for (int k = 0; g->groups && g->groups[k].title; k++)
            for (int j = 0; g->groups[k].metrics[j]; j++)
                for (int m = 0; g->metrics[m].name; m++)
                    if (strcmp(g->metrics[m].name, g->groups[k].metrics[j]) == 0)
                        CHECK_INT(seen[m]++, 0);
    }
}

/* Every game glosses its own words: terms unique, each meaning one line; the summary's last
 * section lists them, one line each ("term: meaning"), and the JSON layout carries them. */
TEST(report_glossary_of_every_game)
{
    for (int i = 0; registry_games[i]; i++) {
        const game_type *g = registry_games[i];
        CHECK(g->glossary != NULL);
        int n = 0;
        for (; g->glossary && g->glossary[n].term; n++) {
            const game_term *t = &g->glossary[n];
            CHECK(*t->term != '\0' && t->meaning != NULL && strlen(t->meaning) > 10);
            CHECK(strchr(t->meaning, '\n') == NULL && strlen(t->meaning) < 200);
            for (int j = 0; j < n; j++)
                CHECK(strcmp(g->glossary[j].term, t->term) != 0);
        }
        CHECK(n >= 3);
        const char *bots[GAME_MAX_SEATS];
        for (int k = 0; k < GAME_MAX_SEATS; k++)
            bots[k] = "random";
        cJSON *r = run_report(g, g->default_seats, bots, 20);
        if (r == NULL) {
            CHECK(r != NULL);
            continue;
        }
        const cJSON *terms = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(r, "layout"), "glossary");
        CHECK_INT(cJSON_GetArraySize(terms), n);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        report_text_summary(f, r);
        fclose(f);
        const char *sec = strstr(text, "\nTerms of the game\n");
        CHECK(sec != NULL);
        for (int k = 0; sec && k < n; k++) {
            char line[128];
            snprintf(line, sizeof line, "\n  %s: ", g->glossary[k].term);
            if (strstr(sec, line) == NULL)
                fprintf(stderr, "  %s: no glossary line for '%s'\n", g->name, g->glossary[k].term);
            CHECK(strstr(sec, line) != NULL);
        }
        free(text);
        cJSON_Delete(r);
    }
}

TEST(report_summary_of_a_game_that_declares_nothing)
{
    /* The 45 without its presentation: one group "Figures" in table order, snake_case names. */
    game_type bare = *registry_game("45");
    bare.headline = NULL;
    bare.groups = NULL;
    bare.labels = NULL;
    bare.glossary = NULL;
    const char *bots[2] = {"greedy", "greedy"};
    cJSON *r = run_report(&bare, 2, bots, 200);
    CHECK(r != NULL);
    const cJSON *layout = cJSON_GetObjectItemCaseSensitive(r, "layout");
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(layout, "groups");
    CHECK_INT(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(layout, "headline")), 0);
    CHECK_INT(cJSON_GetArraySize(groups), 1);
    const cJSON *g0 = cJSON_GetArrayItem(groups, 0);
    CHECK_STR(cJSON_GetObjectItemCaseSensitive(g0, "title")->valuestring, "Figures");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(g0, "metrics");
    CHECK_INT(cJSON_GetArraySize(list), 4 + COURSE_NMETRICS); /* the course's after */
    CHECK_STR(cJSON_GetArrayItem(list, 0)->valuestring, "shut_rate");
    CHECK_STR(cJSON_GetArrayItem(list, 3)->valuestring, "rolloff_rounds");
    CHECK_STR(cJSON_GetArrayItem(list, 4)->valuestring, "lead_changes");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    report_text_summary(f, r);
    fclose(f);
    CHECK(strstr(text, "\nFigures\n  shut_rate ") != NULL);
    CHECK(strstr(text, "\n  rolloff_rounds ") != NULL);
    CHECK(strstr(text, "Terms of the game") == NULL);
    free(text);
    cJSON_Delete(r);
}

/* Draws r's charts as SVG: they parse (balanced tags) and hold `series` series, and the
 * script has `panels` panels; `name` says which report in a failure. xml: the SVG also
 * starts with its XML declaration. */
static void check_charts(const cJSON *r, const char *name, int series, int panels, bool xml)
{
    char err[256];
    size_t len = 0;
    char *svg = plot_render(r, PLOT_SVG, &len, err, sizeof err);
    CHECK(svg != NULL);
    if (svg) {
        if (xml)
            CHECK(strncmp(svg, "<?xml", 5) == 0);
        CHECK(tags_balanced(svg, false) > 0);
        if (count(svg, "id=\"gnuplot_plot_") != series)
            fprintf(stderr, "  %s: %d series\n", name, count(svg, "id=\"gnuplot_plot_"));
        CHECK_INT(count(svg, "id=\"gnuplot_plot_"), series);
    }
    char *script = NULL;
    size_t slen = 0;
    FILE *f = open_memstream(&script, &slen);
    CHECK_INT(plot_script(f, r, PLOT_SVG, "x.svg"), panels);
    fclose(f);
    free(script);
    free(svg);
}

TEST(report_plot_svg_is_well_formed_with_its_series)
{
    if (!plot_available()) {
        fprintf(stderr, "  gnuplot is not on the PATH (tools/deps.sh plot installs it)\n");
        CHECK(plot_available());
        return;
    }
    /* 45, two bots: win shares (bars + intervals), length, headline shares (bars +
     * intervals) in two panels, those up to 20% and those above (one scale would crush the
     * small ones), the turn score's histogram with one series per bot: 9 series. */
    const char *mixed[2] = {"greedy", "optimal-shut"};
    const char *same[4] = {"greedy", "greedy", "greedy", "greedy"};
    const char *pops[4] = {"pop:oca-mixed", "pop:oca-mixed", "pop:oca-mixed", "pop:oca-mixed"};
    struct {
        const char *game;
        int nseats;
        const char *const *bots;
        int series, panels;
    } cases[] = {
        {"45", 2, mixed, 9, 5},
        /* wins 2, length 1, shares 2 + 2 (the auction's 100% apart), banker's and Capo's
         * net 1+1, then a chart of one series per distribution that has observations:
         * bankrupt players, winning bid, bidders, ruin by square, declarations per player
         * and per game, the cashier's till (300 games hold some games with a cashier); the
         * auction winner's net by winning bid (bars + intervals) */
        {"oca", 4, same, 20, 15}, /* and the win share by role (bars + intervals) */
        /* a population: also the win share by type and its share of the auctions won, of
         * the first bankers and of the bankrupt (bars + intervals each) */
        {"oca", 4, pops, 28, 19},
        {"pig10", 4, same, 5, 4}, /* wins 2, length 1, two per-game counts 1+1 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *r = run_report(registry_game(cases[i].game), cases[i].nseats, cases[i].bots, 300);
        CHECK(r != NULL);
        check_charts(r, cases[i].game, cases[i].series, cases[i].panels, true);
        cJSON_Delete(r);
    }
}

TEST(report_html_page_parses)
{
    const char *bots[4] = {"greedy", "cautious", "greedy", "aggressive"};
    cJSON *r = run_report(registry_game("oca"), 4, bots, 200);
    CHECK(r != NULL);
    char *page = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&page, &len);
    report_html_write(f, r);
    fclose(f);
    CHECK(strncmp(page, "<!DOCTYPE html>\n<html lang=\"en\">", 32) == 0);
    CHECK(tags_balanced(page, true) > 0);
    CHECK_INT(count(page, "<table>"), count(page, "</table>"));
    CHECK(strstr(page, "<h2>By bot</h2>") != NULL);
    CHECK(strstr(page, "<td>aggressive</td>") != NULL);
    CHECK(strstr(page, "Gioco dell&#39;Oca") == NULL); /* apostrophes need no escape */
    /* nothing is fetched: no src attribute, no external link */
    CHECK(strstr(page, " src=") == NULL);
    CHECK(strstr(page, "href=\"http") == NULL && strstr(page, "href='http") == NULL);
    if (plot_available())
        CHECK_INT(count(page, "<svg"), 1);
    free(page);
    cJSON_Delete(r);
}

/* The JSON of experiments and searches (sweep, sensitivity, rotation, goal seek, tuning,
 * tournament), saved from the binary in tests/fixtures (a sweep's setting reports and
 * differences trimmed: the charts draw the "figures" of --metric): each chart is drawn,
 * parses, and has its series. */
TEST(report_plot_experiments_have_their_series)
{
    if (!plot_available()) {
        CHECK(plot_available());
        return;
    }
    struct {
        const char *file;
        int series, panels;
    } cases[] = {
        /* 3 figures of --metric, 2 player counts: per figure the values (a band and a line
         * per count) and the paired differences (a line with intervals per count, and zero) */
        {"tests/fixtures/sweep-oca.json", 3 * (2 * 2 + 2 + 1), 3 * 2},
        /* the 2 figures of a sweep without --metric (win_share@1, length), one line */
        {"tests/fixtures/sweep-45.json", 2 * (2 + 1 + 1), 2 * 2},
        /* tornado: down and up bars, down and up intervals */
        {"tests/fixtures/sensitivity-oca.json", 4, 1},
        /* per-bot win shares and seat advantages, bars and intervals */
        {"tests/fixtures/rotation-pig10.json", 4, 2},
        /* the target, the sweep's points and the refined ones, each with intervals */
        {"tests/fixtures/seek-oca.json", 3, 1},
        /* the starting and the best bot, bars and intervals */
        {"tests/fixtures/tune-oca.json", 2, 1},
        /* the ratings, bars and intervals */
        {"tests/fixtures/tournament-wari.json", 2, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256];
        char *text = rules_read_file(cases[i].file, err, sizeof err);
        CHECK(text != NULL);
        cJSON *r = text ? cJSON_Parse(text) : NULL;
        CHECK(r != NULL);
        free(text);
        if (r == NULL)
            continue;
        check_charts(r, cases[i].file, cases[i].series, cases[i].panels, false);
        cJSON_Delete(r);
    }
}

/* The page of every fixture: it says how it was made, shows labels rather than metric ids and
 * numbers as the text report writes them (no exponent anywhere in the page's text), and the
 * JSON it embeds reads back as the very report it was made from. */
TEST(report_html_pages_of_experiments_and_searches)
{
    struct {
        const char *file, *must; /* a phrase the page's tables must hold */
    } cases[] = {
        {"tests/fixtures/sweep-oca.json", "games with at least one bankruptcy"},
        {"tests/fixtures/sweep-45.json", "win share, seat 1"},
        {"tests/fixtures/sensitivity-oca.json", "Sensitivity of games with at least one bankruptcy"},
        {"tests/fixtures/rotation-pig10.json", "By bot"},
        {"tests/fixtures/seek-oca.json", "crosses 10.00%"},
        {"tests/fixtures/tune-oca.json", "improvement (paired, percentage points)"},
        {"tests/fixtures/tournament-wari.json", "Cross table"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[256];
        char *text = rules_read_file(cases[i].file, err, sizeof err);
        CHECK(text != NULL);
        cJSON *r = text ? cJSON_Parse(text) : NULL;
        free(text);
        CHECK(r != NULL);
        if (r == NULL)
            continue;
        char *page = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&page, &len);
        report_html_write(f, r);
        fclose(f);
        CHECK(tags_balanced(page, true) > 0);
        CHECK(strstr(page, "<h2>How this was made</h2>") != NULL);
        if (strstr(page, cases[i].must) == NULL)
            fprintf(stderr, "  %s: no '%s'\n", cases[i].file, cases[i].must);
        CHECK(strstr(page, cases[i].must) != NULL);
        /* a share as the text writes it: "2.80%" then its interval in points "[2.08, 3.52]" */
        if (strstr(cases[i].file, "sweep-oca"))
            CHECK(strstr(page, "%</span> <span class=\"ci\">[") != NULL);
        /* the page's text but the charts and the JSON: no 8.121e-05 */
        char *charts = strstr(page, "<h2>Charts</h2>");
        char *svg_end = charts ? strstr(charts, "</svg>") : NULL;
        char *after = svg_end ? strstr(svg_end, "</div>\n") : NULL;
        char *json = strstr(page, "<script type=\"application/json\"");
        CHECK(charts != NULL && json != NULL);
        for (int part = 0; charts && json && part < 2; part++) {
            char *from = part == 0 ? page : after ? after : json, *to = part == 0 ? charts : json;
            char keep = *to;
            *to = '\0';
            for (const char *p = from; (p = strchr(p, 'e')) != NULL; p++)
                if ((p[1] == '-' || p[1] == '+') && p[2] >= '0' && p[2] <= '9' && p > from &&
                    p[-1] >= '0' && p[-1] <= '9') {
                    fprintf(stderr, "  %s: exponent at '%.20s'\n", cases[i].file, p - 5);
                    CHECK(false);
                    break;
                }
            *to = keep;
        }
        const char *open = "<script type=\"application/json\" id=\"giochi-report\">";
        char *js = strstr(page, open);
        CHECK(js != NULL);
        char *end = js ? strstr(js, "</script>") : NULL;
        CHECK(end != NULL);
        if (js && end) {
            js += strlen(open);
            *end = '\0';
            /* "<\/" is how the page writes "</" */
            for (char *p = js; (p = strstr(p, "<\\/")) != NULL; p++)
                memmove(p + 1, p + 2, strlen(p + 2) + 1);
            cJSON *back = cJSON_Parse(js);
            CHECK(back != NULL);
            CHECK(cJSON_Compare(back, r, true));
            cJSON_Delete(back);
        }
        free(page);
        cJSON_Delete(r);
    }
}
