#!/bin/sh
# run.sh BINARY SCRIPT — runs one command-line test script (tests/cli/cli_*.sh) with the kit
# of tests/cli/lib.sh, and ends with its closing line "cli: N passed, N failed". Each script
# stands alone (its own scratch folder), so that tests/run-all.sh runs several side by side.
# shellcheck disable=SC1090,SC1091
. "$(dirname "$0")/lib.sh"
script=$2
case $script in */*) ;; *) script=$here/$script ;; esac
[ -r "$script" ] || { echo "run.sh: no test script '$2'" >&2; exit 2; }
. "$script"
cli_end
