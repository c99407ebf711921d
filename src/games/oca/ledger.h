/* ledger.h — a game-independent ledger of point accounts: every movement of points is one
 * transfer (payer, payee, amount, reason), traced, and the total is conserved. */
#ifndef GIOCHI_LEDGER_H
#define GIOCHI_LEDGER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"

enum { LEDGER_MAX_ACCOUNTS = 16 };

/* Plain data (memcpy-copyable). `names` points to read-only account names that outlive the
 * ledger (one per account), used only for traces. */
typedef struct ledger {
    int naccounts;
    int64_t balance[LEDGER_MAX_ACCOUNTS];
    int64_t total; /* points created by ledger_issue: what the balances must always sum to */
    const char *const *names;
} ledger;

/* Sets up n accounts (n <= LEDGER_MAX_ACCOUNTS), all at zero, named by names[0..n-1]. */
void ledger_init(ledger *l, int n, const char *const *names);

/* Creates `amount` points (>= 0) in account `acc`: the only way points enter a ledger, used
 * once when a game's stock of points is set up. Traced with reason. */
void ledger_issue(ledger *l, int acc, int64_t amount, const char *reason, trace *tr);

/* Writes the trace line of a transfer of `amount` from payer to payee that has just been made
 * (the balances shown are the new ones); ledger_transfer calls it only when tracing. */
void ledger_trace_transfer(const ledger *l, int payer, int payee, int64_t amount,
                           const char *reason, int detail, trace *tr);

/* Moves `amount` points (>= 0) from payer to payee, traced with reason (and `detail`, an
 * integer appended when >= 0, e.g. a square number). The payer must hold the amount:
 * returns false and moves nothing otherwise. A transfer of zero, or to oneself, is a no-op
 * that returns true and traces nothing. Inline: games move points on their hot paths, and an
 * untraced transfer is two additions. */
static inline bool ledger_transfer(ledger *l, int payer, int payee, int64_t amount,
                                   const char *reason, int detail, trace *tr)
{
    if (amount == 0 || payer == payee)
        return true;
    if (amount < 0 || l->balance[payer] < amount)
        return false;
    l->balance[payer] -= amount;
    l->balance[payee] += amount;
    if (tr)
        ledger_trace_transfer(l, payer, payee, amount, reason, detail, tr);
    return true;
}

/* Sum of all balances. */
int64_t ledger_sum(const ledger *l);

/* True if the balances sum to the issued total and none is negative: the invariant. */
bool ledger_balanced(const ledger *l);

#endif
