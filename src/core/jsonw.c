/* jsonw.c — the bot protocol's JSON writer: append-only, commas placed for the caller. */
#include "core/jsonw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* Room for n more bytes. */
static inline char *room(jsonw *w, size_t n)
{
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->len + n)
            cap *= 2;
        w->buf = xrealloc(w->buf, cap);
        w->cap = cap;
    }
    return w->buf + w->len;
}

void jw_append(jsonw *w, const char *s, size_t n)
{
    memcpy(room(w, n), s, n);
    w->len += n;
}

static inline void put(jsonw *w, char c)
{
    *room(w, 1) = c;
    w->len++;
}

/* The comma before a value or key, if one is due. */
static inline void sep(jsonw *w)
{
    if (w->comma)
        put(w, ',');
}

void jw_reset(jsonw *w)
{
    w->len = 0;
    w->comma = false;
}

void jw_free(jsonw *w)
{
    free(w->buf);
    *w = (jsonw){0};
}

void jw_obj(jsonw *w)
{
    sep(w);
    put(w, '{');
    w->comma = false;
}

void jw_obj_end(jsonw *w)
{
    put(w, '}');
    w->comma = true;
}

void jw_arr(jsonw *w)
{
    sep(w);
    put(w, '[');
    w->comma = false;
}

void jw_arr_end(jsonw *w)
{
    put(w, ']');
    w->comma = true;
}

void jw_key(jsonw *w, const char *key)
{
    sep(w);
    size_t n = strlen(key);
    char *p = room(w, n + 3);
    p[0] = '"';
    memcpy(p + 1, key, n);
    p[n + 1] = '"';
    p[n + 2] = ':';
    w->len += n + 3;
    w->comma = false;
}

void jw_uint(jsonw *w, uint64_t v)
{
    sep(w);
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    char *p = room(w, (size_t)n);
    for (int i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    w->len += (size_t)n;
    w->comma = true;
}

void jw_int(jsonw *w, int64_t v)
{
    if (v < 0) {
        sep(w);
        put(w, '-');
        w->comma = false;
        jw_uint(w, (uint64_t)0 - (uint64_t)v);
    } else {
        jw_uint(w, (uint64_t)v);
    }
}

void jw_key_int(jsonw *w, const char *key, int64_t v)
{
    jw_key(w, key);
    jw_int(w, v);
}

void jw_bool(jsonw *w, bool v)
{
    sep(w);
    jw_append(w, v ? "true" : "false", v ? 4 : 5);
    w->comma = true;
}

void jw_null(jsonw *w)
{
    sep(w);
    jw_append(w, "null", 4);
    w->comma = true;
}

void jw_str(jsonw *w, const char *s)
{
    sep(w);
    put(w, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            put(w, '\\');
            put(w, (char)*p);
        } else if (*p < 0x20) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04x", *p);
            jw_append(w, esc, 6);
        } else {
            put(w, (char)*p);
        }
    }
    put(w, '"');
    w->comma = true;
}

void jw_double(jsonw *w, double v)
{
    if (!isfinite(v)) {
        jw_null(w);
        return;
    }
    sep(w);
    char tmp[40];
    int n = snprintf(tmp, sizeof tmp, "%.17g", v);
    jw_append(w, tmp, (size_t)n);
    w->comma = true;
}

void jw_raw(jsonw *w, const char *json)
{
    sep(w);
    jw_append(w, json, strlen(json));
    w->comma = true;
}

void jw_ints(jsonw *w, const int *v, int n)
{
    jw_arr(w);
    for (int i = 0; i < n; i++)
        jw_int(w, v[i]);
    jw_arr_end(w);
}

void jw_bytes(jsonw *w, const uint8_t *v, int n)
{
    jw_arr(w);
    for (int i = 0; i < n; i++)
        jw_uint(w, v[i]);
    jw_arr_end(w);
}
