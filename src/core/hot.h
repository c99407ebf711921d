/* hot.h — the only place compiler hints for speed are spelled: inlining and branch weights. */
#ifndef GIOCHI_HOT_H
#define GIOCHI_HOT_H

/* Every hint below is a speed trick, and tricks have a rule (doc/PERFORMANCE.md): one earns
 * its place on a hot path only if it buys at least 1% in instructions per game, measured by
 * callgrind or cachegrind on two run lengths. Use these names, never the raw attributes, so
 * that `grep GIOCHI_` finds every trick. None of them may change what the code computes. */

/* Always inlined, whatever the compiler's size budget says: for a small helper inside a game's
 * inner loop, where a call's spills and reloads cost more than the body. */
#define GIOCHI_INLINE inline __attribute__((always_inline))

/* Never inlined: for a rare or long branch kept out of its caller, so that the caller's usual
 * short path keeps its values in registers and stays small. */
#define GIOCHI_NOINLINE __attribute__((noinline))

/* Seldom run (an error exit, a broken invariant): the compiler optimises it for size and lays
 * its code, and the branches that lead to it, out away from the hot path. */
#define GIOCHI_COLD __attribute__((cold))

/* Branch weights: the condition is almost always true (LIKELY) or false (UNLIKELY), so the
 * compiler lays the usual case out as the fall-through. The value of x is unchanged. */
#define GIOCHI_LIKELY(x) __builtin_expect(!!(x), 1)
#define GIOCHI_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* A function compiled for the popcnt and bmi instructions: only ever called after a run-time
 * check that the processor has them (see cinesi.c's play_fast). */
#define GIOCHI_TARGET_POPCNT __attribute__((target("popcnt,bmi")))

/* The loop that follows is unrolled n times (a small known count whose copies gcc does not
 * make by itself). */
#define GIOCHI_PRAGMA(x) _Pragma(#x)
#define GIOCHI_UNROLL(n) GIOCHI_PRAGMA(GCC unroll n)

/* A label that a macro-made loop may not jump to in every copy (no warning when unused). */
#define GIOCHI_UNUSED __attribute__((unused))

#endif
