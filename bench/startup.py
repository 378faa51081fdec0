"""Budget 4: start-up. ``pnp --help`` under 0.15 s and ``pnp validate cards/cwnb`` under 0.5 s,
whole processes, alternated with an empty interpreter (``python -c pass``) as the reference.
Run: ``.venv/bin/python bench/startup.py [PAIRS]``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import PNP, ROOT, BenchmarkFailed, alternate, exits_zero, load_average, report

BUDGETS = {"pnp --help": 0.15, "pnp validate cards/cwnb": 0.5}


def helped(completed: subprocess.CompletedProcess[bytes]) -> None:
    exits_zero(completed)
    if b"validate" not in completed.stdout:
        raise BenchmarkFailed("pnp --help did not list its commands")


def validated(completed: subprocess.CompletedProcess[bytes]) -> None:
    exits_zero(completed)
    summary = json.loads(completed.stdout)["summary"]
    if summary["copies"] < 178:
        raise BenchmarkFailed(f"validate saw only {summary['copies']} copies")


def main(pairs: int) -> None:
    load = load_average()
    runs = alternate({
        "python -c pass": ([sys.executable, "-c", "pass"], exits_zero),
        "pnp --help": ([*PNP, "--help"], helped),
        "pnp validate cards/cwnb": ([*PNP, "validate", str(ROOT / "cards" / "cwnb"),
                                     "--format", "json"], validated),
    }, pairs)
    print(f"whole processes, {pairs} alternated rounds, load average {load} -> "
          f"{load_average()} (2 cores)")
    report(runs)
    empty = runs["python -c pass"]
    for name, budget in BUDGETS.items():
        median = runs[name].median
        verdict = "OK" if median <= budget else "OVER BUDGET"
        print(f"  {name}: {median:.3f} s = {median / empty.median:.1f}x an empty interpreter "
              f"(budget {budget} s) -> {verdict}; CPU {runs[name].median_cpu:.3f} s = "
              f"{runs[name].median_cpu / empty.median_cpu:.1f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 9)
