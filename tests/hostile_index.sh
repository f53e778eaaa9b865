#!/bin/sh
# hostile_index.sh -- data files whose window index was rewritten with
# valid checksums: a dropped window, forged counts.  The reader must not
# believe an index that disagrees with the trailer or with the bytes
# present: `check' reports the damage, and the work stays bounded by the
# size of the file.
. "$SIBYL_SRCDIR/tests/lib.sh"

G="$T/good.trace"
expect_ok "$SIBYL" trace gen --pattern ring --ranks 8 --iters 10 --window 4 \
	-o "$G"
[ -f "$G/MANIFEST" ] || { fail "trace gen wrote no $G/MANIFEST"; finish; }
expect_ok "$SIBYL" trace check "$G"
sebs=$(sed -n 's/^gen.sebs = //p' "$G/MANIFEST")

# forge.py FILE WHAT: rewrite the index of data file FILE (FORMAT.md 4.2)
# with every checksum right; the trailer's SEB count is kept.
cat >"$T/forge.py" <<'EOF'
import os, struct, sys, zlib
sys.path.insert(0, os.path.join(os.environ["SIBYL_SRCDIR"], "tests", "data"))
from mktrace import varint as enc

def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1; v |= (c & 0x7f) << s; s += 7
        if not c & 0x80:
            return v, i

path, what = sys.argv[1], sys.argv[2]
d = open(path, "rb").read()
npes = struct.unpack("<I", d[32:36])[0]
tr = bytearray(d[-32:])
ioff = struct.unpack("<Q", tr[8:16])[0]
h = bytearray(d[ioff:ioff + 36])
slen = struct.unpack("<I", h[24:28])[0]
raw = zlib.decompress(d[ioff + 36:ioff + 36 + slen], -15)
i, pes = 0, []
for _ in range(npes):
    n, i = varint(raw, i)
    wins = []
    for _ in range(n):
        e = []
        for _ in range(5):
            v, i = varint(raw, i); e.append(v)
        wins.append(e)
    pes.append(wins)
tail = raw[i:]
if what == "drop-last":          # PE 0 loses its last window
    pes[0].pop()
elif what == "nsends":           # 2^32-1 sends in each PE's first window
    for w in pes:
        w[0][2] = 2**32 - 1
elif what == "overlap":          # every window runs to the index
    for w in pes:
        off = 0
        for e in w:
            off += e[0]
            e[3] = e[4] = ioff - off - 22
elif what == "trailer-sebs":     # the trailer agrees with a dropped window
    sebs = struct.unpack("<Q", tr[16:24])[0]
    tr[16:24] = struct.pack("<Q", sebs - pes[0][-1][1])
    pes[0].pop()
raw = b"".join(enc(len(w)) + b"".join(enc(x) for e in w for x in e)
               for w in pes) + tail
co = zlib.compressobj(6, zlib.DEFLATED, -15)
st = co.compress(raw) + co.flush()
h[8:16] = struct.pack("<Q", sum(len(w) for w in pes))
h[20:24] = struct.pack("<I", len(raw))
h[24:28] = struct.pack("<I", len(st))
h[28:32] = struct.pack("<I", zlib.crc32(st))
h[32:36] = struct.pack("<I", zlib.crc32(bytes(h[:32])))
tr[28:32] = struct.pack("<I", zlib.crc32(bytes(tr[:28])))
open(path, "wb").write(d[:ioff] + bytes(h) + st + bytes(tr))
EOF

# forged WHAT: a copy of the good trace with its index forged, in $X.
forged() {
	X="$T/$1.trace"
	rm -rf "$X" && cp -r "$G" "$X"
	py "exec(open('$T/forge.py').read())" "$X/proc-000000.sdat" "$1"
}

# A dropped last window: the trailer still counts every SEB, so the index
# is not believed; the windows are found by reading the frames, nothing is
# lost, and `check' says the trace is damaged, not valid.
forged drop-last
expect_exit 1 "$SIBYL" trace check "$X"
expect_grep 'the index lists [0-9]+ SEBs but the trailer counts' "$T/err"
expect_exit 1 "$SIBYL" trace info "$X"
expect_grep "^  SEBs +$sebs\$" "$T/out"
expect_grep 'no window was lost' "$T/err"

# 2^32-1 sends in windows that hold a few bytes: refused at once (the
# CPU-time limit catches a reader that believes it and walks them).
forged nsends
expect_exit 1 sh -c 'ulimit -t 30 && exec "$@"' sh "$SIBYL" trace check "$X"
expect_grep 'the index is malformed' "$T/err"
expect_exit 1 "$SIBYL" trace info "$X"
expect_grep "^  SEBs +$sebs\$" "$T/out"

# Windows each of which fits before the index, but not all together.
forged overlap
expect_exit 1 sh -c 'ulimit -t 30 && exec "$@"' sh "$SIBYL" trace check "$X"
expect_grep 'the index is malformed' "$T/err"

# Index and trailer forged together agree; the trace then reads as one
# PE shorter, and `check' finds the message that is sent but never
# awaited (or awaited but never sent).
forged trailer-sebs
expect_exit 1 "$SIBYL" trace check "$X"
expect_grep 'problem' "$T/out"

finish
