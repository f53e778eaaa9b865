#!/bin/sh
# The proxy applications in examples/ (stencil3d, alltoall, md, cg, and
# kneighbor -a): each built with sibylcc and emulated on 1 and 2
# processes, and built with Open MPI's mpicc and run natively when there
# is one, must print the same result line (lines starting with "time:"
# are timings and differ); their traces pass `sibyl trace check' and
# replay in `sibyl sim'.  Beyond agreeing with each other:
#  - stencil3d, md and cg compute the same global problem whatever the
#    decomposition, so a run on many ranks must print what the run on one
#    rank (a sequential reference) prints;
#  - the traces hold exactly the messages the programs must send (faces of
#    n^2 doubles to the 3 or 6 neighbours, halos, coordinates and forces),
#    and the SEB names the programs give;
#  - results do not depend on the collective algorithm (--coll), since the
#    programs' sums are exact;
#  - cg with a tolerance reaches it, and alltoall finds no wrong byte.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"
native=0
command -v mpicc >/dev/null && command -v mpirun >/dev/null && native=1
[ "$native" = 1 ] || echo "mpicc/mpirun not found: emulated runs only" >&2
EX="$SIBYL_SRCDIR/examples"

# build NAME: sibylcc into $T/NAME, mpicc into $T/NAME.native
build() {
	emu_build "$1" "$EX/$1.c" -Wall || return 1
	[ "$native" = 1 ] || return 0
	checks=$((checks + 1))
	if ! mpicc -O1 -Wall "$EX/$1.c" -o "$T/$1.native" -lm \
		>"$T/build.err" 2>&1; then
		fail "mpicc could not build $1.c"
		sed 's/^/  | /' "$T/build.err" | head -20 >&2
		return 1
	fi
}

# run [--emu "OPTIONS"] NAME RANKS ARGS...: emulate on 1 and 2 processes
# (1 only for 1 rank) and natively; all must print one and the same result
# line, left in $res.  The trace of the last emulation is $T/NAME.trace.
# With --emu (options of sibyl emulate, e.g. --coll) only emulated, on 2
# processes.
run() {
	emuopts=
	if [ "$1" = --emu ]; then
		emuopts=$2
		shift 2
	fi
	name=$1 n=$2
	shift 2
	res=
	tr="$T/$name.trace"
	what="$name $*${emuopts:+ (emulated with $emuopts)}"
	for np in 1 2; do
		[ "$np" -le "$n" ] || continue
		[ -z "$emuopts" ] || [ "$np" = 2 ] || continue
		checks=$((checks + 1))
		if [ -n "$emuopts" ]; then
			# shellcheck disable=SC2086 # options, split
			"$SIBYL" emulate -q --ranks "$n" -np "$np" -o "$tr" \
				--force $emuopts -- "$T/$name" "$@" \
				>"$T/out" 2>"$T/err"
			emu_status=$?
		else
			emu_run "$np" "$n" "$tr" "$T/$name" "$@"
		fi
		if [ "$emu_status" -ne 0 ]; then
			fail "$what: the emulation on $n ranks, $np" \
				"process(es) failed"
			sed 's/^/  | /' "$T/err" | head >&2
			continue
		fi
		line=$(grep -v '^time:' "$T/out")
		if [ -z "$line" ] || [ "$(echo "$line" | wc -l)" -ne 1 ]; then
			fail "$what: no single result line on $np process(es)"
			sed 's/^/  | /' "$T/out" | head >&2
		elif [ -z "$res" ]; then
			res=$line
		elif [ "$line" != "$res" ]; then
			fail "$what: on $np processes it printed something" \
				"else than on 1:"
			printf '  1: %s\n  %s: %s\n' "$res" "$np" "$line" >&2
		fi
		expect_ok "$SIBYL" trace check "$tr"
		expect_ok "$SIBYL" sim -q "$tr" -o "$T/$name.sim" --force
	done
	[ "$native" = 1 ] && [ -z "$emuopts" ] || return 0
	checks=$((checks + 1))
	if ! mpirun --allow-run-as-root --oversubscribe -np "$n" \
		"$T/$name.native" "$@" >"$T/native.out" 2>"$T/err"; then
		fail "$what: did not run natively on $n ranks"
		sed 's/^/  | /' "$T/err" | head >&2
		return
	fi
	line=$(grep -v '^time:' "$T/native.out")
	[ "$line" = "$res" ] || {
		fail "$what: native and emulated runs differ:"
		printf '  native:   %s\n  emulated: %s\n' "$line" "$res" >&2
	}
}

# same A B WHAT: the result lines A and B, without the fields that name
# the decomposition, must be equal.
strip() {
	f='ranks|procs|n|local|per_rank|pme_ranks|pencils'
	echo "$1" | sed -E "s/ ($f)=[^ ]*//g"
}
same() {
	checks=$((checks + 1))
	[ -n "$1" ] && [ "$(strip "$1")" = "$(strip "$2")" ] || {
		fail "$3 differ:"
		printf '  %s\n  %s\n' "$1" "$2" >&2
	}
}

# sends TRACE BYTES WANT WHAT: TRACE has exactly WANT messages of BYTES.
sends() {
	checks=$((checks + 1))
	got=$("$SIBYL" trace dump "$1" | grep -c -E -- "-> [0-9]+  $2 B ")
	[ "$got" -eq "$3" ] || fail "$4: $got messages of $2 bytes in the" \
		"trace, expected $3"
}

# names TRACE NAME...: PE 0 of TRACE has SEBs with these names.
names() {
	tr=$1
	shift
	"$SIBYL" trace dump --pe 0 "$tr" >"$T/dump" 2>&1
	for nm; do
		expect_grep "^pe 0 seb [0-9]+ \"$nm\"" "$T/dump"
	done
}

# field LINE NAME: the value of NAME=... in LINE
field() {
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# ---------------------------------------------------------- kneighbor -a
if build kneighbor; then
	run kneighbor 8 2048 4 2 50
	plain=$res
	run kneighbor 8 -a 2048 4 2 50
	checks=$((checks + 1))
	case $res in
	*" allreduce=1 checksum="*)
		a=$(field "$res" checksum) b=$(field "$plain" checksum)
		[ "$a" != "$b" ] ||
			fail "kneighbor -a: the allreduce changed nothing"
		;;
	*) fail "kneighbor -a: no allreduce=1 in '$res'" ;;
	esac
	case $plain in
	*allreduce*) fail "kneighbor without -a mentions an allreduce" ;;
	esac
	names "$T/kneighbor.trace" kneighbor_compute MPI_Allreduce
	ref=$res
	for alg in recursive_doubling rabenseifner ring reduce_bcast; do
		run --emu "--coll allreduce=$alg" kneighbor 8 -a 2048 4 2 50
		same "$ref" "$res" "kneighbor -a with allreduce=$alg"
	done
fi

# ------------------------------------------------------------- stencil3d
if build stencil3d; then
	for p in "" -p; do
		run stencil3d 8 -n 4 -i 3 $p
		par=$res
		# faces of 4 x 4 doubles to the 3 neighbours of each rank of a
		# 2x2x2 grid, to 6 when periodic, every iteration
		nb=3
		[ -n "$p" ] && nb=6
		sends "$T/stencil3d.trace" 128 $((8 * nb * 3)) \
			"stencil3d -n 4 -i 3 $p"
		names "$T/stencil3d.trace" stencil_compute MPI_Allreduce
		run stencil3d 1 -n 8 -i 3 $p
		same "$par" "$res" "stencil3d $p on 8 ranks (-n 4) and 1 (-n 8)"
	done
	run stencil3d 12 -n 3 -i 4 -r 2 -g 3x2x0
	checks=$((checks + 1))
	[ "$(field "$res" procs)" = 3x2x2 ] || fail "stencil3d -g 3x2x0: $res"
	# declared mode: faces of the given size, nothing else sized so
	run stencil3d 8 -d -n 64 -f 100 -i 2 -p
	sends "$T/stencil3d.trace" 100 $((8 * 6 * 2)) "stencil3d -d -f 100"
	# an option without its effect is an error
	emu_run 1 2 "$T/bad.trace" "$T/stencil3d" -f 100
	checks=$((checks + 1))
	[ "$emu_status" -ne 0 ] && grep -q -- "-f (face bytes) needs -d" \
		"$T/err" || fail "stencil3d -f without -d was accepted"
fi

# -------------------------------------------------------------- alltoall
if build alltoall; then
	run alltoall 8 -b 1000 -i 3
	a2a=$res
	case $res in
	*" errors=0") ;;
	*) fail "alltoall: errors: $res" ;;
	esac
	names "$T/alltoall.trace" alltoall_fill alltoall_check
	for alg in pairwise bruck linear percs; do
		run --emu "--coll alltoall=$alg" alltoall 8 -b 1000 -i 3
		same "$a2a" "$res" "alltoall with alltoall=$alg"
	done
	# the PERCS ordering over nodes of 4 ranks (2 nodes)
	run --emu "--coll alltoall=percs --node-size 4" alltoall 8 -b 1000 -i 3
	same "$a2a" "$res" "alltoall with alltoall=percs, nodes of 4"
	run alltoall 12 -v -b 37 -i 2 -g 5 -c 10
	a2a=$res
	case $res in
	*" op=alltoallv "*" errors=0") ;;
	*) fail "alltoall -v: $res" ;;
	esac
	for alg in pairwise linear percs; do
		run --emu "--coll alltoallv=$alg" \
			alltoall 12 -v -b 37 -i 2 -g 5 -c 10
		same "$a2a" "$res" "alltoall -v with alltoallv=$alg"
	done
fi

# -------------------------------------------------------------------- md
if build md; then
	run md 8 -s 3 -k 2
	par=$res
	# 13 coordinate and 13 force messages of 8 atoms (192 bytes) per
	# patch and step
	sends "$T/md.trace" 192 $((8 * 26 * 3)) "md -s 3 -k 2"
	names "$T/md.trace" md_force md_integrate pme_spread pme_fft \
		pme_force
	# Every code region begins and ends at the program's own call sites
	# (md.c), never inside the emulator (an MPI call built on another
	# one, such as MPI_Comm_split, once ended its SEB in comm.c).
	checks=$((checks + 1))
	"$SIBYL" trace stats --regions --top 0 "$T/md.trace" >"$T/regions" \
		2>&1 || fail "sibyl trace stats --regions md.trace"
	grep -E '\((comm|p2p|coll|coll_alg|topo|runtime|rma|datatype|op)\.c:' \
		"$T/regions" >&2 && fail "a region of md ends inside the emulator"
	for alg in pairwise bruck; do
		run --emu "--coll alltoall=$alg" md 8 -s 3 -k 2
		same "$par" "$res" "md with alltoall=$alg"
	done
	run md 2 -s 3 -k 2 -p 4
	same "$par" "$res" "md on 8 ranks (-p 1) and 2 (-p 4)"
	run md 1 -s 3 -k 2 -p 8
	same "$par" "$res" "md on 8 ranks (-p 1) and 1 (-p 8)"
	run md 12 -s 2 -k 1 -n 6 -a 5 -g 3 -m 5
	par=$res
	checks=$((checks + 1))
	[ "$(field "$res" pme_ranks)" -le 5 ] || fail "md -m 5: $res"
	run md 3 -s 2 -k 1 -n 6 -a 5 -g 3 -p 4
	same "$par" "$res" "md -n 6 on 12 ranks (-p 1) and 3 (-p 4)"
	# Energy is conserved without PME (applied every K steps only, it
	# would kick): 0.3% drift over 200 steps; a force lost on the way
	# back to its patch makes 5%.
	run md 8 -s 1 -k 0
	e1=$res
	run md 8 -s 200 -k 0
	checks=$((checks + 1))
	awk -v a="$(field "$e1" elj)" -v b="$(field "$e1" ekin)" \
		-v c="$(field "$res" elj)" -v d="$(field "$res" ekin)" \
		'BEGIN { e = a + b; f = c + d; r = (f - e) / e
			 exit !(e != 0 && r < 0.01 && r > -0.01) }' ||
		fail "md does not conserve energy: '$e1' then '$res'"
	run md 8 -d -a 4 -g 1 -s 2
fi

# -------------------------------------------------------------------- cg
if build cg; then
	run cg 16 -l 2x2x2x2 -i 6
	par=$res
	# 8 halos of 8 sites x 6 doubles per product; 6 products + 1
	sends "$T/cg.trace" 384 $((16 * 8 * 7)) "cg -l 2x2x2x2 -i 6"
	names "$T/cg.trace" cg_halo cg_matvec cg_update MPI_Allreduce
	run cg 1 -l 4x4x4x4 -i 6
	same "$par" "$res" "cg on 16 ranks (2x2x2x2) and 1 (4x4x4x4)"
	for alg in recursive_doubling rabenseifner ring reduce_bcast; do
		run --emu "--coll allreduce=$alg" cg 16 -l 2x2x2x2 -i 6
		same "$par" "$res" "cg with allreduce=$alg"
	done
	run cg 8 -l 2x3x4 -c 2 -m 0.5 -t 1e-9 -i 500
	checks=$((checks + 1))
	awk -v r="$(field "$res" residual)" \
		-v t="$(field "$res" true_residual)" \
		-v i="$(field "$res" iters)" \
		'BEGIN { exit !(r <= 1e-9 && t < 2e-9 && i > 1 && i < 500) }' ||
		fail "cg -t 1e-9 did not converge: $res"
	run cg 8 -d -l 4x4x3x6 -f 64 -i 2
fi
finish
