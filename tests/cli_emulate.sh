# cli_emulate.sh -- the launcher `sibyl emulate' without the runtime: help,
# usage errors, the mpirun command line and environment (--dry-run), the
# refusal to overwrite, and what happens after mpirun: a fake mpirun
# (SIBYL_MPIRUN) writes a trace with `sibyl trace gen' where the runtime
# would, so that publishing, --force, incomplete traces and signals are
# tested; the real mpirun runs a failing program.
. "$SIBYL_SRCDIR/tests/lib.sh"

# A batch allocation changes the --oversubscribe rule; the contract's
# variables must not leak in from the caller.
unset SLURM_JOB_ID PBS_JOBID LSB_JOBID PE_HOSTFILE FLUX_JOB_ID SIBYL_MPIRUN
unset SIBYL_RANKS SIBYL_TRACE SIBYL_WINDOW SIBYL_CPU_FACTOR SIBYL_STACK_SIZE
unset SIBYL_FLOP_RATE SIBYL_BIND SIBYL_QUIET SIBYL_CMDLINE SIBYL_IDLE

W="$T/work"
mkdir -p "$W"
# Most runs happen in $W so that the default trace (./APP.trace) lands
# there.
emu() { (cd "$W" && "$SIBYL" emulate "$@"); }

# usage_error ARGS...: exit 2, a message, a hint, nothing written.
usage_error() {
	expect_exit 2 emu "$@"
	expect_grep '^sibyl emulate: ' "$T/err"
	checks=$((checks + 1))
	left=$(ls -A "$W" | tr '\n' ' ')
	[ -z "$left" ] || fail "a refused run left: $left"
}

expect_line() {  # expect_line LINE FILE: FILE has exactly this line
	checks=$((checks + 1))
	grep -qxF -- "$1" "$2" || { fail "$2 lacks the line '$1'";
				    sed 's/^/  | /' "$2" | head -20 >&2; }
}

# ------------------------------------------------------------------ help
expect_ok "$SIBYL" emulate --help
expect_grep '^Usage: sibyl emulate --ranks V \[-np P\]' "$T/out"
for word in --ranks -np --output --force --window --cpu-factor --stack-size \
	    --flop-rate --no-bind --idle --dry-run --quiet --coll --node-size \
	    --privatize SIBYL_COLL SIBYL_NODE_SIZE SIBYL_PRIVATIZE \
	    SIBYL_RANKS SIBYL_TRACE \
	    SIBYL_WINDOW SIBYL_CPU_FACTOR SIBYL_STACK_SIZE SIBYL_FLOP_RATE \
	    SIBYL_BIND SIBYL_IDLE SIBYL_QUIET SIBYL_CMDLINE SIBYL_MPIRUN \
	    --allow-run-as-root --oversubscribe 'TRACE.partial' \
	    'Exit status' 'Examples' 'sibylcc -O2 ring.c -o ring'; do
	expect_grep "$word" "$T/out"
done
cp "$T/out" "$T/help1"
expect_ok "$SIBYL" help emulate
checks=$((checks + 1))
cmp -s "$T/out" "$T/help1" || fail "'sibyl help emulate' differs from --help"
# --help wins wherever it is before '--' ...
expect_ok emu --ranks 0 --help -- ./app
expect_grep '^Usage: ' "$T/out"
expect_ok "$SIBYL" --help
expect_grep '^  emulate ' "$T/out"

# ----------------------------------------------------------- usage errors
usage_error -- ./app
expect_grep '--ranks V is required' "$T/err"
expect_grep "Try 'sibyl emulate --help'" "$T/err"
usage_error --ranks 4 ./app
expect_grep "must follow '--'" "$T/err"
usage_error --ranks 4
expect_grep "must follow '--'" "$T/err"
usage_error --ranks 4 --
expect_grep "no application after '--'" "$T/err"
usage_error --ranks 4 -- ''
usage_error --ranks -- ./app
expect_grep "option '--ranks' needs a value" "$T/err"
usage_error -- ./app --ranks 4      # after '--' it is the application's
usage_error --ranks 2 -np 4 -- ./app
expect_grep '-np 4 exceeds --ranks 2' "$T/err"
usage_error --ranks 4 -np 0 -- ./app
usage_error --ranks 0 -- ./app
expect_grep 'out of range' "$T/err"
usage_error --ranks 2147483648 -- ./app
expect_grep 'out of range' "$T/err"
usage_error --ranks 2Gi -- ./app
usage_error --ranks abc -- ./app
expect_grep "--ranks: 'abc' is not a non-negative integer" "$T/err"
usage_error --ranks 4.5 -- ./app
usage_error --ranks 4 -np x -- ./app
usage_error --ranks 4 --window 0 -- ./app
usage_error --ranks 4 --window 4Gi -- ./app
usage_error --ranks 4 --cpu-factor -1 -- ./app
usage_error --ranks 4 --compression 10 -- ./app
usage_error --ranks 4 --clock sundial -- ./app
usage_error --ranks 4 --cpu-factor fast -- ./app
expect_grep "--cpu-factor: 'fast' is not a number" "$T/err"
usage_error --ranks 4 --stack-size 1 -- ./app
expect_grep 'out of range \(16KiB to 16GiB\)' "$T/err"
usage_error --ranks 4 --stack-size 17GiB -- ./app
usage_error --ranks 4 --stack-size 1MiBs -- ./app
usage_error --ranks 4 --flop-rate fast -- ./app
usage_error --ranks 4 --flop-rate 0 -- ./app
usage_error --ranks 4 --flop-rate 1e9x -- ./app
usage_error --ranks 4 --coll allreduce -- ./app
expect_grep "--coll: 'allreduce' is not COLLECTIVE=ALGORITHM" "$T/err"
usage_error --ranks 4 --coll allreduce=ring, -- ./app
usage_error --ranks 4 --coll =ring -- ./app
usage_error --ranks 4 --node-size 0 -- ./app
usage_error --ranks 4 --privatize sometimes -- ./app
expect_grep "--privatize: 'sometimes' is not one of auto, copy, remap, none" \
	"$T/err"
usage_error --ranks 4 --idle doze -- ./app
expect_grep "--idle: 'doze' is neither 'block' nor 'spin'" "$T/err"
usage_error --ranks 4 -o '' -- ./app
usage_error --ranks 4 -o app.tar.gz -- ./app
expect_grep 'sibyl trace pack' "$T/err"
usage_error --ranks 4 -o no/such/dir/x.trace -- ./app
expect_grep 'no/such/dir is not a directory' "$T/err"

# ----------------------------------------------------- the mpirun command
# --dry-run: the environment, then mpirun's command line, both as a shell
# takes them; nothing runs and nothing is written.
dry() { expect_ok emu --dry-run "$@"; }

dry --ranks 64 -np 2 -- ./ring 10 'a b'
expect_line 'SIBYL_RANKS=64 \' "$T/out"
expect_line "SIBYL_TRACE=$W/ring.trace.partial \\" "$T/out"
expect_line "SIBYL_CMDLINE='./ring 10 '\\''a b'\\''' \\" "$T/out"
expect_grep ' -np 2 ' "$T/out"
expect_grep ' -x SIBYL_RANKS -x SIBYL_TRACE -x LD_BIND_NOW -x SIBYL_QUIET -x SIBYL_CMDLINE -- \./ring 10 '"'a b'"'$' \
	"$T/out"
expect_line 'SIBYL_QUIET=1 \' "$T/out"
# Corrected timing (the default) binds every symbol at load time; raw
# timing keeps the loader's default.
expect_line 'LD_BIND_NOW=1 \' "$T/out"
dry --timing raw --ranks 64 -np 2 -- ./ring
checks=$((checks + 1))
! grep -q LD_BIND_NOW "$T/out" || fail "--timing raw sets LD_BIND_NOW"
dry --ranks 64 -np 2 -- ./ring
if grep -q 'SIBYL_WINDOW\|SIBYL_BIND\|SIBYL_IDLE' "$T/out"; then
	fail "variables of options not given are set"
fi
if [ "$(id -u)" -eq 0 ]; then
	expect_grep ' --allow-run-as-root ' "$T/out"
else
	checks=$((checks + 1))
	! grep -q 'allow-run-as-root' "$T/out" ||
		fail "--allow-run-as-root without being root"
fi
checks=$((checks + 1))
[ -z "$(ls "$W")" ] || fail "--dry-run wrote: $(ls "$W")"

# The collective, node, privatization and idle options; --coll accumulates.
dry --ranks 64 --coll allreduce=ring --coll alltoall=percs,bcast=binomial \
	--node-size 16 --privatize copy --idle spin -- ./ring
expect_line 'SIBYL_COLL=allreduce=ring,alltoall=percs,bcast=binomial \' \
	"$T/out"
expect_line 'SIBYL_NODE_SIZE=16 \' "$T/out"
expect_line 'SIBYL_PRIVATIZE=copy \' "$T/out"
expect_line 'SIBYL_IDLE=spin \' "$T/out"
expect_grep ' -x SIBYL_COLL -x SIBYL_NODE_SIZE -x SIBYL_PRIVATIZE ' "$T/out"

# Every option's variable, in the right unit; the passthrough options in
# order, after our -x; the default mpirun overridden by SIBYL_MPIRUN.
(cd "$W" && SIBYL_MPIRUN=/opt/mpi/bin/mpirun "$SIBYL" emulate -r 64k \
	--hostfile h -np 3 -H a,b --window 16 --map-by core --cpu-factor 0.5 \
	--stack-size 256KiB --mca btl self,tcp --flop-rate 2.5G --no-bind -q \
	-o out.trace --dry-run -- /x/app -q --window 3) >"$T/out" 2>"$T/err" ||
	fail "dry run with every option: $(cat "$T/err")"
for line in 'SIBYL_RANKS=64000 \' "SIBYL_TRACE=$W/out.trace.partial \\" \
	    'SIBYL_WINDOW=16 \' 'SIBYL_CPU_FACTOR=0.5 \' \
	    'SIBYL_STACK_SIZE=262144 \' 'SIBYL_BIND=none \' 'SIBYL_QUIET=1 \' \
	    "SIBYL_CMDLINE='/x/app -q --window 3' \\"; do
	expect_line "$line" "$T/out"
done
expect_grep '^SIBYL_FLOP_RATE=2\.5e\+0?9 \\$' "$T/out"
expect_grep '^/opt/mpi/bin/mpirun -np 3 ' "$T/out"
expect_grep ' -x SIBYL_QUIET -x SIBYL_CMDLINE --hostfile h -H a,b --map-by core --mca btl self,tcp -- /x/app -q --window 3$' \
	"$T/out"
checks=$((checks + 1))
! grep -q oversubscribe "$T/out" || fail "--oversubscribe with a hostfile"

# --oversubscribe: only when P exceeds the cores and nothing says where
# to run; never twice.
many=$(($(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 64) + 1))
dry --ranks 1Ki -np "$many" -- ./ring
expect_grep " -np $many .*--oversubscribe -x SIBYL_RANKS" "$T/out"
dry --ranks 1Ki -np 1 -- ./ring
checks=$((checks + 1))
! grep -q oversubscribe "$T/out" || fail "--oversubscribe for -np 1"
dry --ranks 1Ki -n "$many" --oversubscribe -- ./ring
checks=$((checks + 1))
[ "$(grep -o oversubscribe "$T/out" | wc -l)" -eq 1 ] ||
	fail "--oversubscribe given twice"
dry --ranks 1Ki --np="$many" --map-by core:OVERSUBSCRIBE -- ./ring
checks=$((checks + 1))
! grep -q -- '--oversubscribe' "$T/out" || fail "--oversubscribe added to :OVERSUBSCRIBE"
dry --ranks 1Ki -np "$many" --host=a,b -- ./ring
checks=$((checks + 1))
! grep -q oversubscribe "$T/out" || fail "--oversubscribe with --host"
(cd "$W" && SLURM_JOB_ID=1 "$SIBYL" emulate --dry-run --ranks 1Ki \
	-np "$many" -- ./ring) >"$T/out" 2>&1
checks=$((checks + 1))
! grep -q oversubscribe "$T/out" || fail "--oversubscribe in a batch job"
# Given already: not repeated.
dry --ranks 8 --allow-run-as-root -- ./ring
checks=$((checks + 1))
[ "$(grep -o allow-run-as-root "$T/out" | wc -l)" -eq 1 ] ||
	fail "--allow-run-as-root given twice"
# Our options by their other names.
dry -r 8 --np 2 --output x.trace -- ./ring
expect_grep "^SIBYL_TRACE=$W/x.trace.partial" "$T/out"
expect_grep ' -np 2 ' "$T/out"
dry --ranks=8 -n 2 --output=y.trace -- ./ring
expect_grep "^SIBYL_TRACE=$W/y.trace.partial" "$T/out"
dry --ranks 8 -o "$T/abs dir.trace/" -- ./ring
expect_line "SIBYL_TRACE='$T/abs dir.trace.partial' \\" "$T/out"

# ---------------------------------------------------------- the outputs
# A fake mpirun: records its command line and SIBYL_* environment, then
# does what FAKE says, writing the trace where the runtime would.
FAKE_DIR="$T/fake"
mkdir -p "$FAKE_DIR"
cat >"$FAKE_DIR/mpirun" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$FAKE_DIR/args"
env | grep '^SIBYL_' | sort >"$FAKE_DIR/env"
np=1
while [ $# -gt 0 ]; do
	case $1 in
	-np) np=$2; shift 2 ;;
	--) shift; break ;;
	*) shift ;;
	esac
done
gen() {
	"$SIBYL" trace gen -q -p ring -r "$SIBYL_RANKS" -i 2 --procs "$1" \
		-o "$SIBYL_TRACE"
}
case ${FAKE:-ok} in
ok) gen "$np" ;;
regions|regions0)
	# 8 ranks on 2 processes, code regions, and with "regions" two
	# corrected SEBs: 3 ns and 0.5 ns of 17.5 ns measured.
	{ echo "npes $SIBYL_RANKS"; echo "procs $np"
	  r=0; while [ $r -lt "$SIBYL_RANKS" ]; do
		echo "$r compute 1000 r:a~>~b"; r=$((r + 1)); done
	  if [ "$FAKE" = regions ]; then
		echo "0 compute 2000 r:a~>~b c:off-cpu:5000"
		echo "3 solve 4000 r:c~>~d c:page-faults:4500"
	  fi
	} | python3 "$SIBYL_SRCDIR/tests/data/mktrace.py" "$SIBYL_TRACE" ;;
none) exit 0 ;;
fail) gen "$np" && exit 3 ;;
failcut) gen "$np" && rm "$SIBYL_TRACE/proc-000001.sdat" && exit 3 ;;
cut) gen "$np" && f="$SIBYL_TRACE/proc-000001.sdat" &&
     head -c $(($(wc -c <"$f") / 2)) "$f" >"$f.cut" && mv "$f.cut" "$f" ;;
fewer) gen $((np - 1)) ;;
wait)
	trap 'echo TERM >"$FAKE_DIR/signal"; exit 143' TERM
	mkdir -p "$SIBYL_TRACE"
	: >"$FAKE_DIR/started"
	while :; do sleep 1; done ;;
esac
EOF
chmod +x "$FAKE_DIR/mpirun"
export FAKE_DIR
run() { (cd "$W" && SIBYL_MPIRUN="$FAKE_DIR/mpirun" "$SIBYL" emulate "$@"); }
fake() { FAKE=$1; export FAKE; }   # what the fake mpirun does next
fake ok

# Success: the trace under its name, a summary on stderr, nothing else.
checks=$((checks + 1))
SIBYL_WINDOW=7
export SIBYL_WINDOW
run --ranks 8 -np 2 -- ./ring 5 >"$T/out" 2>"$T/err" ||
	fail "run with the fake mpirun: $(cat "$T/err")"
unset SIBYL_WINDOW
[ -f "$W/ring.trace/MANIFEST" ] || fail "no ring.trace"
[ ! -e "$W/ring.trace.partial" ] || fail "ring.trace.partial is left"
expect_grep '^sibyl emulate: 8 ranks on 2 processes in [0-9.]+ s: [0-9,]+ SEBs, [0-9,]+ messages \(.*B\), trace .*B -> \./ring\.trace$' \
	"$T/err"
expect_line 'SIBYL_RANKS=8' "$FAKE_DIR/env"
expect_line "SIBYL_TRACE=$W/ring.trace.partial" "$FAKE_DIR/env"
expect_line 'SIBYL_CMDLINE=./ring 5' "$FAKE_DIR/env"
checks=$((checks + 1))
! grep -q SIBYL_WINDOW "$FAKE_DIR/env" ||
	fail "SIBYL_WINDOW of the caller reached mpirun"
expect_ok "$SIBYL" trace check --quiet "$W/ring.trace"
# -q: nothing at all.
rm -rf "$W/ring.trace"
run -q --ranks 8 -np 2 -- ./ring >"$T/out" 2>"$T/err"
checks=$((checks + 1))
[ ! -s "$T/out" ] && [ ! -s "$T/err" ] ||
	fail "-q printed: $(cat "$T/out" "$T/err")"

# Corrections: counted in the summary line, listed by region with
# --corrections; a trace without any says so only when the timing
# corrects.
if command -v python3 >/dev/null 2>&1; then
	fake regions
	rm -rf "$W/ring.trace"
	expect_ok run --ranks 8 -np 2 -- ./ring
	expect_grep '^sibyl emulate: 8 ranks on 2 processes in [0-9.]+ s: 10 SEBs, 0 messages \(0 B\), 2 SEBs corrected \(3\.500 ns of 17\.500 ns measured\), trace .*B -> \./ring\.trace$' \
		"$T/err"
	checks=$((checks + 1))
	[ "$(wc -l <"$T/err")" -eq 1 ] || fail "more than one summary line"
	rm -rf "$W/ring.trace"
	expect_ok run --ranks 8 -np 2 --corrections -- ./ring
	expect_grep '^sibyl emulate: 2 of 2 code regions had SEBs corrected:$' \
		"$T/err"
	expect_grep '^ +3\.000 ns in 1 of 9 SEBs  a > b$' "$T/err"
	expect_grep '^ +500 ps in 1 of 1 SEBs  c > d$' "$T/err"
	checks=$((checks + 1))
	[ "$(grep -n 'a > b' "$T/err" | cut -d: -f1)" -eq 3 ] ||
		fail "--corrections: not the most corrected region first"
	checks=$((checks + 1))
	! grep -q -- --corrections "$FAKE_DIR/args" ||
		fail "--corrections reached mpirun"
	fake regions0
	rm -rf "$W/ring.trace"
	expect_ok run --ranks 8 -np 2 -- ./ring
	expect_grep ' 0 SEBs corrected \(0 ps of 8\.000 ns measured\), trace ' \
		"$T/err"
	rm -rf "$W/ring.trace"
	expect_ok run --ranks 8 -np 2 --timing raw -- ./ring
	checks=$((checks + 1))
	! grep -q corrected "$T/err" || fail "--timing raw: corrections said"
	rm -rf "$W/ring.trace"
	fake ok
	run --ranks 8 -np 2 -- ./ring >"$T/out" 2>"$T/err" ||
		fail "run with the fake mpirun: $(cat "$T/err")"
fi

# An existing trace: refused without --force (untouched), replaced with it.
cp "$W/ring.trace/MANIFEST" "$T/manifest.old"
expect_exit 2 run --ranks 16 -np 2 -- ./ring
expect_grep "'(\./)?ring.trace' already exists: choose another output or pass --force" "$T/err"
checks=$((checks + 1))
cmp -s "$W/ring.trace/MANIFEST" "$T/manifest.old" || fail "refused run changed ring.trace"
expect_ok run --force --ranks 16 -np 2 -- ./ring
expect_grep '16 ranks on 2 processes' "$T/err"
expect_grep '^npes = 16$' "$W/ring.trace/MANIFEST"
# ... but a failed run leaves the old trace alone.
cp "$W/ring.trace/MANIFEST" "$T/manifest.old"
fake fail
expect_exit 1 run --force --ranks 8 -np 2 -- ./ring
expect_grep '\./ring exited with status 3 after every rank finished; the trace is complete and stays in \./ring\.trace\.partial' \
	"$T/err"
checks=$((checks + 1))
cmp -s "$W/ring.trace/MANIFEST" "$T/manifest.old" || fail "a failed --force run changed ring.trace"
fake failcut
expect_exit 1 run --force --ranks 8 -np 2 -- ./ring
expect_grep 'emulation failed \(mpirun exited 3\); the incomplete trace is left in \./ring\.trace\.partial$' \
	"$T/err"
checks=$((checks + 1))
cmp -s "$W/ring.trace/MANIFEST" "$T/manifest.old" || fail "a failed --force run changed ring.trace"
# The next run removes the leftover .partial first.
fake ok
expect_ok run --force --ranks 8 -np 2 -- ./ring
checks=$((checks + 1))
[ ! -e "$W/ring.trace.partial" ] || fail "the leftover .partial is still there"

# Not a trace: refused even with --force; so is a .partial that is not ours.
mkdir "$W/notrace" && : >"$W/notrace/data"
expect_exit 2 run --force --ranks 8 -o notrace -- ./ring
expect_grep "not replacing 'notrace'.*not part of a trace.*'data'" "$T/err"
: >"$W/plain"
expect_exit 2 run --force --ranks 8 -o plain -- ./ring
expect_grep "not replacing 'plain'.*not a directory" "$T/err"
mkdir -p "$W/b.trace.partial" && : >"$W/b.trace.partial/notes.txt"
expect_exit 2 run --ranks 8 -o b.trace -- ./ring
expect_grep "b.trace.partial is in the way.*'notes.txt'" "$T/err"
checks=$((checks + 1))
[ -f "$W/notrace/data" ] && [ -f "$W/plain" ] &&
	[ -f "$W/b.trace.partial/notes.txt" ] || fail "a refused run removed something"
rm -rf "$W/notrace" "$W/plain" "$W/b.trace.partial"

# mpirun succeeded, but the trace is missing, cut off or not the one asked.
fake none
expect_exit 1 run --ranks 8 -o n.trace -- ./app
expect_grep 'no trace was written to n\.trace\.partial: was \./app built with sibylcc\?' \
	"$T/err"
fake cut
expect_exit 1 run --ranks 8 -np 2 -o c.trace -- ./ring
expect_grep 'emulation failed: mpirun exited 0, but the trace is not complete \(1 data file is not complete' \
	"$T/err"
expect_grep 'left in c\.trace\.partial$' "$T/err"
checks=$((checks + 1))
[ ! -e "$W/c.trace" ] && [ -d "$W/c.trace.partial" ] ||
	fail "a cut-off trace was published"
fake fewer
expect_exit 1 run --ranks 8 -np 2 -o f.trace -- ./ring
expect_grep 'holds 8 ranks from 1 process, not 8 from 2' "$T/err"
rm -rf "$W/c.trace.partial" "$W/f.trace.partial"

# A signal to the launcher reaches mpirun; the run counts as failed, and
# the launcher ends by that signal once it has said so.
rm -f "$FAKE_DIR/signal" "$FAKE_DIR/started"
fake wait
(cd "$W" && SIBYL_MPIRUN="$FAKE_DIR/mpirun" \
	exec "$SIBYL" emulate --ranks 8 -o s.trace -- ./ring) \
	>"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ ! -e "$FAKE_DIR/started" ] && [ $i -lt 100 ]; do
	sleep 0.1; i=$((i + 1))
done
kill -TERM "$pid"
wait "$pid"
got=$?
checks=$((checks + 1))
[ "$got" -eq 143 ] || fail "SIGTERM: exit status $got, expected 143 (killed by SIGTERM)"
[ -f "$FAKE_DIR/signal" ] || fail "SIGTERM did not reach mpirun"
expect_grep 'emulation failed \(mpirun exited 143 after Terminated\); the incomplete trace is left in s\.trace\.partial$' \
	"$T/err"
rm -rf "$W/s.trace.partial"

# mpirun cannot be run: exit 2.
(cd "$W" && SIBYL_MPIRUN="$T/no-such-mpirun" "$SIBYL" emulate --ranks 8 \
	-o m.trace -- ./ring) >"$T/out" 2>"$T/err"
got=$?
checks=$((checks + 1))
[ "$got" -eq 2 ] || fail "missing mpirun: exit status $got, expected 2"
expect_grep "cannot run '.*no-such-mpirun': No such file or directory; set SIBYL_MPIRUN" \
	"$T/err"

# The real mpirun, and a program that fails: exit 1, nothing written.
expect_exit 1 emu --ranks 2 -- /bin/false
expect_grep 'emulation failed \(mpirun exited [0-9]+\); no trace was written' \
	"$T/err"
checks=$((checks + 1))
[ ! -e "$W/false.trace" ] && [ ! -e "$W/false.trace.partial" ] ||
	fail "a failed run left a trace"

finish
