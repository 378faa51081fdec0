"""Inline icons and set marks drawn from SVG files, for data games and built-in games alike.

An icon file is a drawing whose viewBox bottom edge is the text baseline: the painter scales it
to :data:`HEIGHT_EM` of the font size (narrower if it would exceed :data:`MAX_WIDTH_EM`) and
centres it in the advance the line breaker reserved (``textfit.ICON_WIDTH``). Parts painted
``currentColor`` take the text's colour, so one file serves dark text on paper, light text on a
coloured band and the ink-saver palette.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

from generator.layout.ops import Image, Op
from generator.layout.textfit import ICON_WIDTH
from generator.load.art import ArtProblem, art_info, resolve

IconPainter = Callable[[float, float, float, str], list[Op]]  # x, baseline, size mm, color
HEIGHT_EM = 0.9
MAX_WIDTH_EM = 1.1
ICON_FOLDER = "icons"


def svg_icon(path: Path) -> IconPainter:
    """The painter of one icon file (an unreadable file draws nothing: validation says why)."""

    def paint(x: float, baseline: float, size_mm: float, color: str) -> list[Op]:
        try:
            info = art_info(path, "icon")
        except ArtProblem:
            return []
        width = min(size_mm * HEIGHT_EM * info.aspect, size_mm * MAX_WIDTH_EM)
        height = width / info.aspect
        return [Image(x + (size_mm * ICON_WIDTH - width) / 2, baseline - height, width, height,
                      str(path), info.vector, color=color if info.tintable else None)]

    return paint


def icon_files(root: Path) -> Mapping[str, Path]:
    """``icons/<name>.svg`` files under a game's art folder that can be drawn, by name; read
    again when the folder changes (``pnp watch`` sees an icon added). The others are in
    :func:`icon_refusals`."""
    return _icons(root)[0]


def icon_refusals(root: Path) -> Mapping[str, str]:
    """Icon files that cannot be drawn, by name, with the reason (the pack file policy: a link
    out of the pack or a dangling one, a named pipe, a file too large; or not a readable SVG),
    so that a text naming one is told why instead of drawing nothing."""
    return _icons(root)[1]


def _icons(root: Path) -> tuple[Mapping[str, Path], Mapping[str, str]]:
    folder = root / ICON_FOLDER
    try:
        changed = folder.stat().st_mtime_ns
    except OSError:
        return MappingProxyType({}), MappingProxyType({})
    return _read_icons(root, changed)


@cache
def _read_icons(root: Path, changed: int) -> tuple[Mapping[str, Path], Mapping[str, str]]:
    usable: dict[str, Path] = {}
    refused: dict[str, str] = {}
    for path in sorted((root / ICON_FOLDER).glob("*.svg")):  # links and pipes too
        try:
            usable[path.stem] = art_info(resolve(root, f"{ICON_FOLDER}/{path.name}", "icon"),
                                         "icon").path
        except ArtProblem as problem:
            refused[path.stem] = problem.message
    return MappingProxyType(usable), MappingProxyType(refused)


def folder_icons(root: Path, prefix: str = "") -> dict[str, IconPainter]:
    """Painters of every icon under ``root``: ``{<prefix><name>}`` in a text draws one."""
    return {f"{prefix}{name}": svg_icon(path) for name, path in icon_files(root).items()}


def icon_mark(root: Path | None, mark: str, box: tuple[float, float, float, float],
              color: str) -> list[Op] | None:
    """A set mark that names one of the game's icons, drawn to fill the square ``box``
    (centred, proportions kept); None when there is no such icon."""
    if root is None:
        return None
    path = icon_files(root).get(mark)
    if path is None:
        return None
    try:
        info = art_info(path, "icon")
    except ArtProblem:
        return None
    x, y, w, h = box
    draw_w, draw_h = (w, w / info.aspect) if info.aspect >= w / h else (h * info.aspect, h)
    return [Image(x + (w - draw_w) / 2, y + (h - draw_h) / 2, draw_w, draw_h, str(path),
                  info.vector, color=color if info.tintable else None)]
