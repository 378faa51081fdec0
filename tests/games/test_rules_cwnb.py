"""CWNB rules validator: every broken fixture card yields exactly its code, the shipped packs are
clean, and the set-level and cross-checks fire on small decks built for each case."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import CWNB, ROOT, run_pnp, write_pack
from msgspec.structs import replace

from generator.core.findings import Finding, Severity
from generator.core.location import Location
from generator.games.cwnb import playrules
from generator.games.cwnb.model import Ship
from generator.games.cwnb.rules import CHECKS, check_cards
from generator.games.cwnb.rules.cross import summary_gaps
from generator.games.cwnb.rules.deck import Deck
from generator.model.cards import CardSet, CardSize, Manifest, Pack, SourceRef
from generator.pipeline.validate import validate

BROKEN = ROOT / "tests" / "fixtures" / "broken-expansion"
EXPANSION = ROOT / "cards" / "cwnb-expansion"
DOCS = ROOT / "docs" / "rules-cwnb.md"

#: fixture card id -> the one finding code it must yield
EXPECTED = {
    "bad-16in-not-iowa": "cwnb-16in-not-iowa",
    "bad-iowa-without-16in": "cwnb-iowa-without-16in",
    "bad-air-strike-not-carrier": "cwnb-air-strike-not-carrier",
    "bad-carrier-without-air-strike": "cwnb-carrier-without-air-strike",
    "bad-submarine-guns": "cwnb-submarine-guns",
    "bad-submarine-air-defense": "cwnb-submarine-air-defense",
    "bad-submarine-back": "cwnb-submarine-back",
    "bad-passive-not-submarine": "cwnb-passive-not-submarine",
    "bad-needs-crippled-side": "cwnb-needs-crippled-side",
    "bad-cannot-be-crippled": "cwnb-cannot-be-crippled",
    "bad-trait-not-submarine": "cwnb-trait-not-submarine",
    "bad-los-angeles-not-quiet": "cwnb-class-traits",
    "bad-alfa-not-fast": "cwnb-class-traits",
    "bad-born-critical": "cwnb-born-critical",
    "bad-guided-missile-unarmed": "cwnb-guided-missile-type-unarmed",
    "bad-duplicate-ship-name": "cwnb-duplicate-ship-name",  # a reprint of a base ship
    "bad-iowa-not-battleship": "cwnb-class-type",
    "bad-los-angeles-surface-ship": "cwnb-class-type",
    "bad-air-strike-above-two": "cwnb-air-strike-above-two",
    "bad-aegis-notation": "bad-value",  # the schema stops it before the rules see the card
    "bad-nation-argentina": "unknown-value",
    "bad-caliber-on-missile": "cwnb-field-not-used",
    "bad-chance-on-evasive": "cwnb-field-not-used",
    "bad-asw-passive-easier": "cwnb-asw-passive-easier",
    "bad-asw-no-active-bonus": "cwnb-asw-no-active-bonus",
    "bad-row-chance-increases": "cwnb-row-chance-increases",
    "bad-damage-exceeds-hits": "cwnb-damage-exceeds-hits",
    "bad-damage-not-by-size": "cwnb-damage-not-by-size",
    "bad-player-order-repeated": "cwnb-player-order-repeated",
    "bad-torpedo-without-chance": "missing-field",
    "bad-torpedo-chance-vs-active": "cwnb-field-not-used",
    "bad-name-reused": "name-reused-across-packs",  # generic: a different card, same name
}

#: the defects added by the second rules audit: card id -> (file, line, column, severity)
LOCATED = {
    "bad-iowa-not-battleship": ("ships.yaml", 183, 11, Severity.ERROR),  # type:
    "bad-los-angeles-surface-ship": ("ships.yaml", 193, 11, Severity.ERROR),  # type:
    "bad-air-strike-above-two": ("ships.yaml", 206, 17, Severity.ERROR),  # air_strike: (12.3)
    "bad-torpedo-chance-vs-active": ("actions.yaml", 67, 23, Severity.ERROR),  # chance_vs_active:
    "bad-name-reused": ("actions.yaml", 70, 11, Severity.WARNING),  # name:
    "bad-asw-no-active-bonus": ("actions.yaml", 29, 23, Severity.ERROR),  # chance_vs_active:
    "bad-guided-missile-unarmed": ("ships.yaml", 143, 11, Severity.ERROR),  # type:
}

UNUSUAL = ROOT / "tests" / "fixtures" / "unusual-expansion"
AUDIT = ROOT / "tests" / "fixtures" / "cwnb-audit3"
AUDIT_RU = ROOT / "tests" / "fixtures" / "cwnb-audit3-ru"

RULE_REFERENCE = re.compile(
    r"\((rules? [0-9][^()]*|Definitions[^()]*|seed 00[01]:[^()]*|sanity check[^()]*)\)$")


@pytest.fixture(scope="module")
def broken_findings() -> list[Finding]:
    return validate(CWNB, (BROKEN,)).findings


def codes(findings: list[Finding], *, ignore: tuple[str, ...] = ()) -> list[str]:
    return sorted(f.code for f in findings if f.code not in ignore)


# --- the fixture: one defect per card, one code per card ---------------------------------------

@pytest.mark.parametrize(("card_id", "code"), sorted(EXPECTED.items()))
def test_each_broken_card_yields_exactly_its_code(broken_findings, card_id, code):
    mine = [f for f in broken_findings if f.card == card_id]
    assert [f.code for f in mine] == [code], [f.as_text() for f in mine]


def test_fixture_findings_all_belong_to_fixture_cards(broken_findings):
    strays = [f.as_text() for f in broken_findings if f.card not in EXPECTED]
    assert strays == []


def test_fixture_cards_all_have_an_expectation():
    ids = {card["id"] for path in BROKEN.glob("*.yaml") if path.name != "game.yaml"
           for card in yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]}
    assert ids == set(EXPECTED)


def test_rule_findings_name_their_rule_and_point_at_the_field(broken_findings):
    for finding in broken_findings:
        if finding.code.startswith("cwnb-"):
            assert RULE_REFERENCE.search(finding.message), finding.message
            assert finding.location.line > 0, finding.as_text()
    (sixteen,) = [f for f in broken_findings if f.card == "bad-16in-not-iowa"]
    assert Path(sixteen.location.file).name == "ships.yaml"
    assert (sixteen.location.line, sixteen.location.column) == (11, 11)  # the guns: value
    assert sixteen.severity is Severity.ERROR and "(Definitions" in sixteen.message


def test_suspicious_cards_are_warnings_broken_ones_errors(broken_findings):
    severity = {f.card: f.severity for f in broken_findings}
    assert severity["bad-damage-exceeds-hits"] is Severity.WARNING
    assert severity["bad-asw-passive-easier"] is Severity.ERROR
    assert severity["bad-submarine-back"] is Severity.ERROR
    # definitions and "the chances are better" (7.14) are the rules, not advice: errors
    assert severity["bad-asw-no-active-bonus"] is Severity.ERROR
    assert severity["bad-guided-missile-unarmed"] is Severity.ERROR


@pytest.mark.parametrize(("card_id", "where"), sorted(LOCATED.items()))
def test_new_defects_point_at_their_field(broken_findings, card_id, where):
    name, line, column, severity = where
    (finding,) = [f for f in broken_findings if f.card == card_id]
    assert Path(finding.location.file).name == name
    assert (finding.location.line, finding.location.column) == (line, column), finding.as_text()
    assert finding.severity is severity


def test_unusual_but_legal_cards_yield_nothing():
    """Cards a too-strict validator would flag: a hyphenated Los-Angeles class, twin platforms,
    a missile submarine, a small carrier, Hits to Sink exactly 7, Aegis without launchers, a
    plain DD with missiles, a hunter of another class, a BB that is no Iowa, air_strike 0 on an
    escort, ASW 6/1, a flat air strike, a reprinted base card, chance 6, damage 1, and a card
    size written in millimetres equal to the base's."""
    result = validate(CWNB, (UNUSUAL,))
    assert [f.as_text() for f in result.findings] == []
    ids = {card.id for card in result.card_set.expansions[0].cards}
    assert len(ids) == 16 and "odd-evasive-reprint" in ids


def test_json_output_lists_warnings_too():
    result = run_pnp("validate", str(CWNB), "--with", str(BROKEN), "--format", "json")
    assert result.returncode == 1
    doc = json.loads(result.stdout)
    warnings = [f for f in doc["findings"] if f["severity"] == "warning"]
    assert doc["summary"]["warnings"] == len(warnings) > 0
    (row,) = [f for f in warnings if f["card"] == "bad-row-chance-increases"]
    assert row["code"] == "cwnb-row-chance-increases" and row["line"] > 0
    assert row["locale"] is None


# --- the third audit (issue 27): a defect and a legal but unusual twin per class ---------------

#: bad card of the audit packs -> (pack folder, file, line, column, code) of its one finding;
#: every ok- card raises nothing
AUDIT_AT = {
    # a class the rules name, under another spelling: sub-variant, Russian names, a pack
    # written in Russian (7.13, 7.14, 000:306)
    "bad-la-subvariant": ("cwnb-audit3", "ships.yaml", 13, 13, "cwnb-class-traits"),
    "bad-la-russian-name": ("cwnb-audit3", "ships.yaml", 33, 13, "cwnb-class-traits"),
    "bad-alfa-project": ("cwnb-audit3", "ships.yaml", 47, 12, "cwnb-class-traits"),
    "bad-alfa-ru": ("cwnb-audit3-ru", "cards.yaml", 7, 12, "cwnb-class-traits"),
    # carrier strike rating by carrier size (12.3)
    "bad-cvn-one": ("cwnb-audit3", "ships.yaml", 72, 17, "cwnb-carrier-strike-size"),
    "bad-cvh-two": ("cwnb-audit3", "ships.yaml", 83, 17, "cwnb-carrier-strike-size"),
    # a ship the rules name (001:481, 000:357): the Nimitz is a CVN
    "bad-nimitz-type": ("cwnb-audit3", "ships.yaml", 102, 11, "cwnb-named-ship"),
    # damage by size across packs (12.8), on the expansion's card, not the base's
    "bad-16in-weak": ("cwnb-audit3", "actions.yaml", 10, 13, "cwnb-damage-not-by-size"),
    "bad-3in-strong": ("cwnb-audit3", "actions.yaml", 18, 13, "cwnb-damage-not-by-size"),
    # what a text says: an answer, an icon, a number, a rule number, a step
    "bad-text-counter": ("cwnb-audit3", "actions.yaml", 36, 11, "cwnb-text-counter"),
    "bad-text-icon": ("cwnb-audit3", "actions.yaml", 52, 11, "cwnb-text-icon"),
    "bad-text-number": ("cwnb-audit3", "actions.yaml", 67, 11, "cwnb-text-number"),
    "bad-text-rule": ("cwnb-audit3", "actions.yaml", 81, 11, "cwnb-text-rule"),
    "bad-text-step": ("cwnb-audit3", "actions.yaml", 95, 11, "cwnb-text-rule"),
    "bad-text-counter-ru": ("cwnb-audit3-ru", "cards.yaml", 29, 11, "cwnb-text-counter"),
}


@pytest.fixture(scope="module")
def audit_findings() -> list[Finding]:
    return validate(CWNB, (AUDIT, AUDIT_RU)).findings


def test_each_audit_defect_is_found_on_its_card_and_its_twin_is_clean(audit_findings):
    ids = {card["id"] for pack in (AUDIT, AUDIT_RU) for path in pack.glob("*.yaml")
           if path.name != "game.yaml"
           for card in yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]}
    found = {f.card: (Path(f.location.file).parent.name, Path(f.location.file).name,
                      f.location.line, f.location.column, f.code) for f in audit_findings}
    assert len(found) == len(audit_findings), [f.as_text() for f in audit_findings]
    assert found == AUDIT_AT
    assert all(f.severity is Severity.ERROR and RULE_REFERENCE.search(f.message)
               for f in audit_findings)
    assert {card for card in ids if card.startswith("bad-")} == set(AUDIT_AT)
    assert len([card for card in ids if card.startswith("ok-")]) == 12


def test_damage_by_size_names_the_base_card_it_contradicts(audit_findings):
    (weak,) = [f for f in audit_findings if f.card == "bad-16in-weak"]
    assert "'gun-5in' of pack 'cwnb'" in weak.message and "smaller" in weak.message
    assert not any(f.card == "gun-5in" for f in audit_findings)


@pytest.mark.parametrize(("written", "identity"), [
    ("Los Angeles", "los angeles"), ("Los-Angeles", "los angeles"),
    ("Los Angeles (688I)", "los angeles"), ("Лос-Анджелес", "los angeles"),
    ("Improved Los Angeles", "los angeles"), ("Alfa", "alfa"), ("Альфа", "alfa"),
    ("проект 705К", "alfa"), ("Лира", "alfa"), ("Айова", "iowa"), ("Alfaro", None),
    ("Angeles", None), ("Kiev", None),
])
def test_a_class_is_known_under_the_names_the_rules_give_it(written, identity):
    from generator.games.cwnb.rules.cards import class_identity

    assert class_identity(written) == identity


# --- shipped packs ------------------------------------------------------------------------------

def test_base_pack_is_clean():
    assert [f.as_text() for f in validate(CWNB).findings] == []


def test_example_expansion_with_its_base_is_clean():
    result = validate(CWNB, (EXPANSION,))
    assert [f.as_text() for f in result.findings] == []
    assert result.card_set is not None and len(result.card_set.expansions) == 1


def test_cli_validates_base_with_expansion():
    result = run_pnp("validate", str(CWNB), "--with", str(EXPANSION))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 error(s), 0 warning(s)" in result.stdout


# --- expansions and set marks -------------------------------------------------------------------

def copy_pack(source: Path, target: Path, **manifest: str | None) -> Path:
    shutil.copytree(source, target)
    data = yaml.safe_load((target / "game.yaml").read_text(encoding="utf-8"))
    for key, value in manifest.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    (target / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return target


def test_expansion_alone_is_told_to_load_its_base():
    findings = validate(EXPANSION).findings
    assert codes(findings) == ["expansion-without-base"]
    assert findings[0].severity is Severity.WARNING
    assert "--with" in findings[0].message


def test_expansion_reusing_the_anchor_mark(tmp_path):
    pack = copy_pack(EXPANSION, tmp_path / "exp", set_mark="anchor")
    findings = validate(CWNB, (pack,)).findings
    assert codes(findings) == ["expansion-set-mark"]
    (finding,) = findings
    assert "anchor" in finding.message and finding.location.line > 0


def test_expansion_alone_with_the_anchor_mark(tmp_path):
    pack = copy_pack(EXPANSION, tmp_path / "exp", set_mark="anchor")
    assert codes(validate(pack).findings) == ["cwnb-expansion-anchor", "expansion-without-base"]


def test_two_expansions_with_the_same_mark(tmp_path):
    first = copy_pack(EXPANSION, tmp_path / "one")
    second = copy_pack(BROKEN, tmp_path / "two", set_mark="falklands")
    found = codes(validate(CWNB, (first, second)).findings)
    assert "expansion-set-mark" in found and "duplicate-id" not in found


def test_expansion_ids_clash_with_base(tmp_path):
    pack = copy_pack(EXPANSION, tmp_path / "exp")
    ships = pack / "ships.yaml"
    ships.write_text(ships.read_text(encoding="utf-8").replace("id: hms-coventry",
                                                               "id: hms-sheffield"))
    (finding,) = validate(CWNB, (pack,)).findings
    assert finding.code == "duplicate-id" and finding.card == "hms-sheffield"
    assert "cards/cwnb/ships.yaml" in finding.message


def test_base_without_the_anchor(make_pack):
    game = "pack: mine\ngame: cwnb\nname: Mine\nsource_locale: en\nset_mark: star\n"
    pack = make_pack({"ships.yaml": "cards: []\n"}, game=game)
    (finding,) = validate(pack).findings
    assert finding.code == "cwnb-base-set-mark"
    assert (finding.location.line, finding.location.column) == (5, 11)  # the set_mark value


@pytest.mark.parametrize(("size", "found"), [
    ("tarot", ["cwnb-playing-card-size"]),
    ("{width_mm: 70, height_mm: 70}", ["cwnb-playing-card-size"]),
    ("bridge", []),
    ("{width_mm: 63.3, height_mm: 88.9}", []),  # a poker card measured to the tenth
])
def test_cards_have_the_size_of_playing_cards(make_pack, size, found):
    """Seed 000:25: the faces are sized to be stuck onto ordinary playing cards."""
    game = ("pack: mine\ngame: cwnb\nname: Mine\nsource_locale: en\nset_mark: anchor\n"
            f"card_size: {size}\n")
    findings = validate(make_pack({"ships.yaml": "cards: []\n"}, game=game)).findings
    assert codes(findings) == found
    for finding in findings:
        assert finding.severity is Severity.WARNING
        assert (finding.location.line, finding.location.column) == (6, 12)
        assert "seed 000:25" in finding.message


def test_base_counts_of_rule_2(tmp_path):
    pack = copy_pack(CWNB, tmp_path / "cwnb")
    actions = pack / "actions.yaml"
    text = actions.read_text(encoding="utf-8")
    actions.write_text(text.replace("count: 3\n    name: Retreat", "count: 2\n    name: Retreat"))
    findings = validate(pack).findings
    assert codes(findings) == ["cwnb-component-count"]
    assert "113 action cards, not 114" in findings[0].message


def test_counts_of_rule_2_do_not_apply_to_a_combined_deck():
    assert "cwnb-component-count" not in codes(validate(CWNB, (EXPANSION,)).findings)


# --- small decks for the set-level and cross-checks ---------------------------------------------

def ship(card_id: str, type_: str = "FF", points: int = 3, hits: int = 2, **fields) -> dict:
    card = {"id": card_id, "kind": "ship", "name": card_id.upper(), "class": "Test",
            "type": type_, "nation": "US", "points": points, "hits_to_sink": hits}
    card.update(fields)
    return card


def action(card_id: str, kind: str, count: int = 1, **fields) -> dict:
    return {"id": card_id, "kind": "action", "count": count, "name": card_id,
            "text": "test card", "action": kind, **fields}


def basic_ships() -> list[dict]:
    """Exactly the tournament minimum for six players: 6 subs, 12 ships of 9 points, 24 others."""
    return ([ship(f"ssn-{i}", "SSN", 6, 3) for i in range(6)]
            + [ship(f"cg-{i}", "CG", 9, 6, guns=["5in"], missiles=["A"], air_defense=2)
               for i in range(12)]
            + [ship(f"ff-{i}", guns=["5in"], missiles=["A"]) for i in range(24)])


def basic_actions() -> list[dict]:
    return [action("gun-5in", "gun", 8, caliber="5in", damage=2),
            action("missile-a", "missile", 8, missile_class="A", damage=2),
            action("torpedo", "torpedo", 6, damage=3, chance_vs_passive=2),
            action("asw", "asw", 4, chance_vs_active=4, chance_vs_passive=2),
            action("land-air", "land_air_strike", 2, chance_by_row=[3, 2, 1]),
            action("evasive", "evasive", 6), action("ecm", "ecm", 6),
            action("air-cover", "air_cover", 4, chance_to_hit=2),
            action("damage-control", "damage_control", 2),
            action("additional-ship", "additional_ship", 2)]


def deck_pack(root: Path, ships: list[dict], actions: list[dict],
              orders: list[int] | None = None) -> Path:
    orders = list(range(1, 10)) if orders is None else orders
    order_cards = [{"id": f"order-{i}-{n}", "kind": "player_order", "order": n}
                   for i, n in enumerate(orders)]
    files = {name: yaml.safe_dump({"cards": cards}, sort_keys=False)
             for name, cards in (("ships.yaml", ships), ("actions.yaml", actions),
                                 ("orders.yaml", order_cards)) if cards}
    return write_pack(root, files)


def deck_findings(tmp_path: Path, ships: list[dict] | None = None,
                  actions: list[dict] | None = None, orders: list[int] | None = None
                  ) -> list[Finding]:
    """Findings of a standalone deck, without the base-game counts it does not claim to meet."""
    pack = deck_pack(tmp_path / "deck", basic_ships() if ships is None else ships,
                     basic_actions() if actions is None else actions, orders)
    return [f for f in validate(pack).findings if f.code != "cwnb-component-count"]


def by_card(findings: list[Finding]) -> dict[str | None, list[str]]:
    result: dict[str | None, list[str]] = {}
    for finding in findings:
        result.setdefault(finding.card, []).append(finding.code)
    return result


def test_the_basic_deck_is_legal(tmp_path):
    assert [f.as_text() for f in deck_findings(tmp_path)] == []


def test_a_pack_of_ships_only_is_a_fragment_not_a_deck(tmp_path):
    pack = deck_pack(tmp_path / "deck", basic_ships()[:3], [], [])
    assert validate(pack).findings == []


def test_deal_needs_seven_ships_each_for_six_players(tmp_path):
    findings = deck_findings(tmp_path, ships=basic_ships()[:35])
    deal = [f for f in findings if f.code == "cwnb-deal-too-small"]
    assert len(deal) == 1 and "at most 5 player(s)" in deal[0].message
    assert deal[0].severity is Severity.ERROR


def test_deal_needs_seven_action_cards_each(tmp_path):
    actions = basic_actions()
    actions[0]["count"] = 1  # 41 action cards in all
    assert "cwnb-deal-too-small" in codes(deck_findings(tmp_path, actions=actions))


def test_tournament_deal_needs_six_submarines(tmp_path):
    findings = deck_findings(tmp_path, ships=[*basic_ships()[1:], ship("ff-extra", guns=["5in"])])
    assert codes(findings) == ["cwnb-tournament-deal"]
    assert "fits 5 player(s)" in findings[0].message
    assert findings[0].severity is Severity.WARNING


def test_player_order_values_missing_and_repeated(tmp_path):
    findings = deck_findings(tmp_path, orders=[1, 2, 3, 4, 5, 6, 7, 8, 8])
    assert codes(findings) == ["cwnb-player-order-missing", "cwnb-player-order-repeated"]
    missing = next(f for f in findings if f.code == "cwnb-player-order-missing")
    assert "value(s) 9" in missing.message


def test_platform_without_any_card(tmp_path):
    ships = [*basic_ships(), ship("small-gun", guns=["3in"], missiles=["A"])]
    findings = deck_findings(tmp_path, ships=ships)
    assert by_card(findings) == {"small-gun": ["cwnb-platform-no-card"]}


def test_platform_with_cards_only_under_rule_12_8(tmp_path):
    iowa = ship("iowa", "BB", 11, 9, guns=["16in", "5in"], missiles=["A"], **{"class": "Iowa"})
    findings = deck_findings(tmp_path, ships=[*basic_ships(), iowa])
    assert by_card(findings) == {"iowa": ["cwnb-platform-only-12-8"]}
    assert "5in" in findings[0].message


def test_submarines_without_torpedo_cards(tmp_path):
    actions = [a for a in basic_actions() if a["action"] != "torpedo"]
    actions[0]["count"] = 14  # keep the deal possible
    found = by_card(deck_findings(tmp_path, actions=actions))
    assert found == {f"ssn-{i}": ["cwnb-platform-no-card"] for i in range(6)}


def test_card_without_any_ship_to_fire_it(tmp_path):
    actions = [*basic_actions(), action("gun-16in", "gun", 2, caliber="16in", damage=3)]
    assert by_card(deck_findings(tmp_path, actions=actions)) == {
        "gun-16in": ["cwnb-card-no-user"]}


def test_card_fired_only_under_rule_12_8(tmp_path):
    actions = [*basic_actions(), action("gun-3in", "gun", 2, caliber="3in", damage=1)]
    assert by_card(deck_findings(tmp_path, actions=actions)) == {
        "gun-3in": ["cwnb-card-only-12-8"]}


def test_torpedo_and_crew_efficiency_need_their_ships(tmp_path):
    ships = basic_ships()[6:] + [ship(f"ff-more-{i}", guns=["5in"]) for i in range(6)]
    actions = [a for a in basic_actions() if a["action"] != "asw"]
    actions.append(action("crew", "crew_efficiency", 2))
    found = by_card(deck_findings(tmp_path, ships=ships, actions=actions))
    assert found["torpedo"] == ["cwnb-card-no-user"]
    assert found["crew"] == ["cwnb-card-no-user"]
    assert found[None] == ["cwnb-tournament-deal"]


def test_defense_card_with_nothing_to_answer(tmp_path):
    actions = [a for a in basic_actions() if a["action"] != "land_air_strike"]
    assert by_card(deck_findings(tmp_path, actions=actions)) == {
        "air-cover": ["cwnb-card-no-target"]}


def test_attack_without_its_defense(tmp_path):
    actions = [a for a in basic_actions() if a["action"] != "ecm"]
    findings = deck_findings(tmp_path, actions=actions)
    assert by_card(findings) == {"missile-a": ["cwnb-attack-no-defense"]}
    assert "ecm" in findings[0].message


def test_a_carrier_attack_without_air_cover_or_air_defense(tmp_path):
    ships = [{k: v for k, v in s.items() if k != "air_defense"} for s in basic_ships()]
    ships.append(ship("carrier", "CV", 12, 8, air_strike=2))
    actions = [a for a in basic_actions() if a["action"] not in ("air_cover", "land_air_strike")]
    findings = deck_findings(tmp_path, ships=ships, actions=actions)
    assert by_card(findings) == {"carrier": ["cwnb-attack-no-defense"]}


def test_armoured_battleship_that_nothing_can_sink(tmp_path):
    iowa = ship("iowa", "BB", 11, 9, guns=["16in"], **{"class": "Iowa"})
    actions = [action("gun-16in", "gun", 20, caliber="16in", damage=1),
               action("evasive", "evasive", 10), action("damage-control", "damage_control", 10),
               action("additional-ship", "additional_ship", 10)]
    ships = [*(ship(f"ff-{i}", guns=["3in"]) for i in range(24)),
             *(ship(f"cg-{i}", "CG", 9, 6, air_defense=2) for i in range(12)),
             *(ship(f"ssn-{i}", "SSN", 6, 3) for i in range(6)), iowa]
    found = by_card(deck_findings(tmp_path, ships=ships, actions=actions))
    assert found["iowa"] == ["cwnb-unsinkable"]
    assert all(found[f"ssn-{i}"] == ["cwnb-platform-no-card", "cwnb-unsinkable"]
               for i in range(6))


def test_damage_beyond_every_ship(tmp_path):
    actions = [*basic_actions(), action("big-torpedo", "torpedo", 1, damage=7,
                                        chance_vs_passive=1)]
    assert by_card(deck_findings(tmp_path, actions=actions)) == {
        "big-torpedo": ["cwnb-damage-exceeds-hits"]}


def test_summary_must_cover_every_card_kind():
    deck = Deck.of(validate(CWNB).card_set)
    assert list(summary_gaps(deck)) == []
    rows = tuple(replace(a, countered_by=tuple(k for k in a.countered_by if k != "ecm"))
                 for a in playrules.summary_rows() if a.needs_card != "torpedo")
    gaps = [f for f in summary_gaps(deck, rows) if f.code == "cwnb-summary-missing"]
    assert sorted(f.card for f in gaps) == ["ecm", "torpedo-3"]


def test_summary_must_answer_each_attack_as_the_engine_does():
    """A summary that lists every card kind but drops Air Cover from the cruise missile row
    still misleads players (12.9): the answers themselves are compared."""
    deck = Deck.of(validate(CWNB).card_set)
    rows = tuple(replace(a, countered_by=tuple(k for k in a.countered_by if k != "air_cover"))
                 if a.key == "cruise_missile" else a for a in playrules.summary_rows())
    (gap,) = summary_gaps(deck, rows)
    assert gap.code == "cwnb-summary-answers" and gap.severity is Severity.ERROR
    assert gap.card == "missile-c"  # the card that makes a cruise missile: a C missile
    assert "cruise missile" in gap.message and "rules 6, 12.9" in gap.message
    assert Path(gap.location.file).name == "actions.yaml" and gap.location.line > 0


def test_the_printed_summary_rows_are_the_engine_table():
    rows = playrules.summary_rows()
    for attack in playrules.ATTACKS:  # every attack of the engine has its row, same answers
        assert any(r.needs_card == attack.needs_card and r.countered_by == attack.countered_by
                   for r in rows), attack.key


# --- printed reference values come from the engine ----------------------------------------------

def laid_out(locale: str, card_ids: set[str]) -> dict[tuple[str, str], list[str]]:
    """The texts printed on each side of the given base cards: (card id, side) -> texts."""
    from generator.games import get_game
    from generator.layout.faces import lay_out_cards
    from generator.pipeline.localecheck import localizer_for

    card_set = validate(CWNB).card_set
    subset = CardSet(replace(card_set.base, cards=tuple(c for c in card_set.base.cards
                                                        if c.id in card_ids)))
    game = get_game("cwnb")
    faces = lay_out_cards(subset, game, localizer_for(subset, "cwnb", locale), bleed_mm=0.0)
    texts: dict[tuple[str, str], list[str]] = {}
    for side, table in (("front", faces.fronts), ("back", faces.backs)):
        for card_id, key in table.items():
            texts[card_id, side] = [op.text for op in faces.layouts[key].ops
                                    if type(op).__name__ == "Text"]
    return texts


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_printed_hunter_bonus_and_crippled_points_are_the_engines(locale):
    texts = laid_out(locale, {"uss-los-angeles", "uss-nimitz", "uss-spruance"})
    bonus = f"{playrules.HUNTER_BONUS:+d}"
    assert any(t.startswith(bonus + " ") for t in texts["uss-los-angeles", "front"])  # 7.13
    assert not any(t.startswith(bonus + " ") for t in texts["uss-spruance", "front"])
    assert str(playrules.CRIPPLED_POINTS) in texts["uss-nimitz", "back"]  # 12.7


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_printed_summary_side_is_the_engine_table(locale):
    """Rule 6: the summary side of every player order card prints, row by row, each attack of
    the engine's table with exactly the answers the engine gives it, in the card's language."""
    from generator.games.cwnb.widgets import summary_lines
    from generator.pipeline.localecheck import localizer_for

    texts = laid_out(locale, {"order-1", "order-9"})
    assert texts["order-1", "front"] == texts["order-9", "front"]  # the public side is common
    printed = " ".join(" ".join(texts["order-1", "front"]).replace("\u00ad", "").split())
    label = localizer_for(validate(CWNB).card_set, "cwnb", locale).label
    for attack, answers in summary_lines(label):
        assert attack in printed, attack
        for answer in answers:
            assert answer in printed, (attack, answer)
    assert len(summary_lines(label)) == len(playrules.summary_rows())


# --- what YAML cannot reach: the model's own values ---------------------------------------------

def lone_card_set(*cards) -> CardSet:
    where = Location("t.yaml", 1, 1)
    manifest = Manifest("t", "cwnb", "T", "1", "en", ("en",), "anchor", "", CardSize(63.5, 88.9),
                        None, where)
    return CardSet(Pack(manifest, Path("."), tuple(cards)))


def test_aegis_notation_is_checked_on_the_model_too():
    aegis = Ship(id="x", kind="ship", count=1, pack="t", source=SourceRef(Location("t.yaml")),
                 name="X", ship_class="X", type="CG", nation="US", points=5, hits_to_sink=4,
                 guns=(), missiles=("A",), air_strike=0, air_defense="3 + 3", traits=(),
                 back="logo")
    assert codes(check_cards(lone_card_set(aegis))) == ["cwnb-aegis-notation"]


# --- the engine's tables and the docs agree -----------------------------------------------------

def test_play_tables_cover_every_action_kind():
    schema = json.loads((ROOT / "generator/games/cwnb/schemas/action.schema.json").read_text())
    kinds = set(schema["properties"]["action"]["enum"])
    assert set(playrules.ACTION_CATEGORY) == kinds
    for attack in playrules.ATTACKS:
        assert attack.needs_card is None or attack.needs_card in kinds
        assert set(attack.countered_by) <= kinds | {playrules.AIR_DEFENSE_RATING}
    for kind, category in playrules.ACTION_CATEGORY.items():
        if category in ("attack", "asw"):
            assert any(a.needs_card == kind for a in playrules.ATTACKS), kind
    chance = {"chance_to_hit", "chance_vs_active", "chance_vs_passive"}
    for kind in playrules.CARRIER_MODIFIED:  # rule 10 raises a chance, so the card has one
        assert any(kind in playrules.ACTION_FIELDS[f][0] for f in chance), kind


def test_only_torpedoes_and_asw_reach_submarines():
    """5.24, 7.13: only torpedo and ASW attacks can attack a submarine (row 0 of the table)."""
    reach = {a.key for a in playrules.ATTACKS if 0 in a.target_rows}
    assert reach == {"torpedo", "asw"}


def test_the_glossary_holds_the_printed_russian_words(tmp_path):
    """000:543: «Вероятность попадания» is the wording on action cards; a translation that
    says otherwise is reported against the pack's glossary."""
    from generator.games import get_game
    from generator.pipeline.localecheck import check_locale

    pack = copy_pack(CWNB, tmp_path / "cwnb")
    po = pack / "locales" / "ru.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Вероятность попадания"',
                                                         'msgstr "Шанс попасть"'),
                  encoding="utf-8")
    result = validate(pack)
    found = [f for f in check_locale(result.card_set, get_game("cwnb"), "ru", layout=False)
             if f.code == "glossary-term"]
    assert len(found) == 1 and "'Chance to hit'" in found[0].message


@pytest.mark.parametrize(("kind", "platform", "card", "strict", "loose"), [
    ("gun", "5in", "5in", True, True),
    ("gun", "16in", "3in", False, True),
    ("gun", "3in", "5in", False, False),
    ("missile", "C", "A", False, True),
    ("missile", "B", "C", False, False),
])
def test_who_fires_what(kind, platform, card, strict, loose):
    assert playrules.can_fire(kind, platform, card, attack_opportunities=False) is strict
    assert playrules.can_fire(kind, platform, card, attack_opportunities=True) is loose


def test_docs_table_lists_every_check():
    text = DOCS.read_text(encoding="utf-8")
    documented = set(re.findall(r"`(cwnb-[a-z0-9-]+)`", text))
    assert documented == set(CHECKS)
    table = re.findall(r"^\| `(cwnb-[a-z0-9-]+)` \| (card|set|cross) \| (error|warning) \|",
                       text, re.M)
    assert sorted(code for code, _, _ in table) == sorted(CHECKS)
    for code, level, severity in table:
        assert (level, severity) == (CHECKS[code].level, CHECKS[code].severity.value), code
    for code in ("expansion-set-mark", "expansion-without-base", "bad-value",
                 "expansion-back-differs", "expansion-card-size", "name-reused-across-packs"):
        assert f"`{code}`" in text


def test_docs_rows_cite_their_seed_lines():
    """Every coverage row names the seed line(s) it comes from (001:LINE, 000:LINE), or says it
    is a format or design rule."""
    text = DOCS.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line
            and not line.startswith(("| seed ", "| code ", "| `cwnb-"))]
    assert len(rows) > 100
    for row in rows:
        first = row.split("|")[1].strip()
        assert re.match(r"(00[01]:\d+|format|DESIGN)", first), row
