"""Generic cross-pack checks (generator/pipeline/crosspack.py): an expansion's cards have the size
and, on the side a pile shows, the look of the base cards they are shuffled with; names denote one
card; and docs/rules-generic.md lists exactly the registry's codes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import CWNB, ROOT
from msgspec.structs import replace

from generator.core.findings import Severity
from generator.games import get_game
from generator.model.cards import Card
from generator.pipeline import crosspack
from generator.pipeline.validate import validate

EXPANSION = ROOT / "cards" / "cwnb-expansion"
GWAS = ROOT / "cards" / "gwas"
DOCS = ROOT / "docs" / "rules-generic.md"


def copy_pack(source: Path, target: Path, **manifest: object) -> Path:
    shutil.copytree(source, target)
    data = yaml.safe_load((target / "game.yaml").read_text(encoding="utf-8"))
    data.update(manifest)
    (target / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return target


def line_of(path: Path, key: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if line.startswith(f"{key}:"))


# --- card size -------------------------------------------------------------------------------

def test_an_expansion_of_another_card_size(tmp_path):
    pack = copy_pack(EXPANSION, tmp_path / "exp", card_size="bridge")
    (finding,) = validate(CWNB, (pack,)).findings
    assert finding.code == "expansion-card-size" and finding.severity is Severity.ERROR
    assert Path(finding.location.file).name == "game.yaml"
    game_yaml = pack / "game.yaml"
    assert (finding.location.line, finding.location.column) == (line_of(game_yaml, "card_size"),
                                                                12)
    assert "action, ship cards" in finding.message or "ship, action cards" in finding.message
    assert "bridge 57.2 x 88.9 mm" in finding.message and "poker 63.5 x 88.9 mm" in finding.message


def test_the_same_size_in_millimetres_is_the_same_size(tmp_path):
    pack = copy_pack(EXPANSION, tmp_path / "exp", card_size={"width_mm": 63.5, "height_mm": 88.9})
    assert validate(CWNB, (pack,)).findings == []


def test_a_kind_of_its_own_size_keeps_it(tmp_path):
    """Great War at Sea's fleet counters are 12.7 mm whatever the pack's card_size: an
    expansion of bridge-size cards is wrong for its ships but not for its counters."""
    pack = tmp_path / "gwas-exp"
    pack.mkdir()
    (pack / "game.yaml").write_text(
        "pack: gwas-more\ngame: gwas\nname: More\nsource_locale: ru\nset_mark: gwas-more\n"
        "card_size: bridge\nextends: gwas\n", encoding="utf-8")
    (pack / "counters.yaml").write_text(
        "cards:\n  - {id: fleet-ah-99, kind: fleet_counter, nation: AH, number: 99}\n",
        encoding="utf-8")
    assert "expansion-card-size" not in {f.code for f in validate(GWAS, (pack,)).findings}
    (pack / "ships.yaml").write_text(
        "cards:\n  - {id: more-bb, kind: ship, name: Тест, class: BB, group: capital, nation: IT,"
        " gunnery: 8-3-1, torpedoes: {hull: 1}, speed: '1', hull: 10, year: 1913}\n",
        encoding="utf-8")
    sizes = [f for f in validate(GWAS, (pack,)).findings if f.code == "expansion-card-size"]
    assert len(sizes) == 1 and "the ship cards" in sizes[0].message
    assert "fleet_counter" not in sizes[0].message


# --- set marks, compared by what they print (issue 27) -----------------------------------------

MARKS = ROOT / "tests" / "fixtures" / "marks-audit3"
COMMANDER = ROOT / "cards" / "commander"


def test_marks_that_print_the_same_ring_cannot_be_told_apart():
    """CWNB rule 2 sorts an expansion's cards out by the mark a player sees: the same label in
    a ring, or no label and the same first letter, prints one mark for two sets."""
    packs = tuple(MARKS / name for name in ("cwnb-falklands", "cwnb-fleet", "cwnb-fjord",
                                            "cwnb-frigates"))
    findings = validate(CWNB, packs).findings
    assert [(f.code, Path(f.location.file).parent.name, f.location.line, f.location.column)
            for f in findings] == [("expansion-set-mark", "cwnb-fleet", 6, 17),  # the label
                                   ("expansion-set-mark", "cwnb-fjord", 5, 11)]  # the mark
    assert all(f.severity is Severity.ERROR for f in findings)
    assert "a ring with the letters 'F'" in findings[0].message
    assert "'cwnb-falklands'" in findings[1].message


def test_a_booster_mark_with_the_same_first_letter_in_another_game():
    packs = tuple(MARKS / name for name in ("commander-pirates", "commander-privateers",
                                            "commander-cobalt"))
    findings = validate(COMMANDER, packs).findings
    assert [(f.code, Path(f.location.file).parent.name, f.location.line, f.location.column)
            for f in findings] == [("expansion-set-mark", "commander-privateers", 5, 11)]


def test_what_a_mark_prints():
    from generator.layout.symbols import shown_mark

    root = get_game("cwnb").art_folder()
    assert shown_mark(root, "falklands", "") == ("ring", "F")
    assert shown_mark(root, "falklands", "FK") == ("ring", "FK")
    drawn, digest = shown_mark(root, "anchor", "X")  # a drawing prints no label
    assert drawn == "drawing" and shown_mark(root, "anchor", "") == (drawn, digest)
    assert shown_mark(None, "anchor", "") == ("ring", "A")


# --- the side every card of a kind shares -----------------------------------------------------

def game_with_backs(choose):
    """CWNB whose back template is chosen by ``choose(card, default)``, as a game defined in
    data may choose a back per kind in each pack."""
    game = get_game("cwnb")
    faces = game.faces.load()  # a built-in game's drawing code is loaded at first use
    return replace(game, faces=replace(
        faces, back_template=lambda card: choose(card, faces.back_template(card))))


def test_an_expansion_back_of_another_template():
    result = validate(CWNB, (EXPANSION,))
    game = game_with_backs(lambda card, default: "back-ship" if card.pack == "falklands-1982"
                           and card.kind == "action" else default)
    (finding,) = crosspack.common_faces(result.card_set, game)
    assert finding.code == "expansion-back-differs" and finding.severity is Severity.ERROR
    assert finding.card == "exocet-attack"  # the expansion's first action card
    assert (Path(finding.location.file).name, finding.location.line,
            finding.location.column) == ("actions.yaml", 5, 5)
    assert "'back-ship'" in finding.message and "'back-action'" in finding.message
    assert "and 3 more action card(s)" in finding.message


def test_faces_that_vary_in_the_base_are_not_compared():
    """Ship backs differ within the base (passive, crippled, logo): ships are dealt face up,
    so an expansion's ship backs (with their own set mark) are not a shared side."""
    result = validate(CWNB, (EXPANSION,))
    game = game_with_backs(lambda card, default: "back-passive" if card.pack == "falklands-1982"
                           and card.kind == "ship" else default)
    assert list(crosspack.common_faces(result.card_set, game)) == []


@pytest.fixture
def marked_action_backs(tmp_path, monkeypatch) -> None:
    """The CWNB templates, but the action back prints the card's set mark and is no longer one
    shared drawing: what an expansion author might do to tell their cards apart."""
    from generator.runtime import resources

    root = tmp_path / "templates"
    shutil.copytree(resources.builtin_game_templates("cwnb"), root / "cwnb")
    back = root / "cwnb" / "back-action.yaml"
    text = back.read_text(encoding="utf-8").replace("shared: true\n", "").replace(
        "elements:\n", "shared: false\nelements:\n")  # (its parent, back-ship, is shared)
    back.write_text(text + "  - {type: widget, widget: set_mark, box: [56.0, 2.5, 5.5, 5.5]}\n",
                    encoding="utf-8")
    monkeypatch.setattr(resources, "builtin_templates_root", lambda: root)
    # template and palette caches are keyed by folder: the copy is read afresh


def test_an_expansion_that_prints_its_set_mark_on_the_back(marked_action_backs):
    findings = validate(CWNB, (EXPANSION,)).findings
    (finding,) = [f for f in findings if f.code == "expansion-back-differs"]
    assert finding.card == "exocet-attack"
    assert "set mark" in finding.message and "template 'back-action'" in finding.message
    assert validate(CWNB).findings == []  # the base alone: all its backs show the anchor


def test_a_player_order_card_in_an_expansion_hides_its_number():
    """Player order cards are dealt summary side up (rule 6): their summary side is the
    common one, and it carries no set mark (rule 2 marks only action and ship cards)."""
    result = validate(CWNB, (ROOT / "tests" / "fixtures" / "broken-expansion",))
    assert any(c.kind == "player_order" for c in result.card_set.expansions[0].cards)
    assert "expansion-back-differs" not in {f.code for f in result.findings}


# --- names -----------------------------------------------------------------------------------

def test_names_are_compared_by_kind_and_content(tmp_path):
    base = validate(CWNB).card_set.base
    air_cover = next(c for c in base.cards if c.id == "air-cover")
    reprint = replace(air_cover, id="air-cover-2", pack="other")
    different = replace(air_cover, id="air-cover-3", pack="other", chance_to_hit=5)
    other = replace(base, manifest=replace(base.manifest, pack="other"),
                    cards=(reprint, different))
    card_set = replace(validate(CWNB).card_set, expansions=(other,))
    findings = list(crosspack.reused_names(card_set))
    assert [(f.code, f.card) for f in findings] == [("name-reused-across-packs", "air-cover-3")]
    assert "'air-cover' of pack 'cwnb'" in findings[0].message
    assert crosspack.card_name(Card("x", "ship", 1, "p", air_cover.source)) is None


def test_a_games_own_name_check_replaces_the_generic_one(tmp_path):
    """A different ship under a base ship's name: CWNB's own check reports it (a named ship is
    one vessel), and the generic warning on the same card and field is left out."""
    pack = copy_pack(EXPANSION, tmp_path / "exp")
    ships = pack / "ships.yaml"
    text = ships.read_text(encoding="utf-8").replace("name: HMS Coventry", "name: HMS Sheffield")
    ships.write_text(text.replace("points: 4", "points: 5", 1))  # not a mere reprint
    (finding,) = validate(CWNB, (pack,)).findings
    assert (finding.code, finding.card) == ("cwnb-duplicate-ship-name", "hms-coventry")
    generic = list(crosspack.reused_names(validate(CWNB, (pack,)).card_set))
    assert [(f.code, f.card) for f in generic] == [("name-reused-across-packs", "hms-coventry")]
    assert generic[0].location == finding.location


# --- a game defined in data ------------------------------------------------------------------

@pytest.fixture
def data_game(tmp_path):
    """The starter game of `pnp new` and an expansion of two heroes beside it."""
    from generator.starter.newgame import write_starter

    base = tmp_path / "ember"
    write_starter(base, "Ember")
    expansion = tmp_path / "ember-more"
    (expansion / "art").mkdir(parents=True)
    shutil.copy(base / "art" / "hero.png", expansion / "art" / "hero.png")
    (expansion / "game.yaml").write_text(
        "pack: ember-more\nextends: ember\nname: More Ember\nsource_locale: en\n"
        "set_mark: ember-more\nset_mark_label: M\ncard_size: poker\n", encoding="utf-8")
    (expansion / "heroes.yaml").write_text(
        "cards:\n"
        "  - {id: lancer, kind: hero, name: Test Lancer, cost: 2, power: 3, text: A lancer.,"
        " art: art/hero.png}\n"
        "  - {id: squire-two, kind: hero, name: Brave Squire, cost: 2, power: 2,"
        " text: Another squire., art: art/hero.png}\n", encoding="utf-8")
    return base, expansion


def test_a_data_game_expansion_is_checked_like_a_built_in_one(data_game):
    base, expansion = data_game
    findings = validate(base, (expansion,)).findings
    assert [(f.code, f.card, f.location.line, f.location.column) for f in findings] == [
        ("name-reused-across-packs", "squire-two", 3, 40)]  # the starter's Brave Squire
    game_yaml = expansion / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("card_size: poker", "card_size: bridge"))
    sizes = [f for f in validate(base, (expansion,)).findings if f.code == "expansion-card-size"]
    assert [(f.location.line, f.location.column) for f in sizes] == [(7, 12)]
    assert "the hero cards of expansion 'ember-more' are bridge" in sizes[0].message


def test_a_data_game_back_that_prints_the_set_mark(data_game):
    """The starter's back is one shared drawing; a designer who makes it print each card's set
    mark makes the expansion's heroes recognisable from the back."""
    base, expansion = data_game
    back = base / "templates" / "back.yaml"
    back.write_text(back.read_text().replace("shared: true\n", "")
                    + "  - {type: widget, widget: set_mark, box: [54.0, 4.0, 6.0, 6.0]}\n")
    assert validate(base).findings == []
    (finding,) = [f for f in validate(base, (expansion,)).findings
                  if f.code == "expansion-back-differs"]
    assert (finding.card, finding.location.line, finding.location.column) == ("lancer", 2, 5)
    assert "every hero card of 'ember'" in finding.message and "set mark" in finding.message


# --- docs ------------------------------------------------------------------------------------

def test_docs_list_every_generic_check():
    text = DOCS.read_text(encoding="utf-8")
    table = re.findall(r"^\| `([a-z0-9-]+)` \| ([a-z-]+) \| (error|warning) \|", text, re.M)
    assert {code for code, _, _ in table} == set(crosspack.CHECKS)
    for code, level, severity in table:
        check = crosspack.CHECKS[code]
        assert (level, severity) == (check.level, check.severity.value), code
