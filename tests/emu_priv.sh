#!/bin/sh
# Per-rank globals, libc state, exit() and memory folding under the
# emulator (tests/emu/priv_*.c and fold_*.c).
#
#   priv_globals  globals and statics of every kind are per rank with each
#                 method (copy, remap, auto) on 1 and 2 processes; with
#                 SIBYL_PRIVATIZE=none, or built with SIBYLCC_PRIVATIZE=no,
#                 it fails (the check can fail); built with -c then linked,
#                 with -fdata-sections, and with -fcommon (its tentative
#                 definitions are common symbols, placed by the linker
#                 script), it passes
#   priv_commbuf  globals as message buffers (p2p and collectives), when
#                 the runtime's p2p layer translates them (emu_priv_addr)
#   priv_getopt   getopt/getopt_long/getopt_long_only state per rank
#   priv_posix_getopt  the same for strict POSIX programs (__posix_getopt)
#   priv_rand     rand/random/initstate/drand48 sequences per rank, against
#                 the sequences libc gives a plain C program
#   priv_strtok   strtok positions per rank
#   priv_affinity a rank binding itself to a CPU leaves the process's
#                 binding as it was (bound to a core and not)
#   priv_none     a rank-safe program with SIBYL_PRIVATIZE=none
#   priv_exit     exit() after MPI_Finalize ends the rank with its status;
#                 before, it stops the emulation with a report
#   priv_bench    the switch benchmark runs right with copy and remap
#   fold_shared   1000 ranks x 64 MiB of sibyl_shared_malloc in far less
#                 memory
#   fold_errors   size mismatch, foreign and double frees are reported
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

E="$SIBYL_SRCDIR/tests/emu"
GETOPT_ARGS="-v -n 5 file1 --size=10 -ab file2 --name x --flag -- -z tail"

# priv_run NAME NP RANKS METHOD ARGS...: emulate $T/NAME with
# --privatize METHOD; output in $T/out and $T/err, status in $emu_status.
priv_run() {
	name=$1 np=$2 ranks=$3 method=$4
	shift 4
	"$SIBYL" emulate -q --ranks "$ranks" -np "$np" --privatize "$method" \
		-o "$T/$name.trace" --force -- "$T/$name" "$@" \
		>"$T/out" 2>"$T/err"
	emu_status=$?
}

show_output() {
	sed 's/^/  | /' "$T/out" "$T/err" | head -20 >&2
}

# expect_pass NAME NP RANKS METHOD ARGS...: exit 0 and "PASS NAME".
expect_pass() {
	checks=$((checks + 1))
	priv_run "$@"
	if [ "$emu_status" -ne 0 ] || ! grep -q "^PASS $1\$" "$T/out"; then
		fail "$1 on $2 process(es), --privatize $4: exited $emu_status"
		show_output
	fi
}

# expect_manifest NAME REGEX: the last trace of NAME records the method.
expect_manifest() {
	expect_grep "^emu_privatize = $2" "$T/$1.trace/MANIFEST"
}

for src in "$E"/priv_*.c "$E"/fold_*.c; do
	name=$(basename "$src" .c)
	[ "$name" = priv_bench ] && continue
	emu_build "$name" "$src" -Wall -Wextra || exit 1
done

# ---------------------------------------------------------------- globals
for np in 1 2; do
	expect_pass priv_globals $np 10 copy
	expect_manifest priv_globals 'copy 3[0-9]{3} KiB/rank$'
	expect_pass priv_globals $np 10 remap
	expect_manifest priv_globals 'remap 3[0-9]{3} KiB/rank'
	# 3.3 MiB of globals: auto remaps.
	expect_pass priv_globals $np 10 auto
	expect_manifest priv_globals 'remap '
done
# Shared globals break it: the test can fail.
checks=$((checks + 1))
priv_run priv_globals 1 10 none
if [ "$emu_status" -eq 0 ] || ! grep -q '^FAIL priv_globals' "$T/out"; then
	fail "priv_globals passed with --privatize none"
	show_output
fi
# An object compiled without privatization keeps its globals shared.
SIBYLCC_PRIVATIZE=no
export SIBYLCC_PRIVATIZE
emu_build priv_globals_shared "$E/priv_globals.c"
unset SIBYLCC_PRIVATIZE
checks=$((checks + 1))
priv_run priv_globals_shared 1 10 auto
if [ "$emu_status" -eq 0 ] || ! grep -q '^FAIL priv_globals' "$T/out"; then
	fail "priv_globals built with SIBYLCC_PRIVATIZE=no passed"
	show_output
fi
expect_grep '^emu_privatize = none \(no globals compiled by sibylcc\)' \
	"$T/priv_globals_shared.trace.partial/MANIFEST"
# Compiled with -c, then linked; and with -fdata-sections.
expect_ok "$SIBYLCC" -O2 -I"$E" -c "$E/priv_globals.c" -o "$T/pg.o"
expect_ok "$SIBYLCC" "$T/pg.o" -o "$T/priv_globals_2step"
cp "$T/priv_globals_2step" "$T/priv_globals"
expect_pass priv_globals 2 10 auto
expect_ok "$SIBYLCC" -O2 -fdata-sections -ffunction-sections \
	-Wl,--gc-sections -I"$E" "$E/priv_globals.c" -o "$T/priv_globals"
expect_pass priv_globals 2 10 copy
expect_ok "$SIBYLCC" -O2 -fcommon -I"$E" "$E/priv_globals.c" \
	-o "$T/priv_globals"
# (only as good as there being commons to place)
checks=$((checks + 1))
"${CC:-cc}" -fcommon -c -I"$SIBYLCC_INCDIR" -I"$E" "$E/priv_globals.c" \
	-o "$T/pg_common.o" 2>/dev/null &&
	nm "$T/pg_common.o" | grep -q ' C ' ||
	fail "priv_globals.c has no tentative definition for -fcommon to test"
expect_pass priv_globals 2 10 copy
expect_pass priv_globals 1 10 remap
# A wrong method is refused by the runtime itself too.
checks=$((checks + 1))
if SIBYL_PRIVATIZE=bogus SIBYL_RANKS=2 SIBYL_TRACE="$T/bogus.trace" \
	SIBYL_QUIET=1 "$T/priv_none" >"$T/out" 2>"$T/err" ||
   ! grep -q 'SIBYL_PRIVATIZE=bogus: .*auto, copy, remap or none' "$T/err"
then
	fail "SIBYL_PRIVATIZE=bogus was not refused"
	show_output
fi

# Globals as message buffers: the runtime must reach the copy of the
# rank that owns them while another one runs.  That is p2p.c's part.
for m in copy remap; do
	for np in 1 3; do
		expect_pass priv_commbuf $np 9 $m
	done
done

# ------------------------------------------------------------------- libc
# (Its arguments are split into words on purpose.)
# shellcheck disable=SC2086
for np in 1 2; do
	expect_pass priv_getopt $np 12 auto $GETOPT_ARGS
	expect_pass priv_strtok $np 12 auto 1:4096
	expect_pass priv_affinity $np 6 auto
	export SIBYL_BIND=none
	expect_pass priv_affinity $np 6 auto
	unset SIBYL_BIND
done
checks=$((checks + 1))
grep -q '^sibyl: note: rank [0-9]* called sched_setaffinity: a virtual rank is not bound' "$T/err" ||
	fail "priv_affinity: no note that the binding was not done"

# shellcheck disable=SC2086
expect_pass priv_getopt 2 12 remap $GETOPT_ARGS
for np in 1 2; do
	expect_pass priv_posix_getopt $np 6 auto -a file -b x
done

# The reference sequences: libc's own generators in a plain process.
cat >"$T/randref.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	static char state[64];
	for (long s = 1; s <= 5; s++) {
		srand((unsigned)s);
		printf("rand %ld", s);
		for (int i = 0; i < 16; i++) printf(" %d", rand());
		srandom((unsigned)(s + 100));
		printf("\nrandom %ld", s + 100);
		for (int i = 0; i < 16; i++) printf(" %ld", random());
		char *old = initstate((unsigned)s, state, sizeof state);
		printf("\ninitstate %ld", s);
		for (int i = 0; i < 16; i++) printf(" %ld", random());
		setstate(old);
		srand48(s);
		printf("\ndrand48 %ld", s);
		for (int i = 0; i < 16; i++) printf(" %a", drand48());
		srand48(s);
		printf("\nlrand48 %ld", s);
		for (int i = 0; i < 16; i++) printf(" %ld", lrand48());
		unsigned short s16[3] = { (unsigned short)s, 0x1234, 0x5678 };
		seed48(s16);
		printf("\nmrand48 %ld", s);
		for (int i = 0; i < 16; i++) printf(" %ld", mrand48());
		printf("\n");
	}
	return 0;
}
EOF
checks=$((checks + 1))
if ${CC:-cc} -O1 "$T/randref.c" -o "$T/randref" && \
   "$T/randref" >"$T/rand.ref"; then
	for np in 1 2; do
		expect_pass priv_rand $np 12 auto "$T/rand.ref"
	done
else
	fail "cannot build or run the libc reference for priv_rand"
fi

for np in 1 2; do
	expect_pass priv_none $np 12 none
	expect_manifest priv_none 'none$'
done

# ------------------------------------------------------------------- exit
# Run directly: the process's status is that of its lowest rank with a
# non-zero one (rank 3: exit(13)); the trace is complete.
checks=$((checks + 1))
SIBYL_RANKS=8 SIBYL_TRACE="$T/exit.trace" SIBYL_QUIET=1 \
	"$T/priv_exit" after >"$T/out" 2>"$T/err"
st=$?
if [ $st -ne 13 ] || ! grep -q '^PASS priv_exit$' "$T/out" ||
   grep -q 'went on' "$T/out"; then
	fail "priv_exit after: exited $st, want 13"
	show_output
fi
expect_ok "$SIBYL" trace check "$T/exit.trace"
# Under the launcher a non-zero status fails the run, on 2 processes too;
# the trace stays in .partial, and is called complete, as it is.  The
# status is that of the first process to exit (rank 3: 13, rank 7: 17).
priv_run priv_exit 2 8 auto after
checks=$((checks + 1))
if [ "$emu_status" -ne 1 ] || ! grep -q '^PASS priv_exit$' "$T/out" ||
   grep -q 'went on' "$T/out"; then
	fail "priv_exit after on 2 processes: exited $emu_status, want 1"
	show_output
fi
expect_grep "priv_exit exited with status 1[37] after every rank finished; the trace is complete and stays in .*priv_exit.trace.partial" "$T/err"
expect_grep "sibyl: rank 3 ended with status 13 after MPI_Finalize" "$T/err"
checks=$((checks + 1))
! grep -q "incomplete" "$T/err" || fail "priv_exit after: called incomplete"
expect_ok "$SIBYL" trace check "$T/priv_exit.trace.partial"
expect_pass priv_exit 2 8 auto zero
expect_ok "$SIBYL" trace check "$T/priv_exit.trace"
for np in 1 2; do
	priv_run priv_exit $np 6 auto before
	checks=$((checks + 1))
	if [ "$emu_status" -eq 0 ] || grep -q '^FAIL' "$T/out" || ! grep -q \
	   'sibyl: rank 2 called exit(5) without MPI_Finalize .*'\
'use MPI_Abort to stop all ranks' "$T/err"; then
		fail "priv_exit before on $np process(es): exited" \
		     "$emu_status without the report"
		show_output
	fi
done

# -------------------------------------------------------------- benchmark
for bytes in 4096 1048576; do
	emu_build "priv_bench" "$E/priv_bench.c" -DPRIV_BYTES=$bytes ||
		continue
	for m in copy remap; do
		checks=$((checks + 1))
		priv_run priv_bench 1 4 $m 200 1024
		if [ "$emu_status" -ne 0 ] || grep -q FAIL "$T/out"; then
			fail "priv_bench ($bytes bytes, $m): exited $emu_status"
			show_output
		fi
	done
done

# ------------------------------------------------------------------- fold
for np in 1 2; do
	expect_pass fold_shared $np 1000 auto
done
# expect_fold_error MODE REGEX: the emulation fails with that report.
expect_fold_error() {
	priv_run fold_errors 1 3 auto "$1"
	checks=$((checks + 1))
	if [ "$emu_status" -eq 0 ] || grep -q 'no error .* rank 1' "$T/out"
	then
		fail "fold_errors $1: exited $emu_status"
		show_output
	fi
	expect_grep "$2" "$T/err"
}
expect_fold_error size 'sibyl: rank 1: sibyl_shared_malloc call #1 asks '\
'for 2000 bytes, but call #1 of rank 0 asked for 1000'
expect_fold_error free 'sibyl: rank 1: sibyl_shared_free\(0x[0-9a-f]+\): '\
'not a block from sibyl_shared_malloc'
expect_fold_error twice 'sibyl: rank 1: sibyl_shared_free\(0x[0-9a-f]+\): '\
'this rank already freed block #1 \(64 bytes\)'
expect_fold_error stale 'sibyl: rank 1: sibyl_shared_free\(0x[0-9a-f]+\): '\
'not a block from sibyl_shared_malloc'

finish
