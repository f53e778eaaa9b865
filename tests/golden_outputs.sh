#!/bin/sh
# golden_outputs.sh -- the outputs of a fixed set of runs, byte for byte.
#
# A safety net for changes that must not change behaviour (refactors of
# the libraries, the build or the command line): 8 generated traces
# simulated on the simple, torus and PERCS models with timelines, link
# series, a mapping, noise and replacement rules, and 4 emulated
# examples with --cpu-factor 0 (declared compute only, so nothing of the
# host's speed is in them).  For every run the test hashes what Sibyl
# wrote: the trace as `sibyl trace dump' prints it, summary.json without
# the four nondeterministic simulator figures (docs/outputs.md) and the
# paths and version, summary.txt without its trace, simulator and
# version lines, and every other output file.  The hashes are below; a
# change of any output fails the test and names the file.
#
# A change that is meant to change outputs (a model, a format, the
# wording of the summary) updates the hashes: run
#     GOLDEN_UPDATE=1 make check TESTS=tests/golden_outputs.sh
# and paste the lines printed in tests/golden_outputs.tmp/golden.new
# over the table at the end of this file, saying why in the commit.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/emulib.sh"

G="$T/golden.new"
: >"$G"

# record NAME FILE: the hash of FILE under NAME, with the scratch
# directory's path (which outputs name) written as $T.
record() {
	printf '%s %s\n' "$1" \
		"$(sed "s|$T|\$T|g" "$2" | sha256sum | cut -c1-16)" >>"$G"
}

# record_trace NAME TRACE
record_trace() {
	checks=$((checks + 1))
	if ! "$SIBYL" trace dump "$2" >"$T/dump" 2>"$T/err"; then
		fail "sibyl trace dump $2 failed: $(head -3 "$T/err")"
		return
	fi
	record "$1/trace" "$T/dump"
}

# record_sim NAME DIR: the files of a simulation's output directory.
record_sim() {
	name=$1 dir=$2
	python3 - "$dir/summary.json" >"$T/summary" <<'EOF' ||
import json, sys
s = json.load(open(sys.argv[1]))
for k in ("sibyl_version", "trace"):
    s.pop(k, None)
for k in ("wall_s", "events_per_s", "network_events_per_s",
          "peak_rss_bytes"):
    s["simulator"].pop(k, None)
print(json.dumps(s, sort_keys=True, indent=1))
EOF
		fail "$dir/summary.json does not read as JSON"
	record "$name/summary.json" "$T/summary"
	grep -v -E '^(trace|simulator|sibyl) ' "$dir/summary.txt" |
		grep -v -i 'version' >"$T/summary"
	record "$name/summary.txt" "$T/summary"
	# Every file but the summaries and the marker of an output
	# directory (.sibyl-output, bookkeeping in the order of readdir).
	for f in $(cd "$dir" && find . -type f ! -name '.*' |
		   sed 's|^\./||' | LC_ALL=C sort |
		   grep -v -E '^summary\.(json|txt)$'); do
		grep -v -i -E 'version|sibyl [0-9]' "$dir/$f" >"$T/file"
		record "$name/$f" "$T/file"
	done
}

# sim NAME TRACE ARGS...: simulate and record.
sim() {
	name=$1 trace=$2
	shift 2
	expect_ok "$SIBYL" sim "$trace" -o "$T/$name.sim" -q "$@"
	[ -f "$T/$name.sim/summary.json" ] && record_sim "$name" "$T/$name.sim"
}

# gen NAME ARGS...: generate a trace and record it.
gen() {
	name=$1
	shift
	expect_ok "$SIBYL" trace gen -o "$T/$name.trace" "$@"
	record_trace "$name" "$T/$name.trace"
}

# ------------------------------------------------------ generated traces
gen pingpong -p pingpong -r 2 -i 10 -s 4KiB
sim pingpong "$T/pingpong.trace"
sim pingpong-o "$T/pingpong.trace" --set net.o=300ns --set net.g=1us \
	--set net.latency=2us

gen ring -p ring -r 64 -i 5 -c 200us
sim ring "$T/ring.trace" --set machine.cores_per_node=8 --set net.model=torus \
	--timeline chrome,projections --timeline-pes 0-7

gen kneighbor -p kneighbor -r 256 -i 5 --allreduce --jitter 0.2 --seed 3 \
	-c 100us
mkdir "$T/noise" && printf '0 1ms 20us 0us\n1 100us 1us 5us\n' >"$T/noise/cores"
sim kneighbor "$T/kneighbor.trace" --set machine.cores_per_node=32 \
	--set net.model=percs --noise "$T/noise"

gen stencil3d -p stencil3d -r 512 -i 4 -s 8KiB -c 50us
expect_ok "$SIBYL" map -r 512 --cores-per-node 16 --order blocked \
	--grid 8,8,8 --block 4,2,2 -o "$T/blocked.map"
sim stencil3d "$T/stencil3d.trace" --set machine.cores_per_node=16 \
	--set net.model=torus --map "$T/blocked.map" --link-trace 20us

gen alltoall -p alltoall -r 64 -i 2 -s 16KiB -c 10us
sim alltoall "$T/alltoall.trace" --set machine.cores_per_node=8 \
	--set net.model=percs --skip

gen allreduce -p allreduce -r 128 -i 5 -c 20us
sim allreduce "$T/allreduce.trace" --cpu-factor 0.5 \
	--replace 'seb:compute=35us'

gen random -p random -r 256 -i 3 --fanout 4 --seed 7 -s 2KiB
sim random "$T/random.trace" --set machine.cores_per_node=4 \
	--set net.model=torus --iters 1..2

gen transpose -p transpose -r 256 -s 64KiB
sim transpose "$T/transpose.trace" --set machine.cores_per_node=32 \
	--set net.model=percs

# ------------------------------------------------------ emulated examples
# Two processes, declared compute only.
emulate() {
	name=$1 src=$2
	shift 2
	emu_build "$name" "$SIBYL_SRCDIR/examples/$src" || return
	ranks=$1 trace=$2
	shift 2
	checks=$((checks + 1))
	"$SIBYL" emulate -q --ranks "$ranks" -np 2 --cpu-factor 0 \
		-o "$trace" --force -- "$@" >"$T/out" 2>"$T/err"
	emu_status=$?
	if [ "$emu_status" -ne 0 ]; then
		fail "sibyl emulate of $src exited $emu_status"
		sed 's/^/  | /' "$T/err" | head -20 >&2
		return
	fi
	record "$name/stdout" "$T/out"
	record_trace "$name" "$T/$name.trace"
	sim "$name" "$T/$name.trace" --set machine.cores_per_node=4
}
emulate pingpong-emu pingpong.c 2 "$T/pingpong-emu.trace" \
	"$T/pingpong-emu" 8 1024
emulate ring-emu ring.c 16 "$T/ring-emu.trace" "$T/ring-emu"
emulate kneighbor-emu kneighbor.c 64 "$T/kneighbor-emu.trace" \
	"$T/kneighbor-emu"
emulate md-emu md.c 64 "$T/md-emu.trace" "$T/md-emu" -d -a 4 -g 2 -s 5

# ------------------------------------------------------ the comparison
if [ -n "${GOLDEN_UPDATE:-}" ]; then
	echo "golden_outputs: the new table is in $G" >&2
fi
sed -n '/^# --- golden table ---$/,$p' "$0" | grep -v '^#' >"$T/golden.want"
checks=$((checks + 1))
if ! diff "$T/golden.want" "$G" >"$T/golden.diff"; then
	fail "outputs differ from the golden table (< expected, > now):"
	sed 's/^/  /' "$T/golden.diff" | head -40 >&2
fi
finish
# --- golden table ---
pingpong/trace 21c463a3ab8aa8ea
pingpong/summary.json f7d8a784e2ffb934
pingpong/summary.txt 19fd11c34c044b70
pingpong/link_classes.csv 02598350019b00a3
pingpong/links.csv 96273d9535064b00
pingpong/machine.conf fc8c47bf6d04e4cb
pingpong/prints.txt e3b0c44298fc1c14
pingpong-o/summary.json 597105e7485319ab
pingpong-o/summary.txt ff1e63ce9496078d
pingpong-o/link_classes.csv 2af7354f376098a5
pingpong-o/links.csv 1459424987186bce
pingpong-o/machine.conf d0ae4a050e19ab02
pingpong-o/prints.txt e3b0c44298fc1c14
ring/trace 1dbe9452248ea318
ring/summary.json 4471daf94b2571ba
ring/summary.txt a9fa354bd4cc379c
ring/link_classes.csv e0d925eff34a8632
ring/links.csv aa8314d3087b9df7
ring/machine.conf 4b3c86bf36fa9cb5
ring/prints.txt e3b0c44298fc1c14
ring/projections/sibyl.0.log 8a46ce81708a8e69
ring/projections/sibyl.1.log 95367b40a6205488
ring/projections/sibyl.2.log 188caed0e6035b75
ring/projections/sibyl.3.log 47b4ebaaa8fc81af
ring/projections/sibyl.4.log 773c5f6352bee15e
ring/projections/sibyl.5.log a50ef29c2892f6f9
ring/projections/sibyl.6.log 7e3cfb3a5cc7ce9a
ring/projections/sibyl.7.log 528649f04579ad78
ring/projections/sibyl.sts 613be98b22d038c0
ring/timeline.json cc3c53430a0b8b73
kneighbor/trace 477a4da4b386bbff
kneighbor/summary.json 6d82cc5b6d302c6c
kneighbor/summary.txt f8c4dd904ce234c0
kneighbor/link_classes.csv c1a1838eb7ef7734
kneighbor/links.csv 34c58a03e1870b34
kneighbor/machine.conf 7ac2b4d878c324cd
kneighbor/prints.txt e3b0c44298fc1c14
stencil3d/trace 28c5973985d652ff
stencil3d/summary.json f1eb030fbb893b71
stencil3d/summary.txt c10898708125f9fe
stencil3d/link_classes.csv 42e7ba1a36ea05b7
stencil3d/links.csv 210029e20c9f02e9
stencil3d/linkseries.csv 596271e5500e22c7
stencil3d/machine.conf 7ec27a64c699f26b
stencil3d/prints.txt e3b0c44298fc1c14
alltoall/trace cec080ace5b28eee
alltoall/summary.json 8ec39f36d977e342
alltoall/summary.txt 2d98e51988eb6a2a
alltoall/link_classes.csv d6337feb51d9f519
alltoall/links.csv 7b9ead066cbd5605
alltoall/machine.conf f1c650be9fb36054
alltoall/prints.txt e3b0c44298fc1c14
allreduce/trace cfc1cd613c8d1057
allreduce/summary.json b75b224b5e24f48e
allreduce/summary.txt 586774bb396e6877
allreduce/link_classes.csv 9c11b1cf7e941031
allreduce/links.csv 7170268dae58557a
allreduce/machine.conf e69ffc9bc2bda407
allreduce/prints.txt e3b0c44298fc1c14
random/trace 3a982122822789e2
random/summary.json 40644fd0e0d3a3da
random/summary.txt 30cc52760ea397ba
random/link_classes.csv 9eed58fed5cfbba0
random/links.csv 011cda978572494e
random/machine.conf 5f473a7cf24c2750
random/prints.txt e3b0c44298fc1c14
transpose/trace 03403f23b85f485e
transpose/summary.json bd7c170f64cd1822
transpose/summary.txt 9bd4104f93706f77
transpose/link_classes.csv 6354745f904033c6
transpose/links.csv 26bd94385b3ab429
transpose/machine.conf 469549d7bc717ef1
transpose/prints.txt e3b0c44298fc1c14
pingpong-emu/stdout d15319df813bb3bc
pingpong-emu/trace 66ac9e6bbc2c3df8
pingpong-emu/summary.json 2f1643aee11892b0
pingpong-emu/summary.txt a3e0d7a802000313
pingpong-emu/link_classes.csv fd9c8b3dabd2d484
pingpong-emu/links.csv 39d8b951e134f896
pingpong-emu/machine.conf a5b38427b3c21980
pingpong-emu/prints.txt e3b0c44298fc1c14
ring-emu/stdout b65939fc7767bb1e
ring-emu/trace ea4d9695ed427105
ring-emu/summary.json eb623fde8c3c6b37
ring-emu/summary.txt 84ba8471f60c285c
ring-emu/link_classes.csv 89bfa5c87ce1c283
ring-emu/links.csv 2268ac00ecaabea9
ring-emu/machine.conf a5b38427b3c21980
ring-emu/prints.txt e3b0c44298fc1c14
kneighbor-emu/stdout 000210c3baabd4cd
kneighbor-emu/trace 2ad8351d9459e0a8
kneighbor-emu/summary.json 8628d070a11857b7
kneighbor-emu/summary.txt 328c29fa3da1a35c
kneighbor-emu/link_classes.csv 7cb4562219200203
kneighbor-emu/links.csv 0ebe17ed6f07718e
kneighbor-emu/machine.conf a5b38427b3c21980
kneighbor-emu/prints.txt 2c5c55920a8c8ca3
md-emu/stdout 4ed5a6b5290a8aaa
md-emu/trace 53a12c75b66d0f4a
md-emu/summary.json 51551c56112cbdc3
md-emu/summary.txt e8a06b78789ecf38
md-emu/link_classes.csv d7e15272d77a08a8
md-emu/links.csv 70a1786a5444e5da
md-emu/machine.conf a5b38427b3c21980
md-emu/prints.txt e915f394ecb14fab
