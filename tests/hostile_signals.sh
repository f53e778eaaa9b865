# hostile_signals.sh -- SIGTERM, SIGINT and SIGHUP during a command that
# holds temporary directories (the scratch directory a bundle is unpacked
# into, sim's OUT.partial-*, trace gen's TRACE.partial-*): the command
# removes them, then ends with the conventional status (128 + signal).
#
# Nothing here depends on speed: the command is frozen (SIGSTOP) as soon
# as its temporary directory appears, and checked to be frozen with the
# directory still there before the signal is sent; a command that was too
# quick to be caught is run again on an input twice as large.
. "$SIBYL_SRCDIR/tests/lib.sh"

[ -r /proc/self/stat ] || { echo "hostile_signals: no /proc; skipping" >&2; exit 77; }

# A background job of a script ignores SIGINT; the command must see the
# signals as a terminal's foreground job would: env --default-signal
# (coreutils 8.31), or Python.
if env --default-signal=INT true 2>/dev/null; then
	set -- env --default-signal=INT,TERM,HUP
elif command -v python3 >/dev/null 2>&1; then
	set -- python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])'
else
	echo "hostile_signals: cannot reset SIGINT for a command; skipping" >&2
	exit 77
fi
LAUNCH1=$1 LAUNCH2=$2 LAUNCH3=${3-}

# state PID: st = the one-letter state of PID (T stopped, Z exited), or -.
# (Shell built-ins only: a poll must be quick.)
state() {
	st=-
	{ read -r line <"/proc/$1/stat"; } 2>/dev/null || return 0
	line=${line##*) }
	st=${line%% *}
}

# present GLOB: is there a path matching GLOB?
present() {
	for p in $1; do
		[ -e "$p" ] && return 0
	done
	return 1
}

# input SIZE: $T/in/big.trace, a ring with SIZE iterations, and its bundle
# $T/in/big.tar.gz.
input() {
	rm -rf "$T/in" && mkdir "$T/in"
	"$SIBYL" trace gen -q -p ring -r 64 --iters "$1" -o "$T/in/big.trace" &&
	"$SIBYL" trace pack -q "$T/in/big.trace" -o "$T/in/big.tar.gz"
}

# catch SIG GLOB CMD...: run CMD (TMPDIR=$T/tmp, in $T/run), freeze it
# once GLOB matches, send SIG, and check the exit status and that $T/tmp
# and $T/run hold nothing.  Returns 2 when CMD ended before it was caught.
catch() {
	sig=$1 glob=$2; shift 2
	rm -rf "$T/tmp" "$T/run" && mkdir "$T/tmp" "$T/run"
	cmd="$*"
	if [ -n "$LAUNCH3" ]; then
		set -- "$LAUNCH1" "$LAUNCH2" "$LAUNCH3" "$@"
	else
		set -- "$LAUNCH1" "$LAUNCH2" "$@"
	fi
	(cd "$T/run" && TMPDIR="$T/tmp" exec "$@") \
		>"$T/sig.out" 2>"$T/sig.err" &
	pid=$!
	caught=0
	# Bounded: 6000 polls 10 ms apart (a minute), far longer than any
	# run here; the pause leaves the CPU to the command.
	i=0
	while [ $i -lt 6000 ]; do
		i=$((i + 1))
		if present "$glob"; then
			kill -STOP "$pid" 2>/dev/null
			# Wait until it is frozen (or has ended), then look
			# again: the directory must still be there.
			j=0
			while [ $j -lt 100000 ]; do
				j=$((j + 1))
				state "$pid"
				case $st in T|t|Z|X|-) break ;; esac
			done
			[ "$st" = T ] || [ "$st" = t ] && present "$glob" && caught=1
			break
		fi
		state "$pid"
		case $st in Z|X|-) break ;; esac
		sleep 0.01
	done
	if [ $caught -eq 0 ]; then
		kill -CONT "$pid" 2>/dev/null
		wait "$pid"
		return 2
	fi
	kill "-$sig" "$pid"
	kill -CONT "$pid"
	wait "$pid"
	got=$?
	checks=$((checks + 1))
	case $sig in HUP) want=129 ;; INT) want=130 ;; *) want=143 ;; esac
	[ "$got" -eq "$want" ] ||
		fail "'$cmd' got SIG$sig and exited $got, expected $want: $(cat "$T/sig.err")"
	checks=$((checks + 1))
	left=$(find "$T/tmp" "$T/run" -mindepth 1 -maxdepth 1)
	[ -z "$left" ] || fail "'$cmd' left debris after SIG$sig: $left"
	return 0
}

# try NAME SIG GLOB CMD...: catch, on an input doubled until it is caught
# (at most 6 times).
size=5000
try() {
	name=$1; shift
	n=0
	while :; do
		catch "$@" && return
		n=$((n + 1))
		if [ $n -ge 6 ]; then
			fail "$name: never caught the command while it ran"
			return
		fi
		size=$((size * 2))
		input "$size" || { fail "cannot make the input"; return; }
	done
}

input "$size" || { fail "cannot make the input"; finish; }
B="$T/in/big.tar.gz"

# sim on a bundle: during the unpacking, and during the simulation.
try sim-unpack TERM "$T/tmp/sibyl-bundle-*/*" "$SIBYL" sim -q -o out "$B"
try sim-run INT "$T/run/out.partial-*/prints.txt" "$SIBYL" sim -q -o out "$B"
try sim-hup HUP "$T/run/out.partial-*/prints.txt" "$SIBYL" sim -q -o out "$B"
# info on a bundle, while it unpacks.
try info TERM "$T/tmp/sibyl-bundle-*/*" "$SIBYL" trace info "$B"
# trace pack, while it writes the archive.
try pack TERM "$T/run/p.tar.gz.part*" "$SIBYL" trace pack -q -o p.tar.gz \
	"$T/in/big.trace"
# noise capture, while it measures (its staging directory exists from the
# start).
try noise INT "$T/run/cap.partial-*" "$SIBYL" noise capture -q -d 10s -c 0 \
	-o cap
# trace gen, while it writes.
try gen HUP "$T/run/g.trace.partial-*/MANIFEST*" \
	"$SIBYL" trace gen -q -p ring -r 64 --iters "$size" -o g.trace

finish
