"""The ``pnp`` command tree on argparse: each command declares its options beside its function
(decorators, listed in the order the help shows them), and the parser is built from them when
pnp runs.

argparse is the standard library's; click, which pnp used before, cost about 30 ms of every
``pnp`` process to import (issue #14). What click did that argparse does not, and pnp's users
rely on, is done here:

- an option's value is the word after it, whatever it looks like: ``--back-offset -0.5,1``
  (argparse alone would take ``-0.5,1`` for an unknown option);
- no abbreviated options (``--pap`` is not ``--paper``), so adding an option never changes
  what an existing command line means;
- a repeatable option arrives as a tuple of its values in the order given;
- flag pairs (``--cut-lines/--no-cut-lines``), ``[default: X]`` in the help where a default is
  worth showing, a command's docstring paragraphs kept as paragraphs;
- an unknown option is named (with the nearest real one) in the usage of its own command, and
  ``pnp`` or ``pnp i18n`` alone prints its help on stderr with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

Function = TypeVar("Function", bound=Callable[..., Any])

#: help lines are wrapped at this many columns at most (fewer on a narrower terminal)
HELP_WIDTH = 80


# --- declaring a command's arguments ---------------------------------------------------------

def argument(name: str, **settings: Any) -> Callable[[Function], Function]:
    """A positional argument (``add_argument``'s settings); named in capitals in the usage."""
    settings.setdefault("metavar", name.upper())
    return _declare((name,), settings)


def option(*flags: str, show_default: bool | str = False, repeat: bool = False,
           **settings: Any) -> Callable[[Function], Function]:
    """An option taking a value: ``add_argument``'s settings, plus ``repeat`` (given again and
    again, it is the tuple of every value in order; () when not given) and ``show_default``
    (True: ``[default: X]`` ends the help; a text: shown as the default instead)."""
    if repeat:
        settings.update(action=Repeat, default=())
    settings.setdefault("metavar", _metavar(settings))
    if show_default:
        shown = settings.get("default") if show_default is True else show_default
        settings["help"] = f"{settings.get('help') or ''}  [default: {shown}]".lstrip()
    return _declare(flags, settings)


def flag(*flags: str, help: str) -> Callable[[Function], Function]:
    """An option that is off unless given."""
    return _declare(flags, {"action": "store_true", "help": help})


def flag_pair(on: str, off: str, *, default: bool,
              help: str) -> Callable[[Function], Function]:
    """``--x/--no-x``: one setting, either given turns it on or off."""
    shown = (on if default else off).lstrip("-")
    return _declare((on, off), {"action": FlagPair, "default": default,
                                "help": f"{help}  [default: {shown}]"})


def _declare(flags: tuple[str, ...], settings: dict[str, Any]) -> Callable[[Function], Function]:
    def attach(function: Function) -> Function:
        # decorators apply from the bottom up: each goes before those applied already
        function.__dict__.setdefault("cli_arguments", []).insert(0, (flags, settings))
        return function

    return attach


def _metavar(settings: dict[str, Any]) -> str:
    if settings.get("choices"):
        return "[" + "|".join(settings["choices"]) + "]"
    kind = settings.get("type")
    if kind is Path:
        return "PATH"
    return getattr(kind, "metavar", "TEXT")


class Repeat(argparse.Action):
    """Each time the option is given, its value joins the tuple of those given before."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, (*getattr(namespace, self.dest, ()), values))


class FlagPair(argparse.Action):
    """``--cut-lines`` sets the setting, ``--no-cut-lines`` clears it (the last one given wins)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **settings: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **settings)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, option_string == self.option_strings[0])


class ShowVersion(argparse.Action):
    """``pnp --version``: the installed distribution's version, on stdout."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 **settings: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **settings)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> NoReturn:
        from importlib.metadata import version

        sys.stdout.write(f"pnp, version {version('pnp-sheets')}\n")
        sys.stdout.flush()
        parser.exit()


# --- the command tree ------------------------------------------------------------------------

class CommandGroup:
    """Commands by name, in the order the help lists them; a command may be a group itself."""

    def __init__(self, doc: str, *, version: bool = False) -> None:
        self.doc, self.version = doc, version  # version: the group has --version
        self.commands: dict[str, Callable[..., Any] | CommandGroup] = {}

    def command(self, name: str) -> Callable[[Function], Function]:
        def register(function: Function) -> Function:
            self.commands[name] = function
            return function

        return register

    def group(self, name: str, doc: str) -> CommandGroup:
        self.commands[name] = group = CommandGroup(doc)
        return group

    def parser(self, prog: str) -> PnpParser:
        """The group's own parser: its options and the choice of a command. A command's parser
        is built only for the command given (building them all cost 5 ms of every run)."""
        parser = PnpParser(prog=prog, doc=self.doc, usage="%(prog)s [OPTIONS] COMMAND [ARGS]...")
        if self.version:
            parser.add_argument("--version", action=ShowVersion, help="show the version and exit")
        # listed by the help's own command table (PnpParser.format_help), not as an argument
        parser.add_argument("command", metavar="COMMAND", nargs="?", choices=list(self.commands),
                            help=argparse.SUPPRESS)
        parser.listed = [(name, _summary(target.doc if isinstance(target, CommandGroup)
                                         else target.__doc__ or ""))
                         for name, target in self.commands.items()]
        return parser


def command_parser(prog: str, function: Callable[..., Any]) -> PnpParser:
    """The parser of one command, from the arguments declared on its function."""
    declared = function.__dict__.get("cli_arguments", [])
    words = " ".join(settings["metavar"] for flags, settings in declared
                     if not flags[0].startswith("-"))
    parser = PnpParser(prog=prog, doc=function.__doc__ or "",
                       usage=f"%(prog)s [OPTIONS] {words}".rstrip())
    for flags, settings in declared:
        parser.add_argument(*flags, **settings)
    return parser


def parse(tree: CommandGroup, words: Sequence[str],
          prog: str = "pnp") -> tuple[Callable[..., Any], dict[str, Any]]:
    """The function of the command a command line names, and its keyword arguments. A usage
    error exits with status 2 (argparse's own, or an unknown option or extra word named here);
    a group without a command prints the group's help on stderr, also with status 2."""
    words = list(words)
    if words and words[0] in tree.commands:
        name, rest = words[0], words[1:]
    else:  # the group's own options (--help, --version end the process), or a usage error
        parser = tree.parser(prog)
        namespace, extras = parser.parse_known_args(words)
        if extras:
            parser.error(_unexpected(extras, parser))
        if namespace.command is None:
            sys.stderr.write(parser.format_help())
            parser.exit(2)
        name, rest = namespace.command, []
    target = tree.commands[name]
    if isinstance(target, CommandGroup):
        return parse(target, rest, f"{prog} {name}")
    parser = command_parser(f"{prog} {name}", target)
    namespace, extras = parser.parse_known_args(rest)
    if extras:
        parser.error(_unexpected(extras, parser))
    return target, vars(namespace)


def _unexpected(extras: list[str], parser: PnpParser) -> str:
    word = next((extra for extra in extras if extra.startswith("-")), extras[0])
    if not word.startswith("-") or word == "-":
        return f"unexpected extra argument {word!r}"
    import difflib

    name = word.split("=", 1)[0]
    near = difflib.get_close_matches(name, parser.option_names, n=1)
    return f"no such option: {name}" + (f" (did you mean {near[0]}?)" if near else "")


def _summary(doc: str) -> str:
    """A docstring's first sentence (the command tables list it)."""
    first = " ".join(doc.split("\n\n", 1)[0].split())
    end = first.find(". ")
    return first if end < 0 else first[:end + 1]


# --- the parser ------------------------------------------------------------------------------

class PnpParser(argparse.ArgumentParser):
    """argparse's parser with click's ways that pnp keeps (see the module's docstring)."""

    def __init__(self, *args: Any, doc: str = "", **settings: Any) -> None:
        self.doc = doc
        self.listed: list[tuple[str, str]] = []  # (command, summary) for the help's table
        self.option_names: list[str] = []
        self.valued_options: set[str] = set()  # options whose value is the next word
        settings.setdefault("allow_abbrev", False)
        settings.setdefault("formatter_class", HelpLayout)
        super().__init__(*args, **settings)

    def add_argument(self, *args: Any, **settings: Any) -> argparse.Action:
        action = super().add_argument(*args, **settings)
        self.option_names += action.option_strings
        if action.option_strings and action.nargs != 0:
            self.valued_options.update(action.option_strings)
        return action

    def parse_known_args(self, args: Sequence[str] | None = None,
                         namespace: argparse.Namespace | None = None,
                         ) -> tuple[argparse.Namespace, list[str]]:
        # argparse parses a command's words in the command's parser: this is where they come
        words = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(_values_joined(words, self.valued_options), namespace)

    def format_help(self) -> str:
        # made only when asked for: a command line that runs never wraps a docstring
        width = help_width()
        self.description = _paragraphs(self.doc, width)
        if self.listed:
            self.epilog = _command_table(self.prog, self.listed, width)
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\nTry '{self.prog} --help' for help.\n")


def _values_joined(words: list[str], valued: set[str]) -> list[str]:
    """``--out DIR`` as ``--out=DIR`` for every option that takes a value, so that the next
    word is its value as click took it, even when it starts with a dash (``--back-offset
    -0.5,1``, ``--margin -1`` refused by its range, not taken for an option)."""
    joined: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--":  # only positional words follow
            joined += words[index:]
            break
        if word in valued and index + 1 < len(words):
            joined.append(f"{word}={words[index + 1]}")
            index += 2
        else:
            joined.append(word)
            index += 1
    return joined


def help_width() -> int:
    import shutil

    return min(shutil.get_terminal_size().columns, HELP_WIDTH) - 2


class HelpLayout(argparse.RawDescriptionHelpFormatter):
    """argparse's layout, at most HELP_WIDTH wide; descriptions come wrapped by paragraph."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=30, width=help_width())


def _paragraphs(doc: str, width: int) -> str:
    """A docstring as paragraphs wrapped to ``width`` (its own line breaks are its indentation
    in the source, not layout)."""
    import textwrap

    return "\n\n".join(textwrap.fill(" ".join(paragraph.split()), width)
                       for paragraph in doc.strip().split("\n\n") if paragraph.strip())


def _command_table(prog: str, listed: list[tuple[str, str]], width: int) -> str:
    import textwrap

    column = max(len(name) for name, _ in listed) + 4
    lines = ["commands:"]
    for name, summary in listed:
        wrapped = textwrap.wrap(summary, max(width - column, 20), break_on_hyphens=False)
        lines.append(f"  {name:<{column - 2}}{wrapped[0] if wrapped else ''}")
        lines += [" " * column + more for more in wrapped[1:]]
    lines.append(f"\n'{prog} COMMAND --help' shows a command's own options.")
    return "\n".join(lines)
