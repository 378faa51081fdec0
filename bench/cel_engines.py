"""Spike: which CEL library pnp should use, measured (issue #25 item 2, #24's CEL cost bullet).

Three libraries on PyPI evaluate CEL from Python:

- ``cel-python`` (pure Python, on lark), used unpatched (its default, interpreted runner);
- ``cel-expr-python`` (Google's C++ runtime, ``from cel_expr_python import cel``);
- ``common-expression-language`` (the Rust ``cel`` crate, ``import cel``).

For each one this prints, in whole processes where start-up matters:

1. import time (a fresh interpreter importing the library and nothing else, median of runs);
2. compile and evaluation time over the corpus: every evaluation pnp makes while validating
   and building the shipped packs, the starter game and tests/fixtures (bench/cel_corpus.json.gz:
   each expression, its activation, and the answer cel-python gave), and whether each library
   agrees with that answer (an error counts as agreeing with an error);
3. what a user reads for a syntax error and for an unknown name (the position it gives);
4. how a runaway rule ends (``cards.map(a, cards.map(b, cards.map(c, cards)))`` over 200
   cards), the library's own budget if it has one;
5. two set rules over 100,000 cards: a count (``cards.filter(c, c.kind == 'x').size() <= 4``)
   and a duplicate check (every id once), each in its own process with a time limit.

The corpus is re-recorded with ``--record`` (``pnp validate`` and ``pnp build`` of every pack,
each with generator.rules.cel's evaluation hooked, answered by cel-python: :func:`record`). The
stored one was recorded on main a10a849, when pnp still evaluated with cel-python (patched,
beside its own subset evaluator): its answers are the ones users got.

Run: ``.venv/bin/python bench/cel_engines.py`` (all three libraries must be installed:
``.venv/bin/pip install cel-python cel-expr-python common-expression-language``; pnp itself
depends on one of them only). Figures and the choice they led to: docs/cel.md.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).with_name("cel_corpus.json.gz")
LIBRARIES = ("cel-python", "cel-expr-python", "common-expression-language")
IMPORTS = {"cel-python": "import celpy",
           "cel-expr-python": "from cel_expr_python import cel",
           "common-expression-language": "import cel"}
RUNAWAY = "cards.map(a, cards.map(b, cards.map(c, cards))).size() > 0"
SET_RULES = {"count": "cards.filter(c, c.kind == 'x').size() <= 4",
             "duplicates": "cards.all(c, cards.exists_one(d, d.id == c.id))"}
PROBES = {"syntax error": "self.cost >= ", "unknown name": "self.cost > 1 && powr > 2",
          "unknown function": "summ(cards) > 0", "field named class": "class == 'freighter'"}
TIME_LIMIT_S = 20.0


# --- one adapter per library: compile(text, names) -> run(activation) -> value or Failure ----

class Failure(Exception):
    """The library's error for one evaluation (compared as "an error", not by its words)."""


def _celpy() -> Callable[[str, list[str]], Callable[[Mapping[str, Any]], Any]]:
    import celpy

    env = celpy.Environment()

    def compile_(text: str, names: list[str]) -> Callable[[Mapping[str, Any]], Any]:
        program = env.program(env.compile(text))

        def run(activation: Mapping[str, Any]) -> Any:
            try:
                value = program.evaluate({k: celpy.json_to_cel(v) for k, v in activation.items()})
            except Exception as exc:
                raise Failure(str(exc)) from None
            if isinstance(value, celpy.CELEvalError):
                raise Failure(str(value.args[0]) if value.args else "error")
            return _plain(value)

        return run

    return compile_


def _google() -> Callable[[str, list[str]], Callable[[Mapping[str, Any]], Any]]:
    from cel_expr_python import cel

    env = cel.NewEnv()

    def compile_(text: str, names: list[str]) -> Callable[[Mapping[str, Any]], Any]:
        # unchecked: a name is looked up when evaluated, as in the other two libraries (pnp
        # declares every field of the kinds in reach, so a field a card lacks is an error
        # of evaluation there too)
        expression = env.compile(text, disable_check=True)

        def run(activation: Mapping[str, Any]) -> Any:
            try:
                value = expression.eval(data=dict(activation))
            except RuntimeError as exc:
                raise Failure(str(exc)) from None
            if value.type() == cel.Type.ERROR:
                raise Failure(str(value.value()))
            return value.plain_value()

        return run

    return compile_


def _rust() -> Callable[[str, list[str]], Callable[[Mapping[str, Any]], Any]]:
    import cel

    def compile_(text: str, names: list[str]) -> Callable[[Mapping[str, Any]], Any]:
        program = cel.compile(text)

        def run(activation: Mapping[str, Any]) -> Any:
            try:
                return program.execute(dict(activation))
            except Exception as exc:
                raise Failure(str(exc)) from None

        return run

    return compile_


ADAPTERS = {"cel-python": _celpy, "cel-expr-python": _google,
            "common-expression-language": _rust}


def _plain(value: Any) -> Any:
    """cel-python's values as plain Python (its types subclass int, str, dict and list)."""
    if isinstance(value, bool) or value is None:
        return value
    if type(value).__name__ == "BoolType":
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _same(expected: Mapping[str, Any], got: Any) -> bool:
    if "error" in expected:
        return isinstance(got, Failure)
    if isinstance(got, Failure):
        return False
    want = expected["value"]
    return type(want) is type(got) and want == got


# --- the measurements --------------------------------------------------------------------------

def import_time(library: str, runs: int) -> float:
    """Median seconds for a fresh interpreter to import the library (minus a bare start)."""
    def once(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - start

    bare = statistics.median(once("pass") for _ in range(runs))
    return statistics.median(once(IMPORTS[library]) for _ in range(runs)) - bare


def corpus_run(library: str, corpus: list[dict[str, Any]]) -> dict[str, Any]:
    compile_ = ADAPTERS[library]()
    programs: dict[tuple[str, tuple[str, ...]], Any] = {}
    compile_s = evaluate_s = 0.0
    agree = 0
    disagreements: list[str] = []
    for record in corpus:
        names = tuple(sorted(record["activation"]))
        key = (record["cel"], names)
        if key not in programs:
            start = time.perf_counter()
            try:
                programs[key] = compile_(record["cel"], list(names))
            except Exception as exc:
                programs[key] = Failure(f"compile: {exc}")
            compile_s += time.perf_counter() - start
        program = programs[key]
        start = time.perf_counter()
        if isinstance(program, Failure):
            got: Any = program
        else:
            try:
                got = program(record["activation"])
            except Failure as exc:
                got = exc
        evaluate_s += time.perf_counter() - start
        if _same(record["result"], got):
            agree += 1
        elif len(disagreements) < 8:
            disagreements.append(f"{record['cel']!r}: cel-python {record['result']}, "
                                 f"{library} {got!r}"[:300])
    return {"compiled": len(programs), "compile_ms": compile_s * 1000,
            "evaluate_ms": evaluate_s * 1000, "agree": agree, "total": len(corpus),
            "disagreements": disagreements}


def probe(library: str, text: str) -> str:
    compile_ = ADAPTERS[library]()
    try:
        run = compile_(text, ["self", "cards", "cost"])
        value = run({"self": {"cost": 2}, "cards": [1], "cost": 2})
        return f"value {value!r}"
    except Failure as exc:
        return f"evaluation error: {exc}"
    except Exception as exc:
        return f"compile error: {exc}"


def cards(count: int) -> list[dict[str, Any]]:
    return [{"id": f"card-{i}", "kind": "x" if i % 1000 == 0 else "y", "cost": i % 7}
            for i in range(count)]


def isolated(library: str, text: str, count: int) -> str:
    """One evaluation of ``text`` over ``count`` cards in a fresh process under a time limit:
    its wall time, peak memory and answer."""
    code = (f"import sys, json, time, resource\nsys.path.insert(0, {str(ROOT / 'bench')!r})\n"
            "from cel_engines import ADAPTERS, Failure, cards\n"
            f"run = ADAPTERS[{library!r}]()({text!r}, ['cards'])\n"
            f"data = {{'cards': cards({count})}}\nstart = time.perf_counter()\n"
            "try:\n    answer = repr(run(data))\nexcept Failure as exc:\n"
            "    answer = 'error: ' + str(exc)[:120]\n"
            "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
            "print(json.dumps([time.perf_counter() - start, peak, answer]))\n")
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=TIME_LIMIT_S)
    except subprocess.TimeoutExpired:
        return f"still running after {TIME_LIMIT_S:.0f} s (stopped)"
    if done.returncode != 0:
        return f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1][:120]}"
    seconds, peak, answer = json.loads(done.stdout)
    return f"{seconds:.3f} s, {peak:.0f} MiB peak, {answer}"


def load_corpus(path: Path = CORPUS) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="fresh processes per import time")
    parser.add_argument("--library", action="append", choices=LIBRARIES,
                        help="measure only this library (repeatable)")
    parser.add_argument("--corpus", type=Path, default=CORPUS,
                        help="another recorded corpus (default: %(default)s)")
    parser.add_argument("--record", action="store_true",
                        help="record the corpus again from the packs (see record())")
    args = parser.parse_args()
    if args.record:
        record()
        return
    corpus = load_corpus(args.corpus)
    print(f"corpus: {len(corpus)} distinct evaluations of "
          f"{len({r['cel'] for r in corpus})} expressions (cel-python's answers recorded)")
    for library in args.library or LIBRARIES:
        print(f"\n== {library}")
        print(f"import: {import_time(library, args.runs) * 1000:.1f} ms "
              f"(median of {args.runs} fresh processes, less a bare interpreter)")
        result = corpus_run(library, corpus)
        print(f"corpus: {result['agree']}/{result['total']} agree with cel-python; compiling "
              f"{result['compiled']} (expression, names) pairs {result['compile_ms']:.1f} ms, "
              f"evaluating {result['evaluate_ms']:.1f} ms "
              f"({result['evaluate_ms'] * 1000 / result['total']:.1f} us each)")
        for line in result["disagreements"]:
            print(f"  differs: {line}")
        for name, text in PROBES.items():
            print(f"{name} ({text!r}): {probe(library, text)[:260]}")
        print(f"runaway over 200 cards ({RUNAWAY!r}): {isolated(library, RUNAWAY, 200)}")
        for name, text in SET_RULES.items():
            print(f"set rule '{name}' over 100,000 cards: {isolated(library, text, 100_000)}")


# --- recording the corpus ----------------------------------------------------------------------

#: the packs the corpus comes from: (name, pack, expansion or None); every one is validated and
#: built, and the starter game is the one ``pnp new`` writes
def _packs(starter: Path) -> list[tuple[str, Path, Path | None]]:
    packs = [(p.name, p, None) for p in sorted((ROOT / "cards").iterdir())
             if (p / "game.yaml").is_file() and p.name != "cwnb-expansion"]
    packs += [(f"fixtures-{p.name}", p, None) for p in sorted((ROOT / "tests" / "fixtures")
                                                              .iterdir())
              if (p / "game.yaml").is_file()]
    fixtures = ROOT / "tests" / "fixtures"
    return [*packs, ("starter", starter, None),
            ("cwnb+expansion", ROOT / "cards" / "cwnb", ROOT / "cards" / "cwnb-expansion"),
            ("emberfall+ashes", fixtures / "emberfall", fixtures / "emberfall-ashes")]


def record() -> None:
    """Run ``pnp validate`` and ``pnp build`` over every pack (each in its own process, one
    job, no cache), hooking generator.rules.cel's one evaluation to keep each expression and
    activation, then answer each with cel-python (unpatched), the reference."""
    records: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        starter = Path(scratch) / "starter"
        subprocess.run([sys.executable, "-m", "generator", "new", str(starter)], check=True,
                       capture_output=True)
        for name, pack, expansion in _packs(starter):
            extra = ["--with", str(expansion)] if expansion else []
            out = Path(scratch) / f"{name}.json"
            words = [["validate", str(pack), *extra],
                     ["build", str(pack), *extra, "--out", str(Path(scratch) / name)]]
            env = {**os.environ, "PNP_JOBS": "1", "PNP_CACHE_DIR": ""}
            subprocess.run([sys.executable, __file__, "--record-one", str(out),
                            json.dumps(words)], check=True, env=env, cwd=ROOT)
            for item in json.loads(out.read_text(encoding="utf-8")):
                records.setdefault(json.dumps(item, sort_keys=True), item)
    reference = ADAPTERS["cel-python"]()
    corpus = []
    for item in records.values():
        try:
            value = reference(item["cel"], sorted(item["activation"]))(item["activation"])
            result: dict[str, Any] = {"value": value}
        except Exception as exc:
            result = {"error": str(exc)[:200]}
        corpus.append({**item, "result": result})
    with gzip.open(CORPUS, "wt", encoding="utf-8") as handle:
        json.dump(corpus, handle)
    print(f"recorded {len(corpus)} distinct evaluations into {CORPUS}")


def record_one(out: str, words: str) -> None:
    """In this process: run each command with generator.rules.cel's evaluation hooked."""
    from generator.cli.main import main
    from generator.rules import cel

    seen: list[dict[str, Any]] = []
    evaluate = cel.Expression.evaluate

    def hooked(self: cel.Expression, activation: Mapping[str, Any]) -> Any:
        seen.append({"cel": self.text,
                     "activation": {k: cel.plain(v) for k, v in activation.items()}})
        return evaluate(self, activation)

    cel.Expression.evaluate = hooked  # type: ignore[method-assign]
    for command in json.loads(words):
        with contextlib.suppress(SystemExit):
            main(command)
    Path(out).write_text(json.dumps(seen), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--record-one"]:
        sys.path.insert(0, str(ROOT))
        record_one(sys.argv[2], sys.argv[3])
    else:
        main()
