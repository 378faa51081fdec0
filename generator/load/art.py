"""Art files placed on cards: what they are, how large, and whether they may be printed.

Raster art (PNG, JPEG, WebP) is read through Pillow with its decompression-bomb guard on: its
header, then a cheap pass over the data so that a file cut short is caught here. An SVG's size
comes from its root element (:mod:`generator.load.svgsize`); only layout and render turn it into
vectors with svglib (:func:`svg_drawing`). Every problem is a short
sentence that the caller turns into a finding on the card field (or template) that named the
file, so a designer reads "art/dragon.png: no such file" next to the card that wants it.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from msgspec import Struct
from PIL import Image as PILImage

from generator.load.packfiles import named_file_refusal, read_named_file

RASTER_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".webp"})
VECTOR_SUFFIXES = frozenset({".svg"})
#: a print-size card needs ~1,000 x 1,000 px at 300 dpi; 40 megapixels is already a poster
MAX_PIXELS = 40_000_000
MIN_DPI = 300.0
MM_PER_INCH = 25.4


class ArtInfo(Struct, frozen=True, gc=False):
    """A usable art file: its pixel size (raster) or its drawing size in points (SVG)."""

    path: Path
    width: float
    height: float
    vector: bool
    #: an SVG that paints with ``currentColor``: a template's colour (or an inline icon's text
    #: colour) decides that paint, so one file serves every palette and the ink-saver variant
    tintable: bool = False

    @property
    def aspect(self) -> float:
        return self.width / self.height if self.height else 1.0


class ArtProblem(Exception):
    """Why an art file cannot be printed; ``code`` is the finding's code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


#: the art finding of each refusal of the pack file policy; the policy's own codes otherwise
_ART_CODES = {"missing": "art-missing", "path-escape": "art-outside-pack",
              "file-too-large": "art-too-large"}


def resolve(root: Path, src: str, kind: str = "image") -> Path:
    """The file ``src`` names inside the pack folder ``root``, under the pack file policy
    (:mod:`generator.load.packfiles`): a path or link leaving the pack, a dangling link, a named
    pipe or device, a file over the size limit of its ``kind`` is an ArtProblem saying which."""
    found = _resolved(root, src, kind)
    if isinstance(found, ArtProblem):
        raise found
    return found


@cache
def _resolved(root: Path, src: str, kind: str) -> Path | ArtProblem:
    """resolve's answer, kept: thousands of cards name the same few pictures, and each answer
    costs a few system calls (``pnp watch`` empties the cache when files change)."""
    try:
        return _resolve(root, src, kind)
    except ArtProblem as problem:
        return problem


def _resolve(root: Path, src: str, kind: str) -> Path:
    if not src.strip():
        raise ArtProblem("art-missing", "no art file named")
    candidate = Path(src)
    if candidate.is_absolute() or ".." in candidate.parts:
        raise ArtProblem("art-outside-pack", f"'{src}' points outside the pack folder; "
                         "copy the file into the pack and name it relative to game.yaml")
    refusal = named_file_refusal(root, root / candidate, kind)
    if refusal is None:
        return (root / candidate).resolve()
    if refusal.code == "missing":
        raise ArtProblem("art-missing", f"'{src}': no such file in the pack"
                         f"{_nearest(root, candidate)}")
    raise ArtProblem(_ART_CODES.get(refusal.code, refusal.code), f"'{src}' {refusal.reason}")


def read_art(path: Path, kind: str = "image") -> bytes:
    """The bytes of a resolved art file, read under the pack file policy (no blocking open,
    the size limit of its kind); raises ArtProblem."""
    raw, refusal = read_named_file(path, kind)
    if refusal is not None or raw is None:
        assert refusal is not None
        raise ArtProblem(_ART_CODES.get(refusal.code, refusal.code),
                         f"'{path.name}' {refusal.reason}")
    return raw


def _nearest(root: Path, candidate: Path) -> str:
    """"; did you mean 'art/ash-wolf.png'?" for a file of the same folder with a close name."""
    from itertools import islice

    from generator.core.findings import did_you_mean

    folder = root / candidate.parent
    try:
        names = [p.name for p in islice(folder.iterdir(), 2000)
                 if p.suffix.lower() in RASTER_SUFFIXES | VECTOR_SUFFIXES]
    except OSError:
        return ""
    hint = did_you_mean(candidate.name, sorted(names))
    if not hint:
        return ""
    close = hint.split("'")[1]
    return f"; did you mean '{(candidate.parent / close).as_posix()}'?"


def resolve_first(roots: Sequence[Path], src: str) -> Path:
    """``src`` in the first of ``roots`` that holds it: a card of an expansion names art of its
    own pack folder, or of the base game's. Refusals other than a missing file are final."""
    missing: ArtProblem | None = None
    for root in dict.fromkeys(roots):
        try:
            return resolve(root, src)
        except ArtProblem as problem:
            if problem.code != "art-missing":
                raise
            missing = missing or problem
    raise missing or ArtProblem("art-missing", f"'{src}': no such file in the pack")


@cache
def art_info(path: Path, kind: str = "image") -> ArtInfo:
    """Read an art file's header (raster) or drawing (SVG); raises ArtProblem."""
    suffix = path.suffix.lower()
    if suffix not in RASTER_SUFFIXES | VECTOR_SUFFIXES:
        raise ArtProblem("art-unreadable", f"'{path.name}' is not PNG, JPEG, WebP or SVG")
    data = read_art(path, kind)
    if suffix in VECTOR_SUFFIXES:
        return _svg_info(path, data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            with PILImage.open(io.BytesIO(data)) as image:
                width, height = image.size
                fmt = image.format
                if fmt in {"PNG", "JPEG", "WEBP"} and width * height <= MAX_PIXELS:
                    _check_raster(image, path.name)
    except (PILImage.DecompressionBombError, PILImage.DecompressionBombWarning):
        raise ArtProblem("art-too-large", f"'{path.name}' declares more pixels than an image "
                         "may have (a decompression bomb?)") from None
    except (OSError, ValueError, SyntaxError):
        raise ArtProblem("art-unreadable", f"'{path.name}' cannot be read as a PNG, JPEG or "
                         "WebP image (damaged or another format)") from None
    if fmt not in {"PNG", "JPEG", "WEBP"}:
        raise ArtProblem("art-unreadable", f"'{path.name}' holds {fmt} data, not PNG, JPEG "
                         "or WebP")
    if width * height > MAX_PIXELS:
        raise ArtProblem("art-too-large", f"'{path.name}' is {width} x {height} px; the limit "
                         f"is {MAX_PIXELS // 1_000_000} megapixels")
    return ArtInfo(path, float(width), float(height), vector=False)


def _svg_info(path: Path, data: bytes) -> ArtInfo:
    """An SVG's size from its root element (svgsize), without drawing it: validation reads
    every SVG a pack places, and svglib's full parse was a third of its time."""
    from generator.load.svgsize import SvgSizeError, svg_size

    try:
        width, height = svg_size(data)
    except SvgSizeError as exc:
        raise ArtProblem("art-unreadable", f"'{path.name}' is not a readable SVG: {exc}") \
            from None
    return ArtInfo(path, width, height, vector=True, tintable=b"currentColor" in data)


def _check_raster(image: PILImage.Image, name: str) -> None:
    """Read the whole file once, cheaply, so that a truncated or damaged image is a finding
    here and not a failure half-way through writing a PDF: PNG chunks are checked against
    their CRCs without decompressing, a JPEG is decoded at 1/8 scale, WebP decoded."""
    try:
        if image.format == "PNG":
            image.verify()
        else:
            if image.format == "JPEG":
                image.draft("RGB", (1, 1))
            image.load()
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ArtProblem("art-unreadable", f"'{name}' is damaged or cut short "
                         f"({str(exc)[:80] or type(exc).__name__})") from None


Recolor = tuple[tuple[str, str], ...]  # ("#rrggbb" drawn in the SVG, "#rrggbb" printed)
#: what ``currentColor`` resolves to while a drawing is parsed, so that the colour it is painted
#: is set after any of the file's own colours are repainted, not repainted with them
_CURRENT = "#fe01fd"


def _converter(color: str | None, recolor: Recolor):
    """svglib's colour hook: ``currentColor`` becomes ``color``, each of the drawing's own colours
    named in ``recolor`` its target, the rest stays as drawn."""
    from reportlab.lib.colors import HexColor

    targets = {source.lower(): HexColor(target) for source, target in recolor}
    if color is not None:
        targets[_CURRENT] = HexColor(color)

    def convert(found):
        hexval = getattr(found, "hexval", None)
        return targets.get("#" + hexval()[2:].lower(), found) if hexval else found

    return convert


@cache
def svg_drawing(path: Path, color: str | None = None, recolor: Recolor = ()):
    """The SVG as a ReportLab drawing (vectors), its ``currentColor`` painted ``color`` when one
    is given (as if the root element said ``color="..."``) and each of its own colours named in
    ``recolor`` replaced; raises ArtProblem when svglib cannot read it."""
    from svglib.svglib import SvgRenderer, load_svg_file

    text = read_art(path, "image")
    if b"<!ENTITY" in text or b"<!entity" in text:
        raise ArtProblem("art-unreadable", f"'{path.name}' declares XML entities; "
                         "pnp reads plain SVG only")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            root = load_svg_file(io.BytesIO(text))  # the bytes read above, not the path again
            if root is not None and color is not None:
                root.set("color", _CURRENT)
            renderer = SvgRenderer(str(path), color_converter=_converter(color, recolor)) \
                if color is not None or recolor else SvgRenderer(str(path))
            drawing = renderer.render(root) if root is not None else None
    except Exception as exc:  # svglib raises whatever its XML and CSS parsers raise
        raise ArtProblem("art-unreadable", f"'{path.name}' is not a readable SVG "
                         f"({type(exc).__name__})") from None
    if drawing is None or not drawing.width or not drawing.height:
        raise ArtProblem("art-unreadable", f"'{path.name}' is not a readable SVG "
                         "(no width and height)")
    _embedded_fonts_only(drawing)
    from generator.load.fonts import font_name

    drawing.initialFontName = font_name("regular")  # the renderer's starting font
    return drawing


def _embedded_fonts_only(node) -> None:
    """ReportLab's drawings default to Helvetica, which would go into the PDF unembedded (print
    shops reject that); text in SVG art prints in the embedded regular family instead."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from generator.load.fonts import font_name

    name = getattr(node, "fontName", None)
    if name is not None:
        try:
            embedded = isinstance(pdfmetrics.getFont(name), TTFont)
        except KeyError:
            embedded = False
        if not embedded:
            node.fontName = font_name("regular")
    for child in getattr(node, "contents", ()) or ():
        _embedded_fonts_only(child)


def placement(info: ArtInfo, box: tuple[float, float, float, float], fit: str
              ) -> tuple[float, float, float, float]:
    """Where the art is drawn for a box and a fit: ``cover`` fills the box and crops,
    ``contain`` shows all of it centred, ``fill`` stretches it to the box."""
    x, y, w, h = box
    if fit == "fill" or w <= 0 or h <= 0:
        return box
    box_aspect = w / h
    wider = info.aspect > box_aspect
    if (fit == "cover") == wider:  # scale to the box's height
        draw_h = h
        draw_w = h * info.aspect
    else:
        draw_w = w
        draw_h = w / info.aspect
    return x + (w - draw_w) / 2, y + (h - draw_h) / 2, draw_w, draw_h


def printed_dpi(info: ArtInfo, drawn_w_mm: float, drawn_h_mm: float) -> float | None:
    """Pixels per inch of raster art at its printed size (None for vectors)."""
    if info.vector or drawn_w_mm <= 0 or drawn_h_mm <= 0:
        return None
    return min(info.width / (drawn_w_mm / MM_PER_INCH), info.height / (drawn_h_mm / MM_PER_INCH))
