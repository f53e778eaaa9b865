# sim_protocols.sh -- `sibyl sim' with costs by message size
# (net.protocols of the simple model, intranode.protocols), against closed
# forms.  A ping-pong of I iterations and n-byte messages, compute 0, takes
# I * 2 * (os + latency + X(n) + or) of the range n falls in, exactly; an
# empty table is the model without one.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

TABLE='0: latency=500ns os=100ns or=200ns; 4KiB: latency=2us bandwidth=5GB/s os=1us or=1us; 1MiB: bandwidth=20GB/s'

# pp_case N WANT_ONE_WAY_PS WHAT ARGS...: a ping-pong of 3 iterations.
pp_case() {
	gen pp -p pingpong -r 2 -i 3 -s "$1" --compute 0
	n=$1 one=$2 what=$3
	shift 3
	expect_time $((3 * 2 * one)) "$what, n=$n" pp "$@"
}

# Across nodes (one rank per node): net.o = 30 ps is kept where a range
# gives no overhead; net.latency 1us and net.bandwidth 10GB/s likewise.
NET="--set net.o=30ps"
# shellcheck disable=SC2086
{
pp_case 1000 $((30 + 1000000 + $(xfer 1000 10000000000) + 30)) \
	"no table" $NET
pp_case 1000 $((30 + 1000000 + $(xfer 1000 10000000000) + 30)) \
	"empty table" $NET --set 'net.protocols='
pp_case 0 $((100000 + 500000 + 200000)) "range 1, empty" $NET \
	--set "net.protocols=$TABLE"
pp_case 4095 $((100000 + 500000 + $(xfer 4095 10000000000) + 200000)) \
	"range 1, last size" $NET --set "net.protocols=$TABLE"
pp_case 4096 $((1000000 + 2000000 + $(xfer 4096 5000000000) + 1000000)) \
	"range 2, first size" $NET --set "net.protocols=$TABLE"
pp_case 1048579 $((30 + 1000000 + $(xfer 1048579 20000000000) + 30)) \
	"range 3" $NET --set "net.protocols=$TABLE"
}

# Inside a node (two cores per node): intranode.latency 200ns and
# bandwidth 10GB/s, overheads 0 unless a range gives them.
ONE="--set machine.cores_per_node=2"
# shellcheck disable=SC2086
{
pp_case 2048 $((200000 + $(xfer 2048 10000000000))) "intranode, no table" \
	$ONE
pp_case 2048 $((200000 + $(xfer 2048 1000000000))) \
	"intranode, range 2" $ONE --set \
	'intranode.protocols=0: latency=100ns os=50ns or=60ns; 1KiB: bandwidth=1GB/s'
pp_case 100 $((50000 + 100000 + $(xfer 100 10000000000) + 60000)) \
	"intranode, range 1" $ONE --set \
	'intranode.protocols=0: latency=100ns os=50ns or=60ns; 1KiB: bandwidth=1GB/s'
# The network's table does not apply inside a node, nor the other way.
pp_case 2048 $((200000 + $(xfer 2048 10000000000))) \
	"intranode ignores net.protocols" $ONE --set "net.protocols=$TABLE"
}

# os_per_byte: each send keeps its sender os + n * os_per_byte, so a
# stream of 4 sends, one per SEB, ends 4 * (os + n * os_per_byte) + latency
# + X(n) + or after it starts (copies at 1000GB/s never queue).
craft stream <<'EOF'
npes 2
0 isend 0 s:1:2048@0
0 isend 0 s:1:2048@0
0 isend 0 s:1:2048@0
0 isend 0 s:1:2048@0
1 recv 0 w:0:0 w:0:1 w:0:2 w:0:3
EOF
X=$(xfer 2048 1000000000000)
STREAM='0: latency=100ns os=50ns or=60ns bandwidth=1000GB/s; 1KiB: latency=100ns os=50ns or=60ns bandwidth=1000GB/s'
expect_time $((4 * (50000 + 2048 * 100) + 100000 + X + 60000)) \
	"a stream, os_per_byte" stream $ONE \
	--set "intranode.protocols=$STREAM os_per_byte=0.1ns"
expect_time $((4 * 50000 + 100000 + X + 60000)) \
	"a stream, no os_per_byte" stream $ONE \
	--set "intranode.protocols=$STREAM"
# Across nodes likewise, through the network's table.
expect_time $((4 * (50000 + 2048 * 100) + 100000 + X + 60000)) \
	"a stream across nodes, os_per_byte" stream \
	--set "net.protocols=$STREAM os_per_byte=0.1ns"

# The table in a machine description file, with a comment after it and
# blanks inside it.
printf '[net]\nprotocols = 0: latency=2us os=0.5us ; 4KiB: bandwidth=2GB/s   # two ranges\n' \
	>"$T/m.conf"
pp_case 2048 $((500000 + 2000000 + $(xfer 2048 10000000000))) \
	"from a file" -c "$T/m.conf"

# A bad table: exit 2 and the key, the range and what is wrong.
gen pp -p pingpong -r 2 -i 1 -s 8
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/pp.trace" \
	--set 'net.protocols=0: os=1ns; 1KiB: os=2ns; 512: os=3ns'
expect_grep "net.protocols: range 3 starts at 512 bytes, not after range 2" \
	"$T/err"
expect_exit 2 "$SIBYL" sim -q -o "$T/bad.sim" "$T/pp.trace" \
	--set machine.cores_per_node=2 --set 'intranode.protocols=0: or=3'
expect_grep "intranode.protocols: range 1: or: '3' has no unit" "$T/err"
checks=$((checks + 1))
[ ! -e "$T/bad.sim" ] || fail "a refused table left $T/bad.sim behind"

finish
