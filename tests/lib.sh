# lib.sh -- helpers for Sibyl's shell tests.  Source it first:
#   . "$SIBYL_SRCDIR/tests/lib.sh"
# It sets $T to a fresh scratch directory for the test, TMPDIR to
# $T/tmpdir, and defines:
#   fail MSG          record a failure (the test goes on; exits 1 at the end)
#   expect_ok CMD...  run CMD, fail unless it exits 0 (output in $T/out, $T/err)
#   expect_exit N CMD...  run CMD, fail unless it exits N
#   expect_grep PATTERN FILE   fail unless FILE matches the extended regex
#   finish            exit 1 if anything failed, else 0
#   py SCRIPT ARGS... run a Python check (python3 -c); fail unless it exits 0
set -u
: "${SIBYL:?SIBYL must point at the sibyl driver}"
: "${SIBYL_SRCDIR:?SIBYL_SRCDIR must point at the source tree}"
test_name=$(basename "$0" .sh)
T="${SIBYL_TEST_TMP:-.}/$test_name.tmp"
rm -rf "$T" && mkdir -p "$T" || exit 99
# A TMPDIR of the test's own.  Open MPI makes its session directories
# there (by default /tmp/ompi.HOST.UID, which two mpiruns starting at once
# can race to make and remove), and the tools their scratch files: tests
# run at once (make -j) never share one.
TMPDIR=$(mkdir "$T/tmpdir" && cd "$T/tmpdir" && pwd) || exit 99
export TMPDIR
# python3 is the interpreter itself when `make check' found it
# (SIBYL_PYTHON, tests/Makefile.inc), not a shim that finds it each time.
if [ -n "${SIBYL_PYTHON:-}" ] && [ -x "$SIBYL_PYTHON" ]; then
	python3() { "$SIBYL_PYTHON" "$@"; }
fi
failures=0
checks=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

expect_exit() {
	want=$1; shift
	checks=$((checks + 1))
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "'$*' exited $got, expected $want"
		sed 's/^/  stdout: /' "$T/out" | head -20 >&2
		sed 's/^/  stderr: /' "$T/err" | head -20 >&2
	fi
	return 0
}

expect_ok() { expect_exit 0 "$@"; }

expect_grep() {
	checks=$((checks + 1))
	if ! grep -E -q -- "$1" "$2"; then
		fail "$2 does not match /$1/"
		sed 's/^/  | /' "$2" | head -20 >&2
	fi
}

finish() {
	echo "$test_name: $checks checks, $failures failed" >&2
	[ "$failures" -eq 0 ]
	exit $?
}

# py SCRIPT ARGS...: a Python check; its failure is a test failure.
py() {
	checks=$((checks + 1))
	script=$1; shift
	# On failure the whole output goes to the log and the message carries
	# its last lines, where an assertion's reason is.
	python3 -c "$script" "$@" >"$T/py.out" 2>&1 || {
		cat "$T/py.out" >&2
		fail "python check failed: $(tail -3 "$T/py.out")"
	}
}
