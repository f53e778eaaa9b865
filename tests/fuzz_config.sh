#!/bin/sh
# fuzz_config.sh -- the fuzz target of the machine description reader (fastsim/fsim_config.c),
# tests/fuzz_config.c, on a generated corpus (tests/fuzzlib.sh).
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/fuzzlib.sh"
fuzz_text config
finish
