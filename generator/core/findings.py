"""Findings: the one currency every check speaks, printed as text or as the JSON document.

A finding is never an exception: checks return lists of them so that a user sees every problem
of a pack in one run, not only the first.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from enum import StrEnum
from pathlib import Path, PurePath
from urllib.parse import quote

from msgspec import Struct

from generator.core.location import Location


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
        return f"{self.location}: {self.severity}[{self.code}]: {self.message}{suffix}"

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
#: artifact URIs are relative to the folder the command ran in
SARIF_ROOT = "%SRCROOT%"


def _artifact(file: str) -> dict[str, object]:
    path = PurePath(file)
    if path.is_absolute():
        return {"uri": Path(file).as_uri()}
    return {"uri": quote(path.as_posix()), "uriBaseId": SARIF_ROOT}


def _sarif_result(finding: Finding, rule_index: int) -> dict[str, object]:
    loc = finding.location
    physical: dict[str, object] = {"artifactLocation": _artifact(loc.file)}
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
                 rules: Mapping[str, str] | None = None) -> str:
    """SARIF 2.1.0, the format code-scanning services (GitHub, GitLab, editors) read: one run,
    a rule per finding code with its help text (``rules``: code -> what the check requires;
    else the first message of that code), a result per finding at its file, line and column."""
    ordered = sorted(findings, key=sort_key)
    first: dict[str, Finding] = {}
    for finding in ordered:
        first.setdefault(finding.code, finding)
    codes = sorted(first)
    described = rules or {}
    driver_rules = []
    for code in codes:
        text = described.get(code) or first[code].message
        driver_rules.append({
            "id": code, "name": code,
            "shortDescription": {"text": text},
            "help": {"text": text},
            "defaultConfiguration": {"level": str(first[code].severity)}})
    index = {code: i for i, code in enumerate(codes)}
    from importlib import metadata

    try:
        version = metadata.version("pnp-sheets")
    except metadata.PackageNotFoundError:
        version = "0"
    run = {"tool": {"driver": {"name": tool, "version": version, "rules": driver_rules}},
           "originalUriBaseIds": {SARIF_ROOT: {"uri": Path.cwd().as_uri() + "/"}},
           "results": [_sarif_result(f, index[f.code]) for f in ordered]}
    return json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]},
                      ensure_ascii=False, indent=2)
