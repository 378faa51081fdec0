"""Where a reference written in an SVG may lead: the one decision validate and drawing share.

An SVG can name other things: a shape of another file (``<use href="defs.svg#star">``), a
picture (``<image href="photo.png">`` or an embedded ``data:image/png;base64,...``), a URL in
CSS. svglib follows ``<use>`` and ``<image>`` references to files relative to the SVG, so a
stranger's pack could print any file of the user's disk ("../../../home/me/notes.svg").
:func:`classify` says what each reference is, using the same path arithmetic as svglib
(``os.path.normpath`` of the SVG's folder joined with the reference), so that the file pnp
checks is the file svglib would read. :mod:`generator.load.art` applies it to every SVG: a reference
outside the pack, or to what svglib cannot draw, is a finding where the card names the SVG,
before any output is written, and the drawing is made with svglib's own
``external_reference_root`` set to the same pack folder, so the library refuses on its own
anything that would still escape.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from pathlib import Path

from msgspec import Struct

#: a scheme (``file:``, ``http:``) or a Windows drive (``C:``); ``data:`` is looked at apart
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
#: the only embedded pictures svglib decodes (its own pattern, ``^data:image/(jpe?g|png);base64``,
#: then one character skipped: the comma)
_DATA_PICTURE = re.compile(r"data:image/(jpe?g|png);base64,")
#: base64's alphabet and the white space Inkscape wraps it with
_BASE64_TEXT = re.compile(r"[A-Za-z0-9+/=\s]*")


class Reference(Struct, frozen=True, gc=False):
    """What a reference is. ``kind``: ``file`` (``path`` is the file svglib would read),
    ``picture`` (``data`` holds an embedded picture's bytes), ``ignored`` (never read: CSS that
    names a file of the pack), or ``refused`` (``reason`` says why)."""

    kind: str
    path: Path | None = None
    data: bytes | None = None
    reason: str = ""


def _refused(reason: str) -> Reference:
    return Reference("refused", reason=reason)


def classify(value: str, element: str, svg_path: Path, root: Path, css: bool = False
             ) -> Reference:
    """What the reference ``value``, written on ``element`` of the SVG ``svg_path`` (or in its
    CSS), is under the rule that nothing outside the pack folder ``root`` is read."""
    shown = value if len(value) <= 60 else value[:57] + "..."
    if value.startswith("data:"):
        if css:
            return Reference("ignored")
        if element != "image":
            return _refused(f"a <{element}> cannot hold an embedded picture ('{shown[:30]}')")
        return _embedded(value)
    location, _, _ = value.partition("#")
    if not location:
        return Reference("ignored")
    if "\\" in location or os.path.isabs(location) or location.startswith(("/", "~")) \
            or _SCHEME.match(location):
        return _refused(f"names '{shown}', which is not a file of the pack; copy it into the "
                        "pack and name it relative to the SVG")
    resolved = os.path.normpath(os.path.join(os.path.dirname(str(svg_path)), location))
    real_root = os.path.realpath(root)
    real = os.path.realpath(resolved)
    try:
        inside = os.path.commonpath([real_root, real]) == real_root
    except ValueError:  # another drive
        inside = False
    if not inside:
        return _refused(f"names '{shown}', which is outside the pack folder; copy it into the "
                        "pack and name it relative to the SVG")
    if css:
        return Reference("ignored")  # svglib reads no file that CSS names
    if element not in {"use", "image"}:
        return _refused(f"a <{element}> names the file '{shown}'; only <use> and <image> "
                        "may name another file")
    if element == "use" and not location.endswith(".svg"):
        return _refused(f"a <use> names '{shown}', which is not an SVG file ending in .svg")
    return Reference("file", path=Path(resolved))


def _embedded(value: str) -> Reference:
    """An embedded picture: a base64 PNG or JPEG, decoded as svglib decodes it."""
    match = _DATA_PICTURE.match(value)
    if match is None:
        return _refused(f"embeds '{value[:30]}...': an embedded picture must be a base64 PNG "
                        "or JPEG (data:image/png;base64,...)")
    text = value[match.end():]
    if not _BASE64_TEXT.fullmatch(text):
        return _refused("embeds a picture whose base64 text holds other characters")
    try:
        data = base64.decodebytes(text.encode("ascii"))
    except (binascii.Error, ValueError):
        return _refused("embeds a picture whose base64 text is cut short")
    return Reference("picture", data=data)


def pack_folder(path: Path) -> Path:
    """The pack folder an art file belongs to: the nearest folder around it that holds a
    ``game.yaml`` (every pack has one, and an expansion's card may show the base game's art,
    which then belongs to the base game); a file of no pack (pnp's own templates) may name
    files of its own folder only."""
    folder = path.parent
    for candidate in (folder, *folder.parents):
        if (candidate / "game.yaml").is_file():
            return candidate
    return folder
