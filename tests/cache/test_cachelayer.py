"""The one cache layer (generator/cache/usercache.py): one folder and one switch, and entries that
are checked before they are used. A bad entry (another's, a named pipe, a link to a device,
cut short) is ignored and written anew: never followed, blocked on or read without bound."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SHIP, copy_datagame, write_pack

from generator.cache import usercache

ROCKPOOL = ROOT / "cards" / "rockpool"
MAGIC = b"pnp-test 1\n"
#: named pipes and /dev/zero are POSIX's: elsewhere those cases have nothing to plant
POSIX_ONLY = pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"),
                                reason="no named pipes or /dev/zero on this platform")


def pnp(*args: str, env: dict[str, str], cwd: Path = ROOT, timeout: float = 120
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=timeout)


def entries(root: Path) -> list[Path]:
    """Every entry of every kind the cache folder holds."""
    return sorted(path for path in root.rglob("*") if path.is_file())


# --- the entry itself ------------------------------------------------------------------------

def test_an_entry_reads_back_and_nothing_else_does(tmp_path: Path) -> None:
    one, two = tmp_path / "one.x", tmp_path / "two.x"
    usercache.write_entry(one, MAGIC, b"first body")
    usercache.write_entry(two, MAGIC, b"second body")
    assert usercache.read_entry(one, MAGIC) == b"first body"
    assert usercache.read_entry(tmp_path / "missing.x", MAGIC) is None
    # swapped under each other's names: each is another's, so neither is taken
    os.replace(one, tmp_path / "swap")
    os.replace(two, one)
    os.replace(tmp_path / "swap", two)
    assert usercache.read_entry(one, MAGIC) is None and not one.exists()
    assert usercache.read_entry(two, MAGIC) is None and not two.exists()
    usercache.write_entry(one, MAGIC, b"first body")
    assert usercache.read_entry(one, b"pnp-other 1\n") is None  # another kind of entry


@POSIX_ONLY
@pytest.mark.parametrize("damage", ["truncated", "grown", "bit", "pipe", "link", "folder",
                                    "huge"])
def test_a_bad_entry_is_ignored_and_removed(tmp_path: Path, damage: str) -> None:
    entry = tmp_path / "e.x"
    usercache.write_entry(entry, MAGIC, b"x" * 1000)
    raw = entry.read_bytes()
    if damage == "truncated":
        entry.write_bytes(raw[:-10])
    elif damage == "grown":
        entry.write_bytes(raw + b"more")
    elif damage == "bit":
        entry.write_bytes(raw[:-1] + b"y")
    elif damage == "pipe":
        entry.unlink()
        os.mkfifo(entry)  # opened as a file, it would block until a writer came
    elif damage == "link":
        entry.unlink()
        entry.symlink_to("/dev/zero")  # read as a file, it would never end
    elif damage == "folder":
        entry.unlink()
        (entry / "inside").mkdir(parents=True)
    else:  # larger than the caller's bound: not read at all
        assert usercache.read_entry(entry, MAGIC, max_bytes=len(raw) - 1) is None
        assert not entry.exists()
        return
    assert usercache.read_entry(entry, MAGIC) is None
    assert not os.path.lexists(entry)  # removed, not followed
    usercache.write_entry(entry, MAGIC, b"again")
    assert usercache.read_entry(entry, MAGIC) == b"again"


# --- every cache of a real run ---------------------------------------------------------------

def damage_every_entry(root: Path, how: str) -> int:
    """Damage every entry in ``root``: swapped in a ring, made pipes, links to /dev/zero, or
    cut to half. Returns how many there were."""
    found = entries(root)
    if how == "swapped":
        contents = [path.read_bytes() for path in found]
        for path, content in zip(found, contents[1:] + contents[:1], strict=True):
            path.write_bytes(content)
        return len(found)
    for path in found:
        if how == "truncated":
            path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
            continue
        path.unlink()
        if how == "pipe":
            os.mkfifo(path)
        else:
            path.symlink_to("/dev/zero")
    return len(found)


@POSIX_ONLY
@pytest.mark.parametrize("how", ["swapped", "pipe", "link", "truncated"])
def test_a_run_over_a_damaged_cache_is_a_run_without_one(tmp_path: Path, how: str) -> None:
    """rockpool (a data game: CEL rules, SVG art, a table) built, validated and built again
    over a cache whose every entry (parsed files, schema verdicts, compiled art, the CEL
    parser, the build's record and faces) was damaged: the same output and messages, no hang,
    no MemoryError, no "unknown game None", and the entries written anew."""
    pack = Path(shutil.copytree(ROCKPOOL, tmp_path / "rockpool"))
    cache = tmp_path / "cache"
    env = {**os.environ, "PNP_CACHE_DIR": str(cache)}
    out = tmp_path / "out"
    first = pnp("build", str(pack), "--out", str(out), env=env)
    assert first.returncode == 0, first.stderr
    printed = {p.name: p.read_bytes() for p in (out / "rockpool" / "en" / "a4").iterdir()}
    checked = pnp("validate", str(pack), env=env)
    kinds = {path.relative_to(cache).parts[0] for path in entries(cache)}
    assert {"parsed", "valid", "art", "outputs"} <= kinds
    assert damage_every_entry(cache, how) > 20
    again = pnp("validate", str(pack), env=env, timeout=60)
    assert (again.returncode, again.stdout, again.stderr) == (
        checked.returncode, checked.stdout, checked.stderr)
    rebuilt = pnp("build", str(pack), "--out", str(out), env=env, timeout=60)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert rebuilt.stdout.startswith("wrote ")  # (its record was damaged too)
    assert "unknown game" not in rebuilt.stderr + again.stderr
    assert {p.name: p.read_bytes() for p in (out / "rockpool" / "en" / "a4").iterdir()} \
        == printed
    assert all(path.is_file() and not path.is_symlink() for path in entries(cache))


# --- one switch ------------------------------------------------------------------------------

def test_no_cache_writes_nothing_under_home(tmp_path: Path) -> None:
    """``PNP_CACHE_DIR=`` turns every cache off: validate, build, export and preview of a
    built-in game and of a data game (CEL rules, whose parser lark would keep, SVG and raster
    art, a table) leave the home folder as they found it. Small packs of each kind (two cwnb
    ships, the data game of tests/fixtures) meet every cache that the shipped packs meet."""
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "PNP_CACHE_DIR": "", "HOME": str(home), "USERPROFILE": str(home),
           "XDG_CACHE_HOME": str(home / ".cache"), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local" / "share"),
           "XDG_STATE_HOME": str(home / ".local" / "state")}
    work = tmp_path / "work"
    work.mkdir()
    ships = write_pack(tmp_path / "ships", {"cards/ships.yaml": "cards:\n" + SHIP.format(id="a")
                                            + SHIP.format(id="b")})
    for pack in (ships, copy_datagame(tmp_path)):
        for command in (["validate", str(pack)],
                        ["build", str(pack), "--out", str(work / "out")],
                        ["export", str(pack), "--to", "card-pdf", "--out", str(work / "out")],
                        ["preview", str(pack), "--out", str(work / "out")]):
            done = pnp(*command, env=env, cwd=work, timeout=300)
            assert done.returncode == 0, (command, done.stdout, done.stderr)
    assert list(home.rglob("*")) == []
    assert not list(work.rglob("*.record")) and not list(work.rglob("*.faces"))


def test_the_cache_folder_is_the_platforms_or_the_switch(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "mine"))
    assert usercache.cache_root() == tmp_path / "mine"
    assert usercache.user_cache_folder("art") == tmp_path / "mine" / "art"
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    assert usercache.cache_root() is None and usercache.output_cache_folder(tmp_path) is None
    monkeypatch.delenv("PNP_CACHE_DIR")
    import platformdirs

    assert usercache.cache_root() == Path(platformdirs.user_cache_dir("pnp", appauthor=False))


def test_the_oldest_output_folders_make_room(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(usercache, "MAX_OUTPUTS", 3)
    made = []
    for n in range(5):
        folder = usercache.output_cache_folder(tmp_path / f"out{n}")
        assert folder is not None
        folder.mkdir(parents=True)
        os.utime(folder, ns=(n * 10**9, n * 10**9))
        made.append(folder)
    assert sorted(p.name for p in (tmp_path / "cache" / "outputs").iterdir()) == sorted(
        p.name for p in made[2:])
