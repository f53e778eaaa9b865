#!/bin/sh
# study_noise.sh -- the noise study (examples/studies/noise.sh, thesis
# §7.2) at smoke scale: 256 ranks, four applications (K-Neighbor without
# and with an allreduce, the MD and CG proxies emulated in declared mode),
# each core of each node with its own noise phase (--phase random: with
# co-scheduled noise every rank loses the same time and nothing is
# amplified).  It must show what the study exists to show:
#  - the overhead grows with the noise frequency at a fixed amplitude
#    (0.1 ms): no period's overhead lies below the largest one at a lower
#    frequency by more than tol = 1.5 detours on the critical path, i.e.
#    1.5 x 0.1 ms / T_base (about 1.2 points for a 12 ms run; at periods
#    longer than the run whether a core is hit at all is the luck of its
#    random phase, so the low-frequency end moves by about one detour);
#    and the highest frequency (1 ms) costs at least 5 points more than the
#    lowest (1 s): the sweep is not flat;
#  - at the highest frequency the allreduce variant suffers at least as
#    much as the plain one (noise amplification through the collective);
#  - two patterns together cost about the sum of each alone: at most the
#    sum plus tol (detours do not multiply), at least the larger alone
#    minus tol, and at least 60% of the sum (with each core at its own
#    phase a rank absorbs some detours while it waits for a neighbour, so
#    the combination falls somewhat below the sum; co-scheduled noise
#    gives exactly the sum);
#  - the CSVs, report.md and (with gnuplot) the plots exist.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

o=$T/noise
expect_ok sh "$SIBYL_SRCDIR/examples/studies/noise.sh" --scale smoke \
	--phase random --jobs 2 -o "$o" --force
if [ ! -f "$o/overhead-period.csv" ]; then
	fail "noise.sh wrote no overhead-period.csv"
	finish
fi

for f in overhead-period.csv overhead-amplitude.csv combined.csv report.md; do
	checks=$((checks + 1))
	[ -s "$o/$f" ] || fail "noise.sh did not write $f"
done
if command -v gnuplot >/dev/null 2>&1; then
	for f in overhead-period overhead-amplitude combined; do
		for x in png svg; do
			checks=$((checks + 1))
			[ -s "$o/$f.$x" ] || fail "no plot $f.$x"
		done
	done
fi
expect_grep '^\| 1 ms \| 10\.00% \|' "$o/report.md"
expect_grep 'A\+B against the sum' "$o/report.md"

# check NAME AWK-PROGRAM CSV...: the program prints nothing when all is
# well, else one line per problem.
check() {
	what=$1 prog=$2
	shift 2
	checks=$((checks + 1))
	msg=$(awk -F, "$prog" "$@")
	[ -z "$msg" ] || fail "$what: $msg"
}

check "rows of overhead-period.csv" 'NR > 1 { n[$1]++ }
	END { if (n["kneighbor"] != 8 || n["kneighbor-allreduce"] != 8 ||
		  n["md"] != 8 || n["cg"] != 8)
		print "expected 8 periods for each of the 4 applications" }' \
	"$o/overhead-period.csv"

# Rows are in decreasing period: frequency grows down the file.
check "overhead monotone in frequency" 'NR > 1 {
	tol = 1.5 * 100 * 1e8 / $6
	if ($1 != prev) { mx = $8; first = $8 }
	else if ($8 < mx - tol)
		printf "%s: %.3f%% at %s ms, below %.3f%% at a lower frequency (tolerance %.3f)\n", $1, $8, $3, mx, tol
	if ($8 > mx) mx = $8
	if ($3 == 1 && $8 < first + 5)
		printf "%s: %.3f%% at 1 ms, not 5 points above %.3f%% at 1 s\n", $1, $8, first
	prev = $1 }' "$o/overhead-period.csv"

check "allreduce amplifies noise" 'NR > 1 && $3 == 1 { o[$1] = $8 }
	END { if (!("kneighbor" in o) || o["kneighbor-allreduce"] < o["kneighbor"])
		printf "at 1 ms: allreduce %.3f%% < plain %.3f%%\n", o["kneighbor-allreduce"], o["kneighbor"] }' \
	"$o/overhead-period.csv"

# tol per app from its baseline (period CSV), then the combined rows.
check "combined ~ sum" 'FNR == 1 { f++ } f == 1 && FNR > 1 { tol[$1] = 1.5 * 100 * 1e8 / $6 }
	f == 2 && FNR > 1 { n++; t = tol[$1]; big = $3 > $4 ? $3 : $4
	if ($6 > $5 + t) printf "%s: A+B %.3f%% above the sum %.3f%%\n", $1, $6, $5
	if ($6 < big - t) printf "%s: A+B %.3f%% below A or B alone (%.3f%%)\n", $1, $6, big
	if ($6 < 0.6 * $5) printf "%s: A+B %.3f%% below 60%% of the sum %.3f%%\n", $1, $6, $5 }
	END { if (n != 4) print "expected 4 applications" }' \
	"$o/overhead-period.csv" "$o/combined.csv"

finish
