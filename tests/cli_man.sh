#!/bin/sh
# cli_man.sh -- the manual pages (docs/man/*.1) follow the commands.
#
# (a) every command that 'sibyl --help' lists, every subcommand of
#     'sibyl trace --help' and 'sibyl noise --help', and sibylcc have a
#     page, and every page is a command's and is installed (listed in
#     docs/Makefile.inc);
# (b) every long option (--xxx) that a command's --help prints appears in
#     its page, and each option the help defines (a line starting with
#     it) has an entry of its own (a .TP paragraph) there (sibyl plot: the
#     options of each kind; sibylcc: also its -show and -showme:WHAT
#     options); each page's .TH names the page,
#     section 1 and the version 'sibyl --version' prints;
# (c) with groff installed, every page renders with
#     'groff -man -Tutf8 -ww -z' without a warning (skipped without groff).
# Pages are plain ASCII roff.  SIBYL_TEST_MANDIR checks another directory
# of pages instead of the source tree's (to test this test on a copy).
. "$SIBYL_SRCDIR/tests/lib.sh"

: "${SIBYLCC:?SIBYLCC must point at the sibylcc wrapper}"
mandir=${SIBYL_TEST_MANDIR:-$SIBYL_SRCDIR/docs/man}
makefile=$SIBYL_SRCDIR/docs/Makefile.inc

# The words listed under HEADING ("Commands:", "Kinds:") of a help text,
# up to the next blank line.
listed() {
	awk -v h="$1" '
		$0 == h { on = 1; next }
		on && /^[ \t]*$/ { exit }
		on && /^  [a-z]/ { print $1 }' "$2"
}

# The long options a help text prints, one per line.
long_options() {
	grep -oE -- '--[A-Za-z][A-Za-z0-9-]*' "$1" | sort -u
}

# The long options a help text defines: the first long option of each
# line that starts (indented by at most 8 blanks) with an option.
defined_options() {
	grep -E -- '^ {1,8}(-[A-Za-z0-9]+, )*--[A-Za-z]' "$1" |
		grep -oE -- '--[A-Za-z][A-Za-z0-9-]*' | sort -u
}

# A page as plain text: no comments, no font escapes, \- as -.
page_text() {
	sed -e '/^\.\\"/d' -e 's/\\".*//' \
	    -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\f\[[^]]*\]//g' \
	    -e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\e/\\/g' "$1"
}

# has_option OPT FILE: FILE has OPT as a word of its own (counted).
has_option() {
	checks=$((checks + 1))
	grep -qE -- "(^|[^A-Za-z0-9-])$1([^A-Za-z0-9:-]|\$)" "$2"
}

version=$("$SIBYL" --version | awk 'NR == 1 { print $2 }')
[ -n "$version" ] || fail "'sibyl --version' printed no version"

# check_page PAGE HELPFILE...: PAGE documents every long option of the
# help texts given.
check_page() {
	page=$1
	shift
	checks=$((checks + 1))
	if [ ! -f "$mandir/$page" ]; then
		fail "no page $page in docs/man"
		return 0
	fi
	echo "$page" >>"$T/pages"
	page_text "$mandir/$page" >"$T/page.txt"
	# The tags of the page's .TP paragraphs (where options are described).
	awk 'prev ~ /^\.TP/ { print } { prev = $0 }' "$T/page.txt" >"$T/tags"
	for h in "$@"; do
		what="printed by '$(sed -n 1p "$h" | cut -c1-50)'"
		for opt in $(long_options "$h"); do
			has_option "$opt" "$T/page.txt" ||
				fail "$page does not mention $opt ($what)"
		done
		for opt in $(defined_options "$h"); do
			has_option "$opt" "$T/tags" ||
				fail "$page has no entry (.TP) for $opt ($what)"
		done
	done
	# .TH NAME 1 DATE "Sibyl VERSION" ...
	want=$(echo "${page%.1}" | tr 'a-z' 'A-Z')
	th=$(grep -m1 '^\.TH ' "$mandir/$page" | sed 's/\\-/-/g')
	checks=$((checks + 1))
	case $th in
	".TH $want 1 "*"\"Sibyl $version\""*) ;;
	*) fail "$page: expected '.TH $want 1 DATE \"Sibyl $version\" ...'," \
	       "found '$th'" ;;
	esac
}

# help_of FILE ARGS...: FILE gets 'sibyl ARGS --help', which must exit 0.
help_of() {
	out=$1
	shift
	checks=$((checks + 1))
	"$SIBYL" "$@" --help >"$out" 2>"$T/err" ||
		fail "'sibyl $* --help' failed: $(head -3 "$T/err")"
	[ -s "$out" ] || fail "'sibyl $* --help' printed nothing"
}

: >"$T/pages"

# (a), (b): sibyl and its commands.
help_of "$T/help" 
check_page sibyl.1 "$T/help"
commands=$(listed "Commands:" "$T/help")
[ -n "$commands" ] || fail "no command found in 'sibyl --help'"
for c in $commands; do
	if [ "$c" = help ]; then
		# 'sibyl help' has no page of its own: sibyl.1 describes it.
		checks=$((checks + 1))
		page_text "$mandir/sibyl.1" | grep -q 'sibyl help' ||
			fail "sibyl.1 does not describe 'sibyl help'"
		continue
	fi
	help_of "$T/help-$c" "$c"
	case $c in
	trace | noise)
		check_page "sibyl-$c.1" "$T/help-$c"
		subs=$(listed "Commands:" "$T/help-$c")
		[ -n "$subs" ] ||
			fail "no subcommand found in 'sibyl $c --help'"
		for s in $subs; do
			help_of "$T/help-$c-$s" "$c" "$s"
			check_page "sibyl-$c-$s.1" "$T/help-$c-$s"
		done
		;;
	plot)
		kinds=$(listed "Kinds:" "$T/help-$c")
		[ -n "$kinds" ] || fail "no kind found in 'sibyl plot --help'"
		files="$T/help-$c"
		for k in $kinds; do
			help_of "$T/help-$c-$k" "$c" "$k"
			files="$files $T/help-$c-$k"
		done
		check_page "sibyl-$c.1" $files
		;;
	*)
		check_page "sibyl-$c.1" "$T/help-$c"
		;;
	esac
done

# sibylcc: its long options, -show and every -showme:WHAT.
checks=$((checks + 1))
"$SIBYLCC" --help >"$T/help-sibylcc" 2>"$T/err" ||
	fail "'sibylcc --help' failed: $(head -3 "$T/err")"
check_page sibylcc.1 "$T/help-sibylcc"
page_text "$mandir/sibylcc.1" >"$T/page.txt" 2>/dev/null
for opt in $(grep -oE -- '-show(me)?(:[a-z]+)?' "$T/help-sibylcc" |
	     sort -u); do
	has_option "$opt" "$T/page.txt" ||
		fail "sibylcc.1 does not mention $opt"
done

# (a) the other way: every page is a command's, and is installed.
for f in "$mandir"/*.1; do
	[ -e "$f" ] || continue
	p=$(basename "$f")
	checks=$((checks + 2))
	grep -qx "$p" "$T/pages" ||
		fail "docs/man/$p documents no command that --help lists"
	grep -q "docs/man/$p" "$makefile" ||
		fail "docs/man/$p is not in dist_man1_MANS (docs/Makefile.inc)"
	if LC_ALL=C grep -qn '[^ -~	]' "$f"; then
		fail "docs/man/$p has non-ASCII bytes (use roff escapes):" \
		    "$(LC_ALL=C grep -n '[^ -~	]' "$f" | head -3)"
	fi
done

# (c) rendering without warnings.
if command -v groff >/dev/null 2>&1; then
	for p in $(cat "$T/pages"); do
		checks=$((checks + 1))
		groff -man -Tutf8 -ww -z "$mandir/$p" >"$T/warn" 2>&1
		rc=$?
		if [ $rc -ne 0 ] || [ -s "$T/warn" ]; then
			fail "docs/man/$p does not render cleanly (groff exit" \
			    "$rc):"
			sed 's/^/  /' "$T/warn" | head -20 >&2
		fi
	done
else
	echo "cli_man: groff is not installed; rendering not checked" >&2
fi

finish
