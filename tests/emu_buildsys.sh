#!/bin/sh
# emu_buildsys.sh -- build systems take sibylcc as their C compiler.
#  - A program built with sibylcc that never calls MPI_Init, run
#    directly, is an ordinary process: its output, its exit status (from
#    main's return and from exit()), and no trace left behind.  Configure
#    scripts run such programs ("checking whether we are cross
#    compiling").
#  - Run directly, a program that calls MPI_Init still writes its trace.
#  - A small autotools project configures with CC=sibylcc, builds, and
#    its MPI program emulates (needs autoreconf; skipped without it).
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

# The wrapper as a build system sees it: one word, its variables set.
wrap="$T/cc"
cat >"$wrap" <<EOF
#!/bin/sh
SIBYLCC_INCDIR='$SIBYLCC_INCDIR' SIBYLCC_LIBDIR='$SIBYLCC_LIBDIR' \\
	exec '$SIBYLCC' "\$@"
EOF
chmod +x "$wrap"

# built NAME DIR: DIR/hello emulates at 4 ranks and says so.
built() {
	emu_run 2 4 "$T/$1.trace" "$2/hello"
	checks=$((checks + 1))
	[ "$emu_status" -eq 0 ] ||
		fail "$1: the program did not emulate: $(head -3 "$T/err")"
	expect_grep '^hello: 4 ranks, sum 6$' "$T/out"
}

if command -v autoreconf >/dev/null 2>&1 && command -v automake >/dev/null 2>&1; then
	mkdir -p "$T/at"
	cp "$T/hello.c" "$T/at/hello.c"
	cat >"$T/at/configure.ac" <<'EOF'
AC_INIT([hello], [1.0])
AM_INIT_AUTOMAKE([foreign])
AC_PROG_CC
AC_MSG_CHECKING([whether an MPI program runs before MPI_Init])
AC_RUN_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
	[[int flag = 1; MPI_Initialized(&flag); return flag;]])],
	[AC_MSG_RESULT([yes])], [AC_MSG_ERROR([it does not])])
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
EOF
	printf 'bin_PROGRAMS = hello\nhello_SOURCES = hello.c\n' \
		>"$T/at/Makefile.am"
	checks=$((checks + 1))
	if (cd "$T/at" && autoreconf -i && ./configure CC="$wrap" &&
	    make) >"$T/at.log" 2>&1; then
		expect_grep '^checking whether we are cross compiling\.\.\. no$' \
			"$T/at.log"
		expect_grep '^checking whether an MPI program runs before MPI_Init\.\.\. yes$' \
			"$T/at.log"
		built autotools "$T/at"
		checks=$((checks + 1))
		ls "$T/at" | grep -q '\.trace$' &&
			fail "configure's test programs left traces: $(ls "$T/at")"
	else
		fail "the autotools project did not configure and build with CC=sibylcc"
		tail -20 "$T/at.log" | sed 's/^/  | /' >&2
	fi
else
	echo "emu_buildsys: no autoreconf/automake: the autotools project is skipped" >&2
fi

if command -v cmake >/dev/null 2>&1; then
	mkdir -p "$T/cm/src" "$T/cm/build"
	cp "$T/hello.c" "$T/cm/src/hello.c"
	cat >"$T/cm/src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.10)
project(hello C)
include(CheckCSourceRuns)
check_c_source_runs("#include <mpi.h>
int main(void) { int flag = 1; MPI_Initialized(&flag); return flag; }"
	MPI_RUNS_BEFORE_INIT)
if(NOT MPI_RUNS_BEFORE_INIT)
	message(FATAL_ERROR "an MPI program does not run before MPI_Init")
endif()
add_executable(hello hello.c)
EOF
	checks=$((checks + 1))
	if (cd "$T/cm/build" && CC="$wrap" cmake ../src &&
	    cmake --build .) >"$T/cm.log" 2>&1; then
		expect_grep 'Performing Test MPI_RUNS_BEFORE_INIT - Success' \
			"$T/cm.log"
		built cmake "$T/cm/build"
	else
		fail "the CMake project did not configure and build with CC=sibylcc"
		tail -20 "$T/cm.log" | sed 's/^/  | /' >&2
	fi
else
	echo "emu_buildsys: no cmake: the CMake project is skipped" >&2
fi
finish
