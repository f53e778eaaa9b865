# cli_sibylcc.sh -- the compiler wrapper: which flags it adds when, that
# arguments reach the compiler intact (a fake compiler records them), -show
# quoting, errors; then a real compilation against the uninstalled headers
# and, when the library is built, a link.
. "$SIBYL_SRCDIR/tests/lib.sh"

SIBYLCC=${SIBYLCC:-$(dirname "$SIBYL")/emulator/sibylcc}
if [ ! -x "$SIBYLCC" ]; then
	echo "cli_sibylcc: no $SIBYLCC; skipped" >&2
	exit 77
fi
unset SIBYLCC_CC SIBYLCC_INCDIR SIBYLCC_LIBDIR

# A compiler that writes its arguments one per line (NUL-free) to $T/args.
cat >"$T/fakecc" <<'EOF'
#!/bin/sh
: >"$ARGS"
for a do printf '%s\n' "$a" >>"$ARGS"; done
EOF
chmod +x "$T/fakecc"
ARGS="$T/args"
export ARGS
INC="$T/inc dir"
LIB="$T/lib dir"
fake() { SIBYLCC_CC="$T/fakecc" SIBYLCC_INCDIR="$INC" SIBYLCC_LIBDIR="$LIB" \
	"$SIBYLCC" "$@"; }

# The sanitizer flags of a sanitized build follow the compile flags.
SAN=$("$SIBYLCC" -showme:compile | sed 's/^.* -Dmain=sibyl_user_main//')
CF="-Dmain=sibyl_user_main$SAN"   # for the -show lines

# expect_args WORD...: the fake compiler got exactly these words.
expect_args() {
	checks=$((checks + 1))
	if [ $# -eq 0 ]; then : >"$T/want"; else printf '%s\n' "$@" >"$T/want"; fi
	cmp -s "$T/want" "$ARGS" || { fail "compiler arguments differ";
		diff "$T/want" "$ARGS" | sed 's/^/  /' >&2; }
}

# ------------------------------------------------------------------ help
expect_ok "$SIBYLCC" --help
expect_grep '^Usage: sibylcc ' "$T/out"
for word in -showme:compile -showme:link SIBYLCC_CC SIBYLCC_INCDIR \
	    SIBYLCC_LIBDIR -Dmain=sibyl_user_main 'sibyl emulate'; do
	expect_grep "$word" "$T/out"
done
expect_ok "$SIBYLCC" --version
expect_grep '^sibylcc \(Sibyl\) [0-9]' "$T/out"
checks=$((checks + 1))
[ "$(wc -l <"$T/out")" -eq 2 ] || fail "--version: not two lines"

# expect_args_start WORD...: the compiler's arguments begin with these.
expect_args_start() {
	checks=$((checks + 1))
	printf '%s\n' "$@" >"$T/want"
	head -n "$(wc -l <"$T/want")" "$ARGS" >"$T/got"
	cmp -s "$T/want" "$T/got" || { fail "compiler arguments differ";
		diff "$T/want" "$T/got" | sed 's/^/  /' >&2; }
}

# ---------------------------------------------------- flags added when
expect_ok fake -O2 "a b.c" -o "it's me" '-DMSG="x y"' 'new
line' -lfoo
# shellcheck disable=SC2086
set -- -I"$INC" -Dmain=sibyl_user_main $SAN -O2 "a b.c" -o "it's me" \
	'-DMSG="x y"' 'new
line' -lfoo -L"$LIB" -lsibyl-emu
expect_args_start "$@"
# The libraries libsibyl-emu needs follow; -lm comes last.
expect_ok fake x.c
checks=$((checks + 1))
[ "$(tail -n 1 "$ARGS")" = -lm ] || fail "-lm is not last: $(tail -n 1 "$ARGS")"
for opt in -c -S -E -M -MM; do
	expect_ok fake "$opt" x.c
	# shellcheck disable=SC2086
	expect_args -I"$INC" -Dmain=sibyl_user_main $SAN "$opt" x.c
done
# The argument of -o, -MF, ... is not an input file.
expect_ok fake -o out -MF deps -v
expect_args -o out -MF deps -v
expect_ok fake
expect_args
expect_ok fake -dumpversion
expect_args -dumpversion
# Standard input is an input.
expect_ok fake -x c -c -
# shellcheck disable=SC2086
expect_args -I"$INC" -Dmain=sibyl_user_main $SAN -x c -c -

# ----------------------------------------------------------------- -show
rm -f "$ARGS"
expect_ok fake -show -c "a b.c" "it's"
expect_line_out() {
	checks=$((checks + 1))
	[ "$(cat "$T/out")" = "$1" ] || fail "got: $(cat "$T/out"); want: $1"
}
expect_line_out "$T/fakecc '-I$INC' $CF -c 'a b.c' 'it'\\''s'"
checks=$((checks + 1))
[ ! -e "$ARGS" ] || fail "-show ran the compiler"
# What -show prints runs the same command.
cmd=$(cat "$T/out")
eval "$cmd"
# shellcheck disable=SC2086
expect_args -I"$INC" -Dmain=sibyl_user_main $SAN -c "a b.c" "it's"
expect_ok fake -showme:compile
expect_line_out "'-I$INC' $CF"
expect_ok fake -showme:link
expect_grep "^'-L$LIB' -lsibyl-emu .*-lm$SAN\$" "$T/out"
expect_ok fake -showme:incdirs
expect_line_out "'$INC'"
expect_ok fake -showme:libdirs
expect_line_out "'$LIB'"
expect_exit 1 fake -showme:nonsense

# ---------------------------------------------------------------- errors
expect_exit 1 env SIBYLCC_CC="$T/no-such-cc" "$SIBYLCC" x.c
expect_grep "^sibylcc: C compiler '.*no-such-cc' not found; set SIBYLCC_CC" \
	"$T/err"
expect_exit 1 env SIBYLCC_CC="$T/no-such-cc" "$SIBYLCC" --version
# The compiler's own status passes through.
expect_exit 1 env SIBYLCC_CC=false "$SIBYLCC" x.c

# ------------------------------------------------ a real compilation
cat >"$T/ring.c" <<'EOF'
#include <mpi.h>
#include <sibyl.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	sibyl_compute(1e-6);
	printf("%d of %d\n", rank, size);
	MPI_Finalize();
	return 0;
}
EOF
SIBYLCC_INCDIR="$SIBYL_SRCDIR/emulator/include"
SIBYLCC_LIBDIR=$(dirname "$SIBYL")
export SIBYLCC_INCDIR SIBYLCC_LIBDIR
expect_ok "$SIBYLCC" -Wall -Wextra -Werror -c "$T/ring.c" -o "$T/ring.o"
checks=$((checks + 1))
if command -v nm >/dev/null 2>&1; then
	nm "$T/ring.o" | grep -q ' T sibyl_user_main$' ||
		fail "main() was not renamed to sibyl_user_main"
fi
if [ -f "$SIBYLCC_LIBDIR/libsibyl-emu.a" ]; then
	expect_ok "$SIBYLCC" "$T/ring.o" -o "$T/ring"
	checks=$((checks + 1))
	[ -x "$T/ring" ] || fail "no executable"
fi

finish
