#!/usr/bin/env python3
"""srcsim's estimates of the example programs' launches against the same launches timed on
a real GPU (cltime.so's files, validation/examples/README.md).

  python3 validation/examples/compare.py MEASURED_1.txt [MEASURED_2.txt ...] \
      [--arch hopper_h100] [--reports DIR] [--out FILE.csv]

Each measured file holds one or more rounds of every program (`== program` headers, then
cltime lines). For every program it runs `srcsim run --arch ARCH --report` (or reads
DIR/<program>.json where --reports is given) and joins the two by launch groups: launches
of one kernel with one global and local size, in a program. Per group it writes the
launches, the measured time (each round's sum, and the fastest and slowest launch of the
first) and srcsim's (the sum of its simulated launches' microseconds), then prints per
program the totals and their ratio, and the geometric mean of the ratios. Standard
library only.
"""

import argparse
import csv
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
    for line in open(path):
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("measured", nargs="+")
    ap.add_argument("--arch", default="hopper_h100")
    ap.add_argument("--reports", help="a directory of srcsim reports, <program>.json")
    ap.add_argument("--out", help="the joined table (CSV)")
    args = ap.parse_args()
    rounds = [read_measured(p) for p in args.measured]
    rows, ratios = [], {}
    print("| program | half | launches | measured us | srcsim us | srcsim / measured |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for program in rounds[0]:
        report = srcsim_report(program, args.arch, args.reports)
        groups = OrderedDict()
        for r, measured in enumerate(rounds):
            for kernel, g, l, us in measured.get(program, []):
                e = groups.setdefault((kernel, g, l), {"rounds": [0.0] * len(rounds),
                                                       "first": [], "srcsim": 0.0,
                                                       "simulated": 0})
                e["rounds"][r] += us
                if r == 0:
                    e["first"].append(us)
        for launch in report["launches"]:
            local = size(launch["local"]) if not launch.get("local_chosen") else "-"
            key = (launch["kernel"], size(launch["global"]), local)
            if key in groups and launch["status"] == "simulated":
                groups[key]["srcsim"] += launch["micros"]
                groups[key]["simulated"] += 1
        measured_total = srcsim_total = 0.0
        launches = 0
        for (kernel, g, l), e in groups.items():
            n = len(e["first"])
            rows.append({"program": program, "half": half(program), "kernel": kernel, "global": g, "local": l,
                         "launches": n, "simulated": e["simulated"],
                         **{f"measured_us_{i + 1}": f"{t:.3f}" for i, t in enumerate(e["rounds"])},
                         "fastest_us": f"{min(e['first']):.3f}",
                         "slowest_us": f"{max(e['first']):.3f}",
                         "srcsim_us": f"{e['srcsim']:.3f}",
                         "ratio": f"{e['srcsim'] / e['rounds'][-1]:.4f}"
                         if e["simulated"] == n and e["rounds"][-1] > 0 else ""})
            if e["simulated"] == n:
                measured_total += e["rounds"][-1]
                srcsim_total += e["srcsim"]
                launches += n
        if launches:
            ratio = srcsim_total / measured_total
            ratios[program] = ratio
            print(f"| {program} | {half(program)} | {launches} | {measured_total:.1f} "
                  f"| {srcsim_total:.1f} | {ratio:.3f} |")
    # The check half first: the number to report (validation/halves.py).
    for name, pick in ((f"{CHECK} half", CHECK), (f"{FIT} half", FIT), ("all", None)):
        some = [r for p, r in ratios.items() if pick is None or half(p) == pick]
        if some:
            gm = math.exp(statistics.mean(math.log(r) for r in some))
            print(f"\n{name}: {len(some)} programs; srcsim / measured: geometric mean "
                  f"{gm:.3f}, median {statistics.median(some):.3f}, range {min(some):.3f} to "
                  f"{max(some):.3f}; within 2x: {sum(0.5 <= r <= 2 for r in some)}")
    if args.out:
        with open(args.out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
        print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
