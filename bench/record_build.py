"""Record the ReportLab calls of one ``pnp build`` into a dump (see opsdump.py).

Usage: ``python bench/record_build.py DUMP PACK [--with EXP] [pnp build options...]``. The build
runs in this process (``PNP_JOBS=1``: no worker processes, whose calls would be lost) with its
canvases replaced by recorders, so it writes no PDF and joins no pages (neither duplex.pdf from
fronts and backs nor chunks); the dump's header names the fonts the build registered, which the
replay registers the same way, and the zlib level pnp compresses at. Its pages are drawn through
ReportLab's own calls (bench/reference_render.py): pnp's painter writes the same operators
itself, so its own calls would leave the floor without the drawing work. Each recorded canvas
also draws on a shadow canvas, whose document answers the font encodings a painter asks for.
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import opsdump


def main(dump: Path, build_args: list[str]) -> None:
    from reportlab import rl_config
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen.canvas import Canvas

    import generator.pipeline.build
    import generator.render.sheetpdfs  # (importing build loads the render modules to patch)

    os.environ["PNP_JOBS"] = "1"
    sheets = generator.render.sheetpdfs
    # drawn through ReportLab's own calls (bench/reference_render.py), byte-identical to what
    # pnp's painter writes: the replay then makes every call ReportLab needs for these pages
    import reference_render

    sheets.SheetRenderer = reference_render.ReferenceRenderer
    sheets.assemble = lambda *args: None  # recorders write no pages to join
    sheets.join_duplex = lambda *args: None
    # chunks in page order (pages-0000000.pdf...), not in the cache under content names, and
    # no rename of a file the recorder never wrote
    sheets._draw_atomically = lambda job, first, stop, path, title: sheets.draw_pages(
        job, first, stop, path, title)
    whole = sheets.write_sheet_files
    generator.pipeline.build.write_sheet_files = lambda *args, **kwargs: whole(
        *args, **{**kwargs, "cache": None})

    import tempfile

    with dump.open("wb") as stream, tempfile.TemporaryDirectory() as shadows:
        recording = opsdump.Recording(stream)
        factory = opsdump.canvas_factory(recording, Path(shadows))
        opsdump.record_drawings(recording)
        opsdump.record_font_calls(recording)
        for name, module in list(sys.modules.items()):
            # SVG art is recorded as PDF operators on a scratch canvas of its own, which must
            # draw (generator.render.vectorart); what the build then does with them is recorded
            if name == "generator.render.vectorart":
                continue
            if name.startswith("generator") and getattr(module, "Canvas", None) is Canvas:
                module.Canvas = factory
        from generator.cli.main import dispatch

        try:
            dispatch(["build", *build_args])
        finally:
            recording.flush()
    fonts = []
    for font_name in pdfmetrics.getRegisteredFontNames():
        font = pdfmetrics.getFont(font_name)
        path = getattr(getattr(font, "face", None), "filename", None)
        if path:
            fonts.append((font_name, path))
    from reportlab.pdfbase import pdfdoc

    # the zlib level pnp compresses streams at (generator.render.pdf replaces ReportLab's filter)
    header = {"fonts": fonts, "useA85": rl_config.useA85, "calls": recording.last_id,
              "flate_level": getattr(pdfdoc.PDFZCompress, "level", None)}
    dump.with_suffix(".header").write_bytes(pickle.dumps(header))


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
