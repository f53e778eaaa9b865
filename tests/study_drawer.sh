#!/bin/sh
# study_drawer.sh -- examples/studies/drawer.sh at its smoke scale (256
# ranks, 8 nodes of 32 cores in one PERCS drawer; examples/alltoall.c
# emulated with 1 KiB blocks, replaced by 51 KiB = 52,224 bytes in the
# simulation; generated traces at 52,224 bytes) shows what the thesis'
# drawer validation (section 5.2) is about, with the relations the
# model explains:
#   - no prediction beats the drawer's bandwidth bound: a node sends
#     d = 32 x 32 x 52,224 bytes to each of its 7 drawer mates, through
#     4 QCM -> Hub channels of 24 GB/s: 7 d / 96 GB/s = 3.90 ms
#     (recomputed here; the LL bound d / 24 GB/s = 2.23 ms is lower);
#   - the pairwise exchange (r xor s), in 224 of whose 255 steps the 32
#     cores of a node all send to one node over one LL link, takes about
#     224 x 32 x 52,224 B / 24 GB/s = 15.6 ms: the generated trace must
#     lie within 10% of that (the model gives 98.5%: steps overlap a
#     little), and both pairwise runs at least 3 times the PERCS-aware
#     ones (the model gives 3.7x emulated, 3.9x generated), which keep
#     the 7 LL links of a node busy at once and lie within 25% of the
#     bound (1.07 and 1.003);
#   - an emulated run is never faster than the generated run of the same
#     algorithm: it only adds the recorded local work of the rounds;
#   - the report names the thesis' two figures, 20.2 and 22.6 ms.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

expect_ok sh "$SIBYL_SRCDIR/examples/studies/drawer.sh" --scale smoke \
	--jobs 2 -o "$T/study" --force
csv=$T/study/drawer.csv
[ -f "$csv" ] || { fail "no drawer.csv"; finish; }

# field SOURCE ALG COLUMN
field() { awk -F, -v s="$1" -v a="$2" -v c="$3" '$1 == s && $2 == a { print $c }' "$csv"; }

d=$((1024 * 52224))
# 7 d / 96 GB/s in ps, rounded up.
bound=$(((7000 * d + 95) / 96))
rows=$(awk 'END { print NR - 1 }' "$csv")
checks=$((checks + 1))
[ "$rows" -eq 4 ] || fail "drawer.csv has $rows rows, expected 4"
awk -F, 'NR > 1 { print $1, $2, $5, $9 }' "$csv" >"$T/rows"
while read -r src alg t b; do
	checks=$((checks + 1))
	[ "$t" -ge "$bound" ] ||
		fail "$src $alg: $t ps beats the drawer's bandwidth bound $bound ps"
	checks=$((checks + 1))
	[ $((b - bound)) -le 1 ] && [ $((bound - b)) -le 1 ] ||
		fail "$src $alg: the script's bound is $b ps, expected $bound"
done <"$T/rows"

xor=$(field generated xor 5)
gp=$(field generated percs 5)
ep=$(field emulated percs 5)
ew=$(field emulated pairwise 5)
# 224 x 32 x 52224 B at 24 GB/s, in ps.
est=$((224 * 32 * 52224 * 1000 / 24))
checks=$((checks + 1))
[ -n "$xor" ] && [ $((10 * xor)) -ge $((9 * est)) ] &&
	[ $((10 * xor)) -le $((11 * est)) ] ||
	fail "generated xor: $xor ps is not within 10% of $est ps"
checks=$((checks + 1))
[ "$ew" -ge $((3 * ep)) ] && [ "$xor" -ge $((3 * gp)) ] ||
	fail "pairwise ($ew, $xor ps) not at least 3 x PERCS-aware ($ep, $gp ps)"
for t in "$ep" "$gp"; do
	checks=$((checks + 1))
	[ $((4 * t)) -le $((5 * bound)) ] ||
		fail "PERCS-aware $t ps is not within 1.25 x the bound $bound ps"
done
checks=$((checks + 1))
[ "$ew" -ge "$xor" ] && [ "$ep" -ge "$gp" ] ||
	fail "an emulated run is faster than the generated one: pairwise $ew < $xor or percs $ep < $gp"

expect_grep '20\.2 ms' "$T/study/report.md"
expect_grep '22\.6 ms' "$T/study/report.md"
expect_grep '^\| emulated \| percs \|' "$T/study/report.md"
if command -v gnuplot >/dev/null 2>&1; then
	for f in drawer.png drawer.svg; do
		checks=$((checks + 1))
		[ -s "$T/study/$f" ] || fail "no $f"
	done
fi
finish
