"""The faces a build keeps for the next one (generator.layout.facecache): an edited card is laid out
again and nothing else; any other changed input lays out every face; what comes out is always
what a fresh layout gives, findings included."""

from __future__ import annotations

import pickle
import shutil
import zlib
from pathlib import Path

import pytest
from conftest import CWNB, ROOT

from generator.cache import usercache
from generator.impose.sheets import SheetOptions
from generator.layout import facecache
from generator.layout import faces as cardfaces
from generator.pipeline.build import build
from generator.pipeline.prepare import FaceCacheFolder, Prepared, prepare
from generator.render import sheetpdfs as sheetfiles

ROCKPOOL = ROOT / "cards" / "rockpool"
LONG_NAME = "Admiral " + "Wordsworth " * 12


def laid_out(pack: Path, folder: Path | None, *, reuse: bool = True,
             locale: str | None = None, bleed_mm: float = 1.5, ink_saver: bool = False,
             expansions: tuple[Path, ...] = (), allow_overflow: bool = False
             ) -> tuple[Prepared, list]:
    """Prepare ``pack`` with the face cache in ``folder`` (None: no cache at all)."""
    cache = FaceCacheFolder(folder, reuse=reuse) if folder is not None else None
    preparation = prepare(pack, expansions, locale, bleed_mm, ink_saver=ink_saver,
                          face_cache=cache, allow_overflow=allow_overflow)
    assert preparation.prepared is not None, preparation.findings
    if cache is not None:  # (as a build does once it has printed them)
        cache.keep(preparation.prepared.faces)
    return preparation.prepared, preparation.findings


def assert_fresh(prepared: Prepared, fresh: Prepared) -> None:
    """Every face as a fresh layout draws it, in the same order, and the same face names."""
    assert list(prepared.faces.layouts) == list(fresh.faces.layouts)
    assert prepared.faces.layouts == fresh.faces.layouts
    assert prepared.faces.fronts == fresh.faces.fronts
    assert prepared.faces.backs == fresh.faces.backs


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def forget_recipe() -> None:
    """Take the key recipe (and its digest) again: computed once per process."""
    usercache.key_recipe.cache_clear()
    usercache.key_digest.cache_clear()


@pytest.fixture
def cwnb(tmp_path: Path) -> Path:
    shutil.copytree(CWNB, tmp_path / "cwnb")
    return tmp_path / "cwnb"


@pytest.fixture
def rockpool(tmp_path: Path) -> Path:
    shutil.copytree(ROCKPOOL, tmp_path / "rockpool")
    return tmp_path / "rockpool"


def test_an_edited_card_is_laid_out_again_and_no_other(cwnb: Path, tmp_path: Path) -> None:
    folder = tmp_path / "faces"
    first, _ = laid_out(cwnb, folder)
    total = len(first.faces.layouts)
    assert first.faces.laid_out == total and len(first.faces.digests) == total
    again, _ = laid_out(cwnb, folder)
    assert again.faces.laid_out == 0
    assert_fresh(again, first)
    edit(cwnb / "ships.yaml", "name: USS Nimitz", "name: USS Nimitz II")
    edited, _ = laid_out(cwnb, folder)
    # its front, and its back unless the back is one every card shares
    own_back = edited.faces.backs["uss-nimitz"][1] != cardfaces.SHARED_FACE
    assert edited.faces.laid_out == 1 + own_back
    fresh, _ = laid_out(cwnb, None)
    assert_fresh(edited, fresh)
    nimitz = edited.faces.fronts["uss-nimitz"]
    assert any("USS Nimitz II" in getattr(op, "text", "") for op in
               edited.faces.layouts[nimitz].ops)
    assert edited.faces.digests[nimitz] != first.faces.digests[nimitz]


def test_a_card_moved_in_its_file_is_taken_from_the_cache(cwnb: Path, tmp_path: Path) -> None:
    """Where a card is written is not part of its face: lines added above it cost nothing,
    and its findings still point at its new lines."""
    folder = tmp_path / "faces"
    laid_out(cwnb, folder)
    ships = cwnb / "ships.yaml"
    ships.write_text("# a comment\n# and another\n" + ships.read_text(encoding="utf-8"),
                     encoding="utf-8")
    moved, _ = laid_out(cwnb, folder)
    assert moved.faces.laid_out == 0


@pytest.mark.parametrize("change", [
    "template", "glossary", "catalog", "palette", "font", "art", "manifest", "icon"])
def test_any_change_but_a_card_lays_out_every_face(rockpool: Path, tmp_path: Path,
                                                   change: str) -> None:
    folder = tmp_path / "faces"
    first, _ = laid_out(rockpool, folder, locale="de")
    total = len(first.faces.layouts)
    if change == "template":
        edit(rockpool / "templates" / "creature.yaml", "size: 15", "size: 14")
    elif change == "glossary":
        path = rockpool / "glossary.yaml"
        path.write_text(path.read_text(encoding="utf-8") + "\n# noted\n", encoding="utf-8")
    elif change == "catalog":
        edit(rockpool / "locales" / "de.po", 'msgstr "Gezeiten', 'msgstr "Flut')
    elif change == "palette":
        edit(rockpool / "game.yaml", 'ink: "#1f2a33"', 'ink: "#1f2a34"')
    elif change == "font":
        font = rockpool / "fonts" / "Marcellus-Regular.ttf"
        font.write_bytes(font.read_bytes() + b"\0")
    elif change == "art":
        art = next(path for path in (rockpool / "art").iterdir() if path.is_file())
        art.write_bytes(art.read_bytes() + b"\n")
    elif change == "manifest":
        edit(rockpool / "game.yaml", "name: ", "name: New ")
    else:
        icon = next((rockpool / "icons").iterdir())
        icon.write_bytes(icon.read_bytes() + b"\n")
    again, _ = laid_out(rockpool, folder, locale="de")
    assert again.faces.laid_out == total
    assert not set(again.faces.digests.values()) & set(first.faces.digests.values())


@pytest.mark.parametrize("option", ["bleed", "locale", "ink_saver"])
def test_a_changed_option_lays_out_every_face(cwnb: Path, tmp_path: Path, option: str) -> None:
    folder = tmp_path / "faces"
    laid_out(cwnb, folder, locale="en")
    other = {"bleed": {"bleed_mm": 3.0}, "locale": {"locale": "ru"},
             "ink_saver": {"ink_saver": True}}[option]
    changed, _ = laid_out(cwnb, folder, **{"locale": "en", **other})  # type: ignore[arg-type]
    assert changed.faces.laid_out == len(changed.faces.layouts)
    fresh, _ = laid_out(cwnb, None, **{"locale": "en", **other})  # type: ignore[arg-type]
    assert_fresh(changed, fresh)


@pytest.fixture
def recipe():
    """The key recipe is computed once per process: taken again after a test changed it."""
    forget_recipe()
    yield
    forget_recipe()


@pytest.mark.parametrize("what", ["pnp", "library"])
def test_pnp_itself_and_its_libraries_are_inputs(cwnb: Path, tmp_path: Path, monkeypatch,
                                                 recipe, what: str) -> None:
    """pnp's code, templates and fonts (a built-in game's templates are pnp's files), and
    the version of every library (ReportLab upgraded)."""
    folder = tmp_path / "faces"
    laid_out(cwnb, folder)
    if what == "pnp":
        monkeypatch.setattr(usercache, "pnp_stamps", lambda: b"another pnp")
    else:
        versions = usercache.installed_versions()
        monkeypatch.setattr(usercache, "installed_versions", lambda: tuple(
            v.replace("reportlab-", "reportlab-9") for v in versions))
    forget_recipe()
    again, _ = laid_out(cwnb, folder)
    assert again.faces.laid_out == len(again.faces.layouts)


def test_a_data_cards_fields_are_part_of_its_face(rockpool: Path, tmp_path: Path) -> None:
    """A data game's conditions read the card's fields, so they name its face too."""
    folder = tmp_path / "faces"
    first, _ = laid_out(rockpool, folder)
    cache = facecache.FaceCache(b"k")
    assert cache.digest("t", 0, {"a": 1}, {"b": 1}) != cache.digest("t", 0, {"a": 1}, {"b": 2})
    assert cache.digest("t", 0, {"a": 1}) != cache.digest("t", 0, {"a": True})
    assert cache.digest("t", 0, {"a": [1]}) != cache.digest("t", 0, {"a": (1,)})
    assert cache.digest("t", 0, {"a": 1}) != cache.digest("t", 1, {"a": 1})
    assert cache.digest("t", 0, {"a": object()}) is None  # not plain data: never kept
    again, _ = laid_out(rockpool, folder)
    assert again.faces.laid_out == 0
    assert_fresh(again, first)


def overflowing(folder: Path) -> tuple[Path]:
    """An expansion of three ships whose name does not fit (one finding, counting two more
    faces), and a fourth that overflows differently."""
    folder.mkdir()
    (folder / "game.yaml").write_text(
        "pack: long-names\ngame: cwnb\nname: Long names\nsource_locale: en\n"
        "locales: [en, ru]\nset_mark: long\nextends: cwnb\n", encoding="utf-8")
    extra = "".join(f"""
  - id: long-{n}
    kind: ship
    name: {LONG_NAME if n < 3 else LONG_NAME * 2}
    class: Long
    type: DD
    nation: US
    points: 4
    hits_to_sink: 3
    guns: [5in]
""" for n in range(4))
    (folder / "long.yaml").write_text("cards:" + extra, encoding="utf-8")
    return (folder,)


@pytest.mark.parametrize("forked", [False, True])
def test_findings_on_reuse_are_a_fresh_layouts(cwnb: Path, tmp_path: Path, monkeypatch,
                                               forked: bool) -> None:
    """In one process, and with the layout begun beside the rule checks in a forked process
    that takes every card (most faces are in the cache)."""
    if forked:
        monkeypatch.setattr(cardfaces, "SPLIT_CARDS", 20)
    long = overflowing(tmp_path / "long")
    folder = tmp_path / "faces"
    _, fresh = laid_out(cwnb, None, allow_overflow=True, expansions=long)
    overflow = [f for f in fresh if f.code == "text-overflow"]
    assert len(overflow) >= 2 and "(the same on 2 more card faces)" in overflow[0].message
    laid_out(cwnb, folder, allow_overflow=True, expansions=long)
    edit(cwnb / "ships.yaml", "name: USS Nimitz", "name: USS Nimitz II")
    # lines added above the long names: their findings must point at the new lines
    cards = long[0] / "long.yaml"
    cards.write_text("# moved\n" + cards.read_text(encoding="utf-8"), encoding="utf-8")
    reused, findings = laid_out(cwnb, folder, allow_overflow=True, expansions=long)
    assert 1 <= reused.faces.laid_out <= 2
    _, fresh = laid_out(cwnb, None, allow_overflow=True, expansions=long)
    assert findings == fresh  # messages, repeat counts, locations, order
    assert [f.location.line for f in findings if f.code == "text-overflow"] == \
        [f.location.line + 1 for f in overflow]


def test_two_processes_with_a_cache_lay_out_as_one(cwnb: Path, tmp_path: Path,
                                                   monkeypatch) -> None:
    """A set laid out in two halves, the forked half with some faces in the cache: the
    faces it names only come back from this process's cache, in their places."""
    long = overflowing(tmp_path / "long")
    monkeypatch.setattr(cardfaces, "SPLIT_CARDS", 20)
    folder = tmp_path / "faces"
    laid_out(cwnb, folder, allow_overflow=True, expansions=long)
    path = next(folder.rglob("*.faces"))
    kept = facecache.load(path, _key(path))
    assert kept.known
    # keep a third of the faces: too few to skip the fork
    known = dict(list(kept.known.items())[::3])
    facecache.save(path, facecache.FaceCache(kept.key), {d: facecache.FaceLayout(*e)
                                                         for d, e in known.items()},
                   {d: d for d in known})
    split, findings = laid_out(cwnb, folder, allow_overflow=True, expansions=long)
    assert 0 < split.faces.laid_out < len(split.faces.layouts)
    fresh, fresh_findings = laid_out(cwnb, None, allow_overflow=True, expansions=long)
    assert_fresh(split, fresh)
    assert findings == fresh_findings


def _key(path: Path) -> bytes:
    """The inputs key an entry was written for (the first bytes of its body)."""
    body = usercache.read_entry(path, facecache._MAGIC)
    assert body is not None
    return body[:32]


@pytest.mark.parametrize("damage", ["truncated", "wrong checksum", "garbage", "empty", "other key",
                                    "planted"])
def test_a_damaged_cache_is_ignored(cwnb: Path, tmp_path: Path, damage: str) -> None:
    folder = tmp_path / "faces"
    first, _ = laid_out(cwnb, folder)
    path = next(folder.rglob("*.faces"))
    raw = path.read_bytes()
    key = _key(path)
    if damage == "truncated":
        path.write_bytes(raw[:len(raw) // 2])
    elif damage == "wrong checksum":
        checksum = raw.split(b"\n")[3]  # a body intact, its checksum not
        path.write_bytes(raw.replace(checksum, bytes(reversed(checksum)), 1))
    elif damage == "garbage":
        path.write_bytes(b"\x00\xff" * 500)
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "other key":  # a sound entry, written for other inputs
        body = usercache.read_entry(path, facecache._MAGIC)
        assert body is not None
        usercache.write_entry(path, facecache._MAGIC, b"0" * 32 + body[32:])
    else:  # a pickle that would run code, in an entry whose checksum matches it
        evil = zlib.compress(pickle.dumps({b"x" * 20: (1.0, 1.0, [Evil(tmp_path)], [])}))
        usercache.write_entry(path, facecache._MAGIC, key + evil)
    again, _ = laid_out(cwnb, folder)
    assert again.faces.laid_out == len(again.faces.layouts)
    assert_fresh(again, first)
    assert not (tmp_path / "pwned").exists()
    assert facecache.load(path, key).known  # written afresh


class Evil:
    """What a planted cache file could hold: unpickled, it would run a command."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def __reduce__(self):
        import os

        return (os.system, (f"touch {self.folder / 'pwned'}",))


def test_force_lays_out_every_face_and_keeps_them(cwnb: Path, tmp_path: Path,
                                                  monkeypatch) -> None:
    folder = tmp_path / "faces"
    laid_out(cwnb, folder)
    forced, _ = laid_out(cwnb, folder, reuse=False)
    assert forced.faces.laid_out == len(forced.faces.layouts)
    again, _ = laid_out(cwnb, folder)
    assert again.faces.laid_out == 0
    # and `pnp build --force` asks for it so
    asked: list[bool] = []
    original = FaceCacheFolder.open

    def spy(self, *args, **kwargs):
        asked.append(self.reuse)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(FaceCacheFolder, "open", spy)
    out = tmp_path / "out"
    build(cwnb, (), None, SheetOptions(), out, reuse=False)
    build(cwnb, (), None, SheetOptions(), out)
    assert asked == [False, True]
    folder = facecache.faces_folder(out)
    assert folder is not None and list(folder.rglob("*.faces"))


def test_an_edit_and_its_revert_print_the_same_bytes(cwnb: Path, tmp_path: Path,
                                                     monkeypatch) -> None:
    """Through both caches (faces, and chunks of pages): a set laid out in two processes and
    drawn in chunks, edited, then reverted, prints what a build from nothing prints, and the
    edit draws one chunk again."""
    monkeypatch.setattr(cardfaces, "SPLIT_CARDS", 20)
    monkeypatch.setattr(sheetfiles, "CHUNK_SHEETS", 5)  # 21 sheets: 6 chunks
    out = tmp_path / "out"
    first = build(cwnb, (), None, SheetOptions(), out).out_dir
    assert first is not None
    printed = {name: (first / name).read_bytes()
               for name in ("fronts.pdf", "backs.pdf", "duplex.pdf", "manifest.json")}
    cache = usercache.output_cache_folder(out)
    assert cache is not None
    chunks = cache / "pages" / "cwnb" / "en" / "a4"
    before = {path.name: path.stat().st_mtime_ns for path in chunks.glob("*.pdf")}
    # a card in the half the forked process lays out (the last ship of the last file)
    edit(cwnb / "ships.yaml", "name: Rubis", "name: Rubis II")
    build(cwnb, (), None, SheetOptions(), out)
    after = {path.name: path.stat().st_mtime_ns for path in chunks.glob("*.pdf")}
    assert len(set(after.items()) - set(before.items())) == 1
    edit(cwnb / "ships.yaml", "name: Rubis II", "name: Rubis")
    reverted = build(cwnb, (), None, SheetOptions(), out).out_dir
    assert reverted is not None
    for name, content in printed.items():
        assert (reverted / name).read_bytes() == content, name
    fresh = build(cwnb, (), None, SheetOptions(), tmp_path / "fresh", reuse=False).out_dir
    assert fresh is not None
    for name, content in printed.items():
        assert (fresh / name).read_bytes() == content, name
