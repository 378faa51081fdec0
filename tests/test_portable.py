"""pnp installs and runs anywhere: every import declared, the same bytes without Linux's and
Unix's own calls (as on macOS and Windows), and a killed build leaves no process behind."""

from __future__ import annotations

import ast
import importlib.metadata
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from conftest import ROOT, write_pack

from generator.runtime import forked, outdir
from generator.runtime.readflags import read_flags

ELSEWHERE = Path(__file__).parent / "elsewhere.py"
PACKS = ROOT / "cards"


def _declared() -> dict[str, str]:
    """Normalised distribution name -> requirement, of pyproject's runtime dependencies."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {}
    for requirement in project["dependencies"]:
        name = re.match(r"[A-Za-z0-9._-]+", requirement).group(0)
        declared[_normal(name)] = requirement
    return declared


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _imported_modules() -> dict[str, str]:
    """Top-level module -> one file of generator/ that imports it (at any depth: lazy imports
    inside functions count), other than the standard library's and pnp's own."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "generator").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.partition(".")[0]
                if top not in sys.stdlib_module_names and top != "generator":
                    found.setdefault(top, str(path.relative_to(ROOT)))
    return found


def test_every_import_is_a_declared_dependency_with_a_floor():
    """An import of an undeclared package works only where something else happened to
    install it (lark came with cel-python): it must be in pyproject's dependencies."""
    declared = _declared()
    providers = importlib.metadata.packages_distributions()
    imported = _imported_modules()
    assert "reportlab" in imported and "yaml" in imported  # (the scan sees imports)
    undeclared = {}
    for module, where in imported.items():
        distributions = {_normal(d) for d in providers.get(module, [module])}
        if not distributions & declared.keys():
            undeclared[module] = (where, sorted(distributions))
    assert not undeclared
    # every requirement has a lower bound, the one the lowest-versions CI step installs
    assert all(">=" in requirement for requirement in declared.values()), declared


def test_read_flags_are_binary_and_non_blocking_only_where_the_system_has_them():
    unix = SimpleNamespace(O_RDONLY=0, O_NONBLOCK=0o4000, O_CLOEXEC=0o2000000)
    windows = SimpleNamespace(O_RDONLY=0, O_BINARY=0x8000, O_NOINHERIT=0x80)
    assert read_flags(unix) == 0o4000 | 0o2000000
    assert read_flags(windows) == 0x8000  # text mode would turn CR LF into LF in art files


def test_cores_and_workers_without_affinity_or_fork(monkeypatch):
    for name in ("process_cpu_count", "sched_getaffinity"):
        monkeypatch.delattr(os, name, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    monkeypatch.delenv("PNP_JOBS", raising=False)
    assert forked.usable_cores() == 6
    assert forked.worker_count(4) == 4
    monkeypatch.delattr(os, "fork")
    assert forked.worker_count(4) == 1  # every worker is a forked process: none without fork
    pid = os.getpid()
    assert forked.in_two_processes(os.getpid, os.getpid) == (pid, pid)


def test_a_folder_is_replaced_by_plain_renames_where_it_cannot_be_exchanged(tmp_path,
                                                                             monkeypatch):
    with monkeypatch.context() as patched:  # (only this call: libraries branch on it too)
        patched.setattr(sys, "platform", "win32")
        assert outdir._renameat2() is None
    exchanges = []
    monkeypatch.setattr(outdir, "_renameat2", lambda: exchanges.append(1))  # (None: none)
    target = tmp_path / "out" / "a4"
    stale = tmp_path / "out" / ".a4.tmp-dead1"
    stale.mkdir(parents=True)
    for text in ("first", "second"):
        with outdir.atomic_folder(target) as scratch:
            assert scratch.is_dir()
            (scratch / f"{text}.pdf").write_text(text, encoding="utf-8")
    assert [p.name for p in target.iterdir()] == ["second.pdf"]
    assert [p.name for p in target.parent.iterdir()] == ["a4"]  # no scratch, old or lock
    assert exchanges == [1]  # the second build found no exchange and renamed


def test_without_fcntl_a_build_keeps_its_own_scratch_folder(tmp_path, monkeypatch):
    """Without fcntl filelock's soft locks stand in (as in tests/elsewhere.py); cleaning up
    leftovers removed the build's own scratch folder when nothing could be locked."""
    import filelock

    monkeypatch.setattr(filelock, "FileLock", filelock.SoftFileLock)
    target = tmp_path / "out" / "a4"
    (tmp_path / "out" / ".a4.old-dead2").mkdir(parents=True)
    with outdir.atomic_folder(target) as scratch:
        (scratch / "fronts.pdf").write_text("new", encoding="utf-8")
        assert outdir.remove_leftovers(target) == []  # a live build's folder is not taken
    assert [p.name for p in target.iterdir()] == ["fronts.pdf"]
    assert [p.name for p in target.parent.iterdir()] == ["a4"]


# --- the command line without Linux's and Unix's own calls ------------------------------------

#: every command a user runs on the shipped packs, as (command, arguments); PACK is cards/
SESSION = [
    ("validate", ["PACK/cwnb", "--with", "PACK/cwnb-expansion", "--locale", "ru"]),
    ("validate", ["PACK/commander", "--format", "json"]),
    ("validate", ["PACK/gwas", "--format", "sarif"]),
    ("validate", ["PACK/rockpool", "--locale", "de"]),
    ("build", ["PACK/cwnb", "--with", "PACK/cwnb-expansion", "--out", "out"]),
    ("build", ["PACK/rockpool", "--locale", "de", "--paper", "letter", "--out", "out"]),
    ("build", ["PACK/commander", "--out", "out"]),
    ("export", ["PACK/rockpool", "--to", "png", "--dpi", "60", "--out", "out"]),
    ("export", ["PACK/gwas", "--to", "tts", "--dpi", "40", "--out", "out"]),
    ("preview", ["PACK/rockpool", "--locale", "de", "--out", "out"]),
    ("i18n", ["status", "PACK/cwnb"]),
    ("i18n", ["status", "PACK/rockpool"]),
    ("i18n", ["update", "PACK/rockpool"]),
]


def _session(tmp_path: Path, name: str, launcher: list[str]) -> list[tuple[int, str, str]]:
    """Run :data:`SESSION` on a copy of the shipped packs (``i18n update`` writes into its
    pack), in one folder for every run (a TTS export names its folder by absolute URL), which
    is then renamed ``name``; the exit codes and outputs, in order."""
    workdir = tmp_path / "run"
    shutil.copytree(PACKS, workdir / "cards")
    environment = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / f"{name}-cache")}
    seen = []
    for command, arguments in SESSION:
        args = [a.replace("PACK/", "cards/") for a in arguments]
        done = subprocess.run([*launcher, command, *args], cwd=workdir, env=environment,
                              capture_output=True, text=True, timeout=300)
        seen.append((done.returncode, done.stdout, done.stderr))
    workdir.rename(tmp_path / name)
    return seen


def _files(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` but the build cache's (its own bookkeeping, not output)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and ".pnp-cache" not in p.parts}


def test_the_launcher_really_takes_the_calls_away():
    probe = (f"import os, runpy; runpy.run_path({str(ELSEWHERE)!r})['take_away']()\n"
             "def gone(name):\n"
             "    try:\n        __import__(name)\n    except ImportError:\n"
             "        return True\n    return False\n"
             "print(all(map(gone, ['fcntl', 'resource', 'termios', 'pwd', 'grp'])), any("
             "hasattr(os, n) for n in ('fork', 'sched_getaffinity', 'O_NONBLOCK', 'getuid')))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.split() == ["True", "False"], done.stderr


def test_every_command_writes_the_same_bytes_without_unix_calls(tmp_path):
    """validate, build, export, preview and i18n on the shipped packs, run as on a system
    without fork, sched_getaffinity, O_NONBLOCK, getuid, fcntl, resource, termios, pwd and
    grp (tests/elsewhere.py), print and write exactly what a normal run does."""
    normal = _session(tmp_path, "normal", [sys.executable, "-m", "generator"])
    elsewhere = _session(tmp_path, "elsewhere", [sys.executable, str(ELSEWHERE)])
    for (command, arguments), mine, theirs in zip(SESSION, normal, elsewhere, strict=True):
        assert mine[0] in (0, 1), (command, arguments, mine[2])
        assert "Traceback" not in theirs[2] and "internal error" not in theirs[2], theirs[2]
        assert theirs == mine, (command, arguments)
    for part in ("out", "cards"):
        written, rewritten = (_files(tmp_path / run / part) for run in ("normal", "elsewhere"))
        assert any(name.endswith("duplex.pdf") for name in written) or part == "cards"
        assert rewritten.keys() == written.keys()
        assert [n for n in written if written[n] != rewritten[n]] == []
    # and nothing but the outputs is left beside them: no scratch folder, no lock file
    for run in ("normal", "elsewhere"):
        left = [p for p in (tmp_path / run / "out").rglob(".*") if p.name != ".pnp-cache"
                and ".pnp-cache" not in p.parts]
        assert left == []


# --- a killed build ---------------------------------------------------------------------------

def _children(pid: int) -> set[int]:
    """Processes whose parent is ``pid`` and that still run (a zombie has ended)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields and int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def _cpu_seconds(pid: int) -> float:
    """The processor time ``pid`` has used (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


LINUX_PROC = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="finds processes through /proc")


@LINUX_PROC
def test_a_forked_child_ends_when_its_parent_is_killed(tmp_path):
    """The child of a SIGKILLed process has nobody to give its result to: it exits at once
    instead of working on (here: for a minute)."""
    script = tmp_path / "parent.py"
    script.write_text(
        "import sys, time\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from generator.runtime.forked import Forked\n"
        "child = Forked(lambda: time.sleep(60))\n"
        "print(child._pid, flush=True)\n"
        "time.sleep(60)\n", encoding="utf-8")
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    assert _running(child)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while _running(child) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _running(child)


def _large_pack(root: Path, ships: int) -> Path:
    """An expansion of CWNB: ``ships`` legal ships, each its own face (their names differ)."""
    profiles = yaml.safe_load((PACKS / "cwnb" / "ships.yaml").read_text(encoding="utf-8"))
    cards = [{**profile, "id": f"big-{n}", "name": f"{profile['name']} {n}", "count": 1}
             for n, profile in zip(range(ships), itertools.cycle(profiles["cards"]))]
    game = ("pack: big\ngame: cwnb\nname: Big\nsource_locale: en\nset_mark: falklands\n"
            "extends: cwnb\n")
    return write_pack(root, {"ships.yaml": yaml.safe_dump({"cards": cards}, sort_keys=False)},
                      game)


@LINUX_PROC
def test_a_killed_build_leaves_no_process_and_the_next_cleans_its_folder(tmp_path):
    big = _large_pack(tmp_path / "big", 2500)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "generator", "build", str(ROOT / "cards" / "cwnb"),
               "--with", str(big), "--out", str(out), "-q"]
    environment = {**os.environ, "PNP_JOBS": "2"}
    said = tmp_path / "stderr"
    with said.open("w", encoding="utf-8") as stderr:
        build = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL,
                                 stderr=stderr)
    children: set[int] = set()
    deadline = time.monotonic() + 240

    def scratch() -> list[Path]:
        return list(out.glob("*/en/.a4.tmp-*"))

    while build.poll() is None and time.monotonic() < deadline:
        children = _children(build.pid)
        # drawing: the scratch folder exists and two forked workers are busy with pages
        if len([c for c in children if _cpu_seconds(c) >= 0.3]) >= 2 and scratch():
            build.send_signal(signal.SIGKILL)
            break
        time.sleep(0.01)
    build.wait()
    if build.returncode == 0:
        pytest.skip("the build finished before it could be killed")
    assert children, "no forked process was seen"
    # at once: a worker left to finish its pages lived on for seconds, drawing into the
    # folder, and then printed a BrokenPipeError traceback on the user's terminal
    deadline = time.monotonic() + 1.5
    while any(map(_running, children)) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [pid for pid in children if _running(pid)] == []
    assert "Traceback" not in said.read_text(encoding="utf-8")
    (left,) = scratch()
    target = left.parent
    again = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True,
                           timeout=600)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in target.iterdir()) == ["a4"]  # no scratch, nor lock file
    assert json.loads((target / "a4" / "manifest.json").read_text(encoding="utf-8"))["pages"]
