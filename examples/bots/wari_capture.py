#!/usr/bin/env python3
"""wari_capture.py - a Wari heuristic: plays the move that captures the most seeds and,
among those, leaves the opponent's best reply smallest, by sowing on a copy of the board
(sowing skips the pit it started from; a capture takes 2s and 3s backwards on the
opponent's row). No grand-slam or feeding subtleties: a heuristic, not an oracle."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import giochi_bot  # noqa: E402


def sow(pits, n, seat, pit):
    """The board after seat sows its pit (0..n-1) and the seeds captured."""
    board = list(pits)
    start = seat * n + pit
    seeds, board[start], i = board[start], 0, start
    while seeds:
        i = (i + 1) % (2 * n)
        if i != start:
            board[i] += 1
            seeds -= 1
    taken = 0
    while i // n != seat and board[i] in (2, 3):
        taken += board[i]
        board[i] = 0
        i -= 1
    return board, taken


def best_capture(board, n, seat):
    return max([sow(board, n, seat, p)[1] for p in range(n) if board[seat * n + p]] or [0])


class Capture(giochi_bot.Bot):
    def decide(self, msg):
        v = msg["view"]
        n, seat = v["pits_per_row"], v["seat"]
        best, key = 0, None
        for i, a in enumerate(msg["actions"]):
            board, taken = sow(v["pits"], n, seat, a["code"])
            k = (taken, -best_capture(board, n, 1 - seat))
            if key is None or k > key:
                best, key = i, k
        return best


if __name__ == "__main__":
    giochi_bot.play(Capture())
