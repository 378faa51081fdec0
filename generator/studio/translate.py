"""The translator's view: every translatable text of the pack beside its source, where it
prints and whether it fits, checked as ``pnp validate --locale`` checks it, and saved into the
PO file exactly as ``pnp i18n update`` writes it.

Where a text prints is found once per reading of the pack: each card's faces (for a template
label, one card of each template) are laid out with that message replaced by a text far too
long for any box and by a short one; the text boxes that overflow with the first and not with
the second are the ones printing it. A keystroke then lays out only those faces with the typed
text, and reads the overflow of those boxes: text fitting only, no PDF is drawn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polib
from msgspec import Struct, field, structs

from generator.core.errors import FindingsError
from generator.core.findings import Finding
from generator.core.location import Location, display_path
from generator.i18n.catalogs import (
    catalog_path,
    po_date,
    read_catalog,
    translated_messages,
    updated_catalogs,
)
from generator.i18n.localize import LABEL_CONTEXT, Localizer
from generator.i18n.pofiles import write_pack_catalog
from generator.i18n.poformat import format_catalog
from generator.layout.faces import lay_out_cards
from generator.model.cards import Card, CardSet, Pack
from generator.model.template import TemplateError
from generator.pipeline.localecheck import (
    MessageChecks,
    Terms,
    entry_findings,
    glyph_findings,
    pack_glossary,
    read_glossary,
)
from generator.studio.session import Loaded, Session, file_version

#: a text no box holds: what prints a message overflows with it
_TOO_LONG = " ".join(["Wwwwwwwwww"] * 120)
_SHORT = "W"
#: rich-text tags (DESIGN: the card-design vocabulary); a translation keeps the same ones
_TAG = re.compile(r"</?(?:b|i|u|font)\b[^>]*>", re.IGNORECASE)


class Slot(Struct, frozen=True):
    """A face a message prints on: the card laid out for it, its side, and the names under
    which the face's boxes report that text (a template field, a widget's label)."""

    card: str
    side: str
    names: frozenset[str]
    template: str = ""
    cards: int = 1  # a label: how many cards show this template

    @property
    def key(self) -> str:
        return f"{self.card}:{self.side}"


class Entry(Struct):
    """One message of one pack's catalog."""

    pack: str
    context: str
    source: str
    translation: str = ""
    fuzzy: bool = False
    previous: str | None = None
    where: str = ""
    comment: str = ""
    card: str | None = None
    slots: list[Slot] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.pack}\x04{self.context}\x04{self.source}"

    @property
    def is_label(self) -> bool:
        return self.context == LABEL_CONTEXT


class Catalogs(Struct):
    """The translator's view of one locale."""

    locale: str
    entries: list[Entry]
    versions: dict[str, str]  # pack -> PO file version ("" when there is none yet)
    problems: dict[str, list[Finding]]  # pack -> why its catalog cannot be edited

    def counts(self) -> dict[str, int]:
        done = sum(1 for e in self.entries if e.translation and not e.fuzzy)
        fuzzy = sum(1 for e in self.entries if e.fuzzy)
        return {"total": len(self.entries), "translated": done, "fuzzy": fuzzy,
                "missing": len(self.entries) - done - fuzzy}


def _card_of(context: str, pack: Pack) -> str | None:
    card_id = context.rpartition(".")[0]
    return card_id if any(c.id == card_id for c in pack.cards) else None


def read_catalogs(loaded: Loaded, locale: str) -> Catalogs:
    """Every message of every pack of the set in ``locale``, with its catalog's translation."""
    assert loaded.card_set is not None
    entries: list[Entry] = []
    versions: dict[str, str] = {}
    problems: dict[str, list[Finding]] = {}
    for pack in loaded.card_set.packs:
        name = pack.manifest.pack
        path = catalog_path(pack, locale)
        known: dict[tuple[str, str], polib.POEntry] = {}
        versions[name] = ""
        if path.exists():
            try:
                catalog = read_catalog(path)
            except FindingsError as exc:
                problems[name] = list(exc.findings)
                catalog = []
            else:
                versions[name] = file_version(path.read_bytes())
            known = {(e.msgctxt or "", e.msgid): e for e in catalog if not e.obsolete}
        for message in translated_messages(pack):
            entry = known.get((message.context, message.source))
            entries.append(Entry(
                name, message.context, message.source,
                translation=entry.msgstr if entry is not None else "",
                fuzzy=entry is not None and "fuzzy" in entry.flags,
                previous=entry.previous_msgid if entry is not None else None,
                where=message.where, comment=message.comment,
                card=None if message.context == LABEL_CONTEXT else _card_of(message.context,
                                                                            pack)))
    return Catalogs(locale, entries, versions, problems)


# --- where a message prints, and whether it fits ---------------------------------------------

class _Recording(Localizer):
    """A localizer that notes the source text of every label a face asks for."""

    asked: set[str] = field(default_factory=set)

    def label(self, key: str) -> str:
        labels = self.labels if self.labels is not None else {}
        self.asked.add(labels.get(key, key))
        return super().label(key)


class Fitting:
    """Laying out a message's faces with a given text, for one locale of one reading."""

    def __init__(self, session: Session, loaded: Loaded, locale: str) -> None:
        assert loaded.card_set is not None and loaded.game is not None
        self.session, self.loaded, self.locale = session, loaded, locale
        self.card_set: CardSet = loaded.card_set
        self.game = loaded.game
        self.cards: dict[str, Card] = {card.id: card for card in self.card_set.cards}
        self._slots: dict[tuple[str, str], list[Slot]] = {}
        self._users: dict[str, list[tuple[Card, int]]] | None = None

    def _localizer(self, context: str, source: str, text: str) -> Localizer:
        base = self.session.localizer(self.locale)
        catalog = dict(base.catalog)
        catalog[(context, source)] = text
        return structs.replace(base, catalog=catalog)

    def _problems(self, card: Card, localizer: Localizer) -> dict[str, dict[str, float]]:
        """side -> {box name: mm over} of the card's faces laid out with ``localizer``."""
        try:
            faces = lay_out_cards(self.card_set, self.game, localizer, 0.0, cards=[card],
                                  allow_overflow=True)
        except TemplateError:
            return {}
        found: dict[str, dict[str, float]] = {}
        for side, table in (("front", faces.fronts), ("back", faces.backs)):
            key = table.get(card.id)
            layout = faces.layouts.get(key) if key is not None else None
            over: dict[str, float] = {}
            for problem in layout.problems if layout is not None else ():
                if problem.kind == "overflow":
                    over[problem.field] = max(over.get(problem.field, 0.0), problem.overflow_mm)
            found[side] = over
        return found

    def _probe(self, card: Card, context: str, source: str) -> dict[str, frozenset[str]]:
        """side -> the box names that print this message on the card's faces."""
        long = self._problems(card, self._localizer(context, source, _TOO_LONG))
        short = self._problems(card, self._localizer(context, source, _SHORT))
        return {side: frozenset(n for n in names if n not in short.get(side, {}))
                for side, names in long.items()
                if any(n not in short.get(side, {}) for n in names)}

    def _label_users(self) -> dict[str, list[tuple[Card, int]]]:
        """label text -> a card for each pair of templates among the cards whose faces ask
        for that label (laying out every card once, noting the labels it asks for), with how
        many cards that pair stands for."""
        if self._users is not None:
            return self._users
        asked: dict[str, dict[tuple[str, str], list[Card]]] = {}
        faces = self.game.faces
        base = self.session.localizer(self.locale)
        for card in self.card_set.cards:
            recording = _Recording(base.game, base.locale, base.source_locale, base.catalog,
                                   labels=base.labels, pack_sources=base.pack_sources)
            try:
                lay_out_cards(self.card_set, self.game, recording, 0.0, cards=[card],
                              allow_overflow=True)
            except TemplateError:
                continue
            pair = (faces.front_template(card), faces.back_template(card)) if faces else ("", "")
            for text in recording.asked:
                asked.setdefault(text, {}).setdefault(pair, []).append(card)
        self._users = {text: [(cards[0], len(cards)) for cards in groups.values()]
                       for text, groups in asked.items()}
        return self._users

    def slots(self, entry: Entry) -> list[Slot]:
        key = (entry.context, entry.source)
        known = self._slots.get(key)
        if known is not None:
            return known
        slots: list[Slot] = []
        if entry.is_label:
            faces = self.game.faces
            for card, count in self._label_users().get(entry.source, ()):
                for side, names in self._probe(card, entry.context, entry.source).items():
                    choose = (faces.front_template if side == "front" else faces.back_template) \
                        if faces is not None else None
                    slots.append(Slot(card.id, side, names,
                                      choose(card) if choose is not None else "", count))
        elif entry.card is not None and entry.card in self.cards:
            card = self.cards[entry.card]
            slots = [Slot(card.id, side, names) for side, names in
                     self._probe(card, entry.context, entry.source).items()]
        self._slots[key] = slots
        return slots

    def fits(self, entry: Entry, text: str) -> list[tuple[Slot, float]]:
        """Each face the message prints on, with the millimetres ``text`` runs over (0: fits);
        an empty text is measured as the source that prints in its place."""
        slots = self.slots(entry)
        results: list[tuple[Slot, float]] = []
        localizer = self._localizer(entry.context, entry.source, text)
        by_card: dict[str, dict[str, dict[str, float]]] = {}
        for slot in slots:
            if slot.card not in by_card:
                by_card[slot.card] = self._problems(self.cards[slot.card], localizer)
            over = by_card[slot.card].get(slot.side, {})
            results.append((slot, max((over[n] for n in slot.names if n in over),
                                      default=0.0)))
        return results


# --- checks ---------------------------------------------------------------------------------

def glossary_for(loaded: Loaded, pack_name: str, locale: str) -> Terms:
    """The terms a translation of this pack keeps, as validate applies them (the base game's
    glossary too, for an expansion written in the base's language)."""
    assert loaded.card_set is not None
    pack = next(p for p in loaded.card_set.packs if p.manifest.pack == pack_name)
    return pack_glossary(pack, loaded.card_set.base, locale)


def hints(terms: Terms, source: str, notes: Mapping[str, str], translation: str = ""
          ) -> list[dict[str, Any]]:
    """The glossary's terms the source uses, with the forms a translation must use, and
    whether the translation (when there is one) uses none of them."""
    return [{"term": term.source, "forms": list(term.accepted),
             "note": notes.get(term.source.lower(), ""),
             "missed": bool(translation) and not term.rendered_in(translation)}
            for term in terms.used_in(source)]


def glossary_notes(loaded: Loaded, pack_name: str) -> dict[str, str]:
    assert loaded.card_set is not None
    pack = next(p for p in loaded.card_set.packs if p.manifest.pack == pack_name)
    notes = {}
    for entry in read_glossary(pack.root).entries:
        source = entry.get("source", entry.get("en"))
        if isinstance(source, str) and isinstance(entry.get("note"), str):
            notes[source.lower()] = str(entry["note"])
    return notes


def entry_checks(loaded: Loaded, entry: Entry, text: str, locale: str,
                 localizer: Localizer, checks: MessageChecks | None = None) -> list[Finding]:
    """What ``pnp validate --locale`` says of this translation, by the checks validate makes
    (generator.pipeline.localecheck): missing, icons and placeholders, rich-text tags,
    numbers and comparisons, other cards' names, glossary terms, and glyphs the fonts lack."""
    assert loaded.game is not None and loaded.card_set is not None
    what = "label" if entry.is_label else entry.comment or entry.context
    where = Location(entry.where)
    pack = next(p for p in loaded.card_set.packs if p.manifest.pack == entry.pack)
    found = entry_findings(loaded.card_set, localizer, entry.source, text or None, where,
                           entry.card, what, pack.manifest.source_locale,
                           glossary_for(loaded, entry.pack, locale), checks=checks)
    if text:
        found += glyph_findings(text, where, entry.card, locale, what, loaded.game.text_styles)
    return found


# --- saving ---------------------------------------------------------------------------------

class Edit(Struct, frozen=True):
    pack: str
    context: str
    source: str
    translation: str
    fuzzy: bool
    was_translation: str
    was_fuzzy: bool


def save_translations(session: Session, locale: str, edits: Sequence[Edit],
                      versions: Mapping[str, str], force: bool = False) -> dict[str, Any]:
    """Write the edited translations into each pack's ``locales/<locale>.po``: the catalog is
    merged with the pack's current messages exactly as ``pnp i18n update`` does, the edits are
    set on it, and it is written in gettext's own layout. A catalog changed on disk since the
    page loaded is written only when none of the edited messages changed there too."""
    with session.lock:
        loaded = session.current()
        assert loaded.card_set is not None
        packs = {p.manifest.pack: p for p in loaded.card_set.packs}
        by_pack: dict[str, list[Edit]] = {}
        for edit in edits:
            by_pack.setdefault(edit.pack, []).append(edit)
        prepared: dict[Path, polib.POFile] = {}
        conflicts: list[dict[str, Any]] = []
        notes: list[str] = []
        for name, pack_edits in by_pack.items():
            pack = packs.get(name)
            if pack is None:
                return {"status": "refused", "message": f"pack '{name}' is not loaded"}
            path = catalog_path(pack, locale)
            disk = file_version(path.read_bytes()) if path.exists() else ""
            try:
                catalogs = updated_catalogs(pack, translated_messages(pack), [locale])
            except FindingsError as exc:
                return {"status": "refused", "message": f"{display_path(path)} cannot be "
                        "read; fix it first", "findings": [
                            {"code": f.code, "message": f.message, "where": str(f.location)}
                            for f in exc.findings]}
            catalog = catalogs[path]
            index = {(e.msgctxt or "", e.msgid): e for e in catalog if not e.obsolete}
            for edit in pack_edits:
                entry = index.get((edit.context, edit.source))
                if entry is None:
                    notes.append(f"{edit.context}: its source text changed; not saved")
                    continue
                if disk != versions.get(name, "") and not force and (
                        entry.msgstr != edit.was_translation
                        or ("fuzzy" in entry.flags) != edit.was_fuzzy) and (
                        entry.msgstr != edit.translation
                        or ("fuzzy" in entry.flags) != edit.fuzzy):
                    conflicts.append({"pack": name, "msgctxt": edit.context,
                                      "msgid": edit.source, "disk": entry.msgstr,
                                      "mine": edit.translation})
                    continue
                _set(entry, edit)
            catalog.metadata["PO-Revision-Date"] = po_date()
            prepared[path] = catalog
        if conflicts:
            return {"status": "conflict", "conflicts": conflicts, "message": (
                "the catalog was changed on disk since this page was loaded, in the "
                "translations you edited")}
        written = []
        texts = {}
        for path, catalog in prepared.items():
            texts[path] = format_catalog(catalog)  # written as pnp i18n update writes it
            check = polib.pofile(texts[path])  # what polib (and pnp) reads back
            if len([e for e in check if not e.obsolete]) != len(
                    [e for e in catalog if not e.obsolete]):
                return {"status": "refused", "message": f"{display_path(path)}: the catalog "
                        "would not read back whole; nothing written"}
        for path, text in texts.items():
            write_pack_catalog(path, text.encode("utf-8"))
            written.append(display_path(path))
        session.reload()
        return {"status": "saved", "message": "saved " + ", ".join(written)
                + ("; " + "; ".join(notes) if notes else ""),
                "versions": _versions(session, locale)}


def _set(entry: polib.POEntry, edit: Edit) -> None:
    entry.msgstr = edit.translation
    if edit.fuzzy and "fuzzy" not in entry.flags:
        entry.flags.insert(0, "fuzzy")
    elif not edit.fuzzy and "fuzzy" in entry.flags:
        entry.flags.remove("fuzzy")
        # reviewed: the previous source no longer explains anything (as Poedit drops it)
        entry.previous_msgctxt = entry.previous_msgid = entry.previous_msgid_plural = None


def _versions(session: Session, locale: str) -> dict[str, str]:
    loaded = session.current()
    assert loaded.card_set is not None
    return {p.manifest.pack: (file_version(catalog_path(p, locale).read_bytes())
                              if catalog_path(p, locale).exists() else "")
            for p in loaded.card_set.packs}
