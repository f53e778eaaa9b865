#!/bin/sh
# Emulated traces against analytic expectations.
#
# With --cpu-factor 0 only declared compute (sibyl_compute) counts, so the
# ping-pong example's replay on the simple model (latency L = 1 us,
# bandwidth 10 GB/s) takes exactly
#     I * (2 * (L + ceil(B * 1e12 / 1e10) ps) + 2 * C)
# for I round trips of B bytes with C of compute on each side -- whether
# the two ranks share a process or not, eager or rendezvous.  The recorded
# dependencies are those of the program: rank 1's SEB after its i-th
# MPI_Recv waits for rank 0's i-th message and sends the i-th answer.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

emu_build pingpong "$SIBYL_SRCDIR/examples/pingpong.c" || finish

# pingpong_case NP RANKS BYTES ITERS COMPUTE_US EXPECTED_PS
pingpong_case() {
	tr="$T/pp.$1.$2.$3.trace"
	checks=$((checks + 1))
	"$SIBYL" emulate -q --ranks "$2" -np "$1" --cpu-factor 0 -o "$tr" \
		--force -- "$T/pingpong" "$3" "$4" "$5" >"$T/out" 2>"$T/err"
	if [ $? -ne 0 ]; then
		fail "pingpong $3 B on $1 process(es) did not emulate"
		sed 's/^/  | /' "$T/err" | head >&2
		return
	fi
	expect_grep "errors=0" "$T/out"
	expect_ok "$SIBYL" trace check "$tr"
	expect_ok "$SIBYL" sim -q "$tr" -o "$T/sim" --force
	got=$(sed -n 's/.*"predicted_time_ps": \([0-9]*\).*/\1/p' \
		"$T/sim/summary.json")
	[ "$got" = "$6" ] ||
		fail "pingpong $3 B x $4, ${5} us, $1 process(es): predicted" \
			"$got ps, expected $6 ps"
}

# 1000 B: 100 ns on the wire; 10 x (2 x 1.1 us + 2 x 5 us) = 122 us.
pingpong_case 1 2 1000 10 5 122000000
pingpong_case 2 2 1000 10 5 122000000
# 100,000 B (rendezvous between processes): 10 us on the wire.
pingpong_case 2 2 100000 10 5 320000000
pingpong_case 1 8 100000 10 5 320000000
# No compute at all: 7 x 2 x 1.1 us.
pingpong_case 2 5 1000 7 0 15400000

# The trace's content does not depend on how it is stored: windows of 1
# or 1000 SEBs, compressed or not, give the same SEBs and the same replay
# (5 x (2 x (1 us + 7 us) + 2 x 3 us) = 110 us).
for store in "--window 1 --compression 0" "--window 1000 --compression 9"; do
	tr="$T/store.trace"
	expect_ok "$SIBYL" emulate -q --ranks 6 -np 2 --cpu-factor 0 $store \
		-o "$tr" --force -- "$T/pingpong" 70000 5 3
	expect_ok "$SIBYL" trace dump "$tr"
	grep -v '^#' "$T/out" >"$T/dump.$(echo $store | tr -d ' -')"
	expect_ok "$SIBYL" sim -q "$tr" -o "$T/store.sim" --force
	expect_grep '"predicted_time_ps": 110000000,' "$T/store.sim/summary.json"
done
cmp -s "$T/dump.window1compression0" "$T/dump.window1000compression9" ||
	fail "the SEBs differ between window 1 and window 1000"

# Dependencies of the 3-iteration ping-pong.
tr="$T/dep.trace"
expect_ok "$SIBYL" emulate -q --ranks 2 -np 1 --cpu-factor 0 -o "$tr" \
	-- "$T/pingpong" 64 3 0
expect_ok "$SIBYL" trace dump --pe 1 "$tr"
cp "$T/out" "$T/dump1"
expect_ok "$SIBYL" trace dump --pe 0 "$tr"
cp "$T/out" "$T/dump0"
for i in 0 1 2; do
	# Rank 1: the block after its i-th receive waits for 0:i and sends
	# answer i back at its end.
	awk -v i=$i '
		/^pe 1 seb/ { blk = $0; w = 0; next }
		$1 == "waits" && $2 == "0:" i { w = 1; next }
		$1 == "send" && w && $3 == i && $5 == 0 { ok = 1 }
		END { exit !ok }' "$T/dump1" ||
		fail "rank 1: no SEB waits for 0:$i and sends answer $i"
	grep -q "waits   1:$i\$" "$T/dump0" ||
		fail "rank 0: no SEB waits for answer 1:$i"
done
# Exactly three messages each way, nothing else waited for.
[ "$(grep -c 'waits' "$T/dump1")" -eq 3 ] ||
	fail "rank 1 waits for $(grep -c waits "$T/dump1") messages, not 3"
[ "$(grep -c 'waits' "$T/dump0")" -eq 3 ] ||
	fail "rank 0 waits for $(grep -c waits "$T/dump0") messages, not 3"

# A synchronous send's completion waits for the receiver's
# acknowledgement (tag -2), so the replay keeps the synchrony.
cat >"$T/ssend.c" <<'PROG'
#include <mpi.h>
#include <sibyl.h>
int main(int argc, char **argv)
{
	int rank, x = 1;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Ssend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	} else if (rank == 1) {
		sibyl_compute(50e-6);
		MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
PROG
emu_build ssend "$T/ssend.c" || finish
for np in 1 2; do
	expect_ok "$SIBYL" emulate -q --ranks 2 -np $np --cpu-factor 0 \
		-o "$T/ss$np.trace" -- "$T/ssend"
	expect_ok "$SIBYL" trace dump "$T/ss$np.trace"
	expect_grep "tag -2" "$T/out"
	expect_grep "waits   1:0" "$T/out"
	# Rank 1 posts its receive at 50 us; the acknowledgement reaches
	# rank 0 one latency later: 50 + 1 us (the acknowledgement has no bytes).
	expect_ok "$SIBYL" sim -q "$T/ss$np.trace" -o "$T/ss$np.sim"
	expect_grep '"predicted_time_ps": 51000000,' "$T/ss$np.sim/summary.json"
done

# Format 1.2: where receives were posted and sends completed.  Rank 0
# posts an MPI_Irecv, then three barriers pass before rank 1 sends the
# message it matches: the SEB that ended at the MPI_Irecv must list that
# message as posted although later SEBs were made before it matched
# (it waits to be written).  The barriers' own receives are posted
# lists of their rounds.  Rank 0's MPI_Isend is listed as done by the
# SEB after its MPI_Wait, and its blocking MPI_Send by the SEB after it.
cat >"$T/posts.c" <<'PROG'
#include <mpi.h>
#include <string.h>
static char big[65536];
int main(int argc, char **argv)
{
	int rank, x = 1;
	MPI_Request q;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Irecv(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &q);
		for (int i = 0; i < 3; i++)
			MPI_Barrier(MPI_COMM_WORLD);
		MPI_Wait(&q, MPI_STATUS_IGNORE);
		MPI_Isend(big, sizeof big, MPI_CHAR, 1, 8, MPI_COMM_WORLD, &q);
		MPI_Wait(&q, MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
	} else {
		for (int i = 0; i < 3; i++)
			MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 1) {
			MPI_Send(&x, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
			MPI_Recv(big, sizeof big, MPI_CHAR, 0, 8,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Recv(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		}
	}
	MPI_Finalize();
	return 0;
}
PROG
emu_build posts "$T/posts.c" || finish
# The receive is of 4 bytes: below the default --post-points (4 KiB) no
# post point is recorded; --post-points 0 records all.
expect_ok "$SIBYL" emulate -q --ranks 3 --cpu-factor 0 \
	-o "$T/posts-default.trace" -- "$T/posts"
expect_ok "$SIBYL" trace dump "$T/posts-default.trace"
checks=$((checks + 1))
grep -q '^    posted  1:' "$T/out" &&
	fail "a 4-byte MPI_Irecv recorded its post point by default"
for np in 1 2; do
	expect_ok "$SIBYL" emulate -q --ranks 3 -np $np --cpu-factor 0 \
		--post-points 0 -o "$T/posts$np.trace" -- "$T/posts"
	expect_ok "$SIBYL" trace check "$T/posts$np.trace"
	expect_ok "$SIBYL" trace dump --json "$T/posts$np.trace"
	checks=$((checks + 1))
	py '
import json, sys
sebs = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    sebs.setdefault(o["pe"], []).append(o)
p0, p1 = sebs[0], sebs[1]
def send_seq(pe, tag):
    return [m["seq"] for s in sebs[pe] for m in s["sends"] if m["tag"] == tag]
(m7,) = send_seq(1, 7)
(m8,) = send_seq(0, 8)
(m9,) = send_seq(0, 9)
names = [s["name"] for s in p0]
i = names.index("MPI_Irecv")
# The SEB that ended at the MPI_Irecv call lists the message it matched.
assert p0[i - 1]["posted"] == [{"src": 1, "seq": m7}], p0[i - 1]
assert [s["seb"] for s in p0 if {"src": 1, "seq": m7} in s["posted"]] == \
       [i - 1], "posted twice"
# Later SEBs were made before it matched: the barriers, whose own
# receives are posted by the collective, each in its round.
assert names.count("MPI_Barrier") >= 3, names
w = [s for s in p0 if {"src": 1, "seq": m7} in s["waits"]]
assert len(w) == 1 and w[0]["seb"] > i, w
# Done: the Isend after its MPI_Wait, the blocking send after it.
d8 = [s for s in p0 if m8 in s["done"]]
d9 = [s for s in p0 if m9 in s["done"]]
assert len(d8) == 1 and d8[0]["name"] == "MPI_Wait", d8
assert len(d9) == 1 and d9[0]["name"] == "MPI_Send", d9
# Rank 1 receives m8 and m9 with blocking calls: posted by no list.
for s in p1:
    for m in s["posted"]:
        assert m["src"] != 0 or m["seq"] not in (m8, m9), s
print("ok")
' "$T/out" >"$T/py.out" 2>&1 ||
		fail "posts, $np process(es): $(tail -3 "$T/py.out")"
done
finish
