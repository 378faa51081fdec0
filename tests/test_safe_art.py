"""A stranger's art is safe to print (issue 24): SVG references stay inside the pack, embedded
pictures print, what validates builds, and drawing work and pixels are bounded.

Each test builds the attack in a copy of the shipped data game (rockpool), whose card 'chiton'
names ``art/creatures/chiton.svg`` at creatures.yaml:86:10, and checks what pnp says and
prints: findings by code and place, and the PDFs' pixels (pypdfium2).
"""

from __future__ import annotations

import base64
import io
import json
import shutil
import struct
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from conftest import ROOT, run_pnp
from PIL import Image

from generator.load import art
from generator.pipeline.validate import validate

HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'viewBox="0 0 100 100" width="100" height="100">')
SECRET = (250, 3, 3)  # the colour of what lies outside the pack
PICTURE = (3, 250, 3)  # the colour of a picture embedded in the pack's art
ART_AT = ("creatures.yaml", 86, 10)


def _png(color: tuple[int, int, int], side: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (side, side), color).save(buffer, "PNG")
    return buffer.getvalue()


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    return Path(shutil.copytree(ROOT / "cards" / "rockpool", tmp_path / "rockpool"))


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """Files beside the pack, as a user's disk holds them: an SVG and a PNG, painted red."""
    folder = tmp_path / "private"
    folder.mkdir()
    (folder / "x.svg").write_text(HEAD + '<g id="id"><rect width="100" height="100" '
                                  'fill="#fa0303"/></g></svg>', encoding="utf-8")
    (folder / "s.png").write_bytes(_png(SECRET, 16))
    return folder


def _chiton(pack: Path, body: str) -> None:
    (pack / "art" / "creatures" / "chiton.svg").write_text(HEAD + body + "</svg>",
                                                          encoding="utf-8")


def _findings(pack: Path, code: str) -> list[tuple[str, int, int, str]]:
    art.art_info.cache_clear()
    art._pixels_spent.cache_clear()
    return [(Path(f.location.file).name, f.location.line, f.location.column, f.message)
            for f in validate(pack).findings if f.code == code]


def _pixels_of(pdf: Path, color: tuple[int, int, int]) -> int:
    """Pixels of every page near ``color`` (at 50 dpi)."""
    count = 0
    for page in pdfium.PdfDocument(pdf):
        image = page.render(scale=50 / 72).to_pil().convert("RGB")
        count += sum(n for n, (r, g, b) in image.getcolors(1 << 20)
                     if abs(r - color[0]) + abs(g - color[1]) + abs(b - color[2]) < 30)
    return count


# --- references: inside the pack only, the same decision for validate and every output -------

@pytest.mark.parametrize("body", [
    '<use href="../../../private/x.svg#id"/>',
    '<use xlink:href="../../../private/x.svg#id"/>',
    '<image width="100" height="100" xlink:href="../../../private/s.png"/>',
    '<image width="100" height="100" href="{outside}/s.png"/>',
    '<image width="100" height="100" href="file://{outside}/s.png"/>',
    '<rect width="9" height="9" style="fill: url(\'../../../private/x.svg#id\')"/>',
    '<style>@import "../../../private/x.css";</style>',
])
def test_an_svg_naming_a_file_outside_the_pack_is_refused_at_the_card(pack, outside, body):
    _chiton(pack, body.format(outside=outside))
    [(name, line, column, message)] = _findings(pack, "art-outside-pack")
    assert (name, line, column) == ART_AT
    assert "'chiton.svg' line 1:" in message and "the pack" in message


def test_nothing_outside_the_pack_reaches_a_pdf_or_a_proof_picture(pack, outside, tmp_path):
    """Before: the private SVG printed on the chiton's front with exit 0. Now build stops with
    the finding, and preview (which shows findings) draws nothing of the file."""
    _chiton(pack, '<use href="../../../private/x.svg#id"/><image width="50" height="50" '
            'xlink:href="../../../private/s.png"/>')
    result = run_pnp("build", str(pack), "--out", str(tmp_path / "out"), "-q", "--locale", "en")
    assert result.returncode == 1, result.stderr
    assert "error[art-outside-pack]" in result.stdout + result.stderr
    result = run_pnp("preview", str(pack), "--out", str(tmp_path / "proof"))
    assert result.returncode == 1, result.stderr  # the page is written, the finding pinned on
    pictures = list((tmp_path / "proof").rglob("*.png"))
    assert pictures
    for picture in pictures:
        with Image.open(picture) as image:
            colors = image.convert("RGB").getcolors(1 << 22)
        assert not [c for n, c in colors if abs(c[0] - SECRET[0]) + c[1] + c[2] < 30], picture


def test_svglib_itself_is_given_the_pack_as_its_reference_root(pack, outside, monkeypatch):
    """The second line: were pnp's own check to let a reference through, svglib's
    external_reference_root still refuses to read outside the pack."""
    _chiton(pack, '<use href="../../../private/x.svg#id"/>')
    monkeypatch.setattr(art, "_follow", lambda *_: None)
    art.art_info.cache_clear()
    art.svg_drawing.cache_clear()
    drawing = art.svg_drawing(pack / "art" / "creatures" / "chiton.svg")
    assert not _contents(drawing), "the outside shape was drawn"


def _contents(node) -> list:
    found = []
    for child in getattr(node, "contents", ()) or ():
        found.append(child) if not hasattr(child, "contents") else found.extend(_contents(child))
    return found


def test_a_reference_to_another_svg_of_the_pack_is_drawn(pack, tmp_path):
    (pack / "art" / "shapes.svg").write_text(
        HEAD + '<g id="leaf"><rect width="100" height="100" fill="#03fa03"/></g></svg>',
        encoding="utf-8")
    _chiton(pack, '<use href="../shapes.svg#leaf"/>')
    assert _findings(pack, "art-outside-pack") == []
    result = run_pnp("build", str(pack), "--out", str(tmp_path / "out"), "-q", "--locale", "en")
    assert result.returncode == 0, result.stderr
    assert _pixels_of(tmp_path / "out" / "rockpool" / "en" / "a4" / "fronts.pdf", PICTURE) > 100


def test_svg_files_that_use_each_other_are_refused(pack):
    (pack / "art" / "a.svg").write_text(HEAD + '<use href="creatures/chiton.svg"/></svg>',
                                        encoding="utf-8")
    _chiton(pack, '<use href="../a.svg"/>')
    [(*where, message)] = _findings(pack, "art-unreadable")
    assert tuple(where) == ART_AT and "leads back to itself" in message


# --- embedded pictures are ordinary art ------------------------------------------------------

@pytest.mark.parametrize("href", [
    "data:image/png;base64,{png}",
    "data:image/png;base64,\n  {png_wrapped}",   # as Inkscape wraps it
    "picture.png",                                # a PNG of the pack beside the SVG
])
def test_an_embedded_picture_validates_and_prints(pack, tmp_path, href):
    png = base64.b64encode(_png(PICTURE, 32)).decode()
    (pack / "art" / "creatures" / "picture.png").write_bytes(_png(PICTURE, 32))
    wrapped = "\n  ".join(png[i:i + 76] for i in range(0, len(png), 76))
    _chiton(pack, f'<image width="100" height="100" xlink:href="{href}"/>'.format(
        png=png, png_wrapped=wrapped))
    assert [f.as_text() for f in validate(pack).findings] == []
    out = tmp_path / "out"
    result = run_pnp("build", str(pack), "--out", str(out), "-q", "--locale", "en")
    assert result.returncode == 0, result.stderr  # was: exit 2, "expected str instance, bytes"
    assert _pixels_of(out / "rockpool" / "en" / "a4" / "fronts.pdf", PICTURE) > 100


@pytest.mark.parametrize(("href", "said"), [
    ("data:image/gif;base64,R0lGODlhAQABAAAAACw=", "must be a base64 PNG or JPEG"),
    ("data:image/png;base64," + base64.b64encode(_png(PICTURE, 8)[:40]).decode(),
     "cannot be read as a PNG or JPEG"),
    ("data:image/png;base64,iVBOR\u00e9w0KGgo", "holds other characters"),
    ("data:image/png;base64,iVBORw0KGgo", "cut short"),
])
def test_an_embedded_picture_that_cannot_print_is_located(pack, href, said):
    _chiton(pack, f'<image width="9" height="9" xlink:href="{href}"/>')
    [(*where, message)] = _findings(pack, "art-unreadable")
    assert tuple(where) == ART_AT and said in message, message


# --- what validates builds -------------------------------------------------------------------

@pytest.mark.parametrize(("body", "code"), [
    ('<rect width="NaN" height="10"/>', "art-unreadable"),         # was: exit 2 at build
    ('<rect width="10" height="10" x="-inf"/>', "art-unreadable"),
    ('<g transform="scale(0)"><rect width="10" height="10"/></g>', None),  # was: exit 2
    ('<g transform="matrix(0 0 0 0 0 0)"><rect width="1" height="1"/></g>', None),
    ('<path d="M0 0L9 9" stroke="#000" stroke-dasharray="-1"/>', None),   # was: exit 2
    ('<path d="M0 0L9 9" stroke="#000" stroke-dasharray="0 0"/>', None),
])
def test_degenerate_values_are_a_finding_at_validate_or_build(pack, tmp_path, body, code):
    _chiton(pack, body)
    result = run_pnp("build", str(pack), "--out", str(tmp_path / "out"), "-q", "--locale", "en")
    if code is None:
        assert result.returncode == 0, result.stderr
    else:
        assert result.returncode == 1 and f"creatures.yaml:86:10: error[{code}]" in \
            result.stdout + result.stderr, result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


def test_an_svg_in_utf7_is_a_finding_not_an_internal_error(pack):
    text = ('<?xml version="1.0" encoding="UTF-7"?>' + HEAD + "<rect width='9' height='9'/>"
            "</svg>")
    (pack / "art" / "creatures" / "chiton.svg").write_bytes(text.encode("utf-7"))
    result = run_pnp("validate", str(pack), "--format", "json")
    assert result.returncode == 1, result.stderr  # was: internal error, multi-byte encodings
    [found] = [f for f in json.loads(result.stdout)["findings"] if f["code"] == "art-unreadable"]
    assert (Path(found["file"]).name, found["line"], found["column"]) == ART_AT
    assert "encoding" in found["message"]


# --- drawing work is bounded -----------------------------------------------------------------

@pytest.mark.parametrize(("body", "said"), [
    (f'<path d="M0 0 {"L1 1 " * 210_000}"/>', "characters of path data"),
    ('<defs><path id="p" d="M0 0 ' + "L1 1 " * 2_000 + '"/></defs>'
     + '<use href="#p"/>' * 200, "characters of path data"),         # copies counted
    ('<linearGradient id="g">' + '<stop offset="0.5" stop-color="#f00"/>' * 200
     + '</linearGradient>' + '<rect width="1" height="1" fill="url(#g)"/>' * 100,
     "colour stops"),
    ('<style>rect { fill: url(#g) }</style><linearGradient id="g">'
     + '<stop offset="0.5" stop-color="#f00"/>' * 100 + '</linearGradient>'
     + '<rect width="1" height="1"/>' * 100, "colour stops"),
])
def test_drawing_work_past_the_limits_is_refused(pack, body, said):
    _chiton(pack, body)
    [(*where, message)] = _findings(pack, "art-too-complex")
    assert tuple(where) == ART_AT and said in message


# --- pictures: whole, and a budget for the pack ----------------------------------------------

def _cut_png() -> bytes:
    """A PNG whose compressed data is cut in half, with every chunk's checksum right."""
    image = Image.frombytes("L", (64, 64), bytes(range(256)) * 16)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    data, out, position = buffer.getvalue(), b"\x89PNG\r\n\x1a\n", 8
    while position < len(data):
        (length,) = struct.unpack(">I", data[position:position + 4])
        kind = data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IDAT":
            body = body[:len(body) // 2]
        out += struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body))
    return out


def test_a_png_cut_short_is_a_finding_not_a_black_band(pack):
    (pack / "art" / "creatures" / "chiton.png").write_bytes(_cut_png())
    cards = pack / "creatures.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("chiton.svg", "chiton.png"),
                     encoding="utf-8")
    [(*where, message)] = _findings(pack, "art-unreadable")
    assert tuple(where) == ART_AT and "damaged or cut short" in message


def test_small_files_of_many_megapixels_meet_the_pack_budget(pack):
    """Each file is 16 megapixels in under a kilobyte: four fit in the floor, the fifth not."""
    buffer = io.BytesIO()
    Image.new("RGB", (4000, 4000), (9, 9, 9)).save(buffer, "WEBP", lossless=True)
    cards = pack / "creatures.yaml"
    text = cards.read_text(encoding="utf-8")
    names = sorted({line.split("art/creatures/")[1].split(".svg")[0]
                    for line in text.splitlines() if "art: art/creatures/" in line})[:6]
    for name in names:
        (pack / "art" / "creatures" / f"{name}.webp").write_bytes(buffer.getvalue())
        text = text.replace(f"art/creatures/{name}.svg", f"art/creatures/{name}.webp")
    cards.write_text(text, encoding="utf-8")
    found = _findings(pack, "art-pixel-budget")
    assert len(found) == 2 and all(f[0] == "creatures.yaml" for f in found), found
    assert "the limit is 64 megapixels and 8 per byte" in found[0][3]
