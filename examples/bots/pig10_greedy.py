#!/usr/bin/env python3
"""pig10_greedy.py - a port of giochi-sim's built-in PIG 10 greedy bot, reading only what
the protocol sends: given the same seed it makes the same choices (tests/cli/cli_bots.sh
compares the two runs' games CSV). Action codes are card * 4 + mode (giochi-sim-bots(7))."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import giochi_bot  # noqa: E402

ADD, SUB, SET = 0, 1, 2
KEEP = {0: 3, 5: 3, 10: 1}  # frogs and sirens are kept, a 10 a little


def result(value, table_cards, card, mode):
    """The table's value after the play (pig10.h, pig10_result)."""
    if card == 0:
        return 0
    if table_cards == 0 or mode == SET:
        return card
    if mode == SUB:
        return value - card if value > card else 0
    return value + card


def score(view, code):
    card, mode = code >> 2, code & 3
    keep = KEEP.get(card, 0)
    to = result(view["value"], view["table_cards"], card, mode)
    band = 1000000 if to == 10 else -1000000 if to > 10 else -100 * keep - to
    return band if to < 10 else band - keep


class Greedy(giochi_bot.Bot):
    def decide(self, msg):
        scores = [score(msg["view"], a["code"]) for a in msg["actions"]]
        return scores.index(max(scores))  # the first of the best


if __name__ == "__main__":
    giochi_bot.play(Greedy())
