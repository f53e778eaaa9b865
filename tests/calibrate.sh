# calibrate.sh -- `sibyl calibrate'.
#  - Samples of three known protocols (no noise) give a machine
#    description with those three ranges, and `sibyl sim' predicts a
#    ping-pong on it as the closed form of what the file says.
#  - A real measurement on this host (--quick, two ranks) writes every
#    output, and its machine description loads in `sibyl sim'.
#  - Samples of two speed regimes (a 1-byte reference with each) fit
#    the regime asked for; one regime is not split.
#  - Refusals: an existing output, a damaged sample file, bad options.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"
. "$SIBYL_SRCDIR/tests/mpienv.sh"

# pyin ARGS... < SCRIPT: a Python check read from standard input.
pyin() {
	checks=$((checks + 1))
	python3 - "$@" >"$T/py.out" 2>&1 ||
		fail "python check failed: $(tail -5 "$T/py.out")"
}

# ------------------------------------------------ three known protocols
# One-way time t(n): 300ns + n / 5GB/s below 4 KiB, 3us + n / 8GB/s
# below 64 KiB, 10us + n / 10GB/s above; overheads os and or of 100 and
# 150 ns, 1 and 1 us, 4 and 4 us.  A stream: 80ns + n / 10GB/s a
# message below 4 KiB, 2us + n / 12GB/s above.  Posting an MPI_Isend
# ("isend") costs the sender 100ns + n * 0.1ns below 4 KiB, the rest the
# blocking send's overhead: the first range's os_per_byte is 100 ps, and
# its transfer takes what is left of its 0.2 ns a byte, 10 GB/s.
python3 - "$T/samples.csv" <<'EOF' || fail "could not write the samples"
import sys
def t(n):
    if n < 4096: return 300e-9 + n / 5e9
    if n < 65536: return 3e-6 + n / 8e9
    return 10e-6 + n / 10e9
def st(n):
    return 80e-9 + n / 10e9 if n < 4096 else 2e-6 + n / 12e9
def ov(n):
    if n < 4096: return 100e-9, 150e-9
    if n < 65536: return 1e-6, 1e-6
    return 4e-6, 4e-6
def isend(n):
    return 100e-9 + n * 0.1e-9 if n < 4096 else ov(n)[0]
with open(sys.argv[1], "w") as f:
    f.write("# synthetic: three protocols\nkind,pair,size,seconds,host,cpu\n")
    sizes = sorted({0} | {int(2 ** (24 * i / 80)) for i in range(81)})
    for n in sizes:
        for r in range(3):
            f.write("pingpong,intra,%d,%.12e,,\n" % (n, t(n)))
            f.write("os,intra,%d,%.12e,,\n" % (n, ov(n)[0]))
            f.write("or,intra,%d,%.12e,,\n" % (n, ov(n)[1]))
            f.write("stream,intra,%d,%.12e,,\n" % (n, st(n)))
            f.write("isend,intra,%d,%.12e,,\n" % (n, isend(n)))
    f.write("copy,,67108864,6.7108864e-03,,\n")
    f.write("kernel,0,0,0.5,h,0\nkernel,1,0,0.55,h,1\n")
# Two regimes and one, for the section "two speed regimes" below.
import math, os
for name, two in (("two", True), ("one", False)):
    with open(os.path.join(os.path.dirname(sys.argv[1]), name + ".csv"),
              "w") as f:
        f.write("# sibyl-probe 2\nkind,pair,size,seconds,host,cpu,ref\n")
        i = 0
        for n in sizes:
            for r in range(5):
                for kind, v in (("pingpong", t(n)), ("os", ov(n)[0]),
                                ("or", ov(n)[1])):
                    jit = math.sin(i * 12.9898) * 43758.5453 % 1
                    if two:
                        k = 3 if r >= 3 else 1
                        ref = 130e-9 * k * (0.97 + 0.06 * jit)
                    else:
                        k, ref = 1, 200e-9 * math.exp(0.85 * (jit - 0.5))
                    f.write("%s,intra,%d,%.12e,,,%.4e\n" %
                            (kind, n, k * v, ref))
                    i += 1
        f.write("kernel,0,0,0.5,h,0,\nkernel,1,0,0.55,h,1,\n")
EOF
expect_ok "$SIBYL" calibrate --samples "$T/samples.csv" --no-plots -q \
	-o "$T/cal"
for f in machine.conf report.txt report.json samples.csv points.csv \
	fit.csv; do
	checks=$((checks + 1))
	[ -s "$T/cal/$f" ] || fail "calibrate wrote no $f"
done
# The ranges: from, latency (ps), bandwidth (B/s), os, or, os_per_byte --
# within 0.1% of the truth, and the first sizes of each protocol as
# breakpoints.  (The regime samples below have no "isend": their ranges
# take the blocking send's overhead, as before the probe measured it.)
pyin "$T/cal/machine.conf" <<'EOF'
import re, sys
conf = open(sys.argv[1]).read()
sec = conf.split("[intranode]")[1].split("[net]")[0]
line = [l for l in sec.splitlines() if l.startswith("protocols =")][0]
def ps(v):
    return float(v[:-2]) * 1000
ranges = []
for r in line.split("=", 1)[1].split(";"):
    frm, kv = r.split(":")
    d = dict(x.split("=") for x in kv.split())
    ranges.append((int(frm), ps(d["latency"]), float(d["bandwidth"][:-3]),
                   ps(d["os"]), ps(d["or"]),
                   ps(d.get("os_per_byte", "0ns"))))
want = [(0, 50e3, 10e9, 100e3, 150e3, 100), (4096, 1e6, 8e9, 1e6, 1e6, 0),
        (65536, 2e6, 10e9, 4e6, 4e6, 0)]
ok = len(ranges) == 3
for g, w in zip(ranges, want):
    first = min(int(2 ** (24 * i / 80)) for i in range(81)
                if int(2 ** (24 * i / 80)) >= w[0]) if w[0] else 0
    ok &= g[0] == first
    ok &= all(abs(a - b) <= 1e-3 * b + 1 for a, b in zip(g[1:], w[1:]))
if not ok:
    sys.exit("ranges %r, expected %r" % (ranges, want))
EOF
# The stream's turns, two ranges, within 0.1%; copies take turns.
expect_grep '^serialize = yes$' "$T/cal/machine.conf"
pyin "$T/cal/machine.conf" <<'EOF'
import sys
conf = open(sys.argv[1]).read()
line = [l for l in conf.splitlines() if l.startswith("stream =")][0]
got = []
for r in line.split("=", 1)[1].split(";"):
    frm, kv = r.split(":")
    d = dict(x.split("=") for x in kv.split())
    got.append((int(frm), float(d["latency"][:-2]),
                float(d["bandwidth"][:-3])))
want = [(0, 80, 10e9), (4096, 2000, 12e9)]
ok = len(got) == 2 and got[0][0] == 0 and 4096 <= got[1][0] <= 4300
ok = ok and all(abs(a - b) <= 1e-3 * b for g, w in zip(got, want)
                for a, b in zip(g[1:], w[1:]))
if not ok:
    sys.exit("stream %r, expected %r" % (got, want))
EOF
expect_grep '"error_max": 0\.0000' "$T/cal/report.json"
expect_grep 'calibrated 0\.0% median, 0\.0% worst; uncalibrated default' \
	"$T/cal/report.txt"

# sibyl sim on it: a ping-pong of 3 iterations of n bytes takes
# 3 * 2 * (os + n * os_per_byte + latency + ceil(n / bandwidth) + or) of
# n's range, with the values exactly as machine.conf writes them.
pp_on_cal() {   # N
	gen pp -p pingpong -r 2 -i 3 -s "$1" --compute 0
	want=$(python3 - "$T/cal/machine.conf" "$1" <<'EOF'
import sys
n = int(sys.argv[2])
sec = open(sys.argv[1]).read().split("[intranode]")[1].split("[net]")[0]
line = [l for l in sec.splitlines() if l.startswith("protocols =")][0]
best = None
for r in line.split("=", 1)[1].split(";"):
    frm, kv = r.split(":")
    if int(frm) <= n:
        best = dict(x.split("=") for x in kv.split())
def ps(v):
    a, b = v[:-2].split(".")
    return int(a) * 1000 + int(b)
bw = int(best["bandwidth"][:-3])
x = (n * 10**12 + bw - 1) // bw
o = ps(best["os"]) + n * ps(best.get("os_per_byte", "0.000ns"))
print(3 * 2 * (o + ps(best["latency"]) + x + ps(best["or"])))
EOF
)
	expect_time "$want" "ping-pong on the calibrated machine" pp \
		-c "$T/cal/machine.conf" --set machine.cores_per_node=2
}
pp_on_cal 1000
pp_on_cal 4000
pp_on_cal 20000
pp_on_cal 1048576

# ------------------------------------------------ two speed regimes
# The same three protocols, each sample with a 1-byte reference: 60% of
# them at 130 ns (times as above), 40% at 390 ns (every time 3 times
# longer), the references jittered by up to 6%.  The fast regime is
# fitted by default and gives the ranges of the single regime; --regime
# slow gives them 3 times slower; references of one regime spread as
# widely as a log-normal of sigma 0.25 are one regime.  (The samples are
# written with the three protocols' above.)
expect_ok "$SIBYL" calibrate --samples "$T/two.csv" --no-plots \
	-o "$T/two-auto"
expect_grep "intra-node: the host ran in two speed regimes \(1-byte one-way 0\.13[0-9] us and 0\.3[89][0-9] us\); fitted: the fast one \(--regime\)" \
	"$T/err"
expect_ok "$SIBYL" calibrate --samples "$T/two.csv" --no-plots -q \
	-o "$T/two-slow" --regime slow
expect_ok "$SIBYL" calibrate --samples "$T/two.csv" --no-plots -q \
	-o "$T/two-all" --regime all
expect_grep "two speed regimes: a 1-byte one-way time of 13[0-9]\.[0-9]+ns \(fast, 60% of the samples\) or 3[89][0-9]\.[0-9]+ns \(slow, 40%\).*fitted: fast" \
	"$T/two-auto/report.txt"
expect_grep '^# The samples show two speed regimes.*fitted: slow' \
	"$T/two-slow/machine.conf"
expect_grep 'fitted: all samples' "$T/two-all/report.txt"
expect_grep '"regimes": 2, "regime_fitted": "fast"' "$T/two-auto/report.json"
pyin "$T/two-auto/machine.conf" "$T/two-slow/machine.conf" <<'EOF'
import sys
def ranges(path):
    sec = open(path).read().split("[intranode]")[1].split("[net]")[0]
    line = [l for l in sec.splitlines() if l.startswith("protocols =")][0]
    out = []
    for r in line.split("=", 1)[1].split(";"):
        frm, kv = r.split(":")
        d = dict(x.split("=") for x in kv.split())
        out.append((int(frm), float(d["latency"][:-2]),
                    float(d["bandwidth"][:-3]), float(d["os"][:-2]),
                    float(d["or"][:-2])))
    return out
want = [(50, 5e9, 100, 150), (1000, 8e9, 1000, 1000),
        (2000, 10e9, 4000, 4000)]
for path, k in ((sys.argv[1], 1), (sys.argv[2], 3)):
    got = ranges(path)
    ok = len(got) == 3
    for g, w in zip(got, want):
        exp = (w[0] * k, w[1] / k, w[2] * k, w[3] * k)
        ok &= all(abs(a - b) <= 1e-3 * b for a, b in zip(g[1:], exp))
    if not ok:
        sys.exit("%s: ranges %r, expected %r times %d" % (path, got, want, k))
EOF
expect_ok "$SIBYL" calibrate --samples "$T/one.csv" --no-plots -q \
	-o "$T/one" --json
expect_grep '"regimes": 1, "regime_fitted": null' "$T/out"
expect_exit 2 "$SIBYL" calibrate --samples "$T/one.csv" --no-plots -q \
	-o "$T/one-slow" --regime slow
expect_grep "regime slow: the intra-node samples show one speed regime" \
	"$T/err"
expect_exit 2 "$SIBYL" calibrate --samples "$T/samples.csv" --no-plots -q \
	-o "$T/v1-slow" --regime slow
expect_grep "carry no 1-byte reference" "$T/err"
expect_exit 2 "$SIBYL" calibrate --samples "$T/two.csv" --regime medium \
	-o "$T/bad"
expect_grep "regime: 'medium' is not auto, fast, slow or all" "$T/err"

# ------------------------------------------------ a real measurement
plots=--no-plots
command -v gnuplot >/dev/null 2>&1 && plots=
# shellcheck disable=SC2086
expect_ok "$SIBYL" calibrate --quick $plots -q -o "$T/meas"
for f in machine.conf report.txt report.json samples.csv; do
	checks=$((checks + 1))
	[ -s "$T/meas/$f" ] || fail "a measurement wrote no $f"
done
if [ -z "$plots" ]; then
	checks=$((checks + 1))
	head -c 4 "$T/meas/pingpong-intra.png" | od -c | grep -q 'P   N   G' ||
		fail "pingpong-intra.png is not a PNG image"
fi
expect_grep '^kernel,1,' "$T/meas/samples.csv"
expect_grep '^stream,intra,' "$T/meas/samples.csv"
expect_grep '^isend,intra,' "$T/meas/samples.csv"
expect_grep '^pingpong,intra,[0-9]+,[^,]+,,,[0-9][.0-9e+-]+$' \
	"$T/meas/samples.csv"
expect_grep '^stream = 0: latency=' "$T/meas/machine.conf"
gen pp -p pingpong -r 2 -i 2 -s 4096 --compute 0
expect_ok "$SIBYL" sim -q -o "$T/meas.sim" "$T/pp.trace" \
	-c "$T/meas/machine.conf" --set machine.cores_per_node=2

# ------------------------------------------------------------ refusals
expect_exit 2 "$SIBYL" calibrate --samples "$T/samples.csv" --no-plots \
	-q -o "$T/cal"
expect_grep "already exists|--force" "$T/err"
expect_ok "$SIBYL" calibrate --samples "$T/samples.csv" --no-plots -q \
	-o "$T/cal" --force
printf 'kind,pair,size,seconds,host,cpu\npingpong,intra,12,abc,,\n' \
	>"$T/bad.csv"
expect_exit 2 "$SIBYL" calibrate --samples "$T/bad.csv" --no-plots -q \
	-o "$T/bad"
expect_grep "bad.csv:2: not a sample of sibyl-probe" "$T/err"
checks=$((checks + 1))
[ ! -e "$T/bad" ] || fail "a refused calibration left $T/bad behind"
printf 'kind,pair,size,seconds,host,cpu\nkernel,0,0,1,h,0\n' >"$T/nopp.csv"
expect_exit 2 "$SIBYL" calibrate --samples "$T/nopp.csv" --no-plots -q \
	-o "$T/bad"
expect_grep "holds no ping-pong sample" "$T/err"
# Hostile sample files: a device is refused before anything is copied
# (no output directory), a file cut in the middle of a line is refused
# with its line.
expect_exit 2 "$SIBYL" calibrate --samples /dev/zero -o "$T/zero" --no-plots
expect_grep "/dev/zero is a character device, not a regular file" "$T/err"
checks=$((checks + 1))
[ -e "$T/zero" ] && fail "calibrate --samples /dev/zero left $T/zero"
head -n 10 "$T/samples.csv" >"$T/cut.csv"
printf 'pingpong,intra,12' >>"$T/cut.csv"
expect_exit 2 "$SIBYL" calibrate --samples "$T/cut.csv" -o "$T/cut" \
	--no-plots
expect_grep "cut.csv:[0-9]+: not a sample of sibyl-probe" "$T/err"
expect_exit 2 "$SIBYL" calibrate --np 1 --no-plots -o "$T/bad"
expect_grep "np: 1 is out of range" "$T/err"
expect_exit 2 "$SIBYL" calibrate --samples "$T/samples.csv" \
	--hostfile h -o "$T/bad"
expect_grep "do not apply" "$T/err"
expect_exit 2 "$SIBYL" calibrate --max-size 10 -o "$T/bad"
expect_grep "max-size: 10 is out of range" "$T/err"
expect_exit 2 "$SIBYL" calibrate --bogus
expect_ok "$SIBYL" calibrate --help
expect_grep "^Usage: sibyl calibrate" "$T/out"

finish
