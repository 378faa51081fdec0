"""Hostile input (issue 13): every defect the fuzz campaign found, one regression test per class.

Each test builds the attack, runs pnp on it and checks the located finding (or usage error) that
must come out instead of a crash, a hang, an internal error or a silent loss. Limits are those of
generator.core.limits; the fuzz suite (test_fuzz.py, ``make fuzz``) keeps the whole space covered.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import CWNB, ROOT, SHIP, run_pnp, write_pack

from generator.core import limits
from generator.core.findings import Finding
from generator.pipeline.validate import validate

COMMANDER = ROOT / "cards" / "commander"
EXPANSION = ROOT / "cards" / "cwnb-expansion"


def codes(findings: list[Finding]) -> list[str]:
    return sorted(f.code for f in findings)


def the(findings: list[Finding], code: str) -> Finding:
    matching = [f for f in findings if f.code == code]
    assert len(matching) == 1, [f.as_text() for f in findings]
    return matching[0]


def where(finding: Finding) -> tuple[str, int, int]:
    return Path(finding.location.file).name, finding.location.line, finding.location.column


@pytest.fixture
def cwnb(tmp_path: Path) -> Path:
    """A writable copy of the shipped CWNB pack."""
    return Path(shutil.copytree(CWNB, tmp_path / "cwnb"))


def run_limited(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """pnp in a process held to 1 GiB of address space, as the budget says."""
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
            "from generator.cli.main import main; sys.argv = ['pnp'] + sys.argv[1:]; main()")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=timeout)


def assert_clean_exit(result: subprocess.CompletedProcess[str], code: int) -> None:
    assert result.returncode == code, (result.returncode, result.stdout[-2000:],
                                       result.stderr[-2000:])
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


# --- YAML: nesting, constructors, aliases, control characters ---------------------------------

@pytest.mark.parametrize("text", [
    "cards: " + "[" * 40_000 + "]" * 40_000 + "\n",  # was SIGSEGV in libyaml's composer
    "cards: " + "[" * 1_000 + "]" * 1_000 + "\n",    # was RecursionError
    "cards:\n" + "".join("  " * i + "- \n" for i in range(1, 200)),
    "cards: " + "{a: " * 5_000 + "1" + "}" * 5_000 + "\n",
])
def test_deep_nesting_is_a_located_finding(tmp_path, text):
    pack = write_pack(tmp_path / "p", {"deep.yaml": text})
    result = run_limited("validate", str(pack), "--format", "json")
    assert_clean_exit(result, 1)
    (finding,) = json.loads(result.stdout)["findings"]
    assert finding["code"] == "yaml-too-deep"
    assert finding["line"] >= 1 and finding["column"] >= 1


def test_a_card_file_of_millions_of_tiny_values_is_refused_within_the_bounds(tmp_path):
    """8 MiB of one-character values (four million of them) would compose into 1.2 GB of
    nodes: composing stops at the limit (in 1 GiB of address space here), and the finding is
    at the first value over it."""
    values = (limits.FILE_BYTES["card-file"] - 16) // 2
    pack = write_pack(tmp_path / "p", {"tiny.yaml": "cards: [" + "1," * (values - 1) + "1]\n"})
    result = run_limited("validate", str(pack), "--format", "json")
    assert_clean_exit(result, 1)
    (finding,) = json.loads(result.stdout)["findings"]
    assert finding["code"] == "yaml-too-large"
    # the root, "cards", the list, then the values: the first one too many is the
    # (MAX_VALUES - 2)th, two characters each after "cards: ["
    assert (finding["line"], finding["column"]) == (1, 9 + 2 * (limits.MAX_VALUES - 3))


@pytest.mark.parametrize(("value", "code"), [
    ("9" * 4301, "number-too-large"),
    ("123456789012345678901", "number-too-large"),
    ("-9007199254740993", "number-too-large"),
    ("2024-02-30", "yaml-bad-value"),
    ("!!bool maybe", "yaml-bad-value"),
    ("!!int 12x", "yaml-bad-value"),
    ("!!timestamp word", "yaml-bad-value"),
    ("!!float abc", "yaml-bad-value"),
    ("!!binary a", "yaml-bad-value"),
    ("!!python/object:os.system x", "yaml-bad-value"),
    ("!custom thing", "yaml-bad-value"),
    (".nan", "number-not-finite"),
    ("-.inf", "number-not-finite"),
])
def test_values_the_constructor_cannot_make_are_findings(make_pack, value, code):
    findings = validate(make_pack({"bad.yaml": f"cards: []\nx:\n  y: {value}\n"})).findings
    assert where(the(findings, code)) == ("bad.yaml", 3, 6)


@pytest.mark.parametrize("text", ["cards: &a [*a]\n", "cards: &a {x: [1, *a]}\n",
                                  "cards: &a {<<: *a}\n", "cards: &a {x: {<<: [*a]}}\n"])
def test_recursive_alias_is_refused_where_it_recurses(make_pack, text):
    finding = the(validate(make_pack({"loop.yaml": text})).findings, "yaml-recursive-alias")
    assert where(finding)[1] == 1 and where(finding)[2] > 10


def test_alias_nesting_cannot_exceed_the_depth_limit(make_pack):
    nested = "[" * 60 + "1" + "]" * 60
    text = f"a: &a {nested}\nb: &b {'[' * 60}*a{']' * 60}\ncards: []\n"
    finding = the(validate(make_pack({"x.yaml": text})).findings, "yaml-too-deep")
    assert where(finding)[1] >= 1


@pytest.mark.parametrize(("raw", "line", "column", "char"), [
    (b"cards: []\nx: \"a\x01b\"\n", 2, 6, "U+0001"),
    ("cards: []\n# Привет\nx: \"a\x00b\"\n".encode(), 3, 6, "U+0000"),
    (b"cards: []\nx: y\n\x1b", 3, 1, "U+001B"),
])
def test_control_characters_are_located(make_pack, raw, line, column, char):
    finding = the(validate(make_pack({"c.yaml": raw})).findings, "yaml-control-character")
    assert where(finding) == ("c.yaml", line, column)
    assert char in finding.message


def test_a_million_character_card_name_is_refused_at_its_place(make_pack):
    text = "cards:\n" + SHIP.format(id="a").replace("Test Ship", "x" * 1_000_000)
    finding = the(validate(make_pack({"ships.yaml": text})).findings, "string-too-long")
    assert where(finding) == ("ships.yaml", 4, 11)
    assert str(limits.MAX_STRING_CHARS) in finding.message


@pytest.mark.parametrize(("name", "kind"), [("ships.yaml", "card-file"),
                                            ("game.yaml", "manifest"),
                                            ("glossary.yaml", "glossary"),
                                            ("locales/ru.po", "catalog")])
def test_a_200_mb_file_is_refused_by_its_size(cwnb, name, kind):
    with open(cwnb / name, "r+b") as handle:
        handle.truncate(200 * limits.MiB)  # sparse: nothing is written, nothing is read
    if name == "game.yaml":
        findings = validate(cwnb).findings
    else:
        from generator.pipeline.localecheck import check_locale
        result = validate(cwnb)
        findings = result.findings + (check_locale(result.card_set, result.game, "ru",
                                                   layout=False) if result.card_set else [])
    finding = the(findings, "file-too-large")
    assert Path(finding.location.file).name == Path(name).name
    assert str(limits.FILE_BYTES[kind]) in finding.message


# --- PO catalogs and the glossary -------------------------------------------------------------

def ru_findings(pack: Path) -> list[Finding]:
    from generator.pipeline.localecheck import check_locale

    result = validate(pack)
    assert result.card_set is not None
    return check_locale(result.card_set, result.game, "ru", layout=False)


@pytest.mark.parametrize(("text", "code", "line"), [
    ('msgid ""\nmsgstr ""\n\nmsgid "a\nmsgstr "b"\n', "po-syntax", 4),
    ('msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr "b"\nnonsense\n', "po-syntax", 6),
    ('msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgstr "b"\n"c"d"\n', "po-syntax", 6),
    ('msgid ""\nmsgstr "Content-Type: text/plain; charset=BOGUS\\n"\n', "po-charset", 2),
])
def test_broken_catalogs_are_located_findings(cwnb, text, code, line):
    (cwnb / "locales" / "ru.po").write_text(text, encoding="utf-8")
    finding = the(ru_findings(cwnb), code)
    assert where(finding)[:2] == ("ru.po", line)


def test_charset_header_that_contradicts_the_bytes_stops_the_build(cwnb, tmp_path):
    po = cwnb / "locales" / "ru.po"
    po.write_bytes(po.read_bytes().replace(b"charset=UTF-8", b"charset=ISO-8859-1"))
    finding = the(ru_findings(cwnb), "po-charset-mismatch")
    assert where(finding)[0] == "ru.po" and where(finding)[1] > 0
    result = run_pnp("build", str(cwnb), "--locale", "ru", "--out", str(tmp_path / "out"))
    assert_clean_exit(result, 1)
    assert not (tmp_path / "out").exists()  # no mojibake deck


def test_bytes_that_are_not_the_declared_utf8_are_located(cwnb):
    po = cwnb / "locales" / "ru.po"
    po.write_bytes(po.read_bytes().replace("Атака".encode(), "Атака".encode("koi8-r"), 1))
    finding = the(ru_findings(cwnb), "not-utf8")
    assert where(finding)[1] > 1 and where(finding)[2] >= 1


@pytest.mark.parametrize("filler", ["word ", "w"])
def test_a_msgstr_as_large_as_a_catalog_may_be_is_refused_without_memory_blow_up(cwnb, filler):
    """Up to the catalog size limit: one 8 MB line took 1 GiB in the regex that checks its
    quotes (Python's re keeps state for each repetition); it is measured first now."""
    po = cwnb / "locales" / "ru.po"
    text = po.read_text(encoding="utf-8") + '\nmsgctxt "x"\nmsgid "y"\nmsgstr "'
    room = limits.FILE_BYTES["catalog"] - len(text.encode("utf-8")) - 2
    po.write_text(text + filler * (room // len(filler)) + '"\n', encoding="utf-8")
    assert po.stat().st_size > limits.FILE_BYTES["catalog"] - 8
    result = run_limited("validate", str(cwnb), "--locale", "ru", "--format", "json")
    assert_clean_exit(result, 1)
    (finding,) = [f for f in json.loads(result.stdout)["findings"]
                  if f["code"] == "string-too-long"]
    assert finding["line"] > 1


def test_a_message_over_many_lines_is_refused_before_polib_joins_them(cwnb):
    po = cwnb / "locales" / "ru.po"
    lines = '"abcdefgh"\n' * 400_000  # 4.4 MB in one message: polib took 133 s
    po.write_text(po.read_text(encoding="utf-8") + f'\nmsgid "y"\nmsgstr ""\n{lines}',
                  encoding="utf-8")
    finding = the(ru_findings(cwnb), "string-too-long")
    assert where(finding)[1] > 1


@pytest.mark.parametrize(("text", "code"), [
    ("terms: [{en: x, ru: 5}]\n", "bad-value"),
    ("terms: 7\n", "wrong-type"),
    ("- a\n- b\n", "not-a-mapping"),
    ("terms: [{ru: [a]}]\n", "missing-field"),
    ("terms: [{en: x, ru: [a], colour: red}]\n", "unknown-field"),
])
def test_broken_glossaries_are_located_findings(cwnb, text, code):
    (cwnb / "glossary.yaml").write_text(text, encoding="utf-8")
    finding = the(ru_findings(cwnb), code)
    assert where(finding)[0] == "glossary.yaml" and where(finding)[1] >= 1


def test_an_alias_bomb_in_the_glossary_is_refused(cwnb):
    lines = ["a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    (cwnb / "glossary.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert where(the(ru_findings(cwnb), "yaml-too-large"))[0] == "glossary.yaml"


def test_glossary_check_scales_with_text_not_terms_times_texts(cwnb):
    from generator.i18n.glossary import read_glossary

    entries = "".join(f"  - {{en: term{i}, ru: [t{i}]}}\n"
                      for i in range(limits.MAX_GLOSSARY_TERMS))
    (cwnb / "glossary.yaml").write_text("terms:\n" + entries, encoding="utf-8")
    terms = read_glossary(cwnb).terms("ru")
    assert len(terms) == limits.MAX_GLOSSARY_TERMS
    assert {t.source for t in terms.used_in("use Term7 and term1999, not term19x")} == \
        {"term7", "term1999"}
    (cwnb / "glossary.yaml").write_text("terms:\n" + entries + "  - {en: one, ru: [more]}\n",
                                        encoding="utf-8")
    read_glossary.cache_clear()
    assert "too-many-terms" in codes(ru_findings(cwnb))


# --- one loader, one policy: links, pipes, unreadable files ----------------------------------

def test_a_dangling_card_file_is_reported_not_skipped(cwnb):
    (cwnb / "ships.yaml").unlink()
    (cwnb / "ships.yaml").symlink_to("gone.yaml")
    finding = the(validate(cwnb).findings, "broken-link")
    assert Path(finding.location.file).name == "ships.yaml"


def test_a_named_pipe_is_refused_without_blocking(cwnb):
    os.mkfifo(cwnb / "fleet.yaml")
    (cwnb / "more").mkdir()
    os.mkfifo(cwnb / "more" / "ships.yml")
    findings = validate(cwnb).findings
    assert [(f.code, Path(f.location.file).name) for f in findings] == [
        ("not-a-file", "fleet.yaml"), ("not-a-file", "ships.yml")]


def test_links_inside_the_pack_are_read_and_links_outside_refused(cwnb, tmp_path):
    (cwnb / "store").mkdir()
    shutil.move(cwnb / "ships.yaml", cwnb / "store" / "ships.txt")
    (cwnb / "ships.yaml").symlink_to("store/ships.txt")  # a link inside the pack: read
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "x.yaml").write_text("cards: []\n", encoding="utf-8")
    (cwnb / "linked-out").symlink_to(outside)
    (cwnb / "loop").symlink_to(".")
    result = validate(cwnb)
    assert codes(result.findings) == ["link-loop", "path-escape"]
    assert len(result.card_set.cards) == len(validate(CWNB).card_set.cards)


@pytest.mark.parametrize("name", ["game.yaml", "glossary.yaml", "locales/ru.po"])
def test_pack_files_linking_outside_are_refused(cwnb, tmp_path, name):
    secret = tmp_path / "secret"
    secret.write_bytes((cwnb / name).read_bytes())
    (cwnb / name).unlink()
    (cwnb / name).symlink_to(secret)
    if name == "game.yaml":
        findings = validate(cwnb).findings
    else:
        result = validate(cwnb)
        findings = result.findings + ru_findings(cwnb)
    assert "path-escape" in codes(findings)


def test_an_unreadable_card_file_and_folder_are_findings(cwnb, monkeypatch):
    (cwnb / "sub").mkdir()
    (cwnb / "sub" / "more.yaml").write_text("cards: []\n", encoding="utf-8")
    real_open, real_scandir = os.open, os.scandir

    def denied_open(path, *args, **kwargs):
        if str(path).endswith("ships.yaml"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    def denied_scandir(path="."):
        if str(path).endswith(os.sep + "sub"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "open", denied_open)  # root reads anything: simulate the refusal
    monkeypatch.setattr(os, "scandir", denied_scandir)
    findings = validate(cwnb).findings
    assert sorted((f.code, Path(f.location.file).name) for f in findings) == [
        ("unreadable", "ships.yaml"), ("unreadable", "sub")]
    assert all("Permission denied" in f.message for f in findings)


def test_the_same_pack_given_twice_is_read_once(tmp_path):
    result = validate(CWNB, (EXPANSION, EXPANSION, Path(str(EXPANSION) + "/"), CWNB))
    assert len(result.card_set.expansions) == 1
    assert [f.code for f in result.findings if f.severity == "warning"].count(
        "pack-given-twice") == 3
    ids = [card.id for card in result.card_set.cards]
    assert len(ids) == len(set(ids))


# --- names that end in a newline -------------------------------------------------------------

GAME = "pack: {pack}\ngame: cwnb\nname: T\nsource_locale: en\nlocales: {locales}\n" \
       "set_mark: anchor\n"


@pytest.mark.parametrize(("ships", "game", "field"), [
    ("cards:\n" + SHIP.format(id='"ship-a\\n"'), GAME.format(pack="p", locales="[en]"), "id"),
    ("cards: []\n", GAME.format(pack='"p\\n"', locales="[en]"), "pack"),
    ("cards: []\n", GAME.format(pack="p", locales='[en, "ru\\n"]'), "locales"),
])
def test_ids_packs_and_locales_may_not_end_in_a_newline(tmp_path, ships, game, field):
    pack = write_pack(tmp_path / "p", {"ships.yaml": ships}, game)
    finding = the(validate(pack).findings, "bad-format")
    assert f"'{field}'" in finding.message
    assert "\\n" in finding.message and "\\Z" not in finding.message  # shown as ECMA: $


# --- options ---------------------------------------------------------------------------------

@pytest.mark.parametrize("option", [["--back-offset", "nan,nan"], ["--back-offset", "inf,0"],
                                    ["--back-offset", "1,2,3"], ["--bleed", "nan"],
                                    ["--margin", "nan"], ["--gutter", "inf"],
                                    ["--margin", "-1"]])
def test_non_finite_or_out_of_range_options_are_usage_errors(tmp_path, option):
    result = run_pnp("build", str(CWNB), *option, "--out", str(tmp_path / "out"))
    assert_clean_exit(result, 2)
    assert f"Error: Invalid value for '{option[0]}': " in result.stderr  # named, with what is wrong
    assert not (tmp_path / "out").exists()


# --- safe writes -----------------------------------------------------------------------------

def test_i18n_update_that_cannot_write_keeps_the_catalog_whole(cwnb, monkeypatch):
    from generator.core.errors import UsageError
    from generator.i18n.catalogs import pack_messages, update
    from generator.pipeline.pack import load_pack
    from generator.runtime import safewrite

    po = cwnb / "locales" / "ru.po"
    before = po.read_bytes()

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(safewrite.os, "fsync", disk_full)
    pack = load_pack(cwnb).pack
    with pytest.raises(UsageError, match="No space left"):
        update(pack, pack_messages(pack, include_labels=True))
    assert po.read_bytes() == before
    assert sorted(p.name for p in po.parent.iterdir()) == sorted(
        p.name for p in (CWNB / "locales").iterdir())


def test_i18n_update_refuses_to_overwrite_a_broken_catalog(cwnb):
    po = cwnb / "locales" / "ru.po"
    po.write_text(po.read_text(encoding="utf-8") + "\nbroken line\n", encoding="utf-8")
    before = po.read_bytes()
    result = run_pnp("i18n", "update", str(cwnb))
    assert_clean_exit(result, 1)
    assert "ru.po:" in result.stderr and "po-syntax" in result.stderr
    assert po.read_bytes() == before


def test_leftovers_of_killed_builds_are_removed_carefully(tmp_path):
    from generator.runtime.outdir import atomic_folder

    parent = tmp_path / "out"
    parent.mkdir()
    stale = [parent / ".a4.tmp-dead1", parent / ".a4.old-dead2"]
    for folder in stale:
        (folder / "sub").mkdir(parents=True)
        (folder / "sub" / "fronts.pdf").write_bytes(b"%PDF")
        os.chmod(folder / "sub", 0o555)  # a read-only old output
    foreign = parent / ".a4.tmp-notours"
    foreign.mkdir()
    if os.getuid() == 0:  # only root can give a folder away: then it is not ours to remove
        os.chown(foreign, 12345, -1)
    keep = tmp_path / "keep"
    keep.mkdir()
    (parent / ".a4.tmp-link").symlink_to(keep)
    (parent / ".letter.tmp-other").mkdir()
    with atomic_folder(parent / "a4") as scratch:
        (scratch / "x").write_text("new", encoding="utf-8")
    left = sorted(p.name for p in parent.iterdir())
    expected = [".a4.tmp-link", ".letter.tmp-other", "a4"]
    if os.getuid() == 0:
        expected.insert(1, ".a4.tmp-notours")
    assert left == expected
    assert keep.is_dir()


def test_a_build_killed_while_writing_is_cleaned_up_by_the_next(tmp_path):
    out = tmp_path / "out"
    target = out / "cwnb" / "en" / "a4"
    process = subprocess.Popen([sys.executable, "-m", "generator", "build", str(CWNB), "--out",
                                str(out), "-q"], cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if target.parent.is_dir() and any(p.name.startswith(".a4.tmp-")
                                          for p in target.parent.iterdir()):
            process.send_signal(signal.SIGKILL)
            break
        time.sleep(0.01)
    process.wait()
    if process.returncode == 0:
        pytest.skip("the build finished before it could be killed")
    assert any(p.name.startswith(".a4.tmp-") for p in target.parent.iterdir())
    result = run_pnp("build", str(CWNB), "--out", str(out), "-q")
    assert_clean_exit(result, 0)
    assert sorted(p.name for p in target.parent.iterdir()) == ["a4"]


def test_concurrent_swaps_into_one_folder_all_succeed_and_it_never_goes_missing(tmp_path):
    import threading

    from generator.runtime.outdir import atomic_folder

    target = tmp_path / "out" / "a4"
    with atomic_folder(target) as scratch:
        (scratch / "n").write_text("0", encoding="utf-8")
    missing: list[int] = []
    failed: list[BaseException] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if not target.is_dir():
                missing.append(1)

    def build(n: int) -> None:
        try:
            for _ in range(40):
                with atomic_folder(target) as scratch:
                    (scratch / "n").write_text(str(n), encoding="utf-8")
        except BaseException as exc:  # was: both removed the swapped-out folder at once
            failed.append(exc)

    watcher = threading.Thread(target=watch)
    watcher.start()
    builders = [threading.Thread(target=build, args=(n,)) for n in (1, 2)]
    for thread in builders:
        thread.start()
    for thread in builders:
        thread.join()
    done.set()
    watcher.join()
    assert not failed and not missing
    assert (target / "n").read_text(encoding="utf-8") in {"1", "2"}
    assert sorted(p.name for p in target.parent.iterdir()) == ["a4"]


def test_the_folder_a_build_swapped_out_is_left_to_that_build(tmp_path, monkeypatch):
    """Another build starting while this one removes the previous output must not remove it
    too (both removing one tree made rmtree fail in one of them)."""
    from generator.runtime import outdir

    target = tmp_path / "out" / "a4"
    with outdir.atomic_folder(target) as scratch:
        (scratch / "n").write_text("old", encoding="utf-8")
    taken_by_another: list[list[Path]] = []
    remove_tree = outdir._remove_tree

    def another_build_starts_first(path: Path) -> None:
        taken_by_another.append(outdir.remove_leftovers(target))
        remove_tree(path)

    monkeypatch.setattr(outdir, "_remove_tree", another_build_starts_first)
    with outdir.atomic_folder(target) as scratch:
        (scratch / "n").write_text("new", encoding="utf-8")
    assert taken_by_another == [[]]
    assert sorted(p.name for p in target.parent.iterdir()) == ["a4"]
    assert (target / "n").read_text(encoding="utf-8") == "new"


def test_two_builds_into_one_out_both_succeed(tmp_path):
    out = tmp_path / "out"
    command = [sys.executable, "-m", "generator", "build", str(CWNB), "--out", str(out), "-q"]
    processes = [subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, text=True)
                 for _ in range(2)]
    for process in processes:
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
    assert sorted(p.name for p in (out / "cwnb" / "en").iterdir()) == ["a4"]


# --- validate agrees with build --------------------------------------------------------------

def test_plain_validate_reports_a_glyph_that_build_would_stop_on(cwnb, tmp_path):
    ships = cwnb / "ships.yaml"
    ships.write_text(ships.read_text(encoding="utf-8").replace("Kiev", "Kiev \u4e2d", 1),
                     encoding="utf-8")
    validated = run_pnp("validate", str(cwnb), "--format", "json")
    assert_clean_exit(validated, 1)
    (finding,) = [f for f in json.loads(validated.stdout)["findings"]
                  if f["code"] == "missing-glyph"]
    assert finding["line"] > 0 and finding["file"].endswith("ships.yaml")
    built = run_pnp("build", str(cwnb), "--out", str(tmp_path / "out"))
    assert_clean_exit(built, 1)
    assert "missing-glyph" in built.stderr


# --- findings have positions ----------------------------------------------------------------

def test_label_translation_findings_point_at_the_label(cwnb):
    po = cwnb / "locales" / "ru.po"
    text = po.read_text(encoding="utf-8")
    start = text.index('msgctxt "label"')
    entry_end = text.index("\n\n", start)
    po.write_text(text[:start] + text[entry_end + 2:], encoding="utf-8")
    labels = [f for f in ru_findings(cwnb) if f.code == "missing-translation" and f.card is None]
    assert labels
    assert all(f.location.line > 0 and f.location.column > 0 for f in labels)


# --- bounded time and memory ----------------------------------------------------------------

def test_text_fitting_work_grows_linearly_with_a_long_word(monkeypatch):
    from generator.layout import textfit

    measured: list[int] = []
    real = textfit.string_width_mm

    def counting(text: str, style: str, size: float) -> float:
        measured.append(len(text))
        return real(text, style, size)

    monkeypatch.setattr(textfit, "string_width_mm", counting)
    work = []
    for n in (2_800, 5_600):
        measured.clear()
        textfit.fit_text.cache_clear()
        fitted = textfit.fit_text(("противолодочная" * 1000)[:n], 50.0, 20.0, "regular", 8.0,
                                  6.0, "ru")
        assert not fitted.fits
        work.append(sum(measured))
    assert work[1] <= 2.5 * work[0]  # linear (it was cubic: 23 s, then 158 s)


def test_text_fitting_work_is_bounded_by_the_box_for_long_texts(monkeypatch):
    from generator.layout import textfit

    counts: list[int] = []
    real = textfit._Measurer.pieces

    def counting(self, word):
        counts.append(1)
        return real(self, word)

    monkeypatch.setattr(textfit._Measurer, "pieces", counting)
    words = []
    for n in (1_000, 5_000):
        counts.clear()
        textfit.fit_text.cache_clear()
        fitted = textfit.fit_text(" ".join(["слово"] * n), 50.0, 20.0, "regular", 8.0, 6.0,
                                  "ru")
        assert not fitted.fits and fitted.overflow_mm > 100
        words.append(len(counts))
    assert words[1] == words[0]  # the box's capacity, not the text's length


def test_a_huge_release_size_stays_within_a_gibibyte(tmp_path):
    pack = Path(shutil.copytree(COMMANDER, tmp_path / "commander"))
    game = pack / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("release_size: 71",
                                                             "release_size: 100000000"),
                    encoding="utf-8")
    result = run_limited("validate", str(pack), "--format", "json")
    assert_clean_exit(result, 1)
    assert "commander-serial-total" in result.stdout


def test_card_and_copy_limits_are_findings(make_pack, monkeypatch):
    from generator.pipeline import validate as validate_module

    text = "cards:\n" + "".join(SHIP.format(id=f"s{i}") for i in range(5))
    pack = make_pack({"ships.yaml": text})
    monkeypatch.setattr(validate_module, "MAX_CARDS", 4)
    assert "too-many-cards" in codes(validate(pack).findings)
    monkeypatch.setattr(validate_module, "MAX_CARDS", 100)
    monkeypatch.setattr(validate_module, "MAX_COPIES", 4)
    assert "too-many-copies" in codes(validate(pack).findings)


def test_a_pack_pattern_cannot_make_validation_backtrack_forever(tmp_path):
    pack = Path(shutil.copytree(ROOT / "cards" / "rockpool", tmp_path / "rockpool"))
    game = pack / "game.yaml"
    text = game.read_text(encoding="utf-8")
    marker = "name: {type: string, x-translate: true, minLength: 1, maxLength: 30}"
    assert marker in text
    game.write_text(text.replace(marker, marker[:-1] + ', pattern: "^(a|a)*$"}', 1),
                    encoding="utf-8")
    creatures = pack / "creatures.yaml"
    lines = creatures.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("name:"))
    indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
    lines[first] = f"{indent}name: {'a' * 28}b\n"  # exponential for a backtracking matcher
    creatures.write_text("".join(lines), encoding="utf-8")
    result = run_limited("validate", str(pack), "--format", "json", timeout=120)
    assert_clean_exit(result, 1)
    bad = [f for f in json.loads(result.stdout)["findings"] if f["code"] == "bad-format"]
    assert any(f["line"] == first + 1 and "a" * 28 in f["message"] for f in bad)


def test_a_pack_pattern_with_lookaround_is_refused_once_where_it_is_written(tmp_path):
    pack = Path(shutil.copytree(ROOT / "cards" / "rockpool", tmp_path / "rockpool"))
    game = pack / "game.yaml"
    text = game.read_text(encoding="utf-8")
    marker = "name: {type: string, x-translate: true, minLength: 1, maxLength: 30}"
    game.write_text(text.replace(marker, marker[:-1] + r', pattern: "^(?=a)(a*)\\1$"}', 1),
                    encoding="utf-8")
    line = next(i for i, row in enumerate(game.read_text(encoding="utf-8").splitlines(), 1)
                if "(?=a)" in row)
    result = run_limited("validate", str(pack), "--format", "json", timeout=120)
    assert_clean_exit(result, 1)
    bad = [f for f in json.loads(result.stdout)["findings"] if f["code"] == "bad-kind-schema"]
    assert len(bad) == 1 and bad[0]["line"] == line, bad
    assert "lookaround or a backreference" in bad[0]["message"]


@pytest.fixture
def rockpool(tmp_path: Path) -> Path:
    """A writable copy of the shipped data game (CSV cards, SVG icons, pack templates)."""
    return Path(shutil.copytree(ROOT / "cards" / "rockpool", tmp_path / "rockpool"))


def test_an_svg_icon_with_an_infinite_coordinate_stops_the_build_by_name(rockpool, tmp_path):
    icon = rockpool / "icons" / "rocks.svg"
    icon.write_text(icon.read_text(encoding="utf-8").replace("M4 92", "M4 1e999", 1),
                    encoding="utf-8")
    result = run_pnp("build", str(rockpool), "--out", str(tmp_path / "out"), "-q")
    # was: internal error while the sheet was written; then exit 2 when it was drawn; now
    # validation finds it, where the template places the icon
    assert_clean_exit(result, 1)
    assert "'rocks.svg' is not a readable SVG: the number 1e999 in it is too large" in \
        result.stderr
    assert not [p for p in (tmp_path / "out").rglob("*") if p.is_file()]  # nothing half-written


def test_art_that_only_drawing_finds_wrong_stops_naming_the_file():
    """What validation cannot see in an SVG still stops the output with the file's name."""
    from generator.core.errors import UsageError
    from generator.render.pdf import drawing_art

    with pytest.raises(UsageError, match=r"icons/rocks\.svg: this SVG cannot be drawn \(a "
                       r"number in it is infinite or not a number\)"), \
            drawing_art(str(ROOT / "cards" / "rockpool" / "icons" / "rocks.svg")):
        raise ValueError("_fp_one failed in _fp_str")


@pytest.mark.parametrize(("tail", "code", "line", "column"), [
    ('"unclosed,quote\n', "bad-csv", 12, 1),
    ("x," * 600 + "\n", "table-too-large", 12, 501),
    ("a," + "W" * 20_000 + "\n", "string-too-long", 12, 2),
])
def test_csv_problems_are_located_by_row_and_column(rockpool, tail, code, line, column):
    table = rockpool / "tides.csv"
    text = table.read_text(encoding="utf-8")
    assert text.count("\n") == 11  # header + 10 tides: the attack is row 12
    table.write_text(text + tail, encoding="utf-8")
    finding = the(validate(rockpool).findings, code)
    assert where(finding) == ("tides.csv", line, column)


# --- a data game's art, icons, fonts, templates and tables: the same pack file policy ----------

def _validate_json(pack: Path, *extra: str) -> list[dict]:
    result = run_limited("validate", str(pack), "--format", "json", *extra)
    assert_clean_exit(result, 1)
    return json.loads(result.stdout)["findings"]


def _at(findings: list[dict], code: str) -> list[tuple[str, int, int, str]]:
    return [(Path(f["file"]).name, f["line"], f["column"], f["message"]) for f in findings
            if f["code"] == code]


def test_a_named_pipe_as_art_is_named_at_the_card_and_never_opened(rockpool):
    art = rockpool / "art" / "creatures" / "chiton.svg"
    art.unlink()
    os.mkfifo(art)  # a blocking open would hang validate here
    findings = _validate_json(rockpool)
    [(name, line, column, message)] = [f for f in _at(findings, "not-a-file")
                                       if f[0] == "creatures.yaml"]
    assert (name, line, column) == ("creatures.yaml", 86, 10)  # the chiton's art: field
    assert "'art/creatures/chiton.svg' is a named pipe" in message
    assert not any("no such file" in f["message"] for f in findings)
    assert _at(findings, "not-a-file")[0][:3] == ("chiton.svg", 0, 0)  # and the file itself


def test_a_dangling_link_as_icon_is_named_where_a_text_uses_it(rockpool):
    icon = rockpool / "icons" / "pearl.svg"
    icon.unlink()
    icon.symlink_to("gone.svg")
    # with a locale the faces are laid out too (this was an IndexError there)
    findings = _validate_json(rockpool, "--locale", "de")
    uses = _at(findings, "unknown-icon")
    assert uses and all(name == "creatures.yaml" and line > 0 for name, line, _, _ in uses)
    assert all("'icons/pearl.svg' is a link to 'gone.svg', which does not exist" in message
               for *_, message in uses)
    assert [f[:3] for f in _at(findings, "broken-link")] == [("pearl.svg", 0, 0)]


def test_an_icon_that_is_no_svg_is_reported_not_drawn_as_nothing(rockpool):
    (rockpool / "icons" / "pearl.svg").write_text("not an svg\n", encoding="utf-8")
    uses = _at(_validate_json(rockpool), "unknown-icon")
    assert uses and all("'pearl.svg' is not a readable SVG" in message for *_, message in uses)


def _font_line(pack: Path) -> int:
    """The line of game.yaml that names Rockpool's font file."""
    lines = (pack / "game.yaml").read_text(encoding="utf-8").split("\n")
    return next(n for n, line in enumerate(lines, 1) if "fonts/Marcellus-Regular.ttf" in line
                and not line.lstrip().startswith("#"))


def test_a_font_linking_to_etc_passwd_is_refused_unread(rockpool):
    font = rockpool / "fonts" / "Marcellus-Regular.ttf"
    font.unlink()
    font.symlink_to("/etc/passwd")
    findings = _validate_json(rockpool)
    [(name, line, column, message)] = _at(findings, "bad-font")
    assert (name, line, column) == ("game.yaml", _font_line(rockpool), 10)
    assert "links outside the pack folder" in message
    assert [f[:3] for f in _at(findings, "path-escape")] == [("Marcellus-Regular.ttf", 0, 0)]


def test_a_named_pipe_as_font_or_template_says_what_it_is(rockpool):
    for path in (rockpool / "fonts" / "Marcellus-Regular.ttf",
                 rockpool / "templates" / "goal.yaml"):
        path.unlink()
        os.mkfifo(path)
    findings = _validate_json(rockpool)
    messages = {f["code"]: (Path(f["file"]).name, f["line"], f["message"]) for f in findings}
    assert messages["bad-font"][:2] == ("game.yaml", _font_line(rockpool))
    lines = (rockpool / "game.yaml").read_text(encoding="utf-8").split("\n")
    assert messages["missing-template"][:2] == (
        "game.yaml", next(n for n, line in enumerate(lines, 1) if line == "    front: goal"))
    for code in ("bad-font", "missing-template"):
        assert "is a named pipe, not a regular file" in messages[code][2]


def test_an_unreadable_csv_table_is_a_finding_not_a_silent_loss(rockpool, monkeypatch):
    real_open = os.open

    def denied_open(path, *args, **kwargs):
        if str(path).endswith("tides.csv"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", denied_open)  # root reads anything: simulate the refusal
    result = validate(rockpool)
    finding = the(result.findings, "unreadable")
    assert Path(finding.location.file).name == "tides.csv"
    assert "Permission denied" in finding.message
    assert not [c for c in result.card_set.cards if c.kind == "tide"]


@pytest.mark.parametrize(("name", "text", "code", "line"), [
    ("labels.yaml", "- [a\n", "yaml-syntax", 2),
    ("labels.yaml", "- a\n- b\n", "bad-labels", 1),
    ("labels.yaml", "tide: [1, 2]\n", "bad-labels", 1),
    ("unused.yaml", "elements: [\n", "yaml-syntax", 2),
])
def test_template_files_no_kind_draws_are_read_and_checked(rockpool, name, text, code, line):
    """pnp i18n reads the labels of every template and of labels.yaml: a broken one was an
    internal error (or, a named pipe, a hang) in validate --locale and i18n."""
    (rockpool / "templates" / name).write_text(text, encoding="utf-8")
    for command in (("validate", str(rockpool), "--locale", "de"),
                    ("i18n", "extract", str(rockpool))):
        result = run_limited(*command)
        assert_clean_exit(result, 1)
        assert f"templates/{name}:{line}:" in result.stdout + result.stderr, result.stdout
        assert f"error[{code}]" in result.stdout + result.stderr


def test_a_named_pipe_among_the_templates_does_not_block_i18n(rockpool):
    os.mkfifo(rockpool / "templates" / "extra.yaml")
    for command in (("validate", str(rockpool), "--locale", "de"),
                    ("i18n", "extract", str(rockpool))):
        result = run_limited(*command)
        assert_clean_exit(result, 1)
        assert "extra.yaml: error[not-a-file]: this file is a named pipe" in \
            result.stdout + result.stderr


# --- XLSX: cells, rows and columns bounded before openpyxl holds them -------------------------

TIDE_HEADER = ["id", "kind", "name", "level", "range", "moon", "habitat", "shift", "text", "art"]
TIDE_ROW = ["slack", "tide", "Slack Water", "low", "neap", "first-quarter", None, None,
            "Nothing moves.", "art/moon-new.svg"]


def _inline_row(number: int, values: list[object]) -> str:
    from generator.datagame.tables import column_letter

    cells = "".join(f'<c r="{column_letter(i)}{number}" t="inlineStr"><is><t>{v}</t></is></c>'
                    for i, v in enumerate(values, start=1) if v is not None)
    return f'<row r="{number}">{cells}</row>'


def _workbook(path: Path, sheet_data: str, dimension: str = "A1:J2") -> Path:
    """A real workbook (openpyxl writes it) whose sheet XML is then replaced by ours."""
    import zipfile

    from openpyxl import Workbook

    workbook = Workbook()
    workbook.active.title = "Tides"
    workbook.active.append(TIDE_HEADER)
    workbook.save(path)
    xml = ('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats'
           f'.org/spreadsheetml/2006/main"><dimension ref="{dimension}"/><sheetData>'
           f'{sheet_data}</sheetData></worksheet>').encode()
    with zipfile.ZipFile(path) as source:
        parts = {info.filename: source.read(info) for info in source.infolist()}
    parts["xl/worksheets/sheet1.xml"] = xml
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in parts.items():
            target.writestr(name, data)
    return path


def test_the_hand_made_workbook_reads_as_cards(rockpool):
    _workbook(rockpool / "more.xlsx", _inline_row(1, TIDE_HEADER) + _inline_row(2, TIDE_ROW))
    result = validate(rockpool)
    assert "slack" in {card.id for card in result.card_set.cards}  # the attacks below are real


def test_an_xlsx_cell_over_the_text_limit_is_located_at_its_sheet_row_and_column(rockpool):
    row = [*TIDE_ROW[:8], "W" * (limits.MAX_STRING_CHARS + 1), TIDE_ROW[9]]
    _workbook(rockpool / "more.xlsx", _inline_row(1, TIDE_HEADER) + _inline_row(2, TIDE_ROW)
              + _inline_row(3, row))
    finding = the(validate(rockpool).findings, "string-too-long")
    assert (finding.location.file.endswith("more.xlsx[Tides]"), finding.location.line,
            finding.location.column) == (True, 3, 9)


def test_a_declared_huge_dimension_and_a_far_row_are_bounded(rockpool):
    """``A1:ZZZ1048576`` would pad every row to 18,278 cells; a row at 1,048,576 would be
    reached through a million empty ones: the rows are cut at the ceiling, located."""
    _workbook(rockpool / "more.xlsx", _inline_row(1, TIDE_HEADER) + _inline_row(2, TIDE_ROW)
              + _inline_row(1_048_576, TIDE_ROW), dimension="A1:ZZZ1048576")
    result = run_limited("validate", str(rockpool), "--format", "json")
    assert_clean_exit(result, 1)
    [finding] = [f for f in json.loads(result.stdout)["findings"]
                 if f["code"] == "table-too-large"]
    assert (finding["file"].endswith("more.xlsx[Tides]"), finding["line"],
            finding["column"]) == (True, limits.MAX_TABLE_ROWS + 1, 1)


def test_an_xlsx_row_wider_than_the_limit_is_located(rockpool):
    far = '<c r="ZZ3" t="inlineStr"><is><t>x</t></is></c>'  # column 702
    _workbook(rockpool / "more.xlsx", _inline_row(1, TIDE_HEADER) + _inline_row(2, TIDE_ROW)
              + f'<row r="3">{far}</row>')
    finding = the(validate(rockpool).findings, "table-too-large")
    assert (finding.location.line, finding.location.column) == (3, limits.MAX_TABLE_COLUMNS + 1)


def test_a_workbook_of_millions_of_cells_is_refused_before_openpyxl_holds_a_row(rockpool):
    """One row of two million empty cells unpacks to 8 MB of XML, well within the limit, but
    openpyxl would build every cell of the row in memory before handing it over."""
    _workbook(rockpool / "more.xlsx", _inline_row(1, TIDE_HEADER) + '<row r="2">'
              + "<c/>" * 2_000_000 + "</row>")
    result = run_limited("validate", str(rockpool), "--format", "json")
    assert_clean_exit(result, 1)
    [finding] = [f for f in json.loads(result.stdout)["findings"]
                 if f["code"] == "table-too-large"]
    assert finding["file"].endswith("more.xlsx")
    assert f"the limit is {limits.MAX_TABLE_CELLS}" in finding["message"]


# --- pnp schema --out: atomic writes -----------------------------------------------------------

def test_schema_out_is_written_atomically_and_a_failed_write_keeps_the_old_files(
        tmp_path, monkeypatch, capsys):
    from generator.cli.main import main
    from generator.runtime import safewrite

    out = tmp_path / "schemas"
    assert_clean_exit(run_pnp("schema", str(CWNB), "--out", str(out)), 0)
    (out / "card-file.schema.json").write_text("an older schema\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(safewrite.os, "fsync", disk_full)
    monkeypatch.setattr(sys, "argv", ["pnp", "schema", str(CWNB), "--out", str(out)])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    assert "cannot write schemas: No space left on device" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # no temp file left
    monkeypatch.undo()
    assert_clean_exit(run_pnp("schema", str(CWNB), "--out", str(out)), 0)
    assert (out / "card-file.schema.json").read_bytes() != before["card-file.schema.json"]
    assert sorted(p.name for p in out.iterdir()) == sorted(before)


def test_schema_out_through_a_file_is_a_usage_error(tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    result = run_pnp("schema", str(CWNB), "--out", str(tmp_path / "file" / "schemas"))
    assert_clean_exit(result, 2)
    assert "cannot write schemas: Not a directory" in result.stderr


def test_a_locale_option_with_a_trailing_newline_is_named_not_suggested(tmp_path):
    """It used to be suggested back: run pnp i18n update --locale 'ru<newline>'."""
    result = run_pnp("validate", str(CWNB), "--locale", "ru\n")
    assert_clean_exit(result, 2)
    assert "'ru\\n' is not a language code" in result.stderr
    assert "i18n update" not in result.stderr


_SVG_HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
             'viewBox="0 0 200 140" width="200" height="140">')


@pytest.mark.parametrize(("body", "said"), [
    ('<defs><path id="u0" d="M0 0 L9 9"/>' + "".join(
        f'<g id="u{i}">' + f'<use xlink:href="#u{i - 1}"/>' * 10 + "</g>" for i in range(1, 9))
     + '</defs><use xlink:href="#u8"/>', "draw more than 1000 copies"),  # 10^8: 9 s, cut short
    ("<g>" * 100_000 + '<circle r="5"/>' + "</g>" * 100_000, "more than 200 levels deep"),
    ('<g id="a"><circle r="5"/><use href="#a"/></g>', "which contains it"),
])
def test_svg_art_svglib_would_draw_in_part_or_forever_is_refused_at_the_card(rockpool, body,
                                                                             said):
    """svglib printed such art cut short (libxml2 stops at 256 levels; 10,000 <use> copies)
    with only a log line, and build exited 0: validation refuses it where the card names it."""
    (rockpool / "art" / "creatures" / "chiton.svg").write_text(_SVG_HEAD + body + "</svg>\n",
                                                               encoding="utf-8")
    finding = the(validate(rockpool).findings, "art-unreadable")
    assert where(finding) == ("creatures.yaml", 86, 10) and said in finding.message


@pytest.mark.parametrize(("value", "prop"), [
    ("'}'", "min_size"),               # was: ValueError in the layout (internal error)
    ("1000000000", "size"),            # would make text fitting try two billion sizes
    ("-3", "stroke_width"), ("true", "radius"), (".nan", "size"),
])
def test_a_template_number_out_of_range_is_located_not_laid_out(rockpool, value, prop):
    template = rockpool / "templates" / "tide.yaml"
    text = template.read_text(encoding="utf-8")
    anchor = "size: 9.5, min_size: 7," if prop in {"size", "min_size"} else \
        "stroke_width: 0.6,\n     radius: 2.0}"
    assert anchor in text
    edited = {"size": f"size: {value}, min_size: 7,", "min_size": f"size: 9.5, min_size: {value},",
              "stroke_width": f"stroke_width: {value},\n     radius: 2.0}}",
              "radius": f"stroke_width: 0.6,\n     radius: {value}}}"}[prop]
    template.write_text(text.replace(anchor, edited, 1), encoding="utf-8")
    result = run_limited("validate", str(rockpool), "--locale", "de", "--format", "json")
    assert_clean_exit(result, 1)
    found = [f for f in json.loads(result.stdout)["findings"]
             if f["code"] in {"bad-template", "number-not-finite"}]
    assert found and all(f["file"].endswith("tide.yaml") and f["line"] > 0 for f in found)


def test_an_svg_of_infinite_size_is_refused_before_a_pdf_is_written(rockpool, tmp_path):
    icon = rockpool / "icons" / "kelp.svg"
    icon.write_text(icon.read_text(encoding="utf-8").replace('width="100"', 'width="1e999"', 1),
                    encoding="utf-8")
    result = run_pnp("build", str(rockpool), "--out", str(tmp_path / "out"), "-q")
    assert_clean_exit(result, 1)  # was: internal error in ReportLab while writing the PDF
    assert "'kelp.svg' is not a readable SVG: the number 1e999 in it is too large" in \
        result.stdout + result.stderr


def test_a_build_of_a_pack_holding_a_named_pipe_ends_with_its_finding(rockpool, tmp_path):
    """The build's change check hashed every pack file with a blocking read: a named pipe
    among the decks (a file the build does not even need) made it wait forever."""
    os.mkfifo(rockpool / "decks" / "side.yaml")
    result = run_limited("build", str(rockpool), "--out", str(tmp_path / "out"), "-q",
                         timeout=120)
    assert_clean_exit(result, 1)
    assert "side.yaml: error[not-a-file]: this file is a named pipe" in result.stdout + \
        result.stderr


@pytest.mark.parametrize("number", ["1e999", "1e21", "12345678901234"])
def test_validate_refuses_an_svg_number_build_could_not_write(rockpool, tmp_path, number):
    """Validation passed an icon whose path goes to 1e21; build then stopped (exit 2) when
    ReportLab could not write the number. Validate now says so first, at the template."""
    icon = rockpool / "icons" / "rocks.svg"
    icon.write_text(icon.read_text(encoding="utf-8").replace("M4 92", f"M4 {number}", 1),
                    encoding="utf-8")
    result = run_pnp("validate", str(rockpool))
    assert_clean_exit(result, 1)
    assert f"'rocks.svg' is not a readable SVG: the number {number} in it is too large" in \
        result.stdout


def test_colours_and_ids_that_look_like_large_numbers_are_not_numbers(rockpool):
    icon = rockpool / "icons" / "rocks.svg"
    icon.write_text(icon.read_text(encoding="utf-8").replace(
        "<path ", '<path id="g1e99" style="stroke:#3e5767" ', 1), encoding="utf-8")
    assert [f.as_text() for f in validate(rockpool).findings] == []
