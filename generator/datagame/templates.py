"""Templates of a game defined in data: read from the pack's ``templates/`` and checked there.

A designer's template is input like any card file, so every problem in it (bad YAML, an unknown
element type or property, a colour the palette lacks, a font nobody declared, a condition that
is not CEL, a placeholder no kind has, rich text that is not well formed) is a finding located in
the template file (or the template it extends), found when the pack is validated rather than
when a sheet is half drawn.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType

import msgspec

from generator.core.findings import Finding, did_you_mean, error
from generator.core.location import Location
from generator.datagame.cards import IMPLIED_FIELDS
from generator.datagame.rules import field_values, impossible_values
from generator.layout.engine import PLACEHOLDER, text_angle
from generator.layout.icons import icon_refusals
from generator.layout.richtext import colors_named, parse
from generator.load.art import ArtProblem, art_info, resolve
from generator.load.fonts import FONT_FILES
from generator.load.packfiles import PackFolder
from generator.load.yamldoc import YamlDocument
from generator.model.template import PLAIN_NAME, Element, Template, TemplateError, read_template
from generator.rules.cel import (
    MAX_COST,
    CelProblem,
    Expression,
    compile_expression,
    reads,
    unknown_functions,
)
from generator.rules.celtree import compared_literals, estimate_cost
from generator.schema.check import shown_value

_ICON = re.compile(r"\{icon-([a-z0-9][a-z0-9-]*)\}")
COLOR_PROPS = ("fill", "stroke", "color")
_HEX = re.compile(r"#[0-9A-Fa-f]{6}")
#: colour names a placeholder may give, checked when the template is read (enum fields only)
_MAX_COLOR_COMBINATIONS = 1000
WIDGETS = frozenset({"set_mark"})
FITS = frozenset({"cover", "contain", "fill"})
#: values every face has besides the card's fields: ``{number}`` and ``{total}`` count the
#: cards of its kind (generator.layout.faces.card_numbers)
PAGE_VALUES = frozenset({"id", "kind", "count", "set_mark", "set_mark_label", "number",
                         "total"})


class TemplateScope(msgspec.Struct, frozen=True):
    """What a template may refer to: fields of the kinds drawn with it, colours, fonts, icons."""

    game: str
    root: Path
    fields: frozenset[str]
    palette: Mapping[str, str]
    fonts: Mapping[str, str]  # font name in templates -> style name (built-in or pack file)
    icons: frozenset[str]
    #: field -> its schema in each kind drawn with the template (to check colour placeholders)
    field_schemas: Mapping[str, tuple[Mapping[str, object], ...]] = {}
    translatable: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()  # the kinds drawn with the template
    game_kinds: frozenset[str] = frozenset()  # every kind of the game
    #: False when a kind drawn here has a schema whose properties cannot be read (reported
    #: there): its fields are unknown, so placeholders and conditions are not checked
    fields_known: bool = True


def is_color(value: str, palette: Mapping[str, str]) -> bool:
    return value == "none" or bool(_HEX.fullmatch(value)) or value in palette


def _palette_names(scope: TemplateScope) -> str:
    return ", ".join(sorted(scope.palette))


def _check_color(value: object, scope: TemplateScope) -> str | None:
    if isinstance(value, Mapping):  # a gradient (its form is the vocabulary's to check)
        for color in value.get("linear") or ():
            problem = _check_color(color, scope)
            if problem:
                return problem
        return None
    if value is None or not isinstance(value, str):
        return None if value is None else f"colour {value!r} is not a name or #rrggbb"
    if "{" in value:
        return _check_color_placeholders(value, scope)
    if is_color(value, scope.palette):
        return None
    return (f"unknown colour '{value}'; the palette has: {_palette_names(scope)}"
            f"{did_you_mean(value, sorted(scope.palette))}")


def _choices(schemas: tuple[Mapping[str, object], ...]) -> list[str] | None:
    """Every value a field can take when each kind's schema lists them (enum/const)."""
    values: list[str] = []
    for schema in schemas:
        if "const" in schema:
            values.append(str(schema["const"]))
        elif isinstance(schema.get("enum"), list):
            values += [str(v) for v in schema["enum"]]
        else:
            return None
    return list(dict.fromkeys(values))


def _check_color_placeholders(value: str, scope: TemplateScope) -> str | None:
    """``fill: "{school}"``: the fields must exist and not be translated; where every field is
    an enum, each colour it can give must be in the palette (cards are checked one by one too)."""
    problems = _check_text(value, scope)
    if problems:
        return problems[0]
    names = list(dict.fromkeys(PLACEHOLDER.findall(value)))
    translated = [n for n in names if n in scope.translatable]
    if translated:
        return (f"colour '{value}' reads the translated field '{translated[0]}'; a colour "
                "must come from a field that is the same in every language")
    choices = [_choices(scope.field_schemas.get(n, ())) for n in names]
    if not names or any(c is None for c in choices):
        return None
    combos = itertools.islice(itertools.product(*choices), _MAX_COLOR_COMBINATIONS)
    for combo in combos:
        filled = value
        for name, choice in zip(names, combo, strict=True):
            filled = filled.replace(f"{{{name}}}", choice)
        if not is_color(filled, scope.palette):
            given = ", ".join(f"{n} '{c}'" for n, c in zip(names, combo, strict=True))
            return (f"colour '{value}' gives '{filled}' for {given}, which is not in the "
                    f"palette; the palette has: {_palette_names(scope)}")
    return None


def _check_text(text: str, scope: TemplateScope) -> list[str]:
    if not scope.fields_known:
        return []
    known = sorted(scope.fields | PAGE_VALUES)
    problems = [f"placeholder '{{{name}}}' names no field of the kinds drawn with this template"
                f"{did_you_mean(name, known)}"
                for name in PLACEHOLDER.findall(text)
                if name not in scope.fields and name not in PAGE_VALUES]
    problems += [f"icon '{{icon-{name}}}': {''.join(missing_icon(name, scope.root, scope.icons))}"
                 for name in _ICON.findall(text) if name not in scope.icons]
    return problems


def missing_icon(name: str, root: Path, icons: Iterable[str]) -> tuple[str, str]:
    """(why ``{icon-<name>}`` draws nothing, a did-you-mean): its file cannot be drawn and why
    (a dangling link, a named pipe, not a readable SVG...), or there is no such file."""
    refused = icon_refusals(root).get(name)
    if refused is not None:
        return refused, ""
    return (f"no file icons/{name}.svg",
            did_you_mean(f"{{icon-{name}}}", sorted(f"{{icon-{i}}}" for i in icons)))


def _condition_problems(expression: Expression, scope: TemplateScope) -> list[str]:
    """A ``when:``/``unless:`` sees the card (``self``) and its fields by their bare names: a
    name no kind drawn here has, a function CEL lacks, or a value no card can have
    (``kind == 'legnd'``), would silently hide or show the element on every card."""
    problems = unknown_functions(expression)
    cost = estimate_cost(expression.tree, {})
    if cost > MAX_COST:
        problems.append(f"the condition would take about {cost:,} steps; the limit is "
                        f"{MAX_COST:,}")
    if not scope.fields_known:
        return problems
    fields = scope.fields | set(IMPLIED_FIELDS)
    known = sorted(fields | {"self"})
    facts = reads(expression)
    problems += [f"unknown name '{n}'{did_you_mean(n, known)}"
                 for n in sorted(facts.names - fields - {"self"})]
    problems += [f"unknown field '{n}'{did_you_mean(n, sorted(fields))}"
                 for v, n in sorted(facts.fields) if v == "self" and n not in fields]

    def values_of(variable: str, name: str) -> frozenset[str] | None:
        if variable not in {"self", ""}:
            return None
        if name == "kind":
            return scope.kinds or None
        schemas = scope.field_schemas.get(name, ())
        found = [field_values(s) for s in schemas]
        if not found or any(v is None for v in found):
            return None
        return frozenset().union(*[v for v in found if v is not None])

    return problems + impossible_values(compared_literals(expression.tree), values_of,
                                        scope.game_kinds, "this template draws")


#: numeric properties the layout engine reads, with their range: a text size of 10^9 pt would
#: make text fitting try two billion sizes, a word where a number goes stopped the layout
NUMBER_PROPS = {"size": (1.0, 300.0, "pt"), "min_size": (1.0, 300.0, "pt"),
                "stroke_width": (0.0, 20.0, "pt"), "radius": (0.0, 200.0, "mm")}


def _number_problems(element: Element) -> list[tuple[str, str]]:
    problems = []
    for prop, (low, high, unit) in NUMBER_PROPS.items():
        value = element.get(prop)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not low <= value <= high:
            problems.append((prop, f"{prop} is {shown_value(value)}; it must be a number from "
                             f"{low:g} to {high:g} ({unit})"))
    return problems


def _element_problems(element: Element, scope: TemplateScope) -> list[tuple[str, str]]:
    """(property, problem) pairs of one element."""
    problems: list[tuple[str, str]] = _number_problems(element)
    for prop, color in color_props(element):
        problem = _check_color(color, scope)
        if problem:
            problems.append((prop, problem))
    font = element.get("font")
    if font is not None and str(font) not in scope.fonts:
        problems.append(("font", f"unknown font '{font}'; known: "
                         f"{', '.join(sorted(scope.fonts))}"
                         f"{did_you_mean(str(font), sorted(scope.fonts))}"))
    for prop in ("when", "unless"):
        condition = element.get(prop)
        if condition is None or PLAIN_NAME.fullmatch(str(condition)):
            continue
        try:
            expression = compile_expression(str(condition))
        except CelProblem as problem:
            problems.append((prop, problem.message))
            continue
        problems += [(prop, p) for p in _condition_problems(expression, scope)]
    if element.type == "text":
        try:
            text_angle(element.get("rotate", 0))
        except TemplateError as problem:
            problems.append(("rotate", str(problem)))
        for prop in ("text", "label"):
            if element.get(prop) is not None:
                problems += [(prop, p) for p in _check_text(str(element.get(prop)), scope)]
                problems += [(prop, p) for p in markup_problems(str(element.get(prop)),
                                                                  scope.palette)]
    if element.type == "qr" and isinstance(element.get("data"), str):
        problems += [("data", p) for p in _check_text(str(element.get("data")), scope)]
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
        colors = element.get("colors")
        if colors is not None and not isinstance(colors, Mapping):
            problems.append(("colors", "colors maps a colour of the SVG (\"#rrggbb\") to a "
                             "palette colour"))
        for source, target in (colors or {}).items() if isinstance(colors, Mapping) else ():
            if not isinstance(source, str) or not _HEX.fullmatch(source):
                problems.append(("colors", f"{source!r} is not a colour of the SVG as "
                                 "\"#rrggbb\""))
            problem = _check_color(target, scope)
            if problem:
                problems.append(("colors", problem))
        if str(element.get("fit", "cover")) not in FITS:
            problems.append(("fit", f"fit is {element.get('fit')!r}; expected cover, contain "
                             "or fill"))
    return problems


def markup_problems(text: str, palette: Mapping[str, str]) -> list[str]:
    """What is wrong with a template text's rich text: its tags, and the colours its
    ``<font color>`` names (the palette's or #rrggbb)."""
    problems = list(parse(text).problems)
    for color in colors_named(text):
        if not is_color(color, palette) or color == "none":
            problems.append(f"<font color=\"{color}\">: unknown colour '{color}'; the palette "
                            f"has: {', '.join(sorted(palette))}"
                            f"{did_you_mean(color, sorted(palette))}")
    return problems


def color_props(element: Element) -> list[tuple[str, object]]:
    """(property, colour) of every colour an element paints with; a widget's is in options,
    a gradient's are each of its colours."""
    found: list[tuple[str, object]] = []
    for prop in COLOR_PROPS:
        value = element.get(prop)
        if isinstance(value, Mapping):
            found += [(prop, color) for color in value.get("linear") or ()]
        elif value is not None:
            found.append((prop, value))
    options = element.get("options")
    if element.type == "widget" and isinstance(options, Mapping) and "color" in options:
        found.append(("options.color", options["color"]))
    return found


def _with_fonts(template: Template, scope: TemplateScope) -> Template:
    """Font names of the pack become the style names the renderer registers; a pack's own
    font prints rich text's bold and italic in the pack's fonts named ``<font>-bold``,
    ``<font>-italic`` and ``<font>-bold-italic`` where it has them (else PT Sans's)."""
    elements = []
    for element in template.elements:
        font = element.get("font")
        if font is not None and str(font) in scope.fonts:
            props = dict(element.props)
            props["font"] = scope.fonts[str(font)]
            if str(font) not in FONT_FILES:
                props["font_variants"] = (scope.fonts[str(font)], *(
                    scope.fonts.get(f"{font}-{variant}", variant)
                    for variant in ("bold", "italic", "bold-italic")))
            element = msgspec.structs.replace(element, props=MappingProxyType(props))
        elements.append(element)
    return msgspec.structs.replace(template, elements=tuple(elements))


def load_data_template(path: Path, name: str, scope: TemplateScope
                       ) -> tuple[Template | None, list[Finding]]:
    """Read and check one template of a data game (and those it extends, in its folder)."""
    folder = PackFolder(path.parent.parent)  # <pack>/templates/<name>.yaml: a pack file

    def load(file: Path) -> tuple[YamlDocument | None, list[Finding]]:
        return folder.load_yaml(folder.file_at(file), "template")

    template, findings = read_template(path, scope.game, load=load)
    if template is None:
        return None, findings
    for element in template.elements:
        for prop, problem in _element_problems(element, scope):
            findings.append(error("bad-template", problem,
                                  element.where(prop) or Location(template.file)))
    return _with_fonts(template, scope), findings


def builtin_fonts() -> dict[str, str]:
    return {style: style for style in FONT_FILES}
