"""The one YAML loader (generator/load/yamlsource.py): PyYAML's data, each value and key
located, and every way a file is refused a located finding.

The data is held to PyYAML's own ``yaml.safe_load`` (what pnp reads differently is spelled out
in :func:`pnp_view`): every YAML file of the repository, corners of YAML and a few thousand
seeded mutations. Positions are spot-checked against the text, and the findings of the corners
are written out. The pure-Python parser (PyYAML without libyaml) must read all of it alike.
"""

from __future__ import annotations

import ast
import datetime
import random
import re
from collections import Counter
from pathlib import Path

import fuzzing
import pytest
import yaml
from conftest import ROOT

from generator.core.limits import MAX_ALIAS_VALUES, MAX_DEPTH, MAX_INTEGER, MAX_STRING_CHARS
from generator.load import yamlsource
from generator.load.yamldoc import YamlDocument

#: folders of the repository that hold YAML (build/, output/ and .venv/ are not sources)
YAML_FOLDERS = ("cards", "templates", "generator", "tests", "docs", "bench", "tools")
#: the repository's YAML files that are refused, and how: the starter game's placeholders
REFUSED_FILES = {"generator/starter/game/game.yaml": ("yaml-syntax", 3, 7)}
MUTATION_CASES = 1_500
MUTATION_SEED = 20261126


def repository_yaml() -> list[Path]:
    found = []
    for folder in YAML_FOLDERS:
        for suffix in ("*.yaml", "*.yml"):
            found += (ROOT / folder).rglob(suffix)
    return sorted(found)


def test_snippets() -> list[str]:
    """String constants of the other tests that look like YAML (the bad inputs they write)."""
    snippets = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and ":" in node.value and "\n" in node.value:
                snippets.append(node.value)
    return snippets


test_snippets.__test__ = False  # type: ignore[attr-defined] - a helper, not a test


def load(text: str, file: str = "x.yaml") -> tuple[YamlDocument | None, list]:
    return yamlsource.load_yaml_text(file, text)


def typed(value: object) -> object:
    """The value with every type spelled out: True is not 1, 1.0 is not 1, order counts."""
    if isinstance(value, dict):
        return ("dict", tuple((typed(k), typed(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(typed(item) for item in value))
    return (type(value).__name__, repr(value))


def pnp_view(value: object) -> object:
    """What ``yaml.safe_load`` gives, as pnp reads it: mapping keys are text (``1: a`` has the
    key "1")."""
    if isinstance(value, dict):
        return {str(key): pnp_view(item) for key, item in value.items()}
    if isinstance(value, list):
        return [pnp_view(item) for item in value]
    return value


class _TextKeys(yaml.CSafeLoader):
    """PyYAML's safe loader (libyaml's parser) with each mapping's keys made text as it is
    built, as pnp's are: ``1: a`` and ``true: b`` are two keys, where safe_load keeps one."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        self.flatten_mapping(node)
        for key_node, _value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):  # (safe_load: an unhashable key)
                raise yaml.constructor.ConstructorError(None, None, "a key that is no scalar",
                                                        key_node.start_mark)
        return {str(key): value for key, value in self.construct_pairs(node, deep=deep)}


_TextKeys.add_constructor("tag:yaml.org,2002:map", _TextKeys.construct_mapping)


def pyyaml_reads(text: str) -> object:
    return yaml.load(text, Loader=_TextKeys)


def answer(text: str, file: str = "x.yaml") -> tuple[object, ...]:
    """Everything the loader says about ``text``: data with types, both indexes in order, the
    findings with their places and words."""
    document, findings = load(text, file)
    if document is None:
        return None, [(f.code, f.message, f.location.line, f.location.column)
                      for f in findings]
    return (typed(document.data), [(p, w.line, w.column) for p, w in document.values.items()],
            [(p, w.line, w.column) for p, w in document.keys.items()])


#: what may come before the text of a node, where its position is: an anchor, a tag, a quote,
#: an explicit key's "?", a block scalar's indicator, a flow collection's bracket
_NODE_START = re.compile(r"[&!'\"?|>\[{*]")


def assert_positions_point_at_the_text(text: str, document: YamlDocument) -> int:
    """Each key's and each text value's position is where it is written (or an anchor, tag,
    quote... before it); returns how many were found written there as they read."""
    lines = text.splitlines()
    checked = 0
    for index, written_as in ((document.keys, lambda path: str(path[-1])),
                              (document.values, lambda path: _text_at(document.data, path))):
        for path, where in index.items():
            assert 1 <= where.line <= len(lines) + 1 and where.column >= 1, (path, where)
            written = lines[where.line - 1][where.column - 1:] if where.line <= len(lines) \
                else ""
            start = written_as(path)
            if start is None:
                continue
            assert written.startswith(start) or _NODE_START.match(written), \
                (path, where, written[:40])
            checked += written.startswith(start)
    return checked


def _text_at(data: object, path: tuple) -> str | None:
    """The first line of the text value at ``path`` (None for other values)."""
    for part in path:
        data = data[part]  # type: ignore[index]
    return data.split("\n")[0][:20] if isinstance(data, str) and data.strip() else None


# --- the repository's own YAML ----------------------------------------------------------------

def test_every_yaml_file_of_the_repository_loads_as_pyyaml_reads_it():
    files = repository_yaml()
    assert len(files) > 100
    checked = 0
    for path in files:
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        document, findings = load(text, name)
        if name in REFUSED_FILES:
            assert [(f.code, f.location.line, f.location.column) for f in findings] \
                == [REFUSED_FILES[name]]
            continue
        assert findings == [] and document is not None, (name, findings)
        assert typed(document.data) == typed(pnp_view(yaml.safe_load(text))), name
        checked += assert_positions_point_at_the_text(text, document)
    assert checked > 15_000


def test_a_card_file_is_located_value_by_value():
    """CWNB's ships: the first card, its name and its guns' first item, where they are."""
    path = ROOT / "cards" / "cwnb" / "ships.yaml"
    document, findings = load(path.read_text(encoding="utf-8"), "ships.yaml")
    assert findings == [] and document is not None
    lines = path.read_text(encoding="utf-8").splitlines()
    card = document.where(("cards", 0))
    assert lines[card.line - 1][card.column - 1:].startswith("id: ")
    name = document.where(("cards", 0, "name"))
    assert (name.line, name.column) == (10, 11)  # "    name: USS Nimitz"
    assert document.where_key(("cards", 0, "name")).column == 5
    assert document.where(("cards", 0, "name", "not", "there")) == name


def test_a_card_file_written_by_pyyaml_loads_with_its_aliases():
    """PyYAML writes lists shared between cards once, anchored (&id001), and aliases them after
    (bench/scaling.py writes its 10,000 ships so): each alias is a fresh copy at its own path,
    located where the anchored value is written."""
    profiles = yaml.safe_load((ROOT / "cards" / "cwnb" / "ships.yaml").read_text("utf-8"))
    cards = []
    for number in range(300):
        card = dict(profiles["cards"][number % len(profiles["cards"])])
        card["id"] = f"{card['id']}-{number}"
        cards.append(card)
    text = yaml.safe_dump({"cards": cards}, allow_unicode=True, sort_keys=False)
    assert "&id001" in text and "*id001" in text
    document, findings = load(text)
    assert findings == [] and document is not None
    assert typed(document.data) == typed(yaml.safe_load(text))
    anchored = next(i for i, line in enumerate(text.splitlines(), 1) if "&id001" in line)
    located = [path for path, where in document.values.items() if where.line == anchored]
    assert len(located) > 1  # the anchored value and each alias of it


def test_an_alias_repeats_a_fresh_copy_at_its_own_path():
    document, _ = load("a: &x {b: [1]}\nc: *x\n")
    assert document is not None
    data, values, keys = document.data, document.values, document.keys
    assert data == {"a": {"b": [1]}, "c": {"b": [1]}}
    assert data["a"] is not data["c"] and data["a"]["b"] is not data["c"]["b"]  # type: ignore
    assert values[("c", "b", 0)] == values[("a", "b", 0)]
    assert (values[("c",)].line, values[("c",)].column) == (1, 4)  # where the anchor is
    assert keys[("c",)].line == 2 and keys[("c", "b")] == keys[("a", "b")]


def test_each_key_is_one_string_object():
    """A key written on every card is one string in the data and in the index (pickle and the
    parse cache write it once)."""
    document, _ = load("cards:\n- {name: a, points: 1}\n- {name: b, points: 2}\n")
    assert document is not None
    first, second = document.data["cards"]  # type: ignore[index]
    assert next(iter(first)) is next(iter(second))
    assert [path[-1] for path in document.keys][1] is next(iter(first))


# --- corners of YAML ------------------------------------------------------------------------------

#: plain scalars of every implicit type of YAML 1.1 as PyYAML reads them, valid or not
PLAIN_FORMS = [
    "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "on", "On",
    "ON", "off", "Off", "OFF", "y", "n", "Y", "N", "yEs", "null", "Null", "NULL", "~", "nULL",
    "0", "-0", "+0", "12", "-12", "+12", "012", "0o17", "0x1F", "0X1F", "0b101", "-0b101",
    "1_000", "1__0", "_1", "190:20:30", "-1:30", "0x_1F", "9007199254740992",
    "9007199254740993", "-9007199254740993", "0x20000000000001", "99999999999999999999",
    "1.5", "-1.5", "+1.5", "1.", ".5", "1e3", "1.0e3", "1.0e+400", "-1.0e+400", "1.0e+3",
    "1.0E-3", "6.8523015e+5",
    "685.230_15e+03", "190:20:30.15", "1.5:30", ".inf", "-.inf", "+.INF", ".Inf", ".nan",
    ".NaN", ".NAN", "1e400", "1.0e400", "-0.0", "2024-02-29", "2024-02-30", "2001-12-14",
    "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2001-12-14 21:59:43.10",
    "2002-12-14T01:02:03Z", "2001-13-14", "2001-1-4", "20011214", "=", "<<", "a b",
    "5in", "3+3", "1,000", "0.1.2", "1:2:3:4", "'", "é", "中文", "1" * 30,
]
#: the plain forms pnp refuses where PyYAML reads them, by the finding
REFUSED_FORMS = {
    "number-too-large": {"9007199254740993", "-9007199254740993", "0x20000000000001",
                         "99999999999999999999", "1" * 30},
    "number-not-finite": {"1.0e+400", "-1.0e+400", ".inf", "-.inf", "+.INF", ".Inf", ".nan",
                          ".NaN", ".NAN"},
    "yaml-bad-value": {"2024-02-30", "2001-13-14", "=", "<<"},
}


def _refusal(form: str, as_key: bool) -> str | None:
    if form == "'":
        return "yaml-syntax"  # an unclosed quote
    if as_key and form == "=":
        return None  # a "=" key is text
    if as_key and form == "<<":
        return "yaml-syntax"  # a merge key whose value is no mapping
    return next((code for code, forms in REFUSED_FORMS.items() if form in forms), None)


@pytest.mark.parametrize("form", PLAIN_FORMS)
def test_plain_scalars_of_every_type_read_as_pyyaml_reads_them(form: str):
    """As a value, in a flow list, as a key and quoted: PyYAML's value, or pnp's finding."""
    quoted = f"a: '{form}'\n" if "'" not in form else f'a: "{form}"\n'
    for text, refused in ((f"a: {form}\nb: [{form}]\n", _refusal(form, as_key=False)),
                          (f"{form}: 1\n", _refusal(form, as_key=True)), (quoted, None)):
        document, findings = load(text)
        if refused is None:
            assert findings == [] and document is not None, (text, findings)
            assert typed(document.data) == typed(pyyaml_reads(text))
        else:
            assert [f.code for f in findings] == [refused], (text, findings)


def test_the_plain_forms_hold_every_implicit_type():
    kinds = {type(yaml.safe_load(f"a: {form}\n")["a"]).__name__ for form in PLAIN_FORMS
             if _refusal(form, as_key=False) is None}
    assert kinds == {"bool", "NoneType", "int", "float", "date", "datetime", "str"}


def _bomb(levels: int) -> str:
    lines = ["a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    for prev, name in list(zip("abcdefgh", "bcdefghi", strict=True))[:levels]:
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def _corner_cases() -> list[tuple[str, str, tuple[str, int, int] | None]]:
    """(name, text, the finding's code, line and column; None: PyYAML's data)."""
    deep_ok = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    deep_bad = "a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    block_deep = "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH - 1)) \
        + "  " * (MAX_DEPTH - 1) + "leaf: 1\n"
    block_deep_bad = "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH)) \
        + "  " * MAX_DEPTH + "leaf: 1\n"
    nested = "[" * 40 + "1" + "]" * 40
    too_deep = "yaml-too-deep"
    return [
        ("empty", "", ("empty-file", 1, 1)), ("newline", "\n", ("empty-file", 1, 1)),
        ("comment only", "# c\n# d\n", ("empty-file", 1, 1)),
        ("document marker only", "---\n", None), ("end marker", "--- \n...\n", None),
        ("null document", "~\n", None), ("scalar document", "hello\n", None),
        ("quoted document", "'12'\n", None), ("sequence document", "- 1\n- a\n", None),
        ("two documents", "a: 1\n---\nb: 2\n", ("yaml-syntax", 2, 1)),
        ("directive", "%YAML 1.1\n---\na: 1\n", None),
        ("flow", "{a: [1, 2, {b: c}], \"d\": 'e', f: [], g: {}}\n", None),
        ("block scalars", "a: |\n  x\n  y\nb: >\n  folded\n  text\nc: |-\n  z\nd: >+\n  w\n\n",
         None),
        ("quoted forms", "a: '12'\nb: \"yes\"\nc: \"\\u00e9\\n\"\nd: 'it''s'\n", None),
        ("multi-line plain", "a: one\n  two\n  three\nb: x\n", None),
        ("anchors and aliases", "a: &x [1, {b: 2}]\nc: *x\nd: [*x, *x]\n", None),
        ("nested anchors", "a: &x {b: &y [1, &z two], c: *y, d: *z}\ne: *x\nf: *y\ng: *z\n",
         None),
        ("alias of a scalar", "a: &s hello\nb: *s\nc: [*s, *s]\nd: &n 12\ne: *n\n", None),
        ("alias in a sequence of mappings", "- &m {id: 1, tags: &t [a, b]}\n- *m\n- {x: *t}\n",
         None),
        ("anchored document", "&top {a: 1}\n", None),
        ("alias as a key", "a: &k name\n*k : 1\n", None),
        ("anchored key", "&k a: 1\nb: *k\n", None),
        ("alias before its anchor", "a: *x\nb: &x 1\n", ("yaml-syntax", 1, 4)),
        ("recursive alias", "a: &a [*a]\n", ("yaml-recursive-alias", 1, 8)),
        ("recursive mapping alias", "terms: &a {x: *a}\n", ("yaml-recursive-alias", 1, 15)),
        ("duplicate anchor", "a: &x 1\nb: &x 2\nc: *x\n", ("yaml-syntax", 2, 4)),
        ("anchor redefined inside", "a: &x [&x 1]\n", ("yaml-syntax", 1, 8)),
        ("merge key", "base: &b {x: 1, y: 2}\nd: {<<: *b, y: 3}\n", None),
        ("merge list", "a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n  z: 3\n", None),
        ("merged, then aliased", "base: &b {x: 1}\nd: &d {<<: *b, x: 2}\ne: *d\n", None),
        ("merged into another merge", "a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nc: {<<: *b, z: 3}\n"
         "d: *b\n", None),
        ("bad merge", "a: {<<: 1}\n", ("yaml-syntax", 1, 9)),
        ("bad merge list", "a: {<<: [1]}\n", ("yaml-syntax", 1, 10)),
        ("merge into itself", "a: &a {<<: *a}\n", ("yaml-recursive-alias", 1, 12)),
        ("merge into itself, nested", "a: &a {b: {<<: *a}}\n", ("yaml-recursive-alias", 1, 16)),
        ("merge of a merge of itself", "x: {<<: &s {<<: *s}}\n",
         ("yaml-recursive-alias", 1, 17)),
        ("merge list with itself", "a: &a {<<: [*a]}\n", ("yaml-recursive-alias", 1, 13)),
        ("merge as a value", "a: <<\n", ("yaml-bad-value", 1, 4)),
        ("value key", "=: 1\n", None), ("value scalar", "a: =\n", ("yaml-bad-value", 1, 4)),
        ("duplicate key", "a: 1\nb: 2\na: 3\n", ("duplicate-key", 3, 1)),
        ("duplicate after conversion", "1: a\n'1': b\n", ("duplicate-key", 2, 1)),
        ("duplicate booleans", "true: 1\nTrue: 2\n", ("duplicate-key", 2, 1)),
        ("duplicate nested", "a:\n  b: 1\n  b: 2\n", ("duplicate-key", 3, 3)),
        ("keys of every type", "1: a\n1.5: b\ntrue: c\n~: d\n2001-12-14: e\n0x1F: f\n"
         "2001-12-14 21:59:43.10 -5: g\nno: h\n", None),
        ("empty key in flow", "{? : 1}\n", None),
        ("explicit key", "? a\n: b\n", None),
        ("complex key", "? [a, b]\n: c\n", ("yaml-syntax", 1, 3)),
        ("mapping key", "? {a: 1}\n: c\n", ("yaml-syntax", 1, 3)),
        ("explicit int tag", "a: !!int 12\n", None), ("explicit str tag", "a: !!str 12\n", None),
        ("bad int tag", "a: !!int 12x\n", ("yaml-bad-value", 1, 4)),
        ("bad bool tag", "a: !!bool maybe\n", ("yaml-bad-value", 1, 4)),
        ("local tag", "a: !foo bar\n", ("yaml-bad-value", 1, 4)),
        ("non-specific tag", "a: ! 12\n", None),
        ("sequence tag", "a: !!seq [1]\n", None), ("set", "a: !!set {x, y}\n", None),
        ("binary", "a: !!binary aGk=\n", None),
        ("python tag", "a: !!python/object:os.system x\n", ("yaml-bad-value", 1, 4)),
        ("deep flow, at the limit", deep_ok, None),
        ("deep flow, over", deep_bad, (too_deep, 1, 67)),
        ("deep flow, over, empty", "a: " + "[" * 64 + "]" * 64 + "\n", (too_deep, 1, 67)),
        ("deep flow, over, tagged", "a: " + "[" * 63 + "!!seq []" + "]" * 63 + "\n",
         (too_deep, 1, 67)),
        ("deep block, at the limit", block_deep, None),
        ("deep block, over", block_deep_bad, (too_deep, 65, 129)),
        ("depth through aliases, at the limit",
         f"a: &n {nested}\nb: {'[' * (MAX_DEPTH - 42)}*n{']' * (MAX_DEPTH - 42)}\n", None),
        ("depth through aliases, over",
         f"a: &n {nested}\nb: {'[' * (MAX_DEPTH - 40)}*n{']' * (MAX_DEPTH - 40)}\n",
         (too_deep, 1, 47)),
        ("alias bomb", _bomb(8) + "cards: *i\nterms: *i\n", ("yaml-too-large", 1, 11)),
        ("small alias bomb", _bomb(4), None),
        ("string at the limit", "a: " + "x" * MAX_STRING_CHARS + "\n", None),
        ("string over the limit", "a: " + "x" * (MAX_STRING_CHARS + 1) + "\n",
         ("string-too-long", 1, 4)),
        ("quoted string over the limit", "a: '" + "x" * (MAX_STRING_CHARS + 1) + "'\n",
         ("string-too-long", 1, 4)),
        ("key over libyaml's limit", "y" * (MAX_STRING_CHARS + 1) + ": 1\n",
         ("yaml-syntax", 1, MAX_STRING_CHARS + 2)),
        ("quoted key over the limit", "? '" + "y" * (MAX_STRING_CHARS + 1) + "'\n: 1\n",
         ("string-too-long", 1, 3)),
        ("largest integer", f"a: {MAX_INTEGER}\nb: -{MAX_INTEGER}\n", None),
        ("integer too large", f"a: {MAX_INTEGER + 1}\n", ("number-too-large", 1, 4)),
        ("integer of 4301 digits", "a: " + "9" * 4301 + "\n", ("number-too-large", 1, 4)),
        ("infinite", "a: .inf\n", ("number-not-finite", 1, 4)),
        ("not a number", "a: .nan\n", ("number-not-finite", 1, 4)),
        ("overflowing float", "a: 1.0e+400\n", ("number-not-finite", 1, 4)),
        ("float without an exponent sign", "a: 1.0e400\n", None),
        ("bad date", "a: 2024-02-30\n", ("yaml-bad-value", 1, 4)),
        ("good date", "a: 2024-02-29\n", None),
        ("CRLF", "a: 1\r\nb:\r\n  - x\r\n  - y\r\n", None), ("BOM", "\ufeffa: 1\n", None),
        ("astral text", "a: 😀 b\n😀: [é, 中文]\n", None),
        ("syntax error", "a: [1, 2\n", ("yaml-syntax", 2, 1)),
        ("bad indentation", "a:\n  b: 1\n c: 2\n", ("yaml-syntax", 3, 2)),
        ("tab indentation", "a:\n\tb: 1\n", ("yaml-tab", 2, 1)),
        ("control character", "a: \x01\n", ("yaml-control-character", 1, 4)),
        ("garbage after the document", "a: 1\n...\n]\n", ("yaml-syntax", 3, 1)),
        # what composing finds comes first, wherever the walk would have stopped
        ("a bad document", ".inf\n", ("number-not-finite", 1, 1)),
        ("a bad key", "{.inf: 1}\n", ("number-not-finite", 1, 2)),
        ("bad value, then a syntax error", "a: .inf\nb: [\n", ("yaml-syntax", 3, 1)),
        ("bad value, then an undefined alias", "a: .inf\nb: *nowhere\n", ("yaml-syntax", 2, 4)),
        ("bad value, then a recursive alias", "a: .inf\nb: &r [*r]\n",
         ("yaml-recursive-alias", 2, 8)),
        ("bad value, then a duplicate anchor", "a: &d .5\nb: .inf\nc: &d 1\n",
         ("yaml-syntax", 3, 4)),
        ("bad value, then a second document", "a: .inf\n---\nb: 1\n", ("yaml-syntax", 2, 1)),
        ("bad value, then too deep", "a: .inf\nb: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n",
         (too_deep, 2, 67)),
        ("bad value, then a merge key", "a: .inf\n<<: {b: 1}\n", ("number-not-finite", 1, 4)),
        ("bad value, then a merge key above", "x:\n  a: .inf\n<<: {b: 1}\n",
         ("number-not-finite", 2, 6)),
        ("bad value, then an alias bomb", "z: .inf\n" + _bomb(8) + "c: *i\n",
         ("number-not-finite", 1, 4)),
        ("an alias bomb, then a bad value", _bomb(5) + "c: *f\nz: .inf\n",
         ("yaml-too-large", 1, 32)),
        ("an anchored bad value", "a: &x .inf\n", ("number-not-finite", 1, 4)),
        ("duplicate key, then a complex key", "a: 1\na: 2\n? [x]\n: 3\n",
         ("duplicate-key", 2, 1)),
        ("duplicate key, then tags", "a: 1\na: 2\nb: !!binary aGk=\nc: !foo x\n",
         ("duplicate-key", 2, 1)),
        ("long multi-line text", "a: >\n" + "  word word word\n" * 2000,
         ("string-too-long", 1, 4)),
    ]


@pytest.mark.parametrize(("name", "text", "expected"), _corner_cases(),
                         ids=[case[0] for case in _corner_cases()])
def test_corner_cases(name: str, text: str, expected: tuple[str, int, int] | None):
    document, findings = load(text)
    if expected is not None:
        assert [(f.code, f.location.line, f.location.column) for f in findings] == [expected]
        return
    assert findings == [] and document is not None, findings
    if name == "set":  # a tag on a collection is not read: a mapping of nulls
        assert document.data == {"a": {"x": None, "y": None}}
    else:
        assert typed(document.data) == typed(pyyaml_reads(text))


def test_a_mapping_merged_then_aliased_keeps_its_own_keys():
    """PyYAML rewrites a mapping when it merges into it; walked again through an alias, the
    mapping's own key that overrides a merged one was taken for a key written twice."""
    text = "base: &b {x: 1}\nd: &d {<<: *b, x: 2}\ne: *d\n"
    document, findings = load(text)
    assert findings == [] and document is not None
    assert document.data == yaml.safe_load(text) == {"base": {"x": 1}, "d": {"x": 2},
                                                      "e": {"x": 2}}
    assert document.where(("e", "x")) == document.where(("d", "x"))  # the own x, line 2


def test_tags_are_read_by_pyyaml():
    document, _ = load("a: !!binary aGk=\nb: !!timestamp 2001-12-14\nc: !!float 1\n")
    assert document is not None and document.data == {
        "a": b"hi", "b": datetime.date(2001, 12, 14), "c": 1.0}


def test_the_alias_limit_is_exact():
    """Aliases may add exactly MAX_ALIAS_VALUES values beyond those written, not one more: an
    alias of the 1,000-item list adds 1,000 (its 1,001 values, less the one alias written), an
    alias of the 1-item list adds 1."""
    for extra in (0, 1):
        text = ("a: &a [" + ", ".join(["1"] * 1_000) + "]\ns: &s [1]\n"
                "b: [" + ", ".join(["*a"] * (MAX_ALIAS_VALUES // 1_000)
                                   + ["*s"] * (3 + extra)) + "]\n")
        _document, findings = load(text)
        assert [(f.code, f.location.line) for f in findings] \
            == ([("yaml-too-large", 2)] if extra else [])


def test_the_value_limit_is_exact(monkeypatch):
    """A file may hold MAX_VALUES values as written (keys, values and aliases), not one more;
    the limit is lowered for the test. Aliases are not composed into nodes of their own, yet
    they count."""
    monkeypatch.setattr(yamlsource, "MAX_VALUES", 10)
    for extra in (0, 1):
        # the root, 3 keys, [1, 2] and its items, the alias, the last list and its 1 or 2 items
        text = "a: &x [1, 2]\nb: *x\nc: [" + ", ".join(["3"] * (1 + extra)) + "]\n"
        _document, findings = load(text)
        assert [(f.code, f.location.line, f.location.column) for f in findings] \
            == ([("yaml-too-large", 3, 8)] if extra else [])
    for aliases in (5, 6):  # 5 nodes and 5 aliases are 10 values; the 6th alias is one more
        text = "a: &x 1\nb: [" + ", ".join(["*x"] * aliases) + "]\n"
        _document, findings = load(text)
        assert [(f.code, f.location.line, f.location.column) for f in findings] \
            == ([("yaml-too-large", 2, 25)] if aliases == 6 else []), aliases


# --- the other ways of composing ---------------------------------------------------------------

@pytest.mark.parametrize("loader", ["_PythonLoader", "_CLoader"])
def test_every_way_of_composing_reads_alike(monkeypatch, loader: str):
    """PyYAML built without libyaml composes in Python, and a libyaml that does not bound the
    nesting itself is composed counting the depth: the same data, positions and findings as
    the loader this machine uses. The Python parser words a syntax error its own way, and
    places an empty key of a flow mapping one column before libyaml."""
    texts = [path.read_text(encoding="utf-8") for path in repository_yaml()]
    texts += [text for _name, text, _expected in _corner_cases() if len(text) < 20_000]
    expected_answers = [answer(text) for text in texts]
    monkeypatch.setattr(yamlsource, "_Loader", getattr(yamlsource, loader))
    python = loader == "_PythonLoader"
    for text, expected in zip(texts, expected_answers, strict=True):
        found = answer(text)
        if python and text == "{? : 1}\n":
            assert found[:2] == expected[:2] and found[2] == [(("None",), 1, 3)]
        elif python and expected[0] is None and expected[1][0][0] == "yaml-syntax":
            assert [(code, line, column) for code, _words, line, column in found[1]] \
                == [(code, line, column) for code, _words, line, column in expected[1]], text
        else:
            assert found == expected, text[:200]


@pytest.mark.parametrize("loader", ["_PythonLoader", "_CLoader", "_Loader"])
def test_deep_nesting_is_refused_by_every_way_of_composing(monkeypatch, loader: str):
    """Five hundred levels (libyaml refuses a thousand itself): the first one too many is
    where the finding is, whoever counts."""
    monkeypatch.setattr(yamlsource, "_Loader", getattr(yamlsource, loader))
    _document, findings = load("cards: " + "[" * 500 + "]" * 500 + "\n")
    assert [(f.code, f.location.line, f.location.column) for f in findings] \
        == [("yaml-too-deep", 1, 8 + MAX_DEPTH - 1)]


@pytest.mark.parametrize(("text", "line", "column"), [
    ("cards: " + "[" * 40_000 + "]" * 40_000 + "\n", 1, 8 + MAX_DEPTH - 1),
    ("cards: " + "{a: " * 5_000 + "1" + "}" * 5_000 + "\n", 1, 8 + 4 * (MAX_DEPTH - 1)),
    ("cards:\n" + "".join("  " * i + "- \n" for i in range(1, 2_000)), MAX_DEPTH + 1,
     2 * MAX_DEPTH + 1),
])
def test_deep_nesting_stops_the_pure_python_composer_at_the_limit(monkeypatch, text: str,
                                                                   line: int, column: int):
    """PyYAML's Python composer recurses once per level, and its parser has no depth limit of
    its own (libyaml stops at 1,000 levels): composing stops at the first level too many (the
    root mapping is the first level)."""
    monkeypatch.setattr(yamlsource, "_Loader", yamlsource._PythonLoader)
    _document, findings = load(text)
    assert [(f.code, f.location.line, f.location.column) for f in findings] \
        == [("yaml-too-deep", line, column)]


# --- seeded mutations ---------------------------------------------------------------------------

#: a scalar after "key: ", "- " or inside a flow collection (not a nested "key: value")
_INLINE = re.compile(r"(?:(?<=: )|(?<=- )|(?<=[\[{,] ))(?=[^\s#&*!|>\[\]{},])"
                     r"((?:(?! #)(?!: )[^\n,\[\]{}])+?)(?= *(?:$| #|[,\]}]))", re.MULTILINE)
#: a block mapping key at the start of a line (after the "- " of a sequence item)
_KEY = re.compile(r"^ *(?:- )?([^\s#:\-\[\]{}&*!|>'\"][^:\n#]*?):(?: |$)", re.MULTILINE)
#: where a value starts: after "key: " or "- ", or at the end of "key:" before a block
_VALUE_START = re.compile(r"(?:(?<=: )|(?<=- ))(?=[^\s#])|(?<=:)$", re.MULTILINE)
TAGS = ["!!int ", "!!str ", "!!float ", "!!bool ", "!!null ", "!foo ", "! ", "!!map ", "!!seq ",
        "!!timestamp ", "!!binary "]
FLOW = ["[]", "{}", "[1, two, 3.0]", "{k: v, n: ~}", "[*a]", "[&a x, *a]", "{a: [b, {c: d}]}",
        "[[[[x]]]]", "{? a : b}", "[yes, 0x1F, 1_000, .5, 2001-12-14]", "{1: a, 1.0: b}"]


def _window(text: str, rng: random.Random) -> str:
    """A run of lines of a long file, dedented to its first line and ended where a line is
    indented less: small inputs keep thousands of cases quick, and a window is a new shape."""
    lines = text.splitlines(keepends=True)
    if len(lines) <= 60:
        return text
    start = rng.randrange(len(lines))
    indent = len(lines[start]) - len(lines[start].lstrip(" "))
    window = []
    for line in lines[start:start + rng.randint(5, 60)]:
        if line.strip() and not line.lstrip().startswith("#") \
                and len(line) - len(line.lstrip(" ")) < indent:
            break
        window.append(line[indent:] if line[:indent].strip() == "" else line)
    return "".join(window)


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    """Where ``pattern`` (its group 1, if any) matches outside comment lines."""
    spans = []
    for match in pattern.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        if not text[line_start:match.start()].lstrip().startswith("#"):
            spans.append(match.span(1) if match.groups() else match.span())
    return spans


def _replace(text: str, span: tuple[int, int], piece: str) -> str:
    return text[:span[0]] + piece + text[span[1]:]


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) or [""]


def _mutation(text: str, rng: random.Random) -> str:
    """One YAML-aware edit: scalars of other types, anchors and aliases, tags, merge keys,
    duplicated lines and keys, indentation, document markers, flow collections..."""
    inline = _spans(_INLINE, text) or [(len(text), len(text))]
    starts = _spans(_VALUE_START, text) or [(0, 0)]
    keys = _spans(_KEY, text) or inline
    choice = rng.randrange(14)
    if choice <= 2:  # a value or a key replaced by another implicit form
        span = rng.choice(keys if rng.random() < 0.3 else inline)
        return _replace(text, span, rng.choice(PLAIN_FORMS))
    if choice <= 4:  # an anchor on some value, its alias in place of a later (or any) value
        name = rng.choice(["a", "b", "id001"])
        alias = rng.choice(inline)
        before = [start for start, _ in starts if start < alias[0]]
        anchor = rng.choice(before) if before and rng.random() < 0.85 else rng.choice(starts)[0]
        if anchor >= alias[1]:
            text = text[:anchor] + f"&{name} " + text[anchor:]
            return _replace(text, alias, f"*{name}")
        text = _replace(text, alias, f"*{name}")
        return text[:anchor] + f"&{name} " + text[anchor:]
    if choice == 5:  # a tag on a value or a key
        at = rng.choice(keys if rng.random() < 0.2 else starts)[0]
        return text[:at] + rng.choice(TAGS) + text[at:]
    if choice == 6:  # a line said twice (a duplicate key) or dropped
        lines = _lines(text)
        index = rng.randrange(len(lines))
        if rng.random() < 0.7:
            lines.insert(index, lines[index])
        else:
            del lines[index]
        return "".join(lines)
    if choice == 7:  # a merge key beside some key, merging an anchored mapping or a literal
        key = rng.choice(keys)
        line_start = text.rfind("\n", 0, key[0]) + 1
        indent = " " * (key[0] - line_start)
        merged = rng.choice(["*m", "[*m, *m]", "{m: 1}", "1", "*m"])
        text = text[:line_start] + f"{indent}<<: {merged}\n" + text[line_start:]
        return "_merged: &m {m: 1, id: merged}\n" + text if rng.random() < 0.8 else text
    if choice == 8:  # indentation shifted on one line
        lines = _lines(text)
        index = rng.randrange(len(lines))
        lines[index] = (" " * rng.choice([1, 2, 4]) + lines[index]) if rng.random() < 0.5 \
            else lines[index][rng.choice([1, 2]):]
        return "".join(lines)
    if choice == 9:  # a document marker or a comment (mostly where a top-level line starts)
        lines = _lines(text)
        tops = [i for i, line in enumerate(lines) if not line.startswith(" ")]
        index = rng.choice(tops) if tops and rng.random() < 0.8 else rng.randrange(len(lines))
        lines.insert(index, rng.choice(["---\n", "...\n", "# note\n", "--- # c\n",
                                        "%YAML 1.1\n"]))
        return "".join(lines)
    if choice == 10:  # a flow collection in place of a value
        return _replace(text, rng.choice(inline), rng.choice(FLOW))
    if choice == 11:  # a long text, at or over the limit
        piece = rng.choice(["w" * MAX_STRING_CHARS, "w" * (MAX_STRING_CHARS + 1),
                            "'" + "q" * (MAX_STRING_CHARS + 1) + "'", "'" + "q" * 900 + "'"])
        return _replace(text, rng.choice(inline), piece)
    if choice == 12:  # quotes added or taken away
        span = rng.choice(inline)
        body = text[span[0]:span[1]]
        quote = rng.choice(["'", '"'])
        body = body.strip("'\"") if body[:1] in "'\"" else quote + body.replace(quote, "") \
            + (quote if rng.random() < 0.9 else "")
        return _replace(text, span, body)
    at = rng.choice(starts + inline)[0]
    return text[:at] + rng.choice(fuzzing.SNIPPETS) + text[at:]


def _mutate(source: str, rng: random.Random) -> str:
    text = _window(source, rng)
    if rng.random() < 0.08:  # fuzzing.py's blind byte edits
        return fuzzing.mutate_bytes(text.encode(), rng).decode("utf-8", "replace")
    for _ in range(rng.choice([1, 1, 1, 1, 2, 3])):
        text = _mutation(text, rng)
    return text


def mutation_cases(count: int, seed: int) -> list[tuple[int, str]]:
    """(number, text) of each case; case N is the same text on every run (seed * 1,000,003 + N
    seeds it), so a failure names a case that can be replayed alone. Sources that load are
    picked more often than broken ones: a syntax error ends most mutations of those."""
    sources = [path.read_text(encoding="utf-8") for path in repository_yaml()]
    sources += [snippet for snippet in test_snippets() if len(snippet) > 40]
    loading = [text for text in sources if load(text)[0] is not None]
    made = []
    for number in range(count):
        rng = random.Random(seed * 1_000_003 + number)
        source = rng.choice(loading if rng.random() < 0.75 else sources)
        made.append((number, _mutate(source, rng)))
    return made


#: what pnp refuses that PyYAML reads: pnp's limits, a key said twice, values it does not read
#: (NaN...), an alias inside what it names, tabs and control characters (looked for first), an
#: empty file
_PNP_REFUSALS = {"duplicate-key", "yaml-bad-value", "string-too-long", "number-too-large",
                 "number-not-finite", "yaml-too-deep", "yaml-too-large",
                 "yaml-recursive-alias", "yaml-tab", "yaml-control-character", "empty-file"}


def test_seeded_mutations_read_as_pyyaml_reads_them():
    """Mutated texts: where pnp gives data it is PyYAML's (libyaml's parser, keys as text);
    where PyYAML cannot parse or compose a text, pnp refuses it too; each finding is located
    in the text; a good share of both outcomes."""
    outcomes: Counter[str] = Counter()
    for number, text in mutation_cases(MUTATION_CASES, MUTATION_SEED):
        case = f"mutation case {number}"
        document, findings = load(text)
        try:
            read, refused = pyyaml_reads(text), None
        except yaml.constructor.ConstructorError as exc:
            read, refused = None, exc  # a tag PyYAML cannot build (pnp reads no collection tag)
        except yaml.YAMLError as exc:
            assert document is None, f"{case}: PyYAML refuses what pnp reads: {exc}"
            read, refused = None, exc
        except (ValueError, TypeError, KeyError, AttributeError, OverflowError):
            read, refused = None, True  # a scalar PyYAML's constructor cannot read
        if document is not None:
            if refused is None and not _holds_a_set(read):
                assert typed(document.data) == typed(read), case
            outcomes["data"] += 1
            continue
        (finding,) = findings
        lines = text.splitlines() or [""]
        assert 1 <= finding.location.line <= len(lines) + 1, case
        if refused is None:
            assert finding.code in _PNP_REFUSALS, f"{case}: {finding}"
        outcomes[finding.code] += 1
    assert outcomes["data"] > MUTATION_CASES * 0.2, outcomes
    for code in ("yaml-syntax", "duplicate-key", "yaml-bad-value", "number-too-large",
                 "number-not-finite"):
        assert outcomes[code] > 5, outcomes


def _holds_a_set(value: object) -> bool:
    if isinstance(value, set):
        return True
    if isinstance(value, dict):
        return any(_holds_a_set(item) for item in value.values())
    if isinstance(value, list):
        return any(_holds_a_set(item) for item in value)
    return False
