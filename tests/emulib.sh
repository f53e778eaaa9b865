# emulib.sh -- helpers for the emulator's tests.  Source after lib.sh.
#   emu_build NAME SOURCE [CFLAGS...]   compile with sibylcc into $T/NAME
#   emu_run NP RANKS TRACE PROG ARGS... run PROG with `sibyl emulate';
#                                       output in $T/out and $T/err,
#                                       exit status in $emu_status
# Needs $SIBYLCC (the uninstalled wrapper) and the SIBYLCC_INCDIR and
# SIBYLCC_LIBDIR it reads, set by tests/Makefile.inc.
: "${SIBYLCC:?SIBYLCC must point at the sibylcc wrapper}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Keep Open MPI quiet and local in test runs.
export OMPI_MCA_btl_base_warn_component_unused=0
export OMPI_MCA_rmaps_base_oversubscribe=1
# Sanitizer builds: keep Open MPI's components loaded at exit so their
# allocations can be attributed, and suppress those of Open MPI itself.
# The runtime leaves MPI_Init's and MPI_Finalize's allocations out of the
# leak check and keeps every library mapped (emulator/transport.c), so
# the first frame of what Open MPI's threads allocate names its module:
# the default, fast unwinding is enough (a full unwind at every
# allocation through Open MPI, which has no frame pointers, doubled the
# time of a sanitizer build's emulation).
export OMPI_MCA_mca_base_component_disable_dlclose=1
export LSAN_OPTIONS="suppressions=$SIBYL_SRCDIR/tests/data/lsan-openmpi.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

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
