#!/usr/bin/env python3
"""random_bot.py - plays any giochi-sim game by picking a legal action at random, from the
seat's seed of each game (so a run gives the same report at any thread count)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import giochi_bot  # noqa: E402


class RandomBot(giochi_bot.Bot):
    def decide(self, msg):
        return self.random.randrange(len(msg["actions"]))


if __name__ == "__main__":
    giochi_bot.play(RandomBot())
