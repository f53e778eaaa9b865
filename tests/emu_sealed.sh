#!/bin/sh
# emu_sealed.sh -- libsibyl-emu is sealed (emulator/Makefile.inc): a
# program may define names of Sibyl's internals, and nothing of them is
# global in what sibylcc builds.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

# Names of the emulator's internals (its state, scheduler, transport,
# collectives, threads, privatization) and of the trace library.
internal='^(emu|emu_.*|ult_.*|coll_.*|tf_.*|sibt_.*)$'

# tests/emu/sealed.c defines emu, coll_reduce, ult_switch, tf_crc32 and
# others with other types; its functions abort if the runtime calls them.
emu_build sealed "$SIBYL_SRCDIR/tests/emu/sealed.c" -Wall || finish
for np in 1 2; do
	checks=$((checks + 1))
	emu_run $np 8 "$T/sealed.trace" "$T/sealed"
	if [ "$emu_status" -ne 0 ] || ! grep -q '^PASS sealed$' "$T/out"; then
		fail "sealed.c on $np process(es) exited $emu_status"
		sed 's/^/  | /' "$T/out" "$T/err" | head -20 >&2
	fi
done

if ! command -v nm >/dev/null 2>&1; then
	echo "emu_sealed: no nm; the symbol checks are skipped" >&2
	finish
fi

# A plain program: none of its global symbols is one of Sibyl's
# internals.
emu_build ring "$SIBYL_SRCDIR/examples/ring.c" || finish
checks=$((checks + 1))
nm -g --defined-only "$T/ring" | awk 'NF == 3 { print $3 }' >"$T/ring.syms"
if grep -E "$internal" "$T/ring.syms" >"$T/leaked"; then
	fail "global in a program built with sibylcc: $(head -5 "$T/leaked" |
		tr '\n' ' ')"
fi

# Every global the library defines is one emulator/public.syms allows.
checks=$((checks + 1))
lib="$SIBYLCC_LIBDIR/libsibyl-emu.a"
nm -g --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u \
	>"$T/lib.syms"
[ -s "$T/lib.syms" ] || fail "nm found no global symbol in $lib"
python3 - "$SIBYL_SRCDIR/emulator/public.syms" "$T/lib.syms" \
	>"$T/unlisted" <<'PY' || fail "globals of $lib not in public.syms: $(head -5 "$T/unlisted" | tr '\n' ' ')"
import fnmatch, sys
pats = [l.strip() for l in open(sys.argv[1])
        if l.strip() and not l.startswith("#")]
bad = [s for s in open(sys.argv[2]).read().split()
       if not any(fnmatch.fnmatchcase(s, p) for p in pats)]
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
finish
