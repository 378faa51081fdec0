"""``pnp i18n extract|update|status``: a pack's gettext catalogs."""

from __future__ import annotations

import json
from pathlib import Path

import click

from generator.cli.groups import Listed
from generator.cli.output import echo
from generator.cli.params import PACK, PATH, output_format
from generator.cli.report import stop
from generator.core.errors import UsageError
from generator.core.findings import has_errors
from generator.core.location import display_path


@click.group("i18n", cls=Listed)
def i18n() -> None:
    """Translation catalogs (gettext PO files in PACK/locales/)."""


def _loaded_pack(pack: Path):
    """The pack, loaded; its findings and exit status 1 if it cannot be."""
    from generator.pipeline.pack import load_pack

    load = load_pack(pack)
    if load.pack is None or has_errors(load.findings):
        stop(load.findings)
    return load.pack


def _messages(pack):
    from generator.i18n.catalogs import pack_messages

    return pack_messages(pack, include_labels=pack.manifest.extends is None)


@i18n.command("extract")
@PACK
def extract(pack: Path) -> None:
    """Write PACK/locales/messages.pot with every card text and template label."""
    from generator.i18n.catalogs import extract as write_template

    loaded = _loaded_pack(pack)
    messages = _messages(loaded)
    target = write_template(loaded, messages)
    echo(f"wrote {display_path(target)} ({len(messages)} messages)")


@i18n.command("update")
@PACK
@click.option("--locale", "locales", multiple=True,
              help="language to update or add (repeatable; default: every one in game.yaml); a "
                   "new one is added to game.yaml's locales:")
def update(pack: Path, locales: tuple[str, ...]) -> None:
    """Merge the current messages into the locales' PO files, as msgmerge does (new, fuzzy
    with the previous source text, obsolete)."""
    from generator.i18n.catalogs import language_name, shown_locale, target_locales
    from generator.i18n.catalogs import update as merge
    from generator.i18n.gamelocales import add_locale

    loaded = _loaded_pack(pack)
    manifest = loaded.manifest
    for locale in locales:
        if locale == manifest.source_locale:
            raise UsageError(f"'{locale}' is the source language of pack '{manifest.pack}': "
                             "its texts are the card files themselves")
        if language_name(locale) is None:
            raise UsageError(f"{shown_locale(locale)} is not a language code (use an ISO 639 "
                             "code such as de, fr, pt_BR)")
    added = [locale for locale in dict.fromkeys(locales) if locale not in manifest.locales]
    if not locales and not target_locales(loaded):
        raise UsageError(f"pack '{manifest.pack}' has no language to translate into: add one "
                         f"with pnp i18n update {display_path(pack)} --locale de")
    for locale in added:
        add_locale(loaded.root / "game.yaml", locale, manifest.source_locale)
        echo(f"added {locale} ({language_name(locale)}) to "
             f"{display_path(loaded.root / 'game.yaml')} locales")
    for path in merge(loaded, _messages(loaded), list(dict.fromkeys(locales)) or None):
        echo(f"updated {display_path(path)}")


@i18n.command("status")
@PACK
@click.option("--with", "expansions", multiple=True, type=PATH,
              help="an expansion to report on with PACK, its base (repeatable); an expansion of "
                   "a game defined in data that is not stored beside its base is named so")
@output_format("text", "json")
@click.option("-v", "--verbose", is_flag=True,
              help="list every missing, fuzzy and obsolete entry, with where it is")
def status(pack: Path, expansions: tuple[Path, ...], output_format: str, verbose: bool) -> None:
    """Per pack and locale: translated, missing, fuzzy and obsolete messages, and what is
    missing by card kind and field."""
    from generator.i18n.catalogs import status as count

    packs = _loaded_packs(pack, expansions)
    reports = [(loaded, count(loaded, _messages(loaded))) for loaded in packs]
    if output_format == "json":
        documents = [_status_json(loaded, rows) for loaded, rows in reports]
        echo(json.dumps(documents[0] if not expansions else {"packs": documents}, indent=2,
                        ensure_ascii=False))
        return
    for loaded, rows in reports:
        if expansions:
            echo(f"pack {loaded.manifest.pack} ({display_path(loaded.root)}), written in "
                 f"{loaded.manifest.source_locale}")
        _status_text(rows, verbose)
    if not verbose and any(r.untranslated or r.obsolete for _, rows in reports for r in rows):
        echo("(--verbose lists every missing, fuzzy and obsolete entry)")


def _loaded_packs(pack: Path, expansions: tuple[Path, ...]) -> list:
    """PACK and each expansion given with it, each loaded with PACK's game (an expansion of a
    game defined in data needs its base to be read at all)."""
    from generator.pipeline.pack import load_pack

    base = load_pack(pack)
    if base.pack is None or has_errors(base.findings):
        stop(base.findings)
    loaded = [base.pack]
    for path in expansions:
        load = load_pack(path, base.game)
        if load.pack is None or has_errors(load.findings):
            stop(load.findings)
        loaded.append(load.pack)
    return loaded


def _entries(messages) -> list[dict[str, str]]:
    return [{"msgctxt": m.context, "msgid": m.source, "where": m.where} for m in messages]


def _status_json(loaded, rows) -> dict:
    return {"pack": loaded.manifest.pack, "source_locale": loaded.manifest.source_locale,
            "locales": [
                {"locale": r.locale, "total": r.total, "translated": r.translated,
                 "missing": r.missing, "fuzzy": r.fuzzy, "obsolete": r.obsolete,
                 "percent": round(r.percent, 1), "missing_by_field": r.missing_by_field,
                 "untranslated": _entries(r.untranslated),
                 "missing_entries": _entries(r.missing_entries),
                 "fuzzy_entries": _entries(r.fuzzy_entries),
                 "obsolete_entries": _entries(r.obsolete_entries)}
                for r in rows]}


def _status_text(rows, verbose: bool) -> None:
    echo(f"{'locale':<8}{'translated':>11}{'missing':>9}{'fuzzy':>7}{'obsolete':>10}"
         f"{'done':>8}")
    for r in rows:
        echo(f"{r.locale:<8}{r.translated:>11}{r.missing:>9}{r.fuzzy:>7}"
             f"{r.obsolete:>10}{r.percent:>7.1f}%")
    for r in rows:
        if r.untranslated:
            echo(f"{r.locale} missing: " + ", ".join(
                f"{group} {count}" for group, count in r.missing_by_field.items()))
        if not verbose:
            continue
        for what, entries in (("missing", r.missing_entries), ("fuzzy", r.fuzzy_entries),
                              ("obsolete", r.obsolete_entries)):
            for message in entries:
                echo(f"  {message.where}: {what}: {message.context}: {message.source}")
