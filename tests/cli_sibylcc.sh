# cli_sibylcc.sh -- the compiler wrapper: which flags it adds when, that
# arguments reach the compiler intact (a fake compiler records them), -show
# quoting, errors; the privatization steps (objcopy after -c, a temporary
# object per source when compiling and linking at once, refused flags);
# then a real compilation against the uninstalled headers and, when the
# library is built, a link.
. "$SIBYL_SRCDIR/tests/lib.sh"

SIBYLCC=${SIBYLCC:-$(dirname "$SIBYL")/emulator/sibylcc}
if [ ! -x "$SIBYLCC" ]; then
	echo "cli_sibylcc: no $SIBYLCC; skipped" >&2
	exit 77
fi
unset SIBYLCC_CC SIBYLCC_INCDIR SIBYLCC_LIBDIR SIBYLCC_OBJCOPY SIBYLCC_READELF \
	SIBYLCC_PRIVATIZE

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
# Without privatization first (SIBYLCC_PRIVATIZE=no): one compiler
# command each time.  Privatization has a part of its own below.
fake() { SIBYLCC_CC="$T/fakecc" SIBYLCC_INCDIR="$INC" SIBYLCC_LIBDIR="$LIB" \
	SIBYLCC_PRIVATIZE=no "$SIBYLCC" "$@"; }

# The sanitizer flags of a sanitized build follow the compile flags, and
# -g1 (line tables for the trace's code regions) precedes them unless the
# command has a -g option.
SAN=$(SIBYLCC_PRIVATIZE=no "$SIBYLCC" -showme:compile |
	sed 's/^.* -Dmain=sibyl_user_main -g1//')
CF="-Dmain=sibyl_user_main -g1$SAN"   # for the -show lines

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
set -- -I"$INC" -Dmain=sibyl_user_main -g1 $SAN -O2 "a b.c" -o "it's me" \
	'-DMSG="x y"' 'new
line' -lfoo -L"$LIB" -lsibyl-emu
expect_args_start "$@"
# The libraries libsibyl-emu needs follow, -lm last, then the request to
# bind every symbol at load time (a first call must not cost the SEB of
# the first rank that makes it).
expect_ok fake x.c
checks=$((checks + 1))
[ "$(tail -n 2 "$ARGS" | tr '\n' ' ')" = "-lm -Wl,-z,now " ] ||
	fail "the link does not end in -lm -Wl,-z,now: $(tail -n 2 "$ARGS")"
for opt in -c -S -E -M -MM; do
	expect_ok fake "$opt" x.c
	# shellcheck disable=SC2086
	expect_args -I"$INC" -Dmain=sibyl_user_main -g1 $SAN "$opt" x.c
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
expect_args -I"$INC" -Dmain=sibyl_user_main -g1 $SAN -x c -c -

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
expect_args -I"$INC" -Dmain=sibyl_user_main -g1 $SAN -c "a b.c" "it's"
# A -g option of the command replaces the -g1.
for g in -g -g3 -g0; do
	expect_ok fake "$g" -c x.c
	# shellcheck disable=SC2086
	expect_args -I"$INC" -Dmain=sibyl_user_main $SAN "$g" -c x.c
done
expect_ok fake -showme:compile
expect_line_out "'-I$INC' $CF"
# The run path holds the transport module (a build tree keeps it in .libs).
RP=$LIB
[ -f "$LIB/.libs/sibyl-transport.so" ] && RP=$LIB/.libs
expect_ok fake -showme:link
expect_grep "^'-L$LIB' -lsibyl-emu '?-Wl,-rpath,$RP'? .*-lm -Wl,-z,now$SAN\$" \
	"$T/out"
expect_ok fake -showme:incdirs
expect_line_out "'$INC'"
expect_ok fake -showme:libdirs
expect_line_out "'$LIB'"
expect_exit 1 fake -showme:nonsense

# --------------------------------------------------------- privatization
# pfake: privatizing, with a fake compiler that logs each command on a
# line of its own (every word preceded by '|') and, given -c and -o,
# writes a real object there (an empty one compiled by the real compiler:
# it has a .data and a .bss for objcopy to rename).
PCF="-Dmain=sibyl_user_main -fno-common -g1$SAN"
# (The pattern matches sibylcc's text, not a variable of ours.)
# shellcheck disable=SC2016
# The privatization step -show prints: sibylcc itself.
PRIV="$SIBYLCC -privatize"
: >"$T/empty.c"
checks=$((checks + 1))
cc -c "$T/empty.c" -o "$T/empty.o" || fail "cannot compile an empty object"
cat >"$T/logcc" <<'EOF'
#!/bin/sh
line= out= c=0 prev=
for a do
	line="$line|$a"
	[ "$prev" = -o ] && out=$a
	[ "$a" = -c ] && c=1
	prev=$a
done
printf '%s\n' "$line" >>"$LOG"
if [ $c -eq 1 ] && [ -n "$out" ]; then cp "$EMPTY_O" "$out"; fi
exit 0
EOF
chmod +x "$T/logcc"
LOG="$T/log"
EMPTY_O="$T/empty.o"
export LOG EMPTY_O
pfake() { SIBYLCC_CC="$T/logcc" SIBYLCC_INCDIR="$INC" SIBYLCC_LIBDIR="$LIB" \
	"$SIBYLCC" "$@"; }
S=$(for w in $SAN; do printf '|%s' "$w"; done)
CW="|-I$INC|-Dmain=sibyl_user_main|-fno-common|-g1$S"  # logged compile flags

# expect_log LINE...: the fake compiler ran exactly these commands, with
# the temporary directory written TMP.
expect_log() {
	checks=$((checks + 1))
	printf '%s\n' "$@" >"$T/want.log"
	sed 's#|[^|]*/sibylcc\.[^/|]*/#|TMP/#g' "$LOG" >"$T/got.log"
	cmp -s "$T/want.log" "$T/got.log" || { fail "compiler commands differ";
		diff "$T/want.log" "$T/got.log" | sed 's/^/  /' >&2; }
}

expect_ok pfake -showme:compile
expect_line_out "'-I$INC' $PCF"
# -c: the compiler, then objcopy on each object it wrote.
expect_ok pfake -show -c "a b.c" sub/c.c
expect_line_out "$T/logcc '-I$INC' $PCF -c 'a b.c' sub/c.c && $PRIV\
 'a b.o' && $PRIV c.o"
expect_ok pfake -show -c x.c -o "o dir/y.o"
expect_line_out "$T/logcc '-I$INC' $PCF -c x.c -o 'o dir/y.o' && $PRIV\
 'o dir/y.o'"
rm -f "$LOG"
expect_ok pfake -c x.c -o "$T/x.o"
expect_log "$CW|-c|x.c|-o|$T/x.o"
if command -v readelf >/dev/null 2>&1; then
	checks=$((checks + 1))
	readelf -SW "$T/x.o" >"$T/sections"
	if ! grep -q ' sibylpriv_bss ' "$T/sections" ||
	   ! grep -q ' sibylpriv_data ' "$T/sections" ||
	   grep -Eq ' \.(data|bss) ' "$T/sections"; then
		fail "-c: the object's .data and .bss were not renamed"
	fi
fi
# An output that is not a regular file is left alone.
expect_ok pfake -c x.c -o /dev/null

# Compile and link at once: each source to a temporary object, objcopy,
# then the link with the objects in the sources' places (without -x).
rm -f "$LOG"
mkdir "$T/tmp"
TMPDIR="$T/tmp"
export TMPDIR
expect_ok pfake -O2 "a b.c" x.o -o prog -x c y.txt -lm
unset TMPDIR
expect_grep "\\|$T/tmp/sibylcc\\.[^/|]+/1-a b\\.o" "$LOG"
expect_log "$CW|-O2|-c|a b.c|-o|TMP/1-a b.o" \
	"$CW|-O2|-c|-x|c|y.txt|-o|TMP/2-y.o" \
	"$CW|-O2|TMP/1-a b.o|x.o|-o|prog|TMP/2-y.o|-lm|-L$LIB|-lsibyl-emu\
|-Wl,-rpath,$RP$(sed -n 's/^sibyl_libs="\(.*\)"$/\1/p' "$SIBYLCC" |
	tr -s ' ' | sed 's/^ //; s/ $//; s/ /|/g; s/^/|/')|-Wl,-z,now\
|-Wl,-T,$INC/sibyl-common.ld"
checks=$((checks + 1))
[ -z "$(ls "$T/tmp")" ] || fail "temporary objects were left: $(ls "$T/tmp")"
# What -show prints runs the same commands.
rm -f "$LOG"
expect_ok pfake -show -O2 "a b.c" -o prog
expect_grep '^\(priv_tmp=\$\(mktemp -d\) && ' "$T/out"
cmd=$(cat "$T/out")
rm -f "$LOG"
expect_ok sh -c "$cmd"
checks=$((checks + 1))
[ "$(wc -l <"$LOG")" -eq 2 ] ||
	fail "-show's command ran $(wc -l <"$LOG") commands, want 2"
# Linking objects only: one command.
rm -f "$LOG"
expect_ok pfake x.o y.o -o prog
checks=$((checks + 1))
[ "$(wc -l <"$LOG")" -eq 1 ] || fail "link only: $(wc -l <"$LOG") commands"
# -fdata-sections is undone after the program's flags.
rm -f "$LOG"
expect_ok pfake -fdata-sections -c x.c -o "$T/x.o"
expect_log "$CW|-fdata-sections|-c|x.c|-o|$T/x.o|-fno-data-sections"
# Flags that defeat privatization are refused, saying what to do.
expect_exit 1 pfake -flto -c x.c
expect_grep '^sibylcc: -flto: .*build without -flto; or set '\
'SIBYLCC_PRIVATIZE=no' "$T/err"
# -fcommon is the program's: its common symbols are placed by the linker
# script (tests/emu_priv.sh runs such a program).
expect_ok pfake -fcommon -c x.c -o "$T/x.o"
expect_ok pfake -flto -fno-lto -c x.c -o "$T/x.o"
expect_ok env SIBYLCC_PRIVATIZE=no SIBYLCC_CC="$T/logcc" "$SIBYLCC" -flto \
	-c x.c -o "$T/x.o"
expect_exit 1 pfake -c @args
expect_grep '^sibylcc: @args: cannot tell which objects' "$T/err"
expect_ok pfake -c @args -o "$T/x.o"
expect_exit 1 env SIBYLCC_PRIVATIZE=maybe "$SIBYLCC" -c x.c
expect_grep '^sibylcc: SIBYLCC_PRIVATIZE=maybe: yes or no' "$T/err"
expect_exit 1 env SIBYLCC_OBJCOPY="$T/no-such-objcopy" \
	SIBYLCC_CC="$T/logcc" "$SIBYLCC" -c x.c -o "$T/x.o"
expect_grep "^sibylcc: objcopy '.*no-such-objcopy' not found" "$T/err"
# The compiler's failure stops it before objcopy, with its status.
expect_exit 1 env SIBYLCC_CC=false "$SIBYLCC" -c x.c
expect_exit 1 env SIBYLCC_CC=false "$SIBYLCC" x.c -o prog

# ---------------------------------------------------------------- errors
expect_exit 1 env SIBYLCC_CC="$T/no-such-cc" "$SIBYLCC" x.c
expect_grep "^sibylcc: C compiler '.*no-such-cc' not found; set SIBYLCC_CC" \
	"$T/err"
expect_exit 1 env SIBYLCC_CC="$T/no-such-cc" "$SIBYLCC" --version
# The compiler's own status passes through.
expect_exit 1 env SIBYLCC_CC=false SIBYLCC_PRIVATIZE=no "$SIBYLCC" x.c

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
