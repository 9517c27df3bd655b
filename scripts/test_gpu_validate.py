"""Unit tests of scripts/gpu_validate.py on hand-made data: the join of predictions and
measurements, ratio, absolute percentage error, MAPE per class, the errors, and the
manifest's argument resolution (the same the GPU side launches with), and the measure
side's loop on a fake CuPy and NumPy (what it launches, how often, with which grid, block
and arguments, and what it records; not that CuPy's API is what the fake says). Run by
tests/tests/validation.rs (python3 -m unittest)."""

import os
import sys
import tempfile
import types
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_validate as gv  # noqa: E402


def pred(case, cls, us, global_="1024", local="128", vars_="iters=8"):
    return {"case": case, "kernel": case.split("#")[0], "class": cls, "ptx": "k.ptx",
            "global": global_, "local": local, "vars": vars_, "arch": "hopper_h100",
            "predicted_cycles": "0", "predicted_us": us, "latency_cycles": "0",
            "bound": "latency", "work_groups_per_sm": "1"}


def meas(case, us, global_="1024", local="128", vars_="iters=8"):
    return {"case": case, "kernel": case.split("#")[0], "global": global_, "local": local,
            "vars": vars_, "measured_us": us, "gpu": "NVIDIA H100 80GB HBM3",
            "driver": "580.1", "date": "2025-01-02"}


class Report(unittest.TestCase):
    def test_ratio_error_and_mape_per_class(self):
        rows, missing = gv.join(
            [pred("a#0", "compute", "110"), pred("b#0", "compute", "45"),
             pred("c#0", "memory", "10"), pred("d#0", "memory", "1")],
            [meas("a#0", "100"), meas("b#0", "50"), meas("c#0", "40")])
        self.assertEqual(missing, ["d#0"])
        self.assertEqual([r["ratio"] for r in rows], ["1.1000", "0.9000", "0.2500"])
        self.assertEqual([r["ape_percent"] for r in rows], ["10.00", "10.00", "75.00"])
        self.assertAlmostEqual(gv.mape(rows, "compute"), 10.0)
        self.assertAlmostEqual(gv.mape(rows, "memory"), 75.0)
        self.assertAlmostEqual(gv.mape(rows), 95.0 / 3)
        text = gv.render(rows, missing)
        self.assertIn("MAPE compute-bound: 10.0% over 2 launches", text)
        self.assertIn("MAPE memory-bound: 75.0% over 1 launches", text)
        self.assertIn("not measured: d#0", text)
        self.assertEqual(rows[0]["gpu"], "NVIDIA H100 80GB HBM3")

    def test_halves_follow_the_committed_rule(self):
        # validation/halves.py's rule, committed 2026-11-27: a case never moves. These
        # names' halves were computed by hand from their SHA-256 (first byte even: fit).
        for name, expected in (("divloop", "fit"), ("matvec_rows", "fit"), ("scan", "check"),
                               ("fp32_chain", "fit")):
            self.assertEqual(gv.half(name), expected, name)
        import hashlib
        for name in ("a", "b", "stream_add", "corpus_graph"):
            byte = hashlib.sha256(name.encode()).digest()[0]
            self.assertEqual(gv.half(name), "fit" if byte % 2 == 0 else "check", name)
        rows, _ = gv.join([pred("a#0", "compute", "110"), pred("b#0", "compute", "45")],
                          [meas("a#0", "100"), meas("b#0", "50")])
        self.assertEqual([r["half"] for r in rows], [gv.half("a"), gv.half("b")])
        text = gv.render(rows, [])
        self.assertIn("MAPE check half:", text)
        self.assertIn("MAPE fit half:", text)

    def test_mismatched_launches_are_refused(self):
        with self.assertRaisesRegex(gv.ReportError, "a#0: vars"):
            gv.join([pred("a#0", "compute", "1")], [meas("a#0", "1", vars_="iters=9")])
        with self.assertRaisesRegex(gv.ReportError, "measured but not predicted: z#0"):
            gv.join([pred("a#0", "compute", "1")], [meas("a#0", "1"), meas("z#0", "1")])
        with self.assertRaisesRegex(gv.ReportError, "no case"):
            gv.join([pred("a#0", "compute", "1")], [])
        with self.assertRaisesRegex(gv.ReportError, "not positive"):
            gv.join([pred("a#0", "compute", "1")], [meas("a#0", "0")])

    def test_report_writes_the_joined_csv(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "p"))
            gv.write_csv(os.path.join(d, "p", "predictions.csv"), list(pred("a#0", "c", "1")),
                         [pred("a#0", "compute", "12")])
            gv.write_csv(os.path.join(d, "m.csv"), list(meas("a#0", "1")), [meas("a#0", "10")])
            out = os.path.join(d, "r.csv")
            self.assertEqual(gv.main(["report", "--predictions", os.path.join(d, "p"),
                                      "--measured", os.path.join(d, "m.csv"), "--out", out]), 0)
            (row,) = gv.read_csv(out)
            self.assertEqual((row["ratio"], row["ape_percent"]), ("1.2000", "20.00"))
            self.assertEqual(gv.slug(row["gpu"]), "nvidia-h100-80gb-hbm3")


class Manifest(unittest.TestCase):
    SUITE = """
[[kernel]]
name = "k"
file = "k.cl"
class = "compute"
args = [
  { kind = "buffer", type = "f32", len = "global", fill = "zero" },
  { kind = "buffer", type = "u32", len = "n", fill = "iota" },
  { kind = "scalar", type = "f64", value = 0.5 },
  { kind = "scalar", type = "i32", value = "n" },
]
sweep = [ { global = 256, local = 64, vars = { n = 1000 } }, { global = 512, local = 64, vars = { n = 7 } } ]
"""

    def write(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_arguments_resolve_from_the_launch(self):
        cs = gv.cases(self.write(self.SUITE))
        self.assertEqual([c[0] for c in cs], ["k#0", "k#1"])
        self.assertEqual(cs[0][3], [("buffer", "f32", 256, "zero"), ("buffer", "u32", 1000, "iota"),
                                    ("scalar", "f64", 0.5), ("scalar", "i32", 1000)])
        self.assertEqual(gv.vars_label(cs[1][2]), "n=7")
        self.assertEqual(len(gv.cases(self.write(self.SUITE), quick=True)), 1)

    def test_bad_manifests_are_named(self):
        bad = self.write(self.SUITE.replace('value = "n"', 'value = "m"'))
        with self.assertRaisesRegex(gv.SuiteError, r"k#0, argument 3: no launch variable `m`"):
            gv.cases(bad)
        bad = self.write(self.SUITE.replace("local = 64, vars = { n = 7 }", "local = 100, vars = { n = 7 }"))
        with self.assertRaisesRegex(gv.SuiteError, "k#1: local size 100 must divide global size 512"):
            gv.cases(bad)
        bad = self.write(self.SUITE.replace('kind = "scalar", type = "f64"', 'kind = "local", type = "f64"'))
        with self.assertRaisesRegex(gv.SuiteError, "__local arguments are not supported"):
            gv.cases(bad)
        with self.assertRaisesRegex(gv.SuiteError, "line"):
            gv.cases(self.write("[[kernel]\n"))

    def test_the_shipped_suite_is_valid(self):
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
        cs = gv.cases(os.path.join(root, "validation", "suite.toml"))
        classes = {c[1]["class"] for c in cs}
        self.assertEqual(classes, {"compute", "memory"})
        for case, kernel, launch, _ in cs:
            # At least one work-group per SM of the H100 (132).
            self.assertGreaterEqual(launch["global"] // launch["local"], 132, case)


class FakeArray:
    """An array's length and element type, not its (millions of) elements."""

    def __init__(self, length, dtype):
        self.length, self.dtype = length, dtype

    def astype(self, dtype):
        return FakeArray(self.length, dtype)


class FakeNumpy(types.ModuleType):
    """What host_arrays uses of NumPy: dtypes that convert, zeros and arange."""
    float32 = float64 = float
    int32 = uint32 = int64 = int

    def __init__(self):
        super().__init__("numpy")

    @staticmethod
    def zeros(length, dtype):
        return FakeArray(length, dtype)

    @staticmethod
    def arange(length, dtype):
        return FakeArray(length, dtype)


class FakeCupy(types.ModuleType):
    """What measure uses of CuPy, recording every launch; each timed launch takes the next
    of `times_ms`."""

    def __init__(self, times_ms):
        super().__init__("cupy")
        fake = self
        self.launches, self.loaded, self.times = [], [], iter(times_ms)
        self.shared_mem = []

        class Function:
            def __init__(self, name):
                self.name = name

            shared_size_bytes = 40  # the kernel's static __shared__ bytes

            def __call__(self, grid, block, args, shared_mem=0):
                fake.launches.append((self.name, grid, block, len(args)))
                fake.shared_mem.append(shared_mem)

        class RawModule:
            def __init__(self, path):
                fake.loaded.append(os.path.basename(path))
                with open(path) as f:
                    text = f.read()
                # What the GPU runs is optimised: no debug target, no DWARF sections.
                assert ", debug" not in text and ".debug_" not in text, path
                assert ".entry" in text, path

            def get_function(self, name):
                return Function(name)

        class Device:
            id = 0

            def synchronize(self):
                pass

        class Event:
            def record(self):
                pass

            def synchronize(self):
                pass

        self.RawModule = RawModule
        self.asarray = lambda v: v
        self.asnumpy = lambda v: v
        self.cuda = types.SimpleNamespace(
            Device=Device, Event=Event,
            get_elapsed_time=lambda start, end: next(fake.times),
            runtime=types.SimpleNamespace(
                getDeviceProperties=lambda i: {"name": b"Fake H100"},
                driverGetVersion=lambda: 12040))


class Measure(unittest.TestCase):
    """The GPU side on a fake CuPy: every case of the committed predictions is launched
    with its PTX, grid = global / local, its arguments, warm-up and timed launches, and
    the median lands in the CSV."""

    def test_measure_launches_every_case_and_records_the_median(self):
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
        suite = os.path.join(root, "validation", "suite.toml")
        predictions = os.path.join(root, "validation", "predictions", "hopper_h100")
        cs = gv.cases(suite, quick=True)
        # Three timed launches a case, 10, 30 and 20 microseconds: the median is 20.
        cupy = FakeCupy([0.010, 0.030, 0.020] * len(cs))
        out = os.path.join(tempfile.mkdtemp(), "measured.csv")
        modules = {"cupy": cupy, "numpy": FakeNumpy()}
        saved = {m: sys.modules.get(m) for m in modules}
        sys.modules.update(modules)
        no_smi = lambda *a, **k: (_ for _ in ()).throw(OSError("no nvidia-smi"))
        run, gv.subprocess.run = gv.subprocess.run, no_smi
        try:
            args = types.SimpleNamespace(suite=suite, predictions=predictions, quick=True,
                                         warmup=2, runs=3, out=out)
            self.assertEqual(gv.measure(args), out)
        finally:
            gv.subprocess.run = run
            for m, mod in saved.items():
                if mod is None:
                    del sys.modules[m]
                else:
                    sys.modules[m] = mod
        self.assertEqual(sorted(set(cupy.loaded)), ["compute.ptx", "memory.ptx"])
        expected = []
        for case, kernel, launch, spec in cs:
            grid = (launch["global"] // launch["local"], 1, 1)
            expected += [(kernel["name"], grid, (launch["local"], 1, 1), len(spec))] * 5
        self.assertEqual(cupy.launches, expected)
        rows = gv.read_csv(out)
        self.assertEqual([r["case"] for r in rows], [c[0] for c in cs])
        for r in rows:
            self.assertEqual((r["measured_us"], r["min_us"], r["max_us"], r["runs"]),
                             ("20.000", "10.000", "30.000", "3"))
            self.assertEqual((r["gpu"], r["driver"]), ("Fake H100", "12040"))
        # The report side reads what measure wrote.
        joined, missing = gv.join(gv.read_csv(os.path.join(predictions, "predictions.csv")), rows)
        self.assertEqual(len(joined), len(cs))


NCU_PAGE = """==PROF== Connected to process 2522 (/usr/bin/python3.12)
/root/out/order.csv
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"
"0","1","p","h","reduce","1","7","(256, 1, 1)","(64, 1, 1)","0","9.0","s","gpc__cycles_elapsed.max","cycle","13,320"
"0","1","p","h","reduce","1","7","(256, 1, 1)","(64, 1, 1)","0","9.0","s","gpu__time_duration.sum","ns","6,720"
"1","1","p","h","reduce","1","7","(256, 1, 1)","(64, 1, 1)","0","9.0","s","gpu__time_duration.sum","ns","6,528"
"1","1","p","h","reduce","1","7","(256, 1, 1)","(64, 1, 1)","0","9.0","s","gpc__cycles_elapsed.max","cycle","13,006"
"2","1","p","h","scan","1","7","(256, 1, 1)","(1, 1, 1)","0","9.0","s","gpu__time_duration.sum","usecond","2.5"
"3","1","p","h","scan","1","7","(256, 1, 1)","(1, 1, 1)","0","9.0","s","gpu__time_duration.sum","usecond","3.25"
"""


class Profile(unittest.TestCase):
    """Nsight Compute's durations replace a measure run's times: each case's last launch
    (the timed one), in the order the cases ran, units converted, kernels checked."""

    def write(self, text):
        path = os.path.join(tempfile.mkdtemp(), "f.csv")
        with open(path, "w") as f:
            f.write(text)
        return path

    def order(self, kernels):
        rows = "".join(f"c{i}#0,{k},256,256,,9.0,9.0,9.0,1,G,d,1,2,2026-11-27\n"
                       for i, k in enumerate(kernels))
        return self.write(",".join(gv.MEASURED_FIELDS) + "\n" + rows)

    def test_last_launch_of_each_case(self):
        self.assertEqual(gv.read_ncu(self.write(NCU_PAGE)),
                         [("reduce", 6.72, 13320.0), ("reduce", 6.528, 13006.0),
                          ("scan", 2.5, None), ("scan", 3.25, None)])
        out = os.path.join(tempfile.mkdtemp(), "o.csv")
        args = types.SimpleNamespace(ncu=self.write(NCU_PAGE), measured=self.order(["reduce", "scan"]),
                                     per_case=2, out=out)
        gv.profile(args)
        rows = gv.read_csv(out)
        self.assertEqual([(r["case"], r["measured_us"], r["gpc_cycles"]) for r in rows],
                         [("c0#0", "6.528", "13006"), ("c1#0", "3.250", "")])

    def test_launches_that_do_not_line_up_are_refused(self):
        args = types.SimpleNamespace(ncu=self.write(NCU_PAGE), measured=self.order(["reduce"]),
                                     per_case=2, out="/dev/null")
        with self.assertRaisesRegex(gv.ReportError, "4 profiled launches for 1 cases"):
            gv.profile(args)
        args.measured, args.per_case = self.order(["scan", "reduce"]), 2
        with self.assertRaisesRegex(gv.ReportError, "ncu's launch is of reduce, not scan"):
            gv.profile(args)


def memory_page(launches):
    """An ncu page of the memory metrics: per launch (kernel, DRAM read MB, DRAM write KB,
    L2 bytes, L2 hit %, L1 hit %)."""
    head = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",'
            '"Block Size","Grid Size","Device","CC","Section Name","Metric Name",'
            '"Metric Unit","Metric Value"\n')
    rows = []
    for i, (k, read_mb, write_kb, l2, l2_hit, l1_hit) in enumerate(launches):
        for name, unit, value in (("dram__bytes_read.sum", "Mbyte", read_mb),
                                  ("dram__bytes_write.sum", "Kbyte", write_kb),
                                  ("lts__t_bytes.sum", "byte", l2),
                                  ("lts__t_sector_hit_rate.pct", "%", l2_hit),
                                  ("l1tex__t_sector_hit_rate.pct", "%", l1_hit)):
            rows.append(f'"{i}","1","p","h","{k}","1","7","(256, 1, 1)","(64, 1, 1)","0",'
                        f'"9.0","s","{name}","{unit}","{value}"\n')
    return "==PROF== Connected to process 1\n" + head + "".join(rows)


class Memory(unittest.TestCase):
    """ncu's DRAM and L2 traffic of a flushed and a warm run, each case's last launch,
    byte units converted, beside srcsim's DRAM bytes and the case's half."""

    write, order = Profile.write, Profile.order

    def test_flushed_and_warm_joined_with_predictions(self):
        flushed = memory_page([("reduce", 9.9, 9, 5, 1.0, 0.0), ("reduce", 1.5, 2, "1,024", 10.5, 0.0),
                               ("scan", 9.9, 9, 5, 1.0, 0.0), ("scan", 0.25, 0, 64, 75.0, 50.0)])
        warm = memory_page([("reduce", 9.9, 9, 5, 1.0, 0.0), ("reduce", 0.001, 0, 2048, 96.0, 0.0),
                            ("scan", 9.9, 9, 5, 1.0, 0.0), ("scan", 0, 0, 64, 99.0, 60.0)])
        predictions = tempfile.mkdtemp()
        with open(os.path.join(predictions, "predictions.csv"), "w") as f:
            f.write("case,kernel,dram_bytes\nc0#0,reduce,1500000\nc1#0,scan,0\n")
        order = self.order(["reduce", "scan"])
        out = os.path.join(tempfile.mkdtemp(), "m.csv")
        args = types.SimpleNamespace(flushed=(self.write(flushed), order),
                                     warm=(self.write(warm), order), per_case=2,
                                     predictions=predictions, out=out)
        gv.memory(args)
        rows = gv.read_csv(out)
        self.assertEqual(
            [(r["case"], r["half"], r["srcsim_dram_bytes"], r["dram_bytes_flushed"],
              r["dram_bytes_warm"], r["l2_bytes_flushed"], r["l2_hit_pct_warm"]) for r in rows],
            [("c0#0", gv.half("c0"), "1500000", "1502000", "1000", "1024", "96.0"),
             ("c1#0", gv.half("c1"), "0", "250000", "0", "64", "99.0")])

    def test_a_page_without_a_metric_is_refused(self):
        page = memory_page([("reduce", 1, 1, 1, 1, 1)]).replace("lts__t_bytes.sum", "other")
        with self.assertRaisesRegex(gv.ReportError, "launch 0 has no lts__t_bytes.sum"):
            gv.read_ncu_metrics(self.write(page), gv.NCU_MEMORY)


def reference_splitmix64(seed, n):
    """splitmix64 written out one step at a time, as host.cc's SplitMix64::next."""
    mask, s, out = (1 << 64) - 1, seed, []
    for _ in range(n):
        s = (s + 0x9E3779B97F4A7C15) & mask
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return out


try:
    import numpy  # noqa: F401  (the GPU side's fills; scripts/install-deps installs it)
    HAVE_NUMPY = True
except ImportError:
    HAVE_NUMPY = False


@unittest.skipUnless(HAVE_NUMPY, "numpy (python3-numpy) is not installed")
class Launches(unittest.TestCase):
    """measure --launches builds each buffer as host.cc (and srcsim-validate) fill it, so
    that the GPU runs the corpus's kernels on the data srcsim ran them on; `__local`
    arguments are offsets after the static shared memory."""

    def values(self, elem, n, fill):
        return [v.item() for v in gv.typed(elem, gv.fill_values(elem, n, fill))]

    def test_fills_are_host_cc_s(self):
        r = reference_splitmix64(77, 40)
        self.assertEqual([int(x) for x in gv.splitmix64(77, 40)], r)
        self.assertEqual(self.values("f32", 40, ["rand", "77"]),
                         [float(numpy.float32((x >> 40) / 16777216.0)) for x in r])
        self.assertEqual(self.values("f64", 40, ["rand", "77"]),
                         [(x >> 11) / 9007199254740992.0 for x in r])
        self.assertEqual(self.values("i32", 40, ["rand", "77"]), [x >> 33 for x in r])
        self.assertEqual(self.values("u32", 40, ["randint", "77", "10"]), [x % 10 for x in r])
        offsets, at = [], 0
        for x in r:
            offsets.append(at)
            at += x % 7
        self.assertEqual(self.values("i32", 40, ["csr", "77", "3"]), offsets)
        self.assertEqual(self.values("i32", 3, ["const", "-2.5"]), [-2, -2, -2])
        self.assertEqual(self.values("u32", 3, ["iota"]), [0, 1, 2])
        with self.assertRaisesRegex(gv.SuiteError, "csr: needs an integer type"):
            gv.fill_values("f32", 4, ["csr", "1", "2"])
        with self.assertRaisesRegex(gv.SuiteError, "fill rand takes 1 parameters"):
            gv.fill_values("f32", 4, ["rand"])

    def test_host_args_lines_become_launches(self):
        d = tempfile.mkdtemp()
        path = os.path.join(d, "launches.tsv")
        with open(path, "w") as f:
            f.write("a#0\tk\tx.cl\t16x8\t4x8\t4x1\t4x8\tbuf:f32:128:rand:3\tlocal:100"
                    "\tscalar:u32:7.0\tlocal:16\n")
        [(case, kernel, glob, local, grid, block, spec)] = gv.read_launches(path)
        self.assertEqual((case, kernel, glob, local, grid, block),
                         ("a#0", "k", "16x8", "4x8", (4, 1, 1), (4, 8, 1)))
        cupy = types.SimpleNamespace(asarray=lambda v: v)
        values, buffers, dynamic = gv.launch_values(cupy, spec, static_shared=40)
        # Static 40 bytes -> the first __local at 48; 100 bytes take 112; the next at 160.
        self.assertEqual([int(values[1]), int(values[3])], [48, 160])
        self.assertEqual(dynamic, 112 + 16)
        self.assertEqual((values[2].dtype.name, int(values[2])), ("uint32", 7))
        self.assertEqual(len(buffers), 1)
        self.assertEqual(buffers[0].dtype.name, "float32")

    def test_measure_launches_times_each_launch_after_one_on_fresh_data(self):
        d = tempfile.mkdtemp()
        os.makedirs(os.path.join(d, "ptx"))
        with open(os.path.join(d, "ptx", "k.ptx"), "w") as f:
            f.write(".version 8.0\n.target sm_90\n.visible .entry k()\n{\n\tret;\n}\n")
        with open(os.path.join(d, "predictions.csv"), "w") as f:
            f.write("case,ptx,vars\na#0,k.ptx,n=4\nb#0,k.ptx,n=8\n")
        with open(os.path.join(d, "launches.tsv"), "w") as f:
            f.write("a#0\tk\tx.cl\t64\t32\t2\t32\tbuf:i32:4:iota\tlocal:100\n"
                    "b#0\tk\tx.cl\t8x8\t4x4\t2x2\t4x4\tbuf:f32:8:const:2.5\n")
        # Per case: one launch on fresh data, 1 warm-up, 3 timed (10, 30, 20 us).
        cupy = FakeCupy([0.010, 0.030, 0.020] * 2)
        out = os.path.join(d, "measured.csv")
        saved = sys.modules.get("cupy")
        sys.modules["cupy"] = cupy
        no_smi = lambda *a, **k: (_ for _ in ()).throw(OSError("no nvidia-smi"))
        run, gv.subprocess.run = gv.subprocess.run, no_smi
        try:
            args = types.SimpleNamespace(launches=os.path.join(d, "launches.tsv"),
                                         predictions=d, warmup=1, runs=3, out=out)
            self.assertEqual(gv.measure_launches(args), out)
        finally:
            gv.subprocess.run = run
            if saved is None:
                del sys.modules["cupy"]
            else:
                sys.modules["cupy"] = saved
        self.assertEqual(cupy.launches, [("k", (2, 1, 1), (32, 1, 1), 2)] * 5
                         + [("k", (2, 2, 1), (4, 4, 1), 1)] * 5)
        # The __local argument: 112 bytes after the 40 static ones (at 48).
        self.assertEqual(cupy.shared_mem, [112] * 5 + [0] * 5)
        rows = gv.read_csv(out)
        self.assertEqual([(r["case"], r["global"], r["local"], r["vars"], r["measured_us"],
                           r["runs"], r["checksums"]) for r in rows],
                         [("a#0", "64", "32", "n=4", "20.000", "3", "b0=6.000000000e+00"),
                          ("b#0", "8x8", "4x4", "n=8", "20.000", "3", "b0=2.000000000e+01")])

    def test_same_sums_within_float_reordering(self):
        self.assertEqual(gv.same_sums("b0=1.0e3 b1=2", "b0=1.0000001e3 b1=2"), "yes")
        self.assertEqual(gv.same_sums("b0=1.0e3 b1=2", "b0=1.1e3 b1=2"), "no (b0)")
        self.assertEqual(gv.same_sums("", "b0=1"), "")


if __name__ == "__main__":
    unittest.main()
