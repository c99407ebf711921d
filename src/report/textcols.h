/* textcols.h — aligned text tables that fit a terminal: columns as wide as their widest cell,
 * and when that is too wide, a label column that wraps at blanks and notes moved under the row;
 * no other cell (a value, an interval) is ever split, nor an interval inside a label or prose.
 * Widths count characters, not bytes. */
#ifndef GIOCHI_REPORT_TEXTCOLS_H
#define GIOCHI_REPORT_TEXTCOLS_H

#include <stddef.h>
#include <stdio.h>

/* The width every text table of giochi-sim is laid out for: an 80-column terminal. */
#define TEXTCOLS_WIDTH 80

/* The display width of UTF-8 text s: one column per character (the letters, dashes and signs
 * of the reports are all one column wide). */
size_t textcols_width(const char *s);

typedef struct textcols textcols;

/* A new empty table of strlen(align) columns, one letter each: 'l' left-aligned, 'r'
 * right-aligned, 'w' left-aligned and wrappable (a label: at most one such column), 'n' a
 * note (left-aligned; notes are the last columns). The caller frees it with textcols_free. */
textcols *textcols_new(const char *align);

/* Appends a row of the table's number of cells (copied; NULL is an empty cell). */
void textcols_row(textcols *t, const char *const *cells);

/* Writes the rows, each line starting with `indent` blanks, none ending in a blank. Each
 * column takes the width of its widest cell and two blanks separate columns; a column empty in
 * every row takes no room. When a line would pass `width` characters: first the wrappable
 * column narrows to what is left (never below 24 characters, nor below its longest word), its
 * cells wrapping at blanks onto lines of their own indented two more; if it would have to go
 * below 24 with the notes beside it, the notes leave the row for its second line, under the
 * column before them. A table with no wrappable column, or whose other cells are too wide
 * alone, is written at its natural width: a cell is never cut. */
void textcols_write(FILE *f, const textcols *t, size_t indent, size_t width);

void textcols_free(textcols *t);

/* Writes prose text as lines of at most `width` characters, each starting with `indent`
 * blanks, broken at blanks (a word longer than a line stays whole on its own line; an
 * interval "[lo, hi]" is one word). */
void textcols_para(FILE *f, const char *text, size_t indent, size_t width);

/* textcols_para with a hanging indent: the first line starts with `indent` blanks, the lines
 * it wraps onto with `indent` + `more`. */
void textcols_hang(FILE *f, const char *text, size_t indent, size_t more, size_t width);

#endif
