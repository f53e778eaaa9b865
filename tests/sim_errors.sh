# sim_errors.sh -- the errors of `sibyl sim' (fastsim/SEMANTICS.md §7).
#
# Each defect is crafted with tests/data/mktrace.py (defective traces that
# `sibyl trace gen' cannot write) or by damaging a generated trace the way
# tests/cli_check.sh does.  Every error must exit with status 1, name the
# PE, SEB and message (or the file, PE and window) at fault, and leave no
# output directory behind: neither OUT nor a temporary OUT.partial-*.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

# expect_no_output OUT: neither OUT nor OUT.partial-* exists.
expect_no_output() {
	checks=$((checks + 1))
	left=$(ls -d "$1" "$1".partial-* 2>/dev/null)
	[ -z "$left" ] || fail "a failed run left: $left"
}

# sim_fails TRACE [ARGS...]: `sibyl sim' on $T/TRACE.trace exits 1, prints
# its error (stderr in $T/err) and leaves no output.
sim_fails() {
	tr=$1; shift
	rm -rf "$T/$tr.sim"
	expect_exit 1 "$SIBYL" sim -q -o "$T/$tr.sim" "$T/$tr.trace" "$@"
	expect_grep '^sibyl sim: ' "$T/err"
	expect_no_output "$T/$tr.sim"
	[ -s "$T/out" ] && fail "$tr: output on stdout: $(head -n 2 "$T/out")"
}

# Every crafted trace must at least be well-formed: `trace check' reads
# it (and finds the defect, exit 1) -- so the simulator is what is tested.
readable() {
	checks=$((checks + 1))
	"$SIBYL" trace check "$T/$1.trace" >"$T/check.out" 2>&1
	[ $? -le 1 ] && ! grep -q 'cannot be read\|damaged' "$T/check.out" ||
		fail "$1: crafted trace does not read: $(head -n 3 "$T/check.out")"
}

# ------------------------------------------------ the trace does not close
# PE 0 sends two messages, PE 1 awaits only the first.  The second (seq 1,
# 20 bytes) leaves at 1000 ps and arrives at 1000 + 1us + 2000 ps.
craft unawaited <<'EOF'
npes 2
0 send 1000 s:1:10@1000 s:1:20@1000
1 recv 0 w:0:0
EOF
readable unawaited
sim_fails unawaited
expect_grep 'does not close' "$T/err"
expect_grep 'message 1 of PE 0 to PE 1' "$T/err"
expect_grep 'arrived at 1003000 ps' "$T/err"
# In a partial replay, a message awaited outside the part is no error: it
# crosses the boundary and is counted.  The same pattern with markers:
craft boundary <<'EOF'
npes 2
0 send 1000 s:1:10@1000 s:1:20@1000 m:start:1
0 fin 0 m:end:1
1 recv 0 w:0:0 m:start:1
1 fin 0 m:end:1
1 late 0 w:0:1
EOF
rm -rf "$T/boundary.sim"
expect_ok "$SIBYL" sim -q --skip -o "$T/boundary.sim" "$T/boundary.trace"
expect_grep '"boundary": *1[,}]' "$T/boundary.sim/summary.json"
expect_grep 'cross the region' "$T/boundary.sim/summary.txt"
# ... but the whole trace closes (the late SEB awaits it).
rm -rf "$T/boundary.sim"
expect_ok "$SIBYL" sim -q -o "$T/boundary.sim" "$T/boundary.trace"

# ------------------------------------------------------- the replay stalls
# PE 1 awaits a second message of PE 0, which sends only one.
craft never <<'EOF'
npes 3
0 send 1000 s:1:10@1000
1 recv 0 w:0:0 w:0:1
1 after 0
2 idle 5
EOF
readable never
sim_fails never
expect_grep 'stalled' "$T/err"
expect_grep '^  PE 1, SEB 0 \("recv"\) waits for 1 message' "$T/err"
expect_grep 'message 1 of PE 0: .*never sent' "$T/err"
# Only the stuck PE is listed.
grep -q 'PE 2,' "$T/err" && fail "never: PE 2, which finished, is listed"
grep -q 'PE 0,' "$T/err" && fail "never: PE 0, which finished, is listed"

# A message awaited on the wrong PE: sent to PE 2, awaited by PE 1.
craft wrongpe <<'EOF'
npes 3
0 send 1000 s:2:10@1000
1 recv 0 w:0:0
2 other 0
EOF
readable wrongpe
sim_fails wrongpe
expect_grep '^  PE 1, SEB 0 \("recv"\)' "$T/err"
expect_grep 'message 0 of PE 0: .*sent to PE 2' "$T/err"

# The same message awaited on two PEs: PE 1 consumes it, PE 2 stalls.  The
# message went to PE 1, so that is the reason to give.
craft twice <<'EOF'
npes 3
0 send 1000 s:1:10@1000
1 recv 0 w:0:0
2 recv 0 w:0:0
EOF
sim_fails twice
expect_grep '^  PE 2, SEB 0 \("recv"\)' "$T/err"
expect_grep 'message 0 of PE 0: .*(sent to PE 1|went to PE 1)' "$T/err"
# The same message twice in one SEB's waits.
craft twice1 <<'EOF'
npes 2
0 send 1000 s:1:10@1000
1 recv 0 w:0:0 w:0:0
EOF
sim_fails twice1
expect_grep 'PE 1, SEB 0.*PE 0, seq 0.*twice' "$T/err"

# A cycle across PEs: each awaits the other's message before sending its
# own.  PE 2, outside the cycle, runs and is not listed.
craft cycle <<'EOF'
npes 3
0 a 0 w:1:0
0 b 0 s:1:8@0
1 a 0 w:0:0
1 b 0 s:0:8@0
2 c 5
EOF
readable cycle
sim_fails cycle
expect_grep 'stalled.* 2 PEs' "$T/err"
expect_grep '^  PE 0, SEB 0 \("a"\) waits for 1 message' "$T/err"
expect_grep 'message 0 of PE 1: PE 1 .*stuck' "$T/err"
expect_grep '^  PE 1, SEB 0 \("a"\) waits for 1 message' "$T/err"
expect_grep 'message 0 of PE 0: PE 0 .*stuck' "$T/err"
grep -q 'PE 2,' "$T/err" && fail "cycle: PE 2, which finished, is listed"

# A chain: PE 0 waits for PE 1, which waits for a message PE 2 never sends.
craft chain <<'EOF'
npes 3
0 a 0 w:1:0
1 a 0 w:2:3
1 b 7 s:0:8@7
2 c 5 s:1:1@0
2 d 5 w:1:1
EOF
sim_fails chain
expect_grep 'message 0 of PE 1: PE 1 .*stuck' "$T/err"
expect_grep 'message 3 of PE 2: .*never sent' "$T/err"
expect_grep 'PE 2, SEB 1 \("d"\)' "$T/err"

# More than 8 stuck PEs: 8 are listed and the rest counted.
{
	echo "npes 12"
	p=0
	while [ $p -lt 12 ]; do echo "$p w 0 w:$(((p + 1) % 12)):0"; \
		echo "$p s 0 s:$(((p + 11) % 12)):8@0"; p=$((p + 1)); done
} | craft ring12
sim_fails ring12
expect_grep 'but 12 PEs have SEBs left' "$T/err"
expect_grep '^  PE 7, SEB 0' "$T/err"
grep -q '^  PE 8, SEB' "$T/err" && fail "ring12: more than 8 PEs listed"
expect_grep 'and 4 more PEs' "$T/err"

# In a partial replay, the source may stop at the end of its part before
# sending what a PE awaits inside its own.
craft stop <<'EOF'
npes 2
0 a 10 m:start:1
0 b 0 s:1:8@0 m:end:1
1 a 0 m:start:1 w:0:0
1 b 0 m:end:1
EOF
sim_fails stop --skip
expect_grep '^  PE 1, SEB 0 \("a"\)' "$T/err"
expect_grep 'message 0 of PE 0: PE 0 stopped at the end of the region' \
	"$T/err"

# ----------------------------------------------------- skip points missing
# PE 0 has markers, PE 1 none: --skip and --iters name PE 1.
craft nomarks <<'EOF'
npes 2
0 a 10 s:1:8@10 m:iter:0 m:start:1
0 b 0 m:end:1
1 b 0 w:0:0
EOF
rm -rf "$T/nomarks.sim"
expect_ok "$SIBYL" sim -q -o "$T/nomarks.sim" "$T/nomarks.trace"
sim_fails nomarks --skip
expect_grep 'PE 1 has no skip-start marker' "$T/err"
sim_fails nomarks --iters 0
expect_grep 'PE 1 has no SEB marked iteration 0' "$T/err"
# An iteration beyond the trace.
sim_fails nomarks --iters 5..6
expect_grep 'PE 0 has no SEB marked iteration 5' "$T/err"

# ----------------------------------------------------------- damaged trace
S="$T/st.trace"
rm -rf "$S"
expect_ok "$SIBYL" trace gen -q -p stencil3d -r 8 -i 3 -o "$S"
data=proc-000000.sdat
# Cut in the middle: the data file is damaged.
rm -rf "$T/cut.trace" && cp -r "$S" "$T/cut.trace"
size=$(wc -c <"$T/cut.trace/$data")
head -c $((size / 2)) "$S/$data" >"$T/cut.trace/$data"
sim_fails cut
expect_grep 'cut.trace/proc-000000.sdat' "$T/err"
expect_grep 'damaged' "$T/err"
# Only the index and trailer cut off: all windows survive, but the file is
# still damaged and is refused.
rm -rf "$T/tail.trace" && cp -r "$S" "$T/tail.trace"
head -c $((size - 10)) "$S/$data" >"$T/tail.trace/$data"
sim_fails tail
expect_grep 'tail.trace/proc-000000.sdat' "$T/err"
# One window's payload corrupted in an otherwise complete file: the error
# names the file, the PE and the window.
rm -rf "$T/bad.trace" && cp -r "$S" "$T/bad.trace"
python3 - "$T/bad.trace/$data" <<'EOF' || fail "cannot corrupt a window"
import sys
path = sys.argv[1]
b = bytearray(open(path, "rb").read())
i = b.rfind(b"WIND")       # the last window: PE 7's
b[i + b[i + 4] + 2] ^= 0xFF  # a byte of its payload
open(path, "wb").write(b)
EOF
sim_fails bad
expect_grep 'bad.trace/proc-000000.sdat' "$T/err"
expect_grep 'window 0 of PE 7' "$T/err"
# A missing data file, a missing MANIFEST, a missing trace.
rm -rf "$T/nodata.trace" && cp -r "$S" "$T/nodata.trace"
rm "$T/nodata.trace/$data"
sim_fails nodata
expect_grep 'proc-000000.sdat' "$T/err"
rm -rf "$T/noman.trace" && cp -r "$S" "$T/noman.trace"
rm "$T/noman.trace/MANIFEST"
sim_fails noman
expect_grep 'MANIFEST' "$T/err"
sim_fails no-such
expect_grep 'no-such.trace' "$T/err"

# ------------------------------------- a failure keeps the previous output
# With --force, OUT is replaced only at the end of a successful run.
rm -rf "$T/keep.sim"
expect_ok "$SIBYL" trace gen -q -p ring -r 2 -o "$T/keep.trace"
expect_ok "$SIBYL" sim -q -o "$T/keep.sim" "$T/keep.trace"
cp "$T/keep.sim/summary.json" "$T/keep.json"
expect_exit 1 "$SIBYL" sim -q --force -o "$T/keep.sim" "$T/cycle.trace"
checks=$((checks + 1))
cmp -s "$T/keep.sim/summary.json" "$T/keep.json" ||
	fail "a failed --force run changed OUT"
checks=$((checks + 1))
left=$(ls -d "$T/keep.sim".partial-* 2>/dev/null)
[ -z "$left" ] || fail "a failed --force run left $left"

finish
