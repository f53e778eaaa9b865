#!/bin/sh
# quickstart.sh -- install what is missing, build Sibyl in ./build, run the demo.
#
#   sh quickstart.sh            install (as root) or list missing packages,
#                               build, run the demo: emulate -> simulate
#                               on PERCS with OS noise -> link histogram
#                               and its plot
#   sh quickstart.sh --no-demo  only install and build
#
# As root the missing Debian packages are installed with apt-get; as another
# user the exact apt-get line is printed and the script stops.
set -eu
cd "$(dirname "$0")"
top=$(pwd)

packages="build-essential autoconf automake libtool pkg-config make
libopenmpi-dev openmpi-bin libhwloc-dev zlib1g-dev libarchive-dev
libdw-dev gnuplot-nox gfortran"

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" -eq 0 ]; then
		echo "== installing:$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $missing
	else
		echo "Sibyl needs these Debian packages:$missing"
		echo "Install them with:"
		echo "  sudo apt-get install$missing"
		echo "then run this script again."
		exit 1
	fi
fi

echo "== building in $top/build"
if [ ! -x configure ]; then
	./bootstrap.sh >bootstrap.log 2>&1 || {
		cat bootstrap.log
		echo "bootstrap.sh failed (autoconf, automake, libtool?)" >&2
		exit 1
	}
fi
mkdir -p build
cd build
[ -f Makefile ] || ../configure --quiet
make -j"$(nproc 2>/dev/null || echo 2)" >make.log 2>&1 || {
	tail -40 make.log
	echo "build failed; the full log is build/make.log" >&2
	exit 1
}

[ "${1:-}" = "--no-demo" ] && exit 0

echo
echo "== demo: emulate the k-neighbor example on 4,096 virtual ranks (2 processes)"
demo=$top/build/demo
mkdir -p "$demo"
# sibylcc from the build tree: headers and library not installed yet.
SIBYLCC_INCDIR=$top/emulator/include SIBYLCC_LIBDIR=$top/build \
	./emulator/sibylcc -O2 ../examples/kneighbor.c -o "$demo/kneighbor"
./sibyl emulate --ranks 4096 -np 2 -o "$demo/kneighbor.trace" --force \
	-- "$demo/kneighbor" 1024 5 2 100
echo
echo "== sibyl trace info"
./sibyl trace info "$demo/kneighbor.trace"
echo
echo "== sibyl trace check"
./sibyl trace check "$demo/kneighbor.trace"
echo
echo "== sibyl sim: 32 ranks per node, 1 us / 10 GB/s network"
./sibyl sim "$demo/kneighbor.trace" --force -o "$demo/kneighbor.sim" \
	--set machine.cores_per_node=32 --set net.latency=1us \
	--set net.bandwidth=10GB/s
echo
echo "== sibyl noise stats: a noise set, 32 cores of a node: a 20 us detour every"
echo "   10 ms on every core (a daemon) and a 2 us tick every 1 ms (timer)"
rm -rf "$demo/noise"
mkdir -p "$demo/noise"
c=0
while [ $c -lt 32 ]; do
	echo "$c 10ms 20us 0us"
	echo "$c 1ms 2us 0us"
	c=$((c + 1))
done >"$demo/noise/cores"
./sibyl noise stats "$demo/noise" | head -6
echo
echo "== sibyl sim: the same trace on 4 supernodes of the packet-level PERCS network, with that noise"
./sibyl sim "$demo/kneighbor.trace" --force -o "$demo/kneighbor-percs.sim" \
	--set machine.cores_per_node=32 --set net.model=percs \
	--noise "$demo/noise"
echo
echo "== sibyl linkhist: PERCS links by bytes carried"
plot=
command -v gnuplot >/dev/null 2>&1 && plot="--plot links.png"
# In the demo directory, so that the column is named by the run.
# shellcheck disable=SC2086
(cd "$demo" && "$top/build/sibyl" linkhist kneighbor-percs.sim \
	--class LL,LR,D --bins 5 $plot)
[ -n "$plot" ] && echo "plot: $demo/links.png"
echo
echo "Next: README.md (worked examples), docs/guide.md, make studies."
