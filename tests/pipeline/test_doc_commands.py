"""Every command of README.md and the tutorials works exactly as written after ``make build``
(issue 26 item 7): the commands are read out of the documents themselves (their ``sh`` blocks,
and the code spans of their text that are whole commands) and run, in order, in a copy of the
repository's packs, as a user runs them: from the repository's folder (the starter tutorial:
from the game ``pnp new`` wrote), with the environment activated as the documents say to, or
not (a ``.venv/bin/pnp`` line needs no activation).

Left out, and said so: ``make`` itself (this suite runs under it), the two servers (``pnp
watch`` and ``pnp studio`` run until stopped; their options are checked by tests/cli), and spans
holding a placeholder (``pnp validate PACK``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT

VENV_BIN = ROOT / ".venv" / "bin"
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
_SPAN = re.compile(r"`([^`]+)`")
_COMMAND = re.compile(r"^(?:\.venv/bin/)?pnp\s|^cp\s|^eval\s")
#: a word that stands for something the reader fills in (PACK, COMMAND, <lang>, ...)
_PLACEHOLDER = re.compile(r"\b[A-Z]{2,}\b|<[^>]*>|\.\.\.|\bDX\b")
_SERVERS = re.compile(r"\bpnp (?:watch|studio)\b")


def _without_comment(line: str) -> str:
    """A shell line without its trailing comment (``  # ...``)."""
    return re.split(r"\s{2,}#\s|\s#\s(?=[a-z(])", line, maxsplit=1)[0].strip()


def doc_commands(markdown: str) -> list[str]:
    """The commands of a document in reading order: the lines of its ``sh`` blocks, and the
    code spans of its text that are whole commands."""
    found: list[tuple[int, str]] = []
    for block in _FENCE.finditer(markdown):
        if block.group(1) != "sh":
            continue
        start = block.start(2)
        for line in block.group(2).splitlines(keepends=True):
            command = _without_comment(line)
            if command and not command.startswith("#"):
                found.append((start, command))
            start += len(line)
    # the text without its blocks (same length, so positions keep the reading order)
    prose = _FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), markdown)
    for span in _SPAN.finditer(prose):
        command = " ".join(span.group(1).split())
        # a command with an argument, not the name of one ("`pnp new` writes ...")
        if _COMMAND.match(command) and len(command.split()) >= 3:
            found.append((span.start(), command))
    return [command for _, command in sorted(found)]


def runnable(command: str) -> bool:
    return not (command.startswith("make ") or _SERVERS.search(command)
                or _PLACEHOLDER.search(command.replace("--", " ")))


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> Path:
    """The repository's packs, with pnp's environment where ``make build`` leaves it."""
    root = tmp_path_factory.mktemp("checkout")
    shutil.copytree(ROOT / "cards", root / "cards")
    (root / ".venv").symlink_to(ROOT / ".venv")
    home = root / "home"
    (home / ".config" / "fish" / "completions").mkdir(parents=True)
    return root


def run_as_written(command: str, cwd: Path, sandbox: Path) -> subprocess.CompletedProcess:
    """``command`` in bash, in ``cwd``, in a shell whose environment is activated (as the
    documents ask before a plain ``pnp``)."""
    env = {**os.environ, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}",
           "VIRTUAL_ENV": str(ROOT / ".venv"), "HOME": str(sandbox / "home")}
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=900)


def _run_all(commands: list[str], cwd: Path, sandbox: Path) -> list[str]:
    failed = []
    for command in commands:
        if not runnable(command):
            continue
        result = run_as_written(command, cwd, sandbox)
        if result.returncode != 0:
            failed.append(f"{command}: exit {result.returncode}\n{result.stderr[-800:]}")
    return failed


def test_the_commands_are_read_out_of_the_documents():
    readme = doc_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    assert ".venv/bin/pnp build cards/cwnb --paper a4" in readme
    assert "pnp calibrate --paper a4" in readme  # a code span of the text
    assert 'eval "$(pnp completion bash)"' in readme
    assert not runnable("pnp validate PACK") and not runnable(".venv/bin/pnp watch cards/cwnb")
    assert not runnable("make build") and runnable("pnp build cards/rockpool --locale de")
    starter = doc_commands((ROOT / "generator" / "starter" / "game" / "README.md")
                           .read_text(encoding="utf-8"))
    assert starter[:2] == ["pnp validate .", "pnp build ."]


def test_readme_and_the_expansion_tutorial_work_as_written(sandbox):
    commands = doc_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    commands += doc_commands((ROOT / "cards" / "cwnb-expansion" / "README.md")
                             .read_text(encoding="utf-8"))
    assert len([c for c in commands if runnable(c)]) >= 30
    assert _run_all(commands, sandbox, sandbox) == []
    assert (sandbox / "output" / "cwnb" / "ru" / "a4" / "duplex.pdf").is_file()
    assert (sandbox / "cards" / "my-expansion" / "locales" / "messages.pot").is_file()
    assert (sandbox / "home" / ".config" / "fish" / "completions" / "pnp.fish").stat().st_size


def test_the_starter_tutorial_works_as_written_in_the_game_it_comes_with(sandbox, tmp_path):
    made = run_as_written('pnp new my-game --name "My Game"', tmp_path, sandbox)
    assert made.returncode == 0, made.stderr
    game = tmp_path / "my-game"
    commands = doc_commands((game / "README.md").read_text(encoding="utf-8"))
    assert "pnp validate . --deck decks/starter.yaml" in commands
    assert _run_all(commands, game, sandbox) == []
    assert (game / "output" / "my-game" / "de" / "a4" / "duplex.pdf").is_file()


def test_a_bare_pnp_fails_without_the_activation_the_documents_ask_for(sandbox):
    """The reason for the activation sentence: without it, a plain pnp is not found (exit 127
    in the issue), and the documents say so before their first plain pnp."""
    env = {**os.environ, "PATH": "/usr/bin:/bin", "HOME": str(sandbox / "home")}
    bare = subprocess.run(["bash", "-c", "pnp --version"], cwd=sandbox, env=env,
                          capture_output=True, text=True, timeout=60)
    assert bare.returncode == 127
    for doc in (ROOT / "README.md", ROOT / "cards" / "cwnb-expansion" / "README.md",
                ROOT / "generator" / "starter" / "game" / "README.md"):
        text = doc.read_text(encoding="utf-8")
        # the first plain pnp command: a block's line, or a span with arguments
        first_plain = min((m.start() for m in re.finditer(r"^pnp |`pnp [^`\s]+ [^`]+`", text,
                                                          re.MULTILINE)), default=len(text))
        assert ".venv/bin/activate" in text[:first_plain], doc
