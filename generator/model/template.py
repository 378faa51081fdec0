"""Declarative card templates (``<folder>/<name>.yaml``) and their palette.

A template is a list of elements drawn in order, each in card millimetres: shapes (``rect``,
``ellipse``, ``polygon``, ``line``), ``text`` (with ``{value}`` placeholders or a translatable
``label``, rich text inside), ``image`` (raster or SVG art), ``qr`` codes and ``widget`` (a
named drawing function of the game module, e.g. weapon platforms). ``when``/``unless`` name a
true/false face value or hold a CEL condition, so one template serves every variant of a card
kind; ``extends:`` builds a template on another of its folder, overriding its named elements.

The vocabulary is strict: a property an element's type does not take is an error at its line,
with the nearest known name, for built-in and data games alike.

A game's templates live in one folder: ``templates/<game>/`` for a built-in game, the pack's own
``templates/`` for a game defined in data (registered with :func:`register_template_folder`).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

from msgspec import Struct

from generator.core.findings import Finding, did_you_mean, error
from generator.core.location import Location
from generator.core.records import PartlyCompared
from generator.load.packfiles import load_user_yaml
from generator.load.parsecache import safe_load
from generator.load.yamldoc import YamlDocument
from generator.runtime.resources import builtin_game_templates, builtin_template_file

_FOLDERS: dict[str, Path] = {}
_ENUM_LABELS: dict[str, Mapping[str, tuple[str, Location]]] = {}
#: a ``when:`` that is a bare name reads a face value; anything else is a CEL expression
PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def register_template_folder(game: str, folder: Path) -> None:
    """A game defined in data keeps its templates (and labels.yaml) in its pack folder."""
    _FOLDERS[game] = folder


def register_enum_labels(game: str, labels: Mapping[str, tuple[str, Location]]) -> None:
    """A data game's ``x-labels``: label key -> (printed source text, where it is written),
    read with the template labels (catalogs, label translations)."""
    _ENUM_LABELS[game] = MappingProxyType(dict(labels))


def enum_labels(game: str) -> Mapping[str, tuple[str, Location]]:
    """The ``x-labels`` of a data game's kinds (empty for a built-in game)."""
    return _ENUM_LABELS.get(game, MappingProxyType({}))


def data_template_folder(game: str) -> Path | None:
    """The pack's template folder of a game defined in data (None for a built-in game)."""
    return _FOLDERS.get(game)


def template_folder(game: str) -> Path:
    """The folder holding a game's templates, palette.yaml and labels.yaml."""
    return _FOLDERS.get(game) or builtin_game_templates(game)


class TemplateError(Exception):
    """A template file that cannot be used (a developer's or designer's mistake)."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.location = location


class Element(PartlyCompared, Struct, frozen=True):
    """One drawing element of a template; where it is written is no part of what it draws
    (left out of equality and hash)."""

    type: str
    box: tuple[float, float, float, float]
    props: Mapping[str, object] = {}
    location: Location | None = None
    #: position in its template's ``elements:`` list (for locating its properties)
    index: int = -1
    #: where each property was written: an element a template inherits (``extends:``) keeps
    #: the places in its parent's file
    places: Mapping[str, Location] = {}

    _UNCOMPARED = frozenset({"location", "index", "places"})

    def get(self, name: str, default: object = None) -> object:
        return self.props.get(name, default)

    def where(self, prop: str) -> Location | None:
        """Where ``prop`` (``options.color``: a widget's option) was written, else the
        element."""
        return self.places.get(prop) or self.places.get(prop.split(".")[0], self.location)


class Template(Struct, frozen=True, gc=False):
    game: str
    name: str
    width_mm: float
    height_mm: float
    elements: tuple[Element, ...]
    #: True when no element depends on the card: one drawing serves every card (shared backs)
    shared: bool
    file: str = ""
    #: where ``size_mm`` was written (this file or the template it extends)
    size_location: Location | None = None


# The element vocabulary (docs/format.md documents each): what every element takes, and what
# each type takes besides. A property outside it is an error at its line, never ignored: a
# typo (``alignn``) or a property of another type (``stroke`` on a text) would print a card
# that looks almost right.
COMMON_PROPS: tuple[str, ...] = ("type", "box", "name", "when", "unless", "opacity")
ELEMENT_PROPS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "rect": ("fill", "stroke", "stroke_width", "radius", "bleed"),
    "ellipse": ("fill", "stroke", "stroke_width", "bleed"),
    "polygon": ("points", "fill", "stroke", "stroke_width"),
    "line": ("stroke", "stroke_width"),
    "text": ("text", "label", "font", "size", "min_size", "align", "valign", "color",
             "hyphenate", "field", "upper", "rotate"),
    "image": ("src", "fit", "color", "colors", "bleed", "mask", "radius"),
    "qr": ("data", "color"),
    "widget": ("widget", "options"),
})
ELEMENT_TYPES: tuple[str, ...] = tuple(ELEMENT_PROPS)
TEMPLATE_KEYS = ("size_mm", "elements", "shared", "extends")
#: shapes that paint an area, whose ``fill`` may be a gradient
FILLED = frozenset({"rect", "ellipse", "polygon"})
MASKS = ("rounded", "ellipse")
MAX_GRADIENT_COLORS = 8
MAX_POINTS = 200
#: ``extends:`` names a template of the same folder by its file name
_TEMPLATE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
DEFAULT_SIZE_MM = (63.5, 88.9)

Where = Callable[[tuple[str | int, ...]], Location]


def _number_box(raw: object) -> tuple[float, float, float, float] | None:
    if not (isinstance(raw, list | tuple) and len(raw) == 4):
        return None
    if not all(_is_number(v) for v in raw):
        return None
    x, y, w, h = (float(v) for v in raw)
    if w < 0 or h < 0 or max(abs(x), abs(y), w, h) > 1000:
        return None
    return x, y, w, h


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value)


def unknown_property(key: object, element_type: str) -> str:
    """Why ``key`` is not a property of an ``element_type`` element, with the nearest name."""
    takes = sorted({*COMMON_PROPS, *ELEMENT_PROPS[element_type]} - {"type"})
    known = sorted({p for props in ELEMENT_PROPS.values() for p in props} | set(COMMON_PROPS))
    if key in known:
        return (f"a{'n' if element_type[0] in 'aeiou' else ''} {element_type} element does "
                f"not take '{key}' (it takes: {', '.join(takes)})")
    return f"unknown property '{key}' of a {element_type} element{did_you_mean(str(key), takes)}"


def gradient_problem(value: object) -> str | None:
    """Why a ``fill`` mapping is not a gradient ``{linear: [COLOR, COLOR], angle: DEG}``."""
    if not isinstance(value, Mapping):
        return None
    extra = sorted(str(k) for k in value if k not in ("linear", "angle"))
    if extra:
        return (f"a gradient fill takes 'linear' and 'angle', not '{extra[0]}'"
                f"{did_you_mean(extra[0], ['linear', 'angle'])}")
    colors = value.get("linear")
    if not (isinstance(colors, list) and 2 <= len(colors) <= MAX_GRADIENT_COLORS
            and all(isinstance(c, str) for c in colors)):
        return (f"a gradient fill is {{linear: [COLOR, COLOR], angle: DEG}}: 'linear' lists 2 to "
                f"{MAX_GRADIENT_COLORS} colours")
    angle = value.get("angle", 0)
    if not _is_number(angle) or abs(angle) > 360:
        return f"gradient angle is {angle!r}; it must be a number of degrees from -360 to 360"
    return None


def _value_problems(element_type: str, raw: Mapping[str, object]) -> list[tuple[str, str]]:
    """(property, problem) of the values the vocabulary fixes for every game: opacity,
    polygon points, masks, gradients, QR data, names."""
    problems: list[tuple[str, str]] = []
    if "opacity" in raw and not (_is_number(raw["opacity"]) and 0 <= raw["opacity"] <= 1):
        problems.append(("opacity", f"opacity is {raw['opacity']!r}; it must be a number from "
                         "0 (invisible) to 1 (opaque)"))
    if "name" in raw and not (isinstance(raw["name"], str) and raw["name"]):
        problems.append(("name", "an element's name is a text (its parent's element of that "
                         "name is what it overrides)"))
    if element_type == "polygon" and "points" in raw:
        points = raw["points"]
        if not (isinstance(points, list) and 3 <= len(points) <= MAX_POINTS and all(
                isinstance(p, list | tuple) and len(p) == 2 and all(
                    _is_number(v) and abs(v) <= 1000 for v in p) for p in points)):
            problems.append(("points", f"points are [[x, y], ...] in mm: 3 to {MAX_POINTS} "
                             "corners, each two numbers"))
    if element_type == "image" and "mask" in raw and raw["mask"] not in MASKS:
        problems.append(("mask", f"mask is {raw['mask']!r}; expected {' or '.join(MASKS)}"
                         f"{did_you_mean(str(raw['mask']), list(MASKS))}"))
    if element_type in FILLED:
        problem = gradient_problem(raw.get("fill"))
        if problem is not None:
            problems.append(("fill", problem))
    if element_type == "qr" and "data" in raw and not (isinstance(raw["data"], str)
                                                       and raw["data"]):
        problems.append(("data", "a qr element needs data: the text its code holds (\"{field}\" "
                         "takes a card field)"))
    return problems


def _required(element_type: str, raw: Mapping[str, object], inherited: bool) -> list[str]:
    """Properties a type cannot do without (an inherited element has its parent's)."""
    if inherited:
        return []
    needs = {"polygon": ("points",), "qr": ("data",)}.get(element_type, ())
    if element_type != "polygon":  # (a polygon is placed by its points)
        needs = ("box", *needs)
    return [prop for prop in needs if prop not in raw]


def parse_template(data: object, game: str, name: str, file: str,
                   where: Where | None = None, where_key: Where | None = None,
                   parent: Template | None = None) -> tuple[Template | None, list[Finding]]:
    """A template from loaded YAML; ``where(path)`` gives a Location for a YAML path (and
    ``where_key(path)`` the key's, for an unknown property). With ``parent`` (the template
    ``extends:`` names), an element whose ``name`` is one of the parent's overrides that element
    in place (its properties over the parent's, type and box included); others are added."""

    def at(path: tuple[str | int, ...]) -> Location:
        return where(path) if where is not None else Location(file)

    def key_at(path: tuple[str | int, ...]) -> Location:
        return where_key(path) if where_key is not None else at(path)

    if not isinstance(data, Mapping) or not isinstance(data.get("elements"), list):
        return None, [error("bad-template", "a template is a mapping with an 'elements:' list",
                            at(()))]
    findings: list[Finding] = [
        error("bad-template", f"unknown template key '{key}' (a template has: "
              f"{', '.join(TEMPLATE_KEYS)}){did_you_mean(str(key), list(TEMPLATE_KEYS))}",
              key_at((key,))) for key in data if key not in TEMPLATE_KEYS]
    inherited = {str(e.get("name")): i for i, e in enumerate(parent.elements)
                 if e.get("name") is not None} if parent is not None else {}
    elements: list[Element] = list(parent.elements) if parent is not None else []
    named: dict[str, int] = {}
    for index, raw in enumerate(data["elements"]):
        here = at(("elements", index))
        element, problems = _element(raw, index, here, parent, inherited, at, key_at)
        findings += problems
        if element is None:
            continue
        own_name = element.get("name") if isinstance(raw, Mapping) and "name" in raw else None
        if own_name is not None:
            if own_name in named:
                findings.append(error("bad-template", f"two elements are named '{own_name}' "
                                      "(a name says which element a template that extends "
                                      "this one overrides)", at(("elements", index, "name"))))
            named[str(own_name)] = index
        if own_name is not None and str(own_name) in inherited:
            elements[inherited[str(own_name)]] = element
        else:
            elements.append(element)
    size = data.get("size_mm")
    size_location = at(("size_mm",)) if size is not None else (
        parent.size_location if parent is not None else None)
    if size is None:
        size = (parent.width_mm, parent.height_mm) if parent is not None else DEFAULT_SIZE_MM
    if not (isinstance(size, list | tuple) and len(size) == 2
            and all(_is_number(v) and 10 <= v <= 400 for v in size)):
        findings.append(error("bad-template", "size_mm must be [width, height] in mm",
                              at(("size_mm",))))
        size = DEFAULT_SIZE_MM
    shared = data.get("shared", parent.shared if parent is not None else False)
    template = Template(game, name, float(size[0]), float(size[1]), tuple(elements),
                        shared=bool(shared), file=file, size_location=size_location)
    return template, findings


def _element(raw: object, index: int, here: Location, parent: Template | None,
             inherited: Mapping[str, int], at: Callable[[tuple], Location],
             key_at: Callable[[tuple], Location]) -> tuple[Element | None, list[Finding]]:
    """One element of ``elements:``, strictly: every property must be one its type takes."""
    path = ("elements", index)
    if not isinstance(raw, Mapping):
        return None, [error("bad-template", f"element {index + 1} is not a mapping of "
                            "properties", here)]
    base = None
    if parent is not None and isinstance(raw.get("name"), str) and raw["name"] in inherited:
        base = parent.elements[inherited[raw["name"]]]
    kind = raw.get("type", base.type if base is not None else None)
    if kind not in ELEMENT_TYPES:
        return None, [error(
            "bad-template", f"element {index + 1}: unknown element type {kind!r}; expected "
            f"one of: {', '.join(ELEMENT_TYPES)}{did_you_mean(str(kind), list(ELEMENT_TYPES))}",
            at((*path, "type")) if kind is not None else here)]
    findings: list[Finding] = []
    if base is not None and kind != base.type:
        findings.append(error("bad-template", f"element '{raw['name']}' overrides the "
                              f"{base.type} of that name in the template it extends with a "
                              f"{kind}; give it a name of its own", at((*path, "type"))))
        return None, findings
    allowed = {*COMMON_PROPS, *ELEMENT_PROPS[str(kind)]}
    for key in raw:
        if key not in allowed:
            findings.append(error("bad-template", unknown_property(key, str(kind)),
                                  key_at((*path, key))))
    for prop in _required(str(kind), raw, base is not None):
        article = "an" if str(kind)[0] in "aeiou" else "a"
        findings.append(error("bad-template", f"{article} {kind} element needs '{prop}'", here))
    for prop, problem in _value_problems(str(kind), raw):
        findings.append(error("bad-template", problem, at((*path, prop))))
    if findings:
        return None, findings
    default_box = base.box if base is not None else (0, 0, 0, 0)
    box = _number_box(raw.get("box", default_box))
    if box is None:
        return None, [error("bad-template", f"element {index + 1}: box must be [x, y, width, "
                            "height] in mm (numbers, width and height >= 0)",
                            at((*path, "box")))]
    if kind not in ("line", "polygon") and (box[2] == 0 or box[3] == 0):
        return None, [error("bad-template", f"element {index + 1}: its box has no room; a "
                            f"{kind} needs a width and a height above 0", at((*path, "box")))]
    if kind == "qr" and abs(box[2] - box[3]) > 0.01:
        return None, [error("bad-template", "a QR code is square: box [x, y, size, size]",
                            at((*path, "box")))]
    own = {k: v for k, v in raw.items() if k not in {"type", "box"}}
    places = {str(k): at((*path, k)) for k in raw}
    options = raw.get("options")
    if isinstance(options, Mapping):
        places.update({f"options.{k}": at((*path, "options", k)) for k in options})
    if base is not None:
        own = {**base.props, **own}
        places = {**base.places, **places}
    return Element(str(kind), box, MappingProxyType(own), here, index,
                   MappingProxyType(places)), []


DocLoader = Callable[[Path], "tuple[YamlDocument | None, list[Finding]]"]


def read_template(path: Path, game: str, display: str | None = None,
                  load: DocLoader | None = None, chain: tuple[Path, ...] = ()
                  ) -> tuple[Template | None, list[Finding]]:
    """Load one template file with every problem located in it; a template that ``extends:``
    another of its folder is read on top of that one (``chain``: the templates that led here,
    so that a loop is a finding). ``load`` reads a file (a data game's reads it under its
    pack's file policy)."""
    if load is None:
        def load(file: Path) -> tuple[YamlDocument | None, list[Finding]]:
            return load_user_yaml(file, "template", display if file == path else None)
    doc, problems = load(path)
    if doc is None:
        return None, problems
    parent = None
    if isinstance(doc.data, Mapping) and "extends" in doc.data:
        parent, found = _parent(path, doc.data["extends"], doc, game, load, chain)
        problems = problems + found
        if parent is None:
            return None, problems
    template, found = parse_template(doc.data, game, path.stem, doc.file, doc.where,
                                     doc.where_key, parent)
    return template, problems + found


def _parent(path: Path, name: object, doc: YamlDocument, game: str, load: DocLoader,
            chain: tuple[Path, ...]) -> tuple[Template | None, list[Finding]]:
    where = doc.where(("extends",))
    if not isinstance(name, str) or not _TEMPLATE_NAME.fullmatch(name):
        return None, [error("bad-template", f"extends is {name!r}; it names another template "
                            "of this folder by its file name without .yaml", where)]
    parent_path = path.parent / f"{name}.yaml"
    if parent_path == path or parent_path in chain:
        loop = " -> ".join(p.stem for p in (*chain, path, parent_path))
        return None, [error("bad-template", f"extends '{name}' leads back to this template "
                            f"({loop})", where)]
    if not os.path.lexists(parent_path):
        known = sorted(p.stem for p in path.parent.glob("*.yaml")
                       if p.stem not in {path.stem, "labels", "palette"})
        return None, [error("bad-template", f"extends '{name}', but there is no template "
                            f"'{name}' ({name}.yaml beside this one){did_you_mean(name, known)}",
                            where)]
    parent, problems = read_template(parent_path, game, None, load, (*chain, path))
    if parent is None and not problems:
        problems = [error("bad-template", f"the template '{name}' it extends cannot be read",
                          where)]
    return parent, problems


def size_differs(template: Template, width_mm: float, height_mm: float) -> bool:
    """Whether a template is drawn for another card size than ``width_mm`` x ``height_mm``
    (its elements would be clipped, or leave an empty band)."""
    return abs(template.width_mm - width_mm) > 0.05 or abs(template.height_mm - height_mm) > 0.05


@cache
def _load_template(folder: Path, name: str) -> Template:
    path = folder / f"{name}.yaml"
    template, problems = read_template(path, folder.name)
    if template is None or problems:
        first = problems[0] if problems else None
        raise TemplateError(f"{first.location}: {first.message}" if first
                            else f"{path}: cannot load template",
                            first.location if first else None)
    return template


def load_template(game: str, name: str) -> Template:
    return _load_template(template_folder(game), name)


@cache
def _load_palette(path: Path, variant: str) -> Mapping[str, str]:
    data = safe_load(path.read_text(encoding="utf-8"))
    colors = dict(data.get("normal", {}))
    if variant != "normal":
        colors.update(data.get(variant, {}))
    return MappingProxyType(colors)


def load_palette(game: str, variant: str = "normal") -> Mapping[str, str]:
    """Named colours of a game; the ``ink_saver`` variant overrides heavy full-bleed fills."""
    return _load_palette(builtin_template_file(game, "palette.yaml"), variant)
