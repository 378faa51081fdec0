"""A game defined in data: game.yaml's ``kinds:``, ``rules:``, ``deck:``, ``fonts:`` and
``palette:`` read into the same :class:`~generator.model.game.Game` a built-in module exposes.

Everything is checked once, when the manifest is read, and every problem is a finding located
in game.yaml or in the template file at fault: a kind's schema that is not valid JSON Schema, a
template that does not exist, a rule that does not compile. The pipeline after this point does
not know whether a game came from Python or from data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from msgspec import Struct

from generator.core.findings import Finding, did_you_mean, error
from generator.core.location import Location
from generator.datagame.cards import IMPLIED_FIELDS, DataCard, card_builder, partial_builder
from generator.datagame.rules import (
    DataRule,
    RuleContext,
    check_rules,
    compile_rules,
    field_values,
    kind_values,
    sample_card,
)
from generator.datagame.templates import TemplateScope, builtin_fonts, load_data_template
from generator.layout.engine import PLACEHOLDER
from generator.layout.icons import icon_files, svg_icon
from generator.layout.ops import Op
from generator.load.art import ArtProblem, resolve
from generator.load.fonts import pack_font_style
from generator.load.packfiles import PackFolder, named_file_refusal
from generator.load.yamldoc import YamlDocument
from generator.model.cards import Card, CardSize
from generator.model.game import YAML_SUFFIXES, CardKind, Faces, Game
from generator.model.template import Template, register_enum_labels, register_template_folder
from generator.rules.cel import plain_truthy
from generator.rules.table import RuleRow
from generator.schema.check import describe_type
from generator.schema.patterns import unrunnable_patterns

TEMPLATES_DIR = "templates"
DEFAULT_PALETTE = MappingProxyType({"ink": "#000000", "paper": "#ffffff",
                                    "white": "#ffffff", "black": "#000000"})
_JSON_TYPES = ("string", "integer", "number", "boolean", "array", "object", "null")
_ID_SCHEMA = {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"}


class KindDefinition(Struct, frozen=True):
    name: str
    front: str
    back: str
    schema: Mapping[str, Any]  # the full schema of one card (id, kind, count added)
    translatable: tuple[str, ...]
    images: tuple[str, ...]  # fields holding art paths (``format: image``)
    fields: tuple[str, ...]  # declared properties, in schema order
    #: ``x-labels`` of enum fields: field -> enum value -> the printed source text
    labels: Mapping[str, Mapping[str, str]] = {}


class EnumGap(Struct, frozen=True):
    """An enum field a kind prints in text whose values (some or all) have no ``x-labels``:
    in a translated build they print as the raw value."""

    kind: str
    field: str
    unlabelled: frozenset[str]
    location: Location


class DeckDefinition(Struct, frozen=True):
    min_size: int | None
    max_size: int | None
    max_copies: int | None
    rules: tuple[DataRule, ...]
    location: Location


class DataGame(Struct, frozen=True):
    """What the generic pipeline needs of a data game beyond :class:`Game`'s fields."""

    name: str
    root: Path
    kinds: dict[str, KindDefinition]
    templates: dict[str, Template]
    palette: Mapping[str, str]
    fonts: Mapping[str, str]
    icons: dict[str, Path]
    rules: tuple[DataRule, ...] = ()
    deck: DeckDefinition | None = None
    manifest_file: str = ""
    #: enum fields printed in text without a label for every value (see :class:`EnumGap`)
    enum_gaps: tuple[EnumGap, ...] = ()

    def template(self, name: str) -> Template | None:
        """A loaded template; None for one that could not be loaded (its findings say why),
        so that laying out cards skips it instead of failing."""
        return self.templates.get(name)

    @property
    def text_styles(self) -> tuple[str, ...]:
        """Font styles the templates print text in (glyph checks look at each of them)."""
        styles = {str(e.get("font", "regular")) for t in self.templates.values()
                  for e in t.elements if e.type == "text"}
        return tuple(sorted(styles)) or ("regular",)

    def prepare(self, ctx, card: Card, card_root: Path | None = None) -> None:
        """Give a face context what data templates need: art folders and CEL conditions."""
        ctx.art_root = self.root
        ctx.card_root = card_root
        ctx.checked_colors = True
        ctx.condition = self.condition_for(card)
        kind = self.kinds.get(card.kind)
        if kind is not None and kind.labels and isinstance(card, DataCard):
            printed, keys = {}, {}
            for field, labels in kind.labels.items():
                value = card.fields.get(field)
                if value is not None and str(value) in labels:
                    keys[field] = (enum_label_key(card.kind, field, value),)
                    printed[field] = ctx.label(keys[field][0])
            ctx.printed = printed or None
            ctx.printed_from = keys or None

    @staticmethod
    def condition_for(card: Card) -> Callable[[str], bool]:
        """``when:``/``unless:`` CEL over ``card`` (a condition that errors does not hold)."""
        fields = dict(card.fields) if isinstance(card, DataCard) else {}
        activation = {**fields, "self": fields}
        return lambda text: plain_truthy(text)(activation)

    def face_values(self, card: Card, text: Callable[[Card, str], str],
                    label: Callable[[str], str]) -> dict[str, object]:
        """Every declared field, localized where translatable; lists read "a, b, c"."""
        kind = self.kinds[card.kind]
        fields = card.fields if isinstance(card, DataCard) else {}
        values: dict[str, object] = {name: fields.get(name) for name in IMPLIED_FIELDS}
        for name in kind.fields:
            value = fields.get(name)
            if name in kind.translatable and isinstance(value, str):
                value = text(card, name)
            elif isinstance(value, list):
                value = ", ".join(str(v) for v in value)
            values[name] = value
        return values

    def icon_painters(self) -> dict[str, Callable[..., list[Op]]]:
        return {f"icon-{name}": svg_icon(path) for name, path in self.icons.items()}


# --- reading game.yaml -------------------------------------------------------------------------

def _kind_schema(name: str, raw: Mapping[str, Any], doc: YamlDocument
                 ) -> tuple[KindDefinition | None, list[Finding]]:
    base = ("kinds", name, "schema")
    schema = dict(raw)
    problem = _schema_problem(schema)
    if problem is not None:
        path, message, instance = problem
        where = doc.where((*base, *path)) if path else doc.where(base)
        if path and path[-1] == "type" and isinstance(instance, str):
            message = (f"'{instance}' is not a JSON Schema type (one of: "
                       f"{', '.join(_JSON_TYPES)}){did_you_mean(instance, list(_JSON_TYPES))}")
        return None, [error("bad-kind-schema", f"kind '{name}': not a valid JSON Schema: "
                            f"{message}", where)]
    for path, pattern in unrunnable_patterns(schema):
        return None, [error("bad-kind-schema", f"kind '{name}': the pattern {pattern!r} uses "
                            "lookaround or a backreference, which pnp does not run (a pack's "
                            "patterns run in linear time); write it without",
                            doc.where((*base, *path)))]
    properties = dict(schema.get("properties") or {})
    required = schema.get("required") or []
    for index, field in enumerate(required):
        if field not in properties and field not in IMPLIED_FIELDS \
                and schema.get("additionalProperties", False) is False:
            return None, [error("bad-kind-schema", f"kind '{name}': '{field}' is required but "
                                "is not one of its properties"
                                f"{did_you_mean(str(field), sorted(properties))}",
                                doc.where((*base, "required", index)))]
    for implied in IMPLIED_FIELDS:
        if implied in properties:
            return None, [error("bad-kind-schema", f"kind '{name}': '{implied}' is implied; "
                                "leave it out of the schema", doc.where_key(
                                    (*base, "properties", implied)))]
    full = dict(schema)
    full["type"] = "object"
    full["properties"] = {"id": _ID_SCHEMA, "kind": {"const": name},
                          "count": {"type": "integer", "minimum": 1, "maximum": 1000},
                          **properties}
    full["required"] = ["id", "kind", *[r for r in schema.get("required", [])
                                        if r not in IMPLIED_FIELDS]]
    full.setdefault("additionalProperties", False)
    translatable = tuple(p for p, s in properties.items()
                         if isinstance(s, Mapping) and s.get("x-translate") is True)
    images = tuple(p for p, s in properties.items()
                   if isinstance(s, Mapping) and s.get("format") == "image")
    findings = [error("bad-kind-schema", f"kind '{name}': x-translate marks text fields; "
                      f"'{p}' is not of type string", doc.where((*base, "properties", p)))
                for p in translatable if properties[p].get("type") != "string"]
    labels, problems = _enum_labels(name, properties, doc, base)
    return KindDefinition(name, "", "", MappingProxyType(full), translatable, images,
                          tuple(properties), labels), findings + problems


def enum_label_key(kind: str, field: str, value: object) -> str:
    """The label key of an enum value's printed text (``x-labels``): ``kind.field:value``,
    the comment translators see beside the text in the catalog."""
    return f"{kind}.{field}:{value}"


def _enum_labels(kind: str, properties: Mapping[str, Any], doc: YamlDocument,
                 base: tuple[str, ...]) -> tuple[Mapping[str, Mapping[str, str]],
                                                 list[Finding]]:
    """``x-labels: {value: "Printed text"}`` of the kind's enum fields, checked: a mapping of
    the field's own values to texts."""
    labels: dict[str, Mapping[str, str]] = {}
    findings: list[Finding] = []
    for field, schema in properties.items():
        if not isinstance(schema, Mapping) or "x-labels" not in schema:
            continue
        where = (*base, "properties", field, "x-labels")
        raw = schema["x-labels"]
        values = field_values(schema)
        if values is None:
            findings.append(error("bad-kind-schema", f"kind '{kind}': x-labels names the "
                                  f"printed text of each value of an enum field; '{field}' "
                                  "has no enum", doc.where(where)))
            continue
        if not isinstance(raw, Mapping):
            findings.append(error("bad-kind-schema", f"kind '{kind}': x-labels of '{field}' "
                                  "maps each value to its printed text ({value: \"Text\"})",
                                  doc.where(where)))
            continue
        checked: dict[str, str] = {}
        for value, text in raw.items():
            if str(value) not in values:
                findings.append(error(
                    "bad-kind-schema", f"kind '{kind}': x-labels of '{field}' names "
                    f"'{value}', which is not one of its values ({', '.join(sorted(values))})"
                    f"{did_you_mean(str(value), sorted(values))}",
                    doc.where_key((*where, value))))
            elif not isinstance(text, str) or not text.strip():
                findings.append(error("bad-kind-schema", f"kind '{kind}': the label of "
                                      f"'{value}' must be a text", doc.where((*where, value))))
            else:
                checked[str(value)] = text
        labels[field] = MappingProxyType(checked)
    return MappingProxyType(labels), findings


def _enum_gaps(kinds: Mapping[str, KindDefinition], templates: Mapping[str, Template],
               doc: YamlDocument) -> tuple[EnumGap, ...]:
    """The enum fields each kind prints in a text (``{field}`` in a text element of its front
    or back) with values that have no label."""
    gaps: list[EnumGap] = []
    for name, kind in kinds.items():
        printed: set[str] = set()
        for template_name in (kind.front, kind.back):
            template = templates.get(template_name)
            for element in template.elements if template is not None else ():
                if element.type == "text" and isinstance(element.get("text"), str):
                    printed.update(PLACEHOLDER.findall(str(element.get("text"))))
        for field in kind.fields:
            schema = kind.schema["properties"].get(field)
            values = field_values(schema) if isinstance(schema, Mapping) else None
            if field not in printed or values is None:
                continue
            missing = values - set(kind.labels.get(field, {}))
            if missing:
                gaps.append(EnumGap(name, field, frozenset(missing), doc.where_key(
                    ("kinds", name, "schema", "properties", field))))
    return tuple(gaps)




def _written_schema(raw: object) -> dict[str, Any]:
    """A kind's schema as written, reduced to what the checks of templates and rules read:
    its properties that are mappings (whatever mistakes the schema has)."""
    schema = dict(raw) if isinstance(raw, Mapping) else {}
    properties = schema.get("properties")
    schema["properties"] = {str(k): v for k, v in properties.items() if isinstance(v, Mapping)} \
        if isinstance(properties, Mapping) else {}
    if not isinstance(raw, Mapping) or not isinstance(properties, Mapping | None):
        schema["x-unreadable"] = True  # its fields are unknown
    return schema


def _fonts(data: Mapping[str, Any], root: Path, doc: YamlDocument
           ) -> tuple[dict[str, str], list[Finding]]:
    fonts = builtin_fonts()
    findings: list[Finding] = []
    for name, path in (data.get("fonts") or {}).items():
        where = doc.where(("fonts", name))
        if name in fonts:
            findings.append(error("bad-font", f"font name '{name}' is a built-in family; "
                                  "choose another name", doc.where_key(("fonts", name))))
            continue
        try:
            fonts[name] = pack_font_style(resolve(root, str(path), "font"))
        except ArtProblem as problem:
            findings.append(error("bad-font", problem.message.replace("no art file",
                                                                     "no font file"), where))
            fonts[name] = "regular"  # reported here; templates naming it are not wrong too
        except ValueError as exc:
            findings.append(error("bad-font", f"'{path}' is not a usable TrueType font ({exc})",
                                  where))
            fonts[name] = "regular"
    return fonts, findings


def _templates(kinds: dict[str, KindDefinition], raw_kinds: Mapping[str, Any], root: Path,
               scope_args: dict[str, Any], doc: YamlDocument
               ) -> tuple[dict[str, Template], list[Finding]]:
    """Each template named by a kind, loaded once and checked against every kind it draws."""
    users: dict[str, list[str]] = {}
    findings: list[Finding] = []
    for name in kinds:
        for side in ("front", "back"):
            template = str(raw_kinds[name][side])
            users.setdefault(template, []).append(name)
            refusal = named_file_refusal(root, root / TEMPLATES_DIR / f"{template}.yaml",
                                         "template")
            if refusal is not None and refusal.code == "missing":
                available = sorted(p.stem for p in (root / TEMPLATES_DIR).glob("*.yaml"))
                findings.append(error(
                    "missing-template", f"kind '{name}': no template '{template}' "
                    f"({TEMPLATES_DIR}/{template}.yaml){did_you_mean(template, available)}",
                    doc.where(("kinds", name, side))))
            elif refusal is not None:  # a dangling link, a named pipe...: say which
                findings.append(error(
                    "missing-template", f"kind '{name}': template '{template}' "
                    f"({TEMPLATES_DIR}/{template}.yaml) {refusal.reason}",
                    doc.where(("kinds", name, side))))
    templates: dict[str, Template] = {}
    for template, kind_names in users.items():  # (a template extended by several: once)
        path = root / TEMPLATES_DIR / f"{template}.yaml"
        if named_file_refusal(root, path, "template") is not None:
            continue
        fields = frozenset(f for k in kind_names for f in kinds[k].fields)
        schemas: dict[str, list[Mapping[str, Any]]] = {}
        for kind_name in dict.fromkeys(kind_names):
            for field, schema in kinds[kind_name].schema["properties"].items():
                if isinstance(schema, Mapping):
                    schemas.setdefault(field, []).append(schema)
        scope = TemplateScope(
            fields=fields, field_schemas={f: tuple(s) for f, s in schemas.items()},
            translatable=frozenset(f for k in kind_names for f in kinds[k].translatable),
            kinds=frozenset(kind_names), game_kinds=frozenset(kinds), fields_known=not any(
                kinds[k].schema.get("x-unreadable") for k in kind_names), **scope_args)
        loaded, problems = load_data_template(path, template, scope)
        findings += problems
        if loaded is not None:
            templates[template] = loaded
    # a template that others extend is read with each of them: its problems are said once
    return templates, list(dict.fromkeys(findings))


def _other_template_files(root: Path, used: set[str]) -> list[Finding]:
    """The files of ``templates/`` no kind draws with are read too (``pnp i18n`` takes the
    labels of every template, and ``labels.yaml`` names label texts): one that cannot be read
    as YAML, or a labels.yaml that is not ``key: text``, is a finding, never left out quietly."""
    folder = PackFolder(root)
    findings: list[Finding] = []
    for file in folder.files().files:
        parts = file.relative.parts
        if len(parts) != 2 or parts[0] != TEMPLATES_DIR or file.suffix != ".yaml" \
                or file.relative.stem in used:
            continue
        doc, problems = folder.load_yaml(file, "template")
        findings += problems
        if doc is None or parts[1] != "labels.yaml":
            continue
        if not isinstance(doc.data, Mapping):
            findings.append(error("bad-labels", "labels.yaml maps each label key to its text "
                                  "(key: text)", doc.where(())))
            continue
        findings += [error("bad-labels", f"label '{key}' must be a text, not "
                           f"{describe_type(value)}", doc.where((key,)))
                     for key, value in doc.data.items() if not isinstance(value, str)]
    return findings


class DataDefinedGame(Game, frozen=True):
    """A game defined in data, as the pipeline sees it: every question answered from its
    definition (game.yaml, the pack's templates, art and icons)."""

    definition: DataGame | None = None
    # (generator.datagame.tables.TABLE_SUFFIXES, named here: that module loads when a table does)
    card_file_suffixes: frozenset[str] = YAML_SUFFIXES | {".csv", ".xlsx", ".ods"}
    art_checked_on_load: bool = True
    layout_child_share: float = 0.75

    @property
    def _defined(self) -> DataGame:
        assert self.definition is not None
        return self.definition

    def template(self, name: str) -> Template | None:
        return self._defined.template(name)

    def art_folder(self) -> Path:
        return self._defined.root

    def icon_painters(self) -> Mapping[str, Callable[..., list]]:
        """The pack's ``icons/<name>.svg`` as ``{icon-<name>}``."""
        assert self.faces is not None
        return self.faces.icons

    def palette(self, variant: str = "normal") -> Mapping[str, str]:
        return self._defined.palette

    def prepare_face(self, ctx: object, card: Card, card_root: Path | None) -> None:
        self._defined.prepare(ctx, card, card_root)

    def enum_label_gaps(self) -> tuple[tuple[str, str, frozenset[str], Location], ...]:
        return tuple((g.kind, g.field, g.unlabelled, g.location)
                     for g in self._defined.enum_gaps)

    def rule_rows(self) -> list[RuleRow]:
        """The ``rules:`` and ``deck:`` of game.yaml, as ``pnp rules`` lists them."""
        definition = self._defined
        rows = [RuleRow(r.code, r.level, r.kind, str(r.severity), r.cites, r.message, r.check)
                for r in definition.rules]
        deck = definition.deck
        if deck is None:
            return rows
        if deck.min_size is not None or deck.max_size is not None:
            low = deck.min_size if deck.min_size is not None else 0
            high = deck.max_size if deck.max_size is not None else "any number of"
            size = f"exactly {low}" if low == high else f"{low} to {high}"
            rows.append(RuleRow("deck-size", "deck", None, "error", None,
                                f"a deck holds {size} cards"))
        if deck.max_copies is not None:
            rows.append(RuleRow("deck-max-copies", "deck", None, "error", None,
                                f"at most {deck.max_copies} copies of a card in a deck"))
        rows += [RuleRow(r.code, "deck", None, str(r.severity), r.cites, r.message, r.check)
                 for r in deck.rules]
        return rows


def _deck(data: Mapping[str, Any], doc: YamlDocument, ctx: RuleContext
          ) -> tuple[DeckDefinition | None, list[Finding]]:
    raw = data.get("deck")
    if not isinstance(raw, Mapping):
        return None, []
    size = raw.get("size") or {}
    rules, findings = compile_rules(raw.get("rules") or [], ("deck", "rules"), doc, ctx,
                                    deck=True)
    if size.get("min") is not None and size.get("max") is not None \
            and size["min"] > size["max"]:
        findings.append(error("bad-deck", f"deck size min {size['min']} is above max "
                              f"{size['max']}", doc.where(("deck", "size"))))
    return DeckDefinition(size.get("min"), size.get("max"), raw.get("max_copies"),
                          tuple(rules), doc.where(("deck",))), findings


def load_data_game(doc: YamlDocument, root: Path) -> tuple[Game | None, list[Finding]]:
    """The game a pack's game.yaml defines (its ``kinds:``); None when it cannot be used."""
    data = doc.data
    assert isinstance(data, Mapping)
    name = str(data["pack"])
    findings: list[Finding] = []
    raw_kinds: Mapping[str, Any] = data["kinds"]
    kinds: dict[str, KindDefinition] = {}
    # a kind whose schema has a mistake is reported once: templates, rules and decks still
    # see the fields written for it, so they are not reported wrong because of it
    written = {k: _written_schema(raw["schema"]) for k, raw in raw_kinds.items()}
    drawn: dict[str, KindDefinition] = {}
    for kind_name, raw in raw_kinds.items():
        kind, problems = _kind_schema(kind_name, raw["schema"], doc)
        findings += problems
        if kind is None:
            props = written[kind_name]["properties"]
            kind = KindDefinition(kind_name, "", "", MappingProxyType(written[kind_name]), (),
                                  (), tuple(props))
        else:
            kinds[kind_name] = kind = KindDefinition(
                kind_name, str(raw["front"]), str(raw["back"]), kind.schema,
                kind.translatable, kind.images, kind.fields, kind.labels)
        drawn[kind_name] = kind
    palette = MappingProxyType({**DEFAULT_PALETTE, **(data.get("palette") or {})})
    fonts, problems = _fonts(data, root, doc)
    findings += problems
    icons = dict(icon_files(root))
    scope_args = {"game": name, "root": root, "palette": palette, "fonts": fonts,
                  "icons": frozenset(icons)}
    templates, problems = _templates(drawn, raw_kinds, root, scope_args, doc)
    findings += problems
    # a trial run of the rules uses sample cards of the kinds whose schemas are sound only
    ctx = RuleContext(fields={k: frozenset(s["properties"]) for k, s in written.items()},
                      samples={k: sample_card(k, written[k]) for k in kinds},
                      values={k: kind_values(k, s) for k, s in written.items()})
    rules, problems = compile_rules(data.get("rules") or [], ("rules",), doc, ctx)
    findings += problems
    deck, problems = _deck(data, doc, ctx)
    findings += problems
    if len(kinds) < len(raw_kinds) or any(f.code in {"missing-template", "bad-template",
                                                     "yaml-syntax"} for f in findings):
        return None, findings
    findings += _other_template_files(root, set(templates))
    definition = DataGame(name=name, root=root, kinds=kinds, templates=templates,
                          palette=palette, fonts=fonts, icons=icons, rules=tuple(rules),
                          deck=deck, manifest_file=doc.file,
                          enum_gaps=_enum_gaps(kinds, templates, doc))
    register_template_folder(name, root / TEMPLATES_DIR)
    register_enum_labels(name, {
        enum_label_key(kind.name, field, value): (text, doc.where(
            ("kinds", kind.name, "schema", "properties", field, "x-labels", value)))
        for kind in kinds.values() for field, labels in kind.labels.items()
        for value, text in labels.items()})
    return _game(definition, raw_kinds, data, doc), findings


def _schema_problem(schema: dict[str, Any]) -> tuple[tuple[Any, ...], str, object] | None:
    """Where and why ``schema`` is not a valid JSON Schema (2020-12), and the offending value;
    None when it is one. jsonschema-rs's compiled meta-schema check answers first; jsonschema
    (slow to import) explains a failure."""
    import jsonschema_rs

    from generator.schema.check import plain_schema

    try:
        if jsonschema_rs.meta.is_valid(plain_schema(schema)):
            return None
    except Exception:  # a value jsonschema-rs cannot take: jsonschema decides
        pass
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return tuple(exc.absolute_path) or tuple(exc.path), exc.message, exc.instance
    return None


def _game(definition: DataGame, raw_kinds: Mapping[str, Any], data: Mapping[str, Any],
          doc: YamlDocument) -> Game:
    from generator.datagame.checks import art_findings, deck_findings

    kinds = {}
    for name, kind in definition.kinds.items():
        size = raw_kinds[name].get("size")
        radius = raw_kinds[name].get("corner_radius_mm")
        kinds[name] = CardKind(
            name, f"{name}.schema.json", card_builder(kind.translatable),
            size=CardSize.from_spec(size) if size else None, schema_data=kind.schema,
            corner_radius_mm=float(radius) if radius is not None else None,
            size_location=doc.where(("kinds", name, "size")) if size else
            doc.where(("kinds", name, "corner_radius_mm")) if radius is not None else None,
            partial=partial_builder(kind.translatable))

    def rule_check(card_set) -> list[Finding]:
        cards = [c for c in card_set.cards if isinstance(c, DataCard)]
        return check_rules(definition.rules, cards) + art_findings(definition, card_set)

    faces = Faces(front_template=lambda card: definition.kinds[card.kind].front,
                  back_template=lambda card: definition.kinds[card.kind].back,
                  values=definition.face_values, widgets={},
                  icons=definition.icon_painters())
    deck_rules = () if definition.deck is None else (
        lambda deck, card_set: deck_findings(definition, deck, card_set),)
    return DataDefinedGame(name=definition.name, title=str(data.get("name", definition.name)),
                           schema_package="", kinds=MappingProxyType(kinds),
                           rules=(rule_check,), faces=faces, deck_rules=deck_rules,
                           text_styles=definition.text_styles, definition=definition)


__all__ = ["DataDefinedGame", "DataGame", "load_data_game"]
