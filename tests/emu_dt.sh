#!/bin/sh
# Datatypes under the emulator (tests/emu/dt_*.c).  The self-checking
# programs run with 12 virtual ranks on 1 and on 2 processes (peers at
# distance 6 are in the other process, at distance 1 mostly the same):
# extents and sizes against hand-computed values, MPI_Pack/Unpack against
# hand-written type maps, random nested types against a reference
# flattener, error classes under MPI_ERRORS_RETURN, every constructor in
# point-to-point messages; their traces must pass
# `sibyl trace check' and replay.  dt_scale runs 4096 ranks on 2
# processes, which must share one copy of a type they all create.
# dt_fault's mistakes must abort with the rank, call, class and problem.
# dt_envelope (the datatype routines beyond constructing and packing)
# runs with 4 ranks on 2 processes, and natively under Open MPI.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

# pass NAME NP RANKS: emu_pass, then the trace is removed.
pass() {
	emu_pass "$@" && rm -rf "$T/$1.$2.$3.trace" "$T/$1.$2.$3.trace.sim"
}

for name in dt_extent dt_pack dt_random dt_errors dt_p2p dt_subarray; do
	emu_build "$name" "$SIBYL_SRCDIR/tests/emu/$name.c" || continue
	for np in 1 2; do
		pass "$name" $np 12
	done
done

emu_build dt_scale "$SIBYL_SRCDIR/tests/emu/dt_scale.c" &&
	pass dt_scale 2 4096

# dt_envelope: 4 ranks on 2 processes; with Open MPI's mpicc and mpirun
# at hand it also runs natively, which checks its own references.
emu_build dt_envelope "$SIBYL_SRCDIR/tests/emu/dt_envelope.c" -Wall &&
	pass dt_envelope 2 4
emu_native dt_envelope 4

# fault NP CASE PATTERN: dt_fault CASE fails, leaves no trace, and
# stderr matches PATTERN (the last of 5 ranks makes the mistake).
fault() {
	np=$1 case=$2 pat=$3
	checks=$((checks + 1))
	rm -rf "$T/fault.trace" "$T/fault.trace.partial"
	emu_run "$np" 5 "$T/fault.trace" "$T/dt_fault" "$case"
	[ "$emu_status" -ne 0 ] ||
		fail "dt_fault $case on $np process(es) exited 0"
	[ ! -e "$T/fault.trace" ] ||
		fail "dt_fault $case: a trace was left at $T/fault.trace"
	expect_grep "$pat" "$T/err"
}

if emu_build dt_fault "$SIBYL_SRCDIR/tests/emu/dt_fault.c"; then
	for np in 1 2; do
		fault $np uncommitted "rank 4 in MPI_Send: MPI_ERR_TYPE: \
derived datatype [0-9]+ is not committed: call MPI_Type_commit"
		fault $np freed "rank 4 in MPI_Send: MPI_ERR_TYPE: \
datatype [0-9]+ was freed with MPI_Type_free"
		fault $np pack "rank 4 in MPI_Pack: MPI_ERR_TRUNCATE: \
16 bytes at position 0 do not fit the output buffer of 12 bytes"
		fault $np count "rank 4 in MPI_Type_vector: MPI_ERR_COUNT: \
count -1 is negative"
		fault $np null "rank 4 in MPI_Type_contiguous: MPI_ERR_TYPE: \
oldtype: MPI_DATATYPE_NULL is not a valid datatype"
	done
fi
finish
