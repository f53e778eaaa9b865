# cli_trace.sh -- the `sibyl' driver and `sibyl trace info|dump|stats|pack|
# unpack' on traces made by `sibyl trace gen'.
. "$SIBYL_SRCDIR/tests/lib.sh"

have_python=0
if command -v python3 >/dev/null 2>&1; then
	have_python=1
else
	echo "python3 not found: the JSON checks are skipped" >&2
fi

# ---------------------------------------------------------- the driver
expect_ok "$SIBYL" --help
expect_grep '^Usage: sibyl' "$T/out"
expect_grep 'trace' "$T/out"
expect_ok "$SIBYL" --version
expect_grep '^sibyl [0-9]+\.[0-9]+' "$T/out"
expect_ok "$SIBYL" trace --help
expect_grep '^Usage: sibyl trace' "$T/out"
expect_ok "$SIBYL" help
expect_grep '^Usage: sibyl' "$T/out"
expect_ok "$SIBYL" help trace
expect_grep '^Usage: sibyl trace' "$T/out"

for sub in info dump check stats pack unpack gen; do
	expect_ok "$SIBYL" trace $sub --help
	expect_grep "^Usage: sibyl trace $sub" "$T/out"
	expect_grep 'Exit status' "$T/out"
	cp "$T/out" "$T/help1"
	expect_ok "$SIBYL" help trace $sub
	checks=$((checks + 1))
	cmp -s "$T/out" "$T/help1" ||
		fail "'sibyl help trace $sub' differs from 'sibyl trace $sub --help'"
	expect_exit 2 "$SIBYL" trace $sub --no-such-option
	expect_grep 'no-such-option' "$T/err"
	expect_grep "Try 'sibyl trace $sub --help'" "$T/err"
done

expect_exit 2 "$SIBYL"
expect_grep 'Usage: sibyl' "$T/err"
expect_exit 2 "$SIBYL" frobnicate
expect_grep "unknown command 'frobnicate'" "$T/err"
expect_exit 2 "$SIBYL" trac
expect_grep "Did you mean 'sibyl trace'" "$T/err"
expect_exit 2 "$SIBYL" trace dumpp
expect_grep "unknown command 'dumpp'" "$T/err"
expect_grep "Did you mean 'sibyl trace dump'" "$T/err"
expect_exit 2 "$SIBYL" trace
expect_grep 'Usage: sibyl trace' "$T/err"
expect_exit 2 "$SIBYL" help trace dumpx
expect_grep "Did you mean 'sibyl trace dump'" "$T/err"
expect_exit 2 "$SIBYL" --no-such-option
expect_grep "unknown option '--no-such-option'" "$T/err"
# Every subcommand names the option it refused (an unknown one, long or
# short, alone or in a cluster, with its =VALUE left out; or one given
# without its value), and points at --help.
for cmd in "sim" "map" "linkhist" "noise stats" "noise capture" \
	"trace info" "trace dump" "trace check" "trace stats" "trace pack" \
	"trace unpack" "trace gen"
do
	# shellcheck disable=SC2086
	expect_exit 2 "$SIBYL" $cmd --no-such=1
	expect_grep "^sibyl $cmd: unknown option '--no-such'$" "$T/err"
	expect_grep "^Try 'sibyl $cmd --help'" "$T/err"
done
expect_exit 2 "$SIBYL" map -qZ
expect_grep "^sibyl map: unknown option '-Z'$" "$T/err"
for case in "sim:-o" "sim:--config" "map:--order" "trace dump:-p" \
	"trace stats:--top" "trace pack:-o" "trace gen:-r" \
	"noise capture:--duration" "linkhist:-b"
do
	cmd=${case%%:*} opt=${case#*:}
	# shellcheck disable=SC2086
	expect_exit 2 "$SIBYL" $cmd "$opt"
	expect_grep "^sibyl $cmd: option '$opt' needs a value$" "$T/err"
done

# ------------------------------------------------------------ the traces
R="$T/ring.trace"
expect_ok "$SIBYL" trace gen --pattern ring --ranks 8 --iters 3 -o "$R"
[ -f "$R/MANIFEST" ] || { fail "trace gen wrote no $R/MANIFEST"; finish; }
# Several windows per PE and several data files, for ranges and damage.
M="$T/multi.trace"
expect_ok "$SIBYL" trace gen --pattern ring --ranks 12 --iters 10 \
	--window 4 --procs 3 -o "$M"
[ -f "$M/MANIFEST" ] || { fail "trace gen wrote no $M/MANIFEST"; finish; }

# ------------------------------------------------------------------ info
expect_ok "$SIBYL" trace info "$R"
expect_grep '^format +sibyl-trace 1\.' "$T/out"
expect_grep '^PEs +8$' "$T/out"
expect_grep 'gen\.pattern += ring' "$T/out"
expect_grep 'proc-000000\.sdat +PEs 0-7' "$T/out"
expect_grep '^damage +none' "$T/out"
expect_ok "$SIBYL" trace info --json "$R"
cp "$T/out" "$T/ring.info.json"
expect_ok "$SIBYL" trace info --json "$M"
cp "$T/out" "$T/multi.info.json"
expect_ok "$SIBYL" trace info "$M"
expect_grep 'proc-000002\.sdat +PEs 8-11' "$T/out"

if [ $have_python = 1 ]; then
	py '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "directory", d["kind"]
assert d["npes"] == 8 and d["nprocs"] == 1, d
assert d["manifest"]["gen.pattern"] == "ring"
assert d["damaged"] is False and d["damage"] == []
t = d["totals"]
# ring: per rank and iteration a compute and a wait SEB, plus finalize.
assert t["sebs"] == 8 * (2 * 3 + 1), t
assert t["messages"] == 8 * 3, t
assert t["file_bytes"] == sum(f["bytes"] for f in d["files"]), d["files"]
' "$T/ring.info.json"
fi

# ------------------------------------------------------------------ dump
expect_ok "$SIBYL" trace dump "$R"
expect_grep '^pe 0 seb 0 "compute"' "$T/out"
expect_grep '^    send +seq 0 -> 1 ' "$T/out"
expect_grep '^    waits +7:0$' "$T/out"
checks=$((checks + 1))
n=$(grep -c '^pe ' "$T/out")
[ "$n" -eq 56 ] || fail "dump listed $n SEBs, expected 56"

for tr in ring multi; do
	if [ $tr = ring ]; then p="$R"; else p="$M"; fi
	expect_ok "$SIBYL" trace dump --json "$p"
	cp "$T/out" "$T/$tr.dump.json"
	[ $have_python = 1 ] || continue
	py '
import json, sys
sebs = json.load(open(sys.argv[1]))["totals"]["sebs"]
keys = {"pe", "seb", "name", "duration_ps", "preds_default", "preds",
        "waits", "done", "sends", "prints", "markers", "posted"}
n = 0
sent, waited = set(), set()
for line in open(sys.argv[2]):
    o = json.loads(line)
    assert set(o) == keys, sorted(o)
    for s in o["sends"]:
        sent.add((o["pe"], s["seq"], s["dst"]))
    for w in o["waits"]:
        waited.add((w["src"], w["seq"], o["pe"]))
    n += 1
assert n == sebs, "%d JSON lines, info says %d SEBs" % (n, sebs)
assert sent == waited, "sends and waits do not pair up"
' "$T/$tr.info.json" "$T/$tr.dump.json"
done

# A PE and SEB range prints exactly those SEBs, in order.
expect_ok "$SIBYL" trace dump --json --pe 2-3,6,11 --seb 1-2,5,9- "$M"
cp "$T/out" "$T/range.json"
expect_ok "$SIBYL" trace dump --pe 2-3,6,11 --seb 1-2,5,9- "$M"
cp "$T/out" "$T/range.txt"
if [ $have_python = 1 ]; then
	py '
import json, sys
full = [json.loads(l) for l in open(sys.argv[1])]
got = [(o["pe"], o["seb"]) for o in map(json.loads, open(sys.argv[2]))]
want = [(o["pe"], o["seb"]) for o in full
        if o["pe"] in (2, 3, 6, 11) and
        (o["seb"] in (1, 2, 5) or o["seb"] >= 9)]
assert got == want, (got, want)
text = [l.split()[1:4:2] for l in open(sys.argv[3]) if l.startswith("pe ")]
assert [(int(a), int(b)) for a, b in text] == want, text
' "$T/multi.dump.json" "$T/range.json" "$T/range.txt"
fi
expect_ok "$SIBYL" trace dump --pe 5 --seb 3 "$M"
checks=$((checks + 1))
[ "$(grep -c '^pe ' "$T/out")" -eq 1 ] || fail "--pe 5 --seb 3 did not list one SEB"
expect_grep '^pe 5 seb 3 ' "$T/out"

expect_exit 2 "$SIBYL" trace dump --pe 12 "$M"
expect_grep 'out of range' "$T/err"
expect_exit 2 "$SIBYL" trace dump --seb 3-x "$M"
expect_grep "'3-x'" "$T/err"

# A reader that goes away is not an error.
checks=$((checks + 1))
"$SIBYL" trace dump "$M" 2>"$T/err" | head -1 >"$T/out"
[ -s "$T/err" ] && fail "dump | head printed: $(cat "$T/err")"
checks=$((checks + 1))
status=$( ( "$SIBYL" trace dump --json "$M" 2>"$T/err"; echo $? >"$T/st" ) |
	head -1 >/dev/null; cat "$T/st")
[ "$status" = 0 ] || fail "dump | head exited $status"
[ -s "$T/err" ] && fail "dump --json | head printed: $(cat "$T/err")"

# ----------------------------------------------------------------- stats
expect_ok "$SIBYL" trace stats --quiet "$M"
expect_grep '^SEBs +[0-9]' "$T/out"
expect_grep 'SEB duration' "$T/out"
expect_grep 'message size' "$T/out"
expect_grep 'per SEB +[0-9.]+ bytes on disk' "$T/out"
expect_grep '^  compute ' "$T/out"
expect_ok "$SIBYL" trace stats --json "$M"
cp "$T/out" "$T/stats.json"
if [ $have_python = 1 ]; then
	py '
import json, sys
i = json.load(open(sys.argv[1]))["totals"]
s = json.load(open(sys.argv[2]))
assert s["sebs"] == i["sebs"] and s["messages"] == i["messages"], (s, i)
assert s["windows_read"] == i["windows"] and s["windows_failed"] == 0
assert s["message_size"]["count"] == i["messages"]
assert s["duration_ps"]["count"] == i["sebs"]
assert sum(b["count"] for b in s["duration_ps"]["histogram"]) == i["sebs"]
assert sum(n["count"] for n in s["names"]) == i["sebs"]
assert s["message_size"]["min"] == s["message_size"]["max"] == 1024
' "$T/multi.info.json" "$T/stats.json"
fi

# ---------------------------------------------------------- pack, unpack
expect_ok "$SIBYL" trace pack "$R"
checks=$((checks + 1))
[ -f "$R.tar.gz" ] || fail "pack did not write $R.tar.gz"
expect_exit 2 "$SIBYL" trace pack "$R"
expect_grep 'exists' "$T/err"
expect_ok "$SIBYL" trace pack --force "$R"
expect_ok "$SIBYL" trace pack -o "$T/multi.tar" "$M"
expect_exit 2 "$SIBYL" trace pack "$R.tar.gz"
expect_grep 'not a directory' "$T/err"

for b in "$R.tar.gz:$T/ring.info.json" "$T/multi.tar:$T/multi.info.json"; do
	expect_ok "$SIBYL" trace info --json "${b%%:*}"
	cp "$T/out" "$T/bundle.info.json"
	[ $have_python = 1 ] || continue
	py '
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
assert b["kind"] == "bundle", b["kind"]
assert a["totals"] == b["totals"], (a["totals"], b["totals"])
assert a["manifest"] == b["manifest"]
' "${b#*:}" "$T/bundle.info.json"
done
expect_ok "$SIBYL" trace dump --json "$T/multi.tar"
checks=$((checks + 1))
cmp -s "$T/out" "$T/multi.dump.json" || fail "dump of the bundle differs"

expect_ok "$SIBYL" trace unpack -o "$T/un.trace" "$T/multi.tar"
for f in "$M"/MANIFEST "$M"/proc-*.sdat; do
	checks=$((checks + 1))
	cmp -s "$f" "$T/un.trace/$(basename "$f")" ||
		fail "unpacked $(basename "$f") differs from the original"
done
expect_exit 2 "$SIBYL" trace unpack -o "$T/un.trace" "$T/multi.tar"
expect_grep 'exists' "$T/err"
expect_ok "$SIBYL" trace unpack --force -o "$T/un.trace" "$T/multi.tar"
mv "$R" "$T/ring.orig"
expect_ok "$SIBYL" trace unpack "$R.tar.gz"
checks=$((checks + 1))
cmp -s "$T/ring.orig/proc-000000.sdat" "$R/proc-000000.sdat" ||
	fail "unpack to the default directory did not restore $R"
expect_exit 2 "$SIBYL" trace unpack "$M"
expect_grep 'is a directory' "$T/err"

# ---------------------------------------------------------------- damage
C="$T/cut.trace"
cp -r "$M" "$C"
size=$(wc -c <"$C/proc-000001.sdat")
head -c $((size / 2)) "$M/proc-000001.sdat" >"$C/proc-000001.sdat"
expect_exit 1 "$SIBYL" trace info "$C"
expect_grep 'proc-000001\.sdat' "$T/out"
expect_grep 'recovered [0-9]+ windows, [0-9]+ SEBs' "$T/out"
expect_grep '[0-9,]+ of [0-9,]+ bytes valid' "$T/out"
expect_grep 'warning' "$T/err"
expect_exit 1 "$SIBYL" trace info --json "$C"
cp "$T/out" "$T/cut.info.json"
if [ $have_python = 1 ]; then
	py '
import json, sys
full = json.load(open(sys.argv[1]))["totals"]
d = json.load(open(sys.argv[2]))
assert d["damaged"] is True and len(d["damage"]) == 1, d["damage"]
e = d["damage"][0]
assert e["file"] == "proc-000001.sdat" and e["proc"] == 1, e
assert e["valid_bytes"] <= e["file_bytes"] == int(sys.argv[3]) // 2, e
assert 0 < d["totals"]["sebs"] < full["sebs"], d["totals"]
' "$T/multi.info.json" "$T/cut.info.json" "$size"
fi
expect_exit 1 "$SIBYL" trace dump "$C"
expect_exit 1 "$SIBYL" trace stats -q "$C"

# A window whose payload fails its checksum: reported, the rest goes on.
if [ $have_python = 1 ]; then
	X="$T/crc.trace"
	cp -r "$M" "$X"
	py '
import struct, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
off, winds = 64, 0
while off + 4 <= len(data):
    tag = bytes(data[off:off + 4])
    if tag == b"WIND":
        hlen = data[off + 4]
        fields, p = [], off + 5
        while p < off + hlen - 8:  # nine varints (FORMAT.md 4.2)
            v, shift = 0, 0
            while True:
                b = data[p]; p += 1
                v |= (b & 0x7f) << shift; shift += 7
                if b < 0x80:
                    break
            fields.append(v)
        stored = fields[7]
        winds += 1
        if winds == 2:  # flip a payload byte of the second window
            data[off + hlen] ^= 0xff
            break
        off += hlen + stored
    elif tag == b"STRS":
        off += 24 + struct.unpack_from("<I", data, off + 12)[0]
    elif tag == b"DICT":
        off += 16 + struct.unpack_from("<I", data, off + 4)[0]
    else:
        raise SystemExit("unexpected frame %r at %d" % (tag, off))
open(path, "wb").write(data)
' "$X/proc-000000.sdat"
	expect_exit 1 "$SIBYL" trace stats --quiet "$X"
	expect_grep 'proc-000000\.sdat' "$T/err"
	expect_grep 'window' "$T/err"
	expect_grep '^SEBs +[0-9]' "$T/out"
	expect_exit 1 "$SIBYL" trace dump "$X"
	expect_grep 'window' "$T/err"
fi

# ------------------------------------------------------ nonexistent paths
for sub in info dump stats pack unpack; do
	expect_exit 2 "$SIBYL" trace $sub "$T/no-such.trace"
	expect_grep "$T/no-such\\.trace" "$T/err"
done

# A trace written in format 1.0 (tests/data/trace-1.0: `sibyl trace gen
# -p kneighbor -r 8' of Sibyl 0.1.0 before format 1.1) reads unchanged:
# it checks, and predicts what the same trace generated today predicts.
old=$SIBYL_SRCDIR/tests/data/trace-1.0
expect_ok "$SIBYL" trace info "$old"
expect_grep 'sibyl-trace 1\.0' "$T/out"
expect_ok "$SIBYL" trace check "$old"
expect_ok "$SIBYL" trace gen -p kneighbor -r 8 -o "$T/new.trace"
expect_ok "$SIBYL" sim -q "$old" -o "$T/old.sim"
expect_ok "$SIBYL" sim -q "$T/new.trace" -o "$T/new.sim"
checks=$((checks + 1))
a=$(sed -n 's/.*"predicted_time_ps": \([0-9]*\),.*/\1/p' "$T/old.sim/summary.json")
b=$(sed -n 's/.*"predicted_time_ps": \([0-9]*\),.*/\1/p' "$T/new.sim/summary.json")
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" = 10011024000 ] ||
	fail "format 1.0 trace predicts '$a' ps, today's '$b' ps (want 10011024000)"
expect_ok "$SIBYL" trace stats --regions "$old"
expect_grep 'no code regions' "$T/out"

finish
