# hostile_outdir.sh -- output directories under hostile use: what --force
# may replace (docs/outputs.md), concurrent runs on one output, and the
# small command-line defects found with them (-o '', --iters -1).
. "$SIBYL_SRCDIR/tests/lib.sh"

W="$T/work"
mkdir -p "$W/home" "$W/sub/deeper"
expect_ok "$SIBYL" trace gen -q -p ring -r 4 -o "$W/r.trace"

# refused DIR WHY ARGS...: `sim --force -o DIR' exits 2 naming DIR and
# WHY, and every file that was there is still there.
refused() {
	dir=$1 why=$2; shift 2
	before=$(find "$dir" | sort | tr '\n' ' ')
	expect_exit 2 "$SIBYL" sim -q --force -o "$dir" "$@" "$W/r.trace"
	expect_grep "not replacing '.*', even with --force: $why" "$T/err"
	checks=$((checks + 1))
	after=$(find "$dir" | sort | tr '\n' ' ')
	[ "$before" = "$after" ] || fail "a refused run changed $dir"
}

# The working directory, holding the input trace: the data loss of the
# report (everything in it was removed, then the run failed).
(cd "$W" && "$SIBYL" sim -q --force -o . r.trace) >"$T/out" 2>"$T/err"
st=$?
checks=$((checks + 1))
[ $st -eq 2 ] || fail "sim --force -o . exited $st, expected 2"
[ -f "$W/r.trace/MANIFEST" ] || {
	fail "sim --force -o . removed the input"
	expect_ok "$SIBYL" trace gen -q -p ring -r 4 -o "$W/r.trace"
	mkdir -p "$W/home" "$W/sub/deeper"
}
expect_grep "not replacing '\.', even with --force: it is the working directory" "$T/err"
(cd "$W/sub/deeper" && "$SIBYL" sim -q --force -o ../.. ../../r.trace) \
	>"$T/out" 2>"$T/err"
expect_grep "not replacing '\.\./\.\.', even with --force: it holds the working directory" "$T/err"
[ -f "$W/r.trace/MANIFEST" ] || fail "sim --force -o ../.. removed the input"

# $HOME, the input's own directory, the input itself.
HOME="$W/home" refused "$W/home" "it is your home directory"
refused "$W" "it holds the input"
refused "$W/r.trace" "it holds the input"

# A directory with foreign files, one without the marker, one with a
# marker of another command, one whose marker does not list a file.
mkdir "$W/foreign" && : >"$W/foreign/notes.txt"
refused "$W/foreign" ".*marker.*"
expect_ok "$SIBYL" sim -q -o "$W/prev" "$W/r.trace"
[ -f "$W/prev/.sibyl-output" ] || fail "sim wrote no .sibyl-output marker"
: >"$W/prev/notes.txt"
refused "$W/prev" "it holds files that Sibyl did not write there \(such as 'notes.txt'\)"
rm "$W/prev/notes.txt"
mkdir "$W/prev/more" && : >"$W/prev/more/x"
refused "$W/prev" ".*'more'"
rmdir "$W/prev/more" 2>/dev/null; rm -rf "$W/prev/more"
cp -r "$W/prev" "$W/other"
sed -i 's/^writer .*/writer sibyl noise capture/' "$W/other/.sibyl-output"
refused "$W/other" "it is not an output of this command"
# A file, and a symbolic link to a directory: not replaced either.
: >"$W/file"
refused "$W/file" "it is not a directory"
ln -s "$W/prev" "$W/link"
refused "$W/link" "it is not a directory"

# An earlier output whose machine.conf this run reads: an input too.
expect_exit 2 "$SIBYL" sim -q --force -c "$W/prev/machine.conf" -o "$W/prev" \
	"$W/r.trace"
expect_grep "not replacing .*prev.*it holds the input" "$T/err"

# What --force does replace: an earlier output of sim, and an empty
# directory; the new output carries a fresh marker.
expect_ok "$SIBYL" sim -q --force -o "$W/prev" "$W/r.trace"
expect_grep '^writer sibyl sim$' "$W/prev/.sibyl-output"
expect_grep '^path summary.json$' "$W/prev/.sibyl-output"
mkdir "$W/empty"
expect_ok "$SIBYL" sim -q --force -o "$W/empty" "$W/r.trace"
[ -f "$W/empty/summary.json" ] || fail "--force did not fill an empty directory"

# trace gen and noise capture follow the same rule.
expect_exit 2 "$SIBYL" trace gen -q -p ring -r 4 --force -o "$W/prev"
expect_grep "not replacing .*prev.*not part of a trace" "$T/err"
(cd "$W/r.trace" && "$SIBYL" trace gen -q -p ring -r 4 --force -o .) \
	>"$T/out" 2>"$T/err"
expect_grep "not replacing '\.'.*working directory" "$T/err"
[ -f "$W/r.trace/MANIFEST" ] || fail "trace gen --force -o . removed the trace"
expect_exit 2 "$SIBYL" noise capture -q -d 0.01s -c 0 --force -o "$W/prev"
expect_grep "not replacing .*prev.*not an output of this command" "$T/err"

# -o '' fails at once, before any simulation; --iters with a negative or
# out-of-range iteration is a usage error (2).
expect_exit 2 "$SIBYL" sim -q -o '' "$W/r.trace"
expect_grep "-o: the output directory is empty" "$T/err"
expect_exit 2 "$SIBYL" sim -q --iters -1 -o "$W/it" "$W/r.trace"
expect_grep "iterations are numbered from 0" "$T/err"
expect_exit 2 "$SIBYL" sim -q --iters 1..99999999999999999999 -o "$W/it" \
	"$W/r.trace"
expect_grep "not an iteration range" "$T/err"

# docs/outputs.md names every field of summary.json that depends on the
# host's speed among the ones that are not deterministic.
expect_ok "$SIBYL" sim -q -o "$W/keys" "$W/r.trace"
checks=$((checks + 1))
para=$(sed -n '/^Everything except/,/^$/p' "$SIBYL_SRCDIR/docs/outputs.md" |
	tr '\n' ' ')
for k in $(grep -oE '"[a-z_]*(_per_s|wall_s|rss_bytes)"' \
	   "$W/keys/summary.json" | tr -d '"'); do
	case $para in
	*"simulator.$k\`"*) ;;
	*) fail "docs/outputs.md does not list simulator.$k as not deterministic" ;;
	esac
done

# Concurrent runs with --force on one output: every one succeeds and the
# output in place is a complete one.
pids=
for i in 1 2 3 4 5 6 7 8; do
	"$SIBYL" sim -q --force -o "$W/conc" "$W/r.trace" \
		>"$T/conc.$i.out" 2>"$T/conc.$i.err" &
	pids="$pids $!"
done
n=0
for p in $pids; do
	n=$((n + 1))
	wait "$p" || fail "concurrent run $n failed: $(cat "$T/conc.$n.err")"
done
checks=$((checks + 1))
[ -f "$W/conc/summary.json" ] && [ -f "$W/conc/.sibyl-output" ] ||
	fail "no complete output after the concurrent runs"
left=$(ls -d "$W"/conc.partial-* 2>/dev/null)
[ -z "$left" ] || fail "concurrent runs left $left"

finish
