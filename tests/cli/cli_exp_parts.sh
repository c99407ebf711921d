# cli_exp_parts.sh — issue #27 for experiments: an experiment's part (--shard of a sweep, a
# rotation, --until) forged with a valid checksum is refused by --merge with one line naming
# the file, the block, the setting and the figure, exit 2. Run by tests/cli/run.sh.
#
# The parts are edited by forge_part.py (which recomputes the FNV-1a checksum). The payload of
# an experiment's part, per block: from, to, has (u64 each, 24 bytes); per setting a flag (8)
# and its slots, 232 bytes each (n u64, then 14 i128: x +8, c +24, xx +40, xc +56, cc +72,
# bx +88, bc +104, bxx +120, bxc +136, bcc +152, x_bx +168, x_bc +184, c_bx +200, c_bc +216),
# then when not rotated its tallies. PIG 10's slots: length, ties, no_winner,
# ended.hands_played_out, cards_left_on_table, the 8 figures of the course (lead_changes ..
# leader_wins_75), then per seat (or bot, rotated) win_share, cards, rank and its 6 seat
# metrics; rotated, one seat_advantage per seat. So with 2 bots rotated 33 slots (win_share@1
# is slot 13, cards@1 slot 14), with 2 players 31 (length 0, ties 1, cards@1 14). Each forge asserts the payload length it expects (--payload).

if command -v python3 >/dev/null 2>&1; then
    fx="$work/forge-exp"
    mkdir -p "$fx"
    forge() { python3 "$here/forge_part.py" "$@" || bad "forge_part.py $*" "exit $?"; }
    slot=232
    rot="--game=pig10 --bots=greedy,random --rotate-seats --runs=600 --seed=3"
    sweep="--game=pig10 --sweep=players=2,3 --runs=600 --seed=3"
    for i in 0 1; do
        # shellcheck disable=SC2086
        "$bin" $rot --shard=$i/2 -q -o "$fx/rot.$i" || bad "forge-exp: rotation shard $i" "exit $?"
        # shellcheck disable=SC2086
        "$bin" $sweep --shard=$i/2 -q -o "$fx/sw.$i" || bad "forge-exp: sweep shard $i" "exit $?"
        # shellcheck disable=SC2086
        "$bin" $sweep --baseline=3 --shard=$i/2 -q -o "$fx/base.$i" ||
            bad "forge-exp: sweep with a baseline, shard $i" "exit $?"
    done
    expect_ok "forge-exp: the genuine rotation parts merge" --merge "$fx/rot.0" "$fx/rot.1"
    expect_ok "forge-exp: the genuine sweep parts merge" --merge "$fx/sw.0" "$fx/sw.1"
    expect_ok "forge-exp: the genuine baseline parts merge" --merge "$fx/base.0" "$fx/base.1"

    # a bot's win units beyond its plays: 600000 units where its 300 deals x 2 rotations give
    # at most 300 x 2 x 840 = 504000 (the old reader printed a win share of 108%)
    forge "$fx/rot.1" "$fx/share" --payload="24+8+33*$slot" "24+8+13*$slot+8:i128:set:600000"
    expect_error "forge-exp: win share beyond the plays" 2 \
        "^giochi-sim: '$fx/share': partial result does not make sense: games 0-600, setting default, win_share@1: observations that its games cannot sum to$" \
        --merge "$fx/rot.0" "$fx/share"

    # its sum of squares 2^80 more: a game's units u within 0..c = 1680 have u^2 <= c u, so
    # the sum of squares is at most 1680 times the units' sum (about 2^28 here)
    forge "$fx/rot.1" "$fx/squares" "24+8+13*$slot+40:i128:add:2**80"
    expect_error "forge-exp: win units' squares beyond their bounds" 2 \
        "^giochi-sim: '$fx/squares': partial result does not make sense: games 0-600, setting default, win_share@1: a sum of squares beyond what its observations allow$" \
        --merge "$fx/rot.0" "$fx/squares"

    # units of 2^126 (found by fuzz_merge): completing the sums (c x, with c = 1680 a deal)
    # would overflow 128 bits, undefined behaviour before the check
    forge "$fx/rot.1" "$fx/huge" "24+8+13*$slot+8:i128:set:2**126"
    expect_error "forge-exp: sums beyond 128 bits once completed" 2 \
        "^giochi-sim: '$fx/huge': partial result does not make sense: games 0-600, setting default, win_share@1: sums too large for their counts \\(beyond 128 bits\\)$" \
        --merge "$fx/rot.0" "$fx/huge"

    # a slot's game count not the shard's 300 games of the block
    forge "$fx/sw.1" "$fx/games" "24+8:u64:add:1"
    expect_error "forge-exp: a slot's games not the shard's" 2 \
        "^giochi-sim: '$fx/games': partial result does not make sense: games 0-600, setting players=2, length: 301 games where the block holds 300$" \
        --merge "$fx/sw.0" "$fx/games"

    # one more tied game in the paired sums (x and xx, so that each sum alone still fits) than
    # in the setting's own tallies
    forge "$fx/sw.1" "$fx/ties" "24+8+$slot+8:i128:add:1" "24+8+$slot+40:i128:add:1"
    expect_error "forge-exp: paired sums not the tallies'" 2 \
        "^giochi-sim: '$fx/ties': partial result does not make sense: games 0-600, setting players=2, ties: sums that are not those of the setting's own tallies$" \
        --merge "$fx/sw.0" "$fx/ties"

    # players=2 paired with the baseline players=3 (set 1): its copy of the baseline's cards@1
    # (bx) one card more than the baseline's own sums of the same games
    forge "$fx/base.1" "$fx/bx" "24+8+14*$slot+88:i128:add:1"
    expect_error "forge-exp: baseline sums not the baseline's" 2 \
        "^giochi-sim: '$fx/bx': partial result does not make sense: games 0-600, setting players=2, cards@1: baseline sums that are not the baseline's own$" \
        --merge "$fx/base.0" "$fx/bx"

    # a cross sum (x_bx of the length) of 2^100: beyond sqrt(xx bxx) by Cauchy-Schwarz
    forge "$fx/base.1" "$fx/cross" "24+8+168:i128:add:2**100"
    expect_error "forge-exp: a cross sum beyond Cauchy-Schwarz" 2 \
        "^giochi-sim: '$fx/cross': partial result does not make sense: games 0-600, setting players=2, length: cross sums with the baseline beyond what the sums of squares allow$" \
        --merge "$fx/base.0" "$fx/cross"

    # a shard that says it holds no games of a block it plays
    forge "$fx/sw.1" "$fx/has" "16:u64:set:0"
    expect_error "forge-exp: a block said empty" 2 \
        "^giochi-sim: '$fx/has' does not hold the block of games 0-600 this experiment plays \\(its part: 300 games\\)$" \
        --merge "$fx/sw.0" "$fx/has"

    # A setting's tallies tied to its games (pig10: 15 metrics, 1 end): an end count lowered,
    # a seat's choices beyond one a play, tied games and games without a winner at 2^63 - 1
    # each (their sum once overflowed a signed 64-bit check)
    forge "$fx/sw.1" "$fx/end" --shape=15,1 "r1.end.0:u64:add:-1"
    forge "$fx/sw.1" "$fx/choices" --shape=15,1 "r0.choices.0:u64:set:2**40" "r0.choices.1:u64:set:2**40"
    forge "$fx/sw.1" "$fx/ties" --shape=15,1 "r0.tied:u64:set:2**63-1" "r0.no_winner:u64:set:2**63-1"
    expect_error "forge-exp: a setting's end count lowered" 2 \
        "^giochi-sim: '$fx/end': partial result does not make sense: games 0-600, setting players=3, tallies: end counts: 299 ends of 300 games$" \
        --merge "$fx/sw.0" "$fx/end"
    expect_error "forge-exp: a setting's choices beyond its plays" 2 \
        "^giochi-sim: '$fx/choices': partial result does not make sense: games 0-600, setting players=2, tallies: choices of seat 1: more choices than 300 games of [0-9]* plays in all allow$" \
        --merge "$fx/sw.0" "$fx/choices"
    expect_error "forge-exp: tied games and games without a winner at 2^63 - 1" 2 \
        "^giochi-sim: '$fx/ties': partial result does not make sense: games 0-600, setting players=2, tallies: games: 9223372036854775807 tied games and 9223372036854775807 without a winner out of 300$" \
        --merge "$fx/sw.0" "$fx/ties"

    # Two blocks (--until) whose sums of squares of cards@1 (2^126 each: a value can be that
    # large) make sense alone but overflow 128 bits together: the total is checked.
    "$bin" --game=pig10 --bots=greedy,random --rotate-seats --until=win_share@1:0.0001 \
        --runs=2000 --seed=3 --shard=0/1 -q -o "$fx/until" || bad "forge-exp: --until shard" "exit $?"
    blk="24+8+33*$slot"
    forge "$fx/until" "$fx/big" --payload="2*24+2*8+2*33*$slot" \
        "24+8+14*$slot+40:i128:set:2**126" "$blk+24+8+14*$slot+40:i128:set:2**126"
    expect_error "forge-exp: block sums that overflow together" 2 \
        "^giochi-sim: '$fx/big': setting default, cards@1: the sums of its blocks up to game 2000 do not fit in their integers$" \
        --merge "$fx/big"
    rm -rf "$fx"
else
    bad "python3" "missing: make check installs it (the forged parts need it)"
fi
