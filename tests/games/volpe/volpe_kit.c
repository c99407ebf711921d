/* volpe_kit.c — see volpe_kit.h. */
#include "volpe_kit.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config/rules.h"
#include "core/registry.h"

volpe_rules volpe_test_rules(const char *overlay)
{
    char err[256];
    volpe_rules r;
    cJSON *j = rules_parse(config_volpe_json, "volpe.json", err, sizeof err);
    cJSON *o = cJSON_Parse(overlay);
    if (j == NULL || o == NULL) {
        fprintf(stderr, "bad test ruleset %s\n", overlay);
        abort();
    }
    rules_merge(j, o);
    cJSON_Delete(o);
    if (game_volpe.rules_load(&r, j, err, sizeof err) != 0) {
        fprintf(stderr, "test ruleset rejected: %s\n", err);
        abort();
    }
    cJSON_Delete(j);
    return r;
}

void volpe_test_dir(char *buf, size_t n, const char *tag)
{
    snprintf(buf, n, "/tmp/giochi-volpe-%s-XXXXXX", tag);
    if (mkdtemp(buf) == NULL) {
        perror("mkdtemp");
        abort();
    }
}

void volpe_test_rmdir(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}
