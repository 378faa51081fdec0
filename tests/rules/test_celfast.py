"""The CEL subset evaluator (generator.rules.celfast) against cel-python, the referee.

Every answer the subset gives itself must be exactly cel-python's answer (value and type);
everything else must be left to cel-python (``Defer`` at evaluation, or ``None`` at compile).
The expressions are every condition and rule the shipped templates and packs carry, plus
hand-written edge cases; the values are drawn from a seeded pool of card-like data.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import yaml

from generator.rules.cel import compile_expression, is_error, plain_evaluator, to_cel
from generator.rules.celfast import Defer, compile_subset

ROOT = Path(__file__).resolve().parents[2]
FIELDS = ("badge", "hull", "speed", "traits", "cost", "kind", "name", "bombs", "flag", "ratio")

EDGE_CASES = [
    "badge == 'd6'", 'badge != "chip"', "hull > 0", "hull >= 2 && hull <= 4", "cost < 1.5",
    "ratio == 2.0", "speed == '1s' || size(speed) > 1", "!flag", "!(hull > 3) || flag",
    "has(self.bombs) && bombs > 0", "has(self.bombs) || bombs > 0", "has(self.nothing)",
    "'hunter' in traits", "kind in ['ship', 'sub']", "hull in [1, 2, 3]", "cost in [1, 'a']",
    "flag ? hull : cost", "self.hull == hull", "self.traits.size() >= 1", "size(traits) == 0",
    "name < 'M'", "flag == true", "flag != false", "hull == 1.0", "hull == '1'", "traits == []",
    "null == null", "bombs == null", "self.name.size() > 3", "(((hull)))", "true", "false",
    "1 == 1", "'a' < 'b'", "[1, 2] == [1, 2]", "flag && flag && flag || !flag",
    "size(self) > 0", "name.size", "hull + 1 > 2", "-hull < 0", "hull > -1", "-cost <= 0.5",
    "cost * 2 + 1 >= hull", "name + 'x' == 'Ax'", "hull - cost > 0",
    "9223372036854775807 + hull > 0",
    "-9223372036854775807 - hull < 0", "traits + traits == []", "2 * 3 - 1 == 5",
    # comprehension macros (set rules over every card)
    "traits.exists(t, t == 'a')", "traits.all(t, t == 'hunter')", "traits.all(t, t > 1)",
    "traits.filter(t, t != 'a').size() > 0", "traits.exists_one(t, t == 'b')",
    "traits.map(t, size(t)).size() == size(traits)", "[1, 2, 3].filter(x, x > hull).size() >= 1",
    "traits.exists(hull, hull == 'a')", "traits.exists(t, traits.all(u, u == t))",
    "[hull, cost].exists(x, x == 1)", "[traits].all(l, l.exists(t, t == 'hunter'))",
    "[self].filter(c, has(c.bombs) && c.bombs > 0).size() == 1", "name.exists(c, c == 'A')",
    "traits.exists(t, t)", "traits.map(t, t + 'x').size() == 2", "[1, 1].exists_one(x, x == 1)",
    "traits.exists_one(t, size(t) > 0)",
    # beyond the subset: compiled by cel-python only
    "hull / 2 > 1", "hull % 2 == 0", "--hull == 1", "traits.map(t, t == 'a', t)",
    "traits.exists(1, true)", "int(cost) > 1",
    "name.startsWith('A')", r"name == 'a\'b'", "0x10 == hull", "1u == 1u", "[1, 2,] == []",
    "hull < cost < 3", "r'raw' == name", "type(hull) == int",
]
NOT_SUBSET = EDGE_CASES[EDGE_CASES.index("hull / 2 > 1"):]


def _shipped_expressions(keys: str = "when|unless|check") -> list[str]:
    """Every when/unless condition in built-in templates and pack templates, and every rule
    check of the shipped packs and fixtures."""
    found: set[str] = set()
    pattern = re.compile(r"\b(?:" + keys + r"):\s*(\"[^\"]*\"|'[^']*'|[^,}\n]+)")
    for folder in ("templates", "cards", "tests/fixtures", "generator/starter"):
        for path in sorted((ROOT / folder).rglob("*.yaml")):
            for match in pattern.finditer(path.read_text(encoding="utf-8", errors="replace")):
                raw = match.group(1).strip()
                try:
                    text = yaml.safe_load(raw)
                except yaml.YAMLError:
                    continue
                if isinstance(text, str) and text and not re.fullmatch(r"\w+", text):
                    found.add(text)
    return sorted(found)


POOL = [0, 1, 2, 3, 5, -1, 2 ** 63 - 1, -(2 ** 63), 1.5, 2.0, 0.0, True, False, "", "d6",
        "chip", "1s", "ship", "A", "Zed", "hunter", ["hunter"], [], ["a", "b"], [1, 2],
        {"x": 1}, None]


#: subset expressions no card data lets the subset decide (CEL's null and list equality)
ALWAYS_DEFERRED = {"size(self) > 0", "null == null", "bombs == null", "[1, 2] == [1, 2]",
                   "traits == []", "cost in [1, 'a']", "name.size",
                   "traits + traits == []"}


def _activations(count: int, seed: int, text: str = "") -> list[dict]:
    rng = random.Random(seed)
    names = set(FIELDS) | set(re.findall(r"(?<!['\"\w])([a-z_]\w*)", text)) - {"self"}
    result = []
    for _ in range(count):
        fields = {name: rng.choice(POOL) for name in sorted(names) if rng.random() < 0.85}
        fields = {k: v for k, v in fields.items() if v is not None or rng.random() < 0.5}
        result.append({**fields, "self": fields})
    return result


def _same(fast_value, cel_value) -> bool:
    if is_error(cel_value):
        return False
    if isinstance(cel_value, bool) or isinstance(fast_value, bool):
        return type(fast_value) is type(cel_value) and fast_value == cel_value
    return fast_value == cel_value and type(fast_value).__mro__[0] in \
        {t for t in type(cel_value).__mro__}


@pytest.mark.parametrize("text", _shipped_expressions() + EDGE_CASES)
def test_subset_answers_exactly_as_cel_python(text):
    fast = compile_subset(text)
    try:
        referee = compile_expression(text)
    except Exception:
        assert fast is None, f"{text!r}: the subset compiled what cel-python refuses"
        return
    if fast is None:
        return
    decided = 0
    for values in _activations(300, seed=len(text), text=text):
        try:
            mine = fast(values)
        except Defer:
            continue
        decided += 1
        theirs = referee.evaluate({k: to_cel(v) for k, v in values.items()})
        assert _same(mine, theirs), f"{text!r} over {values}: subset {mine!r}, CEL {theirs!r}"
    assert decided or text in ALWAYS_DEFERRED, f"{text!r}: the subset never decided"
    # plain_evaluator agrees with the referee whoever decides
    for values in _activations(20, seed=7):
        theirs = referee.evaluate({k: to_cel(v) for k, v in values.items()})
        mine = plain_evaluator(text)(values)
        assert is_error(mine) == is_error(theirs)
        if not is_error(theirs):
            assert mine == theirs


@pytest.mark.parametrize("text", NOT_SUBSET)
def test_beyond_the_subset_goes_to_cel_python(text):
    assert compile_subset(text) is None


def test_every_shipped_template_condition_is_in_the_subset():
    """The speed the subset exists for: no shipped template needs cel-python to lay out."""
    conditions = _shipped_expressions("when|unless")
    outside = [t for t in conditions if compile_subset(t) is None]
    assert conditions and not outside, outside


def test_decided_answers_cover_the_common_cases():
    """Not a subset that defers everything: ordinary card data is decided in Python."""
    values = {"badge": "d6", "hull": 3, "traits": ["hunter"], "self": {"badge": "d6",
              "hull": 3, "traits": ["hunter"]}}
    assert compile_subset("badge == 'd6'")(values) is True
    assert compile_subset("has(self.bombs) && bombs > 0")(values) is False
    assert compile_subset("'hunter' in traits && hull >= 3")(values) is True
    assert compile_subset("hull == 'x' ? 1 : 2")  # compiles; evaluation defers on the types
    with pytest.raises(Defer):
        compile_subset("hull == 'x'")(values)


def test_layout_never_loads_cel_python_for_a_builtin_game(tmp_path):
    import subprocess
    import sys

    code = ("import sys; from generator.cli.main import main\n"
            "sys.argv = ['pnp', 'validate', 'cards/cwnb']\n"
            "try: main()\n"
            "except SystemExit as e: code = e.code\n"
            "print('celpy' in sys.modules, code)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out[-2:] == ["False", "0"]
