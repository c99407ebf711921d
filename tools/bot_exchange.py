#!/usr/bin/env python3
"""bot_exchange.py BINARY - writes the example exchanges of giochi-sim-bots(7), one per game,
as roff, from real runs: giochi-sim plays game 0 of --seed=1 with this script as seat 1's
bot (it records every line each way and always answers 0, the first legal action) against
the game's default bot. Long games are cut after two decisions, down to the last one; the
ruleset is shortened. Run by `tools/bot_exchange.py ./giochi-sim` to remake the section, and
by tests/cli/cli_bots.sh to check that the page is up to date.
    tools/bot_exchange.py --record FILE   (the bot itself)"""
import json
import os
import subprocess
import sys
import tempfile

GAMES = [("45", 2), ("oca", 2), ("pig10", 3), ("wari", 2), ("cinesi", 2), ("volpe", 2)]


def record(path):
    with open(path, "w") as log:
        for line in sys.stdin:
            log.write("> " + line)
            kind = json.loads(line)["type"]
            answer = '{"type":"ready"}' if kind == "hello" else "0" if kind == "decide" else None
            if answer:
                log.write("< " + answer + "\n")
                sys.stdout.write(answer + "\n")
                sys.stdout.flush()
            if kind == "bye":
                break


def shorten(line):
    """The ruleset of a hello message cut to its first members."""
    if not line.startswith('> {"type":"hello"'):
        return line
    msg = json.loads(line[2:])
    text = json.dumps(msg["ruleset"], separators=(",", ":"))
    cut = text[:60].rsplit(",", 1)[0] + ",...}" if len(text) > 60 else text
    return "> " + json.dumps(msg, separators=(",", ":")).replace(text, cut)


def exchange(binary, game, players):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "log")
        me = os.path.abspath(__file__)
        subprocess.run([binary, "--game=" + game, "--players=%d" % players, "--runs=1",
                        "--seed=1", "--threads=1", "-q", "--output=" + os.path.join(tmp, "r"),
                        "--bot-program=rec=python3 %s --record %s" % (me, log),
                        "--bots=rec" + ",%s" % "" * 0 + "".join(
                            "," + d for d in [default(binary, game)] * (players - 1))],
                       check=True)
        lines = [shorten(l.rstrip("\n")) for l in open(log)]
    decide = [i for i, l in enumerate(lines) if l.startswith('> {"type":"decide"')]
    if len(decide) > 3:  # two decisions, then the last one
        cut, resume = decide[2], decide[-1]
        lines = lines[:cut] + ["  (%d more decisions)" % (len(decide) - 3)] + lines[resume:]
    return lines


def wrap(line, width=92):
    """line cut after commas into pieces of at most width characters, the later ones
    indented (on the wire each message is one line)."""
    out, rest = [], line
    while len(rest) > width:
        cut = rest.rfind(",", 0, width) + 1 or width
        out.append(rest[:cut])
        rest = "    " + rest[cut:]
    return out + [rest]


def default(binary, game):
    """the game's default bot, as --list --format=json names it"""
    out = subprocess.run([binary, "--game=" + game, "--list", "--format=json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["games"][0]["default_bot"]


def main():
    binary = sys.argv[1]
    print(".\\\" Made by tools/bot_exchange.py from real runs; do not edit by hand.")
    for game, players in GAMES:
        print(".SS %s (%d players, seat 1 the bot, game 0 of \\-\\-seed=1)" % (game, players))
        print(".nf")
        for l in exchange(binary, game, players):
            for part in wrap(l):
                print(part.replace("\\", "\\e"))
        print(".fi")


if __name__ == "__main__":
    if sys.argv[1] == "--record":
        record(sys.argv[2])
    else:
        main()
