# emulib.sh -- helpers for the emulator's tests.  Source after lib.sh.
#   emu_build NAME SOURCE [CFLAGS...]   compile with sibylcc into $T/NAME
#   emu_run NP RANKS TRACE PROG ARGS... run PROG with `sibyl emulate';
#                                       output in $T/out and $T/err,
#                                       exit status in $emu_status
#   emu_pass NAME NP RANKS ARGS...      $T/NAME under `sibyl emulate'
#                                       (more options in $emu_opts)
#                                       prints PASS NAME; its trace,
#                                       $T/NAME.NP.RANKS.trace, passes
#                                       `sibyl trace check' and replays
#                                       in `sibyl sim' (returns 1 when
#                                       the run failed)
#   emu_native NAME NP ARGS...          tests/emu/NAME.c built by Open
#                                       MPI's mpicc prints PASS NAME
#                                       under mpirun (skipped, said
#                                       once, without mpicc and mpirun)
# Needs $SIBYLCC (the uninstalled wrapper) and the SIBYLCC_INCDIR and
# SIBYLCC_LIBDIR it reads, set by tests/Makefile.inc.
: "${SIBYLCC:?SIBYLCC must point at the sibylcc wrapper}"
. "$SIBYL_SRCDIR/tests/mpienv.sh"

emu_build() {
	name=$1 src=$2
	shift 2
	checks=$((checks + 1))
	if ! "$SIBYLCC" -O1 -g -I"$SIBYL_SRCDIR/tests/emu" "$@" "$src" \
		-o "$T/$name" >"$T/build.err" 2>&1; then
		fail "sibylcc could not build $src"
		sed 's/^/  | /' "$T/build.err" | head -20 >&2
		return 1
	fi
}

emu_run() {
	np=$1 ranks=$2 trace=$3
	shift 3
	"$SIBYL" emulate -q --ranks "$ranks" -np "$np" -o "$trace" --force \
		-- "$@" >"$T/out" 2>"$T/err"
	emu_status=$?
}

emu_pass() {
	name=$1 np=$2 ranks=$3
	shift 3
	tr="$T/$name.$np.$ranks.trace"
	checks=$((checks + 1))
	# shellcheck disable=SC2086
	"$SIBYL" emulate -q --ranks "$ranks" -np "$np" -o "$tr" --force \
		${emu_opts-} -- "$T/$name" "$@" >"$T/out" 2>"$T/err"
	emu_status=$?
	if [ "$emu_status" -ne 0 ] || ! grep -q "^PASS $name" "$T/out"; then
		fail "$name with $ranks ranks on $np process(es) exited" \
			"$emu_status"
		sed 's/^/  | /' "$T/out" "$T/err" | head -20 >&2
		return 1
	fi
	expect_ok "$SIBYL" trace check "$tr"
	expect_ok "$SIBYL" sim -q "$tr" -o "$tr.sim"
	expect_grep '"predicted_time_ps"' "$tr.sim/summary.json"
}

emu_native() {
	name=$1 np=$2
	shift 2
	if [ -z "${emu_mpicc-}" ]; then
		emu_mpicc=none
		command -v mpicc >/dev/null 2>&1 &&
			command -v mpirun >/dev/null 2>&1 && emu_mpicc=mpicc
		[ "$emu_mpicc" != none ] || echo "$test_name: no mpicc and" \
			"mpirun: the native runs are skipped" >&2
	fi
	[ "$emu_mpicc" != none ] || return 0
	checks=$((checks + 1))
	if ! mpicc -O1 -I"$SIBYL_SRCDIR/tests/emu" \
		"$SIBYL_SRCDIR/tests/emu/$name.c" -o "$T/$name.native" \
		>"$T/build.err" 2>&1; then
		fail "mpicc could not build $name.c"
		sed 's/^/  | /' "$T/build.err" | head -20 >&2
	elif ! mpirun --oversubscribe -np "$np" "$T/$name.native" "$@" \
		>"$T/native.out" 2>"$T/native.err" </dev/null ||
	     ! grep -q "^PASS $name" "$T/native.out"; then
		fail "$name natively on $np processes"
		sed 's/^/  | /' "$T/native.out" "$T/native.err" | head -20 >&2
	fi
}
