"""Rich text inside any card text, label or translation: ``<b>``, ``<i>``, ``<u>`` and
``<font color="NAME">`` (a palette name or ``#rrggbb``), nestable, with ``&lt;`` ``&gt;``
``&amp;`` for the signs themselves.

A text is parsed into segments of one style each; text fitting measures and breaks them (a
word may change style in its middle and still hyphenate), and the layout draws each segment in
its own font and colour. The markup is deliberately small and strict, as a translator's tool
checks it (pofilter's xmltags): a tag that is not closed, closed out of order or not known, and
a ``<`` that starts no tag, are problems the caller reports at the text's place; the text still
prints, with what could be understood. A bare ``&`` that starts no entity is the sign itself.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from msgspec import Struct

TAGS = ("b", "i", "u", "font")
#: a tag: ``<b>``, ``</b>``, ``<font color="ink">``; group 1 is the slash, 2 the name, 3 the rest
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)((?:\s+[^<>]*)?)\s*>")
_COLOR_ATTRIBUTE = re.compile(r"""\s+color\s*=\s*(?:"([^"<>]*)"|'([^'<>]*)')\s*""")
_ENTITIES = {"&lt;": "<", "&gt;": ">", "&amp;": "&"}
_ENTITY = re.compile(r"&(?:lt|gt|amp);")
_SPECIAL = re.compile(r"[<&]")


class Style(Struct, frozen=True, gc=False):
    """How a segment prints, besides the element's own font, size and colour."""

    bold: bool = False
    italic: bool = False
    underline: bool = False
    #: a palette name or ``#rrggbb`` from ``<font color>``; None: the element's colour
    color: str | None = None


class Markup(Struct, frozen=True, gc=False):
    """A parsed text: (text, style) segments in order, and what was wrong with the markup.
    A segment's style is None where no tag applies (what a text without markup is)."""

    segments: tuple[tuple[str, Style | None], ...]
    problems: tuple[str, ...] = ()

    @property
    def plain(self) -> str:
        """The text without its tags, entities read."""
        return "".join(text for text, _ in self.segments)


def has_markup(text: str) -> bool:
    """Whether ``text`` may hold tags or entities (most card texts do not: they take the
    plain path of text fitting, unchanged)."""
    return _SPECIAL.search(text) is not None


def _decoded(text: str) -> str:
    return _ENTITY.sub(lambda m: _ENTITIES[m.group(0)], text) if "&" in text else text


@lru_cache(maxsize=8192)
def parse(text: str) -> Markup:
    """Segments and problems of ``text`` (remembered: the same rules text is on many cards)."""
    if not has_markup(text):
        return Markup(((text, None),) if text else ())
    segments: list[tuple[str, Style | None]] = []
    problems: list[str] = []
    open_tags: list[tuple[str, Style]] = []  # (tag name, the style inside it)

    def add(chunk: str) -> None:
        if not chunk:
            return
        style = open_tags[-1][1] if open_tags else None
        if "<" in chunk:
            problems.append("a '<' that starts no tag; write &lt; for the sign itself")
        chunk = _decoded(chunk)
        if segments and segments[-1][1] == style:
            segments[-1] = (segments[-1][0] + chunk, style)
        else:
            segments.append((chunk, style))

    position = 0
    for match in _TAG.finditer(text):
        add(text[position:match.start()])
        position = match.end()
        closing, name, rest = match.group(1), match.group(2), match.group(3)
        if name not in TAGS:
            problems.append(f"unknown tag {match.group(0)}; rich text knows <b>, <i>, <u> and "
                            "<font color=\"...\"> (write &lt; for the sign itself)")
            continue
        if closing:
            if not open_tags or open_tags[-1][0] != name:
                opened = f"<{open_tags[-1][0]}> is still open" if open_tags else \
                    "no tag is open"
                problems.append(f"</{name}> closes nothing here ({opened})")
                continue
            open_tags.pop()
            continue
        outer = open_tags[-1][1] if open_tags else Style()
        style, problem = _inside(name, rest, outer)
        if problem is not None:
            problems.append(problem)
        open_tags.append((name, style))
    add(text[position:])
    problems += [f"<{name}> is not closed" for name, _ in reversed(open_tags)]
    return Markup(tuple(segments), tuple(dict.fromkeys(problems)))


def _inside(name: str, rest: str, outer: Style) -> tuple[Style, str | None]:
    """The style inside an opening tag ``name`` (with its attributes ``rest``)."""
    if name == "font":
        found = _COLOR_ATTRIBUTE.fullmatch(rest)
        if found is None:
            return outer, (f"<font{rest}>: a font tag takes one attribute, color=\"NAME\" "
                           "(a palette name or #rrggbb)")
        color = found.group(1) if found.group(1) is not None else found.group(2)
        return Style(outer.bold, outer.italic, outer.underline, color.strip()), None
    problem = f"<{name}{rest}>: <{name}> takes no attributes" if rest.strip() else None
    if name == "b":
        return Style(True, outer.italic, outer.underline, outer.color), problem
    if name == "i":
        return Style(outer.bold, True, outer.underline, outer.color), problem
    return Style(outer.bold, outer.italic, True, outer.color), problem


def colors_named(text: str) -> list[str]:
    """The colours the text's ``<font color>`` tags name, in order, each once."""
    if not has_markup(text):
        return []
    return list(dict.fromkeys(style.color for _, style in parse(text).segments
                              if style is not None and style.color is not None))


def tags_of(text: str) -> Counter[str]:
    """The tags of ``text`` as written (attributes normalised), counted: what a translation
    must keep."""
    found: Counter[str] = Counter()
    for match in _TAG.finditer(text):
        closing, name, rest = match.group(1), match.group(2), match.group(3)
        attribute = _COLOR_ATTRIBUTE.fullmatch(rest) if name == "font" and not closing else None
        if attribute is not None:
            color = attribute.group(1) if attribute.group(1) is not None else attribute.group(2)
            found[f'<font color="{color.strip()}">'] += 1
        else:
            found[f"<{closing}{name}{' ' + rest.strip() if rest.strip() else ''}>"] += 1
    return found


def _in_order(tags: Iterable[str]) -> list[str]:
    """Tags by name, each opening tag before its closing one: ``<b> </b> <i> </i>``."""
    return sorted(tags, key=lambda tag: (tag.strip("</>").split(" ")[0], tag.startswith("</"),
                                         tag))


def tags_differ(source: str, translation: str) -> str | None:
    """Why ``translation`` does not keep the rich-text tags of ``source`` (the same tags, as
    many times each, properly nested; their order may change with the words), or None."""
    if not (has_markup(source) or has_markup(translation)):
        return None
    wanted, given = tags_of(source), tags_of(translation)
    if wanted != given:
        missing = _in_order((wanted - given).elements())
        extra = _in_order((given - wanted).elements())
        parts = []
        if missing:
            parts.append(f"lacks {' '.join(missing)}")
        if extra:
            parts.append(f"adds {' '.join(extra)}")
        return f"the translation {' and '.join(parts)} (the source has " \
               f"{' '.join(_in_order(wanted.elements())) or 'no tags'})"
    problems = parse(translation).problems
    if problems and not parse(source).problems:
        return f"the translation's tags are not well formed: {problems[0]}"
    return None
