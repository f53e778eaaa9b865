#!/bin/sh
# Graph and distributed-graph topologies and the neighbourhood
# collectives under the emulator (tests/emu/topo_graph.c: every query
# against its input, every neighbourhood collective, blocking and not, on
# grids, graphs and distributed graphs, element by element).  The
# self-checking program runs on 4 ranks in 1 process, 7 and 64 in 2, and
# 12 in 2; it prints PASS, its trace passes `sibyl trace check' and
# replays in `sibyl sim'.  Under Open MPI (mpicc/mpirun) it runs on 12
# processes too and must print the same sums of what each collective
# delivered.  (Not on 4 or 7: there the grids have periodic dimensions
# of 1 and 2, where Open MPI 4.1's non-blocking neighbourhood collectives
# match the blocks in sending order, unlike its blocking ones and MPI.)
# Then the messages are in the trace: MPI_Dist_graph_create's exchange of
# edges (a count and a batch per Bruck round), the new communicator's
# context agreement, and one per neighbour of a neighbourhood all-to-all.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

E="$SIBYL_SRCDIR/tests/emu"
native=0
command -v mpicc >/dev/null && command -v mpirun >/dev/null && native=1
[ "$native" = 1 ] || echo "mpicc/mpirun not found: emulated runs only" >&2

# run NP RANKS: topo_graph prints PASS, its trace is valid and replays;
# its output is kept in $T/out.RANKS.
run() {
	np=$1 ranks=$2
	tr="$T/topo_graph.$np.$ranks.trace"
	checks=$((checks + 1))
	emu_run "$np" "$ranks" "$tr" "$T/topo_graph"
	if [ "$emu_status" -ne 0 ] || ! grep -q "^PASS topo_graph" "$T/out"
	then
		fail "topo_graph on $np process(es), $ranks ranks exited" \
			"$emu_status"
		sed 's/^/  | /' "$T/out" "$T/err" | head -20 >&2
		return 1
	fi
	cp "$T/out" "$T/out.$ranks"
	expect_ok "$SIBYL" trace check "$tr"
	expect_ok "$SIBYL" sim -q "$tr" -o "$tr.sim"
	expect_grep '"predicted_time_ps"' "$tr.sim/summary.json"
}

if emu_build topo_graph "$E/topo_graph.c" -Wall; then
	run 1 4
	run 2 7
	run 2 64
	run 2 12
fi

if [ "$native" = 1 ] && [ -f "$T/out.12" ]; then
	checks=$((checks + 1))
	if ! mpicc -O1 -I"$E" "$E/topo_graph.c" -o "$T/topo_graph.native" \
		>"$T/build.err" 2>&1; then
		fail "mpicc could not build topo_graph.c"
		sed 's/^/  | /' "$T/build.err" | head -20 >&2
	elif ! mpirun --allow-run-as-root --oversubscribe -np 12 \
		"$T/topo_graph.native" >"$T/native.out" 2>"$T/native.err" ||
		! grep -q "^PASS topo_graph" "$T/native.out"; then
		fail "topo_graph natively on 12 processes"
		sed 's/^/  | /' "$T/native.out" "$T/native.err" | head -20 >&2
	else
		grep '^sum ' "$T/out.12" >"$T/sums.emu"
		grep '^sum ' "$T/native.out" >"$T/sums.native"
		checks=$((checks + 1))
		[ "$(wc -l <"$T/sums.emu")" -eq 110 ] ||
			fail "topo_graph printed $(wc -l <"$T/sums.emu") sums," \
				"not 110"
		checks=$((checks + 1))
		if ! cmp -s "$T/sums.emu" "$T/sums.native"; then
			fail "the sums differ from Open MPI's"
			diff "$T/sums.native" "$T/sums.emu" | head -20 >&2
		fi
	fi
fi

# The messages of a ring on 8 ranks made by MPI_Dist_graph_create, each
# rank naming its own two edges, then one MPI_Neighbor_alltoall: the edge
# exchange takes 3 rounds of a count (24 messages) and a batch (24: the
# edge to rank-1 is 7 = 111b ranks ahead, so it moves in every round,
# the one to rank+1 in the first), the context agreement 24, the
# all-to-all 16.
cat >"$T/ring.c" <<'PROG'
#include <mpi.h>
int main(int argc, char **argv)
{
	int me, n, deg = 2, d[2], out[2], in[2] = { -1, -1 };
	MPI_Comm g;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	d[0] = (me + 1) % n;
	d[1] = (me + n - 1) % n;
	MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &me, &deg, d, MPI_UNWEIGHTED,
			      MPI_INFO_NULL, 0, &g);
	out[0] = 100 + me;
	out[1] = 200 + me;
	MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, g);
	MPI_Comm_free(&g);
	MPI_Finalize();
	/* Sources in the order of the ranks that named the edges. */
	int lo = me == 0 ? n - 1 : me - 1, hi = (me + 1) % n;
	int a = lo < hi ? lo : hi, b = lo < hi ? hi : lo;
	return in[0] == (a == lo ? 100 : 200) + a &&
		in[1] == (b == lo ? 100 : 200) + b ? 0 : 1;
}
PROG
if emu_build ring "$T/ring.c"; then
	for np in 1 2; do
		checks=$((checks + 1))
		emu_run $np 8 "$T/ring.trace" "$T/ring"
		[ "$emu_status" -eq 0 ] ||
			fail "ring on $np process(es) exited $emu_status"
		expect_ok "$SIBYL" trace info "$T/ring.trace"
		expect_grep '^  messages +88$' "$T/out"
		expect_ok "$SIBYL" trace dump "$T/ring.trace"
		expect_grep '"MPI_Dist_graph_create"' "$T/out"
		expect_grep '"MPI_Neighbor_alltoall"' "$T/out"
	done
fi
finish
