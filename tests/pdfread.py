"""What a PDF shows, read back with pypdfium2 for the tests: page text, characters with their
font and fill colour, words, lines/rects/curves with their paint and widths, and images.

pdfplumber, which the tests used before, made their PDF checks the suite's slowest part (up to
10 s a sheet PDF); pdfium reads every object of a cwnb sheet in a fifth of its time and the
text in far less. Boxes are in points from the page's top-left corner (as the manifest's
millimetres are), and whatever pnp draws inside a form XObject (every repeated card face) is
reported where it lands on the page: the forms' matrices are composed. A curve's box holds
its control points.
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

#: an RGB colour, each channel 0..1 (pdfium gives 8 bits a channel: compare with a tolerance
#: of 1/255, or round to 3 places as the tests do)
Colour = tuple[float, float, float]
#: a PDF matrix [a b c d e f]: (x, y) -> (a x + c y + e, b x + d y + f)
Matrix = tuple[float, float, float, float, float, float]

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
#: how far apart (points) two characters of one line may stand and still make one word
WORD_GAP_PT = 3.0


@dataclass(frozen=True)
class Box:
    """A box on the page in points: x from the left edge, top and bottom from the top edge."""

    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.bottom - self.top


@dataclass(frozen=True)
class Char(Box):
    """One printed character; its box runs along its advance (origin to origin + width)."""

    text: str
    #: the font's PostScript name, without a subset tag ("PTSans-Bold")
    fontname: str
    fill: Colour


@dataclass(frozen=True)
class Word(Box):
    """Characters of one font and one fill colour standing together on one line."""

    text: str
    fontname: str
    fill: Colour


@dataclass(frozen=True)
class Shape(Box):
    """One subpath of a painted path, named as pdfplumber named them: a straight segment is a
    "line", an axis-aligned closed quadrilateral a "rect", anything else a "curve"."""

    kind: str
    #: the stroke colour, or None when the path is not stroked
    stroke: Colour | None
    #: the fill colour, or None when the path is not filled
    fill: Colour | None
    #: the stroke width as printed on the page (the path's width scaled by its matrices)
    linewidth: float
    #: the dash array in the path's own units, () for a solid stroke
    dash: tuple[float, ...]
    #: the subpath's segments: "m" its start, "l" a straight one, "c" a Bézier curve, "h" the
    #: closing one ("mlllh" for a rectangle)
    path: str


@dataclass(frozen=True)
class Picture(Box):
    """A placed raster image: its box on the page (before any clip) and its pixel size."""

    px: tuple[int, int]


def compose(inner: Matrix, outer: Matrix) -> Matrix:
    """The matrix applying ``inner`` first, then ``outer``."""
    a, b, c, d, e, f = inner
    oa, ob, oc, od, oe, of = outer
    return (a * oa + b * oc, a * ob + b * od, c * oa + d * oc, c * ob + d * od,
            e * oa + f * oc + oe, e * ob + f * od + of)


def _apply(matrix: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = matrix
    return a * x + c * y + e, b * x + d * y + f


def _matrix(obj) -> Matrix:
    raw = pdfium_c.FS_MATRIX()
    if not pdfium_c.FPDFPageObj_GetMatrix(obj, raw):
        raise ValueError("pdfium gave no matrix for a page object")
    return (raw.a, raw.b, raw.c, raw.d, raw.e, raw.f)


def _colour(getter, handle, *index) -> Colour:
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    if not getter(handle, *index, r, g, b, a):
        raise ValueError("pdfium gave no colour")
    return (r.value / 255, g.value / 255, b.value / 255)


def _dash(obj) -> tuple[float, ...]:
    count = pdfium_c.FPDFPageObj_GetDashCount(obj)
    if count <= 0:
        return ()
    values = (ctypes.c_float * count)()
    pdfium_c.FPDFPageObj_GetDashArray(obj, values, count)
    return tuple(float(v) for v in values)


class _Subpath:
    """One subpath as it is read: its points on the page and its segments' letters."""

    def __init__(self, start: tuple[float, float]) -> None:
        self.points = [start]
        self.letters = ["m"]
        self.closed = False
        self._bezier_points = 0

    def add(self, point: tuple[float, float], bezier: bool, closes: bool) -> None:
        self.points.append(point)
        if bezier:  # pdfium gives a cubic Bézier as its three points
            self._bezier_points += 1
            if self._bezier_points % 3 == 1:
                self.letters.append("c")
        else:
            self.letters.append("l")
        if closes:
            self.closed = True

    @property
    def path(self) -> str:
        return "".join(self.letters) + ("h" if self.closed else "")


def _subpaths(obj, matrix: Matrix) -> list[_Subpath]:
    """Each subpath of a path object, its points in page space."""
    found: list[_Subpath] = []
    x, y = ctypes.c_float(), ctypes.c_float()
    for index in range(pdfium_c.FPDFPath_CountSegments(obj)):
        segment = pdfium_c.FPDFPath_GetPathSegment(obj, index)
        pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
        point = _apply(matrix, x.value, y.value)
        kind = pdfium_c.FPDFPathSegment_GetType(segment)
        if kind == pdfium_c.FPDF_SEGMENT_MOVETO or not found:
            found.append(_Subpath(point))
            continue
        found[-1].add(point, kind == pdfium_c.FPDF_SEGMENT_BEZIERTO,
                      bool(pdfium_c.FPDFPathSegment_GetClose(segment)))
    return found


def _kind(points: list[tuple[float, float]], closed: bool, curved: bool) -> str:
    if curved:
        return "curve"
    if closed and points[-1] != points[0]:
        points = [*points, points[0]]
    if len(points) == 2:
        return "line"
    if len(points) == 5 and math.dist(points[0], points[4]) < 0.01:
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        straight = (abs(xs[0] - xs[1]) < 0.01 and abs(ys[1] - ys[2]) < 0.01
                    and abs(xs[2] - xs[3]) < 0.01 and abs(ys[3] - ys[0]) < 0.01) or (
            abs(ys[0] - ys[1]) < 0.01 and abs(xs[1] - xs[2]) < 0.01
            and abs(ys[2] - ys[3]) < 0.01 and abs(xs[3] - xs[0]) < 0.01)
        if straight:
            return "rect"
    return "curve"


class Page:
    """One page of an open document."""

    def __init__(self, page: pdfium.PdfPage) -> None:
        self._page = page
        self.width = page.get_width()
        self.height = page.get_height()

    @cached_property
    def _textpage(self) -> pdfium.PdfTextPage:
        return self._page.get_textpage()

    def text(self) -> str:
        """The page's text in drawing order, a line break between lines."""
        return self._textpage.get_text_range().replace("\r\n", "\n")

    def _loose_box(self, index: int) -> Box:
        rect = pdfium_c.FS_RECTF()
        pdfium_c.FPDFText_GetLooseCharBox(self._textpage, index, rect)
        return Box(rect.left, self.height - rect.top, rect.right, self.height - rect.bottom)

    @cached_property
    def _all_chars(self) -> list[tuple[Char, bool]]:
        """Every character of the text page with whether pdfium made it up (a space or line
        break it inferred from the layout)."""
        textpage = self._textpage
        name = ctypes.create_string_buffer(256)
        flags = ctypes.c_int()
        found = []
        for index in range(textpage.count_chars()):
            text = chr(pdfium_c.FPDFText_GetUnicode(textpage, index))
            generated = bool(pdfium_c.FPDFText_IsGenerated(textpage, index)) or text in "\r\n"
            if generated:
                fontname, fill = "", (0.0, 0.0, 0.0)
            else:
                length = pdfium_c.FPDFText_GetFontInfo(textpage, index, name, len(name), flags)
                fontname = name.raw[:max(length - 1, 0)].decode("utf-8", "replace")
                fill = _colour(pdfium_c.FPDFText_GetFillColor, textpage, index)
            box = self._loose_box(index)
            found.append((Char(box.x0, box.top, box.x1, box.bottom, text, fontname, fill),
                          generated))
        return found

    @property
    def chars(self) -> list[Char]:
        """The characters the PDF draws (spaces included), in drawing order."""
        return [char for char, generated in self._all_chars if not generated]

    def words(self) -> list[Word]:
        """Runs of characters without a space, a change of font or fill colour, or a gap of
        more than WORD_GAP_PT between them (turned text included: measured either way)."""
        words: list[Word] = []
        run: list[Char] = []

        def close_run() -> None:
            if run:
                words.append(Word(min(c.x0 for c in run), min(c.top for c in run),
                                  max(c.x1 for c in run), max(c.bottom for c in run),
                                  "".join(c.text for c in run), run[0].fontname,
                                  run[0].fill))
                run.clear()

        for char, generated in self._all_chars:
            if generated or char.text.isspace():
                close_run()
                continue
            last = run[-1] if run else None
            if last and (char.fontname != last.fontname or char.fill != last.fill or max(
                    char.x0 - last.x1, last.x0 - char.x1,
                    char.top - last.bottom, last.top - char.bottom) > WORD_GAP_PT):
                close_run()
            run.append(char)
        close_run()
        return words

    def _objects(self) -> Iterator[tuple[object, int, Matrix]]:
        """(pdfium page object, type, its matrix to page space) of every object on the page,
        those inside form XObjects included (a text's or a shading's matrix is not read)."""
        stack: list[Matrix] = []
        placed = (pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE,
                  pdfium_c.FPDF_PAGEOBJ_FORM)
        for obj in self._page.get_objects():
            outer = stack[obj.level - 1] if obj.level else IDENTITY
            # (pdfium gives no matrix for a shading; only paths, images and forms are read)
            matrix = compose(_matrix(obj), outer) if obj.type in placed else outer
            del stack[obj.level:]
            if obj.type == pdfium_c.FPDF_PAGEOBJ_FORM:
                stack.append(matrix)
            yield obj, obj.type, matrix

    def _box(self, points: Sequence[tuple[float, float]]) -> Box:
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        return Box(min(xs), self.height - max(ys), max(xs), self.height - min(ys))

    @cached_property
    def shapes(self) -> list[Shape]:
        """Every painted subpath, in drawing order."""
        shapes = []
        fill_mode, stroked = ctypes.c_int(), ctypes.c_int()
        for obj, kind, matrix in self._objects():
            if kind != pdfium_c.FPDF_PAGEOBJ_PATH:
                continue
            pdfium_c.FPDFPath_GetDrawMode(obj, fill_mode, stroked)
            if not fill_mode.value and not stroked.value:
                continue  # a clipping path only
            width = ctypes.c_float()
            pdfium_c.FPDFPageObj_GetStrokeWidth(obj, width)
            a, b, c, d, _, _ = matrix
            scale = math.sqrt(abs(a * d - b * c))
            stroke = (_colour(pdfium_c.FPDFPageObj_GetStrokeColor, obj)
                      if stroked.value else None)
            fill = _colour(pdfium_c.FPDFPageObj_GetFillColor, obj) if fill_mode.value else None
            dash = _dash(obj)
            for subpath in _subpaths(obj, matrix):
                if len(subpath.points) < 2:
                    continue
                box = self._box(subpath.points)
                kind = _kind(subpath.points, subpath.closed, "c" in subpath.letters)
                shapes.append(Shape(box.x0, box.top, box.x1, box.bottom, kind, stroke, fill,
                                    width.value * scale, dash, subpath.path))
        return shapes

    @property
    def lines(self) -> list[Shape]:
        return [shape for shape in self.shapes if shape.kind == "line"]

    @property
    def rects(self) -> list[Shape]:
        return [shape for shape in self.shapes if shape.kind == "rect"]

    @property
    def curves(self) -> list[Shape]:
        return [shape for shape in self.shapes if shape.kind == "curve"]

    @cached_property
    def images(self) -> list[Picture]:
        """Every placed raster image, those inside forms included."""
        pictures = []
        width, height = ctypes.c_uint(), ctypes.c_uint()
        for obj, kind, matrix in self._objects():
            if kind != pdfium_c.FPDF_PAGEOBJ_IMAGE:
                continue
            if not pdfium_c.FPDFImageObj_GetImagePixelSize(obj, width, height):
                raise ValueError("pdfium gave no pixel size for an image")
            box = self._box([_apply(matrix, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))])
            pictures.append(Picture(box.x0, box.top, box.x1, box.bottom,
                                    (width.value, height.value)))
        return pictures

    def render(self, dpi: float = 144) -> Image.Image:
        """The page as an RGB picture, ``dpi`` pixels an inch."""
        return self._page.render(scale=dpi / 72).to_pil().convert("RGB")


class Document(Sequence[Page]):
    """The pages of a PDF, each loaded when first asked for."""

    def __init__(self, document: pdfium.PdfDocument) -> None:
        self._document = document
        self._pages: dict[int, Page] = {}

    def __len__(self) -> int:
        return len(self._document)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        index = range(len(self))[index]
        if index not in self._pages:
            self._pages[index] = Page(self._document[index])
        return self._pages[index]


@contextmanager
def open_pdf(path: Path | str) -> Iterator[Document]:
    """The document's pages, for the ``with`` block (pdfium's handles are closed after it)."""
    document = pdfium.PdfDocument(str(path))
    try:
        yield Document(document)
    finally:
        document.close()


def page_texts(path: Path | str) -> list[str]:
    """The text of every page of a PDF."""
    with open_pdf(path) as pages:
        return [page.text() for page in pages]


def pdf_text(path: Path | str) -> str:
    """The text of a whole PDF, its pages one after the other."""
    return "\n".join(page_texts(path))
