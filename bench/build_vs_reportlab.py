"""Budget 1: a whole ``pnp build cards/cwnb`` process (en, A4) against the floor.

The floor is ``bench/baseline_reportlab.py``, its own process, drawing the same number of simple
cards, fronts and backs, with embedded TrueType fonts. The two run alternately; each pnp run must
have written fronts, backs and duplex with the expected page counts, each floor run its pages.
DESIGN.md's budget: pnp within 2.0 times the floor (median of the paired ratios).

``--force`` skips only the whole-build "up to date" check: pnp keeps what it derived from its
inputs and can derive again (the SVG art it compiled, generator/render/vectorart.py; the YAML
files it parsed, generator/load/parsecache.py; the cards each schema accepted,
generator/schema/memo.py), as
for a user editing a card. ``--cold`` deletes the build's cache folder and the user caches
before every pnp run: each run parses, checks and records everything again, as a first build.
Run: ``.venv/bin/python bench/build_vs_reportlab.py [PAIRS] [--cold]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import (
    PNP,
    ROOT,
    BenchmarkFailed,
    alternate,
    exits_zero,
    forget_user_cache,
    load_average,
    paired_cpu_ratio,
    paired_ratio,
    pdf_pages,
    report,
)

PACK = ROOT / "cards" / "cwnb"
BUDGET = 2.0


def copies_of(pack: Path) -> int:
    """Printed copies of the pack, as pnp itself counts them (validate's JSON summary)."""
    completed = subprocess.run([*PNP, "validate", str(pack), "--format", "json"],
                               capture_output=True, check=False)
    if completed.returncode != 0:
        raise BenchmarkFailed(f"{pack} does not validate: the build would not print it")
    return int(json.loads(completed.stdout)["summary"]["copies"])


def main(pairs: int, cold: bool) -> None:
    load = load_average()
    copies = copies_of(PACK)
    sheets = -(-copies // 9)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        built = out / "pnp" / "cwnb" / "en" / "a4"
        floor_pdf = out / "floor.pdf"

        def pnp_built(completed: subprocess.CompletedProcess[bytes]) -> None:
            exits_zero(completed)
            if not completed.stdout.startswith(b"wrote "):
                raise BenchmarkFailed(f"pnp did not build: {completed.stdout!r}")
            manifest = json.loads((built / "manifest.json").read_text())
            placed = sum(len(p["cards"]) for p in manifest["pages"] if p["side"] == "front")
            pages = {name: pdf_pages(built / f"{name}.pdf")
                     for name in ("fronts", "backs", "duplex")}
            fronts = pages["fronts"]
            if placed != copies or pages != {"fronts": fronts, "backs": fronts,
                                             "duplex": 2 * fronts}:
                raise BenchmarkFailed(f"pnp placed {placed} of {copies} copies on {pages}")

        def floor_built(completed: subprocess.CompletedProcess[bytes]) -> None:
            exits_zero(completed)
            if pdf_pages(floor_pdf) != 2 * sheets:
                raise BenchmarkFailed(f"the floor wrote {pdf_pages(floor_pdf)} pages, "
                                      f"not {2 * sheets}")

        name = f"pnp build cards/cwnb{' (cold)' if cold else ''}"
        runs = alternate({
            "bare ReportLab (1 PDF)": ([sys.executable, str(ROOT / "bench" /
                                                            "baseline_reportlab.py"),
                                        str(copies), str(floor_pdf)], floor_built),
            # --force: a real build every time, not the "up to date" skip of a rebuild
            name: ([*PNP, "build", str(PACK), "--out", str(out / "pnp"), "--force"], pnp_built),
        }, pairs, prepare={name: forget_user_cache}
            if cold else None)
    cache = ("cold: build cache and user caches deleted before each pnp run" if cold
             else "warm caches")
    print(f"cards (copies): {copies}, whole processes, {pairs} alternated pairs, {cache}, "
          f"load average {load} -> {load_average()} (2 cores)")
    report(runs)
    floor, pnp = runs.values()
    ratio = paired_ratio(pnp, floor)
    print(f"  ratio pnp / floor: {ratio:.2f}x wall (median of paired ratios; budget <= "
          f"{BUDGET}x) -> {'OK' if ratio <= BUDGET else 'OVER BUDGET'}; "
          f"{paired_cpu_ratio(pnp, floor):.2f}x CPU")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", type=int, nargs="?", default=9)
    parser.add_argument("--cold", action="store_true",
                        help="delete pnp's build cache before every pnp run")
    arguments = parser.parse_args()
    main(arguments.pairs, arguments.cold)
