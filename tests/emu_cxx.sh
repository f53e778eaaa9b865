#!/bin/sh
# emu_cxx.sh -- C++ programs built with sibylcxx (emulator/lifecycle.c).
#  - tests/emu/cxx_life.cc: globals with constructors (a std::vector),
#    function-local and template statics are per rank; destructors and
#    atexit handlers run once per rank; exceptions thrown, caught and
#    rethrown while other ranks are in catch blocks or unwinding.  On 1
#    and 2 processes, and compiled with -c then linked.
#  - The same program built with SIBYLCC_PRIVATIZE=no fails its checks
#    (the test can fail).
#  - main() without parameters, and main(argc, argv, envp).
#  - An uncaught exception stops the emulation naming the rank.
#  - C: __attribute__((constructor)) runs per rank (and one with a
#    priority runs before); -privatize on an object compiled by the plain
#    compiler makes its globals per rank.
#  - sibylcxx -show names the C++ compiler and the same flags as sibylcc.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

E="$SIBYL_SRCDIR/tests/emu"
: "${SIBYLCXX:=$(dirname "$SIBYLCC")/sibylcxx}"
if ! "$SIBYLCXX" --version >"$T/v" 2>&1; then
	echo "emu_cxx: SKIP: sibylcxx has no C++ compiler: $(head -1 "$T/v")"
	exit 77
fi

# cxx_build NAME ARGS...: sibylcxx ARGS -o $T/NAME.
cxx_build() {
	name=$1
	shift
	checks=$((checks + 1))
	if ! "$SIBYLCXX" -O2 "$@" -o "$T/$name" >"$T/build.err" 2>&1; then
		fail "sibylcxx could not build $name"
		sed 's/^/  | /' "$T/build.err" | head -20 >&2
		return 1
	fi
}

# life_ok NAME NP RANKS: the cxx_life checks hold and every rank ran its
# destructor and its atexit handler once, after its checks.
life_ok() {
	name=$1 np=$2 ranks=$3
	emu_run "$np" "$ranks" "$T/$name.trace" "$T/$name"
	checks=$((checks + 1))
	if [ "$emu_status" -ne 0 ] ||
	   ! grep -q "^cxx_life: ok $ranks ranks\$" "$T/out" ||
	   grep -q FAIL "$T/out"; then
		fail "$name, $ranks ranks on $np process(es): status $emu_status"
		sed 's/^/  | /' "$T/out" "$T/err" | head -20 >&2
		return
	fi
	checks=$((checks + 1))
	n=$(grep -c '^dtor rank [0-9]* witness constructed 1$' "$T/out")
	a=$(grep -c '^atexit rank [0-9]*$' "$T/out")
	d=$(sed -n 's/^dtor rank \([0-9]*\) .*/\1/p' "$T/out" | sort -un |
	    wc -l)
	[ "$n" -eq "$ranks" ] && [ "$a" -eq "$ranks" ] && [ "$d" -eq "$ranks" ] ||
		fail "$name: $n destructor lines ($d ranks), $a atexit lines," \
		     "expected $ranks each"
}

cxx_build life -I"$E" "$E/cxx_life.cc" && {
	life_ok life 1 6
	life_ok life 2 40
}
# Compiled, then linked.
checks=$((checks + 1))
if "$SIBYLCXX" -O2 -c "$E/cxx_life.cc" -o "$T/life2.o" 2>"$T/build.err" &&
   "$SIBYLCXX" "$T/life2.o" -o "$T/life2" 2>>"$T/build.err"; then
	life_ok life2 2 7
else
	fail "sibylcxx -c then link failed: $(head -3 "$T/build.err")"
fi
# Without privatization the ranks share the globals: the checks fail.
SIBYLCC_PRIVATIZE=no cxx_build shared -I"$E" "$E/cxx_life.cc" && {
	emu_run 1 4 "$T/shared.trace" "$T/shared"
	expect_grep "^FAIL rank [0-9]+: the vector" \
		"$T/out"
}

# main() without parameters; main with envp.
cat >"$T/mainv.cc" <<'PROG'
#include <mpi.h>
#include <cstdio>
int main()
{
	int rank;
	MPI_Init(nullptr, nullptr);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	std::printf("mainv %d\n", rank);
	MPI_Finalize();
	return 0;
}
PROG
cat >"$T/mainenv.cc" <<'PROG'
#include <mpi.h>
#include <cstdio>
#include <cstring>
int main(int argc, char **argv, char **envp)
{
	int rank, found = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (char **e = envp; *e; e++)
		found += std::strncmp(*e, "SIBYL_CXX_TEST=yes", 18) == 0;
	std::printf("mainenv %d %s %d\n", rank, argc > 1 ? argv[1] : "-",
		    found);
	MPI_Finalize();
	return 0;
}
PROG
cxx_build mainv "$T/mainv.cc" && {
	emu_run 1 3 "$T/mainv.trace" "$T/mainv"
	checks=$((checks + 1))
	[ "$emu_status" -eq 0 ] && [ "$(grep -c '^mainv [0-2]$' "$T/out")" -eq 3 ] ||
		fail "main(): status $emu_status, $(head -3 "$T/out" "$T/err")"
}
cxx_build mainenv "$T/mainenv.cc" && {
	SIBYL_CXX_TEST=yes emu_run 1 2 "$T/mainenv.trace" "$T/mainenv" arg
	checks=$((checks + 1))
	[ "$emu_status" -eq 0 ] &&
	[ "$(grep -c '^mainenv [01] arg 1$' "$T/out")" -eq 2 ] ||
		fail "main(argc, argv, envp): status $emu_status," \
		     "$(head -3 "$T/out" "$T/err")"
}

# An uncaught exception: std::terminate in that rank, and the report.
cat >"$T/uncaught.cc" <<'PROG'
#include <mpi.h>
#include <stdexcept>
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 2)
		throw std::logic_error("rank two gives up");
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
PROG
cxx_build uncaught "$T/uncaught.cc" && {
	emu_run 2 4 "$T/uncaught.trace" "$T/uncaught"
	checks=$((checks + 1))
	[ "$emu_status" -ne 0 ] || fail "an uncaught exception exited 0"
	expect_grep "what\(\): +rank two gives up" "$T/err"
	expect_grep "^sibyl: rank 2 .*SIGABRT" "$T/err"
	checks=$((checks + 1))
	[ ! -d "$T/uncaught.trace" ] ||
		fail "an uncaught exception left a complete-looking trace"
}

# C: constructors per rank, with a priority per process.
cat >"$T/ctor.c" <<'PROG'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static int *mine;               /* set by each rank's constructor */
static int runs, early_runs;
extern int plain_counter;       /* from an object compiled without sibylcc */
__attribute__((constructor)) static void setup(void)
{
	mine = malloc(sizeof *mine);
	*mine = 0;
	runs++;
	plain_counter++;
}
__attribute__((constructor(200))) static void early(void)
{
	early_runs++;
}
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	*mine += rank;
	MPI_Barrier(MPI_COMM_WORLD);
	printf("ctor %d mine %d runs %d early %d plain %d\n", rank, *mine,
	       runs, early_runs, plain_counter);
	MPI_Finalize();
	return 0;
}
PROG
printf 'int plain_counter;\n' >"$T/plain.c"
checks=$((checks + 1))
if cc -c "$T/plain.c" -o "$T/plain.o" &&
   "$SIBYLCC" -privatize "$T/plain.o" 2>"$T/build.err"; then
	readelf -SW "$T/plain.o" >"$T/sections"
	expect_grep " sibylpriv_bss " "$T/sections"
	emu_build ctor "$T/ctor.c" "$T/plain.o" && {
		emu_run 1 4 "$T/ctor.trace" "$T/ctor"
		for r in 0 1 2 3; do
			expect_grep "^ctor $r mine $r runs 1 early 1 plain 1\$" \
				"$T/out"
		done
	}
else
	fail "cc -c or sibylcc -privatize failed: $(head -3 "$T/build.err")"
fi
expect_exit 1 "$SIBYLCC" -privatize "$T/no-such.o"
expect_grep "^sibylcc: -privatize: .*no-such.o: no such object" "$T/err"

# sibylcxx -show: the C++ compiler, sibylcc's flags; --help names mpicxx.
expect_ok "$SIBYLCXX" -showme:compile
cp "$T/out" "$T/cxxflags"
expect_ok "$SIBYLCC" -showme:compile
checks=$((checks + 1))
cmp -s "$T/out" "$T/cxxflags" || fail "sibylcxx and sibylcc compile flags differ"
expect_ok "$SIBYLCXX" --help
expect_grep "^Usage: sibylcxx " "$T/out"
expect_grep "mpicxx" "$T/out"
expect_grep "SIBYLCXX_CXX" "$T/out"
expect_exit 1 env SIBYLCXX_CXX="$T/no-such-compiler" "$SIBYLCXX" x.cc
expect_grep "^sibylcxx: C\+\+ compiler '.*no-such-compiler' not found; set SIBYLCXX_CXX" "$T/err"
finish
