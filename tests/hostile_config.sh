#!/bin/sh
# hostile_config.sh -- the machine description reader (fsim_config.c)
# on hostile input: what is not a regular file, endless and huge files,
# over-long lines, many keys, and hwloc topologies of huge nodes.  Every
# input is refused at once with a message naming the file (and line),
# or read in linear time; none may run on the defaults.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/hostile_lib.sh"

tiny_trace
sim() { expect_refusal 2 "$1" "$SIBYL" sim -q -o "$T/o" "$T/t.trace" -c "$2"; }

# Not regular files: a device that never ends, a FIFO without a writer
# (opening it would wait forever), a directory.
sim '/dev/zero is a character device, not a regular file; give the path of a configuration file' \
	/dev/zero
mkfifo "$T/fifo" || fail "mkfifo"
sim "fifo is a FIFO, not a regular file" "$T/fifo"
sim "is a directory, not a regular file" "$T"

# A sparse file of 2 GiB of zeros is refused by its size, unread.
truncate -s 2G "$T/sparse.conf" || fail "truncate"
sim 'sparse.conf: the configuration file is larger than 1048576 bytes' \
	"$T/sparse.conf"

# One line longer than 64 KiB, and a long line of zeros, name their line.
{ printf '[machine]\n# '; head -c 70000 /dev/zero | tr '\0' x; echo; } \
	>"$T/long.conf"
sim 'long.conf:2: the line is longer than 65536 bytes' "$T/long.conf"
{ printf '[machine]\nnodes = 4\n'; head -c 200000 /dev/zero; } >"$T/zeros.conf"
sim 'zeros.conf:3: the line (contains a NUL byte|is longer)' "$T/zeros.conf"

# 90,000 distinct keys in a 1 MiB file: read in linear time (the first
# unknown key is then reported, with its line).
awk 'BEGIN { print "[net]"; for (i = 0; i < 90000; i++) printf "k%05d = 1\n", i }' \
	>"$T/keys.conf"
sim 'keys.conf:2: unknown key .net.k00000.' "$T/keys.conf"
# The same key 45,000 times: the last one wins.
awk 'BEGIN { print "[machine]"; for (i = 1; i <= 45000; i++) print "cores_per_node =", i }' \
	>"$T/same.conf"
limited "$SIBYL" sim -q -o "$T/same" "$T/t.trace" -c "$T/same.conf"
expect_status 0 "a key given 45000 times"
expect_grep '^cores_per_node = 45000$' "$T/same/machine.conf"

# hwloc topologies: the PUs are counted, not built (hwloc takes minutes
# and gigabytes to build 65,536 of them).
limited "$SIBYL" sim -q -o "$T/topo" "$T/t.trace" \
	--set 'machine.topology=package:4 core:2048 pu:8'
expect_status 0 "a node of 65536 PUs"
expect_grep '^cores_per_node = 65536  # from machine.topology$' \
	"$T/topo/machine.conf"
expect_refusal 2 "'pu:4000000000' has more than 1048576 PUs" \
	"$SIBYL" sim -q -o "$T/o" "$T/t.trace" --set machine.topology=pu:4000000000
expect_refusal 2 "'package:2 0x10 010 \\[numa\\] pu:3\\(x\\)' is not a valid hwloc" \
	"$SIBYL" sim -q -o "$T/o" "$T/t.trace" \
	--set 'machine.topology=package:2 0x10 010 [numa] pu:3(x)'
# Found by fuzzing: hwloc's parser leaks on this string (a failure under
# LeakSanitizer); it is refused before hwloc sees it.
expect_refusal 2 "'\\(memory=1\\) package:2 \\[numa\\] cor pu:2' is not a valid hwloc" \
	"$SIBYL" sim -q -o "$T/o" "$T/t.trace" \
	--set 'machine.topology=(memory=1) package:2 [numa] cor pu:2'
limited "$SIBYL" sim -q -o "$T/hex" "$T/t.trace" \
	--set 'machine.topology=(memory=1GB) package:2 [numa] core:0x10 pu:010'
expect_status 0 "a topology with hexadecimal and octal counts"
expect_grep '^cores_per_node = 256  # from machine.topology$' \
	"$T/hex/machine.conf"
finish
