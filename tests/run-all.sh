#!/bin/sh
# run-all.sh UNIT_TESTS BINARY — the whole suite as jobs run side by side, and its combined
# closing line "N passed, N failed".
#
# The jobs: the unit tests in CHECK_UNIT_SHARDS shares (default 4; tests/main.c, CHECK_SHARD),
# each command-line script tests/cli/cli_*.sh on its own (tests/cli/run.sh), the figure check
# of each page (tests/docs/check_figures.sh: README.md, doc/DEVELOPING.md and man/*.[1-9], and
# its self-test), the reduced runs of the results document (tools/results.py shape), and last
# the figures' CPU budget (check_figures.sh --budget over what the page jobs measured).
# CHECK_JOBS of them (default: the number of cores) run at once, the costliest first (by
# tests/job-costs.txt, "SECONDS JOB" lines; a job it does not list starts after them).
#
# Under GIOCHI_SANITIZE=1 (make sanitize) the figure checks, the results' reduced runs, the
# sample-report remakes (cli_samples.sh) and the page renders (cli_render.sh) are left out:
# they feed the program no input that the other jobs do not, and run once, in make check.
# CHECK_ONLY=PATTERN runs only the jobs whose name contains PATTERN (e.g. cli.cli_oca).
#
# As each job ends it prints one line (name, counts, wall and CPU seconds) and, when it failed,
# its FAIL lines; at the end come the ten costliest jobs and the ten slowest unit tests (CPU),
# which are also kept in test-times.txt beside UNIT_TESTS (tests/slowest.sh prints them again).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")

if [ "${1:-}" = --job ]; then
    # run-all.sh --job DIR UNIT_TESTS BINARY NAME: one job, its output in DIR/NAME.out, its exit
    # code in DIR/NAME.rc and "WALL CPU" seconds in DIR/NAME.time
    dir=$2 unit=$3 bin=$4 job=$5
    start=$(date +%s.%N)
    times >"$dir/$job.t0"
    case $job in
    unit.*)
        k=${job#unit.}
        CHECK_SHARD=$k/${CHECK_UNIT_SHARDS:-4} CHECK_TIMES=$dir/unit-times.$k "$unit" ;;
    cli.*) sh "$here/cli/run.sh" "$bin" "${job#cli.}.sh" ;;
    docs.self) CHECK_FIGURES_SELF_ONLY=1 sh "$here/docs/check_figures.sh" "$bin" ;;
    docs.*)
        CHECK_FIGURES_NO_SELF_TEST=1 CHECK_FIGURES_QUIET=1 CHECK_FIGURES_CPU_LOG=$dir/figures-cpu.${job#docs.} \
            sh "$here/docs/check_figures.sh" "$bin" "$top/$(echo "${job#docs.}" | sed 's/^man_/man\//; s/^doc_/doc\//')" ;;
    results.*) RESULTS_JOBS=1 python3 "$top/tools/results.py" shape "$bin" "page=${job#results.}" ;;
    *) echo "run-all.sh: no job '$job'" ;;
    esac >"$dir/$job.out" 2>&1 </dev/null
    echo $? >"$dir/$job.rc"
    times >"$dir/$job.t1"
    end=$(date +%s.%N)
    cpu=$(sh "$top/tools/cpu_between.sh" "$dir/$job.t0" "$dir/$job.t1")
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    echo "$wall $cpu" >"$dir/$job.time"
    counts=$(sed -n 's/^[a-z]*: \([0-9]* passed, [0-9]* failed\)$/\1/p' "$dir/$job.out" | tail -n 1)
    [ -n "$counts" ] || counts="no closing line (exit $(cat "$dir/$job.rc"))"
    echo "check: $job: $counts ($wall s, $cpu s of CPU)"
    if [ "$(cat "$dir/$job.rc")" != 0 ] || [ -z "${counts##*no closing*}" ]; then
        grep -E '^ *FAIL|rror' "$dir/$job.out" | head -n 40 | sed "s/^/check: $job: /"
        [ -n "$(grep -E '^ *FAIL' "$dir/$job.out")" ] || tail -n 20 "$dir/$job.out" | sed "s/^/check: $job: /"
    fi
    exit 0
fi

unit=$1
bin=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
jobs=${CHECK_JOBS:-$(nproc 2>/dev/null || echo 2)}
shards=${CHECK_UNIT_SHARDS:-4}
export CHECK_UNIT_SHARDS=$shards
for v in "$jobs" "$shards"; do
    case $v in '' | *[!0-9]* | 0)
        echo "run-all.sh: CHECK_JOBS and CHECK_UNIT_SHARDS must be positive whole numbers" >&2
        exit 2 ;;
    esac
done

# the job list
k=0
while [ "$k" -lt "$shards" ]; do
    k=$((k + 1))
    echo "unit.$k"
done >"$dir/list"
for f in "$here"/cli/cli_*.sh; do
    name=$(basename "$f" .sh)
    if [ -n "${GIOCHI_SANITIZE:-}" ]; then
        case $name in cli_samples | cli_render) continue ;; esac
    fi
    echo "cli.$name"
done >>"$dir/list"
if [ -z "${GIOCHI_SANITIZE:-}" ]; then
    {
        echo docs.self
        echo docs.README.md
        echo docs.doc_DEVELOPING.md
        for f in "$top"/man/*.[1-9]; do echo "docs.man_$(basename "$f")"; done
        for f in "$top"/doc/results/*.md; do echo "results.$(basename "$f" .md)"; done
    } >>"$dir/list"
fi
if [ -n "${CHECK_ONLY:-}" ]; then
    grep -F -- "$CHECK_ONLY" "$dir/list" >"$dir/list.only"
    mv "$dir/list.only" "$dir/list"
fi
# the costliest first: known costs (the unit shards share the unit tests' cost), then the rest
awk 'NR == FNR { if (/^#/) next; if ($2 == "unit") unitcost = $1; else cost[$2] = $1; next }
    { c = ($0 ~ /^unit\./) ? unitcost / '"$shards"' : (($0 in cost) ? cost[$0] : -1)
      printf "%012.1f %s\n", c + 1, $0 }' "$here/job-costs.txt" "$dir/list" |
    sort -r | cut -d' ' -f2 >"$dir/order"
echo "check: $(wc -l <"$dir/order") jobs, $jobs at a time"
xargs -P "$jobs" -I{} sh "$0" --job "$dir" "$unit" "$bin" {} <"$dir/order"

# the figures' CPU budget, over the page jobs' measurements
if [ -z "${GIOCHI_SANITIZE:-}" ] && ls "$dir"/figures-cpu.* >/dev/null 2>&1; then
    cat "$dir"/figures-cpu.* >"$dir/figures-cpu"
    sh "$here/docs/check_figures.sh" --budget "$dir/figures-cpu" >"$dir/budget.out" 2>&1
    echo $? >"$dir/budget.rc"
    sed 's/^/check: budget: /' "$dir/budget.out"
fi

# the counts
passed=0
failed=0
: >"$dir/failed"
for job in $(cat "$dir/order"); do
    out=$dir/$job.out
    line=$(sed -n 's/^[a-z]*: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$out" 2>/dev/null | tail -n 1)
    if [ -z "$line" ]; then
        echo "check: $job ended without its closing line" >&2
        failed=$((failed + 1))
        echo "$job" >>"$dir/failed"
        continue
    fi
    passed=$((passed + ${line% *}))
    failed=$((failed + ${line#* }))
    [ "${line#* }" = 0 ] && [ "$(cat "$dir/$job.rc")" = 0 ] || echo "$job" >>"$dir/failed"
    if [ "$(cat "$dir/$job.rc")" != 0 ] && [ "${line#* }" = 0 ]; then
        echo "check: $job exited $(cat "$dir/$job.rc") with no failed check" >&2
        failed=$((failed + 1))
    fi
done
if [ -e "$dir/budget.rc" ]; then
    if [ "$(cat "$dir/budget.rc")" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
fi

# the costliest jobs and unit tests, kept for tests/slowest.sh
times_out=$(dirname "$unit")/test-times.txt
{
    for job in $(cat "$dir/order"); do
        [ -e "$dir/$job.time" ] && echo "$(cut -d' ' -f2 "$dir/$job.time") job $job $(cut -d' ' -f1 "$dir/$job.time")"
    done
    cat "$dir"/unit-times.* 2>/dev/null
} | sort -rn >"$times_out.tmp" && mv "$times_out.tmp" "$times_out"
echo "check: the costliest jobs (CPU seconds, wall seconds):"
awk '$2 == "job" { printf "check:   %7.1f %7.1f  %s\n", $1, $4, $3 }' "$times_out" | head -n 10
echo "check: the slowest unit tests (CPU seconds):"
awk '$2 == "unit" { printf "check:   %7.2f  %s\n", $1, $3 }' "$times_out" | head -n 10
# the failures once more, last, where a log's tail shows them
if [ -s "$dir/failed" ] || { [ -e "$dir/budget.rc" ] && [ "$(cat "$dir/budget.rc")" != 0 ]; }; then
    echo "check: what failed:"
    for job in $(cat "$dir/failed"); do
        echo "check: $job (exit $(cat "$dir/$job.rc" 2>/dev/null || echo none)):"
        if grep -qE '^ *FAIL' "$dir/$job.out" 2>/dev/null; then
            grep -E -A3 '^ *FAIL' "$dir/$job.out" | head -n 30
        else
            tail -n 15 "$dir/$job.out" 2>/dev/null
        fi | sed "s/^/check:   /"
    done
    if [ -e "$dir/budget.rc" ] && [ "$(cat "$dir/budget.rc")" != 0 ]; then
        echo "check: budget:"
        tail -n 10 "$dir/budget.out" | sed "s/^/check:   /"
    fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
