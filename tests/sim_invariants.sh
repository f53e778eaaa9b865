# sim_invariants.sh -- what must not change the results of `sibyl sim'.
#
# The trace's layout (window size, number of data files, directory or
# bundle) and the run itself (two runs of the same command) must give the
# same outputs.  What is compared, precisely (same_outputs below):
#   - the same set of files in both output directories;
#   - summary.json: every key, exactly, except the "simulator" object (the
#     simulator's own cost: wall time, memory, windows loaded);
#   - summary.txt: every line, byte for byte, except the line starting
#     with "simulator";
#   - every other file (prints.txt, machine.conf, timeline.json,
#     projections/*) byte for byte.
# Runs that read different paths ("trace" of summary.json and
# summary.txt, and in timeline.json) are made from directories in which
# the trace has the same relative name, so that those fields agree too;
# only directory vs bundle differ there, and that one key is left out.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

# same_outputs WHAT DIR1 DIR2 [trace]: compare two output directories as
# said above; with `trace', also ignore the trace path.
same_outputs() {
	checks=$((checks + 1))
	python3 - "$2" "$3" "${4:-}" >"$T/cmp.out" 2>&1 <<'EOF' ||
import json, os, sys
a, b, ign = sys.argv[1], sys.argv[2], sys.argv[3] == "trace"
def files(d):
    out = set()
    for root, _, names in os.walk(d):
        for n in names:
            out.add(os.path.relpath(os.path.join(root, n), d))
    return out
fa, fb = files(a), files(b)
if fa != fb:
    sys.exit("different files: %s" % sorted(fa ^ fb))
bad = []
for f in sorted(fa):
    da = open(os.path.join(a, f), "rb").read()
    db = open(os.path.join(b, f), "rb").read()
    if f == "summary.json":
        ja, jb = json.loads(da), json.loads(db)
        for j in (ja, jb):
            del j["simulator"]
            if ign:
                del j["trace"]
        if ja != jb:
            bad.append("%s: %s" % (f, [k for k in ja if ja[k] != jb.get(k)]))
    elif f == "summary.txt":
        skip = (b"simulator", b"trace ") if ign else (b"simulator",)
        la = [l for l in da.splitlines() if not l.startswith(skip)]
        lb = [l for l in db.splitlines() if not l.startswith(skip)]
        if la != lb:
            bad.append(f)
    elif f == "timeline.json" and ign:
        ja, jb = json.loads(da), json.loads(db)
        ja["otherData"].pop("trace", None)
        jb["otherData"].pop("trace", None)
        if ja != jb:
            bad.append(f)
    elif da != db:
        bad.append(f)
if bad:
    sys.exit("differ: " + ", ".join(bad))
EOF
	fail "$1: $(cat "$T/cmp.out")"
}

# predicted DIR: predicted_time_ps of DIR/summary.json.
predicted() {
	tr -d '\n' <"$1/summary.json" |
		grep -o '"predicted_time_ps": *[0-9]*' | sed 's/.*: *//'
}

# run_in DIR OUT TRACE ARGS...: `sibyl sim' run from DIR.
run_in() {
	d=$1 o=$2 t=$3; shift 3
	rm -rf "${d:?}/$o"
	checks=$((checks + 1))
	(cd "$d" && "$SIBYL" sim -q -o "$o" "$t" "$@") >"$T/out" 2>"$T/err" ||
		fail "sim $d/$t $*: $(cat "$T/err")"
}

# A trace with prints, crafted with a given window: 3 PEs in a ring, 6
# iterations, a print in every compute SEB and one in every wait SEB.
ring_with_prints() {   # WINDOW
	{
		echo "npes 3"
		echo "window $1"
		for p in 0 1 2; do
			i=0
			while [ $i -lt 6 ]; do
				echo "$p compute $((1000 + 100 * p + i))" \
				     "s:$(((p + 1) % 3)):$((64 + i))@$((500 + p))" \
				     "p:$((10 * i)):it~$i~pe~$p m:iter:$i"
				echo "$p wait 0 w:$(((p + 2) % 3)):$i p:0:got~$i"
				i=$((i + 1))
			done
			echo "$p finalize 0 m:end:6"
		done
	}
}


# --------------------------------------------------------- window sizes
# A generated trace with jitter, an allreduce over a non-power of two and
# windows from 1 SEB to "everything in one window": the same results.
base=""
for w in 1 7 64 1000000; do
	d="$T/w$w"
	rm -rf "$d" && mkdir -p "$d"
	expect_ok "$SIBYL" trace gen -q -p kneighbor --allreduce -r 12 -k 2 \
		-i 4 -c 2us --jitter 0.3 -s 3000 --window "$w" -o "$d/t.trace"
	run_in "$d" plain t.trace --set net.g=700ns --set net.nic=serialize \
		--set machine.cores_per_node=3
	run_in "$d" proj t.trace --timeline projections
	run_in "$d" chrome t.trace --timeline chrome
	run_in "$d" skip t.trace --iters 1..2 --replace 'size>=3000:5000'
	if [ -z "$base" ]; then
		base=$w
		continue
	fi
	checks=$((checks + 1))
	[ "$(predicted "$d/plain")" = "$(predicted "$T/w$base/plain")" ] ||
		fail "--window $w: predicted time differs from --window $base"
	for o in plain proj chrome skip; do
		same_outputs "--window $w vs $base ($o)" "$T/w$base/$o" "$d/$o"
	done
done
# The same with prints: crafted with windows of 1, 2 and 64 SEBs.
for w in 1 2 64; do
	d="$T/pw$w"
	rm -rf "$d" && mkdir -p "$d"
	ring_with_prints $w | python3 "$MKTRACE" "$d/t.trace" ||
		fail "mktrace window $w"
	run_in "$d" out t.trace --timeline projections
	run_in "$d" skip t.trace --iters 2..3
	[ $w = 1 ] && continue
	same_outputs "prints, window $w vs 1" "$T/pw1/out" "$d/out"
	same_outputs "prints, window $w vs 1 (--iters)" "$T/pw1/skip" "$d/skip"
done
# There were prints to compare: 3 PEs x 6 iterations x 2.
checks=$((checks + 1))
n=$(grep -c 'PE' "$T/pw1/out/prints.txt")
[ "$n" -eq 36 ] || fail "prints.txt of the crafted ring has $n prints, not 36"

# ----------------------------------------------------- directory, bundle
d="$T/w7"
expect_ok "$SIBYL" trace pack -q -o "$d/t.tar.gz" "$d/t.trace"
run_in "$d" bplain t.tar.gz --set net.g=700ns --set net.nic=serialize \
	--set machine.cores_per_node=3
run_in "$d" bchrome t.tar.gz --timeline chrome
same_outputs "bundle vs directory" "$d/plain" "$d/bplain" trace
same_outputs "bundle vs directory (chrome)" "$d/chrome" "$d/bchrome" trace
expect_ok "$SIBYL" trace pack -q -o "$T/pw2/t.tar" "$T/pw2/t.trace"
run_in "$T/pw2" bout t.tar --timeline projections
same_outputs "bundle vs directory (prints)" "$T/pw2/out" "$T/pw2/bout" trace

# ------------------------------------------------------------- --procs
for p in 1 3; do
	d="$T/procs$p"
	rm -rf "$d" && mkdir -p "$d"
	expect_ok "$SIBYL" trace gen -q -p stencil3d -r 12 -i 3 -c 1us \
		--jitter 0.2 --procs $p -o "$d/t.trace"
	run_in "$d" out t.trace --set machine.cores_per_node=4 \
		--set net.nic=serialize --timeline all
done
same_outputs "--procs 3 vs 1" "$T/procs1/out" "$T/procs3/out"

# --------------------------------------------------------- determinism
# The same command twice: everything but the simulator's own figures.
d="$T/procs3"
for k in 1 2; do
	run_in "$d" det$k t.trace --set machine.cores_per_node=4 \
		--set net.nic=serialize --set net.g=150ns --set net.o=20ns \
		--replace 'scale:compute=0.7' --timeline all
done
same_outputs "two identical runs" "$d/det1" "$d/det2"
# ... and summary.json, apart from the "simulator" object, is the same
# text, line by line.
checks=$((checks + 1))
grep -v '"simulator"' "$d/det1/summary.json" >"$T/s1"
grep -v '"simulator"' "$d/det2/summary.json" >"$T/s2"
cmp -s "$T/s1" "$T/s2" || fail "summary.json text differs between runs"

finish
