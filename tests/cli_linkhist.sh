#!/bin/sh
# cli_linkhist.sh -- `sibyl linkhist' and `sibyl plot linkseries'.
#
# The histograms are checked on links.csv files written here by hand, so
# every bin count below is computed from the rule of docs/links.md: N
# equal bins from 0 to the top T (the largest value of the class over all
# runs, or --max); value v goes to bin floor(v * N / T), v = T to the last
# bin.  Plots are only checked when gnuplot is installed.
. "$SIBYL_SRCDIR/tests/lib.sh"

HEAD="link,class,src,dst,bandwidth_Bps,bytes,packets,busy_ps,utilization"

# mkrun DIR ROWS: a links.csv with rows "CLASS BYTES UTILIZATION".
mkrun() {
	mkdir -p "$T/$1"
	{
		echo "$HEAD"
		echo "$2" | awk 'NF { printf "%d,%s,\"r %d\",\"r (1,2)\",1000,%s,1,0,%s\n",
			n, $1, n, $2, $3; n++ }'
	} >"$T/$1/links.csv"
}

# A: LL 0 10 25 50 99 100, D 7 70.   B: LL 100 200, D 0.
mkrun A "LL 0 0.000000000
LL 10 0.100000000
LL 25 0.250000000
LL 50 0.500000000
LL 99 0.990000000
LL 100 1.000000000
D 7 0.070000000
D 70 0.700000000"
mkrun B "LL 100 0.100000000
LL 200 0.200000000
D 0 0.000000000"

cd "$T" || exit 99

expect_eq() {   # GOT WANT WHAT
	checks=$((checks + 1))
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

# csvrows CLASS RUN: "lo-hi:links ..." of the --csv file $T/h.csv.
csvrows() {
	awk -F, -v c="$1" -v r="$2" '$1 == c && $2 == r {
		printf "%s%s-%s:%s", sep, $3, $4, $5; sep = " " }' h.csv
}

# Common scale: LL from 0 to 200 (B's top) in bins of 20, D from 0 to 70
# in bins of 7.
expect_ok "$SIBYL" linkhist A B --csv h.csv
expect_eq "$(sed -n 1p h.csv)" "class,run,bin_lo,bin_hi,links" "CSV header"
expect_eq "$(csvrows LL A)" \
	"0-20:2 20-40:1 40-60:1 60-80:0 80-100:1 100-120:1 120-140:0 140-160:0 160-180:0 180-200:0" \
	"LL of A on the common scale"
expect_eq "$(csvrows LL B)" \
	"0-20:0 20-40:0 40-60:0 60-80:0 80-100:0 100-120:1 120-140:0 140-160:0 160-180:0 180-200:1" \
	"LL of B"
expect_eq "$(csvrows D A)" \
	"0-7:0 7-14:1 14-21:0 21-28:0 28-35:0 35-42:0 42-49:0 49-56:0 56-63:0 63-70:1" \
	"D of A"
expect_eq "$(csvrows D B)" \
	"0-7:1 7-14:0 14-21:0 21-28:0 28-35:0 35-42:0 42-49:0 49-56:0 56-63:0 63-70:0" \
	"D of B"
expect_eq "$(awk 'END { print NR }' h.csv)" 41 "CSV rows: 2 classes x 2 runs x 10 bins"
# The table shows the same counts: the LL bin 100-120 row has 1 and 1.
expect_grep '^LL \(scale 0 to 200 B\)' out
expect_grep '^  100 B +120 B +1 +1$' out
expect_grep '^  links +6 +2$' out

# Alone, A has its own scale: LL 0..100 in bins of 10.
expect_ok "$SIBYL" linkhist A --csv h.csv
expect_eq "$(csvrows LL A)" \
	"0-10:1 10-20:1 20-30:1 30-40:0 40-50:0 50-60:1 60-70:0 70-80:0 80-90:0 90-100:2" \
	"LL of A alone"

# --bins, --max (above the top: counted apart), --class.
expect_ok "$SIBYL" linkhist --bins 4 --max 100B --class LL A B --csv h.csv
expect_eq "$(csvrows LL B)" "0-25:0 25-50:0 50-75:0 75-100:1 100-inf:1" \
	"LL of B, 4 bins to 100, one above"
expect_eq "$(csvrows LL A)" "0-25:2 25-50:1 50-75:1 75-100:2 100-inf:0" \
	"LL of A, 4 bins to 100"
expect_eq "$(csvrows D A)" "" "--class LL leaves D out"
expect_grep '^  above +100 B +0 +1$' out
# Fractional edges are exact: 3 bins of 200/3.
expect_ok "$SIBYL" linkhist --bins 3 --class LL B --csv h.csv
expect_eq "$(csvrows LL B)" "0-66.667:0 66.667-133.333:1 133.333-200:1" \
	"3 bins of 200/3 bytes"

# By utilization: LL over both runs from 0 to 1 in quarters; 0.25 is the
# first value of the second bin.
expect_ok "$SIBYL" linkhist --by utilization --bins 4 A B --csv h.csv
expect_eq "$(csvrows LL A)" "0-0.25:2 0.25-0.5:1 0.5-0.75:1 0.75-1:2" \
	"LL utilization of A"
expect_eq "$(csvrows LL B)" "0-0.25:2 0.25-0.5:0 0.5-0.75:0 0.75-1:0" \
	"LL utilization of B"
expect_ok "$SIBYL" linkhist --by utilization --max 1/2 --bins 2 --class D A \
	--csv h.csv
expect_eq "$(csvrows D A)" "0-0.25:1 0.25-0.5:0 0.5-inf:1" "--max as a fraction"

# Logarithmic bins: 1, 5, 50, 500, 1000 in 3 bins from 1 to 1000 (edges
# 10 and 100); the zero is counted apart.
mkrun G "X 1 0
X 5 0
X 50 0
X 500 0
X 1000 0
X 0 0"
expect_ok "$SIBYL" linkhist --log --bins 3 G --csv h.csv
expect_eq "$(awk -F, 'NR > 1 { printf "%s ", $5 }' h.csv)" "1 2 1 2 " \
	"log bins: zero, [1,10), [10,100), [100,1000]"
expect_eq "$(awk -F, 'NR == 2 { print $3 "-" $4 }' h.csv)" "0-0" "zero row"

# JSON.
expect_ok "$SIBYL" linkhist --json --bins 2 A B
checks=$((checks + 1))
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["by"] == "bytes" and d["bins"] == 2 and d["runs"] == ["A", "B"], d
ll = d["classes"][0]
assert ll["class"] == "LL" and ll["top"] == 200 and ll["links"] == [6, 2], ll
assert [b["links"] for b in ll["bins"]] == [[5, 0], [1, 2]], ll
assert ll["bins"][1]["lo"] == 100 and ll["above"] == [0, 0], ll
' "$T/out" 2>"$T/py.err" || { fail "linkhist --json"; cat "$T/py.err" >&2; }

# A real run: a ping-pong of I iterations of S bytes puts I*S bytes on
# each of its 4 links, all in the last bin.
expect_ok "$SIBYL" trace gen -q -p pingpong -r 2 -i 3 -s 1000 -o pp.trace
expect_ok "$SIBYL" sim -q pp.trace -o pp.sim --link-trace 500ns
expect_ok "$SIBYL" linkhist pp.sim --bins 2 --csv h.csv
expect_eq "$(csvrows nic-out pp.sim)" "0-1500:0 1500-3000:2" "ping-pong nic-out"
expect_eq "$(csvrows nic-in pp.sim)" "0-1500:0 1500-3000:2" "ping-pong nic-in"

# Errors.
mkdir -p empty
expect_exit 2 "$SIBYL" linkhist empty
expect_grep "empty has no links.csv: run 'sibyl sim TRACE -o empty' first" err
expect_exit 2 "$SIBYL" linkhist nowhere
expect_grep "nowhere: no such output directory" err
expect_exit 2 "$SIBYL" linkhist
expect_exit 2 "$SIBYL" linkhist --by colour A
expect_grep "'colour' is not bytes or utilization" err
expect_exit 2 "$SIBYL" linkhist --bins 0 A
expect_exit 2 "$SIBYL" linkhist --max 0 A
expect_exit 2 "$SIBYL" linkhist --class LR A B
expect_grep "no link class 'LR' in the runs given; their classes are: LL, D" err
mkdir -p cut bad
{ echo "$HEAD"; echo '0,LL,a,b,1,5,1,0,0.1'; echo '1,LL,a,b,1'; } >cut/links.csv
expect_exit 1 "$SIBYL" linkhist A cut
expect_grep "cut/links.csv:3: 5 fields where the header has 9" err
{ echo "$HEAD"; echo '0,LL,a,b,1,5,1,0,0.1'; echo '1,LL,a,b,1,5x,1,0,0.1'; } >bad/links.csv
expect_exit 1 "$SIBYL" linkhist bad
expect_grep "bad/links.csv:3: column 'bytes': '5x' is not a whole number" err
expect_exit 1 "$SIBYL" linkhist --by utilization bad
expect_ok "$SIBYL" linkhist --by bytes --class D A
{ echo "link,class"; echo "0,LL"; } >bad/links.csv
expect_exit 1 "$SIBYL" linkhist bad
expect_grep "bad/links.csv:1: the header has no column 'bytes'" err

# ----------------------------------------------------------- plots
expect_ok "$SIBYL" plot --help
expect_grep '^  linkseries ' out
expect_exit 2 "$SIBYL" plot histogram pp.sim -o x.png
expect_grep "unknown plot kind 'histogram'; the kinds are:" err
expect_exit 2 "$SIBYL" plot linkseries A -o x.png
expect_grep "A has no linkseries.csv: run 'sibyl sim TRACE -o A --link-trace" err
expect_exit 2 "$SIBYL" plot linkseries pp.sim -o x.jpg
expect_grep "x.jpg: the plot file must end in .png or .svg" err
expect_exit 2 "$SIBYL" plot linkseries pp.sim
expect_grep "no image given" err
# No gnuplot on PATH: a clear error naming the package, and no image.
mkdir -p nobin
expect_exit 2 env PATH="$T/nobin" "$SIBYL" linkhist A --plot x.png
expect_grep "gnuplot-nox" err
expect_exit 2 env PATH="$T/nobin" "$SIBYL" plot linkseries pp.sim -o x.png
expect_grep "gnuplot-nox" err
checks=$((checks + 1))
[ ! -e x.png ] || fail "an image was written without gnuplot"

if command -v gnuplot >/dev/null 2>&1; then
	is_png() {
		checks=$((checks + 1))
		[ -s "$1" ] && [ "$(head -c 4 "$1" | tail -c 3)" = PNG ] ||
			fail "$1 is not a PNG image"
	}
	is_svg() {
		checks=$((checks + 1))
		[ -s "$1" ] && grep -q '<svg' "$1" || fail "$1 is not an SVG image"
	}
	expect_ok "$SIBYL" linkhist A B --plot h.png
	is_png h.png
	expect_ok "$SIBYL" linkhist --by utilization --log A B --plot h.svg
	is_svg h.svg
	expect_ok "$SIBYL" plot linkseries pp.sim -o s.png
	is_png s.png
	expect_ok "$SIBYL" plot linkseries pp.sim --links nic-out,3 -o s.svg \
		--title "it's a test"
	is_svg s.svg
	expect_grep "link 3 \(nic-in\)" s.svg
	checks=$((checks + 1))
	grep -q "link 2 (nic-in)" s.svg && fail "s.svg shows link 2, not chosen"
	expect_exit 2 "$SIBYL" plot linkseries pp.sim --links LL -o s.png
	expect_grep "'LL' is not a link class of pp.sim/linkseries.csv; its classes are: nic-out, nic-in" err
	expect_exit 2 "$SIBYL" plot linkseries pp.sim --links 9 -o s.png
	expect_grep "there is no link 9" err
	# Links the series does not hold are refused by name.
	expect_ok "$SIBYL" sim -q pp.trace -o part.sim --link-trace 500ns \
		--link-select 1
	expect_exit 2 "$SIBYL" plot linkseries part.sim --links 0-1 -o s.png
	expect_grep "link 0 is not in part.sim/linkseries.csv" err
	ls ./*.tmp-* >/dev/null 2>&1 && fail "temporary plot files left"
else
	echo "gnuplot not found: the images are not checked" >&2
fi

finish
