# cli_map.sh -- `sibyl map' (every order, the blocked formula, the seeded
# random generator, --check) and `sibyl sim --map'.  Expected mappings are
# computed here from the formulas of docs/mapping.md (by hand for a few
# ranks, by an independent Python transcription for whole files), and the
# simulator's intranode / network message counts are predicted from the
# pattern and the mapping.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

# body FILE: the mapping lines of FILE, without the header comments.
body() { grep -v '^#' "$1"; }

# line_of FILE RANK: "RANK NODE CORE" of RANK.
line_of() { awk -v r="$2" '$1 == r' "$1"; }

# map_usage_error REGEX ARGS...: `sibyl map ARGS' exits 2 with a message
# matching REGEX.
map_usage_error() {
	re=$1; shift
	expect_exit 2 "$SIBYL" map "$@"
	expect_grep "^sibyl map: .*$re" "$T/err"
}

# ------------------------------------------------------------------ help
expect_ok "$SIBYL" map --help
expect_grep '^Usage: sibyl map --ranks R' "$T/out"
expect_grep 'Exit status' "$T/out"
for opt in --ranks --cores-per-node --nodes --order --seed --grid --block \
	   --output --force --json --quiet --check round-robin random \
	   blocked-node blocked-drawer blocked-supernode; do
	expect_grep "$opt" "$T/out"
done
cp "$T/out" "$T/help1"
expect_ok "$SIBYL" help map
checks=$((checks + 1))
cmp -s "$T/out" "$T/help1" || fail "'sibyl help map' differs from --help"
expect_ok "$SIBYL" sim --help
expect_grep '--map FILE' "$T/out"

# ------------------------------------------------- rank and round-robin
# 10 ranks, 4 cores per node: 3 nodes by default.  Rank order: node r/4,
# core r%4; round-robin: node r%3, core r/3.
expect_ok "$SIBYL" map -r 10 --cores-per-node 4
body "$T/out" >"$T/got"
awk 'BEGIN { for (r = 0; r < 10; r++) print r, int(r / 4), r % 4 }' \
	>"$T/want"
checks=$((checks + 1))
cmp -s "$T/got" "$T/want" || fail "rank order of 10 ranks on 4-core nodes"
expect_grep '^sibyl map: 10 ranks on 3 of 3 nodes, 2 to 4 ranks per node' \
	"$T/err"
expect_grep '^# written by: sibyl map -r 10 --cores-per-node 4$' "$T/out"
expect_grep '^# simulate with: .*machine.cores_per_node=4 .*machine.nodes=3' \
	"$T/out"

expect_ok "$SIBYL" map -q -r 10 --cores-per-node 4 --order round-robin
body "$T/out" >"$T/got"
awk 'BEGIN { for (r = 0; r < 10; r++) print r, r % 3, int(r / 3) }' \
	>"$T/want"
checks=$((checks + 1))
cmp -s "$T/got" "$T/want" || fail "round-robin of 10 ranks on 3 nodes"
checks=$((checks + 1))
[ -s "$T/err" ] && fail "-q printed: $(cat "$T/err")"
# --nodes changes round-robin: 5 nodes, node r%5, core r/5.
expect_ok "$SIBYL" map -q -r 10 --cores-per-node 4 --nodes 5 \
	--order round-robin
body "$T/out" >"$T/got"
awk 'BEGIN { for (r = 0; r < 10; r++) print r, r % 5, int(r / 5) }' \
	>"$T/want"
checks=$((checks + 1))
cmp -s "$T/got" "$T/want" || fail "round-robin of 10 ranks on 5 nodes"
# Suffixes as in the other tools: 64Ki ranks, 32 per node by default.
expect_ok "$SIBYL" map -q -r 64Ki
checks=$((checks + 1))
[ "$(body "$T/out" | wc -l)" -eq 65536 ] || fail "-r 64Ki: not 65536 lines"
expect_eq "$(line_of "$T/out" 65535)" "65535 2047 31" "64Ki: last rank"

# ---------------------------------------------------------------- blocked
# Grid 8x4x4 (rank = x + 8*(y + 4*z)), node blocks 2x2x2 (8 cores),
# drawer blocks 4x4x2: drawers 2x1x2 over the grid, 2x2x1 nodes each.
# node = drawer*4 + node-in-drawer, core = x%2 + 2*(y%2 + 2*(z%2)).
expect_ok "$SIBYL" map -q -r 128 --cores-per-node 8 --order blocked \
	--grid 8,4,4 --block 2,2,2:4,4,2 -o "$T/b.map"
while read -r rank want; do
	expect_eq "$(line_of "$T/b.map" "$rank")" "$rank $want" \
		"blocked 8x4x4, rank $rank"
done <<'EOF'
0 0 0
1 0 1
2 1 0
4 4 0
8 0 2
16 2 0
32 0 4
64 8 0
127 15 7
EOF
# One level only: node blocks numbered x-fastest over the grid (4x2x2).
expect_ok "$SIBYL" map -q -r 128 --cores-per-node 8 --order blocked \
	--grid 8,4,4 --block 2,2,2 -o "$T/b1.map"
expect_eq "$(line_of "$T/b1.map" 4)" "4 2 0" "one level, rank 4 (2,0,0)"
expect_eq "$(line_of "$T/b1.map" 16)" "16 4 0" "one level, rank 16 (0,2,0)"
expect_eq "$(line_of "$T/b1.map" 64)" "64 8 0" "one level, rank 64 (0,0,2)"

# The PERCS study (thesis §6): 65,536 tasks, grid 64x32x32, 4x4x2 per
# node, 8x8x4 per drawer, 16x8x8 per supernode; node = supernode*32 +
# drawer*8 + node-in-drawer.  Rank 16+8*64+8*2048 = (16,8,8) starts
# supernode 1+4*(1+4*1) = 21, drawer 0, node 0: node 672.  Rank
# (12,4,6) is in supernode 0, drawer (1,0,1) of 2x1x2 = 3, node (1,1,1)
# of 2x2x2 = 7: node 31; core (0,0,0).  Rank (3,3,1): node 0, core
# 3+4*(3+4*1) = 31.
expect_ok "$SIBYL" map -r 64Ki --order blocked-supernode -o "$T/sn.map"
expect_grep '65536 ranks on 2048 of 2048 nodes, 32 ranks per node' "$T/err"
expect_grep 'grid 64x32x32, blocks 4x4x2:8x8x4:16x8x8' "$T/err"
expect_eq "$(line_of "$T/sn.map" $((16 + 8 * 64 + 8 * 2048)))" \
	"$((16 + 8 * 64 + 8 * 2048)) 672 0" "supernode 21"
expect_eq "$(line_of "$T/sn.map" $((12 + 4 * 64 + 6 * 2048)))" \
	"$((12 + 4 * 64 + 6 * 2048)) 31 0" "drawer 3, node 7"
expect_eq "$(line_of "$T/sn.map" $((3 + 3 * 64 + 2048)))" \
	"$((3 + 3 * 64 + 2048)) 0 31" "last core of node 0"
# The presets equal the explicit blocks, and the default grid of 64Ki
# ranks is the stencil's 64x32x32.
expect_ok "$SIBYL" map -q -r 64Ki --order blocked --grid 64,32,32 \
	--block 4,4,2:8,8,4:16,8,8 -o "$T/sn2.map"
body "$T/sn.map" >"$T/got"
body "$T/sn2.map" >"$T/want"
checks=$((checks + 1))
cmp -s "$T/got" "$T/want" || fail "blocked-supernode != its --block"

# Every blocked file against a transcription of the formula.
BLOCKED_PY='
import sys
path, grid, blocks = sys.argv[1], sys.argv[2], sys.argv[3]
g = [int(v) for v in grid.split(",")]
B = [[int(v) for v in b.split(",")] for b in blocks.split(":")]
def idx(c, n): return c[0] + n[0] * (c[1] + n[1] * c[2])
got = [l.split() for l in open(path) if not l.startswith("#")]
assert len(got) == g[0] * g[1] * g[2], len(got)
for r, line in enumerate(got):
    c = [r % g[0], r // g[0] % g[1], r // (g[0] * g[1])]
    top = B[-1]
    node = idx([c[d] // top[d] for d in range(3)],
               [g[d] // top[d] for d in range(3)])
    for l in range(len(B) - 1, 0, -1):
        e = [B[l][d] // B[l - 1][d] for d in range(3)]
        node = node * e[0] * e[1] * e[2] + idx(
            [c[d] % B[l][d] // B[l - 1][d] for d in range(3)], e)
    core = idx([c[d] % B[0][d] for d in range(3)], B[0])
    want = [str(r), str(node), str(core)]
    assert line == want, (line, want)
'
py "$BLOCKED_PY" "$T/sn.map" 64,32,32 4,4,2:8,8,4:16,8,8
py "$BLOCKED_PY" "$T/b.map" 8,4,4 2,2,2:4,4,2
expect_ok "$SIBYL" map -q -r 96 --cores-per-node 4 --order blocked \
	--grid 4,6,4 --block 1,2,2:2,6,2:4,6,4 -o "$T/b3.map"
py "$BLOCKED_PY" "$T/b3.map" 4,6,4 1,2,2:2,6,2:4,6,4

# ----------------------------------------------------------------- random
# The documented generator (SplitMix64 of the seed, unbiased bounded
# draws, a partial Fisher-Yates shuffle of the N*C rank-order slots).
RANDOM_PY='
import sys
path, R, C, N, seed = sys.argv[1], *map(int, sys.argv[2:])
M64 = (1 << 64) - 1
state = seed
def nxt():
    global state
    state = (state + 0x9e3779b97f4a7c15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return z ^ (z >> 31)
def below(n):
    floor = (1 << 64) % n
    while True:
        x = nxt()
        if x >= floor:
            return x % n
moved, want = {}, []
for i in range(R):
    j = i + below(N * C - i)
    si = moved.get(i, i)
    sj = si
    if j != i:
        sj = moved.get(j, j)
        moved[j] = si
    want.append([str(i), str(sj // C), str(sj % C)])
got = [l.split() for l in open(path) if not l.startswith("#")]
assert got == want, "first difference at rank %d" % next(
    i for i in range(R) if i >= len(got) or got[i] != want[i])
'
expect_ok "$SIBYL" map -q -r 1000 --order random --seed 7 -o "$T/r7.map"
py "$RANDOM_PY" "$T/r7.map" 1000 32 32 7
# Far more slots than ranks: 100 ranks on 1000 nodes.
expect_ok "$SIBYL" map -r 100 --nodes 1000 --order random --seed 3 \
	-o "$T/r3.map"
py "$RANDOM_PY" "$T/r3.map" 100 32 1000 3
# The default seed is 1; the same seed gives the same file.
expect_ok "$SIBYL" map -q -r 1000 --order random -o "$T/r1.map"
py "$RANDOM_PY" "$T/r1.map" 1000 32 32 1
expect_ok "$SIBYL" map -q -r 1000 --order random --seed 7 -o "$T/r7b.map"
body "$T/r7.map" >"$T/got"
body "$T/r7b.map" >"$T/want"
checks=$((checks + 1))
cmp -s "$T/got" "$T/want" || fail "seed 7 twice: different mappings"
body "$T/r1.map" >"$T/want"
checks=$((checks + 1))
cmp -s "$T/got" "$T/want" && fail "seeds 1 and 7 gave the same mapping"

# ----------------------------------------------------------------- --check
# Every generated order passes the reader of `sibyl sim'.
expect_ok "$SIBYL" map --check "$T/sn.map" -r 64Ki --cores-per-node 32
expect_grep 'a valid mapping of 65536 ranks on 2048 of 2048 nodes of 32 cores, 32 ranks per node' "$T/out"
for f in b b1 b3; do
	case $f in b3) c=4 ;; *) c=8 ;; esac
	n=$(body "$T/$f.map" | wc -l)
	expect_ok "$SIBYL" map --check "$T/$f.map" -r "$n" --cores-per-node $c
done
expect_ok "$SIBYL" map --check "$T/r7.map" -r 1000 --cores-per-node 32
expect_ok "$SIBYL" map --check "$T/r3.map" -r 100 --cores-per-node 32 \
	--nodes 1000 --json
py '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["valid"] is True and j["ranks"] == 100, j
assert j["nodes"] == 1000 and j["cores_per_node"] == 32, j
assert j["nodes_used"] >= 90 and j["ranks_per_node"]["max"] <= 3, j
' "$T/out"

# Defects: exit 1, the file and line named.
while IFS='|' read -r name lines ranks msg; do
	printf "$lines" >"$T/$name.map"
	expect_exit 1 "$SIBYL" map --check "$T/$name.map" -r $ranks \
		--cores-per-node 2
	expect_grep "$name.map$msg" "$T/err"
done <<'EOF'
miss|0 0\n1 0\n3 1\n|4|: rank 2 is missing
full|0 0\n1 0\n2 0\n3 1\n|4|:3: node 0 is over-full
dup|# two lines of rank 1\n0 0\n1 0\n2 1\n1 1\n3 1\n|4|:5: rank 1 is placed twice, here and at line 3
core|0 0 1\n1 0 1\n|2|:2: core 1 of node 0 is already taken
syntax|0 0\n1 x\n|2|:2: expected 'RANK NODE \[CORE\]'
EOF
expect_exit 1 "$SIBYL" map --check "$T/b.map" -r 128 --cores-per-node 16 \
	--nodes 8
expect_grep 'b.map:[0-9]+: node (8|9|1[0-5]) does not exist' "$T/err"
# Fewer cores than ranks is the request's fault, not the file's.
expect_exit 2 "$SIBYL" map --check "$T/b.map" -r 128 --cores-per-node 8 \
	--nodes 8
expect_grep '128 ranks do not fit on 8 nodes of 8 cores' "$T/err"
expect_exit 2 "$SIBYL" map --check "$T/none.map" -r 4
expect_grep 'cannot open .*none.map' "$T/err"

# ------------------------------------------------------------ usage errors
map_usage_error '--ranks is required' --order rank
map_usage_error 'out of range' -r 0
map_usage_error 'not a non-negative integer' -r ten
map_usage_error '65 ranks do not fit on 2 nodes of 32 cores' \
	-r 65 --nodes 2
map_usage_error 'out of range' -r 8 --cores-per-node 0
map_usage_error "unknown order 'zigzag'" -r 8 --order zigzag
map_usage_error '--seed applies to --order random only' -r 8 --seed 3
map_usage_error '--grid applies to the blocked orders' -r 8 --grid 2,2,2
map_usage_error '--order blocked needs --block' -r 8 --order blocked
map_usage_error 'fixes the blocks' \
	-r 64 --order blocked-node --block 4,4,2
map_usage_error '--grid 8x4x2 has 64 points but --ranks is 128' \
	-r 128 --cores-per-node 8 --order blocked --grid 8,4,2 --block 2,2,2
map_usage_error 'the node block 2x2x1 holds 4 ranks but a node has 8' \
	-r 128 --cores-per-node 8 --order blocked --grid 8,4,4 --block 2,2,1
map_usage_error 'blocked-node puts a 4x4x2 block .* --cores-per-node 32' \
	-r 128 --cores-per-node 16 --order blocked-node
map_usage_error 'block 2 \(4x3x2\) is not made of the node block \(2x2x2\): in y, 3 is not a multiple of 2' \
	-r 128 --cores-per-node 8 --order blocked --grid 8,4,4 \
	--block 2,2,2:4,3,2
map_usage_error 'grid 8x4x3 is not made of the node block \(2x2x2\): in z, 3 is not a multiple of 2' \
	-r 96 --cores-per-node 8 --order blocked --grid 8,4,3 --block 2,2,2
map_usage_error 'cannot parse' \
	-r 8 --cores-per-node 8 --order blocked --grid 2,2,2 --block 2,2
map_usage_error '--json prints the summary' -r 8 --json
map_usage_error '--force needs -o' -r 8 --force
map_usage_error '--order does not apply to --check' \
	-r 8 --check "$T/b.map" --order rank
map_usage_error 'unexpected argument' -r 8 extra

# -o: refuse to overwrite, --force replaces, nothing half-done.
echo keep >"$T/exists.map"
expect_exit 2 "$SIBYL" map -r 8 -o "$T/exists.map"
expect_grep 'already exists; use --force' "$T/err"
expect_eq "$(cat "$T/exists.map")" keep "a refused -o kept the file"
expect_ok "$SIBYL" map -r 8 -o "$T/exists.map" --force --json
expect_eq "$(body "$T/exists.map" | wc -l | tr -d ' ')" 8 "--force replaced"
py '
import json, sys
j = json.load(open(sys.argv[1]))
assert j == {"ranks": 8, "cores_per_node": 32, "nodes": 1, "nodes_used": 1,
             "ranks_per_node": {"min": 8, "max": 8}, "order": "rank",
             "output": sys.argv[2]}, j
' "$T/out" "$T/exists.map"
map_usage_error 'holds 4 ranks' -r 128 --cores-per-node 8 \
	--order blocked --grid 8,4,4 --block 2,2,1 -o "$T/never.map"
checks=$((checks + 1))
left=$(ls "$T"/never.map* "$T"/*.tmp 2>/dev/null)
[ -z "$left" ] && [ ! -e "$T/never.map" ] || fail "left behind: $left"

# ------------------------------------------------------------ sim --map
# Ping-pong of 4 ranks, 3 iterations, 2 cores per node: 12 messages.  In
# rank order the pairs (0,1) and (2,3) share a node: all 12 inside nodes.
# Round-robin puts 0,2 on node 0 and 1,3 on node 1: all 12 on the network.
gen pp -p pingpong -r 4 -i 3
for o in rank round-robin; do
	expect_ok "$SIBYL" map -q -r 4 --cores-per-node 2 --order $o \
		-o "$T/pp-$o.map"
	rm -rf "$T/pp-$o.sim"
	expect_ok "$SIBYL" sim -q --map "$T/pp-$o.map" \
		--set machine.cores_per_node=2 -o "$T/pp-$o.sim" "$T/pp.trace"
done
expect_eq "$(jget "$T/pp-rank.sim/summary.json" messages.intranode)" 12 \
	"pingpong, rank order: intranode"
expect_eq "$(jget "$T/pp-rank.sim/summary.json" messages.network)" 0 \
	"pingpong, rank order: network"
expect_eq "$(jget "$T/pp-round-robin.sim/summary.json" messages.network)" \
	12 "pingpong, round-robin: network"
expect_eq "$(jget "$T/pp-round-robin.sim/summary.json" nnodes)" 2 \
	"pingpong, round-robin: nodes"
# --map FILE is --set machine.map=FILE, relative to the current directory.
rm -rf "$T/pp-set.sim"
(cd "$T" && "$SIBYL" sim -q --set machine.map=pp-round-robin.map \
	--set machine.cores_per_node=2 -o pp-set.sim pp.trace) ||
	fail "sim --set machine.map with a relative path"
rm -rf "$T/pp-rel.sim"
(cd "$T" && "$SIBYL" sim -q --map pp-round-robin.map \
	--set machine.cores_per_node=2 -o pp-rel.sim pp.trace) ||
	fail "sim --map with a relative path"
for k in predicted_time_ps messages.intranode messages.network; do
	expect_eq "$(jget "$T/pp-rel.sim/summary.json" $k)" \
		"$(jget "$T/pp-set.sim/summary.json" $k)" "--map vs --set: $k"
done
expect_grep "^map = .*pp-round-robin.map" "$T/pp-rel.sim/machine.conf"
# A map that does not fit the machine (1 core per node by default) is a
# configuration error.
rm -rf "$T/pp-bad.sim"
expect_exit 2 "$SIBYL" sim -q --map "$T/pp-rank.map" -o "$T/pp-bad.sim" \
	"$T/pp.trace"
expect_grep 'pp-rank.map:6: core 1 does not exist' "$T/err"
expect_exit 2 "$SIBYL" sim -q --map "$T/no-such.map" -o "$T/pp-bad.sim" \
	"$T/pp.trace"
expect_grep 'no-such.map' "$T/err"

# 3D stencil, periodic 8x4x4 grid, 128 ranks, 2 iterations, 8 cores per
# node: 6*128*2 = 1536 messages.  A rank's two messages along dimension d
# stay on its node when the node's block spans the whole grid in d, else
# on average 2/b_d of them leave it (b_d the block's extent), so the
# network count is 128*2*sum_d(2/b_d over the d the block does not span):
#   rank order: node = one x row, block 8x1x1: 256*(0+2+2) = 1024
#   blocked 2x2x2 (with or without drawers):  256*(1+1+1) =  768
#   round-robin on 16 nodes: node r%16; x and y neighbours (r+-1, r+-7,
#   r+-8, r+-24) change node, z neighbours (r+-32, r+-96) do not: 1024.
# Random: counted from the file.  Every count is also counted from the
# map file itself.
gen st -p stencil3d -r 128 --grid 8,4,4 -i 2 -s 512
COUNT_PY='
import sys
path, X, Y, Z = sys.argv[1], *map(int, sys.argv[2:5])
node = {}
for l in open(path):
    if not l.startswith("#"):
        r, n, c = map(int, l.split())
        node[r] = n
net = 0
for r in range(X * Y * Z):
    c = [r % X, r // X % Y, r // (X * Y)]
    for d, n in enumerate((X, Y, Z)):
        for s in (1, -1):
            e = list(c); e[d] = (e[d] + s) % n
            net += node[r] != node[e[0] + X * (e[1] + Y * e[2])]
print(net)
'
# (lib.sh and simlib.sh use $want and $o: the loop uses other names.)
for mo in rank round-robin blocked blocked-drawer random; do
	mord=$mo
	case $mo in
	blocked) args="--grid 8,4,4 --block 2,2,2"; net=768 ;;
	blocked-drawer) args="--grid 8,4,4 --block 2,2,2:4,4,2"; net=768
		mord=blocked ;;
	random) args="--seed 5"; net= ;;
	*) args=; net=1024 ;;
	esac
	expect_ok "$SIBYL" map -q -r 128 --cores-per-node 8 --order $mord \
		$args -o "$T/st-$mo.map"
	py "$COUNT_PY" "$T/st-$mo.map" 8 4 4
	from_map=$(($(cat "$T/py.out") * 2))
	if [ -n "$net" ]; then
		expect_eq "$from_map" "$net" "$mo: network messages from the map"
	else
		net=$from_map
	fi
	rm -rf "$T/st-$mo.sim"
	expect_ok "$SIBYL" sim -q --map "$T/st-$mo.map" \
		--set machine.cores_per_node=8 -o "$T/st-$mo.sim" "$T/st.trace"
	s="$T/st-$mo.sim/summary.json"
	expect_eq "$(jget "$s" messages.network)" "$net" "stencil, $mo: network"
	expect_eq "$(jget "$s" messages.intranode)" "$((1536 - net))" \
		"stencil, $mo: intranode"
	expect_eq "$(jget "$s" nnodes)" 16 "stencil, $mo: nodes"
done
# The blocked mapping keeps more halo messages inside nodes.
b=$(jget "$T/st-blocked.sim/summary.json" messages.network)
r=$(jget "$T/st-rank.sim/summary.json" messages.network)
checks=$((checks + 1))
[ "$b" -lt "$r" ] || fail "blocked ($b) not below rank order ($r)"

finish
