#!/bin/sh
# noise.sh -- overhead of OS noise on four applications: K-Neighbor
# without and with an allreduce, an MD proxy (NAMD-like) and a CG proxy
# (MILC-like) -- the noise studies of the thesis, section 7.2: overhead
# against the noise period (Figure 7.1), against the noise amplitude
# (Figure 7.2), and two noise patterns combined against the sum of each
# alone (Figure 7.3).
#
#   examples/studies/noise.sh [-o DIR] [--scale smoke|reduced|full] [--full]
#                             [--phase same|random] [--seed S] [--ranks R]
#                             [--iters N] [--jobs J] [--force] [--traces-only]
#
# The applications, each computing about 1 ms per iteration like the
# thesis' codes (a NAMD step 1.29 ms, K-Neighbor 1 ms of computation):
#   kneighbor            `sibyl trace gen -p kneighbor -k 4 -c 1ms': every
#                        rank exchanges 1 KiB with 4 neighbours on each
#                        side of a ring (8 in all, as in the thesis), then
#                        computes 1 ms
#   kneighbor-allreduce  the same (--allreduce) with an 8-byte allreduce
#                        at the end of every iteration
#   md                   examples/md.c -d -a 40 -s N (PME every 4 steps),
#                        emulated with --flop-rate 0.5G.  40 atoms per
#                        patch, one patch per rank, is the thesis' NAMD run
#                        (10 million atoms on 256K cores: 38 per core); at
#                        0.5 Gflop/s the declared pair forces (647 kflop)
#                        take 1.3 ms per step, the thesis' NAMD baseline of
#                        1.29 ms per step.  Assumption: the thesis gives the
#                        step time, not a flop rate.
#   cg                   examples/cg.c -d -l 4x4x3x6 -i N (the thesis' MILC
#                        lattice per core, 6 doubles per site), emulated
#                        with --flop-rate 64M.  The proxy's operator counts
#                        162 flops per site and iteration, an order of
#                        magnitude less than MILC's su3 operator, so its
#                        flops are declared at 64 Mflop/s: 0.73 ms of
#                        computation per iteration, 0.74 ms with its halo
#                        exchange and two global sums.  Assumption:
#                        the thesis gives only the whole run (491.9 ms).
# The proxies are compiled with sibylcc and emulated once each with
# `sibyl emulate --ranks R -np 2 --cpu-factor 0' (only the declared
# compute counts, so the traces do not depend on the emulating host's
# speed, load or instrumentation) in declared mode (-d: the arithmetic is
# declared, the messages are real), so they scale to many ranks; every
# simulation of the study replays the same four traces.
#
# The noise, on every core of every node (32 ranks per node, a PERCS
# node; the `simple' network model at its defaults, 1 us and 10 GB/s):
#   period sweep     a detour of 0.1 ms every P, P = 1 s, 500 ms, 100 ms,
#                    50 ms, 10 ms, 5 ms, 2.5 ms and 1 ms (amplitude / P
#                    from 0.01% to 10%; 2.5 ms is the thesis' "naive 4%")
#   amplitude sweep  every 10 ms a detour of A = 10 us, 20 us, 50 us,
#                    100 us, 200 us, 500 us and 1 ms (0.1% to 10%)
#   combined         pattern A, 0.1 ms every 10 ms from 0, and pattern B,
#                    50 us every 3 ms from 1.5 ms, each alone and both in
#                    one noise set (two pattern lines per core)
# The overhead of a run is (T_noise - T_base) / T_base, T_base the same
# trace without noise.
#
# Phase of the noise (--phase):
#   same    the pattern lines above on every core: the detours hit every
#           core of every node at once (co-scheduled noise).  Every rank
#           then loses the same time at the same moment, nobody waits for
#           a late neighbour, and every application's overhead is the
#           noise fraction: no amplification
#   random  (default) every core of every node has its own phase, drawn by the
#           simulator from --seed: each noise set holds the detours of
#           one period as a capture ("length P", "0s A"), which the
#           simulator replicates with a random offset per node and core
#           and repeats every P -- unsynchronized daemons.  The combined
#           set is one capture of 30 ms (the common period) holding A's 3
#           and B's 10 detours: A and B keep their relative phase on a
#           core, the core's phase is random.
#
# Scales (--scale; --ranks R and --iters N override every application):
#   smoke    256 ranks, 12 iterations (what `make check' runs)
#   reduced  1,024 ranks, 30 iterations (the default; a few minutes)
#   full     K-Neighbor 65,536 ranks, 200 iterations; MD 65,536 ranks,
#            40 steps (the thesis' NAMD ran on 256K cores: 64K keeps the
#            emulation within one machine); CG 4,096 ranks (the thesis'
#            MILC scale), 500 iterations (about its 491.9 ms)
#
# Outputs in DIR (default noise.out): the traces (APP.trace), the
# programs md and cg with what they printed (md.out, cg.out), the ranks
# and iterations of each application (sizes.txt: APP RANKS ITERS), the
# noise sets (noise/), one simulation directory per run (sim/NAME.sim),
# the commands run (runs.txt), and
#   overhead-period.csv     app, ranks, period_ms, amplitude_us,
#   overhead-amplitude.csv  naive_pct (amplitude / period), base_ps,
#                           time_ps, overhead_pct
#   combined.csv            app, ranks, a_pct, b_pct, sum_pct,
#                           combined_pct, ratio (combined / sum)
#   report.md and, when gnuplot is installed, overhead-period,
#   overhead-amplitude and combined as .png and .svg.
# --traces-only stops after the four traces (latency.sh uses it, so both
# studies run the same applications).
#
# Independent simulations run J at a time (--jobs, default 2).  The
# simulator is `sibyl' from $SIBYL, else build/sibyl next to this script's
# source tree, else `sibyl' on the PATH; the proxies are compiled with
# $SIBYLCC, else that tree's build/emulator/sibylcc, else `sibylcc'.
set -eu

study=noise.sh
. "$(dirname "$0")/common.sh"
phase=random
seed=1
ranks=
iters=
traces_only=
while [ $# -gt 0 ]; do
	case $1 in
	--ranks) ranks=$2; shift 2 ;;
	--iters) iters=$2; shift 2 ;;
	--phase) phase=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--traces-only) traces_only=1; shift ;;
	*) study_option "$@"; shift "$study_shift" ;;
	esac
done
case $phase in
random|same) ;;
*) echo "$study: --phase must be random or same" >&2; exit 2 ;;
esac
for v in "$seed" ${ranks:+"$ranks"} ${iters:+"$iters"}; do
	case $v in
	''|*[!0-9]*) echo "$study: --seed, --ranks and --iters take integers" >&2
		exit 2 ;;
	esac
done
study_init
"$sibyl" sim --help 2>/dev/null | grep -q -- '--noise DIR' || {
	echo "noise.sh: '$sibyl sim' has no --noise option; update Sibyl" >&2
	exit 2
}

# Ranks and iterations of each application: kn (both K-Neighbor
# variants), md, cg.
case $scale in
smoke) r_kn=256 r_md=256 r_cg=256 i_kn=12 i_md=8 i_cg=12 amps="10 1000" ;;
reduced) r_kn=1024 r_md=1024 r_cg=1024 i_kn=30 i_md=30 i_cg=30 amps= ;;
full) r_kn=65536 r_md=65536 r_cg=4096 i_kn=200 i_md=40 i_cg=500 amps= ;;
esac
if [ -n "$ranks" ]; then r_kn=$ranks r_md=$ranks r_cg=$ranks; fi
if [ -n "$iters" ]; then i_kn=$iters i_md=$iters i_cg=$iters; fi
apps="kneighbor-allreduce md cg kneighbor"
# Amplitudes (us) of the amplitude sweep besides 100 (the period sweep's
# run at 10 ms); fewer at smoke scale.
amps=${amps:-10 20 50 200 500 1000}
cores=32
t0=$(date +%s)

# The four traces.  The proxies' emulations (two processes each) run one
# after the other, the generator alongside the first.
echo "== traces: K-Neighbor $r_kn ranks x $i_kn iterations, MD $r_md x $i_md steps, CG $r_cg x $i_cg iterations"
study_sibylcc "$here/../md.c" "$out/md"
study_sibylcc "$here/../cg.c" "$out/cg"
# emulate NAME RANKS FLOP-RATE ARGS...: the trace NAME.trace of the proxy
# NAME, its output in NAME.out.
emulate() {
	n=$1 r=$2 f=$3
	shift 3
	if ! "$sibyl" emulate --ranks "$r" -np 2 --cpu-factor 0 --flop-rate "$f" \
		-o "$out/$n.trace" -- "$out/$n" "$@" >"$out/$n.out" 2>"$out/$n.err"
	then
		echo "noise.sh: the emulation of $n failed:" >&2
		cat "$out/$n.err" >&2
		return 1
	fi
	sed 's/^/   /' "$out/$n.err"
}
{
	"$sibyl" trace gen -p kneighbor -r "$r_kn" -k 4 -c 1ms -i "$i_kn" \
		-o "$out/kneighbor.trace" -q
	"$sibyl" trace gen -p kneighbor -r "$r_kn" -k 4 -c 1ms -i "$i_kn" \
		--allreduce -o "$out/kneighbor-allreduce.trace" -q
} & gen=$!
emulate md "$r_md" 0.5G -d -a 40 -s "$i_md"
wait "$gen" || { echo "noise.sh: sibyl trace gen failed" >&2; exit 1; }
emulate cg "$r_cg" 64M -d -l 4x4x3x6 -i "$i_cg"
printf '%s %s %s\n' kneighbor "$r_kn" "$i_kn" kneighbor-allreduce "$r_kn" "$i_kn" \
	md "$r_md" "$i_md" cg "$r_cg" "$i_cg" >"$out/sizes.txt"
echo "   $(elapsed "$t0")"
if [ -n "$traces_only" ]; then
	exit 0
fi

# ranks_of APP
ranks_of() {
	case $1 in
	kneighbor*) echo "$r_kn" ;;
	md) echo "$r_md" ;;
	cg) echo "$r_cg" ;;
	esac
}

# Noise sets.  pset NAME PERIOD AMPLITUDE [OFFSET]: one periodic detour
# per core, as a pattern (--phase same) or as a capture of one period
# (--phase random).
pset() {
	d=$out/noise/$1
	mkdir -p "$d"
	c=0
	while [ $c -lt $cores ]; do
		if [ "$phase" = same ]; then
			printf '# %s every %s on every core at once\n%s %s %s\n' \
				"$3" "$2" "$2" "$3" "${4:-0s}"
		else
			printf '# %s every %s, phase drawn per node and core\nlength %s\n%s %s\n' \
				"$3" "$2" "$2" "${4:-0s}" "$3"
		fi >"$d/core$c"
		c=$((c + 1))
	done
	"$sibyl" noise stats "$d" >/dev/null
}
periods="1000 500 100 50 10 5 2.5 1"
echo "== noise sets: phase $phase, $cores cores per node"
for p in $periods; do pset "p$p" "${p}ms" 0.1ms; done
for a in $amps; do pset "a$a" 10ms "${a}us"; done
pset B 3ms 50us 1.5ms
# A + B: two pattern lines per core, or (random phase) one capture of
# their common period, 30 ms.
mkdir -p "$out/noise/AB"
c=0
while [ $c -lt $cores ]; do
	if [ "$phase" = same ]; then
		printf '# A: 0.1 ms every 10 ms; B: 50 us every 3 ms from 1.5 ms\n10ms 0.1ms 0s\n3ms 50us 1.5ms\n'
	else
		echo '# A: 0.1 ms every 10 ms; B: 50 us every 3 ms from 1.5 ms; phase drawn per node and core'
		echo 'length 30ms'
		awk 'BEGIN { for (t = 0; t < 30000; t += 500)
			if (t % 10000 == 0) print t "us 100us"
			else if (t % 3000 == 1500) print t "us 50us" }'
	fi >"$out/noise/AB/core$c"
	c=$((c + 1))
done
"$sibyl" noise stats "$out/noise/AB" >/dev/null

# Every run: APP-base, APP-pP (0.1 ms every P ms), APP-aA (A us every
# 10 ms; A = 100 is APP-p10), APP-B and APP-AB (A alone is APP-p10).
# The slowest application first, so the two cores stay busy to the end.
mkdir -p "$out/sim"
{
	for a in $apps; do
		for s in base $(for p in $periods; do echo "p$p"; done) \
			$(for x in $amps; do echo "a$x"; done) B AB; do
			nz=
			[ "$s" = base ] || nz="--noise '$out/noise/$s'"
			echo "\"\$sibyl\" sim '$out/$a.trace' -o '$out/sim/$a-$s.sim' -q --set machine.cores_per_node=$cores --set sim.seed=$seed $nz"
		done
	done
} >"$out/runs.txt"
study_run "$out/runs.txt"

# row APP RUN PERIOD_MS AMPLITUDE_US: one CSV line of a noisy run.
row() {
	awk -v a="$1" -v r="$(ranks_of "$1")" -v p="$3" -v w="$4" \
		-v b="$(ptime "$out/sim/$1-base.sim")" \
		-v t="$(ptime "$out/sim/$1-$2.sim")" 'BEGIN {
		printf "%s,%s,%s,%s,%.6g,%s,%s,%.6f\n", a, r, p, w,
		       w / (p * 1000) * 100, b, t, (t - b) / b * 100 }'
}
hdr=app,ranks,period_ms,amplitude_us,naive_pct,base_ps,time_ps,overhead_pct
echo "$hdr" >"$out/overhead-period.csv"
echo "$hdr" >"$out/overhead-amplitude.csv"
echo "app,ranks,a_pct,b_pct,sum_pct,combined_pct,ratio" >"$out/combined.csv"
for a in kneighbor kneighbor-allreduce md cg; do
	for p in $periods; do row "$a" "p$p" "$p" 100; done >>"$out/overhead-period.csv"
	for x in $(echo "$amps" 100 | tr ' ' '\n' | sort -n); do
		if [ "$x" = 100 ]; then row "$a" p10 10 100; else row "$a" "a$x" 10 "$x"; fi
	done >>"$out/overhead-amplitude.csv"
	b=$(ptime "$out/sim/$a-base.sim")
	awk -v a="$a" -v r="$(ranks_of "$a")" -v b="$b" \
		-v ta="$(ptime "$out/sim/$a-p10.sim")" \
		-v tb="$(ptime "$out/sim/$a-B.sim")" \
		-v tab="$(ptime "$out/sim/$a-AB.sim")" 'BEGIN {
		oa = (ta - b) / b * 100; ob = (tb - b) / b * 100
		oab = (tab - b) / b * 100; s = oa + ob
		q = s > 0 ? sprintf("%.4f", oab / s) : ""
		printf "%s,%s,%.6f,%.6f,%.6f,%.6f,%s\n", a, r, oa, ob, s, oab, q }' >>"$out/combined.csv"
done

# The report: every statement below is computed from the CSVs.
{
	echo "# OS noise: overhead of four applications (thesis §7.2, Figures 7.1-7.3)"
	echo
	echo "Scale $scale; noise phase **$phase** (seed $seed); $cores ranks per node,"
	echo "the \`simple' network model at its defaults.  Applications and baselines"
	echo "(no noise):"
	echo
	echo "| application | ranks | iterations | T_base | per iteration | what |"
	echo "|---|--:|--:|--:|--:|---|"
	for a in kneighbor kneighbor-allreduce md cg; do
		case $a in
		kneighbor) i=$i_kn w="trace gen -p kneighbor -k 4 -c 1ms" ;;
		kneighbor-allreduce) i=$i_kn w="... --allreduce" ;;
		md) i=$i_md w="md -d -a 40, --flop-rate 0.5G" ;;
		cg) i=$i_cg w="cg -d -l 4x4x3x6, --flop-rate 64M" ;;
		esac
		awk -v a="$a" -v r="$(ranks_of "$a")" -v i="$i" -v w="$w" \
			-v b="$(ptime "$out/sim/$a-base.sim")" 'BEGIN {
			printf "| %s | %d | %d | %.3f ms | %.3f ms | %s |\n",
			       a, r, i, b / 1e9, b / 1e9 / i, w }'
	done
	echo
	echo "The proxies' flop rates are assumptions chosen so that an iteration"
	echo "takes about a millisecond, as the thesis' codes did (NAMD 1.29 ms per"
	echo "step); see the header of noise.sh.  Overhead = (T_noise - T_base) / T_base."
	echo
	if [ "$phase" = same ]; then
		echo "With co-scheduled noise (phase same) every rank loses the same time at"
		echo "the same moment, so no rank waits for another's detour: expect the"
		echo "overhead to follow the noise fraction; \`--phase random' gives every core"
		echo "its own phase, where waiting for the slowest rank amplifies the noise."
		echo
	fi
	# table CSV KEYCOL KEYNAME UNIT: overhead per key (rows) and app.
	table() {
		awk -F, -v k="$2" -v kn="$3" -v u="$4" 'NR > 1 {
			if (!($k in seen)) { seen[$k] = 1; key[++n] = $k }
			o[$k, $1] = $8; nv[$k] = $5 }
			END {
			print "| " kn " | naive | kneighbor | kneighbor-allreduce | md | cg |"
			print "|--:|--:|--:|--:|--:|--:|"
			for (i = 1; i <= n; i++) { x = key[i]
				printf "| %s %s | %.2f%% | %.3f%% | %.3f%% | %.3f%% | %.3f%% |\n",
				       x, u, nv[x], o[x, "kneighbor"],
				       o[x, "kneighbor-allreduce"], o[x, "md"], o[x, "cg"] } }' "$1"
	}
	echo "## Overhead vs noise period (Figure 7.1): 0.1 ms detours every P"
	echo
	table "$out/overhead-period.csv" 3 period ms
	echo
	# Monotone in frequency: the largest drop of the overhead when the
	# period shrinks, per app.
	awk -F, 'NR > 1 { if ($1 != prev) { n++; app[n] = $1; mx[$1] = $8; drop[$1] = 0 }
			else { if (mx[$1] - $8 > drop[$1]) drop[$1] = mx[$1] - $8
				if ($8 > mx[$1]) mx[$1] = $8 }
			prev = $1 }
		END { for (i = 1; i <= n; i++) {
			a = app[i]
			if (drop[a] <= 0) s = s sep a " never decreases"
			else s = s sep sprintf("%s falls at most %.3f points below its maximum at a lower frequency", a, drop[a])
			sep = "; " }
		      print "As the period shrinks (frequency grows): " s "." }' \
		"$out/overhead-period.csv"
	echo
	# The allreduce variant against the thesis' naive bound: at most one
	# detour per iteration (periods above the iteration), so at most
	# amplitude / (time per iteration); the thesis' figure is 4%.
	awk -F, -v i="$i_kn" 'NR > 1 && $1 ~ /^kneighbor/ { o[$1, $3] = $8; b[$1] = $6
			if ($1 == "kneighbor") { n++; p[n] = $3 } }
		END { a = "kneighbor-allreduce"; it = b[a] / i / 1e9
			bound = 0.1 / it * 100; hi = p[n]
			printf "Naive bound for kneighbor-allreduce (thesis §7.2: one 0.1 ms detour per iteration of %.3f ms): %.2f%%. ", it, bound
			for (k = 1; k <= n; k++) if (o[a, p[k]] > bound) { s = s sep p[k] " ms"; sep = ", " }
			if (s != "") printf "It exceeds it at P = %s. ", s
			else printf "It stays within it at every period. "
			for (k = 1; k <= n; k++) if (o[a, p[k]] > 4) { s4 = s4 sep4 p[k] " ms"; sep4 = ", " }
			if (s4 != "") printf "It exceeds the thesis'"'"' naive 4%% at P = %s. ", s4
			else printf "It stays under the thesis'"'"' naive 4%%. "
			d = o[a, hi] - o["kneighbor", hi]
			if (d > 0) w = sprintf("the allreduce amplifies the noise by %.3f points", d)
			else w = sprintf("no amplification (%.3f points)", d)
			printf "At the highest frequency (P = %s ms) the allreduce variant'"'"'s overhead is %.3f%%, the plain one'"'"'s %.3f%%: %s.\n",
			       hi, o[a, hi], o["kneighbor", hi], w }' \
		"$out/overhead-period.csv"
	echo
	echo "## Overhead vs noise amplitude (Figure 7.2): detours of A every 10 ms"
	echo
	table "$out/overhead-amplitude.csv" 4 amplitude us
	echo
	# Trading amplitude for frequency: the pairs of runs with the same
	# fraction of noise (0.1 ms every 5 ms = 0.2 ms every 10 ms = 2%;
	# 0.1 ms every 1 ms = 1 ms every 10 ms = 10%).
	cat "$out/overhead-period.csv" "$out/overhead-amplitude.csv" |
	awk -F, '$1 != "app" { if ($4 == 100) f[$1, $5 + 0] = $8
			if ($3 == 10) r[$1, $5 + 0] = $8
			if (!($1 in seen)) { seen[$1] = 1; app[++n] = $1 } }
		function pc(v, a, k) { return ((a, k) in v) ? sprintf("%.3f%%", v[a, k]) : "-" }
		END { print "Same noise fraction, frequent short detours (0.1 ms every P) against rare long ones (A every 10 ms):"
			print ""
			print "| app | 2%: 0.1 ms / 5 ms | 2%: 0.2 ms / 10 ms | 10%: 0.1 ms / 1 ms | 10%: 1 ms / 10 ms | cheaper at 10% |"
			print "|---|--:|--:|--:|--:|---|"
			for (i = 1; i <= n; i++) { a = app[i]
				if (f[a, 10] < r[a, 10]) w = "frequent short"
				else if (f[a, 10] > r[a, 10]) w = "rare long"
				else w = "equal"
				printf "| %s | %s | %s | %s | %s | %s |\n", a,
				       pc(f, a, 2), pc(r, a, 2), pc(f, a, 10), pc(r, a, 10), w } }'
	echo
	echo "## Two patterns combined (Figure 7.3)"
	echo
	echo "A: 0.1 ms every 10 ms; B: 50 us every 3 ms from 1.5 ms; A+B: both on"
	if [ "$phase" = same ]; then
		echo "every core (two pattern lines per core), at once on every core."
	else
		echo "every core (one 30 ms capture per core), each core with its own phase."
	fi
	echo
	echo "| app | A alone | B alone | sum | A+B | A+B / sum |"
	echo "|---|--:|--:|--:|--:|--:|"
	awk -F, 'NR > 1 { printf "| %s | %.3f%% | %.3f%% | %.3f%% | %.3f%% | %s |\n",
		$1, $3, $4, $5, $6, $7 }' "$out/combined.csv"
	echo
	awk -F, 'NR > 1 && $7 != "" { if (n == 0 || $7 < lo) lo = $7
			if (n == 0 || $7 > hi) hi = $7; n++ }
		END { if (!n) { print "No pattern had a measurable overhead."; exit }
			printf "A+B against the sum of A and B alone: ratio %.3f to %.3f", lo, hi
			if (lo >= 0.9 && hi <= 1.1) print ": the patterns neither amplify nor absorb each other (within 10%), as in the thesis."
			else if (hi > 1.1) print ": some application amplifies the combination."
			else print ": some application absorbs part of the combination." }' \
		"$out/combined.csv"
} >"$out/report.md"

study_plot "$out/overhead-period" <<EOF
set datafile separator ','
set logscale xy
# High frequencies on the right, as in the thesis' figure.
set xrange [1.3:0.00075]
set xlabel 'noise period (s), amplitude 0.1 ms'
set ylabel 'overhead (%)'
set title 'Overhead vs noise period ($phase phase, $scale scale)'
set key top left
set grid
f(x) = x > 0 ? x : 1e-4
plot '< grep ^kneighbor, $out/overhead-period.csv' using (\$3/1000):(f(\$8)) with linespoints title 'K-Neighbor', \\
     '< grep ^kneighbor-allreduce, $out/overhead-period.csv' using (\$3/1000):(f(\$8)) with linespoints title 'K-Neighbor with Allreduce', \\
     '< grep ^md, $out/overhead-period.csv' using (\$3/1000):(f(\$8)) with linespoints title 'MD proxy (NAMD-like)', \\
     '< grep ^cg, $out/overhead-period.csv' using (\$3/1000):(f(\$8)) with linespoints title 'CG proxy (MILC-like)', \\
     '< grep ^kneighbor, $out/overhead-period.csv' using (\$3/1000):5 with lines dashtype 2 title 'naive (amplitude / period)', \\
     4 with lines dashtype 3 title 'naive 4%'
EOF
study_plot "$out/overhead-amplitude" <<EOF
set datafile separator ','
set logscale xy
set xlabel 'noise amplitude (us), period 10 ms'
set ylabel 'overhead (%)'
set title 'Overhead vs noise amplitude ($phase phase, $scale scale)'
set key top left
set grid
f(x) = x > 0 ? x : 1e-4
plot '< grep ^kneighbor, $out/overhead-amplitude.csv' using 4:(f(\$8)) with linespoints title 'K-Neighbor', \\
     '< grep ^kneighbor-allreduce, $out/overhead-amplitude.csv' using 4:(f(\$8)) with linespoints title 'K-Neighbor with Allreduce', \\
     '< grep ^md, $out/overhead-amplitude.csv' using 4:(f(\$8)) with linespoints title 'MD proxy (NAMD-like)', \\
     '< grep ^cg, $out/overhead-amplitude.csv' using 4:(f(\$8)) with linespoints title 'CG proxy (MILC-like)', \\
     '< grep ^kneighbor, $out/overhead-amplitude.csv' using 4:5 with lines dashtype 2 title 'naive (amplitude / period)'
EOF
study_plot "$out/combined" <<EOF
set datafile separator ','
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set ylabel 'overhead (%)'
set yrange [0:*]
set title 'Two noise patterns: A = 0.1 ms / 10 ms, B = 50 us / 3 ms ($phase phase)'
set key top left
set grid ytics
plot '$out/combined.csv' every ::1 using 3:xtic(1) title 'A alone', \\
     '' every ::1 using 4 title 'B alone', \\
     '' every ::1 using 5 title 'sum of A and B', \\
     '' every ::1 using 6 title 'A + B combined'
EOF
echo
cat "$out/report.md"
echo "total $(elapsed "$t0")"
