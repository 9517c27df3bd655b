#!/usr/bin/env python3
"""The GPU and report sides of scripts/gpu-validate.

measure: runs the PTX that `scripts/gpu-validate predict` wrote (srcsim's own compile path)
         on the GPU through the CUDA driver (CuPy's RawModule loads the PTX; the driver
         JIT-compiles it), with the suite's arguments and NDRange (one OpenCL work-group is
         one CUDA block: grid = global / local), times every launch with CUDA events and
         writes the median of the timed launches, after warm-up, to a CSV with the GPU's
         name, driver and the date.
report:  joins predictions and measurements by case, prints predicted, measured, their
         ratio and the absolute percentage error, and the mean absolute percentage error
         (MAPE) over compute-bound and memory-bound kernels, and writes the joined table.

Only the standard library is needed for `report`; `measure` needs CuPy and NumPy.
"""

import argparse
import csv
import datetime
import os
import re
import statistics
import subprocess
import sys
import tomllib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "validation"))
from halves import CHECK, FIT, half  # noqa: E402  (the committed fit/check split)

# ---------------------------------------------------------------------------------------
# The suite manifest (validation/suite.toml), read as srcsim-validate reads it.

ELEM_TYPES = {"f32", "f64", "i32", "u32"}


class SuiteError(Exception):
    """A manifest that cannot be used; the message names the file and the place."""


def load_suite(path):
    try:
        with open(path, "rb") as f:
            suite = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise SuiteError(f"{path}: {e}") from e
    kernels = suite.get("kernel")
    if not kernels:
        raise SuiteError(f"{path}: no [[kernel]] entries")
    for k in kernels:
        for field in ("name", "file", "class", "args", "sweep"):
            if field not in k:
                raise SuiteError(f"{path}: kernel {k.get('name', '?')}: missing `{field}`")
    return kernels


def vars_label(launch):
    return ";".join(f"{k}={v}" for k, v in sorted(launch.get("vars", {}).items()))


def resolve(value, launch, where):
    if isinstance(value, str):
        if value == "global":
            return launch["global"]
        vars_ = launch.get("vars", {})
        if value not in vars_:
            raise SuiteError(f"{where}: no launch variable `{value}` (vars: {vars_label(launch)})")
        return vars_[value]
    return value


def launch_args(kernel, launch, where):
    """The arguments of one launch: ("buffer", type, length, fill) or ("scalar", type, value)."""
    out = []
    for i, spec in enumerate(kernel["args"]):
        at = f"{where}, argument {i}"
        elem = spec.get("type")
        if elem not in ELEM_TYPES:
            raise SuiteError(f"{at}: type must be one of {sorted(ELEM_TYPES)}, not {elem!r}")
        if spec.get("kind") == "buffer":
            length = resolve(spec["len"], launch, at)
            if not isinstance(length, int) or length < 1:
                raise SuiteError(f"{at}: buffer length {length!r} is not a positive integer")
            if spec.get("fill") not in ("zero", "iota"):
                raise SuiteError(f"{at}: fill must be zero or iota")
            out.append(("buffer", elem, length, spec["fill"]))
        elif spec.get("kind") == "scalar":
            out.append(("scalar", elem, resolve(spec["value"], launch, at)))
        else:
            raise SuiteError(f"{at}: kind must be buffer or scalar (__local arguments are not supported)")
    return out


def cases(suite_path, quick=False):
    """Every launch of the suite: (case id, kernel entry, launch, args)."""
    out = []
    for k in load_suite(suite_path):
        sweep = k["sweep"][:1] if quick else k["sweep"]
        for i, launch in enumerate(sweep):
            case = f"{k['name']}#{i}"
            where = f"{suite_path}: {case}"
            g, l = launch.get("global"), launch.get("local")
            if not (isinstance(g, int) and isinstance(l, int) and l > 0 and g % l == 0):
                raise SuiteError(f"{where}: local size {l!r} must divide global size {g!r}")
            out.append((case, k, launch, launch_args(k, launch, where)))
    return out


# ---------------------------------------------------------------------------------------
# measure

def gpu_facts():
    """GPU name, driver version and current / maximum SM clock (MHz), from nvidia-smi where
    it is present."""
    import cupy

    props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    driver = str(cupy.cuda.runtime.driverGetVersion())
    clocks = ("", "")
    try:
        smi = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version,clocks.sm,clocks.max.sm",
             "--format=csv,noheader,nounits", "-i", str(cupy.cuda.Device().id)],
            capture_output=True, text=True, check=True).stdout.strip().split(", ")
        driver, clocks = smi[0], (smi[1], smi[2])
    except (OSError, subprocess.CalledProcessError, IndexError):
        pass
    return name, driver, clocks


def host_arrays(args):
    import numpy as np

    dtypes = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "u32": np.uint32}
    out = []
    for a in args:
        if a[0] == "buffer":
            _, elem, length, fill = a
            data = np.zeros(length, dtypes[elem]) if fill == "zero" else \
                np.arange(length, dtype=np.int64).astype(dtypes[elem])
            out.append(("buffer", data))
        else:
            _, elem, value = a
            out.append(("scalar", dtypes[elem](value)))
    return out


def optimised_ptx(text):
    """The PTX `text` as the GPU is to run it: srcsim compiles with debug information (its
    line table maps PTX to source), which makes clang write `.target sm_90, debug`, and
    the CUDA driver then JIT-compiles without optimisation (a dependent FP32 chain ran at
    27 cycles an iteration on an H100, against 5 for the same loop from NVRTC). The
    target's `debug` and the DWARF sections (LLVM writes them after every function) go;
    the `.loc` line information stays, which ptxas accepts in an optimised build."""
    text = re.sub(r"^(\.target\s+[^,\n]+),\s*debug\s*$", r"\1", text, flags=re.M)
    cut = re.search(r"^\s*\.section\s+\.debug_", text, flags=re.M)
    return text[:cut.start()] if cut else text


def load_module(cupy, ptx, into):
    """The CuPy module of `ptx` ([`optimised_ptx`]), written to a file of the same name
    in the directory `into`."""
    with open(ptx) as f:
        text = optimised_ptx(f.read())
    path = os.path.join(into, os.path.basename(ptx))
    with open(path, "w") as f:
        f.write(text)
    return cupy.RawModule(path=path)


def measuring(args):
    """What both ways of measuring start from: the predictions by case, the GPU's facts,
    the date and the CSV to write (its directory made)."""
    predicted = {row["case"]: row
                 for row in read_csv(os.path.join(args.predictions, "predictions.csv"))}
    facts = gpu_facts()
    date = datetime.date.today().isoformat()
    out_path = args.out or os.path.join("validation", "measured", f"{slug(facts[0])}-{date}.csv")
    os.makedirs(os.path.dirname(out_path) or ".", exist_ok=True)
    return predicted, facts, date, out_path


def timed(cupy, launch, warmup, runs):
    """Microseconds of `runs` calls of `launch` (one kernel launch each), each between two
    CUDA events, after `warmup` untimed ones."""
    for _ in range(warmup):
        launch()
    cupy.cuda.Device().synchronize()
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(runs):
        start.record()
        launch()
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end) * 1000.0)
    return times


def measured_row(case, kernel, glob, local, vars_, times, facts, date):
    """A case's row of the measured CSV: the median of `times`, printed as it is taken."""
    name, driver, (clock, max_clock) = facts
    median = statistics.median(times)
    print(f"{case}: {median:.2f} us (median of {len(times)}; {min(times):.2f} .. "
          f"{max(times):.2f})", file=sys.stderr)
    return {
        "case": case, "kernel": kernel, "global": glob, "local": local, "vars": vars_,
        "measured_us": f"{median:.3f}", "min_us": f"{min(times):.3f}",
        "max_us": f"{max(times):.3f}", "runs": len(times), "gpu": name, "driver": driver,
        "sm_clock_mhz": clock, "max_sm_clock_mhz": max_clock, "date": date,
    }


def measure(args):
    import cupy
    import tempfile

    predicted, facts, date, out_path = measuring(args)
    modules = {}
    rows = []
    for case, kernel, launch, spec in cases(args.suite, args.quick):
        if case not in predicted:
            print(f"{case}: no prediction in {args.predictions}; skipped", file=sys.stderr)
            continue
        ptx = os.path.join(args.predictions, "ptx", predicted[case]["ptx"])
        if ptx not in modules:
            modules[ptx] = load_module(cupy, ptx, tempfile.mkdtemp())
        fn = modules[ptx].get_function(kernel["name"])
        values = [cupy.asarray(v) if kind == "buffer" else v for kind, v in host_arrays(spec)]
        grid, block = (launch["global"] // launch["local"], 1, 1), (launch["local"], 1, 1)
        times = timed(cupy, lambda: fn(grid, block, values), args.warmup, args.runs)
        rows.append(measured_row(case, kernel["name"], launch["global"], launch["local"],
                                 vars_label(launch), times, facts, date))
        del values
    write_csv(out_path, MEASURED_FIELDS, rows)
    print(out_path)
    return out_path


# ---------------------------------------------------------------------------------------
# measure --launches: any manifest (the corpus), as `srcsim-validate host-args` gives its
# launches, with the GPGPU-Sim host's argument language (validation/gpgpusim/host.cc):
# every fill, `__local` arguments, two- and three-dimensional NDRanges.

GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(seed, n):
    """The first n outputs of splitmix64 from `seed`, as host.cc and srcsim-validate draw
    them (uint64, wrapping)."""
    import numpy as np

    with np.errstate(over="ignore"):
        z = np.uint64(seed) + np.uint64(GOLDEN) * np.arange(1, n + 1, dtype=np.uint64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def fill_values(elem, length, fill):
    """A buffer's contents as host.cc's `fill` makes them: element values as float64 before
    the conversion to the element type (integers truncate toward zero)."""
    import numpy as np

    kind, params = fill[0], fill[1:]
    want = {"zero": 0, "iota": 0, "const": 1, "rand": 1, "randint": 2, "csr": 2}
    if kind not in want:
        raise SuiteError(f"unknown fill {kind}")
    if len(params) != want[kind]:
        raise SuiteError(f"fill {kind} takes {want[kind]} parameters")
    if kind == "zero":
        return np.zeros(length)
    if kind == "iota":
        return np.arange(length, dtype=np.float64)
    if kind == "const":
        return np.full(length, float(params[0]))
    x = splitmix64(int(params[0]), length)
    if kind == "rand":
        if elem == "f32":
            return (x >> np.uint64(40)).astype(np.float64) / 16777216.0
        if elem == "f64":
            return (x >> np.uint64(11)).astype(np.float64) / 9007199254740992.0
        return (x >> np.uint64(33)).astype(np.float64)
    m = int(params[1]) if kind == "randint" else 2 * int(params[1]) + 1
    if m <= 0:
        raise SuiteError(f"{kind}: the bound must be positive")
    r = (x % np.uint64(m)).astype(np.float64)
    if kind == "randint":
        return r
    if elem in ("f32", "f64"):
        raise SuiteError("csr: needs an integer type")
    return np.concatenate(([0.0], np.cumsum(r)[:-1]))


def typed(elem, values):
    """float64 values as the element type, converted as host.cc's `store` does."""
    import numpy as np

    if elem == "f32":
        return values.astype(np.float32)
    if elem == "f64":
        return values.astype(np.float64)
    ints = np.trunc(values).astype(np.int64)
    return ints.astype(np.int32) if elem == "i32" else (ints & 0xFFFFFFFF).astype(np.uint32)


def dims(label):
    parts = [int(p) for p in label.split("x")]
    if not 1 <= len(parts) <= 3 or min(parts) < 1:
        raise SuiteError(f"bad dimensions {label}")
    return tuple(parts + [1] * (3 - len(parts)))


def read_launches(path):
    """The launches of a host-args file: (case, kernel, global, local, grid, block, args)."""
    out = []
    with open(path) as f:
        for n, text in enumerate(f, 1):
            cells = text.rstrip("\n").split("\t")
            if len(cells) < 7:
                raise SuiteError(f"{path}:{n}: not a host-args line")
            case, kernel, _file, glob, local, grid, block = cells[:7]
            out.append((case, kernel, glob, local, dims(grid), dims(block), cells[7:]))
    return out


def launch_values(cupy, args, static_shared):
    """The kernel's parameters and the launch's dynamic shared memory: buffers on the GPU,
    scalars typed, each `__local` pointer the next 16-byte aligned offset after the static
    shared variables (clang's NVPTX passes it as a .shared address), as host.cc does."""
    import numpy as np

    values, buffers, at = [], [], (static_shared + 15) & ~15
    dynamic = 0
    for a in args:
        p = a.split(":")
        if p[0] == "buf" and len(p) >= 4:
            if p[1] not in ELEM_TYPES:
                raise SuiteError(f"bad type in {a}")
            buf = cupy.asarray(typed(p[1], fill_values(p[1], int(p[2]), p[3:])))
            values.append(buf)
            buffers.append(buf)
        elif p[0] == "scalar" and len(p) == 3 and p[1] in ELEM_TYPES:
            values.append(typed(p[1], np.array([float(p[2])]))[0])
        elif p[0] == "local" and len(p) == 2:
            size = (int(p[1]) + 15) & ~15
            values.append(np.uint64(at))
            at += size
            dynamic += size
        else:
            raise SuiteError(f"bad argument {a}")
    return values, buffers, dynamic


def checksum(cupy, buffers):
    """host.cc's CHECKSUM: each buffer's elements summed as doubles."""
    return " ".join(f"b{i}={float(cupy.asnumpy(b).astype('float64').sum()):.9e}"
                    for i, b in enumerate(buffers))


def measure_launches(args):
    import cupy
    import tempfile

    predicted, facts, date, out_path = measuring(args)
    modules, rows = {}, []
    for case, kname, glob, local, grid, block, spec in read_launches(args.launches):
        if case not in predicted:
            print(f"{case}: no prediction in {args.predictions}; skipped", file=sys.stderr)
            continue
        try:
            ptx = os.path.join(args.predictions, "ptx", predicted[case]["ptx"])
            if ptx not in modules:
                modules[ptx] = load_module(cupy, ptx, tempfile.mkdtemp())
            fn = modules[ptx].get_function(kname)
            values, buffers, dynamic = launch_values(cupy, spec, fn.shared_size_bytes)

            def launch():
                fn(grid, block, values, shared_mem=dynamic)

            # The first launch runs on the data both sides start from: its checksums are
            # srcsim's (predictions.csv), or the data differ.
            launch()
            cupy.cuda.Device().synchronize()
            sums = checksum(cupy, buffers)
            times = timed(cupy, launch, args.warmup, args.runs)
        except Exception as e:  # one kernel the driver refuses must not lose the others
            print(f"{case}: not measured: {e}", file=sys.stderr)
            continue
        row = measured_row(case, kname, glob, local, predicted[case]["vars"], times, facts,
                           date)
        rows.append(dict(row, checksums=sums))
        del values, buffers
    write_csv(out_path, MEASURED_FIELDS + ["checksums"], rows)
    print(out_path)
    return out_path


# ---------------------------------------------------------------------------------------
# profile: Nsight Compute's durations (the primary figure, docs/report-json.md) of a
# measure run under `ncu --csv --metrics gpu__time_duration.sum,gpc__cycles_elapsed.max`.

NCU_DURATION, NCU_CYCLES = "gpu__time_duration.sum", "gpc__cycles_elapsed.max"
# Units per microsecond.
NCU_UNITS = {"ns": 1e3, "nsecond": 1e3, "us": 1.0, "usecond": 1.0, "ms": 1e-3, "msecond": 1e-3}


def ncu_rows(path):
    """The rows of Nsight Compute's `--csv` page (one per launch and metric), the lines
    before its header (ncu's and the program's) skipped."""
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    start = next((i for i, t in enumerate(lines) if t.startswith('"ID","Process ID"')), None)
    if start is None:
        raise ReportError(f"{path}: no Nsight Compute CSV in it")
    return list(csv.DictReader(lines[start:]))


def read_ncu(path):
    """Nsight Compute's `--csv` page: per profiled launch, in launch order, (kernel name,
    duration in us, GPC cycles or None). Lines before the header (ncu's and the
    program's) are skipped."""
    launches = {}
    for r in ncu_rows(path):
        if r.get("Metric Name") not in (NCU_DURATION, NCU_CYCLES):
            continue
        one = launches.setdefault(int(r["ID"]), {"kernel": r["Kernel Name"]})
        value = float(r["Metric Value"].replace(",", ""))
        if r["Metric Name"] == NCU_DURATION:
            if r["Metric Unit"] not in NCU_UNITS:
                raise ReportError(f"{path}: launch {r['ID']}: unit {r['Metric Unit']!r}")
            one["us"] = value / NCU_UNITS[r["Metric Unit"]]
        else:
            one["cycles"] = value
    out = []
    for i in sorted(launches):
        if "us" not in launches[i]:
            raise ReportError(f"{path}: launch {i} has no {NCU_DURATION}")
        out.append((launches[i]["kernel"], launches[i]["us"], launches[i].get("cycles")))
    return out


def profile(args):
    """The measured CSV of a run under ncu (`--measured`, in the order its cases were
    launched, each `--per-case` times), with every case's last launch's duration from
    ncu's CSV as its time: the timed launch, after the one on fresh data."""
    rows = read_csv(args.measured)
    launches = read_ncu(args.ncu)
    if len(launches) != len(rows) * args.per_case:
        raise ReportError(f"{args.ncu}: {len(launches)} profiled launches for {len(rows)} "
                          f"cases of {args.per_case} launches each ({args.measured})")
    out = []
    for i, row in enumerate(rows):
        kernel, us, cycles = launches[(i + 1) * args.per_case - 1]
        # ncu names a kernel by its PTX entry (C names as they are, C++ mangled).
        if kernel != row["kernel"]:
            raise ReportError(f"case {row['case']}: ncu's launch is of {kernel}, "
                              f"not {row['kernel']}")
        out.append(dict(row, measured_us=f"{us:.3f}", min_us=f"{us:.3f}", max_us=f"{us:.3f}",
                        runs=1, gpc_cycles="" if cycles is None else f"{cycles:.0f}",
                        timer="ncu gpu__time_duration"))
    fields = list(rows[0].keys()) + [k for k in ("gpc_cycles", "timer") if k not in rows[0]]
    write_csv(args.out, fields, out)
    print(args.out)
    return args.out


# ---------------------------------------------------------------------------------------
# memory: the memory traffic Nsight Compute counts, caches flushed and warm, beside
# srcsim's DRAM bytes.

NCU_MEMORY = ["dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum",
              "lts__t_sector_hit_rate.pct", "l1tex__t_sector_hit_rate.pct"]
# Bytes per unit ncu writes byte counts in.
NCU_BYTES = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12}
MEMORY_FIELDS = ["case", "kernel", "half", "srcsim_dram_bytes", "dram_bytes_flushed",
                 "dram_bytes_warm", "l2_bytes_flushed", "l2_hit_pct_flushed",
                 "l2_hit_pct_warm", "l1_hit_pct_warm"]


def read_ncu_metrics(path, names):
    """Nsight Compute's `--csv` page: per profiled launch, in launch order, its kernel
    name and the metrics `names` (byte counts in bytes, percentages as they are)."""
    launches = {}
    for r in ncu_rows(path):
        one = launches.setdefault(int(r["ID"]), {"kernel": r["Kernel Name"]})
        if r.get("Metric Name") not in names:
            continue
        value = float(r["Metric Value"].replace(",", ""))
        if "bytes" in r["Metric Name"]:
            if r["Metric Unit"] not in NCU_BYTES:
                raise ReportError(f"{path}: launch {r['ID']}: unit {r['Metric Unit']!r}")
            value *= NCU_BYTES[r["Metric Unit"]]
        one[r["Metric Name"]] = value
    for i, one in launches.items():
        missing = [n for n in names if n not in one]
        if missing:
            raise ReportError(f"{path}: launch {i} has no {', '.join(missing)}")
    return [launches[i] for i in sorted(launches)]


def memory(args):
    """Per case of the two measure runs under ncu (caches flushed: `--flushed`, warm:
    `--warm`, each the ncu page and the measured CSV its run wrote, `--per-case` launches
    a case, the last one's counted), the DRAM and L2 traffic beside srcsim's `dram_bytes`
    from `--predictions`."""
    predicted = {r["case"]: r for r in read_csv(os.path.join(args.predictions,
                                                             "predictions.csv"))}
    runs = []
    for page, measured in (args.flushed, args.warm):
        rows = read_csv(measured)
        launches = read_ncu_metrics(page, NCU_MEMORY)
        if len(launches) != len(rows) * args.per_case:
            raise ReportError(f"{page}: {len(launches)} profiled launches for {len(rows)} "
                              f"cases of {args.per_case} launches each ({measured})")
        by_case = {}
        for i, row in enumerate(rows):
            one = launches[(i + 1) * args.per_case - 1]
            if one["kernel"] != row["kernel"]:
                raise ReportError(f"case {row['case']}: ncu's launch is of "
                                  f"{one['kernel']}, not {row['kernel']}")
            by_case[row["case"]] = one
        runs.append(by_case)
    flushed, warm = runs
    out = []
    for case, f in flushed.items():
        w, p = warm[case], predicted.get(case, {})
        dram = lambda m: round(m["dram__bytes_read.sum"] + m["dram__bytes_write.sum"])
        out.append({"case": case, "kernel": f["kernel"], "half": half(group(case)),
                    "srcsim_dram_bytes": p.get("dram_bytes", ""),
                    "dram_bytes_flushed": dram(f), "dram_bytes_warm": dram(w),
                    "l2_bytes_flushed": round(f["lts__t_bytes.sum"]),
                    "l2_hit_pct_flushed": f["lts__t_sector_hit_rate.pct"],
                    "l2_hit_pct_warm": w["lts__t_sector_hit_rate.pct"],
                    "l1_hit_pct_warm": w["l1tex__t_sector_hit_rate.pct"]})
    write_csv(args.out, MEMORY_FIELDS, out)
    print(args.out)
    return args.out


MEASURED_FIELDS = ["case", "kernel", "global", "local", "vars", "measured_us", "min_us",
                   "max_us", "runs", "gpu", "driver", "sm_clock_mhz", "max_sm_clock_mhz", "date"]

# ---------------------------------------------------------------------------------------
# report

REPORT_FIELDS = ["case", "kernel", "half", "class", "global", "local", "vars", "predicted_us",
                 "measured_us", "ratio", "ape_percent", "bound", "arch", "gpu", "driver",
                 "date", "same_data"]


class ReportError(Exception):
    """Predictions and measurements that cannot be joined."""


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "gpu"


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write_csv(path, fields, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def join(predictions, measurements):
    """Rows of the report, one per case measured, in the order of the predictions; an error
    when a case's launch differs between the two sides. Returns (rows, not_measured)."""
    measured = {}
    for m in measurements:
        if m["case"] in measured:
            raise ReportError(f"case {m['case']} is measured twice")
        measured[m["case"]] = m
    rows, missing = [], []
    for p in predictions:
        m = measured.pop(p["case"], None)
        if m is None:
            missing.append(p["case"])
            continue
        for key in ("global", "local", "vars"):
            if str(p[key]) != str(m[key]):
                raise ReportError(
                    f"case {p['case']}: {key} is {p[key]!r} in the predictions and {m[key]!r} "
                    "in the measurements (predicted from another suite?)")
        pred, meas = float(p["predicted_us"]), float(m["measured_us"])
        if meas <= 0:
            raise ReportError(f"case {p['case']}: measured time {meas} is not positive")
        rows.append({
            "case": p["case"], "kernel": p["kernel"], "half": half(group(p["case"])),
            "class": p["class"],
            "global": p["global"], "local": p["local"], "vars": p["vars"],
            "predicted_us": f"{pred:.3f}", "measured_us": f"{meas:.3f}",
            "ratio": f"{pred / meas:.4f}", "ape_percent": f"{abs(pred - meas) / meas * 100:.2f}",
            "bound": p["bound"], "arch": p["arch"], "gpu": m["gpu"], "driver": m["driver"],
            "date": m["date"],
            "same_data": same_sums(p.get("checksums", ""), m.get("checksums", "")),
        })
    if measured:
        raise ReportError(f"measured but not predicted: {', '.join(sorted(measured))}")
    if not rows:
        raise ReportError("no case is both predicted and measured")
    return rows, missing


def same_sums(a, b):
    """Whether two runs of a launch left buffers of the same sums (`b0=SUM b1=SUM ...`,
    relative 1e-3: float sums in another order): srcsim's (PoCL) and the GPU's first
    launch, or GPGPU-Sim's (scripts/gpgpusim-crosscheck); "" where a side has none, so a
    time is known to come from the same data."""
    if not a or not b:
        return ""
    pa = dict(kv.split("=") for kv in a.split())
    pb = dict(kv.split("=") for kv in b.split())
    if pa.keys() != pb.keys():
        return "no"
    for k in pa:
        x, y = float(pa[k]), float(pb[k])
        if abs(x - y) > 1e-3 * max(abs(x), abs(y)) + 1e-6:
            return f"no ({k})"
    return "yes"


def group(case):
    """A case's group for the halves: the kernel entry's id (its name where it has none),
    `reduce#1` -> `reduce`, as `validation/halves.py` and the GPGPU-Sim tables take it."""
    return case.rsplit("#", 1)[0]


def mape(rows, kernel_class=None, of_half=None):
    """Mean absolute percentage error over the rows (of one class, of one half), or None if
    none."""
    apes = [float(r["ape_percent"]) for r in rows
            if (kernel_class is None or r["class"] == kernel_class)
            and (of_half is None or r["half"] == of_half)]
    return statistics.fmean(apes) if apes else None


def render(rows, missing):
    header = ["kernel", "size", "predicted us", "measured us", "ratio", "APE %", "bound"]
    body = [[r["case"], f"{r['global']}/{r['local']} {r['vars']}", r["predicted_us"],
             r["measured_us"], r["ratio"], r["ape_percent"], r["bound"]] for r in rows]
    widths = [max(len(x) for x in col) for col in zip(header, *body)]
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    out = [line(header), line(["-" * w for w in widths])] + [line(b) for b in body]
    out.append("")
    # The check half first: the number to report (validation/halves.py).
    for label, h in ((f"{CHECK} half", CHECK), (f"{FIT} half", FIT)):
        m = mape(rows, of_half=h)
        n = sum(1 for r in rows if r["half"] == h)
        out.append(f"MAPE {label}: " + ("n/a" if m is None else f"{m:.1f}% over {n} launches"))
    for label, cls in (("compute-bound", "compute"), ("memory-bound", "memory"), ("all", None)):
        m = mape(rows, cls)
        n = sum(1 for r in rows if cls is None or r["class"] == cls)
        out.append(f"MAPE {label}: " + ("n/a" if m is None else f"{m:.1f}% over {n} launches"))
    if missing:
        out.append(f"not measured: {', '.join(missing)}")
    first = rows[0]
    out.append(f"GPU {first['gpu']}, driver {first['driver']}, {first['date']}; "
               f"model {first['arch']}")
    return "\n".join(out)


def report(args):
    rows, missing = join(read_csv(os.path.join(args.predictions, "predictions.csv")),
                         read_csv(args.measured))
    print(render(rows, missing))
    out = args.out or os.path.join("validation", f"{slug(rows[0]['gpu'])}-{rows[0]['date']}.csv")
    write_csv(out, REPORT_FIELDS, rows)
    print(f"wrote {out}")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="verb", required=True)
    m = sub.add_parser("measure", help="time the suite's PTX on the GPU (CuPy)")
    m.add_argument("--suite", default="validation/suite.toml")
    m.add_argument("--predictions", default="validation/predictions/hopper_h100")
    m.add_argument("--out", help="default validation/measured/<gpu>-<date>.csv")
    m.add_argument("--runs", type=int, default=20, help="timed launches (median)")
    m.add_argument("--warmup", type=int, default=3, help="untimed launches first")
    m.add_argument("--quick", action="store_true", help="first launch of each kernel only")
    m.add_argument("--launches", help="a `srcsim-validate host-args` file (any manifest, "
                   "the corpus's): its launches instead of the suite's")
    n = sub.add_parser("profile", help="a measured CSV with Nsight Compute's durations")
    n.add_argument("--ncu", required=True, help="ncu --csv output of a measure run")
    n.add_argument("--measured", required=True, help="the CSV that measure run wrote")
    n.add_argument("--per-case", type=int, required=True,
                   help="launches a case made (measure: warmup + runs; --launches: 1 more)")
    n.add_argument("--out", required=True)
    y = sub.add_parser("memory", help="ncu's DRAM and L2 traffic beside srcsim's")
    y.add_argument("--flushed", nargs=2, required=True, metavar=("NCU", "MEASURED"),
                   help="ncu --csv output of a measure run, caches flushed, and its CSV")
    y.add_argument("--warm", nargs=2, required=True, metavar=("NCU", "MEASURED"),
                   help="the same with --cache-control none")
    y.add_argument("--per-case", type=int, required=True)
    y.add_argument("--predictions", default="validation/predictions/hopper_h100")
    y.add_argument("--out", required=True)
    r = sub.add_parser("report", help="join predictions and measurements, print MAPE")
    r.add_argument("--predictions", default="validation/predictions/hopper_h100")
    r.add_argument("--measured", required=True, help="a CSV written by measure")
    r.add_argument("--out", help="default validation/<gpu>-<date>.csv")
    args = ap.parse_args(argv)
    try:
        if args.verb == "report":
            report(args)
        elif args.verb == "profile":
            profile(args)
        elif args.verb == "memory":
            memory(args)
        elif args.launches:
            measure_launches(args)
        else:
            measure(args)
    except (SuiteError, ReportError, OSError, KeyError) as e:
        print(f"gpu-validate {args.verb}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
