#!/usr/bin/env python3
"""Check that the emulator's layers never call up by name.

  tests/emu_layers.py [--root SRCDIR]

Reads the sources in SRCDIR/emulator and checks the rules of
docs/architecture.md's "Layers of the emulator", in the code of each
file (comments and string literals left out):

  1. transport.c, the lowest layer, names no emu_p2p_*, emu_coll_*,
     emu_comm_* or emu_out_* function: it reaches the layers above
     through the upcalls they register (emu_tr_set_upcalls);
  2. p2p.c and comm.c name no emu_coll_* function: they reach the
     collectives through the hooks the collectives register
     (emu_p2p_set_coll_hooks);
  3. the collectives (coll*.c) name no emu_p2p_* or emu_req_* function
     but those emulator/emu_p2p.h declares, their interface to
     point-to-point.

Prints one line per violation (FILE:LINE: NAME: the rule) and exits 1
if there is any, 2 when a file it must read is missing or it finds
nothing to check (a wrong path must not pass), 0 otherwise.
"""
import argparse
import glob
import os
import re
import sys

IDENT = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
# Comments and literals, which may name anything.
LEXEMES = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"'
                     r"|'(?:\\.|[^'\\\n])*'", re.S)

RULES = (
    ("transport.c", re.compile(r"^emu_(p2p|coll|comm|out)_"),
     "the transport calls the layers above only through the upcalls "
     "they register (emu_tr_set_upcalls)"),
    ("p2p.c", re.compile(r"^emu_coll_"),
     "p2p calls the collectives only through their hooks "
     "(emu_p2p_set_coll_hooks)"),
    ("comm.c", re.compile(r"^emu_coll_"),
     "comm calls the collectives only through p2p's hooks "
     "(emu_p2p_progress_coll)"),
)
P2P_NAME = re.compile(r"^emu_(p2p|req)_")


def die(msg):
    print("emu_layers.py: " + msg, file=sys.stderr)
    sys.exit(2)


def code_of(path):
    """The file's text with comments and literals blanked, lines kept."""
    try:
        text = open(path, encoding="utf-8").read()
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))

    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return LEXEMES.sub(blank, text)


def names(path):
    """(line, identifier) of every identifier in the file's code."""
    found = []
    for n, line in enumerate(code_of(path).splitlines(), 1):
        found.extend((n, m.group(0)) for m in IDENT.finditer(line))
    if not found:
        die("%s: no code" % path)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=".")
    args = ap.parse_args()
    emu = os.path.join(args.root, "emulator")
    if not os.path.isdir(emu):
        die("no directory %s" % emu)
    bad = []

    for fname, pattern, why in RULES:
        path = os.path.join(emu, fname)
        if not os.path.isfile(path):
            die("no %s" % path)
        found = names(path)
        if not any(name.startswith("emu_") for _, name in found):
            die("%s: no emu_ name in its code; is it the emulator's?" %
                path)
        for n, name in found:
            if pattern.match(name):
                bad.append("emulator/%s:%d: %s: %s" % (fname, n, name, why))

    header = os.path.join(emu, "emu_p2p.h")
    if not os.path.isfile(header):
        die("no %s" % header)
    allowed = {name for _, name in names(header) if P2P_NAME.match(name)}
    if not re.search(r"\bemu_p2p_\w+\s*\(", code_of(header)):
        die("%s declares no emu_p2p_ function" % header)
    colls = sorted(glob.glob(os.path.join(emu, "coll*.c")))
    if not colls:
        die("no coll*.c in %s" % emu)
    used = 0
    for path in colls:
        fname = os.path.basename(path)
        for n, name in names(path):
            used += name in allowed
            if P2P_NAME.match(name) and name not in allowed:
                bad.append("emulator/%s:%d: %s: the collectives use only "
                           "the point-to-point of emu_p2p.h" %
                           (fname, n, name))

    # The collectives send and receive: a scan that sees none of it
    # sees nothing.
    if not used:
        die("coll*.c in %s use nothing of emu_p2p.h" % emu)
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
