"""CEL (Common Expression Language) through cel-python: compile once, evaluate cheaply, never
raise to the user.

CEL is typed, side-effect free and always terminates, which is why a pack written by a stranger
may carry its own rules. Three costs of cel-python are kept in check here:

- building its LALR parser takes half a second; the parser is cached on disk in the user's cache
  folder (lark's own cache) and rebuilt only when cel-python or lark change;
- its activation looks each variable up through ``typing.cast(Union[...])``, which hashes large
  typing unions on every access; :func:`_fast_lookup` does the same lookup without the cast;
- converting Python data to CEL values with ``json_to_cel`` is slow; :func:`to_cel` does it for
  the few types card data has.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
from msgspec import Struct

MAX_EXPRESSION_CHARS = 2000
#: element visits one comprehension nest may cost (cards x cards x ... ); beyond it a rule is
#: refused before it runs, so that no pack can make validation take minutes
MAX_COST = 2_000_000
MACROS = frozenset({"all", "exists", "exists_one", "map", "filter"})
TYPE_NAMES = frozenset({"int", "uint", "double", "bool", "string", "bytes", "list", "map",
                        "null_type", "type", "dyn"})


class CelProblem(Exception):
    """A CEL expression that cannot be compiled; ``code`` is the finding's code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _cache_file(lark_version: str, cel_version: str) -> str | None:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "pnp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return str(folder / f"cel-parser-{cel_version}-{lark_version}.lark")


def _fast_lookup(self, name: str):
    """cel-python's ``Activation.__getattr__`` minus a ``typing.cast`` that cost 40 % of every
    evaluation; same result for every name."""
    try:
        referent = self.identifiers.resolve_name(self.package, name)
    except KeyError:
        return self.functions[name]
    if referent._value_set:
        return referent.value
    if referent.container:
        return referent.container
    if referent.annotation:
        return referent.annotation
    raise RuntimeError(f"corrupt activation for {name!r}")


@cache
def environment():
    """The one CEL environment (compiled runner, cached parser)."""
    import logging  # imported here, with celpy: most builds never build this environment

    import celpy
    import lark
    from celpy import evaluation
    from celpy.celparser import CELParser

    evaluation.Activation.__getattr__ = _fast_lookup
    evaluation.Activation.get = _fast_lookup
    logger = logging.getLogger("celpy")  # it logs every failed evaluation as an error
    logger.addHandler(logging.NullHandler())
    logger.propagate = False
    if CELParser.CEL_PARSER is None:
        grammar = (Path(celpy.__file__).parent / "cel.lark").read_text(encoding="utf-8")
        options = dict(parser="lalr", start="expr", g_regex_flags=re.M,
                       lexer_callbacks={"IDENT": CELParser.ambiguous_literals},
                       propagate_positions=True, maybe_placeholders=False, priority="invert",
                       tree_class=celpy.CompiledRunner.tree_node_class)
        from importlib.metadata import version

        cache_path = _cache_file(lark.__version__, version("cel-python"))
        try:
            CELParser.CEL_PARSER = lark.Lark(grammar, cache=cache_path or False, **options)
        except (OSError, EOFError, ValueError):  # an unreadable cache: build afresh
            CELParser.CEL_PARSER = lark.Lark(grammar, **options)
    return celpy.Environment(runner_class=celpy.CompiledRunner)


@cache
def _types() -> Any:
    from celpy import celtypes

    return celtypes


def to_cel(value: object) -> Any:
    """Plain card data (YAML/CSV values) as CEL values.

    The CEL types are built through their Python base types: cel-python's own constructors
    accept any source (hex strings, timestamps, messages) and cost ~0.1 ms each, which was
    most of a thousand-card validation; card data needs none of that."""
    t = _types()
    if isinstance(value, bool):
        return t.BoolType(value)
    if isinstance(value, int):
        if -(2 ** 63) <= value < 2 ** 63:
            return int.__new__(t.IntType, value)
        return float.__new__(t.DoubleType, float(value))
    if isinstance(value, float):
        return float.__new__(t.DoubleType, value)
    if isinstance(value, str):
        return str.__new__(t.StringType, value)
    if isinstance(value, Mapping):
        result = t.MapType()
        for key, item in value.items():
            dict.__setitem__(result, str.__new__(t.StringType, str(key)), to_cel(item))
        return result
    if isinstance(value, list | tuple):
        return t.ListType([to_cel(v) for v in value])
    if value is None:
        return None
    return str.__new__(t.StringType, str(value))


@dataclass(frozen=True, slots=True)
class Expression:
    """A compiled CEL expression and what it reads."""

    text: str
    program: Any
    tree: Any = field(repr=False)

    def evaluate(self, activation: Mapping[str, Any]) -> Any:
        """The value (a CEL boolean as a Python bool), or a CELEvalError (never raised)."""
        from celpy.celtypes import BoolType
        from celpy.evaluation import CELEvalError

        try:
            value = self.program.evaluate(dict(activation))
        except CELEvalError as exc:
            return exc
        except (RecursionError, ArithmeticError, ValueError, TypeError, KeyError) as exc:
            return CELEvalError(str(exc), type(exc), exc.args)
        return bool(value) if isinstance(value, BoolType) else value


def is_error(value: object) -> bool:
    # no cel-python loaded, no CEL error: the subset evaluator alone ran
    evaluation = sys.modules.get("celpy.evaluation")
    return evaluation is not None and isinstance(value, evaluation.CELEvalError)


def describe_error(value: object) -> str:
    """A CEL evaluation error in one plain sentence."""
    args = getattr(value, "args", ())
    text = str(args[0]) if args else str(value)
    inner = args[2] if len(args) > 2 and isinstance(args[2], tuple) and args[2] else None
    if text == "evaluation error" and inner:
        text = str(inner[0])
    match = re.search(r"no such member in mapping: '([^']+)'|no such key: '?([^'\s]+)", text)
    if match:
        name = match.group(1) or match.group(2)
        return f"no field '{name}' (guard an optional field with has(self.{name}))"
    if "undeclared reference" in text or "NameError" in text:
        found = re.search(r"'([A-Za-z_][A-Za-z0-9_]*)'", text)
        name = found.group(1) if found else "?"
        return f"no field '{name}' (guard an optional field with has(self.{name}))"
    if "no such overload" in text or "TypeError" in text or "unsupported operand" in text:
        return f"values of the wrong type are combined ({text.splitlines()[0][:160]})"
    return text.splitlines()[0][:200] if text else "evaluation failed"


def compile_expression(text: str) -> Expression:
    """Parse and transpile ``text``; raises CelProblem for syntax errors and oversize input."""
    if len(text) > MAX_EXPRESSION_CHARS:
        raise CelProblem("rule-too-long", f"the expression is {len(text)} characters; the "
                         f"limit is {MAX_EXPRESSION_CHARS}")
    return _compile_cached(text)


@cache
def _compile_cached(text: str) -> Expression:
    from celpy import CELParseError

    env = environment()
    try:
        tree = env.compile(text)
        program = env.program(tree)
        _fix_has(program)
    except CELParseError as exc:
        first = str(exc.args[0]).splitlines() if exc.args else []
        detail = " ".join(line.strip() for line in first[:1]) or "invalid syntax"
        column = getattr(exc, "column", None)
        where = f" at character {column}" if column else ""
        raise CelProblem("rule-syntax", f"CEL syntax error{where}: {detail}") from None
    except RecursionError:
        raise CelProblem("rule-syntax", "the expression is nested too deeply") from None
    except Exception as exc:  # the transpiler rejects some constructs after parsing
        raise CelProblem("rule-syntax", f"CEL cannot compile this expression ({exc})") from None
    return Expression(text, program, tree)


_HAS = re.compile(r"(= lambda activation: )(not isinstance\(celpy\.evaluation\.result\("
                  r"activation, \w+\), CELEvalError\))")


def _fix_has(program: Any) -> None:
    """cel-python 0.5's transpiler makes ``has(x)`` a Python bool, which CEL's ``&&``, ``||``
    and ``!`` refuse beside an error (``has(self.art) && self.art != ''`` then fails on a card
    without art); wrapping it in CEL's own boolean restores the language's semantics."""
    tp = getattr(program, "tp", None)
    source = getattr(tp, "source_text", "")
    fixed = _HAS.sub(r"\1celpy.celtypes.BoolType(\2)", source)
    if fixed != source:
        tp.source_text = fixed
        tp.executable_code = compile(fixed, "<cel>", "exec")


# --- what an expression reads: variables, fields, comprehension nesting -----------------------

class Reads(Struct):
    """Static facts about an expression, for checks and memoization."""

    #: (variable, field) pairs: ``self.cost`` -> ("self", "cost"); bare ``cost`` -> ("", "cost")
    fields: set[tuple[str, str]] = msgspec.field(default_factory=set)
    #: variables read as a whole (``self`` passed on, indexed, ...), not just one field of
    whole: set[str] = msgspec.field(default_factory=set)
    #: free identifiers (neither macro variables nor type names)
    names: set[str] = msgspec.field(default_factory=set)
    #: comprehension variable -> the identifier it ranges over when that is a plain name
    ranges: dict[str, str] = msgspec.field(default_factory=dict)
    #: deepest nest of comprehensions over a list variable (``cards``, ``deck``)
    depth: int = 0


def _token(tree: Any) -> str | None:
    """The identifier of a ``primary -> ident`` chain, if the tree is one."""
    from lark import Token, Tree

    node = tree
    while isinstance(node, Tree) and node.data in {"member", "primary", "expr",
                                                    "conditionalor", "conditionaland",
                                                    "relation", "addition", "multiplication",
                                                    "unary"} and len(node.children) == 1:
        node = node.children[0]
    if isinstance(node, Tree) and node.data == "ident" and node.children:
        child = node.children[0]
        return str(child) if isinstance(child, Token) else None
    return None


def reads(expression: Expression, lists: Iterable[str] = ("cards", "deck")) -> Reads:
    """Walk the parse tree once: which variables and fields it reads, how deep it nests."""
    from lark import Token, Tree

    result = Reads()
    list_names = set(lists)

    def walk(node: Any, bound: frozenset[str], depth: int) -> None:
        if not isinstance(node, Tree):
            return
        if node.data == "member_dot":
            target, name = node.children[0], node.children[1]
            variable = _token(target)
            if variable is not None:
                result.fields.add((variable, str(name)))
                if variable not in bound and variable not in TYPE_NAMES:
                    result.names.add(variable)
                return
            walk(target, bound, depth)
            return
        if node.data == "member_dot_arg" and len(node.children) >= 2:
            target, method = node.children[0], str(node.children[1])
            args = node.children[2].children if len(node.children) > 2 else []
            if method in MACROS and len(args) >= 2:
                variable = _token(args[0])
                over = _token(target)
                walk(target, bound, depth)
                inner_depth = depth + 1 if (over in list_names or over in result.ranges) \
                    else depth
                if variable:
                    if over:
                        result.ranges[variable] = over
                    for arg in args[1:]:
                        walk(arg, bound | {variable}, inner_depth)
                    result.depth = max(result.depth, inner_depth)
                return
        if node.data == "ident_arg" and node.children and str(node.children[0]) == "has":
            for arg in node.children[1:]:
                walk(arg, bound, depth)
            return
        if node.data == "ident" and node.children and isinstance(node.children[0], Token):
            name = str(node.children[0])
            if name not in bound and name not in TYPE_NAMES:
                result.names.add(name)
                result.whole.add(name)
            return
        for child in node.children:
            walk(child, bound, depth)

    walk(expression.tree, frozenset(), 0)
    # a bare field name read as a whole is a field read, not a whole-card read
    return result


def source_of(expression: Expression, node: Any) -> str:
    """The text of a sub-tree of ``expression`` (parser positions are kept)."""
    meta = getattr(node, "meta", None)
    if meta is None or getattr(meta, "empty", True):
        return ""
    return expression.text[meta.start_pos:meta.end_pos]


def first_macro(expression: Expression, over: Iterable[str]) -> tuple[str, str, str] | None:
    """The first comprehension over one of ``over`` (e.g. ``cards.filter(c, P)``), as
    (macro, variable, predicate text), so a failed set rule can name the cards involved."""
    from lark import Tree

    names = set(over)
    for node in expression.tree.iter_subtrees_topdown():
        if not (isinstance(node, Tree) and node.data == "member_dot_arg"
                and len(node.children) > 2):
            continue
        method = str(node.children[1])
        args = node.children[2].children
        if method in MACROS and len(args) == 2 and _token(node.children[0]) in names:
            variable = _token(args[0])
            predicate = source_of(expression, args[1])
            if variable and predicate:
                return method, variable, predicate
    return None


def memo_key(card: Mapping[str, object], names: Iterable[str]) -> tuple:
    """A hashable key of the values ``names`` take on ``card`` (absent fields included)."""
    return tuple((name, _frozen(card.get(name, _ABSENT))) for name in names)


_ABSENT = object()


def _frozen(value: object) -> object:
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    return (type(value).__name__, value) if value is not _ABSENT else value


@cache
def plain_evaluator(text: str) -> Callable[[Mapping[str, Any]], Any]:
    """``text`` evaluated over plain Python values (an activation of YAML/CSV data).

    The everyday subset runs as compiled Python closures (generator.rules.celfast), so a pack whose
    templates say ``badge == 'd6'`` never loads cel-python; anything else, and any evaluation
    the subset would not decide exactly as CEL does, goes to cel-python with the values
    converted. Raises CelProblem when cel-python cannot compile ``text``."""
    from generator.rules.celfast import Defer, compile_subset

    fast = compile_subset(text) if len(text) <= MAX_EXPRESSION_CHARS else None
    if fast is None:
        compile_expression(text)  # CelProblem now, not at the first evaluation

    def by_cel_python(values: Mapping[str, Any]) -> Any:
        return compile_expression(text).evaluate({k: to_cel(v) for k, v in values.items()})

    if fast is None:
        return by_cel_python

    def evaluate(values: Mapping[str, Any]) -> Any:
        try:
            return fast(values)
        except Defer:
            return by_cel_python(values)

    return evaluate


def truthy_condition(expression: Expression) -> Callable[[Mapping[str, Any]], bool]:
    """A template condition: true only when the expression gives true (errors: false)."""

    def check(activation: Mapping[str, Any]) -> bool:
        value = expression.evaluate(activation)
        return bool(value) if not is_error(value) and isinstance(value, bool | int) else False

    return check


def plain_truthy(text: str) -> Callable[[Mapping[str, Any]], bool]:
    """A template condition over plain values: true only when ``text`` gives true (errors,
    and a text cel-python cannot compile, are false: validation reports those)."""
    try:
        evaluate = plain_evaluator(text)
    except CelProblem:
        return lambda values: False

    def check(values: Mapping[str, Any]) -> bool:
        value = evaluate(values)
        return bool(value) if not is_error(value) and isinstance(value, bool | int) else False

    return check


# --- values an expression compares fields with ------------------------------------------------

_PLAIN_STRING = re.compile(r"""(['"])([^'"\\\n]*)\1""")
_COMPARISONS = frozenset({"relation_eq", "relation_ne", "relation_in"})


def _unwrap(tree: Any) -> Any:
    from lark import Tree

    node = tree
    while isinstance(node, Tree) and len(node.children) == 1 and node.data in {
            "expr", "conditionalor", "conditionaland", "relation", "addition",
            "multiplication", "unary", "member", "primary", "exprlist"}:
        node = node.children[0]
    return node


def _string(tree: Any) -> str | None:
    """The text of a plain string literal ('...' or "..." without escapes), else None."""
    from lark import Token, Tree

    node = _unwrap(tree)
    if isinstance(node, Tree) and node.data == "literal" and node.children:
        token = node.children[0]
        if isinstance(token, Token) and token.type == "STRING_LIT":
            match = _PLAIN_STRING.fullmatch(str(token))
            return match.group(2) if match else None
    return None


def _strings(tree: Any) -> list[str] | None:
    """The items of a list literal of plain strings (``['a', 'b']``), else None."""
    from lark import Tree

    node = _unwrap(tree)
    if not (isinstance(node, Tree) and node.data == "list_lit"):
        return None
    items = node.children[0].children if node.children else []
    values = [_string(item) for item in items]
    return None if any(v is None for v in values) else [v for v in values if v is not None]


def _field(tree: Any) -> tuple[str, str] | None:
    """``x.f`` -> (x, f); ``e.card.f`` -> ("e.card", f); a bare ``f`` -> ("", f)."""
    from lark import Tree

    node = _unwrap(tree)
    if isinstance(node, Tree) and node.data == "member_dot" and len(node.children) == 2:
        target = _unwrap(node.children[0])
        variable = _token(node.children[0])
        if variable is None and isinstance(target, Tree) and target.data == "member_dot":
            inner = _token(target.children[0])
            variable = f"{inner}.{target.children[1]}" if inner is not None else None
        return (variable, str(node.children[1])) if variable is not None else None
    name = _token(tree)
    return ("", name) if name is not None else None


def compared_literals(expression: Expression) -> list[tuple[str, str, str]]:
    """(variable, field, text) for each field compared with a string literal:
    ``c.kind == 'legend'``, ``'fire' != school``, ``self.school in ['fire', 'frost']``, so that a
    value no card can have (a misspelled kind) is caught before it silently never matches."""
    from lark import Tree

    found: list[tuple[str, str, str]] = []
    for node in expression.tree.iter_subtrees():
        if not (isinstance(node, Tree) and node.data == "relation" and len(node.children) == 2):
            continue
        operator = node.children[0]
        if not (isinstance(operator, Tree) and operator.data in _COMPARISONS
                and operator.children):
            continue
        left, right = operator.children[0], node.children[1]
        if operator.data == "relation_in":
            field_ref, texts = _field(left), _strings(right)
        else:
            field_ref, text = _field(left), _string(right)
            if field_ref is None or text is None:
                field_ref, text = _field(right), _string(left)
            texts = [text] if text is not None else None
        if field_ref is not None and texts:
            found += [(field_ref[0], field_ref[1], t) for t in texts]
    return found


# --- which operation a type mistake is in ----------------------------------------------------

_OPERATORS = {"addition_add": "+", "addition_sub": "-", "multiplication_mul": "*",
              "multiplication_div": "/", "multiplication_mod": "%", "relation_lt": "<",
              "relation_le": "<=", "relation_gt": ">", "relation_ge": ">=", "relation_eq": "==",
              "relation_ne": "!=", "relation_in": "in"}


def _type_name(value: object) -> str:
    if isinstance(value, bool):
        return "bool"
    if value is None:
        return "null"
    return type(value).__name__.removesuffix("Type").lower()


def type_clash(expression: Expression, activation: Mapping[str, Any]) -> str | None:
    """The innermost operation whose operands evaluate but cannot be combined, in words
    (``self.cost + 'x'``: "self.cost is int and 'x' is string: '+' cannot combine them"),
    since cel-python only says "no such overload"."""
    from lark import Tree

    for node in expression.tree.iter_subtrees():  # children before their parents
        if node.data not in {"addition", "multiplication", "relation"} \
                or len(node.children) != 2:
            continue
        operation = node.children[0]
        if not (isinstance(operation, Tree) and operation.data in _OPERATORS
                and operation.children):
            continue
        texts = [source_of(expression, operation.children[0]),
                 source_of(expression, node.children[1])]
        whole = source_of(expression, node)
        if not all(texts) or not whole:
            continue
        try:
            values = [compile_expression(text).evaluate(activation) for text in texts]
            combined = compile_expression(whole).evaluate(activation)
        except CelProblem:
            continue
        if any(is_error(v) for v in values) or not is_error(combined):
            continue
        left, right = (_type_name(v) for v in values)
        return (f"{texts[0]} is {left} and {texts[1]} is {right}: "
                f"'{_OPERATORS[operation.data]}' cannot combine them")
    return None
