"""The ``pnp`` command line: thin wrappers that turn pipeline results into text and exit codes.

Exit codes: 0 clean, 1 findings of severity error, 2 usage or I/O error. Bad input never shows a
Python traceback; an unexpected internal error prints one line (set PNP_DEBUG=1 for the trace).

Only argparse is imported at the top (through generator.cliparser, which builds the parser from
the declarations beside each command): ``pnp --help`` must answer in a blink, so every command
imports the machinery it needs (schemas, YAML, ReportLab...) inside its own function.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from generator.cliargs import FiniteFloat, Offset, WholeNumber
from generator.cliparser import CommandGroup, argument, flag, flag_pair, option, parse
from generator.errors import FindingsError, UsageError

if TYPE_CHECKING:
    from typing import NoReturn


def echo(text: str, *, err: bool = False) -> None:
    """A line on stdout (``err``: stderr), written through at once as click.echo did: what pnp
    printed is there even if the process is stopped the next moment."""
    stream = sys.stderr if err else sys.stdout
    line = f"{text}\n"
    try:
        stream.write(line)
    except UnicodeEncodeError:  # a terminal in a legacy encoding: escaped, never a crash
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(line.encode(encoding, "backslashreplace").decode(encoding))
    stream.flush()


# The few pipeline functions most commands share, imported at their first call (see above).
def render_text(findings) -> str:
    from generator.findings import render_text as render

    return render(findings)


def render_json(findings, summary) -> str:
    from generator.findings import render_json as render

    return render(findings, summary)


def has_errors(findings) -> bool:
    from generator.findings import has_errors as any_error

    return any_error(findings)


def display_path(path: Path) -> str:
    from generator.location import display_path as shown

    return shown(path)


def load_pack(path: Path):
    from generator.pack import load_pack as load

    return load(path)


def validate(pack: Path, expansions: tuple[Path, ...], on_card_set=None):
    from generator.validate import validate as check

    return check(pack, expansions, on_card_set)

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

PACK_ARG = argument("pack", type=Path, help="the pack's folder (the one holding game.yaml)")
WITH_OPT = option("--with", dest="expansions", repeat=True, type=Path,
                  help="an expansion pack to load together with PACK (repeatable)")

#: --sarif-root of validate and preflight
SARIF_ROOT_HELP = "SARIF file paths are relative to this folder (default: the working folder)"

cli = CommandGroup("Print-and-play card sheets from YAML card definitions.", version=True)


@cli.command("validate")
@PACK_ARG
@WITH_OPT
@option("--locale", dest="locales", repeat=True, help="also check this translation")
@flag("--strict", help="a missing translation is an error, not a warning")
@option("--deck", dest="decks", repeat=True, type=Path,
        help="also check this deck file against the game's deck rules (repeatable)")
@option("--format", dest="output_format", choices=["text", "json", "sarif"], default="text")
@option("--sarif-root", dest="sarif_root", type=Path, default=None, help=SARIF_ROOT_HELP)
@flag("-v", "--verbose", help="list every missing translation (text output summarises them)")
def validate_command(pack: Path, expansions: tuple[Path, ...], locales: tuple[str, ...],
                     strict: bool, decks: tuple[Path, ...], output_format: str,
                     sarif_root: Path | None, verbose: bool) -> None:
    """Check a pack's files, schemas and game rules; report every problem found.

    The source texts are checked as build prints them (glyphs the font lacks, texts that do
    not fit their boxes). With --locale, also check that translation: missing and inconsistent
    messages, glossary terms, glyphs and fitting."""
    from contextlib import ExitStack

    with ExitStack() as running:
        begun = {}

        def begin_source_layout(card_set, game) -> None:
            """The source texts are laid out for their findings: a large set's forked part
            starts now and lays out while this process checks the rules."""
            from generator.localecheck import begin_layout

            pending = begin_layout(card_set, game, card_set.base.manifest.source_locale)
            if pending is not None:
                begun["source"] = running.enter_context(pending)

        result = validate(pack, expansions, begin_source_layout)
        findings = result.findings
        if result.card_set is not None and result.game is not None:
            shipped = result.card_set.base.manifest.locales
            source = result.card_set.base.manifest.source_locale
            # the source locale is always checked (glyphs, fitting): validate stops on what
            # build would stop on
            for locale in dict.fromkeys((source, *locales)):
                from generator.i18n import no_locale_message
                from generator.localecheck import check_locale

                if locale not in shipped:
                    raise UsageError(no_locale_message(result.card_set.base, locale))
                findings = findings + check_locale(
                    result.card_set, result.game, locale, strict,
                    laid_out=begun.pop("source", None) if locale == source else None)
            findings = findings + _deck_findings(decks, pack, result)
    if output_format == "json":
        from generator.localecheck import missing_summary

        cards = result.card_set.cards if result.card_set else ()
        echo(render_json(findings, {"cards": len(cards),
                                    "copies": sum(c.count for c in cards),
                                    "missing_translations": missing_summary(findings)}))
    elif output_format == "sarif":
        from generator.findings import render_sarif
        from generator.ruletable import rule_rows

        rules = {row.code: f"{row.message} ({row.cites})" if row.cites else row.message
                 for row in rule_rows(result.game)} if result.game is not None else {}
        echo(render_sarif(findings, rules=rules, root=sarif_root))
    else:
        echo(_text_with_summary(findings, verbose))
    sys.exit(EXIT_FINDINGS if has_errors(findings) else EXIT_CLEAN)


def _text_with_summary(findings: list, verbose: bool) -> str:
    """The findings as text; missing-translation warnings (hundreds for a new language) are
    counted per locale, kind and field instead of listed, unless ``verbose``."""
    from generator.findings import Severity
    from generator.localecheck import MISSING, missing_summary

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


def _deck_findings(decks: tuple[Path, ...], pack: Path, result) -> list:
    from generator.deck import load_checked_deck

    findings = []
    for given in decks:
        findings += load_checked_deck(given, pack, result.card_set, result.game)[1]
    return findings


PAPER_OPT = option("--paper", choices=["a4", "letter", "a3", "legal", "tabloid"], default="a4",
                   show_default=True)
OUT_OPT = option("--out", dest="out_root", type=Path, default=Path("output"), show_default=True)


@cli.command("build")
@PACK_ARG
@WITH_OPT
@option("--locale", default=None, help="language to print (default: the pack's source)")
@PAPER_OPT
@option("--duplex", choices=["long", "short", "none"], default="long", show_default=True,
        help="flip edge of your duplex printer; none = fronts only")
@option("--back-offset", type=Offset(), default=(0.0, 0.0), show_default="0,0",
        help="DX,DY mm to shift back pages (measure with pnp calibrate)")
@OUT_OPT
@option("--bleed", dest="bleed_mm", type=FiniteFloat(0, 5), default=1.5, show_default=True,
        help="mm of art past the trim on the sheet's outer edges")
@option("--margin", dest="margin_mm", type=FiniteFloat(0, 20), default=3.0, show_default=True,
        help="your printer's unprintable border in mm")
@option("--gutter", dest="gutter_mm", type=FiniteFloat(0, 20), default=0.0, show_default=True,
        help="mm between cards; 2 x bleed gives each card its own")
@option("--deck", type=Path, default=None,
        help="print only this deck file, in its counts (e.g. decks/x.yaml)")
@flag_pair("--cut-lines", "--no-cut-lines", default=True,
           help="grey hairlines along every card edge on front pages")
@flag("--ink-saver", help="white instead of full-bleed backgrounds")
@flag("--strict", help="refuse to print a missing translation")
@flag("--allow-overflow",
      help="print even when a text does not fit its box (reported as a warning)")
@flag("-q", "--quiet", help="print errors only: no progress bar, no warnings, no summary line")
@flag("--force", help="build everything again, even what no changed input touches")
def build_command(pack: Path, expansions: tuple[Path, ...], locale: str | None, paper: str,
                  duplex: str, back_offset: tuple[float, float], out_root: Path,
                  bleed_mm: float, margin_mm: float, gutter_mm: float, deck: Path | None,
                  cut_lines: bool, ink_saver: bool, strict: bool, allow_overflow: bool,
                  quiet: bool, force: bool) -> None:
    """Build print-ready PDF sheets (fronts, backs, duplex) and a layout manifest.

    Inputs and options unchanged since the last build of the same command, and its output as
    it left it: nothing is rebuilt (``up to date``). A large build (over 250 sheets) draws
    again only the chunks of pages that changed."""
    from generator import __version__
    from generator.buildcache import BuildRecord

    record = BuildRecord(out_root, [pack, *expansions], [deck] if deck else [], {
        "version": __version__, "locale": locale, "paper": paper, "duplex": duplex,
        "back_offset": back_offset, "bleed": bleed_mm, "margin": margin_mm,
        "gutter": gutter_mm, "deck": str(deck.resolve()) if deck else None,
        "cut_lines": cut_lines, "ink_saver": ink_saver, "strict": strict,
        "allow_overflow": allow_overflow, "quiet": quiet},
        exclude=out_root)
    last = None if force else record.unchanged()
    if last is not None:
        if last["messages"]:
            echo(last["messages"], err=True)
        if not quiet:
            echo(f"up to date: {display_path(Path(last['out_dir']))}/ ({last['pages']} "
                 "pages; no input changed since the last build)")
        return
    from generator.gcpause import collector_paused

    with collector_paused():  # the pipeline's modules: 150 ms of objects that all stay alive
        from generator.build import build
        from generator.findings import Severity
        from generator.impose import SheetOptions
        from generator.progress import Progress

    options = SheetOptions(paper=paper, duplex=duplex, margin_mm=margin_mm, bleed_mm=bleed_mm,
                           gutter_mm=gutter_mm, back_offset_mm=back_offset,
                           cut_lines=cut_lines)
    with Progress("building", 0, enabled=not quiet) as progress:
        result = build(pack, expansions, locale, options, out_root, ink_saver=ink_saver,
                       strict=strict, deck=deck, progress=progress,
                       allow_overflow=allow_overflow, reuse=not force)
    shown = [f for f in result.findings if not quiet or f.severity is Severity.ERROR]
    if shown:
        echo(render_text(shown), err=True)
    if result.out_dir is None:
        echo("pnp: build stopped: fix the errors above first", err=True)
        sys.exit(EXIT_FINDINGS)
    record.save(result.out_dir, result.pages, render_text(shown) if shown else "")
    if not quiet:
        echo(f"wrote {display_path(result.out_dir)}/ ({result.pages} pages)")


@cli.command("export")
@PACK_ARG
@WITH_OPT
@option("--locale", default=None, help="language to export (default: the pack's source)")
@option("--to", choices=["png", "card-pdf", "tts"], default=None,
        help="one PNG or one PDF per card side, or Tabletop Simulator decks")
@option("--preset", choices=["thegamecrafter", "makeplayingcards", "drivethrucards"],
        default=None, help="a print service's sizes, bleed and resolution (docs/exports.md)")
@option("--dpi", type=WholeNumber(36, 1200, "dpi"), default=None,
        help="PNG resolution (default 300; TTS: a 10 x 7 sheet within 4096 px)")
@option("--bleed", dest="bleed_mm", type=FiniteFloat(0, 10), default=None,
        help="mm of bleed on every side (default 3.175 = 1/8 in)")
@option("--kind", dest="kinds", repeat=True, help="export only cards of this kind")
@flag("--per-copy", help="a file for every copy, not one per face")
@option("--base-url", default=None, help="TTS: URL the sheets will be uploaded to")
@OUT_OPT
@flag("--ink-saver", help="white instead of full-bleed backgrounds")
@flag("--strict", help="refuse to export a missing translation")
@flag("-q", "--quiet", help="print errors only")
def export_command(pack: Path, expansions: tuple[Path, ...], locale: str | None, out_root: Path,
                   quiet: bool, **choices) -> None:
    """Per-card PNG or PDF files for print services, or Tabletop Simulator decks."""
    from generator.export import ExportOptions, export
    from generator.findings import Severity
    from generator.progress import Progress

    with Progress("exporting", 0, enabled=not quiet) as progress:
        result = export(pack, expansions, locale, ExportOptions(**choices), out_root, progress)
    shown = [f for f in result.findings if not quiet or f.severity is Severity.ERROR]
    if shown:
        echo(render_text(shown), err=True)
    if result.out_dir is None:
        echo("pnp: export stopped: fix the errors above first", err=True)
        sys.exit(EXIT_FINDINGS)
    if not quiet:
        echo(f"wrote {display_path(result.out_dir)}/ ({result.files} files)")


@cli.command("preflight")
@PACK_ARG
@WITH_OPT
@option("--locale", default=None, help="language to check (default: the pack's source)")
@option("--safe", dest="safe_mm", type=FiniteFloat(0, 20), default=3.0, show_default=True,
        help="mm inside the trim that text must keep clear of")
@option("--bleed", dest="bleed_mm", type=FiniteFloat(0, 10), default=3.175, show_default=True,
        help="mm of bleed art expected past the trim")
@option("--format", dest="output_format", choices=["text", "json", "sarif"], default="text")
@option("--sarif-root", dest="sarif_root", type=Path, default=None, help=SARIF_ROOT_HELP)
def preflight_command(pack: Path, expansions: tuple[Path, ...], locale: str | None,
                      safe_mm: float, bleed_mm: float, output_format: str,
                      sarif_root: Path | None) -> None:
    """Print-shop checks per card and side: safe zone, bleed, thin lines, image dpi, fonts."""
    from generator.findings import render_sarif
    from generator.preflight import PreflightOptions, preflight

    findings, faces = preflight(pack, expansions, locale,
                                PreflightOptions(safe_mm=safe_mm, bleed_mm=bleed_mm))
    if output_format == "json":
        echo(render_json(findings, {"faces": faces}))
    elif output_format == "sarif":
        echo(render_sarif(findings, root=sarif_root))
    else:
        echo(render_text(findings))
    sys.exit(EXIT_FINDINGS if has_errors(findings) else EXIT_CLEAN)


@cli.command("calibrate")
@PAPER_OPT
@option("--duplex", choices=["long", "short"], default="long", show_default=True)
@OUT_OPT
def calibrate_command(paper: str, duplex: str, out_root: Path) -> None:
    """Print a two-sided page that measures your printer's back-side offset."""
    from generator.calibrate import write_calibration
    from generator.impose import SheetOptions

    target = out_root / "calibrate" / f"{paper}-{duplex}"
    try:
        path = write_calibration(SheetOptions(paper=paper, duplex=duplex), target)
    except OSError as exc:
        raise UsageError(f"{display_path(target)}: cannot write: {exc.strerror or exc}") \
            from None
    echo(f"wrote {display_path(path)}: print it duplex, then read the back against a "
         "light and pass the numbers as --back-offset DX,DY")


LOCALES_SHOWN = option("--locale", dest="locales", repeat=True,
                       help="a language to show; several stand side by side (default: the "
                            "source)")


@cli.command("preview")
@PACK_ARG
@WITH_OPT
@LOCALES_SHOWN
@OUT_OPT
def preview_command(pack: Path, expansions: tuple[Path, ...], locales: tuple[str, ...],
                    out_root: Path) -> None:
    """Write a proof page: every card's faces as printed, with its findings pinned on."""
    from generator.proof.preview import write_preview

    result = write_preview(pack, expansions, locales, out_root)
    findings = result.proof.findings
    if findings:
        echo(render_text(findings), err=True)
    echo(f"wrote {display_path(result.page)} ({len(result.proof.pictures)} pictures, "
         f"{result.rendered} rendered)")
    sys.exit(EXIT_FINDINGS if has_errors(findings) else EXIT_CLEAN)


@cli.command("watch")
@PACK_ARG
@WITH_OPT
@LOCALES_SHOWN
@option("--port", type=WholeNumber(0, 65535, unit="", name="PORT"), default=8765, show_default=True,
        help="port on 127.0.0.1 (0: any free port)")
def watch_command(pack: Path, expansions: tuple[Path, ...], locales: tuple[str, ...],
                  port: int) -> None:
    """Serve the proof page on localhost and rebuild it on every save (Ctrl-C stops)."""
    from generator.proof.watch import run_watch

    run_watch(pack, expansions, locales, port, echo)


i18n_group = cli.group("i18n", "Translation catalogs (gettext PO files in PACK/locales/).")


def _loaded_pack(pack: Path):
    load = load_pack(pack)
    if load.pack is None or has_errors(load.findings):
        echo(render_text(load.findings), err=True)
        sys.exit(EXIT_FINDINGS)
    return load.pack


def _messages(pack):
    from generator.i18n import pack_messages

    return pack_messages(pack, include_labels=pack.manifest.extends is None)


@i18n_group.command("extract")
@PACK_ARG
def i18n_extract(pack: Path) -> None:
    """Write PACK/locales/messages.pot with every card text and template label."""
    from generator.i18n import extract

    loaded = _loaded_pack(pack)
    messages = _messages(loaded)
    target = extract(loaded, messages)
    echo(f"wrote {display_path(target)} ({len(messages)} messages)")


@i18n_group.command("update")
@PACK_ARG
@option("--locale", dest="locales", repeat=True,
        help="language to update or add (repeatable; default: every one in game.yaml); a new "
             "one is added to game.yaml's locales:")
def i18n_update(pack: Path, locales: tuple[str, ...]) -> None:
    """Merge the current messages into the locales' PO files, as msgmerge does (new, fuzzy
    with the previous source text, obsolete)."""
    from generator.i18n import language_name, shown_locale, target_locales, update
    from generator.manifestedit import add_locale

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
    for path in update(loaded, _messages(loaded), list(dict.fromkeys(locales)) or None):
        echo(f"updated {display_path(path)}")


@i18n_group.command("status")
@PACK_ARG
@option("--format", dest="output_format", choices=["text", "json"], default="text")
@flag("-v", "--verbose", help="list every untranslated message")
def i18n_status(pack: Path, output_format: str, verbose: bool) -> None:
    """Per locale: translated, missing, fuzzy and obsolete messages, and what is missing by
    card kind and field."""
    import json

    from generator.i18n import status

    loaded = _loaded_pack(pack)
    rows = status(loaded, _messages(loaded))
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


@cli.command("schema")
@PACK_ARG
@option("--out", dest="out_dir", type=Path, default=None,
        help="folder to write to (default: PACK/schemas)")
def schema_command(pack: Path, out_dir: Path | None) -> None:
    """Write the JSON Schemas of PACK's game for editors (yaml-language-server)."""
    from generator.schemaexport import export_schemas

    load = load_pack(pack)
    if load.game is None:
        echo(render_text(load.findings), err=True)
        sys.exit(EXIT_FINDINGS)
    target = out_dir or pack / "schemas"
    try:
        written = export_schemas(load.game, target)
    except OSError as exc:
        raise UsageError(f"{display_path(target)}: cannot write schemas: "
                         f"{exc.strerror or exc}") from None
    for path in written:
        echo(display_path(path))
    from generator.schemaexport import modelines

    for what, line in modelines(pack, target):
        echo(f"add to the top of {what}:\n  {line}")


@cli.command("new")
@argument("folder", type=Path, help="the new game's folder (must not exist yet, or be empty)")
@option("--name", default=None, help="the game's name (default: made from FOLDER's name)")
def new_command(folder: Path, name: str | None) -> None:
    """Write a small, complete starter game defined in data into a new FOLDER."""
    import shlex

    from generator.newgame import write_starter

    pack, title, count = write_starter(folder, name)
    shown = display_path(folder)
    echo(f"wrote {shown}/ ({count} files): '{title}', pack id '{pack}'\n"
         f"next: read {shown}/README.md, then run  pnp validate {shlex.quote(shown)}")


@cli.command("rules")
@PACK_ARG
@option("--format", dest="output_format", choices=["text", "json"], default="text")
def rules_command(pack: Path, output_format: str) -> None:
    """List every rule PACK is checked against (code, scope, severity, cites, message)."""
    import json

    from generator.ruletable import render_rows, rule_rows

    load = load_pack(pack)
    if load.game is None:
        echo(render_text(load.findings), err=True)
        sys.exit(EXIT_FINDINGS)
    rows = rule_rows(load.game)
    if output_format == "json":
        echo(json.dumps({"game": load.game.name, "rules": [r.as_json() for r in rows]},
                        ensure_ascii=False, indent=2))
    else:
        echo(render_rows(rows))


def dispatch(words: list[str]) -> None:
    """Run one command line in this process, whatever it raises left to the caller (a usage
    error of the command line itself exits with status 2, as argparse does)."""
    command, arguments = parse(cli, words)
    command(**arguments)


def main(words: list[str] | None = None) -> None:
    """Run a command line (default: this process's own), ending in SystemExit with its exit
    status unless it ran clean."""
    try:
        _run(sys.argv[1:] if words is None else words)
    finally:
        # the process ends here: whatever it built is freed by the OS, not by the collector's
        # last pass over every object left (about 35 ms after a build of 178 cards)
        import gc

        gc.freeze()


def command() -> NoReturn:
    """The ``pnp`` command: :func:`main`, then the process ends without tearing the interpreter
    down. What Python's exit would do for the user is done first (exit handlers, the output
    streams flushed); what it would do only for itself (freeing every module and object one
    by one: 15-25 ms after a 178-card build, a twentieth of it) is left to the OS."""
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, int | None):
            print(exc.code, file=sys.stderr)  # as Python prints a non-integer exit value
    import atexit
    import contextlib

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe (pnp ... | head)
            stream.flush()
    os._exit(code)


def _run(words: list[str]) -> None:
    try:
        dispatch(words)
    except UsageError as exc:
        echo(f"pnp: error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    except FindingsError as exc:
        echo(render_text(exc.findings), err=True)
        sys.exit(EXIT_FINDINGS)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # an internal bug must still not dump a trace on a user
        if os.environ.get("PNP_DEBUG"):
            raise
        echo(f"pnp: internal error: {type(exc).__name__}: {exc} "
             "(run with PNP_DEBUG=1 for details and please report it)", err=True)
        sys.exit(EXIT_USAGE)


if __name__ == "__main__":
    command()
