"""Instances a JSON Schema accepted before, remembered between runs.

Checking a card against its schema is quick once jsonschema-rs is loaded, but loading it and
compiling the schemas costs some 12 ms: a twentieth of building a small pack, every time, for
cards that passed last time too. So each schema keeps the digests of the instances it accepted
in the cache layer's ``valid`` folder (:func:`generator.cache.usercache.user_cache_folder`),
and an instance whose digest is there is not checked again. A run whose instances are all known
never imports jsonschema-rs.

Only a verdict of "valid" is kept: a rejected instance is checked, and reported, every time.
The digest covers the instance's exact values (marshal's bytes: types, order and all); the
entry's name covers the schema's own text and the cache layer's key recipe (pnp's files and
every installed library, jsonschema-rs among them: generator.cache.usercache.key_recipe). What a run
learns is written once, when the process ends.
"""

from __future__ import annotations

import atexit
import hashlib
import marshal
from pathlib import Path

from generator.cache.usercache import entry_name, read_entry, user_cache_folder, write_entry

MEMO_FOLDER = "valid"
_MAGIC = b"pnp-valid 1\n"
_DIGEST_BYTES = 16
#: digests kept per schema (about 3 MB): beyond it the memo starts again from this run's
MAX_DIGESTS = 200_000


class SchemaMemo:
    """The instances one schema accepted, in this run and the runs before."""

    def __init__(self, entry: Path | None) -> None:
        self._entry = entry
        self._known: set[bytes] | None = None  # read at the first question
        self._learned: set[bytes] = set()

    @staticmethod
    def digest(instance: object) -> bytes | None:
        """The instance's digest; None for one marshal cannot write (a YAML date)."""
        try:
            return hashlib.sha256(marshal.dumps(instance, 4)).digest()[:_DIGEST_BYTES]
        except ValueError:
            return None

    def accepted(self, digest: bytes) -> bool:
        """Whether the schema accepted an instance of this digest before."""
        if self._known is None:
            self._known = self._read()
        return digest in self._known or digest in self._learned

    def learn(self, digest: bytes) -> None:
        """The schema accepts an instance of this digest (kept when the process ends)."""
        if self._entry is not None:
            self._learned.add(digest)
            _unsaved.add(self)

    def save(self) -> None:
        if self._entry is None or not self._learned:
            return
        known = self._read()  # (another run may have written it meanwhile)
        if len(known) + len(self._learned) > MAX_DIGESTS:
            known = set()
        digests = sorted(known | self._learned)[:MAX_DIGESTS]
        write_entry(self._entry, _MAGIC, b"".join(digests))
        self._learned.clear()

    def _read(self) -> set[bytes]:
        body = (read_entry(self._entry, _MAGIC, MAX_DIGESTS * _DIGEST_BYTES)
                if self._entry is not None else None)
        if body is None or len(body) % _DIGEST_BYTES:
            return set()
        return {body[at:at + _DIGEST_BYTES] for at in range(0, len(body), _DIGEST_BYTES)}


_memos: dict[bytes, SchemaMemo] = {}
_unsaved: set[SchemaMemo] = set()


def memo_for(schema_text: bytes) -> SchemaMemo:
    """The memo of the schema written as ``schema_text`` (its JSON, keys sorted, with
    whatever else decides the verdict, such as the pattern engine)."""
    memo = _memos.get(schema_text)
    if memo is None:
        folder = user_cache_folder(MEMO_FOLDER)
        entry = None
        if folder is not None:
            entry = folder / entry_name(schema_text, suffix=".valid")
        memo = _memos[schema_text] = SchemaMemo(entry)
    return memo


@atexit.register
def save_all() -> None:
    """Keep what this run learned (run at exit; ``pnp`` runs exit handlers before it ends)."""
    while _unsaved:
        _unsaved.pop().save()
