# oca_roles.py REPORT.json GAMES.csv — checks the oca's figures by role (the report's "roles",
# from the game metrics role_*, capo_*, banker_*) against the per-game CSV of the same run:
# each game's roles worked out again from its columns (capo_K, banker_K, volunteered_K), the
# role's trials, wins (alone or tied), bankruptcies and net counted anew, exactly. Exits 1
# naming the first difference.
import csv
import json
import sys

report = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
seats = range(1, report["players"] + 1)
dote = report["ruleset"]["dote"]


def fail(what):
    print("oca_roles: " + what, file=sys.stderr)
    sys.exit(1)


count = {r: {"n": 0, "won": 0, "bust": 0, "net": 0} for r in ("capo", "banker", "volunteer", "other")}
not_banker = [0, 0]
for g in rows:
    winners = {int(k) for k in g["winner"].split("+")} if g["winner"] else set()
    capo = [k for k in seats if g["capo_%d" % k] == "1"]
    banker = [k for k in seats if g["banker_%d" % k] == "1"]
    if len(capo) != 1 or len(banker) > 1:
        fail("game %s: %d Capo-gioco, %d first bankers" % (g["game_index"], len(capo), len(banker)))
    for k in seats:
        if g["volunteered_%d" % k] == "1" and k == capo[0]:
            fail("game %s: the Capo-gioco volunteered" % g["game_index"])
        bust, net = int(g["bankrupt_%d" % k]), int(g["score_%d" % k]) - dote
        roles = []
        if k == capo[0]:
            roles.append("capo")
        if banker and k == banker[0]:
            roles.append("banker")
        elif g["volunteered_%d" % k] == "1":
            roles.append("volunteer")
        elif k != capo[0]:
            roles.append("other")
        for r in roles:
            c = count[r]
            c["n"] += 1
            c["won"] += k in winners
            c["bust"] += bust
            c["net"] += net
        if not (banker and k == banker[0]):
            not_banker[0] += bust
            not_banker[1] += 1

by_role = {ro["role"]: ro for ro in report["roles"]}
names = {"capo": "Capo-gioco", "banker": "first banker (the bank's winner)",
         "volunteer": "volunteers who lost the bank", "other": "the other players"}
for key, name in names.items():
    ro, c = by_role[name], count[key]
    for what, got, want in (("wins", ro["win_share"]["hits"], c["won"]),
                            ("trials", ro["win_share"]["n"], c["n"]),
                            ("bankruptcies", ro["bankrupt"]["hits"], c["bust"]),
                            ("nets", ro["net"]["n"], c["n"])):
        if got != want:
            fail("%s: %s %s, the games give %s" % (name, what, got, want))
    if c["n"] and abs(ro["net"]["value"] - c["net"] / c["n"]) > 1e-9:
        fail("%s: mean net %s, the games give %s" % (name, ro["net"]["value"], c["net"] / c["n"]))
e = report["metrics"]["players_bankrupt_not_banker"]
if [e["hits"], e["n"]] != not_banker:
    fail("players_bankrupt_not_banker %s/%s, the games give %s/%s" % (e["hits"], e["n"], *not_banker))
