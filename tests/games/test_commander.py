"""Путь Командора: the shipped pack validates clean and prints in ru and en; each card rule,
notation and deck rule fires on a card or deck built to break it, and only there."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import ROOT, SHIP, doc_rule_rows, last_covered_line, run_pnp, write_pack
from pdfread import open_pdf, pdf_text

from generator.games import get_game
from generator.games.commander import notation
from generator.games.commander.faces import keyword_lines
from generator.games.commander.model import Ability, Ship
from generator.games.commander.rules import CHECKS
from generator.games.commander.widgets import serial
from generator.i18n.localize import source_labels
from generator.impose.sheets import SheetOptions
from generator.layout.faces import lay_out_cards
from generator.layout.ops import Text
from generator.layout.textfit import fit_text
from generator.model.deck import load_deck
from generator.pipeline.build import build
from generator.pipeline.localecheck import localizer_for
from generator.pipeline.validate import validate

COMMANDER = ROOT / "cards" / "commander"
BROKEN = ROOT / "tests" / "fixtures" / "commander-broken"
UNUSUAL = ROOT / "tests" / "fixtures" / "commander-unusual"
AUDIT = ROOT / "tests" / "fixtures" / "commander-audit3"
BOOSTER = ROOT / "tests" / "fixtures" / "commander-audit3-booster"
GAME = get_game("commander")

# --- the shipped pack -----------------------------------------------------------------------


def test_the_pack_validates_clean_in_both_languages_and_fast(slow_schema_checks, tmp_path):
    result = run_pnp("validate", str(COMMANDER), "--locale", "en", "--locale", "ru", "--strict",
                     "--format", "json")
    assert result.returncode == 0, result.stdout
    document = json.loads(result.stdout)
    assert document["findings"] == []
    assert document["summary"]["cards"] == 71
    validate(COMMANDER)  # fast: no clean card goes to jsonschema (timing lives in bench/)
    assert slow_schema_checks == []
    validate(write_pack(tmp_path, {"ships.yaml": "cards:\n" + SHIP.format(id="x").replace(
        "points: 4", "points: many")}))
    assert slow_schema_checks, "a card the schema rejects is explained by jsonschema"


def test_the_pack_has_every_kind_sixty_cards_and_the_three_commanders():
    cards = validate(COMMANDER).card_set.cards
    kinds = {card.kind for card in cards}
    assert kinds == set(GAME.kinds)
    assert len([c for c in cards if c.kind != "commander"]) >= 60
    commanders = {c.name for c in cards if c.kind == "commander"}
    assert commanders == {"Пират", "Торговец", "Прокуратор"}
    assert all(c.victory for c in cards if c.kind == "commander")
    abilities = [c for c in cards if isinstance(c, Ability)]
    assert all(len(a.variants) == 2 for a in abilities) and any(a.special for a in abilities)


def test_english_is_complete():
    result = run_pnp("i18n", "status", str(COMMANDER), "--format", "json")
    assert result.returncode == 0, result.stderr
    [english] = json.loads(result.stdout)["locales"]
    assert (english["locale"], english["missing"], english["fuzzy"], english["percent"]) == \
        ("en", 0, 0, 100.0)


@pytest.mark.parametrize("deck", ["pirat", "torgovets", "prokurator"])
def test_each_shipped_deck_is_legal(deck):
    result = run_pnp("validate", str(COMMANDER), "--deck", f"decks/{deck}.yaml")
    assert result.returncode == 0, result.stdout
    assert "0 error(s), 0 warning(s)" in result.stdout


def test_the_print_run_holds_all_three_starter_decks():
    card_set = validate(COMMANDER).card_set
    needed: dict[str, int] = defaultdict(int)
    for path in sorted((COMMANDER / "decks").glob("*.yaml")):
        deck, problems = load_deck(path, str(path), card_set, (GAME.schema_package,
                                                               GAME.deck_schema))
        assert problems == []
        for entry in deck.entries:
            needed[entry.card.id] += entry.count
    for card in card_set.cards:
        assert card.count >= needed[card.id], card.id


# --- card rules and notations: one defect per card ----------------------------------------

EXPECTED = {
    "good-ship": set(),
    "latin-size": {("commander-wrong-script", 23, 11)},
    "unknown-size": {("commander-size", 37, 11)},
    "latin-crew": {("commander-wrong-script", 57, 11)},
    "unknown-crew": {("commander-crew-quality", 71, 11)},
    "crew-without-quality": {("commander-crew-quality-missing", 85, 16)},
    "latin-shield": {("commander-wrong-script", 100, 13)},
    "bad-shield": {("commander-energy-notation", 115, 13)},
    "hull-without-critical": {("commander-hull-notation", 125, 11)},
    "hull-slash": {("commander-hull-notation", 139, 11)},
    "critical-not-below": {("commander-critical-damage", 153, 11)},
    "lasers-dash": {("commander-lasers-notation", 172, 13)},
    "rockets-slash": {("commander-salvo-notation", 187, 14)},
    "torpedoes-en-dash": {("commander-salvo-notation", 203, 16)},
    "rockets-no-range": {("commander-rocket-range", 218, 14)},
    "latin-rocket-range": {("commander-wrong-script", 234, 19)},
    "unknown-rocket-range": {("commander-rocket-range", 250, 19)},
    "mazer-no-shield": {("commander-mazer-without-shield", 265, 12)},
    "mazer-other-type": {("commander-mazer-type", 281, 12)},
    "proper-name-light": {("commander-proper-name-not-allowed", 296, 23)},
    "no-proper-name-heavy": {("commander-proper-name-missing", 311, 23)},
    "d6-in-text": {("commander-d6-notation", 326, 11)},
    "moving-station": {("commander-speed-not-zero", 336, 12)},
    "station-without-hull": {("commander-station-hull", 343, 18)},
    "planet-with-hull": {("commander-hull-not-station", 353, 11)},
    "moving-building": {("commander-speed-not-zero", 362, 12)},
    "tactical-free": {("commander-tactical-cost", 364, 5)},
    "d6-seven": {("commander-d6-notation", 377, 9)},
    "d6-one": {("commander-d6-notation", 385, 9)},
    "cyrillic-die": {("commander-wrong-script", 393, 9)},
    "situation-free": {("commander-situation-cost", 396, 5)},
    "situation-two-costs": {("commander-situation-cost-choice", 409, 12)},
    "ability-three-variants": {("commander-ability-variants", 418, 7)},
    "ability-one-variant": {("commander-ability-variants", 428, 7)},
    "ship-cost-zero": {("commander-cost-zero", 437, 11)},
    "upgrade-cost-zero": {("commander-cost-zero", 450, 11)},
    "tactical-chips-zero": {("commander-cost-zero", 458, 12)},
    "situation-resources-zero": {("commander-cost-zero", 466, 16)},
    "critical-zero": {("commander-critical-damage", 477, 11)},
    "ability-same-variants": {("commander-ability-variants-same", 489, 7)},
    "ability-blank-variant": {("commander-ability-variants", 498, 7)},
    "tactical-blank-text": {("commander-text-missing", 507, 11)},
    "upgrade-blank-text": {("commander-text-missing", 516, 11)},
    "commander-blank": {("commander-text-missing", 524, 11)},
    "smuggler-without-run": {("commander-property-requires", 539, 17)},
    "crew-quality-no-crew": {("commander-crew-quality-no-crew", 552, 11)},
    "trader-no-yield": {("commander-commercial-run-yield", 569, 11)},
    "amount-in-words": {("commander-amount-in-words", 578, 11)},
    "pirate-as-trader": {("commander-archetype", 585, 16)},
    "procurator-wrong-number": {("commander-victory-value", 597, 14)},
    "victory-en-wrong": {("commander-victory-value", 607, 14)},
}


@pytest.fixture(scope="module")
def broken_findings():
    return validate(BROKEN).findings


def test_each_broken_card_raises_exactly_its_codes_at_their_line_and_column(broken_findings):
    found: dict[str, set[tuple[str, int, int]]] = {card: set() for card in EXPECTED}
    for finding in broken_findings:
        assert finding.card in found, finding.as_text()
        found[finding.card].add((finding.code, finding.location.line, finding.location.column))
    assert found == EXPECTED


def test_every_card_check_has_a_broken_card():
    fired = {code for expected in (*EXPECTED.values(), *AUDIT_AT.values())
             for code, _, _ in expected}
    card_checks = {code for code, check in CHECKS.items() if check.level == "card"}
    assert card_checks <= fired


def test_a_wrong_number_in_a_translation_names_its_locale(broken_findings):
    (finding,) = [f for f in broken_findings if f.card == "victory-en-wrong"]
    assert finding.locale == "en" and "60" in finding.message and "70" in finding.message
    assert all(f.locale is None for f in broken_findings if f.card != "victory-en-wrong")


def test_legal_but_unusual_cards_raise_nothing():
    """Cards a too-strict validator would flag: no crew, speed 0, an escort without a run, a
    Latin designation in a name, a D6-only price, a text that overrides a rule..."""
    checked = validate(UNUSUAL)
    assert [f.as_text() for f in checked.findings] == []
    assert len(checked.card_set.cards) == 26


def test_every_finding_points_at_file_line_column_and_a_rule_line(broken_findings):
    for finding in broken_findings:
        assert finding.code.startswith("commander-")
        assert finding.location.file.endswith("cards.yaml")
        assert finding.location.line > 0 and finding.location.column > 0
        assert re.search(r"\(rules L\d+", finding.message), finding.message


# --- the third audit (issue 27): a defect and a legal but unusual twin per class -------------

#: bad card of tests/fixtures/commander-audit3/cards.yaml -> its findings (code, line, column);
#: every ok- and filler- card raises nothing
AUDIT_AT = {
    "bad-d6-no-plus": {("commander-d6-notation", 10, 11)},  # "D6 4" in the text (L56)
    "bad-tactical-no-moment": {("commander-tactical-moment", 26, 11)},  # L98
    "bad-crew-no-size": {("commander-crew-size-missing", 45, 11)},  # a station's crew (L86, L257)
    "bad-station-critical": {("commander-critical-damage-not-ship", 68, 11)},  # L213
    "bad-building-critical": {("commander-critical-damage-not-ship", 77, 11)},  # L197
    "bad-civil-critical": {("commander-critical-damage-not-ship", 87, 11)},  # L205
    "bad-planet-crew": {("commander-field-unused", 109, 11), ("commander-field-unused", 110, 16)},
    "bad-building-landing": {("commander-field-unused", 119, 14)},  # L265
    "bad-vega-quotes": {("commander-name-shared", 152, 11)},  # «Вега» and “Вега” (L45)
    "bad-chimera-cost": {("commander-example-ship", 183, 11)},  # the example's 10 (L279)
}


def test_each_audit_defect_is_found_at_its_line_and_its_twin_is_clean():
    import yaml

    findings = validate(AUDIT).findings
    found: dict[str, set[tuple[str, int, int]]] = {}
    for finding in findings:
        assert finding.location.file.endswith("cards.yaml"), finding.as_text()
        assert re.search(r"\(rules L\d+", finding.message), finding.message
        found.setdefault(finding.card, set()).add(
            (finding.code, finding.location.line, finding.location.column))
    assert found == AUDIT_AT
    ids = [c["id"] for c in yaml.safe_load((AUDIT / "cards.yaml").read_text())["cards"]]
    assert {card for card in ids if card.startswith("bad-")} == set(AUDIT_AT)
    assert len([card for card in ids if card.startswith("ok-")]) == 8


def test_names_in_other_quote_marks_count_together_in_a_deck():
    """L45: at most 4 cards of one name; «Вега» and “Вега” print one name."""
    card_set = validate(AUDIT).card_set
    path = AUDIT / "decks" / "quotes.yaml"
    deck, problems = load_deck(path, str(path), card_set, (GAME.schema_package,
                                                           GAME.deck_schema))
    assert problems == [] and deck is not None
    (finding,) = GAME.check_deck(deck, card_set)
    assert finding.code == "commander-deck-copies" and finding.severity == "error"
    assert (finding.location.line, finding.card) == (6, "bad-vega-quotes")
    assert "5" in finding.message


def test_a_booster_without_release_size_is_legal_and_prints_its_number_alone():
    checked = validate(COMMANDER, (BOOSTER,))
    assert [f.as_text() for f in checked.findings] == []
    assert serial(1, {}) == "001"


def _message(findings, card):
    return next(f.message for f in findings if f.card == card)


def test_latin_look_alikes_name_both_code_points(broken_findings):
    size = _message(broken_findings, "latin-size")
    assert "Latin 'C' (U+0043)" in size and "Cyrillic 'С' (U+0421)" in size
    assert "write 'СК'" in size
    shield = _message(broken_findings, "latin-shield")
    assert "U+0043" in shield and "U+0421" in shield and "write 'С3'" in shield
    assert "U+0412" in _message(broken_findings, "latin-crew")
    assert "U+041C" in _message(broken_findings, "latin-rocket-range")
    die = _message(broken_findings, "cyrillic-die")
    assert "Cyrillic 'Д' (U+0414)" in die and "Latin capital 'D' (U+0044)" in die


def test_an_en_dash_in_a_salvo_is_named(broken_findings):
    assert "U+2013" in _message(broken_findings, "torpedoes-en-dash")


def test_severity_follows_the_wording(broken_findings):
    """Definitions and "must"/"only" are errors (the proper-name line "is" on СК/ТК ships, L323);
    advice and readings of an ambiguous "or" are warnings that do not block a build."""
    by_card = {f.card: f.severity for f in broken_findings}
    assert by_card["no-proper-name-heavy"] == "error"
    assert {by_card[card] for card in ("planet-with-hull", "situation-two-costs",
                                       "crew-quality-no-crew", "trader-no-yield",
                                       "amount-in-words")} == {"warning"}


@pytest.mark.parametrize(("written", "parsed"), [
    ("8(5)", notation.Hull(8, 5)), (" 12 ( 8 ) ", notation.Hull(12, 8)),
    ("9", notation.Hull(9, None)),
])
def test_hull_notation_parses(written, parsed):
    assert notation.hull(written) == parsed


def test_notations_parse_the_rules_examples():
    assert notation.lasers("2/4") == notation.Lasers(2, 4)
    assert notation.lasers("4") == notation.Lasers(1, 4)
    assert notation.salvo("6-4", "rockets") == notation.Salvo(6, 4)
    assert notation.salvo("4-8", "torpedoes") == notation.Salvo(4, 8)
    assert notation.energy("С3", "shield") == notation.Energy("С", 3)
    assert [notation.d6(f"D6 {n}+") for n in range(2, 7)] == [2, 3, 4, 5, 6]
    assert notation.letter_code("ТК", ("ЛК", "СК", "ТК"), "size") is None


# --- release: serial numbers and names -----------------------------------------------------

GAME_YAML = """\
pack: tiny
game: commander
name: Tiny
source_locale: ru
set_mark: commander
{options}
"""


def _ground(card_id: str, number: int, name: str | None = None) -> str:
    return (f"  - {{id: {card_id}, kind: ground_unit, number: {number}, rarity: common, "
            f"name: {name or card_id}, cost: 1, strength: 2}}\n")


def release_codes(tmp_path: Path, cards: str, options: str) -> list[str]:
    pack = write_pack(tmp_path / "tiny", {"cards.yaml": "cards:\n" + cards},
                      GAME_YAML.format(options=options))
    return sorted(f.code for f in validate(pack).findings)


def test_release_numbers(tmp_path):
    size = "options: {release_size: 2}"
    assert release_codes(tmp_path, _ground("a", 1) + _ground("b", 2), size) == []
    assert release_codes(tmp_path, _ground("a", 1) + _ground("b", 1), size) == \
        ["commander-serial-duplicate", "commander-serial-gap"]
    assert release_codes(tmp_path, _ground("a", 1) + _ground("b", 3), size) == \
        ["commander-serial-gap", "commander-serial-total"]
    assert release_codes(tmp_path, _ground("a", 1), size) == ["commander-serial-total"]
    # no release_size: each card prints its number alone, which is all L319 asks
    assert release_codes(tmp_path, _ground("a", 1) + _ground("b", 3), "") == []


def test_two_cards_of_one_name_are_flagged(tmp_path):
    cards = _ground("a", 1, "Ополчение") + _ground("b", 2, "ополчение ")
    assert release_codes(tmp_path, cards, "options: {release_size: 2}") == \
        ["commander-name-shared"]


TACTICAL = "  - {{id: {id}, kind: tactical, number: 1, rarity: common, name: {name}, chips: 1, " \
           "text: Играйте в любой момент.}}\n"


@pytest.mark.parametrize("reused", [
    _ground("b", 1, "ополченные"),  # ё as е, and case: the generic check sees two names
    _ground("b", 1, "Ополчённые").replace("strength: 2", "strength: 3"),  # same kind
    TACTICAL.format(id="b", name="Ополчённые"),  # another kind: the generic check compares
])                                               # names within a kind, the deck limit does not
def test_a_name_reused_by_an_expansion_is_flagged_once_where_the_expansion_writes_it(
        tmp_path, reused):
    """The deck limit counts a base card and an expansion card of one name together (L45), and
    compares names as a player reads them: ё as е, case and spacing aside, whatever the kind."""
    size = "options: {release_size: 1}"
    base = write_pack(tmp_path / "tiny", {"cards.yaml": "cards:\n" + _ground(
        "a", 1, "Ополчённые")}, GAME_YAML.format(options=size))
    expansion_yaml = GAME_YAML.format(options=size).replace("pack: tiny", "pack: more") \
        .replace("set_mark: commander", "set_mark: more\nextends: tiny")
    expansion = write_pack(tmp_path / "more", {"cards.yaml": "cards:\n" + reused},
                           expansion_yaml)
    findings = validate(base, (expansion,)).findings
    # the game's finding replaces the generic name-reused-across-packs at the same place
    name_column = reused.index("name: ") + len("name: ") + 1
    assert [(f.code, f.card, f.location.line, f.location.column) for f in findings] == [
        ("commander-name-shared", "b", 2, name_column)]
    assert "pack 'tiny'" in findings[0].message


def test_serial_prints_number_and_release_size():
    assert serial(17, {"release_size": 64}) == "017/064"
    assert serial(5, {"release_size": 1200}) == "0005/1200"
    assert serial(5, {}) == "005"


# --- deck rules ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def commander_set():
    return validate(COMMANDER).card_set


def deck_codes(tmp_path: Path, card_set, text: str) -> list[tuple[str, str | None]]:
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    deck, problems = load_deck(path, str(path), card_set, (GAME.schema_package,
                                                           GAME.deck_schema))
    findings = problems + (GAME.check_deck(deck, card_set) if deck else [])
    return sorted((f.code, f.card) for f in findings)


FORTY = "\n".join(f"  - {{card: {cid}, count: 4}}" for cid in (
    "osa", "klinok", "strazh", "bastion", "pilgrim", "karavan", "agrarnaya-planeta",
    "opolchenie", "kosmoport", "nozhnitsy"))


def test_a_legal_deck_has_no_findings(tmp_path, commander_set):
    text = f"commander: pirat\npreselected_abilities: [master-abordazha]\ncards:\n{FORTY}\n" \
           "  - {card: master-abordazha, count: 1}\n"
    assert deck_codes(tmp_path, commander_set, text) == []


def test_deck_size_40_to_100(tmp_path, commander_set):
    short = "commander: pirat\ncards:\n  - {card: osa, count: 4}\n"
    assert deck_codes(tmp_path, commander_set, short) == [("commander-deck-size", None)]
    ids = [c.id for c in commander_set.cards if c.kind != "commander"][:26]
    long = "commander: pirat\ncards:\n" + "".join(f"  - {{card: {i}, count: 4}}\n" for i in ids)
    assert deck_codes(tmp_path, commander_set, long) == [("commander-deck-size", None)]


def test_at_most_four_cards_of_one_name(tmp_path, commander_set):
    text = f"commander: pirat\ncards:\n{FORTY}\n  - {{card: osa, count: 1}}\n"
    assert deck_codes(tmp_path, commander_set, text) == [("commander-deck-copies", "osa")]


def test_the_commander_is_never_in_the_deck(tmp_path, commander_set):
    text = f"commander: pirat\ncards:\n{FORTY}\n  - {{card: pirat, count: 1}}\n"
    assert deck_codes(tmp_path, commander_set, text) == \
        [("commander-deck-commander-inside", "pirat")]


def test_the_deck_names_a_commander_card(tmp_path, commander_set):
    assert deck_codes(tmp_path, commander_set, f"cards:\n{FORTY}\n") == \
        [("commander-deck-no-commander", None)]
    assert deck_codes(tmp_path, commander_set, f"commander: osa\ncards:\n{FORTY}\n") == \
        [("commander-deck-not-a-commander", "osa")]


def test_special_abilities_are_not_preselected(tmp_path, commander_set):
    text = f"commander: pirat\npreselected_abilities: [piratskiy-kodeks]\ncards:\n{FORTY}\n" \
           "  - {card: piratskiy-kodeks, count: 1}\n"
    assert deck_codes(tmp_path, commander_set, text) == \
        [("commander-preselect-special", "piratskiy-kodeks")]


def test_preselection_limits(tmp_path, commander_set):
    text = ("commander: pirat\npreselected_abilities: [master-abordazha, takticheskiy-geniy, "
            f"torgovye-svyazi, diplomat, osa]\ncards:\n{FORTY}\n"
            "  - {card: master-abordazha, count: 1}\n  - {card: takticheskiy-geniy, count: 1}\n"
            "  - {card: torgovye-svyazi, count: 1}\n")
    assert deck_codes(tmp_path, commander_set, text) == [
        ("commander-preselect-not-ability", "osa"),
        ("commander-preselect-not-in-deck", "diplomat"),
        ("commander-preselect-too-many", None)]


def test_deck_findings_on_the_command_line(tmp_path):
    deck = tmp_path / "bad.yaml"
    deck.write_text("name: Плохая\ncommander: pirat\ncards:\n  - {card: pirat, count: 1}\n",
                    encoding="utf-8")
    result = run_pnp("validate", str(COMMANDER), "--deck", str(deck), "--format", "json")
    assert result.returncode == 1
    findings = {f["code"]: f for f in json.loads(result.stdout)["findings"]}
    assert set(findings) == {"commander-deck-size", "commander-deck-commander-inside"}
    inside = findings["commander-deck-commander-inside"]
    assert (inside["line"], inside["column"], inside["card"]) == (4, 5, "pirat")
    assert "(rules L62, L110)" in inside["message"]


# --- printing --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    out = tmp_path_factory.mktemp("commander-build")
    result = {}
    for locale in ("ru", "en"):
        built = build(COMMANDER, (), locale, SheetOptions(paper="a4"), out, strict=True)
        assert built.out_dir is not None, [f.as_text() for f in built.findings]
        assert built.findings == [], [f.as_text() for f in built.findings]
        result[locale] = built.out_dir
    return result


def test_the_russian_pdf_prints_the_cards(builds):
    text = pdf_text(builds["ru"] / "fronts.pdf")
    for expected in ("Линкор класса «Левиафан»", "Собственное наименование", "014/071",
                     "12(8)", "2/4", "4-4", "ДОПОЛНИТЕЛЬНОЕ УСЛОВИЕ ПОБЕДЫ", "ВАРИАНТ 2",
                     "Специальная: только во время игры".upper(), "КАРТА КОМАНДОРА"):
        assert expected in text, expected
    assert "ПУТЬ" in pdf_text(builds["ru"] / "backs.pdf")


def test_the_english_pdf_prints_the_translation(builds):
    text = pdf_text(builds["en"] / "fronts.pdf")
    for expected in ("Leviathan-class battleship", "Proper name", "Hull", "Crew",
                     "Laser batteries (LB)", "EXTRA VICTORY CONDITION", "Heavy · battleship",
                     "014/071", "COMMANDER CARD"):
        assert expected in text, expected
    for russian in ("Прочность", "Собственное наименование", "Левиафан"):
        assert russian not in text


def _words_in(pdf_path: Path, manifest: dict, card_id: str, box_mm: tuple[float, ...]):
    """Words printed inside ``box_mm`` (x, y, w, h on the card) of the first copy of a card."""
    to_pt = 72 / 25.4
    with open_pdf(pdf_path) as pages:
        for page in manifest["pages"]:
            hit = next((c for c in page["cards"] if c["id"] == card_id), None)
            if hit is None or page["side"] != "front":
                continue
            x0, y0 = (hit["x_mm"] + box_mm[0]) * to_pt, (hit["y_mm"] + box_mm[1]) * to_pt
            x1, y1 = x0 + box_mm[2] * to_pt, y0 + box_mm[3] * to_pt
            words = pages[page["index"] - 1].words()
            return [w.text for w in words if x0 <= w.x0 and w.x1 <= x1
                    and y0 <= w.top and w.bottom <= y1]
    return []


def test_the_tactical_chip_cost_is_in_the_upper_left_corner(builds):
    manifest = json.loads((builds["ru"] / "manifest.json").read_text(encoding="utf-8"))
    fronts = builds["ru"] / "fronts.pdf"
    assert _words_in(fronts, manifest, "zasada", (0, 0, 13, 13)) == ["3"]
    assert _words_in(fronts, manifest, "diversiya", (0, 0, 13, 13)) == ["D6", "5+"]


def test_every_card_prints_rarity_number_and_nothing_under_six_points():
    card_set = validate(COMMANDER).card_set
    for locale in ("ru", "en"):
        faces = lay_out_cards(card_set, GAME, localizer_for(card_set, "commander", locale), 0.0)
        assert faces.findings == []
        for key, layout in faces.layouts.items():
            sizes = [op.size_pt for op in layout.ops if isinstance(op, Text)]
            assert min(sizes) >= 6.0, (key, min(sizes))
            texts = " ".join(op.text for op in layout.ops if isinstance(op, Text))
            if key[0] != "back":
                assert re.search(r"\b\d{3}/071\b", texts), key


def test_widget_labels_fit_at_six_points_in_both_languages():
    """Widgets cannot report overflow, so their fixed labels are checked here."""
    card_set = validate(COMMANDER).card_set
    keys = [key for key in source_labels("commander") if key.startswith("weapon:")]
    for locale in ("ru", "en"):
        label = localizer_for(card_set, "commander", locale).label
        for key in keys:
            assert fit_text(label(key), 57.5 - 4.6 - 14.0 - 1.5, 4.3, "narrow", 8.0,
                            6.0).fits, (locale, key)
        for card in card_set.cards:
            if isinstance(card, Ship):
                words = " · ".join(label(f"prop:{p}") for p in card.properties)
                assert len(keyword_lines(words)) <= 2, (locale, card.id)


def test_the_lost_icons_are_drawn_and_usable_inline():
    """The seed's lost images (L51 turn, L132 resource and action chip) are icon files of the
    game, each drawing on the baseline of the text that names it."""
    from generator.games import get_game

    icons = get_game("commander").icon_painters()
    assert {"turn", "resource", "action-chip", "d6"} <= set(icons)
    for name in ("turn", "resource", "action-chip", "d6"):
        (icon,) = icons[name](0.0, 10.0, 3.0, "#000000")
        assert icon.path.endswith(f"icons/{name}.svg") and icon.y + icon.h == 10.0


# --- documentation ---------------------------------------------------------------------------

DOC = ROOT / "docs" / "rules-commander.md"


def test_the_rules_table_lists_every_check_code():
    doc = DOC.read_text(encoding="utf-8")
    documented = set(re.findall(r"`(commander-[a-z0-9-]+)`", doc))
    assert set(CHECKS) <= documented
    assert documented <= set(CHECKS)


def test_the_docs_give_each_code_the_registry_severity_and_seed_lines():
    lines_of: dict[str, set[str]] = defaultdict(set)
    for seed, codes, severity in doc_rule_rows(DOC, "commander-"):
        for code in codes:
            assert severity == CHECKS[code].severity.name[0], (code, severity)
            lines_of[code] |= set(re.findall(r"L\d+", seed))
    assert set(lines_of) == set(CHECKS)
    for code, check in CHECKS.items():
        assert set(re.findall(r"L\d+", check.rule)) <= lines_of[code], code


def test_the_coverage_table_accounts_for_every_line_of_the_rules_text_once():
    assert last_covered_line(DOC, "## Every line of the rules text", "L") == 431


def test_exported_editor_schemas_accept_the_shipped_card_files(tmp_path):
    import yaml
    from jsonschema import Draft202012Validator

    result = run_pnp("schema", str(COMMANDER), "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    schema = json.loads((tmp_path / "card-file.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    for path in sorted(COMMANDER.glob("0*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert list(validator.iter_errors(data)) == [], path.name


def test_mutated_card_files_end_in_findings_never_in_exceptions(tmp_path):
    """Bad values reach the faces too (validate --locale lays cards out despite rule errors)."""
    import random

    from generator.pipeline.localecheck import check_locale

    broken = validate(BROKEN)
    check_locale(broken.card_set, broken.game, "ru")
    rng = random.Random(2002)
    source = (BROKEN / "cards.yaml").read_text(encoding="utf-8")
    game = (BROKEN / "game.yaml").read_text(encoding="utf-8")
    snippets = ["С", "C", "Д6 ", "(", ")", "/", "-", "–", "0", "99", "''", "[]", "- ", "\n    "]
    for attempt in range(40):
        chars = list(source)
        for _ in range(rng.randint(1, 5)):
            position = rng.randrange(len(chars))
            if rng.random() < 0.6:
                chars[position:position] = list(rng.choice(snippets))
            else:
                del chars[position:position + rng.randint(1, 8)]
        pack = write_pack(tmp_path / f"m{attempt}", {"cards.yaml": "".join(chars)}, game)
        checked = validate(pack)
        if checked.card_set is not None:
            check_locale(checked.card_set, checked.game, "ru")


def test_the_proper_name_line_is_on_medium_and_heavy_ships_and_space_objects_only():
    card_set = validate(COMMANDER).card_set
    localizer = localizer_for(card_set, "commander", "ru")
    faces = lay_out_cards(card_set, GAME, localizer, 0.0)
    for card in card_set.cards:
        layout = faces.layouts[faces.fronts[card.id]]
        shown = any(isinstance(op, Text) and op.text == "Собственное наименование"
                    for op in layout.ops)
        expected = card.kind == "space_object" or (isinstance(card, Ship)
                                                   and card.size in ("СК", "ТК"))
        assert shown == expected, card.id
