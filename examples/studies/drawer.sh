#!/bin/sh
# drawer.sh -- an MPI_Alltoall of 51 KB per pair among the 256 cores of
# one Power 775 drawer, Sibyl's prediction next to the thesis' figures
# (the validation of the thesis, section 5.2: BigSim predicted 20.2 ms,
# the prototype drawer took 22.6 ms).
#
#   examples/studies/drawer.sh [-o DIR] [--scale smoke|reduced|full]
#                              [--full] [--bytes B] [--jobs J] [--force]
#
# The thesis' run was trace-driven from "a regular MPI program that
# contained a few calls to MPI_Alltoall followed by a barrier".  Here that
# program is examples/alltoall.c (every rank fills one block per
# destination, calls MPI_Alltoall, checks every byte received), compiled
# with sibylcc and emulated on 256 virtual ranks:
#
#   sibyl emulate --ranks 256 -np 2 --node-size 32 [--coll alltoall=A]
#                 -- alltoall -b B -i I
#
# for A = the emulator's default choice (for blocks of 32 KiB and more:
# pairwise exchange, which for a power-of-two group exchanges with rank
# r xor s in step s), pairwise and percs (the PERCS-aware order of thesis
# section 9).  Each trace is simulated on one drawer of the `percs' model,
# 32 cores per node:
#
#   --set net.drawers=1      a "supernode" of one drawer of 8 nodes: the
#                            machine is the drawer, every pair of nodes
#                            joined by its LL link (24 GB/s per direction),
#                            and no LR or D link exists.  (The default
#                            supernode with 8 nodes gives the same result:
#                            only its first drawer is populated, and
#                            traffic inside a drawer takes LL links only.)
#
# The time of one MPI_Alltoall is that of iterations 1 .. I-1 (`sibyl sim
# --iters', iteration 0 being the warm-up) divided by I-1, with the SEBs
# that fill and check the buffers set to 0 (`-r seb:alltoall_fill=0;...'):
# the thesis timed the MPI_Alltoall alone.  What remains of the recorded
# computation is the local work of the algorithm's rounds (copying each
# received block), measured on the emulating host.  For comparison the
# same exchange from `sibyl trace gen -p alltoall -r 256 -i 1 -c 0' in
# the orders xor (= the emulator's pairwise), pairwise (r+s, as for a
# group that is not a power of two), percs and linear, with no
# computation at all.
#
# Assumption: "51 KBytes" is 51 KiB = 52,224 bytes (--bytes 51000 for
# the decimal reading; the time scales with it).  Not modelled: the real
# MPI's per-message software overhead and protocol (only the emulator's
# own copies are recorded), and the prototype's development Hub and
# software stack, which the thesis says differ from the planned machine.
#
# Bounds, from the run's links.csv (d = 32 x 32 x B bytes between two
# nodes): d / B_LL over the LL link of a node pair, and 7 d / I over the
# QCM -> Hub links of a node (I = 4 x 24 GB/s) -- the latter binds.
#
# Scales:
#   full     as reduced, 5 iterations, plus the supernode cross-check of
#            thesis section 5.1 (1,024 cores, 51 KB per pair, where
#            MERCURY and BigSim agreed within 0.5%; no absolute time is
#            given): generated xor and percs traces on one default
#            supernode, against their bounds
#   reduced  (default; `make studies') 256 ranks, the real block size,
#            3 iterations, -np 2 (the emulations hold 2 x 256 x 256 x B
#            bytes of buffers: 6.4 GiB for 51 KiB)
#   smoke    256 ranks, 2 iterations, -np 1, blocks of 1 KiB replaced by
#            B in the simulation (`-r size>=1024:B'; the round copies are
#            then those of 1 KiB blocks), pairwise and percs only (the
#            default algorithm for 1 KiB blocks is another one), generated
#            xor and percs (what `make check' runs)
#
# Outputs in DIR (default drawer.out):
#   alltoall                    the program, built with sibylcc
#   emu-ALG.trace, gen-ORDER.trace, *.sim   traces and simulations
#   drawer.csv                  source, algorithm, msg_bytes, calls,
#                               time_ps (one MPI_Alltoall), busy_ps (mean
#                               recorded local work per rank and call),
#                               ll_bound_ps, inject_bound_ps, binding_ps,
#                               ratio_to_binding, ratio_to_bigsim,
#                               ratio_to_measured
#   drawer.png/.svg             Sibyl per algorithm, BigSim, measured
#   report.md                   the numbers and the explanation
#
# The simulator is `sibyl' from $SIBYL, else build/sibyl next to this
# script's source tree, else `sibyl' on the PATH; the compiler is
# $SIBYLCC, else this tree's build/emulator/sibylcc, else `sibylcc'.
set -eu

study=drawer.sh
. "$(dirname "$0")/common.sh"
msg=52224
while [ $# -gt 0 ]; do
	case $1 in
	--bytes) msg=$2; shift 2 ;;
	*) study_option "$@"; shift "$study_shift" ;;
	esac
done
case $msg in
''|*[!0-9]*|0) echo "$study: --bytes must be a positive number of bytes" >&2; exit 2 ;;
esac
study_init

# The thesis' figures (section 5.2), in ps.
bigsim=20200000000
measured=22600000000
ranks=256
cores=32
case $scale in
full) iters=5; np=2; ebytes=$msg; algs="default pairwise percs"
	orders="xor pairwise percs linear" ;;
reduced) iters=3; np=2; ebytes=$msg; algs="default pairwise percs"
	orders="xor pairwise percs linear" ;;
smoke) iters=2; np=1; ebytes=1024; algs="pairwise percs"
	orders="xor percs" ;;
esac
machine="--set net.model=percs --set net.drawers=1 --set machine.cores_per_node=$cores"
zero="seb:alltoall_fill=0;seb:alltoall_check=0"
[ "$ebytes" = "$msg" ] || zero="$zero;size>=$ebytes:$msg"

t0=$(date +%s)
echo "== build examples/alltoall.c with sibylcc"
study_sibylcc "$here/../alltoall.c" "$out/alltoall"

echo "== emulate: $ranks ranks on $np processes, $ebytes bytes per pair, $iters calls"
for a in $algs; do
	t1=$(date +%s)
	coll=
	[ "$a" = default ] || coll="--coll alltoall=$a"
	# shellcheck disable=SC2086
	"$sibyl" emulate -q --ranks $ranks -np $np --node-size $cores $coll \
		-o "$out/emu-$a.trace" -- "$out/alltoall" -b "$ebytes" -i "$iters" \
		>"$out/emu-$a.log"
	grep -q 'errors=0' "$out/emu-$a.log" || {
		echo "$study: the emulated all-to-all ($a) reported errors:" >&2
		cat "$out/emu-$a.log" >&2
		exit 1
	}
	echo "   $a: $(elapsed "$t1")"
done

echo "== generate: the same exchange without computation"
for o in $orders; do
	ns=
	[ "$o" != percs ] || ns="--node-size $cores"
	# shellcheck disable=SC2086
	"$sibyl" trace gen -p alltoall -r $ranks --order $o $ns -i 1 -c 0 \
		-s "$msg" -o "$out/gen-$o.trace" -q
done
super=
if [ "$scale" = full ]; then
	super="xor percs"
	for o in $super; do
		ns=
		[ "$o" != percs ] || ns="--node-size $cores"
		# shellcheck disable=SC2086
		"$sibyl" trace gen -p alltoall -r 1024 --order $o $ns -i 1 -c 0 \
			-s "$msg" -o "$out/super-$o.trace" -q
	done
fi

{
	for a in $algs; do
		echo "\$sibyl sim '$out/emu-$a.trace' -q -o '$out/emu-$a.sim' $machine -r '$zero' --iters 1..$((iters - 1))"
	done
	for o in $orders; do
		echo "\$sibyl sim '$out/gen-$o.trace' -q -o '$out/gen-$o.sim' $machine"
	done
	for o in $super; do
		echo "\$sibyl sim '$out/super-$o.trace' -q -o '$out/super-$o.sim' --set net.model=percs --set machine.cores_per_node=$cores"
	done
} >"$out/runs.txt"
study_run "$out/runs.txt"

# busy SIMDIR: the mean busy time per PE, ps.
busy() {
	tr -d '\n' <"$1/summary.json" | grep -o '"busy_ps": *{[^}]*' |
		grep -o '"mean": *[0-9.]*' | sed 's/.*: *//'
}

# row SOURCE ALG SIMDIR CALLS: a line of drawer.csv (one call's time).  The bounds
# come from the run's links.csv: hub 0's slowest L link and node 0's QCM
# -> Hub channels (n - 1 = the L links of hub 0).
row() {
	awk -F, -v src="$1" -v alg="$2" -v calls="$4" -v b="$msg" -v c="$cores" \
	    -v t="$(ptime "$3")" -v busy="$(busy "$3")" \
	    -v bs="$bigsim" -v me="$measured" '
		$3 ~ /^hub 0 \(/ && ($2 == "LL" || $2 == "LR") {
			if (!l || $5 < lb) lb = $5; l++ }
		$2 == "inject" && $3 == "node 0" { inj += $5 }
		END {
			d = c * c * b
			llb = d * 1e12 / lb; ib = l * d * 1e12 / inj
			bb = llb > ib ? llb : ib
			tc = t / calls
			# The thesis figures are those of the drawer.
			rb = src == "supernode" ? "" : sprintf("%.4f", tc / bs)
			rm = src == "supernode" ? "" : sprintf("%.4f", tc / me)
			printf "%s,%s,%d,%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.4f,%s,%s\n",
				src, alg, b, calls, tc, busy / calls, llb, ib, bb,
				tc / bb, rb, rm }' "$3/links.csv"
}

csv=$out/drawer.csv
echo "source,algorithm,msg_bytes,calls,time_ps,busy_ps,ll_bound_ps,inject_bound_ps,binding_ps,ratio_to_binding,ratio_to_bigsim,ratio_to_measured" >"$csv"
for a in $algs; do row emulated "$a" "$out/emu-$a.sim" $((iters - 1)); done >>"$csv"
for o in $orders; do row generated "$o" "$out/gen-$o.sim" 1; done >>"$csv"
for o in $super; do row supernode "$o" "$out/super-$o.sim" 1; done >>"$csv"

# field SOURCE ALG COLUMN
field() { awk -F, -v s="$1" -v a="$2" -v c="$3" '$1 == s && $2 == a { print $c }' "$csv"; }

# The bar chart: Sibyl's drawer predictions (colour 1 emulated, 2
# generated), BigSim and the prototype (3).
{
	awk -F, 'NR > 1 && $1 != "supernode" {
		printf "\"Sibyl %s %s\",%.4f,%d\n", substr($1, 1, 3), $2, $5 / 1e9,
			$1 == "emulated" ? 1 : 2 }' "$csv"
	echo "\"BigSim (thesis)\",$(awk -v x=$bigsim 'BEGIN { print x / 1e9 }'),3"
	echo "\"measured (thesis)\",$(awk -v x=$measured 'BEGIN { print x / 1e9 }'),3"
} >"$out/bars.csv"
bind_ms=$(awk -F, 'NR == 2 { print $9 / 1e9 }' "$csv")
study_plot "$out/drawer" <<EOF
set datafile separator ','
set style fill solid 0.8 border -1
set boxwidth 0.7
set key top left
set grid ytics
set ylabel 'time of one MPI_Alltoall (ms)'
set yrange [0:*]
set xrange [-0.6:*]
set xtics rotate by -30
set title 'MPI_Alltoall, $msg bytes per pair, 256 cores of one Power 775 drawer'
plot '$out/bars.csv' using 0:2:3:xtic(1) with boxes lc variable notitle, \\
     '' using 0:2:(sprintf('%.1f', \$2)) with labels offset 0,0.8 notitle, \\
     $bind_ms with lines dashtype 2 lw 2 lc rgb 'black' title 'bandwidth bound (QCM -> Hub links)'
EOF

# intranode TIME|BANDWIDTH: a key of [intranode] in machine.conf, in ps or
# bytes/s.
intranode() {
	awk -v k="$1" '/^\[/ { in_s = ($0 == "[intranode]") }
		in_s && $1 == k { v = $3
			n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
			f["ps"] = 1; f["ns"] = 1e3; f["us"] = 1e6; f["ms"] = 1e9; f["s"] = 1e12
			f["B/s"] = 1; f["KB/s"] = 1e3; f["MB/s"] = 1e6; f["GB/s"] = 1e9
			f["KiB/s"] = 1024; f["MiB/s"] = 1048576; f["GiB/s"] = 1073741824
			printf "%.0f\n", n * f[u] }' "$out/gen-xor.sim/machine.conf"
}

{
	echo "# MPI_Alltoall in one Power 775 drawer (thesis section 5.2)"
	echo
	echo "256 ranks, 8 nodes of 32 cores in one drawer (\`percs' model,"
	echo "\`net.drawers=1': LL links of 24 GB/s between every pair of nodes),"
	echo "$msg bytes per pair (assumption: \"51 KBytes\" read as 51 KiB"
	[ "$msg" = 52224 ] && echo "= 52,224 bytes)." || echo "would be 52,224 bytes; this run: $msg)."
	echo "Emulated: examples/alltoall.c, $iters calls of MPI_Alltoall on $np"
	echo "process(es), one call = iterations 1..$((iters - 1)) / $((iters - 1)) with the fill and"
	echo "check computation set to 0 (scale: $scale)."
	[ "$ebytes" = "$msg" ] || echo "Smoke scale: emulated with $ebytes-byte blocks, replaced by $msg in the simulation."
	echo
	echo "| source | algorithm | one MPI_Alltoall | local work / rank | / bound | / BigSim (20.2 ms) | / measured (22.6 ms) |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	awk -F, 'NR > 1 { printf "| %s | %s | %.3f ms | %.3f ms | %.3f | %s | %s |\n",
		$1, $2, $5 / 1e9, $6 / 1e9, $10, $11 == "" ? "--" : $11, $12 == "" ? "--" : $12 }' "$csv"
	echo
	echo "The thesis: BigSim predicted 20.2 ms, the prototype drawer took"
	echo "22.6 ms (BigSim within about 10%)."
	echo
	ll=$(field generated xor 7)
	ib=$(field generated xor 8)
	bintra=$(intranode bandwidth)
	lintra=$(intranode latency)
	awk -v b="$msg" -v ll="$ll" -v ib="$ib" -v bi="$bintra" -v li="$lintra" \
	    -v me="$measured" -v bs="$bigsim" \
	    -v xor="$(field generated xor 5)" -v pw="$(field emulated pairwise 5)" \
	    -v pb="$(field emulated pairwise 6)" -v pc="$(field emulated percs 5)" \
	    -v gp="$(field generated percs 5)" -v def="$(field emulated default 5)" \
	    -v gpw="$(field generated pairwise 5)" -v lin="$(field generated linear 5)" \
	    -v pcb="$(field emulated percs 6)" -v db="$(field emulated default 6)" 'BEGIN {
		d = 32 * 32 * b
		printf "**Bounds.** A node sends d = 32 x 32 x %d = %d bytes to each of the\n", b, d
		printf "7 others: %.3f ms over the LL link of a pair, %.3f ms through the\n", ll / 1e9, ib / 1e9
		printf "QCM -> Hub links (7 d at 4 x 24 GB/s).  The injection bound binds.\n\n"
		# Pairwise exchange with r xor s: steps 1..31 stay inside the node;
		# in the 224 others the 32 cores of a node all send to one node,
		# over one LL link.
		est = 224 * 32 * b * ll / d
		intra = 31 * (li + b * 1e12 / bi)
		if (b >= 32768)
			printf "**What Sibyl predicts.** The default algorithm for %d-byte blocks is\nthe pairwise exchange (r xor s for 256 ranks).  In 224 of its 255\n", b
		else
			printf "**What Sibyl predicts.** In the pairwise exchange (r xor s for 256\nranks; not the default algorithm for %d-byte blocks), in 224 of its 255\n", b
		printf "steps the 32 cores of a node all send to the same node, over one LL\n"
		printf "link: 224 x 32 x %d B / 24 GB/s = %.3f ms, plus 31 steps inside the\n", b, est / 1e9
		printf "node (%.3f ms at the intra-node copy model), %.3f ms in all.  Sibyl\n", intra / 1e9, (est + intra) / 1e9
		printf "gives %.3f ms for that exchange without computation (generated, xor)", xor / 1e9
		if (xor < est + intra)
			printf ",\nless because the ranks are not in lockstep: a core goes on to the next\nstep as soon as its partner'"'"'s message is in, so steps overlap;\n"
		else
			printf ";\n"
		if (pw != "")
			printf "and %.3f ms emulated, of which %.3f ms per rank is the recorded local\nwork of the rounds (copying each received block).\n", pw / 1e9, pb / 1e9
		if (pc != "")
			printf "The PERCS-aware order keeps all 7 LL links busy at once and comes to\n%.3f ms emulated (%.3f ms generated), %.2f x the bound; the emulated\nrun adds the local work of its rounds (%.3f ms per rank), which lies\nbetween a phase'"'"'s receives and the next phase'"'"'s sends.\n", pc / 1e9, gp / 1e9, pc / ib, pcb / 1e9
		else
			printf "The PERCS-aware order keeps all 7 LL links busy at once: %.3f ms\n(generated), %.2f x the bound.\n", gp / 1e9, gp / ib
		if (gpw != "")
			printf "The pairwise order r+s (generated, %.3f ms) splits a node'"'"'s 32 messages\nof a step between two nodes, hence two LL links, in most steps:\nfaster than r xor s, slower than the PERCS-aware order.\n", gpw / 1e9
		if (lin != "")
			printf "The linear algorithm (generated, %.3f ms, %.2f x the bound) posts all\n255 sends at once; with unbounded buffers the packet model keeps every\nlink of a node busy, as the PERCS-aware order does.\n", lin / 1e9, lin / ib
		if (def != "" && pw != "")
			printf "The default algorithm sent the messages of the pairwise one; the two\npredictions differ by %.1f%%, the difference of the local work measured\nin two emulations (%.3f and %.3f ms per rank: CPU time of the emulating\nhost).\n", (def - pw) / pw * 100, db / 1e9, pb / 1e9
		ref = def != "" ? def : pw
		name = def != "" ? "default" : "pairwise"
		if (ref != "") {
			printf "\n**Against the thesis.** Sibyl (emulated, %s algorithm) predicts\n", name
			printf "%.3f ms: %.1f%% of BigSim'"'"'s 20.2 ms and %.1f%% of the measured 22.6 ms.\n", ref / 1e9, ref / bs * 100, ref / me * 100
			gap = me - ref
			printf "The %.3f ms the prototype took beyond it amount to %.1f us for each\n", gap / 1e9, gap / 255 / 1e6
			printf "of the 255 steps of the exchange, if they are the per-message cost of\n"
			printf "the real MPI stack (matching, the rendezvous handshake of a %d-byte\n", b
			printf "message, completion), which Sibyl does not model beyond the emulator'"'"'s\n"
			printf "own copies.  Charged to\n"
			printf "the links instead, it would mean LL links of %.1f GB/s instead of 24:\n", 224 * 32 * b / ((me - (ref - est)) / 1e12) / 1e9
			printf "the prototype had a development version of the Hub and of the\n"
			printf "software stack (thesis section 5.2), and its real algorithm is not\n"
			printf "known.  The PERCS-aware order would be %.1f x faster on this drawer.\n", ref / (pc != "" ? pc : gp)
		}
	}'
	if [ -n "$super" ]; then
		echo
		echo "**Supernode cross-check (thesis section 5.1).** 1,024 cores, $msg"
		echo "bytes per pair, one default supernode (LR links 5 GB/s):"
		awk -F, '$1 == "supernode" { printf "%s %.3f ms (d / B_LR %.3f ms, injection bound %.3f ms, %.3f x the binding bound)%s",
			sep $2, $5 / 1e9, $7 / 1e9, $8 / 1e9, $10, ""; sep = "; " } END { print "." }' "$csv"
		echo "The thesis gives no absolute time, only that MERCURY and BigSim"
		echo "agreed within 0.5%."
	fi
	echo
	echo "Figure: drawer.png; numbers: drawer.csv."
} >"$out/report.md"
echo
cat "$out/report.md"
echo "total $(elapsed "$t0")"
