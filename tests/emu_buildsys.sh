#!/bin/sh
# emu_buildsys.sh -- build systems take sibylcc as their C compiler.
#  - A program built with sibylcc that never calls MPI_Init, run
#    directly, is an ordinary process: its output, its exit status (from
#    main's return and from exit()), and no trace left behind.  Configure
#    scripts run such programs ("checking whether we are cross
#    compiling").
#  - Run directly, a program that calls MPI_Init still writes its trace.
#  - A small autotools project configures with CC=sibylcc, CXX=sibylcxx
#    and FC=sibylfort (configure runs a test program in each language),
#    builds, and its three MPI programs emulate (needs autoreconf; skipped
#    without it; Fortran skipped without gfortran).
#  - A small CMake project likewise (needs cmake; skipped without it).
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

cat >"$T/plain.c" <<'PROG'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	printf("plain %d %s\n", argc, argc > 1 ? argv[1] : "-");
	if (argc > 2)
		exit(5);
	return argc > 1 ? 3 : 0;
}
PROG
emu_build plain "$T/plain.c" || finish
for args in "" "x" "x y"; do
	case $args in
	"") want=0 ;;
	x) want=3 ;;
	*) want=5 ;;
	esac
	checks=$((checks + 1))
	# shellcheck disable=SC2086
	(cd "$T" && ./plain $args >"$T/out" 2>"$T/err")
	got=$?
	[ "$got" -eq "$want" ] ||
		fail "plain $args: exit $got, expected $want: $(head -3 "$T/err")"
	expect_grep "^plain $(($(echo "$args" | wc -w) + 1)) " "$T/out"
	checks=$((checks + 1))
	[ ! -s "$T/err" ] || fail "plain $args wrote to stderr: $(head -3 "$T/err")"
	checks=$((checks + 1))
	[ ! -e "$T/plain.trace" ] || fail "plain $args left plain.trace"
done

cat >"$T/hello.c" <<'PROG'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
	int rank, size, sum = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("hello: %d ranks, sum %d\n", size, sum);
	MPI_Finalize();
	return 0;
}
PROG
emu_build hello "$T/hello.c" || finish
checks=$((checks + 1))
(cd "$T" && ./hello >"$T/out" 2>"$T/err") || fail "hello run directly failed: $(head -3 "$T/err")"
expect_grep '^hello: 1 ranks, sum 0$' "$T/out"
expect_ok "$SIBYL" trace check "$T/hello.trace"

# The wrappers as a build system sees them: one word, their variables set.
: "${SIBYLCXX:=$(dirname "$SIBYLCC")/sibylcxx}"
: "${SIBYLFORT:=$(dirname "$SIBYLCC")/sibylfort}"
for w in cc:SIBYLCC cxx:SIBYLCXX fc:SIBYLFORT; do
	eval "prog=\$${w#*:}"
	cat >"$T/${w%%:*}" <<EOF
#!/bin/sh
SIBYLCC_INCDIR='$SIBYLCC_INCDIR' SIBYLCC_LIBDIR='$SIBYLCC_LIBDIR' \\
SIBYLFORT_MODDIR='${SIBYLFORT_MODDIR:-$SIBYLCC_INCDIR}' \\
	exec '$prog' "\$@"
EOF
	chmod +x "$T/${w%%:*}"
done

# The same program in C++ and in Fortran.
cat >"$T/hellocxx.cc" <<'PROG'
#include <mpi.h>
#include <iostream>
int main(int argc, char **argv)
{
	int rank, size, sum = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		std::cout << "hellocxx: " << size << " ranks, sum " << sum
			  << std::endl;
	MPI_Finalize();
	return 0;
}
PROG
cat >"$T/hellof.f90" <<'PROG'
program hellof
  use mpi
  implicit none
  integer :: ierr, rank, nranks, total
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  call MPI_ALLREDUCE(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, &
                     ierr)
  if (rank == 0) print '(a,i0,a,i0)', 'hellof: ', nranks, ' ranks, sum ', total
  call MPI_FINALIZE(ierr)
end program hellof
PROG
have_fc=no
"$SIBYLFORT" --version >/dev/null 2>&1 && have_fc=yes
[ $have_fc = yes ] ||
	echo "emu_buildsys: sibylfort has no compiler: Fortran is skipped" >&2

# built NAME DIR: DIR's programs emulate at 4 ranks and say so.
built() {
	for p in hello hellocxx hellof; do
		[ $p = hellof ] && [ $have_fc = no ] && continue
		emu_run 2 4 "$T/$1-$p.trace" "$2/$p"
		checks=$((checks + 1))
		[ "$emu_status" -eq 0 ] ||
			fail "$1: $p did not emulate: $(head -3 "$T/err")"
		expect_grep "^$p: 4 ranks, sum 6\$" "$T/out"
	done
}

if command -v autoreconf >/dev/null 2>&1 && command -v automake >/dev/null 2>&1; then
	mkdir -p "$T/at"
	cp "$T/hello.c" "$T/hellocxx.cc" "$T/hellof.f90" "$T/at/"
	cat >"$T/at/configure.ac" <<'EOF'
AC_INIT([hello], [1.0])
AM_INIT_AUTOMAKE([foreign])
AC_PROG_CC
AC_PROG_CXX
AC_MSG_CHECKING([whether an MPI program runs before MPI_Init])
AC_RUN_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
	[[int flag = 1; MPI_Initialized(&flag); return flag;]])],
	[AC_MSG_RESULT([yes])], [AC_MSG_ERROR([it does not])])
AC_LANG_PUSH([C++])
AC_MSG_CHECKING([whether a C++ program with a global std::string runs])
AC_RUN_IFELSE([AC_LANG_PROGRAM([[#include <string>
std::string g("x");]], [[return g.size() != 1;]])],
	[AC_MSG_RESULT([yes])], [AC_MSG_ERROR([it does not])])
AC_LANG_POP([C++])
AM_CONDITIONAL([FORTRAN], [test "x$with_fortran" = xyes])
AS_IF([test "x$with_fortran" = xyes], [
AC_PROG_FC
AC_LANG_PUSH([Fortran])
AC_MSG_CHECKING([whether a Fortran MPI program runs before MPI_Init])
AC_RUN_IFELSE([AC_LANG_PROGRAM([], [[      include 'mpif.h'
      logical flag
      integer ierr
      call MPI_INITIALIZED(flag, ierr)
      if (flag) stop 1]])],
	[AC_MSG_RESULT([yes])], [AC_MSG_ERROR([it does not])])
AC_LANG_POP([Fortran])])
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
EOF
	cat >"$T/at/Makefile.am" <<'EOF'
bin_PROGRAMS = hello hellocxx
hello_SOURCES = hello.c
hellocxx_SOURCES = hellocxx.cc
if FORTRAN
bin_PROGRAMS += hellof
hellof_SOURCES = hellof.f90
endif
EOF
	checks=$((checks + 1))
	if (cd "$T/at" && autoreconf -i &&
	    ./configure CC="$T/cc" CXX="$T/cxx" FC="$T/fc" \
		with_fortran=$have_fc && make) >"$T/at.log" 2>&1; then
		expect_grep '^checking whether we are cross compiling\.\.\. no$' \
			"$T/at.log"
		expect_grep '^checking whether an MPI program runs before MPI_Init\.\.\. yes$' \
			"$T/at.log"
		expect_grep '^checking whether a C\+\+ program with a global std::string runs\.\.\. yes$' \
			"$T/at.log"
		if [ $have_fc = yes ]; then
			expect_grep '^checking whether a Fortran MPI program runs before MPI_Init\.\.\. yes$' \
				"$T/at.log"
		fi
		built autotools "$T/at"
		checks=$((checks + 1))
		ls "$T/at" | grep -q '\.trace$' &&
			fail "configure's test programs left traces: $(ls "$T/at")"
	else
		fail "the autotools project did not configure and build with" \
		     "CC=sibylcc CXX=sibylcxx FC=sibylfort"
		tail -20 "$T/at.log" | sed 's/^/  | /' >&2
	fi
else
	echo "emu_buildsys: no autoreconf/automake: the autotools project is skipped" >&2
fi

if command -v cmake >/dev/null 2>&1; then
	mkdir -p "$T/cm/src" "$T/cm/build"
	cp "$T/hello.c" "$T/hellocxx.cc" "$T/hellof.f90" "$T/cm/src/"
	cat >"$T/cm/src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.14)
project(hello C CXX)
include(CheckCSourceRuns)
include(CheckCXXSourceRuns)
check_c_source_runs("#include <mpi.h>
int main(void) { int flag = 1; MPI_Initialized(&flag); return flag; }"
	MPI_RUNS_BEFORE_INIT)
if(NOT MPI_RUNS_BEFORE_INIT)
	message(FATAL_ERROR "an MPI program does not run before MPI_Init")
endif()
check_cxx_source_runs("#include <string>
std::string g(\"x\");
int main() { return g.size() != 1; }" CXX_GLOBALS_RUN)
if(NOT CXX_GLOBALS_RUN)
	message(FATAL_ERROR "a C++ program with a global does not run")
endif()
add_executable(hello hello.c)
add_executable(hellocxx hellocxx.cc)
if(WITH_FORTRAN)
	enable_language(Fortran)
	include(CheckFortranSourceRuns)
	check_fortran_source_runs("program t
  include 'mpif.h'
  logical flag
  integer ierr
  call MPI_INITIALIZED(flag, ierr)
  if (flag) stop 1
end program t" FORTRAN_RUNS_BEFORE_INIT SRC_EXT f90)
	if(NOT FORTRAN_RUNS_BEFORE_INIT)
		message(FATAL_ERROR "a Fortran program does not run")
	endif()
	add_executable(hellof hellof.f90)
endif()
EOF
	checks=$((checks + 1))
	wf=OFF
	[ $have_fc = yes ] && wf=ON
	if (cd "$T/cm/build" && CC="$T/cc" CXX="$T/cxx" FC="$T/fc" \
	    cmake -DWITH_FORTRAN=$wf ../src && cmake --build .) \
		>"$T/cm.log" 2>&1; then
		expect_grep 'Performing Test MPI_RUNS_BEFORE_INIT - Success' \
			"$T/cm.log"
		expect_grep 'Performing Test CXX_GLOBALS_RUN - Success' \
			"$T/cm.log"
		if [ $have_fc = yes ]; then
			expect_grep 'Performing Test FORTRAN_RUNS_BEFORE_INIT - Success' \
				"$T/cm.log"
		fi
		built cmake "$T/cm/build"
	else
		fail "the CMake project did not configure and build with" \
		     "CC=sibylcc CXX=sibylcxx FC=sibylfort"
		tail -20 "$T/cm.log" | sed 's/^/  | /' >&2
	fi
else
	echo "emu_buildsys: no cmake: the CMake project is skipped" >&2
fi
finish
