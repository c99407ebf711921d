#!/usr/bin/env python3
"""fault_bot.py MODE[+child] - a bot that breaks the protocol on purpose, for tests/cli/cli_bots.sh.
It first makes a file named by its pid in the directory $FAULT_PIDDIR (if set); with
"+child", it starts a child, `sleep 300`, that holds its standard input, output and error (it
must not outlive the run), and makes a file named by the child's pid there too; then it
writes its pid into the file $FAULT_PIDFILE (if set; a FIFO works too). Then:
  exit      exits at once, before the handshake
  garbage   answers its first decision with a line that is no answer
  illegal   answers its first decision with an index past the legal actions
  badname   answers with the name of no action
  crash3    dies of SIGSEGV at its third decision
  sleep     never answers its first decision (sleeps far past any test's time limit)
  closeout  closes its standard output at its second decision and keeps running
  flood     writes 200 KB to standard error at each decision (in whole lines), then answers an illegal
            index at the third
  echo      plays the first action always and appends every message to $FAULT_LOG
  play      plays the first action always
  extra     answers its first decision with two lines in one write
  early     answers the handshake and, in the same write, a decision not yet asked for
  closein   answers its second decision, then closes its standard input and keeps running
  nonl      answers its first decision without a newline and keeps running
  nonlexit  answers its first decision without a newline and exits (status 0)
  longline  answers its first decision with 10000 bytes and no newline, and keeps running
"""
import os
import signal
import subprocess
import sys
import time

mode, _, child = sys.argv[1].partition("+")
piddir = os.environ.get("FAULT_PIDDIR")
if piddir:
    open(os.path.join(piddir, str(os.getpid())), "w").close()
if child:
    kid = subprocess.Popen(["sleep", "300"])
    if piddir:
        open(os.path.join(piddir, str(kid.pid)), "w").close()
if os.environ.get("FAULT_PIDFILE"):  # last: once it is written, the child runs
    with open(os.environ["FAULT_PIDFILE"], "w") as f:
        f.write("%d\n" % os.getpid())
if mode == "exit":
    sys.exit(3)
log = open(os.environ["FAULT_LOG"], "a") if mode == "echo" else None
decisions = 0
for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
    if '"type":"hello"' in line:
        sys.stdout.write('{"type":"ready"}\n' + ("0\n" if mode == "early" else ""))
        sys.stdout.flush()
        continue
    if '"type":"decide"' not in line:
        continue
    decisions += 1
    if mode == "garbage":
        print("I think the second one", flush=True)
    elif mode == "illegal":
        print(99, flush=True)
    elif mode == "badname":
        print('"no such move"', flush=True)
    elif mode == "crash3" and decisions == 3:
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode == "sleep":
        time.sleep(3600)
    elif mode == "closeout" and decisions == 2:
        os.close(1)
        time.sleep(3600)
    elif mode == "extra" and decisions == 1:
        sys.stdout.write("0\n0\n")
        sys.stdout.flush()
    elif mode == "closein" and decisions == 2:
        print(0, flush=True)
        os.close(0)
        time.sleep(3600)
    elif mode in ("nonl", "nonlexit", "longline"):
        sys.stdout.write("x" * 10000 if mode == "longline" else "0")
        sys.stdout.flush()
        if mode == "nonlexit":
            sys.exit(0)
        time.sleep(3600)
    elif mode == "flood":
        # 50 lines of 4000 bytes, each one write of less than PIPE_BUF: a line is in the pipe
        # whole or not at all when the run kills the bot mid-flood, so that giochi-sim's
        # closing line starts a line of its own (a longer write can be cut mid-line)
        for _ in range(50):
            os.write(2, b"x" * 3999 + b"\n")
        print(99 if decisions == 3 else 0, flush=True)
    else:
        print(0, flush=True)
