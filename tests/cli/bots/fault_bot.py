#!/usr/bin/env python3
"""fault_bot.py MODE - a bot that breaks the protocol on purpose, for tests/cli/cli_bots.sh.
It first writes its pid into the file $FAULT_PIDFILE (if set; a FIFO works too), then:
  exit      exits at once, before the handshake
  garbage   answers its first decision with a line that is no answer
  illegal   answers its first decision with an index past the legal actions
  badname   answers with the name of no action
  crash3    dies of SIGSEGV at its third decision
  sleep     never answers its first decision (sleeps far past any test's time limit)
  closeout  closes its standard output at its second decision and keeps running
  flood     writes 200 KB to standard error at each decision, then answers an illegal
            index at the third
  echo      plays the first action always and appends every message to $FAULT_LOG
"""
import os
import signal
import sys
import time

mode = sys.argv[1]
if os.environ.get("FAULT_PIDFILE"):
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
        sys.stdout.write('{"type":"ready"}\n')
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
    elif mode == "flood":
        sys.stderr.write("x" * 200000 + "\n")
        sys.stderr.flush()
        print(99 if decisions == 3 else 0, flush=True)
    else:
        print(0, flush=True)
