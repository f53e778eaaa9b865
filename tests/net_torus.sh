#!/bin/sh
# net_torus.sh -- `sibyl sim' with net.model = torus, end to end.
#
# Expected times are computed here from the formula of
# netmodels/torus.md with the model's defaults: links B = 2 GB/s and
# Lw = 5 ns, routers Lr = 35 ns, injection and ejection at 2 GB/s with
# 100 ns latencies, packets of 512 payload + 32 header bytes.  One
# packet of b wire bytes over h links takes
#   T1(b, h) = Li + X(b) + Lr + h (X(b) + Lw + Lr) + X(b) + Le
# with X(b) = ceil(b 10^12 / B); every stage runs at 2 GB/s.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

BW=2000000000 LW=5000 LR=35000 LI=100000 LE=100000
X() { xfer "$1" $BW; }
T1() { echo $((LI + $(X "$1") + LR + $2 * ($(X "$1") + LW + LR) + \
	$(X "$1") + LE)); }

torus() { echo --set net.model=torus "$@"; }

# ---------------------------------------------- one message, exactly
# Ping-pong between rank 0 on node 0 = (0,0,0) and rank 1 on node 42 =
# (2,2,2) of a 4x4x4 torus: 2 hops in each dimension, ties taken in +,
# so 6 hops each way.  An iteration is two such messages.
printf '# rank node\n0 0\n1 42\n' >"$T/far.map"
far="--set machine.nodes=64 --set machine.map=$T/far.map"
gen pp -p pingpong -r 2 -i 3 -s 100
expect_time $((3 * 2 * $(T1 132 6))) "one packet, 6 hops" pp \
	$(torus --set net.dims=4x4x4) $far
s=$T/last.sim/summary.json
expect_eq "$(jget "$s" network.hops)" 36 "hops of 6 one-packet messages"
expect_eq "$(jget "$s" network.packets)" 6 "packets"
expect_eq "$(jget "$s" network.queue_ps)" 0 "no queueing"
# Events: per message 8 transmissions (injection, 6 links, ejection)
# and the wake-up after its inject latency.
expect_eq "$(jget "$s" network.events)" 54 "network events"

# 0 bytes: a packet of header bytes.  Rank order puts rank 1 on node 1,
# one hop away.
gen pp0 -p pingpong -r 2 -i 2 -s 0
expect_time $((2 * 2 * $(T1 32 1))) "empty message, 1 hop" pp0 \
	$(torus --set net.dims=4x4x4)

# 5000 bytes: 10 packets, 9 full (544 wire bytes) and one of 392 + 32.
# With one injection and one ejection channel the packets pipeline at
# the pace of a full packet and the last one waits behind its full
# predecessor at every stage:  T1(544) + 8 X(544) + X(424).
gen pp5 -p pingpong -r 2 -i 3 -s 5000
XF=$(X 544) XL=$(X 424)
expect_time $((3 * 2 * ($(T1 544 6) + 8 * XF + XL))) "10 packets, 1 channel" \
	pp5 $(torus --set net.dims=4x4x4 --set net.inject_channels=1 \
	--set net.eject_channels=1) $far
# With the default 10 channels the last packet need not wait behind the
# one before it at the ejection: T1(544) + 7 X(544) + 2 X(424).
expect_time $((3 * 2 * ($(T1 544 6) + 7 * XF + 2 * XL))) \
	"10 packets, 10 channels" pp5 $(torus --set net.dims=4x4x4) $far
s=$T/last.sim/summary.json
expect_eq "$(jget "$s" network.hops)" $((6 * 10 * 6)) "hops of 6 x 10 packets"

# The same through a configuration file, with the parameters spelled out.
cat >"$T/torus.conf" <<EOF
[net]
model = torus
dims = 4x4x4
wrap = yes
routing = dor
link_bandwidth = 4GB/s
link_latency = 10ns
router_latency = 20ns
packet_size = 1KiB
header = 16
inject_latency = 50ns
inject_channels = 1
inject_bandwidth = 4GB/s
eject_channels = 1
eject_bandwidth = 4GB/s
eject_latency = 70ns
EOF
# 5000 bytes: 5 packets, 4 of 1040 wire bytes, the last of 904 + 16.
x4() { xfer "$1" 4000000000; }
one=$((50000 + $(x4 1040) + 20000 + 6 * ($(x4 1040) + 10000 + 20000) + \
	$(x4 1040) + 70000 + 3 * $(x4 1040) + $(x4 920)))
expect_time $((3 * 2 * one)) "configuration file" pp5 -c "$T/torus.conf" $far

# --------------------------------------------- ordered, and explained
# Ring, one iteration, 16 ranks on a 1D torus of 16: every message goes
# one hop, so the run is c + T1(132, 1).  On a mesh (no wrap-around) the
# message from rank 15 to rank 0 crosses all 15 links: c + T1(132, 15).
gen ring -p ring -r 16 -i 1 -c 2us -s 100
expect_time $((2000000 + $(T1 132 1))) "ring on a torus" ring \
	$(torus --set net.dims=16)
expect_time $((2000000 + $(T1 132 15))) "ring on a mesh" ring \
	$(torus --set net.dims=16 --set net.wrap=no)

# All-to-all on 16 ranks (pairwise exchange, 15 phases, each waiting for
# the previous one).  `simple' with L = T1(132, 1) - X(100) and the same
# bandwidth gives every message the time of a one-hop torus message and
# has no contention: exactly c + 15 T1(132, 1).  On the 4x4 torus most
# phases need two or more hops and share links, so it is slower.
gen a2a -p alltoall -r 16 -i 1 -c 1us -s 100
L=$(($(T1 132 1) - $(X 100)))
expect_time $((1000000 + 15 * $(T1 132 1))) "all-to-all, simple" a2a \
	--set net.latency=${L}ps --set net.bandwidth=2GB/s
t_simple=$(jget "$T/last.sim/summary.json" predicted_time_ps)
expect_ok "$SIBYL" sim -q -o "$T/a2a.torus" "$T/a2a.trace" \
	$(torus --set net.dims=4x4)
t_torus=$(jget "$T/a2a.torus/summary.json" predicted_time_ps)
checks=$((checks + 1))
[ "$t_torus" -gt "$t_simple" ] ||
	fail "all-to-all: torus $t_torus ps not slower than simple $t_simple ps"

# One-packet buffers slow a stream of packets (a credit comes back one
# round trip after its packet left), so large messages take longer than
# with unbounded buffers; minimal adaptive routing crosses as many links
# as dimension order.
gen a2ab -p alltoall -r 16 -i 1 -c 1us -s 20KiB
expect_ok "$SIBYL" sim -q -o "$T/b0" "$T/a2ab.trace" $(torus --set net.dims=4x4)
expect_ok "$SIBYL" sim -q -o "$T/b1" "$T/a2ab.trace" \
	$(torus --set net.dims=4x4 --set net.buffer_packets=1)
expect_ok "$SIBYL" sim -q -o "$T/ad" "$T/a2ab.trace" \
	$(torus --set net.dims=4x4 --set net.routing=adaptive)
t0=$(jget "$T/b0/summary.json" predicted_time_ps)
t1=$(jget "$T/b1/summary.json" predicted_time_ps)
checks=$((checks + 1))
[ "$t1" -gt "$t0" ] ||
	fail "one-packet buffers: $t1 ps not slower than unbounded $t0 ps"
expect_eq "$(jget "$T/ad/summary.json" network.hops)" \
	"$(jget "$T/b0/summary.json" network.hops)" "adaptive hops"
expect_eq "$(jget "$T/b1/summary.json" network.bytes)" \
	"$(jget "$T/b0/summary.json" network.bytes)" "bytes with buffers"

# ------------------------------------------------------ determinism
# The same run twice gives the same outputs, the simulator's own
# wall-clock line aside.
gen rnd -p random -r 64 -m 3 -i 2 -c 5us -s 3000 --seed 5
for i in 1 2; do
	expect_ok "$SIBYL" sim -q -o "$T/d$i" "$T/rnd.trace" \
		$(torus --set net.dims=4x4x4 --set net.routing=adaptive) \
		--link-trace 2us
	grep -v '"simulator"' "$T/d$i/summary.json" >"$T/d$i.json"
done
checks=$((checks + 1))
cmp -s "$T/d1.json" "$T/d2.json" || fail "summary.json differs run to run"
checks=$((checks + 1))
cmp -s "$T/d1/links.csv" "$T/d2/links.csv" || fail "links.csv differs"
checks=$((checks + 1))
cmp -s "$T/d1/linkseries.csv" "$T/d2/linkseries.csv" ||
	fail "linkseries.csv differs"

# Link statistics: every link's series adds up to its busy time, and the
# bytes entering the network are the bytes leaving it.
checks=$((checks + 1))
python3 - "$T/d1" >"$T/py.out" 2>&1 <<'EOF' || fail "link statistics: $(cat "$T/py.out")"
import csv, sys
d = sys.argv[1]
links = list(csv.DictReader(open(d + "/links.csv")))
busy = {}
for r in csv.DictReader(open(d + "/linkseries.csv")):
    busy[r["link"]] = busy.get(r["link"], 0) + int(r["busy_ps"])
for r in links:
    assert busy.get(r["link"], 0) == int(r["busy_ps"]), r
inj = sum(int(r["bytes"]) for r in links if r["class"] == "inject")
ej = sum(int(r["bytes"]) for r in links if r["class"] == "eject")
assert inj == ej > 0, (inj, ej)
classes = [r["class"] for r in links]
assert classes[:6 * 64] == [c for c in ("x+", "x-", "y+", "y-", "z+", "z-")
                            for _ in range(64)], "link order"
EOF

# ------------------------------------------------------------ errors
expect_exit 2 "$SIBYL" sim -q -o "$T/e1" "$T/pp.trace" \
	$(torus --set net.dims=8x8) --set machine.nodes=100
expect_grep "net.dims.*64 routers.*100 nodes.*5x5x4" "$T/err"
expect_exit 2 "$SIBYL" sim -q -o "$T/e2" "$T/pp.trace" \
	$(torus --set net.dims=8by8)
expect_grep "net.dims: '8by8' is not a list" "$T/err"
expect_exit 2 "$SIBYL" sim -q -o "$T/e3" "$T/pp.trace" \
	$(torus --set net.routing=adaptive --set net.buffer_packets=4)
expect_grep "net.routing = adaptive.*net.buffer_packets" "$T/err"
expect_exit 2 "$SIBYL" sim -q -o "$T/e4" "$T/pp.trace" \
	$(torus --set net.latency=1us)
expect_grep "net.latency" "$T/err"

finish
