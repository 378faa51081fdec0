"""The built-in games draw their symbols from SVG files shipped with their templates.

Icons and art of cwnb, gwas and commander are files under ``templates/<game>/`` (icons/, art/),
placed by ``image`` elements and inline ``{icon}`` tokens, painted in palette colours through
``currentColor`` (and ``colors:`` for the other colours a drawing has). These tests hold them to
print quality: vectors only, painted from the palette (the ink-saver one too), and every file a
template names present. (test_strokes reads every printed line, SVG art included.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from conftest import CWNB, ROOT
from pdfread import open_pdf

from generator.layout.faces import lay_out_cards
from generator.layout.ops import Image, Text
from generator.load.art import art_info
from generator.model.template import load_palette
from generator.pipeline.localecheck import localizer_for
from generator.pipeline.validate import validate
from generator.runtime.resources import builtin_game_templates

PACKS = {"cwnb": (CWNB, (ROOT / "cards" / "cwnb-expansion",), "en"),
         "gwas": (ROOT / "cards" / "gwas", (), "ru"),
         "commander": (ROOT / "cards" / "commander", (), "ru")}
_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def _faces(game: str, ink_saver: bool):
    base, expansions, locale = PACKS[game]
    checked = validate(base, expansions)
    return lay_out_cards(checked.card_set, checked.game,
                         localizer_for(checked.card_set, game, locale), 1.5,
                         ink_saver=ink_saver)


DRAWN_FROM_FILES = tuple(PACKS)


@pytest.fixture(scope="module", params=[(g, ink) for g in DRAWN_FROM_FILES
                                        for ink in (False, True)],
                ids=lambda p: f"{p[0]}-{'ink' if p[1] else 'normal'}")
def laid_out(request):
    game, ink_saver = request.param
    return game, ink_saver, _faces(game, ink_saver)


def test_art_is_vector_files_of_the_game_painted_in_its_palette(laid_out):
    game, ink_saver, faces = laid_out
    folder = builtin_game_templates(game).resolve()
    colours = set(load_palette(game, "ink_saver" if ink_saver else "normal").values())
    images = [op for layout in faces.layouts.values() for op in layout.ops
              if isinstance(op, Image)]
    assert images, "no art drawn from files"
    for op in images:
        assert Path(op.path).is_relative_to(folder) and op.vector, op.path
        assert op.color is None or op.color in colours, (op.path, op.color)
        assert all(target in colours for _, target in op.recolor), (op.path, op.recolor)


def test_the_ink_saver_palette_reaches_the_art():
    """A submarine's passive back is a dark full-bleed card with light art; the ink-saver
    variant turns the card white and the art dark, through the palette alone."""
    for ink_saver, back_text in ((False, "#f5f2e9"), (True, "#1d3557")):
        layout = _faces("cwnb", ink_saver).layouts[("back-passive", "uss-los-angeles")]
        (silhouette,) = [op for op in layout.ops if isinstance(op, Image)
                         and op.path.endswith("profile-submarine.svg")]
        assert silhouette.color == back_text


def test_every_file_a_builtin_template_names_is_shipped():
    """Fixed ``src:`` paths are files of the template folder; a ``{value}`` path's folder
    holds at least one SVG (each value is drawn, and so checked, by the layout tests)."""
    for game in DRAWN_FROM_FILES:
        folder = builtin_game_templates(game)
        for template in sorted(folder.glob("*.yaml")):
            data = yaml.safe_load(template.read_text(encoding="utf-8"))
            for element in data.get("elements", []) if isinstance(data, dict) else []:
                if element.get("type") != "image":
                    continue
                src = element["src"]
                if _PLACEHOLDER.search(src):
                    assert list((folder / src).parent.glob("*.svg")), (template.name, src)
                else:
                    assert art_info((folder / src).resolve()).vector, (template.name, src)


def test_category_bar_keeps_colour_shape_and_word():
    """Rules 7, 8, 9 colour the bar; the arrow, shield or star and the word keep it readable on
    a black-and-white printer. ASW is red over black with both symbols."""
    faces = _faces("cwnb", False)
    palette = load_palette("cwnb")
    for card, colours, symbols, word in (
            ("gun-3in", [palette["attack"]], ["arrow"], "ATTACK"),
            ("evasive", [palette["defense"]], ["shield"], "DEFENSE"),
            ("retreat", [palette["special"]], ["star"], "SPECIAL"),
            ("asw", [palette["attack"], palette["defense"]], ["arrow", "shield"],
             "ATTACK / DEFENSE")):
        ops = faces.layouts[faces.fronts[card]].ops  # (each category's layout: action.yaml,
        # action-defense.yaml, action-special.yaml)
        bars = [op for op in ops if getattr(op, "x", None) == -1.5 and getattr(op, "w", 0) < 9]
        assert [bar.fill for bar in bars] == colours, card
        marks = [Path(op.path).stem for op in ops if isinstance(op, Image) and op.x < 7.0]
        assert marks == symbols and all(op.color == "#ffffff" for op in ops
                                        if isinstance(op, Image) and op.x < 7.0)
        (label,) = [op for op in ops if isinstance(op, Text) and op.angle == 90]
        assert label.text == word and label.x == pytest.approx(4.76, abs=0.01)


def test_sheets_print_the_art_as_vectors(tmp_path):
    """Symbols stay vectors on the sheets: no raster image in a built-in game's PDF, and the
    art is drawn from PDF forms (one per file and colour, placed from every face)."""
    from generator.impose.sheets import SheetOptions
    from generator.pipeline.build import build

    result = build(CWNB, (), "en", SheetOptions(paper="a4"), tmp_path)
    assert result.out_dir is not None
    for name in ("fronts.pdf", "backs.pdf"):
        with open_pdf(result.out_dir / name) as pages:
            assert not any(page.images for page in pages), name
    raw = (result.out_dir / "fronts.pdf").read_bytes()
    assert len(set(re.findall(rb"/FormXob\.art\d+", raw))) >= 10


def test_every_gwas_nation_has_its_ensign():
    """Cards name ``art/ensign-{nation_code}.svg``: each nation a card may have is drawn,
    including those no shipped card uses yet (an expansion's)."""
    from generator.i18n.localize import source_labels

    nations = {key.split(":", 1)[1] for key in source_labels("gwas") if key.startswith("nation:")}
    assert len(nations) == 9
    folder = builtin_game_templates("gwas") / "art"
    for nation in nations:
        assert art_info((folder / f"ensign-{nation}.svg").resolve()).vector, nation
