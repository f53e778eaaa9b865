#!/bin/sh
# Communicators, intercommunicators, groups, attributes, error handlers and Cartesian
# topologies under the emulator (tests/emu/comm_*.c, topo_*.c, errh_*.c).
# Each self-checking program runs on 12 and 30 virtual ranks on 1 and 3
# processes (so members of a new communicator sit in several processes)
# and prints PASS; its trace must pass `sibyl trace check' and replay in
# `sibyl sim'.  The programs that do not depend on Sibyl's own choices
# also run natively under Open MPI (mpicc/mpirun), the reference.  Then:
# the context agreement's messages are in the trace (a recursive-doubling
# allreduce per new communicator, none for MPI_Comm_free);
# MPI_Comm_split_type follows --node-size; a split of 400 ranks into 16
# interleaved communicators; errors under MPI_ERRORS_ARE_FATAL name the
# rank, the call, the class and the communicator; a rank that skips a
# split is a deadlock that names the ranks waiting in MPI_Comm_split.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

E="$SIBYL_SRCDIR/tests/emu"
native=0
command -v mpicc >/dev/null && command -v mpirun >/dev/null && native=1
[ "$native" = 1 ] || echo "mpicc/mpirun not found: emulated runs only" >&2

# $emu_opts: more options of `sibyl emulate' for emu_pass.
emu_opts=

# run_native NAME NP ARGS...: the mpicc build prints PASS under mpirun.
run_native() {
	name=$1 np=$2
	shift 2
	[ "$native" = 1 ] || return 0
	checks=$((checks + 1))
	if ! mpicc -O1 -I"$E" "$E/$name.c" -o "$T/$name.native" \
		>"$T/build.err" 2>&1; then
		fail "mpicc could not build $name.c"
		sed 's/^/  | /' "$T/build.err" | head -20 >&2
		return 1
	fi
	if ! mpirun --allow-run-as-root --oversubscribe -np "$np" \
		"$T/$name.native" "$@" >"$T/native.out" 2>"$T/native.err" ||
		! grep -q "^PASS $name" "$T/native.out"; then
		fail "$name natively on $np processes"
		sed 's/^/  | /' "$T/native.out" "$T/native.err" | head -20 >&2
	fi
}

for name in comm_split comm_dup comm_attr comm_group comm_finalize comm_inter \
	comm_info topo_cart errh_return errh_user; do
	emu_build "$name" "$E/$name.c" || continue
	for np in 1 3; do
		for ranks in 12 30; do
			emu_pass "$name" "$np" "$ranks"
		done
	done
	case $name in
	topo_cart) run_native "$name" 13 ;;
	*) run_native "$name" 5 ;;
	esac
done

# The context agreement is traced: splitting 12 ranks (recursive
# doubling over 8, the other 4 folded in and out: 4 + 4 + 8 x 3 = 32
# messages) and duplicating the result's parent; MPI_Comm_free sends
# nothing.
cat >"$T/agree.c" <<'PROG'
#include <mpi.h>
int main(int argc, char **argv)
{
	MPI_Comm a, b;
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 3, -rank, &a);
	MPI_Comm_dup(MPI_COMM_WORLD, &b);
	MPI_Comm_free(&a);
	MPI_Comm_free(&b);
	MPI_Finalize();
	return 0;
}
PROG
if emu_build agree "$T/agree.c"; then
	for np in 1 2; do
		checks=$((checks + 1))
		emu_run $np 12 "$T/agree.trace" "$T/agree"
		[ "$emu_status" -eq 0 ] ||
			fail "agree on $np process(es) exited $emu_status"
		expect_ok "$SIBYL" trace info "$T/agree.trace"
		expect_grep '^  messages +64$' "$T/out"
		expect_ok "$SIBYL" trace dump "$T/agree.trace"
		expect_grep '"MPI_Comm_split"' "$T/out"
		expect_grep '"MPI_Comm_dup"' "$T/out"
	done
fi

# Nodes are blocks of --node-size world ranks.
if emu_build comm_split_type "$E/comm_split_type.c"; then
	for np in 1 3; do
		emu_opts="--node-size 7"
		emu_pass comm_split_type $np 30 7
		emu_opts=
		emu_pass comm_split_type $np 40 32
	done
fi

# A larger split: 400 ranks, 16 interleaved communicators and 16 blocks.
if emu_build comm_scale "$E/comm_scale.c"; then
	emu_pass comm_scale 2 400 16
	emu_pass comm_scale 3 30 4
	run_native comm_scale 5 2
fi

# Errors under MPI_ERRORS_ARE_FATAL.
# fault NAME NP RANKS ARG PATTERN...: fails, stderr matches each.
fault() {
	name=$1 np=$2 ranks=$3 arg=$4
	shift 4
	checks=$((checks + 1))
	rm -rf "$T/$name.trace" "$T/$name.trace.partial"
	emu_run "$np" "$ranks" "$T/$name.trace" "$T/$name" $arg
	[ "$emu_status" -ne 0 ] ||
		fail "$name $arg on $np process(es) exited 0"
	[ ! -e "$T/$name.trace" ] ||
		fail "$name: a trace was left at $T/$name.trace"
	for pat in "$@"; do
		expect_grep "$pat" "$T/err"
	done
}

emu_build errh_fatal "$E/errh_fatal.c" &&
for np in 1 2; do
	fault errh_fatal $np 6 send \
		"rank 0 in MPI_Send: MPI_ERR_RANK: destination 99 is not a rank of halves \(size 3\)" \
		"MPI_ERRORS_ARE_FATAL; aborting"
	fault errh_fatal $np 6 call \
		"rank 0 in MPI_Comm_call_errhandler: MPI_ERR_OTHER: the program raised error code 16 on halves"
	fault errh_fatal $np 6 split \
		"rank 0 in MPI_Comm_split: MPI_ERR_ARG: color -5 is negative"
done

emu_build comm_deadlock "$E/comm_deadlock.c" &&
for np in 1 2; do
	fault comm_deadlock $np 6 "" \
		"deadlock: 6 ranks are blocked" \
		"rank 0 waits in MPI_Recv\(source=1, tag=99, MPI_COMM_WORLD\)" \
		"rank 1 waits in MPI_Comm_split"
done
finish
