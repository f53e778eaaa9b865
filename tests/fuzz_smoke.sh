#!/bin/sh
# fuzz_smoke.sh -- the reader's fuzz target on a generated corpus.
#
# Always: generate a seed corpus (valid data files and mutated copies),
# replay it through tests/fuzz_reader_replay, then run 2000 deterministic
# random mutations of it.  When the libFuzzer binary tests/fuzz_reader was
# built (make fuzz) and SIBYL_FUZZ_SECONDS is set, also fuzz for that long
# (tests/fuzzlib.sh).  Any crash or sanitizer report fails the test; the
# input being run is in $T/last-input.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/fuzzlib.sh"

replay="$SIBYL_TEST_TMP/fuzz_reader_replay"
if [ ! -x "$replay" ]; then
	echo "fuzz_smoke: $replay not built" >&2
	exit 77
fi

fuzz_replay "$replay" 240 2000
[ "$(ls "$T/corpus" | grep -c '^valid-')" -ge 60 ] ||
	fail "corpus has too few valid inputs"
fuzz_libfuzzer "$SIBYL_TEST_TMP/fuzz_reader"
finish
