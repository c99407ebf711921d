# cli_render.sh — run by tests/cli/run.sh: the sample pages (a plain run, a sweep, a sensitivity, a
# seat rotation, a goal seek, a tuning, a tournament and a sequential test) are made, their
# search tables checked, and all of them rendered by headless Chromium at 1280 px, where none
# may be wider than the window (a wide table scrolls inside its box, never the page).
# RENDER_SHOTS=DIR also saves a screenshot of each page there, to look at.
# Without Chromium (tools/deps.sh render installs it) the rendering is skipped with a message.

if command -v gnuplot >/dev/null 2>&1; then
    pages="$work/pages"
    mkdir -p "$pages"
    # page NAME ARGS... — makes $pages/NAME.html
    page() {
        name=$1
        shift
        expect_ok "page $name" "$@" --seed=1 -q --html="$pages/$name.html" --output=/dev/null
    }
    page plain --game=oca --runs=2000
    page sweep --game=oca --bots=greedy:max_bid=20 --sweep entry_fee=30:70:20 --sweep dote=150,200 \
        --metric=bankruptcy_any,banker_net,win_share@1,length --runs=1000
    page tornado --game=oca --sensitivity --metric=bankruptcy_any --runs=300
    page rotation --game=pig10 --sweep players=3,5 --rotate-seats --metric=seat_advantage@1 --runs=500
    page seek --game=oca --bots=greedy:max_bid=20 --target=bankruptcy_any=0.10 --over=entry_fee=0:200 --runs=3000
    page tune --game=oca --bots=greedy-2026 --tune=seat1.sit_out=0:1 --maximize=win_share@1 --runs=600
    page tournament --game=wari --tournament=random,greedy,alphabeta:depth=2 --runs=40
    page sprt --game=wari --tournament=alphabeta:depth=2,greedy --sprt=0,50 --runs=2000

    # the seek's crossing (the fee near 100 where bankruptcy crosses 10%, README: 98.5 with
    # more games) and its points
    grep -q '^<tr><td>1</td><td class="r"><span class="v">\(9[0-9]\|10[0-9]\)\(\.[0-9]*\)\{0,1\}</span> <span class="ci">\[[0-9.]*, [0-9.]*\]</span></td><td>rising' "$pages/seek.html" &&
        grep -q '<h2>Points evaluated ([0-9]*)</h2>' "$pages/seek.html" && grep -q '>target 10.00%<' "$pages/seek.html" &&
        ok "seek page: the crossing, the points and the target line" || bad "seek page: the crossing, the points and the target line" "see $pages/seek.html"
    # the tournament's ratings (the planted ladder in order) and cross table
    sed -n '/<h2>Ratings<\/h2>/,/<\/table>/p' "$pages/tournament.html" | sed -n 's/^<tr><td>\([^<]*\)<\/td>.*/\1/p' | tr '\n' ' ' >"$work/ladder"
    [ "$(cat "$work/ladder")" = "alphabeta:depth=2 greedy random " ] && grep -q '<h2>Cross table</h2>' "$pages/tournament.html" &&
        ok "tournament page: ratings in order, cross table" || bad "tournament page: ratings in order, cross table" "$(cat "$work/ladder")"
    grep -q '<tr><td>accepted</td><td class="r"><strong>H[01]</strong> after [0-9]* deals' "$pages/sprt.html" &&
        ok "sprt page: the verdict" || bad "sprt page: the verdict" "see $pages/sprt.html"

    chromium=""
    for c in chromium chromium-browser google-chrome; do
        command -v "$c" >/dev/null 2>&1 && { chromium=$c; break; }
    done
    if [ -z "$chromium" ]; then
        echo "SKIP rendering the sample pages: no chromium on the PATH (tools/deps.sh render installs it)" >&2
    else
        # one window holds every page in a frame 1280 px wide; once all are loaded a script
        # writes each page's scrolling width against the frame's
        {
            echo '<!DOCTYPE html><html><body style="margin:0">'
            for f in "$pages"/*.html; do
                echo "<iframe src=\"$(basename "$f")\" style=\"width:1280px;height:900px;border:0;display:block\"></iframe>"
            done
            cat <<'EOF'
<script>
window.addEventListener('load', function () {
  var out = [];
  document.querySelectorAll('iframe').forEach(function (f) {
    var d = f.contentDocument ? f.contentDocument.documentElement : null;
    out.push(f.getAttribute('src') + ' ' + (d ? d.scrollWidth + ' ' + d.clientWidth : 'unreadable'));
  });
  var p = document.createElement('pre');
  p.id = 'widths';
  p.textContent = out.join('\n');
  document.body.appendChild(p);
});
</script></body></html>
EOF
        } >"$pages/all.htm"
        "$chromium" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
            --virtual-time-budget=20000 --window-size=1300,1000 --dump-dom "file://$pages/all.htm" \
            2>/dev/null | sed -n '/<pre id="widths">/,/<\/pre>/p' | sed 's/<[^>]*>//g' >"$work/widths"
        n=0
        while read -r name scroll client; do
            [ -n "$name" ] || continue
            n=$((n + 1))
            if [ "$client" -gt 0 ] 2>/dev/null && [ "$scroll" -le "$client" ] && [ "$client" -le 1280 ]; then
                ok "$name at 1280 px: no horizontal overflow"
            else
                bad "$name at 1280 px: no horizontal overflow" "scroll width $scroll, window $client"
            fi
        done <"$work/widths"
        [ "$n" -eq 8 ] && ok "every sample page rendered" || bad "every sample page rendered" "$n of 8: $(head -c 300 "$work/widths")"
        if [ -n "${RENDER_SHOTS:-}" ]; then
            mkdir -p "$RENDER_SHOTS"
            for f in "$pages"/*.html; do
                "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,3000 \
                    --screenshot="$RENDER_SHOTS/$(basename "$f" .html).png" "file://$f" >/dev/null 2>&1
                cp "$f" "$RENDER_SHOTS/"
            done
        fi
    fi
fi
