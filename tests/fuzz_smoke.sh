#!/bin/sh
# fuzz_smoke.sh -- the reader's fuzz target on a generated corpus.
#
# Always: generate a seed corpus (valid data files and mutated copies),
# replay it through tests/fuzz_reader_replay, then run 2000 deterministic
# random mutations of it.  When the libFuzzer binary tests/fuzz_reader was
# built (make fuzz) and SIBYL_FUZZ_SECONDS is set, also fuzz for that long.
# Any crash or sanitizer report fails the test; the input being run is in
# $T/last-input.
. "$SIBYL_SRCDIR/tests/lib.sh"

replay="$SIBYL_TEST_TMP/fuzz_reader_replay"
if [ ! -x "$replay" ]; then
	echo "fuzz_smoke: $replay not built" >&2
	exit 77
fi
TMPDIR="$T"; export TMPDIR

expect_ok "$replay" --generate "$T/corpus" 240 1
n=$(ls "$T/corpus" | wc -l)
[ "$n" -eq 240 ] || fail "corpus has $n inputs, want 240"
[ "$(ls "$T/corpus" | grep -c '^valid-')" -ge 60 ] ||
	fail "corpus has too few valid inputs"

# The same seed gives the same corpus.
expect_ok "$replay" --generate "$T/corpus2" 240 1
cmp_failed=0
for f in "$T/corpus"/*; do
	cmp -s "$f" "$T/corpus2/$(basename "$f")" || cmp_failed=1
done
[ "$cmp_failed" -eq 0 ] || fail "--generate is not deterministic"
rm -rf "$T/corpus2"

expect_ok "$replay" "$T/corpus"
expect_grep "240 inputs" "$T/err"
expect_ok "$replay" --mutate "$T/corpus" 2000 7 "$T/last-input"
expect_grep "2000 mutations" "$T/err"

libfuzz fuzz_reader "$T/corpus"

# Nothing left behind in the scratch TMPDIR.
left=$(ls -d "$T"/sibyl-* 2>/dev/null)
[ -z "$left" ] || fail "temporary directories left: $left"
finish
