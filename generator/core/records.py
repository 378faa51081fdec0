"""Equality for records that carry more than they say: where they were written, a cache.

Every record in pnp is a msgspec Struct (see :mod:`generator.core`). A Struct compares and
hashes all of its fields; a record with a field that is no part of its value (a source
location, a lookup filled in on first use) mixes this in and names that field in
``_UNCOMPARED``, so that two cards written in two files are still the same card.
"""

from __future__ import annotations

from typing import ClassVar


class PartlyCompared:
    """Mixin for a Struct whose equality and hash leave out the fields named in ``_UNCOMPARED``.

    Two records are equal when they are of the same class and their other fields are equal, as
    a Struct's own equality has it. A record that is filled in place (not frozen) sets
    ``__hash__ = None``: a value that changes cannot be a key. (msgspec 0.18.0 refuses
    ``gc=False`` beside a mixin, so such a record stays tracked by the collector.)"""

    __slots__ = ()

    #: fields left out of equality and hash (a subclass names its own)
    _UNCOMPARED: ClassVar[frozenset[str]] = frozenset()
    __struct_fields__: ClassVar[tuple[str, ...]]

    def _compared(self) -> tuple[object, ...]:
        skip = self._UNCOMPARED
        return tuple(getattr(self, name) for name in self.__struct_fields__ if name not in skip)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()  # type: ignore[attr-defined]

    def __ne__(self, other: object) -> bool:
        # said outright: msgspec 0.18.0 (pnp's floor) would answer != over every field
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((self.__class__, self._compared()))
