# emulib.sh -- helpers for the emulator's tests.  Source after lib.sh.
#   emu_build NAME SOURCE [CFLAGS...]   compile with sibylcc into $T/NAME
#   emu_run NP RANKS TRACE PROG ARGS... run PROG with `sibyl emulate';
#                                       output in $T/out and $T/err,
#                                       exit status in $emu_status
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
