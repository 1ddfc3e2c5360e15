"""Tests of the warpcache Python package (tests/cli_python.sh runs them in make check).

Expectations come from the command line's other outputs, read here with the
standard library's csv module: `run --csv` for a run, the JSON of `run` for
compare's and sweep's rows, so a wrong flattening, renaming or split shows.
WARPCACHE names the program under test.  The DataFrame tests are skipped when
pandas is not installed (Debian: python3-pandas; make check installs it).
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import warpcache  # noqa: E402

try:
    import pandas  # noqa: F401
    HAVE_PANDAS = True
except ImportError:
    HAVE_PANDAS = False

BIN = os.environ.get("WARPCACHE")
WL = "micro/colcopy:h=64"
WL2 = "polybench/atax:scale=0.0625"  # two kernels (tmp = A x; y = A^T tmp)


def cli(*args):
    return subprocess.run([BIN, *args], check=True, capture_output=True, text=True).stdout


def cli_csv_rows(*args):
    return list(csv.DictReader(io.StringIO(cli(*args, "-q", "--csv", "-"))))


def cli_totals(workload, *opts):
    doc = json.loads(cli("run", "-q", "--workload", workload, *opts, "--json", "-"))
    return doc["totals"]


class BinaryTest(unittest.TestCase):
    def test_argument_wins(self):
        self.assertEqual(warpcache.Warpcache(BIN).binary, os.path.abspath(BIN))

    def test_env(self):
        old = os.environ.get("WARPCACHE")
        try:
            os.environ["WARPCACHE"] = BIN
            self.assertEqual(warpcache.find_binary(), os.path.abspath(BIN))
            os.environ["WARPCACHE"] = "/nonexistent/warpcache"
            with self.assertRaisesRegex(warpcache.WarpcacheError, "/nonexistent/warpcache"):
                warpcache.find_binary()
        finally:
            os.environ["WARPCACHE"] = old

    def test_cli_error_is_raised_with_status(self):
        with self.assertRaises(warpcache.WarpcacheError) as cm:
            warpcache.run("no/such-workload", binary=BIN)
        self.assertEqual(cm.exception.status, 2)
        self.assertIn("no/such-workload", str(cm.exception))


class RunTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.r = warpcache.run(WL2, options={"l1_assoc": 8}, binary=BIN)
        cls.csv = cli_csv_rows("run", "--workload", WL2, "-o", "l1_assoc=8")

    def test_rows_are_run_csv(self):
        # every row and column of `run --csv`, with the same values
        self.assertEqual(len(self.r.rows), len(self.csv))
        for mine, theirs in zip(self.r.rows, self.csv):
            self.assertEqual(set(mine), set(theirs))
            for k, v in theirs.items():
                if k in ("workload", "kernel", "id"):
                    self.assertEqual(str(mine[k]), v, k)
                else:
                    self.assertAlmostEqual(float(mine[k]), float(v), places=6, msg=k)

    def test_two_kernels_and_totals(self):
        self.assertEqual([k["id"] for k in self.r.kernels], [1, 2])
        self.assertEqual(self.r.totals["cycles"], sum(k["cycles"] for k in self.r.kernels))
        self.assertEqual(self.r.workload, WL2)

    def test_option_reached_the_run(self):
        base = warpcache.run(WL2, binary=BIN)
        self.assertNotEqual(base.totals["cycles"], self.r.totals["cycles"])

    def test_load_run_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            cli("run", "-q", "--workload", WL, "--json", path)
            r = warpcache.load_run(path)
        self.assertEqual(r.totals["l2.accesses"], cli_totals(WL)["l2"]["accesses"])


class CompareTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.c = warpcache.compare(["base", "base-48k"], [WL, WL2], binary=BIN, jobs=1)

    def test_table(self):
        self.assertEqual(self.c.metric, "ipc")
        self.assertEqual(len(self.c.table), 4)  # 2 workloads x 2 designs
        ipc48 = cli_totals(WL, "--design", "base-48k")["ipc"]
        row = [t for t in self.c.table if t["workload"] == WL and t["design"] == "base-48k"][0]
        self.assertAlmostEqual(row["value"], ipc48, places=6)
        ref = [t for t in self.c.table if t["workload"] == WL and t["design"] == "base"][0]
        self.assertAlmostEqual(row["normalised"], ipc48 / ref["value"], places=6)
        self.assertEqual({m["group"] for m in self.c.means}, {"all"})

    def test_rows_every_statistic_per_kernel(self):
        # 1 kernel of WL + 2 of WL2, for each of 2 designs
        self.assertEqual(len(self.c.rows), 6)
        r = [x for x in self.c.rows if x["workload"] == WL2 and x["design"] == "base-48k"]
        self.assertEqual([x["kernel"] for x in r], ["atax_kernel1", "atax_kernel2"])
        doc = json.loads(cli("run", "-q", "--workload", WL2, "--design", "base-48k", "--json", "-"))
        k2 = doc["kernels"][1]
        self.assertEqual(r[1]["cycles"], k2["cycles"])
        self.assertAlmostEqual(r[1]["l1.miss_rate"], k2["l1"]["miss_rate"], places=6)
        self.assertEqual(r[1]["l1.reservation_fails.total"], k2["l1"]["reservation_fails"]["total"])


class SweepTest(unittest.TestCase):
    def test_rows(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.jsonl")
            rows = warpcache.sweep({"l1_assoc": [2, 8]}, [WL], results=path, binary=BIN)
            self.assertTrue(os.path.exists(path))  # kept where asked
        self.assertEqual([r["l1_assoc"] for r in rows], ["2", "8"])
        self.assertEqual([r["point"] for r in rows], [0, 1])
        self.assertEqual(rows[1]["cycles"], cli_totals(WL, "-o", "l1_assoc=8")["cycles"])
        self.assertEqual(rows[0]["workload"], WL)


class AccelSimTest(unittest.TestCase):
    def test_names(self):
        r = warpcache.run(WL2, binary=BIN)
        t = cli_totals(WL2)
        v = warpcache.accelsim_view(r.totals)
        self.assertEqual(v["gpu_tot_sim_cycle"], t["cycles"])
        self.assertEqual(v["gpu_tot_sim_insn"], t["thread_insts"])
        self.assertAlmostEqual(v["L1D_total_cache_miss_rate"], t["l1"]["miss_rate"], places=6)
        self.assertEqual(v["L2_total_cache_accesses"], t["l2"]["accesses"])
        self.assertNotIn("cycles", v)  # warpcache's own names only with keep=True
        self.assertIn("cycles", warpcache.accelsim_view(r.totals, keep=True))
        k = warpcache.accelsim_view(r.kernels)
        self.assertEqual([x["gpu_sim_cycle"] for x in k], [x["cycles"] for x in r.kernels])
        self.assertEqual(k[0]["kernel"], "atax_kernel1")

    def test_every_mapped_key_exists(self):
        # the map names keys warpcache writes (a renamed key would silently vanish)
        keys = set(warpcache.run(WL, binary=BIN).totals)
        self.assertEqual(set(warpcache.ACCELSIM_NAMES) - keys, set())


@unittest.skipUnless(HAVE_PANDAS, "pandas is not installed (Debian: python3-pandas)")
class FrameTest(unittest.TestCase):
    def test_run_frame(self):
        r = warpcache.run(WL2, binary=BIN)
        df = r.frame()
        self.assertEqual(len(df), 3)
        self.assertEqual(int(df[df["kernel"] == "total"]["cycles"].iloc[0]), r.totals["cycles"])

    def test_sweep_frame_pivot(self):
        rows = warpcache.sweep({"l1_assoc": [2, 8]}, [WL, WL2], binary=BIN)
        df = warpcache.frame(rows)
        p = df.pivot(index="workload", columns="l1_assoc", values="cycles")
        self.assertEqual(p.shape, (2, 2))


class NoPandasTest(unittest.TestCase):
    @unittest.skipIf(HAVE_PANDAS, "pandas is installed")
    def test_frame_says_what_is_missing(self):
        with self.assertRaisesRegex(ImportError, "python3-pandas"):
            warpcache.frame([{"a": 1}])


if __name__ == "__main__":
    res = unittest.main(exit=False, verbosity=2).result
    skipped = len(res.skipped)
    failed = len(res.failures) + len(res.errors)
    if skipped:
        print("%d skipped: %s" % (skipped, "; ".join(sorted({r for _, r in res.skipped}))))
    print("cli_python: %d passed, %d failed" % (res.testsRun - failed - skipped, failed))
    sys.exit(1 if failed else 0)
