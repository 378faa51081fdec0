"""Add a language to a pack's ``game.yaml`` by editing its text, not by rewriting the YAML.

A designer's game.yaml has comments, ordering and quoting of their own; loading and dumping it
would lose them. So ``locales:`` is changed where it stands: one item added to a flow list
(``[en, ru]`` -> ``[en, ru, de]``) or one ``- de`` line after the last item of a block list, or a
``locales:`` line added when there is none. The result is parsed again before it is written;
anything unusual gets no edit, but a message saying exactly which line to change.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import yaml

from generator.core.errors import UsageError
from generator.load.parsecache import load_yaml_text


def _by_hand(path: Path, locale: str, why: str) -> UsageError:
    return UsageError(f"{path}: {why}; add '{locale}' to the 'locales:' list there by hand "
                      f"(e.g. locales: [en, {locale}]) and run the command again")


def _edited(text: str, locale: str, source_locale: str) -> str | None:
    """The text with ``locale`` added to ``locales:``; None when the layout is not one we
    can edit safely."""
    try:
        root = yaml.compose(text)
    except yaml.YAMLError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    for key, value in root.value:
        if not isinstance(key, yaml.ScalarNode) or key.value != "locales":
            continue
        if not isinstance(value, yaml.SequenceNode) or not value.value:
            return None
        if value.flow_style:
            close = value.end_mark.index - 1
            if text[close] != "]":
                return None
            return text[:close].rstrip() + f", {locale}" + text[close:]
        last = value.value[-1]
        item_line_start = text.rfind("\n", 0, last.start_mark.index) + 1
        dash = text.rfind("-", item_line_start, last.start_mark.index)
        if dash < 0:
            return None
        indent = text[item_line_start:dash]
        line_end = text.find("\n", last.end_mark.index)
        line_end = len(text) if line_end < 0 else line_end
        return text[:line_end] + f"\n{indent}- {locale}" + text[line_end:]
    for key, value in root.value:  # no locales: yet: add one after source_locale
        if isinstance(key, yaml.ScalarNode) and key.value == "source_locale":
            line_end = text.find("\n", value.end_mark.index)
            line_end = len(text) if line_end < 0 else line_end
            return text[:line_end] + f"\nlocales: [{source_locale}, {locale}]" + text[line_end:]
    return None


def add_locale(path: Path, locale: str, source_locale: str) -> None:
    """Add ``locale`` to the ``locales:`` of the game.yaml at ``path`` (UsageError with the
    exact instruction when it cannot be done safely)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise _by_hand(path, locale, f"cannot read it ({exc.strerror})") from None
    edited = _edited(text, locale, source_locale)
    if edited is None:
        raise _by_hand(path, locale, "its 'locales:' is not a plain list pnp can extend")
    document, _ = load_yaml_text(path.name, edited)  # pnp's one YAML loader
    data = document.data if document is not None else None
    if not isinstance(data, dict) or locale not in (data.get("locales") or []):
        raise _by_hand(path, locale, "pnp could not add the language safely")
    handle, scratch = tempfile.mkstemp(prefix=f".{path.name}.tmp-", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(edited)
        os.chmod(scratch, 0o644)
        os.replace(scratch, path)
    except OSError as exc:
        Path(scratch).unlink(missing_ok=True)
        raise _by_hand(path, locale, f"cannot write it ({exc.strerror})") from None
