"""giochi_bot.py - the giochi-sim bot protocol (giochi-sim-bots(7)) for Python 3 bots.

giochi-sim starts the bot and writes one JSON object per line on its standard input:
"hello" once, then for every game "start", a "decide" for each of the seat's choices, and
"end"; "bye" at the close. The bot answers "hello" with {"type": "ready"} and each "decide"
with the index of an action (or its name); nothing else. Subclass Bot, override what you
need, and call play(YourBot()).
"""
import json
import random
import sys


class Bot:
    """A bot: hello(msg) once, start(msg) at each game, decide(msg) -> index, end(msg)."""

    def hello(self, msg):
        self.game, self.seat, self.seats = msg["game"], msg["seat"], msg["seats"]
        self.params, self.ruleset = msg["params"], msg["ruleset"]

    def start(self, msg):
        # The seat's seed for this game: the same at any thread, shard or rank count.
        self.random = random.Random(msg["seed"])

    def decide(self, msg):
        return 0

    def end(self, msg):
        pass


def play(bot, inp=sys.stdin, out=sys.stdout):
    """Speaks the protocol for bot until giochi-sim says bye or closes the pipe."""
    for line in inp:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "decide":
            out.write("%d\n" % bot.decide(msg))
            out.flush()
        elif kind == "start":
            bot.start(msg)
        elif kind == "end":
            bot.end(msg)
        elif kind == "hello":
            bot.hello(msg)
            out.write('{"type": "ready"}\n')
            out.flush()
        elif kind == "bye":
            break
