"""Budget: ``pnp validate`` of a 1,000-card game defined in data under one second, whole process.

A data game is generated: two kinds with JSON Schemas in game.yaml, three card rules, one set
rule (CEL), templates and 1,000 cards with distinct ids and names (numbers in game-like ranges).
``pnp validate PACK --format json`` runs as a fresh process several times (after one untimed
warm-up run); every run must exit 0, report no
findings and count exactly 1,000 cards, or the benchmark fails. Printed: median and spread.
Run: ``.venv/bin/python bench/datagame_validate.py [N] [--runs R]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import PNP, BenchmarkFailed, alternate, load_average, report

BUDGET_S = 1.0

GAME = """\
pack: bench-game
name: Benchmark game
source_locale: en
kinds:
  creature:
    front: creature
    back: back
    schema:
      required: [name, cost, power, toughness]
      properties:
        name: {type: string, x-translate: true}
        text: {type: string, x-translate: true}
        cost: {type: integer, minimum: 0, maximum: 10}
        power: {type: integer, minimum: 0}
        toughness: {type: integer, minimum: 1}
        tags: {type: array, items: {enum: [beast, legend, flying]}}
  spell:
    front: creature
    back: back
    schema:
      required: [name, cost]
      properties:
        name: {type: string, x-translate: true}
        text: {type: string, x-translate: true}
        cost: {type: integer, minimum: 0, maximum: 10}
rules:
  - code: cheap-creatures-are-small
    kind: creature
    check: "self.cost >= 3 || self.power <= 2"
    message: a creature costing less than 3 has power 2 or less
  - code: tough-enough
    kind: creature
    check: "toughness >= 1 && toughness <= cost + 4"
    message: toughness at most cost + 4
  - code: names-fit
    check: "size(self.name) <= 30"
    message: names fit in 30 characters
  - code: few-legends
    scope: set
    check: "cards.filter(c, has(c.tags) && 'legend' in c.tags).size() <= 20"
    message: at most 20 legends
"""

TEMPLATE = """\
size_mm: [63.5, 88.9]
elements:
  - {type: rect, box: [0, 0, 63.5, 88.9], fill: paper, bleed: true}
  - {type: text, box: [4, 4, 50, 8], text: "{name}", font: bold, size: 11}
  - {type: text, box: [4, 60, 55, 20], text: "{text}", size: 8, when: "has(self.text)"}
"""

BACK = """\
size_mm: [63.5, 88.9]
shared: true
elements:
  - {type: rect, box: [0, 0, 63.5, 88.9], fill: ink, bleed: true}
"""


def write_pack(root: Path, count: int) -> Path:
    pack = root / "bench-game"
    (pack / "templates").mkdir(parents=True)
    (pack / "game.yaml").write_text(GAME, encoding="utf-8")
    (pack / "templates" / "creature.yaml").write_text(TEMPLATE, encoding="utf-8")
    (pack / "templates" / "back.yaml").write_text(BACK, encoding="utf-8")
    lines = ["cards:"]
    for i in range(count):
        if i % 5 == 4:
            lines.append(f"  - {{id: spell-{i}, kind: spell, name: Spell number {i}, "
                         f"text: Deal {i % 4 + 1} damage., cost: {i % 6}}}")
            continue
        cost = i % 8
        power = min(cost, 2) if cost < 3 else (i % 7)
        tags = "[legend]" if i % 100 == 0 else "[beast]"
        lines.append(f"  - {{id: creature-{i}, kind: creature, name: Creature number {i}, "
                     f"cost: {cost}, power: {power}, toughness: {1 + i % 3}, tags: {tags}}}")
    (pack / "cards.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return pack


def checked(count: int):
    def check(completed: subprocess.CompletedProcess[bytes]) -> None:
        if completed.returncode != 0:
            raise BenchmarkFailed(f"validate exited {completed.returncode}:\n"
                                  + completed.stdout.decode()[-2000:]
                                  + completed.stderr.decode()[-2000:])
        document = json.loads(completed.stdout)
        if document["findings"] or document["summary"]["cards"] != count:
            raise BenchmarkFailed(f"expected {count} clean cards, got "
                                  f"{document['summary']} {document['findings'][:3]}")

    return check


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("count", nargs="?", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    load = load_average()
    with tempfile.TemporaryDirectory() as tmp:
        pack = write_pack(Path(tmp), args.count)
        argv = [*PNP, "validate", str(pack), "--format", "json"]
        runs = alternate({f"pnp validate ({args.count} data cards)": (argv,
                                                                      checked(args.count))},
                         pairs=args.runs)
    print(f"load average {load} -> {load_average()} (2 cores)")
    report(runs)
    median = next(iter(runs.values())).median
    verdict = "within" if median < BUDGET_S else "OVER"
    print(f"median {median:.3f} s: {verdict} the {BUDGET_S:.1f} s budget "
          f"(CPU {next(iter(runs.values())).median_cpu:.3f} s)")
    if median >= BUDGET_S:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
