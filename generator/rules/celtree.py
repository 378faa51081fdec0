"""What a CEL expression says before it runs: its parsed tree, read from the CEL library itself.

pnp checks a rule when game.yaml is read (names and fields no kind has, values no card can have,
how much work it may cost) and explains a failed rule afterwards (which cards a ``filter``
selected, which operation mixed types). All of that needs the expression's tree. The engine,
cel-expr-python, gives it in CEL's own interchange form: ``Expression.serialize()`` is a
``cel.expr.ParsedExpr`` protobuf message (CEL's syntax.proto). protobuf reads it against the
part of that schema pnp needs, kept as data in ``cel_syntax.json``; the tree is then turned
into small :class:`Node` objects once, so that no analysis walks protobuf messages.

The comprehension macros (``all``, ``exists``, ``exists_one``, ``map``, ``filter``) arrive
expanded into CEL's one loop form; :func:`_macro` recognises each expansion by its shape, so
the predicate of ``cards.filter(c, P)`` is a sub-tree that can be evaluated on its own.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from msgspec import Struct

#: CEL's operators as the parser names them, with their written form and precedence (higher
#: binds tighter), for writing a sub-expression back in a finding
OPERATORS = {"_?_:_": ("?:", 1), "_||_": ("||", 2), "_&&_": ("&&", 3), "_==_": ("==", 4),
             "_!=_": ("!=", 4), "_<_": ("<", 4), "_<=_": ("<=", 4), "_>_": (">", 4),
             "_>=_": (">=", 4), "@in": ("in", 4), "_+_": ("+", 5), "_-_": ("-", 5),
             "_*_": ("*", 6), "_/_": ("/", 6), "_%_": ("%", 6), "!_": ("!", 7),
             "-_": ("-", 7), "_[_]": ("[]", 8)}
#: the variable CEL's macro expansions accumulate their result in
_ACCUMULATOR = "@result"


class Node(Struct):
    """One node of a parsed CEL expression, filled in by the code that reads the tree.

    ``kind`` is one of: ``const`` (``value``), ``ident`` (``name``), ``select`` (``name`` is
    the field, ``children[0]`` the operand; ``test_only`` for ``has(x.f)``), ``call``
    (``name`` is the function or operator; ``children`` the target first when ``member``,
    then the arguments), ``list`` (the elements), ``map`` (keys and values alternating) and
    ``comprehension`` (``name`` is the macro or ``""``, ``variable`` the item's name,
    ``children`` = [range, predicate or None, value or None]; ``loop`` holds the expansion's
    own parts when the macro is not recognised)."""

    kind: str
    proto: Any
    id: int
    position: int
    name: str = ""
    value: object = None
    children: list[Node | None] = []
    member: bool = False
    test_only: bool = False
    variable: str = ""
    loop: list[Node] = []

    def __repr__(self) -> str:
        return f"Node({self.kind}, {self.name or self.value!r}, {self.children})"

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, parents first (a macro's loop parts included)."""
        yield self
        for child in (*self.children, *self.loop):
            if child is not None:
                yield from child.walk()


@cache
def _messages() -> tuple[Any, Any]:
    """protobuf classes for ParsedExpr and google.protobuf.Any, made once from cel_syntax.json
    (imported here: only a pack whose rules or conditions are checked reads a tree)."""
    from google.protobuf import any_pb2, descriptor_pb2, descriptor_pool, message_factory

    schema = json.loads(Path(__file__).with_name("cel_syntax.json").read_text(encoding="utf-8"))
    schema.pop("//", None)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(descriptor_pb2.FileDescriptorProto(**schema))
    parsed = message_factory.GetMessageClass(pool.FindMessageTypeByName("cel.expr.ParsedExpr"))
    return parsed, any_pb2.Any


def parse_serialized(serialized: bytes) -> tuple[Node, Any]:
    """The tree of a serialized expression, and its protobuf message (to cut sub-trees)."""
    parsed_class, any_class = _messages()
    envelope = any_class()
    envelope.ParseFromString(serialized)
    parsed = parsed_class()
    parsed.ParseFromString(envelope.value)
    positions = dict(parsed.source_info.positions)
    return _node(parsed.expr, positions), parsed


def serialized_subtree(parsed: Any, node: Node) -> bytes:
    """``node`` as an expression of its own, in the form cel-expr-python deserializes."""
    parsed_class, any_class = _messages()
    message = parsed_class()
    message.expr.CopyFrom(node.proto)
    message.source_info.CopyFrom(parsed.source_info)
    envelope = any_class(type_url="type.googleapis.com/cel.expr.ParsedExpr",
                         value=message.SerializeToString())
    return envelope.SerializeToString()


def _node(proto: Any, positions: Mapping[int, int]) -> Node:
    which = proto.WhichOneof("expr_kind")
    ident = int(proto.id)
    position = positions.get(ident, 0)
    if which == "const_expr":
        node = Node("const", proto, ident, position)
        constant = proto.const_expr.WhichOneof("constant_kind")
        node.value = None if constant in (None, "null_value") else \
            getattr(proto.const_expr, constant)
        return node
    if which == "ident_expr":
        node = Node("ident", proto, ident, position)
        node.name = proto.ident_expr.name
        return node
    if which == "select_expr":
        node = Node("select", proto, ident, position)
        node.name = proto.select_expr.field
        node.test_only = proto.select_expr.test_only
        node.children = [_node(proto.select_expr.operand, positions)]
        return node
    if which == "call_expr":
        node = Node("call", proto, ident, position)
        call = proto.call_expr
        node.name = call.function
        node.member = call.HasField("target")
        node.children = ([_node(call.target, positions)] if node.member else []) + \
            [_node(arg, positions) for arg in call.args]
        return node
    if which == "list_expr":
        node = Node("list", proto, ident, position)
        node.children = [_node(item, positions) for item in proto.list_expr.elements]
        return node
    if which == "struct_expr":
        node = Node("map", proto, ident, position)
        node.name = proto.struct_expr.message_name
        for entry in proto.struct_expr.entries:
            key = _node(entry.map_key, positions) if entry.HasField("map_key") else None
            node.children += [key, _node(entry.value, positions)]
        return node
    if which == "comprehension_expr":
        return _comprehension(proto, positions, position)
    return Node("const", proto, ident, position)  # an empty expression: nothing to read


def _comprehension(proto: Any, positions: Mapping[int, int], position: int) -> Node:
    loop = proto.comprehension_expr
    node = Node("comprehension", proto, int(proto.id), position)
    node.variable = loop.iter_var
    parts = {name: _node(getattr(loop, name), positions)
             for name in ("accu_init", "loop_condition", "loop_step", "result")}
    macro = _macro(node.variable, parts)
    if macro is None:
        node.children = [_node(loop.iter_range, positions), None, None]
        node.loop = list(parts.values())
        return node
    node.name, predicate, value = macro
    node.children = [_node(loop.iter_range, positions), predicate, value]
    return node


def _call(node: Node | None, function: str, count: int) -> bool:
    return node is not None and node.kind == "call" and node.name == function \
        and not node.member and len(node.children) == count


def _is(node: Node | None, kind: str, value: object = None) -> bool:
    return node is not None and node.kind == kind and (value is None or node.value == value
                                                      or node.name == value)


def _macro(variable: str, parts: Mapping[str, Node]) -> tuple[str, Node | None,
                                                               Node | None] | None:
    """(macro, predicate, value) of a standard macro's expansion, or None."""
    init, step, result = parts["accu_init"], parts["loop_step"], parts["result"]
    if _is(init, "const") and init.value is True and _call(step, "_&&_", 2):
        return "all", step.children[1], None
    if _is(init, "const") and init.value is False and _call(step, "_||_", 2):
        return "exists", step.children[1], None
    if _call(result, "_==_", 2) and _call(step, "_?_:_", 3):
        return "exists_one", step.children[0], None
    if init.kind != "list":
        return None
    if _call(step, "_+_", 2) and _is(step.children[1], "list") \
            and len(step.children[1].children) == 1:
        return "map", None, step.children[1].children[0]
    if _call(step, "_?_:_", 3) and _call(step.children[1], "_+_", 2):
        added = step.children[1].children[1]
        if _is(added, "list") and len(added.children) == 1:
            item = added.children[0]
            if _is(item, "ident", variable):
                return "filter", step.children[0], None
            return "map", step.children[0], item
    return None


# --- writing a sub-expression back, for findings -------------------------------------------

def _literal(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        quote = "'" if "'" not in value else '"'
        return quote + value.replace("\\", "\\\\").replace("\n", "\\n") + quote
    if isinstance(value, bytes):
        return "b" + _literal(value.decode("latin-1"))
    return repr(value)


def text_of(node: Node | None) -> str:
    """``node`` written as CEL (parentheses where precedence needs them)."""
    if node is None:
        return ""
    if node.kind == "const":
        return _literal(node.value)
    if node.kind == "ident":
        return node.name
    if node.kind == "select":
        inner = f"{_operand(node.children[0], 9)}.{node.name}"
        return f"has({inner})" if node.test_only else inner
    if node.kind == "list":
        return "[" + ", ".join(text_of(c) for c in node.children) + "]"
    if node.kind == "map":
        pairs = zip(node.children[::2], node.children[1::2], strict=True)
        return "{" + ", ".join(f"{text_of(k)}: {text_of(v)}" for k, v in pairs) + "}"
    if node.kind == "comprehension":
        over, predicate, value = node.children
        args = [node.variable] + [text_of(n) for n in (predicate, value) if n is not None]
        return f"{_operand(over, 9)}.{node.name or 'loop'}({', '.join(args)})"
    return _call_text(node)


def _call_text(node: Node) -> str:
    children = node.children
    if node.name in OPERATORS and not node.member:
        written, precedence = OPERATORS[node.name]
        if node.name == "_?_:_" and len(children) == 3:
            return (f"{_operand(children[0], 2)} ? {_operand(children[1], 2)} : "
                    f"{_operand(children[2], 1)}")
        if node.name == "_[_]" and len(children) == 2:
            return f"{_operand(children[0], 9)}[{text_of(children[1])}]"
        if len(children) == 1:
            return f"{written}{_operand(children[0], precedence)}"
        if len(children) == 2:
            return (f"{_operand(children[0], precedence)} {written} "
                    f"{_operand(children[1], precedence + 1)}")
    if node.member:
        arguments = ", ".join(text_of(c) for c in children[1:])
        return f"{_operand(children[0], 9)}.{node.name}({arguments})"
    return f"{node.name}({', '.join(text_of(c) for c in children)})"


def _operand(node: Node | None, precedence: int) -> str:
    text = text_of(node)
    if node is not None and node.kind == "call" and not node.member \
            and node.name in OPERATORS and OPERATORS[node.name][1] < precedence:
        return f"({text})"
    return text


# --- what it reads --------------------------------------------------------------------------

def root_name(node: Node | None) -> str | None:
    """The identifier ``node`` is, if it is a bare identifier."""
    return node.name if node is not None and node.kind == "ident" else None


def field_path(node: Node | None) -> tuple[str, str] | None:
    """``x.f`` -> (x, f); ``e.card.f`` -> ("e.card", f); a bare ``f`` -> ("", f)."""
    if node is None:
        return None
    if node.kind == "ident":
        return "", node.name
    if node.kind != "select" or node.test_only:
        return None
    operand = node.children[0]
    if operand is not None and operand.kind == "ident":
        return operand.name, node.name
    if operand is not None and operand.kind == "select" and not operand.test_only:
        inner = root_name(operand.children[0])
        if inner is not None:
            return f"{inner}.{operand.name}", node.name
    return None


def is_hidden(name: str) -> bool:
    """Names CEL's own expansions use (``@result``, ``@it``): never a user's variable."""
    return name.startswith("@")


class Reads(Struct):
    """Static facts about an expression, for checks and memoization (filled in by
    :func:`reads` as it walks the tree)."""

    #: (variable, field) pairs: ``self.cost`` -> ("self", "cost")
    fields: set[tuple[str, str]] = set()
    #: variables read as a whole (``self`` passed on, indexed, ...), not one field of
    whole: set[str] = set()
    #: free identifiers (neither macro variables nor CEL's own)
    names: set[str] = set()
    #: comprehension variable -> the identifier it ranges over when that is a plain name
    ranges: dict[str, str] = {}
    #: functions called by name (``size``, ``sum``...), operators left out
    functions: set[str] = set()


def reads(tree: Node) -> Reads:
    """Walk the tree once: which variables, fields and functions it reads."""
    result = Reads()

    def walk(node: Node | None, bound: frozenset[str]) -> None:
        if node is None:
            return
        if node.kind == "select":
            operand = node.children[0]
            variable = root_name(operand)
            if variable is not None:
                result.fields.add((variable, node.name))
                if variable not in bound and not is_hidden(variable):
                    result.names.add(variable)
                return
            walk(operand, bound)
            return
        if node.kind == "ident":
            if node.name not in bound and not is_hidden(node.name):
                result.names.add(node.name)
                result.whole.add(node.name)
            return
        if node.kind == "call" and node.name not in OPERATORS and not is_hidden(node.name):
            result.functions.add(node.name)
        if node.kind == "comprehension":
            over = node.children[0]
            walk(over, bound)
            name = root_name(over)
            if name is not None:
                result.ranges[node.variable] = name
            inner = bound | {node.variable}
            for child in (*node.children[1:], *node.loop):
                walk(child, inner)
            return
        for child in node.children:
            walk(child, bound)

    walk(tree, frozenset())
    return result


_COMPARISONS = frozenset({"_==_", "_!=_"})


def compared_literals(tree: Node) -> list[tuple[str, str, str]]:
    """(variable, field, text) for each field compared with a string literal:
    ``c.kind == 'legend'``, ``'fire' != school``, ``self.school in ['fire', 'frost']``, so that a
    value no card can have (a misspelled kind) is caught before it silently never matches."""
    found: list[tuple[str, str, str]] = []
    for node in tree.walk():
        if node.kind != "call" or node.member or len(node.children) != 2:
            continue
        left, right = node.children
        if node.name == "@in":
            reference = field_path(left)
            texts = _strings(right)
        elif node.name in _COMPARISONS:
            reference, text = field_path(left), _string(right)
            if reference is None or text is None:
                reference, text = field_path(right), _string(left)
            texts = [text] if text is not None else None
        else:
            continue
        if reference is not None and texts:
            found += [(reference[0], reference[1], t) for t in texts]
    return found


def _string(node: Node | None) -> str | None:
    return node.value if node is not None and node.kind == "const" \
        and isinstance(node.value, str) else None


def _strings(node: Node | None) -> list[str] | None:
    if node is None or node.kind != "list":
        return None
    values = [_string(item) for item in node.children]
    return None if any(v is None for v in values) else [v for v in values if v is not None]


# --- what it may cost -----------------------------------------------------------------------

#: elements a value that is not a list (a card, a map) is taken to hold when iterated: a card
#: has at most a few hundred fields (a table row at most 500 columns)
MAP_ENTRIES = 500


class Shape(Struct, frozen=True):
    """An upper bound of a value's size: ``length`` elements (0: not a list or map), each no
    bigger than ``item``."""

    length: int = 0
    item: Shape | None = None

    @property
    def weight(self) -> int:
        """Values in it, nested ones included: what copying it costs."""
        return 1 + self.length * (self.item.weight if self.item is not None else 1)

    def element(self) -> Shape:
        return self.item if self.item is not None else SCALAR

    def iterations(self) -> int:
        return self.length if self.length or self.item is not None else MAP_ENTRIES


SCALAR = Shape()


def _join(shapes: list[Shape]) -> Shape:
    """The smallest bound above each of ``shapes``."""
    lists = [s for s in shapes if s.length or s.item is not None]
    if not lists:
        return SCALAR
    items = [s.item for s in lists if s.item is not None]
    return Shape(max(s.length for s in lists), _join(items) if items else None)


def estimate_cost(tree: Node, sizes: Mapping[str, int]) -> int:
    """An upper bound of the steps evaluating ``tree`` takes, given how many elements each list
    variable holds (``{"cards": 1200, "deck": 60}``; other names are single values).

    Every comprehension multiplies the cost of its body by the length of what it ranges over,
    whatever that is (``cards``, ``cards + cards``, a literal list, a ``map`` result, another
    macro), and building or copying a list costs its size, so ``cards.map(x, cards + cards)``
    counts the copies as well as the iterations."""
    return _cost(tree, sizes, {})[0]


def _cost(node: Node | None, sizes: Mapping[str, int],
          bound: dict[str, Shape]) -> tuple[int, Shape]:
    if node is None:
        return 0, SCALAR
    if node.kind == "const":
        return 1, SCALAR
    if node.kind == "ident":
        if node.name in bound:
            return 1, bound[node.name]
        if node.name in sizes:
            return 1, Shape(sizes[node.name], SCALAR)
        return 1, SCALAR
    if node.kind == "comprehension":
        return _comprehension_cost(node, sizes, bound)
    costs = [_cost(child, sizes, bound) for child in node.children]
    steps = sum(c for c, _ in costs) + 1
    shapes = [s for _, s in costs]
    if node.kind == "select":
        return steps, shapes[0].element() if shapes[0].item is not None else SCALAR
    if node.kind in ("list", "map"):
        values = shapes if node.kind == "list" else shapes[1::2]
        return steps + len(values), Shape(len(values), _join(values) if values else None)
    # a call: it may read each argument whole (==, in, size of a string...)
    steps += sum(s.weight for s in shapes)
    if node.name == "_+_" and not node.member:
        joined = _join(shapes)
        if joined.length or joined.item is not None:
            return steps, Shape(sum(s.length for s in shapes), joined.item)
        return steps, SCALAR
    if node.name == "_[_]":
        return steps, shapes[0].element()
    if node.name in OPERATORS and node.name != "_?_:_":
        return steps, SCALAR
    return steps, _join(shapes)  # the value may be any of its arguments (dyn(x), a ? b : c)


def _comprehension_cost(node: Node, sizes: Mapping[str, int],
                        bound: dict[str, Shape]) -> tuple[int, Shape]:
    over, predicate, value = node.children
    range_cost, range_shape = _cost(over, sizes, bound)
    inner = {**bound, node.variable: range_shape.element()}
    body = [_cost(part, sizes, inner) for part in (predicate, value, *node.loop)]
    each = sum(c for c, _ in body) + sum(s.weight for _, s in body) + 1
    iterations = range_shape.iterations()
    steps = range_cost + iterations * each
    if node.name == "filter":
        return steps, Shape(iterations, range_shape.element())
    if node.name in ("all", "exists", "exists_one"):
        return steps, SCALAR
    produced = _join([s for _, s in body]) if body else SCALAR
    return steps, Shape(iterations, produced)
