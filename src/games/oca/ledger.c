/* ledger.c — point accounts with one traced transfer function and a conserved total. */
#include "games/oca/ledger.h"

#include <string.h>

void ledger_init(ledger *l, int n, const char *const *names)
{
    memset(l, 0, sizeof *l);
    l->naccounts = n < LEDGER_MAX_ACCOUNTS ? n : LEDGER_MAX_ACCOUNTS;
    l->names = names;
}

void ledger_issue(ledger *l, int acc, int64_t amount, const char *reason, trace *tr)
{
    l->balance[acc] += amount;
    l->total += amount;
    TRACE(tr, "  ledger: %lld issued to %s (%s) -> %s %lld", (long long)amount,
          l->names[acc], reason, l->names[acc], (long long)l->balance[acc]);
}

void ledger_trace_transfer(const ledger *l, int payer, int payee, int64_t amount,
                           const char *reason, int detail, trace *tr)
{
    char what[24] = "";
    if (detail >= 0)
        snprintf(what, sizeof what, " %d", detail);
    TRACE(tr, "  ledger: %lld from %s to %s (%s%s) -> %s %lld, %s %lld", (long long)amount,
          l->names[payer], l->names[payee], reason, what, l->names[payer],
          (long long)l->balance[payer], l->names[payee], (long long)l->balance[payee]);
}

int64_t ledger_sum(const ledger *l)
{
    int64_t s = 0;
    for (int i = 0; i < l->naccounts; i++)
        s += l->balance[i];
    return s;
}

bool ledger_balanced(const ledger *l)
{
    for (int i = 0; i < l->naccounts; i++)
        if (l->balance[i] < 0)
            return false;
    return ledger_sum(l) == l->total;
}
