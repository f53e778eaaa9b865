#!/bin/sh
# sim_links.sh -- the link statistics of `sibyl sim' (links.csv,
# link_classes.csv, the "links" object of summary.json) and its link time
# series (--link-trace, linkseries.csv), against hand counts.
#
# The `simple' model has per node a nic-out link (id = node) and a nic-in
# link (id = nnodes + node); a message of n bytes keeps both busy for
# W(n) = X(n) + cpp * P(n) with P(n) = ceil(n / packet_size) packets: the
# sender's nic-out from its start, the receiver's nic-in from start + L
# (netmodels/README.md).  Utilizations are busy / predicted time rounded
# half up to 9 decimals (docs/links.md).  The file checks are done by
# python3, which simlib.sh requires.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

# pycheck WHAT SCRIPT ARGS...: run a python3 check; it prints one line per
# failure and nothing on success.
pycheck() {
	what=$1; script=$2; shift 2
	checks=$((checks + 1))
	python3 -c "$script" "$@" >"$T/py.out" 2>&1 ||
		echo "python3 failed" >>"$T/py.out"
	if [ -s "$T/py.out" ]; then
		fail "$what"
		sed 's/^/  | /' "$T/py.out" | head -20 >&2
	fi
}

# The checks every run must pass, whatever the trace: the class rows are
# the sums of the link rows, utilizations are busy / predicted, the
# summary agrees with both files.
CONSISTENT='
import csv, json, sys
out = sys.argv[1]
def util(b, d):
    q = (2 * b * 10**9 + d) // (2 * d) if d else 0
    return "%d.%09d" % (q // 10**9, q % 10**9)
def ratio(n, d, k):
    q = (2 * n * 10**k + d) // (2 * d) if d else 0
    return "%d.%0*d" % (q // 10**k, k, q % 10**k)
# Decimals stay the text they were written as.
s = json.load(open(out + "/summary.json"), parse_float=str)
pred = s["predicted_time_ps"]
links = list(csv.DictReader(open(out + "/links.csv")))
head = open(out + "/links.csv").readline().strip()
if head != "link,class,src,dst,bandwidth_Bps,bytes,packets,busy_ps,utilization":
    print("links.csv header", head)
for i, l in enumerate(links):
    if int(l["link"]) != i:
        print("link ids not 0..n-1 in order:", l["link"], i)
    if l["utilization"] != util(int(l["busy_ps"]), pred):
        print("link", i, "utilization", l["utilization"], "expected",
              util(int(l["busy_ps"]), pred))
classes = list(csv.DictReader(open(out + "/link_classes.csv")))
L = s["links"]
if L["count"] != len(links):
    print("summary count", L["count"], len(links))
if [c["class"] for c in classes] != [c["class"] for c in L["classes"]]:
    print("class lists differ")
for c, j in zip(classes, L["classes"]):
    mine = [l for l in links if l["class"] == c["class"]]
    n = len(mine)
    tot = {k: sum(int(l[k]) for l in mine)
           for k in ("bytes", "packets", "busy_ps")}
    mb = max((int(l["bytes"]) for l in mine), default=0)
    mt = max((int(l["busy_ps"]) for l in mine), default=0)
    want = {"links": str(n), "bytes": str(tot["bytes"]),
            "packets": str(tot["packets"]), "busy_ps": str(tot["busy_ps"]),
            "avg_bytes": ratio(tot["bytes"], n, 3),
            "avg_utilization": util(tot["busy_ps"], n * pred) if pred else "0.000000000",
            "max_utilization": util(mt, pred), "max_bytes": str(mb)}
    for k, v in want.items():
        if c[k] != v:
            print("class", c["class"], k, c[k], "expected", v)
        if str(j[k]) != v:
            print("summary class", c["class"], k, j[k], "expected", v)
net = s["network"]
hops = ratio(net["hops"], net["packets"], 6) if net["packets"] else None
if L["avg_hops"] != hops:
    print("avg_hops", L["avg_hops"], "expected", hops)
if links:
    mb = max(links, key=lambda l: (int(l["bytes"]), -int(l["link"])))
    mt = max(links, key=lambda l: (int(l["busy_ps"]), -int(l["link"])))
    for key, l in (("max_bytes", mb), ("max_utilization", mt)):
        got = L[key]
        for k in ("link", "bytes", "busy_ps"):
            if got[k] != int(l[k]):
                print(key, k, got[k], "expected", l[k])
        if got["utilization"] != l["utilization"]:
            print(key, "utilization", got["utilization"], l["utilization"])
        for k in ("class", "src", "dst"):
            if got[k] != l[k]:
                print(key, k, got[k], "expected", l[k])
'

# A links.csv row as "bytes packets busy_ps src->dst class".
row() {
	awk -F, -v id="$2" 'NR > 1 && $1 == id {
		print $6, $7, $8, $3 "->" $4, $2 }' "$1/links.csv"
}

# ---------------------------------------------------- ping-pong, by hand
L=1000000 B=3000000000 N=5000 I=5 CPP=7000 PS=1000
gen pp -p pingpong -r 2 -i $I -s $N
X=$(xfer $N $B)                                   # 1666666.7 -> 1666667
P=$(((N + PS - 1) / PS))                          # 5 packets
W=$((X + CPP * P))
PRED=$((I * 2 * (L + W)))
args="--set net.latency=${L}ps --set net.bandwidth=${B}B/s
	--set net.cpp=${CPP}ps --set net.packet_size=$PS"
expect_time $PRED "ping-pong with cpp" pp $args
o=$T/last.sim
expect_eq "$(row "$o" 0)" "$((I * N)) $((I * P)) $((I * W)) node 0->network nic-out" "node 0 nic-out"
expect_eq "$(row "$o" 1)" "$((I * N)) $((I * P)) $((I * W)) node 1->network nic-out" "node 1 nic-out"
expect_eq "$(row "$o" 2)" "$((I * N)) $((I * P)) $((I * W)) network->node 0 nic-in" "node 0 nic-in"
expect_eq "$(row "$o" 3)" "$((I * N)) $((I * P)) $((I * W)) network->node 1 nic-in" "node 1 nic-in"
expect_eq "$(awk 'END { print NR }' "$o/links.csv")" 5 "ping-pong: 4 links"
expect_eq "$(awk -F, '$1 == 0 { print $5 }' "$o/links.csv")" $B "bandwidth"
expect_eq "$(sed -n 1p "$o/link_classes.csv")" \
	"class,links,bytes,packets,busy_ps,avg_bytes,avg_utilization,max_utilization,max_bytes" \
	"link_classes.csv header"
expect_eq "$(sed -n 2p "$o/link_classes.csv" | cut -d, -f1-5)" \
	"nic-out,2,$((2 * I * N)),$((2 * I * P)),$((2 * I * W))" "nic-out class"
pycheck "ping-pong consistency" "$CONSISTENT" "$o"
expect_grep '^links +4 in 2 classes' "$o/summary.txt"
expect_grep '^  most bytes +link 0 \(nic-out, node 0 -> network\)' "$o/summary.txt"
keep=$T/pp-plain.sim
rm -rf "$keep" && mv "$o" "$keep"

# The same with a serializing NIC and a gap (the order-dependent path of
# the engine): same traffic, same counts.
expect_time $PRED "ping-pong, NIC and gap" pp $args \
	--set net.nic=serialize --set net.g=10ns
expect_eq "$(row "$o" 1)" "$((I * N)) $((I * P)) $((I * W)) node 1->network nic-out" "serialized nic-out"
pycheck "serialized consistency" "$CONSISTENT" "$o"

# ------------------------------------------- uneven traffic, crafted
# Three PEs on three nodes.  PE 0 sends 100 B to PE 1 and 2000 B to PE 2,
# PE 1 sends 300 B to PE 2; PE 2 only receives.  Bandwidth 1 GB/s:
# X(n) = 1000 n ps.
craft uneven <<'EOF'
npes 3
0 a 5000 s:1:100@0 s:2:2000@1000
1 b 0 w:0:0
1 c 7000 s:2:300@0
2 d 0 w:0:1 w:1:0
EOF
rm -rf "$T/u.sim"
expect_ok "$SIBYL" sim -q -o "$T/u.sim" "$T/uneven.trace" \
	--set net.bandwidth=1GB/s --set net.packet_size=256
o=$T/u.sim
expect_eq "$(row "$o" 0 | cut -d' ' -f1-3)" "2100 9 2100000" "node 0 sends 100+2000 B"
expect_eq "$(row "$o" 1 | cut -d' ' -f1-3)" "300 2 300000" "node 1 sends 300 B"
expect_eq "$(row "$o" 2 | cut -d' ' -f1-3)" "0 0 0" "node 2 sends nothing"
expect_eq "$(row "$o" 3 | cut -d' ' -f1-3)" "0 0 0" "node 0 receives nothing"
expect_eq "$(row "$o" 4 | cut -d' ' -f1-3)" "100 1 100000" "node 1 receives 100 B"
expect_eq "$(row "$o" 5 | cut -d' ' -f1-3)" "2300 10 2300000" "node 2 receives 2300 B"
pycheck "uneven consistency" "$CONSISTENT" "$o"
# PE 1 gets 100 B at L + 100 ns = 1.1 us, runs c until 1.107 us and its
# 300 B reach PE 2 at 2.4 us; PE 0's 2000 B leave at 1 ns and arrive at
# 3.001 us, when PE 2's last SEB runs: the run takes 3.001 us.
expect_eq "$(jget "$o/summary.json" predicted_time_ps)" 3001000 \
	"uneven predicted time"

# ----------------------------------------------------- the time series
# Ping-pong at 1 us intervals: the first ping keeps node 0's nic-out busy
# [0, W) and node 1's nic-in [L, L + W), W = 1.701667 us, so interval 0
# holds 1 us and interval 1 the rest of the first, and so on.
IV=1000000
rm -rf "$T/s.sim"
expect_ok "$SIBYL" sim -q -o "$T/s.sim" "$T/pp.trace" $args --link-trace 1us
o=$T/s.sim
expect_eq "$(sed -n 1p "$o/linkseries.csv")" \
	"start_ps,end_ps,link,class,busy_ps,utilization" "linkseries header"
expect_eq "$(awk -F, '$1 == 0 && $3 == 0 { print $2, $5, $6 }' "$o/linkseries.csv")" \
	"$IV $IV 1.000000000" "link 0, interval 0"
expect_eq "$(awk -F, '$1 == 1000000 && $3 == 0 { print $4, $5 }' "$o/linkseries.csv")" \
	"nic-out $((W - IV))" "link 0, interval 1"
expect_eq "$(awk -F, '$1 == 0 && $3 == 3 { print $5 }' "$o/linkseries.csv")" \
	0 "link 3, interval 0"
expect_eq "$(awk -F, '$1 == 2000000 && $3 == 3 { print $5 }' "$o/linkseries.csv")" \
	$((L + W - 2 * IV)) "link 3, interval 2"
# Same links.csv as without the series: recording changes nothing.
checks=$((checks + 1))
cmp -s "$o/links.csv" "$keep/links.csv" || fail "links.csv changed by --link-trace"

SERIES='
import csv, sys
out, iv = sys.argv[1], int(sys.argv[2])
links = {int(l["link"]): l for l in csv.DictReader(open(out + "/links.csv"))}
import json
pred = json.load(open(out + "/summary.json"))["predicted_time_ps"]
rows = list(csv.DictReader(open(out + "/linkseries.csv")))
sel = sorted({int(r["link"]) for r in rows})
want_sel = [int(x) for x in sys.argv[3].split()] if len(sys.argv) > 3 else sorted(links)
if sel != want_sel:
    print("links in the series", sel, "expected", want_sel)
nb = -(-pred // iv)
if len(rows) != nb * len(sel):
    print(len(rows), "rows, expected", nb, "intervals x", len(sel), "links")
tot = {}
for k, r in enumerate(rows):
    b, j = divmod(k, len(sel))
    if (int(r["start_ps"]), int(r["end_ps"]), int(r["link"])) != (b * iv, (b + 1) * iv, sel[j]):
        print("row", k + 2, "is", r, "expected interval", b, "link", sel[j])
        break
    busy = int(r["busy_ps"])
    if not 0 <= busy:
        print("negative busy", r)
    q = (2 * busy * 10**9 + iv) // (2 * iv)
    if r["utilization"] != "%d.%09d" % (q // 10**9, q % 10**9):
        print("utilization of row", k + 2, r["utilization"])
    if r["class"] != links[sel[j]]["class"]:
        print("class of row", k + 2, r["class"])
    tot[sel[j]] = tot.get(sel[j], 0) + busy
for i in sel:
    if tot.get(i, 0) != int(links[i]["busy_ps"]):
        print("link", i, "series sums to", tot.get(i, 0), "links.csv says", links[i]["busy_ps"])
'
pycheck "ping-pong series sums" "$SERIES" "$o" $IV

# An interval that divides nothing, on a trace with more links, on the
# immediate path and on the ordered one; a selection records exactly the
# same numbers for its links as the full series.
gen kn -p kneighbor -r 8 -k 3 -i 3 -c 3us -s 4097
for extra in "" "--set net.nic=serialize --set net.cpp=3ns"; do
	rm -rf "$T/k.sim" "$T/ksel.sim"
	expect_ok "$SIBYL" sim -q -o "$T/k.sim" "$T/kn.trace" \
		--set machine.cores_per_node=2 $extra --link-trace 777ns
	pycheck "kneighbor series sums ($extra)" "$SERIES" "$T/k.sim" 777000
	pycheck "kneighbor consistency ($extra)" "$CONSISTENT" "$T/k.sim"
	expect_ok "$SIBYL" sim -q -o "$T/ksel.sim" "$T/kn.trace" \
		--set machine.cores_per_node=2 $extra --link-trace 777ns \
		--link-select 'nic-in, 1,2-3'
	pycheck "kneighbor selection ($extra)" "$SERIES" "$T/ksel.sim" 777000 \
		"1 2 3 4 5 6 7"
	checks=$((checks + 1))
	awk -F, 'NR == 1 || $3 != 0' "$T/k.sim/linkseries.csv" >"$T/k.rows"
	cmp -s "$T/k.rows" "$T/ksel.sim/linkseries.csv" ||
		fail "the selection changed the series of its links ($extra)"
done

# --------------------------------------------- other network models
# Every model with links passes the same checks (torus, percs, ... when
# they are built).
for m in $("$SIBYL" sim --list-keys |
	sed -n 's/^\[net\] with model = \([a-z0-9_]*\).*/\1/p'); do
	[ "$m" = simple ] && continue
	rm -rf "$T/m.sim"
	expect_ok "$SIBYL" sim -q -o "$T/m.sim" "$T/kn.trace" \
		--set net.model="$m" --link-trace 1us
	[ -f "$T/m.sim/links.csv" ] || continue
	pycheck "model $m consistency" "$CONSISTENT" "$T/m.sim"
	pycheck "model $m series sums" "$SERIES" "$T/m.sim" 1000000
done

# ----------------------------------------------------------- errors
bad() {   # WHAT PATTERN SIM-ARGS...
	what=$1; pat=$2; shift 2
	rm -rf "$T/bad.sim"
	expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/pp.trace" "$@"
	expect_grep "$pat" "$T/err"
	checks=$((checks + 1))
	[ ! -e "$T/bad.sim" ] || fail "$what left $T/bad.sim"
}
bad "zero interval" "--link-trace: the interval must be longer than 0" \
	--link-trace 0us
bad "no unit" "--link-trace: '10' has no unit" --link-trace 10
bad "not a time" "--link-trace: 'soon' is not a duration" --link-trace soon
bad "negative" "--link-trace: '-1us' is negative" --link-trace -1us
bad "select alone" "--link-select needs --link-trace" --link-select 0
bad "unknown class" "'LL' is not a link class of the model; its classes are: nic-out, nic-in" \
	--link-trace 1us --link-select LL
bad "id too large" "there is no link 4 in the model, whose links are numbered 0 to 3" \
	--link-trace 1us --link-select 0-4
bad "empty range" "the range '3-1' is empty" --link-trace 1us --link-select 3-1
bad "garbage" "'1x' is neither a link class nor a link id" \
	--link-trace 1us --link-select 1x
# Past the memory bound the run stops with advice and writes nothing.
rm -rf "$T/bad.sim"
SIBYL_LINK_TRACE_MEM=4096 expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" \
	"$T/pp.trace" --link-trace 1ns
expect_grep "needs more than 4096 bytes.*--link-select" "$T/err"
checks=$((checks + 1))
ls -d "$T"/bad.sim* >/dev/null 2>&1 && fail "a stopped run left output"

# A trace that does not close: the run fails, and neither links.csv nor
# anything else is left behind.
craft open <<'EOF'
npes 2
0 a 10 s:1:100@0 s:1:100@5
1 b 0 w:0:0
EOF
rm -rf "$T/open.sim"
expect_exit 1 "$SIBYL" sim -q -o "$T/open.sim" "$T/open.trace" --link-trace 1us
checks=$((checks + 1))
ls -d "$T"/open.sim* >/dev/null 2>&1 && fail "a failed run left output"

finish
