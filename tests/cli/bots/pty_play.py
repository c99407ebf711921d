#!/usr/bin/env python3
"""pty_play.py TRANSCRIPT ANSWERS -- COMMAND... - runs COMMAND on a pseudo-terminal, as a
person at a terminal would, for the human seat's tests. At each prompt "your choice (1-N,
q to quit): " it types the next of the comma-separated ANSWERS ("x" and "0" are bad input),
the last one again once they run out. Writes everything the terminal showed to TRANSCRIPT
and exits with COMMAND's exit status (124 if it shows nothing for 60 s)."""
import os
import pty
import select
import sys

transcript, answers = sys.argv[1], sys.argv[2].split(",")
command = sys.argv[sys.argv.index("--") + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
shown, asked = b"", 0
while True:
    ready, _, _ = select.select([fd], [], [], 60)
    if not ready:
        os.kill(pid, 9)
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
        os.write(fd, answer.encode() + b"\n")
        asked += 1
open(transcript, "wb").write(shown)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) if ready else 124)
