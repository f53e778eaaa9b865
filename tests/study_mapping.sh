#!/bin/sh
# study_mapping.sh -- examples/studies/mapping.sh at its smoke scale
# (4,096 stencil tasks on 4 PERCS supernodes, grid 32x32x4, 64 KiB faces)
# shows what the thesis' mapping study (section 6) exists to show.
#
# Under rank order each supernode holds one z plane of 1,024 tasks, so
# the single D link from a supernode to the next carries all 1,024 of its
# z faces: 1024 x 64 KiB = 64 MiB.  With 16x16x4 boxes per supernode a
# supernode's neighbours in x and y each get 2 x 64 faces (the grid holds
# two boxes per dimension, periodic), 8 MiB per D link: the busiest D
# link must carry 1/8 of the rank-order bytes, exactly.  The faces are
# sent together after the compute, so the D link at 10 GB/s sets the
# communication time: it must fall by more than half, and the total time
# with it; the maximum LR and LL loads must not rise.
. "$SIBYL_SRCDIR/tests/lib.sh"

expect_ok sh "$SIBYL_SRCDIR/examples/studies/mapping.sh" --scale smoke \
	--jobs 2 -o "$T/study" --force
csv=$T/study/mapping.csv
[ -f "$csv" ] || { fail "no mapping.csv"; finish; }

# field MAPPING COLUMN
field() { awk -F, -v m="$1" -v c="$2" '$1 == m { print $c }' "$csv"; }

d_rank=$(field rank 7)
d_sup=$(field blocked-supernode 7)
checks=$((checks + 1))
[ "$d_rank" = $((64 * 1048576)) ] ||
	fail "busiest D link under rank order: $d_rank bytes, expected 64 MiB"
checks=$((checks + 1))
[ "$d_sup" = $((8 * 1048576)) ] ||
	fail "busiest D link under supernode blocking: $d_sup bytes, expected 8 MiB"

for m in blocked-drawer blocked-supernode; do
	checks=$((checks + 1))
	awk -v r="$(field rank 4)" -v b="$(field $m 4)" \
		'BEGIN { exit !(b < r / 2) }' ||
		fail "$m: communication $(field $m 4) ps not below half of rank order's $(field rank 4) ps"
	checks=$((checks + 1))
	[ "$(field $m 2)" -lt "$(field rank 2)" ] ||
		fail "$m: total time $(field $m 2) ps not below rank order's $(field rank 2) ps"
	for c in 5 6; do
		checks=$((checks + 1))
		[ "$(field $m $c)" -le "$(field rank $c)" ] ||
			fail "$m: busiest link of column $c rose: $(field $m $c) > $(field rank $c)"
	done
done

# The histograms count every link once per class and run.
checks=$((checks + 1))
n=$(awk -F, '$1 == "D" && $2 == "rank.sim" { s += $5 } END { print s }' \
	"$T/study/linkhist.csv")
[ "$n" = 12 ] || fail "linkhist.csv counts $n D links for rank.sim, expected 4 x 3 = 12"

expect_grep 'the hot links of rank order disappear' "$T/study/report.md"
expect_grep '^\| blocked-supernode \|' "$T/study/report.md"
if command -v gnuplot >/dev/null 2>&1; then
	for f in linkhist.png linkhist.svg time.png time.svg; do
		checks=$((checks + 1))
		[ -s "$T/study/$f" ] || fail "no $f"
	done
fi
finish
