/* test_jsoncheck.c — strict JSON checking of rulesets (issue 15 items 6-9). */
#include <string.h>

#include "check.h"
#include "config/jsoncheck.h"

static jsoncheck_result chk(const char *text, char *err)
{
    err[0] = '\0';
    return jsoncheck_text(text, "t.json", err, 512);
}

TEST(jsoncheck_numbers_exactly_as_json_writes_them)
{
    static const char *const good[] = {"0", "-0", "7", "-12", "1.5", "0.25", "1e3", "1E+3",
                                       "2.5e-7", "-0.0e0"};
    static const char *const bad[] = {"01", "1.", ".5", "+1", "0x10", "0x1p4", "1e", "1e+",
                                      "--1", "-", "1.e3", " 16", "inf", "NaN"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        CHECK_INT((int)jsoncheck_number(good[i]), (int)strlen(good[i]));
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK(jsoncheck_number(bad[i]) != strlen(bad[i]));
    char err[512];
    CHECK_INT(chk("{\"a\": [1, 2.5, -3e2, 0]}", err), JSONCHECK_OK);
    CHECK_INT(chk("{\"limit\": 01}", err), JSONCHECK_MALFORMED);
    CHECK_STR(err, "t.json: ruleset key 'limit': '01' is not a JSON number (digits with no "
                   "leading zero, then an optional .DIGITS and e[+-]DIGITS) (line 1, column 11)");
    CHECK_INT(chk("{\"b\": [{\"x\": 1.}]}", err), JSONCHECK_MALFORMED);
    CHECK(strstr(err, "ruleset key 'b[0].x': '1.' is not a JSON number") != NULL);
    CHECK_INT(chk("[0x10]", err), JSONCHECK_MALFORMED);
    CHECK(strstr(err, "ruleset key '[0]': '0x10'") != NULL);
}

TEST(jsoncheck_strings_valid_utf8_without_nul)
{
    char err[512];
    CHECK_INT(chk("{\"n\": \"caf\xc3\xa9 \\u00e9 \\ud83d\\ude00\"}", err), JSONCHECK_OK);
    CHECK_INT(chk("{\"n\": [\"ok\", \"a\xff\"]}", err), JSONCHECK_REFUSED);
    CHECK(strstr(err, "ruleset key 'n[1]': a string is not valid UTF-8 (line 1, column 16)"));
    CHECK_INT(chk("{\"n\": \"\\u0000abc\"}", err), JSONCHECK_REFUSED);
    CHECK(strstr(err, "ruleset key 'n': a string holds \\u0000"));
    CHECK_INT(chk("{\"n\": \"\\ud800x\"}", err), JSONCHECK_REFUSED);
    CHECK_INT(chk("{\"n\": \"\\udc00\"}", err), JSONCHECK_REFUSED);
    CHECK_INT(chk("{\"n\": \"\xc0\xaf\"}", err), JSONCHECK_REFUSED);     /* overlong '/' */
    CHECK_INT(chk("{\"n\": \"\xed\xa0\x80\"}", err), JSONCHECK_REFUSED); /* a surrogate */
    CHECK_INT(chk("{\"n\": \"\xf4\x90\x80\x80\"}", err), JSONCHECK_REFUSED); /* > U+10FFFF */
    CHECK_INT(chk("{\"a\xff\": 1}", err), JSONCHECK_REFUSED);
    CHECK(strstr(err, "t.json: a key is not valid UTF-8") != NULL);
    CHECK_INT(chk("{\"n\": \"tab\there\"}", err), JSONCHECK_MALFORMED); /* raw control */
    CHECK(jsoncheck_utf8("plain \xc3\xa9", 8));
    CHECK(!jsoncheck_utf8("a\xe2\x82", 3)); /* cut short */
}

TEST(jsoncheck_bounds_depth_and_size_and_says_the_limit)
{
    char err[512];
    static char text[4 * JSONCHECK_MAX_VALUES + 64];
    size_t n = 0;
    for (int i = 0; i < JSONCHECK_MAX_DEPTH; i++)
        text[n++] = '[';
    for (int i = 0; i < JSONCHECK_MAX_DEPTH; i++)
        text[n++] = ']';
    text[n] = '\0';
    CHECK_INT(chk(text, err), JSONCHECK_OK);
    memmove(text + 1, text, n + 1);
    text[0] = '[';
    strcat(text, "]");
    CHECK_INT(chk(text, err), JSONCHECK_REFUSED);
    CHECK_STR(err, "t.json: arrays and objects nested deeper than 64 levels (the limit) at "
                   "line 1, column 65");
    /* an array of JSONCHECK_MAX_VALUES - 1 elements is one value short of the limit */
    n = 0;
    text[n++] = '[';
    for (int i = 0; i < JSONCHECK_MAX_VALUES - 1; i++) {
        text[n++] = '0';
        text[n++] = ',';
    }
    text[n - 1] = ']';
    text[n] = '\0';
    CHECK_INT(chk(text, err), JSONCHECK_OK);
    memcpy(text + n - 1, ",0]", 4);
    CHECK_INT(chk(text, err), JSONCHECK_REFUSED);
    CHECK(strstr(err, "more than 100000 values (the limit for a ruleset)") != NULL);
}

TEST(jsoncheck_malformed_reports_line_and_column)
{
    char err[512];
    CHECK_INT(chk("{\n  \"a\": 1,,\n}", err), JSONCHECK_MALFORMED);
    CHECK_STR(err, "t.json: malformed JSON at line 2, column 10");
    CHECK_INT(chk("{} x", err), JSONCHECK_MALFORMED);
    CHECK_INT(chk("\"open", err), JSONCHECK_MALFORMED);
    CHECK_INT(chk("", err), JSONCHECK_MALFORMED);
    CHECK_INT(chk(" true ", err), JSONCHECK_OK);
}
