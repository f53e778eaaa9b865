# cli_sim.sh -- the command line of `sibyl sim': help, configuration
# (files, --set, errors), the output directory, --json, replacement rules,
# skip points and timelines.  Expected times are computed here from the
# parameters (see sim_analytic.sh for the notation): the reference run is
# a ring (docs/trace-tools.md), whose iteration lasts c + L + X(n).
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

# usage_error OUT ARGS...: exit 2, a message, no output directory.
usage_error() {
	o=$1; shift
	rm -rf "$o"
	expect_exit 2 "$SIBYL" sim -q -o "$o" "$@"
	expect_grep '^sibyl sim: ' "$T/err"
	checks=$((checks + 1))
	left=$(ls -d "$o" "$o".partial-* 2>/dev/null)
	[ -z "$left" ] || fail "a refused run left: $left"
}

# The reference: ring of 4 ranks, 5 iterations, c = 2us, n = 1000 bytes;
# one iteration is T = c + L + X(1000) = 2us + 1us + 100ns by default.
gen ring -p ring -r 4 -i 5 -c 2us -s 1000
C=2000000 L=1000000 X=$(xfer 1000 10000000000)
IT=$((C + L + X))

# ------------------------------------------------------------------ help
expect_ok "$SIBYL" sim --help
expect_grep '^Usage: sibyl sim \[OPTIONS\] TRACE' "$T/out"
expect_grep 'Exit status' "$T/out"
for opt in --config --set --cpu-factor --list-keys --replace --skip \
	   --iters --output --force --timeline --timeline-pes --json --quiet \
	   --map --link-trace --link-select --noise --noise-seed --noise-scale \
	   --noise-cosched; do
	expect_grep "$opt" "$T/out"
done
cp "$T/out" "$T/help1"
expect_ok "$SIBYL" help sim
checks=$((checks + 1))
cmp -s "$T/out" "$T/help1" || fail "'sibyl help sim' differs from --help"
expect_exit 2 "$SIBYL" sim
expect_grep 'no trace' "$T/err"
expect_exit 2 "$SIBYL" sim "$T/ring.trace" "$T/ring.trace"
expect_exit 2 "$SIBYL" sim --no-such-option "$T/ring.trace"

# ------------------------------------------------------------- list-keys
# Every key of docs/machine.md, with its type and default.
expect_ok "$SIBYL" sim --list-keys
while read -r sect key type def; do
	checks=$((checks + 1))
	awk -v s="[$sect]" -v k="$key" -v t="$type" -v d="default $def" '
		index($0, s) == 1 { in_s = 1; next }
		/^\[/ { in_s = 0 }
		in_s && $1 == k && index($0, t) && index($0, d) { found = 1 }
		END { exit !found }' "$T/out" ||
		fail "--list-keys: no '$key $type, default $def' under [$sect]"
done <<'EOF'
machine nodes INT 0
machine cores_per_node INT 1
machine topology STRING ""
machine map STRING ""
intranode latency TIME 200ns
intranode bandwidth BANDWIDTH 10GB/s
cpu factor RATIO 1
net model ENUM simple
net latency TIME 1us
net bandwidth BANDWIDTH 10GB/s
net cpp TIME 0
net packet_size SIZE 4KiB
net o TIME 0
net g TIME 0
net nic ENUM none
replace rules STRING ""
noise dir STRING ""
noise seed INT -1
noise scale RATIO 1
noise cosched BOOL no
sim seed INT 1
EOF

# ------------------------------------------------- configuration errors
# Each: exit status 2, where the key was given, what to write.
E="$T/err.sim"
usage_error "$E" --set net.latncy=1us "$T/ring.trace"
expect_grep "unknown key 'net.latncy' \(did you mean 'net.latency'\?\)" \
	"$T/err"
expect_grep '--set' "$T/err"
usage_error "$E" --set mahcine.nodes=2 "$T/ring.trace"
expect_grep "did you mean 'machine.nodes'" "$T/err"
usage_error "$E" --set net.latency=5 "$T/ring.trace"
expect_grep "net.latency: '5' has no unit" "$T/err"
usage_error "$E" --set net.latency=5parsecs "$T/ring.trace"
expect_grep "net.latency: '5parsecs' is not a duration" "$T/err"
usage_error "$E" --set net.latency=0.3ps "$T/ring.trace"
expect_grep "not a whole number of picoseconds" "$T/err"
usage_error "$E" --set net.latency=-1us "$T/ring.trace"
usage_error "$E" --set net.bandwidth=24GB "$T/ring.trace"
expect_grep "'24GB' is not a bandwidth" "$T/err"
usage_error "$E" --set net.bandwidth=0B/s "$T/ring.trace"
usage_error "$E" --set intranode.bandwidth=1b/s "$T/ring.trace"
usage_error "$E" --set net.packet_size=4kiB "$T/ring.trace"
usage_error "$E" --set machine.cores_per_node=0 "$T/ring.trace"
expect_grep 'out of range' "$T/err"
usage_error "$E" --set net.model=simpel "$T/ring.trace"
expect_grep "did you mean 'simple'" "$T/err"
usage_error "$E" --set net.nic=serialise "$T/ring.trace"
usage_error "$E" --set cpu.factor=0 "$T/ring.trace"
expect_grep 'greater than 0' "$T/err"
usage_error "$E" --cpu-factor -1 "$T/ring.trace"
usage_error "$E" --set nodes=3 "$T/ring.trace"
expect_grep 'expected section.key=value' "$T/err"
# Too few cores for the ranks, a bad mapping file: configuration mistakes
# too (docs/machine.md §8 lists the first among them).
usage_error "$E" --set machine.nodes=1 --set machine.cores_per_node=2 \
	"$T/ring.trace"
expect_grep 'the machine has 2 cores .* for 4 ranks' "$T/err"
printf '0 0\n1 x\n' >"$T/bad.map"
usage_error "$E" --set machine.map="$T/bad.map" "$T/ring.trace"
expect_grep "bad.map:2: expected 'RANK NODE \\[CORE\\]'" "$T/err"
# In a file: file:line.
printf '[net]\n# comment\nlatncy = 1us\n' >"$T/bad1.conf"
usage_error "$E" -c "$T/bad1.conf" "$T/ring.trace"
expect_grep "bad1.conf:3: unknown key 'net.latncy' \(did you mean 'net.latency'\?\)" \
	"$T/err"
printf '[mahcine]\nnodes = 4\n' >"$T/bad2.conf"
usage_error "$E" -c "$T/bad2.conf" "$T/ring.trace"
expect_grep "bad2.conf:1: unknown section '\[mahcine\]' \(did you mean '\[machine\]'\?\)" \
	"$T/err"
printf 'nodes = 4\n' >"$T/bad3.conf"
usage_error "$E" -c "$T/bad3.conf" "$T/ring.trace"
expect_grep 'bad3.conf:1: .*before any \[section\]' "$T/err"
printf '[net]\nlatency 4us\n' >"$T/bad4.conf"
usage_error "$E" -c "$T/bad4.conf" "$T/ring.trace"
expect_grep "bad4.conf:2: expected 'key = value'" "$T/err"
usage_error "$E" -c "$T/no-such.conf" "$T/ring.trace"
expect_grep 'no-such.conf' "$T/err"
# A key of the model that is not selected would be named; a bad rule.
usage_error "$E" --replace 'size>=4KB2KiB' "$T/ring.trace"
expect_grep "rule 'size>=4KB2KiB': expected ':'" "$T/err"
usage_error "$E" --replace 'foo:x=1' "$T/ring.trace"
expect_grep 'unknown rule' "$T/err"
usage_error "$E" --replace 'scale:x=-1' "$T/ring.trace"
usage_error "$E" --replace 'seb:a>b=1us' "$T/ring.trace"
expect_grep "quote the name" "$T/err"
printf '[replace]\nrules = "size=8:16; foo:x=1"\n' >"$T/bad5.conf"
usage_error "$E" -c "$T/bad5.conf" "$T/ring.trace"
expect_grep "bad5.conf:2: rule 'foo:x=1'" "$T/err"
usage_error "$E" --iters 3..2 "$T/ring.trace"
usage_error "$E" --iters x "$T/ring.trace"

# --------------------------------------- configuration files and --set
# Later files win key by key; --set wins over every file, wherever it is
# on the command line.
printf '[net]\nlatency = 3us   # three\nbandwidth = "10GB/s"\n[machine]\nnodes = 4\n' \
	>"$T/a.conf"
printf '[net]\r\nlatency = 2us\r\n' >"$T/b.conf"          # DOS line ends
expect_time $((5 * (C + 3000000 + X))) "one file" ring -c "$T/a.conf"
expect_time $((5 * (C + 2000000 + X))) "-c a -c b" ring \
	-c "$T/a.conf" -c "$T/b.conf"
expect_time $((5 * (C + 3000000 + X))) "-c b -c a" ring \
	-c "$T/b.conf" -c "$T/a.conf"
expect_time $((5 * (C + 4000000 + X))) "--set before -c" ring \
	--set net.latency=4us -c "$T/a.conf" -c "$T/b.conf"
# machine.conf holds the effective values, given ones without "# default".
M="$T/last.sim/machine.conf"
expect_grep '^latency = 4us$' "$M"
expect_grep '^nodes = 4$' "$M"
expect_grep '^cpp = 0  # default$' "$M"
# ... and reproduces the run.
cp "$M" "$T/eff.conf"
expect_time $((5 * (C + 4000000 + X))) "machine.conf of a run" ring \
	-c "$T/eff.conf"

# A mapping file, named relative to the configuration file that sets it:
# ranks 3 and 0 on node 0, 1 and 2 on node 1.  The ring's edges then
# alternate network (0->1, 2->3: b = L + X) and copies (1->2, 3->0:
# a = IL + IX), and 5 iterations take 5c + 3b + 2a (sim_analytic.sh).
mkdir -p "$T/mapdir"
printf '# RANK NODE [CORE]\n3 0\n0 0 1\n1 1\n2 1   # last\n' >"$T/mapdir/r.map"
printf '[machine]\ncores_per_node = 2\nmap = r.map\n' >"$T/mapdir/m.conf"
A=$((200000 + X))
expect_time $((5 * C + 3 * (L + X) + 2 * A)) "machine.map" ring \
	-c "$T/mapdir/m.conf"
expect_eq "$(jget "$T/last.sim/summary.json" messages.intranode)" 10 \
	"machine.map: intra-node messages"
expect_grep "^map = \"?$T/mapdir/r.map\"?" "$T/last.sim/machine.conf"

# --------------------------------------------------------- output dir
# Default: the trace's name with .sim, in the current directory.
mkdir -p "$T/cwd" && rm -rf "$T/cwd/ring.sim" "$T/cwd/b.sim"
checks=$((checks + 1))
(cd "$T/cwd" && "$SIBYL" sim -q ../ring.trace/) >"$T/out" 2>"$T/err" ||
	fail "default output: $(cat "$T/err")"
[ -f "$T/cwd/ring.sim/summary.json" ] || fail "no ring.sim in the cwd"
expect_ok "$SIBYL" trace pack -q -o "$T/b.tar.gz" "$T/ring.trace"
checks=$((checks + 1))
(cd "$T/cwd" && "$SIBYL" sim -q ../b.tar.gz) >"$T/out" 2>"$T/err" ||
	fail "default output (bundle): $(cat "$T/err")"
[ -f "$T/cwd/b.sim/summary.json" ] || fail "no b.sim for b.tar.gz"
# Every file of docs/outputs.md, nothing else without timelines.
checks=$((checks + 1))
files=$(cd "$T/cwd/ring.sim" && ls | tr '\n' ' ')
[ "$files" = "link_classes.csv links.csv machine.conf prints.txt summary.json summary.txt " ] ||
	fail "output files: $files"
# An existing OUT is refused without --force (exit status 2,
# docs/outputs.md) and left untouched.  (Found exiting with 1 in an early
# build.)
O="$T/exists.sim"
rm -rf "$O" && mkdir "$O" && : >"$O/mine"
expect_exit 2 "$SIBYL" sim -q -o "$O" "$T/ring.trace"
expect_grep "exists.*--force" "$T/err"
checks=$((checks + 1))
[ -f "$O/mine" ] && [ ! -f "$O/summary.json" ] || fail "existing OUT touched"
# --force replaces an earlier output of sim, never a directory with
# files sim did not write (tests/hostile_outdir.sh has the whole rule).
expect_exit 2 "$SIBYL" sim -q --force -o "$O" "$T/ring.trace"
expect_grep "not replacing .*exists.sim.*marker" "$T/err"
rm "$O/mine"
expect_ok "$SIBYL" sim -q --force -o "$O" "$T/ring.trace"
expect_ok "$SIBYL" sim -q --force -o "$O" "$T/ring.trace"
checks=$((checks + 1))
[ -f "$O/.sibyl-output" ] && [ -f "$O/summary.json" ] || fail "--force did not replace OUT"
checks=$((checks + 1))
left=$(ls -d "$O".partial-* 2>/dev/null)
[ -z "$left" ] || fail "partial directories left: $left"

# ----------------------------------------------------------- stdout
# The default summary on stdout, --quiet nothing, --json the JSON.
rm -rf "$T/o.sim"
expect_ok "$SIBYL" sim -o "$T/o.sim" "$T/ring.trace"
expect_grep "^predicted time .*[ (]$((5 * IT)) ps\)" "$T/out"
expect_grep '^output ' "$T/out"
checks=$((checks + 1))
grep -v '^output ' "$T/out" | grep -v '^simulator' >"$T/a.txt"
grep -v '^simulator' "$T/o.sim/summary.txt" >"$T/b.txt"
cmp -s "$T/a.txt" "$T/b.txt" || fail "stdout differs from summary.txt"
rm -rf "$T/o.sim"
expect_ok "$SIBYL" sim -q -o "$T/o.sim" "$T/ring.trace"
[ -s "$T/out" ] && fail "--quiet printed: $(head -n 2 "$T/out")"
rm -rf "$T/o.sim"
expect_ok "$SIBYL" sim --json -o "$T/o.sim" "$T/ring.trace"
checks=$((checks + 1))
python3 - "$T/out" "$T/o.sim/summary.json" $((5 * IT)) <<'EOF' \
	>"$T/py.out" 2>&1 ||
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
for d in (a, b):
    del d["simulator"]
if a != b:
    sys.exit("--json output differs from summary.json")
if a["predicted_time_ps"] != int(sys.argv[3]):
    sys.exit("--json: predicted_time_ps %s" % a["predicted_time_ps"])
keys = ["sibyl_version", "trace", "npes", "nnodes", "region",
        "predicted_time_ps", "predicted_time_s", "pes", "sebs", "messages",
        "network", "rules"]
missing = [k for k in keys if k not in a]
if missing:
    sys.exit("summary.json lacks %s" % missing)
# Every key is always present (docs/outputs.md): first_iter and last_iter
# are null outside an --iters run.  (Found missing in an early build.)
for k in ("kind", "first_iter", "last_iter", "description"):
    if k not in a["region"]:
        sys.exit("summary.json: region.%s missing" % k)
if a["region"]["first_iter"] is not None:
    sys.exit("region.first_iter not null")
if a["predicted_time_s"] != a["predicted_time_ps"] / 1e12:
    sys.exit("predicted_time_s %r" % a["predicted_time_s"])
EOF
	fail "--json: $(cat "$T/py.out")"

# ------------------------------------------------------------- rules
# Sizes.  X(n) on the ring; messages.bytes counts the simulated sizes.
X5=$(xfer 5000 10000000000) X3=$(xfer 3000 10000000000)
X9=$(xfer 9000 10000000000) X7=$(xfer 7000 10000000000)
expect_time $((5 * (C + L + X5))) "size>=1000:5000" ring \
	--replace 'size>=1000:5000'
expect_eq "$(jget "$T/last.sim/summary.json" messages.bytes)" \
	$((20 * 5000)) "bytes after size>=1000:5000"
expect_time $((5 * IT)) "size>=1001:5000 (no match)" ring \
	--replace 'size>=1001:5000'
expect_time $((5 * (C + L + X3))) "size=1000:3000" ring \
	--replace 'size=1000:3000'
expect_time $((5 * IT)) "size=999:3000 (no match)" ring \
	--replace 'size=999:3000'
# Exact rules before cut-off rules, whatever the order given.
expect_time $((5 * (C + L + X3))) "size>= then size=" ring \
	--replace 'size>=500:9000; size=1000:3000'
# Among cut-off rules, the first given wins.
expect_time $((5 * (C + L + X9))) "two cut-offs" ring \
	--replace 'size>=500:9000;size>=100:7000'
expect_time $((5 * (C + L + X7))) "two cut-offs, swapped" ring \
	--replace 'size>=100:7000' --replace 'size>=500:9000'
# Units in rules: 1kB = 1000 bytes.
expect_time $((5 * (C + L + X3))) "size= with units" ring \
	--replace 'size=1kB:3kB'
# Durations: seb:NAME=DUR replaces; cpu.factor does not apply to it.
expect_time $((5 * (3000000 + L + X))) "seb:compute=3us" ring \
	--replace 'seb:compute=3us'
expect_time $((5 * (3000000 + L + X))) "seb: with --cpu-factor" ring \
	--replace 'seb:compute=3us' --cpu-factor 2
expect_eq "$(jget "$T/last.sim/summary.json" pes.busy_ps.max)" \
	$((5 * 3000000)) "busy with a seb: rule"
# scale:NAME=F times cpu.factor.
expect_time $((5 * (3000000 + L + X))) "scale:compute=1/2, factor 3" ring \
	--replace 'scale:compute=1/2' --set cpu.factor=3
expect_time $((5 * (L + X))) "scale:compute=0" ring \
	--replace 'scale:compute=0'
expect_time $((5 * IT)) "rule for another name" ring \
	--replace 'seb:Compute=1ms; scale:comput=0'
# --replace overrides a rule of the configuration for the same name.
printf '[replace]\nrules = seb:compute=5us\n' >"$T/r.conf"
expect_time $((5 * (5000000 + L + X))) "config rule" ring -c "$T/r.conf"
expect_time $((5 * (1000000 + L + X))) "--replace over config rule" ring \
	-c "$T/r.conf" --replace 'seb:compute=1us'
# The summary lists the rules in force, in the order they apply.
checks=$((checks + 1))
python3 - "$T/last.sim/summary.json" <<'EOF' || fail "rules in summary.json"
import json, sys
r = json.load(open(sys.argv[1]))["rules"]
if len(r) < 2 or "--replace" not in r[0] or "1us" not in r[0] \
        or "5us" not in r[1]:
    sys.exit("rules: %r" % r)
EOF
expect_grep '^rules' "$T/last.sim/summary.txt"
# seb:NAME>CUT=DUR: only durations above CUT (strictly).  One PE, SEBs of
# 1000, 5000 and 9000 ps, nothing else: the run is their sum.
craft work <<'EOF'
npes 1
0 work 1000
0 work 5000
0 other 9000
0 work 9000
EOF
expect_time 24000 "no rule" work
expect_time $((1000 + 5000 + 9000 + 100)) "seb:work>5000=100" work \
	--replace 'seb:work>5000ps=100ps'
expect_time $((1000 + 100 + 9000 + 100)) "seb:work>4999=100" work \
	--replace 'seb:work>4999ps=100ps'
expect_time $((7 + 7 + 9000 + 1)) "first matching seb: rule" work \
	--replace 'seb:work>8000ps=1ps; seb:work=7ps'
expect_time $((7 + 7 + 9000 + 7)) "first matching seb: rule (swapped)" \
	work --replace 'seb:work=7ps; seb:work>8ns=1ps'
expect_time $((1000 + 5000 + 9000 + 9000)) "seb:work>9000 (none above)" \
	work --replace 'seb:work>9000ps=1ps'
# A seb: rule that does not match falls back to scale: and cpu.factor.
# 1000 * 1/2 * 1/2 = 250; 'other' only takes the factor: 4500.
expect_time $((250 + 100 + 4500 + 100)) "seb:>CUT, else scaled" work \
	--replace 'seb:work>4999ps=100ps; scale:work=1/2' --cpu-factor 1/2
# Offsets follow the new duration.  PE 0's SEB of 3000 ps sends an empty
# message at offset 1000; PE 1 waits for it.  Run = offset' + L.
craft off <<'EOF'
npes 2
0 work 3000 s:1:0@1000
1 recv 0 w:0:0
EOF
expect_time $((1000 + L)) "offset, no rule" off
# Replaced: floor(1000 * 1000 / 3000) = 333; floor(1000 * 5 / 3000) = 1.
expect_time $((333 + L)) "offset, seb:work=1000ps" off \
	--replace 'seb:work=1000ps'
expect_time $((1 + L)) "offset, seb:work=5ps" off --replace 'seb:work=5ps'
# Scaled: round(1000 * 2/3) = 667; round(1000 * 0.0005) = 0.5 -> 1.
expect_time $((667 + L)) "offset, scale 2/3" off --replace 'scale:work=2/3'
expect_time $((667 + L)) "offset, cpu.factor 2/3" off --cpu-factor 2/3
expect_time $((1 + L)) "offset, scale 0.0005" off \
	--replace 'scale:work=0.0005'
# Zero duration: the offset stays.
craft off0 <<'EOF'
npes 2
0 work 0 s:1:0@0
1 recv 0 w:0:0
EOF
expect_time "$L" "offset of a 0 ps SEB" off0 --replace 'seb:work=1us'
# Quoted names and names with ':'.
craft names <<'EOF'
npes 1
0 a>b 1000
0 solver:inner 1000
0 x 1000
EOF
expect_time $((5 + 7 + 1000)) "quoted and ':' names" names \
	--replace 'seb:"a>b"=5ps; seb:solver:inner=7ps'

# --------------------------------------------------------- skip points
# --skip: from the skip-start marker (iteration 1, the default warm-up) to
# finalize: iterations 1..4.  --iters K..M: iterations K to M.
expect_time $((4 * IT)) "--skip" ring --skip
S="$T/last.sim/summary.json"
expect_eq "$(jget "$S" region.kind)" '"markers"' "--skip region"
expect_eq "$(jget "$S" sebs)" $((4 * 4 * 2)) "--skip SEBs"
expect_time $((2 * IT)) "--iters 2..3" ring --iters 2..3
expect_eq "$(jget "$S" region.kind)" '"iters"' "--iters region"
expect_eq "$(jget "$S" region.first_iter)" 2 "--iters first_iter"
expect_eq "$(jget "$S" region.last_iter)" 3 "--iters last_iter"
expect_eq "$(jget "$S" sebs)" $((4 * 2 * 2)) "--iters 2..3 SEBs"
expect_eq "$(jget "$S" messages.count)" 8 "--iters 2..3 messages"
expect_grep '^simulated +iterations 2 to 3' "$T/last.sim/summary.txt"
expect_time "$IT" "--iters 4" ring --iters 4
expect_time "$IT" "--iters 0" ring --iters 0
expect_time $((5 * IT)) "--iters 0..4" ring --iters 0..4
expect_time $((2 * IT)) "--iters 3..10" ring --iters 3..10
# Another warm-up moves the skip-start marker.
gen ring2 -p ring -r 4 -i 5 -c 2us -s 1000 --warmup 3
expect_time $((2 * IT)) "--skip, warm-up 3" ring2 --skip
# A message sent before the part and awaited inside it counts as arrived
# at time 0: PE 1 starts its part (SEB 1, 5 ps) at once.
craft before <<'EOF'
npes 2
0 early 1000 s:1:8@1000
0 part 10 m:start:1
1 part 5 m:start:1 w:0:0
EOF
expect_time 10 "message from before the part" before --skip

# ----------------------------------------------------------- timelines
# Ring of 4 ranks, 3 iterations: rank p starts compute k at k*T,
# ring_wait k when the message arrives, (k+1)*T, and finalize at 3*T.
gen tl -p ring -r 4 -i 3 -c 2us -s 1000
rm -rf "$T/tl.sim"
expect_ok "$SIBYL" sim -q -o "$T/tl.sim" --timeline all "$T/tl.trace"
checks=$((checks + 1))
[ -f "$T/tl.sim/timeline.json" ] && [ -f "$T/tl.sim/projections/sibyl.sts" ] ||
	fail "--timeline all: files missing"
# tl_check DIR RANKS...: the chrome timeline parses, has a B/E pair per
# SEB of the shown ranks (and none of the others), at the exact times,
# with the SEB's index and its counts of sends and waits, and an arrow
# per message between two shown ranks.
tl_check() {
	checks=$((checks + 1))
	python3 - "$@" $IT $C <<'EOF' >"$T/tl.out" 2>&1 ||
import json, sys
from decimal import Decimal
d, ranks, it, c = sys.argv[1], [int(x) for x in sys.argv[2:-2]], \
    int(sys.argv[-2]), int(sys.argv[-1])
tl = json.load(open(d + "/timeline.json"), parse_float=Decimal)
ev = tl["traceEvents"]
errs = []
names = ["compute", "ring_wait"] * 3 + ["finalize"]
for r in range(4):
    b = [e for e in ev if e["ph"] == "B" and e.get("tid") == r + 1]
    e_ = [e for e in ev if e["ph"] == "E" and e.get("tid") == r + 1]
    if r not in ranks:
        if b or e_:
            errs.append("rank %d not shown but has events" % r)
        continue
    starts = [0, it, it, 2 * it, 2 * it, 3 * it, 3 * it]
    ends = [c, it, it + c, 2 * it, 2 * it + c, 3 * it, 3 * it]
    got = [(x["name"], int(x["ts"] * 1000000), x["pid"], x["cat"])
           for x in b]
    want = [(names[i], starts[i], r + 1, "seb") for i in range(7)]
    if got != want:
        errs.append("rank %d B events %s, expected %s" % (r, got, want))
    if [int(x["ts"] * 1000000) for x in e_] != ends:
        errs.append("rank %d E times %s" % (r, [x["ts"] for x in e_]))
    idx = [x["args"].get("index") for x in b]
    if idx != list(range(7)):
        errs.append("rank %d SEB indices %s" % (r, idx))
    w = [x["args"].get("waits") for x in b]
    s = [x["args"].get("sends") for x in b]
    if w != [0, 1] * 3 + [0] or s != [1, 0] * 3 + [0]:
        errs.append("rank %d waits %s sends %s" % (r, w, s))
arrows = [e for e in ev if e["ph"] == "s"]
want_n = 3 * sum(1 for r in ranks if (r + 1) % 4 in ranks)
if len(arrows) != want_n or \
        len([e for e in ev if e["ph"] == "f"]) != want_n:
    errs.append("%d arrows, expected %d" % (len(arrows), want_n))
for a in arrows:
    x = a["args"]
    if int(Decimal(x["sent_us"]) * 1000000) % it != c or \
            int(Decimal(x["arrived_us"]) * 1000000) % it != 0:
        errs.append("arrow times %s %s" % (x["sent_us"], x["arrived_us"]))
        break
od = tl["otherData"]
if od["predicted_time_ps"] != 3 * it or od["ranks"] != 4 or \
        od["ranks_shown"] != len(ranks) or od["sebs"] != 7 * len(ranks):
    errs.append("otherData %s" % od)
if errs:
    sys.exit("\n".join(errs[:6]))
EOF
	fail "chrome timeline $1: $(cat "$T/tl.out")"
}
tl_check "$T/tl.sim" 0 1 2 3
# Selected ranks only.
rm -rf "$T/tl2.sim"
expect_ok "$SIBYL" sim -q -o "$T/tl2.sim" --timeline chrome \
	--timeline-pes 0-1 "$T/tl.trace"
tl_check "$T/tl2.sim" 0 1
checks=$((checks + 1))
[ -d "$T/tl2.sim/projections" ] && fail "projections written without asking"
# The last rank can be selected.
rm -rf "$T/tl3.sim"
expect_ok "$SIBYL" sim -q -o "$T/tl3.sim" --timeline chrome \
	--timeline-pes 1,3 "$T/tl.trace"
[ -f "$T/tl3.sim/timeline.json" ] && tl_check "$T/tl3.sim" 1 3

# Projections: the .sts names the ranks and the SEB names; one log per
# shown rank, with a BEGIN_PROCESSING (2) per SEB at floor(start / 1us),
# its SEB index as the object id, and END_COMPUTATION (7) at the end.
rm -rf "$T/pj.sim"
expect_ok "$SIBYL" sim -q -o "$T/pj.sim" --timeline projections \
	--timeline-pes 0,2 "$T/tl.trace"
P="$T/pj.sim/projections"
expect_grep '^PROCESSORS 4$' "$P/sibyl.sts"
for n in compute ring_wait finalize; do
	expect_grep "^ENTRY CHARE [0-9]+ $n " "$P/sibyl.sts"
done
checks=$((checks + 1))
logs=$(cd "$P" && ls *.log | tr '\n' ' ')
[ "$logs" = "sibyl.0.log sibyl.2.log " ] || fail "projections logs: $logs"
checks=$((checks + 1))
python3 - "$P" $IT <<'EOF' >"$T/pj.out" 2>&1 || fail "projections: $(cat "$T/pj.out")"
import sys
d, it = sys.argv[1], int(sys.argv[2])
starts = [0, it, it, 2 * it, 2 * it, 3 * it, 3 * it]
for r in (0, 2):
    lines = [l.split() for l in open("%s/sibyl.%d.log" % (d, r))]
    if lines[0][0] != "PROJECTIONS-RECORD" or int(lines[0][1]) != len(lines) - 1:
        sys.exit("rank %d: header %s for %d records" % (r, lines[0], len(lines) - 1))
    begins = [l for l in lines[1:] if l[0] == "2"]
    t = [int(l[3]) for l in begins]
    if t != [s // 1000000 for s in starts]:
        sys.exit("rank %d: BEGIN_PROCESSING times %s" % (r, t))
    ids = [int(l[8]) for l in begins]
    if ids != list(range(7)):
        sys.exit("rank %d: SEB indices %s" % (r, ids))
    if lines[-1] != ["7", str(3 * it // 1000000)]:
        sys.exit("rank %d: last record %s" % (r, lines[-1]))
    # Records are in time order.
    prev = 0
    for l in lines[2:-1]:
        tt = int(l[1]) if l[0] in ("14", "15") else int(l[3])
        if tt < prev:
            sys.exit("rank %d: record %s out of order" % (r, l))
        prev = tt
EOF

# Timeline options.
usage_error "$T/x.sim" --timeline-pes 0-1 "$T/tl.trace"
expect_grep 'needs --timeline' "$T/err"
usage_error "$T/x.sim" --timeline svg "$T/tl.trace"
expect_grep "unknown format 'svg'" "$T/err"
usage_error "$T/x.sim" --timeline chrome --timeline-pes 9 "$T/tl.trace"
# More than 4096 ranks: all of them is refused, a selection is not.
gen big -p ring -r 4097 -i 1
usage_error "$T/big.sim" --timeline projections "$T/big.trace"
expect_grep '--timeline-pes' "$T/err"
rm -rf "$T/big.sim"
expect_ok "$SIBYL" sim -q -o "$T/big.sim" --timeline all \
	--timeline-pes 0-3 "$T/big.trace"
checks=$((checks + 1))
n=$(ls "$T/big.sim/projections" | grep -c '\.log$')
[ "$n" -eq 4 ] || fail "4097 ranks, --timeline-pes 0-3: $n logs"

# ---------------------------------------------------------- prints.txt
# docs/outputs.md: one line per print, "<time_ps> ps  PE <pe>  <text>",
# fields separated by exactly two spaces, in the order the printing SEBs
# start, so that `sort -n -s' gives time order (each rank's own order kept
# among equal times); an empty file when no rank printed.
craft prints <<'EOF'
npes 2
0 a 3000 p:2500:late~one p:0:first s:1:0@3000
0 b 10 p:10:after~wait w:1:0
1 x 1000
1 y 0 p:0:at~1000
1 a 0 w:0:0 p:0:got~it p:0:same~time s:0:0@0
EOF
rm -rf "$T/pr.sim"
expect_ok "$SIBYL" sim -q -o "$T/pr.sim" "$T/prints.trace"
# PE 1 prints when the message arrives, 3000 + L; PE 0's SEB b starts
# when PE 1's answer arrives, 3000 + 2L.
cat >"$T/prints.want" <<EOF
0 ps  PE 0  first
1000 ps  PE 1  at 1000
2500 ps  PE 0  late one
$((3000 + L)) ps  PE 1  got it
$((3000 + L)) ps  PE 1  same time
$((3000 + 2 * L + 10)) ps  PE 0  after wait
EOF
checks=$((checks + 1))
sort -n -s "$T/pr.sim/prints.txt" >"$T/prints.sorted"
cmp -s "$T/prints.sorted" "$T/prints.want" ||
	fail "prints.txt: $(cat -A "$T/pr.sim/prints.txt" | head -n 8)"
expect_eq "$(jget "$T/pr.sim/summary.json" prints)" 6 "prints count"
checks=$((checks + 1))
[ -s "$T/tl.sim/prints.txt" ] &&
	fail "prints.txt of a run without prints is not empty"

finish
