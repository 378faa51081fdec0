"""Strict templates, template inheritance, card sizes against template sizes, and x-labels:
a broken copy of the vocabulary pack with one case each, tested for code, severity and place.
"""

from __future__ import annotations

import json
from pathlib import Path

import polib
import pytest
from conftest import ROOT, copy_vocabulary, run_pnp
from pdfread import open_pdf


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def place(path: Path, needle: str) -> tuple[int, int]:
    """Line and column (1-based) where ``needle`` is written in ``path``."""
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


def findings(pack: Path, *args: str) -> tuple[int, list[dict]]:
    result = run_pnp("validate", str(pack), *args, "--format", "json")
    assert "Traceback" not in result.stderr
    return result.returncode, json.loads(result.stdout)["findings"]


def where(found: dict) -> tuple[str, str, str, int, int]:
    return (found["severity"], found["code"], Path(found["file"]).name, found["line"],
            found["column"])


@pytest.mark.parametrize(("wrong", "key", "says"), [
    ("alignn: center", "alignn", "unknown property 'alignn' of a text element; did you mean "
                                 "'align'?"),
    ("colour: fire", "colour", "did you mean 'color'?"),
    ("minsize: 6.5", "minsize", "did you mean 'min_size'?"),
    ("stroke: ink", "stroke", "a text element does not take 'stroke' (it takes: align, "
                              "box, color,"),
])
def test_a_property_the_element_does_not_take_is_an_error_at_its_key(
        tmp_path: Path, wrong: str, key: str, says: str) -> None:
    pack = copy_vocabulary(tmp_path)
    template = pack / "templates" / "base.yaml"
    edit(template, "size: 9, min_size: 7}", f"size: 9, min_size: 7, {wrong}}}")
    code, found = findings(pack)
    assert code == 1
    assert [where(f) for f in found] == [("error", "bad-template", "base.yaml",
                                          *place(template, f"{key}:"))]
    assert says in found[0]["message"]


def test_opacity_is_a_property_of_every_element_from_0_to_1(tmp_path: Path) -> None:
    pack = copy_vocabulary(tmp_path)
    template = pack / "templates" / "base.yaml"
    edit(template, "size: 9, min_size: 7}", "size: 9, min_size: 7, opacity: 0.5}")
    assert findings(pack) == (0, [])
    edit(template, "opacity: 0.5}", "opacity: 1.5}")
    code, found = findings(pack)
    assert code == 1 and [where(f) for f in found] == [
        ("error", "bad-template", "base.yaml", *place(template, "1.5"))]
    assert "opacity is 1.5; it must be a number from 0" in found[0]["message"]


def test_an_unknown_template_key_is_an_error(tmp_path: Path) -> None:
    pack = copy_vocabulary(tmp_path)
    template = pack / "templates" / "back.yaml"
    edit(template, "shared: true", "shared: true\nshraed: true")
    code, found = findings(pack)
    assert code == 1 and [where(f) for f in found] == [
        ("error", "bad-template", "back.yaml", *place(template, "shraed"))]
    assert "did you mean 'shared'?" in found[0]["message"]


@pytest.mark.parametrize(("game_edit", "at"), [
    # a kind of its own size, its templates left at poker size: located at the kind's size
    (("    front: port\n", "    front: port\n    size: {width_mm: 88.9, height_mm: 63.5}\n"),
     "{width_mm: 88.9"),
    # the pack's card size: located at card_size
    (("card_size: poker", "card_size: mini"), "mini"),
])
def test_a_template_drawn_for_another_card_size_is_an_error(
        tmp_path: Path, game_edit: tuple[str, str], at: str) -> None:
    pack = copy_vocabulary(tmp_path)
    edit(pack / "game.yaml", *game_edit)
    code, found = findings(pack)
    assert code == 1
    sizes = [f for f in found if f["code"] == "template-size"]
    assert sizes and {where(f) for f in sizes} == {
        ("error", "template-size", "game.yaml", *place(pack / "game.yaml", at))}
    assert "drawn for 63.5 x 88.9 mm" in sizes[0]["message"]
    assert "would print clipped" in sizes[0]["message"]
    build = run_pnp("build", str(pack), "--out", str(tmp_path / "out"))
    assert build.returncode == 1 and not (tmp_path / "out").exists()


def test_a_builtin_game_with_another_card_size_is_an_error_at_card_size(tmp_path: Path
                                                                       ) -> None:
    import shutil

    pack = Path(shutil.copytree(ROOT / "cards" / "cwnb", tmp_path / "cwnb"))
    edit(pack / "game.yaml", "card_size: poker", "card_size: mini")
    code, found = findings(pack)
    assert code == 1
    found = [f for f in found if f["code"] != "cwnb-playing-card-size"]  # (the game's own)
    assert {where(f) for f in found} == {
        ("error", "template-size", "game.yaml", *place(pack / "game.yaml", "mini"))}
    drawn = sorted((f["message"].split("'")[1], f["message"].split("'")[3]) for f in found)
    assert drawn == [("action", "action"), ("action", "action-defense"),
                     ("action", "action-special"), ("action", "back-action"),
                     ("player_order", "back-order"), ("player_order", "order-summary"),
                     ("ship", "back-crippled"), ("ship", "back-passive"),
                     ("ship", "back-ship"), ("ship", "ship")]  # each kind's fronts and backs


def test_extends_overrides_named_elements_and_adds_the_others(tmp_path: Path) -> None:
    """ship.yaml overrides the base's band (a gradient of fire and gold) and adds the rest;
    port.yaml only recolours the title: read back from the printed fronts."""
    out = tmp_path / "out"
    result = run_pnp("build", str(ROOT / "tests" / "fixtures" / "vocabulary"), "--out",
                     str(out), "--duplex", "none")
    assert result.returncode == 0, result.stderr
    with open_pdf(out / "vocab" / "en" / "a4" / "fronts.pdf") as pages:
        ships, port = pages[0].words(), pages[1].words()
    title = {w.text: w.fill for w in ships + port}
    # overridden in place: each title printed once, in its template's colour
    assert [w.text for w in ships + port].count("Harbour") == 1
    assert title["Tramp"] == pytest.approx((0xfb / 255, 0xf6 / 255, 0xea / 255), abs=0.002)
    assert title["Harbour"] == pytest.approx((0xd9 / 255, 0xa1 / 255, 0x3b / 255), abs=0.002)
    assert {"1/3", "2/3", "3/3", "1/1"} <= set(title)  # the base's number, inherited by both


@pytest.mark.parametrize(("ship", "says"), [
    ("extends: bse\n", "there is no template 'bse' (bse.yaml beside this one); did you mean "
                       "'base'?"),
    ("extends: port\n", None),  # fine: a template may extend one that extends another
    ("extends: ship\n", "extends 'ship' leads back to this template (ship -> ship)"),
])
def test_extends_names_a_template_of_the_folder(tmp_path: Path, ship: str, says: str | None
                                                ) -> None:
    pack = copy_vocabulary(tmp_path)
    template = pack / "templates" / "ship.yaml"
    edit(template, "extends: base\n", ship)
    code, found = findings(pack)
    if says is None:
        assert code == 0, found
        return
    # at the value of extends (line 1, after "extends: ")
    assert code == 1 and [where(f) for f in found] == [
        ("error", "bad-template", "ship.yaml", 1, 10)]
    assert says in found[0]["message"]


def test_an_override_cannot_change_the_elements_type(tmp_path: Path) -> None:
    pack = copy_vocabulary(tmp_path)
    template = pack / "templates" / "port.yaml"
    edit(template, "{name: title, color: gold}", "{name: title, type: rect, fill: gold}")
    code, found = findings(pack)
    assert code == 1 and [where(f) for f in found] == [
        ("error", "bad-template", "port.yaml", *place(template, "rect"))]
    assert "overrides the text of that name" in found[0]["message"]


def test_x_labels_print_translated_and_reach_the_catalog(tmp_path: Path) -> None:
    pack = copy_vocabulary(tmp_path)
    assert run_pnp("i18n", "extract", str(pack)).returncode == 0
    template = polib.pofile(str(pack / "locales" / "messages.pot"))
    labels = {e.msgid: (e.comment, e.occurrences) for e in template if e.msgctxt == "label"}
    assert labels["Freighter"] == ("label key ship.class:freighter",
                                   [("game.yaml", str(place(pack / "game.yaml",
                                                            "x-labels: {freighter")[0]))])
    out = tmp_path / "out"
    assert run_pnp("build", str(pack), "--locale", "de", "--out", str(out), "--duplex",
                   "none").returncode == 0
    with open_pdf(out / "vocab" / "de" / "a4" / "fronts.pdf") as pages:
        text = pages[0].text()
    assert "Frachter" in text and "Korvette" in text and "freighter" not in text


def test_an_enum_printed_without_a_label_warns_in_a_translated_build(tmp_path: Path) -> None:
    pack = copy_vocabulary(tmp_path)
    game = pack / "game.yaml"
    edit(game, "          x-labels: {freighter: Freighter, corvette: Corvette}\n",
         "          x-labels: {freighter: Freighter}\n")
    assert findings(pack) == (0, [])  # the source language prints the value as it is
    code, found = findings(pack, "--locale", "de")
    assert code == 0
    assert [where(f) for f in found] == [
        ("warning", "enum-without-label", "game.yaml", *place(game, "class:"))]
    assert "'class' as the value corvette, untranslated in de" in found[0]["message"]


def test_x_labels_must_name_the_fields_values(tmp_path: Path) -> None:
    pack = copy_vocabulary(tmp_path)
    game = pack / "game.yaml"
    edit(game, "{freighter: Freighter, corvette: Corvette}",
         "{freighter: Freighter, corvete: Corvette}")
    code, found = findings(pack)
    assert code == 1 and [where(f) for f in found] == [
        ("error", "bad-kind-schema", "game.yaml", *place(game, "corvete"))]
    assert "did you mean 'corvette'?" in found[0]["message"]


@pytest.mark.parametrize(("locale", "word"), [("en", "ROCKS"), ("de", "FELSEN")])
def test_a_text_coloured_by_an_enum_field_keeps_the_colour_while_printing_its_label(
        tmp_path: Path, locale: str, word: str) -> None:
    """Rockpool's tag line prints ``{habitat}`` as its x-label in the habitat's colour
    (``color: "{habitat}"``): the colour is the field's own value (``rocks``), the text its
    label. The label was taken for the colour too, which the palette does not know: black."""
    out = tmp_path / "out"
    result = run_pnp("build", str(ROOT / "cards" / "rockpool"), "--locale", locale,
                     "--out", str(out), "--duplex", "none")
    assert result.returncode == 0, result.stderr
    rocks = (0xa5 / 255, 0x56 / 255, 0x2f / 255)  # cards/rockpool/game.yaml, palette: rocks
    with open_pdf(out / "rockpool" / locale / "a4" / "fronts.pdf") as pages:
        printed = [w for w in pages[0].words() if w.text == word]
    assert printed and all(w.fill == pytest.approx(rocks, abs=0.002) for w in printed)
