"""The one setting pnp makes inside ReportLab: its streams are compressed at zlib level 1.

ReportLab has no option for the level; generator.render.pdf replaces the filter ReportLab looks
up when it writes a stream. If a release stops looking it up there, the streams silently go
back to level 6 (a fifth of a build's drawing time): this test sees it.
"""

from __future__ import annotations

import zlib

import pikepdf
from reportlab.pdfgen.canvas import Canvas

from generator.load.fonts import font_name
from generator.render import pdf as render_pdf


def _filters(stream: pikepdf.Stream) -> list[str]:
    named = stream.get("/Filter")
    return [str(f) for f in named] if isinstance(named, pikepdf.Array) else [str(named)]


def test_streams_are_written_at_flate_level_one(tmp_path):
    assert render_pdf.FLATE_CHECKED_WITH  # the version the replacement was checked against
    path = tmp_path / "one.pdf"
    canvas = Canvas(str(path), invariant=1, pageCompression=1,
                    initialFontName=font_name("regular"))
    canvas.setFont(font_name("regular"), 12)
    for row in range(40):
        canvas.drawString(40, 40 + row * 14, f"row {row}: the quick brown fox " * 3)
    canvas.showPage()
    canvas.save()
    with pikepdf.open(path) as document:
        streams = [obj for obj in document.objects if isinstance(obj, pikepdf.Stream)
                   and _filters(obj) == ["/FlateDecode"]]
        assert streams
        for stream in streams:
            raw = stream.read_raw_bytes()
            data = zlib.decompress(raw)
            assert raw == zlib.compress(data, 1), "a stream not written at level 1"
