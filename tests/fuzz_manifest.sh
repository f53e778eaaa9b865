#!/bin/sh
# fuzz_manifest.sh -- the MANIFEST fuzz target on a generated
# corpus: manifests as Sibyl writes them and hostile variants (CRLF,
# escapes, comments, duplicate and bad keys, NUL and control bytes, lines
# at and beyond the length limit, many keys), replayed through
# tests/fuzz_manifest_replay, then 20000 deterministic random edits of
# the small ones.  When the libFuzzer binary tests/fuzz_manifest was built (make
# fuzz) and SIBYL_FUZZ_SECONDS is set, also fuzz for that long.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/fuzzlib.sh"

replay="$SIBYL_TEST_TMP/fuzz_manifest_replay"
if [ ! -x "$replay" ]; then
	echo "fuzz_manifest: $replay not built" >&2
	exit 77
fi

C="$T/corpus"
mkdir -p "$C"
expect_ok "$SIBYL" trace gen --pattern ring --ranks 12 --procs 3 -o "$T/g.trace"
cp "$T/g.trace/MANIFEST" "$C/written"
py 'import os, sys
c, base = sys.argv[1], open(sys.argv[2], "rb").read()
def put(name, data):
    open(os.path.join(c, name), "wb").write(data)
put("crlf", base.replace(b"\n", b"\r\n"))
put("noeol", base.rstrip(b"\n"))
put("escapes", base + b"cmdline2 = a\\\\b\\nc\\rd \\\\\nx = \\ lead\ny=trail\\\n")
put("comments", b"# c\n\n   \n\t# d\n" + base)
put("dupkey", base + b"npes = 3\n")
put("badkey", base + b"a\x1bb = 1\n")
put("nokey", base + b" = 1\n")
put("noeq", base + b"just words\n")
put("nul", base + b"k = a\x00b\n")
put("ctrl", base + b"k = \x1b[31m\x07\xc2\x9b\xff\n")
put("atlimit", b"k = " + b"v" * ((1 << 20) - 4) + b"\n")
put("overlimit", b"k = " + b"v" * (1 << 20) + b"\n")
put("manykeys", b"".join(b"k%d = %d\n" % (i, i) for i in range(20000)))
put("empty", b"")' "$C" "$C/written"
expect_ok "$replay" "$C"/*
expect_grep "15 inputs, 0 mutations" "$T/err"
# The edits start from the inputs of at most 4 KiB, as libFuzzer's do.
expect_ok "$replay" --mutate 20000 7 $(find "$C" -type f -size -5k | sort)
expect_grep "12 inputs, 20000 mutations" "$T/err"

fuzz_libfuzzer "$SIBYL_TEST_TMP/fuzz_manifest" -max_len=4096
finish
