"""Replay a recorded build with ReportLab alone: ``python bench/replay_reportlab.py DUMP OUT``.

It registers the same TrueType fonts and sets the same ReportLab options as pnp, then makes every
recorded call (opsdump.replay). It prints the seconds spent unpickling the dump, which the
scaling benchmark subtracts: reading our own dump is not work ReportLab does for pnp.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import opsdump


def use_flate_level(level: int) -> None:
    """Compress streams at zlib ``level``, as pnp does (ReportLab itself has no setting: its
    stream filter object is replaced where ReportLab looks it up)."""
    import zlib

    from reportlab.pdfbase import pdfdoc

    class Flate(pdfdoc.PDFStreamFilterZCompress):
        def encode(self, text):
            return zlib.compress(text.encode("utf8") if isinstance(text, str) else text, level)

    pdfdoc.PDFZCompress = Flate()


def main(dump: Path, out_dir: Path) -> None:
    from reportlab import rl_config
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    header = pickle.loads(dump.with_suffix(".header").read_bytes())
    rl_config.useA85 = header["useA85"]
    if header.get("flate_level") is not None:
        use_flate_level(header["flate_level"])
    for name, path in header["fonts"]:
        pdfmetrics.registerFont(TTFont(name, path))
    out_dir.mkdir(parents=True, exist_ok=True)
    with dump.open("rb") as stream:
        calls, unpickling, unpickling_cpu = opsdump.replay(stream, out_dir)
    print(f"calls {calls} unpickle_cpu_seconds {unpickling_cpu:.4f} "
          f"unpickle_seconds {unpickling:.4f}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
