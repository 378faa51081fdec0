"""Game options of a Great War at Sea pack (``options:`` in game.yaml) and their checks.

The seeds disagree on the speed set: 003:333 names four speeds (2+, 2, 1, 1 slow), while 003:274
also speaks of ships of speed "1+". Rather than pick a side silently, a pack states which reading
it follows with ``allow_speed_1_plus``; the checks report 1+ either way, citing both lines.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from msgspec import Struct

from generator.core.findings import Finding
from generator.core.location import Location
from generator.games.gwas.rules.registry import E, W, check
from generator.games.gwas.tables import SPEED_1_PLUS, SPEEDS
from generator.load.packfiles import PackFolder
from generator.model.cards import Manifest, Pack

ALLOW_SPEED_1_PLUS = "allow_speed_1_plus"
#: option name -> (type, default)
OPTIONS: Mapping[str, tuple[type, object]] = {ALLOW_SPEED_1_PLUS: (bool, False)}

OPTION_TYPE = check("gwas-option-type", "option", E, "003:274, 003:333",
                    "game options have the documented type (allow_speed_1_plus: true/false)")
OPTION_UNKNOWN = check("gwas-option-unknown", "option", W, "003:274, 003:333",
                       "game.yaml options are ones the gwas module knows")


class Options(Struct, frozen=True, gc=False):
    allow_speed_1_plus: bool = False

    @property
    def speeds(self) -> tuple[str, ...]:
        return (*SPEEDS, SPEED_1_PLUS) if self.allow_speed_1_plus else SPEEDS


def options_of(manifest: Manifest) -> Options:
    """The options in force; a mistyped value counts as its default (and is reported)."""
    value = manifest.options.get(ALLOW_SPEED_1_PLUS, False)
    return Options(allow_speed_1_plus=value if isinstance(value, bool) else False)


def option_location(pack: Pack, name: str | None) -> Location:
    """Where ``options.<name>`` (or ``options``) is written in the pack's game.yaml."""
    folder = PackFolder(pack.root)
    file = folder.entry("game.yaml")
    doc = folder.load_yaml(file, "manifest")[0] if file is not None else None
    if doc is None:
        return pack.manifest.location
    return doc.where_key(("options", name) if name else ("options",))


def check_options(pack: Pack) -> Iterator[Finding]:
    for name, value in pack.manifest.options.items():
        if name not in OPTIONS:
            yield OPTION_UNKNOWN(f"unknown game option '{name}'; the gwas module knows: "
                                 f"{', '.join(OPTIONS)}", option_location(pack, name))
            continue
        kind, default = OPTIONS[name]
        if not isinstance(value, kind):
            yield OPTION_TYPE(f"option '{name}' is {value!r}; it is true or false (default "
                              f"{str(default).lower()})", option_location(pack, name))
