"""A form from a card kind's JSON Schema: one field per property, its control chosen by what
the schema allows.

- ``enum`` (and an ``anyOf`` whose every branch is a short list of values): a choice;
- ``integer``/``number``: a number with the schema's ``minimum`` and ``maximum``;
- ``boolean``: a check box;
- ``string``: a line of text, a text area when translatable (``x-translate`` in a game defined
  in data, ``x-translatable`` in a built-in game's schema), a choice of the pack's pictures for
  ``format: image``;
- ``array``: a list editor whose rows are the items' own controls;
- ``object``: a group of its properties' controls;
- anything else (``type: [string, integer]``, other ``anyOf``): a line of text read as a
  number when it is one, or as YAML when the schema allows lists and mappings too.

The built-in games' kinds and those of games defined in data are both plain JSON Schema, so
one reading serves every game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec import Struct, field

#: an integer range this short becomes a choice inside an ``anyOf``
_SHORT_RANGE = 24
_TRANSLATE_MARKS = ("x-translate", "x-translatable")


class FieldSpec(Struct, frozen=True):
    """One control of the form."""

    name: str
    widget: str  # choice | number | checkbox | text | textarea | image | list | group | fixed |
    #              scalar | yaml
    required: bool = False
    description: str = ""
    options: tuple[object, ...] = ()  # a choice's values (typed)
    minimum: float | None = None
    maximum: float | None = None
    integer: bool = False
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    examples: tuple[str, ...] = ()
    translatable: bool = False
    item: FieldSpec | None = None  # a list's rows
    min_items: int | None = None
    max_items: int | None = None
    unique: bool = False
    fields: tuple[FieldSpec, ...] = ()  # a group's members
    const: object = None

    @property
    def label(self) -> str:
        return self.name.replace("_", " ")


class FormSpec(Struct, frozen=True):
    kind: str
    fields: tuple[FieldSpec, ...] = field(default_factory=tuple)

    @property
    def order(self) -> list[str]:
        return [spec.name for spec in self.fields]

    def get(self, name: str) -> FieldSpec | None:
        return next((spec for spec in self.fields if spec.name == name), None)


def _types(schema: Mapping[str, Any]) -> list[str]:
    kinds = schema.get("type")
    if isinstance(kinds, str):
        return [kinds]
    return [k for k in kinds if isinstance(k, str)] if isinstance(kinds, list) else []


def _choices(schema: Mapping[str, Any]) -> list[object] | None:
    """Every value a schema allows when it allows few (an enum, a const, a short integer range,
    or an ``anyOf``/``oneOf`` of such); None otherwise."""
    if "enum" in schema and isinstance(schema["enum"], list):
        return list(schema["enum"])
    if "const" in schema:
        return [schema["const"]]
    branches = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(branches, list) and branches:
        values: list[object] = []
        for branch in branches:
            found = _choices(branch) if isinstance(branch, Mapping) else None
            if found is None:
                return None
            values += [v for v in found if not any(v == w and type(v) is type(w)
                                                   for w in values)]
        return values
    if _types(schema) == ["integer"]:
        low, high = schema.get("minimum"), schema.get("maximum")
        if isinstance(low, int) and isinstance(high, int) and 0 <= high - low <= _SHORT_RANGE \
                and "multipleOf" not in schema:
            return list(range(low, high + 1))
    if _types(schema) == ["boolean"]:
        return None
    return None


def _is_translatable(schema: Mapping[str, Any]) -> bool:
    return any(schema.get(mark) is True for mark in _TRANSLATE_MARKS)


def field_spec(name: str, schema: object, required: bool = False) -> FieldSpec:
    """The control for one property."""
    if not isinstance(schema, Mapping):
        return FieldSpec(name, "yaml", required)
    common: dict[str, Any] = {"required": required,
                              "description": str(schema.get("description", "")),
                              "translatable": _is_translatable(schema)}
    examples = schema.get("examples")
    if isinstance(examples, list):
        common["examples"] = tuple(str(e) for e in examples if isinstance(e, str | int))
    if "const" in schema:
        return FieldSpec(name, "fixed", const=schema["const"], **common)
    types = _types(schema)
    if "enum" in schema or "anyOf" in schema or "oneOf" in schema:
        choices = _choices(schema)
        if choices is not None:
            return FieldSpec(name, "choice", options=tuple(choices), **common)
        return FieldSpec(name, "yaml" if _allows_structure(schema) else "scalar", **common)
    if len(types) == 1:
        kind = types[0]
        if kind in ("integer", "number"):
            return FieldSpec(name, "number", minimum=_number(schema.get("minimum")),
                             maximum=_number(schema.get("maximum")),
                             integer=kind == "integer", **common)
        if kind == "boolean":
            return FieldSpec(name, "checkbox", **common)
        if kind == "string":
            widget = "image" if schema.get("format") == "image" else (
                "textarea" if common["translatable"] else "text")
            return FieldSpec(name, widget, min_length=_whole(schema.get("minLength")),
                             max_length=_whole(schema.get("maxLength")),
                             pattern=schema.get("pattern") if isinstance(
                                 schema.get("pattern"), str) else None, **common)
        if kind == "array":
            items = schema.get("items")
            return FieldSpec(name, "list", item=field_spec("", items if isinstance(
                items, Mapping) else {}), min_items=_whole(schema.get("minItems")),
                max_items=_whole(schema.get("maxItems")),
                unique=schema.get("uniqueItems") is True, **common)
        if kind == "object" and isinstance(schema.get("properties"), Mapping):
            wanted = schema.get("required") if isinstance(schema.get("required"), list) else []
            members = tuple(field_spec(str(key), sub, key in wanted)
                            for key, sub in schema["properties"].items())
            return FieldSpec(name, "group", fields=members, **common)
    if types and set(types) <= {"string", "integer", "number", "null"}:
        return FieldSpec(name, "scalar", **common)
    return FieldSpec(name, "yaml", **common)


def _allows_structure(schema: Mapping[str, Any]) -> bool:
    branches = schema.get("anyOf") or schema.get("oneOf") or []
    return any(isinstance(b, Mapping) and set(_types(b)) & {"array", "object"}
               for b in branches)


def _number(value: object) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


IMPLIED = ("id", "kind", "count")


def form_spec(kind: str, schema: Mapping[str, Any]) -> FormSpec:
    """The form of a kind: id and kind first (fixed), then every property in schema order."""
    properties = schema.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    required = schema.get("required") if isinstance(schema.get("required"), list) else []
    specs = [FieldSpec("id", "fixed", True, "the card's id (translations are keyed by it)"),
             FieldSpec("kind", "fixed", True, "the card's kind", const=kind)]
    count = properties.get("count", {"type": "integer", "minimum": 1, "maximum": 1000})
    specs.append(field_spec("count", {**count, "description": count.get(
        "description", "copies printed (default 1)")}))
    specs += [field_spec(str(name), sub, name in required) for name, sub in properties.items()
              if name not in IMPLIED]
    return FormSpec(kind, tuple(specs))


def default_value(spec: FieldSpec, images: Sequence[str] = ()) -> object:
    """A value a new card starts with for a required field: the first choice, the smallest
    number allowed, a placeholder text, the pack's first picture."""
    if spec.widget == "choice" and spec.options:
        return spec.options[0]
    if spec.widget == "number":
        low = spec.minimum if spec.minimum is not None else (1 if spec.integer else 0)
        value = max(low, 1) if spec.maximum is None or spec.maximum >= 1 else low
        return int(value) if spec.integer else float(value)
    if spec.widget == "checkbox":
        return False
    if spec.widget == "image":
        return images[0] if images else ""
    if spec.widget == "list":
        return [default_value(spec.item, images) for _ in range(spec.min_items or 0)] \
            if spec.item is not None else []
    if spec.widget == "group":
        return {member.name: default_value(member, images) for member in spec.fields
                if member.required}
    if spec.widget == "fixed":
        return spec.const
    return f"New {spec.label}"
