#!/bin/sh
# circles.sh BUILD_DIR OBJECT... — fails if the objects' source files use each other in a
# circle, except inside one game's folder (doc/ARCHITECTURE.md, "The dependency rule").
#
# Reads every OBJECT (BUILD_DIR/src/.../NAME.o, as the Makefile builds them) with nm: file A
# depends on file B when A leaves undefined a global symbol that B defines. The files of one
# src/games/GAME/ folder count as one node (a game and its bots may call each other); every
# other file is a node of its own. A circle left in that graph is printed, one "circle:
# a -> b -> ... -> a (all in this knot: ...)" line per knot of files that reach each other,
# and the exit status is 1; no circle prints "circles: none in N files" and exits 0. Exit 2
# on bad usage, a missing object, or without nm. The Makefile's check target runs it on the
# library's objects and main.o.
set -u
[ $# -ge 2 ] || { echo "usage: circles.sh BUILD_DIR OBJECT..." >&2; exit 2; }
build=$1
shift
command -v nm >/dev/null 2>&1 || { echo "circles.sh: nm not found (install binutils)" >&2; exit 2; }
for o in "$@"; do
    [ -f "$o" ] || { echo "circles.sh: no object $o (run make first)" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One line per symbol: "D node symbol" (defined) or "U node symbol" (used, undefined here).
for o in "$@"; do
    rel=${o#"$build"/}
    rel=${rel%.o}
    case $rel in
        src/games/*/*/*|src/games/*/*) node=$(echo "$rel" | cut -d/ -f1-3)/ ;;
        *) node=$rel.c ;;
    esac
    nm -P "$o" | awk -v n="$node" '
        $2 == "U" { print "U", n, $1; next }
        $2 ~ /^[TDBRCVWGSI]$/ { print "D", n, $1 }'
done > "$tmp/syms"

# The edges "user definer", each once, without a node's edges to itself.
awk 'NR == FNR { if ($1 == "D") def[$3] = $2; next }
     $1 == "U" && ($3 in def) && def[$3] != $2 { print $2, def[$3] }' \
    "$tmp/syms" "$tmp/syms" | sort -u > "$tmp/edges"

# Circles: the strongly connected components with more than one node (Tarjan's algorithm),
# each printed as one closed path through its nodes.
awk '
    { if (!($1 in seen)) { seen[$1] = 1; node[++nn] = $1 }
      if (!($2 in seen)) { seen[$2] = 1; node[++nn] = $2 }
      adj[$1, ++deg[$1]] = $2 }
    function connect(v,    i, w, c, all) {
        index_[v] = low[v] = ++counter; stack[++sp] = v; on[v] = 1
        for (i = 1; i <= deg[v]; i++) {
            w = adj[v, i]
            if (!(w in index_)) { connect(w); if (low[w] < low[v]) low[v] = low[w] }
            else if (on[w] && index_[w] < low[v]) low[v] = index_[w]
        }
        if (low[v] == index_[v]) {
            c = 0
            do { w = stack[sp--]; on[w] = 0; comp[++c] = w; incomp[w] = v } while (w != v)
            if (c > 1) {
                found++; all = comp[c]
                for (i = c - 1; i >= 1; i--) all = all " " comp[i]
                print "circle: " cycle(v) "   (all in this knot: " all ")"
            }
        }
    }
    # A closed path from v back to v inside its component (breadth-first: a shortest one).
    function cycle(v,    q, h, t, u, i, w, prev, p, out) {
        h = 1; t = 1; q[1] = v; split("", prev)
        while (h <= t && !(v in prev)) {
            u = q[h++]
            for (i = 1; i <= deg[u]; i++) {
                w = adj[u, i]
                if (incomp[w] != v || (w in prev)) continue
                prev[w] = u; q[++t] = w
                if (w == v) break
            }
        }
        out = v; p = prev[v]
        while (p != v) { out = p " -> " out; p = prev[p] }
        return v " -> " out
    }
    END {
        for (i = 1; i <= nn; i++) if (!(node[i] in index_)) connect(node[i])
        exit found > 0
    }' "$tmp/edges"
status=$?
files=$#
if [ $status -eq 0 ]; then
    echo "circles: none in $files files"
else
    echo "circles.sh: files outside one game folder use each other in a circle (see doc/ARCHITECTURE.md)" >&2
fi
exit $status
