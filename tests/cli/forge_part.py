#!/usr/bin/env python3
"""forge_part.py — a forged partial-result file with a valid checksum, for the tests of
--merge's checks of sense (tests/cli/cli_exp_parts.sh).

    forge_part.py SRC DST [--payload=BYTES] EDIT...

Copies the part SRC to DST with each EDIT applied to its payload (the bytes after the
identity line and the payload's 8-byte length), then recomputes the FNV-1a checksum over
everything before it, as partial.c writes it: the file is then read past the checksum into
the checks of sense, as a forged part would be. --payload=BYTES first asserts the payload's
length (the test's guard that it knows the layout it edits).

An EDIT is OFFSET:TYPE:OP:VALUE: OFFSET in the payload (an integer sum such as 24+8+5*232+8),
TYPE u64 or i128 (little-endian, i128 signed), OP set or add, VALUE an integer (may be
negative, or a power such as 2**126).

OFFSET may instead name a field of the K-th run result (tallies) the payload holds, counted
from 0 (a plain run's part holds one; an experiment's part one for each setting of a block
that keeps tallies): rK.games, rK.tied, rK.no_winner, rK.end.E (the count of end E), rK.nkinds
or rK.choices.I (word I of the choice counters: seat S, kind D at 2 (S nkinds + D), its
"other" count one after). A run result is found as the words 2 (its format), a count of
players (1 to 8), the game's metrics and ends at a word boundary; NMETRICS and NENDS are given as
--shape=NMETRICS,NENDS."""
import re
import struct
import sys


def number(text):
    """An integer written as digits with + - * and ** (no names): the tests' offsets."""
    if not re.fullmatch(r"[0-9+\-* ]+", text):
        sys.exit("forge_part.py: not an integer expression: " + text)
    return int(eval(text, {"__builtins__": {}}))  # digits and operators only, checked above


def results(body, start, plen, nmetrics, nends):
    """Offsets (in the payload) of the run results it holds, in order."""
    found = []
    for o in range(0, plen - 32, 8):
        w = struct.unpack("<4Q", body[start + o:start + o + 32])
        if w[0] == 2 and 1 <= w[1] <= 8 and w[2:] == (nmetrics, nends):
            found.append(o)
    return found


def field_offset(name, body, start, plen, shape):
    """The payload offset of named field rK.FIELD (see the module's text)."""
    m = re.fullmatch(r"r([0-9]+)\.(games|tied|no_winner|nkinds|end\.[0-9]+|choices\.[0-9]+)", name)
    if m is None or shape is None:
        sys.exit("forge_part.py: a field needs --shape and reads rK.FIELD: " + name)
    nmetrics, nends = shape
    at = results(body, start, plen, nmetrics, nends)
    k = int(m.group(1))
    if k >= len(at):
        sys.exit("forge_part.py: run result %d of %d" % (k, len(at)))
    base, f = at[k], m.group(2)
    words = {"games": 4, "tied": 5, "no_winner": 6, "nkinds": 8 + nends}
    if f in words:
        return base + 8 * words[f]
    if f.startswith("end."):
        return base + 8 * (8 + int(f[4:]))
    return base + 8 * (9 + nends + int(f[8:]))


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    src, dst, edits = args[0], args[1], args[2:]
    data = open(src, "rb").read()
    head = data.index(b"\n", data.index(b"\n") + 1) + 1  # the magic line, the identity line
    plen = struct.unpack("<Q", data[head:head + 8])[0]
    start = head + 8
    body = bytearray(data[:start + plen])
    if len(data) != start + plen + 8:
        sys.exit("forge_part.py: %s is not a part without a MAC" % src)
    shape = None
    for e in edits:
        if e.startswith("--shape="):
            shape = tuple(int(x) for x in e[len("--shape="):].split(","))
    for e in edits:
        if e.startswith("--shape="):
            continue
        if e.startswith("--payload="):
            want = number(e[len("--payload="):])
            if want != plen:
                sys.exit("forge_part.py: payload of %d bytes, not %d" % (plen, want))
            continue
        off, kind, op, value = e.split(":")
        if off.startswith("r"):
            off = str(field_offset(off, body, start, plen, shape))
        at, v = start + number(off), number(value)
        if kind == "u64":
            old = struct.unpack("<Q", body[at:at + 8])[0]
            new = (old + v if op == "add" else v) % 2**64
            body[at:at + 8] = struct.pack("<Q", new)
        elif kind == "i128":
            lo, hi = struct.unpack("<Qq", body[at:at + 16])
            old = lo + (hi << 64)
            new = old + v if op == "add" else v
            if not -2**127 <= new < 2**127:
                sys.exit("forge_part.py: %d does not fit 128 bits" % new)
            body[at:at + 16] = struct.pack("<Qq", new % 2**64, new >> 64)
        else:
            sys.exit("forge_part.py: type %s" % kind)
    h = 0xcbf29ce484222325
    for c in body:
        h = ((h ^ c) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    open(dst, "wb").write(bytes(body) + struct.pack("<Q", h))


main()
