/* check.h — the project's small test framework: TEST(name) registers a test, CHECK fails it.
 * Tests register themselves at load time, so adding a test file needs no list to edit. The
 * runner (tests/main.c) ends with the line "N passed, N failed". */
#ifndef GIOCHI_CHECK_H
#define GIOCHI_CHECK_H

#include <stdio.h>

typedef void (*test_fn)(void);

/* Registers a test; called by the TEST macro's constructor. */
void check_register(const char *name, const char *file, test_fn fn);
/* Records a failed check of the running test (the test goes on; its result is failed). */
void check_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define TEST(name)                                                                           \
    static void test_##name(void);                                                           \
    __attribute__((constructor)) static void register_##name(void)                           \
    {                                                                                        \
        check_register(#name, __FILE__, test_##name);                                        \
    }                                                                                        \
    static void test_##name(void)

/* CHECK(cond): fails the test if cond is false. */
#define CHECK(cond)                                                                          \
    do {                                                                                     \
        if (!(cond))                                                                         \
            check_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);                              \
    } while (0)

/* CHECK_INT(a, b): fails with both values printed unless a == b (as long long). */
#define CHECK_INT(a, b)                                                                      \
    do {                                                                                     \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);                      \
        if (check_a_ != check_b_)                                                            \
            check_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, check_a_,       \
                       check_b_);                                                            \
    } while (0)

/* CHECK_NEAR(a, b, tol): fails unless |a - b| <= tol. */
#define CHECK_NEAR(a, b, tol)                                                                \
    do {                                                                                     \
        double check_a_ = (a), check_b_ = (b), check_t_ = (tol);                             \
        if (!(check_a_ - check_b_ <= check_t_ && check_b_ - check_a_ <= check_t_))           \
            check_fail(__FILE__, __LINE__, "%s ~ %s: %.17g vs %.17g (tol %.3g)", #a, #b,     \
                       check_a_, check_b_, check_t_);                                        \
    } while (0)

/* CHECK_STR(a, b): fails unless the strings are equal. */
#define CHECK_STR(a, b)                                                                      \
    do {                                                                                     \
        const char *check_a_ = (a), *check_b_ = (b);                                         \
        if (check_a_ == NULL || check_b_ == NULL || strcmp(check_a_, check_b_) != 0)         \
            check_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,             \
                       check_a_ ? check_a_ : "(null)", check_b_ ? check_b_ : "(null)");      \
    } while (0)

#endif
