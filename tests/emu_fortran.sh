#!/bin/sh
# emu_fortran.sh -- Fortran programs built with sibylfort (emulator/
# fortran.c, fortran_rt.c, mpif.h, the mpi module).
#  - emulator/fortran.c and mpif.h are what emulator/fortran-gen.py writes
#    from the C headers.
#  - tests/emu/f_mpi.f90 (use mpi): module variables per rank, blocking
#    and non-blocking point to point with statuses, MPI_STATUS_IGNORE,
#    Waitany's 1-based index, reductions on Fortran types (DOUBLE
#    PRECISION, INTEGER, LOGICAL, DOUBLE COMPLEX), MPI_IN_PLACE,
#    characters, a name out, a split communicator, a vector type,
#    MPI_TAG_UB, distributed graphs with MPI_UNWEIGHTED and with weights
#    and a neighbourhood allgather, an error class through IERROR; on 1,
#    2 and 3 processes.
#  - tests/emu/f_common.f (fixed form, mpif.h): COMMON blocks, BLOCK DATA
#    and SAVEd DATA variables per rank; with SIBYLCC_PRIVATIZE=no it fails
#    (the test can fail); compiled with -c then linked.
#  - STOP after MPI_Finalize ends the rank with its code (the emulation's
#    status, as for exit()); STOP before it stops the emulation naming the
#    rank; CALL EXIT after MPI_Finalize ends the rank (all four ranks
#    finish, each with its status).
#  - A routine without a Fortran binding fails to link, naming it; the
#    mpi_f08 module is not there and the compiler names it.
#  - sibylfort --help, -showme:compile; no Open MPI symbol in a program.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

E="$SIBYL_SRCDIR/tests/emu"
: "${SIBYLFORT:=$(dirname "$SIBYLCC")/sibylfort}"

# The generated files are current (whether or not there is gfortran).
checks=$((checks + 1))
if python3 "$SIBYL_SRCDIR/emulator/fortran-gen.py" "$SIBYL_SRCDIR" "$T/gen" \
	>"$T/gen.out" 2>&1; then
	for f in emulator/fortran.c emulator/include/mpif.h; do
		checks=$((checks + 1))
		cmp -s "$T/gen/$f" "$SIBYL_SRCDIR/$f" ||
			fail "$f is not what emulator/fortran-gen.py writes;" \
			     "run it and commit the result"
	done
else
	fail "fortran-gen.py failed: $(tail -3 "$T/gen.out")"
fi

if ! "$SIBYLFORT" --version >"$T/v" 2>&1; then
	echo "emu_fortran: SKIP: sibylfort has no Fortran compiler:" \
	     "$(head -1 "$T/v")"
	finish
fi

# fort_build NAME ARGS...: sibylfort ARGS -o $T/NAME.
fort_build() {
	name=$1
	shift
	checks=$((checks + 1))
	if ! (cd "$T" && "$SIBYLFORT" -O2 "$@" -o "$T/$name") \
		>"$T/build.err" 2>&1; then
		fail "sibylfort could not build $name"
		grep -v -i warning "$T/build.err" | sed 's/^/  | /' |
			head -20 >&2
		return 1
	fi
}

# expect_ok_line NAME NP RANKS: "NAME: ok RANKS ranks", no FAIL, status 0.
expect_ok_line() {
	name=$1 np=$2 ranks=$3 prog=${4:-$1}
	emu_run "$np" "$ranks" "$T/$prog.trace" "$T/$prog"
	checks=$((checks + 1))
	if [ "$emu_status" -ne 0 ] ||
	   ! grep -q "^$name: ok $ranks ranks\$" "$T/out" ||
	   grep -q FAIL "$T/out"; then
		fail "$prog, $ranks ranks on $np process(es): status $emu_status"
		sed 's/^/  | /' "$T/out" "$T/err" | head -20 >&2
	fi
}

fort_build f_mpi "$E/f_mpi.f90" && {
	expect_ok_line f_mpi 1 5
	expect_ok_line f_mpi 2 8
	expect_ok_line f_mpi 3 40
}
fort_build f_common "$E/f_common.f" && {
	expect_ok_line f_common 1 4
	expect_ok_line f_common 2 9
}
# Compiled, then linked.
checks=$((checks + 1))
if (cd "$T" && "$SIBYLFORT" -O2 -c "$E/f_common.f" -o f_common2.o &&
    "$SIBYLFORT" f_common2.o -o f_common2) >"$T/build.err" 2>&1; then
	expect_ok_line f_common 2 5 f_common2
else
	fail "sibylfort -c then link: $(head -3 "$T/build.err")"
fi
# Shared COMMON blocks: the checks fail.
SIBYLCC_PRIVATIZE=no fort_build shared "$E/f_common.f" && {
	emu_run 1 4 "$T/shared.trace" "$T/shared"
	expect_grep "FAIL rank" "$T/out"
}

# STOP after MPI_Finalize: the rank's code; before: the emulation stops.
cat >"$T/stops.f90" <<'PROG'
program stops
  use mpi
  implicit none
  integer :: ierr, rank
  character(len=8) :: arg
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call get_command_argument(1, arg)
  if (arg == 'early' .and. rank == 1) stop 'rank one leaves'
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FINALIZE(ierr)
  if (rank == 2) stop 3
  if (arg == 'exit') call exit(rank)
end program stops
PROG
fort_build stops "$T/stops.f90" && {
	emu_run 2 4 "$T/stops.trace" "$T/stops" late
	checks=$((checks + 1))
	[ "$emu_status" -ne 0 ] || fail "STOP 3 after MPI_Finalize exited 0"
	expect_grep "^STOP 3\$" "$T/err"
	expect_grep "rank 2 ended with status 3 after MPI_Finalize" "$T/err"
	expect_grep "stops exited with status 3 after every rank finished" \
		"$T/err"
	emu_run 2 4 "$T/stops.trace" "$T/stops" early
	checks=$((checks + 1))
	[ "$emu_status" -ne 0 ] || fail "STOP before MPI_Finalize exited 0"
	expect_grep "^STOP rank one leaves\$" "$T/err"
	expect_grep "rank 1 called exit\(0\) without MPI_Finalize" "$T/err"
	# CALL EXIT after MPI_Finalize: each rank ends with its status.
	emu_run 2 4 "$T/stops.trace" "$T/stops" exit
	expect_grep "rank 1 ended with status 1 after MPI_Finalize" "$T/err"
	checks=$((checks + 1))
	[ -e "$T/stops.trace.partial" ] || [ -e "$T/stops.trace" ] ||
		fail "CALL EXIT: no trace"
}

# No binding: the link names the routine.  No mpi_f08: the compiler
# names it.
cat >"$T/keyval.f90" <<'PROG'
program keyval
  use mpi
  implicit none
  integer :: ierr, key, extra
  external copy_fn, delete_fn
  call MPI_INIT(ierr)
  call MPI_KEYVAL_CREATE(copy_fn, delete_fn, key, extra, ierr)
  call MPI_FINALIZE(ierr)
end program keyval
PROG
checks=$((checks + 1))
if (cd "$T" && "$SIBYLFORT" "$T/keyval.f90" -o "$T/keyval") \
	>"$T/build.err" 2>&1; then
	fail "a call to MPI_KEYVAL_CREATE linked"
else
	expect_grep "undefined reference to .mpi_keyval_create_" "$T/build.err"
fi
printf 'program f08\n  use mpi_f08\nend program f08\n' >"$T/f08.f90"
checks=$((checks + 1))
if (cd "$T" && "$SIBYLFORT" "$T/f08.f90" -o "$T/f08") >"$T/build.err" 2>&1
then
	fail "use mpi_f08 compiled"
else
	expect_grep "mpi_f08" "$T/build.err"
fi

# Open MPI stays out of a Fortran program too.
checks=$((checks + 1))
if nm -u "$T/f_mpi" | grep -E ' (MPI_|PMPI_|ompi_|opal_|mpi_|pmpi_)' \
	>"$T/imports"; then
	fail "f_mpi imports MPI symbols: $(head -3 "$T/imports")"
fi

expect_ok "$SIBYLFORT" --help
expect_grep "^Usage: sibylfort " "$T/out"
expect_grep "mpifort" "$T/out"
expect_grep "SIBYLFORT_FC" "$T/out"
expect_ok "$SIBYLFORT" -showme:compile
expect_grep "fno-backtrace" "$T/out"
checks=$((checks + 1))
! grep -q -- "-Dmain" "$T/out" || fail "sibylfort defines main"
finish
