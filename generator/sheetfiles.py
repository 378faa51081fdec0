"""Write a build's sheet files, drawing every page once: fronts.pdf, backs.pdf and duplex.pdf.

duplex.pdf holds every page (front, back, front, back...), so ReportLab draws that sequence once
and the other two files are copies of its odd and even pages, made by pikepdf (qpdf) without
decoding a stream: drawing a page costs far more than copying it. A build of many sheets is drawn
in chunks of at most ``CHUNK_SHEETS`` sheets, each its own small PDF, in worker processes when
there is more than one chunk and more than one core, and the three files are assembled from the
chunks by page copy. Memory therefore stays bounded (ReportLab keeps a whole document until it
saves it; a chunk is a few hundred pages) and both cores draw. The price of chunking: each chunk
embeds its own font subsets and images, so a 10,000-card file carries a few copies of each.

The output is deterministic: ReportLab's canvases are invariant and qpdf's file id is computed
from the content.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from generator.impose import Page
from generator.layout.engine import FaceLayout
from generator.render import FaceKey, SheetRenderer

#: sheets (a front page and its back) per chunk: big enough that a chunk's fonts and images are
#: embedded a few times per file at most, small enough to bound memory and feed two cores
CHUNK_SHEETS = 250


@dataclass(frozen=True, slots=True)
class SheetJob:
    """What every chunk needs: the pages in print order and how to draw them."""

    pages: Sequence[Page]
    paper_mm: tuple[float, float]
    bleed_mm: float
    faces: dict[FaceKey, FaceLayout]


def draw_pages(job: SheetJob, first: int, stop: int, path: Path, title: str,
               on_page: Callable[[], None] | None = None) -> int:
    """Draw pages ``first`` to ``stop`` (exclusive) of the job into one PDF; returns the count."""
    pages = job.pages[first:stop]
    uses = Counter(placement.face for page in pages for placement in page.placements)
    renderer = SheetRenderer(path, job.paper_mm, title, job.faces, job.bleed_mm,
                             placed_once={face for face, count in uses.items() if count == 1})
    for page in pages:
        renderer.add_page(page)
        if on_page is not None:
            on_page()
    renderer.save()
    return len(pages)


#: the job a forked worker draws from (inherited from the parent, never pickled)
_FORKED_JOB: tuple[SheetJob, Path, str] | None = None


def _draw_chunk(bounds: tuple[int, int]) -> int:
    assert _FORKED_JOB is not None
    job, folder, title = _FORKED_JOB
    return draw_pages(job, *bounds, _chunk_path(folder, bounds[0]), title)


def _chunk_path(folder: Path, first: int) -> Path:
    return folder / f"pages-{first:07d}.pdf"


def worker_count(chunks: int) -> int:
    """Processes to draw ``chunks`` chunks: one per usable core, at most one per chunk.
    ``PNP_JOBS`` overrides it (1 draws everything in this process)."""
    wanted = os.environ.get("PNP_JOBS", "")
    cores = int(wanted) if wanted.isdigit() and int(wanted) > 0 else len(os.sched_getaffinity(0))
    return max(1, min(cores, chunks))


def _draw_chunks(job: SheetJob, chunks: list[tuple[int, int]], folder: Path, title: str,
                 advance: Callable[[int], None]) -> list[Path]:
    global _FORKED_JOB
    workers = worker_count(len(chunks))
    import multiprocessing

    if workers == 1 or "fork" not in multiprocessing.get_all_start_methods():
        for bounds in chunks:
            advance(draw_pages(job, *bounds, _chunk_path(folder, bounds[0]), title))
        return [_chunk_path(folder, first) for first, _ in chunks]
    _FORKED_JOB = (job, folder, title)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for drawn in pool.imap(_draw_chunk, chunks):
                advance(drawn)
    finally:
        _FORKED_JOB = None
    return [_chunk_path(folder, first) for first, _ in chunks]


def _save(pdf, path: Path, title: str) -> None:
    import pikepdf

    pdf.docinfo["/Title"] = title
    # streams are copied as ReportLab compressed them: qpdf neither decodes nor recompresses
    pdf.save(path, deterministic_id=True, compress_streams=False,
             stream_decode_level=pikepdf.StreamDecodeLevel.none)


def _assemble(sources: list[Path], targets: dict[str, tuple[Path, int, int]],
              titles: dict[str, str]) -> None:
    """Copy pages of ``sources`` (in order) into each target: ``(path, start, step)`` takes
    every ``step``-th page from the ``start``-th on, counted over all sources."""
    import pikepdf

    opened = [pikepdf.open(source) for source in sources]
    try:
        pages = [page for pdf in opened for page in pdf.pages]
        for name, (path, start, step) in targets.items():
            with pikepdf.new() as out:
                out.docinfo = out.copy_foreign(opened[0].docinfo)
                out.pages.extend(pages[start::step])
                _save(out, path, titles[name])
    finally:
        for pdf in opened:
            pdf.close()


def write_sheet_files(folder: Path, fronts: Sequence[Page], backs: Sequence[Page] | None,
                      paper_mm: tuple[float, float], bleed_mm: float,
                      faces: dict[FaceKey, FaceLayout], title: str,
                      advance: Callable[[int], None]) -> None:
    """Write fronts.pdf, and with ``backs`` backs.pdf and duplex.pdf, into ``folder``; file
    titles are ``title`` and the file's role. ``advance`` is told of the pages drawn."""
    titles = {name: f"{title}: {name}" for name in ("fronts", "backs", "duplex")}
    if backs is None:
        pages: list[Page] = list(fronts)
        per_sheet, main = 1, "fronts"
    else:
        pages = [page for pair in zip(fronts, backs, strict=True) for page in pair]
        per_sheet, main = 2, "duplex"
    job = SheetJob(pages, paper_mm, bleed_mm, faces)
    size = CHUNK_SHEETS * per_sheet
    chunks = [(first, min(first + size, len(pages))) for first in range(0, len(pages), size)]
    if len(chunks) <= 1:
        draw_pages(job, 0, len(pages), folder / f"{main}.pdf", titles[main],
                   lambda: advance(1))
        if backs is not None:
            _assemble([folder / "duplex.pdf"], {"fronts": (folder / "fronts.pdf", 0, 2),
                                                "backs": (folder / "backs.pdf", 1, 2)}, titles)
        return
    scratch = folder / ".pages"
    scratch.mkdir()
    try:
        sources = _draw_chunks(job, chunks, scratch, titles[main], advance)
        targets = {main: (folder / f"{main}.pdf", 0, 1)}
        if backs is not None:
            targets.update(fronts=(folder / "fronts.pdf", 0, 2),
                           backs=(folder / "backs.pdf", 1, 2))
        _assemble(sources, targets, titles)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
