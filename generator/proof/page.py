"""The proof page as one self-contained HTML file: inline CSS and script, pictures beside it.

Every text on the page comes from a pack (card names, rule messages quoting card values), and a
pack is somebody else's file: everything is escaped, nothing is ever inserted as markup. The page
works from file:// with no server; served by ``pnp watch`` (``live``), it also listens for
rebuilds and reloads itself. The markup contract is DESIGN.md's: ``data-card`` on each card,
``data-code`` and ``data-severity`` on each finding inside it.
"""

from __future__ import annotations

import hashlib
from functools import cache
from html import escape
from importlib.resources import files

from generator.core.findings import Finding
from generator.proof.collect import NOT_DRAWN, CardView, FaceView, Outline, Proof, Version
from generator.proof.pictures import picture_size_px

PICTURES = "faces"  # the folder beside index.html that holds the PNGs
REFERENCE_WIDTH_MM = 63.5  # a poker card is shown at the size slider's width
MIN_SCALE = 0.35
_VERSION_MARK = "@@version@@"


@cache
def _asset(name: str) -> str:
    return files("generator.proof").joinpath(name).read_text(encoding="utf-8")


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _pct(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") + "%"


def _finding(finding: Finding) -> str:
    locale = (f' data-locale="{_e(finding.locale)}"' if finding.locale else "")
    tag = f'<span class="tag">{_e(finding.locale)}</span>' if finding.locale else ""
    return (f'<li class="finding {_e(finding.severity)}" data-code="{_e(finding.code)}" '
            f'data-severity="{_e(finding.severity)}"{locale}>'
            f'<span class="sev">{_e(finding.severity)}</span> '
            f'<code class="code">{_e(finding.code)}</code>{tag} '
            f'<span class="msg">{_e(finding.message)}</span> '
            f'<span class="where">{_e(finding.location)}</span></li>')


def _findings(findings: list[Finding]) -> str:
    if not findings:
        return ""
    return '<ul class="findings">' + "".join(_finding(f) for f in findings) + "</ul>"


def _mm(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _outline(outline: Outline, face: FaceView, bleed: float) -> str:
    """The overflowing box, and below it a hatched band as long as the text that did not fit,
    placed in percentages of the picture (trim plus bleed) so it scales with the image. The
    box itself, in card mm from the trim's corner, is its ``data-box`` ("x y w h"), beside
    what overflows in ``data-field``: a script or a test reads them without the percentages."""
    width, height = face.width_mm + 2 * bleed, face.height_mm + 2 * bleed
    left, top = (bleed + outline.x) / width * 100, (bleed + outline.y) / height * 100
    box_w, box_h = outline.w / width * 100, outline.h / height * 100
    spill = min(outline.overflow_mm, face.height_mm + bleed - outline.y - outline.h)
    label = f"{outline.field}: {outline.overflow_mm:.1f} mm does not fit"
    # the tag sits above the box, or below its spill when the box is near the card's top
    tag_side = "below" if top < 12 else "above"
    band = (f'<span class="spill" style="left:{_pct(left)};top:{_pct(top + box_h)};'
            f'width:{_pct(box_w)};height:{_pct(max(spill, 0.0) / height * 100)}"></span>'
            if spill > 0 else "")
    box = " ".join(_mm(v) for v in (outline.x, outline.y, outline.w, outline.h))
    return (f'<span class="outline" style="left:{_pct(left)};top:{_pct(top)};'
            f'width:{_pct(box_w)};height:{_pct(box_h)}" title="{_e(label)}" '
            f'data-box="{box}" data-field="{_e(outline.field)}">'
            f'<span class="overflow-tag {tag_side}">+{outline.overflow_mm:.1f} mm</span>'
            f'</span>{band}')


def _face(face: FaceView, version: Version, bleed: float, several_locales: bool) -> str:
    width_px, height_px = picture_size_px(face.width_mm, face.height_mm, bleed)
    alt = f"{version.name}, {face.side}" + (f" ({version.locale})" if several_locales else "")
    trim_x = bleed / (face.width_mm + 2 * bleed) * 100
    trim_y = bleed / (face.height_mm + 2 * bleed) * 100
    outlines = "".join(_outline(o, face, bleed) for o in face.outlines)
    # faces keep their printed proportions: a counter is drawn smaller than a card, but never
    # under a third of one, so that it stays visible (the enlarged view shows it in detail)
    scale = max(MIN_SCALE, (face.width_mm + 2 * bleed) / (REFERENCE_WIDTH_MM + 2 * bleed))
    return (f'<figure class="face" data-side="{_e(face.side)}" '
            f'style="--scale:{scale:.3f}">'
            f'<div class="pic" style="aspect-ratio:{width_px}/{height_px}">'
            f'<img src="{PICTURES}/{_e(face.picture)}" alt="{_e(alt)}" width="{width_px}" '
            f'height="{height_px}" decoding="async">'
            f'<span class="trim" style="inset:{_pct(trim_y)} {_pct(trim_x)}"></span>{outlines}'
            f'</div><figcaption>{_e(face.side)}</figcaption></figure>')


def _version(version: Version, bleed: float, several_locales: bool) -> str:
    badge = ""
    if version.missing_translations:
        fields = ", ".join(version.missing_translations)
        badge = (f' <span class="untranslated" title="printed untranslated: {_e(fields)}">'
                 f'{len(version.missing_translations)} untranslated: {_e(fields)}</span>')
    faces = "".join(_face(face, version, bleed, several_locales) for face in version.faces)
    return (f'<div class="version" data-locale="{_e(version.locale)}" '
            f'lang="{_e(version.locale)}"><p class="vhead"><span class="lang">'
            f'{_e(version.locale)}</span>{badge}</p><div class="faces">{faces}</div></div>')


def _card(card: CardView, proof: Proof) -> str:
    errors = sum(1 for f in card.findings if f.severity == "error")
    warnings = len(card.findings) - errors
    classes = "card" + (" has-findings" if card.findings else "") + (
        " has-errors" if errors else "")
    search = " ".join(card.texts).lower()
    several = len(proof.locales) > 1
    versions = "".join(_version(v, proof.bleed_mm, several) for v in card.versions)
    meta = [] if card.name == card.id else [f"<code>{_e(card.id)}</code>"]
    if card.count > 1:
        meta.append(f"<span>×{card.count}</span>")
    if card.pack and card.pack != proof.pack:  # with expansions: which pack the card is from
        meta.append(f'<span class="pack">{_e(card.pack)}</span>')
    if errors:
        meta.append(f'<span class="count error">{_plural(errors, "error")}</span>')
    if warnings:
        meta.append(f'<span class="count warning">{_plural(warnings, "warning")}</span>')
    body = (f'<div class="versions">{versions}</div>' if versions else
            '<p class="undrawn">Not drawn: fix these findings to see it.</p>')
    anchor = f"card-{card.id}"
    return (f'<article class="{classes}" data-card="{_e(card.id)}" data-kind="{_e(card.kind)}" '
            f'data-search="{_e(search)}" id="{_e(anchor)}" tabindex="0" '
            f'aria-labelledby="{_e(anchor)}-name">'
            f'<header class="card-head"><h3 id="{_e(anchor)}-name">{_e(card.name)}</h3>'
            f'<p class="meta">{"".join(meta)}</p></header><div class="card-body">{body}'
            f'{_findings(card.findings)}</div></article>')


def _section(kind: str, cards: list[CardView], proof: Proof) -> str:
    slug = "".join(ch if ch.isalnum() else "-" for ch in kind)
    title = "Cards that could not be drawn" if kind == NOT_DRAWN else kind.replace("_", " ")
    return (f'<section class="kind{" undrawn-cards" if kind == NOT_DRAWN else ""}" '
            f'data-kind="{_e(kind)}" aria-labelledby="kind-{_e(slug)}">'
            f'<h2 id="kind-{_e(slug)}">{_e(title)} <span class="n">{len(cards)}</span></h2>'
            f'<div class="cards">{"".join(_card(c, proof) for c in cards)}</div></section>')


def _filters(proof: Proof, by_kind: dict[str, list[CardView]]) -> str:
    kinds = "".join(f'<option value="{_e(kind)}">{_e(kind.replace("_", " "))} '
                    f'({len(cards)})</option>' for kind, cards in by_kind.items())
    locales = "".join(f'<label class="check"><input type="checkbox" name="locale" '
                      f'value="{_e(loc)}" checked> {_e(loc)}</label>' for loc in proof.locales)
    locale_box = (f'<fieldset class="locales"><legend>Languages</legend>{locales}</fieldset>'
                  if len(proof.locales) > 1 else "")
    return (
        '<form class="filters" role="search" aria-label="Filter the cards">'
        '<label class="search"><span>Search</span><input type="search" id="q" '
        'placeholder="name, id, text or code" autocomplete="off" spellcheck="false" '
        'aria-keyshortcuts="/"></label>'
        f'<label><span>Kind</span><select id="kind"><option value="">all kinds</option>{kinds}'
        '</select></label>'
        '<label><span>Sides</span><select id="sides"><option value="both">front and back'
        '</option><option value="front">fronts</option><option value="back">backs</option>'
        '</select></label>'
        '<label class="check"><input type="checkbox" id="only-findings"> only cards with '
        'findings</label>'
        f'{locale_box}'
        '<label class="size"><span>Size</span><input type="range" id="size" min="120" '
        'max="420" step="10" value="200" aria-label="picture size"></label>'
        '</form>')


def page_version(html: str) -> str:
    """The version mark of a page that :func:`render_page` wrote."""
    start = html.index('data-version="') + len('data-version="')
    return html[start:html.index('"', start)]


def render_page(proof: Proof, live: bool = False, notice: str | None = None) -> str:
    """The whole page; same proof, same bytes (the version mark is a hash of the rest)."""
    kinds = proof.kinds()
    if NOT_DRAWN in kinds:  # the cards that could not be drawn come first: they need fixing
        kinds.insert(0, kinds.pop(kinds.index(NOT_DRAWN)))
    by_kind: dict[str, list[CardView]] = {kind: [] for kind in kinds}
    for card in proof.cards:
        by_kind[card.kind].append(card)
    findings = proof.findings
    errors = sum(1 for f in findings if f.severity == "error")
    warnings = len(findings) - errors
    drawn = sum(1 for c in proof.cards if c.versions)
    undrawn = len(proof.cards) - drawn
    stats = [f"<span>{_plural(drawn, 'card')}</span>",
             *([f'<span class="count error">{undrawn} not drawn</span>'] if undrawn else []),
             f"<span>{_e(' · '.join(proof.locales))}</span>",
             f'<span class="count {"error" if errors else "ok"}">{_plural(errors, "error")}'
             '</span>',
             f'<span class="count {"warning" if warnings else "ok"}">'
             f'{_plural(warnings, "warning")}</span>']
    if live:
        stats.append('<span id="live" class="live" role="status">live</span>')
    banner = f'<p class="notice" role="alert">{_e(notice)}</p>' if notice else ""
    pack_panel = ""
    if proof.pack_findings:
        pack_panel = ('<section class="pack-findings" aria-labelledby="pack-findings">'
                      f'<h2 id="pack-findings">Pack findings <span class="n">'
                      f'{len(proof.pack_findings)}</span></h2>'
                      f'{_findings(proof.pack_findings)}</section>')
    empty = "" if proof.cards or notice else (
        '<p class="empty">No card could be drawn: fix the findings above.</p>')
    sections = "".join(_section(kind, cards, proof) for kind, cards in by_kind.items())
    body = (
        f'<body data-version="{_VERSION_MARK}"{" data-live" if live else ""}>'
        '<a class="skip" href="#cards">Skip to the cards</a>'
        '<header class="bar"><div class="heading">'
        f'<h1>{_e(proof.title)} <small>proof</small></h1>'
        f'<p class="stats">{"".join(stats)}</p></div>'
        f'{_filters(proof, by_kind)}'
        '<p id="shown" class="shown" aria-live="polite"></p></header>'
        f'<main id="cards" tabindex="-1">{banner}{pack_panel}{empty}{sections}</main>'
        '<dialog id="zoom" aria-label="Card, enlarged"><form method="dialog">'
        '<button class="close" aria-label="Close">Close</button></form>'
        '<div class="zoom-body"></div></dialog>'
        f'<script>{_asset("proof.js")}</script></body>')
    version = hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="color-scheme" content="light">'
            f'<title>Proof: {_e(proof.title)}</title>'
            f'<style>{_asset("proof.css")}</style></head>'
            + body.replace(_VERSION_MARK, version, 1) + "</html>\n")
