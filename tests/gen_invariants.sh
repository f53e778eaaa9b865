# gen_invariants.sh -- analytic invariants of `sibyl trace gen'.
#
# Every pattern's message and SEB counts follow closed-form formulas
# (docs/trace-tools.md); every generated trace passes `sibyl trace check';
# the output depends only on the parameters and the seed; the number of
# data files (--procs) changes the layout, never the content.
. "$SIBYL_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || {
	echo "gen_invariants: python3 not found; skipping" >&2
	exit 77
}

# gen NAME ARGS...: generate $T/NAME.trace (quietly), fail on error.
gen() {
	name=$1; shift
	rm -rf "$T/$name.trace"
	expect_ok "$SIBYL" trace gen -q -o "$T/$name.trace" "$@"
}

# totals NAME: "SEBS MESSAGES NFILES GEN_SEBS GEN_MESSAGES" from trace info.
totals() {
	"$SIBYL" trace info --json "$T/$1.trace" | python3 -c '
import json, sys
d = json.load(sys.stdin)
m = d["manifest"]
print(d["totals"]["sebs"], d["totals"]["messages"], d["nprocs"],
      m.get("gen.sebs", "-"), m.get("gen.messages", "-"))'
}

# expect_counts NAME SEBS MESSAGES: totals on disk, the manifest's own
# formulas, and a full check.
expect_counts() {
	checks=$((checks + 1))
	got=$(totals "$1")
	set -- "$1" "$2" "$3" $got
	if [ "$4" != "$2" ] || [ "$5" != "$3" ] || [ "$7" != "$2" ] ||
	   [ "$8" != "$3" ]; then
		fail "$1: SEBs/messages on disk $4/$5, manifest $7/$8," \
		     "expected $2/$3"
	fi
	expect_ok "$SIBYL" trace check "$T/$1.trace"
	expect_grep "valid" "$T/out"
}

# ---------------------------------------------------------------- counts
# Formulas (R ranks, I iterations; one "finalize" SEB per rank):
#   pingpong, ring:   R*I messages,        R*(2I+1) SEBs
#   stencil3d:        6*R*I messages,      R*(2I+1) SEBs
#   kneighbor:        2K*R*I messages,     R*(2I+1) SEBs
#     --allreduce:    + A*I messages and A*I SEBs, A = P2*log2(P2) + 2*rem
#   alltoall:         R*(R-1)*I messages,  R*(R*I+1) SEBs
#   allreduce:        A*I messages,        R*(I+1) + A*I SEBs
#   random:           M*R*I messages,      R*(2I+1) SEBs

gen pp2 -p pingpong -r 2 -i 5
expect_counts pp2 22 10
gen pp10 -p pingpong -r 10 -i 3 --compute 10us --jitter 0.1
expect_counts pp10 70 30

gen ring -p ring -r 7 -i 4
expect_counts ring 63 28

# 5x4x3 grid, 60 ranks, 3 iterations: 6*60*3 = 1080.
gen st60 -p stencil3d -r 60 --grid 5,4,3 -i 3 --block 16,8,4
expect_counts st60 420 1080
# Default grid of 64 ranks (4x4x4), of a prime (7x1x1: neighbours coincide
# with the rank itself in y and z) and of a single rank.
gen st64 -p stencil3d -r 64 -i 2
expect_counts st64 320 768
gen st7 -p stencil3d -r 7 -i 2
expect_counts st7 35 84
gen st1 -p stencil3d -r 1 -i 2
expect_counts st1 5 12
gen st2 -p stencil3d -r 8 --grid 2,2,2 -i 1
expect_counts st2 24 48

# The local block sets the face sizes: x faces 8*4*8, y 16*4*8, z 16*8*8.
"$SIBYL" trace dump --json --pe 0 --seb 0 "$T/st60.trace" >"$T/st60.json"
checks=$((checks + 1))
sizes=$(python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).readline())
print(" ".join(str(s["size"]) for s in d["sends"]))' "$T/st60.json")
[ "$sizes" = "256 256 512 512 1024 1024" ] ||
	fail "stencil3d --block 16,8,4: face sizes are '$sizes'"
expect_grep '^gen.grid = 5,4,3$' "$T/st60.trace/MANIFEST"

gen kn -p kneighbor -r 20 -k 3 -i 2
expect_counts kn 100 240
# 20 ranks: P2 = 16, log2 = 4, rem = 4 -> A = 72 per iteration.
gen kn_ar -p kneighbor -r 20 -k 3 -i 2 --allreduce
expect_counts kn_ar 244 384
# Default K = 4 (eight neighbours, thesis K-Neighbor).
gen kn_def -p kneighbor -r 16 -i 1
expect_counts kn_def 48 128
expect_grep '^gen.neighbors = 4$' "$T/kn_def.trace/MANIFEST"

gen a2a -p alltoall -r 6 -i 2
expect_counts a2a 78 60
gen a2a2 -p alltoall -r 2 -i 3
expect_counts a2a2 14 6

# Power of two: R*log2(R) messages per allreduce.
gen ar16 -p allreduce -r 16 -i 3
expect_counts ar16 256 192
# Non-powers of two: 12 -> 8*3 + 2*4 = 32; 3 -> 2*1 + 2*1 = 4.
gen ar12 -p allreduce -r 12 -i 2
expect_counts ar12 100 64
gen ar3 -p allreduce -r 3 -i 2
expect_counts ar3 17 8
gen ar2 -p allreduce -r 2 -i 1
expect_counts ar2 6 2

gen rnd -p random -r 50 --fanout 3 -i 4 --jitter 0.05 --seed 9
expect_counts rnd 450 600
gen rnd2 -p random -r 2 -i 2
expect_counts rnd2 10 4

# The fold-in of recursive doubling on every rank count from 2 to 17, and
# random traffic on awkward sizes: each trace must check.
for r in 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
	gen sweep -p allreduce -r $r -i 2
	expect_ok "$SIBYL" trace check "$T/sweep.trace"
	gen sweep -p kneighbor --allreduce -k 1 -r $r -i 2
	expect_ok "$SIBYL" trace check "$T/sweep.trace"
done
for r in 3 17 129 1000; do
	gen sweep -p random -r $r -m 2 -i 2
	expect_ok "$SIBYL" trace check "$T/sweep.trace"
done

# random: every rank sends and receives exactly M messages per iteration,
# never to itself.
checks=$((checks + 1))
"$SIBYL" trace dump --json "$T/rnd.trace" >"$T/rnd.json" ||
	fail "trace dump of rnd failed"
python3 - "$T/rnd.json" 3 4 50 <<'EOF' || fail "random: per-rank counts"
import collections, json, sys
path, m, iters, ranks = sys.argv[1], *map(int, sys.argv[2:])
sent = collections.Counter()
recv = collections.Counter()
it = {}
for line in open(path):
    s = json.loads(line)
    for mk in s["markers"]:
        if mk["kind"] == "iter":
            it[s["pe"]] = mk["value"]
    k = it.get(s["pe"])
    for x in s["sends"]:
        if x["dst"] == s["pe"]:
            sys.exit("PE %d sends to itself" % s["pe"])
        sent[s["pe"], k] += 1
    for w in s["waits"]:
        recv[s["pe"], k] += 1
bad = [(key, sent[key], recv[key]) for key in
       [(p, k) for p in range(ranks) for k in range(iters)]
       if sent[key] != m or recv[key] != m]
if bad:
    sys.exit("rank/iteration with sends/receives != %d: %s" % (m, bad[:5]))
EOF

# Markers: one iteration mark per rank and iteration, one skip point each.
checks=$((checks + 1))
marks=$("$SIBYL" trace stats --json "$T/ring.trace" | python3 -c '
import json, sys
m = json.load(sys.stdin)["markers"]
print(m["iter"], m["skip_start"], m["skip_end"])')
[ "$marks" = "28 7 7" ] || fail "ring markers (iter, start, end): $marks"

# ----------------------------------------------------------- determinism
gen seed_a -p stencil3d -r 27 -i 3 --jitter 0.05 --seed 42
gen seed_b -p stencil3d -r 27 -i 3 --jitter 0.05 --seed 42
gen seed_c -p stencil3d -r 27 -i 3 --jitter 0.05 --seed 43
checks=$((checks + 1))
cmp -s "$T/seed_a.trace/proc-000000.sdat" "$T/seed_b.trace/proc-000000.sdat" ||
	fail "same seed gave different data files"
checks=$((checks + 1))
cmp -s "$T/seed_a.trace/proc-000000.sdat" "$T/seed_c.trace/proc-000000.sdat" &&
	fail "different seeds gave identical data files (with jitter)"
gen rs_a -p random -r 40 -i 2 --seed 1
gen rs_b -p random -r 40 -i 2 --seed 2
checks=$((checks + 1))
cmp -s "$T/rs_a.trace/proc-000000.sdat" "$T/rs_b.trace/proc-000000.sdat" &&
	fail "random traffic did not depend on the seed"

# ------------------------------------------------------------ --procs
gen procs1 -p kneighbor -r 37 -i 3 --allreduce --jitter 0.02 --procs 1
gen procs3 -p kneighbor -r 37 -i 3 --allreduce --jitter 0.02 --procs 3
checks=$((checks + 1))
n=$(ls "$T/procs3.trace" | grep -c '^proc-.*\.sdat$')
[ "$n" -eq 3 ] || fail "--procs 3 wrote $n data files"
checks=$((checks + 1))
t1=$(totals procs1 | cut -d' ' -f1,2)
t3=$(totals procs3 | cut -d' ' -f1,2)
[ "$t1" = "$t3" ] || fail "--procs 3 totals '$t3' differ from --procs 1 '$t1'"
expect_ok "$SIBYL" trace check "$T/procs3.trace"
# Same SEBs, PE by PE.
"$SIBYL" trace dump --json "$T/procs1.trace" >"$T/procs1.dump"
"$SIBYL" trace dump --json "$T/procs3.trace" >"$T/procs3.dump"
checks=$((checks + 1))
cmp -s "$T/procs1.dump" "$T/procs3.dump" ||
	fail "--procs 3 content differs from --procs 1"

# Window size and compression level change the layout only.
gen win5 -p alltoall -r 9 -i 2 --window 5 --level 0
gen win64 -p alltoall -r 9 -i 2
"$SIBYL" trace dump --json "$T/win5.trace" >"$T/win5.dump"
"$SIBYL" trace dump --json "$T/win64.trace" >"$T/win64.dump"
checks=$((checks + 1))
cmp -s "$T/win5.dump" "$T/win64.dump" ||
	fail "--window 5 --level 0 content differs from the defaults"

# ----------------------------------------------------------- the manifest
expect_grep '^generator = sibyl trace gen$' "$T/kn_ar.trace/MANIFEST"
expect_grep '^gen.pattern = kneighbor$' "$T/kn_ar.trace/MANIFEST"
expect_grep '^gen.allreduce = 1$' "$T/kn_ar.trace/MANIFEST"
expect_grep '^gen.seed = 9$' "$T/rnd.trace/MANIFEST"
expect_grep '^gen.fanout = 3$' "$T/rnd.trace/MANIFEST"
expect_grep '^gen.jitter = 0.05$' "$T/rnd.trace/MANIFEST"

# ------------------------------------------------------------ the CLI
expect_ok "$SIBYL" trace gen --list
for p in pingpong ring kneighbor stencil3d alltoall allreduce random; do
	expect_grep "^  $p " "$T/out"
done
expect_ok "$SIBYL" trace gen --help
expect_grep '^Usage: sibyl trace gen' "$T/out"

# Bad parameters: exit 2, a message, and no output.
bad() {
	rm -rf "$T/bad.trace"
	expect_exit 2 "$SIBYL" trace gen -q -o "$T/bad.trace" "$@"
	expect_grep "$msg" "$T/err"
	checks=$((checks + 1))
	[ ! -e "$T/bad.trace" ] || fail "'$*' left $T/bad.trace behind"
}
msg='X\*Y\*Z must equal'; bad -p stencil3d -r 64 --grid 4,4,5
msg='must be even'; bad -p pingpong -r 5
msg='at least 2 ranks'; bad -p ring -r 1
msg='at least 2 ranks'; bad -p alltoall -r 1
msg='at most 3'; bad -p kneighbor -r 4 -k 4
msg='only to stencil3d'; bad -p ring -r 8 --grid 2,2,2
msg='only to kneighbor'; bad -p allreduce -r 8 --allreduce
msg='unknown pattern'; bad -p spiral -r 8
msg='--ranks is required'; bad -p ring
msg='--pattern is required'; bad -r 8
msg='between 0 and 1'; bad -p ring -r 8 --jitter 2
msg='exceeds --ranks'; bad -p ring -r 4 --procs 5
msg='less than --iters'; bad -p ring -r 4 -i 3 --warmup 3
msg='out of range'; bad -p ring -r 4 --level 12
msg='either it or'; bad -p stencil3d -r 8 --block 4,4,4 --face-bytes 1k
msg='not three'; bad -p stencil3d -r 8 --grid 2,4

# An existing trace is kept unless --force; --force replaces it.
expect_exit 2 "$SIBYL" trace gen -q -p ring -r 5 -o "$T/ring.trace"
expect_grep 'already exists' "$T/err"
expect_grep '^npes = 7$' "$T/ring.trace/MANIFEST"
expect_ok "$SIBYL" trace gen -q -p ring -r 5 -o "$T/ring.trace" --force
expect_grep '^npes = 5$' "$T/ring.trace/MANIFEST"
# ... but --force never replaces a directory that is not a trace.
mkdir -p "$T/notrace" && echo keep >"$T/notrace/data.txt"
expect_exit 2 "$SIBYL" trace gen -q -p ring -r 5 -o "$T/notrace" --force
checks=$((checks + 1))
[ -f "$T/notrace/data.txt" ] || fail "--force removed a non-trace directory"
checks=$((checks + 1))
ls -d "$T"/*.partial-* >/dev/null 2>&1 && fail "temporary output left behind"

# The summary names what was written.
rm -rf "$T/sum.trace"
expect_ok "$SIBYL" trace gen -p stencil3d -r 8 -i 2 -o "$T/sum.trace"
expect_grep 'SEBs +40' "$T/out"
expect_grep 'messages +96' "$T/out"
expect_grep 'peak RSS' "$T/out"

finish
