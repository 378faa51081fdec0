"""Templates of a game defined in data: read from the pack's ``templates/`` and checked there.

A designer's template is input like any card file, so every problem in it (bad YAML, an unknown
element type, a colour the palette lacks, a font nobody declared, a condition that is not CEL, a
placeholder no kind has) is a finding located in the template file, found when the pack is
validated rather than when a sheet is half drawn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

from generator.art import ArtProblem, art_info, resolve
from generator.cel import CelProblem, compile_expression
from generator.findings import Finding, error
from generator.fonts import FONT_FILES
from generator.layout.engine import text_angle
from generator.layout.template import PLAIN_NAME, Element, Template, TemplateError, parse_template
from generator.location import Location
from generator.packfiles import PackFolder
from generator.yamlsource import YamlDocument

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_ICON = re.compile(r"\{icon-([a-z0-9][a-z0-9-]*)\}")
_COLOR_PROPS = ("fill", "stroke", "color")
_HEX = re.compile(r"#[0-9A-Fa-f]{6}")
WIDGETS = frozenset({"set_mark"})
FITS = frozenset({"cover", "contain", "fill"})
PAGE_VALUES = frozenset({"id", "kind", "count", "set_mark", "set_mark_label"})


@dataclass(frozen=True, slots=True)
class TemplateScope:
    """What a template may refer to: fields of the kinds drawn with it, colours, fonts, icons."""

    game: str
    root: Path
    fields: frozenset[str]
    palette: Mapping[str, str]
    fonts: Mapping[str, str]  # font name in templates -> style name (built-in or pack file)
    icons: frozenset[str]


def _check_color(value: object, scope: TemplateScope) -> str | None:
    if value is None or not isinstance(value, str):
        return None if value is None else f"colour {value!r} is not a name or #rrggbb"
    if value == "none" or _HEX.fullmatch(value) or "{" in value or value in scope.palette:
        return None
    return f"unknown colour '{value}'; the palette has: {', '.join(sorted(scope.palette))}"


def _check_text(text: str, scope: TemplateScope) -> list[str]:
    problems = [f"placeholder '{{{name}}}' names no field of the kinds drawn with this template"
                for name in _PLACEHOLDER.findall(text)
                if name not in scope.fields and name not in PAGE_VALUES]
    problems += [f"icon '{{icon-{name}}}' has no file icons/{name}.svg"
                 for name in _ICON.findall(text) if name not in scope.icons]
    return problems


def _element_problems(element: Element, scope: TemplateScope) -> list[tuple[str, str]]:
    """(property, problem) pairs of one element."""
    problems: list[tuple[str, str]] = []
    for prop in _COLOR_PROPS:
        problem = _check_color(element.get(prop), scope)
        if problem:
            problems.append((prop, problem))
    font = element.get("font")
    if font is not None and str(font) not in scope.fonts:
        problems.append(("font", f"unknown font '{font}'; known: "
                         f"{', '.join(sorted(scope.fonts))}"))
    for prop in ("when", "unless"):
        condition = element.get(prop)
        if condition is None or PLAIN_NAME.fullmatch(str(condition)):
            continue
        try:
            compile_expression(str(condition))
        except CelProblem as problem:
            problems.append((prop, problem.message))
    if element.type == "text":
        try:
            text_angle(element.get("rotate", 0))
        except TemplateError as problem:
            problems.append(("rotate", str(problem)))
        for prop in ("text", "label"):
            if element.get(prop) is not None:
                problems += [(prop, p) for p in _check_text(str(element.get(prop)), scope)]
    if element.type == "widget" and str(element.get("widget")) not in WIDGETS:
        problems.append(("widget", f"unknown widget '{element.get('widget')}'; a game defined "
                         f"in data has: {', '.join(sorted(WIDGETS))}"))
    if element.type == "image":
        src = element.get("src")
        if not isinstance(src, str) or not src:
            problems.append(("src", "an image needs src: a file of the pack or \"{field}\""))
        elif "{" in src:
            problems += [("src", p) for p in _check_text(src, scope)]
        else:
            try:
                art_info(resolve(scope.root, src))
            except ArtProblem as problem:
                problems.append(("src", problem.message))
        if str(element.get("fit", "cover")) not in FITS:
            problems.append(("fit", f"fit is {element.get('fit')!r}; expected cover, contain "
                             "or fill"))
    return problems


def _with_fonts(template: Template, scope: TemplateScope) -> Template:
    """Font names of the pack become the style names the renderer registers."""
    elements = []
    for element in template.elements:
        font = element.get("font")
        if font is not None and str(font) in scope.fonts:
            props = dict(element.props)
            props["font"] = scope.fonts[str(font)]
            element = replace(element, props=MappingProxyType(props))
        elements.append(element)
    return replace(template, elements=tuple(elements))


def load_data_template(path: Path, name: str, scope: TemplateScope
                       ) -> tuple[Template | None, list[Finding]]:
    """Read and check one template of a data game."""
    folder = PackFolder(path.parent.parent)  # <pack>/templates/<name>.yaml: a pack file
    doc, findings = folder.load_yaml(folder.file_at(path), "template")
    if doc is None:
        return None, findings
    template, problems = parse_template(doc.data, scope.game, name, doc.file, doc.where)
    findings += problems
    if template is None:
        return None, findings
    for element in template.elements:
        for prop, problem in _element_problems(element, scope):
            findings.append(error("bad-template", problem, _where(doc, element, prop)))
    return _with_fonts(template, scope), findings


def _where(doc: YamlDocument, element: Element, prop: str) -> Location:
    return doc.where(("elements", element.index, prop))


def builtin_fonts() -> dict[str, str]:
    return {style: style for style in FONT_FILES}
