# cli_regions.sh -- code regions (trace format 1.1): `sibyl trace stats
# --regions', the corrections in `sibyl trace stats', and the region:
# replacement rules of `sibyl sim'.
#
# The traces are written with tests/data/mktrace.py from descriptions
# made here, so every expected value is computed in this test: the
# statistics independently from `sibyl trace dump --json', the predicted
# times from the documented semantics (docs/machine.md section 6,
# fastsim/SEMANTICS.md section 4).
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

# ------------------------------------------------- a trace with regions
# 3 PEs in 2 data files, windows of 16 SEBs; five regions (one of them
# with blanks, '>' and parentheses, as the emulator writes them), SEBs
# without a region, and corrections of every reason.
python3 - "$T/regions.txt" <<'EOF'
import sys
regions = ["main~(kn.c:120)~>~main~(kn.c:131)",
           "main~(kn.c:131)~>~main~(kn.c:120)",
           "solve+0x1f~(app)~>~main~(kn.c:120)",
           "-~>~main~(kn.c:120)",
           "x~[*]~>~y"]
reasons = ["off-cpu", "outlier", "page-faults", "cold"]
seed = 12345
def rnd():
    global seed
    seed = (seed * 1103515245 + 12345) % 2**31
    return seed >> 12
out = ["npes 3", "window 16", "procs 2"]
for pe in range(3):
    for i in range(40 + 17 * pe):
        k = rnd() % 6
        # durations from 0 to about 10 ms, spread over the decades
        d = (rnd() % 1000) * 10 ** (rnd() % 8)
        items = []
        if k < 5:
            items.append("r:" + regions[k])
        if rnd() % 7 == 0:
            items.append("c:%s:%d" % (reasons[rnd() % 4],
                                      d + rnd() % 100000))
        out.append("%d %s %d %s" % (pe, "n%d" % (k % 3), d,
                                    " ".join(items)))
open(sys.argv[1], "w").write("\n".join(out) + "\n")
EOF
craft regions <"$T/regions.txt"
RT=$T/regions.trace
expect_ok "$SIBYL" trace check --quiet "$RT"
expect_ok "$SIBYL" trace dump --json "$RT"
mv "$T/out" "$T/dump.jsonl"

# The region table, the corrections and the quantiles, from the dump.
cat >"$T/expect.py" <<'EOF'
import json, sys
def load(dump):
    regs, tot = {}, {"sebs": 0, "time": 0, "measured": 0, "reasons": {}}
    for line in open(dump):
        s = json.loads(line)
        r = s.get("region", "")
        d = s["duration_ps"]
        raw = s.get("raw_duration_ps", d)
        e = regs.setdefault(r, {"v": [], "ncorr": 0, "corr": 0, "raw": 0})
        e["v"].append(d)
        e["raw"] += raw
        tot["measured"] += raw
        if "corrected" in s:
            e["ncorr"] += 1
            e["corr"] += raw - d
            tot["sebs"] += 1
            tot["time"] += raw - d
            c = tot["reasons"].setdefault(s["corrected"], [0, 0])
            c[0] += 1
            c[1] += raw - d
    for e in regs.values():
        v = sorted(e["v"])
        n = len(v)
        q = lambda p: v[(n * p + 99) // 100 - 1]
        e.update(count=n, total=sum(v), min=v[0], max=v[-1],
                 median=q(50), p10=q(10), p90=q(90), p99=q(99))
    return regs, tot
def order(regs, key):
    names = sorted(regs)                       # by name, A to Z
    if key == "name":
        return names
    names.sort(key=lambda r: -regs[r]["total"])
    if key == "total":
        return names
    k = {"corrected": lambda r: (-regs[r]["corr"], -regs[r]["ncorr"])}.get(
        key, lambda r: -regs[r][key])
    return sorted(names, key=k)
EOF

rstats() { # ARGS...: stats --regions --json into $T/rs.json
	expect_ok "$SIBYL" trace stats -q --regions --json "$@" "$RT"
	mv "$T/out" "$T/rs.json"
}
rstats --top 0
py '
import json, sys
sys.path.insert(0, sys.argv[3])
from expect import load, order
regs, tot = load(sys.argv[1])
j = json.load(open(sys.argv[2]))
assert j["quantiles"] == "exact", j["quantiles"]
assert j["sort"] == "total"
assert j["sebs"] == sum(e["count"] for e in regs.values()), j["sebs"]
assert j["sebs_with_region"] == j["sebs"] - regs[""]["count"]
assert j["regions_total"] == len(regs) == 6, j["regions_total"]
assert len(j["regions"]) == 6
c = j["corrections"]
assert c["sebs"] == tot["sebs"] > 0 and c["time_ps"] == tot["time"], c
assert c["measured_ps"] == tot["measured"], c
assert j["duration_ps"] == sum(e["total"] for e in regs.values())
for why in ("off-cpu", "outlier", "page-faults", "cold"):
    want = tot["reasons"].get(why, [0, 0])
    assert want[0] > 0, why
    got = c["by_reason"][why]
    assert [got["sebs"], got["time_ps"]] == want, (why, got, want)
for row in j["regions"]:
    e = regs[row["region"] or ""]
    for k in ("count", "min", "median", "p10", "p90", "p99", "max",
              "total"):
        want = e[k]
        got = row[k] if k == "count" else row[k + "_ps"]
        assert got == want, (row["region"], k, got, want)
    assert row["corrected"] == e["ncorr"], row
    assert row["corrected_ps"] == e["corr"], row
    assert row["measured_ps"] == e["raw"], row
assert [r["region"] or "" for r in j["regions"]] == order(regs, "total")
' "$T/dump.jsonl" "$T/rs.json" "$T"

# Every sort key, and --top.
for key in count median p10 p90 p99 max corrected name; do
	rstats --top 0 --sort $key
	py '
import json, sys
sys.path.insert(0, sys.argv[3])
from expect import load, order
regs, tot = load(sys.argv[1])
j = json.load(open(sys.argv[2]))
assert j["sort"] == sys.argv[4]
got = [r["region"] or "" for r in j["regions"]]
assert got == order(regs, sys.argv[4]), (sys.argv[4], got)
' "$T/dump.jsonl" "$T/rs.json" "$T" $key
done
rstats --top 2 --sort count
py '
import json, sys
sys.path.insert(0, sys.argv[3])
from expect import load, order
regs, tot = load(sys.argv[1])
j = json.load(open(sys.argv[2]))
assert j["regions_total"] == 6
assert [r["region"] or "" for r in j["regions"]] == order(regs, "count")[:2]
' "$T/dump.jsonl" "$T/rs.json" "$T"

# Quantiles from histograms (--exact 0: from the start; --exact 50: past
# the 50th SEB): within 1/256 of the exact value, counts and sums exact.
for n in 0 50; do
	rstats --top 0 --exact $n
	py '
import json, sys
sys.path.insert(0, sys.argv[3])
from expect import load
regs, tot = load(sys.argv[1])
j = json.load(open(sys.argv[2]))
assert j["quantiles"] == "histogram", j["quantiles"]
for row in j["regions"]:
    e = regs[row["region"] or ""]
    for k in ("count", "total", "min", "max", "corrected"):
        got = row[k] if k in ("count", "corrected") else row[k + "_ps"]
        want = e[k] if k != "corrected" else e["ncorr"]
        assert got == want, (k, got, want)
    for k in ("median", "p10", "p90", "p99"):
        got, want = row[k + "_ps"], e[k]
        assert abs(got - want) * 256 <= want, (row["region"], k, got, want)
' "$T/dump.jsonl" "$T/rs.json" "$T"
done
# Enough room: exact again.
rstats --exact 1k
expect_grep '"quantiles":"exact"' "$T/rs.json"

# The readable table: every region in full, the one without as such.
expect_ok "$SIBYL" trace stats -q --regions "$RT"
expect_grep '^SEBs +[0-9]+ in 5 code regions \([0-9]+ without a region\)$' \
	"$T/out"
expect_grep '^corrected +[0-9]+ SEBs, .* measured: off-cpu [0-9]+ \(.*\), outlier [0-9]+ \(.*\), page-faults [0-9]+ \(.*\), cold [0-9]+ \(.*\)$' \
	"$T/out"
expect_grep '^quantiles +exact \(nearest rank\)$' "$T/out"
expect_grep '^code regions by total duration \(6 of 6\)$' "$T/out"
expect_grep '^ +count +total +median +p10 +p90 +p99 +max +corrected +corr\. time +region$' \
	"$T/out"
expect_grep ' main \(kn\.c:120\) > main \(kn\.c:131\)$' "$T/out"
expect_grep ' x \[\*\] > y$' "$T/out"
expect_grep ' \(no region\)$' "$T/out"
# The count of a region, as the dump has it.
n=$(grep -c '"region":"solve+0x1f (app) > main (kn.c:120)"' "$T/dump.jsonl")
expect_grep "^ +$n +.* solve\\+0x1f \\(app\\) > main \\(kn\\.c:120\\)\$" \
	"$T/out"
expect_ok "$SIBYL" trace stats -q --regions --sort name --top 1 "$RT"
expect_grep '^code regions by name \(1 of 6\)$' "$T/out"
expect_grep ' \(no region\)$' "$T/out"

# The default summary: one line of corrections; the same in --json.
expect_ok "$SIBYL" trace stats -q "$RT"
expect_grep '^corrected +[0-9]+ SEBs, .* measured: off-cpu ' "$T/out"
checks=$((checks + 1))
[ "$(grep -c '^corrected' "$T/out")" -eq 1 ] || fail "not one corrected line"
expect_ok "$SIBYL" trace stats -q --json "$RT"
mv "$T/out" "$T/s.json"
py '
import json, sys
sys.path.insert(0, sys.argv[3])
from expect import load
regs, tot = load(sys.argv[1])
c = json.load(open(sys.argv[2]))["corrections"]
assert c["sebs"] == tot["sebs"] and c["time_ps"] == tot["time"], c
assert c["by_reason"]["outlier"]["sebs"] == tot["reasons"]["outlier"][0]
' "$T/dump.jsonl" "$T/s.json" "$T"

# Usage errors.
expect_exit 2 "$SIBYL" trace stats --regions --sort mean "$RT"
expect_grep "--sort: unknown key 'mean' \(one of total, count, median" \
	"$T/err"
expect_exit 2 "$SIBYL" trace stats --sort count "$RT"
expect_grep '--sort orders the table of code regions: add --regions' \
	"$T/err"
expect_exit 2 "$SIBYL" trace stats --regions --exact many "$RT"
expect_grep '--exact' "$T/err"

# ------------------------------------------- traces without any region
gen ring -p ring -r 4 -i 2
expect_ok "$SIBYL" trace stats -q --regions "$T/ring.trace"
expect_grep '^no code regions: the trace was written before format 1\.1 or by a generator$' \
	"$T/out"
expect_ok "$SIBYL" trace stats -q --regions --json "$T/ring.trace"
py '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["regions"] == [] and j["regions_total"] == 0, j
assert j["note"].startswith("no code regions: the trace was written"), j
assert j["sebs"] > 0 and j["sebs_with_region"] == 0, j
assert j["corrections"]["sebs"] == 0, j
' "$T/out"
expect_ok "$SIBYL" trace stats -q "$T/ring.trace"
checks=$((checks + 1))
! grep -q '^corrected' "$T/out" || fail "a corrected line without corrections"

# ----------------------------------------------------- region: rules
# One PE: the run lasts the sum of its SEBs.  SEB i lasts 2^i ns, so the
# predicted time tells exactly which SEBs a rule changed.
A='main~(k.c:10)~>~main~(k.c:20)'
B='main~(k.c:20)~>~main~(k.c:10)'
S='solve+0x1f~(app)~>~main~(k.c:10)'
F='-~>~main~(k.c:10)'
cat >"$T/one.txt" <<EOF
npes 1
window 4
0 init   1000 r:$F
0 compute 2000 r:$A
0 compute 4000 r:$B
0 solve   8000 r:$S c:outlier:9000
0 io     16000
0 compute 32000 r:$A
0 compute 64000 r:$B
0 solve  128000 r:$S
0 io     256000
0 compute 512000 r:$A
EOF
craft one <"$T/one.txt"
ALL=1023000
expect_time $ALL "no rules" one

# rule: an SEB of traced duration d in region REG named NAME; the first
# matching rule wins.  Written out by hand, then checked by a model.
expect_time $((ALL - 2000 - 32000 - 512000)) "one region, all of it" one \
	-r 'region:main (k.c:10) > main (k.c:20)=0'
expect_time $((ALL - 1000 - 4000 - 8000 - 64000 - 128000)) \
	"regions ending at k.c:10" one -r 'region:*> main (k.c:10)=0'
expect_time $((16000 + 256000 + 8 * 3000)) "every region" one \
	-r 'region:*=3ns'
expect_time $((1000 + 2000 + 4000 + 16000 + 256000 + 5 * 1000)) \
	"cut-off, unquoted" one -r 'region:*>4ns=1ns'
expect_time $((ALL - 4000 - 8000 - 64000 - 128000 + 4 * 500)) \
	"cut-off, quoted" one -r 'region:"* > main (k.c:10)">3ns=500ps'
expect_time $ALL "no region matches" one -r 'region:main (k.c:99)*=0'
# seb: and region: rules in the order given.
expect_time $((1000 + 5 * 5000 + 8000 + 16000 + 128000 + 256000)) \
	"seb: first" one -r 'seb:compute=5ns; region:main (k.c:10) > *=0'
expect_time $((1000 + 2 * 5000 + 8000 + 16000 + 128000 + 256000)) \
	"region: first" one -r 'region:main (k.c:10) > *=0; seb:compute=5ns'
expect_time $((1000 + 2 * 5000 + 8000 + 16000 + 128000 + 256000)) \
	"region: from --replace before seb: from the configuration" one \
	-r 'region:main (k.c:10) > *=0' --set 'replace.rules=seb:compute=5ns'
# Not replaced: cpu.factor and scale: apply; replaced: they do not.
expect_time $((2 * 7000 + (ALL - 8000 - 128000) / 2)) "with cpu.factor" \
	one --cpu-factor 0.5 -r 'region:solve*=7ns'
expect_time $((1000 + 3 * 9000 + 2 * (4000 + 64000) + 8000 + 16000 + 128000 + 256000)) \
	"with scale:" one -r 'scale:compute=2; region:*(k.c:20)=9ns'
# The rules in force are listed.
expect_ok "$SIBYL" sim -o "$T/d.sim" "$T/one.trace" \
	-r 'region:"* > main (k.c:10)">3ns=500ps'
expect_grep "^  SEBs of code regions matching '\\* > main \\(k\\.c:10\\)' that take more than 3ns take 500ps \\(--replace\\)\$" \
	"$T/d.sim/summary.txt"

# The same cases, checked against a model of the documented rules.
cat >"$T/model.py" <<'EOF'
import fnmatch
def total(path, rules, factor=1.0):
    sebs = []
    for line in open(path):
        f = line.split()
        if len(f) < 3 or not f[0].isdigit():
            continue
        reg = next((x[2:].replace("~", " ") for x in f[3:]
                    if x.startswith("r:")), "")
        sebs.append((f[1], reg, int(f[2])))
    # rules: (kind, key, cut or None, dur); scale: (kind, name, f)
    t = 0
    for name, reg, d in sebs:
        for r in rules:
            if r[0] == "scale":
                continue
            hit = (r[1] == name if r[0] == "seb" else
                   reg != "" and fnmatch.fnmatchcase(reg, r[1]))
            if hit and (r[2] is None or d > r[2]):
                t += r[3]
                break
        else:
            sc = next((r[2] for r in rules
                       if r[0] == "scale" and r[1] == name), 1)
            t += round(d * sc * factor)
    return t
EOF
model() { # RULES_PY [FACTOR]
	python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
from model import total
print(total(sys.argv[2], eval(sys.argv[3]), float(sys.argv[4])))
' "$T" "$T/one.txt" "$1" "${2:-1}"
}
expect_time "$(model '[("region", "main (k.c:10) > main (k.c:20)", None, 0)]')" \
	"model: one region" one -r 'region:main (k.c:10) > main (k.c:20)=0'
expect_time "$(model '[("region", "*", 4000, 1000)]')" "model: cut-off" \
	one -r 'region:*>4ns=1ns'
expect_time "$(model '[("seb", "compute", None, 5000), ("region", "main (k.c:10) > *", None, 0)]')" \
	"model: seb: first" one \
	-r 'seb:compute=5ns; region:main (k.c:10) > *=0'
expect_time "$(model '[("region", "solve*", None, 7000)]' 0.5)" \
	"model: cpu.factor" one --cpu-factor 0.5 -r 'region:solve*=7ns'
expect_time "$(model '[("scale", "compute", 2), ("region", "*(k.c:20)", None, 9000)]')" \
	"model: scale:" one -r 'scale:compute=2; region:*(k.c:20)=9ns'

# Offsets move with a replaced duration: PE 0's SEB (10 us, region A)
# sends at 5 us; PE 1 waits for it, and the run ends when the message
# arrives, at the offset + L + X(1000).  region:A=2us puts the send at
# floor(5 * 2 / 10) = 1 us, region:A=4us at 2 us.
cat >"$T/two.txt" <<EOF
npes 2
0 send 10000000 r:$A s:1:1000@5000000
1 recv 0 w:0:0
EOF
craft two <"$T/two.txt"
X=$(xfer 1000 1000000000)
NET="--set net.latency=8us --set net.bandwidth=1GB/s"
expect_time $((5000000 + 8000000 + X)) "offset, no rule" two $NET
expect_time $((1000000 + 8000000 + X)) "offset, region rule" two $NET \
	-r 'region:main*=2us'
expect_time $((2000000 + 8000000 + X)) "offset, region rule" two $NET \
	-r 'region:main*=4us'

# Errors name the rule and what is wrong.
expect_exit 2 "$SIBYL" sim -o "$T/e.sim" "$T/one.trace" -r 'region:=1ms'
expect_grep "rule 'region:=1ms': the region pattern is empty" "$T/err"
expect_exit 2 "$SIBYL" sim -o "$T/e.sim" "$T/one.trace" \
	-r 'region:"main (k.c:10) > *=1ms'
expect_grep 'the quoted region pattern has no closing quote' "$T/err"
expect_exit 2 "$SIBYL" sim -o "$T/e.sim" "$T/one.trace" -r 'region:main'
expect_grep 'expected region:PATTERN=DUR or region:PATTERN>CUT=DUR' "$T/err"
expect_exit 2 "$SIBYL" sim -o "$T/e.sim" "$T/one.trace" -r 'regio:x=1ms'
expect_grep 'a rule starts with size>=, size=, seb:, region: or scale:' \
	"$T/err"

finish
