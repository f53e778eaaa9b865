#!/bin/sh
# gen_traffic.sh -- the network traffic patterns of `sibyl trace gen':
# node-level ping-pong (pingpong --pairs), all-to-all in groups with the
# pairwise, xor, percs and linear orders, and the permutations shift,
# bitrev, bitcomp and transpose (docs/trace-tools.md).
#
# Every trace is checked, its totals compared with the documented
# formulas, the sends and waits of every SEB compared with the pattern's
# definition (recomputed here from the definition, the waits by matching
# every send globally), a few destinations with hand-computed values, and
# the simulated time on the simple model with L + X(n) per phase.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

# totals NAME: "SEBS MESSAGES GEN_SEBS GEN_MESSAGES".
totals() {
	"$SIBYL" trace info --json "$T/$1.trace" | python3 -c '
import json, sys
d = json.load(sys.stdin)
m = d["manifest"]
print(d["totals"]["sebs"], d["totals"]["messages"], m["gen.sebs"],
      m["gen.messages"])'
}

# expect_counts NAME SEBS MESSAGES: on disk and in the manifest; valid.
expect_counts() {
	checks=$((checks + 1))
	got=$(totals "$1")
	[ "$got" = "$2 $3 $2 $3" ] ||
		fail "$1: SEBs/messages (disk, manifest) '$got', expected $2/$3"
	expect_ok "$SIBYL" trace check "$T/$1.trace"
	expect_grep "valid" "$T/out"
}

# verify NAME SPEC...: every SEB of every rank against the definition.
#   perm KIND R I [K]        shift, bitrev, bitcomp, transpose
#   a2a ORDER R G C I        alltoall (C: node size, percs only)
#   pp R C I A:B...          pingpong --node-size C --pairs A:B,...
verify() {
	name=$1; shift
	checks=$((checks + 1))
	"$SIBYL" trace dump --json "$T/$name.trace" >"$T/$name.json" ||
		fail "trace dump of $name failed"
	python3 - "$T/$name.json" "$@" <<'EOF' || fail "$name: $*"
import collections, json, sys

path, kind, args = sys.argv[1], sys.argv[2], sys.argv[3:]

def bits_of(r):
    b = r.bit_length() - 1
    assert 1 << b == r
    return b

# plan(p): one iteration of rank p as [(SEB name, [destinations])];
# slot(p, e): the SEB (index in the iteration) of the receiver that waits
# for what SEB e of p sends.
if kind == "perm":
    what, R, I = args[0], int(args[1]), int(args[2])
    if what == "shift":
        K = int(args[3])
        dst = lambda p: (p + K) % R
    elif what == "bitrev":
        b = bits_of(R)
        dst = lambda p: int(format(p, "0%db" % b)[::-1], 2)
    elif what == "bitcomp":
        b = bits_of(R)
        dst = lambda p: R - 1 - p
    else:
        n = int(round(R ** 0.5))
        dst = lambda p: (p % n) * n + p // n
    plan = lambda p: [("compute", [dst(p)] if dst(p) != p else []),
                      ("perm_wait", [])]
    slot = lambda p, e: e + 1
elif kind == "a2a":
    order, R, G, C, I = args[0], *map(int, args[1:])
    def phases(p):
        base, r = p - p % G, p % G
        if order == "pairwise":
            ph = [[(r + s) % G] for s in range(1, G)]
        elif order == "xor":
            ph = [[r ^ s] for s in range(1, G)]
        elif order == "linear":
            ph = [[d for d in range(G) if d != r]]
        else:   # thesis 9.1: phase i, core j -> node (j+i) mod n
            n, a, j = G // C, r // C, r % C
            ph = [[d for d in (((j + i) % n) * C + (j + k) % C
                               for k in range(C)) if d != r]
                  for i in range(n)]
        return [[base + d for d in x] for x in ph]
    def plan(p):
        ph = phases(p)
        return ([("compute", ph[0])] +
                [("alltoall_phase", x) for x in ph[1:]] +
                [("alltoall_wait", [])])
    slot = lambda p, e: e + 1
else:
    R, C, I = map(int, args[:3])
    peer, ping = {}, {}
    for pr in args[3:]:
        a, b = (int(x) * C for x in pr.split(":"))
        peer[a], peer[b], ping[a], ping[b] = b, a, True, False
    def plan(p):
        if p not in peer:
            return [("compute", [])]
        if ping[p]:
            return [("compute", [peer[p]]), ("pong_wait", [])]
        return [("ping_wait", []), ("compute", [peer[p]])]
    slot = lambda p, e: 0 if ping[p] else 1

sebs = collections.defaultdict(list)
for line in open(path):
    s = json.loads(line)
    sebs[s["pe"]].append(s)
if sorted(sebs) != list(range(R)):
    sys.exit("PEs %s, expected 0..%d" % (sorted(sebs)[:8], R - 1))

# Expected waits, from every send of every rank.
waits = collections.defaultdict(list)
for p in range(R):
    pl, seq = plan(p), 0
    for k in range(I):
        for e, (_, dsts) in enumerate(pl):
            for d in dsts:
                waits[d, k * len(plan(d)) + slot(p, e)].append((p, seq))
                seq += 1
for p in range(R):
    pl = plan(p)
    want = [x for k in range(I) for x in pl] + [("finalize", [])]
    got = sebs[p]
    if len(got) != len(want):
        sys.exit("PE %d: %d SEBs, expected %d" % (p, len(got), len(want)))
    seq = 0
    for i, (s, (nm, dsts)) in enumerate(zip(got, want)):
        if s["name"] != nm:
            sys.exit("PE %d SEB %d: %s, expected %s" % (p, i, s["name"], nm))
        gd = [x["dst"] for x in s["sends"]]
        if gd != dsts:
            sys.exit("PE %d SEB %d sends to %s, expected %s" % (p, i, gd, dsts))
        if [x["seq"] for x in s["sends"]] != list(range(seq, seq + len(gd))):
            sys.exit("PE %d SEB %d: sequence numbers" % (p, i))
        seq += len(gd)
        gw = sorted((w["src"], w["seq"]) for w in s["waits"])
        if gw != sorted(waits[p, i]):
            sys.exit("PE %d SEB %d waits for %s, expected %s" %
                     (p, i, gw, sorted(waits[p, i])))
EOF
}

# sends NAME PE SEB: the destinations of one SEB, blank-separated, from
# the dump that verify wrote.
sends() {
	grep "^{\"pe\":$2,\"seb\":$3," "$T/$1.json" | grep -o '"dst":[0-9]*' |
		sed 's/.*://' | tr '\n' ' ' | sed 's/ $//'
}

# expect_sends NAME PE SEB "DSTS": hand-computed destinations.
expect_sends() {
	expect_eq "$(sends "$1" "$2" "$3")" "$4" "$1: PE $2 SEB $3 destinations"
}

# ---------------------------------------------------------- permutations
# R ranks, I iterations, F fixed points: (R-F)*I messages, R*(2I+1) SEBs.
gen shift -p shift -r 10 --shift 3 -i 2
expect_counts shift 50 20
verify shift perm shift 10 2 3
expect_sends shift 8 0 "1"
expect_sends shift 2 0 "5"
expect_grep '^gen.shift = 3$' "$T/shift.trace/MANIFEST"
# The default shift is 1.
gen shift1 -p shift -r 5 -i 1
verify shift1 perm shift 5 1 1

# 16 = 2^4: the palindromes 0000, 0110, 1001, 1111 map to themselves.
gen bitrev -p bitrev -r 16 -i 3
expect_counts bitrev 112 36
verify bitrev perm bitrev 16 3
expect_sends bitrev 1 0 "8"         # 0001 -> 1000
expect_sends bitrev 3 0 "12"        # 0011 -> 1100
expect_sends bitrev 11 0 "13"       # 1011 -> 1101
expect_sends bitrev 6 0 ""          # 0110: fixed, no message
expect_sends bitrev 9 0 ""
# 32 = 2^5: 2^3 palindromes.
gen bitrev32 -p bitrev -r 32 -i 1
expect_counts bitrev32 96 24
verify bitrev32 perm bitrev 32 1

gen bitcomp -p bitcomp -r 8 -i 2
expect_counts bitcomp 40 16
verify bitcomp perm bitcomp 8 2
expect_sends bitcomp 0 0 "7"
expect_sends bitcomp 5 0 "2"

# 16 = 4x4: (i, j) -> (j, i); the 4 diagonal ranks send nothing.
gen transpose -p transpose -r 16 -i 2
expect_counts transpose 80 24
verify transpose perm transpose 16 2
expect_sends transpose 1 0 "4"
expect_sends transpose 7 0 "13"
expect_sends transpose 14 0 "11"
expect_sends transpose 5 0 ""
gen transpose9 -p transpose -r 9 -i 1
verify transpose9 perm transpose 9 1

# ------------------------------------------------------------- alltoall
# Groups of G, P phases: R*(G-1)*I messages, R*((P+1)*I+1) SEBs.
# Figure 9.2 of the thesis: 16 tasks as 4 nodes x 4 cores; in phase 0 core
# j of every node sends to the cores of node j, starting with core j.
gen percs16 -p alltoall -r 16 --order percs --node-size 4 -i 2 -c 0
expect_counts percs16 176 480
verify percs16 a2a percs 16 16 4 2
expect_sends percs16 0 0 "1 2 3"            # node 0, core 0 -> node 0
expect_sends percs16 4 0 "0 1 2 3"          # node 1, core 0 -> node 0
expect_sends percs16 9 0 "5 6 7 4"          # node 2, core 1 -> node 1
expect_sends percs16 14 0 "10 11 8 9"       # node 3, core 2 -> node 2
expect_sends percs16 5 0 "6 7 4"            # node 1, core 1 -> own node
expect_sends percs16 15 0 "12 13 14"        # node 3, core 3 -> own node
expect_sends percs16 14 2 "2 3 0 1"         # phase 2: (2+2) mod 4 = 0
expect_grep '^gen.order = percs$' "$T/percs16.trace/MANIFEST"
expect_grep '^gen.node_size = 4$' "$T/percs16.trace/MANIFEST"
# A PERCS-like shape with fewer cores than nodes, and with more.
gen percs_a -p alltoall -r 24 --group 8 --order percs --node-size 2 -i 2
expect_counts percs_a 264 336
verify percs_a a2a percs 24 8 2 2
gen percs_b -p alltoall -r 24 --group 12 --order percs --node-size 6 -i 1
expect_counts percs_b 96 264
verify percs_b a2a percs 24 12 6 1
gen percs_c -p alltoall -r 6 --order percs --node-size 1 -i 1
verify percs_c a2a percs 6 6 1 1

gen pair12 -p alltoall -r 12 --group 4 -i 2
expect_counts pair12 108 72
verify pair12 a2a pairwise 12 4 0 2
expect_sends pair12 9 1 "11"     # group 8..11, rank 1, step 2 -> 3
expect_grep '^gen.group = 4$' "$T/pair12.trace/MANIFEST"
gen xor16 -p alltoall -r 16 --group 8 --order xor -i 1
expect_counts xor16 144 112
verify xor16 a2a xor 16 8 0 1
expect_sends xor16 13 2 "14"     # group 8..15, rank 5 xor 3 = 6
gen lin12 -p alltoall -r 12 --group 6 --order linear -i 2
expect_counts lin12 60 120
verify lin12 a2a linear 12 6 0 2
expect_sends lin12 8 0 "6 7 9 10 11"

# The defaults are the original pairwise pattern, byte for byte.
gen a2a_def -p alltoall -r 9 -i 2 --jitter 0.1
gen a2a_exp -p alltoall -r 9 -i 2 --jitter 0.1 --group 9 --order pairwise
checks=$((checks + 1))
cmp -s "$T/a2a_def.trace/proc-000000.sdat" \
	"$T/a2a_exp.trace/proc-000000.sdat" ||
	fail "--group R --order pairwise differs from the default alltoall"
verify a2a_def a2a pairwise 9 9 0 2

# -------------------------------------------------- node-level ping-pong
# Nodes of 4 ranks; nodes 0:3 and 2:1 bounce between their first ranks
# (0 with 12, 8 with 4); 12 idle ranks.  SEBs R*(I+1) + 2*NP*I.
gen npp -p pingpong -r 16 --node-size 4 --pairs 0:3,2:1 -i 3
expect_counts npp 76 12
verify npp pp 16 4 3 0:3 2:1
expect_sends npp 0 0 "12"
expect_sends npp 8 0 "4"
expect_sends npp 4 1 "8"
expect_sends npp 1 0 ""
expect_grep '^gen.pairs = 0:3,2:1$' "$T/npp.trace/MANIFEST"
expect_grep '^gen.node_size = 4$' "$T/npp.trace/MANIFEST"
# Without --node-size the pairs are ranks; the last node may be partial.
gen rpp -p pingpong -r 7 --pairs 6:1 -i 2
verify rpp pp 7 1 2 6:1
gen ppart -p pingpong -r 10 --node-size 4 --pairs 2:0 -i 1
verify ppart pp 10 4 1 2:0

# ------------------------------------------------------ the simple model
# Compute 0: each phase or bounce is L + X(n) on the simple model, which
# has no contention.
L=700000 B=3000000000 N=4096
X=$(xfer $N $B)
LX=$((L + X))
net="--set net.latency=${L}ps --set net.bandwidth=${B}B/s"
gen sh1 -p shift -r 8 --shift 3 -i 1 -s $N
expect_time $LX "k-shift, one iteration" sh1 $net
gen sh3 -p shift -r 8 --shift 5 -i 3 -s $N
expect_time $((3 * LX)) "k-shift, three iterations" sh3 $net
expect_eq "$(jget "$T/last.sim/summary.json" messages.count)" 24 \
	"k-shift messages"
gen tr -p transpose -r 16 -i 1 -s $N
expect_time $LX "transpose" tr $net
expect_eq "$(jget "$T/last.sim/summary.json" messages.count)" 12 \
	"transpose messages (diagonal excluded)"
# All-to-all of 16: pairwise 15 phases, percs 4 (4 nodes), linear 1.
gen s_pw -p alltoall -r 16 -i 1 -c 0 -s $N
expect_time $((15 * LX)) "alltoall pairwise" s_pw $net
gen s_pc -p alltoall -r 16 --order percs --node-size 4 -i 1 -c 0 -s $N
expect_time $((4 * LX)) "alltoall percs" s_pc $net
gen s_ln -p alltoall -r 16 --order linear -i 1 -c 0 -s $N
expect_time $LX "alltoall linear" s_ln $net
# Groups of 4 in pairwise order: 3 phases.
gen s_g4 -p alltoall -r 16 --group 4 -i 2 -c 0 -s $N
expect_time $((2 * 3 * LX)) "alltoall in groups of 4" s_g4 $net
# Node-level ping-pong: the first ranks of nodes 1 and 3 of 4 cores; on a
# machine of 4 cores per node the messages cross the network.
gen s_pp -p pingpong -r 16 --node-size 4 --pairs 1:3 -i 5 -s $N
expect_time $((5 * 2 * LX)) "node ping-pong" s_pp $net \
	--set machine.cores_per_node=4
expect_eq "$(jget "$T/last.sim/summary.json" messages.network)" 10 \
	"node ping-pong network messages"

# ----------------------------------------------------------------- errors
# Each line: the expected message (an extended regex), then the arguments.
# Exit 2, the message, and no output.
while IFS='|' read -r msg args; do
	rm -rf "$T/bad.trace"
	# shellcheck disable=SC2086 # the arguments are words
	expect_exit 2 "$SIBYL" trace gen -q -o "$T/bad.trace" $args
	expect_grep "$msg" "$T/err"
	checks=$((checks + 1))
	[ ! -e "$T/bad.trace" ] || fail "'$args' left $T/bad.trace behind"
done <<'EOF'
power of two >= 2 \(got 12\)|-p bitrev -r 12
power of two >= 2 \(got 1\)|-p bitcomp -r 1
square number of ranks.*got 12.*9 and 16|-p transpose -r 12
square number|-p transpose -r 1
--shift 8 must be below --ranks 8|-p shift -r 8 --shift 8
--shift: 0 is out of range|-p shift -r 8 --shift 0
--group 5 does not divide --ranks 16|-p alltoall -r 16 --group 5
--group 1 does not divide|-p alltoall -r 16 --group 1
--node-size 5 does not divide the group of 12|-p alltoall -r 24 --group 12 --order percs --node-size 5
--order percs needs --node-size|-p alltoall -r 16 --order percs
shapes only --order percs|-p alltoall -r 16 --order linear --node-size 4
--order xor needs a power-of-two group, got 12|-p alltoall -r 12 --order xor
unknown order 'spiral'|-p alltoall -r 16 --order spiral
node 4 does not exist.*nodes 0 to 3|-p pingpong -r 16 --node-size 4 --pairs 0:4
node 9 does not exist|-p pingpong -r 8 --pairs 9:1
cannot ping-pong with itself|-p pingpong -r 16 --pairs 2:2
node 1 is in two pairs|-p pingpong -r 16 --pairs 0:1,1:2
not a list of node pairs|-p pingpong -r 16 --pairs 0:1,
not a list of node pairs|-p pingpong -r 16 --pairs 0-1
not a list of node pairs|-p pingpong -r 16 --pairs 0:1:2
exceeds --ranks|-p pingpong -r 4 --node-size 8 --pairs 0:1
--node-size gives the nodes that --pairs|-p pingpong -r 16 --node-size 4
--shift does not apply to pattern ring \(only to shift\)|-p ring -r 8 --shift 2
--node-size does not apply.*only to pingpong, alltoall|-p bitrev -r 8 --node-size 2
--group/--order does not apply to pattern transpose|-p transpose -r 16 --group 4
EOF

# --list shows the new patterns and options.
expect_ok "$SIBYL" trace gen --list
for p in shift bitrev bitcomp transpose; do
	expect_grep "^  $p " "$T/out"
done
expect_grep 'options: --node-size C, --group G, --order O' "$T/out"
expect_grep 'options: --pairs A:B,..., --node-size C' "$T/out"

finish
