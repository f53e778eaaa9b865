#!/usr/bin/env python3
"""Check Sibyl's folders against the dependency table of docs/architecture.md.

  tests/layers.py [--root SRCDIR] [--build BUILDDIR]

Reads the table ("may use") from SRCDIR/docs/architecture.md and checks:

  1. every #include "..." in a folder's sources resolves to the folder
     itself or to one it may use;
  2. every Sibyl -I in a target's _CPPFLAGS, and every Sibyl library in its
     _LIBADD/_LDADD (the folder's Makefile.inc), is one its folder may
     use, and every target of a library folder has _CPPFLAGS of its own
     (the top Makefile.am's AM_CPPFLAGS names every folder);
  3. with --build, each built library's undefined Sibyl symbols (sib_,
     sibt_, netm_, noise_, fsim_... names) that another Sibyl library
     defines are defined by a library it links itself.

Prints one line per violation (FILE:LINE: what, and the rule) and exits 1
if there is any, 2 on a usage or table error, 0 otherwise.
"""
import argparse
import os
import re
import subprocess
import sys

SRC_EXT = (".c", ".h", ".S", ".cc", ".cpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def die(msg):
    print("layers.py: " + msg, file=sys.stderr)
    sys.exit(2)


def read_table(root):
    """{folder: set of folders it may use} from docs/architecture.md."""
    path = os.path.join(root, "docs", "architecture.md")
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    rows, intable = {}, False
    for line in lines:
        if line.startswith("## "):
            intable = line.strip() == "## The dependency table"
            continue
        m = re.match(r"^\|\s*`([a-z_]+)/`\s*\|[^|]*\|([^|]*)\|", line)
        if intable and m:
            used = m.group(2).strip()
            rows[m.group(1)] = used
    if not rows:
        die("%s: no table under \"## The dependency table\"" % path)
    table = {}
    for folder, used in rows.items():
        if used == "all":
            table[folder] = set(rows)
        elif used in ("none", ""):
            table[folder] = set()
        else:
            names = {u.strip().strip("`").rstrip("/")
                     for u in used.split(",")}
            unknown = names - set(rows)
            if unknown:
                die("%s: %s/ may use %s, which is not in the table"
                    % (path, folder, ", ".join(sorted(unknown))))
            table[folder] = names
        table[folder].add(folder)
    return table


def sources(root, folder):
    top = os.path.join(root, folder)
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in sorted(files):
            if f.endswith(SRC_EXT):
                yield os.path.join(d, f)


def owner(root, path, table):
    rel = os.path.relpath(path, root)
    top = rel.split(os.sep, 1)[0]
    return top if top in table else None


def check_includes(root, table, out):
    headers = {}        # relative path within its folder -> owners
    for folder in table:
        for f in sources(root, folder):
            if f.endswith(".h"):
                rel = os.path.relpath(f, os.path.join(root, folder))
                headers.setdefault(rel, set()).add(folder)
    for folder in sorted(table):
        for f in sources(root, folder):
            try:
                text = open(f, encoding="utf-8", errors="replace")
            except OSError:
                continue
            with text:
                for n, line in enumerate(text, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    inc = m.group(1)
                    if inc == "config.h":
                        continue        # the build's, in every target
                    here = os.path.normpath(
                        os.path.join(os.path.dirname(f), inc))
                    if os.path.exists(here):
                        found = {owner(root, here, table)}
                    else:
                        found = headers.get(os.path.normpath(inc), set())
                    if not found or None in found:
                        out.append("%s:%d: includes \"%s\", which is in "
                                   "no folder of the table"
                                   % (os.path.relpath(f, root), n, inc))
                        continue
                    if not found & table[folder]:
                        out.append("%s:%d: includes \"%s\" (%s/): %s/ may "
                                   "use %s only (docs/architecture.md)"
                                   % (os.path.relpath(f, root), n, inc,
                                      "/, ".join(sorted(found)), folder,
                                      may_use(table, folder)))


def may_use(table, folder):
    return ", ".join(x + "/" for x in sorted(table[folder]))


def make_assignments(path):
    """(line number, name, op, value) of each assignment, lines joined."""
    try:
        lines = open(path, encoding="utf-8").read().split("\n")
    except OSError:
        return []
    result, i = [], 0
    while i < len(lines):
        start, text = i + 1, lines[i]
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text[:-1] + " " + lines[i]
        i += 1
        if text.lstrip().startswith("#") or text.startswith("\t"):
            continue
        m = re.match(r"^\s*([A-Za-z0-9_]+)\s*(\+?=)\s*(.*)$", text)
        if m:
            result.append((start, m.group(1), m.group(2), m.group(3)))
    return result


def expand(value, variables, depth=0):
    if depth > 8:
        return value
    return re.sub(r"\$\(([A-Za-z0-9_]+)\)",
                  lambda m: expand(variables[m.group(1)], variables,
                                   depth + 1)
                  if m.group(1) in variables else m.group(0), value)


def library_owners(root, table):
    """{libsibyl-X: folder}, from the Makefile.inc that builds it."""
    libs = {}
    for folder in table:
        for _, name, _, value in make_assignments(
                os.path.join(root, folder, "Makefile.inc")):
            if name.endswith("LIBRARIES") or name.endswith("_DATA"):
                for lib in re.findall(r"\b(libsibyl-[a-z]+)\.(?:la|a)\b",
                                      value):
                    libs.setdefault(lib, folder)
    return libs


def check_makefiles(root, table, libs, out):
    variables = {}
    incs = [os.path.join(root, "Makefile.am")] + [
        os.path.join(root, f, "Makefile.inc") for f in sorted(table)]
    for path in incs:
        for _, name, op, value in make_assignments(path):
            if op == "=" and name not in variables:
                variables[name] = value
    links = {}
    for folder in sorted(table):
        path = os.path.join(root, folder, "Makefile.inc")
        rel = os.path.relpath(path, root)
        assigned = make_assignments(path)
        targets, flagged = {}, set()
        for n, name, _, value in assigned:
            m = re.match(r"^(.+)_(SOURCES|CPPFLAGS|LIBADD|LDADD)$", name)
            if not m or m.group(1).startswith(("AM", "EXTRA", "nodist")):
                continue
            target, kind = m.group(1), m.group(2)
            if kind == "SOURCES":
                targets.setdefault(target, n)
                continue
            value = expand(value, variables)
            if kind == "CPPFLAGS":
                flagged.add(target)
                for d in re.findall(r"-I\s*\$\(top_srcdir\)/([a-z_]+)",
                                    value):
                    if d in table and d not in table[folder]:
                        out.append("%s:%d: %s_CPPFLAGS names %s/: %s/ may "
                                   "use %s only (docs/architecture.md)"
                                   % (rel, n, target, d, folder,
                                      may_use(table, folder)))
            else:
                for lib in re.findall(r"\b(libsibyl-[a-z]+)\.(?:la|a)\b",
                                      value):
                    links.setdefault(target, set()).add(lib)
                    d = libs.get(lib)
                    if d and d not in table[folder]:
                        out.append("%s:%d: %s_%s links %s (%s/): %s/ may "
                                   "use %s only (docs/architecture.md)"
                                   % (rel, n, target, kind, lib, d, folder,
                                      may_use(table, folder)))
        if table[folder] != set(table):
            for target, n in sorted(targets.items()):
                if target not in flagged:
                    out.append("%s:%d: %s has no _CPPFLAGS of its own: it "
                               "would see every folder's headers "
                               "(AM_CPPFLAGS)" % (rel, n, target))
    return links


def symbols(path):
    """(defined, undefined) global symbols of an archive or library."""
    cmd = ["nm", "-g"]
    if path.endswith(".so"):
        cmd.append("-D")
    p = subprocess.run(cmd + [path], capture_output=True, text=True)
    if p.returncode != 0:
        die("nm %s: %s" % (path, p.stderr.strip()))
    defined, undefined = set(), set()
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("U", "w", "v"):
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] not in ("U", "w", "v"):
            defined.add(parts[2])
    return defined, undefined - defined


def check_symbols(build, libs, links, out):
    files = {}
    for lib in libs:
        for cand in (os.path.join(build, ".libs", lib + ".a"),
                     os.path.join(build, ".libs", lib + ".so"),
                     os.path.join(build, lib + "-objs.a"),
                     os.path.join(build, lib + ".a")):
            if os.path.exists(cand):
                files[lib] = cand
                break
    syms = {lib: symbols(f) for lib, f in files.items()}
    # Only Sibyl's own names: the emulator also defines libc functions
    # (the calls it interposes), which the other libraries take from libc.
    ours = re.compile(r"^(sib|sibt|netm|noise|fsim|pktnet|tf|emu|ult|coll|"
                      r"gen|map|cal)_"
                      r"|^(SIB|SIBT|SIBYL|sibyl)_")
    for lib, (_, undefined) in sorted(syms.items()):
        target = lib.replace("-", "_") + ("_la" if not
                                          files[lib].endswith("objs.a")
                                          else "_objs_a")
        linked = links.get(target, set())
        for sym in sorted(x for x in undefined if ours.match(x)):
            where = sorted(o for o, (d, _) in syms.items()
                           if o != lib and sym in d)
            if where and not set(where) & linked:
                out.append("%s: uses %s of %s without linking it (%s_LIBADD "
                           "names %s)" % (os.path.relpath(files[lib], build),
                                          sym, " or ".join(where), target,
                                          ", ".join(sorted(linked))
                                          or "none"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), help="the source tree (default: the "
        "one this script is in)")
    ap.add_argument("--build", help="a build directory: also check the "
                    "built libraries' symbols")
    args = ap.parse_args()
    table = read_table(args.root)
    out = []
    check_includes(args.root, table, out)
    libs = library_owners(args.root, table)
    links = check_makefiles(args.root, table, libs, out)
    if args.build:
        check_symbols(args.build, libs, links, out)
    for line in out:
        print(line)
    print("%d violation%s of docs/architecture.md's table (%d folders)"
          % (len(out), "" if len(out) == 1 else "s", len(table)),
          file=sys.stderr)
    sys.exit(1 if out else 0)


if __name__ == "__main__":
    main()
