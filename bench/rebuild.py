"""Budget 3: rebuilds. An unchanged rebuild under 0.2 s; one edited card well under a full build.

For cards/cwnb and for a CWNB expansion of N generated ships (as bench/scaling.py makes them),
three kinds of whole ``pnp build`` process run in turn, each checked:
- a full build (``--force``: everything drawn again), which must say ``wrote``;
- an unchanged rebuild, which must say ``up to date`` and leave the output untouched;
- a rebuild after one card's name was edited (a different card each round), which must say
  ``wrote`` and, for a build of several chunks, draw exactly one chunk again.
Run: ``.venv/bin/python bench/rebuild.py [N ...] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import PNP, ROOT, BenchmarkFailed, exits_zero, load_average, run_measured
from scaling import make_expansion

from generator.cache.usercache import output_cache_folder

BASE = ROOT / "cards" / "cwnb"


def says(start: bytes):
    def check(completed: subprocess.CompletedProcess[bytes]) -> None:
        exits_zero(completed)
        if not completed.stdout.startswith(start):
            raise BenchmarkFailed(f"expected {start!r}, got {completed.stdout[:200]!r}")

    return check


def chunk_files(out: Path) -> dict[str, int]:
    cache = output_cache_folder(out)
    assert cache is not None  # (the harness sets the benchmark's own cache folder)
    return {str(p): p.stat().st_mtime_ns for p in (cache / "pages").rglob("*.pdf")}


def measure(name: str, argv: list[str], out: Path, cards: Path, rounds: int) -> None:
    full, same, edited = [], [], []
    ids = [line for line in cards.read_text(encoding="utf-8").splitlines()
           if line.strip().startswith("name: ")]
    for round_number in range(rounds):
        full.append(run_measured([*PNP, "build", *argv, "--force"], check=says(b"wrote ")))
        same.append(run_measured([*PNP, "build", *argv], check=says(b"up to date: ")))
        before = chunk_files(out)
        text = cards.read_text(encoding="utf-8")
        line = ids[round_number * 7 % len(ids)]
        cards.write_text(text.replace(line, line + " Mk II", 1), encoding="utf-8")
        edited.append(run_measured([*PNP, "build", *argv], check=says(b"wrote ")))
        after = chunk_files(out)
        if len(before) > 1 and len(set(after.items()) - set(before.items())) != 1:
            raise BenchmarkFailed(f"{len(set(after.items()) - set(before.items()))} chunks "
                                  "drawn again for one edited card")
    row = {label: statistics.median(m.seconds for m in runs)
           for label, runs in (("full", full), ("same", same), ("edited", edited))}
    cpu = {label: statistics.median(m.cpu_seconds for m in runs)
           for label, runs in (("full", full), ("same", same), ("edited", edited))}
    print(f"{name:>22} {row['full']:>9.2f} {row['same']:>10.3f} {row['edited']:>10.2f} "
          f"{cpu['full']:>9.2f} {cpu['same']:>9.3f} {cpu['edited']:>9.2f}  "
          f"load {load_average()}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[10000])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"whole processes, {args.rounds} rounds each, medians; load average {load_average()}")
    print(f"{'pack':>22} {'full s':>9} {'same s':>10} {'edited s':>10} "
          f"{'full cpu':>9} {'same cpu':>9} {'edit cpu':>9}")
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        base = root / "cwnb"
        subprocess.run(["cp", "-r", str(BASE), str(base)], check=True)
        out = root / "out-base"
        measure("cwnb (178 cards)", [str(base), "--out", str(out)], out, base / "ships.yaml",
                args.rounds)
        for ships in args.sizes:
            expansion = make_expansion(root, ships)
            out = root / f"out-{ships}"
            measure(f"cwnb + {ships} ships", [str(base), "--with", str(expansion), "--out",
                                              str(out)], out, expansion / "ships-00.yaml",
                    args.rounds)


if __name__ == "__main__":
    main()
