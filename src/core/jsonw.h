/* jsonw.h — a small append-only JSON writer for the hot messages of the bot protocol. */
#ifndef GIOCHI_JSONW_H
#define GIOCHI_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growing buffer of JSON text. Commas are placed by the writer: begin an object or an
 * array, then write keys and values in order, then end it. Nothing is checked beyond that
 * (a key outside an object is the caller's mistake). Zero-initialise, or jw_reset. */
typedef struct jsonw {
    char *buf;
    size_t len, cap;
    bool comma; /* the next key or value needs a comma before it */
} jsonw;

/* Empties w, keeping its memory. */
void jw_reset(jsonw *w);
/* Frees w's memory. */
void jw_free(jsonw *w);

void jw_obj(jsonw *w);     /* { */
void jw_obj_end(jsonw *w); /* } */
void jw_arr(jsonw *w);     /* [ */
void jw_arr_end(jsonw *w); /* ] */
/* A key of the enclosing object; the next call writes its value. key is plain ASCII that
 * needs no escape (the writer does not escape keys). */
void jw_key(jsonw *w, const char *key);
void jw_int(jsonw *w, int64_t v);
/* A key of the enclosing object and its integer value: jw_key, then jw_int. */
void jw_key_int(jsonw *w, const char *key, int64_t v);
void jw_uint(jsonw *w, uint64_t v);
void jw_bool(jsonw *w, bool v);
void jw_null(jsonw *w);
/* A string value, escaped as JSON requires (quotes, backslashes, control characters). */
void jw_str(jsonw *w, const char *s);
/* A number written with all the digits that give back the same double (17 significant). */
void jw_double(jsonw *w, double v);
/* Text that is already one JSON value (a ruleset printed by cJSON). */
void jw_raw(jsonw *w, const char *json);
/* An array of n integers. */
void jw_ints(jsonw *w, const int *v, int n);
void jw_bytes(jsonw *w, const uint8_t *v, int n); /* ... of n small counts */

/* Appends n raw bytes (no comma logic): for the newline that ends a message. */
void jw_append(jsonw *w, const char *s, size_t n);

#endif
