"""Budget 2: linear to 50,000 cards, and pnp's pipeline within 1.3x of ReportLab alone.

For N distinct cards, an expansion of the CWNB base game is generated (N ships cycling through the
base game's 55 ship profiles, each with its own id and name), so the set is legal and really
builds. Two whole processes then run alternately:
- ``pnp build cards/cwnb --with EXPANSION`` (en, A4, duplex: fronts, backs, duplex.pdf);
- the replay of that very build's ReportLab calls (record_build.py, replay_reportlab.py), whose
  PDFs must be byte-identical to pnp's: the floor draws exactly what pnp draws. pnp joins pages
  with pikepdf (duplex.pdf from fronts.pdf and backs.pdf in a build of one chunk; the three
  files from chunks of pages in a larger build, generator/render/sheetpdfs.py); the replay draws the
  same files or chunks, and the check joins them the same way (untimed) before comparing bytes,
  so the joining counts as pnp's own work. pnp draws with both cores,
  the replay with one: wall and CPU ratios are both printed.
The replay's time to unpickle its own dump is subtracted. Printed: seconds, ratio, time and
peak memory per card. ``--force`` keeps pnp's build cache (the SVG art it compiled once,
generator/render/vectorart.py; the recording run fills it), as for a user editing a card; ``--cold``
deletes it before every pnp run, so each run parses and records its SVG art again.
Run: ``.venv/bin/python bench/scaling.py [N ...] [--pairs P] [--cold]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml
from pypdf import PdfReader

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import (
    PNP,
    ROOT,
    BenchmarkFailed,
    alternate,
    exits_zero,
    forget_user_cache,
    load_average,
    run_measured,
)

from generator.render.sheetpdfs import assemble, join_duplex

BASE = ROOT / "cards" / "cwnb"
BUDGET = 1.3
#: cards per generated file: 10,000 ships are ~3 MB of YAML, well inside the 8 MiB file limit
FILE_CARDS = 10_000
EXPANSION = """\
pack: scale-{n}
game: cwnb
name: Scaling test expansion ({n} ships)
version: "1.0"
source_locale: en
locales: [en]
set_mark: scale
set_mark_label: S
card_size: poker
extends: cwnb
"""


def make_expansion(root: Path, ships: int) -> Path:
    """N distinct ships with the base game's profiles, so every rule of the set still holds."""
    profiles = yaml.safe_load((BASE / "ships.yaml").read_text(encoding="utf-8"))["cards"]
    pack = root / f"scale-{ships}"
    pack.mkdir()
    (pack / "game.yaml").write_text(EXPANSION.format(n=ships), encoding="utf-8")
    cards = []
    for n in range(ships):
        card = dict(profiles[n % len(profiles)])
        card["id"] = f"scale-{n}-{card['id']}"
        card["name"] = f"{card['name']} {n}"
        card["count"] = 1
        cards.append(card)
    for first in range(0, ships, FILE_CARDS):
        chunk = {"cards": cards[first:first + FILE_CARDS]}
        (pack / f"ships-{first // FILE_CARDS:02d}.yaml").write_text(
            yaml.safe_dump(chunk, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return pack


def measure(ships: int, pairs: int, scratch: Path, cold: bool = False) -> dict[str, float]:
    expansion = make_expansion(scratch, ships)
    out = scratch / f"out-{ships}"
    built = out / f"cwnb+scale-{ships}" / "en" / "a4"
    replayed = scratch / f"replay-{ships}"
    dump = scratch / f"build-{ships}.dump"
    build_argv = [str(BASE), "--with", str(expansion), "--out", str(out), "--force"]
    run_measured([sys.executable, str(ROOT / "bench" / "record_build.py"), str(dump),
                  *build_argv], check=exits_zero)
    unpickling: list[float] = []
    unpickling_cpu: list[float] = []

    def pnp_built(completed: subprocess.CompletedProcess[bytes]) -> None:
        exits_zero(completed)
        if not completed.stdout.startswith(b"wrote "):
            raise BenchmarkFailed(f"pnp did not build: {completed.stdout!r}")
        manifest = json.loads((built / "manifest.json").read_text())
        placed = sum(len(p["cards"]) for p in manifest["pages"] if p["side"] == "front")
        if placed != ships + 178:
            raise BenchmarkFailed(f"pnp placed {placed} copies, not {ships + 178}")

    def replay_built(completed: subprocess.CompletedProcess[bytes]) -> None:
        """The replay drew pnp's fronts and backs (one chunk) or pnp's chunks of pages: joined
        the way pnp joins them (untimed), they must give pnp's three files byte for byte."""
        exits_zero(completed)
        words = completed.stdout.split()
        unpickling.append(float(words[-1]))
        unpickling_cpu.append(float(words[-3]))
        chunks = sorted(replayed.glob("pages-*.pdf"))
        title = str(PdfReader(built / "duplex.pdf").metadata.title).removesuffix(": duplex")
        if chunks:
            assemble(replayed, chunks, True, title)
        else:  # one chunk: pnp draws fronts and backs and joins duplex.pdf from them
            join_duplex(replayed, title)
        for name in ("fronts.pdf", "backs.pdf", "duplex.pdf"):
            if (replayed / name).read_bytes() != (built / name).read_bytes():
                raise BenchmarkFailed(f"the replay's {name} differs from pnp's")
        for path in replayed.iterdir():
            path.unlink()

    runs = alternate({
        "pnp": ([*PNP, "build", *build_argv], pnp_built),
        "replay": ([sys.executable, str(ROOT / "bench" / "replay_reportlab.py"), str(dump),
                    str(replayed)], replay_built),
    }, pairs, prepare={"pnp": forget_user_cache}
        if cold else None)
    pnp, replay = runs["pnp"], runs["replay"]
    net = [seconds - unpickled for seconds, unpickled in
           zip(replay.seconds, unpickling[-len(replay.seconds):], strict=True)]
    ratios = sorted(a / b for a, b in zip(pnp.seconds, net, strict=True))
    net_cpu = [cpu - unpickled for cpu, unpickled in
               zip(replay.cpu_seconds, unpickling_cpu[-len(replay.seconds):], strict=True)]
    cpu_ratios = sorted(a / b for a, b in zip(pnp.cpu_seconds, net_cpu, strict=True))
    copies = ships + 178
    return {"ships": ships, "copies": copies, "pnp": pnp.median,
            "replay": sorted(net)[len(net) // 2], "ratio": ratios[len(ratios) // 2],
            "pnp_cpu": pnp.median_cpu, "replay_cpu": sorted(net_cpu)[len(net_cpu) // 2],
            "cpu_ratio": cpu_ratios[len(cpu_ratios) // 2],
            "ms_per_card": pnp.median / copies * 1000, "peak": pnp.median_mib,
            "kib_per_card": pnp.median_mib * 1024 / copies, "replay_peak": replay.median_mib}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 10000])
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--cold", action="store_true",
                        help="delete pnp's build cache (compiled SVG art) before every pnp run")
    args = parser.parse_args()
    cache = "cold: build cache deleted before each pnp run" if args.cold else "warm build cache"
    print(f"whole processes, {args.pairs} alternated pairs per size; replay net of unpickling; "
          f"{cache}; "
          f"load average {load_average()} (2 cores)")
    print(f"{'ships':>7} {'copies':>7} {'pnp s':>8} {'replay s':>9} {'ratio':>6} "
          f"{'pnp cpu':>8} {'rep cpu':>8} {'cpu rat':>7} "
          f"{'ms/card':>8} {'peak MiB':>9} {'KiB/card':>9} {'replay MiB':>11}")
    with tempfile.TemporaryDirectory() as scratch:
        for ships in args.sizes:
            row = measure(ships, args.pairs, Path(scratch), args.cold)
            verdict = "OK" if row["ratio"] <= BUDGET else f"over {BUDGET}x"
            print(f"{row['ships']:>7} {row['copies']:>7} {row['pnp']:>8.2f} "
                  f"{row['replay']:>9.2f} {row['ratio']:>6.2f} {row['pnp_cpu']:>8.2f} "
                  f"{row['replay_cpu']:>8.2f} {row['cpu_ratio']:>7.2f} {row['ms_per_card']:>8.3f} "
                  f"{row['peak']:>9.1f} {row['kib_per_card']:>9.1f} "
                  f"{row['replay_peak']:>11.1f}  {verdict}  load {load_average()}", flush=True)


if __name__ == "__main__":
    main()
