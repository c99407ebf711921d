/* shard.c — --shard (one part of a run, written as a partial result) and --merge (the parts
 * read back, checked and combined into the run's report). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/fail.h"
#include "cli/job.h"
#include "dist/dist.h"
#include "dist/partial.h"
#include "config/population.h"

/* --shard: the shard played, and the batches it played, as bytes for the partial file. */
static uint64_t shard_index, shard_count;
static pbuf shard_bytes;

/* The distributor of --shard: plays this shard's part of each batch and keeps its result. */
static int shard_batch(const run_config *cfg, run_result *res, char *err, size_t errlen)
{
    run_config part = *cfg;
    uint64_t first, count;
    partial_shard_range(cfg->runs, shard_index, shard_count, &first, &count);
    part.first = cfg->first + first;
    part.runs = count;
    if (count == 0) /* more shards than games: no rows, and no header (shard of game 0 has it) */
        part.games_csv = NULL;
    if (run_batch_local(&part, res, err, errlen) != 0)
        return -1;
    partial_put_batch(&shard_bytes, cfg, res);
    return 0;
}

/* --merge: each batch of the run, every shard's part merged, handed back in order. */
static run_result *merged;
static uint64_t *merged_first, *merged_runs;
static int nmerged, next_merged;

/* The distributor of --merge: plays nothing; returns the next merged batch, which must be the
 * batch asked for. */
static int merged_batch(const run_config *cfg, run_result *res, char *err, size_t errlen)
{
    if (next_merged >= nmerged || merged_first[next_merged] != cfg->first ||
        merged_runs[next_merged] != cfg->runs) {
        snprintf(err, errlen, "the partial results do not hold the batches this run plays");
        return -1;
    }
    *res = merged[next_merged];
    memset(&merged[next_merged], 0, sizeof merged[next_merged]);
    next_merged++;
    return 0;
}

/* The populations cfg's seats draw from (each once), with the digest of each one's text, into
 * the identity id as "populations" (none: no key, as before populations): a file edited
 * between the shards, or before the merge, is another run. */
static void populations_identity(cJSON *id, const run_config *cfg)
{
    cJSON *list = NULL;
    for (int k = 0; k < cfg->nseats; k++) {
        const population *p = cfg->seat[k].pop;
        bool seen = false;
        for (int j = 0; j < k; j++)
            seen = seen || cfg->seat[j].pop == p;
        if (p == NULL || seen)
            continue;
        if (list == NULL)
            list = cJSON_AddArrayToObject(id, "populations");
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "source", p->source);
        cJSON_AddStringToObject(o, "sha256", p->sha256);
        cJSON_AddItemToArray(list, o);
    }
}

/* The identity of a run as a shard records it: everything its report depends on. */
static cJSON *run_identity(const run_config *cfg, const cJSON *ruleset,
                           const char (*canon)[BOT_SPEC_MAX],
                           bool exact, const char *const *sets, int nsets)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)cfg->seed);
    cJSON *id = cJSON_CreateObject();
    cJSON_AddNumberToObject(id, "format", PARTIAL_FORMAT);
    cJSON_AddStringToObject(id, "version", GIOCHI_VERSION);
    cJSON_AddStringToObject(id, "game", cfg->game->name);
    cJSON_AddNumberToObject(id, "players", cfg->nseats);
    cJSON *bots = cJSON_AddArrayToObject(id, "bots");
    for (int k = 0; k < cfg->nseats; k++)
        cJSON_AddItemToArray(bots, cJSON_CreateString(canon[k]));
    populations_identity(id, cfg);
    cJSON_AddStringToObject(id, "seed", seed);
    cJSON_AddNumberToObject(id, "runs", (double)cfg->runs);
    cJSON_AddBoolToObject(id, "exact", exact);
    cJSON_AddItemToObject(id, "ruleset", cJSON_Duplicate(ruleset, 1));
    cJSON *s = cJSON_AddArrayToObject(id, "sets"); /* provenance, as the report records it */
    for (int i = 0; i < nsets; i++)
        cJSON_AddItemToArray(s, cJSON_CreateString(sets[i]));
    return id;
}

/* The experiment's part of a shard's identity: its options as given (the settings are made
 * from them again by --merge), or JSON null for a plain run. */
static cJSON *experiment_identity(const options *o, bool experiment)
{
    if (!experiment)
        return cJSON_CreateNull();
    cJSON *x = cJSON_CreateObject();
    cJSON *sw = cJSON_AddArrayToObject(x, "sweeps");
    for (int i = 0; i < o->nsweeps; i++)
        cJSON_AddItemToArray(sw, cJSON_CreateString(o->sweep[i]));
    const char *name[] = {"bots", "players", "baseline", "until", "metric", "sensitivity_keys"};
    const char *value[] = {o->bots, o->players, o->baseline, o->until, o->metric,
                           o->sensitivity_keys};
    for (size_t i = 0; i < sizeof name / sizeof *name; i++)
        cJSON_AddItemToObject(x, name[i], value[i] ? cJSON_CreateString(value[i]) : cJSON_CreateNull());
    cJSON_AddBoolToObject(x, "rotate_seats", o->rotate);
    cJSON_AddBoolToObject(x, "sensitivity", o->sensitivity);
    return x;
}

/* --merge of an experiment's shards: its options, from the identity's "experiment" object. */
static void experiment_from_identity(options *o, const cJSON *x, const char *path)
{
    const cJSON *sw = cJSON_GetObjectItemCaseSensitive(x, "sweeps");
    const cJSON *rot = cJSON_GetObjectItemCaseSensitive(x, "rotate_seats");
    const cJSON *sens = cJSON_GetObjectItemCaseSensitive(x, "sensitivity");
    if (!cJSON_IsArray(sw) || cJSON_GetArraySize(sw) > EXP_MAX_SWEEPS || !cJSON_IsBool(rot) ||
        !cJSON_IsBool(sens))
        die(EXIT_USAGE, "'%s' has a malformed identity (experiment)", path);
    const cJSON *one;
    cJSON_ArrayForEach(one, sw)
    {
        if (!cJSON_IsString(one))
            die(EXIT_USAGE, "'%s' has a malformed identity (sweeps)", path);
        o->sweep[o->nsweeps++] = one->valuestring;
    }
    const char *name[] = {"bots", "players", "baseline", "until", "metric", "sensitivity_keys"};
    const char **field[] = {&o->bots, &o->players, &o->baseline, &o->until, &o->metric,
                            &o->sensitivity_keys};
    for (size_t i = 0; i < sizeof name / sizeof *name; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, name[i]);
        if (!cJSON_IsString(v) && !cJSON_IsNull(v))
            die(EXIT_USAGE, "'%s' has a malformed identity (%s)", path, name[i]);
        *field[i] = cJSON_IsString(v) ? v->valuestring : NULL;
    }
    o->rotate = cJSON_IsTrue(rot);
    o->sensitivity = cJSON_IsTrue(sens);
}

void merge_read(options *o, merge_input *m)
{
    static const char *const forbidden[] = {"game", "bots", "players", "runs", "seed", "config",
                                            "set", "shard", "trace", "perft", "exact",
                                            "games-csv", "sweep", "rotate-seats", "until",
                                            "sensitivity", "baseline", "metric"};
    const char *given[] = {o->game, o->bots, o->players, o->runs, o->seed,
                           o->nconfigs ? "" : NULL,
                           o->nsets ? "" : NULL, o->shard, o->trace, o->perft,
                           o->exact ? "" : NULL, o->games_csv, o->nsweeps ? "" : NULL,
                           o->rotate ? "" : NULL, o->until, o->sensitivity ? "" : NULL,
                           o->baseline, o->metric};
    for (size_t i = 0; i < sizeof forbidden / sizeof *forbidden; i++)
        if (given[i])
            die(EXIT_USAGE, "--merge takes the run's options from its partial results: "
                            "--%s cannot be given", forbidden[i]);
    if (o->nparts == 0)
        die(EXIT_USAGE, "--merge needs the partial results to merge as arguments");
    char err[512];
    cJSON *first = NULL;
    unsigned char **payload = xcalloc((size_t)o->nparts, sizeof *payload);
    size_t *len = xcalloc((size_t)o->nparts, sizeof *len);
    int *order = xcalloc((size_t)o->nparts, sizeof *order);
    uint64_t *shard_of = xcalloc((size_t)o->nparts, sizeof *shard_of);
    uint64_t n = 0;
    for (int i = 0; i < o->nparts; i++) {
        cJSON *id;
        if (partial_read_file(o->parts[i], &id, &payload[i], &len[i], err, sizeof err) != 0)
            die(EXIT_USAGE, "%s", err);
        cJSON *wall = cJSON_DetachItemFromObjectCaseSensitive(id, "wall_seconds");
        m->wall += cJSON_IsNumber(wall) ? wall->valuedouble : 0;
        cJSON_Delete(wall);
        uint64_t index, count;
        if (partial_identity_check(id, o->parts[i], GIOCHI_VERSION, MAX_PARTS, &index, &count,
                                   err, sizeof err) != 0)
            die(EXIT_USAGE, "%s", err);
        if (first == NULL) {
            first = id;
            n = count;
        } else {
            bool same = cJSON_Compare(first, id, true);
            cJSON_Delete(id);
            if (!same)
                die(EXIT_USAGE, "'%s' and '%s' are shards of different runs", o->parts[0],
                    o->parts[i]);
        }
        for (int j = 0; j < i; j++)
            if (shard_of[j] == index)
                die(EXIT_USAGE, "shard %llu/%llu is given twice: '%s' and '%s'",
                    (unsigned long long)index, (unsigned long long)count, o->parts[j],
                    o->parts[i]);
        shard_of[i] = index;
    }
    /* n distinct shards below n among nparts parts: all present exactly when nparts == n */
    for (uint64_t k = 0; k < n; k++) {
        bool found = false;
        for (int i = 0; i < o->nparts && !found; i++)
            if (shard_of[i] == k) {
                found = true;
                order[k] = i + 1;
            }
        if (!found)
            die(EXIT_USAGE, "shard %llu/%llu of the run of '%s' is missing",
                (unsigned long long)k, (unsigned long long)n, o->parts[0]);
    }
    /* The run's options, from the identity. */
    const cJSON *game = cJSON_GetObjectItemCaseSensitive(first, "game");
    const cJSON *players = cJSON_GetObjectItemCaseSensitive(first, "players");
    const cJSON *bots = cJSON_GetObjectItemCaseSensitive(first, "bots");
    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(first, "seed");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(first, "runs");
    const cJSON *exact = cJSON_GetObjectItemCaseSensitive(first, "exact");
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(first, "ruleset");
    const cJSON *sets = cJSON_GetObjectItemCaseSensitive(first, "sets");
    if (!cJSON_IsString(game) || !cJSON_IsNumber(players) || !cJSON_IsArray(bots) ||
        !cJSON_IsString(seed) || !cJSON_IsNumber(runs) || !cJSON_IsBool(exact) ||
        !cJSON_IsObject(rs) || !cJSON_IsArray(sets) || cJSON_GetArraySize(sets) > MAX_SETS)
        die(EXIT_USAGE, "'%s' has a malformed identity", o->parts[0]);
    const cJSON *one;
    cJSON_ArrayForEach(one, sets)
    {
        if (!cJSON_IsString(one))
            die(EXIT_USAGE, "'%s' has a malformed identity (sets)", o->parts[0]);
        o->set[o->nsets++] = one->valuestring; /* for the report's provenance only */
    }
    static char players_text[16], runs_text[32], bots_text[GAME_MAX_SEATS * (BOT_SPEC_MAX + 1)];
    snprintf(players_text, sizeof players_text, "%d", players->valueint);
    snprintf(runs_text, sizeof runs_text, "%.0f", runs->valuedouble);
    size_t used = 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, bots)
    {
        if (!cJSON_IsString(b) || used + strlen(b->valuestring) + 2 > sizeof bots_text)
            die(EXIT_USAGE, "'%s' has a malformed identity (bots)", o->parts[0]);
        used += (size_t)snprintf(bots_text + used, sizeof bots_text - used, "%s%s",
                                 used ? "," : "", b->valuestring);
    }
    o->game = game->valuestring; /* the identity stays until exit */
    o->players = players_text;
    o->bots = bots_text;
    o->seed = seed->valuestring;
    o->runs = runs_text;
    o->exact = cJSON_IsTrue(exact);
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(first, "experiment");
    if (x == NULL || (!cJSON_IsNull(x) && !cJSON_IsObject(x)))
        die(EXIT_USAGE, "'%s' has a malformed identity (experiment)", o->parts[0]);
    if (cJSON_IsObject(x))
        experiment_from_identity(o, x, o->parts[0]);
    m->ruleset = cJSON_Duplicate(rs, 1);
    m->nshards = n;
    free(shard_of);
    m->identity = first;
    m->payload = payload;
    m->len = len;
    m->order = order;
}

/* Dies (exit 2, naming the file) unless the batch a part of a plain run holds is what its
 * identity says: the whole run (games 0..runs-1, runs from the identity), of which this
 * shard (index of shards) played its share. */
static void check_batch(const char *path, const run_config *cfg, uint64_t first, uint64_t runs,
                        uint64_t index, uint64_t shards, uint64_t games)
{
    if (first != 0 || runs != cfg->runs)
        die(EXIT_USAGE, "'%s': its identity says runs %llu, but it holds a batch of %llu games "
                        "from game %llu", path, (unsigned long long)cfg->runs,
            (unsigned long long)runs, (unsigned long long)first);
    uint64_t from, count;
    partial_shard_range(runs, index, shards, &from, &count);
    if (games != count)
        die(EXIT_USAGE, "'%s': shard %llu/%llu of runs %llu plays %llu games, but it holds %llu",
            path, (unsigned long long)index, (unsigned long long)shards,
            (unsigned long long)runs, (unsigned long long)count, (unsigned long long)games);
}

/* --merge of a plain run, once it is set up as cfg: merges the parts' batches in shard order
 * and sends run_batch to them. */
static void merge_parts(const options *o, const merge_input *m, const run_config *cfg)
{
    char err[512];
    const unsigned char **p = xcalloc((size_t)o->nparts, sizeof *p);
    for (int i = 0; i < o->nparts; i++)
        p[i] = m->payload[m->order[i] - 1];
    for (;;) {
        const unsigned char *end0 = m->payload[m->order[0] - 1] +
                                    m->len[m->order[0] - 1];
        if (p[0] == end0)
            break;
        run_result sum;
        run_result_init(&sum, cfg, false);
        uint64_t first = 0, runs = 0;
        for (int i = 0; i < o->nparts; i++) {
            int f = m->order[i] - 1;
            uint64_t pf, pr;
            run_result one;
            if (partial_get_batch(&p[i], m->payload[f] + m->len[f], cfg, &pf, &pr,
                                  &one, err, sizeof err) != 0)
                die(EXIT_USAGE, "'%s': %s", o->parts[f], err);
            if (i == 0) {
                first = pf;
                runs = pr;
            } else if (pf != first || pr != runs) {
                die(EXIT_USAGE, "'%s' and '%s' hold different batches", o->parts[m->order[0] - 1],
                    o->parts[f]);
            }
            check_batch(o->parts[f], cfg, pf, pr, (uint64_t)i, m->nshards, one.games);
            if (partial_merge(&sum, &one, cfg->nseats, err, sizeof err) != 0)
                die(EXIT_USAGE, "'%s': %s", o->parts[f], err);
            run_result_free(&one);
        }
        merged = xrealloc(merged, sizeof *merged * (size_t)(nmerged + 1));
        merged_first = xrealloc(merged_first, sizeof *merged_first * (size_t)(nmerged + 1));
        merged_runs = xrealloc(merged_runs, sizeof *merged_runs * (size_t)(nmerged + 1));
        merged[nmerged] = sum;
        merged_first[nmerged] = first;
        merged_runs[nmerged] = runs;
        nmerged++;
    }
    if (nmerged != 1) /* a plain run is one batch */
        die(EXIT_USAGE, "'%s': a part of a plain run holds one batch, this one %d",
            o->parts[m->order[0] - 1], nmerged);
    for (int i = 1; i < o->nparts; i++) {
        int f = m->order[i] - 1;
        if (p[i] != m->payload[f] + m->len[f])
            die(EXIT_USAGE, "'%s' holds more batches than '%s'", o->parts[f],
                o->parts[m->order[0] - 1]);
    }
    free(p);
    run_set_distributor(merged_batch);
}


void shard_start(job *j)
{
    options *o = j->o;
    char *slash = strchr(o->shard, '/');
    if (slash == NULL || slash == o->shard || slash[1] == '\0')
        die(EXIT_USAGE, "--shard '%s': expected I/N, shard I of N (0 <= I < N)", o->shard);
    *slash = '\0';
    shard_count = whole_option("shard", slash + 1, 1, MAX_PARTS);
    shard_index = whole_option("shard", o->shard, 0, shard_count - 1);
    *slash = '/';
    if (o->output == NULL)
        die(EXIT_USAGE, "--shard writes a partial result: give it a file with --output");
    unsigned char key[PARTIAL_KEY_MAX]; /* a key to sign with must load before the games */
    size_t klen;
    char kerr[512];
    if (partial_key(key, &klen, kerr, sizeof kerr) < 0)
        die(EXIT_USAGE, "%s", kerr);
    if (o->trace || o->format || o->plot || o->html || o->detail)
        die(EXIT_USAGE, "--shard writes a partial result: --trace, --format, --detail, "
                        "--plot and --html do not apply (give them to --merge)");
    if (dist_ranks() > 0)
        die(EXIT_USAGE, "--shard is for separate processes; under MPI the ranks share the run");
    run_set_distributor(shard_batch);
}

void shard_experiment(exp_options *xo)
{
    xo->part = shard_index;
    xo->parts = shard_count;
    xo->shard_out = &shard_bytes;
}

void shard_write(const job *j, outset *s, const double *wall)
{
    const options *o = j->o;
    cJSON *id = run_identity(&j->cfg, j->ruleset, j->canon, o->exact, o->set, o->nsets);
    cJSON_AddItemToObject(id, "experiment", experiment_identity(o, j->experiment));
    if (wall)
        cJSON_AddNumberToObject(id, "wall_seconds", *wall);
    cJSON_AddNumberToObject(id, "shard", (double)shard_index);
    cJSON_AddNumberToObject(id, "shards", (double)shard_count);
    errno = 0;
    if (partial_write_file(outset_file(s, OUT_REPORT), id, &shard_bytes) != 0)
        outset_fail(s, EXIT_IO, "cannot write '%s': %s", o->output, strerror(errno ? errno : EIO));
    cJSON_Delete(id);
    free(shard_bytes.p);
    shard_bytes = (pbuf){0};
}

void merge_prepare(job *j)
{
    const options *o = j->o;
    const merge_input *m = &j->merge;
    /* the populations as they are now must be those the shards drew from */
    cJSON *now = cJSON_CreateObject();
    populations_identity(now, &j->cfg);
    const cJSON *then = cJSON_GetObjectItemCaseSensitive(m->identity, "populations");
    const cJSON *cur = cJSON_GetObjectItemCaseSensitive(now, "populations");
    if (!(then == NULL && cur == NULL) && !(then && cur && cJSON_Compare(then, cur, true)))
        die(EXIT_USAGE, "'%s': a population it drew from is not what it was when the shards "
                        "were played (its text's digest differs)", o->parts[0]);
    cJSON_Delete(now);
    if (!j->experiment) {
        merge_parts(o, m, &j->cfg);
        return;
    }
    /* the experiment reads the shards' block sums itself */
    const unsigned char **payload = xcalloc((size_t)o->nparts, sizeof *payload);
    size_t *len = xcalloc((size_t)o->nparts, sizeof *len);
    const char **names = xcalloc((size_t)o->nparts, sizeof *names);
    for (int i = 0; i < o->nparts; i++) {
        payload[i] = m->payload[m->order[i] - 1];
        len[i] = m->len[m->order[i] - 1];
        names[i] = o->parts[m->order[i] - 1];
    }
    j->xo.merged_names = names;
    j->xo.merged = payload;
    j->xo.merged_len = len;
    j->xo.nmerged = o->nparts;
    j->xo.merged_wall = m->wall;
    j->xo.ruleset = j->ruleset;
}
