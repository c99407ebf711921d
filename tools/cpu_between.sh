#!/bin/sh
# cpu_between.sh BEFORE AFTER [FORMAT] — the CPU seconds (user and system) that a shell's
# children took between two outputs of its `times` builtin, saved to the files BEFORE and
# AFTER (the second line of each is the children's), printed with FORMAT (default %.1f).
# tests/run-all.sh (each job), tests/docs/check_figures.sh (each marker) and .ci/run (each
# stage) time their commands with it.
awk -v fmt="${3:-%.1f}" 'FNR == 2 { for (i = 1; i <= 2; i++) { split($i, a, "m"); sub(/s$/, "", a[2])
    t[FILENAME] += a[1] * 60 + a[2] } }
    END { printf fmt, t[ARGV[2]] - t[ARGV[1]] }' "$1" "$2"
