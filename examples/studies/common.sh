# common.sh -- what the study scripts share; sourced by each after it has
# parsed its options.  Needs $study (the script's name, for messages),
# $out (the output directory) and $force (non-empty: replace $out).
#
# Sets $sibyl to the driver: $SIBYL, else build/sibyl of this source
# tree, else `sibyl' on the PATH; checks that it runs; refuses an existing
# $out without --force, and creates it empty.

here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${SIBYL:-}" ]; then
	sibyl=$SIBYL
elif [ -x "$here/../../build/sibyl" ]; then
	sibyl=$here/../../build/sibyl
else
	sibyl=sibyl
fi
"$sibyl" --version >/dev/null 2>&1 || {
	echo "$study: cannot run '$sibyl'; build Sibyl (sh quickstart.sh) or set SIBYL" >&2
	exit 2
}

if [ -e "$out" ] && [ -z "$force" ]; then
	echo "$study: '$out' exists; choose another -o DIR or pass --force" >&2
	exit 2
fi
rm -rf "$out"
mkdir -p "$out"
