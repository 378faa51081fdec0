"""Issue #13's bound: a pack of 10 MB ends within 10 s and 1 GiB, with located findings.

The largest input that makes pnp do the most work per byte is a card file of many small, valid
cards: every card is loaded with positions, checked against its schema and the game's rules,
and every face is laid out (validate reports what build would stop on). So the pack here is a
CWNB expansion of N generated ships (as bench/scaling.py makes them: the base game's 55 ship
profiles, each ship with its own id and name), N chosen so the card files total 10 MB, in card
files of 10,000 ships (the 8 MiB file limit holds). Two whole ``pnp validate`` processes run
alternately, each checked by its JSON output:
- ``valid``: the pack as generated, which must give 0 findings for all N + 178 cards;
- ``one bad card``: the same with the last ship's name far too long to fit, which must exit 1
  with exactly that text-overflow finding at that card's line (the finding comes last, after
  everything else was read and laid out).
``--data-game`` times a game defined in data instead: bench/datagame_validate.py's game
(schemas, three CEL card rules, one CEL set rule over every card) with as many cards as make
10 MB (about 92,000, in files of 46,000), which must end in exactly the set rule's finding.
Printed: medians of wall and CPU seconds, peak memory, and the verdict against 10 s / 1 GiB.
Run: ``.venv/bin/python bench/large_input.py [--megabytes 10] [--runs 3] [--data-game]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import PNP, BenchmarkFailed, alternate, forget_user_cache, load_average, report
from scaling import make_expansion

BASE = Path(__file__).resolve().parents[1] / "cards" / "cwnb"
SECONDS, MIB = 10.0, 1024.0
#: bytes of YAML per generated ship (measured: 10,000 ships are 2.14 MB)
BYTES_PER_SHIP = 214
LONG_NAME = "Admiral of the Fleet of the Soviet Union Sergey Georgiyevich Gorshkov"


def _json_of(completed: subprocess.CompletedProcess[bytes]) -> dict:
    try:
        return json.loads(completed.stdout)
    except ValueError:
        raise BenchmarkFailed(f"no JSON from validate (exit {completed.returncode}): "
                              f"{completed.stderr[-500:]!r}") from None


def valid(cards: int):
    def check(completed: subprocess.CompletedProcess[bytes]) -> None:
        report = _json_of(completed)
        if completed.returncode != 0 or report["findings"] or report["summary"]["cards"] != cards:
            raise BenchmarkFailed(f"expected 0 findings on {cards} cards, got exit "
                                  f"{completed.returncode}, {len(report['findings'])} findings, "
                                  f"{report['cards']} cards")
    return check


def one_bad(cards: int, file: Path, line: int):
    def check(completed: subprocess.CompletedProcess[bytes]) -> None:
        report = _json_of(completed)
        found = [(f["code"], Path(f["file"]).name, f["line"]) for f in report["findings"]
                 if f["severity"] == "error"]
        expected = ("text-overflow", file.name, line)
        if completed.returncode != 1 or expected not in found \
                or report["summary"]["cards"] != cards:
            raise BenchmarkFailed(f"expected exit 1 and {expected}, got exit "
                                  f"{completed.returncode} and {found[:3]}")
    return check


def _spoil_last_name(pack: Path) -> tuple[Path, int]:
    """Give the last ship a name that cannot fit; returns its file and the name's line."""
    last = sorted(pack.glob("ships-*.yaml"))[-1]
    lines = last.read_text(encoding="utf-8").splitlines()
    number = max(i for i, text in enumerate(lines) if text.startswith("  name: "))
    lines[number] = f"  name: {LONG_NAME} {LONG_NAME}"
    last.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return last, number + 1


#: bytes of YAML per generated data card (measured: 1,000 cards are 108,597 bytes)
BYTES_PER_DATA_CARD = 109
#: data cards per card file: 5 MB, within the 8 MiB file limit
DATA_CARDS_PER_FILE = 46_000


def make_data_game(root: Path, cards: int) -> Path:
    """bench/datagame_validate.py's game (two kinds with schemas, three card rules, one set
    rule over every card) with ``cards`` cards in files of DATA_CARDS_PER_FILE."""
    import re

    from datagame_validate import write_pack

    pack = write_pack(root, min(cards, DATA_CARDS_PER_FILE))
    first = (pack / "cards.yaml").read_text(encoding="utf-8")
    made, number = min(cards, DATA_CARDS_PER_FILE), 1
    while made < cards:
        lines = first.splitlines()[:1 + min(cards - made, DATA_CARDS_PER_FILE)]
        text = re.sub(r"(id: \w+)-(\d+)", rf"\1-f{number}x\2", "\n".join(lines) + "\n")
        (pack / f"cards-{number:02d}.yaml").write_text(text, encoding="utf-8")
        made += len(lines) - 1
        number += 1
    return pack


def set_rule_finding(cards: int, pack: Path):
    """The generated game's set rule (at most 20 legends) ranges over every card: past 10,000
    cards CEL's own iteration budget stops it, so the run ends with exactly one finding,
    rule-too-costly at the rule's check in game.yaml (below that, the rule's own finding at the
    rule, since every hundredth card is a legend), on all cards."""
    lines = (pack / "game.yaml").read_text(encoding="utf-8").splitlines()
    rule = next(number for number, text in enumerate(lines, start=1)
                if "code: few-legends" in text)
    expected = [("rule-too-costly", "game.yaml", rule + 2)] if cards > 10_000 else [
        ("few-legends", "game.yaml", rule)]

    def check(completed: subprocess.CompletedProcess[bytes]) -> None:
        report = _json_of(completed)
        found = [(f["code"], Path(f["file"]).name, f["line"]) for f in report["findings"]]
        if completed.returncode != 1 or found != expected \
                or report["summary"]["cards"] != cards:
            raise BenchmarkFailed(f"expected exit 1 and {expected} on {cards} cards, got exit "
                                  f"{completed.returncode}, {found[:3]}, "
                                  f"{report['summary']['cards']} cards")
    return check


#: the bound holds for input pnp meets for the first time: every run starts without the files
#: parsed or the cards checked by the run before (generator.load.parsecache, generator.schema.memo)
FIRST_SIGHT = {name: forget_user_cache for name in ("valid", "one bad card", "data game")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--megabytes", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--data-game", action="store_true",
                        help="time a game defined in data (cards, schemas, CEL card and set "
                             "rules) instead of CWNB ships")
    args = parser.parse_args()
    if args.data_game:
        main_data_game(args.megabytes, args.runs)
        return
    ships = int(args.megabytes * 1_000_000 / BYTES_PER_SHIP)
    with tempfile.TemporaryDirectory() as scratch:
        for name in ("good", "bad"):
            (Path(scratch) / name).mkdir()
        good = make_expansion(Path(scratch) / "good", ships)
        bad = make_expansion(Path(scratch) / "bad", ships)
        file, line = _spoil_last_name(bad)
        size = sum(path.stat().st_size for path in good.iterdir()) / 1e6
        cards = ships + 82  # the base game has 82 distinct cards (178 copies)
        print(f"{ships} ships in {size:.2f} MB of card files (+ the base game's 178 cards); "
              f"whole processes, {args.runs} alternated runs, load average {load_average()} "
              "(2 cores)")
        runs = alternate({
            "valid": ([*PNP, "validate", str(BASE), "--with", str(good), "--format", "json"],
                      valid(cards)),
            "one bad card": ([*PNP, "validate", str(BASE), "--with", str(bad), "--format",
                              "json"], one_bad(cards, file, line)),
        }, args.runs, prepare=FIRST_SIGHT)
        _verdicts(runs)


def main_data_game(megabytes: float, runs_wanted: int) -> None:
    cards = int(megabytes * 1_000_000 / BYTES_PER_DATA_CARD)
    with tempfile.TemporaryDirectory() as scratch:
        pack = make_data_game(Path(scratch), cards)
        size = sum(path.stat().st_size for path in pack.glob("cards*.yaml")) / 1e6
        print(f"a game defined in data: {cards} cards in {size:.2f} MB of card files; whole "
              f"processes, {runs_wanted} runs, load average {load_average()} (2 cores)")
        runs = alternate({"data game": ([*PNP, "validate", str(pack), "--format", "json"],
                                        set_rule_finding(cards, pack))}, runs_wanted,
                         prepare=FIRST_SIGHT)
        _verdicts(runs)


def _verdicts(runs) -> None:
    report(runs)
    for item in runs.values():
        verdict = "OK" if item.median <= SECONDS and max(item.peak_mib) <= MIB \
            else f"over {SECONDS:g} s / {MIB:g} MiB"
        print(f"  {item.name}: {item.median:.2f} s wall, {item.median_cpu:.2f} s CPU, "
              f"peak {max(item.peak_mib):.0f} MiB -> {verdict}")
    print(f"load average at the end {load_average()}")


if __name__ == "__main__":
    main()
