/* jsoncheck.h — strict JSON (RFC 8259) checking of ruleset text before cJSON parses it: number
 * syntax, UTF-8, no NUL, bounded nesting and size, every error naming the key it is under. */
#ifndef GIOCHI_JSONCHECK_H
#define GIOCHI_JSONCHECK_H

#include <stdbool.h>
#include <stddef.h>

enum {
    JSONCHECK_MAX_DEPTH = 64,      /* arrays and objects nested in one another */
    JSONCHECK_MAX_VALUES = 100000, /* values in one text (each costs a cJSON node) */
};

/* What jsoncheck_text found. */
typedef enum jsoncheck_result {
    JSONCHECK_OK = 0,
    JSONCHECK_MALFORMED, /* not JSON: a syntax error, a number JSON does not allow (01, 1.,
                            0x10, +1, .5), a raw control character in a string */
    JSONCHECK_REFUSED,   /* JSON, but not a ruleset's: invalid UTF-8, a \u0000 escape or a
                            lone surrogate in a string or key, nesting deeper than
                            JSONCHECK_MAX_DEPTH, more than JSONCHECK_MAX_VALUES values */
} jsoncheck_result;

/* Checks that the NUL-terminated text is one strict JSON value (surrounded by whitespace
 * only) that a ruleset may hold. Reads the text once, allocates nothing, so that a file is
 * refused before any tree is built. On failure writes one line into err: "WHAT: ..." naming
 * the key the fault is under ("ruleset key 'board[3].name'") and its line and column. */
jsoncheck_result jsoncheck_text(const char *text, const char *what, char *err, size_t errlen);

/* Length of the JSON number (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?) that starts at s,
 * or 0 if s does not start with one. The one number syntax of rulesets and bot parameters. */
size_t jsoncheck_number(const char *s);

/* Length of the valid UTF-8 sequence (no overlong form, no surrogate, nothing above U+10FFFF)
 * that starts at s (n bytes available), or 0 if s[0] does not start one. */
size_t jsoncheck_utf8_char(const unsigned char *s, size_t n);

/* True if the n bytes at s are valid UTF-8 throughout. */
bool jsoncheck_utf8(const char *s, size_t n);

#endif
