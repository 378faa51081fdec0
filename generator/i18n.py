"""``pnp i18n extract|update|status``: gettext catalogs for card texts and template labels.

Messages are keyed as DESIGN.md fixes: a card field's msgctxt is ``<card id>.<field>``, a
template label's msgctxt is ``label``. Catalogs are ordinary PO files (polib reads and writes
them), so Poedit, Weblate and Crowdin work on them directly.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import polib
import yaml

from generator.layout.template import data_template_folder, template_folder
from generator.localize import LABEL_CONTEXT, field_context, source_labels
from generator.model import Pack

POT_NAME = "messages.pot"


@dataclass(frozen=True, slots=True)
class Message:
    context: str
    source: str
    where: str  # "file:line" of the text, or the template that prints it
    comment: str = ""


@cache
def template_labels(game: str) -> tuple[tuple[str, str], ...]:
    """(label text, template name) for every ``label:`` element of the game's templates.

    Cached: every ``validate --locale`` and every proof rebuild asks for it; ``pnp watch``
    empties the cache when a template changes."""
    found: list[tuple[str, str]] = []
    for path in sorted(template_folder(game).glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for element in data.get("elements", []) if isinstance(data, dict) else []:
            if isinstance(element, dict) and "label" in element:
                found.append((str(element["label"]), path.name))
    return tuple(found)


def _shown(game: str) -> str:
    """The template folder as PO references name it: ``templates/<game>`` for a built-in game,
    ``templates`` (relative to the pack) for a game defined in data."""
    return "templates" if data_template_folder(game) is not None else f"templates/{game}"


def label_messages(game: str) -> list[Message]:
    messages: dict[str, Message] = {}
    labels_file = f"{_shown(game)}/labels.yaml"
    for key, text in source_labels(game).items():
        note = f"label key {key}" if key != text else ""
        messages.setdefault(text, Message(LABEL_CONTEXT, text, labels_file, note))
    labels = source_labels(game)
    for key, template in template_labels(game):
        text = labels.get(key, key)  # a template may name a key of labels.yaml or the text itself
        messages.setdefault(text, Message(LABEL_CONTEXT, text, f"{_shown(game)}/{template}"))
    return list(messages.values())


def card_messages(pack: Pack) -> list[Message]:
    messages: list[Message] = []
    for card in pack.cards:
        for attribute, text in card.text_fields().items():
            key = card.yaml_key(attribute)
            location = card.source.of(key)
            messages.append(Message(field_context(card.id, key), text,
                                    f"{Path(location.file).name}:{location.line}",
                                    f"{card.kind} {key}"))
    return messages


def pack_messages(pack: Pack, include_labels: bool) -> list[Message]:
    messages = card_messages(pack)
    if include_labels:
        messages += label_messages(pack.manifest.game)
    return messages


def _entry(message: Message) -> polib.POEntry:
    file, _, line = message.where.partition(":")
    return polib.POEntry(msgctxt=message.context, msgid=message.source, msgstr="",
                         occurrences=[(file, line)] if line else [(file, "")],
                         comment=message.comment or None)


def _new_catalog(pack: Pack, language: str | None) -> polib.POFile:
    catalog = polib.POFile(wrapwidth=100)
    catalog.metadata = {
        "Project-Id-Version": f"{pack.manifest.pack} {pack.manifest.version}".strip(),
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Source-Language": pack.manifest.source_locale,
    }
    if language:
        catalog.metadata["Language"] = language
    return catalog


def extract(pack: Pack, messages: Iterable[Message]) -> Path:
    """Write ``locales/messages.pot`` with every message of the pack."""
    catalog = _new_catalog(pack, None)
    for message in messages:
        catalog.append(_entry(message))
    folder = pack.root / "locales"
    folder.mkdir(exist_ok=True)
    target = folder / POT_NAME
    catalog.save(str(target))
    return target


def update(pack: Pack, messages: list[Message]) -> list[Path]:
    """Bring every locale's PO in line with the messages: add new ones, keep translations,
    mark vanished ones obsolete, flag changed sources fuzzy (via polib's merge)."""
    reference = _new_catalog(pack, None)
    for message in messages:
        reference.append(_entry(message))
    written: list[Path] = []
    folder = pack.root / "locales"
    folder.mkdir(exist_ok=True)
    for locale in pack.manifest.locales:
        if locale == pack.manifest.source_locale:
            continue
        path = folder / f"{locale}.po"
        catalog = polib.pofile(str(path), wrapwidth=100) if path.is_file() \
            else _new_catalog(pack, locale)
        catalog.merge(reference)
        catalog.metadata["Language"] = locale
        catalog.save(str(path))
        written.append(path)
    return written


@dataclass(frozen=True, slots=True)
class LocaleStatus:
    locale: str
    total: int
    translated: int
    missing: int
    fuzzy: int
    obsolete: int

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0


def status(pack: Pack, messages: list[Message]) -> list[LocaleStatus]:
    """Per locale: how many of the current messages are translated, missing or fuzzy, and
    how many catalog entries no longer match any message (obsolete)."""
    wanted = {(m.context, m.source) for m in messages}
    result: list[LocaleStatus] = []
    for locale in pack.manifest.locales:
        if locale == pack.manifest.source_locale:
            continue
        path = pack.root / "locales" / f"{locale}.po"
        entries = polib.pofile(str(path)) if path.is_file() else []
        translated = fuzzy = obsolete = 0
        seen: set[tuple[str, str]] = set()
        for entry in entries:
            key = (entry.msgctxt or "", entry.msgid)
            if entry.obsolete or key not in wanted:
                obsolete += 1
                continue
            seen.add(key)
            if "fuzzy" in entry.flags:
                fuzzy += 1
            elif entry.msgstr:
                translated += 1
        missing = len(wanted) - translated - fuzzy
        result.append(LocaleStatus(locale, len(wanted), translated, missing, fuzzy, obsolete))
    return result
