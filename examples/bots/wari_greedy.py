#!/usr/bin/env python3
"""wari_greedy.py - a port of giochi-sim's built-in Wari greedy bot, ties broken at random
from the seat's stream of each game exactly as the built-in bot draws them: the "start"
seed seeds the same generator (xoshiro256** seeded by splitmix64, uniform draws by Lemire's
method; src/core/rng.h). Given the same --seed it makes the same choices, so the two runs'
games CSV are the same (tests/cli/cli_bots.sh). Follows the rules of the ruleset it is sent
(grand_slam, must_feed)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import giochi_bot  # noqa: E402

MASK = (1 << 64) - 1


class Stream:
    """giochi-sim's generator (rng.h): rng_seed, rng_next, rng_below."""

    def __init__(self, seed):
        self.s, x = [], seed
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & MASK
            z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            self.s.append(z ^ (z >> 31))

    def next(self):
        s = self.s
        x = (s[1] * 5) & MASK
        result = ((((x << 7) | (x >> 57)) & MASK) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = ((s[3] << 45) | (s[3] >> 19)) & MASK
        return result

    def below(self, n):
        m = (self.next() >> 32) * n
        if (m & 0xFFFFFFFF) < n:
            threshold = (2**32 - n) % n
            while (m & 0xFFFFFFFF) < threshold:
                m = (self.next() >> 32) * n
        return m >> 32


class Greedy(giochi_bot.Bot):
    def hello(self, msg):
        super().hello(msg)
        self.slam = msg["ruleset"]["grand_slam"]
        self.must_feed = msg["ruleset"]["must_feed"]

    def start(self, msg):
        self.stream = Stream(msg["seed"])

    def sow(self, pits, seat, a):
        """The board after seat sows pit a, the seeds captured, and whether it is a slam."""
        p = self.p
        board, start = list(pits), seat * p + a
        seeds, board[start], i = board[start], 0, start
        while seeds:
            i = (i + 1) % (2 * p)
            if i != start:
                board[i] += 1
                seeds -= 1
        lo = (1 - seat) * p
        if not (lo <= i < lo + p and board[i] in (2, 3)):
            return board, 0, False
        j, got = i, 0
        while j >= lo and board[j] in (2, 3):
            got += board[j]
            j -= 1
        slam = got == sum(board[lo:lo + p])  # every seed of the opponent
        if slam and self.slam != "captures_all":
            return board, 0, True  # allowed without capture, or forbidden and forced
        for k in range(j + 1, i + 1):
            board[k] = 0
        return board, got, slam

    def legal(self, pits, seat):
        p, row = self.p, pits[seat * self.p:(seat + 1) * self.p]
        if self.must_feed and sum(pits[(1 - seat) * p:(2 - seat) * p]) == 0:
            moves = [a for a in range(p) if row[a] >= p - a]
        else:
            moves = [a for a in range(p) if row[a]]
        if len(moves) > 1 and self.slam == "forbidden":
            kept = [a for a in moves if not self.sow(pits, seat, a)[2]]
            moves = kept or moves
        return moves

    def decide(self, msg):
        v = msg["view"]
        self.p, seat = v["pits_per_row"], v["seat"]
        best, best_cap, best_reply = [], -1, 0
        for i, action in enumerate(msg["actions"]):
            board, cap, _ = self.sow(v["pits"], seat, action["code"])
            reply = 0
            if 2 * (v["stores"][seat] + cap) <= v["seeds"]:
                reply = max([self.sow(board, 1 - seat, a)[1]
                             for a in self.legal(board, 1 - seat)] or [0])
            if cap > best_cap or (cap == best_cap and reply < best_reply):
                best, best_cap, best_reply = [], cap, reply
            if cap == best_cap and reply == best_reply:
                best.append(i)
        return best[0] if len(best) == 1 else best[self.stream.below(len(best))]


if __name__ == "__main__":
    giochi_bot.play(Greedy())
