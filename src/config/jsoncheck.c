/* jsoncheck.c — a strict, non-allocating JSON checker for rulesets, naming the key at fault. */
#include "config/jsoncheck.h"

#include <stdio.h>
#include <string.h>

/* One level of the path to the value being read: a member of an object (its key, as written
 * between the quotes) or an element of an array (its index). */
typedef struct frame {
    const char *key; /* NULL: an array element */
    size_t keylen;
    long index;
} frame;

typedef struct checker {
    const char *text, *p;
    const char *what;
    frame path[JSONCHECK_MAX_DEPTH + 1];
    int depth;
    long values;
    char *err;
    size_t errlen;
} checker;

size_t jsoncheck_utf8_char(const unsigned char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned cp, min;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2, cp = c & 0x1f, min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3, cp = c & 0x0f, min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4, cp = c & 0x07, min = 0x10000;
    } else {
        return 0; /* a continuation byte, or a lead byte of an overlong or too large form */
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

bool jsoncheck_utf8(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = jsoncheck_utf8_char(u + i, n - i);
        if (k == 0)
            return false;
        i += k;
    }
    return true;
}

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

size_t jsoncheck_number(const char *s)
{
    const char *p = s;
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (digit(*p))
        while (digit(*p))
            p++;
    else
        return 0;
    if (*p == '.') {
        if (!digit(p[1]))
            return 0;
        p++;
        while (digit(*p))
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (!digit(*q))
            return 0;
        while (digit(*q))
            q++;
        p = q;
    }
    return (size_t)(p - s);
}

/* Writes the path of the value being read ("board[3].name") into buf. */
static void path_text(const checker *c, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < c->depth && used < n; i++) {
        const frame *f = &c->path[i];
        int k;
        if (f->key != NULL)
            k = snprintf(buf + used, n - used, "%s%.*s", used ? "." : "",
                         (int)(f->keylen > 60 ? 60 : f->keylen), f->key);
        else
            k = snprintf(buf + used, n - used, "[%ld]", f->index);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

/* Line and column (1-based) of position at in the text. */
static void position(const checker *c, const char *at, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (const char *p = c->text; p < at && *p; p++) {
        if (*p == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* Fails with "WHAT: malformed JSON at line L, column C" for the character at `at`. */
static jsoncheck_result malformed(checker *c, const char *at)
{
    int line, col;
    position(c, at, &line, &col);
    snprintf(c->err, c->errlen, "%s: malformed JSON at line %d, column %d", c->what, line, col);
    return JSONCHECK_MALFORMED;
}

/* Fails naming the key being read: "WHAT: ruleset key 'K': MSG (line L, column C)". */
static jsoncheck_result at_key(checker *c, jsoncheck_result kind, const char *at, const char *msg)
{
    char path[256];
    int line, col;
    path_text(c, path, sizeof path);
    position(c, at, &line, &col);
    if (path[0])
        snprintf(c->err, c->errlen, "%s: ruleset key '%s': %s (line %d, column %d)", c->what,
                 path, msg, line, col);
    else
        snprintf(c->err, c->errlen, "%s: %s (line %d, column %d)", c->what, msg, line, col);
    return kind;
}

static void skip_space(checker *c)
{
    while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
        c->p++;
}

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char h = s[i];
        int d = digit(h) ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                   : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Reads a string at c->p (on its opening quote); is_key: it names a member. */
static jsoncheck_result string(checker *c, bool is_key)
{
    const char *start = c->p++;
    const char *what = is_key ? "a key" : "a string";
    char msg[128];
    for (;;) {
        unsigned char ch = (unsigned char)*c->p;
        if (ch == '"') {
            c->p++;
            return JSONCHECK_OK;
        }
        if (ch == '\0')
            return malformed(c, start);
        if (ch < 0x20)
            return malformed(c, c->p); /* a raw control character: JSON wants it escaped */
        if (ch == '\\') {
            char e = c->p[1];
            if (e == 'u') {
                int u = hex4(c->p + 2);
                if (u < 0)
                    return malformed(c, c->p);
                if (u == 0) {
                    snprintf(msg, sizeof msg, "%s holds \\u0000, which would cut it short", what);
                    return at_key(c, JSONCHECK_REFUSED, c->p, msg);
                }
                if (u >= 0xdc00 && u <= 0xdfff) {
                    snprintf(msg, sizeof msg, "%s holds a lone surrogate \\u%04x", what, u);
                    return at_key(c, JSONCHECK_REFUSED, c->p, msg);
                }
                if (u >= 0xd800 && u <= 0xdbff) {
                    int lo = c->p[6] == '\\' && c->p[7] == 'u' ? hex4(c->p + 8) : -1;
                    if (lo < 0xdc00 || lo > 0xdfff) {
                        snprintf(msg, sizeof msg, "%s holds a lone surrogate \\u%04x", what, u);
                        return at_key(c, JSONCHECK_REFUSED, c->p, msg);
                    }
                    c->p += 6;
                }
                c->p += 6;
            } else if (e && strchr("\"\\/bfnrt", e)) {
                c->p += 2;
            } else {
                return malformed(c, c->p);
            }
            continue;
        }
        size_t k = jsoncheck_utf8_char((const unsigned char *)c->p, strnlen(c->p, 4));
        if (k == 0) {
            snprintf(msg, sizeof msg, "%s is not valid UTF-8", what);
            return at_key(c, JSONCHECK_REFUSED, c->p, msg);
        }
        c->p += k;
    }
}

static jsoncheck_result value(checker *c);

/* Reads an array or an object at c->p (on its opening bracket). */
static jsoncheck_result container(checker *c)
{
    bool object = *c->p == '{';
    char close = object ? '}' : ']';
    if (c->depth == JSONCHECK_MAX_DEPTH) {
        int line, col;
        position(c, c->p, &line, &col);
        snprintf(c->err, c->errlen,
                 "%s: arrays and objects nested deeper than %d levels (the limit) at line %d, "
                 "column %d", c->what, JSONCHECK_MAX_DEPTH, line, col);
        return JSONCHECK_REFUSED;
    }
    c->p++;
    skip_space(c);
    if (*c->p == close) {
        c->p++;
        return JSONCHECK_OK;
    }
    frame *f = &c->path[c->depth++];
    f->key = NULL;
    f->index = 0;
    for (;;) {
        if (object) {
            if (*c->p != '"')
                return malformed(c, c->p);
            f->key = NULL; /* the key's own faults are reported at the object */
            c->depth--;
            const char *k = c->p + 1;
            jsoncheck_result r = string(c, true);
            c->depth++;
            if (r != JSONCHECK_OK)
                return r;
            f->key = k;
            f->keylen = (size_t)(c->p - 1 - k);
            skip_space(c);
            if (*c->p != ':')
                return malformed(c, c->p);
            c->p++;
        }
        jsoncheck_result r = value(c);
        if (r != JSONCHECK_OK)
            return r;
        skip_space(c);
        if (*c->p == ',') {
            c->p++;
            skip_space(c);
            f->index++;
            continue;
        }
        if (*c->p != close)
            return malformed(c, c->p);
        c->p++;
        c->depth--;
        return JSONCHECK_OK;
    }
}

static jsoncheck_result value(checker *c)
{
    skip_space(c);
    if (++c->values > JSONCHECK_MAX_VALUES) {
        char msg[96];
        snprintf(msg, sizeof msg, "more than %d values (the limit for a ruleset)",
                 JSONCHECK_MAX_VALUES);
        return at_key(c, JSONCHECK_REFUSED, c->p, msg);
    }
    char ch = *c->p;
    if (ch == '{' || ch == '[')
        return container(c);
    if (ch == '"')
        return string(c, false);
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++)
        if (strncmp(c->p, words[i], strlen(words[i])) == 0) {
            c->p += strlen(words[i]);
            return JSONCHECK_OK;
        }
    if (ch == '-' || ch == '+' || ch == '.' || digit(ch)) {
        size_t n = jsoncheck_number(c->p);
        /* the whole token as a reader would take it: 01, 1., 0x10, 1e5.5 */
        size_t tok = 0;
        while (c->p[tok] && (strchr("+-.eExXpP", c->p[tok]) || digit(c->p[tok]) ||
                             (c->p[tok] >= 'a' && c->p[tok] <= 'f') ||
                             (c->p[tok] >= 'A' && c->p[tok] <= 'F')))
            tok++;
        if (n == 0 || n != tok) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "'%.*s' is not a JSON number (digits with no leading zero, then an "
                     "optional .DIGITS and e[+-]DIGITS)",
                     (int)(tok > 40 ? 40 : tok), c->p);
            return at_key(c, JSONCHECK_MALFORMED, c->p, msg);
        }
        c->p += n;
        return JSONCHECK_OK;
    }
    return malformed(c, c->p);
}

jsoncheck_result jsoncheck_text(const char *text, const char *what, char *err, size_t errlen)
{
    checker c = {.text = text, .p = text, .what = what, .err = err, .errlen = errlen};
    jsoncheck_result r = value(&c);
    if (r != JSONCHECK_OK)
        return r;
    skip_space(&c);
    return *c.p == '\0' ? JSONCHECK_OK : malformed(&c, c.p);
}
