"""warpcache - run the warpcache simulator from Python and load its results.

Pure standard library; pandas is used only by the ``*frame`` helpers, when it
is installed.  The package runs the ``warpcache`` program (it does not bind
the C library) and reads the files the program writes anyway - ``run --json``,
``compare --json`` / ``--wide-csv`` and ``sweep --results`` (docs/stats.md) -
so its numbers are exactly the command line's.  docs/python.md is the guide.

    import warpcache
    r = warpcache.run("polybench/atax:scale=0.125", options={"l1_assoc": 8})
    r.totals["cycles"], r.totals["l1.miss_rate"]
    rows = warpcache.compare(["base", "base-48k"], ["polybench/atax:scale=0.125"]).rows
    warpcache.frame(rows)                  # a pandas DataFrame
    warpcache.accelsim_view(rows)          # gpu_tot_sim_cycle, L1D_total_cache_miss_rate, ...

Statistic names are the flat, dotted keys of docs/stats.md ("cycles",
"l1.miss_rate", "l2.accesses", ...) everywhere: per kernel, totals, compare and
sweep rows alike.
"""

import csv
import json
import os
import shutil
import subprocess
import tempfile

from warpcache.accelsim import ACCELSIM_NAMES, accelsim_view

__all__ = [
    "Warpcache", "WarpcacheError", "RunResult", "CompareResult", "find_binary", "run", "compare",
    "sweep", "load_run", "load_compare", "load_wide_csv", "load_sweep", "flatten", "frame",
    "ACCELSIM_NAMES", "accelsim_view",
]


class WarpcacheError(RuntimeError):
    """warpcache exited with an error; .status is its exit status (2: bad input)."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


def find_binary(binary=None):
    """The warpcache program: `binary`, else $WARPCACHE, else `warpcache` on PATH,
    else build/warpcache of the source tree this package sits in."""
    for cand in (binary, os.environ.get("WARPCACHE")):
        if cand:
            if os.path.isfile(cand) and os.access(cand, os.X_OK):
                return os.path.abspath(cand)
            raise WarpcacheError("warpcache program %r not found or not executable" % cand)
    on_path = shutil.which("warpcache")
    if on_path:
        return on_path
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.join(here, "..", "..", "build", "warpcache")
    if os.path.isfile(tree) and os.access(tree, os.X_OK):
        return os.path.abspath(tree)
    raise WarpcacheError("no warpcache program: pass binary=..., set WARPCACHE, put it on PATH "
                         "(make install) or build it (make)")


def flatten(obj, prefix=""):
    """{"l1": {"miss_rate": 0.5}} -> {"l1.miss_rate": 0.5} (the keys of docs/stats.md)."""
    out = {}
    for k, v in obj.items():
        key = prefix + str(k)
        if isinstance(v, dict):
            out.update(flatten(v, key + "."))
        else:
            out[key] = v
    return out


def _kernel_row(workload, k):
    """One kernel of run's JSON as a flat row: workload, kernel, id, then the statistics
    (the columns of `run --csv`)."""
    k = dict(k)
    row = {"workload": workload, "kernel": k.pop("name"), "id": k.pop("id")}
    row.update(flatten(k))
    return row


class RunResult:
    """One `warpcache run`: .workload, .config, .truncated, .kernels (a row per kernel),
    .totals (the whole run), .rows (kernels then a "total" row), .json (as read)."""

    def __init__(self, doc):
        self.json = doc
        self.workload = doc.get("workload")
        self.config = doc.get("config")
        self.truncated = doc.get("truncated", False)
        self.kernels = [_kernel_row(self.workload, k) for k in doc.get("kernels", [])]
        self.totals = _kernel_row(self.workload, doc["totals"])
        self.totals["kernel"] = self.totals["id"] = "total"

    @property
    def rows(self):
        return self.kernels + [self.totals]

    def frame(self):
        return frame(self.rows)


class CompareResult:
    """One `warpcache compare`: .metric, .designs, .table (the normalised table: a row per
    workload (or kernel) and design with value and normalised), .means, and .rows: every
    statistic per workload, kernel and design (from the get_stats.py-layout file)."""

    def __init__(self, doc, rows=None):
        self.json = doc
        self.metric = doc["metric"]
        self.designs = doc["designs"]
        self.table = []
        for r in doc["rows"]:
            for d, design in enumerate(self.designs):
                t = {k: v for k, v in r.items() if k not in ("values", "normalised")}
                t.update(design=design, metric=self.metric, value=r["values"][d],
                         normalised=r["normalised"][d])
                self.table.append(t)
        self.means = []
        for m in doc["means"]:
            for d, design in enumerate(self.designs):
                self.means.append({"group": m["group"], "design": design,
                                   "geomean": m["geomean"][d], "hmean": m["hmean"][d],
                                   "rows": m["rows"][d]})
        self.rows = rows or []

    def frame(self):
        return frame(self.rows)


def load_run(path):
    """A file of `warpcache run --json FILE`."""
    with open(path) as f:
        return RunResult(json.load(f))


def load_wide_csv(path, workloads=None):
    """A file of `compare --wide-csv` (Accel-Sim get_stats.py layout): a row per
    (workload, kernel, design) with every statistic.  `workloads` (the compare's inputs)
    splits "workload--kernel" exactly; without it the last "--" splits."""
    stats, order = {}, []
    with open(path, newline="") as f:
        lines = list(csv.reader(f))
    i = 0
    while i < len(lines):
        if not lines[i] or not lines[i][0].startswith("-" * 100):
            i += 1
            continue
        key, designs = lines[i + 1][0], lines[i + 2][1:]
        i += 3
        while i < len(lines) and lines[i] and not lines[i][0].startswith("-" * 100):
            app, vals = lines[i][0], lines[i][1:]
            for d, v in zip(designs, vals):
                if (app, d) not in stats:
                    stats[(app, d)] = {}
                    order.append((app, d))
                stats[(app, d)][key] = None if v == "NA" else _number(v)
            i += 1
    rows = []
    for app, d in order:
        wl, kernel = _split_app(app, workloads)
        row = {"workload": wl, "kernel": kernel, "design": d}
        row.update(stats[(app, d)])
        rows.append(row)
    return rows


def _split_app(app, workloads):
    for w in sorted(workloads or [], key=len, reverse=True):
        if app.startswith(w + "--"):
            return w, app[len(w) + 2:]
    wl, _, kernel = app.rpartition("--")
    return wl, kernel


def _number(text):
    try:
        return int(text)
    except ValueError:
        return float(text)


def load_compare(json_path, wide_csv_path=None):
    """Files of `compare --json FILE` (and optionally `--wide-csv FILE`)."""
    with open(json_path) as f:
        doc = json.load(f)
    rows = None
    if wide_csv_path:
        rows = load_wide_csv(wide_csv_path, [r["workload"] for r in doc["rows"]])
    return CompareResult(doc, rows)


def load_sweep(path, errors=False):
    """A `sweep --results FILE` (JSONL): a row per point - point, key, design, workload
    (or trace), the grid values under their names (as given, strings), kernels,
    truncated, then the totals.  Error lines (--keep-going) only with errors=True."""
    rows = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            doc = json.loads(line)
            if "error" in doc and not errors:
                continue
            row = {"point": doc["point"], "key": doc["key"], "design": doc.get("design")}
            for k in ("workload", "trace"):
                if k in doc:
                    row[k] = doc[k]
            row.update(doc.get("params", {}))
            for k in ("kernels", "truncated", "error", "exit_status"):
                if k in doc:
                    row[k] = doc[k]
            row.update(doc.get("totals", {}))
            rows.append(row)
    return rows


def frame(rows):
    """A pandas DataFrame of rows (lists of dicts from this package)."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError("warpcache.frame needs pandas (Debian: apt-get install "
                          "python3-pandas); the rows are plain lists of dicts without it") from e
    return pandas.DataFrame(rows)


def _opts(config=None, design=None, options=None, seed=None):
    args = []
    if config:
        args += ["--config", str(config)]
    if design:
        args += ["--design", design]
    for k, v in (options or {}).items():
        args += ["-o", "%s=%s" % (k, v)]
    if seed is not None:
        args += ["--seed", str(seed)]
    return args


def _inputs(workloads=(), traces=()):
    if isinstance(workloads, str):
        workloads = [workloads]
    if isinstance(traces, str):
        traces = [traces]
    args = []
    for w in workloads:
        args += ["-w", w]
    for t in traces:
        args += ["-t", str(t)]
    return args


class Warpcache:
    """The program at `binary` (find_binary's search when None)."""

    def __init__(self, binary=None):
        self.binary = find_binary(binary)

    def call(self, *args):
        """Runs `warpcache ARGS...` quietly; its stdout, or WarpcacheError."""
        p = subprocess.run([self.binary] + [str(a) for a in args], capture_output=True, text=True)
        if p.returncode != 0:
            raise WarpcacheError((p.stderr or p.stdout).strip(), p.returncode)
        return p.stdout

    def run(self, workload=None, trace=None, config=None, design=None, options=None, seed=None,
            kernels=None, args=()):
        """`warpcache run` of one workload or trace -> RunResult."""
        if (workload is None) == (trace is None):
            raise ValueError("give exactly one of workload or trace")
        with tempfile.TemporaryDirectory(prefix="warpcache-py.") as tmp:
            out = os.path.join(tmp, "run.json")
            cmd = ["run", "-q"] + (["--workload", workload] if workload else ["--trace", str(trace)])
            if kernels:
                cmd += ["--kernels", kernels]
            self.call(*(cmd + _opts(config, design, options, seed) + list(args) + ["--json", out]))
            return load_run(out)

    def compare(self, designs, workloads=(), traces=(), metric=None, per_kernel=False,
                by_class=None, config=None, options=None, seed=None, jobs=None, args=()):
        """`warpcache compare` -> CompareResult (.table: the metric; .rows: every statistic
        per workload, kernel and design)."""
        with tempfile.TemporaryDirectory(prefix="warpcache-py.") as tmp:
            js, wide = os.path.join(tmp, "c.json"), os.path.join(tmp, "c.csv")
            cmd = ["compare", "-q", "--designs", ",".join(designs)] + _inputs(workloads, traces)
            if metric:
                cmd += ["--metric", metric]
            if per_kernel:
                cmd += ["--per-kernel"]
            if by_class:
                cmd += ["--by-class", by_class]
            if jobs:
                cmd += ["-j", jobs]
            self.call(*(cmd + _opts(config, None, options, seed) + list(args) +
                        ["--json", js, "--wide-csv", wide]))
            return load_compare(js, wide)

    def sweep(self, grid, workloads=(), traces=(), designs=None, results=None, config=None,
              options=None, seed=None, jobs=None, args=()):
        """`warpcache sweep` of grid {"l1_assoc": [2, 4], ...} -> load_sweep's rows.  With
        `results` the file is kept (and --resume'd by a later call with args=["--resume"])."""
        with tempfile.TemporaryDirectory(prefix="warpcache-py.") as tmp:
            path = str(results) if results else os.path.join(tmp, "sweep.jsonl")
            cmd = ["sweep", "-q", "--results", path] + _inputs(workloads, traces)
            for name, values in grid.items():
                if isinstance(values, (str, int, float)):
                    values = [values]
                cmd += ["-g", "%s=%s" % (name, ",".join(str(v) for v in values))]
            if designs:
                cmd += ["--designs", ",".join(designs)]
            if jobs:
                cmd += ["-j", jobs]
            self.call(*(cmd + _opts(config, None, options, seed) + list(args)))
            return load_sweep(path)


def run(*a, binary=None, **kw):
    """Warpcache(binary).run(...)."""
    return Warpcache(binary).run(*a, **kw)


def compare(*a, binary=None, **kw):
    """Warpcache(binary).compare(...)."""
    return Warpcache(binary).compare(*a, **kw)


def sweep(*a, binary=None, **kw):
    """Warpcache(binary).sweep(...)."""
    return Warpcache(binary).sweep(*a, **kw)
