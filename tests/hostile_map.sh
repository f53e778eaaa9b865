#!/bin/sh
# hostile_map.sh -- mapping files (the reader of fsim_machine.c, `sibyl
# sim --map' and `sibyl map --check') and machine sizes on hostile
# input: what is not a regular file, over-long lines, and machines of
# many nodes without ranks, which cost memory and output (a links.csv
# row per link) but tell nothing about the run.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/hostile_lib.sh"

tiny_trace
sim() { limited "$SIBYL" sim -q -o "$T/o-$1" "$T/t.trace" --map "$2"; }
check() { limited "$SIBYL" map --check "$1" -r 2; }

# One line that places rank 1 on node 10^8: refused before the network
# is built, naming the line.
printf '0 0\n# far away\n1 100000000\n' >"$T/far.map"
sim far "$T/far.map"
expect_status 2 "a map onto node 10^8"
expect_grep 'far.map:3: node 100000000 makes a machine of 100000001 nodes, but the ranks use only 2 of them; Sibyl simulates at most 65536 nodes' \
	"$T/err"
[ -e "$T/o-far" ] && fail "sim left $T/o-far behind"
check "$T/far.map"
expect_status 1 "map --check of a map onto node 10^8"
expect_grep 'far.map:3: node 100000000 makes a machine' "$T/err"
# machine.nodes asks for them without a map.
expect_refusal 2 'machine.nodes = 4000000000 makes a machine of 4000000000 nodes' \
	"$SIBYL" sim -q -o "$T/o" "$T/t.trace" --set machine.nodes=4000000000
# The limit itself: 65536 nodes for up to 1024 nodes used, then 64 per
# node used.
printf '0 0\n1 65535\n' >"$T/edge.map"
check "$T/edge.map"
expect_status 0 "a map onto node 65535"
expect_grep 'a valid mapping of 2 ranks on 2 of 65536 nodes' "$T/out"
expect_refusal 2 'machine.nodes = 3000000 makes a machine of 3000000 nodes' \
	"$SIBYL" sim -q -o "$T/o" "$T/t.trace" --map "$T/edge.map" \
	--set machine.nodes=3000000
printf '0 0\n1 65536\n' >"$T/over.map"
sim over "$T/over.map"
expect_status 2 "a map onto node 65536"
expect_grep 'over.map:2: node 65536 makes a machine of 65537 nodes' "$T/err"

# Not regular files.  A FIFO with a writer waiting: read, it would give
# a valid map; it must be refused unread (the writer is ended here).
mkfifo "$T/fifo" || fail "mkfifo"
printf '0 0\n1 0\n' >"$T/fifo" &
writer=$!
check "$T/fifo"
expect_status 2 "map --check of a FIFO"
expect_grep 'fifo is a FIFO, not a regular file; give the path of a mapping file' \
	"$T/err"
sim fifo "$T/fifo"
expect_status 2 "sim --map of a FIFO"
expect_grep 'fifo is a FIFO, not a regular file' "$T/err"
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
check /dev/zero
expect_status 2 "map --check of /dev/zero"
expect_grep '/dev/zero is a character device, not a regular file' "$T/err"
sim zero /dev/zero
expect_status 2 "sim --map of /dev/zero"
expect_grep '/dev/zero is a character device' "$T/err"

# Lines: at most 4096 bytes, comments included, and no NUL byte.
{ printf '0 0\n1 0 # '; head -c 5000 /dev/zero | tr '\0' x; echo; } \
	>"$T/long.map"
check "$T/long.map"
expect_status 1 "map --check of a 5000-byte line"
expect_grep 'long.map:2: the line is longer than 4096 bytes, the limit for a mapping file' \
	"$T/err"
printf '0 0\n1 0\0001 5\n' >"$T/nul.map"
check "$T/nul.map"
expect_status 1 "map --check of a line with a NUL byte"
expect_grep 'nul.map:2: the line contains a NUL byte' "$T/err"
# A file without newlines of 100 MiB (sparse): one line, refused at its
# 4097th byte.
truncate -s 100M "$T/sparse.map" || fail "truncate"
check "$T/sparse.map"
expect_status 1 "map --check of 100 MiB of zeros"
expect_grep 'sparse.map:1: the line contains a NUL byte' "$T/err"

# `sibyl map' refuses to write a map the simulator would refuse.
expect_refusal 2 '--nodes 4000000000 makes a machine of 4000000000 nodes' \
	"$SIBYL" map -q -r 2 --cores-per-node 1 --nodes 4000000000 \
	--order round-robin
finish
