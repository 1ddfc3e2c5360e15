#!/usr/bin/env python3
"""sweep_pivot.py - tabulates a `warpcache sweep` results file (JSONL,
`--results FILE`; it holds the extras, e.g. the analyses' and the memory
stage's counters): one row per workload, one column per design (and per expression), with optional
normalisation to a reference design and geometric means over groups of
workloads.

A developer's reporting tool (the seed 004 tables in docs/techniques/mrpb.md
are made with it), never a dependency of the project or its tests.

    sweep_pivot.py [options] RESULTS.jsonl|-

    -e LABEL=EXPR   a value per (workload, design): a Python expression over
                    the point's totals, dots and other punctuation written as
                    '_' (l1.mpki -> l1_mpki, extra.mrpb.reordered ->
                    extra_mrpb_reordered); repeatable (columns design:LABEL);
                    default: ipc
    --norm SPEC     divide each value by the reference design's value of the
                    same workload: REF (every design) or D1=REF1,D2=REF2,...
                    (designs not named are not normalised)
    -g NAME=S1|S2   a group of workloads whose names contain S1 or S2 ...:
                    a geometric-mean row per group (with --norm); repeatable;
                    an `all` row is always added
    -d D1,D2,...    only these designs' columns, in this order
    --fmt FMT       number format (default %.3f)

A name no point has, an unknown design or a bad line exits 2 with the
reason; a name only some designs have (mrpb.* on base) is nan for the others.
"""
import json
import math
import re
import sys


def die(msg):
    sys.stderr.write("sweep_pivot.py: %s\n" % msg)
    sys.exit(2)


def key(name):
    return re.sub(r"[^A-Za-z0-9]", "_", name)


def parse_args(argv):
    exprs, norm, groups, fmt, path, only = [], None, [], "%.3f", None, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-e", "--norm", "-g", "--fmt", "-d"):
            if i + 1 >= len(argv):
                die("option %s needs a value" % a)
            v = argv[i + 1]
            i += 2
            if a == "-e":
                if "=" not in v:
                    die("-e %s: expected LABEL=EXPR" % v)
                exprs.append(tuple(v.split("=", 1)))
            elif a == "--norm":
                norm = v
            elif a == "-d":
                only = v.split(",")
            elif a == "-g":
                if "=" not in v:
                    die("-g %s: expected NAME=S1|S2..." % v)
                n, s = v.split("=", 1)
                groups.append((n, s.split("|")))
            else:
                fmt = v
            continue
        if path is not None:
            die("one results file, got %s and %s" % (path, a))
        path = a
        i += 1
    if path is None:
        die("usage: sweep_pivot.py [-e LABEL=EXPR]... [--norm SPEC] [-g NAME=S1|S2]... RESULTS|-")
    return exprs or [("ipc", "ipc")], norm, groups, fmt, path, only


def main(argv):
    exprs, norm, groups, fmt, path, only = parse_args(argv)
    f = sys.stdin if path == "-" else open(path)
    rows = []
    for n, line in enumerate(f, 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except ValueError as x:
            die("%s:%d: %s" % (path, n, x))
    if not rows:
        die("%s: no points" % path)
    workloads, designs, val, missing, found = [], [], {}, {}, set()
    for n, r in enumerate(rows, 1):
        w, d, t = r.get("workload"), r.get("design"), r.get("totals")
        if w is None or d is None or not isinstance(t, dict):
            die("%s: point %d: not a sweep result (workload, design, totals)" % (path, n))
        if w not in workloads:
            workloads.append(w)
        if d not in designs:
            designs.append(d)
        env = {key(k): float(v) for k, v in t.items() if isinstance(v, (int, float))}
        for label, e in exprs:
            try:
                val[(w, d, label)] = float(eval(e, {"__builtins__": {}}, env))
            except ZeroDivisionError:
                val[(w, d, label)] = float("nan")
            except NameError as x:  # a counter this design lacks (mrpb.* on base)
                val[(w, d, label)] = float("nan")
                missing.setdefault(label, (e, str(x), sorted(env)))
            else:
                found.add(label)
    for label, (e, x, env) in missing.items():
        if label not in found:
            die("-e %s=%s: %s in every point (columns: %s)" % (label, e, x, ", ".join(env)))
    refs = {}
    if norm:
        if "=" in norm:
            for p in norm.split(","):
                a, b = p.split("=", 1)
                refs[a] = b
        else:
            refs = {d: norm for d in designs}
        refs = {d: r for d, r in refs.items() if d in designs}  # a partial sweep: skip
        for d, r in refs.items():
            if r not in designs:
                die("--norm %s: reference design %s not in the sweep" % (norm, r))
    if only:
        for d in only:
            if d not in designs:
                die("-d: design %s not in the sweep" % d)
    cols = [(d, label) for d in (only or designs) for label, _ in exprs]

    def cell(w, d, label):
        v = val.get((w, d, label), float("nan"))
        if d in refs:
            ref = val.get((w, refs[d], label), float("nan"))
            v = v / ref if ref else float("nan")
        return v

    names = [d if len(exprs) == 1 else "%s:%s" % (d, label) for d, label in cols]
    # wide enough for every name and every cell, so large counts never run together
    cells = [fmt % cell(w, d, l) for w in workloads for d, l in cols]
    width = max(10, max(len(n) for n in names) + 1, max(len(c) for c in cells) + 2)
    wl = max(len(w) for w in workloads) + 2
    print("%-*s" % (wl, "workload") + "".join("%*s" % (width, n) for n in names))
    for w in workloads:
        print("%-*s" % (wl, w) + "".join("%*s" % (width, fmt % cell(w, d, l)) for d, l in cols))
    if norm:
        print()
        for gname, subs in [("all", [""])] + groups:
            members = [w for w in workloads if any(s in w for s in subs)]
            if not members:
                continue
            out = []
            for d, l in cols:
                vs = [cell(w, d, l) for w in members]
                vs = [v for v in vs if v > 0 and not math.isnan(v)]
                out.append(math.exp(sum(map(math.log, vs)) / len(vs)) if vs else float("nan"))
            label = "geomean %s (%d)" % (gname, len(members))
            print("%-*s" % (wl, label) + "".join("%*s" % (width, fmt % v) for v in out))


if __name__ == "__main__":
    main(sys.argv[1:])
