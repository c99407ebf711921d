/* rules.h — rulesets as JSON: merging --config files and --set overrides, and the typed
 * readers every game's rules_load uses, so that every bad key is reported the same way. */
#ifndef GIOCHI_RULES_H
#define GIOCHI_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/* Parses JSON text. Returns a new tree (caller frees with cJSON_Delete) or NULL with a one-line
 * message naming `what` (a file name) and the position of the error in err. The text must be
 * strict JSON within the limits of jsoncheck.h (numbers as JSON writes them, valid UTF-8, no
 * \u0000, bounded nesting and size: checked before any tree is built); a key given twice in
 * one object is an error too. */
cJSON *rules_parse(const char *text, const char *what, char *err, size_t errlen);

/* Reads a whole file into a new NUL-terminated buffer (caller frees). NULL and a one-line
 * message in err if it cannot be read or is larger than 16 MiB. Path "-" is standard input,
 * read to its end on the first call and kept: every later call returns the same text. */
char *rules_read_file(const char *path, char *err, size_t errlen);

/* Merges overlay into base, in place: objects are merged key by key, recursively; any other
 * value (array, number, string, bool) replaces the base value whole. Keys missing from base
 * are added as they are, so that the game's loader reports them as unknown. Does not take
 * ownership of overlay. Returns 0. */
int rules_merge(cJSON *base, const cJSON *overlay);

/* Applies one --set assignment "path=value" to root, a ruleset of game g. path is
 * dot-separated object keys, and array elements by the number game g gives them
 * (rules_first_number): from 1, as the reports number squares, seats and pits (board.13.amount
 * is square 13's; board.0 is no element), or from 0 for an array indexed by a value that
 * starts at 0 (pig10's deck.0, the frogs). g NULL: every array from 1. value is read as JSON if it is strict
 * JSON (40, true, [1,2], "text"), otherwise as a plain string (so 01 and 0x10 are strings,
 * which a numeric key then refuses by name). Returns 0, or -1 with a message: also for JSON
 * that rules_parse refuses (a \u0000, invalid UTF-8, too deep) and a plain string that is
 * not valid UTF-8. */
struct game_type;
int rules_set(const struct game_type *g, cJSON *root, const char *assignment, char *err,
              size_t errlen);

/* Builds the effective ruleset of game g: its built-in default, merged with the JSON object
 * in file config (if not NULL), then each of the nsets "--set" assignments in order; then
 * loads it with g->rules_load. Returns the loaded rules (malloc'ed, g->rules_size bytes;
 * caller frees) and the effective JSON in *json (caller frees with cJSON_Delete), or NULL
 * with a one-line message (and nothing to free). */
void *rules_effective(const struct game_type *g, const char *config, const char *const *sets,
                      int nsets, cJSON **json, char *err, size_t errlen);

/* As rules_effective, with nconfigs ruleset files (none if 0) merged over the default one
 * after the other, in order: a later file's value replaces an earlier one's. */
void *rules_effective_files(const struct game_type *g, const char *const *configs, int nconfigs,
                            const char *const *sets, int nsets, cJSON **json, char *err,
                            size_t errlen);
/* Remembers, as text, the effective ruleset `json` that `rules` (a loaded struct) was loaded
 * from, for those that must pass it on as JSON (bots outside the process: src/bots/program.c
 * reads it back with ruletext_recall, core/ruletext.h). rules_effective_files does it for what
 * it loads; whoever calls a game's rules_load itself calls this after. A later call for the
 * same address replaces the text. Thread-safe. */
void rules_remember(const void *rules, const cJSON *json);

/* The differences of game g's ruleset `effective` from `base`, as a new array of strings
 * "path=value" (dotted paths as --set takes them: board.13.amount for square 13; objects and
 * arrays of objects are compared member by member, any other value whole), in the order of
 * effective's keys. Keys
 * of base missing from effective are not listed (a loaded ruleset has every key). The caller
 * frees the array (cJSON_Delete). */
cJSON *rules_changes(const struct game_type *g, const cJSON *base, const cJSON *effective);

/* ---- typed readers for rules_load ----------------------------------------------------
 * Each reads member `key` of object obj. `path` is the path of obj for messages, dotted as
 * --set takes it ("" at the top, "board.13" inside: elements counted from 1). Each returns 0,
 * or -1 with a one-line message naming the full key: "ruleset key 'board.13.amount': expected
 * an integer in -1000..1000". */

/* Fails if obj is not an object or has a member not listed in keys (NULL-terminated). */
int rules_only_keys(const cJSON *obj, const char *path, const char *const *keys, char *err,
                    size_t errlen);
int rules_int(const cJSON *obj, const char *path, const char *key, long min, long max,
              long *out, char *err, size_t errlen);
int rules_double(const cJSON *obj, const char *path, const char *key, double min, double max,
                 double *out, char *err, size_t errlen);
int rules_bool(const cJSON *obj, const char *path, const char *key, bool *out, char *err,
               size_t errlen);
/* Reads a string that must equal one of choices (NULL-terminated); *out is its index. */
int rules_enum(const cJSON *obj, const char *path, const char *key, const char *const *choices,
               int *out, char *err, size_t errlen);
/* Reads an array of min_len..max_len integers in [min, max] into out; *len gets the length.
 * Its elements are numbered from 1 in keys and messages (weights.1 is seat 1's). */
int rules_int_array(const cJSON *obj, const char *path, const char *key, int min_len,
                    int max_len, long min, long max, long *out, int *len, char *err,
                    size_t errlen);
/* As rules_int_array, for an array whose elements the game numbers from first (0 for a table
 * indexed by a value that starts at 0: pig10's deck.0 counts the frogs): --set, the ruleset
 * changes and the messages then number them so (rules_first_number). */
int rules_int_array_from(const cJSON *obj, const char *path, const char *key, int first,
                         int min_len, int max_len, long min, long max, long *out, int *len,
                         char *err, size_t errlen);
/* Returns member key of obj if it is an array of min_len..max_len elements, else NULL with a
 * message. For arrays of objects, which the caller then reads element by element. */
const cJSON *rules_array(const cJSON *obj, const char *path, const char *key, int min_len,
                         int max_len, char *err, size_t errlen);

/* Writes "ruleset key 'path.key': " followed by the formatted message into err; returns -1. */
int rules_error(char *err, size_t errlen, const char *path, const char *key, const char *fmt,
                ...) __attribute__((format(printf, 5, 6)));

/* ---- the keys a loader reads (--list, --list --format=json, completion, did-you-mean) ----
 * The typed readers above are the one statement of each key's type and range: while a
 * description is being recorded (rules_describe, on the calling thread only) each reader
 * also notes the key it read. */

typedef enum rule_kind {
    RULE_OTHER,     /* allowed (rules_only_keys) but read by the game's own code, or optional */
    RULE_INT,       /* rules_int: min..max */
    RULE_NUMBER,    /* rules_double: min..max */
    RULE_BOOL,      /* rules_bool */
    RULE_ENUM,      /* rules_enum: one of choices */
    RULE_INT_ARRAY, /* rules_int_array: min_len..max_len integers in min..max */
    RULE_ARRAY,     /* rules_array: min_len..max_len elements */
} rule_kind;

enum { RULES_MAX_KEYS = 128, RULES_KEY_LEN = 64 };

/* One key as the loader checks it. path names it as --set does with any element's number
 * written [] ("dote", "faces.red", "board[].effect"). */
typedef struct rule_key {
    char path[RULES_KEY_LEN];
    rule_kind kind;
    double min, max;            /* RULE_INT, RULE_NUMBER; RULE_INT_ARRAY: each element */
    int min_len, max_len;       /* RULE_INT_ARRAY, RULE_ARRAY */
    const char *const *choices; /* RULE_ENUM: NULL-terminated, the loader's static table */
    bool from_zero;             /* an array whose elements are numbered from 0, not 1 */
} rule_key;

typedef struct rule_keys {
    int n;
    rule_key key[RULES_MAX_KEYS];
} rule_keys;

/* Loads game g's built-in ruleset with its own rules_load while recording, into out, every
 * key its readers check (in the order first met; keys allowed by rules_only_keys but never
 * read stay RULE_OTHER). Returns 0, or -1 with a message if the default does not load. */
int rules_describe(const struct game_type *g, rule_keys *out, char *err, size_t errlen);

/* The number game g gives the first element of its array at path (named as rule_key names
 * it: "board", "start.pits", "board[].x"): 0 if its loader reads it with
 * rules_int_array_from(..., 0, ...), else 1 (also with g NULL). For --set and the ruleset
 * changes, which number elements so. */
int rules_first_number(const struct game_type *g, const char *path);

/* The entry of keys whose path is path, or NULL. */
const rule_key *rules_key_find(const rule_keys *keys, const char *path);

/* The one-line description game g gives for key path (game_type.rule_docs), or NULL. */
const char *rules_key_doc(const struct game_type *g, const char *path);

#endif
