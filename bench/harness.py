"""Whole-process timing: run commands alternately, check each run did its work, print medians.

In-process timings flatter a program: its imports are paid once and its caches stay warm. Users
start ``pnp`` as a fresh process every time, so every benchmark here times whole processes. The
commands of a comparison run in alternation (A, B, A, B ...) so that a noisy neighbour on a
shared machine slows both sides alike, and each run is checked (pages really written, cards
really validated) before its time counts: a benchmark that times a failed run times nothing.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PNP = [str(BIN / "pnp")] if (BIN / "pnp").exists() else [sys.executable, "-m", "generator"]

Check = Callable[[subprocess.CompletedProcess[bytes]], None]

#: the children's environment: bytecode caching on, as in any installed copy (pip compiles
#: every module at install time); a shell with PYTHONDONTWRITEBYTECODE set would otherwise
#: make each run compile pnp's sources again and time the compiler
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
#: pnp's caches (build records, faces and chunks of pages, compiled SVG art, parsed YAML,
#: schema verdicts: generator.cache.usercache) are the benchmark's own, not the user's: a "cold" run
#: deletes them (set here too, so that the benchmark finds them where its children keep them)
USER_CACHE = Path(tempfile.mkdtemp(prefix="pnp-bench-cache-"))
ENV["PNP_CACHE_DIR"] = os.environ["PNP_CACHE_DIR"] = str(USER_CACHE)


def forget_user_cache() -> None:
    """Make the next pnp run meet its input for the first time: no art compiled, no file
    parsed, no card checked before."""
    shutil.rmtree(USER_CACHE, ignore_errors=True)


class BenchmarkFailed(SystemExit):
    """A run did not produce what the benchmark claims to time."""


@dataclass(slots=True)
class Runs:
    """Wall seconds, CPU seconds (user + system, the child's own) and peak resident memory
    (MiB) of every run of one command. On a shared machine wall time swings with the neighbours'
    load; CPU time is what the program itself spent, so decisions are made on both."""

    name: str
    seconds: list[float] = field(default_factory=list)
    peak_mib: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def median_mib(self) -> float:
        return statistics.median(self.peak_mib)

    @property
    def median_cpu(self) -> float:
        return statistics.median(self.cpu_seconds)


@dataclass(slots=True, frozen=True)
class Measured:
    """One run: wall seconds, CPU seconds (user + system) and peak resident MiB."""

    seconds: float
    cpu_seconds: float
    peak_mib: float


def run_measured(argv: Sequence[str], cwd: Path = ROOT, check: Check | None = None,
                 env: dict[str, str] | None = None) -> Measured:
    """Run ``argv`` as a fresh process; return its wall seconds, and its own CPU seconds and
    peak resident memory from ``os.wait4`` (children it waited for included, so a worker pool
    counts), after ``check`` accepted what it did."""
    out_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-{os.getpid()}.out"
    err_path = out_path.with_suffix(".err")
    with out_path.open("wb") as out, err_path.open("wb") as err:
        start = time.perf_counter()
        process = subprocess.Popen(list(argv), cwd=cwd, stdout=out, stderr=err,
                                   env={**ENV, **(env or {})})
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    completed = subprocess.CompletedProcess(list(argv), process.returncode,
                                            out_path.read_bytes(), err_path.read_bytes())
    out_path.unlink(missing_ok=True)
    err_path.unlink(missing_ok=True)
    if check is not None:
        check(completed)
    return Measured(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0)


def exits_zero(completed: subprocess.CompletedProcess[bytes]) -> None:
    if completed.returncode != 0:
        raise BenchmarkFailed(f"{' '.join(completed.args)} exited {completed.returncode}:\n"
                              + completed.stderr.decode(errors="replace")[-2000:])


def alternate(commands: dict[str, tuple[Sequence[str], Check | None]], pairs: int,
              warmup: int = 1, prepare: dict[str, Callable[[], None]] | None = None
              ) -> dict[str, Runs]:
    """Run every command ``pairs`` times, interleaved, after ``warmup`` untimed rounds (which
    fill the OS file cache for all sides alike). ``prepare[name]``, when given, runs (untimed)
    before each run of that command (e.g. emptying a cache for a cold run)."""
    runs = {name: Runs(name) for name in commands}
    for round_number in range(warmup + pairs):
        for name, (argv, check) in commands.items():
            if prepare and name in prepare:
                prepare[name]()
            measured = run_measured(argv, check=check)
            if round_number >= warmup:
                runs[name].seconds.append(measured.seconds)
                runs[name].cpu_seconds.append(measured.cpu_seconds)
                runs[name].peak_mib.append(measured.peak_mib)
    return runs


def paired_ratio(numerator: Runs, denominator: Runs) -> float:
    """Median of the per-round ratios: each pair ran back to back under the same load."""
    return statistics.median(a / b for a, b in zip(numerator.seconds, denominator.seconds,
                                                   strict=True))


def paired_cpu_ratio(numerator: Runs, denominator: Runs) -> float:
    """Median of the per-round ratios of CPU seconds (what each side itself spent)."""
    return statistics.median(a / b for a, b in zip(numerator.cpu_seconds,
                                                   denominator.cpu_seconds, strict=True))


def load_average() -> str:
    """The 1-minute load average as the benchmark starts and ends (2 cores here)."""
    return f"{os.getloadavg()[0]:.2f}"


def report(runs: dict[str, Runs]) -> None:
    width = max(len(name) for name in runs)
    for item in runs.values():
        spread = f"{min(item.seconds) * 1000:.0f}-{max(item.seconds) * 1000:.0f}"
        print(f"  {item.name:<{width}}  median {item.median * 1000:8.1f} ms  "
              f"(range {spread} ms, n={len(item.seconds)})  "
              f"cpu {item.median_cpu * 1000:8.1f} ms  peak {item.median_mib:7.1f} MiB")


def pdf_pages(path: Path) -> int:
    """Pages of a PDF, read with pypdf (a test dependency) so that a truncated file fails."""
    from pypdf import PdfReader

    return len(PdfReader(str(path)).pages)
