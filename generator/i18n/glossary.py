"""A pack's glossary: the terms a translation must render with the forms the glossary gives.

``glossary.yaml`` lists, per term, its source-language words and the accepted forms in each
language. A form matches whole words, never a piece of a word: "ОС" (Оперативное соединение)
is satisfied by the word ОС, not by "основной" or "после". Languages that inflect or compound
mark where a word may go on with ``*``: "оперативн*" is any word that begins so
("оперативное", "оперативного"), "*tide" any word that ends so ("Springtide"). A form of several
words matches those words in a row, whatever spaces or hyphens stand between them. Case and the
letter ё (written е as often as not) are aside. The source term is matched the same way.

A base game's glossary applies to its expansions' catalogs too (when they are written in the
base's language): an expansion's texts use the game's terms.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

from msgspec import Struct

from generator.core.findings import Finding, error
from generator.core.limits import MAX_GLOSSARY_TERMS
from generator.load.packfiles import GLOSSARY_NAME, PackFolder
from generator.schema import check as schemacheck

_WORD = re.compile(r"\w+")
_TOKEN = re.compile(r"\{[^{}\s]*\}")  # an inline icon or placeholder is no word of the text
_JOIN = r"[\s\-\u2010-\u2015\u00ad]+"  # spaces, hyphens and dashes between a form's words


def folded(text: str) -> str:
    """Text as glossary forms compare it: case and ё aside, inline icons and placeholders
    (``{air-strike}``) blanked out."""
    return _TOKEN.sub(" ", text).casefold().replace("ё", "е")


def form_pattern(form: str) -> re.Pattern[str]:
    """The whole words ``form`` stands for, ``*`` at a word's start or end standing for the
    rest of a longer word (on :func:`folded` text)."""
    parts = []
    for word in folded(form).split():
        head, core, tail = word.startswith("*"), word.strip("*"), word.endswith("*")
        parts.append((r"\w*" if head else "") + re.escape(core) + (r"\w*" if tail else ""))
    return re.compile(rf"(?<!\w){_JOIN.join(parts)}(?!\w)")


class GlossaryTerm(Struct, frozen=True):
    source: str
    accepted: tuple[str, ...]
    pattern: re.Pattern[str]
    forms: tuple[re.Pattern[str], ...] = ()

    def rendered_in(self, translated: str) -> bool:
        """Whether ``translated`` holds one of the accepted forms (as whole words or stems)."""
        text = folded(translated)
        return any(form.search(text) for form in self.forms)


class Terms:
    """The glossary terms of one locale, indexed by their first word, so that checking a text
    costs its length, not the number of terms times the number of texts."""

    def __init__(self, terms: tuple[GlossaryTerm, ...] = ()) -> None:
        self.terms = terms
        self.by_word: dict[str, list[GlossaryTerm]] = {}
        self.wordless: list[GlossaryTerm] = []
        for term in terms:
            first = _WORD.match(folded(term.source).lstrip())
            if first is None or "*" in term.source:
                self.wordless.append(term)  # (a stem or no word: tried on every text)
            else:
                self.by_word.setdefault(first.group(), []).append(term)

    def __iter__(self) -> Iterator[GlossaryTerm]:
        return iter(self.terms)

    def __len__(self) -> int:
        return len(self.terms)

    def __add__(self, other: Terms) -> Terms:
        return Terms((*self.terms, *other.terms))

    def used_in(self, text: str) -> list[GlossaryTerm]:
        """Terms that occur in ``text`` as whole words (case-blind). A term that occurs only
        inside a longer one ("submarine" in "Anti-Submarine Warfare") is the longer one's
        business: the translation renders that one."""
        plain = folded(text)
        words = set(_WORD.findall(plain))
        candidates = [*self.wordless,
                      *(term for word in words for term in self.by_word.get(word, ()))]
        spans = {term: [m.span() for m in term.pattern.finditer(plain)]
                 for term in dict.fromkeys(candidates)}
        spans = {term: found for term, found in spans.items() if found}
        return [term for term, found in spans.items()
                if not all(_inside(span, term, spans) for span in found)]


def _inside(span: tuple[int, int], term: GlossaryTerm,
            spans: dict[GlossaryTerm, list[tuple[int, int]]]) -> bool:
    """Whether ``span`` of ``term`` lies within a longer match of another term."""
    start, end = span
    return any(other is not term and s <= start and end <= e and e - s > end - start
               for other, found in spans.items() for s, e in found)


class Glossary(Struct, frozen=True):
    """A pack's ``glossary.yaml``: its checked entries and what was wrong with the file."""

    entries: tuple[Mapping[str, object], ...] = ()
    findings: tuple[Finding, ...] = ()

    def terms(self, locale: str) -> Terms:
        """Terms that name forms for ``locale``."""
        terms = []
        for entry in self.entries:
            forms = entry.get(locale)
            # "source" names the source-language term when the pack is not written in English
            source = entry.get("source", entry.get("en"))
            if not forms or not isinstance(source, str):
                continue
            accepted = (forms,) if isinstance(forms, str) else tuple(map(str, forms))
            terms.append(GlossaryTerm(source, accepted, form_pattern(source),
                                      tuple(form_pattern(form) for form in accepted)))
        return Terms(tuple(terms))


@cache
def read_glossary(pack_root: Path) -> Glossary:
    """The pack's glossary, read under the pack file policy and checked against its schema;
    an absent file is an empty glossary, a broken one a finding."""
    folder = PackFolder(pack_root)
    file = folder.entry(GLOSSARY_NAME)
    if file is None:
        return Glossary()
    doc, findings = folder.load_yaml(file, "glossary")
    if doc is None:
        return Glossary(findings=tuple(findings))
    if not isinstance(doc.data, Mapping):
        return Glossary(findings=(error(
            "not-a-mapping", "a glossary is a mapping with a 'terms:' list, not "
            f"{schemacheck.describe_type(doc.data)}", doc.where(())),))
    problems = schemacheck.check(doc, "generator.schema", "glossary.schema.json")
    if problems:
        return Glossary(findings=tuple(problems))
    entries = tuple(doc.data["terms"])
    if len(entries) > MAX_GLOSSARY_TERMS:
        return Glossary(findings=(error(
            "too-many-terms", f"the glossary lists {len(entries)} terms; the limit is "
            f"{MAX_GLOSSARY_TERMS}", doc.where(("terms",))),))
    for index, entry in enumerate(entries):
        if not isinstance(entry.get("source", entry.get("en")), str):
            findings.append(error(
                "missing-field", "a glossary entry names its source-language term as "
                "'source:' (or 'en:' in an English pack)", doc.where(("terms", index))))
    return Glossary(entries, tuple(findings))


@cache
def load_glossary(pack_root: Path, locale: str) -> Terms:
    """Terms of ``glossary.yaml`` that name forms for ``locale`` (absent file: no terms);
    compiled once per pack and locale."""
    return read_glossary(pack_root).terms(locale)
