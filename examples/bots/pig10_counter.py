#!/usr/bin/env python3
"""pig10_counter.py - a PIG 10 heuristic that counts cards: takes the table at exactly 10
when it can; otherwise it stays at or under 10 and leaves the value the next player is least
likely to bring to 10, judged from the cards it has not seen (the deck less its hand and
every card played); it keeps frogs and sirens for later."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import giochi_bot  # noqa: E402
from pig10_greedy import result  # noqa: E402


class Counter(giochi_bot.Bot):
    def decide(self, msg):
        v = msg["view"]
        unseen = [d - p - h for d, p, h in zip(v["deck"], v["played"], v["hand"])]
        total = max(1, sum(unseen))
        best, best_score = 0, None
        for i, a in enumerate(msg["actions"]):
            card, mode = a["code"] >> 2, a["code"] & 3
            to = result(v["value"], v["table_cards"], card, mode)
            if to == 10:
                s = 1000 + v["table_cards"]
            elif to > 10:
                s = -1000 - card
            else:
                # cards that would take it at 10 next: the one that adds up, a 10 on a frog
                need = unseen[10 - to] if 10 - to > 0 else unseen[10]
                s = -100.0 * need / total - (3 if card in (0, 5) else 0)
            if best_score is None or s > best_score:
                best, best_score = i, s
        return best


if __name__ == "__main__":
    giochi_bot.play(Counter())
