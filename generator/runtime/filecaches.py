"""Forgetting what this process remembered of files: a long-running command (``pnp watch``,
``pnp studio``) reads the pack again after an edit, and the package's ``functools`` caches of
what files said (templates, labels, palettes, glossaries) must not answer for the old files.

Caches that depend on pnp's own code and libraries only (fonts, text measures, compiled CEL)
are kept: no edit of a pack changes them, and filling them again is slow.
"""

from __future__ import annotations

import sys

#: modules whose caches hold nothing a pack's file said
_PURE_CACHES = frozenset({"generator.load.fonts", "generator.layout.textfit",
                          "generator.render.pdf", "generator.runtime.resources",
                          "generator.rules.cel", "generator.rules.celtree"})


def forget_file_caches() -> None:
    """Empty every ``functools`` cache of the package that may hold what a file said."""
    seen: set[int] = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith("generator.") or module is None:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if (clear is None or id(value) in seen
                    or getattr(value, "__module__", "") in _PURE_CACHES):
                continue
            seen.add(id(value))
            clear()
