#!/bin/sh
# emu_isolated.sh -- a program built with sibylcc never binds to Open
# MPI (emulator/trload.c): Open MPI is linked with the transport module
# only, which the runtime loads with RTLD_LOCAL.
#   - the program's dynamic section needs no Open MPI library, and it
#     imports no MPI, PMPI, ompi_ or opal_ symbol;
#   - when the program is loaded (its calls are bound then: sibylcc links
#     with -z now), neither PMPI_Send nor Open MPI's MPI_COMM_WORLD object
#     is visible to dlsym(RTLD_DEFAULT) from a constructor of the program
#     that runs at load time (one with a priority: the others run per
#     rank, once the runtime has started);
#     messages travel between 2 processes;
#   - a call to an MPI routine that Sibyl's <mpi.h> does not rename (here
#     MPI_Send, declared by the program itself) fails to link, naming it,
#     where it used to bind to Open MPI's;
#   - a missing module is reported by its path, with what to do.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

cat >"$T/isolated.c" <<'PROG'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
static void *send, *world;
/* What the program's calls could bind to when it is loaded (a priority
 * makes it run then, not at each rank's start). */
__attribute__((constructor(101))) static void look(void)
{
	send = dlsym(RTLD_DEFAULT, "PMPI_Send");
	world = dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world");
}
int main(int argc, char **argv)
{
	int rank, size, x = -1;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == size - 1)
		x = 41;
	MPI_Bcast(&x, 1, MPI_INT, size - 1, MPI_COMM_WORLD);
	if (rank == 0)
		printf("%s %s x=%d\n", send ? "PMPI_Send" : "-",
		       world ? "ompi_mpi_comm_world" : "-", x);
	MPI_Finalize();
	return 0;
}
PROG
emu_build isolated "$T/isolated.c" || finish
emu_run 2 8 "$T/isolated.trace" "$T/isolated"
checks=$((checks + 1))
[ "$emu_status" -eq 0 ] || fail "isolated.c exited $emu_status"
expect_grep '^- - x=41$' "$T/out"

if command -v readelf >/dev/null 2>&1 && command -v nm >/dev/null 2>&1; then
	expect_ok readelf -d "$T/isolated"
	checks=$((checks + 1))
	if grep -E 'NEEDED.*(libmpi|libopen-|libompi)' "$T/out" >"$T/bad"; then
		fail "the program needs Open MPI: $(cat "$T/bad")"
	fi
	expect_grep 'RUNPATH|RPATH' "$T/out"
	checks=$((checks + 1))
	nm -u "$T/isolated" | awk '{ print $NF }' |
		grep -E '^(P?MPI_|ompi_|opal_|orte_)' >"$T/bad"
	[ -s "$T/bad" ] && fail "the program imports Open MPI's symbols:" \
		"$(head -5 "$T/bad" | tr '\n' ' ')"
else
	echo "emu_isolated: no readelf or nm; the symbol checks are skipped" >&2
fi

# A routine the header does not rename reaches no library.
cat >"$T/direct.c" <<'PROG'
int MPI_Send(const void *buf, int count, int type, int dest, int tag,
	     int comm);
int main(void)
{
	return MPI_Send(0, 0, 0, 0, 0, 0);
}
PROG
checks=$((checks + 1))
if "$SIBYLCC" -o "$T/direct" "$T/direct.c" >"$T/out" 2>"$T/err"; then
	fail "a direct call to MPI_Send linked"
fi
expect_grep "undefined reference to .MPI_Send'" "$T/err"

# A module that is not there is named, with what to do.
checks=$((checks + 1))
SIBYL_TRANSPORT=$T/nowhere/sibyl-transport.so \
	emu_run 1 2 "$T/gone.trace" "$T/isolated"
[ "$emu_status" -ne 0 ] || fail "a missing transport module went unnoticed"
expect_grep "cannot load the transport module $T/nowhere/sibyl-transport.so" \
	"$T/err"
expect_grep "set SIBYL_TRANSPORT to its path" "$T/err"
finish
