#!/bin/sh
# hostile_manifest.sh -- MANIFESTs made to hurt: huge lines, a device in
# place of the file, many keys, forged versions and counts, control
# characters.  Each must get a clear error naming the file (and line),
# in bounded time and memory, and nothing raw on the terminal.
. "$SIBYL_SRCDIR/tests/lib.sh"

G="$T/good.trace"
expect_ok "$SIBYL" trace gen --pattern ring --ranks 8 --iters 3 -o "$G"
[ -f "$G/MANIFEST" ] || { fail "trace gen wrote no $G/MANIFEST"; finish; }

# fresh NAME: a copy of the good trace in $T/NAME.trace, path in $X.
fresh() {
	X="$T/$1.trace"
	rm -rf "$X" && cp -r "$G" "$X"
}

# A 2 MiB line: more than a line may hold (1 MiB).
fresh longline
py 'import sys
with open(sys.argv[1], "a") as f:
    f.write("cmdline2 = " + "x" * (2 << 20) + "\n")' "$X/MANIFEST"
expect_exit 2 "$SIBYL" trace info "$X"
expect_grep 'MANIFEST:[0-9]+: line longer than 1048576 bytes' "$T/err"

# A manifest larger than 16 MiB, in lines within the limit.
fresh bigfile
py 'import sys
with open(sys.argv[1], "a") as f:
    f.write("".join("k%d = %s\n" % (i, "v" * 1000000) for i in range(17)))' \
	"$X/MANIFEST"
expect_exit 2 "$SIBYL" trace info "$X"
expect_grep 'MANIFEST: [0-9]+ bytes, more than a manifest may hold' "$T/err"

# Not a regular file: a device, a directory.
fresh devzero
rm "$X/MANIFEST" && ln -s /dev/zero "$X/MANIFEST"
expect_exit 2 "$SIBYL" trace info "$X"
expect_grep 'MANIFEST: not a regular file' "$T/err"
fresh dirman
rm "$X/MANIFEST" && mkdir "$X/MANIFEST"
expect_exit 2 "$SIBYL" trace info "$X"
expect_grep 'MANIFEST: not a regular file' "$T/err"

# A data file or a trace that is not a regular file (or directory).
fresh devdata
rm "$X/proc-000000.sdat" && ln -s /dev/zero "$X/proc-000000.sdat"
expect_exit 2 "$SIBYL" trace info "$X"
expect_grep 'proc-000000.sdat: not a regular file: a data file must be one' \
	"$T/err"
expect_exit 2 "$SIBYL" trace info /dev/zero
expect_grep '/dev/zero: neither a trace directory nor a bundle' "$T/err"
expect_exit 2 "$SIBYL" trace unpack -o "$T/x.trace" /dev/zero
expect_grep '/dev/zero: not a regular file: a bundle must be one' "$T/err"

# 200,000 keys parse in linear time: bounded by CPU time, not wall-clock
# (a quadratic parser needs minutes of CPU for this).
fresh manykeys
py 'import sys
with open(sys.argv[1], "a") as f:
    f.write("".join("x.%d = %d\n" % (i, i) for i in range(200000)))' \
	"$X/MANIFEST"
expect_ok sh -c 'ulimit -t 30 && exec "$@" >/dev/null' sh \
	"$SIBYL" trace info "$X"
# Too many keys.
fresh toomanykeys
py 'import sys
with open(sys.argv[1], "a") as f:
    f.write("".join("%x=\n" % i for i in range(270000)))' "$X/MANIFEST"
expect_exit 2 sh -c 'ulimit -t 30 && exec "$@"' sh "$SIBYL" trace info "$X"
expect_grep 'MANIFEST:[0-9]+: more than 262144 keys' "$T/err"

# A duplicate key names its line; a key with a control character.
fresh dupkey
echo 'npes = 8' >>"$X/MANIFEST"
expect_exit 2 "$SIBYL" trace info "$X"
expect_grep "MANIFEST:[0-9]+: key 'npes' appears twice" "$T/err"
fresh badkey
printf 'a\033b = 1\n' >>"$X/MANIFEST"
expect_exit 2 "$SIBYL" trace info "$X"
expect_grep "MANIFEST:[0-9]+: bad key 'a.x1bb'" "$T/err"

# A version that wraps around 32 bits is not version 1.
for v in 4294967297.0 65537.0 1.4294967296 '1.0 extra' '1.' '.0' '+1.0'; do
	fresh version
	sed "s/^format = .*/format = sibyl-trace $v/" "$G/MANIFEST" \
		>"$X/MANIFEST"
	expect_exit 2 "$SIBYL" trace info "$X"
	expect_grep 'bad format version' "$T/err"
done

# An npes the files do not cover is an inconsistent manifest, not a lack
# of memory.
fresh npes
sed 's/^npes = .*/npes = 4000000000/' "$G/MANIFEST" >"$X/MANIFEST"
expect_exit 2 "$SIBYL" trace info "$X"
expect_grep 'the files cover PEs 0\.\.7 but npes is 4000000000' "$T/err"
checks=$((checks + 1))
! grep -q 'out of memory' "$T/err" || fail "npes reported as out of memory"
# nprocs beyond the keys present: refused before allocating for it.
fresh nprocs
sed 's/^nprocs = .*/nprocs = 4000000000/;s/^npes = .*/npes = 4000000000/' \
	"$G/MANIFEST" >"$X/MANIFEST"
expect_exit 2 "$SIBYL" trace info "$X"
expect_grep 'nprocs is 4000000000 but the manifest has only' "$T/err"

# The manifest's window size must be the data files'.
fresh window
sed 's/^window = .*/window = 32/' "$G/MANIFEST" >"$X/MANIFEST"
expect_exit 2 "$SIBYL" trace info "$X"
expect_grep 'window 64, but MANIFEST says .*window 32' "$T/err"
expect_exit 2 "$SIBYL" trace check "$X"

# Control characters never reach the terminal raw: in values (info), in
# data file names and in error messages; JSON stays JSON.
fresh ctrl
printf 'note = red\033[31m bell\007 csi\302\233 end\n' >>"$X/MANIFEST"
expect_ok "$SIBYL" trace info "$X"
expect_grep 'note += red\\x1b\[31m bell\\x07 csi\\xc2\\x9b end' "$T/out"
checks=$((checks + 1))
! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$T/out" ||
	fail "trace info printed a control character"
! LC_ALL=C grep -q "$(printf '\302\233')" "$T/out" ||
	fail "trace info printed a C1 control character"
expect_ok "$SIBYL" trace info --json "$X"
py 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["manifest"]["note"].startswith("red\x1b[31m bell\x07"), d' "$T/out"
fresh ctrlname
mv "$X/proc-000000.sdat" "$X/$(printf 'proc-\033]0;x\007.sdat')"
sed "s/^file.0 = .*/file.0 = $(printf 'proc-\033]0;x\007.sdat') 0 8/" \
	"$G/MANIFEST" >"$X/MANIFEST"
for sub in info dump check; do
	expect_exit 2 "$SIBYL" trace $sub "$X"
	expect_grep "names the data file 'proc-\\\\x1b\]0;x\\\\x07.sdat'" \
		"$T/err"
	checks=$((checks + 1))
	! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$T/err" ||
		fail "trace $sub printed a control character"
done
fresh c1name
mv "$X/proc-000000.sdat" "$X/$(printf 'proc-\302\233.sdat')"
sed "s/^file.0 = .*/file.0 = $(printf 'proc-\302\233.sdat') 0 8/" \
	"$G/MANIFEST" >"$X/MANIFEST"
expect_exit 2 "$SIBYL" trace info "$X"
expect_grep "names the data file 'proc-\\\\xc2\\\\x9b.sdat'" "$T/err"
fresh ctrlformat
sed "s/^format = .*/format = sibyl-trace 1.0$(printf '\033')]0;x/" \
	"$G/MANIFEST" >"$X/MANIFEST"
expect_exit 2 "$SIBYL" trace info "$X"
expect_grep "bad format version 'sibyl-trace 1.0\\\\x1b\]0;x'" "$T/err"

finish
