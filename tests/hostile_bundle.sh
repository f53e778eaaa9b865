#!/bin/sh
# hostile_bundle.sh -- bundles made to hurt: decompression bombs, a huge
# MANIFEST, a corrupted gzip checksum, members no MANIFEST lists; and
# `trace unpack --force', which must never lose the trace it replaces.
# Reading a bundle uses bounded temporary space (the expansion limit of
# FORMAT.md section 2) and leaves nothing behind in $TMPDIR.
. "$SIBYL_SRCDIR/tests/lib.sh"

S="$T/tmp"
mkdir -p "$S"
G="$T/good.trace"
expect_ok "$SIBYL" trace gen --pattern ring --ranks 8 --iters 3 -o "$G"
[ -f "$G/MANIFEST" ] || { fail "trace gen wrote no $G/MANIFEST"; finish; }
expect_ok "$SIBYL" trace pack -q -o "$T/good.tar.gz" "$G"

# tmp_empty WHAT: nothing left in the scratch TMPDIR.
tmp_empty() {
	checks=$((checks + 1))
	left=$(ls -A "$S")
	[ -z "$left" ] || fail "$1: left in TMPDIR: $left"
	rm -rf "$S" && mkdir -p "$S"
}

# limited CMD...: CMD with TMPDIR=$S and files limited to 100 MB, so that
# a reader that extracts a bomb whole is stopped (killed by SIGXFSZ).
limited() {
	TMPDIR="$S" python3 -c 'import os, resource, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (100 << 20, 100 << 20))
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}

# mkbomb.py OUT KIND: a .tar.gz whose data file expands to 10 GiB, made
# of one gzip member per MiB of zeros (a few MB, in milliseconds).
cat >"$T/mkbomb.py" <<'EOF'
import os, struct, sys, tarfile, zlib
sys.path.insert(0, os.path.join(os.environ["SIBYL_SRCDIR"], "tests", "data"))
from mktrace import varint as enc

def gz(data):
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()

def member(name, size):
    ti = tarfile.TarInfo(name)
    ti.size = size
    ti.mode = 0o644
    return ti.tobuf(format=tarfile.GNU_FORMAT)

def pad(b):
    return b + b"\0" * (-len(b) % 512)

out, kind = sys.argv[1], sys.argv[2]
man = (b"format = sibyl-trace 1.0\nnpes = 1\nnprocs = 1\nwindow = 64\n"
       b"time_unit = ps\nbyte_order = little-endian\n"
       b"file.0 = proc-000000.sdat 0 1\n")
h = bytearray(64)
h[0:8] = b"SIBYLDAT"
h[8:10] = struct.pack("<H", 1)
h[12:40] = struct.pack("<7I", 0x01020304, 0, 1, 1, 0, 1, 64)
h[60:64] = struct.pack("<I", zlib.crc32(bytes(h[:60])))
mib = 1 << 20
n = 10240                       # 10 GiB of zeros
if kind == "zeros":             # a data file of zeros
    head = member("proc-000000.sdat", n * mib)
elif kind == "header":          # a valid header, then zeros
    head = (member("MANIFEST", len(man)) + pad(man) +
            member("proc-000000.sdat", 64 + n * mib) + bytes(h))
elif kind == "frame":           # a valid header and WIND frame header
    v = [0, 0, 1, 0, 0, 0, 2**28, 2**32 - 1, 0]
    body = b"".join(enc(x) for x in v)
    hl = 5 + len(body) + 8
    f = bytearray(b"WIND" + bytes([hl]) + body + struct.pack("<I", 0))
    f += struct.pack("<I", zlib.crc32(bytes(f)))
    head = (member("MANIFEST", len(man)) + pad(man) +
            member("proc-000000.sdat", 64 + len(f) + n * mib) + bytes(h) +
            bytes(f))
elif kind == "manifest":        # a MANIFEST of one 10 GiB line
    head = member("MANIFEST", 9 + n * mib) + b"cmdline ="
else:
    sys.exit("unknown kind " + kind)
fill = b"x" if kind == "manifest" else b"\0"
with open(out, "wb") as f:
    f.write(gz(head))
    f.write(gz(fill * mib) * n)
EOF

for kind in zeros header frame manifest; do
	B="$T/bomb-$kind.tar.gz"
	py "exec(open('$T/mkbomb.py').read())" "$B" "$kind"
	expect_exit 2 limited "$SIBYL" trace info "$B"
	case $kind in
	zeros) expect_grep "member 'proc-000000.sdat' is not a Sibyl data file \(bad magic number\)" "$T/err" ;;
	manifest) expect_grep 'its MANIFEST has 10737418249 bytes, more than a manifest may hold' "$T/err" ;;
	*) expect_grep "refusing it as a decompression bomb" "$T/err" ;;
	esac
	tmp_empty "trace info on a bomb ($kind)"
	expect_exit 2 limited "$SIBYL" trace unpack -o "$T/bomb-$kind.trace" "$B"
	checks=$((checks + 1))
	[ ! -e "$T/bomb-$kind.trace" ] || fail "unpack of a bomb left a trace"
	[ -z "$(ls -d "$T"/bomb-"$kind".trace.* 2>/dev/null)" ] ||
		fail "unpack of a bomb left temporary directories"
done

# The gzip checksum (CRC-32) and length of the trailer are verified.
py 'import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[-8] ^= 0x01
open(sys.argv[2], "wb").write(b)
b[-8] ^= 0x01
b[-1] ^= 0x01
open(sys.argv[3], "wb").write(b)' "$T/good.tar.gz" "$T/badcrc.tar.gz" \
	"$T/badlen.tar.gz"
expect_exit 2 limited "$SIBYL" trace info "$T/badcrc.tar.gz"
expect_grep 'the gzip data is corrupted near byte [0-9]+ \(incorrect data check\)' "$T/err"
tmp_empty "trace info on a bad gzip CRC"
expect_exit 2 limited "$SIBYL" trace info "$T/badlen.tar.gz"
expect_grep 'the gzip data is corrupted .*incorrect length check' "$T/err"
tmp_empty "trace info on a bad gzip length"
# Several gzip members, as pigz or a cat of .gz files make, are one
# stream; what follows the last is refused, except zeros.
py 'import sys, zlib
b = open(sys.argv[1], "rb").read()
raw = zlib.decompress(b, 31)
gz = lambda d: (lambda c: c.compress(d) + c.flush())(
    zlib.compressobj(6, zlib.DEFLATED, 31))
open(sys.argv[2], "wb").write(gz(raw[:700]) + gz(raw[700:]) + bytes(1000))
open(sys.argv[3], "wb").write(b + b"garbage")' "$T/good.tar.gz" \
	"$T/multi.tar.gz" "$T/trailing.tar.gz"
expect_ok limited "$SIBYL" trace info "$T/multi.tar.gz"
tmp_empty "trace info on a multi-member gzip"
expect_exit 2 limited "$SIBYL" trace info "$T/trailing.tar.gz"
expect_grep 'bytes after the end of the gzip data' "$T/err"
tmp_empty "trace info on trailing garbage"

# Members the MANIFEST does not list, or that appear twice.
cat >"$T/mktar.py" <<'EOF'
import io, sys, tarfile
out = sys.argv[1]
with tarfile.open(out, "w") as t:
    for spec in sys.argv[2:]:
        name, path = spec.split("=", 1)
        data = open(path, "rb").read()
        ti = tarfile.TarInfo(name)
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
EOF
mktar() { py "exec(open('$T/mktar.py').read())" "$@"; }
D0="$G/proc-000000.sdat"
mktar "$T/extra.tar" MANIFEST="$G/MANIFEST" proc-000000.sdat="$D0" \
	proc-000007.sdat="$D0"
expect_exit 2 limited "$SIBYL" trace info "$T/extra.tar"
expect_grep "member 'proc-000007.sdat' is not a data file its MANIFEST lists" "$T/err"
tmp_empty "an unlisted member"
mktar "$T/extra-first.tar" proc-000007.sdat="$D0" \
	proc-000000.sdat="$D0" MANIFEST="$G/MANIFEST"
expect_exit 2 limited "$SIBYL" trace info "$T/extra-first.tar"
expect_grep "member 'proc-000007.sdat' is not a data file its MANIFEST lists" "$T/err"
tmp_empty "an unlisted member before the MANIFEST"
mktar "$T/twice.tar" MANIFEST="$G/MANIFEST" proc-000000.sdat="$D0" \
	proc-000000.sdat="$D0"
expect_exit 2 limited "$SIBYL" trace info "$T/twice.tar"
expect_grep "member 'proc-000000.sdat' appears twice" "$T/err"
tmp_empty "a member twice"
# A MANIFEST with a bad line is refused while unpacking, naming the line.
{ cat "$G/MANIFEST"; echo 'no equals sign'; } >"$T/badman"
mktar "$T/badman.tar" MANIFEST="$T/badman" proc-000000.sdat="$D0"
expect_exit 2 limited "$SIBYL" trace info "$T/badman.tar"
expect_grep "badman.tar:MANIFEST:[0-9]+: expected 'key = value'" "$T/err"
tmp_empty "a bad MANIFEST line"

# ------------------------------------------------ trace unpack --force
# A failed unpack leaves the trace it was to replace as it was.
M="$T/multi.trace"
expect_ok "$SIBYL" trace gen --pattern ring --ranks 12 --iters 4 --procs 3 \
	-o "$M"
cp -r "$M" "$T/multi.orig"
py 'import sys
b = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(b[:len(b) // 2])' "$T/good.tar.gz" "$T/cut.tar.gz"
expect_exit 2 "$SIBYL" trace unpack --force -o "$M" "$T/cut.tar.gz"
checks=$((checks + 1))
diff -r "$M" "$T/multi.orig" >/dev/null ||
	fail "a failed unpack --force changed the trace it was to replace"
expect_exit 2 "$SIBYL" trace unpack --force -o "$M" "$T/bomb-header.tar.gz"
checks=$((checks + 1))
diff -r "$M" "$T/multi.orig" >/dev/null ||
	fail "a refused bomb changed the trace it was to replace"
# A bundle that unpacks but holds no readable trace replaces nothing.
mktar "$T/unreadable.tar" MANIFEST="$T/multi.orig/MANIFEST" \
	proc-000000.sdat="$D0"
expect_exit 1 "$SIBYL" trace unpack --force -o "$M" "$T/unreadable.tar"
expect_grep "not a readable trace" "$T/err"
checks=$((checks + 1))
diff -r "$M" "$T/multi.orig" >/dev/null ||
	fail "an unreadable bundle replaced the trace"
# A successful one leaves no stale data file of the old trace.
expect_ok "$SIBYL" trace unpack --force -o "$M" "$T/good.tar.gz"
checks=$((checks + 1))
[ "$(ls "$M" | tr '\n' ' ')" = "MANIFEST proc-000000.sdat " ] ||
	fail "unpack --force left: $(ls "$M" | tr '\n' ' ')"
diff -r "$M" "$G" >/dev/null || fail "unpack --force: not the bundle's trace"
# No temporary name is left next to it, after success or failure.
checks=$((checks + 1))
[ -z "$(ls -d "$M".* "$T"/.multi* 2>/dev/null)" ] ||
	fail "temporary names left: $(ls -d "$M".* "$T"/.multi* 2>/dev/null)"
# Still no replacing a directory that holds other files.
echo keep >"$M/notes.txt"
expect_exit 2 "$SIBYL" trace unpack --force -o "$M" "$T/good.tar.gz"
expect_grep 'holds files that are not part of a trace' "$T/err"
[ -f "$M/notes.txt" ] || fail "unpack --force removed a stranger file"

finish
