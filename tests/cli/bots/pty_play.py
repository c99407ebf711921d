#!/usr/bin/env python3
"""pty_play.py TRANSCRIPT ANSWERS -- COMMAND... - runs COMMAND on a pseudo-terminal, as a
person at a terminal would, for the human seat's tests. At each prompt ending in
"q to quit): " it types the next of the comma-separated ANSWERS, the last one again once
they run out; the answer "first" types the number of the first choice of the last list
shown ("  4) pit 4 (3 seeds)"), or nothing (Enter) when no list was shown. Writes
everything the terminal showed to TRANSCRIPT and exits with COMMAND's exit status (124 if
it shows nothing for 60 s or asks more than 3000 times)."""
import os
import pty
import re
import select
import sys

transcript, answers = sys.argv[1], sys.argv[2].split(",")
command = sys.argv[sys.argv.index("--") + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
shown, asked, stuck = b"", 0, False
while True:
    ready, _, _ = select.select([fd], [], [], 60)
    if not ready or asked > 3000:
        os.kill(pid, 9)
        stuck = True
        break
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # the command has closed the terminal
        break
    if not chunk:
        break
    shown += chunk
    while shown.count(b"q to quit): ") > asked:
        answer = answers[min(asked, len(answers) - 1)]
        if answer == "first":
            last = shown.rfind(b"\n--- your turn")
            listed = re.findall(rb"\n +(\d+)\) ", shown[last:]) if last >= 0 else []
            answer = listed[0].decode() if listed else ""
        os.write(fd, answer.encode() + b"\n")
        asked += 1
open(transcript, "wb").write(shown)
_, status = os.waitpid(pid, 0)
sys.exit(124 if stuck else os.waitstatus_to_exitcode(status))
