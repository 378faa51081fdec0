"""Answers remembered between runs: digests of questions whose answer was worked out before.

Some answers are costly only because of what they import: a JSON Schema's verdict needs
jsonschema-rs (some 12 ms to load and compile), a template condition of a built-in game needs the
CEL runtime (some 30 ms), a built-in game's rule checks need their modules and regular
expressions. The same questions come back on every build of an unchanged pack, so
each kind of question keeps the digests of the questions it answered, with their one-byte
answer, in an entry of the cache layer (generator.cache.usercache); a run whose questions are
all known imports nothing to answer them. The entry's name covers what decides the answers
(the caller's ``parts``: a schema's text, say) and the cache layer's key recipe (pnp's files and
every installed library). What a run learns is written once, when the process ends.
"""

from __future__ import annotations

import atexit
import hashlib
import marshal
from pathlib import Path

from generator.cache.usercache import entry_name, read_entry, user_cache_folder, write_entry

DIGEST_BYTES = 16
_RECORD = DIGEST_BYTES + 1  # the digest and its answer
#: answers kept per memo (about 3.4 MB): beyond it the memo starts again from this run's
MAX_ANSWERS = 200_000


def digest_of(question: object) -> bytes | None:
    """A question's digest (marshal's bytes: types, order and all); None for one marshal cannot
    write (a YAML date, an object)."""
    try:
        written = marshal.dumps(question, 4)
    except ValueError:
        return None
    return digest_of_bytes(written)


def digest_of_bytes(data: bytes) -> bytes:
    """The digest of a question already written as bytes (a caller that encodes its records
    itself, such as the rule verdicts: generator.rules.verdicts)."""
    return hashlib.sha256(data).digest()[:DIGEST_BYTES]


class DigestMemo:
    """The answers (0..255) one kind of question got, in this run and the runs before."""

    def __init__(self, entry: Path | None, magic: bytes) -> None:
        self._entry = entry
        self._magic = magic
        self._known: dict[bytes, int] | None = None  # read at the first question
        self._learned: dict[bytes, int] = {}

    def answer(self, digest: bytes) -> int | None:
        """The answer a question of this digest got before; None when it is new."""
        if self._known is None:
            self._known = self._read()
        found = self._learned.get(digest)
        return found if found is not None else self._known.get(digest)

    def learn(self, digest: bytes, answer: int) -> None:
        """Remember an answer (kept when the process ends)."""
        if self._entry is not None:
            self._learned[digest] = answer
            _unsaved.add(self)

    def save(self) -> None:
        if self._entry is None or not self._learned:
            return
        known = self._read()  # (another run may have written it meanwhile)
        if len(known) + len(self._learned) > MAX_ANSWERS:
            known = {}
        known.update(self._learned)
        records = sorted(digest + bytes((answer,)) for digest, answer in known.items())
        write_entry(self._entry, self._magic, b"".join(records[:MAX_ANSWERS]))
        self._learned.clear()

    def _read(self) -> dict[bytes, int]:
        body = (read_entry(self._entry, self._magic, MAX_ANSWERS * _RECORD)
                if self._entry is not None else None)
        if body is None or len(body) % _RECORD:
            return {}
        return {body[at:at + DIGEST_BYTES]: body[at + DIGEST_BYTES]
                for at in range(0, len(body), _RECORD)}


_memos: dict[tuple[str, bytes], DigestMemo] = {}
_unsaved: set[DigestMemo] = set()


def memo_for(folder: str, magic: bytes, *parts: bytes) -> DigestMemo:
    """The memo of the questions whose answers ``parts`` decide, kept in the cache layer's
    ``folder`` (no entry, so nothing kept, when caches are off)."""
    key = (folder, b"\0".join(parts))
    memo = _memos.get(key)
    if memo is None:
        where = user_cache_folder(folder)
        entry = where / entry_name(*parts, suffix=f".{folder}") if where is not None else None
        memo = _memos[key] = DigestMemo(entry, magic)
    return memo


@atexit.register
def save_all() -> None:
    """Keep what this run learned (run at exit; ``pnp`` runs exit handlers before it ends)."""
    while _unsaved:
        _unsaved.pop().save()
