#!/usr/bin/env python3
"""results.py — the results document (doc/RESULTS.md and its pages doc/results/*.md): the
figures that take minutes.

    results.py check  BINARY [ID...]   re-run each result's commands in full and fail on a
                                       moved figure (make check-slow)
    results.py update BINARY [ID...]   the same, then keep each run's output in
                                       doc/results/out/ID.txt and rewrite the result's stamp
                                       (version, commit, date, CPU) (make results)
    results.py shape  BINARY [ID...]   run each result's reduced commands (a small budget) and
                                       fail unless their output has the rows and fields that
                                       the kept full output quotes (make check, CI)
    results.py list                    each result's id, its page, its runs, and whether
                                       its full output is kept
An ID may also be page=NAME: every result of doc/results/NAME.md.

A result is a block of a page that opens with `<!-- result: ID -->`, followed by one or more
runs, each three markers on lines of their own:

    <!-- run: giochi-sim --game=volpe --bots=random,alphabeta:depth=4 --runs=400 --seed=1 -->
    <!-- expect: 6.12% 4.17 8.92 -->
    <!-- reduced: giochi-sim --game=volpe --bots=random,alphabeta:depth=4 --runs=4 --seed=1 -->

and, where a quoted row counts an event too rare for any cheap budget to show (an end kind
met once in 40 games, which a summary prints only when it happened), a fourth marker after
the reduced one, `<!-- may-lack: ended: fox captured; ended: no progress -->`: the lines that
begin so need not be in the reduced output. Then a stamp (the lines from `<!-- stamp -->` to `<!-- /stamp -->`, written by update: what
was measured with which version at which commit, and the exact commands), then the tables and
prose, up to the next result or heading of the same or a higher level. A command starts with
giochi-sim (or best_response.sh, tools/best_response.sh) and runs by sh in a scratch folder
with BINARY as giochi-sim on the PATH, so it may chain runs with ; or a pipe.

check and update fail unless every expect token appears as a whole figure (not inside a longer
number) both in its run's output and in the block's visible text. shape runs the reduced
command and, for every line of the kept full output that holds an expect token, looks for a
line of the same shape in the reduced output: the same words (a wrapped label joined to its
line; a bot, name:key=value:... or its name alone, as one word whichever its keys) and as many
numbers (a dash or inf standing for one), whatever the values and the columns' widths. So a reduced run proves that the command
still runs and still prints the rows and fields quoted, without the minutes.

RESULTS_JOBS=N (default 2) runs N commands at once. RESULTS_DIR=DIR reads DIR/RESULTS.md and
DIR/results/*.md instead of doc/ (the tool's own tests). RESULTS_TIME_LIMIT=SECONDS makes update
start no result after that many seconds (the rest keep their stamps: run it again to go on;
every result it finished is written at once, so a stop loses at most the running ones).
"""
import concurrent.futures
import datetime
import os
import re
import glob
import json
import resource
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.environ.get("RESULTS_DIR") or os.path.join(TOP, "doc")
PAGES = [os.path.join(DOC, "RESULTS.md")] + sorted(glob.glob(os.path.join(DOC, "results", "*.md")))
KEPT = os.path.join(DOC, "results", "out")
MARK = re.compile(r"^<!-- (result|run|expect|reduced|may-lack): (.*?) -->\s*$")
BOTSPEC = re.compile(r"(?<![\w:=-])[A-Za-z][\w-]*(?::[A-Za-z_]\w*=[^\s:,;]+)+")
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?%?|[-+]?inf\b|nan\b|—|–|(?<=\s)-(?=\s|$)")


class Result:
    def __init__(self, rid, at, page):
        self.id, self.at, self.runs, self.page = rid, at, [], page
        self.text = []          # visible lines of the block
        self.stamp = None       # (first, last) line indices of the stamp region


def fail(msg):
    print("results: " + msg, file=sys.stderr)
    sys.exit(2)


def parse(lines, page):
    """The results of a page, in order; a malformed block ends the program with its line."""
    results, cur, level, in_stamp, fence = [], None, 0, False, False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fence = not fence
        heading = not fence and re.match(r"^(#+) ", line)
        if heading and cur and len(heading.group(1)) <= level:
            cur = None
        m = MARK.match(line)
        if m and m.group(1) == "result":
            cur = Result(m.group(2).strip(), i + 1, page)
            if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", cur.id):
                fail(f"{page}:{i + 1}: result id '{cur.id}': lower-case letters, digits and -")
            if any(r.id == cur.id for r in results):
                fail(f"{page}:{i + 1}: result '{cur.id}' is given twice")
            results.append(cur)
            level = 6
            for j in range(i, -1, -1):
                h = re.match(r"^(#+) ", lines[j])
                if h:
                    level = len(h.group(1))
                    break
            continue
        if cur is None:
            continue
        if m:
            kind, val = m.group(1), m.group(2).strip()
            if kind == "run":
                cur.runs.append({"cmd": val, "expect": None, "reduced": None, "may-lack": [],
                                 "at": i + 1})
            elif kind == "may-lack" and cur.runs:
                cur.runs[-1][kind] = [x.strip() for x in val.split(";") if x.strip()]
            elif not cur.runs or cur.runs[-1][kind] is not None:
                fail(f"{page}:{i + 1}: a marker '{kind}:' with no run marker before it")
            else:
                cur.runs[-1][kind] = val.split() if kind == "expect" else val
            continue
        if line.strip() == "<!-- stamp -->":
            in_stamp = True
            cur.stamp = [i, None]
            continue
        if line.strip() == "<!-- /stamp -->":
            in_stamp = False
            cur.stamp[1] = i
            continue
        if in_stamp or re.match(r"^<!--.*-->\s*$", line):
            continue
        cur.text.append(line)
    for r in results:
        if not r.runs:
            fail(f"{page}:{r.at}: result '{r.id}' has no run marker")
        for run in r.runs:
            for k in ("expect", "reduced"):
                if run[k] is None:
                    fail(f"{page}:{run['at']}: the run of result '{r.id}' has no {k} marker")
            for k in ("cmd", "reduced"):
                if not re.match(r"^(giochi-sim|best_response\.sh|tools/best_response\.sh) ", run[k]):
                    fail(f"{page}:{run['at']}: a command starts with giochi-sim: {run[k]}")
        if r.stamp is None or r.stamp[1] is None:
            fail(f"{page}:{r.at}: result '{r.id}' has no <!-- stamp --> ... <!-- /stamp --> lines")
    return results


def whole(text, tok):
    """tok occurs in text, not preceded by a digit or a point nor followed by a digit."""
    pat = (r"(?<![0-9.])" if tok[:1].isdigit() or tok[:1] == "." else "") + re.escape(tok) + \
        (r"(?![0-9]|\.[0-9])" if tok[-1:].isdigit() else "")
    return re.search(pat, text) is not None


BOTNAME = None  # the binary's bots by name (set by bot_names), each a BOT however written


def bot_names(binary):
    """Reads the bots of every game from the binary's --list, so that a bot named without
    parameters (greedy) is the same field as one with them (greedy:max_bid=67)."""
    global BOTNAME
    p = subprocess.run([binary, "--list", "--format=json"], capture_output=True, text=True)
    try:
        names = {b["name"] for g in json.loads(p.stdout)["games"] for b in g["bots"]}
    except (ValueError, KeyError, TypeError):
        fail(f"'{binary} --list --format=json' gives no list of bots")
    alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    BOTNAME = re.compile(r"(?<![\w:=.-])(?:" + alt + r")(?::[A-Za-z_]\w*=[^\s:,;]+)*(?![\w-])")


def shape(line):
    """A line's shape: its words but numbers, in order of the alphabet, and how many numbers it
    holds; each bot, with its parameters (name:key=value:...) or without, counts as the word
    BOT, and a dash or inf standing for a number as a number. So the same row with other
    values, or with its columns wider or its label wrapped otherwise, has the same shape."""
    line = BOTSPEC.sub("BOT", line)
    if BOTNAME is not None:
        line = BOTNAME.sub("BOT", line)
    words = line.split()
    kept = [w for w in (NUMBER.sub("#", w) for w in words)]
    names = sorted(w for w in kept if w.strip("#[](),;") != "")
    count = sum(w.count("#") for w in kept)
    return " ".join(names) + f" | {count} numbers"


def unwrap(text):
    """The lines of an output with each wrapped label joined to the line it continues: a line
    of words only (no number), indented deeper than the line before it."""
    out, indent = [], None
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip())
        if out and line.strip() and indent is not None and depth > indent and not NUMBER.search(line):
            out[-1] += " " + line.strip()
            continue
        out.append(line)
        if line.strip():
            indent = depth
    return out


def run_cmd(binary, cmd):
    """Runs cmd by sh in a scratch folder; returns (exit code, stdout, stderr, CPU seconds)."""
    with tempfile.TemporaryDirectory() as d:
        bindir = os.path.join(d, "bin")
        os.mkdir(bindir)
        os.symlink(os.path.abspath(binary), os.path.join(bindir, "giochi-sim"))
        os.symlink(os.path.join(TOP, "tools", "best_response.sh"), os.path.join(bindir, "best_response.sh"))
        run = os.path.join(d, "run")
        os.mkdir(run)
        os.symlink(os.path.join(TOP, "tools"), os.path.join(run, "tools"))
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
        t0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run(["sh", "-c", cmd], cwd=run, env=env, capture_output=True, text=True)
        t1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (t1.ru_utime - t0.ru_utime) + (t1.ru_stime - t0.ru_stime)
        return p.returncode, p.stdout, p.stderr, cpu


def kept_path(r):
    return os.path.join(KEPT, r.id + ".txt")


def read_kept(r):
    """The kept full outputs of a result, one string per run, or None."""
    try:
        with open(kept_path(r)) as f:
            data = f.read()
    except OSError:
        return None
    parts = re.split(r"^#### run \d+: .*\n", data, flags=re.M)
    outs = parts[1:]
    return outs if len(outs) == len(r.runs) else None


def jobs():
    n = os.environ.get("RESULTS_JOBS", "2")
    if not n.isdigit() or int(n) < 1:
        fail(f"RESULTS_JOBS must be a positive whole number, not '{n}'")
    return int(n)


def measure(binary, results):
    """Runs every run of the results in full, RESULTS_JOBS at a time, yielding each result as
    its last run ends: (result, [(rc, out, err, cpu)]); honours RESULTS_TIME_LIMIT."""
    limit = float(os.environ.get("RESULTS_TIME_LIMIT", "0") or 0)
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(jobs()) as pool:
        pending = {}
        queue = [(r, k) for r in results for k in range(len(r.runs))]
        got = {r.id: {} for r in results}
        started = set()
        while queue or pending:
            while queue and len(pending) < jobs():
                r, k = queue[0]
                if limit and time.time() - start > limit and r.id not in started:
                    print(f"results: time limit ({limit:.0f} s): not started: "
                          + " ".join(sorted({q[0].id for q in queue})), flush=True)
                    queue = []
                    break
                queue.pop(0)
                started.add(r.id)
                pending[pool.submit(run_cmd, binary, r.runs[k]["cmd"])] = (r, k)
            if not pending:
                break
            done, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in done:
                r, k = pending.pop(fut)
                got[r.id][k] = fut.result()
                if len(got[r.id]) == len(r.runs):
                    yield r, [got[r.id][i] for i in range(len(r.runs))]


def verdict(r, outs):
    """The problems of a result's full runs: failed commands and figures moved."""
    text = "\n".join(r.text)
    bad = []
    for run, (rc, out, err, _) in zip(r.runs, outs):
        if rc != 0:
            bad.append(f"'{run['cmd']}' exits {rc}: {err.strip()[:200]}")
            continue
        miss = [t for t in run["expect"] if not whole(out, t)]
        if miss:
            bad.append(f"'{run['cmd']}': not in the output: {' '.join(miss)}")
        miss = [t for t in run["expect"] if not whole(text, t)]
        if miss:
            bad.append(f"line {run['at']}: not in the page text: {' '.join(miss)}")
    return bad


def stamp_lines(r, outs, version, commit, day, page):
    cpu = sum(o[3] for o in outs)
    link = os.path.relpath(kept_path(r), os.path.dirname(os.path.join(os.path.dirname(DOC), page)))
    out = ["<!-- stamp -->",
           f"Measured with giochi-sim v{version} at commit {commit} on {day}, "
           f"{cpu:.0f} s of CPU in all (`make results` re-runs it; the full output: "
           f"[{os.path.basename(link)}]({link})):", "", "```sh"]
    out += [run["cmd"] for run in r.runs]
    out += ["```", "<!-- /stamp -->"]
    return out


def select(results, ids):
    """The results named (an id, or page=NAME for every result of doc/results/NAME.md)."""
    if not ids:
        return results
    known = {r.id for r in results}
    pages = {os.path.splitext(os.path.basename(r.page))[0] for r in results}
    for i in ids:
        if i.startswith("page="):
            if i[5:] not in pages:
                fail(f"no results page '{i[5:]}' (pages: {' '.join(sorted(pages))})")
        elif i not in known:
            fail(f"no result '{i}' in the results pages (results: {' '.join(sorted(known))})")
    return [r for r in results
            if r.id in ids or "page=" + os.path.splitext(os.path.basename(r.page))[0] in ids]


def main(argv):
    if len(argv) < 2 or argv[1] not in ("check", "update", "shape", "list"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    mode = argv[1]
    results = []
    for page in PAGES:
        with open(page) as f:
            got = parse(f.read().split("\n"), os.path.relpath(page, os.path.dirname(DOC)))
        for r in got:
            if any(x.id == r.id for x in results):
                fail(f"{r.page}:{r.at}: result '{r.id}' is also in {next(x.page for x in results if x.id == r.id)}")
        results += got
    if mode == "list":
        for r in results:
            kept = read_kept(r)
            print(f"{r.id}\t{r.page}\t{len(r.runs)} run(s)\t{'kept' if kept else 'no kept output'}")
        return 0
    if len(argv) < 3:
        fail(f"usage: results.py {mode} BINARY [ID...]")
    binary = argv[2]
    if not os.access(binary, os.X_OK):
        fail(f"'{binary}' is not an executable")
    chosen = select(results, argv[3:])
    passed = failed = 0

    if mode == "shape":
        bot_names(binary)
        work = []
        for r in chosen:
            kept = read_kept(r)
            if kept is None:
                print(f"FAIL {r.id}: no kept full output in doc/results/out/{r.id}.txt for its "
                      f"{len(r.runs)} run(s): run make results", file=sys.stderr)
                failed += 1
                continue
            for k, run in enumerate(r.runs):
                work.append((r, k, run, kept[k]))
        with concurrent.futures.ThreadPoolExecutor(jobs()) as pool:
            futs = [(w, pool.submit(run_cmd, binary, w[2]["reduced"])) for w in work]
            for (r, k, run, full), fut in futs:
                rc, out, err, cpu = fut.result()
                name = f"{r.id} run {k + 1}"
                if rc != 0:
                    print(f"FAIL {name}: '{run['reduced']}' exits {rc}: {err.strip()[:200]}", file=sys.stderr)
                    failed += 1
                    continue
                want = [ln for ln in unwrap(full) if any(whole(ln, t) for t in run["expect"])
                        and not any(ln.strip().startswith(x) for x in run["may-lack"])]
                have = {shape(ln) for ln in unwrap(out)}
                missing = [ln for ln in want if shape(ln) not in have]
                if not want:
                    print(f"FAIL {name}: the kept output holds none of its expect tokens: run make results",
                          file=sys.stderr)
                    failed += 1
                elif missing:
                    print(f"FAIL {name}: '{run['reduced']}' prints no line shaped like "
                          f"'{' '.join(missing[0].split())}' ({len(missing)} of {len(want)} quoted "
                          "lines missing)", file=sys.stderr)
                    failed += 1
                else:
                    passed += 1
                    if os.environ.get("CHECK_VERBOSE"):
                        print(f"ok   {name} ({len(want)} quoted lines, {cpu:.1f} s of CPU)")
        print(f"results: {passed} passed, {failed} failed")
        return 1 if failed else 0

    version = commit = day = None
    if mode == "update":
        version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.split()[1]
        commit = subprocess.run(["git", "-C", TOP, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip() or "unknown"
        if subprocess.run(["git", "-C", TOP, "diff", "--quiet", "HEAD", "--", "src"]).returncode:
            commit += " (with uncommitted changes to src/)"
        day = datetime.date.today().isoformat()
        os.makedirs(KEPT, exist_ok=True)
    for r, outs in measure(binary, chosen):
        bad = verdict(r, outs)
        cpu = sum(o[3] for o in outs)
        if bad:
            failed += 1
            for b in bad:
                print(f"FAIL {r.id}: {b}", file=sys.stderr)
            if mode == "update":
                with open(kept_path(r) + ".new", "w") as f:
                    for k, (run, o) in enumerate(zip(r.runs, outs)):
                        f.write(f"#### run {k + 1}: {run['cmd']}\n{o[1]}")
                print(f"results: {r.id}: its output is in doc/results/out/{r.id}.txt.new: "
                      "edit the page's figures and expect markers, then run make results again",
                      file=sys.stderr)
            continue
        passed += 1
        print(f"ok   {r.id} ({len(r.runs)} run(s), {cpu:.1f} s of CPU)", flush=True)
        if mode == "update":
            tmp = kept_path(r) + ".tmp"
            with open(tmp, "w") as f:
                for k, (run, o) in enumerate(zip(r.runs, outs)):
                    f.write(f"#### run {k + 1}: {run['cmd']}\n{o[1]}")
            os.replace(tmp, kept_path(r))
            try:
                os.unlink(kept_path(r) + ".new")
            except OSError:
                pass
            # the page as it is now (another result may have been written meanwhile)
            page = os.path.join(os.path.dirname(DOC), r.page)
            with open(page) as f:
                now = f.read().split("\n")
            cur = next(x for x in parse(now, r.page) if x.id == r.id)
            a, b = cur.stamp
            now[a:b + 1] = stamp_lines(cur, outs, version, commit, day, r.page)
            with open(page + ".tmp", "w") as f:
                f.write("\n".join(now))
            os.replace(page + ".tmp", page)
    skipped = len(chosen) - passed - failed
    tail = f", {skipped} not run (time limit)" if skipped else ""
    print(f"results: {passed} passed, {failed} failed{tail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
