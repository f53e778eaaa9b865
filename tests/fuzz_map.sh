#!/bin/sh
# fuzz_map.sh -- the fuzz target of the mapping file reader (fastsim/fsim_machine.c),
# tests/fuzz_map.c, on a generated corpus (tests/fuzzlib.sh).
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/fuzzlib.sh"
fuzz_text map
finish
