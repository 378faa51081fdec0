"""``pnp i18n extract|update|status``: gettext catalogs for card texts and template labels.

Messages are keyed as DESIGN.md fixes: a card field's msgctxt is ``<card id>.<field>``, a
template label's msgctxt is ``label``. Catalogs are ordinary PO files (polib reads and writes
them), so Poedit, Weblate and Crowdin work on them directly.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import polib
from msgspec import Struct

from generator.core.location import Location
from generator.i18n.localize import (
    DECK_CONTEXT,
    LABEL_CONTEXT,
    PACK_CONTEXT,
    field_context,
    source_labels,
)
from generator.i18n.pofiles import open_catalog_file, write_pack_catalog
from generator.load.packfiles import PackFolder, load_user_yaml
from generator.load.yamldoc import YamlDocument
from generator.model.cards import Pack
from generator.model.template import data_template_folder, enum_labels, template_folder

POT_NAME = "messages.pot"


class Message(Struct, frozen=True, gc=False):
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
    for name, doc in template_documents(game):
        data = doc.data
        elements = data.get("elements") if isinstance(data, dict) else None
        for element in elements if isinstance(elements, list) else []:
            if isinstance(element, dict) and "label" in element:
                found.append((str(element["label"]), name))
    return tuple(found)


def template_documents(game: str) -> list[tuple[str, YamlDocument]]:
    """(file name, located document) of each ``*.yaml`` of the game's template folder, read
    under the pack file policy (a data game's folder is part of its pack: no link out of it, no
    named pipe); a file that cannot be read gives nothing here, as validation reports it
    (generator.datagame.definition)."""
    folder = template_folder(game)
    pack = PackFolder(folder.parent) if data_template_folder(game) is not None else None
    documents = []
    for path in sorted(folder.glob("*.yaml")):
        if pack is not None:
            doc, _ = pack.load_yaml(pack.file_at(path), "template")
        else:
            doc, _ = load_user_yaml(path, "template", f"templates/{game}/{path.name}")
        if doc is not None:
            documents.append((path.name, doc))
    return documents


def _shown(game: str) -> str:
    """The template folder as PO references name it: ``templates/<game>`` for a built-in game,
    ``templates`` (relative to the pack) for a game defined in data."""
    return "templates" if data_template_folder(game) is not None else f"templates/{game}"


def label_messages(game: str) -> list[Message]:
    messages: dict[str, Message] = {}
    labels_file = f"{_shown(game)}/labels.yaml"
    enums = enum_labels(game)
    for key, text in source_labels(game).items():
        note = f"label key {key}" if key != text else ""
        written = labels_file
        if key in enums:  # an enum value's printed text, written in game.yaml's x-labels
            where = enums[key][1]
            written = f"{Path(where.file).name}:{where.line}"
        messages.setdefault(text, Message(LABEL_CONTEXT, text, written, note))
    labels = source_labels(game)
    for key, template in template_labels(game):
        text = labels.get(key, key)  # a template may name a key of labels.yaml or the text itself
        messages.setdefault(text, Message(LABEL_CONTEXT, text, f"{_shown(game)}/{template}"))
    return list(messages.values())


@cache
def label_locations(game: str) -> Mapping[str, Location]:
    """Label text -> where it is written (its key in ``labels.yaml``, else the template element
    that names it), so that a finding about a label's translation has a line to point at."""
    found: dict[str, Location] = {text: where for text, where in enum_labels(game).values()}
    labels = source_labels(game)
    documents = sorted(template_documents(game), key=lambda item: item[0] != "labels.yaml")
    for name, doc in documents:
        if not isinstance(doc.data, dict):
            continue
        if name == "labels.yaml":
            for key in doc.data:
                found.setdefault(labels.get(str(key), str(key)), doc.where_key((key,)))
            continue
        elements = doc.data.get("elements")
        for index, element in enumerate(elements if isinstance(elements, list) else []):
            if isinstance(element, dict) and "label" in element:
                text = labels.get(str(element["label"]), str(element["label"]))
                found.setdefault(text, doc.where(("elements", index, "label")))
    return found


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


def name_messages(pack: Pack) -> list[Message]:
    """The pack's name and its decks' names (``decks/*.yaml``), which a tuck box prints."""
    where = pack.manifest.where("name")
    messages = [Message(PACK_CONTEXT, pack.manifest.name,
                        f"{Path(where.file).name}:{where.line}", "pack name")]
    folder = PackFolder(pack.root)
    for file in folder.files().files:
        parts = file.relative.parts
        if len(parts) != 2 or parts[0] != "decks" or file.suffix not in (".yaml", ".yml"):
            continue
        doc, _ = folder.load_yaml(file, "deck")
        name = doc.data.get("name") if doc is not None and isinstance(doc.data, dict) else None
        if isinstance(name, str) and name.strip():
            line = doc.where(("name",)).line  # type: ignore[union-attr]
            messages.append(Message(DECK_CONTEXT, name, f"decks/{parts[1]}:{line}",
                                    "deck name"))
    return messages


def pack_messages(pack: Pack, include_labels: bool) -> list[Message]:
    messages = name_messages(pack) + card_messages(pack)
    if include_labels:
        messages += label_messages(pack.manifest.game)
    return messages


def translated_messages(pack: Pack) -> list[Message]:
    """What a pack's catalogs hold: its cards' texts, and the templates' labels for a base
    pack (an expansion prints the labels of its base game, translated in the base's catalog)."""
    return pack_messages(pack, include_labels=pack.manifest.extends is None)


def _entry(message: Message) -> polib.POEntry:
    file, _, line = message.where.partition(":")
    return polib.POEntry(msgctxt=message.context, msgid=message.source, msgstr="",
                         occurrences=[(file, line)] if line else [(file, "")],
                         comment=message.comment or None)


def read_catalog(path: Path) -> polib.POFile:
    """A pack's PO file as polib reads it, plus the previous texts of obsolete entries
    (``#~|``), which polib skips but msgmerge keeps. It is read under the pack file policy and
    checked first (generator.i18n.pofiles): a broken catalog stops the command with its located
    findings (FindingsError) before anything is written, so it is reported, never overwritten."""
    return open_catalog_file(path, _keep_obsolete_previous)


def _keep_obsolete_previous(text: str) -> str:
    return "\n".join("#|" + line[3:] if line.startswith("#~|") else line
                     for line in text.split("\n"))


def _existing(path: Path) -> polib.POFile | None:
    """The catalog at ``path``, None when there is no entry of that name (a dangling link or
    a pipe there is read, and refused with a finding)."""
    return read_catalog(path) if os.path.lexists(path) else None


def write_catalog(catalog: polib.POFile, path: Path) -> Path:
    """Write in gettext's own layout, atomically inside the pack (a failed write keeps the old
    file whole and is a usage error naming the file, exit 2)."""
    from generator.i18n.poformat import (
        format_catalog,  # (imported on writing: validate never writes)
    )

    return write_pack_catalog(path, format_catalog(catalog).encode("utf-8"))


def po_date() -> str:
    """Now, as a PO header writes its dates (creation and revision)."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M+0000")


def catalog_path(pack: Pack, locale: str) -> Path:
    """Where a pack keeps its catalog of ``locale``."""
    return pack.root / "locales" / f"{locale}.po"


def _template(pack: Pack, messages: Iterable[Message], previous: polib.POFile | None
              ) -> polib.POFile:
    """The template (POT) of the pack's messages; its creation date moves only when the
    messages do, so an extract that changes nothing rewrites the same bytes."""
    catalog = polib.POFile()
    for message in messages:
        catalog.append(_entry(message))
    date = po_date()
    if previous is not None and [(e.msgctxt, e.msgid, e.occurrences, e.comment or "")
                                 for e in previous] == \
            [(e.msgctxt, e.msgid, e.occurrences, e.comment or "") for e in catalog]:
        date = previous.metadata.get("POT-Creation-Date", date)
    catalog.header = f"Messages of the {pack.manifest.name} pack to translate (pnp i18n)."
    catalog.metadata_is_fuzzy = ["fuzzy"]
    catalog.metadata = {
        "Project-Id-Version": f"{pack.manifest.pack} {pack.manifest.version}".strip(),
        "Report-Msgid-Bugs-To": "",
        "POT-Creation-Date": date,
        "PO-Revision-Date": "YEAR-MO-DA HO:MI+ZONE",
        "Last-Translator": "FULL NAME <EMAIL@ADDRESS>",
        "Language-Team": "LANGUAGE <LL@li.org>",
        "Language": "",
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Source-Language": pack.manifest.source_locale,
    }
    return catalog


def language_name(locale: str) -> str | None:
    """English name of a language code (``de`` -> German); None when it is not one."""
    from babel import Locale, UnknownLocaleError  # (imported when a language is named)

    try:
        return Locale.parse(locale.replace("-", "_")).english_name
    except (ValueError, UnknownLocaleError):
        return None


def _header(pack: Pack, locale: str, template: polib.POFile,
            current: dict[str, str] | None) -> dict[str, str]:
    """A translation's header: the existing fields kept in their order, the template's dates,
    and every field msgfmt -c and translation editors expect added where missing."""
    fields = dict(current or {})
    wanted = {
        "Project-Id-Version": template.metadata["Project-Id-Version"],
        "Report-Msgid-Bugs-To": "",
        "POT-Creation-Date": template.metadata["POT-Creation-Date"],
        "PO-Revision-Date": po_date(),
        "Last-Translator": "",
        "Language-Team": language_name(locale) or locale,
        "Language": locale,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": _plural_forms(locale),
        "X-Source-Language": pack.manifest.source_locale,
    }
    result: dict[str, str] = {}
    for name, value in wanted.items():  # gettext's order for the fields it knows
        if name in fields:
            result[name] = fields.pop(name)
        elif value is not None:
            result[name] = value
    result["POT-Creation-Date"] = template.metadata["POT-Creation-Date"]
    result["Language"] = locale
    result.update(fields)
    return result


def _plural_forms(locale: str) -> str | None:
    from babel import UnknownLocaleError
    from babel.messages.plurals import get_plural

    try:
        return get_plural(locale.replace("-", "_")).plural_forms
    except (ValueError, UnknownLocaleError):
        return None


def extract(pack: Pack, messages: Iterable[Message]) -> Path:
    """Write ``locales/messages.pot`` with every message of the pack."""
    target = pack.root / "locales" / POT_NAME
    previous = _existing(target)
    return write_catalog(_template(pack, messages, previous), target)


def no_locale_message(pack: Pack, locale: str, expansions: Sequence[Pack] = ()) -> str:
    """Why a locale cannot be used, and the one command that adds it (to ``pack``, the base;
    with ``expansions``, none of the set's packs ships it)."""
    from generator.core.location import display_path

    listed = "; ".join(f"{other.manifest.pack} ships: {', '.join(other.manifest.locales)}"
                       for other in (pack, *expansions))
    if not expansions:
        listed = f"it ships: {', '.join(pack.manifest.locales)}"
    if language_name(locale) is None:  # a typo or stray characters ('ru\n'): no command adds it
        return (f"{shown_locale(locale)} is not a language code (use an ISO 639 code such as de, "
                f"fr, pt_BR); pack '{pack.manifest.pack}' ships: "
                f"{', '.join(pack.manifest.locales)}")
    owner = (f"pack '{pack.manifest.pack}' has no locale" if not expansions else
             "no pack of the set ships the locale")
    return (f"{owner} '{locale}' ({listed}); to translate it, run: pnp i18n update "
            f"{display_path(pack.root)} --locale {locale} (adds '{locale}' to the locales: of "
            f"game.yaml and creates locales/{locale}.po)")


def shown_locale(locale: str) -> str:
    """A locale as a message quotes it: control characters visible, a long one cut short."""
    text = repr(locale)
    return text if len(text) <= 40 else text[:37] + "..."


def target_locales(pack: Pack) -> list[str]:
    return [locale for locale in pack.manifest.locales if locale != pack.manifest.source_locale]


def updated_catalogs(pack: Pack, messages: list[Message], locales: Iterable[str] | None = None
                     ) -> dict[Path, polib.POFile]:
    """Each locale's catalog brought in line with the messages as ``msgmerge --previous``
    would (see :func:`update`), by the path it is written to; nothing is written. Every
    catalog is read before any is made, so a broken one stops them all (FindingsError)."""
    pot = pack.root / "locales" / POT_NAME
    template = _template(pack, messages, _existing(pot))
    chosen = list(locales) if locales is not None else target_locales(pack)
    paths = {locale: catalog_path(pack, locale) for locale in chosen}
    existing = {locale: _existing(path) for locale, path in paths.items()}
    made: dict[Path, polib.POFile] = {}
    for locale, path in paths.items():
        old = existing[locale]
        catalog = polib.POFile()
        name = language_name(locale) or locale
        catalog.header = f"{name} translation of the {pack.manifest.name} pack."
        if old is not None:
            catalog.header = old.header.strip("\n") or catalog.header
            catalog.metadata_is_fuzzy = old.metadata_is_fuzzy
        catalog.metadata = _header(pack, locale, template,
                                   dict(old.metadata) if old is not None else None)
        from generator.i18n.pomerge import merge_entries

        for entry in merge_entries(old or [], template):
            catalog.append(entry)
        made[path] = catalog
    return made


def update(pack: Pack, messages: list[Message], locales: Iterable[str] | None = None
           ) -> list[Path]:
    """Bring each locale's PO in line with the messages as ``msgmerge --previous`` would: keep
    translations, mark changed sources fuzzy with the previous text, obsolete vanished ones.
    Every catalog is read before any is written, so a broken one stops the update whole."""
    return [write_catalog(catalog, path)
            for path, catalog in updated_catalogs(pack, messages, locales).items()]


class LocaleStatus(Struct, frozen=True):
    locale: str
    total: int
    translated: int
    missing: int
    fuzzy: int
    obsolete: int
    #: the messages without a translation that prints: missing and fuzzy (``--verbose``)
    untranslated: tuple[Message, ...] = ()
    #: the messages with no translation at all, where their source text is written
    missing_entries: tuple[Message, ...] = ()
    #: the messages whose translation waits for review, where the catalog holds it
    fuzzy_entries: tuple[Message, ...] = ()
    #: catalog entries no current message has (removed or changed cards), where they are
    obsolete_entries: tuple[Message, ...] = ()

    @property
    def missing_by_field(self) -> dict[str, int]:
        """Untranslated messages counted by card kind and field ("ship name") or "label"."""
        counts: dict[str, int] = {}
        for message in self.untranslated:
            group = "label" if message.context == LABEL_CONTEXT else message.comment
            counts[group] = counts.get(group, 0) + 1
        return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.total if self.total else 100.0


def status(pack: Pack, messages: list[Message]) -> list[LocaleStatus]:
    """Per locale the pack ships: which of the current messages are translated, missing or
    fuzzy, and which catalog entries no longer match any message (obsolete), each named with
    where it is."""
    wanted = {(m.context, m.source): m for m in messages}
    result: list[LocaleStatus] = []
    for locale in target_locales(pack):
        shown = f"locales/{locale}.po"
        entries = _existing(pack.root / shown) or []
        translated = 0
        fuzzy: list[Message] = []
        obsolete: list[Message] = []
        done: set[tuple[str, str]] = set()
        for entry in entries:
            key = (entry.msgctxt or "", entry.msgid)
            at = f"{shown}:{entry.linenum}"
            if entry.obsolete or key not in wanted:
                obsolete.append(Message(key[0], key[1], at))
                continue
            if "fuzzy" in entry.flags:
                fuzzy.append(Message(key[0], key[1], at, wanted[key].comment))
            elif entry.msgstr:
                translated += 1
                done.add(key)
        fuzzy_keys = {(m.context, m.source) for m in fuzzy}
        untranslated = tuple(m for m in messages if (m.context, m.source) not in done)
        missing = tuple(m for m in untranslated if (m.context, m.source) not in fuzzy_keys)
        result.append(LocaleStatus(locale, len(wanted), translated, len(missing), len(fuzzy),
                                   len(obsolete), untranslated, missing, tuple(fuzzy),
                                   tuple(obsolete)))
    return result
