/* csv_decimal.c — the comma-decimal CSV stream: a character state machine over fopencookie. */
#define _GNU_SOURCE /* fopencookie */
#include "report/csv_decimal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { FIELD_MAX = 4096 };

typedef struct conv {
    FILE *out;
    bool quoted;            /* inside a quoted field */
    bool failed;            /* a write into out failed */
    size_t n;               /* bytes of the unquoted field so far */
    char field[FIELD_MAX];  /* the unquoted field being read */
} conv;

/* True if s[0..n) is a number as the CSV writers print them (numfmt: -12, 0.25, 1e-05). */
static bool is_number(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        i++;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        digits++;
    if (i < n && s[i] == '.')
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            digits++;
    if (digits == 0)
        return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            i++;
        size_t e = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == e)
            return false;
    }
    return i == n;
}

static void put(conv *c, const char *s, size_t n)
{
    if (n && fwrite(s, 1, n, c->out) != n)
        c->failed = true;
}

/* Writes the unquoted field read so far, converted, and starts the next. */
static void flush_field(conv *c)
{
    if (is_number(c->field, c->n)) {
        for (size_t i = 0; i < c->n; i++)
            if (c->field[i] == '.')
                c->field[i] = ',';
        put(c, c->field, c->n);
    } else if (memchr(c->field, ';', c->n)) {
        put(c, "\"", 1);
        for (size_t i = 0; i < c->n; i++)
            put(c, c->field[i] == '"' ? "\"\"" : &c->field[i], c->field[i] == '"' ? 2 : 1);
        put(c, "\"", 1);
    } else {
        put(c, c->field, c->n);
    }
    c->n = 0;
}

static ssize_t conv_write(void *cookie, const char *buf, size_t size)
{
    conv *c = cookie;
    for (size_t i = 0; i < size; i++) {
        char ch = buf[i];
        if (c->quoted) { /* "" inside quotes toggles twice: the field stays quoted */
            if (ch == '"')
                c->quoted = false;
            put(c, &ch, 1);
        } else if (ch == ',' || ch == '\n') {
            flush_field(c);
            put(c, ch == ',' ? ";" : "\n", 1);
        } else if (ch == '"') {
            flush_field(c); /* nothing: a quote opens a field */
            c->quoted = true;
            put(c, &ch, 1);
        } else if (c->n < FIELD_MAX) {
            c->field[c->n++] = ch;
        } else { /* a field this long is no number: let it through as it is */
            put(c, c->field, c->n);
            c->n = 0;
            c->field[c->n++] = ch;
        }
    }
    return c->failed ? -1 : (ssize_t)size;
}

static int conv_close(void *cookie)
{
    conv *c = cookie;
    flush_field(c);
    bool failed = c->failed || fflush(c->out) != 0;
    free(c);
    return failed ? -1 : 0;
}

FILE *csv_decimal_open(FILE *out)
{
    conv *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->out = out;
    FILE *f = fopencookie(c, "w", (cookie_io_functions_t){.write = conv_write,
                                                          .close = conv_close});
    if (f == NULL)
        free(c);
    return f;
}
