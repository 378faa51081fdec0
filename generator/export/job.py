"""``pnp export``: per-card pictures and PDFs for print services, and Tabletop Simulator decks.

The export lays the faces out as a build does, then writes ``OUT/<pack>/<locale>/<preset or
to>/`` atomically (a failed export leaves the previous one untouched) with ``export.json``.

``export.json`` lists every file the export writes under ``written`` (a TTS saved object and a
DriveThruCards deck file too), and every printed card side under ``files``.

Copies: every copy of a card is the same picture, and print services take a quantity per
uploaded image, so by default each distinct face is one file and ``export.json`` lists it once
per copy (``copy`` 1..N, the same ``path``): a script that uploads every entry uploads the
deck. ``--per-copy`` writes a file per copy instead, for services that count uploaded files.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from msgspec import Struct

from generator.core.errors import UsageError
from generator.core.findings import Finding
from generator.export.pictures import pixels, render_pages, save_png
from generator.export.presets import INCH, MAX_PADDING_MM, PRESETS, Preset
from generator.model.cards import Card, CardSize
from generator.pipeline.prepare import Prepared, prepare
from generator.render.cardpdf import (
    CardFrame,
    CardPdf,
    card_pdf_bytes,
    plain_frame,
    rounded_outline,
)
from generator.runtime.outdir import atomic_folder
from generator.runtime.progress import Progress

TARGETS = ("png", "card-pdf", "tts")
SIDES = ("front", "back")
#: print services ask for 1/8 in of bleed on every side
DEFAULT_BLEED_MM = 0.125 * INCH
DEFAULT_DPI = 300

Tick = Callable[[], None]


class ExportOptions(Struct, frozen=True, gc=False):
    to: str | None = None
    preset: str | None = None
    dpi: int | None = None
    bleed_mm: float | None = None
    kinds: tuple[str, ...] = ()
    per_copy: bool = False
    base_url: str | None = None
    ink_saver: bool = False
    strict: bool = False


class ExportResult(Struct):
    """What an export did; filled in as it goes (not frozen)."""

    out_dir: Path | None
    findings: list[Finding] = []
    files: int = 0


class Plan(Struct, frozen=True):
    """What an export makes, settled from the options before anything is laid out."""

    to: str
    preset: Preset | None
    dpi: int | None
    bleed_mm: float
    layout_bleed_mm: float
    folder: str


def plan(options: ExportOptions) -> Plan:
    preset = None
    if options.preset is not None:
        preset = PRESETS.get(options.preset)
        if preset is None:
            raise UsageError(f"no preset '{options.preset}' (there are: {', '.join(PRESETS)})")
        if options.to not in (None, preset.to):
            raise UsageError(f"the {options.preset} preset makes {preset.to} files, not "
                             f"{options.to}: {preset.service} takes {preset.to}")
        if options.dpi not in (None, preset.dpi):
            raise UsageError(f"{preset.service} takes {preset.dpi} dpi files; leave out --dpi")
        if options.bleed_mm is not None:
            raise UsageError(f"{preset.service} sets its own bleed; leave out --bleed")
        bleed = max(max(s.bleed_x_in, s.bleed_y_in) for s in preset.sizes) * INCH
        # a card may sit up to MAX_PADDING_MM inside the service's trim, scaled by up to 1 %
        return Plan(preset.to, preset, preset.dpi if preset.to == "png" else None, bleed,
                    (bleed + MAX_PADDING_MM) * 1.02, preset.name)
    if options.to is None:
        raise UsageError(f"say what to export: --to {'|'.join(TARGETS)} (or a --preset)")
    if options.to == "tts":
        if options.bleed_mm:
            raise UsageError("Tabletop Simulator shows cards cut: a TTS export has no bleed")
        return Plan("tts", None, options.dpi, 0.0, 0.0, "tts")
    bleed = DEFAULT_BLEED_MM if options.bleed_mm is None else options.bleed_mm
    dpi = (options.dpi or DEFAULT_DPI) if options.to == "png" else None
    return Plan(options.to, None, dpi, bleed, bleed, options.to)


def chosen_cards(ready: Prepared, kinds: tuple[str, ...]) -> list[Card]:
    known = list(dict.fromkeys(card.kind for card in ready.card_set.cards))
    unknown = [kind for kind in kinds if kind not in known]
    if unknown:
        raise UsageError(f"no cards of kind {', '.join(unknown)} in this pack "
                         f"(it has: {', '.join(known)})")
    return [card for card in ready.card_set.cards if not kinds or card.kind in kinds]


def card_size(ready: Prepared, card: Card) -> CardSize:
    return ready.game.size_of(card, ready.card_set.base.manifest.card_size)


def frames_for(ready: Prepared, cards: list[Card], the_plan: Plan) -> dict[CardSize, CardFrame]:
    """The page each card size gets; a size the preset's service does not print is an error
    that names the kinds of that size and the sizes the service prints."""
    frames: dict[CardSize, CardFrame] = {}
    for card in cards:
        size = card_size(ready, card)
        if size in frames:
            continue
        preset = the_plan.preset
        frame = (plain_frame(size.width_mm, size.height_mm, the_plan.bleed_mm) if preset is None
                 else preset.frame_for(size))
        if frame is None:
            assert preset is not None
            kinds = sorted({c.kind for c in cards if card_size(ready, c) == size})
            raise UsageError(
                f"{preset.service} prints no {size.width_mm:g} x {size.height_mm:g} mm card "
                f"(kind {', '.join(kinds)}); it prints: {preset.supported()}. Export the other "
                "kinds with --kind, or choose another size in game.yaml")
        frames[size] = frame
    return frames


class FaceFile(Struct, frozen=True):
    key: tuple[str, str]
    stem: str  # file name without extension
    frame: CardFrame


def face_files(ready: Prepared, cards: list[Card], frames: dict[CardSize, CardFrame],
               per_copy: bool) -> tuple[list[FaceFile], list[dict[str, object]]]:
    """The distinct files to write and the export.json entry of every printed card side.

    A card-specific face is ``<card>.<side>``, a face shared by many cards (a common back)
    ``<template>.shared``: card ids have no dots, so the names never collide."""
    faces = ready.faces
    files: dict[str, FaceFile] = {}
    entries: list[dict[str, object]] = []
    for card in cards:
        frame = frames[card_size(ready, card)]
        for copy in range(1, card.count + 1):
            for side in SIDES:
                key = (faces.fronts if side == "front" else faces.backs)[card.id]
                if per_copy:
                    stem = f"{card.id}.{copy}.{side}"
                else:
                    stem = f"{key[0]}.shared" if key[1] == "*" else f"{card.id}.{side}"
                files.setdefault(stem, FaceFile(key, stem, frame))
                entries.append({"path": stem, "card": card.id, "copy": copy, "side": side})
    return list(files.values()), entries


def write_pngs(ready: Prepared, files: list[FaceFile], dpi: int, folder: Path,
               tick: Tick) -> dict[str, tuple[int, int]]:
    layouts = ready.faces.layouts
    sizes = [(pixels(f.frame.page_w, dpi), pixels(f.frame.page_h, dpi)) for f in files]
    data = card_pdf_bytes(((layouts[f.key], f.frame) for f in files), "pnp export")
    # a rounded card's corners are transparent in its picture (alpha), not white paper
    clear = [rounded_outline(layouts[f.key], f.frame) is not None for f in files]
    result: dict[str, tuple[int, int]] = {}
    for face_file, image in zip(files, render_pages(data, sizes, clear), strict=True):
        save_png(image, folder / f"{face_file.stem}.png", dpi)
        result[face_file.stem] = image.size
        tick()
    return result


def write_card_pdfs(ready: Prepared, files: list[FaceFile], folder: Path, tick: Tick) -> None:
    layouts = ready.faces.layouts
    for face_file in files:
        document = CardPdf(folder / f"{face_file.stem}.pdf", f"{face_file.stem} (pnp)")
        document.add_framed(layouts[face_file.key], face_file.frame)
        document.save()
        tick()


def write_deck_pdf(ready: Prepared, files: list[FaceFile], entries: list[dict[str, object]],
                   path: Path) -> int:
    """DriveThruCards' deck file: one PDF, each printed card as two pages, its back first and
    then its front, in the order the deck is printed (docs/exports.md)."""
    by_stem = {f.stem: f for f in files}
    document = CardPdf(path, "pnp deck for DriveThruCards")
    fronts = [e for e in entries if e["side"] == "front"]
    backs = {(e["card"], e["copy"]): e for e in entries if e["side"] == "back"}
    for front in fronts:
        for entry in (backs[(front["card"], front["copy"])], front):
            face_file = by_stem[str(entry["path"])]
            document.add_framed(ready.faces.layouts[face_file.key], face_file.frame)
    document.save()
    return document.pages


def export(pack: Path, expansions: tuple[Path, ...], locale: str | None, options: ExportOptions,
           out_root: Path, progress: Progress | None = None) -> ExportResult:
    """Lay the pack out and write the files ``options`` ask for; ``progress`` (off by
    default) counts the cards laid out and the pictures or files made."""
    the_plan = plan(options)
    progress = progress or Progress("", 0, enabled=False)
    progress.relabel("laying out cards")
    preparation = prepare(pack, expansions, locale, the_plan.layout_bleed_mm,
                          ink_saver=options.ink_saver, strict=options.strict,
                          progress=progress)
    result = ExportResult(None, preparation.findings)
    ready = preparation.prepared
    if ready is None:
        return result
    cards = chosen_cards(ready, options.kinds)
    progress.relabel(f"writing {the_plan.folder}")
    target = out_root / ready.name / ready.locale / the_plan.folder
    document: dict[str, object] = {
        "pack": ready.name, "locale": ready.locale, "to": the_plan.to,
        "preset": the_plan.preset.name if the_plan.preset else None, "dpi": the_plan.dpi,
        "bleed_mm": round(the_plan.bleed_mm, 4)}
    try:
        with atomic_folder(target) as scratch:
            if the_plan.to == "tts":
                from generator.export.tts import write_tts

                document.update(write_tts(ready, cards, the_plan.dpi, scratch, target,
                                          options.base_url, progress))
            else:
                document.update(_write_cards(ready, cards, the_plan, options.per_copy,
                                             scratch, progress))
            written = document["written"] = written_files(document)
            (scratch / "export.json").write_text(
                json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{target}: cannot write the export: {exc.strerror or exc}") from None
    result.out_dir = target
    result.files = len(written) - 1  # (export.json is not counted)
    return result


def written_files(document: dict[str, object]) -> list[str]:
    """Every file the export writes, export.json included, once each: the card sides' and
    sheets' files, a TTS saved object, a DriveThruCards deck file. A script that syncs or
    uploads the folder reads this list; ``files`` stays one entry per printed card side."""
    entries = document["files"]
    assert isinstance(entries, list)
    paths = {str(entry["path"]) for entry in entries}
    if document.get("tts_object"):
        paths.add(str(document["tts_object"]))
    deck = document.get("deck_pdf")
    if isinstance(deck, dict):
        paths.add(str(deck["path"]))
    return sorted(paths | {"export.json"})


def _write_cards(ready: Prepared, cards: list[Card], the_plan: Plan, per_copy: bool,
                 folder: Path, progress: Progress) -> dict[str, object]:
    frames = frames_for(ready, cards, the_plan)
    files, entries = face_files(ready, cards, frames, per_copy)
    progress.extend(len(files))
    tick = progress.advance
    extra: dict[str, object] = {}
    if the_plan.to == "png":
        assert the_plan.dpi is not None
        sizes = write_pngs(ready, files, the_plan.dpi, folder, tick)
        for entry in entries:
            stem = str(entry["path"])
            entry["path"] = f"{stem}.png"
            entry["width_px"], entry["height_px"] = sizes[stem]
    else:
        write_card_pdfs(ready, files, folder, tick)
        if the_plan.preset is not None and the_plan.preset.name == "drivethrucards":
            pages = write_deck_pdf(ready, files, entries, folder / "deck.pdf")
            extra["deck_pdf"] = {"path": "deck.pdf", "pages": pages,
                                 "order": "each printed card: its back, then its front"}
        for entry in entries:
            entry["path"] = f"{entry['path']}.pdf"
            entry["width_px"] = entry["height_px"] = None
    return {"files": entries, **extra}
