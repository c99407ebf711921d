/* test_textcols.c — the text table layout: natural widths when they fit, a label wrapped at
 * blanks and notes moved under the row when they do not, cells never cut, widths in characters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/textcols.h"

/* The table t written at `width` into a fresh string (the caller frees it). */
static char *render(const textcols *t, size_t width)
{
    FILE *m = tmpfile();
    textcols_write(m, t, 2, width);
    long n = ftell(m);
    rewind(m);
    char *s = calloc((size_t)n + 1, 1);
    if (fread(s, 1, (size_t)n, m) != (size_t)n)
        s[0] = '\0';
    fclose(m);
    return s;
}

/* The widest line of s, in characters, and the number of lines. */
static size_t widest(const char *s, int *lines)
{
    size_t best = 0, w = 0;
    *lines = 0;
    for (; *s; s++) {
        if (*s == '\n') {
            best = w > best ? w : best;
            w = 0;
            ++*lines;
        } else {
            w += ((unsigned char)*s & 0xC0) != 0x80;
        }
    }
    return best;
}

TEST(textcols_width_counts_characters)
{
    CHECK_INT(textcols_width("abc"), 3);
    CHECK_INT(textcols_width("—"), 1);      /* three bytes, one column */
    CHECK_INT(textcols_width("città é"), 7);
    CHECK_INT(textcols_width(""), 0);
}

TEST(textcols_natural_widths_when_they_fit)
{
    textcols *t = textcols_new("wrlln");
    const char *a[5] = {"game length", "69.74", "turns", "[68.97, 70.50]", ""};
    const char *b[5] = {"first banker went bankrupt", "4.30%", "", "[3.50, 5.28]", "n = 12"};
    textcols_row(t, a);
    textcols_row(t, b);
    char *s = render(t, 80);
    CHECK_STR(s, "  game length                 69.74  turns  [68.97, 70.50]\n"
                 "  first banker went bankrupt  4.30%         [3.50, 5.28]    n = 12\n");
    free(s);
    textcols_free(t);
}

TEST(textcols_wraps_the_label_and_keeps_intervals_whole)
{
    textcols *t = textcols_new("wrll");
    const char *a[4] = {"postcards cancelling one's own negative square, per game", "2.041", "",
                        "[1.997, 2.084]"};
    const char *b[4] = {"jollies used per game", "2.201", "", "[2.170, 2.233]"};
    textcols_row(t, a);
    textcols_row(t, b);
    char *s = render(t, 50);
    int lines;
    CHECK(widest(s, &lines) <= 50);
    CHECK(lines > 2);                              /* the long label took more than one line */
    CHECK(strstr(s, "[1.997, 2.084]\n") != NULL); /* the interval whole, on the first line */
    CHECK(strstr(s, "  postcards cancelling") == s);
    CHECK(strstr(s, "\n    ") != NULL); /* the continuation indented two more */
    /* every word of the label is still there, in order */
    const char *p = s;
    const char *words[] = {"postcards", "cancelling", "one's", "own", "negative", "square,",
                           "per", "game"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        const char *q = strstr(p, words[i]);
        CHECK(q != NULL);
        if (q)
            p = q + strlen(words[i]);
    }
    free(s);
    textcols_free(t);
}

TEST(textcols_moves_notes_under_the_row_rather_than_squeeze_the_label)
{
    textcols *t = textcols_new("wrlln");
    const char *a[5] = {"turns that shut the box", "4.88%", "", "[4.51, 5.27]",
                        "n = 12570; exact 4.9507%"};
    textcols_row(t, a);
    char *s = render(t, 50);
    int lines;
    CHECK(widest(s, &lines) <= 50);
    CHECK_INT(lines, 2);
    CHECK(strstr(s, "turns that shut the box") != NULL); /* 23 characters: not wrapped */
    CHECK(strstr(s, "n = 12570; exact 4.9507%\n") != NULL);
    const char *nl = strchr(s, '\n'), *note = strstr(s, "n = 12570");
    CHECK(nl != NULL && note != NULL && nl - s < note - s); /* on the second line */
    free(s);
    textcols_free(t);
}

TEST(textcols_never_cuts_a_cell_too_wide_for_the_width)
{
    textcols *t = textcols_new("wl");
    const char *a[2] = {"a_label_with_no_blank_at_all_that_is_long", "[123456.7, 234567.8]"};
    textcols_row(t, a);
    char *s = render(t, 30);
    CHECK(strstr(s, "a_label_with_no_blank_at_all_that_is_long") != NULL);
    CHECK(strstr(s, "[123456.7, 234567.8]") != NULL);
    free(s);
    textcols_free(t);
}

TEST(textcols_para_breaks_prose_at_blanks)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    textcols_para(m, "one two three four five six seven", 0, 14);
    fclose(m);
    CHECK_STR(buf, "one two three\nfour five six\nseven\n");
    free(buf);
}

TEST(textcols_para_keeps_an_interval_whole_and_hangs_its_lines)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    /* the break would fall inside "[12.01, 12.67]": the interval goes whole to the next line */
    textcols_para(m, "share 12.34% [12.01, 12.67] seen", 0, 20);
    /* the lines a hanging paragraph wraps onto start `more` further in */
    textcols_hang(m, "aa bb cc dd ee", 1, 2, 8);
    /* a '[' without its ']' is an ordinary word */
    textcols_para(m, "x [y z", 0, 4);
    fclose(m);
    CHECK_STR(buf, "share 12.34%\n[12.01, 12.67] seen\n aa bb\n   cc dd\n   ee\nx [y\nz\n");
    free(buf);
}

TEST(textcols_wraps_a_label_but_never_inside_its_interval)
{
    textcols *t = textcols_new("wr");
    const char *row[2] = {"a label with words [1.00, 2.00] inside", "9.99"};
    textcols_row(t, row);
    char *s = render(t, 34);
    int lines;
    CHECK(widest(s, &lines) <= 34);
    CHECK(strstr(s, "[1.00, 2.00]") != NULL);
    CHECK(lines == 2); /* "a label with words", then the interval and "inside" */
    free(s);
    textcols_free(t);
}
