#!/bin/sh
# The typed contract between `sibyl emulate' and the runtime
# (emulator/emu_settings.h):
#   - the runtime reads SIBYL_* variables in emulator/emu_settings.c only,
#     and sibyl emulate writes none by a name of its own;
#   - the Environment section of `sibyl emulate --help', generated from
#     the header, and docs/emulator.md's table name the same variables
#     with the same defaults;
#   - run directly, the runtime refuses a value of the wrong type or range
#     with a message that names the variable (SIBYL_WINDOW=abc used to be
#     read as 0), and accepts the good ones;
#   - a setting that an option sets does not leak from the caller's
#     environment into a run of sibyl emulate (SIBYL_TIMING used to).
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

S=$SIBYL_SRCDIR

# Read in one place.
checks=$((checks + 1))
if grep -n 'getenv *( *"SIBYL_' "$S"/emulator/*.c |
	grep -v '^[^:]*/emu_settings\.c:' >"$T/getenv"; then
	fail "the runtime reads SIBYL_* variables outside emu_settings.c"
	sed 's/^/  | /' "$T/getenv" >&2
fi
checks=$((checks + 1))
if grep -n 'env_add[a-z_]*([^,]*, *"SIBYL_' "$S/tools/emulate.c" \
	>"$T/literal"; then
	fail "tools/emulate.c writes a SIBYL_* name of its own"
	sed 's/^/  | /' "$T/literal" >&2
fi

# --help against docs/emulator.md: NAME DEFAULT per line, "-" for none.
expect_ok "$SIBYL" emulate --help
python3 - "$T/out" "$S/docs/emulator.md" >"$T/cmp" 2>&1 <<'PY'
import re, sys
help_text = open(sys.argv[1]).read()
sec = help_text.split("\nEnvironment (", 1)[1].split("\nAPP also", 1)[0]
entries = re.split(r"\n  (?=SIBYL_)", "\n" + sec)[1:]
helpv = {}
for e in entries:
    name = e.split("=", 1)[0]
    text = " ".join(e.split())
    m = re.search(r"; default (\S+);", text)
    helpv[name] = m.group(1) if m else None
md = open(sys.argv[2]).read()
env = md.split("\n### Environment\n")[2].split("\n### ")[0] \
    if md.count("\n### Environment\n") > 1 else ""
docv = {}
for line in env.splitlines():
    m = re.match(r"\| `(SIBYL_[A-Z_]+)=[^`]*` \| [^|]* \| ([^|]*) \|", line)
    if m:
        docv[m.group(1)] = m.group(2).strip()
bad = 0
if len(helpv) < 15:
    print("only %d settings in --help" % len(helpv)); bad = 1
for n in sorted(set(helpv) | set(docv)):
    if n not in docv:
        print("%s is in --help, not in docs/emulator.md" % n); bad = 1
    elif n not in helpv:
        print("%s is in docs/emulator.md, not in --help" % n); bad = 1
    elif helpv[n] is not None and helpv[n] != docv[n]:
        print("%s: default %s in --help, %s in the docs" % (n, helpv[n],
                                                           docv[n]))
        bad = 1
sys.exit(bad)
PY
rc=$?
checks=$((checks + 1))
[ "$rc" -eq 0 ] || { fail "--help and docs/emulator.md disagree"; \
	sed 's/^/  | /' "$T/cmp" >&2; }

# Run directly: bad values refused, naming the variable.
emu_build ring "$SIBYL_SRCDIR/examples/ring.c" || finish
direct() {
	env SIBYL_RANKS=4 SIBYL_TRACE="$T/direct.trace" SIBYL_QUIET=1 "$@" \
		"$T/ring" 2
}
for bad in 'SIBYL_WINDOW=abc|SIBYL_WINDOW=abc is not a whole number in 1\.\.4294967295' \
	'SIBYL_WINDOW=0|SIBYL_WINDOW=0 is not a whole number' \
	'SIBYL_COMPRESSION=10|SIBYL_COMPRESSION=10 is not a whole number in 0\.\.9' \
	'SIBYL_IDLE=sleep|SIBYL_IDLE=sleep: the value is block or spin' \
	'SIBYL_BIND=yes|SIBYL_BIND=yes: the value is core or none' \
	'SIBYL_FLOP_RATE=0|SIBYL_FLOP_RATE=0 is not a positive number' \
	'SIBYL_CPU_FACTOR=-1|SIBYL_CPU_FACTOR=-1 is not a non-negative number' \
	'SIBYL_STACK_SIZE=1024|SIBYL_STACK_SIZE=1024 is not a whole number in 16384\.\.17179869184' \
	'SIBYL_TIMING=fast|SIBYL_TIMING=fast: the value is corrected or raw'
do
	set -- "${bad%%|*}"
	expect_exit 3 direct "$1"
	expect_grep "${bad#*|}" "$T/err"
done
expect_ok direct SIBYL_WINDOW=3 SIBYL_COMPRESSION=0 SIBYL_IDLE=spin \
	SIBYL_BIND=none SIBYL_FLOP_RATE=2e9
expect_ok "$SIBYL" trace info "$T/direct.trace"
expect_grep '^window +3 SEBs$' "$T/out"
expect_ok grep -q 'emu_coll = default' "$T/direct.trace/MANIFEST"

# A setting that an option sets does not leak into sibyl emulate's run.
SIBYL_TIMING=raw SIBYL_WINDOW=abc emu_run 2 4 "$T/leak.trace" "$T/ring" 2
checks=$((checks + 1))
[ "$emu_status" -eq 0 ] || { fail "emulate with SIBYL_* in its \
environment exited $emu_status"; sed 's/^/  | /' "$T/err" >&2; }
expect_grep '^emu_timing = corrected$' "$T/leak.trace/MANIFEST"
finish
