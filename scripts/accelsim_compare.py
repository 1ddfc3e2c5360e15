#!/usr/bin/env python3
"""accelsim_compare.py - warpcache and Accel-Sim side by side on identical inputs.

A developer's fidelity tool (docs/fidelity.md), never a dependency of the
project or its tests.  For each built-in workload it writes the workload as an
Accel-Sim trace (`warpcache trace convert W DIR --format accelsim`), runs
Accel-Sim's trace-driven GPGPU-Sim on it with a GPGPU-Sim configuration, runs
warpcache on the same workload with the same configuration file, and prints
per kernel: L1 load miss rate, L1 reservation fails, L2 read accesses and
cycles of both, with warpcache's cycles relative to Accel-Sim's.

  scripts/accelsim_compare.py --accelsim /root/accelsim \\
      --config ../shared/data/gpgpusim-configs/SM2_GTX480/gpgpusim.config \\
      polybench/atax:scale=0.125 micro/colcopy:h=256

Accel-Sim is built by ../shared/tools/build-accelsim.sh; its folder holds
env.sh.  Accel-Sim needs a trace.config (opcode latencies) and the config's
.icnt file beside the gpgpusim.config: --run-dir is prepared with those (the
trace.config of Accel-Sim's tested configuration of the same folder name,
e.g. SM7_QV100; the GTX480 file has none in Accel-Sim's tree, and the TITAN X
one, whose latencies are Fermi-like, is used).  Options GPGPU-Sim 4.2 no longer knows are
commented out in the copy, and the power model is off.

Definitions (the same on both sides):
  L1 load miss rate = global-load misses / (hits + hit-reserved + misses)
                      (reservation fails are retries, not lookups; a lookup merged
                      into a pending MSHR entry is hit-reserved, also where GPGPU-Sim
                      counts it as MISS or SECTOR_MISS: l1_fetch_misses)
  Accel-Sim: Total_core_cache_stats_breakdown[GLOBAL_ACC_R][...] per kernel
             (its counters are cumulative; per-kernel values are differences)
  warpcache: kernels[].l1.read_misses / kernels[].l1.reads
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def prepare_run_dir(run_dir, config, accelsim):
    """Copy the config (unknown options commented out), .icnt and trace.config."""
    os.makedirs(run_dir, exist_ok=True)
    tree = os.path.join(accelsim, "accel-sim-framework", "gpu-simulator")
    text = open(config).read()
    m = re.search(r"^\s*-inter_config_file\s+(\S+)", text, re.M)
    if m:
        icnt = m.group(1)
        for cand in [os.path.join(os.path.dirname(config), icnt)] + [
            os.path.join(dp, icnt) for dp, _, fs in os.walk(tree) if icnt in fs
        ]:
            if os.path.exists(cand):
                shutil.copy(cand, os.path.join(run_dir, icnt))
                break
    # the configuration's own opcode latencies where Accel-Sim's tree has them
    # (its folder name: SM7_QV100, SM75_RTX2060, ...), else the TITAN X ones
    cfgs = os.path.join(tree, "configs", "tested-cfgs")
    tc = os.path.join(cfgs, os.path.basename(os.path.dirname(os.path.abspath(config))),
                      "trace.config")
    if not os.path.exists(tc):
        tc = os.path.join(cfgs, "SM6_TITANX", "trace.config")
    shutil.copy(tc, os.path.join(run_dir, "trace.config"))
    # GPGPU-Sim 4.x's Volta/Turing files carve the L1 out of a unified array
    # (-gpgpu_adaptive_cache_config 1), which Accel-Sim 4.2 sizes from
    # -gpgpu_shmem_option and -gpgpu_unified_l1d_size; the distribution's
    # files set neither, and it then stops on an assertion (shader.cc,
    # max_cta).  warpcache does not model the carveout (it simulates the
    # file's -gpgpu_cache:dl1), so the copy turns it off: both sides the same.
    if re.search(r"^\s*-gpgpu_adaptive_cache_config\s+1", text, re.M) and not re.search(
            r"^\s*-gpgpu_shmem_option\b", text, re.M):
        text = re.sub(r"^(\s*-gpgpu_adaptive_cache_config)\s+1", r"\1 0", text, flags=re.M)
    for opt in ("-gpuwattch_xml_file",):
        text = re.sub(r"^(\s*%s\b)" % re.escape(opt), r"# (not in GPGPU-Sim 4.2) \1", text,
                      flags=re.M)
    open(os.path.join(run_dir, "gpgpusim.config"), "w").write(text)


def run_accelsim(accelsim, run_dir, trace_dir, log):
    script = (
        "set --; set +u; source %s/env.sh >/dev/null 2>&1; cd %s && "
        "$ACCELSIM_BIN -trace %s/kernelslist.g -config gpgpusim.config "
        "-config trace.config -power_simulation_enabled 0" % (accelsim, run_dir, trace_dir))
    with open(log, "w") as f:
        subprocess.run(["bash", "-c", script], stdout=f, stderr=subprocess.STDOUT, check=True)
    return parse_accelsim(open(log).read())


def l1_fetch_misses(l1):
    """The lookups that fetched, from GPGPU-Sim 4.x's L1 breakdown (l1(STATUS) -> count).

    A read that merges into a pending MSHR entry (baseline_cache::send_read_request's
    mshr_hit branch) is counted twice: once as MSHR_HIT, and once under the status its tag
    probe found, chosen by cache_stats::select_stats_status.  With allocation on miss the
    pending sector is reserved, the probe says HIT_RESERVED, and MSHR_HIT equals
    HIT_RESERVED.  With allocation on fill (the Volta/Turing/Ampere files' streaming L1,
    `s`) nothing is reserved: the probe says MISS (line absent) or SECTOR_MISS (line
    present, sector not), so MISS + SECTOR_MISS include every merge.  Counting merges as
    hits in both cases (as warpcache's read_misses do): MISS + SECTOR_MISS minus the
    merges that are not already HIT_RESERVED.  Versions that do not count MSHR_HIT give 0
    there, and the formula falls back to MISS + SECTOR_MISS."""
    merged_as_miss = max(0, l1("MSHR_HIT") - l1("HIT_RESERVED"))
    return l1("MISS") + l1("SECTOR_MISS") - merged_as_miss


def parse_accelsim(text):
    kernels, cur, prev = [], None, {}
    for line in text.splitlines():
        m = re.match(r"kernel_name = (\S+)", line)
        if m:
            cur = {"name": m.group(1), "acc": {}}
            kernels.append(cur)
            continue
        if cur is None:
            continue
        m = re.match(r"gpu_sim_cycle = (\d+)", line)
        if m:
            cur["cycles"] = int(m.group(1))
        m = re.match(r"\s*(Total_core_cache|L2_cache)_stats_breakdown\[GLOBAL_ACC_R\]\[(\w+)\] = (\d+)",
                     line)
        if m:
            cur["acc"][(m.group(1), m.group(2))] = int(m.group(3))
    out = []
    for k in kernels:  # cumulative -> per kernel
        d = {key: v - prev.get(key, 0) for key, v in k["acc"].items()}
        prev = k["acc"]
        l1 = lambda s: d.get(("Total_core_cache", s), 0)
        l2 = lambda s: d.get(("L2_cache", s), 0)
        looks = l1("HIT") + l1("HIT_RESERVED") + l1("MISS") + l1("SECTOR_MISS")
        out.append({
            "name": k["name"],
            "cycles": k.get("cycles", 0),
            "l1_load_miss": l1_fetch_misses(l1) / looks if looks else 0.0,
            "res_fails": l1("RESERVATION_FAIL"),
            "l2_reads": l2("HIT") + l2("HIT_RESERVED") + l2("MISS") + l2("SECTOR_MISS"),
        })
    return out


def run_warpcache(wc, workload, config, extra):
    js = sh([wc, "run", "-q", "-w", workload, "--config", config, "--json", "-"] + extra).stdout
    d = json.loads(js)
    out = []
    for k in d["kernels"]:
        l1 = k["l1"]
        out.append({
            "name": k["name"],
            "cycles": k["cycles"],
            "l1_load_miss": l1["read_misses"] / l1["reads"] if l1["reads"] else 0.0,
            "res_fails": l1["reservation_fails"]["total"],
            "l2_reads": k["l2"]["accesses"],
        })
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("workloads", nargs="+")
    ap.add_argument("--accelsim", default="/root/accelsim", help="folder of build-accelsim.sh")
    ap.add_argument("--config", default=os.path.join(
        ROOT, "..", "shared", "data", "gpgpusim-configs", "SM2_GTX480", "gpgpusim.config"))
    ap.add_argument("--warpcache", default=os.path.join(ROOT, "build", "warpcache"))
    ap.add_argument("--work", default="/tmp/accelsim-compare", help="traces, logs, run folder")
    ap.add_argument("--reuse", action="store_true",
                    help="reuse Accel-Sim logs already in --work (same workloads and config)")
    ap.add_argument("-o", dest="opts", action="append", default=[],
                    help="extra warpcache option NAME=VALUE (warpcache side only)")
    a = ap.parse_args()
    run_dir = os.path.join(a.work, "run")
    prepare_run_dir(run_dir, a.config, a.accelsim)
    extra = sum((["-o", o] for o in a.opts), [])
    print("| workload | kernel | L1 load miss AS | WC | res. fails AS | WC | L2 reads AS | WC "
          "| cycles AS | WC | WC/AS |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for w in a.workloads:
        tag = re.sub(r"[^A-Za-z0-9]+", "_", w)
        tdir = os.path.join(a.work, "traces", tag)
        if not os.path.exists(os.path.join(tdir, "kernelslist.g")):
            shutil.rmtree(tdir, ignore_errors=True)
            os.makedirs(os.path.dirname(tdir), exist_ok=True)
            sh([a.warpcache, "trace", "convert", w, tdir, "--format", "accelsim"])
        log = os.path.join(a.work, tag + ".log")
        if a.reuse and os.path.exists(log):
            as_k = parse_accelsim(open(log).read())
        else:
            as_k = run_accelsim(a.accelsim, run_dir, tdir, log)
        wc_k = run_warpcache(a.warpcache, w, a.config, extra)
        for x, y in zip(as_k, wc_k):
            print("| %s | %s | %.1f %% | %.1f %% | %d | %d | %d | %d | %d | %d | %.2f |" % (
                w, y["name"], 100 * x["l1_load_miss"], 100 * y["l1_load_miss"], x["res_fails"],
                y["res_fails"], x["l2_reads"], y["l2_reads"], x["cycles"], y["cycles"],
                y["cycles"] / x["cycles"] if x["cycles"] else 0.0))
        if len(as_k) != len(wc_k):
            print("warning: %s: %d kernels in Accel-Sim, %d in warpcache" %
                  (w, len(as_k), len(wc_k)), file=sys.stderr)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
