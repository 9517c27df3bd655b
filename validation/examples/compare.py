#!/usr/bin/env python3
"""srcsim's estimates of the example programs' launches against the same launches timed on
a real GPU (cltime.so's files, validation/examples/README.md).

  python3 validation/examples/compare.py MEASURED_1.txt [MEASURED_2.txt ...] [--out FILE.csv]
  python3 validation/examples/compare.py --table h100-2026-11-26.csv --out h100-2026-11-26.csv
      [--arch hopper_h100] [--reports DIR] [--fit-event]

Each measured file holds one or more rounds of every program (`== program` headers, then
cltime lines); `--table` takes the measured side from a table this script wrote, so that
the table is made again from the model at HEAD without the GPU. For every program it runs
`srcsim run --arch ARCH --report` (or reads DIR/<program>.json where --reports is given)
and joins the two by launch groups: launches of one kernel with one global and local
size, in a program. Per group it writes the launches, the measured time (each round's
sum, and the fastest and slowest launch of the first) and srcsim's: the sum of its
simulated launches' kernel times (`srcsim_us`) and of what OpenCL events would show for
them on the GPU's driver (`srcsim_event_us`, the architecture's `opencl_event` terms
added), and how many were their context's first. It prints per program the totals and
both ratios, and per half their geometric mean and MAPE, the check half first.
`--fit-event` prints the event terms that fit the fit half best (a grid search).
Standard library only.
"""

import argparse
import csv
import gzip
import json
import math
import statistics
import subprocess
import sys
import tempfile
from collections import OrderedDict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "validation"))
from halves import CHECK, FIT, half  # noqa: E402  (the committed fit/check split)


def read_measured(path):
    """{program: [(kernel, global, local, us)]} of one file, in launch order."""
    runs, program = {}, None
    for line in (gzip.open(path, "rt") if str(path).endswith(".gz") else open(path)):
        f = line.split()
        if not f:
            continue
        if f[0] == "==":
            program = f[1]
            runs[program] = []
        elif f[0] == "cltime" and program and len(f) == 7 and f[6] != "error":
            runs[program].append((f[2], f[4], f[5], float(f[6])))
    return runs


def size(v):
    return ",".join(str(x) for x in v)


def srcsim_report(program, arch, reports):
    if reports:
        return json.load(open(Path(reports) / f"{program}.json"))
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "r.json"
        subprocess.run([str(ROOT / "target/release/srcsim"), "run", "--arch", arch,
                        "--report", str(out), "--", str(ROOT / "target/examples" / program)],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return json.load(open(out))


def read_table(path):
    """A table this script wrote: {program: OrderedDict{group: entry}}, the measured side
    and srcsim's as written (`join` makes srcsim's again from the model at HEAD)."""
    programs = OrderedDict()
    for row in csv.DictReader(open(path)):
        measured = sorted((int(k.rsplit("_", 1)[1]), k) for k in row
                          if k.startswith("measured_us_"))
        groups = programs.setdefault(row["program"], OrderedDict())
        groups[(row["kernel"], row["global"], row["local"])] = {
            "rounds": [float(row[k]) for _, k in measured],
            "launches": int(row["launches"]),
            "fastest": float(row["fastest_us"]), "slowest": float(row["slowest_us"]),
            "simulated": int(row["simulated"]), "srcsim": float(row["srcsim_us"]),
            "event": float(row.get("srcsim_event_us") or row["srcsim_us"]),
            "first_in_context": int(row.get("first_in_context") or 0)}
    return programs


def read_rounds(paths):
    """The measured side of cltime files (one a round), as read_table gives it."""
    rounds = [read_measured(p) for p in paths]
    programs = OrderedDict()
    for program in rounds[0]:
        groups = programs.setdefault(program, OrderedDict())
        for r, measured in enumerate(rounds):
            for kernel, g, l, us in measured.get(program, []):
                e = groups.setdefault((kernel, g, l), {"rounds": [0.0] * len(rounds),
                                                       "first_round": []})
                e["rounds"][r] += us
                if r == 0:
                    e["first_round"].append(us)
        for e in groups.values():
            first = e.pop("first_round")
            e.update(launches=len(first), fastest=min(first), slowest=max(first))
    return programs


def join(program, groups, report):
    """srcsim's side of each group of `program`: its simulated launches' estimates, what
    OpenCL events would show for them, and how many were their context's first."""
    for e in groups.values():
        e.update(srcsim=0.0, event=0.0, simulated=0, first_in_context=0)
    for launch in report["launches"]:
        local = size(launch["local"]) if not launch.get("local_chosen") else "-"
        e = groups.get((launch["kernel"], size(launch["global"]), local))
        if e is not None and launch["status"] == "simulated":
            e["srcsim"] += launch["micros"]
            e["event"] += launch.get("event_micros", launch["micros"])
            e["simulated"] += 1
            e["first_in_context"] += bool(launch.get("first_in_context"))


def program_ratios(table, column):
    """{program: srcsim / measured} over its fully simulated groups, by `column` of srcsim's
    side (a key of a group, or a function of it)."""
    ratios = {}
    for program, groups in table.items():
        done = [e for e in groups.values() if e["simulated"] == e["launches"]]
        measured = sum(e["rounds"][-1] for e in done)
        if done and measured > 0:
            value = column if callable(column) else (lambda e: e[column])
            ratios[program] = sum(value(e) for e in done) / measured
    return ratios


def summary(ratios, name):
    """The check half first: the number to report (validation/halves.py)."""
    out = []
    for label, pick in ((f"{CHECK} half", CHECK), (f"{FIT} half", FIT), ("all", None)):
        some = [r for p, r in ratios.items() if pick is None or half(p) == pick]
        if some:
            gm = math.exp(statistics.mean(math.log(r) for r in some))
            mape = 100 * statistics.mean(abs(r - 1) for r in some)
            out.append(f"{name}, {label}: {len(some)} programs; srcsim / measured: geometric "
                       f"mean {gm:.3f}, MAPE {mape:.1f}%, median {statistics.median(some):.3f}, "
                       f"range {min(some):.3f} to {max(some):.3f}; within 2x: "
                       f"{sum(0.5 <= r <= 2 for r in some)}")
    return out


def fit_event(table):
    """The OpenCL event terms (each launch's, a context's first launch's, in µs) that give
    the fit half's programs the least mean absolute error, on a 0.1 µs and 1 µs grid."""
    fit = {p: g for p, g in table.items() if half(p) == FIT}
    best = None
    for a in range(0, 151):
        for b in range(0, 61):
            launch_us, first_us = a / 10, float(b)
            ratios = program_ratios(fit, lambda e: e["srcsim"] + launch_us * e["launches"]
                                    + first_us * e["first_in_context"])
            mape = statistics.mean(abs(r - 1) for r in ratios.values())
            if best is None or mape < best[0]:
                best = (mape, launch_us, first_us)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("measured", nargs="*", help="cltime files, one per round")
    ap.add_argument("--table", help="take the measured side from a table this script wrote")
    ap.add_argument("--arch", default="hopper_h100")
    ap.add_argument("--reports", help="a directory of srcsim reports, <program>.json")
    ap.add_argument("--out", help="the joined table (CSV)")
    ap.add_argument("--fit-event", action="store_true",
                    help="print the OpenCL event terms the fit half gives")
    args = ap.parse_args()
    if bool(args.table) == bool(args.measured):
        ap.error("give cltime files or --table, not both")
    table = read_table(args.table) if args.table else read_rounds(args.measured)
    for program, groups in table.items():
        join(program, groups, srcsim_report(program, args.arch, args.reports))
    kernel = program_ratios(table, "srcsim")
    event = program_ratios(table, "event")
    print("| program | half | launches | measured us | srcsim us | srcsim / measured "
          "| as events us | events / measured |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for program, groups in table.items():
        if program in kernel:
            done = [e for e in groups.values() if e["simulated"] == e["launches"]]
            measured = sum(e["rounds"][-1] for e in done)
            print(f"| {program} | {half(program)} | {sum(e['launches'] for e in done)} "
                  f"| {measured:.1f} | {sum(e['srcsim'] for e in done):.1f} "
                  f"| {kernel[program]:.3f} | {sum(e['event'] for e in done):.1f} "
                  f"| {event[program]:.3f} |")
    print()
    for line in summary(event, "as OpenCL events") + summary(kernel, "kernel time"):
        print(line)
    if args.fit_event:
        mape, launch_us, first_us = fit_event(table)
        print(f"\nfit half: launch_us = {launch_us}, first_launch_us = {first_us} "
              f"(MAPE {100 * mape:.1f}% as events)")
    if args.out:
        rows = []
        for program, groups in table.items():
            for (kernel_name, g, l), e in groups.items():
                done = e["simulated"] == e["launches"] and e["rounds"][-1] > 0
                rows.append({
                    "program": program, "half": half(program), "kernel": kernel_name,
                    "global": g, "local": l, "launches": e["launches"],
                    "simulated": e["simulated"],
                    **{f"measured_us_{i + 1}": f"{t:.3f}" for i, t in enumerate(e["rounds"])},
                    "fastest_us": f"{e['fastest']:.3f}", "slowest_us": f"{e['slowest']:.3f}",
                    "srcsim_us": f"{e['srcsim']:.3f}",
                    "ratio": f"{e['srcsim'] / e['rounds'][-1]:.4f}" if done else "",
                    "first_in_context": e["first_in_context"],
                    "srcsim_event_us": f"{e['event']:.3f}",
                    "event_ratio": f"{e['event'] / e['rounds'][-1]:.4f}" if done else ""})
        with open(args.out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
        print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
