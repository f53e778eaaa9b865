#!/bin/sh
# validate_harness.sh -- bench/validate.py without timing anything: its
# command line, its reading of the programs' output and of prints.txt
# and its tables on canned inputs, and the marks the validation programs
# leave for `sibyl sim' (bench/validate/p2p.c and examples/kneighbor.c
# emulated on 2 ranks: every timed region has its begin and end in
# prints.txt, in order, on rank 0).  No figure is compared with another:
# `make check' never depends on the machine's speed.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

V="$SIBYL_SRCDIR/bench/validate.py"

# The command line.
expect_ok python3 "$V" --help
expect_grep '[-]-hostfile' "$T/out"
expect_grep '[-]-quick' "$T/out"
expect_exit 2 python3 "$V" --programs pingpong,nosuch
expect_grep "unknown program 'nosuch'" "$T/err"
expect_exit 2 python3 "$V" --runs 0
expect_exit 1 python3 "$V" --build "$T/nowhere" -o "$T/v"
expect_grep 'build directory' "$T/err"
[ -e "$T/v" ] && fail "a refused run left $T/v behind"

# The parsers and the tables, on canned inputs.
py '
import importlib.util, sys
spec = importlib.util.spec_from_file_location("validate", sys.argv[1])
v = importlib.util.module_from_spec(spec)
spec.loader.exec_module(v)

native = [v.parse_native("curve", "time: pingpong size=1 iters=10 "
                         "iter_us=%s total_s=1\ntime: pingpong size=1024 "
                         "iters=10 iter_us=%s total_s=1\n" % (a, b))
          for a, b in (("1.0", "4.0"), ("3.0", "2.0"), ("2.0", "3.0"))]
assert native[0] == {1: 1.0, 1024: 4.0}, native[0]
prints = ("1000000 ps  PE 0  timed: begin pingpong 1\n"
          "5000 ps  PE 1  timed: begin pingpong 1\n"
          "21000000 ps  PE 0  timed: end pingpong 1\n"
          "30000000 ps  PE 0  other text\n"
          "40000000 ps  PE 0  timed: begin pingpong 1024\n"
          "70000000 ps  PE 0  timed: end pingpong 1024\n")
assert v.parse_prints(prints) == {"pingpong 1": (1000000, 21000000),
                                  "pingpong 1024": (40000000, 70000000)}
pred = v.predicted("curve", prints, {1: 10, 1024: 10})
assert pred == {1: 2.0, 1024: 3.0}, pred
rows = v.points_of("curve", native, {None: {"default": {1: 1.0, 1024: 6.0},
                                           "calibrated": pred,
                                           "variability": None}})
assert rows[0]["native"]["median"] == 2.0 and rows[0]["native"]["min"] == 1.0
assert rows[0]["error"]["calibrated"] == 0.0
assert rows[1]["error"]["default"] == 1.0
assert rows[1]["error"]["variability"] is None

region = v.parse_native("region", "kneighbor: ...\ntime: iter_us=1 "
                        "total_s=1.250000\n")
assert region == {"": 1.25}, region
rp = v.predicted("region", "7 ps  PE 0  timed: begin\n"
                 "1100000000007 ps  PE 0  timed: end\n", None)
assert rp == {"": 1.1}, rp
for bad in ("no time here\n",):
    try:
        v.parse_native("region", bad)
        raise SystemExit("parse_native accepted %r" % bad)
    except ValueError:
        pass

res = {"tolerance": 0.1, "variability": False, "programs": [
    {"name": "pingpong", "kind": "curve", "points": rows},
    {"name": "kneighbor", "kind": "region",
     "points": v.points_of("region", [region], {None: {
         "default": rp, "calibrated": rp, "variability": None}})}]}
text = v.text_table(res)
assert "n/a (not available)" in text, text
assert "1 KiB" in text and "+100.0%" in text and "-12.0%" in text, text
assert "calibrated +0.0% worst, 2/2 within 10%" in text, text
md = v.markdown_table(res)
assert md.startswith("| program | size |"), md
assert md.count("\n| pingpong |") == 2, md
assert "| all (3) |" in md, md

# Regimes: the references around each size say which regime a
# measurement saw; each regime is compared with its own calibration,
# and a measurement across a change of regime with none.
refs = v.parse_refs("time: pingpong size=1 iters=10 iter_us=1 total_s=1 "
                    "ref_us=0.1300,0.1400\n")
assert refs == {1: (0.13, 0.14)}, refs
assert v.regime_of((0.13, 0.14), 0.2) == "fast"
assert v.regime_of((0.38, 0.39), 0.2) == "slow"
assert v.regime_of((0.13, 0.39), 0.2) == "mixed"
assert v.regime_of((0.13, 0.14), None) is None
runs = [{1: 0.26}, {1: 0.27}, {1: 0.78}, {1: 0.5}, {1: 0.25}]
labels = [{1: g} for g in ("fast", "fast", "slow", "mixed", "fast")]
preds = {"fast": {"default": {1: 0.4}, "calibrated": {1: 0.26},
                  "variability": None},
         "slow": {"default": {1: 0.4}, "calibrated": {1: 0.76},
                  "variability": None}}
rr = v.points_of("curve", runs, preds, labels)
assert [r["regime"] for r in rr] == ["fast", "slow"], rr
assert rr[0]["native"]["runs"] == [0.26, 0.27, 0.25], rr
assert rr[0]["native"]["median"] == 0.26 and rr[0]["error"]["calibrated"] == 0
assert abs(rr[1]["error"]["calibrated"] + 0.02 / 0.78) < 1e-12, rr
assert rr[0]["runs_mixed"] == 1
mixed = v.points_of("curve", [{1: 0.5}], preds, [{1: "mixed"}])
assert mixed[0]["regime"] == "mixed" and \
    mixed[0]["predicted"]["calibrated"] is None, mixed
res = {"tolerance": 0.1, "variability": False, "programs": [
    {"name": "pingpong", "kind": "curve", "points": rr}]}
text = v.text_table(res)
assert "fast (3)" in text and "slow (1)" in text, text
assert "rows in the fast regime 1, in the slow 1" in text, text
assert "1 measurement across a change of regime, not compared" in text, text

# Several emulations: per regime the median of those made in it, of all
# when none was; the emulations spread over the rounds.
def pr(fast, slow):
    return {"fast": {"default": {1: 9.0}, "calibrated": {1: fast},
                     "variability": None},
            "slow": {"default": {1: 9.0}, "calibrated": {1: slow},
                     "variability": None}}
c = v.combine([pr(1.0, 5.0), pr(2.0, 6.0), pr(4.0, 7.0)],
              ["fast", "fast", "mixed"])
assert c["fast"]["calibrated"] == {1: 1.5}, c
assert c["slow"]["calibrated"] == {1: 6.0}, c
assert c["fast"]["variability"] is None and c["slow"]["default"] == {1: 9.0}
one = v.combine([{None: {"calibrated": {"": 3.0}}},
                 {None: {"calibrated": {"": 1.0}}}], [None, None])
assert one[None]["calibrated"] == {"": 2.0}, one
class A:
    pass
a = A()
for runs, emus, want in ((5, 3, [0, 1, 3]), (3, 1, [0]), (2, 3, [0, 1])):
    a.runs, a.emulations = runs, emus
    assert v.emulation_rounds(a) == want, (runs, emus, v.emulation_rounds(a))
' "$V"

# The marks of the programs, emulated.
emu_build p2p "$SIBYL_SRCDIR/bench/validate/p2p.c" || finish
emu_run 2 2 "$T/p2p.trace" "$T/p2p" pingpong -l 1,4096 -i 3
[ "$emu_status" -eq 0 ] || fail "p2p pingpong did not emulate: $(head -3 "$T/err")"
expect_grep '^time: pingpong size=4096 iters=3 .* ref_us=[0-9.]+,[0-9.]+$' "$T/out"
emu_run 2 2 "$T/bw.trace" "$T/p2p" bw -l 1,65536 -i 2 -w 4
[ "$emu_status" -eq 0 ] || fail "p2p bw did not emulate: $(head -3 "$T/err")"
expect_grep '^time: bw size=65536 iters=2 ' "$T/out"
emu_build kneighbor "$SIBYL_SRCDIR/examples/kneighbor.c" || finish
emu_run 2 2 "$T/kn.trace" "$T/kneighbor" -a 64 3 1 10
[ "$emu_status" -eq 0 ] || fail "kneighbor did not emulate: $(head -3 "$T/err")"
for t in p2p bw kn; do
	expect_ok "$SIBYL" sim -q "$T/$t.trace" -o "$T/$t.sim" \
		--set machine.cores_per_node=2
done
expect_grep '^[0-9]+ ps  PE 0  timed: begin pingpong 1$' "$T/p2p.sim/prints.txt"
expect_grep '^[0-9]+ ps  PE 0  timed: end bw 65536$' "$T/bw.sim/prints.txt"
py '
import importlib.util, sys
spec = importlib.util.spec_from_file_location("validate", sys.argv[1])
v = importlib.util.module_from_spec(spec)
spec.loader.exec_module(v)
d = sys.argv[2]
pp = v.parse_prints(open(d + "/p2p.sim/prints.txt").read())
assert sorted(pp) == ["pingpong 1", "pingpong 4096"], pp
assert all(0 < b < e for b, e in pp.values()), pp
assert pp["pingpong 1"][1] <= pp["pingpong 4096"][0], pp
bw = v.parse_prints(open(d + "/bw.sim/prints.txt").read())
assert sorted(bw) == ["bw 1", "bw 65536"], bw
kn = v.parse_prints(open(d + "/kn.sim/prints.txt").read())
assert list(kn) == [""] and 0 < kn[""][0] < kn[""][1], kn
' "$V" "$T"
finish
