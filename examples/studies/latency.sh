#!/bin/sh
# latency.sh -- sensitivity of four applications to the network latency
# (the study of the thesis, section 8, Figure 8.1): K-Neighbor without and
# with an allreduce, the MD proxy (NAMD-like) and the CG proxy
# (MILC-like), under the `simple' network model with its latency swept
# over decades.
#
#   examples/studies/latency.sh [-o DIR] [--scale smoke|reduced|full]
#                               [--full] [--ranks R] [--iters N]
#                               [--jobs J] [--force]
#
# The applications are those of the noise study, made by
# `noise.sh --traces-only' with the same scale, ranks and iterations (its
# header says how: K-Neighbor from `sibyl trace gen', the proxies md.c and
# cg.c emulated once each in declared mode, every iteration about 1 ms).
# Each trace is simulated with net.latency = 100 ns, 1 us, 10 us, 100 us
# and 1 ms, net.bandwidth fixed at 10 GB/s (the simple model's default; the
# thesis does not give its figure), 32 ranks per node.  Messages between
# ranks of one node do not cross the network and keep the intra-node model
# (200 ns, 10 GB/s): the sweep changes the network's latency, as the
# thesis' did.  The result is each run's predicted time relative to the
# same application at 100 ns.
#
# Scales (--scale; --ranks R and --iters N override every application):
#   smoke    256 ranks, 12 iterations (8 MD steps), as noise.sh
#   reduced  2,048 ranks, 30 iterations (the default; a few minutes: with
#            five simulations per application instead of the noise
#            study's 17, twice its 1,024 ranks fit in less time)
#   full     as noise.sh --full: K-Neighbor and MD 65,536 ranks, CG 4,096
#
# Outputs in DIR (default latency.out): the traces (apps/), one simulation
# directory per run (sim/APP-LATENCY.sim), the commands run (runs.txt),
#   latency.csv  app, ranks, iters, latency_ns, bandwidth, time_ps,
#                relative (time / time at 100 ns), per_iter_latencies
#                (added time per iteration over the added latency: how
#                many network latencies each iteration waits for)
# report.md and, when gnuplot is installed, latency.png and latency.svg.
#
# Independent simulations run J at a time (--jobs, default 2).  The
# simulator is `sibyl' from $SIBYL, else build/sibyl next to this script's
# source tree, else `sibyl' on the PATH; the proxies are compiled with
# $SIBYLCC, else that tree's build/emulator/sibylcc, else `sibylcc'.
set -eu

study=latency.sh
. "$(dirname "$0")/common.sh"
sizeopts=
ranks=
while [ $# -gt 0 ]; do
	case $1 in
	--ranks) ranks=$2; shift 2 ;;
	--iters) sizeopts="$sizeopts --iters $2"; shift 2 ;;
	*) study_option "$@"; shift "$study_shift" ;;
	esac
done
study_init

if [ -z "$ranks" ] && [ "$scale" = reduced ]; then ranks=2048; fi
[ -z "$ranks" ] || sizeopts="$sizeopts --ranks $ranks"

t0=$(date +%s)
# The four traces, exactly as the noise study makes them.
# shellcheck disable=SC2086 # $sizeopts: options, split
SIBYL=$sibyl sh "$here/noise.sh" --traces-only --scale "$scale" $sizeopts \
	-o "$out/apps" --force
lats="100ns 1us 10us 100us 1ms"
bw=10GB/s
apps="kneighbor-allreduce md cg kneighbor"
mkdir -p "$out/sim"
for a in $apps; do
	for l in $lats; do
		echo "\"\$sibyl\" sim '$out/apps/$a.trace' -o '$out/sim/$a-$l.sim' -q --set machine.cores_per_node=32 --set net.model=simple --set net.latency=$l --set net.bandwidth=$bw"
	done
done >"$out/runs.txt"
study_run "$out/runs.txt" "with latency $(echo "$lats" | sed 's/ /, /g') at $bw"

# latency_ns L: the latency L (100ns, 1us, ...) in ns.
latency_ns() {
	echo "$1" | awk '{ v = $0 + 0; u = $0; sub(/^[0-9.]+/, "", u)
		if (u == "us") v *= 1e3; else if (u == "ms") v *= 1e6
		else if (u == "s") v *= 1e9
		printf "%.0f\n", v }'
}
echo "app,ranks,iters,latency_ns,bandwidth,time_ps,relative,per_iter_latencies" >"$out/latency.csv"
for a in kneighbor kneighbor-allreduce md cg; do
	r=$(awk -v a="$a" '$1 == a { print $2 }' "$out/apps/sizes.txt")
	i=$(awk -v a="$a" '$1 == a { print $3 }' "$out/apps/sizes.txt")
	l0=$(latency_ns "${lats%% *}")
	b=$(ptime "$out/sim/$a-${lats%% *}.sim")
	for l in $lats; do
		awk -v a="$a" -v r="$r" -v i="$i" -v l="$(latency_ns "$l")" \
			-v l0="$l0" -v bw="$bw" -v b="$b" \
			-v t="$(ptime "$out/sim/$a-$l.sim")" 'BEGIN {
			k = l > l0 ? sprintf("%.3f", (t - b) / i / ((l - l0) * 1000)) : ""
			printf "%s,%s,%s,%s,%s,%s,%.6f,%s\n", a, r, i, l, bw, t, t / b, k }'
	done >>"$out/latency.csv"
done

{
	echo "# Network latency: sensitivity of four applications (thesis §8, Figure 8.1)"
	echo
	echo "Scale $scale; the \`simple' network model, bandwidth $bw, latency swept from"
	echo "100 ns to 1 ms; 32 ranks per node (messages inside a node keep the intra-node"
	echo "model).  The applications are the noise study's (noise.sh --help): K-Neighbor"
	echo "(1 ms of computation, 8 neighbours) without and with an allreduce, the MD"
	echo "proxy (md -d -a 40, --flop-rate 0.5G) and the CG proxy (cg -d -l 4x4x3x6,"
	echo "--flop-rate 64M; the flop rates are assumptions that put an iteration near"
	echo "1 ms).  Time relative to the same application at 100 ns:"
	echo
	awk -F, 'NR > 1 { if (!($4 in seen)) { seen[$4] = 1; lat[++nl] = $4 }
			if (!($1 in sa)) { sa[$1] = 1; app[++na] = $1; rk[$1] = $2; it[$1] = $3 }
			rel[$1, $4] = $7; if ($8 != "") k[$1, $4] = $8 }
		function name(ns) { return ns >= 1e6 ? ns / 1e6 " ms" : ns >= 1e3 ? ns / 1e3 " us" : ns " ns" }
		END {
			printf "| app | ranks | iterations |"
			for (j = 1; j <= nl; j++) printf " %s |", name(lat[j])
			print ""
			printf "|---|--:|--:|"
			for (j = 1; j <= nl; j++) printf "--:|"
			print ""
			for (i = 1; i <= na; i++) { a = app[i]
				printf "| %s | %d | %d |", a, rk[a], it[a]
				for (j = 1; j <= nl; j++) printf " %.3f |", rel[a, lat[j]]
				print "" }
			print ""
			print "Network latencies each iteration waits for (added time per iteration / added latency, at 1 ms):"
			print ""
			for (i = 1; i <= na; i++) { a = app[i]
				printf "- %s: %s\n", a, k[a, lat[nl]] }
		}' "$out/latency.csv"
	echo
	# The conclusions, from the slowdown at 100 us (1e5 ns).
	awk -F, 'NR > 1 && $4 == 100000 { s[$1] = $7 - 1; if (!($1 in seen)) { seen[$1] = 1; app[++n] = $1 } }
		END {
			for (i = 1; i <= n; i++) { a = app[i]
				if (s[a] > 0.05) { sens = sens sep1 sprintf("%s (+%.1f%%)", a, s[a] * 100); sep1 = ", " }
				else { ins = ins sep2 sprintf("%s (+%.1f%%)", a, s[a] * 100); sep2 = ", " } }
			printf "At 100 us of latency, "
			if (sens != "") printf "sensitive (more than 5%% slower than at 100 ns): %s", sens
			if (sens != "" && ins != "") printf "; "
			if (ins != "") printf "insensitive: %s", ins
			print "."
			print ""
			ka = s["kneighbor-allreduce"]; kp = s["kneighbor"]
			if (ka > kp)
				printf "The allreduce makes K-Neighbor %.1f times as sensitive to latency (+%.1f%% against +%.1f%%): every iteration waits for the allreduce'"'"'s steps across the network, the plain variant only for its neighbours.\n", (kp > 0 ? ka / kp : 0), ka * 100, kp * 100
			else
				printf "The allreduce does not make K-Neighbor more sensitive to latency (+%.1f%% against +%.1f%%).\n", ka * 100, kp * 100
			print ""
			if (s["cg"] > s["md"])
				printf "The CG proxy (MILC-like) is more sensitive than the MD proxy (NAMD-like): +%.1f%% against +%.1f%%, as the thesis found for MILC and NAMD.\n", s["cg"] * 100, s["md"] * 100
			else
				printf "The MD proxy (NAMD-like) is at least as sensitive as the CG proxy (MILC-like): +%.1f%% against +%.1f%% (the thesis found MILC the more sensitive).\n", s["md"] * 100, s["cg"] * 100
		}' "$out/latency.csv"
	echo
	awk -F, 'NR > 1 && $1 == "kneighbor" && $8 != "" { k = $8 }
		END { if (k >= 0.95 && k <= 1.05)
			printf "The plain K-Neighbor waits for %s latencies per iteration: its messages leave at the end of its computation and are awaited before the next, so one latency is on the critical path of every iteration.  The thesis found its plain K-Neighbor unchanged, which needs its messages to overlap its computation (sent before it, or awaited only later).\n", k }' \
		"$out/latency.csv"
} >"$out/report.md"

study_plot "$out/latency" <<EOF
set datafile separator ','
set logscale x
set xrange [5e-8:2e-3]
set xtics ('100 ns' 1e-7, '1 us' 1e-6, '10 us' 1e-5, '100 us' 1e-4, '1 ms' 1e-3)
set xlabel 'network latency, bandwidth $bw'
set ylabel 'time relative to 100 ns latency'
set title 'Effect of network latency ($scale scale)'
set key top left
set grid
plot '< grep ^kneighbor, $out/latency.csv' using (\$4*1e-9):7 with linespoints title 'K-Neighbor', \\
     '< grep ^kneighbor-allreduce, $out/latency.csv' using (\$4*1e-9):7 with linespoints title 'K-Neighbor with Allreduce', \\
     '< grep ^md, $out/latency.csv' using (\$4*1e-9):7 with linespoints title 'MD proxy (NAMD-like)', \\
     '< grep ^cg, $out/latency.csv' using (\$4*1e-9):7 with linespoints title 'CG proxy (MILC-like)'
EOF
echo
cat "$out/report.md"
echo "total $(elapsed "$t0")"
