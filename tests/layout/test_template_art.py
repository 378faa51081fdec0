"""Template art for every game: SVG painted in palette colours (``currentColor``), icons in
their text's colour, a set mark drawn from the game's icon, text turned a quarter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import copy_datagame as copy_pack
from conftest import run_pnp
from pdfread import open_pdf

from generator.layout.faces import lay_out_cards
from generator.layout.ops import Image, Text
from generator.pipeline.localecheck import localizer_for
from generator.pipeline.validate import validate

MARK = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" '
        'height="100"><circle cx="50" cy="50" r="40" fill="currentColor"/>'
        '<circle cx="50" cy="50" r="15" fill="#ffffff"/></svg>')
SPELL = """\
size_mm: [63.5, 88.9]
elements:
  - {type: rect, box: [0, 0, 63.5, 88.9], fill: paper, bleed: true}
  - {type: image, box: [10, 10, 20, 20], src: icons/ember.svg, fit: contain, color: fire}
  - {type: image, box: [35, 10, 20, 20], src: icons/ember.svg, fit: contain}
  - {type: image, box: [10, 60, 20, 20], src: icons/ember.svg, fit: contain, color: white,
     colors: {"#ffffff": fire}}
  - {type: text, box: [4, 40, 55, 8], text: "{name} {icon-ember} {icon-flame}", size: 9,
     color: white}
  - {type: text, box: [2, 50, 4, 30], text: "{name}", font: bold, size: 7, rotate: 90}
  - {type: widget, widget: set_mark, box: [56, 2, 5, 5], options: {color: fire}}
"""


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    pack = copy_pack(tmp_path)
    (pack / "icons" / "ember.svg").write_text(MARK, encoding="utf-8")
    (pack / "templates" / "spell.yaml").write_text(SPELL, encoding="utf-8")
    game = (pack / "game.yaml").read_text(encoding="utf-8")
    (pack / "game.yaml").write_text(game.replace("card_size: poker\n",
                                                 "card_size: poker\nset_mark: ember\n"),
                                    encoding="utf-8")
    return pack


def _spell_ops(pack: Path):
    checked = validate(pack)
    assert checked.card_set is not None, checked.findings
    faces = lay_out_cards(checked.card_set, checked.game,
                          localizer_for(checked.card_set, "emberfall", "en"), 0.0)
    (key,) = [k for k in faces.layouts if k[0] == "spell"][:1]
    return faces.layouts[key].ops


def test_current_color_takes_the_element_or_the_text_colour(pack: Path) -> None:
    ops = _spell_ops(pack)
    ember = [op for op in ops if isinstance(op, Image) and op.path.endswith("ember.svg")]
    flame = [op for op in ops if isinstance(op, Image) and op.path.endswith("flame.svg")]
    # image with color: fire; image without; one repainted; inline icon in white text; set mark
    assert [op.color for op in ember] == ["#b3261e", None, "#ffffff", "#ffffff", "#b3261e"]
    assert ember[2].recolor == (("#ffffff", "#b3261e"),) and ember[0].recolor == ()
    assert [op.color for op in flame] == [None]  # no currentColor in it: drawn as it is
    mark = ember[-1]
    assert (mark.x, mark.y, mark.w, mark.h) == pytest.approx((56, 2, 5, 5))


def test_a_turned_text_reads_upwards_along_its_box(pack: Path) -> None:
    (turned,) = [op for op in _spell_ops(pack) if isinstance(op, Text) and op.angle]
    assert turned.angle == 90
    # starts at the box's bottom edge; its baseline a cap height right of the box's left edge
    assert turned.y == pytest.approx(80.0)
    assert turned.x == pytest.approx(2 + 7 * 25.4 / 72 * 0.74)


def test_the_pdf_paints_the_art_in_the_palette_colour(pack: Path, tmp_path: Path) -> None:
    result = run_pnp("build", str(pack), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    fire = (0xb3 / 255, 0x26 / 255, 0x1e / 255)
    with open_pdf(tmp_path / "out" / "emberfall" / "en" / "a4" / "fronts.pdf") as pages:
        fills = {curve.fill for page in pages for curve in page.curves}
    assert fire in fills
    assert (1.0, 1.0, 1.0) in fills


def test_a_bad_rotation_is_a_located_template_finding(pack: Path, tmp_path: Path) -> None:
    path = pack / "templates" / "spell.yaml"
    path.write_text(SPELL.replace("rotate: 90", "rotate: 45"), encoding="utf-8")
    result = run_pnp("validate", str(pack), "--format", "json", cwd=tmp_path)
    found = [(f["code"], Path(f["file"]).name, f["line"]) for f in
             json.loads(result.stdout)["findings"]]
    assert ("bad-template", "spell.yaml", 10) in found
    assert result.returncode == 1


def test_colors_repaint_the_drawing_and_current_color_is_painted_after(tmp_path: Path) -> None:
    """A white die with pips in the band's colour: currentColor white, the file's own white
    repainted; the repainting must not reach the parts currentColor painted white."""
    from generator.load.art import svg_drawing

    art = tmp_path / "mark.svg"
    art.write_text(MARK, encoding="utf-8")
    drawing = svg_drawing(art, "#ffffff", (("#ffffff", "#b3261e"),))
    fills = []

    def walk(node) -> None:
        for child in getattr(node, "contents", ()):
            walk(child)
        if getattr(node, "fillColor", None) is not None:
            fills.append(node.fillColor.hexval())

    walk(drawing)
    assert fills == ["0xffffff", "0xb3261e"]


def test_bad_colors_of_an_image_are_located_findings(pack: Path, tmp_path: Path) -> None:
    path = pack / "templates" / "spell.yaml"
    path.write_text(SPELL.replace('colors: {"#ffffff": fire}', "colors: {white: lava}"),
                    encoding="utf-8")
    result = run_pnp("validate", str(pack), "--format", "json", cwd=tmp_path)
    messages = [f["message"] for f in json.loads(result.stdout)["findings"]
                if f["code"] == "bad-template" and f["line"] == 7]
    assert any("'white' is not a colour of the SVG" in m for m in messages)
    assert any("unknown colour 'lava'" in m for m in messages)


def test_a_lettered_set_mark_can_be_kept_legible() -> None:
    """Путь Командора's footer draws its emblem at 4.2 mm; an expansion's letters need 6 mm, so
    the ring grows to the left and both ways vertically (``lettered_min``)."""
    from types import SimpleNamespace

    from generator.layout.ops import Circle
    from generator.layout.symbols import set_mark_widget

    ctx = SimpleNamespace(color=lambda name, values=None: "#000000", art_root=None,
                          manifest=SimpleNamespace(set_mark="frontier", set_mark_label="F"))
    ring, letter = set_mark_widget({}, (56.3, 83.0, 4.2, 4.2), {"lettered_min": 6.0}, ctx)
    assert isinstance(ring, Circle)
    assert (ring.cx, ring.cy) == pytest.approx((56.3 + 4.2 - 3.0, 83.0 + 2.1))
    assert ring.r == pytest.approx(3.0 * 0.95) and letter.text == "F"
