# cli_regions.sh -- code regions (trace format 1.1): `sibyl trace stats
# --regions' and the corrections in `sibyl trace stats'.
#
# The traces are written with tests/data/mktrace.py from descriptions
# made here, so every expected value is computed in this test,
# independently from `sibyl trace dump --json'.
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
reasons = ["off-cpu", "outlier", "page-faults"]
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
            items.append("c:%s:%d" % (reasons[rnd() % 3],
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
for why in ("off-cpu", "outlier", "page-faults"):
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
expect_grep '^corrected +[0-9]+ SEBs, .* measured: off-cpu [0-9]+ \(.*\), outlier [0-9]+ \(.*\), page-faults [0-9]+ \(.*\)$' \
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

finish
