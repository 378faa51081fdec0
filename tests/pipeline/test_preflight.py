"""pnp preflight: print-shop checks per card and side, located at the card."""

from __future__ import annotations

import json
from io import BytesIO
from pathlib import Path

import pytest
from conftest import CWNB, ROOT, run_pnp, write_pack
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from generator.layout.engine import FaceLayout
from generator.layout.ops import Circle, Line, Rect, Text
from generator.pipeline.preflight import (
    bleed_problems,
    pdf_problems,
    stroke_problems,
    text_problems,
)

GAME = "pack: pfpack\ngame: cwnb\nname: Preflight fixture\nsource_locale: en\nset_mark: anchor\n"
# an attack card: its damage value sits in the top edge band (rules 7, 7.1), by design 0.4 mm
# under the trim, where a print shop's cut may take it off
ACTION = """\
cards:
  - id: big-gun
    kind: action
    name: Big Gun
    count: 2
    action: gun
    caliber: 5in
    damage: 2
    text: "A first-row ship with a {gun-5in} gun fires at a ship in the enemy's first row."
"""


def codes(problems) -> list[str]:
    return [p.code for p in problems]


def test_text_near_or_across_the_trim():
    face = FaceLayout(63.5, 88.9, [
        Text(10, 40, "in the middle", "regular", 8),
        Text(1.0, 40, "near the edge", "regular", 8),
        Text(60.0, 40, "across the edge", "regular", 8),
        Text(4, 88.5, "below", "regular", 8),
    ])
    problems = text_problems(face, 3.0)
    assert codes(problems) == ["text-in-cut", "text-outside-safe-zone"]
    assert "'across the edge'" in problems[0].message and "'below'" in problems[0].message
    assert "'near the edge' (1.0 mm)" in problems[1].message
    assert "middle" not in problems[0].message + problems[1].message


def test_rotated_text_is_measured_where_it_runs():
    face = FaceLayout(63.5, 88.9, [Text(1.5, 60, "up the left side", "regular", 6, angle=90)])
    (problem,) = text_problems(face, 3.0)
    assert problem.code == "text-in-cut"  # the glyphs reach 1.5 mm - ascent past x = 0


def test_art_that_stops_at_the_trim():
    bleed = 3.175
    face = FaceLayout(63.5, 88.9, [
        Rect(-bleed, -bleed, 63.5 + 2 * bleed, 88.9 + 2 * bleed, fill="#223344"),  # fine
        Rect(0, 0, 63.5, 12, fill="#aa0000"),  # a header band without bleed: top, left, right
        Rect(0, 70, 63.5, 18.9, fill="#ffffff"),  # white on white paper shows no sliver
        Circle(31.75, 44, 5, fill="#000000"),  # well inside
    ])
    (problem,) = bleed_problems(face, bleed)
    assert problem.code == "art-short-of-bleed"
    assert "left (0.0 of 3.175 mm)" in problem.message and "top" in problem.message
    assert "bottom" not in problem.message


def test_placed_art_that_stops_at_the_trim():
    """Art of the image element counts as a filled area, cut to its clip box."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Art:  # the shape of the layout's image operation
        x: float
        y: float
        w: float
        h: float
        path: str
        clip: tuple[float, float, float, float] | None = None

    full = Art(-3.175, -3.175, 69.85, 40, "sky.png")
    stops = Art(-3.175, -3.175, 69.85, 40, "sky.png", clip=(0, 0, 63.5, 36.825))
    assert bleed_problems(FaceLayout(63.5, 88.9, [full]), 3.175) == []
    (problem,) = bleed_problems(FaceLayout(63.5, 88.9, [stops]), 3.175)
    assert "left" in problem.message and "top" in problem.message


def test_thin_strokes():
    face = FaceLayout(63.5, 88.9, [Line(0, 0, 10, 10, "#000000", 0.1),
                                   Rect(5, 5, 10, 10, stroke="#000000", width_pt=0.25),
                                   Rect(5, 5, 10, 10, fill="#000000", width_pt=0.05)])
    (problem,) = stroke_problems(face, 0.25)
    assert problem.code == "thin-stroke" and "0.10 pt" in problem.message


def _pdf(draw) -> bytes:
    buffer = BytesIO()
    canvas = Canvas(buffer, pagesize=(180, 252))
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_fonts_not_embedded_are_read_from_the_pdf():
    def helvetica(canvas):
        canvas.setFont("Helvetica", 10)
        canvas.drawString(20, 100, "base-14 font, never embedded")

    ((problem,),) = list(pdf_problems(_pdf(helvetica), 300))
    assert problem.code == "font-not-embedded" and "Helvetica" in problem.message


def test_images_below_300_dpi_as_printed():
    picture = Image.new("RGB", (40, 40), "#336699")
    buffer = BytesIO()
    picture.save(buffer, format="PNG")

    def placed(canvas):  # 40 px over 1 inch: 40 dpi
        canvas.drawImage(ImageReader(BytesIO(buffer.getvalue())), 20, 20, width=72, height=72)

    ((problem,),) = list(pdf_problems(_pdf(placed), 300))
    assert problem.code == "image-low-dpi" and "40 x 40 px at 40 dpi" in problem.message


@pytest.fixture
def fixture_pack(tmp_path) -> Path:
    return write_pack(tmp_path / "pfpack", {"actions.yaml": ACTION}, GAME)


def test_preflight_locates_each_finding_at_its_card(fixture_pack):
    result = run_pnp("preflight", str(fixture_pack), "--format", "json")
    assert result.returncode == 0, result.stderr  # warnings only
    document = json.loads(result.stdout)
    found = [f for f in document["findings"] if f["card"] == "big-gun"]
    safe = [f for f in found if f["code"] == "text-outside-safe-zone"]
    assert len(safe) == 1
    assert safe[0]["file"].endswith("actions.yaml") and (safe[0]["line"], safe[0]["column"]) \
        == (2, 5)
    assert safe[0]["message"].startswith("front: ") and "'−2'" in safe[0]["message"]
    assert safe[0]["severity"] == "warning" and safe[0]["locale"] == "en"
    assert document["summary"]["faces"] == 2  # the front and the shared action back


def test_a_wider_safe_zone_reports_more(fixture_pack):
    narrow = json.loads(run_pnp("preflight", str(fixture_pack), "--format", "json",
                                "--safe", "1").stdout)
    wide = json.loads(run_pnp("preflight", str(fixture_pack), "--format", "json",
                              "--safe", "6").stdout)
    (narrow_front,) = [f["message"] for f in narrow["findings"] if f["message"][:5] == "front"]
    wide_messages = [f["message"] for f in wide["findings"]]
    assert narrow_front.endswith("'−2' (0.4 mm)")  # only the damage value is that close
    (wide_front,) = [m for m in wide_messages if m.startswith("front")]
    assert "'ATTACK' (3.0 mm)" in wide_front and "'Big Gun'" in wide_front


def test_preflight_sarif(fixture_pack):
    result = run_pnp("preflight", str(fixture_pack), "--format", "sarif")
    sarif = json.loads(result.stdout)
    assert sarif["version"] == "2.1.0"
    (run,) = sarif["runs"]
    rules = {rule["id"] for rule in run["tool"]["driver"]["rules"]}
    assert "text-outside-safe-zone" in rules
    result0 = next(r for r in run["results"] if r["ruleId"] == "text-outside-safe-zone")
    region = result0["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (2, 5)
    assert result0["level"] == "warning" and result0["properties"]["card"] == "big-gun"


@pytest.mark.parametrize("pack", ["cwnb", "commander", "gwas", "rockpool"])
def test_shipped_packs_have_no_preflight_errors(pack):
    """Every shipped face bleeds where it reaches the trim, keeps text out of the cut and
    embeds its fonts; safe-zone and stroke warnings are the designers' to weigh."""
    result = run_pnp("preflight", str(ROOT / "cards" / pack), "--format", "json")
    document = json.loads(result.stdout)
    assert result.returncode == 0, [f for f in document["findings"]
                                    if f["severity"] == "error"]
    assert document["summary"]["faces"] > 10
    assert not {"text-in-cut", "art-short-of-bleed", "font-not-embedded"} & {
        f["code"] for f in document["findings"]}


def test_shared_faces_are_reported_once(tmp_path):
    result = run_pnp("preflight", str(CWNB), "--format", "json", "--safe", "20")
    document = json.loads(result.stdout)
    shared = [f for f in document["findings"] if "(the back of" in f["message"]]
    assert shared, "the shared action back should be reported once, naming how many use it"
    assert len({f["message"] for f in shared}) == len(shared)


def test_a_deliberately_bad_card_of_a_data_game(tmp_path):
    """A starter game (pnp new) with its hero template spoilt: a header band that stops at the
    trim, the name run into the cut and across the left edge."""
    game = tmp_path / "bad"
    assert run_pnp("new", str(game)).returncode == 0
    template = game / "templates" / "hero.yaml"
    text = template.read_text(encoding="utf-8")
    text = text.replace("fill: {linear: [hero, hero_dark], angle: 0}}",
                        "fill: {linear: [hero, hero_dark], angle: 0}, bleed: false}")
    text += ('  - {type: text, box: [-1.0, 60.0, 40.0, 6.0], text: "{name}", size: 8,\n'
             '     hyphenate: false}\n')
    template.write_text(text, encoding="utf-8")
    result = run_pnp("preflight", str(game), "--format", "json")
    assert result.returncode == 1, result.stdout + result.stderr
    found = json.loads(result.stdout)["findings"]
    squire = {f["code"]: f for f in found if f["card"] == "squire"}
    assert {"art-short-of-bleed", "text-in-cut"} <= set(squire)
    for finding in (squire["art-short-of-bleed"], squire["text-in-cut"]):
        assert finding["file"].endswith("heroes.yaml")
        assert (finding["line"], finding["column"]) == (4, 5)
        assert finding["severity"] == "error" and finding["message"].startswith("front: ")
    assert "'Brave Squire'" in squire["text-in-cut"]["message"]
    assert "top" in squire["art-short-of-bleed"]["message"]
    spells = [f for f in found if f["code"] in {"art-short-of-bleed", "text-in-cut"}
              and f["file"].endswith("spells.csv")]
    assert spells == []  # the spell template is untouched
