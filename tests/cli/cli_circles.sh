# cli_circles.sh — tests of tools/circles.sh, the circle check make check runs on the built
# objects; run by tests/cli/run.sh (uses the helpers of tests/cli/lib.sh: ok, bad, $work, $top). Builds tiny
# objects that plant circles, so the check is seen to fail on one.

circ=$work/circles
mkdir -p "$circ/src/core" "$circ/src/report" "$circ/src/games/g"
# core/a.c calls report/b.c, which calls core/c.c, which calls core/a.c: a circle of three.
printf 'void b_f(void);\nvoid a_f(void) { b_f(); }\n' >"$circ/src/core/a.c"
printf 'void c_f(void);\nvoid b_f(void) { c_f(); }\n' >"$circ/src/report/b.c"
printf 'void a_f(void);\nvoid c_f(void) { a_f(); }\n' >"$circ/src/core/c.c"
# a game's two files call each other (allowed), and a file that uses the game (no circle).
printf 'void g2_f(void);\nvoid g1_f(void) { g2_f(); }\n' >"$circ/src/games/g/g1.c"
printf 'void g1_f(void);\nvoid g2_f(void) { g1_f(); }\n' >"$circ/src/games/g/g2.c"
printf 'void g1_f(void);\nvoid d_f(void) { g1_f(); }\n' >"$circ/src/core/d.c"
built=true
for f in core/a core/c core/d report/b games/g/g1 games/g/g2; do
    ${CC:-cc} -c -o "$circ/src/$f.o" "$circ/src/$f.c" 2>"$work/err" || built=false
done
if ! $built; then
    bad "circles: test objects" "cannot compile: $(head -c 200 "$work/err")"
else
    "$top/tools/circles.sh" "$circ" "$circ/src/core/a.o" "$circ/src/report/b.o" \
        "$circ/src/core/c.o" "$circ/src/core/d.o" >"$work/out" 2>"$work/err"
    rc=$?
    if [ "$rc" -eq 1 ] && grep -q '^circle: .*src/core/a.c.*src/report/b.c' "$work/out" &&
        grep -q 'src/core/c.c' "$work/out" && ! grep -q 'core/d.c' "$work/out"; then
        ok "circles: a planted circle of three files fails"
    else
        bad "circles: a planted circle of three files fails" "exit $rc: $(cat "$work/out")"
    fi
    "$top/tools/circles.sh" "$circ" "$circ/src/core/d.o" "$circ/src/games/g/g1.o" \
        "$circ/src/games/g/g2.o" "$circ/src/core/a.o" "$circ/src/report/b.o" \
        >"$work/out" 2>"$work/err"
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q '^circles: none in 5 files$' "$work/out"; then
        ok "circles: inside one game's folder is allowed"
    else
        bad "circles: inside one game's folder is allowed" "exit $rc: $(cat "$work/out")"
    fi
    "$top/tools/circles.sh" "$circ" "$circ/src/core/missing.o" >"$work/out" 2>"$work/err"
    rc=$?
    [ "$rc" -eq 2 ] && grep -q 'no object' "$work/err" && ok "circles: a missing object is exit 2" ||
        bad "circles: a missing object is exit 2" "exit $rc: $(cat "$work/err")"
fi
