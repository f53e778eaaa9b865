#!/bin/sh
# The collectives (tests/emu/coll_*.c) under the emulator.
#
# Every program checks itself against references computed on each rank
# and prints PASS.  coll_data (every collective, every root, in place and
# not) runs under every algorithm of every collective (the `--coll'
# settings below cover them all), on 1, 2, 3, 5, 8 and 12 ranks, on 1
# and on 3 processes; the operations program runs under every setting on
# 2, 5 and 12 ranks, the non-blocking, sub-communicator and datatype ones
# on 5 and 12.  Some traces must pass `sibyl trace check' and replay in
# `sibyl sim'.  The trace of a 64-rank alltoall must show rank 0's and
# rank 9's sends in the order pairwise exchange and the PERCS-aware
# schedule give.  Bad SIBYL_COLL values and argument errors must be
# reported clearly.  With Open MPI's mpicc and mpirun at hand, every
# program also runs natively, which checks the programs' own references.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

# One algorithm per collective per setting; with `default' (the
# size-based choice) every algorithm appears at least once.
s1=barrier=dissemination,bcast=binomial,reduce=binomial
s1=$s1,allreduce=recursive_doubling,scan=recursive_doubling
s1=$s1,exscan=recursive_doubling,gather=binomial,scatter=binomial
s1=$s1,allgather=recursive_doubling,allgatherv=recursive_doubling
s1=$s1,alltoall=pairwise,alltoallv=pairwise,alltoallw=pairwise
s1=$s1,reduce_scatter=recursive_halving
s1=$s1,reduce_scatter_block=recursive_halving
s2=barrier=recursive_doubling,bcast=scatter_allgather,reduce=linear
s2=$s2,allreduce=rabenseifner,scan=linear,exscan=linear,gather=linear
s2=$s2,gatherv=linear,scatter=linear,scatterv=linear,allgather=ring
s2=$s2,allgatherv=ring,alltoall=bruck,alltoallv=linear,alltoallw=linear
s2=$s2,reduce_scatter=reduce_scatterv
s2=$s2,reduce_scatter_block=reduce_scatterv
s3=barrier=tree,bcast=linear,reduce=rabenseifner,allreduce=ring
s3=$s3,allgather=bruck,allgatherv=bruck,alltoall=linear
s3=$s3,alltoallv=percs,alltoallw=percs
s4=allreduce=reduce_bcast,alltoall=percs

# coll_run NP RANKS SETTING TRACE PROG ARGS...: like emu_run, with the
# setting's --coll (none for `default') and 4-rank nodes (percs).
coll_run() {
	np=$1 ranks=$2 setting=$3 trace=$4
	shift 4
	if [ "$setting" = default ]; then
		set -- --node-size 4 -- "$@"
	else
		set -- --coll "$setting" --node-size 4 -- "$@"
	fi
	"$SIBYL" emulate -q --ranks "$ranks" -np "$np" -o "$trace" --force \
		"$@" >"$T/out" 2>"$T/err" </dev/null
	emu_status=$?
}

# expect_pass NAME WHAT: the last run printed PASS NAME and exited 0.
expect_pass() {
	checks=$((checks + 1))
	if [ "$emu_status" -ne 0 ] || ! grep -q "^PASS $1\$" "$T/out"; then
		fail "$1 $2: exit status $emu_status"
		sed 's/^/  | /' "$T/out" "$T/err" | head -20 >&2
		return 1
	fi
}

# run_matrix NAME SIZES: NAME under every setting, each size on 1
# process and (3 ranks or more) on 3; stops at its first failure.  In a
# sanitizer build (where an emulation takes 3 to 9 s), sizes of 3 ranks or
# more run on 3 processes only: every algorithm still runs on every size,
# with peers both in the same process and in others, and the matrix takes
# half the time.
printf '%s\n' default "$s1" "$s2" "$s3" "$s4" >"$T/settings"
run_matrix() {
	name=$1 sizes=$2
	while read -r setting; do
		for n in $sizes; do
			for np in 1 3; do
				[ "$np" -gt "$n" ] && continue
				[ -n "${SIBYL_SANITIZED-}" ] && [ "$np" = 1 ] &&
					[ "$n" -ge 3 ] && continue
				coll_run $np $n "$setting" "$T/$name.trace" \
					"$T/$name"
				expect_pass "$name" "on $n ranks, $np \
process(es), --coll $setting" || return 0
			done
		done
	done <"$T/settings"
}

for name in coll_data coll_ops coll_nb coll_comm coll_dt coll_errors \
	    coll_trace; do
	emu_build "$name" "$SIBYL_SRCDIR/tests/emu/$name.c" || exit 1
done

run_matrix coll_data "1 2 3 5 8 12"
run_matrix coll_ops "2 5 12"
for name in coll_nb coll_comm coll_dt; do
	run_matrix "$name" "5 12"
done

# Traces of collectives are valid and replay.
for name in coll_data coll_nb coll_comm; do
	tr="$T/$name.replay.trace"
	emu_run 3 12 "$tr" "$T/$name"
	expect_pass "$name" "for the replay" || continue
	expect_ok "$SIBYL" trace check "$tr"
	expect_ok "$SIBYL" sim -q "$tr" -o "$T/$name.sim"
	expect_grep '"predicted_time_ps"' "$T/$name.sim/summary.json"
done

# Argument errors: returned under MPI_ERRORS_RETURN, fatal by default.
for n in 1 5; do
	emu_run 1 $n "$T/err.trace" "$T/coll_errors"
	expect_pass coll_errors "on $n ranks"
done
emu_run 1 3 "$T/err.trace" "$T/coll_errors" fatal
checks=$((checks + 1))
[ "$emu_status" -ne 0 ] || fail "coll_errors fatal: exit status 0"
msg='rank [0-9]+ in MPI_Bcast: MPI_ERR_ROOT: root 3 is not a rank of'
expect_grep "$msg MPI_COMM_WORLD \\(size 3\\)" "$T/err"

# Bad algorithm choices stop the run before any rank starts, naming what
# is valid; directly (SIBYL_COLL) and through `sibyl emulate --coll'.
SIBYL_COLL=allreduce=foo SIBYL_RANKS=2 SIBYL_TRACE="$T/bad.trace" \
	expect_exit 3 "$T/coll_trace"
algs="recursive_doubling, rabenseifner, ring, reduce_bcast, default"
expect_grep "SIBYL_COLL=allreduce=foo: unknown algorithm .foo. for \
allreduce; its algorithms are $algs" "$T/err"
SIBYL_COLL=allreduc=ring SIBYL_RANKS=2 SIBYL_TRACE="$T/bad.trace" \
	expect_exit 3 "$T/coll_trace"
names="barrier, bcast, reduce, allreduce, scan, exscan, gather, gatherv,"
names="$names scatter, scatterv, allgather, allgatherv, alltoall,"
names="$names alltoallv, alltoallw, reduce_scatter, reduce_scatter_block"
expect_grep "unknown collective .allreduc.; the collectives are $names" \
	"$T/err"
expect_exit 1 "$SIBYL" emulate -q --ranks 2 -o "$T/bad.trace" --force \
	--coll alltoall=percs,bcast=ring -- "$T/coll_trace"
expect_grep "unknown algorithm .ring. for bcast" "$T/err"

# The message schedule of a 64-rank alltoall on 8-rank nodes: the
# destinations of rank `me''s sends, one line per round (SEB), from the
# trace and from the algorithm's definition.
sends_of() { # TRACE PE
	"$SIBYL" trace dump --pe "$2" "$1" | awk '
	/^pe / { if (g != "") print g; g = "" }
	$1 == "send" {
		for (k = 1; k <= NF; k++) {
			if ($k == "->") d = $(k + 1)
			if ($k == "tag") tg = $(k + 1) + 0
		}
		if (tg >= 0 && tg < 32000)
			g = g (g == "" ? "" : " ") d
	}
	END { if (g != "") print g }'
}
expected() { # ALG P NODE_SIZE ME
	awk -v alg="$1" -v P="$2" -v ns="$3" -v me="$4" '
	function xor(a, b,   r, bit) {
		r = 0
		for (bit = 1; a > 0 || b > 0; bit *= 2) {
			if ((a % 2) != (b % 2)) r += bit
			a = int(a / 2); b = int(b / 2)
		}
		return r
	}
	BEGIN {
		if (alg == "pairwise") {
			for (i = 1; i < P; i++) print xor(me, i)
			exit
		}
		n = int((P + ns - 1) / ns); a = int(me / ns); j = me % ns
		for (i = 0; i < n; i++) {
			d = (j + i) % n
			cores = P - d * ns < ns ? P - d * ns : ns
			g = ""
			for (k = 0; k < cores; k++) {
				dst = d * ns + (j + k) % cores
				if (dst != me) g = g (g == "" ? "" : " ") dst
			}
			if (g != "") print g
		}
	}'
}
for alg in pairwise percs; do
	tr="$T/a2a.$alg.trace"
	checks=$((checks + 1))
	"$SIBYL" emulate -q --ranks 64 -np 2 --coll alltoall=$alg \
		--node-size 8 -o "$tr" --force -- "$T/coll_trace" \
		>"$T/out" 2>"$T/err"
	emu_status=$?
	expect_pass coll_trace "64 ranks, alltoall=$alg" || continue
	for me in 0 9; do
		checks=$((checks + 1))
		sends_of "$tr" $me >"$T/got.$alg.$me"
		expected $alg 64 8 $me >"$T/want.$alg.$me"
		if ! cmp -s "$T/got.$alg.$me" "$T/want.$alg.$me"; then
			fail "alltoall=$alg: rank $me's sends per round differ \
from the algorithm (< trace, > expected)"
			diff "$T/got.$alg.$me" "$T/want.$alg.$me" | head -10 >&2
		fi
	done
done
# The two schedules differ: pairwise sends one message per round, percs
# one node's worth (rank 0: 63 rounds against 8).
checks=$((checks + 1))
if [ "$(wc -l <"$T/got.pairwise.0")" -ne 63 ] ||
   [ "$(wc -l <"$T/got.percs.0")" -ne 8 ]; then
	fail "rank 0's rounds: pairwise $(wc -l <"$T/got.pairwise.0"), \
percs $(wc -l <"$T/got.percs.0"); want 63 and 8"
fi

# Natively with Open MPI: the programs' references are right.
mpicc=${MPICC:-mpicc}
mpirun=${MPIRUN:-mpirun}
if command -v "$mpicc" >/dev/null 2>&1 &&
   command -v "$mpirun" >/dev/null 2>&1; then
	for name in coll_data coll_ops coll_nb coll_comm coll_dt \
		    coll_errors coll_trace; do
		checks=$((checks + 1))
		if ! "$mpicc" -O1 -I"$SIBYL_SRCDIR/tests/emu" \
			"$SIBYL_SRCDIR/tests/emu/$name.c" \
			-o "$T/$name.native" >"$T/build.err" 2>&1; then
			fail "mpicc could not build $name"
			sed 's/^/  | /' "$T/build.err" | head -10 >&2
			continue
		fi
		for n in 1 3 5; do
			"$mpirun" --oversubscribe -np $n "$T/$name.native" \
				>"$T/out" 2>"$T/err" </dev/null
			emu_status=$?
			if grep -q "^SKIP $name" "$T/out"; then
				emu_status=0
				continue
			fi
			expect_pass "$name" "natively on $n processes"
		done
	done
else
	echo "$test_name: no mpicc/mpirun: native reference runs skipped" >&2
fi
finish
