#!/bin/sh
# One-sided communication under the emulator (tests/emu/rma_*.c): windows
# with fence epochs (Put, Get, Accumulate, Get_accumulate with a derived
# target datatype, Fetch_and_op, Compare_and_swap, attributes, errors)
# and with post/start/complete/wait/test, 24 fence epochs in a row with
# a new pattern each (rma_epochs), and passive target: exclusive and
# shared locks, lock_all, flushes, a target serving while it waits in
# MPI_Recv (rma_passive).  Each self-checking program
# runs on 8 and 64 virtual ranks on 2 processes (every window spans
# both) and on 5 ranks in 1 process, and prints PASS; its trace passes
# `sibyl trace check' and replays in `sibyl sim'.  Under Open MPI
# (mpicc/mpirun), the reference, each passes on 4 processes.  Then the
# trace of a Put and a Get of 4000 bytes between two ranks holds the
# messages they imply, sent in MPI_Win_fence: the put's operation (the
# data and its placement) from rank 0 to 1, and the get's 4000 bytes
# back from 1 to 0; a fence asserting MPI_MODE_NOPRECEDE sends nothing.
# A passive epoch is one message from the origin at its unlock (the
# lock's request, the put and the release) and an empty reply from the
# target, sent in the call the target waited in (MPI_Barrier).  The
# fence's own messages are a reduce-scatter of one word a rank (log P
# rounds), not an all-to-all.  A put past the target's memory stops the
# run with a message that names the window.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

E="$SIBYL_SRCDIR/tests/emu"

for name in rma_fence rma_pscw rma_epochs rma_passive; do
	emu_build "$name" "$E/$name.c" -Wall || continue
	emu_pass "$name" 2 8
	emu_pass "$name" 2 64
	emu_pass "$name" 1 5
	emu_native "$name" 4
done

# Emulate the built program NAME on RANKS ranks over 2 processes: it
# exits 0, its trace passes `sibyl trace check', and its JSON dump goes to
# $T/NAME.json.
emu_dump() {
	checks=$((checks + 1))
	emu_run 2 "$2" "$T/$1.trace" "$T/$1"
	[ "$emu_status" -eq 0 ] || fail "$1 exited $emu_status"
	expect_ok "$SIBYL" trace check "$T/$1.trace"
	"$SIBYL" trace dump --json "$T/$1.trace" >"$T/$1.json" ||
		fail "trace dump of $1"
}

# The messages of one Put and one Get.
cat >"$T/putget.c" <<'PROG'
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
/* Rank 0 puts 4000 bytes into the first half of rank 1's window and
 * gets the 4000 of the second half. */
int main(int argc, char **argv)
{
	char *win = malloc(8000), *out = malloc(4000), *in = malloc(4000);
	int rank;
	MPI_Win w;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	memset(out, rank + 1, 4000);
	memset(win, 7, 8000);
	MPI_Win_create(win, 8000, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
	MPI_Win_fence(MPI_MODE_NOPRECEDE, w);
	if (rank == 0) {
		MPI_Put(out, 4000, MPI_CHAR, 1, 0, 4000, MPI_CHAR, w);
		MPI_Get(in, 4000, MPI_CHAR, 1, 4000, 4000, MPI_CHAR, w);
	}
	MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
	int ok = rank != 0 || (in[0] == 7 && in[3999] == 7);
	ok = ok && (rank != 1 || (win[0] == 1 && win[3999] == 1 &&
				  win[4000] == 7));
	MPI_Win_free(&w);
	MPI_Finalize();
	free(win);
	free(out);
	free(in);
	return !ok;
}
PROG
if emu_build putget "$T/putget.c"; then
	emu_dump putget 2
	py '
import json, sys
sebs = [json.loads(l) for l in open(sys.argv[1])]
# A call'"'"'s messages leave at the end of the SEB before it (or of a step of
# the call, named after it).  The SEB that ends at the first fence (the
# last one MPI_Win_create began) sends nothing: MPI_MODE_NOPRECEDE.
last = {}
for s in sebs:
    if s["name"] == "MPI_Win_create":
        last[s["pe"]] = s
assert len(last) == 2 and not any(s["sends"] for s in last.values()), last
sends = [(s["pe"], m["dst"], m["size"]) for s in sebs
         if s["name"] == "MPI_Win_fence" for m in s["sends"]]
# The put travels with its placement, the get as a request; then the
# 4000 bytes the get read come back.
put = [m for m in sends if m[:2] == (0, 1) and m[2] > 4000]
back = [m for m in sends if m == (1, 0, 4000)]
assert len(put) == 1 and len(back) == 1, sends
print("put", put[0][2], "bytes out, get 4000 bytes back")
' "$T/putget.json"
fi

# A fence's messages, on 64 ranks where every rank puts one int to the
# next: the reduce-scatter that tells each target what comes (recursive
# halving: 6 rounds of 32, 16, ..., 1 words, 63 words a rank, 8 bytes
# each) and the 64 operations; MPI_Win_free's barrier, which follows,
# sends empty messages.  An all-to-all of the counts took 384 messages of
# 1,536 bytes a rank (Bruck) or 4,032 (pairwise).
cat >"$T/fence64.c" <<'PROG'
#include <mpi.h>
int main(int argc, char **argv)
{
	int x = -1, rank, size;
	MPI_Win w;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Win_create(&x, sizeof x, sizeof x, MPI_INFO_NULL,
		       MPI_COMM_WORLD, &w);
	MPI_Win_fence(MPI_MODE_NOPRECEDE, w);
	MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, w);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
	int ok = x == (rank + size - 1) % size;
	MPI_Win_free(&w);
	MPI_Finalize();
	return !ok;
}
PROG
if emu_build fence64 "$T/fence64.c"; then
	emu_dump fence64 64
	py '
import json, sys
sebs = [json.loads(l) for l in open(sys.argv[1])]
sends = [m for s in sebs if s["name"] == "MPI_Win_fence" for m in s["sends"]]
words = [m for m in sends if m["size"] % 8 == 0 and 0 < m["size"] <= 256]
ops = [m for m in sends if m not in words and m["size"] > 0]
assert len(ops) == 64, (len(ops), sorted(set(m["size"] for m in ops)))
assert len(words) == 64 * 6, len(words)
assert sum(m["size"] for m in words) == 64 * 63 * 8,     sum(m["size"] for m in words)
print("fence: %d reduce-scatter messages, %d bytes; %d operations" %
      (len(words), sum(m["size"] for m in words), len(ops)))
' "$T/fence64.json"
fi

# Passive target: rank 0 locks rank 1's window, puts 4000 bytes and
# unlocks while rank 1 waits in MPI_Barrier, which serves the epoch.
cat >"$T/lockput.c" <<'PROG'
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	char *win = calloc(4000, 1), *out = malloc(4000);
	int rank;
	MPI_Win w;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	memset(out, 9, 4000);
	MPI_Win_create(win, 4000, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
	if (rank == 0) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, w);
		MPI_Put(out, 4000, MPI_CHAR, 1, 0, 4000, MPI_CHAR, w);
		MPI_Win_unlock(1, w);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	int ok = rank != 1 || (win[0] == 9 && win[3999] == 9);
	MPI_Win_free(&w);
	MPI_Finalize();
	free(win);
	free(out);
	return !ok;
}
PROG
if emu_build lockput "$T/lockput.c"; then
	emu_dump lockput 2
	py '
import json, sys
sebs = [json.loads(l) for l in open(sys.argv[1])]
epoch = [(s["pe"], s["name"], m["dst"], m["size"]) for s in sebs
         for m in s["sends"] if m["size"] >= 4000]
reply = [(s["pe"], s["name"], m["dst"], m["size"]) for s in sebs
         if s["pe"] == 1 and s["name"] == "MPI_Barrier"
         for m in s["sends"] if m["dst"] == 0 and m["size"] == 0]
assert len(epoch) == 1 and (epoch[0][0], epoch[0][2]) == (0, 1), epoch
assert epoch[0][3] < 4200, epoch
assert reply, [(s["pe"], s["name"], s["sends"]) for s in sebs]
print("epoch", epoch[0][3], "bytes at the unlock, reply from the barrier")
' "$T/lockput.json"
fi

# Under the default handler a put past the target's memory stops the run,
# naming the rank, the call, the class, the window and the bytes.
cat >"$T/range.c" <<'PROG'
#include <mpi.h>
int main(int argc, char **argv)
{
	int x[4], rank;
	MPI_Win w;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Win_create(x, sizeof x, sizeof(int), MPI_INFO_NULL,
		       MPI_COMM_WORLD, &w);
	MPI_Win_set_name(w, "halo");
	MPI_Win_fence(0, w);
	if (rank == 1)
		MPI_Put(&rank, 1, MPI_INT, 0, 4, 1, MPI_INT, w);
	MPI_Win_fence(0, w);
	MPI_Win_free(&w);
	MPI_Finalize();
	return 0;
}
PROG
if emu_build range "$T/range.c"; then
	checks=$((checks + 1))
	emu_run 2 4 "$T/range.trace" "$T/range"
	[ "$emu_status" -ne 0 ] || fail "a put past the window did not stop" \
		"the run"
	expect_grep "rank 1 in MPI_Put: MPI_ERR_RMA_RANGE: bytes 16 to 20 of rank 0's memory in window [0-9]+ \(\"halo\"\), which has 16" \
		"$T/err"
fi

finish
