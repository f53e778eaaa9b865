# sim_analytic.sh -- `sibyl sim' against closed-form predictions.
#
# Every expected time below is computed here, in integer picoseconds, from
# the parameters of the run and the documented semantics
# (fastsim/SEMANTICS.md, netmodels/README.md, docs/trace-tools.md for the
# shape of the generated patterns); nothing is copied from a simulator
# output.  Notation: L = net.latency, B = net.bandwidth (bytes/s),
# X(n) = ceil(n * 10^12 / B), c = the compute time of an iteration,
# I = iterations, IL/IB = intranode.latency/bandwidth.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

# ------------------------------------------------------------ ping-pong
# Two ranks, compute 0: an iteration is the ping and the pong, each
# L + X(n), so the run takes I * 2 * (L + X(n)) exactly.
pingpong_case() {   # L_ps B_per_s N ITERS
	gen pp -p pingpong -r 2 -i "$4" -s "$3"
	x=$(xfer "$3" "$2")
	expect_time $(($4 * 2 * ($1 + x))) "ping-pong L=$1 B=$2 n=$3" pp \
		--set net.latency="$1ps" --set net.bandwidth="$2B/s"
	# The summary counts what was sent.
	expect_eq "$(jget "$T/last.sim/summary.json" messages.count)" \
		$((2 * $4)) "ping-pong messages"
	expect_eq "$(jget "$T/last.sim/summary.json" messages.bytes)" \
		$((2 * $4 * $3)) "ping-pong bytes"
}
pingpong_case 1000000 10000000000 1024 5          # defaults, exact division
pingpong_case 1234567 3000000000 1000 3           # 333333.3 ps -> 333334
pingpong_case 0 1073741824 4096 2                 # 1 GiB/s: 3814697.27 -> ..698
pingpong_case 5000 7 3 1                          # 7 B/s: 428571428571.4 -> ..572
pingpong_case 999 10000000000 0 4                 # empty messages: latency only

# Units are read exactly: 1.5us and 1GiB/s as in the case above.
gen pp -p pingpong -r 2 -i 2 -s 4096
expect_time $((2 * 2 * (1500000 + 3814698))) "ping-pong in units" pp \
	--set net.latency=1.5us --set net.bandwidth=1GiB/s

# ---------------------------------------------------------------- ring
# Every rank: `compute' (c) sends to p+1 at its end (offset c), then
# `ring_wait' waits for the message of p-1.  All ranks are in step, so an
# iteration lasts c + L + X(n).
gen ring -p ring -r 5 -i 4 -c 2.5us -s 3001
X=$(xfer 3001 3000000000)                            # 1000333.3 -> 1000334
expect_time $((4 * (2500000 + 700000 + X))) "ring" ring \
	--set net.latency=700ns --set net.bandwidth=3GB/s
s=$T/last.sim/summary.json
expect_eq "$(jget "$s" pes.busy_ps.max)" $((4 * 2500000)) "ring busy max"
expect_eq "$(jget "$s" pes.busy_ps.min)" $((4 * 2500000)) "ring busy min"
expect_eq "$(jget "$s" pes.idle_ps.min)" $((4 * (700000 + X))) "ring idle"
expect_eq "$(jget "$s" sebs)" $((5 * (2 * 4 + 1))) "ring SEBs"
expect_eq "$(jget "$s" messages.network)" 20 "ring network messages"
expect_eq "$(jget "$s" messages.intranode)" 0 "ring intra-node messages"

# ------------------------------------------------------------ kneighbor
# `compute' (c) posts its 2K sends near its end: send j at offset
# c - (2K-1-j)*gg with gg = min(50ns, floor(c / 2K)); `halo_waitall'
# waits for the 2K messages addressed to the rank.
R=7 K=3 C=200000 N=2000
gen kn -p kneighbor -r $R -k $K -i 3 -c 200ns -s $N
GG=$((C / (2 * K))); [ $GG -gt 50000 ] && GG=50000     # 33333 ps
# The offsets of the trace are the ones assumed below.
checks=$((checks + 1))
offs=$("$SIBYL" trace dump --json --pe 3 --seb 0 "$T/kn.trace" |
	python3 -c 'import json,sys
print(" ".join(str(s["offset_ps"]) for s in json.loads(sys.stdin.readline())["sends"]))')
want=""
j=0
while [ $j -lt $((2 * K)) ]; do
	want="$want${want:+ }$((C - (2 * K - 1 - j) * GG))"
	j=$((j + 1))
done
[ "$offs" = "$want" ] || fail "kneighbor offsets '$offs', expected '$want'"
X=$(xfer $N 10000000000)                                  # 200 ns
# Plain model: the last send leaves at c, so an iteration is c + L + X.
expect_time $((3 * (C + 1000000 + X))) "kneighbor" kn
# A gap G > gg: the starts of a rank's sends are G apart, the last one at
# c - (2K-1)*gg + (2K-1)*G, so an iteration is c + (2K-1)(G-gg) + L + X.
G=100000
expect_time $((3 * (C + (2 * K - 1) * (G - GG) + 1000000 + X))) \
	"kneighbor, gap above the send spacing" kn --set net.g=100ns
# A gap below the spacing of the sends changes nothing.
expect_time $((3 * (C + 1000000 + X))) "kneighbor, gap below the spacing" \
	kn --set net.g=33333ps
# A serializing NIC (one rank per node): X > gg, so send j starts at
# c - (2K-1)*gg + j*X and an iteration is c - (2K-1)*gg + 2K*X + L.
expect_time $((3 * (C - (2 * K - 1) * GG + 2 * K * X + 1000000))) \
	"kneighbor, serializing NIC" kn --set net.nic=serialize
expect_eq "$(jget "$T/last.sim/summary.json" network.queue_ps)" \
	$((3 * R * (2 * K - 1) * K * (X - GG))) "kneighbor NIC queueing"

# kneighbor --allreduce, R = 8: the first message of the 8-byte recursive
# doubling leaves from `halo_waitall', when the halo has arrived; then
# log2(8) = 3 rounds of L + X(8).
gen kar -p kneighbor --allreduce -r 8 -k 2 -i 2 -c 3us -s 1000
expect_time $((2 * (3000000 + (1000000 + 100000) + 3 * (1000000 + 800)))) \
	"kneighbor --allreduce" kar

# ------------------------------------------------------------ allreduce
# Recursive doubling on P = 2^k ranks: compute, then log2(P) rounds, each
# a message of L + X(n) that the next round waits for.
for P in 2 8 16; do
	lg=0; q=$P
	while [ $q -gt 1 ]; do q=$((q / 2)); lg=$((lg + 1)); done
	gen ar -p allreduce -r $P -i 3 -s 64 -c 3us
	X=$(xfer 64 3000000000)                          # 21333.3 -> 21334
	expect_time $((3 * (3000000 + lg * (1000000 + X)))) "allreduce P=$P" \
		ar --set net.bandwidth=3GB/s
	expect_eq "$(jget "$T/last.sim/summary.json" messages.count)" \
		$((3 * P * lg)) "allreduce P=$P messages"
done

# ------------------------------------------------------ alltoall, stencil
# Pairwise alltoall: compute sends phase 1 at its end, each of the R-2
# `alltoall_phase' SEBs waits for the previous phase and sends the next:
# an iteration is c + (R-1) * (L + X).
gen a2a -p alltoall -r 5 -i 2 -c 1us -s 2500
expect_time $((2 * (1000000 + 4 * (1000000 + 250000)))) "alltoall" a2a
# stencil3d on one rank: the six faces go to the rank itself, through the
# intra-node model (same node): an iteration is c + IL + ceil(n / IB).
gen st1 -p stencil3d -r 1 -i 2 -c 1us -s 1000
expect_time $((2 * (1000000 + 200000 + 100000))) "stencil3d, 1 rank" st1
expect_eq "$(jget "$T/last.sim/summary.json" messages.intranode)" 12 \
	"stencil3d, 1 rank: messages to itself are intra-node"

# ------------------------------------------------------------------ NIC
# Ranks 0 and 1 share node 0 and both send n bytes at time 0 to ranks 2
# and 3 on node 1.  With a serializing NIC the second message starts when
# the first has left: it arrives at L + 2X instead of L + X.
craft nic <<'EOF'
npes 4
0 send 0 s:2:5000@0
1 send 0 s:3:5000@0
2 recv 0 w:0:0
3 recv 0 w:1:0
EOF
X=$(xfer 5000 10000000000)                                # 500 ns
expect_time $((1000000 + X)) "two senders, nic=none" nic \
	--set machine.cores_per_node=2 --set net.nic=none
expect_time $((1000000 + 2 * X)) "two senders, nic=serialize" nic \
	--set machine.cores_per_node=2 --set net.nic=serialize
expect_time $((2 * X)) "two senders, nic=serialize, L=0" nic \
	--set machine.cores_per_node=2 --set net.nic=serialize \
	--set net.latency=0
expect_eq "$(jget "$T/last.sim/summary.json" network.queue_ps)" "$X" \
	"NIC queueing time"
# The overhead o counts toward the NIC: the second message is ready at o,
# starts at o + X and arrives at o + X + L + X + o.
expect_time $((2 * 300000 + 1000000 + 2 * X)) "nic=serialize with o" nic \
	--set machine.cores_per_node=2 --set net.nic=serialize --set net.o=300ns
# One rank per node: two NICs, no waiting.
expect_time $((1000000 + X)) "one rank per node, nic=serialize" nic \
	--set net.nic=serialize

# Gap: one rank sends two messages at time 0; the second starts g later.
craft gap <<'EOF'
npes 3
0 send 0 s:1:5000@0 s:2:5000@0
1 recv 0 w:0:0
2 recv 0 w:0:1
EOF
expect_time $((1000000 + X)) "two sends, g=0" gap
expect_time $((700000 + 1000000 + X)) "two sends, g=700ns" gap \
	--set net.g=700ns

# ---------------------------------------- every parameter counts, exactly
# Ring of 4 ranks, c = 2us, n = 10000 bytes, 3 iterations; one rank per
# node unless said otherwise.  Plain: 3 * (c + L + X).
gen r4 -p ring -r 4 -i 3 -c 2us -s 10000
C=2000000 X=$(xfer 10000 10000000000)                     # 1 us
expect_time $((3 * (C + 1000000 + X))) "ring r4, defaults" r4
expect_time $((3 * (C + 2500000 + X))) "net.latency" r4 \
	--set net.latency=2.5us
expect_time $((3 * (C + 1000000 + $(xfer 10000 3000000000)))) \
	"net.bandwidth" r4 --set net.bandwidth=3GB/s
# Bits: 80Gb/s is 10GB/s.
expect_time $((3 * (C + 1000000 + X))) "net.bandwidth in bits" r4 \
	--set net.bandwidth=80Gb/s
# cpp * ceil(n / packet_size): 3 packets of 4KiB, 10 of 1000, 2 of 9999,
# 1 of 10000.
for pk in 4KiB:3 1000:10 9999:2 10000:1; do
	ps=${pk%%:*} np=${pk##*:}
	expect_time $((3 * (C + 1000000 + X + 7000 * np))) \
		"net.cpp, packet_size $ps" r4 --set net.cpp=7ns \
		--set net.packet_size="$ps"
	expect_eq "$(jget "$T/last.sim/summary.json" network.packets)" \
		$((12 * np)) "packets with packet_size $ps"
done
# packet_size alone (cpp = 0) changes nothing.
expect_time $((3 * (C + 1000000 + X))) "net.packet_size without cpp" r4 \
	--set net.packet_size=1000
# o: once at the sender, once at the receiver.
expect_time $((3 * (C + 1000000 + X + 2 * 123456))) "net.o" r4 \
	--set net.o=123456ps
# A gap shorter than an iteration changes nothing (one send per
# iteration); a gap longer than one spaces the sends by g, and the run
# takes the first send at c, the third at c + 2g, then L + X.
expect_time $((3 * (C + 1000000 + X))) "net.g below the period" r4 \
	--set net.g=1us
expect_time $((C + 2 * 10000000 + 1000000 + X)) "net.g above the period" \
	r4 --set net.g=10us
# nic=serialize with one rank per node and one send per node: no change.
expect_time $((3 * (C + 1000000 + X))) "net.nic, one sender per node" r4 \
	--set net.nic=serialize

# Intra-node copies: all four ranks on one node, every message costs
# IL + ceil(n / IB).
expect_time $((3 * (C + 200000 + X))) "one node, intranode defaults" r4 \
	--set machine.cores_per_node=4
expect_eq "$(jget "$T/last.sim/summary.json" messages.intranode)" 12 \
	"intra-node messages"
expect_eq "$(jget "$T/last.sim/summary.json" network.messages)" 0 \
	"network messages on one node"
expect_time $((3 * (C + 450000 + X))) "intranode.latency" r4 \
	--set machine.cores_per_node=4 --set intranode.latency=450ns
expect_time $((3 * (C + 200000 + $(xfer 10000 3000000000)))) \
	"intranode.bandwidth" r4 --set machine.cores_per_node=4 \
	--set intranode.bandwidth=3GB/s
# Net parameters do not touch intra-node messages.
expect_time $((3 * (C + 200000 + X))) "one node, net.latency ignored" r4 \
	--set machine.cores_per_node=4 --set net.latency=9us
# Two ranks per node: 0->1 and 2->3 are copies (a = IL + IX), 1->2 and
# 3->0 cross the network (b = L + X).  Rank p starts iteration k+1 at
# c + max(its own start of k, start of p-1 in k + edge into p), so the
# last rank ends at I*c + ceil(I/2)*b + floor(I/2)*a (b > a).
A=$((300000 + $(xfer 10000 20000000000))) Bn=$((1000000 + X))
expect_time $((3 * C + 2 * Bn + 1 * A)) "two ranks per node" r4 \
	--set machine.cores_per_node=2 --set intranode.latency=300ns \
	--set intranode.bandwidth=20GB/s
expect_eq "$(jget "$T/last.sim/summary.json" messages.intranode)" 6 \
	"two ranks per node: intra-node messages"
expect_eq "$(jget "$T/last.sim/summary.json" nnodes)" 2 \
	"two ranks per node: nodes"

# cpu.factor scales every compute exactly, rounding to nearest, halves up.
gen r4p -p ring -r 4 -i 3 -c 1001ps -s 10000
for f in 1/2:501 2/3:667 3:3003 0.25:250 1.5:1502; do
	fac=${f%%:*} cc=${f##*:}
	expect_time $((3 * (cc + 1000000 + X))) "cpu.factor $fac" r4p \
		--set cpu.factor="$fac"
	expect_eq "$(jget "$T/last.sim/summary.json" pes.busy_ps.max)" \
		$((3 * cc)) "busy time with cpu.factor $fac"
done
expect_time $((3 * (1502 + 1000000 + X))) "--cpu-factor" r4p \
	--cpu-factor 1.5

finish
