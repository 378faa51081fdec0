"""One rule for records: every record in generator/ is a msgspec Struct.

A record is frozen (and ``gc=False`` where it holds only numbers, strings and tuples of them)
unless it is filled in place by the code that makes it; no record is a dataclass, a NamedTuple
or a class with a hand-written ``__init__`` (a class with behaviour and state, such as a server
or a lazy loader, is not a record). A field that is no part of a record's value (where it was
written, a lookup) stays out of its equality and hash through
:class:`generator.core.records.PartlyCompared`. The rule is written in
``generator/core/__init__.py``; these tests hold the parts of it a machine can see.
"""

from __future__ import annotations

import ast
import importlib
import pickle
from collections.abc import Hashable
from functools import cache
from pathlib import Path

import pytest
from conftest import ROOT
from msgspec import Struct
from msgspec.structs import replace

from generator.core.findings import Severity
from generator.core.location import Location
from generator.core.records import PartlyCompared
from generator.datagame.rules import DataRule
from generator.i18n.localize import Localizer
from generator.rules.cel import compile_expression, reads

PACKAGE = ROOT / "generator"


@cache
def _sources() -> list[tuple[str, ast.Module]]:
    return [(str(path.relative_to(ROOT)), ast.parse(path.read_text(encoding="utf-8")))
            for path in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in path.parts]


def _name(node: ast.expr) -> str:
    """The dotted name a decorator, base class or call names (``dataclasses.dataclass``)."""
    if isinstance(node, ast.Call):
        return _name(node.func)
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def _other_records(where: str, tree: ast.Module) -> list[str]:
    """Records made another way than as a Struct in one module: dataclasses imported or applied,
    NamedTuple classes and namedtuple() calls."""
    found = []
    for node in ast.walk(tree):
        line = f"{where}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            found += [f"{line}: import {a.name}" for a in node.names if a.name == "dataclasses"]
        elif isinstance(node, ast.ImportFrom) and node.module == "dataclasses":
            found.append(f"{line}: from dataclasses import ...")
        elif isinstance(node, ast.ClassDef):
            found += [f"{line}: @{_name(d)} class {node.name}" for d in node.decorator_list
                      if _name(d).rpartition(".")[2] == "dataclass"]
            found += [f"{line}: class {node.name}({_name(b)})" for b in node.bases
                      if _name(b).rpartition(".")[2] == "NamedTuple"]
        elif isinstance(node, ast.Call) and _name(node).rpartition(".")[2] == "namedtuple":
            found.append(f"{line}: namedtuple(...)")
    return found


def test_no_record_in_generator_is_a_dataclass_or_a_named_tuple() -> None:
    found = [problem for where, tree in _sources() for problem in _other_records(where, tree)]
    assert not found, "records that are not msgspec Structs:\n" + "\n".join(found)


def test_the_check_sees_each_other_way_of_making_a_record() -> None:
    written = {
        "import dataclasses": 1,
        "from dataclasses import dataclass": 1,
        "@dataclasses.dataclass(frozen=True)\nclass A:\n    x: int": 1,
        "@dataclass\nclass A:\n    x: int": 1,
        "class A(typing.NamedTuple):\n    x: int": 1,
        "A = collections.namedtuple('A', 'x')": 1,
        "class A(Struct, frozen=True):\n    x: int": 0,
        "class A:\n    def dataclass(self): ...": 0,
    }
    for source, expected in written.items():
        assert len(_other_records("m.py", ast.parse(source))) == expected, source


def _partly_compared() -> list[type]:
    """Every class of generator/ that names fields left out of its equality (``_UNCOMPARED``),
    imported from its module."""
    classes = []
    for where, tree in _sources():
        names = [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                 and any(isinstance(item, ast.Assign | ast.AnnAssign) and "_UNCOMPARED" in
                         ast.unparse(item.targets[0] if isinstance(item, ast.Assign)
                                     else item.target) for item in node.body)]
        if names:
            module = importlib.import_module(
                ".".join(Path(where).with_suffix("").parts).removesuffix(".__init__"))
            classes += [getattr(module, name) for name in names]
    return [cls for cls in classes if cls is not PartlyCompared]


def test_what_a_record_leaves_out_of_its_equality_are_fields_of_it() -> None:
    classes = _partly_compared()
    assert len(classes) >= 7  # source, card, manifest, element, deck, data rule, localizer...
    for cls in classes:
        assert issubclass(cls, Struct) and issubclass(cls, PartlyCompared), cls
        unknown = cls._UNCOMPARED - set(cls.__struct_fields__)
        assert not unknown, f"{cls.__qualname__}: {sorted(unknown)} are not its fields"


class _Placed(PartlyCompared, Struct, frozen=True):
    value: str
    line: int = 0

    _UNCOMPARED = frozenset({"line"})


class _Other(PartlyCompared, Struct, frozen=True):
    value: str
    line: int = 0

    _UNCOMPARED = frozenset({"line"})


def test_partly_compared_records_compare_and_hash_by_the_other_fields() -> None:
    assert _Placed("a", 1) == _Placed("a", 2)
    assert (_Placed("a", 1) != _Placed("a", 2)) is False  # != agrees with ==
    assert hash(_Placed("a", 1)) == hash(_Placed("a", 2))
    assert _Placed("a", 1) != _Placed("b", 1)
    assert _Placed("a") != _Other("a")  # a record of another class is never equal
    assert len({_Placed("a", 1), _Placed("a", 2), _Other("a")}) == 2
    assert pickle.loads(pickle.dumps(_Placed("a", 3))).line == 3  # pickled as its values


def test_a_record_filled_in_place_has_no_hash() -> None:
    localizer = Localizer("cwnb", "ru", "en")
    localizer.missing.add(("ship.name", "Nimitz"))  # filled in place, as it is used
    again = Localizer("cwnb", "ru", "en", missing={("ship.name", "Nimitz")}, labels={"a": "b"})
    assert localizer == again  # the labels it looked up are left out
    assert Localizer("cwnb", "ru", "en").missing is not Localizer("cwnb", "ru", "en").missing
    assert not isinstance(localizer, Hashable)  # not even by its other fields
    with pytest.raises(TypeError):
        hash(localizer)


def test_a_compiled_rule_is_the_rule_it_was_written_as() -> None:
    written = DataRule("too-big", "card", None, "self.cost < 10", "too big", Severity.ERROR,
                       None, Location("game.yaml", 4, 5), Location("game.yaml", 5, 12))
    expression = compile_expression(written.check)
    compiled = replace(written, expression=expression, reads=reads(expression))
    assert compiled == written and hash(compiled) == hash(written)
    assert compiled.reads is not None and ("self", "cost") in compiled.reads.fields
    assert compiled != replace(written, check="self.cost < 11")
