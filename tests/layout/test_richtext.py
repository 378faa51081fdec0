"""Rich text: ``<b> <i> <u> <font color>`` in card texts, translations and labels.

The printed PDF is read back (pdfium): each styled word in its font and colour, the
underline drawn under its word; text fitting measures the runs as they print and hyphenates
across a change of style; mistakes in the markup and translations that drop tags are findings
at their place.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import VOCABULARY, copy_vocabulary, run_pnp
from pdfread import Shape, Word, open_pdf

from generator.layout.engine import text_ops
from generator.layout.ops import Image, Text
from generator.layout.richtext import parse, tags_differ
from generator.layout.textfit import fit_text
from generator.load.fonts import string_width_mm


@pytest.fixture(scope="module")
def fronts(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("vocab")
    result = run_pnp("build", str(VOCABULARY), "--out", str(out), "--duplex", "none")
    assert result.returncode == 0, result.stderr
    return out / "vocab" / "en" / "a4" / "fronts.pdf"


def _words(pdf: Path) -> tuple[dict[str, Word], list[Shape]]:
    """The first page's words by their text, and its lines."""
    with open_pdf(pdf) as pages:
        return {word.text: word for word in pages[0].words()}, pages[0].lines


def test_styled_words_print_in_their_own_fonts(fronts: Path) -> None:
    words, _ = _words(fronts)
    assert words["slow"].fontname == "PTSans-Bold"
    assert words["cheap"].fontname == "PTSans-Italic"
    assert words["both"].fontname == "PTSans-BoldItalic"
    assert words["ship"].fontname == "PTSans-Regular"  # plain around them
    assert words["twice"].fontname == "PTSans-Bold"  # a run of two words


def test_a_coloured_word_prints_in_its_palette_colour(fronts: Path) -> None:
    words, _ = _words(fronts)
    fire = (0xb3 / 255, 0x26 / 255, 0x1e / 255)  # the pack's palette: fire: "#b3261e"
    assert words["red"].fill == pytest.approx(fire, abs=0.002)
    assert words["hull;"].fill == pytest.approx((0x22 / 255,) * 3, abs=0.002)


def test_an_underlined_word_has_a_line_under_it_as_wide_as_it(fronts: Path) -> None:
    words, lines = _words(fronts)
    word = words["underlined,"]  # (the comma after it is plain, in the same font)
    comma = 1.5  # points: the comma is not underlined
    under = [line for line in lines
             if abs(line.x0 - word.x0) < 0.3 and word.x1 - comma - 1 < line.x1
             < word.x1 - 0.5 and abs(line.top - word.bottom) < 2.0]
    assert len(under) == 1
    assert under[0].stroke == pytest.approx((0x22 / 255,) * 3, abs=0.002)


def test_entities_print_the_signs(fronts: Path) -> None:
    with open_pdf(fronts) as pages:
        text = pages[0].text()
    assert "<escaped> & plain." in text


def test_fitting_measures_each_run_in_its_own_font() -> None:
    """PT Sans Italic is narrower than the upright: an italic line fits a box the same words
    upright do not (and bold, a hair wider, does not either)."""
    text = "Surfing the Waves"
    upright, slanted = (string_width_mm(text, style, 9) for style in ("regular", "italic"))
    assert slanted < upright - 1.0
    width = slanted + 0.2
    assert len(fit_text(f"<i>{text}</i>", width, 40, "regular", 9, 9).lines) == 1
    assert len(fit_text(text, width, 40, "regular", 9, 9).lines) == 2
    assert len(fit_text(f"<b>{text}</b>", width, 40, "regular", 9, 9).lines) == 2


def test_a_word_hyphenates_across_a_change_of_style() -> None:
    """``<b>Gezeiten</b>becken``: one word in two fonts, broken inside it, each letter in its
    run's font (the hyphen takes the letter before it)."""
    head = string_width_mm("Gezeiten", "bold", 9) + string_width_mm("be-", "regular", 9)
    fitted = fit_text("<b>Gezeiten</b>beckenrand", head + 0.3, 40, "regular", 9, 9, "de")
    first, second = fitted.lines[0], fitted.lines[1]
    assert [(p.text, p.style is not None and p.style.bold) for p in first.pieces] == [
        ("Gezeiten", True), ("be-", False)]
    assert "".join(p.text for p in second.pieces).startswith("cken")
    assert fitted.hyphenated and fitted.fits


def test_an_inline_icon_inside_a_run_takes_the_runs_colour() -> None:
    fitted = fit_text('<font color="#b3261e"><b>burn {flame}</b></font>', 40, 10, "regular",
                      9, 9)
    drawn: list[tuple] = []

    def flame(x: float, baseline: float, size: float, color: str) -> list:
        drawn.append((color,))
        return [Image(x, baseline - size, size, size, "flame.svg", True)]

    ops, unknown = text_ops(fitted, (0, 0, 40, 10), "left", "top", "regular", "#000000",
                            {"flame": flame})
    assert unknown == [] and drawn == [("#b3261e",)]
    assert [(op.text, op.font) for op in ops if isinstance(op, Text)] == [("burn ", "bold")]


def test_the_parser_says_what_is_wrong() -> None:
    assert parse("<b>bold</b> and <i>it</i>").problems == ()
    assert parse("<b>never closed").problems == ("<b> is not closed",)
    assert "unknown tag <blink>" in parse("<blink>x</blink>").problems[0]
    assert "write &lt;" in parse("3 < 4").problems[0]
    assert parse("<b><i>x</b></i>").problems[0].startswith("</b> closes nothing")
    assert parse("&lt;b&gt; &amp; R&D").plain == "<b> & R&D"


def test_a_translation_must_keep_the_tags() -> None:
    assert tags_differ("a <b>word</b>", "ein <b>Wort</b>") is None
    assert tags_differ("<b>a</b> <i>b</i>", "<i>b</i> <b>a</b>") is None  # order may change
    assert "lacks <b> </b>" in tags_differ("a <b>word</b>", "ein Wort")
    assert "adds <u> </u>" in tags_differ("a word", "ein <u>Wort</u>")
    assert "not well formed" in tags_differ("a <b>word</b>", "ein </b>Wort<b>")


def _findings(result) -> list[tuple]:
    return [(f["code"], Path(f["file"]).name, f["line"], f["column"], f["card"])
            for f in json.loads(result.stdout)["findings"]]


def test_bad_markup_in_a_card_text_is_a_finding_at_its_field(tmp_path: Path) -> None:
    pack = copy_vocabulary(tmp_path)
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        'text: "Keeps the light."', 'text: "Keeps <b>the <x>light."'), encoding="utf-8")
    result = run_pnp("validate", str(pack), "--format", "json")
    assert result.returncode == 1
    assert _findings(result) == [("bad-markup", "cards.yaml", 22, 11, "lighthouse")] * 2
    messages = [f["message"] for f in json.loads(result.stdout)["findings"]]
    assert "unknown tag <x>" in messages[0] and "<b> is not closed" in messages[1]


def test_bad_markup_in_a_template_is_a_finding_at_its_line(tmp_path: Path) -> None:
    pack = copy_vocabulary(tmp_path)
    back = pack / "templates" / "back.yaml"
    back.write_text(back.read_text(encoding="utf-8").replace(
        '"<b>Vocabulary</b>"', '"<b>Vocabulary</bold>"'), encoding="utf-8")
    result = run_pnp("validate", str(pack), "--format", "json")
    assert result.returncode == 1
    assert set(_findings(result)) == {("bad-template", "back.yaml", 6, 49, None)}
    messages = [f["message"] for f in json.loads(result.stdout)["findings"]]
    assert any("unknown tag </bold>" in m for m in messages)


def test_a_translation_that_drops_a_tag_is_a_finding_at_its_po_entry(tmp_path: Path) -> None:
    pack = copy_vocabulary(tmp_path)
    catalog = pack / "locales" / "de.po"
    text = catalog.read_text(encoding="utf-8")
    assert '"Jedes Schiff im Hafen <b>repariert</b> einen Treffer."' in text
    catalog.write_text(text.replace("<b>repariert</b>", "repariert"), encoding="utf-8")
    line = next(number for number, row in enumerate(catalog.read_text("utf-8").split("\n"), 1)
                if row.startswith('msgstr "Jedes Schiff im Hafen'))
    result = run_pnp("validate", str(pack), "--locale", "de", "--format", "json")
    assert result.returncode == 1
    assert ("translation-tags", "de.po", line, 1, "harbour") in _findings(result)
