/* volpe_kit.h — what the volpe solver's and proof search's tests share: rulesets made
 * from the default by an overlay, and scratch directories. */
#ifndef GIOCHI_TESTS_VOLPE_KIT_H
#define GIOCHI_TESTS_VOLPE_KIT_H

#include <stddef.h>

#include "games/volpe/volpe.h"

/* The default volpe ruleset with the JSON object text `overlay` merged over it (keys it names
 * replace the default's). Aborts the test run, naming the overlay or the loader's error, when
 * the overlay is not JSON or the result is not a valid ruleset: a test's own data is wrong. */
volpe_rules volpe_test_rules(const char *overlay);

/* Creates a fresh directory /tmp/giochi-volpe-TAG-XXXXXX and writes its name into buf (n
 * bytes); aborts when it cannot. The caller removes it with volpe_test_rmdir. */
void volpe_test_dir(char *buf, size_t n, const char *tag);

/* Removes the directory `dir` and everything in it; says so on stderr when it cannot (a test
 * does not fail for a scratch directory left behind). */
void volpe_test_rmdir(const char *dir);

#endif
