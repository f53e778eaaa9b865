#!/bin/sh
# emu_routines.sh -- every MPI-3.1 routine is accounted for
# (docs/emulator.md, "Every routine"):
#   - Sibyl's <mpi.h> declares each routine of emulator/mpi-routines.txt
#     (a routine it did not declare used to bind to Open MPI's);
#   - the documented table lists each one once, and lists as not emulated
#     exactly the routines whose bodies report
#     MPI_ERR_UNSUPPORTED_OPERATION (emulator/unsupported.c);
#   - tests/emu/routines.c calls 36 routines across the standard under
#     MPI_ERRORS_RETURN, at 4 ranks on 2 processes: each works, with its
#     result checked, or returns MPI_ERR_UNSUPPORTED_OPERATION, as the
#     table says; under the default handler an unsupported call stops the
#     run with a message naming it and why.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"
command -v python3 >/dev/null 2>&1 || { echo "python3 not found" >&2; exit 77; }
S=$SIBYL_SRCDIR

py '
import glob, re, sys
src = sys.argv[1]
names = [l.strip() for l in open(src + "/emulator/mpi-routines.txt")
         if l.strip() and not l.startswith("#")]
assert len(names) == len(set(names)) and len(names) >= 400, len(names)
hdr = "".join(open(f).read()
              for f in glob.glob(src + "/emulator/include/*.h"))
declared = set(re.findall(r"^#define (MPI_\w+)[ (]", hdr, re.M))
missing = [n for n in names if n not in declared]
assert not missing, "not declared by mpi.h: %s" % missing[:10]
# The bodies that report MPI_ERR_UNSUPPORTED_OPERATION.
unsup = set(re.findall(r"^int (MPI_\w+)\(",
                       open(src + "/emulator/unsupported.c").read(), re.M))
doc = open(src + "/docs/emulator.md").read()
sec = doc[doc.index("#### Every routine"):doc.index("### Collectives")]
emulated, not_emulated, seen = set(), set(), []
for row in re.findall(r"^\| (\*\*emulated\*\*|not emulated)[^|]*\|(.*)\|$",
                      sec, re.M):
    found = re.findall(r"`(MPI_\w+)`", row[1])
    seen += found
    (emulated if row[0].startswith("**") else not_emulated).update(found)
dup = sorted(set(n for n in seen if seen.count(n) > 1))
assert not dup, "listed twice: %s" % dup
assert set(seen) == set(names), ("table and list differ",
    sorted(set(seen) ^ set(names))[:10])
assert not_emulated == unsup, ("not emulated in the table but emulated",
    sorted(not_emulated - unsup)[:10], "reporting unsupported but "
    "listed as emulated", sorted(unsup - not_emulated)[:10])
print(len(names), "routines:", len(emulated), "emulated,",
      len(not_emulated), "not")
' "$S"

emu_build routines "$S/tests/emu/routines.c" -Wall || finish
emu_run 2 4 "$T/routines.trace" "$T/routines"
checks=$((checks + 1))
[ "$emu_status" -eq 0 ] || fail "routines.c exited $emu_status"
cp "$T/out" "$T/routines.out"
expect_ok "$SIBYL" trace check "$T/routines.trace"
py '
import re, sys
out = open(sys.argv[1]).read().split("\n")
doc = open(sys.argv[2] + "/docs/emulator.md").read()
sec = doc[doc.index("#### Every routine"):doc.index("### Collectives")]
emulated = set(re.findall(r"`(MPI_\w+)`",
                          re.search(r"^\| \*\*emulated\*\*.*$", sec,
                                    re.M).group(0)))
calls = [l.split() for l in out if l and not l.startswith("check ")]
assert len(calls) >= 35, len(calls)
for name, result, *rest in calls:
    want = "ok" if name in emulated else "unsupported"
    assert result == want, (name, result, rest, "want", want)
checks = [l for l in out if l.startswith("check ")]
assert len(checks) >= 9 and all(l.endswith(": right") for l in checks), \
    checks
print(len(calls), "calls as documented,", len(checks), "results right")
' "$T/routines.out" "$S"

# Under the default handler the run stops, naming the call and why.
checks=$((checks + 1))
emu_run 2 4 "$T/fatal.trace" "$T/routines" fatal
[ "$emu_status" -ne 0 ] || fail "an unsupported call under " \
	"MPI_ERRORS_ARE_FATAL did not stop the run"
expect_grep "rank 0 in MPI_File_open: MPI_ERR_UNSUPPORTED_OPERATION: not emulated by this version of Sibyl: MPI-IO is not emulated" \
	"$T/err"
# An error code of the program's own, raised under the default handler:
# the run stops with its class and string.
checks=$((checks + 1))
emu_run 2 4 "$T/user.trace" "$T/routines" usercode
[ "$emu_status" -ne 0 ] || fail "a raised error code did not stop the run"
expect_grep 'rank 1 in MPI_Comm_call_errhandler: MPI_ERR_UNKNOWN: the program raised error code 39 \(the program.s own, of class 38: "disk on fire"\) on MPI_COMM_WORLD' \
	"$T/err"
finish
