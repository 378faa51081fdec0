"""Findings: the one currency every check speaks, printed as text or as the JSON document.

A finding is never an exception: checks return lists of them so that a user sees every problem
of a pack in one run, not only the first.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from enum import StrEnum
from functools import cache
from pathlib import Path, PurePath
from typing import Any
from urllib.parse import quote

from msgspec import Struct

from generator.core.location import Location
from generator.core.terminal import printable


def did_you_mean(word: str, choices: list[str]) -> str:
    """The tail of a message that suggests the nearest known name: "; did you mean 'x'?"."""
    import difflib  # only a misspelt name needs it: not imported by every validate and build

    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.5)
    return f"; did you mean '{close[0]}'?" if close else ""


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class Finding(Struct, frozen=True, gc=False):
    severity: Severity
    code: str
    message: str
    location: Location
    card: str | None = None
    locale: str | None = None

    def as_text(self) -> str:
        extra = []
        if self.card:
            extra.append(f"card {self.card}")
        if self.locale:
            extra.append(f"locale {self.locale}")
        suffix = f" ({', '.join(extra)})" if extra else ""
        # a stranger's file names and texts: no control character reaches the terminal
        return printable(f"{self.location}: {self.severity}[{self.code}]: {self.message}"
                         f"{suffix}")

    def as_json(self) -> dict[str, object]:
        return {
            "severity": str(self.severity),
            "code": self.code,
            "message": self.message,
            "file": self.location.file,
            "line": self.location.line,
            "column": self.location.column,
            "card": self.card,
            "locale": self.locale,
        }


def error(code: str, message: str, location: Location, card: str | None = None,
          locale: str | None = None) -> Finding:
    return Finding(Severity.ERROR, code, message, location, card, locale)


def warning(code: str, message: str, location: Location, card: str | None = None,
            locale: str | None = None) -> Finding:
    return Finding(Severity.WARNING, code, message, location, card, locale)


def sort_key(finding: Finding) -> tuple[str, int, int, str]:
    loc = finding.location
    return (loc.file, loc.line, loc.column, finding.code)


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)


def summary(findings: list[Finding]) -> dict[str, int]:
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    return {"errors": errors, "warnings": len(findings) - errors}


def distinct(findings: Iterable[Finding]) -> list[Finding]:
    """Findings without repeats: a file refused while listing the pack and again when read
    (a broken catalog link) is one problem, reported once."""
    return list(dict.fromkeys(findings))


def render_text(findings: list[Finding]) -> str:
    findings = distinct(findings)
    lines = [f.as_text() for f in sorted(findings, key=sort_key)]
    counts = summary(findings)
    lines.append(f"{counts['errors']} error(s), {counts['warnings']} warning(s)")
    return "\n".join(lines)


def render_json(findings: list[Finding], extra_summary: dict[str, object] | None = None) -> str:
    findings = distinct(findings)
    doc_summary: dict[str, object] = dict(summary(findings))
    if extra_summary:
        doc_summary.update(extra_summary)
    doc = {
        "findings": [f.as_json() for f in sorted(findings, key=sort_key)],
        "summary": doc_summary,
    }
    return json.dumps(doc, ensure_ascii=False, indent=2)


SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
#: artifact URIs are relative to the folder the command ran in (or ``--sarif-root``); SARIF
#: readers (GitHub code scanning) resolve it to their checkout, so no path of this machine is
#: written
SARIF_ROOT = "%SRCROOT%"
#: the base of a file outside that folder: named by its folder and its name only (a path
#: climbing out of the root would spell this machine's folders)
SARIF_OUTSIDE = "OUTSIDE"


def _artifact(file: str, root: Path) -> dict[str, object]:
    """A finding's file relative to ``root``; a file outside it by its last two parts, against
    :data:`SARIF_OUTSIDE`."""
    path = Path(file)
    absolute = path if path.is_absolute() else Path.cwd() / path
    try:
        relative = PurePath(os.path.relpath(absolute, root))
    except ValueError:  # (another Windows drive)
        relative = PurePath(os.pardir, absolute.name)
    if relative.parts[:1] != (os.pardir,):
        return {"uri": quote(relative.as_posix()), "uriBaseId": SARIF_ROOT}
    return {"uri": quote(PurePath(*absolute.parts[-2:]).as_posix()), "uriBaseId": SARIF_OUTSIDE}


@cache
def _doc_places() -> dict[str, Any]:
    """Where docs/ explains each finding code (made from docs/ by tools/finding_docs.py)."""
    from importlib.resources import files  # (only SARIF needs it: not every command's import)

    return json.loads(files("generator.core").joinpath("finding_docs.json")
                      .read_text(encoding="utf-8"))


@cache
def docs_url() -> str | None:
    """The base URL of pnp's docs/ folder: the ``Documentation`` URL of pyproject.toml's
    ``[project.urls]``, as the installed package's metadata carries it."""
    from importlib import metadata  # (50 ms of imports: only SARIF needs it)

    try:
        urls = metadata.metadata("pnp-sheets").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip() == "Documentation":
            return url.strip().rstrip("/") + "/"
    return None


def help_place(code: str, game_rule: bool = False) -> str:
    """The page and section of docs/ that explain ``code`` (``limits.md#ceilings``): where the
    docs name it, else its game's rules page, the format of a data game's ``rules:`` for a rule
    a pack defines, else the pack format reference."""
    places = _doc_places()
    if code in places["codes"]:
        return places["codes"][code]
    game_page = places["rules pages"].get(code.partition("-")[0])
    if game_page is not None:
        return game_page
    return places["game rule"] if game_rule else places["other"]


def _sarif_result(finding: Finding, rule_index: int, root: Path) -> dict[str, object]:
    loc = finding.location
    physical: dict[str, object] = {"artifactLocation": _artifact(loc.file, root)}
    if loc.line > 0:
        physical["region"] = {"startLine": loc.line, "startColumn": max(loc.column, 1)}
    properties = {k: v for k, v in (("card", finding.card), ("locale", finding.locale)) if v}
    result: dict[str, object] = {
        "ruleId": finding.code, "ruleIndex": rule_index, "level": str(finding.severity),
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": physical}]}
    if properties:
        result["properties"] = properties
    return result


def render_sarif(findings: list[Finding], tool: str = "pnp",
                 rules: Mapping[str, str] | None = None, root: Path | None = None) -> str:
    """SARIF 2.1.0, the format code-scanning services (GitHub, GitLab, editors) read: one run,
    a rule per finding code with its description (``rules``: code -> what the game's check
    requires; else the first message of that code) and a ``helpUri`` into docs/, a result per
    finding at its file (relative to ``root``, by default the working folder), line and
    column."""
    root = (Path.cwd() if root is None else root).absolute()
    ordered = sorted(findings, key=sort_key)
    first: dict[str, Finding] = {}
    for finding in ordered:
        first.setdefault(finding.code, finding)
    codes = sorted(first)
    described = rules or {}
    base = docs_url()
    driver_rules = []
    for code in codes:
        text = described.get(code) or first[code].message
        place = help_place(code, game_rule=code in described)
        # a game's rule says what it requires; another check is told by its code, its page of
        # docs/ and the first message it gave (which names one case, not the rule)
        full = text if code in described else \
            f"pnp's check {code} (docs/{place}); first reported here as: {text}"
        rule: dict[str, object] = {
            "id": code, "name": code,
            "shortDescription": {"text": text}, "fullDescription": {"text": full},
            "help": {"text": text},
            "defaultConfiguration": {"level": str(first[code].severity)}}
        if base is not None:  # (an anchor may hold Cyrillic: a URI is ASCII, percent-encoded)
            rule["helpUri"] = base + quote(place, safe="/#")
        driver_rules.append(rule)
    index = {code: i for i, code in enumerate(codes)}
    from importlib import metadata

    try:
        version = metadata.version("pnp-sheets")
    except metadata.PackageNotFoundError:
        version = "0"
    run = {"tool": {"driver": {"name": tool, "version": version, "rules": driver_rules}},
           "originalUriBaseIds": {
               SARIF_ROOT: {"description": {"text": "the folder pnp ran in (or --sarif-root)"}},
               SARIF_OUTSIDE: {"description": {"text": "a folder outside it, not named here "
                                                        "(give --sarif-root to name it)"}}},
           "results": [_sarif_result(f, index[f.code], root) for f in ordered]}
    return json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]},
                      ensure_ascii=False, indent=2)
