# net_compare.sh -- one trace under the simple, torus and percs models:
# results ordered as their bottlenecks predict.
#
# Trace: a k-shift with k = 1 among 64 ranks, one rank per node, one
# message of n = 64 KiB each (rank r sends to r + 1 mod 64).  No link
# carries two messages in any model (checked below), so each message
# runs at the pace of the slowest stage on its route:
#   simple  10 GB/s "wire", no topology:      L + n / 10 GB/s exactly
#   percs   2 supernodes; the slowest hop of a route is an LR link
#           (5 GB/s, nodes 7 -> 8, 15 -> 16, ...) or the D link
#           (10 GB/s, 31 -> 32); QCM-Hub channels 4 x 24 GB/s
#   torus   4x4x4, 2 GB/s links (and 10 x 2 GB/s channels)
# so simple < percs < torus.  Each time is checked to the picosecond
# against the model's formula for its slowest route.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

n=65536
gen shift -p shift --shift 1 -r 64 -s $n -i 1 -c 0

run() {
	rm -rf "$T/$1.sim"
	m=$1; shift
	expect_ok "$SIBYL" sim -q -o "$T/$m.sim" "$T/shift.trace" \
		--set net.model=$m "$@"
	jget "$T/$m.sim/summary.json" predicted_time_ps
}

ts=$(run simple)
tp=$(run percs)
tt=$(run torus --set net.dims=4x4x4)

# simple: exactly L + X(n, 10 GB/s).
expect_eq "$ts" $((1000000 + $(xfer $n 10000000000))) "simple: L + n/B"

# percs (netmodels/percs.md, Timing): 32 packets of b = 2 KiB; the
# slowest route is 63 -> 0: LR to the D-link hub of supernode 1 (node 32),
# D to node 1, LL to node 0; paced by its LR link.
b=2048
X() { xfer $b $1; }
first=$((500000 + $(X 24000000000) + 10000 +
	$(X 5000000000) + 25000 + 10000 +
	$(X 10000000000) + 100000 + 10000 +
	$(X 24000000000) + 5000 + 10000 +
	$(X 24000000000) + 200000))
expect_eq "$tp" $((first + 31 * $(X 5000000000))) \
	"percs: LR-D-LL route of 63 -> 0, 32 packets paced by the LR link"
# torus (netmodels/torus.md): 128 packets of 512 + 32 header bytes; the
# slowest route is 63 -> 0 = (3,3,3) -> (0,0,0): one wrap-around hop in
# each of x, y, z; paced by the 2 GB/s links (ten 2 GB/s injection
# channels take the packets in turn, so they are not the bottleneck).
b=544
first=$((100000 + $(X 2000000000) + 35000 +
	3 * ($(X 2000000000) + 5000 + 35000) +
	$(X 2000000000) + 100000))
expect_eq "$tt" $((first + 127 * $(X 2000000000))) \
	"torus: 3-hop route of 63 -> 0, 128 packets paced by the links"

checks=$((checks + 1))
[ "$ts" -lt "$tp" ] && [ "$tp" -lt "$tt" ] ||
	fail "expected simple < percs < torus, got $ts, $tp, $tt ps"

# No contention: every link that carried bytes carried exactly one
# message (link bytes are wire bytes: torus packets add their header).
for m in percs torus; do
	case $m in
	percs) want=$n ;;
	torus) want=$((n + 128 * 32)) ;;
	esac
	bad=$(python3 -c '
import csv, sys
rows = csv.DictReader(open(sys.argv[1]))
print(sum(1 for r in rows if r["class"] not in ("inject", "eject")
	  and r["bytes"] != "0" and r["bytes"] != sys.argv[2]))
' "$T/$m.sim/links.csv" $want)
	expect_eq "$bad" 0 "$m: links with other than one message"
done
# Hops: percs routes 56 messages over 1 link (LL or LR) and the 31 -> 32
# and 63 -> 0 messages over L-D-L or fewer; the torus k-shift crosses
# one x link, or x and y at the end of a row, or x, y and z at the end of
# a plane: 48 + 2 * 12 + 3 * 4 = 84 hops per packet set.
expect_eq "$(jget "$T/torus.sim/summary.json" network.hops)" \
	$((84 * 128)) "torus hops (128 packets per message)"

finish
