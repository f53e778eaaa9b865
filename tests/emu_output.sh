#!/bin/sh
# The ranks' standard output (emulator/output.c): nothing lost, nothing
# out of place, and no terminal in the SEBs.
#   - every line of every rank of a process arrives, in order, and a last
#     line without a newline (written by exit's flush);
#   - a rank's output comes out when MPI_Abort ends the emulation, and
#     when the rank crashes in the SEB that printed;
#   - under mpirun the ranks' standard output is a terminal, whose
#     writes cost the SEB that printed 4.5-6.6 us a line (median; 50-90 us
#     at the 99th percentile) and the first one up to milliseconds; the
#     ranks see a pipe, fully buffered and written out at their next MPI
#     call, so a printed line costs its SEB its formatting: the median
#     SEB of the printing region stays under 2 us.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

emu_build output "$SIBYL_SRCDIR/tests/emu/output.c" || finish

emu_run 2 16 "$T/lines.trace" "$T/output" lines 100
checks=$((checks + 1))
[ "$emu_status" -eq 0 ] || { fail "the emulation exited $emu_status";
	sed 's/^/  | /' "$T/err" | head -20 >&2; }
# Rank 0's tail has no newline: another process's line may follow it.
sed 's/tail of rank 0//' "$T/out" >"$T/lines"
checks=$((checks + 1))
n=$(grep -c '^rank [0-9]* line [0-9]*$' "$T/lines")
[ "$n" -eq 800 ] || fail "$n of the 8 x 100 lines arrived"
checks=$((checks + 1))
for r in 0 3 7; do
	for k in 0 99; do
		grep -q "^rank $r line $k\$" "$T/lines" ||
			fail "line $k of rank $r is missing"
	done
done
checks=$((checks + 1))
# Each rank's lines in the order it printed them.
awk '/^rank [0-9]+ line [0-9]+$/ { if ($4 != next_[$2] + 0) bad = 1;
	next_[$2] = $4 + 1 } END { exit bad }' "$T/lines" ||
	fail "a rank's lines are out of order"
expect_grep 'tail of rank 0' "$T/out"
expect_grep '^stdout: pipe$' "$T/err"

# The printing region: between the two MPI_Sendrecv of an iteration.
"$SIBYL" trace stats --regions --json "$T/lines.trace" >"$T/regions.json"
checks=$((checks + 1))
python3 - "$T/regions.json" <<'PY' || fail "printing a line costs its SEB more than 2 us"
import json, sys
d = json.load(open(sys.argv[1]))
regions = d["regions"] if isinstance(d, dict) else d
best = None
for g in regions:
    name = g.get("region", "")
    if name.count("output.c:") == 2 and g["count"] >= 800:
        if best is None or g["median_ps"] > best["median_ps"]:
            best = g
if best is None:
    print("no region of 800 printing SEBs:", regions, file=sys.stderr)
    sys.exit(1)
print("printing region %s: median %.1f us" % (best["region"],
      best["median_ps"] / 1e6), file=sys.stderr)
sys.exit(0 if best["median_ps"] < 2 * 10**6 else 1)
PY

# What a rank printed before MPI_Abort is not lost.
emu_run 2 4 "$T/abort.trace" "$T/output" abort 0
checks=$((checks + 1))
[ "$emu_status" -ne 0 ] || fail "MPI_Abort did not fail the emulation"
expect_grep 'rank 1 before the abort' "$T/out"
expect_grep 'MPI_Abort' "$T/err"
emu_run 2 4 "$T/crash.trace" "$T/output" crash 0
checks=$((checks + 1))
[ "$emu_status" -ne 0 ] || fail "the crash did not fail the emulation"
expect_grep 'rank 1 before the crash' "$T/out"
expect_grep 'SIGSEGV' "$T/err"
finish
