"""The shipped packs print as a print shop would take them (issue 26 item 8): their preflight
warnings are the deliberate ones their READMEs explain, and nothing else; legal content fits its
template (a GWAS card for a group of six named destroyers)."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from conftest import ROOT, run_pnp

#: pack -> (warnings its README explains, the safe zone in mm under which nothing else lies)
DELIBERATE = {"cwnb": (8, "0.3"), "commander": (71, "1.5"), "gwas": (23, "0.7"),
              "rockpool": (0, "3")}


def preflight(pack: str, *options: str) -> dict:
    result = run_pnp("preflight", str(ROOT / "cards" / pack), "--format", "json", *options)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("pack", sorted(DELIBERATE))
def test_each_preflight_warning_of_a_shipped_pack_is_the_deliberate_one_its_readme_explains(
        pack):
    count, safe = DELIBERATE[pack]
    found = preflight(pack)["findings"]
    assert len(found) == count
    assert {f["code"] for f in found} <= {"text-outside-safe-zone"}
    if count:
        readme = (ROOT / "cards" / pack / "README.md").read_text(encoding="utf-8")
        section = readme.split("## Print-shop preflight", 1)[1]
        assert f"reports {count} warnings, all deliberate" in section
        assert f"--safe {safe}`" in " ".join(section.split())
    # nothing else is closer to the trim than the deliberate texts
    assert preflight(pack, "--safe", safe)["findings"] == []


def test_a_group_of_six_named_destroyers_fits_its_card(tmp_path):
    pack = tmp_path / "gwas"
    shutil.copytree(ROOT / "cards" / "gwas", pack)
    france = pack / "ships" / "france.yaml"
    text = france.read_text(encoding="utf-8")
    four = ("    name: Bisson, Renaudin, Magon, Mangini\n    class: DD\n    group: light\n"
            "    nation: FR\n    ships: 4")
    assert four in text
    france.write_text(text.replace(four, four.replace(
        "Mangini", "Mangini, Commandant Lucas, Protet").replace("ships: 4", "ships: 6")),
        encoding="utf-8")
    for locale in ("ru", "en"):
        result = run_pnp("validate", str(pack), "--locale", locale, "--format", "json")
        assert result.returncode == 0, result.stdout
        overflows = [f for f in json.loads(result.stdout)["findings"]
                     if f["code"] == "text-overflow"]
        assert overflows == []
    assert re.search(r"Commandant Lucas", france.read_text(encoding="utf-8"))
