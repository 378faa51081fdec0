"""``pnp build``: validate, localize, lay out, impose, render and write the manifest.

The build refuses to print a pack with rule errors (the user would cut out an unplayable deck);
warnings are printed and the build goes on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct, field
from msgspec.structs import replace

from generator.cache.buildcache import note_named
from generator.cache.usercache import output_cache_folder
from generator.core.errors import UsageError
from generator.core.findings import Finding, has_errors
from generator.impose.sheets import Imposition, Page, SheetOptions, Slot, impose
from generator.layout.facecache import faces_folder
from generator.layout.faces import CardFaces
from generator.layout.ops import drawn_files
from generator.model.cards import CardSet
from generator.model.game import Game
from generator.pipeline.prepare import FaceCacheFolder, prepare
from generator.render.sheetpdfs import write_sheet_files
from generator.render.vectorart import user_art_folder
from generator.runtime.outdir import atomic_folder
from generator.runtime.progress import Progress

if TYPE_CHECKING:
    from generator.model.deck import Deck


class BuildResult(Struct):
    out_dir: Path | None
    findings: list[Finding] = field(default_factory=list)
    pages: int = 0


def slots_of(card_set: CardSet, game: Game, counts: dict[str, int] | None = None
             ) -> list[Slot]:
    """Every printed copy, cards grouped by kind in order of first appearance (a sheet then
    holds one kind: ship sheets, action sheets... as the original print layout of 2.1).
    ``counts`` (a deck) replaces the cards' own counts and leaves out the cards it lacks."""
    cards = [card for card in card_set.cards if counts is None or counts.get(card.id, 0) > 0]
    first_seen: dict[str, int] = {}
    for card in cards:
        first_seen.setdefault(card.kind, len(first_seen))
    ordered = sorted(cards, key=lambda card: first_seen[card.kind])
    default = card_set.base.manifest.card_size
    return [Slot(card.id, copy, card.kind, game.size_of(card, default)) for card in ordered
            for copy in range(1, (card.count if counts is None else counts[card.id]) + 1)]


def _box_json(box: tuple[float, float, float, float] | None) -> dict[str, float] | None:
    if box is None:
        return None
    x, y, w, h = box
    return {"x_mm": round(x, 3), "y_mm": round(y, 3), "w_mm": round(w, 3), "h_mm": round(h, 3)}


def _page_json(page: Page, index: int, paper: tuple[float, float]) -> dict[str, object]:
    grid = page.grid
    return {
        "index": index,
        "side": page.side,
        "sheet": page.sheet,
        "grid": {"cols": grid.cols, "rows": grid.rows, "x0_mm": grid.x0, "y0_mm": grid.y0}
        if grid else None,
        "trim_box": _box_json(page.trim_box),
        "bleed_box": _box_json(page.bleed_box(paper)),
        "cards": [{"id": p.card_id, "copy": p.copy, "face": p.face[0], "x_mm": round(p.x, 3),
                   "y_mm": round(p.y, 3), "w_mm": round(p.w, 3), "h_mm": round(p.h, 3),
                   "rotation": p.rotation} for p in page.placements],
    }


def manifest_document(imposition: Imposition, options: SheetOptions, pack: str, locale: str,
                      faces: CardFaces) -> dict[str, object]:
    width, height = options.paper_size
    pages = [_page_json(p, i, (width, height)) for i, p in enumerate(imposition.fronts, start=1)]
    pages += [_page_json(p, i, (width, height)) for i, p in enumerate(imposition.backs, start=1)]
    grid = imposition.grid
    return {
        "pack": pack,
        "locale": locale,
        "paper": {"name": options.paper, "width_mm": width, "height_mm": height},
        "duplex": options.duplex,
        "back_offset_mm": list(options.back_offset_mm),
        "bleed_mm": options.bleed_mm,
        "gutter_mm": options.gutter_mm,
        "grid": {"cols": grid.cols, "rows": grid.rows, "x0_mm": grid.x0, "y0_mm": grid.y0},
        "files": {"fronts": "fronts.pdf",
                  **({"backs": "backs.pdf", "duplex": "duplex.pdf"}
                     if options.duplex != "none" else {})},
        "distinct_faces": len(faces.layouts),
        "pages": pages,
    }


def readable_json(value: object, indent: str = "") -> str:
    """JSON indented down to the innermost objects and lists, each of which stays on one line
    (a placed card, a grid). Reads like ``indent=2`` but is written by json's C encoder: with
    ``indent`` set json falls back to pure Python, which cost a 10,000-card build seconds."""
    inner = indent + "  "
    if isinstance(value, dict) and any(isinstance(v, dict | list) and v for v in value.values()):
        items = [f"{inner}{json.dumps(k)}: {readable_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    if isinstance(value, list) and any(isinstance(v, dict | list) and v for v in value):
        return "[\n" + ",\n".join(inner + readable_json(v, inner) for v in value) + \
            f"\n{indent}]"
    return json.dumps(value, ensure_ascii=False)


def build(pack: Path, expansions: tuple[Path, ...], locale: str | None, options: SheetOptions,
          out_root: Path, ink_saver: bool = False, strict: bool = False,
          deck: Path | None = None, progress: Progress | None = None,
          allow_overflow: bool = False, reuse: bool = True) -> BuildResult:
    """Validate, lay out, impose and write the sheets; with ``deck`` only that deck's cards, in
    its counts (the deck must pass the game's deck rules first). ``progress`` (off by default)
    counts cards laid out and pages drawn. A large build reuses the chunks of pages its last
    build drew, where unchanged, unless ``reuse`` is false (see generator.render.sheetpdfs)."""
    progress = progress or Progress("", 0, enabled=False)
    progress.relabel("laying out cards")
    face_cache = FaceCacheFolder(faces_folder(out_root), reuse=reuse, exclude=out_root)
    preparation = prepare(pack, expansions, locale, options.bleed_mm, ink_saver=ink_saver,
                          strict=strict, progress=progress,
                          allow_overflow=allow_overflow, face_cache=face_cache, deck=deck)
    result = BuildResult(out_dir=None, findings=preparation.findings)
    ready = preparation.prepared
    if ready is None:
        return result
    card_set, game, locale = ready.card_set, ready.game, ready.locale
    counts: dict[str, int] | None = None
    chosen: Deck | None = None
    if deck is not None:
        from generator.model.deck import deck_counts, load_checked_deck  # a deck build only

        chosen, problems = load_checked_deck(deck, pack, card_set, game, need_rules=False)
        result.findings.extend(problems)
        if chosen is None or has_errors(problems):
            return result
        counts = deck_counts(chosen)
    manifest = card_set.base.manifest
    faces = ready.faces
    # (a hidden art file is an input too)
    note_named({path for layout in faces.layouts.values() for path in drawn_files(layout.ops)})
    label = f"{manifest.pack} \u00b7 {locale} \u00b7 {options.paper}"
    if chosen is not None:
        label += f" \u00b7 {chosen.name}"
    options = replace(options, new_sheet_per_kind=manifest.sheet_per_kind)
    imposition = impose(slots_of(card_set, game, counts), faces.fronts, faces.backs, options,
                        label)
    name = ready.name
    folder = options.paper if deck is None else f"{options.paper}-{deck.stem}"
    target = out_root / name / locale / folder
    title = f"{manifest.name} ({locale}, {options.paper})"
    progress.extend(len(imposition.fronts) * (1 if options.duplex == "none" else 2))
    progress.relabel("drawing pages")
    cache = output_cache_folder(out_root)  # (None: caches are off)
    try:
        with atomic_folder(target) as scratch:

            def write_manifest() -> None:
                document = manifest_document(imposition, options, name, locale, faces)
                if chosen is not None:
                    document["deck"] = {"name": chosen.name, "file": chosen.file,
                                        "cards": chosen.total}
                (scratch / "manifest.json").write_text(readable_json(document) + "\n",
                                                       encoding="utf-8")
                face_cache.keep(faces)  # for the next build (generator.layout.facecache)

            write_sheet_files(scratch, imposition.fronts,
                              None if options.duplex == "none" else imposition.backs,
                              options.paper_size, options.bleed_mm, faces.layouts, title,
                              progress.advance, reuse=reuse,
                              cache=cache / "pages" / name / locale / folder
                              if cache is not None else None,
                              art_cache=user_art_folder(),
                              alongside=write_manifest,  # while the fronts are drawn
                              digests=faces.digests)
    except OSError as exc:
        raise UsageError(f"{target}: cannot write the build: {exc.strerror or exc}") from None
    result.out_dir = target
    result.pages = len(imposition.fronts) + len(imposition.backs)
    return result
