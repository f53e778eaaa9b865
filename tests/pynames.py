#!/usr/bin/env python3
"""Names that a Python script reads and nothing in it defines.

  tests/pynames.py FILE.py...

The bench scripts run for many minutes before they reach some of their
sections, and nothing else runs them: a function renamed or lost in an
edit shows only as a NameError at the end of a long run.  This reads
each file's syntax tree (nothing is run) and reports every name that is
loaded somewhere and bound nowhere in the file (a def, a class, an
argument, an assignment, an import, a loop or comprehension target, an
exception name, a global) and is not a builtin.  It does not follow
scopes: a name bound in one function and read in another passes, which
keeps it free of false alarms at the cost of missing that case.

Prints FILE:LINE: NAME for each, and exits 1 when there is any, 2 when a
file cannot be read or parsed.
"""
import ast
import builtins
import sys


def bound_names(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                             ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx,
                                                           ast.Load):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                names.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
        elif isinstance(node, ast.MatchAs) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchStar) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
    return names


def check(path):
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
    except (OSError, SyntaxError, UnicodeDecodeError) as e:
        print("%s: cannot check: %s" % (path, e), file=sys.stderr)
        return None
    known = bound_names(tree) | set(dir(builtins)) | {"__file__",
                                                      "__name__"}
    bad = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
                and node.id not in known):
            bad.append((node.lineno, node.id))
    return sorted(bad)


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) > 1 else 2
    rc = 0
    for path in sys.argv[1:]:
        bad = check(path)
        if bad is None:
            rc = 2
            continue
        for line, name in bad:
            print("%s:%d: %s is read and never defined" % (path, line, name))
            rc = max(rc, 1)
    return rc


if __name__ == "__main__":
    sys.exit(main())
