"""Great War at Sea: the shipped pack validates clean in both languages, every gwas- check fires
on a card built to break it, fleet counters impose as mirrored two-sided 12.7 mm pieces on A4
and Letter, and the PDFs carry the Russian and English texts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import ROOT, SHIP, doc_rule_rows, last_covered_line, run_pnp, write_pack
from pdfread import open_pdf, pdf_text

from generator.core.findings import Severity
from generator.games.gwas import COUNTER_SIZE
from generator.games.gwas.rules import CHECKS
from generator.games.gwas.tables import SEED_FILES
from generator.games.gwas.widgets import (
    CLASS_STYLE,
    MODIFIER_STYLE,
    class_rows,
    modifier_rows,
)
from generator.impose.sheets import (
    PAPERS,
    SheetOptions,
    _registration_boxes,
    compute_grid,
)
from generator.layout.faces import lay_out_cards
from generator.layout.ops import Text
from generator.layout.textfit import fit_text
from generator.pipeline.build import build
from generator.pipeline.localecheck import check_locale, localizer_for
from generator.pipeline.validate import validate

GWAS = ROOT / "cards" / "gwas"
BROKEN = ROOT / "tests" / "fixtures" / "gwas-broken"
AUDIT = ROOT / "tests" / "fixtures" / "gwas-audit3"
UNUSUAL = ROOT / "tests" / "fixtures" / "gwas-unusual"
DOCS = ROOT / "docs" / "rules-gwas.md"
CLASS_BOX = (3.0, 16.2, 57.5, 63.0)  # templates/gwas/classes.yaml
MODIFIER_BOX = (4.0, 58.0, 55.5, 29.0)  # templates/gwas/reference.yaml

# --- the shipped pack ---------------------------------------------------------------------


def test_the_pack_validates_clean_and_fast(slow_schema_checks, tmp_path):
    checked = validate(GWAS)
    assert [f.as_text() for f in checked.findings] == []
    assert slow_schema_checks == []  # fast: no clean card goes to jsonschema (timing: bench/)
    validate(write_pack(tmp_path, {"ships.yaml": "cards:\n" + SHIP.format(id="x").replace(
        "points: 4", "points: many")}))
    assert slow_schema_checks, "a card the schema rejects is explained by jsonschema"
    kinds = {}
    for card in checked.card_set.cards:
        kinds[card.kind] = kinds.get(card.kind, 0) + 1
    assert kinds == {"ship": 41, "submarine": 6, "mtb": 3, "airship": 2, "leader": 4,
                     "reference": 6, "fleet_counter": 18}


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_both_languages_are_complete_and_fit_their_boxes(locale):
    checked = validate(GWAS)
    findings = check_locale(checked.card_set, checked.game, locale, strict=True)
    assert [f.as_text() for f in findings] == []


def test_cli_strict_validation_and_full_english_catalog():
    result = run_pnp("validate", "cards/gwas", "--locale", "en", "--strict")
    assert result.returncode == 0, result.stdout + result.stderr
    status = run_pnp("i18n", "status", "cards/gwas")
    assert status.returncode == 0
    (line,) = [row for row in status.stdout.splitlines() if row.startswith("en ")]
    assert line.split()[-1] == "100.0%" and line.split()[2:5] == ["0", "0", "0"]


def test_the_seeds_own_ship_keeps_its_values():
    """004:137: Tegetthoff fires 12 dice (8-3-1) and its two 5s miss the MTB: not italic."""
    ships = {c.id: c for c in validate(GWAS).card_set.cards}
    tegetthoff = ships["tegetthoff"]
    assert tegetthoff.gunnery == (8, 3, 1) and not tegetthoff.italic


def test_no_text_below_six_points_and_italic_names_in_italics():
    checked = validate(GWAS)
    for locale in ("ru", "en"):
        faces = lay_out_cards(checked.card_set, checked.game,
                              localizer_for(checked.card_set, "gwas", locale), 0.0)
        texts = [op for layout in faces.layouts.values() for op in layout.ops
                 if isinstance(op, Text)]
        assert min(op.size_pt for op in texts) >= 6.0
        fonts = {op.text: op.font for op in faces.layouts[("ship", "viribus-unitis")].ops
                 if isinstance(op, Text)}
        assert fonts["Viribus Unitis"] == "bold-italic"
        fonts = {op.text: op.font for op in faces.layouts[("ship", "tegetthoff")].ops
                 if isinstance(op, Text)}
        assert fonts["Tegetthoff"] == "bold"


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_class_table_and_modifier_rows_fit_at_six_points(locale):
    checked = validate(GWAS)
    localizer = localizer_for(checked.card_set, "gwas", locale)
    code_style, name_style, size = CLASS_STYLE
    for code, name, code_box, name_box in class_rows(localizer.label, CLASS_BOX):
        for text, box, style in ((code, code_box, code_style), (name, name_box, name_style)):
            if text:
                assert fit_text(text, box[2], box[3], style, size, 6.0, locale).fits, text
    label_style, value_style, size = MODIFIER_STYLE
    for card in checked.card_set.cards:
        if card.kind != "reference":
            continue
        for label, value, _, label_box, value_box in modifier_rows(
                localizer.field(card, "modifiers"), MODIFIER_BOX):
            assert fit_text(label, label_box[2], label_box[3], label_style, size, 6.0,
                            locale).fits, label
            if value:
                assert fit_text(value, value_box[2], value_box[3], value_style, size, 6.0,
                                locale).fits, value


# --- one broken card per check --------------------------------------------------------------

GAME = """\
pack: gwas-test
game: gwas
name: Test
source_locale: ru
set_mark: test
options:
  allow_speed_1_plus: {plus}
"""

VALID = """\
cards:
  - {id: ah-bb, kind: ship, name: Alpha, class: BB, group: capital, nation: AH,
     gunnery: 8-3-1, speed: "1"}
  - {id: it-dd, kind: ship, name: Beta, class: DD, group: light, nation: IT, gunnery: 1,
     torpedoes: {deck: 2}, speed: 2+}
  - {id: ah-1, kind: fleet_counter, nation: AH, number: 1}
  - {id: it-1, kind: fleet_counter, nation: IT, number: 1}
  - {id: r-contact, kind: reference, procedure: contact, title: К}
  - {id: r-pursuit, kind: reference, procedure: pursuit, title: П}
  - {id: r-gunnery, kind: reference, procedure: gunnery, title: А}
  - {id: r-submarine, kind: reference, procedure: submarine, title: Л}
  - {id: r-mtb, kind: reference, procedure: mtb, title: Т}
  - {id: r-classes, kind: reference, procedure: classes, title: К}
"""

#: check code -> (card file text, id of the card the finding names)
BAD_CARDS: dict[str, tuple[str, str]] = {
    "gwas-class-unknown": ("""\
        - {id: bad, kind: ship, name: X, class: BBX, group: capital, nation: AH,
           gunnery: 2, speed: "1"}
        """, "bad"),
    "gwas-class-group": ("""\
        - {id: bad, kind: ship, name: X, class: CL, group: capital, nation: AH,
           gunnery: 0-2-1, speed: "2"}
        """, "bad"),
    "gwas-gunnery-small": ("""\
        - {id: bad, kind: ship, name: X, class: DD, group: light, nation: AH,
           gunnery: 0-0-1, speed: "2"}
        """, "bad"),
    "gwas-gunnery-pst": ("""\
        - {id: bad, kind: ship, name: X, class: BB, group: capital, nation: AH,
           gunnery: 8-3, speed: "1"}
        """, "bad"),
    "gwas-group-not-small": ("""\
        - {id: bad, kind: ship, name: X, class: CL, group: light, nation: AH, ships: 2,
           gunnery: 0-2-1, speed: "2"}
        """, "bad"),
    "gwas-speed": ("""\
        - {id: bad, kind: ship, name: X, class: BB, group: capital, nation: AH,
           gunnery: 8-3-1, speed: "3"}
        """, "bad"),
    "gwas-speed-1-plus": ("""\
        - {id: bad, kind: ship, name: X, class: BB, group: capital, nation: AH,
           gunnery: 8-3-1, speed: 1+}
        """, "bad"),
    "gwas-submarine-torpedoes": ("""\
        - {id: bad, kind: submarine, name: U-1, nation: AH, torpedoes: {deck: 1, hull: 1}}
        """, "bad"),
    "gwas-mtb-torpedoes": ("""\
        - {id: bad, kind: mtb, name: MAS 1, nation: IT, torpedoes: {deck: 1}}
        """, "bad"),
    "gwas-airship-movement": ("""\
        - {id: bad, kind: airship, name: M.1, nation: IT, bombs: 1}
        """, "bad"),
    "gwas-counter-number": ("""\
        - {id: bad, kind: fleet_counter, nation: FR, number: 1}
        """, "bad"),
    "gwas-leader-flagship": ("""\
        - {id: bad, kind: leader, name: Адмирал, nation: AH, flagship: Nowhere}
        """, "bad"),
    "gwas-leader-side": ("""\
        - {id: bad, kind: leader, name: Адмирал, nation: AH, flagship: Beta}
        """, "bad"),
    "gwas-duplicate-name": ("""\
        - {id: bad, kind: ship, name: Alpha, class: BB, group: capital, nation: AH,
           gunnery: 8-3-1, speed: "1"}
        """, "bad"),
}


def _pack(tmp_path: Path, extra: str = "", plus: str = "false", drop: str = "",
          game: str | None = None) -> Path:
    valid = "\n".join(line for line in VALID.splitlines() if drop not in line or not drop)
    files = {"base.yaml": valid + "\n"}
    if extra:
        files["broken.yaml"] = "cards:\n" + extra
    return write_pack(tmp_path / "pack", files, game or GAME.format(plus=plus))


def _seed_cited(message: str) -> bool:
    return bool(re.search(r"(00[34]_[0-9a-f]{16}\.txt):\d+", message)) and any(
        name in message for name in SEED_FILES.values())


def test_the_test_pack_is_clean(tmp_path):
    assert [f.as_text() for f in validate(_pack(tmp_path)).findings] == []


@pytest.mark.parametrize("code", sorted(BAD_CARDS))
def test_each_bad_card_yields_its_code_with_location_card_and_seed_line(tmp_path, code):
    text, card = BAD_CARDS[code]
    findings = validate(_pack(tmp_path, text)).findings
    assert [f.code for f in findings] == [code], [f.as_text() for f in findings]
    (finding,) = findings
    assert finding.card == card
    assert _seed_cited(finding.message), finding.message
    assert finding.location.file.endswith("broken.yaml")
    assert finding.location.line >= 2 and finding.location.column >= 1


def test_speed_1_plus_is_reported_either_way(tmp_path):
    text, _ = BAD_CARDS["gwas-speed-1-plus"]
    (allowed,) = validate(_pack(tmp_path, text, plus="true")).findings
    assert allowed.code == "gwas-speed-1-plus" and allowed.severity is Severity.WARNING
    assert "003_4678bd8159124b2d.txt:274" in allowed.message
    assert "003_4678bd8159124b2d.txt:333" in allowed.message
    (refused,) = validate(_pack(tmp_path / "b", text, plus="false")).findings
    assert refused.severity is Severity.ERROR and "allow_speed_1_plus" in refused.message


def test_a_side_without_fleet_counters_is_reported(tmp_path):
    findings = validate(_pack(tmp_path, drop="it-1")).findings
    assert [f.code for f in findings] == ["gwas-side-without-counters"]
    assert findings[0].severity is Severity.ERROR
    assert "entente" in findings[0].message and _seed_cited(findings[0].message)
    assert findings[0].location.file.endswith("game.yaml")


def test_a_missing_reference_card_is_reported(tmp_path):
    findings = validate(_pack(tmp_path, drop="r-pursuit")).findings
    assert [f.code for f in findings] == ["gwas-reference-missing"]
    assert "pursuit" in findings[0].message and _seed_cited(findings[0].message)


@pytest.mark.parametrize(("value", "code"), [("maybe", "gwas-option-type"),
                                             ("false\n  fog_of_war: true", "gwas-option-unknown")])
def test_game_options_are_checked_where_written(tmp_path, value, code):
    findings = validate(_pack(tmp_path, plus=value)).findings
    assert [f.code for f in findings] == [code]
    assert findings[0].location.file.endswith("game.yaml") and findings[0].location.line >= 7


# --- the broken and the unusual fixture packs ------------------------------------------------

#: card of tests/fixtures/gwas-broken/cards.yaml -> (code, line, column) of its one finding
BROKEN_AT = {
    "capital-small": ("gwas-counter-capital-small", 10, 14),
    "tegetthoff-wrong": ("gwas-seed-ship", 20, 14),
    "rostock-slow": ("gwas-seed-ship", 30, 12),
    "zenta-2": ("gwas-duplicate-name", 43, 11),
    "leader-ambiguous": ("gwas-leader-flagship-ambiguous", 54, 15),
    "contact-wrong-value": ("gwas-reference-modifier", 60, 16),
    "gunnery-missing-row": ("gwas-reference-modifier", 75, 16),
    "pursuit-extra-row": ("gwas-reference-modifier", 82, 16),
    "submarine-wrong-rule": ("gwas-reference-rule", 91, 11),
    "mtb-stray-number": ("gwas-reference-fact", 98, 11),  # a contact roll of 5: 3-6 (004:115)
    "gunnery-en-value": ("gwas-reference-modifier", 104, 16),
    "contact-en-number": ("gwas-reference-number", 112, 11),
}


@pytest.fixture(scope="module")
def broken_findings():
    return validate(BROKEN).findings


def test_each_broken_fixture_card_raises_its_code_at_its_line_and_column(broken_findings):
    found = {f.card: (f.code, f.location.line, f.location.column) for f in broken_findings}
    assert len(found) == len(broken_findings), [f.as_text() for f in broken_findings]
    assert found == BROKEN_AT
    assert all(f.location.file.endswith("cards.yaml") and _seed_cited(f.message)
               for f in broken_findings)


def test_values_a_translation_changes_are_reported_with_its_locale(broken_findings):
    by_card = {f.card: f for f in broken_findings}
    assert by_card["gunnery-en-value"].locale == "en"
    assert "'Short range +2'" in by_card["gunnery-en-value"].message
    assert by_card["contact-en-number"].locale == "en"
    assert "[5, 6]" in by_card["contact-en-number"].message
    assert {f.card for f in broken_findings if f.locale} == {"gunnery-en-value",
                                                              "contact-en-number"}


def test_legal_but_unusual_cards_raise_nothing():
    """Non-combat classes with guns, a capital ship's ally as flagship, counter overrides, the
    seeds' own ships with accents, reference rows in another order or left out entirely..."""
    checked = validate(UNUSUAL)
    assert [f.as_text() for f in checked.findings] == []
    assert len(checked.card_set.cards) == 28


def test_a_language_without_row_words_is_compared_row_by_row(tmp_path):
    """The tables know the rows' words in ru and en only; in another source language the rows
    are read in the seeds' order."""
    game = GAME.format(plus="false").replace("source_locale: ru", "source_locale: de")
    table = r"Sturm −2\nSchwerer Sturm −1\nKlar +1\nFührer +1\nÜber 20 Schiffe +1\n" \
            r"Nur AY, DD, TB −1\nAbfangen +2\nKaperfahrt ±1\nLuftschiff +2"
    good = f"  - {{id: c, kind: reference, procedure: contact, title: K, modifiers: \"{table}\"}}\n"
    assert [f.code for f in validate(_pack(tmp_path / "a", good, game=game)).findings] == []
    swapped = good.replace("Sturm −2", "Sturm −1").replace("Schwerer Sturm −1",
                                                            "Schwerer Sturm −2")
    findings = validate(_pack(tmp_path / "b", swapped, game=game)).findings
    assert [f.code for f in findings] == ["gwas-reference-modifier"] * 2
    short = good.replace(r"\nLuftschiff +2", "")
    (finding,) = validate(_pack(tmp_path / "c", short, game=game)).findings
    assert "8 modifier line(s); the seeds give 9" in finding.message


# --- the third audit (issue 27): a defect and a legal but unusual twin per class -------------

#: bad card of tests/fixtures/gwas-audit3/cards.yaml -> its findings (code, line, column,
#: locale); every ok- card of the file raises nothing
AUDIT_AT = {
    # numbers bound to their facts: the same numbers in swapped places (003:284, 004:21,
    # 003:329, 004:9 and 004:41); both numbers of a swap are wrong
    "bad-contact-day-night": {("gwas-reference-fact", 10, 11, None)},
    "bad-asw-before-after": {("gwas-reference-fact", 22, 11, None)},
    "bad-gunnery-italic": {("gwas-reference-fact", 34, 11, None)},
    "bad-submarine-ace": {("gwas-reference-fact", 46, 11, None)},
    # a modifier row whose comparison or condition changed, its value kept (003:307, 004:29)
    "bad-contact-comparison": {("gwas-reference-condition", 59, 16, None)},
    "bad-submarine-transport": {("gwas-reference-condition", 89, 16, None)},
    # a rule number on the class table, which the seeds do not number (003:228)
    "bad-classes-rule": {("gwas-reference-rule", 109, 11, None)},
    # a text citing 5.44 for the unmodified 6 of 5.41
    "bad-contact-cites": {("gwas-reference-cited-rule", 122, 11, None)},
    # Rostock of the seed's example sails for the Triple Alliance (003:240)
    "bad-rostock-side": {("gwas-seed-ship", 142, 13, None)},
    # a translation that prints the source's numbers with day and night swapped
    "bad-contact-en-swap": {("gwas-reference-fact", 159, 11, "en")},
}


@pytest.fixture(scope="module")
def audit_findings():
    return validate(AUDIT).findings


def test_each_audit_defect_is_found_at_its_card_and_line_and_its_twin_is_clean(audit_findings):
    ids = {card["id"] for card in _yaml_cards(AUDIT / "cards.yaml")}
    found: dict[str, set[tuple[str, int, int, str | None]]] = {}
    for finding in audit_findings:
        assert finding.card in ids and finding.card.startswith("bad-"), finding.as_text()
        assert finding.location.file.endswith("cards.yaml") and _seed_cited(finding.message)
        found.setdefault(finding.card, set()).add(
            (finding.code, finding.location.line, finding.location.column, finding.locale))
    assert found == AUDIT_AT
    assert {card for card in ids if card.startswith("bad-")} == set(AUDIT_AT)
    assert len([card for card in ids if card.startswith("ok-")]) == 10


def test_a_swap_reports_each_number_with_the_fact_it_should_be(audit_findings):
    day, night = sorted((f for f in audit_findings if f.card == "bad-contact-day-night"),
                        key=lambda f: f.message)
    assert "prints 6; the seeds give contact by day 4-6" in day.message
    assert "prints 4; the seeds give contact by night 6" in night.message
    (comparison,) = [f for f in audit_findings if f.card == "bad-contact-comparison"]
    assert "'or more' where the seeds say 'more than'" in comparison.message


def test_reference_numbers_are_bound_to_facts_in_digits_and_words():
    from generator.games.gwas.tables import PROCEDURES
    from generator.rules.textfacts import bind

    contact = PROCEDURES["contact"].bound
    bound = {b.run.values: b.facts[0].key for b in bind(
        "Контакт днём на 4 и больше, ночью на 6 и больше.", contact, "ru")}
    assert bound == {(4,): "day", (6,): "night"}
    submarine = PROCEDURES["submarine"].bound
    (three,) = [b for b in bind("за каждые три своих DD", submarine, "ru")]
    assert three.run.values == (3,) and three.facts[0].key == "asw-ships"
    (run,) = [b.run.values for b in bind("на 4, 5 или 6", (), "ru")]
    assert run == (4, 5, 6)


def _yaml_cards(path: Path) -> list[dict]:
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]


def _seed_lines(refs: str) -> set[str]:
    """"003:298-311, 004:9" -> {"003:298-311", "004:9"}."""
    return set(re.findall(r"00[34]:\d+(?:-\d+)?", refs))


def test_the_docs_give_each_code_the_registry_severity_and_seed_lines():
    lines_of: dict[str, set[str]] = {}
    for seed, codes, severity in doc_rule_rows(DOCS, "gwas-"):
        for code in codes:
            assert severity == CHECKS[code].severity.name[0], (code, severity)
            lines_of.setdefault(code, set()).update(_seed_lines(seed))
    assert set(lines_of) == set(CHECKS)
    for code, check in CHECKS.items():
        assert _seed_lines(check.rule) <= lines_of[code], code


@pytest.mark.parametrize(("seed", "last"), [("003", 353), ("004", 157)])
def test_the_coverage_tables_account_for_every_seed_line_once(seed, last):
    assert last_covered_line(DOCS, f"## Every line of seed {seed}", f"{seed}:") == last
    for folder in (ROOT.parent, ROOT.parent.parent):  # main checkout or a worktree
        seed_file = folder / "shared" / "seeds" / SEED_FILES[seed]
        if seed_file.is_file():  # the seeds sit beside the repository on the team's machine
            assert len(seed_file.read_text(encoding="utf-8").splitlines()) == last


def _expansion(tmp_path: Path, cards: str) -> Path:
    game = GAME.format(plus="false").replace("pack: gwas-test", "pack: gwas-more") \
        .replace("set_mark: test", "set_mark: more\nextends: gwas-test")
    return write_pack(tmp_path / "more", {"more.yaml": "cards:\n" + cards}, game)


def test_a_ship_name_reused_by_an_expansion_is_one_finding_and_makes_a_flagship_ambiguous(
        tmp_path):
    """Accent-blind, as a player reads the sheet: the game's finding replaces the generic
    name-reused-across-packs at the same place, and a leader naming the ship sits on no one
    ship."""
    base = _pack(tmp_path, "- {id: zrinyi, kind: ship, name: Zrínyi, class: B, group: capital, "
                           "nation: AH, gunnery: 4-4-1, speed: \"1\"}\n")
    more = _expansion(tmp_path, "  - {id: zrinyi-2, kind: ship, name: ZRINYI, class: B, "
                                "group: capital, nation: AH, gunnery: 4-3-1, speed: \"1\"}\n"
                                "  - {id: admiral, kind: leader, name: Адмирал, nation: AH, "
                                "flagship: Zrinyi}\n")
    findings = sorted(validate(base, (more,)).findings, key=lambda f: f.location.line)
    assert [(f.code, f.card, f.location.line) for f in findings] == [
        ("gwas-duplicate-name", "zrinyi-2", 2), ("gwas-leader-flagship-ambiguous", "admiral", 3)]
    assert "of pack 'gwas-test'" in findings[0].message


def test_a_reprint_in_an_expansion_is_the_same_ship(tmp_path):
    base = _pack(tmp_path)
    more = _expansion(tmp_path, "  - {id: ah-bb-again, kind: ship, name: Alpha, class: BB, "
                                "group: capital, nation: AH, gunnery: 8-3-1, speed: \"1\"}\n"
                                "  - {id: admiral, kind: leader, name: Адмирал, nation: AH, "
                                "flagship: Alpha}\n")
    assert [f.as_text() for f in validate(base, (more,)).findings] == []


def test_every_check_has_a_test_and_a_row_in_the_docs():
    tested = set(BAD_CARDS) | {"gwas-reference-missing", "gwas-option-type",
                               "gwas-option-unknown", "gwas-side-without-counters"} | \
        {code for code, _, _ in BROKEN_AT.values()} | \
        {code for found in AUDIT_AT.values() for code, _, _, _ in found}
    assert tested == set(CHECKS)
    documented = set(re.findall(r"`(gwas-[a-z0-9-]+)`", DOCS.read_text(encoding="utf-8")))
    assert documented == set(CHECKS)


def test_findings_carry_file_line_column_and_card_in_json(tmp_path):
    text, _ = BAD_CARDS["gwas-mtb-torpedoes"]
    pack = _pack(tmp_path, text)
    result = run_pnp("validate", str(pack), "--format", "json")
    assert result.returncode == 1
    (finding,) = json.loads(result.stdout)["findings"]
    assert finding["code"] == "gwas-mtb-torpedoes" and finding["card"] == "bad"
    assert finding["file"].endswith("broken.yaml") and finding["line"] == 2
    assert finding["column"] > 1 and "004_14f2668eed850117.txt:121" in finding["message"]


# --- fleet counters on their own double-sided sheets ----------------------------------------


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> dict[tuple[str, str, str], Path]:
    out = tmp_path_factory.mktemp("gwas")
    result = {}
    for locale, paper, duplex in (("ru", "a4", "long"), ("en", "letter", "short"),
                                  ("ru", "letter", "long"), ("en", "a4", "short")):
        built = build(GWAS, (), locale, SheetOptions(paper=paper, duplex=duplex),
                      out / f"{paper}-{duplex}")
        assert built.out_dir is not None, [f.as_text() for f in built.findings]
        assert [f.as_text() for f in built.findings] == []
        result[(locale, paper, duplex)] = built.out_dir
    return result


def _manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def _counter_pages(doc: dict, side: str) -> list[dict]:
    return [p for p in doc["pages"] if p["side"] == side
            and p["cards"] and p["cards"][0]["id"].startswith("fleet-")]


@pytest.mark.parametrize(("paper", "grid"), [("a4", (14, 21)), ("letter", (15, 20))])
def test_counter_grid_is_sensible_with_room_for_crop_marks(paper, grid):
    options = SheetOptions(paper=paper)
    counters = compute_grid(options, COUNTER_SIZE)
    assert (counters.cols, counters.rows) == grid
    width, height = PAPERS[paper]
    room = options.margin_mm + options.bleed_mm + 0.5 + 5.0
    assert room <= counters.x0 and room <= counters.y0
    assert counters.x0 + counters.width <= width - room + 1e-9
    assert counters.y0 + counters.height <= height - room + 1e-9
    poker = compute_grid(options, validate(GWAS).card_set.base.manifest.card_size)
    assert (poker.cols, poker.rows) == (3, 3)


@pytest.mark.parametrize("key", [("ru", "a4", "long"), ("en", "letter", "short"),
                                 ("ru", "letter", "long"), ("en", "a4", "short")])
def test_counters_sit_on_their_own_sheet_and_backs_mirror_them(builds, key):
    doc = _manifest(builds[key])
    width, height = doc["paper"]["width_mm"], doc["paper"]["height_mm"]
    (front,) = _counter_pages(doc, "front")
    (back,) = _counter_pages(doc, "back")
    assert front["sheet"] == back["sheet"]
    assert {c["id"].split("-")[0] for c in front["cards"]} == {"fleet"}
    assert len(front["cards"]) == 18
    assert all(c["w_mm"] == c["h_mm"] == 12.7 for c in front["cards"] + back["cards"])
    x0, y0 = front["grid"]["x0_mm"], front["grid"]["y0_mm"]
    for card in front["cards"]:  # on the grid: whole multiples of 12.7 mm from its origin
        assert (card["x_mm"] - x0) / 12.7 == pytest.approx(round((card["x_mm"] - x0) / 12.7))
        assert (card["y_mm"] - y0) / 12.7 == pytest.approx(round((card["y_mm"] - y0) / 12.7))
    backs = {c["id"]: c for c in back["cards"]}
    for card in front["cards"]:
        mirrored = backs[card["id"]]
        if doc["duplex"] == "long":
            assert mirrored["x_mm"] == pytest.approx(width - card["x_mm"] - 12.7, abs=1e-3)
            assert mirrored["y_mm"] == pytest.approx(card["y_mm"], abs=1e-3)
        else:
            assert mirrored["x_mm"] == pytest.approx(card["x_mm"], abs=1e-3)
            assert mirrored["y_mm"] == pytest.approx(height - card["y_mm"] - 12.7, abs=1e-3)
        assert card["face"] == "counter" and mirrored["face"] == "counter-back"
    other = [p for p in doc["pages"] if p["side"] == "front" and p not in [front]]
    assert all(c["w_mm"] == 63.5 for p in other for c in p["cards"])


@pytest.mark.parametrize("key", [("ru", "a4", "long"), ("en", "letter", "short")])
def test_counter_sheet_has_cut_lines_and_crop_marks_clear_of_label_and_targets(builds, key):
    doc = _manifest(builds[key])
    (front,) = _counter_pages(doc, "front")
    x0, y0 = front["grid"]["x0_mm"], front["grid"]["y0_mm"]
    pt = 72 / 25.4
    with open_pdf(builds[key] / "fronts.pdf") as pages:
        lines = pages[front["index"] - 1].lines
    verticals = [ln for ln in lines if abs(ln.x0 - ln.x1) < 0.01]
    cut = {round(ln.x0 / pt - x0, 2) for ln in verticals if ln.linewidth < 0.3}
    assert {round(12.7 * i, 2) for i in range(front["grid"]["cols"] + 1)} <= cut
    grid_bottom = y0 + 12.7 * front["grid"]["rows"]
    crop = [ln for ln in verticals if ln.linewidth >= 0.5
            and (ln.bottom / pt < y0 or ln.top / pt > grid_bottom)]
    assert len(crop) >= front["grid"]["cols"] + 1
    assert all(ln.bottom - ln.top >= 4.9 * pt for ln in crop)
    targets = _registration_boxes(SheetOptions(paper=doc["paper"]["name"]))
    for ln in lines:
        if ln.linewidth < 0.5:
            continue
        x1, x2 = ln.x0 / pt, ln.x1 / pt
        y1, y2 = ln.top / pt, ln.bottom / pt
        for tx, ty, tw, th in targets:
            crosses_target = x1 <= tx + tw and x2 >= tx and y1 <= ty + th and y2 >= ty
            is_target = tx - 0.1 <= x1 and x2 <= tx + tw + 0.1
            assert not crosses_target or is_target


def test_airships_share_one_back_so_they_can_be_drawn_blind(builds):
    doc = _manifest(builds[("ru", "a4", "long")])
    faces = {c["id"]: c["face"] for p in doc["pages"] if p["side"] == "back" for c in p["cards"]}
    assert faces["citta-di-ferrara"] == faces["citta-di-jesi"] == "back-airship"
    assert faces["u-5"] == "back-alliance" and faces["nereide"] == "back-entente"


# --- what the printed sheets say -------------------------------------------------------------

EXPECTED_TEXTS = {
    "ru": ["Viribus Unitis", "Линкор-дредноут", "Тройственный союз", "Проверка контакта",
           "Итальянская доблесть", "Флагман: Conte di Cavour", "ФЛОТ", "Классы кораблей",
           "Курсив: попадание 5–6"],
    "en": ["Viribus Unitis", "Dreadnought battleship", "Triple Alliance", "Contact",
           "Italian valour", "Flagship: Conte di Cavour", "FLEET", "Ship classes",
           "Italics: hits on 5–6"],
}


@pytest.mark.parametrize("key", [("ru", "a4", "long"), ("en", "letter", "short")])
def test_pdfs_carry_the_texts_of_their_language(builds, key):
    locale = key[0]
    text = pdf_text(builds[key] / "fronts.pdf")
    for expected in EXPECTED_TEXTS[locale]:
        assert expected in text, expected
    other = EXPECTED_TEXTS["en" if locale == "ru" else "ru"]
    assert other[1] not in text  # the class name of the other language
