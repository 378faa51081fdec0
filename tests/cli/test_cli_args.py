"""The command line as users type it (DESIGN.md, "CLI contract"), on click: every command's
options are listed by its help, each with help text of its own; repeatable options keep every
value in order, flag pairs switch, and a mistyped option or number is a usage error (exit 2)
that names the option and the value, in click's words."""

from __future__ import annotations

import gc
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import click
import pytest
from conftest import CWNB, ROOT
from pdfread import open_pdf

from generator.cli.main import COMMANDS, cli, main
from generator.cli.output import echo

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
    ("tuckbox",): "--with --deck --locale --paper --thickness-mm --out",
    ("calibrate",): "--paper --duplex --out",
    ("preview",): "--with --locale --out",
    ("watch",): "--with --locale --port",
    ("studio",): "--with --locale --port",
    ("i18n", "extract"): "",
    ("i18n", "update"): "--locale",
    ("i18n", "status"): "--with --format -v --verbose",
    ("schema",): "--out",
    ("new",): "--name",
    ("rules",): "--format",
    ("completion",): "",
}


@pytest.fixture
def in_process(monkeypatch):
    """main() run in this process: it would freeze the collector for the rest of the tests."""
    monkeypatch.setattr(gc, "freeze", lambda: None)


def run_main(capsys, *words: str) -> tuple[int, str, str]:
    """main() on a command line: its exit status, stdout and stderr."""
    try:
        main(list(words))
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    out, err = capsys.readouterr()
    return code, out, err


def pnp(*words: str, **settings) -> subprocess.CompletedProcess[str]:
    """The real ``pnp`` command in a process of its own."""
    return subprocess.run([sys.executable, "-m", "generator", *words], capture_output=True,
                          text=True, cwd=ROOT, timeout=300, **settings)


def every_command() -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Each command pnp has, by its words (``("i18n", "update")``), groups walked."""

    def walk(group: click.Group, ctx: click.Context, words: tuple[str, ...]):
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if isinstance(command, click.Group):
                yield from walk(command, click.Context(command, ctx, name), (*words, name))
            else:
                yield (*words, name), command

    yield from walk(cli, click.Context(cli, info_name="pnp"), ())


def command_named(*words: str) -> click.Command:
    return dict(every_command())[words]


def section(help_text: str, title: str) -> list[str]:
    """The first word of each entry of one section of a help text (``Options:``...)."""
    lines = help_text.split("\n")
    start = lines.index(f"{title}:") + 1
    entries = []
    for line in lines[start:]:
        if not line.strip():
            break
        if re.match(r"  \S", line):  # an entry; deeper lines continue its description
            entries.append(line.split()[0] if title == "Commands" else line.strip())
    return entries


def listed_options(help_text: str) -> set[str]:
    names = set()
    for entry in section(help_text, "Options"):
        # "-q, --quiet", "--paper [a4|...]  paper size", "--cut-lines / --no-cut-lines"
        names.update(re.findall(r"(?:^|, |/ )(--?[a-z][a-z0-9-]*)", entry.split("  ")[0]))
    return names


def test_the_commands_are_the_contracts():
    assert {words for words, _ in every_command()} == set(OPTIONS)


@pytest.mark.parametrize("command", list(OPTIONS), ids=" ".join)
def test_every_commands_help_lists_each_of_its_options(capsys, in_process, command):
    code, out, err = run_main(capsys, *command, "--help")
    assert code == 0 and err == ""
    assert listed_options(out) == {"-h", "--help", *OPTIONS[command].split()}, out
    assert out.startswith(f"Usage: pnp {' '.join(command)} [OPTIONS]")
    assert run_main(capsys, *command, "-h")[1] == out


@pytest.mark.parametrize(("words", "command"), list(every_command()),
                         ids=lambda value: " ".join(value) if isinstance(value, tuple) else "")
def test_every_option_has_help_and_every_argument_is_explained(words, command):
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help and param.help.strip(), (words, param.opts)
        else:  # click's arguments have no help of their own: the command's text names them
            assert param.human_readable_name in command.help + cli.help, (words, param.name)


def test_the_root_lists_each_command_with_its_own_first_sentence():
    """``pnp --help`` lists the table's lines without importing a command: each must be the
    line the command's own help begins with."""
    for name, (_, summary) in COMMANDS.items():
        command = cli.get_command(click.Context(cli), name)
        assert command.get_short_help_str(limit=sys.maxsize) == summary, name


def test_the_help_lists_every_command_and_its_choices_and_defaults(capsys, in_process):
    code, out, _ = run_main(capsys, "--help")
    assert code == 0
    assert section(out, "Commands") == ["validate", "build", "export", "preflight", "tuckbox",
                                        "calibrate", "preview", "watch", "studio", "i18n",
                                        "schema", "new",
                                        "rules", "completion"]
    assert "new         Write a small, complete starter game defined in data into a new\n" \
           "              FOLDER.\n" in out  # the whole sentence, wrapped, never cut short
    assert section(run_main(capsys, "i18n", "--help")[1], "Commands") == \
        ["extract", "update", "status"]
    build = " ".join(run_main(capsys, "build", "--help")[1].split())
    for shown in ("--paper [a4|letter|a3|legal|tabloid] paper size of the sheets [default: a4]",
                  "--duplex [long|short|none] flip edge", "[default: long]",
                  "--bleed MM[0-5]", "[default: 1.5]", "--back-offset DX,DY",
                  "[default: (0,0)]", "--cut-lines / --no-cut-lines grey hairlines",
                  "[default: cut-lines]", "--out PATH folder the outputs are written under "
                  "[default: output]"):
        assert shown in build
    # the docstring's paragraphs stay paragraphs
    assert "layout manifest.\n\n  Inputs and options unchanged" in run_main(capsys, "build",
                                                                             "-h")[1]


def test_pnp_alone_prints_its_help_on_stderr_and_version_prints_the_installed_one():
    alone = pnp()
    assert alone.returncode == 2 and alone.stdout == ""
    assert alone.stderr.startswith("Usage: pnp [OPTIONS] COMMAND") and "validate" in alone.stderr
    shown = pnp("--version")
    assert shown.returncode == 0 and shown.stdout == f"pnp, version {version('pnp-sheets')}\n"


@pytest.mark.parametrize(("words", "named"), [
    (["build", NOWHERE, "--bogus"], "Error: No such option '--bogus'."),
    (["validate", NOWHERE, "--form", "json"],
     "Error: No such option '--form'. Did you mean '--format'?"),
    (["build", NOWHERE, "--pap", "a4"], "No such option '--pap'. Did you mean '--paper'?"),
    (["i18n", "status", NOWHERE, "--locale", "ru"], "Usage: pnp i18n status [OPTIONS] PACK\n"
                                                      "Try 'pnp i18n status --help' for help.\n\n"
                                                      "Error: No such option '--locale'."),
    (["build", NOWHERE, "extra"], "Got unexpected extra argument (extra)"),
    (["buld", NOWHERE], "Error: No such command 'buld'. Did you mean 'build'?"),
    (["build"], "Error: Missing argument 'PACK'."),
    (["build", NOWHERE, "--paper", "b5"], "Invalid value for '--paper': 'b5' is not one of "
                                          "'a4', 'letter', 'a3', 'legal', 'tabloid'."),
    (["completion", "tcsh"], "Invalid value for 'SHELL': 'tcsh' is not one of 'bash', 'zsh', "
                             "'fish'."),
])
def test_an_unknown_option_or_word_exits_2_naming_it(words, named):
    # a pack that is not there: were the command line taken, the command would fail otherwise
    result = pnp(*words)
    assert result.returncode == 2, result.stderr
    assert named in result.stderr and result.stdout == ""
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("words", "message"), [
    (["--bleed", "nan"], "Invalid value for '--bleed': 'nan' is not a finite number"),
    (["--bleed", "9"], "Invalid value for '--bleed': 9 is outside 0 to 5 mm"),
    (["--gutter", "inf"], "Invalid value for '--gutter': 'inf' is not a finite number"),
    (["--margin", "-1"], "Invalid value for '--margin': -1 is outside 0 to 20 mm"),
    (["--back-offset", "1"],
     "Invalid value for '--back-offset': expected DX,DY in millimetres, e.g. 0.5,-1 (got '1')"),
    (["--back-offset", "-30,1"], "Invalid value for '--back-offset': an offset over 20 mm is "
                                 "not a printer misregistration (got -30,1)"),
    (["--back-offset", "1,nan"], "Invalid value for '--back-offset': 'nan' is not a finite "
                                 "number"),
])
def test_a_bad_number_exits_2_with_its_message(tmp_path, words, message):
    result = pnp("build", str(CWNB), *words, "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert f"\nError: {message}\n" in result.stderr
    assert result.stderr.startswith("Usage: pnp build [OPTIONS] PACK\n")
    assert not (tmp_path / "out").exists()


def test_whole_numbers_keep_their_ranges(capsys, in_process):
    code, _, err = run_main(capsys, "export", str(CWNB), "--dpi", "35")
    assert code == 2 and "Invalid value for '--dpi': 35 is outside 36 to 1200 dpi" in err
    code, _, err = run_main(capsys, "watch", str(CWNB), "--port", "1.5")
    assert code == 2 and "Invalid value for '--port': '1.5' is not a whole number" in err
    code, _, err = run_main(capsys, "watch", str(CWNB), "--port", "70000")
    assert code == 2 and "Invalid value for '--port': 70000 is outside 0 to 65535\n" in err


@pytest.fixture
def recorded(monkeypatch, in_process):
    """Replace commands' functions by recorders of the arguments they would get (the commands'
    declarations, so their parsing, stay)."""
    seen: dict[str, dict] = {}

    def record(name: str, command: click.Command) -> None:
        def recorder(**arguments) -> None:
            seen[name] = arguments

        monkeypatch.setattr(command, "callback", recorder)

    for name in ("validate", "build", "export", "preview", "watch"):
        record(name, command_named(name))
    record("update", command_named("i18n", "update"))
    return seen


def test_repeatable_options_arrive_as_tuples_in_order(capsys, recorded):
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
    with open_pdf(pdf_path) as pages:
        return sum(1 for line in pages[0].lines if line.linewidth < 0.3)


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
    echo("wrote Нимиц/")
    assert raw.getvalue() == b"wrote \\u041d\\u0438\\u043c\\u0438\\u0446/\n"  # flushed at once


# --- what a command raises --------------------------------------------------------------------

def test_an_internal_error_is_one_line_unless_pnp_debug_asks_for_the_trace(capsys, in_process,
                                                                        monkeypatch):
    def broken(*args, **settings):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(command_named("rules"), "callback", broken)
    code, out, err = run_main(capsys, "rules", str(CWNB))
    assert code == 2 and out == ""
    assert err == ("pnp: internal error: ZeroDivisionError: a bug (run with PNP_DEBUG=1 for "
                   "details and please report it)\n")
    monkeypatch.setenv("PNP_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        main(["rules", str(CWNB)])


def test_ctrl_c_exits_130_without_a_trace(capsys, in_process, monkeypatch):
    def interrupted(*args, **settings):
        raise KeyboardInterrupt

    monkeypatch.setattr(command_named("watch"), "callback", interrupted)
    code, out, err = run_main(capsys, "watch", str(CWNB))
    assert (code, out, err) == (130, "", "")


@pytest.mark.skipif(os.name == "nt", reason="Windows reports a closed pipe as EINVAL, not EPIPE")
def test_a_reader_that_goes_away_ends_pnp_quietly():
    """``pnp rules PACK | head``: the pipe closes before pnp writes; click's way, status 1 and
    no message (it was an 'internal error' before)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([sys.executable, "-m", "generator", "rules", str(CWNB)],
                                stdout=write_end, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                timeout=300)
    finally:
        os.close(write_end)
    assert result.returncode == 1, result.stderr
    assert result.stderr == ""


# --- commands loaded when used ----------------------------------------------------------------

def test_the_help_imports_no_command_and_a_command_imports_only_its_own():
    probe = ("import sys; sys.argv = ['pnp'] + sys.argv[1:]\n"
             "from generator.cli.main import main\n"
             "try:\n    main()\n"
             "except SystemExit as exit:\n    assert not exit.code, exit.code\n"
             "print(sorted(m for m in sys.modules if m.startswith('generator')))")

    def loaded(*words: str, completing: str = "") -> set[str]:
        environment = {**os.environ, "_PNP_COMPLETE": "zsh_complete", "COMP_WORDS": completing,
                       "COMP_CWORD": str(len(completing.split(" ")) - 1)} if completing else None
        result = subprocess.run([sys.executable, "-c", probe, *words], capture_output=True,
                                text=True, cwd=ROOT, timeout=300, env=environment)
        assert result.returncode == 0, result.stderr
        return set(eval(result.stdout.strip().splitlines()[-1]))

    commands = {target.split(":")[0] for target, _ in COMMANDS.values()}
    assert not loaded("--help") & commands
    assert not loaded(completing="pnp ") & commands  # every name, with its help, from the table
    assert loaded("rules", "--help") & commands == {"generator.cli.rules"}
    assert not loaded("rules", "--help") & {"generator.pipeline.pack", "generator.rules.table"}
    assert loaded(completing="pnp rules --f") & commands == {"generator.cli.rules"}


def test_a_new_command_is_a_module_and_one_line(capsys, in_process, monkeypatch):
    """What the lead does to add ``pnp tuckbox``: its module, and a line in the table."""
    module = type(sys)("generator.cli.tuckbox_probe")

    @click.command("tuckbox")
    @click.option("--thickness-mm", type=float, default=10.0, help="the deck's thickness")
    def tuckbox(thickness_mm: float) -> None:
        """Print a tuck box for a deck."""
        echo(f"tuck box {thickness_mm:g} mm")

    module.tuckbox = tuckbox
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(cli.table, "tuckbox", (f"{module.__name__}:tuckbox",
                                                "Print a tuck box for a deck."))
    assert run_main(capsys, "tuckbox", "--thickness-mm", "12")[:2] == (0, "tuck box 12 mm\n")
    assert "tuckbox     Print a tuck box for a deck." in run_main(capsys, "--help")[1]


# --- shell completion -------------------------------------------------------------------------

def complete(shell: str, line: str) -> list[str]:
    """What click's completion protocol answers for ``line`` (the word under the cursor last),
    as the script of ``shell`` asks it."""
    words = line.split(" ")
    environment = {"_PNP_COMPLETE": f"{shell}_complete", "COMP_WORDS": line,
                   "COMP_CWORD": str(len(words) - 1) if shell != "fish" else words[-1]}
    result = pnp(env={**os.environ, **environment})
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return result.stdout.splitlines()


def test_completion_protocol_completes_commands_options_and_choices():
    assert complete("bash", "pnp bu") == ["plain,build"]
    assert complete("bash", "pnp build --pa") == ["plain,--paper"]
    assert complete("bash", "pnp build pack --paper le") == ["plain,letter", "plain,legal"]
    assert complete("bash", "pnp i18n u") == ["plain,update"]
    assert complete("bash", "pnp build pack --out ") == ["file,"]  # the shell lists paths
    # zsh and fish show each command's line of help beside it, from the table
    assert complete("zsh", "pnp va") == ["plain", "validate", COMMANDS["validate"][1]]
    assert complete("fish", "pnp va") == [f"plain,validate\t{COMMANDS['validate'][1]}"]


@pytest.mark.parametrize(("shell", "marks"), [
    ("bash", ["_pnp_completion()", "_PNP_COMPLETE=bash_complete",
              "complete -o nosort -F _pnp_completion pnp"]),
    ("zsh", ["#compdef pnp", "_PNP_COMPLETE=zsh_complete"]),
    ("fish", ["_PNP_COMPLETE=fish_complete", "complete --no-files --command pnp"]),
])
def test_completion_prints_clicks_script_for_each_shell(shell, marks):
    from click.shell_completion import get_completion_class

    result = pnp("completion", shell)
    assert result.returncode == 0
    for mark in marks:
        assert mark in result.stdout, result.stdout
    expected = get_completion_class(shell)(cli, {}, "pnp", "_PNP_COMPLETE").source()
    assert result.stdout == f"{expected}\n"


def test_bash_completes_a_command_through_the_script(tmp_path):
    """The bash script, loaded in a real bash, completes ``pnp bu`` by calling pnp back."""
    import shutil

    bash = shutil.which("bash")
    if bash is None or os.name == "nt":
        pytest.skip("no bash to run a POSIX shell script in")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "pnp").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m generator "$@"\n')
    (bin_dir / "pnp").chmod(0o755)
    script = pnp("completion", "bash").stdout
    # as bash calls a completion function: the command, the word completed, the word before
    session = (f"{script}\nCOMP_WORDS=(pnp bu); COMP_CWORD=1; _pnp_completion pnp bu pnp\n"
               'echo "${COMPREPLY[@]}"; COMPREPLY=()\n'
               "COMP_WORDS=(pnp build --pa); COMP_CWORD=2; _pnp_completion pnp --pa build\n"
               'echo "${COMPREPLY[@]}"\n'
               "complete -p pnp\n")
    result = subprocess.run([bash, "--norc", "--noprofile", "-c", session], capture_output=True,
                            text=True, cwd=ROOT, timeout=120,
                            env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}"
                                                       f"{os.environ['PATH']}"})
    assert result.stdout.splitlines() == ["build", "--paper",
                                          "complete -o nosort -F _pnp_completion pnp"], \
        result.stderr
