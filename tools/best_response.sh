#!/bin/sh
# best_response.sh — best-response iteration over the oca bot greedy's knobs, round by round,
# as giochi-sim-oca(7) (BEST RESPONSE) describes it and doc/results/oca.md records it.
#
#   best_response.sh [--players=N] [--runs=N] [--rounds=N] [--seed=S] [--until] [--also=KNOBS]
#                    PROFILE [-- OPT...]
#
# A round runs the tuner (--tune over 17 knobs of greedy for seat 1, and the --tune list KNOBS
# if given, e.g. seat1.raise=1:20, the size of an open-auction raise; --maximize=win_share@1,
# seats rotated by the tuner itself) with every seat playing PROFILE, and prints the best
# deviation's gain on fresh seeds (percentage points, 95% interval) and the best bot. Round k
# uses seed S + k - 1 (default S 1, so round k has seed k), --runs deals (default 4000) and
# --players players (default 4); OPT... go to every giochi-sim run (--threads=1, say: the
# figures are the same at any thread count).
# Without --until, each round's best becomes the next round's PROFILE, for --rounds rounds
# (default 14): the procedure of the four-player rounds. With --until, a round's best is adopted
# only if it gains more than 1 point beyond noise (the gain above 1, its interval above 0); the
# first round where it does not ends the iteration (at most --rounds rounds, default 30), its
# profile the result.
# The last line is "profile: BOT", the profile the iteration ends with.
# The binary is giochi-sim on the PATH, or $GIOCHI_SIM.
set -eu
sim=${GIOCHI_SIM:-giochi-sim}
players=4
runs=4000
rounds=
seed=1
until=0
also=
while [ $# -gt 0 ]; do
    case $1 in
    --players=*) players=${1#*=} ;;
    --runs=*) runs=${1#*=} ;;
    --rounds=*) rounds=${1#*=} ;;
    --seed=*) seed=${1#*=} ;;
    --until) until=1 ;;
    --also=*) also=${1#*=} ;;
    --) break ;;
    -*) echo "best_response.sh: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
    esac
    shift
done
[ $# -ge 1 ] && [ "$1" != -- ] || { echo "best_response.sh: PROFILE missing (see the header)" >&2; exit 2; }
profile=$1
shift
[ $# -eq 0 ] || { [ "$1" = -- ] && shift; }
[ -n "$rounds" ] || { [ $until = 1 ] && rounds=30 || rounds=14; }

knobs=seat1.volunteer=0:1,seat1.max_bid=0:100,seat1.bank_ev=0:1,seat1.value_sd=0:1
knobs=$knobs,seat1.declare=0:2,seat1.gamble=0:100,seat1.sit_out=0:1,seat1.attack=0:1
knobs=$knobs,seat1.defend=0:1,seat1.jolly_min=0:60,seat1.trade=0:1,seat1.reserve=0:60
knobs=$knobs,seat1.buy_max=0:100,seat1.exchange=0:1,seat1.takeover=0:1,seat1.keep=0:200
knobs=$knobs,seat1.per_square=0:30${also:+,$also}

out=$(mktemp)
trap 'rm -f "$out"' EXIT
k=1
while [ "$k" -le "$rounds" ]; do
    s=$((seed + k - 1))
    "$sim" --game=oca --players="$players" --bots="$profile" --tune="$knobs" \
        --maximize=win_share@1 --runs="$runs" --seed="$s" --quiet "$@" >"$out"
    best=$(sed -n 's/^best: //p' "$out")
    gain=$(sed -n 's/^  improvement  *\(.*\) pp$/\1/p' "$out")
    [ -n "$best" ] && [ -n "$gain" ] || { echo "best_response.sh: round $k: no best in the tuner's report" >&2; exit 1; }
    if [ $until = 1 ] && ! printf '%s\n' "$gain" |
        awk '{ g = $1; lo = $2; gsub(/[][,+]/, "", lo); exit !(g + 0 > 1 && lo + 0 > 0) }'; then
        printf 'round %d  seed %d  gain %s  %s (kept: within 1 point)\n' "$k" "$s" "$gain" "$best"
        break
    fi
    printf 'round %d  seed %d  gain %s  %s\n' "$k" "$s" "$gain" "$best"
    profile=$best
    k=$((k + 1))
done
echo "profile: $profile"
