#!/bin/sh
# fuzz_noise.sh -- the fuzz target of the noise-set reader (noise/noiseset.c),
# tests/fuzz_noise.c, on a generated corpus (tests/fuzzlib.sh).
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/fuzzlib.sh"
fuzz_text noise
finish
