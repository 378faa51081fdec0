"""Benchmark: the CWNB rules checks (card, set and cross level) on 1,000 to 50,000 cards.

A synthetic CWNB deck of N distinct cards, half ships and half action cards of every attack and
defense kind (written in files of 5,000 cards), is loaded once; then the game's rules run on it in
process and the seconds are printed. Every check indexes the deck by key, so seconds per card
should stay flat as N grows; a check that compares every card with every other shows up here as
a time that grows with N squared. The run asserts that the rules really saw N cards.

Run with ``.venv/bin/python bench/rules_scaling.py [N ...]``.
"""

from __future__ import annotations

import gc
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.model.cards import CardSet  # noqa: E402
from generator.pipeline.pack import load_pack  # noqa: E402

FILE_CARDS = 5000
SHIP = ("  - {{id: ship-{n}, kind: ship, name: Ship {n}, class: Test, type: {type}, "
        "nation: US, points: {points}, hits_to_sink: {hits}, guns: [{guns}], "
        "missiles: [{missiles}]}}\n")
ACTIONS = (
    "  - {{id: gun-{n}, kind: action, name: Gun {n}, text: t, action: gun, caliber: {caliber}, "
    "damage: {damage}}}\n",
    "  - {{id: missile-{n}, kind: action, name: Missile {n}, text: t, action: missile, "
    "missile_class: {missile}, damage: {damage}}}\n",
    "  - {{id: torpedo-{n}, kind: action, name: Torpedo {n}, text: t, action: torpedo, "
    "damage: 2, chance_vs_passive: 2}}\n",
    "  - {{id: asw-{n}, kind: action, name: ASW {n}, text: t, action: asw, "
    "chance_vs_active: 4, chance_vs_passive: 2}}\n",
    "  - {{id: evasive-{n}, kind: action, name: Evasive {n}, text: t, action: evasive}}\n",
    "  - {{id: ecm-{n}, kind: action, name: ECM {n}, text: t, action: ecm}}\n",
)


def ship(n: int) -> str:
    if n % 7 == 0:
        return SHIP.format(n=n, type="SSN", points=6, hits=3, guns="", missiles="A")
    return SHIP.format(n=n, type="DD" if n % 3 else "CG", points=4 + n % 8, hits=2 + n % 4,
                       guns=("3in", "5in")[n % 2], missiles="ABC"[n % 3])


def action(n: int) -> str:
    return ACTIONS[n % len(ACTIONS)].format(n=n, caliber=("3in", "5in")[n % 2],
                                            missile="ABC"[n % 3], damage=1 + n % 3)


def write_cards(pack: Path, stem: str, lines: list[str]) -> None:
    for start in range(0, len(lines), FILE_CARDS):
        chunk = lines[start:start + FILE_CARDS]
        (pack / f"{stem}-{start // FILE_CARDS:03d}.yaml").write_text("cards:\n" + "".join(chunk))


def make_pack(root: Path, cards: int) -> Path:
    pack = root / f"deck{cards}"
    pack.mkdir()
    for name in ("game.yaml", "player_orders.yaml"):
        shutil.copy(ROOT / "cards" / "cwnb" / name, pack / name)
    write_cards(pack, "ships", [ship(n) for n in range(cards // 2)])
    write_cards(pack, "actions", [action(n) for n in range(cards - cards // 2)])
    return pack


def main(sizes: list[int]) -> None:
    print(f"{'cards':>7} {'rules s':>8} {'us/card':>8} {'findings':>9}  most frequent")
    with tempfile.TemporaryDirectory() as scratch:
        for cards in sizes:
            load = load_pack(make_pack(Path(scratch), cards))
            assert load.pack is not None and load.game is not None, load.findings[:3]
            assert len(load.pack.cards) == cards + 9, (len(load.pack.cards), load.findings[:3])
            card_set = CardSet(base=load.pack)
            gc.collect()  # charge the rules, not the loader's garbage
            start = time.perf_counter()
            findings = load.game.check(card_set)
            elapsed = time.perf_counter() - start
            common = Counter(f.code for f in findings).most_common(2)
            print(f"{cards:>7} {elapsed:>8.3f} {elapsed / cards * 1e6:>8.1f} {len(findings):>9}"
                  f"  {common}")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [1000, 10000, 50000])
