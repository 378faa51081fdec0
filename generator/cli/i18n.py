"""``pnp i18n extract|update|status``: a pack's gettext catalogs."""

from __future__ import annotations

import json
from pathlib import Path

import click

from generator.cli.groups import Listed
from generator.cli.output import echo
from generator.cli.params import PACK, output_format
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
    from generator.i18n.catalogs import translated_messages

    return translated_messages(pack)


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
@output_format("text", "json")
@click.option("-v", "--verbose", is_flag=True, help="list every untranslated message")
def status(pack: Path, output_format: str, verbose: bool) -> None:
    """Per locale: translated, missing, fuzzy and obsolete messages, and what is missing by
    card kind and field."""
    from generator.i18n.catalogs import status as count

    loaded = _loaded_pack(pack)
    rows = count(loaded, _messages(loaded))
    if output_format == "json":
        echo(json.dumps({"pack": loaded.manifest.pack, "locales": [
            {"locale": r.locale, "total": r.total, "translated": r.translated,
             "missing": r.missing, "fuzzy": r.fuzzy, "obsolete": r.obsolete,
             "percent": round(r.percent, 1), "missing_by_field": r.missing_by_field,
             "untranslated": [{"msgctxt": m.context, "msgid": m.source, "where": m.where}
                              for m in r.untranslated]}
            for r in rows]}, indent=2, ensure_ascii=False))
        return
    echo(f"{'locale':<8}{'translated':>11}{'missing':>9}{'fuzzy':>7}{'obsolete':>10}"
         f"{'done':>8}")
    for r in rows:
        echo(f"{r.locale:<8}{r.translated:>11}{r.missing:>9}{r.fuzzy:>7}"
             f"{r.obsolete:>10}{r.percent:>7.1f}%")
    for r in rows:
        if r.untranslated:
            echo(f"{r.locale} missing: " + ", ".join(
                f"{group} {count}" for group, count in r.missing_by_field.items()))
        if verbose:
            for message in r.untranslated:
                echo(f"  {message.where}: {message.context}: {message.source}")
    if not verbose and any(r.untranslated for r in rows):
        echo("(--verbose lists every untranslated message)")
