"""Every kind of bad input a card author can make ends in a located finding, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SHIP, run_pnp

from generator.core.findings import Finding
from generator.pipeline.validate import validate


def only_finding(pack: Path) -> Finding:
    findings = validate(pack).findings
    assert len(findings) == 1, [f.as_text() for f in findings]
    return findings[0]


def where(finding: Finding) -> tuple[str, int, int]:
    return (Path(finding.location.file).name, finding.location.line, finding.location.column)


def test_yaml_syntax_error_points_at_the_broken_spot(make_pack):
    pack = make_pack({"ships.yaml": "cards:\n  - id: a\n    guns: [5in, 3in\n"})
    finding = only_finding(pack)
    assert finding.code == "yaml-syntax"
    assert where(finding) == ("ships.yaml", 4, 1)


def test_tab_indentation_is_named_as_such(make_pack):
    pack = make_pack({"ships.yaml": "cards:\n  - id: a\n\tkind: ship\n"})
    finding = only_finding(pack)
    assert finding.code == "yaml-tab"
    assert where(finding) == ("ships.yaml", 3, 1)


def test_duplicate_key_is_an_error_not_a_silent_overwrite(make_pack):
    pack = make_pack({"ships.yaml": "cards:\n" + SHIP.format(id="a") + "    points: 5\n"})
    finding = only_finding(pack)
    assert finding.code == "duplicate-key"
    assert "points" in finding.message
    assert where(finding) == ("ships.yaml", 11, 5)


def test_duplicate_card_id_across_files(make_pack):
    pack = make_pack({"a.yaml": "cards:\n" + SHIP.format(id="same"),
                      "b.yaml": "cards:\n" + SHIP.format(id="same")})
    finding = only_finding(pack)
    assert finding.code == "duplicate-id"
    assert where(finding) == ("b.yaml", 2, 9)
    assert "a.yaml:2:9" in finding.message


def test_unknown_field_suggests_the_intended_one(make_pack):
    text = "cards:\n" + SHIP.format(id="a") + "    air_strke: 0\n"
    finding = only_finding(make_pack({"ships.yaml": text}))
    assert finding.code == "unknown-field"
    assert "did you mean 'air_strike'" in finding.message
    assert where(finding) == ("ships.yaml", 11, 5)
    assert finding.card == "a"


def test_wrong_type(make_pack):
    text = "cards:\n" + SHIP.format(id="a").replace("points: 4", "points: four")
    finding = only_finding(make_pack({"ships.yaml": text}))
    assert finding.code == "wrong-type"
    assert where(finding) == ("ships.yaml", 8, 13)


def test_value_out_of_range(make_pack):
    text = "cards:\n" + SHIP.format(id="a").replace("hits_to_sink: 3", "hits_to_sink: 0")
    finding = only_finding(make_pack({"ships.yaml": text}))
    assert finding.code == "out-of-range"
    assert "at least 1" in finding.message
    assert where(finding) == ("ships.yaml", 9, 19)


def test_unknown_enum_value_suggests(make_pack):
    text = "cards:\n" + SHIP.format(id="a").replace("guns: [5in]", "guns: [5in, 6in]")
    finding = only_finding(make_pack({"ships.yaml": text}))
    assert finding.code == "unknown-value"
    assert "3in, 5in, 16in" in finding.message
    assert where(finding) == ("ships.yaml", 10, 17)


def test_missing_required_field_points_at_the_card(make_pack):
    text = "cards:\n" + SHIP.format(id="a").replace("    nation: US\n", "")
    finding = only_finding(make_pack({"ships.yaml": text}))
    assert finding.code == "missing-field"
    assert "'nation'" in finding.message
    assert where(finding) == ("ships.yaml", 2, 5)


def test_empty_file(make_pack):
    finding = only_finding(make_pack({"ships.yaml": ""}))
    assert finding.code == "empty-file"
    assert where(finding) == ("ships.yaml", 1, 1)


def test_non_utf8_file_names_the_byte(make_pack):
    raw = b"cards:\n  - id: a\n    name: Caf" + b"\xe9\n"
    finding = only_finding(make_pack({"ships.yaml": raw}))
    assert finding.code == "not-utf8"
    assert "0xe9" in finding.message
    assert where(finding) == ("ships.yaml", 3, 14)


def test_card_file_that_is_a_list(make_pack):
    finding = only_finding(make_pack({"ships.yaml": SHIP.format(id="a")}))
    assert finding.code == "not-a-mapping"
    assert "'cards:'" in finding.message
    assert where(finding) == ("ships.yaml", 1, 1)


def test_every_problem_is_reported_not_only_the_first(make_pack):
    text = ("cards:\n" + SHIP.format(id="a").replace("points: 4", "points: 0")
            + SHIP.format(id="b").replace("type: DD", "type: XX"))
    findings = validate(make_pack({"ships.yaml": text, "empty.yaml": ""})).findings
    assert sorted(f.code for f in findings) == ["empty-file", "out-of-range", "unknown-value"]


def test_missing_pack_folder_is_a_usage_error(tmp_path):
    result = run_pnp("validate", str(tmp_path / "nope"))
    assert result.returncode == 2
    assert "no such pack folder" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_cli_reports_findings_with_exit_1(make_pack, output_format):
    text = "cards:\n" + SHIP.format(id="a").replace("type: DD", "type: DX")
    result = run_pnp("validate", str(make_pack({"ships.yaml": text})), "--format", output_format)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    if output_format == "json":
        doc = json.loads(result.stdout)
        (finding,) = doc["findings"]
        assert finding["code"] == "unknown-value"
        assert (finding["line"], finding["column"]) == (6, 11)
        assert finding["card"] == "a" and finding["severity"] == "error"
        assert finding["locale"] is None
        assert doc["summary"]["errors"] == 1
    else:
        assert "ships.yaml:6:11: error[unknown-value]" in result.stdout
        assert "did you mean 'DD'" in result.stdout


def test_alias_bomb_is_refused_quickly(make_pack):
    lines = ["a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    finding = only_finding(make_pack({"bomb.yaml": "\n".join(lines) + "\n"}))
    assert finding.code == "yaml-too-large"


def test_a_card_file_linking_outside_the_pack_is_refused(make_pack, tmp_path):
    outside = tmp_path / "secret.yaml"
    outside.write_text("cards: []\n", encoding="utf-8")
    pack = make_pack({})
    (pack / "ships.yaml").symlink_to(outside)
    finding = only_finding(pack)
    assert finding.code == "path-escape"
    assert Path(finding.location.file).name == "ships.yaml"
