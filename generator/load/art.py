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
import os
import warnings
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from msgspec import Struct
from PIL import Image as PILImage

from generator.core.limits import (
    MAX_PIXELS,
    MAX_SVG_FILE_DEPTH,
    PACK_PIXELS_FLOOR,
    PACK_PIXELS_PER_BYTE,
)
from generator.core.terminal import quiet_library_logs
from generator.load.packfiles import named_file_refusal, read_named_file
from generator.load.svgrefs import classify, pack_folder

RASTER_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".webp"})
VECTOR_SUFFIXES = frozenset({".svg"})
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
    #: an SVG's drawing work with the files it uses: copies through ``<use>``, path characters
    copies: int = 0
    path_chars: int = 0

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
    refusal = _over_budget(pack_folder(path)).get(path.resolve())
    if refusal is not None:
        raise ArtProblem("art-pixel-budget", refusal)
    width, height = _open_picture(data, path, f"'{path.name}'", ("PNG", "JPEG", "WEBP"),
                                  counted=True)
    return ArtInfo(path, float(width), float(height), vector=False)


@cache
def _over_budget(root: Path) -> dict[Path, str]:
    """The picture files of a pack folder beyond its pixel budget, with why: their headers
    (sizes only, nothing decoded) in name order, so that every process of a run (validate's,
    the layout's forked half, a build's) refuses the same files. A picture is decoded to be
    checked and again to be printed: small files of many megapixels each (WebP, flat PNG)
    would add up to minutes and gigabytes. The budget grows with the bytes of the pictures
    (:data:`PACK_PIXELS_PER_BYTE`, above :data:`PACK_PIXELS_FLOOR`): a large pack of real art
    is large on disk too, a few kilobytes that unpack to hundreds of megapixels are not."""
    from generator.load.packfiles import PackFolder

    pixels = size = 0
    refused: dict[Path, str] = {}
    for file in PackFolder(root).files().files:
        if file.suffix not in RASTER_SUFFIXES:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with PILImage.open(file.path) as image:  # the header only
                    width, height = image.size
            length = os.stat(file.path).st_size
        except Exception:  # damaged, or not a picture: art_info says so where it is used
            continue
        if pixels + width * height > _allowed(size + length):
            refused[file.path.resolve()] = _budget_message(
                f"'{file.path.name}'", pixels + width * height, size + length)
            continue
        pixels, size = pixels + width * height, size + length
    return refused


def _allowed(size: int) -> int:
    return PACK_PIXELS_FLOOR + PACK_PIXELS_PER_BYTE * size


def _budget_message(shown: str, pixels: int, size: int) -> str:
    return (f"{shown} brings the pictures of the pack to {pixels / 1e6:,.0f} megapixels in "
            f"{_mib(size)}; the limit is {PACK_PIXELS_FLOOR // 1_000_000} megapixels and "
            f"{PACK_PIXELS_PER_BYTE} per byte of picture data (make the large pictures "
            "smaller)")


@cache
def _pixels_spent() -> dict[object, tuple[int, int]]:
    """Pixels and bytes of the pictures embedded in each SVG this process has checked; a
    ``functools`` cache so that ``pnp watch`` starts again with the other caches."""
    return {}


def _open_picture(data: bytes, key: object, shown: str, formats: tuple[str, ...],
                  counted: bool = False) -> tuple[int, int]:
    """A picture's size, after checking that it is one of ``formats``, within the pixel limits
    (its own, and for a picture embedded in an SVG the pack's: ``counted`` says a file's were
    counted by :func:`_over_budget`) and whole; raises ArtProblem naming it as ``shown``."""
    names = ", ".join(formats[:-1]) + " or " + formats[-1]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow's remarks on odd files: not for stderr
            warnings.simplefilter("error", PILImage.DecompressionBombWarning)
            with PILImage.open(io.BytesIO(data)) as image:
                width, height = image.size
                fmt = image.format
                if fmt not in formats:
                    raise ArtProblem("art-unreadable", f"{shown} holds {fmt} data, not {names}")
                if width * height > MAX_PIXELS:
                    raise ArtProblem("art-too-large", f"{shown} is {width} x {height} px; the "
                                     f"limit is {MAX_PIXELS // 1_000_000} megapixels")
                if not counted:
                    _spend_pixels(key, width * height, len(data), shown)
                _check_raster(image, shown)
    except (PILImage.DecompressionBombError, PILImage.DecompressionBombWarning):
        raise ArtProblem("art-too-large", f"{shown} declares more pixels than an image may "
                         "have (a decompression bomb?)") from None
    except MemoryError:
        raise ArtProblem("art-too-large", f"{shown} needs more memory to decode than pnp "
                         "allows; make it smaller") from None
    except (OSError, ValueError, SyntaxError):
        raise ArtProblem("art-unreadable", f"{shown} cannot be read as a {names} image "
                         "(damaged or another format)") from None
    return width, height


def _spend_pixels(key: object, pixels: int, size: int, shown: str) -> None:
    """Count a picture embedded in an SVG (``key``: the SVG and the picture's bytes) into this
    process's budget for embedded pictures (the same budget as the pack's files,
    :func:`_over_budget`)."""
    spent = _pixels_spent()
    if key in spent:
        return
    total = sum(p for p, _ in spent.values()) + pixels
    size_total = sum(b for _, b in spent.values()) + size
    if total > _allowed(size_total):
        raise ArtProblem("art-pixel-budget", _budget_message(shown, total, size_total))
    spent[key] = (pixels, size)


def _mib(size: int) -> str:
    return f"{size / 1024:,.0f} KiB" if size < 1024 * 1024 else f"{size / 1024 / 1024:,.1f} MiB"


#: SVG files being checked, outermost first: a file that uses itself through others is refused
_CHECKING: list[Path] = []


def _svg_info(path: Path, data: bytes) -> ArtInfo:
    """An SVG's size from its root element (svgsize), without drawing it: validation reads
    every SVG a pack places, and svglib's full parse was a third of its time. Every reference
    it makes is checked (:mod:`generator.load.svgrefs`): a file it names must be art of the same
    pack, itself checked, and an embedded picture must decode."""
    from generator.load.svgsize import SvgSizeError, check_work, svg_facts

    try:
        facts = svg_facts(data)
    except SvgSizeError as exc:
        raise ArtProblem(exc.code, f"'{path.name}' is not a readable SVG: {exc}") from None
    copies, path_chars = facts.copies, facts.path_chars
    if facts.references:
        root = pack_folder(path)
        _CHECKING.append(path)
        try:
            for reference in facts.references:
                used = _follow(path, root, reference)
                if used is not None:
                    copies += 1 + used.copies
                    path_chars += used.path_chars
        finally:
            _CHECKING.pop()
        try:
            check_work(copies, path_chars, facts.gradient_paint)
        except SvgSizeError as exc:
            raise ArtProblem(exc.code, f"'{path.name}' is not a readable SVG: {exc} (with the "
                             "files it uses)") from None
    return ArtInfo(path, facts.width, facts.height, vector=True,
                   tintable=b"currentColor" in data, copies=copies, path_chars=path_chars)


def _follow(path: Path, root: Path, reference) -> ArtInfo | None:
    """Check one reference of the SVG ``path``: None when it draws no other SVG file, else that
    file's info (its work adds to the drawing's). Raises ArtProblem saying where it is."""
    where = f"'{path.name}' line {reference.line}: " if reference.line else f"'{path.name}': "
    found = classify(reference.value, reference.element, path, root, reference.css)
    if found.kind == "refused":
        code = "art-outside-pack" if "not a file of the pack" in found.reason or \
            "outside the pack" in found.reason else "art-unreadable"
        raise ArtProblem(code, where + found.reason)
    if found.kind == "picture":
        assert found.data is not None
        _embedded_picture(found.data, path, where)
        return None
    if found.kind != "file":
        return None
    assert found.path is not None
    if found.path == path:  # its own elements, by file name
        return None
    refusal = named_file_refusal(root, found.path, "image")
    if refusal is not None:
        raise ArtProblem("art-outside-pack" if refusal.code == "path-escape" else
                         _ART_CODES.get(refusal.code, "art-unreadable"),
                         f"{where}it names '{reference.value[:60]}', which {refusal.reason}")
    target = found.path.resolve()
    if found.path.suffix.lower() == ".svg" and found.path.suffix != ".svg":
        raise ArtProblem("art-unreadable", f"{where}name '{found.path.name}' with a lowercase "
                         ".svg (svglib reads other endings as pictures)")
    if target in _CHECKING or len(_CHECKING) > MAX_SVG_FILE_DEPTH:
        raise ArtProblem("art-unreadable", f"{where}'{found.path.name}' leads back to itself "
                         f"or uses files more than {MAX_SVG_FILE_DEPTH} deep")
    try:
        used = art_info(target)
    except ArtProblem as problem:
        raise ArtProblem(problem.code, f"{where}it uses {problem.message}") from None
    return used if used.vector else None


def _embedded_picture(data: bytes, svg: Path, where: str) -> None:
    """An embedded picture is art like a file: PNG or JPEG (what svglib decodes), within the
    pixel limits, whole."""
    _open_picture(data, (svg, hash(data)), f"{where}its embedded picture", ("PNG", "JPEG"))


def _check_raster(image: PILImage.Image, shown: str) -> None:
    """Decode the whole picture once, so that a truncated or damaged one is a finding here and
    not a black band in the PDF or a failure half-way through writing it (a PNG cut short
    inside its compressed data has whole chunks with good checksums: only decoding finds it).
    A JPEG is decoded at 1/8 scale."""
    try:
        if image.format == "JPEG":
            image.draft("RGB", (1, 1))
        image.load()
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ArtProblem("art-unreadable", f"{shown} is damaged or cut short "
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

    quiet_library_logs()  # svglib logs what it skips; validation has said what matters
    art_info(path)  # the checks validate made, references first: one decision for both
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
            # svglib refuses by itself any reference leading out of the pack folder
            renderer = SvgRenderer(str(path), external_reference_root=str(pack_folder(path)),
                                   color_converter=_converter(color, recolor)
                                   if color is not None or recolor else None)
            drawing = renderer.render(root) if root is not None else None
            if drawing is not None:
                _drop_vanished(drawing)
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


def _drop_vanished(node) -> None:
    """Remove groups whose transform flattens them to nothing (``scale(0)``, a zero matrix):
    SVG draws nothing for them, and ReportLab's renderer divides by their determinant. A dash
    pattern with a negative length or none at all is drawn solid, as SVG says."""
    contents = getattr(node, "contents", None)
    if not contents:
        return
    kept = []
    for child in contents:
        dashes = getattr(child, "strokeDashArray", None)
        if isinstance(dashes, (list, tuple)) and dashes and (
                any(not d >= 0 for d in dashes if isinstance(d, (int, float)))
                or not sum(d for d in dashes if isinstance(d, (int, float))) > 0):
            child.strokeDashArray = None  # SVG draws a solid line; ReportLab would refuse it
        transform = getattr(child, "transform", None)
        if transform is not None and len(transform) == 6:
            det = transform[0] * transform[3] - transform[1] * transform[2]
            if not abs(det) > 1e-200:  # zero, or so small that its inverse overflows
                continue
        _drop_vanished(child)
        kept.append(child)
    node.contents[:] = kept


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
