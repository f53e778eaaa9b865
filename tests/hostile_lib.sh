# hostile_lib.sh -- what the hostile-input tests of the text readers
# share; sourced after lib.sh.
#
#   limited CMD...   run CMD (as expect_exit does, output in $T/out and
#                    $T/err, status in $rc) with at most 20 s of CPU time
#                    and, unless the build uses AddressSanitizer (which
#                    reserves terabytes of address space), 2 GiB of
#                    memory: an input that makes a reader loop or grow
#                    ends the command instead of the machine.
#   expect_status N WHAT   the last `limited' command exited N.
#   expect_refusal N REGEX CMD...   limited CMD must exit N with a
#                    message on stderr matching REGEX.
#   tiny_trace       $T/t.trace, a 2-rank trace to simulate.
if ASAN_OPTIONS=help=1 "$SIBYL" --version 2>&1 | grep -q AddressSanitizer
then
	hostile_vmem=unlimited
else
	hostile_vmem=2097152
fi

limited() {
	(ulimit -t 20 && ulimit -v "$hostile_vmem" && exec "$@") \
		>"$T/out" 2>"$T/err"
	rc=$?
}

expect_status() {
	checks=$((checks + 1))
	if [ "$rc" -ne "$1" ]; then
		fail "$2: exited $rc, expected $1"
		sed 's/^/  stderr: /' "$T/err" | head -5 >&2
	fi
}

expect_refusal() {
	want=$1 re=$2; shift 2
	limited "$@"
	expect_status "$want" "'$*'"
	expect_grep "$re" "$T/err"
}

tiny_trace() {
	"$SIBYL" trace gen -q -p pingpong -r 2 -o "$T/t.trace" ||
		fail "cannot generate a trace"
}
