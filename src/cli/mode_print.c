/* mode_print.c — the modes that print instead of playing: --list (text or JSON, from the
 * catalog), --print-ruleset and --completion. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots/program.h"
#include "cli/catalog.h"
#include "cli/completion.h"
#include "cli/fail.h"
#include "cli/job.h"
#include "config/rules.h"
#include "core/registry.h"
#include "dist/dist.h"

enum { WIDTH = 80 }; /* the listing fits an 80-column terminal */

/* Writes text from column col (where the line stands now), wrapping at spaces so that no
 * line passes WIDTH; continuation lines start at column indent. A word longer than a line
 * gets a line of its own. Ends the line. */
static void wrap(FILE *f, int col, int indent, const char *text)
{
    const char *p = text;
    bool first = true;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == 0)
            break;
        if (!first && col + 1 + (int)n > WIDTH) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, n, f);
        col += (int)n;
        p += n;
        first = false;
    }
    fputc('\n', f);
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static bool flag(const cJSON *o, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* A key's type and range in words, from its catalog entry. */
static void key_type(const cJSON *k, char *buf, size_t len)
{
    const char *type = str(k, "type");
    if (strcmp(type, "integer") == 0 || strcmp(type, "number") == 0)
        snprintf(buf, len, "%s %.15g..%.15g", type, num(k, "min"), num(k, "max"));
    else if (strcmp(type, "boolean") == 0)
        snprintf(buf, len, "true or false");
    else if (strcmp(type, "enum") == 0) {
        size_t n = (size_t)snprintf(buf, len, "one of");
        const cJSON *c;
        int i = 0;
        cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(k, "choices"))
            if (n < len)
                n += (size_t)snprintf(buf + n, len - n, "%s %s", i++ ? "," : "", c->valuestring);
    } else if (strcmp(type, "integers") == 0 && num(k, "min_length") == num(k, "max_length"))
        snprintf(buf, len, "%g integers in %.15g..%.15g", num(k, "min_length"), num(k, "min"),
                 num(k, "max"));
    else if (strcmp(type, "integers") == 0)
        snprintf(buf, len, "%g..%g integers in %.15g..%.15g", num(k, "min_length"),
                 num(k, "max_length"), num(k, "min"), num(k, "max"));
    else if (strcmp(type, "array") == 0)
        snprintf(buf, len, "array of %g..%g", num(k, "min_length"), num(k, "max_length"));
    else
        snprintf(buf, len, "%s", type);
}

/* One ruleset key: "key = default  (type)", then its description on the next lines. Keys
 * inside another key are indented by two more. A long default (the oca board) is summed up:
 * --list --game lists its elements after the keys. */
static void list_key(FILE *f, const cJSON *k)
{
    const char *path = str(k, "key");
    int depth = strpbrk(path, ".[") ? 2 : 0;
    char type[512], line[1024];
    key_type(k, type, sizeof type);
    const cJSON *def = cJSON_GetObjectItemCaseSensitive(k, "default");
    char *v = def ? cJSON_PrintUnformatted(def) : NULL;
    if (v && strlen(v) > 40 && cJSON_IsArray(def))
        snprintf(line, sizeof line, "%s = [%d entries]  (%s)", path, cJSON_GetArraySize(def),
                 type);
    else if (v && strlen(v) > 40)
        snprintf(line, sizeof line, "%s = {...}  (%s)", path, type);
    else if (v)
        snprintf(line, sizeof line, "%s = %s  (%s)", path, v, type);
    else
        snprintf(line, sizeof line, "%s  (%s%s)", path, type,
                 flag(k, "optional") ? "; optional, absent by default" : "");
    cJSON_free(v);
    fprintf(f, "%*s", 4 + depth, "");
    wrap(f, 4 + depth, 8 + depth, line);
    const char *doc = str(k, "doc");
    if (*doc) {
        fprintf(f, "%*s", 8 + depth, "");
        wrap(f, 8 + depth, 8 + depth, doc);
    }
}

/* The elements of game g's default array of objects (the oca board), one per line, as --set
 * names their members (board.1: name="Start" effect="none" ...), wrapped at WIDTH. */
static void list_elements(FILE *f, const game_type *g, const char *name, const cJSON *array)
{
    int i = rules_first_number(g, name);
    fprintf(f, "  %s, element by element (%s.%d is the first; --set %s.N.KEY=VALUE):\n", name,
            name, i, name);
    const cJSON *e;
    cJSON_ArrayForEach(e, array) {
        size_t cap = 4096, n = 0;
        char *line = xmalloc(cap);
        n += (size_t)snprintf(line, cap, "%s.%d:", name, i++);
        const cJSON *m;
        cJSON_ArrayForEach(m, e) {
            char *v = cJSON_PrintUnformatted(m);
            size_t need = strlen(m->string) + strlen(v) + 3;
            if (n + need >= cap) {
                cap = 2 * (n + need);
                line = xrealloc(line, cap);
            }
            n += (size_t)snprintf(line + n, cap - n, " %s=%s", m->string, v);
            cJSON_free(v);
        }
        fprintf(f, "    ");
        wrap(f, 4, 10, line);
        free(line);
    }
}

/* The bots outside the process (program.h lists them), each line wrapped at WIDTH. */
static void outside_bots(FILE *f, const game_type *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m == NULL)
        die(EXIT_NOMEM, "out of memory listing the bots");
    program_list(m, g, &bot_human);
    if (fclose(m) != 0)
        die(EXIT_NOMEM, "out of memory listing the bots");
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (strlen(line) <= WIDTH || strncmp(line, "    ", 4) != 0 || strlen(line) < 21) {
            fprintf(f, "%s\n", line);
            continue;
        }
        fprintf(f, "%.21s", line);
        wrap(f, 21, 21, line + 21);
    }
    free(text);
}

static void list_game(FILE *f, const game_type *g, const cJSON *e, bool detail)
{
    const cJSON *pl = cJSON_GetObjectItemCaseSensitive(e, "players");
    char head[1024];
    snprintf(head, sizeof head, "%s — %s (%g-%g players, default %g; rules: %s)", g->name,
             g->title, num(pl, "min"), num(pl, "max"), num(pl, "default"), g->seed);
    wrap(f, 0, 4, head);
    if (!flag(e, "decisions")) /* e.g. the Cinesi: the dice play the whole game */
        fprintf(f, "  decisions: none (the bots are never asked anything)\n");
    fprintf(f, "  bots:\n");
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(e, "bots")) {
        char line[2048];
        snprintf(line, sizeof line, "%s%s%s",
                 flag(b, "slow") ? "[slow here: a second or more a game; see --progress] " : "",
                 str(b, "doc"), flag(b, "default") ? " (default)" : "");
        fprintf(f, "    %-16s ", str(b, "name"));
        wrap(f, 21, 21, line);
        const cJSON *p;
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(b, "params")) {
            char by[256] = ""; /* "; at 3 players 67" for each table with its own default */
            size_t used = 0;
            const cJSON *d;
            cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(p, "default_by_players"))
                if (used < sizeof by)
                    used += (size_t)snprintf(by + used, sizeof by - used, "; at %s players %.15g",
                                             d->string, d->valuedouble);
            snprintf(line, sizeof line, ":%s=%.15g  %s (%.15g..%.15g%s%s)", str(p, "name"),
                     num(p, "default"), str(p, "doc"), num(p, "min"), num(p, "max"),
                     strcmp(str(p, "type"), "integer") == 0 ? ", whole" : "", by);
            fprintf(f, "      ");
            wrap(f, 6, 10, line);
        }
    }
    outside_bots(f, g);
    const cJSON *pop, *pops = cJSON_GetObjectItemCaseSensitive(e, "populations");
    if (cJSON_GetArraySize(pops) > 0)
        fprintf(f, "  populations (each seat draws its player each game; pop:FILE for your own):\n");
    cJSON_ArrayForEach(pop, pops) {
        char line[2048];
        size_t used = (size_t)snprintf(line, sizeof line, "a mixed table (--population=%s, or "
                                       "pop:%s in --bots):", str(pop, "name"), str(pop, "name"));
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(pop, "types"))
            if (used < sizeof line)
                used += (size_t)snprintf(line + used, sizeof line - used, " %s %.0f%% (%s%s)",
                                         str(t, "type"), 100 * num(t, "weight"), str(t, "bot"),
                                         flag(t, "knobs_drawn") ? ", knobs drawn" : "");
        fprintf(f, "    %-16s ", str(pop, "name"));
        wrap(f, 21, 21, line);
    }
    fprintf(f, "  ruleset keys (--set KEY=VALUE; the default after '=', the range in ()):\n");
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(e, "keys"))
        list_key(f, k);
    if (detail) {
        char err[256];
        cJSON *rules = rules_parse(g->default_rules, g->name, err, sizeof err);
        for (const cJSON *m = rules ? rules->child : NULL; m; m = m->next)
            if (cJSON_IsArray(m) && cJSON_IsObject(cJSON_GetArrayItem(m, 0)))
                list_elements(f, g, m->string, m);
        cJSON_Delete(rules);
        fprintf(f, "  metrics:\n");
        const cJSON *m;
        cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(e, "metrics")) {
            char line[1024];
            snprintf(line, sizeof line, "%-24s %s, %s: %s", str(m, "name"),
                     strcmp(str(m, "scope"), "seat") == 0 ? "per seat" : "per game",
                     str(m, "kind"), str(m, "doc"));
            fprintf(f, "    ");
            wrap(f, 4, 29, line);
        }
    }
}

void mode_print(const game_type *g, const options *o, const cJSON *ruleset)
{
    dist_apart();
    if (dist_rank() != 0) /* under MPI rank 0 alone prints */
        exit(EXIT_OK);
    outset s;
    outset_open(&s, o->output, NULL, NULL, NULL);
    FILE *f = outset_file(&s, OUT_REPORT);
    if (o->print_ruleset) {
        char *text = cJSON_Print(ruleset);
        fprintf(f, "%s\n", text);
        cJSON_free(text);
    } else if (o->format && strcmp(o->format, "json") == 0) {
        cJSON *all = catalog_all(g);
        char *text = cJSON_Print(all);
        fprintf(f, "%s\n", text);
        cJSON_free(text);
        cJSON_Delete(all);
    } else {
        cJSON *all = catalog_all(g);
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(all, "games")->child;
        for (int i = 0; registry_games[i]; i++)
            if (g == NULL || g == registry_games[i]) {
                list_game(f, registry_games[i], e, g != NULL);
                e = e->next;
                if (registry_games[i + 1] && g == NULL)
                    fputc('\n', f);
            }
        cJSON_Delete(all);
    }
    outset_commit(&s);
    exit_flushed();
}

/* True if argv[i] is option `name` (long, --name or --name=V) or short -c (-c or -cV); *value
 * tells whether its value is the next argument. */
static bool is_option(const char *arg, const char *name, char c, bool *next_value)
{
    size_t n = strlen(name);
    *next_value = false;
    if (strncmp(arg, "--", 2) == 0 && strncmp(arg + 2, name, n) == 0 &&
        (arg[2 + n] == '\0' || arg[2 + n] == '=')) {
        *next_value = arg[2 + n] == '\0';
        return true;
    }
    if (c && arg[0] == '-' && arg[1] == c) {
        *next_value = arg[2] == '\0';
        return true;
    }
    return false;
}

void mode_completion(const options *o, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        bool next;
        if (is_option(argv[i], "completion", 0, &next) || is_option(argv[i], "output", 'o', &next))
            i += next;
        else
            die(EXIT_USAGE, "--completion prints a script: it cannot be combined with '%s'",
                argv[i]);
    }
    if (strcmp(o->completion, "bash") != 0 && strcmp(o->completion, "zsh") != 0)
        die(EXIT_USAGE, "--completion '%s': expected bash or zsh", o->completion);
    dist_apart();
    if (dist_rank() != 0)
        exit(EXIT_OK);
    if (o->output && *o->output == '\0')
        die(EXIT_USAGE, "--output: empty file name");
    outset s;
    outset_open(&s, o->output, NULL, NULL, NULL);
    completion_write(outset_file(&s, OUT_REPORT), o->completion);
    outset_commit(&s);
    exit_flushed();
}
