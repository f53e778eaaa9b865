# fuzzlib.sh -- running fuzz targets in `make check'; sourced after
# lib.sh.  Every target has a replay driver (tests/fuzz_NAME_replay),
# which `make check' builds, and a libFuzzer binary (tests/fuzz_NAME),
# which `make fuzz' builds.  Any crash or sanitizer report fails the
# test.
#
#   fuzz_replay REPLAY N M   generate a corpus of N inputs in $T/corpus
#                            (twice: the same seed must give the same
#                            corpus), replay it, then run M deterministic
#                            random mutations of it (the input being run
#                            is in $T/last-input)
#   fuzz_libfuzzer FUZZER [OPTION...]   when SIBYL_FUZZ_SECONDS is set
#                            and FUZZER was built, fuzz for that long
#                            from $T/corpus (new inputs in $T/work,
#                            crashes in $T/artifacts)
#   fuzz_text NAME           both for the text target NAME (fuzz_text.h),
#                            with its words as dictionary
# The scratch files of the targets go to $T; each function fails the
# test when the target leaves any behind.
TMPDIR="$T"; export TMPDIR

fuzz_left() {
	left=$(ls -d "$T"/sibyl-* 2>/dev/null)
	[ -z "$left" ] || fail "temporary directories left: $left"
}

fuzz_replay() {
	expect_ok "$1" --generate "$T/corpus" "$2" 1
	checks=$((checks + 1))
	[ "$(ls "$T/corpus" | wc -l)" -eq "$2" ] ||
		fail "the corpus has $(ls "$T/corpus" | wc -l) inputs, want $2"
	expect_ok "$1" --generate "$T/corpus2" "$2" 1
	checks=$((checks + 1))
	diff -r "$T/corpus" "$T/corpus2" >/dev/null ||
		fail "--generate is not deterministic"
	rm -rf "$T/corpus2"
	expect_ok "$1" "$T/corpus"
	expect_grep "$2 inputs" "$T/err"
	expect_ok "$1" --mutate "$T/corpus" "$3" 7 "$T/last-input"
	expect_grep "$3 mutations" "$T/err"
	fuzz_left
}

fuzz_libfuzzer() {
	[ -n "${SIBYL_FUZZ_SECONDS:-}" ] || return 0
	fuzzer=$1; shift
	if [ ! -x "$fuzzer" ]; then
		echo "$fuzzer: no libFuzzer binary (make fuzz); skipped" >&2
		return 0
	fi
	mkdir -p "$T/work" "$T/artifacts"
	expect_ok "$fuzzer" -max_total_time="$SIBYL_FUZZ_SECONDS" \
		-rss_limit_mb=2048 -timeout=20 -artifact_prefix="$T/artifacts/" \
		"$@" "$T/work" "$T/corpus"
	fuzz_left
}

fuzz_text() {
	replay="$SIBYL_TEST_TMP/fuzz_$1_replay"
	if [ ! -x "$replay" ]; then
		echo "fuzz_$1: $replay not built" >&2
		exit 77
	fi
	fuzz_replay "$replay" 200 1000
	expect_ok "$replay" --dict "$T/dict"
	# hwloc's synthetic-topology parser may leak on a malformed string.
	LSAN_OPTIONS="suppressions=$SIBYL_SRCDIR/tests/data/lsan-hwloc.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
	export LSAN_OPTIONS
	fuzz_libfuzzer "$SIBYL_TEST_TMP/fuzz_$1" -max_len=8192 \
		-dict="$T/dict"
}
