"""The command line as users type it (DESIGN.md, "CLI contract"): every command's options are
listed by its help, repeatable options keep every value in order, flag pairs switch, and a
mistyped option or number is a usage error (exit 2) that names the option and the value."""

from __future__ import annotations

import functools
import gc
import re
import subprocess
import sys
from importlib.metadata import version

import pdfplumber
import pytest
from conftest import CWNB, ROOT

from generator import cli

NOWHERE = "tests/no-such-pack"

#: every command and each of its options (besides -h/--help), as users depend on them
OPTIONS = {
    ("validate",): "--with --locale --strict --deck --format --sarif-root -v --verbose",
    ("build",): "--with --locale --paper --duplex --back-offset --out --bleed --margin --gutter "
                "--deck --cut-lines --no-cut-lines --ink-saver --strict --allow-overflow "
                "-q --quiet --force",
    ("export",): "--with --locale --to --preset --dpi --bleed --kind --per-copy --base-url --out "
                 "--ink-saver --strict -q --quiet",
    ("preflight",): "--with --locale --safe --bleed --format --sarif-root",
    ("calibrate",): "--paper --duplex --out",
    ("preview",): "--with --locale --out",
    ("watch",): "--with --locale --port",
    ("i18n", "extract"): "",
    ("i18n", "update"): "--locale",
    ("i18n", "status"): "--format -v --verbose",
    ("schema",): "--out",
    ("new",): "--name",
    ("rules",): "--format",
}


@pytest.fixture
def in_process(monkeypatch):
    """main() run in this process: it would freeze the collector for the rest of the tests."""
    monkeypatch.setattr(gc, "freeze", lambda: None)


def run_main(capsys, *words: str) -> tuple[int, str, str]:
    """main() on a command line: its exit status, stdout and stderr."""
    try:
        cli.main(list(words))
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def pnp(*words: str) -> subprocess.CompletedProcess[str]:
    """The real ``pnp`` command (generator.cli.command) in a process of its own."""
    return subprocess.run([sys.executable, "-m", "generator", *words], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


def section(help_text: str, title: str) -> list[str]:
    """The first word of each entry of one section of a help text (``options:``...)."""
    lines = help_text.split("\n")
    start = lines.index(f"{title}:") + 1
    entries = []
    for line in lines[start:]:
        if not line.strip():
            break
        if re.match(r"  \S", line):  # an entry; deeper lines continue its description
            entries.append(line.split()[0] if title == "commands" else line.strip())
    return entries


def listed_options(help_text: str) -> set[str]:
    names = set()
    for entry in section(help_text, "options"):
        # "-q, --quiet", "--paper [a4|...]  [default: a4]", "--cut-lines, --no-cut-lines"
        names.update(re.findall(r"(?:^|, )(--?[a-z][a-z0-9-]*)", entry.split("  ")[0]))
    return names


@pytest.mark.parametrize("command", list(OPTIONS), ids=" ".join)
def test_every_commands_help_lists_each_of_its_options(capsys, in_process, command):
    code, out, err = run_main(capsys, *command, "--help")
    assert code == 0 and err == ""
    assert listed_options(out) == {"-h", "--help", *OPTIONS[command].split()}, out
    assert out.startswith(f"usage: pnp {' '.join(command)} [OPTIONS]")
    assert run_main(capsys, *command, "-h")[1] == out


def test_the_help_lists_every_command_and_its_choices_and_defaults(capsys, in_process):
    code, out, _ = run_main(capsys, "--help")
    assert code == 0
    assert section(out, "commands") == ["validate", "build", "export", "preflight", "calibrate",
                                        "preview", "watch", "i18n", "schema", "new", "rules"]
    assert section(run_main(capsys, "i18n", "--help")[1], "commands") == \
        ["extract", "update", "status"]
    build = " ".join(run_main(capsys, "build", "--help")[1].split())
    for shown in ("--paper [a4|letter|a3|legal|tabloid] [default: a4]",
                  "--duplex [long|short|none] flip edge", "[default: long]",
                  "--bleed MM[0-5]", "[default: 1.5]", "--back-offset DX,DY", "[default: 0,0]",
                  "--cut-lines, --no-cut-lines grey hairlines", "[default: cut-lines]",
                  "--out PATH [default: output]"):
        assert shown in build
    # the docstring's paragraphs stay paragraphs
    assert "layout manifest.\n\nInputs and options unchanged" in run_main(capsys, "build",
                                                                           "-h")[1]


def test_pnp_alone_prints_its_help_on_stderr_and_version_prints_the_installed_one():
    alone = pnp()
    assert alone.returncode == 2 and alone.stdout == ""
    assert alone.stderr.startswith("usage: pnp [OPTIONS] COMMAND") and "validate" in alone.stderr
    shown = pnp("--version")
    assert shown.returncode == 0 and shown.stdout == f"pnp, version {version('pnp-sheets')}\n"


@pytest.mark.parametrize(("words", "named"), [
    (["build", NOWHERE, "--bogus"], "pnp build: error: no such option: --bogus"),
    (["validate", NOWHERE, "--form", "json"],
     "pnp validate: error: no such option: --form (did you mean --format?)"),
    (["build", NOWHERE, "--pap", "a4"], "no such option: --pap (did you mean --paper?)"),
    (["i18n", "status", NOWHERE, "--locale", "ru"], "pnp i18n status: error: no such option: "
                                                      "--locale"),
    (["build", NOWHERE, "extra"], "unexpected extra argument 'extra'"),
    (["buld", NOWHERE], "invalid choice: 'buld'"),
    (["build"], "the following arguments are required: PACK"),
    (["build", NOWHERE, "--paper", "b5"], "argument --paper: invalid choice: 'b5'"),
])
def test_an_unknown_option_or_word_exits_2_naming_it(words, named):
    # a pack that is not there: were the command line taken, the command would fail otherwise
    result = pnp(*words)
    assert result.returncode == 2, result.stderr
    assert named in result.stderr and result.stdout == ""
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("words", "message"), [
    (["--bleed", "nan"], "argument --bleed: 'nan' is not a finite number"),
    (["--bleed", "9"], "argument --bleed: 9 is outside 0 to 5 mm"),
    (["--gutter", "inf"], "argument --gutter: 'inf' is not a finite number"),
    (["--margin", "-1"], "argument --margin: -1 is outside 0 to 20 mm"),
    (["--back-offset", "1"],
     "argument --back-offset: expected DX,DY in millimetres, e.g. 0.5,-1 (got '1')"),
    (["--back-offset", "-30,1"], "argument --back-offset: an offset over 20 mm is not a printer "
                                 "misregistration (got -30,1)"),
    (["--back-offset", "1,nan"], "argument --back-offset: 'nan' is not a finite number"),
])
def test_a_bad_number_exits_2_with_its_message(tmp_path, words, message):
    result = pnp("build", str(CWNB), *words, "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert f"pnp build: error: {message}\n" in result.stderr
    assert result.stderr.startswith("usage: pnp build [OPTIONS] PACK\n")
    assert not (tmp_path / "out").exists()


def test_whole_numbers_keep_their_ranges(capsys, in_process):
    code, _, err = run_main(capsys, "export", str(CWNB), "--dpi", "35")
    assert code == 2 and "argument --dpi: 35 is outside 36 to 1200 dpi" in err
    code, _, err = run_main(capsys, "watch", str(CWNB), "--port", "1.5")
    assert code == 2 and "argument --port: '1.5' is not a whole number" in err


@pytest.fixture
def recorded(monkeypatch, in_process):
    """Replace commands by recorders of the arguments they would get (same declarations)."""
    seen: dict[str, dict] = {}

    def record(group, name):
        original = group.commands[name]

        @functools.wraps(original)  # its __dict__, so its declared arguments, too
        def recorder(**arguments):
            seen[name] = arguments

        monkeypatch.setitem(group.commands, name, recorder)

    for name in ("validate", "build", "export", "preview", "watch"):
        record(cli.cli, name)
    record(cli.i18n_group, "update")
    return seen


def test_repeatable_options_arrive_as_tuples_in_order(capsys, recorded):
    from pathlib import Path

    assert run_main(capsys, "validate", "p", "--with", "b", "--locale", "ru", "--with", "a",
                    "--locale", "de", "--deck", "z.yaml", "--deck", "a.yaml")[0] == 0
    validate = recorded["validate"]
    assert validate["expansions"] == (Path("b"), Path("a"))
    assert validate["locales"] == ("ru", "de")
    assert validate["decks"] == (Path("z.yaml"), Path("a.yaml"))
    run_main(capsys, "export", "p", "--kind", "ship", "--kind", "action", "--kind", "ship")
    assert recorded["export"]["kinds"] == ("ship", "action", "ship")
    run_main(capsys, "i18n", "update", "p", "--locale", "fr", "--locale", "de")
    assert recorded["update"]["locales"] == ("fr", "de")
    run_main(capsys, "preview", "p", "--locale", "ru", "--locale", "en")
    assert recorded["preview"]["locales"] == ("ru", "en")
    run_main(capsys, "watch", "p")  # not given: an empty tuple
    assert recorded["watch"]["locales"] == () and recorded["watch"]["expansions"] == ()


def test_values_flags_and_defaults_arrive_as_the_command_expects(capsys, recorded):
    from pathlib import Path

    assert run_main(capsys, "build", "p")[0] == 0
    assert recorded["build"] == {
        "pack": Path("p"), "expansions": (), "locale": None, "paper": "a4", "duplex": "long",
        "back_offset": (0.0, 0.0), "out_root": Path("output"), "bleed_mm": 1.5,
        "margin_mm": 3.0, "gutter_mm": 0.0, "deck": None, "cut_lines": True,
        "ink_saver": False, "strict": False, "allow_overflow": False, "quiet": False,
        "force": False}
    # a value starting with a dash is still the option's value (an offset to the left)
    assert run_main(capsys, "build", "p", "--no-cut-lines", "--back-offset", "-0.5,1", "-q",
                    "--bleed=0", "--deck", "decks/x.yaml", "--paper", "letter")[0] == 0
    build = recorded["build"]
    assert build["cut_lines"] is False and build["back_offset"] == (-0.5, 1.0)
    assert build["quiet"] is True and build["bleed_mm"] == 0.0
    assert build["deck"] == Path("decks/x.yaml") and build["paper"] == "letter"
    run_main(capsys, "build", "p", "--no-cut-lines", "--cut-lines")  # the last one wins
    assert recorded["build"]["cut_lines"] is True
    run_main(capsys, "watch", "p", "--port", "0")
    assert recorded["watch"]["port"] == 0


def front_hairlines(pdf_path) -> int:
    with pdfplumber.open(pdf_path) as pdf:
        return sum(1 for line in pdf.pages[0].lines if line["linewidth"] < 0.3)


def test_no_cut_lines_builds_fronts_without_them(tmp_path):
    for words, out in (([], tmp_path / "with"), (["--no-cut-lines"], tmp_path / "without")):
        result = pnp("build", str(CWNB), "--out", str(out), *words)
        assert result.returncode == 0, result.stderr
    assert front_hairlines(tmp_path / "with" / "cwnb" / "en" / "a4" / "fronts.pdf") > 0
    assert front_hairlines(tmp_path / "without" / "cwnb" / "en" / "a4" / "fronts.pdf") == 0


def test_a_line_the_terminal_cannot_encode_is_escaped_not_a_crash(monkeypatch):
    import io

    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="ascii"))
    cli.echo("wrote Нимиц/")
    assert raw.getvalue() == b"wrote \\u041d\\u0438\\u043c\\u0438\\u0446/\n"  # flushed at once
