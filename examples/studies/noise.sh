#!/bin/sh
# noise.sh -- overhead of periodic OS noise on a K-Neighbor benchmark with
# and without an allreduce, against the noise period (the noise study of
# the thesis, section 7.2, Figure 7.1).
#
#   examples/studies/noise.sh [-o DIR] [--ranks R] [--iters N] [--full]
#                             [--phase same|random] [--seed S] [--jobs J]
#                             [--force]
#
# Two traces of `sibyl trace gen -p kneighbor': every rank exchanges 1 KiB
# with 4 neighbours on each side of a ring (8 in all, as in the thesis)
# and computes 1 ms per iteration; the second variant adds an 8-byte
# allreduce at the end of every iteration.  Each is simulated without
# noise and with a detour of 0.1 ms every P, for P = 1 s, 500 ms, 100 ms,
# 50 ms, 10 ms, 5 ms, 2.5 ms and 1 ms (the naive overhead amplitude / P
# runs from 0.01% to 10%; 2.5 ms is the thesis' "naive 4%").  The
# overhead of a run is (T_noise - T_base) / T_base.
#
# Phase of the noise (--phase):
#   same    (default) a pattern "P 0.1ms 0" on every core: the detours hit
#           every core of every node at once (co-scheduled noise, the
#           pattern mode of the thesis)
#   random  every core of every node has its own phase, drawn by the
#           simulator from --seed: each noise set holds one captured
#           detour "0 0.1ms" per core with `length P', which the simulator
#           replicates with a random offset per node and core and repeats
#           every P -- unsynchronized daemons; with thousands of ranks
#           some rank is hit in almost every iteration, and the allreduce
#           makes everyone wait for it (noise amplification)
# 32 ranks per node (a PERCS node); the noise sets describe 32 cores.
#
# Defaults: 4,096 ranks, 100 iterations (about 0.1 s simulated, a few
# seconds per simulation); --full: 65,536 ranks and 200 iterations.
# Outputs in DIR (default noise.out): the traces, the noise sets, one
# simulation directory per run, overhead.csv (variant, period_ms,
# period_s, naive_pct, time_ps, overhead_pct), report.md and, when gnuplot is
# installed, overhead.png and overhead.svg.
#
# The simulator is `sibyl' from $SIBYL, else build/sibyl next to this
# script's source tree, else `sibyl' on the PATH.
set -eu

out=noise.out
ranks=4096
iters=100
phase=same
jobs=2
seed=1
force=
full=
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	--ranks) ranks=$2; shift 2 ;;
	--iters) iters=$2; shift 2 ;;
	--full) full=1; shift ;;
	--phase) phase=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--force) force=--force; shift ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
		exit 0 ;;
	*) echo "noise.sh: unknown argument '$1'; try --help" >&2; exit 2 ;;
	esac
done
if [ -n "$full" ]; then
	ranks=65536
	iters=200
fi
case $phase in
random|same) ;;
*) echo "noise.sh: --phase must be random or same" >&2; exit 2 ;;
esac
case $jobs in
''|*[!0-9]*|0) echo "noise.sh: --jobs must be a positive integer" >&2; exit 2 ;;
esac

study=noise.sh
. "$(dirname "$0")/common.sh"
"$sibyl" sim --help 2>/dev/null | grep -q -- '--noise DIR' || {
	echo "noise.sh: '$sibyl sim' has no --noise option; update Sibyl" >&2
	rmdir "$out"
	exit 2
}

cores=32
amp=0.1ms
# Periods in ms and their names (also the noise-set names).
periods="1000 500 100 50 10 5 2.5 1"

elapsed() { echo $(( $(date +%s) - $1 )) s; }
t0=$(date +%s)

echo "== traces: $ranks ranks, K = 4 (8 neighbours), 1 ms compute, $iters iterations"
"$sibyl" trace gen -p kneighbor -r "$ranks" -k 4 -c 1ms -i "$iters" \
	-o "$out/plain.trace" -q
"$sibyl" trace gen -p kneighbor -r "$ranks" -k 4 -c 1ms -i "$iters" \
	--allreduce -o "$out/allreduce.trace" -q

echo "== noise sets: $amp every P, phase $phase, $cores cores per node"
for p in $periods; do
	d=$out/noise-${p}ms
	mkdir "$d"
	c=0
	while [ $c -lt $cores ]; do
		if [ "$phase" = same ]; then
			printf '# %s every %sms on every core at once\n%sms %s 0s\n' \
				"$amp" "$p" "$p" "$amp" >"$d/core$c"
		else
			printf '# %s every %sms, phase drawn per node and core\nlength %sms\n0s %s\n' \
				"$amp" "$p" "$p" "$amp" >"$d/core$c"
		fi
		c=$((c + 1))
	done
	"$sibyl" noise stats "$d" >/dev/null
done

# run NAME TRACE [SIM ARGS...]
run() {
	name=$1; tr=$2; shift 2
	"$sibyl" sim "$out/$tr.trace" -o "$out/$name.sim" -q \
		--set machine.cores_per_node=$cores --set sim.seed="$seed" "$@"
}

# Every run as "NAME TRACE [NOISE]", run $jobs at a time.
{
	for v in plain allreduce; do
		echo "$v-base $v"
		for p in $periods; do
			echo "$v-${p}ms $v noise-${p}ms"
		done
	done
} >"$out/runs.txt"

echo "== $(wc -l <"$out/runs.txt") simulations ($jobs at a time)"
t1=$(date +%s)
n=0
pids=
while read -r name tr nz; do
	if [ -n "$nz" ]; then
		run "$name" "$tr" --noise "$out/$nz" &
	else
		run "$name" "$tr" &
	fi
	pids="$pids $!"
	n=$((n + 1))
	if [ $((n % jobs)) -eq 0 ]; then
		for p in $pids; do wait "$p"; done
		pids=
		echo "   $n done, $(elapsed "$t1")"
	fi
done <"$out/runs.txt"
for p in $pids; do wait "$p"; done
echo "   all: $(elapsed "$t1")"

ptime() {
	tr -d '\n' <"$out/$1.sim/summary.json" |
		grep -o '"predicted_time_ps": *[0-9]*' | sed 's/.*: *//'
}

echo "variant,period_ms,period_s,naive_pct,time_ps,overhead_pct" >"$out/overhead.csv"
for v in plain allreduce; do
	base=$(ptime "$v-base")
	for p in $periods; do
		t=$(ptime "$v-${p}ms")
		awk -v v="$v" -v p="$p" -v b="$base" -v t="$t" 'BEGIN {
			printf "%s,%s,%g,%.6g,%s,%.6f\n", v, p, p / 1000, 0.1 / p * 100,
			       t, (t - b) / b * 100 }' >>"$out/overhead.csv"
	done
done

{
	echo "# Noise overhead of K-Neighbor (thesis Figure 7.1)"
	echo
	echo "$ranks ranks ($cores per node), K = 4 on each side, 1 ms compute per"
	echo "iteration, $iters iterations; detours of 0.1 ms every P, phase $phase"
	echo "(seed $seed).  Baselines: plain $(ptime plain-base) ps,"
	echo "allreduce $(ptime allreduce-base) ps."
	echo
	echo "| period | naive | plain | allreduce |"
	echo "|-------:|------:|------:|----------:|"
	for p in $periods; do
		awk -F, -v p="$p" '$2 == p { o[$1] = $6; n = $4 }
			END { printf "| %s ms | %.2f%% | %.3f%% | %.3f%% |\n", p, n,
			      o["plain"], o["allreduce"] }' "$out/overhead.csv"
	done
	echo
	awk -F, '$1 == "allreduce" && $6 > 4 { n++; s = s sep $2 " ms"; sep = ", " }
		END { if (n) print "The allreduce variant exceeds the naive 4% bound at P = " s "."
		      else print "The allreduce variant stays under the naive 4% bound." }' \
		"$out/overhead.csv"
} >"$out/report.md"
cat "$out/report.md"

if command -v gnuplot >/dev/null 2>&1; then
	for f in png svg; do
		if [ $f = png ]; then term="pngcairo size 800,550"; else term="svg size 800,550"; fi
		gnuplot <<EOF || echo "noise.sh: gnuplot failed for overhead.$f" >&2
set terminal $term
set output '$out/overhead.$f'
set datafile separator ','
set logscale xy
# High frequencies on the right, as in the thesis' figure.
set xrange [1.3:0.00075]
set xlabel 'noise period (s), amplitude 0.1 ms'
set ylabel 'overhead (%)'
set title 'K-Neighbor, $ranks ranks: overhead vs noise period ($phase phase)'
set key top right
set grid
plot '< grep ^plain, $out/overhead.csv' using 3:(\$6 > 0 ? \$6 : 1e-4) with linespoints title 'K-Neighbor', \\
     '< grep ^allreduce, $out/overhead.csv' using 3:(\$6 > 0 ? \$6 : 1e-4) with linespoints title 'K-Neighbor with Allreduce', \\
     '< grep ^plain, $out/overhead.csv' using 3:4 with lines dashtype 2 title 'naive (amplitude / period)', \\
     4 with lines dashtype 3 title 'naive 4%'
EOF
	done
	echo "plots: $out/overhead.png $out/overhead.svg"
else
	echo "(gnuplot not installed: no plots; apt-get install gnuplot-nox)"
fi
echo "total $(elapsed "$t0")"
