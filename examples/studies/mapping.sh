#!/bin/sh
# mapping.sh -- link utilization and time per iteration of a 3D stencil
# under three task mappings on PERCS supernodes (the mapping study of the
# thesis, section 6, Figures 6.1 and 6.2).
#
#   examples/studies/mapping.sh [-o DIR] [--scale smoke|reduced|full]
#                               [--full] [--face-bytes S] [--compute T]
#                               [--jobs J] [--force]
#
# Tasks in a periodic 3D grid exchange faces with their six neighbours
# after computing; 32 tasks per node (a PERCS node), 32 nodes per
# supernode.  The same trace is simulated under three mappings written by
# `sibyl map':
#
#   rank               rank order: node r / 32 (the default)
#   blocked-drawer     4x4x2 tasks per node, 8x8x4 per drawer
#   blocked-supernode  ... and 16x8x8 per supernode
#
# Scales:
#   full     the thesis: 65,536 tasks (grid 64x32x32) on 64 supernodes,
#            512 KiB faces (256 x 256 doubles); about 2 minutes per
#            simulation, 100 million packets each
#   reduced  (default; `make studies') the same machine and grid with
#            128 KiB faces: the same hot links, a quarter of the packets
#   smoke    4,096 tasks (grid 32x32x4) on 4 supernodes, 64 KiB faces,
#            blocks 4x4x2 / 8x8x4 / 16x16x4 (what `make check' runs)
#
# Compute per iteration (--compute T): the thesis does not give it.  The
# default is 150 ms at 512 KiB faces, scaled with the face size: an
# assumption chosen so that communication is about a quarter of the
# rank-order iteration, the share implied by the thesis' "-80%
# communication, -20% overall".  Communication time per iteration is the
# predicted time minus the compute (one iteration, bulk synchronous: every
# task computes, then exchanges and waits for its six faces).
#
# Outputs in DIR (default mapping.out):
#   stencil.trace, *.map, rank.sim, blocked-*.sim   trace, maps, runs
#   linkhist.txt/.csv/.json, linkhist.png/.svg      Figure 6.1: links per
#                                  bytes bin, per class (LL, LR, D) and
#                                  mapping, on one common scale
#   mapping.csv                    per mapping: total, compute and
#                                  communication time, busiest link of
#                                  each class (bytes, utilization)
#   time.png/.svg                  Figure 6.2: communication and total
#                                  time per iteration per mapping
#   report.md                      the numbers and the conclusion
#
# The simulator is `sibyl' from $SIBYL, else build/sibyl next to this
# script's source tree, else `sibyl' on the PATH.
set -eu

study=mapping.sh
. "$(dirname "$0")/common.sh"
face=
compute=
while [ $# -gt 0 ]; do
	case $1 in
	--face-bytes) face=$2; shift 2 ;;
	--compute) compute=$2; shift 2 ;;
	*) study_option "$@"; shift "$study_shift" ;;
	esac
done
study_init

case $scale in
full) ranks=64Ki; grid=64,32,32; dface=512 ;;
reduced) ranks=64Ki; grid=64,32,32; dface=128 ;;
smoke) ranks=4096; grid=32,32,4; dface=64 ;;
esac
# The blocks of the two blocked mappings: the thesis' (sibyl map presets)
# for its 64x32x32 grid; for the smoke grid, whose rank-order supernodes
# are single z planes, 16x16x4 boxes per supernode.
if [ "$scale" = smoke ]; then
	bdrawer="--order blocked --block 4,4,2:8,8,4"
	bsuper="--order blocked --block 4,4,2:8,8,4:16,16,4"
else
	bdrawer="--order blocked-drawer"
	bsuper="--order blocked-supernode"
fi
# Face bytes in KiB unless given; compute 150 ms per 512 KiB of face.
if [ -z "$face" ]; then
	face=${dface}KiB
	fkib=$dface
else
	fb=$(study_bytes "$face")
	[ "$fb" != bad ] || {
		echo "$study: --face-bytes: '$face' is not a size (128KiB, 1MiB, 4096)" >&2
		rmdir "$out"
		exit 2
	}
	fkib=$(awk -v b="$fb" 'BEGIN { print b / 1024 }')
fi
if [ -z "$compute" ]; then
	compute=$(awk -v f="$fkib" 'BEGIN { printf "%dus", 150000 * f / 512 }')
fi
cus=$(echo "$compute" | awk '/ms$/ { print ($0 + 0) * 1000; next }
	/us$/ { print $0 + 0; next } /s$/ { print ($0 + 0) * 1e6; next } { print $0 + 0 }')

t0=$(date +%s)
echo "== trace: $ranks-task 3D stencil (grid $grid), $face faces, $compute compute"
"$sibyl" trace gen -p stencil3d -r "$ranks" --grid "$grid" --face-bytes "$face" \
	-c "$compute" -i 1 --window 16 -o "$out/stencil.trace" -q
# shellcheck disable=SC2086
"$sibyl" map -r "$ranks" --grid "$grid" $bdrawer -o "$out/blocked-drawer.map" -q
# shellcheck disable=SC2086
"$sibyl" map -r "$ranks" --grid "$grid" $bsuper -o "$out/blocked-supernode.map" -q
echo "   $(elapsed "$t0")"

sim="\$sibyl sim '$out/stencil.trace' -q --set machine.cores_per_node=32 --set net.model=percs"
{
	echo "$sim -o '$out/rank.sim'"
	for m in blocked-drawer blocked-supernode; do
		echo "$sim --map '$out/$m.map' -o '$out/$m.sim'"
	done
} >"$out/runs.txt"
study_run "$out/runs.txt" "on PERCS"

maps="rank blocked-drawer blocked-supernode"
runs="rank.sim blocked-drawer.sim blocked-supernode.sim"
echo "== link histograms (Figure 6.1: bytes per link, common scale)"
(
	cd "$out"
	# shellcheck disable=SC2086
	"$sibyl" linkhist $runs --class LL,LR,D --csv linkhist.csv >linkhist.txt
	# shellcheck disable=SC2086
	"$sibyl" linkhist $runs --class LL,LR,D --json >linkhist.json
	cat linkhist.txt
	if command -v gnuplot >/dev/null 2>&1; then
		for f in png svg; do
			# shellcheck disable=SC2086
			"$sibyl" linkhist $runs --class LL,LR,D \
				--plot linkhist.$f >/dev/null
		done
		echo "plots: $out/linkhist.png $out/linkhist.svg"
	else
		echo "(gnuplot not installed: no linkhist.png/.svg; apt-get install gnuplot-nox)"
	fi
)

# cls SIMDIR CLASS FIELD: a field of a link class in summary.json.
cls() {
	tr -d '\n' <"$1/summary.json" | grep -o "\"class\": \"$2\"[^}]*" |
		grep -o "\"$3\": *[0-9.e+-]*" | sed 's/.*: *//'
}

cps=$(awk -v c="$cus" 'BEGIN { printf "%.0f", c * 1e6 }')
echo "mapping,total_ps,compute_ps,comm_ps,max_bytes_LL,max_bytes_LR,max_bytes_D,max_util_LL,max_util_LR,max_util_D" \
	>"$out/mapping.csv"
for m in $maps; do
	s=$out/$m.sim
	t=$(ptime "$s")
	echo "$m,$t,$cps,$((t - cps)),$(cls "$s" LL max_bytes),$(cls "$s" LR max_bytes),$(cls "$s" D max_bytes),$(cls "$s" LL max_utilization),$(cls "$s" LR max_utilization),$(cls "$s" D max_utilization)"
done >>"$out/mapping.csv"

{
	echo "# Task mapping of a 3D stencil on PERCS (thesis section 6)"
	echo
	echo "$ranks tasks, grid $grid, $face faces to six neighbours, $compute"
	echo "compute per iteration (assumption, see the script), 32 tasks per"
	echo "node, default \`percs' model (LL 24, LR 5, D 10 GB/s, direct routing);"
	echo "scale: $scale."
	echo
	echo "| mapping | total / iteration | communication | vs rank order | busiest D link | busiest LR link | busiest LL link |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	awk -F, 'NR == 1 { next }
		NR == 2 { c0 = $4; t0 = $2 }
		{ printf "| %s | %.2f ms | %.2f ms | comm %+.1f%%, total %+.1f%% | %.1f MiB (%.1f%%) | %.1f MiB (%.1f%%) | %.1f MiB (%.1f%%) |\n",
			$1, $2 / 1e9, $4 / 1e9, ($4 - c0) / c0 * 100, ($2 - t0) / t0 * 100,
			$7 / 1048576, $10 * 100, $6 / 1048576, $9 * 100,
			$5 / 1048576, $8 * 100 }' "$out/mapping.csv"
	echo
	awk -F, 'NR == 1 { next }
		NR == 2 { c0 = $4; t0 = $2; d0 = $7 }
		{ c[$1] = $4; t[$1] = $2; d[$1] = $7 }
		END {
			best = "blocked-supernode"
			printf "Blocking onto nodes, drawers and supernodes cuts the communication\n"
			printf "time per iteration by %.0f%% (nodes and drawers only: %.0f%%) and the\n",
				(c0 - c[best]) / c0 * 100, (c0 - c["blocked-drawer"]) / c0 * 100
			printf "total by %.0f%%; the thesis reports -80%% and -20%%.  The busiest D link\n",
				(t0 - t[best]) / t0 * 100
			printf "carries %.1f MiB under rank order and %.1f MiB under full blocking:\n",
				d0 / 1048576, d[best] / 1048576
			if (d[best] < d0)
				printf "the hot links of rank order disappear (linkhist.png, Figure 6.1).\n"
			else
				printf "blocking did NOT lower the busiest D link.\n"
		}' "$out/mapping.csv"
	echo
	echo "Figures: linkhist.png (6.1), time.png (6.2); numbers: mapping.csv,"
	echo "linkhist.csv."
} >"$out/report.md"

# Figure 6.2: communication and total time per iteration, in ms.
study_plot "$out/time" <<EOF
set datafile separator ','
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key top right
set grid ytics
set ylabel 'time per iteration (ms)'
set yrange [0:*]
set title '3D stencil, $ranks tasks on PERCS: communication and total time per iteration'
plot '$out/mapping.csv' using (\$4/1e9):xtic(1) skip 1 title 'communication', \
     '' using (\$2/1e9) skip 1 title 'total'
EOF
echo
cat "$out/report.md"
echo "total $(elapsed "$t0")"
