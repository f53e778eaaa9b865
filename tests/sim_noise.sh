#!/bin/sh
# sim_noise.sh -- `sibyl sim --noise': exact predictions under OS noise
# (fastsim/SEMANTICS.md, section "Noise"; docs/noise.md).
#
# An SEB that starts at s with duration D ends at the least fixed point of
# e = s + D + (detours starting in [s, e)); a message sent at offset o
# leaves at the fixed point of t = s + o + (detours starting in [s, t)).
# Expected times are worked out by hand or with ext() below, which counts
# the detours of one pattern arithmetically.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

# cnt P O t: detours of pattern (period P, offset O) starting before t.
cnt() {
	if [ "$3" -le "$2" ]; then echo 0; else echo $((($3 - $2 - 1) / $1 + 1)); fi
}
# ext P A O s d: end of d ps of work started at s under pattern (P, A, O).
ext() {
	e=$(($4 + $5)); lo=$4
	[ "$5" -eq 0 ] && { echo "$e"; return; }
	while :; do
		a=$(($2 * ($(cnt "$1" "$3" "$e") - $(cnt "$1" "$3" "$lo"))))
		[ "$a" -eq 0 ] && break
		lo=$e; e=$((e + a))
	done
	echo "$e"
}
US=1000000 MS=1000000000

mkdir -p "$T/pat" "$T/pat1" "$T/cap" "$T/bad" "$T/ring"
printf '# period amplitude offset\n0.25ms 10us 0us\n' >"$T/pat/core0"
printf 'unit us\n250 10 0\n' >"$T/pat1/core1"

# ------------------------------------------------------- one SEB of 1 ms
craft one <<'EOF2'
npes 1
0 work 1000000000
EOF2
# Detours at 0, .25, .5, .75 ms -> 1.04 ms; the one at 1.0 ms -> 1.05 ms.
expect_time $((1050 * US)) "1 ms under 0.25ms/10us" one --noise "$T/pat"
s=$T/last.sim/summary.json
expect_eq "$(jget "$s" noise.total_ps)" $((50 * US)) "noise total"
expect_eq "$(jget "$s" pes.noise_ps.max)" $((50 * US)) "noise per PE"
expect_eq "$(jget "$s" pes.busy_ps.max)" $((1 * MS)) "busy excludes noise"
expect_eq "$(jget "$s" pes.idle_ps.max)" 0 "idle excludes noise"
expect_grep '^noise +50\.000 us injected in total \(50000000 ps\)' \
	"$T/last.sim/summary.txt"
expect_eq "$(ext 250000000 10000000 0 0 $MS)" $((1050 * US)) "ext()"
# Without noise: no noise key, no noise line.
expect_time $MS "no noise" one
checks=$((checks + 1))
grep -q '"noise' "$T/last.sim/summary.json" &&
	fail "noise reported without --noise"
checks=$((checks + 1))
grep -Eq '^ *noise ' "$T/last.sim/summary.txt" &&
	fail "noise reported without --noise"
# Scale: 0 turns it off, 2 doubles every detour (1.08 -> 1.10 ms), 3/4.
expect_time $MS "--noise-scale 0" one --noise "$T/pat" --noise-scale 0
expect_eq "$(jget "$T/last.sim/summary.json" noise.total_ps)" 0 \
	"scale 0 total"
expect_time $((1100 * US)) "--noise-scale 2" one --noise "$T/pat" \
	--noise-scale 2
expect_time $((1 * MS + 5 * 7500000)) "--noise-scale 3/4" one \
	--noise "$T/pat" --noise-scale 3/4
# The same through the configuration file written back.
expect_ok "$SIBYL" sim -q -o "$T/conf.sim" "$T/one.trace" --noise "$T/pat" \
	--noise-scale 2
expect_time $((1100 * US)) "machine.conf reproduces" one \
	-c "$T/conf.sim/machine.conf"

# -------------------------------------------- rank -> core of the machine
craft two <<'EOF2'
npes 2
0 work 1000000000
1 work 1000000000
EOF2
# Rank order: rank 1 is core 1, the only noisy core.
expect_time $((1050 * US)) "core 1 noisy" two --noise "$T/pat1" \
	--set machine.cores_per_node=2
s=$T/last.sim/summary.json
expect_eq "$(jget "$s" pes.noise_ps.min)" 0 "core 0 noiseless"
expect_eq "$(jget "$s" pes.noise_ps.max_pe)" 1 "noisy rank"
# A mapping file puts rank 0 on core 1.
printf '0 0 1\n1 0 0\n' >"$T/swap.map"
expect_time $((1050 * US)) "mapped core" two --noise "$T/pat1" \
	--set machine.cores_per_node=2 --map "$T/swap.map"
expect_eq "$(jget "$T/last.sim/summary.json" pes.noise_ps.max_pe)" 0 \
	"noisy rank under the map"

# ------------------------------------------------------ send-time shift
# PE 0 (node 0, core 0, noisy) computes 0.5 ms and sends 1000 B at
# offset 0.3 ms: it leaves after the detours at 0 and 0.25 ms, at
# 0.32 ms.  PE 1 (node 1, core 1, noiseless) then computes 1 ms.
craft send <<'EOF2'
npes 2
0 work 500000000 s:1:1000@300000000
1 recv 1000000000 w:0:0
EOF2
printf '0 0 0\n1 1 1\n' >"$T/send.map"
X=$(xfer 1000 10000000000)
expect_time $((320 * US + 1000000 + X + MS)) "send after detours" send \
	--noise "$T/pat" --set machine.cores_per_node=2 --map "$T/send.map"
# PE 0 itself: .5 ms -> .52 -> .53 ms (detour at .5 reached).
expect_eq "$(jget "$T/last.sim/summary.json" pes.noise_ps.max)" \
	$((30 * US)) "sender's noise"

# ---------------------------------------------- ring (sibyl trace gen)
# Ranks in step, one per node, the same pattern on every node: compute c
# (extended), the send at offset c leaves at the extended end, arrives
# L + X later, where the next iteration starts.
P=300000000 A=7000000 O=50000000 C=1000000000 I=4
printf 'unit ps\n%s %s %s\n' $P $A $O >"$T/ring/core0"
gen ring -p ring -r 5 -i $I -c 1ms -s 1000
t=0 i=0
while [ $i -lt $I ]; do
	t=$(($(ext $P $A $O $t $C) + 1000000 + X)); i=$((i + 1))
done
expect_time $t "ring under a pattern" ring --noise "$T/ring"

# ----------------------------------------- captured noise on kneighbor
printf '# captured on one core, Netgauge style\nunit us\nlength 1000\n' \
	>"$T/cap/cores"
for c in 0 1 2 3; do
	printf '%s 100 5\n%s 430 17\n%s 800 40\n' $c $c $c >>"$T/cap/cores"
done
gen kn -p kneighbor -r 64 -k 2 -i 3 -c 300us
run() {   # NAME ARGS...: simulate kn, print "predicted noise_total"
	n=$1; shift
	rm -rf "$T/$n.sim"
	expect_ok "$SIBYL" sim -q -o "$T/$n.sim" "$T/kn.trace" \
		--set machine.cores_per_node=4 --noise "$T/cap" "$@"
	echo "$(jget "$T/$n.sim/summary.json" predicted_time_ps)" \
		"$(jget "$T/$n.sim/summary.json" noise.total_ps)"
}
a=$(run a); b=$(run b); c=$(run c --noise-seed 7); d=$(run d --noise-seed 7)
co=$(run co --noise-cosched); co2=$(run co2 --noise-cosched --noise-seed 3)
expect_eq "$a" "$b" "captured: reproducible"
expect_eq "$c" "$d" "captured: reproducible with --noise-seed"
checks=$((checks + 1))
[ "$a" != "$c" ] || fail "captured: seeds 1 and 7 give the same run ($a)"
checks=$((checks + 1))
[ "$a" != "$co" ] || fail "captured: --noise-cosched changes nothing"
# The default seed is sim.seed.
expect_eq "$(run e --set sim.seed=7)" "$c" "noise seed defaults to sim.seed"
# Noise only lengthens: compare with the noiseless run.
expect_ok "$SIBYL" sim -q -o "$T/plain.sim" "$T/kn.trace" \
	--set machine.cores_per_node=4
p0=$(jget "$T/plain.sim/summary.json" predicted_time_ps)
checks=$((checks + 1))
[ "${a%% *}" -gt "$p0" ] || fail "captured noise: ${a%% *} <= $p0"
# The written configuration reproduces the run.
expect_ok "$SIBYL" sim -q -o "$T/re.sim" "$T/kn.trace" \
	-c "$T/c.sim/machine.conf"
expect_eq "$(jget "$T/re.sim/summary.json" predicted_time_ps) $(jget \
	"$T/re.sim/summary.json" noise.total_ps)" "$c" "machine.conf (seed 7)"

# -------------------------------------------------------------- errors
printf '0.25ms 10 0us\n' >"$T/bad/core0"
expect_exit 2 "$SIBYL" sim -q -o "$T/x.sim" "$T/one.trace" --noise "$T/bad"
expect_grep 'bad/core0:1: amplitude .10. has no unit' "$T/err"
checks=$((checks + 1))
[ -e "$T/x.sim" ] && fail "an output directory after a noise error"
expect_exit 2 "$SIBYL" sim -q -o "$T/x.sim" "$T/one.trace" \
	--noise "$T/pat" --noise-scale 25
expect_grep 'smaller scale' "$T/err"
expect_exit 2 "$SIBYL" sim -q -o "$T/x.sim" "$T/one.trace" \
	--noise "$T/nonexistent"
expect_grep 'nonexistent' "$T/err"
expect_exit 2 "$SIBYL" sim -q -o "$T/x.sim" "$T/one.trace" \
	--noise "$T/pat" --noise-scale=-1
expect_grep 'noise\.scale' "$T/err"

finish
