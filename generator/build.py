"""``pnp build``: validate, localize, lay out, impose, render and write the manifest.

The build refuses to print a pack with rule errors (the user would cut out an unplayable deck);
warnings are printed and the build goes on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator.cardfaces import CardFaces, lay_out_cards
from generator.errors import UsageError
from generator.findings import Finding, has_errors
from generator.games.base import Game
from generator.impose import Imposition, Page, SheetOptions, Slot, impose
from generator.localecheck import check_locale, localizer_for
from generator.model import CardSet
from generator.outdir import atomic_folder
from generator.progress import Progress
from generator.render import SheetRenderer
from generator.validate import validate


@dataclass(slots=True)
class BuildResult:
    out_dir: Path | None
    findings: list[Finding] = field(default_factory=list)
    pages: int = 0


def slots_of(card_set: CardSet, game: Game) -> list[Slot]:
    """Every printed copy, cards grouped by kind in order of first appearance (a sheet then
    holds one kind: ship sheets, action sheets... as the original print layout of 2.1)."""
    cards = card_set.cards
    first_seen: dict[str, int] = {}
    for card in cards:
        first_seen.setdefault(card.kind, len(first_seen))
    ordered = sorted(cards, key=lambda card: first_seen[card.kind])
    default = card_set.base.manifest.card_size
    return [Slot(card.id, copy, card.kind, game.size_of(card, default)) for card in ordered
            for copy in range(1, card.count + 1)]


def _page_json(page: Page, index: int) -> dict[str, object]:
    grid = page.grid
    return {
        "index": index,
        "side": page.side,
        "sheet": page.sheet,
        "grid": {"cols": grid.cols, "rows": grid.rows, "x0_mm": grid.x0, "y0_mm": grid.y0}
        if grid else None,
        "cards": [{"id": p.card_id, "copy": p.copy, "face": p.face[0], "x_mm": round(p.x, 3),
                   "y_mm": round(p.y, 3), "w_mm": round(p.w, 3), "h_mm": round(p.h, 3),
                   "rotation": p.rotation} for p in page.placements],
    }


def manifest_document(imposition: Imposition, options: SheetOptions, pack: str, locale: str,
                      faces: CardFaces) -> dict[str, object]:
    width, height = options.paper_size
    pages = [_page_json(p, i) for i, p in enumerate(imposition.fronts, start=1)]
    pages += [_page_json(p, i) for i, p in enumerate(imposition.backs, start=1)]
    grid = imposition.grid
    return {
        "pack": pack,
        "locale": locale,
        "paper": {"name": options.paper, "width_mm": width, "height_mm": height},
        "duplex": options.duplex,
        "back_offset_mm": list(options.back_offset_mm),
        "bleed_mm": options.bleed_mm,
        "grid": {"cols": grid.cols, "rows": grid.rows, "x0_mm": grid.x0, "y0_mm": grid.y0},
        "files": {"fronts": "fronts.pdf",
                  **({"backs": "backs.pdf", "duplex": "duplex.pdf"}
                     if options.duplex != "none" else {})},
        "distinct_faces": len(faces.layouts),
        "pages": pages,
    }


def _write_pdf(path: Path, pages: list[Page], options: SheetOptions, title: str,
               faces: CardFaces, progress: Progress) -> None:
    renderer = SheetRenderer(path, options.paper_size, title, faces.layouts, options.bleed_mm)
    for page in pages:
        renderer.add_page(page)
        progress.advance()
    renderer.save()


def build(pack: Path, expansions: tuple[Path, ...], locale: str | None, options: SheetOptions,
          out_root: Path, ink_saver: bool = False, strict: bool = False,
          progress: Progress | None = None) -> BuildResult:
    """Validate, then write the sheets; ``progress`` (off by default) counts cards laid out
    and pages drawn."""
    progress = progress or Progress("", 0, enabled=False)
    checked = validate(pack, expansions)
    result = BuildResult(out_dir=None, findings=list(checked.findings))
    if checked.card_set is None or checked.game is None or has_errors(checked.findings):
        return result
    card_set, game = checked.card_set, checked.game
    manifest = card_set.base.manifest
    locale = locale or manifest.source_locale
    if locale not in manifest.locales:
        raise UsageError(f"pack '{manifest.pack}' has no locale '{locale}' "
                         f"(it ships: {', '.join(manifest.locales)})")
    if game.faces is None:
        raise UsageError(f"game '{game.name}' has no card templates to print with")
    localizer = localizer_for(card_set, game.name, locale)  # reads the PO catalogs once
    result.findings.extend(check_locale(card_set, game, locale, strict, layout=False,
                                        localizer=localizer))
    if has_errors(result.findings):
        return result
    progress.extend(len(card_set.cards))
    progress.relabel("laying out cards")
    faces = lay_out_cards(card_set, game, localizer, options.bleed_mm, ink_saver,
                          on_card=progress.advance)
    result.findings.extend(faces.findings)
    if has_errors(faces.findings):
        return result
    label = f"{manifest.pack} \u00b7 {locale} \u00b7 {options.paper}"
    options = replace(options, new_sheet_per_kind=manifest.sheet_per_kind)
    imposition = impose(slots_of(card_set, game), faces.fronts, faces.backs, options, label)
    name = "+".join(p.manifest.pack for p in card_set.packs)
    target = out_root / name / locale / options.paper
    title = f"{manifest.name} ({locale}, {options.paper})"
    progress.extend(len(imposition.fronts) * (1 if options.duplex == "none" else 4))
    progress.relabel("drawing pages")
    try:
        with atomic_folder(target) as scratch:
            _write_pdf(scratch / "fronts.pdf", imposition.fronts, options,
                       f"{title}: fronts", faces, progress)
            if options.duplex != "none":
                _write_pdf(scratch / "backs.pdf", imposition.backs, options,
                           f"{title}: backs", faces, progress)
                interleaved = [page for pair in zip(imposition.fronts, imposition.backs,
                                                     strict=True) for page in pair]
                _write_pdf(scratch / "duplex.pdf", interleaved, options,
                           f"{title}: duplex", faces, progress)
            document = manifest_document(imposition, options, name, locale, faces)
            (scratch / "manifest.json").write_text(
                json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{target}: cannot write the build: {exc.strerror or exc}") from None
    result.out_dir = target
    result.pages = len(imposition.fronts) + len(imposition.backs)
    return result
