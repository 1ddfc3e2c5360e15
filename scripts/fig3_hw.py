#!/usr/bin/env python3
"""fig3_hw.py - seed 003's Figure 3 under configs/fermi-hw.config, with ablations.

Figure 3 of seed 003 (../shared/papers/003_ffafd1cb931cbd21.txt, section 4.4)
is the L1 miss rate of a column-major copy (one block of h threads, thread t
reads its own 4 KB row) measured on a GTX470 for h = 32 .. 1024.  The built-in
workload micro/colcopy:h=H issues the same addresses.  This script prints, as
Markdown tables (docs/fidelity.md pastes them):

  1. the hardware column beside the cycle simulator under fermi-hw and the
     reuse-distance model under fermi-hw (with the model options below), and
     each one's mean absolute error (MAE, points) against the hardware;
  2. the simulator's ablation: each hardware mechanism of fermi-hw removed in
     turn, the candidates measured and not adopted (no hardware basis, or a
     code shape), then each mechanism added in turn to fermi-16k (GPGPU-Sim's
     semantics);
  3. the same for the model's mechanisms.

  scripts/fig3_hw.py [--warpcache build/warpcache]

The simulator's miss rate is kernels[0].l1.read_miss_rate (a request merged
into a line in flight is a hit-reserved, not a miss, as in the hardware's
counter, which counts requests sent below); the model's is
miss_rate_without_latency (the same definition, docs/model.md).  Everything is
deterministic (fixed seeds); about a minute on one core.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HS = [32, 64, 128, 256, 512, 1024]
HW = [3.13, 3.77, 32.71, 42.05, 67.20, 82.28]  # seed 003, Figure 3, "measured"
HWCFG = os.path.join("configs", "fermi-hw.config")
DL1 = "gpgpu_cache:dl1=N:32:128:4,L:L:{alloc}:N:H,A:{mshr}:8,8"

# The model's counterparts of fermi-hw's mechanisms (model options, not
# configuration options): one time step per line request, and the seed's
# code's MSHR rule (an instruction that gets its first entry issues all its
# lines).  MSHR counts (64 per core, 6 per warp) are the model's defaults.
MODEL_HW = ["step_requests=1", "mshr_first_only=1"]

SIM_REMOVED = [
    ("64 MSHRs -> 32 (GPGPU-Sim)", ["-o", DL1.format(alloc="f", mshr=32)]),
    ("allocate on fill -> on miss", ["-o", DL1.format(alloc="m", mshr=64)]),
    ("6 loads per warp -> no limit", ["-o", "ldst_loads_per_warp=0"]),
    ("6 per warp read as MSHRs (-l1_mshr_per_warp 6)", ["-o", "l1_mshr_per_warp=6"]),
    ("replay:wake=all -> wake=oldest", ["-o", "mem_stage=replay:wake=oldest"]),
    ("replay -> l1q (fermi-16k's stage, GPGPU-Sim 4.x)", ["-o", "mem_stage=l1q"]),
    ("replay -> inorder (GPGPU-Sim 3.x's stage)", ["-o", "mem_stage=inorder"]),
]
# Measured, not adopted: no hardware value says Fermi's warp order is loose
# round robin (GPGPU-Sim's GTX480 file has GTO) or its replacement FIFO (seed
# 003 section 4.7 finds it "resembles LRU"); the rest are code shape and the
# issue-ahead queue.
SIM_OTHER = [
    ("-gpgpu_scheduler lrr", ["-o", "gpgpu_scheduler=lrr"], ""),
    ("FIFO replacement", ["-o", "gpgpu_cache:dl1=N:32:128:4,F:L:f:N:H,A:64:8,8"], ""),
    ("-mem_issue_ahead 0", ["-o", "mem_issue_ahead=0"], ""),
    ("colcopy unroll=4 store=1", [], ",unroll=4,store=1"),
]
SIM_ADDED = [
    ("+ 64 MSHRs", ["-o", DL1.format(alloc="m", mshr=64)]),
    ("+ allocate on fill", ["-o", DL1.format(alloc="f", mshr=32)]),
    ("+ 6 loads per warp", ["-o", "ldst_loads_per_warp=6"]),
    ("+ replay", ["-o", "mem_stage=replay"]),
    ("+ replay:wake=all", ["-o", "mem_stage=replay:wake=all"]),
]
MODEL_REMOVED = [
    ("step per instruction (seed)", ["step_requests=0"]),
    ("every request checks MSHRs", ["mshr_first_only=0"]),
    ("no per-warp MSHR limit", ["mshr_per_warp=0"]),
    ("no MSHR limits", ["mshr=0"]),
    ("no divergence (round robin)", ["divergence=0"]),
    ("lambda_min=229 (a longer latency)", ["lambda_min=229"]),
]
MODEL_ADDED = [
    ("+ step per request", ["step_requests=1"]),
    ("+ first request checks MSHRs", ["mshr_first_only=1"]),
]


def run_json(cmd):
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr))
    return json.loads(p.stdout)


def sim_rates(wc, args, extra_wl=""):
    out = []
    for h in HS:
        d = run_json([wc, "run", "-q", "--workload", "micro/colcopy:h=%d%s" % (h, extra_wl)] +
                     args + ["--json", "-"])
        out.append(100.0 * d["kernels"][0]["l1"]["read_miss_rate"])
    return out


def model_rates(wc, cfg, opts, extra_wl=""):
    out = []
    for h in HS:
        cmd = [wc, "model", "-q", "--no-classify", "--workload",
               "micro/colcopy:h=%d%s" % (h, extra_wl)]
        if cfg:
            cmd += ["--config", cfg]
        for o in opts:
            cmd += ["-o", o]
        d = run_json(cmd + ["--json", "-"])
        out.append(100.0 * d["kernels"][0]["miss_rate_without_latency"])
    return out


def mae(v):
    return sum(abs(a - b) for a, b in zip(v, HW)) / len(HW)


def row(name, v):
    return "| %s | %s | %.1f |" % (name, " | ".join("%.2f" % x for x in v), mae(v))


def header(first):
    print("| %s | %s | MAE |" % (first, " | ".join("h=%d" % h for h in HS)))
    print("|---|%s---|" % ("---|" * len(HS)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--warpcache", default=os.path.join("build", "warpcache"))
    a = ap.parse_args()
    wc = a.warpcache
    hw_args = ["--config", HWCFG]

    sim = sim_rates(wc, hw_args)
    model = model_rates(wc, HWCFG, MODEL_HW)
    print("| h (threads) | hardware (GTX470) | simulator, fermi-hw | model, fermi-hw |")
    print("|---|---|---|---|")
    for i, h in enumerate(HS):
        print("| %d | %.2f | %.2f | %.2f |" % (h, HW[i], sim[i], model[i]))
    print("| MAE (points) | | %.1f | %.1f |" % (mae(sim), mae(model)))
    print()

    header("simulator")
    print(row("hardware", HW))
    print(row("**fermi-hw**", sim))
    for name, extra in SIM_REMOVED:
        print(row("fermi-hw, " + name, sim_rates(wc, hw_args + extra)))
    for name, extra, wl in SIM_OTHER:
        print(row("fermi-hw, " + name, sim_rates(wc, hw_args + extra, wl)))
    print(row("fermi-16k (default)", sim_rates(wc, [])))
    for name, extra in SIM_ADDED:
        print(row("fermi-16k " + name, sim_rates(wc, extra)))
    print()

    header("model")
    print(row("hardware", HW))
    print(row("**fermi-hw: %s**" % " ".join(MODEL_HW), model))
    for name, opts in MODEL_REMOVED:
        print(row("fermi-hw, " + name, model_rates(wc, HWCFG, MODEL_HW + opts)))
    print(row("fermi-hw, colcopy unroll=4 store=1, scoreboard=1",
              model_rates(wc, HWCFG, MODEL_HW + ["scoreboard=1"], ",unroll=4,store=1")))
    print(row("model defaults (seed 003's paper)", model_rates(wc, None, [])))
    for name, opts in MODEL_ADDED:
        print(row("model defaults " + name, model_rates(wc, None, opts)))


if __name__ == "__main__":
    main()
