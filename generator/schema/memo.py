"""Instances a JSON Schema accepted before, remembered between runs.

Checking a card against its schema is quick once jsonschema-rs is loaded, but loading it and
compiling the schemas costs some 12 ms: a twentieth of building a small pack, every time, for
cards that passed last time too. So each schema keeps the digests of the instances it accepted
in a memo of the cache layer (generator.cache.memo, folder ``valid``), and an instance whose
digest is there is not checked again. A run whose instances are all known never imports
jsonschema-rs.

Only a verdict of "valid" is kept: a rejected instance is checked, and reported, every time.
The digest covers the instance's exact values (marshal's bytes: types, order and all); the
entry's name covers the schema's own text and the cache layer's key recipe.
"""

from __future__ import annotations

from generator.cache import memo as digest_memos
from generator.cache.memo import DigestMemo, digest_of

MEMO_FOLDER = "valid"
_MAGIC = b"pnp-valid 2\n"
_ACCEPTED = 1
save_all = digest_memos.save_all


class SchemaMemo:
    """The instances one schema accepted, in this run and the runs before."""

    def __init__(self, memo: DigestMemo) -> None:
        self._memo = memo

    @staticmethod
    def digest(instance: object) -> bytes | None:
        """The instance's digest; None for one marshal cannot write (a YAML date)."""
        return digest_of(instance)

    def accepted(self, digest: bytes) -> bool:
        """Whether the schema accepted an instance of this digest before."""
        return self._memo.answer(digest) == _ACCEPTED

    def learn(self, digest: bytes) -> None:
        """The schema accepts an instance of this digest (kept when the process ends)."""
        self._memo.learn(digest, _ACCEPTED)


def memo_for(schema_text: bytes) -> SchemaMemo:
    """The memo of the schema written as ``schema_text`` (its JSON, keys sorted, with
    whatever else decides the verdict, such as the pattern engine)."""
    return SchemaMemo(digest_memos.memo_for(MEMO_FOLDER, _MAGIC, schema_text))
