"""``pnp validate``: every problem of a pack, its translations and decks, as text, JSON or SARIF."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import click

from generator.cli.output import echo
from generator.cli.params import PACK, PATH, SARIF_ROOT, WITH, output_format
from generator.cli.report import exit_on
from generator.core.errors import UsageError
from generator.core.findings import Finding, Severity, render_json, render_sarif, render_text
from generator.runtime.gcpause import collector_paused


@click.command("validate")
@PACK
@WITH
@click.option("--locale", "locales", multiple=True,
              help="also check this translation (repeatable)")
@click.option("--strict", is_flag=True, help="a missing translation is an error, not a warning")
@click.option("--deck", "decks", multiple=True, type=PATH,
              help="also check this deck file against the game's deck rules (repeatable)")
@output_format("text", "json", "sarif")
@SARIF_ROOT
@click.option("-v", "--verbose", is_flag=True,
              help="list every missing translation (text output summarises them)")
def validate(pack: Path, expansions: tuple[Path, ...], locales: tuple[str, ...], strict: bool,
             decks: tuple[Path, ...], output_format: str, sarif_root: Path | None,
             verbose: bool) -> None:
    """Check a pack's files, schemas and game rules; report every problem found.

    The source texts are checked as build prints them (glyphs the font lacks, texts that do
    not fit their boxes). With --locale, also check that translation: missing and inconsistent
    messages, glossary terms, glyphs and fitting."""
    with collector_paused():  # the pipeline's modules: objects that all stay alive, as build
        from generator.pipeline.localecheck import (
            begin_layout,
            check_locale,
            missing_summary,
            set_locales,
        )
        from generator.pipeline.validate import validate as check

    with ExitStack() as running:
        begun = {}

        def begin_source_layout(card_set, game) -> None:
            """The source texts are laid out for their findings: a large set's forked part
            starts now and lays out while this process checks the rules."""
            pending = begin_layout(card_set, game, card_set.base.manifest.source_locale)
            if pending is not None:
                begun["source"] = running.enter_context(pending)

        result = check(pack, expansions, begin_source_layout)
        findings = result.findings
        if result.card_set is not None and result.game is not None:
            shipped = set_locales(result.card_set)
            source = result.card_set.base.manifest.source_locale
            # the source locale is always checked (glyphs, fitting): validate stops on what
            # build would stop on
            for locale in dict.fromkeys((source, *locales)):
                if locale not in shipped:
                    # the catalogs' module (polib and the PO writer with it) only for this
                    # message: 3 ms of every validate otherwise
                    from generator.i18n.catalogs import no_locale_message

                    raise UsageError(no_locale_message(result.card_set.base, locale,
                                                       result.card_set.expansions))
                findings = findings + check_locale(
                    result.card_set, result.game, locale, strict,
                    laid_out=begun.pop("source", None) if locale == source else None)
            findings = findings + _deck_findings(decks, pack, result)
    if output_format == "json":
        cards = result.card_set.cards if result.card_set else ()
        echo(render_json(findings, {"cards": len(cards),
                                    "copies": sum(c.count for c in cards),
                                    "missing_translations": missing_summary(findings)}))
    elif output_format == "sarif":
        rules = {row.code: f"{row.message} ({row.cites})" if row.cites else row.message
                 for row in result.game.rule_rows()} if result.game is not None else {}
        echo(render_sarif(findings, rules=rules, root=sarif_root))
    else:
        echo(_text_with_summary(findings, verbose))
    exit_on(findings)


def _text_with_summary(findings: list[Finding], verbose: bool) -> str:
    """The findings as text; missing-translation warnings (hundreds for a new language) are
    counted per locale, kind and field instead of listed, unless ``verbose``."""
    from generator.pipeline.localecheck import MISSING, missing_summary

    hidden = [f for f in findings if f.code == MISSING and f.severity is Severity.WARNING]
    if verbose or not hidden:
        return render_text(findings)
    shown = [f for f in findings if f not in hidden]
    lines = render_text(shown).split("\n")[:-1]
    for locale, groups in missing_summary(hidden).items():
        lines.append(f"warning[{MISSING}]: {sum(groups.values())} messages have no {locale} "
                     "translation: " + ", ".join(f"{group} {count}" for group, count in
                                                 sorted(groups.items(),
                                                        key=lambda kv: (-kv[1], kv[0]))))
    lines.append("(--verbose lists each missing translation; pnp i18n status counts them)")
    lines.append(render_text(findings).split("\n")[-1])
    return "\n".join(lines)


def _deck_findings(decks: tuple[Path, ...], pack: Path, result) -> list[Finding]:
    from generator.model.deck import load_checked_deck

    findings = []
    for given in decks:
        findings += load_checked_deck(given, pack, result.card_set, result.game)[1]
    return findings
