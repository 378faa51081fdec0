"""Benchmark: time and peak memory of validate + build as the card count grows (to 10,000).

Synthetic CWNB packs of N distinct ship cards (plus the base game's actions and orders, so the
rules see a real deck) are validated and built; time per card and memory per card should stay
flat if everything is linear. Run with ``.venv/bin/python bench/scaling.py``.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.build import build  # noqa: E402
from generator.impose import SheetOptions  # noqa: E402
from generator.validate import validate  # noqa: E402

SHIP = """  - id: ship-{n}
    kind: ship
    name: Ship {n}
    class: Test
    type: DD
    nation: US
    points: 4
    hits_to_sink: 3
    guns: [5in]
    missiles: [A]
"""


def make_pack(root: Path, ships: int) -> Path:
    pack = root / f"pack{ships}"
    pack.mkdir()
    for name in ("game.yaml", "actions.yaml", "player_orders.yaml"):
        shutil.copy(ROOT / "cards" / "cwnb" / name, pack / name)
    (pack / "ships.yaml").write_text("cards:\n" + "".join(SHIP.format(n=n)
                                                         for n in range(ships)))
    return pack


def measure(action) -> tuple[float, int]:
    """Wall time of a plain run, then peak traced memory of a second run (tracing is slow)."""
    start = time.perf_counter()
    action()
    elapsed = time.perf_counter() - start
    tracemalloc.start()
    action()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return elapsed, peak


def main() -> None:
    print(f"{'ships':>7} {'validate s':>11} {'build s':>9} {'ms/card':>8} {'peak MiB':>9} "
          f"{'KiB/card':>9}")
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for ships in (1000, 3000, 10000):
            pack = make_pack(root, ships)
            check, _ = measure(lambda p=pack: validate(p))
            made, peak = measure(lambda p=pack: build(p, (), "en", SheetOptions(duplex="none"),
                                                      root / "out"))
            cards = ships + 123
            print(f"{ships:>7} {check:>11.2f} {made:>9.2f} {made / cards * 1000:>8.2f} "
                  f"{peak / 2**20:>9.1f} {peak / cards / 1024:>9.1f}")


if __name__ == "__main__":
    main()
