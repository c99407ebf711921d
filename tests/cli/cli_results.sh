# cli_results.sh — tools/results.py, the results document's tool, on pages of its own
# (RESULTS_DIR): update keeps the full output and writes the stamp; check and update fail on a
# moved figure (not in the output, not in the page), update then leaving the stamp and keeping
# the new output beside it; shape passes a reduced run that prints the quoted rows and fails
# one that does not, or a result with no kept output; a malformed page is refused.
# Run by tests/cli/run.sh (its kit: lib.sh).
rdir=$work/results-doc
mkdir -p "$rdir/results"
tool=$top/tools/results.py
# result_page FILE RUNS EXPECT REDUCED TEXT: a page of one result with one run
result_page() {
    cat >"$1" <<PAGE
# A page

## Who wins the 45

<!-- result: t-45 -->
<!-- run: giochi-sim --game=45 --runs=$2 --seed=1 -->
<!-- expect: $3 -->
<!-- reduced: $4 -->
<!-- stamp -->
<!-- /stamp -->

$5
PAGE
}
printf '# Results\n' >"$rdir/RESULTS.md"
result_page "$rdir/results/t.md" 400 "48.00% 43.15 52.89" "giochi-sim --game=45 --runs=40 --seed=1" \
    "Seat 1 wins 48.00% [43.15, 52.89] of 400 games."
if RESULTS_DIR=$rdir RESULTS_JOBS=1 python3 "$tool" update "$bin" >"$work/r.out" 2>&1 &&
    grep -q '^#### run 1: giochi-sim --game=45 --runs=400 --seed=1$' "$rdir/results/out/t-45.txt" &&
    grep -q '48.00%  \[43.15, 52.89\]' "$rdir/results/out/t-45.txt" &&
    grep -q '^Measured with giochi-sim v[0-9.]* at commit .* s of CPU in all' "$rdir/results/t.md" &&
    grep -qx 'giochi-sim --game=45 --runs=400 --seed=1' "$rdir/results/t.md"; then
    ok "results: update keeps the output and writes the stamp"
else
    bad "results: update keeps the output and writes the stamp" "$(cat "$work/r.out"; cat "$rdir/results/t.md")"
fi
if RESULTS_DIR=$rdir python3 "$tool" check "$bin" >"$work/r.out" 2>&1 && grep -q '^results: 1 passed, 0 failed$' "$work/r.out"; then
    ok "results: check passes figures that stand"
else
    bad "results: check passes figures that stand" "$(cat "$work/r.out")"
fi
if RESULTS_DIR=$rdir python3 "$tool" shape "$bin" >"$work/r.out" 2>&1 && grep -q '^results: 1 passed, 0 failed$' "$work/r.out"; then
    ok "results: shape passes a reduced run with the quoted rows"
else
    bad "results: shape passes a reduced run with the quoted rows" "$(cat "$work/r.out")"
fi
# the reduced run prints CSV: no line shaped like the quoted text row
cp "$rdir/results/t.md" "$work/t.kept"
sed -i 's/^<!-- reduced: .* -->$/<!-- reduced: giochi-sim --game=45 --runs=40 --seed=1 --format=csv -->/' "$rdir/results/t.md"
if ! RESULTS_DIR=$rdir python3 "$tool" shape "$bin" >"$work/r.out" 2>&1 &&
    grep -q "FAIL t-45 run 1: .* prints no line shaped like '1 optimal-score 48.00% \[43.15, 52.89\] 37.79'" "$work/r.out"; then
    ok "results: shape fails a reduced run without the quoted rows"
else
    bad "results: shape fails a reduced run without the quoted rows" "$(cat "$work/r.out")"
fi
cp "$work/t.kept" "$rdir/results/t.md"
# a figure moved: the command's output no longer has it (another seed)
sed -i 's/--runs=400 --seed=1 -->$/--runs=400 --seed=2 -->/' "$rdir/results/t.md"
stamp_before=$(grep '^Measured' "$rdir/results/t.md")
if ! RESULTS_DIR=$rdir python3 "$tool" check "$bin" >"$work/r.out" 2>&1 &&
    grep -q "FAIL t-45: 'giochi-sim --game=45 --runs=400 --seed=2': not in the output: 48.00% 43.15 52.89" "$work/r.out"; then
    ok "results: check fails a moved figure"
else
    bad "results: check fails a moved figure" "$(cat "$work/r.out")"
fi
if ! RESULTS_DIR=$rdir python3 "$tool" update "$bin" >"$work/r.out" 2>&1 &&
    [ "$(grep '^Measured' "$rdir/results/t.md")" = "$stamp_before" ] &&
    [ -s "$rdir/results/out/t-45.txt.new" ] && grep -q -- '--seed=1$' "$rdir/results/out/t-45.txt"; then
    ok "results: update leaves a moved result's stamp and output, the new output beside them"
else
    bad "results: update leaves a moved result's stamp and output, the new output beside them" "$(cat "$work/r.out")"
fi
# a figure in the output but not in the page's text
result_page "$rdir/results/t.md" 400 "48.00% 43.15 52.89" "giochi-sim --game=45 --runs=40 --seed=1" \
    "Seat 1 wins 48.00% [43.15, 52.88] of 400 games."
if ! RESULTS_DIR=$rdir python3 "$tool" check "$bin" >"$work/r.out" 2>&1 &&
    grep -q "not in the page text: 52.89" "$work/r.out"; then
    ok "results: check fails a figure missing from the page"
else
    bad "results: check fails a figure missing from the page" "$(cat "$work/r.out")"
fi
# no kept output: shape fails, naming make results
rm -f "$rdir/results/out/t-45.txt"
if ! RESULTS_DIR=$rdir python3 "$tool" shape "$bin" >"$work/r.out" 2>&1 && grep -q 'no kept full output.*run make results' "$work/r.out"; then
    ok "results: shape fails a result with no kept output"
else
    bad "results: shape fails a result with no kept output" "$(cat "$work/r.out")"
fi
# malformed pages: one line, exit 2
printf '<!-- result: t-x -->\n<!-- expect: 1 -->\n' >"$rdir/results/t.md"
RESULTS_DIR=$rdir python3 "$tool" list >"$work/r.out" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$work/r.out")" -eq 1 ] && grep -q "results/t.md:2: a marker 'expect:' with no run marker before it" "$work/r.out" &&
    ok "results: a marker out of place is refused with its line" ||
    bad "results: a marker out of place is refused with its line" "exit $rc: $(cat "$work/r.out")"
printf '<!-- result: t-x -->\n<!-- run: rm -rf / -->\n<!-- expect: 1 -->\n<!-- reduced: giochi-sim --game=45 -->\n<!-- stamp -->\n<!-- /stamp -->\n' >"$rdir/results/t.md"
RESULTS_DIR=$rdir python3 "$tool" list >"$work/r.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'a command starts with giochi-sim: rm -rf /' "$work/r.out" &&
    ok "results: a command that is not giochi-sim's is refused" ||
    bad "results: a command that is not giochi-sim's is refused" "exit $rc: $(cat "$work/r.out")"
# the project's own pages parse, and every result has its kept output
python3 "$tool" list >"$work/r.out" 2>&1 && ! grep -q 'no kept output' "$work/r.out" &&
    ok "results: the project's pages parse, every result kept" ||
    bad "results: the project's pages parse, every result kept" "$(grep -v 'kept$' "$work/r.out" | head -5)"
