"""Rules written in data: CEL checks over one card, the whole set, or a deck.

Each rule is compiled once when game.yaml is read, and checked statically there, so that a
mistake in a rule is reported at the rule's own line in game.yaml (syntax, a field no kind has,
values of the wrong type), never as a traceback and never once per card:

- names and fields are checked against the kinds' schemas by walking the parse tree;
- types are checked by a trial run on a sample card built from each kind's schema;
- a rule whose cost, estimated on its tree for the cards at hand, is over the limit is refused
  before it runs (generator.rules.celtree.estimate_cost), and CEL's own budget stops any evaluation
  after 10,000 iterations.

Evaluation is memoized on the fields a rule reads (CEL has no side effects, so equal inputs give
equal results): a rule that reads ``cost`` and ``power`` runs once per distinct pair, not once
per card, which keeps ``pnp validate`` of a thousand-card game well under a second.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from msgspec import Struct
from msgspec.structs import replace

from generator.core.findings import Finding, Severity, did_you_mean, error, warning
from generator.core.location import Location
from generator.core.records import PartlyCompared
from generator.datagame.cards import IMPLIED_FIELDS, DataCard
from generator.load.yamldoc import YamlDocument
from generator.rules.cel import (
    MAX_COST,
    CelProblem,
    Expression,
    compile_expression,
    describe_error,
    first_macro,
    is_error,
    memo_key,
    over_budget,
    reads,
    type_clash,
    unknown_functions,
)
from generator.rules.celtree import Reads, compared_literals, estimate_cost

MAX_NAMED = 8  # cards named in one finding; the rest are counted


class DataRule(PartlyCompared, Struct, frozen=True):
    """One rule of game.yaml (``rules:`` or ``deck: rules:``); its compiled expression and
    what it reads follow from ``check`` and are left out of equality and hash."""

    code: str
    level: str  # card | set | deck
    kind: str | None
    check: str
    message: str
    severity: Severity
    cites: str | None
    location: Location  # the rule entry in game.yaml
    check_location: Location
    expression: Expression | None = None
    reads: Reads | None = None

    _UNCOMPARED = frozenset({"expression", "reads"})

    def text(self) -> str:
        return f"{self.message} ({self.cites})" if self.cites else self.message

    def finding(self, message: str, location: Location, card: str | None = None) -> Finding:
        make = error if self.severity is Severity.ERROR else warning
        return make(self.code, message, location, card)


# --- compiling ---------------------------------------------------------------------------------

def _sample(schema: Mapping[str, Any], depth: int = 0) -> object:
    """A value valid for ``schema``'s type, for the trial run that finds type mistakes."""
    if depth > 6:
        return None
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    low = schema.get("minimum", 1)
    low = low if isinstance(low, int | float) and not isinstance(low, bool) and low < 1e9 else 1
    if kind == "integer":
        return max(1, int(low))
    if kind == "number":
        return float(max(1, low))
    if kind == "boolean":
        return True
    if kind == "array":
        items = schema.get("items")
        return [_sample(items, depth + 1)] if isinstance(items, Mapping) else []
    if kind == "object":
        props = schema.get("properties") or {}
        return {k: _sample(v, depth + 1) for k, v in props.items() if isinstance(v, Mapping)}
    if kind == "string":
        return "x"
    return "x"


def sample_card(kind: str, schema: Mapping[str, Any]) -> dict[str, object]:
    props = schema.get("properties") or {}
    card = {name: _sample(sub) for name, sub in props.items() if isinstance(sub, Mapping)}
    card.update({"id": f"sample-{kind}", "kind": kind, "count": 1})
    return card


def field_values(schema: Mapping[str, Any]) -> frozenset[str] | None:
    """The only values a field may take (``enum``/``const`` of strings), None for any."""
    if "const" in schema:
        return frozenset({str(schema["const"])})
    if isinstance(schema.get("enum"), list):
        return frozenset(str(v) for v in schema["enum"])
    return None


def kind_values(kind: str, schema: Mapping[str, Any]) -> dict[str, frozenset[str] | None]:
    """Field -> the values it may take on a card of ``kind`` (``kind`` itself included)."""
    props = schema.get("properties") or {}
    values = {name: field_values(sub) if isinstance(sub, Mapping) else None
              for name, sub in props.items()}
    values["kind"] = frozenset({kind})
    return values


def impossible_values(literals: Sequence[tuple[str, str, str]], values_of: Any,
                      game_kinds: Iterable[str], reach: str) -> list[str]:
    """Comparisons with a value no card in reach can have (``c.kind == 'legnd'``):
    ``values_of(variable, field)`` gives the allowed values, or None when any value goes;
    ``reach`` says which cards are in reach ("this rule checks")."""
    kinds = sorted(game_kinds)
    problems: list[str] = []
    for variable, name, text in dict.fromkeys(literals):
        allowed = values_of(variable, name)
        if allowed is None or text in allowed:
            continue
        if name == "kind" and text in kinds:
            problems.append(f"'{text}' never matches: {reach} {', '.join(sorted(allowed))} "
                            "cards only")
        elif name == "kind":
            problems.append(f"'{text}' is not a kind of this game (its kinds: "
                            f"{', '.join(kinds)}){did_you_mean(text, kinds)}")
        else:
            problems.append(f"'{text}' is not a possible '{name}' (expected one of: "
                            f"{', '.join(sorted(allowed))}){did_you_mean(text, sorted(allowed))}")
    return problems


class RuleContext(Struct, frozen=True):
    """What the static checks know of the game: each kind's fields and a sample card."""

    fields: dict[str, frozenset[str]]
    samples: dict[str, dict[str, object]]
    #: kind -> field -> the values the field may take (None: any)
    values: dict[str, dict[str, frozenset[str] | None]] = {}

    def values_of(self, kinds: Iterable[str], name: str) -> frozenset[str] | None:
        """Values ``name`` may take on cards of ``kinds``; None when any value may come."""
        allowed: set[str] = set()
        seen = False
        for kind in kinds:
            if name not in self.values.get(kind, {}):
                continue
            seen = True
            values = self.values[kind][name]
            if values is None:
                return None
            allowed |= values
        return frozenset(allowed) if seen else None

    def fields_of(self, kind: str | None) -> frozenset[str]:
        if kind is not None:
            return self.fields.get(kind, frozenset())
        return frozenset().union(*self.fields.values()) if self.fields else frozenset()


def _unknown_names(rule: DataRule, facts: Reads, ctx: RuleContext) -> list[str]:
    """Names and fields the rule reads that no kind in its reach has."""
    card_fields = ctx.fields_of(rule.kind) | set(IMPLIED_FIELDS)
    every_field = ctx.fields_of(None) | set(IMPLIED_FIELDS)
    allowed = {"card": {"self", "cards"} | card_fields, "set": {"cards"},
               "deck": {"deck", "cards"}}[rule.level]
    problems: list[str] = []
    for name in sorted(facts.names - allowed):
        choices = sorted(allowed)
        problems.append(f"unknown name '{name}'{did_you_mean(name, choices)}")
    for variable, name in sorted(facts.fields):
        over = facts.ranges.get(variable)
        if variable == "self" and rule.level == "card":
            known = card_fields
        elif over == "cards":
            known = every_field
        elif over == "deck":
            known = {"card", "count"}
        else:
            continue
        if name not in known:
            problems.append(f"unknown field '{name}'{did_you_mean(name, sorted(known))}")
    return problems


def _reach(rule: DataRule, facts: Reads, ctx: RuleContext):
    """``values_of(variable, field)`` for a rule: ``self`` and bare names are the rule's kind
    (or any kind), a variable over ``cards`` or a deck entry's ``card`` any kind."""
    every = sorted(ctx.fields)
    own = [rule.kind] if rule.kind else every

    def values_of(variable: str, name: str) -> frozenset[str] | None:
        if variable in {"self", ""} and rule.level == "card":
            return ctx.values_of(own, name)
        head, _, member = variable.partition(".")
        over = facts.ranges.get(head)
        if (over == "cards" and not member) or (over == "deck" and member == "card"):
            return ctx.values_of(every, name)
        return None

    return values_of


def _trial(rule: DataRule, ctx: RuleContext) -> tuple[str, str] | None:
    """Run the rule on sample cards; a type mistake shows up as an error or a non-boolean
    (``rule-wrong-type``). A rule that exhausts CEL's iteration budget on the samples alone
    (literal lists ranged over) is ``rule-too-costly``, whatever its type. Returns the
    finding's code and message."""
    assert rule.expression is not None
    if rule.kind is not None and rule.kind not in ctx.samples:
        return None  # the kind's schema has a mistake (reported there): no sample to try
    kinds = [rule.kind] if rule.kind else sorted(ctx.samples)
    samples = [ctx.samples[k] for k in kinds if k in ctx.samples]
    cards = [ctx.samples[k] for k in sorted(ctx.samples)]
    for sample in samples or [{}]:
        activation: dict[str, Any] = {"cards": cards}
        if rule.level == "card":
            activation.update(sample)
            activation["self"] = sample
        elif rule.level == "deck":
            activation["deck"] = [{"card": sample, "count": 1}]
        value = rule.expression.evaluate(activation)
        if over_budget(value):
            return "rule-too-costly", describe_error(value)
        if is_error(value):
            text = describe_error(value)
            if text.startswith("no field"):
                continue  # a field only some kinds have; the name check covers real typos
            return "rule-wrong-type", type_clash(rule.expression, activation) or text
        if not isinstance(value, bool):
            return "rule-wrong-type", (f"the check gives {_kind_of(value)} ({value}), not "
                                       "true or false")
        # `a || b` is true when b is, even if a is an error: look at each operation too
        clash = type_clash(rule.expression, activation)
        if clash is not None:
            return "rule-wrong-type", clash
    return None


def _kind_of(value: object) -> str:
    """CEL's name for the type of a plain value."""
    return {"int": "int", "float": "double", "str": "string", "list": "list", "dict": "map",
            "NoneType": "null"}.get(type(value).__name__, type(value).__name__)


def compile_rules(entries: Sequence[Mapping[str, Any]], path: tuple[str, ...],
                  doc: YamlDocument, ctx: RuleContext, deck: bool = False
                  ) -> tuple[list[DataRule], list[Finding]]:
    """Rules of one list of game.yaml (``rules`` or ``deck.rules``); bad ones become findings
    at their line and are left out."""
    rules: list[DataRule] = []
    findings: list[Finding] = []
    for index, entry in enumerate(entries):
        base = (*path, index)
        kind = str(entry["kind"]) if entry.get("kind") is not None else None
        level = "deck" if deck else ("set" if entry.get("scope") == "set" else "card")
        rule = DataRule(
            code=str(entry["code"]), level=level, kind=kind, check=str(entry["check"]),
            message=str(entry["message"]),
            severity=Severity.WARNING if entry.get("severity") == "warning" else Severity.ERROR,
            cites=str(entry["cites"]) if entry.get("cites") else None,
            location=doc.where(base), check_location=doc.where((*base, "check")))
        if kind is not None and kind not in ctx.fields:
            findings.append(error("unknown-value", f"rule '{rule.code}': 'kind' is {kind!r}; "
                                  f"expected one of: {', '.join(sorted(ctx.fields))}"
                                  f"{did_you_mean(kind, sorted(ctx.fields))}",
                                  doc.where((*base, "kind"))))
            continue
        try:
            expression = compile_expression(rule.check)
        except CelProblem as problem:
            findings.append(error(problem.code, f"rule '{rule.code}': {problem.message}",
                                  rule.check_location))
            continue
        facts = reads(expression)
        rule = replace(rule, expression=expression, reads=facts)
        unknown = _unknown_names(rule, facts, ctx) + unknown_functions(expression)
        if unknown:
            findings.append(error("rule-unknown-field", f"rule '{rule.code}': "
                                  f"{'; '.join(unknown)}", rule.check_location))
            continue
        impossible = impossible_values(compared_literals(expression.tree),
                                       _reach(rule, facts, ctx), ctx.fields, "this rule checks")
        if impossible:
            findings.append(error("rule-unknown-value", f"rule '{rule.code}': "
                                  f"{'; '.join(impossible)}", rule.check_location))
            continue
        costly = too_costly(rule, {"cards": 1, "deck": 1})
        if costly is not None:  # over the limit whatever the cards: refused now
            findings.append(costly)
            continue
        wrong = _trial(rule, ctx)
        if wrong is not None:
            code, message = wrong
            findings.append(error(code, f"rule '{rule.code}': {message}", rule.check_location))
            continue
        rules.append(rule)
    return rules, findings


# --- evaluating --------------------------------------------------------------------------------

class CelCards:
    """The cards as CEL reads them (plain values, each made once per validation run)."""

    def __init__(self, cards: Iterable[DataCard]) -> None:
        self.cards = list(cards)
        self._values: dict[int, Any] = {}
        self._lists: dict[str | None, list[Any]] = {}

    def value(self, card: DataCard) -> Any:
        """The card's fields as a dict (CEL takes no read-only mapping); values inside are
        YAML's and the tables' own, converted only if CEL refuses one (Expression.evaluate)."""
        key = id(card)
        if key not in self._values:
            self._values[key] = dict(card.fields)
        return self._values[key]

    def listing(self, kind: str | None = None) -> list[Any]:
        if kind not in self._lists:
            self._lists[kind] = [self.value(c) for c in self.cards
                                 if kind is None or c.kind == kind]
        return self._lists[kind]


def too_costly(rule: DataRule, sizes: Mapping[str, int], runs: int = 1) -> Finding | None:
    """rule-too-costly when the estimate of ``runs`` evaluations over lists of ``sizes`` is
    over MAX_COST (each evaluation also hands CEL every list it reads)."""
    assert rule.expression is not None and rule.reads is not None
    each = estimate_cost(rule.expression.tree, sizes)
    each += sum(size for name, size in sizes.items() if name in rule.reads.names)
    total = each * runs
    if total <= MAX_COST:
        return None
    over = ", ".join(f"{size:,} {'cards' if name == 'cards' else 'deck entries'}"
                     for name, size in sizes.items() if name in rule.reads.names and size > 1)
    times = f" on each of {runs:,} cards" if runs > 1 else ""
    scale = f" over {over}" if over else ""
    return error("rule-too-costly", f"rule '{rule.code}' would take about {total:,} steps"
                 f"{scale}{times}; the limit is {MAX_COST:,} (comprehensions multiply: each "
                 "one runs its body once per element of what it ranges over)",
                 rule.check_location)


def named_cards(ids: Sequence[str]) -> str:
    shown = ", ".join(ids[:MAX_NAMED])
    more = f" and {len(ids) - MAX_NAMED} more" if len(ids) > MAX_NAMED else ""
    return f"{len(ids)} card{'s' if len(ids) != 1 else ''}: {shown}{more}"


def eval_failure(rule: DataRule, failures: list[tuple[str, Any]]) -> Finding:
    card, value = failures[0]
    others = f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""
    on = f" on card '{card}'{others}" if card else ""
    code = "rule-too-costly" if over_budget(value) else "rule-error"
    return error(code, f"rule '{rule.code}' cannot be checked{on}: "
                 f"{describe_error(value)}", rule.check_location)


def _card_location(rule: DataRule, card: DataCard) -> Location:
    """The field's line when the rule reads exactly one field of the card, else the card's."""
    assert rule.reads is not None
    read = {name for variable, name in rule.reads.fields if variable == "self"}
    read |= rule.reads.names - {"self", "cards"}
    if len(read) == 1:
        return card.source.of(next(iter(read)))
    return card.source.location


def reads_unsound(rule: DataRule, card: DataCard, as_self: bool) -> bool:
    """Whether ``rule`` reads a field that failed ``card``'s schema (a card built from its
    sound fields only: :attr:`DataCard.unsound`), on the card it checks (``as_self``) or on
    the cards it ranges over: such a rule is not run there, as no value of that field can be
    trusted, nor made up."""
    if not card.unsound:
        return False
    facts = rule.reads
    assert facts is not None
    if as_self:
        if "self" in facts.whole:
            return True
        read = {name for variable, name in facts.fields if variable in ("self", "")}
        return bool(card.unsound & (read | facts.names))
    return bool(card.unsound & {name for variable, name in facts.fields
                                if variable not in ("self", "")})


def check_card_rule(rule: DataRule, cards: CelCards) -> list[Finding]:
    assert rule.expression is not None and rule.reads is not None
    facts = rule.reads
    if "cards" in facts.names and any(reads_unsound(rule, c, False) for c in cards.cards):
        return []  # (the set holds a card whose value this rule would read is unsound)
    targets = [c for c in cards.cards if (rule.kind is None or c.kind == rule.kind)
               and not reads_unsound(rule, c, True)]
    bare = sorted(facts.names - {"self", "cards"})
    self_fields = {name for variable, name in facts.fields if variable == "self"}
    memo_names = None if "self" in facts.whole else sorted(self_fields | set(bare))
    keys = [memo_key(card.fields, memo_names) if memo_names is not None else None
            for card in targets]
    runs = len(set(keys)) if memo_names is not None else len(targets)
    costly = too_costly(rule, {"cards": len(cards.cards)}, runs)
    if costly is not None:
        return [costly]
    reads_cards = "cards" in facts.names
    memo: dict[tuple, Any] = {}
    findings: list[Finding] = []
    failures: list[tuple[str, Any]] = []
    for card, key in zip(targets, keys, strict=True):
        if key is not None and key in memo:
            value = memo[key]
        else:
            fields = cards.value(card)
            activation: dict[str, Any] = {name: fields[name] for name in bare if name in fields}
            activation["self"] = fields
            if reads_cards:
                activation["cards"] = cards.listing()
            value = rule.expression.evaluate(activation)
            if key is not None:
                memo[key] = value
        if value is True:
            continue
        if is_error(value) or not isinstance(value, bool):
            failures.append((card.id, value))
            continue
        findings.append(rule.finding(rule.text(), _card_location(rule, card), card.id))
    if failures:
        findings.append(eval_failure(rule, failures))
    return findings


def involved(rule: DataRule, over: str, items: Sequence[tuple[str, Any]],
             bindings: Mapping[str, Any]) -> list[str]:
    """Names of the items a failed set or deck rule is about, read from its first
    comprehension: the cards a ``filter``/``exists`` selects, or those an ``all`` rejects."""
    assert rule.expression is not None
    macro = first_macro(rule.expression, [over])
    if macro is None:
        return []
    method, variable, predicate = macro
    needed = {k: v for k, v in bindings.items() if k in reads(predicate).names}
    names: list[str] = []
    for name, value in items:
        result = predicate.evaluate({**needed, variable: value})
        if isinstance(result, bool) and result is (method != "all"):
            names.append(name)
    return names


def check_set_rule(rule: DataRule, cards: CelCards) -> list[Finding]:
    assert rule.expression is not None
    if any(reads_unsound(rule, c, False) for c in cards.cards
           if rule.kind is None or c.kind == rule.kind):
        return []  # (a card of the set failed its schema in a field this rule reads)
    listing = cards.listing(rule.kind)
    costly = too_costly(rule, {"cards": len(listing)})
    if costly is not None:
        return [costly]
    value = rule.expression.evaluate({"cards": listing})
    if value is True:
        return []
    if is_error(value) or not isinstance(value, bool):
        return [eval_failure(rule, [("", value)])]
    targets = [c for c in cards.cards if rule.kind is None or c.kind == rule.kind]
    ids = involved(rule, "cards", [(c.id, cards.value(c)) for c in targets],
                   {"cards": listing})
    text = f"{rule.text()}; {named_cards(ids)}" if ids else rule.text()
    return [rule.finding(text, rule.location)]


def check_rules(rules: Sequence[DataRule], cards: Iterable[DataCard]) -> list[Finding]:
    values = CelCards(cards)
    findings: list[Finding] = []
    for rule in rules:
        if rule.level == "set":
            findings += check_set_rule(rule, values)
        else:
            findings += check_card_rule(rule, values)
    return findings
