# oca_dists.py REPORT.json GAMES.csv [REPORT.csv] — checks every distribution of an oca report
# against the per-game CSV (--games-csv) of the same run: the bins counted again from the games'
# own rows, exactly; bins that tile the values seen, of the width they claim (bid_step for the
# winning bid, read from the report's ruleset); the ruin table's labels from the board; the
# CSV report's distribution rows the same counts. Exits 1 naming the first difference.
import csv
import json
import sys

report = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
players = report["players"]
seats = range(1, players + 1)
board = report["ruleset"]["board"]


def ints(values):
    return [int(v) for v in values if v != ""]


# The observations of each distribution, read from the games' rows alone.
observed = {
    "bankrupt_players": ints(r["bankruptcies"] for r in rows),
    "winning_bid": ints(r["winning_bid"] for r in rows if r["auction"] == "1"),
    "auction_bidders": ints(r["auction_bidders"] for r in rows if r["auction"] == "1"),
    "ruin_square": ints(r["bankruptcy_square_%d" % k] for r in rows for k in seats),
    "declarations_per_player": ints(r["declarations_%d" % k] for r in rows for k in seats),
    "declarations_per_game": ints(r["declarations_game"] for r in rows),
    "cashier_till": ints(r["cashier_till"] for r in rows),
}


def fail(what):
    print("oca_dists: " + what, file=sys.stderr)
    sys.exit(1)


# Independent ties between the columns: a square for every bankrupt seat and only for those,
# a game's declarations the sum of its players'.
for r in rows:
    for k in seats:
        if (r["bankrupt_%d" % k] == "1") != (r["bankruptcy_square_%d" % k] != ""):
            fail("game %s seat %d: bankrupt %s, square '%s'" % (
                r["game_index"], k, r["bankrupt_%d" % k], r["bankruptcy_square_%d" % k]))
    if int(r["declarations_game"]) != sum(int(r["declarations_%d" % k]) for k in seats):
        fail("game %s: declarations_game is not the sum of the players'" % r["game_index"])
if len(observed["ruin_square"]) != sum(observed["bankrupt_players"]):
    fail("ruins %d, bankruptcies %d" % (len(observed["ruin_square"]), sum(observed["bankrupt_players"])))


def reconstructed(sq):
    pays = sq["effect"] in ("pay_bank", "receive_bank", "collect_all", "distribute_all")
    rec = sq.get("source") == "reconstruction" or "reconstruction" in sq.get("note", "")
    return pays and sq["amount"] > 0 and rec


# The auction winner's net by winning bid (the table auction_net_by_bid), from the games'
# winning bid, which seat won the auction and that seat's final points.
dote = report["ruleset"]["dote"]
by_bin = {}
for r in rows:
    if r["auction"] != "1":
        continue
    winner = [k for k in seats if r["auction_winner_%d" % k] == "1"]
    if len(winner) != 1:
        fail("game %s: %d auction winners" % (r["game_index"], len(winner)))
    b = min(int(r["winning_bid"]) // 10, 10)
    by_bin.setdefault(b, []).append(int(r["score_%d" % winner[0]]) - dote)
table = {t["name"]: t for t in report["tables"]}["auction_net_by_bid"]
for i, row in enumerate(table["rows"]):
    nets = by_bin.get(i, [])
    e = row["estimate"]
    if e["n"] != len(nets) or (nets and abs(e["value"] - sum(nets) / len(nets)) > 1e-9):
        fail("auction_net_by_bid row %s: n %s mean %s, the games give %d and %s" % (
            row["label"], e["n"], e["value"], len(nets), sum(nets) / len(nets) if nets else None))

dists = {d["name"]: d for d in report["distributions"]}
if sorted(dists) != sorted(observed):
    fail("distributions %s, expected %s" % (sorted(dists), sorted(observed)))
for name, values in observed.items():
    d = dists[name]
    if d["n"] != len(values):
        fail("%s: n %d, the games show %d" % (name, d["n"], len(values)))
    bins = d["bins"]
    total = sum(b["count"] for b in bins)
    if total != len(values):
        fail("%s: counts add up to %d, not %d" % (name, total, len(values)))
    for b in bins:
        count = sum(1 for v in values if b["from"] <= v <= b["to"])
        if b["count"] != count:
            fail("%s: bin %s..%s counts %d, the games %d" % (name, b["from"], b["to"], b["count"], count))
        if abs(b["share"] - count / len(values)) > 1e-12:
            fail("%s: bin %s share %r" % (name, b["from"], b["share"]))
    if not values:
        continue
    if d["table"]:
        if [b["from"] for b in bins] != sorted(set(values)) or any(b["from"] != b["to"] for b in bins):
            fail("%s: rows %s, values seen %s" % (name, [b["from"] for b in bins], sorted(set(values))))
    else:
        w = d["width"]
        if name == "winning_bid" and w != report["ruleset"]["bid_step"]:
            fail("winning_bid: width %d, bid_step %d" % (w, report["ruleset"]["bid_step"]))
        for i, b in enumerate(bins):
            if b["to"] - b["from"] + 1 != w or b["from"] % w != 0:
                fail("%s: bin %s..%s is not of width %d on its multiples" % (name, b["from"], b["to"], w))
            if i > 0 and bins[i - 1]["to"] + 1 != b["from"]:
                fail("%s: a gap before bin %s" % (name, b["from"]))
        if not (bins[0]["from"] <= min(values) and max(values) <= bins[-1]["to"]):
            fail("%s: bins %s..%s, values %d..%d" % (name, bins[0]["from"], bins[-1]["to"], min(values), max(values)))
        if bins[0]["count"] == 0 or bins[-1]["count"] == 0:
            fail("%s: an empty bin at an end" % name)

# Ruin by cause: who was ruined (a player, or the banker: codes 100 + square and the
# declarations -3, -4), then the cause named, each square by its number and the board's name,
# "(rec.)" exactly on the squares whose amount is a reconstruction.
for b in dists["ruin_square"]["bins"]:
    v, label = b["from"], b["label"]
    who = "banker: " if v > 100 or v in (-3, -4) else "player: "
    if v in (-1, -2, -3, -4):
        ok = label.startswith(who) and "declaration" in label
    elif v == 0:
        ok = label.startswith("other")
    else:
        sq = board[(v - 100 if v > 100 else v) - 1]
        ok = label.startswith("%s%d %s:" % (who, v - 100 if v > 100 else v, sq["name"])) and \
            label.endswith("(rec.)") == reconstructed(sq)
    if not ok:
        fail("ruin_square: value %d labelled '%s'" % (v, label))

# The CSV report: two rows per bin, its count and its share (rounded to its interval's
# digits), the bin in its own columns.
if len(sys.argv) > 3:
    got = {}
    for r in csv.DictReader(open(sys.argv[3])):
        if r["metric"].startswith("distribution."):
            key = (r["metric"][len("distribution."):], r["stat"], float(r["bin_from"]),
                   float(r["bin_to"]), r["bin_label"])
            got[key] = (float(r["value"]), float(r["n"]), r["value"])
    want = {}
    for name, d in dists.items():
        for b in d["bins"]:
            want[(name, "count", b["from"], b["to"], b["label"])] = (b["count"], d["n"])
            want[(name, "share", b["from"], b["to"], b["label"])] = (b["share"], d["n"])
    if set(got) != set(want):
        fail("CSV distribution rows differ: %s" % sorted(set(got) ^ set(want))[:4])
    for k, (v, n, cell) in got.items():
        digits = len(cell.split(".")[1]) if "." in cell else 0
        if n != want[k][1] or abs(v - want[k][0]) > 0.5 * 10 ** -digits * (1 + 1e-9):
            fail("CSV distribution row %s: %s of %g, want %s of %g" % (k, cell, n, want[k][0], want[k][1]))
