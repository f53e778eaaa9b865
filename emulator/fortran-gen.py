#!/usr/bin/env python3
"""fortran-gen.py -- write Sibyl's Fortran bindings from its C headers.

    python3 emulator/fortran-gen.py [SRCDIR [OUTDIR]]

reads emulator/include/mpi.h and the headers it includes, and writes (in
OUTDIR, by default SRCDIR)

  emulator/fortran.c         one gfortran-callable routine (mpi_send_, and
                             its pmpi_send_ alias) per C routine it can
                             bind, calling the C routine
  emulator/include/mpif.h    the constants: every integer constant of the
                             C headers, the Fortran datatypes, the status
                             layout, the sentinel variables (MPI_BOTTOM,
                             MPI_IN_PLACE, MPI_STATUS_IGNORE...) and the
                             functions' types

Both are committed; tests/emu_fortran.sh checks that they are what this
script writes.  The binding of each parameter follows from its C type:
Fortran passes everything by reference, handles are the C handles (INTEGER
both), a status is the C MPI_Status's six INTEGERs, a string has its length
as a hidden size_t argument after the others.  Routines with parameters no
Fortran program can pass the C way (attribute callbacks, argv arrays) are
left out: a call to one fails to link, naming it; docs/emulator.md lists
them.  The hand-written part (MPI_Init, MPI_Wtime, the sentinels, the
status and string conversions, STOP) is emulator/fortran_rt.c.
"""
import os
import re
import sys

SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..")
INC = os.path.join(SRC, "emulator", "include")
OUT = sys.argv[2] if len(sys.argv) > 2 else SRC
HEADERS = ["mpi.h", "sibyl_mpi_dt.h", "sibyl_mpi_comm.h",
           "sibyl_mpi_coll.h", "sibyl_mpi_rma.h", "sibyl_mpi_more.h"]

# Routines fortran_rt.c binds by hand.
BY_HAND = {"MPI_Init", "MPI_Init_thread", "MPI_Pcontrol", "MPI_Wtime",
           "MPI_Wtick", "MPI_Aint_add", "MPI_Aint_diff",
           "MPI_Buffer_detach", "MPI_Comm_get_attr", "MPI_Attr_get"}
# Handles and other C types passed by value that are a Fortran INTEGER.
INT_BY_VALUE = {"int", "const int", "MPI_Comm", "MPI_Datatype", "MPI_Group",
                "MPI_Request", "MPI_Op", "MPI_Info", "MPI_Win", "MPI_File",
                "MPI_Errhandler", "MPI_Message"}
# INTEGER(KIND=8) by value.
WIDE_BY_VALUE = {"MPI_Aint", "MPI_Offset", "MPI_Count"}
# Pointers and arrays Fortran passes as they are.
PASS = {"int *", "int []", "const int []", "MPI_Request *",
        "MPI_Request []", "MPI_Datatype *", "const MPI_Datatype []",
        "MPI_Datatype []", "MPI_Comm *", "MPI_Group *", "MPI_Aint *",
        "MPI_Aint []", "const MPI_Aint []", "MPI_Offset *", "MPI_Count *",
        "MPI_Info *", "const MPI_Info []", "MPI_Win *", "MPI_Errhandler *",
        "MPI_Message *", "MPI_Op *", "MPI_File *", "int [][3]"}
# Procedure arguments whose Fortran form is the C one (every argument
# by reference).
CALLBACKS = {"MPI_User_function *", "MPI_Comm_errhandler_function *",
             "MPI_Handler_function *", "MPI_File_errhandler_function *",
             "MPI_Win_errhandler_function *"}
# Attribute values: Fortran passes and gets the value, C a pointer to it.
# MPI_Comm_get_attr and MPI_Attr_get (the predefined attributes) are in
# BY_HAND; attribute keys cannot be made from Fortran (the callbacks), so
# the others have nothing to work on.
NOT_BOUND = {
    "MPI_Comm_set_attr": "attribute keys cannot be created from Fortran",
    "MPI_Attr_put": "attribute keys cannot be created from Fortran",
    "MPI_Type_set_attr": "attribute keys cannot be created from Fortran",
    "MPI_Type_get_attr": "attribute keys cannot be created from Fortran",
    "MPI_Win_set_attr": "attribute keys cannot be created from Fortran",
    "MPI_Win_get_attr": "attribute keys cannot be created from Fortran",
}
# Out parameters holding an index into an array of requests: 0-based in
# C, 1-based in Fortran.
INDEX_OUT = {"MPI_Waitany": "index", "MPI_Testany": "index",
             "MPI_Waitsome": "indices",
             "MPI_Testsome": "indices"}
# int * parameters that may be a sentinel of mpif.h.
INT_SENTINELS = {"weights", "sourceweights", "destweights",
                 "array_of_errcodes"}


def read_headers():
    text = ""
    for h in HEADERS:
        with open(os.path.join(INC, h)) as f:
            text += f.read() + "\n"
    return text


def prototypes(text):
    code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    code = re.sub(r"^#.*$", "", code, flags=re.M)
    code = re.sub(r"\btypedef\b[^;]*;", "", code)
    found = {}
    for ret, name, args in re.findall(
            r"\b(int|double|MPI_Aint)\s+(MPI_\w+)\s*\(([^;]*?)\)\s*;",
            code, flags=re.S):
        params = []
        if " ".join(args.split()) != "void":
            for a in args.split(","):
                a = " ".join(a.split())
                if a == "...":
                    params.append(("...", ""))
                    continue
                m = re.match(r"^(.*?)\s*\b(\w+)((?:\[[^\]]*\])*)$", a)
                ctype = m.group(1)
                dims = m.group(3)
                if dims:
                    ctype += " " + dims
                ctype = ctype.replace("* ", "*").replace(" *", " *")
                params.append((" ".join(ctype.split()), m.group(2)))
        found[name] = (ret, params)
    return found


def constants(text):
    """The integer constants of the C headers, in order."""
    out = []
    seen = set()
    values = {}
    for name, val in re.findall(
            r"^#define\s+(MPI_[A-Z0-9_]+)\s+([^\n/]*?)\s*(?:/\*.*)?$",
            text, flags=re.M):
        val = val.strip()
        if re.fullmatch(r"\(?-?\d+\)?|0x[0-9a-fA-F]+", val):
            v = int(val.strip("()"), 0)
        elif val in values:
            v = values[val]
        else:
            continue
        values[name] = v
        if name not in seen:
            seen.add(name)
            out.append((name, v))
    return out


def bind(name, ret, params):
    """C text of the binding of NAME, or None with the reason."""
    lower = name.lower()
    fparams = []     # the Fortran-callable routine's parameters
    hidden = []      # hidden string lengths
    pre = []         # statements before the call
    args = []        # the C call's arguments
    post = []        # statements after the call
    for i, (ctype, pname) in enumerate(params):
        p = "a%d" % i
        if ctype in INT_BY_VALUE:
            fparams.append("const int *%s" % p)
            args.append("*" + p)
        elif ctype in WIDE_BY_VALUE:
            fparams.append("const %s *%s" % (ctype, p))
            args.append("*" + p)
        elif ctype in ("void *", "const void *"):
            fparams.append("%s%s" % (ctype, p))
            args.append("F_BUF(%s)" % p)
        elif ctype in PASS:
            ptype = ctype.replace(" []", " *").replace("const ", "")
            if ctype == "int [][3]":
                fparams.append("int (*%s)[3]" % p)
                args.append(p)
                continue
            fparams.append("%s%s" % (ptype, p))
            if pname in INT_SENTINELS:
                args.append("F_INTS(%s)" % p)
            else:
                args.append(p)
        elif ctype in CALLBACKS:
            fparams.append("%s%s" % (ctype, p))
            args.append(p)
        elif ctype == "MPI_Status *":
            fparams.append("int *%s" % p)
            pre.append("MPI_Status s%d_, *s%d = F_STATUS(%s, &s%d_);"
                       % (i, i, p, i))
            args.append("s%d" % i)
            post.append("F_STATUS_OUT(%s, s%d);" % (p, i))
        elif ctype == "const MPI_Status *":
            fparams.append("const int *%s" % p)
            pre.append("MPI_Status s%d;" % i)
            pre.append("F_STATUS_IN(&s%d, %s);" % (i, p))
            args.append("&s%d" % i)
        elif ctype == "MPI_Status []":
            # The count: the first int parameter (count or incount).
            count = None
            for j, (t, n) in enumerate(params):
                if n in ("count", "incount") and t == "int":
                    count = "*a%d" % j
                    break
            if count is None:
                return None, "a status array without its count"
            fparams.append("int *%s" % p)
            pre.append("int n%d = %s;" % (i, count))
            pre.append("MPI_Status *s%d = f_statuses(%s, n%d);"
                       % (i, p, i))
            args.append("s%d" % i)
            post.append("f_statuses_out(%s, s%d, n%d);" % (p, i, i))
        elif ctype in ("const char *", "const char []"):
            fparams.append("const char *%s" % p)
            hidden.append("size_t l%d" % i)
            pre.append("char *c%d = f_cstr(%s, l%d);" % (i, p, i))
            args.append("c%d" % i)
            post.append("free(c%d);" % i)
        elif ctype == "char *":
            fparams.append("char *%s" % p)
            hidden.append("size_t l%d" % i)
            pre.append("char *c%d = f_outbuf(l%d);" % (i, i))
            args.append("c%d" % i)
            post.append("f_fstr(%s, l%d, c%d);" % (p, i, i))
        else:
            return None, "parameter %s is %s" % (pname, ctype)
    if ret != "int":
        return None, "returns %s" % ret
    if name in INDEX_OUT:
        j = [n for _, n in params].index(INDEX_OUT[name])
        if INDEX_OUT[name] == "index":
            post.insert(0, "if (*a%d >= 0) (*a%d)++;" % (j, j))
        else:
            k = [n for _, n in params].index("outcount")
            post.insert(0, "for (int i = 0; *ierr == MPI_SUCCESS && "
                        "*a%d != MPI_UNDEFINED && i < *a%d; i++) a%d[i]++;"
                        % (k, k, j))
    sig = ", ".join(fparams + ["int *ierr"] + hidden)
    lines = ["F_API void %s_(%s);" % (lower, sig),
             "void %s_(%s)" % (lower, sig), "{"]
    lines += ["\t" + s for s in pre]
    call = "*ierr = %s(%s);" % (name, ", ".join(args))
    lines.append("\t" + call)
    lines += ["\t" + s for s in post]
    lines.append("}")
    lines.append("F_ALIAS(p%s_, %s_);" % (lower, lower))
    return "\n".join(lines), None


def fortran_datatypes():
    """The Fortran datatypes, named by the C type of the same layout."""
    return [("MPI_CHARACTER", "MPI_CHAR"), ("MPI_LOGICAL", "MPI_INT"),
            ("MPI_INTEGER", "MPI_INT"), ("MPI_REAL", "MPI_FLOAT"),
            ("MPI_DOUBLE_PRECISION", "MPI_DOUBLE"),
            ("MPI_COMPLEX", "MPI_C_FLOAT_COMPLEX"),
            ("MPI_DOUBLE_COMPLEX", "MPI_C_DOUBLE_COMPLEX"),
            ("MPI_INTEGER1", "MPI_INT8_T"), ("MPI_INTEGER2", "MPI_INT16_T"),
            ("MPI_INTEGER4", "MPI_INT32_T"), ("MPI_INTEGER8", "MPI_INT64_T"),
            ("MPI_REAL4", "MPI_FLOAT"), ("MPI_REAL8", "MPI_DOUBLE"),
            ("MPI_COMPLEX8", "MPI_C_FLOAT_COMPLEX"),
            ("MPI_COMPLEX16", "MPI_C_DOUBLE_COMPLEX"),
            ("MPI_2INTEGER", "MPI_2INT")]


def write_mpif(consts, path):
    vals = dict(consts)
    out = []
    w = out.append
    w("! mpif.h -- Sibyl's MPI for Fortran programs (fixed or free form).")
    w("! Written by emulator/fortran-gen.py from Sibyl's C <mpi.h>: do not")
    w("! edit.  Handles are the C handles; a status is six INTEGERs.")
    w("!")

    def const(n, v, kind="INTEGER"):
        w("      %s %s" % (kind, n))
        w("      PARAMETER (%s=%d)" % (n, v))
    skip = {"MPI_BOTTOM", "MPI_IN_PLACE", "MPI_STATUS_IGNORE",
            "MPI_STATUSES_IGNORE", "MPI_UNWEIGHTED", "MPI_WEIGHTS_EMPTY",
            "MPI_ERRCODES_IGNORE", "MPI_ARGV_NULL", "MPI_ARGVS_NULL"}
    fnames = {n for n, _ in fortran_datatypes()}
    for n, v in consts:
        if n in skip or n in fnames or len(n) > 31:
            continue
        const(n, v)
    w("! Fortran datatypes: the C datatype of the same layout.")
    for n, c in fortran_datatypes():
        const(n, vals[c])
    w("! The status: MPI_STATUS_SIZE INTEGERs, these three first.")
    const("MPI_STATUS_SIZE", 6)
    const("MPI_SOURCE", 1)
    const("MPI_TAG", 2)
    const("MPI_ERROR", 3)
    w("! Kinds of address, offset and count integers.")
    const("MPI_ADDRESS_KIND", 8)
    const("MPI_OFFSET_KIND", 8)
    const("MPI_COUNT_KIND", 8)
    const("MPI_INTEGER_KIND", 4)
    w("! Sentinels: the runtime knows them by their addresses.")
    w("      INTEGER MPI_BOTTOM, MPI_IN_PLACE")
    w("      INTEGER MPI_STATUS_IGNORE(6)")
    w("      INTEGER MPI_STATUSES_IGNORE(6, 1)")
    w("      INTEGER MPI_ERRCODES_IGNORE(1)")
    w("      INTEGER MPI_UNWEIGHTED(1), MPI_WEIGHTS_EMPTY(1)")
    w("      COMMON /SIBYL_MPIF_BOTTOM/ MPI_BOTTOM")
    w("      COMMON /SIBYL_MPIF_IN_PLACE/ MPI_IN_PLACE")
    w("      COMMON /SIBYL_MPIF_STATUS_IGNORE/ MPI_STATUS_IGNORE")
    w("      COMMON /SIBYL_MPIF_STATUSES_IGNORE/ MPI_STATUSES_IGNORE")
    w("      COMMON /SIBYL_MPIF_ERRCODES_IGNORE/ MPI_ERRCODES_IGNORE")
    w("      COMMON /SIBYL_MPIF_UNWEIGHTED/ MPI_UNWEIGHTED")
    w("      COMMON /SIBYL_MPIF_WEIGHTS_EMPTY/ MPI_WEIGHTS_EMPTY")
    w("      SAVE /SIBYL_MPIF_BOTTOM/, /SIBYL_MPIF_IN_PLACE/")
    w("      SAVE /SIBYL_MPIF_STATUS_IGNORE/")
    w("      SAVE /SIBYL_MPIF_STATUSES_IGNORE/")
    w("      SAVE /SIBYL_MPIF_ERRCODES_IGNORE/")
    w("      SAVE /SIBYL_MPIF_UNWEIGHTED/, /SIBYL_MPIF_WEIGHTS_EMPTY/")
    w("! Functions.")
    w("      DOUBLE PRECISION MPI_WTIME, MPI_WTICK")
    w("      DOUBLE PRECISION PMPI_WTIME, PMPI_WTICK")
    w("      EXTERNAL MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK")
    w("      INTEGER(KIND=8) MPI_AINT_ADD, MPI_AINT_DIFF")
    w("      EXTERNAL MPI_AINT_ADD, MPI_AINT_DIFF")
    for line in out:
        assert len(line) <= 72, line
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    text = read_headers()
    protos = prototypes(text)
    consts = constants(text)
    bodies = []
    left = []
    for name in sorted(protos):
        if name in BY_HAND:
            continue
        if name.startswith("MPI_T_"):
            left.append((name, "MPI_T has no Fortran binding in MPI-3.1"))
            continue
        if name in NOT_BOUND:
            left.append((name, NOT_BOUND[name]))
            continue
        ret, params = protos[name]
        body, why = bind(name, ret, params)
        if body is None:
            left.append((name, why))
        else:
            bodies.append(body)
    head = '''/*
 * fortran.c -- the Fortran bindings of Sibyl's MPI routines (gfortran's
 * names: lower case, one trailing underscore; pmpi_ aliases).
 *
 * Written by emulator/fortran-gen.py from the C headers: do not edit.
 * %d routines bound here, %d by hand in fortran_rt.c; not bound (a call
 * fails to link, naming the routine):
%s */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "emu_fortran.h"

''' % (len(bodies), len(BY_HAND),
       "".join(" *   %s: %s\n" % (n, w) for n, w in left))
    os.makedirs(os.path.join(OUT, "emulator", "include"), exist_ok=True)
    with open(os.path.join(OUT, "emulator", "fortran.c"), "w") as f:
        f.write(head + "\n\n".join(bodies) + "\n")
    write_mpif(consts, os.path.join(OUT, "emulator", "include", "mpif.h"))
    print("fortran-gen: %d bound, %d by hand, %d not bound"
          % (len(bodies), len(BY_HAND), len(left)))


if __name__ == "__main__":
    main()
