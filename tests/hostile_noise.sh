#!/bin/sh
# hostile_noise.sh -- the noise-set reader (noise/noiseset.c) on hostile
# input: NUL bytes, over-long lines, an empty set, too many patterns,
# files that are not regular.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/hostile_lib.sh"

stats() { limited "$SIBYL" noise stats "$1"; }

# A NUL byte inside a pattern line: the line is refused, not cut into a
# captured detour "10ms 20us".
mkdir -p "$T/nul"
printf '10ms 20us\0005us\n' >"$T/nul/core0"
stats "$T/nul"
expect_status 1 "a pattern line with a NUL byte"
expect_grep 'nul/core0:1: the line contains a NUL byte; a noise file is text' \
	"$T/err"

# An empty set describes no noise (and sorts no names).
mkdir -p "$T/empty"
stats "$T/empty"
expect_status 0 "an empty noise set"
expect_grep '0 cores' "$T/out"

# Lines of at most 4096 bytes, comments included.
mkdir -p "$T/long"
{ printf 'unit us\n1000 1 0 # '; head -c 5000 /dev/zero | tr '\0' x; echo; } \
	>"$T/long/core0"
stats "$T/long"
expect_status 1 "a 5000-byte noise line"
expect_grep 'long/core0:2: the line is longer than 4096 bytes, the limit for a noise file' \
	"$T/err"
# A 100 MiB file of zeros (sparse) stops at its first line.
mkdir -p "$T/sparse"
truncate -s 100M "$T/sparse/cores" || fail "truncate"
stats "$T/sparse"
expect_status 1 "100 MiB of zeros"
expect_grep 'sparse/cores:1: the line contains a NUL byte' "$T/err"
# A core file that is a device or a FIFO is refused unread.
mkdir -p "$T/dev"
ln -s /dev/zero "$T/dev/core0"
stats "$T/dev"
expect_status 1 "a core file linked to /dev/zero"
expect_grep 'dev/core0: not a regular file' "$T/err"

# At most 1024 patterns on one core: each one costs every query.
mkdir -p "$T/pat"
awk 'BEGIN { print "unit us"; for (i = 0; i < 1025; i++) print 1000000 + i, 0, i }' \
	>"$T/pat/core3"
stats "$T/pat"
expect_status 1 "1025 patterns on a core"
expect_grep 'pat/core3:1026: more than 1024 patterns on one core, the limit' \
	"$T/err"
awk 'BEGIN { print "unit us"; for (i = 0; i < 1024; i++) print 1000000 + i, 0, i }' \
	>"$T/pat/core3"
stats "$T/pat"
expect_status 0 "1024 patterns on a core"
finish
