"""The package layout shows the pipeline: one package per stage, imports run down it, no cycles.

Every import in generator/ counts, including those made inside functions (they run as surely
as the others, only later); only imports under ``if TYPE_CHECKING:`` are left out, since they
never run. The order below is the pipeline's: a stage may use the stages before it, never one
after it, so a newcomer can read the package from ``core`` up to ``cli`` in one direction.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "generator"

#: the stages, lowest first; a module may import its own stage and the stages before it
STAGES = (
    "core",      # findings, source locations, errors, limits: the vocabulary of every stage
    "runtime",   # processes, atomic files and folders, package resources, progress
    "cache",     # the one cache layer: folder, keys, checked entries; up-to-date records
    "load",      # a pack's files read under one policy: YAML, tables, art, with positions
    "schema",    # JSON Schema checking of what was loaded, and the schemas themselves
    "model",     # typed cards, decks, templates and the Game contract
    "rules",     # checks as data (rulebooks, rule tables) and the CEL engine
    "i18n",      # catalogs and localization of card texts and labels
    "layout",    # a template and a localized card become drawing operations
    "impose",    # faces placed on sheets, marks, duplex mirroring
    "render",    # drawing operations become PDF
    "games",     # the built-in games (Python), each a Game
    "datagame",  # games defined in data, each a Game
    "pipeline",  # the stages run in order for a pack: load, validate, prepare, build
    "export",    # per-card files for print services and Tabletop Simulator
    "proof",     # the proof page and watch mode
    "studio",    # the browser editor
    "starter",   # the starter game written by `pnp new`
    "cli",       # the command line
)
TOP_LEVEL_ALLOWED = 8


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))
            if "__pycache__" not in p.parts and "builtin_templates" not in p.parts}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(path: Path) -> list[tuple[str, int]]:
    """(imported pnp module, line) for every import that can run."""
    modules = _modules()
    found: list[tuple[str, int]] = []

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("generator"):
                    target = resolve(alias.name)
                    if target:
                        found.append((target, node.lineno))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.startswith("generator"):
            for alias in node.names:
                target = resolve(f"{node.module}.{alias.name}") or resolve(node.module)
                if target:
                    found.append((target, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in STAGES) else None


def test_at_most_eight_modules_at_the_top_of_the_package():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= TOP_LEVEL_ALLOWED, top


def test_every_package_is_a_known_stage_and_says_its_job():
    packages = sorted(p.parent for p in PACKAGE.glob("*/__init__.py"))
    for package in packages:
        assert package.name in STAGES, f"{package.name}: not a stage of the pipeline"
        doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8")))
        assert doc and not doc.startswith("TODO") and len(doc) > 40, \
            f"{package.name}/__init__.py: its docstring must say the package's job"


def test_no_relative_imports():
    """Absolute imports name the stage they come from, which is what this file checks."""
    for module, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{module}:{node.lineno}: relative import"


def test_no_module_takes_another_modules_private_names():
    """A name with a leading underscore is its module's own: another module that needs it
    asks for it to be made public, so that what a module offers is what it says it offers."""
    taken = []
    for module, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module \
                    and node.module.startswith("generator") and node.module != module:
                taken += [f"{path.relative_to(ROOT)}:{node.lineno}: {alias.name} of "
                          f"{node.module}" for alias in node.names
                          if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert not taken, "private names taken from other modules:\n" + "\n".join(taken)


def test_imports_run_down_the_pipeline():
    wrong = []
    for module, path in _modules().items():
        stage = _stage(module)
        if stage is None:
            continue
        for target, line in _imports(path):
            target_stage = _stage(target)
            if target_stage is not None and STAGES.index(target_stage) > STAGES.index(stage):
                wrong.append(f"{path.relative_to(ROOT)}:{line}: {stage} imports {target}")
    assert not wrong, "imports that run back up the pipeline:\n" + "\n".join(wrong)


def test_no_import_cycles():
    graph = {module: sorted({t for t, _ in _imports(path)} - {module})
             for module, path in _modules().items()}
    # Tarjan's strongly connected components, iteratively
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


@pytest.mark.parametrize("stage", STAGES)
def test_tests_mirror_the_packages(stage):
    if not (PACKAGE / stage).is_dir():
        pytest.skip(f"no package {stage} yet")
    assert (ROOT / "tests" / stage).is_dir(), f"tests/{stage}/ is missing"


def test_no_stage_asks_which_kind_of_game_it_has():
    """Built-in and data games answer one contract (generator.model.game.Game): no module
    outside the two game packages names either kind, and the contract carries no escape hatch
    to one of them."""
    from generator.model.game import Game

    assert "data" not in Game.__struct_fields__ and "definition" not in Game.__struct_fields__
    kinds = ("BuiltinGame", "DataDefinedGame", "DataGame", "LazyFaces")
    asking = []
    for module, path in _modules().items():
        if _stage(module) in {"games", "datagame"}:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        named |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                  for alias in node.names}
        asking += [f"{path.relative_to(ROOT)}: {name}" for name in kinds if name in named]
    assert not asking, asking
