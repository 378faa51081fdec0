"""--format sarif: SARIF 2.1.0 that the official schema accepts, with rules, help and locations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import CWNB, ROOT, run_pnp
from jsonschema import Draft4Validator

SCHEMA = json.loads((Path(__file__).parents[1] / "fixtures" / "sarif" / "sarif-2.1.0-rtm.5.json")
                    .read_text(encoding="utf-8"))
BROKEN = ROOT / "tests" / "fixtures" / "broken-expansion"


def sarif_of(*args: str) -> dict:
    result = run_pnp(*args, "--format", "sarif")
    assert result.returncode in (0, 1), result.stderr
    document = json.loads(result.stdout)
    errors = sorted(Draft4Validator(SCHEMA).iter_errors(document), key=str)
    assert not errors, [f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors[:5]]
    return document


def test_validate_sarif_is_valid_and_located():
    text = run_pnp("validate", "cards/cwnb", "--with", str(BROKEN.relative_to(ROOT)))
    document = sarif_of("validate", "cards/cwnb", "--with", str(BROKEN.relative_to(ROOT)))
    (run,) = document["runs"]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert len(results) == len([x for x in text.stdout.splitlines() if "]: " in x])
    assert document["version"] == "2.1.0"
    for result in results:
        rule = rules[result["ruleIndex"]]
        assert rule["id"] == result["ruleId"] and rule["help"]["text"]
        assert result["level"] in ("error", "warning")
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert not location["artifactLocation"]["uri"].startswith(("/", "file:"))
        assert location["region"]["startLine"] >= 1 and location["region"]["startColumn"] >= 1
    first = next(r for r in results if r["ruleId"] == "cwnb-class-type")
    assert first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == \
        "tests/fixtures/broken-expansion/ships.yaml"
    assert "rule 7.13" in rules[first["ruleIndex"]]["help"]["text"] or \
        "7.13" in rules[first["ruleIndex"]]["help"]["text"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == ROOT.as_uri() + "/"


def test_a_clean_pack_gives_an_empty_valid_run():
    (run,) = sarif_of("validate", str(CWNB.relative_to(ROOT)))["runs"]
    assert all(r["level"] == "warning" for r in run["results"])


@pytest.mark.parametrize("pack", ["cards/cwnb", "tests/fixtures/datagame-broken"])
def test_preflight_sarif_is_valid(pack):
    (run,) = sarif_of("preflight", pack)["runs"]
    for result in run["results"]:
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
