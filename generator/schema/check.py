"""JSON Schema (2020-12) checking with findings that name the field, the value and a fix.

jsonschema's raw messages ("'x' is not one of [...]") are written for programmers; here each
validator keyword maps to a stable finding code and a sentence for a card author, located at the
offending key or value of the YAML source.

Two validators, one verdict: jsonschema-rs (compiled, microseconds per card, 20 ms to import)
answers "is this valid?" for every instance, and only an instance it rejects goes to jsonschema
(pure Python, about 100 ms to import and a millisecond or two per card), whose errors are
turned into findings. A clean pack therefore never imports jsonschema at all, and the findings'
wording is jsonschema's. When the two disagree (jsonschema-rs reads ``pattern`` as ECMA-262
does, so a digit class is ASCII only) jsonschema's answer stands: rejected by the fast
validator but accepted by jsonschema means no finding. An instance a schema accepted in an
earlier run is not checked again (generator.schema.memo): a clean pack built twice never imports
jsonschema-rs either.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from generator.core.findings import Finding, did_you_mean, error
from generator.load.yamldoc import PathKey, YamlDocument
from generator.schema.memo import SchemaMemo, memo_for

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "text",
    "array": "a list",
    "object": "a mapping",
    "boolean": "true or false",
}

_PYTHON_TYPE_WORDS = {
    bool: "true/false",
    int: "a whole number",
    float: "a number",
    str: "text",
    list: "a list",
    dict: "a mapping",
    type(None): "nothing (null)",
}


def load_schema(package: str, name: str) -> dict[str, Any]:
    """Read a schema shipped as package data."""
    return _load_schema_cached(package, name)


@cache
def _load_schema_cached(package: str, name: str) -> dict[str, Any]:
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


def python_pattern(pattern: str) -> str:
    """An ECMA-262 regular expression (what JSON Schema's ``pattern`` means, and what editors
    run) as Python reads it: ``$`` ends the text in ECMA, but in Python it also matches before
    a final newline, so ``^[a-z]+$`` would let ``"cwnb\\n"`` through. Outside a character class
    an unescaped ``$`` becomes ``\\Z``."""
    out: list[str] = []
    in_class = False
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            out.append(pattern[index:index + 2])
            index += 2
            continue
        if char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        out.append("\\Z" if char == "$" and not in_class else char)
        index += 1
    return "".join(out)


def _python_schema(node: Any) -> Any:
    """A copy of a schema whose ``pattern`` and ``patternProperties`` read as in ECMA-262."""
    if isinstance(node, dict):
        copied: dict[str, Any] = {}
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                copied[key] = python_pattern(value)
            elif key == "patternProperties" and isinstance(value, dict):
                copied[key] = {python_pattern(k): _python_schema(v) for k, v in value.items()}
            else:
                copied[key] = _python_schema(value)
        return copied
    if isinstance(node, list):
        return [_python_schema(item) for item in node]
    return node


def validator_for(schema: dict[str, Any]) -> Draft202012Validator:
    """A validator of ``schema`` with JSON Schema's own (ECMA-262) pattern semantics."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_python_schema(schema))


@cache
def _validator(package: str, name: str) -> Draft202012Validator:
    return validator_for(load_schema(package, name))


def shown_value(value: object, limit: int = 60) -> str:
    """A value as a message quotes it: its repr, cut short (a text may be 10,000 characters)."""
    text = repr(value) if not isinstance(value, list | dict) or len(value) < 20 else \
        f"<{describe_type(value)} of {len(value)} entries>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


class FastValidator:
    """jsonschema-rs's compiled validator of one schema; ``None`` for a schema it cannot
    compile (jsonschema then checks every instance, as it always did). ``linear`` runs the
    schema's patterns in the Rust regex crate, which cannot backtrack (a pack's schemas)."""

    def __init__(self, schema: Any, linear: bool = False) -> None:
        import jsonschema_rs

        options = {"pattern_options": jsonschema_rs.RegexOptions()} if linear else {}
        try:
            self._rs = jsonschema_rs.Draft202012Validator(schema, **options)
        except Exception:  # a schema jsonschema-rs refuses: jsonschema decides alone
            self._rs = None

    def surely_valid(self, instance: object) -> bool:
        """True when the instance certainly passes; False means "ask jsonschema" (an invalid
        instance, or a value jsonschema-rs cannot take, such as a YAML date)."""
        if self._rs is None:
            return False
        try:
            return bool(self._rs.is_valid(instance))
        except Exception:
            return False


@cache
def _fast(package: str, name: str) -> FastValidator:
    return FastValidator(load_schema(package, name))


def describe_type(value: object) -> str:
    for kind, word in _PYTHON_TYPE_WORDS.items():
        if type(value) is kind:
            return word
    return type(value).__name__


def _field_name(path: PathKey) -> str:
    names = [str(p) for p in path if isinstance(p, str)]
    return names[-1] if names else "value"


def _allowed_properties(schema: dict[str, Any]) -> list[str]:
    return sorted(schema.get("properties", {}))


def _finding_for(err: ValidationError, doc: YamlDocument, base: PathKey,
                 card: str | None) -> Finding:
    path: PathKey = (*base, *err.absolute_path)
    field = _field_name(path)
    keyword = err.validator
    instance = err.instance
    if keyword == "additionalProperties":
        allowed = _allowed_properties(err.schema)
        extra = [k for k in instance if k not in allowed] if isinstance(instance, dict) else []
        name = str(extra[0]) if extra else "?"
        hint = did_you_mean(name, allowed)
        return error("unknown-field", f"unknown field '{name}'{hint}",
                     doc.where_key((*path, name)), card)
    if keyword == "required":
        missing = err.message.split("'")[1] if "'" in err.message else "?"
        return error("missing-field", f"required field '{missing}' is missing",
                     doc.where(path), card)
    if keyword == "type":
        wanted = err.validator_value
        wanted_words = " or ".join(_TYPE_WORDS.get(w, w) for w in
                                   (wanted if isinstance(wanted, list) else [wanted]))
        return error("wrong-type",
                     f"'{field}' must be {wanted_words}, not {describe_type(instance)} "
                     f"({shown_value(instance)})", doc.where(path), card)
    if keyword in {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}:
        bound = {"minimum": "at least", "maximum": "at most",
                 "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"}[keyword]
        return error("out-of-range",
                     f"'{field}' is {shown_value(instance)}; it must be {bound} "
                     f"{err.validator_value}",
                     doc.where(path), card)
    if keyword in {"enum", "const"}:
        choices = err.validator_value if keyword == "enum" else [err.validator_value]
        shown = ", ".join(str(c) for c in choices)
        hint = did_you_mean(str(instance), [str(c) for c in choices])
        return error("unknown-value",
                     f"'{field}' is {shown_value(instance)}; expected one of: {shown}{hint}",
                     doc.where(path), card)
    if keyword in {"minItems", "maxItems", "minLength", "maxLength"}:
        unit = "entries" if keyword.endswith("Items") else "characters"
        bound = "at least" if keyword.startswith("min") else "at most"
        size = len(instance) if isinstance(instance, str | list | dict) else 0
        return error("wrong-length", f"'{field}' has {size} {unit}; it must have {bound} "
                     f"{err.validator_value}", doc.where(path), card)
    if keyword == "pattern":
        slug = field in {"id", "pack", "game", "set_mark", "extends"}
        hint = " (lowercase letters, digits and '-')" if slug else ""
        return error("bad-format",
                     f"'{field}' is {shown_value(instance)}; it must match "
                     f"{str(err.validator_value).replace(chr(92) + 'Z', '$')}{hint}",
                     doc.where(path), card)
    if keyword == "uniqueItems":
        return error("duplicate-item", f"'{field}' lists the same entry twice",
                     doc.where(path), card)
    if keyword in {"anyOf", "oneOf"}:
        custom = err.schema.get("x-message")
        if custom:
            return error("bad-value", f"{custom} (got {shown_value(instance)})",
                         doc.where(path), card)
        from jsonschema.exceptions import best_match

        return _finding_for(best_match(err.context), doc, base, card)
    message = err.message if len(err.message) <= 200 else err.message[:197] + "..."
    return error("schema", f"'{field}': {message}", doc.where(path), card)


@cache
def _memo(package: str, name: str) -> SchemaMemo:
    return memo_for(f"package {package} {name}\n{_schema_text(load_schema(package, name))}"
                    .encode())


class _DataSchema:
    """A schema given as data (a data game's kind) and what checking against it needs, each
    made once per schema, when first needed: its memo, its fast validator and jsonschema's
    (built only when an instance fails). A pack wrote the schema, so its patterns never run
    in a backtracking engine (the fast one's are linear, jsonschema's are RE2: packpatterns)."""

    __slots__ = ("_fast", "_memo", "_slow", "plain", "schema")

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self.plain = plain_schema(schema)
        self._memo: SchemaMemo | None = None
        self._fast: FastValidator | None = None
        self._slow: Draft202012Validator | None = None

    @property
    def memo(self) -> SchemaMemo:
        if self._memo is None:
            self._memo = memo_for(f"data, linear patterns\n{_schema_text(self.plain)}".encode())
        return self._memo

    @property
    def fast(self) -> FastValidator:
        if self._fast is None:
            self._fast = FastValidator(self.plain, linear=True)
        return self._fast

    @property
    def slow(self) -> Draft202012Validator:
        if self._slow is None:
            from generator.schema.patterns import pack_validator

            self._slow = pack_validator(self.plain)
        return self._slow


def _schema_text(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True, ensure_ascii=False, default=repr)


_DATA_SCHEMAS: dict[int, _DataSchema] = {}


def _data_schema(schema: Any) -> _DataSchema:
    held = _DATA_SCHEMAS.get(id(schema))
    if held is None or held.schema is not schema:
        held = _DATA_SCHEMAS[id(schema)] = _DataSchema(schema)
    return held


def data_validator(schema: Any) -> Draft202012Validator:
    """jsonschema's validator for a schema given as data, built once per schema, with its
    patterns in RE2 (whose ``$`` ends the text, as ECMA-262's does)."""
    return _data_schema(schema).slow


def plain_schema(value: Any) -> Any:
    """Read-only mappings as dicts: jsonschema walks schemas as JSON data."""
    if isinstance(value, dict | type(MappingProxyType({}))):
        return {k: plain_schema(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain_schema(v) for v in value]
    return value


def check(doc: YamlDocument, package: str, schema_name: str, instance: object = None,
          base: PathKey = (), card: str | None = None, schema: Any = None) -> list[Finding]:
    """Validate ``instance`` (default: the whole document) and return one finding per problem;
    ``schema`` (a mapping) is used instead of the package file when given."""
    return check_card(doc, package, schema_name, instance, base, card, schema).findings


class Verdict(Struct, frozen=True):
    """What checking one card found, and which of its fields are unsound: the fields a finding
    is about (a wrong value, a required field missing, an unknown field), so that the checks
    that read only its other fields can still run on it. ``unsound`` is None when a finding
    concerns the card as a whole (a rule of the schema over several fields)."""

    findings: list[Finding]
    unsound: frozenset[str] | None = frozenset()


def check_card(doc: YamlDocument, package: str, schema_name: str, instance: object = None,
               base: PathKey = (), card: str | None = None, schema: Any = None) -> Verdict:
    """:func:`check`, and the fields its findings are about (see :class:`Verdict`)."""
    target = doc.data if instance is None else instance
    data = _data_schema(schema) if schema is not None else None
    memo = data.memo if data is not None else _memo(package, schema_name)
    digest = memo.digest(target)
    if digest is not None and memo.accepted(digest):
        return Verdict([])  # (accepted by this schema before: generator.schema.memo)
    fast = data.fast if data is not None else _fast(package, schema_name)
    if fast.surely_valid(target):
        if digest is not None:
            memo.learn(digest)
        return Verdict([])
    validator = data_validator(schema) if schema is not None else _validator(package,
                                                                             schema_name)
    errors = sorted(validator.iter_errors(target), key=lambda e: list(map(str, e.absolute_path)))
    return Verdict([_finding_for(e, doc, base, card) for e in errors
                    if not _refused(e, doc, base)], unsound_fields(errors))


def unsound_fields(errors: list[ValidationError]) -> frozenset[str] | None:
    """The top-level fields that ``errors`` (of one mapping) are about; None when one of them
    is about the mapping as a whole."""
    names: set[str] = set()
    for err in errors:
        path = list(err.absolute_path)
        if path:
            names.add(str(path[0]))
        elif err.validator == "required" and "'" in err.message:
            names.add(err.message.split("'")[1])
        elif err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = set(err.schema.get("properties", {}))
            names.update(str(key) for key in err.instance if key not in allowed)
        elif err.validator == "dependentRequired" and isinstance(err.instance, dict):
            wanted = err.validator_value if isinstance(err.validator_value, dict) else {}
            names.update(str(name) for needs in wanted.values() for name in needs
                         if name not in err.instance)
        else:
            return None
    return frozenset(names)


def _refused(err: ValidationError, doc: YamlDocument, base: PathKey) -> bool:
    """A required field that the document located but holds no value for was refused where
    it was read (a spreadsheet cell holding an error) and is reported there already."""
    if err.validator != "required" or "'" not in err.message:
        return False
    missing = err.message.split("'")[1]
    return (*base, *err.absolute_path, missing) in doc.values
