#!/bin/sh
# Faults are reported, not hung on: a global deadlock lists every blocked
# rank and its call; leaked requests and unreceived messages are listed at
# the end; MPI errors name the rank, the call and the error class; a stack
# overflow names the rank and says how to raise the stack size; a
# segmentation fault names the rank that was running; a process killed
# without warning is named by `sibyl emulate' with its ranks.  Each
# ends with a non-zero exit and `sibyl emulate' keeps no complete-looking
# trace.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

# fault NAME NP RANKS PATTERN... : the run fails and stderr matches each.
fault() {
	name=$1 np=$2 ranks=$3
	shift 3
	checks=$((checks + 1))
	rm -rf "$T/$name.trace" "$T/$name.trace.partial"
	emu_run "$np" "$ranks" "$T/$name.trace" "$T/$name"
	[ "$emu_status" -ne 0 ] ||
		fail "$name on $np process(es) exited 0"
	[ ! -e "$T/$name.trace" ] ||
		fail "$name: a trace was left at $T/$name.trace"
	for pat in "$@"; do
		expect_grep "$pat" "$T/err"
	done
}

for f in fault_deadlock fault_leak fault_truncate fault_badrank fault_rma \
	fault_start fault_bsend; do
	emu_build $f "$SIBYL_SRCDIR/tests/emu/$f.c" || finish
done

for np in 1 2; do
	fault fault_deadlock $np 12 \
		"deadlock: 12 ranks are blocked" \
		"rank 0 waits in MPI_Recv\(source=11, tag=1, MPI_COMM_WORLD\)" \
		"rank 7 waits in MPI_Recv\(source=6, tag=1, MPI_COMM_WORLD\)"
	fault fault_leak $np 6 \
		"rank 0: the request of MPI_Irecv\(source=1, tag=42\) was never completed" \
		"rank 0: a message from rank 1 \(tag 43, 4 bytes\) was never received"
	fault fault_truncate $np 6 \
		"rank 0 in MPI_Recv: MPI_ERR_TRUNCATE: a message of 400 bytes from rank 5"
	fault fault_badrank $np 6 \
		"rank 0 in MPI_Send: MPI_ERR_RANK: destination 6 is not a rank of MPI_COMM_WORLD"
	fault fault_rma $np 4 \
		"rank 0 in MPI_Win_create_dynamic: MPI_ERR_UNSUPPORTED_OPERATION: not emulated by this version of Sibyl: dynamic windows"
	fault fault_start $np 4 \
		"^fault_start: non-persistent: MPI_ERR_REQUEST$" \
		"rank 0 in MPI_Start: MPI_ERR_REQUEST: request [0-9]+ \(of MPI_Recv_init\) is active"
	fault fault_bsend $np 4 \
		"^fault_bsend: no buffer: MPI_ERR_BUFFER$" \
		"rank 0 in MPI_Bsend: MPI_ERR_BUFFER: the attached buffer of 228 bytes has 228 free \(0 buffered messages not sent yet\); this message needs 528 \(400 bytes plus MPI_BSEND_OVERHEAD\)"
done

# A cancelled receive never waited for (Graph500's AML does this), and a
# completed send never waited for (SNAP), are a note, not a failure: no
# message depended on them.
cat >"$T/cancel_leak.c" <<'PROG'
#include <mpi.h>
int main(int argc, char **argv)
{
	int in[2];
	MPI_Request rq[2];
	MPI_Init(&argc, &argv);
	MPI_Recv_init(&in[0], 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD,
		      &rq[0]);
	MPI_Start(&rq[0]);
	MPI_Irecv(&in[1], 1, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD,
		  &rq[1]);
	MPI_Cancel(&rq[0]);
	MPI_Cancel(&rq[1]);
	/* A send whose request is dropped; its message is received. */
	int rank, size, out = 5, got;
	MPI_Request dropped;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Isend(&out, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD,
		  &dropped);
	MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
PROG
emu_build cancel_leak "$T/cancel_leak.c" && {
	emu_run 2 4 "$T/cancel_leak.trace" "$T/cancel_leak"
	checks=$((checks + 1))
	[ "$emu_status" -eq 0 ] ||
		fail "cancelled requests left unwaited failed the run: $(head -3 "$T/err")"
	expect_grep "^sibyl: note: process 0: 6 completed requests were never waited for or freed, 4 of them cancelled" \
		"$T/err"
	checks=$((checks + 1))
	! grep -q "never completed" "$T/err" ||
		fail "a cancelled request was reported as never completed"
}

# A deadlock among many ranks is summarised, not listed in full.
fault fault_deadlock 1 500 "deadlock: 500 ranks" "and 480 more blocked ranks"

# Stack overflow: deep recursion on a small stack.
cat >"$T/deep.c" <<'PROG'
#include <mpi.h>
#include <string.h>
static int deep(int n)
{
	volatile char pad[1024];
	memset((char *)pad, n, sizeof pad);
	return n ? deep(n - 1) + pad[7] : 0;
}
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 3)
		deep(1000);
	MPI_Finalize();
	return 0;
}
PROG
emu_build deep "$T/deep.c" || finish
for stack in 64KiB; do
	checks=$((checks + 1))
	"$SIBYL" emulate -q --ranks 8 -np 1 --stack-size $stack \
		-o "$T/deep.trace" -- "$T/deep" >"$T/out" 2>"$T/err"
	[ $? -ne 0 ] || fail "stack overflow not detected"
	expect_grep "rank 3 overflowed its stack of 65536 bytes" "$T/err"
	expect_grep "stack-size" "$T/err"
done
# The same program runs with enough stack.
expect_ok "$SIBYL" emulate -q --ranks 8 -np 1 --stack-size 4MiB \
	-o "$T/deep2.trace" -- "$T/deep"

# A segmentation fault in a rank's own code names the virtual rank, and
# the signal reaches the launcher's report.
cat >"$T/segv.c" <<'PROG'
#include <mpi.h>
#include <sys/mman.h>
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 5) {
		/* A store to a read-only page: a fault that no sanitizer
		 * reports before the hardware does. */
		volatile int *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE |
				       MAP_ANONYMOUS, -1, 0);
		*p = 1;
	}
	MPI_Finalize();
	return 0;
}
PROG
emu_build segv "$T/segv.c" || finish
for np in 1 2; do
	checks=$((checks + 1))
	rm -rf "$T/segv.trace" "$T/segv.trace.partial"
	"$SIBYL" emulate -q --ranks 8 -np $np -o "$T/segv.trace" -- \
		"$T/segv" >"$T/out" 2>"$T/err"
	[ $? -eq 1 ] || fail "segv on $np process(es): not exit 1"
	expect_grep "sibyl: rank 5 \(process $((np - 1))\) received SIGSEGV \
\(invalid memory reference\) at address 0x[0-9a-f]+ in the program's own code" \
		"$T/err"
	[ ! -e "$T/segv.trace" ] || fail "segv: a trace was left"
done

# A process killed without warning (SIGKILL: the kernel's out-of-memory
# killer, a batch system) is named with its ranks, the signal and the
# probable cause; the other process, which mpirun then stopped, is not;
# the state files stay with the incomplete trace and do not stop the
# next run.
cat >"$T/kill.c" <<'PROG'
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == atoi(argv[1]))
		raise(SIGKILL);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
PROG
emu_build kill "$T/kill.c" || finish
for victim in 5 1; do
	emu_run 2 8 "$T/kill.trace" "$T/kill" $victim
	checks=$((checks + 1))
	[ "$emu_status" -eq 1 ] || fail "kill $victim: exit $emu_status, not 1"
	proc=$((victim / 4))
	expect_grep "emulating process $proc \(virtual ranks $((proc * 4)) to \
$((proc * 4 + 3)), pid [0-9]+\) was killed by signal 9 \(Killed\)" "$T/err"
	expect_grep "probable cause: (the kernel's out-of-memory killer|a \
SIGKILL from outside)" "$T/err"
	expect_grep "emulation failed \(mpirun exited 137\); the incomplete \
trace is left in" "$T/err"
	checks=$((checks + 1))
	[ "$(grep -c 'was killed by signal' "$T/err")" -eq 1 ] ||
		fail "kill $victim: more than the killed process named"
	expect_grep "state=terminated" "$T/kill.trace.partial/proc-00000$((1 - proc)).state"
done
# A complete run leaves no state file in its trace.
emu_run 2 8 "$T/kill.trace" "$T/kill" 99
checks=$((checks + 1))
[ "$emu_status" -eq 0 ] || fail "kill 99: exit $emu_status: $(head -3 "$T/err")"
checks=$((checks + 1))
ls "$T/kill.trace" | grep -q 'state' && fail "a complete trace holds state files"
finish
