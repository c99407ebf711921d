/* pig10_kit.c — the PIG 10 unit tests' shared helpers (contracts in pig10_kit.h). */
#include "pig10_kit.h"

#include <string.h>

#include "check.h"
#include "config/rules.h"
#include "core/registry.h"
#include "core/runner.h"

/* Loads the default ruleset with the JSON object `overlay` (or NULL) merged over it. Returns
 * rules_load's result and leaves its message in err. */
int pt_try_load(pig10_rules *r, const char *overlay, char *err, size_t errlen)
{
    cJSON *root = rules_parse(config_pig10_json, "pig10.json", err, errlen);
    if (root == NULL)
        return -1;
    if (overlay) {
        cJSON *o = rules_parse(overlay, "overlay", err, errlen);
        if (o == NULL) {
            cJSON_Delete(root);
            return -1;
        }
        rules_merge(root, o);
        cJSON_Delete(o);
    }
    int rc = game_pig10.rules_load(r, root, err, errlen);
    cJSON_Delete(root);
    return rc;
}

void pt_load_at(int line, pig10_rules *r, const char *overlay)
{
    char err[256];
    if (pt_try_load(r, overlay, err, sizeof err) != 0)
        check_fail(__FILE__, line, "ruleset did not load: %s", err);
}

/* Card value of a script character: '0'..'9', 'T' for 10; -1 for anything else (spacing). */
int pt_card_of(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    return ch == 'T' ? 10 : -1;
}

/* Builds a whole pile from the ruleset's deck: first the cards written in `front` (the hands,
 * seat after seat, then the draws in order), then the rest of the deck in increasing value.
 * Returns the number of cards, or -1 if `front` asks for more copies than the deck has. */
int pt_make_pile(const pig10_rules *r, const char *front, uint8_t *pile)
{
    int left[PIG10_VALUES], n = 0;
    memcpy(left, r->deck, sizeof left);
    for (const char *p = front; *p; p++) {
        int c = pt_card_of(*p);
        if (c < 0)
            continue;
        if (left[c]-- == 0)
            return -1;
        pile[n++] = (uint8_t)c;
    }
    for (int c = 0; c < PIG10_VALUES; c++)
        while (left[c]-- > 0)
            pile[n++] = (uint8_t)c;
    return n;
}

/* Starts a scripted game: `front` as in make_pile, seat `first` to play. */
void pt_deal_at(int line, pig10_state *st, const pig10_rules *r, int nseats, int first,
                const char *front)
{
    uint8_t pile[PIG10_MAX_CARDS];
    int n = pt_make_pile(r, front, pile);
    if (n < 0) {
        check_fail(__FILE__, line, "script \"%s\" does not fit the deck", front);
        n = r->total;
        memset(pile, 1, sizeof pile);
    }
    pig10_start_from_pile(st, r, nseats, first, pile, n, NULL);
}

bool pt_offered(const decision *d, int32_t a)
{
    for (int i = 0; i < d->n; i++)
        if (d->action[i] == a)
            return true;
    return false;
}

/* Checks that `seat` is to play and may play `card` in `mode`, then plays it. */
void pt_play_at(int line, pig10_state *st, int seat, int card, int mode)
{
    decision d;
    rng unused;
    rng_seed(&unused, 0);
    if (!game_pig10.decide(st, &d)) {
        check_fail(__FILE__, line, "game over before seat %d plays %d", seat, card);
        return;
    }
    if (d.seat != seat)
        check_fail(__FILE__, line, "seat %d to play, expected %d", d.seat, seat);
    if (!pt_offered(&d, PIG10_ACTION(card, mode))) {
        check_fail(__FILE__, line, "card %d mode %d not offered", card, mode);
        return;
    }
    game_pig10.apply(st, PIG10_ACTION(card, mode), &unused, NULL);
}

/* Cards of every value are conserved: hands + draw pile + table + collected = deck (the
 * game's own --check invariant, game_pig10.check). */
bool pt_conserved(const pig10_state *st)
{
    char err[256];
    return game_pig10.check(st, err, sizeof err) == 0;
}

/* The legal list of d is well formed for st: codes strictly increasing (so distinct), each
 * card in the mover's hand, every card of the hand playable, modes only where they apply. */
bool pt_legal_ok(const pig10_state *st, const decision *d)
{
    int playable[PIG10_VALUES] = {0};
    for (int i = 0; i < d->n; i++) {
        int card = PIG10_CARD(d->action[i]), mode = PIG10_MODE(d->action[i]);
        if ((i > 0 && d->action[i] <= d->action[i - 1]) || card < 0 || card >= PIG10_VALUES ||
            st->hand[d->seat][card] == 0 || mode > PIG10_SET)
            return false;
        if (mode == PIG10_SUB && (card != PIG10_SIREN || st->table_n == 0))
            return false;
        if (mode == PIG10_SET && (st->table_n == 0 || (card != st->top_card && card != st->value)))
            return false;
        playable[card] |= mode == PIG10_ADD;
    }
    for (int c = 0; c < PIG10_VALUES; c++)
        if (st->hand[d->seat][c] > 0 && !playable[c])
            return false;
    return d->seat == st->turn && st->hand_n[d->seat] > 0;
}

/* Sets up bot bt for seat `seat` in ctx with its default parameters, except that the first
 * parameter (mc's samples, ismcts' iterations) is `first` when the bot has parameters. */
void pt_setup_bot(const bot_type *bt, void *ctx, const pig10_rules *rules, int seat,
                  int nseats, double first)
{
    double param[BOT_MAX_PARAMS] = {0};
    char err[128];
    for (int i = 0; bt->params && bt->params[i].name && i < BOT_MAX_PARAMS; i++)
        param[i] = i == 0 ? first : bt->params[i].def;
    if (bt->setup && bt->setup(ctx, &game_pig10, rules, seat, nseats, param, err, sizeof err))
        check_fail(__FILE__, __LINE__, "bot %s: %s", bt->name, err);
}

/* Seats `nseats` bots named in names (the last name repeats), default parameters except
 * samples for mc. */
void pt_sit_bots(seats *t, const pig10_rules *rules, int nseats, const char *const *names,
                 int nnames, double mc_samples)
{
    memset(t, 0, sizeof *t);
    for (int s = 0; s < nseats; s++) {
        t->bot[s] = registry_bot(&game_pig10, names[s < nnames ? s : nnames - 1]);
        CHECK(t->bot[s] != NULL && t->bot[s]->ctx_size <= sizeof t->ctx[s]);
        pt_setup_bot(t->bot[s], t->ctx[s], rules, s, nseats, mc_samples);
    }
}

/* Tears down the bots sat by sit_bots. */
void pt_stand_bots(seats *t, int nseats)
{
    for (int s = 0; s < nseats; s++)
        if (t->bot[s] && t->bot[s]->teardown)
            t->bot[s]->teardown(t->ctx[s]);
}

/* Plays one game `index` to the end with the bots of t; checks conservation and the legal
 * lists after every play when `check` is set. Fills o and, if rec, records the metrics. */
void pt_play_game(pig10_state *st, const pig10_rules *rules, int nseats, seats *t,
                  uint64_t seed, uint64_t index, bool check, outcome *o, recorder *rec)
{
    rng chance;
    rng_seed_stream(&chance, seed, index, RNG_STREAM_CHANCE);
    for (int s = 0; s < nseats; s++)
        rng_seed_stream(&t->r[s], seed, index, RNG_STREAM_SEAT(s));
    game_pig10.start(st, rules, nseats, &chance, NULL);
    decision d;
    pig10_view v;
    int plays = 0;
    for (int s = 0; s < nseats; s++)
        if (t->bot[s]->begin) {
            game_pig10.view(st, s, &v);
            t->bot[s]->begin(t->ctx[s], &v);
        }
    while (game_pig10.decide(st, &d)) {
        if (check &&
            (d.n < 1 || d.n > 3 * PIG10_VALUES || !pt_legal_ok(st, &d) || !pt_conserved(st)))
            check_fail(__FILE__, __LINE__, "game %llu: bad state at play %d",
                       (unsigned long long)index, plays);
        game_pig10.view(st, d.seat, &v);
        int k = t->bot[d.seat]->choose(t->ctx[d.seat], &v, &d, &t->r[d.seat]);
        if (k < 0 || k >= d.n) {
            check_fail(__FILE__, __LINE__, "bot %s chose %d of %d", t->bot[d.seat]->name, k, d.n);
            return;
        }
        game_pig10.apply(st, d.action[k], &chance, NULL);
        if (++plays > st->total)
            break;
    }
    if (check && (!pt_conserved(st) || plays != st->total))
        check_fail(__FILE__, __LINE__, "game %llu: %d plays of %d cards, conserved %d",
                   (unsigned long long)index, plays, st->total, pt_conserved(st));
    game_pig10.finish(st, o, rec);
}
