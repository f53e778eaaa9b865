#!/usr/bin/env python3
"""mktrace.py -- write a small Sibyl trace from a text description.

Used by the simulator's shell tests (tests/sim_*.sh) to craft traces that
`sibyl trace gen' cannot make: defective ones (a message nobody awaits, a
wait for a message never sent, a cycle), traces without markers, traces
with prints.  Written from tracefmt/FORMAT.md alone (stored windows, no
dictionary), so it is also an independent check of the reader.

Usage: mktrace.py OUT_DIR < DESCRIPTION

DESCRIPTION, one item per line ('#' starts a comment line):
  npes N              number of PEs (required, first)
  window W            SEBs per window (default 64)
  procs P             data files, block distribution (default 1)
  PE NAME DUR ITEM... one SEB of PE (in index order per PE), DUR in ps
ITEMs:
  w:SRC:SEQ           await message SEQ of PE SRC
  s:DST:SIZE@OFF      send SIZE bytes to DST at offset OFF (tag 0)
  s:DST:SIZE:TAG@OFF  ... with an MPI tag
  p:OFF:TEXT          virtual-time print ('~' in TEXT stands for a blank)
  m:KIND:VALUE        marker: KIND start, end, iter or user
  preds:I,J,...       explicit local predecessors ('preds:' = none)
  r:REGION            the code region the SEB measured ('~' in REGION
                      stands for a blank), format 1.1
  c:REASON:RAW        the duration was corrected (REASON off-cpu,
                      outlier, page-faults, cold or 1 to 4) from RAW ps,
                      format 1.1
A trace using r: or c: is written as format 1.1, any other as 1.0.
"""
import os
import struct
import sys
import zlib

MARKS = {"start": 1, "end": 2, "iter": 3, "user": 4}
CORR = {"off-cpu": 1, "outlier": 2, "page-faults": 3, "cold": 4}


def varint(v):
    assert v >= 0
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def svarint(v):
    return varint((v << 1) ^ (v >> 63) if v < 0 else v << 1)


def crc(b):
    return zlib.crc32(b) & 0xFFFFFFFF


def parse(text):
    npes, window, procs = None, 64, 1
    sebs = {}
    for ln, line in enumerate(text.splitlines(), 1):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "npes":
            npes = int(f[1])
            sebs = {p: [] for p in range(npes)}
            continue
        if f[0] == "window":
            window = int(f[1])
            continue
        if f[0] == "procs":
            procs = int(f[1])
            continue
        pe, name, dur = int(f[0]), f[1], int(f[2])
        s = {"name": name, "dur": dur, "waits": [], "sends": [],
             "prints": [], "marks": [], "preds": None, "region": None,
             "corr": None}
        for it in f[3:]:
            kind, _, rest = it.partition(":")
            if kind == "w":
                a, b = rest.split(":")
                s["waits"].append((int(a), int(b)))
            elif kind == "s":
                body, off = rest.split("@")
                parts = [int(x) for x in body.split(":")]
                tag = parts[2] if len(parts) > 2 else 0
                s["sends"].append((parts[0], parts[1], tag, int(off)))
            elif kind == "p":
                off, txt = rest.split(":", 1)
                s["prints"].append((int(off), txt.replace("~", " ")))
            elif kind == "m":
                k, v = rest.split(":")
                s["marks"].append((MARKS[k], int(v)))
            elif kind == "preds":
                s["preds"] = [int(x) for x in rest.split(",") if x]
            elif kind == "r":
                s["region"] = rest.replace("~", " ")
            elif kind == "c":
                why, raw = rest.rsplit(":", 1)
                s["corr"] = (CORR[why] if why in CORR else int(why),
                             int(raw))
            else:
                sys.exit("line %d: unknown item %r" % (ln, it))
        sebs[pe].append(s)
    if npes is None:
        sys.exit("no 'npes' line")
    return npes, window, procs, sebs


def seb_record(s, p, i, names):
    rec = bytearray(varint(names[s["name"]]) + varint(s["dur"]))
    flags = ((1 if s["preds"] is not None else 0) |
             (2 if s["waits"] else 0) | (4 if s["sends"] else 0) |
             (8 if s["prints"] else 0) | (16 if s["marks"] else 0) |
             (32 if s["region"] else 0) | (64 if s["corr"] else 0))
    rec += varint(flags)
    if s["region"]:
        rec += varint(names[s["region"]])
    if s["corr"]:
        rec += varint(s["corr"][0]) + varint(s["corr"][1])
    if s["preds"] is not None:
        rec += varint(len(s["preds"]))
        for j in s["preds"]:
            rec += varint(i - j)
    if s["waits"]:
        rec += varint(len(s["waits"]))
        for src, seq in s["waits"]:
            rec += svarint(src - p) + varint(seq)
    if s["sends"]:
        rec += varint(len(s["sends"]))
        d, prev = s["dur"], None
        for dst, size, tag, off in s["sends"]:
            rec += svarint(dst - p) + varint(size) + svarint(tag)
            if prev is None:
                if off <= d and d - off < off:
                    rec += varint(2 * (d - off) + 1)
                else:
                    rec += varint(2 * off)
            else:
                rec += svarint(off - prev)
            prev = off
    if s["prints"]:
        rec += varint(len(s["prints"]))
        for off, txt in s["prints"]:
            t = txt.encode()
            rec += varint(off) + varint(len(t)) + t
    if s["marks"]:
        rec += varint(len(s["marks"]))
        for k, v in s["marks"]:
            rec += varint(k) + svarint(v)
    return bytes(rec)


def is_11(sebs):
    return any(s["region"] or s["corr"] for l in sebs.values() for s in l)


def write_file(path, proc, nprocs, npes, first, count, window, sebs):
    names, order = {}, []
    for p in range(first, first + count):
        for s in sebs[p]:
            for n in (s["name"], s["region"]):
                if n and n not in names:
                    names[n] = len(order) + 1
                    order.append(n)
    names[""] = 0
    out = bytearray()
    h = bytearray(64)
    h[0:8] = b"SIBYLDAT"
    struct.pack_into("<HHIIIIIII", h, 8, 1, 1 if is_11(sebs) else 0,
                     0x01020304, proc, nprocs,
                     npes, first, count, window)
    struct.pack_into("<I", h, 60, crc(bytes(h[:60])))
    out += h
    stroffs = []
    if order:
        pl = b"".join(varint(len(n.encode())) + n.encode() for n in order)
        sh = bytearray(struct.pack("<4sIIII", b"STRS", 1, len(order),
                                   len(pl), crc(pl)))
        sh += struct.pack("<I", crc(bytes(sh)))
        stroffs.append(len(out))
        out += sh + pl
    index = []
    total = 0
    for p in range(first, first + count):
        wins = []
        seq = 0
        for w, i0 in enumerate(range(0, len(sebs[p]), window)):
            chunk = sebs[p][i0:i0 + window]
            payload = b"".join(seb_record(s, p, i0 + k, names)
                               for k, s in enumerate(chunk))
            nsends = sum(len(s["sends"]) for s in chunk)
            fields = b"".join(varint(x) for x in (
                p, w, len(chunk), i0, seq, nsends, len(payload),
                len(payload), 0))
            hdr = bytearray(b"WIND") + bytes([5 + len(fields) + 8])
            hdr += fields + struct.pack("<I", crc(payload))
            hdr += struct.pack("<I", crc(bytes(hdr)))
            wins.append((len(out), len(chunk), nsends, len(payload),
                         len(payload)))
            out += hdr + payload
            seq += nsends
            total += len(chunk)
        index.append(wins)
    raw = bytearray()
    for wins in index:
        raw += varint(len(wins))
        prev = 0
        for off, n, ns, rl, sl in wins:
            raw += varint(off - prev) + varint(n) + varint(ns)
            raw += varint(rl) + varint(sl)
            prev = off
    prev = 0
    for off in stroffs:
        raw += varint(off - prev)
        prev = off
    raw += varint(0)
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    stored = c.compress(bytes(raw)) + c.flush()
    ih = bytearray(struct.pack("<4sIQIIII", b"INDX", 0,
                               sum(len(w) for w in index), len(stroffs),
                               len(raw), len(stored), crc(stored)))
    ih += struct.pack("<I", crc(bytes(ih)))
    idx_off = len(out)
    out += ih + stored
    t = bytearray(struct.pack("<4sIQQI", b"TEND", 0, idx_off, total, 0))
    t += struct.pack("<I", crc(bytes(t)))
    out += t
    with open(path, "wb") as f:
        f.write(out)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    npes, window, procs, sebs = parse(sys.stdin.read())
    os.makedirs(outdir)
    q, r = divmod(npes, procs)
    man = ["format = sibyl-trace 1.%d" % is_11(sebs), "npes = %d" % npes,
           "nprocs = %d" % procs, "window = %d" % window,
           "time_unit = ps", "byte_order = little-endian"]
    for p in range(procs):
        first, count = p * q + min(p, r), q + (p < r)
        name = "proc-%06d.sdat" % p
        write_file(os.path.join(outdir, name), p, procs, npes, first, count,
                   window, sebs)
        man.append("file.%d = %s %d %d" % (p, name, first, count))
    man.append("generator = tests/data/mktrace.py")
    with open(os.path.join(outdir, "MANIFEST"), "w") as f:
        f.write("\n".join(man) + "\n")


if __name__ == "__main__":
    main()
