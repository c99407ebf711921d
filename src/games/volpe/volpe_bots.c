/* volpe_bots.c — the greedy bot of La volpe e le oche (seed 004), for either side: the fox
 * takes the most geese, else keeps away from where it could be cornered soonest; the geese
 * never offer a capture when a safe move exists, else the least bad one, then advance. */
#include "games/volpe/volpe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"

/* Keys compare lexicographically, larger first; equal keys are broken by the seat's stream
 * (reservoir sampling: each of the k best so far is kept with chance 1/k). */
enum { KEYS = 3 };

typedef struct pick {
    int best, ties;
    int key[KEYS];
} pick;

static void consider(pick *p, int i, const int *key, rng *r)
{
    int c = 0;
    for (int k = 0; k < KEYS && c == 0; k++)
        c = p->ties == 0 ? 1 : (key[k] > p->key[k]) - (key[k] < p->key[k]);
    if (c > 0) {
        p->best = i;
        p->ties = 1;
        memcpy(p->key, key, sizeof p->key);
    } else if (c == 0 && rng_below(r, (uint32_t)++p->ties) == 0) {
        p->best = i;
    }
}

/* The fox's mobility after the geese's most cramping reply to a fox now on fox with the
 * given geese (a large number if the geese have no reply). */
static int worst_mobility(const volpe_board *b, uint64_t geese, int fox)
{
    int32_t mv[3 * VOLPE_MAX_GEESE];
    int n = volpe_geese_moves(b, geese, fox, mv), worst = 100;
    for (int i = 0; i < n; i++) {
        uint64_t after = geese ^ (1ull << (mv[i] >> 6 & 63)) ^ (1ull << (mv[i] & 63));
        int m = volpe_fox_mobility(b, after, fox);
        worst = m < worst ? m : worst;
    }
    return worst;
}

/* The most geese one move takes among the moves on the pages after s's (see VOLPE_MORE). */
static int most_later(const volpe_state *s)
{
    const volpe_board *b = &s->rules->board;
    int first = (s->page + 1) * VOLPE_PAGE;
    int total = volpe_fox_moves(b, s->geese, s->fox, 0, 0, NULL, NULL), most = 0;
    int32_t *later = malloc(sizeof *later * (size_t)(total - first));
    if (later == NULL) {
        fprintf(stderr, "giochi-sim: out of memory (volpe greedy)\n");
        abort();
    }
    volpe_fox_moves(b, s->geese, s->fox, first, total - first, later, NULL);
    for (int i = 0; i < total - first; i++) {
        int c = volpe_popcount((uint32_t)later[i] >> 6);
        most = c > most ? c : most;
    }
    free(later);
    return most;
}

static int fox_choose(const volpe_state *s, const decision *d, rng *r)
{
    const volpe_board *b = &s->rules->board;
    pick p = {0, 0, {0}};
    for (int i = 0; i < d->n; i++) {
        int32_t a = d->action[i];
        if (a == VOLPE_MORE) { /* turn the page only for more geese than this page offers */
            int key[KEYS] = {most_later(s), -1, -1};
            consider(&p, i, key, r);
            continue;
        }
        int to = a & 63;
        uint64_t after = s->geese & ~volpe_captured_set(s->geese, a);
        int key[KEYS] = {volpe_popcount((uint32_t)a >> 6), worst_mobility(b, after, to),
                         volpe_fox_mobility(b, after, to)};
        consider(&p, i, key, r);
    }
    return p.best;
}

static int geese_choose(const volpe_state *s, const decision *d, rng *r)
{
    const volpe_board *b = &s->rules->board;
    pick p = {0, 0, {0}};
    for (int i = 0; i < d->n; i++) {
        int32_t a = d->action[i];
        int from = a >> 6 & 63, to = a & 63;
        uint64_t after = s->geese ^ (1ull << from) ^ (1ull << to);
        int mobility = volpe_fox_mobility(b, after, s->fox);
        /* Safety first (a trapped fox is the safest of all), then advance, then cramp. */
        int key[KEYS] = {mobility == 0 ? 1 : -volpe_max_capture(b, after, s->fox),
                         volpe_y(to) > volpe_y(from), -mobility};
        consider(&p, i, key, r);
    }
    return p.best;
}

static int greedy_choose(void *ctx, const void *seen, const decision *d, rng *r)
{
    (void)ctx;
    const volpe_state *s = seen;
    return d->kind == VOLPE_FOX ? fox_choose(s, d, r) : geese_choose(s, d, r);
}

const bot_type volpe_bot_greedy = {
    .name = "greedy",
    .doc = "fox: most geese taken, else most moves left after the geese's most cramping "
           "reply; geese: no capture offered if avoidable (else the fewest), then advance, "
           "then cramp the fox",
    .choose = greedy_choose,
};
