# cli_circles.sh — tests of tools/circles.sh, the circle check make check runs on the built
# objects; run by tests/cli/run.sh (uses the helpers of tests/cli/lib.sh: ok, bad, $work, $top). Builds tiny
# objects that plant circles, across folders and inside one, so the check is seen to fail on
# each; a knot listed as known passes, and a file joining it fails.

circ=$work/circles
mkdir -p "$circ/src/core" "$circ/src/report" "$circ/src/games/g"
# core/a.c calls report/b.c, which calls core/c.c, which calls core/a.c: a circle of three.
printf 'void b_f(void);\nvoid a_f(void) { b_f(); }\n' >"$circ/src/core/a.c"
printf 'void c_f(void);\nvoid b_f(void) { c_f(); }\n' >"$circ/src/report/b.c"
printf 'void a_f(void);\nvoid c_f(void) { a_f(); }\n' >"$circ/src/core/c.c"
# a game's two files call each other (a circle inside one folder), and a file that uses the
# game (no circle).
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
    printf '# none\n' >"$circ/none.known"
    CIRCLES_KNOWN=$circ/none.known "$top/tools/circles.sh" "$circ" "$circ/src/core/d.o" \
        "$circ/src/games/g/g1.o" "$circ/src/games/g/g2.o" >"$work/out" 2>"$work/err"
    rc=$?
    if [ "$rc" -eq 1 ] &&
        grep -q '^circle: src/games/g/g[12].c -> src/games/g/g[12].c -> src/games/g/g[12].c ' "$work/out"; then
        ok "circles: a planted circle inside one folder fails"
    else
        bad "circles: a planted circle inside one folder fails" "exit $rc: $(cat "$work/out")"
    fi
    # listed as known, the game's knot passes (the other objects have no circle among them)
    printf '# a known knot\nsrc/games/g/g1.c  src/games/g/g2.c\n' >"$circ/g.known"
    CIRCLES_KNOWN=$circ/g.known "$top/tools/circles.sh" "$circ" "$circ/src/core/d.o" \
        "$circ/src/games/g/g1.o" "$circ/src/games/g/g2.o" "$circ/src/core/a.o" \
        "$circ/src/report/b.o" >"$work/out" 2>"$work/err"
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q '^known circle: .*src/games/g/g1.c' "$work/out" &&
        grep -q '^circles: none in 5 files, 1 known' "$work/out"; then
        ok "circles: a knot listed as known passes"
    else
        bad "circles: a knot listed as known passes" "exit $rc: $(cat "$work/out")"
    fi
    # a third file of the folder joins the known knot: the knot is no longer the one listed
    printf 'void g1_f(void);\nvoid g3_f(void) { g1_f(); }\n' >"$circ/src/games/g/g3.c"
    printf 'void g3_f(void);\nvoid g2_f(void);\nvoid g1_f(void) { g2_f(); g3_f(); }\n' \
        >"$circ/src/games/g/g1.c"
    if ${CC:-cc} -c -o "$circ/src/games/g/g3.o" "$circ/src/games/g/g3.c" 2>"$work/err" &&
        ${CC:-cc} -c -o "$circ/src/games/g/g1.o" "$circ/src/games/g/g1.c" 2>>"$work/err"; then
        CIRCLES_KNOWN=$circ/g.known "$top/tools/circles.sh" "$circ" "$circ/src/games/g/g1.o" \
            "$circ/src/games/g/g2.o" "$circ/src/games/g/g3.o" >"$work/out" 2>"$work/err"
        rc=$?
        if [ "$rc" -eq 1 ] && grep -q '^circle: .*all in this knot: .*g3.c' "$work/out"; then
            ok "circles: a file joining a known knot fails"
        else
            bad "circles: a file joining a known knot fails" "exit $rc: $(cat "$work/out")"
        fi
    else
        bad "circles: a file joining a known knot fails" "cannot compile: $(head -c 200 "$work/err")"
    fi
    "$top/tools/circles.sh" "$circ" "$circ/src/core/missing.o" >"$work/out" 2>"$work/err"
    rc=$?
    [ "$rc" -eq 2 ] && grep -q 'no object' "$work/err" && ok "circles: a missing object is exit 2" ||
        bad "circles: a missing object is exit 2" "exit $rc: $(cat "$work/err")"
fi
