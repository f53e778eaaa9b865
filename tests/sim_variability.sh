#!/bin/sh
# The variability models of `sibyl sim' (docs/variability.md), checked
# against analytic figures:
#   - K-Neighbor with an allreduce per iteration, each rank's compute
#     log-normal (median 1 ms, sigma 0.25): every iteration lasts the
#     expected maximum of N log-normals plus the communication, within
#     5%; bit-identical for a seed, whatever the window size or the
#     number of data files; different for another seed;
#   - fixed draws equal the replacement rule they mimic; a pattern of
#     clusters replays in order (alternating 1 ms and 3 ms iterations);
#   - spatial: a calibration whose one core is twice as slow makes every
#     iteration 1 ms longer; a drawn factor per node or per core changes
#     the result;
#   - network: a fixed factor F multiplies a ping-pong's time by F, per
#     size range;
#   - errors name the key's origin or the profile's line, exit non-zero.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

N=256
I=20
LOGN='seb:compute=lognormal(1ms, 0.25)'
gen kn -p kneighbor -r $N -k 2 --allreduce -c 1ms -i $I
gen knw -p kneighbor -r $N -k 2 --allreduce -c 1ms -i $I --window 4 \
	--procs 3

# sim NAME TRACE ARGS...: simulate into $T/NAME.sim; its prediction.
sim() {
	name=$1 tr=$2; shift 2
	rm -rf "$T/$name.sim"
	expect_ok "$SIBYL" sim -q -o "$T/$name.sim" "$T/$tr.trace" "$@"
	jget "$T/$name.sim/summary.json" predicted_time_ps
}

base=$(sim base kn)
checks=$((checks + 1))
grep -q '"variability"' "$T/base.sim/summary.json" ||
	grep -q '^\[variability\]' "$T/base.sim/machine.conf" &&
	fail "a run without [variability] keys mentions variability"

# Max of N: E[max] = integral of 1 - F(x)^N; communication C = base/I - 1 ms.
v1=$(sim v1 kn --set "variability.temporal=$LOGN")
py '
import math, sys
N, I, base, got = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
m, s = 1e9, 0.25          # ps
F = lambda x: 0.5 * math.erfc(-math.log(x / m) / (s * math.sqrt(2)))
h, x, emax = 1e4, 5e3, 0.0
while x < 20 * m:
    emax += (1 - F(x) ** N) * h
    x += h
c = base / I - m
want = I * (emax + c)
err = abs(got - want) / want
print("E[max of %d] = %.4f ms, C = %.3f us, predicted %.4f ms, expected %.4f ms, error %.2f%%" % (N, emax / 1e9, c / 1e6, got / 1e9, want / 1e9, 100 * err))
assert err < 0.05, err
' $N $I "$base" "$v1"
cat "$T/py.out" >&2
expect_eq "$(jget "$T/v1.sim/summary.json" variability.sebs_drawn)" \
	$((N * I)) "SEB durations drawn"
again=$(sim again kn --set "variability.temporal=$LOGN")
expect_eq "$again" "$v1" "the same seed"
expect_eq "$(jget "$T/again.sim/summary.json" busy_ps.min)" \
	"$(jget "$T/v1.sim/summary.json" busy_ps.min)" "the same seed: busy"
w=$(sim w knw --set "variability.temporal=$LOGN")
expect_eq "$w" "$v1" "window size 4 and 3 data files"
s2=$(sim s2 kn --set "variability.temporal=$LOGN" --variability-seed 2)
checks=$((checks + 1))
[ "$s2" != "$v1" ] || fail "seed 2 gives the prediction of seed 1 ($v1)"
s3=$(sim s3 kn --set "variability.temporal=$LOGN" --set sim.seed=2)
expect_eq "$s3" "$s2" "sim.seed 2 when variability.seed is -1"

# Fixed draws are the replacement rule; a pattern replays in order.
r=$(sim r kn -r 'seb:compute=2ms')
f=$(sim f kn --set 'variability.temporal=seb:compute=fixed(2ms)')
expect_eq "$f" "$r" "fixed(2ms) against the rule seb:compute=2ms"
cat >"$T/alt.profile" <<'EOF'
sibyl-variability-profile 1
seb "compute"
  cluster 1 fixed(1ms)
  cluster 1 fixed(3ms)
  pattern 0 1
end
EOF
p=$(sim p kn --variability "$T/alt.profile")
expect_eq "$p" $((base + I / 2 * 2000000000)) "pattern 0 1 of 1 ms and 3 ms"
expect_grep '^profile = /' "$T/p.sim/machine.conf"

# Spatial: one core of four twice as slow (kernel times 1 1 1 2 s).
cat >"$T/report.json" <<'EOF'
{
  "copy_bandwidth_Bps": 1e10,
  "cores": [{"rank": 0, "cpu": 0, "kernel_s": 1.0e-3}, {"rank": 1, "cpu": 1, "kernel_s": 1.0e-3}, {"rank": 2, "cpu": 2, "kernel_s": 1.0e-3}, {"rank": 3, "cpu": 3, "kernel_s": 2.0e-3}]
}
EOF
b4=$(sim b4 kn --set machine.cores_per_node=4)
sf=$(sim sf kn --set machine.cores_per_node=4 \
	--set "variability.spatial_file=$T/report.json")
py '
import sys
b, s, I = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
want = b + I * 10**9
assert abs(s - want) <= 0.001 * want, (s, want)
' "$b4" "$sf" $I
sn=$(sim sn kn --set machine.cores_per_node=4 \
	--set 'variability.spatial=normal(1, 0.05)')
sc=$(sim sc kn --set machine.cores_per_node=4 \
	--set 'variability.spatial=normal(1, 0.05)' \
	--set variability.spatial_per=core)
checks=$((checks + 2))
[ "$sn" -gt "$b4" ] || fail "spatial per node: $sn ps, not above $b4 ps"
[ "$sc" != "$sn" ] || fail "spatial_per=core gives the per-node result"

# Network: a fixed factor per size range multiplies a ping-pong's time.
gen pp -p pingpong -r 2 -s 2KiB -i 10 -c 0
pb=$(sim pb pp)
p2=$(sim p2 pp --set 'variability.network=0: fixed(2)')
expect_eq "$p2" $((2 * pb)) "ping-pong with network factor 2"
p3=$(sim p3 pp --set 'variability.network=0: fixed(1); 1KiB: fixed(3)')
expect_eq "$p3" $((3 * pb)) "ping-pong of 2 KiB, factor 3 from 1 KiB"
expect_eq "$(jget "$T/p3.sim/summary.json" variability.messages_jittered)" \
	20 "messages jittered"
pj=$(sim pj pp --set 'variability.network=0: lognormal(1, 0.2)')
checks=$((checks + 1))
[ "$pj" != "$pb" ] || fail "log-normal network jitter changes nothing"

# Errors: where the key was given, what is wrong; nothing written.
cat >"$T/bad.conf" <<'EOF'
[variability]
temporal = seb:compute=lognormal(1ms)
EOF
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" -c "$T/bad.conf" "$T/kn.trace"
expect_grep 'bad.conf:2: variability.temporal: rule' "$T/err"
checks=$((checks + 1))
[ ! -e "$T/bad.sim" ] || fail "a failed run left $T/bad.sim"
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/kn.trace" \
	--set variability.sede=3
expect_grep "did you mean 'variability.seed'" "$T/err"
printf 'sibyl-variability-profile 1\nseb "compute"\n  cluster 1 normal(1ms, 1us)\n  pattern 0 2\nend\n' \
	>"$T/badpat.profile"
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/kn.trace" \
	--variability "$T/badpat.profile"
expect_grep 'badpat.profile:4: pattern' "$T/err"
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/kn.trace" \
	--variability "$T/none.profile"
expect_grep 'none.profile' "$T/err"
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/kn.trace" \
	--set 'variability.network=1KiB: fixed(2)'
expect_grep 'variability.network: range .*start at 0' "$T/err"
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/kn.trace" \
	--set 'variability.spatial=fixed(1)' \
	--set "variability.spatial_file=$T/report.json"
expect_grep 'not both' "$T/err"
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/kn.trace" \
	--set 'variability.spatial=normal(1us, 1)'
expect_grep 'variability.spatial: .*not a number' "$T/err"
# The calibration report: a device, and a file without kernel times.
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/kn.trace" \
	--set variability.spatial_file=/dev/zero
expect_grep '/dev/zero is a character device, not a regular file' "$T/err"
printf '{"cores": []}\n' >"$T/nokernel.json"
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/kn.trace" \
	--set "variability.spatial_file=$T/nokernel.json"
expect_grep 'nokernel.json: no "cores" with "kernel_s"' "$T/err"
finish
