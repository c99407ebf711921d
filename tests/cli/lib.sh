# lib.sh — the command-line tests' kit, sourced by tests/cli/run.sh before one script
# (tests/cli/cli_*.sh): BINARY as $bin, the folders $here (tests/cli) and $top (the
# repository), a scratch folder $work removed at exit, and the checks below, which count into
# $passed and $failed. cli_end prints the script's closing line "cli: N passed, N failed".
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# OpenMPI's session directories go under this run's own folder: mpiruns started at the same
# moment by other jobs on a shared machine otherwise collide in /tmp (ORTE session_dir errors).
mkdir -p "$work/ompi" && export OMPI_MCA_orte_tmpdir_base="$work/ompi"
passed=0
failed=0
# the date every report's "run" carries (and pages and charts show): fixed here, so that the
# pages and charts of two runs compare byte for byte (report_run_stamp, SOURCE_DATE_EPOCH)
export SOURCE_DATE_EPOCH=0

ok() { passed=$((passed + 1)); [ -z "${CHECK_VERBOSE:-}" ] || echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1: $2" >&2; }

# expect_error NAME EXIT_CODE PATTERN ARGS... — the command fails with that exit code, prints
# exactly one line on stderr matching PATTERN (grep -E), and nothing on stdout.
expect_error() {
    name=$1 code=$2 pattern=$3
    shift 3
    "$bin" "$@" >"$work/out" 2>"$work/err" </dev/null
    rc=$?
    lines=$(wc -l <"$work/err")
    if [ "$rc" -ne "$code" ]; then
        bad "$name" "exit $rc, expected $code ($(head -c 200 "$work/err"))"
    elif [ "$lines" -ne 1 ]; then
        bad "$name" "$lines lines on stderr: $(head -c 300 "$work/err")"
    elif ! grep -qE -- "$pattern" "$work/err"; then
        bad "$name" "stderr '$(cat "$work/err")' does not match '$pattern'"
    elif [ -s "$work/out" ]; then
        bad "$name" "wrote to stdout"
    else
        ok "$name"
    fi
}

# expect_ok NAME ARGS... — exit 0; stdout kept in $work/out.
expect_ok() {
    name=$1
    shift
    if "$bin" "$@" >"$work/out" 2>"$work/err" </dev/null; then
        ok "$name"
    else
        bad "$name" "exit $?: $(head -c 300 "$work/err")"
    fi
}

# same NAME FILE1 FILE2 — the files are byte-identical.
same() {
    if cmp -s "$2" "$3"; then ok "$1"; else bad "$1" "$2 and $3 differ"; fi
}

# json_without_run FILE — the JSON report without its "run" object (wall time, threads).
json_without_run() {
    awk '/^\t"run":/ {skip = 1} skip && /^\t}/ {skip = 0; next} !skip' "$1"
}

# cli_end: the script's closing line; exit status 0 only if no check failed.
# game_names — every game the binary knows, one name a line, in the registry's order (read from
# --list, so that a test covering every game names none itself).
game_names() { "$bin" --list | sed -n 's/^\([a-z0-9]*\) — .*/\1/p'; }

cli_end() {
    echo "cli: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
