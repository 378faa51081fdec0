"""Record the ReportLab calls a pnp build makes, and replay them with ReportLab alone.

Budget 2 of DESIGN.md compares pnp's whole build with "ReportLab alone making pnp's own drawing
calls for the same pages". The fairest such floor is pnp's calls themselves: a build runs once
with its canvases swapped for recorders, every call (and every object a call returns, such as a
text or path object) goes to a dump file, and the replay makes exactly those calls on real
ReportLab canvases. What pnp spends above the replay is its own pipeline: loading, schemas,
rules, localization, layout, imposition, and how it drives ReportLab.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple

CHUNK = 50_000  # calls per pickle frame: the dump streams, so memory stays flat
#: calls that consume the object they are given; the replay forgets it afterwards
CONSUMERS = frozenset({"drawText", "drawPath", "clipPath"})


class Ref(NamedTuple):
    """An object returned by an earlier call (a canvas, text object, path...)."""

    ident: int


Call = tuple[int | None, str, tuple[Any, ...], dict[str, Any], int]


class Recording:
    """The dump being written: a header (fonts, ReportLab settings), then frames of calls."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.buffer: list[Call] = []
        self.last_id = 0

    def new_id(self) -> int:
        self.last_id += 1
        return self.last_id

    def log(self, call: Call) -> None:
        self.buffer.append(call)
        if len(self.buffer) >= CHUNK:
            self.flush()

    def flush(self) -> None:
        if self.buffer:
            pickle.dump(self.buffer, self.stream, protocol=pickle.HIGHEST_PROTOCOL)
            self.buffer = []


class Recorder:
    """Stands in for a ReportLab object: every method call is logged, and made on a real
    object of its own (the shadow) that nobody saves. The shadow keeps the state ReportLab
    builds as it draws (a document's font subsets above all), which pnp's painter reads when
    it encodes text itself (generator.render.pdf.OpPainter); its answers are what the replay's
    real objects answer, call for call."""

    __slots__ = ("_ident", "_recording", "_shadow")

    def __init__(self, recording: Recording, ident: int, shadow: Any) -> None:
        self._recording = recording
        self._ident = ident
        self._shadow = shadow

    def __getattr__(self, name: str) -> Member:
        return Member(self._recording, self._ident, name, getattr(self._shadow, name))


class Member:
    """A recorder's attribute: called, it is logged as a method call (and made on the shadow);
    an attribute of it (``canvas._doc.ensureMinPdfVersion``) is a dotted name. A document
    (``canvas._doc``) passed to a font's text encoding is answered by its shadow and logged
    as a font call (:func:`record_font_calls`)."""

    __slots__ = ("_ident", "_name", "_recording", "_shadow")

    def __init__(self, recording: Recording, ident: int, name: str, shadow: Any) -> None:
        self._recording, self._ident, self._name = recording, ident, name
        self._shadow = shadow

    def __getattr__(self, name: str) -> Member:
        return Member(self._recording, self._ident, f"{self._name}.{name}",
                      getattr(self._shadow, name))

    def __call__(self, *args: Any, **kwargs: Any) -> Recorder:
        recording = self._recording
        plain = tuple(Ref(a._ident) if isinstance(a, Recorder) else a for a in args)
        real = tuple(a._shadow if isinstance(a, Recorder) else a for a in args)
        result = Recorder(recording, recording.new_id(), self._shadow(*real, **kwargs))
        recording.log((self._ident, self._name, plain, kwargs, result._ident))
        return result


def canvas_factory(recording: Recording, scratch: Path):
    """A drop-in for ``reportlab.pdfgen.canvas.Canvas`` that records (and draws on a shadow
    canvas whose file, in ``scratch``, is never written)."""
    from reportlab.pdfgen.canvas import Canvas

    def make(*args: Any, **kwargs: Any) -> Recorder:
        shadow = Canvas(str(scratch / Path(args[0]).name), *args[1:], **kwargs)
        canvas = Recorder(recording, recording.new_id(), shadow)
        recording.log((None, "Canvas", args, kwargs, canvas._ident))
        return canvas

    return make


#: the name under which a whole ``renderPDF.draw`` (SVG art drawn by ReportLab's graphics
#: renderer) is recorded: it reads the canvas's state as it draws, which a recorder cannot
#: answer, so the replay makes that one ReportLab call with the same drawing
RENDER_DRAWING = "renderPDF.draw"

#: a font's text encoding made with a recorded canvas's document: ``FONT_CALL + method``, with
#: the font's name and the text (or subset) as arguments
FONT_CALL = "font."
FONT_METHODS = ("splitString", "getSubsetInternalName")


def record_drawings(recording: Recording) -> None:
    """Patch ``reportlab.graphics.renderPDF.draw``: on a recorder it is logged as one call."""
    from reportlab.graphics import renderPDF

    real = renderPDF.draw

    def draw(drawing, canvas, x, y, *args, **kwargs):
        if not isinstance(canvas, Recorder):
            return real(drawing, canvas, x, y, *args, **kwargs)
        recording.log((canvas._ident, RENDER_DRAWING, (drawing, x, y, *args), kwargs,
                       recording.new_id()))
        real(drawing, canvas._shadow, x, y, *args, **kwargs)
        return None

    renderPDF.draw = draw


def record_font_calls(recording: Recording) -> None:
    """Patch a TrueType font's text encoding: given a recorded canvas's document (a
    :class:`Member`), the call is logged against that canvas and answered by its shadow's
    document, whose font subsets then grow exactly as the replayed document's will."""
    from reportlab.pdfbase.ttfonts import TTFont

    for method in FONT_METHODS:
        real = getattr(TTFont, method)

        def encode(font, value, doc, *args, _real=real, _method=method, **kwargs):
            if not isinstance(doc, Member):
                return _real(font, value, doc, *args, **kwargs)
            recording.log((doc._ident, FONT_CALL + _method, (font.fontName, value), {},
                           recording.new_id()))
            return _real(font, value, doc._shadow, *args, **kwargs)

        setattr(TTFont, method, encode)


def read_frames(stream: IO[bytes]) -> Iterator[list[Call]]:
    while True:
        try:
            yield pickle.load(stream)
        except EOFError:
            return


def replay(stream: IO[bytes], out_dir: Path) -> tuple[int, float, float]:
    """Make every recorded call on real ReportLab objects; output files keep their names and
    land in ``out_dir``. Returns the number of calls and the wall and CPU seconds spent
    unpickling them."""
    from reportlab.pdfgen.canvas import Canvas

    objects: dict[int, Any] = {}
    calls = 0
    unpickling = unpickling_cpu = 0.0
    frames = read_frames(stream)
    while True:
        start, start_cpu = time.perf_counter(), time.process_time()
        frame = next(frames, None)
        unpickling += time.perf_counter() - start
        unpickling_cpu += time.process_time() - start_cpu
        if frame is None:
            return calls, unpickling, unpickling_cpu
        for target, name, args, kwargs, result in frame:
            real = tuple(objects[a.ident] if type(a) is Ref else a for a in args)
            if target is None:
                value = Canvas(str(out_dir / Path(real[0]).name), *real[1:], **kwargs)
            elif name == RENDER_DRAWING:
                from reportlab.graphics import renderPDF

                value = renderPDF.draw(real[0], objects[target], *real[1:], **kwargs)
            elif name.startswith(FONT_CALL):
                from reportlab.pdfbase.pdfmetrics import getFont

                font = getFont(real[0])
                getattr(font, name[len(FONT_CALL):])(real[1], objects[target]._doc)
                value = None  # (its answer is already in the recorded operators)
            else:
                member = objects[target]
                for part in name.split("."):
                    member = getattr(member, part)
                value = member(*real, **kwargs)
            if value is not None:
                objects[result] = value
            if name in CONSUMERS:
                for a in args:
                    if type(a) is Ref:
                        objects.pop(a.ident, None)
            calls += 1
