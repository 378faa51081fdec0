"""The one-pass YAML reader answers exactly as the composing loader, or hands the text over.

Differential: every YAML text below goes through ``load_yaml_text`` twice, once as shipped (the
fast path of generator/load/yamlfast.py, falling back to the composing loader) and once with the
fast path switched off, and the two answers must be equal in every detail: the data with its Python
types and key order, every ``path -> Location`` of values and keys in order, and the findings.
The texts: every YAML file of the repository, the YAML snippets the other tests feed pnp, hand-
written corners of YAML, and a few thousand seeded mutations of them. Each test also counts how
many texts the fast path answered itself, so that it cannot pass by always falling back.
"""

from __future__ import annotations

import ast
import random
import re
from collections import Counter
from pathlib import Path
from unittest import mock

import fuzzing
import pytest
import yaml
from conftest import ROOT

from generator.core.limits import MAX_ALIAS_VALUES, MAX_DEPTH, MAX_INTEGER, MAX_STRING_CHARS
from generator.load import yamlsource
from generator.load.yamlfast import Fallback, FoundProblem, load_fast

#: folders of the repository that hold YAML (build/, output/ and .venv/ are not sources)
YAML_FOLDERS = ("cards", "templates", "generator", "tests", "docs", "bench", "tools")
MUTATION_CASES = 3_000
MUTATION_SEED = 20261122


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


# --- comparing the two loaders ------------------------------------------------------------------

def _fallback(file: str, text: str) -> object:
    raise Fallback


def typed(value: object) -> object:
    """The value with every type spelled out: True is not 1, 1.0 is not 1, order counts."""
    if isinstance(value, dict):
        return ("dict", tuple((typed(k), typed(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(typed(item) for item in value))
    return (type(value).__name__, repr(value))


def answer(file: str, text: str) -> tuple[object, ...]:
    document, findings = yamlsource.load_yaml_text(file, text)
    if document is None:
        return None, findings
    return (document.file, typed(document.data), list(document.values.items()),
            list(document.keys.items()), findings)


def compare(text: str, file: str = "cards/x.yaml") -> str:
    """Asserts both loaders agree on ``text``; says who answered with the shipped code: "data"
    (the fast path read it), "finding" (the fast path named the finding), "slow" (the
    composing loader read it)."""
    outcome = []
    composed = yamlsource.load_composed

    def fast_spy(file: str, text: str) -> object:
        try:
            result = load_fast(file, text)
        except FoundProblem:
            outcome.append("finding")
            raise
        outcome.append("data")
        return result

    def composed_spy(file: str, text: str) -> object:
        outcome.append("slow")
        return composed(file, text)

    with mock.patch.object(yamlsource, "load_fast", fast_spy), \
            mock.patch.object(yamlsource, "load_composed", composed_spy):
        fast = answer(file, text)
    with mock.patch.object(yamlsource, "load_fast", _fallback):
        slow = answer(file, text)
    if fast != slow:
        shown = text if len(text) < 3000 else text[:3000] + "..."
        pytest.fail(f"the fast path differs from the composing loader on:\n{shown}\n"
                    f"fast: {str(fast)[:2000]}\nslow: {str(slow)[:2000]}")
    return outcome[-1] if outcome else "checks"  # the character checks stop both alike


# --- the repository's own YAML ----------------------------------------------------------------

def test_every_yaml_file_of_the_repository_loads_the_same():
    files = repository_yaml()
    assert len(files) > 80
    outcomes = Counter(compare(path.read_text(encoding="utf-8"),
                               path.relative_to(ROOT).as_posix()) for path in files)
    assert outcomes["data"] > 70, outcomes  # merge keys (commander templates) fall back
    assert outcomes["finding"] > 0  # the broken fixtures, the starter's placeholders


def test_yaml_written_by_the_other_tests_loads_the_same():
    snippets = test_snippets()
    assert len(snippets) > 100
    outcomes = Counter(compare(snippet) for snippet in snippets)
    assert outcomes["data"] > 50 and outcomes["finding"] > 10 and outcomes["slow"] > 0, outcomes


def test_shipped_card_files_take_the_fast_path():
    """No card file, manifest, deck or glossary of the shipped packs needs the slow path."""
    files = [path for path in sorted((ROOT / "cards").rglob("*.yaml"))
             if "templates" not in path.parts]
    assert len(files) > 20
    for path in files:
        load_fast(path.as_posix(), path.read_text(encoding="utf-8"))  # raises Fallback if not


def test_a_card_file_written_by_pyyaml_loads_the_same():
    """PyYAML writes lists shared between cards once, anchored (&id001), and aliases them after
    (bench/scaling.py writes its 10,000 ships so): the fast path reads them itself."""
    profiles = yaml.safe_load((ROOT / "cards" / "cwnb" / "ships.yaml").read_text("utf-8"))
    cards = []
    for number in range(300):
        card = dict(profiles["cards"][number % len(profiles["cards"])])
        card["id"] = f"{card['id']}-{number}"
        cards.append(card)
    text = yaml.safe_dump({"cards": cards}, allow_unicode=True, sort_keys=False)
    assert "&id001" in text and "*id001" in text
    assert compare(text, "ships-00.yaml") == "data"


def test_load_yaml_text_uses_the_fast_path():
    """With the composing loader broken, an ordinary card file still loads: it was not used."""
    path = ROOT / "cards" / "cwnb" / "ships.yaml"
    with mock.patch.object(yamlsource, "_Loader", side_effect=AssertionError("slow path")):
        document, findings = yamlsource.load_yaml_text("ships.yaml", path.read_text("utf-8"))
    assert findings == [] and document is not None
    name = document.where(("cards", 0, "name"))
    assert (name.line, name.column) == (10, 11)  # "    name: USS Nimitz"


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
    "2002-12-14T01:02:03Z", "2001-13-14", "2001-1-4", "20011214", "=", "<<", "-", "a b",
    "5in", "3+3", "1,000", "0.1.2", "1:2:3:4", "x: y", "'", "é", "中文", "1" * 30,
]


def _corner_cases() -> list[tuple[str, str, str | None]]:
    """(name, text, who must answer it: see compare(); None for anyone)."""
    deep_ok = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    deep_bad = "a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    block_deep = "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH - 1)) \
        + "  " * (MAX_DEPTH - 1) + "leaf: 1\n"
    block_deep_bad = "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH)) \
        + "  " * MAX_DEPTH + "leaf: 1\n"
    nested = "[" * 40 + "1" + "]" * 40
    bomb = ["a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        bomb.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    small_bomb = "\n".join(bomb[:5]) + "\n"  # 9**5 values: under the alias limit
    cases: list[tuple[str, str, str | None]] = [
        ("empty", "", "slow"), ("newline", "\n", "slow"), ("comment only", "# c\n# d\n", "slow"),
        ("document marker only", "---\n", "data"), ("end marker", "--- \n...\n", "data"),
        ("null document", "~\n", "data"), ("scalar document", "hello\n", "data"),
        ("quoted document", "'12'\n", "data"), ("sequence document", "- 1\n- a\n", "data"),
        ("two documents", "a: 1\n---\nb: 2\n", "slow"), ("directive", "%YAML 1.1\n---\na: 1\n",
         "data"),
        ("flow", "{a: [1, 2, {b: c}], \"d\": 'e', f: [], g: {}}\n", "data"),
        ("block scalars", "a: |\n  x\n  y\nb: >\n  folded\n  text\nc: |-\n  z\nd: >+\n  w\n\n",
         "data"),
        ("quoted forms", "a: '12'\nb: \"yes\"\nc: \"\\u00e9\\n\"\nd: 'it''s'\n", "data"),
        ("multi-line plain", "a: one\n  two\n  three\nb: x\n", "data"),
        ("anchors and aliases", "a: &x [1, {b: 2}]\nc: *x\nd: [*x, *x]\n", "data"),
        ("nested anchors", "a: &x {b: &y [1, &z two], c: *y, d: *z}\ne: *x\nf: *y\ng: *z\n",
         "data"),
        ("alias of a scalar", "a: &s hello\nb: *s\nc: [*s, *s]\nd: &n 12\ne: *n\n", "data"),
        ("alias in a sequence of mappings", "- &m {id: 1, tags: &t [a, b]}\n- *m\n- {x: *t}\n",
         "data"),
        ("PyYAML's anchors", "cards:\n- guns: &id001 []\n  more: &id002 {}\n- guns: *id001\n"
         "  more: *id002\n", "data"),
        ("anchored document", "&top {a: 1}\n", "data"),
        ("alias as a key", "a: &k name\n*k : 1\n", "slow"),
        ("anchored key", "&k a: 1\nb: *k\n", "slow"),
        ("alias before its anchor", "a: *x\nb: &x 1\n", "slow"),
        ("recursive alias", "a: &a [*a]\n", "slow"),
        ("recursive mapping alias", "terms: &a {x: *a}\n", "slow"),
        ("duplicate anchor", "a: &x 1\nb: &x 2\nc: *x\n", "slow"),
        ("anchor redefined inside", "a: &x [&x 1]\n", "slow"),
        ("merge key", "base: &b {x: 1, y: 2}\nd: {<<: *b, y: 3}\n", "slow"),
        ("merge list", "a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n  z: 3\n", "slow"),
        ("bad merge", "a: {<<: 1}\n", "slow"), ("merge as a value", "a: <<\n", "finding"),
        ("value key", "=: 1\n", "slow"), ("value scalar", "a: =\n", "finding"),
        ("duplicate key", "a: 1\nb: 2\na: 3\n", "finding"),
        ("duplicate after conversion", "1: a\n'1': b\n", "finding"),
        ("duplicate booleans", "true: 1\nTrue: 2\n", "finding"),
        ("duplicate nested", "a:\n  b: 1\n  b: 2\n", "finding"),
        ("keys of every type", "1: a\n1.5: b\ntrue: c\n~: d\n2001-12-14: e\n0x1F: f\n"
         "2001-12-14 21:59:43.10 -5: g\nno: h\n", "data"),
        ("empty key in flow", "{? : 1}\n", "data"),
        ("explicit key", "? a\n: b\n", "data"), ("complex key", "? [a, b]\n: c\n", "slow"),
        ("mapping key", "? {a: 1}\n: c\n", "slow"),
        ("explicit int tag", "a: !!int 12\n", "slow"), ("explicit str tag", "a: !!str 12\n",
         "slow"),
        ("bad int tag", "a: !!int 12x\n", "slow"), ("bad bool tag", "a: !!bool maybe\n", "slow"),
        ("local tag", "a: !foo bar\n", "slow"), ("non-specific tag", "a: ! 12\n", "slow"),
        ("set", "a: !!set {x, y}\n", "slow"), ("sequence tag", "a: !!seq [1]\n", "slow"),
        ("binary", "a: !!binary aGk=\n", "slow"),
        ("python tag", "a: !!python/object:os.system x\n", "slow"),
        ("deep flow, at the limit", deep_ok, "data"), ("deep flow, over", deep_bad, "slow"),
        ("deep block, at the limit", block_deep, "data"),
        ("deep block, over", block_deep_bad, "slow"),
        ("depth through aliases, at the limit",
         f"a: &n {nested}\nb: {'[' * (MAX_DEPTH - 42)}*n{']' * (MAX_DEPTH - 42)}\n", "data"),
        ("depth through aliases, over",
         f"a: &n {nested}\nb: {'[' * (MAX_DEPTH - 40)}*n{']' * (MAX_DEPTH - 40)}\n", "slow"),
        ("alias bomb", "\n".join(bomb) + "\ncards: *i\nterms: *i\n", "slow"),
        ("small alias bomb", small_bomb, "data"),
        ("string at the limit", "a: " + "x" * MAX_STRING_CHARS + "\n", "data"),
        ("string over the limit", "a: " + "x" * (MAX_STRING_CHARS + 1) + "\n", "finding"),
        ("quoted string over the limit", "a: '" + "x" * (MAX_STRING_CHARS + 1) + "'\n", "finding"),
        ("key over the limit", "y" * (MAX_STRING_CHARS + 1) + ": 1\n", "finding"),
        ("largest integer", f"a: {MAX_INTEGER}\nb: -{MAX_INTEGER}\n", "data"),
        ("integer too large", f"a: {MAX_INTEGER + 1}\n", "finding"),
        ("integer of 4301 digits", "a: " + "9" * 4301 + "\n", "finding"),
        ("infinite", "a: .inf\n", "finding"), ("not a number", "a: .nan\n", "finding"),
        ("overflowing float", "a: 1.0e+400\n", "finding"),
        ("float without an exponent sign", "a: 1.0e400\n", "data"),
        ("bad date", "a: 2024-02-30\n", "finding"), ("good date", "a: 2024-02-29\n", "data"),
        ("CRLF", "a: 1\r\nb:\r\n  - x\r\n  - y\r\n", "data"), ("BOM", "\ufeffa: 1\n", "data"),
        ("astral text", "a: 😀 b\n😀: [é, 中文]\n", "data"),
        ("syntax error", "a: [1, 2\n", "finding"),
        ("bad indentation", "a:\n  b: 1\n c: 2\n", "finding"),
        ("tab indentation", "a:\n\tb: 1\n", "checks"),
        ("control character", "a: \x01\n", "checks"),
        ("garbage after the document", "a: 1\n...\n]\n", "finding"),
        # a finding the fast path names stands only if nothing the slow path checks first,
        # while composing or through merges and aliases, comes after it
        ("a bad document", ".inf\n", "finding"), ("a bad key", "{.inf: 1}\n", "finding"),
        ("bad value, then a syntax error", "a: .inf\nb: [\n", "finding"),
        ("bad value, then an undefined alias", "a: .inf\nb: *nowhere\n", "slow"),
        ("bad value, then a recursive alias", "a: .inf\nb: &r [*r]\n", "slow"),
        ("bad value, then a duplicate anchor", "a: &d .5\nb: .inf\nc: &d 1\n", "slow"),
        ("bad value, then a second document", "a: .inf\n---\nb: 1\n", "slow"),
        ("bad value, then too deep", "a: .inf\nb: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n",
         "slow"),
        ("bad value, then a merge key", "a: .inf\n<<: {b: 1}\n", "slow"),
        ("bad value, then a merge key above", "x:\n  a: .inf\n<<: {b: 1}\n", "slow"),
        ("bad value, then an alias bomb", "z: .inf\n" + "\n".join(bomb) + "\nc: *i\n",
         "finding"),
        # 9**6 values: over the alias allowance, under what the fast path expands at most
        ("an alias bomb, then a bad value", "\n".join(bomb[:6]) + "\nc: *f\nz: .inf\n", "slow"),
        ("an anchored bad value", "a: &x .inf\n", "slow"),
        ("duplicate key, then a complex key", "a: 1\na: 2\n? [x]\n: 3\n", "finding"),
        ("duplicate key, then tags", "a: 1\na: 2\nb: !!binary aGk=\nc: !foo x\n", "finding"),
        ("duplicate key, then nesting", "a: 1\nb: {c: [d, {e: f}]}\na: 2\nc: &q [1]\nd: *q\n",
         "finding"),
        ("long multi-line text", "a: >\n" + "  word word word\n" * 2000, None),
    ]
    for form in PLAIN_FORMS:
        cases.append((f"plain {form!r} as a value", f"a: {form}\nb: [{form}]\n", None))
        cases.append((f"plain {form!r} as a key", f"{form}: 1\n", None))
        cases.append((f"plain {form!r} quoted", f"a: '{form}'\n" if "'" not in form else
                      f'a: "{form}"\n', None))
    return cases


@pytest.mark.parametrize(("name", "text", "expected"), _corner_cases(),
                         ids=[case[0] for case in _corner_cases()])
def test_corner_cases_load_the_same(name: str, text: str, expected: str | None):
    outcome = compare(text)
    assert expected is None or outcome == expected, f"{name}: {outcome}, not {expected}"


def test_plain_scalars_of_every_type_are_read_by_the_fast_path():
    """The fast path answers the valid implicit forms itself (and so is what the test above
    compares); each of YAML 1.1's implicit types appears among them."""
    readable = []
    for form in PLAIN_FORMS:
        try:
            data, _values, _keys = load_fast("x.yaml", f"a: {form}\n")
        except (Fallback, FoundProblem):
            continue
        readable.append(data["a"])  # type: ignore[index]
    kinds = {type(value).__name__ for value in readable}
    assert kinds == {"bool", "NoneType", "int", "float", "date", "datetime", "str"}
    assert len(readable) > 70


def test_an_alias_repeats_a_fresh_copy_at_its_own_path():
    data, values, keys = load_fast("x.yaml", "a: &x {b: [1]}\nc: *x\n")
    assert data == {"a": {"b": [1]}, "c": {"b": [1]}}
    assert data["a"] is not data["c"] and data["a"]["b"] is not data["c"]["b"]  # type: ignore
    assert values[("c", "b", 0)] == values[("a", "b", 0)]
    assert (values[("c",)].line, values[("c",)].column) == (1, 4)  # where the anchor is
    assert keys[("c",)].line == 2 and keys[("c", "b")] == keys[("a", "b")]


def test_the_alias_limit_is_the_slow_paths():
    """Aliases may add exactly MAX_ALIAS_VALUES values beyond those written, not one more: an
    alias of the 1,000-item list adds 1,000 (its 1,001 values, less the one alias written), an
    alias of the 1-item list adds 1."""
    for extra in (0, 1):
        text = ("a: &a [" + ", ".join(["1"] * 1_000) + "]\ns: &s [1]\n"
                "b: [" + ", ".join(["*a"] * (MAX_ALIAS_VALUES // 1_000)
                                   + ["*s"] * (3 + extra)) + "]\n")
        assert compare(text) == ("slow" if extra else "data")
        _document, findings = yamlsource.load_yaml_text("x.yaml", text)
        assert [finding.code for finding in findings] == (["yaml-too-large"] if extra else [])


def test_the_value_limit_is_the_slow_paths(monkeypatch):
    """A file may hold MAX_VALUES values as written (keys, values and aliases), not one more;
    the limit is lowered for the test, in both loaders."""
    monkeypatch.setattr(yamlsource, "MAX_VALUES", 10)
    monkeypatch.setattr("generator.load.yamlfast.MAX_VALUES", 10)
    for extra in (0, 1):
        text = "a: &x [1, 2]\nb: *x\nc: [" + ", ".join(["3"] * (1 + extra)) + "]\n"
        # the root, 3 keys, [1, 2] and its items, the alias, the last list and its 1 or 2 items
        assert compare(text) == ("slow" if extra else "data")
        _document, findings = yamlsource.load_yaml_text("x.yaml", text)
        assert [finding.code for finding in findings] == (["yaml-too-large"] if extra else [])


# --- seeded mutations ---------------------------------------------------------------------------

#: a scalar after "key: ", "- " or inside a flow collection (not a nested "key: value")
_INLINE = re.compile(r"(?:(?<=: )|(?<=- )|(?<=[\[{,] ))(?=[^\s#&*!|>\[\]{},])"
                     r"((?:(?! #)(?!: )[^\n,\[\]{}])+?)(?= *(?:$| #|[,\]}]))", re.MULTILINE)
#: a block mapping key at the start of a line (after the "- " of a sequence item)
_KEY = re.compile(r"^ *(?:- )?([^\s#:\-\[\]{}&*!|>'\"][^:\n#]*?):(?: |$)", re.MULTILINE)
#: where a value starts: after "key: " or "- ", or at the end of "key:" before a block
_VALUE_START = re.compile(r"(?:(?<=: )|(?<=- ))(?=[^\s#])|(?<=:)$", re.MULTILINE)
_LINE_START = re.compile(r"^( *)(?:- )?")
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
    kind = rng.random()
    if kind < 0.08:  # fuzzing.py's blind byte edits
        return fuzzing.mutate_bytes(text.encode(), rng).decode("utf-8", "replace")
    if kind < 0.14:  # fuzzing.py's hostile values, re-dumped by PyYAML (with its anchors)
        return fuzzing.mutate_yaml(text.encode(), rng).decode("utf-8", "replace")
    for _ in range(rng.choice([1, 1, 1, 1, 2, 3])):
        text = _mutation(text, rng)
    return text


def mutation_cases(count: int, seed: int) -> list[tuple[int, str]]:
    """(number, text) of each case; case N is the same text on every run (seed * 1,000,003 + N
    seeds it), so a failure names a case that can be replayed alone. Sources that load are
    picked more often than broken ones: a syntax error ends both loaders alike in libyaml."""
    sources = [path.read_text(encoding="utf-8") for path in repository_yaml()]
    sources += [snippet for snippet in test_snippets() if len(snippet) > 40]
    loading = [text for text in sources if yamlsource.load_yaml_text("x.yaml", text)[0]]
    made = []
    for number in range(count):
        rng = random.Random(seed * 1_000_003 + number)
        source = rng.choice(loading if rng.random() < 0.75 else sources)
        made.append((number, _mutate(source, rng)))
    return made


def test_seeded_mutations_load_the_same():
    """Thousands of mutated texts: the fast path must agree wherever it answers, and it must
    answer a good share of them with data and with findings of each kind it names (and hand a
    good share over) for the test to mean anything."""
    outcomes: Counter[str] = Counter()
    for number, text in mutation_cases(MUTATION_CASES, MUTATION_SEED):
        try:
            outcome = compare(text)
        except pytest.fail.Exception as failed:
            raise AssertionError(f"mutation case {number}: {failed}") from None
        outcomes[outcome] += 1
        if outcome == "finding":
            outcomes[yamlsource.load_yaml_text("x.yaml", text)[1][0].code] += 1
    for outcome in ("data", "finding", "slow"):
        assert outcomes[outcome] > MUTATION_CASES * 0.1, outcomes
    for code in ("yaml-syntax", "duplicate-key", "yaml-bad-value", "string-too-long",
                 "number-too-large", "number-not-finite"):
        assert outcomes[code] > 10, outcomes
