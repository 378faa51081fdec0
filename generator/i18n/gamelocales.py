"""Add a language to a pack's ``game.yaml`` by editing its text, not by rewriting the YAML.

A designer's game.yaml has comments, ordering, quoting and line endings of their own; loading
and dumping it would lose them. So ``locales:`` is changed where it stands, by the load stage's
located YAML editor (:mod:`generator.load.yamledit`): one item added to a flow list (``[en, ru]``
-> ``[en, ru, de]``) or one ``- de`` line after the last item of a block list, or a
``locales: [en, de]`` line after ``source_locale:`` when there is none (an empty one is filled
the same way). Every other byte of the file stays. The result is read again with pnp's own
loader before it is written; anything unusual gets no edit, but a message saying exactly which
line to change.
"""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml.nodes import MappingNode, SequenceNode

from generator.core.errors import UsageError
from generator.load.parsecache import load_yaml_text
from generator.load.yamledit import EditRefused, append_item, compose, edit_mapping, mapping_field
from generator.runtime.safewrite import write_atomic

#: where a new ``locales:`` goes: after ``source_locale:``
_ORDER = ("pack", "name", "version", "source_locale", "locales")
_NULL = "tag:yaml.org,2002:null"


def _by_hand(path: Path, locale: str, why: str) -> UsageError:
    return UsageError(f"{path}: {why}; add '{locale}' to the 'locales:' list there by hand "
                      f"(e.g. locales: [en, {locale}]) and run the command again")


def with_locale(text: str, locale: str, source_locale: str) -> str:
    """The text with ``locale`` added to ``locales:`` (EditRefused when the layout is not one
    that can be edited without touching anything else)."""
    root = compose(text)
    if not isinstance(root, MappingNode):
        raise EditRefused("it is not a mapping of settings")
    found = mapping_field(root, "locales")
    value = found[1] if found is not None else None
    if isinstance(value, SequenceNode) and value.value:
        return append_item(text, value, locale)
    if value is None or isinstance(value, SequenceNode) or value.tag == _NULL:  # none, [], ~
        return edit_mapping(text, root, {"locales": [source_locale, locale]}, _ORDER)
    raise EditRefused("its 'locales:' is not a plain list pnp can extend")


def _settings(text: str, name: str) -> dict[str, object] | None:
    document, problems = load_yaml_text(name, text)  # pnp's one YAML loader
    data = document.data if document is not None and not problems else None
    return data if isinstance(data, dict) else None


def add_locale(path: Path, locale: str, source_locale: str) -> None:
    """Add ``locale`` to the ``locales:`` of the game.yaml at ``path`` (UsageError with the
    exact instruction when it cannot be done safely)."""
    try:
        text = path.read_bytes().decode("utf-8")  # as it is: its line breaks are the file's
    except OSError as exc:
        raise _by_hand(path, locale, f"cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise _by_hand(path, locale, "it is not UTF-8 text") from None
    try:
        edited = with_locale(text, locale, source_locale)
    except EditRefused as refused:
        raise _by_hand(path, locale, str(refused)) from None
    before, after = _settings(text, path.name), _settings(edited, path.name)
    if before is None or after is None or locale not in (after.get("locales") or []) or {
            k: v for k, v in before.items() if k != "locales"} != {
            k: v for k, v in after.items() if k != "locales"}:
        raise _by_hand(path, locale, "pnp could not add the language safely")
    try:
        write_atomic(path, edited.encode("utf-8"))
    except OSError as exc:
        raise _by_hand(path, locale, f"cannot write it ({exc.strerror})") from None
