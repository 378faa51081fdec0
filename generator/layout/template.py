"""Declarative card templates (``templates/<game>/<name>.yaml``) and their palette.

A template is a list of elements drawn in order, each in card millimetres: ``rect``, ``line``,
``text`` (with ``{value}`` placeholders or a translatable ``label``) and ``widget`` (a named
drawing function of the game module, e.g. weapon platforms). ``when``/``unless`` name a
true/false face value, so one template serves every variant of a card kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

import yaml

from generator.resources import builtin_game_templates, builtin_template_file


class TemplateError(Exception):
    """A template file that cannot be used (a developer's or designer's mistake)."""


@dataclass(frozen=True, slots=True)
class Element:
    type: str
    box: tuple[float, float, float, float]
    props: Mapping[str, object] = field(default_factory=dict)

    def get(self, name: str, default: object = None) -> object:
        return self.props.get(name, default)


@dataclass(frozen=True, slots=True)
class Template:
    game: str
    name: str
    width_mm: float
    height_mm: float
    elements: tuple[Element, ...]
    #: True when no element depends on the card: one drawing serves every card (shared backs)
    shared: bool


_ELEMENT_TYPES = frozenset({"rect", "line", "text", "widget"})


def _element(raw: object, where: str) -> Element:
    if not isinstance(raw, Mapping) or "type" not in raw or raw["type"] not in _ELEMENT_TYPES:
        raise TemplateError(f"{where}: each element needs a type: rect, line, text or widget")
    box = raw.get("box", (0, 0, 0, 0))
    if not (isinstance(box, list | tuple) and len(box) == 4):
        raise TemplateError(f"{where}: box must be [x, y, width, height] in mm")
    props = {k: v for k, v in raw.items() if k not in {"type", "box"}}
    return Element(str(raw["type"]), tuple(float(v) for v in box), MappingProxyType(props))


@cache
def load_template(game: str, name: str) -> Template:
    path = builtin_game_templates(game) / f"{name}.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise TemplateError(f"{path}: cannot load template: {exc}") from None
    if not isinstance(data, Mapping) or not isinstance(data.get("elements"), list):
        raise TemplateError(f"{path}: a template is a mapping with an 'elements:' list")
    elements = tuple(_element(raw, f"{path} element {i + 1}")
                     for i, raw in enumerate(data["elements"]))
    width, height = data.get("size_mm", (63.5, 88.9))
    return Template(game, name, float(width), float(height), elements,
                    shared=bool(data.get("shared", False)))


@cache
def load_palette(game: str, variant: str = "normal") -> Mapping[str, str]:
    """Named colours of a game; the ``ink_saver`` variant overrides heavy full-bleed fills."""
    path = builtin_template_file(game, "palette.yaml")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    colors = dict(data.get("normal", {}))
    if variant != "normal":
        colors.update(data.get(variant, {}))
    return MappingProxyType(colors)
