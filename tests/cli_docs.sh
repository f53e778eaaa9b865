#!/bin/sh
# cli_docs.sh -- the documentation agrees with the program:
#  - docs/config-reference.md holds exactly what `sibyl sim
#    --list-keys=markdown' prints now (run `make update-docs' otherwise),
#    and that lists the same keys as the plain `--list-keys';
#  - every relative link of docs/*.md and README.md names a file that
#    exists (the #anchor, if any, is not checked);
#  - every long option given to a sibyl command in the code blocks of the
#    guide pages appears in that command's --help.
. "$SIBYL_SRCDIR/tests/lib.sh"
S=$SIBYL_SRCDIR
ref=$S/docs/config-reference.md
marker='^<!-- BEGIN GENERATED'

# ------------------------------------------------- configuration reference
expect_ok "$SIBYL" sim --list-keys=markdown
cp "$T/out" "$T/md"
checks=$((checks + 1))
if ! grep -q "$marker" "$ref"; then
	fail "$ref has no '<!-- BEGIN GENERATED' line; restore its header" \
	     "and run 'make update-docs'"
else
	sed "1,/$marker/d" "$ref" >"$T/ref.md"
	if ! cmp -s "$T/md" "$T/ref.md"; then
		fail "docs/config-reference.md is out of date: run" \
		     "'make update-docs' in the build directory"
		diff "$T/ref.md" "$T/md" | head -20 >&2
	fi
fi
# Every section has a table, every model too.
expect_ok "$SIBYL" sim --list-keys
for s in $(sed -n 's/^\[\([a-z]*\)\] -- .*/\1/p' "$T/out"); do
	expect_grep "^## \\[$s\\]\$" "$T/md"
done
for m in $(sed -n 's/^\[net\] with model = //p' "$T/out"); do
	expect_grep "^## \\[net\\] with model = $m\$" "$T/md"
done
# The markdown and the text form list the same keys, in the same order.
awk '/^\[net\] with model/ { s = "net"; next }
     /^\[[a-z]+\]/ { s = substr($1, 2, length($1) - 2); next }
     /^  [a-z_]+ +(TIME|BANDWIDTH|SIZE|INT|RATIO|BOOL|ENUM|STRING)([ ,]|$)/ {
	print s "." $1 }' "$T/out" >"$T/keys.text"
sed -n 's/^| `\([a-z_]*\.[a-z_]*\)` |.*/\1/p' "$T/md" >"$T/keys.md"
checks=$((checks + 1))
n=$(wc -l <"$T/keys.text")
[ "$n" -gt 40 ] || fail "--list-keys: only $n keys found"
cmp -s "$T/keys.text" "$T/keys.md" || {
	fail "--list-keys and --list-keys=markdown list different keys"
	diff "$T/keys.text" "$T/keys.md" | head -10 >&2
}
expect_exit 2 "$SIBYL" sim --list-keys=html
expect_grep 'text or markdown' "$T/err"
expect_ok "$SIBYL" sim --help
expect_grep 'list-keys\[=FMT\]' "$T/out"

# ----------------------------------------------------------------- links
# Inline links [text](target) outside fenced code blocks and code spans.
for f in "$S"/README.md "$S"/docs/*.md; do
	dir=$(dirname "$f")
	awk '/^ *```/ { code = !code; next }
	     code { next }
	     { line = $0; gsub(/`[^`]*`/, "", line)
	       while (match(line, /\]\([^) ]+( "[^"]*")?\)/)) {
		t = substr(line, RSTART + 2, RLENGTH - 3)
		sub(/ ".*/, "", t)
		print NR " " t
		line = substr(line, RSTART + RLENGTH) } }' "$f" >"$T/links"
	while read -r nr target; do
		case $target in
		*://* | mailto:* | \#*) continue ;;
		esac
		checks=$((checks + 1))
		path=${target%%#*}
		[ -e "$dir/$path" ] ||
			fail "${f#"$S"/}:$nr: link to '$target': no such file"
	done <"$T/links"
done

# ------------------------------------------------- options in the guides
# In code blocks, a command line (continued lines joined) running `sibyl
# CMD [SUBCMD] ...' may only use options CMD's --help lists (the part
# after ` -- ' is the application's).
for f in "$S"/docs/guide.md "$S"/docs/from-bigsim.md "$S"/docs/from-smpi.md; do
	awk '/^ *```/ { code = !code; buf = ""; next }
	     code && /\\$/ { buf = buf substr($0, 1, length($0) - 1); next }
	     code { line = buf $0; buf = "" }
	     code && line ~ /(^|[ \/])sibyl [a-z]/ {
		sub(/ -- .*/, "", line); sub(/#.*/, "", line)
		sub(/.*(^|[ \/])sibyl /, "", line)
		n = split(line, w, /[ \t]+/)
		cmd = w[1]; sub2 = ""
		if (cmd ~ /^(trace|noise|plot)$/ && w[2] ~ /^[a-z]+$/)
			sub2 = w[2]
		for (i = 2; i <= n; i++)
			if (w[i] ~ /^--[a-z]/) {
				o = w[i]; sub(/[=\[].*/, "", o)
				print NR, cmd, (sub2 == "" ? "-" : sub2), o
			}
	     }' "$f" >"$T/opts"
	while read -r nr cmd sub2 opt; do
		[ "$sub2" = - ] && sub2=
		# shellcheck disable=SC2086  # sub2 is empty or one word
		"$SIBYL" $cmd $sub2 --help >"$T/help" 2>&1 ||
			"$SIBYL" $cmd --help >"$T/help" 2>&1
		checks=$((checks + 1))
		grep -E -q -e "$opt([^a-z-]|\$)" "$T/help" ||
			fail "${f#"$S"/}:$nr: 'sibyl $cmd${sub2:+ $sub2}'" \
			     "has no option $opt"
	done <"$T/opts"
done
finish
