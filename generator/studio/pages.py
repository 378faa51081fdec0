"""The studio's HTML: the card list, a card's form, the translator's view.

Every text on these pages comes from a pack (names, rules texts, messages quoting values), so
everything is escaped and nothing is inserted as markup; the pages carry no inline script or
style (the Content-Security-Policy forbids both): their behaviour is ``studio.js`` and
``translate.js``, their looks ``studio.css``, all served by pnp. The markup contract is
DESIGN.md's: ``data-card`` on each card of the list, ``name="<field>"`` on each control,
``data-face`` on the faces, ``data-code``/``data-severity`` on findings, ``data-action`` on the
buttons, ``data-msgctxt`` on translations and ``data-fit`` on each face a text prints on.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any
from urllib.parse import quote

from msgspec import Struct

from generator.core.findings import Finding
from generator.studio.live import Face
from generator.studio.schemaform import FieldSpec, FormSpec
from generator.studio.translate import Catalogs, Entry, Slot

ASSET_VERSION = "1"


def e(value: object) -> str:
    return escape(str(value), quote=True)


def _json(value: object) -> str:
    return e(json.dumps(value, ensure_ascii=False))


def card_url(card_id: str) -> str:
    return "/card/" + quote(card_id, safe="")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def page(title: str, body: str, token: str, script: str, page_kind: str,
         data: Mapping[str, object] | None = None) -> str:
    """A whole page: the shared header, the body, the page's script."""
    attributes = "".join(f' data-{e(k)}="{e(v)}"' for k, v in (data or {}).items())
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="color-scheme" content="light">'
            f'<meta name="pnp-token" content="{e(token)}">'
            f'<title>{e(title)}</title>'
            f'<link rel="stylesheet" href="/static/studio.css?v={ASSET_VERSION}">'
            f'<script src="/static/common.js?v={ASSET_VERSION}" defer></script>'
            f'<script src="/static/{e(script)}?v={ASSET_VERSION}" defer></script></head>'
            f'<body data-page="{e(page_kind)}"{attributes}>'
            '<a class="skip" href="#main">Skip to the content</a>'
            f'{body}</body></html>\n')


def _nav(pack_title: str, locales: Sequence[str], source: str | None, current: str) -> str:
    links = [f'<a href="/" class="{"here" if current == "cards" else ""}"'
             f'{" aria-current=page" if current == "cards" else ""}>Cards</a>']
    for locale in locales:
        if locale == source:
            continue
        here = current == f"translate:{locale}"
        links.append(f'<a href="/translate/{e(quote(locale))}" class="{"here" if here else ""}"'
                     f'{" aria-current=page" if here else ""}>Translate {e(locale)}</a>')
    return (f'<nav class="top" aria-label="Studio"><span class="brand">pnp studio</span>'
            f'<span class="pack">{e(pack_title)}</span>{"".join(links)}'
            '<button type="button" class="keys-button" data-action="keys" '
            'aria-keyshortcuts="?">Keys</button></nav>')


def finding_item(finding: Finding, field: str | None = None) -> str:
    target = f' data-field="{e(field)}"' if field else ""
    link = (f'<button type="button" class="to-field" data-field="{e(field)}">{e(field)}</button>'
            if field else "")
    locale = f'<span class="tag">{e(finding.locale)}</span>' if finding.locale else ""
    return (f'<li class="finding {e(finding.severity)}" data-code="{e(finding.code)}" '
            f'data-severity="{e(finding.severity)}"{target}>'
            f'<span class="sev">{e(finding.severity)}</span> <code>{e(finding.code)}</code>'
            f'{locale} {link} <span class="msg">{e(finding.message)}</span> '
            f'<span class="where">{e(finding.location)}</span></li>')


def _keys_dialog(rows: Iterable[tuple[str, str]]) -> str:
    items = "".join(f"<tr><th><kbd>{e(k)}</kbd></th><td>{e(v)}</td></tr>" for k, v in rows)
    return ('<dialog id="keys" aria-labelledby="keys-title"><h2 id="keys-title">Keyboard</h2>'
            f'<table>{items}</table><form method="dialog"><button>Close</button></form>'
            '</dialog>')


# --- the card list --------------------------------------------------------------------------

class ListedCard(Struct, frozen=True):
    id: str
    kind: str
    name: str
    pack: str
    where: str
    errors: int
    warnings: int
    front: Face | None


def list_page(title: str, cards: Sequence[ListedCard], kinds: Sequence[str],
              pack_findings: Sequence[Finding], locales: Sequence[str], source: str | None,
              token: str, several_packs: bool) -> str:
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.kind] = counts.get(card.kind, 0) + 1
    options = "".join(f'<option value="{e(k)}">{e(k.replace("_", " "))} ({counts.get(k, 0)})'
                      '</option>' for k in kinds)
    new_kinds = "".join(f'<option value="{e(k)}">{e(k.replace("_", " "))}</option>'
                        for k in kinds)
    tiles = "".join(_tile(card, several_packs) for card in cards)
    errors = sum(c.errors for c in cards)
    warnings = sum(c.warnings for c in cards)
    panel = ""
    if pack_findings:
        panel = ('<section class="pack-findings" aria-labelledby="pf"><h2 id="pf">Pack '
                 f'findings <span class="n">{len(pack_findings)}</span></h2><ul class="findings">'
                 + "".join(finding_item(f) for f in pack_findings) + "</ul></section>")
    empty = '<p class="empty">No card could be read: fix the findings above.</p>' \
        if not cards else ""
    body = (
        f'{_nav(title, locales, source, "cards")}'
        '<header class="bar"><div class="heading">'
        f'<h1>{e(title)}</h1><p class="stats"><span>{_plural(len(cards), "card")}</span>'
        f'<span class="count {"error" if errors else "ok"}">{_plural(errors, "error")}</span>'
        f'<span class="count {"warning" if warnings else "ok"}">'
        f'{_plural(warnings, "warning")}</span></p></div>'
        '<form class="filters" role="search" aria-label="Filter the cards">'
        '<label><span>Search</span><input type="search" id="q" placeholder="name, id or kind" '
        'autocomplete="off" spellcheck="false" aria-keyshortcuts="/"></label>'
        f'<label><span>Kind</span><select id="kind"><option value="">all kinds</option>{options}'
        '</select></label><label class="check"><input type="checkbox" id="only-findings"> '
        'only cards with findings</label></form>'
        '<div class="actions"><label><span class="sr">Kind of the new card</span>'
        f'<select id="new-kind">{new_kinds}</select></label>'
        '<button type="button" data-action="new" aria-keyshortcuts="n">New card</button></div>'
        '<p id="shown" class="shown" aria-live="polite"></p></header>'
        f'<main id="main" tabindex="-1">{panel}{empty}<ul class="grid" role="list">{tiles}</ul>'
        '</main>' + _new_dialog() + _keys_dialog([
            ("/", "search"), ("← → ↑ ↓", "move between cards"), ("Enter", "open the card"),
            ("n", "a new card of the chosen kind"), ("?", "this list")]))
    return page(f"{title}: studio", body, token, "studio.js", "list")


def _tile(card: ListedCard, several_packs: bool) -> str:
    picture = ""
    if card.front is not None:
        picture = (f'<img src="/pictures/{e(card.front.picture)}" alt="" loading="lazy" '
                   f'width="{card.front.width_px}" height="{card.front.height_px}">')
    badges = []
    if card.errors:
        badges.append(f'<span class="count error">{_plural(card.errors, "error")}</span>')
    if card.warnings:
        badges.append(f'<span class="count warning">{_plural(card.warnings, "warning")}</span>')
    pack = f'<span class="pack">{e(card.pack)}</span>' if several_packs else ""
    search = " ".join((card.id, card.name, card.kind)).lower()
    return (f'<li class="tile{" has-findings" if card.errors or card.warnings else ""}" '
            f'data-card="{e(card.id)}" data-kind="{e(card.kind)}" data-search="{e(search)}">'
            f'<a href="{e(card_url(card.id))}"><span class="thumb">{picture}</span>'
            f'<span class="name">{e(card.name)}</span>'
            f'<span class="meta"><code>{e(card.id)}</code> · {e(card.kind.replace("_", " "))}'
            f'{pack}</span><span class="where">{e(card.where)}</span>'
            f'<span class="badges">{"".join(badges)}</span></a></li>')


def _new_dialog() -> str:
    return ('<dialog id="new-card" aria-labelledby="new-title"><form method="dialog" '
            'id="new-form"><h2 id="new-title">New card</h2>'
            '<label>Card id <input name="new-id" id="new-id" required '
            'pattern="[a-z0-9][a-z0-9\\-]*" autocomplete="off" spellcheck="false"></label>'
            '<p class="help">Lowercase letters, digits and hyphens; translations are keyed by '
            'the id.</p><p class="dialog-error" role="alert"></p>'
            '<div class="buttons"><button value="cancel" formnovalidate>Cancel</button>'
            '<button value="ok" class="primary" id="new-ok">Add</button></div></form></dialog>')


# --- a card's form ----------------------------------------------------------------------------

def _control(spec: FieldSpec, value: object, present: bool, images: Sequence[str],
             control_id: str, described: str, name_attr: str, art_base: str = "") -> str:
    widget = spec.widget
    aria = f' aria-describedby="{e(described)}"' if described else ""
    name_attr += f' data-widget="{e(widget)}"'
    required = " required" if spec.required and widget not in ("checkbox", "fixed") else ""
    if widget == "fixed":
        shown = value if present else spec.const
        return (f'<input id="{e(control_id)}"{name_attr} type="text" readonly '
                f'value="{e("" if shown is None else shown)}" data-value="{_json(shown)}"{aria}>')
    if widget in ("text", "scalar", "yaml"):
        shown = "" if not present else (value if widget != "yaml" else _flow(value))
        limits = ""
        if spec.max_length is not None:
            limits += f' maxlength="{spec.max_length}"'
        if spec.pattern is not None and widget == "text":
            limits += f' data-pattern="{e(spec.pattern)}"'
        listed = ""
        if spec.examples:
            listed = f' list="{e(control_id)}-examples"'
        options = "".join(f'<option value="{e(x)}">' for x in spec.examples)
        datalist = f'<datalist id="{e(control_id)}-examples">{options}</datalist>' \
            if spec.examples else ""
        if widget == "scalar" and present and isinstance(value, str):
            limits += ' data-text'  # a text stays a text, digits or not
        return (f'<input id="{e(control_id)}"{name_attr} type="text" value="{e(shown)}" '
                f'spellcheck="false" autocomplete="off"{limits}{listed}{required}{aria}>'
                f'{datalist}')
    if widget == "textarea":
        rows = max(2, min(8, len(str(value or "")) // 48 + 1))
        return (f'<textarea id="{e(control_id)}"{name_attr} rows="{rows}"{required}{aria}>'
                f'{e(value if present else "")}</textarea>')
    if widget == "number":
        bounds = "".join(f' {k}="{v:g}"' for k, v in (("min", spec.minimum),
                                                       ("max", spec.maximum))
                         if v is not None)
        step = "1" if spec.integer else "any"
        return (f'<input id="{e(control_id)}"{name_attr} type="number" inputmode="numeric" '
                f'step="{step}"{bounds} value="{e(value if present else "")}"'
                f'{required}{aria}>')
    if widget == "checkbox":
        checked = " checked" if present and value is True else ""
        absent = ' data-absent-unchecked' if not present else ""
        return (f'<input id="{e(control_id)}"{name_attr} type="checkbox"{checked}{absent}'
                f'{aria}>')
    if widget in ("choice", "image"):
        choices = list(spec.options) if widget == "choice" else list(images)
        if present and not any(_same(value, c) for c in choices):
            choices.append(value)  # the file's own value stays choosable, even if wrong
        blank = '<option value="" data-value="null">(none)</option>' \
            if not spec.required or not present else ""
        options = "".join(
            f'<option value="{i}" data-value="{_json(c)}"'
            f'{" selected" if present and _same(value, c) else ""}>{e(_shown(c))}</option>'
            for i, c in enumerate(choices))
        art = f' data-art-base="{e(art_base)}"' if widget == "image" else ""
        select = (f'<select id="{e(control_id)}"{name_attr}{art}{required}{aria}>{blank}'
                  f'{options}</select>')
        if widget == "image":
            src = art_base + quote(str(value)) if present and value else ""
            return (f'<span class="image-choice">{select}<img class="art" alt="" '
                    f'src="{e(src)}"{"" if src else " hidden"}></span>')
        return select
    raise ValueError(widget)


def _same(one: object, other: object) -> bool:
    return type(one) is type(other) and one == other


def _shown(value: object) -> str:
    return json.dumps(value) if isinstance(value, bool) or value is None else str(value)


def _flow(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    return _shown(value)


def _list_control(spec: FieldSpec, value: object, present: bool, images: Sequence[str],
                  control_id: str, art_base: str) -> str:
    assert spec.item is not None
    items = value if present and isinstance(value, list) else []
    named = f' data-item aria-label="{e(spec.label)}: an entry"'
    rows = "".join(_list_row(spec.item, item, True, images, f"{control_id}-{i}", art_base,
                             named) for i, item in enumerate(items))
    template = _list_row(spec.item, None, False, images, f"{control_id}-new", art_base, named)
    limits = "".join(f' data-{k}="{v}"' for k, v in (("min", spec.min_items),
                                                      ("max", spec.max_items))
                     if v is not None)
    return (f'<fieldset id="{e(control_id)}" name="{e(spec.name)}" class="list" '
            f'data-widget="list" data-item-widget="{e(spec.item.widget)}"{limits}'
            f'{" data-unique" if spec.unique else ""}'
            f'{" data-present" if present else ""}>'
            f'<legend>{e(spec.label)}{" *" if spec.required else ""}</legend>'
            f'<ol class="rows">{rows}</ol><template>{template}</template>'
            '<button type="button" class="add" data-list-action="add">Add</button>'
            '</fieldset>')


def _list_row(item: FieldSpec, value: object, present: bool, images: Sequence[str],
              control_id: str, art_base: str, named: str) -> str:
    control = _control(item, value, present, images, control_id, "", named, art_base)
    return (f'<li class="row">{control}<span class="row-buttons">'
            '<button type="button" data-list-action="up" aria-label="Move up">↑</button>'
            '<button type="button" data-list-action="down" aria-label="Move down">↓</button>'
            '<button type="button" data-list-action="remove" aria-label="Remove">×</button>'
            '</span></li>')


def _group_control(spec: FieldSpec, value: object, present: bool, images: Sequence[str],
                   control_id: str, art_base: str) -> str:
    values = value if present and isinstance(value, dict) else {}
    members = "".join(
        f'<label class="member"><span>{e(m.label)}</span>'
        + _control(m, values.get(m.name), m.name in values, images, f"{control_id}-{m.name}",
                   "", f' data-key="{e(m.name)}"', art_base) + "</label>"
        for m in spec.fields)
    return (f'<fieldset id="{e(control_id)}" name="{e(spec.name)}" class="group" '
            f'data-widget="group"{" data-present" if present else ""}>'
            f'<legend>{e(spec.label)}</legend>{members}</fieldset>')


def form_field(spec: FieldSpec, data: Mapping[str, Any], images: Sequence[str],
               art_base: str = "") -> str:
    present = spec.name in data
    value = data.get(spec.name)
    control_id = f"f-{spec.name}"
    help_id = f"d-{spec.name}"
    messages_id = f"m-{spec.name}"
    described = f"{help_id} {messages_id}" if spec.description else messages_id
    if spec.widget == "list":
        control = _list_control(spec, value, present, images, control_id, art_base)
        label = ""
    elif spec.widget == "group":
        control = _group_control(spec, value, present, images, control_id, art_base)
        label = ""
    else:
        control = _control(spec, value, present, images, control_id, described,
                           f' name="{e(spec.name)}"', art_base)
        label = (f'<label for="{e(control_id)}">{e(spec.label)}'
                 f'{"<span class=req> *</span>" if spec.required else ""}'
                 f'{"<span class=tr title=translatable>文A</span>" if spec.translatable else ""}'
                 '</label>')
    clear = ""
    if not spec.required and spec.widget not in ("fixed", "checkbox"):
        clear = (f'<button type="button" class="clear" data-clear="{e(spec.name)}" '
                 f'aria-label="Leave {e(spec.label)} out"{"" if present else " hidden"}>'
                 'leave out</button>')
    description = f'<p class="help" id="{e(help_id)}">{e(spec.description)}</p>' \
        if spec.description else ""
    return (f'<div class="field" data-field="{e(spec.name)}" data-widget="{e(spec.widget)}"'
            f'{" data-required" if spec.required else ""}>{label}{control}{clear}{description}'
            f'<ul class="field-findings" id="{e(messages_id)}" aria-live="polite"></ul></div>')


def faces_html(faces: Sequence[Face], name: str) -> str:
    if not faces:
        return ('<p class="undrawn">Not drawn: this card fails its checks. Fix the errors '
                'below and it appears here.</p>')
    return "".join(
        f'<figure class="face" data-side="{e(f.side)}"><div class="pic">'
        f'<img data-face="{e(f.side)}" src="/pictures/{e(f.picture)}" '
        f'width="{f.width_px}" height="{f.height_px}" alt="{e(name)}, {e(f.side)}">'
        '</div>'
        f'<figcaption>{e(f.side)}</figcaption></figure>' for f in faces)


class CardView(Struct, frozen=True):
    id: str
    kind: str
    name: str
    where: str
    version: str
    data: Mapping[str, Any]
    form: FormSpec
    images: Sequence[str]
    art_base: str
    faces: Sequence[Face]
    findings: Sequence[tuple[Finding, str | None]]
    previous: str | None
    following: str | None
    locales: Sequence[str]
    locale: str
    file_format: str


def card_page(title: str, view: CardView, nav_locales: Sequence[str], source: str | None,
              token: str) -> str:
    fields = "".join(form_field(spec, view.data, view.images, view.art_base)
                     for spec in view.form.fields)
    findings = "".join(finding_item(f, field) for f, field in view.findings)
    locale_select = ""
    if len(view.locales) > 1:
        options = "".join(f'<option{" selected" if loc == view.locale else ""}>{e(loc)}'
                          '</option>' for loc in view.locales)
        locale_select = (f'<label class="locale"><span>Language</span><select id="locale">'
                         f'{options}</select></label>')
    step = []
    if view.previous is not None:
        step.append(f'<a href="{e(card_url(view.previous))}" rel="prev" '
                    'aria-keyshortcuts="Alt+PageUp">← previous</a>')
    if view.following is not None:
        step.append(f'<a href="{e(card_url(view.following))}" rel="next" '
                    'aria-keyshortcuts="Alt+PageDown">next →</a>')
    body = (
        f'{_nav(title, nav_locales, source, "card")}'
        '<header class="bar card-bar"><div class="heading">'
        f'<p class="crumbs"><a href="/">Cards</a> / {e(view.kind.replace("_", " "))}</p>'
        f'<h1 id="card-title">{e(view.name)}</h1>'
        f'<p class="stats"><code>{e(view.id)}</code><span class="where">{e(view.where)}</span>'
        f'<span class="step">{"".join(step)}</span></p></div>'
        '<div class="actions">'
        '<p id="save-state" class="save-state" role="status" data-state="clean">No changes</p>'
        '<button type="button" data-action="undo" aria-keyshortcuts="Control+Z" disabled>'
        'Undo</button>'
        '<button type="button" data-action="duplicate">Duplicate</button>'
        '<button type="button" data-action="new">New</button>'
        '<button type="button" data-action="save" class="primary" aria-keyshortcuts="Control+S"'
        ' disabled>Save</button></div></header>'
        f'<main id="main" class="editor" tabindex="-1">'
        f'<form id="card-form" class="card-form" novalidate autocomplete="off" '
        f'data-card="{e(view.id)}" data-kind="{e(view.kind)}" data-version="{e(view.version)}" '
        f'data-format="{e(view.file_format)}">'
        f'{fields}</form>'
        '<aside class="preview" aria-label="The card as it prints">'
        f'<div class="preview-head">{locale_select}<span id="busy" class="busy" hidden>'
        'drawing…</span></div>'
        f'<div class="faces" id="faces">{faces_html(view.faces, view.name)}</div>'
        '<section class="card-findings" aria-labelledby="fh"><h2 id="fh">Findings '
        f'<span class="n" id="finding-count">{len(view.findings)}</span></h2>'
        f'<ul class="findings" id="findings">{findings}</ul>'
        '<p class="none" id="no-findings"'
        f'{" hidden" if view.findings else ""}>No findings: this card passes every check.</p>'
        '</section></aside></main>'
        + _new_dialog() + _conflict_dialog() + _keys_dialog([
            ("Ctrl+S", "save"), ("Ctrl+Z", "undo the last change (outside a text box)"),
            ("Alt+PageUp / Alt+PageDown", "previous / next card"),
            ("Esc", "back to the list"), ("?", "this list")]))
    return page(f"{view.name}: studio", body, token, "studio.js", "card",
                {"locale": view.locale})


def _conflict_dialog() -> str:
    return ('<dialog id="conflict" aria-labelledby="conflict-title"><form method="dialog">'
            '<h2 id="conflict-title">The file changed on disk</h2>'
            '<p class="conflict-text"></p><table class="conflicts"><thead><tr><th>field</th>'
            '<th>on disk now</th><th>yours</th></tr></thead><tbody></tbody></table>'
            '<div class="buttons"><button value="reload">Reload from disk (drop my changes)'
            '</button><button value="mine" class="primary">Keep my values</button></div>'
            '</form></dialog>')


# --- translations ------------------------------------------------------------------------------

class TranslateView(Struct, frozen=True):
    locale: str
    source_locale: str
    catalogs: Catalogs
    fits: Mapping[str, Sequence[tuple[Slot, float]]]  # entry key -> faces and mm over
    checks: Mapping[str, Sequence[Finding]]
    hints: Mapping[str, Sequence[Mapping[str, Any]]]
    names: Mapping[str, str]  # card id -> its name, to say which card a face is
    several_packs: bool


def fit_item(slot: Slot, over: float, names: Mapping[str, str]) -> str:
    verdict = "over" if over > 0.05 else "ok"
    card = names.get(slot.card, slot.card)
    what = (f"{slot.template} {slot.side} ({_plural(slot.cards, 'card')})"
            if slot.template else f"{card}, {slot.side}")
    tail = f"+{over:.1f} mm" if verdict == "over" else "fits"
    return (f'<li data-fit="{verdict}" data-face="{e(slot.key)}" data-over="{over:.2f}">'
            f'<a href="{e(card_url(slot.card))}">{e(what)}</a> <span>{e(tail)}</span></li>')


def check_item(finding: Finding) -> str:
    return (f'<li class="finding {e(finding.severity)}" data-code="{e(finding.code)}" '
            f'data-severity="{e(finding.severity)}"><code>{e(finding.code)}</code> '
            f'<span class="msg">{e(finding.message)}</span></li>')


def _entry(entry: Entry, view: TranslateView, number: int) -> str:
    fits = "".join(fit_item(slot, over, view.names) for slot, over in view.fits.get(
        entry.key, ()))
    checks = "".join(check_item(f) for f in view.checks.get(entry.key, ()))
    hints = "".join(
        f'<li data-term="{e(h["term"])}" class="{"missed" if h.get("missed") else "met"}">'
        f'<b>{e(h["term"])}</b> → {e(", ".join(h["forms"]))}'
        f'{" <span class=note>" + e(h["note"]) + "</span>" if h.get("note") else ""}</li>'
        for h in view.hints.get(entry.key, ()))
    state = "fuzzy" if entry.fuzzy else ("done" if entry.translation else "missing")
    over = any(o > 0.05 for _, o in view.fits.get(entry.key, ()))
    what = "label" if entry.is_label else entry.comment
    card_link = (f' · <a href="{e(card_url(entry.card))}">{e(entry.card)}</a>'
                 if entry.card else "")
    previous = (f'<p class="previous" title="the source before it changed"><span>was:</span> '
                f'{e(entry.previous)}</p>' if entry.fuzzy and entry.previous else "")
    pack = f' <span class="pack">{e(entry.pack)}</span>' if view.several_packs else ""
    search = " ".join((entry.context, entry.source, entry.translation)).lower()
    area = f"t-{number}"
    return (
        f'<article class="entry" data-key="{e(entry.key)}" data-pack="{e(entry.pack)}" '
        f'data-state="{state}" data-search="{e(search)}"'
        f'{" data-problem" if over or view.checks.get(entry.key) else ""}>'
        f'<div class="src"><p class="ctx"><code>{e(entry.context)}</code> {e(what)}'
        f'{card_link}{pack} <span class="where">{e(entry.where)}</span></p>'
        f'<p class="source" lang="{e(view.source_locale)}">{e(entry.source)}</p>{previous}'
        f'{"<ul class=glossary aria-label=Glossary>" + hints + "</ul>" if hints else ""}'
        '</div>'
        f'<div class="tr"><label class="sr" for="{area}">Translation of {e(entry.context)}'
        f'</label><textarea id="{area}" data-msgctxt="{e(entry.context)}" '
        f'data-msgid="{e(entry.source)}" lang="{e(view.locale)}" '
        f'rows="{max(2, min(8, len(entry.source) // 52 + 1))}" spellcheck="true">'
        f'{e(entry.translation)}</textarea>'
        '<label class="fuzzy"><input type="checkbox" data-fuzzy'
        f'{" checked" if entry.fuzzy else ""}> fuzzy (needs review)</label></div>'
        f'<div class="verdicts"><ul class="fits" aria-label="Where it prints">{fits}</ul>'
        f'<ul class="checks" aria-label="Checks">{checks}</ul></div></article>')


def translate_page(title: str, view: TranslateView, nav_locales: Sequence[str],
                   token: str) -> str:
    counts = view.catalogs.counts()
    problems = "".join(
        f'<section class="pack-findings"><h2>{e(pack)}: the catalog cannot be edited</h2>'
        '<ul class="findings">' + "".join(finding_item(f) for f in found) + "</ul></section>"
        for pack, found in view.catalogs.problems.items())
    entries = "".join(_entry(entry, view, i) for i, entry in enumerate(view.catalogs.entries))
    body = (
        f'{_nav(title, nav_locales, view.source_locale, "translate:" + view.locale)}'
        '<header class="bar"><div class="heading">'
        f'<h1>{e(title)} <small>{e(view.source_locale)} → {e(view.locale)}</small></h1>'
        f'<p class="stats" id="progress"><span>{counts["total"]} texts</span>'
        f'<span class="count ok" data-count="translated">{counts["translated"]} translated'
        f'</span><span class="count warning" data-count="fuzzy">{counts["fuzzy"]} fuzzy</span>'
        f'<span class="count error" data-count="missing">{counts["missing"]} missing</span>'
        '</p></div>'
        '<form class="filters" role="search" aria-label="Filter the texts">'
        '<label><span>Search</span><input type="search" id="q" placeholder="text or context" '
        'autocomplete="off" aria-keyshortcuts="/"></label>'
        '<label><span>Show</span><select id="show"><option value="">all texts</option>'
        '<option value="missing">untranslated</option><option value="fuzzy">fuzzy</option>'
        '<option value="problem">does not fit or fails a check</option></select></label>'
        '</form><div class="actions">'
        '<p id="save-state" class="save-state" role="status" data-state="clean">No changes</p>'
        '<button type="button" data-action="undo" disabled>Undo</button>'
        '<button type="button" data-action="save" class="primary" disabled '
        'aria-keyshortcuts="Control+S">Save</button></div>'
        '<p id="shown" class="shown" aria-live="polite"></p></header>'
        f'<main id="main" class="translations" tabindex="-1" data-locale="{e(view.locale)}" '
        f'data-versions="{_json(view.catalogs.versions)}">{problems}{entries}</main>'
        + _keys_dialog([("Ctrl+Enter", "next text"), ("Ctrl+Shift+Enter", "previous text"),
                        ("Ctrl+U", "mark fuzzy / reviewed"), ("Ctrl+S", "save"),
                        ("Ctrl+Z", "undo the last change (outside a text box)"),
                        ("/", "search"), ("?", "this list")]))
    return page(f"{view.locale}: {title}", body, token, "translate.js", "translate",
                {"locale": view.locale})


def message_page(title: str, message: str, token: str, status: str = "Not found") -> str:
    body = (f'<main id="main" class="message"><h1>{e(status)}</h1><p>{e(message)}</p>'
            '<p><a href="/">Back to the cards</a></p></main>')
    return page(f"{title}: studio", body, token, "studio.js", "message")
