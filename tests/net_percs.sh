# net_percs.sh -- `sibyl sim' with net.model = percs, end to end on
# generated traces (netmodels/percs.md).
#
# Every expected time is computed here, in integer picoseconds, from the
# packet formula of the model: a packet of b bytes (payload + header)
# over hops of bandwidth B_h and latency W_h takes
#   inject_latency + X(b, I) + R + sum_h (X(b, B_h) + W_h + R)
#     + X(b, E) + eject_latency
# with X(n, B) = ceil(n * 10^12 / B), R the router latency and I, E the
# injection and ejection channel bandwidths; k equal packets on an idle
# path add (k - 1) X(b, C), C the slowest stage.  Rank placement comes
# from mapping files, node n being hub n % 8 of drawer n / 8 % 4 of
# supernode n / 32.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

# The defaults (picoseconds, bytes/s).
INJ=500000 EJ=200000 R=10000 I=24000000000 E=24000000000
LLB=24000000000 LRB=5000000000 DB=10000000000
LLW=5000 LRW=25000 DW=100000

# hop CLASS: "bandwidth latency" of a link class.
hop() {
	case $1 in
	LL) echo "$LLB $LLW" ;;
	LR) echo "$LRB $LRW" ;;
	D) echo "$DB $DW" ;;
	esac
}

# packet B CLASS...: one packet of B wire bytes over the classes given.
packet() {
	b=$1; shift
	t=$((INJ + $(xfer "$b" $I) + R))
	for c in "$@"; do
		set -- $(hop "$c")
		t=$((t + $(xfer "$b" "$1") + $2 + R))
	done
	echo $((t + $(xfer "$b" $E) + EJ))
}

# mapfile NAME NODE...: rank i on the i-th NODE.
mapfile() {
	name=$1; shift
	: >"$T/$name.map"
	r=0
	for n in "$@"; do
		echo "$r $n" >>"$T/$name.map"
		r=$((r + 1))
	done
}

# cls FILE CLASS COLUMN: a column of link_classes.csv (links, bytes,
# packets, ...).
cls() {
	awk -F, -v c="$2" -v k="$3" 'NR == 1 { for (i = 1; i <= NF; i++)
		col[$i] = i } $1 == c { print $col[k] }' "$1/link_classes.csv"
}

# used FILE CLASS: links of CLASS that carried bytes, as "src>dst" lines.
used() {
	awk -F, -v c="$2" '$2 == c && $6 > 0 { print $3 ">" $4 }' \
		"$1/links.csv" | sort
}

# hops_consistent DIR WHAT: the hops of summary.json are the packets the
# LL, LR and D links carried; every packet crossed one injection and one
# ejection channel.
hops_consistent() {
	s=$1/summary.json
	h=$(jget "$s" network.hops)
	p=$(jget "$s" network.packets)
	sum=$(( $(cls "$1" LL packets) + $(cls "$1" LR packets) +
		$(cls "$1" D packets) ))
	expect_eq "$sum" "$h" "$2: link packets vs hops"
	expect_eq "$(cls "$1" inject packets)" "$p" "$2: injected packets"
	expect_eq "$(cls "$1" eject packets)" "$p" "$2: ejected packets"
}

PERCS="--set net.model=percs"

# ------------------------------------------------- ping-pong, one link
# Two ranks on nodes 0 and 1 (rank order): one LL link each way.
gen pp -p pingpong -r 2 -i 4 -s 1000
expect_time $((4 * 2 * $(packet 1000 LL))) "ping-pong over LL" pp $PERCS
hops_consistent "$T/last.sim" "LL ping-pong"
expect_eq "$(cls "$T/last.sim" LL bytes)" 8000 "LL ping-pong bytes"
expect_eq "$(used "$T/last.sim" LL | tr '\n' ' ')" \
	"hub 0 (0.0.0)>hub 1 (0.0.1) hub 1 (0.0.1)>hub 0 (0.0.0) " \
	"LL ping-pong links"
# The parameters reach the model: a header and other LL figures.
LLB=7000000000 LLW=33000
expect_time $((4 * 2 * $(packet 1064 LL))) "ping-pong, header and LL" pp \
	$PERCS --set net.header=64 --set net.ll_bandwidth=7GB/s \
	--set net.ll_latency=33ns
LLB=24000000000 LLW=5000

# Nodes 0 and 13 (0.1.5): one LR link.
mapfile lr 0 13
expect_time $((4 * 2 * $(packet 1000 LR))) "ping-pong over LR" pp $PERCS \
	--set machine.map="$T/lr.map"
expect_eq "$(cls "$T/last.sim" LR bytes)" 8000 "LR ping-pong bytes"
expect_eq "$(cls "$T/last.sim" LL bytes)" 0 "LR ping-pong LL bytes"

# ---------------------------------------------- ping-pong, L-D-L paths
# Nodes 0 and 45 (1.1.5), two supernodes.  The D link 0 -> 1 leaves hub 1
# and lands at hub 32, the D link 1 -> 0 the other way: the ping goes
# LL 0->1, D 1->32, LR 32->45, the pong back the same hubs.  4096 bytes
# are two packets; the LR link is the slowest stage.
mapfile ldl 0 45
gen pp2 -p pingpong -r 2 -i 3 -s 4096
one=$(( $(packet 2048 LL D LR) + $(xfer 2048 $LRB) ))
expect_time $((3 * 2 * one)) "ping-pong over L-D-L" pp2 $PERCS \
	--set machine.map="$T/ldl.map"
d=$T/last.sim
hops_consistent "$d" "L-D-L ping-pong"
for c in LL LR D; do
	expect_eq "$(cls "$d" $c bytes)" $((3 * 2 * 4096)) "L-D-L $c bytes"
	expect_eq "$(cls "$d" $c packets)" $((3 * 2 * 2)) "L-D-L $c packets"
done
expect_eq "$(cls "$d" D links)" 2 "two supernodes, two D links"
expect_eq "$(jget "$d/summary.json" network.hops)" $((3 * 2 * 2 * 3)) \
	"L-D-L hops"
expect_eq "$(used "$d" D | tr '\n' ' ')" \
	"hub 1 (0.0.1)>hub 32 (1.0.0) hub 32 (1.0.0)>hub 1 (0.0.1) " \
	"D links of the ping-pong"
# Other D and LR figures.
DB=7000000000 DW=250000 LRB=4000000000
one=$(( $(packet 2048 LL D LR) + $(xfer 2048 $LRB) ))
expect_time $((3 * 2 * one)) "ping-pong over L-D-L, other figures" pp2 \
	$PERCS --set machine.map="$T/ldl.map" --set net.d_bandwidth=7GB/s \
	--set net.d_latency=250ns --set net.lr_bandwidth=4GB/s
DB=10000000000 DW=100000 LRB=5000000000

# ---------------------------------------------- direct against indirect
# Four supernodes (machine.nodes = 128), nodes 0 and 45.  Indirect routes
# go through supernode m in {2, 3}: LL from node 0 to hub m of supernode
# 0, D to hub 0 of m, LL to hub 1 of m, D to hub m of supernode 1, LR to
# node 45.  For either m the ping crosses LL D LL D LR and the pong
# LR D LL D LL: small messages take two hops more than direct.
gen pps -p pingpong -r 2 -i 3 -s 512
expect_time $((3 * 2 * $(packet 512 LL D LR))) "small, direct" pps \
	$PERCS --set machine.map="$T/ldl.map" --set machine.nodes=128
direct=$(jget "$T/last.sim/summary.json" predicted_time_ps)
expect_time $((3 * 2 * $(packet 512 LL D LL D LR))) "small, indirect" pps \
	$PERCS --set machine.map="$T/ldl.map" --set machine.nodes=128 \
	--set net.routing=indirect
indirect=$(jget "$T/last.sim/summary.json" predicted_time_ps)
checks=$((checks + 1))
[ "$indirect" -gt "$direct" ] ||
	fail "small messages: indirect ($indirect) not slower than direct ($direct)"
expect_eq "$(cls "$T/last.sim" D packets)" $((3 * 2 * 2)) \
	"indirect: two D links per packet"
# With two supernodes there is no intermediate: indirect = direct.
expect_time $((3 * 2 * $(packet 512 LL D LR))) "indirect, 2 supernodes" \
	pps $PERCS --set machine.map="$T/ldl.map" --set net.routing=indirect

# K-neighbour (k = 1) on 64 ranks placed alternately on supernodes 0 and
# 1 of four: every message crosses between them.  Direct routing puts all
# of it on the two D links 0 -> 1 and 1 -> 0 (64 messages each per
# iteration, 10 GB/s); indirect routing spreads it over supernodes 2 and
# 3, eight D links carrying half each, so bandwidth-bound traffic finishes
# sooner although every packet crosses two more links.
nodes=""
r=0
while [ $r -lt 64 ]; do
	nodes="$nodes $(( (r % 2) * 32 + r / 2 ))"
	r=$((r + 1))
done
mapfile alt $nodes
S=262144 IT=2
gen kn -p kneighbor -r 64 -k 1 -i $IT -c 10us -s $S
# run_kn NAME ARGS...: simulate kn.trace into $T/NAME.sim; the predicted
# time in $got.
run_kn() {
	name=$1; shift
	rm -rf "$T/$name.sim"
	expect_ok "$SIBYL" sim -q -o "$T/$name.sim" "$T/kn.trace" $PERCS \
		--set machine.map="$T/alt.map" --set machine.nodes=128 "$@"
	got=$(jget "$T/$name.sim/summary.json" predicted_time_ps)
}
run_kn direct; tdir=$got
run_kn indirect --set net.routing=indirect; tind=$got
run_kn indirect2 --set net.routing=indirect; tind2=$got
run_kn indirect3 --set net.routing=indirect --set sim.seed=9
# Lower bounds: per iteration a D link moves 64 messages (direct) or at
# least half of them (indirect) at 10 GB/s.
lb=$((IT * $(xfer $((64 * S)) $DB)))
checks=$((checks + 4))
[ "$tdir" -ge "$lb" ] || fail "kneighbor direct $tdir below the D-link bound $lb"
[ "$tind" -ge $((lb / 2)) ] || fail "kneighbor indirect $tind below half the bound"
[ "$tind" -lt "$tdir" ] ||
	fail "kneighbor: indirect ($tind) not faster than direct ($tdir)"
[ "$tind" -eq "$tind2" ] || fail "indirect not deterministic: $tind, $tind2"
expect_eq "$(used "$T/direct.sim" D | tr '\n' ' ')" \
	"hub 1 (0.0.1)>hub 32 (1.0.0) hub 32 (1.0.0)>hub 1 (0.0.1) " \
	"kneighbor direct: D links used"
expect_eq "$(used "$T/indirect.sim" D | wc -l | tr -d ' ')" 8 \
	"kneighbor indirect: D links used"
expect_eq "$(cls "$T/direct.sim" D bytes)" $((IT * 2 * 64 * S)) \
	"kneighbor direct D bytes"
expect_eq "$(cls "$T/indirect.sim" D bytes)" $((IT * 2 * 2 * 64 * S)) \
	"kneighbor indirect D bytes"
cmp -s "$T/indirect.sim/links.csv" "$T/indirect2.sim/links.csv" ||
	fail "indirect: link statistics differ between identical runs"
cmp -s "$T/indirect.sim/links.csv" "$T/indirect3.sim/links.csv" &&
	fail "indirect: another seed gives the same link statistics"
checks=$((checks + 2))
for k in direct indirect; do
	hops_consistent "$T/$k.sim" "kneighbor $k"
done

# ---------------------------------------------------------------- errors
expect_exit 2 "$SIBYL" sim -q -o "$T/err.sim" "$T/pp2.trace" $PERCS \
	--set machine.map="$T/ldl.map" --set net.supernodes=1
expect_grep 'net\.supernodes' "$T/err"
expect_exit 2 "$SIBYL" sim -q -o "$T/err.sim" "$T/pp.trace" $PERCS \
	--set net.d_links=0
expect_grep 'd_links' "$T/err"
expect_exit 2 "$SIBYL" sim -q -o "$T/err.sim" "$T/pp.trace" $PERCS \
	--set net.lr_bandwidth=0GB/s
expect_grep 'lr_bandwidth' "$T/err"
[ -e "$T/err.sim" ] && fail "a failed run left its output directory"

finish
