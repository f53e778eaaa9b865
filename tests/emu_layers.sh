#!/bin/sh
# The emulator's layers never call up by name (tests/emu_layers.py,
# docs/architecture.md's "Layers of the emulator"): the transport calls
# nothing of p2p, the collectives, the communicators or the output; p2p
# and comm call nothing of the collectives; the collectives call only the
# point-to-point of emulator/emu_p2p.h.  Then the check's own test: a
# small tree that breaks each rule once must be reported, file and line,
# and one whose files are missing is an error, not a pass.
. "$SIBYL_SRCDIR/tests/lib.sh"

layers() {
	python3 "$SIBYL_SRCDIR/tests/emu_layers.py" "$@"
}

# The tree itself.
expect_ok layers --root "$SIBYL_SRCDIR"

# A tree with one violation of each kind, and names the rules allow (in
# comments, in strings, declared in emu_p2p.h, the transport's own).
R="$T/tree"
mkdir -p "$R/emulator" || exit 99
cat >"$R/emulator/emu_p2p.h" <<'EOF'
/* emu_p2p_describe is not part of it. */
void emu_p2p_wait(void *r, const char *call, void *q);
typedef struct emu_p2p_coll_hooks emu_p2p_coll_hooks;
EOF
cat >"$R/emulator/transport.c" <<'EOF'
#include "emu_transport.h"
void emu_tr_progress(void)
{
	emu_p2p_arrived(0, 0, 0);   /* emu_comm_rt_arrived in a comment */
	puts("emu_out_flush in a string");
	void (*f)(void) = emu_out_flush;
}
EOF
cat >"$R/emulator/p2p.c" <<'EOF'
static void wait_one(void)
{
	emu_tr_progress();
	emu_coll_progress(0, 0);
}
EOF
cat >"$R/emulator/comm.c" <<'EOF'
// emu_coll_progress_rank once was here
void emu_comm_split(void)
{
	emu_p2p_progress_coll(0);
}
EOF
cat >"$R/emulator/coll.c" <<'EOF'
static void run_blocking(void)
{
	emu_p2p_wait(0, "", 0);
	static const emu_p2p_coll_hooks *h;
}
static void describe(char *buf)
{
	emu_p2p_describe(0, buf, 0);
}
EOF
cat >"$R/emulator/coll_seg.c" <<'EOF'
void coll_seg_pack(void) { emu_req_get(1); }
EOF

expect_exit 1 layers --root "$R"
cp "$T/out" "$T/violations"
for want in \
	'^emulator/transport\.c:4: emu_p2p_arrived: the transport calls the layers above only through the upcalls' \
	'^emulator/transport\.c:6: emu_out_flush: the transport' \
	'^emulator/p2p\.c:4: emu_coll_progress: p2p calls the collectives only through their hooks' \
	'^emulator/coll\.c:8: emu_p2p_describe: the collectives use only the point-to-point of emu_p2p\.h' \
	'^emulator/coll_seg\.c:1: emu_req_get: the collectives use only'
do
	expect_grep "$want" "$T/violations"
done
checks=$((checks + 1))
n=$(wc -l <"$T/violations")
[ "$n" -eq 5 ] || { fail "$n violations reported, 5 expected";
	sed 's/^/  | /' "$T/violations" >&2; }

# Once fixed, the tree passes.
sed -i 's/emu_p2p_arrived(0, 0, 0);/up->arrived(0, 0, 0);/; /emu_out_flush;/d' \
	"$R/emulator/transport.c"
sed -i 's/emu_coll_progress(0, 0);/hooks->progress(0, 0);/' \
	"$R/emulator/p2p.c"
sed -i 's/emu_p2p_describe(0, buf, 0);/buf[0] = 0;/' "$R/emulator/coll.c"
sed -i 's/emu_req_get(1);/emu_p2p_wait(0, 0, 0);/' "$R/emulator/coll_seg.c"
expect_ok layers --root "$R"

# Nothing to read is an error, not a pass: a wrong root, a missing file,
# a header that declares nothing, collectives that use nothing of it.
expect_exit 2 layers --root "$T/nowhere"
rm "$R/emulator/comm.c"
expect_exit 2 layers --root "$R"
expect_grep 'no .*emulator/comm\.c' "$T/err"
printf '// emu_coll_x\nvoid emu_comm_split(void) {}\n' >"$R/emulator/comm.c"
expect_ok layers --root "$R"
printf 'typedef int emu_p2p_coll_hooks;\n' >"$R/emulator/emu_p2p.h"
expect_exit 2 layers --root "$R"
expect_grep 'declares no emu_p2p_ function' "$T/err"
printf 'void emu_p2p_wait(void);\n' >"$R/emulator/emu_p2p.h"
sed -i 's/emu_p2p_wait/emu_dt_pack/' "$R/emulator/coll.c" \
	"$R/emulator/coll_seg.c"
expect_exit 2 layers --root "$R"
expect_grep 'use nothing of emu_p2p\.h' "$T/err"
finish
