#!/bin/sh
# `sibyl trace profile' (docs/variability.md):
#   - a region whose durations fall in three groups (1, 2 and 4 ms, 1%
#     apart inside a group) in the repeating order 4 2 1 1 1 2 4 on every
#     rank is written as three clusters and the pattern "2 1 0 0 0 1 2";
#     replayed with `sibyl sim --variability', every SEB falls in the
#     cluster the pattern gives, in order;
#   - --no-clusters, --dist lognormal, --bins and --by name write what
#     they say; a region: rule of variability.temporal matches regions
#     as the replacement rules do;
#   - usage errors, --help.
. "$SIBYL_SRCDIR/tests/lib.sh"
. "$SIBYL_SRCDIR/tests/simlib.sh"

R='r:main~(k.c:10)~>~main~(k.c:20)'
python3 - "$R" >"$T/desc" <<'EOF'
import sys
r = sys.argv[1]
print("npes 4")
pat = [4, 2, 1, 1, 1, 2, 4]
for pe in range(4):
    for i in range(70):
        ms = pat[i % 7]
        jit = 1 + 0.01 * (((pe * 70 + i) * 37) % 11 - 5) / 5
        print(pe, "step", int(ms * 1e9 * jit), r)
EOF
craft pat <"$T/desc"
expect_ok "$SIBYL" trace profile "$T/pat.trace" -o "$T/pat.profile"
expect_grep '280 +samples, 3 clusters, pattern +main \(k.c:10\)' "$T/out"
expect_grep '^region "main \(k.c:10\) > main \(k.c:20\)"$' "$T/pat.profile"
expect_grep '^  pattern 2 1 0 0 0 1 2$' "$T/pat.profile"
expect_grep '^  median [0-9]+ps$' "$T/pat.profile"
expect_grep '^    cdf [0-9]+ps 0\.5$' "$T/pat.profile"

# The replay follows the pattern, SEB by SEB.
expect_ok "$SIBYL" sim -q "$T/pat.trace" --variability "$T/pat.profile" \
	--timeline chrome -o "$T/pat.sim"
py '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
pat, start, n = [4, 2, 1, 1, 1, 2, 4], {}, 0
for e in ev:
    if e["ph"] == "B":
        start[e["tid"]] = (e["ts"], e["args"]["index"])
    elif e["ph"] == "E":
        ts, i = start.pop(e["tid"])
        ms = (e["ts"] - ts) / 1000
        want = pat[i % 7]
        assert abs(ms - want) <= 0.011 * want, (e["tid"], i, ms, want)
        n += 1
assert n == 280, n
' "$T/pat.sim/timeline.json"

# Options.
expect_ok "$SIBYL" trace profile -q --no-clusters --dist lognormal \
	"$T/pat.trace" -o "$T/one.profile"
expect_grep '^  cluster 1 lognormal\([0-9]+ps, 0\.[0-9]+\)  #' "$T/one.profile"
checks=$((checks + 1))
grep -q pattern "$T/one.profile" && fail "--no-clusters wrote a pattern"
[ -s "$T/out" ] && fail "--quiet printed: $(head -2 "$T/out")"
expect_ok "$SIBYL" trace profile -q --bins 4 --by name "$T/pat.trace" \
	-o "$T/name.profile"
expect_grep '^seb "step"$' "$T/name.profile"
checks=$((checks + 1))
[ "$(grep -c '^    cdf' "$T/name.profile")" -eq 15 ] ||
	fail "--bins 4: not 5 points per cluster of 3"
expect_ok "$SIBYL" sim -q "$T/pat.trace" -o "$T/rule.sim" \
	--set 'variability.temporal=region:*(k.c:10) > *=fixed(1ms)'
expect_eq "$(jget "$T/rule.sim/summary.json" predicted_time_ps)" \
	70000000000 "region: rule of fixed(1ms)"

# Usage.
expect_ok "$SIBYL" trace profile --help
expect_grep 'Usage: sibyl trace profile' "$T/out"
expect_exit 2 "$SIBYL" trace profile "$T/pat.trace"
expect_grep 'PROFILE is required' "$T/err"
expect_exit 2 "$SIBYL" trace profile --bins 101 "$T/pat.trace" -o "$T/x"
expect_grep '1 to 100' "$T/err"
expect_exit 2 "$SIBYL" trace profile --dist gamma "$T/pat.trace" -o "$T/x"
expect_grep 'empirical, normal or lognormal' "$T/err"
expect_exit 2 "$SIBYL" trace profile "$T/none.trace" -o "$T/x"
checks=$((checks + 1))
[ ! -e "$T/x" ] || fail "a failed profile left $T/x"
finish
