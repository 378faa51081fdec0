"""Card pictures for the proof: each face printed as a lone PDF page, rendered to PNG by pdfium.

A picture is named after a hash of everything that decides its pixels, so an unchanged face is
never rendered twice: a rebuild after editing one card renders that card's faces only, and the
names double as cache keys in the browser: the face's drawing operations, its size, the bleed,
the resolution, and the content of the files the operations draw. The proof names a face taken
from the face cache (generator.layout.facecache) as it named it when it was laid out.
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from generator.cache.usercache import FileDigests, file_digest
from generator.core.limits import FILE_BYTES
from generator.layout.engine import FaceLayout
from generator.layout.ops import drawn_files
from generator.render.cardpdf import card_pdf_bytes, plain_frame

DPI = 150  # sharp on a high-density laptop screen at the page's default card width
MIN_WIDTH_PX = 390  # small faces (counters) get more dots, so that they stay sharp enlarged
#: bump when the rendering itself changes, so that cached pictures are not reused
RENDER_VERSION = 2


class PictureStore(Protocol):
    """Where rendered pictures go: a folder for ``pnp preview``, memory for ``pnp watch``."""

    def has(self, name: str) -> bool: ...

    def put(self, name: str, data: bytes) -> None: ...


class MemoryStore:
    def __init__(self) -> None:
        self.pictures: dict[str, bytes] = {}

    def has(self, name: str) -> bool:
        return name in self.pictures

    def put(self, name: str, data: bytes) -> None:
        self.pictures[name] = data

    def keep_only(self, names: set[str]) -> None:
        for name in set(self.pictures) - names:
            del self.pictures[name]


class FolderStore:
    """Pictures as files; each is written to a temporary name and renamed into place, so a
    reader (a browser, an interrupted run) never sees half a PNG. A picture already there is
    taken only with the digest it was written with (``digests``, kept in the cache layer: a
    picture damaged or changed since is rendered again); without them (caches off), every
    picture is rendered."""

    def __init__(self, folder: Path, digests: FileDigests | None = None) -> None:
        self.folder = folder
        self.digests = digests

    def has(self, name: str) -> bool:
        return self.digests is not None and self.digests.valid(self.folder / name)

    def put(self, name: str, data: bytes) -> None:
        write_atomic(self.folder / name, data)
        if self.digests is not None:
            self.digests.record(name, data)

    def keep_only(self, names: set[str]) -> None:
        for path in self.folder.glob("*.png"):
            if path.name not in names:
                path.unlink(missing_ok=True)
        if self.digests is not None:
            self.digests.save(names)


def write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _file_digests(face: FaceLayout, known: dict[str, str]) -> list[tuple[str, str]]:
    """The content of files the operations draw (raster or SVG art, drawn with opacity too),
    so that replacing an art file under the same name, even with its size and time,
    re-renders the faces that show it; ``known`` holds the digests of files read before (in
    this proof)."""
    digests = []
    for path in drawn_files(face.ops):
        digest = known.get(path)
        if digest is None:
            try:
                digest = file_digest(Path(path), FILE_BYTES["image"])[0].hex()
            except OSError:
                digest = "unreadable"
            known[path] = digest
        digests.append((path, digest))
    return digests


def picture_name(face: FaceLayout, bleed_mm: float, files: dict[str, str] | None = None
                 ) -> str:
    """The picture's file name: a hash of the face's drawing and of the files it draws
    (``files``: digests of files read before, filled in as files are read)."""
    key = repr((RENDER_VERSION, DPI, bleed_mm, face.width_mm, face.height_mm, face.ops,
                _file_digests(face, {} if files is None else files),
                *((face.corner_radius_mm,) if face.corner_radius_mm else ())))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:20] + ".png"


def dots_per_inch(width_mm: float, bleed_mm: float) -> float:
    """:data:`DPI`, or more for a face so small that it would be under :data:`MIN_WIDTH_PX`."""
    return max(DPI, MIN_WIDTH_PX * 25.4 / (width_mm + 2 * bleed_mm))


def picture_size_px(width_mm: float, height_mm: float, bleed_mm: float) -> tuple[int, int]:
    """The pixel size pdfium gives a face's page (trim plus bleed)."""
    dpi = dots_per_inch(width_mm, bleed_mm)
    return (round((width_mm + 2 * bleed_mm) / 25.4 * dpi),
            round((height_mm + 2 * bleed_mm) / 25.4 * dpi))


def render_pictures(faces: Mapping[str, FaceLayout], bleed_mm: float,
                    store: PictureStore, compress: bool = True) -> int:
    """Render the faces ``store`` does not hold yet; returns how many were rendered.

    The new faces go into one PDF of lone card pages (the same pages ``pnp export`` writes),
    made in memory, which pdfium then renders page by page. ``compress``: deflate the PDF's
    streams (the studio's live pictures, drawn once and dropped, are drawn sooner without)."""
    import pypdfium2

    missing = [(name, faces[name]) for name in sorted(faces) if not store.has(name)]
    if not missing:
        return 0
    data = card_pdf_bytes([(face, plain_frame(face.width_mm, face.height_mm, bleed_mm))
                           for _, face in missing], "pnp proof", compress)
    document = pypdfium2.PdfDocument(data)
    try:
        for index, (name, face) in enumerate(missing):
            page = document[index]
            scale = dots_per_inch(face.width_mm, bleed_mm) / 72
            # a rounded card's corners stay transparent, as in its PNG export
            clear = (255, 255, 255, 0) if face.corner_radius_mm > 0 else (255, 255, 255, 255)
            image = page.render(scale=scale, fill_color=clear).to_pil()
            page.close()
            buffer = io.BytesIO()
            image.save(buffer, "PNG", compress_level=3)
            store.put(name, buffer.getvalue())
    finally:
        document.close()
    return len(missing)
