"""--format sarif: SARIF 2.1.0 that the official schema accepts, with rules, help and locations,
as GitHub code scanning takes it: every rule described in full with a link into docs/, and no
path of the machine pnp ran on."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import CWNB, ROOT, run_pnp
from jsonschema import Draft4Validator

from generator.core.findings import docs_url

SCHEMA = json.loads((Path(__file__).parents[1] / "fixtures" / "sarif" / "sarif-2.1.0-rtm.5.json")
                    .read_text(encoding="utf-8"))
BROKEN = ROOT / "tests" / "fixtures" / "broken-expansion"


def sarif_of(*args: str, cwd: Path | None = None) -> dict:
    result = run_pnp(*args, "--format", "sarif", cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    document = json.loads(result.stdout)
    errors = sorted(Draft4Validator(SCHEMA).iter_errors(document), key=str)
    assert not errors, [f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors[:5]]
    # GitHub's ingestion: a full description and a help link into docs/ for every rule
    base = docs_url()
    assert base is not None  # pyproject's [project.urls] Documentation
    for rule in document["runs"][0]["tool"]["driver"]["rules"]:
        assert rule["fullDescription"]["text"] and rule["shortDescription"]["text"]
        uri = rule["helpUri"]
        assert uri.isascii() and uri.startswith(base), uri
        page, _, anchor = unquote(uri.removeprefix(base)).partition("#")
        doc = ROOT / "docs" / page
        assert doc.is_file(), uri
        if anchor:
            headings = [_slug(line.lstrip("#")) for line in doc.read_text(encoding="utf-8")
                        .splitlines() if line.startswith("#")]
            assert anchor in headings, uri
    # no path of this machine: neither the folder pnp ran in nor the packs' own
    assert str(ROOT) not in result.stdout and "file:" not in result.stdout
    return document


def _slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


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
    assert all(set(base) == {"description"} for base in run["originalUriBaseIds"].values())
    help_uri = rules[first["ruleIndex"]]["helpUri"]
    assert urlsplit(help_uri).path.endswith("/docs/rules-cwnb.md")
    assert urlsplit(help_uri).fragment == "attacks-001-7-000-7"  # its row in that table


def test_paths_are_relative_to_the_working_folder_or_the_sarif_root(tmp_path):
    broken = str(BROKEN)  # given as an absolute path, from a folder outside the repository
    (run,) = sarif_of("validate", str(CWNB), "--with", broken, cwd=tmp_path)["runs"]
    # outside the folder pnp ran in: named by folder and file, never by a path that climbs
    assert {(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             r["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"])
            for r in run["results"]} == {("broken-expansion/ships.yaml", "OUTSIDE"),
                                         ("broken-expansion/actions.yaml", "OUTSIDE")}
    (run,) = sarif_of("validate", str(CWNB), "--with", broken, "--sarif-root", str(ROOT),
                      cwd=tmp_path)["runs"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in run["results"]}
    assert uris == {"tests/fixtures/broken-expansion/ships.yaml",
                    "tests/fixtures/broken-expansion/actions.yaml"}


def test_the_map_of_codes_to_docs_is_made_from_the_docs_as_they_are():
    spec = importlib.util.spec_from_file_location("finding_docs",
                                                  ROOT / "tools" / "finding_docs.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert (ROOT / "generator" / "core" / "finding_docs.json").read_text(encoding="utf-8") == \
        tool.render(), "docs/ changed: run tools/finding_docs.py"


def test_a_clean_pack_gives_an_empty_valid_run():
    (run,) = sarif_of("validate", str(CWNB.relative_to(ROOT)))["runs"]
    assert all(r["level"] == "warning" for r in run["results"])


@pytest.mark.parametrize("pack", ["cards/cwnb", "tests/fixtures/datagame-broken"])
def test_preflight_sarif_is_valid(pack):
    (run,) = sarif_of("preflight", pack)["runs"]
    for result in run["results"]:
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
