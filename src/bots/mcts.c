/* mcts.c — the generic `mcts` bot: open-loop UCT (Monte Carlo tree search) for every game
 * whose players see the whole state, any number of seats, chance included. The tree is keyed
 * by the choices made (seat and action), not by positions: each iteration replays them from
 * the real position with dice drawn afresh from the bot's own stream, so one tree averages
 * over chance. A child's statistics belong to the seat that chose it (max^n backup of each
 * seat's share of the win); legal sets that vary with the dice are handled by counting how
 * often each child was available (the availability count replaces the parent's visits in
 * the exploration term). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/xalloc.h"

enum {
    NONE = -1,
    MAX_POLICY_PARAMS = 32,
    SLOT_BITS = 9,   /* 512 slots: a hash of the legal actions, at most half full */
    FEW_ACTIONS = 8, /* up to this many legal actions, children are matched by a plain scan */
};

/* One slot of the hash from legal actions to their index in the decision; a slot whose
 * stamp is not the current one is empty. */
typedef struct slot {
    int32_t action;
    int32_t index;
    uint32_t stamp;
} slot;

/* A tree node: the choice `action` by `seat` after its parent's sequence of choices. */
typedef struct mnode {
    int32_t action;
    int32_t child;   /* first child, or NONE */
    int32_t next;    /* next sibling, or NONE */
    int32_t seat;
    uint32_t visits; /* iterations through this choice */
    uint32_t avail;  /* iterations that reached the parent with this choice legal */
    double reward;   /* sum of seat's share of the win over those visits */
} mnode;

typedef struct mcts_ctx {
    const game_type *g;
    int nseats;
    int playouts;
    double c;          /* exploration constant */
    bool policy;       /* rollouts by g->policy instead of uniform choices */
    mnode *pool;       /* playouts + 1 nodes: one expansion per iteration */
    int32_t *path;     /* nodes of the current iteration, root first */
    int32_t *found;    /* GAME_MAX_ACTIONS scratch: each legal action's child, or NONE */
    void *scratch;     /* one state */
    void *pctx[GAME_MAX_SEATS]; /* the policy bot's context for each seat */
    slot slots[1 << SLOT_BITS];
    uint32_t stamp;
} mcts_ctx;

static const bot_param params[] = {
    {"playouts", 1000, 1, 1000000, true,
     "iterations per decision (each adds at most one node, of 32 bytes, to the tree)"},
    {"c", 1.0, 0, 100, false,
     "exploration constant of UCT (rewards lie in 0..1); 0 plays the best mean"},
    {"rollout", 0, 0, 1, true,
     "playouts past the tree: 0 uniformly random choices, 1 the game's own policy bot"},
    {NULL, 0, 0, 0, false, NULL},
};

static bool supports(const game_type *g)
{
    /* a game where nobody decides (the Cinesi) has nothing to search */
    return g->view_size == 0 && g->kind_names[0] != NULL;
}

static void teardown(void *vctx)
{
    mcts_ctx *c = vctx;
    for (int k = 0; k < GAME_MAX_SEATS; k++) {
        if (c->pctx[k] && c->g->policy->teardown)
            c->g->policy->teardown(c->pctx[k]);
        free(c->pctx[k]);
    }
    free(c->pool);
    free(c->path);
    free(c->found);
    free(c->scratch);
    memset(c, 0, sizeof *c);
}

/* Sets up the policy bot for every seat with its default parameters (at this table). */
static int setup_policy(mcts_ctx *c, const void *rules, char *err, size_t errlen)
{
    const bot_type *p = c->g->policy;
    double def[MAX_POLICY_PARAMS];
    for (int i = 0; p->params && p->params[i].name && i < MAX_POLICY_PARAMS; i++)
        def[i] = bot_param_default(p, i, c->nseats);
    for (int k = 0; k < c->nseats; k++) {
        c->pctx[k] = calloc(1, p->ctx_size ? p->ctx_size : 1);
        if (c->pctx[k] == NULL)
            xalloc_fail("bot 'mcts': its policy bot");
        if (p->peer && k > 0) /* as the runner does (bot_type.peer) */
            p->peer(c->pctx[k], c->pctx[k - 1]);
        char perr[200];
        if (p->setup && p->setup(c->pctx[k], c->g, rules, k, c->nseats, def, perr,
                                 sizeof perr) != 0) {
            free(c->pctx[k]);
            c->pctx[k] = NULL;
            snprintf(err, errlen, "bot 'mcts': rollout=1: %s", perr);
            return -1;
        }
    }
    return 0;
}

static int setup(void *vctx, const game_type *g, const void *rules, int seat, int nseats,
                 const double *param, char *err, size_t errlen)
{
    (void)seat;
    mcts_ctx *c = vctx;
    memset(c, 0, sizeof *c);
    if (!supports(g)) {
        snprintf(err, errlen, "bot 'mcts' needs a game of perfect information, not %s",
                 g->name);
        return -1;
    }
    c->g = g;
    c->nseats = nseats;
    c->playouts = (int)param[0];
    c->c = param[1];
    c->policy = param[2] != 0;
    if (c->policy && g->policy == NULL) {
        snprintf(err, errlen, "bot 'mcts': rollout=1 needs a policy bot, and %s has none "
                 "(use rollout=0)", g->name);
        return -1;
    }
    size_t nodes = (size_t)c->playouts + 1;
    c->pool = malloc(sizeof *c->pool * nodes);
    c->path = malloc(sizeof *c->path * (nodes + 1));
    c->found = malloc(sizeof *c->found * GAME_MAX_ACTIONS);
    c->scratch = malloc(g->state_size);
    if (!c->pool || !c->path || !c->found || !c->scratch) {
        /* out of memory is exit 5 (xalloc.h), not a bot that failed to set up */
        char what[64];
        snprintf(what, sizeof what, "bot 'mcts' playouts=%d: try fewer playouts", (int)param[0]);
        xalloc_fail(what);
    }
    if (c->policy && setup_policy(c, rules, err, errlen) != 0) {
        teardown(c);
        return -1;
    }
    return 0;
}

/* Each seat's share of the win of the finished game st: 1/k to each of k winners. A game
 * that nobody wins (a draw) is shared by all seats, 1/nseats each: worth less than a win and
 * more than a loss, as a drawn tic-tac-toe is (counted as 0 like a loss, the search could
 * not tell a drawing move from a losing one). */
static void shares(const mcts_ctx *c, const void *st, double *share)
{
    outcome o;
    memset(&o, 0, sizeof o);
    o.nseats = c->nseats;
    c->g->finish(st, &o, NULL);
    uint32_t w = o.winners & ((1u << c->nseats) - 1);
    if (w == 0)
        w = (1u << c->nseats) - 1;
    int k = __builtin_popcount(w);
    for (int s = 0; s < c->nseats; s++)
        share[s] = (w >> s & 1) ? 1.0 / k : 0.0;
}

/* Plays st to the end: uniform choices, or the policy bot of the seat to move. */
static void rollout(mcts_ctx *c, void *st, rng *r)
{
    const game_type *g = c->g;
    decision d;
    while (g->decide(st, &d)) {
        int k = 0;
        if (d.n > 1)
            k = c->policy ? g->policy->choose(c->pctx[d.seat], st, &d, r)
                          : (int)rng_below(r, (uint32_t)d.n);
        g->apply(st, d.action[k], r, NULL);
    }
}

/* The child of node `parent` for (seat, action), or NONE. */
static int32_t find(const mcts_ctx *c, int32_t parent, int seat, int32_t action)
{
    for (int32_t ch = c->pool[parent].child; ch != NONE; ch = c->pool[ch].next)
        if (c->pool[ch].action == action && c->pool[ch].seat == seat)
            return ch;
    return NONE;
}

static unsigned slot_of(int32_t action)
{
    return ((uint32_t)action * 0x9e3779b1u) >> (32 - SLOT_BITS);
}

/* Fills c->found[i] with the child of node `parent` for d's action i (or NONE). A plain
 * scan of the children for each action costs n x children; with many legal actions, the
 * actions are hashed first and the children looked up once each. */
static void match_children(mcts_ctx *c, int32_t parent, const decision *d)
{
    if (d->n <= FEW_ACTIONS) {
        for (int i = 0; i < d->n; i++)
            c->found[i] = find(c, parent, d->seat, d->action[i]);
        return;
    }
    if (++c->stamp == 0) { /* wrapped: forget every old slot */
        memset(c->slots, 0, sizeof c->slots);
        c->stamp = 1;
    }
    const unsigned mask = (1u << SLOT_BITS) - 1;
    for (int i = 0; i < d->n; i++) {
        c->found[i] = NONE;
        unsigned h = slot_of(d->action[i]);
        while (c->slots[h].stamp == c->stamp)
            h = (h + 1) & mask;
        c->slots[h] = (slot){d->action[i], i, c->stamp};
    }
    for (int32_t ch = c->pool[parent].child; ch != NONE; ch = c->pool[ch].next) {
        if (c->pool[ch].seat != d->seat)
            continue;
        for (unsigned h = slot_of(c->pool[ch].action); c->slots[h].stamp == c->stamp;
             h = (h + 1) & mask)
            if (c->slots[h].action == c->pool[ch].action) {
                c->found[c->slots[h].index] = ch;
                break;
            }
    }
}

/* One iteration from the real position `seen`: select down the tree with UCT, expand one
 * new choice, play out, and back each seat's share up the path. `used` counts the nodes. */
static void iterate(mcts_ctx *c, const void *seen, int32_t *used, rng *r)
{
    const game_type *g = c->g;
    void *st = c->scratch;
    memcpy(st, seen, g->state_size);
    int32_t cur = 0;
    int len = 0;
    c->path[len++] = 0;
    decision d;
    bool over = false;
    for (;;) {
        if (!g->decide(st, &d)) {
            over = true;
            break;
        }
        if (d.n == 1) { /* a forced move is no choice: it takes no node */
            g->apply(st, d.action[0], r, NULL);
            continue;
        }
        int untried = 0;
        match_children(c, cur, &d);
        for (int i = 0; i < d.n; i++) {
            if (c->found[i] == NONE)
                untried++;
            else
                c->pool[c->found[i]].avail++;
        }
        if (untried > 0 && *used < c->playouts + 1) {
            /* Expand one untried choice, drawn at random, and play out from it. */
            int pick = (int)rng_below(r, (uint32_t)untried), i = 0;
            for (;; i++)
                if (c->found[i] == NONE && pick-- == 0)
                    break;
            int32_t n = (*used)++;
            mnode *m = &c->pool[n];
            m->action = d.action[i];
            m->seat = d.seat;
            m->child = NONE;
            m->next = c->pool[cur].child;
            m->visits = 0;
            m->avail = 1;
            m->reward = 0;
            c->pool[cur].child = n;
            c->path[len++] = n;
            g->apply(st, d.action[i], r, NULL);
            break;
        }
        if (untried == d.n)
            break; /* the tree is full and knows none of these choices: play out */
        /* UCT among the known legal choices; the first listed wins a tie. */
        int32_t best = NONE;
        double best_u = -1;
        int best_i = 0;
        for (int i = 0; i < d.n; i++) {
            if (c->found[i] == NONE)
                continue;
            const mnode *m = &c->pool[c->found[i]];
            double u = m->reward / m->visits +
                       c->c * sqrt(log((double)m->avail) / m->visits);
            if (best == NONE || u > best_u) {
                best = c->found[i];
                best_u = u;
                best_i = i;
            }
        }
        cur = best;
        c->path[len++] = cur;
        g->apply(st, d.action[best_i], r, NULL);
    }
    if (!over)
        rollout(c, st, r);
    double share[GAME_MAX_SEATS];
    shares(c, st, share);
    for (int k = 0; k < len; k++) {
        mnode *m = &c->pool[c->path[k]];
        m->visits++;
        if (k > 0)
            m->reward += share[m->seat];
    }
}

static int choose(void *vctx, const void *seen, const decision *d, rng *r)
{
    mcts_ctx *c = vctx;
    if (d->n == 1)
        return 0;
    mnode *root = &c->pool[0];
    memset(root, 0, sizeof *root);
    root->child = root->next = NONE;
    root->seat = d->seat;
    int32_t used = 1;
    for (int p = 0; p < c->playouts; p++)
        iterate(c, seen, &used, r);

    /* The most visited choice (the most reliable), then the best mean; the seat's stream
     * draws among choices equal on both. */
    int ties[GAME_MAX_ACTIONS], nties = 0;
    uint32_t best_v = 0;
    double best_mean = -1;
    for (int i = 0; i < d->n; i++) {
        int32_t ch = find(c, 0, d->seat, d->action[i]);
        uint32_t v = ch == NONE ? 0 : c->pool[ch].visits;
        double mean = v ? c->pool[ch].reward / v : 0;
        if (nties == 0 || v > best_v || (v == best_v && mean > best_mean)) {
            best_v = v;
            best_mean = mean;
            nties = 0;
        }
        if (v == best_v && mean == best_mean)
            ties[nties++] = i;
    }
    return nties > 1 ? ties[rng_below(r, (uint32_t)nties)] : ties[0];
}

const bot_type bot_mcts = {
    .name = "mcts",
    .doc = "open-loop UCT Monte Carlo tree search (playouts iterations per decision, dice "
           "re-drawn each iteration); any game whose players see everything",
    .params = params,
    .ctx_size = sizeof(mcts_ctx),
    .setup = setup,
    .choose = choose,
    .teardown = teardown,
    .supports = supports,
};
