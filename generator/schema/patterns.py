"""Regular expressions a pack writes (``pattern`` and ``patternProperties`` in a data game's kind
schemas) run only in linear-time engines.

Python's ``re`` and jsonschema-rs's default engine (fancy-regex) backtrack: ``^(a|a)*$`` against
thirty letters and a ``b`` would take longer than the universe has left. A pack is hostile input,
so its patterns are compiled by RE2 here (for jsonschema, which explains a rejected card) and by
the Rust ``regex`` crate in jsonschema-rs (which decides validity); both match in linear time and
refuse lookaround and backreferences, which game.yaml is told about once, where the pattern is
written. RE2 reads ``$`` as the end of the text and ``\\d`` as ASCII digits, as JSON Schema's
ECMA-262 regular expressions do.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

#: keywords whose value is one subschema, a mapping of names to subschemas, or a list of them
_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains",
        "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems")
_NAMED = ("properties", "$defs", "definitions", "dependentSchemas")
_LISTED = ("allOf", "anyOf", "oneOf", "prefixItems")


@cache
def linear(pattern: str) -> Any:
    """``pattern`` compiled by RE2; None when RE2 cannot run it (lookaround, backreferences,
    or not a regular expression at all)."""
    import re2

    try:
        return re2.compile(pattern)
    except re2.error:
        return None


def search(pattern: str, text: str) -> bool | None:
    """Whether ``pattern`` matches somewhere in ``text``, in linear time; None when RE2 cannot
    run the pattern."""
    compiled = linear(pattern)
    return None if compiled is None else compiled.search(text) is not None


def unrunnable_patterns(schema: object, path: tuple[Any, ...] = ()
                        ) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every pattern in ``schema`` that RE2 cannot run, with the path to it (a ``pattern``
    value, or a ``patternProperties`` key)."""
    if not isinstance(schema, Mapping):
        return
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and linear(pattern) is None:
        yield (*path, "pattern"), pattern
    patterns = schema.get("patternProperties")
    if isinstance(patterns, Mapping):
        for key, subschema in patterns.items():
            if isinstance(key, str) and linear(key) is None:
                yield (*path, "patternProperties", key), key
            yield from unrunnable_patterns(subschema, (*path, "patternProperties", key))
    for keyword in _ONE:
        yield from unrunnable_patterns(schema.get(keyword), (*path, keyword))
    for keyword in _NAMED:
        named = schema.get(keyword)
        if isinstance(named, Mapping):
            for key, subschema in named.items():
                yield from unrunnable_patterns(subschema, (*path, keyword, key))
    for keyword in _LISTED:
        listed = schema.get(keyword)
        if isinstance(listed, list | tuple):
            for index, subschema in enumerate(listed):
                yield from unrunnable_patterns(subschema, (*path, keyword, index))


def _unrunnable(pattern: str) -> Any:
    from jsonschema.exceptions import ValidationError

    return ValidationError(f"the pattern {pattern!r} uses lookaround or a backreference, "
                           "which pnp does not run; write it without")


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "string"):
        return
    found = search(pattern, instance)
    if found is None:
        yield _unrunnable(pattern)
    elif not found:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Any:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        if linear(pattern) is None:
            yield _unrunnable(pattern)
            continue
        for key, value in instance.items():
            if search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, allowed: Any, instance: Any, schema: Any) -> Any:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    known = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras = [key for key in instance if key not in known
              and not any(search(p, key) for p in patterns)]
    if validator.is_type(allowed, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], allowed, path=extra)
    elif not allowed and extras:
        yield ValidationError(f"Additional properties are not allowed ({extras!r} unexpected)")


@cache
def _validator_class() -> Any:
    from jsonschema import Draft202012Validator, validators

    return validators.extend(Draft202012Validator, {
        "pattern": _pattern, "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties})


def pack_validator(schema: Mapping[str, Any]) -> Any:
    """jsonschema's validator of a schema a pack wrote, with its patterns in RE2."""
    return _validator_class()(schema)
