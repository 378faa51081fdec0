"""The everyday subset of CEL compiled straight to Python closures, with cel-python as the
referee.

Templates and rules mostly say things like ``badge == 'd6'``, ``has(self.bombs) && bombs > 0``
or ``action in ['torpedo', 'asw']``. Through cel-python each costs a lark parse at start-up
(the library and its parser take about a quarter of a second to load) and about 0.2 ms per
evaluation, which was most of the time of ``pnp validate`` and of laying out a CWNB deck.

This module parses that subset itself and evaluates it over plain Python values in
microseconds. The comprehension macros (``filter``, ``exists``, ``all``, ``exists_one``,
``map``) are in it too: a set rule over 90,000 cards took seconds in cel-python. It never
decides anything cel-python might decide differently: whatever it does not recognise
(division, escapes in strings, unsigned or hex numbers, a function it does not know) makes
:func:`compile_subset` return ``None``, and whatever would be an error or a mixed-type
comparison in CEL raises :class:`Defer` at evaluation, so the caller hands that one evaluation
to cel-python, which gives CEL's own answer or error message. Differential tests
(tests/rules/test_celfast.py) hold the two to the same results.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

Evaluator = Callable[[Mapping[str, Any]], Any]
#: card data arrives as dicts, or read-only views of them
_MAPS = (dict, MappingProxyType)


class Defer(Exception):
    """This evaluation is cel-python's to make (an error, or types the subset leaves alone)."""


class _NotSubset(Exception):
    """The expression uses CEL beyond the subset; it is compiled by cel-python instead."""


_TOKEN = re.compile(r"""
    \s*(?:
      (?P<number>\d+\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+(?![\w.]))
    | (?P<string>'[^'\\\n]*'|"[^"\\\n]*")
    | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<op>&&|\|\||==|!=|<=|>=|[<>!()\[\],.?:+*-])
    )""", re.VERBOSE)

#: words CEL reserves (identifiers the language refuses) and the literals it names itself
_RESERVED = frozenset({"as", "break", "const", "continue", "else", "for", "function", "if",
                       "import", "let", "loop", "package", "namespace", "return", "var",
                       "void", "while", "in"})
_LITERALS = {"true": True, "false": False, "null": None}
#: type names are values in CEL (``type(x) == int``): left to cel-python
_TYPE_NAMES = frozenset({"int", "uint", "double", "bool", "string", "bytes", "list", "map",
                         "null_type", "type", "dyn"})
_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})


def _tokens(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    position = 0
    while position < len(text):
        if text[position:].strip() == "":
            break
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise _NotSubset
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        position = match.end()
    return tokens


@cache
def compile_subset(text: str) -> Evaluator | None:
    """A closure evaluating ``text`` over plain values, or None when it is not in the subset."""
    try:
        parser = _Parser(_tokens(text))
        evaluator = parser.expression()
        if parser.position != len(parser.tokens):
            raise _NotSubset
    except (_NotSubset, RecursionError):
        return None
    return evaluator


class _Parser:
    """Recursive descent over CEL's precedence: ?: < || < && < relations < ! and - < members."""

    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.position = 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.tokens[self.position][1] if self.position < len(self.tokens) else None

    def take(self, expected: str | None = None) -> tuple[str, str]:
        if self.position >= len(self.tokens):
            raise _NotSubset
        token = self.tokens[self.position]
        if expected is not None and token[1] != expected:
            raise _NotSubset
        self.position += 1
        return token

    def expression(self) -> Evaluator:
        self.depth += 1
        if self.depth > 32:
            raise _NotSubset
        condition = self.disjunction()
        if self.peek() != "?":
            self.depth -= 1
            return condition
        self.take("?")
        when_true = self.disjunction()
        self.take(":")
        when_false = self.expression()
        self.depth -= 1

        def choose(values: Mapping[str, Any]) -> Any:
            test = condition(values)
            if not isinstance(test, bool):
                raise Defer
            return when_true(values) if test else when_false(values)

        return choose

    def chain(self, operand: Callable[[], Evaluator], operators: tuple[str, ...],
              combine: Callable[[str, Evaluator, Evaluator], Evaluator]) -> Evaluator:
        """One left-associative precedence level: ``operand (op operand)*``."""
        left = operand()
        while self.peek() in operators:
            operator = self.take()[1]
            left = combine(operator, left, operand())
        return left

    def disjunction(self) -> Evaluator:
        return self.chain(self.conjunction, ("||",), _logical(True))

    def conjunction(self) -> Evaluator:
        return self.chain(self.relation, ("&&",), _logical(False))

    def relation(self) -> Evaluator:
        left = self.additive()
        operator = self.peek()
        if operator in _COMPARISONS or operator == "in":
            self.take()
            right = self.additive()
            if self.peek() in _COMPARISONS or self.peek() == "in":
                raise _NotSubset  # chained relations: left to cel-python
            return _membership(left, right) if operator == "in" else \
                _comparison(operator, left, right)
        return left

    def additive(self) -> Evaluator:
        return self.chain(self.multiplicative, ("+", "-"), _arithmetic)

    def multiplicative(self) -> Evaluator:
        return self.chain(self.unary, ("*",), _arithmetic)

    def unary(self) -> Evaluator:
        if self.peek() == "!":
            self.take()
            operand = self.unary()

            def negate(values: Mapping[str, Any]) -> bool:
                value = operand(values)
                if not isinstance(value, bool):
                    raise Defer
                return not value

            return negate
        if self.peek() == "-":
            self.take()
            if self.peek() == "-":
                raise _NotSubset  # --x: left to cel-python
            return _negative(self.member())
        return self.member()

    def member(self) -> Evaluator:
        target = self.primary()
        while self.peek() == ".":
            self.take(".")
            kind, name = self.take()
            if kind != "name" or name in _RESERVED or name in _LITERALS:
                raise _NotSubset
            if self.peek() == "(" and name in _MACROS:
                target = self.macro(name, target)
            elif self.peek() == "(":
                self.take("(")
                self.take(")")
                if name != "size":
                    raise _NotSubset
                target = _size(target)
            else:
                target = _select(target, name)
        return target

    def primary(self) -> Evaluator:
        kind, text = self.take()
        if kind == "number":
            value: Any = float(text) if ("." in text or "e" in text.lower()) else int(text)
            if isinstance(value, int) and value >= 2 ** 63:
                raise _NotSubset
            return lambda values: value
        if kind == "string":
            literal = text[1:-1]
            return lambda values: literal
        if kind == "name":
            if text in _LITERALS:
                constant = _LITERALS[text]
                return lambda values: constant
            if text in _RESERVED or text in _TYPE_NAMES:
                raise _NotSubset
            if self.peek() == "(":
                return self.call(text)
            return _variable(text)
        if text == "(":
            inner = self.expression()
            self.take(")")
            return inner
        if text == "[":
            items: list[Evaluator] = []
            while self.peek() != "]":
                items.append(self.expression())
                if self.peek() == ",":
                    self.take(",")
                    if self.peek() == "]":
                        raise _NotSubset  # a trailing comma: cel-python's grammar decides
                elif self.peek() != "]":
                    raise _NotSubset
            self.take("]")
            return lambda values: [item(values) for item in items]
        raise _NotSubset

    def macro(self, name: str, target: Evaluator) -> Evaluator:
        """``list.filter(x, p)``, ``exists``, ``all``, ``exists_one`` and ``map(x, e)``."""
        self.take("(")
        kind, variable = self.take()
        if kind != "name" or variable in _RESERVED or variable in _LITERALS \
                or variable in _TYPE_NAMES:
            raise _NotSubset
        self.take(",")
        body = self.expression()
        self.take(")")  # map's three-argument form, among others: left to cel-python
        return _comprehension(name, target, variable, body)

    def call(self, name: str) -> Evaluator:
        self.take("(")
        if name == "has":
            kind, variable = self.take()
            self.take(".")
            field_kind, field = self.take()
            if kind != "name" or field_kind != "name" or variable in _RESERVED \
                    or variable in _LITERALS or field in _RESERVED or field in _LITERALS:
                raise _NotSubset
            self.take(")")
            return _has(variable, field)
        if name == "size":
            argument = self.expression()
            self.take(")")
            return _size(argument)
        raise _NotSubset


# --- evaluation: each helper gives CEL's value or defers --------------------------------------

def _kind(value: Any) -> str:
    """The CEL type family of a plain value, for the comparisons the subset makes itself."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "string"
    return "other"


def _readable(value: Any) -> Any:
    """A value the subset works with (scalars, lists and maps of card data); others defer."""
    if value is None or (_kind(value) == "other" and not isinstance(value, (list, *_MAPS))):
        raise Defer
    return value


def _variable(name: str) -> Evaluator:
    def read(values: Mapping[str, Any]) -> Any:
        if name not in values:
            raise Defer
        return _readable(values[name])

    return read


def _select(target: Evaluator, name: str) -> Evaluator:
    def read(values: Mapping[str, Any]) -> Any:
        container = target(values)
        if not isinstance(container, _MAPS) or name not in container:
            raise Defer
        return _readable(container[name])

    return read


def _has(variable: str, field: str) -> Evaluator:
    def present(values: Mapping[str, Any]) -> bool:
        container = values.get(variable)
        if not isinstance(container, _MAPS):
            raise Defer
        if field in container and container[field] is None:
            raise Defer  # a null field: present to CEL, absent to pnp's face values
        return field in container

    return present


def _size(argument: Evaluator) -> Evaluator:
    def size(values: Mapping[str, Any]) -> int:
        value = argument(values)
        if isinstance(value, str | list):
            return len(value)
        raise Defer

    return size


def _comparison(operator: str, left: Evaluator, right: Evaluator) -> Evaluator:
    def compare(values: Mapping[str, Any]) -> bool:
        a, b = left(values), right(values)
        kind = _kind(a)
        if kind == "other" or kind != _kind(b):
            raise Defer  # mixed types and lists: CEL's rules, cel-python's answer
        if operator == "==":
            return a == b
        if operator == "!=":
            return a != b
        if kind == "bool":
            raise Defer
        if operator == "<":
            return a < b
        if operator == "<=":
            return a <= b
        if operator == ">":
            return a > b
        return a >= b

    return compare


_INT64 = range(-(2 ** 63), 2 ** 63)


def _arithmetic(operator: str, left: Evaluator, right: Evaluator) -> Evaluator:
    """``+ - *`` on two ints (int64: an overflow is CEL's error), two doubles, and ``+`` on
    two strings; anything else (lists, mixed numbers) defers."""

    def compute(values: Mapping[str, Any]) -> Any:
        a, b = left(values), right(values)
        kind = _kind(a)
        if kind != _kind(b) or kind in ("bool", "other"):
            raise Defer
        if kind == "string":
            if operator != "+":
                raise Defer
            return a + b
        result = a + b if operator == "+" else a - b if operator == "-" else a * b
        if kind == "int" and result not in _INT64:
            raise Defer
        return result

    return compute


def _negative(operand: Evaluator) -> Evaluator:
    def negate(values: Mapping[str, Any]) -> Any:
        value = operand(values)
        kind = _kind(value)
        if kind not in ("int", "double") or (kind == "int" and -value not in _INT64):
            raise Defer
        return -value

    return negate


def _membership(item: Evaluator, container: Evaluator) -> Evaluator:
    def contains(values: Mapping[str, Any]) -> bool:
        needle, haystack = item(values), container(values)
        kind = _kind(needle)
        if kind == "other" or not isinstance(haystack, list):
            raise Defer
        if any(_kind(element) != kind for element in haystack):
            raise Defer
        return needle in haystack

    return contains


#: comprehension macros the subset evaluates over a list
_MACROS = frozenset({"filter", "exists", "all", "exists_one", "map"})


def _comprehension(name: str, target: Evaluator, variable: str, body: Evaluator) -> Evaluator:
    """A macro over a list of plain values, ``variable`` bound to each item in turn (it
    shadows a value of that name). Every item is evaluated: an item that defers defers the
    whole macro, so CEL's own rules for errors inside ``exists`` and ``all`` (a deciding
    answer elsewhere absorbs them) stay cel-python's; so does a map, which CEL iterates by
    key."""

    def comprehend(values: Mapping[str, Any]) -> Any:
        items = target(values)
        if not isinstance(items, list):
            raise Defer
        scope = dict(values)
        results = []
        for item in items:
            scope[variable] = item
            results.append(body(scope))
        if name == "map":
            return results
        if any(not isinstance(result, bool) for result in results):
            raise Defer
        if name == "filter":
            return [item for item, kept in zip(items, results, strict=True) if kept]
        if name == "exists":
            return any(results)
        if name == "all":
            return all(results)
        return results.count(True) == 1

    return comprehend


def _logical(deciding: bool) -> Callable[[str, Evaluator, Evaluator], Evaluator]:
    """``&&`` (``deciding`` false) or ``||`` (true): CEL gives the deciding value as soon as
    either side has it, even when the other side is an error; the subset, which only ever
    sees the left side first, defers the rest."""

    def combine(_: str, left: Evaluator, right: Evaluator) -> Evaluator:
        def logical(values: Mapping[str, Any]) -> bool:
            first = left(values)
            if first is deciding:
                return deciding
            if not isinstance(first, bool):
                raise Defer
            second = right(values)
            if not isinstance(second, bool):
                raise Defer
            return second

        return logical

    return combine
