"""accelsim.py - warpcache's statistics under Accel-Sim's (GPGPU-Sim's) names.

Plotting scripts written for Accel-Sim's get_stats.py read names such as
gpu_tot_sim_cycle or L1D_total_cache_miss_rate.  `compare --wide-csv` already
writes get_stats.py's layout with warpcache's keys; this is the one table from
those keys to GPGPU-Sim's names, for the statistics that mean the same on both
sides (docs/python.md lists them with their definitions).

GPGPU-Sim prints gpu_sim_* per kernel and gpu_tot_* summed over the run; a row
that is a whole run (a run's totals, a sweep point, a compare row of a
workload) gets the gpu_tot_* names, a kernel's row the gpu_sim_* ones.  Its
L1D_/L2_total_cache_* counters are cumulative when printed after a kernel;
here they are the row's own (a kernel's, or the run's).
"""

# warpcache key -> (name in a whole-run row, name in a kernel's row)
ACCELSIM_NAMES = {
    "cycles": ("gpu_tot_sim_cycle", "gpu_sim_cycle"),
    "thread_insts": ("gpu_tot_sim_insn", "gpu_sim_insn"),
    "ipc": ("gpu_tot_ipc", "gpu_ipc"),
    "warp_insts": ("gpgpu_n_tot_w_icount", "gpgpu_n_tot_w_icount"),
    "l1.accesses": ("L1D_total_cache_accesses",) * 2,
    "l1.misses": ("L1D_total_cache_misses",) * 2,
    "l1.miss_rate": ("L1D_total_cache_miss_rate",) * 2,
    "l1.hit_reserved": ("L1D_total_cache_pending_hits",) * 2,
    "l1.reservation_fails.total": ("L1D_total_cache_reservation_fails",) * 2,
    "l2.accesses": ("L2_total_cache_accesses",) * 2,
    "l2.misses": ("L2_total_cache_misses",) * 2,
    "l2.miss_rate": ("L2_total_cache_miss_rate",) * 2,
    "dram.reads": ("total dram reads",) * 2,
    "dram.writes": ("total dram writes",) * 2,
}

# What names a row: kept as they are in the view.
_ID_KEYS = ("workload", "trace", "kernel", "id", "design", "point", "key", "metric")


def _is_kernel_row(row):
    k = row.get("kernel")
    return k is not None and k != "total"


def accelsim_view(rows, keep=False):
    """Rows (dicts from this package, or a list of them) with Accel-Sim's names for the
    statistics it has.  The identifying columns (workload, kernel, design, ...) stay;
    other warpcache keys are dropped unless keep=True."""
    single = isinstance(rows, dict)
    out = []
    for row in [rows] if single else rows:
        kernel = _is_kernel_row(row)
        v = {k: row[k] for k in _ID_KEYS if k in row}
        if keep:
            v.update(row)
        for key, names in ACCELSIM_NAMES.items():
            if key in row:
                v[names[1] if kernel else names[0]] = row[key]
        out.append(v)
    return out[0] if single else out
