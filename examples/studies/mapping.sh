#!/bin/sh
# mapping.sh -- link utilization of a 3D stencil under three task mappings
# on 64 PERCS supernodes (the mapping study of the thesis, section 6,
# Figure 6.1).
#
#   examples/studies/mapping.sh [-o DIR] [--face-bytes S] [--iters N]
#                               [--jobs J] [--force]
#
# 65,536 tasks in a 64 x 32 x 32 periodic grid exchange 512 KiB faces with
# their six neighbours (256 x 256 doubles, as in the thesis); 32 tasks per
# node, 2,048 nodes = 64 supernodes of the `percs' network model.  The same
# trace is simulated under three mappings written by `sibyl map':
#
#   rank               rank order: node r / 32 (the default)
#   blocked-drawer     4x4x2 tasks per node, 8x8x4 per drawer
#   blocked-supernode  ... and 16x8x8 per supernode
#
# and `sibyl linkhist' bins the LL, LR and D links of the three runs by
# bytes on one common scale (one column per mapping, as in Figure 6.1).
# Outputs in DIR (default mapping.out): the trace, the three maps, the
# three simulation directories, linkhist.txt, linkhist.csv, linkhist.json
# and, when gnuplot is installed, linkhist.png and linkhist.svg.
#
# The simulator is `sibyl' from $SIBYL, else build/sibyl next to this
# script's source tree, else `sibyl' on the PATH.  At the default scale
# each simulation moves about 100 million packets; --face-bytes 64KiB
# makes it eight times lighter with the same hot links.
set -eu

out=mapping.out
face=512KiB
iters=1
jobs=2
force=
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	--face-bytes) face=$2; shift 2 ;;
	--iters) iters=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--force) force=--force; shift ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
		exit 0 ;;
	*) echo "mapping.sh: unknown argument '$1'; try --help" >&2; exit 2 ;;
	esac
done

study=mapping.sh
. "$(dirname "$0")/common.sh"

elapsed() { echo $(( $(date +%s) - $1 )) s; }

t0=$(date +%s)
echo "== trace: 65,536-task 3D stencil, $face faces, $iters iteration(s)"
"$sibyl" trace gen -p stencil3d -r 64Ki --grid 64,32,32 --face-bytes "$face" \
	-i "$iters" --window 16 -o "$out/stencil.trace" -q
echo "   $(elapsed "$t0")"

for m in blocked-drawer blocked-supernode; do
	"$sibyl" map -r 64Ki --order $m -o "$out/$m.map" -q
done

sim() {
	name=$1; shift
	s=$(date +%s)
	"$sibyl" sim "$out/stencil.trace" -o "$out/$name.sim" -q \
		--set machine.cores_per_node=32 --set net.model=percs "$@"
	echo "   $name: $(elapsed "$s")"
}

echo "== simulations on 64 PERCS supernodes ($jobs at a time)"
t1=$(date +%s)
if [ "$jobs" -ge 3 ]; then
	sim rank & p1=$!
	sim blocked-drawer --map "$out/blocked-drawer.map" & p2=$!
	sim blocked-supernode --map "$out/blocked-supernode.map" & p3=$!
	wait $p1 && wait $p2 && wait $p3
elif [ "$jobs" -eq 2 ]; then
	sim rank & p1=$!
	sim blocked-drawer --map "$out/blocked-drawer.map"
	wait $p1
	sim blocked-supernode --map "$out/blocked-supernode.map"
else
	sim rank
	sim blocked-drawer --map "$out/blocked-drawer.map"
	sim blocked-supernode --map "$out/blocked-supernode.map"
fi
echo "   all: $(elapsed "$t1")"

runs="rank.sim blocked-drawer.sim blocked-supernode.sim"
echo "== link histograms (bytes per link, common scale)"
# In $out, so that the columns are named by the mapping.
(
	cd "$out"
	# shellcheck disable=SC2086
	"$sibyl" linkhist $runs --class LL,LR,D --csv linkhist.csv \
		| tee linkhist.txt
	# shellcheck disable=SC2086
	"$sibyl" linkhist $runs --class LL,LR,D --json >linkhist.json
	if command -v gnuplot >/dev/null 2>&1; then
		for f in png svg; do
			# shellcheck disable=SC2086
			"$sibyl" linkhist $runs --class LL,LR,D \
				--plot linkhist.$f >/dev/null
		done
		echo "plots: $out/linkhist.png $out/linkhist.svg"
	else
		echo "(gnuplot not installed: no plots; apt-get install gnuplot-nox)"
	fi
)

echo "== predicted time and busiest link per mapping"
for r in $runs; do
	r=$out/$r
	printf '%-20s ' "$(basename "$r" .sim)"
	grep -E '^predicted time' "$r/summary.txt" | sed 's/^predicted time *//'
	grep -E '^ *busiest' "$r/summary.txt" | sed 's/^ */                     /'
done
echo "total $(elapsed "$t0")"
