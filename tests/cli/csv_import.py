#!/usr/bin/env python3
"""csv_import.py — reads a CSV report as a spreadsheet or a data-frame library would.

usage: csv_import.py [--sep=;] [--keys=N] [--full=FILE] FILE

Every row is read with python's csv module (no string splitting of our own): the header is
the report's fixed columns (behind N leading key columns, with an optional last "type"),
every row has as many cells as the header, every numeric column is empty or a number (with a
decimal comma when --sep=;), stat names one kind of figure, and a distribution's row has its
bin in the bin columns. A row with an interval has value and bounds rounded to the same
decimals, which keep two significant digits of the half-width. With --full=FILE (the same run
with --csv-precision=full) every text cell is the same and every rounded number is within
half a unit of its last decimal of the full one. Exits non-zero with a line saying what is
wrong.
"""
import csv
import math
import sys

COLUMNS = ["game", "metric", "seat", "bot", "value", "ci95_low", "ci95_high", "n", "stat",
           "bin_from", "bin_to", "bin_label"]
NUMERIC = {"seat", "value", "ci95_low", "ci95_high", "n", "bin_from", "bin_to"}
STATS = {"share", "mean", "p05", "p25", "p50", "p75", "p95", "exact", "p_value", "count",
         "diff", "diff_unpaired", "fairness"}


def fail(msg):
    sys.exit("csv_import: %s" % msg)


def number(cell, comma):
    if comma:
        if "." in cell:
            fail("a decimal point in a comma-decimal cell: %r" % cell)
        cell = cell.replace(",", ".")
    return float(cell)


def decimals(cell):
    return len(cell.split(",")[-1]) if "," in cell else len(cell.split(".")[-1]) if "." in cell else 0


def read(path, sep, keys):
    with open(path, newline="") as f:
        rows = list(csv.reader(f, delimiter=sep))
    head = rows[0]
    if head[keys:keys + len(COLUMNS)] != COLUMNS or len(head) not in (keys + len(COLUMNS), keys + len(COLUMNS) + 1):
        fail("%s: header %s" % (path, head))
    if len(head) == keys + len(COLUMNS) + 1 and head[-1] != "type":
        fail("%s: last column %r" % (path, head[-1]))
    col = {name: keys + i for i, name in enumerate(COLUMNS)}
    for i, r in enumerate(rows[1:], 2):
        if len(r) != len(head):
            fail("%s:%d: %d cells, the header has %d" % (path, i, len(r), len(head)))
        for name in NUMERIC:
            cell = r[col[name]]
            if cell == "":
                continue
            try:
                x = number(cell, sep == ";")
            except ValueError:
                fail("%s:%d: %s %r is no number" % (path, i, name, cell))
            if math.isnan(x) or math.isinf(x):
                fail("%s:%d: %s %r" % (path, i, name, cell))
        stat = r[col["stat"]]
        if stat not in STATS:
            fail("%s:%d: stat %r" % (path, i, stat))
        if ":" in r[col["metric"]]:
            fail("%s:%d: metric %r" % (path, i, r[col["metric"]]))
        binned = r[col["metric"]].startswith(("distribution.", "table."))
        if binned != (r[col["bin_label"]] != "") or binned != (r[col["bin_from"]] != ""):
            fail("%s:%d: bin cells %r" % (path, i, r[col["bin_from"]:]))
        if r[col["metric"]].startswith("distribution.") and stat not in ("count", "share"):
            fail("%s:%d: a distribution row of stat %r" % (path, i, stat))
    return rows, col


def check_rounding(path, rows, col, comma):
    for i, r in enumerate(rows[1:], 2):
        v, lo, hi = r[col["value"]], r[col["ci95_low"]], r[col["ci95_high"]]
        if not (v and lo and hi) or number(hi, comma) <= number(lo, comma):
            continue
        d = decimals(v)
        if decimals(lo) != d or decimals(hi) != d:
            fail("%s:%d: value and bounds of different decimals: %s %s %s" % (path, i, v, lo, hi))
        units = (number(hi, comma) - number(lo, comma)) / 2 * 10 ** d
        if d > 0 and not 9 <= units <= 101:
            fail("%s:%d: %d decimals for a half-width of %g units" % (path, i, d, units))


def compare_full(path, rows, col, full, comma):
    if len(rows) != len(full):
        fail("%s: %d rows, in full %d" % (path, len(rows), len(full)))
    for i, (r, f) in enumerate(zip(rows, full)):
        for j, (a, b) in enumerate(zip(r, f)):
            if i == 0 or j not in (col["value"], col["ci95_low"], col["ci95_high"]):
                if a != b:
                    fail("%s:%d: %r, in full %r" % (path, i + 1, a, b))
            elif (a == "") != (b == ""):
                fail("%s:%d: %r, in full %r" % (path, i + 1, a, b))
            elif a and abs(number(a, comma) - number(b, comma)) > 0.5 * 10 ** -decimals(a) * (1 + 1e-9):
                fail("%s:%d: %s rounds %s wrongly" % (path, i + 1, a, b))


def main(argv):
    sep, keys, full, paths = ",", 0, None, []
    for a in argv:
        if a.startswith("--sep="):
            sep = a[len("--sep="):]
        elif a.startswith("--keys="):
            keys = int(a[len("--keys="):])
        elif a.startswith("--full="):
            full = a[len("--full="):]
        else:
            paths.append(a)
    if len(paths) != 1:
        fail("usage: csv_import.py [--sep=;] [--keys=N] [--full=FILE] FILE")
    rows, col = read(paths[0], sep, keys)
    check_rounding(paths[0], rows, col, sep == ";")
    if full:
        compare_full(paths[0], rows, col, read(full, sep, keys)[0], sep == ";")


main(sys.argv[1:])
