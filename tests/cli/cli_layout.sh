# cli_layout.sh — the map of the code is kept true: every source file under src/ is named in
# doc/ARCHITECTURE.md (the map, file by file) or in README.md's "Layout"; and the check is
# seen to fail on a file named in neither. Run by tests/cli/run.sh (its kit: lib.sh).

# unnamed FILE... — prints each source file (a path under src/) the map does not name. A file
# is named by its own name (`exp_pair.c`), by its module's name in backquotes (`exp_pair`, for
# exp_pair.c and exp_pair.h), or, inside src/games/GAME/, by the same with GAME for the folder's
# name (`GAME_bots.c`, `GAME.h`).
unnamed() {
    sed -n '/^## Layout/,/^## [^L]/p' "$top/README.md" >"$work/map"
    cat "$top/doc/ARCHITECTURE.md" >>"$work/map"
    for f in "$@"; do
        base=$(basename "$f")
        found=false
        for name in "$base" "$(echo "$f" | sed -n 's#^src/games/\([^/]*\)/\1\(.*\)$#GAME\2#p')"; do
            [ -n "$name" ] || continue
            stem=${name%.[ch]}
            if grep -qF -e "$name" -e "\`$stem\`" "$work/map"; then
                found=true
                break
            fi
        done
        $found || echo "$f"
    done
}

files=$(cd "$top" && find src -name '*.[ch]' | sort)
# shellcheck disable=SC2086
missing=$(unnamed $files)
if [ -z "$missing" ] && [ -n "$files" ]; then
    ok "layout: every file under src/ is named in doc/ARCHITECTURE.md or README's Layout"
else
    bad "layout: every file under src/ is named in doc/ARCHITECTURE.md or README's Layout" \
        "not named: $(echo "$missing" | tr '\n' ' ')"
fi
# a file named nowhere is reported, and a game's file is named through GAME
missing=$(unnamed src/core/nowhere_named.c src/games/wari/wari_bots.c)
if [ "$missing" = src/core/nowhere_named.c ]; then
    ok "layout: a file named nowhere fails the check"
else
    bad "layout: a file named nowhere fails the check" "reported: $missing"
fi
