"""Pictures of card faces, rendered from pnp's own card PDF with pypdfium2.

A print service wants an exact pixel size (825 x 1125 for a poker card at The Game Crafter);
rendering at a scale factor gives one pixel more or less when points and inches do not divide
evenly, so each page is rendered into a bitmap of exactly the size asked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
from PIL import Image

INCH = 25.4
WHITE = 0xFFFFFFFF
CLEAR = 0x00000000


def pixels(length_mm: float, dpi: int) -> int:
    """Pixels across ``length_mm`` at ``dpi``, to the nearest pixel (at least one)."""
    return max(1, round(length_mm / INCH * dpi))


def render_pages(pdf_bytes: bytes, sizes: list[tuple[int, int]],
                 clear: list[bool] | None = None) -> Iterator[Image.Image]:
    """Render page i of ``pdf_bytes`` at exactly ``sizes[i]`` pixels (white paper below), or
    over nothing where ``clear[i]``: an RGBA picture whose unpainted parts (the corners a
    rounded card is cut to) are transparent."""
    document = pdfium.PdfDocument(pdf_bytes)
    try:
        for index, (width, height) in enumerate(sizes):
            page = document[index]
            transparent = clear is not None and clear[index]
            bitmap = pdfium.PdfBitmap.new_native(
                width, height, pdfium_raw.FPDFBitmap_BGRA if transparent
                else pdfium_raw.FPDFBitmap_BGR)
            pdfium_raw.FPDFBitmap_FillRect(bitmap.raw, 0, 0, width, height,
                                           CLEAR if transparent else WHITE)
            pdfium_raw.FPDF_RenderPageBitmap(bitmap.raw, page.raw, 0, 0, width, height, 0,
                                             pdfium_raw.FPDF_ANNOT)
            image = bitmap.to_pil().convert("RGBA" if transparent else "RGB")
            bitmap.close()
            page.close()
            yield image
    finally:
        document.close()


def save_png(image: Image.Image, path: Path, dpi: int) -> None:
    """A PNG that says its resolution (pHYs), so a print service reads the intended size."""
    image.save(path, format="PNG", dpi=(dpi, dpi), optimize=False, compress_level=6)
