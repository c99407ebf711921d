/* test_ledger.c — the shared point ledger: transfers, refusals, the conserved total. */
#include "check.h"
#include "games/oca/ledger.h"

static const char *const names[] = {"a", "b", "c"};

TEST(ledger_transfers_conserve_the_issued_total)
{
    ledger l;
    ledger_init(&l, 3, names);
    ledger_issue(&l, 0, 100, "stock", NULL);
    CHECK(ledger_balanced(&l));
    CHECK(ledger_transfer(&l, 0, 1, 30, "x", -1, NULL));
    CHECK(ledger_transfer(&l, 1, 2, 30, "y", 4, NULL));
    CHECK_INT(l.balance[0], 70);
    CHECK_INT(l.balance[1], 0);
    CHECK_INT(l.balance[2], 30);
    CHECK(!ledger_transfer(&l, 1, 0, 1, "overdraft", -1, NULL)); /* refused, nothing moves */
    CHECK_INT(l.balance[1], 0);
    CHECK(!ledger_transfer(&l, 0, 1, -5, "negative", -1, NULL));
    CHECK(ledger_transfer(&l, 2, 2, 999, "to oneself", -1, NULL)); /* a no-op */
    CHECK_INT(l.balance[2], 30);
    CHECK_INT(ledger_sum(&l), 100);
    CHECK(ledger_balanced(&l));
    l.balance[2] += 1; /* points from nowhere are caught */
    CHECK(!ledger_balanced(&l));
}
