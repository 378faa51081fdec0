"""The cache of parsed YAML (generator/load/parsecache.py): a file read from it is exactly the file
parsed, a file with a finding is never kept, a damaged entry is read again, and a warm build
never imports PyYAML."""

from __future__ import annotations

import ast
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import CWNB, ROOT

from generator.cache import usercache
from generator.load import parsecache, yamlsource
from generator.load.yamldoc import LoadProblem
from generator.runtime.resources import builtin_template_file


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(folder))
    return folder / parsecache.PARSED_FOLDER


def _repository_yaml() -> list[Path]:
    found = []
    for top in ("cards", "generator", "examples"):
        found += sorted((ROOT / top).rglob("*.yaml"))
    return [path for path in found if ".pnp-cache" not in path.parts]


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("parsed again instead of read from the cache")

    monkeypatch.setattr(yamlsource, "load_yaml_text", refuse)


def test_every_repository_file_reads_back_from_the_cache_as_parsed(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _repository_yaml()
    assert len(paths) > 40
    texts = {path: path.read_text(encoding="utf-8") for path in paths}
    fresh = {path: yamlsource.load_yaml_text("first.yaml", text) for path, text in texts.items()}
    kept = 0
    for path, text in texts.items():
        assert parsecache.load_yaml_text("first.yaml", text) == fresh[path]
        kept += fresh[path][1] == []
    assert kept > 40 and len(list(cache_dir.iterdir())) >= kept - 5  # (equal texts share one)
    _no_parsing(monkeypatch)
    for path, text in texts.items():
        document, findings = fresh[path]
        if findings:
            continue
        again, none = parsecache.load_yaml_text("second.yaml", text)
        assert none == [] and again is not None
        assert again.data == document.data
        # the same positions, in the file the caller names now
        assert [(p, w.line, w.column) for p, w in again.values.items()] == \
            [(p, w.line, w.column) for p, w in document.values.items()]
        assert [(p, w.line, w.column) for p, w in again.keys.items()] == \
            [(p, w.line, w.column) for p, w in document.keys.items()]
        assert {w.file for w in [*again.values.values(), *again.keys.values()]} <= \
            {"second.yaml"}


def test_data_read_back_marshals_as_the_data_parsed(cache_dir: Path) -> None:
    """The schema memo names a card by its marshal data (generator/schema/memo.py), and marshal
    writes a string shared elsewhere (a single character, say) as a reference: the data read
    back from the cache must marshal as the data parsed, or a warm build checks every card
    again."""
    for path in _repository_yaml():
        text = path.read_text(encoding="utf-8")
        parsed, findings = parsecache.load_yaml_text("a.yaml", text)
        if findings:
            continue
        read_back, _ = parsecache.load_yaml_text("a.yaml", text)
        assert read_back is not None and parsed is not None
        assert marshal.dumps(read_back.data, 4) == marshal.dumps(parsed.data, 4), path


def test_a_file_with_a_finding_is_parsed_and_reported_every_time(cache_dir: Path) -> None:
    text = "cards:\n  - id: a\n    id: b\n"
    first = parsecache.load_yaml_text("dup.yaml", text)
    assert first[0] is None and [f.code for f in first[1]] == ["duplicate-key"]
    assert not cache_dir.exists() or not list(cache_dir.iterdir())
    assert parsecache.load_yaml_text("dup.yaml", text) == first


def test_a_damaged_or_foreign_entry_is_parsed_again(cache_dir: Path) -> None:
    text = "name: Ship\npoints: 4\nguns: [5in, 3in]\n"
    expected = yamlsource.load_yaml_text("s.yaml", text)
    assert parsecache.load_yaml_text("s.yaml", text) == expected
    entry, = cache_dir.iterdir()
    good = entry.read_bytes()
    for damaged in (good[:-3], good[:-1] + bytes([good[-1] ^ 1]), b"", b"other\n" + good,
                    good.replace(b"pnp-parsed", b"pnp-parsex")):
        entry.write_bytes(damaged)
        assert parsecache.load_yaml_text("s.yaml", text) == expected
        assert entry.read_bytes() == good  # (written again, whole)


def test_an_edited_text_is_not_taken_for_the_old_one(cache_dir: Path) -> None:
    parsecache.load_yaml_text("s.yaml", "points: 4\n")
    document, _ = parsecache.load_yaml_text("s.yaml", "points: 5\n")
    assert document is not None and document.data == {"points": 5}
    assert len(list(cache_dir.iterdir())) == 2


def test_plain_files_and_values_marshal_cannot_keep(cache_dir: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    palette = builtin_template_file("cwnb", "palette.yaml").read_text(encoding="utf-8")
    assert parsecache.safe_load(palette) == yaml.safe_load(palette)
    dated = "released: 2024-05-01\n"
    assert parsecache.safe_load(dated) == yaml.safe_load(dated)  # (a date: not kept)
    assert parsecache.safe_load("") is None
    with pytest.raises(LoadProblem):
        parsecache.safe_load("a: 1\na: 2\n")  # pnp's own files obey the one loader too
    assert len(list(cache_dir.iterdir())) == 1
    _no_parsing(monkeypatch)
    assert parsecache.safe_load(palette)["normal"]


def test_an_empty_cache_setting_keeps_nothing(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", "")
    monkeypatch.chdir(tmp_path)
    assert parsecache.load_yaml_text("s.yaml", "a: 1\n")[0].data == {"a": 1}
    assert parsecache.safe_load("a: 1\n") == {"a": 1}
    assert list(tmp_path.iterdir()) == []


def test_a_folder_over_its_limits_keeps_its_newest_half(tmp_path: Path) -> None:
    for number in range(10):
        entry = tmp_path / f"{number}.entry"
        entry.write_bytes(b"x" * 100)
        os.utime(entry, ns=(number * 10**9, number * 10**9))
    usercache.prune(tmp_path, max_entries=20, max_bytes=10_000)
    assert len(list(tmp_path.iterdir())) == 10  # under both limits: nothing goes
    usercache.prune(tmp_path, max_entries=8, max_bytes=10_000)
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{n}.entry" for n in range(6, 10)]
    usercache.prune(tmp_path, max_entries=100, max_bytes=300)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["9.entry"]


def test_a_warm_build_never_imports_pyyaml_nor_jsonschema_rs(tmp_path: Path) -> None:
    """The first build parses (and imports PyYAML) and checks every card (jsonschema-rs); the
    second finds every file it reads in the parse cache and every card in the schemas' memos
    (generator.schema.memo), and so does a validate."""
    probe = ("import sys; sys.argv = ['pnp'] + sys.argv[1:]\n"
             "from generator.cli.main import main\n"
             "try:\n    main()\n"
             "except SystemExit:\n    pass\n"
             "print(sorted(m for m in ('yaml', 'generator.load.yamlsource', 'jsonschema_rs')\n"
             "             if m in sys.modules))")
    env = {**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}
    build = ["build", str(CWNB), "--out", str(tmp_path / "out"), "--locale", "ru", "--force"]
    loaded = []
    for args in (build, build, ["validate", str(CWNB)]):
        result = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True,
                                text=True, cwd=ROOT, env=env, timeout=300)
        assert result.returncode == 0, result.stderr
        loaded.append(ast.literal_eval(result.stdout.strip().splitlines()[-1]))
    assert loaded == [["generator.load.yamlsource", "jsonschema_rs", "yaml"], [], []]


def test_a_text_over_the_limit_is_parsed_every_time(cache_dir: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    text = "points: 4\nname: Ship\n"
    monkeypatch.setattr(parsecache, "MAX_CACHED_CHARS", len(text) - 1)
    assert parsecache.load_yaml_text("s.yaml", text)[0].data == {"points": 4, "name": "Ship"}
    assert not cache_dir.exists()
    monkeypatch.setattr(parsecache, "MAX_CACHED_CHARS", len(text))
    parsecache.load_yaml_text("s.yaml", text)
    assert len(list(cache_dir.iterdir())) == 1
