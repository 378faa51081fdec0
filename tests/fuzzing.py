"""Seeded fuzzing of whole pnp runs over mutated copies of the shipped packs.

Each case copies one shipped pack, attacks one of its files (card YAML, game.yaml, a PO catalog,
the glossary, a deck; a data game's CSV tables, templates, SVG art and icons and fonts) with a
mutator chosen by a seeded RNG, or adds a hostile file where pnp looks for one (another card
file, an XLSX workbook, an icon, a template, templates/labels.yaml), and runs one pnp command on
it (validate, build, i18n, schema) in a forked child held to a CPU-time limit and 1 GiB of address
space. The outcome is classified:

- crash: the child died of a signal (SIGSEGV ...);
- hang: it used more than the CPU limit, or did not end within the wall-clock limit;
- memory: it ran out of its 1 GiB (MemoryError);
- internal: "internal error" or a Python traceback reached the user;
- unlocated: a finding without a line about a file that has lines (whole-file findings such as
  a refused link are exempt: they have no line to point at);
- exit-code: an exit code other than 0, 1 and 2, or one that disagrees with the output (1 without
  an error finding, 0 with one, 2 without a message), or a build stopped (exit 2) on an SVG that
  validation passed;
- leak: bytes of the files beside the pack (``outside/``, which attacks name through SVG
  references, links and paths) found in an output (PDF streams inflated, pictures, manifests);
- stderr: a library's log line or warning, or a raw control character, reached stderr.

Attack classes of issue 24: SVG references out of the pack (``svg-outside``), embedded pictures
(``svg-raster``: data URIs, pictures of the pack, cut short, of many pixels), workbook XML
(``xlsx-xml``: long tokens, shared strings, styles, malformed parts), CEL nesting in a data
game's rules (``cel``) and catalog charsets (``po-charset``: a charset the bytes contradict, no
text encoding, duplicates, a hundred thousand obsolete entries); and SVG attribute values
(``svg-values``: garbage lengths, colours, transforms, paths and CSS on the file's elements or on
nested ones), which must be a finding at validate or draw in build, preview and export.

``python tests/fuzzing.py --cases 3000 --jobs 2`` (``make fuzz``) prints the table; ``make test``
runs a few dozen cases through the same code (tests/test_fuzz.py). A failing case is replayed
with ``--case N --keep``, which leaves its pack folder for inspection.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"
CPU_SECONDS = 10
WALL_SECONDS = 60
MEMORY_BYTES = 1 << 30
CLASSES = ("crash", "hang", "memory", "internal", "unlocated", "exit-code", "leak", "stderr")
#: written into the files beside the pack (``outside/``): found in any output, it leaked
SECRET_MARKER = "PNPSECRET7731"
#: findings about a file as a whole (it was not read, so there is no line to point at)
WHOLE_FILE_CODES = frozenset({"path-escape", "broken-link", "not-a-file", "unreadable",
                              "file-too-large", "too-many-files", "link-loop",
                              "pack-given-twice", "too-many-cards"})
BINARY_SUFFIXES = frozenset({".xlsx", ".png", ".jpg", ".jpeg", ".webp", ".ttf", ".otf"})
_FINDING_LINE = re.compile(r"^(?P<file>[^\n]+?)(?::(?P<line>\d+):(?P<col>\d+))?: "
                           r"(?P<severity>error|warning)\[(?P<code>[^\]]+)\]", re.MULTILINE)


# --- what is attacked -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Source:
    """A shipped pack: its folder, the base it extends (if any), its files by kind."""

    folder: Path
    base: Path | None
    locales: tuple[str, ...]
    files: dict[str, tuple[str, ...]]


def shipped_sources() -> list[Source]:
    sources = []
    folders = {f.name: f for f in sorted(CARDS.iterdir()) if (f / "game.yaml").is_file()}
    by_pack = {}
    manifests = {}
    for name, folder in folders.items():
        data = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8")) or {}
        manifests[name] = data
        by_pack[data.get("pack")] = folder
    for name, folder in folders.items():
        data = manifests[name]
        files: dict[str, list[str]] = {"manifest": ["game.yaml"], "card": [], "catalog": [],
                                       "glossary": [], "deck": [], "table": [], "image": [],
                                       "template": [], "font": []}
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder).as_posix()
            if not path.is_file() or relative == "game.yaml":
                continue
            top = relative.split("/")[0]
            if relative == "glossary.yaml":
                files["glossary"].append(relative)
            elif top == "locales" and path.suffix in {".po", ".pot"}:
                files["catalog"].append(relative)
            elif top == "decks" and path.suffix == ".yaml":
                files["deck"].append(relative)
            elif path.suffix in {".csv", ".xlsx"}:
                files["table"].append(relative)
            elif path.suffix in {".png", ".jpg", ".jpeg", ".webp", ".svg"}:
                files["image"].append(relative)
            elif path.suffix in {".ttf", ".otf"}:
                files["font"].append(relative)
            elif top == "templates" and path.suffix in {".yaml", ".yml"}:
                files["template"].append(relative)
            elif path.suffix in {".yaml", ".yml"} and top != "schemas":
                files["card"].append(relative)
        base = by_pack.get(data.get("extends")) if data.get("extends") else None
        locales = tuple(str(x) for x in (data.get("locales") or [data.get("source_locale")]))
        sources.append(Source(folder, base, locales,
                              {k: tuple(v) for k, v in files.items() if v}))
    return sources


# --- mutators ---------------------------------------------------------------------------------

SNIPPETS = ["\t", ":", "- ", "[", "]", "{", "}", "&a ", "*a", "!!python/object:os.system ",
            "\n  ", "'", '"', "#", "\x00", "\x01", "\x1b", "é", "\u202e", "\ufeff", "- id: ",
            "kind: ship\n", "<<: *a\n", "~", "99999999999999999999", "-1", "1e400", ".nan",
            "null", "yes", "[]", "{}", "2024-02-30", "!!bool maybe", "!!int 12x",
            "!!timestamp word", "msgid ", "msgstr ", 'msgctxt "', '"\n"', "#~ ", "#, fuzzy\n",
            "\\", "\\x", "%s", "{gun-5in}", "{nope}", "\r\n", "\r", "\u2028", "\x85"]

HOSTILE_VALUES: list[object] = [
    "", " ", "\n", "x" * 12_000, "y" * 9_000, "Ы" * 3_000, "{gun-5in}" * 300, "{nope}", "{",
    "}", "{{}}", "\u202eevil", "e\u0301" * 400, "😀" * 40, "中文字", "\t", -1, 0, 1, 1000,
    10**15, 2**53 + 1, 1.5, -0.0, 1e308, True, False, None, [], {}, [1, 2, 3], {"a": 1},
    "0x1F", "yes", "~", "5in", "3+3", "A", "ru", "en\n", "-", "a" * 80, "word " * 2_000,
    "слово" * 600, "{", "Противолодочная" * 50,
]


def _random_bytes(rng: random.Random, n: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(n))


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """Blind edits: snippets, deletions, duplications, flipped and random bytes, truncation."""
    chars = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        position = rng.randrange(len(chars) + 1)
        action = rng.random()
        if action < 0.35:
            chars[position:position] = rng.choice(SNIPPETS).encode("utf-8")
        elif action < 0.55 and chars:
            del chars[position:position + rng.randint(1, 60)]
        elif action < 0.7:
            start = rng.randrange(len(chars) + 1)
            chars[position:position] = chars[start:start + rng.randint(1, 200)]
        elif action < 0.8 and chars:
            chars[min(position, len(chars) - 1)] = rng.randrange(256)
        elif action < 0.9:
            chars[position:position] = _random_bytes(rng, rng.randint(1, 8))
        else:
            del chars[position:]
    return bytes(chars)


def _walk(node: object, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _walk(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _walk(value, (*path, index))
    return found


def _set(node: object, path: tuple, value: object) -> object:
    if not path:
        return value
    parent = node
    for step in path[:-1]:
        parent = parent[step]  # type: ignore[index]
    parent[path[-1]] = value  # type: ignore[index]
    return node


def mutate_yaml(data: bytes, rng: random.Random) -> bytes:
    """Well-formed YAML with hostile values: reaches schemas, rules, layout, not just the
    parser. Values replaced, keys renamed or dropped, list items multiplied."""
    try:
        tree = yaml.safe_load(data.decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError):
        return mutate_bytes(data, rng)
    for _ in range(rng.randint(1, 4)):
        paths = _walk(tree)
        path = rng.choice(paths)
        action = rng.random()
        try:
            parent = tree
            for step in path[:-1]:
                parent = parent[step]
            if action < 0.6 or not path:
                tree = _set(tree, path, rng.choice(HOSTILE_VALUES))
            elif action < 0.75 and isinstance(parent, dict):
                value = parent.pop(path[-1])
                if rng.random() < 0.5:
                    parent[rng.choice(["id", "kind", "count", "name", "x", "en\n", "cards",
                                       "terms", "source", "ru"])] = value
            elif action < 0.9 and isinstance(parent, list) and parent:
                parent.extend([parent[path[-1]]] * rng.choice([1, 2, 50, 400]))
            elif isinstance(parent, list | dict):
                del parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
    return yaml.safe_dump(tree, allow_unicode=True, sort_keys=False, width=10_000).encode()


def attack_yaml(data: bytes, rng: random.Random) -> bytes:
    """Targeted attacks on a YAML file: depth, aliases, sizes, numbers, tags, characters."""
    text = data.decode("utf-8", "replace")
    choice = rng.randrange(12)
    if choice == 0:
        depth = rng.choice([70, 1_000, 40_000])
        return f"cards: {'[' * depth}{']' * depth}\n".encode()
    if choice == 1:
        depth = rng.choice([70, 500])
        return ("cards:\n" + "".join("  " * i + "- \n" for i in range(1, depth))).encode()
    if choice == 2:
        lines = ["a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
        for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
            lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
        return ("\n".join(lines) + "\ncards: *i\nterms: *i\n").encode()
    if choice == 3:
        return rng.choice([b"cards: &a [*a]\n", b"terms: &a {x: *a}\n", b"a: &a [*a]\n"])
    if choice == 4:
        return text.replace("name:", "name: " + "W" * rng.choice([10_001, 200_000]) + " #",
                            1).encode()
    if choice == 5:
        return re.sub(r": (\d+)", lambda m: ": " + "9" * rng.choice([17, 4301]), text,
                      count=3).encode()
    if choice == 6:
        return (text + "\nextra:\n  v: " + rng.choice(["2024-02-30", "!!bool maybe",
                                                       "!!int 12x", "!!timestamp word",
                                                       "!!binary a", "!foo bar", ".nan"])
                + "\n").encode()
    if choice == 7:
        position = rng.randrange(len(text) + 1)
        return (text[:position] + rng.choice(["\x00", "\x01", "\x7f", "\x1b", "\ufffe"])
                + text[position:]).encode("utf-8", "surrogatepass")
    if choice == 8:
        return b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode()
    if choice == 9:
        return text.encode("utf-16") if rng.random() < 0.5 else text.encode("cp1251", "replace")
    if choice == 10:
        return (text * rng.choice([2, 40])).encode()
    return re.sub(r"(?m)^( +)", lambda m: "\t" * (len(m.group(1)) // 2), text, count=2).encode()


def attack_po(data: bytes, rng: random.Random) -> bytes:
    """Targeted attacks on a catalog: charsets, long and broken messages, odd entries."""
    text = data.decode("utf-8", "replace")
    choice = rng.randrange(10)
    if choice == 0:
        return data.replace(b"charset=UTF-8", rng.choice([b"charset=ISO-8859-1",
                                                          b"charset=KOI8-R", b"charset=BOGUS",
                                                          b"charset=UTF-16"]))
    if choice == 1:
        return text.encode("koi8-r", "replace")
    if choice == 2:
        huge = rng.choice(["w" * 5_000_000, "word " * 3_000, "Ы" * 3_000])
        return (text + f'\nmsgctxt "x"\nmsgid "y"\nmsgstr "{huge}"\n').encode()
    if choice == 3:
        return (text + '\nmsgid "y"\nmsgstr ""\n' + '"abcdefgh"\n' * rng.choice([100, 300_000])
                ).encode()
    if choice == 4:
        return re.sub(r'msgstr "(.+)"', lambda m: 'msgstr "' + m.group(1) * 200 + '"', text,
                      count=rng.randint(1, 20)).encode()
    if choice == 5:
        return re.sub(r'msgstr "(.+)"', lambda m: 'msgstr "' + rng.choice(
            ["{nope}", "{gun-5in}" * 50, "", "中文", "\\x", '\\"', "%s", "Ы" * 400]) + '"',
            text, count=rng.randint(1, 40)).encode()
    if choice == 6:
        return (text + "\n#~ msgid \"old\"\n#~ msgstr \"старый\"\n#, fuzzy\nmsgid \"z\"\n"
                'msgid_plural "zs"\nmsgstr[0] "a"\nmsgstr[99999] "b"\n').encode()
    if choice == 7:
        return (text + "\n" + "# comment line\n" * rng.choice([10, 200_000])).encode()
    if choice == 8:
        return text.replace('msgctxt "', 'msgctxt "\\n', rng.randint(1, 5)).encode()
    return mutate_bytes(data, rng)


def attack_table(data: bytes, rng: random.Random) -> bytes:
    """Well-formed CSV with hostile cells: values replaced, rows multiplied, columns added or
    dropped, the header renamed, the separator changed."""
    import csv
    import io

    try:
        rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    except (UnicodeDecodeError, csv.Error):
        return mutate_bytes(data, rng)
    if not rows:
        return mutate_bytes(data, rng)
    for _ in range(rng.randint(1, 4)):
        row = rng.choice(rows)
        choice = rng.randrange(7)
        if choice <= 2 and row:
            value = rng.choice(HOSTILE_VALUES)
            row[rng.randrange(len(row))] = value if isinstance(value, str) else str(value)
        elif choice == 3:
            rows.extend([list(row) for _ in range(rng.choice([1, 50, 2_000]))])
        elif choice == 4:
            row.extend(["x"] * rng.choice([1, 3, 600]))
        elif choice == 5 and row:
            del row[rng.randrange(len(row)):]
        else:
            rows[0] = [rng.choice(["id", "kind", "name", "", "x", "id", "art"]) for _ in rows[0]]
    out = io.StringIO()
    csv.writer(out, delimiter=rng.choice([",", ",", ",", ";", "\t"])).writerows(rows)
    return out.getvalue().encode("utf-8")


def attack_svg(data: bytes, rng: random.Random) -> bytes:
    """Well-formed SVG with hostile content: sizes, deep nesting, <use> chains, entities, a
    path of a million points, text, an external reference."""
    text = data.decode("utf-8", "replace")
    choice = rng.randrange(8)
    if choice == 0:
        value = rng.choice(["1e999", "-5", "0", "NaN", "100000000", "12ab", "", "inf"])
        return re.sub(r'(width|height|viewBox)="[^"]*"', lambda m: f'{m.group(1)}="{value}"',
                      text, count=rng.randint(1, 3)).encode()
    head, _, _ = text.partition(">")
    if choice == 1:
        depth = rng.choice([300, 5_000, 100_000])
        body = "<g>" * depth + '<circle r="5"/>' + "</g>" * depth
    elif choice == 2:
        body = '<defs><path id="u0" d="M0 0 L9 9"/>' + "".join(
            f'<g id="u{i}">' + f'<use href="#u{i - 1}"/>' * 10 + "</g>" for i in range(1, 9)) \
            + '</defs><use href="#u8"/>'
    elif choice == 3:
        return ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
                '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' + text).encode()
    elif choice == 4:
        body = '<path d="M0 0 ' + "L1 1 " * rng.choice([1_000, 200_000]) + '"/>'
    elif choice == 5:
        body = f'<text x="1" y="9" font-family="Nope">{rng.choice(["中文", "x" * 20_000])}</text>'
    elif choice == 6:
        body = '<image href="/etc/passwd" width="9" height="9"/><use href="other.svg#x"/>'
    else:
        return mutate_bytes(data, rng)
    return (head + ">" + body + "</svg>\n").encode()


#: garbage for an SVG attribute, by what the attribute holds (each list also has good values,
#: so that the garbage sits among values svglib takes)
SVG_LENGTHS = ("abc", "", " ", "-1", "0", "-0", "1e-320", "1e11", "NaN", "10%", "1em", "3ex",
               "2mm", "1 2", "1,2", "--1", "+", ".", "1e", "12ab", "5px5", "0x10", "calc(1px)",
               "1_000", "\u0661\u0662", "7", "2.5", "1e2", "-1e5", "1e-9")
SVG_COLOURS = ("#zzz", "#12345", "#", "rgb(1,2)", "rgb(300,-1,2)", "rgb(1%,x,3)",
               "rgba(1,2,3,x)", "hsl(1,2,3)", "hsl(a)", "cmyk(1,2)", "notacolor", "url(#nope)",
               "url(", "url(#zg) #f00", "currentColor", "inherit", "transparent", "var(--x)",
               "icc-color(x)", "#ff000080", "red", "none", "#1f2a33")
SVG_TRANSFORMS = ("scale(", "scale()", "matrix(1 2)", "rotate(nan)", "translate(1e11 1)",
                  "skewX(90)", "skewY(-90)", "scale(0)", "scale(1e-300)", "scale(1e9)",
                  "matrix(0 0 0 0 0 0)", "matrix(1 1 1 1 0 0)", "foo(1)", "rotate(1,2)",
                  "translate()", "scale(1 2 3)", "rotate(45 x y)", "translate(5,5) scale(2)",
                  "matrix(1,0,0,1,0,0)x", "rotate(30)", "scale(-1 1)", "translate(1e5)")
SVG_PATHS = ("M", "M 0 0 L", "M0 0 A 1 1 0 2 2 5 5", "1 2 3", "Z", "M0 0 L1e11 0", "M0,0 H",
             "M0 0 Q", "M0 0 C 1 1", "m 1 1 l -2 -2 z", "M0 0 L5 5 X 9", "M0 0 A 0 0 0 0 0 1 1")
SVG_POINTS = ("", "1", "1 2 3", "a b", "1,2,3,4,5", "0 0 1e11 0", "0 0 10 10 20 0")
SVG_WORDS = ("foo", "", "inherit", "round", "miter", "evenodd", "middle", "bold", "900", "x")
SVG_OTHER = {
    "stroke-dasharray": ("-1", "0 0", "a b", "1e11", "1,,2", "none", "5 x", "3 1 2"),
    "opacity": ("2", "-1", "abc", "50%", "", "0.5"), "fill-opacity": ("x", "-3", "0.2"),
    "stroke-opacity": ("1e9", "x"), "stop-opacity": ("x", "2"), "offset": ("abc", "150%", "-1"),
    "viewBox": ("0 0 0 0", "a b c d", "0 0 -1 -1", "0 0 10", "0,0,10,10"),
    "preserveAspectRatio": ("foo", "xMidYMid slice", "none bar"),
    "font-family": ("", "Nope", "'x", "serif"), "clip-path": ("url(#nope)", "url(", "#zc"),
    "href": ("#nope", "#", "", "#zz"), "d": SVG_PATHS, "points": SVG_POINTS,
}
SVG_LENGTH_ATTRIBUTES = ("x", "y", "width", "height", "rx", "ry", "r", "cx", "cy", "x1", "x2",
                         "y1", "y2", "fx", "fy", "dx", "dy", "stroke-width", "font-size",
                         "stroke-dashoffset", "stroke-miterlimit")
SVG_COLOUR_ATTRIBUTES = ("fill", "stroke", "color", "stop-color")
SVG_TRANSFORM_ATTRIBUTES = ("transform", "gradientTransform", "patternTransform")
SVG_WORD_ATTRIBUTES = ("stroke-linejoin", "stroke-linecap", "fill-rule", "clip-rule",
                       "text-anchor", "font-weight", "font-style", "display", "visibility")
_START_TAG = re.compile(r'<([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|\'[^\']*\'))*)'
                        r"\s*(/?)>")


def _garbage(rng: random.Random) -> tuple[str, str]:
    """An attribute and a value for it: mostly garbage of the kind it holds, sometimes of
    another kind."""
    kind = rng.random()
    if kind < 0.35:
        name, values = rng.choice(SVG_LENGTH_ATTRIBUTES), SVG_LENGTHS
    elif kind < 0.55:
        name, values = rng.choice(SVG_COLOUR_ATTRIBUTES), SVG_COLOURS
    elif kind < 0.7:
        name, values = rng.choice(SVG_TRANSFORM_ATTRIBUTES), SVG_TRANSFORMS
    elif kind < 0.8:
        name, values = rng.choice(SVG_WORD_ATTRIBUTES), SVG_WORDS
    else:
        name = rng.choice(sorted(SVG_OTHER))
        values = SVG_OTHER[name]
    if rng.random() < 0.1:  # a value of another kind
        values = rng.choice([SVG_LENGTHS, SVG_COLOURS, SVG_TRANSFORMS, SVG_PATHS, SVG_WORDS])
    return name, rng.choice(values)


def _attributes(rng: random.Random, count: int) -> str:
    chosen = dict(_garbage(rng) for _ in range(count))
    if rng.random() < 0.25:  # as CSS, where svglib reads it too
        style = ";".join(f"{name}:{value}" for name, value in chosen.items())
        return f' style="{style}"'
    return "".join(f' {name}="{value}"' for name, value in chosen.items())


#: elements nested into an SVG, with the good attributes that make them draw something
SVG_NEW_ELEMENTS = (
    '<rect width="20" height="10"{a}/>', '<circle cx="10" cy="10" r="5"{a}/>',
    '<ellipse cx="10" cy="10" rx="5" ry="3"{a}/>', '<line x1="0" y1="0" x2="9" y2="9" '
    'stroke="#000"{a}/>', '<polyline points="0 0 5 5 9 0"{a}/>',
    '<polygon points="0 0 5 5 9 0"{a}/>', '<path d="M0 0 L9 9 Z"{a}/>',
    '<text x="2" y="9"{a}>ab<tspan dx="1"{b}>c</tspan></text>',
    '<g{a}><rect width="9" height="9"{b}/></g>',
    '<defs><linearGradient id="zg"{a}><stop offset="0" stop-color="#f00"{b}/>'
    '<stop offset="1" stop-color="#00f"/></linearGradient></defs>'
    '<rect width="30" height="20" fill="url(#zg)"/>',
    '<defs><radialGradient id="zr"{a}><stop offset="0.5" stop-color="#0f0"{b}/>'
    '</radialGradient></defs><circle r="9" cx="9" cy="9" fill="url(#zr)"/>',
    '<defs><clipPath id="zc"><rect width="9" height="9"{a}/></clipPath></defs>'
    '<g clip-path="url(#zc)"><circle r="20"{b}/></g>',
    '<defs><g id="zz"><path d="M0 0 L5 5"{a}/></g></defs><use href="#zz"{b}/>',
    '<symbol id="zs" viewBox="0 0 10 10"{a}><rect width="5" height="5"/></symbol>'
    '<use href="#zs" width="9" height="9"{b}/>',
    '<svg x="1" y="1" width="10" height="10"{a}><rect width="5" height="5"{b}/></svg>',
)


def _last_of_each(tag: re.Match) -> str:
    """A start tag with each attribute once (the garbage, written last, wins): well-formed."""
    found = dict(re.findall(r'([\w:.-]+)\s*=\s*("[^"]*"|\'[^\']*\')', tag[2]))
    return f"<{tag[1]}" + "".join(f" {k}={v}" for k, v in found.items()) + f"{tag[3]}>"


def attack_svg_values(data: bytes, rng: random.Random) -> bytes:
    """Well-formed SVG whose attribute values are garbage: lengths, colours, transforms, paths,
    dash arrays, CSS, on the file's own elements or on elements nested into them (groups,
    gradients, clip paths, symbols, text). What svglib cannot draw must be a finding at
    validate, and whatever validates must build, preview and export."""
    text = data.decode("utf-8", "replace")
    head, closed, body = text.partition(">")
    if not closed or "<svg" not in head:
        return mutate_bytes(data, rng)
    for _ in range(rng.randint(1, 4)):
        tags = list(_START_TAG.finditer(body))
        if tags and rng.random() < 0.6:  # an element of the file gets a garbage value
            tag = rng.choice(tags)
            name, value = _garbage(rng)
            kept = re.sub(rf'\s{re.escape(name)}\s*=\s*("[^"]*"|\'[^\']*\')', "", tag[2])
            body = (body[:tag.start()] + f'<{tag[1]}{kept} {name}="{value}"{tag[3]}>'
                    + body[tag.end():])
            continue
        element = _START_TAG.sub(_last_of_each, rng.choice(SVG_NEW_ELEMENTS).format(
            a=_attributes(rng, rng.randint(1, 3)), b=_attributes(rng, rng.randint(0, 2))))
        for _ in range(rng.choice([0, 0, 1, 3])):  # inside groups that move it
            element = f'<g transform="{rng.choice(SVG_TRANSFORMS)}">{element}</g>'
        openers = [t.end() for t in tags if not t[3]] or [0]
        at = rng.choice([0, *openers])
        body = body[:at] + element + body[at:]
    if rng.random() < 0.15:  # a style sheet with garbage values
        name, value = _garbage(rng)
        selector = rng.choice(["rect", "path", "*", "g", "circle", "text"])
        body = f"<style>{selector} {{ {name}: {value} }}</style>" + body
    return (head + ">" + body).encode()


def _png_bytes(side: int, color: tuple[int, int, int] = (3, 250, 3), cut: bool = False) -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (side, side), color).save(buffer, "PNG")
    data = buffer.getvalue()
    return data[: len(data) * 2 // 3] if cut else data


def attack_svg_outside(data: bytes, rng: random.Random, target: Path, outside: Path) -> bytes:
    """An SVG naming the files beside the pack: <use>, <image>, CSS, absolute paths, URLs."""
    text = data.decode("utf-8", "replace")
    head, _, _ = text.partition(">")
    up = os.path.relpath(outside, target.parent).replace(os.sep, "/")
    name = rng.choice(["secret.svg#s", "secret.svg", "secret.png"])
    href = rng.choice([f"{up}/{name}", f"{outside}/{name}", f"file://{outside}/{name}",
                       f"{up}/../outside/./{name}", f"{up}\\{name}"])
    element = rng.choice(["use", "image", "image", "css", "import"])
    if element == "use":
        body = f'<use href="{href}"/><use xlink:href="{href}"/>'
    elif element == "image":
        body = f'<image width="50" height="50" xlink:href="{href}" href="{href}"/>'
    elif element == "css":
        body = f'<rect width="9" height="9" style="fill:url({href})"/>'
    else:
        body = f'<style>@import "{href}"; rect {{fill: url("{href}")}}</style><rect width="9"/>'
    head = head if "xmlns:xlink" in head else head + ' xmlns:xlink="http://www.w3.org/1999/xlink"'
    return (head + ">" + body + "</svg>\n").encode()


def attack_svg_raster(data: bytes, rng: random.Random, target: Path) -> bytes:
    """An SVG with a picture inside: embedded as a data URI (whole, cut short, wrapped, of many
    pixels, not PNG), or a picture file of the pack beside it."""
    import base64

    text = data.decode("utf-8", "replace")
    head, _, _ = text.partition(">")
    choice = rng.randrange(6)
    if choice == 5:
        picture = target.with_name("zz-picture.png")
        picture.write_bytes(_png_bytes(rng.choice([8, 64]), cut=rng.random() < 0.3))
        href = picture.name
    else:
        raw = {0: _png_bytes(16), 1: _png_bytes(16, cut=True), 2: _png_bytes(6000),
               3: b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", 4: _png_bytes(32)}[choice]
        encoded = base64.b64encode(raw).decode()
        if choice == 4:  # wrapped as Inkscape writes it
            encoded = "\n".join(encoded[i:i + 76] for i in range(0, len(encoded), 76))
        kind = "gif" if choice == 3 else rng.choice(["png", "png", "jpeg"])
        href = f"data:image/{kind};base64,{encoded}"
    head = head if "xmlns:xlink" in head else head + ' xmlns:xlink="http://www.w3.org/1999/xlink"'
    body = f'<image x="5" y="5" width="40" height="40" xlink:href="{href}"/>'
    return (head + ">" + body + "</svg>\n").encode()


def attack_workbook_xml(path: Path, rng: random.Random) -> str:
    """Edit the XML inside a workbook: a long comment or attribute (expat's quadratic case),
    many shared strings or styles, elements nested millions deep, a part cut short or not
    XML."""
    import zipfile

    with zipfile.ZipFile(path) as source:
        parts = {info.filename: source.read(info) for info in source.infolist()}
    sheet = next((n for n in parts if n.startswith("xl/worksheets/")), "xl/worksheets/sheet1.xml")
    choice = rng.randrange(7)
    xml = parts.get(sheet, b"<worksheet/>")
    if choice == 0:
        size = rng.choice([300_000, 3_000_000, 24_000_000])
        parts[sheet] = xml.replace(b"</worksheet>", b"<!--" + b"x" * size + b"--></worksheet>")
        what = f"comment {size}"
    elif choice == 1:
        parts[sheet] = xml.replace(b"<sheetData", b'<sheetData a="' + b"1" * 2_000_000 + b'"')
        what = "long attribute"
    elif choice == 2:
        parts["xl/sharedStrings.xml"] = (b'<sst xmlns="http://schemas.openxmlformats.org/'
                                         b'spreadsheetml/2006/main">' + b"<si><t/></si>"
                                         * rng.choice([1_000, 2_000_000]) + b"</sst>")
        what = "shared strings"
    elif choice == 3 and "xl/styles.xml" in parts:
        parts["xl/styles.xml"] = parts["xl/styles.xml"].replace(
            b"</cellXfs>", b"<xf/>" * rng.choice([100, 1_000_000]) + b"</cellXfs>")
        what = "styles"
    elif choice == 6:
        depth = rng.choice([100, 1_000_000, 9_000_000])
        parts[sheet] = xml.replace(b"</worksheet>", b"<x>" * depth + b"</x>" * depth
                                   + b"</worksheet>")
        what = f"nested {depth}"
    elif choice == 4:
        name = rng.choice(sorted(n for n in parts if n.endswith(".xml")))
        parts[name] = parts[name][: rng.randrange(len(parts[name]) + 1)]
        what = f"cut {name}"
    else:
        name = rng.choice(sorted(n for n in parts if n.endswith(".xml")))
        parts[name] = rng.choice([b"<a><b></a>", b"not xml", b"\xff\xfe<\x00a\x00",
                                  b'<?xml version="1.0" encoding="UTF-7"?><a/>'])
        what = f"malformed {name}"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for name, data in parts.items():
            target.writestr(name, data)
    return what


def attack_cel(data: bytes, rng: random.Random) -> bytes:
    """A data game's rule with nesting the cost check must see through: comprehensions over
    comprehensions, concatenated lists, literal lists, macros over other names."""
    nested = rng.choice([
        "cards.map(a, cards.map(b, cards.map(c, cards.map(d, a))))",
        "cards.all(a, cards.all(b, cards.all(c, cards.exists(d, d == a))))",
        "(cards + cards + cards + cards + cards + cards).map(a, cards).size() > 0",
        "[" * 60 + "1" + "]" * 60 + " == []",
        "[cards, cards, cards].map(l, l.map(a, l.map(b, l.size()))).size() > 0",
        "cards.map(x, x).map(y, cards.map(z, cards)).size() > 0",
        "size(" * 200 + "cards" + ")" * 200 + " > 0",
    ])
    text = data.decode("utf-8", "replace")
    replaced = re.sub(r'check: "[^"\n]*"', lambda _: f'check: "{nested}"', text,
                      count=rng.randint(1, 3))
    return replaced.encode()


def attack_po_charset(data: bytes, rng: random.Random) -> bytes:
    """A catalog whose charset lies, or is no text encoding; a message written twice; a hundred
    thousand obsolete entries (fuzzy matching over them)."""
    text = data.decode("utf-8", "replace")
    choice = rng.randrange(5)
    if choice == 0:  # bytes of one charset declared as another
        actual, declared = rng.choice([("latin-1", "ISO-8859-5"), ("latin-1", "KOI8-R"),
                                       ("cp1251", "ISO-8859-1"), ("koi8-r", "CP1252")])
        return text.replace("charset=UTF-8", f"charset={declared}").encode(actual, "replace")
    if choice == 1:
        declared = rng.choice(["base64", "rot13", "UTF-7", "zlib", "hex", "idna", "UTF-32"])
        return text.replace("charset=UTF-8", f"charset={declared}").encode()
    if choice == 2:
        entries = re.findall(r'(?ms)^(?:msgctxt "[^\n]*"\n)?msgid "[^\n]+"\n.*?(?=\n\n|\Z)',
                             text)
        return (text + "\n\n" + rng.choice(entries or ['msgid "x"\nmsgstr "y"'])
                + "\n").encode()
    if choice == 3:
        old = "".join(f'#~ msgid "Old text number {i} of a card"\n#~ msgstr "Alt {i}"\n\n'
                      for i in range(rng.choice([1_000, 100_000])))
        return (text + "\n" + old).encode()
    return text.replace("charset=UTF-8", "charset=UTF-8; charset=BOGUS").encode()


def _table_rows(path: Path | None) -> list[list[str]]:
    """The rows of a CSV table (two made-up rows when there is none to read)."""
    import csv
    import io

    try:
        if path is not None:
            return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    except (OSError, UnicodeDecodeError, csv.Error):
        pass
    return [["id", "kind", "name"], ["x", "y", "z"]]


def write_workbook(path: Path, rows: list[list[str]], rng: random.Random) -> None:
    """An XLSX workbook of a table's rows with hostile cells: formulas never computed, error
    values, dates, long texts, numbers where text is wanted, a second empty sheet."""
    import datetime

    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = rng.choice(["Cards", "x" * 31, "Лист1"])
    for row in rows:
        cells: list[object] = list(row)
        if len(rows) > 1 and rng.random() < 0.3 and cells:
            index = rng.randrange(len(cells))
            cells[index] = rng.choice(["=1/0", "=A1+1", "#REF!", 3.5, 10**15, True,
                                       datetime.date(2024, 3, 5), "W" * 12_000, None, ""])
        sheet.append(cells)
    if rng.random() < 0.3:
        workbook.create_sheet("Empty")
    workbook.save(path)


def attack_add(pack: Path, source: Source, rng: random.Random) -> str:
    """Add a hostile file where pnp looks for one; returns what was added."""
    templates = pack / "templates"
    choices = ["card"]
    if templates.is_dir():
        choices += ["labels", "template", "icon", "xlsx"]
    what = rng.choice(choices)
    if what == "card":
        cards = source.files.get("card")
        original = (pack / rng.choice(cards)).read_bytes() if cards else b"cards: []\n"
        mutator = rng.choice([mutate_bytes, mutate_yaml, attack_yaml])
        (pack / "zz-added.yaml").write_bytes(mutator(original, rng))
    elif what == "labels":
        mutator = rng.choice([mutate_bytes, mutate_yaml, attack_yaml])
        (templates / "labels.yaml").write_bytes(mutator(b"tide: Tide\nkey: A label\n", rng))
    elif what == "template":
        original = rng.choice(sorted(templates.glob("*.yaml"))).read_bytes()
        mutator = rng.choice([mutate_bytes, mutate_yaml, attack_yaml])
        (templates / "zz-added.yaml").write_bytes(mutator(original, rng))
    elif what == "icon":
        icons = sorted((pack / "icons").glob("*.svg"))
        original = icons[0].read_bytes() if icons else b'<svg width="9" height="9"/>'
        mutator = rng.choice([mutate_bytes, attack_svg, attack_svg, attack_svg_values])
        (pack / "icons").mkdir(exist_ok=True)
        (pack / "icons" / "zz-added.svg").write_bytes(mutator(original, rng))
    else:
        write_workbook(pack / "zz-added.xlsx", _table_rows(next(iter(sorted(
            pack.rglob("*.csv"))), None)), rng)
    return what


FS_ATTACKS = ("dangling-link", "fifo", "link-outside", "directory", "empty", "sparse-huge",
              "unreadable", "link-loop", "link-inside")


def attack_fs(target: Path, pack: Path, rng: random.Random, outside: Path) -> str:
    """Replace a file by something that is not a readable regular file of the pack."""
    attack = rng.choice(FS_ATTACKS)
    if attack == "link-loop":
        os.symlink(".", pack / "loop")
        return attack
    if attack == "link-inside":
        os.symlink(target.name, target.with_name("linked-" + target.name))
        return attack
    target.unlink()
    if attack == "dangling-link":
        os.symlink("missing-file.yaml", target)
    elif attack == "fifo":
        os.mkfifo(target)
    elif attack == "link-outside":
        secret = outside / "secret.yaml"
        secret.write_text("cards: []\nterms: []\n", encoding="utf-8")
        os.symlink(secret, target)
    elif attack == "directory":
        target.mkdir()
    elif attack == "empty":
        target.write_bytes(b"")
    elif attack == "sparse-huge":
        with open(target, "wb") as handle:
            handle.truncate(rng.choice([20, 200]) * 1024 * 1024)
    elif attack == "unreadable":
        target.write_bytes(b"cards: []\n")
        target.chmod(0)
    return attack


# --- cases ------------------------------------------------------------------------------------

@dataclass
class Case:
    number: int
    source: str
    kind: str
    target: str
    attack: str
    command: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    case: Case
    classes: list[str]
    exit_code: int | None
    cpu_seconds: float
    max_rss_kb: int
    detail: str = ""


def make_case(seed: int, number: int, sources: list[Source]) -> tuple[Case, random.Random]:
    rng = random.Random(seed * 1_000_003 + number)
    # a kind of file first, then a pack that has one: each kind gets its share of the cases,
    # though only the data game has tables, art and fonts
    kind = rng.choice(sorted({k for source in sources for k in source.files}))
    source = rng.choice([source for source in sources if kind in source.files])
    target = rng.choice(source.files[kind])
    roll = rng.random()
    if roll < 0.12:
        attack = "fs"
    elif roll < 0.2:
        attack = "add"
    elif kind == "catalog":
        attack = rng.choice(["bytes", "po", "po", "po-charset", "po-charset"])
    elif kind == "manifest" and target == "game.yaml" and "table" in source.files:
        attack = rng.choice(["bytes", "yaml", "yaml-attack", "cel", "cel"])  # a data game
    elif kind in {"card", "manifest", "glossary", "deck", "template"}:
        attack = rng.choice(["bytes", "yaml", "yaml", "yaml-attack"])
    elif kind == "table":
        attack = rng.choice(["bytes", "table", "table", "xlsx", "xlsx-xml"])
    elif kind == "image" and target.endswith(".svg"):
        attack = rng.choice(["bytes", "svg", "svg", "svg-outside", "svg-outside", "svg-raster",
                             "svg-values", "svg-values"])
    else:
        attack = "bytes"
    case = Case(number, source.folder.name, kind, target, attack)
    case.command = _command(source, kind, rng, attack)
    return case, rng


def _command(source: Source, kind: str, rng: random.Random, attack: str = "") -> list[str]:
    pack = "{pack}" if source.base is None else "{base}"
    extra = [] if source.base is None else ["--with", "{pack}"]
    locale = rng.choice(source.locales)
    roll = rng.random()
    if attack in {"svg-outside", "svg-raster"} and roll < 0.5:  # what reaches an output
        if roll < 0.1:
            return ["preview", pack, *extra, "--locale", locale, "--out", "{out}"]
        return ["build", pack, *extra, "--locale", locale, "--out", "{out}", "-q"]
    if attack == "svg-values" and roll < 0.7:  # what validates must draw, in every output
        if roll < 0.15:
            return ["preview", pack, *extra, "--locale", locale, "--out", "{out}"]
        if roll < 0.35:
            return ["export", pack, *extra, "--locale", locale, "--to",
                    rng.choice(["card-pdf", "png", "tts"]), "--out", "{out}", "-q"]
        return ["build", pack, *extra, "--locale", locale, "--out", "{out}", "-q"]
    if attack == "po-charset" and roll < 0.4:
        return ["i18n", rng.choice(["status", "update", "update"]), "{pack}"]
    if roll < 0.07:
        return ["build", pack, *extra, "--locale", locale, "--out", "{out}", "-q"]
    if roll < 0.11:
        return ["i18n", rng.choice(["status", "update", "extract"]), "{pack}"]
    if roll < 0.13:
        return ["schema", "{pack}", "--out", "{out}"]
    command = ["validate", pack, *extra, "--format", "json"]
    if kind == "catalog" or rng.random() < 0.5:
        command += ["--locale", locale]
    decks = source.files.get("deck")
    if decks and (kind == "deck" or rng.random() < 0.3):
        command += ["--deck", rng.choice(decks)]
    return command


def materialize(case: Case, rng: random.Random, sources: dict[str, Source],
                work: Path) -> list[str]:
    """Write the case's packs into ``work`` and return the command line to run there."""
    source = sources[case.source]
    pack = work / "pack"
    shutil.copytree(source.folder, pack, symlinks=True)
    base = work / "base"
    if source.base is not None:
        shutil.copytree(source.base, base, symlinks=True)
    outside = work / "outside"
    outside.mkdir()
    (outside / "secret.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">'
        f'<g id="s"><rect width="100" height="100" fill="#fa0303"/><text x="5" y="50">'
        f'{SECRET_MARKER}</text></g></svg>', encoding="utf-8")
    (outside / "secret.png").write_bytes(_png_bytes(24, (250, 3, 3)))
    target = pack / case.target
    if case.attack == "fs":
        case.attack = "fs:" + attack_fs(target, pack, rng, outside)
    elif case.attack == "add":
        case.attack = "add:" + attack_add(pack, source, rng)
    elif case.attack in {"xlsx", "xlsx-xml"}:  # the table as a workbook, with hostile cells
        rows = _table_rows(target)
        target.unlink()
        write_workbook(target.with_suffix(".xlsx"), rows, rng)
        if case.attack == "xlsx-xml":
            case.attack += ":" + attack_workbook_xml(target.with_suffix(".xlsx"), rng)
    elif case.attack == "svg-outside":
        target.write_bytes(attack_svg_outside(target.read_bytes(), rng, target, outside))
    elif case.attack == "svg-raster":
        target.write_bytes(attack_svg_raster(target.read_bytes(), rng, target))
    else:
        mutator: Callable[[bytes, random.Random], bytes] = {
            "bytes": mutate_bytes, "yaml": mutate_yaml, "yaml-attack": attack_yaml,
            "po": attack_po, "table": attack_table, "svg": attack_svg, "cel": attack_cel,
            "po-charset": attack_po_charset, "svg-values": attack_svg_values}[case.attack]
        target.write_bytes(mutator(target.read_bytes(), rng))
    for secret in outside.iterdir():  # read by anyone, its access time moves past its mtime
        info = secret.lstat()
        os.utime(secret, (info.st_mtime - 10_000, info.st_mtime), follow_symlinks=False)
    names = {"{pack}": "pack", "{base}": "base", "{out}": "out"}
    return [names.get(arg, arg) for arg in case.command]


# --- running ---------------------------------------------------------------------------------

def _mapped_bytes() -> int:
    """The address space this process maps now (Linux: /proc/self/status VmSize), 0 if not
    known."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _child(args: list[str], work: Path) -> None:
    """Runs in the forked child: limits, redirected output, pnp's own entry point."""
    code = 0
    try:
        os.chdir(work)
        # 1 GiB more than the child already maps: a child forked from a large process (the
        # test run, with every test module's libraries loaded) starts with their mappings,
        # which are not pnp's to pay for
        limit = _mapped_bytes() + MEMORY_BYTES
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))
        for fd, name in ((1, "stdout"), (2, "stderr")):
            handle = os.open(work / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(handle, fd)
            os.close(handle)
        # the parent's sys.stdout may be a capture object (pytest): speak to the files
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.argv = ["pnp", *args]
        from generator.cli.main import main

        main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # anything escaping main() is a fuzz finding
        import traceback

        traceback.print_exc()
        code = 99
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def run_case(case: Case, rng: random.Random, sources: dict[str, Source],
             keep: bool = False) -> Outcome:
    work = Path(tempfile.mkdtemp(prefix=f"pnp-fuzz-{case.number}-"))
    try:
        args = materialize(case, rng, sources, work)
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(args, work)
        timed_out = False
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() - started > WALL_SECONDS:
                os.kill(pid, signal.SIGKILL)
                _, status, usage = os.wait4(pid, 0)
                timed_out = True
                break
            time.sleep(0.005)
        out = _read(work / "stdout")
        err = _read(work / "stderr")
        cpu = usage.ru_utime + usage.ru_stime
        outcome = Outcome(case, [], None, cpu, usage.ru_maxrss)
        classify(outcome, status, timed_out, out, err, work)
        return outcome
    finally:
        if keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            _remove(work)


def _read(path: Path) -> str:
    try:
        return path.read_bytes()[-2_000_000:].decode("utf-8", "replace")
    except OSError:
        return ""


def _remove(work: Path) -> None:
    for folder, dirs, _ in os.walk(work):
        for name in dirs:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(folder, name), 0o700)
    shutil.rmtree(work, ignore_errors=True)


def classify(outcome: Outcome, status: int, timed_out: bool, out: str, err: str,
             work: Path) -> None:
    classes = outcome.classes
    if timed_out:
        classes.append("hang")
        outcome.detail = f"no end within {WALL_SECONDS} s"
        return
    if os.WIFSIGNALED(status):
        signal_number = os.WTERMSIG(status)
        if signal_number in {signal.SIGXCPU, signal.SIGKILL}:
            classes.append("hang")
            outcome.detail = f"over {CPU_SECONDS} s of CPU"
        else:
            classes.append("crash")
            outcome.detail = f"signal {signal.Signals(signal_number).name}"
        return
    code = os.WEXITSTATUS(status)
    outcome.exit_code = code
    if "MemoryError" in err or "MemoryError" in out:
        classes.append("memory")
        outcome.detail = err[-300:]
        return
    if "internal error" in err or "Traceback" in err or "Traceback" in out:
        classes.append("internal")
        outcome.detail = err[-600:]
        return
    findings = _findings(outcome.case, out, err)
    for finding in findings:
        if finding["line"] > 0 or finding["code"] in WHOLE_FILE_CODES:
            continue
        if _has_lines(work, finding["file"]):
            classes.append("unlocated")
            outcome.detail = f"{finding['file']}: {finding['code']}: {finding['message']}"
            break
    errors = [f for f in findings if f["severity"] == "error"]
    if code not in {0, 1, 2}:
        classes.append("exit-code")
        outcome.detail = f"exit {code}: {err[-300:]}"
    elif code == 1 and not errors:
        classes.append("exit-code")
        outcome.detail = f"exit 1 without an error finding: {err[-300:]} {out[-300:]}"
    elif code == 0 and errors:
        classes.append("exit-code")
        outcome.detail = "exit 0 with error findings"
    elif code == 2 and not err.strip():
        classes.append("exit-code")
        outcome.detail = "exit 2 without a message"
    elif code == 2 and ("cannot be drawn" in err or outcome.case.attack == "svg-values"):
        classes.append("exit-code")
        outcome.detail = f"an SVG that validated could not be drawn: {err[-300:]}"
    leaked = _leaked(work / "out") or _read_outside(work / "outside")
    if leaked:
        classes.append("leak")
        outcome.detail = f"bytes from outside the pack in {leaked}"
    noise = _noise(err)
    if noise:
        classes.append("stderr")
        outcome.detail = f"not pnp's own line on stderr: {noise!r}"


#: what a library prints through logging's last-resort handler or warnings.showwarning
_LIBRARY_LINE = re.compile(r"^(?:[\w.]+Warning: |WARNING:|ERROR:|Unable to |Can't handle|"
                           r"Failed to |Ignoring |Refusing |.*\.py:\d+: )")


def _noise(err: str) -> str:
    for line in err.splitlines():
        if _LIBRARY_LINE.match(line) or any(ord(c) < 32 and c != "\t" for c in line):
            return line[:200]
    return ""


def _read_outside(outside: Path) -> str:
    """A file beside the pack that was opened and read during the run (its access time was set
    long before its modification time; the file system's relatime moves it on a read)."""
    for secret in sorted(outside.iterdir()) if outside.is_dir() else ():
        info = secret.lstat()
        if info.st_atime > info.st_mtime - 5_000:
            return f"outside/{secret.name} (read)"
    return ""


def _leaked(out: Path) -> str:
    """The first output file holding the secret marker, in its bytes or in a PDF stream."""
    import zlib

    marker = SECRET_MARKER.encode()
    if not out.is_dir():
        return ""
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.is_symlink():
            continue
        data = path.read_bytes()
        if marker in data:
            return str(path.relative_to(out))
        if path.suffix == ".pdf":
            for stream in re.findall(rb"stream\r?\n(.*?)endstream", data, re.DOTALL):
                with contextlib.suppress(zlib.error):
                    if marker in zlib.decompressobj().decompress(stream, 50_000_000):
                        return str(path.relative_to(out))
    return ""


def _findings(case: Case, out: str, err: str) -> list[dict]:
    if case.command[0] == "validate":
        try:
            return json.loads(out)["findings"]
        except (ValueError, KeyError, TypeError):
            pass
    found = []
    for match in _FINDING_LINE.finditer(out + "\n" + err):
        found.append({"file": match["file"], "line": int(match["line"] or 0),
                      "code": match["code"], "severity": match["severity"],
                      "message": ""})
    return found


def _has_lines(work: Path, file: str) -> bool:
    """Is ``file`` a regular, readable, non-empty text file (so a finding on it has a line)?
    A workbook, a picture or a font has no lines: a finding on it as a whole is located."""
    path = Path(file) if os.path.isabs(file) else work / file
    if path.suffix.lower() in BINARY_SUFFIXES:
        return False
    try:
        if path.is_symlink() or not path.is_file():
            return False
        data = path.read_bytes()[:1_000_000]
    except OSError:
        return False
    return bool(data.strip())


# --- the campaign -----------------------------------------------------------------------------

_SOURCES: dict[str, Source] = {}


def _init_worker() -> None:
    """Import pnp once per worker: every forked case starts warm."""
    import importlib

    from generator.load.fonts import FONT_FILES, font_name

    for module in ("generator.cli.main", "generator.pipeline.build",
                   "generator.pipeline.localecheck"):
        importlib.import_module(module)
    for style in FONT_FILES:
        font_name(style)
    _SOURCES.update({s.folder.name: s for s in shipped_sources()})


def _run_number(arguments: tuple[int, int]) -> Outcome:
    seed, number = arguments
    case, rng = make_case(seed, number, list(_SOURCES.values()))
    return run_case(case, rng, _SOURCES)


def campaign(seed: int, numbers: list[int], jobs: int,
             report: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    outcomes: list[Outcome] = []
    if jobs <= 1:
        _init_worker()
        for number in numbers:
            outcome = _run_number((seed, number))
            outcomes.append(outcome)
            if report:
                report(outcome)
        return outcomes
    context = multiprocessing.get_context("fork")
    with context.Pool(jobs, initializer=_init_worker, maxtasksperchild=200) as pool:
        for outcome in pool.imap_unordered(_run_number, [(seed, n) for n in numbers],
                                           chunksize=4):
            outcomes.append(outcome)
            if report:
                report(outcome)
    return outcomes


def table(outcomes: list[Outcome], seconds: float) -> str:
    counts = Counter(c for outcome in outcomes for c in outcome.classes)
    commands = Counter(" ".join(o.case.command[:2]) if o.case.command[0] == "i18n"
                       else o.case.command[0] for o in outcomes)
    kinds = Counter(o.case.kind for o in outcomes)
    attacks = Counter(o.case.attack.split(":")[0] for o in outcomes)
    exits = Counter(o.exit_code for o in outcomes)
    cpu = sorted(o.cpu_seconds for o in outcomes)
    rss = max((o.max_rss_kb for o in outcomes), default=0)
    lines = [f"cases tried: {len(outcomes)} in {seconds:.0f} s",
             "failures by class:"]
    lines += [f"  {name:<10} {counts.get(name, 0)}" for name in CLASSES]
    lines.append(f"  {'total':<10} {sum(1 for o in outcomes if o.classes)}")
    lines.append("commands: " + ", ".join(f"{k} {v}" for k, v in sorted(commands.items())))
    lines.append("files attacked: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    lines.append("mutators: " + ", ".join(f"{k} {v}" for k, v in sorted(attacks.items())))
    lines.append("exit codes: " + ", ".join(f"{k} {v}" for k, v in sorted(
        exits.items(), key=lambda kv: str(kv[0]))))
    if cpu:
        lines.append(f"CPU per case: median {cpu[len(cpu) // 2]:.2f} s, max {cpu[-1]:.2f} s; "
                     f"peak RSS {rss / 1024:.0f} MiB")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=3000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--case", type=int, default=None, help="replay one case")
    parser.add_argument("--keep", action="store_true", help="keep the case's folder")
    args = parser.parse_args(argv)
    # fuzzed SVG art is compiled into a cache of the campaign's own, not the user's
    # (generator.render.vectorart.user_art_folder)
    os.environ.setdefault("PNP_CACHE_DIR", tempfile.mkdtemp(prefix="pnp-fuzz-cache-"))
    if args.case is not None:
        _init_worker()
        case, rng = make_case(args.seed, args.case, list(_SOURCES.values()))
        outcome = run_case(case, rng, _SOURCES, keep=args.keep)
        print(json.dumps({"case": vars(case), "classes": outcome.classes,
                          "exit": outcome.exit_code, "cpu": round(outcome.cpu_seconds, 2),
                          "detail": outcome.detail}, ensure_ascii=False, indent=2))
        return 1 if outcome.classes else 0
    started = time.monotonic()
    done = 0

    def report(outcome: Outcome) -> None:
        nonlocal done
        done += 1
        if outcome.classes:
            print(f"case {outcome.case.number} [{', '.join(outcome.classes)}] "
                  f"{outcome.case.source}/{outcome.case.target} {outcome.case.attack} "
                  f"{' '.join(outcome.case.command)}: {outcome.detail[:400]}", flush=True)
        if done % 250 == 0:
            print(f"... {done} cases, {time.monotonic() - started:.0f} s", flush=True)

    numbers = list(range(args.start, args.start + args.cases))
    outcomes = campaign(args.seed, numbers, args.jobs, report)
    print(table(outcomes, time.monotonic() - started))
    return 1 if any(o.classes for o in outcomes) else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
