"""A clean card set's rule verdict, remembered between runs.

A built-in game's rules are pure functions of the card set, written in pnp's own code
(:meth:`generator.model.game.Game.check`). Checking an unchanged pack again gives the same
answer and costs the same: the rule modules' import, their tables and regular expressions, then
the checks (some 10 ms of a small build, a twentieth of it). So the digest of each card set a
game's rules found clean is kept in a memo of the cache layer (generator.cache.memo, folder
``rules``), and a set whose digest is there is not checked again: a warm build of an unchanged
pack never imports the game's rules.

Only "clean" (no finding at all, warnings included) is kept: a set with a finding is checked,
and reported, every time, so a pack with findings reports exactly what it did.

The digest covers every value of every card, with each card's class, the packs' manifests
(their game options included) and folders: everything a rule reads, but the places of a card's
fields (looked up in its file when asked, generator.pipeline.pack), which a rule reads only to
point its finding at a field, so a set without findings reads none; the card's own place is
covered. The memo's name covers the game (:meth:`Game.rules_key`) and the cache layer's key
recipe, which holds pnp's own files: a rule edited is a new memo. A game whose rules read more
than the card set (a game defined in data reads its art files) has no key and is checked every
time; so is every set when caches are off (``PNP_CACHE_DIR=``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePath

import msgspec

from generator.cache import memo as digest_memos
from generator.cache.memo import DigestMemo
from generator.core.findings import Finding
from generator.model.cards import CardSet
from generator.model.game import Game

MEMO_FOLDER = "rules"
_MAGIC = b"pnp-rules 1\n"
_CLEAN = 1


def checked(game: Game, card_set: CardSet) -> list[Finding]:
    """``game.check(card_set)``: none at once for a set these rules found clean before."""
    key = game.rules_key()
    digest = card_set_digest(card_set) if key is not None else None
    if digest is None:
        return game.check(card_set)
    memo = _memo(key)  # type: ignore[arg-type]
    if memo.answer(digest) == _CLEAN:
        return []
    findings = game.check(card_set)
    if not findings:
        memo.learn(digest, _CLEAN)
    return findings


def card_set_digest(card_set: CardSet) -> bytes | None:
    """The digest of everything the rules read of ``card_set`` (see the module's docstring);
    None for a set with a value msgpack cannot write, which is then simply checked."""
    cards = card_set.cards
    places = {id(card.source.fields) for card in cards}

    def plain(value: object) -> object:
        """What msgpack writes for the few types of a card set it has no form of its own for."""
        if isinstance(value, PurePath):
            return str(value)
        if id(value) in places:  # where each field was written (not a rule's input): the names
            return list(value)  # type: ignore[call-overload]
        if isinstance(value, Mapping):
            return dict(value)
        raise NotImplementedError(f"no plain form for {type(value).__name__}")

    classes = "\n".join(f"{type(card).__module__}.{type(card).__qualname__}" for card in cards)
    try:  # (insertion order kept: a rule may read a mapping in the order it was written)
        written = msgspec.msgpack.Encoder(enc_hook=plain).encode(card_set)
    except (msgspec.EncodeError, TypeError, ValueError, OverflowError):
        return None
    return digest_memos.digest_of_bytes(written + b"\0" + classes.encode())


def _memo(key: bytes) -> DigestMemo:
    return digest_memos.memo_for(MEMO_FOLDER, _MAGIC, key)
