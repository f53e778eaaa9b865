#!/bin/sh
# alltoall.sh -- an all-to-all among the cores of one PERCS supernode:
# pairwise exchange against the PERCS-aware send order and the bandwidth
# bounds (the all-to-all study of the thesis, section 9: Figure 9.3, time
# against message size, and Figure 9.1, the utilization of three links of
# a QCM during the operation).
#
#   examples/studies/alltoall.sh [-o DIR] [--scale smoke|reduced|full]
#                                [--full] [--sizes LIST] [--jobs J]
#                                [--force]
#
# Every core sends m bytes to every other core of the supernode: n nodes
# (QCMs) of c cores, so a node sends d = c x c x m bytes to each of the
# n - 1 others (d = 1024 m for the thesis' 32 x 32).  Two traces from
# `sibyl trace gen -p alltoall -i 1 -c 0' (pure network traffic):
#
#   pairwise  step s = 1 .. nc-1: rank r sends to r+s, waits for r-s
#             (the base all-to-all of the thesis)
#   percs     the PERCS-aware order of thesis section 9.1: in phase i core
#             j of every node sends to every core of node (j+i) mod n
#
# Each is simulated, for every message size, on two machines:
#
#   percs     the `percs' model with its own defaults: four QCM -> Hub
#             links of 24 GB/s per direction (the hardware of thesis
#             section 3)
#   percs-s9  examples/machines/percs-s9.conf: QCM -> Hub links of 48 GB/s,
#             the machine for which the thesis' bound holds
#
# The message size is set with a replacement rule (`-r size>=1:M'), as the
# thesis' own study did, so one trace per order serves every size.
#
# Bounds, computed for each run from its links.csv (the model's own link
# bandwidths), not copied from anywhere:
#   d / B_LR              thesis section 9.2: the d bytes between two nodes
#                         cross one link, the slowest being LR (5 GB/s)
#   (n-1) d / I           injection: the (n-1) d bytes a node sends to the
#                         others cross its QCM -> Hub links, of total
#                         bandwidth I (96 GB/s with the defaults, 192 GB/s
#                         in percs-s9)
# The binding bound is the larger one: injection on `percs' (31/96 > 1/5),
# d / B_LR on percs-s9.  netmodels/percs.md, "A supernode all-to-all:
# which bound applies".  For the pairwise exchange the script also gives a
# lockstep estimate: the sum over the steps of the busiest link or
# channel of that step (a node's c messages of a step go to one or two
# nodes, so one or two links carry them).
#
# Scales:
#   full     the thesis: 1,024 ranks (32 nodes of 32 cores), 32 KiB to
#            4 MiB by powers of 2 on both machines, the default 2 KiB
#            packets; link series at 1 MiB.  About 2.5 CPU-hours (the
#            PERCS-aware 256 KiB run alone takes 80 s, and the cost grows
#            with the size) and up to about 3 GB of memory per simulation
#            at 4 MiB (160 MB at 256 KiB)
#   reduced  (default; `make studies') the same supernode, 32 KiB to
#            256 KiB on both machines, with 8 KiB packets
#            (--set net.packet_size=8KiB: a quarter of the events; measured
#            against the default 2 KiB packets at 256 KiB on percs-s9:
#            PERCS-aware 54.53 ms instead of 53.91, pairwise 1229.4 ms
#            instead of 1230.6); link series at 256 KiB; about 2
#            CPU-minutes in all
#   smoke    a scaled-down supernode, 4 drawers of 2 nodes of 8 cores
#            (64 ranks, d = 64 m; one LL and six LR links per node) with
#            one QCM -> Hub channel per direction instead of four, so that
#            the ratio of injection to link bandwidth stays that of the
#            real supernode (7 x 5 / 24 = 1.46 here, 31 x 5 / 96 = 1.61
#            there) and the injection bound still binds on `percs';
#            256 KiB and 1 MiB, link series at 1 MiB (what `make check'
#            runs)
# --sizes LIST replaces the sizes of the scale (comma-separated, with a
# KiB or MiB suffix or in bytes), on both machines.
#
# Figure 9.1: the links recorded (--link-trace) are three links of hub 0,
# taken as the thesis did ("three arbitrarily selected links of a QCM"):
# its LL link to the next node of its drawer and its LR links to the
# first node of the second and of the last drawer; on percs-s9, the
# machine of the thesis' figures, at the series size above, for both
# orders; about 25 intervals per d / B_LR.
#
# Outputs in DIR (default alltoall.out):
#   pairwise.trace, percs.trace      the two traces
#   MACHINE-ORDER-BYTES.sim          one simulation per machine, order
#                                    and message size
#   alltoall.csv                     machine, order, msg_bytes, d_bytes,
#                                    time_ps, bound_ps (d / B_LR),
#                                    inject_bound_ps, binding_ps,
#                                    ratio_to_bound, ratio_to_inject,
#                                    ratio_to_binding, speedup (pairwise
#                                    time / this time), lockstep_ps
#                                    (pairwise: the lockstep estimate;
#                                    PERCS-aware: the binding bound)
#   alltoall.png/.svg                Figure 9.3: time against message
#                                    size, log-log, with the bounds
#   linkseries-pairwise.png/.svg,    Figure 9.1: the three links, stacked
#   linkseries-percs.png/.svg
#   report.md                        the numbers and the conclusion
#
# The simulator is `sibyl' from $SIBYL, else build/sibyl next to this
# script's source tree, else `sibyl' on the PATH.
set -eu

study=alltoall.sh
. "$(dirname "$0")/common.sh"
sizes=
while [ $# -gt 0 ]; do
	case $1 in
	--sizes) sizes=$2; shift 2 ;;
	*) study_option "$@"; shift "$study_shift" ;;
	esac
done
if [ -n "$sizes" ]; then
	for s in $(echo "$sizes" | tr ',' ' '); do
		[ "$(study_bytes "$s")" != bad ] || {
			echo "$study: --sizes: '$s' is not a size (32KiB, 1MiB, 4096)" >&2
			exit 2
		}
	done
fi
study_init
s9conf=$here/../machines/percs-s9.conf
[ -r "$s9conf" ] || { echo "$study: cannot read $s9conf" >&2; exit 2; }

# Machine shape: drawers, nodes per drawer, cores per node, and what the
# runs of this scale set beyond the model's defaults.
drawers=4
npd=8
cores=32
extra=
case $scale in
full) list="32KiB 64KiB 128KiB 256KiB 512KiB 1MiB 2MiB 4MiB"; series=1MiB ;;
reduced) list="32KiB 64KiB 128KiB 256KiB"; series=256KiB
	extra="--set net.packet_size=8KiB" ;;
smoke) list="256KiB 1MiB"; series=1MiB
	drawers=4; npd=2; cores=8
	extra="--set net.drawers=4 --set net.nodes_per_drawer=2 --set net.inject_channels=1 --set net.eject_channels=1" ;;
esac
[ -z "$sizes" ] || list=$(echo "$sizes" | tr ',' ' ')
nodes=$((drawers * npd))
ranks=$((nodes * cores))
want=$series
sbytes=$(study_bytes "$series")
# The series is recorded only if its size is among those simulated.
case " $(for s in $list; do study_bytes "$s"; done | tr '\n' ' ')" in
*" $sbytes "*) ;;
*) series=; sbytes=0 ;;
esac
# Three links of hub 0 (netmodels/percs.md, "Link numbering"): LL to
# position 1 of its drawer, LR to the first node of drawer 1 and of the
# last drawer.
links="0,$((npd - 1)),$((npd - 1 + (drawers - 2) * npd))"
# Link-series interval: about d / 5 GB/s / 25, in whole microseconds.
interval=$(awk -v d="$((cores * cores))" -v m="$sbytes" \
	'BEGIN { u = int(d * m / 5e9 / 25 * 1e6); print (u < 1 ? 1 : u) "us" }')

t0=$(date +%s)
echo "== traces: $ranks ranks ($nodes nodes of $cores cores), pairwise and PERCS-aware"
"$sibyl" trace gen -p alltoall -r "$ranks" --order pairwise -i 1 -c 0 -s 1KiB \
	-o "$out/pairwise.trace" -q
"$sibyl" trace gen -p alltoall -r "$ranks" --order percs --node-size "$cores" \
	-i 1 -c 0 -s 1KiB -o "$out/percs.trace" -q
echo "   $(elapsed "$t0")"

# One line per run, the largest messages first (they take longest).
rev=
for s in $list; do rev="$s $rev"; done
{
	for s in $rev; do
		b=$(study_bytes "$s")
		for m in percs percs-s9; do
			for o in pairwise percs; do
				cfg=
				[ $m = percs ] || cfg="-c '$s9conf'"
				lt=
				[ $m != percs-s9 ] || [ "$b" != "$sbytes" ] ||
					lt="--link-trace $interval --link-select $links"
				echo "\$sibyl sim '$out/$o.trace' -q -o '$out/$m-$o-$b.sim' $cfg --set net.model=percs --set machine.cores_per_node=$cores $extra -r 'size>=1:$b' $lt"
			done
		done
	done
} >"$out/runs.txt"
study_run "$out/runs.txt" "on one supernode"

# bw SIMDIR: "LL LR INJECT EJECT L" -- the bandwidths (bytes/s) of hub 0's
# LL and LR links, the total of node 0's QCM -> Hub and Hub -> QCM
# channels, and the number of L links of hub 0 (n - 1), from links.csv.
bw() {
	awk -F, '$3 ~ /^hub 0 \(/ && $2 == "LL" { ll = $5; l++ }
		$3 ~ /^hub 0 \(/ && $2 == "LR" { lr = $5; l++ }
		$2 == "inject" && $3 == "node 0" { inj += $5 }
		$2 == "eject" && $4 == "node 0" { ej += $5 }
		END { printf "%s %s %s %s %d\n", ll, lr, inj, ej, l }' "$1/links.csv"
}

# lockstep N DRAWERS NPD C M LL LR INJ EJ: the lockstep estimate of the
# pairwise exchange, in ps.  Step s of R - 1: the c cores of node a send
# to ranks ac + j + s, i.e. c - k of them to node a + q and k to node
# a + q + 1 (q = s div c, k = s mod c); the step lasts at least as long
# as its busiest link (bytes / its bandwidth) and its busiest QCM -> Hub
# and Hub -> QCM channels.  Latencies are left out, as in the bounds.
lockstep() {
	awk -v n="$1" -v npd="$3" -v c="$4" -v m="$5" -v ll="$6" -v lr="$7" \
	    -v inj="$8" -v ej="$9" 'BEGIN {
		R = n * c; tot = 0
		for (s = 1; s < R; s++) {
			q = int(s / c); k = s % c; worst = 0
			for (a = 0; a < n; a++) {
				out = 0
				for (h = 0; h < 2; h++) {
					cnt = h ? k : c - k
					b = (a + q + h) % n
					if (cnt == 0 || b == a) continue
					bw = int(a / npd) == int(b / npd) ? ll : lr
					t = cnt * m / bw
					if (t > worst) worst = t
					out += cnt * m
				}
				if (out / inj > worst) worst = out / inj
				# what node a receives is symmetric to what it sends
				if (out / ej > worst) worst = out / ej
			}
			tot += worst
		}
		printf "%.0f\n", tot * 1e12 }'
}

echo "machine,order,msg_bytes,d_bytes,time_ps,bound_ps,inject_bound_ps,binding_ps,ratio_to_bound,ratio_to_inject,ratio_to_binding,speedup,lockstep_ps" \
	>"$out/alltoall.csv"
for s in $list; do
	b=$(study_bytes "$s")
	for m in percs percs-s9; do
		tpw=$(ptime "$out/$m-pairwise-$b.sim")
		for o in pairwise percs; do
			sd=$out/$m-$o-$b.sim
			t=$(ptime "$sd")
			# shellcheck disable=SC2046
			set -- $(bw "$sd")
			ls=
			[ $o = percs ] ||
				ls=$(lockstep "$nodes" "$drawers" "$npd" "$cores" "$b" "$1" "$2" "$3" "$4")
			awk -v m="$m" -v o="$o" -v b="$b" -v c="$cores" -v t="$t" \
			    -v tpw="$tpw" -v lr="$2" -v inj="$3" -v l="$5" -v ls="$ls" 'BEGIN {
				d = c * c * b
				lb = d * 1e12 / lr; ib = l * d * 1e12 / inj
				bb = lb > ib ? lb : ib
				if (ls == "") ls = bb
				printf "%s,%s,%d,%d,%s,%.0f,%.0f,%.0f,%.4f,%.4f,%.4f,%.3f,%.0f\n",
					m, o, b, d, t, lb, ib, bb, t / lb, t / ib, t / bb,
					tpw / t, ls }'
		done
	done
done >>"$out/alltoall.csv"

# Figure 9.1: the link series, stacked.
serieslinks=
if [ -n "$series" ]; then
	sd=$out/percs-s9-percs-$sbytes.sim
	serieslinks=$(awk -F, -v sel=",$links," 'NR > 1 && index(sel, "," $1 ",") {
		printf "%s%s %s -> %s", sep, $2, $3, $4; sep = "; " }' "$sd/links.csv")
	if command -v gnuplot >/dev/null 2>&1; then
		for o in pairwise percs; do
			[ $o = percs ] && name="PERCS-aware" || name="pairwise exchange"
			for f in png svg; do
				"$sibyl" plot linkseries "$out/percs-s9-$o-$sbytes.sim" \
					--links "$links" -o "$out/linkseries-$o.$f" \
					--title "$name all-to-all, $series per pair, $ranks ranks (percs-s9): three links of hub 0, stacked"
			done
		done
		echo "plots: $out/linkseries-pairwise.png/.svg $out/linkseries-percs.png/.svg"
	else
		echo "(gnuplot not installed: no linkseries plots; apt-get install gnuplot-nox)"
	fi
fi

# Figure 9.3: time against message size.
csv=$out/alltoall.csv
study_plot "$out/alltoall" <<EOF
set datafile separator ','
set logscale xy
set format x '%g'
set xlabel 'message size per pair (KiB)'
set ylabel 'time (ms)'
set key bottom right
set grid
set title 'All-to-all among $ranks ranks of one supernode ($nodes nodes x $cores cores)'
plot '< grep ^percs,pairwise, $csv' using (\$3/1024):(\$5/1e9) with linespoints pt 7 title 'pairwise, percs', \\
     '< grep ^percs,percs, $csv' using (\$3/1024):(\$5/1e9) with linespoints pt 5 title 'PERCS-aware, percs', \\
     '< grep ^percs-s9,pairwise, $csv' using (\$3/1024):(\$5/1e9) with linespoints pt 6 title 'pairwise, percs-s9', \\
     '< grep ^percs-s9,percs, $csv' using (\$3/1024):(\$5/1e9) with linespoints pt 4 title 'PERCS-aware, percs-s9', \\
     '< grep ^percs,percs, $csv' using (\$3/1024):(\$6/1e9) with lines dashtype 2 lw 2 lc rgb 'black' title 'bound d / B_LR', \\
     '< grep ^percs,percs, $csv' using (\$3/1024):(\$7/1e9) with lines dashtype 3 lw 2 lc rgb 'gray40' title 'injection bound (n-1) d / I, percs'
EOF

# The report.
kib() { awk -v b="$1" 'BEGIN { if (b >= 1048576) printf "%g MiB", b / 1048576
	else printf "%g KiB", b / 1024 }'; }
{
	echo "# All-to-all in one PERCS supernode (thesis section 9)"
	echo
	echo "$ranks ranks, $nodes nodes of $cores cores ($drawers drawers of $npd),"
	echo "every core sends m bytes to every other core (d = $cores x $cores x m"
	echo "between two nodes); pairwise exchange and the PERCS-aware order,"
	echo "traces from \`sibyl trace gen -p alltoall -i 1 -c 0', sizes set by"
	echo "replacement; scale: $scale."
	[ -z "$extra" ] || echo "Beyond the defaults the runs set: \`$extra'."
	echo "Machines: \`percs' (model defaults, QCM -> Hub links 4 x 24 GB/s"
	echo "in the real supernode) and \`percs-s9' (examples/machines/percs-s9.conf,"
	echo "48 GB/s QCM -> Hub links)."
	echo
	echo "| m | machine | pairwise | PERCS-aware | speedup | PERCS-aware / (d/B_LR) | PERCS-aware / injection bound | pairwise / lockstep estimate |"
	echo "|---:|---|---:|---:|---:|---:|---:|---:|"
	for s in $list; do
		b=$(study_bytes "$s")
		for m in percs percs-s9; do
			awk -F, -v m="$m" -v b="$b" -v k="$(kib "$b")" '
				$1 == m && $3 == b && $2 == "pairwise" { tp = $5; lp = $13 }
				$1 == m && $3 == b && $2 == "percs" { t = $5; sp = $12; r1 = $9; r2 = $10 }
				END { printf "| %s | %s | %.3f ms | %.3f ms | %.2fx | %.4f | %.4f | %.3f |\n",
					k, m, tp / 1e9, t / 1e9, sp, r1, r2, tp / lp }' "$csv"
		done
	done
	echo
	# The conclusion, from the sizes of 256 KiB and more (the thesis'
	# range) when there are any.
	min=$(awk -F, 'NR > 1 && $3 >= 262144 { x = 262144 } END { print x + 0 }' "$csv")
	awk -F, -v min="$min" 'NR == 1 || $2 != "percs" || $3 < min { next }
		{ m = $1; bind[m] = $7 > $6 ? "the injection bound" : "d / B_LR"
		  if (!(m in lo) || $12 < lo[m]) lo[m] = $12
		  if ($12 > hi[m]) hi[m] = $12
		  if ($11 > r[m]) r[m] = $11
		  if ($5 < $8) bad[m] = 1 }
		END {
			printf "PERCS-aware against pairwise exchange %s:\n", min ? "for messages of 256 KiB and more" : "at the sizes simulated (all below 256 KiB)"
			split("percs percs-s9", ms, " ")
			for (i = 1; i <= 2; i++) {
				if (!((x = ms[i]) in lo)) continue
				sp = sprintf("%.1fx", lo[x])
				if (sprintf("%.1fx", hi[x]) != sp) sp = sp " to " sprintf("%.1fx", hi[x])
				printf "- %s: %s faster; within %.1f%% of %s, the binding bound%s.\n",
					x, sp, (r[x] - 1) * 100, bind[x],
					bad[x] ? " -- and BELOW it, which a correct model cannot be" : " (never below it)"
				if (lo[x] < alo || !n++) alo = lo[x]
				if (hi[x] > ahi) ahi = hi[x]
			}
			printf "\nThe thesis reports 3x to 5x for 256 KB and more, close to d / 5 GB/s;\n"
			printf "Sibyl'"'"'s speedups here are %s that range.\n",
				(alo > 5 ? "above" : ahi < 3 ? "below" : alo >= 3 && ahi <= 5 ? "within" : "partly within")
		}' "$csv"
	awk -F, 'NR > 1 && $2 == "pairwise" { r = $5 / $13; if (r < lo || !n) lo = r; if (r > hi) hi = r; n++ }
		END { a = sprintf("%.0f%%", lo * 100); b = sprintf("%.0f%%", hi * 100)
		      printf "Sibyl'"'"'s pairwise exchange is in lockstep, as an MPI pairwise exchange\n"
		      printf "is (a Sendrecv per step): a rank sends step s+1 once the message of\n"
		      printf "step s has arrived, so the c messages a node sends in a step cross only\n"
		      printf "one or two of its n-1 links, while the PERCS-aware order keeps them all\n"
		      printf "busy.  The lockstep estimate, the sum over the steps of the busiest link\n"
		      printf "or channel of each step, comes to %s of the predicted pairwise\n", a == b ? a : a " to " b
		      printf "times.  The thesis does not say how its base all-to-all ordered or\n"
		      printf "overlapped its steps; a base exchange whose steps overlap uses more\n"
		      printf "links at once and gains less from the PERCS-aware order.\n" }' "$csv"
	if [ -n "$series" ]; then
		echo
		echo "Figure 9.1 (linkseries-pairwise.png, linkseries-percs.png): on"
		echo "percs-s9 at $(kib "$sbytes"), interval $interval, links $links: $serieslinks."
		for o in pairwise percs; do
			awk -F, -v o="$o" 'NR == 1 { next }
				{ u[$1] = 1 }
				$5 > 0 { busy[$1]++ }
				END { for (i in u) { n++; if (busy[i] == 3) all++ }
				      printf "- %s: all three links carry traffic at once in %d of %d intervals (%.0f%%).\n",
					o, all, n, all / n * 100 }' "$out/percs-s9-$o-$sbytes.sim/linkseries.csv"
		done
	fi
	echo
	if [ -n "$series" ]; then
		echo "Figures: alltoall.png (9.3), linkseries-*.png (9.1); numbers:"
	else
		echo "Figures: alltoall.png (9.3; no link series: $want is not among the"
		echo "sizes simulated); numbers:"
	fi
	echo "alltoall.csv."
} >"$out/report.md"
echo
cat "$out/report.md"
echo "total $(elapsed "$t0")"
