"""Write a build's sheet files: fronts.pdf, backs.pdf and duplex.pdf, using both cores.

duplex.pdf holds every page (front, back, front, back...). A build of one chunk (under
``2 * MIN_CHUNK_SHEETS`` sheets: every real game) draws fronts.pdf in a forked worker while this
process draws backs.pdf, and duplex.pdf is joined from the two by page copy with pikepdf (qpdf):
each page is drawn once, on both cores. A larger build is drawn in an even number of equal
chunks of at most ``CHUNK_SHEETS`` sheets (:func:`chunk_sheets`), each its own small PDF with
fronts and backs, by a pool of worker processes, and the three files are assembled from the
chunks by page copy with pikepdf (qpdf) without decoding a stream: memory
stays bounded (ReportLab keeps a whole document until it saves it; a chunk is a few hundred
pages) and both cores draw. The price of chunking: each chunk embeds its own font subsets and
images, so a 10,000-card file carries a few copies of each. ``PNP_JOBS=1`` keeps all drawing in
this process.

The output is deterministic whatever the number of workers: ReportLab's canvases are invariant
and qpdf's file id is computed from the content.
"""

from __future__ import annotations

import math
import os
import shutil
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from msgspec import Struct
from msgspec.structs import astuple

from generator.cache.usercache import FileDigests, discard, file_digest, key_digest
from generator.core.limits import FILE_BYTES
from generator.impose.sheets import Page
from generator.layout.engine import FaceLayout
from generator.layout.ops import drawn_files
from generator.render.pdf import FaceKey, SheetRenderer, read_vector_art
from generator.runtime.forked import in_two_processes, lifeline, watch_parent, worker_count

#: sheets (a front page and its back) per chunk: big enough that a chunk's fonts and images are
#: embedded a few times per file at most, small enough to bound memory and feed two cores
CHUNK_SHEETS = 250


class SheetJob(Struct, frozen=True):
    """What every chunk needs: the pages in print order and how to draw them."""

    pages: Sequence[Page]
    paper_mm: tuple[float, float]
    bleed_mm: float
    faces: dict[FaceKey, FaceLayout]
    #: what each face was laid out from, where known (generator.layout.facecache): equal digests,
    #: equal drawings
    digests: Mapping[FaceKey, bytes] = {}


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


#: below twice this many sheets a build is one chunk: fronts.pdf drawn beside backs.pdf
MIN_CHUNK_SHEETS = 40


def chunk_sheets(sheets: int) -> int:
    """Sheets per chunk: at most ``CHUNK_SHEETS``, in an even number of equal chunks, so that
    two cores finish together (five chunks of 250 sheets kept one core busy a fifth longer than
    the other). The split depends on the pages only, never on the cores: same input, same
    bytes."""
    count = max(1, math.ceil(sheets / CHUNK_SHEETS))
    if count % 2 and (count > 1 or sheets >= 2 * MIN_CHUNK_SHEETS):
        count += 1
    return max(1, math.ceil(sheets / count))


#: the job a forked worker draws from (inherited from the parent, never pickled)
_FORKED_JOB: tuple[SheetJob, str] | None = None


def _draw_chunk(task: tuple[int, int, Path]) -> int:
    assert _FORKED_JOB is not None
    job, title = _FORKED_JOB
    first, stop, path = task
    return _draw_atomically(job, first, stop, path, title)


def _draw_atomically(job: SheetJob, first: int, stop: int, path: Path, title: str) -> int:
    """Draw a chunk under a temporary name and rename it: a cached chunk is always whole."""
    scratch = path.with_name(f".{path.name}.{os.getpid()}")
    drawn = draw_pages(job, first, stop, scratch, title)
    scratch.replace(path)
    return drawn


def _draw_chunks(job: SheetJob, tasks: list[tuple[int, int, Path]], title: str,
                 advance: Callable[[int], None],
                 alongside: Callable[[], None] | None = None) -> None:
    """Draw each ``(first, stop, path)`` chunk, in a pool of forked workers when it pays, and
    run ``alongside`` here meanwhile: one chunk (what an edited card draws again) is drawn by
    a forked process while this one runs it, on both cores."""
    global _FORKED_JOB
    workers = worker_count(len(tasks))
    import multiprocessing

    forking = "fork" in multiprocessing.get_all_start_methods()
    if len(tasks) == 1 and alongside is not None and forking and worker_count(2) > 1:
        (first, stop, path), = tasks
        _, drawn = in_two_processes(alongside, lambda: _draw_atomically(job, first, stop, path,
                                                                         title))
        advance(drawn)
        return
    if workers == 1 or not forking:
        if alongside is not None:
            alongside()
        for first, stop, path in tasks:
            advance(_draw_atomically(job, first, stop, path, title))
        return
    _FORKED_JOB = (job, title)
    try:
        lifeline()
        with multiprocessing.get_context("fork").Pool(workers, initializer=watch_parent) as pool:
            drawing = pool.imap(_draw_chunk, tasks)  # (the workers start on it at once)
            if alongside is not None:
                alongside()
            for drawn in drawing:
                advance(drawn)
    finally:
        _FORKED_JOB = None


def chunk_key(job: SheetJob, first: int, stop: int, title: str) -> str:
    """What a chunk's PDF depends on, hashed: its pages (placements, marks, boxes), the
    drawing of every face they place, the paper, bleed and title, and the cache layer's key
    recipe (pnp's files, ReportLab's and every library's version). Equal keys, equal bytes.
    A face is named by its digest, which covers everything its drawing was laid out from
    (pnp's code, the options, the packs' art by content), where it has one, else by its ops
    and the content of the art files they draw."""
    import hashlib

    pages = job.pages[first:stop]
    used = sorted({placement.face for page in pages for placement in page.placements})
    digests = job.digests
    # (a face's digest covers its art: the packs' files by content, pnp's by size and time)
    art = sorted({path for face in used if face not in digests
                  for path in drawn_files(job.faces[face].ops)})
    stamps = [(path, file_digest(Path(path), FILE_BYTES["image"])[0]) for path in art]
    digest = hashlib.sha256(key_digest())
    digest.update(_plain_bytes((job.paper_mm, job.bleed_mm, title, stamps)))
    for page in pages:
        digest.update(_plain_bytes(_page_values(page)))
    for face in used:
        drawing = digests.get(face)
        digest.update(_plain_bytes((face, drawing if drawing is not None
                                    else _ops_values(job.faces[face].ops))))
    return digest.hexdigest()[:32]


def _plain_bytes(value: object) -> bytes:
    """Plain data (str, numbers, None, tuples and lists of them) written out exactly:
    marshal's format 2 keeps no references between objects, so the bytes depend on the values
    only, not on which of them happen to be one object (a face's key shares its card id with
    the card in one process and not after coming back from a forked one), as pickle's would."""
    import marshal

    try:
        return marshal.dumps(value, 2)
    except ValueError:  # not plain data after all: pickled, without the memo
        import io
        import pickle

        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=5)
        pickler.fast = True  # (no memo: shared objects are written in full each time)
        pickler.dump(value)
        return b"pickle" + buffer.getvalue()


def _fields(value: Struct) -> tuple:
    return (type(value).__qualname__, astuple(value))


def _ops_values(ops: Sequence[Struct]) -> tuple:
    """Ops (or placements) as plain data: all of one class (a page's placements) as the
    class's name and each one's fields, else each as :func:`_fields`."""
    kinds = set(map(type, ops))
    if len(kinds) == 1:
        kind = kinds.pop()
        return (kind.__qualname__, list(map(astuple, ops)))
    return ("", [_fields(op) for op in ops])


def _page_values(page: Page) -> tuple:
    """Every field of a page as plain data: its grid, placements and marks as their fields."""
    values: list[object] = []
    for value in astuple(page):
        if isinstance(value, list):
            value = _ops_values(value)
        elif value is not None and not isinstance(value, str | int | float | tuple):
            value = _fields(value)  # (a grid)
        values.append(value)
    return tuple(values)


def _side_by_side(in_worker: Callable[[], None], here: Callable[[], None],
                  wanted: bool) -> None:
    """Run ``in_worker`` in a forked process while this one runs ``here`` (one after the other
    when not ``wanted``). The worker's error (art that cannot be drawn, say) is raised here:
    its files would be missing."""
    if not wanted:
        in_worker()
        here()
        return
    in_two_processes(here, in_worker)


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


def join_duplex(folder: Path, title: str) -> None:
    """duplex.pdf from ``folder``'s fronts.pdf and backs.pdf: each front page followed by its
    back, by page copy (no stream decoded, nothing drawn twice)."""
    import pikepdf

    with pikepdf.open(folder / "fronts.pdf") as fronts, \
            pikepdf.open(folder / "backs.pdf") as backs, pikepdf.new() as out:
        out.docinfo = out.copy_foreign(fronts.docinfo)
        for front, back in zip(fronts.pages, backs.pages, strict=True):
            out.pages.append(front)
            out.pages.append(back)
        _save(out, folder / "duplex.pdf", f"{title}: duplex")


def assemble(folder: Path, sources: list[Path], duplex: bool, title: str) -> None:
    """Write the sheet files into ``folder`` from the drawn ``sources``: duplex.pdf itself
    (a one-chunk build) or chunks of pages in print order."""
    titles = {name: f"{title}: {name}" for name in ("fronts", "backs", "duplex")}
    main = "duplex" if duplex else "fronts"
    targets = {}
    if sources != [folder / f"{main}.pdf"]:
        targets[main] = (folder / f"{main}.pdf", 0, 1)
    if duplex:
        targets.update(fronts=(folder / "fronts.pdf", 0, 2), backs=(folder / "backs.pdf", 1, 2))
    if len(targets) == 3 and worker_count(2) > 1:
        # each process opens the chunks itself (an opened PDF reads lazily through a file
        # offset that a forked process would share) and writes its files
        in_two_processes(lambda: _assemble(sources, {main: targets[main]}, titles),
                         lambda: _assemble(sources, {name: targets[name]
                                                     for name in ("fronts", "backs")}, titles))
    elif targets:
        _assemble(sources, targets, titles)


def write_sheet_files(folder: Path, fronts: Sequence[Page], backs: Sequence[Page] | None,
                      paper_mm: tuple[float, float], bleed_mm: float,
                      faces: dict[FaceKey, FaceLayout], title: str,
                      advance: Callable[[int], None], cache: Path | None = None,
                      reuse: bool = True, art_cache: Path | None = None,
                      alongside: Callable[[], None] | None = None,
                      digests: Mapping[FaceKey, bytes] | None = None) -> None:
    """Write fronts.pdf, and with ``backs`` backs.pdf and duplex.pdf, into ``folder``; file
    titles are ``title`` and the file's role. ``advance`` is told of the pages drawn.

    With ``cache`` (a folder of this output's own), a build of several chunks keeps its chunks
    there, named by :func:`chunk_key`, and the next build of the same output draws only the
    chunks whose pages changed (``reuse=False`` draws all of them again): an edited card costs
    one chunk. ``art_cache`` keeps SVG art compiled for the next build (generator.render.vectorart).
    ``alongside`` (work that needs no page, e.g. the manifest) runs once in this process,
    while chunks are drawn by worker processes (an edited card's one chunk is drawn by one),
    or after the backs while a forked worker draws the fronts (one chunk), else before
    drawing.
    ``digests`` name faces by what they were laid out from (see :func:`chunk_key`)."""

    if backs is None:
        pages: list[Page] = list(fronts)
        per_sheet, main = 1, "fronts"
    else:
        pages = [page for pair in zip(fronts, backs, strict=True) for page in pair]
        per_sheet, main = 2, "duplex"
    job = SheetJob(pages, paper_mm, bleed_mm, faces, digests or {})
    read_vector_art(faces.values(), art_cache)  # once, before the drawing processes fork
    size = chunk_sheets(len(pages) // per_sheet) * per_sheet
    chunks = [(first, min(first + size, len(pages))) for first in range(0, len(pages), size)]
    if alongside is not None and backs is None and len(chunks) <= 1:
        alongside()  # (a build of one chunk with backs runs it beside the fronts' worker)
        alongside = None
    if len(chunks) <= 1:
        if backs is None:
            draw_pages(job, 0, len(pages), folder / "fronts.pdf", f"{title}: fronts",
                       lambda: advance(1))
            return

        def backs_then_ready_to_join() -> None:
            draw_pages(SheetJob(backs, paper_mm, bleed_mm, faces), 0, len(backs),
                       folder / "backs.pdf", f"{title}: backs", lambda: advance(1))
            if alongside is not None:
                alongside()
            import pikepdf  # noqa: F401  (loaded while the worker still draws the fronts)

        _side_by_side(lambda: draw_pages(SheetJob(fronts, paper_mm, bleed_mm, faces), 0,
                                         len(fronts), folder / "fronts.pdf",
                                         f"{title}: fronts"),
                      backs_then_ready_to_join, wanted=worker_count(2) > 1)
        advance(len(fronts))
        join_duplex(folder, title)
        return
    chunk_title = f"{title}: {main}"
    kept: FileDigests | None = None
    if cache is None:
        store = folder / ".pages"
        paths = [store / f"pages-{first:07d}.pdf" for first, _ in chunks]
    else:  # chunks named by what they hold: an unchanged chunk is not drawn again
        store = cache
        paths = [store / f"{chunk_key(job, first, stop, chunk_title)}.pdf"
                 for first, stop in chunks]
        kept = FileDigests(store)  # (a chunk is taken only as it was drawn, byte for byte)
    store.mkdir(parents=True, exist_ok=True)
    try:
        todo = [(first, stop, path) for (first, stop), path in zip(chunks, paths, strict=True)
                if reuse is False or kept is None or not kept.valid(path)]
        advance(sum(stop - first for (first, stop), path in zip(chunks, paths, strict=True)
                    if (first, stop, path) not in todo))
        _draw_chunks(job, todo, chunk_title, advance, alongside)
        if kept is not None:
            for _, _, path in todo:
                kept.note(path)
            kept.save(path.name for path in paths)
        assemble(folder, paths, backs is not None, title)
    finally:
        if kept is None:
            shutil.rmtree(store, ignore_errors=True)
        else:  # keep this build's chunks only: the cache never outgrows one output
            for stale in set(store.iterdir()) - {*paths, kept.entry}:
                discard(stale)
