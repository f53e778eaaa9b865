# common.sh -- what the study scripts share.  A study script sets $study
# (its file name, for messages), sources this file first, sets its own
# defaults, parses its options and hands the common ones over, then calls
# study_init:
#
#   study=NAME.sh
#   . "$(dirname "$0")/common.sh"
#   while [ $# -gt 0 ]; do
#   	case $1 in
#   	--own) own=$2; shift 2 ;;
#   	*) study_option "$@"; shift "$study_shift" ;;
#   	esac
#   done
#   study_init
#
# The common options: -o DIR (default NAME.out), --scale S (smoke,
# reduced or full; default reduced), --full (= --scale full), --jobs J
# (default 2), --force (replace DIR), -h/--help (the script's header
# comment, down to its `set -eu').

here=$(cd "$(dirname "$0")" && pwd)
out=${study%.sh}.out
scale=reduced
jobs=2
force=

# study_option ARGS...: take one common option off the front of ARGS;
# $study_shift says how many words it used.  Anything else is an error.
study_option() {
	study_shift=1
	case $1 in
	-o|--scale|--jobs)
		[ $# -ge 2 ] || { echo "$study: $1 needs a value; try --help" >&2; exit 2; }
		study_shift=2
		case $1 in
		-o) out=$2 ;;
		--scale) scale=$2 ;;
		--jobs) jobs=$2 ;;
		esac ;;
	--full) scale=full ;;
	--force) force=--force ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
		exit 0 ;;
	*) echo "$study: unknown argument '$1'; try --help" >&2; exit 2 ;;
	esac
}

# study_init: check the common options; set $sibyl to the driver
# ($SIBYL, else build/sibyl of this source tree, else `sibyl' on the
# PATH) and check that it runs; refuse an existing $out without --force,
# and create it empty.
study_init() {
	case $jobs in
	''|*[!0-9]*|0) echo "$study: --jobs must be a positive integer" >&2; exit 2 ;;
	esac
	case $scale in
	smoke|reduced|full) ;;
	*) echo "$study: --scale must be smoke, reduced or full" >&2; exit 2 ;;
	esac
	if [ -n "${SIBYL:-}" ]; then
		sibyl=$SIBYL
	elif [ -x "$here/../../build/sibyl" ]; then
		sibyl=$here/../../build/sibyl
	else
		sibyl=sibyl
	fi
	"$sibyl" --version >/dev/null 2>&1 || {
		echo "$study: cannot run '$sibyl'; build Sibyl (sh quickstart.sh) or set SIBYL" >&2
		exit 2
	}
	if [ -e "$out" ] && [ -z "$force" ]; then
		echo "$study: '$out' exists; choose another -o DIR or pass --force" >&2
		exit 2
	fi
	rm -rf "$out"
	mkdir -p "$out"
}

# study_bytes SIZE: 32KiB, 1MiB or a byte count, in bytes; "bad" for
# anything else.
study_bytes() {
	echo "$1" | awk '/^[0-9]+KiB$/ { print $0 * 1024; next }
		/^[0-9]+MiB$/ { print $0 * 1048576; next }
		/^[0-9]+$/ && $0 > 0 { print $0; next } { print "bad" }'
}

# elapsed T0: seconds since T0 (from `date +%s'), e.g. "12 s".
elapsed() { echo $(( $(date +%s) - $1 )) s; }

# ptime SIMDIR: the predicted time of a simulation, in ps.
ptime() {
	tr -d '\n' <"$1/summary.json" |
		grep -o '"predicted_time_ps": *[0-9]*' | sed 's/.*: *//'
}

# study_sibylcc SRC OUT: compile an MPI program for the emulator.  Uses
# $SIBYLCC, else the wrapper of this source tree's build (headers and
# library from the tree, not installed), else `sibylcc' on the PATH.
study_sibylcc() {
	if [ -n "${SIBYLCC:-}" ]; then
		"$SIBYLCC" -O2 "$1" -o "$2"
	elif [ -x "$here/../../build/emulator/sibylcc" ]; then
		SIBYLCC_INCDIR=$here/../../emulator/include \
		SIBYLCC_LIBDIR=$here/../../build \
			"$here/../../build/emulator/sibylcc" -O2 "$1" -o "$2"
	else
		sibylcc -O2 "$1" -o "$2"
	fi
}

# study_parallel J FILE: run each line of FILE as a shell command, J at a
# time (the simulations of a study are independent: one per core).  The
# lines see $sibyl exported.  Fails when any command failed.
study_parallel() {
	SIBYL_STUDY_DRIVER=$sibyl
	export SIBYL_STUDY_DRIVER
	tr '\n' '\0' <"$2" |
		xargs -0 -P "$1" -n 1 sh -c 'sibyl=$SIBYL_STUDY_DRIVER; eval "$1"' sh ||
		{ echo "$study: a simulation failed (commands in $2)" >&2; return 1; }
}

# study_run FILE [WHAT]: run the simulations listed in FILE (see
# study_parallel) $jobs at a time, saying how many (and WHAT they are)
# and how long they took.
study_run() {
	echo "== $(wc -l <"$1") simulations${2:+ $2} ($jobs at a time)"
	_t=$(date +%s)
	study_parallel "$jobs" "$1"
	echo "   $(elapsed "$_t")"
}

# study_plot BASE: draw the gnuplot script read from stdin twice, as
# BASE.png and BASE.svg (the script must not set terminal or output).
# Without gnuplot, says so and returns 0: the CSV and the report remain.
study_plot() {
	if ! command -v gnuplot >/dev/null 2>&1; then
		echo "(gnuplot not installed: no $(basename "$1").png/.svg; apt-get install gnuplot-nox)"
		cat >/dev/null
		return 0
	fi
	_gp=$(cat)
	for _f in png svg; do
		if [ $_f = png ]; then _t="pngcairo size 900,600 noenhanced"
		else _t="svg size 900,600 noenhanced"; fi
		printf 'set terminal %s\nset output "%s.%s"\n%s\n' "$_t" "$1" $_f "$_gp" |
			gnuplot || { echo "$study: gnuplot failed for $1.$_f" >&2; return 1; }
	done
	echo "plots: $1.png $1.svg"
}
