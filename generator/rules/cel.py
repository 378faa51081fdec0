"""CEL (Common Expression Language), pnp's one engine: cel-expr-python, Google's C++ runtime.

CEL is typed, side-effect free and always terminates, which is why a pack written by a stranger
may carry its own rules. The library was chosen by measurement (docs/cel.md,
bench/cel_engines.py): it agrees with cel-python on every evaluation pnp makes, evaluates one
in about 11 microseconds (cel-python: about 250), imports in milliseconds, reports syntax errors
and unknown names with their line and column, and stops any evaluation after 10,000
iterations of its comprehensions (a fixed budget of the library).

This module is the only one that imports it. It is used unpatched, through its public API:

- an expression is compiled once (unchecked: names are looked up when evaluated, since a card
  may lack an optional field) and evaluated over plain Python values;
- errors are values (:class:`CelError`), never exceptions, and :func:`describe_error` says them
  in one plain sentence;
- ``sum(list)`` (also ``list.sum()``) adds numbers, so that a deck rule can count copies:
  ``sum(deck.map(e, e.count))``; it is pnp's only function beyond CEL's standard ones;
- the parsed tree (generator.rules.celtree) is read only when a check needs it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache, cached_property
from typing import Any

from msgspec import Struct

from generator.core.findings import did_you_mean
from generator.rules.celtree import (
    OPERATORS,
    Node,
    Reads,
    parse_serialized,
    serialized_subtree,
    text_of,
)
from generator.rules.celtree import reads as tree_reads

MAX_EXPRESSION_CHARS = 2000
#: steps a rule may cost by the estimate on its tree (generator.rules.celtree.estimate_cost): a
#: rule over it is refused before it runs (rule-too-costly), so that no pack makes validation
#: take long or hold much memory
MAX_COST = 2_000_000
#: cel-expr-python's own budget: iterations of every comprehension in one evaluation together
ITERATION_BUDGET = 10_000
#: CEL's standard functions and macros, and pnp's sum: for "did you mean" only (the library
#: itself decides which functions exist)
KNOWN_FUNCTIONS = ("all", "bool", "bytes", "contains", "double", "dyn", "duration",
                   "endsWith", "exists", "exists_one", "filter", "has", "int", "map", "matches",
                   "size", "startsWith", "string", "sum", "timestamp", "type", "uint")


class CelProblem(Exception):
    """A CEL expression that cannot be compiled; ``code`` is the finding's code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class CelError(Struct, frozen=True, gc=False):
    """The error an evaluation gave (a value, as CEL's errors are)."""

    message: str

    def __repr__(self) -> str:
        return f"CelError({self.message!r})"


def _sum(values: Any) -> Any:
    """CEL's ``sum``: the total of a list of ints, or of doubles (CEL mixes no numbers)."""
    if not isinstance(values, list):
        raise TypeError("sum() takes a list of numbers")
    kinds = {type(v) for v in values}
    if kinds - {int, float} or bool in kinds:
        raise TypeError("sum() takes a list of numbers")
    if len(kinds) > 1:
        raise TypeError("sum() of ints and doubles together: CEL does not mix them "
                        "(convert with double())")
    total = sum(values)
    if isinstance(total, int) and not -(2 ** 63) <= total < 2 ** 63:
        raise OverflowError("sum() overflows a 64-bit int")
    return total


def _functions(cel: Any) -> list[Any]:
    """pnp's one function beyond CEL's own: ``sum(list)`` and ``list.sum()``."""
    any_type = cel.Type.DYN
    return [cel.FunctionDecl("sum", [
        cel.Overload("pnp_sum_list", return_type=any_type,
                     parameters=[cel.Type.List(any_type)], impl=_sum),
        cel.Overload("pnp_list_sum", return_type=any_type,
                     parameters=[cel.Type.List(any_type)], is_member=True, impl=_sum)])]


@cache
def _runtime() -> tuple[Any, Any]:
    """The library and its one environment (imported here, lazily on purpose: a pack without
    CEL never loads it, and ``pnp --help`` never does)."""
    from cel_expr_python import cel

    return cel, cel.NewEnv(functions=_functions(cel))


@cache
def _checker(names: frozenset[str]) -> Any:
    """An environment declaring ``names`` (every one dynamic): its type checker names the
    functions that do not exist."""
    cel, _ = _runtime()
    return cel.NewEnv(variables=dict.fromkeys(names, cel.Type.DYN), functions=_functions(cel))


_LOCATION = re.compile(r"<input>:(\d+):(\d+): (.*)")
#: the parser's (ANTLR's) wordings, said shortly: its "expecting {...}" lists every token
_PARSER_WORDS = ((re.compile(r"mismatched input '<EOF>' expecting .*"),
                  "the expression ends where more is expected"),
                 (re.compile(r"(?:mismatched|extraneous) input ('.*?') expecting .*"),
                  r"unexpected \1"),
                 (re.compile(r"no viable alternative at input ('.*')"), r"cannot read \1"),
                 (re.compile(r"token recognition error at: ('.*')"), r"unknown character \1"))


def _first_error(exc: Exception) -> tuple[int | None, str]:
    """(column, message) of the library's first error line: ``ERROR: <input>:1:14: ...``."""
    for line in str(exc).splitlines():
        found = _LOCATION.search(line)
        if found:
            text = found.group(3).strip()
            text = re.sub(r"\s*\[INVALID_ARGUMENT\]$", "", text).removeprefix("Syntax error: ")
            for pattern, words in _PARSER_WORDS:
                text = pattern.sub(words, text)
            return int(found.group(2)), text
    return None, str(exc).splitlines()[0] if str(exc) else "invalid expression"


class Expression:
    """A compiled CEL expression; its tree is read when a check first asks for it."""

    __slots__ = ("__dict__", "program", "text")

    def __init__(self, text: str, program: Any) -> None:
        self.text = text
        self.program = program

    def __repr__(self) -> str:
        return f"Expression({self.text!r})"

    @cached_property
    def _parsed(self) -> tuple[Node, Any]:
        return parse_serialized(self.program.serialize())

    @property
    def tree(self) -> Node:
        return self._parsed[0]

    def part(self, node: Node) -> Expression:
        """The sub-expression at ``node``, compiled on its own (for explaining a finding)."""
        _, env = _runtime()
        program = env.deserialize(serialized_subtree(self._parsed[1], node))
        return Expression(text_of(node), program)

    def evaluate(self, activation: Mapping[str, Any]) -> Any:
        """The value over plain Python values (a dict per card, lists, numbers, strings), or a
        :class:`CelError` (never raised). Values CEL does not take as they are (tuples,
        read-only mappings, dates) are converted first (:func:`plain`)."""
        value = self._run(activation)
        if isinstance(value, CelError) and "Non-CEL value type" in value.message:
            value = self._run({name: plain(item) for name, item in activation.items()})
        return value

    def _run(self, activation: Mapping[str, Any]) -> Any:
        cel, _ = _runtime()
        try:
            value = self.program.eval(data=activation)
        except (RuntimeError, TypeError, ValueError, OverflowError) as exc:
            return CelError(str(exc))
        if value.type() == cel.Type.ERROR:
            return CelError(str(value.value()))
        return value.plain_value()


def is_error(value: object) -> bool:
    return isinstance(value, CelError)


def over_budget(value: object) -> bool:
    """Whether an evaluation was stopped by CEL's iteration budget."""
    return isinstance(value, CelError) and "Iteration budget exceeded" in value.message


_NO_VALUE = re.compile(r'No value with name "([^"]+)"|Key not found in map : "([^"]+)"')


def describe_error(value: object) -> str:
    """A CEL evaluation error in one plain sentence."""
    text = value.message if isinstance(value, CelError) else str(value)
    text = re.sub(r"^[A-Z_]+: ", "", text).removesuffix(" [INTERNAL]")
    found = _NO_VALUE.search(text)
    if found:
        name = found.group(1) or found.group(2)
        return f"no field '{name}' (guard an optional field with has(self.{name}))"
    if "Iteration budget exceeded" in text:
        return (f"it runs more than {ITERATION_BUDGET:,} iterations of its comprehensions "
                "(CEL's budget for one evaluation)")
    if "No matching overload" in text:
        return f"values of the wrong type are combined ({text.splitlines()[0][:160]})"
    return text.splitlines()[0][:200] if text else "evaluation failed"


def compile_expression(text: str) -> Expression:
    """Compile ``text``; raises CelProblem for syntax errors and oversize input."""
    if len(text) > MAX_EXPRESSION_CHARS:
        raise CelProblem("rule-too-long", f"the expression is {len(text)} characters; the "
                         f"limit is {MAX_EXPRESSION_CHARS}")
    return _compile_cached(text)


@cache
def _compile_cached(text: str) -> Expression:
    _, env = _runtime()
    try:
        program = env.compile(text, disable_check=True)
    except RuntimeError as exc:
        column, detail = _first_error(exc)
        reserved = re.fullmatch(r"reserved identifier: (\w+)", detail)
        syntax_word = re.fullmatch(r"(?:unexpected|cannot read) '\.?(in|true|false|null)'",
                                   detail)
        if reserved:
            detail += (f" (CEL reserves the word '{reserved.group(1)}': a field so named is "
                       f"read as self.{reserved.group(1)})")
        elif syntax_word:
            word = syntax_word.group(1)
            detail += (f" ('{word}' is a word of CEL's syntax: a field so named is read as "
                       f"self['{word}'])")
        where = f" at character {column}" if column else ""
        raise CelProblem("rule-syntax", f"CEL syntax error{where}: {detail}") from None
    return Expression(text, program)


def unknown_functions(expression: Expression) -> list[str]:
    """Functions the expression calls that CEL does not have, each in a sentence with a
    did-you-mean (``summ(...)``: "unknown function 'summ'; did you mean 'sum'?")."""
    facts = reads(expression)
    if not facts.functions:
        return []
    names = frozenset(facts.names | {v for v, _ in facts.fields} | set(facts.ranges))
    try:
        _checker(names).compile(expression.text)
    except RuntimeError as exc:
        found = re.findall(r"undeclared reference to '([^']+)'", str(exc))
        return [f"unknown function '{name}'{did_you_mean(name, list(KNOWN_FUNCTIONS))}"
                for name in dict.fromkeys(found) if name in facts.functions]
    return []


def reads(expression: Expression) -> Reads:
    """What the expression reads (generator.rules.celtree.reads), remembered per expression."""
    found = expression.__dict__.get("_reads")
    if found is None:
        found = expression.__dict__["_reads"] = tree_reads(expression.tree)
    return found


def first_macro(expression: Expression, over: Iterable[str]
                ) -> tuple[str, str, Expression] | None:
    """The first comprehension over one of ``over`` (e.g. ``cards.filter(c, P)``), as
    (macro, variable, predicate), so a failed set rule can name the cards involved."""
    names = set(over)
    for node in expression.tree.walk():
        if node.kind != "comprehension" or node.name not in {"all", "exists", "exists_one",
                                                             "filter"}:
            continue
        over_node, predicate, _ = node.children
        if over_node is not None and over_node.kind == "ident" and over_node.name in names \
                and predicate is not None:
            return node.name, node.variable, expression.part(predicate)
    return None


def memo_key(card: Mapping[str, object], names: Iterable[str]) -> tuple:
    """A hashable key of the values ``names`` take on ``card`` (absent fields included; the
    names themselves are the caller's, the same for every card)."""
    return tuple(_frozen(card.get(name, _ABSENT)) for name in names)


_ABSENT = object()
_SCALARS = frozenset({str, int, float, bool})


def _frozen(value: object) -> object:
    kind = type(value)
    if kind in _SCALARS:
        return kind, value  # 1, 1.0 and true are three values to CEL
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    return (kind.__name__, value) if value is not _ABSENT else value


def plain(value: object) -> object:
    """Card data as the values CEL takes: mappings as dicts, tuples as lists, and anything
    else a YAML or table reader may give (a date) as its text."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return str(value)


@cache
def plain_evaluator(text: str) -> Callable[[Mapping[str, Any]], Any]:
    """``text`` evaluated over plain Python values (an activation of YAML/CSV data). Raises
    CelProblem when ``text`` cannot be compiled."""
    return compile_expression(text).evaluate


def plain_truthy(text: str) -> Callable[[Mapping[str, Any]], bool]:
    """A template condition over plain values: true only when ``text`` gives true (errors,
    and a text that cannot be compiled, are false: validation reports those)."""
    try:
        evaluate = plain_evaluator(text)
    except CelProblem:
        return lambda values: False

    def check(values: Mapping[str, Any]) -> bool:
        return evaluate(values) is True

    return check


# --- which operation a type mistake is in ----------------------------------------------------

def _type_name(value: object) -> str:
    if isinstance(value, bool):
        return "bool"
    if value is None:
        return "null"
    return {"float": "double", "str": "string", "dict": "map"}.get(type(value).__name__,
                                                                   type(value).__name__)


def type_clash(expression: Expression, activation: Mapping[str, Any]) -> str | None:
    """The innermost operation whose operands evaluate but cannot be combined, in words
    (``self.cost + 'x'``: "self.cost is int and 'x' is string: '+' cannot combine them"),
    since CEL itself only says "no matching overload"."""
    nodes = [n for n in expression.tree.walk() if n.kind == "call" and not n.member
             and n.name in OPERATORS and len(n.children) == 2 and n.name != "_[_]"
             and n.name not in ("_&&_", "_||_")]
    for node in reversed(nodes):  # children before their parents
        left, right = node.children
        if left is None or right is None:
            continue
        values = [expression.part(side).evaluate(activation) for side in (left, right)]
        if any(is_error(v) for v in values):
            continue
        if not is_error(expression.part(node).evaluate(activation)):
            continue
        first, second = (_type_name(v) for v in values)
        return (f"{text_of(left)} is {first} and {text_of(right)} is {second}: "
                f"'{OPERATORS[node.name][0]}' cannot combine them")
    return None
