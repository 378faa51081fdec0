"""``pnp tuckbox``: a tuck box that holds the deck (or every card of the pack), as one PDF page.

The pack is checked and laid out as for a build, in the build's locale; the box is sized from
the largest card's trim and the stack's depth (generator.impose.tuckbox), its front and sides
carry the game's name and the deck's name in that locale, its back panel the cards' own back
(the back most of the deck's copies show), drawn from the same ops the sheets print. Written to
``OUT/<pack>/<locale>/tuckbox-<paper>[-<deck>]/`` with ``tuckbox.json`` beside it.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct, field
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import UsageError
from generator.core.findings import Finding, has_errors, warning
from generator.i18n.localize import DECK_CONTEXT, PACK_CONTEXT
from generator.impose.tuckbox import (
    DEFAULT_THICKNESS_MM,
    TuckBox,
    inner_size,
    notch_radius,
    place,
)
from generator.layout.engine import FaceLayout, text_ops
from generator.layout.engine import turned as turned_op
from generator.layout.ops import Op, Rect
from generator.layout.textfit import fit_text
from generator.model.cards import Card
from generator.pipeline.prepare import Prepared, prepare

if TYPE_CHECKING:
    from generator.model.deck import Deck
from generator.render.pdf import OpPainter, pnp_canvas
from generator.runtime.outdir import atomic_folder

INK = "#1a1a1a"
#: the largest sizes of the game's and the deck's names (shrunk to fit their panels)
NAME_SIZE_PT, DECK_SIZE_PT = 20.0, 13.0


class TuckboxResult(Struct):
    out_dir: Path | None
    findings: list[Finding] = field(default_factory=list)
    document: dict[str, object] = field(default_factory=dict)


def tuckbox(pack: Path, expansions: tuple[Path, ...], locale: str | None, deck: Path | None,
            paper: str, thickness_mm: float = DEFAULT_THICKNESS_MM,
            out_root: Path = Path("output")) -> TuckboxResult:
    """Check and lay out the pack, size the box, and write ``tuckbox.pdf`` and ``.json``."""
    preparation = prepare(pack, expansions, locale, 0.0, deck=deck)
    result = TuckboxResult(None, preparation.findings)
    ready = preparation.prepared
    if ready is None:
        return result
    counts, chosen = _counts(ready, pack, deck, result)
    if counts is None:
        return result
    cards = [card for card in ready.card_set.cards if counts.get(card.id, 0) > 0]
    if not cards:
        raise UsageError("no cards to box")
    sizes = [ready.game.size_of(card, ready.card_set.base.manifest.card_size) for card in cards]
    total = sum(counts[card.id] for card in cards)
    width, height, depth = inner_size(max(s.width_mm for s in sizes),
                                      max(s.height_mm for s in sizes), total, thickness_mm)
    box = place(width, height, depth, paper)
    names = _names(ready, chosen, result.findings)
    deck_stem = deck.stem if deck is not None else None
    back = _back_face(ready, cards, counts)
    target = out_root / ready.name / ready.locale / (
        f"tuckbox-{paper}" + (f"-{deck_stem}" if deck_stem else ""))
    document: dict[str, object] = {
        "inner_mm": {"width": width, "height": height, "depth": depth},
        "cards": total, "thickness_mm": thickness_mm, "paper": paper,
        "orientation": "landscape" if box.turned else "portrait",
        "page_mm": {"width": box.page_w, "height": box.page_h},
        "game": names[0], "deck": names[1], "locale": ready.locale,
        "panels": {name: {"x_mm": round(x, 3), "y_mm": round(y, 3), "w_mm": round(w, 3),
                          "h_mm": round(h, 3)} for name, (x, y, w, h) in box.panels.items()},
    }
    try:
        with atomic_folder(target) as scratch:
            _write_pdf(scratch / "tuckbox.pdf", box, names, back,
                       f"{names[0]} tuck box ({ready.locale}, {paper})")
            (scratch / "tuckbox.json").write_text(
                json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{target}: cannot write the tuck box: {exc.strerror or exc}") from None
    result.out_dir = target
    result.document = document
    return result


def _counts(ready: Prepared, pack: Path, deck: Path | None, result: TuckboxResult
            ) -> tuple[dict[str, int] | None, Deck | None]:
    """How many copies of each card the box holds (the deck's, else the pack's), and the
    deck."""
    if deck is None:
        return {card.id: card.count for card in ready.card_set.cards}, None
    from generator.model.deck import deck_counts, load_checked_deck  # a deck's box only

    chosen, problems = load_checked_deck(deck, pack, ready.card_set, ready.game,
                                         need_rules=False)
    result.findings.extend(problems)
    if chosen is None or has_errors(problems):
        return None, None
    return deck_counts(chosen), chosen


def _names(ready: Prepared, deck: Deck | None, findings: list[Finding]
           ) -> tuple[str, str | None]:
    """The game's and the deck's names in the box's locale; a missing translation prints the
    source name and says so, where the name is written."""
    localizer = ready.localizer
    manifest = ready.card_set.base.manifest
    names = [(PACK_CONTEXT, manifest.name, manifest.where("name"))]
    if deck is not None:
        names.append((DECK_CONTEXT, deck.name, deck.where("name")))
    shown = []
    for context, source, where in names:
        shown.append(localizer.text(context, source))
        if (context, source) in localizer.missing:
            findings.append(warning(
                "missing-translation", f"{context} name '{source}' has no {ready.locale} "
                "translation; the box prints the source name (pnp i18n update adds it to the "
                "catalog)", where, None, ready.locale))
    return shown[0], shown[1] if deck is not None else None


def _back_face(ready: Prepared, cards: list[Card], counts: dict[str, int]) -> FaceLayout | None:
    """The back most of the box's copies show (the pack's back art)."""
    shown: Counter[tuple[str, str]] = Counter()
    for card in cards:
        shown[ready.faces.backs[card.id]] += counts[card.id]
    if not shown:
        return None
    return ready.faces.layouts.get(shown.most_common(1)[0][0])


def _text(text: str, box: tuple[float, float, float, float], size: float, bold: bool,
          turned: bool = False) -> list[Op]:
    """A name fitted into a panel (shrunk to fit, centred), upright or reading upwards."""
    _, _, w, h = box
    style = "bold" if bold else "regular"
    width, height = (h, w) if turned else (w, h)
    fitted = fit_text(text, width, height, style, size, min(size, 6.0), None)
    ops, _ = text_ops(fitted, (0.0, 0.0, width, height) if turned else box, "center",
                      "middle", style, INK, {})
    if not turned:
        return ops
    return [turned_op(op, box, 90) for op in ops]


def _panel_ops(box: TuckBox, names: tuple[str, str | None]) -> list[Op]:
    """What is printed on the panels besides the back art: the names, and a frame on the
    front (which stays white: a home printer's ink goes to the art on the back)."""
    game, deck = names
    ops: list[Op] = []
    fx, fy, fw, fh = box.panels["front"]
    margin = min(5.0, fw / 10)
    below_notch = notch_radius(fw) + 1.5
    ops.append(Rect(fx + margin / 2, fy + below_notch, fw - margin, fh - below_notch - margin / 2,
                    stroke=INK, width_pt=0.75, radius=2.0))
    ops += _text(game, (fx + margin, fy + fh * 0.22, fw - 2 * margin, fh * 0.28), NAME_SIZE_PT,
                 True)
    if deck:
        ops += _text(deck, (fx + margin, fy + fh * 0.5, fw - 2 * margin, fh * 0.18),
                     DECK_SIZE_PT, False)
    for side in ("side_left", "side_right"):
        sx, sy, sw, sh = box.panels[side]
        if sw >= 6:
            ops += _text(game, (sx + 1, sy + 4, sw - 2, sh - 8), min(NAME_SIZE_PT, sw * 1.6),
                         True, turned=True)
    lx, ly, lw, lh = box.panels["lid"]
    if lh >= 6:
        ops += _text(deck or game, (lx + 3, ly + 1, lw - 6, lh - 2), min(DECK_SIZE_PT, lh * 1.8),
                     False)
    return ops


def _write_pdf(path: Path, box: TuckBox, names: tuple[str, str | None],
               back: FaceLayout | None, title: str) -> None:
    canvas = pnp_canvas(str(path), title, (box.page_w, box.page_h))
    painter = OpPainter(canvas, box.page_h)
    if back is not None:
        _draw_art(canvas, box, "back", back)
    painter.draw(_panel_ops(box, names))
    painter.draw(box.fold)
    painter.draw(box.cut)
    canvas.showPage()
    canvas.save()


def _draw_art(canvas: Canvas, box: TuckBox, panel: str, face: FaceLayout) -> None:
    """The card's back over a whole panel: scaled up the hair it takes to cover the panel
    (1 mm more than the card each way), centred, clipped to the panel."""
    x, y, w, h = box.panels[panel]
    scale = max(w / face.width_mm, h / face.height_mm)
    left = x + (w - face.width_mm * scale) / 2
    top = y + (h - face.height_mm * scale) / 2
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x * mm, (box.page_h - y - h) * mm, w * mm, h * mm)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(left * mm, (box.page_h - top - face.height_mm * scale) * mm)
    canvas.scale(scale, scale)
    OpPainter(canvas, face.height_mm).draw(face.ops)
    canvas.restoreState()
