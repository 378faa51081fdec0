"""SVG art compiled once into the PDF operators it draws, kept in the build's cache folder.

Drawing an SVG takes svglib (with lxml) to parse it and ``reportlab.graphics`` to draw it, and
``reportlab.graphics`` imports ``reportlab.platypus``: about 110 ms of imports and 2 ms of parsing
per file, a third of a small build. What such a drawing leaves in the PDF is a run of path,
colour and graphics-state operators. So the first build records those operators once, from a
scratch canvas, and keeps them (with the drawing's size) in the cache layer's ``art`` folder
(:func:`user_art_folder`), which every pack and output folder shares; every later build replays
them onto its canvas with ``Canvas.addLiteral`` and imports neither svglib nor
``reportlab.graphics``. The cold build replays the same recording, so a warm build writes the
same bytes as a cold one.

Only a drawing made of operators that need no page resources is replayed: text (fonts), alpha
(ExtGState), pictures (XObjects) or named colour spaces are drawn live every time, as before.

An entry is named by a hash of everything its operators depend on: the SVG file's bytes (its
content, not its time), the colour painted for ``currentColor``, the colours repainted, the
scale it is placed at (strokes are raised to the print-safe minimum for that scale), and the
cache layer's key recipe (pnp's files, ReportLab's, svglib's and every other library's
version: generator.cache.usercache.key_recipe). An entry is a cache layer entry: one that is not a
regular file, is truncated, damaged or another's is ignored and recorded again, never replayed.
"""

from __future__ import annotations

import json
import math
import re
from functools import cache
from pathlib import Path

from msgspec import Struct
from reportlab.lib.units import mm

from generator.cache.usercache import entry_name, read_entry, user_cache_folder, write_entry

#: SVG file, its currentColor, its repainted colours, points per unit (rounded): one drawing
ArtKey = tuple[str, str | None, tuple[tuple[str, str], ...], float]

ART_FOLDER = "art"
_MAGIC = b"pnp-art 2\n"
#: the longest entry read back: a drawing's operators, at most a few times its file's size
_ENTRY_BYTES = 256 * 1024 * 1024

#: the PDF operators a replayed drawing may hold: paths, painting, clipping, the graphics state
#: and device colours; anything else (text, XObjects, ExtGState, shadings, named colour spaces,
#: inline images) uses page resources, and such a drawing is drawn live instead
_REPLAYABLE = frozenset({"q", "Q", "cm", "w", "J", "j", "M", "d", "i", "m", "l", "c", "v", "y",
                        "h", "re", "S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n", "W",
                        "W*", "g", "G", "rg", "RG", "k", "K"})
_TOKEN = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)|[\[\]]|[A-Za-z*'\"]+|\S")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)\Z")


class CompiledArt(Struct, frozen=True, gc=False):
    """A drawing's size in points (as svglib reads it) and, when it can be replayed, its
    operators as ``reportlab.graphics.renderPDF`` writes them at the origin."""

    width: float
    height: float
    operators: str | None
    #: the drawing set a colour's alpha (even an opaque one), which makes the file PDF 1.4
    transparency: bool = False


def points_per_unit(width_mm: float, height_mm: float, width_pt: float, height_pt: float
                    ) -> float:
    """How long one unit of a drawing is on paper placed ``width_mm`` x ``height_mm``, to five
    significant digits: placements of the same size share one drawing (and one form)."""
    exact = math.sqrt((width_mm * mm / width_pt) * (height_mm * mm / height_pt))
    return float(f"{exact:.5g}")


def _smallest_scale(scale: float) -> float:
    """The smallest exact scale that rounds to ``scale``: strokes raised for it print at least
    the minimum width at every placement that shares the drawing."""
    return scale * (1 - 1e-4)


@cache
def _memory() -> tuple[dict[ArtKey, CompiledArt], dict[tuple, tuple[ArtKey, CompiledArt]]]:
    """What this process compiled or loaded (forked drawing processes inherit it), by drawing
    and by placement. A ``functools`` cache so that ``pnp watch`` empties it with the other
    file caches."""
    return {}, {}


def compiled_art(path: str, color: str | None, recolor: tuple[tuple[str, str], ...],
                 width_mm: float, height_mm: float, folder: Path | None = None
                 ) -> tuple[ArtKey, CompiledArt]:
    """The drawing of SVG ``path`` placed ``width_mm`` x ``height_mm``, from this process's
    memory, else from ``folder`` (the art cache, :func:`user_art_folder`; None: none), else
    recorded from svglib's drawing (and kept in ``folder``). Raises what
    :func:`generator.load.art.svg_drawing` raises."""
    placed = (path, color, recolor, width_mm, height_mm)
    placements = _memory()[1]
    known = placements.get(placed)  # looked up for every face drawn: no file read, no Path
    if known is None:
        known = placements[placed] = _compiled_art(path, color, recolor, width_mm, height_mm,
                                                   folder)
    return known


def _compiled_art(path: str, color: str | None, recolor: tuple[tuple[str, str], ...],
                  width_mm: float, height_mm: float, folder: Path | None
                  ) -> tuple[ArtKey, CompiledArt]:
    key, entry, art = _lookup(path, color, recolor, width_mm, height_mm, folder)
    if art is None:
        key, art = _record_placed(path, color, recolor, width_mm, height_mm, key, entry)
    _memory()[0][key] = art
    return key, art


def _lookup(path: str, color: str | None, recolor: tuple[tuple[str, str], ...],
            width_mm: float, height_mm: float, folder: Path | None
            ) -> tuple[ArtKey | None, Path | None, CompiledArt | None]:
    """The drawing's key (None when the file has no size: not a drawing), its cache entry
    in ``folder`` and what memory or the entry holds for it (None: to be recorded)."""
    from generator.load.art import ArtProblem, art_info, read_art

    try:
        info = art_info(Path(path))  # the size validation read (cached), from the same bytes
    except ArtProblem:  # not a drawing: svglib names the problem when it is recorded
        return None, None, None
    key = (path, color, recolor, points_per_unit(width_mm, height_mm, info.width, info.height))
    found = _memory()[0].get(key)
    if found is not None or folder is None:
        return key, None, found
    entry = folder / _entry_name(read_art(Path(path), "image"), color, recolor, key[3])
    return key, entry, _load(entry)


def user_art_folder() -> Path | None:
    """The cache of compiled art (the cache layer's ``art`` folder; None when caches are off),
    shared by every pack and output folder: an entry is named by what it depends on (file
    content, colours, scale, the key recipe), so any build may take one."""
    return user_cache_folder(ART_FOLDER)


def _record_placed(path: str, color: str | None, recolor: tuple[tuple[str, str], ...],
                   width_mm: float, height_mm: float, key: ArtKey | None,
                   entry: Path | None) -> tuple[ArtKey, CompiledArt]:
    """Record the drawing with svglib and ReportLab and keep it in ``entry`` (in the art
    cache)."""
    from generator.load.art import svg_drawing

    drawing = svg_drawing(Path(path), color, recolor)
    if key is None:
        key = (path, color, recolor, points_per_unit(width_mm, height_mm,
                                                     float(drawing.width),
                                                     float(drawing.height)))
    art = _record(drawing, key[3])
    if entry is not None:
        _store(entry, art)
    return key, art


#: drawings to record before a second process is worth forking (about 3 ms each)
PARALLEL_FROM = 8


def compile_placements(placements: list[tuple[str, str | None, tuple[tuple[str, str], ...],
                                              float, float]], folder: Path | None) -> None:
    """Bring the drawings of many placements into memory before pages are drawn: from memory
    or ``folder`` where they are kept, else recorded, half of them by a forked process when
    there are enough (a first build parses every SVG: two cores halve it). A drawing that
    fails to record is left out, to fail again, naming its file, when it is asked for."""
    missing: dict[ArtKey, tuple] = {}
    for placed in placements:
        if placed in _memory()[1]:
            continue
        try:
            key, entry, art = _lookup(*placed, folder)
        except Exception:  # an unreadable file: compiled_art says why, in order
            continue
        if art is not None:
            _memory()[0][key] = art
            _memory()[1][placed] = (key, art)
        elif key is not None:
            missing.setdefault(key, (placed, key, entry))
    from generator.runtime.forked import in_two_processes, worker_count

    todo = list(missing.values())
    if len(todo) < PARALLEL_FROM or worker_count(2) < 2:
        return
    import reportlab.graphics.renderPDF  # noqa: F401  (imported once, shared by the fork)
    import svglib.svglib  # noqa: F401

    try:
        mine, theirs = in_two_processes(lambda: _record_all(todo[0::2]),
                                        lambda: _record_all(todo[1::2]))
    except Exception:  # the worker failed: each drawing is recorded when it is asked for
        return
    for placed, key, art in mine + theirs:
        _memory()[0][key] = art
        _memory()[1][placed] = (key, art)


def _record_all(todo: list[tuple]) -> list[tuple[tuple, ArtKey, CompiledArt]]:
    done = []
    for placed, key, entry in todo:
        try:
            key, art = _record_placed(*placed, key, entry)
        except Exception:  # left for compiled_art to report, in the faces' order
            continue
        done.append((placed, key, art))
    return done


def live_drawing(key: ArtKey):
    """The print-safe ReportLab drawing of ``key`` (for art that cannot be replayed)."""
    from generator.load.art import svg_drawing
    from generator.render.strokes import print_safe_drawing

    path, color, recolor, scale = key
    return print_safe_drawing(svg_drawing(Path(path), color, recolor), _smallest_scale(scale))


def draw(canvas, key: ArtKey, art: CompiledArt) -> None:
    """Draw the art at the canvas's origin, one drawing unit per unit of the current space."""
    if art.operators is not None:
        if art.transparency:  # what the live drawing's setFillColor did to the document
            canvas._doc.ensureMinPdfVersion("transparency")
        if art.operators:
            canvas.addLiteral(art.operators)
        return
    from reportlab import rl_config
    from reportlab.graphics import renderPDF

    # a picture inside the drawing is written inline; ReportLab joins a form's stream as text,
    # so inline picture data must be ASCII85 text, not the binary the rest of the file uses
    binary = rl_config.useA85
    rl_config.useA85 = 1
    try:
        renderPDF.draw(live_drawing(key), canvas, 0, 0)
    finally:
        rl_config.useA85 = binary


def _record(drawing, scale: float) -> CompiledArt:
    """The operators ReportLab writes for ``drawing`` (strokes made print-safe at ``scale``),
    or None when they use page resources, and whether drawing it raised the document to PDF
    1.4. They are read from the scratch canvas's list of operators for its current form and
    its document's version (``Canvas._code``, ``_doc._pdfVersion``: no public accessors;
    tests compare a replay with a live drawing byte for byte, and ReportLab's version is in
    the key)."""
    import io

    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    from generator.load.fonts import font_name
    from generator.render.strokes import print_safe_drawing

    width, height = float(drawing.width), float(drawing.height)
    scratch = Canvas(io.BytesIO(), invariant=1, initialFontName=font_name("regular"))
    version = scratch._doc._pdfVersion
    scratch.beginForm("art", 0, 0, width, height)
    renderPDF.draw(print_safe_drawing(drawing, _smallest_scale(scale)), scratch, 0, 0)
    # an embedded picture is written inline, as bytes: such a drawing is drawn live
    pictures = any(not isinstance(part, str) for part in scratch._code)
    operators = "" if pictures else "\n".join(scratch._code)
    return CompiledArt(width, height, None if pictures or not replayable(operators) else
                       operators, transparency=scratch._doc._pdfVersion > version)


def replayable(operators: str) -> bool:
    """Whether a content stream uses only operators that need no page resources."""
    for token in _TOKEN.findall(operators):
        if token in _REPLAYABLE or token in "[]" or _NUMBER.match(token):
            continue
        return False
    return True


def _entry_name(data: bytes, color: str | None, recolor: tuple[tuple[str, str], ...],
                scale: float) -> str:
    return entry_name(json.dumps([color, recolor, repr(scale)]).encode(), data, suffix=".art")


def _load(entry: Path) -> CompiledArt | None:
    """The entry's drawing, or None when it is missing, truncated, damaged or not ours."""
    body = read_entry(entry, _MAGIC, _ENTRY_BYTES)
    if body is None:
        return None
    try:
        value = json.loads(body)
        width, height, operators = value["width"], value["height"], value["operators"]
        transparency = value["transparency"]
    except (ValueError, KeyError, TypeError):
        return None
    if not (isinstance(width, float) and isinstance(height, float)
            and (operators is None or isinstance(operators, str))
            and isinstance(transparency, bool)
            and math.isfinite(width) and math.isfinite(height) and width > 0 and height > 0):
        return None
    return CompiledArt(width, height, operators, transparency)


def _store(entry: Path, art: CompiledArt) -> None:
    """Keep the drawing (:func:`generator.cache.usercache.write_entry`: atomic, checksummed)."""
    write_entry(entry, _MAGIC, json.dumps({
        "width": art.width, "height": art.height, "operators": art.operators,
        "transparency": art.transparency}).encode())
