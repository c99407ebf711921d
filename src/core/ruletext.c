/* ruletext.c — the text of loaded rulesets by address: a list under one lock (a run loads a
 * handful of rulesets). */
#include "core/ruletext.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

typedef struct kept_text {
    const void *rules;
    char *text;
    struct kept_text *next;
} kept_text;

static kept_text *kept;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

void ruletext_keep(const void *rules, char *text)
{
    pthread_mutex_lock(&kept_lock);
    kept_text *r = kept;
    while (r && r->rules != rules)
        r = r->next;
    if (r == NULL) {
        r = xcalloc(1, sizeof *r);
        r->rules = rules;
        r->next = kept;
        kept = r;
    }
    free(r->text);
    r->text = text;
    pthread_mutex_unlock(&kept_lock);
}

char *ruletext_recall(const void *rules)
{
    char *copy = NULL;
    pthread_mutex_lock(&kept_lock);
    for (kept_text *r = kept; r; r = r->next)
        if (r->rules == rules) {
            copy = xmalloc(strlen(r->text) + 1);
            strcpy(copy, r->text);
            break;
        }
    pthread_mutex_unlock(&kept_lock);
    return copy;
}
