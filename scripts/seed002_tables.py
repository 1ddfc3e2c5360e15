#!/usr/bin/env python3
"""seed002_tables.py - two views of one `warpcache compare` run that compare itself
does not print, for docs/techniques/dwt-pric.md (seed 002's Figures 9, 10 and 11).

A developer's documentation tool, never a dependency of the simulator.  It reads
the files compare writes and simulates nothing, so a table and the views derived
from it come from the same runs.

  scripts/seed002_tables.py contention MAIN.csv
      MAIN.csv: `compare --csv` of an IPC table with the designs base, ccws, mrpb
      and dwt-pric (any order, others ignored).  Prints the harmonic mean of
      dwt-pric's IPC divided by each of base, ccws and mrpb, over the rows of
      the paper's contention groups (Figure 9): every row labelled 002:conflict
      or 002:thrashing, and the three parts (conflict only, thrashing only,
      both).  compare's --by-class means cannot give these: a row with both
      labels counts in each label's mean, and the reference is always the first
      design.

  scripts/seed002_tables.py rates WIDE.csv
      WIDE.csv: `compare --wide-csv` (every statistic per kernel and design).
      Prints, per workload, the L1 miss rate and the L1 reservation fails per
      1000 warp instructions, each normalised to the first design, with the
      geometric and harmonic means: the same definitions as compare's metrics
      l1_miss_rate and res_fails_pki (docs/stats.md), summed over a workload's
      kernels first (misses / (accesses - bypasses); 1000 x fails / warp
      instructions), so one run yields IPC, miss-rate and fails tables.
      A row whose reference value is 0 is shown as '-' and left out of the
      means, as compare does; a design value of 0 is left out of that design's
      harmonic and geometric means (they are undefined at 0).

Exit status: 0 ok, 2 bad input (unreadable file, missing column or statistic).
"""
import csv
import sys
from statistics import geometric_mean, harmonic_mean


def fail(msg):
    sys.stderr.write("seed002_tables.py: %s\n" % msg)
    sys.exit(2)


def read_rows(path):
    try:
        with open(path, newline="") as f:
            return list(csv.reader(f))
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))


def has(row, label):
    return ("002:" + label) in row["classes"].split()


# The paper's Figure 9 groups: contention = inter-warp conflict, inter-warp
# thrashing, and the two workloads with both (SYRK, GESUMMV).
GROUPS = [
    ("contention (conflict or thrashing)", lambda r: has(r, "conflict") or has(r, "thrashing")),
    ("conflict only", lambda r: has(r, "conflict") and not has(r, "thrashing")),
    ("thrashing only", lambda r: has(r, "thrashing") and not has(r, "conflict")),
    ("thrashing and conflict", lambda r: has(r, "thrashing") and has(r, "conflict")),
]
REFS = ["base", "ccws", "mrpb"]


def contention(path):
    rows = read_rows(path)
    if not rows:
        fail("%s: empty" % path)
    head = rows[0]
    need = ["row", "workload", "classes"] + [d + ":value" for d in REFS + ["dwt-pric"]]
    for n in need:
        if n not in head:
            fail("%s:1: no column '%s'" % (path, n))
    data = [dict(zip(head, r)) for r in rows[1:] if r and r[0] == "data"]
    print("harmonic mean of dwt-pric's IPC / the reference design's IPC, per group of rows")
    print("%-36s %4s" % ("workloads", "rows") + "".join(" %8s" % d for d in REFS))
    for name, sel in GROUPS:
        g = [r for r in data if sel(r)]
        if not g:
            continue
        ratios = []
        for ref in REFS:
            v = [float(r["dwt-pric:value"]) / float(r[ref + ":value"]) for r in g
                 if float(r[ref + ":value"]) > 0]
            ratios.append(harmonic_mean(v) if v else float("nan"))
        print("%-36s %4d" % (name, len(g)) + "".join(" %8.3f" % x for x in ratios))


def read_wide(path):
    """{statistic: {workload: [sum over its kernels per design]}}, designs, workload order."""
    rows = read_rows(path)
    stats, designs, order = {}, None, []
    stat = None
    for i, r in enumerate(rows):
        if not r or not r[0]:
            continue
        if r[0].startswith("-----"):
            # a block: the dashes, the statistic's name, APPS + designs, one row per kernel
            if i + 2 >= len(rows) or not rows[i + 1] or rows[i + 2][:1] != ["APPS"]:
                fail("%s:%d: a block without a statistic and an APPS line" % (path, i + 1))
            stat = rows[i + 1][0]
            designs = [d for d in rows[i + 2][1:] if d]
            stats[stat] = {}
            continue
        if stat is None or r[0] == stat or r[0] == "APPS":
            continue
        # rows are WORKLOAD--KERNEL[--LAUNCH]; workload names never hold "--"
        w = r[0].split("--")[0]
        if w not in order:
            order.append(w)
        acc = stats[stat].setdefault(w, [0.0] * len(designs))
        for j in range(len(designs)):
            cell = r[1 + j] if 1 + j < len(r) else ""
            try:
                acc[j] += float(cell) if cell else 0.0
            except ValueError:
                fail("%s:%d: '%s' is not a number" % (path, i + 1, cell))
    if designs is None:
        fail("%s: no statistics blocks (not a --wide-csv file?)" % path)
    return stats, designs, order


def rates(path):
    stats, designs, order = read_wide(path)
    for n in ["l1.misses", "l1.accesses", "l1.bypasses", "l1.reservation_fails.total", "warp_insts"]:
        if n not in stats:
            fail("%s: no statistic '%s'" % (path, n))

    def miss_rate(w, j):
        a = stats["l1.accesses"][w][j] - stats["l1.bypasses"][w][j]
        return stats["l1.misses"][w][j] / a if a > 0 else 0.0

    def res_fails_pki(w, j):
        n = stats["warp_insts"][w][j]
        return 1000.0 * stats["l1.reservation_fails.total"][w][j] / n if n > 0 else 0.0

    for name, f in [("l1_miss_rate", miss_rate), ("res_fails_pki", res_fails_pki)]:
        print("metric: %s, each design divided by %s; column 2: %s of %s"
              % (name, designs[0], name, designs[0]))
        print("%-48s %13s" % ("workload", name) + "".join(" %12s" % d for d in designs))
        norm = []
        for w in order:
            ref = f(w, 0)
            n = [f(w, j) / ref if ref > 0 else None for j in range(len(designs))]
            if ref > 0:
                norm.append(n)
            print("%-48s %13.4f" % (w, ref)
                  + "".join(" %12s" % ("-" if x is None else "%.3f" % x) for x in n))
        print()
        for mean, fn in [("geomean", geometric_mean), ("hmean", harmonic_mean)]:
            cells = []
            for j in range(len(designs)):
                v = [n[j] for n in norm if n[j] > 0]
                cells.append(" %12.3f" % fn(v) if v else " %12s" % "-")
            print("%-62s" % ("%s all (%d)" % (mean, len(norm))) + "".join(cells))
        print()


def main(argv):
    if len(argv) != 3 or argv[1] not in ("contention", "rates"):
        sys.stderr.write("usage: seed002_tables.py contention MAIN.csv | rates WIDE.csv\n")
        return 2
    (contention if argv[1] == "contention" else rates)(argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
