"""YAML files parsed once and kept between runs, as Python keeps its ``.pyc`` files.

Reading a YAML file costs PyYAML's import (it compiles a dozen regular expressions, about 15 ms)
and the parse itself, with every value's source position (:mod:`generator.load.yamlsource`). A
designer builds the same pack again and again with one file edited, and every build also reads
pnp's own templates, palettes and labels. So a file that parses without a finding is kept in
the user's cache (``~/.cache/pnp/parsed``, :func:`generator.cache.usercache.user_cache_folder`) as
marshal data: what the loader gave, its values and the packed line and column of each. The next
run that reads the same text takes it from there, and a run that finds every file there never
imports PyYAML (measured with the one loader: a warm ``pnp validate cards/cwnb`` spends 12 %
less CPU with it, a warm build 7 %). The cache is no second reader: it keeps the loader's
result and gives it back, locations made only where they are asked for.

An entry is named by a hash of the text and of the cache layer's one key
(:func:`generator.cache.usercache.key_digest`: Python, pnp's own files, every installed
library, PyYAML among them). A file with a finding is never kept: it is read, and reported,
every time. Values marshal cannot hold (a YAML date) are not kept either, nor files over
:data:`MAX_CACHED_CHARS` (a card file of thousands of cards: storing it would cost its first
reading a tenth more). ``PNP_CACHE_DIR=`` (empty) turns the cache off.
"""

from __future__ import annotations

import marshal
from array import array
from pathlib import Path

from generator.cache.usercache import entry_name, read_entry, user_cache_folder, write_entry
from generator.core.findings import Finding
from generator.load.yamldoc import NUMBERS, LoadProblem, YamlDocument, unpacked_document

PARSED_FOLDER = "parsed"
#: longer texts are parsed every time: packing the positions of a 2 MB card file costs about
#: what parsing it does, and its entry is five times its size
MAX_CACHED_CHARS = 1_000_000
_MAGIC = b"pnp-parsed 1\n"


def load_yaml_text(file: str, text: str) -> tuple[YamlDocument | None, list[Finding]]:
    """:func:`generator.load.yamlsource.load_yaml_text`, from the cache where this text was read
    before; ``file`` is the name the document's locations carry."""
    entry = _entry(text)
    if entry is not None:
        document = _document(read_entry(entry, _MAGIC), file)
        if document is not None:
            return document, []
    # imported here on purpose: a run whose files are all in the cache never imports PyYAML
    from generator.load import yamlsource

    document, findings = yamlsource.load_yaml_text(file, text)
    if entry is not None and document is not None and not findings:
        body = _document_body(document)
        if body is not None:
            write_entry(entry, _MAGIC, body)
    return document, findings


def safe_load(text: str, file: str = "<pnp's own YAML>") -> object:
    """The data of one of pnp's own YAML files (a built-in game's palette, its labels), read by
    the one loader (:func:`load_yaml_text`) without its locations; None for an empty file.
    A file with a finding is a broken installation: raises LoadProblem."""
    document, findings = load_yaml_text(file, text)
    if document is not None:
        return document.data
    if findings[0].code == "empty-file":
        return None
    raise LoadProblem(findings[0])


def _entry(text: str) -> Path | None:
    """The entry of a file's text, named by the cache layer's one recipe (entry_name)."""
    folder = user_cache_folder(PARSED_FOLDER)
    if folder is None or len(text) > MAX_CACHED_CHARS:
        return None
    return folder / entry_name(text.encode("utf-8", "surrogatepass"), suffix=".located")


def _document_body(document: YamlDocument) -> bytes | None:
    values, keys = document.packed()
    if values is None or keys is None:  # (a location in another file: not this file's own)
        return None
    try:
        return marshal.dumps((document.data, values[0], values[1].tobytes(), keys[0],
                              keys[1].tobytes()), 4)
    except ValueError:
        return None


def _document(body: bytes | None, file: str) -> YamlDocument | None:
    """The document kept in ``body``, its locations in ``file``; None for anything that is
    not what :func:`_document_body` writes."""
    if body is None:
        return None
    try:
        data, value_paths, value_numbers, key_paths, key_numbers = marshal.loads(body)
        values, keys = array(NUMBERS), array(NUMBERS)
        values.frombytes(value_numbers)
        keys.frombytes(key_numbers)
    except (EOFError, ValueError, TypeError):
        return None
    if not (_paths(value_paths, values) and _paths(key_paths, keys)):
        return None
    return unpacked_document(file, data, value_paths, values, key_paths, keys)


def _paths(paths: object, numbers: array[int]) -> bool:
    return isinstance(paths, list) and len(numbers) == 2 * len(paths) \
        and all(isinstance(path, tuple) for path in paths)
