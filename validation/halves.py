"""The fit/check split of every validation corpus, committed 2026-11-27 before any tuning
on a check half (issue 31).

A case's half comes from its *group* alone: the kernel's name for kernel tables (the
GPGPU-Sim cross-check), the benchmark's name for the microbenchmark ports, the program's
name for whole programs. Every launch of a kernel, every run of a benchmark, every
launch of a program is in one half, so that nothing tuned on a case's sibling leaks into
the other half. The rule: the first byte of the SHA-256 of the group's UTF-8 name, even:
`fit`, odd: `check`. It depends on nothing else (not the order of a table, not its
size), so a case never moves between halves and a new case's half is known before it is
measured.

Tuning (`scripts/calibrate --fit`, any constant changed to match a table) looks at the
fit half only; the check half is the number reported. Cases measured before this rule
existed were tuned on whole: their check-half numbers are in sample until the model is
changed on the fit half alone, and every report that gives one says so.
"""

import hashlib

FIT = "fit"
CHECK = "check"


def half(group: str) -> str:
    """`fit` or `check`: the half of every case of `group` (a kernel, benchmark or program)."""
    return FIT if hashlib.sha256(group.encode("utf-8")).digest()[0] % 2 == 0 else CHECK


if __name__ == "__main__":
    import sys

    for name in sys.argv[1:]:
        print(f"{name}\t{half(name)}")
