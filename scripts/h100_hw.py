#!/usr/bin/env python3
"""h100_hw.py - configs/h100.config against the real H100 counters of built-in
workloads (../shared/data/hw/h100/ncu-colcopy-stream.csv, docs/h100.md).

The file's README maps each of its 27 launches to a workload and an L1 size (256 KB
minus the launch's shared-memory carveout).  `warpcache validate --hw` simulates one L1
size per run, so this runs it once per size (-o l1_assoc=N: N ways of 4 sets of 128 B
lines), pairs the launches explicitly (--launches, in the README's order) and prints
one markdown table of L1 load miss rates (100 - ncu's sector hit rate):

    scripts/h100_hw.py                    # per launch, configs/h100.config
    scripts/h100_hw.py --ablate           # the MAE with each [HW] choice undone
    scripts/h100_hw.py -o NAME=VALUE ...  # extra options for every run

Standard library only; the rows come from validate --hw's CSV output.
"""
import argparse
import csv
import io
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HW = os.path.join(ROOT, "..", "shared", "data", "hw", "h100", "ncu-colcopy-stream.csv")


def colcopy(unroll, heights):
    return [f"micro/colcopy:h={h},w=1024,unroll={unroll}" for h in heights]


# (L1 KB, launch IDs, workloads in the same order): the README's table.
GROUPS = [
    (224, "0-3,6-8,37-40",
     colcopy(16, [32, 64, 128, 256]) +
     ["micro/stream:n=1048576", "micro/stride:n=1048576,stride=2",
      "micro/stride:n=1048576,stride=8"] + colcopy(1, [32, 64, 128, 256])),
    (240, "4,41", colcopy(16, [512]) + colcopy(1, [512])),
    (248, "5,42", colcopy(16, [1024]) + colcopy(1, [1024])),
    (28, "20-25,43-48", colcopy(16, [32, 64, 128, 256, 512, 1024]) +
     colcopy(1, [32, 64, 128, 256, 512, 1024])),
]

# Each [HW] choice of configs/h100.config undone, and all of them (the file before).
ABLATIONS = [
    ("configs/h100.config", []),
    ("streaming allocation (s) instead of on miss (m)",
     ["gpgpu_cache:dl1=S:4:128:512,L:L:s:N:P,A:256:16,16:0,32"]),
    ("linear set index (L) instead of IPOLY (P)",
     ["gpgpu_cache:dl1=S:4:128:512,L:L:m:N:L,A:256:16,16:0,32"]),
    ("8 merges per MSHR entry instead of 16",
     ["gpgpu_cache:dl1=S:4:128:512,L:L:m:N:P,A:256:8,16:0,32"]),
    ("-mem_stage l1q (GPGPU-Sim 4.x) instead of replay", ["mem_stage=l1q"]),
    ("all four undone (the Ampere-file choices: s, L, 8 merges, l1q)",
     ["gpgpu_cache:dl1=S:4:128:512,L:L:s:N:L,A:256:8,16:0,32", "mem_stage=l1q"]),
]


def run_group(binary, l1_kb, launches, workloads, opts):
    cmd = [binary, "validate", "-q", "--hw", HW, "--config",
           os.path.join(ROOT, "configs", "h100.config")]
    for o in opts:
        cmd += ["-o", o]
    cmd += ["-o", f"l1_assoc={l1_kb * 1024 // (4 * 128)}", "--launches", launches, "--csv", "-"]
    for w in workloads:
        cmd += ["-w", w]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if out.returncode:
        sys.exit(f"h100_hw.py: {' '.join(cmd)}: exit {out.returncode}: {out.stderr.strip()}")
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    return [(l1_kb, w, r) for w, r in zip(workloads, rows)]


def run_all(binary, opts):
    rows = []
    for l1_kb, launches, workloads in GROUPS:
        rows += run_group(binary, l1_kb, launches, workloads, opts)
    return rows


def miss(r, side):
    return 100.0 - float(r[f"{side}_l1_hit_pct"])


def mae(rows):
    return sum(abs(miss(r, "sim") - miss(r, "hw")) for _, _, r in rows) / len(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ablate", action="store_true")
    ap.add_argument("-o", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--bin", default=os.environ.get("DOCGEN_BIN") or
                    os.path.join(ROOT, "build", "warpcache"))
    a = ap.parse_args()
    if not os.path.exists(HW):
        sys.exit(f"h100_hw.py: {HW} is absent (the shared data folder beside the repository)")
    if a.ablate:
        print("| configuration | L1 load miss MAE (points, 27 launches) | launch 24 | 25 | 46 |")
        print("|---|---|---|---|---|")
        hw = None
        for name, opts in ABLATIONS:
            rows = run_all(a.bin, a.o + opts)
            by_id = {r["hw_id"]: miss(r, "sim") for _, _, r in rows}
            if hw is None:
                hw = {r["hw_id"]: miss(r, "hw") for _, _, r in rows}
                print(f"| hardware | 0 | {hw['24']:.1f} % | {hw['25']:.1f} % | {hw['46']:.1f} % |")
            print(f"| {name} | {mae(rows):.2f} | {by_id['24']:.1f} % | {by_id['25']:.1f} % | "
                  f"{by_id['46']:.1f} % |")
        return
    rows = run_all(a.bin, a.o)
    print("| launch | kernel (hw) | workload | L1 KB | L1 load miss hw | sim | abs. error |")
    print("|---|---|---|---|---|---|---|")
    for l1_kb, w, r in rows:
        h, s = miss(r, "hw"), miss(r, "sim")
        print(f"| {r['hw_id']} | {r['hw_kernel']} | `{w}` | {l1_kb} | "
              f"{h:.2f} % | {s:.2f} % | {abs(s - h):.2f} |")
    print(f"| MAE | | | | | | {mae(rows):.2f} |")


if __name__ == "__main__":
    main()
