"""pnp's one CEL engine (generator.rules.cel on cel-expr-python) and what it reads of a rule's tree
(generator.rules.celtree): the answers it gives, the cost it refuses, the functions and names it
takes, each through the wrapper and through ``pnp validate`` on a data game."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, run_pnp

from generator.rules.cel import (
    MAX_COST,
    CelProblem,
    compile_expression,
    describe_error,
    first_macro,
    is_error,
    plain_truthy,
    reads,
    type_clash,
    unknown_functions,
)
from generator.rules.celtree import compared_literals, estimate_cost, text_of

CORPUS = ROOT / "bench" / "cel_corpus.json.gz"
#: recorded from cel-python patched as pnp used it: an unbound ``h`` (a sub-expression of a
#: failed rule, tried alone) gave a value there, an error in every unpatched library
UNBOUND = {"cards.filter(c, c.kind == 'creature' && c.habitat == h).size()",
           "cards.filter(c, c.kind == 'creature' && c.habitat == h).size() >= 6",
           "deck.filter(e, e.card.kind == 'creature' && e.card.habitat == h).size()",
           "deck.filter(e, e.card.kind == 'creature' && e.card.habitat == h).size() >= 5"}
RUNAWAYS = ["cards.map(a, cards.map(b, cards.map(c, cards))).size() > 0",
            "cards.map(a, cards.map(b, cards + cards)).size() > 0",
            "[cards, cards, cards, cards].map(l, l.map(a, l.map(b, [a, b]))).size() > 0",
            "cards.map(a, cards).map(b, b.map(c, cards)).size() > 0"]


def test_every_evaluation_pnp_makes_gives_cel_pythons_answer() -> None:
    """The corpus of bench/cel_engines.py: every evaluation validate and build make over the
    shipped packs, the starter game and tests/fixtures, with cel-python's recorded answer."""
    with gzip.open(CORPUS, "rt", encoding="utf-8") as handle:
        corpus = json.load(handle)
    differing = []
    for record in corpus:
        value = compile_expression(record["cel"]).evaluate(record["activation"])
        expected = record["result"]
        same = is_error(value) if "error" in expected else (
            not is_error(value) and type(value) is type(expected["value"])
            and value == expected["value"])
        if not same:
            differing.append(record["cel"])
    assert len(corpus) > 1000
    assert set(differing) == UNBOUND


def test_has_guards_a_missing_field_and_bare_names_read_fields() -> None:
    check = plain_truthy("has(self.art) && self.art != ''")
    assert not check({"self": {}})
    assert check({"self": {"art": "x.png"}})
    # a field named as a Python keyword is an ordinary bare name in CEL
    assert plain_truthy("class == 'freighter'")({"class": "freighter", "self": {}})


def test_a_reserved_word_is_refused_in_cels_terms() -> None:
    with pytest.raises(CelProblem) as refused:
        compile_expression("if == 'x'")
    assert refused.value.code == "rule-syntax"
    assert "reserved identifier: if" in refused.value.message
    assert "self.if" in refused.value.message
    assert "invalid syntax" not in refused.value.message
    assert plain_truthy("self.if == 'x'")({"self": {"if": "x"}})
    # in, true, false and null are CEL's syntax: even self.in is not read; self['in'] is
    with pytest.raises(CelProblem) as refused:
        compile_expression("in == 'x'")
    assert "self['in']" in refused.value.message
    assert plain_truthy("self['in'] == 'x'")({"self": {"in": "x"}})


def test_a_syntax_error_gives_its_column_in_plain_words() -> None:
    with pytest.raises(CelProblem) as refused:
        compile_expression("self.cost >= ")
    assert refused.value.message == ("CEL syntax error at character 14: the expression ends "
                                     "where more is expected")


@pytest.mark.parametrize(("text", "expected"), [
    ("sum(deck.map(e, e.count))", 5),
    ("deck.map(e, e.count).sum()", 5),
    ("sum([1.5, 2.5])", 4.0),
    ("sum([])", 0),
])
def test_sum_adds_numbers(text: str, expected: object) -> None:
    value = compile_expression(text).evaluate({"deck": [{"count": 2}, {"count": 3}]})
    assert value == expected and type(value) is type(expected)


def test_the_documented_copy_count_works() -> None:
    """docs/format.md's deck rule: two hero cards, in one entry or two."""
    rule = compile_expression("sum(deck.filter(e, e.card.kind == 'hero').map(e, e.count)) >= 2")
    hero, spell = {"kind": "hero"}, {"kind": "spell"}
    assert rule.evaluate({"deck": [{"card": hero, "count": 2}, {"card": spell, "count": 1}]})
    assert rule.evaluate({"deck": [{"card": hero, "count": 1}] * 2}) is True
    assert rule.evaluate({"deck": [{"card": hero, "count": 1}, {"card": spell, "count": 3}]}) \
        is False


@pytest.mark.parametrize(("text", "words"), [
    ("sum(['a'])", "a list of numbers"),
    ("sum([1, 2.0])", "CEL does not mix them"),
    ("sum([9223372036854775807, 1])", "overflows"),
])
def test_sum_refuses_what_cel_would(text: str, words: str) -> None:
    value = compile_expression(text).evaluate({})
    assert is_error(value) and words in describe_error(value)


def test_an_unknown_function_is_named_with_a_suggestion() -> None:
    assert unknown_functions(compile_expression("summ(deck.map(e, e.count)) > 3")) == [
        "unknown function 'summ'; did you mean 'sum'?"]
    assert unknown_functions(compile_expression("deck.map(e, e.count).summ() > 3")) == [
        "unknown function 'summ'; did you mean 'sum'?"]
    assert unknown_functions(compile_expression("size(self.name) < 3 && sum([1]) > 0")) == []


def test_the_tree_says_what_a_rule_reads() -> None:
    expression = compile_expression(
        "cards.filter(c, c.kind == 'legnd' && 'fire' in c.tags).size() <= cost + self.power")
    facts = reads(expression)
    assert facts.names == {"cards", "cost", "self"}
    assert facts.fields == {("c", "kind"), ("c", "tags"), ("self", "power")}
    assert facts.ranges == {"c": "cards"}
    assert facts.functions == {"size"}
    assert compared_literals(expression.tree) == [("c", "kind", "legnd")]
    method, variable, predicate = first_macro(expression, ["cards"])
    assert (method, variable, predicate.text) == (
        "filter", "c", "c.kind == 'legnd' && 'fire' in c.tags")
    assert predicate.evaluate({"c": {"kind": "legnd", "tags": ["fire"]}}) is True
    assert text_of(compile_expression("(a + b) * c - -d").tree) == "(a + b) * c - -d"


def test_a_type_clash_names_the_operation() -> None:
    expression = compile_expression("self.cost + 'x' > 2 || self.cost > 0")
    assert type_clash(expression, {"self": {"cost": 1}}) == (
        "self.cost is int and 'x' is string: '+' cannot combine them")


@pytest.mark.parametrize("text", RUNAWAYS)
def test_runaway_rules_are_over_the_cost_limit(text: str) -> None:
    """Nesting over any list-valued operand counts, not only over the bare name ``cards``."""
    tree = compile_expression(text).tree
    assert estimate_cost(tree, {"cards": 160}) > MAX_COST
    assert estimate_cost(tree, {"cards": 5}) < MAX_COST
    assert estimate_cost(compile_expression(
        "cards.filter(c, c.kind == 'legend').size() <= 4").tree, {"cards": 10_000}) < MAX_COST


# --- through pnp validate --------------------------------------------------------------------

EXTRA_RULES = """\
  - code: runaway-{index}
    scope: set
    check: "{text}"
    message: never fits
"""
DECK_RULES = """\
    - code: enough-copies
      check: "sum(deck.map(e, e.count)) >= 5"
      message: a deck holds at least 5 cards
    - code: copies-as-method
      check: "deck.map(e, e.count).sum() >= 5"
      message: a deck holds at least 5 cards
    - code: misspelled-sum
      check: "summ(deck.map(e, e.count)) >= 5"
      message: never checked
"""


@pytest.fixture(scope="module")
def costly(tmp_path_factory) -> tuple[Path, dict]:
    """The data game with 160 more creatures, four runaway set rules, a duplicate check that
    CEL's own iteration budget stops, deck rules counting copies and a field named class."""
    pack = tmp_path_factory.mktemp("cel") / "datagame"
    shutil.copytree(ROOT / "tests" / "fixtures" / "datagame", pack)
    game = (pack / "game.yaml").read_text(encoding="utf-8")
    game = game.replace("        tags: {type: array, items: {type: string}}\n",
                        "        tags: {type: array, items: {type: string}}\n"
                        "        class: {type: string}\n")
    extra = "".join(EXTRA_RULES.format(index=i, text=t) for i, t in enumerate(RUNAWAYS))
    extra += EXTRA_RULES.format(index="budget",
                                text="cards.all(c, cards.exists_one(d, d.id == c.id))")
    # literal lists ranged over: the estimate lets 300 x 300 run, the sample trial meets
    # CEL's budget before any card is checked (it was reported as rule-wrong-type)
    literal = "[" + ", ".join(["1"] * 300) + "]"
    extra += EXTRA_RULES.format(index="literal",
                                text=f"{literal}.map(x, {literal}.map(y, 1)).size() > 0")
    extra += ("  - code: no-freighters\n    kind: creature\n"
              "    check: \"!has(self.class) || class != 'freighter'\"\n"
              "    message: no freighters\n")
    game = game.replace("deck:\n", extra + "deck:\n").rstrip("\n") + "\n" + DECK_RULES
    (pack / "game.yaml").write_text(game, encoding="utf-8")
    lines = ["cards:"] + [f"  - {{id: extra-{i}, kind: creature, name: Extra {i}, cost: 4, "
                          f"power: 1, toughness: 1}}" for i in range(160)]
    lines.append("  - {id: hauler, kind: creature, name: Hauler, cost: 4, power: 1, "
                 "toughness: 1, class: freighter}")
    (pack / "more.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_pnp("validate", str(pack), "--deck", "decks/starter.yaml", "--format", "json",
                     cwd=pack)
    assert "Traceback" not in result.stderr
    assert result.returncode == 1, result.stdout + result.stderr
    return pack, json.loads(result.stdout)


def _line_of(pack: Path, words: str) -> int:
    lines = (pack / "game.yaml").read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, start=1) if words in line) + 1


def test_runaway_rules_end_with_their_own_finding_at_their_check(costly) -> None:
    pack, report = costly
    found = {(f["code"], f["line"], f["column"], "would take about" in f["message"])
             for f in report["findings"]}
    for index, _ in enumerate(RUNAWAYS):  # refused on the estimate, before running
        line = _line_of(pack, f"code: runaway-{index}") + 1
        assert ("rule-too-costly", line, 12, True) in found
    messages = [f["message"] for f in report["findings"] if f["code"] == "rule-too-costly"]
    assert any("over 165 cards" in m and "the limit is 2,000,000" in m for m in messages)


def test_cels_own_budget_stops_what_the_estimate_lets_run(costly) -> None:
    pack, report = costly
    budget = [f for f in report["findings"]
              if f["line"] == _line_of(pack, "code: runaway-budget") + 1]
    assert [f["code"] for f in budget] == ["rule-too-costly"]
    assert "more than 10,000 iterations" in budget[0]["message"]
    literal = [f for f in report["findings"]
               if f["line"] == _line_of(pack, "code: runaway-literal") + 1]
    assert [(f["code"], f["column"]) for f in literal] == [("rule-too-costly", 12)]
    assert "more than 10,000 iterations" in literal[0]["message"]


def test_deck_rules_count_copies_with_sum(costly) -> None:
    _, report = costly
    codes = {f["code"]: f for f in report["findings"]}
    # decks/starter.yaml holds 2 + 1 + 1 = 4 copies in 3 entries
    assert codes["enough-copies"]["file"].endswith("starter.yaml")
    assert "copies-as-method" in codes
    unknown = [f for f in report["findings"] if f["code"] == "rule-unknown-field"]
    assert [f["message"] for f in unknown] == [
        "rule 'misspelled-sum': unknown function 'summ'; did you mean 'sum'?"]


def test_a_field_named_class_is_a_bare_name(costly) -> None:
    _, report = costly
    found = [f for f in report["findings"] if f["code"] == "no-freighters"]
    assert [(Path(f["file"]).name, f["card"]) for f in found] == [("more.yaml", "hauler")]
