#!/bin/sh
# The folders keep to docs/architecture.md's dependency table
# (tests/layers.py): what each source includes, what each target's
# include path and links name, and what each built library's symbols
# need.  Then the check's own test: a small tree that breaks each rule
# once (a noise source including a network model's header, the noise
# library naming netmodels/ in its include path and linking the network
# library, a target with no include path of its own, a library that uses
# another's symbol without linking it) must be reported, rule by rule.
. "$SIBYL_SRCDIR/tests/lib.sh"

layers() {
	python3 "$SIBYL_SRCDIR/tests/layers.py" "$@"
}

# The tree itself, with the libraries this build made.
checks=$((checks + 1))
if ! layers --root "$SIBYL_SRCDIR" --build "$SIBYLCC_LIBDIR" \
	>"$T/out" 2>"$T/err"; then
	fail "the source tree breaks docs/architecture.md's table"
	sed 's/^/  | /' "$T/out" "$T/err" >&2
fi

# A tree with one violation of each kind.
R="$T/tree"
mkdir -p "$R/docs" "$R/base" "$R/netmodels" "$R/noise" "$R/tools" ||
	exit 99
cat >"$R/docs/architecture.md" <<'EOF'
# Test

## The dependency table

| folder | what | may use | outside |
|---|---|---|---|
| `base/` | helpers | none | libc |
| `netmodels/` | networks | base | |
| `noise/` | noise | base | |
| `tools/` | driver | all | |

## After
| `noise/` | not part of the table | all | |
EOF
printf 'int netm_fn(void);\n' >"$R/netmodels/netmodel.h"
printf 'int netm_fn(void) { return 1; }\n' >"$R/netmodels/net.c"
printf 'int sib_fn(void);\n' >"$R/base/sib.h"
printf '%s\n' '#include "config.h"' '#include "../base/sib.h"' \
	'#include "netmodel.h"' 'int noise_fn(void) { return netm_fn(); }' \
	>"$R/noise/bad.c"
printf '%s\n' '#include "netmodel.h"' '#include "../noise/bad.c"' \
	>"$R/tools/main.c"
printf '%s\n' 'noinst_LTLIBRARIES += libsibyl-net.la' \
	'libsibyl_net_la_SOURCES = netmodels/net.c' \
	'libsibyl_net_la_CPPFLAGS = -I$(top_srcdir)/base' \
	>"$R/netmodels/Makefile.inc"
printf '%s\n' 'noinst_LTLIBRARIES += libsibyl-base.la' \
	'libsibyl_base_la_SOURCES = base/sib.c' \
	'libsibyl_base_la_CPPFLAGS =' >"$R/base/Makefile.inc"
: >"$R/Makefile.am"
# noise_mk DIR LIB LINE: the noise library's Makefile.inc, its include
# path naming base/ and DIR, its LIBADD the base library and LIB, and
# LINE last.
noise_mk() {
	printf '%s\n' 'NOISE_FLAGS = -I$(top_srcdir)/base \' \
		"	-I\$(top_srcdir)/$1" \
		'noinst_LTLIBRARIES += libsibyl-noise.la' \
		'libsibyl_noise_la_SOURCES = noise/bad.c' \
		'libsibyl_noise_la_CPPFLAGS = $(NOISE_FLAGS)' \
		'libsibyl_noise_la_LIBADD = libsibyl-base.la \' \
		"	$2" \
		'noinst_PROGRAMS += noise/capture' \
		'noise_capture_SOURCES = noise/capture.c' \
		"$3" >"$R/noise/Makefile.inc"
}
noise_mk netmodels libsibyl-net.la ""

# Built libraries: the noise library calls netm_fn.
B="$T/build"
mkdir -p "$B/.libs" && : >"$B/config.h" || exit 99
for lib in net:netmodels/net.c noise:noise/bad.c; do
	name=${lib%%:*} src=${lib#*:}
	cc -c -I"$B" -I"$R/netmodels" -o "$B/$name.o" "$R/$src" \
		2>"$T/cc.err" &&
	ar cr "$B/.libs/libsibyl-$name.a" "$B/$name.o" 2>>"$T/cc.err" ||
		{ sed 's/^/  | /' "$T/cc.err" >&2; exit 99; }
done

expect_exit 1 layers --root "$R" --build "$B"
cp "$T/out" "$T/violations"
for want in \
	'^noise/bad\.c:3: includes "netmodel\.h" \(netmodels/\): noise/ may use base/, noise/ only' \
	'^noise/Makefile\.inc:5: libsibyl_noise_la_CPPFLAGS names netmodels/: noise/ may use base/, noise/ only' \
	'^noise/Makefile\.inc:6: libsibyl_noise_la_LIBADD links libsibyl-net \(netmodels/\)' \
	'^noise/Makefile\.inc:9: noise_capture has no _CPPFLAGS of its own'
do
	expect_grep "$want" "$T/violations"
done
# What is allowed is not reported: base/ from noise/, config.h, anything
# from tools/ ("all"), the row after the table.  The noise library links
# the network library (against the table, reported above), so its use of
# netm_fn is not reported as well.
checks=$((checks + 1))
if grep -E '^(noise/bad\.c:[12]:|tools/|base/|\.libs/)' \
	"$T/violations" >&2; then
	fail "allowed includes or links were reported"
fi
checks=$((checks + 1))
n=$(wc -l <"$T/violations")
[ "$n" -eq 4 ] || { fail "$n violations reported, 4 expected";
	cat "$T/violations" >&2; }

# Without the link, the use of the network library's symbol is reported.
noise_mk base "" ""
expect_exit 1 layers --root "$R" --build "$B"
expect_grep '^\.libs/libsibyl-noise\.a: uses netm_fn of libsibyl-net without linking it \(libsibyl_noise_la_LIBADD names libsibyl-base\)' "$T/out"

# The same tree passes once the table allows what it does.
noise_mk netmodels libsibyl-net.la "noise_capture_CPPFLAGS ="
sed 's/^| `noise\/` | noise | base |/| `noise\/` | noise | base, netmodels |/' \
	"$R/docs/architecture.md" >"$T/md" && mv "$T/md" "$R/docs/architecture.md"
expect_exit 0 layers --root "$R" --build "$B"

# A table that names a folder it does not have is an error of its own.
sed 's/| base, netmodels |/| base, fastsim |/' "$R/docs/architecture.md" \
	>"$T/md" && mv "$T/md" "$R/docs/architecture.md"
expect_exit 2 layers --root "$R"
expect_grep 'noise/ may use fastsim, which is not in the table' "$T/err"
finish
