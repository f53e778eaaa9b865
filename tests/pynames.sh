#!/bin/sh
# The Python scripts of the tree (bench/, tests/) read no name that they
# never define (tests/pynames.py): a bench section that calls a function
# lost in an edit fails here, not at the end of a run of many minutes.
# Then the check's own test: a script with such a name is reported, with
# its line; one without passes; one that does not parse is an error.
. "$SIBYL_SRCDIR/tests/lib.sh"

names() {
	python3 "$SIBYL_SRCDIR/tests/pynames.py" "$@"
}

# Every Python script of the distributed tree.
set --
for f in "$SIBYL_SRCDIR"/bench/*.py "$SIBYL_SRCDIR"/bench/*/*.py \
	"$SIBYL_SRCDIR"/tests/*.py "$SIBYL_SRCDIR"/tests/data/*.py; do
	[ -f "$f" ] && set -- "$@" "$f"
done
checks=$((checks + 1))
[ $# -ge 8 ] || fail "only $# Python scripts found under bench/ and tests/"
expect_ok names "$@"

# A script that calls a function it no longer defines.
cat >"$T/lost.py" <<'PY'
import sys


def rows(args):
    return [a for a in args if a]


def main():
    for r in rows(sys.argv):
        print(r)
    busy_loop_rows(sys.argv)


main()
PY
expect_exit 1 names "$T/lost.py"
expect_grep "lost\.py:11: busy_loop_rows is read and never defined" "$T/out"

# Defined once more, it passes (nested functions, comprehensions and
# exception names are bindings too).
cat >>"$T/lost.py" <<'PY'


def busy_loop_rows(args):
    def done():
        return n
    n = len(args)
    try:
        pass
    except OSError as e:
        print(e)
    return done()
PY
expect_ok names "$T/lost.py"

# A file that does not parse.
printf 'def f(:\n' >"$T/broken.py"
expect_exit 2 names "$T/broken.py"
expect_grep "broken\.py: cannot check" "$T/err"
finish
