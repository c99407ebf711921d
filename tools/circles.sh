#!/bin/sh
# circles.sh BUILD_DIR OBJECT... — fails if the objects' source files use each other in a circle,
# inside one folder or across folders (doc/ARCHITECTURE.md, "The dependency rule").
#
# Reads every OBJECT (BUILD_DIR/src/.../NAME.o, or BUILD_DIR/mpi/src/.../NAME.o as the Makefile
# builds them) with nm: file A depends on file B when A leaves undefined a global symbol that B
# defines. Every file is a node of its own, a game's files too. A knot of files that reach each
# other is a circle, printed as one "circle: a -> b -> ... -> a (all in this knot: ...)" line.
# A knot is tolerated when every one of its files is on one line of the known-circles file
# (tools/circles.known, or the file $CIRCLES_KNOWN names): such a knot prints "known circle:
# ..." and passes, so a known knot may shrink but no file may join it and no new knot may form.
# Any other circle makes the exit status 1; none prints "circles: none in N files" (with ", K
# known" when known knots remain) and exits 0. Exit 2 on bad usage, a missing object or known
# file, or without nm. The Makefile's check target runs it on every object of both binaries.
set -u
[ $# -ge 2 ] || { echo "usage: circles.sh BUILD_DIR OBJECT..." >&2; exit 2; }
build=$1
shift
command -v nm >/dev/null 2>&1 || { echo "circles.sh: nm not found (install binutils)" >&2; exit 2; }
for o in "$@"; do
    [ -f "$o" ] || { echo "circles.sh: no object $o (run make first)" >&2; exit 2; }
done
known=${CIRCLES_KNOWN:-$(dirname "$0")/circles.known}
[ -f "$known" ] || { echo "circles.sh: no known-circles file $known" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One line per symbol: "D node symbol" (defined) or "U node symbol" (used, undefined here).
for o in "$@"; do
    rel=${o#"$build"/}
    rel=${rel#mpi/}
    node=${rel%.o}.c
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
awk -v known="$known" '
    BEGIN {
        # the known knots: each line of the file not blank or a comment, its words the files
        while ((getline line < known) > 0) {
            sub(/#.*/, "", line)
            if (split(line, w, /[ \t]+/) == 0) continue
            nk++
            for (i in w) if (w[i] != "") kin[nk, w[i]] = 1
        }
    }
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
                all = comp[c]
                for (i = c - 1; i >= 1; i--) all = all " " comp[i]
                if (tolerated(c)) { ntol++; print "known circle: " cycle(v) "   (all in this knot: " all ")" }
                else { found++; print "circle: " cycle(v) "   (all in this knot: " all ")" }
            }
        }
    }
    # True when the c files of comp are all on one line of the known file.
    function tolerated(c,    k, i, all) {
        for (k = 1; k <= nk; k++) {
            all = 1
            for (i = 1; i <= c && all; i++) if (!((k, comp[i]) in kin)) all = 0
            if (all) return 1
        }
        return 0
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
        print ntol + 0 > "/dev/stderr"
        exit found > 0
    }' "$tmp/edges" 2>"$tmp/ntol"
status=$?
files=$#
ntol=$(cat "$tmp/ntol")
if [ $status -eq 0 ]; then
    if [ "$ntol" -gt 0 ]; then
        echo "circles: none in $files files, $ntol known ($known)"
    else
        echo "circles: none in $files files"
    fi
else
    echo "circles.sh: files use each other in a circle (see doc/ARCHITECTURE.md, \"The dependency rule\")" >&2
fi
exit $status
