"""Declarative card templates (``<folder>/<name>.yaml``) and their palette.

A template is a list of elements drawn in order, each in card millimetres: ``rect``, ``line``,
``text`` (with ``{value}`` placeholders or a translatable ``label``), ``image`` (raster or SVG
art) and ``widget`` (a named drawing function of the game module, e.g. weapon platforms).
``when``/``unless`` name a true/false face value or hold a CEL condition, so one template
serves every variant of a card kind.

A game's templates live in one folder: ``templates/<game>/`` for a built-in game, the pack's own
``templates/`` for a game defined in data (registered with :func:`register_template_folder`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

from msgspec import Struct

from generator.core.findings import Finding, error
from generator.core.location import Location
from generator.core.records import PartlyCompared
from generator.load.packfiles import load_user_yaml
from generator.load.parsecache import safe_load
from generator.runtime.resources import builtin_game_templates, builtin_template_file

_FOLDERS: dict[str, Path] = {}
#: a ``when:`` that is a bare name reads a face value; anything else is a CEL expression
PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def register_template_folder(game: str, folder: Path) -> None:
    """A game defined in data keeps its templates (and labels.yaml) in its pack folder."""
    _FOLDERS[game] = folder


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
    #: position in the template's ``elements:`` list (for locating its properties)
    index: int = -1

    _UNCOMPARED = frozenset({"location", "index"})

    def get(self, name: str, default: object = None) -> object:
        return self.props.get(name, default)


class Template(Struct, frozen=True, gc=False):
    game: str
    name: str
    width_mm: float
    height_mm: float
    elements: tuple[Element, ...]
    #: True when no element depends on the card: one drawing serves every card (shared backs)
    shared: bool
    file: str = ""


ELEMENT_TYPES = ("rect", "line", "text", "image", "widget")


def _number_box(raw: object) -> tuple[float, float, float, float] | None:
    if not (isinstance(raw, list | tuple) and len(raw) == 4):
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw):
        return None
    x, y, w, h = (float(v) for v in raw)
    if w < 0 or h < 0 or max(abs(x), abs(y), w, h) > 1000:
        return None
    return x, y, w, h


def parse_template(data: object, game: str, name: str, file: str,
                   where: object = None) -> tuple[Template | None, list[Finding]]:
    """A template from loaded YAML; ``where(path)`` gives a Location for a YAML path."""

    def at(path: tuple[str | int, ...]) -> Location:
        return where(path) if where is not None else Location(file)

    if not isinstance(data, Mapping) or not isinstance(data.get("elements"), list):
        return None, [error("bad-template", "a template is a mapping with an 'elements:' list",
                            at(()))]
    findings: list[Finding] = []
    elements: list[Element] = []
    for index, raw in enumerate(data["elements"]):
        here = at(("elements", index))
        if not isinstance(raw, Mapping) or raw.get("type") not in ELEMENT_TYPES:
            kind = raw.get("type") if isinstance(raw, Mapping) else None
            findings.append(error(
                "bad-template", f"element {index + 1}: unknown element type {kind!r}; expected "
                f"one of: {', '.join(ELEMENT_TYPES)}", at(("elements", index, "type"))
                if kind is not None else here))
            continue
        box = _number_box(raw.get("box", (0, 0, 0, 0)))
        if box is None:
            findings.append(error("bad-template", f"element {index + 1}: box must be [x, y, "
                                  "width, height] in mm (numbers, width and height >= 0)",
                                  at(("elements", index, "box"))))
            continue
        props = {k: v for k, v in raw.items() if k not in {"type", "box"}}
        elements.append(Element(str(raw["type"]), box, MappingProxyType(props), here, index))
    size = data.get("size_mm", (63.5, 88.9))
    if not (isinstance(size, list | tuple) and len(size) == 2
            and all(isinstance(v, int | float) and 10 <= v <= 400 for v in size)):
        findings.append(error("bad-template", "size_mm must be [width, height] in mm",
                              at(("size_mm",))))
        size = (63.5, 88.9)
    template = Template(game, name, float(size[0]), float(size[1]), tuple(elements),
                        shared=bool(data.get("shared", False)), file=file)
    return template, findings


def read_template(path: Path, game: str, display: str | None = None
                  ) -> tuple[Template | None, list[Finding]]:
    """Load one template file with every problem located in it."""
    doc, problems = load_user_yaml(path, "template", display or str(path))
    if doc is None:
        return None, problems
    return parse_template(doc.data, game, path.stem, doc.file, doc.where)


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
