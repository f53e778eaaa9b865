# cli_check.sh -- `sibyl trace check' on a generated trace, a corrupted
# copy, a truncated copy, a bundle and a missing path; exit statuses and
# the JSON output.
. "$SIBYL_SRCDIR/tests/lib.sh"

# Overwrite 4 bytes in the middle of file $1 with 0xff bytes,
# without changing its size.
smash_middle() {
	size=$(wc -c <"$1")
	printf '\377\377\377\377' |
		dd of="$1" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
}

# Every line of $1 must be a JSON value (JSON Lines).
json_lines_ok() {
	if command -v python3 >/dev/null 2>&1; then
		python3 -c '
import json, sys
for line in open(sys.argv[1]):
    json.loads(line)
' "$1"
	else
		# No parser at hand: at least the shape of every line.
		! grep -v -E '^\{".*\}$' "$1" >/dev/null
	fi
}

S="$T/s.trace"
expect_ok "$SIBYL" trace gen --pattern stencil3d --ranks 64 --iters 3 -o "$S"
data=$(ls "$S"/proc-*.sdat 2>/dev/null | head -n 1)
[ -n "$data" ] || fail "no data file in $S"

# A valid trace: exit 0, a summary that says so, no problem.
expect_ok "$SIBYL" trace check "$S"
expect_grep '64 PEs, .* SEBs, .* messages checked: valid' "$T/out"
if grep -q '^PROBLEM' "$T/out"; then fail "problems on a valid trace"; fi
expect_ok "$SIBYL" trace check --no-cycles "$S"
expect_grep 'no cycle search' "$T/out"

# --quiet: nothing on stdout for a valid trace.
expect_ok "$SIBYL" trace check --quiet "$S"
[ -s "$T/out" ] && fail "--quiet printed: $(head -n 3 "$T/out")"

# --json: one object per line, a summary saying valid.
expect_ok "$SIBYL" trace check --json "$S"
json_lines_ok "$T/out" || fail "--json output does not parse"
expect_grep '^\{"summary":\{.*"problems":0.*"valid":true' "$T/out"

# A bundle is checked like the directory.
expect_ok "$SIBYL" trace pack -o "$T/s.tar.gz" "$S"
expect_ok "$SIBYL" trace check "$T/s.tar.gz"
expect_grep 'valid' "$T/out"

# Corrupted copy: a window fails its checksum; PE and window are named.
cp -r "$S" "$T/c.trace"
smash_middle "$T/c.trace/$(basename "$data")"
expect_exit 1 "$SIBYL" trace check "$T/c.trace"
expect_grep '^PROBLEM: PE [0-9]+ window [0-9]+ .*cannot be read' "$T/out"
expect_grep '1 problem' "$T/out"
expect_exit 1 "$SIBYL" trace check --json "$T/c.trace"
json_lines_ok "$T/out" || fail "--json output (corrupted) does not parse"
expect_grep '^\{"problem":".*PE [0-9]+ window [0-9]+' "$T/out"
expect_grep '"valid":false' "$T/out"

# The same as a bundle: the data file is named without the temporary
# directory the bundle was unpacked into.
expect_ok "$SIBYL" trace pack -q -o "$T/c.tar" "$T/c.trace"
expect_exit 1 "$SIBYL" trace check "$T/c.tar"
unread='^PROBLEM: PE [0-9]+ window [0-9]+ .*cannot be read'
expect_grep "$unread: proc-[0-9]+\.sdat: " "$T/out"

# Truncated copy: the damage is reported, once.
cp -r "$S" "$T/t.trace"
f="$T/t.trace/$(basename "$data")"
size=$(wc -c <"$f")
truncate -s $((size / 2)) "$f" 2>/dev/null ||
	{ head -c $((size / 2)) "$f" >"$f.cut" && mv "$f.cut" "$f"; }
expect_exit 1 "$SIBYL" trace check "$T/t.trace"
expect_grep '^PROBLEM: damaged data file .*truncated' "$T/out"
expect_grep ': 1 problem' "$T/out"

# Missing path and bad usage: exit 2.
expect_exit 2 "$SIBYL" trace check "$T/no-such.trace"
expect_grep 'no-such.trace' "$T/err"
expect_exit 2 "$SIBYL" trace check
expect_exit 2 "$SIBYL" trace check --max-problems many "$S"
expect_ok "$SIBYL" trace check --help
expect_grep 'Exit status' "$T/out"

finish
