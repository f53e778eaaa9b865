#!/bin/sh
# study_latency.sh -- the latency study (examples/studies/latency.sh,
# thesis §8) at smoke scale: 256 ranks (8 nodes of 32), K-Neighbor without
# and with an allreduce and the MD and CG proxies, under the simple model
# with the latency swept from 100 ns to 1 ms.  It must show:
#  - no application gets faster when the latency grows (times
#    non-decreasing along the sweep);
#  - the allreduce makes K-Neighbor more sensitive to latency: its time
#    relative to 100 ns is higher at 100 us and at 1 ms;
#  - and by how much, exactly: the generated K-Neighbor sends at the end
#    of its computation and waits for its neighbours before the next, so
#    each iteration waits for one network latency; the allreduce variant
#    adds the recursive-doubling steps that cross the network, log2(8
#    nodes) = 3, so it waits for 4.  The added time per iteration over the
#    added latency (per_iter_latencies, at 1 ms) must be within 2% of 1
#    and 4 (the rest is bandwidth and the intra-node steps, which do not
#    change);
#  - latency.csv, report.md and (with gnuplot) latency.png/.svg exist.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

o=$T/latency
expect_ok sh "$SIBYL_SRCDIR/examples/studies/latency.sh" --scale smoke \
	--jobs 2 -o "$o" --force
if [ ! -f "$o/latency.csv" ]; then
	fail "latency.sh wrote no latency.csv"
	finish
fi
checks=$((checks + 1))
[ -s "$o/report.md" ] || fail "latency.sh wrote no report.md"
expect_grep '^\| kneighbor-allreduce \| 256 \|' "$o/report.md"
if command -v gnuplot >/dev/null 2>&1; then
	for x in png svg; do
		checks=$((checks + 1))
		[ -s "$o/latency.$x" ] || fail "no plot latency.$x"
	done
fi

# check NAME AWK-PROGRAM: the program prints nothing on latency.csv when
# all is well, else one line per problem.
check() {
	checks=$((checks + 1))
	msg=$(awk -F, "$2" "$o/latency.csv")
	[ -z "$msg" ] || fail "$1: $msg"
}

check "rows" 'NR > 1 { n[$1]++ }
	END { if (n["kneighbor"] != 5 || n["kneighbor-allreduce"] != 5 ||
		  n["md"] != 5 || n["cg"] != 5)
		print "expected 5 latencies for each of the 4 applications" }'

# Rows go up in latency within each application.
check "time non-decreasing in latency" 'NR > 1 {
	if ($1 == prev && $6 < last)
		printf "%s: %s ps at %s ns, below %s ps at a lower latency\n", $1, $6, $4, last
	prev = $1; last = $6 }'

check "allreduce more sensitive" 'NR > 1 && ($4 == 100000 || $4 == 1000000) { r[$1, $4] = $7 }
	END { for (l = 100000; l <= 1000000; l *= 10)
		if (r["kneighbor-allreduce", l] <= r["kneighbor", l])
			printf "at %d ns: allreduce %.4f <= plain %.4f\n", l, r["kneighbor-allreduce", l], r["kneighbor", l] }'

check "latencies per iteration" 'NR > 1 && $4 == 1000000 { k[$1] = $8 }
	END { if (k["kneighbor"] < 0.98 || k["kneighbor"] > 1.02)
		printf "kneighbor waits for %s latencies per iteration, not 1\n", k["kneighbor"]
	      if (k["kneighbor-allreduce"] < 3.92 || k["kneighbor-allreduce"] > 4.08)
		printf "kneighbor-allreduce waits for %s latencies per iteration, not 4\n", k["kneighbor-allreduce"] }'

finish
