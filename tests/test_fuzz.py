"""Bad input of any shape ends in findings, never in an exception (a seeded, repeatable fuzz)."""

from __future__ import annotations

import random

from conftest import CWNB, write_pack

from generator.validate import validate

SNIPPETS = ["\t", ":", "- ", "[", "]", "{", "}", "&a ", "*a", "!!python/object:os.system ",
            "\n  ", "'", '"', "#", "\x00", "é", "- id: ", "kind: ship\n", "<<: *a\n", "~",
            "99999999999999999999", "-1", "1e400", ".nan", "null", "yes", "[]", "{}"]


def mutate(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 6)):
        position = rng.randrange(len(chars) + 1)
        action = rng.random()
        if action < 0.4:
            chars[position:position] = list(rng.choice(SNIPPETS))
        elif action < 0.7 and chars:
            del chars[position:position + rng.randint(1, 40)]
        else:
            start = rng.randrange(len(chars) + 1)
            chars[position:position] = chars[start:start + rng.randint(1, 60)]
    return "".join(chars)


def test_mutated_card_files_never_raise(tmp_path):
    rng = random.Random(20261122)
    source = (CWNB / "ships.yaml").read_text(encoding="utf-8")[:6000]
    game = (CWNB / "game.yaml").read_text(encoding="utf-8")
    outcomes = set()
    for attempt in range(120):
        pack = write_pack(tmp_path / f"p{attempt}", {"ships.yaml": mutate(source, rng)}, game)
        result = validate(pack)
        outcomes.update(f.code for f in result.findings)
        for finding in result.findings:
            assert finding.location.file.endswith("ships.yaml") or \
                finding.location.file.endswith("game.yaml")
    assert {"yaml-syntax"} <= outcomes  # the fuzz really produced broken files


def test_mutated_manifests_never_raise(tmp_path):
    rng = random.Random(7)
    game = (CWNB / "game.yaml").read_text(encoding="utf-8")
    for attempt in range(60):
        pack = write_pack(tmp_path / f"g{attempt}", {}, mutate(game, rng))
        validate(pack)
