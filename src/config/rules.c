/* rules.c — JSON rulesets: parsing, merging, --set assignments and typed, key-naming readers. */
#include "config/rules.h"

#include "core/game.h"
#include "core/ruletext.h"
#include "config/jsoncheck.h"
#include "core/suggest.h"
#include "core/xalloc.h"

#include <errno.h>
#include <pthread.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_RULES_FILE = 16 << 20 };

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* Returns the first key given twice in one object of the tree (JSON allows it, and the later
 * value would silently win), or NULL. Sorts the keys of each object, so that a file with very
 * many keys is checked in n log n. */
static const char *duplicate_key(const cJSON *node)
{
    int n = 0;
    for (const cJSON *c = node->child; c != NULL; c = c->next)
        n++;
    if (cJSON_IsObject(node) && n > 1) {
        const cJSON **keys = xmalloc((size_t)n * sizeof *keys);
        int i = 0;
        for (const cJSON *c = node->child; c != NULL; c = c->next)
            keys[i++] = c;
        qsort(keys, (size_t)n, sizeof *keys, by_name);
        const char *dup = NULL;
        for (i = 1; i < n && dup == NULL; i++)
            if (strcmp(keys[i - 1]->string, keys[i]->string) == 0)
                dup = keys[i]->string;
        free(keys);
        if (dup != NULL)
            return dup;
    }
    for (const cJSON *c = node->child; c != NULL; c = c->next) {
        const char *dup = duplicate_key(c);
        if (dup != NULL)
            return dup;
    }
    return NULL;
}

cJSON *rules_parse(const char *text, const char *what, char *err, size_t errlen)
{
    /* Strict JSON first, so that cJSON never sees what it would take loosely (01, 1., a
     * \u0000 that cuts a string) and a huge file is refused before a tree is built. */
    if (jsoncheck_text(text, what, err, errlen) != JSONCHECK_OK)
        return NULL;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    const char *dup = root ? duplicate_key(root) : NULL;
    if (dup != NULL) {
        snprintf(err, errlen, "%s: key '%s' is given twice in one object", what, dup);
        cJSON_Delete(root);
        return NULL;
    }
    if (root == NULL) {
        /* Report the line and column of the first character the parser could not take. */
        const char *at = end ? end : cJSON_GetErrorPtr();
        int line = 1, col = 1;
        for (const char *p = text; at && p < at && *p; p++) {
            if (*p == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        snprintf(err, errlen, "%s: malformed JSON at line %d, column %d", what, line, col);
    }
    return root;
}

/* Standard input ("-"), read once and kept: an experiment loads its rulesets once per
 * setting, and every load must see the same text. */
static char *stdin_text;
static char stdin_err[256];
static pthread_mutex_t stdin_lock = PTHREAD_MUTEX_INITIALIZER;

static char *read_stream(FILE *f, const char *name, char *err, size_t errlen);

/* A copy of standard input's text (the first call reads it), or NULL with its message. */
static char *read_stdin(char *err, size_t errlen)
{
    pthread_mutex_lock(&stdin_lock);
    if (stdin_text == NULL && stdin_err[0] == '\0')
        stdin_text = read_stream(stdin, "standard input", stdin_err, sizeof stdin_err);
    char *copy = NULL;
    if (stdin_text) {
        size_t n = strlen(stdin_text) + 1;
        copy = memcpy(xmalloc(n), stdin_text, n);
    }
    if (copy == NULL)
        snprintf(err, errlen, "%s", stdin_err);
    pthread_mutex_unlock(&stdin_lock);
    return copy;
}

char *rules_read_file(const char *path, char *err, size_t errlen)
{
    if (strcmp(path, "-") == 0)
        return read_stdin(err, errlen);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    char *text = read_stream(f, path, err, errlen);
    fclose(f);
    return text;
}

/* Reads stream f (named `path` in messages) to its end into a new NUL-terminated buffer,
 * within MAX_RULES_FILE bytes; does not close it. */
static char *read_stream(FILE *f, const char *path, char *err, size_t errlen)
{
    if (f == NULL) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
        if (len + 1 == cap) {
            if (cap >= MAX_RULES_FILE) {
                free(buf);
                snprintf(err, errlen, "cannot read '%s': larger than 16 MiB", path);
                return NULL;
            }
            buf = xrealloc(buf, cap * 2);
            cap *= 2;
        }
    }
    int bad = ferror(f);
    int saved = errno;
    if (bad) {
        free(buf);
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(saved));
        return NULL;
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        free(buf);
        snprintf(err, errlen, "cannot read '%s': not a text file", path);
        return NULL;
    }
    return buf;
}

int rules_merge(cJSON *base, const cJSON *overlay)
{
    for (const cJSON *o = overlay->child; o != NULL; o = o->next) {
        cJSON *b = cJSON_GetObjectItemCaseSensitive(base, o->string);
        if (b != NULL && cJSON_IsObject(b) && cJSON_IsObject(o)) {
            rules_merge(b, o);
            continue;
        }
        cJSON *copy = cJSON_Duplicate(o, 1);
        if (b != NULL)
            cJSON_ReplaceItemViaPointer(base, b, copy);
        else
            cJSON_AddItemToObject(base, o->string, copy);
    }
    return 0;
}

/* Parses a non-negative decimal index; -1 if the text is not one. */
static long parse_index(const char *s)
{
    if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] != '\0'))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    return v;
}

int rules_set(const game_type *g, cJSON *root, const char *assignment, char *err, size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    if (eq == NULL || eq == assignment) {
        snprintf(err, errlen, "--set '%s': expected KEY=VALUE", assignment);
        return -1;
    }
    size_t klen = (size_t)(eq - assignment);
    char *path = xmalloc(klen + 1);
    memcpy(path, assignment, klen);
    path[klen] = '\0';
    if (path[0] == '.' || path[klen - 1] == '.' || strstr(path, "..") != NULL) {
        snprintf(err, errlen, "--set '%s': empty key between dots", path);
        free(path);
        return -1;
    }

    const char *text = eq + 1;
    char what[160];
    snprintf(what, sizeof what, "--set '%.120s'", path);
    cJSON *value = NULL;
    switch (jsoncheck_text(text, what, err, errlen)) {
    case JSONCHECK_OK: value = cJSON_ParseWithOpts(text, NULL, 1); break;
    case JSONCHECK_MALFORMED: break; /* not JSON: a plain string */
    case JSONCHECK_REFUSED: free(path); return -1;
    }
    const char *dup = value ? duplicate_key(value) : NULL;
    if (dup != NULL) {
        snprintf(err, errlen, "--set '%s': key '%s' is given twice in one object", path, dup);
        cJSON_Delete(value);
        free(path);
        return -1;
    }
    if (value == NULL && !jsoncheck_utf8(text, strlen(text))) {
        snprintf(err, errlen, "--set '%s': the value is not valid UTF-8", path);
        free(path);
        return -1;
    }
    if (value == NULL)
        value = cJSON_CreateString(text);

    int rc = 0;
    cJSON *node = root;
    const char *parent = "the ruleset"; /* the key node was reached by, for messages */
    char key[RULES_KEY_LEN] = "";       /* node's key as rule_key names it ("board[]") */
    char *save = NULL;
    char *part = strtok_r(path, ".", &save);
    while (part != NULL) {
        char *next = strtok_r(NULL, ".", &save);
        cJSON *child;
        if (cJSON_IsArray(node)) {
            /* elements are numbered as the game numbers them (board.1 is square 1) */
            int first = rules_first_number(g, key);
            long i = parse_index(part) - first;
            if (parse_index(part) < 0 || i < 0 || i >= cJSON_GetArraySize(node)) {
                snprintf(err, errlen,
                         "--set '%.*s': no element %s in that array (its elements are %d to "
                         "%d)",
                         (int)klen, assignment, part, first,
                         cJSON_GetArraySize(node) - 1 + first);
                rc = -1;
                break;
            }
            child = cJSON_GetArrayItem(node, (int)i);
            if (next == NULL) {
                cJSON_ReplaceItemInArray(node, (int)i, value);
                value = NULL;
                break;
            }
        } else if (cJSON_IsObject(node)) {
            child = cJSON_GetObjectItemCaseSensitive(node, part);
            if (next == NULL) {
                if (child != NULL)
                    cJSON_ReplaceItemInObjectCaseSensitive(node, part, value);
                else
                    cJSON_AddItemToObject(node, part, value); /* the loader names it unknown */
                value = NULL;
                break;
            }
            if (child == NULL) {
                snprintf(err, errlen, "--set '%.*s': unknown ruleset key '%s'", (int)klen,
                         assignment, part);
                rc = -1;
                break;
            }
        } else {
            snprintf(err, errlen, "--set '%.*s': '%s' is not an object or array, so it has no '%s'",
                     (int)klen, assignment, parent, part);
            rc = -1;
            break;
        }
        size_t kn = strlen(key);
        snprintf(key + kn, sizeof key - kn, "%s%s", cJSON_IsArray(node) ? "[]" : kn ? "." : "",
                 cJSON_IsArray(node) ? "" : part);
        node = child;
        parent = part;
        part = next;
    }
    if (part == NULL && rc == 0 && value != NULL) {
        snprintf(err, errlen, "--set '%s': empty key", assignment);
        rc = -1;
    }
    cJSON_Delete(value);
    free(path);
    return rc;
}

/* ---- typed readers ---------------------------------------------------------------------- */

/* The description being recorded on this thread (rules_describe), or NULL: the readers then
 * note nothing. */
static _Thread_local rule_keys *recording;

/* The entry of path.key in the recording ([n] indices written []), created RULE_OTHER if
 * new; NULL when not recording or full. */
static rule_key *note(const char *path, const char *key)
{
    if (recording == NULL)
        return NULL;
    char full[RULES_KEY_LEN];
    size_t n = 0;
    for (const char *p = path ? path : ""; *p && n + 3 < sizeof full; p++) {
        if (*p == '.' && p[1] >= '0' && p[1] <= '9') { /* an element ".12": written "[]" */
            while (p[1] >= '0' && p[1] <= '9')
                p++;
            full[n++] = '[';
            full[n++] = ']';
            continue;
        }
        full[n++] = *p;
    }
    if (n > 0 && n + 1 < sizeof full)
        full[n++] = '.';
    for (const char *p = key; *p && n + 1 < sizeof full; p++)
        full[n++] = *p;
    full[n] = '\0';
    for (int i = 0; i < recording->n; i++)
        if (strcmp(recording->key[i].path, full) == 0)
            return &recording->key[i];
    if (recording->n == RULES_MAX_KEYS)
        return NULL;
    rule_key *k = &recording->key[recording->n++];
    *k = (rule_key){.kind = RULE_OTHER};
    memcpy(k->path, full, n + 1);
    return k;
}

/* Notes path.key's kind and range, unless an earlier reader noted it (the first square of a
 * board stands for every square). */
static void note_kind(const char *path, const char *key, rule_kind kind, double min,
                      double max, int min_len, int max_len, const char *const *choices)
{
    rule_key *k = note(path, key);
    if (k == NULL || (k->kind != RULE_OTHER && !(k->kind == RULE_ARRAY && kind == RULE_INT_ARRAY)))
        return;
    k->kind = kind;
    k->min = min;
    k->max = max;
    k->min_len = min_len;
    k->max_len = max_len;
    k->choices = choices;
}

int rules_error(char *err, size_t errlen, const char *path, const char *key, const char *fmt, ...)
{
    int n;
    if (path && *path && key && *key)
        n = snprintf(err, errlen, "ruleset key '%s.%s': ", path, key);
    else if (key && *key)
        n = snprintf(err, errlen, "ruleset key '%s': ", key);
    else
        n = snprintf(err, errlen, "ruleset key '%s': ", path ? path : "");
    if (n < 0 || (size_t)n >= errlen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

int rules_only_keys(const cJSON *obj, const char *path, const char *const *keys, char *err,
                    size_t errlen)
{
    for (const char *const *k = keys; *k; k++)
        note(path, *k);
    if (!cJSON_IsObject(obj))
        return rules_error(err, errlen, path, NULL, "expected an object");
    size_t nkeys = 0;
    while (keys[nkeys])
        nkeys++;
    for (const cJSON *m = obj->child; m != NULL; m = m->next) {
        bool known = false;
        for (const char *const *k = keys; *k; k++)
            if (strcmp(*k, m->string) == 0)
                known = true;
        char hint[RULES_KEY_LEN + 32];
        if (!known)
            return rules_error(err, errlen, path, m->string, "unknown key%s",
                               suggest_hint(hint, sizeof hint, m->string, keys, nkeys));
    }
    return 0;
}

static const cJSON *member(const cJSON *obj, const char *path, const char *key, char *err,
                           size_t errlen)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (v == NULL)
        rules_error(err, errlen, path, key, "missing");
    return v;
}

/* True if v is a JSON number holding a whole value that fits a long. */
static bool whole(const cJSON *v, long *out)
{
    if (!cJSON_IsNumber(v))
        return false;
    double d = v->valuedouble;
    if (!(d >= -9.0e15 && d <= 9.0e15) || d != floor(d))
        return false;
    *out = (long)d;
    return true;
}

int rules_int(const cJSON *obj, const char *path, const char *key, long min, long max,
              long *out, char *err, size_t errlen)
{
    const cJSON *v = member(obj, path, key, err, errlen);
    if (v == NULL)
        return -1;
    note_kind(path, key, RULE_INT, (double)min, (double)max, 0, 0, NULL);
    long x;
    if (!whole(v, &x) || x < min || x > max)
        return rules_error(err, errlen, path, key, "expected an integer in %ld..%ld", min, max);
    *out = x;
    return 0;
}

int rules_double(const cJSON *obj, const char *path, const char *key, double min, double max,
                 double *out, char *err, size_t errlen)
{
    const cJSON *v = member(obj, path, key, err, errlen);
    if (v == NULL)
        return -1;
    note_kind(path, key, RULE_NUMBER, min, max, 0, 0, NULL);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= min && v->valuedouble <= max))
        return rules_error(err, errlen, path, key, "expected a number in %g..%g", min, max);
    *out = v->valuedouble;
    return 0;
}

int rules_bool(const cJSON *obj, const char *path, const char *key, bool *out, char *err,
               size_t errlen)
{
    const cJSON *v = member(obj, path, key, err, errlen);
    if (v == NULL)
        return -1;
    note_kind(path, key, RULE_BOOL, 0, 0, 0, 0, NULL);
    if (!cJSON_IsBool(v))
        return rules_error(err, errlen, path, key, "expected true or false");
    *out = cJSON_IsTrue(v);
    return 0;
}

int rules_enum(const cJSON *obj, const char *path, const char *key, const char *const *choices,
               int *out, char *err, size_t errlen)
{
    const cJSON *v = member(obj, path, key, err, errlen);
    if (v == NULL)
        return -1;
    note_kind(path, key, RULE_ENUM, 0, 0, 0, 0, choices);
    if (cJSON_IsString(v))
        for (int i = 0; choices[i]; i++)
            if (strcmp(choices[i], v->valuestring) == 0) {
                *out = i;
                return 0;
            }
    char list[512] = "";
    size_t used = 0;
    for (int i = 0; choices[i] && used < sizeof list; i++) {
        int n = snprintf(list + used, sizeof list - used, "%s\"%s\"", i ? ", " : "", choices[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return rules_error(err, errlen, path, key, "expected one of %s", list);
}

const cJSON *rules_array(const cJSON *obj, const char *path, const char *key, int min_len,
                         int max_len, char *err, size_t errlen)
{
    const cJSON *v = member(obj, path, key, err, errlen);
    if (v == NULL)
        return NULL;
    note_kind(path, key, RULE_ARRAY, 0, 0, min_len, max_len, NULL);
    int n = cJSON_GetArraySize(v);
    if (!cJSON_IsArray(v) || n < min_len || n > max_len) {
        if (min_len == max_len)
            rules_error(err, errlen, path, key, "expected an array of %d elements", min_len);
        else
            rules_error(err, errlen, path, key, "expected an array of %d..%d elements", min_len,
                        max_len);
        return NULL;
    }
    return v;
}

int rules_int_array(const cJSON *obj, const char *path, const char *key, int min_len,
                    int max_len, long min, long max, long *out, int *len, char *err,
                    size_t errlen)
{
    return rules_int_array_from(obj, path, key, 1, min_len, max_len, min, max, out, len, err,
                                errlen);
}

int rules_int_array_from(const cJSON *obj, const char *path, const char *key, int first,
                         int min_len, int max_len, long min, long max, long *out, int *len,
                         char *err, size_t errlen)
{
    const cJSON *a = rules_array(obj, path, key, min_len, max_len, err, errlen);
    if (a == NULL)
        return -1;
    note_kind(path, key, RULE_INT_ARRAY, (double)min, (double)max, min_len, max_len, NULL);
    rule_key *noted = note(path, key);
    if (noted)
        noted->from_zero = first == 0;
    int i = 0;
    for (const cJSON *e = a->child; e != NULL; e = e->next, i++) {
        long x;
        if (!whole(e, &x) || x < min || x > max) {
            char k[128];
            snprintf(k, sizeof k, "%s.%d", key, i + first); /* as --set numbers it */
            return rules_error(err, errlen, path, k, "expected an integer in %ld..%ld", min, max);
        }
        out[i] = x;
    }
    *len = i;
    return 0;
}

void *rules_effective(const game_type *g, const char *config, const char *const *sets,
                      int nsets, cJSON **json, char *err, size_t errlen)
{
    return rules_effective_files(g, &config, config ? 1 : 0, sets, nsets, json, err, errlen);
}

void *rules_effective_files(const game_type *g, const char *const *configs, int nconfigs,
                            const char *const *sets, int nsets, cJSON **json, char *err,
                            size_t errlen)
{
    *json = NULL;
    cJSON *ruleset = rules_parse(g->default_rules, "built-in ruleset", err, errlen);
    if (ruleset == NULL)
        return NULL;
    for (int c = 0; c < nconfigs; c++) {
        const char *config = strcmp(configs[c], "-") == 0 ? "standard input" : configs[c];
        char *text = rules_read_file(configs[c], err, errlen);
        cJSON *file = text ? rules_parse(text, config, err, errlen) : NULL;
        free(text);
        if (file == NULL) {
            cJSON_Delete(ruleset);
            return NULL;
        }
        if (!cJSON_IsObject(file)) {
            snprintf(err, errlen, "%s: a ruleset must be a JSON object", config);
            cJSON_Delete(file);
            cJSON_Delete(ruleset);
            return NULL;
        }
        rules_merge(ruleset, file);
        cJSON_Delete(file);
    }
    for (int i = 0; i < nsets; i++)
        if (rules_set(g, ruleset, sets[i], err, errlen) != 0) {
            cJSON_Delete(ruleset);
            return NULL;
        }
    void *rules = xcalloc(1, g->rules_size);
    if (g->rules_load(rules, ruleset, err, errlen) != 0) {
        free(rules);
        cJSON_Delete(ruleset);
        return NULL;
    }
    *json = ruleset;
    rules_remember(rules, ruleset);
    return rules;
}

/* ---- rulesets remembered as text (for bots outside the process) ---------------------------- */

void rules_remember(const void *rules, const cJSON *json)
{
    char *text = cJSON_PrintUnformatted(json);
    if (text == NULL)
        xalloc_fail("cannot print a ruleset");
    ruletext_keep(rules, text);
}

/* Appends to arr "path=value" for every leaf where eff differs from base; key is path as
 * rule_key names it (elements' numbers written []), for the numbering of g's arrays. */
static void changes(const game_type *g, const cJSON *base, const cJSON *eff, const char *path,
                    const char *key, cJSON *arr)
{
    char sub[512], subkey[RULES_KEY_LEN];
    if (base && cJSON_IsObject(base) && cJSON_IsObject(eff)) {
        for (const cJSON *c = eff->child; c; c = c->next) {
            snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", c->string);
            snprintf(subkey, sizeof subkey, "%s%s%s", key, *key ? "." : "", c->string);
            changes(g, cJSON_GetObjectItemCaseSensitive(base, c->string), c, sub, subkey, arr);
        }
        return;
    }
    if (base && cJSON_IsArray(base) && cJSON_IsArray(eff) &&
        cJSON_GetArraySize(base) == cJSON_GetArraySize(eff) &&
        cJSON_IsObject(cJSON_GetArrayItem(eff, 0))) {
        int i = 0, first = rules_first_number(g, key); /* numbered as --set numbers them */
        snprintf(subkey, sizeof subkey, "%s[]", key);
        for (const cJSON *c = eff->child; c; c = c->next, i++) {
            snprintf(sub, sizeof sub, "%s.%d", path, i + first);
            changes(g, cJSON_GetArrayItem(base, i), c, sub, subkey, arr);
        }
        return;
    }
    if (base && cJSON_Compare(base, eff, 1))
        return;
    char *v = cJSON_PrintUnformatted(eff);
    size_t n = strlen(path) + (v ? strlen(v) : 0) + 2;
    char *line = malloc(n);
    if (line) {
        snprintf(line, n, "%s=%s", path, v ? v : "?");
        cJSON_AddItemToArray(arr, cJSON_CreateString(line));
    }
    free(line);
    cJSON_free(v);
}

cJSON *rules_changes(const game_type *g, const cJSON *base, const cJSON *effective)
{
    cJSON *arr = cJSON_CreateArray();
    changes(g, base, effective, "", "", arr);
    return arr;
}

/* ---- the keys a loader reads ---------------------------------------------------------------- */

int rules_describe(const game_type *g, rule_keys *out, char *err, size_t errlen)
{
    out->n = 0;
    cJSON *json = rules_parse(g->default_rules, "built-in ruleset", err, errlen);
    if (json == NULL)
        return -1;
    void *rules = xcalloc(1, g->rules_size ? g->rules_size : 1);
    recording = out;
    int rc = g->rules_load(rules, json, err, errlen);
    recording = NULL;
    free(rules);
    cJSON_Delete(json);
    return rc;
}

int rules_first_number(const game_type *g, const char *path)
{
    if (g == NULL || recording != NULL) /* no game, or within a description already */
        return 1;
    rule_keys *keys = xmalloc(sizeof *keys);
    char err[256];
    const rule_key *k = rules_describe(g, keys, err, sizeof err) == 0 ? rules_key_find(keys, path)
                                                                      : NULL;
    int first = k && k->from_zero ? 0 : 1;
    free(keys);
    return first;
}

const rule_key *rules_key_find(const rule_keys *keys, const char *path)
{
    for (int i = 0; i < keys->n; i++)
        if (strcmp(keys->key[i].path, path) == 0)
            return &keys->key[i];
    return NULL;
}

const char *rules_key_doc(const game_type *g, const char *path)
{
    for (const rule_doc *d = g->rule_docs; d && d->key; d++)
        if (strcmp(d->key, path) == 0)
            return d->doc;
    return NULL;
}
