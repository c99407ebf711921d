/* textcols.c — aligned text tables laid out for a width: a label that wraps, notes that move
 * under their row, every other cell whole. */
#include "report/textcols.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* The narrowest a wrapped label gets: below this a label reads as a column of fragments. */
enum { MIN_LABEL = 24, GAP = 2, CONT = 2 };

struct textcols {
    char *align;
    int ncols, nrows, cap;
    char **cell; /* row r, column c at r * ncols + c */
};

size_t textcols_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

textcols *textcols_new(const char *align)
{
    textcols *t = xcalloc(1, sizeof *t);
    t->align = xmalloc(strlen(align) + 1);
    strcpy(t->align, align);
    t->ncols = (int)strlen(align);
    return t;
}

void textcols_row(textcols *t, const char *const *cells)
{
    if (t->nrows == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->cell = xrealloc(t->cell, (size_t)t->cap * (size_t)t->ncols * sizeof *t->cell);
    }
    for (int c = 0; c < t->ncols; c++) {
        const char *s = cells[c] ? cells[c] : "";
        char *copy = xmalloc(strlen(s) + 1);
        strcpy(copy, s);
        t->cell[t->nrows * t->ncols + c] = copy;
    }
    t->nrows++;
}

void textcols_free(textcols *t)
{
    if (t == NULL)
        return;
    for (int i = 0; i < t->nrows * t->ncols; i++)
        free(t->cell[i]);
    free(t->cell);
    free(t->align);
    free(t);
}

/* A line being built: text, then written without its trailing blanks. */
typedef struct {
    char *s;
    size_t len, cap, cols; /* bytes, capacity, characters */
} line_buf;

static void put(line_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = 2 * (b->len + n + 1);
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    for (size_t i = 0; i < n; i++)
        b->cols += ((unsigned char)s[i] & 0xC0) != 0x80;
}

/* Pads b with blanks up to column `col`. */
static void pad_to(line_buf *b, size_t col)
{
    while (b->cols < col)
        put(b, " ", 1);
}

static void flush(FILE *f, line_buf *b)
{
    size_t n = b->len;
    while (n > 0 && b->s[n - 1] == ' ')
        n--;
    fwrite(b->s, 1, n, f);
    fputc('\n', f);
    b->len = b->cols = 0;
    if (b->s)
        b->s[0] = '\0';
}

/* The byte length of the word that starts at s: a run of non-blanks, but an interval
 * "[lo, hi]" (a '[' with its ']' further on) is one word with its blanks, so that it is never
 * split across lines. */
static size_t word_len(const char *s)
{
    size_t i = 0;
    while (s[i] && s[i] != ' ') {
        if (s[i] == '[') {
            const char *close = strchr(s + i, ']');
            if (close) {
                i = (size_t)(close - s) + 1;
                continue;
            }
        }
        i++;
    }
    return i;
}

/* The widest word (word_len) of s, in characters. */
static size_t longest_word(const char *s)
{
    size_t best = 0;
    while (*s) {
        size_t n = word_len(s);
        size_t w = 0;
        for (size_t i = 0; i < n; i++)
            w += ((unsigned char)s[i] & 0xC0) != 0x80;
        best = w > best ? w : best;
        s += n;
        s += strspn(s, " ");
    }
    return best;
}

/* The byte length of the longest prefix of s, ending before a blank or at its end, of at most
 * `limit` characters (at least one word, however long); *next is where the rest starts. */
static size_t wrap_piece(const char *s, size_t limit, const char **next)
{
    size_t end = 0, cols = 0, i = 0;
    while (s[i]) {
        size_t n = word_len(s + i), w = 0;
        for (size_t k = 0; k < n; k++)
            w += ((unsigned char)s[i + k] & 0xC0) != 0x80;
        size_t at = cols + (end ? 1 : 0) + w;
        if (end && at > limit)
            break;
        cols = at;
        end = i + n;
        i = end + strspn(s + end, " ");
    }
    *next = s + i;
    return end;
}

/* Line width of columns [0, upto) but those skipped: indent, the columns, the gaps. */
static size_t line_width(const size_t *w, int n, size_t indent, const bool *skip)
{
    size_t total = indent, cols = 0;
    for (int c = 0; c < n; c++)
        if (w[c] > 0 && !skip[c]) {
            total += w[c];
            cols++;
        }
    return total + (cols > 1 ? GAP * (cols - 1) : 0);
}

void textcols_write(FILE *f, const textcols *t, size_t indent, size_t width)
{
    int nc = t->ncols, wc = -1, first_note = -1;
    size_t *w = xcalloc((size_t)nc + 1, sizeof *w), *at = xcalloc((size_t)nc + 1, sizeof *at);
    bool *skip = xcalloc((size_t)nc + 1, sizeof *skip);
    for (int c = 0; c < nc; c++) {
        if (t->align[c] == 'w' && wc < 0)
            wc = c;
        if (t->align[c] == 'n' && first_note < 0)
            first_note = c;
        for (int r = 0; r < t->nrows; r++) {
            size_t x = textcols_width(t->cell[r * nc + c]);
            w[c] = x > w[c] ? x : w[c];
        }
    }
    bool notes_below = false;
    if (wc >= 0 && line_width(w, nc, indent, skip) > width) {
        size_t floor = MIN_LABEL;
        for (int r = 0; r < t->nrows; r++) {
            size_t x = longest_word(t->cell[r * nc + wc]) + CONT;
            floor = x > floor ? x : floor;
        }
        if (floor > w[wc])
            floor = w[wc];
        size_t others = line_width(w, nc, indent, skip) - w[wc];
        if (first_note > 0 && others + floor > width) {
            for (int c = first_note; c < nc; c++)
                skip[c] = true;
            notes_below = true;
            others = line_width(w, nc, indent, skip) - w[wc];
        }
        size_t lw = others < width ? width - others : 0;
        if (lw < floor)
            lw = floor;
        if (lw < w[wc])
            w[wc] = lw;
    }
    /* where each column starts, and where moved notes go: under the column before them */
    size_t pos = indent, note_at = indent;
    for (int c = 0; c < nc; c++) {
        at[c] = pos;
        if (w[c] > 0 && !skip[c]) {
            pos += w[c] + GAP;
            if (c < first_note || first_note < 0)
                note_at = at[c];
        }
    }
    if (notes_below) { /* one column for every moved note, left enough for the widest */
        size_t wn = 0;
        for (int r = 0; r < t->nrows; r++) {
            size_t x = 0;
            for (int c = first_note; c < nc; c++)
                if (*t->cell[r * nc + c])
                    x += textcols_width(t->cell[r * nc + c]) + (x ? 2 : 0);
            wn = x > wn ? x : wn;
        }
        if (note_at + wn > width)
            note_at = width > wn + indent + CONT ? width - wn : indent + CONT;
    }
    line_buf b = {0};
    for (int r = 0; r < t->nrows; r++) {
        char *const *cell = t->cell + r * nc;
        const char *rest = wc >= 0 ? cell[wc] : "";
        int last = -1;
        for (int c = 0; c < nc; c++)
            if (*cell[c] && !skip[c])
                last = c;
        pad_to(&b, indent);
        for (int c = 0; c <= last; c++) {
            if (w[c] == 0 || skip[c])
                continue;
            pad_to(&b, at[c]);
            if (c == wc) {
                const char *next;
                size_t n = wrap_piece(rest, w[c], &next);
                put(&b, rest, n);
                rest = next;
                continue;
            }
            size_t cw = textcols_width(cell[c]);
            if (t->align[c] == 'r')
                pad_to(&b, at[c] + (w[c] > cw ? w[c] - cw : 0));
            put(&b, cell[c], strlen(cell[c]));
        }
        flush(f, &b);
        /* the label's further lines, and the moved notes on the first of them */
        char note[512] = "";
        size_t nl = 0;
        for (int c = first_note; notes_below && c >= 0 && c < nc; c++)
            if (*cell[c] && nl < sizeof note)
                nl += (size_t)snprintf(note + nl, sizeof note - nl, "%s%s", nl ? "; " : "",
                                       cell[c]);
        while (*rest || *note) {
            if (*rest) {
                const char *next;
                pad_to(&b, at[wc] + CONT);
                size_t n = wrap_piece(rest, w[wc] - CONT, &next);
                put(&b, rest, n);
                rest = next;
            }
            if (*note) {
                /* under the column before the notes, or left of it to end by the width */
                size_t col = note_at;
                if (b.cols > 0 && b.cols + GAP > col) {
                    flush(f, &b); /* no room beside the label's piece: a line of its own */
                    continue;
                }
                pad_to(&b, col);
                put(&b, note, strlen(note));
                note[0] = '\0';
            }
            flush(f, &b);
        }
    }
    free(b.s);
    free(w);
    free(at);
    free(skip);
}

void textcols_hang(FILE *f, const char *text, size_t indent, size_t more, size_t width)
{
    text += strspn(text, " ");
    for (size_t in = indent; *text; in = indent + more) {
        size_t room = width > in ? width - in : 1;
        const char *next;
        size_t n = wrap_piece(text, room, &next);
        fprintf(f, "%*s%.*s\n", (int)in, "", (int)n, text);
        text = next;
    }
}

void textcols_para(FILE *f, const char *text, size_t indent, size_t width)
{
    textcols_hang(f, text, indent, 0, width);
}
